"""The Deploy phase: turns, the action step, shortage draws and the clock (digest §5.2-5.3, §12, §13)."""

from __future__ import annotations

from typing import Any

import pytest

from games.cadwallon.engine import ERROR_CODES
from games.cadwallon.models import (
    CadwallonOptions,
    CancelAction,
    ChooseAgent,
    ChooseBoulevard,
    ChooseSlot,
    DeployEnd,
    DrawSource,
    EndTurn,
    OrderTarot,
    PlaceAgent,
    PlayAction,
    TurnStep,
)
from games.cadwallon.state import CadwallonState
from games.core.errors import GameError, NotYourTurnError
from games.core.models import Event
from tests.games.cadwallon.helpers import ENGINE, act, build, grid_of, of_kind

DECK = ("USU-4", "BLA-4", "M01", "M02", "P1", "P2", "P3", "P4", "A01")


def until_deploy_ends(state: CadwallonState) -> tuple[CadwallonState, list[Event]]:
    """Play the clock's default actions until Deploy ends; return the state and that step's events."""
    for _ in range(500):
        assert state.turn is not None
        step = ENGINE.apply(state, state.turn, ENGINE.default_action(state, state.turn))
        state = step.state
        if of_kind(step.events, "deploy_ended"):
            return state, list(step.events)
    raise AssertionError("Deploy did not end")


def expect(code: str, state: CadwallonState, action: Any) -> None:
    assert state.turn is not None
    with pytest.raises(GameError) as error:
        ENGINE.apply(state, state.turn, action)
    assert error.value.code == code
    assert code in ERROR_CODES


# ----------------------------------------------------------------------------- placing (scenario 8)
def test_scenario_8_occupied_boulevard_is_refused() -> None:
    state = build(grid_of({}), agents=[(1, "B1E")])
    expect("cadwallon.boulevard_taken", state, PlaceAgent(boulevard="B1E"))
    assert PlaceAgent(boulevard="B1E") not in ENGINE.legal_actions(state, 0)
    assert len(ENGINE.legal_actions(state, 0)) == 11


def test_barricaded_boulevard_is_refused() -> None:
    state = build(grid_of({})).model_copy(update={"barricade": 2})
    expect("cadwallon.boulevard_taken", state, PlaceAgent(boulevard="B1E"))


def test_wrong_seat_wrong_step_and_bad_names() -> None:
    state = build(grid_of({}))
    with pytest.raises(NotYourTurnError) as error:
        ENGINE.apply(state, 1, PlaceAgent(boulevard="A1E"))
    assert error.value.code == "core.not_your_turn"
    expect("cadwallon.wrong_step", state, EndTurn())
    expect("cadwallon.wrong_step", state, PlayAction(card="A01"))
    expect("cadwallon.wrong_step", state, OrderTarot(top=()))
    expect("cadwallon.bad_target", state, PlaceAgent(boulevard="D4E"))
    expect("cadwallon.unknown_action", state, {"kind": "fly"})
    assert ENGINE.apply(state, 0, {"kind": "place", "boulevard": "A1E"}).state.agents[0].boulevard == 0
    act_state = build(grid_of({}), hands={0: ("A10",)}, step=TurnStep.ACT)
    expect("cadwallon.wrong_step", act_state, PlaceAgent(boulevard="A1E"))
    expect("cadwallon.wrong_step", act_state, CancelAction())
    expect("cadwallon.wrong_step", act_state, ChooseSlot(slot="A1"))
    expect("cadwallon.card_not_in_hand", act_state, PlayAction(card="A21"))


def test_turns_go_clockwise_from_the_first_player() -> None:
    state = build(grid_of({}), n=3, first=1, turn=1, supply=[2, 2, 2])
    seats = []
    for b in ("A1E", "A2E", "B1E", "B2E"):
        seats.append(state.turn)
        state, _ = act(state, PlaceAgent(boulevard=b))
    assert seats == [1, 2, 0, 1]


def test_players_without_agents_are_skipped() -> None:
    state = build(grid_of({}), n=3, supply=[2, 0, 1])
    state, _ = act(state, PlaceAgent(boulevard="A1E"))
    assert state.turn == 2
    state, _ = act(state, PlaceAgent(boulevard="A2E"))
    assert state.turn == 0


# ----------------------------------------------------------------------------- the action step
def test_action_step_follows_placing_only_with_a_playable_card() -> None:
    state = build(grid_of({}), hands={0: ("A10",)})
    after, _ = act(state, PlaceAgent(boulevard="A1E"))
    assert after.turn == 0 and after.step is TurnStep.ACT
    assert ENGINE.legal_actions(after, 0) == [EndTurn(), PlayAction(card="A10")]
    passed, events = act(after, EndTurn())
    assert passed.turn == 1 and passed.hands[0] == ("A10",)
    assert of_kind(events, "turn_ended")[0].played is False
    # A23 without a captured militia is not playable: the step is skipped.
    skipped, _ = act(build(grid_of({}), hands={0: ("A23",)}), PlaceAgent(boulevard="A1E"))
    assert skipped.turn == 1 and skipped.step is TurnStep.PLACE


def test_card_choice_can_be_cancelled_or_passed() -> None:
    state = build(grid_of({}), hands={0: ("A09",)}, step=TurnStep.ACT, agents=[(0, "A1E")])
    chosen, events = act(state, PlayAction(card="A09"))
    assert events == [] and chosen.pending is not None and chosen.hands[0] == ("A09",)
    legal = ENGINE.legal_actions(chosen, 0)
    assert legal[-2:] == [CancelAction(), EndTurn()] and len(legal) == 9 + 2
    view = ENGINE.view(chosen, 0)
    assert view.pending is not None and view.pending.card == "A09" and view.pending.needs.value == "slot"
    assert ENGINE.view(chosen, None).pending is None and ENGINE.view(chosen, 1).pending is None
    back, _ = act(chosen, CancelAction())
    assert back.pending is None and back.step is TurnStep.ACT and back.turn == 0
    assert ENGINE.default_action(chosen, 0) == EndTurn()
    gone, _ = act(chosen, EndTurn())
    assert gone.turn == 1 and gone.hands[0] == ("A09",) and gone.played[0] == ()
    expect("cadwallon.wrong_step", chosen, PlayAction(card="A09"))
    expect("cadwallon.bad_target", chosen, ChooseAgent(agent=0))


def test_scenario_36_martial_law_closes_actions_for_everyone() -> None:
    state = build(grid_of({}), n=3, hands={0: ("A21", "A10"), 1: ("A12",), 2: ("A16",)}, reserve=("A20",))
    state, events = act(state, PlaceAgent(boulevard="A1E"), PlayAction(card="A21"))
    assert state.actions_closed and state.turn == 1 and of_kind(events, "action_played")[0].card == "A21"
    for _ in range(4):
        seat = state.turn
        state, _ = act(state, PlaceAgent(boulevard=ENGINE.legal_actions(state, seat)[0].boulevard))
        assert state.turn is not None
        assert all(not isinstance(a, PlayAction) for a in ENGINE.legal_actions(state, state.turn))
        assert state.step is TurnStep.PLACE
    closed = state.model_copy(update={"step": TurnStep.ACT})
    assert closed.turn is not None
    expect("cadwallon.actions_closed", closed, PlayAction(card=closed.hands[closed.turn][0]))


# ----------------------------------------------------------------------------- end of Deploy
def test_scenario_10_last_boulevard_then_arrest_reopens_deploy() -> None:
    names = ["A1E", "A2E", "B1E", "B2E", "C1E", "C2E", "A1S", "A2S", "A3S", "B1S", "B2S"]
    agents = [(i % 2, b) for i, b in enumerate(names)]  # seat 0: 6 placed, seat 1: 5 placed
    state = build(grid_of({}), agents=agents, supply=[1, 1], per=7, turn=1, hands={1: ("A06",)})
    state, events = act(state, PlaceAgent(boulevard="B3S"))
    assert not of_kind(events, "deploy_ended") and state.step is TurnStep.ACT and state.turn == 1
    state, events = act(state, PlayAction(card="A06"), ChooseAgent(agent=0))
    returned = of_kind(events, "agent_returned")[0]
    assert (returned.owner, returned.boulevard) == (0, "A1E")
    assert not of_kind(events, "deploy_ended") and state.turn == 0 and state.supply == (2, 0)
    assert [a.boulevard for a in ENGINE.legal_actions(state, 0)] == ["A1E"]


def test_scenario_28_arrest_gives_a_player_who_placed_all_another_turn() -> None:
    state = build(grid_of({}), n=3, agents=[(1, "A1E")], supply=[2, 0, 2], hands={0: ("A06",)})
    state, _ = act(state, PlaceAgent(boulevard="B1E"), PlayAction(card="A06"), ChooseAgent(agent=0))
    assert state.turn == 1 and state.supply == (1, 1, 2)
    state, _ = act(state, PlaceAgent(boulevard="A1E"))
    assert state.turn == 2


def test_deploy_ends_when_every_agent_is_placed() -> None:
    state = build(grid_of({}), supply=[1, 0], deck=DECK, reserve=("A05",))
    _, events = act(state, PlaceAgent(boulevard="A1E"))
    ended = of_kind(events, "deploy_ended")[0]
    assert ended.reason is DeployEnd.NO_AGENTS and ended.supply_left == (0, 0)
    assert not of_kind(events, "action_card_drawn")


def test_scenario_11_four_by_four_five_players_shortage() -> None:
    state = ENGINE.setup(5, CadwallonOptions(grid=4, first_seat=0), "short").state
    reserve = state.reserve
    state, events = until_deploy_ends(state)
    ended = of_kind(events, "deploy_ended")[0]
    assert ended.reason is DeployEnd.NO_FREE_BOULEVARD and ended.supply_left == (0, 0, 0, 0, 1)
    drawn = of_kind(events, "action_card_drawn")
    assert [(e.seat, e.source, e.card, e.visible_to) for e in drawn] == [
        (4, DrawSource.SHORTAGE, reserve[0], frozenset({4})),
        (4, DrawSource.SHORTAGE, None, None),
    ]
    assert state.hands[4][:1] == (reserve[0],) and len(state.reserve) == 11


def test_scenario_12_five_by_five_three_players_shortage() -> None:
    state = ENGINE.setup(3, CadwallonOptions(grid=5, first_seat=1), "short").state
    reserve = state.reserve
    state, events = until_deploy_ends(state)
    ended = of_kind(events, "deploy_ended")[0]
    assert ended.supply_left == (1, 0, 1)
    drawn = [e for e in of_kind(events, "action_card_drawn") if e.visible_to is not None]
    assert [(e.seat, e.card) for e in drawn] == [(2, reserve[0]), (0, reserve[1])]


def test_one_draw_per_player_however_many_agents_are_left() -> None:
    names = ["A1E", "A2E", "B1E", "B2E", "C1E", "C2E", "A1S", "A2S", "A3S", "B1S", "B2S"]
    agents = [(i % 2, b) for i, b in enumerate(names)]
    state = build(grid_of({}), agents=agents, supply=[3, 4], per=9, reserve=("A01", "A02", "A03"), deck=DECK)
    state, events = act(state, PlaceAgent(boulevard="B3S"))
    assert of_kind(events, "deploy_ended")[0].supply_left == (2, 4)
    assert state.hands == (("A01",), ("A02",)) and state.reserve == ("A03",)


def test_scenario_13_shortage_with_an_empty_reserve_draws_nothing() -> None:
    names = ["A1E", "A2E", "B1E", "B2E", "C1E", "C2E", "A1S", "A2S", "A3S", "B1S", "B2S"]
    state = build(grid_of({}), agents=[(i % 2, b) for i, b in enumerate(names)], supply=[2, 3], per=8, deck=DECK)
    state, events = act(state, PlaceAgent(boulevard="B3S"))
    assert of_kind(events, "deploy_ended")[0].reason is DeployEnd.NO_FREE_BOULEVARD
    assert [e.seat for e in of_kind(events, "reserve_empty")] == [0, 1]
    assert not of_kind(events, "action_card_drawn") and state.hands == ((), ())


def test_scenario_37_barricade_on_the_last_free_boulevard_ends_deploy() -> None:
    names = ["A1E", "A2E", "B1E", "B2E", "C1E", "C2E", "A1S", "A2S", "A3S", "B1S"]
    agents = [(i % 2, b) for i, b in enumerate(names)]
    state = build(
        grid_of({}), agents=agents, supply=[2, 2], per=7, hands={0: ("A13",)}, reserve=("A05", "A06"), deck=DECK
    )
    state, events = act(state, PlaceAgent(boulevard="B2S"), PlayAction(card="A13"))
    assert ENGINE.legal_actions(state, 0) == [ChooseBoulevard(boulevard="B3S"), CancelAction(), EndTurn()]
    state, events = act(state, ChooseBoulevard(boulevard="B3S"))
    assert of_kind(events, "barricade_built")[0].boulevard == "B3S"
    ended = of_kind(events, "deploy_ended")[0]
    assert ended.reason is DeployEnd.NO_FREE_BOULEVARD and ended.supply_left == (1, 2)
    drawn = [e for e in of_kind(events, "action_card_drawn") if e.visible_to is not None]
    assert [(e.seat, e.card) for e in drawn] == [(0, "A05"), (1, "A06")]


# ----------------------------------------------------------------------------- the clock (scenario 39)
def test_scenario_39_placement_default_is_the_strongest_free_boulevard() -> None:
    # B1E faces BLA-3 (3) and USU-2 (3): 6, the most; B2E (USU-2 / BLA-4 = 3 + 3) ties and comes later.
    cards = {"B1": "BLA-3", "B2": "USU-2", "B3": "BLA-4"}
    slots = grid_of(cards, filler=("JEW-1", "JEW-2", "USU-1", "ZOD-4", "M01", "M02", "P1", "P2", "P3"))
    state = build(slots, hands={0: ("A10",)})
    assert ENGINE.default_action(state, 0) == PlaceAgent(boulevard="B1E")
    taken = build(slots, agents=[(1, "B1E")], hands={0: ("A10",)})
    assert ENGINE.default_action(taken, 0) == PlaceAgent(boulevard="B2E")
    after, _ = act(state, ENGINE.default_action(state, 0))
    assert ENGINE.default_action(after, 0) == EndTurn()
    with pytest.raises(NotYourTurnError):
        ENGINE.default_action(after, 1)


def test_scenario_39_tarot_default_keeps_the_order() -> None:
    state = build(grid_of({}), hands={0: ("A02",)}, step=TurnStep.ACT, deck=("M01", "P1", "USU-4", "A05"))
    state, _ = act(state, PlayAction(card="A02"))
    assert state.step is TurnStep.TAROT and state.tarot == ("M01", "P1", "USU-4") and state.deck == ("A05",)
    default = ENGINE.default_action(state, 0)
    assert default == OrderTarot(top=("M01", "P1", "USU-4"))
    assert len(ENGINE.legal_actions(state, 0)) == 12
    state, _ = act(state, default)
    assert state.deck == ("M01", "P1", "USU-4", "A05") and state.turn == 1
