"""The PostgreSQL store (asyncpg): the SQLite store's tables, rules and errors, for several bot processes.

Chosen by a ``postgresql://`` URL (``DATABASE_URL``). A pool of connections lets clicks on
different tables commit at the same time. Every write is one transaction at READ COMMITTED, and
where SQLite could rely on its single writer, the writes here take row locks instead:

* Lobby changes and Start lock the table's row (``SELECT … FOR UPDATE``) before checking it, so ten
  joins at once never overfill a lobby and two Start clicks start a table once.
* :meth:`PostgresStorage.commit_action` runs ``UPDATE tables … WHERE id = $4 AND version = $5 AND
  status = 'active'``. A rival transaction's UPDATE of the same row waits for the first to commit,
  re-reads the row, no longer matches and writes nothing: :class:`VersionConflictError`. Two
  processes can never both apply a move.
* Rating updates take a transaction advisory lock per (guild, game), so two tables finishing at
  once with the same players never lose an update (SQLite gets this from its write lock).
* Clock claims lock the clock rows: :meth:`PostgresStorage.claim_due_clocks` uses
  ``FOR UPDATE SKIP LOCKED``, so rival processes claim disjoint sets without waiting on each other.

Migrations are ``migrations/postgres/NNNN_name.sql``, the same numbers and columns as SQLite's.
They run under a session advisory lock, each in its own transaction with its ``schema_migrations``
row, so processes starting at once apply each exactly once and a failing one leaves nothing behind.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Final, Self, TypeAlias

import asyncpg
from typing_extensions import override

from bot.storage._migrate import Migration, bundled_migrations
from bot.storage._rows import (
    CLOCK_COLUMNS,
    LIVE,
    LOG_COLUMNS,
    SEAT_COLUMNS,
    SELECT_GUILD_SETTINGS,
    SELECT_RATING,
    SELECT_SEAT,
    SELECT_TABLE,
    SNAPSHOT_COLUMNS,
    TABLE_COLUMNS,
    RatedSeat,
    check_clock,
    clock_row,
    guild_settings_row,
    json_text,
    log_row,
    rate_finish,
    rating_row,
    seat_row,
    snapshot_row,
    table_row,
    upsert_guild_setting,
)
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
    from asyncpg.pool import PoolConnectionProxy

    from bot.shards import Shards

    _Conn: TypeAlias = PoolConnectionProxy[asyncpg.Record]

__all__ = ["PostgresStorage", "apply_pg_migrations"]

_MIGRATION_LOCK: Final = 0x7461626C65746F70  # any fixed key; shared by every process of this bot

_CREATE_SCHEMA_MIGRATIONS = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    integer PRIMARY KEY,
    name       text    NOT NULL,
    applied_at double precision NOT NULL
)
"""
_INSERT_TABLE = (
    "INSERT INTO tables (guild_id, channel_id, game, host_id, status, options, seed, locale, version, "  # noqa: S608 - constant column list
    "rematch_of, created_at, updated_at) VALUES ($1, $2, $3, $4, 'lobby', $5, $6, $7, $8, $9, $10, $11) "
    f"RETURNING {TABLE_COLUMNS}"
)
_INSERT_SEAT = (
    "INSERT INTO seats (table_id, position, user_id, is_ai, display_name) VALUES ($1, $2, $3, $4, $5) "  # noqa: S608 - constant column list
    f"RETURNING {SEAT_COLUMNS}"
)
_SEATS_IN_ORDER = f"{SELECT_SEAT} WHERE table_id = $1 ORDER BY seat IS NULL, seat, position"
_COMMIT_STATE = (
    "UPDATE tables SET state = $1, version = $2, updated_at = $3, state_schema = $6 "
    "WHERE id = $4 AND version = $5 AND status = 'active'"
)
_COMMIT_FINAL_STATE = (
    "UPDATE tables SET state = $1, version = $2, updated_at = $3, status = 'finished', finished_at = $3, "
    "state_schema = $6 WHERE id = $4 AND version = $5 AND status = 'active'"
)
_INSERT_LOG = (
    "INSERT INTO action_log (table_id, seq, seat, action, by_timeout, user_id, created_at) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7)"
)
# Rewriting the clock of the same prompt (same version) keeps its claim; a new prompt clears it.
_UPSERT_CLOCK = (
    "INSERT INTO clocks (table_id, version, deadline, seats) VALUES ($1, $2, $3, $4) "
    "ON CONFLICT (table_id) DO UPDATE SET "
    "claimed_by = CASE WHEN clocks.version = excluded.version THEN clocks.claimed_by END, "
    "claimed_until = CASE WHEN clocks.version = excluded.version THEN clocks.claimed_until END, "
    "version = excluded.version, deadline = excluded.deadline, seats = excluded.seats"
)
_DELETE_CLOCK = "DELETE FROM clocks WHERE table_id = $1"
_EXTEND_CLOCK = (
    "UPDATE clocks SET deadline = deadline + $1 WHERE table_id = $2 AND version = $3 "  # noqa: S608 - constant
    f"RETURNING {CLOCK_COLUMNS}"
)
# The common move (no seat bookkeeping, no finish) as one statement, so one round trip: every part
# writes only if the version-checked UPDATE matched. Parameters in SELECT lists carry casts because
# PostgreSQL does not infer them from the INSERT's columns.
_MOVE_PARTS = (
    "WITH moved AS (UPDATE tables SET state = $1, version = $2, updated_at = $3, state_schema = $11::integer "
    "WHERE id = $4 AND version = $5 AND status = 'active' RETURNING id), "
    "logged AS (INSERT INTO action_log (table_id, seq, seat, action, by_timeout, user_id, created_at) "
    "SELECT id, $5::bigint, $6::integer, $7::text, $8::boolean, $9::bigint, $3::double precision FROM moved), "
    "snapped AS (INSERT INTO snapshots (table_id, version, state, state_schema) "
    "SELECT id, $2::bigint, $1::text, $11::integer FROM moved WHERE $10::boolean "
    "ON CONFLICT (table_id, version) DO UPDATE SET state = excluded.state, state_schema = excluded.state_schema), "
)
_MOVE_WITH_CLOCK = (
    _MOVE_PARTS + "clocked AS (INSERT INTO clocks (table_id, version, deadline, seats) "  # noqa: S608 - constants
    "SELECT id, $12::bigint, $13::double precision, $14::text FROM moved "
    "ON CONFLICT (table_id) DO UPDATE SET "
    "claimed_by = CASE WHEN clocks.version = excluded.version THEN clocks.claimed_by END, "
    "claimed_until = CASE WHEN clocks.version = excluded.version THEN clocks.claimed_until END, "
    "version = excluded.version, deadline = excluded.deadline, seats = excluded.seats) "
    "SELECT count(*) FROM moved"
)
_MOVE_WITHOUT_CLOCK = (
    _MOVE_PARTS  # noqa: S608 - constants
    + "unclocked AS (DELETE FROM clocks WHERE table_id IN (SELECT id FROM moved)) SELECT count(*) FROM moved"
)
_CLAIM_CLOCK = (
    "UPDATE clocks SET claimed_by = $1, claimed_until = $2 WHERE table_id = $3 AND version = $4 "
    "AND (claimed_by IS NULL OR claimed_by = $1 OR claimed_until <= $5) RETURNING claimed_until"
)
_CLAIM_DUE_CLOCKS = (
    "WITH due AS ("  # noqa: S608 - constant column list
    "SELECT c.table_id FROM clocks AS c "
    "JOIN unnest($3::bigint[], $4::bigint[]) AS w (table_id, version) "
    "ON c.table_id = w.table_id AND c.version = w.version "
    "WHERE c.deadline <= $5 AND (c.claimed_by IS NULL OR c.claimed_by = $1 OR c.claimed_until <= $5) "
    "ORDER BY c.deadline, c.table_id LIMIT $6 FOR UPDATE OF c SKIP LOCKED) "
    "UPDATE clocks AS c SET claimed_by = $1, claimed_until = $2 FROM due WHERE c.table_id = due.table_id "
    f"RETURNING {', '.join(f'c.{column}' for column in CLOCK_COLUMNS.split(', '))}"
)
_UPSERT_SNAPSHOT = (
    "INSERT INTO snapshots (table_id, version, state, state_schema) VALUES ($1, $2, $3, $4) "
    "ON CONFLICT (table_id, version) DO UPDATE SET state = excluded.state, state_schema = excluded.state_schema"
)
_SELECT_LATEST_SNAPSHOT = f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE table_id = $1 ORDER BY version DESC LIMIT 1"  # noqa: S608
_UPDATE_SEAT = "UPDATE seats SET timeouts_in_row = $1, autopilot = $2 WHERE table_id = $3 AND seat = $4"
_UPDATE_SEATS = (
    "UPDATE seats AS s SET timeouts_in_row = u.timeouts_in_row, autopilot = u.autopilot "
    "FROM unnest($2::integer[], $3::integer[], $4::boolean[]) AS u (seat, timeouts_in_row, autopilot) "
    "WHERE s.table_id = $1 AND s.seat = u.seat"
)
_UPSERT_RATING = (
    "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins, updated_at) "
    "VALUES ($1, $2, $3, $4, $5, 1, $6, $7) "
    "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
    "games = ratings.games + 1, wins = ratings.wins + excluded.wins, updated_at = excluded.updated_at"
)


def _rowcount(status: str) -> int:
    """Return the row count of a command tag such as ``UPDATE 1`` or ``INSERT 0 3``."""
    return int(status.rsplit(" ", 1)[-1])


def _rating_lock(guild_id: int, game: str) -> int:
    """Return the advisory lock key that serialises rating updates of one game on one server."""
    digest = hashlib.blake2b(f"ratings:{guild_id}:{game}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


async def apply_pg_migrations(
    conn: _Conn | asyncpg.Connection, migrations: Sequence[Migration], *, now: float
) -> list[int]:
    """Apply the migrations the database has not recorded yet, in order; return the versions applied.

    Raises:
        StorageError: The database records a migration this code does not know (a newer schema).
        asyncpg.PostgresError: A migration failed (nothing of it was kept).
    """
    await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
    try:
        await conn.execute(_CREATE_SCHEMA_MIGRATIONS)
        applied = {int(row[0]) for row in await conn.fetch("SELECT version FROM schema_migrations")}
        unknown = applied - {migration.version for migration in migrations}
        if unknown:
            raise StorageError(f"the database has migrations {sorted(unknown)} that this code does not know")
        done: list[int] = []
        for migration in migrations:
            if migration.version in applied:
                continue
            async with conn.transaction():
                await conn.execute(migration.sql)  # no arguments: the simple protocol runs a whole script
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                    migration.version,
                    migration.name,
                    now,
                )
            done.append(migration.version)
        return done
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)


class PostgresStorage(Storage):
    """Async access to the bot's PostgreSQL database; build it with :meth:`open`, end with :meth:`close`."""

    dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool[asyncpg.Record], *, snapshot_every: int = DEFAULT_SNAPSHOT_EVERY) -> None:
        """Wrap an open pool on a migrated database (use :meth:`open` instead)."""
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be at least 1")
        self._pool = pool
        self._closed = False
        self.snapshot_every = snapshot_every

    @classmethod
    @override
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        migrations: Sequence[Migration] | None = None,
        pool_size: int = DEFAULT_POOL_SIZE,
    ) -> Self:
        """Connect to the database at the ``postgresql://`` URL ``target`` and apply pending migrations.

        Args:
            target: The URL (``postgresql://user:password@host:port/database``; libpq's query
                parameters such as ``sslmode`` work too).
            snapshot_every: Snapshot a table's state whenever its version is a multiple of this.
            migrations: The migrations to apply instead of the bundled ones (tests of the migrator).
            pool_size: The most connections this storage opens at once.

        Raises:
            StorageError: The database was written by a newer schema, or a migration file is misnamed.
        """
        pool = await asyncpg.create_pool(
            os.fspath(target),
            min_size=1,
            max_size=pool_size,
            server_settings={"application_name": "tabletop-bot"},
        )
        try:
            async with pool.acquire() as conn:
                await apply_pg_migrations(
                    conn, list(bundled_migrations(cls.dialect) if migrations is None else migrations), now=time.time()
                )
            return cls(pool, snapshot_every=snapshot_every)
        except BaseException:
            await pool.close()
            raise

    @override
    async def close(self) -> None:
        """Wait for running operations to give their connections back, then close the pool."""
        if not self._closed:
            self._closed = True
            await self._pool.close()

    # -- plumbing -------------------------------------------------------------------------------

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[_Conn]:
        if self._closed:
            raise StorageError("the storage is closed")
        async with self._pool.acquire() as conn:
            yield conn

    @asynccontextmanager
    async def _transaction(self, *, snapshot: bool = False) -> AsyncIterator[_Conn]:
        """Run the body as one transaction (``snapshot``: a read-only repeatable-read one)."""
        async with self._connection() as conn:
            if snapshot:
                async with conn.transaction(isolation="repeatable_read", readonly=True):
                    yield conn
            else:
                async with conn.transaction():
                    yield conn

    async def _fetch(self, sql: str, *args: object) -> list[asyncpg.Record]:
        async with self._connection() as conn:
            return await conn.fetch(sql, *args)

    async def _write(self, sql: str, *args: object) -> int:
        async with self._connection() as conn:
            return _rowcount(await conn.execute(sql, *args))

    @staticmethod
    async def _status_error(conn: _Conn, table_id: int, allowed: tuple[TableStatus, ...]) -> StorageError:
        status = await conn.fetchval("SELECT status FROM tables WHERE id = $1", table_id)
        if status is None:
            return TableNotFoundError(table_id)
        return TableStatusError(table_id, str(status), tuple(value.value for value in allowed))

    @staticmethod
    async def _lock_lobby(conn: _Conn, table_id: int) -> None:
        """Lock the table's row and check that it is a lobby (lobby writes then run one at a time)."""
        status = await conn.fetchval("SELECT status FROM tables WHERE id = $1 FOR UPDATE", table_id)
        if status is None:
            raise TableNotFoundError(table_id)
        if status != TableStatus.LOBBY:
            raise TableStatusError(table_id, status, (TableStatus.LOBBY.value,))

    # -- lobby ----------------------------------------------------------------------------------

    @override
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
        async with self._connection() as conn:
            row = await conn.fetchrow(
                _INSERT_TABLE,
                guild_id,
                channel_id,
                game,
                host_id,
                json_text(options),
                seed,
                locale,
                LOBBY_VERSION,
                rematch_of,
                now,
                now,
            )
        assert row is not None  # noqa: S101 - INSERT … RETURNING returns the row
        return table_row(row)

    @override
    async def set_lobby_message(self, table_id: int, message_id: int | None) -> None:
        if not await self._write("UPDATE tables SET lobby_message_id = $1 WHERE id = $2", message_id, table_id):
            raise TableNotFoundError(table_id)

    @override
    async def add_lobby_seat(
        self, table_id: int, user_id: int | None, is_ai: bool, display_name: str, *, max_seats: int
    ) -> SeatRow:
        if is_ai != (user_id is None):
            raise ValueError(f"an AI seat has no user id and a human seat has one (user_id={user_id}, is_ai={is_ai})")
        async with self._transaction() as conn:
            await self._lock_lobby(conn, table_id)
            counts = await conn.fetchrow(
                "SELECT count(*), coalesce(max(position), -1), count(*) FILTER (WHERE user_id = $2) "
                "FROM seats WHERE table_id = $1",
                table_id,
                user_id,
            )
            assert counts is not None  # noqa: S101 - an aggregate always returns a row
            count, last_position, already = counts
            if user_id is not None and already:
                raise AlreadySeatedError(table_id, user_id)
            if count >= max_seats:
                raise TableFullError(table_id, max_seats)
            row = await conn.fetchrow(_INSERT_SEAT, table_id, last_position + 1, user_id, bool(is_ai), display_name)
        assert row is not None  # noqa: S101 - INSERT … RETURNING returns the row
        return seat_row(row)

    @override
    async def remove_lobby_seat(self, table_id: int, user_id: int) -> bool:
        return await self._remove_from_lobby(
            table_id, "DELETE FROM seats WHERE table_id = $1 AND user_id = $2", user_id
        )

    @override
    async def remove_lobby_position(self, table_id: int, position: int) -> bool:
        return await self._remove_from_lobby(
            table_id, "DELETE FROM seats WHERE table_id = $1 AND position = $2", position
        )

    async def _remove_from_lobby(self, table_id: int, sql: str, value: int) -> bool:
        async with self._transaction() as conn:
            await self._lock_lobby(conn, table_id)
            return _rowcount(await conn.execute(sql, table_id, value)) > 0

    @override
    async def lobby_seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._fetch(f"{SELECT_SEAT} WHERE table_id = $1 ORDER BY position", table_id)
        return [seat_row(row) for row in rows]

    @override
    async def update_options(self, table_id: int, options: Mapping[str, Any]) -> None:
        async with self._transaction() as conn:
            status = await conn.execute(
                "UPDATE tables SET options = $1 WHERE id = $2 AND status = 'lobby'", json_text(options), table_id
            )
            if _rowcount(status) == 0:
                raise await self._status_error(conn, table_id, (TableStatus.LOBBY,))

    # -- start ----------------------------------------------------------------------------------

    @override
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
        if clock is not None:
            check_clock(clock, table_id, version)
        async with self._transaction() as conn:
            await self._lock_lobby(conn, table_id)
            lobby = tuple(
                row[0]
                for row in await conn.fetch(
                    "SELECT position FROM seats WHERE table_id = $1 ORDER BY position", table_id
                )
            )
            order = lobby if positions is None else tuple(positions)
            if not order or sorted(order) != list(lobby):
                raise LobbyChangedError(table_id, lobby, order)
            await conn.executemany(
                "UPDATE seats SET seat = $1 WHERE table_id = $2 AND position = $3",
                [(seat, table_id, position) for seat, position in enumerate(order)],
            )
            if names:
                await conn.executemany(
                    "UPDATE seats SET display_name = $1 WHERE table_id = $2 AND position = $3",
                    [(name, table_id, position) for position, name in names.items()],
                )
            await conn.execute(
                "UPDATE tables SET status = 'active', state = $1, version = $2, thread_id = coalesce($3, thread_id), "
                "board_message_id = coalesce($4, board_message_id), updated_at = $5, state_schema = $7 WHERE id = $6",
                state_json,
                version,
                thread_id,
                board_message_id,
                now,
                table_id,
                state_schema,
            )
            await conn.execute(_UPSERT_SNAPSHOT, table_id, version, state_json, state_schema)
            if clock is not None:
                await self._put_clock(conn, clock)
            seated = await conn.fetch(f"{SELECT_SEAT} WHERE table_id = $1 ORDER BY seat", table_id)
        return [seat_row(row) for row in seated]

    @staticmethod
    async def _put_clock(conn: _Conn, clock: ClockRow) -> None:
        await conn.execute(_UPSERT_CLOCK, clock.table_id, clock.version, clock.deadline, json_text(list(clock.seats)))

    # -- moves ----------------------------------------------------------------------------------

    @override
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
        if new_version != expected_version + 1:
            raise ValueError(f"an action moves version {expected_version} to {expected_version + 1}, not {new_version}")
        if clock is not None:
            if finished is not None:
                raise ValueError("a finished table has no clock")
            check_clock(clock, table_id, new_version)
        if not seat_updates and finished is None:
            await self._move(table_id, expected_version, new_state_json, new_version, log, clock, now, state_schema)
            return []
        # With seats or a result to write, a move is the one-action case of a form's commit.
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
            check_clock(clock, table_id, new_version)
        changes: list[RatingChange] = []
        async with self._transaction() as conn:
            sql = _COMMIT_STATE if finished is None else _COMMIT_FINAL_STATE
            written = await conn.execute(
                sql, new_state_json, new_version, now, table_id, expected_version, state_schema
            )
            if _rowcount(written) != 1:
                row = await conn.fetchrow("SELECT version, status FROM tables WHERE id = $1", table_id)
                actual, status = (row[0], row[1]) if row is not None else (None, None)
                raise VersionConflictError(table_id, expected_version, actual, status)
            await conn.executemany(
                _INSERT_LOG,
                [
                    (table_id, expected_version + i, log.seat, log.action, bool(log.by_timeout), log.user_id, now)
                    for i, log in enumerate(logs)
                ],
            )
            if seat_updates:
                await self._update_seats(conn, table_id, [SeatUpdate(*update) for update in seat_updates])
            if clock is None:
                await conn.execute(_DELETE_CLOCK, table_id)
            else:
                await self._put_clock(conn, clock)
            if new_version % self.snapshot_every == 0:
                await conn.execute(_UPSERT_SNAPSHOT, table_id, new_version, new_state_json, state_schema)
            if finished is not None:
                changes = await self._finish(conn, table_id, finished, now)
        return changes

    async def _move(
        self,
        table_id: int,
        expected_version: int,
        new_state_json: str,
        new_version: int,
        log: LogEntry,
        clock: ClockRow | None,
        now: float,
        state_schema: int,
    ) -> None:
        """Commit a plain move in one statement (one round trip; all of it or nothing)."""
        args: list[object] = [
            new_state_json,
            new_version,
            now,
            table_id,
            expected_version,
            log.seat,
            log.action,
            bool(log.by_timeout),
            log.user_id,
            new_version % self.snapshot_every == 0,
            state_schema,
        ]
        if clock is not None:
            args += [clock.version, clock.deadline, json_text(list(clock.seats))]
        async with self._connection() as conn:
            moved = await conn.fetchval(_MOVE_WITHOUT_CLOCK if clock is None else _MOVE_WITH_CLOCK, *args)
            if moved != 1:
                row = await conn.fetchrow("SELECT version, status FROM tables WHERE id = $1", table_id)
                actual, status = (row[0], row[1]) if row is not None else (None, None)
                raise VersionConflictError(table_id, expected_version, actual, status)

    @staticmethod
    async def _update_seats(conn: _Conn, table_id: int, updates: Sequence[SeatUpdate]) -> None:
        status = await conn.execute(
            _UPDATE_SEATS,
            table_id,
            [update.seat for update in updates],
            [update.timeouts_in_row for update in updates],
            [bool(update.autopilot) for update in updates],
        )
        if _rowcount(status) != len({update.seat for update in updates}):
            seats = {row[0] for row in await conn.fetch("SELECT seat FROM seats WHERE table_id = $1", table_id)}
            missing = next(update.seat for update in updates if update.seat not in seats)
            raise SeatNotFoundError(table_id, missing)

    async def _finish(self, conn: _Conn, table_id: int, finish: FinishRow, now: float) -> list[RatingChange]:
        """Write results and ratings for a table whose status was just set to ``finished``."""
        await conn.execute(_DELETE_CLOCK, table_id)
        if not finish.results:
            return []
        rows = await conn.fetch(
            "SELECT t.guild_id, t.game, s.seat, s.user_id, s.is_ai FROM tables AS t "
            "JOIN seats AS s ON s.table_id = t.id WHERE t.id = $1 AND s.seat IS NOT NULL ORDER BY s.seat",
            table_id,
        )
        seats = {row[2]: RatedSeat(row[2], row[3], bool(row[4])) for row in rows}
        given = [result.seat for result in finish.results]
        if sorted(given) != sorted(seats):
            raise ValueError(f"results name seats {sorted(given)}, the table has seats {sorted(seats)}")
        guild_id, game = rows[0][0], rows[0][1]
        await conn.executemany(
            "INSERT INTO results (table_id, guild_id, game, seat, user_id, is_ai, rank, score, team, finished_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
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
        await conn.execute("SELECT pg_advisory_xact_lock($1)", _rating_lock(guild_id, game))
        prior_rows = await conn.fetch(
            "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = $1 AND game = $2 AND user_id = ANY($3::bigint[])",
            guild_id,
            game,
            humans,
        )
        updates, changes = rate_finish(table_id, seats, outcome, {row[0]: (row[1], row[2]) for row in prior_rows})
        if not updates:
            return []
        await self._upsert_ratings(conn, guild_id, game, updates, now)
        await conn.executemany(
            "INSERT INTO rating_changes (table_id, user_id, mu_before, sigma_before, mu_after, sigma_after) "
            "VALUES ($1, $2, $3, $4, $5, $6)",
            [(c.table_id, c.user_id, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after) for c in changes],
        )
        return changes

    @override
    async def finish_table(self, table_id: int, *, now: float, finished: FinishRow | None = None) -> list[RatingChange]:
        async with self._transaction() as conn:
            status = await conn.execute(
                "UPDATE tables SET status = 'finished', finished_at = $1, updated_at = $1 "
                "WHERE id = $2 AND status = 'active'",
                now,
                table_id,
            )
            if _rowcount(status) == 0:
                raise await self._status_error(conn, table_id, (TableStatus.ACTIVE,))
            return await self._finish(conn, table_id, finished or FinishRow(), now)

    @override
    async def cancel_table(self, table_id: int, *, now: float) -> None:
        async with self._transaction() as conn:
            status = await conn.execute(
                "UPDATE tables SET status = 'cancelled', finished_at = $1, updated_at = $1 "
                "WHERE id = $2 AND status IN ('lobby', 'active')",
                now,
                table_id,
            )
            if _rowcount(status) == 0:
                raise await self._status_error(conn, table_id, (TableStatus.LOBBY, TableStatus.ACTIVE))
            await conn.execute(_DELETE_CLOCK, table_id)

    @override
    async def quarantine_table(self, table_id: int, *, now: float) -> bool:
        async with self._transaction() as conn:
            status = await conn.execute(
                "UPDATE tables SET status = 'quarantined', finished_at = $1, updated_at = $1 "
                "WHERE id = $2 AND status IN ('lobby', 'active')",
                now,
                table_id,
            )
            await conn.execute(_DELETE_CLOCK, table_id)
            return _rowcount(status) == 1

    @override
    async def unnotified_quarantines(self, *, shards: Shards | None = None) -> list[TableRow]:
        where = f"{SELECT_TABLE} WHERE status = 'quarantined' AND NOT quarantine_notified"
        if shards is None or shards.is_all:
            rows = await self._fetch(f"{where} ORDER BY id")
        else:
            rows = await self._fetch(
                f"{where} AND ((guild_id >> 22) % $1) = ANY($2::bigint[]) ORDER BY id",
                shards.count,
                sorted(shards.ids),
            )
        return [table_row(row) for row in rows]

    @override
    async def set_quarantine_notified(self, table_id: int) -> None:
        await self._write("UPDATE tables SET quarantine_notified = true WHERE id = $1", table_id)

    @override
    async def set_archive_due(self, table_id: int, due: float | None) -> None:
        await self._write("UPDATE tables SET archive_due = $1 WHERE id = $2", due, table_id)

    @override
    async def due_archives(self, *, shards: Shards | None = None) -> list[ArchiveRow]:
        select = (
            "SELECT id, guild_id, channel_id, thread_id, archive_due FROM tables "
            "WHERE archive_due IS NOT NULL AND thread_id IS NOT NULL"
        )
        if shards is None or shards.is_all:
            rows = await self._fetch(f"{select} ORDER BY archive_due, id")
        else:
            rows = await self._fetch(
                f"{select} AND ((guild_id >> 22) % $1) = ANY($2::bigint[]) ORDER BY archive_due, id",
                shards.count,
                sorted(shards.ids),
            )
        return [ArchiveRow(int(r[0]), int(r[1]), int(r[2]), int(r[3]), float(r[4])) for r in rows]

    # -- table details --------------------------------------------------------------------------

    @override
    async def set_board_message(self, table_id: int, message_id: int | None) -> None:
        if not await self._write("UPDATE tables SET board_message_id = $1 WHERE id = $2", message_id, table_id):
            raise TableNotFoundError(table_id)

    @override
    async def set_thread(self, table_id: int, thread_id: int | None) -> None:
        if not await self._write("UPDATE tables SET thread_id = $1 WHERE id = $2", thread_id, table_id):
            raise TableNotFoundError(table_id)

    @override
    async def set_seat_autopilot(self, table_id: int, seat: int, *, autopilot: bool, timeouts_in_row: int) -> None:
        if not await self._write(_UPDATE_SEAT, timeouts_in_row, bool(autopilot), table_id, seat):
            raise SeatNotFoundError(table_id, seat)

    # -- clocks ---------------------------------------------------------------------------------

    @override
    async def set_clock(self, clock: ClockRow) -> bool:
        async with self._transaction() as conn:
            # Lock the table row: a move committing now either finished first (no match) or waits.
            active = await conn.fetchval(
                "SELECT 1 FROM tables WHERE id = $1 AND version = $2 AND status = 'active' FOR UPDATE",
                clock.table_id,
                clock.version,
            )
            if active is None:
                return False
            await self._put_clock(conn, clock)
            return True

    @override
    async def clear_clock(self, table_id: int) -> None:
        await self._write(_DELETE_CLOCK, table_id)

    @override
    async def extend_clock(self, table_id: int, version: int, seconds: float) -> ClockRow | None:
        """Extend the clock with one conditional ``UPDATE … RETURNING`` (a rival write of the row waits)."""
        rows = await self._fetch(_EXTEND_CLOCK, seconds, table_id, version)
        return clock_row(rows[0]) if rows else None

    @override
    async def claim_clock(self, table_id: int, version: int, *, owner: str, now: float, lease: float) -> ClockClaim:
        """Claim with a conditional ``UPDATE``; a rival claim of the same row waits, then finds it taken."""
        async with self._transaction() as conn:
            until = await conn.fetchval(_CLAIM_CLOCK, owner, now + lease, table_id, version, now)
            if until is not None:
                return ClockClaim(claimed=True, holder=owner, until=until)
            row = await conn.fetchrow(
                "SELECT claimed_by, claimed_until FROM clocks WHERE table_id = $1 AND version = $2", table_id, version
            )
        return ClockClaim(claimed=False, holder=row[0], until=row[1]) if row is not None else ClockClaim(claimed=False)

    @override
    async def claim_due_clocks(
        self, wanted: Mapping[int, int], *, owner: str, now: float, lease: float, limit: int | None = None
    ) -> list[ClockRow]:
        """Claim due free clocks with ``FOR UPDATE SKIP LOCKED``: rows a rival is claiming are skipped."""
        if not wanted:
            return []
        async with self._transaction() as conn:
            rows = await conn.fetch(
                _CLAIM_DUE_CLOCKS, owner, now + lease, list(wanted), list(wanted.values()), now, limit
            )
        return sorted((clock_row(row) for row in rows), key=lambda clock: (clock.deadline, clock.table_id))

    # -- queries --------------------------------------------------------------------------------

    @override
    async def get_table(self, table_id: int) -> TableRow | None:
        rows = await self._fetch(f"{SELECT_TABLE} WHERE id = $1", table_id)
        return table_row(rows[0]) if rows else None

    @override
    async def seats(self, table_id: int) -> list[SeatRow]:
        return [seat_row(row) for row in await self._fetch(_SEATS_IN_ORDER, table_id)]

    @override
    async def live_tables(self, *, shards: Shards | None = None) -> list[TableRow]:
        if shards is None or shards.is_all:
            rows = await self._fetch(f"{SELECT_TABLE} WHERE status = ANY($1::text[]) ORDER BY id", list(LIVE))
        else:
            rows = await self._fetch(
                f"{SELECT_TABLE} WHERE status = ANY($1::text[]) "
                "AND ((guild_id >> 22) % $2) = ANY($3::bigint[]) ORDER BY id",
                list(LIVE),
                shards.count,
                sorted(shards.ids),
            )
        return [table_row(row) for row in rows]

    @override
    async def tables_for_guild(
        self, guild_id: int, status: TableStatus | None = None, *, limit: int | None = None
    ) -> list[TableRow]:
        if status is None:
            rows = await self._fetch(
                f"{SELECT_TABLE} WHERE guild_id = $1 ORDER BY id DESC LIMIT $2",
                guild_id,
                limit,
            )
        else:
            rows = await self._fetch(
                f"{SELECT_TABLE} WHERE guild_id = $1 AND status = $2 ORDER BY id DESC LIMIT $3",
                guild_id,
                status.value,
                limit,
            )
        return [table_row(row) for row in rows]

    @override
    async def finished_tables(
        self, guild_id: int, *, game: str | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[TableRow]:
        rows = await self._fetch(
            f"{SELECT_TABLE} WHERE guild_id = $1 AND status = 'finished' AND ($2::text IS NULL OR game = $2) "  # noqa: S608 - constant
            "AND ($3::bigint IS NULL OR EXISTS (SELECT 1 FROM seats WHERE seats.table_id = tables.id "
            "AND seats.user_id = $3)) ORDER BY finished_at DESC, id DESC LIMIT $4",
            guild_id,
            game,
            user_id,
            max(0, limit),
        )
        return [table_row(row) for row in rows]

    @override
    async def find_active_table_for_thread(self, thread_id: int) -> TableRow | None:
        rows = await self._fetch(
            f"{SELECT_TABLE} WHERE thread_id = $1 AND status = 'active' ORDER BY id DESC LIMIT 1",
            thread_id,
        )
        return table_row(rows[0]) if rows else None

    @override
    async def all_clocks(self) -> list[ClockRow]:
        rows = await self._fetch(f"SELECT {CLOCK_COLUMNS} FROM clocks ORDER BY deadline, table_id")  # noqa: S608
        return [clock_row(row) for row in rows]

    @override
    async def get_clock(self, table_id: int) -> ClockRow | None:
        rows = await self._fetch(f"SELECT {CLOCK_COLUMNS} FROM clocks WHERE table_id = $1", table_id)  # noqa: S608
        return clock_row(rows[0]) if rows else None

    @override
    async def action_log(self, table_id: int, *, since: int = 0) -> list[ActionLogRow]:
        rows = await self._fetch(
            f"SELECT {LOG_COLUMNS} FROM action_log WHERE table_id = $1 AND seq >= $2 ORDER BY seq",  # noqa: S608
            table_id,
            since,
        )
        return [log_row(row) for row in rows]

    @override
    async def latest_snapshot(self, table_id: int) -> SnapshotRow | None:
        rows = await self._fetch(_SELECT_LATEST_SNAPSHOT, table_id)
        return snapshot_row(rows[0]) if rows else None

    @override
    async def snapshot_versions(self, table_id: int) -> list[int]:
        rows = await self._fetch("SELECT version FROM snapshots WHERE table_id = $1 ORDER BY version", table_id)
        return [int(row[0]) for row in rows]

    @override
    async def replay_data(self, table_id: int) -> ReplayData | None:
        async with self._transaction(snapshot=True) as conn:
            table = await conn.fetchrow(f"{SELECT_TABLE} WHERE id = $1", table_id)
            if table is None:
                return None
            seats = await conn.fetch(_SEATS_IN_ORDER, table_id)
            log = await conn.fetch(
                f"SELECT {LOG_COLUMNS} FROM action_log WHERE table_id = $1 ORDER BY seq",  # noqa: S608
                table_id,
            )
            snapshot = await conn.fetchrow(_SELECT_LATEST_SNAPSHOT, table_id)
        return ReplayData(
            table=table_row(table),
            seats=[seat_row(row) for row in seats],
            log=[log_row(row) for row in log],
            snapshot=None if snapshot is None else snapshot_row(snapshot),
        )

    @override
    async def results(self, table_id: int) -> list[ResultRow]:
        rows = await self._fetch(
            "SELECT table_id, guild_id, game, seat, user_id, is_ai, rank, score, team, finished_at FROM results "
            "WHERE table_id = $1 ORDER BY seat",
            table_id,
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

    @override
    async def apply_ratings(
        self, guild_id: int, game: str, updates: Iterable[tuple[int, float, float, bool]], *, now: float
    ) -> None:
        batch = [RatingUpdate(*update) for update in updates]
        async with self._transaction() as conn:
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _rating_lock(guild_id, game))
            await self._upsert_ratings(conn, guild_id, game, batch, now)

    @staticmethod
    async def _upsert_ratings(
        conn: _Conn, guild_id: int, game: str, updates: Sequence[RatingUpdate], now: float
    ) -> None:
        await conn.executemany(
            _UPSERT_RATING, [(guild_id, game, u.user_id, u.mu, u.sigma, int(u.won), now) for u in updates]
        )

    @override
    async def get_ratings(self, guild_id: int, game: str, user_ids: Iterable[int]) -> dict[int, RatingRow]:
        rows = await self._fetch(
            f"{SELECT_RATING} WHERE guild_id = $1 AND game = $2 AND user_id = ANY($3::bigint[])",
            guild_id,
            game,
            list(user_ids),
        )
        return {row[2]: rating_row(row) for row in rows}

    @override
    async def leaderboard(self, guild_id: int, game: str, *, limit: int = 10) -> list[RatingRow]:
        rows = await self._fetch(
            f"{SELECT_RATING} WHERE guild_id = $1 AND game = $2 "
            "ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT $3",
            guild_id,
            game,
            limit,
        )
        return [rating_row(row) for row in rows]

    @override
    async def player_stats(self, guild_id: int, user_id: int) -> list[RatingRow]:
        rows = await self._fetch(
            f"{SELECT_RATING} WHERE guild_id = $1 AND user_id = $2 ORDER BY game",
            guild_id,
            user_id,
        )
        return [rating_row(row) for row in rows]

    @override
    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        rows = await self._fetch(
            "SELECT table_id, user_id, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes "
            "WHERE table_id = $1 ORDER BY user_id",
            table_id,
        )
        return [RatingChange(row[0], row[1], row[2], row[3], row[4], row[5]) for row in rows]

    # -- server and member settings ------------------------------------------------------------------

    @override
    async def guild_settings(self, guild_id: int) -> GuildSettingsRow:
        async with self._transaction(snapshot=True) as conn:
            row = await conn.fetchrow(f"{SELECT_GUILD_SETTINGS} WHERE guild_id = $1", guild_id)
            channels = await conn.fetch(
                "SELECT channel_id FROM guild_channels WHERE guild_id = $1 ORDER BY channel_id", guild_id
            )
        return guild_settings_row(guild_id, row, channels)

    @override
    async def set_guild_setting(self, guild_id: int, name: str, value: str | int | bool | None, *, now: float) -> None:
        await self._write(upsert_guild_setting(name, ("$1", "$2", "$3")), guild_id, value, now)

    @override
    async def set_guild_channel(self, guild_id: int, channel_id: int, *, allowed: bool) -> bool:
        if allowed:
            sql = "INSERT INTO guild_channels (guild_id, channel_id) VALUES ($1, $2) ON CONFLICT DO NOTHING"
        else:
            sql = "DELETE FROM guild_channels WHERE guild_id = $1 AND channel_id = $2"
        return await self._write(sql, guild_id, channel_id) > 0

    @override
    async def clear_guild_channels(self, guild_id: int) -> int:
        return await self._write("DELETE FROM guild_channels WHERE guild_id = $1", guild_id)

    @override
    async def member_locales(self) -> dict[int, str]:
        rows = await self._fetch("SELECT user_id, locale FROM member_settings")
        return {int(row[0]): str(row[1]) for row in rows}

    @override
    async def set_member_locale(self, user_id: int, locale: str | None, *, now: float) -> None:
        if locale is None:
            await self._write("DELETE FROM member_settings WHERE user_id = $1", user_id)
            return
        await self._write(
            "INSERT INTO member_settings (user_id, locale, updated_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at",
            user_id,
            locale,
            now,
        )
