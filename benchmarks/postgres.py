"""PostgreSQL vs SQLite, click → answer built at 200 live tables, both in one run: ``python -m benchmarks.postgres``.

The measure is the click benchmark's (:mod:`benchmarks.clicks`): ``TableService.act`` (checks,
per-table lock, ``engine.apply``, narration, one storage transaction with the version check) plus
building the clicking player's private panel, and then the public board message without its PNG;
throughput is eight players clicking at once on one service. The same fleet runs on:

* SQLite: a file in WAL mode with ``synchronous=NORMAL`` (the bot's settings);
* PostgreSQL with ``synchronous_commit=off``: the same durability as SQLite's NORMAL (a crash of
  the machine may lose the last commits, never corrupt);
* PostgreSQL with ``synchronous_commit=on`` (PostgreSQL's default): every commit waits for its
  WAL flush.

Without ``--url`` the PostgreSQL runs use a throwaway local cluster (:mod:`scripts.pg_cluster`,
fsync on) over loopback TCP; ``--url postgresql://…/db`` measures a real server instead: through
that database the benchmark creates (and replaces) its own two, so the user needs CREATEDB.
``--out DIR`` also writes ``DIR/postgres.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from benchmarks.clicks import Fleet, _LogPublisher, _without_images
from benchmarks.common import GAME, ms, p50_p99
from bot.storage import Storage
from bot.tables import TableService
from scripts.pg_cluster import TempCluster


@dataclass(frozen=True)
class Result:
    """One backend's numbers."""

    backend: str
    answer: tuple[float, float]
    board: tuple[float, float]
    per_second: float
    live: int
    finished: int


async def measure(backend: str, target: str, *, tables: int, clicks: int, warmup: int, workers: int = 8) -> Result:
    """Run the click fleet on the database ``target`` (a SQLite path or a PostgreSQL URL)."""
    storage = await Storage.open(target)
    publisher = _LogPublisher()
    service = TableService(storage, publisher, ai_delay=0, run_clocks=False)
    try:
        fleet = Fleet(service, publisher, tables)
        await fleet.fill()
        answers: list[float] = []
        boards: list[float] = []
        with _without_images(GAME):
            for i in range(warmup):
                await fleet.click(i % tables, board=True)
            for i in range(clicks):
                answer, board = await fleet.click(i % tables, board=True)
                answers.append(answer)
                boards.append(board)
        live = len(service.tables)
        workers = max(1, min(workers, tables))

        async def worker(mine: Sequence[int]) -> None:
            for i in range(clicks // workers):
                await fleet.click(mine[i % len(mine)], board=False)

        start = time.perf_counter()
        await asyncio.gather(*(worker(range(tables)[w::workers]) for w in range(workers)))
        per_second = (clicks // workers) * workers / (time.perf_counter() - start)
    finally:
        await service.close()
        await storage.close()
    return Result(backend, p50_p99(answers), p50_p99(boards), per_second, live, fleet.finished)


async def _database(admin_url: str, name: str, *, synchronous_commit: str) -> str:
    """Create (afresh) database ``name`` with the given commit durability; return its URL."""
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
        await conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = {synchronous_commit}')
    finally:
        await conn.close()
    base, _, _ = admin_url.rpartition("/")
    return f"{base}/{name}"


async def run(*, tables: int, clicks: int, warmup: int, url: str | None, workdir: Path) -> list[Result]:
    """Measure SQLite and both PostgreSQL settings, one after the other, in this process."""
    cluster: TempCluster | None = None
    if url is None:
        cluster = TempCluster().start()
        url = cluster.url()
    try:
        sizes = {"tables": tables, "clicks": clicks, "warmup": warmup}
        results = [await measure("SQLite (WAL, synchronous=NORMAL)", str(workdir / "bench.sqlite3"), **sizes)]
        for setting in ("off", "on"):
            target = await _database(url, f"bench_clicks_sync_{setting}", synchronous_commit=setting)
            results.append(await measure(f"PostgreSQL (synchronous_commit={setting})", target, **sizes))
        return results
    finally:
        if cluster is not None:
            cluster.stop()


def report(results: Sequence[Result], *, tables: int, clicks: int, seconds: float, local: bool) -> str:
    """Return the comparison as Markdown."""
    where = "a throwaway local cluster over loopback TCP" if local else "the server given by --url"
    lines = [
        "# Click → answer: PostgreSQL vs SQLite",
        "",
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs; {tables} live tables, {clicks} timed clicks "
        f"per backend, PostgreSQL on {where}; total {seconds:.0f} s.",
        "",
        "| Backend | act + commit + panel (p50 · p99) | + board message (p50 · p99) | throughput, 8 players |",
        "|---|---|---|---|",
    ]
    lines.extend(
        f"| {r.backend} | {ms(r.answer[0])} · {ms(r.answer[1])} | {ms(r.board[0])} · {ms(r.board[1])} "
        f"| {r.per_second:,.0f} clicks/s |"
        for r in results
    )
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the comparison from the command line."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.postgres", description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="live tables (default 200)")
    parser.add_argument("--clicks", type=int, default=2_000, help="timed clicks per backend (default 2000)")
    parser.add_argument("--url", default=None, help="a PostgreSQL database to use instead of a throwaway cluster")
    parser.add_argument("--out", type=Path, default=None, help="also write OUT/postgres.md")
    parser.add_argument("--quick", action="store_true", help="20 tables, 200 clicks: checks it runs")
    args = parser.parse_args(argv)
    tables, clicks = (20, 200) if args.quick else (args.tables, args.clicks)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-pg-") as tmp:
        results = asyncio.run(
            run(tables=tables, clicks=clicks, warmup=min(300, clicks), url=args.url, workdir=Path(tmp))
        )
    text = report(results, tables=tables, clicks=clicks, seconds=time.perf_counter() - start, local=args.url is None)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "postgres.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
