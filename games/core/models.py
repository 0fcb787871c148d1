"""Base models shared by every engine: frozen, JSON round-trippable pydantic models."""

from __future__ import annotations

from typing import Generic, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict

Seat = int
StateT = TypeVar("StateT", bound="BaseState")


class Model(BaseModel):
    """A frozen model that rejects unknown fields, so saved JSON always means one thing."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class BaseState(Model):
    """Fields every game state carries.

    ``version`` counts accepted actions; ``seed`` feeds the per-version generator.
    """

    seed: str
    version: int = 0
    num_seats: int


class Event(Model):
    """Something that happened, in the past tense.

    ``visible_to`` is ``None`` for a public event, otherwise the seats allowed to see it.
    """

    kind: str
    visible_to: frozenset[Seat] | None = None

    def visible_for(self, seat: Seat | None) -> bool:
        """Return whether ``seat`` (``None`` = a spectator) may see this event."""
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


class Outcome(Model):
    """How a finished game ended.

    ``ranks[seat]`` is 0 for first place; equal ranks are ties. ``teams`` lists the seats of each
    team when the game is played in teams (ranks are then equal within a team).
    """

    ranks: tuple[int, ...]
    scores: tuple[float, ...] | None = None
    teams: tuple[tuple[Seat, ...], ...] | None = None


class Step(NamedTuple, Generic[StateT]):
    """The result of applying one action: the new state and what happened, in order."""

    state: StateT
    events: tuple[Event, ...]
