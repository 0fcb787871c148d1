"""The sizes of the resilience runs: the CI-sized run still kills at every point of every game."""

from __future__ import annotations

from dataclasses import fields

import pytest

from tests.bot.resilience.crash import POINTS, schedule
from tests.bot.resilience.registry import CI, FAST, SOAK, playable_games, scale


@pytest.mark.parametrize(("name", "expected"), [("fast", FAST), ("ci", CI), ("soak", SOAK), ("nonsense", FAST)])
def test_the_environment_names_the_sizes(monkeypatch, name, expected):
    monkeypatch.setenv("RESILIENCE_SCALE", name)
    assert scale() == expected


def test_the_ci_run_lies_between_the_fast_and_the_long_one():
    for size in fields(CI):
        if size.name in {"name", "workers", "draw_boards"}:
            continue
        fast, ci, soak = (getattr(s, size.name) for s in (FAST, CI, SOAK))
        assert fast <= ci <= soak, size.name
    assert CI.draw_boards and CI.kill_cycles < SOAK.kill_cycles and CI.leak_games < SOAK.leak_games


@pytest.mark.parametrize("sizes", [CI, SOAK], ids=lambda s: s.name)
def test_the_long_runs_kill_at_every_point_of_every_game(sizes):
    games = playable_games()
    planned = [pause.rsplit(":", 1)[0] for pause in schedule(sizes.kill_cycles, games, "any") if pause is not None]
    assert set(planned) == {f"{point}:{game}" for point in POINTS for game in games}
    # ... and a fifth of the kills or more still fall at random moments.
    assert sizes.kill_cycles - len(planned) >= sizes.kill_cycles // 5
