"""Fixtures for the Discord glue tests: the real bot on SimCord's offline Discord.

* ``simcord_bot`` / ``simcord_env``: the bot on a temporary SQLite file (AI delay 0, board edits
  not coalesced, 60 s clocks, no click limit nor cooldown on opening tables), run by SimCord's
  pytest plugin with ``check_errors`` on.
* Every SimCord test is checked at teardown: each REST request body the bot sent must match
  Discord's OpenAPI spec (``tests.support.discord_openapi``), and the bot must not have logged an
  error.
* ``world`` / ``make_world``: a server with a games channel and the :class:`tests.support.World`
  driver (lobby clicks, the board's public decisions, the private panel, stacked decks, restarts).

SimCord sends every interaction with ``locale`` and ``guild_locale`` "en-US"; ``make_world`` patches
SimCord's payload builder so a member can have its own locale and the guild its preferred one, and
its guild payload so a server can be a Community server (only those can choose a locale in Discord:
``make_world("ru")`` builds one; ``make_world("en-US", community=True)`` an English-speaking one).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
import pytest_asyncio
import simcord.backend.serializers as simcord_serializers
import simcord.interactions as simcord_interactions
from simcord import Env

from bot.app import TableBot
from bot.settings import Settings
from bot.storage import Storage
from tests.support import World, build_bot
from tests.support.discord_openapi import assert_requests_valid


# ---------------------------------------------------------------------- base fixtures
@pytest_asyncio.fixture
async def storage(tmp_path) -> AsyncIterator[Storage]:
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
        # SimCord's clock stands still unless a test advances it, and its members click at machine
        # speed: the click limit and the cooldown on opening tables are off here, and on in the tests
        # of those limits (tests/bot/ui/test_ui_limits.py) and in the abuse suite.
        click_burst=0,
        open_table_cooldown_seconds=0,
        _env_file=None,
    )


@pytest_asyncio.fixture
async def bots() -> AsyncIterator[list[TableBot]]:
    """Every bot built for the test; SimCord detaches a bot without closing it, so close their storage."""
    built: list[TableBot] = []
    yield built
    for bot in built:
        await bot.storage.close()


@pytest_asyncio.fixture
async def simcord_bot(settings, bots) -> TableBot:
    return await build_bot(settings, bots)


# ---------------------------------------------------------------------- checks on every SimCord test
@pytest.fixture(autouse=True)
def _discord_requests_match_spec(request) -> Iterator[None]:
    """Validate every REST request of the test's SimCord env against Discord's OpenAPI spec."""
    yield
    funcargs = getattr(request.node, "funcargs", None) or {}
    for value in list(funcargs.values()):
        if isinstance(value, Env):
            assert_requests_valid(value.http_requests)


@pytest.fixture(autouse=True)
def _no_error_logs(request, caplog) -> Iterator[None]:
    """Fail a SimCord test whose bot logged an error (bad input must never look like a bug)."""
    if "simcord_env" not in request.fixturenames:
        yield
        return
    caplog.set_level(logging.WARNING)
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    errors += [r for r in caplog.get_records("teardown") if r.levelno >= logging.ERROR]
    assert not errors, "the bot logged errors:\n" + "\n".join(
        f"{r.name}: {r.getMessage()}\n{r.exc_text or ''}" for r in errors
    )


# ---------------------------------------------------------------------- world fixtures
@pytest.fixture
def make_world(simcord_env, settings, bots, monkeypatch) -> Callable[..., World]:
    """Return a factory of worlds (one guild each) sharing the env, with per-member locales."""
    locales: dict[int, str] = {}
    original = simcord_interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **kwargs)
        payload["locale"] = locales.get(kwargs["user_id"], payload["locale"])
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord_interactions, "base_payload", base_payload)
    community_ids: set[int] = set()
    original_guild = simcord_serializers.guild_create_payload

    def guild_create_payload(backend: Any, guild: Any) -> Any:
        payload = original_guild(backend, guild)
        if guild.id in community_ids:
            payload = {**payload, "features": ["COMMUNITY"]}
        return payload

    monkeypatch.setattr(simcord_serializers, "guild_create_payload", guild_create_payload)

    def build(guild_locale: str = "en-US", *, community: bool | None = None) -> World:
        """Return a world whose guild prefers ``guild_locale``; a Community server unless it is en-US."""
        world = World(simcord_env, settings, bots, locales, guild_locale)
        if guild_locale != "en-US" if community is None else community:
            community_ids.add(world.guild.id)
            simcord_env.backend.edit_guild(world.guild.id, {})  # announce the feature to the bot's cache
        return world

    return build


@pytest.fixture
def world(make_world: Callable[..., World]) -> World:
    """A server (English) with a games channel."""
    return make_world()
