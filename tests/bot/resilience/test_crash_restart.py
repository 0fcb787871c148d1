"""SIGKILL at random moments and at exact ones: every game finishes, nothing is lost or applied twice.

See :mod:`tests.bot.resilience.crash` for the checks after each kill. The normal run kills the
driver a few times (each pause point kind at least once); ``make soak`` kills it over a hundred
times, every game in play at each kill.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.resilience.crash import IN_TRANSACTION, crash_run
from tests.bot.resilience.registry import playable_games, record, scale

pytestmark = pytest.mark.asyncio


async def test_tables_survive_sigkill(tmp_path: Path) -> None:
    games = playable_games()
    sizes = scale()
    report = await crash_run(
        tmp_path, cycles=sizes.kill_cycles, games=games, tables=sizes.crash_tables, seed=f"crash-{sizes.name}"
    )
    record(
        "crash",
        None,
        cycles=report.cycles,
        kills_by_game=dict(report.kills_by_game),
        targeted=dict(report.targeted),
        targeted_pairs=dict(report.targeted_pairs),
        missed_pauses=dict(report.missed_pauses),
        random_kills=report.random_kills,
        reclicks=report.reclicks,
        reclicks_refused=report.reclicks_refused,
        commits_checked=report.commits_checked,
        tables_checked=report.tables_checked,
        finished=dict(report.finished_tables),
        seconds=round(report.seconds, 1),
    )
    assert report.cycles == sizes.kill_cycles
    # Every kill landed in live play of every game (the driver keeps each game's tables in play).
    assert all(report.kills_by_game[game] >= sizes.kill_cycles - 1 for game in games), report.kills_by_game
    # The exact points were reached: at least one kill inside a transaction and one after a commit.
    assert sum(report.targeted[p] for p in IN_TRANSACTION) >= 1, report
    assert report.targeted["after_commit"] + report.targeted["after_clock"] >= 1, report
    assert all(report.finished_tables[game] >= 1 for game in games), report.finished_tables
    assert report.reclicks_refused >= 1 or report.reclicks == 0, report
