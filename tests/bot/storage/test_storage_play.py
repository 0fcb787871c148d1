"""Tables in play: the one-transaction commit, conflicts, clocks, snapshots, finishing, ratings, restarts."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

import pytest

from bot.ratings import DEFAULT_MU, DEFAULT_SIGMA, ordinal
from bot.storage import (
    LOBBY_VERSION,
    ClockRow,
    FinishRow,
    LogEntry,
    RatingChange,
    RatingUpdate,
    SeatNotFoundError,
    SeatResult,
    SeatUpdate,
    Storage,
    TableRow,
    TableStatus,
    TableStatusError,
    VersionConflictError,
)
from games.core.models import Outcome
from tests.support.postgres import Backend

pytestmark = pytest.mark.asyncio

GUILD = 100
T0 = 1_700_000_000.0


def state_json(version: int) -> str:
    """Return a stand-in engine state: storage never parses states, so any JSON text will do."""
    return json.dumps({"version": version, "board": "x" * 64})


class TableHelper:
    """Builds lobbies and games in one storage with little ceremony."""

    guild = GUILD
    t0 = T0
    state = staticmethod(state_json)

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def lobby(self, *, humans: Sequence[int] = (1, 2), ais: int = 0) -> TableRow:
        table = await self.storage.create_table(
            guild_id=GUILD,
            channel_id=200,
            game="coup",
            host_id=humans[0] if humans else 1,
            options={"variant": "base"},
            seed="seed-1",
            locale="ru",
            now=T0,
        )
        for user_id in humans:
            await self.storage.add_lobby_seat(table.id, user_id, False, f"user{user_id}", max_seats=6)
        for index in range(ais):
            await self.storage.add_lobby_seat(table.id, None, True, f"AI {index + 1}", max_seats=6)
        return table

    async def active(self, *, humans: Sequence[int] = (1, 2), ais: int = 0, thread_id: int | None = None) -> TableRow:
        """Start a table at version 0 with a clock on seat 0."""
        table = await self.lobby(humans=humans, ais=ais)
        lobby = await self.storage.lobby_seats(table.id)
        await self.storage.start_table(
            table.id,
            positions=[seat.position for seat in lobby],
            state_json=state_json(0),
            version=0,
            thread_id=thread_id,
            board_message_id=None,
            clock=ClockRow(table.id, 0, T0 + 60, (0,)),
            now=T0 + 1,
        )
        started = await self.storage.get_table(table.id)
        assert started is not None
        return started

    async def play(self, table_id: int, moves: int, *, start: int = 0) -> None:
        """Commit ``moves`` actions, rotating two seats, each with a clock for the next version."""
        for version in range(start, start + moves):
            await self.storage.commit_action(
                table_id,
                version,
                state_json(version + 1),
                version + 1,
                LogEntry(version % 2, json.dumps({"kind": "income", "n": version}), user_id=version % 2 + 1),
                clock=ClockRow(table_id, version + 1, T0 + 100 + version, ((version + 1) % 2,)),
                now=T0 + 10 + version,
            )


@pytest.fixture
def tables(storage: Storage) -> TableHelper:
    return TableHelper(storage)


def _entry(seat: int = 0, n: int = 0, **extra: Any) -> LogEntry:
    return LogEntry(seat, json.dumps({"kind": "income", "n": n}), **extra)


async def _everything(storage: Storage, table_id: int) -> tuple[object, ...]:
    """Return all that a commit may touch, to compare before and after a refused write."""
    return (
        await storage.get_table(table_id),
        await storage.seats(table_id),
        await storage.action_log(table_id),
        await storage.all_clocks(),
        await storage.snapshot_versions(table_id),
        await storage.results(table_id),
    )


async def _finish(storage: Storage, table: TableRow, outcome: Outcome, *, rated: bool = True) -> list[RatingChange]:
    return await storage.commit_action(
        table.id,
        table.version,
        "{}",
        table.version + 1,
        LogEntry(seat=0, action='{"kind": "coup"}'),
        clock=None,
        finished=FinishRow.from_outcome(outcome, rated=rated),
        now=T0 + 100,
    )


async def test_commit_action_writes_state_log_and_clock(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active()
    clock = ClockRow(table.id, 1, T0 + 120, (1,))
    changes = await storage.commit_action(
        table.id, 0, tables.state(1), 1, _entry(0, user_id=1), clock=clock, now=T0 + 20
    )
    assert changes == []
    stored = await storage.get_table(table.id)
    assert stored is not None
    assert (stored.version, stored.state, stored.updated_at) == (1, tables.state(1), T0 + 20)
    [logged] = await storage.action_log(table.id)
    assert (logged.seq, logged.seat, logged.user_id, logged.by_timeout, logged.created_at) == (0, 0, 1, False, T0 + 20)
    assert json.loads(logged.action) == {"kind": "income", "n": 0}
    assert await storage.get_clock(table.id) == clock


async def test_version_conflict_writes_nothing(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active()
    await tables.play(table.id, 2)
    before = await _everything(storage, table.id)
    with pytest.raises(VersionConflictError) as error:
        await storage.commit_action(
            table.id,
            1,  # stale: the table is at version 2
            tables.state(99),
            2,
            _entry(1),
            clock=None,
            seat_updates=[SeatUpdate(0, 5, True)],
            finished=FinishRow((SeatResult(0, 0), SeatResult(1, 1))),
            now=T0 + 99,
        )
    assert (error.value.expected_version, error.value.actual_version, error.value.status) == (1, 2, "active")
    assert await _everything(storage, table.id) == before


async def test_commit_on_a_table_that_is_not_active_conflicts(storage: Storage, tables: TableHelper) -> None:
    lobby = await tables.lobby()
    with pytest.raises(VersionConflictError) as error:
        await storage.commit_action(lobby.id, -1, "{}", 0, _entry(), clock=None, now=T0)
    assert error.value.status == "lobby"
    with pytest.raises(VersionConflictError) as error:
        await storage.commit_action(12345, 0, "{}", 1, _entry(), clock=None, now=T0)
    assert (error.value.actual_version, error.value.status) == (None, None)
    assert await storage.action_log(lobby.id) == []


async def test_inconsistent_arguments_are_rejected_before_writing(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active()
    with pytest.raises(ValueError, match="version"):
        await storage.commit_action(table.id, 0, "{}", 2, _entry(), clock=None, now=T0)
    with pytest.raises(ValueError, match="clock"):
        # A clock may guard the prompt the write continues (an older version), never a future one.
        await storage.commit_action(table.id, 0, "{}", 1, _entry(), clock=ClockRow(table.id, 2, T0, (0,)), now=T0)
    with pytest.raises(ValueError, match="clock"):
        await storage.commit_action(
            table.id, 0, "{}", 1, _entry(), clock=ClockRow(table.id, 1, T0, (0,)), finished=FinishRow(), now=T0
        )
    assert await storage.action_log(table.id) == []


async def test_two_concurrent_commits_of_the_same_version_apply_once(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active()

    async def commit(seat: int) -> list[RatingChange]:
        return await storage.commit_action(
            table.id, 0, tables.state(1), 1, _entry(seat), clock=ClockRow(table.id, 1, T0, (seat,)), now=T0
        )

    outcomes = await asyncio.gather(commit(0), commit(1), return_exceptions=True)
    assert sorted(type(outcome).__name__ for outcome in outcomes) == ["VersionConflictError", "list"]
    log = await storage.action_log(table.id)
    assert len(log) == 1
    winner = log[0].seat
    assert await storage.all_clocks() == [ClockRow(table.id, 1, T0, (winner,))]


async def test_two_processes_cannot_both_apply_a_move(backend: Backend) -> None:
    first = await backend.open()
    second = await backend.open()
    try:
        table = await TableHelper(first).active()
        outcomes = await asyncio.gather(
            first.commit_action(table.id, 0, "{}", 1, _entry(0), clock=None, now=T0),
            second.commit_action(table.id, 0, "{}", 1, _entry(1), clock=None, now=T0),
            return_exceptions=True,
        )
        assert sum(isinstance(outcome, VersionConflictError) for outcome in outcomes) == 1
        assert len(await second.action_log(table.id)) == 1
    finally:
        await first.close()
        await second.close()


async def test_cancelled_commit_is_all_or_nothing(storage: Storage, tables: TableHelper) -> None:
    """Cancel commits ever later (from before BEGIN to after COMMIT): each lands whole or not at all."""
    outcomes = set()
    for step in range(1000):
        table = await tables.active()
        task = asyncio.create_task(
            storage.commit_action(
                table.id,
                0,
                state_json(1),
                1,
                _entry(),
                clock=ClockRow(table.id, 1, T0, (1,)),
                seat_updates=[SeatUpdate(0, 1, False)],
                now=T0,
            )
        )
        if step:
            # Step 0 cancels before the task ever runs (rolled back for sure, however busy the machine).
            await asyncio.sleep(step * 20e-6)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

        stored = await storage.get_table(table.id)
        assert stored is not None
        log = await storage.action_log(table.id)
        clock = await storage.get_clock(table.id)
        seat = (await storage.seats(table.id))[0]
        if stored.version == 0:  # rolled back: nothing of it is visible
            assert (log, clock, seat.timeouts_in_row) == ([], ClockRow(table.id, 0, T0 + 60, (0,)), 0)
        else:  # committed: all of it is visible
            assert (len(log), clock, seat.timeouts_in_row) == (1, ClockRow(table.id, 1, T0, (1,)), 1)
        await tables.play(table.id, 1, start=stored.version)  # the connection is still usable
        outcomes.add(stored.version)
        if stored.version == 1:
            break
    assert outcomes == {0, 1}


async def test_clock_is_replaced_and_deleted(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active()
    assert [clock.version for clock in await storage.all_clocks()] == [0]
    await storage.commit_action(table.id, 0, "{}", 1, _entry(), clock=ClockRow(table.id, 1, T0 + 50, (0, 1)), now=T0)
    assert await storage.all_clocks() == [ClockRow(table.id, 1, T0 + 50, (0, 1))]
    await storage.commit_action(table.id, 1, "{}", 2, _entry(), clock=None, now=T0)
    assert await storage.all_clocks() == []


async def test_all_clocks_orders_by_deadline(storage: Storage, tables: TableHelper) -> None:
    late = await tables.active()
    early = await tables.active()
    await storage.commit_action(late.id, 0, "{}", 1, _entry(), clock=ClockRow(late.id, 1, T0 + 90, (1,)), now=T0)
    await storage.commit_action(early.id, 0, "{}", 1, _entry(), clock=ClockRow(early.id, 1, T0 + 30, (1,)), now=T0)
    assert [clock.table_id for clock in await storage.all_clocks()] == [early.id, late.id]


async def test_set_clock_only_guards_the_current_version(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active()
    assert await storage.set_clock(ClockRow(table.id, 0, T0 + 500, (1,))) is True
    assert await storage.get_clock(table.id) == ClockRow(table.id, 0, T0 + 500, (1,))
    assert await storage.set_clock(ClockRow(table.id, 7, T0 + 600, (1,))) is False
    await storage.clear_clock(table.id)
    assert await storage.get_clock(table.id) is None


async def test_snapshot_cadence(backend: Backend) -> None:
    storage = await backend.open(snapshot_every=3)
    try:
        tables = TableHelper(storage)
        table = await tables.active()
        await tables.play(table.id, 10)
        assert await storage.snapshot_versions(table.id) == [0, 3, 6, 9]
        snapshot = await storage.latest_snapshot(table.id)
        assert snapshot is not None
        assert (snapshot.version, snapshot.state) == (9, tables.state(9))
        replay = await storage.replay_data(table.id)
        assert replay is not None
        assert [entry.seq for entry in replay.log] == list(range(10))
        assert [entry.seq for entry in replay.log_after_snapshot()] == [9]
        assert [entry.seq for entry in await storage.action_log(table.id, since=8)] == [8, 9]
    finally:
        await storage.close()


async def test_seat_updates_are_written_with_the_action(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active()
    await storage.commit_action(
        table.id,
        0,
        "{}",
        1,
        _entry(0, by_timeout=True),
        clock=None,
        seat_updates=[SeatUpdate(seat=0, timeouts_in_row=3, autopilot=True)],
        now=T0,
    )
    seats = await storage.seats(table.id)
    assert [(seat.timeouts_in_row, seat.autopilot) for seat in seats] == [(3, True), (0, False)]
    assert (await storage.action_log(table.id))[0].by_timeout is True

    await storage.set_seat_autopilot(table.id, 0, autopilot=False, timeouts_in_row=0)  # "I'm back"
    assert (await storage.seats(table.id))[0].autopilot is False


async def test_update_of_a_missing_seat_rolls_the_action_back(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active()
    before = await _everything(storage, table.id)
    with pytest.raises(SeatNotFoundError) as error:
        await storage.commit_action(
            table.id,
            0,
            "{}",
            1,
            _entry(),
            clock=None,
            seat_updates=[SeatUpdate(0, 1, False), SeatUpdate(5, 1, True)],
            now=T0,
        )
    assert error.value.seat == 5
    assert await _everything(storage, table.id) == before
    with pytest.raises(SeatNotFoundError):
        await storage.set_seat_autopilot(table.id, 9, autopilot=True, timeouts_in_row=0)


async def test_finishing_move_writes_results_and_ends_the_table(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active(humans=(1, 2), ais=1, thread_id=321)
    finish = FinishRow((SeatResult(0, 1, 3.0), SeatResult(1, 0, 7.0), SeatResult(2, 2, 1.0)), rated=False)
    await storage.commit_action(table.id, 0, tables.state(1), 1, _entry(), clock=None, finished=finish, now=T0 + 30)

    stored = await storage.get_table(table.id)
    assert stored is not None
    assert (stored.status, stored.version, stored.finished_at) == (TableStatus.FINISHED, 1, T0 + 30)
    assert await storage.live_tables() == []
    assert await storage.all_clocks() == []
    assert await storage.find_active_table_for_thread(321) is None
    results = await storage.results(table.id)
    assert [(r.seat, r.user_id, r.is_ai, r.rank, r.score) for r in results] == [
        (0, 1, False, 1, 3.0),
        (1, 2, False, 0, 7.0),
        (2, None, True, 2, 1.0),
    ]
    assert all((r.guild_id, r.game, r.finished_at) == (tables.guild, "coup", T0 + 30) for r in results)
    with pytest.raises(VersionConflictError):  # a finished table takes no more moves
        await storage.commit_action(table.id, 1, "{}", 2, _entry(), clock=None, now=T0)


async def test_results_must_cover_every_seat(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active()
    before = await _everything(storage, table.id)
    with pytest.raises(ValueError, match="seats"):
        await storage.commit_action(
            table.id, 0, "{}", 1, _entry(), clock=None, finished=FinishRow((SeatResult(0, 0),)), now=T0
        )
    assert await _everything(storage, table.id) == before


async def test_host_ends_an_active_table_without_a_result(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active()
    assert await storage.finish_table(table.id, now=T0 + 50) == []
    stored = await storage.get_table(table.id)
    assert stored is not None
    assert (stored.status, stored.finished_at, stored.version) == (TableStatus.FINISHED, T0 + 50, 0)
    assert await storage.results(table.id) == []
    assert await storage.all_clocks() == []
    with pytest.raises(TableStatusError):
        await storage.finish_table(table.id, now=T0 + 51)


async def test_cancel_an_active_table(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active()
    await storage.cancel_table(table.id, now=T0 + 60)
    stored = await storage.get_table(table.id)
    assert stored is not None and stored.status is TableStatus.CANCELLED
    assert await storage.all_clocks() == []
    with pytest.raises(VersionConflictError):
        await storage.commit_action(table.id, 0, "{}", 1, _entry(), clock=None, now=T0)


async def test_action_log_is_append_only(backend: Backend, tables: TableHelper) -> None:
    table = await tables.active()
    await tables.play(table.id, 1)
    with pytest.raises(backend.sql_errors, match="append-only"):
        await backend.execute("UPDATE action_log SET seat = 5")


async def test_board_message_and_thread(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active()
    await storage.set_board_message(table.id, 41)
    await storage.set_thread(table.id, 42)
    stored = await storage.get_table(table.id)
    assert stored is not None and (stored.board_message_id, stored.thread_id) == (41, 42)
    assert await storage.find_active_table_for_thread(42) == stored
    assert await storage.find_active_table_for_thread(43) is None


async def test_rated_finish_moves_winner_up_and_loser_down(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active(humans=(1, 2))
    changes = await _finish(storage, table, Outcome(ranks=(1, 0)))
    ratings = await storage.get_ratings(tables.guild, "coup", [1, 2, 3])
    assert set(ratings) == {1, 2}
    assert ratings[2].mu > DEFAULT_MU > ratings[1].mu
    assert ratings[2].sigma < DEFAULT_SIGMA
    assert (ratings[2].games, ratings[2].wins, ratings[1].games, ratings[1].wins) == (1, 1, 1, 0)
    assert ratings[2].updated_at == T0 + 100

    by_user = {change.user_id: change for change in changes}
    assert by_user[2].mu_before == DEFAULT_MU and by_user[2].sigma_before == DEFAULT_SIGMA
    assert by_user[2].mu_after == ratings[2].mu
    assert by_user[2].ordinal_delta > 0 > by_user[1].ordinal_delta
    assert await storage.rating_changes(table.id) == sorted(changes, key=lambda change: change.user_id)


async def test_second_game_builds_on_the_first(storage: Storage, tables: TableHelper) -> None:
    await _finish(storage, await tables.active(humans=(1, 2)), Outcome(ranks=(0, 1)))
    first = (await storage.get_ratings(tables.guild, "coup", [1]))[1]
    changes = await _finish(storage, await tables.active(humans=(1, 2)), Outcome(ranks=(0, 1)))
    second = (await storage.get_ratings(tables.guild, "coup", [1]))[1]
    assert (second.games, second.wins) == (2, 2)
    assert second.mu > first.mu
    assert {change.user_id: change.mu_before for change in changes}[1] == first.mu


async def test_ai_seats_are_never_rated(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active(humans=(1, 2), ais=1)  # the AI is seat 2 and wins
    changes = await _finish(storage, table, Outcome(ranks=(1, 2, 0)))
    assert {change.user_id for change in changes} == {1, 2}
    ratings = await storage.get_ratings(tables.guild, "coup", [1, 2])
    assert ratings[1].mu > ratings[2].mu
    assert ratings[1].wins == ratings[2].wins == 0  # the AI took first place

    solo = await tables.active(humans=(3,), ais=2)
    assert await _finish(storage, solo, Outcome(ranks=(0, 1, 2))) == []
    assert await storage.get_ratings(tables.guild, "coup", [3]) == {}
    assert len(await storage.results(solo.id)) == 3  # results are kept even when nothing is rated


async def test_teams_move_together(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active(humans=(1, 2, 3, 4))
    await _finish(storage, table, Outcome(ranks=(0, 1, 0, 1), teams=((0, 2), (1, 3))))
    ratings = await storage.get_ratings(tables.guild, "coup", [1, 2, 3, 4])
    assert ratings[1].mu == pytest.approx(ratings[3].mu)
    assert ratings[2].mu == pytest.approx(ratings[4].mu)
    assert ratings[1].mu > DEFAULT_MU > ratings[2].mu
    assert [r.team for r in await storage.results(table.id)] == [0, 1, 0, 1]


async def test_unrated_finish_keeps_ratings(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active(humans=(1, 2))
    assert await _finish(storage, table, Outcome(ranks=(0, 1)), rated=False) == []
    assert await storage.get_ratings(tables.guild, "coup", [1, 2]) == {}
    assert await storage.rating_changes(table.id) == []


async def test_finish_table_with_a_result_rates(storage: Storage, tables: TableHelper) -> None:
    table = await tables.active(humans=(1, 2))
    changes = await storage.finish_table(table.id, now=T0, finished=FinishRow((SeatResult(0, 0), SeatResult(1, 1))))
    assert {change.user_id for change in changes} == {1, 2}


async def test_leaderboard_orders_by_ordinal(storage: Storage) -> None:
    await storage.apply_ratings(
        100,
        "coup",
        [
            RatingUpdate(user_id=1, mu=30.0, sigma=5.0, won=True),  # ordinal 15
            RatingUpdate(user_id=2, mu=40.0, sigma=7.0, won=True),  # ordinal 19: top despite...
            RatingUpdate(user_id=3, mu=32.0, sigma=1.0, won=False),  # ordinal 29: ...this one is the best
            RatingUpdate(user_id=4, mu=50.0, sigma=20.0, won=True),  # ordinal -10: high mu, unsure
        ],
        now=T0,
    )
    await storage.apply_ratings(100, "masti", [RatingUpdate(5, 99.0, 1.0, True)], now=T0)
    await storage.apply_ratings(101, "coup", [RatingUpdate(6, 99.0, 1.0, True)], now=T0)
    board = await storage.leaderboard(100, "coup", limit=3)
    assert [row.user_id for row in board] == [3, 2, 1]
    assert [row.ordinal for row in board] == sorted((row.ordinal for row in board), reverse=True)
    assert board[0].ordinal == ordinal(32.0, 1.0)
    assert len(await storage.leaderboard(100, "coup")) == 4


async def test_apply_ratings_counts_games_and_wins(storage: Storage) -> None:
    await storage.apply_ratings(100, "coup", [RatingUpdate(1, 26.0, 8.0, True)], now=T0)
    await storage.apply_ratings(100, "coup", [RatingUpdate(1, 25.5, 7.5, False)], now=T0 + 1)
    await storage.apply_ratings(100, "masti", [RatingUpdate(1, 27.0, 8.0, True)], now=T0 + 2)
    stats = await storage.player_stats(100, 1)
    assert [(row.game, row.games, row.wins, row.mu, row.sigma) for row in stats] == [
        ("coup", 2, 1, 25.5, 7.5),
        ("masti", 1, 1, 27.0, 8.0),
    ]
    assert await storage.player_stats(101, 1) == []


async def test_everything_survives_a_restart(backend: Backend) -> None:
    store = await backend.open(snapshot_every=2)
    helper = TableHelper(store)
    lobby = await helper.lobby(humans=(7,), ais=1)
    await store.set_lobby_message(lobby.id, 555)
    active = await helper.active(humans=(1, 2), ais=1, thread_id=900)
    await helper.play(active.id, 3)
    await store.close()

    store = await backend.open(snapshot_every=2)
    try:
        live = {table.id: table for table in await store.live_tables()}
        assert set(live) == {lobby.id, active.id}
        assert live[lobby.id].status is TableStatus.LOBBY
        assert live[lobby.id].version == LOBBY_VERSION
        assert live[lobby.id].lobby_message_id == 555
        assert live[lobby.id].options == {"variant": "base"}
        assert live[active.id].status is TableStatus.ACTIVE
        assert live[active.id].version == 3
        assert live[active.id].state == state_json(3)
        assert live[active.id].thread_id == 900

        assert await store.all_clocks() == [ClockRow(active.id, 3, T0 + 102, (1,))]
        assert [entry.seq for entry in await store.action_log(active.id)] == [0, 1, 2]
        assert [(seat.seat, seat.user_id, seat.is_ai) for seat in await store.seats(active.id)] == [
            (0, 1, False),
            (1, 2, False),
            (2, None, True),
        ]
        assert [(seat.position, seat.user_id) for seat in await store.lobby_seats(lobby.id)] == [(0, 7), (1, None)]

        replay = await store.replay_data(active.id)
        assert replay is not None
        assert (replay.table.seed, replay.table.options) == ("seed-1", {"variant": "base"})
        assert replay.snapshot is not None
        assert replay.snapshot.version == 2
        assert [entry.seq for entry in replay.log_after_snapshot()] == [2]
        assert len(replay.seats) == 3
        assert await store.replay_data(9999) is None

        await TableHelper(store).play(active.id, 1, start=3)  # play resumes where it stopped
        table = await store.get_table(active.id)
        assert table is not None
        assert table.version == 4
    finally:
        await store.close()
