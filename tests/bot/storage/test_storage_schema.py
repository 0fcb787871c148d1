"""Migrations and connection settings of the SQLite storage."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.storage import Storage, StorageError
from bot.storage._migrate import Migration, bundled_migrations, split_statements


@pytest_asyncio.fixture
async def storage() -> AsyncIterator[Storage]:
    store = await Storage.open(":memory:")
    yield store
    await store.close()


def _migration_rows(path: Path) -> list[tuple[int, str, float]]:
    with sqlite3.connect(path) as raw:
        rows: list[tuple[int, str, float]] = raw.execute(
            "SELECT version, name, applied_at FROM schema_migrations ORDER BY version"
        ).fetchall()
    return rows


@pytest.mark.asyncio
async def test_migrations_apply_once_and_reopen_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    store = await Storage.open(path)
    await store.close()
    first = _migration_rows(path)
    assert [(version, name) for version, name, _ in first] == [(1, "initial")]

    store = await Storage.open(path)
    await store.close()
    assert _migration_rows(path) == first  # not re-applied: same rows, same applied_at


@pytest.mark.asyncio
async def test_new_migrations_apply_in_order_on_reopen(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await (await Storage.open(path)).close()
    extra = [
        *bundled_migrations(),
        Migration(2, "second", "CREATE TABLE notes (id INTEGER PRIMARY KEY);"),
        Migration(3, "third", "ALTER TABLE notes ADD COLUMN body TEXT;"),
    ]
    await (await Storage.open(path, migrations=extra)).close()
    assert [row[:2] for row in _migration_rows(path)] == [(1, "initial"), (2, "second"), (3, "third")]
    with sqlite3.connect(path) as raw:
        assert [row[1] for row in raw.execute("PRAGMA table_info(notes)")] == ["id", "body"]


@pytest.mark.asyncio
async def test_failing_migration_leaves_nothing_behind(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    broken = Migration(2, "broken", "CREATE TABLE half (id INTEGER);\nCREATE TABLE half (id INTEGER);")
    with pytest.raises(sqlite3.OperationalError):
        await Storage.open(path, migrations=[*bundled_migrations(), broken])
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT count(*) FROM sqlite_master WHERE name = 'half'").fetchone() == (0,)
    assert [row[0] for row in _migration_rows(path)] == [1]
    await (await Storage.open(path)).close()  # the shipped schema still opens


@pytest.mark.asyncio
async def test_database_from_newer_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    newer = Migration(2, "future", "CREATE TABLE future (id INTEGER);")
    await (await Storage.open(path, migrations=[*bundled_migrations(), newer])).close()
    with pytest.raises(StorageError, match="does not know"):
        await Storage.open(path)


def test_bundled_migrations_are_numbered_from_one() -> None:
    migrations = bundled_migrations()
    assert [migration.version for migration in migrations] == list(range(1, len(migrations) + 1))


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
    store = await Storage.open(path)
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
async def test_memory_database_works(storage: Storage) -> None:
    assert await storage.live_tables() == []
    assert await storage.get_table(1) is None


@pytest.mark.asyncio
async def test_closed_storage_says_so(storage: Storage) -> None:
    await storage.close()
    with pytest.raises(StorageError, match="closed"):
        await storage.get_table(1)
    await storage.close()  # closing twice is harmless (the fixture closes again)
