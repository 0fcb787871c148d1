"""Mercenaries: reveals, the §9.8 table, guards, traits, garrison, timing, Речная Подкова (§4, §8.3, §9)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from games.core.errors import GameError
from games.core.models import Step
from games.intrigue.models import (
    CardRevealed,
    CharAction,
    Choose,
    Convert,
    Done,
    MercType,
    Mode,
    Option,
    Pass,
    Phase,
    PickAction,
    PickCard,
    PickCharacter,
    PickMode,
    RevealAssassin,
    RevealMessenger,
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
    with_card,
    with_coins,
    with_hand,
    with_tokens,
)

ZB, DS, BR, CH, ZAL, BRO, TD, RP = 1, 2, 3, 4, 6, 11, 12, 8
SUPPLY = {MercType.ASSASSIN: 0, MercType.THIEF: 1, MercType.SPY: 2, MercType.GUARD: 3, MercType.MESSENGER: 4}


def full_board(
    heads: Mapping[int, int], council: Iterable[int | None], n: int = 4, lands: Iterable[int] | None = None
) -> IntrigueState:
    return new(n, heads=heads, council=council, lands=lands)


def spy_turn(
    state: IntrigueState, seat: int, agent: str, character: int, target: str
) -> tuple[Step[IntrigueState], IntrigueState]:
    """Drive Spies & Thieves until ``seat``'s turn (others pass) and reveal ``agent`` on ``target``."""
    state = begin(state, Phase.SPIES, turn=2)
    while top_kind(state) == "spies" and top(state).order[top(state).cur] != seat:
        state = play(state, top(state).order[top(state).cur], Pass())
    return ENGINE.apply(state, seat, PickCard(card=agent)), state


def reveal(state: IntrigueState, seat: int, agent: str, character: int, target: str) -> Step[IntrigueState]:
    step, state = spy_turn(state, seat, agent, character, target)
    state = step.state
    state = play(state, seat, PickCharacter(character=character))
    return ENGINE.apply(state, seat, PickCard(card=target))


# 7 lands: 1 2 3 4 6 11 12; the seats below are filled explicitly where traits matter.
QUIET_HEADS = {ZB: 4, DS: 17, BR: 2, CH: 13, ZAL: 5, BRO: 11, TD: 15}


def test_spy_exposes_a_gift_to_a_collector() -> None:
    state = full_board(QUIET_HEADS, [7, 16, 8, 14])
    state = with_card(state, "M01", R, MercType.SPY, 7)
    state = with_card(state, "M02", B, MercType.MESSENGER, 8, mode=Mode.GIFT)
    supply = state.supply
    step = reveal(state, R, "M01", 8, "M02")
    after = step.state
    assert after.char_tokens[8 - 1][B] == 2
    assert after.cards == ()
    assert after.supply[SUPPLY[MercType.SPY]] == supply[SUPPLY[MercType.SPY]] + 1
    assert after.supply[SUPPLY[MercType.MESSENGER]] == supply[SUPPLY[MercType.MESSENGER]] + 1
    revealed = [e for e in step.events if isinstance(e, CardRevealed)]
    assert [(e.card, e.merc) for e in revealed] == [("M01", MercType.SPY), ("M02", MercType.MESSENGER)]


def test_spy_exposes_a_bribe_on_a_bribe_taker() -> None:
    state = full_board({**QUIET_HEADS, ZB: 6}, [7, 9, 10, 14])
    state = with_tokens(state, chars={6: {B: 3}, 9: {B: 3}, 10: {B: 3}})
    state = with_card(state, "M01", R, MercType.SPY, 7)
    state = with_card(state, "M02", B, MercType.MESSENGER, 6, mode=Mode.BRIBE)
    after = reveal(state, R, "M01", 6, "M02").state
    tokens = after.char_tokens
    # No −1 on Эдмар for the target (Взяточник), Осторожный −1 on him, Густав −1 −1, Томас −1.
    assert (tokens[5][B], tokens[8][B], tokens[9][B]) == (2, 1, 2)


def test_spy_exposes_an_assassin() -> None:
    heads = {ZB: 7, DS: 6, BR: 3, CH: 4, ZAL: 8, BRO: 17, TD: 1}
    state = full_board(heads, [16, 13, 15, 2])
    state = with_tokens(state, chars={7: {R: 3}, 6: {R: 3}, 3: {R: 3}})
    state = with_card(state, "M01", B, MercType.SPY, 4)
    state = with_card(state, "M02", R, MercType.ASSASSIN, 7)
    after = reveal(state, B, "M01", 7, "M02").state
    assert after.char_tokens[7 - 1][R] == 0
    assert after.char_tokens[6 - 1][R] == 1  # Эдмар Осторожный −2
    assert after.char_tokens[3 - 1][R] == 1  # Ирена Благородная −2 (not 1, so Гордый does not double)


def test_spy_on_a_guard_costs_the_spy_owner_proud_double() -> None:
    state = full_board({**QUIET_HEADS, ZB: 1}, [7, 16, 8, 14])
    state = with_tokens(state, chars={1: {B: 3}})
    state = with_card(state, "M01", B, MercType.SPY, 7)
    state = with_card(state, "M02", R, MercType.GUARD, 1)
    after = reveal(state, B, "M01", 1, "M02").state
    assert after.char_tokens[0][B] == 1


def test_guarded_thief_on_a_gift() -> None:
    state = full_board(QUIET_HEADS, [7, 16, 8, 14])
    state = with_card(state, "M01", R, MercType.THIEF, 16)
    state = with_card(state, "M02", B, MercType.MESSENGER, 7, mode=Mode.GIFT)
    state = with_card(state, "M03", G, MercType.GUARD, 7)
    state = reveal(state, R, "M01", 7, "M02").state
    assert top_kind(state) == "guard" and ENGINE.active_seats(state) == {G}
    assert PickCard(card="M03") in ENGINE.legal_actions(state, G)
    after = play(state, G, PickCard(card="M03"))
    assert after.char_tokens[6][G] == 1 and after.char_tokens[6][B] == 1
    assert after.cards == ()
    assert after.hands[R] == ()


def test_guard_prompt_reaches_every_owner_without_a_leak() -> None:
    state = full_board(QUIET_HEADS, [7, 16, 8, 14])
    state = with_card(state, "M01", R, MercType.THIEF, 16)
    state = with_card(state, "M02", B, MercType.MESSENGER, 7, mode=Mode.GIFT)
    state = with_card(state, "M03", G, MercType.SPY, 7)
    state = with_card(state, "M04", Y, MercType.GUARD, 7)
    state = reveal(state, R, "M01", 7, "M02").state
    assert ENGINE.active_seats(state) == {G, Y}
    assert ENGINE.legal_actions(state, G) == [Choose(option=Option.DECLINE)]
    state = play(state, G, Choose(option=Option.DECLINE))
    after = play(state, Y, Choose(option=Option.DECLINE))
    # No guard: the thief takes the gift into hand.
    assert [h.merc for h in after.hands[R]] == [MercType.MESSENGER]
    assert after.hands[R][0].expires_turn == 2


def test_thief_takes_coins_for_a_bribe_and_the_brown_plains_recruit() -> None:
    heads = {**QUIET_HEADS, BR: 2}
    state = full_board(heads, [7, 16, 10, 14])
    state = with_tokens(state, chars={2: {Y: 1}, 10: {B: 2}})
    state = with_card(state, "M01", R, MercType.THIEF, 16)
    state = with_card(state, "M02", B, MercType.MESSENGER, 7, mode=Mode.BRIBE)
    state = reveal(state, R, "M01", 7, "M02").state
    assert top_kind(state) == "ask" and ENGINE.active_seats(state) == {R}
    assert ENGINE.default_action(state, R) == Choose(option=Option.TAKE_COINS)
    state = play(state, R, Choose(option=Option.TAKE_COINS))
    assert state.coins[R] == 17
    assert state.char_tokens[9][B] == 1  # Томас Неподкупный penalty
    assert top_kind(state) == "ask" and ENGINE.active_seats(state) == {Y}
    state = play(state, Y, Choose(option=Option.RECRUIT))
    assert [h.merc for h in state.hands[Y]] == [MercType.MESSENGER]
    assert state.hands[Y][0].expires_turn == 2


def _window_reveal_board(extra_heads: Mapping[int, int] | None = None) -> IntrigueState:
    heads = {**QUIET_HEADS, **(extra_heads or {})}
    return full_board(heads, [7, 16, 10, 14])


def test_guarded_assassin_and_the_penalty_choice() -> None:
    state = _window_reveal_board()
    state = with_tokens(state, chars={10: {R: 1}, 4: {R: 2}, 17: {R: 1}, 2: {R: 3}, 13: {R: 1}}, lands={ZB: {R: 2}})
    state = with_card(state, "M01", R, MercType.ASSASSIN, 10)
    state = with_card(state, "M02", B, MercType.GUARD, 10)
    state = begin(state, Phase.LANDS_ONE, turn=2)
    assert top_kind(state) == "window"
    state = play(state, R, RevealAssassin(card="M01"))
    assert top_kind(state) == "guard"
    state = play(state, B, PickCard(card="M02"))
    assert 10 not in state.dead and state.kills == 0
    assert state.char_tokens[9][B] == 2
    assert top_kind(state) == "penalty"
    assert ENGINE.default_action(state, R) == PickCharacter(character=2)
    state = play(state, R, PickCharacter(character=4), PickCharacter(character=17), PickCharacter(character=13))
    assert (state.char_tokens[3][R], state.char_tokens[16][R], state.char_tokens[12][R]) == (1, 0, 0)
    assert state.char_tokens[1][R] == 3


def test_unguarded_assassin_kills_and_the_seat_is_refilled() -> None:
    state = _window_reveal_board()
    state = with_tokens(state, chars={10: {B: 3}}, lands={ZB: {R: 2}})
    state = with_card(state, "M01", R, MercType.ASSASSIN, 4)
    state = begin(state, Phase.LANDS_ONE, turn=2)
    state = play(state, R, RevealAssassin(card="M01"))
    assert 4 in state.dead and state.kills == 1
    # The Appointer (Казначей Томас is B's; the Тайный Советник is neutral) picks the new head.
    assert top_kind(state) == "pick" and ENGINE.active_seats(state) == {B}
    pool = top(state).candidates
    assert 4 not in pool and ENGINE.default_action(state, B) == PickCharacter(character=min(pool))
    state = play(state, B, PickCharacter(character=max(pool)))
    assert state.heads[state.lands.index(ZB)] == max(pool)


def test_garrison_reveal_messenger_and_thief() -> None:
    heads = {**QUIET_HEADS, BR: 2}
    state = full_board(heads, [7, 16, 8, 14])
    state = with_tokens(state, chars={2: {R: 3}})
    state = with_card(state, "M01", B, MercType.MESSENGER, 2, mode=Mode.GIFT)
    state = with_card(state, "M02", B, MercType.THIEF, 2)
    state = with_coins(state, {R: 10})
    state = begin(state, Phase.LANDS_TWO, turn=2)
    state = until(state, lambda s: top_kind(s) == "garrison")
    assert top(state).left == 2  # ⌊4/2⌋ (revision 2: Бурые Равнины M4)
    after = play(state, R, PickCard(card="M01"))
    assert after.char_tokens[1][R] == 2
    after = until(after, lambda s: top_kind(s) != "ask")  # the Бурые Равнины recruit offer: declined
    assert top_kind(after) == "garrison" and top(after).left == 1
    after = play(after, R, PickCard(card="M02"))
    assert after.char_tokens[1][R] == 3
    assert top_kind(after) != "garrison"
    after = play(state, R, PickCard(card="M02"))
    assert after.char_tokens[1][R] == 4


def test_misty_vale_land_holder_reveals_up_to_m() -> None:
    state = full_board(QUIET_HEADS, [7, 16, 8, 14])
    state = with_tokens(state, lands={TD: {R: 2}})
    for i in range(5):
        state = with_card(state, f"M0{i}", B, MercType.SPY, 15)
    state = begin(state, Phase.LANDS_TWO, turn=2)
    state = until(state, lambda s: top_kind(s) == "garrison")
    assert top(state).seat == R and top(state).left == 4


def test_reveal_timing() -> None:
    state = _window_reveal_board()
    state = with_tokens(state, lands={ZB: {B: 2}})
    state = with_card(state, "M01", B, MercType.MESSENGER, 7, mode=Mode.GIFT, turn=2)
    state = with_card(state, "M02", B, MercType.SPY, 7, turn=1)
    state = with_card(state, "M03", B, MercType.MESSENGER, 16, mode=Mode.GIFT, turn=1)
    w1 = begin(state, Phase.LANDS_ONE, turn=2)
    assert top_kind(w1) == "window"
    with pytest.raises(GameError) as placed_now:
        play(w1, B, RevealMessenger(card="M01"))
    assert placed_now.value.code == "intrigue.card_not_ready"
    with pytest.raises(GameError):
        play(w1, B, RevealMessenger(card="M02"))
    after = play(w1, B, RevealMessenger(card="M03"))
    assert after.char_tokens[15][B] == 1
    st = begin(state, Phase.SPIES, turn=3)
    assert top_kind(st) == "spies"
    with pytest.raises(GameError) as in_spies:
        play(st, B, RevealMessenger(card="M01"))
    assert in_spies.value.code == "intrigue.no_free_actions_in_spies"


def test_conversion_twice_and_not_in_spies() -> None:
    state = _window_reveal_board()
    state = with_tokens(state, lands={ZB: {R: 5}})
    state = with_card(state, "M09", R, MercType.SPY, 7)
    w1 = begin(state, Phase.LANDS_ONE, turn=2)
    after = play(w1, R, Convert(land=ZB), Convert(land=ZB))
    assert after.land_tokens[after.lands.index(ZB)][R] == 1
    assert after.char_tokens[3][R] == 2
    spies = begin(state, Phase.SPIES, turn=2)
    with pytest.raises(GameError):
        play(spies, R, Convert(land=ZB))


def test_greedy_and_incorruptible_bribes() -> None:
    state = _window_reveal_board({ZB: 14})
    state = with_tokens(state, lands={DS: {B: 2}})
    state = with_card(state, "M01", B, MercType.MESSENGER, 14, mode=Mode.BRIBE)
    state = with_card(state, "M02", B, MercType.MESSENGER, 10, mode=Mode.BRIBE)
    w1 = begin(with_coins(state, {B: 10}), Phase.LANDS_ONE, turn=2)
    after = play(w1, B, RevealMessenger(card="M01", extra=2))
    assert after.coins[B] == 1 and after.char_tokens[13][B] == 3
    poor = begin(with_coins(state, {B: 8}), Phase.LANDS_ONE, turn=2)
    with pytest.raises(GameError) as unpaid:
        play(poor, B, RevealMessenger(card="M01", extra=2))
    assert unpaid.value.code == "intrigue.not_enough_coins"
    after = play(w1, B, RevealMessenger(card="M02"))
    assert after.coins[B] == 10 and after.char_tokens[9][B] == 0


def test_a_large_bribe_beyond_the_listed_range_is_accepted() -> None:
    state = _window_reveal_board()
    state = with_tokens(state, lands={DS: {B: 2}})
    state = with_card(state, "M01", B, MercType.MESSENGER, 7, mode=Mode.BRIBE)
    w1 = begin(with_coins(state, {B: 40}), Phase.LANDS_ONE, turn=2)
    assert RevealMessenger(card="M01", extra=12) not in ENGINE.legal_actions(w1, B)
    after = play(w1, B, RevealMessenger(card="M01", extra=12))
    assert after.coins[B] == 4 and after.char_tokens[6][B] == 13


def test_golden_coast_rare_gift_once_per_turn() -> None:
    state = _window_reveal_board({ZB: 1})
    state = with_tokens(state, lands={ZB: {R: 3}})
    state = with_card(state, "M01", R, MercType.MESSENGER, 1, mode=Mode.GIFT)
    state = with_card(state, "M02", R, MercType.MESSENGER, 1, mode=Mode.GIFT)
    w1 = begin(state, Phase.LANDS_ONE, turn=2)
    state = play(w1, R, RevealMessenger(card="M01"))
    assert top_kind(state) == "ask" and ENGINE.default_action(state, R) == Choose(option=Option.DECLINE)
    state = play(state, R, Choose(option=Option.PAY))
    assert state.char_tokens[0][R] == 3 and state.coins[R] == 13
    state = play(state, R, RevealMessenger(card="M02"))
    assert top_kind(state) != "ask"
    assert state.char_tokens[0][R] == 5
    with pytest.raises(GameError):
        play(state, R, Choose(option=Option.PAY))


def _river_board() -> IntrigueState:
    lands = (1, 2, 3, 4, 8, 11, 12)
    heads = {1: 4, 2: 17, 3: 2, 4: 13, 8: 5, 11: 11, 12: 15}
    state = new(4, heads=heads, council=[7, 16, 8, 14], lands=lands)
    return with_tokens(state, chars={5: {R: 2}, 7: {B: 2}})


def _river_slot(state: IntrigueState) -> IntrigueState:
    state = begin(state, Phase.CHARACTERS, turn=2)
    state = until(state, lambda s: top_kind(s) == "slot" and top(s).seat == R)
    return play(state, R, PickCharacter(character=5), PickAction(action=CharAction.RIVER_PLAY))


def test_river_horseshoe_gift_with_consent() -> None:
    state = with_hand(_river_board(), R, "M70", MercType.MESSENGER, expires=2)
    state = _river_slot(state)
    state = play(state, R, PickCard(card="M70"), PickCharacter(character=7), PickMode(mode=Mode.GIFT))
    assert top_kind(state) == "river" and ENGINE.active_seats(state) == {B}
    assert ENGINE.default_action(state, B) == Choose(option=Option.REFUSE)
    after = play(state, B, Choose(option=Option.CONSENT))
    assert after.char_tokens[6][R] == 1 and after.hands[R] == ()


def test_river_horseshoe_assassin_on_a_neutral_councillor_is_refused() -> None:
    state = with_hand(_river_board(), R, "M71", MercType.ASSASSIN, expires=3)
    state = _river_slot(state)
    after = play(state, R, PickCard(card="M71"), PickCharacter(character=16))
    assert [h.id for h in after.hands[R]] == ["M71"]
    assert 5 in after.acted and 16 not in after.dead


def test_spies_phase_only_accepts_spy_and_thief_reveals() -> None:
    state = _window_reveal_board()
    state = with_card(state, "M01", R, MercType.SPY, 7)
    state = with_card(state, "M02", B, MercType.GUARD, 16)
    _step, st = spy_turn(state, R, "M01", 16, "M02")
    legal = ENGINE.legal_actions(st, R)
    assert PickCard(card="M01") in legal and Pass() in legal
    assert ENGINE.default_action(st, R) == Pass()
    with pytest.raises(GameError):
        play(st, R, PickCard(card="M02"))
    assert Done() not in legal
