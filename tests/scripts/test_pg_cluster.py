"""The throwaway PostgreSQL cluster, and how the tests react when PostgreSQL is missing."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

import tests.support.postgres as support
from scripts import pg_cluster
from scripts.pg_cluster import PostgresUnavailableError, TempCluster, find_pg_bin


def test_pg_bin_override_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("initdb", "pg_ctl", "postgres"):
        (tmp_path / name).write_text("")
    monkeypatch.setenv("PG_BIN", str(tmp_path))
    assert find_pg_bin() == tmp_path


def test_no_binaries_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pg_cluster, "find_pg_bin", lambda: None)
    with pytest.raises(PostgresUnavailableError, match="postgresql"):
        TempCluster().start()


@pytest.mark.asyncio
async def test_cluster_starts_serves_and_is_removed() -> None:
    if find_pg_bin() is None:
        support.cluster()  # fails under REQUIRE_POSTGRES, skips otherwise
    cluster = TempCluster(settings=pg_cluster.FAST_SETTINGS).start()
    directory = cluster.directory
    try:
        conn = await asyncpg.connect(cluster.url())
        try:
            assert await conn.fetchval("SHOW fsync") == "off"
            assert await conn.fetchval("SELECT inet_server_addr()::text") == "127.0.0.1/32"
        finally:
            await conn.close()
    finally:
        cluster.stop()
    assert directory is not None and not directory.exists()
    cluster.stop()  # twice is harmless


@pytest.mark.parametrize(("required", "outcome"), [(True, pytest.fail.Exception), (False, pytest.skip.Exception)])
def test_missing_postgres_fails_when_required_and_skips_otherwise(
    monkeypatch: pytest.MonkeyPatch, required: bool, outcome: type[BaseException]
) -> None:
    monkeypatch.setattr(support, "_cluster", None)
    monkeypatch.setattr(support, "_failure", "no binaries (test)")
    monkeypatch.setattr(support, "REQUIRED", required)
    with pytest.raises(outcome, match="no binaries"):
        support.cluster()
