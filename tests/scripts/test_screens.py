"""The "What players see" screenshots: every game played through the real bot and drawn by the preview.

No browser here (CI has none): the script runs with ``--html-only``, which plays every scene and
checks that SimCord's preview builds each page it would photograph. The pictures themselves are
taken by ``make screens`` and committed; the README must show every one of them.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from games.registry import ENGINES
from scripts.screens import CHROMIUM_FLAGS, SCENES, WIDTHS, chromium_arguments, drawn_images, run

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
