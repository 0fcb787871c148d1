"""Smoke test of the offline demo: one short game through the real bot on SimCord."""

from __future__ import annotations

import re

from scripts.demo import PLAN, main


def test_plan_covers_the_promised_games():
    ru = [spec for spec in PLAN if spec.locale == "ru"]
    assert {spec.players for spec in ru if not spec.draft} >= {2, 4, 6}
    assert any(spec.draft and spec.players == 2 for spec in ru)
    assert any(spec.locale == "en" for spec in PLAN)


def test_demo_plays_one_game_and_writes_transcript_and_boards(tmp_path, capsys):
    assert main(["--out", str(tmp_path), "--games", "1", "--seed", "smoke"]) == 0

    summary = capsys.readouterr().out
    assert re.search(r"Demo: 1 games, [1-9]\d* moves, [1-9]\d* board images", summary)
    transcript = (tmp_path / "transcript.md").read_text(encoding="utf-8")
    assert "## Game 1" in transcript
    assert "/coup new" in transcript
    assert "results of table #1" in transcript
    boards = sorted(tmp_path.glob("coup-1-*.png"))
    assert boards
    assert all(path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for path in boards)
    linked = re.findall(r"\]\((coup-1-\d{3}\.png)\)", transcript)
    assert linked
    assert all((tmp_path / name).exists() for name in linked)
    panel = (tmp_path / "private-panel.md").read_text(encoding="utf-8")
    assert "your cards" in panel.lower()
