"""A process that plays every playable game through the real table service, to be killed with SIGKILL.

``python -m tests.bot.resilience.crash_driver DB JOURNAL MODE SEED`` opens the SQLite database
``DB``, restores whatever is live there and plays on:

- ``MODE=refill`` keeps :data:`TABLES_PER_GAME` tables of every game in play (runs that get killed);
- ``MODE=finish`` plays until every table is over, then prints ``ALL FINISHED`` and exits 0.

Seats are AI seats (the table service plays them, AI delay 0) and *scripted humans*, who act the
way a Discord user does: they click a button or select option of the board or of their private
panel, built by the real payload builders in this process, and the click is routed through the
real ``DynamicItem`` templates and ``bot.codec`` to ``TableService.act``. Some humans answer late
and some never, so 1-second clocks run out and default actions and the autopilot take over; humans
on autopilot click "I'm back" now and then.

Pause points (``RESILIENCE_PAUSE=point[:game[:skip]]``) stop the process at an exact moment so the
parent's SIGKILL lands there: ``move``, ``clock``, ``finish`` and ``start`` stop *inside* the
transaction of such a write, just before SQLite runs its ``COMMIT``; ``after_commit`` and
``after_clock`` stop after the commit returned and before anything else happened (the reply to the
click, the board). ``skip`` lets that many matching writes through first. The process prints
``PAUSED <point> <game>`` when it stops.

Lines on stdout (JSON after the keyword) tell the parent what happened: ``RESTORED`` (what came
back after the restart, checked here: replays, clocks, re-clicks), ``READY`` and ``ALL FINISHED``.
The journal file gets one JSON line per click about to be sent and per committed write; the parent
checks every committed write against the database ("nothing lost").
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
import traceback
from collections.abc import Sequence
from typing import Any

import aiosqlite

import bot.tables as tables_module
from bot.codec import decode_action, encode_action
from bot.presenters import Presenter
from bot.presenters.registry import PRESENTERS
from bot.storage import ClockRow, Storage
from bot.tables import NullPublisher, Table, TableService, choose_ai_action, replay
from bot.ui.components import ActButton, ActSelect, TableButton
from bot.ui.panels import board_payload, panel_payload
from games.core import GameError, GameRng, RandomAgent
from games.registry import ENGINES
from tests.bot.resilience.registry import playable_games, seat_counts

TABLES_PER_GAME = int(os.environ.get("RESILIENCE_CRASH_TABLES", "2"))
CLOCK_SECONDS = 1
#: Seconds a restart adds to clocks that ran out while the process was dead (the bot's is 15 s).
GRACE_SECONDS = 0.3
GUILD = 1
HOST = 1
IN_TRANSACTION = {"move", "clock", "finish", "start"}
AFTER_COMMIT = {"after_commit", "after_clock"}

_BUTTON = ActButton.__discord_ui_compiled_template__
_SELECT = ActSelect.__discord_ui_compiled_template__
_TABLE = TableButton.__discord_ui_compiled_template__


def say(keyword: str, payload: object = None) -> None:
    """Print one line for the parent and flush it at once (the process may die any moment)."""
    text = keyword if payload is None else f"{keyword} {json.dumps(payload, sort_keys=True)}"
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def freeze(point: str, game: str) -> None:
    """Stop here for good: the parent kills the process now."""
    say(f"PAUSED {point} {game}")
    while True:
        time.sleep(3600)


class Journal:
    """Append-only JSON lines, each written with one ``write`` (a kill never leaves half a line)."""

    def __init__(self, path: str) -> None:
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def write(self, **entry: Any) -> None:
        os.write(self._fd, (json.dumps(entry, sort_keys=True) + "\n").encode())


class Pause:
    """The pause point of this run, and the hooks that stop the process there."""

    def __init__(self, spec: str | None) -> None:
        parts = (spec or "").split(":")
        self.point = parts[0] or None
        self.game = parts[1] if len(parts) > 1 and parts[1] else None
        self.skip = int(parts[2]) if len(parts) > 2 and parts[2] else 0
        self.armed: str | None = None  # the game whose transaction stops at its COMMIT
        self.on = False  # set once the run is READY, so the parent always sees READY first

    def matches(self, point: str, game: str) -> bool:
        if not self.on or self.point != point or (self.game is not None and self.game != game):
            return False
        if self.skip:
            self.skip -= 1
            return False
        return True

    def trace(self, sql: str) -> None:
        """SQLite's trace callback (the storage's worker thread): stop just before an armed COMMIT."""
        if self.armed is not None and sql.lstrip().upper().startswith("COMMIT"):
            game, self.armed = self.armed, None
            freeze(str(self.point), game)


def connection_of(storage: Storage) -> aiosqlite.Connection:
    """Return the storage's aiosqlite connection, wherever the storage keeps it."""
    for value in vars(storage).values():
        if isinstance(value, aiosqlite.Connection):
            return value
    raise RuntimeError("the storage holds no aiosqlite connection")


def install_hooks(storage: Storage, service: TableService, pause: Pause, journal: Journal) -> None:
    """Wrap the storage's writes: journal every commit, stop at the pause point."""
    commit_action = storage.commit_action
    start_table = storage.start_table

    def game_of(table_id: int) -> str:
        table = service.tables.get(table_id)
        return table.game if table is not None else "?"

    async def journaled_commit(table_id: int, *args: Any, **kwargs: Any) -> Any:
        entry = kwargs.get("log", args[3] if len(args) > 3 else None)
        expected = kwargs.get("expected_version", args[0] if args else None)
        finished = kwargs.get("finished")
        game = game_of(table_id)
        timeout = bool(getattr(entry, "by_timeout", False))
        kind = "clock" if timeout else "finish" if finished is not None else "move"
        if pause.matches(kind, game):
            pause.armed = game
        result = await commit_action(table_id, *args, **kwargs)
        if entry is not None:
            journal.write(
                kind="commit", table=table_id, seq=expected, seat=entry.seat, action=entry.action, timeout=timeout
            )
        if pause.matches("after_clock" if timeout else "after_commit", game):
            freeze(str(pause.point), game)
        return result

    async def journaled_start(table_id: int, *args: Any, **kwargs: Any) -> Any:
        game = game_of(table_id)
        if pause.matches("start", game):
            pause.armed = game
        result = await start_table(table_id, *args, **kwargs)
        journal.write(kind="start", table=table_id)
        return result

    storage.commit_action = journaled_commit  # type: ignore[method-assign]  # the driver's own hooks
    storage.start_table = journaled_start  # type: ignore[method-assign]


class _NoImage:
    """A presenter that draws no image (the driver checks buttons, not pictures)."""

    def __init__(self, inner: Presenter) -> None:
        self._inner = inner
        self.game = inner.game

    def render_board(self, *args: Any, **kwargs: Any) -> bytes:
        return b""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def walk(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for row in rows:
        out.append(row)
        out.extend(walk(row.get("components") or []))
    return out


def find_component(rows: Sequence[dict[str, Any]], encoded: str) -> tuple[str, str | None] | None:
    """Return (custom_id, select value or None) of the component that takes the encoded action."""
    for component in walk(rows):
        custom_id = component.get("custom_id") or ""
        if component.get("type") == 2 and (m := _BUTTON.fullmatch(custom_id)) and m["action"] == encoded:
            return custom_id, None
        if component.get("type") == 3 and _SELECT.fullmatch(custom_id):
            for option in component.get("options") or []:
                if option["value"] == encoded:
                    return custom_id, encoded
    return None


class Humans:
    """The scripted humans of every table in this process."""

    def __init__(self, service: TableService, journal: Journal, seed: str, *, patient: bool) -> None:
        self.service = service
        self.journal = journal
        self.rng = GameRng(f"humans:{seed}")
        # Runs to be killed let clocks run out often; the last run, which must end every game,
        # seldom (a long game would otherwise wait for a second on most of its prompts).
        self.late, self.never = (0.03, 0.02) if patient else (0.25, 0.15)
        self.plans: dict[tuple[int, int, int], float | None] = {}  # (table, prompt, seat) → when, or never
        self.clicks = 0
        self.refused = 0

    async def click(self, user_id: int, custom_id: str, value: str | None) -> bool:
        """Route one click as the bot does: template → table service; return whether it was applied."""
        if (m := _TABLE.fullmatch(custom_id)) is not None:
            if m["verb"] != "back":
                raise ValueError(custom_id)
            await self.service.im_back(int(m["table"]), user_id)
            return True
        button, select = _BUTTON.fullmatch(custom_id), _SELECT.fullmatch(custom_id)
        match = button or select
        if match is None:
            raise ValueError(f"no component template parses {custom_id!r}")
        table_id, prompt = int(match["table"]), int(match["prompt"])
        encoded = button["action"] if button is not None else value
        table = await self.service.get(table_id)
        action = decode_action(table.engine.action_adapter, str(encoded))
        await self.service.act(table_id, user_id, prompt, action)
        return True

    async def step(self, table: Table) -> None:
        """Let every awaited human of ``table`` whose moment has come click."""
        state = table.state
        if table.status != "active" or state is None:
            return
        now = time.monotonic()
        for seat in sorted(table.engine.active_seats(state)):
            state = table.state
            # An earlier seat's click (or an AI move meanwhile) may have closed this seat's turn.
            if table.status != "active" or state is None or seat not in table.engine.active_seats(state):
                continue
            who = table.seats[seat]
            if who.is_ai or who.user_id is None:
                continue
            if who.autopilot:
                key = (table.id, -1, seat)
                if key not in self.plans and self.rng.random() < 0.5:
                    self.plans[key] = None
                    await self.send(table, who.user_id, f"tbl:{table.id}:back", None, prompt=-1)
                continue
            key = (table.id, table.prompt_version, seat)
            if key not in self.plans:
                draw = self.rng.random()
                # Most answer at once, some late, some never (their clock runs out).
                at_once = 1 - self.late - self.never
                late = now + 0.2 + 0.6 * self.rng.random()
                self.plans[key] = now if draw < at_once else late if draw < at_once + self.late else None
            when = self.plans[key]
            if when is None or when > now:
                continue
            self.plans[key] = None
            # A random legal move through the AI path (some games' AI thinks for a quarter second).
            action = choose_ai_action(table.engine, RandomAgent(), state, seat)
            found = self.component_for(table, who.user_id, action)
            if found is None:
                raise AssertionError(f"table {table.id}: {action!r} is on neither the board nor the panel")
            await self.send(table, who.user_id, found[0], found[1], prompt=table.prompt_version)

    def component_for(self, table: Table, user_id: int, action: Any) -> tuple[str, str | None] | None:
        encoded = encode_action(action)
        state = table.state
        assert state is not None
        awaited: list[Any] = []
        for seat in sorted(table.engine.active_seats(state)):
            awaited.extend(a for a in table.engine.legal_actions(state, seat) if a not in awaited)
        board = board_payload(table, [], awaited_legal=awaited)
        found = find_component(board.view.to_components(), encoded)
        if found is None:
            panel = panel_payload(table, user_id, table.locale)
            found = find_component(panel.view.to_components(), encoded)
        return found

    async def send(self, table: Table, user_id: int, custom_id: str, value: str | None, *, prompt: int) -> None:
        self.journal.write(kind="click", table=table.id, user=user_id, custom_id=custom_id, value=value, prompt=prompt)
        self.clicks += 1
        try:
            await self.click(user_id, custom_id, value)
        except GameError:
            self.refused += 1  # e.g. another seat's answer or the clock closed the prompt first


async def stored_truth(storage: Storage) -> tuple[dict[int, ClockRow], dict[int, str]]:
    """Read, before the restart, the clocks and the replayed state of every started live table."""
    clocks = {c.table_id: c for c in await storage.all_clocks()}
    replayed: dict[int, str] = {}
    for row in await storage.live_tables():
        if row.state is not None:
            rebuilt = await replay(storage, row.id)
            replayed[row.id] = "" if rebuilt is None else rebuilt.model_dump_json()
    return clocks, replayed


def check_restored(service: TableService, clocks: dict[int, ClockRow], replayed: dict[int, str]) -> dict[str, Any]:
    """Check what ``restore`` brought back, before anything ran: states, prompts, armed clocks.

    Synchronous on purpose: the AI moves ``restore`` scheduled cannot run in between.
    """
    problems: list[str] = []
    active = [t for t in service.tables.values() if t.status == "active"]
    for table in active:
        assert table.state is not None
        if replayed.get(table.id) != table.state.model_dump_json():
            problems.append(f"table {table.id}: the log does not replay to the restored state")
        clock = clocks.get(table.id)
        if clock is None:
            problems.append(f"table {table.id}: active without a clock row")
            continue
        if table.prompt_version != clock.version or table.deadline is None or table.deadline < clock.deadline:
            problems.append(f"table {table.id}: prompt {table.prompt_version} / {table.deadline} vs clock {clock}")
        if table.id not in service._timers:
            problems.append(f"table {table.id}: its clock is not armed")
        if sorted(table.engine.active_seats(table.state)) != list(clock.seats):
            problems.append(f"table {table.id}: clock seats {clock.seats} are not the awaited seats")
    missing = sorted(set(replayed) - set(service.tables))
    if missing:
        problems.append(f"tables {missing} were not restored")
    return {"active": len(active), "clocks": len(clocks), "problems": problems}


async def reclick(humans: Humans, storage: Storage, journal_path: str) -> dict[str, int]:
    """Send each live table's last click from before the restart again, as a user who got no answer.

    A click whose action is already in the log must be refused now: applying it would apply one
    decision twice.
    """
    last: dict[int, dict[str, Any]] = {}
    if os.path.exists(journal_path):
        with open(journal_path, encoding="utf-8") as lines:
            for line in lines:
                entry = json.loads(line)
                if entry["kind"] == "click" and entry["prompt"] >= 0:
                    last[entry["table"]] = entry
    counts = {"reclicks": 0, "refused": 0, "applied": 0, "double": 0}
    for table_id, entry in sorted(last.items()):
        table = humans.service.tables.get(table_id)
        if table is None or table.status != "active":
            continue
        m = _BUTTON.fullmatch(entry["custom_id"])
        encoded = m["action"] if m is not None else entry["value"]
        action = decode_action(table.engine.action_adapter, encoded).model_dump_json()
        done = any(
            row.user_id == entry["user"] and row.seq >= entry["prompt"] and row.action == action
            for row in await storage.action_log(table_id, since=entry["prompt"])
        )
        counts["reclicks"] += 1
        try:
            await humans.click(entry["user"], entry["custom_id"], entry["value"])
        except GameError:
            counts["refused"] += 1
            continue
        counts["applied"] += 1
        if done:
            counts["double"] += 1
    return counts


async def top_up(service: TableService, rng: GameRng, next_user: list[int]) -> None:
    """Open and start tables until every game has TABLES_PER_GAME in play."""
    for game in playable_games():
        live = sum(1 for t in service.tables.values() if t.game == game and t.status == "active")
        for _ in range(TABLES_PER_GAME - live):
            seats = rng.choice(seat_counts(game))
            humans = min(seats, 1 + rng.below(2))
            table = await service.create_lobby(
                guild_id=GUILD,
                channel_id=2,
                game=game,
                host_id=HOST,
                host_name="host",
                # Reaction windows run out as fast as decisions do (their own clock is 15 s by default).
                options={"clock": CLOCK_SECONDS, "reaction_clock": CLOCK_SECONDS},
                locale=rng.choice(["ru", "en"]),
                seed=f"crash-{game}-{next_user[0]}",
                seat_host=False,
            )
            for n in range(seats):
                if n < humans:
                    next_user[0] += 1
                    await service.join(table.id, next_user[0], f"human {next_user[0]}")
                else:
                    await service.add_ai(table.id, HOST, f"AI {n}")
            await service.start(table.id, HOST)


async def main(db: str, journal_path: str, mode: str, seed: str) -> None:
    """Restore, check, re-click, then play (refilling or to the end)."""
    tables_module.RESTART_GRACE_SECONDS = GRACE_SECONDS
    for game in list(PRESENTERS):
        PRESENTERS[game] = _NoImage(PRESENTERS[game])  # no PNG needed here
    pause = Pause(os.environ.get("RESILIENCE_PAUSE"))
    journal = Journal(journal_path)
    storage = await Storage.open(db)
    await connection_of(storage).set_trace_callback(pause.trace)
    service = TableService(storage, NullPublisher(), ai_delay=0, run_clocks=True)
    install_hooks(storage, service, pause, journal)
    humans = Humans(service, journal, seed, patient=mode == "finish")
    clocks, replayed = await stored_truth(storage)
    began = time.perf_counter()
    restored = await service.restore()
    report = check_restored(service, clocks, replayed)
    report["tables"] = restored
    report["restore_seconds"] = round(time.perf_counter() - began, 4)
    report.update(await reclick(humans, storage, journal_path))
    # A kill may have landed while a lobby was filled: start it if it is full enough, else drop it.
    for table in [t for t in service.tables.values() if t.status == "lobby"]:
        if len(table.seats) >= ENGINES[table.game].min_seats:
            await service.start(table.id, HOST)
        else:
            await service.cancel(table.id, HOST, is_moderator=True)
    say("RESTORED", report)
    if report["problems"] or report["double"]:
        sys.exit(3)
    users = [1_000]  # the last human user id handed out (each human seat gets a new user)
    for row in await storage.tables_for_guild(GUILD):
        users[0] = max([users[0], *((s.user_id or 0) for s in await storage.seats(row.id))])
    rng = GameRng(f"tables:{seed}")
    if mode == "refill":
        await top_up(service, rng, users)
    say("READY", {"tables": len(service.tables)})
    pause.on = True
    started = time.monotonic()
    while any(t.status == "active" for t in service.tables.values()):
        for table in list(service.tables.values()):
            await humans.step(table)
        await asyncio.sleep(0.01)
        if mode == "refill":
            await top_up(service, rng, users)
        elif time.monotonic() - started > 600:
            raise SystemExit("the tables did not finish in 10 minutes")
    await service.close()
    await storage.close()
    say("ALL FINISHED", {"clicks": humans.clicks, "refused": humans.refused})


def run(argv: Sequence[str]) -> None:
    """Run :func:`main`; on any error print it and leave at once (SQLite's worker thread would hang)."""
    try:
        asyncio.run(main(*argv))
    except SystemExit as stop:
        sys.stdout.flush()
        os._exit(stop.code if isinstance(stop.code, int) else 1)
    except BaseException:
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(4)


if __name__ == "__main__":
    run(sys.argv[1:5])
