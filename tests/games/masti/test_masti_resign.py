"""Resigning: the seat's unit is withdrawn, its cards keep moving, it ranks last (engine docstring)."""

from __future__ import annotations

import pytest

from games.core.errors import GameError
from games.masti.models import MastiOptions, Phase, SeedTrump
from tests.games.masti.helpers import ENGINE, all_cards, of_kind, play, run, stacked


def test_resigned_seat_is_played_automatically_and_ranks_last() -> None:
    state = stacked(3, {0: ["A07"]})
    step = ENGINE.resign(state, 1)
    assert [(e.seat, e.seats) for e in of_kind(step.events, "player_resigned")] == [(1, (1,))]
    state = step.state
    assert state.version == 1 and ENGINE.active_seats(state) == {0}
    assert ENGINE.view(state, None).players[1].resigned
    state, events = play(state, "A07")
    auto = [e for e in of_kind(events, "card_played") if e.seat == 1]
    assert len(auto) == 1 and auto[0].automatic
    assert ENGINE.active_seats(state) == {2}
    state, events = run(state)
    assert all(e.seat != 1 or e.automatic for e in of_kind(events, "card_played"))
    assert not of_kind(events, "bribe_paid") or all(e.seat != 1 for e in of_kind(events, "bribe_paid"))
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.ranks[1] == 2 and max(outcome.ranks[0], outcome.ranks[2]) <= 1
    assert state.result is not None and state.result[-1].seats == (1,) and state.result[-1].resigned
    assert len(all_cards(state)) == 52


def test_resigning_on_your_turn_plays_your_card_at_once() -> None:
    state = stacked(3, {0: ["A07"]})
    state, _ = play(state, "A07")
    step = ENGINE.resign(state, 1)
    kinds = [(e.kind, getattr(e, "seat", None)) for e in step.events]
    assert kinds[:2] == [("player_resigned", 1), ("card_played", 1)]
    assert ENGINE.active_seats(step.state) == {2}


def test_game_ends_when_one_unit_is_left() -> None:
    state = stacked(3)
    state = ENGINE.resign(state, 1).state
    step = ENGINE.resign(state, 2)
    state = step.state
    assert state.phase is Phase.FINISHED and not ENGINE.active_seats(state)
    assert [e.kind for e in step.events][-2:] == ["jokers_placed", "game_scored"]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.ranks == (0, 2, 1)


def test_four_player_team_forfeits() -> None:
    state = ENGINE.setup(4, MastiOptions(teams=True), "teams").state
    step = ENGINE.resign(state, 1)
    assert of_kind(step.events, "player_resigned")[0].seats == (1, 3)
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None and outcome.ranks == (0, 1, 0, 1)


def test_six_player_team_resigning_while_seeding() -> None:
    state = ENGINE.setup(6, MastiOptions(first_seat=0), "six").state
    assert state.seeders == (3, 4, 5)
    step = ENGINE.resign(state, 1)  # seat 1's partner 4 is a seeder: it seeds its lowest card
    state = step.state
    assert state.resigned == (1, 4)
    assert state.seeded[4] is not None and ENGINE.active_seats(state) == {3, 5}
    state = ENGINE.apply(state, 3, SeedTrump(card=state.hands[3][0])).state
    state = ENGINE.apply(state, 5, SeedTrump(card=state.hands[5][0])).state
    assert state.phase is Phase.PLAY
    state, _ = run(state)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.ranks[1] == outcome.ranks[4] == 2
    assert {outcome.ranks[0], outcome.ranks[2]} <= {0, 1}


def test_resigned_round_winner_leaves_a_card_automatically() -> None:
    state = ENGINE.setup(6, MastiOptions(first_seat=0), "six").state
    for seat in (3, 4, 5):
        state = ENGINE.apply(state, seat, ENGINE.default_action(state, seat)).state
    while state.phase is not Phase.LEAVE:
        (seat,) = ENGINE.active_seats(state)
        state = ENGINE.apply(state, seat, ENGINE.default_action(state, seat)).state
    winner = state.winner
    assert winner is not None
    step = ENGINE.resign(state, winner)
    left = of_kind(step.events, "card_left")
    assert len(left) == 1 and left[0].automatic and left[0].seat == winner
    assert step.state.phase is Phase.PLAY and step.state.round == 2


def test_resign_errors() -> None:
    state = stacked(3)
    state = ENGINE.resign(state, 0).state
    with pytest.raises(GameError, match=r"masti\.already_resigned"):
        ENGINE.resign(state, 0)
    with pytest.raises(GameError, match=r"masti\.invalid_seat"):
        ENGINE.resign(state, 3)
