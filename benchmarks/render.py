"""Board render time and PNG size per seat count, over public views from real AI games.

Views are drawn from seeded all-AI games spread from the deal to the end, so every phase (response
windows, blocks, challenges, exchanges, eliminations, the winner) shows up. Each render goes through
the presenter exactly as the publisher calls it, Cyrillic names and the decision clock included.
Every board is rendered ``repeats`` times and its median counts, so a render that another process
preempted on a busy machine does not pass for the cost of that board.

:func:`bench_render_cadwallon` does the same for «Гильдии Кадвалона» on 3×3, 4×4 and 5×5 grids
(target: p50 ≤ 60 ms and at most 300 KB per board on the 5×5 grid with eight players), and
:func:`bench_render_intrigue` for «Интриги» at seven and nine lands (p50 ≤ 80 ms, ≤ 350 KB); both
draw their views from seeded random games (:func:`random_game_views`) and time them alike
(:func:`time_renders`).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from pydantic import BaseModel

from benchmarks.common import GAME, LONG_NAMES, NAMES, Line, ms, p50_p99, spread, states_of
from bot.presenters import Presenter
from bot.presenters.registry import PRESENTERS
from games.cadwallon.models import CadwallonOptions
from games.core import Agent, Engine, GameRng
from games.registry import AGENTS, ENGINES

SECTION = "2. Board render"
TARGET_SECONDS = 0.030
TARGET_BYTES = 250 * 1024


def random_game_views(engine: Engine[Any], seats: int, options: BaseModel, seed: str, count: int) -> list[BaseModel]:
    """Play one seeded game of random legal moves; return ``count`` public views spread over it."""
    state = engine.setup(seats, options, seed).state
    chooser = GameRng(f"bench:{seed}")
    states = [state]
    while engine.active_seats(state):
        seat = min(engine.active_seats(state))
        state = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat))).state
        states.append(state)
    return [engine.view(s, None) for s in spread(states, count)]


def time_renders(
    presenter: Presenter, views: list[BaseModel], names: list[str], *, warmup: int, repeats: int
) -> tuple[float, float, list[int]]:
    """Render every view ``repeats`` times as the publisher does; return p50, p99 (of medians) and PNG sizes."""
    for view in views[:warmup]:
        presenter.render_board(view, names, "ru")
    timings: list[float] = []
    sizes: list[int] = []
    for view in views:
        runs: list[float] = []
        for _ in range(repeats):
            start = time.perf_counter()
            png = presenter.render_board(view, names, "ru")
            runs.append(time.perf_counter() - start)
        timings.append(statistics.median(runs))
        sizes.append(len(png))
    p50, p99 = p50_p99(timings)
    return p50, p99, sizes


def render_value(p50: float, p99: float, sizes: list[int]) -> str:
    """Format a render measurement: p50, p99, the largest and the mean PNG."""
    return (
        f"p50 {ms(p50)} · p99 {ms(p99)} · PNG max {max(sizes) / 1024:.1f} KB "
        f"(mean {sum(sizes) / len(sizes) / 1024:.1f} KB)"
    )


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
        p50, p99, sizes = time_renders(presenter, views, list(NAMES[:seats]), warmup=warmup, repeats=repeats)
        lines.append(
            Line(
                SECTION,
                f"{seats} seats ({len(views)} boards, median of {repeats} renders each)",
                render_value(p50, p99, sizes),
                f"p99 ≤ {ms(TARGET_SECONDS)}, ≤ {TARGET_BYTES // 1024} KB",
                p99 <= TARGET_SECONDS and max(sizes) <= TARGET_BYTES,
            )
        )
    return lines


# ----------------------------------------------------------------------------- «Гильдии Кадвалона»
CADWALLON_SECTION = "2b. Гильдии Кадвалона: board render"
CADWALLON_TARGET_P50 = 0.060
CADWALLON_TARGET_BYTES = 300 * 1024
#: (grid, seats) of the measured tables: the smallest and the largest board, and one between.
CADWALLON_TABLES = ((3, 2), (4, 5), (5, 8))


def bench_render_cadwallon(
    *,
    samples: int = 60,
    games: int = 3,
    warmup: int = 5,
    repeats: int = 3,
    tables: tuple[tuple[int, int], ...] = CADWALLON_TABLES,
) -> list[Line]:
    """Render ``samples`` public Cadwallon boards per grid and table size and report time and size.

    Views come from seeded games of random legal moves with every optional rule on, spread from the
    deal to the final scores; each render goes through the presenter as the publisher calls it.
    """
    engine = ENGINES["cadwallon"]
    lines: list[Line] = []
    for grid, seats in tables:
        options = CadwallonOptions(grid=grid, conditions=True, starting_action=True)
        views = [
            view
            for g in range(games)
            for view in random_game_views(
                engine, seats, options, f"bench-render-cadwallon-{grid}-{seats}-{g}", max(1, samples // games)
            )
        ]
        p50, p99, sizes = time_renders(
            PRESENTERS["cadwallon"], views, list(LONG_NAMES[:seats]), warmup=warmup, repeats=repeats
        )
        lines.append(
            Line(
                CADWALLON_SECTION,
                f"{grid}×{grid}, {seats} seats ({len(views)} boards, median of {repeats} renders each)",
                render_value(p50, p99, sizes),
                f"p50 ≤ {ms(CADWALLON_TARGET_P50)}, ≤ {CADWALLON_TARGET_BYTES // 1024} KB",
                p50 <= CADWALLON_TARGET_P50 and max(sizes) <= CADWALLON_TARGET_BYTES,
            )
        )
    return lines


# ----------------------------------------------------------------------------- «Интриги»
INTRIGUE_SECTION = "2c. Интриги: board render"
INTRIGUE_TARGET_P50 = 0.080
INTRIGUE_TARGET_BYTES = 350 * 1024
#: Seat counts of the measured tables: seven lands (3 seats) and nine lands (6 and 8 seats).
INTRIGUE_TABLES = (3, 6, 8)


def bench_render_intrigue(
    *, samples: int = 60, games: int = 3, warmup: int = 5, repeats: int = 3, tables: tuple[int, ...] = INTRIGUE_TABLES
) -> list[Line]:
    """Render ``samples`` public «Интриги» boards per table size and report time and size.

    Views come from seeded games of random legal moves, spread from the placement to the result;
    each render goes through the presenter as the publisher calls it (target at 9 lands and 8
    players: p50 ≤ 80 ms, at most 350 KB).
    """
    engine = ENGINES["intrigue"]
    lines: list[Line] = []
    for seats in tables:
        views = [
            view
            for g in range(games)
            for view in random_game_views(
                engine, seats, engine.options_type(), f"bench-render-intrigue-{seats}-{g}", max(1, samples // games)
            )
        ]
        p50, p99, sizes = time_renders(
            PRESENTERS["intrigue"], views, list(LONG_NAMES[:seats]), warmup=warmup, repeats=repeats
        )
        lands = 9 if seats > 5 else 7
        lines.append(
            Line(
                INTRIGUE_SECTION,
                f"{lands} lands, {seats} seats ({len(views)} boards, median of {repeats} renders each)",
                render_value(p50, p99, sizes),
                f"p50 ≤ {ms(INTRIGUE_TARGET_P50)}, ≤ {INTRIGUE_TARGET_BYTES // 1024} KB",
                p50 <= INTRIGUE_TARGET_P50 and max(sizes) <= INTRIGUE_TARGET_BYTES,
            )
        )
    return lines
