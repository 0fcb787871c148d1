"""Every storage test runs on both backends: a SQLite file and a fresh PostgreSQL database.

``backend`` is the database (see :class:`tests.support.postgres.Backend`); ``storage`` is a storage
opened on it. A test that needs another database of the same kind asks for ``backend`` and opens it
twice (two processes) or with other options.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.storage import Storage
from tests.support.postgres import Backend, backend_for


@pytest_asyncio.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path) -> AsyncIterator[Backend]:
    async with backend_for(request.param, tmp_path) as chosen:
        yield chosen


@pytest_asyncio.fixture
async def storage(backend: Backend) -> AsyncIterator[Storage]:
    store = await backend.open()
    yield store
    await store.close()
