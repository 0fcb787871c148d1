"""The table service: one path for every game from a click to a committed, announced state.

slash command / button → validate seat and prompt → per-table lock → ``engine.apply`` → one
storage transaction (state, action log row, clock, version check) → the caller answers the
interaction → the publisher updates the board → the next clock and any AI move are scheduled.

No Discord here: the service talks to Discord only through the :class:`Publisher` it is given, so
the same code runs in the bot, in the offline demo and in the benchmarks.

Prompts. A *prompt* is one decision the table waits for; it may involve several seats at once (a
response window, a sealed choice). Components carry the version at which their prompt opened, so
when five players answer one window at once every answer is accepted, while a button from an
earlier prompt is refused as out of date. A prompt continues while the seats still awaited are a
subset of those awaited before, less the seat that just answered; anything else opens a new one.
The prompt's clock row carries that version, so prompts and their deadlines survive restarts.

Reaction windows. A prompt in which every awaited seat is only asked whether to react to someone
else's move (the engine's ``reaction_seats``: Coup's challenges and blocks, Интриги's windows) gets
the table's short reaction clock, and a pass by timeout there never counts towards "away": only the
decisions of a player's own turn do. Each awaited player may once per window take more time
(:meth:`TableService.more_time`); the later deadline is written to the clock row.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import re
import secrets
import socket
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from pydantic import BaseModel, ValidationError

from bot.i18n import SUPPORTED_LOCALES, translate
from bot.shards import Shards
from bot.storage import (
    ActionLogRow,
    AlreadySeatedError,
    ArchiveRow,
    ClockRow,
    FinishRow,
    LogEntry,
    RatingChange,
    ReplayData,
    SeatRow,
    Storage,
    TableFullError,
    TableRow,
    TableStatus,
    VersionConflictError,
)
from games.core import (
    Agent,
    BaseState,
    Event,
    GameError,
    GameRng,
    NotYourTurnError,
    Outcome,
    RandomAgent,
    StaleActionError,
    Step,
)
from games.core.protocol import Engine, pass_scope, reaction_seats
from games.core.schema import load_state, state_schema
from games.registry import AGENTS, ENGINES

log = logging.getLogger(__name__)

#: How a resignation is written in the action log (it is not an engine action).
RESIGN_ACTION = '{"kind":"resign"}'
#: Table option of lobbies opened before rematches named their first player by person: the game's
#: ``first_seat`` names a lobby position, not a seat. Still honoured for lobbies stored that way.
FIRST_SEAT_IS_LOBBY_INDEX = "first_seat_is_lobby_index"
#: Table option set by a rematch: who moves first, by person (``{"user_id": id}`` or, for an AI
#: winner, ``{"ai_name": name}``). Resolved to a seat at Start; dropped if that person left the lobby.
FIRST_PLAYER = "first_player"
#: How long agreements to end a game without a result stay valid (seconds).
END_VOTE_SECONDS = 600.0
#: Seconds a restarted bot adds to clocks that ran out while it was down, so nobody is timed out
#: for the bot's own absence.
RESTART_GRACE_SECONDS = 15.0
#: How long a process's claim on a clock it fires lasts. Firing takes milliseconds; a process that
#: dies holding a claim delays that clock by at most this long (a restart's grace covers it).
CLOCK_CLAIM_SECONDS = 10.0
#: How long a lobby waits to be started before it is cancelled (the bot's setting overrides it).
LOBBY_SECONDS = 30 * 60.0
#: Table option listing the members the host removed from the lobby: they may not join it again.
REMOVED_OPTION = "removed"


#: Seconds of a reaction window's clock (Coup's challenges and blocks …) unless the table says otherwise.
DEFAULT_REACTION_SECONDS = 15
#: Minutes after the end before a finished table's thread is archived and locked (0: never).
DEFAULT_ARCHIVE_MINUTES = 60
#: Seconds one press of "More time" adds to a reaction window's clock (each awaited player once per window).
MORE_TIME_SECONDS = 30
#: Seconds before archiving a thread is tried again after Discord failed (not after a refusal).
ARCHIVE_RETRY_SECONDS = 300.0


@functools.cache
def _ai_name_pattern() -> re.Pattern[str]:
    """Return the pattern of the lobby's numbered AI names ("ИИ 2", "AI 3") in every locale."""
    forms = (translate(locale, "ui.lobby.ai_name", n=0).replace("0", "\x00") for locale in SUPPORTED_LOCALES)
    return re.compile("|".join(re.escape(form).replace("\x00", r"\d+") for form in forms))


class TableError(GameError):
    """A platform rule was broken (not seated, not the host, table full …); nothing changed."""

    code = "table.error"


@dataclass
class Seat:
    """A seat at a table: a human (``user_id``) or an AI (``user_id is None``)."""

    seat: int
    user_id: int | None
    name: str
    is_ai: bool
    position: int = 0
    autopilot: bool = False
    timeouts_in_row: int = 0
    #: The span (the engine's ``pass_scope``) in which the player passes every reaction window in one
    #: answer, or ``None``. Kept in memory only: after a restart the player is simply asked again.
    passing: int | None = None

    @property
    def ai_controlled(self) -> bool:
        """Return whether an AI decides for this seat now."""
        return self.is_ai or self.autopilot


@dataclass
class Table:
    """A live table held in memory; the database row is the durable copy."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    host_id: int
    status: str
    options: dict[str, Any]
    seed: str
    locale: str
    seats: list[Seat] = field(default_factory=list)
    thread_id: int | None = None
    lobby_message_id: int | None = None
    board_message_id: int | None = None
    state: BaseState | None = None
    prompt_version: int = 0
    deadline: float | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    rematch_of: int | None = None
    #: Seated humans who agreed to end the game without a result, and when the first of them did.
    #: Kept in memory only: a restart forgets the agreements, so a vote is asked for again.
    end_votes: set[int] = field(default_factory=set)
    end_votes_at: float = 0.0
    #: The seats that took more time in the current prompt (each may once). Kept in memory only: the
    #: later deadline is stored, but after a restart a player may ask once more in the same window.
    extended: frozenset[int] = frozenset()
    #: When a lobby that is not started is cancelled (unix seconds; ``None`` once it has started).
    expires_at: float | None = None
    #: Whether the table was cancelled because its lobby expired (the lobby message says so).
    expired: bool = False
    # The views of the current state, built at most once per seat (a click builds the clicker's
    # panel and the board from the same state). Keyed to the state object: a new state drops them.
    _views: dict[int | None, BaseModel] = field(default_factory=dict, init=False, repr=False, compare=False)
    _views_of: BaseState | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def engine(self) -> Engine[Any]:
        """Return the rules of this table's game."""
        return ENGINES[self.game]

    @property
    def clock_seconds(self) -> int:
        """Return the length of one decision clock."""
        return int(self.options.get("clock", 90))

    @property
    def reaction_clock_seconds(self) -> int:
        """Return the clock of a decision that only asks whether to react (option ``reaction_clock``)."""
        return int(self.options.get("reaction_clock", DEFAULT_REACTION_SECONDS))

    @property
    def reminders(self) -> bool:
        """Return whether awaited humans are reminded when a fifth of their clock is left (option ``reminders``)."""
        return bool(self.options.get("reminders", True))

    @property
    def archive_minutes(self) -> int:
        """Return the minutes after the end before the thread is archived and locked (option ``archive_minutes``)."""
        return int(self.options.get("archive_minutes", DEFAULT_ARCHIVE_MINUTES))

    def clock_for(self, state: BaseState) -> int:
        """Return the clock of the decision ``state`` waits for.

        One length for every decision, and the reaction clock for a reaction window, unless the
        table keeps the rules' own clock per decision (option ``clock_by_decision``) and the game
        suggests one (``decision_seconds``).
        """
        suggest = getattr(self.engine, "decision_seconds", None)
        if self.options.get("clock_by_decision") and suggest is not None:
            seconds = suggest(state)
            if seconds is not None:
                return int(seconds)
        if self.is_reaction(state):
            return self.reaction_clock_seconds
        return self.clock_seconds

    def is_reaction(self, state: BaseState) -> bool:
        """Return whether every seat ``state`` waits for is only asked whether to react to another's move."""
        active = self.engine.active_seats(state)
        return bool(active) and active <= reaction_seats(self.engine, state)

    def standing_pass(self, index: int, state: BaseState) -> bool:
        """Return whether seat ``index`` holds a standing pass whose span still lasts in ``state``."""
        passing = self.seats[index].passing
        return passing is not None and passing == pass_scope(self.engine, state)

    def passes(self, index: int, state: BaseState) -> bool:
        """Return whether seat ``index`` stands on a pass that answers its reaction window in ``state``."""
        return self.standing_pass(index, state) and index in reaction_seats(self.engine, state)

    def answered_for(self, index: int, state: BaseState) -> bool:
        """Return whether the table answers seat ``index``'s decision in ``state`` itself (AI or standing pass)."""
        return self.seats[index].ai_controlled or self.passes(index, state)

    def timeouts_before_away(self, default: int) -> int:
        """Return how many timeouts in a row hand a seat to the AI: the game's own rule, else ``default``."""
        return int(getattr(self.engine, "timeouts_before_away", default))

    def seat_of(self, user_id: int) -> Seat | None:
        """Return the seat of ``user_id`` or ``None``."""
        return next((s for s in self.seats if s.user_id == user_id), None)

    def view(self, seat: int | None) -> BaseModel:
        """Return what ``seat`` sees of the current state (``None``: the public view)."""
        state = self.state
        if state is None:
            raise ValueError(f"table #{self.id} has not started")
        if self._views_of is not state:
            self._views = {}
            self._views_of = state
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.engine.view(state, seat)
        return view

    def names(self) -> list[str]:
        """Return the display names in seat order."""
        return [s.name for s in self.seats]

    def game_options(self) -> BaseModel:
        """Return the engine options of this table."""
        return self.engine.options_type.model_validate(self.options.get("game", {}))

    def seat_range(self) -> tuple[int, int]:
        """Return the fewest and most seats this table's options allow (a grid size may narrow them)."""
        narrow = getattr(self.engine, "seat_range", None)
        if narrow is None:
            return self.engine.min_seats, self.engine.max_seats
        low, high = narrow(self.game_options())
        return int(low), int(high)


@dataclass(frozen=True)
class TableResult:
    """The end of a game as the publisher announces it."""

    outcome: Outcome | None
    rating_changes: tuple[RatingChange, ...] = ()
    ended_by: int | None = None


class Publisher(Protocol):
    """What the table service needs from Discord (or from the demo, or a benchmark)."""

    def lobby_changed(self, table: Table) -> None:
        """Redraw the lobby message."""
        ...

    def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        """Queue a board update announcing ``events`` (the publisher filters what is public)."""
        ...

    async def game_started(self, table: Table) -> None:
        """Open the thread and post the first board; store the ids through the service."""
        ...

    async def game_finished(self, table: Table, result: TableResult) -> None:
        """Announce the result, rating changes and the Rematch button."""
        ...

    async def table_cancelled(self, table: Table, by_user: int | None) -> None:
        """Announce that the table was cancelled or ended without a result."""
        ...

    async def table_quarantined(self, table: Table) -> bool:
        """Tell the table's thread that its saved game could not be loaded; return whether it was told.

        ``table`` has its row's ids, seats and locale but no state (that is what could not be read).
        """
        ...

    async def archive_thread(self, archive: ArchiveRow) -> bool:
        """Archive and lock the thread of a table that is over; return whether that is settled.

        A thread that is gone, or that the bot may not archive, counts as settled (nothing more can
        be done); ``False`` means Discord failed and it is worth trying again.
        """
        ...


class NullPublisher:
    """A publisher that shows nothing (benchmarks, engine-only runs)."""

    def lobby_changed(self, table: Table) -> None:
        """Do nothing."""

    def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        """Do nothing."""

    async def game_started(self, table: Table) -> None:
        """Do nothing."""

    async def game_finished(self, table: Table, result: TableResult) -> None:
        """Do nothing."""

    async def table_cancelled(self, table: Table, by_user: int | None) -> None:
        """Do nothing."""

    async def table_quarantined(self, table: Table) -> bool:
        """Tell nobody; there is nobody to tell."""
        return True

    async def archive_thread(self, archive: ArchiveRow) -> bool:
        """Archive nothing; there is no thread."""
        return True


def _answered_in_person(seat: Seat) -> list[Seat]:
    """Clear ``seat``'s timeouts in a row (its player answered); return the seats whose row must be stored."""
    if not seat.timeouts_in_row:
        return []
    seat.timeouts_in_row = 0
    return [seat]


def _err(code: str, **params: str | int) -> TableError:
    return TableError(code, **params)


class TableService:
    """Owns every live table of this process and is the only writer of their state."""

    def __init__(
        self,
        storage: Storage,
        publisher: Publisher | None = None,
        *,
        ai_delay: float = 1.5,
        timeouts_before_autopilot: int = 2,
        time_fn: Callable[[], float] = time.time,
        run_clocks: bool = True,
        shards: Shards | None = None,
        owner: str | None = None,
        lobby_seconds: float = LOBBY_SECONDS,
        max_lobbies_per_member: int | None = None,
        max_tables_per_guild: int | None = None,
    ) -> None:
        """Build the service; call :meth:`restore` before serving clicks.

        ``shards``: the shards this process runs; it then restores only their guilds' tables
        (``None``: every table). ``owner`` names this process in clock claims (default: host, pid
        and a random part, so a restarted process never mistakes its dead predecessor's claims for its own).
        ``lobby_seconds``: how long a lobby may wait to be started. ``max_lobbies_per_member`` and
        ``max_tables_per_guild`` cap the open lobbies one member hosts in a server and the live
        tables (lobbies and games in play) of a server (``None``: no cap).
        """
        self.storage = storage
        self.shards = shards
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.publisher: Publisher = publisher or NullPublisher()
        self.ai_delay = ai_delay
        self.timeouts_before_autopilot = timeouts_before_autopilot
        self.now = time_fn
        self.lobby_seconds = lobby_seconds
        self.max_lobbies_per_member = max_lobbies_per_member
        self.max_tables_per_guild = max_tables_per_guild
        self.tables: dict[int, Table] = {}
        # Counting a server's tables and opening one more is one step: two /new commands at once
        # must not both pass the cap.
        self._opening = asyncio.Lock()
        self._run_clocks = run_clocks
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        #: Timers that archive the threads of tables that are over, by table id.
        self._archives: dict[int, asyncio.TimerHandle] = {}

    # ------------------------------------------------------------------ lifecycle
    async def restore(self) -> int:
        """Load every live table from storage and resume its clock; return how many.

        A table whose stored state cannot be read, even through its game's upgrade steps
        (:mod:`games.core.schema`), must not keep the others down: it is quarantined (logged with
        its id, out of play, its players free) and its thread is told once, in the background.
        """
        clocks = {c.table_id: c for c in await self.storage.all_clocks()}
        # Read before any AI move is scheduled below: an await after that would let them run mid-restore.
        archives = await self.storage.due_archives(shards=self.shards)
        now = self.now()
        for row in await self.storage.live_tables(shards=self.shards):
            seats = await self.storage.seats(row.id)
            try:
                table = self._table_from_row(row, seats)
            except Exception as error:
                # Whatever the row holds (a state an engine change broke, an unknown game, an
                # upgrade step that failed), the bot serves every other table.
                _log_unrestorable(row, error)
                await self.storage.quarantine_table(row.id, now=now)
                continue
            clock = clocks.get(row.id)
            if clock is not None:
                table.prompt_version = clock.version
                table.deadline = max(clock.deadline, now + RESTART_GRACE_SECONDS)
            elif table.state is not None:
                table.prompt_version = table.state.version
            self.tables[row.id] = table
        # Lobbies whose time ran out while the bot was down are cancelled now, never served again.
        await self.expire_due_lobbies()
        # The last reads come before any clock is armed: a clock due at once (its grace is short)
        # must not fire while restore still awaits, before it returns.
        quarantined = [
            (row, await self.storage.seats(row.id))
            for row in await self.storage.unnotified_quarantines(shards=self.shards)
        ]
        for table in self.tables.values():
            if table.status == "active":
                self._arm_clock(table)
                self._schedule_ai(table)
            else:
                self._arm_expiry(table)
        # Threads whose archive time came while the bot was down are archived now, the others on time.
        for archive in archives:
            self._arm_archive(archive)
        for row, seats in quarantined:
            self._spawn(self._tell_quarantined(row, seats))
        return len(self.tables)

    async def _tell_quarantined(self, row: TableRow, seats: Sequence[SeatRow]) -> None:
        """Post the quarantine notice of ``row`` and remember it was posted (a failed post is tried next start)."""
        shell = self._table_from_row(replace(row, state=None), seats)
        if await self.publisher.table_quarantined(shell):
            await self.storage.set_quarantine_notified(row.id)

    async def close(self) -> None:
        """Stop background work (clocks, AI moves)."""
        for handle in [*self._timers.values(), *self._archives.values()]:
            handle.cancel()
        self._timers.clear()
        self._archives.clear()
        tasks = [*self._ai_tasks.values(), *self._background]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._ai_tasks.clear()

    def _table_from_row(self, row: TableRow, seats: Sequence[SeatRow]) -> Table:
        table = Table(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            game=row.game,
            host_id=row.host_id,
            status=row.status,
            options=dict(row.options),
            seed=row.seed,
            locale=row.locale,
            thread_id=row.thread_id,
            lobby_message_id=row.lobby_message_id,
            board_message_id=row.board_message_id,
            rematch_of=row.rematch_of,
            # From the stored creation time, so a restart keeps the lobby's deadline.
            expires_at=row.created_at + self.lobby_seconds if row.status == "lobby" else None,
        )
        ordered = sorted(seats, key=lambda s: (s.seat if s.seat is not None else s.position, s.position))
        table.seats = [
            Seat(
                seat=index,
                user_id=s.user_id,
                name=s.display_name,
                is_ai=s.is_ai,
                position=s.position,
                autopilot=s.autopilot,
                timeouts_in_row=s.timeouts_in_row,
            )
            for index, s in enumerate(ordered)
        ]
        if row.state is not None:
            table.state = load_state(table.engine, row.state, row.state_schema)
        return table

    async def get(self, table_id: int) -> Table:
        """Return the live table ``table_id`` or raise a ``TableError`` saying why it is not live."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        row = await self.storage.get_table(table_id)
        if row is None:
            raise _err("table.not_found")
        if row.status == "quarantined":
            raise _err("table.quarantined")
        raise _err("table.finished" if row.status == "finished" else "table.closed")

    # ------------------------------------------------------------------ lobby
    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        host_id: int,
        host_name: str,
        options: Mapping[str, Any],
        locale: str,
        seed: str | None = None,
        rematch_of: int | None = None,
        seat_host: bool = True,
    ) -> Table:
        """Open a lobby, with the host seated unless ``seat_host`` is false (an all-AI table)."""
        engine = ENGINES[game]
        engine.options_type.model_validate(options.get("game", {}))  # reject bad options now
        async with self._opening:
            await self._check_caps(guild_id, host_id)
            row = await self.storage.create_table(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                host_id=host_id,
                options=dict(options),
                seed=seed or secrets.token_hex(8),
                locale=locale,
                now=self.now(),
                rematch_of=rematch_of,
            )
            table = self._table_from_row(row, [])
            self.tables[table.id] = table
        self._arm_expiry(table)
        if seat_host:
            await self._add_lobby_seat(table, host_id, host_name, is_ai=False)
        return table

    async def _check_caps(self, guild_id: int, host_id: int) -> None:
        """Refuse a new lobby past the server's cap of live tables or the host's cap of open lobbies.

        Counted in storage, not in memory: every process sharing the database sees the same tables.
        A cap the server set with ``/settings`` replaces the bot's (``max_lobbies_per_member``,
        ``max_tables_per_guild``).
        """
        server = await self.storage.guild_settings(guild_id)
        table_cap = server.max_tables or self.max_tables_per_guild
        lobby_cap = server.max_lobbies_per_member or self.max_lobbies_per_member
        if lobby_cap is None and table_cap is None:
            return
        lobbies = await self.storage.tables_for_guild(guild_id, TableStatus.LOBBY)
        if table_cap is not None:
            active = await self.storage.tables_for_guild(guild_id, TableStatus.ACTIVE, limit=table_cap)
            if len(lobbies) + len(active) >= table_cap:
                raise _err("table.server_limit", max=table_cap)
        if lobby_cap is not None and sum(row.host_id == host_id for row in lobbies) >= lobby_cap:
            raise _err("table.lobby_limit", max=lobby_cap)

    async def _add_lobby_seat(self, table: Table, user_id: int | None, name: str, *, is_ai: bool) -> None:
        try:
            row = await self.storage.add_lobby_seat(
                table.id, user_id=user_id, is_ai=is_ai, display_name=name, max_seats=table.seat_range()[1]
            )
        except AlreadySeatedError:
            raise _err("table.already_joined") from None
        except TableFullError:
            raise _err("table.full", max=table.seat_range()[1]) from None
        table.seats.append(Seat(seat=len(table.seats), user_id=user_id, name=name, is_ai=is_ai, position=row.position))

    def _lobby(self, table: Table) -> None:
        if table.status == "cancelled":
            raise _err("table.closed")
        if table.status != "lobby":
            raise _err("table.not_in_lobby")

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        """Seat ``user_id`` in the lobby."""
        table = await self.get(table_id)
        async with table.lock:
            self._lobby(table)
            if table.seat_of(user_id) is not None:
                raise _err("table.already_joined")
            if user_id in table.options.get(REMOVED_OPTION, ()):
                raise _err("table.removed")
            if len(table.seats) >= table.seat_range()[1]:
                raise _err("table.full", max=table.seat_range()[1])
            await self._add_lobby_seat(table, user_id, name, is_ai=False)
        self.publisher.lobby_changed(table)
        return table

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Remove ``user_id`` from the lobby; the host leaving cancels it."""
        table = await self.get(table_id)
        if table.status != "lobby":
            # A lobby's Leave button stays on its message after Start: it must never end the game.
            raise _err("table.leave_started")
        if user_id == table.host_id:
            return await self.cancel(table_id, user_id, is_moderator=False)
        async with table.lock:
            self._lobby(table)
            if table.seat_of(user_id) is None:
                raise _err("table.not_seated")
            await self.storage.remove_lobby_seat(table.id, user_id)
            table.seats = [s for s in table.seats if s.user_id != user_id]
            for index, seat in enumerate(table.seats):
                seat.seat = index
        self.publisher.lobby_changed(table)
        return table

    async def remove_player(self, table_id: int, host_id: int, user_id: int) -> Table:
        """Unseat the human ``user_id`` from the lobby; only the host may, and that member may not join again."""
        table = await self.get(table_id)
        async with table.lock:
            self._lobby(table)
            if host_id != table.host_id:
                raise _err("table.host_only")
            if user_id == table.host_id:
                raise _err("table.remove_host")
            if table.seat_of(user_id) is None:
                raise _err("table.not_seated")
            removed = [*table.options.get(REMOVED_OPTION, ()), user_id]
            options = {**table.options, REMOVED_OPTION: removed}
            await self.storage.update_options(table.id, options)
            await self.storage.remove_lobby_seat(table.id, user_id)
            table.options = options
            table.seats = [s for s in table.seats if s.user_id != user_id]
            for index, seat in enumerate(table.seats):
                seat.seat = index
        self.publisher.lobby_changed(table)
        return table

    async def add_ai(self, table_id: int, user_id: int, name: str) -> Table:
        """Seat an AI; only the host may."""
        table = await self.get(table_id)
        async with table.lock:
            self._lobby(table)
            if user_id != table.host_id:
                raise _err("table.host_only")
            if len(table.seats) >= table.seat_range()[1]:
                raise _err("table.full", max=table.seat_range()[1])
            await self._add_lobby_seat(table, None, name, is_ai=True)
        self.publisher.lobby_changed(table)
        return table

    async def remove_ai(self, table_id: int, user_id: int) -> Table:
        """Unseat the last AI; only the host may."""
        table = await self.get(table_id)
        async with table.lock:
            self._lobby(table)
            if user_id != table.host_id:
                raise _err("table.host_only")
            ai = next((s for s in reversed(table.seats) if s.is_ai), None)
            if ai is None:
                raise _err("table.no_ai")
            await self.storage.remove_lobby_position(table.id, ai.position)
            table.seats.remove(ai)
            for index, seat in enumerate(table.seats):
                seat.seat = index
        self.publisher.lobby_changed(table)
        return table

    async def start(self, table_id: int, user_id: int) -> Table:
        """Deal the game; only the host may, with a seat count the game allows."""
        table = await self.get(table_id)
        async with table.lock:
            self._lobby(table)
            if user_id != table.host_id:
                raise _err("table.host_only")
            engine = table.engine
            low, high = table.seat_range()
            if not low <= len(table.seats) <= high:
                raise _err("table.seat_count", min=low, max=high, have=len(table.seats))
            lobby = list(table.seats)
            if engine.shuffle_seats:
                self._shuffle_seats(table)
            await self._resolve_first_player(table, lobby)
            names = self._number_ai_seats(table)
            step = engine.setup(len(table.seats), table.game_options(), table.seed)
            state = step.state
            clock = self._next_clock(table, state, previous=None)
            await self.storage.start_table(
                table.id,
                state_json=state.model_dump_json(),
                version=state.version,
                positions=[s.position for s in table.seats],
                clock=clock,
                now=self.now(),
                state_schema=state_schema(engine),
                names=names,
            )
            for seat in table.seats:
                seat.name = names.get(seat.position, seat.name)
            table.state = state
            table.status = "active"
            table.expires_at = None
            self._set_clock(table, clock)  # also stops the lobby's expiry timer
            # Under the lock: a Cancel or End clicked meanwhile waits until the thread exists, and
            # so can never be overtaken by a thread and board posted for a table it closed.
            await self.publisher.game_started(table)
            self.publisher.table_changed(table, step.events)
            self._schedule_ai(table)
        return table

    @staticmethod
    def _shuffle_seats(table: Table) -> None:
        """Seat the lobby in the table's seeded random order (for games that shuffle their seats)."""
        table.seats = GameRng(f"{table.seed}:seats").shuffled(list(table.seats))
        for index, seat in enumerate(table.seats):
            seat.seat = index

    @staticmethod
    def _number_ai_seats(table: Table) -> dict[int, str]:
        """Return new names, by lobby position, for AI seats whose numbered name no longer matches their seat.

        The lobby numbers AIs in the order they were added ("ИИ 1", "ИИ 2"), but the seats may be
        shuffled (and humans sit between them), so after seating "ИИ 1" could sit in seat 3. An AI
        with a lobby-style name takes its seat's number instead. Called after the rematch's first
        player is resolved, which matches AIs by their lobby name. Custom names are left alone.
        """
        pattern = _ai_name_pattern()
        names: dict[int, str] = {}
        for seat in table.seats:
            if not seat.is_ai or pattern.fullmatch(seat.name) is None:
                continue
            name = translate(table.locale, "ui.lobby.ai_name", n=seat.seat + 1)
            if name != seat.name:
                names[seat.position] = name
        return names

    async def _resolve_first_player(self, table: Table, lobby: Sequence[Seat]) -> None:
        """Turn a rematch's first player, named by person, into the game's ``first_seat``.

        ``lobby`` is the seats in lobby order before any shuffle. The option follows the person: if
        they left the lobby it is dropped and the game's own rule chooses. Lobbies stored before
        rematches named people carry a lobby position (``FIRST_SEAT_IS_LOBBY_INDEX``) instead.
        The resolved options are stored: replays and restarts deal from them.
        """
        first_player = table.options.get(FIRST_PLAYER)
        legacy = table.options.get(FIRST_SEAT_IS_LOBBY_INDEX)
        if not first_player and not legacy:
            return
        game = dict(table.options.get("game", {}))
        person: Seat | None = None
        if isinstance(first_player, dict):
            person = next(
                (
                    s
                    for s in lobby
                    if (s.user_id is not None and s.user_id == first_player.get("user_id"))
                    or (s.is_ai and "ai_name" in first_player and s.name == first_player["ai_name"])
                ),
                None,
            )
        elif legacy:
            first = game.get("first_seat")
            person = lobby[first] if isinstance(first, int) and 0 <= first < len(lobby) else None
        game["first_seat"] = None if person is None else table.seats.index(person)
        options = {k: v for k, v in table.options.items() if k not in {FIRST_PLAYER, FIRST_SEAT_IS_LOBBY_INDEX}}
        table.options = {**options, "game": game}
        await self.storage.update_options(table.id, table.options)

    async def attach_messages(
        self, table: Table, *, thread_id: int | None = None, board_message_id: int | None = None
    ) -> None:
        """Remember where the table is shown (called by the publisher)."""
        if thread_id is not None:
            table.thread_id = thread_id
            await self.storage.set_thread(table.id, thread_id)
        if board_message_id is not None:
            table.board_message_id = board_message_id
            await self.storage.set_board_message(table.id, board_message_id)

    async def set_lobby_message(self, table: Table, message_id: int) -> None:
        """Remember the lobby message of ``table``."""
        table.lobby_message_id = message_id
        await self.storage.set_lobby_message(table.id, message_id)

    async def cancel(self, table_id: int, user_id: int, *, is_moderator: bool) -> Table:
        """Cancel a lobby, or end a game without a result.

        A moderator may end any table. The host may cancel the lobby and end the game until its
        first move; after that nobody escapes a result alone: every seated human must agree
        (:meth:`vote_end`), or a player resigns.
        """
        table = await self.get(table_id)
        async with table.lock:
            if table.status not in {"lobby", "active"}:
                raise _err("table.closed")
            if not is_moderator:
                if user_id != table.host_id:
                    raise _err("table.host_only")
                if table.status == "active" and await self._has_moves(table):
                    raise _err("table.end_needs_agreement")
            await self._close(table)
        await self.publisher.table_cancelled(table, user_id)
        return table

    async def vote_end(self, table_id: int, user_id: int) -> tuple[Table, int, int]:
        """Record that seated ``user_id`` agrees to end the game without a result.

        The game ends once every seated human agrees within :data:`END_VOTE_SECONDS` of the first
        agreement. Returns the table, how many agree and how many must.
        """
        table = await self.get(table_id)
        async with table.lock:
            if table.status != "active":
                raise _err("table.not_active")
            seat = table.seat_of(user_id)
            if seat is None or seat.is_ai:
                raise _err("table.not_seated")
            humans = {s.user_id for s in table.seats if not s.is_ai and s.user_id is not None}
            now = self.now()
            if not table.end_votes or now - table.end_votes_at > END_VOTE_SECONDS:
                table.end_votes, table.end_votes_at = set(), now
            table.end_votes.add(user_id)
            agreed = len(table.end_votes & humans)
            ended = agreed >= len(humans)
            if ended:
                await self._close(table)
        if ended:
            await self.publisher.table_cancelled(table, None)
        return table, agreed, len(humans)

    async def has_moves(self, table: Table) -> bool:
        """Return whether any move (or resignation) was made at ``table``."""
        return await self._has_moves(table)

    async def _has_moves(self, table: Table) -> bool:
        return table.status == "active" and bool(await self.storage.action_log(table.id))

    async def _close(self, table: Table) -> None:
        """Cancel ``table`` in storage and drop it from play; the caller holds its lock."""
        await self.storage.cancel_table(table.id, now=self.now())
        table.status = "cancelled"
        self._drop(table)
        await self._plan_archive(table)

    # ------------------------------------------------------------------ archiving finished threads
    async def _announce_end(self, table: Table, result: TableResult) -> None:
        """Announce the result, then plan archiving the thread.

        Planned after the announcement, not in the commit: an await there would let the board
        redraw the commit queued reach Discord just as the announcement replaces it.
        """
        try:
            await self.publisher.game_finished(table, result)
        finally:
            await self._plan_archive(table)

    async def _plan_archive(self, table: Table) -> None:
        """Record when the thread of ``table``, now over, is archived and locked, and arm its timer.

        Only a thread of its own is archived: a game played in the channel itself (its thread could
        not be opened) leaves the channel alone. ``archive_minutes`` 0 keeps the thread open.
        """
        thread_id = table.thread_id
        if table.archive_minutes <= 0 or thread_id is None or thread_id == table.channel_id:
            return
        due = self.now() + table.archive_minutes * 60.0
        try:
            await self.storage.set_archive_due(table.id, due)
        except Exception:
            # The game is over and stored either way; only the tidying of its thread is lost.
            log.exception("could not plan archiving the thread of table %s", table.id)
            return
        self._arm_archive(ArchiveRow(table.id, table.guild_id, table.channel_id, thread_id, due))

    def _arm_archive(self, archive: ArchiveRow) -> None:
        """Archive ``archive``'s thread at its time (now if that has passed); one timer per table."""
        handle = self._archives.pop(archive.table_id, None)
        if handle is not None:
            handle.cancel()
        if not self._run_clocks:
            return
        delay = max(0.0, archive.due - self.now())
        self._archives[archive.table_id] = asyncio.get_running_loop().call_later(delay, self._archive_fired, archive)

    def _archive_fired(self, archive: ArchiveRow) -> None:
        self._archives.pop(archive.table_id, None)
        self._spawn(self.archive_thread(archive))

    async def archive_thread(self, archive: ArchiveRow) -> bool:
        """Archive and lock ``archive``'s thread now; return whether that is settled.

        Settled (done, or impossible: the thread is gone, the bot may not) clears the plan; a
        Discord failure tries again after :data:`ARCHIVE_RETRY_SECONDS`.
        """
        if not await self.publisher.archive_thread(archive):
            self._arm_archive(replace(archive, due=self.now() + ARCHIVE_RETRY_SECONDS))
            return False
        await self.storage.set_archive_due(archive.table_id, None)
        return True

    async def expire_lobby(self, table_id: int) -> bool:
        """Cancel the lobby ``table_id`` because it was not started in time; return whether it was.

        Called when its timer fires (or by :meth:`expire_due_lobbies`); a lobby started or closed
        meanwhile is left alone.
        """
        table = self.tables.get(table_id)
        if table is None:
            return False
        async with table.lock:
            if table.status != "lobby":
                return False
            await self.storage.cancel_table(table.id, now=self.now())
            table.status = "cancelled"
            table.expired = True
            self._drop(table)
        self._spawn(self.publisher.table_cancelled(table, None))
        return True

    async def expire_due_lobbies(self) -> int:
        """Cancel every lobby whose time has run out; return how many."""
        now = self.now()
        due = [
            t.id
            for t in list(self.tables.values())
            if t.status == "lobby" and t.expires_at is not None and t.expires_at <= now
        ]
        return sum([await self.expire_lobby(table_id) for table_id in due])

    def _arm_expiry(self, table: Table) -> None:
        """Start the timer that cancels a lobby not started in time (the table's one timer until it starts)."""
        if not self._run_clocks or table.status != "lobby" or table.expires_at is None:
            return
        handle = self._timers.pop(table.id, None)
        if handle is not None:
            handle.cancel()
        delay = max(0.0, table.expires_at - self.now())
        loop = asyncio.get_running_loop()
        self._timers[table.id] = loop.call_later(delay, self._expiry_fired, table.id)

    def _expiry_fired(self, table_id: int) -> None:
        self._timers.pop(table_id, None)
        self._spawn(self.expire_lobby(table_id))

    # ------------------------------------------------------------------ play
    def view_for(self, table: Table, user_id: int | None) -> tuple[int | None, BaseModel]:
        """Return the seat of ``user_id`` (``None`` for spectators) and the view it may see."""
        if table.state is None:
            raise _err("table.not_started")
        seat = table.seat_of(user_id) if user_id is not None else None
        index = seat.seat if seat is not None else None
        return index, table.view(index)

    def legal_for(self, table: Table, seat: int) -> list[Any]:
        """Return the legal actions of ``seat`` now."""
        if table.state is None:
            return []
        return table.engine.legal_actions(table.state, seat)

    async def act(self, table_id: int, user_id: int, prompt_version: int, action: Any) -> Table:
        """Apply ``action`` for the seat of ``user_id`` if it answers the current prompt (a one-action decision)."""
        return await self.act_many(table_id, user_id, prompt_version, [action])

    async def act_many(self, table_id: int, user_id: int, prompt_version: int, actions: Sequence[Any]) -> Table:
        """Apply ``actions`` in order for the seat of ``user_id`` as one decision (a submitted form): all or none.

        The prompt version is checked once, against the first action. Every action is then applied
        to the state the previous one produced, with the engine's full checks, before anything is
        written: one illegal part (or the decision ending before the last part) raises its error
        and leaves the table as it was. Only then is the decision committed: one transaction with one
        log entry per action, so a crash or another process's move never leaves half of it stored.
        """
        if not actions:
            raise _err("table.error")
        table = await self.get(table_id)
        async with table.lock:
            if table.status != "active" or table.state is None:
                raise _err("table.not_active")
            seat = table.seat_of(user_id)
            if seat is None:
                raise _err("table.not_seated")
            if prompt_version != table.prompt_version:
                self._explain_stale(table, seat.seat, actions[0])
            engine = table.engine
            state = table.state
            steps: list[tuple[Any, Step[Any]]] = []
            for action in actions:
                if seat.seat not in engine.active_seats(state) or engine.outcome(state) is not None:
                    # The decision is over before its last part (it cannot take them all): refuse the whole.
                    raise _err("table.not_your_turn") if not steps else _err("form.unfinished")
                step = engine.apply(state, seat.seat, action)
                steps.append((action, step))
                state = step.state
            seat_updates = _answered_in_person(seat)
            *earlier, (action, last) = steps
            await self._commit(
                table,
                seat.seat,
                action,
                last.state,
                last.events,
                user_id=user_id,
                seats=seat_updates,
                earlier=[(a, step.events) for a, step in earlier],
            )
        return table

    def free_for(self, table: Table, seat: int) -> list[Any]:
        """Return the actions ``seat`` may take outside its turn (a game's "free actions"), if any."""
        free = getattr(table.engine, "free_actions", None)
        if table.state is None or table.status != "active" or free is None:
            return []
        return list(free(table.state, seat))

    async def act_free(self, table_id: int, user_id: int, action: Any) -> Table:
        """Apply a free action (one a game accepts from any seat at any moment, such as a payment).

        It answers no prompt, so it carries no prompt version; the engine's ``apply`` decides whether
        it is allowed now. Whoever the table waits for keeps their prompt and clock.
        """
        table = await self.get(table_id)
        async with table.lock:
            if table.status != "active" or table.state is None:
                raise _err("table.not_active")
            seat = table.seat_of(user_id)
            if seat is None:
                raise _err("table.not_seated")
            if getattr(table.engine, "free_actions", None) is None:
                raise _err("table.not_your_turn")
            step = table.engine.apply(table.state, seat.seat, action)
            await self._commit(table, seat.seat, action, step.state, step.events, user_id=user_id, keep_prompt=True)
        return table

    @staticmethod
    def _explain_stale(table: Table, seat: int, action: Any) -> None:
        """Refuse a click on an older prompt, with the engine's own reason when it has a specific one.

        The pure ``apply`` is only consulted, never committed: a rule such as "the claim is already
        being challenged" explains the refusal better than "out of date".
        """
        assert table.state is not None  # noqa: S101 - checked by the caller
        try:
            table.engine.apply(table.state, seat, action)
        except NotYourTurnError as error:
            if error.code != NotYourTurnError.code:
                raise
        except GameError:
            pass
        raise StaleActionError

    async def resign(self, table_id: int, user_id: int) -> Table:
        """Resign ``user_id`` from the game: it leaves play and ranks below everyone still playing."""
        table = await self.get(table_id)
        async with table.lock:
            if table.status != "active" or table.state is None:
                raise _err("table.not_active")
            seat = table.seat_of(user_id)
            if seat is None:
                raise _err("table.not_seated")
            step = table.engine.resign(table.state, seat.seat)
            await self._commit(table, seat.seat, RESIGN_ACTION, step.state, step.events, user_id=user_id)
        return table

    async def im_back(self, table_id: int, user_id: int) -> Table:
        """Give ``user_id`` its seat back from the AI that played it."""
        table = await self.get(table_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise _err("table.not_seated")
            if not seat.autopilot:
                raise _err("table.not_on_autopilot")
            seat.autopilot = False
            seat.timeouts_in_row = 0
            await self.storage.set_seat_autopilot(table.id, seat.seat, autopilot=False, timeouts_in_row=0)
        self.publisher.table_changed(table, ())
        return table

    async def on_clock(self, table_id: int, prompt_version: int, *, claimed: bool = False) -> None:
        """Apply the default action for every seat that let the prompt's clock run out.

        The clock is claimed in storage first (unless the caller already ``claimed`` it), so among
        processes sharing the database exactly one fires it; one held by another process is tried
        again when that claim lapses.
        """
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            state = table.state
            if table.status != "active" or state is None or table.prompt_version != prompt_version:
                return
            if not claimed and not await self._claim_clock(table, prompt_version):
                return
            if not claimed and table.is_reaction(state) and await self._deadline_moved(table, prompt_version):
                return
            waiting = sorted(table.engine.active_seats(state))
            for index in waiting:
                state = table.state
                assert state is not None  # noqa: S101 - set while active
                if index not in table.engine.active_seats(state) or table.prompt_version != prompt_version:
                    continue
                seat = table.seats[index]
                # Letting a reaction window pass is a pass, not an absence: only a missed decision of
                # the player's own turn counts towards "away".
                reacting = index in reaction_seats(table.engine, state)
                action = table.engine.default_action(state, index)
                step = table.engine.apply(state, index, action)
                updates: list[Seat] = []
                if not seat.ai_controlled and not reacting:
                    seat.timeouts_in_row += 1
                    if seat.timeouts_in_row >= table.timeouts_before_away(self.timeouts_before_autopilot):
                        seat.autopilot = True
                    updates.append(seat)
                await self._commit(table, index, action, step.state, step.events, by_timeout=True, seats=updates)
                if table.status != "active":
                    break

    async def more_time(self, table_id: int, user_id: int, prompt_version: int) -> Table:
        """Give the reaction window ``prompt_version`` :data:`MORE_TIME_SECONDS` more, asked by ``user_id``.

        Only an awaited player of a reaction window may ask, once per window; the later deadline is
        written to the clock row (a restart keeps it, and so do other processes: see :meth:`on_clock`).
        """
        table = await self.get(table_id)
        async with table.lock:
            state = table.state
            if table.status != "active" or state is None:
                raise _err("table.not_active")
            seat = table.seat_of(user_id)
            if seat is None:
                raise _err("table.not_seated")
            if prompt_version != table.prompt_version or table.deadline is None or not table.is_reaction(state):
                raise _err("react.window_closed")
            if seat.seat not in table.engine.active_seats(state):
                raise _err("react.not_awaited")
            if seat.seat in table.extended:
                raise _err("react.already_extended")
            clock = await self.storage.extend_clock(table.id, prompt_version, MORE_TIME_SECONDS)
            if clock is None:
                raise _err("react.window_closed")  # another process moved the table on meanwhile
            table.extended = table.extended | {seat.seat}  # a new set: a board being drawn keeps its own
            table.deadline = clock.deadline
            self._arm_clock(table)
        self.publisher.table_changed(table, ())
        return table

    async def pass_windows(self, table_id: int, user_id: int, prompt_version: int) -> Table:
        """Pass the reaction window ``prompt_version`` for ``user_id`` and every later one of the game's pass span.

        The pass is committed now, like a click on Done; later windows of the same span (the
        engine's ``pass_scope``: an Интриги turn) are passed by the table as soon as they ask the
        seat, and the player is not called for them. :meth:`resume_windows` takes it back.
        """
        table = await self.get(table_id)
        async with table.lock:
            if table.status != "active" or table.state is None:
                raise _err("table.not_active")
            seat = table.seat_of(user_id)
            if seat is None:
                raise _err("table.not_seated")
            state = table.state
            scope = pass_scope(table.engine, state)
            if prompt_version != table.prompt_version or scope is None or not table.is_reaction(state):
                raise _err("react.window_closed")
            if seat.seat not in reaction_seats(table.engine, state):
                raise _err("react.pass_not_awaited")
            seat.passing = scope
            action = table.engine.default_action(state, seat.seat)
            step = table.engine.apply(state, seat.seat, action)
            await self._commit(
                table, seat.seat, action, step.state, step.events, user_id=user_id, seats=_answered_in_person(seat)
            )
        return table

    async def resume_windows(self, table_id: int, user_id: int) -> Table:
        """Take back ``user_id``'s standing pass: its next reaction window asks it again."""
        table = await self.get(table_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise _err("table.not_seated")
            state = table.state
            if table.status != "active" or state is None or not table.standing_pass(seat.seat, state):
                raise _err("react.not_passing")
            seat.passing = None
        self.publisher.table_changed(table, ())
        return table

    async def _deadline_moved(self, table: Table, prompt_version: int) -> bool:
        """Re-arm the clock and return ``True`` if its stored deadline was pushed back since it was armed.

        Another process may have taken more time in this window: the stored deadline is the truth.
        """
        stored = await self.storage.get_clock(table.id)
        if stored is None or table.deadline is None or stored.version != prompt_version:
            return False
        if stored.deadline <= table.deadline:
            return False
        table.deadline = stored.deadline
        self._arm_clock(table)
        return True

    async def fire_due_clocks(self) -> int:
        """Fire every clock whose deadline has passed; return how many fired.

        The due clocks are claimed together (``FOR UPDATE SKIP LOCKED`` on PostgreSQL): a clock
        another process is firing is skipped, not waited for.
        """
        now = self.now()
        due = {
            t.id: t.prompt_version for t in list(self.tables.values()) if t.deadline is not None and t.deadline <= now
        }
        if not due:
            return 0
        claimed = await self.storage.claim_due_clocks(due, owner=self.owner, now=now, lease=CLOCK_CLAIM_SECONDS)
        for clock in claimed:
            await self.on_clock(clock.table_id, clock.version, claimed=True)
        return len(claimed)

    async def _claim_clock(self, table: Table, prompt_version: int) -> bool:
        """Claim the prompt's clock for this process; when another holds it, look again as it lapses."""
        claim = await self.storage.claim_clock(
            table.id, prompt_version, owner=self.owner, now=self.now(), lease=CLOCK_CLAIM_SECONDS
        )
        if not claim.claimed and claim.until is not None:
            self._arm_clock(table, not_before=claim.until)
        return claim.claimed

    # ------------------------------------------------------------------ internals
    async def _commit(
        self,
        table: Table,
        seat: int,
        action: Any,
        state: BaseState,
        events: Sequence[Event],
        *,
        by_timeout: bool = False,
        user_id: int | None = None,
        seats: Sequence[Seat] = (),
        keep_prompt: bool = False,
        earlier: Sequence[tuple[Any, Sequence[Event]]] = (),
    ) -> None:
        """Persist one accepted step and update the in-memory table; caller holds the lock.

        ``earlier`` are the actions (with their events) of the same seat's decision that led from
        the table's state to the one ``action`` was applied to (a submitted form): they are
        committed together with ``action``, in one transaction, or not at all.
        """
        previous = table.state
        assert previous is not None  # noqa: S101 - only active tables commit
        outcome = table.engine.outcome(state)
        clock = (
            None
            if outcome is not None
            else self._next_clock(table, state, previous=previous, actor=seat, keep_prompt=keep_prompt)
        )
        action_json = _action_json(action)
        finish = FinishRow.from_outcome(outcome) if outcome is not None else None
        log = LogEntry(seat=seat, action=action_json, user_id=user_id, by_timeout=by_timeout)
        seat_updates = [(s.seat, s.timeouts_in_row, s.autopilot) for s in seats]
        try:
            if earlier:
                logs = [LogEntry(seat=seat, action=_action_json(a), user_id=user_id) for a, _ in earlier]
                changes = await self.storage.commit_actions(
                    table.id,
                    expected_version=previous.version,
                    new_state_json=state.model_dump_json(),
                    logs=[*logs, log],
                    clock=clock,
                    seat_updates=seat_updates,
                    finished=finish,
                    now=self.now(),
                    state_schema=state_schema(table.engine),
                )
            else:
                changes = await self.storage.commit_action(
                    table.id,
                    expected_version=previous.version,
                    new_state_json=state.model_dump_json(),
                    new_version=state.version,
                    log=log,
                    clock=clock,
                    seat_updates=seat_updates,
                    finished=finish,
                    now=self.now(),
                    state_schema=state_schema(table.engine),
                )
        except VersionConflictError:
            # Another process moved this table on: reload it and make the caller try again.
            await self._reload(table)
            raise StaleActionError from None
        table.state = state
        self._set_clock(table, clock)
        self.publisher.table_changed(table, [*(e for _, part in earlier for e in part), *events])
        if outcome is not None:
            table.status = "finished"
            result = TableResult(outcome=outcome, rating_changes=tuple(changes))
            self._drop(table)
            self._spawn(self._announce_end(table, result))
        else:
            self._schedule_ai(table)

    async def _reload(self, table: Table) -> None:
        row = await self.storage.get_table(table.id)
        if row is None or row.state is None:
            return
        fresh = self._table_from_row(row, await self.storage.seats(table.id))
        table.state, table.status, table.seats = fresh.state, fresh.status, fresh.seats

    def _next_clock(
        self,
        table: Table,
        state: BaseState,
        *,
        previous: BaseState | None,
        actor: int | None = None,
        keep_prompt: bool = False,
    ) -> ClockRow | None:
        active = table.engine.active_seats(state)
        if not active:
            return None
        unchanged = keep_prompt and previous is not None and active == table.engine.active_seats(previous)
        if unchanged and table.deadline is not None:
            # A free action answers no prompt: the awaited seats keep their buttons and clock.
            seats = tuple(sorted(active))
            return ClockRow(table_id=table.id, version=table.prompt_version, deadline=table.deadline, seats=seats)
        if previous is not None and actor is not None and table.deadline is not None:
            before = table.engine.active_seats(previous)
            if len(before) > 1 and active <= before - {actor}:
                # The same prompt goes on (more answers awaited): keep its version and deadline.
                return ClockRow(
                    table_id=table.id,
                    version=table.prompt_version,
                    deadline=table.deadline,
                    seats=tuple(sorted(active)),
                )
        return ClockRow(
            table_id=table.id,
            version=state.version,
            deadline=self.now() + table.clock_for(state),
            seats=tuple(sorted(active)),
        )

    def _set_clock(self, table: Table, clock: ClockRow | None) -> None:
        if clock is None:
            table.deadline = None
        else:
            if clock.version != table.prompt_version:
                table.extended = frozenset()  # a new prompt: everyone may take more time again
            table.prompt_version = clock.version
            table.deadline = clock.deadline
        self._arm_clock(table)

    def _arm_clock(self, table: Table, *, not_before: float | None = None) -> None:
        """(Re)start the timer of ``table``'s current prompt (not before ``not_before``); one timer per table."""
        handle = self._timers.pop(table.id, None)
        if handle is not None:
            handle.cancel()
        if not self._run_clocks or table.deadline is None or table.status != "active":
            return
        delay = max(0.0, max(table.deadline, not_before or table.deadline) - self.now())
        loop = asyncio.get_running_loop()
        self._timers[table.id] = loop.call_later(delay, self._clock_fired, table.id, table.prompt_version)

    def _clock_fired(self, table_id: int, prompt_version: int) -> None:
        self._timers.pop(table_id, None)
        self._spawn(self.on_clock(table_id, prompt_version))

    def _drop(self, table: Table) -> None:
        table.deadline = None
        timer = self._timers.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        task = self._ai_tasks.pop(table.id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self.tables.pop(table.id, None)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_log_task_error)

    # ------------------------------------------------------------------ AI seats
    def _schedule_ai(self, table: Table) -> None:
        state = table.state
        if table.status != "active" or state is None:
            return
        if not any(table.answered_for(i, state) for i in table.engine.active_seats(state)):
            return
        task = self._ai_tasks.get(table.id)
        if task is not None and not task.done():
            return
        task = asyncio.create_task(self._run_ai(table), name=f"ai-{table.id}")
        self._ai_tasks[table.id] = task
        task.add_done_callback(_log_task_error)
        task.add_done_callback(lambda done: self._untrack_ai(table.id, done))

    def _untrack_ai(self, table_id: int, task: asyncio.Task[None]) -> None:
        """Drop an AI task that ended however it ended (an error too) from the map, unless already replaced."""
        if self._ai_tasks.get(table_id) is task:
            del self._ai_tasks[table_id]

    async def _run_ai(self, table: Table) -> None:
        state = table.state
        # The pause makes an AI's move readable; a standing pass answers at once.
        if (
            self.ai_delay
            and state is not None
            and any(table.seats[i].ai_controlled for i in table.engine.active_seats(state))
        ):
            await asyncio.sleep(self.ai_delay)
        async with table.lock:
            if table.status != "active" or table.state is None:
                return
            for index in sorted(table.engine.active_seats(table.state)):
                state = table.state
                if table.status != "active" or state is None:
                    break
                seat = table.seats[index]
                if index not in table.engine.active_seats(state):
                    continue
                if seat.ai_controlled:
                    agent = AGENTS.get(table.game, RandomAgent())
                    action = choose_ai_action(table.engine, agent, state, index)
                    user_id = None
                elif table.passes(index, state):
                    # The player's own answer, given in advance: logged as theirs.
                    action = table.engine.default_action(state, index)
                    user_id = seat.user_id
                else:
                    continue
                step = table.engine.apply(state, index, action)
                await self._commit(table, index, action, step.state, step.events, user_id=user_id)
        self._ai_tasks.pop(table.id, None)
        self._schedule_ai(table)


async def replay(storage: Storage, table_id: int, *, from_snapshot: bool = False) -> BaseState | None:
    """Rebuild a started table's state from its seed, options and action log.

    With ``from_snapshot`` the replay starts at the latest snapshot instead of the deal. A replay
    that does not reach the stored state means the log and the state disagree: a bug, never a
    player's doing. Returns ``None`` for a table that never started.
    """
    data = await storage.replay_data(table_id)
    if data is None or data.table.state is None:
        return None
    if from_snapshot and data.snapshot is not None:
        engine = ENGINES[data.table.game]
        state: BaseState = load_state(engine, data.snapshot.state, data.snapshot.state_schema)
        for entry in data.log_after_snapshot():
            state = _replay_entry(engine, state, entry).state
        return state
    last: deque[tuple[BaseState, Sequence[Event]]] = deque(replay_steps(data), maxlen=1)  # only the end is wanted
    return last[0][0]


def replay_steps(data: ReplayData) -> Iterator[tuple[BaseState, Sequence[Event]]]:
    """Yield a started table's state and events at the deal, then after each logged action in turn.

    Rebuilt from the seed, options and action log only (engines are deterministic), so it never
    reads a stored state: a table saved before an upgrade of its state schema replays all the same.
    """
    engine = ENGINES[data.table.game]
    options = engine.options_type.model_validate(data.table.options.get("game", {}))
    step = engine.setup(len(data.seats), options, data.table.seed)
    yield step.state, step.events
    for entry in data.log:
        step = _replay_entry(engine, step.state, entry)
        yield step.state, step.events


def _replay_entry(engine: Engine[Any], state: BaseState, entry: ActionLogRow) -> Step[Any]:
    """Apply one logged action (or resignation) to ``state``."""
    if entry.action == RESIGN_ACTION:
        return engine.resign(state, entry.seat)
    return engine.apply(state, entry.seat, engine.action_adapter.validate_json(entry.action))


def choose_ai_action(engine: Engine[Any], agent: Agent, state: BaseState, seat: int) -> Any:
    """Let ``agent`` choose for ``seat`` from that seat's view and legal actions only."""
    legal = engine.legal_actions(state, seat)
    rng = GameRng.for_step(state.seed, state.version, salt=f"ai{seat}")
    return agent.choose(engine.view(state, seat), legal, rng)


def _log_unrestorable(row: TableRow, error: Exception, *, most: int = 5) -> None:
    """Log that ``row`` cannot be restored and is quarantined, naming what failed.

    A state that no longer fits its model is described by field and problem only: pydantic's own
    text quotes the input, and a state holds every hidden card of the table. Any other error
    (a bug, not data) is logged with its traceback.
    """
    what = f"table {row.id} ({row.game}, state schema {row.state_schema}) cannot be restored; quarantined"
    if not isinstance(error, ValidationError):
        log.error("%s", what, exc_info=error)
        return
    problems = error.errors(include_url=False, include_context=False, include_input=False)
    text = "; ".join(f"{'.'.join(str(part) for part in p['loc']) or 'state'}: {p['msg']}" for p in problems[:most])
    more = f"; and {len(problems) - most} more" if len(problems) > most else ""
    log.error("%s: %s%s", what, text, more)


def _action_json(action: Any) -> str:
    """Return the log text of ``action``."""
    return action.model_dump_json() if isinstance(action, BaseModel) else str(action)


def _log_task_error(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("background task %s failed", task.get_name(), exc_info=task.exception())
