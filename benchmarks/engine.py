"""Engine speed in random playouts, and how long the Coup AI takes to decide.

Playouts: seeded games of 2 to 6 seats in which the awaited seat plays a uniformly random legal
action. Only the engine's work is timed in the loop (``active_seats``, ``legal_actions``,
``apply``) plus one draw from a generator made once per game.

AI decisions: seeded all-AI games of 2 to 6 seats are played first and their decisions collected,
then a spread of them is timed as the bot takes them (:func:`bot.tables.choose_ai_action`: the
seat's view, its legal actions, a per-step generator and the agent's choice). The same games show
whether all-AI games end: a table of AIs that never finishes would run in the bot forever.
"""

from __future__ import annotations

import time

from benchmarks.common import GAME, MAX_ACTIONS, Line, ms, p50_p99, playout, random_playout_rate, spread
from bot.tables import choose_ai_action
from games.core import Agent
from games.coup.state import CoupState
from games.registry import AGENTS, ENGINES

SECTION_PLAYOUTS = "3. Engine"
SECTION_AI = "4. AI decision"
TARGET_ACTIONS_PER_SECOND = 10_000
TARGET_DECISION = 0.200
MAX_TIMED = 20_000


def bench_playouts(*, games: int = 1_500, warmup: int = 50) -> list[Line]:
    """Play ``games`` random games and report engine actions per second."""
    engine = ENGINES[GAME]
    options = engine.options_type()
    actions, per_second = random_playout_rate(
        engine,
        lambda index: (2 + index % 5, options, f"bench-playout-{index}", f"bench-playout-choices-{index}"),
        games=games,
        warmup=warmup,
    )
    return [
        Line(
            SECTION_PLAYOUTS,
            f"random playouts, 2–6 seats ({games} games, {actions:,} actions)",
            f"{per_second:,.0f} actions/s",
            f"≥ {TARGET_ACTIONS_PER_SECOND:,} actions/s",
            per_second >= TARGET_ACTIONS_PER_SECOND,
        )
    ]


def bench_ai(*, games: int = 500, warmup: int = 200) -> list[Line]:
    """Play ``games`` all-AI games; time their decisions and count the games that never end."""
    engine = ENGINES[GAME]
    agent: Agent = AGENTS[GAME]
    decisions: list[tuple[CoupState, int]] = []
    endless: dict[int, list[str]] = {}
    for index in range(games):
        seats, seed = 2 + index % 5, f"bench-ai-{index}"
        final = playout(
            seats, seed, lambda _seat: agent, on_decision=lambda state, seat: decisions.append((state, seat))
        )
        if engine.outcome(final) is None:
            endless.setdefault(seats, []).append(seed)
    timed = spread(decisions, MAX_TIMED)
    for state, seat in timed[:warmup]:
        choose_ai_action(engine, agent, state, seat)
    timings: list[float] = []
    for state, seat in timed:
        start = time.perf_counter()
        choose_ai_action(engine, agent, state, seat)
        timings.append(time.perf_counter() - start)
    p50, p99 = p50_p99(timings)
    stuck = sum(len(seeds) for seeds in endless.values())
    examples = "; ".join(f"{n} seats: {len(s)} (e.g. {s[0]!r})" for n, s in sorted(endless.items()))
    return [
        Line(
            SECTION_AI,
            f"CoupAgent, view + legal actions + choice ({len(timings):,} decisions, 2–6 seats)",
            f"p50 {ms(p50)} · p99 {ms(p99)} · max {ms(max(timings))}",
            f"p99 ≤ {ms(TARGET_DECISION)}",
            p99 <= TARGET_DECISION,
        ),
        Line(
            SECTION_AI,
            f"all-AI games that end within {MAX_ACTIONS:,} actions ({games:,} games, 2–6 seats)",
            f"{games - stuck:,} of {games:,}" + (f"; never ending: {examples}" if stuck else ""),
            "all",
            stuck == 0,
        ),
    ]
