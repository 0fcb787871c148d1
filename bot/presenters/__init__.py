"""Per-game presentation without Discord: labels, status lines, public decisions and images.

A presenter turns a game's *views* (never its state) into text and pictures. The Discord layer is
generic and asks the presenter of a table's game for everything game-specific, so adding a game
means adding an engine and a presenter, not touching the views or the publisher.

Optional, beyond the protocol: ``log_filler`` (event kinds the log leaves out) and
``log_lines(events, names, locale)`` (one step's public lines, joining events that belong
together); :mod:`bot.ui.gamelog` uses them for the board, the Log button and replays.

Optional too: ``render_hand(view, names, locale) -> bytes | None``, the viewer's own hand as a PNG
drawn from its *own* view (``view`` is that seat's view; ``names`` as for ``render_board``). When a
presenter has it and it returns bytes, the private panel shows the picture above its choices
(:func:`bot.ui.panels.panel_payload`); ``None`` keeps the text-only panel.

``forms(view, legal, names, locale, explore=...)`` returns the viewer's decisions that one form can
take whole (:class:`Form`); the private panel offers each as a button opening a modal
(:mod:`bot.ui.forms`). ``explore`` (an :data:`Explore`) shows the presenter the viewer's own view and
legal actions after some of its actions, so a form's later fields are the engine's own answers.

``render_full_board(view, names, locale) -> bytes`` (optional): a game whose ``render_board`` is a
compact picture sized for Discord's preview (at most 400x280 px shown) draws its detailed board
here. The board message then offers a **Full board** button that sends this image privately; it is
always drawn from the PUBLIC view, whoever clicks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel


@dataclass(frozen=True)
class Choice:
    """One action offered to a seat: the action, its label, and an optional group for selects.

    ``multi`` marks a choice of a select where several options may be ticked at once (every choice
    of its group has it): the ticked actions are applied in the options' order, all or nothing, as
    a chained option is. A presenter offers one only where that order does not change the outcome
    (the picks of an investment basket), and picking one option alone stays one step.
    """

    action: Any
    label: str
    group: str | None = None
    style: str = "secondary"  # primary | secondary | success | danger
    emoji: str | None = None
    multi: bool = False


#: Applies the viewer's actions to a copy of the game and returns its view and legal actions then
#: (``None`` when one of them is refused or the viewer no longer decides); nothing is committed.
Explore = Callable[[Sequence[Any]], tuple[BaseModel, list[Any]] | None]


@dataclass(frozen=True)
class FormField:
    """One part of a form: a select of ``choices`` (their actions are the values), ``min``–``max`` picks."""

    label: str
    choices: tuple[Choice, ...]
    min_values: int = 0
    max_values: int = 1
    description: str | None = None


@dataclass(frozen=True)
class Form:
    """A whole decision in one modal: the picks of its fields in field order, then ``then``.

    With nothing picked the decision is ``empty`` instead (a form with no ``empty`` needs a pick).
    Every action a form takes besides ``then`` and ``empty`` is an option value of one of its
    fields, so a driver fills a form by matching values to a planned sequence of actions; a part
    with one answer only is a required field of that one option, shown already chosen.
    ``kind`` names the form in component ids (``[a-z0-9_]``, at most 16 characters); ``title`` (at
    most 45) heads the modal and ``button`` labels the panel's button that opens it.
    """

    kind: str
    title: str
    button: str
    fields: tuple[FormField, ...]
    then: tuple[Any, ...] = ()
    empty: tuple[Any, ...] = ()

    def actions(self, picks: Sequence[Sequence[Any]]) -> list[Any]:
        """Return the engine actions of a submission: ``picks`` holds each field's chosen actions, in order."""
        chosen = [action for field_picks in picks for action in field_picks]
        return [*chosen, *self.then] if chosen else list(self.empty)


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
