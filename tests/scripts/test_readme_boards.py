"""The README's "Playing" pictures: one per game, drawn mid-game by the real renderers, all shown."""

from __future__ import annotations

from pathlib import Path

from games.registry import ENGINES
from scripts.readme_boards import HEADLINES, PICTURES, main, play

ROOT = Path(__file__).parents[2]


def test_every_game_has_a_picture_of_a_game_in_progress() -> None:
    assert [p.game for p in PICTURES] == list(ENGINES)
    for picture in PICTURES:
        state = play(picture)
        assert ENGINES[picture.game].outcome(state) is None, picture.game  # mid-game, not the end
        assert state.version == picture.moves  # every planned move was played


def test_the_pictures_are_written_as_pngs(tmp_path) -> None:
    assert main(["--out", str(tmp_path), "--locale", "en"]) == 0
    for picture in PICTURES:
        assert (tmp_path / f"playing-{picture.game}.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    for name, _game, _sample in HEADLINES:
        assert (tmp_path / name).read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_the_readme_shows_every_picture_and_every_picture_is_committed() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for picture in PICTURES:
        path = f"docs/screenshots/playing-{picture.game}.png"
        assert f"({path})" in readme, path
        assert (ROOT / path).is_file(), path
    for name, _game, _sample in HEADLINES:
        path = f"docs/screenshots/{name}"
        assert f"({path})" in readme, path
        assert (ROOT / path).is_file(), path
