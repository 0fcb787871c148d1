"""What each click does: lobby buttons, table buttons and game actions, for every game.

Every handler acknowledges within Discord's 3 seconds: moves answer at once (they take
milliseconds), and slow work such as opening a thread is deferred first.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import replace
from typing import TYPE_CHECKING

import discord

from bot.codec import CodecError, decode_action
from bot.errors import deliver
from bot.guilds import interaction_locale
from bot.i18n import translate
from bot.presenters.chains import CHAIN_SEP
from bot.presenters.registry import PRESENTERS
from bot.tables import TableError
from bot.ui.panels import (
    Payload,
    confirm_payload,
    end_vote_payload,
    full_board_payload,
    panel_payload,
    rules_payload,
)
from bot.ui.publisher import PanelShown, panel_key, seat_awaited
from bot.ui.text import NO_PINGS, safe_name

if TYPE_CHECKING:
    from bot.app import TableBot
    from bot.tables import Table, TableService


def user_locale(interaction: discord.Interaction) -> str:
    """Return the language of private text for the clicking user: their choice, their client's, else English.

    A dictionary look-up (see :class:`bot.guilds.MemberLanguages` for what a choice made through
    another bot process means here).
    """
    return interaction_locale(interaction)


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


async def send_private(
    interaction: discord.Interaction, payload: Payload, *, edit: bool = False
) -> tuple[int | None, bool]:
    """Answer privately with ``payload`` (editing the clicked private message when ``edit``).

    The answer is sent again if it may not have reached Discord (see :func:`bot.errors.deliver`).
    Returns the id of the message shown (``None`` if Discord did not say) and whether it is the
    interaction's own response (``False``: a followup), which is what editing it later needs. A
    payload's picture is attached; an edit replaces the message's attachments, so an older hand
    picture never stays under a newer panel.
    """
    shown: list[tuple[int | None, bool]] = [(None, True)]

    async def send() -> None:
        files = [payload.file()] if payload.png is not None else []
        if edit:
            if interaction.response.is_done():
                message = await interaction.edit_original_response(
                    embed=payload.embed, view=payload.view, attachments=files, allowed_mentions=NO_PINGS
                )
                shown[0] = (message.id, True)
            else:
                callback = await interaction.response.edit_message(
                    embed=payload.embed, view=payload.view, attachments=files, allowed_mentions=NO_PINGS
                )
                source = interaction.message.id if interaction.message is not None else None
                shown[0] = ((callback.message_id if callback is not None else None) or source, True)
        elif interaction.response.is_done():
            followup = await interaction.followup.send(
                embed=payload.embed,
                view=payload.view,
                files=files,
                ephemeral=True,
                allowed_mentions=NO_PINGS,
                wait=True,
            )
            shown[0] = (followup.id, False)
        else:
            callback = await interaction.response.send_message(
                embed=payload.embed, view=payload.view, files=files, ephemeral=True, allowed_mentions=NO_PINGS
            )
            shown[0] = (callback.message_id, True)

    await deliver(send)
    return shown[0]


async def send_private_image(interaction: discord.Interaction, payload: Payload) -> None:
    """Answer privately with ``payload`` and its image (a new private message, never an edit)."""

    async def send() -> None:
        # A fresh File per attempt: a File's buffer is consumed by the first send.
        file = discord.File(io.BytesIO(payload.png or b""), filename=payload.filename)
        if interaction.response.is_done():
            await interaction.followup.send(
                embed=payload.embed, view=payload.view, file=file, ephemeral=True, allowed_mentions=NO_PINGS
            )
        else:
            await interaction.response.send_message(
                embed=payload.embed, view=payload.view, file=file, ephemeral=True, allowed_mentions=NO_PINGS
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

    async def lobby_select(self, interaction: discord.Interaction, table_id: int, verb: str, value: str) -> None:
        """Handle a lobby select: ``kick`` removes the chosen player (the service checks it is the host)."""
        if verb != "kick":
            raise TableError("table.error")
        if not value.isdigit() or len(value) > 20:
            raise CodecError(f"not a member id: {value[:30]!r}")  # a forged or damaged select
        await self.service.remove_player(table_id, interaction.user.id, int(value))
        await acknowledge(interaction)

    async def game_rules(self, interaction: discord.Interaction, game: str) -> None:
        """Show the rules of ``game`` privately in the clicker's language (a Rules button under /help)."""
        if game not in PRESENTERS:
            raise TableError("table.error")  # a forged or outdated custom id
        await send_private(interaction, rules_payload(game, user_locale(interaction), self.bot.command_ids))

    async def table_click(self, interaction: discord.Interaction, table_id: int, verb: str) -> None:
        """Handle a table button (panel, rules, log, replay, full board, resign, end, back, rematch)."""
        locale = user_locale(interaction)
        user = interaction.user
        service = self.service
        if verb == "rematch":
            await self.bot.rematch(interaction, table_id)
            return
        if verb == "log":
            await self.bot.replays.open_log(interaction, table_id)
            return
        if verb == "replay":
            await self.bot.replays.open_replay(interaction, table_id)
            return
        if verb == "rules":
            row = await service.storage.get_table(table_id)
            if row is None:
                raise TableError("table.not_found")
            await send_private(interaction, rules_payload(row.game, locale, self.bot.command_ids))
            return
        table = await service.get(table_id)
        if verb == "hand":
            if table.state is None:
                raise TableError("table.not_started")  # a lobby has no cards yet
            await self.send_panel(interaction, table, locale, edit=_is_ephemeral(interaction))
        elif verb == "full":
            if table.state is None:
                raise TableError("table.not_started")
            # Anyone may look (it is the public view, in their own language). The worker thread draws
            # a snapshot, as the publisher does: the live table keeps moving while the image renders.
            snapshot = replace(table, seats=[replace(seat) for seat in table.seats])
            payload = await asyncio.to_thread(full_board_payload, snapshot, locale)
            await send_private_image(interaction, payload)
        elif verb == "resign":
            if table.seat_of(user.id) is None:
                raise TableError("table.not_seated")
            await send_private(interaction, confirm_payload(table, verb, locale))
        elif verb == "end":
            await send_private(interaction, await self._end_confirmation(interaction, table, locale))
        elif verb == "resign_yes":
            await service.resign(table_id, user.id)
            done = Payload(embed=discord.Embed(description=translate(locale, "ui.panel.resigned")))
            await send_private(interaction, done, edit=True)
        elif verb == "end_yes":
            await acknowledge(interaction)
            await service.cancel(table_id, user.id, is_moderator=is_moderator(interaction))
        elif verb in {"endvote", "endvote_yes"}:
            await self._vote_end(interaction, table, locale)
        elif verb == "back":
            await service.im_back(table_id, user.id)
            await self.send_panel(interaction, table, locale, edit=_is_ephemeral(interaction))
        else:
            raise TableError("table.error")

    async def send_panel(self, interaction: discord.Interaction, table: Table, locale: str, *, edit: bool) -> None:
        """Show the clicker's private panel and make it the one that follows the game (:mod:`bot.ui.publisher`)."""
        user_id = interaction.user.id
        key, live = panel_key(table), seat_awaited(table, user_id)  # what the panel shows, as it is drawn
        payload = panel_payload(table, user_id, locale)
        message_id, original = await send_private(interaction, payload, edit=edit)
        shown = PanelShown(message_id=message_id, original=original, locale=locale, key=key, live=live)
        await self.bot.publisher.panel_shown(table, user_id, interaction, shown)

    async def _end_confirmation(self, interaction: discord.Interaction, table: Table, locale: str) -> Payload:
        """Return the private question behind End table: end now, or propose ending by agreement.

        A moderator ends any table, and the host a lobby or a game nobody has moved in yet; after
        the first move a player can only propose it, and it ends when every seated human agrees.
        """
        user_id = interaction.user.id
        if is_moderator(interaction) or (user_id == table.host_id and not await self.service.has_moves(table)):
            return confirm_payload(table, "end", locale)
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("table.host_only")
        return confirm_payload(table, "endvote", locale)

    async def _vote_end(self, interaction: discord.Interaction, table: Table, locale: str) -> None:
        """Count the clicker's agreement to end the game; show the proposal in the thread."""
        user_id = interaction.user.id
        proposer = next((safe_name(s.name) for s in table.seats if s.user_id == user_id), "")
        table, agreed, needed = await self.service.vote_end(table.id, user_id)
        if agreed >= needed:
            if _is_ephemeral(interaction):
                await acknowledge(interaction)
            else:
                await deliver(lambda: interaction.response.edit_message(view=None))
            return
        pending = [s.user_id for s in table.seats if not s.is_ai and s.user_id is not None]
        pending = [u for u in pending if u not in table.end_votes]
        payload = end_vote_payload(table, agreed, needed)
        mentions = " ".join(f"<@{u}>" for u in pending)
        if not _is_ephemeral(interaction):
            # A click on the public proposal: show the new count there (no new mention).
            await deliver(lambda: interaction.response.edit_message(embed=payload.embed, view=payload.view))
            return
        content = translate(table.locale, "ui.board.end_proposed", name=proposer, mentions=mentions)
        thread = self.bot.get_partial_messageable(table.thread_id or table.channel_id, guild_id=table.guild_id)
        await thread.send(
            content,
            embed=payload.embed,
            view=payload.view,
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in pending]
            ),
        )
        done = Payload(embed=discord.Embed(description=translate(locale, "ui.panel.end_proposed")))
        await send_private(interaction, done, edit=True)

    async def more_time_click(self, interaction: discord.Interaction, table_id: int, prompt: int) -> None:
        """Take more time in a reaction window; the board shows it to everyone, so the click is only acknowledged."""
        await self.service.more_time(table_id, interaction.user.id, prompt)
        await acknowledge(interaction)

    async def pass_click(self, interaction: discord.Interaction, table_id: int, prompt: int, *, passing: bool) -> None:
        """Pass the window and the rest of its span, or take a standing pass back; then redraw the panel."""
        if passing:
            table = await self.service.pass_windows(table_id, interaction.user.id, prompt)
        else:
            table = await self.service.resume_windows(table_id, interaction.user.id)
        await self.send_panel(interaction, table, user_locale(interaction), edit=True)

    async def act_click(
        self, interaction: discord.Interaction, table_id: int, prompt: int, encoded: str, *, private: bool
    ) -> None:
        """Apply one game action, or a chained option's actions all at once, and answer the click.

        A chained option (:mod:`bot.presenters.chains`) goes through ``act_many``: checked against
        the prompt once, every action with the engine's full checks, all applied or none.
        """
        service = self.service
        table = await service.get(table_id)
        actions = [decode_action(table.engine.action_adapter, part) for part in encoded.split(CHAIN_SEP)]
        try:
            if len(actions) == 1:
                await service.act(table_id, interaction.user.id, prompt, actions[0])
            else:
                await service.act_many(table_id, interaction.user.id, prompt, actions)
        except TableError as error:
            if error.code != "table.not_your_turn":
                raise
            raise _not_yours(table) from error
        if private:
            await self.send_panel(interaction, table, user_locale(interaction), edit=True)
        else:
            await acknowledge(interaction)


def _not_yours(table: Table) -> TableError:
    """Return the refusal of a click on someone else's decision, naming who is deciding now."""
    state = table.state
    deciding = sorted(table.engine.active_seats(state)) if state is not None and table.status == "active" else []
    if not deciding:
        return TableError("table.not_your_turn")
    names = ", ".join(safe_name(table.seats[index].name) for index in deciding)
    return TableError("call.not_your_turn", names=names)
