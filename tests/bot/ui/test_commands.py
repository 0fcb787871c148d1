"""Command mentions: clickable with a synced id, the reader's plain command without one, every placeholder real."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.app import COGS, create_bot
from bot.i18n import SUPPORTED_LOCALES, catalogue, translate
from bot.settings import Settings
from bot.ui.commands import PLACEHOLDER, CommandIds, command_name, fill_commands, mention

IDS = CommandIds({"coup": 111, "leaderboard": 222})


def test_command_names_follow_the_readers_language() -> None:
    assert command_name("coup new", "en") == "coup new"
    assert command_name("coup new", "ru") == "переворот новая"
    assert command_name("cadwallon place", "ru") == "гильдии выставить"
    assert command_name("leaderboard", "ru") == "рейтинг"
    assert command_name("help", "ru") == "помощь"


def test_a_known_id_makes_a_clickable_mention_named_as_discord_needs() -> None:
    assert mention("coup new", "en", IDS) == "</coup new:111>"
    # Clients show a mention's name as written and only the default name is clickable, so a Russian
    # reader gets the default-name mention followed by the name their client shows.
    assert mention("coup new", "ru", IDS) == "</coup new:111> (/переворот новая)"
    assert mention("leaderboard", "ru", IDS) == "</leaderboard:222> (/рейтинг)"


def test_an_unknown_id_falls_back_to_the_readers_plain_command() -> None:
    assert mention("coup new", "ru", None) == "/переворот новая"
    assert mention("coup new", "en", CommandIds()) == "/coup new"
    assert mention("stats", "en", IDS) == "/stats"  # synced ids of other commands do not help


def test_ids_are_remembered_from_the_synced_commands() -> None:
    ids = CommandIds()
    ids.remember([SimpleNamespace(name="coup", id=5), SimpleNamespace(name="masti", id=6)])
    assert (ids.get("coup"), ids.get("masti"), ids.get("stats"), len(ids)) == (5, 6, None, 2)


def test_translate_keeps_placeholders_for_the_mentions_and_fill_replaces_them() -> None:
    text = translate("ru", "coup.rules.end.text")
    assert "{/leaderboard}" in text and "{/stats}" in text
    filled = fill_commands(text, "ru", IDS)
    assert "</leaderboard:222> (/рейтинг)" in filled and "/статистика" in filled and "{" not in filled


@pytest.mark.asyncio
async def test_every_placeholder_in_the_catalogues_names_a_real_command(tmp_path) -> None:
    bot = create_bot(Settings(database_path=str(tmp_path / "x.sqlite3"), _env_file=None))
    for cog in COGS:
        await bot.load_extension(cog)
    paths = {command.qualified_name for command in bot.tree.walk_commands()}
    await bot.close()
    used = {
        match[1]
        for locale in SUPPORTED_LOCALES
        for text in catalogue(locale).values()
        for match in PLACEHOLDER.finditer(text)
    }
    assert {"coup new", "leaderboard", "stats", "cadwallon place", "intrigue pay"} <= used
    assert used <= paths, sorted(used - paths)
