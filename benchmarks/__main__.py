"""Run the performance suite and write ``<out>/report.md``: ``python -m benchmarks --out bench-output``.

``--game coup|masti|all`` runs one game's benchmarks (default: all, which adds the clicks on a
fleet of every registered game at 200 and 1,000 tables, the per-game sections over the registry,
memory and restart, the event loop's lag under click spam through the real bot on SimCord,
drawing one replay step of the largest board, and a small balance run: all-AI games of every
setting of every game, see :mod:`benchmarks.balance` and ``make balance`` for a measurement).
``--quick`` runs every benchmark at small sizes (a minute's sanity check, not a measurement).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks import masti
from benchmarks.balance import bench_balance
from benchmarks.bookkeeping import bench_bookkeeping
from benchmarks.clicks import bench_clicks
from benchmarks.common import Line, registered_games
from benchmarks.engine import bench_ai, bench_playouts
from benchmarks.games import bench_games
from benchmarks.memory import bench_memory
from benchmarks.render import bench_render
from benchmarks.replay import bench_replay
from benchmarks.spam import bench_spam
from benchmarks.winrate import bench_winrate


@dataclass(frozen=True)
class Sizes:
    """How much work each benchmark does."""

    tables: int
    clicks: int
    render_samples: int
    playout_games: int
    ai_games: int
    winrate_4p: int
    winrate_other: int
    masti_render_samples: int
    masti_playout_games: int
    masti_ai_games: int
    masti_winrate: int
    tables_large: int = 1_000
    games_render_samples: int = 60
    games_playout_games: int = 200
    games_ai_games: int = 20
    memory_tables: int = 1_000
    spam_clicks: int = 1_000
    bookkeeping_tables: int = 10_000
    replay_samples: int = 20
    #: All-AI games per setting of every game in the balance section (0 leaves the section out).
    balance_games: int = 10


FULL = Sizes(
    tables=200,
    clicks=3_000,
    render_samples=120,
    playout_games=1_500,
    ai_games=500,
    winrate_4p=1_000,
    winrate_other=1_000,
    masti_render_samples=120,
    masti_playout_games=1_000,
    masti_ai_games=15,
    masti_winrate=500,
)
QUICK = Sizes(
    tables=20,
    clicks=200,
    render_samples=15,
    playout_games=100,
    ai_games=10,
    winrate_4p=100,
    winrate_other=50,
    masti_render_samples=15,
    masti_playout_games=100,
    masti_ai_games=5,
    masti_winrate=20,
    tables_large=100,
    games_render_samples=8,
    games_playout_games=10,
    games_ai_games=3,
    memory_tables=100,
    spam_clicks=200,
    bookkeeping_tables=1_500,
    replay_samples=4,
    balance_games=1,
)
GAMES = ("coup", "masti")


def run_all(
    sizes: Sizes, workdir: Path, progress: Callable[[str], None] = lambda _text: None, game: str = "all"
) -> list[Line]:
    """Run every benchmark of ``game`` (``all``: both games) at ``sizes``.

    The click benchmark's database goes in ``workdir``.
    """
    lines: list[Line] = []
    # With every game, the click fleet holds tables of every registered game; with Coup alone, Coup's.
    fleet = None if game == "all" else ("coup",)
    coup: list[tuple[str, Callable[[], list[Line]]]] = [
        (
            "clicks",
            lambda: asyncio.run(
                bench_clicks(workdir / "bench.sqlite3", tables=sizes.tables, clicks=sizes.clicks, games=fleet)
            ),
        ),
        ("render", lambda: bench_render(samples=sizes.render_samples)),
        ("playouts", lambda: bench_playouts(games=sizes.playout_games)),
        ("ai", lambda: bench_ai(games=sizes.ai_games)),
        ("winrate", lambda: bench_winrate(games_4p=sizes.winrate_4p, games_other=sizes.winrate_other)),
    ]
    masti_steps: list[tuple[str, Callable[[], list[Line]]]] = [
        ("masti render", lambda: masti.bench_render(samples=sizes.masti_render_samples)),
        ("masti playouts", lambda: masti.bench_playouts(games=sizes.masti_playout_games)),
        ("masti ai", lambda: masti.bench_ai(games=sizes.masti_ai_games)),
        ("masti winrate", lambda: masti.bench_winrate(games=sizes.masti_winrate)),
    ]
    if game == "all":
        large = (
            "clicks at more tables",
            lambda: asyncio.run(
                bench_clicks(workdir / "bench-large.sqlite3", tables=sizes.tables_large, clicks=sizes.clicks)
            ),
        )
        coup.insert(1, large)
    every_game: list[tuple[str, Callable[[], list[Line]]]] = [
        (
            "every game",
            lambda: bench_games(
                render_samples=sizes.games_render_samples,
                playout_games=sizes.games_playout_games,
                ai_games=sizes.games_ai_games,
            ),
        ),
        ("memory and restart", lambda: bench_memory(workdir, tables=sizes.memory_tables)),
        ("click spam", lambda: bench_spam(workdir, clicks=sizes.spam_clicks)),
        ("memory over finished tables", lambda: bench_bookkeeping(workdir, tables=sizes.bookkeeping_tables)),
        ("replay", lambda: bench_replay(samples=sizes.replay_samples)),
    ]
    if sizes.balance_games:
        every_game.append(("balance", lambda: bench_balance(games=sizes.balance_games)))
    steps = (
        (coup if game in {"all", "coup"} else [])
        + (masti_steps if game in {"all", "masti"} else [])
        + (every_game if game == "all" else [])
    )
    for name, step in steps:
        start = time.perf_counter()
        lines.extend(step())
        progress(f"{name}: {time.perf_counter() - start:.1f} s")
    return lines


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "?"


def report(
    lines: Sequence[Line], seconds: float, sizes: Sizes, load: tuple[str, str] = ("?", "?"), game: str = "all"
) -> str:
    """Return the Markdown report of ``lines`` (``load``: the 1-minute load average before and after)."""
    misses = sum(not line.passed for line in lines)
    out = [
        "# Performance report",
        "",
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
        f"total {seconds:.0f} s; {'all targets met' if not misses else f'{misses} target(s) missed'}.",
        f"Load average {load[0]} before, {load[1]} after: other processes on the machine lengthen the "
        "tails (p99) of every timing.",
        f"Games: {', '.join(registered_games()) if game == 'all' else game}. Sizes: {sizes}.",
        "",
        "| Section | Measure | Value | Target | Result |",
        "|---|---|---|---|---|",
    ]
    out.extend(f"| {x.section} | {x.name} | {x.value} | {x.target} | {x.verdict} |" for x in lines)
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the suite from the command line; exit 0 even when a target is missed (it is a report)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("bench-output"), help="output directory")
    parser.add_argument("--game", choices=(*GAMES, "all"), default="all", help="benchmark one game (default: all)")
    parser.add_argument("--quick", action="store_true", help="small sizes: checks the suite runs, measures little")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    start = time.perf_counter()
    load_before = _load()
    with tempfile.TemporaryDirectory(prefix="coup-bench-") as tmp:
        lines = run_all(sizes, Path(tmp), progress=lambda text: print(text, file=sys.stderr), game=args.game)
    text = report(lines, time.perf_counter() - start, sizes, (load_before, _load()), args.game)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "report.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
