"""The SQLite → PostgreSQL move: every row of every table arrives, and live tables play on."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import pytest_asyncio

from bot.storage import PostgresStorage, SqliteStorage, Storage, TableStatus
from bot.storage.migrate_sqlite_to_postgres import COPY_ORDER, MigrationError, main, migrate
from bot.tables import Table, TableService, choose_ai_action, replay
from games.registry import AGENTS
from tests.bot.test_tables import FakeClock, RecordingPublisher
from tests.support.postgres import temp_database

pytestmark = pytest.mark.asyncio

GUILD = 300 << 22
PLAYERS = (11, 12, 13, 14)


@pytest_asyncio.fixture
async def pg_url() -> AsyncIterator[str]:
    async with temp_database() as url:
        yield url


async def humans_table(service: TableService, *, seed: str, rematch_of: int | None = None) -> Table:
    table = await service.create_lobby(
        guild_id=GUILD,
        channel_id=5,
        game="coup",
        host_id=PLAYERS[0],
        host_name="Аня",
        options={"clock": 60, "game": {}},
        locale="ru",
        seed=seed,
        rematch_of=rematch_of,
    )
    for user in PLAYERS[1:]:
        await service.join(table.id, user, f"Игрок {user}")
    return await service.start(table.id, PLAYERS[0])


async def play(service: TableService, table: Table, *, moves: int | None = None) -> None:
    """Let the humans click what the AI would choose; ``moves`` stops early, a clock takes one.

    The services never hand a seat to autopilot, so no AI task moves the table behind our back.
    """
    done = 0
    while table.status == "active" and (moves is None or done < moves):
        assert table.state is not None
        seat = min(table.engine.active_seats(table.state))
        if done % 7 == 3:  # now and then a clock runs out instead
            await service.on_clock(table.id, table.prompt_version)
        else:
            action = choose_ai_action(table.engine, AGENTS["coup"], table.state, seat)
            user = table.seats[seat].user_id
            assert user is not None
            await service.act(table.id, user, table.prompt_version, action)
        done += 1


async def build_source(path: Path) -> dict[str, int]:
    """Fill a SQLite file with every kind of row; return the ids of the interesting tables."""
    storage = await SqliteStorage.open(path, snapshot_every=5)
    service = TableService(
        storage, RecordingPublisher(), ai_delay=0, timeouts_before_autopilot=1000, time_fn=FakeClock(), run_clocks=False
    )
    try:
        finished = await humans_table(service, seed="first")
        await play(service, finished)
        rematch = await humans_table(service, seed="second", rematch_of=finished.id)
        await play(service, rematch)
        live = await humans_table(service, seed="live")
        await play(service, live, moves=12)
        lobby = await service.create_lobby(
            guild_id=GUILD, channel_id=5, game="coup", host_id=21, host_name="Lobby", options={}, locale="en"
        )
        await service.add_ai(lobby.id, 21, "AI Бот")
        cancelled = await service.create_lobby(
            guild_id=GUILD, channel_id=5, game="coup", host_id=22, host_name="C", options={}, locale="ru"
        )
        await service.cancel(cancelled.id, 22, is_moderator=False)
        await service.set_lobby_message(lobby, 123456789012345678)
        await service.attach_messages(live, thread_id=223456789012345678, board_message_id=323456789012345678)
        await storage.claim_clock(live.id, live.prompt_version, owner="old-bot", now=FakeClock().now, lease=2.0)
        await storage.set_guild_setting(GUILD, "reminders", False, now=1.0)  # a flag, like seats' is_ai
        await storage.set_guild_setting(GUILD, "locale", "ru", now=1.0)
        await storage.set_guild_channel(GUILD, 5, allowed=True)
        await storage.set_member_locale(21, "en", now=1.0)
        return {"finished": finished.id, "rematch": rematch.id, "live": live.id, "lobby": lobby.id}
    finally:
        await service.close()
        await storage.close()


def order_by(table: str) -> str:
    """Return an ORDER BY that sorts ``table``'s rows alike on both sides (its first columns)."""
    return "1, 2" if table == "guild_channels" else "1, 2, 3"  # the one table of two columns


def sqlite_rows(path: Path, table: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as raw:
        return [tuple(row) for row in raw.execute(f"SELECT * FROM {table} ORDER BY {order_by(table)}")]  # noqa: S608


async def pg_rows(url: str, table: str) -> list[tuple[Any, ...]]:
    conn = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await conn.fetch(f"SELECT * FROM {table} ORDER BY {order_by(table)}")]  # noqa: S608
    finally:
        await conn.close()


def as_stored_in_sqlite(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """Write PostgreSQL's booleans the way SQLite stores them (0/1) to compare values."""
    return tuple(int(value) if isinstance(value, bool) else value for value in row)


async def test_every_row_arrives_and_live_tables_play_on(tmp_path: Path, pg_url: str) -> None:
    source = tmp_path / "bot.sqlite3"
    ids = await build_source(source)
    before = {table: sqlite_rows(source, table) for table in COPY_ORDER}
    assert all(before[table] for table in COPY_ORDER), "the source must hold rows of every kind"

    copies = await migrate(source, pg_url)
    assert [(copy.table, copy.rows) for copy in copies] == [(table, len(before[table])) for table in COPY_ORDER]
    for table in COPY_ORDER:
        after = [as_stored_in_sqlite(row) for row in await pg_rows(pg_url, table)]
        assert after == before[table], f"{table} differs after the move"
    assert sqlite_rows(source, "tables") == before["tables"]  # the source is left as it was

    clock = FakeClock()
    storage = await Storage.open(pg_url, snapshot_every=5)
    assert isinstance(storage, PostgresStorage)
    service = TableService(
        storage, RecordingPublisher(), ai_delay=0, timeouts_before_autopilot=1000, time_fn=clock, run_clocks=False
    )
    try:
        assert await service.restore() == 2  # the live game and the lobby
        live = service.tables[ids["live"]]
        assert live.thread_id == 223456789012345678
        ratings_before = {r.user_id: r for r in await storage.leaderboard(GUILD, "coup", limit=10)}
        assert set(ratings_before) == set(PLAYERS)
        assert all(r.games == 2 for r in ratings_before.values())
        clock.now += 3  # the old bot's claim on the live clock has lapsed
        await play(service, live)
        assert live.status == TableStatus.FINISHED
        stored = await storage.get_table(ids["live"])
        assert stored is not None and stored.status is TableStatus.FINISHED
        rebuilt = await replay(storage, ids["live"])
        assert rebuilt is not None and rebuilt.model_dump_json() == stored.state
        assert all(r.games == 3 for r in await storage.leaderboard(GUILD, "coup", limit=10))
        assert (await storage.get_table(ids["rematch"])) is not None
        assert (await storage.rating_changes(ids["finished"])) != []
        new = await service.create_lobby(
            guild_id=GUILD, channel_id=5, game="coup", host_id=1, host_name="N", options={}, locale="ru"
        )
        assert new.id == max(row[0] for row in before["tables"]) + 1  # ids go on; none is reused
    finally:
        await service.close()
        await storage.close()


async def test_a_target_with_data_is_refused(tmp_path: Path, pg_url: str) -> None:
    source = tmp_path / "bot.sqlite3"
    await build_source(source)
    await migrate(source, pg_url)
    counts = [len(await pg_rows(pg_url, table)) for table in COPY_ORDER]
    with pytest.raises(MigrationError, match="already holds rows"):
        await migrate(source, pg_url)
    assert [len(await pg_rows(pg_url, table)) for table in COPY_ORDER] == counts  # nothing copied twice


async def test_command_line(tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "bot.sqlite3"
    # main runs its own event loop, so it runs outside this test's loop.
    assert await asyncio.to_thread(main, ["--from", str(source), "--to", pg_url]) == 1
    assert "no SQLite database" in capsys.readouterr().err
    await (await SqliteStorage.open(source)).close()  # an empty bot database moves too
    assert await asyncio.to_thread(main, ["--from", str(source), "--to", pg_url]) == 0
    assert "copied 0 rows in 11 tables; verified" in capsys.readouterr().out
