"""What both storage backends share: column lists, row → model conversion and rating a finished table.

Both schemas have the same columns in the same order, so a row from SQLite (a tuple) and one from
PostgreSQL (an ``asyncpg.Record``) convert alike; SQLite's 0/1 flags and PostgreSQL's booleans both
pass through ``bool``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from bot.ratings import DEFAULT_MU, DEFAULT_SIGMA, rate_outcome, winning_seats
from bot.storage.models import (
    GUILD_SETTINGS,
    ActionLogRow,
    ClockRow,
    GuildSettingsRow,
    RatingChange,
    RatingRow,
    RatingUpdate,
    SeatRow,
    SnapshotRow,
    TableRow,
    TableStatus,
)
from games.core.models import Outcome


class Row(Protocol):
    """A database row read by position (a SQLite tuple or an ``asyncpg.Record``)."""

    def __getitem__(self, index: int, /) -> Any: ...


# Column lists are module constants; no caller text is ever formatted into SQL (hence the S608 noqas).
TABLE_COLUMNS = (
    "id, guild_id, channel_id, thread_id, lobby_message_id, board_message_id, game, host_id, status, "
    "options, seed, locale, state, version, rematch_of, created_at, updated_at, finished_at, state_schema"
)
SEAT_COLUMNS = "table_id, position, seat, user_id, is_ai, display_name, autopilot, timeouts_in_row"
RATING_COLUMNS = "guild_id, game, user_id, mu, sigma, games, wins, updated_at"

SELECT_TABLE = f"SELECT {TABLE_COLUMNS} FROM tables"  # noqa: S608 - constant column list
SELECT_SEAT = f"SELECT {SEAT_COLUMNS} FROM seats"  # noqa: S608 - constant column list
SELECT_RATING = f"SELECT {RATING_COLUMNS} FROM ratings"  # noqa: S608 - constant column list
LOG_COLUMNS = "table_id, seq, seat, action, by_timeout, user_id, created_at"
CLOCK_COLUMNS = "table_id, version, deadline, seats"
SNAPSHOT_COLUMNS = "table_id, version, state, state_schema"
LIVE = (TableStatus.LOBBY.value, TableStatus.ACTIVE.value)
SELECT_GUILD_SETTINGS = f"SELECT {', '.join(GUILD_SETTINGS)} FROM guild_settings"  # noqa: S608 - constant columns


def json_text(value: object) -> str:
    """Dump ``value`` as compact JSON with sorted keys, so equal values store as equal text."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def table_row(row: Row) -> TableRow:
    """Build a table from a row of ``TABLE_COLUMNS``."""
    return TableRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        thread_id=row[3],
        lobby_message_id=row[4],
        board_message_id=row[5],
        game=row[6],
        host_id=row[7],
        status=TableStatus(row[8]),
        options=json.loads(row[9]),
        seed=row[10],
        locale=row[11],
        state=row[12],
        version=row[13],
        rematch_of=row[14],
        created_at=row[15],
        updated_at=row[16],
        finished_at=row[17],
        state_schema=row[18],
    )


def seat_row(row: Row) -> SeatRow:
    """Build a seat from a row of ``SEAT_COLUMNS``."""
    return SeatRow(
        table_id=row[0],
        position=row[1],
        seat=row[2],
        user_id=row[3],
        is_ai=bool(row[4]),
        display_name=row[5],
        autopilot=bool(row[6]),
        timeouts_in_row=row[7],
    )


def log_row(row: Row) -> ActionLogRow:
    """Build a log entry from a row of ``LOG_COLUMNS``."""
    return ActionLogRow(
        table_id=row[0],
        seq=row[1],
        seat=row[2],
        action=row[3],
        by_timeout=bool(row[4]),
        user_id=row[5],
        created_at=row[6],
    )


def snapshot_row(row: Row) -> SnapshotRow:
    """Build a snapshot from a row of ``SNAPSHOT_COLUMNS``."""
    return SnapshotRow(table_id=row[0], version=row[1], state=row[2], state_schema=row[3])


def clock_row(row: Row) -> ClockRow:
    """Build a clock from a row of ``CLOCK_COLUMNS``."""
    return ClockRow(table_id=row[0], version=row[1], deadline=row[2], seats=tuple(json.loads(row[3])))


def rating_row(row: Row) -> RatingRow:
    """Build a rating from a row of ``RATING_COLUMNS``."""
    return RatingRow(
        guild_id=row[0],
        game=row[1],
        user_id=row[2],
        mu=row[3],
        sigma=row[4],
        games=row[5],
        wins=row[6],
        updated_at=row[7],
    )


def guild_settings_row(guild_id: int, row: Row | None, channels: Sequence[Row]) -> GuildSettingsRow:
    """Build a server's settings from its ``SELECT_GUILD_SETTINGS`` row (``None``: none set) and channel rows."""
    values: dict[str, Any] = {} if row is None else {name: row[i] for i, name in enumerate(GUILD_SETTINGS)}
    if values.get("reminders") is not None:
        values["reminders"] = bool(values["reminders"])  # SQLite's 0/1
    return GuildSettingsRow(guild_id=guild_id, channels=tuple(int(c[0]) for c in channels), **values)


def upsert_guild_setting(name: str, placeholders: tuple[str, str, str]) -> str:
    """Return the statement that sets one setting of a server (creating its row), for a dialect's placeholders.

    Raises:
        ValueError: ``name`` is not a setting (it is formatted into SQL, so only known names pass).
    """
    if name not in GUILD_SETTINGS:
        raise ValueError(f"unknown server setting {name!r}")
    guild, value, now = placeholders
    return (
        f"INSERT INTO guild_settings (guild_id, {name}, updated_at) VALUES ({guild}, {value}, {now}) "  # noqa: S608
        f"ON CONFLICT (guild_id) DO UPDATE SET {name} = excluded.{name}, updated_at = excluded.updated_at"
    )


def check_clock(clock: ClockRow, table_id: int, version: int) -> None:
    """Reject a clock for another table or for a version the write has not reached.

    A clock guards a *prompt*, which opens at some version and may stay open while several seats
    answer it (a response window), so its version may be older than the state being written.
    """
    if clock.table_id != table_id or clock.version > version:
        raise ValueError(
            f"clock guards table {clock.table_id} at version {clock.version}, "
            f"but the write leaves table {table_id} at version {version}"
        )


class RatedSeat(NamedTuple):
    """The fields of a seat that rating reads (fits ``bot.ratings.RatedSeat``)."""

    seat: int | None
    user_id: int | None
    is_ai: bool


def rate_finish(
    table_id: int,
    seats: Mapping[int, RatedSeat],
    outcome: Outcome,
    prior: Mapping[int, tuple[float, float]],
) -> tuple[list[RatingUpdate], list[RatingChange]]:
    """Return the humans' new ratings after a finished table and how each moved.

    ``seats`` maps engine seats to who sat there; ``prior`` holds the stored ``(mu, sigma)`` of the
    humans who have one. AI seats are never rated; empty lists mean nothing changes.
    """
    new = rate_outcome(dict(prior), seats.values(), outcome)
    if not new:
        return [], []
    winners = {seats[seat].user_id for seat in winning_seats(outcome)}
    updates = [RatingUpdate(user_id, rating.mu, rating.sigma, user_id in winners) for user_id, rating in new.items()]
    changes = [
        RatingChange(
            table_id=table_id,
            user_id=user_id,
            mu_before=prior.get(user_id, (DEFAULT_MU, DEFAULT_SIGMA))[0],
            sigma_before=prior.get(user_id, (DEFAULT_MU, DEFAULT_SIGMA))[1],
            mu_after=rating.mu,
            sigma_after=rating.sigma,
        )
        for user_id, rating in new.items()
    ]
    return updates, changes
