"""Threads to archive: ``archive_due`` is planned, listed soonest first (per shard) and cleared once done."""

from __future__ import annotations

import pytest

from bot.shards import Shards
from bot.storage import ArchiveRow, Storage
from tests.bot.storage.test_storage_play import GUILD, T0, TableHelper

pytestmark = pytest.mark.asyncio


async def test_planned_archives_are_listed_soonest_first_until_done(storage: Storage) -> None:
    tables = TableHelper(storage)
    late = await tables.active(thread_id=501)
    soon = await tables.active(thread_id=502)
    untouched = await tables.active(thread_id=503)
    assert await storage.due_archives() == []  # nothing planned yet, nor for tables from before 0005

    await storage.set_archive_due(late.id, T0 + 3600)
    await storage.set_archive_due(soon.id, T0 + 60)

    assert await storage.due_archives() == [
        ArchiveRow(soon.id, GUILD, 200, 502, T0 + 60),
        ArchiveRow(late.id, GUILD, 200, 501, T0 + 3600),
    ]
    # Guild 100 runs on shard 0 of 2: another shard's process leaves its threads alone.
    assert [a.table_id for a in await storage.due_archives(shards=Shards.of(2, [0]))] == [soon.id, late.id]
    assert await storage.due_archives(shards=Shards.of(2, [1])) == []

    await storage.set_archive_due(soon.id, None)  # archived

    assert [a.table_id for a in await storage.due_archives()] == [late.id]
    assert untouched.id not in {a.table_id for a in await storage.due_archives()}
