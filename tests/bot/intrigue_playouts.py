"""Seeded «Интриги» games for the presenter, renderer and catalogue tests (played once per process).

Two agents play them: the random agent, and a *busy* one that prefers doing something (hiring,
sending mercenaries, calling votes, lending, revealing) over passing, so the rare steps — spies and
thieves, guards, lending, Речная Подкова, appointments — show up in a few short games.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from games.core import GameRng, RandomAgent
from games.core.models import Event
from games.intrigue.engine import IntrigueEngine
from games.intrigue.models import Back, CharAction, IntrigueOptions, Pass, PickAction, PickType, Skip
from games.intrigue.state import IntrigueState

ENGINE = IntrigueEngine()
NAMES = ["Наташа", "Саша", "Григорий Константинопольский-Заде", "Alex", "Мария", "Bob", "Ёжик", "W" * 32]
BUSY_ACTIONS = frozenset(
    {CharAction.SEND, CharAction.RIVER_PLAY, CharAction.REMOVE_HEAD, CharAction.REMOVE_COUNCILLOR, CharAction.LEND}
)


class BusyAgent:
    """Prefers doing something: hires, sends, votes and lends more than it passes."""

    def choose(self, view: Any, legal: list[Any], rng: GameRng) -> Any:
        active = [a for a in legal if not isinstance(a, Pass | Skip | Back)]
        hires = [a for a in active if isinstance(a, PickType)]
        if hires and rng.random() < 0.6:
            return rng.choice(hires)
        busy = [a for a in active if isinstance(a, PickAction) and a.action in BUSY_ACTIONS]
        if busy and rng.random() < 0.8:
            return rng.choice(busy)
        if active and rng.random() < 0.9:
            return rng.choice(active)
        return rng.choice(legal)


@dataclass(frozen=True)
class Step:
    """One decision of a recorded game: the state, who acted, what was legal, and what followed."""

    state: IntrigueState
    seat: int
    legal: tuple[Any, ...]
    action: Any
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Game:
    """A recorded game: its setup events, every step and the final state."""

    seats: int
    setup_events: tuple[Event, ...]
    steps: tuple[Step, ...]
    final: IntrigueState


@cache
def play(seats: int, seed: str, *, busy: bool = True, max_turns: int = 10) -> Game:
    """Play one seeded game to its end and record it."""
    setup = ENGINE.setup(seats, IntrigueOptions(max_turns=max_turns), seed)
    state = setup.state
    agent: Any = BusyAgent() if busy else RandomAgent()
    rng = GameRng(f"test-playout:{seed}")
    steps: list[Step] = []
    while True:
        active = sorted(ENGINE.active_seats(state))
        if not active:
            break
        seat = rng.choice(active)
        legal = ENGINE.legal_actions(state, seat)
        action = agent.choose(ENGINE.view(state, seat), legal, rng)
        step = ENGINE.apply(state, seat, action)
        steps.append(Step(state, seat, tuple(legal), action, step.events))
        state = step.state
    return Game(seats, setup.events, tuple(steps), state)


#: The games most tests walk through: every table size of both land counts, busy and random.
GAMES: tuple[tuple[int, str, bool], ...] = (
    (2, "intrigue-t2", True),
    (3, "intrigue-t3", True),
    (4, "intrigue-t4", False),
    (5, "intrigue-t5", True),
    (6, "intrigue-t6", True),
    (8, "intrigue-t8", True),
)


def games() -> list[Game]:
    """Return every game of :data:`GAMES`, played once per process."""
    return [play(seats, seed, busy=busy) for seats, seed, busy in GAMES]


# ---------------------------------------------------------------------- one sample of every event
def _sample(annotation: Any, name: str) -> Any:
    """Return a plausible value of ``annotation`` for the event field ``name`` (ids of seats, lands, characters)."""
    import types
    import typing
    from enum import Enum

    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Literal:
        return args[0]
    if origin in (typing.Union, types.UnionType):
        return _sample(next(a for a in args if a is not type(None)), name)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return (_sample(args[0], name), _sample(args[0], name))
        return tuple(_sample(arg, name) for arg in args)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return next(iter(annotation))
    if annotation is bool:
        return True
    if annotation is int:
        return 2
    if annotation is str:
        return "for" if name in {"vote", "votes", "preferences", "commitments", "choice"} else "M07"
    raise TypeError(f"no sample for {name}: {annotation!r}")


def sample_events() -> list[Event]:
    """Return two instances of every «Интриги» event: every field set, and only the required ones."""
    import typing

    from games.intrigue.models import IntrigueEvent

    out: list[Event] = []
    classes = typing.get_args(typing.get_args(IntrigueEvent)[0])
    for cls in classes:
        full: dict[str, Any] = {}
        minimal: dict[str, Any] = {}
        for name, info in cls.model_fields.items():
            if name in {"kind", "visible_to"}:
                continue
            value = _sample(info.annotation, name)
            full[name] = value
            if info.is_required():
                minimal[name] = value
        out.extend((cls.model_validate(full), cls.model_validate(minimal)))
    return out
