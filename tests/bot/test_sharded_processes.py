"""Two bot processes, each with its own shards, on one PostgreSQL: one is killed mid-game and restarts.

The processes are :mod:`tests.bot.shard_driver`: the real table service and storage, playing Coup
tables whose humans never click, so clocks fire all the time. Process A (shard 0 of 2) is killed
with SIGKILL while its games run and is started again; process B (shard 1) plays throughout. Then:
every table of both finishes; each process only ever touched its own guilds' tables; no clock was
fired by two processes; no move was applied twice (the log has no gap or repeat and replays to the
stored state).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.shards import shard_of
from bot.storage import Storage, TableRow, TableStatus
from bot.tables import replay
from tests.support.postgres import temp_database

pytestmark = pytest.mark.asyncio
ROOT = Path(__file__).resolve().parents[2]
SHARDS = 2
TABLES_EACH = 5
FIRES_BEFORE_KILL = 4


@pytest_asyncio.fixture
async def pg_url() -> AsyncIterator[str]:
    async with temp_database() as url:
        yield url


def launch(url: str, shard_ids: str, mode: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-m", "tests.bot.shard_driver", url, str(SHARDS), shard_ids, mode, str(TABLES_EACH)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def read_until_fires(process: subprocess.Popen[bytes], fires: int, timeout: float = 60) -> list[str]:
    """Read the process's output until it has fired ``fires`` clock timeouts."""
    assert process.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while sum(line.startswith("FIRE") for line in lines) < fires and time.monotonic() < deadline:
        raw = process.stdout.readline()
        if not raw:
            break
        lines.append(raw.decode().rstrip("\n"))
    return lines


def finish(process: subprocess.Popen[bytes], timeout: float = 120) -> list[str]:
    out, err = process.communicate(timeout=timeout)
    lines = out.decode().splitlines()
    assert process.returncode == 0 and lines[-1:] == ["all tables finished"], err.decode()[-3000:]
    return lines


async def test_killed_shard_process_resumes_and_nothing_fires_or_applies_twice(pg_url: str) -> None:
    storage = await Storage.open(pg_url)  # the schema exists before the processes race to open it
    try:
        first = launch(pg_url, "0", "open")
        second = launch(pg_url, "1", "open")
        # Kill A once its clocks are firing, a little later so the kill lands in the middle of play.
        killed = read_until_fires(first, FIRES_BEFORE_KILL)
        time.sleep(0.2)
        assert first.poll() is None, "process A finished before it could be killed"
        first.send_signal(signal.SIGKILL)
        rest, _ = first.communicate(timeout=30)
        killed += rest.decode().splitlines()
        assert first.returncode == -signal.SIGKILL
        assert "all tables finished" not in killed

        opened_by_a = {int(line.split()[1]): int(line.split()[2]) for line in killed if line.startswith("opened")}
        at_kill = {table_id: await storage.get_table(table_id) for table_id in opened_by_a}
        live_at_kill = [row for row in at_kill.values() if row is not None and row.status is TableStatus.ACTIVE]
        assert live_at_kill, "the kill must land while A's games are in play"
        assert any(row.version > 0 for row in live_at_kill)

        restarted = launch(pg_url, "0", "resume")
        resumed = finish(restarted)
        steady = finish(second)

        # The restart restored exactly A's live tables, and B never restored one (it started first).
        restored = [int(part) for part in resumed[0].split()[2:]]
        assert set(restored) == {row.id for row in live_at_kill} | {
            table_id for table_id, row in at_kill.items() if row is not None and row.status is TableStatus.LOBBY
        }
        assert steady[0] == "restored 0 "

        # No clock was fired by two processes (or by A before and after its restart).
        owners: dict[tuple[int, int], set[str]] = defaultdict(set)
        for line in killed + resumed + steady:
            if line.startswith("FIRE"):
                _, fired_table, prompt, owner = line.split()
                owners[int(fired_table), int(prompt)].add(owner)
        assert owners, "clocks must have fired"
        assert all(len(fired_by) == 1 for fired_by in owners.values()), "a clock was fired twice"
        for (fired_id, _), fired_by in owners.items():
            (owner,) = fired_by
            row = await storage.get_table(fired_id)
            assert row is not None
            assert owner.startswith(f"shards-{shard_of(row.guild_id, SHARDS)}-"), (
                "a process fired another shard's clock"
            )

        # Every table finished; no move was applied twice.
        tables = await _all_tables(storage)
        assert len(tables) == 2 * TABLES_EACH
        assert all(row.status in {TableStatus.FINISHED, TableStatus.CANCELLED} for row in tables)
        assert sum(row.status is TableStatus.FINISHED for row in tables) >= 2 * TABLES_EACH - 1
        timeouts = 0
        for row in tables:
            if row.status is not TableStatus.FINISHED:
                continue
            log = await storage.action_log(row.id)
            assert [entry.seq for entry in log] == list(range(row.version)), "the log has a gap or a repeat"
            rebuilt = await replay(storage, row.id)
            assert rebuilt is not None and rebuilt.model_dump_json() == row.state
            timeouts += sum(entry.by_timeout for entry in log)
        assert timeouts >= len(owners)  # every printed firing committed at least one timeout
        assert await storage.all_clocks() == []
    finally:
        await storage.close()


async def _all_tables(storage: Storage) -> list[TableRow]:
    found: list[TableRow] = []
    table_id = 1
    while (row := await storage.get_table(table_id)) is not None:
        found.append(row)
        table_id += 1
    return found
