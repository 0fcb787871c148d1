"""Persistence for the bot: tables, seats, action log, snapshots, clocks, results and ratings.

Nothing here imports discord (an import-linter contract enforces it). :class:`Storage` is the one
interface; ``await Storage.open(target)`` returns a :class:`SqliteStorage` for a file path (the
embedded default) or a :class:`PostgresStorage` for a ``postgresql://`` URL, and applies that
dialect's numbered migrations on the way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.storage.base import DEFAULT_SNAPSHOT_EVERY, Storage, is_postgres_url
from bot.storage.errors import (
    AlreadySeatedError,
    LobbyChangedError,
    SeatNotFoundError,
    StorageError,
    TableFullError,
    TableNotFoundError,
    TableStatusError,
    VersionConflictError,
)
from bot.storage.models import (
    GUILD_SETTINGS,
    LOBBY_VERSION,
    ActionLogRow,
    ArchiveRow,
    ClockClaim,
    ClockRow,
    FinishRow,
    GuildSettingsRow,
    LogEntry,
    RatingChange,
    RatingRow,
    RatingUpdate,
    ReplayData,
    ResultRow,
    SeatResult,
    SeatRow,
    SeatUpdate,
    SnapshotRow,
    TableRow,
    TableStatus,
)
from bot.storage.sqlite import SqliteStorage

if TYPE_CHECKING:
    from bot.storage.postgres import PostgresStorage

__all__ = [
    "DEFAULT_SNAPSHOT_EVERY",
    "GUILD_SETTINGS",
    "LOBBY_VERSION",
    "ActionLogRow",
    "AlreadySeatedError",
    "ArchiveRow",
    "ClockClaim",
    "ClockRow",
    "FinishRow",
    "GuildSettingsRow",
    "LobbyChangedError",
    "LogEntry",
    "PostgresStorage",
    "RatingChange",
    "RatingRow",
    "RatingUpdate",
    "ReplayData",
    "ResultRow",
    "SeatNotFoundError",
    "SeatResult",
    "SeatRow",
    "SeatUpdate",
    "SnapshotRow",
    "SqliteStorage",
    "Storage",
    "StorageError",
    "TableFullError",
    "TableNotFoundError",
    "TableRow",
    "TableStatus",
    "TableStatusError",
    "VersionConflictError",
    "is_postgres_url",
]


def __getattr__(name: str) -> Any:
    """Import the PostgreSQL backend (and asyncpg) only when asked for: SQLite bots start faster."""
    if name == "PostgresStorage":
        from bot.storage.postgres import PostgresStorage

        return PostgresStorage
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
