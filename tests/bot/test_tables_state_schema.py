"""Restoring stored states across releases: schema upgrades, and quarantine of a state that cannot load.

Each test runs on SQLite and on PostgreSQL. "The next release" is simulated by registering a Coup
engine whose state model gained a required field (``house_rule``) with an upgrade step that fills it:
rows the real engine wrote are then rows of the previous schema.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
import pytest_asyncio

from bot.storage import Storage, TableStatus
from bot.tables import TableError, TableService, replay
from games.core.schema import StateUpgrade
from games.coup.engine import CoupEngine
from games.coup.models import CollectTax, TakeIncome
from games.coup.state import CoupState
from games.registry import ENGINES
from tests.bot.test_tables import BOB, CAROL, HOST, FakeClock, RecordingPublisher, three_humans, wait_until
from tests.support.postgres import Backend, backend_for

pytestmark = pytest.mark.asyncio


class CoupStateNext(CoupState):
    """Coup's state as a later release might define it: one more field, without a default."""

    house_rule: str


def _add_house_rule(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "house_rule": "classic"}


class CoupEngineNext(CoupEngine):
    """Coup at state schema 1: schema-0 JSON lacks ``house_rule`` and is upgraded on load."""

    state_type = CoupStateNext
    state_schema = 1
    state_upgrades: ClassVar[dict[int, StateUpgrade]] = {0: _add_house_rule}


@pytest_asyncio.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    async with backend_for(request.param, tmp_path) as chosen:
        yield chosen


async def _service(storage: Storage, publisher: RecordingPublisher | None = None) -> TableService:
    return TableService(storage, publisher or RecordingPublisher(), ai_delay=0, time_fn=FakeClock(), run_clocks=False)


async def test_rows_of_the_previous_schema_load_after_an_upgrade(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = await backend.open()
    try:
        old = await _service(storage)
        table = await three_humans(old)
        await old.act(table.id, HOST, table.prompt_version, TakeIncome())
        written = await storage.get_table(table.id)
        assert written is not None and written.state is not None and written.state_schema == 0
        assert "house_rule" not in json.loads(written.state)
        await old.close()

        monkeypatch.setitem(ENGINES, "coup", CoupEngineNext())  # the release that changed the model
        new = await _service(storage)
        assert await new.restore() == 1
        restored = new.tables[table.id]
        assert isinstance(restored.state, CoupStateNext) and restored.state.house_rule == "classic"
        assert restored.state.model_dump(mode="json", exclude={"house_rule"}) == json.loads(written.state)

        # The game goes on, and what it writes now is at the new schema.
        await new.act(table.id, BOB, restored.prompt_version, CollectTax())
        moved = await storage.get_table(table.id)
        assert moved is not None and moved.state is not None and moved.state_schema == 1
        assert json.loads(moved.state)["house_rule"] == "classic"
        await new.close()
        again = await _service(storage)
        assert await again.restore() == 1  # a row of the new schema loads as it is
        await again.close()

        # Replays of the table still work: the start snapshot is at schema 0.
        data = await storage.replay_data(table.id)
        assert data is not None and data.snapshot is not None and data.snapshot.state_schema == 0
        from_snapshot = await replay(storage, table.id, from_snapshot=True)
        assert isinstance(from_snapshot, CoupStateNext)
        assert from_snapshot.model_dump_json() == moved.state
    finally:
        await storage.close()


async def test_a_state_that_cannot_load_is_quarantined_and_the_others_restore(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    storage = await backend.open()
    try:
        first = await _service(storage)
        tables = [await three_humans(first) for _ in range(3)]
        lobby = await first.create_lobby(
            guild_id=1, channel_id=2, game="coup", host_id=BOB, host_name="Саша", options={}, locale="ru"
        )
        await first.close()
        broken = tables[1]
        await backend.execute(f"UPDATE tables SET state = '{{\"garbage\": true}}' WHERE id = {broken.id}")  # noqa: S608

        told = RecordingPublisher()
        second = await _service(storage, told)
        with caplog.at_level(logging.ERROR, logger="bot.tables"):
            assert await second.restore() == 3  # two games and the lobby
        assert sorted(second.tables) == sorted([tables[0].id, tables[2].id, lobby.id])
        assert any(f"table {broken.id} " in record.getMessage() for record in caplog.records)
        row = await storage.get_table(broken.id)
        assert row is not None and row.status == TableStatus.QUARANTINED
        assert broken.id not in [clock.table_id for clock in await storage.all_clocks()]
        assert broken.id not in [live.id for live in await storage.live_tables()]
        with pytest.raises(TableError) as closed:
            await second.get(broken.id)
        assert closed.value.code == "table.quarantined"
        await wait_until(lambda: told.quarantined == [broken.id])
        # Its players are free: the host opens a new table and plays it.
        fresh = await second.create_lobby(
            guild_id=1, channel_id=2, game="coup", host_id=HOST, host_name="Наташа", options={}, locale="ru"
        )
        await second.join(fresh.id, CAROL, "Гриша")
        await second.start(fresh.id, HOST)
        await second.close()

        third_told = RecordingPublisher()
        third = await _service(storage, third_told)
        assert await third.restore() == 4
        assert third_told.quarantined == []  # told once, not at every restart
        await third.close()
    finally:
        await storage.close()


class _Unreachable(RecordingPublisher):
    async def table_quarantined(self, table: Any) -> bool:
        await super().table_quarantined(table)
        return False


async def test_a_notice_that_did_not_reach_discord_is_posted_at_the_next_start(backend: Backend) -> None:
    storage = await backend.open()
    try:
        first = await _service(storage)
        table = await three_humans(first)
        await first.close()
        await backend.execute(f"UPDATE tables SET state = 'not json' WHERE id = {table.id}")  # noqa: S608
        down = _Unreachable()
        second = await _service(storage, down)
        await second.restore()
        await wait_until(lambda: down.quarantined == [table.id])
        await second.close()
        up = RecordingPublisher()
        third = await _service(storage, up)
        await third.restore()
        await wait_until(lambda: up.quarantined == [table.id])
        await third.close()
        assert await storage.unnotified_quarantines() == []
    finally:
        await storage.close()


async def test_a_table_of_a_game_no_longer_registered_is_quarantined(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    storage = await backend.open()
    try:
        first = await _service(storage)
        gone, kept = await three_humans(first), await three_humans(first)
        await first.close()
        await backend.execute(f"UPDATE tables SET game = 'retired' WHERE id = {gone.id}")  # noqa: S608
        second = await _service(storage)
        with caplog.at_level(logging.ERROR, logger="bot.tables"):
            assert await second.restore() == 1
        assert list(second.tables) == [kept.id]
        (record,) = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert record.getMessage().startswith(f"table {gone.id} (retired, state schema 0) cannot be restored")
        assert record.exc_info is not None  # not a data problem: the traceback goes with it
        row = await storage.get_table(gone.id)
        assert row is not None and row.status == TableStatus.QUARANTINED
        await second.close()
    finally:
        await storage.close()
