"""Lobby tables: creating, joining, leaving, options, and the one-time start."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from bot.storage import (
    LOBBY_VERSION,
    AlreadySeatedError,
    ClockRow,
    LobbyChangedError,
    SeatRow,
    Storage,
    TableFullError,
    TableNotFoundError,
    TableRow,
    TableStatus,
    TableStatusError,
)

pytestmark = pytest.mark.asyncio

GUILD = 100
T0 = 1_700_000_000.0


async def _new(storage: Storage, **overrides: Any) -> TableRow:
    fields: dict[str, Any] = {
        "guild_id": GUILD,
        "channel_id": 200,
        "game": "coup",
        "host_id": 1,
        "options": {"variant": "base", "timer": 60, "названия": ["Переворот"]},
        "seed": "abc",
        "locale": "ru",
        "now": T0,
    }
    fields.update(overrides)
    return await storage.create_table(**fields)


async def _start(
    storage: Storage, table_id: int, positions: Sequence[int], *, clock: ClockRow | None = None
) -> list[SeatRow]:
    return await storage.start_table(
        table_id,
        positions=positions,
        state_json='{"version": 0}',
        version=0,
        thread_id=300,
        board_message_id=400,
        clock=clock,
        now=T0 + 5,
    )


async def test_create_table_starts_in_the_lobby(storage: Storage) -> None:
    table = await _new(storage)
    assert table.status is TableStatus.LOBBY
    assert table.version == LOBBY_VERSION
    assert table.state is None
    assert table.options == {"variant": "base", "timer": 60, "названия": ["Переворот"]}
    assert (table.created_at, table.updated_at, table.finished_at) == (T0, T0, None)
    assert await storage.get_table(table.id) == table
    assert await storage.get_table(table.id + 1) is None

    rematch = await _new(storage, rematch_of=table.id)
    assert rematch.rematch_of == table.id
    assert rematch.id > table.id


async def test_lobby_keeps_join_order_and_allows_several_ais(storage: Storage) -> None:
    table = await _new(storage)
    await storage.add_lobby_seat(table.id, 1, False, "Аня", max_seats=4)
    ai = await storage.add_lobby_seat(table.id, None, True, "AI 1", max_seats=4)
    await storage.add_lobby_seat(table.id, 2, False, "Boris", max_seats=4)
    await storage.add_lobby_seat(table.id, None, True, "AI 2", max_seats=4)
    assert ai.is_ai and ai.user_id is None and ai.seat is None
    seats = await storage.lobby_seats(table.id)
    assert [(seat.position, seat.user_id, seat.display_name) for seat in seats] == [
        (0, 1, "Аня"),
        (1, None, "AI 1"),
        (2, 2, "Boris"),
        (3, None, "AI 2"),
    ]
    assert await storage.seats(table.id) == seats


async def test_join_twice_is_refused(storage: Storage) -> None:
    table = await _new(storage)
    await storage.add_lobby_seat(table.id, 1, False, "a", max_seats=4)
    with pytest.raises(AlreadySeatedError) as error:
        await storage.add_lobby_seat(table.id, 1, False, "a", max_seats=4)
    assert error.value.user_id == 1
    assert len(await storage.lobby_seats(table.id)) == 1


async def test_full_lobby_is_refused(storage: Storage) -> None:
    table = await _new(storage)
    await storage.add_lobby_seat(table.id, 1, False, "a", max_seats=2)
    await storage.add_lobby_seat(table.id, None, True, "AI", max_seats=2)
    with pytest.raises(TableFullError) as error:
        await storage.add_lobby_seat(table.id, 2, False, "b", max_seats=2)
    assert error.value.max_seats == 2
    with pytest.raises(AlreadySeatedError):  # a seated player clicking Join hears "already seated"
        await storage.add_lobby_seat(table.id, 1, False, "a", max_seats=2)


async def test_concurrent_joins_never_overfill(storage: Storage) -> None:
    table = await _new(storage)
    outcomes = await asyncio.gather(
        *(storage.add_lobby_seat(table.id, user_id, False, f"u{user_id}", max_seats=3) for user_id in range(10)),
        return_exceptions=True,
    )
    assert sum(not isinstance(outcome, BaseException) for outcome in outcomes) == 3
    assert all(isinstance(outcome, TableFullError) for outcome in outcomes if isinstance(outcome, BaseException))
    assert len(await storage.lobby_seats(table.id)) == 3


async def test_leave_and_remove_ai(storage: Storage) -> None:
    table = await _new(storage)
    await storage.add_lobby_seat(table.id, 1, False, "a", max_seats=4)
    ai = await storage.add_lobby_seat(table.id, None, True, "AI", max_seats=4)
    await storage.add_lobby_seat(table.id, 2, False, "b", max_seats=4)
    assert await storage.remove_lobby_seat(table.id, 1) is True
    assert await storage.remove_lobby_seat(table.id, 1) is False
    assert await storage.remove_lobby_position(table.id, ai.position) is True
    rejoined = await storage.add_lobby_seat(table.id, 1, False, "a", max_seats=4)
    assert rejoined.position == 3  # positions are never reused, so join order stays honest
    assert [seat.user_id for seat in await storage.lobby_seats(table.id)] == [2, 1]


async def test_lobby_writes_check_the_table(storage: Storage) -> None:
    with pytest.raises(TableNotFoundError):
        await storage.add_lobby_seat(999, 1, False, "a", max_seats=4)
    with pytest.raises(TableNotFoundError):
        await storage.remove_lobby_seat(999, 1)
    with pytest.raises(TableNotFoundError):
        await storage.update_options(999, {})
    with pytest.raises(TableNotFoundError):
        await storage.set_lobby_message(999, 1)


async def test_update_options_and_messages(storage: Storage) -> None:
    table = await _new(storage)
    await storage.update_options(table.id, {"timer": 30})
    await storage.set_lobby_message(table.id, 777)
    stored = await storage.get_table(table.id)
    assert stored is not None
    assert stored.options == {"timer": 30}
    assert stored.lobby_message_id == 777


async def test_start_assigns_seats_in_the_given_order(storage: Storage) -> None:
    table = await _new(storage)
    for user_id in (1, 2, 3):
        await storage.add_lobby_seat(table.id, user_id, False, f"u{user_id}", max_seats=4)
    clock = ClockRow(table.id, 0, T0 + 65, (2,))
    seats = await _start(storage, table.id, [2, 0, 1], clock=clock)
    assert [(seat.seat, seat.user_id) for seat in seats] == [(0, 3), (1, 1), (2, 2)]

    started = await storage.get_table(table.id)
    assert started is not None
    assert started.status is TableStatus.ACTIVE
    assert (started.version, started.state) == (0, '{"version": 0}')
    assert (started.thread_id, started.board_message_id, started.updated_at) == (300, 400, T0 + 5)
    assert await storage.all_clocks() == [clock]
    snapshot = await storage.latest_snapshot(table.id)
    assert snapshot is not None and snapshot.version == 0
    assert await storage.find_active_table_for_thread(300) == started


async def test_start_without_positions_seats_in_join_order(storage: Storage) -> None:
    table = await _new(storage)
    await storage.add_lobby_seat(table.id, 5, False, "a", max_seats=4)
    await storage.add_lobby_seat(table.id, None, True, "AI", max_seats=4)
    await storage.add_lobby_seat(table.id, 3, False, "b", max_seats=4)
    seats = await storage.start_table(table.id, state_json="{}", version=0, clock=None, now=T0)
    assert [(seat.seat, seat.user_id) for seat in seats] == [(0, 5), (1, None), (2, 3)]
    stored = await storage.get_table(table.id)
    assert stored is not None
    assert (stored.thread_id, stored.board_message_id) == (None, None)


async def test_empty_lobby_cannot_start(storage: Storage) -> None:
    table = await _new(storage)
    with pytest.raises(LobbyChangedError):
        await storage.start_table(table.id, state_json="{}", version=0, clock=None, now=T0)


async def test_ai_flag_must_match_the_user(storage: Storage) -> None:
    table = await _new(storage)
    with pytest.raises(ValueError, match="AI"):
        await storage.add_lobby_seat(table.id, 1, True, "a", max_seats=4)
    with pytest.raises(ValueError, match="AI"):
        await storage.add_lobby_seat(table.id, None, False, "a", max_seats=4)


async def test_start_twice_fails(storage: Storage) -> None:
    table = await _new(storage)
    await storage.add_lobby_seat(table.id, 1, False, "a", max_seats=4)
    await storage.add_lobby_seat(table.id, 2, False, "b", max_seats=4)
    await _start(storage, table.id, [0, 1])
    with pytest.raises(TableStatusError) as error:
        await _start(storage, table.id, [0, 1])
    assert error.value.status == "active"


async def test_concurrent_start_clicks_start_once(storage: Storage) -> None:
    table = await _new(storage)
    await storage.add_lobby_seat(table.id, 1, False, "a", max_seats=4)
    await storage.add_lobby_seat(table.id, 2, False, "b", max_seats=4)
    outcomes = await asyncio.gather(
        _start(storage, table.id, [0, 1]), _start(storage, table.id, [1, 0]), return_exceptions=True
    )
    assert sum(isinstance(outcome, TableStatusError) for outcome in outcomes) == 1
    assert len(await storage.snapshot_versions(table.id)) == 1


async def test_start_refuses_a_stale_lobby(storage: Storage) -> None:
    table = await _new(storage)
    await storage.add_lobby_seat(table.id, 1, False, "a", max_seats=4)
    await storage.add_lobby_seat(table.id, 2, False, "b", max_seats=4)
    for positions in ([0], [0, 1, 2], [0, 0], []):
        with pytest.raises(LobbyChangedError):
            await _start(storage, table.id, positions)
    stored = await storage.get_table(table.id)
    assert stored is not None and stored.status is TableStatus.LOBBY
    assert all(seat.seat is None for seat in await storage.lobby_seats(table.id))


async def test_start_rejects_a_clock_for_another_version(storage: Storage) -> None:
    table = await _new(storage)
    await storage.add_lobby_seat(table.id, 1, False, "a", max_seats=4)
    with pytest.raises(ValueError, match="clock"):
        await _start(storage, table.id, [0], clock=ClockRow(table.id, 1, T0, (0,)))


async def test_lobby_is_closed_after_start(storage: Storage) -> None:
    table = await _new(storage)
    await storage.add_lobby_seat(table.id, 1, False, "a", max_seats=4)
    await _start(storage, table.id, [0])
    with pytest.raises(TableStatusError):
        await storage.add_lobby_seat(table.id, 2, False, "b", max_seats=4)
    with pytest.raises(TableStatusError):
        await storage.remove_lobby_seat(table.id, 1)
    with pytest.raises(TableStatusError):
        await storage.update_options(table.id, {"timer": 1})


async def test_cancel_a_lobby(storage: Storage) -> None:
    table = await _new(storage)
    await storage.cancel_table(table.id, now=T0 + 9)
    stored = await storage.get_table(table.id)
    assert stored is not None
    assert (stored.status, stored.finished_at) == (TableStatus.CANCELLED, T0 + 9)
    assert await storage.live_tables() == []
    with pytest.raises(TableStatusError):
        await storage.cancel_table(table.id, now=T0 + 10)
    with pytest.raises(TableStatusError):
        await _start(storage, table.id, [])


async def test_tables_for_guild(storage: Storage) -> None:
    first = await _new(storage)
    second = await _new(storage)
    await _new(storage, guild_id=GUILD + 1)
    await storage.cancel_table(first.id, now=T0)
    assert [table.id for table in await storage.tables_for_guild(GUILD)] == [second.id, first.id]
    assert [table.id for table in await storage.tables_for_guild(GUILD, TableStatus.LOBBY)] == [second.id]
    assert [table.id for table in await storage.tables_for_guild(GUILD, TableStatus.CANCELLED)] == [first.id]
    assert [table.id for table in await storage.tables_for_guild(GUILD, limit=1)] == [second.id]
