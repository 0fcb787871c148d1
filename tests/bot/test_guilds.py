"""bot.guilds without Discord: the language order, the private fallback and the options a lobby takes."""

from __future__ import annotations

import doctest

import pytest

import bot.guilds
from bot.guilds import MemberLanguages, effective, private_locale, public_locale, table_options
from bot.i18n import normalize_locale
from bot.settings import Settings
from bot.storage import GuildSettingsRow

SETTINGS = Settings(default_clock_seconds=90, max_lobbies_per_member=3, max_tables_per_server=50, _env_file=None)
NOTHING = GuildSettingsRow(guild_id=1)


def test_the_doctests_hold() -> None:
    assert doctest.testmod(bot.guilds).failed == 0


@pytest.mark.parametrize(
    ("table", "server", "guild", "community", "client", "expected"),
    [
        ("en", "ru", "ru", True, "ru", "en"),  # the table's own choice first
        (None, "en", "ru", True, "ru", "en"),  # then the server's setting
        (None, None, "ru", True, "en-US", "ru"),  # then a Community server's locale
        (None, None, "en-US", False, "ru", "ru"),  # a non-Community server's en-US says nothing
        (None, None, "en-US", False, "en-GB", "en"),  # the opener's client
        (None, None, "en-US", False, "de", "ru"),  # no catalogue for German: DEFAULT_LOCALE
        (None, None, "de", True, "uk", "ru"),  # neither has a catalogue
        (None, None, None, False, None, "ru"),
    ],
)
def test_public_language_order(table, server, guild, community, client, expected) -> None:
    found = public_locale(
        table_choice=table,
        server_choice=server,
        guild_locale=guild,
        community=community,
        client_locale=client,
        default="ru",
    )
    assert found == expected


@pytest.mark.parametrize(
    ("chosen", "client", "expected"),
    [
        (None, "uk", "en"),
        (None, "be", "en"),
        ("ru", "uk", "ru"),
        ("en", "ru", "en"),
        (None, "ru", "ru"),
        (None, None, "en"),
    ],
)
def test_private_language(chosen, client, expected) -> None:
    assert private_locale(chosen, client) == expected


@pytest.mark.parametrize("locale", ["uk", "be", "de", "pt-BR"])
def test_no_language_is_mapped_to_russian(locale) -> None:
    assert normalize_locale(locale) == "en"


def test_defaults_come_from_the_environment_and_the_table_service() -> None:
    assert effective(NOTHING, SETTINGS) == {
        "locale": "ru",
        "clock_seconds": 90,
        "reaction_seconds": 15,
        "reminders": True,
        "archive_minutes": 60,
        "max_lobbies_per_member": 3,
        "max_tables": 50,
    }


def test_a_lobby_takes_the_servers_values_where_the_table_chose_nothing() -> None:
    server = GuildSettingsRow(guild_id=1, clock_seconds=40, reaction_seconds=9, reminders=False, archive_minutes=5)

    assert table_options({"clock": None, "game": {}}, server, SETTINGS) == {
        "clock": 40,
        "game": {},
        "reaction_clock": 9,
        "reminders": False,
        "archive_minutes": 5,
    }
    own = table_options({"clock": 20, "clock_by_decision": True}, server, SETTINGS, reaction_clock=7)
    assert (own["clock"], own["reaction_clock"], "clock_by_decision" in own) == (20, 7, False)


def test_the_rules_clocks_stay_unless_the_server_names_a_clock() -> None:
    options = {"clock": None, "clock_by_decision": True}

    assert table_options(options, NOTHING, SETTINGS)["clock_by_decision"] is True
    assert "clock_by_decision" not in table_options(options, GuildSettingsRow(guild_id=1, clock_seconds=60), SETTINGS)


def test_member_languages_hold_choices_in_memory() -> None:
    languages = MemberLanguages()
    languages.load({1: "ru", 2: "en", 3: "xx"})  # an unknown catalogue is ignored

    languages.remember(4, "ru")
    languages.remember(2, None)

    assert (languages.get(1), languages.get(2), languages.get(3), languages.get(4), len(languages)) == (
        "ru",
        None,
        None,
        "ru",
        2,
    )
