"""«Масти Власти»: board render, engine playouts, AI decisions and the AI's win rate.

The AI is ``AGENTS.get("masti")``, read when a benchmark runs. While no Масти Власти AI is registered
the bot's AI seats play :class:`~games.core.RandomAgent`, and so do these benchmarks; every AI line
names the agent it measured.

- Render: public views spread over seeded games of random legal moves (every phase shows up: the
  6-player seeding and leaving, bribes, the final scores), rendered through the presenter exactly
  as the publisher calls it, Cyrillic names and the decision clock included; each board's time is
  the median of ``repeats`` renders.
- Playouts: random legal moves in every variant (3, 4, 4 in teams, 5 and 6 seats); only the engine's
  work is timed plus one draw per action.
- AI decisions: seeded all-AI games of every variant, each decision timed as the bot takes it
  (:func:`bot.tables.choose_ai_action`: the seat's view, its legal actions, a per-step generator and
  the agent's choice). The same games show whether all-AI games end.
- Win rate: the AI (one seat, or one team of two) against seats playing uniformly random legal
  actions, in seeded games; the AI's seat or team rotates with the game number. A game counts as
  a win when the AI's seat ranks first (a team game ranks both partners together). The games are
  spread over worker processes; the result does not depend on how many.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from benchmarks.common import NAMES, Line, ms, p50_p99, random_playout_rate, spread
from benchmarks.render import render_value, time_renders
from benchmarks.winrate import wilson
from bot.presenters.registry import PRESENTERS
from bot.tables import choose_ai_action
from games.core import Agent, RandomAgent
from games.masti.engine import teams_for
from games.masti.models import MastiOptions
from games.masti.state import MastiState
from games.registry import AGENTS, ENGINES

GAME = "masti"
SECTION_RENDER = "6. Масти Власти: board render"
SECTION_PLAYOUTS = "7. Масти Власти: engine"
SECTION_AI = "8. Масти Власти: AI decision"
SECTION_WINRATE = "9. Масти Власти: AI win rate"
TARGET_RENDER = 0.040
TARGET_BYTES = 250 * 1024
TARGET_ACTIONS_PER_SECOND = 10_000
TARGET_DECISION = 0.200
#: The aim: this many times the fair share (1 / players, or 1 / teams) ...
TARGET_FACTOR = 2.5
#: ... but never above this: with two teams 2.5 × 50% would be more than every game.
TARGET_CAP = 0.90
#: Masti games always end (every round spends cards); a playout still going here is a bug.
MAX_ACTIONS = 1_000


@dataclass(frozen=True)
class Variant:
    """One way to seat a table: ``players`` seats, standard or in teams (6 seats are always teams)."""

    players: int
    teams: bool = False

    @property
    def options(self) -> MastiOptions:
        """Return the table options."""
        return MastiOptions(teams=self.teams)

    @property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Return the scoring units: the teams, or one unit per seat."""
        return teams_for(self.players, self.teams) or tuple((seat,) for seat in range(self.players))

    @property
    def label(self) -> str:
        """Return e.g. ``4 seats`` or ``4 seats, teams``."""
        return f"{self.players} seats" + (", teams" if len(self.units) < self.players else "")


VARIANTS = (Variant(3), Variant(4), Variant(4, teams=True), Variant(5), Variant(6))


def masti_agent() -> tuple[Agent, str]:
    """Return the Масти Власти AI the bot plays and its name (the random fallback if none is registered)."""
    agent = AGENTS.get(GAME)
    if agent is None:
        return RandomAgent(), "RandomAgent (fallback: no AGENTS['masti'] registered)"
    return agent, type(agent).__name__


def playout(
    variant: Variant,
    seed: str,
    agents: Callable[[int], Agent],
    *,
    on_decision: Callable[[MastiState, int, float], None] | None = None,
) -> MastiState:
    """Play one seeded game, ``agents(seat)`` choosing for each seat as the bot's AI seats do.

    ``on_decision(state, seat, seconds)`` gets every decision and the time it took. The lowest
    awaited seat moves first (the 6-player seeding awaits three seats at once).
    """
    engine = ENGINES[GAME]
    state: MastiState = engine.setup(variant.players, variant.options, seed).state
    for _ in range(MAX_ACTIONS):
        active = engine.active_seats(state)
        if not active:
            break
        seat = min(active)
        start = time.perf_counter()
        action = choose_ai_action(engine, agents(seat), state, seat)
        if on_decision is not None:
            on_decision(state, seat, time.perf_counter() - start)
        state = engine.apply(state, seat, action).state
    return state


def _random_states(variant: Variant, games: int) -> list[MastiState]:
    states: list[MastiState] = []
    rand = RandomAgent()
    for g in range(games):
        seed = f"bench-masti-render-{variant.players}-{g}"
        final = playout(variant, seed, lambda _seat: rand, on_decision=lambda s, _seat, _t: states.append(s))
        states.append(final)
    return states


# ---------------------------------------------------------------------- render
def bench_render(
    *, samples: int = 120, games: int = 4, warmup: int = 5, repeats: int = 3, seat_counts: Sequence[int] = (3, 4, 5, 6)
) -> list[Line]:
    """Render ``samples`` public boards per seat count and report time and size."""
    engine = ENGINES[GAME]
    presenter = PRESENTERS[GAME]
    lines: list[Line] = []
    for seats in seat_counts:
        views = [engine.view(state, None) for state in spread(_random_states(Variant(seats), games), samples)]
        p50, p99, sizes = time_renders(presenter, views, list(NAMES[:seats]), warmup=warmup, repeats=repeats)
        lines.append(
            Line(
                SECTION_RENDER,
                f"{Variant(seats).label} ({len(views)} boards, median of {repeats} renders each)",
                render_value(p50, p99, sizes),
                f"p99 ≤ {ms(TARGET_RENDER)}, ≤ {TARGET_BYTES // 1024} KB",
                p99 <= TARGET_RENDER and max(sizes) <= TARGET_BYTES,
            )
        )
    return lines


# ---------------------------------------------------------------------- playouts
def bench_playouts(*, games: int = 1_000, warmup: int = 20) -> list[Line]:
    """Play ``games`` random games over every variant and report engine actions per second."""

    def table(index: int) -> tuple[int, MastiOptions, str, str]:
        variant = VARIANTS[index % len(VARIANTS)]
        return variant.players, variant.options, f"bench-masti-playout-{index}", f"bench-masti-playout-choices-{index}"

    actions, per_second = random_playout_rate(ENGINES[GAME], table, games=games, warmup=warmup)
    return [
        Line(
            SECTION_PLAYOUTS,
            f"random playouts, 3–6 seats and teams ({games:,} games, {actions:,} actions)",
            f"{per_second:,.0f} actions/s",
            f"≥ {TARGET_ACTIONS_PER_SECOND:,} actions/s",
            per_second >= TARGET_ACTIONS_PER_SECOND,
        )
    ]


# ---------------------------------------------------------------------- AI decisions
def bench_ai(*, games: int = 15, warmup: int = 10) -> list[Line]:
    """Play ``games`` all-AI games over every variant, timing every decision; count games that never end."""
    engine = ENGINES[GAME]
    agent, name = masti_agent()
    warm = 0

    def warm_up(state: MastiState, seat: int, _seconds: float) -> None:
        nonlocal warm
        warm += 1

    # Warm the agent's caches on a game outside the measurement (its first ``warmup`` decisions).
    state: MastiState = engine.setup(4, MastiOptions(), "bench-masti-ai-warmup").state
    for _ in range(warmup):
        active = engine.active_seats(state)
        if not active:
            break
        seat = min(active)
        state = engine.apply(state, seat, choose_ai_action(engine, agent, state, seat)).state
    timings: list[float] = []
    endless: dict[str, list[str]] = {}
    for index in range(games):
        variant = VARIANTS[index % len(VARIANTS)]
        seed = f"bench-masti-ai-{index}"
        final = playout(variant, seed, lambda _seat: agent, on_decision=lambda _s, _seat, t: timings.append(t))
        if engine.outcome(final) is None:
            endless.setdefault(variant.label, []).append(seed)
    p50, p99 = p50_p99(timings)
    stuck = sum(len(seeds) for seeds in endless.values())
    examples = "; ".join(f"{label}: {len(s)} (e.g. {s[0]!r})" for label, s in sorted(endless.items()))
    return [
        Line(
            SECTION_AI,
            f"{name}, view + legal actions + choice ({len(timings):,} decisions of {games} all-AI games, "
            "3–6 seats and teams)",
            f"p50 {ms(p50)} · p99 {ms(p99)} · max {ms(max(timings))}",
            f"p99 ≤ {ms(TARGET_DECISION)}",
            p99 <= TARGET_DECISION,
        ),
        Line(
            SECTION_AI,
            f"all-AI games of {name} that end ({games:,} games, 3–6 seats and teams)",
            f"{games - stuck:,} of {games:,}" + (f"; never ending: {examples}" if stuck else ""),
            "all",
            stuck == 0,
        ),
    ]


# ---------------------------------------------------------------------- win rate
def _winrate_games(variant: Variant, indices: Sequence[int]) -> tuple[int, int]:
    """Play the win-rate games ``indices`` of ``variant``; return (AI wins, unfinished games)."""
    engine = ENGINES[GAME]
    ai, _name = masti_agent()
    rand: Agent = RandomAgent()
    units = variant.units
    wins = unfinished = 0
    for index in indices:
        ai_seats = units[index % len(units)]
        lineup = [ai if seat in ai_seats else rand for seat in range(variant.players)]
        final = playout(
            variant, f"bench-masti-winrate-{variant.players}-{int(variant.teams)}-{index}", lineup.__getitem__
        )
        outcome = engine.outcome(final)
        if outcome is None:
            unfinished += 1
        elif outcome.ranks[ai_seats[0]] == 0:
            wins += 1
    return wins, unfinished


def bench_winrate(
    *, games: int = 500, variants: Sequence[Variant] = VARIANTS, workers: int | None = None, chunk: int = 25
) -> list[Line]:
    """Report the AI's win rate against random seats in each variant, against 2.5 × the fair share.

    ``workers`` processes play the games (default: one per CPU; 1 plays them in this process).
    """
    _agent, name = masti_agent()
    jobs = [(v, range(start, min(start + chunk, games))) for v in variants for start in range(0, games, chunk)]
    workers = workers or os.cpu_count() or 1
    results: list[tuple[int, int]]
    if workers <= 1:
        results = [_winrate_games(v, indices) for v, indices in jobs]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_winrate_games, v, indices) for v, indices in jobs]
            results = [future.result() for future in futures]
    totals: dict[Variant, list[int]] = {v: [0, 0] for v in variants}
    for (variant, _indices), (wins, unfinished) in zip(jobs, results, strict=True):
        totals[variant][0] += wins
        totals[variant][1] += unfinished
    lines: list[Line] = []
    for variant in variants:
        wins, unfinished = totals[variant]
        units = variant.units
        ai_unit = len(units[0])
        rate = wins / games
        low, high = wilson(wins, games)
        fair = 1 / len(units)
        aim = min(TARGET_FACTOR * fair, TARGET_CAP)
        share = f"{TARGET_FACTOR}× fair share {fair:.1%}" + (
            f", capped at {TARGET_CAP:.0%}" if TARGET_FACTOR * fair > TARGET_CAP else ""
        )
        opponents = (
            f"1 AI vs {variant.players - 1} random"
            if ai_unit == 1
            else f"AI team of {ai_unit} vs {len(units) - 1} random team{'s' if len(units) > 2 else ''}"
        )
        lines.append(
            Line(
                SECTION_WINRATE,
                f"{variant.label}: {opponents} ({name}; {games:,} games, AI {'team' if ai_unit > 1 else 'seat'} "
                "rotated)",
                f"{rate:.1%} (95% CI {low:.1%}–{high:.1%}; {wins:,} wins"
                + (f", {unfinished} unfinished games counted as losses)" if unfinished else ")"),
                f"≥ {aim:.1%} ({share})",
                rate >= aim,
            )
        )
    return lines
