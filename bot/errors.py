"""The one place interaction errors are answered: rule errors privately, bugs with an apology.

A ``GameError`` (from an engine or the table service) becomes a private message translated by its
stable code in the clicking user's language. Anything else is logged with its traceback and the
user gets a short apology; the table is untouched because nothing is committed before an apply
succeeds.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.codec import CodecError
from bot.i18n import has_key, translate
from games.core import GameError

log = logging.getLogger(__name__)


def error_text(error: BaseException, locale: str) -> str:
    """Return the private message for ``error`` in ``locale``."""
    if isinstance(error, GameError):
        key = error.code if "." in error.code else f"core.{error.code}"
        if not has_key(key, locale):
            game = error.code.split(".")[0]
            key = f"{game}.error.{error.code.split('.', 1)[-1]}"
        if not has_key(key, locale):
            key = "core.error.illegal_action"
        return translate(locale, key, **error.params)
    if isinstance(error, CodecError):
        return translate(locale, "ui.error.bad_component")
    return translate(locale, "core.apology")


def unwrap(error: BaseException) -> BaseException:
    """Return the error a command or view actually raised."""
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError) and error.__cause__:
        error = error.__cause__
    original = getattr(error, "original", None)
    return original if isinstance(original, BaseException) else error


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer ``interaction`` privately with what went wrong; log what is a bug."""
    error = unwrap(error)
    if not isinstance(error, GameError | CodecError | app_commands.CheckFailure):
        # Only the component's kind and table go to the log: a private button's id names the
        # clicker's hidden cards (an exchange keep, a card to reveal).
        custom_id = str(interaction.data.get("custom_id", "")) if interaction.data else ""
        log.error(
            "unhandled error in interaction %s (%s)",
            interaction.id,
            ":".join(custom_id.split(":")[:2]),
            exc_info=error,
        )
    text = error_text(error, str(interaction.locale))
    if isinstance(error, app_commands.CommandOnCooldown):
        text = translate(str(interaction.locale), "ui.error.cooldown", seconds=round(error.retry_after))
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send the error answer for interaction %s", interaction.id)


class ErrorAwareTree(app_commands.CommandTree[discord.Client]):
    """A command tree whose errors go through :func:`answer_error`."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Answer the user privately; log bugs."""
        await answer_error(interaction, error)
