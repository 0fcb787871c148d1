"""The /masti command group (localized /масти): open a «Масти Власти» table, read the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.settings import LANGUAGE_CHOICES
from bot.guilds import MAX_CLOCK, MIN_CLOCK
from bot.i18n import translate
from bot.tables import TableError
from bot.translator import cmd
from bot.ui.interactions import send_private, user_locale
from bot.ui.limits import open_table_cooldown
from bot.ui.panels import rules_payload

if TYPE_CHECKING:
    from bot.app import TableBot


class MastiCog(
    commands.GroupCog,
    group_name=cmd("masti", "masti.name"),
    group_description=cmd("Suits of Power: trumps, bribes and the favour of the guilds", "masti.description"),
):
    """Масти Власти (Suits of Power)."""

    def __init__(self, bot: TableBot) -> None:
        """Bind the cog to ``bot``."""
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name=cmd("new", "masti.new_name"),
        description=cmd("Open a Suits of Power table in this channel", "masti.new_description"),
    )
    @app_commands.rename(
        clock=cmd("clock", "masti.clock_name"),
        teams=cmd("teams", "masti.teams_name"),
        language=cmd("language", "options.language_name"),
    )
    @app_commands.describe(
        clock=cmd("Seconds for each decision (15–3600; default: the server's clock)", "masti.clock_description"),
        language=cmd("Language of the table's lobby, thread and board", "options.language_description"),
        teams=cmd(
            "With four players: play as two teams of two (six players always play in teams)",
            "masti.teams_description",
        ),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @app_commands.guild_only()
    @open_table_cooldown()
    async def new(
        self,
        interaction: discord.Interaction,
        clock: int | None = None,
        teams: bool = False,
        language: str | None = None,
    ) -> None:
        """Open a Suits of Power table in this channel (an unset clock takes the server's setting)."""
        if clock is not None and not MIN_CLOCK <= clock <= MAX_CLOCK:
            # Name the option as the user's client shows it ("часы" in Russian).
            name = translate(user_locale(interaction), "cmd.masti.clock_name")
            raise TableError("ui.error.option_range", name=name, min=MIN_CLOCK, max=MAX_CLOCK)
        await self.bot.open_lobby(interaction, "masti", {"clock": clock, "game": {"teams": teams}}, language=language)

    @app_commands.command(
        name=cmd("rules", "masti.rules_name"),
        description=cmd("A short summary of the rules of Suits of Power, with our deck", "masti.rules_description"),
    )
    async def rules(self, interaction: discord.Interaction) -> None:
        """Show the rules summary privately in the user's language."""
        await send_private(interaction, rules_payload("masti", user_locale(interaction), self.bot.command_ids))


async def setup(bot: TableBot) -> None:
    """Load the cog."""
    await bot.add_cog(MastiCog(bot))
