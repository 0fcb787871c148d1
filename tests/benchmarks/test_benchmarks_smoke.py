"""Each benchmark runs at tiny sizes and produces numbers; nothing here asserts on timings."""

from __future__ import annotations

import re

import pytest

import benchmarks.__main__ as cli
from benchmarks.clicks import bench_clicks
from benchmarks.common import Line, percentile
from benchmarks.engine import bench_ai, bench_playouts
from benchmarks.render import bench_render
from benchmarks.winrate import bench_winrate, wilson


def check(lines: list[Line], count: int) -> None:
    assert len(lines) == count
    for line in lines:
        assert re.search(r"\d", line.value), line
        assert line.target
        assert line.verdict in {"PASS", "MISS"}


@pytest.mark.asyncio
async def test_clicks(tmp_path):
    lines = await bench_clicks(tmp_path / "bench.sqlite3", tables=4, clicks=40, warmup=5, workers=2)
    check(lines, 3)
    assert (tmp_path / "bench.sqlite3").exists()


def test_render():
    check(bench_render(samples=3, games=1, warmup=1, seat_counts=range(2, 4)), 2)


def test_playouts():
    check(bench_playouts(games=5, warmup=1), 1)


def test_ai():
    check(bench_ai(games=3, warmup=5), 2)


def test_winrate():
    check(bench_winrate(games_4p=4, games_other=2), 3)


def test_statistics():
    assert percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50) == 3.0
    assert percentile([float(i) for i in range(1, 101)], 99) == 99.0
    low, high = wilson(60, 100)
    assert round(low, 3) == 0.502
    assert round(high, 3) == 0.691


def test_cli_writes_the_report(tmp_path, monkeypatch, capsys):
    tiny = cli.Sizes(tables=3, clicks=12, render_samples=2, playout_games=3, ai_games=2, winrate_4p=4, winrate_other=2)
    monkeypatch.setattr(cli, "QUICK", tiny)
    assert cli.main(["--out", str(tmp_path), "--quick"]) == 0
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert report.startswith("# Performance report")
    assert report.strip() in capsys.readouterr().out
    rows = [row for row in report.splitlines() if row.startswith("| ") and row.endswith(("PASS |", "MISS |"))]
    assert len(rows) == 3 + 5 + 1 + 2 + 3
