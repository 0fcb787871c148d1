"""The whole bot on PostgreSQL as a sharded process, through SimCord's offline Discord.

``settings`` and ``simcord_bot`` are overridden here: the bot runs two gateway shards on a fresh
PostgreSQL database. A whole game through the buttons proves the Discord glue does not care which
database it runs on; a process running one shard of two restores only its own guilds' tables.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
import simcord

from bot.app import TableBot, create_bot
from bot.settings import Settings
from bot.shards import Shards, shard_of
from bot.storage import PostgresStorage, Storage, TableStatus
from tests.support import World
from tests.support.postgres import temp_database

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def pg_url() -> AsyncIterator[str]:
    async with temp_database() as url:
        yield url


def pg_settings(tmp_path: Path, url: str, **extra: object) -> Settings:
    return Settings(
        discord_token=None,
        database_path=str(tmp_path / "unused.sqlite3"),
        database_url=url,
        shard_count=2,
        ai_delay_seconds=0,
        board_edit_interval=0,
        default_clock_seconds=60,
        # SimCord members click at machine speed (see tests/bot/conftest.py).
        click_burst=0,
        open_table_cooldown_seconds=0,
        _env_file=None,
        **extra,  # type: ignore[arg-type]
    )


@pytest.fixture
def settings(tmp_path: Path, pg_url: str) -> Settings:
    return pg_settings(tmp_path, pg_url)


@pytest_asyncio.fixture
async def simcord_bot(settings: Settings, bots: list[TableBot]) -> TableBot:
    storage = await Storage.open(settings.database_target)
    bot = create_bot(settings, storage=storage)
    bot.storage = storage
    bots.append(bot)
    return bot


async def test_a_whole_game_through_discord_on_postgresql(world: World) -> None:
    assert isinstance(world.bot.storage, PostgresStorage)
    assert world.bot.shard_count == 2
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob)
    await world.play_out(table_id, [alice, bob])
    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.status is TableStatus.FINISHED
    assert row.thread_id is not None and row.board_message_id is not None  # snowflakes fit bigint
    log = await world.bot.storage.action_log(table_id)
    assert [entry.seq for entry in log] == list(range(row.version))
    board = await world.bot.storage.leaderboard(world.guild.id, "coup")
    assert {rating.user_id for rating in board} == {alice.id, bob.id}


async def test_a_shard_process_restores_only_its_guilds_tables(tmp_path: Path, pg_url: str) -> None:
    storage = await Storage.open(pg_url)
    made: dict[int, int] = {}
    for n in range(8):
        guild = (n << 22) + 5
        table = await storage.create_table(
            guild_id=guild, channel_id=9, game="coup", host_id=1, options={}, seed="s", locale="ru", now=time.time()
        )
        await storage.add_lobby_seat(table.id, 1, False, "host", max_seats=6)
        made[table.id] = guild
    bot = create_bot(pg_settings(tmp_path, pg_url, shard_ids="1"), storage=storage)
    try:
        async with simcord.run(bot):
            assert bot.shard_count == 2 and bot.shard_ids == [1]
            assert bot.service.shards == Shards.of(2, [1])
            assert set(bot.service.tables) == {table_id for table_id, guild in made.items() if shard_of(guild, 2) == 1}
            assert len(bot.service.tables) == 4
        await bot.service.close()
    finally:
        await storage.close()
