"""/help (localized /помощь): every game in one line, how to open a table, the commands, the rules.

The answer is private and in the asker's client language. Commands are clickable mentions once the
bot has synced its commands (:mod:`bot.ui.commands`), plain text before; under it, one Rules button
per game shows that game's rules privately to whoever clicks, in their own language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import translate
from bot.translator import cmd
from bot.ui.commands import CommandIds, fill_commands
from bot.ui.components import GameRulesButton
from bot.ui.interactions import send_private, user_locale
from bot.ui.panels import COLOUR, Payload, game_name
from games.registry import ENGINES

if TYPE_CHECKING:
    from bot.app import TableBot


def help_payload(locale: str, command_ids: CommandIds | None) -> Payload:
    """Return the /help answer for a reader in ``locale``: one field per game, then ratings, then Rules buttons."""

    def text(key: str) -> str:
        return fill_commands(translate(locale, key), locale, command_ids)

    embed = discord.Embed(title=translate(locale, "help.title"), description=text("help.intro"), colour=COLOUR)
    for game in ENGINES:
        embed.add_field(name=game_name(game, locale), value=text(f"help.game.{game}")[:1024], inline=False)
    embed.add_field(name=translate(locale, "help.ratings_title"), value=text("help.ratings")[:1024], inline=False)
    embed.add_field(name=translate(locale, "help.settings_title"), value=text("help.settings")[:1024], inline=False)
    view = discord.ui.View(timeout=None)
    for game in ENGINES:
        label = translate(locale, "help.rules_button", game=game_name(game, locale))
        view.add_item(GameRulesButton(game, label[:80], "\N{OPEN BOOK}"))
    return Payload(embed=embed, view=view)


class HelpCog(commands.Cog):
    """/help."""

    def __init__(self, bot: TableBot) -> None:
        """Bind the cog to ``bot``."""
        self.bot = bot

    @app_commands.command(
        name=cmd("help", "help.name"),
        description=cmd("The games, how to start a table, the commands and the rules", "help.description"),
    )
    async def help(self, interaction: discord.Interaction) -> None:
        """Answer privately with the help, in the asker's language."""
        await send_private(interaction, help_payload(user_locale(interaction), self.bot.command_ids))


async def setup(bot: TableBot) -> None:
    """Load the cog."""
    await bot.add_cog(HelpCog(bot))
