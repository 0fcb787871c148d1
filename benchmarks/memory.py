"""Memory with many live tables, and how long a restart takes to bring them all back.

Each measure runs in a fresh process (``python -m benchmarks.memory fill|restore DB TABLES``) that
imports what the bot imports (``bot.app``: discord.py, every game, presenter and renderer), so its
resident set size is the bot's own:

- ``fill`` opens ``TABLES`` live all-human tables of every registered game in turn (every seat
  count each allows), plays up to five random moves on each, collects garbage and reports the
  RSS (and the RSS right after the imports, for scale);
- ``restore`` is the restart: a new table service on the same database, ``restore()`` timed until
  every table's state, prompt and clock are back in memory and every clock timer is armed, then
  the RSS.

Targets: RSS ≤ 200 MB with 1,000 live tables; restore ≤ 5 s.
"""

from __future__ import annotations

import asyncio
import gc
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.common import Line

SECTION = "13. Memory and restart"
TARGET_RSS_BYTES = 200 * 1024 * 1024
TARGET_RESTORE_SECONDS = 5.0


def rss_bytes() -> int:
    """Return this process's resident set size (Linux ``/proc``; 0 where it is not available)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return 0
    return 0


async def fill(db: str, count: int) -> dict[str, Any]:
    """Open ``count`` live tables on ``db``; return the RSS before and after."""
    import bot.app  # noqa: F401 - what the bot's process holds
    from benchmarks.common import LONG_NAMES, registered_games, seat_counts
    from bot.storage import Storage
    from bot.tables import NullPublisher, TableService
    from games.core import GameRng

    gc.collect()
    baseline = rss_bytes()
    storage = await Storage.open(db)
    service = TableService(storage, NullPublisher(), ai_delay=0, run_clocks=True)
    games = registered_games()
    rng = GameRng("bench-memory")
    user = 10_000
    began = time.perf_counter()
    for index in range(count):
        game = games[index % len(games)]
        counts = seat_counts(game)
        seats = counts[(index // len(games)) % len(counts)]
        users = list(range(user, user + seats))
        user += seats
        table = await service.create_lobby(
            guild_id=1 + index % 10,
            channel_id=100 + index % 10,
            game=game,
            host_id=users[0],
            host_name=LONG_NAMES[0],
            options={"clock": 3600},
            locale="ru",
            seed=f"bench-memory-{index}",
        )
        for n, guest in enumerate(users[1:], start=1):
            await service.join(table.id, guest, LONG_NAMES[n % len(LONG_NAMES)])
        await service.start(table.id, users[0])
        for _ in range(rng.below(6)):
            state = table.state
            if table.status != "active" or state is None:
                break
            seat = min(table.engine.active_seats(state))
            who = table.seats[seat].user_id or 0  # every seat is a human's
            await service.act(table.id, who, table.prompt_version, rng.choice(table.engine.legal_actions(state, seat)))
    seconds = time.perf_counter() - began
    gc.collect()
    live = sum(1 for t in service.tables.values() if t.status == "active")
    result = {"baseline": baseline, "rss": rss_bytes(), "live": live, "fill_seconds": seconds}
    await service.close()
    await storage.close()
    return result


async def restore(db: str) -> dict[str, Any]:
    """Restart on ``db``: time ``restore()`` and report the RSS once every table is back."""
    import bot.app  # noqa: F401 - what the bot's process holds
    from bot.storage import Storage
    from bot.tables import NullPublisher, TableService

    storage = await Storage.open(db)
    service = TableService(storage, NullPublisher(), ai_delay=1.5, run_clocks=True)
    began = time.perf_counter()
    restored = await service.restore()
    seconds = time.perf_counter() - began
    armed = sum(1 for t in service.tables.values() if t.status == "active" and t.id in service._timers)
    gc.collect()
    result = {"restored": restored, "armed": armed, "seconds": seconds, "rss": rss_bytes()}
    await service.close()
    await storage.close()
    return result


def _run(*args: str) -> dict[str, Any]:
    out = subprocess.run(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-m", "benchmarks.memory", *args], capture_output=True, text=True, check=True
    )
    data: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return data


def bench_memory(workdir: Path, *, tables: int = 1_000) -> list[Line]:
    """Fill a database with ``tables`` live tables in one process and restore them in another."""
    db = workdir / "memory.sqlite3"
    db.unlink(missing_ok=True)
    filled = _run("fill", str(db), str(tables))
    back = _run("restore", str(db))
    mb = 1024 * 1024
    return [
        Line(
            SECTION,
            f"RSS with {filled['live']:,} live tables of every game (the process that opened them; "
            f"{filled['baseline'] / mb:.0f} MB after imports)",
            f"{filled['rss'] / mb:.0f} MB",
            f"≤ {TARGET_RSS_BYTES // mb} MB",
            filled["rss"] <= TARGET_RSS_BYTES,
        ),
        Line(
            SECTION,
            f"restart: restore {back['restored']:,} live tables (state, prompt, clock; {back['armed']:,} clocks armed)",
            f"{back['seconds']:.2f} s",
            f"≤ {TARGET_RESTORE_SECONDS:.0f} s",
            back["seconds"] <= TARGET_RESTORE_SECONDS and back["armed"] == filled["live"],
        ),
        Line(
            SECTION,
            f"RSS after the restart with {back['restored']:,} tables",
            f"{back['rss'] / mb:.0f} MB",
            f"≤ {TARGET_RSS_BYTES // mb} MB",
            back["rss"] <= TARGET_RSS_BYTES,
        ),
    ]


def main(argv: list[str]) -> int:
    """Run one measure in this process and print its JSON."""
    mode, db = argv[0], argv[1]
    result = asyncio.run(fill(db, int(argv[2])) if mode == "fill" else restore(db))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
