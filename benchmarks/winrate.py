"""How often the Coup AI wins against seats that play uniformly random legal actions.

One AI seat plays against ``seats - 1`` :class:`~games.core.RandomAgent` seats in seeded games; the
AI's seat rotates with the game number so it starts first, last and in between equally often (the
first player is drawn by the engine from the seed). Every seat decides exactly as the bot's AI seats
do. The interval is the Wilson 95% score interval; a game that never ends counts as a loss.
"""

from __future__ import annotations

import math

from benchmarks.common import GAME, Line, playout
from games.core import Agent, RandomAgent
from games.registry import AGENTS, ENGINES

SECTION = "5. AI win rate"
#: The aim for four players: well above the fair share of 25%.
TARGET_4P = 0.60
Z95 = 1.96


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval of a win rate.

    >>> low, high = wilson(60, 100)
    >>> round(low, 3), round(high, 3)
    (0.502, 0.691)
    """
    if games <= 0:
        raise ValueError("no games")
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def win_rate(seats: int, games: int) -> tuple[int, int, int]:
    """Play ``games`` games of one AI against random seats; return (AI wins, games, unfinished games)."""
    engine = ENGINES[GAME]
    ai: Agent = AGENTS[GAME]
    rand: Agent = RandomAgent()
    wins = unfinished = 0
    for index in range(games):
        ai_seat = index % seats
        lineup = [ai if seat == ai_seat else rand for seat in range(seats)]
        final = playout(seats, f"bench-winrate-{seats}-{index}", lineup.__getitem__)
        outcome = engine.outcome(final)
        if outcome is None:
            unfinished += 1
        elif outcome.ranks[ai_seat] == 0:
            wins += 1
    return wins, games, unfinished


def bench_winrate(
    *, games_4p: int = 1_000, games_other: int = 1_000, other_seats: tuple[int, ...] = (2, 6)
) -> list[Line]:
    """Report the AI's win rate at 4 seats against the aim, and at ``other_seats`` against fair share."""
    lines: list[Line] = []
    for seats, games in ((4, games_4p), *((s, games_other) for s in other_seats)):
        wins, played, unfinished = win_rate(seats, games)
        rate = wins / played
        low, high = wilson(wins, played)
        fair = 1 / seats
        if seats == 4:
            target, passed = f"≥ {TARGET_4P:.0%} (fair share {fair:.0%})", rate >= TARGET_4P
        else:
            target, passed = f"CI above the fair share {fair:.1%}", low > fair
        lines.append(
            Line(
                SECTION,
                f"{seats} seats: 1 AI vs {seats - 1} random ({played:,} games, AI seat rotated)",
                f"{rate:.1%} (95% CI {low:.1%}–{high:.1%}; {wins:,} wins"
                + (f", {unfinished} unfinished games counted as losses)" if unfinished else ")"),
                target,
                passed,
            )
        )
    return lines
