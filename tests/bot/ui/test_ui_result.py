"""The end of a game in the channel: the lobby message becomes the result card; the thread is archived later."""

from __future__ import annotations

import logging
import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from simcord.actors import MemberActor

from bot.i18n import translate
from bot.ratings import display_rating
from bot.tables import ARCHIVE_RETRY_SECONDS, DEFAULT_ARCHIVE_MINUTES, TableService
from games.coup.engine import stacked_deck
from games.coup.models import Card
from tests.support import World, component_ids, embed_text, private_text

pytestmark = pytest.mark.asyncio

D = Card
#: Everyone holds Duke + Assassin: taxes and assassinations end the game in a few dozen moves.
QUICK_DECK = stacked_deck([[D.DUKE, D.ASSASSIN]] * 3)


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


async def finished_game(world: World, **options: object) -> tuple[MemberActor, MemberActor, int]:
    """Play alice, bob and one AI to the end (table ``options`` set on the live table before it ends)."""
    alice, bob = world.members("alice", "bob")
    world.rig(deck=QUICK_DECK, first_seat=0, seed="g0")
    table_id = await world.seat(alice, bob, ais=1)
    world.table(table_id).options.update(options)
    await world.play_out(table_id, [alice, bob])
    await world.env.settle()
    return alice, bob, table_id


def attachment_bytes(world: World, message: discord.Message) -> bytes:
    stored = world.env.backend.get_message(message.channel.id, message.id)
    (attachment,) = stored.attachments
    data = world.env.backend.cdn.get(attachment["url"])
    assert data is not None
    return data


def thread_state(world: World, table_id: int) -> tuple[bool, bool]:
    """Return whether the table's thread is (archived, locked)."""
    thread_id = world.table(table_id).thread_id
    assert thread_id is not None
    meta = world.env.backend.channels[thread_id].thread_metadata
    assert meta is not None
    return meta.archived, meta.locked


# ---------------------------------------------------------------------- the result card
async def test_the_lobby_message_becomes_the_result_card(world):
    alice, bob, table_id = await finished_game(world)
    table = world.table(table_id)
    card = world.lobby(table_id)

    (embed,) = card.embeds
    assert embed.title == en("result.card_title", game="Coup", id=table_id)
    text = embed_text(card.embeds)
    assert en("ui.lobby.started", thread=f"<#{table.thread_id}>") not in text  # no longer "has started"
    # Places: the same standings as the thread's result, from the public view.
    result = world.thread_messages(table_id)[-1]
    assert embed.description == result.embeds[0].description
    by_rank = sorted(await world.bot.storage.results(table_id), key=lambda r: r.rank)
    names = {alice.id: "alice", bob.id: "bob", None: en("ui.lobby.ai_name", n=3)}  # the AI sits in seat 3
    assert embed.description == "\n".join(f"{i + 1}. {names[r.user_id]}" for i, r in enumerate(by_rank))
    # Rating changes on the display scale: a newcomer starts at 1000.
    ratings = next(f for f in embed.fields if f.name == en("ui.result.ratings"))
    lines = (ratings.value or "").splitlines()
    changes = {c.user_id: c for c in await world.bot.storage.rating_changes(table_id)}
    assert len(lines) == 2
    for line in lines:
        match = re.fullmatch(r"(alice|bob): 1000 → (\d+) \(([+-]\d+)\)", line)
        assert match is not None, line
        change = changes[alice.id if match[1] == "alice" else bob.id]
        after = display_rating(change.mu_after, change.sigma_after)
        assert int(match[2]) == after and int(match[3]) == after - 1000
    winner = "alice" if by_rank[0].user_id == alice.id else "bob"
    assert "(+" in next(line for line in lines if line.startswith(winner))  # the winner gains
    # A link to the thread and the final board: the very image the thread's board ends on.
    assert en("result.thread", thread=f"<#{table.thread_id}>") in text
    assert embed.image.url == "attachment://board.png"
    assert attachment_bytes(world, card) == attachment_bytes(world, world.board(table_id))
    assert component_ids(world.components(card)) == [f"tbl:{table_id}:rematch"]

    rematch = await alice.click(card, custom_id=f"tbl:{table_id}:rematch")

    assert private_text(rematch).startswith(en("ui.lobby.created"))
    row = await world.bot.storage.get_table(table_id + 1)
    assert row is not None and row.status == "lobby" and row.rematch_of == table_id
    assert world.lobby(table_id).embeds[0].title == embed.title  # the card stays a card


async def test_a_game_with_ai_only_opponents_gets_an_unrated_card(world):
    alice = world.member("alice")
    world.rig(deck=QUICK_DECK, first_seat=0, seed="g0")
    table_id = await world.seat(alice, ais=2)
    await world.play_out(table_id, [alice])
    await world.env.settle()

    (embed,) = world.lobby(table_id).embeds
    assert embed.title == en("result.card_title", game="Coup", id=table_id)
    assert embed.footer.text == en("ui.result.unrated")
    assert all(f.name != en("ui.result.ratings") for f in embed.fields)


# ---------------------------------------------------------------------- archiving the thread
async def test_the_thread_is_archived_and_locked_after_the_delay(world):
    _alice, _bob, table_id = await finished_game(world)
    assert thread_state(world, table_id) == (False, False)

    await world.env.advance_time(DEFAULT_ARCHIVE_MINUTES * 60 - 5)
    assert thread_state(world, table_id) == (False, False)
    await world.env.advance_time(10)

    assert thread_state(world, table_id) == (True, True)
    assert await world.bot.storage.due_archives() == []  # done: a restart will not do it again


async def test_a_shorter_table_option_archives_sooner_and_zero_never(world):
    _alice, _bob, soon = await finished_game(world, archive_minutes=5)
    carol, dave = world.members("carol", "dave")
    world.rig(deck=QUICK_DECK, first_seat=0, seed="g0")
    never = await world.seat(carol, dave, ais=1)
    world.table(never).options["archive_minutes"] = 0
    await world.play_out(never, [carol, dave])

    await world.env.advance_time(5 * 60 + 1)
    assert thread_state(world, soon) == (True, True)
    await world.env.advance_time(24 * 3600)
    assert thread_state(world, never) == (False, False)
    assert await world.bot.storage.due_archives() == []


def follow_simcord_time(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the table service read SimCord's clock, in this bot and in every bot a restart builds.

    The service reads the wall clock by default while SimCord's event loop runs on virtual time; a
    plan stored by one process and read back by the next must be in the time both of them see.
    """

    def virtual() -> float:
        return world.env.now().timestamp()

    original = TableService

    def service(*args: Any, **kwargs: Any) -> TableService:
        return original(*args, **{**kwargs, "time_fn": virtual})

    monkeypatch.setattr("bot.app.TableService", service)  # what setup_hook builds at every (re)start
    world.service.now = virtual


async def test_a_restart_before_the_time_still_archives_on_time(world, monkeypatch):
    follow_simcord_time(world, monkeypatch)
    _alice, _bob, table_id = await finished_game(world)

    await world.env.advance_time(30 * 60)
    await world.restart()
    assert thread_state(world, table_id) == (False, False)
    await world.env.advance_time(30 * 60 + 5)

    assert thread_state(world, table_id) == (True, True)


async def test_a_thread_due_while_the_bot_was_down_is_archived_at_the_restart(world, monkeypatch):
    follow_simcord_time(world, monkeypatch)
    _alice, _bob, table_id = await finished_game(world)
    await world.service.close()  # the bot is down: its timers are gone
    await world.env.advance_time(2 * DEFAULT_ARCHIVE_MINUTES * 60)
    assert thread_state(world, table_id) == (False, False)

    await world.restart()
    await world.env.settle()

    assert thread_state(world, table_id) == (True, True)
    assert await world.bot.storage.due_archives() == []


async def test_a_deleted_thread_is_logged_and_left(world, caplog):
    _alice, _bob, table_id = await finished_game(world)
    thread_id = world.table(table_id).thread_id
    assert thread_id is not None
    world.env.backend.delete_channel(thread_id)

    with caplog.at_level(logging.WARNING, logger="bot.ui.publisher"):
        await world.env.advance_time(DEFAULT_ARCHIVE_MINUTES * 60 + 5)

    assert any(f"thread of table {table_id}" in r.getMessage() for r in caplog.records)
    assert await world.bot.storage.due_archives() == []  # nothing more to try


def http_error(kind: type[discord.HTTPException], status: int) -> discord.HTTPException:
    return kind(SimpleNamespace(status=status, reason="injected"), {"message": "injected", "code": 0})


async def test_without_manage_threads_the_thread_is_archived_unlocked(world, monkeypatch):
    _alice, _bob, table_id = await finished_game(world)
    http = world.bot.http
    real = http.edit_channel
    asked: list[dict[str, Any]] = []

    def edit_channel(channel_id: int, **options: Any) -> Any:
        asked.append(options)
        if options.get("locked"):
            raise http_error(discord.Forbidden, 403)  # locking needs Manage Threads
        return real(channel_id, **options)

    monkeypatch.setattr(http, "edit_channel", edit_channel)
    await world.env.advance_time(DEFAULT_ARCHIVE_MINUTES * 60 + 5)

    assert [o.get("locked") for o in asked] == [True, None]
    assert thread_state(world, table_id) == (True, False)
    assert await world.bot.storage.due_archives() == []


async def test_a_discord_failure_is_tried_again_later(world, monkeypatch):
    _alice, _bob, table_id = await finished_game(world)
    http = world.bot.http
    real = http.edit_channel
    failures = [http_error(discord.DiscordServerError, 503)]

    def edit_channel(channel_id: int, **options: Any) -> Any:
        if failures:
            raise failures.pop()
        return real(channel_id, **options)

    monkeypatch.setattr(http, "edit_channel", edit_channel)
    await world.env.advance_time(DEFAULT_ARCHIVE_MINUTES * 60 + 5)
    assert thread_state(world, table_id) == (False, False)
    assert [a.table_id for a in await world.bot.storage.due_archives()] == [table_id]  # still planned

    await world.env.advance_time(ARCHIVE_RETRY_SECONDS)

    assert thread_state(world, table_id) == (True, True)
    assert await world.bot.storage.due_archives() == []
