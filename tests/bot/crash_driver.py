"""A process that plays all-AI Coup tables through the real table service until they finish.

The crash test runs it, kills it with SIGKILL at random moments and runs it again on the same
database; each run restores whatever is live and plays on.
"""

from __future__ import annotations

import asyncio
import sys

from bot.storage import Storage
from bot.tables import NullPublisher, TableService

TABLES = 3
SEATS = 4


async def main(path: str, ai_delay: float, *, refill: bool) -> None:
    """Play until every table is finished; with ``refill``, replace finished tables (runs to be killed)."""
    storage = await Storage.open(path)
    service = TableService(storage, NullPublisher(), ai_delay=ai_delay, run_clocks=True)
    await service.restore()
    # A kill may have landed while a lobby was being filled: finish filling or drop it.
    for table in [t for t in service.tables.values() if t.status == "lobby"]:
        if len(table.seats) == SEATS:
            await service.start(table.id, 1)
        else:
            await service.cancel(table.id, 1, is_moderator=True)
    # Keep TABLES games in play, so that every run has live tables to be killed in.
    await top_up(service)
    while any(t.status == "active" for t in service.tables.values()):
        await asyncio.sleep(0.01)
        if refill:
            await top_up(service)
    await service.close()
    await storage.close()
    sys.stdout.write("all tables finished\n")


async def top_up(service: TableService) -> None:
    """Open and start all-AI tables until TABLES are in play."""
    live = sum(1 for t in service.tables.values() if t.status == "active")
    for _ in range(TABLES - live):
        table = await service.create_lobby(
            guild_id=1, channel_id=2, game="coup", host_id=1, host_name="host", options={}, locale="ru", seat_host=False
        )
        for n in range(SEATS):
            await service.add_ai(table.id, 1, f"AI {n}")
        await service.start(table.id, 1)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2]), refill=sys.argv[3] == "refill"))
