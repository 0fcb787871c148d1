"""Split the seeded games of the AI-measuring scripts into chunks and run them, in worker processes when asked.

The ``*_ai_eval`` scripts play game numbers ``0 … games−1``; each chunk function plays a range of them
and returns one result per game, so the joined results do not depend on the number of workers.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

J = TypeVar("J")
R = TypeVar("R")


def game_ranges(games: int, workers: int) -> list[tuple[int, int]]:
    """Return ``(first, count)`` ranges covering ``games`` games, about four per worker (to even out their lengths).

    >>> game_ranges(10, 1)
    [(0, 2), (2, 2), (4, 2), (6, 2), (8, 2)]
    """
    step = max(1, games // (max(1, workers) * 4))
    return [(first, min(step, games - first)) for first in range(0, games, step)]


def run_jobs(chunk: Callable[[J], list[R]], jobs: list[J], workers: int) -> list[R]:
    """Run ``chunk`` over ``jobs`` (in ``workers`` processes when more than one) and join the results in order."""
    results: list[R] = []
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            for part in pool.map(chunk, jobs):
                results.extend(part)
    else:
        for job in jobs:
            results.extend(chunk(job))
    return results
