"""The log's lines: filler left out, a delivery joined into one line, private events only when asked."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from bot.presenters.registry import PRESENTERS
from bot.tables import choose_ai_action
from bot.ui.gamelog import step_lines
from games.core import Event, RandomAgent
from games.registry import AGENTS, ENGINES


def steps(game: str, seats: int, seed: str) -> Iterator[Sequence[Event]]:
    """Yield the events of each step of a seeded AI game of ``game``, the deal first."""
    engine = ENGINES[game]
    step = engine.setup(seats, engine.options_type(), seed)
    yield step.events
    agent = AGENTS.get(game, RandomAgent())
    while engine.outcome(step.state) is None:
        seat = min(engine.active_seats(step.state))
        step = engine.apply(step.state, seat, choose_ai_action(engine, agent, step.state, seat))
        yield step.events


def test_a_six_player_coup_log_shows_no_allows_nor_turn_lines() -> None:
    names = [f"P{i}" for i in range(6)]
    narrate = PRESENTERS["coup"].narrate
    before: list[str] = []
    after: list[str] = []
    for events in steps("coup", 6, "log-six"):
        before += [line for e in events if e.visible_to is None and (line := narrate(e, names, "en"))]
        after += step_lines("coup", events, names, "en", hidden=False)
    filler = {"response_allowed", "turn_started"}
    filler_lines = {
        line
        for events in steps("coup", 6, "log-six")
        for e in events
        if e.kind in filler and (line := narrate(e, names, "en"))
    }
    assert sum(line in filler_lines for line in before) > len(before) / 2  # the filler was most of the log
    assert not [line for line in after if line in filler_lines]
    assert len(after) == len(before) - sum(line in filler_lines for line in before)


def test_an_intrigue_bribe_is_one_line() -> None:
    names = [f"P{i}" for i in range(4)]
    joined = 0
    for events in steps("intrigue", 4, "seed1"):
        kinds = [e.kind for e in events]
        if "bribe_delivered" not in kinds:
            continue
        lines = step_lines("intrigue", events, names, "en", hidden=False)
        delivered = [e for e in events if e.kind == "bribe_delivered"]
        assert len(lines) == len(delivered), lines  # the reveal, payment, tokens and discard are in it
        joined += 1
    assert joined


def test_private_lines_only_when_asked_and_marked_with_whose() -> None:
    names = ["alice", "bob"]
    deal = next(steps("coup", 2, "log-private"))
    public = step_lines("coup", deal, names, "en", hidden=False)
    everything = step_lines("coup", deal, names, "en", hidden=True)
    assert not any("🔒" in line for line in public)
    private = [line for line in everything if line.startswith("🔒")]
    assert [line.split(":")[0] for line in private] == ["🔒 alice", "🔒 bob"]
    assert everything[: len(public)] == public
