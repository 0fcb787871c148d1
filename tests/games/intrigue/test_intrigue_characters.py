"""Investments and the Characters phase: order, Representative, slots, contests, lending (§6, §7)."""

from __future__ import annotations

import pytest

from games.core.errors import GameError
from games.core.models import Event, Step
from games.intrigue.models import (
    Back,
    CharAction,
    Choose,
    ContestHead,
    ContestResolved,
    Done,
    HandExpired,
    MercType,
    Mode,
    Option,
    Pass,
    Phase,
    PickAction,
    PickAmount,
    PickCard,
    PickCharacter,
    PickLand,
    PickMode,
    PickSeat,
    PickType,
    Skip,
)
from games.intrigue.state import IntrigueState
from tests.games.intrigue.helpers import (
    ENGINE,
    B,
    G,
    R,
    Y,
    begin,
    new,
    play,
    top,
    top_kind,
    until,
    with_coins,
    with_hand,
    with_tokens,
)

ZB, DS, BR, CH, ZAL, BRO, TD = 1, 2, 3, 4, 6, 11, 12


def seed_action_board(n: int = 3) -> IntrigueState:
    """The seed's action-order example (§15 #4)."""
    state = new(n, heads={BR: 2, BRO: 3, ZB: 4}, council=[1, None, 5, None])
    return with_tokens(
        state,
        chars={5: {G: 2, R: 1}, 1: {B: 3}, 2: {B: 2, R: 2, G: 1}, 3: {G: 4, R: 1}, 4: {G: 2, B: 1}},
        lands={BR: {B: 1, R: 1}},
    )


def to_slots(state: IntrigueState, turn: int = 2) -> IntrigueState:
    state = begin(state, Phase.CHARACTERS, turn=turn)
    return until(state, lambda s: top_kind(s) == "slot")


def test_seed_action_order_example() -> None:
    state = to_slots(seed_action_board())
    assert state.representative == 2  # Гюнтер, by key 2 (7 against Ирена's 5)
    assert state.order[:3] == (G, B, R)
    assert top(state).seat == G
    legal = ENGINE.legal_actions(state, G)
    assert {a.character for a in legal if isinstance(a, PickCharacter)} == {3, 4, 5}
    assert not any(isinstance(a, ContestHead) for a in legal)
    # G acts via Жозетта (Казначей): grant 2 coins to itself.
    state = play(state, G, PickCharacter(character=5), PickAction(action=CharAction.GRANT), PickSeat(seat=G))
    assert state.coins[G] == 17 and 5 in state.acted
    assert top(state).seat == B
    legal = ENGINE.legal_actions(state, B)
    assert PickCharacter(character=1) in legal and ContestHead(character=2) in legal
    # B acts via Артур (Военачальник) and moves nothing.
    state = play(state, B, PickCharacter(character=1), PickAction(action=CharAction.MOVE_MILITARY), Done())
    assert top(state).seat == R
    assert [a for a in ENGINE.legal_actions(state, R) if not isinstance(a, Pass)] == [ContestHead(character=2)]
    state = play(state, R, Pass())
    assert top(state).seat == G  # slot 4: G again, via one of the two characters left
    assert {a.character for a in ENGINE.legal_actions(state, G) if isinstance(a, PickCharacter)} == {3, 4}


def test_representative_event_names_the_key() -> None:
    state = begin(seed_action_board(), Phase.CHARACTERS, turn=2)
    events: list[Event] = []
    while top_kind(state) != "slot":
        seat = min(ENGINE.active_seats(state))
        step = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
        events += step.events
        state = step.state
    # The representative was chosen by the jump itself (no window): check the view instead.
    assert ENGINE.view(state, None).council.representative == 2


def _contest(r_bid: int) -> Step[IntrigueState]:
    state = to_slots(seed_action_board())
    state = play(state, G, PickCharacter(character=5), PickAction(action=CharAction.GRANT), PickSeat(seat=G))
    state = play(state, B, ContestHead(character=2))
    assert ENGINE.legal_actions(state, B)[:1] == [PickAmount(amount=1)]
    state = play(state, B, PickAmount(amount=1))
    assert top_kind(state) == "contest" and ENGINE.active_seats(state) == {R}
    return ENGINE.apply(state, R, PickAmount(amount=r_bid))


def test_contest_tie_leaves_the_head_idle_and_discards_the_bids() -> None:
    step = _contest(1)
    state = step.state
    resolved = [e for e in step.events if isinstance(e, ContestResolved)]
    assert resolved[0].winner is None
    pos = state.lands.index(BR)
    assert state.land_tokens[pos][B] == 0 and state.land_tokens[pos][R] == 0
    assert 2 in state.acted
    # R's slot 3 is skipped: it controls nobody and Гюнтер has acted; G's slot 4 follows.
    assert top(state).seat == G


def test_contest_won_acts_at_once() -> None:
    state = _contest(0).state
    assert top_kind(state) == "act" and top(state).seat == B and top(state).character == 2
    legal = ENGINE.legal_actions(state, B)
    assert PickAction(action=CharAction.REMOVE_COUNCILLOR) in legal
    assert not any(isinstance(a, PickAction) and a.action is CharAction.LEND for a in legal)
    assert ENGINE.default_action(state, B) == Skip()


def test_seed_lending_example() -> None:
    state = new(3, heads={ZB: 4}, council=[None, 7, None, None])
    state = with_tokens(state, chars={4: {G: 2, B: 1}})
    state = with_hand(state, B, "M90", MercType.MESSENGER, expires=2)
    state = to_slots(state)
    assert top(state).seat == G
    state = play(state, G, PickCharacter(character=4), PickAction(action=CharAction.LEND), PickSeat(seat=B))
    state = play(state, G, PickAmount(amount=3))
    assert top_kind(state) == "lend" and ENGINE.active_seats(state) == {B}
    state = play(state, B, Choose(option=Option.ACCEPT), PickCard(card="M90"), PickCharacter(character=7))
    state = play(state, B, PickMode(mode=Mode.GIFT))
    assert (state.coins[B], state.coins[G]) == (12, 18)
    assert state.char_tokens[3][G] == 2 and state.char_tokens[3][B] == 0
    # Face down under a new id (the hand id is the owner's alone).
    (card,) = (c for c in state.cards if c.owner == B)
    assert (card.character, card.mode, card.merc) == (7, Mode.GIFT, MercType.MESSENGER) and card.id != "M90"
    assert 4 in state.acted


def test_declined_lend_lets_the_lender_act_again_without_lending() -> None:
    state = new(3, heads={ZB: 4}, council=[None, 7, None, None])
    state = with_tokens(state, chars={4: {G: 2, B: 1}})
    state = with_hand(state, B, "M90", MercType.MESSENGER, expires=2)
    state = to_slots(state)
    state = play(state, G, PickCharacter(character=4), PickAction(action=CharAction.LEND), PickSeat(seat=B))
    state = play(state, G, PickAmount(amount=3))
    state = play(state, B, Choose(option=Option.DECLINE))
    assert top_kind(state) == "slot" and top(state).seat == G
    state = play(state, G, PickCharacter(character=4))
    assert PickAction(action=CharAction.LEND) not in ENGINE.legal_actions(state, G)
    assert 4 not in state.acted


def test_representative_chain_reaches_peaceful_population() -> None:
    # Revision 2 made Бурые Равнины 4/4 (P+M 8), so the equal pair is Золотой Берег and Туманная Долина.
    state = new(4, heads={ZB: 1, TD: 2})
    state = with_tokens(state, chars={1: {R: 4}, 2: {B: 4}}, lands={ZB: {R: 2}, TD: {B: 2}})
    state = begin(state, Phase.CHARACTERS, turn=2)
    step_state = until(state, lambda s: s.representative is not None and top_kind(s) != "window")
    assert step_state.representative == 1  # cells 9 = 9, P+M 7 = 7, P 5 > 3


def test_sly_controller_goes_first() -> None:
    state = new(4, heads={ZB: 13}, council=[1, None, None, None])
    state = with_tokens(state, chars={13: {Y: 1}, 1: {R: 5}, 4: {B: 4}})
    state = to_slots(state)
    assert state.order[0] == Y


def test_investment_order_poorest_first_ties_by_rsp() -> None:
    state = new(3)
    state = with_coins(state, {R: 4, B: 9, G: 4})
    state = begin(state, Phase.INVESTMENTS, turn=2)
    assert top(state).order == [G, R, B]


def test_beyond_the_woods_discount_on_the_first_hire() -> None:
    state = new(3, heads={ZAL: 4})
    state = with_tokens(state, chars={4: {R: 1}})
    state = with_coins(state, {R: 8})
    state = begin(state, Phase.INVESTMENTS, turn=2)
    state = until(state, lambda s: top(s).order[top(s).index] == R)
    state = play(state, R, PickType(merc=MercType.SPY), PickType(merc=MercType.THIEF), PickType(merc=MercType.GUARD))
    assert PickType(merc=MercType.SPY) not in ENGINE.legal_actions(state, R)  # 8 coins are spent
    state = play(state, R, Done())
    assert state.coins[R] == 0
    assert sorted(h.merc for h in state.hands[R]) == sorted([MercType.SPY, MercType.THIEF, MercType.GUARD])
    assert all(h.expires_turn == 2 for h in state.hands[R])


def test_basket_back_and_investment_places_tokens() -> None:
    state = begin(new(3), Phase.INVESTMENTS, turn=2)
    seat = top(state).order[0]
    state = play(state, seat, PickLand(land=ZB), PickLand(land=BR), Back(), Done())
    assert state.land_tokens[state.lands.index(ZB)][seat] == 1
    assert state.land_tokens[state.lands.index(BR)][seat] == 0
    assert state.coins[seat] == 12
    with pytest.raises(GameError):
        play(state, seat, PickLand(land=ZB))


def test_hand_expires_after_the_characters_phase() -> None:
    state = new(3, heads={ZB: 4})
    state = with_tokens(with_hand(state, R, "M50", MercType.SPY, expires=2), chars={4: {R: 1}})
    state = with_hand(state, R, "M51", MercType.GUARD, expires=3)
    state = to_slots(state)
    step = ENGINE.apply(state, R, Pass())
    expired = [e for e in step.events if isinstance(e, HandExpired)]
    assert [(e.seat, e.count, e.cards) for e in expired] == [(R, 1, None), (R, 1, ("M50",))]
    assert expired[1].visible_to == frozenset({R})
    assert [h.id for h in step.state.hands[R]] == ["M51"]


def test_slot_default_is_pass_at_every_step() -> None:
    state = to_slots(seed_action_board())
    assert ENGINE.default_action(state, G) == Pass()
    state = play(state, G, PickCharacter(character=5))
    assert ENGINE.default_action(state, G) == Pass()
    state = play(state, G, Pass())
    assert G in state.passed


def test_passing_is_final_and_the_phase_ends() -> None:
    state = to_slots(seed_action_board())
    for _ in range(3):
        seat = top(state).seat
        state = play(state, seat, Pass())
    assert state.phase is Phase.LANDS_TWO or top_kind(state) != "slot"
