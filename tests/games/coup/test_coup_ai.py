"""The Coup AI: legal, deterministic, view-only, and all-AI games always end."""

from __future__ import annotations

import pytest

from games.core import GameRng, RandomAgent
from games.coup.ai import CoupAgent
from games.coup.engine import CoupEngine
from games.coup.models import CoupOptions

ENGINE = CoupEngine()
AI = CoupAgent()
MAX_ACTIONS = 3000


def play(seats: int, seed: str, ai_seats: set[int]) -> tuple[int, int]:
    """Play one game; return (actions taken, winner)."""
    state = ENGINE.setup(seats, CoupOptions(draft=seats == 2 and seed.endswith("d")), seed).state
    actions = 0
    while ENGINE.active_seats(state) and actions < MAX_ACTIONS:
        for seat in sorted(ENGINE.active_seats(state)):
            if seat not in ENGINE.active_seats(state):
                continue
            legal = ENGINE.legal_actions(state, seat)
            rng = GameRng.for_step(state.seed, state.version, f"ai{seat}")
            agent = AI if seat in ai_seats else RandomAgent()
            action = agent.choose(ENGINE.view(state, seat), legal, rng)
            assert action in legal
            state = ENGINE.apply(state, seat, action).state
            actions += 1
    outcome = ENGINE.outcome(state)
    assert outcome is not None, f"{seed}: no end after {MAX_ACTIONS} actions"
    return actions, outcome.ranks.index(0)


# The seeds on which an earlier AI locked itself into blocked steals and assassinations forever.
@pytest.mark.parametrize(("seats", "seed"), [(2, "bench-ai-10"), (5, "bench-ai-58"), (6, "bench-ai-354")])
def test_all_ai_games_that_once_looped_end(seats: int, seed: str) -> None:
    play(seats, seed, set(range(seats)))


def test_all_ai_games_end() -> None:
    for game in range(150):
        seats = 2 + game % 5
        play(seats, f"end-{game}", set(range(seats)))


def test_the_ai_beats_random_players() -> None:
    wins = sum(play(4, f"vs-random-{game}", {game % 4})[1] == game % 4 for game in range(120))
    assert wins / 120 >= 0.6


def test_the_ai_is_deterministic_and_reads_only_its_view() -> None:
    state = ENGINE.setup(4, CoupOptions(), "det").state
    seat = next(iter(ENGINE.active_seats(state)))
    view = ENGINE.view(state, seat)
    legal = ENGINE.legal_actions(state, seat)
    first = AI.choose(view, legal, GameRng("x"))
    assert first == AI.choose(view.model_copy(), list(legal), GameRng("x"))
    with pytest.raises(ValueError, match="own seat"):
        AI.choose(ENGINE.view(state, None), legal, GameRng("x"))
