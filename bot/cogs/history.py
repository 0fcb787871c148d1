"""/history: a server's recent finished games with their results, each with a replay.

The list is private (its replay buttons open viewers owned by whoever asked) and only ever holds
the asking server's tables: the storage query is by server, and the viewer checks the server again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import translate
from bot.translator import cmd, game_choices
from bot.ui.components import ReplayButton
from bot.ui.interactions import user_locale
from bot.ui.panels import COLOUR, game_name
from bot.ui.replay import results_line
from bot.ui.text import safe_name

if TYPE_CHECKING:
    from bot.app import TableBot

#: Finished games one /history lists (two rows of five replay buttons).
HISTORY_LIMIT = 10


class HistoryCog(commands.Cog):
    """The server's finished games."""

    def __init__(self, bot: TableBot) -> None:
        """Bind the cog to ``bot``."""
        self.bot = bot

    @app_commands.command(
        name=cmd("history", "history.name"),
        description=cmd("This server's recent finished games, with replays", "history.description"),
    )
    @app_commands.rename(game=cmd("game", "history.game_name"), member=cmd("member", "history.member_name"))
    @app_commands.describe(
        game=cmd("Only games of this kind", "history.game_description"),
        member=cmd("Only games this member played", "history.member_description"),
    )
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def history(
        self, interaction: discord.Interaction, game: str | None = None, member: discord.Member | None = None
    ) -> None:
        """List this server's recent finished games (of ``game``, played by ``member``) with replay buttons."""
        locale = user_locale(interaction)
        assert interaction.guild_id is not None  # noqa: S101 - guild_only
        storage = self.bot.storage
        rows = await storage.finished_tables(
            interaction.guild_id, game=game, user_id=member.id if member else None, limit=HISTORY_LIMIT
        )
        lines: list[str] = []
        view = discord.ui.View(timeout=None)
        for row in rows:
            seats = await storage.seats(row.id)
            names = {
                s.seat: (
                    translate(locale, "ui.history.ai", name=safe_name(s.display_name)) if s.is_ai else f"<@{s.user_id}>"
                )
                for s in seats
                if s.seat is not None
            }
            ranks = {r.seat: r.rank for r in await storage.results(row.id)}
            when = f"<t:{int(row.finished_at or row.updated_at)}:R>"
            players = results_line(names, ranks, locale)
            lines.append(
                translate(
                    locale, "ui.history.line", id=row.id, game=game_name(row.game, locale), when=when, players=players
                )
            )
            view.add_item(
                ReplayButton(row.id, interaction.user.id, "open", 0, label=f"#{row.id}", emoji="\N{FILM FRAMES}")
            )
        filters = []
        if game is not None:
            filters.append(translate(locale, "ui.history.filter_game", game=game_name(game, locale)))
        if member is not None:
            filters.append(translate(locale, "ui.history.filter_member", name=member.mention))
        embed = discord.Embed(title=translate(locale, "ui.history.title"), colour=COLOUR)
        body = "\n".join(lines) or translate(locale, "ui.history.empty")
        embed.description = ("\n".join(filters) + "\n\n" if filters else "") + body
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: TableBot) -> None:
    """Load the cog."""
    await bot.add_cog(HistoryCog(bot))
