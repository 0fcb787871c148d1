"""Errors the storage layer raises when a write does not fit the stored state.

Every error subclasses :class:`StorageError`. A failed write leaves the database exactly as it was:
the transaction it ran in is rolled back before the error reaches the caller.
"""

from __future__ import annotations


class StorageError(Exception):
    """Base class of every storage error."""


class TableNotFoundError(StorageError):
    """No table has this id."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        super().__init__(f"table {table_id} does not exist")


class SeatNotFoundError(StorageError):
    """The table has no such seat."""

    def __init__(self, table_id: int, seat: int) -> None:
        self.table_id = table_id
        self.seat = seat
        super().__init__(f"table {table_id} has no seat {seat}")


class TableStatusError(StorageError):
    """The table is not in a status that allows the operation (e.g. a second Start click)."""

    def __init__(self, table_id: int, status: str, allowed: tuple[str, ...]) -> None:
        self.table_id = table_id
        self.status = status
        self.allowed = allowed
        super().__init__(f"table {table_id} is {status!r}; this needs {' or '.join(map(repr, allowed))}")


class AlreadySeatedError(StorageError):
    """The user already has a seat at this table."""

    def __init__(self, table_id: int, user_id: int) -> None:
        self.table_id = table_id
        self.user_id = user_id
        super().__init__(f"user {user_id} is already seated at table {table_id}")


class TableFullError(StorageError):
    """The lobby already holds ``max_seats`` seats."""

    def __init__(self, table_id: int, max_seats: int) -> None:
        self.table_id = table_id
        self.max_seats = max_seats
        super().__init__(f"table {table_id} is full ({max_seats} seats)")


class LobbyChangedError(StorageError):
    """The seating given to ``start_table`` does not match the lobby as stored.

    Someone joined or left between reading the lobby and starting; read it again and rebuild the state.
    """

    def __init__(self, table_id: int, expected: tuple[int, ...], given: tuple[int, ...]) -> None:
        self.table_id = table_id
        self.expected = expected
        self.given = given
        super().__init__(f"table {table_id} lobby holds positions {sorted(expected)}, start was given {list(given)}")


class VersionConflictError(StorageError):
    """The table is no longer at the version the write was computed from, or is no longer active.

    ``actual_version`` and ``status`` describe the table as stored (``None`` if it does not exist).
    Nothing was written.
    """

    def __init__(self, table_id: int, expected_version: int, actual_version: int | None, status: str | None) -> None:
        self.table_id = table_id
        self.expected_version = expected_version
        self.actual_version = actual_version
        self.status = status
        super().__init__(
            f"table {table_id}: expected active at version {expected_version}, "
            f"found {status!r} at version {actual_version}"
        )
