"""Drawing one step of a replay: the viewer a member steps through after a game (:mod:`bot.ui.replay`).

One click on ◀ ▶ rebuilds nothing (a finished game is rebuilt once and kept), so its cost is
drawing the step: the public board image, the step's log lines and every seat's hand. Measured on
the largest boards the bot draws, a «Гильдии Кадвалона» 5×5 grid with eight players and an
«Интриги» table of eight (nine lands), over steps spread through a finished seeded game; the
slower of the two is reported, with the time to rebuild its whole game from the action log.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from benchmarks.common import LONG_NAMES, Line, ms, p50_p99, spread
from bot.storage import ActionLogRow, ReplayData, SeatRow, TableRow, TableStatus
from bot.tables import choose_ai_action
from bot.ui.replay import GameRecord, rebuild, replay_payload
from games.cadwallon.models import CadwallonOptions
from games.core import RandomAgent
from games.registry import AGENTS, ENGINES

SECTION = "15. Replay"
#: A step is drawn after the click is acknowledged; a member waits for it like for a board.
TARGET_P50 = 0.150
#: The largest boards: (game, seats, engine options).
LARGEST = (("cadwallon", 8, CadwallonOptions(grid=5)), ("intrigue", 8, None))


def finished_game(game: str, seats: int, options: Any, seed: str) -> tuple[GameRecord, float]:
    """Play a seeded AI game of ``game`` to its end; return it rebuilt from its action log, and the rebuild time."""
    engine = ENGINES[game]
    agent = AGENTS.get(game, RandomAgent())
    chosen = options if options is not None else engine.options_type()
    state = engine.setup(seats, chosen, seed).state
    log: list[ActionLogRow] = []
    while engine.outcome(state) is None:
        seat = min(engine.active_seats(state))
        action = choose_ai_action(engine, agent, state, seat)
        log.append(ActionLogRow(1, state.version, seat, action.model_dump_json(), False, None, 0.0))
        state = engine.apply(state, seat, action).state
    row = TableRow(
        id=1,
        guild_id=1,
        channel_id=1,
        thread_id=None,
        lobby_message_id=None,
        board_message_id=None,
        game=game,
        host_id=1,
        status=TableStatus.FINISHED,
        options={"game": chosen.model_dump(mode="json")},
        seed=seed,
        locale="ru",
        state=state.model_dump_json(),
        version=state.version,
        rematch_of=None,
        created_at=0.0,
        updated_at=0.0,
        finished_at=0.0,
    )
    seat_rows = [SeatRow(1, i, i, None, True, LONG_NAMES[i], False, 0) for i in range(seats)]
    start = time.perf_counter()
    record = rebuild(ReplayData(table=row, seats=seat_rows, log=log, snapshot=None))
    return record, time.perf_counter() - start


def bench_replay(*, samples: int = 20, repeats: int = 3) -> list[Line]:
    """Time drawing ``samples`` steps of a finished game on each of the largest boards; report the slower."""
    worst: tuple[float, float, float, str, int] | None = None
    for game, seats, options in LARGEST:
        record, rebuild_seconds = finished_game(game, seats, options, f"bench-replay-{game}-{seats}")
        steps = spread(list(range(len(record.steps))), samples)
        replay_payload(record, steps[0], 1, "ru")  # warm the fonts and caches
        times = []
        for step in steps:
            runs = []
            for _ in range(repeats):
                start = time.perf_counter()
                replay_payload(record, step, 1, "ru")
                runs.append(time.perf_counter() - start)
            times.append(statistics.median(runs))
        p50, p99 = p50_p99(times)
        if worst is None or p50 > worst[0]:
            worst = (p50, p99, rebuild_seconds, game, seats)
    assert worst is not None  # noqa: S101 - LARGEST is not empty
    p50, p99, rebuild_seconds, game, seats = worst
    return [
        Line(
            SECTION,
            f"one replay step of the largest board ({game}, {seats} seats: image, log and every hand; "
            f"{samples} steps, median of {repeats})",
            f"p50 {ms(p50)}, p99 {ms(p99)}; its whole game rebuilt from the log once, in {ms(rebuild_seconds)}",
            f"p50 ≤ {ms(TARGET_P50)}",
            p50 <= TARGET_P50,
        )
    ]
