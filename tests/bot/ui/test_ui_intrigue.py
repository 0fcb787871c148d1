"""«Интриги» through Discord: lobby to result, the public placement, the private panel, /intrigue pay, bad input.

Setup placement is public (its legal actions are public facts), so it is taken with the board's own
select; every other decision here is private (sealed choices, card types, hires) and taken in the
seat's "My cards" panel. ``/intrigue pay`` is the free action F4: it works in the game's thread at any
moment but Spies & Thieves and leaves the prompt (and its clock) untouched. Every request the bot
sends is validated against Discord's OpenAPI spec by the autouse fixture of ``tests/bot/conftest.py``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from simcord.actors import MemberActor
from simcord.results import InteractionResult, ResponseMessage

from bot.codec import encode_action
from bot.i18n import translate
from bot.presenters.registry import PRESENTERS
from bot.tables import choose_ai_action
from bot.ui import panels
from games.intrigue.data import STARTING_COINS
from games.intrigue.models import (
    Decision,
    Done,
    IntrigueView,
    MercType,
    Phase,
    PickType,
    PlaceToken,
    Skip,
)
from games.intrigue.state import IntrigueState
from tests.support import World, embed_text, private_text, walk

pytestmark = pytest.mark.asyncio

GAME = "Intrigue"


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


def state_of(world: World, table_id: int) -> IntrigueState:
    state = world.state(table_id)
    assert isinstance(state, IntrigueState)
    return state


def offered(rows: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Return the game actions of a message: ``{group: [encoded action, …]}`` (``"button"`` for buttons)."""
    out: dict[str, list[str]] = {}
    for component in walk(rows):
        custom_id = component.get("custom_id") or ""
        if custom_id.startswith("acts:"):
            out[custom_id.split(":")[4]] = [o["value"] for o in component["options"]]
        elif custom_id.startswith("act:"):
            out.setdefault("button", []).append(custom_id.split(":", 4)[4])
    return out


async def intrigue_table(world: World, host: MemberActor, *guests: MemberActor, ais: int = 0, **options: Any) -> int:
    world.rig(seed="intrigue-ui")
    return await world.seat(host, *guests, ais=ais, game="intrigue", **options)


async def panel(world: World, member: MemberActor, table_id: int) -> ResponseMessage:
    result = await world.open_panel(member, table_id)
    assert result.ephemeral and result.response is not None, private_text(result)
    return result.response


def assert_refused(world: World, result: InteractionResult, expected: str) -> None:
    text = private_text(result)
    assert result.ephemeral and text == expected, text
    assert "Traceback" not in text


def fresh_board(world: World, table_id: int) -> panels.Payload:
    """Return the board the bot would draw now (the publisher's log, the awaited seats' actions)."""
    table = world.table(table_id)
    state = state_of(world, table_id)
    awaited: list[Any] = []
    for seat in sorted(table.engine.active_seats(state)):
        awaited.extend(a for a in table.engine.legal_actions(state, seat) if a not in awaited)
    return panels.board_payload(table, list(world.bot.publisher.logs.get(table_id, ())), awaited_legal=awaited)


async def board_caught_up(world: World, table_id: int) -> None:
    """Wait until the board message shows the table's current state (its redraw runs as a task).

    A board names no version, so the one shown is compared with the one the bot would draw now:
    the same text and the same buttons (their custom ids carry the prompt version).
    """
    for _ in range(500):
        await world.env.settle()
        fresh = fresh_board(world, table_id)
        shown = world.board(table_id)
        fresh_ids = [c["custom_id"] for c in walk(fresh.view.to_components()) if c.get("custom_id")]
        shown_ids = [c["custom_id"] for c in walk(world.components(shown)) if c.get("custom_id")]
        if shown.embeds[0].description == fresh.embed.description and shown_ids == fresh_ids:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the board never showed v{state_of(world, table_id).version}")


async def play_until(world: World, table_id: int, done: Any, *, steps: int = 600) -> None:
    """Let the humans answer as the bot's AI would until ``done(state)`` holds.

    These are moves to *reach* a moment, not what a test checks, so they go straight to the table
    service (the AI seats' own path) instead of through one click each; the bot's boards catch up
    on the next settle.
    """
    service = world.service
    for _ in range(steps):
        table = world.table(table_id)
        state = state_of(world, table_id)
        if done(state):
            await board_caught_up(world, table_id)
            return
        humans = [s for s in sorted(table.engine.active_seats(state)) if not table.seats[s].ai_controlled]
        assert humans, "the table waits for no human"
        seat = table.seats[humans[0]]
        assert seat.user_id is not None
        action = choose_ai_action(table.engine, world.agent("intrigue"), state, seat.seat)
        await service.act(table_id, seat.user_id, table.prompt_version, action)
        await world.env.settle()
    raise AssertionError("the wanted moment never came")


# ---------------------------------------------------------------------- the public placement
async def test_placement_is_taken_with_the_boards_select_and_the_ais_follow(world):
    alice = world.member("alice")
    table_id = await intrigue_table(world, alice, ais=2)

    board = world.board(table_id)
    assert GAME in embed_text(board.embeds)
    status = en("intrigue.status.prefix_setup", phase=en("intrigue.phase.setup"), max_turns=10)
    assert status in embed_text(board.embeds)
    choices = offered(world.components(board))
    assert list(choices) == ["place"] and len(choices["place"]) == 14  # 7 lands and their 7 heads
    placeholder = next(c for c in walk(world.components(board)) if c.get("custom_id", "").startswith("acts:"))
    assert placeholder["placeholder"] == en("intrigue.select.place")

    for index, land in enumerate((1, 1, 2)):
        result = await world.act(alice, table_id, PlaceToken(land=land))
        assert not result.ephemeral, private_text(result)
        if index == 1:  # alice still places: the board shows her line and what is left
            text = embed_text(world.board(table_id).embeds)
            assert "alice: +1 token on Golden Coast (placement)." in text
            assert en("intrigue.status.D1", actor="alice", n=1) in text
    state = state_of(world, table_id)
    pos = state.lands.index(1)
    assert state.land_tokens[pos][0] == 2
    # The AIs placed at once, snake rounds of 1, 2, 2, 1, 1 (revision 3): seat 1 and seat 2 one each,
    # then seat 2 and seat 1 two each; alice's second and third tokens were her second round, and
    # the third round opens with her again.
    ai_tokens = sum(sum(row[1:]) for row in state.land_tokens) + sum(sum(row[1:]) for row in state.char_tokens)
    assert ai_tokens == 6
    assert 0 in world.table(table_id).engine.active_seats(state)  # her third round opens
    assert state.phase is Phase.SETUP and world.table(table_id).seats[0].user_id == alice.id


async def test_acting_out_of_turn_or_unseated_is_refused_privately_and_changes_nothing(world):
    alice, bob, carol = world.members("alice", "bob", "carol")
    table_id = await intrigue_table(world, alice, bob, ais=1)
    before = await world.db_snapshot(table_id)

    early = await world.act(bob, table_id, PlaceToken(land=1))  # alice places first
    stranger = await world.act(carol, table_id, PlaceToken(land=1))

    assert_refused(world, early, en("call.not_your_turn", names="alice"))
    assert_refused(world, stranger, en("table.not_seated"))
    assert await world.db_snapshot(table_id) == before
    assert not world.env.errors


# ---------------------------------------------------------------------- /intrigue pay
async def test_pay_gives_coins_in_the_thread_and_keeps_the_prompt(world):
    alice, bob = world.members("alice", "bob")
    table_id = await intrigue_table(world, alice, bob)
    table = world.table(table_id)
    prompt, deadline = table.prompt_version, table.deadline

    result = await alice.slash(world.thread(table_id), "intrigue pay", member=bob, amount=4)

    assert result.ephemeral and private_text(result) == en("intrigue.pay.done", name="bob", amount=4)
    state = state_of(world, table_id)
    assert state.coins == (STARTING_COINS - 4, STARTING_COINS + 4)
    assert (table.prompt_version, table.deadline) == (prompt, deadline)  # alice still places, same clock
    assert "alice gives bob 4 coins." in embed_text(world.board(table_id).embeds)
    accepted = await world.act(alice, table_id, PlaceToken(land=2))  # the old board buttons still work
    assert not accepted.ephemeral, private_text(accepted)


async def test_pay_refusals_are_private_localized_and_change_nothing(make_world):
    world = make_world("en-US")
    alice = world.member("alice")
    bob = world.member("bob", locale="ru")
    carol = world.member("carol")
    table_id = await intrigue_table(world, alice, bob)
    thread = world.thread(table_id)
    before = await world.db_snapshot(table_id)

    outside = await alice.slash(world.channel, "intrigue pay", member=bob, amount=1)
    stranger = await carol.slash(thread, "intrigue pay", member=bob, amount=1)
    to_stranger = await alice.slash(thread, "intrigue pay", member=carol, amount=1)
    to_self = await alice.slash(thread, "intrigue pay", member=alice, amount=1)
    too_much = await bob.slash(thread, "intrigue pay", member=alice, amount=STARTING_COINS + 1)
    nothing = await alice.slash(thread, "intrigue pay", member=bob, amount=0)

    assert_refused(world, outside, en("intrigue.error.not_in_thread"))
    assert_refused(world, stranger, en("intrigue.error.not_seated"))
    assert_refused(world, to_stranger, en("intrigue.error.target_not_seated", name="carol"))
    assert_refused(world, to_self, en("intrigue.error.pay_self"))
    assert_refused(world, too_much, translate("ru", "intrigue.error.not_enough_coins", coins=STARTING_COINS))
    assert_refused(world, nothing, en("intrigue.error.amount_range", max=1000))
    assert await world.db_snapshot(table_id) == before
    codes = [e.code for e in world.rejections()]
    assert "intrigue.not_enough_coins" in codes and "intrigue.not_in_thread" in codes


async def test_pay_is_refused_during_spies_and_thieves(world):
    alice, bob = world.members("alice", "bob")
    table_id = await intrigue_table(world, alice, bob)

    await play_until(world, table_id, lambda s: s.phase is Phase.SPIES and s.turn >= 2)
    before = await world.db_snapshot(table_id)
    refused = await alice.slash(world.thread(table_id), "intrigue pay", member=bob, amount=1)

    assert_refused(world, refused, en("intrigue.error.no_free_actions_in_spies"))
    assert await world.db_snapshot(table_id) == before
    assert [e.code for e in world.rejections()] == ["intrigue.no_free_actions_in_spies"]


# ---------------------------------------------------------------------- the private panel
async def test_investments_are_chosen_in_the_private_panel_and_stay_hidden_on_the_board(world):
    alice, bob = world.members("alice", "bob")
    table_id = await intrigue_table(world, alice, bob)

    def alices_basket(state: IntrigueState) -> bool:
        public = PRESENTERS["intrigue"]
        view = world.table(table_id).engine.view(state, 0)
        assert isinstance(view, IntrigueView)
        return (
            view.pending is not None
            and view.pending.decision is Decision.INVEST
            and 0 in view.awaiting
            and (public.decided_on_board(view) is False)
        )

    await play_until(world, table_id, alices_basket)
    board = world.board(table_id)
    assert not offered(world.components(board))  # nothing private on the board
    opened = await panel(world, alice, table_id)
    choices = offered(opened.components)
    assert "basket" in choices and "button" in choices  # every purchase in one multi-select, Pay last
    assert choices["basket"][-1] == encode_action(Done())
    text = embed_text(opened.embeds)
    assert en("intrigue.todo.D9_basket") in text
    assert "In stock:" in text

    coins = state_of(world, table_id).coins[0]
    hired = await world.press(alice, opened, PickType(merc=MercType.SPY))
    assert hired.response is not None and hired.response.id == opened.id, private_text(hired)
    assert "Picked so far: Hire: Spy." in embed_text(hired.response.embeds)
    paid = await world.press(alice, hired.response, Done())
    assert paid.response is not None, private_text(paid)
    state = state_of(world, table_id)
    cost = coins - state.coins[0]
    assert cost in (2, 3) and [c.merc for c in state.hands[0]] == [MercType.SPY]  # 2 under Beyond-the-Woods
    # The public log (the board's Log button: the board itself may have moved on to Characters).
    log = await bob.click(world.board(table_id), custom_id=f"tbl:{table_id}:log")
    assert log.response is not None and log.ephemeral
    public_text = embed_text(world.board(table_id).embeds) + "\n" + embed_text(log.response.embeds)
    assert f"alice hires 1 mercenary for {cost} coins." in public_text
    assert "Spy" not in public_text
    mine = embed_text((await panel(world, alice, table_id)).embeds)
    assert "Spy" in mine and state.hands[0][0].id not in mine  # her card by its type, never its id
    theirs = embed_text((await panel(world, bob, table_id)).embeds)
    assert not [
        line for line in theirs.splitlines() if line.startswith("In hand") and "Spy" in line
    ]  # not alice's card


async def test_a_stale_panel_choice_is_refused_as_out_of_date(world):
    alice, bob = world.members("alice", "bob")
    table_id = await intrigue_table(world, alice, bob)
    await play_until(world, table_id, lambda s: s.phase is Phase.INVESTMENTS)
    seat = next(s for s in (0, 1) if s in world.table(table_id).engine.active_seats(state_of(world, table_id)))
    member = (alice, bob)[seat]
    opened = await panel(world, member, table_id)
    rows = world.components(opened)
    await world.press(member, opened, Skip())  # an empty basket ends this turn
    copy = await world.forge(world.thread(table_id), rows)  # the panel as it looked before
    before = await world.db_snapshot(table_id)

    again = await world.press(member, copy, Skip())

    assert again.ephemeral
    assert private_text(again) in {en("core.error.stale"), world.not_yours(table_id)}
    assert await world.db_snapshot(table_id) == before


# ---------------------------------------------------------------------- a whole game
async def test_a_whole_game_ends_with_ranked_results_and_public_boards(world, monkeypatch):
    drawn: list[Any] = []
    presenter = PRESENTERS["intrigue"]
    real = presenter.render_board

    def spy(view: Any, names: Any, locale: str) -> bytes:
        drawn.append(view)
        return real(view, names, locale)

    monkeypatch.setattr(presenter, "render_board", spy)
    alice = world.member("alice")
    table_id = await intrigue_table(world, alice, ais=2, turns=4)
    assert world.table(table_id).options["game"] == {"max_turns": 4}

    await world.play_out(table_id, [alice], max_steps=600)

    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.status == "finished"
    results = sorted(await world.bot.storage.results(table_id), key=lambda r: r.rank)
    assert len(results) == 3
    final = world.table(table_id).state
    assert isinstance(final, IntrigueState) and final.result is not None and final.turn <= 4
    result_message = world.thread_messages(table_id)[-1]
    (embed,) = result_message.embeds
    assert embed.title == en("ui.result.title", game=GAME, id=table_id)
    victory = en(f"intrigue.victory.{final.result.victory.value}")
    assert embed.description is not None and embed.description.startswith(en("intrigue.result.ended", victory=victory))
    assert drawn and all(view.viewer is None for view in drawn)  # every board from the public view
    assert panels.MAX_ROWS == 5

    # Rematch: Интриги has no chosen first player, so the new lobby keeps the game's own options.
    rematch = await alice.click(world.board(table_id), custom_id=f"tbl:{table_id}:rematch")
    assert rematch.ephemeral and private_text(rematch).startswith(en("ui.lobby.created"))
    new = await world.bot.storage.get_table(table_id + 1)
    assert new is not None and new.status == "lobby" and new.options["game"] == {"max_turns": 4}
