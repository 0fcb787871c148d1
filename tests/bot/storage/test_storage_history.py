"""The history query: a server's finished tables, newest first, filtered by game and member; never another server's."""

from __future__ import annotations

import json

import pytest

from bot.storage import FinishRow, LogEntry, Storage, TableRow
from games.core.models import Outcome

pytestmark = pytest.mark.asyncio

T0 = 1_700_000_000.0


async def finished(
    storage: Storage, *, guild: int, game: str = "coup", humans: tuple[int, ...] = (1, 2), at: float = T0
) -> TableRow:
    """Start a table of ``humans`` and one AI in ``guild`` and finish it at time ``at``."""
    table = await storage.create_table(
        guild_id=guild, channel_id=200, game=game, host_id=humans[0], options={}, seed="s", locale="en", now=at
    )
    for user_id in humans:
        await storage.add_lobby_seat(table.id, user_id, False, f"user{user_id}", max_seats=6)
    await storage.add_lobby_seat(table.id, None, True, "AI 1", max_seats=6)
    await storage.start_table(table.id, state_json="{}", version=0, clock=None, now=at)
    await storage.commit_action(
        table.id,
        0,
        "{}",
        1,
        LogEntry(seat=0, action=json.dumps({"kind": "coup"})),
        clock=None,
        finished=FinishRow.from_outcome(Outcome(ranks=tuple(range(len(humans) + 1)))),
        now=at + 1,
    )
    row = await storage.get_table(table.id)
    assert row is not None
    return row


async def test_history_lists_finished_tables_newest_first_and_only_this_servers(storage: Storage) -> None:
    old = await finished(storage, guild=1, at=T0)
    new = await finished(storage, guild=1, at=T0 + 100)
    await finished(storage, guild=2, at=T0 + 200)  # another server's game, finished last
    live = await storage.create_table(
        guild_id=1, channel_id=200, game="coup", host_id=1, options={}, seed="s", locale="en", now=T0 + 300
    )

    rows = await storage.finished_tables(1)

    assert [row.id for row in rows] == [new.id, old.id]
    assert live.id not in {row.id for row in rows}
    assert [row.id for row in await storage.finished_tables(1, limit=1)] == [new.id]
    assert await storage.finished_tables(3) == []


async def test_history_filters_by_game_and_member(storage: Storage) -> None:
    coup = await finished(storage, guild=1, game="coup", humans=(1, 2), at=T0)
    masti = await finished(storage, guild=1, game="masti", humans=(2, 3), at=T0 + 10)
    await finished(storage, guild=2, game="masti", humans=(3, 4), at=T0 + 20)

    assert [r.id for r in await storage.finished_tables(1, game="masti")] == [masti.id]
    assert [r.id for r in await storage.finished_tables(1, user_id=1)] == [coup.id]
    assert [r.id for r in await storage.finished_tables(1, user_id=2)] == [masti.id, coup.id]
    assert [r.id for r in await storage.finished_tables(1, game="coup", user_id=3)] == []
    # Member 4 played only on server 2: server 1's history has nothing of theirs.
    assert await storage.finished_tables(1, user_id=4) == []
