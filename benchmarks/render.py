"""Board render time and PNG size per seat count, over public views from real AI games.

Views are drawn from seeded all-AI games spread from the deal to the end, so every phase (response
windows, blocks, challenges, exchanges, eliminations, the winner) shows up. Each render goes through
the presenter exactly as the publisher calls it, Cyrillic names and the decision clock included.
Every board is rendered ``repeats`` times and its median counts, so a render that another process
preempted on a busy machine does not pass for the cost of that board.
"""

from __future__ import annotations

import statistics
import time

from benchmarks.common import GAME, NAMES, Line, ms, p50_p99, spread, states_of
from bot.presenters.registry import PRESENTERS
from games.core import Agent
from games.registry import AGENTS, ENGINES

SECTION = "2. Board render"
TARGET_SECONDS = 0.030
TARGET_BYTES = 250 * 1024
NOW = 1_000_000.0
DEADLINE = NOW + 42


def bench_render(
    *, samples: int = 120, games: int = 6, warmup: int = 10, repeats: int = 3, seat_counts: range = range(2, 7)
) -> list[Line]:
    """Render ``samples`` public boards per seat count and report time and size."""
    engine = ENGINES[GAME]
    presenter = PRESENTERS[GAME]
    agent: Agent = AGENTS[GAME]
    lines: list[Line] = []
    for seats in seat_counts:
        states = [s for g in range(games) for s in states_of(seats, f"bench-render-{seats}-{g}", lambda _s: agent)]
        views = [engine.view(state, None) for state in spread(states, samples)]
        names = list(NAMES[:seats])
        for view in views[:warmup]:
            presenter.render_board(view, names, "ru", DEADLINE, NOW)
        timings: list[float] = []
        sizes: list[int] = []
        for view in views:
            runs: list[float] = []
            for _ in range(repeats):
                start = time.perf_counter()
                png = presenter.render_board(view, names, "ru", DEADLINE, NOW)
                runs.append(time.perf_counter() - start)
            timings.append(statistics.median(runs))
            sizes.append(len(png))
        p50, p99 = p50_p99(timings)
        largest = max(sizes)
        lines.append(
            Line(
                SECTION,
                f"{seats} seats ({len(views)} boards, median of {repeats} renders each)",
                f"p50 {ms(p50)} · p99 {ms(p99)} · PNG max {largest / 1024:.1f} KB "
                f"(mean {sum(sizes) / len(sizes) / 1024:.1f} KB)",
                f"p99 ≤ {ms(TARGET_SECONDS)}, ≤ {TARGET_BYTES // 1024} KB",
                p99 <= TARGET_SECONDS and largest <= TARGET_BYTES,
            )
        )
    return lines
