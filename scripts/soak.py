"""The long resilience runs, for every registered game: ``python -m scripts.soak`` (``make soak``).

Runs the suite in ``tests/bot/resilience`` at its long sizes (``RESILIENCE_SCALE=soak``): over a
hundred SIGKILLs of a process playing every game, a restart with 1,000 live tables, games played
through Discord faults, 1,000 seeded games per game searched for hidden-information leaks (and the
whole public transcripts of 200 per game compared with their twins'), 10,000 random bad
interactions per game, and a hostile member flooding lobbies, joining everything, spamming Rematch
and clicks against the limits as shipped. Then the load measures of the performance suite
(clicks at 200 and 1,000 live tables against a bare SQLite commit, memory and restart with 1,000
tables). Writes ``<out>/report.md`` (and the raw measurements, ``<out>/measurements.jsonl``);
exits non-zero when a check failed.

``--only crash|restore|faults|hidden|abuse`` runs one part (repeatable); ``--no-load`` skips the
load measures; ``--scale ci`` runs the third of the long run that CI runs after ``make test`` (see
``CI`` in ``tests/bot/resilience/registry.py``). The tests run on two cores (pytest-xdist), longest first.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PARTS = {
    "crash": ("test_crash_restart.py",),
    "restore": ("test_restore_many.py",),
    "faults": ("test_discord_faults.py",),
    "hidden": ("test_hidden_information.py",),
    "abuse": ("test_abuse.py", "test_hostile.py"),
}


def run_suite(parts: Sequence[str], measurements: Path, log: Path, *, size: str = "soak") -> int:
    """Run the resilience tests of ``parts`` at the long sizes ``size`` names; return pytest's exit code."""
    env = {**os.environ, "RESILIENCE_SCALE": size, "RESILIENCE_REPORT": str(measurements)}
    paths = [str(ROOT / "tests" / "bot" / "resilience" / name) for part in parts for name in PARTS[part]]
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run(  # noqa: S603 - our own interpreter running pytest
            [
                sys.executable,
                "-m",
                "pytest",
                *paths,
                *xdist_args(),
                "-p",
                "no:cacheprovider",
                "-q",
                "-rf",
                "--durations=0",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=False,
        )
    return done.returncode


def xdist_args() -> list[str]:
    """Return pytest-xdist's options: one test at a time per core (at most two), in collection order.

    Most long tests are one process playing games through SimCord, so a second core would idle
    beside them. ``load`` hands the tests out in the order the resilience conftest sorts them,
    longest first, so the two longest run side by side rather than one after the other at the end.
    """
    cores = max(1, min(2, os.cpu_count() or 1))
    return ["-n", str(cores), "--dist", "load"] if cores > 1 else []


def run_load(workdir: Path) -> list[Any]:
    """Run the load measures of the performance suite; return their report lines."""
    from benchmarks.clicks import bench_clicks
    from benchmarks.memory import bench_memory

    lines: list[Any] = []
    for tables in (200, 1_000):
        lines.extend(
            asyncio.run(
                bench_clicks(
                    workdir / f"clicks-{tables}.sqlite3",
                    tables=tables,
                    clicks=3_000,
                    # The click with its board PNG is measured at 200 tables, as its target says.
                    png_clicks=None if tables == 200 else 0,
                )
            )
        )
    lines.extend(bench_memory(workdir, tables=1_000))
    return lines


def summary(measurements: Path) -> list[str]:
    """Return the Markdown lines describing every measurement the tests recorded."""
    out: list[str] = []
    if not measurements.exists():
        return ["(no measurements recorded)"]
    for raw in measurements.read_text(encoding="utf-8").splitlines():
        entry = json.loads(raw)
        check, game = entry.pop("check"), entry.pop("game")
        for key in ("at", "scale"):
            entry.pop(key, None)
        values = "; ".join(f"{key} {json.dumps(value, ensure_ascii=False)}" for key, value in sorted(entry.items()))
        out.append(f"- **{check}**{f' · {game}' if game else ''}: {values}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the long suite and write the report."""
    parser = argparse.ArgumentParser(prog="python -m scripts.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("soak-output"), help="output directory")
    parser.add_argument("--only", action="append", choices=sorted(PARTS), help="run only this part (repeatable)")
    parser.add_argument("--no-load", action="store_true", help="skip the load measures")
    parser.add_argument(
        "--scale",
        choices=("soak", "ci"),
        default="soak",
        help="the sizes: the whole long run, or the third of it CI runs after the tests",
    )
    args = parser.parse_args(argv)
    parts = args.only or list(PARTS)
    args.out.mkdir(parents=True, exist_ok=True)
    measurements = args.out / "measurements.jsonl"
    measurements.unlink(missing_ok=True)
    began = time.perf_counter()
    code = run_suite(parts, measurements, args.out / "pytest.log", size=args.scale)
    suite_seconds = time.perf_counter() - began
    load: list[Any] = []
    if not args.no_load:
        with tempfile.TemporaryDirectory(prefix="soak-load-") as tmp:
            load = run_load(Path(tmp))
    seconds = time.perf_counter() - began
    from tests.bot.resilience.registry import incomplete_games, playable_games

    lines = [
        f"# Resilience report (long run{', CI size' if args.scale == 'ci' else ''})",
        "",
        f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; suite {suite_seconds / 60:.1f} min, "
        f"total {seconds / 60:.1f} min; tests {'passed' if code == 0 else f'FAILED (pytest exit {code})'}.",
        f"Games: {', '.join(playable_games())}"
        + (f"; left out (incomplete): {incomplete_games()}" if incomplete_games() else "")
        + f". Parts: {', '.join(parts)}. Details: `pytest.log`.",
        "",
        "## Measurements",
        "",
        *summary(measurements),
    ]
    if load:
        lines.extend(["", "## Load", "", "| Measure | Value | Target | Result |", "|---|---|---|---|"])
        lines.extend(f"| {x.name} | {x.value} | {x.target} | {x.verdict} |" for x in load)
    if code != 0:
        # CI shows only the end of what it printed: the failures go last, where they are seen.
        lines.extend(["", "## Failures", "", "```", *failures(args.out / "pytest.log"), "```"])
    report = "\n".join(lines) + "\n"
    (args.out / "report.md").write_text(report, encoding="utf-8")
    print(report)
    return code


def failures(log: Path, *, limit: int = 60) -> list[str]:
    """Return pytest's short summary of what failed (its last ``limit`` lines), from the suite's log."""
    if not log.exists():
        return ["(no pytest log)"]
    text = log.read_text(encoding="utf-8", errors="replace").splitlines()
    marker = next((i for i, line in enumerate(text) if "short test summary info" in line), None)
    return (text[marker:] if marker is not None else text)[-limit:]


if __name__ == "__main__":
    sys.exit(main())
