"""The SQLite store behind the table service: tables, seats, the action log, snapshots, clocks, results, ratings.

The embedded default backend of :class:`~bot.storage.base.Storage`.

One :class:`SqliteStorage` owns one aiosqlite connection (one worker thread) in WAL mode with
``synchronous=NORMAL`` and foreign keys on. Every operation takes the storage's ``asyncio.Lock``:
the connection is shared, so without the lock a coroutine's statement could land inside another
coroutine's open transaction, or a read could see writes that are about to be rolled back.
Transactions are short, start with ``BEGIN IMMEDIATE`` (so a second process waits on
``busy_timeout`` instead of failing half-way) and never wait on Discord.

Moves are optimistic: :meth:`SqliteStorage.commit_action` runs
``UPDATE tables … WHERE id = ? AND version = ? AND status = 'active'`` and raises
:class:`~bot.storage.errors.VersionConflictError` without writing anything when no row matches, so
two clicks (or two processes) can never both apply a move.

The action log is the source of truth: ``seq`` is the state version an action was applied to, so a
table at version ``v`` has log entries ``0 … v-1``, and ``setup(seats, options, seed)`` followed by
those actions rebuilds its state. Snapshots (at the start and every ``snapshot_every`` versions) let a
replay start part-way.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self, cast

import aiosqlite

from bot.storage._migrate import Migration, apply_migrations, bundled_migrations
from bot.storage._rows import LIVE as _LIVE
from bot.storage._rows import SEAT_COLUMNS as _SEAT_COLUMNS
from bot.storage._rows import SELECT_GUILD_SETTINGS as _SELECT_GUILD_SETTINGS
from bot.storage._rows import SELECT_RATING as _SELECT_RATING
from bot.storage._rows import SELECT_SEAT as _SELECT_SEAT
from bot.storage._rows import SELECT_TABLE as _SELECT_TABLE
from bot.storage._rows import SNAPSHOT_COLUMNS as _SNAPSHOT_COLUMNS
from bot.storage._rows import TABLE_COLUMNS as _TABLE_COLUMNS
from bot.storage._rows import RatedSeat as _RatedSeat
from bot.storage._rows import Row as _Row
from bot.storage._rows import check_clock as _check_clock
from bot.storage._rows import clock_row as _clock
from bot.storage._rows import guild_settings_row as _guild_settings
from bot.storage._rows import json_text as _json
from bot.storage._rows import log_row as _log
from bot.storage._rows import rate_finish
from bot.storage._rows import rating_row as _rating
from bot.storage._rows import seat_row as _seat
from bot.storage._rows import snapshot_row as _snapshot
from bot.storage._rows import table_row as _table
from bot.storage._rows import upsert_guild_setting as _upsert_guild_setting
from bot.storage.base import DEFAULT_POOL_SIZE, DEFAULT_SNAPSHOT_EVERY, Storage
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
    SeatRow,
    SeatUpdate,
    SnapshotRow,
    TableRow,
    TableStatus,
)

if TYPE_CHECKING:
    from bot.shards import Shards

__all__ = ["DEFAULT_SNAPSHOT_EVERY", "SqliteStorage"]

BUSY_TIMEOUT_MS = 5000
"""How long a write waits for another process's write lock before failing."""


async def _enter_wal(db: aiosqlite.Connection) -> None:
    """Switch the database to WAL, retrying while other processes opening it at once hold it.

    SQLite answers ``SQLITE_BUSY`` at once, without the busy handler, when waiting could
    deadlock: a connection that read the header and now wants the exclusive lock to change the
    journal mode, while another does the same. The loser must let go and try again.
    ``":memory:"`` stays in ``memory`` mode.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            await db.execute_fetchall("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY or time.monotonic() >= deadline:
                raise
            await asyncio.sleep(0.02)


_INSERT_TABLE = (
    "INSERT INTO tables (guild_id, channel_id, game, host_id, status, options, seed, locale, version, "  # noqa: S608 - constant column list
    f"rematch_of, created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?) RETURNING {_TABLE_COLUMNS}"
)
_INSERT_SEAT = (
    "INSERT INTO seats (table_id, position, user_id, is_ai, display_name) VALUES (?, ?, ?, ?, ?) "  # noqa: S608 - constant column list
    f"RETURNING {_SEAT_COLUMNS}"
)
_LOBBY_CHECK = (
    "SELECT t.status, "
    "(SELECT count(*) FROM seats WHERE table_id = t.id), "
    "(SELECT coalesce(max(position), -1) FROM seats WHERE table_id = t.id), "
    "(SELECT count(*) FROM seats WHERE table_id = t.id AND user_id = ?) "
    "FROM tables AS t WHERE t.id = ?"
)
_COMMIT_STATE = (
    "UPDATE tables SET state = ?, state_schema = ?, version = ?, updated_at = ? "
    "WHERE id = ? AND version = ? AND status = 'active'"
)
_COMMIT_FINAL_STATE = (
    "UPDATE tables SET state = ?, state_schema = ?, version = ?, updated_at = ?, status = 'finished', "
    "finished_at = ? WHERE id = ? AND version = ? AND status = 'active'"
)
_INSERT_LOG = (
    "INSERT INTO action_log (table_id, seq, seat, action, by_timeout, user_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
# Rewriting the clock of the same prompt (same version) keeps its claim; a new prompt clears it.
_CLOCK_UPSERT = (
    "ON CONFLICT (table_id) DO UPDATE SET "
    "claimed_by = CASE WHEN clocks.version = excluded.version THEN clocks.claimed_by END, "
    "claimed_until = CASE WHEN clocks.version = excluded.version THEN clocks.claimed_until END, "
    "version = excluded.version, deadline = excluded.deadline, seats = excluded.seats"
)
_REPLACE_CLOCK = f"INSERT INTO clocks (table_id, version, deadline, seats) VALUES (?, ?, ?, ?) {_CLOCK_UPSERT}"  # noqa: S608
_CLOCK_IS_FREE = "(claimed_by IS NULL OR claimed_by = ? OR claimed_until <= ?)"
_CLAIM_CLOCK = (
    "UPDATE clocks SET claimed_by = ?, claimed_until = ? "  # noqa: S608 - constant
    f"WHERE table_id = ? AND version = ? AND {_CLOCK_IS_FREE}"
)
_CLAIM_DUE_CLOCKS = (
    "UPDATE clocks SET claimed_by = ?, claimed_until = ? WHERE table_id IN ("
    "SELECT c.table_id FROM clocks AS c JOIN json_each(?) AS w "
    "ON c.table_id = json_extract(w.value, '$[0]') AND c.version = json_extract(w.value, '$[1]') "
    "WHERE c.deadline <= ? AND (c.claimed_by IS NULL OR c.claimed_by = ? OR c.claimed_until <= ?) "
    "ORDER BY c.deadline, c.table_id LIMIT ?) "
    "RETURNING table_id, version, deadline, seats"
)
_DELETE_CLOCK = "DELETE FROM clocks WHERE table_id = ?"
_EXTEND_CLOCK = (
    "UPDATE clocks SET deadline = deadline + ? WHERE table_id = ? AND version = ? "
    "RETURNING table_id, version, deadline, seats"
)
_INSERT_SNAPSHOT = "INSERT OR REPLACE INTO snapshots (table_id, version, state, state_schema) VALUES (?, ?, ?, ?)"
_SELECT_LATEST_SNAPSHOT = f"SELECT {_SNAPSHOT_COLUMNS} FROM snapshots WHERE table_id = ? ORDER BY version DESC LIMIT 1"  # noqa: S608
_UPDATE_SEAT = "UPDATE seats SET timeouts_in_row = ?, autopilot = ? WHERE table_id = ? AND seat = ?"
_UPSERT_RATING = (
    "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?) "
    "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
    "games = games + 1, wins = wins + excluded.wins, updated_at = excluded.updated_at"
)
_USER_IN_JSON_LIST = "user_id IN (SELECT value FROM json_each(?))"  # binds one JSON list of ids


def _commit_move(
    conn: sqlite3.Connection,
    abandoned: threading.Event,
    table_id: int,
    expected_version: int,
    new_state_json: str,
    state_schema: int,
    log: LogEntry,
    clock: ClockRow | None,
    seat_updates: Sequence[SeatUpdate],
    now: float,
    snapshot: bool,
) -> tuple[int | None, str | None] | None:
    """Write one move that does not end the game, on the connection's own thread; all or nothing.

    Returns ``None`` once committed, or the table's stored (version, status) when it is not active
    at ``expected_version`` (nothing written). Raises ``SeatNotFoundError`` (nothing written) for a
    seat update naming no seat. A caller cancelled before this starts gets nothing written.
    """
    if abandoned.is_set():
        return None
    conn.execute("BEGIN IMMEDIATE")
    try:
        cursor = conn.execute(
            _COMMIT_STATE, (new_state_json, state_schema, expected_version + 1, now, table_id, expected_version)
        )
        if cursor.rowcount != 1:
            rows = conn.execute("SELECT version, status FROM tables WHERE id = ?", (table_id,)).fetchall()
            conn.rollback()
            return (rows[0][0], rows[0][1]) if rows else (None, None)
        conn.execute(_INSERT_LOG, (table_id, expected_version, log.seat, log.action, log.by_timeout, log.user_id, now))
        if seat_updates:
            cursor = conn.executemany(
                _UPDATE_SEAT, [(u.timeouts_in_row, u.autopilot, table_id, u.seat) for u in seat_updates]
            )
            if cursor.rowcount != len(seat_updates):
                seats = {row[0] for row in conn.execute("SELECT seat FROM seats WHERE table_id = ?", (table_id,))}
                raise SeatNotFoundError(table_id, next(u.seat for u in seat_updates if u.seat not in seats))
        if clock is None:
            conn.execute(_DELETE_CLOCK, (table_id,))
        else:
            conn.execute(_REPLACE_CLOCK, (table_id, clock.version, clock.deadline, _json(list(clock.seats))))
        if snapshot:
            conn.execute(_INSERT_SNAPSHOT, (table_id, expected_version + 1, new_state_json, state_schema))
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    return None


class SqliteStorage(Storage):
    """Async access to the bot's SQLite database; build it with :meth:`open`, end with :meth:`close`."""

    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection, *, snapshot_every: int = DEFAULT_SNAPSHOT_EVERY) -> None:
        """Wrap an open, migrated connection in autocommit mode (use :meth:`open` instead)."""
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be at least 1")
        self._db = db
        self._lock = asyncio.Lock()
        self._closed = False
        self.snapshot_every = snapshot_every

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        migrations: Sequence[Migration] | None = None,
        pool_size: int = DEFAULT_POOL_SIZE,
    ) -> Self:
        """Open (creating if needed) the database at ``path`` and apply pending migrations.

        Args:
            path: A file path, or ``":memory:"`` for a private in-memory database (tests).
            snapshot_every: Snapshot a table's state whenever its version is a multiple of this.
            migrations: The migrations to apply instead of the bundled ones (tests of the migrator).
            pool_size: Not used: SQLite serves everything on one connection (accepted so that
                every backend opens alike).

        Returns:
            The open storage.

        Raises:
            StorageError: The database was written by a newer schema, or a migration file is misnamed.
        """
        db = await aiosqlite.connect(Path(path) if not isinstance(path, str) else path, isolation_level=None)
        try:
            # busy_timeout first: switching a new file to WAL takes a lock another process may hold.
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            await _enter_wal(db)
            await db.execute("PRAGMA synchronous = NORMAL")  # durable in WAL except on power loss
            await db.execute("PRAGMA foreign_keys = ON")
            await apply_migrations(
                db, list(bundled_migrations(cls.dialect) if migrations is None else migrations), now=time.time()
            )
            return cls(db, snapshot_every=snapshot_every)
        except BaseException:
            await db.close()
            raise

    async def close(self) -> None:
        """Wait for running operations, then close the connection (closing twice is harmless)."""
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self._db.close()

    # -- plumbing -------------------------------------------------------------------------------

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Run the body as one ``BEGIN IMMEDIATE`` transaction: commit on success, else roll back.

        aiosqlite runs calls in the order they are queued, so even when the awaiting task is
        cancelled the rollback runs before any later caller's statements.
        """
        async with self._use() as db:
            try:
                await db.execute("BEGIN IMMEDIATE")
                yield db
                await db.commit()
            except BaseException:
                await db.rollback()  # a no-op if the transaction never began or already ended
                raise

    @asynccontextmanager
    async def _use(self) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the connection for a series of statements no other coroutine may interleave with."""
        async with self._lock:
            if self._closed:
                raise StorageError("the storage is closed")
            yield self._db

    async def _fetchall(self, sql: str, params: Sequence[object] = ()) -> list[_Row]:
        """Run one read statement (a single statement is its own snapshot)."""
        async with self._use() as db:
            return list(await db.execute_fetchall(sql, params))

    async def _write(self, sql: str, params: Sequence[object]) -> int:
        """Run one write statement in its own implicit transaction; return the rows it changed."""
        async with self._use() as db:
            cursor = await db.execute(sql, params)
            return cursor.rowcount

    @staticmethod
    async def _status_error(db: aiosqlite.Connection, table_id: int, allowed: tuple[TableStatus, ...]) -> StorageError:
        """Explain why a status-guarded write matched no row."""
        rows = list(await db.execute_fetchall("SELECT status FROM tables WHERE id = ?", (table_id,)))
        if not rows:
            return TableNotFoundError(table_id)
        return TableStatusError(table_id, str(rows[0][0]), tuple(status.value for status in allowed))

    # -- lobby ----------------------------------------------------------------------------------

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        host_id: int,
        options: Mapping[str, Any],
        seed: str,
        locale: str,
        now: float,
        rematch_of: int | None = None,
    ) -> TableRow:
        """Create a table in the lobby (version :data:`~bot.storage.models.LOBBY_VERSION`, no state)."""
        params = (
            guild_id,
            channel_id,
            game,
            host_id,
            _json(options),
            seed,
            locale,
            LOBBY_VERSION,
            rematch_of,
            now,
            now,
        )
        async with self._transaction() as db:
            rows = list(await db.execute_fetchall(_INSERT_TABLE, params))
        return _table(rows[0])

    async def set_lobby_message(self, table_id: int, message_id: int | None) -> None:
        """Record the message that shows the lobby.

        Raises:
            TableNotFoundError: No such table.
        """
        if not await self._write("UPDATE tables SET lobby_message_id = ? WHERE id = ?", (message_id, table_id)):
            raise TableNotFoundError(table_id)

    async def add_lobby_seat(
        self, table_id: int, user_id: int | None, is_ai: bool, display_name: str, *, max_seats: int
    ) -> SeatRow:
        """Seat a player, or an AI (``user_id=None, is_ai=True``), at the end of the lobby's join order.

        Raises:
            TableNotFoundError: No such table.
            TableStatusError: The table is not in the lobby.
            AlreadySeatedError: The user already has a seat here.
            TableFullError: The lobby already holds ``max_seats`` seats.
            ValueError: ``is_ai`` does not match ``user_id`` (an AI has no user, a human has one).
        """
        if is_ai != (user_id is None):
            raise ValueError(f"an AI seat has no user id and a human seat has one (user_id={user_id}, is_ai={is_ai})")
        async with self._transaction() as db:
            rows = list(await db.execute_fetchall(_LOBBY_CHECK, (user_id, table_id)))
            if not rows:
                raise TableNotFoundError(table_id)
            status, count, last_position, already = rows[0]
            if status != TableStatus.LOBBY:
                raise TableStatusError(table_id, status, (TableStatus.LOBBY.value,))
            if user_id is not None and already:
                raise AlreadySeatedError(table_id, user_id)
            if count >= max_seats:
                raise TableFullError(table_id, max_seats)
            params = (table_id, last_position + 1, user_id, is_ai, display_name)
            inserted = list(await db.execute_fetchall(_INSERT_SEAT, params))
        return _seat(inserted[0])

    async def remove_lobby_seat(self, table_id: int, user_id: int) -> bool:
        """Remove a player from the lobby; return whether they had a seat.

        Raises:
            TableNotFoundError: No such table.
            TableStatusError: The table is not in the lobby.
        """
        return await self._remove_from_lobby(table_id, "user_id", user_id)

    async def remove_lobby_position(self, table_id: int, position: int) -> bool:
        """Remove the lobby seat at ``position`` (e.g. an AI); return whether it existed.

        Raises:
            TableNotFoundError: No such table.
            TableStatusError: The table is not in the lobby.
        """
        return await self._remove_from_lobby(table_id, "position", position)

    async def _remove_from_lobby(self, table_id: int, column: str, value: int) -> bool:
        sql = {
            "user_id": "DELETE FROM seats WHERE table_id = ? AND user_id = ?",
            "position": "DELETE FROM seats WHERE table_id = ? AND position = ?",
        }[column]
        async with self._transaction() as db:
            rows = list(await db.execute_fetchall("SELECT status FROM tables WHERE id = ?", (table_id,)))
            if not rows:
                raise TableNotFoundError(table_id)
            if rows[0][0] != TableStatus.LOBBY:
                raise TableStatusError(table_id, rows[0][0], (TableStatus.LOBBY.value,))
            cursor = await db.execute(sql, (table_id, value))
            return cursor.rowcount > 0

    async def lobby_seats(self, table_id: int) -> list[SeatRow]:
        """Return the table's seats in join order."""
        rows = await self._fetchall(f"{_SELECT_SEAT} WHERE table_id = ? ORDER BY position", (table_id,))
        return [_seat(row) for row in rows]

    async def update_options(self, table_id: int, options: Mapping[str, Any]) -> None:
        """Replace the table's options while it is in the lobby.

        Raises:
            TableNotFoundError: No such table.
            TableStatusError: The table is not in the lobby.
        """
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE tables SET options = ? WHERE id = ? AND status = 'lobby'", (_json(options), table_id)
            )
            if cursor.rowcount == 0:
                raise await self._status_error(db, table_id, (TableStatus.LOBBY,))

    # -- start ----------------------------------------------------------------------------------

    async def start_table(
        self,
        table_id: int,
        *,
        state_json: str,
        version: int,
        clock: ClockRow | None,
        now: float,
        positions: Sequence[int] | None = None,
        thread_id: int | None = None,
        board_message_id: int | None = None,
        state_schema: int = 0,
        names: Mapping[int, str] | None = None,
    ) -> list[SeatRow]:
        """Move a table from the lobby to play, atomically; a second Start fails.

        Args:
            table_id: The table.
            state_json: JSON of the engine's initial state (also stored as the first snapshot).
            version: That state's version (0 from ``setup``).
            clock: The first decision clock (guarding ``version``), if any.
            now: The current unix time.
            positions: The lobby positions in seat order (``positions[i]`` gets seat ``i``), naming every
                lobby seat once; ``None`` seats the lobby in join order. Passing it also guards against a
                lobby that changed since the state was built for it.
            thread_id: The table's thread, or ``None`` to keep the stored one.
            board_message_id: The board message, or ``None`` to keep the stored one.
            state_schema: The game's state schema ``state_json`` is written at.
            names: New display names by lobby position (AI seats renamed after their seat number).

        Returns:
            The seats in seat order.

        Raises:
            TableNotFoundError: No such table.
            TableStatusError: The table is not in the lobby (already started, finished or cancelled).
            LobbyChangedError: ``positions`` is not exactly the stored lobby (someone joined or left),
                or the lobby is empty.
        """
        if clock is not None:
            _check_clock(clock, table_id, version)
        async with self._transaction() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT t.status, s.position FROM tables AS t LEFT JOIN seats AS s ON s.table_id = t.id "
                    "WHERE t.id = ? ORDER BY s.position",
                    (table_id,),
                )
            )
            if not rows:
                raise TableNotFoundError(table_id)
            if rows[0][0] != TableStatus.LOBBY:
                raise TableStatusError(table_id, rows[0][0], (TableStatus.LOBBY.value,))
            lobby = tuple(row[1] for row in rows if row[1] is not None)
            order = lobby if positions is None else tuple(positions)
            if not order or sorted(order) != list(lobby):
                raise LobbyChangedError(table_id, lobby, order)
            await db.executemany(
                "UPDATE seats SET seat = ? WHERE table_id = ? AND position = ?",
                [(seat, table_id, position) for seat, position in enumerate(order)],
            )
            if names:
                await db.executemany(
                    "UPDATE seats SET display_name = ? WHERE table_id = ? AND position = ?",
                    [(name, table_id, position) for position, name in names.items()],
                )
            await db.execute(
                "UPDATE tables SET status = 'active', state = ?, state_schema = ?, version = ?, "
                "thread_id = coalesce(?, thread_id), board_message_id = coalesce(?, board_message_id), "
                "updated_at = ? WHERE id = ?",
                (state_json, state_schema, version, thread_id, board_message_id, now, table_id),
            )
            await db.execute(_INSERT_SNAPSHOT, (table_id, version, state_json, state_schema))
            if clock is not None:
                await db.execute(_REPLACE_CLOCK, (table_id, clock.version, clock.deadline, _json(list(clock.seats))))
            seated = list(await db.execute_fetchall(f"{_SELECT_SEAT} WHERE table_id = ? ORDER BY seat", (table_id,)))
        return [_seat(row) for row in seated]

    # -- moves ----------------------------------------------------------------------------------

    async def commit_action(
        self,
        table_id: int,
        expected_version: int,
        new_state_json: str,
        new_version: int,
        log: LogEntry,
        *,
        clock: ClockRow | None,
        seat_updates: Sequence[tuple[int, int, bool]] = (),
        finished: FinishRow | None = None,
        now: float,
        state_schema: int = 0,
    ) -> list[RatingChange]:
        """Record one accepted action in a single transaction, or nothing at all.

        Writes the new state if the table is still active at ``expected_version``, appends ``log``
        as ``seq = expected_version``, applies ``seat_updates``, replaces the clock row (or deletes
        it when ``clock`` is ``None``), snapshots when ``new_version`` is a multiple of
        ``snapshot_every``, and with ``finished`` ends the table: status ``finished``, results and,
        for a rated finish, the humans' new ratings (read, computed and written under the same write
        lock, so two tables finishing at once cannot lose a rating update).

        Args:
            table_id: The table.
            expected_version: The version the action was applied to.
            new_state_json: JSON of the state after the action.
            new_version: Its version; must be ``expected_version + 1``.
            log: The action for the log.
            clock: The next decision clock (guarding ``new_version``), or ``None`` for no clock.
            seat_updates: :class:`SeatUpdate` ``(seat, timeouts_in_row, autopilot)`` for some seats.
            finished: How the game ended, if this action ended it (then ``clock`` must be ``None``).
            now: The current unix time.
            state_schema: The game's state schema ``new_state_json`` is written at.

        Returns:
            The rating changes the finish applied (empty unless this commit finished a rated game).

        Raises:
            VersionConflictError: The table is not active at ``expected_version``; nothing was written.
            SeatNotFoundError: A seat update names a seat the table does not have; nothing was written.
            ValueError: The versions, clock or results are inconsistent; nothing was written.
        """
        if new_version != expected_version + 1:
            raise ValueError(f"an action moves version {expected_version} to {expected_version + 1}, not {new_version}")
        if clock is not None:
            if finished is not None:
                raise ValueError("a finished table has no clock")
            _check_clock(clock, table_id, new_version)
        if finished is None:
            # A move (the bot's most frequent write) runs as one call on the connection's thread: each
            # statement awaited on its own would cost a thread hand-off, and they were most of a click.
            snapshot = new_version % self.snapshot_every == 0
            updates = [SeatUpdate(*update) for update in seat_updates]
            abandoned = threading.Event()  # set when the caller is cancelled before the thread starts
            async with self._use() as db:
                on_thread = cast("Callable[..., Awaitable[tuple[int | None, str | None] | None]]", db._execute)
                try:
                    conflict = await on_thread(
                        _commit_move,
                        db._conn,
                        abandoned,
                        table_id,
                        expected_version,
                        new_state_json,
                        state_schema,
                        log,
                        clock,
                        updates,
                        now,
                        snapshot,
                    )
                except asyncio.CancelledError:
                    abandoned.set()
                    raise
            if conflict is not None:
                raise VersionConflictError(table_id, expected_version, *conflict)
            return []
        # A move that finishes the game is the one-action case of a form's commit.
        return await self.commit_actions(
            table_id,
            expected_version,
            new_state_json,
            [log],
            clock=clock,
            seat_updates=seat_updates,
            finished=finished,
            now=now,
            state_schema=state_schema,
        )

    async def commit_actions(
        self,
        table_id: int,
        expected_version: int,
        new_state_json: str,
        logs: Sequence[LogEntry],
        *,
        clock: ClockRow | None,
        seat_updates: Sequence[tuple[int, int, bool]] = (),
        finished: FinishRow | None = None,
        now: float,
        state_schema: int = 0,
    ) -> list[RatingChange]:
        """Record several accepted actions in one transaction (see :meth:`Storage.commit_actions`)."""
        if not logs:
            raise ValueError("a commit records at least one action")
        new_version = expected_version + len(logs)
        if clock is not None:
            if finished is not None:
                raise ValueError("a finished table has no clock")
            _check_clock(clock, table_id, new_version)
        async with self._transaction() as db:
            if finished is None:
                params: tuple[Any, ...] = (new_state_json, state_schema, new_version, now, table_id, expected_version)
                cursor = await db.execute(_COMMIT_STATE, params)
            else:
                params = (new_state_json, state_schema, new_version, now, now, table_id, expected_version)
                cursor = await db.execute(_COMMIT_FINAL_STATE, params)
            if cursor.rowcount != 1:
                rows = list(await db.execute_fetchall("SELECT version, status FROM tables WHERE id = ?", (table_id,)))
                actual, status = (rows[0][0], rows[0][1]) if rows else (None, None)
                raise VersionConflictError(table_id, expected_version, actual, status)
            await db.executemany(
                _INSERT_LOG,
                [
                    (table_id, expected_version + i, log.seat, log.action, log.by_timeout, log.user_id, now)
                    for i, log in enumerate(logs)
                ],
            )
            if seat_updates:
                await self._update_seats(db, table_id, [SeatUpdate(*update) for update in seat_updates])
            if clock is None:
                await db.execute(_DELETE_CLOCK, (table_id,))
            else:
                await db.execute(_REPLACE_CLOCK, (table_id, clock.version, clock.deadline, _json(list(clock.seats))))
            if new_version % self.snapshot_every == 0:
                await db.execute(_INSERT_SNAPSHOT, (table_id, new_version, new_state_json, state_schema))
            if finished is None:
                return []
            return await self._finish(db, table_id, finished, now)

    @staticmethod
    async def _update_seats(db: aiosqlite.Connection, table_id: int, updates: Sequence[SeatUpdate]) -> None:
        cursor = await db.executemany(
            _UPDATE_SEAT,
            [(update.timeouts_in_row, update.autopilot, table_id, update.seat) for update in updates],
        )
        if cursor.rowcount != len(updates):
            seats = {
                row[0] for row in await db.execute_fetchall("SELECT seat FROM seats WHERE table_id = ?", (table_id,))
            }
            missing = next(update.seat for update in updates if update.seat not in seats)
            raise SeatNotFoundError(table_id, missing)

    async def _finish(
        self, db: aiosqlite.Connection, table_id: int, finish: FinishRow, now: float
    ) -> list[RatingChange]:
        """Write results and ratings for a table whose status was just set to ``finished``."""
        await db.execute(_DELETE_CLOCK, (table_id,))
        if not finish.results:
            return []
        rows = list(
            await db.execute_fetchall(
                "SELECT t.guild_id, t.game, s.seat, s.user_id, s.is_ai FROM tables AS t "
                "JOIN seats AS s ON s.table_id = t.id WHERE t.id = ? AND s.seat IS NOT NULL ORDER BY s.seat",
                (table_id,),
            )
        )
        seats = {row[2]: _RatedSeat(row[2], row[3], bool(row[4])) for row in rows}
        given = [result.seat for result in finish.results]
        if sorted(given) != sorted(seats):
            raise ValueError(f"results name seats {sorted(given)}, the table has seats {sorted(seats)}")
        guild_id, game = rows[0][0], rows[0][1]
        await db.executemany(
            "INSERT INTO results (table_id, guild_id, game, seat, user_id, is_ai, rank, score, team, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    table_id,
                    guild_id,
                    game,
                    result.seat,
                    seats[result.seat].user_id,
                    seats[result.seat].is_ai,
                    result.rank,
                    result.score,
                    result.team,
                    now,
                )
                for result in finish.results
            ],
        )
        if not finish.rated:
            return []
        outcome = finish.outcome()
        humans = [seat.user_id for seat in seats.values() if not seat.is_ai and seat.user_id is not None]
        prior_rows = await db.execute_fetchall(
            "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ? "
            "AND user_id IN (SELECT value FROM json_each(?))",
            (guild_id, game, _json(humans)),
        )
        prior = {row[0]: (row[1], row[2]) for row in prior_rows}
        updates, changes = rate_finish(table_id, seats, outcome, prior)
        if not updates:
            return []
        await self._upsert_ratings(db, guild_id, game, updates, now)
        await db.executemany(
            "INSERT INTO rating_changes (table_id, user_id, mu_before, sigma_before, mu_after, sigma_after) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(c.table_id, c.user_id, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after) for c in changes],
        )
        return changes

    async def finish_table(self, table_id: int, *, now: float, finished: FinishRow | None = None) -> list[RatingChange]:
        """End an active table outside a move (e.g. the host ends it), with or without results.

        The state and version stay as they are; the clock is removed.

        Returns:
            The rating changes applied (empty without a rated ``finished``).

        Raises:
            TableNotFoundError: No such table.
            TableStatusError: The table is not active.
            ValueError: ``finished`` does not give exactly one result per seat.
        """
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE tables SET status = 'finished', finished_at = ?, updated_at = ? "
                "WHERE id = ? AND status = 'active'",
                (now, now, table_id),
            )
            if cursor.rowcount == 0:
                raise await self._status_error(db, table_id, (TableStatus.ACTIVE,))
            return await self._finish(db, table_id, finished or FinishRow(), now)

    async def cancel_table(self, table_id: int, *, now: float) -> None:
        """Cancel a lobby or an active table (no results, no ratings); its clock is removed.

        ``finished_at`` records when it was cancelled.

        Raises:
            TableNotFoundError: No such table.
            TableStatusError: The table already finished or was cancelled.
        """
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE tables SET status = 'cancelled', finished_at = ?, updated_at = ? "
                "WHERE id = ? AND status IN ('lobby', 'active')",
                (now, now, table_id),
            )
            if cursor.rowcount == 0:
                raise await self._status_error(db, table_id, (TableStatus.LOBBY, TableStatus.ACTIVE))
            await db.execute(_DELETE_CLOCK, (table_id,))

    async def quarantine_table(self, table_id: int, *, now: float) -> bool:
        """Take a live table whose state cannot be read out of play; return whether it was live."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE tables SET status = 'quarantined', finished_at = ?, updated_at = ? "
                "WHERE id = ? AND status IN ('lobby', 'active')",
                (now, now, table_id),
            )
            await db.execute(_DELETE_CLOCK, (table_id,))
            return cursor.rowcount == 1

    async def unnotified_quarantines(self, *, shards: Shards | None = None) -> list[TableRow]:
        """Return the quarantined tables whose thread was not told yet, oldest first."""
        where = f"{_SELECT_TABLE} WHERE status = 'quarantined' AND quarantine_notified = 0"
        if shards is None or shards.is_all:
            rows = await self._fetchall(f"{where} ORDER BY id")
        else:
            rows = await self._fetchall(
                f"{where} AND ((guild_id >> 22) % ?) IN (SELECT value FROM json_each(?)) ORDER BY id",  # noqa: S608
                (shards.count, _json(sorted(shards.ids))),
            )
        return [_table(row) for row in rows]

    async def set_quarantine_notified(self, table_id: int) -> None:
        """Record that a quarantined table's thread was told."""
        await self._write("UPDATE tables SET quarantine_notified = 1 WHERE id = ?", (table_id,))

    async def set_archive_due(self, table_id: int, due: float | None) -> None:
        """Record when the thread of a table that is over is to be archived (``None``: nothing left to do)."""
        await self._write("UPDATE tables SET archive_due = ? WHERE id = ?", (due, table_id))

    async def due_archives(self, *, shards: Shards | None = None) -> list[ArchiveRow]:
        """Return the threads still to archive, soonest first."""
        select = (
            "SELECT id, guild_id, channel_id, thread_id, archive_due FROM tables "
            "WHERE archive_due IS NOT NULL AND thread_id IS NOT NULL"
        )
        if shards is None or shards.is_all:
            rows = await self._fetchall(f"{select} ORDER BY archive_due, id")
        else:
            rows = await self._fetchall(
                f"{select} AND ((guild_id >> 22) % ?) IN (SELECT value FROM json_each(?)) "  # noqa: S608
                "ORDER BY archive_due, id",
                (shards.count, _json(sorted(shards.ids))),
            )
        return [ArchiveRow(int(r[0]), int(r[1]), int(r[2]), int(r[3]), float(r[4])) for r in rows]

    # -- table details --------------------------------------------------------------------------

    async def set_board_message(self, table_id: int, message_id: int | None) -> None:
        """Record the message that shows the board.

        Raises:
            TableNotFoundError: No such table.
        """
        if not await self._write("UPDATE tables SET board_message_id = ? WHERE id = ?", (message_id, table_id)):
            raise TableNotFoundError(table_id)

    async def set_thread(self, table_id: int, thread_id: int | None) -> None:
        """Record the thread the table plays in.

        Raises:
            TableNotFoundError: No such table.
        """
        if not await self._write("UPDATE tables SET thread_id = ? WHERE id = ?", (thread_id, table_id)):
            raise TableNotFoundError(table_id)

    async def set_seat_autopilot(self, table_id: int, seat: int, *, autopilot: bool, timeouts_in_row: int) -> None:
        """Set a seat's autopilot flag and timeout counter (e.g. on "I'm back").

        Raises:
            SeatNotFoundError: The table has no such seat.
        """
        if not await self._write(_UPDATE_SEAT, (timeouts_in_row, autopilot, table_id, seat)):
            raise SeatNotFoundError(table_id, seat)

    async def set_clock(self, clock: ClockRow) -> bool:
        """Replace a table's clock, if the table is active at the clock's version; return whether it was.

        For rescheduling outside a move (e.g. extending deadlines that passed while the bot was down).
        """
        return bool(
            await self._write(
                "INSERT INTO clocks (table_id, version, deadline, seats) SELECT ?, ?, ?, ? "  # noqa: S608 - constant
                "WHERE EXISTS (SELECT 1 FROM tables WHERE id = ? AND version = ? AND status = 'active') "
                f"{_CLOCK_UPSERT}",
                (
                    clock.table_id,
                    clock.version,
                    clock.deadline,
                    _json(list(clock.seats)),
                    clock.table_id,
                    clock.version,
                ),
            )
        )

    async def clear_clock(self, table_id: int) -> None:
        """Delete a table's clock, if it has one."""
        await self._write(_DELETE_CLOCK, (table_id,))

    async def extend_clock(self, table_id: int, version: int, seconds: float) -> ClockRow | None:
        """Extend the clock with one conditional ``UPDATE … RETURNING`` under the write lock."""
        async with self._transaction() as db:
            rows = list(await db.execute_fetchall(_EXTEND_CLOCK, (seconds, table_id, version)))
        return _clock(rows[0]) if rows else None

    async def claim_clock(self, table_id: int, version: int, *, owner: str, now: float, lease: float) -> ClockClaim:
        """Claim the clock with a conditional ``UPDATE`` (the write lock serialises rival claims)."""
        async with self._transaction() as db:
            cursor = await db.execute(_CLAIM_CLOCK, (owner, now + lease, table_id, version, owner, now))
            if cursor.rowcount == 1:
                return ClockClaim(claimed=True, holder=owner, until=now + lease)
            rows = list(
                await db.execute_fetchall(
                    "SELECT claimed_by, claimed_until FROM clocks WHERE table_id = ? AND version = ?",
                    (table_id, version),
                )
            )
        return ClockClaim(claimed=False, holder=rows[0][0], until=rows[0][1]) if rows else ClockClaim(claimed=False)

    async def claim_due_clocks(
        self, wanted: Mapping[int, int], *, owner: str, now: float, lease: float, limit: int | None = None
    ) -> list[ClockRow]:
        """Claim due free clocks with one conditional ``UPDATE … RETURNING`` under the write lock."""
        if not wanted:
            return []
        pairs = _json([[table_id, version] for table_id, version in wanted.items()])
        async with self._transaction() as db:
            rows = list(
                await db.execute_fetchall(
                    _CLAIM_DUE_CLOCKS, (owner, now + lease, pairs, now, owner, now, -1 if limit is None else limit)
                )
            )
        return sorted((_clock(row) for row in rows), key=lambda clock: (clock.deadline, clock.table_id))

    # -- queries --------------------------------------------------------------------------------

    async def get_table(self, table_id: int) -> TableRow | None:
        """Return the table, or ``None`` if there is none with this id."""
        rows = await self._fetchall(f"{_SELECT_TABLE} WHERE id = ?", (table_id,))
        return _table(rows[0]) if rows else None

    async def seats(self, table_id: int) -> list[SeatRow]:
        """Return the table's seats: in seat order once started, in join order in the lobby."""
        rows = await self._fetchall(
            f"{_SELECT_SEAT} WHERE table_id = ? ORDER BY seat IS NULL, seat, position", (table_id,)
        )
        return [_seat(row) for row in rows]

    async def live_tables(self, *, shards: Shards | None = None) -> list[TableRow]:
        """Return every table in the lobby or in play, oldest first (to re-attach after a restart).

        With ``shards`` only the tables of guilds on those shards (Discord's ``(guild_id >> 22) % count``).
        """
        if shards is None or shards.is_all:
            rows = await self._fetchall(f"{_SELECT_TABLE} WHERE status IN (?, ?) ORDER BY id", _LIVE)
        else:
            rows = await self._fetchall(
                f"{_SELECT_TABLE} WHERE status IN (?, ?) "  # noqa: S608 - constant
                "AND ((guild_id >> 22) % ?) IN (SELECT value FROM json_each(?)) ORDER BY id",
                (*_LIVE, shards.count, _json(sorted(shards.ids))),
            )
        return [_table(row) for row in rows]

    async def tables_for_guild(
        self, guild_id: int, status: TableStatus | None = None, *, limit: int | None = None
    ) -> list[TableRow]:
        """Return a server's tables, newest first: all of them, or only those with ``status``, up to ``limit``."""
        bound = -1 if limit is None else limit  # SQLite reads a negative LIMIT as "no limit"
        if status is None:
            rows = await self._fetchall(
                f"{_SELECT_TABLE} WHERE guild_id = ? ORDER BY id DESC LIMIT ?", (guild_id, bound)
            )
        else:
            rows = await self._fetchall(
                f"{_SELECT_TABLE} WHERE guild_id = ? AND status = ? ORDER BY id DESC LIMIT ?",
                (guild_id, status.value, bound),
            )
        return [_table(row) for row in rows]

    async def finished_tables(
        self, guild_id: int, *, game: str | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[TableRow]:
        """Return a server's finished tables, most recently finished first (``game``, ``user_id``: filters)."""
        rows = await self._fetchall(
            f"{_SELECT_TABLE} WHERE guild_id = ? AND status = 'finished' AND (? IS NULL OR game = ?) "  # noqa: S608 - constant
            "AND (? IS NULL OR EXISTS (SELECT 1 FROM seats WHERE seats.table_id = tables.id AND seats.user_id = ?)) "
            "ORDER BY finished_at DESC, id DESC LIMIT ?",
            (guild_id, game, game, user_id, user_id, max(0, limit)),
        )
        return [_table(row) for row in rows]

    async def find_active_table_for_thread(self, thread_id: int) -> TableRow | None:
        """Return the active table playing in this thread, if any."""
        rows = await self._fetchall(
            f"{_SELECT_TABLE} WHERE thread_id = ? AND status = 'active' ORDER BY id DESC LIMIT 1", (thread_id,)
        )
        return _table(rows[0]) if rows else None

    async def all_clocks(self) -> list[ClockRow]:
        """Return every running clock, soonest deadline first."""
        rows = await self._fetchall("SELECT table_id, version, deadline, seats FROM clocks ORDER BY deadline, table_id")
        return [_clock(row) for row in rows]

    async def get_clock(self, table_id: int) -> ClockRow | None:
        """Return the table's running clock, if any."""
        rows = await self._fetchall(
            "SELECT table_id, version, deadline, seats FROM clocks WHERE table_id = ?", (table_id,)
        )
        return _clock(rows[0]) if rows else None

    async def action_log(self, table_id: int, *, since: int = 0) -> list[ActionLogRow]:
        """Return the table's actions with ``seq >= since``, in order."""
        rows = await self._fetchall(
            "SELECT table_id, seq, seat, action, by_timeout, user_id, created_at FROM action_log "
            "WHERE table_id = ? AND seq >= ? ORDER BY seq",
            (table_id, since),
        )
        return [_log(row) for row in rows]

    async def latest_snapshot(self, table_id: int) -> SnapshotRow | None:
        """Return the table's most recent snapshot, if any."""
        rows = await self._fetchall(_SELECT_LATEST_SNAPSHOT, (table_id,))
        return _snapshot(rows[0]) if rows else None

    async def snapshot_versions(self, table_id: int) -> list[int]:
        """Return the versions at which the table has snapshots, in order."""
        rows = await self._fetchall("SELECT version FROM snapshots WHERE table_id = ? ORDER BY version", (table_id,))
        return [int(row[0]) for row in rows]

    async def replay_data(self, table_id: int) -> ReplayData | None:
        """Return the table with its seats, full action log and latest snapshot, read consistently."""
        async with self._use() as db:
            tables = list(await db.execute_fetchall(f"{_SELECT_TABLE} WHERE id = ?", (table_id,)))
            if not tables:
                return None
            seats = await db.execute_fetchall(
                f"{_SELECT_SEAT} WHERE table_id = ? ORDER BY seat IS NULL, seat, position", (table_id,)
            )
            log = await db.execute_fetchall(
                "SELECT table_id, seq, seat, action, by_timeout, user_id, created_at FROM action_log "
                "WHERE table_id = ? ORDER BY seq",
                (table_id,),
            )
            snapshots = list(await db.execute_fetchall(_SELECT_LATEST_SNAPSHOT, (table_id,)))
        snapshot = _snapshot(snapshots[0]) if snapshots else None
        return ReplayData(
            table=_table(tables[0]),
            seats=[_seat(row) for row in seats],
            log=[_log(row) for row in log],
            snapshot=snapshot,
        )

    async def results(self, table_id: int) -> list[ResultRow]:
        """Return a finished table's results in seat order."""
        rows = await self._fetchall(
            "SELECT table_id, guild_id, game, seat, user_id, is_ai, rank, score, team, finished_at FROM results "
            "WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
        return [
            ResultRow(
                table_id=row[0],
                guild_id=row[1],
                game=row[2],
                seat=row[3],
                user_id=row[4],
                is_ai=bool(row[5]),
                rank=row[6],
                score=row[7],
                team=row[8],
                finished_at=row[9],
            )
            for row in rows
        ]

    # -- ratings --------------------------------------------------------------------------------

    async def apply_ratings(
        self, guild_id: int, game: str, updates: Iterable[tuple[int, float, float, bool]], *, now: float
    ) -> None:
        """Store new ratings and count one more game (and win) for each player, in one transaction.

        Each update is a :class:`RatingUpdate` ``(user_id, mu, sigma, won)``. Finishing a rated table
        already does this atomically inside ``commit_action``; use this to import or recompute.
        """
        batch = [RatingUpdate(*update) for update in updates]
        async with self._transaction() as db:
            await self._upsert_ratings(db, guild_id, game, batch, now)

    @staticmethod
    async def _upsert_ratings(
        db: aiosqlite.Connection, guild_id: int, game: str, updates: Sequence[RatingUpdate], now: float
    ) -> None:
        await db.executemany(
            _UPSERT_RATING,
            [(guild_id, game, u.user_id, u.mu, u.sigma, int(u.won), now) for u in updates],
        )

    async def get_ratings(self, guild_id: int, game: str, user_ids: Iterable[int]) -> dict[int, RatingRow]:
        """Return the stored ratings of these users in one game (users without one are absent)."""
        rows = await self._fetchall(
            f"{_SELECT_RATING} WHERE guild_id = ? AND game = ? AND {_USER_IN_JSON_LIST}",
            (guild_id, game, _json(list(user_ids))),
        )
        return {row[2]: _rating(row) for row in rows}

    async def leaderboard(self, guild_id: int, game: str, *, limit: int = 10) -> list[RatingRow]:
        """Return the top players of a game on a server by ordinal ``mu - 3 * sigma``, best first."""
        rows = await self._fetchall(
            f"{_SELECT_RATING} WHERE guild_id = ? AND game = ? ORDER BY mu - 3 * sigma DESC, games DESC, user_id "
            "LIMIT ?",
            (guild_id, game, limit),
        )
        return [_rating(row) for row in rows]

    async def player_stats(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """Return a player's rating, games and wins for every game they were rated in, by game name."""
        rows = await self._fetchall(
            f"{_SELECT_RATING} WHERE guild_id = ? AND user_id = ? ORDER BY game", (guild_id, user_id)
        )
        return [_rating(row) for row in rows]

    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        """Return how a finished table moved its players' ratings (empty if it was not rated)."""
        rows = await self._fetchall(
            "SELECT table_id, user_id, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes "
            "WHERE table_id = ? ORDER BY user_id",
            (table_id,),
        )
        return [RatingChange(row[0], row[1], row[2], row[3], row[4], row[5]) for row in rows]

    # -- server and member settings ------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettingsRow:
        """Return what the server chose (every field ``None`` and no channels if it chose nothing)."""
        async with self._use() as db:  # both reads under the lock: no write comes between them
            rows = list(await db.execute_fetchall(f"{_SELECT_GUILD_SETTINGS} WHERE guild_id = ?", (guild_id,)))
            channels = list(
                await db.execute_fetchall(
                    "SELECT channel_id FROM guild_channels WHERE guild_id = ? ORDER BY channel_id", (guild_id,)
                )
            )
        return _guild_settings(guild_id, rows[0] if rows else None, channels)

    async def set_guild_setting(self, guild_id: int, name: str, value: str | int | bool | None, *, now: float) -> None:
        """Set one of the server's settings; ``None`` unsets it (``ValueError`` for an unknown name)."""
        stored = int(value) if isinstance(value, bool) else value  # STRICT tables take 0/1, not booleans
        await self._write(_upsert_guild_setting(name, ("?", "?", "?")), (guild_id, stored, now))

    async def set_guild_channel(self, guild_id: int, channel_id: int, *, allowed: bool) -> bool:
        """Allow (or stop allowing) tables in a channel of the server; return whether anything changed."""
        if allowed:
            sql = "INSERT INTO guild_channels (guild_id, channel_id) VALUES (?, ?) ON CONFLICT DO NOTHING"
        else:
            sql = "DELETE FROM guild_channels WHERE guild_id = ? AND channel_id = ?"
        return await self._write(sql, (guild_id, channel_id)) > 0

    async def clear_guild_channels(self, guild_id: int) -> int:
        """Let tables be opened in any channel of the server again; return how many channels were listed."""
        return await self._write("DELETE FROM guild_channels WHERE guild_id = ?", (guild_id,))

    async def member_locales(self) -> dict[int, str]:
        """Return every member's chosen language for private text (members who chose none are absent)."""
        rows = await self._fetchall("SELECT user_id, locale FROM member_settings")
        return {int(row[0]): str(row[1]) for row in rows}

    async def set_member_locale(self, user_id: int, locale: str | None, *, now: float) -> None:
        """Store a member's language for private text; ``None`` forgets it (their client's language applies)."""
        if locale is None:
            await self._write("DELETE FROM member_settings WHERE user_id = ?", (user_id,))
            return
        await self._write(
            "INSERT INTO member_settings (user_id, locale, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at",
            (user_id, locale, now),
        )
