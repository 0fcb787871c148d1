"""Support and Capture (digest §5.4-5.5, §7; scenarios 4-7, 14-16, 32-35)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from games.cadwallon.models import CaptureOutcome, EndReason, Phase, PlaceAgent, TurnStep
from games.cadwallon.state import CadwallonState, Mark
from games.core.models import Event
from tests.games.cadwallon.helpers import ENGINE, act, build, captures, grid_of, of_kind, public, support_of

DECK = ("USU-4", "BLA-4", "M01", "M02", "P1", "P2", "P3", "P4", "A01")


def last_place(
    cards: Mapping[str, str],
    agents: Sequence[tuple[int, str]],
    boulevard: str,
    *,
    deck: Sequence[str] = DECK,
    **kwargs: Any,
) -> tuple[CadwallonState, list[Event]]:
    """Seat 0 places its last agent on ``boulevard`` (everyone else has placed all): Capture follows."""
    n = kwargs.pop("n", 2)
    state = build(grid_of(cards), n=n, agents=agents, supply=[1] + [0] * (n - 1), deck=deck, **kwargs)
    return act(state, PlaceAgent(boulevard=boulevard))


# ----------------------------------------------------------------------------- support (§5.4.2)
def test_scenario_4_one_agent_supports_both_sides_with_the_card_across() -> None:
    state, events = last_place({"B1": "USU-1", "B2": "BLA-3"}, [], "B1E")
    assert support_of(events, "B1") == {0: 3}
    assert support_of(events, "B2") == {0: 1}
    result = captures(events)
    assert result["B1"].seat == 0 and result["B1"].card == "USU-1" and result["B1"].support == 3
    assert result["B2"].seat == 0 and result["B2"].support == 1
    assert set(state.captured[0]) == {"USU-1", "BLA-3"}


def test_support_sums_over_every_agent_beside_the_card() -> None:
    # B2 = USU-1 between B1 = BLA-3 (S 3), B3 = BLA-2 (S 2), A2 = JEW-1 (S 1).
    cards = {"B2": "USU-1", "B1": "BLA-3", "B3": "BLA-2", "A2": "JEW-1"}
    _, events = last_place(cards, [(0, "B2E"), (1, "A2S")], "B1E")
    assert support_of(events, "B2") == {0: 3 + 2, 1: 1}
    assert captures(events)["B2"].seat == 0


def test_scenario_5_personality_gives_nothing_across() -> None:
    _, events = last_place({"B1": "P1", "B2": "JEW-3"}, [], "B1E")
    assert support_of(events, "B2") == {0: 0}
    assert captures(events)["B2"].outcome is CaptureOutcome.NO_SUPPORT
    assert support_of(events, "B1") == {0: 2}
    assert captures(events)["B1"].seat == 0


def test_scenario_6_tie_stays_and_the_next_reveal_skips_its_slot() -> None:
    cards = {"B1": "BLA-3", "B2": "JEW-3", "B3": "USU-2"}
    state, events = last_place(cards, [(1, "B2E")], "B1E")
    result = captures(events)
    assert result["B2"].kind == "card_stayed" and result["B2"].outcome is CaptureOutcome.TIE
    assert result["B2"].tied == (0, 1) and support_of(events, "B2") == {0: 3, 1: 3}
    assert result["B1"].seat == 0 and result["B3"].seat == 1
    revealed = of_kind(events, "cards_revealed")[0]
    assert [c.slot for c in revealed.cards] == ["B1", "B3"]
    assert state.slots[4] == "JEW-3" and state.round == 3
    assert state.last_capture[4].outcome is CaptureOutcome.TIE


def test_scenario_7_agents_facing_only_personalities_win_nothing() -> None:
    cards = {"B2": "USU-1", "A2": "P1", "B1": "P2", "B3": "P3", "C2": "P4"}
    _, events = last_place(cards, [(0, "A2S"), (1, "B2E"), (1, "B2S")], "B1E")
    assert support_of(events, "B2") == {0: 0, 1: 0}
    assert captures(events)["B2"].outcome is CaptureOutcome.NO_SUPPORT
    assert captures(events)["A2"].seat == 0  # the personalities still feel USU-1's S 1


def test_unsupported_card_without_agents_stays() -> None:
    _, events = last_place({"B1": "USU-1", "B2": "BLA-3"}, [], "B1E")
    assert captures(events)["C3"].outcome is CaptureOutcome.NO_SUPPORT
    assert captures(events)["C3"].supports == ()


# ----------------------------------------------------------------------------- marks at Capture
def test_scenario_32_curfew_keeps_a_clearly_won_card() -> None:
    _, events = last_place({"B1": "USU-1", "B2": "BLA-3"}, [], "B1E", marks=[("A09", 1, "USU-1")])
    assert captures(events)["B1"].outcome is CaptureOutcome.CURFEW
    assert support_of(events, "B1") == {0: 3}
    assert captures(events)["B2"].seat == 0


def test_scenario_33_slander_zeroes_the_marked_card() -> None:
    _, events = last_place({"B1": "USU-1", "B2": "BLA-3"}, [], "B1E", marks=[("A08", 1, "BLA-3")])
    assert support_of(events, "B1") == {0: 0}
    assert captures(events)["B1"].outcome is CaptureOutcome.NO_SUPPORT
    assert support_of(events, "B2") == {0: 1}
    assert captures(events)["B2"].seat == 0


#: USU-1 at B2 between four S 2 cards: a Blade, a militia, an action and a Jeweler.
TIE_4 = {"B2": "USU-1", "B1": "BLA-2", "A2": "M03", "B3": "A05", "C2": "JEW-3"}
TIE_AGENTS = [(0, "A2S"), (1, "B2E"), (1, "B2S")]


def test_scenario_34_tie_without_help_stays() -> None:
    _, events = last_place(TIE_4, TIE_AGENTS, "B1E")
    assert support_of(events, "B2") == {0: 4, 1: 4}
    assert captures(events)["B2"].outcome is CaptureOutcome.TIE


def test_scenario_34_arbitration_wins_a_tie() -> None:
    _, events = last_place(TIE_4, TIE_AGENTS, "B1E", marks=[("A14", 1, "USU-1")])
    result = captures(events)["B2"]
    assert (result.seat, result.outcome, result.support) == (1, CaptureOutcome.ARBITRATION, 4)
    # Arbitration only helps a tied holder: a mark by a seat that is not tied does nothing.
    _, events = last_place(TIE_4, TIE_AGENTS, "B1E", n=3, marks=[("A14", 2, "USU-1")])
    assert captures(events)["B2"].outcome is CaptureOutcome.TIE


@pytest.mark.parametrize(("first", "winner"), [(0, 0), (1, 1)])
def test_scenario_34_precedence_under_c03(first: int, winner: int) -> None:
    _, events = last_place(TIE_4, TIE_AGENTS, "B1E", condition="C03", first=first, turn=0)
    result = captures(events)["B2"]
    assert (result.seat, result.outcome) == (winner, CaptureOutcome.PRECEDENCE)


def test_bribe_adds_two_only_beside_the_card() -> None:
    _, events = last_place(TIE_4, TIE_AGENTS, "B1E", marks=[("A07", 0, "USU-1")])
    assert support_of(events, "B2") == {0: 6, 1: 4}
    assert captures(events)["B2"].seat == 0
    # Seat 0 has no agent beside C3: its bribe there adds nothing.
    _, events = last_place(TIE_4, TIE_AGENTS, "B1E", marks=[("A07", 0, "M05")])
    assert 0 not in support_of(events, "C3")


def test_rally_doubles_then_bribe_adds() -> None:
    _, events = last_place(TIE_4, TIE_AGENTS, "B1E", marks=[("A17", 1, "USU-1")])
    assert support_of(events, "B2") == {0: 4, 1: 8}
    _, events = last_place(TIE_4, TIE_AGENTS, "B1E", marks=[("A17", 0, "USU-1"), ("A07", 0, "USU-1")])
    assert support_of(events, "B2") == {0: 10, 1: 4}


def test_guild_tithe_and_patronage_and_heavy_patrols_change_s() -> None:
    _, events = last_place({"B1": "USU-1", "B2": "BLA-3"}, [], "B1E", marks=[("A24", 1, "USU-1")])
    assert support_of(events, "B2") == {0: 2}
    _, events = last_place({"B1": "P1", "B2": "JEW-3"}, [], "B1E", marks=[("A26", 1, "P1")])
    assert support_of(events, "B2") == {0: 2}
    _, events = last_place({"B1": "M01", "B2": "JEW-3"}, [], "B1E", condition="C07")
    assert support_of(events, "B2") == {0: 2}
    # Slander wins over every boost.
    _, events = last_place({"B1": "P1", "B2": "JEW-3"}, [], "B1E", marks=[("A26", 1, "P1"), ("A08", 1, "P1")])
    assert support_of(events, "B2") == {0: 0}


def test_an_agent_double_agent_turned_supports_nobody() -> None:
    state = build(grid_of(TIE_4), agents=TIE_AGENTS, supply=[1, 0], deck=DECK)
    turned = state.agents[1].model_copy(update={"turned": True})
    state = state.model_copy(update={"agents": (state.agents[0], turned, state.agents[2])})
    _, events = act(state, PlaceAgent(boulevard="B1E"))
    assert support_of(events, "B2") == {0: 4, 1: 2}


# ----------------------------------------------------------------------------- what moves where
def test_won_action_card_joins_the_hidden_hand() -> None:
    state, events = last_place({"B1": "USU-1", "B2": "A05"}, [], "B1E")
    assert state.hands[0] == ("A05",) and "A05" not in state.captured[0]
    won = [e for e in of_kind(events, "card_captured") if e.slot == "B2"]
    assert [(e.card, e.visible_to) for e in won] == [("A05", frozenset({0})), (None, None)]
    assert ENGINE.view(state, 0).last_capture[4].card == "A05"
    assert ENGINE.view(state, 1).last_capture[4].card is None
    assert ENGINE.view(state, None).last_capture[4].card is None
    assert ENGINE.view(state, None).players[0].hand_size == 1


def test_open_books_publishes_a_won_action_card() -> None:
    state, events = last_place({"B1": "USU-1", "B2": "A05"}, [], "B1E", condition="C09")
    won = [e for e in of_kind(events, "card_captured") if e.slot == "B2"]
    assert [(e.card, e.visible_to) for e in won] == [("A05", None)]
    assert ENGINE.view(state, None).players[0].hand == ("A05",)
    assert ENGINE.view(state, 1).last_capture[4].card == "A05"


def test_round_end_clears_the_board_and_passes_the_first_player() -> None:
    state, events = last_place(
        {"B1": "USU-1", "B2": "BLA-3"}, [], "B1E", n=3, marks=[("A07", 1, "M05")], protected=[1], first=2
    )
    assert of_kind(events, "round_ended")[0].next_first_seat == 0
    assert state.first_seat == 0 and state.turn == 0 and state.step is TurnStep.PLACE
    assert state.agents == () and state.marks == () and state.protected == () and state.barricade is None
    assert state.supply == (6, 6, 6) and state.round == 3 and not state.actions_closed


def test_scenario_35_ducal_favour_takes_the_first_player_card() -> None:
    state = build(grid_of({"B1": "USU-1", "B2": "BLA-3"}), n=3, supply=[0, 0, 1], deck=DECK, turn=2, first=0)
    state = state.model_copy(update={"favour": 2})
    state, events = act(state, PlaceAgent(boulevard="B1E"))
    ended = of_kind(events, "round_ended")[0]
    assert ended.next_first_seat == 2 and ended.by_favour
    assert state.first_seat == 2 and state.turn == 2 and state.favour is None


# ----------------------------------------------------------------------------- end of the game (§7)
def test_scenario_14_reveal_short_of_cards_ends_the_game() -> None:
    # Seat 0 wins four cards; the deck holds 3: nothing is dealt and the game is over.
    cards = {"B1": "USU-1", "B2": "BLA-3", "C1": "USU-2", "C2": "BLA-4"}
    state, events = last_place(cards, [(1, "C1E")], "B1E", deck=("M01", "M02", "P1"))
    assert sum(1 for e in public(events) if e.kind == "card_captured") == 4
    assert not of_kind(events, "cards_revealed")
    ended = of_kind(events, "game_ended")[0]
    assert (ended.reason, ended.deck_size, ended.empty_slots) == (EndReason.DECK_EXHAUSTED, 3, 4)
    assert state.phase is Phase.FINISHED and state.deck == ("M01", "M02", "P1")
    assert state.slots.count(None) == 4 and ENGINE.outcome(state) is not None
    assert not ENGINE.active_seats(state) and ENGINE.legal_actions(state, 0) == []


def test_scenario_15_exact_deck_refills_and_goes_on() -> None:
    cards = {"B1": "USU-1", "B2": "BLA-3", "C1": "USU-2", "C2": "BLA-4"}
    state, events = last_place(cards, [(1, "C1E")], "B1E", deck=("M01", "M02", "P1", "P2"))
    revealed = of_kind(events, "cards_revealed")[0]
    assert [c.card for c in revealed.cards] == ["M01", "M02", "P1", "P2"] and revealed.deck_left == 0
    assert state.phase is Phase.DEPLOY and state.deck == () and all(state.slots)


def test_scenario_16_three_rounds_without_capture_end_the_game() -> None:
    cards = {"B1": "P1", "B2": "P2"}
    state, events = last_place(cards, [], "B1E", stalled=1)
    assert state.stalled_rounds == 2 and state.phase is Phase.DEPLOY
    assert of_kind(events, "round_ended")[0].stalled_rounds == 2
    state, events = last_place(cards, [], "B1E", stalled=2)
    assert state.phase is Phase.FINISHED and state.end_reason is EndReason.STALLED
    assert of_kind(events, "game_ended")[0].reason is EndReason.STALLED
    assert of_kind(events, "game_scored")


def test_a_capture_resets_the_stall_count() -> None:
    state, _ = last_place({"B1": "USU-1", "B2": "BLA-3"}, [], "B1E", stalled=2)
    assert state.stalled_rounds == 0 and state.phase is Phase.DEPLOY


def test_three_dry_rounds_through_play() -> None:
    """Curfew on every grid card each round: the third Capture without a winner ends the game."""
    state = build(grid_of({}), supply=[1, 1], per=1)
    for _ in range(3):
        assert state.phase is Phase.DEPLOY
        curfew = tuple(Mark(card="A09", seat=0, target=c) for c in state.slots if c is not None)
        state = state.model_copy(update={"marks": curfew})
        state, _ = act(state, PlaceAgent(boulevard="A1E"), PlaceAgent(boulevard="A2E"))
    assert state.end_reason is EndReason.STALLED and state.round == 4  # rounds 2, 3 and 4
