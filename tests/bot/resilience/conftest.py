"""Fixtures of the resilience suite (the SimCord ones come from ``tests/bot/conftest.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from simcord import Env

from tests.bot.resilience.registry import scale

#: The long checks, longest first: a long run (``scripts/soak.py``) hands tests to its two pytest-xdist
#: workers in collection order, so the longest start first instead of meeting at the end on one core.
LONGEST_FIRST = (
    "test_tables_survive_sigkill",
    "test_public_transcripts_do_not_depend_on_hidden_data",
    "test_payloads_leak_nothing",
    "test_games_on_discord_leak_nothing",
    "test_random_bad_interactions",
    "test_games_survive_discord_faults",
)
#: The game whose checks take longest (its AI plays every seat, up to 14 turns at eight players).
SLOWEST_GAME = "intrigue"

#: How often SimCord looks again whether the bot's work is done (its default is every 50 ms).
SETTLE_POLL_SECONDS = 0.002


@pytest.fixture(autouse=True)
def _quick_settle(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Let SimCord notice sooner that the bot is idle.

    SimCord waits in steps of ``idle`` seconds while timers it cannot rule out are pending (a
    table's clock always is), so every click costs about 50 ms of waiting; thousands of clicks per
    game make that minutes. Polling more often changes when SimCord looks, not what it waits for.
    """
    real = Env._settle_internal

    async def settle(self: Env, *, idle: float = 0.05, **kwargs: Any) -> None:
        await real(self, idle=min(idle, SETTLE_POLL_SECONDS), **kwargs)

    monkeypatch.setattr(Env, "_settle_internal", settle)
    yield


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """In a long run, put the long resilience checks first, longest first (the fast run keeps its order)."""
    if scale().name == "fast":
        return

    def rank(item: pytest.Item) -> tuple[int, int]:
        name = getattr(item, "originalname", item.name)
        check = LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)
        return check, 0 if f"[{SLOWEST_GAME}]" in item.name else 1

    items.sort(key=rank)
