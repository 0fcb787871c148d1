"""Whole games, hidden information, resigning and determinism (digest §11; scenarios 40-41)."""

from __future__ import annotations

import json
from typing import cast

import pytest
from pydantic import ValidationError

from games.cadwallon.models import (
    ACTION_ADAPTER,
    EVENT_ADAPTER,
    CadwallonAction,
    CadwallonEvent,
    CadwallonOptions,
    ChooseAgent,
    ChooseBoulevard,
    EndReason,
    Phase,
    PlaceAgent,
    PlayAction,
    TurnStep,
)
from games.cadwallon.state import CadwallonState
from games.core.errors import GameError, GameOverError
from games.core.protocol import RandomAgent
from games.core.rng import GameRng
from games.core.schema import load_state, state_schema
from tests.games.cadwallon.helpers import ENGINE, act, build, grid_of, of_kind, run


def random_game(
    n: int, options: CadwallonOptions, seed: str, *, limit: int = 5_000
) -> tuple[CadwallonState, list[tuple[int, CadwallonAction]]]:
    state = ENGINE.setup(n, options, seed).state
    rng = GameRng(f"play:{seed}")
    agent = RandomAgent()
    moves: list[tuple[int, CadwallonAction]] = []
    for _ in range(limit):
        if not ENGINE.active_seats(state):
            return state, moves
        (seat,) = ENGINE.active_seats(state)
        action = agent.choose(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), rng)
        moves.append((seat, action))
        state = ENGINE.apply(state, seat, action).state
    raise AssertionError("the game did not end")


# ----------------------------------------------------------------------------- views (scenario 40)
def test_scenario_40_views_hide_hands_and_contracts() -> None:
    state = ENGINE.setup(3, CadwallonOptions(starting_action=True), "views").state
    for seat in range(3):
        view = ENGINE.view(state, seat)
        for player in view.players:
            assert player.hand_size == 1
            if player.seat == seat:
                assert player.hand == state.hands[seat] and player.contract == state.contracts[seat]
            else:
                assert player.hand is None and player.contract is None
    spectator = ENGINE.view(state, None)
    assert all(p.hand is None and p.contract is None for p in spectator.players)
    assert spectator.deck_size == len(state.deck) and spectator.reserve_size == len(state.reserve)
    dumped = spectator.model_dump_json()
    for hand in state.hands:
        assert f'"{hand[0]}"' not in dumped or hand[0] in [c for c in state.slots if c]
    with pytest.raises(GameError):
        ENGINE.view(state, 3)


def test_finished_game_reveals_contracts() -> None:
    state, _ = run(ENGINE.setup(2, CadwallonOptions(), "end").state)
    assert state.phase is Phase.FINISHED
    view = ENGINE.view(state, None)
    assert [p.contract for p in view.players] == list(state.contracts)
    assert view.result is not None and [b.seat for b in view.result] == [0, 1]
    assert view.end_reason in (EndReason.DECK_EXHAUSTED, EndReason.STALLED)


def test_open_books_shows_every_hand() -> None:
    state = ENGINE.setup(2, CadwallonOptions(conditions=True, condition="C09", starting_action=True), "c9").state
    assert [p.hand for p in ENGINE.view(state, None).players] == [tuple(h) for h in state.hands]


def test_live_score_and_crests_in_the_view() -> None:
    state = build(grid_of({}), captured={0: ("USU-4", "USU-1", "JEW-2", "P1", "M01", "M02")}, hands={0: ("A05",)})
    player = ENGINE.view(state, 1).players[0]
    assert (player.live_score, player.crests, player.captured[0]) == (12, 2, "JEW-2")


def test_resample_keeps_what_the_viewer_sees() -> None:
    state = ENGINE.setup(4, CadwallonOptions(starting_action=True), "rs").state
    rng = GameRng("rs")
    for seat in (None, 0, 2):
        other = ENGINE.resample_hidden(state, seat, rng)
        assert ENGINE.view(other, seat) == ENGINE.view(state, seat)
        assert ENGINE.view(other, None) == ENGINE.view(state, None)
    assert any(ENGINE.resample_hidden(state, None, GameRng(f"x{i}")) != state for i in range(3))


# ----------------------------------------------------------------------------- resigning
def test_resigning_turn_seat_passes_the_turn_and_leaves_the_board() -> None:
    state = build(grid_of({}), n=3, agents=[(0, "A1E"), (1, "A2E")], supply=[2, 2, 2])
    turned = state.agents[1].model_copy(update={"turned": True})  # turned by seat 0 with A15
    state = state.model_copy(update={"agents": (state.agents[0], turned)})
    step = ENGINE.resign(state, 0)
    after = step.state
    assert after.turn == 1 and after.resigned == (0,) and after.supply == (0, 2, 2)
    assert [(a.owner, a.turned) for a in after.agents] == [(1, True)]
    assert [e.kind for e in step.events][:2] == ["player_resigned", "turn_ended"]
    assert ENGINE.view(after, None).players[0].resigned
    with pytest.raises(GameError) as error:
        ENGINE.resign(after, 0)
    assert error.value.code == "cadwallon.already_resigned"
    with pytest.raises(GameError) as error:
        ENGINE.resign(after, 5)
    assert error.value.code == "cadwallon.invalid_seat"


def test_resigned_seat_is_skipped_and_never_targeted() -> None:
    state = build(grid_of({}), n=3, agents=[(1, "A1E")], supply=[2, 2, 2], hands={0: ("A20",), 1: ("A05",)})
    state = ENGINE.resign(state, 1).state
    state, _ = act(state, PlaceAgent(boulevard="A2E"))
    assert state.turn == 2 and state.step is TurnStep.PLACE  # A20 has no victim left
    state, _ = act(state, PlaceAgent(boulevard="B1E"))
    assert state.turn == 0


def test_resigning_clears_a_pending_choice_about_its_agent() -> None:
    state = build(grid_of({}), n=3, agents=[(1, "A1E"), (2, "A2E")], hands={0: ("A18",)}, step=TurnStep.ACT)
    state, _ = act(state, PlayAction(card="A18"), ChooseAgent(agent=0))
    state = ENGINE.resign(state, 1).state
    assert state.turn == 0 and state.pending is None and state.hands[0] == ("A18",)
    state, _ = act(state, PlayAction(card="A18"), ChooseAgent(agent=1), ChooseBoulevard(boulevard="C2E"))
    assert state.agents[0].boulevard == 5


def test_resigning_during_tarot_puts_the_cards_back() -> None:
    state = build(grid_of({}), n=3, hands={0: ("A02",)}, step=TurnStep.ACT, deck=("M01", "P1", "USU-4", "A05"))
    state, _ = act(state, PlayAction(card="A02"))
    state = ENGINE.resign(state, 0).state
    assert state.deck == ("M01", "P1", "USU-4", "A05") and state.tarot == () and state.turn == 1


def test_last_player_standing_ends_the_game_and_resigned_rank_last() -> None:
    state = build(grid_of({}), n=3, captured={0: USU_FULL, 1: ("USU-1",)})
    state = ENGINE.resign(state, 0).state
    assert state.phase is Phase.DEPLOY
    step = ENGINE.resign(state, 2)
    final = step.state
    assert final.phase is Phase.FINISHED and final.end_reason is EndReason.RESIGNED
    assert final.ranks == (2, 0, 1) and final.scores is not None and final.scores[0] == 28
    assert of_kind(step.events, "game_ended")[0].reason is EndReason.RESIGNED
    with pytest.raises(GameOverError):
        ENGINE.resign(final, 1)
    with pytest.raises(GameOverError):
        ENGINE.apply(final, 1, PlaceAgent(boulevard="A1E"))


USU_FULL = ("USU-1", "USU-2", "USU-3", "USU-4")


# ----------------------------------------------------------------------------- determinism, playouts (41)
def test_scenario_41_same_seed_same_actions_same_game() -> None:
    options = CadwallonOptions(grid=4, conditions=True, starting_action=True)
    final, moves = random_game(4, options, "det")
    state = ENGINE.setup(4, options, "det").state
    for seat, action in moves:
        state = ENGINE.apply(state, seat, ACTION_ADAPTER.validate_json(ACTION_ADAPTER.dump_json(action))).state
    assert state == final


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_scenario_41_random_eight_player_five_by_five_games_end(seed: str) -> None:
    final, moves = random_game(8, CadwallonOptions(grid=5, conditions=True, starting_action=True), seed)
    assert final.phase is Phase.FINISHED and ENGINE.outcome(final) is not None
    assert len(moves) < 2_000


def test_events_round_trip_through_json() -> None:
    step = ENGINE.setup(3, CadwallonOptions(starting_action=True, conditions=True), "json")
    state, events = run(step.state)
    for event in [*step.events, *events]:
        assert EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(cast("CadwallonEvent", event))) == event
    assert state.phase is Phase.FINISHED


def test_action_step_lists_stay_small() -> None:
    """Every decision of random 5×5 games lists at most ~50 options (the UI's selects hold 25)."""
    biggest = 0
    for seed in ("s1", "s2"):
        state = ENGINE.setup(8, CadwallonOptions(grid=5, starting_action=True), seed).state
        rng = GameRng(seed)
        while ENGINE.active_seats(state):
            (seat,) = ENGINE.active_seats(state)
            legal = ENGINE.legal_actions(state, seat)
            biggest = max(biggest, len(legal))
            state = ENGINE.apply(state, seat, rng.choice(legal)).state
    assert biggest <= 52


def test_deck_leftovers_score_for_nobody() -> None:
    state, events = act(
        build(grid_of({"B1": "USU-1", "B2": "BLA-3"}), supply=[1, 0], deck=("USU-4",)), PlaceAgent(boulevard="B1E")
    )
    assert state.phase is Phase.FINISHED and state.deck == ("USU-4",)
    assert of_kind(events, "game_ended")[0].empty_slots == 2
    assert state.scores == (3 * 1 + 1 * 1, 0)  # USU-1 and BLA-3; the deck's USU-4 scores for nobody


# ----------------------------------------------------------------------------- stored states
def test_a_state_stored_at_schema_zero_loads_without_the_agents_controller() -> None:
    """Schema 1 dropped ``controller``; a pre-revision-5 agent held by another seat comes back turned."""
    state = build(grid_of({}), n=3, agents=[(0, "A1E"), (1, "A2E"), (2, "B1E")], supply=[2, 2, 2])
    data = json.loads(state.model_dump_json())
    old = [{**agent, "controller": agent["owner"]} for agent in data["agents"]]
    old[1]["controller"] = 0  # Double Agent under the old rule: seat 1's agent supported seat 0
    stored = json.dumps({**data, "agents": old})
    with pytest.raises(ValidationError):
        CadwallonState.model_validate_json(stored)
    loaded = load_state(ENGINE, stored, 0)
    assert [(a.owner, a.turned) for a in loaded.agents] == [(0, False), (1, True), (2, False)]
    assert loaded.model_copy(update={"agents": state.agents}) == state
    assert state_schema(ENGINE) == 1 and load_state(ENGINE, state.model_dump_json(), 1) == state
