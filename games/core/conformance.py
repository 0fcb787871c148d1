"""Conformance checks every registered engine must pass (after OpenSpiel's ``api_test``/``random_sim_test``).

The checks run on seeded random playouts, so they work for any game without knowing its rules:

* playouts terminate within a bound, with the version going up by exactly one per accepted action;
* the game waits for a seat exactly when it has legal actions, legal actions are distinct, every one
  of them applies, and the clock's default action is one of them;
* actions that are not legal (other seats' actions, actions seen elsewhere in the game) raise a
  :class:`GameError` and leave the state unchanged;
* states, actions, events, views and outcomes round-trip through JSON;
* replaying the same seed and the same actions (read back from JSON) gives the same states and
  events;
* views and events leak nothing (see below);
* a resigning seat never acts again and ranks below every seat that acts after it;
* seats an engine marks as only reacting to another seat's move (the optional ``reaction_seats``
  hook of :class:`games.core.protocol.Reactions`) are awaited, and their default is a pass: legal,
  the same action for each of them, and it ends the passer's part in the window.

**Leaks.** An engine with hidden information implements :class:`HiddenInfo`: ``resample_hidden(state,
seat, rng)`` returns a state ``seat`` cannot tell apart from ``state``, every datum hidden from it
redrawn at random (``seat=None``: everything hidden from a spectator). The checks are then generic:

* ``view(state, seat) == view(resampled, seat)`` — a view that depended on anything hidden from its
  viewer would differ. For ``seat=None`` this proves the public view holds no private data; for a
  seat, that it holds no other seat's private data.
* The resample must keep the public view, so a careless hook cannot hide a leak by changing too little
  or break the test by changing too much.
* Events: apply the same action to ``state`` and to the resample. When the audience's view after
  the step is the same in both (the step taught it nothing new), the events it may see must be the
  same too; an event that told it more than its view would differ.

A hook that redraws nothing makes the leak checks vacuous; :class:`Report` counts how often a resample
actually changed the state so a test can insist that it does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from games.core.errors import GameError, GameOverError
from games.core.models import BaseState, Event, Outcome, Seat, Step
from games.core.protocol import Engine, RandomAgent, S, reaction_seats
from games.core.rng import GameRng


class ConformanceError(AssertionError):
    """An engine broke the engine contract."""


@runtime_checkable
class HiddenInfo(Protocol[S]):
    """The leak-check hook an engine with hidden information provides."""

    def resample_hidden(self, state: S, seat: Seat | None, rng: GameRng) -> S:
        """Return a state ``seat`` cannot tell from ``state``, with everything hidden from it redrawn."""
        ...


@runtime_checkable
class HiddenIdentities(Protocol[S]):
    """The hook of an engine whose hidden objects carry ids of their own (Интриги's cards in hand).

    A spectator cannot see these ids, so a game whose hidden ids were dealt out differently must look
    the same to it, move for move: the transcript check of the leak sweep
    (``tests/bot/resilience``) replays a game from a relabelled state and compares every public
    event, view and log line. An id that reached public text, or one whose value a count of public
    events could predict, would differ there.
    """

    def relabel_hidden(self, state: S, rng: GameRng) -> tuple[S, dict[str, str]]:
        """Return ``state`` with the ids hidden from a spectator consistently permuted, and the renaming.

        The renaming maps each old id to its new one (ids left in place are omitted); applied to an
        action that names an old id, it gives the same action in the relabelled state.
        """
        ...


def rename_strings(data: Any, renaming: dict[str, str]) -> Any:
    """Return JSON-like ``data`` with every string equal to a key of ``renaming`` replaced by its value.

    >>> rename_strings({"card": "M1", "cards": ["M2", "M3"], "n": 1}, {"M1": "M2", "M2": "M1"})
    {'card': 'M2', 'cards': ['M1', 'M3'], 'n': 1}
    """
    if isinstance(data, str):
        return renaming.get(data, data)
    if isinstance(data, list):
        return [rename_strings(item, renaming) for item in data]
    if isinstance(data, dict):
        return {key: rename_strings(value, renaming) for key, value in data.items()}
    return data


@dataclass(frozen=True)
class Playout:
    """A recorded game: ``states[i + 1]`` follows ``states[i]`` by ``moves[i]`` with ``events[i]``."""

    num_seats: int
    options: BaseModel
    seed: str
    setup_events: tuple[Event, ...]
    states: tuple[BaseState, ...]
    moves: tuple[tuple[Seat, Any], ...]
    events: tuple[tuple[Event, ...], ...]

    @property
    def final(self) -> BaseState:
        """Return the last state."""
        return self.states[-1]


@dataclass
class Report:
    """What a conformance run covered (for assertions on coverage, and for humans)."""

    actions: int = 0
    legal_applied: int = 0
    illegal_rejected: int = 0
    views_compared: int = 0
    resamples_changed: int = 0
    event_steps_compared: int = 0
    resigns: int = 0
    reactions: int = 0


def _fail(message: str) -> ConformanceError:
    return ConformanceError(message)


def _json(model: BaseModel) -> str:
    return model.model_dump_json()


def _action_json(engine: Engine[Any], action: object) -> bytes:
    return engine.action_adapter.dump_json(action)


def _visible(events: Sequence[Event], seat: Seat | None) -> list[Event]:
    return [event for event in events if event.visible_for(seat)]


def _audiences(num_seats: int) -> list[Seat | None]:
    return [None, *range(num_seats)]


def _checked_step(engine: Engine[Any], state: BaseState, seat: Seat, action: object) -> Step[Any]:
    """Apply a legal action and check the step's shape."""
    before = _json(state)
    try:
        step = engine.apply(state, seat, action)
    except GameError as error:
        raise _fail(f"legal action {action!r} of seat {seat} was rejected: {error.code} {error.params}") from error
    if _json(state) != before:
        raise _fail("apply modified its input state")
    new = step.state
    if not isinstance(new, engine.state_type):
        raise _fail(f"apply returned a {type(new).__name__}, not a {engine.state_type.__name__}")
    if new.version != state.version + 1:
        raise _fail(f"version went from {state.version} to {new.version}, not by exactly one")
    if new.seed != state.seed or new.num_seats != state.num_seats:
        raise _fail("apply changed the seed or the seat count")
    for event in step.events:
        _check_event(event, state.num_seats)
    return step


def _check_event(event: Event, num_seats: int) -> None:
    if not isinstance(event, Event):
        raise _fail(f"{event!r} is not an Event")
    if event.visible_to is not None and not all(0 <= s < num_seats for s in event.visible_to):
        raise _fail(f"{event!r} is visible to a seat that is not at the table")


# ----------------------------------------------------------------------------- playouts
def random_playout(
    engine: Engine[Any],
    num_seats: int,
    options: BaseModel,
    seed: str,
    *,
    max_actions: int = 5_000,
) -> Playout:
    """Play a seeded random game to the end, checking each step's shape.

    Every step picks one of the awaited seats at random and a random legal action for it (through
    :class:`RandomAgent`, from the seat's own view), so simultaneous decisions are taken in every order.

    Raises:
        ConformanceError: The game did not end within ``max_actions`` actions, or a step broke the
            contract (see :func:`check_step_contract`).
    """
    setup = engine.setup(num_seats, options, seed)
    state = setup.state
    if state.version != 0 or state.seed != seed or state.num_seats != num_seats:
        raise _fail("setup must return version 0 with the given seed and seat count")
    for event in setup.events:
        _check_event(event, num_seats)
    agent = RandomAgent()
    rng = GameRng(f"conformance:{seed}")
    states: list[BaseState] = [state]
    moves: list[tuple[Seat, Any]] = []
    events: list[tuple[Event, ...]] = []
    while True:
        check_step_contract(engine, state)
        active = sorted(engine.active_seats(state))
        if not active:
            break
        if len(moves) >= max_actions:
            raise _fail(f"{engine.name}: no result after {max_actions} actions (seed {seed!r})")
        seat = rng.choice(active)
        action = agent.choose(engine.view(state, seat), engine.legal_actions(state, seat), rng)
        step = _checked_step(engine, state, seat, action)
        state = step.state
        states.append(state)
        moves.append((seat, action))
        events.append(step.events)
    return Playout(num_seats, options, seed, setup.events, tuple(states), tuple(moves), tuple(events))


def check_step_contract(engine: Engine[Any], state: BaseState) -> None:
    """Check one state: awaited seats versus legal actions, default actions and the outcome.

    Raises:
        ConformanceError: A seat is awaited without legal actions (or the reverse), legal actions
            repeat, a default action is not legal, or the outcome disagrees with the awaited seats.
    """
    active = engine.active_seats(state)
    outcome = engine.outcome(state)
    if (outcome is None) != bool(active):
        raise _fail(f"outcome {outcome!r} disagrees with awaited seats {sorted(active)}")
    if not all(0 <= s < state.num_seats for s in active):
        raise _fail(f"awaited seats {sorted(active)} are not all at the table")
    for seat in range(state.num_seats):
        legal = engine.legal_actions(state, seat)
        if bool(legal) != (seat in active):
            raise _fail(f"seat {seat}: awaited={seat in active} but {len(legal)} legal actions")
        keys = [_action_json(engine, action) for action in legal]
        if len(set(keys)) != len(keys):
            raise _fail(f"seat {seat}: legal actions repeat: {legal!r}")
        if seat in active:
            default = engine.default_action(state, seat)
            if default not in legal:
                raise _fail(f"seat {seat}: default action {default!r} is not legal")
    if outcome is not None:
        _check_outcome(outcome, state.num_seats)


def _check_outcome(outcome: Outcome, num_seats: int) -> None:
    if len(outcome.ranks) != num_seats or min(outcome.ranks) != 0:
        raise _fail(f"outcome ranks {outcome.ranks} must have one rank per seat, the best being 0")
    if outcome.scores is not None and len(outcome.scores) != num_seats:
        raise _fail("outcome scores must have one score per seat")


# ----------------------------------------------------------------------------- checks
def check_setup(engine: Engine[Any], num_seats: int, options: BaseModel, seed: str) -> None:
    """Check that setup is deterministic and that seat counts out of range are refused.

    Raises:
        ConformanceError: Two setups with the same arguments differ, or a bad seat count is accepted.
    """
    first, second = engine.setup(num_seats, options, seed), engine.setup(num_seats, options, seed)
    if first.state != second.state or first.events != second.events:
        raise _fail("setup with the same seed and options is not deterministic")
    for bad in (engine.min_seats - 1, engine.max_seats + 1):
        try:
            engine.setup(bad, engine.options_type(), seed)
        except GameError:
            continue
        raise _fail(f"setup accepted {bad} seats (range {engine.min_seats}..{engine.max_seats})")


def check_every_legal_action_applies(engine: Engine[Any], playout: Playout, report: Report | None = None) -> None:
    """Apply every legal action of every awaited seat in every state of the playout.

    Raises:
        ConformanceError: A legal action is rejected or its step breaks the contract.
    """
    for state in playout.states:
        for seat in sorted(engine.active_seats(state)):
            for action in engine.legal_actions(state, seat):
                step = _checked_step(engine, state, seat, action)
                check_step_contract(engine, step.state)
                if report is not None:
                    report.legal_applied += 1


def check_illegal_actions(
    engine: Engine[Any],
    playout: Playout,
    rng: GameRng,
    *,
    per_seat: int = 6,
    report: Report | None = None,
) -> None:
    """Try actions that are not legal and check they are refused without changing anything.

    The candidates are every action legal somewhere in the playout; for each state and seat a
    sample of those not legal there is tried, plus seats that are not at the table.

    Raises:
        ConformanceError: An illegal action is accepted, raises something other than a
            ``GameError``, or changes the state.
    """
    pool: dict[bytes, Any] = {}
    for state in playout.states:
        for seat in engine.active_seats(state):
            for action in engine.legal_actions(state, seat):
                pool.setdefault(_action_json(engine, action), action)
    candidates = list(pool.values())
    if not candidates:
        return
    n = playout.num_seats
    for state in playout.states:
        before = _json(state)
        for seat in [*range(n), -1, n]:
            legal = {_action_json(engine, a) for a in engine.legal_actions(state, seat)} if 0 <= seat < n else set()
            tries = [rng.choice(candidates) for _ in range(per_seat)]
            for action in tries:
                if _action_json(engine, action) in legal:
                    continue
                _expect_refusal(engine, state, seat, action)
                if report is not None:
                    report.illegal_rejected += 1
        if _json(state) != before:
            raise _fail("a refused action changed the state")
    final = playout.final
    try:
        engine.apply(final, 0, candidates[0])
    except GameOverError:
        return
    except GameError as error:
        raise _fail(f"an action after the end raised {error.code}, not GameOverError") from error
    raise _fail("an action after the end of the game was accepted")


def _expect_refusal(engine: Engine[Any], state: BaseState, seat: Seat, action: object) -> None:
    before = _json(state)
    try:
        engine.apply(state, seat, action)
    except GameError:
        if _json(state) != before:
            raise _fail(f"refusing {action!r} of seat {seat} changed the state") from None
        return
    except Exception as error:
        raise _fail(f"illegal {action!r} of seat {seat} raised {type(error).__name__}, not GameError") from error
    raise _fail(f"illegal {action!r} of seat {seat} was accepted (version {state.version})")


def check_json_round_trip(engine: Engine[Any], playout: Playout) -> None:
    """Check that states, actions, events, views and outcomes survive a JSON round trip.

    Raises:
        ConformanceError: A model reads back different from what was written.
    """

    def same(model: BaseModel, what: str) -> None:
        if type(model).model_validate_json(model.model_dump_json()) != model:
            raise _fail(f"{what} {model!r} does not round-trip through JSON")

    for state in playout.states:
        if engine.state_type.model_validate_json(_json(state)) != state:
            raise _fail(f"state version {state.version} does not round-trip through JSON")
        for seat in _audiences(playout.num_seats):
            same(engine.view(state, seat), "view")
    for _, action in playout.moves:
        if engine.action_adapter.validate_json(_action_json(engine, action)) != action:
            raise _fail(f"action {action!r} does not round-trip through JSON")
    for event in [*playout.setup_events, *(e for step in playout.events for e in step)]:
        same(event, "event")
    outcome = engine.outcome(playout.final)
    if outcome is not None:
        same(outcome, "outcome")


def check_replay(engine: Engine[Any], playout: Playout) -> None:
    """Replay the playout's actions, read back from JSON, from a fresh setup.

    Raises:
        ConformanceError: Any state or event differs from the recorded game.
    """
    setup = engine.setup(playout.num_seats, playout.options, playout.seed)
    if setup.state != playout.states[0] or setup.events != playout.setup_events:
        raise _fail("setup is not deterministic")
    state = setup.state
    for index, (seat, action) in enumerate(playout.moves):
        step = engine.apply(state, seat, engine.action_adapter.validate_json(_action_json(engine, action)))
        if step.state != playout.states[index + 1] or step.events != playout.events[index]:
            raise _fail(f"replay diverged at action {index} ({action!r} by seat {seat})")
        state = step.state


def _resampler(engine: Engine[Any]) -> HiddenInfo[Any]:
    if not isinstance(engine, HiddenInfo):
        raise _fail(
            f"{engine.name}: no resample_hidden hook; every engine provides one (a game without hidden"
            " information returns the state unchanged)"
        )
    return engine


def check_views_leak_nothing(
    engine: Engine[Any],
    playout: Playout,
    rng: GameRng,
    *,
    resamples: int = 2,
    report: Report | None = None,
) -> None:
    """Check every view against states that differ only in what its viewer cannot see.

    Raises:
        ConformanceError: A view changes when data hidden from its viewer is redrawn, or the hook
            changes public data.
    """
    hook = _resampler(engine)
    for state in playout.states:
        public = engine.view(state, None)
        for seat in _audiences(playout.num_seats):
            view = engine.view(state, seat) if seat is not None else public
            for _ in range(resamples):
                other = hook.resample_hidden(state, seat, rng)
                _check_resample(engine, state, other)
                if engine.view(other, seat) != view:
                    raise _fail(
                        f"the view of {_who(seat)} depends on data hidden from it (version {state.version}):"
                        f"\n{view!r}\n!=\n{engine.view(other, seat)!r}"
                    )
                if seat is not None and engine.view(other, None) != public:
                    raise _fail(
                        f"resample_hidden for seat {seat} changed the public view (version {state.version}):"
                        " either the hook redraws public data or the public view leaks"
                    )
                if report is not None:
                    report.views_compared += 1
                    report.resamples_changed += other != state


def _who(seat: Seat | None) -> str:
    return "the public" if seat is None else f"seat {seat}"


def _check_resample(engine: Engine[Any], state: BaseState, other: object) -> None:
    if not isinstance(other, engine.state_type):
        raise _fail("resample_hidden must return a state of the engine's state type")
    if other.version != state.version or other.seed != state.seed or other.num_seats != state.num_seats:
        raise _fail("resample_hidden must keep the version, seed and seat count")
    if engine.state_type.model_validate_json(_json(other)) != other:
        raise _fail("resample_hidden returned an invalid state")


def check_events_leak_nothing(
    engine: Engine[Any],
    playout: Playout,
    rng: GameRng,
    *,
    resamples: int = 4,
    report: Report | None = None,
) -> None:
    """Check that no event tells an audience more than its views do.

    For each step and audience, the step is replayed on a resample of what the audience cannot
    see (up to ``resamples`` draws, until one where the action is legal). When the audience's view
    after the step is unchanged, so must be the events it may see.

    Raises:
        ConformanceError: The events visible to an audience differ while its views do not.
    """
    hook = _resampler(engine)
    for index, (seat, action) in enumerate(playout.moves):
        state, after, events = playout.states[index], playout.states[index + 1], playout.events[index]
        for audience in _audiences(playout.num_seats):
            for _ in range(resamples):
                other = hook.resample_hidden(state, audience, rng)
                if seat in engine.active_seats(other) and action in engine.legal_actions(other, seat):
                    break
            else:
                continue
            step = _checked_step(engine, other, seat, action)
            if engine.view(step.state, audience) != engine.view(after, audience):
                continue
            if _visible(step.events, audience) != _visible(events, audience):
                raise _fail(
                    f"events visible to {_who(audience)} depend on data hidden from it (action {index}: {action!r}):"
                    f"\n{_visible(events, audience)!r}\n!=\n{_visible(step.events, audience)!r}"
                )
            if report is not None:
                report.event_steps_compared += 1


def check_resign(
    engine: Engine[Any],
    playout: Playout,
    rng: GameRng,
    *,
    samples: int = 4,
    max_actions: int = 5_000,
    report: Report | None = None,
) -> None:
    """Resign a seat at random moments and play on at random.

    The resigning seat is one that still acts later in the recorded game. It must never be awaited
    again, and every seat that acts after the resignation must rank above it.

    Raises:
        ConformanceError: The resignation breaks the step contract, the seat acts again, the game
            does not end, or the ranks put the seat above a seat that kept playing.
    """
    if len(playout.moves) == 0:
        return
    agent = RandomAgent()
    for _ in range(samples):
        index = rng.below(len(playout.moves))
        later = sorted({seat for seat, _ in playout.moves[index:]})
        seat = rng.choice(later)
        state = playout.states[index]
        step = engine.resign(state, seat)
        if step.state.version != state.version + 1:
            raise _fail("resign must bump the version by exactly one")
        state = step.state
        players: set[Seat] = set()
        for _ in range(max_actions):
            check_step_contract(engine, state)
            active = sorted(engine.active_seats(state))
            if not active:
                break
            if seat in active:
                raise _fail(f"seat {seat} is awaited after resigning")
            mover = rng.choice(active)
            players.add(mover)
            action = agent.choose(engine.view(state, mover), engine.legal_actions(state, mover), rng)
            state = _checked_step(engine, state, mover, action).state
        outcome = engine.outcome(state)
        if outcome is None:
            raise _fail(f"no result {max_actions} actions after a resignation")
        worse = [p for p in players if outcome.ranks[p] >= outcome.ranks[seat]]
        if worse:
            raise _fail(f"resigned seat {seat} ranks {outcome.ranks[seat]}, not below seats {worse} that played on")
        try:
            engine.resign(state, seat)
        except GameOverError:
            pass
        else:
            raise _fail("resign after the end of the game was accepted")
        if report is not None:
            report.resigns += 1


#: Every check that takes (engine, playout, rng), in the order :func:`run_all` runs them.
PLAYOUT_CHECKS: dict[str, Callable[[Engine[Any], Playout, GameRng, Report], None]] = {
    "every_legal_action_applies": lambda e, p, _rng, r: check_every_legal_action_applies(e, p, r),
    "illegal_actions": lambda e, p, rng, r: check_illegal_actions(e, p, rng, report=r),
    "json_round_trip": lambda e, p, _rng, _r: check_json_round_trip(e, p),
    "replay": lambda e, p, _rng, _r: check_replay(e, p),
    "views_leak_nothing": lambda e, p, rng, r: check_views_leak_nothing(e, p, rng, report=r),
    "events_leak_nothing": lambda e, p, rng, r: check_events_leak_nothing(e, p, rng, report=r),
    "resign": lambda e, p, rng, r: check_resign(e, p, rng, report=r),
    "reactions": lambda e, p, rng, r: check_reactions(e, p, report=r),
}


def check_reactions(engine: Engine[Any], playout: Playout, report: Report | None = None) -> None:
    """Check the seats marked as only reacting in every state of the playout.

    They must be awaited; each one's default action must be legal and the same for all of them (a
    pass names no target and no card); and while others still react, passing must leave the passer
    no longer awaited and every other reacting seat still awaited (a pass answers the window for
    the passer only: it neither starts another decision nor closes the window as a challenge would).

    Raises:
        ConformanceError: A reacting seat is not awaited, or its default is not such a pass.
    """
    for state in playout.states:
        reacting = reaction_seats(engine, state)
        if not reacting:
            continue
        active = engine.active_seats(state)
        if not reacting <= active:
            raise _fail(f"reacting seats {sorted(reacting)} are not all awaited ({sorted(active)})")
        defaults = {seat: engine.default_action(state, seat) for seat in sorted(reacting)}
        if len({_action_json(engine, action) for action in defaults.values()}) != 1:
            raise _fail(f"reacting seats default to different actions: {defaults!r}")
        for seat, action in defaults.items():
            if action not in engine.legal_actions(state, seat):
                raise _fail(f"seat {seat}: the pass {action!r} is not legal")
            step = _checked_step(engine, state, seat, action)
            after = engine.active_seats(step.state)
            if len(reacting) > 1 and (seat in after or not reacting - {seat} <= after):
                raise _fail(f"seat {seat}: passing with {action!r} did not just end its part in the window")
            if report is not None:
                report.reactions += 1


def run_all(
    engine: Engine[Any],
    num_seats: int,
    options: BaseModel,
    seed: str,
    *,
    max_actions: int = 5_000,
) -> Report:
    """Run every conformance check on one seeded random playout and return what was covered.

    Raises:
        ConformanceError: The engine broke the contract.
    """
    report = Report()
    check_setup(engine, num_seats, options, seed)
    playout = random_playout(engine, num_seats, options, seed, max_actions=max_actions)
    report.actions = len(playout.moves)
    for name, check in PLAYOUT_CHECKS.items():
        check(engine, playout, GameRng(f"conformance:{name}:{seed}"), report)
    return report
