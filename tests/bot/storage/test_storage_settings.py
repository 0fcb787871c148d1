"""Server settings, allowed channels and member languages (migration 0004) on both backends."""

from __future__ import annotations

import pytest

from bot.storage import GUILD_SETTINGS, GuildSettingsRow, Storage
from tests.support.postgres import Backend

pytestmark = pytest.mark.asyncio

GUILD, OTHER = 100, 200


async def test_a_server_that_chose_nothing_has_every_setting_unset(storage: Storage) -> None:
    assert await storage.guild_settings(GUILD) == GuildSettingsRow(guild_id=GUILD)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("locale", "en"),
        ("clock_seconds", 45),
        ("reaction_seconds", 20),
        ("reminders", False),
        ("reminders", True),
        ("archive_minutes", 0),
        ("max_lobbies_per_member", 1),
        ("max_tables", 7),
    ],
)
async def test_each_setting_round_trips_and_unsets(storage: Storage, name: str, value: object) -> None:
    await storage.set_guild_setting(GUILD, name, value, now=1.0)  # type: ignore[arg-type]  # each column's type
    settings = await storage.guild_settings(GUILD)
    assert getattr(settings, name) == value
    assert type(getattr(settings, name)) is type(value)  # SQLite's 0/1 reads back as a bool
    assert await storage.guild_settings(OTHER) == GuildSettingsRow(guild_id=OTHER)  # never another server's

    await storage.set_guild_setting(GUILD, name, None, now=2.0)
    assert await storage.guild_settings(GUILD) == GuildSettingsRow(guild_id=GUILD)


async def test_setting_one_keeps_the_others(storage: Storage) -> None:
    await storage.set_guild_setting(GUILD, "locale", "ru", now=1.0)
    await storage.set_guild_setting(GUILD, "max_tables", 3, now=2.0)
    await storage.set_guild_setting(GUILD, "locale", "en", now=3.0)

    assert await storage.guild_settings(GUILD) == GuildSettingsRow(guild_id=GUILD, locale="en", max_tables=3)


async def test_an_unknown_setting_is_refused_before_any_sql(storage: Storage) -> None:
    with pytest.raises(ValueError, match="unknown server setting"):
        await storage.set_guild_setting(GUILD, "locale = 'x'; --", "ru", now=1.0)
    assert "locale" in GUILD_SETTINGS


async def test_allowed_channels_add_remove_and_clear(storage: Storage) -> None:
    assert await storage.set_guild_channel(GUILD, 30, allowed=True)
    assert await storage.set_guild_channel(GUILD, 10, allowed=True)
    assert not await storage.set_guild_channel(GUILD, 10, allowed=True)  # already allowed
    assert await storage.set_guild_channel(OTHER, 99, allowed=True)
    assert (await storage.guild_settings(GUILD)).channels == (10, 30)

    assert await storage.set_guild_channel(GUILD, 30, allowed=False)
    assert not await storage.set_guild_channel(GUILD, 30, allowed=False)
    assert (await storage.guild_settings(GUILD)).channels == (10,)

    await storage.set_guild_channel(GUILD, 20, allowed=True)
    assert await storage.clear_guild_channels(GUILD) == 2
    assert (await storage.guild_settings(GUILD)).channels == ()
    assert (await storage.guild_settings(OTHER)).channels == (99,)


async def test_member_languages_are_stored_replaced_and_forgotten(storage: Storage) -> None:
    assert await storage.member_locales() == {}
    await storage.set_member_locale(1, "ru", now=1.0)
    await storage.set_member_locale(2, "en", now=1.0)
    await storage.set_member_locale(1, "en", now=2.0)
    assert await storage.member_locales() == {1: "en", 2: "en"}

    await storage.set_member_locale(2, None, now=3.0)
    await storage.set_member_locale(3, None, now=3.0)  # forgetting what was never chosen is harmless
    assert await storage.member_locales() == {1: "en"}


async def test_settings_survive_reopening(backend: Backend) -> None:
    store = await backend.open()
    await store.set_guild_setting(GUILD, "clock_seconds", 120, now=1.0)
    await store.set_guild_channel(GUILD, 5, allowed=True)
    await store.set_member_locale(7, "ru", now=1.0)
    await store.close()

    store = await backend.open()
    try:
        assert await store.guild_settings(GUILD) == GuildSettingsRow(guild_id=GUILD, clock_seconds=120, channels=(5,))
        assert await store.member_locales() == {7: "ru"}
    finally:
        await store.close()
