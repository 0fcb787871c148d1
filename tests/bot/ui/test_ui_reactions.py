"""Reaction windows through Discord: the short reaction clock, passes that never count as away, "⏳ More time"."""

from __future__ import annotations

import pytest
from simcord.actors import MemberActor
from simcord.results import InteractionResult

from bot.i18n import translate
from bot.tables import DEFAULT_REACTION_SECONDS, MORE_TIME_SECONDS
from games.coup.engine import stacked_deck
from games.coup.models import Allow, Card, CollectTax, Phase
from tests.support import World, component_ids, embed_text, private_text

pytestmark = pytest.mark.asyncio

D = Card
TRIO_DECK = stacked_deck([[D.DUKE, D.CAPTAIN], [D.CONTESSA, D.AMBASSADOR], [D.ASSASSIN, D.CONTESSA]])


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
