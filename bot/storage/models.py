"""Typed rows the storage layer returns, and the inputs its writes take.

Rows are frozen, slotted dataclasses built straight from database rows (SQLite or PostgreSQL). Game
states and actions stay JSON text here: the table service parses them with the game's own pydantic
models, so storage never parses a state it does not need. Timestamps are float unix seconds, always
passed in by the caller.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, NamedTuple

from bot.ratings import ordinal
from games.core.models import Outcome

LOBBY_VERSION: Final = -1
"""``tables.version`` while a table is in the lobby: no engine state exists yet, and no engine
version (which starts at 0) can match it, so a stale in-game button can never act on a lobby."""


class TableStatus(StrEnum):
    """Where a table is in its life: ``lobby`` → ``active`` → ``finished``, or ``cancelled``.

    ``quarantined``: its stored state could not be read back (not even through the game's upgrade
    steps); it is kept for inspection but no longer live, like a cancelled table.
    """

    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    QUARANTINED = "quarantined"

    @property
    def is_live(self) -> bool:
        """Return whether the bot must keep the table attached (lobby or active)."""
        return self in (TableStatus.LOBBY, TableStatus.ACTIVE)


@dataclass(frozen=True, slots=True)
class TableRow:
    """One table: a lobby, a game in progress, or a finished or cancelled game.

    ``version`` is the engine state version, :data:`LOBBY_VERSION` while in the lobby. ``state`` is
    the JSON of the current state, ``None`` while in the lobby. ``locale`` is the server locale used
    for public text. ``state_schema`` is the game's state schema ``state`` was written at
    (:mod:`games.core.schema`).
    """

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    lobby_message_id: int | None
    board_message_id: int | None
    game: str
    host_id: int
    status: TableStatus
    options: Mapping[str, Any]
    seed: str
    locale: str
    state: str | None
    version: int
    rematch_of: int | None
    created_at: float
    updated_at: float
    finished_at: float | None
    state_schema: int = 0


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat at a table.

    ``position`` is the join order in the lobby (never reused within a table); ``seat`` is the
    engine seat 0..n-1, assigned at the start and ``None`` before. ``user_id`` is ``None`` exactly
    when ``is_ai``. ``autopilot`` means an AI plays this human seat after repeated timeouts.
    """

    table_id: int
    position: int
    seat: int | None
    user_id: int | None
    is_ai: bool
    display_name: str
    autopilot: bool
    timeouts_in_row: int


class LogEntry(NamedTuple):
    """An accepted action to append to the log (the storage fills in its table, ``seq`` and time).

    ``action`` is the action's JSON; ``user_id`` is who clicked (``None`` for an AI, an autopilot or a
    timeout).
    """

    seat: int
    action: str
    user_id: int | None = None
    by_timeout: bool = False


@dataclass(frozen=True, slots=True)
class ActionLogRow:
    """One accepted action. ``seq`` is the state version the action was applied to (0 is the first)."""

    table_id: int
    seq: int
    seat: int
    action: str
    by_timeout: bool
    user_id: int | None
    created_at: float


@dataclass(frozen=True, slots=True)
class SnapshotRow:
    """The JSON state of a table at ``version``, written at the game's state schema ``state_schema``."""

    table_id: int
    version: int
    state: str
    state_schema: int = 0


@dataclass(frozen=True, slots=True)
class ClockRow:
    """A running decision clock: at ``deadline`` the seats in ``seats`` time out at ``version``."""

    table_id: int
    version: int
    deadline: float
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ArchiveRow:
    """A thread to archive and lock at ``due``: the thread of a table whose game is over."""

    table_id: int
    guild_id: int
    channel_id: int
    thread_id: int
    due: float


class ClockClaim(NamedTuple):
    """The answer to a clock claim.

    ``claimed``: the caller may fire the clock now. Otherwise ``holder`` holds it until ``until``
    (try again then), or both are ``None``: the table has no clock at that version any more.
    """

    claimed: bool
    holder: str | None = None
    until: float | None = None


class SeatUpdate(NamedTuple):
    """New timeout bookkeeping for one seat, written with an action."""

    seat: int
    timeouts_in_row: int
    autopilot: bool


class SeatResult(NamedTuple):
    """How one seat placed: rank 0 is first, equal ranks tie; ``team`` indexes the game's teams."""

    seat: int
    rank: int
    score: float | None = None
    team: int | None = None


@dataclass(frozen=True, slots=True)
class FinishRow:
    """How a table ends: one result per seat (or none, when it ends without a result).

    With ``rated`` the humans' ratings are updated in the same transaction that finishes the table;
    AI seats are never rated, and nothing is rated when ``results`` is empty. ``user_id`` and
    ``is_ai`` of each result come from the stored seats.
    """

    results: Sequence[SeatResult] = ()
    rated: bool = True

    @classmethod
    def from_outcome(cls, outcome: Outcome, *, rated: bool = True) -> FinishRow:
        """Build a finish from an engine's outcome (ranks, scores and teams indexed by seat)."""
        team_of: dict[int, int] = {}
        for index, team in enumerate(outcome.teams or ()):
            for seat in team:
                team_of[seat] = index
        return cls(
            results=tuple(
                SeatResult(
                    seat=seat,
                    rank=rank,
                    score=None if outcome.scores is None else outcome.scores[seat],
                    team=team_of.get(seat),
                )
                for seat, rank in enumerate(outcome.ranks)
            ),
            rated=rated,
        )

    def outcome(self) -> Outcome:
        """Return the engine outcome these results describe (ranks, scores and teams by seat)."""
        results = sorted(self.results, key=lambda result: result.seat)
        scores = [result.score for result in results]
        teams: dict[int, list[int]] = {}
        for result in results:
            if result.team is not None:
                teams.setdefault(result.team, []).append(result.seat)
        return Outcome(
            ranks=tuple(result.rank for result in results),
            scores=None if any(score is None for score in scores) else tuple(s for s in scores if s is not None),
            teams=tuple(tuple(teams[index]) for index in sorted(teams)) if teams else None,
        )


@dataclass(frozen=True, slots=True)
class ResultRow:
    """How one seat placed in a finished table."""

    table_id: int
    guild_id: int
    game: str
    seat: int
    user_id: int | None
    is_ai: bool
    rank: int
    score: float | None
    team: int | None
    finished_at: float


class RatingUpdate(NamedTuple):
    """A player's new rating after one game, and whether they won it (shared best rank)."""

    user_id: int
    mu: float
    sigma: float
    won: bool


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's rating and record in one game on one server."""

    guild_id: int
    game: str
    user_id: int
    mu: float
    sigma: float
    games: int
    wins: int
    updated_at: float

    @property
    def ordinal(self) -> float:
        """Return the leaderboard score ``mu - 3 * sigma``."""
        return ordinal(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """How one finished table moved a player's rating."""

    table_id: int
    user_id: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float

    @property
    def ordinal_delta(self) -> float:
        """Return the change of the leaderboard score (what a result card shows as ±N)."""
        return ordinal(self.mu_after, self.sigma_after) - ordinal(self.mu_before, self.sigma_before)


@dataclass(frozen=True, slots=True)
class ReplayData:
    """Everything needed to rebuild a table's state: its seed and options, seats, log and snapshot.

    Replay ``log`` from ``setup(seats, options, seed)``, or resume from ``snapshot`` with the entries
    :meth:`log_after_snapshot` returns.
    """

    table: TableRow
    seats: Sequence[SeatRow]
    log: Sequence[ActionLogRow]
    snapshot: SnapshotRow | None

    def log_after_snapshot(self) -> Sequence[ActionLogRow]:
        """Return the actions applied after the latest snapshot (all of them without one)."""
        if self.snapshot is None:
            return self.log
        return [entry for entry in self.log if entry.seq >= self.snapshot.version]


GUILD_SETTINGS: Final = (
    "locale",
    "clock_seconds",
    "reaction_seconds",
    "reminders",
    "archive_minutes",
    "max_lobbies_per_member",
    "max_tables",
)
"""The columns of a server's settings, in storage order; each may be unset (``None``)."""


@dataclass(frozen=True, slots=True)
class GuildSettingsRow:
    """What a server chose; ``None`` is "not set" (the bot's default applies).

    ``locale``: the public language (``ru``, ``en``); ``clock_seconds``: the default decision clock;
    ``reaction_seconds``: the clock of a reaction window; ``reminders``: whether awaited members are
    reminded; ``archive_minutes``: minutes after the end before the thread is archived (0: never);
    ``max_lobbies_per_member`` and ``max_tables``: the caps on open lobbies per member and on live
    tables. ``channels``: where tables may be opened, ascending (empty: anywhere).
    """

    guild_id: int
    locale: str | None = None
    clock_seconds: int | None = None
    reaction_seconds: int | None = None
    reminders: bool | None = None
    archive_minutes: int | None = None
    max_lobbies_per_member: int | None = None
    max_tables: int | None = None
    channels: tuple[int, ...] = ()
