"""Clock claims and races between processes: each clock is fired by one owner, each move applied once.

Every test runs on both backends; "two processes" are two storages opened on one database (two
connections to one SQLite file, or two connection pools on one PostgreSQL database).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.shards import Shards, shard_of
from bot.storage import ClockClaim, ClockRow, LogEntry, Storage, VersionConflictError
from tests.bot.storage.test_storage_play import T0, TableHelper
from tests.support.postgres import Backend

pytestmark = pytest.mark.asyncio

LEASE = 10.0


@pytest_asyncio.fixture
async def rival(backend: Backend) -> AsyncIterator[Storage]:
    """A second storage on the same database: another bot process."""
    store = await backend.open()
    yield store
    await store.close()


def _entry(seat: int = 0) -> LogEntry:
    return LogEntry(seat, json.dumps({"kind": "income"}))


async def test_a_claim_holds_the_clock_until_its_lease_ends(storage: Storage) -> None:
    table = await TableHelper(storage).active()  # its clock guards version 0
    mine = await storage.claim_clock(table.id, 0, owner="a", now=T0, lease=LEASE)
    assert mine == ClockClaim(claimed=True, holder="a", until=T0 + LEASE)
    assert await storage.claim_clock(table.id, 0, owner="b", now=T0 + 1, lease=LEASE) == ClockClaim(
        claimed=False, holder="a", until=T0 + LEASE
    )
    again = await storage.claim_clock(table.id, 0, owner="a", now=T0 + 2, lease=LEASE)  # re-entrant, extended
    assert again == ClockClaim(claimed=True, holder="a", until=T0 + 2 + LEASE)
    # "a" died: once its claim lapses "b" may fire the clock.
    assert (await storage.claim_clock(table.id, 0, owner="b", now=T0 + 2 + LEASE, lease=LEASE)).claimed


async def test_a_clock_that_moved_on_cannot_be_claimed(storage: Storage) -> None:
    tables = TableHelper(storage)
    table = await tables.active()
    await tables.play(table.id, 1)  # the clock now guards version 1
    assert await storage.claim_clock(table.id, 0, owner="a", now=T0, lease=LEASE) == ClockClaim(claimed=False)
    assert await storage.claim_clock(table.id + 99, 0, owner="a", now=T0, lease=LEASE) == ClockClaim(claimed=False)


async def test_rewriting_the_same_prompt_keeps_the_claim_and_a_new_prompt_clears_it(storage: Storage) -> None:
    table = await TableHelper(storage).active()
    assert (await storage.claim_clock(table.id, 0, owner="a", now=T0, lease=LEASE)).claimed
    # One seat of a response window answered: the prompt (version 0) goes on with the same clock.
    await storage.commit_action(table.id, 0, "{}", 1, _entry(), clock=ClockRow(table.id, 0, T0 + 60, (1,)), now=T0)
    assert not (await storage.claim_clock(table.id, 0, owner="b", now=T0 + 1, lease=LEASE)).claimed
    # A new prompt: nobody holds its clock.
    await storage.commit_action(table.id, 1, "{}", 2, _entry(1), clock=ClockRow(table.id, 2, T0 + 90, (0,)), now=T0)
    assert (await storage.claim_clock(table.id, 2, owner="b", now=T0 + 2, lease=LEASE)).claimed
    assert await storage.set_clock(ClockRow(table.id, 2, T0 + 120, (0,)))  # rescheduled: still b's
    assert not (await storage.claim_clock(table.id, 2, owner="c", now=T0 + 3, lease=LEASE)).claimed


async def test_claim_due_clocks_takes_only_wanted_due_and_free_clocks(storage: Storage) -> None:
    tables = TableHelper(storage)
    due, later, taken, moved, unwanted = [await tables.active() for _ in range(5)]
    await storage.set_clock(ClockRow(later.id, 0, T0 + 500, (0,)))
    assert (await storage.claim_clock(taken.id, 0, owner="other", now=T0 + 55, lease=LEASE)).claimed
    await tables.play(moved.id, 1)  # its clock is at version 1 now; the caller still wants version 0
    wanted = {table.id: 0 for table in (due, later, taken, moved)}
    claimed = await storage.claim_due_clocks(wanted, owner="me", now=T0 + 60, lease=LEASE)
    assert claimed == [ClockRow(due.id, 0, T0 + 60, (0,))]
    assert await storage.claim_due_clocks(wanted, owner="me", now=T0 + 60, lease=LEASE) == claimed  # mine already
    assert await storage.claim_due_clocks(wanted, owner="else", now=T0 + 61, lease=LEASE) == []
    assert await storage.claim_due_clocks({}, owner="me", now=T0, lease=LEASE) == []
    # The other owner's claim lapsed: its clock is free again.
    again = await storage.claim_due_clocks(wanted, owner="me", now=T0 + 70, lease=LEASE)
    assert [clock.table_id for clock in again] == [due.id, taken.id]
    assert (await storage.claim_clock(unwanted.id, 0, owner="x", now=T0 + 70, lease=LEASE)).claimed  # never touched


async def test_claim_due_clocks_respects_the_limit(storage: Storage) -> None:
    tables = TableHelper(storage)
    active = [await tables.active() for _ in range(4)]
    claimed = await storage.claim_due_clocks(
        {table.id: 0 for table in active}, owner="me", now=T0 + 60, lease=LEASE, limit=3
    )
    assert len(claimed) == 3


async def test_rival_processes_claim_disjoint_clocks(storage: Storage, rival: Storage) -> None:
    tables = TableHelper(storage)
    active = [await tables.active() for _ in range(30)]
    wanted = {table.id: 0 for table in active}

    async def sweep(store: Storage, owner: str) -> list[int]:
        """Claim four at a time, as a service sweeping due clocks would, until nothing is left."""
        remaining = dict(wanted)
        got: list[int] = []
        while claimed := await store.claim_due_clocks(remaining, owner=owner, now=T0 + 60, lease=LEASE, limit=4):
            for clock in claimed:
                got.append(clock.table_id)
                remaining.pop(clock.table_id)  # fired: the clock moves on
        return got

    owners = await asyncio.gather(sweep(storage, "a"), sweep(rival, "b"), sweep(storage, "c"), sweep(rival, "d"))
    everyone = [table_id for got in owners for table_id in got]
    assert len(everyone) == len(set(everyone)), "a clock was claimed by two owners"
    assert set(everyone) == set(wanted)
    assert await storage.claim_due_clocks(wanted, owner="z", now=T0 + 60, lease=LEASE) == []


async def test_rival_single_claims_of_one_clock_let_one_win(storage: Storage, rival: Storage) -> None:
    tables = TableHelper(storage)
    active = [await tables.active() for _ in range(10)]
    for table in active:
        claims = await asyncio.gather(
            *(
                (storage if n % 2 else rival).claim_clock(table.id, 0, owner=f"p{n}", now=T0 + 60, lease=LEASE)
                for n in range(6)
            )
        )
        assert sum(claim.claimed for claim in claims) == 1
        winner = next(claim.holder for claim in claims if claim.claimed)
        assert all(claim.holder == winner for claim in claims)


async def test_racing_processes_apply_each_version_once(storage: Storage, rival: Storage) -> None:
    """Two processes try every move of twelve tables at once; the version check lets exactly one through."""
    tables = TableHelper(storage)
    active = [await tables.active() for _ in range(12)]
    moves = 6

    async def play(store: Storage, seat: int) -> int:
        applied = 0
        for version in range(moves):
            results = await asyncio.gather(
                *(
                    store.commit_action(
                        table.id,
                        version,
                        json.dumps({"version": version + 1, "by": seat}),
                        version + 1,
                        _entry(seat),
                        clock=ClockRow(table.id, version + 1, T0 + version, (seat,)),
                        now=T0 + version,
                    )
                    for table in active
                ),
                return_exceptions=True,
            )
            for result in results:
                if isinstance(result, VersionConflictError):
                    continue
                if isinstance(result, BaseException):
                    raise result
                applied += 1
            await asyncio.sleep(0)
        return applied

    first, second = await asyncio.gather(play(storage, 0), play(rival, 1))
    # A refused attempt means the table had already moved past that version, so every version was
    # applied by exactly one of the two.
    assert first + second == moves * len(active)
    for table in active:
        stored = await storage.get_table(table.id)
        assert stored is not None and stored.version == moves
        log = await storage.action_log(table.id)
        assert [entry.seq for entry in log] == list(range(moves)), "a version was applied twice or skipped"
        # State, log and clock come from one transaction: the writer of the last log entry's.
        assert json.loads(stored.state or "{}")["by"] == log[-1].seat
        clock = await storage.get_clock(table.id)
        assert clock is not None and clock.seats == (log[-1].seat,)


async def test_live_tables_of_some_shards(storage: Storage) -> None:
    guilds = [(n << 22) + 7 for n in range(12)]  # snowflakes landing on shards 0, 1, 2, 3, 0, 1, …
    ids = {}
    for guild in guilds:
        table = await storage.create_table(
            guild_id=guild, channel_id=1, game="coup", host_id=1, options={}, seed="s", locale="ru", now=T0
        )
        ids[table.id] = guild
    mine = Shards.of(4, [1, 3])
    rows = await storage.live_tables(shards=mine)
    assert [row.id for row in rows] == sorted(tid for tid, guild in ids.items() if shard_of(guild, 4) in {1, 3})
    assert {shard_of(row.guild_id, 4) for row in rows} == {1, 3}
    assert len(await storage.live_tables(shards=Shards.of(4))) == len(guilds)
    assert len(await storage.live_tables()) == len(guilds)


async def test_extending_a_clock_pushes_its_deadline_back(storage: Storage) -> None:
    tables = TableHelper(storage)
    table = await tables.active()  # version 0, deadline T0 + 60
    assert await storage.extend_clock(table.id, 0, 30) == ClockRow(table.id, 0, T0 + 90, (0,))
    assert await storage.get_clock(table.id) == ClockRow(table.id, 0, T0 + 90, (0,))
    assert await storage.extend_clock(table.id, 5, 30) is None  # not the running prompt: nothing changes
    await tables.play(table.id, 1)
    assert await storage.extend_clock(table.id, 0, 30) is None  # that prompt is over
    assert await storage.get_clock(table.id) == ClockRow(table.id, 1, T0 + 100, (1,))


async def test_rival_extensions_add_up(storage: Storage, rival: Storage) -> None:
    table = await TableHelper(storage).active()
    await asyncio.gather(*(s.extend_clock(table.id, 0, 30) for s in (storage, rival, storage, rival)))
    assert await rival.get_clock(table.id) == ClockRow(table.id, 0, T0 + 180, (0,))
