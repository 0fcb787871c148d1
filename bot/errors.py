"""The one place interaction errors are answered: rule errors privately, bugs with an apology.

A ``GameError`` (from an engine or the table service) becomes a private message translated by its
stable code in the clicking user's language. Anything else is logged with its traceback and the
user gets a short apology; the table is untouched because nothing is committed before an apply
succeeds.

Discord or the network failing (a timeout, a server error discord.py gave up retrying, an expired
interaction) is not a bug: it is logged as a warning, and :func:`deliver` sends an answer again
when it may not have reached Discord.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable

import aiohttp
import discord
from discord import app_commands

from bot.codec import CodecError
from bot.guilds import interaction_locale
from bot.i18n import has_key, translate
from games.core import GameError

log = logging.getLogger(__name__)

#: Discord's error codes for an interaction that can no longer be answered, and for a second answer.
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
#: How often :func:`deliver` tries one answer.
DELIVERY_ATTEMPTS = 3


def is_discord_failure(error: BaseException) -> bool:
    """Return whether ``error`` is Discord or the network failing rather than a bug of ours.

    That is a timeout or lost connection, a server error or rate limit discord.py stopped retrying,
    or an interaction token Discord no longer honours. (A second answer to one interaction is our
    bug, unless :func:`deliver` is repeating an answer that may have been lost: it handles that.)
    """
    if isinstance(error, TimeoutError | aiohttp.ClientError | discord.RateLimited):
        return True
    return isinstance(error, discord.HTTPException) and (
        error.status >= 500 or error.status == 429 or error.code in {UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION}
    )


async def deliver(send: Callable[[], Awaitable[object]], *, attempts: int = DELIVERY_ATTEMPTS) -> None:
    """Send one answer to an interaction, again while it may not have reached Discord.

    After a timeout or a server error we cannot know whether Discord got the answer, so it is sent
    again: if the first one did arrive, Discord refuses the repeat as already acknowledged, which
    counts as delivered. An expired interaction (unknown interaction or webhook) is final, and so is
    any other error.
    """
    for attempt in range(attempts):
        try:
            await send()
        except discord.HTTPException as error:
            if attempt and error.code == ALREADY_ACKNOWLEDGED:
                return
            if error.code in {UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION} or not is_discord_failure(error):
                raise
            if attempt == attempts - 1:
                raise
        except (TimeoutError, aiohttp.ClientError):
            if attempt == attempts - 1:
                raise
        else:
            return


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
    if is_discord_failure(error):
        # Discord failed, not our code: what the click committed stays committed, and the board
        # (sent with the bot token) shows it. A component is acknowledged without a message; a
        # command gets the apology.
        log.warning("Discord failed while answering interaction %s: %r", interaction.id, error)
        if interaction.response.is_done():
            return
        if interaction.type is discord.InteractionType.component:
            try:
                await deliver(interaction.response.defer)
            except (discord.HTTPException, TimeoutError, aiohttp.ClientError):
                log.warning("could not acknowledge interaction %s", interaction.id)
            return
    elif not isinstance(error, GameError | CodecError | app_commands.CheckFailure):
        # Only the component's kind and table go to the log: a private button's id names the
        # clicker's hidden cards (an exchange keep, a card to reveal).
        custom_id = str(interaction.data.get("custom_id", "")) if interaction.data else ""
        log.error(
            "unhandled error in interaction %s (%s)",
            interaction.id,
            ":".join(custom_id.split(":")[:2]),
            exc_info=error,
        )
    locale = interaction_locale(interaction)
    text = error_text(error, locale)
    if isinstance(error, app_commands.CommandOnCooldown):
        # Rounded up: "try again in 0 s" would invite the click that is refused again.
        text = translate(locale, "ui.error.cooldown", seconds=max(1, math.ceil(error.retry_after)))

    async def send() -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
            return
        try:
            await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as error:
            if error.code != ALREADY_ACKNOWLEDGED:
                raise
            # The handler's acknowledgement reached Discord though its reply was lost: follow it up.
            await interaction.followup.send(text, ephemeral=True)

    try:
        await deliver(send)
    except (discord.HTTPException, TimeoutError, aiohttp.ClientError):
        log.warning("could not send the error answer for interaction %s", interaction.id)


class ErrorAwareTree(app_commands.CommandTree[discord.Client]):
    """A command tree whose errors go through :func:`answer_error`."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Answer the user privately; log bugs."""
        await answer_error(interaction, error)
