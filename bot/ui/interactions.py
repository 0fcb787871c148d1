"""What each click does: lobby buttons, table buttons and game actions, for every game.

Every handler acknowledges within Discord's 3 seconds: moves answer at once (they take
milliseconds), and slow work such as opening a thread is deferred first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.codec import decode_action
from bot.errors import deliver
from bot.i18n import translate
from bot.tables import TableError
from bot.ui.panels import Payload, confirm_payload, panel_payload, rules_payload
from bot.ui.text import NO_PINGS

if TYPE_CHECKING:
    from bot.app import TableBot
    from bot.tables import TableService


def user_locale(interaction: discord.Interaction) -> str:
    """Return the clicking user's language."""
    return str(interaction.locale)


def display_name(user: discord.abc.User) -> str:
    """Return the name shown for ``user`` at a table."""
    return getattr(user, "display_name", None) or user.name


def is_moderator(interaction: discord.Interaction) -> bool:
    """Return whether the clicking member may end any table where they clicked.

    A moderator is a member who may Manage Messages or Manage Threads *in that channel*, or who may
    Manage Server (Administrator grants all three). ``interaction.permissions`` are the member's
    permissions resolved by Discord for the channel of the click (for a table's thread, those of
    the games channel it belongs to), so a role allowed Manage Messages server-wide but denied it in
    the games channel is no moderator there.
    """
    if interaction.guild_id is None:
        return False
    perms = interaction.permissions
    return perms.manage_guild or perms.manage_messages or perms.manage_threads


def _is_ephemeral(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return bool(message is not None and message.flags.ephemeral)


async def send_private(interaction: discord.Interaction, payload: Payload, *, edit: bool = False) -> None:
    """Answer privately with ``payload`` (editing the clicked private message when ``edit``).

    The answer is sent again if it may not have reached Discord (see :func:`bot.errors.deliver`).
    """

    async def send() -> None:
        if edit:
            if interaction.response.is_done():
                await interaction.edit_original_response(
                    embed=payload.embed, view=payload.view, allowed_mentions=NO_PINGS
                )
            else:
                await interaction.response.edit_message(
                    embed=payload.embed, view=payload.view, allowed_mentions=NO_PINGS
                )
        elif interaction.response.is_done():
            await interaction.followup.send(
                embed=payload.embed, view=payload.view, ephemeral=True, allowed_mentions=NO_PINGS
            )
        else:
            await interaction.response.send_message(
                embed=payload.embed, view=payload.view, ephemeral=True, allowed_mentions=NO_PINGS
            )

    await deliver(send)


async def acknowledge(interaction: discord.Interaction) -> None:
    """Acknowledge a click without a message (the board or lobby shows its effect)."""
    await deliver(interaction.response.defer)


class Interactions:
    """Click handlers bound to one bot."""

    def __init__(self, bot: TableBot) -> None:
        """Bind the handlers to ``bot``."""
        self.bot = bot

    @property
    def service(self) -> TableService:
        """Return the table service."""
        return self.bot.service

    async def lobby_click(self, interaction: discord.Interaction, table_id: int, verb: str) -> None:
        """Handle a lobby button."""
        user = interaction.user
        service = self.service
        if verb == "join":
            table = await service.join(table_id, user.id, display_name(user))
        elif verb == "leave":
            table = await service.leave(table_id, user.id)
        elif verb == "addai":
            table = await service.get(table_id)
            number = sum(1 for s in table.seats if s.is_ai) + 1
            table = await service.add_ai(table_id, user.id, translate(table.locale, "ui.lobby.ai_name", n=number))
        elif verb == "removeai":
            table = await service.remove_ai(table_id, user.id)
        elif verb == "start":
            await acknowledge(interaction)
            table = await service.start(table_id, user.id)
            return
        elif verb == "cancel":
            table = await service.cancel(table_id, user.id, is_moderator=is_moderator(interaction))
        else:
            raise TableError("table.error")
        # The publisher redraws the lobby (once, coalesced); the click only needs acknowledging.
        await acknowledge(interaction)

    async def table_click(self, interaction: discord.Interaction, table_id: int, verb: str) -> None:
        """Handle a table button (panel, rules, resign, end, back, rematch)."""
        locale = user_locale(interaction)
        user = interaction.user
        service = self.service
        if verb == "rematch":
            await self.bot.rematch(interaction, table_id)
            return
        if verb == "rules":
            row = await service.storage.get_table(table_id)
            if row is None:
                raise TableError("table.not_found")
            await send_private(interaction, rules_payload(row.game, locale))
            return
        table = await service.get(table_id)
        if verb == "hand":
            if table.state is None:
                raise TableError("table.not_started")  # a lobby has no cards yet
            await send_private(interaction, panel_payload(table, user.id, locale), edit=_is_ephemeral(interaction))
        elif verb in {"resign", "end"}:
            if verb == "resign" and table.seat_of(user.id) is None:
                raise TableError("table.not_seated")
            if verb == "end" and user.id != table.host_id and not is_moderator(interaction):
                raise TableError("table.host_only")
            await send_private(interaction, confirm_payload(table, verb, locale))
        elif verb == "resign_yes":
            await service.resign(table_id, user.id)
            done = Payload(embed=discord.Embed(description=translate(locale, "ui.panel.resigned")))
            await send_private(interaction, done, edit=True)
        elif verb == "end_yes":
            await acknowledge(interaction)
            await service.cancel(table_id, user.id, is_moderator=is_moderator(interaction))
        elif verb == "back":
            await service.im_back(table_id, user.id)
            await send_private(interaction, panel_payload(table, user.id, locale), edit=_is_ephemeral(interaction))
        else:
            raise TableError("table.error")

    async def act_click(
        self, interaction: discord.Interaction, table_id: int, prompt: int, encoded: str, *, private: bool
    ) -> None:
        """Apply one game action and answer the click."""
        service = self.service
        table = await service.get(table_id)
        action = decode_action(table.engine.action_adapter, encoded)
        await service.act(table_id, interaction.user.id, prompt, action)
        if private:
            payload = panel_payload(table, interaction.user.id, user_locale(interaction))
            await send_private(interaction, payload, edit=True)
        else:
            await acknowledge(interaction)
