"""Click → answer built, through the real table service, with many live tables on a file SQLite DB.

One *click* is what the bot does between receiving a game-action interaction and having its answer
ready to send: ``TableService.act`` (seat and prompt checks, the per-table lock, ``engine.apply``,
narrating the public events as the publisher does, one SQLite transaction with the version check)
and then building the private panel the clicking player gets back
(:func:`bot.ui.panels.panel_payload`). A second measure adds the public board message (embed,
status, log and buttons) without its PNG, which :mod:`benchmarks.render` times on its own. A third,
by game, is the click including its public board PNG: ``TableService.act`` and then drawing the
public view's board (``presenter.render_board``, as :func:`bot.ui.panels.board_payload` does), with
every table's board image drawn at its real size (target: p99 ≤ 50 ms for every game).

Every table is all-human (so finishing games also write results and ratings); the measured player
picks a random legal action. A table that finishes is replaced by a new one outside the timing,
so the service always holds the same number of live tables. The report's fleet holds tables of
every registered game in turn, at every seat count each allows.

The same run measures *bare SQLite commits* on a database file beside the bot's, through the same
driver and settings (aiosqlite, WAL, ``synchronous=NORMAL``), each statement awaited on its own as plain
driver code does:

- the **move's rows** (the reference of the ratio target): ``BEGIN IMMEDIATE``, the version-checked
  ``UPDATE`` of a state-sized text, the action-log ``INSERT``, the clock upsert, ``COMMIT`` — the
  one write a move cannot do without, so the ratio says how much the bot adds on top of it
  (target: ≤ 3× at the median). One such commit follows each timed click;
- a single ``UPDATE`` of the state, for comparison (the smallest commit there is);
- the move's rows with ``synchronous=FULL`` (an fsync per commit, SQLite's default durability),
  to show what a durable commit costs on this disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, cast

import aiosqlite

from benchmarks.common import GAME, LONG_NAMES, Line, ms, p50_p99, registered_games, rng, seat_counts
from bot.presenters import Presenter
from bot.presenters.registry import PRESENTERS
from bot.storage import ArchiveRow, Storage
from bot.tables import Table, TableResult, TableService
from bot.ui.panels import board_payload, panel_payload
from bot.ui.text import image_names
from games.core import Event

SECTION = "1. Click → answer"
TARGET_P99 = 0.050
TARGET_RATIO = 3.0
LOG_LINES = 8


class _LogPublisher:
    """A publisher that narrates public events into a short log per table, as the Discord one does."""

    def __init__(self) -> None:
        self.logs: dict[int, deque[str]] = {}

    def lobby_changed(self, table: Table) -> None:
        """Ignore lobby changes."""

    def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        """Append the public log lines of ``events``."""
        lines = self.logs.setdefault(table.id, deque(maxlen=LOG_LINES))
        names = table.names()
        presenter = PRESENTERS[table.game]
        for event in events:
            if event.visible_to is None:
                line = presenter.narrate(event, names, table.locale)
                if line:
                    lines.append(line)

    async def game_started(self, table: Table) -> None:
        """Ignore the start."""

    async def game_finished(self, table: Table, result: TableResult) -> None:
        """Forget the table's log."""
        self.logs.pop(table.id, None)

    async def table_cancelled(self, table: Table, by_user: int | None) -> None:
        """Forget the table's log."""
        self.logs.pop(table.id, None)

    async def table_quarantined(self, table: Table) -> bool:
        """Tell nobody."""
        return True

    async def archive_thread(self, archive: ArchiveRow) -> bool:
        """Archive nothing (there are no threads here)."""
        return True


class _NoImage:
    """A presenter that draws no image and delegates everything else."""

    def __init__(self, inner: Presenter) -> None:
        self._inner = inner
        self.game = inner.game

    def render_board(self, *args: Any, **kwargs: Any) -> bytes:
        """Return no image."""
        return b""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


@contextlib.contextmanager
def _without_images(*games: str) -> Iterator[None]:
    """Build board payloads of ``games`` without rendering their PNG while inside."""
    inner = {game: PRESENTERS[game] for game in games}
    for game in games:
        PRESENTERS[game] = cast(Presenter, _NoImage(inner[game]))
    try:
        yield
    finally:
        PRESENTERS.update(inner)


class Fleet:
    """A table service holding ``size`` live all-human tables of ``games`` in turn (Coup unless told).

    Each game's tables cycle through every seat count it allows (Coup: 2 to 6).
    """

    def __init__(
        self, service: TableService, publisher: _LogPublisher, size: int, games: Sequence[str] = (GAME,)
    ) -> None:
        """Prepare ``size`` slots; call :meth:`fill` to deal their tables."""
        self.service = service
        self.publisher = publisher
        self.size = size
        self.games = list(games)
        self.slots: list[Table] = []
        self.opened = 0
        self.finished = 0
        self._next_user = 1_000
        self._rng = rng("clicks")

    async def fill(self) -> None:
        """Open and start every table."""
        self.slots = [await self._open() for _ in range(self.size)]

    async def _open(self) -> Table:
        index = self.opened
        self.opened += 1
        game = self.games[index % len(self.games)]
        counts = seat_counts(game)
        seats = counts[(index // len(self.games)) % len(counts)]
        users = list(range(self._next_user, self._next_user + seats))
        self._next_user += seats
        service = self.service
        table = await service.create_lobby(
            guild_id=1 + index % 10,
            channel_id=100 + index % 10,
            game=game,
            host_id=users[0],
            host_name=LONG_NAMES[0],
            options={"clock": 90, "game": {}},
            locale="ru",
            seed=f"bench-clicks-{index}",
        )
        for seat, user in enumerate(users[1:], start=1):
            await service.join(table.id, user, LONG_NAMES[seat % len(LONG_NAMES)])
        return await service.start(table.id, users[0])

    async def click(self, slot: int, *, board: bool) -> tuple[float, float]:
        """Take one random legal action at table ``slot``; return (answer, answer + board) seconds."""
        table = self.slots[slot]
        engine = table.engine
        state = table.state
        if state is None:
            raise RuntimeError(f"table #{table.id} has no state")
        seat = min(engine.active_seats(state))
        user = table.seats[seat].user_id
        if user is None:
            raise RuntimeError("benchmark tables seat humans only")
        action = self._rng.choice(engine.legal_actions(state, seat))
        start = time.perf_counter()
        await self.service.act(table.id, user, table.prompt_version, action)
        panel_payload(table, user, table.locale)
        answered = time.perf_counter()
        if board:
            board_state = table.state
            if board_state is None:
                raise RuntimeError(f"table #{table.id} lost its state")
            awaited = list(
                dict.fromkeys(
                    a for s in sorted(engine.active_seats(board_state)) for a in engine.legal_actions(board_state, s)
                )
            )
            lines = list(self.publisher.logs.get(table.id, ()))
            board_payload(table, lines, awaited_legal=awaited)
        built = time.perf_counter()
        if table.status != "active":
            self.finished += 1
            self.slots[slot] = await self._open()
        return answered - start, built - start

    async def click_with_png(self, slot: int) -> tuple[str, float, float]:
        """Take one random legal action at table ``slot`` and draw its public board PNG.

        Return the game, the seconds it took and the CPU seconds it used (the CPU time tells a slow
        click from one that waited for other processes of a busy machine).
        """
        table = self.slots[slot]
        engine = table.engine
        state = table.state
        if state is None:
            raise RuntimeError(f"table #{table.id} has no state")
        seat = min(engine.active_seats(state))
        user = table.seats[seat].user_id
        if user is None:
            raise RuntimeError("benchmark tables seat humans only")
        action = self._rng.choice(engine.legal_actions(state, seat))
        start, cpu = time.perf_counter(), time.process_time()
        await self.service.act(table.id, user, table.prompt_version, action)
        png = PRESENTERS[table.game].render_board(table.view(None), image_names(table.names()), table.locale)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        if not png:
            raise RuntimeError(f"{table.game} drew no board")
        if table.status != "active":
            self.finished += 1
            self.slots[slot] = await self._open()
        return table.game, seconds, cpu


_BARE_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS bench_bare (id INTEGER PRIMARY KEY, state TEXT, version INTEGER, updated_at REAL)",
    "CREATE TABLE IF NOT EXISTS bench_bare_log (table_id INTEGER NOT NULL, seq INTEGER NOT NULL, seat INTEGER,"
    " action TEXT, by_timeout INTEGER, user_id INTEGER, created_at REAL, PRIMARY KEY (table_id, seq)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS bench_bare_clock (table_id INTEGER PRIMARY KEY, version INTEGER, deadline REAL,"
    " seats TEXT)",
)


class BareCommits:
    """Bare SQLite commits on their own connection to a database file, in tables of their own.

    With ``move`` each commit writes a move's rows (state ``UPDATE`` with its version check, log
    ``INSERT``, clock upsert); without, one ``UPDATE`` of a state-sized row. Same driver and journal
    as the bot's storage (aiosqlite, WAL), at ``synchronous``.
    """

    def __init__(self, db_path: Path, *, state_bytes: int, move: bool = True, synchronous: str = "NORMAL") -> None:
        self.db_path = db_path
        self.text = "x" * state_bytes
        self.move = move
        self.synchronous = synchronous
        self.version = 0
        self._db: aiosqlite.Connection | None = None

    async def open(self) -> None:
        """Connect and create the tables."""
        db = self._db = await aiosqlite.connect(self.db_path, isolation_level=None)
        await db.execute_fetchall("PRAGMA journal_mode = WAL")
        await db.execute(f"PRAGMA synchronous = {self.synchronous}")
        await db.execute("PRAGMA busy_timeout = 5000")
        for statement in _BARE_SCHEMA:
            await db.execute(statement)
        await db.execute("DELETE FROM bench_bare_log")
        await db.execute("INSERT OR REPLACE INTO bench_bare (id, state, version, updated_at) VALUES (1, '', 0, 0)")
        self.version = 0

    async def close(self) -> None:
        """Disconnect."""
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def commit(self) -> float:
        """Make one commit; return the seconds it took."""
        db = self._db
        if db is None:
            raise RuntimeError("open() first")
        index = self.version
        self.version += 1
        now = time.time()
        start = time.perf_counter()
        await db.execute("BEGIN IMMEDIATE")
        if self.move:
            await db.execute(
                "UPDATE bench_bare SET state = ?, version = ?, updated_at = ? WHERE id = 1 AND version = ?",
                (self.text, index + 1, now, index),
            )
            await db.execute(
                "INSERT INTO bench_bare_log (table_id, seq, seat, action, by_timeout, user_id, created_at)"
                " VALUES (1, ?, 0, ?, 0, 1000, ?)",
                (index, _BARE_ACTION, now),
            )
            await db.execute(
                "INSERT INTO bench_bare_clock (table_id, version, deadline, seats) VALUES (1, ?, ?, '[1]')"
                " ON CONFLICT (table_id) DO UPDATE SET version = excluded.version, deadline = excluded.deadline,"
                " seats = excluded.seats",
                (index + 1, now + 90),
            )
        else:
            await db.execute("UPDATE bench_bare SET state = ?, version = version + 1 WHERE id = 1", (self.text,))
        await db.execute("COMMIT")
        return time.perf_counter() - start


_BARE_ACTION = '{"kind":"bench","target":1}'


async def bare_commits(
    db_path: Path, *, state_bytes: int, commits: int, move: bool = True, synchronous: str = "NORMAL", warmup: int = 50
) -> list[float]:
    """Time ``commits`` bare commits (see :class:`BareCommits`) in a row, after ``warmup`` untimed ones."""
    bare = BareCommits(db_path, state_bytes=state_bytes, move=move, synchronous=synchronous)
    await bare.open()
    try:
        for _ in range(warmup):
            await bare.commit()
        return [await bare.commit() for _ in range(commits)]
    finally:
        await bare.close()


async def bench_clicks(
    db_path: Path,
    *,
    tables: int = 200,
    clicks: int = 2_000,
    warmup: int = 300,
    workers: int = 8,
    games: Sequence[str] | None = None,
    png_clicks: int | None = None,
) -> list[Line]:
    """Measure clicks on ``tables`` live tables (of ``games``, default every one) on the SQLite file ``db_path``.

    ``png_clicks`` (default ``clicks``; 0 leaves the measure out) clicks then draw their public
    board PNG too, spread evenly over the games.
    """
    chosen = list(games) if games is not None else registered_games()
    storage = await Storage.open(db_path)
    publisher = _LogPublisher()
    service = TableService(storage, publisher, ai_delay=0, run_clocks=False)
    bare_commit: BareCommits | None = None
    try:
        fleet = Fleet(service, publisher, tables, chosen)
        await fleet.fill()
        sizes = sorted(len(t.state.model_dump_json()) for t in service.tables.values() if t.state is not None)
        state_bytes = sizes[len(sizes) // 2]
        # The reference commits alternate with the clicks, so a machine that speeds up or slows
        # down during the run (a shared 2-core box does) moves both sides of the ratio alike.
        # A file of its own next to the bot's: a second writer on the bot's file would find its page
        # cache stale after every click and look slower than a bare commit is.
        bare_commit = BareCommits(db_path.with_name(f"{db_path.stem}-bare{db_path.suffix}"), state_bytes=state_bytes)
        await bare_commit.open()
        answers: list[float] = []
        boards: list[float] = []
        bare: list[float] = []
        by_game: dict[str, list[float]] = {}
        with _without_images(*chosen):
            for i in range(warmup):
                await fleet.click(i % tables, board=True)
                await bare_commit.commit()
            for i in range(clicks):
                game = fleet.slots[i % tables].game
                answer, board = await fleet.click(i % tables, board=True)
                answers.append(answer)
                boards.append(board)
                by_game.setdefault(game, []).append(answer)
                bare.append(await bare_commit.commit())
        live = len(service.tables)

        # Each player coroutine owns its own tables, so no two clicks race for one prompt.
        workers = max(1, min(workers, tables))

        async def worker(mine: Sequence[int]) -> None:
            for i in range(clicks // workers):
                await fleet.click(mine[i % len(mine)], board=False)

        with _without_images(*chosen):
            start = time.perf_counter()
            await asyncio.gather(*(worker(range(tables)[w::workers]) for w in range(workers)))
            per_second = (clicks // workers) * workers / (time.perf_counter() - start)

        # The slots hold the games in turn, so clicking slot after slot spreads the clicks evenly.
        with_png: dict[str, list[float]] = {}
        png_cpu: dict[str, list[float]] = {}
        png_clicks = clicks if png_clicks is None else png_clicks
        for i in range(min(png_clicks, warmup)):
            await fleet.click_with_png(i % tables)
        for i in range(png_clicks):
            game, seconds, cpu = await fleet.click_with_png(i % tables)
            with_png.setdefault(game, []).append(seconds)
            png_cpu.setdefault(game, []).append(cpu)
    finally:
        if bare_commit is not None:
            await bare_commit.close()
        await service.close()
        await storage.close()
    single = await bare_commits(db_path, state_bytes=state_bytes, commits=clicks, move=False)
    durable = await bare_commits(db_path, state_bytes=state_bytes, commits=max(50, clicks // 10), synchronous="FULL")
    a50, a99 = p50_p99(answers)
    b50, b99 = p50_p99(boards)
    c50, c99 = p50_p99(bare)
    s50, s99 = p50_p99(single)
    d50, d99 = p50_p99(durable)
    where = f"{live} live tables of {len(chosen)} games, {clicks} clicks, {fleet.finished} games finished"
    lines = [
        Line(
            SECTION,
            f"act + commit + private panel ({where})",
            f"p50 {ms(a50)} · p99 {ms(a99)}",
            f"p99 ≤ {ms(TARGET_P99)}",
            a99 <= TARGET_P99,
        ),
        Line(
            SECTION,
            f"… + public board message without its PNG ({live} tables)",
            f"p50 {ms(b50)} · p99 {ms(b99)}",
            f"p99 ≤ {ms(TARGET_P99)}",
            b99 <= TARGET_P99,
        ),
        Line(
            SECTION,
            f"throughput, {workers} players clicking at once on one service (act + panel, {live} tables)",
            f"{per_second:,.0f} clicks/s",
            f"≥ {tables} clicks/s (every table once a second)",
            per_second >= tables,
        ),
        Line(
            SECTION,
            f"bare SQLite commit of a move's rows, same driver and settings, one after each click"
            f" (state UPDATE of {state_bytes:,} bytes + log INSERT + clock upsert; {live}-table run)",
            f"p50 {ms(c50)} · p99 {ms(c99)}",
            "(the reference)",
            True,
        ),
        Line(
            SECTION,
            f"click (act + commit + panel) ÷ bare commit of a move ({live} tables)",
            f"p50 {a50 / c50:.1f}× · p99 {a99 / c99:.1f}×",
            f"p50 ≤ {TARGET_RATIO:.0f}×",
            a50 / c50 <= TARGET_RATIO,
        ),
        Line(
            SECTION,
            f"for comparison: one bare UPDATE (p50 {ms(s50)} · p99 {ms(s99)}) and a move's rows with"
            f" synchronous=FULL (p50 {ms(d50)} · p99 {ms(d99)}); the click's ratio to each ({live} tables)",
            f"p50 {a50 / s50:.1f}× · {a50 / d50:.2f}×",
            "(context)",
            True,
        ),
    ]
    for name, times in sorted(with_png.items()):
        g50, g99 = p50_p99(times)
        lines.append(
            Line(
                SECTION,
                f"click including its public board PNG: act + commit + render_board of the public view,"
                f" {name} ({len(times)} clicks, {live} live tables)",
                f"p50 {ms(g50)} · p99 {ms(g99)} (CPU time p99 {ms(p50_p99(png_cpu[name])[1])})",
                f"p99 ≤ {ms(TARGET_P99)}",
                g99 <= TARGET_P99,
            )
        )
    if len(by_game) > 1:
        ratios = {name: p50_p99(times)[0] / c50 for name, times in sorted(by_game.items())}
        lines.append(
            Line(
                SECTION,
                f"… the same by game ({live} tables): click p50, and its ratio to the bare commit",
                " · ".join(f"{name} {ms(p50_p99(by_game[name])[0])} ({ratio:.1f}×)" for name, ratio in ratios.items()),
                f"p50 ≤ {TARGET_RATIO:.0f}× each",
                all(ratio <= TARGET_RATIO for ratio in ratios.values()),
            )
        )
    return lines
