"""OpenSkill ratings per server and game, as pure functions over plain numbers.

The model is openskill's Plackett–Luce with its default parameters (``mu`` 25, ``sigma`` 25/3), which
handles free-for-all ranks, ties (equal ranks) and teams. Leaderboards sort by the conservative
:func:`ordinal` ``mu - 3 * sigma``, which starts at 0 for a new player.

AI seats are never rated: :func:`rate_outcome` drops them, and a game left with fewer than two rated
sides (players, or teams with at least one human) changes nobody's rating.

>>> new = rate_result({}, [(1, 0), (2, 1)])
>>> new[1].mu > DEFAULT_MU > new[2].mu
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final, NamedTuple, Protocol

from openskill.models import PlackettLuce, PlackettLuceRating

from games.core.models import Outcome

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "ORDINAL_Z",
    "RatedSeat",
    "Rating",
    "display_rating",
    "ordinal",
    "rate_outcome",
    "rate_result",
    "winning_seats",
]

_MODEL: Final = PlackettLuce()

DEFAULT_MU: Final[float] = _MODEL.mu
"""The mean skill of a player who has not played yet."""
DEFAULT_SIGMA: Final[float] = _MODEL.sigma
"""The uncertainty of a player who has not played yet."""
ORDINAL_Z: Final[float] = 3.0
"""How many standard deviations :func:`ordinal` subtracts (the storage leaderboard index uses 3 too)."""

DISPLAY_BASE: Final[int] = 1000
"""The displayed rating of a player who has not played yet."""
DISPLAY_SCALE: Final[float] = 20.0
"""Displayed points per point of :func:`ordinal`."""

UserId = int


def ordinal(mu: float, sigma: float) -> float:
    """Return the conservative skill estimate ``mu - 3 * sigma`` that leaderboards sort by.

    >>> ordinal(DEFAULT_MU, DEFAULT_SIGMA)
    0.0
    """
    return mu - ORDINAL_Z * sigma


def display_rating(mu: float, sigma: float) -> int:
    """Return the rating people see: ``1000 + 20 * ordinal``, rounded.

    OpenSkill's ordinal starts at 0 and drops below it after a first loss, which reads as a
    punishment for trying a game; the display scale starts a newcomer at 1000 and keeps every
    realistic rating positive while sorting exactly as the ordinal does.

    >>> display_rating(DEFAULT_MU, DEFAULT_SIGMA)
    1000
    """
    return round(DISPLAY_BASE + DISPLAY_SCALE * ordinal(mu, sigma))


class Rating(NamedTuple):
    """One player's skill belief: mean ``mu`` and uncertainty ``sigma``."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        """Return ``mu - 3 * sigma``."""
        return ordinal(self.mu, self.sigma)


class RatedSeat(Protocol):
    """What :func:`rate_outcome` reads from a seat (``bot.storage.SeatRow`` fits)."""

    @property
    def seat(self) -> int | None:
        """The seat number, ``None`` for a lobby seat."""
        ...

    @property
    def user_id(self) -> int | None:
        """The Discord user, ``None`` for an AI seat."""
        ...

    @property
    def is_ai(self) -> bool:
        """Whether an AI holds the seat (an autopiloted human seat is not an AI seat)."""
        ...


def rate_result(
    prior: Mapping[UserId, tuple[float, float] | None],
    ranks: Sequence[tuple[UserId, int]],
    teams: Sequence[Sequence[UserId]] | None = None,
) -> dict[UserId, Rating]:
    """Rate one finished game.

    Args:
        prior: Each player's ``(mu, sigma)`` before the game; a missing or ``None`` entry means a new
            player with the default rating.
        ranks: ``(user_id, rank)`` for every rated player; rank 0 is first, equal ranks are ties.
        teams: The players of each team, or ``None`` for free-for-all. Every ranked player must be in
            exactly one team, and all members of a team must share a rank.

    Returns:
        The new rating of every ranked player, or an empty dict if fewer than two sides (players or
        teams) took part, in which case nobody's rating changes.

    Raises:
        ValueError: A player is ranked twice, a team member is not ranked (or the reverse), a player
            is in two teams, or a team's members have different ranks.
    """
    rank_of: dict[UserId, int] = {}
    for user_id, rank in ranks:
        if user_id in rank_of:
            raise ValueError(f"user {user_id} is ranked twice")
        rank_of[user_id] = rank

    sides: list[list[UserId]]
    if teams is None:
        sides = [[user_id] for user_id in rank_of]
    else:
        sides = [list(team) for team in teams if team]
        members = [user_id for side in sides for user_id in side]
        if len(members) != len(set(members)):
            raise ValueError("a player is in more than one team")
        if set(members) != set(rank_of):
            raise ValueError("teams and ranks must name the same players")
        for side in sides:
            if len({rank_of[user_id] for user_id in side}) != 1:
                raise ValueError(f"team {side} has members with different ranks")
    if len(sides) < 2:  # a rating needs an opponent
        return {}

    def _prior(user_id: UserId) -> PlackettLuceRating:
        belief = prior.get(user_id)
        return _MODEL.rating() if belief is None else _MODEL.rating(mu=belief[0], sigma=belief[1])

    rated = _MODEL.rate(
        [[_prior(user_id) for user_id in side] for side in sides],
        ranks=[float(rank_of[side[0]]) for side in sides],
    )
    return {
        user_id: Rating(player.mu, player.sigma)
        for side, new_side in zip(sides, rated, strict=True)
        for user_id, player in zip(side, new_side, strict=True)
    }


def winning_seats(outcome: Outcome) -> frozenset[int]:
    """Return the seats that share the best rank (a win for rating statistics).

    >>> sorted(winning_seats(Outcome(ranks=(1, 0, 0))))
    [1, 2]
    """
    best = min(outcome.ranks)
    return frozenset(seat for seat, rank in enumerate(outcome.ranks) if rank == best)


def rate_outcome(
    prior: Mapping[UserId, tuple[float, float] | None],
    seats: Iterable[RatedSeat],
    outcome: Outcome,
) -> dict[UserId, Rating]:
    """Rate a finished game from its seats and the engine's outcome, leaving AI seats out.

    AI seats are dropped before rating (a team keeps its human members; a team of AIs only drops
    out). If fewer than two rated sides remain, nobody's rating changes.

    Args:
        prior: Each human's ``(mu, sigma)`` before the game, as for :func:`rate_result`.
        seats: The table's seats after the start (every one has a seat number).
        outcome: The engine's outcome, indexed by seat.

    Returns:
        The new rating of every rated human, or an empty dict when nothing is rated.

    Raises:
        ValueError: A seat has no seat number or lies outside the outcome's ranks.
    """
    humans: dict[int, UserId] = {}
    for seat in seats:
        if seat.seat is None or not 0 <= seat.seat < len(outcome.ranks):
            raise ValueError(f"seat {seat.seat} is not in an outcome of {len(outcome.ranks)} seats")
        if not seat.is_ai and seat.user_id is not None:
            humans[seat.seat] = seat.user_id
    ranks = [(user_id, outcome.ranks[seat]) for seat, user_id in sorted(humans.items())]
    teams = None
    if outcome.teams is not None:
        teams = [[humans[seat] for seat in team if seat in humans] for team in outcome.teams]
    return rate_result(prior, ranks, teams)
