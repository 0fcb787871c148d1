"""Fixtures for the Discord glue tests: the real bot on SimCord's offline Discord."""

from __future__ import annotations

import pytest
import pytest_asyncio

from bot.app import TableBot, create_bot
from bot.settings import Settings
from bot.storage import Storage


@pytest_asyncio.fixture
async def storage(tmp_path):
    store = await Storage.open(tmp_path / "bot.sqlite3")
    yield store
    await store.close()


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(
        discord_token=None,
        database_path=str(tmp_path / "bot.sqlite3"),
        ai_delay_seconds=0,
        board_edit_interval=0,
        default_clock_seconds=60,
        _env_file=None,  # type: ignore[call-arg]  # pydantic-settings init kwarg
    )


@pytest.fixture
def simcord_bot(settings) -> TableBot:
    return create_bot(settings)
