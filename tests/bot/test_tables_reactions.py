"""Reaction windows at the table service: the reaction clock, passes that never count as away, More time."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from bot.storage import Storage
from bot.tables import DEFAULT_REACTION_SECONDS, MORE_TIME_SECONDS, Table, TableError, TableService
from games.core.protocol import reaction_seats
from games.coup.models import Allow, CollectTax, Phase, TakeIncome
from games.intrigue.state import IntrigueState
from tests.bot.test_tables import BOB, CAROL, HOST, FakeClock, RecordingPublisher, deck, intrigue_table, wait_until

pytestmark = pytest.mark.asyncio


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest_asyncio.fixture
async def service(tmp_path: Any, clock: FakeClock) -> AsyncIterator[TableService]:
    storage = await Storage.open(tmp_path / "t.sqlite3")
    svc = TableService(storage, RecordingPublisher(), ai_delay=0, time_fn=clock, run_clocks=False)
    yield svc
    await svc.close()
    await storage.close()


async def coup_table(service: TableService, **options: Any) -> Table:
    """Three humans at Coup, seat 0 (HOST, a Duke) to play first."""
    table = await service.create_lobby(
        guild_id=1,
        channel_id=2,
        game="coup",
        host_id=HOST,
        host_name="Наташа",
        options={"clock": 60, **options, "game": {"first_seat": 0, "deck": deck()}},
        locale="ru",
        seed="fixed",
    )
    await service.join(table.id, BOB, "Саша")
    await service.join(table.id, CAROL, "Гриша")
    return await service.start(table.id, HOST)


def timeouts(table: Table) -> list[int]:
    return [seat.timeouts_in_row for seat in table.seats]


async def declare_tax(service: TableService, table: Table) -> None:
    """Let the seat to play declare Tax (a Duke claim): everyone else gets a challenge window."""
    state = table.state
    assert state is not None and state.phase is Phase.DECLARE  # type: ignore[attr-defined]
    user = table.seats[state.turn].user_id  # type: ignore[attr-defined]
    assert user is not None
    await service.act(table.id, user, table.prompt_version, CollectTax())


async def test_a_coup_window_runs_on_the_reaction_clock(service: TableService, clock: FakeClock) -> None:
    table = await coup_table(service)
    assert table.deadline == clock.now + 60  # a turn: the decision clock
    await declare_tax(service, table)
    assert table.state is not None and table.is_reaction(table.state)
    assert table.deadline == clock.now + DEFAULT_REACTION_SECONDS

    other = await coup_table(service, reaction_clock=25)
    await declare_tax(service, other)
    assert other.deadline == clock.now + 25
    # The rules' per-decision clocks: Coup suggests none, so its windows keep the reaction clock.
    kept = await coup_table(service, reaction_clock=25, clock_by_decision=True)
    await declare_tax(service, kept)
    assert kept.deadline == clock.now + 25


async def test_windows_passing_by_timeout_never_count_but_missed_turns_do(service: TableService) -> None:
    table = await coup_table(service)
    for _ in range(4):  # more windows in a row than the two timeouts that would hand a seat to the AI
        await declare_tax(service, table)
        await service.on_clock(table.id, table.prompt_version)  # every responder lets it pass
        assert timeouts(table) == [0, 0, 0]
    assert not any(seat.autopilot for seat in table.seats)
    log = await service.storage.action_log(table.id)
    assert sum(entry.by_timeout for entry in log) == 8  # two passes per window, each by the clock

    turn = table.state.turn  # type: ignore[union-attr]
    await service.on_clock(table.id, table.prompt_version)  # a missed turn of one's own counts
    assert timeouts(table)[turn] == 1


async def test_an_intrigue_window_passes_on_the_reaction_clock_without_counting(
    service: TableService, clock: FakeClock
) -> None:
    table = await intrigue_table(service, {"clock": 90, "reaction_clock": 20, "game": {}})
    engine = table.engine
    windows = 0
    for _ in range(60):
        state = table.state
        assert state is not None and table.status == "active"
        window = table.is_reaction(state)
        assert table.deadline == clock.now + (20 if window else 90)
        if window:  # everyone lets it pass, window after window
            windows += 1
            await service.on_clock(table.id, table.prompt_version)
            assert timeouts(table) == [0, 0]  # Done by the clock: no step towards "away" (3 in Интриги)
            continue
        seat = min(engine.active_seats(state))
        user = table.seats[seat].user_id
        assert user is not None
        await service.act(table.id, user, table.prompt_version, engine.default_action(state, seat))
    assert windows >= 3
    assert not any(seat.autopilot for seat in table.seats)


async def test_more_time_extends_a_window_once_per_player(service: TableService, clock: FakeClock) -> None:
    publisher = service.publisher
    assert isinstance(publisher, RecordingPublisher)
    table = await coup_table(service)
    await declare_tax(service, table)
    window, deadline = table.prompt_version, table.deadline
    assert deadline is not None

    await service.more_time(table.id, BOB, window)
    assert table.deadline == deadline + MORE_TIME_SECONDS and table.extended == {1}
    stored = await service.storage.get_clock(table.id)
    assert stored is not None and stored.deadline == deadline + MORE_TIME_SECONDS

    refusals = [
        (BOB, window, "react.already_extended"),  # a second press
        (HOST, window, "react.not_awaited"),  # the declarer is not asked whether to react
        (999, window, "table.not_seated"),
        (CAROL, window - 1, "react.window_closed"),  # a button of an earlier prompt
    ]
    for user, prompt, code in refusals:
        with pytest.raises(TableError) as refused:
            await service.more_time(table.id, user, prompt)
        assert refused.value.code == code
    assert table.deadline == deadline + MORE_TIME_SECONDS

    # Bob allows: the same window goes on for Carol, with its longer deadline, and she may still ask.
    await service.act(table.id, BOB, window, Allow())
    assert table.prompt_version == window and table.deadline == deadline + MORE_TIME_SECONDS
    await service.more_time(table.id, CAROL, window)
    assert table.deadline == deadline + 2 * MORE_TIME_SECONDS
    stored = await service.storage.get_clock(table.id)
    assert stored is not None and stored.deadline == deadline + 2 * MORE_TIME_SECONDS

    await service.act(table.id, CAROL, window, Allow())  # the window closes: a turn follows
    assert table.extended == frozenset() and table.deadline == clock.now + 60
    with pytest.raises(TableError) as refused:
        await service.more_time(table.id, BOB, table.prompt_version)  # no window now
    assert refused.value.code == "react.window_closed"


async def test_a_clock_extended_by_another_process_waits_for_its_new_deadline(service: TableService) -> None:
    table = await coup_table(service)
    await declare_tax(service, table)
    window, deadline = table.prompt_version, table.deadline
    assert deadline is not None
    await service.storage.extend_clock(table.id, window, MORE_TIME_SECONDS)  # a press served elsewhere

    await service.on_clock(table.id, window)  # this process's timer rings at the old deadline

    assert table.state is not None and table.state.version == 1  # nobody was timed out
    assert table.deadline == deadline + MORE_TIME_SECONDS
    await service.on_clock(table.id, window)  # at the new deadline the window passes
    assert table.state.phase is Phase.DECLARE  # type: ignore[attr-defined]


async def test_own_turn_income_then_window_resets_nothing(service: TableService) -> None:
    """A missed turn's count survives the windows that follow it (they neither add nor clear)."""
    table = await coup_table(service)
    await service.on_clock(table.id, table.prompt_version)  # HOST misses a turn: Income by default
    assert timeouts(table) == [1, 0, 0]
    await declare_tax(service, table)  # BOB's Tax: HOST and CAROL may react
    await service.on_clock(table.id, table.prompt_version)
    assert timeouts(table) == [1, 0, 0]
    await service.act(table.id, CAROL, table.prompt_version, TakeIncome())
    await service.on_clock(table.id, table.prompt_version)  # HOST misses a second turn of its own
    assert table.seats[0].autopilot


def now(table: Table) -> IntrigueState:
    assert isinstance(table.state, IntrigueState)
    return table.state


def settled(table: Table) -> bool:
    """Return whether the table has answered every decision it answers itself (AI seats, standing passes)."""
    state = now(table)
    return not any(table.answered_for(i, state) for i in table.engine.active_seats(state))


async def _to_window_of(service: TableService, table: Table, seat: int, *, after_turn: int = 0) -> None:
    """Answer every other decision with its default until a window asks ``seat`` (in a turn after ``after_turn``)."""
    engine = table.engine
    for _ in range(200):
        await wait_until(lambda: settled(table))
        state = now(table)
        assert table.status == "active"
        if seat in reaction_seats(engine, state) and state.turn > after_turn:
            return
        index = min(engine.active_seats(state) - {seat}, default=seat)
        user = table.seats[index].user_id
        assert user is not None
        await service.act(table.id, user, table.prompt_version, engine.default_action(state, index))
    raise AssertionError("no window asked the seat")


async def test_a_standing_pass_answers_the_rest_of_the_turns_windows(service: TableService) -> None:
    table = await intrigue_table(service, {"clock": 90, "game": {}})
    engine = table.engine
    await _to_window_of(service, table, 0)
    turn = now(table).turn
    await service.pass_windows(table.id, HOST, table.prompt_version)
    assert table.seats[0].passing == turn
    log = await service.storage.action_log(table.id)
    assert (log[-1].seat, log[-1].user_id, log[-1].by_timeout) == (0, HOST, False)  # Done, as Наташа's own answer

    # Every later window of this turn is passed by the table as soon as it asks her; Bob is still asked.
    asked_bob = passed_for_her = 0
    while now(table).turn == turn:
        await wait_until(lambda: settled(table))
        state = table.state
        assert state is not None
        assert not (table.is_reaction(state) and 0 in engine.active_seats(state))
        index = min(engine.active_seats(state))
        asked_bob += index == 1 and table.is_reaction(state)
        user = table.seats[index].user_id
        assert user is not None
        await service.act(table.id, user, table.prompt_version, engine.default_action(state, index))
    log = await service.storage.action_log(table.id)
    passed_for_her = sum(
        1 for entry in log if entry.seat == 0 and entry.user_id == HOST and entry.action == '{"kind":"done"}'
    )
    assert asked_bob >= 1 and passed_for_her >= 2  # the Done she clicked and at least one the table gave for her

    # A new turn asks her again: the pass lasted its turn only.
    await _to_window_of(service, table, 0, after_turn=turn)
    assert not table.passes(0, now(table))
    assert 0 in engine.active_seats(now(table))


async def test_a_standing_pass_can_be_taken_back_and_is_refused_outside_its_window(service: TableService) -> None:
    table = await intrigue_table(service, {"clock": 90, "game": {}})
    engine = table.engine
    state = table.state
    assert state is not None and not table.is_reaction(state)
    for user, prompt, code in [
        (HOST, table.prompt_version, "react.window_closed"),  # no window now
        (999, table.prompt_version, "table.not_seated"),
    ]:
        with pytest.raises(TableError) as refused:
            await service.pass_windows(table.id, user, prompt)
        assert refused.value.code == code
    with pytest.raises(TableError) as refused:
        await service.resume_windows(table.id, HOST)
    assert refused.value.code == "react.not_passing"

    await _to_window_of(service, table, 1)
    window = table.prompt_version
    if 0 in reaction_seats(engine, now(table)):
        await service.act(table.id, HOST, window, engine.default_action(now(table), 0))
    with pytest.raises(TableError) as refused:
        await service.pass_windows(table.id, HOST, window)  # she has answered this window already
    assert refused.value.code in ("react.pass_not_awaited", "react.window_closed")
    with pytest.raises(TableError) as refused:
        await service.pass_windows(table.id, BOB, window - 1)  # a button of an earlier prompt
    assert refused.value.code == "react.window_closed"

    turn = now(table).turn
    await service.pass_windows(table.id, BOB, table.prompt_version)
    await service.resume_windows(table.id, BOB)
    assert table.seats[1].passing is None
    # Taken back: the next window of the same turn asks Bob again.
    await _to_window_of(service, table, 1)
    assert now(table).turn == turn and 1 in engine.active_seats(now(table))


async def test_coup_offers_no_standing_pass(service: TableService) -> None:
    table = await coup_table(service)
    await declare_tax(service, table)
    with pytest.raises(TableError) as refused:
        await service.pass_windows(table.id, BOB, table.prompt_version)
    assert refused.value.code == "react.window_closed"
    assert table.state is not None and 1 in table.engine.active_seats(table.state)
