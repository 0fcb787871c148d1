"""Click → answer built, through the real table service, with many live tables on a file SQLite DB.

One *click* is what the bot does between receiving a game-action interaction and having its answer
ready to send: ``TableService.act`` (seat and prompt checks, the per-table lock, ``engine.apply``,
narrating the public events as the publisher does, one SQLite transaction with the version check)
and then building the private panel the clicking player gets back
(:func:`bot.ui.panels.panel_payload`). A second measure adds the public board message (embed,
status, log and buttons) without its PNG, which :mod:`benchmarks.render` times on its own.

Every table is all-human (so finishing games also write results and ratings); the measured player
picks a random legal action. A table that finishes is replaced by a new one outside the timing,
so the service always holds the same number of live tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, cast

from benchmarks.common import GAME, NAMES, Line, ms, p50_p99, rng
from bot.i18n.narrate import narrate
from bot.presenters import Presenter
from bot.presenters.registry import PRESENTERS
from bot.storage import Storage
from bot.tables import Table, TableResult, TableService
from bot.ui.panels import board_payload, panel_payload
from games.core import Event

SECTION = "1. Click → answer"
TARGET_P99 = 0.050
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
        for event in events:
            if event.visible_to is None:
                line = narrate(table.game, event, table.locale, names)
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
def _without_images(game: str) -> Iterator[None]:
    """Build board payloads without rendering their PNG while inside."""
    inner = PRESENTERS[game]
    PRESENTERS[game] = cast(Presenter, _NoImage(inner))
    try:
        yield
    finally:
        PRESENTERS[game] = inner


class Fleet:
    """A table service holding ``size`` live all-human Coup tables of 2 to 6 seats."""

    def __init__(self, service: TableService, publisher: _LogPublisher, size: int) -> None:
        """Prepare ``size`` slots; call :meth:`fill` to deal their tables."""
        self.service = service
        self.publisher = publisher
        self.size = size
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
        seats = 2 + index % 5
        users = list(range(self._next_user, self._next_user + seats))
        self._next_user += seats
        service = self.service
        table = await service.create_lobby(
            guild_id=1 + index % 10,
            channel_id=100 + index % 10,
            game=GAME,
            host_id=users[0],
            host_name=NAMES[0],
            options={"clock": 90, "game": {}},
            locale="ru",
            seed=f"bench-clicks-{index}",
        )
        for seat, user in enumerate(users[1:], start=1):
            await service.join(table.id, user, NAMES[seat])
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
            board_payload(table, lines, now=self.service.now(), awaited_legal=awaited)
        built = time.perf_counter()
        if table.status != "active":
            self.finished += 1
            self.slots[slot] = await self._open()
        return answered - start, built - start


async def bench_clicks(
    db_path: Path, *, tables: int = 200, clicks: int = 2_000, warmup: int = 300, workers: int = 8
) -> list[Line]:
    """Measure clicks on ``tables`` live tables in one service on the SQLite file ``db_path``."""
    storage = await Storage.open(db_path)
    publisher = _LogPublisher()
    service = TableService(storage, publisher, ai_delay=0, run_clocks=False)
    try:
        fleet = Fleet(service, publisher, tables)
        await fleet.fill()
        answers: list[float] = []
        boards: list[float] = []
        with _without_images(GAME):
            for i in range(warmup):
                await fleet.click(i % tables, board=True)
            for i in range(clicks):
                answer, board = await fleet.click(i % tables, board=True)
                answers.append(answer)
                boards.append(board)
        live = len(service.tables)

        # Each player coroutine owns its own tables, so no two clicks race for one prompt.
        workers = max(1, min(workers, tables))

        async def worker(mine: Sequence[int]) -> None:
            for i in range(clicks // workers):
                await fleet.click(mine[i % len(mine)], board=False)

        start = time.perf_counter()
        await asyncio.gather(*(worker(range(tables)[w::workers]) for w in range(workers)))
        per_second = (clicks // workers) * workers / (time.perf_counter() - start)
    finally:
        await service.close()
        await storage.close()
    a50, a99 = p50_p99(answers)
    b50, b99 = p50_p99(boards)
    where = f"{live} live tables, {clicks} clicks, {fleet.finished} games finished"
    return [
        Line(
            SECTION,
            f"act + commit + private panel ({where})",
            f"p50 {ms(a50)} · p99 {ms(a99)}",
            f"p99 ≤ {ms(TARGET_P99)}",
            a99 <= TARGET_P99,
        ),
        Line(
            SECTION,
            "… + public board message without its PNG",
            f"p50 {ms(b50)} · p99 {ms(b99)}",
            f"p99 ≤ {ms(TARGET_P99)}",
            b99 <= TARGET_P99,
        ),
        Line(
            SECTION,
            f"throughput, {workers} players clicking at once on one service (act + panel)",
            f"{per_second:,.0f} clicks/s",
            f"≥ {tables} clicks/s (every table once a second)",
            per_second >= tables,
        ),
    ]
