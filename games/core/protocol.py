"""The protocol every game engine implements (modelled on OpenSpiel's and boardgame.io's APIs).

An engine is a stateless object; the state is data. ``view`` is the only road from a state to
anything a person or an AI sees: ``view(state, seat)`` is what that seat may know, ``view(state,
None)`` is the public table as a spectator sees it.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol, TypeVar

from pydantic import BaseModel, TypeAdapter

from games.core.models import BaseState, Outcome, Seat, Step
from games.core.rng import GameRng

S = TypeVar("S", bound=BaseState)
S_contra = TypeVar("S_contra", bound=BaseState, contravariant=True)


class Engine(Protocol[S]):
    """A game's rules: pure functions of state."""

    name: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    #: Whether the table seats its players in a random order at the start (a game's own rule).
    shuffle_seats: ClassVar[bool]
    state_type: type[S]
    options_type: type[BaseModel]
    action_adapter: TypeAdapter[Any]

    def setup(self, num_seats: int, options: BaseModel, seed: str) -> Step[S]:
        """Return the initial state and the events of the deal."""
        ...

    def active_seats(self, state: S) -> frozenset[Seat]:
        """Return the seats the game waits for; empty once the game is over."""
        ...

    def legal_actions(self, state: S, seat: Seat) -> list[Any]:
        """Return every action ``seat`` may take now (empty when it is not asked to act)."""
        ...

    def apply(self, state: S, seat: Seat, action: Any) -> Step[S]:
        """Apply ``action`` by ``seat``; raise a ``GameError`` and change nothing if illegal."""
        ...

    def view(self, state: S, seat: Seat | None) -> BaseModel:
        """Return what ``seat`` may see (``None``: the public view)."""
        ...

    def default_action(self, state: S, seat: Seat) -> Any:
        """Return the action taken for ``seat`` when its clock runs out."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """Return the result once the game is over, else ``None``."""
        ...

    def resign(self, state: S, seat: Seat) -> Step[S]:
        """Remove ``seat`` from play at any moment (it ranks below every seat still playing)."""
        ...


class Reactions(Protocol[S_contra]):
    """The optional hook of an engine whose decisions may only ask whether to react to another seat's move.

    Coup's challenge, block and allow windows and Интриги's free-action windows ask every other
    seat "do you respond?"; nobody's own turn waits on them. ``reaction_seats(state)`` names the
    awaited seats asked only that (a subset of ``active_seats``; empty when there is none). For each
    of them ``default_action`` is the pass (allow, done: the answer that does nothing and ends that
    seat's part in the window), legal, and the same for every seat it names.

    The table service gives a decision in which every awaited seat reacts a short reaction clock and
    never counts a pass by timeout towards "away" (:mod:`bot.tables`); the conformance suite checks
    the hook (:func:`games.core.conformance.check_reactions`). An engine without it has no reactions.
    """

    def reaction_seats(self, state: S_contra) -> frozenset[Seat]:
        """Return the awaited seats whose decision only asks whether to react to someone else's move."""
        ...


def reaction_seats(engine: object, state: BaseState) -> frozenset[Seat]:
    """Return ``engine``'s reacting seats in ``state`` (none for an engine without the hook)."""
    hook = getattr(engine, "reaction_seats", None)
    return frozenset(hook(state)) if hook is not None else frozenset()


class StandingPass(Protocol[S_contra]):
    """The optional hook of an engine whose reaction windows a player may pass for a while in one answer.

    Интриги asks every eligible seat in each of its windows, and again after every free action in
    it, whether it reacts; a player with nothing to do would answer Done many times a turn.
    ``pass_scope(state)`` names the span a standing pass lasts (Интриги: the game turn): a value
    the table keeps when a player passes "until further notice", and it answers that seat's
    reaction windows with ``default_action`` while ``pass_scope`` still returns the same value.
    ``None`` means no standing pass is offered now. An engine without the hook offers none.
    """

    def pass_scope(self, state: S_contra) -> int | None:
        """Return the span a standing pass chosen now lasts, or ``None`` when none is offered."""
        ...


def pass_scope(engine: object, state: BaseState) -> int | None:
    """Return ``engine``'s standing-pass span in ``state`` (``None`` for an engine without the hook)."""
    hook = getattr(engine, "pass_scope", None)
    return hook(state) if hook is not None else None


class Agent(Protocol):
    """An AI seat: chooses from what its seat may see and the legal actions only, never the state."""

    def choose(self, view: BaseModel, legal: list[Any], rng: GameRng) -> Any:
        """Return one of ``legal``."""
        ...


class RandomAgent:
    """Picks uniformly among the legal actions; the baseline AIs are measured against."""

    def choose(self, view: BaseModel, legal: list[Any], rng: GameRng) -> Any:
        """Return a uniformly random legal action."""
        return rng.choice(legal)
