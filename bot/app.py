"""The bot: wires settings, storage, the table service, the publisher, components and cogs."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ErrorAwareTree
from bot.guilds import COMMUNITY, MemberLanguages, interaction_locale, public_locale, table_options
from bot.i18n import normalize_locale, translate
from bot.settings import Settings
from bot.storage import GuildSettingsRow, SeatRow, Storage, TableRow
from bot.tables import FIRST_PLAYER, FIRST_SEAT_IS_LOBBY_INDEX, Table, TableError, TableService
from bot.translator import CatalogueTranslator
from bot.ui.commands import CommandIds
from bot.ui.components import DYNAMIC_ITEMS
from bot.ui.form_clicks import FormClicks
from bot.ui.interactions import Interactions, display_name
from bot.ui.limits import ClickLimiter, OpenTableCooldown
from bot.ui.panels import lobby_payload
from bot.ui.publisher import DISCORD_FAILURES, DiscordPublisher
from bot.ui.replay import Replays
from bot.ui.text import NO_PINGS
from games.registry import ENGINES

log = logging.getLogger(__name__)

#: How long after a game ends its Rematch button works (seconds).
REMATCH_SECONDS = 30 * 60

COGS = (
    "bot.cogs.coup",
    "bot.cogs.masti",
    "bot.cogs.cadwallon",
    "bot.cogs.intrigue",
    "bot.cogs.tables",
    "bot.cogs.history",
    "bot.cogs.help",
    "bot.cogs.settings",
)


class TableBot(commands.AutoShardedBot):
    """The tabletop bot: runs the shards ``settings`` names and the tables of their guilds.

    It answers interactions only: it has no prefix commands, no help command and reads no message
    (:meth:`on_message` ignores every one), so "@bot help" in a channel gets no answer.
    """

    service: TableService
    storage: Storage

    def __init__(self, settings: Settings, *, storage: Storage | None = None, **kwargs: Any) -> None:
        """Build the bot; storage opens in :meth:`setup_hook` unless one is given (tests)."""
        intents = discord.Intents.default()
        shards = settings.shards
        super().__init__(
            # commands.Bot needs a prefix, but no message ever reaches command processing (on_message).
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents,
            shard_count=shards.count,
            shard_ids=sorted(shards.ids),
            tree_cls=ErrorAwareTree,
            # A message that forgets its own allowed_mentions pings no one (see bot.ui.text).
            allowed_mentions=NO_PINGS,
            **kwargs,
        )
        self.settings = settings
        self._given_storage = storage
        self.publisher = DiscordPublisher(self, edit_interval=settings.board_edit_interval)
        self.interactions = Interactions(self)
        self.form_clicks = FormClicks(self)
        self.replays = Replays(self)
        #: The synced commands' ids (empty until setup_hook syncs): mentions fall back to plain text.
        self.command_ids = CommandIds()
        # One rematch lobby per finished table: two presses at once must not both open one.
        self._rematch_lock = asyncio.Lock()
        self.clicks = ClickLimiter(settings.click_burst, settings.clicks_per_second)
        self.open_cooldown = OpenTableCooldown(settings.open_table_cooldown_seconds)
        # The languages members chose for private text, loaded in setup_hook (see MemberLanguages).
        self.languages = MemberLanguages()

    async def on_message(self, message: discord.Message, /) -> None:
        """Ignore messages: the bot acts on slash commands and components only."""

    async def on_interaction(self, interaction: discord.Interaction, /) -> None:
        """Read every modal submission here: forms are never kept in memory (see :mod:`bot.ui.forms`)."""
        if interaction.type is discord.InteractionType.modal_submit:
            await self.form_clicks.modal_submitted(interaction)

    async def setup_hook(self) -> None:
        """Open storage, restore this process's live tables, register components and commands."""
        self.storage = self._given_storage or await Storage.open(
            self.settings.database_target, pool_size=self.settings.database_pool_size
        )
        self.languages.load(await self.storage.member_locales())
        shards = self.settings.shards
        self.service = TableService(
            self.storage,
            self.publisher,
            ai_delay=self.settings.ai_delay_seconds,
            timeouts_before_autopilot=self.settings.timeouts_before_autopilot,
            shards=None if shards.is_all else shards,
            lobby_seconds=self.settings.lobby_expiry_minutes * 60.0,
            max_lobbies_per_member=self.settings.max_lobbies_per_member,
            max_tables_per_guild=self.settings.max_tables_per_server,
        )
        restored = await self.service.restore()
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.tree.set_translator(CatalogueTranslator())
        for cog in COGS:
            await self.load_extension(cog)
        log.info("restored %d live tables (%s, %s storage)", restored, shards, self.storage.dialect)
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        # Their ids make clickable mentions in /help and the rules (bot.ui.commands).
        self.command_ids.remember(synced)

    async def close(self) -> None:
        """Stop background work and close storage."""
        if hasattr(self, "service"):
            await self.service.close()
        if hasattr(self, "storage") and self._given_storage is None:
            await self.storage.close()
        if not isinstance(self.loop, asyncio.AbstractEventLoop):
            # Never logged in: discord.py's sharded close() needs the queue login makes; only HTTP is open.
            await self.http.close()
            return
        await super().close()

    def public_locale(self, interaction: discord.Interaction, server: GuildSettingsRow, choice: str | None) -> str:
        """Return the language of a new table's public text (see :func:`bot.guilds.public_locale`).

        Only a Community server can choose its locale in Discord; any other reports ``en-US`` whatever
        its people speak, so its locale is no evidence and the opener's client language counts instead.
        """
        guild = interaction.guild
        return public_locale(
            table_choice=choice,
            server_choice=server.locale,
            guild_locale=str(interaction.guild_locale) if interaction.guild_locale is not None else None,
            community=guild is not None and COMMUNITY in guild.features,
            client_locale=str(interaction.locale) if interaction.locale is not None else None,
            default=self.settings.default_locale,
        )

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        game: str,
        options: dict[str, Any],
        *,
        language: str | None = None,
        reaction_clock: int | None = None,
    ) -> None:
        """Open a lobby in the interaction's channel and post its message.

        ``options`` are the table's own; a ``clock`` of ``None`` and ``reaction_clock`` of ``None``
        take the server's setting (else the default), and the server's reminders and archive delay
        are written into the options (:func:`bot.guilds.table_options`). ``language`` is the table's
        own choice of public language. Outside the channels the server allows, nothing opens.
        """
        if interaction.guild_id is None or interaction.channel_id is None:
            raise TableError("ui.error.no_guild")
        server = await self.storage.guild_settings(interaction.guild_id)
        check_channel(interaction, server)
        locale = self.public_locale(interaction, server, language)
        table = await self.service.create_lobby(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            game=game,
            host_id=interaction.user.id,
            host_name=display_name(interaction.user),
            options=table_options(options, server, self.settings, reaction_clock=reaction_clock),
            locale=locale,
        )
        payload = lobby_payload(table, locale)
        message: discord.Message
        try:
            if interaction.response.is_done():
                message = await interaction.followup.send(
                    embed=payload.embed, view=payload.view, wait=True, allowed_mentions=NO_PINGS
                )
            else:
                await interaction.response.send_message(
                    embed=payload.embed, view=payload.view, allowed_mentions=NO_PINGS
                )
                message = await interaction.original_response()
        except DISCORD_FAILURES:
            await self._abandon_lobby(table.id, interaction.user.id)
            raise TableError("ui.error.lobby_not_posted") from None
        await self.service.set_lobby_message(table, message.id)

    async def _abandon_lobby(self, table_id: int, user_id: int) -> None:
        """Cancel a lobby whose message never reached its channel: nobody could join or close it."""
        log.warning("the lobby of table %s could not be posted; cancelling it", table_id)
        await self.service.cancel(table_id, user_id, is_moderator=True)

    async def rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        """Open a rematch lobby hosted by the clicker and invite the other players to join.

        Nobody is seated without pressing Join: the other humans are mentioned once in the lobby
        message. A finished table has at most one open rematch lobby (another press points to it),
        and its Rematch button works for :data:`REMATCH_SECONDS` after the end. The previous winner
        moves first, named by person: if they do not join, the game's own rule chooses.
        """
        row = await self.storage.get_table(table_id)
        if row is None:
            raise TableError("table.not_found")
        if row.status != "finished":
            raise TableError("table.rematch_not_finished")
        seats = await self.storage.seats(table_id)
        if not any(s.user_id == interaction.user.id for s in seats):
            raise TableError("table.not_seated")
        if row.finished_at is not None and self.service.now() - row.finished_at > REMATCH_SECONDS:
            raise TableError("table.rematch_expired", minutes=REMATCH_SECONDS // 60)
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_locale = interaction_locale(interaction)
        async with self._rematch_lock:
            open_rematch = next(
                (t for t in self.service.tables.values() if t.rematch_of == table_id and t.status == "lobby"), None
            )
            if open_rematch is not None:
                url = lobby_url(open_rematch)
                await interaction.followup.send(
                    translate(user_locale, "ui.lobby.rematch_open", url=url), ephemeral=True, allowed_mentions=NO_PINGS
                )
                return
            table = await self._open_rematch(interaction, row, seats)
        await interaction.followup.send(
            translate(user_locale, "ui.lobby.created") + f" {lobby_url(table)}",
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )

    async def _open_rematch(self, interaction: discord.Interaction, row: TableRow, seats: list[SeatRow]) -> Table:
        results = await self.storage.results(row.id)
        winner = min(results, key=lambda r: r.rank) if results else None
        winner_seat = next((s for s in seats if winner is not None and s.seat == winner.seat), None)
        options = dict(row.options)
        game_options = {k: v for k, v in options.get("game", {}).items() if k != "first_seat"}
        options = {k: v for k, v in options.items() if k not in {FIRST_PLAYER, FIRST_SEAT_IS_LOBBY_INDEX}}
        options["game"] = game_options
        if winner_seat is not None and "first_seat" in ENGINES[row.game].options_type.model_fields:
            # Only games with a chosen first player take the winner first; others keep their own rule.
            options[FIRST_PLAYER] = (
                {"ai_name": winner_seat.display_name} if winner_seat.is_ai else {"user_id": winner_seat.user_id}
            )
        locale = normalize_locale(row.locale)
        table = await self.service.create_lobby(
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            game=row.game,
            host_id=interaction.user.id,
            host_name=display_name(interaction.user),
            options=options,
            locale=locale,
            rematch_of=row.id,
        )
        # The AI seats come back (they need no invitation); every other human is invited.
        for seat in sorted(seats, key=lambda s: s.position if s.seat is None else s.seat):
            if seat.is_ai:
                await self.service.add_ai(table.id, interaction.user.id, seat.display_name)
        invited = [s.user_id for s in seats if not s.is_ai and s.user_id not in {None, interaction.user.id}]
        payload = lobby_payload(table, locale)
        content = None
        if invited:
            mentions = " ".join(f"<@{user_id}>" for user_id in invited)
            content = translate(locale, "ui.lobby.rematch_invite", mentions=mentions, id=row.id)
        channel = self.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            message = await channel.send(
                content,
                embed=payload.embed,
                view=payload.view,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(u) for u in invited if u is not None]
                ),
            )
        except DISCORD_FAILURES:
            await self._abandon_lobby(table.id, interaction.user.id)
            raise TableError("ui.error.lobby_not_posted") from None
        await self.service.set_lobby_message(table, message.id)
        return table


def check_channel(interaction: discord.Interaction, server: GuildSettingsRow) -> None:
    """Refuse to open a table outside the channels ``server`` allows (any channel when it lists none).

    A thread counts as its channel: a table opened in a thread of an allowed channel is allowed.

    Raises:
        TableError: ``guild.error.channel_not_allowed``, naming the allowed channels as mentions.
    """
    if not server.channels:
        return
    parent = getattr(interaction.channel, "parent_id", None)
    if interaction.channel_id in server.channels or (parent is not None and parent in server.channels):
        return
    raise TableError("guild.error.channel_not_allowed", channels=" ".join(f"<#{c}>" for c in server.channels))


def lobby_url(table: Table) -> str:
    """Return the link to ``table``'s lobby message."""
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.lobby_message_id}"


def create_bot(settings: Settings | None = None, *, storage: Storage | None = None) -> TableBot:
    """Return a configured, not yet started bot."""
    return TableBot(settings or Settings(), storage=storage)


__all__ = ["TableBot", "app_commands", "create_bot"]
