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


async def main(path: str, ai_delay: float) -> None:
    storage = await Storage.open(path)
    service = TableService(storage, NullPublisher(), ai_delay=ai_delay, run_clocks=True)
    await service.restore()
    existing = await storage.tables_for_guild(1)
    for _ in range(TABLES - len(existing)):
        table = await service.create_lobby(
            guild_id=1, channel_id=2, game="coup", host_id=1, host_name="host", options={}, locale="ru", seat_host=False
        )
        for n in range(SEATS):
            await service.add_ai(table.id, 1, f"AI {n}")
        await service.start(table.id, 1)
    while any(t.status == "active" for t in service.tables.values()):
        await asyncio.sleep(0.01)
    await service.close()
    await storage.close()
    sys.stdout.write("all tables finished\n")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2])))
