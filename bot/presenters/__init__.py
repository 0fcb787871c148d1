"""Per-game presentation without Discord: labels, status lines, public decisions and images.

A presenter turns a game's *views* (never its state) into text and pictures. The Discord layer is
generic and asks the presenter of a table's game for everything game-specific, so adding a game
means adding an engine and a presenter, not touching the views or the publisher.

Optional, beyond the protocol: ``log_filler`` (event kinds the log leaves out) and
``log_lines(events, names, locale)`` (one step's public lines, joining events that belong
together); :mod:`bot.ui.gamelog` uses them for the board, the Log button and replays.

``render_full_board(view, names, locale) -> bytes`` (optional): a game whose ``render_board`` is a
compact picture sized for Discord's preview (about 400x300 px shown) draws its detailed board
here. The board message then offers a **Full board** button that sends this image privately; it is
always drawn from the PUBLIC view, whoever clicks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel


@dataclass(frozen=True)
class Choice:
    """One action offered to a seat: the action, its label, and an optional group for selects."""

    action: Any
    label: str
    group: str | None = None
    style: str = "secondary"  # primary | secondary | success | danger
    emoji: str | None = None


class Presenter(Protocol):
    """What the Discord layer needs to show one game."""

    game: str

    def render_board(self, view: BaseModel, names: Sequence[str], locale: str) -> bytes:
        """Return the board PNG drawn from ``view`` (a function of its arguments: no clock, no time)."""
        ...

    def status(self, view: BaseModel, names: Sequence[str], locale: str) -> str:
        """Return one line saying what the table waits for."""
        ...

    def public_choices(
        self, view: BaseModel, awaited_legal: Sequence[Any], names: Sequence[str], locale: str
    ) -> list[Choice]:
        """Return the decisions shown to the whole table (empty when they depend on hidden data).

        ``view`` is the public view; ``awaited_legal`` is the union of the awaited seats' legal
        actions, which the presenter may show only in phases where legality is public.
        """
        ...

    def decided_on_board(self, view: BaseModel) -> bool:
        """Return whether the current decision is taken with the public board's own buttons."""
        ...

    def private_choices(self, view: BaseModel, legal: Sequence[Any], names: Sequence[str], locale: str) -> list[Choice]:
        """Return the viewer's own legal actions as labelled choices (shown only to that seat)."""
        ...

    def private_summary(self, view: BaseModel, names: Sequence[str], locale: str) -> str:
        """Return the text of the viewer's private panel (its hidden cards and what it must decide)."""
        ...

    def rules(self, locale: str) -> list[tuple[str, str]]:
        """Return the rules summary as (title, text) sections."""
        ...

    def result_lines(self, view: BaseModel, names: Sequence[str], locale: str) -> list[str]:
        """Return the final standings, best first (a game may add itemised score lines under each)."""
        ...

    def narrate(self, event: BaseModel, names: Sequence[str], locale: str) -> str | None:
        """Return the log line of ``event`` in ``locale``, or ``None`` when the game shows none.

        Games whose events carry only seats, numbers and enums delegate to
        :func:`bot.i18n.narrate.narrate`; a game whose events carry other ids (card ids) formats them
        here first.
        """
        ...
