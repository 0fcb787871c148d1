"""The /cadwallon command group (localized /гильдии): open a table, read the rules, place an agent by code."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.settings import LANGUAGE_CHOICES
from bot.errors import deliver
from bot.guilds import MAX_CLOCK, MIN_CLOCK
from bot.i18n import translate
from bot.presenters.cadwallon import RULE_PAGES, CadwallonPresenter, boulevard_suggestions, parse_boulevard
from bot.tables import Table, TableError
from bot.translator import cmd
from bot.ui.commands import CommandIds, fill_commands
from bot.ui.interactions import user_locale
from bot.ui.limits import open_table_cooldown
from bot.ui.panels import COLOUR, Payload
from bot.ui.text import safe_text
from games.cadwallon.models import PlaceAgent

if TYPE_CHECKING:
    from bot.app import TableBot

GAME = "cadwallon"
#: Discord's limits for one message: the characters of all its embeds together, and the embeds.
MESSAGE_CHARS, MAX_EMBEDS = 6000, 10
GRID_CHOICES = [app_commands.Choice(name=f"{n}×{n}", value=n) for n in (3, 4, 5)]
PART_CHOICES = [
    app_commands.Choice(name=cmd(name, f"cadwallon.part_{value}"), value=value)
    for name, value in (
        ("everything", "all"),
        ("rules", "rules"),
        ("district cards", "cards"),
        ("action cards", "actions"),
        ("conditions and contracts", "conditions"),
        ("our readings of the rulebook", "readings"),
        ("our design, revisions 2–6", "revision"),
    )
]
PRESENTER = CadwallonPresenter()


def rules_page_payload(page: str, locale: str, command_ids: CommandIds | None = None) -> Payload:
    """Return one page of the rules (the main rules, or a card table) as one embed.

    Commands the page names become clickable mentions when ``command_ids`` knows their ids.
    """
    embed = discord.Embed(title=PRESENTER.rule_page_title(page, locale)[:256], colour=COLOUR)
    for title, text in PRESENTER.rule_page(page, locale):
        embed.add_field(name=title[:256], value=fill_commands(text, locale, command_ids)[:1024], inline=False)
    return Payload(embed=embed)


def pack_embeds(embeds: list[discord.Embed]) -> list[list[discord.Embed]]:
    """Group ``embeds`` into messages in order: at most 10 embeds and 6000 characters per message."""
    messages: list[list[discord.Embed]] = []
    size = 0
    for embed in embeds:
        if not messages or size + len(embed) > MESSAGE_CHARS or len(messages[-1]) == MAX_EMBEDS:
            messages.append([])
            size = 0
        messages[-1].append(embed)
        size += len(embed)
    return messages


def placing_table(tables: list[Table], user_id: int, channel_id: int | None) -> Table:
    """Return the table ``/cadwallon place`` acts on: the one in this thread, else the one waiting for the user.

    Raises:
        TableError: No such table, or several and none in this channel.
    """
    seated = [t for t in tables if t.game == GAME and t.status == "active" and t.seat_of(user_id) is not None]
    here = [t for t in seated if channel_id is not None and channel_id in (t.thread_id, t.channel_id)]
    if len(here) == 1:
        return here[0]
    pool = here or seated
    waiting = []
    for table in pool:
        seat = table.seat_of(user_id)
        if table.state is not None and seat is not None and seat.seat in table.engine.active_seats(table.state):
            waiting.append(table)
    if len(waiting) == 1:
        return waiting[0]
    raise TableError("cadwallon.place.no_table")


def placement_choices(
    tables: list[Table], user_id: int, channel_id: int | None, typed: str
) -> list[app_commands.Choice[str]]:
    """Return the free boulevards the user may place on now that match ``typed`` (empty when none).

    Only the user's own seat view and legal actions are read, and only while their table awaits
    their placement: what is offered is exactly what the board's selects offer.
    """
    try:
        table = placing_table(tables, user_id, channel_id)
    except TableError:
        return []
    seat = table.seat_of(user_id)
    if table.state is None or seat is None:
        return []
    # Empty unless the table awaits this seat's placement (legal lists are empty for others).
    codes = {a.boulevard for a in table.engine.legal_actions(table.state, seat.seat) if isinstance(a, PlaceAgent)}
    if not codes:
        return []
    # The board's notation is the table's language (rows А–Д on a Russian board): read and label in it.
    found = boulevard_suggestions(table.view(seat.seat), codes, typed, table.locale)
    return [app_commands.Choice(name=label[:100], value=code) for label, code in found]


class CadwallonCog(
    commands.GroupCog,
    group_name=cmd("cadwallon", "cadwallon.name"),
    group_description=cmd("Guilds of Cadwallon: agents on the boulevards, guilds to win", "cadwallon.description"),
):
    """Гильдии Кадвалона (Guilds of Cadwallon)."""

    def __init__(self, bot: TableBot) -> None:
        """Bind the cog to ``bot``."""
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name=cmd("new", "cadwallon.new_name"),
        description=cmd("Open a Guilds of Cadwallon table in this channel", "cadwallon.new_description"),
    )
    @app_commands.rename(
        clock=cmd("clock", "cadwallon.clock_name"),
        grid=cmd("grid", "cadwallon.grid_name"),
        conditions=cmd("conditions", "cadwallon.conditions_name"),
        contracts=cmd("contracts", "cadwallon.contracts_name"),
        starting_action=cmd("starting_action", "cadwallon.starting_action_name"),
        expansion=cmd("expansion", "cadwallon.expansion_name"),
        language=cmd("language", "options.language_name"),
    )
    @app_commands.describe(
        clock=cmd("Seconds for each decision (15–3600; default: the server's clock)", "cadwallon.clock_description"),
        grid=cmd("Grid size (default: 3×3 for 2–4 players, 4×4 for more)", "cadwallon.grid_description"),
        conditions=cmd(
            "Reveal one condition card that changes a rule for the whole game", "cadwallon.conditions_description"
        ),
        contracts=cmd(
            "Deal each player a secret contract scored at the end (on by default)", "cadwallon.contracts_description"
        ),
        starting_action=cmd(
            "Deal each player a secret action card at the start", "cadwallon.starting_action_description"
        ),
        expansion=cmd(
            "3×3 only: draw the deck's seven actions from all 26, not the base 14", "cadwallon.expansion_description"
        ),
        language=cmd("Language of the table's lobby, thread and board", "options.language_description"),
    )
    @app_commands.choices(grid=GRID_CHOICES)
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @app_commands.guild_only()
    @open_table_cooldown()
    async def new(
        self,
        interaction: discord.Interaction,
        clock: int | None = None,
        grid: int | None = None,
        conditions: bool = False,
        contracts: bool = True,
        starting_action: bool = False,
        expansion: bool = False,
        language: str | None = None,
    ) -> None:
        """Open a Guilds of Cadwallon table in this channel (an unset clock takes the server's setting)."""
        if clock is not None and not MIN_CLOCK <= clock <= MAX_CLOCK:
            # Name the option as the user's client shows it ("часы" in Russian).
            name = translate(user_locale(interaction), "cmd.cadwallon.clock_name")
            raise TableError("ui.error.option_range", name=name, min=MIN_CLOCK, max=MAX_CLOCK)
        game = {
            "grid": grid,
            "conditions": conditions,
            "contracts": contracts,
            "starting_action": starting_action,
            # Only a 3×3 deck draws actions this way; on a larger grid the option would mean nothing.
            "expansion_actions_3x3": expansion and grid in (None, 3),
        }
        await self.bot.open_lobby(interaction, GAME, {"clock": clock, "game": game}, language=language)

    @app_commands.command(
        name=cmd("rules", "cadwallon.rules_name"),
        description=cmd("The rules of Guilds of Cadwallon with our house card tables", "cadwallon.rules_description"),
    )
    @app_commands.rename(part=cmd("part", "cadwallon.part_name"))
    @app_commands.describe(
        part=cmd("Show only one part of the rules (all of them by default)", "cadwallon.part_description")
    )
    @app_commands.choices(part=PART_CHOICES)
    async def rules(self, interaction: discord.Interaction, part: str = "all") -> None:
        """Show the rules privately in the user's language: every page, or the one ``part`` names.

        Each page is one embed; pages share a message while they fit Discord's 6000 characters.
        """
        locale = user_locale(interaction)
        pages = RULE_PAGES if part == "all" else (part,)
        for embeds in pack_embeds([rules_page_payload(page, locale, self.bot.command_ids).embed for page in pages]):

            async def send(embeds: list[discord.Embed] = embeds) -> None:
                if interaction.response.is_done():
                    await interaction.followup.send(embeds=embeds, ephemeral=True)
                else:
                    await interaction.response.send_message(embeds=embeds, ephemeral=True)

            await deliver(send)

    @app_commands.command(
        name=cmd("place", "cadwallon.place_name"),
        description=cmd(
            "Place your agent on a boulevard, written as on the board (B2│B3, B2─C2)", "cadwallon.place_description"
        ),
    )
    @app_commands.rename(code=cmd("code", "cadwallon.code_name"))
    @app_commands.describe(
        code=cmd(
            "The two slots the boulevard lies between, as on the board: B2│B3, B2B3 or B2─C2",
            "cadwallon.code_description",
        )
    )
    @app_commands.guild_only()
    async def place(self, interaction: discord.Interaction, code: app_commands.Range[str, 1, 20]) -> None:
        """Place the user's agent on boulevard ``code`` at their table, then show their private panel.

        The move goes through the table service at the current prompt, exactly like the board's
        select; the answer is the private panel, so an action card can follow with one click.
        """
        service = self.bot.service
        table = placing_table(list(service.tables.values()), interaction.user.id, interaction.channel_id)
        state = table.state
        grid = getattr(state, "grid", 3)
        boulevard = parse_boulevard(code, grid, table.locale)
        if boulevard is None:
            raise TableError("cadwallon.place.bad_code", text=safe_text(code.strip()[:20]), grid=grid)
        await service.act(table.id, interaction.user.id, table.prompt_version, PlaceAgent(boulevard=boulevard))
        # The answer is the player's panel, and like any panel it follows the game from here on.
        await self.bot.interactions.send_panel(interaction, table, user_locale(interaction), edit=False)

    @place.autocomplete("code")
    async def place_code(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Offer the free boulevards matching what the user typed, labelled with their support."""
        tables = list(self.bot.service.tables.values())
        return placement_choices(tables, interaction.user.id, interaction.channel_id, current)


async def setup(bot: TableBot) -> None:
    """Load the cog."""
    await bot.add_cog(CadwallonCog(bot))
