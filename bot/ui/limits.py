"""Rate limits on members: a token bucket per member for component clicks, a cooldown on opening tables.

A click costs one token; a member holds at most ``burst`` tokens and regains ``rate`` per second,
so a few quick clicks in a row are fine and holding a button down is not. A click without a token
is answered privately ("too fast") and does nothing else. Opening a table (``/coup new``,
``/masti new`` …) shares one cooldown per member and server across every game, so spreading the
spam over four commands gains nothing.

Both read ``time.monotonic`` when called: the offline Discord of the tests (SimCord) moves that
clock only when a test advances time, so the limits are exact there.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from games.core import GameError

if TYPE_CHECKING:
    from bot.app import TableBot

#: Buckets kept before full ones are forgotten (a full bucket is the same as no bucket).
PRUNE_AT = 10_000
T = TypeVar("T")


class TooFastError(GameError):
    """A member clicked faster than the click limit allows; the click was ignored."""

    code = "ui.error.too_fast"


def _monotonic() -> float:
    return time.monotonic()  # looked up per call: SimCord swaps time.monotonic for its virtual clock


class TokenBuckets:
    """One token bucket per key: at most ``burst`` tokens, ``rate`` regained per second."""

    def __init__(self, burst: int, rate: float, *, clock: Callable[[], float] = _monotonic) -> None:
        """Build empty buckets; ``burst`` 0 means no limit."""
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self._buckets: dict[Hashable, tuple[float, float]] = {}  # key → (tokens, when counted)

    def take(self, key: Hashable) -> float:
        """Take a token for ``key``; return 0 if there was one, else the seconds until there is."""
        if self.burst <= 0:
            return 0.0
        now = self.clock()
        tokens = self._tokens(key, now)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > PRUNE_AT:
            self._prune(now)
        return 0.0

    def _tokens(self, key: Hashable, now: float) -> float:
        held = self._buckets.get(key)
        if held is None:
            return float(self.burst)
        tokens, since = held
        return min(float(self.burst), tokens + max(0.0, now - since) * self.rate)

    def _prune(self, now: float) -> None:
        self._buckets = {k: v for k, v in self._buckets.items() if self._tokens(k, now) < self.burst}


class ClickLimiter:
    """The click limit of one bot: every component callback asks it first."""

    def __init__(self, burst: int, rate: float) -> None:
        """Allow ``burst`` clicks at once and ``rate`` per second after that (``burst`` 0: no limit)."""
        self.buckets = TokenBuckets(burst, rate)

    def check(self, interaction: discord.Interaction) -> None:
        """Raise :class:`TooFastError` when the clicking member has no click left."""
        if self.buckets.take(interaction.user.id):
            raise TooFastError


class OpenTableCooldown:
    """The cooldown every "open a table" command shares, per member and server."""

    def __init__(self, seconds: float) -> None:
        """Let a member open one table per ``seconds`` in each server (0: no cooldown)."""
        self.seconds = seconds
        self.buckets = TokenBuckets(1 if seconds > 0 else 0, 1.0 / seconds if seconds > 0 else 1.0)

    def check(self, interaction: discord.Interaction) -> None:
        """Raise ``CommandOnCooldown`` (answered by :mod:`bot.errors`) when the member must wait."""
        retry_after = self.buckets.take((interaction.guild_id, interaction.user.id))
        if retry_after:
            raise app_commands.CommandOnCooldown(app_commands.Cooldown(1, self.seconds), retry_after)


def open_table_cooldown() -> Callable[[T], T]:
    """Decorate a ``new`` command with the bot's shared cooldown on opening tables."""

    def predicate(interaction: discord.Interaction[Any]) -> bool:
        bot: TableBot = interaction.client  # the only client these commands run in
        bot.open_cooldown.check(interaction)
        return True

    return app_commands.check(predicate)
