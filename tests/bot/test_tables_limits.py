"""The table service's limits without Discord: lobby expiry (also across a restart), caps, removing a player."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.storage import Storage, TableStatus
from bot.tables import Table, TableError, TableService
from tests.bot.test_tables import BOB, CAROL, HOST, FakeClock, RecordingPublisher, wait_until

pytestmark = pytest.mark.asyncio

LOBBY_SECONDS = 1800.0
GUILD, OTHER_GUILD = 1, 9


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def make_service(storage: Storage, clock: FakeClock, **limits: int) -> TableService:
    return TableService(
        storage,
        RecordingPublisher(),
        ai_delay=0,
        time_fn=clock,
        run_clocks=False,
        lobby_seconds=LOBBY_SECONDS,
        **limits,  # type: ignore[arg-type]  # max_lobbies_per_member / max_tables_per_guild
    )


@pytest_asyncio.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "limits.sqlite3")
    yield store
    await store.close()


@pytest_asyncio.fixture
async def service(storage: Storage, clock: FakeClock) -> AsyncIterator[TableService]:
    svc = make_service(storage, clock)
    yield svc
    await svc.close()


async def lobby(service: TableService, host: int = HOST, guild: int = GUILD) -> Table:
    return await service.create_lobby(
        guild_id=guild, channel_id=2, game="coup", host_id=host, host_name=f"u{host}", options={}, locale="en"
    )


def cancelled(service: TableService) -> list[int]:
    publisher = service.publisher
    assert isinstance(publisher, RecordingPublisher)
    return publisher.cancelled


# ---------------------------------------------------------------------- expiry
async def test_a_lobby_not_started_expires_after_its_time(service: TableService, clock: FakeClock) -> None:
    table = await lobby(service)
    assert table.expires_at == clock.now + LOBBY_SECONDS

    clock.now += LOBBY_SECONDS - 1
    assert await service.expire_due_lobbies() == 0
    assert table.status == "lobby"

    clock.now += 1
    assert await service.expire_due_lobbies() == 1

    assert table.status == "cancelled" and table.expired
    assert table.id not in service.tables
    row = await service.storage.get_table(table.id)
    assert row is not None and row.status == TableStatus.CANCELLED
    await wait_until(lambda: cancelled(service) == [table.id])  # the lobby message is closed
    with pytest.raises(TableError) as closed:
        await service.join(table.id, BOB, "Bob")
    assert closed.value.code == "table.closed"


async def test_a_started_table_never_expires(service: TableService, clock: FakeClock) -> None:
    table = await lobby(service)
    await service.join(table.id, BOB, "Bob")
    await service.start(table.id, HOST)
    assert table.expires_at is None

    clock.now += 10 * LOBBY_SECONDS
    assert await service.expire_due_lobbies() == 0
    assert await service.expire_lobby(table.id) is False  # a late timer of the lobby changes nothing
    assert table.status == "active"


async def test_the_expiry_timer_fires_by_itself(storage: Storage, clock: FakeClock) -> None:
    svc = TableService(storage, RecordingPublisher(), ai_delay=0, time_fn=clock, run_clocks=True, lobby_seconds=60)
    table = await lobby(svc)
    clock.now += 60
    svc._arm_expiry(table)  # re-arm against the moved fake clock: fires at once
    await wait_until(lambda: table.status == "cancelled")
    assert table.expired
    await svc.close()


async def test_a_lobby_that_expired_while_the_bot_was_down_is_not_restored(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "restart.sqlite3"
    storage = await Storage.open(path)
    first = make_service(storage, clock)
    old = await lobby(first)
    clock.now += LOBBY_SECONDS / 2
    young = await lobby(first, host=BOB)
    await first.close()
    await storage.close()

    clock.now += LOBBY_SECONDS / 2 + 1  # down long enough for the older lobby to run out
    storage = await Storage.open(path)
    second = make_service(storage, clock)
    assert await second.restore() == 1

    assert old.id not in second.tables
    row = await storage.get_table(old.id)
    assert row is not None and row.status == TableStatus.CANCELLED
    await wait_until(lambda: cancelled(second) == [old.id])
    # The younger lobby keeps the deadline it had before the restart.
    assert second.tables[young.id].expires_at == young.expires_at
    await second.close()
    await storage.close()


# ---------------------------------------------------------------------- caps
async def test_a_member_may_host_only_so_many_open_lobbies(storage: Storage, clock: FakeClock) -> None:
    svc = make_service(storage, clock, max_lobbies_per_member=2)
    first = await lobby(svc)
    await lobby(svc)

    with pytest.raises(TableError) as refused:
        await lobby(svc)
    assert refused.value.code == "table.lobby_limit" and refused.value.params == {"max": 2}
    assert len(await storage.tables_for_guild(GUILD)) == 2  # nothing was created

    await lobby(svc, host=BOB)  # another member may
    await lobby(svc, guild=OTHER_GUILD)  # and so may the same member in another server
    await svc.join(first.id, BOB, "Bob")
    await svc.start(first.id, HOST)  # a started game is no open lobby any more
    await lobby(svc)
    await svc.close()


async def test_a_server_may_hold_only_so_many_live_tables(storage: Storage, clock: FakeClock) -> None:
    svc = make_service(storage, clock, max_tables_per_guild=3)
    game = await lobby(svc)
    await svc.join(game.id, BOB, "Bob")
    await svc.start(game.id, HOST)  # a game in play counts as well as lobbies
    await lobby(svc, host=BOB)
    doomed = await lobby(svc, host=CAROL)

    with pytest.raises(TableError) as refused:
        await lobby(svc, host=104)
    assert refused.value.code == "table.server_limit" and refused.value.params == {"max": 3}
    assert len(await storage.tables_for_guild(GUILD)) == 3

    await lobby(svc, host=104, guild=OTHER_GUILD)  # other servers have their own cap
    await svc.cancel(doomed.id, CAROL, is_moderator=False)
    await lobby(svc, host=104)  # a closed table frees its place
    await svc.close()


# ---------------------------------------------------------------------- removing a player
async def test_the_host_removes_a_player_who_may_not_join_again(service: TableService) -> None:
    table = await lobby(service)
    await service.join(table.id, BOB, "Bob")
    await service.join(table.id, CAROL, "Carol")

    await service.remove_player(table.id, HOST, BOB)

    assert [s.user_id for s in table.seats] == [HOST, CAROL]
    assert [s.seat for s in table.seats] == [0, 1]
    assert [s.user_id for s in await service.storage.lobby_seats(table.id)] == [HOST, CAROL]
    with pytest.raises(TableError) as again:
        await service.join(table.id, BOB, "Bob")
    assert again.value.code == "table.removed"


async def test_only_the_host_removes_and_never_themselves(service: TableService) -> None:
    table = await lobby(service)
    await service.join(table.id, BOB, "Bob")
    await service.join(table.id, CAROL, "Carol")

    with pytest.raises(TableError) as not_host:
        await service.remove_player(table.id, CAROL, BOB)
    assert not_host.value.code == "table.host_only"
    with pytest.raises(TableError) as host:
        await service.remove_player(table.id, HOST, HOST)
    assert host.value.code == "table.remove_host"
    with pytest.raises(TableError) as absent:
        await service.remove_player(table.id, HOST, 104)
    assert absent.value.code == "table.not_seated"
    assert [s.user_id for s in await service.storage.lobby_seats(table.id)] == [HOST, BOB, CAROL]


async def test_a_removal_survives_a_restart(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "removed.sqlite3"
    storage = await Storage.open(path)
    first = make_service(storage, clock)
    table = await lobby(first)
    await first.join(table.id, BOB, "Bob")
    await first.remove_player(table.id, HOST, BOB)
    await first.close()
    await storage.close()

    storage = await Storage.open(path)
    second = make_service(storage, clock)
    await second.restore()
    with pytest.raises(TableError) as again:
        await second.join(table.id, BOB, "Bob")
    assert again.value.code == "table.removed"
    await second.close()
    await storage.close()
