"""Memory over many finished tables: what a table leaves behind once it is over must be nothing.

A fresh process (``python -m benchmarks.bookkeeping DB TABLES``, importing what the bot imports)
plays ``TABLES`` two-player Coup tables one after another through the real table service and the
real :class:`~bot.ui.publisher.DiscordPublisher`, talking to a fake Discord that accepts every
request (thread, welcome, board posts and edits, result). Of every ten tables one is cancelled in
the lobby, one is ended by its host mid-game, and eight are finished (a resignation: a rated
result). Boards are built without their PNG (:mod:`benchmarks.render` times drawing); the two
players are the same people every time, as on a small server, so the ratings table stays small.

After 1,000 tables and again at the end the process waits for every background task, collects
garbage and reports its resident set size and the size of every per-table map of the service and
the publisher. Targets: every map empty, and RSS at the end within 4 MB of RSS after 1,000 tables
(SQLite's page cache and the allocator's arenas settle within the first thousand). Measured when
the publisher still kept every done board and lobby task: 9,000 and 10,000 entries and +11 MB
from 1,000 to 10,000 tables; without them: +0.7 MB.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

from benchmarks.common import Line

SECTION = "13b. Memory over many finished tables"
TARGET_GROWTH_BYTES = 4 * 1024 * 1024
CHECKPOINT = 1_000
HOST, GUEST = 501, 502


class _Message:
    """A message, thread or channel of the fake Discord: every request on it succeeds."""

    _ids = itertools.count(10_000_000)

    def __init__(self) -> None:
        self.id = next(self._ids)

    async def edit(self, **_: Any) -> _Message:
        return self

    async def delete(self) -> None:
        return None

    async def create_thread(self, **_: Any) -> _Message:
        return _Message()

    async def send(self, *_: Any, **__: Any) -> _Message:
        return _Message()

    def get_partial_message(self, _message_id: int) -> _Message:
        return _Message()


class _FakeBot:
    """The parts of :class:`bot.app.TableBot` the publisher uses."""

    def __init__(self) -> None:
        self.service: Any = None
        self._channel = _Message()

    def get_partial_messageable(self, _channel_id: int, **_: Any) -> _Message:
        return self._channel

    def get_channel(self, _channel_id: int) -> None:
        return None


def per_table_maps(service: Any, publisher: Any) -> dict[str, Any]:
    """Return every map the table service and the publisher keep per table (empty once tables end)."""
    return {
        "service.tables": service.tables,
        "service._timers": service._timers,
        "service._ai_tasks": service._ai_tasks,
        "publisher.logs": publisher.logs,
        "publisher._board_tasks": publisher._board_tasks,
        "publisher._lobby_tasks": publisher._lobby_tasks,
        "publisher._calls": publisher._calls,
        "publisher._reminders": publisher._reminders,
        "publisher._final_boards": publisher._final_boards,
        "publisher._dirty": publisher._dirty,
        "publisher._panels": publisher._panels,
    }


def _map_sizes(service: Any, publisher: Any) -> dict[str, int]:
    return {name: len(entries) for name, entries in per_table_maps(service, publisher).items()}


async def _settle(service: Any, publisher: Any) -> None:
    """Wait until no background task of the service or the publisher is still running."""
    while True:
        pending = [
            task
            for task in (*service._background, *publisher._board_tasks.values(), *publisher._lobby_tasks.values())
            if not task.done()
        ]
        if not pending:
            return
        await asyncio.gather(*pending, return_exceptions=True)


async def play(db: str, count: int) -> dict[str, Any]:
    """Play ``count`` tables to their end; return RSS and map sizes after 1,000 and after all."""
    import bot.app  # noqa: F401 - what the bot's process holds
    from benchmarks.clicks import _without_images
    from benchmarks.memory import rss_bytes
    from bot.storage import Storage
    from bot.tables import TableService
    from bot.ui.publisher import DiscordPublisher

    storage = await Storage.open(db)
    fake = _FakeBot()
    publisher = DiscordPublisher(cast(Any, fake), edit_interval=0)
    service = TableService(storage, publisher, ai_delay=0, run_clocks=True)
    fake.service = service
    checkpoints: dict[str, Any] = {}
    try:
        with _without_images("coup"):
            for index in range(count):
                table = await service.create_lobby(
                    guild_id=1,
                    channel_id=2,
                    game="coup",
                    host_id=HOST,
                    host_name="Александра",
                    options={"clock": 3600},
                    locale="ru",
                    seed=f"bench-bookkeeping-{index}",
                )
                await service.set_lobby_message(table, _Message().id)
                await service.join(table.id, GUEST, "Константин")
                if index % 10 == 0:
                    await service.leave(table.id, HOST)  # the host leaving cancels the lobby
                else:
                    await service.start(table.id, HOST)
                    if index % 10 == 1:
                        await service.cancel(table.id, HOST, is_moderator=False)
                    else:
                        await service.resign(table.id, GUEST)
                await _settle(service, publisher)
                done = index + 1
                if done in (min(CHECKPOINT, count), count):
                    gc.collect()
                    checkpoints[str(done)] = {"rss": rss_bytes(), "maps": _map_sizes(service, publisher)}
    finally:
        await service.close()
        await storage.close()
    return checkpoints


def bench_bookkeeping(workdir: Path, *, tables: int = 10_000) -> list[Line]:
    """Play ``tables`` tables in a fresh process; report RSS and per-table maps at 1,000 and at the end."""
    db = workdir / "bookkeeping.sqlite3"
    db.unlink(missing_ok=True)
    out = subprocess.run(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-m", "benchmarks.bookkeeping", str(db), str(tables)],
        capture_output=True,
        text=True,
        check=True,
    )
    data: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    first, last = data[str(min(CHECKPOINT, tables))], data[str(tables)]
    mb = 1024 * 1024
    growth = last["rss"] - first["rss"]
    lines = [
        Line(
            SECTION,
            f"RSS after {min(CHECKPOINT, tables):,} → {tables:,} finished or cancelled tables "
            "(service + Discord publisher, fake Discord)",
            f"{first['rss'] / mb:.0f} → {last['rss'] / mb:.0f} MB ({growth / mb:+.1f} MB)",
            f"≤ +{TARGET_GROWTH_BYTES // mb} MB",
            growth <= TARGET_GROWTH_BYTES,
        )
    ]
    for name, size in last["maps"].items():
        lines.append(
            Line(
                SECTION,
                f"entries left in {name} after {tables:,} tables ({first['maps'][name]} after "
                f"{min(CHECKPOINT, tables):,})",
                str(size),
                "0",
                size == 0 and first["maps"][name] == 0,
            )
        )
    return lines


def main(argv: list[str]) -> int:
    """Play the tables in this process and print the checkpoints as JSON."""
    print(json.dumps(asyncio.run(play(argv[0], int(argv[1])))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
