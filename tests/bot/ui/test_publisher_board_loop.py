"""The board loop and the last board of a table: a request in flight is never cancelled, a sleeping loop is."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables import Table
from tests.support import World

pytestmark = pytest.mark.asyncio


async def duel(world: World) -> Table:
    alice, bob = world.members("alice", "bob")
    return world.table(await world.seat(alice, bob))


async def test_the_last_board_waits_for_a_board_draw_in_flight_instead_of_cancelling_it(world, monkeypatch):
    table = await duel(world)
    publisher = world.bot.publisher
    real = publisher._draw_board
    in_flight, answered = asyncio.Event(), asyncio.Event()
    landed: list[bool] = []

    async def slow_draw(drawn: Table) -> bool:
        in_flight.set()
        await answered.wait()  # the loop's request, waiting for Discord's answer
        done: bool = await real(drawn)
        landed.append(done)
        return done

    monkeypatch.setattr(publisher, "_draw_board", slow_draw)
    publisher.table_changed(table, ())
    loop = publisher._board_tasks[table.id]
    await in_flight.wait()

    flush = asyncio.create_task(publisher._flush_board(table))
    await asyncio.sleep(0.05)
    assert not flush.done() and not loop.done()  # the flush waits; nothing was cancelled mid-request

    answered.set()
    await flush
    assert loop.done() and not loop.cancelled()
    assert landed == [True, True]  # the loop's draw landed, then the flush's own (the last board)


async def test_the_last_board_cancels_a_board_loop_that_only_sleeps(world, monkeypatch):
    table = await duel(world)
    publisher = world.bot.publisher
    publisher.retry_delays = (3600.0,)
    real = publisher._draw_board
    tries: list[int] = []

    async def failing_once(drawn: Table) -> bool:
        tries.append(1)
        return False if len(tries) == 1 else await real(drawn)

    monkeypatch.setattr(publisher, "_draw_board", failing_once)
    publisher.table_changed(table, ())
    loop = publisher._board_tasks[table.id]
    for _ in range(100):  # until the loop sleeps before its retry
        if table.id in publisher._board_naps:
            break
        await asyncio.sleep(0.01)
    assert table.id in publisher._board_naps

    await asyncio.wait_for(publisher._flush_board(table), timeout=10)

    assert loop.cancelled() and len(tries) == 2  # the hour-long retry was cut short; the flush drew
    assert table.id not in publisher._board_naps and table.id not in publisher._board_stops
