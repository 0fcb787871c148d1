"""Decision clocks: the default action when time runs out, autopilot after repeated timeouts, "I'm back"."""

from __future__ import annotations

from typing import Any

import pytest
from simcord.actors import MemberActor

from bot.i18n import translate
from games.coup.engine import stacked_deck
from games.coup.models import Card, Steal, TakeIncome
from tests.support import World, component_ids, embed_text, private_text

pytestmark = pytest.mark.asyncio

D = Card
DUEL_DECK = stacked_deck([[D.DUKE, D.ASSASSIN], [D.CAPTAIN, D.CONTESSA]])
TRIO_DECK = stacked_deck([[D.DUKE, D.CAPTAIN], [D.CONTESSA, D.AMBASSADOR], [D.ASSASSIN, D.CONTESSA]])


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


async def duel(world: World, **options: Any) -> tuple[MemberActor, MemberActor, int]:
    alice, bob = world.members("alice", "bob")
    world.rig(deck=DUEL_DECK, first_seat=0)
    table_id = await world.seat(alice, bob, **options)
    return alice, bob, table_id


async def seat_rows(world: World, table_id: int) -> list[tuple[bool, int]]:
    return [(s.autopilot, s.timeouts_in_row) for s in await world.bot.storage.seats(table_id)]


async def test_the_board_shows_the_clock_and_time_out_takes_the_default_action(world):
    _alice, _bob, table_id = await duel(world, clock=30)
    deadline = world.table(table_id).deadline
    assert deadline is not None
    assert en("ui.board.clock", when=f"<t:{int(deadline)}:R>") in embed_text(world.board(table_id).embeds)

    await world.env.advance_time(29)
    assert world.state(table_id).version == 0  # not yet

    await world.env.advance_time(2)

    state = world.state(table_id)
    assert state.version == 1 and state.coins == (2, 2) and state.turn == 1
    (entry,) = await world.bot.storage.action_log(table_id)
    assert (entry.seat, entry.action, entry.by_timeout, entry.user_id) == (0, '{"kind":"income"}', True, None)
    assert await seat_rows(world, table_id) == [(False, 1), (False, 0)]
    assert "alice takes 1 coin from the treasury (Income)." in embed_text(world.board(table_id).embeds)


async def test_every_silent_responder_times_out_together(world):
    alice, bob, carol = world.members("alice", "bob", "carol")
    world.rig(deck=TRIO_DECK, first_seat=0)
    table_id = await world.seat(alice, bob, carol)
    await world.act(alice, table_id, Steal(target=2))

    # A response window runs on the reaction clock (15 s by default), not the 60 s decision clock.
    await world.env.advance_time(14)
    assert world.state(table_id).version == 1
    await world.env.advance_time(2)

    state = world.state(table_id)
    assert state.coins == (4, 2, 0) and state.turn == 1  # both allowed by default: the steal resolved
    log = await world.bot.storage.action_log(table_id)
    assert [(e.seat, e.action, e.by_timeout) for e in log[1:]] == [
        (1, '{"kind":"allow"}', True),
        (2, '{"kind":"allow"}', True),
    ]
    # Letting a window pass is a pass: it never counts towards "away".
    assert await seat_rows(world, table_id) == [(False, 0), (False, 0), (False, 0)]


async def test_two_timeouts_in_a_row_hand_the_seat_to_the_ai_until_im_back(world):
    alice, bob, table_id = await duel(world)

    await world.env.advance_time(61)  # alice times out once
    await world.act(bob, table_id, TakeIncome())
    assert world.state(table_id).turn == 0
    await world.env.advance_time(61)  # and twice in a row: autopilot

    assert await seat_rows(world, table_id) == [(True, 2), (False, 0)]
    board = world.board(table_id)
    assert en("ui.board.autopilot", names="alice") in embed_text(board.embeds)
    assert f"tbl:{table_id}:back" in component_ids(world.components(board))
    panel = await world.open_panel(alice, table_id)
    assert panel.response is not None
    assert en("ui.panel.autopilot") in embed_text(panel.response.embeds)
    assert not any(i.startswith("act") for i in component_ids(panel.response.components))

    # On alice's turn the AI now plays for her at once.
    await world.act(bob, table_id, TakeIncome())
    log = await world.bot.storage.action_log(table_id)
    assert (log[-1].seat, log[-1].user_id, log[-1].by_timeout) == (0, None, False)
    assert world.table(table_id).engine.active_seats(world.state(table_id)) == {1}

    back = await world.table_button(alice, table_id, "back")

    assert back.ephemeral and back.response is not None
    assert en("ui.panel.autopilot") not in embed_text(back.response.embeds)
    assert await seat_rows(world, table_id) == [(False, 0), (False, 0)]
    board = world.board(table_id)
    assert en("ui.board.autopilot", names="alice") not in embed_text(board.embeds)
    assert f"tbl:{table_id}:back" not in component_ids(world.components(board))
    while world.table(table_id).engine.active_seats(world.state(table_id)) != {0}:
        await world.play_step(table_id, [bob])
    version = world.state(table_id).version
    await world.env.settle()
    assert world.table(table_id).engine.active_seats(world.state(table_id)) == {0}  # alice decides herself
    assert world.state(table_id).version == version


async def test_im_back_when_playing_yourself_is_refused(world):
    alice, bob, table_id = await duel(world)
    await world.env.advance_time(61)
    await world.act(bob, table_id, TakeIncome())
    await world.env.advance_time(61)  # alice is on autopilot: the board shows "I'm back"
    before = await world.db_snapshot(table_id)

    result = await world.table_button(bob, table_id, "back")

    assert private_text(result) == en("table.not_on_autopilot")
    assert await world.db_snapshot(table_id) == before
    assert alice.id == world.table(table_id).seats[0].user_id
