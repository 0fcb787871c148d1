"""Scenario helpers for «Интриги»: stacked boards, jumps to a phase, scripted decisions."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from games.core.models import Event, Outcome
from games.intrigue.engine import IntrigueEngine, drive
from games.intrigue.game import Game
from games.intrigue.models import Done, IntrigueOptions, MercType, Mode, Phase, ResultView
from games.intrigue.state import FaceDown, HandCard, IntrigueState, TurnFrame

ENGINE = IntrigueEngine()
R, B, G, Y = 0, 1, 2, 3
#: Filler characters, quietest first (no income, penalty or vote traits before the others).
FILLERS = (4, 8, 17, 1, 7, 16, 12, 3, 13, 15, 2, 14, 5, 11, 6, 18, 9, 10)
PHASE_INDEX = {Phase.SPIES: 0, Phase.LANDS_ONE: 1, Phase.INVESTMENTS: 2, Phase.CHARACTERS: 3, Phase.LANDS_TWO: 4}


def new(
    n: int = 4,
    *,
    heads: Mapping[int, int] | None = None,
    council: Iterable[int | None] | None = None,
    lands: Iterable[int] | None = None,
    max_turns: int = 10,
    fill: bool = True,
) -> IntrigueState:
    """Set up a table whose heads/council are fixed, skip placement, zero tokens."""
    land_ids = tuple(sorted(lands)) if lands is not None else None
    state = ENGINE.setup(n, IntrigueOptions(land_ids=land_ids, max_turns=max_turns), "scenario").state
    head_list: list[int | None] = [None] * len(state.lands)
    used: set[int] = set()
    for land, char in (heads or {}).items():
        head_list[state.lands.index(land)] = char
        used.add(char)
    council_list: list[int | None] = list(council) if council is not None else [None, None, None, None]
    used.update(c for c in council_list if c is not None)
    if fill:
        # Seats the scenario leaves open get quiet fillers, so no vacancy is filled mid-test.
        fillers = iter(c for c in FILLERS if c not in used)
        head_list = [c if c is not None else next(fillers) for c in head_list]
        council_list = [c if c is not None else next(fillers) for c in council_list]
    return state.model_copy(
        update={
            "heads": tuple(head_list),
            "council": tuple(council_list),
            "stack": (),
            "turn": 1,
        }
    )


def with_tokens(
    state: IntrigueState,
    chars: Mapping[int, Mapping[int, int]] | None = None,
    lands: Mapping[int, Mapping[int, int]] | None = None,
) -> IntrigueState:
    """Set tokens: ``chars[c][seat]`` on characters, ``lands[land][seat]`` on lands."""
    ct = [list(r) for r in state.char_tokens]
    lt = [list(r) for r in state.land_tokens]
    for c, row in (chars or {}).items():
        for s, v in row.items():
            ct[c - 1][s] = v
    for land, row in (lands or {}).items():
        for s, v in row.items():
            lt[state.lands.index(land)][s] = v
    return state.model_copy(update={"char_tokens": tuple(map(tuple, ct)), "land_tokens": tuple(map(tuple, lt))})


def with_population(state: IntrigueState, lands: Mapping[int, tuple[int | None, int | None]]) -> IntrigueState:
    """Set ``lands[land] = (peaceful, military)``; ``None`` keeps that count."""
    peaceful, military = list(state.peaceful), list(state.military)
    for land, (p, m) in lands.items():
        at = state.lands.index(land)
        peaceful[at] = peaceful[at] if p is None else p
        military[at] = military[at] if m is None else m
    return state.model_copy(update={"peaceful": tuple(peaceful), "military": tuple(military)})


def with_coins(state: IntrigueState, coins: Mapping[int, int]) -> IntrigueState:
    c = list(state.coins)
    for s, v in coins.items():
        c[s] = v
    return state.model_copy(update={"coins": tuple(c)})


def with_card(
    state: IntrigueState,
    card: str,
    owner: int,
    merc: MercType,
    character: int,
    *,
    mode: Mode | None = None,
    turn: int = 0,
) -> IntrigueState:
    """Put a face-down card on the board (placed in turn ``turn``; default: earlier than any)."""
    fd = FaceDown(id=card, owner=owner, merc=merc, mode=mode, character=character, turn_placed=turn)
    return state.model_copy(update={"cards": (*state.cards, fd)})


def with_hand(state: IntrigueState, seat: int, card: str, merc: MercType, expires: int | None = None) -> IntrigueState:
    hands = [list(h) for h in state.hands]
    hands[seat].append(HandCard(id=card, merc=merc, expires_turn=state.turn if expires is None else expires))
    return state.model_copy(update={"hands": tuple(tuple(h) for h in hands)})


def begin(state: IntrigueState, phase: Phase, turn: int | None = None, **updates: Any) -> IntrigueState:
    """Jump to the start of ``phase`` of ``turn`` and run until the first decision."""
    g = Game(state.model_copy(update={"turn": turn or state.turn, **updates}))
    g.stack = [TurnFrame(stage=2 * PHASE_INDEX[phase])]
    drive(g)
    return g.commit()


def run_with(g: Game) -> IntrigueState:
    drive(g)
    return g.commit()


def play(state: IntrigueState, seat: int, *actions: Any) -> IntrigueState:
    for action in actions:
        state = ENGINE.apply(state, seat, action).state
    return state


def top(state: IntrigueState) -> Any:
    return state.stack[-1] if state.stack else None


def top_kind(state: IntrigueState) -> str | None:
    frame = top(state)
    return None if frame is None else frame.kind


def skip_windows(state: IntrigueState) -> IntrigueState:
    """Answer Done for every seat while a window is open."""
    while top_kind(state) == "window":
        seat = min(ENGINE.active_seats(state))
        state = play(state, seat, Done())
    return state


def until(state: IntrigueState, pred: Callable[[IntrigueState], bool], limit: int = 500) -> IntrigueState:
    """Apply default actions (lowest awaited seat first) until ``pred`` holds."""
    for _ in range(limit):
        if pred(state):
            return state
        active = sorted(ENGINE.active_seats(state))
        assert active, "the game ended before the condition held"
        state = play(state, active[0], ENGINE.default_action(state, active[0]))
    raise AssertionError("condition never held")


def events_of(step_events: Iterable[Event], kind: type[Event]) -> list[Any]:
    return [e for e in step_events if isinstance(e, kind) and e.visible_to is None]


def result_of(state: IntrigueState) -> ResultView:
    """Return the final result (the game must be over)."""
    assert state.result is not None
    return state.result


def outcome_of(state: IntrigueState) -> Outcome:
    """Return the engine's outcome (the game must be over)."""
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    return outcome
