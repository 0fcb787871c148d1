"""Migrations of both backends, the schema they build, and the SQLite connection settings."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.storage import PostgresStorage, SqliteStorage, Storage, StorageError
from bot.storage._migrate import DIALECTS, Migration, bundled_migrations, split_statements
from tests.support.postgres import Backend, backend_for

_MIGRATION_ROWS = "SELECT version, name, applied_at FROM schema_migrations ORDER BY version"


@pytest.mark.asyncio
async def test_migrations_apply_once_and_reopen_is_idempotent(backend: Backend) -> None:
    store = await backend.open()
    await store.close()
    first = await backend.rows(_MIGRATION_ROWS)
    assert [(version, name) for version, name, _ in first] == [
        (1, "initial"),
        (2, "clock_claims"),
        (3, "state_schema"),
        (4, "server_settings"),
        (5, "thread_archive"),
    ]

    store = await backend.open()
    await store.close()
    assert await backend.rows(_MIGRATION_ROWS) == first  # not re-applied: same rows, same applied_at


@pytest.mark.asyncio
async def test_new_migrations_apply_in_order_on_reopen(backend: Backend) -> None:
    await (await backend.open()).close()
    shipped = backend.migrations()
    second, third = len(shipped) + 1, len(shipped) + 2
    extra = [
        *shipped,
        Migration(second, "second", "CREATE TABLE notes (id INTEGER PRIMARY KEY);"),
        Migration(third, "third", "ALTER TABLE notes ADD COLUMN body TEXT;"),
    ]
    await (await backend.open(migrations=extra)).close()
    assert [row[:2] for row in await backend.rows(_MIGRATION_ROWS)][-2:] == [(second, "second"), (third, "third")]
    assert await backend.columns("notes") == ["id", "body"]


@pytest.mark.asyncio
async def test_failing_migration_leaves_nothing_behind(backend: Backend) -> None:
    shipped = backend.migrations()
    broken = Migration(len(shipped) + 1, "broken", "CREATE TABLE half (id INTEGER);\nCREATE TABLE half (id INTEGER);")
    with pytest.raises(backend.sql_errors):
        await backend.open(migrations=[*shipped, broken])
    assert not await backend.has_table("half")
    assert [row[0] for row in await backend.rows(_MIGRATION_ROWS)] == [m.version for m in shipped]
    await (await backend.open()).close()  # the shipped schema still opens


@pytest.mark.asyncio
async def test_database_from_newer_code_is_refused(backend: Backend) -> None:
    shipped = backend.migrations()
    newer = Migration(len(shipped) + 1, "future", "CREATE TABLE future (id INTEGER);")
    await (await backend.open(migrations=[*shipped, newer])).close()
    with pytest.raises(StorageError, match="does not know"):
        await backend.open()


@pytest.mark.asyncio
async def test_processes_opening_at_once_migrate_once(backend: Backend) -> None:
    stores = await asyncio.gather(*(backend.open() for _ in range(4)))
    for store in stores:
        await store.close()
    assert [row[0] for row in await backend.rows(_MIGRATION_ROWS)] == [m.version for m in backend.migrations()]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_bundled_migrations_are_numbered_from_one(dialect: str) -> None:
    migrations = bundled_migrations(dialect)
    assert [migration.version for migration in migrations] == list(range(1, len(migrations) + 1))


def test_every_migration_exists_in_both_dialects() -> None:
    sqlite, postgres = (bundled_migrations(dialect) for dialect in DIALECTS)
    assert [(m.version, m.name) for m in sqlite] == [(m.version, m.name) for m in postgres]
    with pytest.raises(ValueError, match="dialect"):
        bundled_migrations("mysql")


_SCHEMA_TABLES = (
    "tables",
    "seats",
    "action_log",
    "snapshots",
    "clocks",
    "results",
    "ratings",
    "rating_changes",
    "guild_settings",
    "guild_channels",
    "member_settings",
)


async def _schema(backend: Backend) -> dict[str, list[tuple[str, bool, bool]]]:
    """Return each table's columns in order as (name, nullable, part of the primary key)."""
    schema: dict[str, list[tuple[str, bool, bool]]] = {}
    for table in _SCHEMA_TABLES:
        if backend.dialect == "sqlite":
            info = await backend.rows(f"PRAGMA table_info({table})")
            schema[table] = [(row[1], not row[3] and not row[5], bool(row[5])) for row in info]
        else:
            info = await backend.rows(
                "SELECT c.column_name, c.is_nullable = 'YES', EXISTS (SELECT 1 "  # noqa: S608 - test-only constants
                "FROM information_schema.key_column_usage AS k JOIN information_schema.table_constraints AS t "
                "ON t.constraint_name = k.constraint_name "
                "WHERE t.constraint_type = 'PRIMARY KEY' AND k.table_name = c.table_name "
                "AND k.column_name = c.column_name) FROM information_schema.columns AS c "
                f"WHERE c.table_schema = 'public' AND c.table_name = '{table}' ORDER BY c.ordinal_position"
            )
            schema[table] = [(row[0], row[1], row[2]) for row in info]
    return schema


@pytest.mark.asyncio
async def test_both_dialects_build_the_same_schema(tmp_path: Path) -> None:
    schemas = []
    for dialect in DIALECTS:
        async with backend_for(dialect, tmp_path) as backend:
            await (await backend.open()).close()
            schemas.append(await _schema(backend))
    sqlite, postgres = schemas
    assert sqlite["clocks"][-2:] == [("claimed_by", True, False), ("claimed_until", True, False)]
    assert sqlite == postgres


def test_split_statements_keeps_trigger_bodies_whole() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE a (x TEXT DEFAULT ';');
    CREATE TRIGGER t BEFORE UPDATE ON a BEGIN SELECT RAISE(ABORT, 'no'); END;
    -- trailing comment
    """
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER")
    assert statements[1].endswith("END;")
    with pytest.raises(StorageError):
        split_statements("CREATE TABLE b (x)")


@pytest.mark.asyncio
async def test_file_database_uses_wal_normal_sync_and_foreign_keys(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    store = await SqliteStorage.open(path)
    try:
        db = store._db
        pragmas = {
            name: tuple(row)
            for name in ("journal_mode", "synchronous", "foreign_keys")
            for row in await db.execute_fetchall(f"PRAGMA {name}")
        }
        assert pragmas == {"journal_mode": ("wal",), "synchronous": (1,), "foreign_keys": (1,)}  # 1 = NORMAL
    finally:
        await store.close()
    with sqlite3.connect(path) as raw:  # WAL is a property of the file: it persists
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)


@pytest.mark.asyncio
async def test_file_database_opens_while_another_process_is_writing(tmp_path: Path) -> None:
    # A writer holding the reserved lock makes SQLite refuse the switch to WAL at once, without
    # waiting on busy_timeout; open must retry (this is how four processes opening at once collided).
    path = tmp_path / "bot.db"
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        writer.execute("CREATE TABLE other (x)")
        writer.execute("BEGIN")
        writer.execute("INSERT INTO other VALUES (1)")
        release = asyncio.get_running_loop().call_later(0.3, writer.execute, "COMMIT")
        store = await SqliteStorage.open(path)
        release.cancel()
        try:
            assert list(await store._db.execute_fetchall("PRAGMA journal_mode")) == [("wal",)]
            assert not writer.in_transaction
        finally:
            await store.close()
    finally:
        writer.close()


@pytest.mark.asyncio
async def test_file_database_gives_up_on_wal_after_the_busy_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.storage.sqlite.BUSY_TIMEOUT_MS", 200)
    path = tmp_path / "bot.db"
    with closing(sqlite3.connect(path, isolation_level=None)) as writer:
        writer.execute("CREATE TABLE other (x)")
        writer.execute("BEGIN")
        writer.execute("INSERT INTO other VALUES (1)")
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            await SqliteStorage.open(path)
        writer.execute("ROLLBACK")


@pytest.mark.asyncio
async def test_memory_database_works() -> None:
    storage = await Storage.open(":memory:")
    try:
        assert isinstance(storage, SqliteStorage)
        assert await storage.live_tables() == []
        assert await storage.get_table(1) is None
    finally:
        await storage.close()


@pytest.mark.asyncio
async def test_open_picks_the_backend_from_the_target(backend: Backend) -> None:
    store = await Storage.open(backend.target)
    try:
        assert store.dialect == backend.dialect
        assert isinstance(store, SqliteStorage if backend.dialect == "sqlite" else PostgresStorage)
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_open_sizes_the_connection_pool(backend: Backend) -> None:
    store = await Storage.open(backend.target, pool_size=3)
    try:
        if isinstance(store, PostgresStorage):
            assert store._pool.get_max_size() == 3
        assert await store.live_tables() == []  # SQLite has one connection and ignores the size
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_closed_storage_says_so(storage: Storage) -> None:
    await storage.close()
    with pytest.raises(StorageError, match="closed"):
        await storage.get_table(1)
    await storage.close()  # closing twice is harmless (the fixture closes again)
