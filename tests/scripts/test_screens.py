"""The "What players see" screenshots: every game played through the real bot and drawn by the preview.

No browser here (CI has none): the script runs with ``--html-only``, which plays every scene and
checks that SimCord's preview builds each page it would photograph. The pictures themselves are
taken by ``make screens`` and committed; the README must show every one of them.
"""

from __future__ import annotations

import asyncio
import base64
import json
import shutil
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from games.registry import ENGINES
from scripts.screens import (
    CHROMIUM_FLAGS,
    SCENES,
    WIDTHS,
    ChromiumBrowser,
    DevToolsError,
    _Connection,
    chromium_arguments,
    drawn_images,
    run,
)

ROOT = Path(__file__).parents[2]
KINDS = ("thread", "board", "panel")


def expected_files() -> set[str]:
    return {f"{scene.game}-{kind}-{width}.png" for scene in SCENES for kind in KINDS for width, _ in WIDTHS.values()}


def test_every_game_has_a_scene() -> None:
    assert sorted(scene.game for scene in SCENES) == sorted(ENGINES)
    assert {width for width, _ in WIDTHS.values()} == {1280, 400}


def test_chromium_runs_headless_offline_with_a_fresh_profile(tmp_path) -> None:
    arguments = chromium_arguments(tmp_path / "profile")
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ):
        assert flag in arguments
    assert arguments[: len(CHROMIUM_FLAGS)] == list(CHROMIUM_FLAGS)
    assert f"--user-data-dir={tmp_path / 'profile'}" in arguments


def test_every_game_is_played_and_every_page_builds_without_a_browser(tmp_path, monkeypatch) -> None:
    # No Chromium on this machine as far as the script can tell: html-only must not look for one.
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    out = tmp_path / "out"
    planned = asyncio.run(run(out, html_only=True))
    # A thread, a board and a panel (the board has "My cards") of every game at both widths.
    assert sorted(path.name for path in planned) == sorted(expected_files())
    assert {path.parent for path in planned} == {out}
    assert not out.exists()  # nothing is written without a browser


def test_only_pictures_of_the_game_count_as_drawn() -> None:
    snapshot = {
        "assets": {
            "a": {"filename": "avatar-1.png", "contentType": "image/png", "available": True},
            "b": {"filename": "board.png", "contentType": "image/png", "available": True},
            "c": {"filename": "gone.png", "contentType": "image/png", "available": False},
            "d": {"filename": "log.txt", "contentType": "text/plain", "available": True},
        }
    }
    assert drawn_images(snapshot) == ["board.png"]
    assert drawn_images({}) == []


def test_the_readme_shows_every_screenshot_and_every_screenshot_is_committed() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "## What players see" in readme
    for name in sorted(expected_files()):
        path = f"docs/screenshots/preview/{name}"
        assert path in readme, path
        assert (ROOT / path).read_bytes().startswith(b"\x89PNG\r\n\x1a\n"), path


# ---------------------------------------------------------------------- the DevTools client, against a fake Chromium
class FakeChromium:
    """A DevTools websocket that answers like Chromium and records every command it got."""

    def __init__(self) -> None:
        self.commands: list[tuple[str, dict[str, Any], str | None]] = []

    async def handle(self, request):
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for frame in ws:
            message = json.loads(frame.data)
            method, params, session = message["method"], message.get("params", {}), message.get("sessionId")
            self.commands.append((method, params, session))
            answer: dict[str, Any] = {"id": message["id"], "result": RESULTS.get(method, {})}
            if method == "Runtime.evaluate":
                answer["result"] = {"result": {"value": params["expression"]}}
            if method == "Emulation.setLocaleOverride" and params["locale"] == "xx":
                answer = {"id": message["id"], "error": {"message": "Invalid locale"}}
            await ws.send_str(json.dumps(answer))
            if method == "Fetch.enable":
                paused = {"requestId": "r1", "request": {"url": "http://127.0.0.1/api/pages"}}
                await ws.send_str(json.dumps({"method": "Fetch.requestPaused", "params": paused, "sessionId": session}))
            if method == "Page.navigate":
                await ws.send_str(
                    json.dumps({"method": "Page.domContentEventFired", "params": {}, "sessionId": session})
                )
        return ws

    def sent(self, method: str) -> list[dict[str, Any]]:
        return [params for name, params, _session in self.commands if name == method]


def event(method: str, params: dict[str, Any], session: str | None) -> dict[str, Any]:
    return {"method": method, "params": params, "sessionId": session}


RESULTS = {
    "Target.createBrowserContext": {"browserContextId": "ctx"},
    "Target.createTarget": {"targetId": "t1"},
    "Target.attachToTarget": {"sessionId": "s1"},
    "Page.captureScreenshot": {"data": base64.b64encode(b"\x89PNG fake").decode()},
}


@pytest.mark.asyncio
async def test_the_devtools_client_plays_playwrights_part(tmp_path) -> None:
    fake = FakeChromium()
    app = web.Application()
    app.router.add_get("/devtools/browser", fake.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    session = aiohttp.ClientSession()
    connection = _Connection(await session.ws_connect(f"http://127.0.0.1:{port}/devtools/browser"))
    try:
        browser = ChromiumBrowser(None, connection, "Fake")  # type: ignore[arg-type]  # no process to end here
        context = await browser.new_context(
            viewport={"width": 400, "height": 860}, reduced_motion="reduce", locale="ru", timezone_id="Europe/Moscow"
        )
        page = await context.new_page()
        seen: list[str] = []

        async def answer(route) -> None:
            seen.append(route.request.url)
            await route.fulfill(status=200, content_type="application/json", body='{"pinned": "снимок"}')

        await page.route("**/*", answer)
        await page.goto("http://127.0.0.1/#capability")
        assert await page.evaluate("(a, b) => a", 1, {"k": "v"}) == '((a, b) => a)(1, {"k": "v"})'
        await page.screenshot(path=str(tmp_path / "shot.png"), clip={"x": 0, "y": 8, "width": 400, "height": 300})
        await asyncio.sleep(0)  # let the route's answer reach the fake
        assert (tmp_path / "shot.png").read_bytes() == b"\x89PNG fake"
        assert fake.sent("Emulation.setDeviceMetricsOverride") == [
            {"width": 400, "height": 860, "deviceScaleFactor": 1, "mobile": False}
        ]
        assert fake.sent("Emulation.setLocaleOverride") == [{"locale": "ru"}]
        assert fake.sent("Page.captureScreenshot")[0]["clip"] == {
            "x": 0,
            "y": 8,
            "width": 400,
            "height": 300,
            "scale": 1,
        }
        assert seen == ["http://127.0.0.1/api/pages"]
        (fulfilled,) = fake.sent("Fetch.fulfillRequest")
        assert fulfilled["requestId"] == "r1" and fulfilled["responseCode"] == 200
        assert json.loads(base64.b64decode(fulfilled["body"])) == {"pinned": "снимок"}
        # Every page command goes to the page's own session.
        assert {s for name, _p, s in fake.commands if name.startswith(("Page.", "Emulation.", "Fetch."))} == {"s1"}
        with pytest.raises(DevToolsError, match="Invalid locale"):
            await (await browser.new_context(locale="xx")).new_page()
        await page.close()
        await context.close()
    finally:
        await connection.close()
        await session.close()
        await runner.cleanup()
