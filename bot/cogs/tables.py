"""Commands shared by every game: the server leaderboard and a member's stats.

Games are offered by their names in the reader's language, and ratings are shown on the display
scale of :func:`bot.ratings.display_rating` (a newcomer has 1000), which /help explains.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import translate
from bot.ratings import display_rating
from bot.storage import TableRow
from bot.translator import cmd, game_choices
from bot.ui.interactions import user_locale
from bot.ui.panels import COLOUR, game_name
from bot.ui.text import NO_PINGS, safe_name

if TYPE_CHECKING:
    from bot.app import TableBot

#: How many of a member's latest finished games /stats lists.
RECENT_GAMES = 5


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
    @app_commands.choices(game=game_choices())
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
                    rating=display_rating(row.mu, row.sigma),
                    games=row.games,
                    wins=row.wins,
                )
                for i, row in enumerate(rows)
            )
        await interaction.response.send_message(embed=embed, allowed_mentions=NO_PINGS)

    @app_commands.command(
        name=cmd("stats", "stats.name"), description=cmd("A member's games, wins and rating", "stats.description")
    )
    @app_commands.rename(member=cmd("member", "stats.member_name"), game=cmd("game", "stats.game_name"))
    @app_commands.describe(
        member=cmd("Whose stats (yours by default)", "stats.member_description"),
        game=cmd("Only this game", "stats.game_description"),
    )
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, member: discord.Member | None = None, game: str | None = None
    ) -> None:
        """Show ratings and the latest games of ``member`` (default: you) in this server, of ``game`` if given."""
        locale = user_locale(interaction)
        assert interaction.guild_id is not None  # noqa: S101 - guild_only
        target = member or interaction.user
        rows = await self.bot.storage.player_stats(interaction.guild_id, target.id)
        rows = [row for row in rows if game is None or row.game == game]
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
                    rating=display_rating(row.mu, row.sigma),
                    games=row.games,
                    wins=row.wins,
                )
                for row in rows
            )
        tables = await self.bot.storage.finished_tables(
            interaction.guild_id, game=game, user_id=target.id, limit=RECENT_GAMES
        )
        if tables:
            lines = [await self._recent_line(table, target.id, locale) for table in tables]
            embed.add_field(name=translate(locale, "help.stats.recent"), value="\n".join(lines)[:1024], inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_PINGS)

    async def _recent_line(self, table: TableRow, user_id: int, locale: str) -> str:
        """Return one finished game of ``user_id``: when, which game, their place, rating change, a link."""
        storage = self.bot.storage
        results = await storage.results(table.id)
        mine = next((r for r in results if r.user_id == user_id), None)
        if mine is None:
            place = translate(locale, "help.stats.no_place")  # ended without a result (everyone agreed)
        else:
            place = translate(locale, "help.stats.place", place=mine.rank + 1, n=len(results))
        change = next((c for c in await storage.rating_changes(table.id) if c.user_id == user_id), None)
        if change is None:
            rating = translate(locale, "help.stats.unrated")
        else:
            delta = display_rating(change.mu_after, change.sigma_after) - display_rating(
                change.mu_before, change.sigma_before
            )
            rating = translate(locale, "help.stats.change", delta=f"{delta:+d}")
        # The thread holds the final board; a table that never opened one links its lobby message.
        where = f"{table.thread_id}" if table.thread_id else f"{table.channel_id}/{table.lobby_message_id}"
        return translate(
            locale,
            "help.stats.recent_line",
            when=f"<t:{int(table.finished_at or table.updated_at)}:d>",
            game=game_name(table.game, locale),
            place=place,
            rating=rating,
            link=f"[#{table.id}](https://discord.com/channels/{table.guild_id}/{where})",
        )


async def setup(bot: TableBot) -> None:
    """Load the cog."""
    await bot.add_cog(TablesCog(bot))
