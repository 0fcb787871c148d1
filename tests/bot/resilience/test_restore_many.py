"""A restart with many live tables: every table's state, buttons and clocks are back within 5 seconds.

The database is filled by a table service of its own (tables of every playable game, 2 to max
seats, a few moves played on most), which is then dropped: that is the process that died. The bot
then starts on the same file under SimCord, and the time from ``start`` to a bot whose
``setup_hook`` is done is measured: it restores every table, arms every clock and registers the
``DynamicItem`` components. Then, without waiting any further:

- every live table is in memory with the stored state, prompt version and clock deadline, and
  its clock timer is armed;
- buttons built *before* the restart (each sampled table's board, as it was drawn then) work:
  clicking the awaited seat's action on them applies it, through Discord, exactly once.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from simcord import Env

from bot.codec import encode_action
from bot.settings import Settings
from bot.storage import Storage
from bot.tables import NullPublisher, TableService, choose_ai_action
from bot.ui.panels import board_payload, panel_payload
from games.core import GameRng
from games.registry import AGENTS
from tests.bot.resilience.registry import playable_games, record, scale, seat_counts
from tests.support import build_bot, find_action

pytestmark = pytest.mark.asyncio
TARGET_SECONDS = 5.0
SAMPLED = 12


async def fill(path: str, count: int, channel_id: int, guild_id: int, people: list[int]) -> dict[int, dict[str, Any]]:
    """Open ``count`` live tables of the users ``people`` and play a few moves on each; return buttons.

    The buttons are a sample of tables' board and awaited panel components as the dying process
    drew them, keyed by table id.
    """
    storage = await Storage.open(path)
    service = TableService(storage, NullPublisher(), ai_delay=0, run_clocks=False)
    rng = GameRng("restore-many")
    games = playable_games()
    drawn: dict[int, dict[str, Any]] = {}
    try:
        for index in range(count):
            game = games[index % len(games)]
            seats = rng.choice(seat_counts(game))
            users = [people[(index + n) % len(people)] for n in range(seats)]
            table = await service.create_lobby(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                host_id=users[0],
                host_name=f"p{users[0]}",
                # Filling takes longer than a 15-s reaction window: no clock may run out before the restart.
                options={"clock": 3600, "reaction_clock": 3600},
                locale=rng.choice(["ru", "en"]),
                seed=f"restore-{index}",
            )
            for guest in users[1:]:
                await service.join(table.id, guest, f"p{guest}")
            await service.start(table.id, users[0])
            for _ in range(rng.below(6)):
                state = table.state
                if table.status != "active" or state is None:
                    break
                seat = min(table.engine.active_seats(state))
                user = table.seats[seat].user_id
                assert user is not None
                await service.act(
                    table.id, user, table.prompt_version, rng.choice(table.engine.legal_actions(state, seat))
                )
            if table.status == "active" and len(drawn) < SAMPLED * len(games) and index % max(1, count // 60) == 0:
                drawn[table.id] = buttons_of(service, table.id)
    finally:
        await service.close()
        await storage.close()
    return drawn


def buttons_of(service: TableService, table_id: int) -> dict[str, Any]:
    """Return the board and the awaited seat's panel of a table as they are drawn now."""
    table = service.tables[table_id]
    state = table.state
    assert state is not None
    seat = min(table.engine.active_seats(state))
    user = table.seats[seat].user_id
    assert user is not None
    awaited: list[Any] = []  # the publisher's union of the awaited seats' legal actions
    for other in sorted(table.engine.active_seats(state)):
        awaited.extend(a for a in table.engine.legal_actions(state, other) if a not in awaited)
    action = choose_ai_action(table.engine, AGENTS[table.game], state, seat)
    return {
        "user": user,
        "action": action,
        "version": state.version,
        "board": board_payload(table, [], awaited_legal=awaited).view.to_components(),
        "panel": panel_payload(table, user, table.locale).view.to_components(),
    }


async def test_restart_with_many_live_tables(tmp_path: Path) -> None:
    count = scale().restore_tables
    settings = Settings(
        discord_token=None,
        database_path=str(tmp_path / "bot.sqlite3"),
        ai_delay_seconds=0,
        board_edit_interval=0,
        # SimCord members click at machine speed (see tests/bot/conftest.py).
        click_burst=0,
        open_table_cooldown_seconds=0,
        _env_file=None,
    )
    bots: list[Any] = []
    bot = await build_bot(settings, bots)
    env = Env(bot)
    try:
        guild = env.create_guild("Tabletop")
        channel = guild.create_text_channel("games")
        people = {m.id: m for m in (guild.add_member(env.create_user(f"p{n}")) for n in range(12))}
        drawn = await fill(settings.database_path, count, channel.id, guild.id, list(people))
        truth = await stored(settings.database_path)

        began = time.perf_counter()
        await env.start()
        seconds = time.perf_counter() - began
        service = bot.service
        assert set(service.tables) == set(truth), "some live tables were not restored"
        for table_id, (state, clock) in truth.items():
            table = service.tables[table_id]
            assert table.state is not None and table.state.model_dump_json() == state
            assert clock is not None and table.prompt_version == clock.version
            assert table.deadline is not None and table.deadline >= clock.deadline
            assert table_id in service._timers, f"table {table_id}: clock not armed"
        applied = await click_old_buttons(env, channel, drawn, people)
    finally:
        await env.shutdown()
        for made in bots:
            await made.storage.close()
    record("restore_many", None, tables=count, seconds=round(seconds, 3), clicked=applied, target=TARGET_SECONDS)
    assert applied == len(drawn) >= len(playable_games())
    assert seconds <= TARGET_SECONDS, f"{count} tables took {seconds:.2f} s to come back"


async def stored(path: str) -> dict[int, tuple[str, Any]]:
    storage = await Storage.open(path)
    try:
        clocks = {c.table_id: c for c in await storage.all_clocks()}
        return {row.id: (str(row.state), clocks.get(row.id)) for row in await storage.live_tables()}
    finally:
        await storage.close()


async def click_old_buttons(env: Env, channel: Any, drawn: dict[int, dict[str, Any]], people: dict[int, Any]) -> int:
    """Click, as its player, the awaited action on each sampled table's pre-restart buttons.

    Return how many clicks were applied exactly once (one new log entry, by that player).
    """
    storage = env.bot.storage  # type: ignore[attr-defined]  # our TableBot
    applied = 0
    for table_id, old in drawn.items():
        member = people[old["user"]]
        rows = old["board"] if find_action(old["board"], old["action"]) is not None else old["panel"]
        found = find_action(rows, old["action"])
        assert found is not None, f"{encode_action(old['action'])} is on neither old message"
        message = env.backend.create_message(channel.id, env.backend.bot_user.id, "", components=rows)
        await env.settle()
        posted = next(m for m in channel.history() if m.id == message.id)
        kind, custom_id, value = found
        if kind == "button":
            await member.click(posted, custom_id=custom_id)
        else:
            await member.select(posted, [value], custom_id=custom_id)
        log = await storage.action_log(table_id, since=old["version"])
        if [(e.seq, e.user_id) for e in log] == [(old["version"], member.id)]:
            applied += 1
    return applied
