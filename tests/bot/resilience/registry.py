"""Which games the resilience suite covers, and how big its runs are.

A game is *playable* once it has an engine, an AI and a presenter (everything the table service,
the payload builders and the crash driver need); it is *on Discord* once its cog (``/<game> new``)
is loaded by the bot as well. Half-finished games (an engine without a presenter, say) are left
out rather than failing every test; :func:`incomplete_games` names them for the report.

Sizes: the normal ``pytest`` run uses :data:`FAST`; ``RESILIENCE_SCALE=soak`` (set by
``scripts/soak.py``) selects :data:`SOAK`, and ``RESILIENCE_SCALE=ci`` (``scripts/soak.py --scale ci``)
the shorter :data:`CI`. Each test that measures something calls :func:`record`,
which appends a JSON line to the file named by ``RESILIENCE_REPORT`` when it is set.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from typing import Any

from bot.app import COGS
from bot.presenters.registry import PRESENTERS
from games.registry import AGENTS, ENGINES


def playable_games() -> list[str]:
    """Return the games with an engine, an AI and a presenter, in name order."""
    return sorted(name for name in ENGINES if name in AGENTS and name in PRESENTERS)


def discord_games() -> list[str]:
    """Return the playable games whose cog (``/<game> new``) the bot loads."""
    return [name for name in playable_games() if f"bot.cogs.{name}" in COGS]


def incomplete_games() -> dict[str, list[str]]:
    """Return each registered game the suite skips, with what it lacks."""
    out: dict[str, list[str]] = {}
    for name in sorted(set(ENGINES) | set(AGENTS) | set(PRESENTERS)):
        missing = [
            part
            for part, present in (
                ("engine", name in ENGINES),
                ("agent", name in AGENTS),
                ("presenter", name in PRESENTERS),
                ("cog", f"bot.cogs.{name}" in COGS),
            )
            if not present
        ]
        if missing:
            out[name] = missing
    return out


def seat_counts(game: str) -> list[int]:
    """Return every seat count ``game`` allows with its default options."""
    engine = ENGINES[game]
    narrow = getattr(engine, "seat_range", None)  # a game whose options narrow the seat range
    low, high = narrow(engine.options_type()) if narrow is not None else (engine.min_seats, engine.max_seats)
    return list(range(int(low), int(high) + 1))


@dataclass(frozen=True)
class Scale:
    """How much work each resilience check does."""

    name: str
    #: Crash cycles (each ends in a SIGKILL) of the crash driver, for all games at once.
    kill_cycles: int
    #: Live tables per game the crash driver keeps in play.
    crash_tables: int
    #: Live tables restored at once in the restart-time check.
    restore_tables: int
    #: Seeded games per game in the payload-level hidden-information sweep ...
    leak_games: int
    #: ... and how many states of each are checked (all of a shorter game).
    leak_states: int
    #: Seeded games per game whose public transcripts are compared with their twins' ...
    transcript_games: int
    #: ... from how many of their states (each replays the rest of the game twice).
    transcript_starts: int
    #: Games per game played through the bot on SimCord with the leak spies on.
    leak_discord_games: int
    #: Random interactions per game in the abuse run.
    abuse_interactions: int
    #: Games per game played through the bot on SimCord with Discord faults injected.
    fault_games: int
    #: Whether SimCord games draw real board PNGs (otherwise the image's source view stands in).
    draw_boards: bool
    #: Worker processes for the payload sweep and the transcript check: one when pytest-xdist already
    #: runs a test on every core (``make soak`` does), so the machine is not asked for twice its cores.
    workers: int


FAST = Scale(
    name="fast",
    kill_cycles=4,
    crash_tables=1,
    restore_tables=150,
    leak_games=20,
    leak_states=12,
    transcript_games=2,
    transcript_starts=2,
    leak_discord_games=1,
    abuse_interactions=1_000,
    fault_games=1,
    draw_boards=False,
    workers=1,
)
SOAK = Scale(
    name="soak",
    kill_cycles=105,
    crash_tables=2,
    restore_tables=1_000,
    leak_games=1_000,
    leak_states=12,
    transcript_games=200,
    transcript_starts=3,
    leak_discord_games=6,
    abuse_interactions=10_000,
    fault_games=6,
    draw_boards=True,
    workers=1 if os.environ.get("PYTEST_XDIST_WORKER") else max(1, min(2, os.cpu_count() or 1)),
)


#: The long run CI can afford after ``make test`` (``scripts.soak --scale ci``): every kill point of
#: every game once (24 targeted kills) and a third of the random ones, a third of the seeded games,
#: two fifths of the bad clicks; the Discord games, boards drawn, as in the long run. About a third of
#: :data:`SOAK`'s work: the long run (an hour on 2 cores) no longer fits CI's 90 minutes beside the tests.
CI = Scale(
    name="ci",
    kill_cycles=36,
    crash_tables=2,
    restore_tables=1_000,
    leak_games=300,
    leak_states=12,
    transcript_games=60,
    transcript_starts=3,
    leak_discord_games=4,
    abuse_interactions=4_000,
    fault_games=6,
    draw_boards=True,
    workers=SOAK.workers,
)
SCALES = {s.name: s for s in (FAST, CI, SOAK)}


def scale() -> Scale:
    """Return the sizes ``RESILIENCE_SCALE`` names (``fast``, ``ci`` or ``soak``; ``fast`` unless set)."""
    return SCALES.get(os.environ.get("RESILIENCE_SCALE", "fast"), FAST)


def record(check: str, game: str | None, **values: Any) -> None:
    """Append one measurement to the report file named by ``RESILIENCE_REPORT``, if any."""
    path = os.environ.get("RESILIENCE_REPORT")
    if not path:
        return
    line = {"check": check, "game": game, "scale": scale().name, "at": time.time(), **values}
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
