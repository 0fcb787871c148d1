"""Victory, game end and ranking (spec §12).

Checks run in the order Рука порядка (at the fifth kill), Election (as it resolves), coup, will;
:func:`check` (coup, will) runs after every resolved step outside an interrupt (``engine.drive``).
Ranking: a §12.1–12.3 winner first, everyone else by the score vector (council tokens, tokens on
characters in office, all board tokens, coins); equal vectors share a place. Resigned seats rank
below every seat still playing (the platform's contract), later resignations above earlier ones.
"""

from __future__ import annotations

from games.core.models import Seat
from games.intrigue.game import MARSHAL, PRIVY, Game
from games.intrigue.models import GameEnded, GameWon, Phase, ResultView, Victory

Score = tuple[int, int, int, int]


def score(g: Game, seat: Seat) -> Score:
    """Return ``seat``'s §12.4 score vector."""
    office = g.office_tokens(seat)
    board = g.total_land_tokens(seat) + office + g.markers(seat)
    return (g.council_tokens(seat), office, board, g.coins[seat])


def coup_lands(g: Game, seat: Seat) -> int:
    """Return the lands with M ≥ P where ``seat`` has land majority (§12.2)."""
    return sum(1 for p, land in enumerate(g.lands) if g.military[p] >= g.peaceful[p] and g.majority(land) == seat)


def will_lands(g: Game, seat: Seat) -> int:
    """Return the lands with M ≤ P where ``seat`` has land majority (§12.3)."""
    return sum(1 for p, land in enumerate(g.lands) if g.military[p] <= g.peaceful[p] and g.majority(land) == seat)


def lands_by_seat(g: Game) -> tuple[list[int], list[int]]:
    """Return every seat's :func:`coup_lands` and :func:`will_lands` at once (each land's majority read once)."""
    coup = [0] * g.n
    will = [0] * g.n
    for p, land in enumerate(g.lands):
        seat = g.majority(land)
        if seat is not None:
            if g.military[p] >= g.peaceful[p]:
                coup[seat] += 1
            if g.military[p] <= g.peaceful[p]:
                will[seat] += 1
    return coup, will


def majority_needed(g: Game) -> int:
    """Return m (§12)."""
    return len(g.lands) // 2 + 1


def check(g: Game) -> bool:
    """End the game if a coup or a will of the people is met now; return whether it ended."""
    m = majority_needed(g)
    marshal = g.controller(g.council[MARSHAL])
    if marshal is not None and coup_lands(g, marshal) >= m:
        finish(g, Victory.COUP, marshal)
        return True
    privy = g.controller(g.council[PRIVY])
    if privy is not None and will_lands(g, privy) >= m:
        finish(g, Victory.WILL, privy)
        return True
    return False


def ranks(g: Game, winner: Seat | None) -> list[int]:
    """Return each seat's rank (0 first; equal score vectors share a rank)."""
    scores = [score(g, s) for s in range(g.n)]
    playing = [s for s in range(g.n) if s not in g.resigned]
    out = [0] * g.n

    def key(s: Seat) -> tuple[int, tuple[int, ...]]:
        return (0 if s == winner else 1, tuple(-v for v in scores[s]))

    playing.sort(key=key)
    for i, s in enumerate(playing):
        out[s] = out[playing[i - 1]] if i and key(playing[i - 1]) == key(s) else i
    base = len(playing)
    for i, s in enumerate(reversed(g.resigned)):
        out[s] = base + i
    return out


def finish(g: Game, victory: Victory, winner: Seat | None) -> None:
    """End the game now: rank, record the result and stop every procedure."""
    order = ranks(g, winner)
    scores = tuple(score(g, s) for s in range(g.n))
    if winner is not None:
        g.emit(GameWon(seat=winner, victory=victory))
    g.emit(GameEnded(victory=victory, winner=winner, ranks=tuple(order), scores=scores))
    g.result = ResultView(victory=victory, winner=winner, ranks=tuple(order), scores=scores)
    g.phase = Phase.OVER
    g.stack = []
