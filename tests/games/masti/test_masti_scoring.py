"""End-of-game scoring (spec §6-8), including both worked examples of the rulebook."""

from __future__ import annotations

import pytest

from games.masti.models import Guild
from games.masti.scoring import (
    Pile,
    choose_counted,
    pile_points,
    power_points,
    rank_units,
    score_unit,
    score_units,
)


def solo(cards: list[str], gems: int = 0):
    return score_unit((0,), {0: cards}, {0: gems})


def pile(guild: Guild, symbols: int, owner: int = 0) -> Pile:
    return Pile(owner, guild, (), symbols)


# ----------------------------------------------------------------------------- scenario 18, 19
def test_pile_table() -> None:
    assert [pile_points(s) for s in range(9)] == [0, 1, 3, 6, -1, -3, -6, 10, 15]
    with pytest.raises(ValueError, match="9 symbols"):
        pile_points(9)


@pytest.mark.parametrize(
    ("cards", "symbols", "points"),
    [
        (["P05"], 1, 1),
        (["P05", "E05"], 2, 3),
        (["P05", "E05", "E07"], 3, 6),
        (["P05", "E05", "E07", "U10"], 4, -1),
        (["P05", "E05", "E07", "U10", "A12"], 5, -3),
        (["P05", "E05", "U09"], 4, -1),  # U09 is a double: 1 + 1 + 2
        (["P05", "E05", "E07", "U09", "U10"], 6, -6),
        (["P05", "E05", "E07", "U09", "U10", "A12"], 7, 10),
    ],
)
def test_piles_score_by_symbols(cards: list[str], symbols: int, points: int) -> None:
    unit = solo(cards)
    assert unit.piles[0].symbols == symbols
    assert unit.total == points


def test_power_bonus_penalty_gems() -> None:
    assert [power_points(n) for n in range(5)] == [0, -1, -3, -6, 10]
    assert solo(["A13"]).total == -1
    assert solo(["A13", "P13"]).total == -3
    assert solo(["A13", "P13", "E13"]).total == -6
    assert solo(["A13", "P13", "E13", "U13"]).total == 10
    mixed = solo(["A03", "P03", "E02"])
    assert (mixed.bonus_points, mixed.penalty_points, mixed.total) == (4, -2, 2)
    assert solo([], gems=3).total == 3


# ----------------------------------------------------------------------------- jokers (§6.1), scenarios 20-23
def test_joker_is_mandatory_even_when_it_costs() -> None:
    unit = solo(["U04", "E06", "A10", "P01"])  # MER 3 + joker
    assert unit.piles[0].joker == "P01"
    assert unit.total == -1


def test_joker_goes_where_it_gains_most() -> None:
    unit = solo(["E04", "A06", "U07", "P09", "P11", "U04", "E06", "A10", "A01"])  # ASS 6, MER 3
    ass = next(p for p in unit.piles if p.guild is Guild.ASSASSINS)
    mer = next(p for p in unit.piles if p.guild is Guild.MERCHANTS)
    assert (ass.symbols, ass.joker, ass.points) == (6, "A01", 10)
    assert (mer.joker, mer.points) == (None, 6)
    assert unit.total == 16


def test_second_joker_is_discarded_but_counts_as_won() -> None:
    unit = solo(["A05", "U05", "A01", "P01"])  # ART 2 + two jokers
    assert unit.piles[0].joker == "A01" and unit.piles[0].points == 6
    assert unit.discarded_jokers == ("P01",)
    assert unit.won_cards == 4
    assert unit.total == 6


def test_joker_without_piles_is_discarded() -> None:
    unit = solo(["A01", "A13"])
    assert unit.piles == () and unit.discarded_jokers == ("A01",)
    assert unit.total == -1


def test_equal_gains_go_to_the_earliest_guild() -> None:
    unit = solo(["P05", "A05", "U05", "U04", "E06", "P01"])  # ARI 1, ART 2, MER 2
    placed = {p.guild: p.joker for p in unit.piles}
    # gains: ARI 1 -> 2 = +2, ART 2 -> 3 = +3, MER 2 -> 3 = +3: ART wins the tie by guild order.
    assert placed == {Guild.ARISTOCRATS: None, Guild.ARTISTS: "P01", Guild.MERCHANTS: None}


# ----------------------------------------------------------------------------- scenario 24
def test_rulebook_solo_example_totals_19() -> None:
    cards = ["E09", "E04", "A06", "U07", "P09", "P11", "P01", "A05", "U05", "U04", "E06", "A10", "A13", "E13"]
    unit = solo(cards)
    points = {p.guild: (p.symbols, p.joker, p.points) for p in unit.piles}
    assert points == {
        Guild.KNIGHTS: (2, None, 3),
        Guild.ASSASSINS: (6, "P01", 10),
        Guild.ARTISTS: (2, None, 3),
        Guild.MERCHANTS: (3, None, 6),
    }
    assert unit.power_points == -3
    assert unit.total == 19


# ----------------------------------------------------------------------------- scenario 25
def test_solo_tie_breaks() -> None:
    # Same points, A with more won cards ranks first.
    more = score_unit((0,), {0: ["P05", "E05", "A02", "A03"]}, {0: 0})  # ARI 2 -> 3, -2 + 2 = 3 with 4 cards
    fewer = score_unit((1,), {1: ["P07"]}, {1: 0})  # ART 2 -> 3 with 1 card
    assert more.total == fewer.total == 3
    assert rank_units([more, fewer]) == [0, 1]
    # Equal cards: more wealth gems wins.
    g0 = score_unit((0,), {0: ["P05", "E05"]}, {0: 1})  # 3 + 1
    g1 = score_unit((1,), {1: ["P07", "A02", "A03"]}, {1: 1})  # 3 + 1, three cards
    assert g0.total == g1.total == 4
    assert rank_units([g0, g1]) == [1, 0]
    h0 = score_unit((0,), {0: ["P05", "E05", "P03", "P02"]}, {0: 1})  # 3 + 1, four cards, 1 gem
    h1 = score_unit((1,), {1: ["P07", "A02", "A03", "U02"]}, {1: 3})  # 3 - 2 + 3 = 4, four cards, 3 gems
    assert h0.total == h1.total == 4
    assert rank_units([h0, h1]) == [1, 0]
    # Still equal: a shared first place.
    s0 = score_unit((0,), {0: ["P05", "E05"]}, {0: 1})
    s1 = score_unit((1,), {1: ["U04", "E06"]}, {1: 1})
    assert rank_units([s0, s1]) == [0, 0]
    ordered = score_units([(0,), (1,), (2,)], {0: ["P05", "E05"], 1: ["U04", "E06"], 2: ["A13"]}, {0: 1, 1: 1, 2: 0})
    assert [(u.seats, u.rank) for u in ordered] == [((0,), 0), ((1,), 0), ((2,), 2)]


def test_resigned_units_rank_last_latest_highest() -> None:
    units = [score_unit((s,), {s: ["A13", "P13", "E13", "U13"] if s < 2 else []}, {s: 0}) for s in range(4)]
    assert rank_units(units, resign_order=(0, 1)) == [3, 2, 0, 0]


# ----------------------------------------------------------------------------- team scoring (§7), scenarios 27-31
def team(a: list[str], b: list[str], gems: tuple[int, int] = (0, 0)):
    return score_unit((0, 2), {0: a, 2: b}, {0: gems[0], 2: gems[1]})


def test_team_dedupe_counts_the_smaller_pile() -> None:
    unit = team(["P08", "U04", "E06", "U08"], ["A10", "P12"])  # MER 5 vs 2
    mer = {p.owner: (p.counted, p.points) for p in unit.piles}
    assert mer == {0: (False, 0), 2: (True, 3)}
    assert unit.total == 3
    unit = team(["A05", "U05"], ["P07", "A09", "P10", "E12"])  # ART 2 vs 5: 3, not -3
    assert unit.total == 3


def test_team_dedupe_prefers_the_smaller_pile_even_over_a_7() -> None:
    # The HOUSE deck has 7 symbols per guild, so 2 vs 7 cannot be dealt: checked on synthetic piles.
    counted, placed, _ = choose_counted(
        {0: {Guild.ARTISTS: pile(Guild.ARTISTS, 2, 0)}, 2: {Guild.ARTISTS: pile(Guild.ARTISTS, 7, 2)}}, {}
    )
    assert counted == {Guild.ARTISTS: 0}
    assert placed == {0: {}, 2: {}}


def test_team_jokers_only_on_own_counted_piles() -> None:
    unit = team(["P04"], ["E09", "E01"])  # KNI 1 vs 2, B's joker has no counted pile of B
    assert unit.total == 1
    assert unit.discarded_jokers == ("E01",)
    assert [(p.owner, p.counted, p.joker) for p in unit.piles] == [(0, True, None), (2, False, None)]
    unit = team(["P04"], ["E09", "E01", "P05"])  # B also holds ARI 1: the joker goes there
    assert unit.discarded_jokers == ()
    assert unit.total == 1 + 3


def test_team_equal_piles_choose_the_best() -> None:
    unit = team(["P04", "U06", "A01"], ["E09"])  # KNI 2 each, A has the joker and no other pile
    kni = {p.owner: (p.counted, p.joker, p.points) for p in unit.piles}
    assert kni == {0: (True, "A01", 6), 2: (False, None, 0)}
    assert unit.total == 6
    unit = team(["P04", "U06"], ["E09", "A01"])  # the joker is B's: B's pile counts instead
    kni = {p.owner: (p.counted, p.joker, p.points) for p in unit.piles}
    assert kni == {0: (False, None, 0), 2: (True, "A01", 6)}
    unit = team(["P04", "U06"], ["E09"])  # no difference: the lower seat's pile
    assert [(p.owner, p.counted) for p in unit.piles] == [(0, True), (2, False)]


def test_team_power_cards_count_combined() -> None:
    assert team(["A13", "P13"], ["E13", "U13"]).total == 10
    assert team(["A13"], ["E13"]).total == -3


def test_rulebook_team_example_totals_10() -> None:
    a = ["P05", "P07", "U04", "E06", "P01", "A13"]
    b = ["A05", "U05", "A09", "P10", "U08", "A10", "P12", "P04", "U13"]
    unit = team(a, b, gems=(1, 1))
    counted = {(p.guild, p.owner): (p.symbols, p.joker, p.points) for p in unit.piles if p.counted}
    assert counted == {
        (Guild.ARISTOCRATS, 0): (1, None, 1),
        (Guild.ARTISTS, 0): (2, "P01", 6),
        (Guild.MERCHANTS, 0): (2, None, 3),
        (Guild.KNIGHTS, 2): (1, None, 1),
    }
    assert (unit.power_cards, unit.power_points, unit.gems) == (2, -3, 2)
    assert unit.total == 10
    assert unit.won_cards == 15


def test_team_ranking_uses_team_totals_then_cards_then_gems() -> None:
    t0 = score_unit((0, 2), {0: ["P05"], 2: ["E05"]}, {0: 0, 2: 0})  # ARI 1 vs 1: 1 point, 2 cards
    t1 = score_unit((1, 3), {1: ["U04"], 3: []}, {1: 0, 3: 0})  # 1 point, 1 card
    assert t0.total == t1.total == 1
    assert rank_units([t0, t1]) == [0, 1]
