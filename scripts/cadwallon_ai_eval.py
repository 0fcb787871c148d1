"""Measure the «Гильдии Кадвалона» AI against random-legal seats, and look for broken cards in random playouts.

``python -m scripts.cadwallon_ai_eval [--games 300] [--modes 2x3,4x4,4x5,8x5] [--seed eval] [--workers 2]
[--options conditions,starting_action] [--opponents random|greedy]`` plays seeded games through the
real engine and prints, per mode (``<players>x<grid>``), the AI's win rate (rank 0, shared first
places counted whole and as a split share) with its 95% Wilson interval, the fair share and the
ratio, the mean scores, and the AI's decision time p50/p99/max. The AI plays seat ``g mod players``
in game ``g``; the table's options are the defaults (contracts on) plus ``--options``.
``--opponents greedy`` seats the clock's strategy instead of random-legal players: the largest
S(X) + S(Y), never an action card.

``--balance N`` instead plays N all-random games per mode and prints how much each action card,
condition and contract moved its holder's rank, to spot a card or rule that never matters or
always wins; it also pits simple fixed strategies against random seats.

``--allai N`` plays N games per mode with the AI in every seat and prints the win rate of each
position in the round-1 turn order (First Player = position 0) with its 95% Wilson interval and its
deviation from the fair share, the game length in rounds, how often each contract was met, how often a
Creditor earned its +5, the win rate of each action card's player and the share of tied card
judgments, each against the issue-15 target (PASS/MISS). ``--set budget=...`` trades strength for time.

Not part of the test run: this is a measuring tool (the tests check legality and a small seeded win count).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from games.cadwallon.ai import DEFAULT_WEIGHTS, CadwallonAgent, Weights
from games.cadwallon.cards import contracts_in_play, guilds_in_play
from games.cadwallon.engine import CadwallonEngine
from games.cadwallon.models import CadwallonOptions, CadwallonView, PlaceAgent
from games.cadwallon.scoring import score_seat, table_context
from games.cadwallon.state import CadwallonState
from games.core.protocol import Agent, RandomAgent
from games.core.rng import GameRng
from scripts.eval_jobs import game_ranges, run_jobs

ENGINE = CadwallonEngine()


def parse_mode(mode: str) -> tuple[int, int]:
    """Return (players, grid) of a mode name such as ``4x5``."""
    players, grid = mode.split("x")
    return int(players), int(grid)


@dataclass
class GameResult:
    """One game's result from the AI's side."""

    win: bool
    share: float
    ai_score: float
    best_other: float
    mean_other: float
    times: list[float] = field(default_factory=list)


class GreedySupportAgent:
    """Places where the two cards give the most support (the clock's choice), never plays a card."""

    def choose(self, view: Any, legal: list[Any], rng: GameRng) -> Any:
        """Return the free boulevard with the largest S(X) + S(Y), else end the turn."""
        if not isinstance(view, CadwallonView):
            return legal[0]
        places = [a for a in legal if isinstance(a, PlaceAgent)]
        if not places:
            return next((a for a in legal if a.kind == "pass"), legal[0])
        support = {b.boulevard: sum(b.support) for b in view.boulevards}
        return max(places, key=lambda a: support[a.boulevard])


OPPONENTS: dict[str, type[Agent]] = {"random": RandomAgent, "greedy": GreedySupportAgent}


def table_options(grid: int, extra: tuple[str, ...]) -> CadwallonOptions:
    """Return the table options of a measured game: the defaults plus the named optional rules."""
    return CadwallonOptions(grid=grid, **dict.fromkeys(extra, True))


def play_game(
    n: int, grid: int, game: int, seed: str, weights: Weights, extra: tuple[str, ...] = (), opponent: str = "random"
) -> GameResult:
    """Play one seeded game: the AI at seat ``game mod n`` against ``opponent`` seats (random-legal by default)."""
    ai = CadwallonAgent(weights)
    rnd = OPPONENTS[opponent]()
    mine = game % n
    table_seed = f"{seed}:{n}x{grid}:{game}"
    state: CadwallonState = ENGINE.setup(n, table_options(grid, extra), table_seed).state
    times: list[float] = []
    while True:
        active = sorted(ENGINE.active_seats(state))
        if not active:
            break
        seat = active[0]
        legal = ENGINE.legal_actions(state, seat)
        view = ENGINE.view(state, seat)
        rng = GameRng.for_step(table_seed, state.version, f"seat{seat}")
        if seat == mine:
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
    win = ranks[mine] == 0
    firsts = sum(1 for r in ranks if r == 0)
    others = [float(state.scores[s]) for s in range(n) if s != mine]
    return GameResult(
        win=win,
        share=(1.0 / firsts) if win else 0.0,
        ai_score=float(state.scores[mine]),
        best_other=max(others),
        mean_other=statistics.fmean(others),
        times=times,
    )


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95% Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _chunk(args: tuple[str, int, int, str, Weights, tuple[str, ...], str]) -> list[GameResult]:
    mode, first, count, seed, weights, extra, opponent = args
    n, grid = parse_mode(mode)
    return [play_game(n, grid, g, seed, weights, extra, opponent) for g in range(first, first + count)]


def evaluate(
    mode: str,
    games: int,
    seed: str,
    workers: int,
    weights: Weights = DEFAULT_WEIGHTS,
    extra: tuple[str, ...] = (),
    opponent: str = "random",
) -> dict[str, Any]:
    """Play ``games`` games of ``mode`` and return the summary numbers."""
    n, _grid = parse_mode(mode)
    jobs = [(mode, first, count, seed, weights, extra, opponent) for first, count in game_ranges(games, workers)]
    results = run_jobs(_chunk, jobs, workers)
    times = sorted(t for r in results for t in r.times)
    wins = sum(r.win for r in results)
    low, high = wilson(wins, len(results))
    rate = wins / len(results)
    return {
        "mode": mode,
        "games": len(results),
        "win": rate,
        "low": low,
        "high": high,
        "share": sum(r.share for r in results) / len(results),
        "fair": 1 / n,
        "ratio": rate * n,
        "ai_score": statistics.fmean(r.ai_score for r in results),
        "best_other": statistics.fmean(r.best_other for r in results),
        "mean_other": statistics.fmean(r.mean_other for r in results),
        "margin": statistics.fmean(r.ai_score - r.best_other for r in results),
        "p50_ms": 1000 * times[len(times) // 2],
        "p99_ms": 1000 * times[min(len(times) - 1, int(len(times) * 0.99))],
        "max_ms": 1000 * times[-1],
        "decisions": len(times),
    }


def _playout(n: int, grid: int, seed: str, agents: dict[int, Agent], extra: tuple[str, ...]) -> CadwallonState:
    state = ENGINE.setup(n, table_options(grid, extra), seed).state
    rnd = RandomAgent()
    while ENGINE.active_seats(state):
        seat = min(ENGINE.active_seats(state))
        rng = GameRng.for_step(seed, state.version, "r")
        legal = ENGINE.legal_actions(state, seat)
        action = agents.get(seat, rnd).choose(ENGINE.view(state, seat), legal, rng)
        state = ENGINE.apply(state, seat, action).state
    return state


def balance(mode: str, games: int, seed: str) -> None:
    """Play all-random games and print what each action card, condition and contract did for its holder."""
    n, grid = parse_mode(mode)
    played_rank: dict[str, list[float]] = defaultdict(list)
    condition_first: dict[str, list[float]] = defaultdict(list)
    contract_met: dict[str, list[int]] = defaultdict(list)
    first_player_wins = 0
    totals: list[int] = []
    for g in range(games):
        table_seed = f"{seed}:bal:{mode}:{g}"
        state = _playout(n, grid, table_seed, {}, ("conditions", "starting_action"))
        if state.result is None or state.ranks is None:
            raise RuntimeError("the game did not finish")
        first = ENGINE.setup(n, table_options(grid, ("conditions", "starting_action")), table_seed).state.first_seat
        first_player_wins += state.ranks[first] == 0
        spread = max(state.ranks) or 1
        for breakdown in state.result:
            totals.append(breakdown.total)
            if breakdown.contract is not None:
                contract_met[breakdown.contract].append(int(breakdown.contract_met))
        for seat, cards in enumerate(state.played):
            for card in cards:
                played_rank[card].append(state.ranks[seat] / spread)
        if state.condition is not None:
            condition_first[state.condition].append(statistics.pstdev(b.total for b in state.result))
    print(f"== balance {mode}: {games} random games (conditions and a starting action on)")
    print(f"  score mean {statistics.fmean(totals):.1f} sd {statistics.pstdev(totals):.1f}")
    print(f"  first player wins {first_player_wins / games:.3f} (fair {1 / n:.3f})")
    ordered = sorted(played_rank.items(), key=lambda kv: statistics.fmean(kv[1]))
    print(
        "  action played -> mean relative rank of its player (0 best):",
        [(c, round(statistics.fmean(r), 2), len(r)) for c, r in ordered],
    )
    print(
        "  contracts fulfilled (random play):",
        sorted((k, round(statistics.fmean(v), 2)) for k, v in contract_met.items()),
    )
    print(
        "  score spread by condition:",
        sorted((k, round(statistics.fmean(v), 1)) for k, v in condition_first.items()),
    )


def simple_strategies(mode: str, games: int, seed: str) -> None:
    """Print how a simple fixed strategy fares against random seats (is one of them dominant?)."""
    n, grid = parse_mode(mode)
    wins = 0
    for g in range(games):
        mine = g % n
        state = _playout(n, grid, f"{seed}:simple:{mode}:{g}", {mine: GreedySupportAgent()}, ())
        if state.ranks is None:
            raise RuntimeError("the game did not finish")
        wins += state.ranks[mine] == 0
    print(f"  {mode} greedy-support vs random: win {wins / games:.3f} (fair {1 / n:.3f})")


@dataclass
class AllAiGame:
    """What one all-AI game shows about the designed parts."""

    position_wins: list[float]
    rounds: int
    contracts: list[tuple[str, bool]]
    creditors: int
    full_creditors: int
    played: list[tuple[str, bool]]
    judgments: int
    ties: int
    accidents: list[tuple[str, bool]] = field(default_factory=list)
    #: Final totals and tie-break crests by position in the round-1 turn order.
    totals: list[int] = field(default_factory=list)
    crests: list[int] = field(default_factory=list)
    #: Each round's First Player, as a position in the round-1 turn order.
    leaders: list[int] = field(default_factory=list)


def _accidents(state: CadwallonState) -> list[tuple[str, bool]]:
    """Return, for every seat and every contract in play it does not hold, whether its cards meet it."""
    guilds = guilds_in_play(state.grid)
    out: list[tuple[str, bool]] = []
    for seat in range(state.num_seats):
        context = table_context(seat, state.captured, guilds, state.hands, state.played, state.condition)
        for contract in contracts_in_play(state.grid):
            if contract == state.contracts[seat]:
                continue
            breakdown = score_seat(
                seat,
                state.captured[seat],
                state.played[seat],
                len(state.hands[seat]),
                grid=state.grid,
                hand=state.hands[seat],
                condition=state.condition,
                contract=contract,
                context=context,
            )
            out.append((contract, breakdown.contract_met))
    return out


def play_all_ai(n: int, grid: int, seed: str, weights: Weights, extra: tuple[str, ...]) -> AllAiGame:
    """Play one seeded game with the AI in every seat and collect the balance numbers."""
    ai = CadwallonAgent(weights)
    state: CadwallonState = ENGINE.setup(n, table_options(grid, extra), seed).state
    first = state.first_seat
    judgments = ties = 0
    seen_round: int | None = None
    leaders: list[int] = []
    while True:
        if state.round > len(leaders):
            leaders.append((state.first_seat - first) % n)
        active = sorted(ENGINE.active_seats(state))
        if not active:
            break
        seat = active[0]
        legal = ENGINE.legal_actions(state, seat)
        rng = GameRng.for_step(seed, state.version, f"seat{seat}")
        state = ENGINE.apply(state, seat, ai.choose(ENGINE.view(state, seat), legal, rng)).state
        if state.last_capture_round is not None and state.last_capture_round != seen_round:
            seen_round = state.last_capture_round
            contested = [c for c in state.last_capture if c.support > 0]
            judgments += len(contested)
            ties += sum(1 for c in contested if c.tied)
    if state.ranks is None or state.result is None:
        raise RuntimeError("the game did not finish")
    firsts = sum(1 for r in state.ranks if r == 0)
    wins = [0.0] * n
    for seat in range(n):
        if state.ranks[seat] == 0:
            wins[(seat - first) % n] = 1.0 / firsts
    lines = [line for b in state.result for line in b.guilds if line.creditor]
    return AllAiGame(
        position_wins=wins,
        rounds=state.round,
        contracts=[(b.contract, b.contract_met) for b in state.result if b.contract is not None],
        creditors=len(lines),
        full_creditors=sum(1 for line in lines if line.creditor_bonus > 1),
        played=[(card, state.ranks[seat] == 0) for seat, cards in enumerate(state.played) for card in cards],
        judgments=judgments,
        ties=ties,
        accidents=_accidents(state),
        totals=[state.result[(first + pos) % n].total for pos in range(n)],
        crests=[state.result[(first + pos) % n].crests for pos in range(n)],
        leaders=leaders,
    )


def _all_ai_chunk(args: tuple[str, int, int, str, Weights, tuple[str, ...]]) -> list[AllAiGame]:
    mode, first, count, seed, weights, extra = args
    n, grid = parse_mode(mode)
    return [play_all_ai(n, grid, f"{seed}:allai:{mode}:{g}", weights, extra) for g in range(first, first + count)]


def _mark(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def all_ai(
    mode: str, games: int, seed: str, workers: int, weights: Weights, extra: tuple[str, ...], dump: str = ""
) -> None:
    """Play ``games`` all-AI games of ``mode`` and print the balance numbers against the issue-15 targets."""
    n, _grid = parse_mode(mode)
    jobs = [(mode, first, count, seed, weights, extra) for first, count in game_ranges(games, workers)]
    results = run_jobs(_all_ai_chunk, jobs, workers)
    if dump:
        with open(dump, "a", encoding="utf-8") as out:
            for r in results:
                out.write(
                    json.dumps({"mode": mode, "totals": r.totals, "crests": r.crests, "leaders": r.leaders}) + "\n"
                )
    count = len(results)
    fair = 1 / n
    print(f"== all-AI {mode}: {count} games; options {extra or 'defaults'}; budget {weights.budget}")
    worst = 0.0
    for pos in range(n):
        wins = sum(r.position_wins[pos] for r in results)
        low, high = wilson(wins, count)
        dev = wins / count - fair
        worst = max(worst, abs(dev))
        print(f"  position {pos}: win {wins / count:.3f} [{low:.3f}, {high:.3f}] deviation {100 * dev:+.1f} pp")
    # Games for a ±5 pp claim: the interval's half-width at the fair share must fall under 5 pp.
    need = math.ceil(1.96**2 * fair * (1 - fair) / 0.05**2)
    print(f"  worst deviation {100 * worst:.1f} pp {_mark(worst <= 0.05)} (±5 pp needs ≥ {need} games per line)")
    rounds = [r.rounds for r in results]
    print(f"  rounds mean {statistics.fmean(rounds):.2f} min {min(rounds)} max {max(rounds)}")
    met: dict[str, list[bool]] = defaultdict(list)
    for r in results:
        for contract, ok in r.contracts:
            met[contract].append(ok)
    cells = []
    for contract in sorted(met):
        rate = statistics.fmean(met[contract])
        cells.append(f"{contract} {rate:.2f}{'' if 0.15 <= rate <= 0.60 else '!'}")
    print(f"  contracts met by their holder: {' '.join(cells)}")
    accident: dict[str, list[bool]] = defaultdict(list)
    for r in results:
        for contract, ok in r.accidents:
            accident[contract].append(ok)
    rates = {c: statistics.fmean(v) for c, v in accident.items()}
    missed = [c for c in sorted(rates) if not 0.15 <= rates[c] <= 0.60]
    shown = " ".join(f"{c} {rates[c]:.2f}{'' if c not in missed else '!'}" for c in sorted(rates))
    print(f"  contracts met by accident ({_mark(not missed)}; ! outside 15-60%): {shown}")
    held = sum(r.creditors for r in results)
    full = sum(r.full_creditors for r in results)
    games_full = sum(1 for r in results if r.full_creditors)
    if held:
        print(
            f"  Creditors held {held}, +5 earned {full} ({full / held:.2f} of held),"
            f" in {games_full / count:.2f} of games"
        )
    by_card: dict[str, list[bool]] = defaultdict(list)
    for r in results:
        for card, won in r.played:
            by_card[card].append(won)
    rates = {c: statistics.fmean(v) for c, v in by_card.items() if len(v) >= 20}
    if rates:
        # "Far more often than the others": the best card's player against the mean over all cards.
        top = max(rates, key=lambda c: rates[c])
        mean = statistics.fmean(rates.values())
        ok = rates[top] <= 1.5 * mean
        shown = " ".join(f"{c} {rates[c]:.2f}/{len(by_card[c])}" for c in sorted(rates))
        print(f"  action player wins ({_mark(ok)}: best {top} {rates[top]:.2f}, mean {mean:.2f}): {shown}")
    judged = sum(r.judgments for r in results)
    tied = sum(r.ties for r in results)
    print(f"  contested judgments {judged}, tied {tied / max(1, judged):.3f}", flush=True)


def main() -> None:
    """Parse the arguments and print the measurements."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--modes", default="2x3,4x4,4x5,8x5")
    parser.add_argument("--seed", default="eval")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--options", default="", help="optional rules on: conditions,starting_action,...")
    parser.add_argument("--opponents", default="random", choices=sorted(OPPONENTS))
    parser.add_argument("--balance", type=int, default=0)
    parser.add_argument("--allai", type=int, default=0, help="play N all-AI games per mode (balance targets)")
    parser.add_argument("--dump", default="", help="with --allai: append each game's totals by position (JSON lines)")
    parser.add_argument("--set", action="append", default=[], help="override a weight: name=value")
    args = parser.parse_args()
    modes = args.modes.split(",")
    if args.balance:
        for mode in modes:
            balance(mode, args.balance, args.seed)
        for mode in modes:
            simple_strategies(mode, args.balance, args.seed)
        return
    extra = tuple(o for o in args.options.split(",") if o)
    overrides: dict[str, Any] = {}
    for item in args.set:
        name, value = item.split("=")
        overrides[name] = type(getattr(DEFAULT_WEIGHTS, name))(value)
    weights = Weights(**{**DEFAULT_WEIGHTS.__dict__, **overrides})
    if args.allai:
        for mode in modes:
            all_ai(mode, args.allai, args.seed, args.workers, weights, extra, args.dump)
        return
    print(f"weights: {weights}; options: {extra or 'defaults'}; opponents: {args.opponents}")
    for mode in modes:
        started = time.perf_counter()
        r = evaluate(mode, args.games, args.seed, args.workers, weights, extra, args.opponents)
        print(
            f"{r['mode']:>4}: games {r['games']} win {r['win']:.3f} [{r['low']:.3f}, {r['high']:.3f}] "
            f"(split {r['share']:.3f}) fair {r['fair']:.3f} ratio {r['ratio']:.2f} | score ai {r['ai_score']:.1f} "
            f"best-other {r['best_other']:.1f} mean-other {r['mean_other']:.1f} margin {r['margin']:.1f} | "
            f"decision p50 {r['p50_ms']:.1f} ms p99 {r['p99_ms']:.1f} ms max {r['max_ms']:.1f} ms "
            f"({r['decisions']} decisions) | {time.perf_counter() - started:.0f}s",
            flush=True,
        )


if __name__ == "__main__":
    main()
