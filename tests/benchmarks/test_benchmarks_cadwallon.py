"""The «Гильдии Кадвалона» render benchmark runs at tiny sizes and produces numbers (no timing asserted)."""

from __future__ import annotations

import re

from benchmarks.render import bench_render_cadwallon


def test_cadwallon_render():
    lines = bench_render_cadwallon(samples=2, games=1, warmup=1, repeats=1, tables=((3, 2), (5, 8)))
    assert [line.name.split(" (")[0] for line in lines] == ["3×3, 2 seats", "5×5, 8 seats"]
    for line in lines:
        assert re.search(r"p50 \d", line.value) and "KB" in line.value
        assert line.verdict in {"PASS", "MISS"}
