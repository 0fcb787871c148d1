"""The one storage interface: what the table service, cogs and tools may ask of any database.

:class:`Storage` is abstract; ``await Storage.open(target)`` picks the backend from ``target``: a
``postgresql://`` (or ``postgres://``) URL opens :class:`~bot.storage.postgres.PostgresStorage`,
anything else is a SQLite file (or ``":memory:"``) for :class:`~bot.storage.sqlite.SqliteStorage`.
Both apply the same numbered migrations (one SQL file per number and dialect) on the way, and
behave alike down to their errors: the storage test suite runs unchanged against each.

Shared promises of every backend:

* A write is one transaction; a failed write leaves nothing behind and raises a
  :class:`~bot.storage.errors.StorageError` (or ``ValueError`` for inconsistent arguments).
* Moves are optimistic: :meth:`Storage.commit_action` writes only if the table is still active at
  the expected version, so two clicks, or two processes, can never both apply a move.
* Clocks are claimed before they fire (:meth:`Storage.claim_clock`,
  :meth:`Storage.claim_due_clocks`): among processes sharing one database exactly one fires each.
* Timestamps are float unix seconds passed in by the caller; JSON is stored as the given text.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final, Self

from bot.storage.models import (
    ActionLogRow,
    ArchiveRow,
    ClockClaim,
    ClockRow,
    FinishRow,
    GuildSettingsRow,
    LogEntry,
    RatingChange,
    RatingRow,
    ReplayData,
    ResultRow,
    SeatRow,
    SnapshotRow,
    TableRow,
    TableStatus,
)

if TYPE_CHECKING:
    from bot.shards import Shards
    from bot.storage._migrate import Migration

__all__ = ["DEFAULT_POOL_SIZE", "DEFAULT_SNAPSHOT_EVERY", "POSTGRES_SCHEMES", "Storage", "is_postgres_url"]

DEFAULT_SNAPSHOT_EVERY: Final = 50
"""Write a snapshot whenever a table reaches a version divisible by this."""
DEFAULT_POOL_SIZE: Final = 10
"""Connections one process keeps at most; size PostgreSQL's ``max_connections`` for all processes."""

POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")


def is_postgres_url(target: str | os.PathLike[str]) -> bool:
    """Return whether ``target`` names a PostgreSQL database rather than a SQLite file.

    >>> is_postgres_url("postgresql://bot@db/bot"), is_postgres_url("data/bot.sqlite3")
    (True, False)
    """
    return isinstance(target, str) and target.lower().startswith(POSTGRES_SCHEMES)


class Storage(ABC):
    """Async access to the bot's database; build one with :meth:`open`, end with :meth:`close`."""

    snapshot_every: int
    """Snapshot a table's state whenever its version is a multiple of this."""

    dialect: str
    """``"sqlite"`` or ``"postgres"``: which migrations the backend applies."""

    @classmethod
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        migrations: Sequence[Migration] | None = None,
        pool_size: int = DEFAULT_POOL_SIZE,
    ) -> Storage:
        """Open the database ``target`` names and apply pending migrations.

        Args:
            target: A ``postgresql://`` URL, or a SQLite file path (``":memory:"`` for a private
                in-memory database).
            snapshot_every: Snapshot a table's state whenever its version is a multiple of this.
            migrations: The migrations to apply instead of the bundled ones (tests of the migrator).
            pool_size: PostgreSQL: the most connections opened at once (SQLite has one connection).

        Raises:
            StorageError: The database was written by a newer schema, or a migration file is misnamed.
        """
        if cls is not Storage:
            raise TypeError(f"{cls.__name__} must define open()")
        if is_postgres_url(target):
            from bot.storage.postgres import PostgresStorage  # only PostgreSQL users load asyncpg

            return await PostgresStorage.open(
                os.fspath(target), snapshot_every=snapshot_every, migrations=migrations, pool_size=pool_size
            )
        from bot.storage.sqlite import SqliteStorage  # late: that module imports this one

        return await SqliteStorage.open(target, snapshot_every=snapshot_every, migrations=migrations)

    @abstractmethod
    async def close(self) -> None:
        """Wait for running operations, then close (closing twice is harmless)."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    # -- lobby ----------------------------------------------------------------------------------

    @abstractmethod
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

    @abstractmethod
    async def set_lobby_message(self, table_id: int, message_id: int | None) -> None:
        """Record the message that shows the lobby (``TableNotFoundError`` without the table)."""

    @abstractmethod
    async def add_lobby_seat(
        self, table_id: int, user_id: int | None, is_ai: bool, display_name: str, *, max_seats: int
    ) -> SeatRow:
        """Seat a player, or an AI (``user_id=None, is_ai=True``), at the end of the lobby's join order.

        Raises ``TableNotFoundError``, ``TableStatusError`` (not a lobby), ``AlreadySeatedError``,
        ``TableFullError``, or ``ValueError`` when ``is_ai`` does not match ``user_id``.
        """

    @abstractmethod
    async def remove_lobby_seat(self, table_id: int, user_id: int) -> bool:
        """Remove a player from the lobby; return whether they had a seat."""

    @abstractmethod
    async def remove_lobby_position(self, table_id: int, position: int) -> bool:
        """Remove the lobby seat at ``position`` (e.g. an AI); return whether it existed."""

    @abstractmethod
    async def lobby_seats(self, table_id: int) -> list[SeatRow]:
        """Return the table's seats in join order."""

    @abstractmethod
    async def update_options(self, table_id: int, options: Mapping[str, Any]) -> None:
        """Replace the table's options while it is in the lobby."""

    # -- start and moves --------------------------------------------------------------------------

    @abstractmethod
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
        """Move a table from the lobby to play, atomically: seats, state, first snapshot and clock.

        ``positions`` lists the lobby positions in seat order (``None``: join order);
        ``state_schema`` is the game's state schema the state is written at; ``names`` gives seats new
        display names by lobby position. Raises
        ``TableNotFoundError``, ``TableStatusError`` (a second Start) or ``LobbyChangedError``.
        """

    @abstractmethod
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

        The state (and a snapshot of it) is stored with ``state_schema``, its game's state schema.
        Raises ``VersionConflictError`` when the table is not active at ``expected_version``.
        """

    @abstractmethod
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
        """Record several accepted actions (one decision taken whole) in a single transaction, or nothing.

        As :meth:`commit_action` for the state after the last of ``logs``: its version is
        ``expected_version + len(logs)``, and the log gets one entry per action, ``seq``
        ``expected_version`` onwards, so a replay applies them one by one. A snapshot is taken when
        the final version is a multiple of the snapshot interval. Raises ``VersionConflictError``
        when the table is not active at ``expected_version``.
        """

    @abstractmethod
    async def finish_table(self, table_id: int, *, now: float, finished: FinishRow | None = None) -> list[RatingChange]:
        """End an active table outside a move, with or without results; return the rating changes."""

    @abstractmethod
    async def cancel_table(self, table_id: int, *, now: float) -> None:
        """Cancel a lobby or an active table (no results, no ratings); its clock is removed."""

    @abstractmethod
    async def quarantine_table(self, table_id: int, *, now: float) -> bool:
        """Take a lobby or active table whose state cannot be read out of play; return whether it was live.

        Its status becomes ``quarantined`` (no longer live: its players are free), its clock is
        removed, and its rows stay as they are for whoever repairs it.
        """

    @abstractmethod
    async def unnotified_quarantines(self, *, shards: Shards | None = None) -> list[TableRow]:
        """Return the quarantined tables whose thread was not told yet, oldest first (``shards``: theirs only)."""

    @abstractmethod
    async def set_quarantine_notified(self, table_id: int) -> None:
        """Record that a quarantined table's thread was told, so it is told only once."""

    @abstractmethod
    async def set_archive_due(self, table_id: int, due: float | None) -> None:
        """Record when the thread of a table that is over is to be archived (``None``: nothing left to do)."""

    @abstractmethod
    async def due_archives(self, *, shards: Shards | None = None) -> list[ArchiveRow]:
        """Return the threads still to archive, soonest first (``shards``: their guilds' only)."""

    # -- table details ------------------------------------------------------------------------------

    @abstractmethod
    async def set_board_message(self, table_id: int, message_id: int | None) -> None:
        """Record the message that shows the board."""

    @abstractmethod
    async def set_thread(self, table_id: int, thread_id: int | None) -> None:
        """Record the thread the table plays in."""

    @abstractmethod
    async def set_seat_autopilot(self, table_id: int, seat: int, *, autopilot: bool, timeouts_in_row: int) -> None:
        """Set a seat's autopilot flag and timeout counter (``SeatNotFoundError`` without the seat)."""

    # -- clocks -------------------------------------------------------------------------------------

    @abstractmethod
    async def set_clock(self, clock: ClockRow) -> bool:
        """Replace a table's clock if the table is active at the clock's version; return whether it was."""

    @abstractmethod
    async def clear_clock(self, table_id: int) -> None:
        """Delete a table's clock, if it has one."""

    @abstractmethod
    async def extend_clock(self, table_id: int, version: int, seconds: float) -> ClockRow | None:
        """Push the deadline of the table's clock at ``version`` back by ``seconds``, in one write.

        The sum is taken in the database, so extensions from several processes add up. Returns the
        clock as extended, or ``None`` (nothing changed) when the table has no clock at ``version``.
        """

    @abstractmethod
    async def claim_clock(self, table_id: int, version: int, *, owner: str, now: float, lease: float) -> ClockClaim:
        """Claim the table's clock at ``version`` for ``owner`` until ``now + lease``.

        A claim succeeds when the clock is unclaimed, already ``owner``'s, or its claim lapsed; the
        deadline is not checked (the caller's timer decides when). A successful claim is the right
        to fire that clock: no other owner can claim it until the lease ends or the clock moves on.
        """

    @abstractmethod
    async def claim_due_clocks(
        self, wanted: Mapping[int, int], *, owner: str, now: float, lease: float, limit: int | None = None
    ) -> list[ClockRow]:
        """Claim, of the clocks ``wanted`` (table id → version), those due by ``now`` that are free.

        Free means unclaimed, ``owner``'s, or with a lapsed claim; others are skipped without
        waiting for them. Returns the clocks claimed, soonest deadline first, at most ``limit``.
        """

    # -- queries ------------------------------------------------------------------------------------

    @abstractmethod
    async def get_table(self, table_id: int) -> TableRow | None:
        """Return the table, or ``None`` if there is none with this id."""

    @abstractmethod
    async def seats(self, table_id: int) -> list[SeatRow]:
        """Return the table's seats: in seat order once started, in join order in the lobby."""

    @abstractmethod
    async def live_tables(self, *, shards: Shards | None = None) -> list[TableRow]:
        """Return every table in the lobby or in play, oldest first; with ``shards``, only their guilds'."""

    @abstractmethod
    async def tables_for_guild(
        self, guild_id: int, status: TableStatus | None = None, *, limit: int | None = None
    ) -> list[TableRow]:
        """Return a server's tables, newest first: all of them, or only those with ``status``."""

    @abstractmethod
    async def finished_tables(
        self, guild_id: int, *, game: str | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[TableRow]:
        """Return a server's finished tables, most recently finished first, at most ``limit``.

        ``game`` keeps only that game's tables; ``user_id`` only the tables that member was seated
        at. Never another server's tables, whatever the filters.
        """

    @abstractmethod
    async def find_active_table_for_thread(self, thread_id: int) -> TableRow | None:
        """Return the active table playing in this thread, if any."""

    @abstractmethod
    async def all_clocks(self) -> list[ClockRow]:
        """Return every running clock, soonest deadline first."""

    @abstractmethod
    async def get_clock(self, table_id: int) -> ClockRow | None:
        """Return the table's running clock, if any."""

    @abstractmethod
    async def action_log(self, table_id: int, *, since: int = 0) -> list[ActionLogRow]:
        """Return the table's actions with ``seq >= since``, in order."""

    @abstractmethod
    async def latest_snapshot(self, table_id: int) -> SnapshotRow | None:
        """Return the table's most recent snapshot, if any."""

    @abstractmethod
    async def snapshot_versions(self, table_id: int) -> list[int]:
        """Return the versions at which the table has snapshots, in order."""

    @abstractmethod
    async def replay_data(self, table_id: int) -> ReplayData | None:
        """Return the table with its seats, full action log and latest snapshot, read consistently."""

    @abstractmethod
    async def results(self, table_id: int) -> list[ResultRow]:
        """Return a finished table's results in seat order."""

    # -- ratings ------------------------------------------------------------------------------------

    @abstractmethod
    async def apply_ratings(
        self, guild_id: int, game: str, updates: Iterable[tuple[int, float, float, bool]], *, now: float
    ) -> None:
        """Store new ratings and count one more game (and win) for each player, in one transaction."""

    @abstractmethod
    async def get_ratings(self, guild_id: int, game: str, user_ids: Iterable[int]) -> dict[int, RatingRow]:
        """Return the stored ratings of these users in one game (users without one are absent)."""

    @abstractmethod
    async def leaderboard(self, guild_id: int, game: str, *, limit: int = 10) -> list[RatingRow]:
        """Return the top players of a game on a server by ordinal ``mu - 3 * sigma``, best first."""

    @abstractmethod
    async def player_stats(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """Return a player's rating, games and wins for every game they were rated in, by game name."""

    @abstractmethod
    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        """Return how a finished table moved its players' ratings (empty if it was not rated)."""

    # -- server and member settings ------------------------------------------------------------------

    @abstractmethod
    async def guild_settings(self, guild_id: int) -> GuildSettingsRow:
        """Return what the server chose (every field ``None`` and no channels if it chose nothing)."""

    @abstractmethod
    async def set_guild_setting(self, guild_id: int, name: str, value: str | int | bool | None, *, now: float) -> None:
        """Set one of the server's settings (a name of :data:`~bot.storage.models.GUILD_SETTINGS`); ``None`` unsets it.

        Raises ``ValueError`` for an unknown name; the database refuses values out of its checks.
        """

    @abstractmethod
    async def set_guild_channel(self, guild_id: int, channel_id: int, *, allowed: bool) -> bool:
        """Allow (or stop allowing) tables in a channel of the server; return whether anything changed."""

    @abstractmethod
    async def clear_guild_channels(self, guild_id: int) -> int:
        """Let tables be opened in any channel of the server again; return how many channels were listed."""

    @abstractmethod
    async def member_locales(self) -> dict[int, str]:
        """Return every member's chosen language for private text (members who chose none are absent)."""

    @abstractmethod
    async def set_member_locale(self, user_id: int, locale: str | None, *, now: float) -> None:
        """Store a member's language for private text; ``None`` forgets it (their client's language applies)."""
