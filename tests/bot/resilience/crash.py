"""The parent side of the crash test: start the driver, SIGKILL it, check the database, repeat.

Each cycle starts :mod:`tests.bot.resilience.crash_driver` on the same database, reads what it
restored (it checks replays, clocks and re-clicks itself and says so), lets it play and kills it
with SIGKILL: at a pause point (inside a transaction, between commit and reply, during a clock
firing, while finishing or starting a game) or after a random time. After every kill the database
is checked from outside: each started table's log is gap-free and replays to its stored state,
each active table has exactly the clock its state calls for, finished ones none, and every write
the driver saw committed is in the log (nothing lost, nothing applied twice). A last run plays
every table to its end.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.storage import Storage
from bot.tables import replay
from games.core import GameRng
from games.registry import ENGINES

ROOT = Path(__file__).absolute().parents[3]
IN_TRANSACTION = ("move", "clock", "finish", "start")
AFTER_COMMIT = ("after_commit", "after_clock")
#: In the order a short run takes them: a move and a clock firing, each inside and after its commit.
POINTS = ("move", "after_commit", "clock", "after_clock", "finish", "start")


class DriverError(AssertionError):
    """The driver did something other than being killed where it was told."""


class Driver:
    """One run of the driver process, its output read line by line on a thread."""

    def __init__(self, db: Path, journal: Path, mode: str, seed: str, *, pause: str | None, tables: int) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "RESILIENCE_CRASH_TABLES": str(tables)}
        env.pop("RESILIENCE_PAUSE", None)
        if pause:
            env["RESILIENCE_PAUSE"] = pause
        self.stderr = journal.with_suffix(".stderr")
        with open(self.stderr, "ab") as err:
            self.proc = subprocess.Popen(  # noqa: S603 - our own interpreter and module
                [sys.executable, "-m", "tests.bot.resilience.crash_driver", str(db), str(journal), mode, seed],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=err,
            )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.put(raw.decode().rstrip("\n"))
        self.lines.put(None)

    def wait_for(self, keyword: str, timeout: float) -> dict[str, Any] | str | None:
        """Return the payload of the next line starting with ``keyword`` (None on timeout or exit)."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                return None
            self.seen.append(line)
            if line.startswith(keyword):
                rest = line[len(keyword) :].strip()
                return json.loads(rest) if rest.startswith("{") else rest
        return None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=60)
        if self.proc.returncode != -signal.SIGKILL:
            raise DriverError(f"the driver exited with {self.proc.returncode} before the kill:\n{self.tail()}")

    def tail(self) -> str:
        text = self.stderr.read_text(errors="replace") if self.stderr.exists() else ""
        return "\n".join(self.seen[-5:]) + "\n" + text[-4000:]


@dataclass
class CrashReport:
    """What a crash run did."""

    cycles: int = 0
    kills_by_game: Counter[str] = field(default_factory=Counter)
    targeted: Counter[str] = field(default_factory=Counter)
    targeted_pairs: Counter[str] = field(default_factory=Counter)
    missed_pauses: Counter[str] = field(default_factory=Counter)
    random_kills: int = 0
    reclicks: int = 0
    reclicks_refused: int = 0
    restored_tables: int = 0
    commits_checked: int = 0
    tables_checked: int = 0
    finished_tables: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0


def schedule(cycles: int, games: list[str], seed: str) -> list[str | None]:
    """Return each cycle's pause point (``point:game:skip``), or ``None`` for a kill at a random time.

    Every (point, game) pair comes first, as often as fits in two thirds of the cycles (each round
    of the points names the games in turn); the rest are random kills.
    """
    rng = GameRng(f"schedule:{seed}")
    pairs = [
        (point, games[(index + round_) % len(games)])
        for round_ in range(len(games))
        for index, point in enumerate(POINTS)
    ]
    targeted = max(min(len(pairs), cycles - 1), (2 * cycles) // 3)
    out: list[str | None] = []
    for index in range(cycles):
        if index < targeted and pairs:
            point, game = pairs[index % len(pairs)]
            out.append(f"{point}:{game}:{rng.below(3)}")
        else:
            out.append(None)
    return out


def journal_commits(journal: Path) -> dict[tuple[int, int], tuple[int, str]]:
    """Return every write the driver saw committed: (table, seq) → (seat, action)."""
    out: dict[tuple[int, int], tuple[int, str]] = {}
    if not journal.exists():
        return out
    for line in journal.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry["kind"] == "commit":
            key = (entry["table"], entry["seq"])
            if key in out and out[key] != (entry["seat"], entry["action"]):
                raise AssertionError(f"table {key[0]} committed seq {key[1]} twice with different actions")
            out[key] = (entry["seat"], entry["action"])
    return out


async def check_database(db: Path, journal: Path, report: CrashReport, checked: dict[int, float]) -> Counter[str]:
    """Check every table that changed since it was last checked; return the active tables per game."""
    commits = journal_commits(journal)
    storage = await Storage.open(db)
    try:
        clocks = {c.table_id: c for c in await storage.all_clocks()}
        active: Counter[str] = Counter()
        for row in await storage.tables_for_guild(1):
            if row.status == "active":
                active[row.game] += 1
            if row.state is None:
                assert row.id not in clocks, f"table {row.id} has a clock but no game"
                continue
            if checked.get(row.id) == row.updated_at and row.status != "active":
                continue
            checked[row.id] = row.updated_at
            report.tables_checked += 1
            log = await storage.action_log(row.id)
            assert [e.seq for e in log] == list(range(row.version)), f"table {row.id}: log has gaps or repeats"
            rebuilt = await replay(storage, row.id)
            assert rebuilt is not None and rebuilt.model_dump_json() == row.state, f"table {row.id} does not replay"
            for entry in log:
                seen = commits.get((row.id, entry.seq))
                if seen is not None:
                    assert seen == (entry.seat, entry.action), f"table {row.id} seq {entry.seq}: {seen} vs {entry}"
                    report.commits_checked += 1
            lost = [seq for (table, seq) in commits if table == row.id and seq >= row.version]
            assert not lost, f"table {row.id}: committed writes {lost} are missing (version {row.version})"
            clock = clocks.get(row.id)
            if row.status == "active":
                engine = ENGINES[row.game]
                awaited = sorted(engine.active_seats(engine.state_type.model_validate_json(row.state)))
                assert clock is not None, f"active table {row.id} has no clock"
                assert clock.version <= row.version and list(clock.seats) == awaited, f"table {row.id}: {clock}"
            else:
                assert clock is None, f"{row.status} table {row.id} still has a clock"
        return active
    finally:
        await storage.close()


async def crash_run(workdir: Path, *, cycles: int, games: list[str], tables: int, seed: str) -> CrashReport:
    """Kill the driver ``cycles`` times, checking the database after each kill, then finish every table."""
    db, journal = workdir / "crash.sqlite3", workdir / "journal.jsonl"
    report = CrashReport()
    checked: dict[int, float] = {}
    rng = GameRng(f"kills:{seed}")
    start = time.monotonic()
    for index, pause in enumerate(schedule(cycles, games, seed)):
        driver = Driver(db, journal, "refill", f"{seed}-{index}", pause=pause, tables=tables)
        try:
            restored = driver.wait_for("RESTORED", 120)
            if not isinstance(restored, dict):
                raise DriverError(f"cycle {index}: no RESTORED line\n{driver.tail()}")
            assert not restored["problems"] and not restored["double"], restored
            report.reclicks += restored["reclicks"]
            report.reclicks_refused += restored["refused"]
            report.restored_tables += restored["active"]
            if driver.wait_for("READY", 120) is None:
                raise DriverError(f"cycle {index}: no READY line\n{driver.tail()}")
            if pause is not None:
                point, game, _skip = pause.split(":")
                if driver.wait_for("PAUSED", 30) is not None:
                    report.targeted[point] += 1
                    report.targeted_pairs[f"{point}:{game}"] += 1
                else:
                    report.missed_pauses[f"{point}:{game}"] += 1
            else:
                time.sleep(0.2 + 1.3 * rng.random())
                report.random_kills += 1
        finally:
            driver.kill()
        report.cycles += 1
        active = await check_database(db, journal, report, checked)
        for game in games:
            if active[game]:
                report.kills_by_game[game] += 1
    final = Driver(db, journal, "finish", f"{seed}-final", pause=None, tables=tables)
    restored = final.wait_for("RESTORED", 120)
    assert isinstance(restored, dict) and not restored["problems"] and not restored["double"], final.tail()
    done = final.wait_for("ALL FINISHED", 900)
    final.proc.wait(timeout=60)
    assert done is not None and final.proc.returncode == 0, final.tail()
    await check_database(db, journal, report, checked)
    storage = await Storage.open(db)
    try:
        for row in await storage.tables_for_guild(1):
            assert row.status in {"finished", "cancelled"}, f"table {row.id} is still {row.status}"
            if row.status == "finished":
                report.finished_tables[row.game] += 1
                from_snapshot = await replay(storage, row.id, from_snapshot=True)
                assert from_snapshot is not None and from_snapshot.model_dump_json() == row.state
        assert await storage.all_clocks() == []
    finally:
        await storage.close()
    report.seconds = time.monotonic() - start
    return report
