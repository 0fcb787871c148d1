"""A hostile member meets the limits as shipped: see :mod:`tests.bot.resilience.hostile`.

The normal run floods a few dozen times; ``make soak`` (``--only abuse``) ten times as much. The
report lists every attempt, what was let through and which rule refused the rest.
"""

from __future__ import annotations

import pytest

from bot.settings import Settings
from tests.bot.resilience.hostile import (
    SHIPPED,
    HostileReport,
    acknowledge_refusals,
    check_sent_messages,
    click_spam,
    join_everything,
    lobby_flood,
    rematch_spam,
    server_flood,
)
from tests.bot.resilience.registry import record, scale
from tests.bot.ui.test_ui_names import add_member, hostile_names

pytestmark = pytest.mark.asyncio


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The limits as shipped (the shared test settings turn the click limit and cooldown off)."""
    return settings.model_copy(
        update={
            name: getattr(SHIPPED, name)
            for name in (
                "click_burst",
                "clicks_per_second",
                "open_table_cooldown_seconds",
                "lobby_expiry_minutes",
                "max_lobbies_per_member",
                "max_tables_per_server",
            )
        }
    )


async def test_a_hostile_member_is_held_by_the_limits(world):
    long_run = scale().name != "fast"  # the CI-sized run floods as much as the soak: it takes seconds
    victim = world.member("victim")
    names = hostile_names(victim)
    troll = add_member(world, "troll", names[0])
    hosts = [add_member(world, f"host{i}", names[1 + i]) for i in range(4)]
    report = HostileReport()

    await lobby_flood(world, troll, report, attempts=300 if long_run else 30)
    await server_flood(world, report)
    await join_everything(world, troll, hosts, report)
    await rematch_spam(world, troll, hosts[0], report, presses=200 if long_run else 20)
    await click_spam(world, troll, hosts[1], report, clicks=2_000 if long_run else 100)

    acknowledge_refusals(world, report)
    check_sent_messages(world, {m.id for m in [troll, *hosts]}, victim.id, report)
    record(
        "hostile",
        None,
        attempts=dict(report.attempts),
        allowed=dict(report.allowed),
        refused=dict(report.refused),
        most_open_lobbies=report.most_open_lobbies,
        limits={
            "lobbies_per_member": SHIPPED.max_lobbies_per_member,
            "tables_per_server": SHIPPED.max_tables_per_server,
            "open_cooldown_s": SHIPPED.open_table_cooldown_seconds,
            "click_burst": SHIPPED.click_burst,
            "clicks_per_s": SHIPPED.clicks_per_second,
            "lobby_expiry_min": SHIPPED.lobby_expiry_minutes,
        },
        problems=len(report.problems),
    )
    assert not report.problems, report.problems[:10]  # every error a refusal, every message safe
    assert not [kind for kind in report.refused if kind.startswith("other")], report.refused
    # Every rule was met at least once: the run proves each limit holds, not just that nothing broke.
    for rule in ("cooldown", "lobby_cap", "server_cap", "removed", "rematch_already_open", "too_fast"):
        assert report.refused[rule] > 0, (rule, report.refused)
    assert report.allowed["rematch_spam"] == 1
