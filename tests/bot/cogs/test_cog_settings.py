"""/settings: only for Manage Server, each setting round-trips, and each takes effect on new tables."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import translate
from bot.storage import GuildSettingsRow
from tests.support import embed_text, private_text

pytestmark = pytest.mark.asyncio


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


def overview_text(result: Any) -> str:
    assert result.ephemeral and result.response is not None, result
    return embed_text(result.response.embeds)


async def test_settings_are_hidden_from_and_refused_to_members_without_manage_server(world):
    member = world.member("member")
    moderator = world.member("mod", moderator=True)

    assert "settings show" not in member.available_commands(world.channel)  # Discord hides it by default
    assert "settings show" in moderator.available_commands(world.channel)
    # A server may grant the command to anyone in its integration settings: the bot checks again.
    root = world.env.backend.find_command("settings", None)
    world.guild.set_command_permissions(int(root["id"]), {member: True})
    result = await member.slash(world.channel, "settings clock", value=45)

    assert result.ephemeral
    assert private_text(result) == en("guild.error.manage_server")
    assert [e.code for e in world.rejections()] == ["guild.error.manage_server"]
    assert await world.bot.storage.guild_settings(world.guild.id) == GuildSettingsRow(guild_id=world.guild.id)


async def test_show_lists_every_setting_with_its_default(world):
    moderator = world.member("mod", moderator=True)

    text = overview_text(await moderator.slash(world.channel, "settings show"))

    for name in (
        "locale",
        "clock_seconds",
        "reaction_seconds",
        "reminders",
        "archive_minutes",
        "max_lobbies_per_member",
        "max_tables",
        "channels",
    ):
        assert en(f"guild.settings.name.{name}") in text
    assert en("guild.settings.value_default", value="Русский") in text  # DEFAULT_LOCALE
    assert en("guild.settings.value_default", value=en("guild.settings.seconds", n=60)) in text  # the env clock
    assert en("guild.settings.value_default", value=en("guild.settings.seconds", n=15)) in text  # reaction
    assert en("guild.settings.value_default", value=en("guild.settings.any_channel")) in text


@pytest.mark.parametrize(
    ("command", "value", "column", "shown", "default"),
    [
        ("settings language", "en", "locale", "English", "Русский"),
        ("settings clock", 45, "clock_seconds", "45 s", "60 s"),
        ("settings reaction_clock", 30, "reaction_seconds", "30 s", "15 s"),
        ("settings reminders", False, "reminders", "off", "on"),
        ("settings archive", 0, "archive_minutes", "never", "after 60 min"),
        ("settings lobbies", 1, "max_lobbies_per_member", "1", "3"),
        ("settings tables", 9, "max_tables", "9", "50"),
    ],
)
async def test_each_setting_round_trips_and_an_empty_value_restores_the_default(
    world, command, value, column, shown, default
):
    moderator = world.member("mod", moderator=True)

    text = overview_text(await moderator.slash(world.channel, command, value=value))

    assert getattr(await world.bot.storage.guild_settings(world.guild.id), column) == value
    assert en("guild.settings.changed", name=en(f"guild.settings.name.{column}")) in text
    assert en("guild.settings.value_chosen", value=shown, default=default) in text

    text = overview_text(await moderator.slash(world.channel, command))

    assert await world.bot.storage.guild_settings(world.guild.id) == GuildSettingsRow(guild_id=world.guild.id)
    assert en("guild.settings.value_default", value=default) in text


@pytest.mark.parametrize(
    ("command", "value", "name", "low", "high"),
    [
        ("settings clock", 14, "clock", 15, 3600),
        ("settings reaction_clock", 121, "reaction_clock", 5, 120),
        ("settings archive", -1, "archive", 0, 10080),
        ("settings lobbies", 0, "lobbies", 1, 100),
        ("settings tables", 10_001, "tables", 1, 10_000),
    ],
)
@pytest.mark.parametrize("locale", ["en-US", "ru"])
async def test_a_value_out_of_range_is_refused_privately_in_the_callers_language(
    make_world, locale, command, value, name, low, high
):
    world = make_world()
    moderator = world.member("mod", locale=locale, moderator=True)

    result = await moderator.slash(world.channel, command, value=value)

    assert result.ephemeral
    option = translate(locale, f"cmd.settings.{name}_name")  # as the caller's client names it
    assert private_text(result) == translate(locale, "ui.error.option_range", name=option, min=low, max=high)
    assert [e.code for e in world.rejections()] == ["ui.error.option_range"]
    assert await world.bot.storage.guild_settings(world.guild.id) == GuildSettingsRow(guild_id=world.guild.id)


async def test_the_server_clock_is_the_default_of_every_new_table(world):
    moderator = world.member("mod", moderator=True)
    await moderator.slash(world.channel, "settings clock", value=45)

    coup = await world.new_table(moderator)
    named = await world.new_table(moderator, game="masti", clock=100)
    intrigue = await world.new_table(moderator, game="intrigue")

    assert world.table(coup).clock_seconds == 45
    assert world.table(named).clock_seconds == 100  # the table's own option wins
    # A server's clock replaces the per-decision clocks Интриги's rules suggest.
    assert world.table(intrigue).options["clock"] == 45
    assert "clock_by_decision" not in world.table(intrigue).options
    assert translate("en", "ui.lobby.clock", seconds=45) in embed_text(world.lobby(coup).embeds)


async def test_reaction_clock_reminders_and_archive_reach_the_table_options(world):
    moderator = world.member("mod", moderator=True)
    await moderator.slash(world.channel, "settings reaction_clock", value=25)
    await moderator.slash(world.channel, "settings reminders", value=False)
    await moderator.slash(world.channel, "settings archive", value=0)

    server_default = world.table(await world.new_table(moderator))
    own = world.table(await world.new_table(moderator, game="intrigue", reaction_clock=8))

    assert (server_default.reaction_clock_seconds, server_default.reminders, server_default.archive_minutes) == (
        25,
        False,
        0,
    )
    assert own.reaction_clock_seconds == 8  # the table's option beats the server's


async def test_without_settings_a_table_takes_the_bots_defaults(world):
    alice = world.member("alice")

    table = world.table(await world.new_table(alice))

    assert (table.clock_seconds, table.reaction_clock_seconds, table.reminders, table.archive_minutes) == (
        60,
        15,
        True,
        60,
    )


@pytest.mark.parametrize("reaction", [4, 121])
async def test_a_reaction_clock_out_of_range_is_refused(world, reaction):
    alice = world.member("alice")

    result = await alice.slash(world.channel, "coup new", reaction_clock=reaction)

    assert private_text(result) == en("ui.error.option_range", name="reaction_clock", min=5, max=120)
    assert [e.code for e in world.rejections()] == ["ui.error.option_range"]
    assert world.service.tables == {}


async def test_tables_open_only_in_the_allowed_channels(world):
    moderator = world.member("mod", moderator=True)
    alice = world.member("alice")
    lounge = world.guild.create_text_channel("lounge")
    hall = world.guild.create_text_channel("hall")

    text = overview_text(await moderator.slash(world.channel, "settings channels", action="add", channel=lounge))
    await moderator.slash(world.channel, "settings channels", action="add", channel=hall)

    assert f"<#{lounge.id}>" in text
    assert (await world.bot.storage.guild_settings(world.guild.id)).channels == tuple(sorted((lounge.id, hall.id)))
    refused = await alice.slash(world.channel, "coup new")
    assert refused.ephemeral
    channels = " ".join(f"<#{c}>" for c in sorted((lounge.id, hall.id)))
    assert private_text(refused) == en("guild.error.channel_not_allowed", channels=channels)
    assert world.service.tables == {}
    opened = await alice.slash(lounge, "coup new")
    assert opened.response is not None and not opened.ephemeral

    await moderator.slash(world.channel, "settings channels", action="remove", channel=hall)
    assert (await world.bot.storage.guild_settings(world.guild.id)).channels == (lounge.id,)
    missing = await moderator.slash(world.channel, "settings channels", action="remove")
    assert private_text(missing) == en("guild.error.channel_needed")
    assert [e.code for e in world.rejections()] == ["guild.error.channel_not_allowed", "guild.error.channel_needed"]

    await moderator.slash(world.channel, "settings channels", action="clear")
    assert (await world.bot.storage.guild_settings(world.guild.id)).channels == ()
    assert not (await alice.slash(world.channel, "masti new")).ephemeral  # any channel again


async def test_the_server_caps_replace_the_bots(world):
    moderator = world.member("mod", moderator=True)
    alice, bob = world.members("alice", "bob")
    await moderator.slash(world.channel, "settings lobbies", value=1)

    await world.new_table(alice)
    second = await alice.slash(world.channel, "coup new")

    assert private_text(second) == en("table.lobby_limit", max=1)
    await moderator.slash(world.channel, "settings tables", value=2)
    await world.new_table(bob)
    third = await moderator.slash(world.channel, "coup new")
    assert private_text(third) == en("table.server_limit", max=2)
    assert [e.code for e in world.rejections()] == ["table.lobby_limit", "table.server_limit"]
    assert len(world.service.tables) == 2


async def test_a_thread_counts_as_its_channel(world):
    moderator = world.member("mod", moderator=True)
    alice, bob = world.members("alice", "bob")
    lounge = world.guild.create_text_channel("lounge")
    started = await alice.slash(lounge, "coup new")  # a game in the lounge opens its thread there
    table_id = max(world.service.tables)
    await bob.click(started.response, custom_id=f"lobby:{table_id}:join")
    await alice.click(started.response, custom_id=f"lobby:{table_id}:start")
    (thread,) = lounge.threads
    await moderator.slash(world.channel, "settings channels", action="add", channel=lounge)

    in_thread = await bob.slash(thread, "masti new")

    assert in_thread.response is not None and not in_thread.ephemeral, private_text(in_thread)
    assert world.service.tables[max(world.service.tables)].channel_id == thread.id
