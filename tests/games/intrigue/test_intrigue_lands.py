"""Lands I and II: income, contests, growth, Чёрная Гавань, traits, stipends, Властный, tax (§5, §8)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from games.core.errors import GameError
from games.intrigue.models import (
    CoinsGained,
    Done,
    Phase,
    PickAmount,
    PickLand,
    Reason,
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
    skip_windows,
    top_kind,
    until,
    with_coins,
    with_population,
    with_tokens,
)

ZB, DS, BR, CH, ZAL, BRO, TD = 1, 2, 3, 4, 6, 11, 12


def income_board(
    lands: Mapping[int, Mapping[int, int]] | None = None,
    chars: Mapping[int, Mapping[int, int]] | None = None,
    heads: Mapping[int, int] | None = None,
    council: Iterable[int | None] | None = None,
) -> IntrigueState:
    state = new(4, heads=heads or {ZB: 1}, council=council)
    return with_tokens(state, chars=chars or {}, lands=lands or {})


def to_investments(state: IntrigueState) -> IntrigueState:
    state = begin(state, Phase.LANDS_ONE, turn=2)
    return until(state, lambda s: s.phase is Phase.INVESTMENTS)


def test_seed_income_example_1() -> None:
    state = income_board(lands={ZB: {B: 3, R: 2}}, chars={1: {B: 2, R: 2}})
    after = to_investments(state)
    assert after.coins[B] == 15 + 5
    assert after.coins[R] == 15


def test_seed_income_example_2_head_tokens_break_the_tie() -> None:
    state = income_board(lands={ZB: {B: 3, R: 2}}, chars={1: {B: 2, R: 3}})
    after = to_investments(state)
    assert after.coins[R] == 15 + 5
    assert after.coins[B] == 15


def test_seed_income_example_3_contested_and_its_tax() -> None:
    state = income_board(lands={ZB: {R: 3, B: 3, Y: 1}}, chars={1: {R: 3, B: 3, Y: 1}})
    after = to_investments(state)
    assert (after.coins[R], after.coins[B], after.coins[Y]) == (16, 16, 15)
    # Lands II: each contested player pays 1 for ЗБ.
    state = begin(with_coins(state, {R: 5, B: 5, Y: 5}), Phase.LANDS_TWO, turn=2)
    state = until(state, lambda s: s.turn == 3)
    assert (state.coins[R], state.coins[B], state.coins[Y]) == (4, 4, 5)


def _lands_two(state: IntrigueState) -> IntrigueState:
    state = begin(state, Phase.LANDS_TWO, turn=2)
    return until(state, lambda s: s.turn == 3 or s.phase is Phase.OVER)


def test_tax_one_coin_per_land() -> None:
    state = new(4, heads={})
    state = with_tokens(state, lands={ZB: {B: 1}, BR: {B: 1}, CH: {B: 1}})
    after = _lands_two(with_coins(state, {B: 10}))
    assert after.coins[B] == 7


def test_vale_of_arrows_tax_declared_two_or_default_one() -> None:
    state = new(4, heads={}, council=[7, None, None, None])
    state = with_tokens(state, chars={7: {R: 1}}, lands={DS: {B: 1}, ZB: {B: 1}, BR: {B: 1}})
    state = with_coins(state, {B: 10})
    state = begin(state, Phase.LANDS_TWO, turn=2)
    assert top_kind(state) == "amount"
    assert ENGINE.default_action(state, R) == PickAmount(amount=1)
    after = play(state, R, PickAmount(amount=2))
    after = until(after, lambda s: s.turn == 3)
    assert after.coins[B] == 10 - 4
    # The Военачальник neutral: the tax is 1.
    neutral = with_tokens(state.model_copy(update={"stack": ()}), chars={7: {R: 1, G: 1}})
    after = _lands_two(neutral)
    assert after.coins[B] == 10 - 3


@pytest.mark.parametrize(("head", "removed"), [(2, 1), (1, 2)])
def test_tax_default_removes_land_and_head_tokens(head: int, removed: int) -> None:
    # Гюнтер (2) is plain, Артур (1) is Гордый: a forced removal of 1 becomes 2.
    state = new(4, heads={DS: head}, council=[7, None, None, None])
    state = with_tokens(state, chars={7: {R: 1}, head: {B: 3}}, lands={DS: {B: 2}, CH: {B: 1}})
    state = with_coins(state, {B: 1})
    state = skip_windows(begin(state, Phase.LANDS_TWO, turn=2))
    state = play(state, R, PickAmount(amount=2))
    after = until(state, lambda s: s.turn == 3)
    pos = after.lands.index(DS)
    assert after.land_tokens[pos][B] == 1
    assert after.char_tokens[head - 1][B] == 3 - removed
    assert after.coins[B] == 0


def test_growth_instead_of_income_and_one_land_only() -> None:
    state = income_board(lands={ZB: {B: 3}, DS: {B: 2}}, chars={1: {B: 2}})
    state = begin(state, Phase.LANDS_ONE, turn=2)
    state = until(state, lambda s: top_kind(s) == "growth")
    legal = ENGINE.legal_actions(state, B)
    assert PickLand(land=ZB) in legal and PickLand(land=DS) in legal
    state = play(state, B, PickLand(land=ZB))
    with pytest.raises(GameError):
        play(state, B, PickLand(land=DS))
    after = until(state, lambda s: s.phase is Phase.INVESTMENTS)
    pos = after.lands.index(ZB)
    assert after.peaceful[pos] == 6
    assert after.coins[B] == 15 + 3  # Долина Стрел only (P3); ЗБ paid nothing
    after = _lands_two(with_coins(after, {B: 10}))
    assert after.coins[B] == 8  # tax on both, the grown land included


def test_contested_player_cannot_grow() -> None:
    state = income_board(lands={ZB: {R: 3, B: 3}}, chars={1: {R: 1, B: 1}})
    state = begin(state, Phase.LANDS_ONE, turn=2)
    state = until(state, lambda s: s.phase is Phase.INVESTMENTS or top_kind(s) == "growth")
    assert top_kind(state) != "growth"
    with pytest.raises(GameError):
        play(state, R, PickLand(land=ZB))


def test_black_harbour_extra_coin_even_when_grown_and_nobody_on_a_tie() -> None:
    state = new(4, heads={CH: 2})
    state = with_tokens(state, chars={2: {R: 1}}, lands={CH: {R: 3, B: 3}})
    # Revision 4 leaves Чёрная Гавань no free cell: a military token moved out makes room to grow.
    state = with_population(state, {CH: (None, state.military[state.lands.index(CH)] - 1)})
    state = begin(state, Phase.LANDS_ONE, turn=2)
    state = until(state, lambda s: top_kind(s) == "growth")
    state = play(state, R, PickLand(land=CH))
    after = until(state, lambda s: s.phase is Phase.INVESTMENTS)
    assert after.coins[R] == 16 and after.coins[B] == 15
    tie = with_tokens(new(4, heads={CH: 2}), chars={2: {R: 1, B: 1}}, lands={CH: {R: 3, B: 3}})
    after = to_investments(tie)
    assert after.coins[R] == 16 and after.coins[B] == 16  # contested 1 each, no harbour coin


def test_thrifty_and_wasteful_heads() -> None:
    state = new(4, heads={BR: 2, ZAL: 5})
    state = with_tokens(state, lands={BR: {R: 1}, ZAL: {B: 1}})
    after = to_investments(state)
    assert after.coins[R] == 15 + 5  # Гюнтер Хозяйственный on P4
    assert after.coins[B] == 15 + 4  # Жозетта Расточительная on P5
    contested = with_tokens(new(4, heads={ZAL: 5}), lands={ZAL: {B: 1, G: 1}})
    after = to_investments(contested)
    assert after.coins[B] == 16 and after.coins[G] == 16


def test_stipend_counts_the_seated_representative() -> None:
    state = new(4, heads={ZB: 1, BR: 2}, council=[7, None, None, None])
    state = state.model_copy(update={"representative": 2})
    state = with_tokens(state, chars={7: {R: 1}, 2: {R: 1}})
    state = begin(state, Phase.LANDS_ONE, turn=2)
    state = until(state, lambda s: s.phase is Phase.INVESTMENTS)
    # R also holds Бурые Равнины through its head token: P4 + 1 (Гюнтер Хозяйственный) = 5.
    assert state.coins[R] == 15 + 5 + 2


def test_imperious_head_places_land_tokens() -> None:
    state = new(4, heads={BRO: 7})
    state = with_tokens(state, chars={7: {R: 7, B: 3}})
    step = ENGINE  # noqa: F841 - readability
    after = begin(state, Phase.LANDS_ONE, turn=2)
    after = until(after, lambda s: top_kind(s) != "window")
    pos = after.lands.index(BRO)
    assert after.land_tokens[pos][R] == 2
    assert after.land_tokens[pos][B] == 1


def test_income_events_name_the_land() -> None:
    state = income_board(lands={ZB: {B: 3}}, chars={1: {B: 2}})
    state = begin(state, Phase.LANDS_ONE, turn=2)
    state = until(state, lambda s: top_kind(s) == "growth")
    step = ENGINE.apply(state, B, Skip())
    gains = [e for e in step.events if isinstance(e, CoinsGained) and e.reason is Reason.INCOME]
    assert [(e.seat, e.amount, e.land) for e in gains] == [(B, 5, ZB)]


def test_window_w1_offers_conversion_then_done() -> None:
    state = income_board(lands={ZB: {B: 3}}, chars={1: {B: 2}})
    state = begin(state, Phase.LANDS_ONE, turn=2)
    assert top_kind(state) == "window"
    assert ENGINE.active_seats(state) == {B}
    assert ENGINE.default_action(state, B) == Done()
