"""Stacked deals and scripted play for the «Масти Власти» scenario tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.core.models import Event, Seat
from games.masti.deck import ALL_CARDS
from games.masti.engine import TABLE, MastiEngine
from games.masti.models import MastiOptions, PayBribe, Phase, PlayCard
from games.masti.state import MastiState

ENGINE = MastiEngine()
Policy = Callable[[MastiState, Seat], Any]


def hand_sizes(n: int, first: int) -> list[int]:
    """Return the dealt hand sizes (6 players: before seeding)."""
    if n == 6:
        return [8 if (s - first) % 6 < 3 else 9 for s in range(6)]
    return [TABLE[n].hand] * n


def stacked_options(
    n: int,
    hands: Mapping[int, Sequence[str]] | None = None,
    trump: Sequence[str] = (),
    *,
    first: int = 0,
    teams: bool = False,
    void: Mapping[int, str] | None = None,
) -> MastiOptions:
    """Build a stacked deal: the given hand cards and trump-deck top, the rest filled in card order.

    ``void[seat]`` lists persona codes the filler never gives that seat; the trump deck gets what is
    left after the hands.
    """
    hands = hands or {}
    void = void or {}
    used = {c for cards in hands.values() for c in cards} | set(trump)
    left = [c for c in ALL_CARDS if c not in used]
    sizes = hand_sizes(n, first)
    full: list[tuple[str, ...]] = []
    for seat in range(n):
        hand = list(hands.get(seat, ()))
        for card in list(left):
            if len(hand) >= sizes[seat]:
                break
            if card[0] in void.get(seat, ""):
                continue
            hand.append(card)
            left.remove(card)
        assert len(hand) == sizes[seat], f"cannot fill seat {seat}"
        full.append(tuple(hand))
    deck = (*trump, *left)
    assert len(deck) == TABLE[n].trump_deck
    return MastiOptions(first_seat=first, teams=teams, hands=tuple(full), trump_deck=deck)


def stacked(n: int, *args: Any, **kwargs: Any) -> MastiState:
    """Return the initial state of a stacked deal (see :func:`stacked_options`)."""
    return ENGINE.setup(n, stacked_options(n, *args, **kwargs), "test").state


def play(state: MastiState, *cards: str | None) -> tuple[MastiState, list[Event]]:
    """Let the awaited seats play ``cards`` in turn (``None``: bribe); return the state and events."""
    events: list[Event] = []
    for card in cards:
        (seat,) = ENGINE.active_seats(state)
        action = PlayCard(card=card) if card is not None else PayBribe()
        step = ENGINE.apply(state, seat, action)
        state = step.state
        events.extend(step.events)
    return state, events


def run(state: MastiState, policy: Policy | None = None, *, limit: int = 1_000) -> tuple[MastiState, list[Event]]:
    """Play to the end: ``policy(state, seat)`` picks an action, or ``None`` for the clock's default."""
    events: list[Event] = []
    for _ in range(limit):
        active = sorted(ENGINE.active_seats(state))
        if not active:
            return state, events
        seat = active[0]
        action = policy(state, seat) if policy is not None else None
        if action is None:
            action = ENGINE.default_action(state, seat)
        step = ENGINE.apply(state, seat, action)
        state = step.state
        events.extend(step.events)
    raise AssertionError("the game did not end")


def all_cards(state: MastiState) -> list[str]:
    """Return every card the state holds anywhere (must be the 52 cards once each)."""
    cards = [c for hand in state.hands for c in hand]
    cards += list(state.trump_deck) + list(state.left)
    cards += [c for won in state.won for c in won]
    cards += [p.card for p in state.plays if p.card is not None]
    if state.trump is not None:
        cards.append(state.trump)
    if state.phase is Phase.SEEDING:
        cards += [c for c in state.seeded if c is not None]
    return cards


def of_kind(events: Sequence[Event], kind: str) -> list[Any]:
    """Return the events of ``kind``."""
    return [e for e in events if e.kind == kind]
