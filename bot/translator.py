"""Localizes slash-command names and descriptions from the i18n catalogues.

Command strings are declared in English with ``locale_str(text, key="cmd....")``; Discord shows
the Russian catalogue's text to Russian clients; every other client sees the English text.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import catalogue, normalize_locale, translate
from games.registry import ENGINES


class CatalogueTranslator(app_commands.Translator):
    """An ``app_commands.Translator`` backed by the TOML catalogues."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        """Return the localized text of ``string`` or ``None`` to keep the English default."""
        key = string.extras.get("key")
        lang = normalize_locale(locale.value)
        if key is None or lang == "en" or not locale.value.startswith(lang):
            return None
        return catalogue(lang).get(key)


def cmd(text: str, key: str) -> app_commands.locale_str:
    """Return a localizable command string."""
    return app_commands.locale_str(text, key=f"cmd.{key}")


def game_choices() -> list[app_commands.Choice[str]]:
    """Return one choice per game, named as the reader's client language names the game.

    The value stays the game's id (``coup``); the name is the catalogue's ``<game>.name``, English by
    default and Russian for Russian clients (the translator reads any catalogue key).
    """
    return [
        app_commands.Choice(name=app_commands.locale_str(name, key=f"{game}.name"), value=game)
        for game, name in ((game, translate("en", f"{game}.name")) for game in ENGINES)
    ]
