"""What a form's button and a form's submission do (the forms themselves: :mod:`bot.ui.forms`).

Opening and submitting both check that the decision is still the member's: the prompt version in
the custom id must be the table's, the member must sit at the table, and the presenter must still
offer that form to its seat. Anything else is answered privately and applies nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import answer_error, deliver
from bot.tables import Table, TableError
from bot.ui.forms import MODAL_ID, FormExpiredError, chosen_actions, form_modal, forms_for, submitted_values
from bot.ui.interactions import _not_yours, user_locale
from games.core import StaleActionError

if TYPE_CHECKING:
    from bot.app import TableBot
    from bot.presenters import Form


class FormClicks:
    """Form handlers bound to one bot."""

    def __init__(self, bot: TableBot) -> None:
        """Bind the handlers to ``bot``."""
        self.bot = bot

    async def _current_form(self, table: Table, user_id: int, prompt: int, kind: str, locale: str) -> Form:
        """Return form ``kind`` of ``user_id``'s seat if it still answers prompt ``prompt``; else refuse."""
        if table.status != "active" or table.state is None:
            raise TableError("table.not_active")
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("table.not_seated")
        if prompt != table.prompt_version:
            raise StaleActionError
        if seat.seat not in table.engine.active_seats(table.state):
            raise _not_yours(table)
        form = next((f for f in forms_for(table, seat.seat, locale) if f.kind == kind), None)
        if form is None:
            raise StaleActionError  # the seat still decides, but no longer this (a draft was started)
        return form

    async def open_form(self, interaction: discord.Interaction, table_id: int, prompt: int, kind: str) -> None:
        """Answer a form's button with its modal."""
        table = await self.bot.service.get(table_id)
        form = await self._current_form(table, interaction.user.id, prompt, kind, user_locale(interaction))
        modal = form_modal(table_id, prompt, form)
        await deliver(lambda: interaction.response.send_modal(modal))

    async def modal_submitted(self, interaction: discord.Interaction) -> None:
        """Apply a submitted form whole, or answer privately why nothing was applied."""
        try:
            data: Mapping[str, Any] = interaction.data or {}
            match = MODAL_ID.fullmatch(str(data.get("custom_id", "")))
            if match is None:
                raise FormExpiredError  # a modal of an older version of the bot, or none of ours
            self.bot.clicks.check(interaction)
            table_id, prompt, kind = int(match["table"]), int(match["prompt"]), match["kind"]
            locale = user_locale(interaction)
            table = await self.bot.service.get(table_id)
            form = await self._current_form(table, interaction.user.id, prompt, kind, locale)
            actions = chosen_actions(form, submitted_values(data))
            await self.bot.service.act_many(table_id, interaction.user.id, prompt, actions)
            message = interaction.message
            on_panel = message is not None and message.flags.ephemeral
            # The panel the form was opened from shows the next decision and goes on following the game.
            await self.bot.interactions.send_panel(interaction, table, locale, edit=on_panel)
        except Exception as error:
            await answer_error(interaction, error)
