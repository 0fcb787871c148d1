"""Setup, options, content sets and addressing (digest §1, §3, §4, §10; scenarios 1-3, 9, 41)."""

from __future__ import annotations

from collections import Counter

import pytest
from pydantic import BaseModel

from games.cadwallon.board import board
from games.cadwallon.cards import (
    ALL_ACTIONS,
    BASE_ACTIONS,
    CARDS,
    base_deck,
    card_info,
    expansion_district_cards,
)
from games.cadwallon.engine import AGENTS_TABLE, ERROR_CODES, CadwallonEngine
from games.cadwallon.models import CadwallonOptions, Category, District, Phase, PlaceAgent, TurnStep
from games.core.errors import GameError
from tests.games.cadwallon.helpers import ENGINE, of_kind


class _Foreign(BaseModel):
    """Another game's options."""

    teams: bool = True


class _Empty(BaseModel):
    """Options with nothing set."""


def all_cards(state) -> list[str]:
    cards = [c for c in state.slots if c is not None]
    cards += [*state.deck, *state.reserve, *state.tarot]
    for seat in range(state.num_seats):
        cards += [*state.hands[seat], *state.captured[seat], *state.played[seat]]
    return cards


# ----------------------------------------------------------------------------- card data (§2)
def test_card_data_matches_the_digest_tables() -> None:
    assert len(CARDS) == 84
    categories = Counter(info.category for info in CARDS.values())
    assert categories == {
        Category.GUILD: 32,
        Category.CREDITOR: 8,
        Category.PERSONALITY: 8,
        Category.MILITIA: 10,
        Category.ACTION: 26,
    }
    types = Counter(info.district for info in CARDS.values())
    assert types == {District.DOCKS: 22, District.MARKET: 22, District.OLD_TOWN: 20, District.HIGH_TOWN: 20}
    for guild in ("USU", "JEW", "BLA", "ZOD", "THI", "FER", "ARC", "ALC"):
        members = [card_info(f"{guild}-{k}") for k in range(1, 5)]
        assert sum(m.gp + m.support for m in members) == 15
        assert card_info(f"{guild}-C").support == 1 and card_info(f"{guild}-C").gp == 0
    assert all(card_info(f"A{i:02d}").gp == 2 and card_info(f"A{i:02d}").support == 2 for i in range(1, 27))
    assert all(card_info(f"P{i}").support == 0 and card_info(f"P{i}").gp == 0 for i in range(1, 9))
    assert sum(card_info(f"M{i:02d}").pp for i in range(1, 6)) == sum(card_info(f"M{i:02d}").pp for i in range(6, 11))
    # The values the seed's examples need: USU-1 S 1 / 3 GP, BLA-3 S 3, M01 and ZOD-2 both Docks.
    assert (card_info("USU-1").gp, card_info("USU-1").support, card_info("BLA-3").support) == (3, 1, 3)
    assert card_info("M01").district is card_info("ZOD-2").district is District.DOCKS
    assert card_info("JEW-1").district is District.MARKET
    assert all(info.house for info in CARDS.values())


# ----------------------------------------------------------------------------- scenarios 1-2
def test_scenario_1_three_by_three_two_players() -> None:
    step = ENGINE.setup(2, CadwallonOptions(), "s1")
    state = step.state
    assert state.grid == 3 and not state.expansion
    everything = [c for c in state.slots if c is not None] + list(state.deck)
    assert len(everything) == 32 and len(state.reserve) == 7
    counts = Counter(CARDS[c].category for c in everything)
    assert counts[Category.GUILD] == 16 and counts[Category.PERSONALITY] == 4 and counts[Category.MILITIA] == 5
    assert counts[Category.ACTION] == 7 and counts[Category.CREDITOR] == 0
    assert set(everything) - set(BASE_ACTIONS) == set(base_deck())
    assert sorted([c for c in everything if CARDS[c].category is Category.ACTION] + list(state.reserve)) == list(
        BASE_ACTIONS
    )
    assert state.agents_per_player == 6 and state.supply == (6, 6)
    assert len(state.deck) == 32 - 9 and all(state.slots)
    assert state.phase is Phase.DEPLOY and state.step is TurnStep.PLACE and state.turn == state.first_seat


def test_scenario_2_five_by_five_eight_players() -> None:
    state = ENGINE.setup(8, CadwallonOptions(grid=5), "s2").state
    assert len(state.deck) + 25 == 72 and len(state.reserve) == 12
    assert state.agents_per_player == 5 and len(board(5).ends) == 40
    everything = [c for c in state.slots if c is not None] + list(state.deck)
    counts = Counter(CARDS[c].category for c in everything)
    assert counts == {
        Category.GUILD: 32,
        Category.CREDITOR: 8,
        Category.PERSONALITY: 8,
        Category.MILITIA: 10,
        Category.ACTION: 14,
    }
    assert sorted([c for c in everything if CARDS[c].category is Category.ACTION] + list(state.reserve)) == list(
        ALL_ACTIONS
    )
    assert sorted(all_cards(state)) == sorted(CARDS)


def test_four_by_four_deck_and_boulevards() -> None:
    state = ENGINE.setup(4, CadwallonOptions(grid=4), "s")
    assert len(state.state.deck) + 16 == 72 and len(board(4).ends) == 24
    assert sorted(all_cards(state.state)) == sorted(CARDS)
    assert set(expansion_district_cards()) <= set(all_cards(state.state))


@pytest.mark.parametrize("grid", [3, 4, 5])
def test_agents_table(grid: int) -> None:
    for seats, agents in AGENTS_TABLE[grid].items():
        state = ENGINE.setup(seats, CadwallonOptions(grid=grid), "agents").state
        assert state.supply == (agents,) * seats
        festival = ENGINE.setup(seats, CadwallonOptions(grid=grid, conditions=True, condition="C08"), "x").state
        assert festival.supply == (agents + 1,) * seats


def test_expansion_actions_in_three_by_three() -> None:
    seen: set[str] = set()
    for i in range(12):
        state = ENGINE.setup(2, CadwallonOptions(expansion_actions_3x3=True), f"x{i}").state
        actions = [c for c in [*state.slots, *state.deck] if c is not None and CARDS[c].category is Category.ACTION]
        assert len(actions) == 7 and len(state.reserve) == 19
        seen.update(actions)
    assert seen - set(BASE_ACTIONS)
    # Ignored on larger grids.
    big = ENGINE.setup(2, CadwallonOptions(grid=4, expansion_actions_3x3=True), "x").state
    assert len(big.reserve) == 12


# ----------------------------------------------------------------------------- scenario 3: addressing
def test_scenario_3_boulevard_indices() -> None:
    geo = board(3)
    assert geo.boulevard_index["A1E"] == 0 and geo.boulevard_index["C2E"] == 5
    assert geo.boulevard_index["A1S"] == 6 and geo.boulevard_index["B1S"] == 9 and geo.boulevard_index["B3S"] == 11
    assert geo.slot_names == ("A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3")
    assert geo.ends[geo.boulevard_index["B2E"]] == (4, 5)
    assert geo.ends[geo.boulevard_index["B2S"]] == (4, 7)
    assert [len(board(n).ends) for n in (3, 4, 5)] == [12, 24, 40]
    five = board(5)
    assert five.boulevard_names[0] == "A1E" and five.boulevard_names[19] == "E4E" and five.boulevard_names[20] == "A1S"
    assert five.boulevard_names[-1] == "D5S"
    assert sorted(len(a) for a in five.around) == [2] * 4 + [3] * 12 + [4] * 9


def test_views_name_slots_and_boulevards() -> None:
    view = ENGINE.view(ENGINE.setup(2, CadwallonOptions(), "v").state, None)
    assert [s.slot for s in view.slots] == list(board(3).slot_names)
    b1e = view.boulevards[2]
    assert (b1e.boulevard, b1e.orientation, b1e.slots) == ("B1E", "E", ("B1", "B2"))
    assert view.boulevards[6].orientation == "S" and view.boulevards[6].slots == ("A1", "B1")
    assert view.free_boulevards == board(3).boulevard_names


# ----------------------------------------------------------------------------- setup checks
@pytest.mark.parametrize(
    ("seats", "options", "code"),
    [
        (1, CadwallonOptions(), "cadwallon.invalid_seat_count"),
        (9, CadwallonOptions(), "cadwallon.invalid_seat_count"),
        (5, CadwallonOptions(grid=3), "cadwallon.seats_for_grid"),
        (8, CadwallonOptions(grid=3), "cadwallon.seats_for_grid"),
        (2, CadwallonOptions(condition="C03"), "cadwallon.invalid_options"),
        (3, CadwallonOptions(first_seat=3), "cadwallon.invalid_first_seat"),
        (2, CadwallonOptions(deck=("USU-1", "USU-1")), "cadwallon.invalid_deck"),
        (2, CadwallonOptions(deck=("THI-1",)), "cadwallon.invalid_deck"),
        (2, CadwallonOptions(deck=("USU-1",), reserve=("USU-2",)), "cadwallon.invalid_deck"),
        (2, CadwallonOptions(reserve=("A01",)), "cadwallon.invalid_deck"),
        (2, CadwallonOptions(contract_cards=("K11", "K01")), "cadwallon.invalid_deck"),
        (2, CadwallonOptions(contracts=False, contract_cards=("K01", "K02")), "cadwallon.invalid_options"),
    ],
)
def test_setup_errors(seats: int, options: CadwallonOptions, code: str) -> None:
    with pytest.raises(GameError) as error:
        ENGINE.setup(seats, options, "x")
    assert error.value.code == code
    assert code in ERROR_CODES


def test_grid_and_seat_counts() -> None:
    for seats in range(2, 9):
        for grid in (4, 5):
            assert ENGINE.setup(seats, CadwallonOptions(grid=grid), "x").state.grid == grid
    assert [ENGINE.setup(s, CadwallonOptions(), "x").state.grid for s in range(2, 9)] == [3, 3, 3, 4, 4, 4, 4]
    assert CadwallonEngine.min_seats == 2 and CadwallonEngine.max_seats == 8
    with pytest.raises(GameError) as error:
        ENGINE.setup(2, _Foreign(), "x")
    assert error.value.code == "cadwallon.invalid_options"
    assert ENGINE.setup(2, _Empty(), "x").state.grid == 3


def test_options_validate_in_the_lobby() -> None:
    with pytest.raises(ValueError, match="grid"):
        CadwallonOptions.model_validate({"grid": 6})
    assert CadwallonOptions.model_validate({}).contracts is True


# ----------------------------------------------------------------------------- options (§10)
def test_first_player_is_random_or_fixed() -> None:
    firsts = {ENGINE.setup(4, CadwallonOptions(), f"f{i}").state.first_seat for i in range(20)}
    assert len(firsts) > 1
    state = ENGINE.setup(4, CadwallonOptions(first_seat=2), "x").state
    assert state.first_seat == 2 and state.turn == 2


def test_contracts_are_dealt_secretly_from_the_modes_set() -> None:
    step = ENGINE.setup(4, CadwallonOptions(), "k")
    contracts = step.state.contracts
    assert len(set(contracts)) == 4 and all(c is not None and "K01" <= c <= "K10" for c in contracts)
    dealt = of_kind(step.events, "contract_dealt")
    assert [(e.seat, e.visible_to) for e in dealt] == [(s, frozenset({s})) for s in range(4)]
    big: set[str | None] = set()
    for i in range(10):
        big.update(ENGINE.setup(8, CadwallonOptions(grid=5), f"k{i}").state.contracts)
    assert any(c is not None and c > "K10" for c in big)
    off = ENGINE.setup(2, CadwallonOptions(contracts=False), "k")
    assert off.state.contracts == (None, None) and not of_kind(off.events, "contract_dealt")


def test_starting_action_deals_one_secret_card_each() -> None:
    step = ENGINE.setup(3, CadwallonOptions(starting_action=True), "st")
    state = step.state
    assert [len(h) for h in state.hands] == [1, 1, 1] and len(state.reserve) == 4
    assert all(CARDS[h[0]].category is Category.ACTION for h in state.hands)
    drawn = of_kind(step.events, "action_card_drawn")
    assert [e.card for e in drawn if e.visible_to is None] == [None, None, None]
    assert {e.seat: e.card for e in drawn if e.visible_to is not None} == {s: state.hands[s][0] for s in range(3)}


def test_conditions_option_reveals_one_condition() -> None:
    seen = {ENGINE.setup(2, CadwallonOptions(conditions=True), f"c{i}").state.condition for i in range(30)}
    assert len(seen) > 3 and all(c is not None and c.startswith("C") for c in seen)
    assert ENGINE.setup(2, CadwallonOptions(), "c").state.condition is None
    view = ENGINE.view(ENGINE.setup(2, CadwallonOptions(conditions=True, condition="C05"), "c").state, None)
    assert view.condition == "C05" and view.conditions


def test_stacked_deck_deals_in_order() -> None:
    deck = ("USU-1", "USU-2", "USU-3", "USU-4", "JEW-1", "JEW-2", "JEW-3", "JEW-4", "P1", "M01")
    state = ENGINE.setup(2, CadwallonOptions(deck=deck, reserve=("A05",)), "x").state
    assert state.slots == deck[:9] and state.deck == ("M01",) and state.reserve == ("A05",)
    assert state.first_seat == 0 and state.contracts == ("K01", "K02")


def test_short_stacked_deck_ends_the_game_at_once() -> None:
    step = ENGINE.setup(2, CadwallonOptions(deck=("USU-1",)), "x")
    assert step.state.phase is Phase.FINISHED and step.state.version == 0
    assert ENGINE.outcome(step.state) is not None


# ----------------------------------------------------------------------------- scenario 9
def test_scenario_9_round_one_only_places() -> None:
    state = ENGINE.setup(2, CadwallonOptions(), "r1").state
    legal = ENGINE.legal_actions(state, state.first_seat)
    assert len(legal) == 12 and all(isinstance(a, PlaceAgent) for a in legal)
    seat = state.first_seat
    after = ENGINE.apply(state, seat, legal[0]).state
    assert after.turn == 1 - seat and after.step is TurnStep.PLACE
    assert all(isinstance(a, PlaceAgent) for a in ENGINE.legal_actions(after, after.turn))


def test_the_seat_range_follows_the_chosen_grid() -> None:
    engine = CadwallonEngine()
    assert engine.seat_range(CadwallonOptions()) == (2, 8)
    assert engine.seat_range(CadwallonOptions(grid=3)) == (2, 4)
    assert engine.seat_range(CadwallonOptions(grid=5)) == (2, 8)
