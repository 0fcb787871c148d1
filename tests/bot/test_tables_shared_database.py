"""Table services of several processes on one database: shard ownership, clocks fired exactly once.

Each test runs on both backends (a SQLite file, a fresh PostgreSQL database). The processes are
table services in this test, each with its own storage (its own connections), on a shared fake clock.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.shards import Shards, shard_of
from bot.storage import Storage
from bot.tables import CLOCK_CLAIM_SECONDS, Table, TableService
from tests.bot.test_tables import FakeClock, RecordingPublisher
from tests.support.postgres import Backend, backend_for

pytestmark = pytest.mark.asyncio

TABLES = 8
HUMANS = (201, 202, 203)


@pytest_asyncio.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    async with backend_for(request.param, tmp_path) as chosen:
        yield chosen


class Processes:
    """Services opened in the test, closed with their storages at the end."""

    def __init__(self, backend: Backend, clock: FakeClock) -> None:
        self.backend = backend
        self.clock = clock
        self.opened: list[tuple[TableService, Storage]] = []

    async def start(
        self, *, shards: Shards | None = None, run_clocks: bool = False, owner: str | None = None
    ) -> TableService:
        storage = await self.backend.open()
        service = TableService(
            storage,
            RecordingPublisher(),
            ai_delay=0,
            time_fn=self.clock,
            run_clocks=run_clocks,
            shards=shards,
            owner=owner,
        )
        self.opened.append((service, storage))
        return service

    async def close(self) -> None:
        for service, storage in self.opened:
            await service.close()
            await storage.close()


@pytest_asyncio.fixture
async def processes(backend: Backend) -> AsyncIterator[Processes]:
    opened = Processes(backend, FakeClock())
    yield opened
    await opened.close()


async def human_table(service: TableService, guild_id: int) -> Table:
    """Start a three-human Coup table whose first decision waits on a 60 s clock."""
    table = await service.create_lobby(
        guild_id=guild_id,
        channel_id=2,
        game="coup",
        host_id=HUMANS[0],
        host_name="A",
        options={"clock": 60, "game": {}},
        locale="ru",
        seed=f"shared-{guild_id}",
    )
    for user in HUMANS[1:]:
        await service.join(table.id, user, f"U{user}")
    return await service.start(table.id, HUMANS[0])


async def timeouts(storage: Storage, table_id: int) -> list[int]:
    """Return the log positions of the table's timed-out actions."""
    return [entry.seq for entry in await storage.action_log(table_id) if entry.by_timeout]


async def test_each_process_restores_only_its_shards_tables(processes: Processes) -> None:
    creator = await processes.start()
    guilds = [(n << 22) + 11 for n in range(TABLES)]
    made = {(await human_table(creator, guild)).id: guild for guild in guilds}
    first = await processes.start(shards=Shards.of(2, [0]))
    second = await processes.start(shards=Shards.of(2, [1]))
    assert await first.restore() + await second.restore() == TABLES
    assert set(first.tables).isdisjoint(second.tables)
    assert set(first.tables) | set(second.tables) == set(made)
    assert all(shard_of(made[table_id], 2) == 0 for table_id in first.tables)


async def test_overlapping_processes_fire_each_due_clock_once(processes: Processes) -> None:
    """Two processes hold the same tables (a misconfiguration, or a rolling restart) and sweep at once."""
    first = await processes.start(owner="first")
    tables = [await human_table(first, guild) for guild in range(1, TABLES + 1)]
    second = await processes.start(owner="second")
    assert await second.restore() == TABLES
    processes.clock.now += 61  # every first decision ran out
    fired = await asyncio.gather(first.fire_due_clocks(), second.fire_due_clocks())
    assert sum(fired) == TABLES
    storage = first.storage
    for table in tables:
        assert await timeouts(storage, table.id) == [0], "a clock fired twice or not at all"


async def test_overlapping_timers_fire_each_clock_once(processes: Processes) -> None:
    first = await processes.start(owner="first")
    tables = [await human_table(first, guild) for guild in range(1, TABLES + 1)]
    second = await processes.start(owner="second")
    await second.restore()
    processes.clock.now += 61
    await asyncio.gather(
        *(
            service.on_clock(table.id, table.prompt_version)
            for table in tables
            for service in (first, second, second, first)
        )
    )
    for table in tables:
        assert await timeouts(first.storage, table.id) == [0]
        stored = await first.storage.get_table(table.id)
        assert stored is not None and stored.version == 1


async def test_a_clock_held_by_a_dead_process_fires_when_its_claim_lapses(processes: Processes) -> None:
    service = await processes.start(owner="alive", run_clocks=True)
    table = await human_table(service, 1)
    clock = processes.clock
    clock.now += 61
    # Another process claimed this clock and died before it applied anything.
    dead = await service.storage.claim_clock(
        table.id, table.prompt_version, owner="dead", now=clock.now, lease=CLOCK_CLAIM_SECONDS
    )
    assert dead.claimed
    await service.on_clock(table.id, table.prompt_version)
    assert await timeouts(service.storage, table.id) == []  # held: not fired
    handle = service._timers[table.id]  # re-armed for when the dead claim lapses
    loop = asyncio.get_running_loop()
    assert handle.when() - loop.time() == pytest.approx(CLOCK_CLAIM_SECONDS, abs=1.0)
    clock.now += CLOCK_CLAIM_SECONDS
    await service.on_clock(table.id, table.prompt_version)
    assert await timeouts(service.storage, table.id) == [0]
