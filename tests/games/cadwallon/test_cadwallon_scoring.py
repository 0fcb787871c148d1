"""Scoring, conditions, contracts and the ranking (digest §2.8-2.9, §8-9; scenarios 17-26, 38)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from games.cadwallon.cards import seat_allowance
from games.cadwallon.models import CadwallonOptions, EndReason, EndTurn, Guild, GuildScore, PlaceAgent, ScoreBreakdown
from games.cadwallon.scoring import TableContext, crests, rank_scores, score_seat, score_table
from games.cadwallon.state import CadwallonState
from games.core.models import Event, Outcome
from tests.games.cadwallon.helpers import ENGINE, act, build, grid_of, of_kind

USU = ("USU-1", "USU-2", "USU-3", "USU-4")


def total(
    captured: Sequence[str], played: Sequence[str] = (), hand_size: int = 0, *, grid: int = 3, **kwargs: Any
) -> int:
    return score_seat(0, captured, played, hand_size, grid=grid, **kwargs).total


def guild(breakdown: ScoreBreakdown, name: str) -> GuildScore:
    return next(g for g in breakdown.guilds if g.guild.value == name)


def finish(n: int = 2, **kwargs: Any) -> tuple[CadwallonState, list[Event]]:
    """End a game right now (a third dry round) with the given holdings; return the final state and events."""
    state = build(grid_of({"B1": "P1", "B2": "P2"}), n=n, supply=[1] + [0] * (n - 1), stalled=2, **kwargs)
    state, events = act(state, PlaceAgent(boulevard="B1E"))
    if state.turn is not None:  # a playable card in hand: the action step comes first
        state, more = act(state, EndTurn())
        events += more
    assert state.end_reason is EndReason.STALLED
    return state, events


def breakdowns(state: CadwallonState) -> tuple[ScoreBreakdown, ...]:
    """Return the final score breakdown of each seat (the game must be over)."""
    assert state.result is not None
    return state.result


def outcome(state: CadwallonState) -> Outcome:
    """Return the engine's outcome (the game must be over)."""
    result = ENGINE.outcome(state)
    assert result is not None
    return result


# ----------------------------------------------------------------------------- the seed's example (17)
def test_scenario_17_seed_example_scores_twelve() -> None:
    breakdown = score_seat(0, ("USU-4", "USU-1", "JEW-2", "P3", "M01", "M02"), ("A05",), 0, grid=3)
    assert breakdown.total == 12
    usu, jew = guild(breakdown, "USU"), guild(breakdown, "JEW")
    assert (usu.gp, usu.cards, usu.personalities, usu.points) == (4, 3, 1, 12)
    assert (jew.gp, jew.cards, jew.points) == (2, 1, 2)
    assert (breakdown.action_cards, breakdown.action_points) == (1, 2)
    assert (breakdown.militia_pp, breakdown.militia_penalty) == (2, 4)
    # The same count with the action card still in hand.
    assert total(("USU-4", "USU-1", "JEW-2", "P3", "M01", "M02"), (), 1) == 12


def test_seed_example_through_the_engine() -> None:
    state, events = finish(captured={0: ("USU-4", "USU-1", "JEW-2", "P3", "M01", "M02")}, hands={0: ("A05",)})
    result = breakdowns(state)[0]
    assert result.total == 12 and state.scores == (12, 0) and state.ranks == (0, 1)
    scored = of_kind(events, "game_scored")[0]
    assert scored.scores == (12, 0) and scored.breakdowns[0].guilds[0].personalities == 1
    assert outcome(state).ranks == (0, 1) and outcome(state).scores == (12.0, 0.0)
    shown = ENGINE.view(state, None).result
    assert shown is not None and shown[0].total == 12


# ----------------------------------------------------------------------------- Creditors (18-21)
def test_scenario_18_creditor_adds_one() -> None:
    assert total(("USU-C", "USU-1", "USU-2"), grid=4) == (3 + 1) * 2 + 1


def test_scenario_19_full_guild_creditor_adds_five_not_six() -> None:
    breakdown = score_seat(0, ("USU-C", *USU), (), 0, grid=4)
    assert breakdown.total == 7 * 4 + 5 == 33
    assert guild(breakdown, "USU").creditor_bonus == 5


def test_scenario_20_revision_2_a_personality_completes_the_four() -> None:
    """Revision 2 (digest scenario 20 said 25): the personality joins the Usurers, four cards earn +5."""
    breakdown = score_seat(0, ("USU-C", "USU-1", "USU-2", "USU-3", "P1"), (), 0, grid=4)
    assert breakdown.total == 6 * 4 + 5 == 29
    assert guild(breakdown, "USU").creditor_bonus == 5


def test_revision_2_a_creditor_draws_personalities_to_its_guild() -> None:
    """Two personalities go to the Creditor's two-member guild (4 cards, +5), not one by one to the best points."""
    breakdown = score_seat(0, ("USU-C", "USU-2", "USU-4", "JEW-1", "JEW-2", "P1", "P2"), (), 0, grid=4)
    # Usurers 2 GP × 4 + 5 = 13 and Jewelers 5 × 2 = 10 → 23; both to the Jewelers: 2 × 2 + 1 + 5 × 4 = 25.
    assert breakdown.total == 25
    breakdown = score_seat(0, ("USU-C", "USU-1", "USU-3", "JEW-4", "P1", "P2"), (), 0, grid=4)
    # Usurers (3 + 2) × 4 + 5 = 25, Jeweler 1 → 26; one each: 5 × 3 + 1 + 1 × 2 = 18.
    assert breakdown.total == 26 and guild(breakdown, "USU").creditor_bonus == 5


def test_revision_2_a_creditor_and_four_personalities() -> None:
    """Four personalities in a Creditor's guild without members make four cards: 0 points but the +5."""
    assert total(("USU-C", "P1", "P2", "P3", "P4"), grid=4) == 5


def test_scenario_21_no_creditor_no_bonus_and_a_lonely_creditor() -> None:
    assert total(USU, grid=4) == 28
    breakdown = score_seat(0, ("ZOD-C",), (), 0, grid=4)
    assert breakdown.total == 1 and guild(breakdown, "ZOD").creditor_bonus == 1 and breakdown.crests == 1


# ----------------------------------------------------------------------------- personalities (22-23, §8.2)
def test_scenario_22_personality_skips_a_full_guild() -> None:
    breakdown = score_seat(0, (*USU, "JEW-1", "JEW-4", "P1"), (), 0, grid=3)
    assert guild(breakdown, "JEW").personalities == 1 and guild(breakdown, "JEW").points == 4 * 3 == 12
    assert guild(breakdown, "USU").personalities == 0 and breakdown.total == 28 + 12


def test_scenario_23_both_personalities_to_the_richer_guild() -> None:
    breakdown = score_seat(0, ("JEW-1", "BLA-1", "P1", "P2"), (), 0, grid=3)
    assert breakdown.total == 3 * 3 + 2 * 1 == 11
    assert guild(breakdown, "JEW").personalities == 2


def test_unplaceable_personality_scores_nothing() -> None:
    breakdown = score_seat(0, (*USU, "P1"), (), 0, grid=3)
    assert breakdown.total == 28 and breakdown.personality_cards == ("P1",)


# ----------------------------------------------------------------------------- actions, militia (24-25)
def test_scenario_24_actions_in_hand_and_played() -> None:
    assert total((), ("A01",), 2) == 6
    assert total((), ("A01",), 2, condition="C04") == 9


def test_scenario_25_militia_penalty() -> None:
    assert total(("M01", "M02", "M04")) == -12
    assert total(("M01", "M02", "M04"), condition="C01") == -4


# ----------------------------------------------------------------------------- ranking (26, §9)
def test_scenario_26_tie_break_by_distinct_crests() -> None:
    three = ("USU-1", "JEW-2", "BLA-4")
    two = ("USU-4", "USU-2", "JEW-3")
    assert total(three) == total(two) == 6 and (crests(three), crests(two)) == (3, 2)
    state, _ = finish(captured={0: two, 1: three})
    assert state.scores == (6, 6) and state.ranks == (1, 0)
    assert [b.crests for b in breakdowns(state)] == [2, 3]
    state, _ = finish(captured={0: three, 1: ("USU-3", "ZOD-3", "BLA-1")})
    assert state.scores == (6, 6) and state.ranks == (0, 0)


def test_creditor_counts_as_a_crest_and_personality_does_not() -> None:
    assert crests(("USU-1", "ZOD-C", "P1", "M01")) == 2
    assert rank_scores([10, 10, 10], [2, 3, 3], []) == (2, 0, 0)


# ----------------------------------------------------------------------------- conditions
def test_c02_guild_charter_lets_a_fifth_card_in() -> None:
    assert total((*USU, "P1")) == 28
    assert total((*USU, "P1"), condition="C02") == 7 * 5


def test_c05_free_spirits() -> None:
    breakdown = score_seat(0, ("USU-1", "P1", "P2"), (), 0, grid=3, condition="C05")
    assert breakdown.total == 3 + 4 and breakdown.unassigned == 2 and breakdown.free_spirit_points == 4


def test_c06_no_loners() -> None:
    assert total(("USU-1",), condition="C06") == 0
    assert total(("USU-1", "P1"), condition="C06") == 6
    assert total(("USU-C", "USU-1"), grid=4, condition="C06") == 1
    assert guild(score_seat(0, ("USU-1",), (), 0, grid=3, condition="C06"), "USU").loner


def test_c10_great_guilds() -> None:
    assert total(USU, condition="C10") == 31
    assert total(("USU-1", "USU-2", "USU-3", "P1"), condition="C10") == 6 * 4 + 3


def test_c11_austerity() -> None:
    breakdown = score_seat(0, ("USU-1", "JEW-2", "BLA-1"), (), 0, grid=3, condition="C11")
    assert breakdown.austerity_loss == 2 and breakdown.total == 3 + 2 + 2 - 2
    assert total(("USU-1",), condition="C11") == 3


def test_c12_informers() -> None:
    state, _ = finish(n=3, condition="C12", captured={0: ("M01",), 1: ("M02",), 2: ("USU-1",)})
    assert state.scores == (-6, -6, 3)
    assert breakdowns(state)[0].informer_penalty == 5 and breakdowns(state)[2].informer_penalty == 0
    state, _ = finish(n=3, condition="C12", captured={0: ("M01", "M02"), 1: ("M03",)})
    assert state.scores == (-4 - 5, -1, 0)


# ----------------------------------------------------------------------------- contracts
def contract_total(
    contract: str,
    captured: Sequence[str],
    played: Sequence[str] = (),
    hand: Sequence[str] = (),
    *,
    grid: int = 3,
    rivals: Mapping[Guild, int] | None = None,
    best: Mapping[str, int] | None = None,
    players: int = 3,
) -> tuple[bool, int]:
    context = TableContext(rival_members=rivals or {}, most_militia=False, rival_best=best or {}, players=players)
    breakdown = score_seat(0, captured, played, len(hand), grid=grid, hand=hand, contract=contract, context=context)
    return breakdown.contract_met, breakdown.contract_points


def test_scenario_38_patron_needs_strictly_most() -> None:
    results = score_table(
        [("USU-1", "USU-2"), ("USU-3", "USU-4")], [(), ()], [(), ()], grid=3, condition=None, contracts=["K01", None]
    )
    assert not results[0].contract_met and results[0].contract_points == 0
    results = score_table(
        [("USU-1", "USU-2"), ("USU-3",)], [(), ()], [(), ()], grid=3, condition=None, contracts=["K01", None]
    )
    assert results[0].contract_met and results[0].total == 4 * 2 + 5


@pytest.mark.parametrize(
    ("contract", "captured", "met"),
    [
        ("K02", ("JEW-1",), True),
        ("K03", ("BLA-1",), True),
        ("K04", ("ZOD-1",), True),
        ("K04", ("ZOD-C",), False),
        ("K02", ("P1",), False),
    ],
)
def test_patron_contracts(contract: str, captured: tuple[str, ...], met: bool) -> None:
    assert contract_total(contract, captured, grid=4) == (met, 5 if met else 0)


@pytest.mark.parametrize(("contract", "guild_"), [("K11", "THI"), ("K12", "FER"), ("K13", "ARC"), ("K14", "ALC")])
def test_expansion_patron_contracts(contract: str, guild_: str) -> None:
    assert contract_total(contract, (f"{guild_}-1",), grid=4) == (True, 5)
    assert contract_total(contract, (f"{guild_}-1",), grid=4, rivals={Guild(guild_): 1}) == (False, 0)


@pytest.mark.parametrize(
    ("contract", "captured", "played", "hand", "best", "expected"),
    [
        # Revision 2: each contract compares the holder with the best of the other seats (``best``).
        ("K05", ("USU-1",), (), (), 0, (True, 4)),
        ("K05", ("M01",), (), (), 1, (True, 4)),
        ("K05", ("M01",), (), (), 0, (False, 0)),
        ("K06", ("P1", "P2"), (), (), 2, (True, 4)),
        ("K06", ("P1",), (), (), 2, (False, 0)),
        ("K06", (), (), (), 0, (False, 0)),
        ("K07", ("USU-1", "USU-2", "USU-3", "P1"), (), (), 4, (True, 4)),
        ("K07", ("USU-1", "USU-2", "P1"), (), (), 4, (False, 0)),
        ("K07", ("USU-1", "USU-2", "P1", "P2", "P3"), (), (), 5, (True, 4)),
        ("K08", (), (), ("A01", "A02"), 2, (True, 4)),
        ("K08", (), (), ("A01", "A02", "A03", "A04"), 1, (True, 6)),
        ("K08", (), ("A01",), (), 0, (False, 0)),
        ("K09", ("USU-1", "JEW-1", "BLA-1", "ZOD-1"), (), (), 3, (True, 4)),
        ("K09", ("USU-1", "JEW-1", "BLA-1", "ZOD-1"), (), (), 4, (True, 4)),
        ("K09", ("USU-1", "JEW-1", "BLA-1"), (), (), 4, (False, 0)),
        ("K09", ("USU-1", "JEW-1", "BLA-1", "ZOD-C"), (), (), 2, (True, 4)),
        ("K10", ("USU-1", "USU-2", "USU-3", "JEW-1"), (), (), 1, (True, 4)),
        ("K10", ("USU-1", "USU-2", "P1", "JEW-1"), (), (), 0, (False, 0)),
        ("K15", ("USU-C", "JEW-C"), (), (), 2, (True, 5)),
        ("K15", ("USU-C",), (), (), 2, (False, 0)),
        ("K16", ("M01", "M02"), (), (), 2, (True, 6)),
        ("K16", ("M01",), (), (), 2, (False, 0)),
        ("K17", ("USU-1", "ZOD-2", "M01"), ("A01",), ("A05",), 5, (True, 4)),
        ("K17", ("USU-1", "ZOD-2", "M01"), ("A01",), ("A06",), 5, (False, 0)),
        ("K18", (), ("A01", "A02", "A03"), (), 3, (True, 4)),
        ("K18", (), ("A01", "A02"), (), 3, (False, 0)),
        ("K19", ("USU-1", "JEW-1", "BLA-C"), (), (), 2, (True, 6)),
        ("K19", ("USU-1", "JEW-1", "BLA-C"), (), (), 3, (False, 0)),
        ("K19", ("USU-1", "JEW-1", "P1"), (), (), 3, (False, 0)),
        ("K20", USU, (), (), 28, (True, 5)),
        ("K20", ("ZOD-1", "ZOD-2", "ZOD-3", "P1"), (), (), 24, (True, 5)),
        ("K20", ("ZOD-1", "ZOD-2", "ZOD-3"), (), (), 24, (False, 0)),
    ],
)
def test_contracts(
    contract: str,
    captured: tuple[str, ...],
    played: tuple[str, ...],
    hand: tuple[str, ...],
    best: int,
    expected: tuple[bool, int],
) -> None:
    assert contract_total(contract, captured, played, hand, grid=4, best={contract: best}) == expected


@pytest.mark.parametrize("contract", ["K06", "K07", "K09"])
def test_revision_2_some_ties_count_only_from_three_players(contract: str) -> None:
    """Friends at Court, Full Roster and Wide Network: a tie for the most counts at 3+ players, not at 2."""
    captured = ("USU-1", "JEW-1", "BLA-1", "ZOD-1", "P1")
    mine = {"K06": 1, "K07": 2, "K09": 4}[contract]
    assert contract_total(contract, captured, best={contract: mine}, players=3)[0]
    assert not contract_total(contract, captured, best={contract: mine}, players=2)[0]
    assert contract_total(contract, captured, best={contract: mine - 1}, players=2)[0]


@pytest.mark.parametrize("players", [2, 4, 5, 8])
def test_revision_2_a_patron_tie_counts_from_five_players(players: int) -> None:
    """Patron of the Thieves, one Thief each: strict up to 4 players, a tie counts from 5."""
    met = contract_total("K11", ("THI-1",), grid=4, rivals={Guild.THI: 1}, players=players)
    assert met == ((True, 5) if players >= 5 else (False, 0))
    assert contract_total("K11", (), grid=4, players=players) == (False, 0)


def test_revision_2_contracts_compare_with_the_table() -> None:
    """Clean Hands is the fewest militia (ties count), Friend of the Watch the most; both measured at the table."""
    captured = [("M01", "USU-1"), ("M02", "JEW-1"), ("M03", "M04", "BLA-1")]
    results = score_table(captured, [(), (), ()], [(), (), ()], grid=3, condition=None, contracts=["K05", "K05", "K16"])
    assert [r.contract_met for r in results] == [True, True, True]
    results = score_table(captured, [(), (), ()], [(), (), ()], grid=3, condition=None, contracts=["K16", "K06", "K05"])
    assert [r.contract_met for r in results] == [False, False, False]


def test_revision_2_a_contract_counts_members_not_the_assignment() -> None:
    """Three of a Kind counts guilds with 3 members: personalities go where they score most either way."""
    captured = ("USU-4", "USU-2", "JEW-1", "JEW-2", "P1", "P2")
    plain = score_seat(0, captured, (), 0, grid=3)
    assert plain.total == 5 * 4 + 2 * 2 and guild(plain, "JEW").personalities == 2
    three = score_seat(0, captured, (), 0, grid=3, contract="K10")
    assert not three.contract_met and three.total == plain.total and guild(three, "JEW").personalities == 2


def test_contracts_count_in_the_final_score_but_not_live() -> None:
    state = build(grid_of({"B1": "P1", "B2": "P2"}), supply=[1, 0], stalled=2, captured={0: ("USU-1",)})
    state = state.model_copy(update={"contracts": ("K05", "K06"), "contracts_on": True})
    assert ENGINE.view(state, None).players[0].live_score == 3
    final, _ = act(state, PlaceAgent(boulevard="B1E"))
    assert final.scores == (3 + 4, 0) and breakdowns(final)[0].contract == "K05" and breakdowns(final)[0].contract_met
    assert ENGINE.view(final, None).players[1].contract == "K06"


# ----------------------------------------------------------------------------- seat allowance (revision 2)
def test_revision_2_seat_allowance_by_place_in_round_1_order() -> None:
    """3×3, 3 players, seat 1 First Player of round 1: places 2, 0, 1 get 4, 0 and 2 points, live and final."""
    state = build(grid_of({"B1": "P1", "B2": "P2"}), n=3, supply=[1, 0, 0], stalled=2, first=0)
    state = state.model_copy(update={"opening_seat": 1})
    assert [p.live_score for p in ENGINE.view(state, None).players] == [4, 0, 2]
    final, _ = act(state, PlaceAgent(boulevard="B1E"))
    assert final.scores == (4, 0, 2)
    assert [b.seat_points for b in breakdowns(final)] == [4, 0, 2]


@pytest.mark.parametrize(
    ("grid", "players", "row"),
    [
        (4, 2, (0, 2)),
        (4, 4, (0, 1, 1, 2)),
        (4, 8, (0, 0, 1, 1, 1, 1, 2, 2)),
        (5, 2, (0, 5)),
        (5, 5, (0, 1, 2, 4, 5)),
        (5, 8, (0, 1, 1, 2, 3, 4, 4, 5)),
    ],
)
def test_revision_3_allowance_on_4x4_and_5x5(grid: int, players: int, row: tuple[int, ...]) -> None:
    """Revision 3: the last place of round 1 gets 2 points on 4×4 and 5 on 5×5, a straight line between."""
    assert tuple(seat_allowance(grid, players, place) for place in range(players)) == row
    state = ENGINE.setup(players, CadwallonOptions(grid=grid, first_seat=1), "rev3").state
    assert [p.live_score for p in ENGINE.view(state, None).players] == [row[(s - 1) % players] for s in range(players)]


def test_a_table_set_up_before_revision_2_gets_no_allowance() -> None:
    state, _ = finish(n=3)
    assert state.opening_seat is None and state.scores == (0, 0, 0)


def test_setup_records_the_opening_seat() -> None:
    state = ENGINE.setup(3, CadwallonOptions(grid=3, first_seat=2), "open").state
    assert state.opening_seat == 2 and state.first_seat == 2
    assert [p.live_score for p in ENGINE.view(state, None).players] == [2, 4, 0]
