"""Forms: a decision of several parts taken in one modal instead of one sub-step per click.

A presenter lists the viewer's whole decisions that one form can take (:class:`bot.presenters.Form`);
the private panel shows a button per form (:class:`bot.ui.components.FormButton`), and the button
opens a modal whose fields are ``discord.ui.Label``-wrapped radio groups (one of two to ten
answers) or selects (more answers, several picks, or one fixed answer shown chosen). Option values
are encoded engine actions (:mod:`bot.codec`), as on every other component, so anything (the taps driver too)
can fill a form by matching values to actions.

The modal's custom id is ``formm:<table>:<prompt>:<kind>``. The modal is never kept in memory
(it is stopped before it is sent, so discord.py's view store does not hold it): its submission is
read from the interaction in :meth:`bot.app.TableBot.on_interaction`, checked against the form
rebuilt from the table as it is at that moment, and applied whole through
:meth:`bot.tables.TableService.act_many`. So a form survives a restart like a button does, and a
submission for a decision that has passed is refused, never applied.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import discord
from pydantic import BaseModel

from bot.codec import CodecError, encode_action
from bot.presenters import Form
from bot.presenters.registry import PRESENTERS
from bot.tables import Table
from bot.ui.text import label_names
from games.core import BaseState, GameError
from games.core.protocol import Engine

#: The custom id of a form's modal.
MODAL_ID = re.compile(r"formm:(?P<table>\d{1,18}):(?P<prompt>\d{1,9}):(?P<kind>[a-z0-9_]{1,16})")
#: Discord's limits on a modal: top-level components, title, a label's text and description, options.
MAX_FIELDS = 5
MAX_TITLE = 45
MAX_LABEL = 45
MAX_DESCRIPTION = 100
MAX_OPTIONS = 25
#: A radio group holds two to ten options (and no emoji: its labels carry them as text).
MIN_RADIO = 2
MAX_RADIO = 10


class FormExpiredError(GameError):
    """A modal submission the bot cannot read as a form (an unknown or outdated custom id)."""

    code = "form.expired"


def forms_for(table: Table, seat: int | None, locale: str, *, explore: Explorer | None = None) -> list[Form]:
    """Return the forms ``seat`` may fill now: none unless the table awaits that seat.

    ``explore`` is an :class:`Explorer` of this seat from the table's state that the caller already
    used (the panel's chained options): the forms reuse the states it reached.
    """
    state = table.state
    build = getattr(PRESENTERS[table.game], "forms", None)
    if build is None or state is None or seat is None or table.status != "active":
        return []
    if seat not in table.engine.active_seats(state):
        return []
    legal = table.engine.legal_actions(state, seat)
    if explore is None:
        explore = explorer(table.engine, state, seat)
    forms: list[Form] = build(table.view(seat), legal, label_names(table.names()), locale, explore=explore)
    return [form for form in forms if fits(form)]


def fits(form: Form) -> bool:
    """Return whether ``form`` fits one modal: one to five fields of one to 25 options.

    A form that does not is left out, never cut short: its decision stays on the panel's
    step-by-step components, which split long lists.
    """
    return 0 < len(form.fields) <= MAX_FIELDS and all(0 < len(part.choices) <= MAX_OPTIONS for part in form.fields)


def explorer(engine: Engine[Any], state: BaseState, seat: int) -> Explorer:
    """Return the :data:`bot.presenters.Explore` of ``seat`` from ``state`` (pure: nothing is committed)."""
    return Explorer(engine, state, seat)


class Explorer:
    """The :data:`bot.presenters.Explore` of ``seat`` from ``state``; :meth:`legal` skips the view.

    It remembers the state after each sequence applied so far, so a sequence replays only what its
    longest beginning explored before did not: presenters explore a tree of picks.
    """

    def __init__(self, engine: Engine[Any], state: BaseState, seat: int) -> None:
        self.engine = engine
        self.state = state
        self.seat = seat
        #: The state after each sequence (``None``: refused on the way).
        self._reached: dict[tuple[Any, ...], BaseState | None] = {(): state}

    def __call__(self, actions: Sequence[Any]) -> tuple[BaseModel, list[Any]] | None:
        """Return the seat's view and legal actions after ``actions`` (``None``: refused, or it no longer decides)."""
        after = self._reach(tuple(actions))
        if after is None:
            return None
        return self.engine.view(after, self.seat), self.engine.legal_actions(after, self.seat)

    def legal(self, actions: Sequence[Any]) -> list[Any] | None:
        """Return the seat's legal actions after ``actions`` alone, as :meth:`__call__` would (no view is built)."""
        after = self._reach(tuple(actions))
        return None if after is None else self.engine.legal_actions(after, self.seat)

    def _step(self, after: BaseState | None, action: Any) -> BaseState | None:
        if after is None or self.seat not in self.engine.active_seats(after):
            return None
        try:
            state: BaseState = self.engine.apply(after, self.seat, action).state
        except GameError:
            return None
        return state

    def _reach(self, path: tuple[Any, ...]) -> BaseState | None:
        """Return the state after ``path`` while the seat still decides there, else ``None``."""
        try:
            hash(path)
        except TypeError:  # an action that cannot be a key: replay the whole sequence, remembering nothing
            after: BaseState | None = self.state
            for action in path:
                after = self._step(after, action)
        else:
            start = len(path)
            while path[:start] not in self._reached:
                start -= 1
            after = self._reached[path[:start]]
            for index in range(start, len(path)):
                after = self._reached[path[: index + 1]] = self._step(after, path[index])
        if after is None or self.seat not in self.engine.active_seats(after):
            return None
        return after


def field_id(index: int) -> str:
    """Return the custom id of the form's field number ``index``."""
    return f"f{index}"


def form_modal(table_id: int, prompt: int, form: Form) -> discord.ui.Modal:
    """Return the modal of ``form`` for prompt ``prompt`` (never stored: see the module docstring)."""
    modal = discord.ui.Modal(title=form.title[:MAX_TITLE], custom_id=f"formm:{table_id}:{prompt}:{form.kind}")
    for index, part in enumerate(form.fields[:MAX_FIELDS]):
        description = part.description[:MAX_DESCRIPTION] if part.description else None
        component: discord.ui.Item[Any]
        if part.max_values == 1 and MIN_RADIO <= len(part.choices) <= MAX_RADIO:
            # A few answers of which one is taken: a radio group shows them all, one tap each.
            component = discord.ui.RadioGroup[Any](
                custom_id=field_id(index),
                options=[
                    discord.RadioGroupOption(label=_option_label(c), value=encode_action(c.action))
                    for c in part.choices
                ],
                required=part.min_values > 0,
            )
        else:
            only = len(part.choices) == 1 and part.min_values > 0  # a part with one answer comes chosen
            options = [
                discord.SelectOption(
                    label=c.label[:100] or "-", value=encode_action(c.action), emoji=c.emoji, default=only
                )
                for c in part.choices[:MAX_OPTIONS]
            ]
            component = discord.ui.Select[Any](
                custom_id=field_id(index),
                options=options,
                min_values=min(part.min_values, len(options)),
                max_values=max(1, min(part.max_values, len(options))),
                required=part.min_values > 0,
            )
        modal.add_item(discord.ui.Label(text=part.label[:MAX_LABEL], description=description, component=component))
    modal.stop()
    return modal


def _option_label(choice: Any) -> str:
    """Return a radio option's label: the choice's emoji (a radio option has none of its own) and its text."""
    text = f"{choice.emoji} {choice.label}" if choice.emoji else choice.label
    return text[:100] or "-"


def _controls(nodes: Any) -> Iterator[Mapping[str, Any]]:
    """Yield every control of a modal submission's component tree (labels and rows hold them)."""
    if isinstance(nodes, Mapping):
        if "custom_id" in nodes:
            yield nodes
        yield from _controls(nodes.get("component"))
        yield from _controls(nodes.get("components"))
    elif isinstance(nodes, list):
        for node in nodes:
            yield from _controls(node)


def submitted_values(data: Mapping[str, Any]) -> dict[str, list[str]]:
    """Return each submitted control's chosen values by custom id."""
    out: dict[str, list[str]] = {}
    for control in _controls(data.get("components")):
        values = control.get("values")
        if isinstance(values, list):
            out[str(control["custom_id"])] = [str(v) for v in values]
        else:  # a radio group answers one value, or none
            value = control.get("value")
            out[str(control["custom_id"])] = [value] if isinstance(value, str) else []
    return out


def chosen_actions(form: Form, values: Mapping[str, list[str]]) -> list[Any]:
    """Return the engine actions of a submission of ``form``, checked against the form's own options.

    A value the field does not offer, or a count outside the field's bounds, is a damaged or forged
    submission (``CodecError``); a legal-looking submission may still be refused by the engine.
    """
    picks: list[list[Any]] = []
    for index, part in enumerate(form.fields[:MAX_FIELDS]):
        offered = {encode_action(c.action): c.action for c in part.choices[:MAX_OPTIONS]}
        chosen = values.get(field_id(index), [])
        if len(chosen) != len(set(chosen)) or not part.min_values <= len(chosen) <= max(1, part.max_values):
            raise CodecError(f"field {index}: {len(chosen)} values")
        if any(value not in offered for value in chosen):
            raise CodecError(f"field {index}: a value the form does not offer")
        picks.append([offered[value] for value in chosen])
    actions = form.actions(picks)
    if not actions:
        raise CodecError("an empty submission of a form that needs a pick")
    return actions
