"""Reaction windows through Discord: the reaction clock, passes that never count as away, More time, Done for a turn."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from simcord.actors import MemberActor
from simcord.results import InteractionResult

from bot.i18n import translate
from bot.tables import DEFAULT_REACTION_SECONDS, MORE_TIME_SECONDS, choose_ai_action
from games.core.protocol import reaction_seats
from games.coup.engine import stacked_deck
from games.coup.models import Allow, Card, CollectTax, Phase
from games.intrigue.models import Phase as IntriguePhase
from tests.bot.ui.test_ui_intrigue import play_until
from tests.support import World, button_rows, component_ids, embed_text, private_text

pytestmark = pytest.mark.asyncio

D = Card
TRIO_DECK = stacked_deck([[D.DUKE, D.CAPTAIN], [D.CONTESSA, D.AMBASSADOR], [D.ASSASSIN, D.CONTESSA]])


#: Интриги's Done as the action log stores it.
DONE_JSON = '{"kind":"done"}'


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


async def trio(world: World) -> tuple[list[MemberActor], int]:
    people = world.members("alice", "bob", "carol")
    world.rig(deck=TRIO_DECK, first_seat=0)
    return people, await world.seat(*people)


async def open_window(world: World, people: list[MemberActor], table_id: int) -> int:
    """Let the player whose turn it is declare Tax on the board; return the window's prompt version."""
    state = world.state(table_id)
    assert state.phase is Phase.DECLARE
    result = await world.act(people[state.turn], table_id, CollectTax())
    assert not result.ephemeral, private_text(result)
    assert world.state(table_id).phase is Phase.RESPOND_ACTION
    return world.table(table_id).prompt_version


async def timeouts(world: World, table_id: int) -> list[tuple[bool, int]]:
    return [(s.autopilot, s.timeouts_in_row) for s in await world.bot.storage.seats(table_id)]


async def more_time(world: World, member: MemberActor, table_id: int, prompt: int) -> InteractionResult:
    """Press the board's "More time" of the window that opened at ``prompt``."""
    return await member.click(world.board(table_id), custom_id=f"more:{table_id}:{prompt}")


async def test_coup_windows_pass_silently_on_the_reaction_clock_and_nobody_goes_away(world):
    people, table_id = await trio(world)
    for window in range(4):  # twice the two timeouts in a row that hand a seat to the AI
        turn = world.state(table_id).turn
        await open_window(world, people, table_id)
        await world.env.advance_time(DEFAULT_REACTION_SECONDS - 1)
        assert world.state(table_id).phase is Phase.RESPOND_ACTION, window  # not yet
        await world.env.advance_time(2)

        state = world.state(table_id)
        assert state.phase is Phase.DECLARE and state.turn == (turn + 1) % 3  # allowed by default: resolved
        assert await timeouts(world, table_id) == [(False, 0)] * 3
    board = embed_text(world.board(table_id).embeds)
    assert en("ui.board.autopilot", names="alice") not in board
    assert f"tbl:{table_id}:back" not in component_ids(world.components(world.board(table_id)))

    # A missed decision of one's own turn still counts.
    turn = world.state(table_id).turn
    await world.env.advance_time(61)
    assert (await timeouts(world, table_id))[turn] == (False, 1)


async def test_more_time_extends_a_window_once_per_player_and_shows_it(world):
    people, table_id = await trio(world)
    alice, bob, carol = people
    dave = world.member("dave")
    prompt = await open_window(world, people, table_id)
    deadline = world.table(table_id).deadline
    assert deadline is not None
    assert f"more:{table_id}:{prompt}" in component_ids(world.components(world.board(table_id)))

    pressed = await more_time(world, bob, table_id, prompt)

    assert not pressed.ephemeral, private_text(pressed)
    assert world.table(table_id).deadline == deadline + MORE_TIME_SECONDS
    assert en("react.taken", names="bob", seconds=MORE_TIME_SECONDS) in embed_text(world.board(table_id).embeds)
    for member, key in (
        (bob, "react.already_extended"),  # a second press
        (alice, "react.not_awaited"),  # the player who declared is not asked
        (dave, "table.not_seated"),
    ):
        refused = await more_time(world, member, table_id, prompt)
        assert refused.ephemeral and private_text(refused) == en(key), member
    assert world.table(table_id).deadline == deadline + MORE_TIME_SECONDS
    old_board = await world.stale_copy(table_id)  # still offering More time, to click once it is over
    await more_time(world, carol, table_id, prompt)  # Carol too, once: nobody is left to ask
    assert world.table(table_id).deadline == deadline + 2 * MORE_TIME_SECONDS
    assert f"more:{table_id}:{prompt}" not in component_ids(world.components(world.board(table_id)))

    await world.env.advance_time(DEFAULT_REACTION_SECONDS + 2 * MORE_TIME_SECONDS - 2)
    assert world.state(table_id).phase is Phase.RESPOND_ACTION  # the window waits the extra time
    await world.env.advance_time(4)

    assert world.state(table_id).phase is Phase.DECLARE
    assert await timeouts(world, table_id) == [(False, 0)] * 3
    stale = await carol.click(old_board, custom_id=f"more:{table_id}:{prompt}")
    assert stale.ephemeral and private_text(stale) == en("react.window_closed")


async def test_more_time_is_refused_in_russian_to_a_russian_client(world):
    people, table_id = await trio(world)
    prompt = await open_window(world, people, table_id)
    vera = world.member("vera", locale="ru")
    refused = await more_time(world, vera, table_id, prompt)
    assert private_text(refused) == translate("ru", "table.not_seated")
    twice = [await more_time(world, people[1], table_id, prompt) for _ in range(2)]
    assert not twice[0].ephemeral and twice[1].ephemeral


async def test_a_restart_keeps_the_extended_deadline(world):
    people, table_id = await trio(world)
    prompt = await open_window(world, people, table_id)
    await more_time(world, people[2], table_id, prompt)
    extended = world.table(table_id).deadline
    assert extended is not None

    await world.restart()

    assert world.table(table_id).deadline == extended
    result = await world.act(people[1], table_id, Allow())  # the window goes on for Carol, extended
    assert not result.ephemeral, private_text(result)
    assert world.table(table_id).deadline == extended
    await world.env.advance_time(DEFAULT_REACTION_SECONDS + MORE_TIME_SECONDS - 3)
    assert world.state(table_id).phase is Phase.RESPOND_ACTION
    await world.env.advance_time(6)
    assert world.state(table_id).phase is Phase.DECLARE
    assert await timeouts(world, table_id) == [(False, 0)] * 3


# ---------------------------------------------------------------------- Интриги: Done until the end of the turn
async def _intrigue_window_of(
    world: World, member: MemberActor, table_id: int, *, after_turn: int = 0, first: bool = False
) -> int:
    """Play the humans as the AI would until a window asks ``member`` (after turn ``after_turn``); return her seat.

    ``first``: the turn's first window (Lands I), so that more windows of the same turn follow.
    """
    seat = world.table(table_id).seat_of(member.id)
    assert seat is not None
    engine = world.table(table_id).engine

    def asked(state: Any) -> bool:
        early = not first or state.phase is IntriguePhase.LANDS_ONE
        return seat.seat in reaction_seats(engine, state) and state.turn > after_turn and early

    await play_until(world, table_id, asked)
    return seat.seat


async def answered_for_her(world: World, table_id: int) -> None:
    """Wait until the table has answered what it answers itself (its task commits through a storage thread)."""
    for _ in range(500):
        await world.env.settle()
        if table_id not in world.service._ai_tasks:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the table never finished answering for its seats")


async def test_done_until_the_end_of_the_turn_passes_her_windows_without_calling_her(world):
    alice, bob = world.members("alice", "bob")
    world.rig(seed="pass-1")
    table_id = await world.seat(alice, bob, game="intrigue")
    seat = await _intrigue_window_of(world, alice, table_id, first=True)
    table = world.table(table_id)
    prompt, turn = table.prompt_version, world.state(table_id).turn
    opened = (await world.open_panel(alice, table_id)).response
    assert opened is not None and f"pass:{table_id}:{prompt}:on" in component_ids(world.components(opened))

    passed = await alice.click(opened, custom_id=f"pass:{table_id}:{prompt}:on")
    await answered_for_her(world, table_id)

    assert en("react.passing") in private_text(passed)  # her panel, edited in place
    assert f"pass:{table_id}:0:off" in component_ids(world.components(opened))  # her panel, edited
    assert table.seats[seat].passing == turn
    # The rest of the turn: whenever a window is open, she is neither awaited nor called.
    publisher = world.bot.publisher
    while world.state(table_id).turn == turn:
        state = world.state(table_id)
        if table.is_reaction(state):
            assert seat not in table.engine.active_seats(state)
            assert alice.id not in publisher._awaited(table)
        humans = sorted(table.engine.active_seats(state))
        assert humans, "the table waits for no human"
        member = world.seat_member(table_id, humans[0], [alice, bob])
        action = choose_ai_action(table.engine, world.agent("intrigue"), state, humans[0])
        await world.service.act(table_id, member.id, table.prompt_version, action)
        await answered_for_her(world, table_id)
    log = await world.bot.storage.action_log(table_id)
    hers = [e for e in log if e.seat == seat and e.user_id == alice.id and e.action == DONE_JSON]
    assert len(hers) >= 2, hers  # the Done she clicked, and the later windows' Done given for her
    # A new turn asks her again, with the button to pass it too.
    await _intrigue_window_of(world, alice, table_id, after_turn=turn)
    assert seat in table.engine.active_seats(world.state(table_id))
    again = (await world.open_panel(alice, table_id)).response
    assert again is not None
    assert f"pass:{table_id}:{table.prompt_version}:on" in component_ids(world.components(again))


async def test_a_standing_pass_is_taken_back_from_the_panel_and_refused_privately(world):
    alice, bob = world.members("alice", "bob")
    dave = world.member("dave")
    world.rig(seed="intrigue-ui")
    table_id = await world.seat(alice, bob, game="intrigue")
    seat = await _intrigue_window_of(world, alice, table_id)
    table = world.table(table_id)
    prompt = table.prompt_version
    opened = (await world.open_panel(alice, table_id)).response
    assert opened is not None
    before = await world.db_snapshot(table_id)
    ids = (f"pass:{table_id}:{prompt - 1}:on", f"pass:{table_id}:{prompt}:on", f"pass:{table_id}:0:off")
    forged = await world.forge(world.thread(table_id), button_rows(*ids))
    stale = await alice.click(forged, custom_id=ids[0])  # an older window's button
    assert stale.ephemeral and private_text(stale) == en("react.window_closed")
    stranger = await dave.click(forged, custom_id=ids[1])
    assert stranger.ephemeral and private_text(stranger) == en("table.not_seated")
    not_passing = await alice.click(forged, custom_id=ids[2])
    assert not_passing.ephemeral and private_text(not_passing) == en("react.not_passing")
    assert await world.db_snapshot(table_id) == before

    await alice.click(opened, custom_id=f"pass:{table_id}:{prompt}:on")
    await world.env.settle()
    resumed = await alice.click(opened, custom_id=f"pass:{table_id}:0:off")
    await world.env.settle()

    assert private_text(resumed) and en("react.passing") not in private_text(resumed)
    assert table.seats[seat].passing is None
    shown = component_ids(world.components(opened))
    assert not any(i.startswith(f"pass:{table_id}:0:") for i in shown)
