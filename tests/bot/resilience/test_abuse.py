"""Thousands of random bad clicks per game: nothing breaks, nothing changes, everyone gets an answer.

See :mod:`tests.bot.resilience.abuse` for the kinds of interaction and the checks after each. The
normal run sends several hundred per game; ``make soak`` ten thousand.
"""

from __future__ import annotations

import pytest

from bot.settings import Settings
from tests.bot.resilience.abuse import Abuser, Errors
from tests.bot.resilience.leaks import recording_views
from tests.bot.resilience.registry import discord_games, record, scale

pytestmark = pytest.mark.asyncio


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The click limit as shipped (the other SimCord tests turn it off): the abuse runs into it."""
    shipped = Settings(_env_file=None)
    return settings.model_copy(
        update={"click_burst": shipped.click_burst, "clicks_per_second": shipped.clicks_per_second}
    )


@pytest.mark.parametrize("game", discord_games())
async def test_random_bad_interactions(world, monkeypatch, game):
    errors = Errors()
    errors.install(monkeypatch)
    # A click waits on the database's own thread (aiosqlite), a wait SimCord cannot see into: on a
    # busy machine one commit of ten thousand took longer than SimCord's default 5 s to settle (a
    # soak run beside other test runs). A real stall still fails, after 30 s.
    world.env.settle_timeout = max(world.env.settle_timeout, 30.0)
    abuser = Abuser(world, game, errors, seed=f"{game}-{scale().name}")
    wanted = scale().abuse_interactions
    with recording_views([game], draw=False):  # boards without their PNG: pictures are not abused
        await abuser.setup()
        while sum(abuser.report.sent.values()) < wanted and not abuser.report.problems:
            await abuser.step()
    report = abuser.report
    record(
        "abuse",
        game,
        sent=dict(report.sent),
        refused=dict(report.refused),
        limited=dict(report.limited),
        applied=dict(report.applied),
        seconds={kind: round(value, 1) for kind, value in report.seconds.items()},
        bursts=report.bursts,
        games_finished=report.games_finished,
        problems=len(report.problems),
    )
    assert not report.problems, "\n".join(report.problems[:10])
    assert not world.env.errors, world.env.errors[:3]  # nothing escaped the bot's handlers
    assert report.refused["valid"] == report.limited["valid"]  # a valid move is refused only as too fast
    assert sum(report.limited.values()) > 0  # the click limit was reached, and answered as it should
    # Each kind was exercised and refused at least once (a stranger's "My cards" or "Rules" is
    # answered, not refused); components that cannot mean anything are always refused.
    for kind in ("stale", "wrong_user", "foreign", "malformed", "bad_select", "closed"):
        assert report.sent[kind] > 0 and report.refused[kind] > 0, kind
    for kind in ("malformed", "bad_select"):
        assert report.refused[kind] == report.sent[kind], kind
    assert report.bursts > 0 and report.applied["valid"] > 0
