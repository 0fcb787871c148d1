"""Screenshot what players see: a few seeded moves of every game through the real bot, drawn like Discord.

``python -m scripts.screens --out docs/screenshots/preview`` (``make screens``) runs the real
:class:`~bot.app.TableBot` on SimCord's offline Discord, on a Russian server. For every game Анна
runs ``/<game> new``, adds AIs and starts the table; then she makes a few moves (chosen by the
game's own AI from her seat's view, from a fixed seed, and applied through the table service as a
click would) while the AI seats answer, and stops when the game waits for her again. She then
clicks **My cards** on the board. SimCord's preview (``simcord[preview]``) draws the result as
the Discord client does, and headless Chromium (Debian's ``chromium``; installed with apt-get when
missing and the script may) takes the screenshots, at desktop (1280 px) and phone (400 px) width:

- ``<game>-thread-<width>.png``: the game's thread, its newest messages (what a player scrolls);
- ``<game>-board-<width>.png``: the board message alone (log, picture, buttons);
- ``<game>-panel-<width>.png``: Анна's private answer to **My cards**.

Only public surfaces of the bot are used (the slash commands, the lobby's buttons, the table
service's ``act``, the board's **My cards** button found by its ``tbl:<id>:hand`` id), so the script
keeps working when boards and panels change; a game whose board shows no **My cards** button gets
no panel picture and says so. ``--html-only`` plays the games and checks that the preview builds
every page without starting a browser (what the tests do).

SimCord's own screenshots need Playwright; here a small Chrome DevTools Protocol client
(:class:`ChromiumBrowser`) plays the part of Playwright's browser for the preview's capture, so
the preview still pins the page, waits until it has drawn, and crops the surface itself.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import simcord
import simcord.interactions as simcord_interactions

from bot.app import TableBot, create_bot
from bot.settings import Settings
from bot.storage import Storage
from bot.tables import Table, choose_ai_action
from games.core import RandomAgent
from games.registry import AGENTS, ENGINES

#: Chromium's flags: headless, no sandbox (root in a container), and nothing that reaches the network.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
#: Window sizes: the width a player's client gives the chat, and a screen's height for the thread.
WIDTHS = {"desktop": (1280, 800), "phone": (400, 860)}
#: Height of the window a single message is drawn in; the capture is cropped to the message.
SURFACE_HEIGHT = 2400
#: Seconds of every decision clock: no clock runs out while the script plays.
CLOCK_SECONDS = 600
#: SimCord waits for the bot to go idle at most this long (real seconds); it stays below the
#: reaction clock (15 s), for SimCord waits in real time for timers due before it.
SETTLE_SECONDS = 10.0
HUMAN = "Анна"
LOCALE = "ru"
HAND_BUTTON = re.compile(r"^tbl:(\d+):hand$")


@dataclass(frozen=True)
class Scene:
    """One game's pictures: its seats, options, how many of Анна's moves to play, and the seed."""

    game: str
    players: int
    moves: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: str = "screens"

    @property
    def prefix(self) -> str:
        """Return the file name prefix, e.g. ``coup``."""
        return self.game


SCENES = (
    Scene("coup", players=4, moves=3),
    Scene("masti", players=4, moves=2, options={"teams": True}),
    Scene("cadwallon", players=3, moves=2, options={"grid": 3}),
    Scene("intrigue", players=4, moves=10),
)


@dataclass
class Played:
    """A scene after its moves: the table, its thread and the messages to draw."""

    scene: Scene
    table: Table
    thread: simcord.ChannelHandle
    panel: simcord.InteractionResult | None
    moves: int

    def public(self) -> list[Any]:
        """Return the thread's public messages as they are now, oldest first."""
        return [m for m in self.thread.history() if not m.flags.ephemeral]

    def board(self) -> Any:
        """Return the board message as it is now."""
        return next(m for m in self.public() if m.id == self.table.board_message_id)

    def opened_panel(self) -> simcord.InteractionResult | None:
        """Return Анна's answer to **My cards** (``None`` if the board had no such button)."""
        return self.panel

    def latest(self) -> Any:
        """Return the newest public message of the thread (the bot replaces its pings, so it is read late)."""
        return self.public()[-1]


# ---------------------------------------------------------------------- Chromium through DevTools
class DevToolsError(RuntimeError):
    """Chromium answered a DevTools command with an error, or did not start."""


class _Connection:
    """One DevTools websocket to a Chromium process: commands by id, events to listeners by session."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.next_id = 0
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.listeners: dict[tuple[str | None, str], list[Callable[[dict[str, Any]], None]]] = {}
        self.reader = asyncio.create_task(self._read())

    async def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> Any:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        await self.ws.send_str(json.dumps(message))
        answer = await future
        if "error" in answer:
            raise DevToolsError(f"{method}: {answer['error'].get('message')}")
        return answer.get("result", {})

    def listen(self, session: str | None, method: str, callback: Callable[[dict[str, Any]], None]) -> None:
        self.listeners.setdefault((session, method), []).append(callback)

    async def _read(self) -> None:
        async for frame in self.ws:
            if frame.type != aiohttp.WSMsgType.TEXT:
                break
            message = json.loads(frame.data)
            if "id" in message:
                future = self.pending.pop(message["id"], None)
                if future is not None and not future.done():
                    future.set_result(message)
                continue
            for callback in self.listeners.get((message.get("sessionId"), message.get("method", "")), []):
                callback(message.get("params", {}))
        for future in self.pending.values():
            if not future.done():
                future.set_exception(DevToolsError("Chromium closed the DevTools connection"))

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader


class _Request:
    def __init__(self, url: str) -> None:
        self.url = url


class _Route:
    """A paused request, answered the way Playwright's ``Route`` is."""

    def __init__(self, page: _Page, params: dict[str, Any]) -> None:
        self._page = page
        self._id = params["requestId"]
        self.request = _Request(params["request"]["url"])

    async def fulfill(self, *, status: int, content_type: str, body: str) -> None:
        await self._page.send(
            "Fetch.fulfillRequest",
            {
                "requestId": self._id,
                "responseCode": status,
                "responseHeaders": [{"name": "Content-Type", "value": content_type}],
                "body": base64.b64encode(body.encode()).decode(),
            },
        )

    async def continue_(self) -> None:
        await self._page.send("Fetch.continueRequest", {"requestId": self._id})

    async def abort(self) -> None:
        await self._page.send("Fetch.failRequest", {"requestId": self._id, "errorReason": "Aborted"})


class _CdpSession:
    def __init__(self, page: _Page) -> None:
        self._page = page

    async def send(self, method: str, params: dict[str, Any] | None = None) -> Any:
        return await self._page.send(method, params)

    async def detach(self) -> None:
        """Keep the page's session: it is the page's own."""


class _Page:
    """One tab, with the part of Playwright's ``Page`` that SimCord's capture uses."""

    def __init__(self, context: _Context, target: str, session: str) -> None:
        self.context = context
        self.target = target
        self.session = session
        self._tasks: set[asyncio.Task[None]] = set()
        self._loaded = asyncio.Event()

    async def send(self, method: str, params: dict[str, Any] | None = None) -> Any:
        return await self.context.connection.send(method, params, self.session)

    def on(self, event: str, callback: Callable[[str], None]) -> None:
        if event == "pageerror":
            self.context.connection.listen(
                self.session,
                "Runtime.exceptionThrown",
                lambda params: callback(str(params.get("exceptionDetails", {}).get("text", "error"))),
            )

    async def route(self, _pattern: str, handler: Callable[[_Route], Awaitable[None]]) -> None:
        async def answer(route: _Route) -> None:
            # A request still in flight when its tab closes has nobody left to answer.
            with contextlib.suppress(DevToolsError):
                await handler(route)

        def paused(params: dict[str, Any]) -> None:
            task = asyncio.create_task(answer(_Route(self, params)))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        self.context.connection.listen(self.session, "Fetch.requestPaused", paused)
        await self.send("Fetch.enable", {"patterns": [{"urlPattern": "*"}]})

    async def goto(self, url: str, *, wait_until: str = "domcontentloaded", timeout: float = 30_000) -> None:
        self._loaded.clear()
        await self.send("Page.navigate", {"url": url})
        await asyncio.wait_for(self._loaded.wait(), timeout / 1000)

    async def evaluate(self, expression: str, *args: Any) -> Any:
        call = f"({expression})({', '.join(json.dumps(arg) for arg in args)})"
        answer = await self.send("Runtime.evaluate", {"expression": call, "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in answer:
            details = answer["exceptionDetails"]
            raise DevToolsError(str(details.get("exception", {}).get("description") or details.get("text")))
        return answer.get("result", {}).get("value")

    async def wait_for_function(self, expression: str, *, timeout: float = 30_000) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout / 1000
        while not await self.evaluate(expression):
            if loop.time() > deadline:
                raise TimeoutError(f"{expression} stayed false")
            await asyncio.sleep(0.05)

    async def screenshot(self, *, path: str, type: str = "png", clip: dict[str, float]) -> None:
        answer = await self.send("Page.captureScreenshot", {"format": type, "clip": {**clip, "scale": 1}})
        Path(path).write_bytes(base64.b64decode(answer["data"]))

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await self.context.connection.send("Target.closeTarget", {"targetId": self.target})


class _Context:
    """An isolated browser context (fresh cookies and storage) with its viewport and emulation."""

    def __init__(self, browser: ChromiumBrowser, context_id: str, settings: dict[str, Any]) -> None:
        self.browser = browser
        self.connection = browser.connection
        self.context_id = context_id
        self.settings = settings

    async def new_page(self) -> _Page:
        connection = self.connection
        target = (
            await connection.send("Target.createTarget", {"url": "about:blank", "browserContextId": self.context_id})
        )["targetId"]
        session = (await connection.send("Target.attachToTarget", {"targetId": target, "flatten": True}))["sessionId"]
        page = _Page(self, target, session)
        connection.listen(session, "Page.domContentEventFired", lambda _params: page._loaded.set())
        viewport = self.settings.get("viewport") or {"width": 1280, "height": 800}
        await page.send("Page.enable")
        await page.send("Runtime.enable")
        await page.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": viewport["width"], "height": viewport["height"], "deviceScaleFactor": 1, "mobile": False},
        )
        if self.settings.get("reduced_motion") == "reduce":
            await page.send(
                "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]}
            )
        if self.settings.get("timezone_id"):
            await page.send("Emulation.setTimezoneOverride", {"timezoneId": self.settings["timezone_id"]})
        if self.settings.get("locale"):
            await page.send("Emulation.setLocaleOverride", {"locale": self.settings["locale"]})
        if self.settings.get("extra_http_headers"):
            await page.send("Network.enable")
            await page.send("Network.setExtraHTTPHeaders", {"headers": self.settings["extra_http_headers"]})
        return page

    def new_cdp_session(self, page: _Page) -> Awaitable[_CdpSession]:
        async def session() -> _CdpSession:
            return _CdpSession(page)

        return session()

    async def close(self) -> None:
        await self.connection.send("Target.disposeBrowserContext", {"browserContextId": self.context_id})


class ChromiumBrowser:
    """Headless Chromium driven over the DevTools Protocol, as much of Playwright's ``Browser`` as SimCord uses.

    ``close`` does nothing: one Chromium serves every preview of the run; :meth:`shutdown` ends it.
    """

    def __init__(self, process: asyncio.subprocess.Process, connection: _Connection, version: str) -> None:
        self.process = process
        self.connection = connection
        self.version = version

    @classmethod
    async def launch(cls, executable: str, profile: Path) -> ChromiumBrowser:
        """Start ``executable`` with :data:`CHROMIUM_FLAGS` and the fresh user-data directory ``profile``."""
        process = await asyncio.create_subprocess_exec(
            executable,
            *chromium_arguments(profile),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        assert process.stderr is not None  # noqa: S101 - asked for above
        url = None
        while url is None:
            line = await asyncio.wait_for(process.stderr.readline(), 30)
            if not line:
                raise DevToolsError("Chromium exited before it listened for DevTools")
            found = re.search(rb"DevTools listening on (ws://\S+)", line)
            if found:
                url = found[1].decode()
        # Chromium keeps logging (D-Bus is missing in a container); read it so its pipe never fills.
        drain = asyncio.create_task(_drain(process.stderr))
        session = aiohttp.ClientSession()
        ws = await session.ws_connect(url, max_msg_size=0)
        connection = _Connection(ws)
        connection.http = session  # type: ignore[attr-defined]  # closed with the connection
        connection.drain = drain  # type: ignore[attr-defined]
        version = (await connection.send("Browser.getVersion")).get("product", "Chromium")
        return cls(process, connection, version)

    async def new_context(self, **settings: Any) -> _Context:
        """Return a fresh isolated context with Playwright's ``new_context`` settings."""
        context_id = (await self.connection.send("Target.createBrowserContext"))["browserContextId"]
        return _Context(self, context_id, settings)

    async def close(self) -> None:
        """Leave Chromium running for the next preview (see :meth:`shutdown`)."""

    async def shutdown(self) -> None:
        """End Chromium."""
        with contextlib.suppress(DevToolsError, ConnectionError):
            await asyncio.wait_for(self.connection.send("Browser.close"), 5)
        await self.connection.close()
        await self.connection.http.close()  # type: ignore[attr-defined]
        if self.process.returncode is None:
            self.process.kill()
        await self.process.wait()
        self.connection.drain.cancel()  # type: ignore[attr-defined]


async def _drain(stream: asyncio.StreamReader) -> None:
    while await stream.readline():
        pass


def chromium_arguments(profile: Path) -> list[str]:
    """Return Chromium's command line after the executable: the flags, ``profile`` and a DevTools port."""
    return [*CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank"]


def find_chromium(*, install: bool) -> str:
    """Return Chromium's executable, installing Debian's ``chromium`` first if it is missing and ``install``."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    if install and shutil.which("apt-get"):
        sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
        environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run([*sudo, "apt-get", "update", "-qq"], check=True, env=environment)  # noqa: S603
        subprocess.run(  # noqa: S603
            [*sudo, "apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium"],
            check=True,
            env=environment,
        )
        found = shutil.which("chromium")
        if found:
            return found
    raise SystemExit("Chromium is missing: install Debian's package (apt-get install chromium) or run with --install")


# ---------------------------------------------------------------------- playing through the bot
@contextlib.contextmanager
def member_locales(locales: dict[int, str]) -> Iterator[None]:
    """Send each member's interactions with its own client locale and its server's preferred one.

    SimCord sends every interaction as ``en-US``; a Russian player's client says ``ru``.
    """
    original = simcord_interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **kwargs)
        payload["locale"] = locales.get(kwargs["user_id"], payload["locale"])
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    simcord_interactions.base_payload = base_payload
    try:
        yield
    finally:
        simcord_interactions.base_payload = original


def _walk(rows: Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for row in rows:
        yield row
        yield from _walk(row.get("components") or [])
        accessory = row.get("accessory")
        if isinstance(accessory, dict):
            yield accessory


def hand_button(env: simcord.Env, channel_id: int, message_id: int) -> str | None:
    """Return the custom id of the **My cards** button on a message (in any layout), if it has one."""
    rows = env.backend.get_message(channel_id, message_id).components
    return next((c["custom_id"] for c in _walk(rows) if HAND_BUTTON.match(c.get("custom_id") or "")), None)


def _settings(directory: Path) -> Settings:
    return Settings(
        discord_token=None,
        database_path=str(directory / "screens.sqlite3"),
        default_locale=LOCALE,
        ai_delay_seconds=0,
        board_edit_interval=0,
        default_clock_seconds=CLOCK_SECONDS,
        click_burst=0,
        open_table_cooldown_seconds=0,
        _env_file=None,
    )


class Stage:
    """A Russian server with a channel per game and Анна, on the real bot."""

    def __init__(self, env: simcord.Env, bot: TableBot, locales: dict[int, str]) -> None:
        self.env = env
        self.bot = bot
        self.guild = env.create_guild("Клуб настольных игр", preferred_locale=LOCALE)
        self.anna = self.guild.add_member(env.create_user("anna", global_name=HUMAN))
        locales[self.anna.id] = LOCALE
        self._seeds: list[str] = []
        service = bot.service
        original = service.create_lobby

        async def create_lobby(**kwargs: Any) -> Table:
            # A seeded table: the same moves, hands and pictures on every run.
            if self._seeds:
                kwargs["seed"] = self._seeds.pop()
                # Reaction windows run in real time under SimCord: a long one keeps Анна's decision
                # on screen while the pictures are taken.
                kwargs["options"] = {**kwargs["options"], "reaction_clock": CLOCK_SECONDS}
            return await original(**kwargs)

        service.create_lobby = create_lobby  # type: ignore[method-assign]  # the seed of the scene's table

    async def _wait_for_anna(self, table: Table) -> None:
        """Wait until the table waits for Анна, or is over.

        A move made through the service (not a click) starts the AI seats' answers outside
        SimCord's bookkeeping, so settling alone would not wait for them.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SETTLE_SECONDS
        while True:
            await self.env.settle()
            state = table.state
            seat = table.seat_of(self.anna.id)
            if table.status != "active" or state is None or seat is None:
                return
            if seat.seat in table.engine.active_seats(state):
                return
            if loop.time() > deadline:
                raise RuntimeError(f"table #{table.id} waits for nobody the script plays")
            await asyncio.sleep(0.02)

    async def play(self, scene: Scene) -> Played:
        """Open ``scene``'s table, play Анна's moves while AIs answer, then open her panel."""
        env, service = self.env, self.bot.service
        channel = self.guild.create_text_channel(scene.game)
        self._seeds.append(scene.seed)
        before = set(service.tables)
        result = await self.anna.slash(channel, f"{scene.game} new", **scene.options)
        if result.response is None:
            raise RuntimeError(f"/{scene.game} new did not answer")
        (table_id,) = set(service.tables) - before
        lobby = result.response.message
        for verb in ["addai"] * (scene.players - 1) + ["start"]:
            await self.anna.click(lobby, custom_id=f"lobby:{table_id}:{verb}")
        table = await service.get(table_id)
        agent = AGENTS.get(scene.game, RandomAgent())
        moves = 0
        while True:
            await self._wait_for_anna(table)
            state = table.state
            seat = table.seat_of(self.anna.id)
            if table.status != "active" or state is None or seat is None or moves == scene.moves:
                break
            action = choose_ai_action(table.engine, agent, state, seat.seat)
            await service.act(table.id, self.anna.id, table.prompt_version, action)
            moves += 1
        await env.settle()
        thread = next(t for t in channel.threads if t.id == table.thread_id)
        if table.board_message_id is None:
            raise RuntimeError(f"table #{table.id} has no board message")
        played = Played(scene, table, thread, None, moves)
        board = played.board()
        hand = hand_button(env, thread.id, board.id)
        if hand is not None:
            panel = await self.anna.click(board, custom_id=hand)
            played.panel = panel if panel.response is not None else None
        return played


# ---------------------------------------------------------------------- pictures
@dataclass
class Shot:
    """One picture to take: its file, what it shows and how."""

    path: Path
    target: Callable[[], Any]
    layout: str
    mode: str
    viewport: tuple[int, int]


def shots(played: Played, out: Path) -> list[Shot]:
    """Return the pictures of ``played`` at every width of :data:`WIDTHS`."""
    found: list[Shot] = []
    for width, height in WIDTHS.values():
        stem = f"{played.scene.prefix}-{{}}-{width}.png"
        tall = (width, SURFACE_HEIGHT)
        found.append(Shot(out / stem.format("thread"), played.latest, "channel", "viewport", (width, height)))
        found.append(Shot(out / stem.format("board"), played.board, "message", "surface", tall))
        if played.panel is not None:
            found.append(Shot(out / stem.format("panel"), played.opened_panel, "message", "surface", tall))
    return found


@contextlib.asynccontextmanager
async def preview_of(env: simcord.Env, played: Played, viewer: Any) -> AsyncIterator[Any]:
    """Open SimCord's preview of ``played``'s thread as ``viewer`` sees it, in Russian, at the real time."""
    width, height = WIDTHS["desktop"]
    async with env.preview(
        played.thread,
        viewers=[viewer],
        locale=LOCALE,
        timezone="Europe/Moscow",
        # The bot's clocks are real time ("decide within 10 minutes"), SimCord's is a fixed date.
        presentation_time=datetime.now(UTC),
        display="fixed",
        width=width,
        height=height,
    ) as preview:
        yield preview


async def check_pages(preview: Any, played: Played) -> None:
    """Check that the preview builds every page to draw (the board with its picture, the panel)."""
    for target in (played.latest(), played.board(), played.panel):
        if target is None:
            continue
        await preview.show(target)
        snapshot = await preview.snapshot()
        if str(snapshot.get("targetId")) not in {str(getattr(target, "id", "")), *_result_ids(target)}:
            raise RuntimeError(f"the preview did not focus {target!r}: {snapshot.get('targetId')}")
        if getattr(target, "id", None) == played.table.board_message_id and not drawn_images(snapshot):
            raise RuntimeError(f"the preview has no picture to draw on the board of table #{played.table.id}")


def drawn_images(snapshot: dict[str, Any]) -> list[str]:
    """Return the file names of the images a preview snapshot can draw (avatars aside)."""
    return [
        str(asset.get("filename"))
        for asset in (snapshot.get("assets") or {}).values()
        if asset.get("available")
        and str(asset.get("contentType", "")).startswith("image/")
        and not str(asset.get("filename", "")).startswith("avatar-")
    ]


def _result_ids(target: Any) -> set[str]:
    response = getattr(target, "response", None)
    return {str(response.id)} if response is not None else set()


async def capture(preview: Any, browser: ChromiumBrowser, shot: Shot, viewer: Any) -> Any:
    """Take ``shot`` with ``browser`` standing in for Playwright's in the preview's capture."""
    # The preview's capture asks its manager for a browser only when it has none; hand it ours.
    preview._capture_manager._browser = browser
    return await preview.screenshot(
        shot.path,
        viewer=viewer,
        target=shot.target(),
        mode=shot.mode,
        viewport=shot.viewport,
        layout=shot.layout,
        allow_incomplete=True,
    )


async def run(out: Path, *, html_only: bool = False, install: bool = True, games: Sequence[str] = ()) -> list[Path]:
    """Play every scene (or those of ``games``) and write its screenshots to ``out``.

    Return the files written (with ``html_only``, the files it would write; it writes none).
    """
    scenes = [scene for scene in SCENES if not games or scene.game in games]
    executable = None if html_only else find_chromium(install=install)
    if not html_only:
        out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    locales: dict[int, str] = {}
    with tempfile.TemporaryDirectory(prefix="screens-") as tmp, member_locales(locales):
        settings = _settings(Path(tmp))
        storage = await Storage.open(settings.database_path)
        browser = None
        try:
            bot = create_bot(settings, storage=storage)
            async with simcord.run(bot, settle_timeout=SETTLE_SECONDS) as env:
                stage = Stage(env, bot, locales)
                if executable is not None:
                    browser = await ChromiumBrowser.launch(executable, Path(tmp) / "chromium-profile")
                for scene in scenes:
                    played = await stage.play(scene)
                    async with preview_of(env, played, stage.anna) as preview:
                        await check_pages(preview, played)
                        for shot in shots(played, out):
                            written.append(shot.path)
                            if browser is not None:
                                report = await capture(preview, browser, shot, stage.anna)
                                print(f"{shot.path} ({report.output_width}×{report.output_height})")
                    if played.panel is None:
                        print(f"{scene.game}: the board has no “My cards” button, so no panel picture", file=sys.stderr)
                await bot.service.close()
        finally:
            if browser is not None:
                await browser.shutdown()
            await storage.close()
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Take the screenshots from the command line."""
    parser = argparse.ArgumentParser(prog="python -m scripts.screens", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots/preview"), help="output directory")
    parser.add_argument("--game", action="append", choices=list(ENGINES), help="only this game (repeatable)")
    parser.add_argument("--html-only", action="store_true", help="play and build the pages, start no browser")
    parser.add_argument("--no-install", action="store_true", help="never install Chromium with apt-get")
    args = parser.parse_args(argv)
    asyncio.run(run(args.out, html_only=args.html_only, install=not args.no_install, games=args.game or ()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
