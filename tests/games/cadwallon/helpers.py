"""Hand-built positions and scripted play for the «Гильдии Кадвалона» scenario tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.cadwallon.board import board
from games.cadwallon.cards import expansion_district_cards
from games.cadwallon.engine import CadwallonEngine
from games.cadwallon.models import Phase, TurnStep
from games.cadwallon.state import Agent, CadwallonState, Mark
from games.core.models import Event

ENGINE = CadwallonEngine()

#: A 3×3 grid of filler cards none of the tests care about (base cards, no personalities).
FILLER = ("ZOD-1", "ZOD-2", "ZOD-3", "ZOD-4", "JEW-1", "JEW-2", "JEW-3", "JEW-4", "M05")


def grid_of(cards: Mapping[str, str], n: int = 3, filler: Sequence[str] = ()) -> list[str | None]:
    """Return a grid (slot-index order) with ``cards`` at the named slots, the rest from ``filler``."""
    geo = board(n)
    slots: list[str | None] = [None] * (n * n)
    for name, card in cards.items():
        slots[geo.slot_index[name]] = card
    pool = [c for c in (filler or _default_filler(n)) if c not in cards.values()]
    for i, slot in enumerate(slots):
        if slot is None:
            slots[i] = pool.pop(0)
    return slots


def _default_filler(n: int) -> list[str]:
    if n == 3:
        return [*FILLER, "USU-2", "USU-3", "BLA-1", "BLA-2", "M03", "M04"]
    return [c for c in expansion_district_cards() if not c.startswith("P")]


def build(
    slots: Sequence[str | None],
    *,
    n: int = 2,
    deck: Sequence[str] = (),
    reserve: Sequence[str] = (),
    hands: Mapping[int, Sequence[str]] | None = None,
    captured: Mapping[int, Sequence[str]] | None = None,
    played: Mapping[int, Sequence[str]] | None = None,
    agents: Sequence[tuple[int, str]] = (),
    supply: Sequence[int] | None = None,
    per: int = 6,
    turn: int = 0,
    first: int = 0,
    step: TurnStep = TurnStep.PLACE,
    condition: str | None = None,
    contracts: Sequence[str | None] | None = None,
    round: int = 2,
    stalled: int = 0,
    marks: Sequence[tuple[str, int, str]] = (),
    protected: Sequence[int] = (),
) -> CadwallonState:
    """Build a Deploy position directly: the grid, the agents on the board, hands and piles.

    ``agents`` are ``(owner, boulevard name)`` with ids 0, 1, …; ``supply`` defaults to ``per``
    minus each seat's placed agents. ``marks`` are ``(action card, seat, marked card)``.
    """
    size = int(len(slots) ** 0.5)
    geo = board(size)
    placed = [Agent(id=i, owner=o, boulevard=geo.boulevard_index[b]) for i, (o, b) in enumerate(agents)]
    if supply is None:
        supply = [per - sum(1 for a in placed if a.owner == s) for s in range(n)]
    hands = hands or {}
    captured = captured or {}
    played = played or {}
    return CadwallonState(
        seed="test",
        num_seats=n,
        grid=size,
        expansion=size != 3,
        conditions=condition is not None,
        condition=condition,
        contracts_on=contracts is not None,
        stacked=True,
        phase=Phase.DEPLOY,
        round=round,
        first_seat=first,
        turn=turn,
        step=step,
        slots=tuple(slots),
        deck=tuple(deck),
        reserve=tuple(reserve),
        hands=tuple(tuple(hands.get(s, ())) for s in range(n)),
        contracts=tuple(contracts) if contracts is not None else (None,) * n,
        agents_per_player=per,
        supply=tuple(supply),
        agents=tuple(placed),
        next_agent=len(placed),
        captured=tuple(tuple(captured.get(s, ())) for s in range(n)),
        played=tuple(tuple(played.get(s, ())) for s in range(n)),
        stalled_rounds=stalled,
        marks=tuple(Mark(card=c, seat=s, target=t) for c, s, t in marks),
        protected=tuple(protected),
    )


def act(state: CadwallonState, *actions: Any) -> tuple[CadwallonState, list[Event]]:
    """Apply ``actions`` in turn, each by the seat the game waits for; return the state and events."""
    events: list[Event] = []
    for action in actions:
        assert state.turn is not None, "the game waits for nobody"
        step = ENGINE.apply(state, state.turn, action)
        state = step.state
        events.extend(step.events)
    return state, events


def run(state: CadwallonState, *, limit: int = 5_000) -> tuple[CadwallonState, list[Event]]:
    """Play to the end with the clock's default actions."""
    events: list[Event] = []
    for _ in range(limit):
        if state.turn is None or state.phase is Phase.FINISHED:
            return state, events
        step = ENGINE.apply(state, state.turn, ENGINE.default_action(state, state.turn))
        state = step.state
        events.extend(step.events)
    raise AssertionError("the game did not end")


def of_kind(events: Sequence[Event], kind: str) -> list[Any]:
    """Return the events of ``kind``."""
    return [e for e in events if e.kind == kind]


def public(events: Sequence[Event]) -> list[Any]:
    """Return the events a spectator may see."""
    return [e for e in events if e.visible_to is None]


def captures(events: Sequence[Event]) -> dict[str, Any]:
    """Return the public capture result of each slot (``card_captured`` / ``card_stayed``) by slot name."""
    return {e.slot: e for e in public(events) if e.kind in ("card_captured", "card_stayed")}


def support_of(events: Sequence[Event], slot: str) -> dict[int, int]:
    """Return the supports recorded at Capture for the card at ``slot``, by seat."""
    return {entry.seat: entry.support for entry in captures(events)[slot].supports}
