"""Move a bot's SQLite database into PostgreSQL, nothing lost.

``python -m bot.storage.migrate_sqlite_to_postgres --from data/bot.sqlite3 --to postgresql://…``

Stop the bot first (a process writing meanwhile would write after the copy). The tool:

1. brings the SQLite file up to the current schema (its pending migrations) and creates the same
   schema in PostgreSQL (an empty database, or one with only the schema: it refuses to mix data);
2. checks that both sides have the same tables with the same columns;
3. copies every row of every table — live and finished tables, seats, the whole action log,
   snapshots, clocks (with their claims), results, ratings and rating changes, server settings and
   member languages — in one transaction
   with ``COPY``, in foreign-key order, turning SQLite's 0/1 flags into booleans;
4. moves the table-id sequence past the largest copied id (old buttons carry table ids, so ids are
   kept and never reused);
5. verifies: per table, the row count and an order-independent digest of every row must match.

Then point the bot at PostgreSQL (``DATABASE_URL``): live tables resume where they stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import sqlite3
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SqliteStorage

__all__ = ["COPY_ORDER", "MigrationError", "TableCopy", "migrate"]

#: Every data table, parents before children (``tables`` first: the others reference it).
COPY_ORDER = (
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
_ORDER_BY = {
    "tables": "id",
    "seats": "table_id, position",
    "action_log": "table_id, seq",
    "snapshots": "table_id, version",
    "clocks": "table_id",
    "results": "table_id, seat",
    "ratings": "guild_id, game, user_id",
    "rating_changes": "table_id, user_id",
    "guild_settings": "guild_id",
    "guild_channels": "guild_id, channel_id",
    "member_settings": "user_id",
}


class MigrationError(RuntimeError):
    """The databases do not fit (schemas differ, the target holds data) or the copy did not verify."""


@dataclass(frozen=True)
class TableCopy:
    """What was copied of one table: its rows, and the digest both sides agreed on."""

    table: str
    rows: int
    digest: str


def _digest(rows: Iterable[Sequence[Any]]) -> tuple[int, str]:
    """Return the number of rows and an order-independent digest of their values."""
    count = 0
    total = 0
    for row in rows:
        count += 1
        text = repr(tuple(row)).encode()
        total = (total + int.from_bytes(hashlib.sha256(text).digest()[:16], "big")) % (1 << 128)
    return count, f"{total:032x}"


def _converter(pg_type: str) -> Callable[[Any], Any]:
    """Return how a SQLite value becomes the PostgreSQL column's Python value."""
    if pg_type == "boolean":
        return lambda value: None if value is None else bool(value)
    if pg_type == "double precision":
        return lambda value: None if value is None else float(value)
    return lambda value: value


async def _pg_columns(conn: asyncpg.Connection, table: str) -> list[tuple[str, str]]:
    rows = await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        table,
    )
    return [(row[0], row[1]) for row in rows]


def _sqlite_tables(source: sqlite3.Connection) -> set[str]:
    rows = source.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    return {row[0] for row in rows} - {"schema_migrations"}


async def migrate(
    source_path: str | Path, target_url: str, *, log: Callable[[str], object] | None = None
) -> list[TableCopy]:
    """Copy the SQLite database at ``source_path`` into the PostgreSQL database at ``target_url``.

    Returns what was copied, per table, once verified.

    Raises:
        MigrationError: The source is missing, the schemas differ, the target already holds rows,
            or the verification failed (then the copy was rolled back).
    """
    say = log or (lambda _text: None)
    if not Path(source_path).is_file():
        raise MigrationError(f"no SQLite database at {source_path}")
    await (await SqliteStorage.open(source_path)).close()  # the source at the current schema
    await (await PostgresStorage.open(target_url)).close()  # the same schema in PostgreSQL
    source = sqlite3.connect(f"{Path(source_path).resolve().as_uri()}?mode=ro", uri=True)
    target = await asyncpg.connect(target_url)
    try:
        missing = _sqlite_tables(source) ^ set(COPY_ORDER)
        if missing:
            raise MigrationError(f"the SQLite database's tables differ from the expected ones: {sorted(missing)}")
        copies: list[TableCopy] = []
        async with target.transaction():
            for table in COPY_ORDER:
                columns = await _pg_columns(target, table)
                names = [name for name, _ in columns]
                sqlite_names = [row[1] for row in source.execute(f"PRAGMA table_info({table})")]
                if names != sqlite_names:
                    raise MigrationError(f"{table}: SQLite has columns {sqlite_names}, PostgreSQL {names}")
                if await target.fetchval(f"SELECT count(*) FROM {table}"):  # noqa: S608 - names from COPY_ORDER
                    raise MigrationError(f"the PostgreSQL database already holds rows in {table}; use an empty one")
                convert = [_converter(pg_type) for _, pg_type in columns]
                select = f"SELECT {', '.join(names)} FROM {table} ORDER BY {_ORDER_BY[table]}"  # noqa: S608
                records = [
                    tuple(f(value) for f, value in zip(convert, row, strict=True)) for row in source.execute(select)
                ]
                await target.copy_records_to_table(table, records=records, columns=names)
                count, digest = _digest(records)
                stored = await target.fetch(select)
                if (count, digest) != _digest(tuple(row) for row in stored):
                    raise MigrationError(f"{table}: the copy does not match the source")
                copies.append(TableCopy(table, count, digest))
                say(f"{table}: {count} rows")
            await target.execute(
                "SELECT setval(pg_get_serial_sequence('tables', 'id'), coalesce(max(id), 0) + 1, false) FROM tables"
            )
        return copies
    finally:
        source.close()
        await target.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the migration from the command line; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.storage.migrate_sqlite_to_postgres", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--from", dest="source", required=True, help="the SQLite file (e.g. data/bot.sqlite3)")
    parser.add_argument("--to", dest="target", required=True, help="postgresql://user:password@host:port/database")
    args = parser.parse_args(argv)
    try:
        copies = asyncio.run(migrate(args.source, args.target, log=lambda text: sys.stdout.write(f"  {text}\n")))
    except (MigrationError, asyncpg.PostgresError, OSError) as error:
        sys.stderr.write(f"migration failed, no rows were copied: {error}\n")
        return 1
    sys.stdout.write(f"copied {sum(copy.rows for copy in copies)} rows in {len(copies)} tables; verified\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
