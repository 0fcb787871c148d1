"""One decision of several actions (a submitted form) committed in one transaction: all or nothing."""

from __future__ import annotations

import json

import pytest

from bot.storage import ClockRow, FinishRow, SeatResult, SeatUpdate, Storage, TableStatus, VersionConflictError
from tests.bot.storage.test_storage_play import T0, TableHelper, _entry, _everything
from tests.support.postgres import Backend

pytestmark = pytest.mark.asyncio


@pytest.fixture
def tables(storage: Storage) -> TableHelper:
    return TableHelper(storage)


async def test_several_actions_are_one_commit_with_a_log_entry_each(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active()
    await tables.play(table.id, 2)
    clock = ClockRow(table.id, 5, T0 + 120, (1,))

    changes = await storage.commit_actions(
        table.id,
        2,
        tables.state(5),
        [_entry(0, 10, user_id=1), _entry(0, 11, user_id=1), _entry(0, 12, user_id=1)],
        clock=clock,
        seat_updates=[SeatUpdate(0, 0, False)],
        now=T0 + 50,
    )

    assert changes == []
    stored = await storage.get_table(table.id)
    assert stored is not None and (stored.version, stored.state) == (5, tables.state(5))
    log = await storage.action_log(table.id)
    assert [(e.seq, e.seat, e.user_id) for e in log[2:]] == [(2, 0, 1), (3, 0, 1), (4, 0, 1)]
    assert [json.loads(e.action)["n"] for e in log[2:]] == [10, 11, 12]
    assert await storage.get_clock(table.id) == clock
    replay = await storage.replay_data(table.id)
    assert replay is not None and [e.seq for e in replay.log] == [0, 1, 2, 3, 4]


async def test_a_conflict_writes_none_of_the_actions(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active()
    await tables.play(table.id, 2)
    before = await _everything(storage, table.id)

    with pytest.raises(VersionConflictError):
        await storage.commit_actions(table.id, 1, tables.state(9), [_entry(1), _entry(1)], clock=None, now=T0 + 9)
    with pytest.raises(ValueError, match="clock"):
        await storage.commit_actions(
            table.id, 2, "{}", [_entry(), _entry()], clock=ClockRow(table.id, 5, T0, (0,)), now=T0
        )
    with pytest.raises(ValueError, match="at least one"):
        await storage.commit_actions(table.id, 2, "{}", [], clock=None, now=T0)

    assert await _everything(storage, table.id) == before


async def test_a_decision_that_ends_the_game_finishes_the_table(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active()
    finish = FinishRow((SeatResult(0, 0, 2.0), SeatResult(1, 1, 1.0)), rated=False)

    await storage.commit_actions(
        table.id, 0, tables.state(2), [_entry(), _entry()], clock=None, finished=finish, now=T0
    )

    stored = await storage.get_table(table.id)
    assert stored is not None and (stored.status, stored.version) == (TableStatus.FINISHED, 2)
    assert [r.rank for r in await storage.results(table.id)] == [0, 1]
    assert await storage.all_clocks() == []


async def test_a_snapshot_is_taken_at_a_final_version_on_the_cadence(backend: Backend) -> None:
    storage = await backend.open(snapshot_every=3)
    try:
        tables = TableHelper(storage)
        table = await tables.active()
        await tables.play(table.id, 1)
        await storage.commit_actions(table.id, 1, tables.state(3), [_entry(), _entry()], clock=None, now=T0)
        assert await storage.snapshot_versions(table.id) == [0, 3]
        replay = await storage.replay_data(table.id)
        assert replay is not None and replay.log_after_snapshot() == []
    finally:
        await storage.close()
