"""Numbered SQL migrations: found in ``migrations/NNNN_name.sql``, applied in order, recorded once.

Every number exists once per dialect: SQLite's files are in ``migrations/``, PostgreSQL's in
``migrations/postgres/``, with the same numbers, names and columns (a test compares the two
schemas). This module applies SQLite's; :mod:`bot.storage.postgres` applies PostgreSQL's the same way.

In SQLite each migration runs in its own ``BEGIN IMMEDIATE`` transaction together with its row in
``schema_migrations``, so a failing migration leaves nothing behind, and two processes opening the
same file at once apply it exactly once (the second re-checks after taking the write lock).
Migrations are never edited once shipped; a change is a new, higher-numbered file.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources

import aiosqlite

from bot.storage.errors import StorageError

_FILE_NAME = re.compile(r"^(?P<version>\d{4})_(?P<name>[a-z0-9_]+)\.sql$")

_CREATE_SCHEMA_MIGRATIONS = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    applied_at REAL    NOT NULL
) STRICT
"""


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered schema change."""

    version: int
    name: str
    sql: str


DIALECTS = ("sqlite", "postgres")
_FOLDERS = {"sqlite": ("migrations",), "postgres": ("migrations", "postgres")}


def bundled_migrations(dialect: str = "sqlite") -> list[Migration]:
    """Return the migrations shipped for ``dialect`` (``"sqlite"`` or ``"postgres"``), ordered by number.

    Raises:
        StorageError: Two files share a number, or a ``.sql`` file is misnamed.
        ValueError: Unknown dialect.
    """
    if dialect not in _FOLDERS:
        raise ValueError(f"unknown SQL dialect {dialect!r}; expected one of {DIALECTS}")
    found: dict[int, Migration] = {}
    for entry in resources.files("bot.storage").joinpath(*_FOLDERS[dialect]).iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _FILE_NAME.match(entry.name)
        if match is None:
            raise StorageError(f"migration file {entry.name!r} is not named NNNN_name.sql")
        version = int(match["version"])
        if version in found:
            raise StorageError(f"two migrations are numbered {version}")
        found[version] = Migration(version, match["name"], entry.read_text(encoding="utf-8"))
    return [found[version] for version in sorted(found)]


def split_statements(script: str) -> list[str]:
    r"""Split a SQL script into single statements (``sqlite3`` executes one at a time).

    A statement ends at a ``;`` after which SQLite considers the text complete, so semicolons
    inside strings, comments and trigger bodies do not split.

    >>> split_statements("CREATE TABLE a (x); -- note; here\nCREATE TABLE b (y);")
    ['CREATE TABLE a (x);', '-- note; here\nCREATE TABLE b (y);']

    Raises:
        StorageError: Text other than comments follows the last complete statement.
    """
    statements: list[str] = []
    start = 0
    for index, char in enumerate(script):
        if char == ";" and sqlite3.complete_statement(script[start : index + 1]):
            statements.append(script[start : index + 1].strip())
            start = index + 1
    rest = "\n".join(line for line in script[start:].splitlines() if not line.strip().startswith("--"))
    if rest.strip():
        raise StorageError(f"unterminated SQL statement: {rest.strip()[:80]!r}")
    return statements


async def apply_migrations(db: aiosqlite.Connection, migrations: list[Migration], *, now: float) -> list[int]:
    """Apply the migrations ``db`` has not recorded yet, in order; return the versions applied.

    ``db`` must be in autocommit mode (``isolation_level=None``) and not inside a transaction.

    Raises:
        StorageError: The database records a migration this code does not know (a newer schema).
    """
    await db.execute(_CREATE_SCHEMA_MIGRATIONS)
    applied = {int(row[0]) for row in await db.execute_fetchall("SELECT version FROM schema_migrations")}
    unknown = applied - {migration.version for migration in migrations}
    if unknown:
        raise StorageError(f"the database has migrations {sorted(unknown)} that this code does not know")
    done: list[int] = []
    if all(migration.version in applied for migration in migrations):
        return done
    # Foreign keys are off while migrating (the pragma is ignored inside a transaction, so here):
    # rebuilding a table (create, copy, drop, rename) would otherwise cascade the drop to every
    # child row. Each migration checks the keys itself before it commits.
    enforced = bool((await (await db.execute("PRAGMA foreign_keys")).fetchone() or (0,))[0])
    await db.execute("PRAGMA foreign_keys = OFF")
    try:
        for migration in migrations:
            if migration.version in applied:
                continue
            try:
                await db.execute("BEGIN IMMEDIATE")
                cursor = await db.execute("SELECT 1 FROM schema_migrations WHERE version = ?", (migration.version,))
                if await cursor.fetchone() is None:
                    for statement in split_statements(migration.sql):
                        await db.execute(statement)
                    broken = list(await db.execute_fetchall("PRAGMA foreign_key_check"))
                    if broken:
                        raise StorageError(
                            f"migration {migration.version} leaves {len(broken)} rows with dangling foreign keys"
                        )
                    await db.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                        (migration.version, migration.name, now),
                    )
                    done.append(migration.version)
                await db.commit()
            except BaseException:
                await db.rollback()
                raise
    finally:
        await db.execute(f"PRAGMA foreign_keys = {'ON' if enforced else 'OFF'}")
    return done
