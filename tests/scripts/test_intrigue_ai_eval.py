"""The head-to-head mode of the «Интриги» AI measuring script (``--versus``).

Playing the AI against a copy of its own ``ai.py`` loaded from a path must give the very games the
AI plays in every seat: the loaded class is a separate one, and only the seats it takes differ.
"""

from __future__ import annotations

from pathlib import Path

import games.intrigue.ai
from games.intrigue.ai import IntrigueAgent
from games.intrigue.models import IntrigueOptions
from scripts.intrigue_ai_eval import play_out, play_versus, rival_agent_class, versus

AI_PATH = str(Path(games.intrigue.ai.__file__))


def test_the_rival_is_loaded_as_its_own_class() -> None:
    rival = rival_agent_class(AI_PATH)
    assert rival is not IntrigueAgent and rival.__name__ == "IntrigueAgent"
    assert rival.__module__ != IntrigueAgent.__module__


def test_a_game_against_the_same_ai_is_the_all_ai_game_and_scores_the_current_seats() -> None:
    for game in (0, 1):
        firsts = all_ai_firsts(2, game, "h2h")
        current = {s for s in range(2) if (s + game) % 2 == 0}
        assert play_versus(2, game, "h2h", AI_PATH) == len(firsts & current) / len(firsts)


def test_versus_counts_the_fair_share_by_the_seats_each_version_held() -> None:
    # Three players over two games: the current AI holds seats {0, 2}, then {1}: 3 of 6 seats.
    result = versus(3, 2, "h2h", AI_PATH, workers=1)
    assert result["games"] == 2 and result["fair"] == 0.5
    assert 0.0 <= result["low"] <= result["share"] <= result["high"] <= 1.0


def all_ai_firsts(n: int, game: int, seed: str) -> set[int]:
    agent = IntrigueAgent()
    _state, result = play_out(n, IntrigueOptions(), f"{seed}:{n}:{game}", lambda _seat: agent)
    return {s for s, rank in enumerate(result.ranks) if rank == 0}
