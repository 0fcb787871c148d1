"""Further rulings: council seat actions, Пустые Холмы, Ириаш, Дальний Гарнизон, Подхалим, consent bids."""

from __future__ import annotations

from games.intrigue.data import STANDARD_NINE
from games.intrigue.models import (
    CharAction,
    Choose,
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
    PickSide,
    RevealAssassin,
    Side,
)
from games.intrigue.state import IntrigueState
from tests.games.intrigue.helpers import (
    ENGINE,
    B,
    G,
    R,
    begin,
    new,
    play,
    top,
    top_kind,
    until,
    with_card,
    with_hand,
    with_tokens,
)

ZB, DS, BR, CH, ZAL, BRO, TD = 1, 2, 3, 4, 6, 11, 12
HEADS = {ZB: 10, DS: 16, BR: 2, CH: 13, ZAL: 5, BRO: 17, TD: 1}


def slot_of(state: IntrigueState, seat: int, turn: int = 2) -> IntrigueState:
    state = begin(state, Phase.CHARACTERS, turn=turn)
    return until(state, lambda s: top_kind(s) == "slot" and top(s).seat == seat)


def test_marshal_moves_two_military_tokens() -> None:
    state = with_tokens(new(4, heads=HEADS, council=[6, 7, 8, 9]), chars={6: {R: 2}})
    state = slot_of(state, R)
    state = play(state, R, PickCharacter(character=6), PickAction(action=CharAction.MOVE_MILITARY))
    state = play(state, R, PickLand(land=DS), PickLand(land=ZB), PickLand(land=TD), PickLand(land=ZB))
    ds, zb, td = (state.lands.index(x) for x in (DS, ZB, TD))
    assert (state.military[ds], state.military[zb], state.military[td]) == (3, 4, 3)
    assert 6 in state.acted


def test_bishop_blesses_and_treasurer_grants() -> None:
    state = with_tokens(new(4, heads=HEADS, council=[6, 7, 8, 9]), chars={7: {R: 2}, 8: {R: 2}})
    state = slot_of(state, R)
    state = play(state, R, PickCharacter(character=7), PickAction(action=CharAction.BLESS), PickLand(land=TD))
    assert state.land_tokens[state.lands.index(TD)][R] == 1


def test_empty_hills_rider_and_whole_action() -> None:
    lands = (1, 2, 3, 4, 7, 11, 12)
    heads = {1: 10, 2: 16, 3: 2, 4: 13, 7: 4, 11: 17, 12: 1}
    state = new(4, heads=heads, council=[6, 7, 8, 9], lands=lands)
    state = with_tokens(state, chars={4: {R: 3}})
    state = slot_of(state, R)
    state = play(state, R, PickCharacter(character=4))
    legal = ENGINE.legal_actions(state, R)
    assert PickAction(action=CharAction.HILLS) in legal
    assert PickAction(action=CharAction.REMOVE_COUNCILLOR, rider=True) in legal
    after = play(state, R, PickAction(action=CharAction.HILLS))
    assert after.char_tokens[3][R] == 2 and after.coins[R] == 17


def hills_sender(head_tokens: int, land_tokens: int = 0) -> IntrigueState:
    """Red heads-controls Пустые Холмы (Матей, 4) with an assassin in hand, at its action step."""
    lands = (1, 2, 3, 4, 7, 11, 12)
    heads = {1: 10, 2: 16, 3: 2, 4: 13, 7: 4, 11: 17, 12: 1}
    state = new(4, heads=heads, council=[6, 7, 8, 9], lands=lands)
    state = with_tokens(state, chars={4: {R: head_tokens}}, lands={7: {R: land_tokens}})
    state = with_hand(state, R, "M90", MercType.ASSASSIN, expires=9)
    state = slot_of(state, R)
    return play(state, R, PickCharacter(character=4))


def test_hills_rider_with_a_send_needs_a_marker_besides_the_token_it_spends() -> None:
    # One token on the head pays either the rider or the marker, not both (the rider is never paid
    # from the land): sending is offered, sending with the rider is not.
    legal = ENGINE.legal_actions(hills_sender(1), R)
    assert PickAction(action=CharAction.SEND) in legal
    assert PickAction(action=CharAction.SEND, rider=True) not in legal
    assert PickAction(action=CharAction.HILLS) in legal


def test_hills_rider_and_send_spend_two_head_tokens() -> None:
    state = hills_sender(2)
    assert PickAction(action=CharAction.SEND, rider=True) in ENGINE.legal_actions(state, R)
    coins = state.coins[R]
    state = play(state, R, PickAction(action=CharAction.SEND, rider=True), PickCard(card="M90"))
    state = play(state, R, PickCharacter(character=10))
    assert state.char_tokens[3][R] == 0 and state.coins[R] == coins + 2
    assert any(c.owner == R and c.character == 10 for c in state.cards)


def test_hills_rider_leaves_the_land_as_the_only_marker_source() -> None:
    state = hills_sender(1, land_tokens=1)
    assert PickAction(action=CharAction.SEND, rider=True) in ENGINE.legal_actions(state, R)
    state = play(state, R, PickAction(action=CharAction.SEND, rider=True), PickCard(card="M90"))
    state = play(state, R, PickCharacter(character=10))  # no source step: only the land is left
    hills = state.lands.index(7)
    assert state.char_tokens[3][R] == 0 and state.land_tokens[hills][R] == 0
    assert any(c.owner == R and c.character == 10 for c in state.cards)


def test_iriash_head_becomes_bishop_and_its_controller_names_the_successor() -> None:
    lands = (1, 2, 3, 4, 9, 11, 12)
    heads = {1: 10, 2: 16, 3: 2, 4: 13, 9: 4, 11: 17, 12: 1}
    state = new(4, heads=heads, council=[6, 7, 8, 9], lands=lands)
    state = with_tokens(state, chars={4: {B: 2}}, lands={1: {R: 2}})
    state = with_card(state, "M01", R, MercType.ASSASSIN, 7)
    state = begin(state, Phase.LANDS_ONE, turn=2)
    state = play(state, R, RevealAssassin(card="M01"))
    assert state.council[1] == 4  # Матей, head of Ириаш, is Епископ unvoted
    assert top_kind(state) == "pick" and ENGINE.active_seats(state) == {B}
    state = play(state, B, PickCharacter(character=top(state).candidates[0]))
    assert state.heads[state.lands.index(9)] not in (None, 4)


def test_far_garrison_removal_lets_the_former_controller_choose() -> None:
    heads = {1: 10, 2: 16, 3: 2, 4: 13, 5: 11, 6: 5, 10: 14, 11: 17, 12: 1}
    state = new(4, heads=heads, council=[6, 7, 3, 9], lands=STANDARD_NINE)
    state = with_tokens(state, chars={6: {R: 2}, 7: {R: 2}, 3: {R: 2}, 14: {G: 1}})
    state = slot_of(state, R)
    state = play(
        state, R, PickCharacter(character=6), PickAction(action=CharAction.REMOVE_HEAD), PickCharacter(character=14)
    )
    state = play(state, R, *(PickSide(side=Side.FOR) for _ in range(3)))
    state = until(state, lambda s: top_kind(s) == "pick")
    assert 14 in state.dismissed and ENGINE.active_seats(state) == {G}
    assert 14 not in top(state).candidates  # dismissed this turn: not appointable


def test_sycophant_rewards_a_new_strict_leader_once() -> None:
    heads = {**HEADS, CH: 15}
    state = new(4, heads=heads, council=[6, 7, 8, 9])
    state = with_tokens(state, chars={6: {R: 3}, 16: {B: 1}})
    state = slot_of(state, R)
    assert state.char_tokens[14][R] == 1 and state.leaders[14] == R
    state = play(state, R, Pass())
    assert state.char_tokens[14][R] == 1  # the same leader pays nothing again


def test_river_consent_by_sealed_bids_of_tied_top_players() -> None:
    lands = (1, 2, 3, 4, 8, 11, 12)
    heads = {1: 10, 2: 16, 3: 2, 4: 13, 8: 5, 11: 17, 12: 1}
    state = new(4, heads=heads, council=[6, 7, 8, 9], lands=lands)
    state = with_tokens(state, chars={5: {R: 2}, 2: {B: 1, G: 1}}, lands={3: {B: 2, G: 1}})
    state = with_hand(state, R, "M70", MercType.MESSENGER, expires=2)
    state = slot_of(state, R)
    state = play(state, R, PickCharacter(character=5), PickAction(action=CharAction.RIVER_PLAY))
    state = play(
        state, R, PickCard(card="M70"), PickCharacter(character=2), PickMode(mode=Mode.BRIBE), PickAmount(amount=1)
    )
    assert top_kind(state) == "river" and ENGINE.active_seats(state) == {B, G}
    assert ENGINE.default_action(state, B) == PickAmount(amount=0)
    state = play(state, B, PickAmount(amount=2), Choose(option=Option.CONSENT))
    state = play(state, G, PickAmount(amount=1), Choose(option=Option.REFUSE))
    assert state.land_tokens[state.lands.index(3)][B] == 0 and state.land_tokens[state.lands.index(3)][G] == 0
    assert state.char_tokens[1][R] == 2 and state.coins[R] == 12  # bribe +1 extra for 3 coins
