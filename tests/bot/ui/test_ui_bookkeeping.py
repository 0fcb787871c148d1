"""Per-table bookkeeping ends with the table: nothing of a finished or cancelled table stays in memory.

The publisher keeps log lines, board and lobby tasks, calls, reminders, dirty marks and the private panels
that follow the game per table, the service
its tables, clock timers and AI tasks; a long-running bot shows thousands of tables, so each of
these maps must be empty once every table it has shown is over (benchmarks/bookkeeping.py measures
the same at 10,000 tables).
"""

from __future__ import annotations

import pytest

from benchmarks.bookkeeping import per_table_maps
from games.coup.engine import stacked_deck
from games.coup.models import Card
from tests.support import World

pytestmark = pytest.mark.asyncio

QUICK_DECK = stacked_deck([[Card.DUKE, Card.ASSASSIN]] * 3)


async def test_nothing_of_finished_and_cancelled_tables_stays_behind(world: World) -> None:
    alice, bob, carol = world.members("alice", "bob", "carol")
    world.rig(deck=QUICK_DECK, first_seat=0, seed="g0")
    played = await world.seat(alice, bob, ais=1)
    await world.play_out(played, [alice, bob])

    ended = await world.seat(carol, bob)
    await world.open_panel(bob, ended)  # a panel that follows the game until the table ends
    confirm = await world.table_button(carol, ended, "end")
    assert confirm.response is not None
    await carol.click(confirm.response, custom_id=f"tbl:{ended}:end_yes")

    lobby = await world.seat(alice, carol, ais=1, start=False)
    await world.lobby_click(alice, lobby, "cancel")

    all_ai = await world.seat(carol, ais=2, start=False)
    await world.lobby_click(carol, all_ai, "leave")  # the host leaving cancels the lobby
    await world.env.settle()

    for table_id in (played, ended, lobby, all_ai):
        row = await world.bot.storage.get_table(table_id)
        assert row is not None and row.status in {"finished", "cancelled"}, (table_id, row)
    publisher = world.bot.publisher
    assert {name: len(entries) for name, entries in per_table_maps(world.service, publisher).items()} == dict.fromkeys(
        per_table_maps(world.service, publisher), 0
    )


async def test_a_live_table_keeps_only_its_own_entries(world: World) -> None:
    alice, bob = world.members("alice", "bob")
    live = await world.seat(alice, bob)
    finished = await world.seat(bob, alice, start=False)
    await world.lobby_click(bob, finished, "cancel")
    await world.env.settle()
    for name, entries in per_table_maps(world.service, world.bot.publisher).items():
        assert set(entries) <= {live}, name
