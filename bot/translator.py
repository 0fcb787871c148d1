"""Localizes slash-command names and descriptions from the i18n catalogues.

Command strings are declared in English with ``locale_str(text, key="cmd....")``; Discord shows
the Russian catalogue's text to Russian clients; every other client sees the English text.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import catalogue, normalize_locale


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
