"""Each benchmark runs at tiny sizes and produces numbers; nothing here asserts on timings."""

from __future__ import annotations

import re

import pytest

import benchmarks.__main__ as cli
import games.registry
from benchmarks import masti
from benchmarks.bookkeeping import bench_bookkeeping
from benchmarks.clicks import bench_clicks
from benchmarks.common import Line, percentile, registered_games
from benchmarks.engine import bench_ai, bench_playouts
from benchmarks.games import DEDICATED, bench_games
from benchmarks.memory import bench_memory
from benchmarks.render import bench_render
from benchmarks.spam import bench_spam
from benchmarks.winrate import bench_winrate, wilson
from games.core import RandomAgent


def check(lines: list[Line], count: int) -> None:
    assert len(lines) == count
    for line in lines:
        assert re.search(r"\d", line.value), line
        assert line.target
        assert line.verdict in {"PASS", "MISS"}


@pytest.mark.asyncio
async def test_clicks(tmp_path):
    lines = await bench_clicks(tmp_path / "bench.sqlite3", tables=4, clicks=40, warmup=5, workers=2, games=["coup"])
    check(lines, 7)
    assert (tmp_path / "bench.sqlite3").exists()
    assert "bare SQLite commit of a move" in lines[3].name and "÷ bare commit" in lines[4].name
    assert "synchronous=FULL" in lines[5].name
    assert "click including its public board PNG" in lines[6].name and "coup (40 clicks" in lines[6].name
    assert "CPU time" in lines[6].value


@pytest.mark.asyncio
async def test_clicks_without_the_board_png_line(tmp_path):
    lines = await bench_clicks(
        tmp_path / "bench.sqlite3", tables=4, clicks=20, warmup=5, workers=2, games=["coup"], png_clicks=0
    )
    check(lines, 6)


@pytest.mark.asyncio
async def test_clicks_on_a_fleet_of_every_game(tmp_path):
    games = registered_games()
    lines = await bench_clicks(tmp_path / "bench.sqlite3", tables=2 * len(games), clicks=40, warmup=5, workers=2)
    # A line per game for the click with its board PNG, and one of the click and its ratio by game.
    check(lines, 6 + len(games) + 1)
    assert f"of {len(games)} games" in lines[0].name
    png_lines = lines[6 : 6 + len(games)]
    assert all("click including its public board PNG" in line.name for line in png_lines)
    assert [line.name.split(", ")[1].split(" (")[0] for line in png_lines] == games
    assert all(f"{game} " in lines[-1].value for game in games)


def test_render():
    check(bench_render(samples=3, games=1, warmup=1, seat_counts=range(2, 4)), 2)


def test_playouts():
    check(bench_playouts(games=5, warmup=1), 1)


def test_ai():
    check(bench_ai(games=3, warmup=5), 2)


def test_winrate():
    check(bench_winrate(games_4p=4, games_other=2), 3)


def test_masti_render():
    check(masti.bench_render(samples=3, games=1, warmup=1, seat_counts=(3, 6)), 2)


def test_masti_playouts():
    check(masti.bench_playouts(games=5, warmup=1), 1)


def test_masti_ai_names_the_agent_it_measured():
    lines = masti.bench_ai(games=5, warmup=2)
    check(lines, 2)
    _agent, name = masti.masti_agent()
    assert all(name in line.name for line in lines)
    assert lines[1].value == "5 of 5"  # every variant once; Masti games always end


def test_masti_agent_falls_back_to_random_when_none_is_registered(monkeypatch):
    monkeypatch.delitem(games.registry.AGENTS, "masti", raising=False)
    agent, name = masti.masti_agent()
    assert isinstance(agent, RandomAgent)
    assert name.startswith("RandomAgent")


def test_masti_winrate_covers_every_variant_and_does_not_depend_on_workers():
    lines = masti.bench_winrate(games=3, workers=1, chunk=2)
    check(lines, 5)
    labels = [line.name.split(":")[0] for line in lines]
    assert labels == ["3 seats", "4 seats", "4 seats, teams", "5 seats", "6 seats, teams"]
    assert "AI team of 2 vs 2 random teams" in lines[4].name
    assert lines[2].target == "≥ 90.0% (2.5× fair share 50.0%, capped at 90%)"
    assert lines[1].target == "≥ 62.5% (2.5× fair share 25.0%)"
    variants = (masti.Variant(3), masti.Variant(6))
    one = masti.bench_winrate(games=4, variants=variants, workers=1, chunk=2)
    two = masti.bench_winrate(games=4, variants=variants, workers=2, chunk=2)
    assert [line.value for line in one] == [line.value for line in two]


def test_masti_variants_seat_teams_as_the_engine_does():
    assert masti.Variant(4).units == ((0,), (1,), (2,), (3,))
    assert masti.Variant(4, teams=True).units == ((0, 2), (1, 3))
    assert masti.Variant(6).units == ((0, 3), (1, 4), (2, 5))


def test_every_registered_game_gets_its_sections():
    lines = bench_games(render_samples=2, playout_games=2, ai_games=1, repeats=1)
    games = registered_games()
    extra = [game for game in games if game not in DEDICATED]
    check(lines, len(games) + 3 * len(extra))
    assert [line.name.split(":")[0] for line in lines[: len(games)]] == games
    assert all("bare PNG encode" in line.value and "ratio" in line.value for line in lines[: len(games)])


def test_memory_and_restart(tmp_path):
    lines = bench_memory(tmp_path, tables=6)
    check(lines, 3)
    assert (
        "6 live tables" in lines[0].name
        and "restore 6 live tables" in lines[1].name
        and "6 clocks armed" in lines[1].name
    )


def test_spam(tmp_path):
    lines = bench_spam(tmp_path, clicks=40)
    check(lines, 4)
    assert all("event-loop lag, 20 members" in line.name for line in lines)
    # 40 clicks: two each, within the click limit's burst, so every one gets its panel.
    assert all("40 clicks" in line.name and "40 panel" in line.name for line in lines)
    assert [line.target == "(context)" for line in lines] == [False, False, True, True]


def test_memory_over_finished_tables(tmp_path):
    lines = bench_bookkeeping(tmp_path, tables=12)
    check(lines, 1 + 11)  # RSS, then one line per map of benchmarks.bookkeeping.per_table_maps
    assert "12 finished or cancelled tables" in lines[0].name
    assert all(line.value == "0" for line in lines[1:])  # every per-table map is empty


def test_statistics():
    assert percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50) == 3.0
    assert percentile([float(i) for i in range(1, 101)], 99) == 99.0
    low, high = wilson(60, 100)
    assert round(low, 3) == 0.502
    assert round(high, 3) == 0.691


TINY = cli.Sizes(
    tables=3,
    clicks=12,
    render_samples=2,
    playout_games=3,
    ai_games=2,
    winrate_4p=4,
    winrate_other=2,
    masti_render_samples=2,
    masti_playout_games=3,
    masti_ai_games=5,
    masti_winrate=2,
    tables_large=4,
    games_render_samples=2,
    games_playout_games=2,
    games_ai_games=1,
    memory_tables=4,
    spam_clicks=20,
    bookkeeping_tables=12,
    replay_samples=2,
    balance_games=0,  # tests/benchmarks/test_balance.py covers the balance section
)
COUP_ROWS = 6 + 5 + 1 + 2 + 3
MASTI_ROWS = 4 + 1 + 2 + 5
#: With every game: both click runs on the mixed fleet (each with its line by game), the per-game
#: sections over the registry, memory and restart, click spam, memory over finished tables, one replay step.
EVERY_GAME_ROWS = 1 + 7 + len(registered_games()) + 3 * len(set(registered_games()) - DEDICATED) + 3 + 4 + 12 + 1


def rows_of(report: str) -> list[str]:
    return [row for row in report.splitlines() if row.startswith("| ") and row.endswith(("PASS |", "MISS |"))]


def split_png_rows(rows: list[str]) -> tuple[list[str], list[str]]:
    """Return the rows without, and the rows of, the click with its board PNG.

    That measure has a line per game that got such a click, and which games do in a tiny run
    depends on which tables finish and are replaced: the tests count the other rows exactly.
    """
    png = [row for row in rows if "click including its public board PNG" in row]
    return [row for row in rows if row not in png], png


@pytest.mark.parametrize(("game", "count"), [("coup", COUP_ROWS), ("masti", MASTI_ROWS)])
def test_cli_runs_one_game(tmp_path, monkeypatch, game, count):
    monkeypatch.setattr(cli, "QUICK", TINY)
    assert cli.main(["--out", str(tmp_path), "--quick", "--game", game]) == 0
    rows, png = split_png_rows(rows_of((tmp_path / "report.md").read_text(encoding="utf-8")))
    assert len(rows) == count
    assert bool(png) == (game == "coup")  # Масти's own section has no click run
    assert all(("Масти Власти" in row) == (game == "masti") for row in rows)


def test_cli_writes_the_report(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cli, "QUICK", TINY)
    assert cli.main(["--out", str(tmp_path), "--quick"]) == 0
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert report.startswith("# Performance report")
    assert report.strip() in capsys.readouterr().out
    rows, png = split_png_rows(rows_of(report))
    assert len(rows) == COUP_ROWS + MASTI_ROWS + EVERY_GAME_ROWS
    assert {game for game in registered_games() for row in png if f", {game} (" in row} == set(registered_games())
