"""The /coup command group (localized /переворот): open a table, read the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.settings import LANGUAGE_CHOICES
from bot.guilds import MAX_CLOCK, MAX_REACTION, MIN_CLOCK, MIN_REACTION
from bot.i18n import translate
from bot.tables import TableError
from bot.translator import cmd
from bot.ui.interactions import send_private, user_locale
from bot.ui.limits import open_table_cooldown
from bot.ui.panels import rules_payload

if TYPE_CHECKING:
    from bot.app import TableBot


class CoupCog(
    commands.GroupCog,
    group_name=cmd("coup", "coup.name"),
    group_description=cmd("Coup: bluff, intrigue and the fight for power", "coup.description"),
):
    """Переворот (Coup)."""

    def __init__(self, bot: TableBot) -> None:
        """Bind the cog to ``bot``."""
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name=cmd("new", "coup.new_name"), description=cmd("Open a Coup table in this channel", "coup.new_description")
    )
    @app_commands.rename(
        clock=cmd("clock", "coup.clock_name"),
        draft=cmd("draft", "coup.draft_name"),
        language=cmd("language", "options.language_name"),
        reaction_clock=cmd("reaction_clock", "options.reaction_clock_name"),
    )
    @app_commands.describe(
        clock=cmd("Seconds for each decision (15–3600; default: the server's clock)", "coup.clock_description"),
        draft=cmd("Two-player variant: each player secretly drafts one card", "coup.draft_description"),
        language=cmd("Language of the table's lobby, thread and board", "options.language_description"),
        reaction_clock=cmd("Seconds to challenge or block another's move", "options.reaction_clock_description"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @app_commands.guild_only()
    @open_table_cooldown()
    async def new(
        self,
        interaction: discord.Interaction,
        clock: int | None = None,
        draft: bool = False,
        language: str | None = None,
        reaction_clock: int | None = None,
    ) -> None:
        """Open a Coup table in this channel (an unset clock takes the server's setting)."""
        locale = user_locale(interaction)
        if clock is not None and not MIN_CLOCK <= clock <= MAX_CLOCK:
            # Name the option as the user's client shows it ("часы" in Russian).
            name = translate(locale, "cmd.coup.clock_name")
            raise TableError("ui.error.option_range", name=name, min=MIN_CLOCK, max=MAX_CLOCK)
        if reaction_clock is not None and not MIN_REACTION <= reaction_clock <= MAX_REACTION:
            name = translate(locale, "cmd.options.reaction_clock_name")
            raise TableError("ui.error.option_range", name=name, min=MIN_REACTION, max=MAX_REACTION)
        await self.bot.open_lobby(
            interaction,
            "coup",
            {"clock": clock, "game": {"draft": draft}},
            language=language,
            reaction_clock=reaction_clock,
        )

    @app_commands.command(
        name=cmd("rules", "coup.rules_name"),
        description=cmd("A short summary of the rules of Coup", "coup.rules_description"),
    )
    async def rules(self, interaction: discord.Interaction) -> None:
        """Show the rules summary privately in the user's language."""
        await send_private(interaction, rules_payload("coup", user_locale(interaction), self.bot.command_ids))


async def setup(bot: TableBot) -> None:
    """Load the cog."""
    await bot.add_cog(CoupCog(bot))
