"""Persistence for the bot: SQLite tables, seats, action log, snapshots, clocks, results and ratings.

Nothing here imports discord (an import-linter contract enforces it). Open a :class:`Storage` with
``await Storage.open(path)``; it applies the numbered migrations in ``migrations/`` on the way.
"""

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
    LOBBY_VERSION,
    ActionLogRow,
    ClockRow,
    FinishRow,
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
from bot.storage.sqlite import DEFAULT_SNAPSHOT_EVERY, Storage

__all__ = [
    "DEFAULT_SNAPSHOT_EVERY",
    "LOBBY_VERSION",
    "ActionLogRow",
    "AlreadySeatedError",
    "ClockRow",
    "FinishRow",
    "LobbyChangedError",
    "LogEntry",
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
    "Storage",
    "StorageError",
    "TableFullError",
    "TableNotFoundError",
    "TableRow",
    "TableStatus",
    "TableStatusError",
    "VersionConflictError",
]
