"""Property: no public view, no other seat's view and no public event ever reveals a face-down card."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.models import Event
from games.core.rng import GameRng
from games.coup.engine import CoupEngine
from games.coup.models import (
    CardDrafted,
    CardDrawn,
    CardsDealt,
    CoupOptions,
    CoupView,
    ExchangeCompleted,
    ExchangeDrawn,
    Phase,
)
from games.coup.state import CoupState

E = CoupEngine()
#: Events that carry a seat's face-down cards: only that seat may see them.
PRIVATE = (CardsDealt, CardDrawn, ExchangeDrawn)


def check_view(state: CoupState, view: CoupView, viewer: int | None) -> None:
    for player in view.players:
        if player.seat == viewer:
            assert player.hand == state.hands[player.seat]
        else:
            assert player.hand is None
        assert player.hidden_count == len(state.hands[player.seat])
    if viewer is not None and state.phase is Phase.EXCHANGE and viewer == state.turn:
        assert view.choices == state.hands[viewer] + state.drawn
    elif viewer is None or state.phase is not Phase.DRAFT or state.hands[viewer]:
        assert view.choices is None


def check_event(event: Event) -> None:
    if isinstance(event, PRIVATE):
        assert event.visible_to == frozenset({event.seat})
    if isinstance(event, ExchangeCompleted | CardDrafted):
        if event.visible_to is None:
            assert getattr(event, "kept", None) is None
            assert getattr(event, "returned", None) is None
            assert getattr(event, "card", None) is None
        else:
            assert event.visible_to == frozenset({event.seat})
    assert event.visible_to is None or len(event.visible_to) == 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(min_value=2, max_value=6),
    draft=st.booleans(),
    seed=st.text(min_size=1, max_size=12),
    agent=st.integers(min_value=0, max_value=2**32),
)
def test_nothing_hidden_ever_shows(seats: int, draft: bool, seed: str, agent: int) -> None:
    step = E.setup(seats, CoupOptions(draft=draft and seats == 2), seed)
    state = step.state
    events = list(step.events)
    rng = GameRng(f"agent:{agent}")
    for _ in range(2_000):
        for event in events:
            check_event(event)
        for viewer in [None, *range(seats)]:
            view = E.view(state, viewer)
            check_view(state, view, viewer)
            # Redrawing every card hidden from the viewer must not change what it sees.
            assert E.view(E.resample_hidden(state, viewer, rng), viewer) == view
        active = sorted(E.active_seats(state))
        if not active:
            break
        seat = rng.choice(active)
        step = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
        state, events = step.state, list(step.events)
    assert E.outcome(state) is not None
