"""Shared pieces of the benchmarks: report lines, percentiles, seeded Coup playouts, random playouts of any game."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bot.presenters.registry import PRESENTERS
from bot.tables import choose_ai_action
from games.core import Agent, Engine, GameRng
from games.coup.state import CoupState
from games.registry import ENGINES

GAME = "coup"
#: Display names of realistic length (Cyrillic, as on a Russian server) for boards and panels.
NAMES = ("Александра", "Константин", "Наташа", "Ярослав", "Маргарита", "Святослав")
#: The same for tables of up to eight.
LONG_NAMES = (*NAMES, "Всеволод", "Елизавета")
#: Playouts stop here. The longest of 1,000 seeded all-AI games took about 750 actions; a game
#: still going at this cap is one in which the agents repeat themselves forever.
MAX_ACTIONS = 3_000


@dataclass(frozen=True)
class Line:
    """One line of the report: what was measured, its value, the target and whether it was met."""

    section: str
    name: str
    value: str
    target: str
    passed: bool

    @property
    def verdict(self) -> str:
        """Return ``PASS`` or ``MISS``."""
        return "PASS" if self.passed else "MISS"


def percentile(values: Sequence[float], q: float) -> float:
    """Return the nearest-rank ``q``-th percentile (0 < q ≤ 100) of ``values``.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50)
    3.0
    >>> percentile(list(range(1, 101)), 99)
    99
    """
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(len(ordered) * q / 100))
    return ordered[rank - 1]


def ms(seconds: float) -> str:
    """Format a duration in milliseconds with a precision that suits its size."""
    value = seconds * 1000
    return f"{value:.2f} ms" if value < 10 else f"{value:.1f} ms"


def p50_p99(seconds: Sequence[float]) -> tuple[float, float]:
    """Return the median and the 99th percentile of ``seconds``."""
    return statistics.median(seconds), percentile(seconds, 99)


def playout(
    seats: int,
    seed: str,
    agents: Callable[[int], Agent],
    *,
    on_decision: Callable[[CoupState, int], None] | None = None,
    max_actions: int = MAX_ACTIONS,
) -> CoupState:
    """Play one seeded Coup game, ``agents(seat)`` choosing for each seat; return the last state.

    Agents choose exactly as the bot's AI seats do (:func:`bot.tables.choose_ai_action`: the seat's
    own view, its legal actions and the per-step generator). ``on_decision(state, seat)`` is called
    before each decision. The game stops unfinished after ``max_actions`` actions.
    """
    engine = ENGINES[GAME]
    state: CoupState = engine.setup(seats, engine.options_type(), seed).state
    for _ in range(max_actions):
        active = engine.active_seats(state)
        if not active:
            break
        seat = min(active)
        if on_decision is not None:
            on_decision(state, seat)
        action = choose_ai_action(engine, agents(seat), state, seat)
        state = engine.apply(state, seat, action).state
    return state


def states_of(seats: int, seed: str, agents: Callable[[int], Agent]) -> Iterator[CoupState]:
    """Yield every state of one seeded game in order, the final one included."""
    seen: list[CoupState] = []
    final = playout(seats, seed, agents, on_decision=lambda state, _seat: seen.append(state))
    yield from seen
    yield final


def spread(items: Sequence[Any], count: int) -> list[Any]:
    """Return ``count`` items evenly spread over ``items`` (all of them if there are fewer)."""
    if count >= len(items):
        return list(items)
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def registered_games() -> list[str]:
    """Return every game with an engine and a presenter (the games a fleet mixes), in name order."""
    return sorted(name for name in ENGINES if name in PRESENTERS)


def seat_counts(game: str) -> list[int]:
    """Return every seat count ``game`` allows with its default options."""
    engine = ENGINES[game]
    narrow = getattr(engine, "seat_range", None)  # a game whose options narrow the seat range
    low, high = narrow(engine.options_type()) if narrow is not None else (engine.min_seats, engine.max_seats)
    return list(range(int(low), int(high) + 1))


def random_playout_rate(
    engine: Engine[Any], table: Callable[[int], tuple[int, Any, str, str]], *, games: int, warmup: int
) -> tuple[int, float]:
    """Play ``games`` games of random legal moves; return the actions taken and actions per second.

    ``table(index)`` gives game ``index``'s seats, options, setup seed and move-choice seed; the
    awaited seat with the lowest number moves. ``warmup`` games with negative indices run first,
    untimed. A game stops unfinished after :data:`MAX_ACTIONS` actions.
    """

    def play(index: int) -> int:
        seats, options, seed, choices = table(index)
        state = engine.setup(seats, options, seed).state
        draw = GameRng(choices)
        for actions in range(MAX_ACTIONS):
            active = engine.active_seats(state)
            if not active:
                return actions
            seat = min(active)
            state = engine.apply(state, seat, draw.choice(engine.legal_actions(state, seat))).state
        return MAX_ACTIONS

    for index in range(warmup):
        play(-1 - index)
    start = time.perf_counter()
    actions = sum(play(index) for index in range(games))
    return actions, actions / (time.perf_counter() - start)


def rng(name: str) -> GameRng:
    """Return the benchmark's seeded generator called ``name``."""
    return GameRng(f"bench:{name}")
