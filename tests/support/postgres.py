"""PostgreSQL for the tests: one throwaway cluster per test run, a fresh database per test.

The cluster (:class:`scripts.pg_cluster.TempCluster`, without fsync) starts on first use and stops
when the test process exits. Where PostgreSQL is expected (``REQUIRE_POSTGRES=1``, as ``.ci/run``
sets) a missing or broken server fails the test loudly; elsewhere the PostgreSQL variants are
skipped with the reason.
"""

from __future__ import annotations

import atexit
import itertools
import os
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import Storage
from bot.storage._migrate import Migration, bundled_migrations
from scripts.pg_cluster import FAST_SETTINGS, PostgresUnavailableError, TempCluster

REQUIRED = os.environ.get("REQUIRE_POSTGRES", "").strip() not in ("", "0")

_cluster: TempCluster | None = None
_failure: str | None = None
_names = itertools.count(1)


def cluster() -> TempCluster:
    """Return the test run's cluster, starting it on first use; fail or skip when there is none."""
    global _cluster, _failure
    if _cluster is None and _failure is None:
        try:
            _cluster = TempCluster(settings=FAST_SETTINGS).start()
            atexit.register(_cluster.stop)
        except PostgresUnavailableError as error:
            _failure = str(error)
    if _cluster is None:
        if REQUIRED:
            pytest.fail(f"REQUIRE_POSTGRES is set but PostgreSQL is unusable: {_failure}", pytrace=False)
        pytest.skip(f"PostgreSQL is not available here ({_failure}); set REQUIRE_POSTGRES=1 to make this fail")
    return _cluster


@asynccontextmanager
async def temp_database() -> AsyncIterator[str]:
    """Create an empty database on the test cluster; yield its URL; drop it afterwards."""
    server = cluster()
    name = f"test_{os.getpid()}_{next(_names)}"
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield server.url(name)
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@dataclass
class Backend:
    """One database to run a storage test on, with raw access for checks the interface does not offer."""

    dialect: str
    target: str

    @property
    def sql_errors(self) -> tuple[type[BaseException], ...]:
        """Return what the driver raises when the database refuses a statement."""
        return (sqlite3.Error,) if self.dialect == "sqlite" else (asyncpg.PostgresError,)

    async def open(self, **kwargs: Any) -> Storage:
        """Open a storage on this database (``Storage.open`` picks the backend from the target)."""
        return await Storage.open(self.target, **kwargs)

    def migrations(self) -> list[Migration]:
        """Return this dialect's bundled migrations."""
        return bundled_migrations(self.dialect)

    async def rows(self, sql: str) -> list[tuple[Any, ...]]:
        """Run one query on a separate connection and return its rows as tuples."""
        if self.dialect == "sqlite":
            with sqlite3.connect(self.target) as raw:
                return [tuple(row) for row in raw.execute(sql).fetchall()]
        conn = await asyncpg.connect(self.target)
        try:
            return [tuple(row) for row in await conn.fetch(sql)]
        finally:
            await conn.close()

    async def execute(self, sql: str) -> None:
        """Run one statement on a separate connection (in autocommit)."""
        if self.dialect == "sqlite":
            raw = sqlite3.connect(self.target, isolation_level=None)
            try:
                raw.execute(sql)
            finally:
                raw.close()
            return
        conn = await asyncpg.connect(self.target)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def columns(self, table: str) -> list[str]:
        """Return the column names of ``table`` in order."""
        if self.dialect == "sqlite":
            return [row[1] for row in await self.rows(f"PRAGMA table_info({table})")]
        return [
            row[0]
            for row in await self.rows(
                "SELECT column_name FROM information_schema.columns "  # noqa: S608 - test-only, constant names
                f"WHERE table_schema = 'public' AND table_name = '{table}' ORDER BY ordinal_position"
            )
        ]

    async def has_table(self, table: str) -> bool:
        """Return whether ``table`` exists."""
        if self.dialect == "sqlite":
            sql = f"SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '{table}'"  # noqa: S608
        else:
            sql = f"SELECT count(*) FROM information_schema.tables WHERE table_name = '{table}'"  # noqa: S608
        return bool((await self.rows(sql))[0][0] > 0)


@asynccontextmanager
async def backend_for(dialect: str, tmp_path: Path) -> AsyncIterator[Backend]:
    """Yield a fresh, empty database of ``dialect`` (a file in ``tmp_path``, or a new PostgreSQL database)."""
    if dialect == "sqlite":
        yield Backend("sqlite", str(tmp_path / "bot.sqlite3"))
        return
    async with temp_database() as url:
        yield Backend("postgres", url)
