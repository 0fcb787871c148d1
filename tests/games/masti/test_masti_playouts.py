"""Seeded random playouts of every mode keep the spec's invariants (§11)."""

from __future__ import annotations

import pytest

from games.core.rng import GameRng
from games.masti.models import MastiOptions, Phase, PlayCard
from games.masti.state import MastiState
from tests.games.masti.helpers import ENGINE, all_cards

MODES = [(3, False), (4, False), (4, True), (5, False), (6, False)]


def check_invariants(state: MastiState) -> None:
    cards = all_cards(state)
    assert len(cards) == 52 and len(set(cards)) == 52
    if state.phase is Phase.PLAY and not state.plays:
        for seat in range(state.num_seats):
            if not state.out[seat] and state.hands[seat]:
                assert len(state.hands[seat]) + state.bribe_gems[seat] == state.max_rounds - (state.round - 1)
            if state.out[seat]:
                assert not state.hands[seat] and state.bribe_gems[seat] == 0


@pytest.mark.parametrize(("n", "teams"), MODES)
@pytest.mark.parametrize("seed", ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"])
def test_random_playouts_keep_invariants(n: int, teams: bool, seed: str) -> None:
    rng = GameRng(f"playout:{seed}")
    state = ENGINE.setup(n, MastiOptions(teams=teams), seed).state
    steps = 0
    while ENGINE.active_seats(state):
        check_invariants(state)
        seat = rng.choice(sorted(ENGINE.active_seats(state)))
        legal = ENGINE.legal_actions(state, seat)
        view = ENGINE.view(state, seat)
        assert view.legal_cards == tuple(a.card for a in legal if a.kind != "bribe")
        state = ENGINE.apply(state, seat, rng.choice(legal)).state
        steps += 1
        assert steps < 200
    check_invariants(state)
    assert state.round <= state.max_rounds
    assert not any(state.hands)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and state.result is not None and state.scores is not None
    assert min(outcome.ranks) == 0
    for unit in state.result:
        assert all(p.symbols + (p.joker is not None) <= 8 for p in unit.piles)
        for seat in unit.seats:
            assert state.scores[seat] == unit.total and outcome.ranks[seat] == unit.rank
    view = ENGINE.view(state, None)
    assert view.result == state.result


def test_resample_hidden_keeps_what_the_seat_knows() -> None:
    state = ENGINE.setup(6, MastiOptions(first_seat=0), "resample").state
    state = ENGINE.apply(state, 3, ENGINE.default_action(state, 3)).state
    rng = GameRng("resample")
    for seat in (None, 0, 3):
        other = ENGINE.resample_hidden(state, seat, rng)
        assert ENGINE.view(other, seat) == ENGINE.view(state, seat)
        assert len(set(all_cards(other))) == 52
    other = ENGINE.resample_hidden(state, 3, rng)
    assert other.seeded[3] == state.seeded[3] and other.hands[3] == state.hands[3]
    assert other.hands != state.hands


def test_action_models_round_trip() -> None:
    action = ENGINE.action_adapter.validate_json(b'{"kind":"play","card":"P07"}')
    assert action == PlayCard(card="P07")
