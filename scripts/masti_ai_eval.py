"""Measure the «Масти Власти» AI against random-legal seats, and look for broken rules in random playouts.

``python -m scripts.masti_ai_eval [--games 500] [--modes 3,4,5,4t,6t] [--seed eval] [--workers 2]``
plays seeded games through the real engine and prints, per mode, the AI's win rate (rank 0,
shared first places counted whole and as a split share), its fair share and the ratio, the mean
scores, and the AI's decision time p50/p99. Seats rotate with the game number: in standard games
the AI plays seat ``g mod n``; in team games its team is team ``g mod teams`` (both partners AI).

``--balance N`` instead plays N all-random games per mode and prints what each guild pile, power
card count and card scored, to spot a rule or card that never matters.

Not part of the test run: this is a measuring tool (``tests`` only check legality and speed).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from games.core.protocol import RandomAgent
from games.core.rng import GameRng
from games.masti.ai import DEFAULT_WEIGHTS, MastiAgent, Weights
from games.masti.deck import sort_key
from games.masti.engine import MastiEngine
from games.masti.models import MastiOptions
from games.masti.state import MastiState
from scripts.eval_jobs import game_ranges, run_jobs

ENGINE = MastiEngine()
MODES: dict[str, tuple[int, bool]] = {
    "3": (3, False),
    "4": (4, False),
    "5": (5, False),
    "4t": (4, True),
    "6t": (6, True),
}


@dataclass
class GameResult:
    """One game's result from the AI's side."""

    win: bool
    share: float
    ai_score: float
    best_other: float
    mean_other: float
    times: list[float] = field(default_factory=list)


def ai_seats(n: int, teams: bool, game: int) -> tuple[int, ...]:
    """Return the AI seats of game number ``game`` (rotating)."""
    if n == 6:
        t = game % 3
        return (t, t + 3)
    if teams:
        t = game % 2
        return (t, t + 2)
    return (game % n,)


def play_game(n: int, teams: bool, game: int, seed: str, weights: Weights) -> GameResult:
    """Play one seeded game: the AI seats against random-legal seats."""
    ai = MastiAgent(weights)
    rnd = RandomAgent()
    mine = ai_seats(n, teams, game)
    table_seed = f"{seed}:{n}{'t' if teams else ''}:{game}"
    state: MastiState = ENGINE.setup(n, MastiOptions(teams=teams), table_seed).state
    times: list[float] = []
    while True:
        active = sorted(ENGINE.active_seats(state))
        if not active:
            break
        seat = active[0]
        legal = ENGINE.legal_actions(state, seat)
        view = ENGINE.view(state, seat)
        rng = GameRng.for_step(table_seed, state.version, f"seat{seat}")
        if seat in mine:
            start = time.perf_counter()
            action = ai.choose(view, legal, rng)
            times.append(time.perf_counter() - start)
        else:
            action = rnd.choose(view, legal, rng)
        state = ENGINE.apply(state, seat, action).state
    outcome = ENGINE.outcome(state)
    if outcome is None or state.scores is None:
        raise RuntimeError("the game did not finish")
    ranks = outcome.ranks
    win = ranks[mine[0]] == 0
    units = [tuple(t) for t in state.teams] if state.teams is not None else [(s,) for s in range(n)]
    firsts = sum(1 for u in units if ranks[u[0]] == 0)
    others = [float(state.scores[u[0]]) for u in units if mine[0] not in u]
    return GameResult(
        win=win,
        share=(1.0 / firsts) if win else 0.0,
        ai_score=float(state.scores[mine[0]]),
        best_other=max(others),
        mean_other=statistics.fmean(others),
        times=times,
    )


def _chunk(args: tuple[str, int, int, str, Weights]) -> list[GameResult]:
    mode, first, count, seed, weights = args
    n, teams = MODES[mode]
    return [play_game(n, teams, g, seed, weights) for g in range(first, first + count)]


def evaluate(mode: str, games: int, seed: str, workers: int, weights: Weights = DEFAULT_WEIGHTS) -> dict[str, Any]:
    """Play ``games`` games of ``mode`` and return the summary numbers."""
    n, teams = MODES[mode]
    jobs = [(mode, first, count, seed, weights) for first, count in game_ranges(games, workers)]
    results = run_jobs(_chunk, jobs, workers)
    units = 3 if n == 6 else (2 if teams else n)
    times = sorted(t for r in results for t in r.times)
    wins = sum(r.win for r in results) / len(results)
    return {
        "mode": mode,
        "games": len(results),
        "win": wins,
        "share": sum(r.share for r in results) / len(results),
        "fair": 1 / units,
        "ratio": wins * units,
        "ai_score": statistics.fmean(r.ai_score for r in results),
        "best_other": statistics.fmean(r.best_other for r in results),
        "mean_other": statistics.fmean(r.mean_other for r in results),
        "margin": statistics.fmean(r.ai_score - r.best_other for r in results),
        "margin_se": statistics.stdev(r.ai_score - r.best_other for r in results) / len(results) ** 0.5,
        "p50_ms": 1000 * times[len(times) // 2],
        "p99_ms": 1000 * times[min(len(times) - 1, int(len(times) * 0.99))],
        "max_ms": 1000 * times[-1],
    }


def balance(mode: str, games: int, seed: str) -> None:
    """Play all-random games and print what each scoring element contributed."""
    n, teams = MODES[mode]
    rnd = RandomAgent()
    pile_sizes: Counter[int] = Counter()
    guild_points: dict[str, list[int]] = defaultdict(list)
    power_counts: Counter[int] = Counter()
    card_taker_rank: dict[str, list[int]] = defaultdict(list)
    totals: list[int] = []
    first_seat_wins = 0
    for g in range(games):
        table_seed = f"{seed}:bal:{mode}:{g}"
        state = ENGINE.setup(n, MastiOptions(teams=teams), table_seed).state
        while ENGINE.active_seats(state):
            seat = min(ENGINE.active_seats(state))
            rng = GameRng.for_step(table_seed, state.version, "r")
            legal = ENGINE.legal_actions(state, seat)
            state = ENGINE.apply(state, seat, rnd.choose(ENGINE.view(state, seat), legal, rng)).state
        if state.result is None or state.ranks is None:
            raise RuntimeError("the game did not finish")
        first_seat_wins += state.ranks[state.first_seat] == 0
        for unit in state.result:
            totals.append(unit.total)
            power_counts[unit.power_cards] += 1
            for pile in unit.piles:
                if pile.counted:
                    pile_sizes[pile.symbols + (pile.joker is not None)] += 1
                    guild_points[pile.guild.value].append(pile.points)
        for seat, won in enumerate(state.won):
            for card in won:
                card_taker_rank[card].append(state.ranks[seat])
    print(f"== balance {mode}: {games} random games")
    print(f"  unit score mean {statistics.fmean(totals):.1f} sd {statistics.pstdev(totals):.1f}")
    print(f"  first player wins {first_seat_wins / games:.3f}")
    print("  counted pile sizes:", dict(sorted(pile_sizes.items())))
    for guild, points in guild_points.items():
        print(f"  {guild}: mean pile points {statistics.fmean(points):.2f}, piles {len(points)}")
    print("  power cards per unit:", dict(sorted(power_counts.items())))
    ranks = {card: statistics.fmean(r) for card, r in card_taker_rank.items()}
    ordered = sorted(ranks.items(), key=lambda kv: kv[1])
    print("  best cards to take (mean rank of taker):", [(c, round(r, 2)) for c, r in ordered[:6]])
    print("  worst cards to take:", [(c, round(r, 2)) for c, r in ordered[-6:]])


class LowestAgent:
    """The clock's choice: the lowest legal card, never a bribe."""

    def choose(self, view: Any, legal: list[Any], rng: GameRng) -> Any:
        """Return the lowest legal card."""
        cards = [a for a in legal if a.kind != "bribe"]
        return min(cards, key=lambda a: sort_key(a.card))


class BriberAgent:
    """Bribes whenever allowed, else plays the lowest legal card."""

    def choose(self, view: Any, legal: list[Any], rng: GameRng) -> Any:
        """Return a bribe when legal, else the lowest legal card."""
        bribes = [a for a in legal if a.kind == "bribe"]
        return bribes[0] if bribes else LowestAgent().choose(view, legal, rng)


class HighestAgent:
    """Plays the highest legal card, never a bribe (takes as many tricks as it can)."""

    def choose(self, view: Any, legal: list[Any], rng: GameRng) -> Any:
        """Return the highest legal card."""
        cards = [a for a in legal if a.kind != "bribe"]
        return max(cards, key=lambda a: sort_key(a.card))


def simple_strategies(mode: str, games: int, seed: str) -> None:
    """Print how simple fixed strategies fare against random seats (is one of them dominant?)."""
    n, teams = MODES[mode]
    rnd = RandomAgent()
    for name, agent in (("lowest", LowestAgent()), ("briber", BriberAgent()), ("highest", HighestAgent())):
        wins = 0
        for g in range(games):
            mine = ai_seats(n, teams, g)
            table_seed = f"{seed}:simple:{mode}:{g}"
            state = ENGINE.setup(n, MastiOptions(teams=teams), table_seed).state
            while ENGINE.active_seats(state):
                seat = min(ENGINE.active_seats(state))
                rng = GameRng.for_step(table_seed, state.version, "r")
                legal = ENGINE.legal_actions(state, seat)
                view = ENGINE.view(state, seat)
                chooser = agent if seat in mine and view.phase.value == "play" else rnd
                state = ENGINE.apply(state, seat, chooser.choose(view, legal, rng)).state
            if state.ranks is None:
                raise RuntimeError("the game did not finish")
            wins += state.ranks[mine[0]] == 0
        units = 3 if n == 6 else (2 if teams else n)
        print(f"  {mode} {name:>8} vs random: win {wins / games:.3f} (fair {1 / units:.3f})")


def main() -> None:
    """Parse the arguments and print the measurements."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--modes", default="3,4,5,4t,6t")
    parser.add_argument("--seed", default="eval")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--balance", type=int, default=0)
    parser.add_argument("--set", action="append", default=[], help="override a weight: name=value")
    args = parser.parse_args()
    modes = args.modes.split(",")
    if args.balance:
        for mode in modes:
            balance(mode, args.balance, args.seed)
        for mode in modes:
            simple_strategies(mode, args.balance, args.seed)
        return
    overrides: dict[str, Any] = {}
    for item in args.set:
        name, value = item.split("=")
        overrides[name] = type(getattr(DEFAULT_WEIGHTS, name))(value)
    weights = Weights(**{**DEFAULT_WEIGHTS.__dict__, **overrides})
    print(f"weights: {weights}")
    for mode in modes:
        started = time.perf_counter()
        r = evaluate(mode, args.games, args.seed, args.workers, weights)
        print(
            f"{r['mode']:>3}: games {r['games']} win {r['win']:.3f} (split {r['share']:.3f}) fair {r['fair']:.3f} "
            f"ratio {r['ratio']:.2f} | score ai {r['ai_score']:.1f} best-other {r['best_other']:.1f} "
            f"mean-other {r['mean_other']:.1f} margin {r['margin']:.2f}±{r['margin_se']:.2f} | "
            f"decision p50 {r['p50_ms']:.1f} ms p99 {r['p99_ms']:.1f} ms max {r['max_ms']:.1f} ms | "
            f"{time.perf_counter() - started:.0f}s",
            flush=True,
        )


if __name__ == "__main__":
    main()
