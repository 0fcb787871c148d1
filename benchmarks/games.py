"""Every registered game: board render against a bare PNG encode, engine playouts and AI decisions.

Each game in ``games.registry`` with a presenter gets the same measures, so a game added later
shows up in the report with no change here:

- **Render**: public views spread over seeded games of random legal moves (every seat count the
  game allows with its default options), each drawn through the presenter as the publisher calls
  it (Cyrillic names), the median of ``repeats`` renders per board. Reported:
  p50/p99, PNG mean and largest, and the ratio of the render to a *bare PNG encode of the same
  canvas*: the board decoded to RGB and saved again with Pillow's defaults (``Image.save(…, "PNG")``),
  i.e. what encoding that picture would cost without any drawing. Target: ≤ 1.5×.
- **Engine**: random playouts over every seat count; actions per second (``active_seats``,
  ``legal_actions``, ``apply`` and one draw per action).
- **AI**: decisions of seeded all-AI games timed as the bot takes them
  (:func:`bot.tables.choose_ai_action`), and whether those games end.

Engine and AI lines are skipped for games that have a dedicated, more detailed section
(:data:`DEDICATED`), so nothing is measured twice.
"""

from __future__ import annotations

import io
import statistics
import time
from collections.abc import Sequence
from typing import Any

from PIL import Image
from pydantic import BaseModel

from benchmarks.common import LONG_NAMES, Line, ms, p50_p99, random_playout_rate, registered_games, seat_counts, spread
from bot.presenters.registry import PRESENTERS
from bot.render.common import encode_png
from bot.tables import choose_ai_action
from games.core import GameRng, RandomAgent
from games.registry import AGENTS, ENGINES

SECTION_RENDER = "10. Every game: board render"
SECTION_ENGINE = "11. Every game: engine"
SECTION_AI = "12. Every game: AI decision"
TARGET_RATIO = 1.5
TARGET_BYTES = 300 * 1024
TARGET_ACTIONS_PER_SECOND = 10_000
TARGET_DECISION = 0.200
#: Games whose engine and AI have their own sections of the report (sections 3–4 and 7–8).
DEDICATED = frozenset({"coup", "masti"})
MAX_ACTIONS = 5_000


def random_states(game: str, seats: int, seed: str) -> list[Any]:
    """Return every state of one seeded game of random legal moves."""
    engine = ENGINES[game]
    state = engine.setup(seats, engine.options_type(), seed).state
    draw = GameRng(f"bench:{seed}")
    states = [state]
    for _ in range(MAX_ACTIONS):
        active = engine.active_seats(state)
        if not active:
            break
        seat = min(active)
        state = engine.apply(state, seat, draw.choice(engine.legal_actions(state, seat))).state
        states.append(state)
    return states


def bare_encode_seconds(png: bytes, repeats: int) -> tuple[float, float]:
    """Return the median times of encoding the same picture, decoded to RGB, as a PNG.

    First Pillow's plain encode with its defaults (the bare encode), then the renderers' own
    paletted encoder (:func:`bot.render.common.encode_png`), for scale.
    """
    canvas = Image.open(io.BytesIO(png)).convert("RGB")
    plain: list[float] = []
    tuned: list[float] = []
    for _ in range(repeats):
        buffer = io.BytesIO()
        start = time.perf_counter()
        canvas.save(buffer, format="PNG")
        plain.append(time.perf_counter() - start)
        start = time.perf_counter()
        encode_png(canvas)
        tuned.append(time.perf_counter() - start)
    return statistics.median(plain), statistics.median(tuned)


def bench_render(game: str, *, samples: int = 60, games_per_count: int = 1, repeats: int = 3, warmup: int = 3) -> Line:
    """Render ``samples`` public boards of ``game`` and compare with a bare encode of each."""
    engine = ENGINES[game]
    presenter = PRESENTERS[game]
    boards: list[tuple[BaseModel, list[str]]] = []
    counts = seat_counts(game)
    per_count = max(1, samples // len(counts))
    for seats in counts:
        seeds = [f"bench-games-render-{game}-{seats}-{g}" for g in range(games_per_count)]
        states = [state for seed in seeds for state in random_states(game, seats, seed)]
        names = list(LONG_NAMES[:seats])
        boards.extend((engine.view(state, None), names) for state in spread(states, per_count))
    for view, names in boards[:warmup]:
        presenter.render_board(view, names, "ru")
    renders: list[float] = []
    encodes: list[float] = []
    tuned: list[float] = []
    sizes: list[int] = []
    for view, names in boards:
        runs: list[float] = []
        png = b""
        for _ in range(repeats):
            start = time.perf_counter()
            png = presenter.render_board(view, names, "ru")
            runs.append(time.perf_counter() - start)
        renders.append(statistics.median(runs))
        plain, own = bare_encode_seconds(png, repeats)
        encodes.append(plain)
        tuned.append(own)
        sizes.append(len(png))
    p50, p99 = p50_p99(renders)
    bare = statistics.median(encodes)
    ratio = p50 / bare
    largest = max(sizes)
    return Line(
        SECTION_RENDER,
        f"{game}: {len(boards)} boards, {counts[0]}–{counts[-1]} seats (median of {repeats} renders each)",
        f"p50 {ms(p50)} · p99 {ms(p99)} · PNG mean {statistics.mean(sizes) / 1024:.1f} KB, max {largest / 1024:.1f} KB"
        f" · bare PNG encode of the same canvas p50 {ms(bare)} · ratio {ratio:.2f}×"
        f" (the renderers' own paletted encode of it: {ms(statistics.median(tuned))})",
        f"render p50 ≤ {TARGET_RATIO}× bare encode, ≤ {TARGET_BYTES // 1024} KB",
        ratio <= TARGET_RATIO and largest <= TARGET_BYTES,
    )


def bench_playouts(game: str, *, games: int = 200, warmup: int = 5) -> Line:
    """Play ``games`` random games of ``game`` over every seat count; report actions per second."""
    engine = ENGINES[game]
    counts = seat_counts(game)
    options = engine.options_type()
    actions, per_second = random_playout_rate(
        engine,
        lambda index: (
            counts[index % len(counts)],
            options,
            f"bench-games-playout-{game}-{index}",
            f"bench-games-playout-choices-{game}-{index}",
        ),
        games=games,
        warmup=warmup,
    )
    return Line(
        SECTION_ENGINE,
        f"{game}: random playouts, {counts[0]}–{counts[-1]} seats ({games:,} games, {actions:,} actions)",
        f"{per_second:,.0f} actions/s",
        f"≥ {TARGET_ACTIONS_PER_SECOND:,} actions/s",
        per_second >= TARGET_ACTIONS_PER_SECOND,
    )


def bench_ai(game: str, *, games: int = 20, max_decisions: int = 3_000) -> list[Line]:
    """Play ``games`` all-AI games of ``game``, timing each decision; count the games that never end."""
    engine = ENGINES[game]
    agent = AGENTS.get(game)
    name = type(agent).__name__ if agent is not None else "RandomAgent (no AI registered)"
    chooser: Any = agent if agent is not None else RandomAgent()
    counts = seat_counts(game)
    timings: list[float] = []
    endless: list[str] = []
    for index in range(games):
        seed = f"bench-games-ai-{game}-{index}"
        state = engine.setup(counts[index % len(counts)], engine.options_type(), seed).state
        for _ in range(MAX_ACTIONS):
            active = engine.active_seats(state)
            if not active:
                break
            seat = min(active)
            start = time.perf_counter()
            action = choose_ai_action(engine, chooser, state, seat)
            if len(timings) < max_decisions:
                timings.append(time.perf_counter() - start)
            state = engine.apply(state, seat, action).state
        if engine.outcome(state) is None:
            endless.append(seed)
    p50, p99 = p50_p99(timings)
    return [
        Line(
            SECTION_AI,
            f"{game}: {name}, view + legal actions + choice "
            f"({len(timings):,} decisions, {counts[0]}–{counts[-1]} seats)",
            f"p50 {ms(p50)} · p99 {ms(p99)} · max {ms(max(timings))}",
            f"p99 ≤ {ms(TARGET_DECISION)}",
            p99 <= TARGET_DECISION,
        ),
        Line(
            SECTION_AI,
            f"{game}: all-AI games of {name} that end within {MAX_ACTIONS:,} actions ({games} games)",
            f"{games - len(endless)} of {games}" + (f"; never ending: e.g. {endless[0]!r}" if endless else ""),
            "all",
            not endless,
        ),
    ]


def bench_games(
    *,
    render_samples: int = 60,
    playout_games: int = 200,
    ai_games: int = 20,
    games: Sequence[str] | None = None,
    repeats: int = 3,
) -> list[Line]:
    """Run every per-game measure over ``games`` (default: every registered game)."""
    chosen = list(games) if games is not None else registered_games()
    renders = [bench_render(game, samples=render_samples, repeats=repeats) for game in chosen]
    engines = [bench_playouts(game, games=playout_games) for game in chosen if game not in DEDICATED]
    decisions = [line for game in chosen if game not in DEDICATED for line in bench_ai(game, games=ai_games)]
    return [*renders, *engines, *decisions]
