"""State schemas and quarantined tables: migration 0003 on old data, the schema column, quarantine."""

from __future__ import annotations

import pytest

from bot.shards import Shards
from bot.storage import ClockRow, LogEntry, Storage, TableStatus
from tests.bot.storage.test_storage_play import T0, TableHelper
from tests.support.postgres import Backend

pytestmark = pytest.mark.asyncio


async def test_migration_0003_keeps_every_row_written_before_it(backend: Backend) -> None:
    """The SQLite migration rebuilds ``tables``: no seat, log, snapshot or clock may go with the old one."""
    before = backend.migrations()[:2]
    await (await backend.open(migrations=before)).close()
    # Rows as the previous schema wrote them (raw SQL: today's storage reads columns they lack).
    rows = ((1, "lobby", "NULL", -1), (2, "active", "'{\"v\":1}'", 1), (3, "cancelled", "NULL", -1))
    for table_id, status, state, version in rows:
        await backend.execute(
            "INSERT INTO tables (id, guild_id, channel_id, game, host_id, status, options, seed, locale, state, "  # noqa: S608 - test constants
            f"version, created_at, updated_at) VALUES ({table_id}, 100, 200, 'coup', 1, '{status}', '{{}}', 's', "
            f"'ru', {state}, {version}, 1.0, 1.0)"
        )
        await backend.execute(
            "INSERT INTO seats (table_id, position, seat, user_id, is_ai, display_name) "  # noqa: S608 - test constants
            f"VALUES ({table_id}, 0, 0, 1, FALSE, 'one')"
        )
    await backend.execute("INSERT INTO snapshots (table_id, version, state) VALUES (2, 1, '{\"v\":1}')")
    await backend.execute("INSERT INTO clocks (table_id, version, deadline, seats) VALUES (2, 1, 9.0, '[0]')")
    await backend.execute(
        "INSERT INTO action_log (table_id, seq, seat, action, by_timeout, created_at) VALUES (2, 0, 0, '{}', FALSE, 1)"
    )
    if backend.dialect == "sqlite":  # a deleted table's id must still never come back
        await backend.execute(
            "INSERT INTO tables (id, guild_id, channel_id, game, host_id, seed, locale, created_at, updated_at) "
            "VALUES (9, 100, 200, 'coup', 1, 's', 'ru', 1.0, 1.0)"
        )
        await backend.execute("DELETE FROM tables WHERE id = 9")
    else:  # explicit ids do not move PostgreSQL's identity (the SQLite → PostgreSQL copy sets it too)
        await backend.execute("SELECT setval(pg_get_serial_sequence('tables', 'id'), 3)")

    storage = await backend.open()
    try:
        assert [(row.id, row.status, row.state_schema) for row in await storage.live_tables()] == [
            (1, TableStatus.LOBBY, 0),
            (2, TableStatus.ACTIVE, 0),
        ]
        for table_id in (1, 2, 3):
            assert [seat.display_name for seat in await storage.seats(table_id)] == ["one"]
        assert len(await storage.action_log(2)) == 1
        snapshot = await storage.latest_snapshot(2)
        assert snapshot is not None and (snapshot.state, snapshot.state_schema) == ('{"v":1}', 0)
        assert [clock.table_id for clock in await storage.all_clocks()] == [2]
        fresh = await TableHelper(storage).lobby()
        assert fresh.id == (10 if backend.dialect == "sqlite" else 4)
        assert await storage.quarantine_table(2, now=T0)  # the new status is allowed
    finally:
        await storage.close()
    assert await backend.rows("SELECT count(*) FROM seats") == [(5,)]  # the three old ones and the new lobby's two


async def test_states_and_snapshots_keep_the_schema_they_were_written_at(storage: Storage) -> None:
    tables = TableHelper(storage)
    lobby = await tables.lobby()
    seats = await storage.lobby_seats(lobby.id)
    await storage.start_table(
        lobby.id,
        positions=[seat.position for seat in seats],
        state_json=tables.state(0),
        version=0,
        clock=None,
        now=T0,
        state_schema=3,
    )
    started = await storage.get_table(lobby.id)
    assert started is not None and started.state_schema == 3
    snapshot = await storage.latest_snapshot(lobby.id)
    assert snapshot is not None and snapshot.state_schema == 3
    for version in range(storage.snapshot_every):  # plain moves, then one with a seat update
        await storage.commit_action(
            lobby.id,
            version,
            tables.state(version + 1),
            version + 1,
            LogEntry(0, "{}"),
            clock=ClockRow(lobby.id, version + 1, T0 + 60, (0,)),
            seat_updates=[(0, 1, False)] if version == storage.snapshot_every - 1 else (),
            now=T0,
            state_schema=4,
        )
    moved = await storage.get_table(lobby.id)
    assert moved is not None and moved.state_schema == 4
    data = await storage.replay_data(lobby.id)
    assert data is not None and data.snapshot is not None
    assert (data.snapshot.version, data.snapshot.state_schema) == (storage.snapshot_every, 4)


async def test_a_quarantined_table_is_out_of_play_and_told_once(storage: Storage) -> None:
    tables = TableHelper(storage)
    broken = await tables.active(thread_id=555)
    other = await tables.active(humans=(3, 4))
    assert await storage.quarantine_table(broken.id, now=T0 + 5)
    assert not await storage.quarantine_table(broken.id, now=T0 + 6)  # no longer live

    row = await storage.get_table(broken.id)
    assert row is not None and row.status == TableStatus.QUARANTINED and not row.status.is_live
    assert row.state == broken.state  # kept as it was, for whoever repairs it
    assert [t.id for t in await storage.live_tables()] == [other.id]
    assert [c.table_id for c in await storage.all_clocks()] == [other.id]
    assert await storage.find_active_table_for_thread(555) is None

    assert [t.id for t in await storage.unnotified_quarantines()] == [broken.id]
    assert [t.id for t in await storage.unnotified_quarantines(shards=Shards.of(2, [0]))] == [broken.id]
    assert await storage.unnotified_quarantines(shards=Shards.of(2, [1])) == []
    await storage.set_quarantine_notified(broken.id)
    assert await storage.unnotified_quarantines() == []
