"""The bot: wires settings, storage, the table service, the publisher, components and cogs."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ErrorAwareTree
from bot.i18n import DEFAULT_LOCALE, normalize_locale, translate
from bot.settings import Settings
from bot.storage import Storage
from bot.tables import FIRST_SEAT_IS_LOBBY_INDEX, TableError, TableService
from bot.translator import CatalogueTranslator
from bot.ui.components import DYNAMIC_ITEMS
from bot.ui.interactions import Interactions, display_name
from bot.ui.panels import lobby_payload
from bot.ui.publisher import DiscordPublisher
from bot.ui.text import NO_PINGS
from games.registry import ENGINES

log = logging.getLogger(__name__)

COGS = ("bot.cogs.coup", "bot.cogs.masti", "bot.cogs.cadwallon", "bot.cogs.intrigue", "bot.cogs.tables")


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

    async def on_message(self, message: discord.Message, /) -> None:
        """Ignore messages: the bot acts on slash commands and components only."""

    async def setup_hook(self) -> None:
        """Open storage, restore this process's live tables, register components and commands."""
        self.storage = self._given_storage or await Storage.open(
            self.settings.database_target, pool_size=self.settings.database_pool_size
        )
        shards = self.settings.shards
        self.service = TableService(
            self.storage,
            self.publisher,
            ai_delay=self.settings.ai_delay_seconds,
            timeouts_before_autopilot=self.settings.timeouts_before_autopilot,
            shards=None if shards.is_all else shards,
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
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

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

    def guild_locale(self, interaction: discord.Interaction) -> str:
        """Return the language of public text in the interaction's server."""
        if interaction.guild_locale is not None:
            return normalize_locale(str(interaction.guild_locale))
        return normalize_locale(self.settings.default_locale or DEFAULT_LOCALE)

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        game: str,
        options: dict[str, Any],
        *,
        rematch_of: int | None = None,
        seats: list[tuple[int | None, str, bool]] | None = None,
    ) -> None:
        """Open a lobby in the interaction's channel and post its message."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise TableError("ui.error.no_guild")
        locale = self.guild_locale(interaction)
        table = await self.service.create_lobby(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            game=game,
            host_id=interaction.user.id,
            host_name=display_name(interaction.user),
            options=options,
            locale=locale,
            rematch_of=rematch_of,
        )
        for user_id, name, is_ai in seats or []:
            if user_id == interaction.user.id:
                continue
            if is_ai:
                await self.service.add_ai(table.id, interaction.user.id, name)
            elif user_id is not None:
                await self.service.join(table.id, user_id, name)
        payload = lobby_payload(table, locale)
        message: discord.Message
        if interaction.response.is_done():
            message = await interaction.followup.send(
                embed=payload.embed, view=payload.view, wait=True, allowed_mentions=NO_PINGS
            )
        else:
            await interaction.response.send_message(embed=payload.embed, view=payload.view, allowed_mentions=NO_PINGS)
            message = await interaction.original_response()
        await self.service.set_lobby_message(table, message.id)

    async def rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        """Open a new lobby with the same seats; the previous winner moves first."""
        row = await self.storage.get_table(table_id)
        if row is None:
            raise TableError("table.not_found")
        if row.status != "finished":
            raise TableError("table.rematch_not_finished")
        seats = await self.storage.seats(table_id)
        if not any(s.user_id == interaction.user.id for s in seats):
            raise TableError("table.not_seated")
        results = await self.storage.results(table_id)
        winner = min(results, key=lambda r: r.rank).seat if results else None
        # The clicking player hosts the rematch; seat order is kept so the winner's seat index holds.
        ordered = sorted(seats, key=lambda s: s.position if s.seat is None else s.seat)
        host_index = next(i for i, s in enumerate(ordered) if s.user_id == interaction.user.id)
        ordered = ordered[host_index:] + ordered[:host_index]
        first = None if winner is None else next(i for i, s in enumerate(ordered) if s.seat == winner)
        options = dict(row.options)
        if "first_seat" in ENGINES[row.game].options_type.model_fields:
            # Only games with a chosen first player take the winner first; others keep their own rule.
            options["game"] = {**options.get("game", {}), "first_seat": first}
            options[FIRST_SEAT_IS_LOBBY_INDEX] = True
        channel = self.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = normalize_locale(row.locale)
        table = await self.service.create_lobby(
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            game=row.game,
            host_id=interaction.user.id,
            host_name=display_name(interaction.user),
            options=options,
            locale=locale,
            rematch_of=table_id,
        )
        for seat in ordered[1:]:
            if seat.is_ai:
                await self.service.add_ai(table.id, interaction.user.id, seat.display_name)
            elif seat.user_id is not None:
                await self.service.join(table.id, seat.user_id, seat.display_name)
        payload = lobby_payload(table, locale)
        message = await channel.send(embed=payload.embed, view=payload.view, allowed_mentions=NO_PINGS)
        await self.service.set_lobby_message(table, message.id)
        await interaction.followup.send(
            translate(str(interaction.locale), "ui.lobby.created") + f" {message.jump_url}",
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )


def create_bot(settings: Settings | None = None, *, storage: Storage | None = None) -> TableBot:
    """Return a configured, not yet started bot."""
    return TableBot(settings or Settings(), storage=storage)


__all__ = ["TableBot", "app_commands", "create_bot"]
