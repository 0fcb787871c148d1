"""Generic hidden-information checks on everything the bot shows, for any game with a ``resample_hidden`` hook.

An engine's ``resample_hidden(state, seat, rng)`` (see :mod:`games.core.conformance`) redraws every
datum ``seat`` cannot see (``None``: everything hidden from the table). So, without knowing the
game:

- a *public* output (board embed, its buttons and selects, the view its image is drawn from, the
  result message, public log lines, the spectator's panel) must be identical for ``state`` and
  ``resample_hidden(state, None)``;
- a seat's *private* panel must be identical for ``state`` and ``resample_hidden(state, seat)``;
- the AI's input must be exactly its seat's view and legal actions, and those must not change
  under ``resample_hidden(state, seat)``;
- the log records the bot writes while building any of these must not change either.

That compares one state at a time. A spectator also remembers: :class:`TranscriptChecker` checks
the whole public transcript (every public event, the public view and the public log lines of
every step, and the board built from them) by replaying the rest of a game from a twin state:

- *relabelled* (engines with the ``relabel_hidden`` hook, :class:`~games.core.conformance.HiddenIdentities`):
  the ids hidden from the spectator consistently permuted, later actions renamed to match. The
  twin is the same game dealt other ids, so its transcript must be identical to the end. An id that
  reached public text, or one a count of public events could predict, shows up here;
- *resampled* (every engine): everything hidden redrawn by ``resample_hidden``; the same actions
  replayed while legal, each step's public events and lines compared for as long as the public
  views agree (once they differ, the hidden difference has come out, and the replay stops).

The checker builds payloads with the bot's own builders (:mod:`bot.ui.panels`) from a
:class:`bot.tables.Table`, with each game's presenter wrapped so that ``render_board`` returns the
JSON of the view it is asked to draw: the image's source is compared, not its pixels (the SimCord
tier renders real PNGs). :func:`secret_texts` lists what a state's private panels show that the
public cannot know, for scanning text that cannot be rebuilt from a resample (log records, the
messages left in Discord).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot.presenters import Presenter
from bot.presenters.registry import PRESENTERS
from bot.tables import Table, TableResult
from bot.ui import panels
from bot.ui.gamelog import step_lines
from bot.ui.panels import Payload
from games.core import Agent, BaseState, Event, GameError, GameRng
from games.core.conformance import HiddenIdentities, HiddenInfo, rename_strings
from games.core.protocol import Engine

#: Shortest private text worth searching for in free text (shorter ones are words anyone may use).
MIN_SECRET = 12


def resampler(engine: Engine[Any]) -> HiddenInfo[Any]:
    """Return ``engine`` as a ``resample_hidden`` provider (every registered engine is one)."""
    if not isinstance(engine, HiddenInfo):
        raise AssertionError(f"{engine.name} has no resample_hidden hook")
    return engine


class ViewRecorder:
    """Wraps a presenter and keeps the views it draws from (per thread: boards render on a worker).

    ``local.view`` is the view of the last board image, ``local.panel`` the view of the last private
    panel. With ``draw`` off, or inside :meth:`shadow`, ``render_board`` returns the JSON of the view
    instead of a PNG: the image's source is compared, not its pixels.
    """

    def __init__(self, inner: Presenter, *, draw: bool) -> None:
        self._inner = inner
        self.game = inner.game
        self.draw = draw
        self.local = threading.local()

    def render_board(self, view: BaseModel, names: Sequence[str], locale: str) -> bytes:
        self.local.view = view
        if self.draw and not getattr(self.local, "shadow", False):
            return self._inner.render_board(view, names, locale)
        return view.model_dump_json().encode()

    def private_summary(self, view: BaseModel, names: Sequence[str], locale: str) -> str:
        self.local.panel = view
        return self._inner.private_summary(view, names, locale)

    @contextmanager
    def shadow(self) -> Iterator[None]:
        """Draw no PNG in this thread while inside (the leak checks' own builds)."""
        self.local.shadow = True
        try:
            yield
        finally:
            self.local.shadow = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


@contextmanager
def recording_views(games: Sequence[str], *, draw: bool = False) -> Iterator[dict[str, ViewRecorder]]:
    """Replace the presenters of ``games`` by :class:`ViewRecorder` s while inside."""
    saved = {game: PRESENTERS[game] for game in games}
    recorders = {game: ViewRecorder(saved[game], draw=draw) for game in games}
    try:
        PRESENTERS.update(recorders)  # a recorder is a presenter (it delegates the rest)
        yield recorders
    finally:
        PRESENTERS.update(saved)


def _shadow(game: str) -> Any:
    presenter = PRESENTERS[game]
    return presenter.shadow() if isinstance(presenter, ViewRecorder) else contextlib.nullcontext()


class _Records(logging.Handler):
    """Keeps the records one thread writes (the publisher's worker threads log concurrently)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.thread = threading.get_ident()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread == self.thread:
            self.messages.append(f"{record.name}:{record.levelname}:{record.getMessage()}")


@contextmanager
def log_records() -> Iterator[list[str]]:
    """Collect the log records this thread writes while inside (at the levels loggers let through)."""
    handler = _Records()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler.messages
    finally:
        root.removeHandler(handler)


def fingerprint(payload: Payload) -> tuple[Any, Any, Any]:
    """Return what a payload shows: embed, components, image (here: the image's source view)."""
    return payload.embed.to_dict(), payload.view.to_components(), payload.png


def awaited_legal(engine: Engine[Any], state: BaseState) -> list[Any]:
    """Return the awaited seats' legal actions, without repeats (what the publisher passes the board)."""
    out: list[Any] = []
    for seat in sorted(engine.active_seats(state)):
        out.extend(a for a in engine.legal_actions(state, seat) if a not in out)
    return out


def texts_of(payload: Payload) -> list[str]:
    """Return the lines of text and the component labels and values of ``payload``."""
    embed = payload.embed
    parts = [embed.title or "", embed.footer.text or ""]
    parts.extend((embed.description or "").splitlines())
    for item in embed.fields:
        parts.extend([item.name or "", *(item.value or "").splitlines()])

    def walk(rows: Sequence[dict[str, Any]]) -> None:
        for row in rows:
            parts.extend(str(row.get(key) or "") for key in ("label", "placeholder", "custom_id"))
            for option in row.get("options") or []:
                parts.extend([str(option.get("label") or ""), str(option.get("value") or "")])
            walk(row.get("components") or [])

    walk(payload.view.to_components())
    return [p for p in parts if p]


@dataclass
class LeakReport:
    """What a leak check compared, and what it found."""

    problems: list[str] = field(default_factory=list)
    boards: int = 0
    panels: int = 0
    spectator_panels: int = 0
    results: int = 0
    ai_decisions: int = 0
    log_lines: int = 0
    resamples_changed: int = 0
    secrets: int = 0
    states: int = 0
    #: Transcript check: twins replayed, ids relabelled, steps compared.
    relabelled_twins: int = 0
    relabelled_ids: int = 0
    relabelled_steps: int = 0
    resampled_twins: int = 0
    resampled_steps: int = 0

    def fail(self, text: str) -> None:
        if len(self.problems) < 50:
            self.problems.append(text)

    @classmethod
    def merged(cls, reports: Sequence[LeakReport]) -> LeakReport:
        """Return the sum of several reports (from worker processes)."""
        out = cls()
        for report in reports:
            out.problems.extend(report.problems)
            for name in ("boards", "panels", "spectator_panels", "results", "ai_decisions", "log_lines"):
                setattr(out, name, getattr(out, name) + getattr(report, name))
            for name in ("resamples_changed", "secrets", "states"):
                setattr(out, name, getattr(out, name) + getattr(report, name))
            for name in (
                "relabelled_twins",
                "relabelled_ids",
                "relabelled_steps",
                "resampled_twins",
                "resampled_steps",
            ):
                setattr(out, name, getattr(out, name) + getattr(report, name))
        return out


class LeakChecker:
    """Compares every output of one table with the same output under resampled hidden data."""

    def __init__(self, report: LeakReport, seed: str) -> None:
        self.report = report
        self.rng = GameRng(f"leaks:{seed}")

    def _resample(self, table: Table, seat: int | None) -> Table:
        assert table.state is not None
        other = resampler(table.engine).resample_hidden(table.state, seat, self.rng)
        if other != table.state:
            self.report.resamples_changed += 1
        return dataclasses.replace(table, seats=[dataclasses.replace(s) for s in table.seats], state=other)

    def board(self, table: Table, lines: Sequence[str]) -> None:
        """Check the public board of ``table`` (embed, components, the image's source view)."""
        state = table.state
        assert state is not None
        recorder = PRESENTERS[table.game]
        other = self._resample(table, None)
        assert other.state is not None
        with _shadow(table.game), log_records() as mine_logs:
            mine = panels.board_payload(table, lines, awaited_legal=awaited_legal(table.engine, state))
            drawn = getattr(getattr(recorder, "local", None), "view", None)
        with _shadow(table.game), log_records() as their_logs:
            theirs = panels.board_payload(other, lines, awaited_legal=awaited_legal(other.engine, other.state))
        self.report.boards += 1
        if drawn is not None and drawn != table.engine.view(state, None):
            self.report.fail(f"{table.game} v{state.version}: the board image is not drawn from the public view")
        if fingerprint(mine) != fingerprint(theirs):
            self.report.fail(f"{table.game} v{state.version}: the board depends on hidden data: {diff(mine, theirs)}")
        if mine_logs != their_logs:
            self.report.fail(f"{table.game} v{state.version}: log records of the board depend on hidden data")

    def panel(self, table: Table, user_id: int, locale: str) -> None:
        """Check the private panel ``user_id`` gets (a spectator's when not seated)."""
        state = table.state
        assert state is not None
        seat = table.seat_of(user_id)
        index = seat.seat if seat is not None else None
        other = self._resample(table, index)
        with log_records() as mine_logs:
            mine = panels.panel_payload(table, user_id, locale)
        shown = getattr(getattr(PRESENTERS[table.game], "local", None), "panel", None)
        with log_records() as their_logs:
            theirs = panels.panel_payload(other, user_id, locale)
        if shown is not None and shown != table.engine.view(state, index):
            what = "the spectator's panel" if index is None else f"the panel of seat {index}"
            self.report.fail(f"{table.game} v{state.version}: {what} is not drawn from its own view")
        if index is None:
            self.report.spectator_panels += 1
        else:
            self.report.panels += 1
        if fingerprint(mine) != fingerprint(theirs) or mine_logs != their_logs:
            who = "a spectator" if index is None else f"seat {index}"
            self.report.fail(f"{table.game} v{state.version}: the panel of {who} depends on what it cannot see")

    def result(self, table: Table, result: TableResult, names: dict[int, str], **options: Any) -> None:
        """Check the result message of a finished table (``options``: the result card's, as the publisher asks)."""
        other = self._resample(table, None)
        self.report.results += 1
        if fingerprint(panels.result_payload(table, result, names, **options)) != fingerprint(
            panels.result_payload(other, result, names, **options)
        ):
            self.report.fail(f"{table.game}: the result message depends on hidden data")

    def public_lines(
        self, table: Table, before: BaseState, seat: int, action: Any, events: Sequence[Event], names: Sequence[str]
    ) -> list[str]:
        """Return the public log lines of a step, checking they do not depend on hidden data.

        The step is replayed on a resample of what the table cannot see (when the action is legal
        there); if the public view after it is the same, so must the public lines be.
        """
        # The lines the board and a live game's Log button show (filler left out, related events joined).
        mine = step_lines(table.game, events, names, table.locale, hidden=False)
        self.report.log_lines += len(mine)
        engine = table.engine
        other = resampler(engine).resample_hidden(before, None, self.rng)
        if seat not in engine.active_seats(other) or action not in engine.legal_actions(other, seat):
            return mine
        step = engine.apply(other, seat, action)
        assert table.state is not None
        if engine.view(step.state, None) != engine.view(table.state, None):
            return mine
        theirs = step_lines(table.game, step.events, names, table.locale, hidden=False)
        if theirs != mine:
            self.report.fail(f"{table.game} v{before.version}: public log lines depend on hidden data")
        return mine


@dataclass(frozen=True)
class Played:
    """One step of a recorded game: ``after`` follows ``before`` by ``seat``'s ``action``."""

    before: BaseState
    seat: int
    action: Any
    after: BaseState
    events: tuple[Event, ...]


def relabelled_action(action: Any, renaming: dict[str, str]) -> Any:
    """Return ``action`` with the ids of ``renaming`` renamed (the same action in the relabelled twin)."""
    if not renaming or not isinstance(action, BaseModel):
        return action
    return type(action).model_validate(rename_strings(action.model_dump(mode="json"), renaming))


class TranscriptChecker:
    """Replays the rest of a recorded game from twin states and compares what a spectator sees.

    ``table`` gives the game, names, locale and the board's frame; its state is replaced for each
    board built. The transcript of a step is its public events, their log lines, the public view
    after it and the board (built from that view and the last log lines).
    """

    def __init__(self, report: LeakReport, table: Table, seed: str) -> None:
        self.report = report
        self.table = table
        self.engine = table.engine
        self.presenter = PRESENTERS[table.game]
        self.names = table.names()
        self.rng = GameRng(f"transcript:{seed}")

    def _step(self, state: BaseState, events: Sequence[Event], lines: list[str]) -> tuple[Any, ...]:
        """Return what a spectator sees of one step (and add its log lines to ``lines``)."""
        public = [e for e in events if e.visible_to is None]
        said = [line for e in public if (line := self.presenter.narrate(e, self.names, self.table.locale))]
        lines.extend(said)
        view = self.engine.view(state, None).model_dump(mode="json")
        table = dataclasses.replace(self.table, state=state, prompt_version=state.version)
        if not self.engine.active_seats(state):
            table.status, table.deadline = "finished", None
        with _shadow(table.game):
            payload = panels.board_payload(table, lines[-8:], awaited_legal=awaited_legal(self.engine, state))
        return [e.model_dump(mode="json") for e in public], said, view, fingerprint(payload)

    def relabelled(self, played: Sequence[Played], start: int) -> bool:
        """Replay ``played[start:]`` from a relabelling of its first state; the transcript must not change.

        Returns whether there was anything to relabel (a game without the hook never has).
        """
        engine = self.engine
        if not isinstance(engine, HiddenIdentities):
            return False
        first = played[start].before
        twin, renaming = engine.relabel_hidden(first, self.rng)
        if not renaming:
            return False
        self.report.relabelled_twins += 1
        self.report.relabelled_ids += len(renaming)
        mine: list[str] = []
        theirs: list[str] = []
        for step in played[start:]:
            # An id no longer named anywhere in the state is gone for good (a new card may be dealt
            # it later, in both games alike): from then on it is not renamed.
            held = step.before.model_dump_json()
            renaming = {old: new for old, new in renaming.items() if f'"{old}"' in held}
            try:
                other = engine.apply(twin, step.seat, relabelled_action(step.action, renaming))
            except GameError as error:
                self.report.fail(
                    f"{engine.name} v{step.before.version}: the relabelled twin (from v{first.version}) "
                    f"cannot replay {step.action!r}: {error}"
                )
                return True
            a = self._step(step.after, step.events, mine)
            b = self._step(other.state, other.events, theirs)
            self.report.relabelled_steps += 1
            if a != b:
                what = ("public events", "log lines", "public view", "board")[next(i for i in range(4) if a[i] != b[i])]
                self.report.fail(
                    f"{engine.name} v{step.before.version}: the {what} depend on hidden ids (relabelled at "
                    f"v{first.version}): {_first_difference(a, b)}"
                )
                return True
            twin = other.state
        return True

    def resampled(self, played: Sequence[Played], start: int) -> bool:
        """Replay ``played[start:]`` from a resample of everything hidden, while the public views agree.

        Return whether there was anything hidden to redraw (a twin was made and followed).
        """
        engine = self.engine
        first = played[start].before
        twin = resampler(engine).resample_hidden(first, None, self.rng)
        if twin == first:
            return False
        self.report.resampled_twins += 1
        mine: list[str] = []
        theirs: list[str] = []
        for step in played[start:]:
            try:
                other = engine.apply(twin, step.seat, step.action)
            except GameError:
                return True  # the hidden difference decides what is legal: the twin went another way
            if engine.view(other.state, None) != engine.view(step.after, None):
                return True  # the hidden difference came out (a reveal): the twin is no longer this game
            a = self._step(step.after, step.events, mine)
            b = self._step(other.state, other.events, theirs)
            self.report.resampled_steps += 1
            if a != b:
                what = ("public events", "log lines", "public view", "board")[next(i for i in range(4) if a[i] != b[i])]
                self.report.fail(
                    f"{engine.name} v{step.before.version}: the {what} depend on hidden data (resampled at "
                    f"v{first.version}) while the public view does not: {_first_difference(a, b)}"
                )
                return True
            twin = other.state
        return True


def _first_difference(a: Any, b: Any) -> str:
    """Return the first place where two transcripts (nested lists, tuples and dicts) differ."""
    if isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        return next((_first_difference(x, y) for x, y in zip(a, b, strict=True) if x != y), "?")
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return next((f"{key}: {_first_difference(a[key], b[key])}" for key in a if a[key] != b[key]), "?")
    return f"{str(a)[:300]} != {str(b)[:300]}"


class SpyAgent:
    """Wraps an agent and checks it is given exactly its seat's view and legal actions."""

    def __init__(self, inner: Agent, engine: Engine[Any], state: BaseState, seat: int, checker: LeakChecker) -> None:
        self.inner = inner
        self.engine = engine
        self.state = state
        self.seat = seat
        self.checker = checker

    def choose(self, view: BaseModel, legal: list[Any], rng: GameRng) -> Any:
        report = self.checker.report
        report.ai_decisions += 1
        engine, state, seat = self.engine, self.state, self.seat
        if isinstance(view, BaseState) or view != engine.view(state, seat):
            report.fail(f"{engine.name} v{state.version}: the AI of seat {seat} was not given its seat's view")
        if legal != engine.legal_actions(state, seat):
            report.fail(f"{engine.name} v{state.version}: the AI of seat {seat} was not given its legal actions")
        other = resampler(engine).resample_hidden(state, seat, self.checker.rng)
        if engine.view(other, seat) != view or engine.legal_actions(other, seat) != legal:
            report.fail(f"{engine.name} v{state.version}: the AI input of seat {seat} depends on what it cannot see")
        return self.inner.choose(view, legal, rng)


def secret_texts(table: Table, user_ids: Sequence[int], rng: GameRng, draws: int = 2) -> set[str]:
    """Return the private texts of ``table`` now that the public cannot know.

    A line of a seat's panel (or a value of its components) is secret when it disappears for some
    redraw of everything the table cannot see. Only texts of :data:`MIN_SECRET` characters or more
    are kept: shorter ones ("Duke", "7") are words public text uses too.
    """
    state = table.state
    assert state is not None
    out: set[str] = set()
    for user_id in user_ids:
        mine = set(texts_of(panels.panel_payload(table, user_id, table.locale)))
        for _ in range(draws):
            other = resampler(table.engine).resample_hidden(state, None, rng)
            theirs = set(texts_of(panels.panel_payload(dataclasses.replace(table, state=other), user_id, table.locale)))
            out |= {text for text in mine - theirs if len(text) >= MIN_SECRET}
    return out


def leaked(texts: Sequence[str], secrets: set[str]) -> list[str]:
    """Return the secrets that appear in any of ``texts``."""
    return sorted({secret for secret in secrets for text in texts if secret in text})


def diff(mine: Payload, theirs: Payload) -> str:
    """Return a short description of how two payloads differ."""
    a, b = fingerprint(mine), fingerprint(theirs)
    for name, x, y in zip(("embed", "components", "image view"), a, b, strict=True):
        if x != y:
            return f"{name}: {str(x)[:300]} != {str(y)[:300]}"
    return "?"
