"""Fixtures of the resilience suite (the SimCord ones come from ``tests/bot/conftest.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from simcord import Env

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
