"""Smoke test of the offline demo: short games of each game through the real bot on SimCord."""

from __future__ import annotations

import re

import pytest

from scripts.demo import PLAN, main, plan_for


def test_plan_covers_the_promised_games():
    coup = plan_for("coup")
    ru = [spec for spec in coup if spec.locale == "ru"]
    assert {spec.players for spec in ru if not spec.draft} >= {2, 4, 6}
    assert any(spec.draft and spec.players == 2 for spec in ru)
    assert any(spec.locale == "en" for spec in coup)


def test_plan_covers_every_masti_variant():
    masti = plan_for("masti")
    ru = {(spec.players, spec.teams) for spec in masti if spec.locale == "ru" and not spec.hosted}
    assert ru >= {(3, False), (4, False), (4, True), (5, False), (6, False)}
    assert any(spec.locale == "en" and spec.hosted for spec in masti)
    assert plan_for("all") == PLAN
    others = set(plan_for("cadwallon")) | set(plan_for("intrigue"))
    assert set(plan_for("coup")) | set(masti) | others == set(PLAN)
    with pytest.raises(ValueError, match="unknown game"):
        plan_for("chess")


def test_plan_covers_cadwallon_on_a_3x3_and_a_5x5_grid():
    cadwallon = plan_for("cadwallon")
    assert {(spec.grid, spec.players) for spec in cadwallon if not spec.hosted} >= {(3, 4), (5, 8)}
    hosted = [spec for spec in cadwallon if spec.hosted]
    assert hosted and hosted[0].locale == "en" and hosted[0].grid == 3
    assert "Гильдии Кадвалона, en, 2 players, 3×3" in hosted[0].label


def test_demo_plays_one_game_and_writes_transcript_and_boards(tmp_path, capsys):
    assert main(["--out", str(tmp_path), "--games", "1", "--seed", "smoke"]) == 0

    summary = capsys.readouterr().out
    assert re.search(r"Demo: 1 games, [1-9]\d* moves, [1-9]\d* board images", summary)
    transcript = (tmp_path / "transcript.md").read_text(encoding="utf-8")
    assert "## Game 1" in transcript
    assert "/coup new" in transcript
    # Before the games Alice asks for /help: its private answer is shown, commands as the mentions read.
    help_part = transcript[transcript.index("## Help") : transcript.index("## Game 1")]
    assert "Alice runs /help" in help_part and "Tabletop games: help" in help_part
    assert "[/coup new]" in help_part and "[/leaderboard]" in help_part and "[📖 Coup: rules]" in help_part
    assert "results of table #1" in transcript
    # The lobby message in the channel becomes the result card, with the final board.
    card = transcript.split("into the result card:", 1)[1].split("\n\n-", 1)[0]
    assert "Coup — table #1: the game is over" in card and "The game: #" in card
    assert re.search(r"\]\(coup-1-\d{3}\.png\)", card) and "[Rematch]" in card
    # Alice steps through the finished game's replay from /history.
    assert "### Replay of table #1" in transcript and "Alice runs /history" in transcript
    assert "Step 1 of " in transcript and "Alice jumps to “Turn " in transcript
    boards = sorted(tmp_path.glob("coup-1-*.png"))
    assert boards
    assert all(path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for path in boards)
    linked = re.findall(r"\]\((coup-1-\d{3}\.png)\)", transcript)
    assert linked
    assert all((tmp_path / name).exists() for name in linked)
    panel = (tmp_path / "private-panel.md").read_text(encoding="utf-8")
    assert "your cards" in panel.lower()


def test_demo_plays_one_masti_game_through_the_private_panel(tmp_path, capsys):
    assert main(["--out", str(tmp_path), "--game", "masti", "--games", "1", "--seed", "smoke"]) == 0

    summary = capsys.readouterr().out
    assert re.search(r"Demo: 1 games, [1-9]\d* moves, [1-9]\d* board images", summary)
    assert "Масти Власти, en, 4 players, teams" in summary
    transcript = (tmp_path / "transcript.md").read_text(encoding="utf-8")
    assert "/masti new teams:True" in transcript
    assert "results of table #1" in transcript
    assert not list(tmp_path.glob("coup-*.png"))
    boards = sorted(tmp_path.glob("masti-1-*.png"))
    assert boards
    assert all(path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for path in boards)
    linked = re.findall(r"\]\((masti-1-\d{3}\.png)\)", transcript)
    assert linked
    assert all((tmp_path / name).exists() for name in linked)
    panel = (tmp_path / "private-panel-masti.md").read_text(encoding="utf-8")
    assert "Suits of Power: your cards" in panel
    assert not (tmp_path / "private-panel.md").exists()


def test_demo_plays_one_cadwallon_game_through_the_board_and_the_panel(tmp_path, capsys):
    assert main(["--out", str(tmp_path), "--game", "cadwallon", "--games", "1", "--seed", "smoke"]) == 0

    summary = capsys.readouterr().out
    assert re.search(r"Demo: 1 games, [1-9]\d* moves, [1-9]\d* board images", summary)
    assert "Гильдии Кадвалона, en, 2 players, 3×3" in summary
    transcript = (tmp_path / "transcript.md").read_text(encoding="utf-8")
    assert "/cadwallon new grid:3" in transcript
    assert "Alice chooses “" in transcript  # a placement taken with the board's select
    assert "results of table #1" in transcript
    boards = sorted(tmp_path.glob("cadwallon-1-*.png"))
    assert boards and all(path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for path in boards)
    panel = (tmp_path / "private-panel-cadwallon.md").read_text(encoding="utf-8")
    assert "Guilds of Cadwallon: your cards" in panel


def test_plan_covers_intrigue_with_seven_and_nine_lands():
    intrigue = plan_for("intrigue")
    assert {spec.players for spec in intrigue if not spec.hosted} >= {4, 6}  # 7 lands, and 9 from six players
    hosted = [spec for spec in intrigue if spec.hosted]
    assert hosted and hosted[0].locale == "en"
    assert "Интриги, en, 3 players, host plays through the buttons" in hosted[0].label


def test_demo_plays_one_intrigue_game_through_the_board_and_the_panel(tmp_path, capsys):
    assert main(["--out", str(tmp_path), "--game", "intrigue", "--games", "1", "--seed", "smoke"]) == 0

    summary = capsys.readouterr().out
    assert re.search(r"Demo: 1 games, [1-9]\d* moves, [1-9]\d* board images", summary)
    transcript = (tmp_path / "transcript.md").read_text(encoding="utf-8")
    assert "/intrigue new" in transcript
    assert "Alice chooses “" in transcript  # a placement taken with the board's select
    assert "results of table #1" in transcript
    boards = sorted(tmp_path.glob("intrigue-1-*.png"))
    assert boards and all(path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for path in boards)
    panel = (tmp_path / "private-panel-intrigue.md").read_text(encoding="utf-8")
    assert "Intrigue: your cards" in panel
