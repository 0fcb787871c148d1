"""The /intrigue command group (localized /интриги): open a table, read the rules, pay another player.

``/intrigue pay`` is the free action F4 of the rules (``GiveCoins``): it settles deals struck in the
game's thread. It works only inside the thread of an Интриги game the caller plays in, and goes
through :meth:`bot.tables.TableService.act_free`, so it answers no prompt and every awaited seat keeps
its buttons and clock; the engine refuses it in Spies & Thieves and beyond the payer's coins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.settings import LANGUAGE_CHOICES
from bot.guilds import MAX_CLOCK, MAX_REACTION, MIN_CLOCK, MIN_REACTION
from bot.i18n import translate
from bot.tables import Table, TableError
from bot.translator import cmd
from bot.ui.interactions import display_name, send_private, user_locale
from bot.ui.limits import open_table_cooldown
from bot.ui.panels import Payload, rules_payload
from bot.ui.text import safe_name
from games.intrigue.data import MAX_MAX_TURNS, MIN_MAX_TURNS
from games.intrigue.models import GiveCoins

if TYPE_CHECKING:
    from bot.app import TableBot

GAME = "intrigue"
#: The largest payment the command accepts (the engine checks the payer's coins).
MAX_PAYMENT = 1000


def game_table_in(tables: list[Table], channel_id: int | None, user_id: int) -> Table:
    """Return the active Интриги table played in ``channel_id`` (its thread) by ``user_id``.

    A table plays in its thread, or in its channel when no thread could be opened; several tables
    may then share a channel, and the caller's own one is meant.

    Raises:
        TableError: No such game here (``intrigue.not_in_thread``), or the caller does not play in
            it (``intrigue.not_seated``).
    """
    here = [
        table
        for table in tables
        if table.game == GAME and table.status == "active" and channel_id is not None and table.thread_id == channel_id
    ]
    if not here:
        raise TableError("intrigue.not_in_thread")
    mine = [table for table in here if table.seat_of(user_id) is not None]
    if not mine:
        raise TableError("intrigue.not_seated")
    return mine[0]


class IntrigueCog(
    commands.GroupCog,
    group_name=cmd("intrigue", "intrigue.name"),
    group_description=cmd(
        "Intrigue: influence, the council, mercenaries and votes for 2–8 players", "intrigue.description"
    ),
):
    """Интриги (Intrigue)."""

    def __init__(self, bot: TableBot) -> None:
        """Bind the cog to ``bot``."""
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name=cmd("new", "intrigue.new_name"),
        description=cmd("Open an Intrigue table in this channel", "intrigue.new_description"),
    )
    @app_commands.rename(
        clock=cmd("clock", "intrigue.clock_name"),
        random_lands=cmd("random_lands", "intrigue.random_lands_name"),
        max_turns=cmd("turns", "intrigue.max_turns_name"),
        language=cmd("language", "options.language_name"),
        reaction_clock=cmd("reaction_clock", "options.reaction_clock_name"),
    )
    @app_commands.describe(
        clock=cmd(
            "Seconds for each decision (15–3600; by default each decision's own clock from the rules)",
            "intrigue.clock_description",
        ),
        random_lands=cmd(
            "A random balanced set of lands instead of the standard one", "intrigue.random_lands_description"
        ),
        max_turns=cmd("The turn limit (4–20; by default 10 with 7 lands, 14 with 9)", "intrigue.max_turns_description"),
        language=cmd("Language of the table's lobby, thread and board", "options.language_description"),
        reaction_clock=cmd("Seconds to use a free action on another's move", "options.reaction_clock_description"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @app_commands.guild_only()
    @open_table_cooldown()
    async def new(
        self,
        interaction: discord.Interaction,
        clock: int | None = None,
        random_lands: bool = False,
        max_turns: int | None = None,
        language: str | None = None,
        reaction_clock: int | None = None,
    ) -> None:
        """Open an Intrigue table in this channel (an unset clock: the server's, else the rules' per decision)."""
        locale = user_locale(interaction)
        if clock is not None and not MIN_CLOCK <= clock <= MAX_CLOCK:
            # Name the option as the user's client shows it ("часы" in Russian).
            name = translate(locale, "cmd.intrigue.clock_name")
            raise TableError("ui.error.option_range", name=name, min=MIN_CLOCK, max=MAX_CLOCK)
        if reaction_clock is not None and not MIN_REACTION <= reaction_clock <= MAX_REACTION:
            name = translate(locale, "cmd.options.reaction_clock_name")
            raise TableError("ui.error.option_range", name=name, min=MIN_REACTION, max=MAX_REACTION)
        if max_turns is not None and not MIN_MAX_TURNS <= max_turns <= MAX_MAX_TURNS:
            name = translate(locale, "cmd.intrigue.max_turns_name")
            raise TableError("ui.error.option_range", name=name, min=MIN_MAX_TURNS, max=MAX_MAX_TURNS)
        game: dict[str, object] = {}
        if random_lands:
            # Only a random draw is stored: the lobby lists the options that are on, and the
            # standard set is the engine's default.
            game["lands"] = "random"
        if max_turns is not None:
            # An unset limit stays unset: the engine takes it from the land count (10 or 14 turns).
            game["max_turns"] = max_turns
        table: dict[str, object] = {"clock": clock, "game": game}
        if clock is None:
            # §3.6 suggests a clock per decision (30 s for a guard response, 120 s for a slot);
            # a clock the host or the server names applies to every decision instead.
            table["clock_by_decision"] = True
        await self.bot.open_lobby(interaction, GAME, table, language=language, reaction_clock=reaction_clock)

    @app_commands.command(
        name=cmd("rules", "intrigue.rules_name"),
        description=cmd(
            "A short summary of the rules of Intrigue, with our lands, characters and traits",
            "intrigue.rules_description",
        ),
    )
    async def rules(self, interaction: discord.Interaction) -> None:
        """Show the rules summary privately in the user's language."""
        await send_private(interaction, rules_payload(GAME, user_locale(interaction), self.bot.command_ids))

    @app_commands.command(
        name=cmd("pay", "intrigue.pay_name"),
        description=cmd("Give coins to another player (in your game's thread)", "intrigue.pay_description"),
    )
    @app_commands.rename(member=cmd("member", "intrigue.member_name"), amount=cmd("amount", "intrigue.amount_name"))
    @app_commands.describe(
        member=cmd("Whom to pay", "intrigue.member_description"),
        amount=cmd("How many coins to give", "intrigue.amount_description"),
    )
    @app_commands.guild_only()
    async def pay(self, interaction: discord.Interaction, member: discord.Member, amount: int) -> None:
        """Give coins to another player of this game (a deal's payment; public in the game's log)."""
        locale = user_locale(interaction)
        if not 1 <= amount <= MAX_PAYMENT:
            raise TableError("intrigue.amount_range", max=MAX_PAYMENT)
        service = self.bot.service
        table = game_table_in(list(service.tables.values()), interaction.channel_id, interaction.user.id)
        if member.id == interaction.user.id:
            raise TableError("intrigue.pay_self")
        receiver = table.seat_of(member.id)
        if receiver is None:
            raise TableError("intrigue.target_not_seated", name=safe_name(display_name(member)))
        await service.act_free(table.id, interaction.user.id, GiveCoins(to=receiver.seat, amount=amount))
        text = translate(locale, "intrigue.pay.done", name=safe_name(display_name(member)), amount=amount)
        await send_private(interaction, Payload(embed=discord.Embed(description=text)))


async def setup(bot: TableBot) -> None:
    """Load the cog."""
    await bot.add_cog(IntrigueCog(bot))
