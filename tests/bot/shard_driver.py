"""One bot process of a sharded deployment, without Discord: the real table service on PostgreSQL.

``python -m tests.bot.shard_driver URL SHARD_COUNT SHARD_IDS open|resume TABLES``

The process owns the guilds of its shards. With ``open`` it starts ``TABLES`` Coup tables in its
own guilds (as interactions for a guild only ever reach its shard's process), each with two humans
who never click (so their clocks run out, and after three timeouts an AI takes the seat) and two AI
seats. With ``resume`` it only restores what is live in its shards (a restart). Either way it plays
until every table of its shards is finished, then prints ``all tables finished``.

Every clock timeout it applies is printed as ``FIRE <table> <prompt version> <owner>``, after the
commit, so a test can check that no clock was fired by two processes. The restart grace and the
clock claim lease are shortened so that a killed process's tables resume within a second or two.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

import bot.tables
from bot.shards import Shards, parse_shard_ids
from bot.storage import Storage
from bot.tables import Table, TableService

bot.tables.RESTART_GRACE_SECONDS = 0.3
bot.tables.CLOCK_CLAIM_SECONDS = 1.5
HUMANS = 2
AIS = 2
CLOCK_SECONDS = 1


def emit(line: str) -> None:
    """Print a line at once (a SIGKILL must not lose what was already done)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class RecordingService(TableService):
    """The table service, printing each clock timeout it commits."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._firing: dict[int, int] = {}

    async def on_clock(self, table_id: int, prompt_version: int, *, claimed: bool = False) -> None:
        self._firing[table_id] = prompt_version
        await super().on_clock(table_id, prompt_version, claimed=claimed)

    async def _commit(self, table: Table, seat: int, action: Any, state: Any, events: Any, **kwargs: Any) -> None:
        await super()._commit(table, seat, action, state, events, **kwargs)
        if kwargs.get("by_timeout"):
            emit(f"FIRE {table.id} {self._firing[table.id]} {self.owner}")


def own_guilds(shards: Shards, count: int) -> list[int]:
    """Return ``count`` guild ids (snowflake-like) that Discord routes to ``shards``."""
    guilds: list[int] = []
    n = 1
    while len(guilds) < count:
        guild = (n << 22) + 42
        if shards.owns(guild):
            guilds.append(guild)
        n += 1
    return guilds


async def main(url: str, shards: Shards, *, open_tables: int) -> None:
    """Play this process's tables to the end."""
    storage = await Storage.open(url)
    owner = f"shards-{'-'.join(map(str, sorted(shards.ids)))}-pid{os.getpid()}"
    service = RecordingService(
        storage, None, ai_delay=0.005, timeouts_before_autopilot=3, run_clocks=True, shards=shards, owner=owner
    )
    restored = await service.restore()
    emit(f"restored {restored} {' '.join(str(table_id) for table_id in sorted(service.tables))}")
    # A kill may have landed while a lobby was being filled: start it if it is full, else drop it.
    for table in [t for t in service.tables.values() if t.status == "lobby"]:
        if len(table.seats) == HUMANS + AIS:
            await service.start(table.id, table.host_id)
        else:
            await service.cancel(table.id, table.host_id, is_moderator=True)
    for guild in own_guilds(shards, open_tables):
        table = await service.create_lobby(
            guild_id=guild,
            channel_id=guild + 1,
            game="coup",
            host_id=guild + 100,
            host_name="Хозяин",
            options={"clock": CLOCK_SECONDS, "game": {}},
            locale="ru",
        )
        await service.join(table.id, guild + 101, "Гость")
        for n in range(AIS):
            await service.add_ai(table.id, guild + 100, f"AI {n}")
        await service.start(table.id, guild + 100)
        emit(f"opened {table.id} {guild}")
    while any(table.status == "active" for table in service.tables.values()):
        await asyncio.sleep(0.02)
    await service.close()
    await storage.close()
    emit("all tables finished")


if __name__ == "__main__":
    count = int(sys.argv[2])
    mine = Shards.of(count, parse_shard_ids(sys.argv[3], count))
    asyncio.run(main(sys.argv[1], mine, open_tables=int(sys.argv[5]) if sys.argv[4] == "open" else 0))
