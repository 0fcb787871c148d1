"""Every cog loads, command names are unique, and every localized name and description is valid."""

from __future__ import annotations

import re

import discord
import pytest

from bot.app import COGS, create_bot
from bot.i18n import catalogue
from bot.settings import Settings
from bot.translator import CatalogueTranslator

# Discord's rule for command and option names (lower case where the script has case).
NAME = re.compile(r"^[-_\w]{1,32}$", re.UNICODE)


@pytest.mark.asyncio
async def test_cogs_load_and_commands_are_unique_and_localized(tmp_path) -> None:
    bot = create_bot(Settings(database_path=str(tmp_path / "x.sqlite3"), _env_file=None))
    for cog in COGS:
        await bot.load_extension(cog)
    commands = bot.tree.get_commands()
    names = [c.name for c in commands]
    assert len(names) == len(set(names)), names
    assert {"coup", "leaderboard", "stats"} <= set(names)

    translator = CatalogueTranslator()
    await bot.tree.set_translator(translator)
    payloads = [await c.get_translated_payload(bot.tree, translator) for c in commands]
    seen_ru: set[str] = set()
    for payload in payloads:
        ru = payload.get("name_localizations", {}).get("ru")
        assert ru and NAME.match(ru) and ru == ru.lower(), payload["name"]
        assert ru not in seen_ru
        seen_ru.add(ru)
        assert len(payload["description"]) <= 100
        assert len(payload.get("description_localizations", {}).get("ru", "")) <= 100
        for option in payload.get("options", []):
            assert NAME.match(option["name"])
            assert len(option["description"]) <= 100
            for sub in option.get("options", []):
                assert NAME.match(sub["name"])
                assert NAME.match(sub.get("name_localizations", {}).get("ru", sub["name"]))
    await bot.close()


def test_command_catalogue_keys_match() -> None:
    ru = {k for k in catalogue("ru") if k.startswith("cmd.")}
    en = {k for k in catalogue("en") if k.startswith("cmd.")}
    assert ru == en
    assert discord.Locale.russian.value == "ru"
