"""Every registered engine passes the conformance suite, for every seat count and option variant."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from pydantic import BaseModel

from games.core.conformance import (
    PLAYOUT_CHECKS,
    ConformanceError,
    Playout,
    Report,
    check_setup,
    random_playout,
)
from games.core.models import Step
from games.core.protocol import Engine
from games.core.rng import GameRng
from games.coup.engine import CoupEngine
from games.coup.models import Challenge, CoupView, Phase, TakeIncome
from games.coup.state import CoupState
from games.registry import ENGINES

#: Cadwallon's extra option variants by seat count (grid sizes, conditions, expansion actions).
CADWALLON_VARIANTS: dict[int, list[dict[str, Any]]] = {
    2: [{"grid": 3, "conditions": True, "condition": "C09", "starting_action": True}],
    3: [{"grid": 5, "conditions": True, "starting_action": True}],
    4: [{"grid": 3, "expansion_actions_3x3": True, "starting_action": True}],
    5: [{"grid": 4, "conditions": True, "condition": "C08", "contracts": False, "starting_action": True}],
    8: [{"grid": 5, "conditions": True, "starting_action": True}],
}

#: Option variants worth a playout of their own, per engine and seat count (default options always run).
OPTION_VARIANTS: dict[str, Callable[[int], list[dict[str, Any]]]] = {
    "coup": lambda seats: [{"draft": True}] if seats == 2 else [],
    "masti": lambda seats: [{"teams": True}] if seats == 4 else [],
    "cadwallon": lambda seats: CADWALLON_VARIANTS.get(seats, []),
    "intrigue": lambda seats: [{"lands": "random"}] if seats in (4, 7) else [],
}
OptionItems = tuple[tuple[str, Any], ...]
SEEDS = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")
#: Long games check fewer seeds per case: an 8-player Интриги playout is ~700 actions, and the leak
#: checks view every state for every seat under resampling (the long sweeps of tests/bot/resilience
#: play many more games).
SEED_COUNT: dict[str, int] = {"cadwallon": 3, "intrigue": 2}


def _no_variants(seats: int) -> list[dict[str, Any]]:
    return []


def _cases() -> list[Any]:
    cases = []
    for name, engine in sorted(ENGINES.items()):
        for seats in range(engine.min_seats, engine.max_seats + 1):
            variants: list[dict[str, Any]] = [{}, *OPTION_VARIANTS.get(name, _no_variants)(seats)]
            for options in variants:
                for seed in SEEDS[: SEED_COUNT.get(name, len(SEEDS))]:
                    label = "-".join([name, f"{seats}p", *(f"{k}={v}" for k, v in options.items()), seed])
                    cases.append(pytest.param(name, seats, tuple(sorted(options.items())), seed, id=label))
    return cases


CASES = _cases()


def _options(engine: Engine[Any], options: OptionItems) -> BaseModel:
    return engine.options_type.model_validate(dict(options))


@cache
def _playout(name: str, seats: int, options: OptionItems, seed: str) -> Playout:
    engine = ENGINES[name]
    return random_playout(engine, seats, _options(engine, options), seed)


@pytest.mark.parametrize(("name", "seats", "options", "seed"), CASES)
def test_setup(name: str, seats: int, options: OptionItems, seed: str) -> None:
    engine = ENGINES[name]
    check_setup(engine, seats, _options(engine, options), seed)


@pytest.mark.parametrize(("name", "seats", "options", "seed"), CASES)
def test_random_playout_terminates(name: str, seats: int, options: OptionItems, seed: str) -> None:
    playout = _playout(name, seats, options, seed)
    engine = ENGINES[name]
    assert engine.outcome(playout.final) is not None
    assert not engine.active_seats(playout.final)


@pytest.mark.parametrize("check", list(PLAYOUT_CHECKS))
@pytest.mark.parametrize(("name", "seats", "options", "seed"), CASES)
def test_playout_check(name: str, seats: int, options: OptionItems, seed: str, check: str) -> None:
    report = Report()
    PLAYOUT_CHECKS[check](ENGINES[name], _playout(name, seats, options, seed), GameRng(f"{check}:{seed}"), report)
    if check == "views_leak_nothing":
        # The hook must really redraw hidden data, or the leak checks prove nothing.
        assert report.resamples_changed > 0
    if check == "events_leak_nothing":
        assert report.event_steps_compared > 0


def test_registry_has_engines() -> None:
    assert ENGINES
    for name, engine in ENGINES.items():
        assert engine.name == name
        assert 1 <= engine.min_seats <= engine.max_seats


# ----------------------------------------------------------------------------- the suite catches broken engines
class _LeakyViewEngine(CoupEngine):
    """Shows every seat's hand to everyone."""

    def view(self, state: CoupState, seat: int | None) -> CoupView:
        view = super().view(state, seat)
        players = tuple(p.model_copy(update={"hand": state.hands[p.seat]}) for p in view.players)
        return view.model_copy(update={"players": players})


class _LeakyEventEngine(CoupEngine):
    """Publishes private events."""

    def apply(self, state: CoupState, seat: int, action: Any) -> Step[CoupState]:
        step = super().apply(state, seat, action)
        return Step(step.state, tuple(e.model_copy(update={"visible_to": None}) for e in step.events))


class _IgnoresTurnEngine(CoupEngine):
    """Lets any seat act for the awaited one."""

    def apply(self, state: CoupState, seat: int, action: Any) -> Step[CoupState]:
        active = sorted(self.active_seats(state))
        return super().apply(state, active[0] if active and seat not in active else seat, action)


class _OverListsEngine(CoupEngine):
    """Lists an action it then refuses."""

    def legal_actions(self, state: CoupState, seat: int) -> list[Any]:
        legal = super().legal_actions(state, seat)
        return [*legal, TakeIncome()] if legal and TakeIncome() not in legal else legal


class _SkipsVersionsEngine(CoupEngine):
    """Bumps the version by two."""

    def apply(self, state: CoupState, seat: int, action: Any) -> Step[CoupState]:
        step = super().apply(state, seat, action)
        return Step(step.state.model_copy(update={"version": step.state.version + 1}), step.events)


@pytest.mark.parametrize(
    ("engine", "check"),
    [
        (_LeakyViewEngine(), "views_leak_nothing"),
        (_LeakyEventEngine(), "events_leak_nothing"),
        (_IgnoresTurnEngine(), "illegal_actions"),
        (_OverListsEngine(), "every_legal_action_applies"),
    ],
    ids=["leaky-view", "leaky-events", "ignores-turn", "over-lists"],
)
def test_suite_catches_broken_engine(engine: CoupEngine, check: str) -> None:
    failures = 0
    for seed in SEEDS:
        try:
            playout = random_playout(engine, 3, engine.options_type(), seed)
            PLAYOUT_CHECKS[check](engine, playout, GameRng(seed), Report())
        except ConformanceError:
            failures += 1
    assert failures > 0


def test_suite_catches_version_skips() -> None:
    engine = _SkipsVersionsEngine()
    with pytest.raises(ConformanceError, match="exactly one"):
        random_playout(engine, 3, engine.options_type(), "alpha")


# ----------------------------------------------------------------------------- reaction windows
def test_coup_and_intrigue_mark_their_windows_as_reactions() -> None:
    """Coup's challenge/block windows and Интриги's free-action windows are marked, and their pass checked."""
    for name, seats in (("coup", 3), ("intrigue", 4)):
        report = Report()
        PLAYOUT_CHECKS["reactions"](ENGINES[name], _playout(name, seats, (), "alpha"), GameRng("r"), report)
        assert report.reactions > 0, name


def test_masti_and_cadwallon_have_no_reactions() -> None:
    """Every decision of Масти Власти and Кадвалон is the decider's own (a trick's card, a placement)."""
    assert not hasattr(ENGINES["masti"], "reaction_seats")
    assert not hasattr(ENGINES["cadwallon"], "reaction_seats")


class _ChallengesByDefaultEngine(CoupEngine):
    """Times a reaction window out as a challenge: not a pass, it closes the window for everyone."""

    def default_action(self, state: CoupState, seat: int) -> Any:
        legal = self.legal_actions(state, seat)
        challenge = next((a for a in legal if isinstance(a, Challenge)), None)
        if seat in self.reaction_seats(state) and challenge is not None:
            return challenge
        return super().default_action(state, seat)


class _ReactsOutOfTurnEngine(CoupEngine):
    """Marks seats the game does not wait for as reacting."""

    def reaction_seats(self, state: CoupState) -> frozenset[int]:
        return frozenset(range(state.num_seats)) if state.phase is not Phase.OVER else frozenset()


@pytest.mark.parametrize("engine", [_ChallengesByDefaultEngine(), _ReactsOutOfTurnEngine()], ids=["challenge", "away"])
def test_suite_catches_broken_reactions(engine: CoupEngine) -> None:
    failures = 0
    for seed in SEEDS:
        try:
            playout = random_playout(engine, 4, engine.options_type(), seed)
            PLAYOUT_CHECKS["reactions"](engine, playout, GameRng(seed), Report())
        except ConformanceError:
            failures += 1
    assert failures > 0
