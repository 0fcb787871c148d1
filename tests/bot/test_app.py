"""The bot as a whole: command sync with localized names, and restarts that lose nothing."""

from __future__ import annotations

import os
import time
from typing import Any

import aiosqlite
import pytest
from simcord.actors import MemberActor

from bot.app import TableBot, create_bot
from bot.storage import ClockRow, Storage
from bot.tables import RESTART_GRACE_SECONDS
from bot.translator import CatalogueTranslator
from games.coup.engine import stacked_deck
from games.coup.models import Card, TakeIncome
from tests.support import World

pytestmark = pytest.mark.asyncio

D = Card
DUEL_DECK = stacked_deck([[D.DUKE, D.ASSASSIN], [D.CAPTAIN, D.CONTESSA]])


async def duel(world: World) -> tuple[MemberActor, MemberActor, int]:
    alice, bob = world.members("alice", "bob")
    world.rig(deck=DUEL_DECK, first_seat=0)
    table_id = await world.seat(alice, bob)
    return alice, bob, table_id


def synced_commands(env: Any) -> dict[str, dict[str, Any]]:
    (sync,) = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    return {command["name"]: command for command in sync.json}


async def test_create_bot_uses_the_settings(settings):
    bot = create_bot(settings)
    try:
        assert isinstance(bot, TableBot)
        assert bot.settings is settings
        assert bot.publisher.edit_interval == settings.board_edit_interval
    finally:
        await bot.close()


async def test_commands_are_synced_with_russian_names(simcord_env):
    commands = synced_commands(simcord_env)

    assert set(commands) >= {"coup", "leaderboard", "stats"}
    assert isinstance(simcord_env.bot.tree.translator, CatalogueTranslator)
    coup = commands["coup"]
    assert coup["name_localizations"] == {"ru": "переворот"}
    subcommands = {o["name"]: o for o in coup["options"]}
    assert subcommands["new"]["name_localizations"] == {"ru": "новая"}
    assert subcommands["rules"]["name_localizations"] == {"ru": "правила"}
    options = {o["name"]: o["name_localizations"] for o in subcommands["new"]["options"]}
    assert options == {
        "clock": {"ru": "часы"},
        "draft": {"ru": "драфт"},
        "language": {"ru": "язык"},
        "reaction_clock": {"ru": "часы_реакции"},
    }
    assert commands["leaderboard"]["name_localizations"] == {"ru": "рейтинг"}
    assert commands["stats"]["name_localizations"] == {"ru": "статистика"}
    assert coup["description_localizations"]["ru"] == "Переворот: блеф, интриги и борьба за власть"


async def test_a_restart_keeps_the_table_and_old_buttons_work(world):
    alice, bob, table_id = await duel(world)
    await world.act(alice, table_id, TakeIncome())
    bobs_panel = await world.open_panel(bob, table_id)  # a private message from the old bot
    assert bobs_panel.response is not None
    board_id = world.table(table_id).board_message_id
    state = world.state(table_id)
    stored = await world.db_snapshot(table_id)
    old = world.bot

    await world.restart()

    assert world.bot is not old and table_id in world.service.tables
    assert world.state(table_id) == state
    assert world.table(table_id).board_message_id == board_id
    assert [s.user_id for s in world.table(table_id).seats] == [alice.id, bob.id]
    assert await world.db_snapshot(table_id) == stored
    # Buttons drawn by the old bot are answered by the new one: bob's private panel, then the board.
    moved = await world.press(bob, bobs_panel.response, TakeIncome())
    assert not moved.followups and world.state(table_id).version == 2
    again = await world.act(alice, table_id, TakeIncome())
    assert again.deferred and not again.followups
    assert world.state(table_id).version == 3
    assert world.board(table_id).id == board_id  # the same board message goes on being edited


async def test_a_clock_resumes_after_a_restart(world):
    _alice, _bob, table_id = await duel(world)
    await world.restart()

    await world.env.advance_time(61)

    state = world.state(table_id)
    assert state.version == 1 and state.turn == 1
    (entry,) = await world.bot.storage.action_log(table_id)
    assert entry.by_timeout


async def test_a_clock_that_ran_out_while_the_bot_was_down_gets_a_grace_period(world):
    _alice, _bob, table_id = await duel(world)
    clock = await world.bot.storage.get_clock(table_id)
    assert clock is not None
    await world.bot.storage.set_clock(
        ClockRow(table_id=table_id, version=clock.version, deadline=time.time() - 600, seats=clock.seats)
    )

    await world.restart()
    await world.env.advance_time(RESTART_GRACE_SECONDS - 2)
    assert world.state(table_id).version == 0  # nobody is timed out for the bot's own absence
    await world.env.advance_time(4)

    assert world.state(table_id).version == 1


async def test_lobby_buttons_work_after_a_restart(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.new_table(alice)

    await world.restart()
    joined = await world.lobby_click(bob, table_id, "join")
    started = await world.lobby_click(alice, table_id, "start")

    assert not joined.ephemeral and not started.followups
    assert world.table(table_id).status == "active"
    assert len(world.channel.threads) == 1


async def test_autopilot_survives_a_restart(world):
    alice, bob, table_id = await duel(world)
    await world.env.advance_time(61)
    await world.act(bob, table_id, TakeIncome())
    await world.env.advance_time(61)
    assert world.table(table_id).seats[0].autopilot

    await world.restart()

    assert world.table(table_id).seats[0].autopilot
    back = await world.table_button(alice, table_id, "back")
    assert back.ephemeral
    assert not world.table(table_id).seats[0].autopilot


async def test_the_bot_opens_the_configured_database_with_its_pool_size(settings, monkeypatch):
    opened: list[tuple[str, dict[str, Any]]] = []

    class StorageOpenedError(Exception):
        pass

    async def recording_open(target: str, **kwargs: Any) -> Storage:
        opened.append((target, kwargs))
        raise StorageOpenedError

    monkeypatch.setattr(Storage, "open", recording_open)
    bot = create_bot(settings.model_copy(update={"database_pool_size": 4}))
    try:
        with pytest.raises(StorageOpenedError):
            await bot.setup_hook()
    finally:
        await bot.close()
    assert opened == [(settings.database_target, {"pool_size": 4})]


async def test_storage_opens_while_a_cursor_is_still_referenced(tmp_path, monkeypatch):
    kept: list[aiosqlite.Cursor] = []
    execute = aiosqlite.Connection.execute

    async def keeping_execute(self, *args, **kwargs):
        cursor = await execute(self, *args, **kwargs)
        kept.append(cursor)  # as a lingering reference (a finished future, a traceback) would
        return cursor

    monkeypatch.setattr(aiosqlite.Connection, "execute", keeping_execute)
    storage = await Storage.open(os.fspath(tmp_path / "bot.sqlite3"))
    await storage.close()
