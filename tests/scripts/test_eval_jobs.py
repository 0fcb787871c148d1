"""The chunking shared by the AI-measuring scripts: every game exactly once, results in game order."""

from __future__ import annotations

import pytest

from scripts.eval_jobs import game_ranges, run_jobs


@pytest.mark.parametrize(("games", "workers"), [(1, 1), (10, 1), (10, 2), (7, 4), (200, 2), (3, 0)])
def test_ranges_cover_every_game_once_in_order(games: int, workers: int) -> None:
    ranges = game_ranges(games, workers)
    assert [g for first, count in ranges for g in range(first, first + count)] == list(range(games))
    assert len(ranges) <= games and all(count >= 1 for _first, count in ranges)


def test_run_jobs_joins_the_chunks_in_job_order() -> None:
    jobs = game_ranges(10, 1)
    assert run_jobs(games_of, jobs, workers=1) == list(range(10))


def games_of(job: tuple[int, int]) -> list[int]:
    first, count = job
    return list(range(first, first + count))
