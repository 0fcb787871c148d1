"""Measure the «Интриги» AI against random-legal seats, and see how games end.

``python -m scripts.intrigue_ai_eval [--games 200] [--seats 3,6] [--seed eval] [--workers 2]``
plays seeded games through the real engine and prints, per player count, the AI's win rate (rank
0; a shared first place counted whole and as a split share) with a 95% Wilson interval, its fair
share and the ratio, the AI's decision time p50/p99/max, and how the games ended: which victory
condition (and who met it: the AI or a random seat) or the turn limit, with the mean last turn.
The AI plays seat ``g mod n`` in game ``g``; every other seat picks uniformly among its legal
actions.

``--random-only`` plays all-random games instead and prints only how they ended, to spot a victory
condition that always or never ends a game.

``--all-ai [--lands 7,9]`` plays the AI in every seat, for each player count and land set (7 or 9
lands, the standard sets, whatever the player count), and prints the balance table of issue 15: the
share of games each victory ends, the median last turn, each seat's win rate (a shared first place
split) with its 95% Wilson interval, and the worst seat's deviation from the fair share 1/n.

``--versus REV`` plays the AI head to head against another version of itself: ``REV`` is a git
revision (its ``games/intrigue/ai.py`` is loaded beside this one) or the path of such a file. In game
``g`` the current AI takes the seats ``s`` with ``s + g`` even, so over an even number of games each
version sits in every seat equally often; it prints the current AI's share of first places (a shared
first place split) with its 95% Wilson interval against its fair share (its seats over ``n``).

Not part of the test run: this is a measuring tool (``tests`` only check legality and speed).
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from games.core.protocol import Agent, RandomAgent
from games.core.rng import GameRng
from games.intrigue.ai import IntrigueAgent
from games.intrigue.data import STANDARD_NINE, STANDARD_SEVEN
from games.intrigue.engine import IntrigueEngine
from games.intrigue.models import IntrigueOptions, ResultView, Victory
from games.intrigue.state import IntrigueState
from scripts.eval_jobs import game_ranges, run_jobs

ENGINE = IntrigueEngine()
#: Safety cap on decisions per game (a finished engine never gets near it).
MAX_STEPS = 100_000


@dataclass
class GameResult:
    """One game's result from the AI's side."""

    win: bool
    share: float
    ending: str
    turn: int
    times: list[float] = field(default_factory=list)


def play_out(
    n: int,
    options: IntrigueOptions,
    table_seed: str,
    agent_of: Callable[[int], Agent],
    times: list[float] | None = None,
    timed: int = -1,
) -> tuple[IntrigueState, ResultView]:
    """Play one seeded game to its end, each seat deciding through ``agent_of(seat)``; return its end and result.

    The seat to move is the lowest active one, with the step's seeded rng, as at a bot table. When
    ``times`` is given, the decision times of seat ``timed`` are appended to it.
    """
    state: IntrigueState = ENGINE.setup(n, options, table_seed).state
    for _ in range(MAX_STEPS):
        active = sorted(ENGINE.active_seats(state))
        if not active:
            break
        seat = active[0]
        legal = ENGINE.legal_actions(state, seat)
        view = ENGINE.view(state, seat)
        rng = GameRng.for_step(table_seed, state.version, f"seat{seat}")
        start = time.perf_counter()
        action = agent_of(seat).choose(view, legal, rng)
        if times is not None and seat == timed:
            times.append(time.perf_counter() - start)
        state = ENGINE.apply(state, seat, action).state
    if state.result is None:
        raise RuntimeError(f"game {table_seed} did not finish")
    return state, state.result


def play_game(n: int, game: int, seed: str, *, ai: bool = True) -> GameResult:
    """Play one seeded game: the AI at seat ``game mod n`` (unless ``ai`` is off) against random seats."""
    agent = IntrigueAgent()
    rnd = RandomAgent()
    mine = game % n if ai else -1
    table_seed = f"{seed}:{n}:{game}"
    times: list[float] = []
    state, result = play_out(n, IntrigueOptions(), table_seed, lambda seat: agent if seat == mine else rnd, times, mine)
    win = mine >= 0 and result.ranks[mine] == 0
    firsts = sum(1 for r in result.ranks if r == 0)
    ending = result.victory.value
    if result.winner is not None:
        ending += " (AI)" if result.winner == mine else " (random)"
    return GameResult(win=win, share=(1.0 / firsts) if win else 0.0, ending=ending, turn=state.turn, times=times)


def _chunk(args: tuple[int, int, int, str, bool]) -> list[GameResult]:
    n, first, count, seed, ai = args
    return [play_game(n, g, seed, ai=ai) for g in range(first, first + count)]


@dataclass
class BalanceResult:
    """One all-AI game: how it ended, its last turn and each seat's share of first place."""

    ending: str
    turn: int
    shares: list[float]


def play_all_ai(n: int, lands: int, game: int, seed: str) -> BalanceResult:
    """Play one seeded game with the AI in every seat on the standard set of ``lands`` lands."""
    agent = IntrigueAgent()
    table_seed = f"{seed}:{n}:{lands}:{game}"
    land_ids = STANDARD_SEVEN if lands == 7 else STANDARD_NINE
    state, result = play_out(n, IntrigueOptions(land_ids=land_ids), table_seed, lambda _seat: agent)
    firsts = [s for s, r in enumerate(result.ranks) if r == 0]
    shares = [1.0 / len(firsts) if s in firsts else 0.0 for s in range(n)]
    return BalanceResult(ending=result.victory.value, turn=state.turn, shares=shares)


def _balance_chunk(args: tuple[int, int, int, int, str]) -> list[BalanceResult]:
    n, lands, first, count, seed = args
    return [play_all_ai(n, lands, g, seed) for g in range(first, first + count)]


def balance(n: int, lands: int, games: int, seed: str, workers: int) -> dict[str, Any]:
    """Play ``games`` all-AI games and return the issue-15 balance numbers."""
    jobs = [(n, lands, first, count, seed) for first, count in game_ranges(games, workers)]
    results = run_jobs(_balance_chunk, jobs, workers)
    endings = Counter(r.ending for r in results)
    seats = [sum(r.shares[s] for r in results) / len(results) for s in range(n)]
    intervals = [wilson(round(rate * len(results)), len(results)) for rate in seats]
    return {
        "games": len(results),
        "endings": {v.value: endings.get(v.value, 0) / len(results) for v in Victory if v is not Victory.LAST_PLAYER},
        "median_turn": statistics.median(r.turn for r in results),
        "seats": seats,
        "intervals": intervals,
        "worst": max(abs(rate - 1 / n) for rate in seats),
    }


def print_balance(games: int, seats: list[int], lands: list[int], seed: str, workers: int) -> None:
    """Print the balance table, one line per player count and land set."""
    print(
        "| players, lands | election | military coup | will of the people | Hand of Order | turn limit "
        "| end turn, median | worst seat deviation | seat win rates [95%] |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for n in seats:
        for count in lands:
            r = balance(n, count, games, seed, workers)
            e = r["endings"]
            rates = " ".join(
                f"{rate:.0%}[{low:.0%}–{high:.0%}]"
                for rate, (low, high) in zip(r["seats"], r["intervals"], strict=True)
            )
            print(
                f"| {n}, {count} lands ({r['games']}) | {e['election']:.0%} | {e['coup']:.0%} | {e['will']:.0%} "
                f"| {e['hand_of_order']:.0%} | {e['turn_limit']:.0%} | {r['median_turn']:g} "
                f"| {100 * r['worst']:.0f} pp | {rates} |",
                flush=True,
            )


@cache
def rival_agent_class(rev: str) -> type[IntrigueAgent]:
    """Return ``IntrigueAgent`` as defined by ``rev``: a path to an ``ai.py``, else a git revision."""
    path = Path(rev)
    if not path.is_file():
        git = shutil.which("git") or "git"
        show = [git, "show", f"{rev}:games/intrigue/ai.py"]
        source = subprocess.run(show, capture_output=True, text=True, check=True).stdout  # noqa: S603 - read-only git
        folder = Path(tempfile.mkdtemp(prefix="intrigue-ai-"))
        path = folder / "ai.py"
        path.write_text(source, encoding="utf-8")
    name = f"_intrigue_ai_rival_{abs(hash(rev))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    agent: type[IntrigueAgent] = module.IntrigueAgent
    return agent


def play_versus(n: int, game: int, seed: str, rev: str) -> float:
    """Play one game of the current AI against ``rev``'s and return the current AI's first-place share."""
    mine, theirs = IntrigueAgent(), rival_agent_class(rev)()
    current = [(s + game) % 2 == 0 for s in range(n)]
    table_seed = f"{seed}:{n}:{game}"
    _state, result = play_out(n, IntrigueOptions(), table_seed, lambda seat: mine if current[seat] else theirs)
    firsts = [s for s, r in enumerate(result.ranks) if r == 0]
    return sum(current[s] for s in firsts) / len(firsts)


def _versus_chunk(args: tuple[int, int, int, str, str]) -> list[float]:
    n, first, count, seed, rev = args
    return [play_versus(n, g, seed, rev) for g in range(first, first + count)]


def versus(n: int, games: int, seed: str, rev: str, workers: int) -> dict[str, float]:
    """Play ``games`` head-to-head games at ``n`` players; return the current AI's share and its fair share."""
    jobs = [(n, first, count, seed, rev) for first, count in game_ranges(games, workers)]
    shares = run_jobs(_versus_chunk, jobs, workers)
    seats_held = sum(sum((s + g) % 2 == 0 for s in range(n)) for g in range(len(shares)))
    low, high = wilson(round(sum(shares)), len(shares))
    return {
        "games": len(shares),
        "share": sum(shares) / len(shares),
        "low": low,
        "high": high,
        "fair": seats_held / (n * len(shares)),
    }


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 0.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(n: int, games: int, seed: str, workers: int, *, ai: bool = True) -> dict[str, Any]:
    """Play ``games`` games at ``n`` players and return the summary numbers."""
    jobs = [(n, first, count, seed, ai) for first, count in game_ranges(games, workers)]
    results = run_jobs(_chunk, jobs, workers)
    wins = sum(r.win for r in results)
    times = sorted(t for r in results for t in r.times) or [0.0]
    low, high = wilson(wins, len(results))
    return {
        "n": n,
        "games": len(results),
        "win": wins / len(results),
        "low": low,
        "high": high,
        "share": sum(r.share for r in results) / len(results),
        "fair": 1 / n,
        "ratio": wins / len(results) * n,
        "p50_ms": 1000 * times[len(times) // 2],
        "p99_ms": 1000 * times[min(len(times) - 1, int(len(times) * 0.99))],
        "max_ms": 1000 * times[-1],
        "decisions": len(times),
        "endings": Counter(r.ending for r in results),
        "turn": statistics.fmean(r.turn for r in results),
    }


def main() -> None:
    """Parse the arguments and print the measurements."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", default="3,6")
    parser.add_argument("--seed", default="eval")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--random-only", action="store_true")
    parser.add_argument("--all-ai", action="store_true")
    parser.add_argument("--lands", default="7,9")
    parser.add_argument("--versus", metavar="REV", help="a git revision or an ai.py path to play against")
    args = parser.parse_args()
    if args.versus:
        for n in (int(s) for s in args.seats.split(",")):
            h2h = versus(n, args.games, args.seed, args.versus, args.workers)
            print(
                f"{n} players against {args.versus}: games {h2h['games']:.0f} share {h2h['share']:.3f} "
                f"[95% {h2h['low']:.3f}-{h2h['high']:.3f}] fair {h2h['fair']:.3f}",
                flush=True,
            )
        return
    if args.all_ai:
        seats = [int(s) for s in args.seats.split(",")]
        print_balance(args.games, seats, [int(x) for x in args.lands.split(",")], args.seed, args.workers)
        return
    for n in (int(s) for s in args.seats.split(",")):
        started = time.perf_counter()
        r = evaluate(n, args.games, args.seed, args.workers, ai=not args.random_only)
        endings = ", ".join(f"{k} {v}" for k, v in r["endings"].most_common())
        if args.random_only:
            print(f"{n} players, all random: games {r['games']} | ended: {endings} | mean last turn {r['turn']:.1f}")
            continue
        print(
            f"{n} players: games {r['games']} win {r['win']:.3f} [95% {r['low']:.3f}-{r['high']:.3f}] "
            f"(split {r['share']:.3f}) fair {r['fair']:.3f} ratio {r['ratio']:.2f} | "
            f"decision p50 {r['p50_ms']:.2f} ms p99 {r['p99_ms']:.2f} ms max {r['max_ms']:.2f} ms "
            f"({r['decisions']} decisions) | ended: {endings} | mean last turn {r['turn']:.1f} | "
            f"{time.perf_counter() - started:.0f}s",
            flush=True,
        )


if __name__ == "__main__":
    main()
