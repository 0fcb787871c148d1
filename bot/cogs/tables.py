"""Commands shared by every game: the server leaderboard and a member's stats."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import translate
from bot.ratings import ordinal
from bot.translator import cmd
from bot.ui.interactions import user_locale
from bot.ui.panels import COLOUR, game_name
from bot.ui.text import NO_PINGS, safe_name
from games.registry import ENGINES

if TYPE_CHECKING:
    from bot.app import TableBot

GAME_CHOICES = [app_commands.Choice(name=name, value=name) for name in ENGINES]


class TablesCog(commands.Cog):
    """Leaderboards and stats."""

    def __init__(self, bot: TableBot) -> None:
        """Bind the cog to ``bot``."""
        self.bot = bot

    @app_commands.command(
        name=cmd("leaderboard", "leaderboard.name"),
        description=cmd("This server's rating table for a game", "leaderboard.description"),
    )
    @app_commands.rename(game=cmd("game", "leaderboard.game_name"))
    @app_commands.describe(game=cmd("Which game", "leaderboard.game_description"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        """Show the top rated players of ``game`` in this server."""
        locale = user_locale(interaction)
        assert interaction.guild_id is not None  # noqa: S101 - guild_only
        rows = await self.bot.storage.leaderboard(interaction.guild_id, game, limit=15)
        embed = discord.Embed(
            title=translate(locale, "ui.leaderboard.title", game=game_name(game, locale)), colour=COLOUR
        )
        if not rows:
            embed.description = translate(locale, "ui.leaderboard.empty")
        else:
            embed.description = "\n".join(
                translate(
                    locale,
                    "ui.leaderboard.line",
                    place=i + 1,
                    name=f"<@{row.user_id}>",
                    rating=f"{ordinal(row.mu, row.sigma):.1f}",
                    games=row.games,
                    wins=row.wins,
                )
                for i, row in enumerate(rows)
            )
        await interaction.response.send_message(embed=embed, allowed_mentions=NO_PINGS)

    @app_commands.command(
        name=cmd("stats", "stats.name"), description=cmd("A member's games, wins and rating", "stats.description")
    )
    @app_commands.rename(member=cmd("member", "stats.member_name"))
    @app_commands.describe(member=cmd("Whose stats (yours by default)", "stats.member_description"))
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        """Show games, wins and ratings of ``member`` (default: you) in this server."""
        locale = user_locale(interaction)
        assert interaction.guild_id is not None  # noqa: S101 - guild_only
        target = member or interaction.user
        rows = await self.bot.storage.player_stats(interaction.guild_id, target.id)
        name = safe_name(target.display_name)
        embed = discord.Embed(title=translate(locale, "ui.stats.title", name=name), colour=COLOUR)
        if not rows:
            embed.description = translate(locale, "ui.stats.empty", name=name)
        else:
            embed.description = "\n".join(
                translate(
                    locale,
                    "ui.stats.line",
                    game=game_name(row.game, locale),
                    rating=f"{ordinal(row.mu, row.sigma):.1f}",
                    games=row.games,
                    wins=row.wins,
                )
                for row in rows
            )
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_PINGS)


async def setup(bot: TableBot) -> None:
    """Load the cog."""
    await bot.add_cog(TablesCog(bot))
