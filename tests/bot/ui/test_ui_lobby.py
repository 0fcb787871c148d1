"""The lobby through Discord: /coup new, Join, Leave, Add/Remove AI, Start, Cancel."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.i18n import translate
from tests.support import World, component_ids, embed_text, private_text

pytestmark = pytest.mark.asyncio

LOBBY_VERBS = ["join", "leave", "addai", "removeai", "start", "cancel"]
#: The table options every new lobby takes from its server's settings (here: the defaults).
SERVER_DEFAULTS = {"reaction_clock": 15, "reminders": True, "archive_minutes": 60}


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


async def seat_ids(world: World, table_id: int) -> list[int | None]:
    return [s.user_id for s in await world.bot.storage.lobby_seats(table_id)]


async def test_new_table_posts_a_public_lobby(world):
    alice = world.member("alice")

    result = await alice.slash(world.channel, "coup new")

    assert result.response is not None and not result.ephemeral
    (embed,) = result.response.embeds
    assert embed.title == en("ui.lobby.title", game="Coup", id=1)
    assert alice.mention in embed_text([embed])
    assert en("ui.lobby.seats", n=1, max=6) in embed_text([embed])
    assert en("ui.lobby.clock", seconds=60) in embed_text([embed])  # the server's default clock
    assert component_ids(result.response.components) == [*(f"lobby:1:{verb}" for verb in LOBBY_VERBS), "tbl:1:rules"]
    row = await world.bot.storage.get_table(1)
    assert row is not None and row.status == "lobby" and row.host_id == alice.id
    assert row.options == {"clock": 60, "game": {"draft": False}, **SERVER_DEFAULTS}
    assert row.lobby_message_id == result.response.id


async def test_options_clock_and_draft_are_stored_and_shown(world):
    alice = world.member("alice")

    table_id = await world.new_table(alice, clock=30, draft=True)

    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.options == {"clock": 30, "game": {"draft": True}, **SERVER_DEFAULTS}
    text = embed_text(world.lobby(table_id).embeds)
    assert en("ui.lobby.clock", seconds=30) in text
    assert "coup.option" not in text  # never a raw catalogue key


async def test_lobby_names_the_draft_variant(world):
    alice = world.member("alice")
    table_id = await world.new_table(alice, draft=True)
    lines = (world.lobby(table_id).embeds[0].fields[1].value or "").splitlines()
    assert len(lines) == 2, lines  # the clock, then the draft variant
    assert not lines[1].startswith("coup.option"), lines


async def test_join_leave_add_and_remove_ai(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.new_table(alice)

    joined = await world.lobby_click(bob, table_id, "join")
    assert joined.response is not None and not joined.ephemeral
    assert bob.mention in embed_text(world.lobby(table_id).embeds)
    assert await seat_ids(world, table_id) == [alice.id, bob.id]

    await world.lobby_click(alice, table_id, "addai")
    text = embed_text(world.lobby(table_id).embeds)
    assert "\N{ROBOT FACE} " + en("ui.lobby.ai_name", n=1) in text
    assert en("ui.lobby.seats", n=3, max=6) in text

    await world.lobby_click(bob, table_id, "leave")
    assert await seat_ids(world, table_id) == [alice.id, None]
    assert bob.mention not in embed_text(world.lobby(table_id).embeds)

    await world.lobby_click(alice, table_id, "removeai")
    assert await seat_ids(world, table_id) == [alice.id]
    assert en("ui.lobby.seats", n=1, max=6) in embed_text(world.lobby(table_id).embeds)


@pytest.mark.parametrize("verb", ["addai", "removeai", "start", "cancel"])
async def test_host_only_buttons_refuse_other_players(world, verb):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob, ais=1, start=False)
    before = await world.db_snapshot(table_id)
    lobby_before = world.lobby(table_id).embeds[0].to_dict()

    result = await world.lobby_click(bob, table_id, verb)

    assert private_text(result) == en("table.host_only")
    assert await world.db_snapshot(table_id) == before
    assert world.lobby(table_id).embeds[0].to_dict() == lobby_before
    assert world.table(table_id).status == "lobby"


async def test_joining_twice_or_a_full_table_is_refused(world):
    alice, bob, carol = world.members("alice", "bob", "carol")
    table_id = await world.seat(alice, bob, ais=4, start=False)
    before = await world.db_snapshot(table_id)

    twice = await world.lobby_click(bob, table_id, "join")
    full = await world.lobby_click(carol, table_id, "join")
    one_more_ai = await world.lobby_click(alice, table_id, "addai")

    assert private_text(twice) == en("table.already_joined")
    assert private_text(full) == en("table.full", max=6) == "The table is full: at most 6 players."
    assert private_text(one_more_ai) == en("table.full", max=6)
    assert await world.db_snapshot(table_id) == before
    assert len(await seat_ids(world, table_id)) == 6


async def test_leaving_a_table_you_are_not_at_is_refused(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.new_table(alice)
    before = await world.db_snapshot(table_id)

    result = await world.lobby_click(bob, table_id, "leave")

    assert private_text(result) == en("table.not_seated")
    assert await world.db_snapshot(table_id) == before


async def test_removing_an_ai_when_there_is_none_is_refused(world):
    alice = world.member("alice")
    table_id = await world.new_table(alice)

    result = await world.lobby_click(alice, table_id, "removeai")

    assert private_text(result) == en("table.no_ai")


async def test_starting_alone_is_refused(world):
    alice = world.member("alice")
    table_id = await world.new_table(alice)
    before = await world.db_snapshot(table_id)

    result = await world.lobby_click(alice, table_id, "start")

    assert private_text(result) == en("table.seat_count", min=2, max=6, have=1)
    assert await world.db_snapshot(table_id) == before
    assert world.channel.threads == []


async def test_start_opens_a_thread_with_the_board_and_welcomes_the_humans(world):
    alice, bob = world.members("alice", "bob")
    world.rig(first_seat=0)

    table_id = await world.seat(alice, bob, ais=1)

    table = world.table(table_id)
    (thread,) = world.channel.threads
    assert thread.id == table.thread_id
    assert thread.name == en("ui.board.thread_name", game="Coup", id=table_id)
    welcome, board = world.thread_messages(table_id)[:2]
    assert welcome.content == en("ui.board.welcome", mentions=f"{alice.mention} {bob.mention}")
    assert board.id == table.board_message_id
    (embed,) = board.embeds
    assert embed.title == en("ui.board.title", game="Coup", id=table_id)
    assert embed.image.url == "attachment://board.png"
    assert [a.filename for a in board.attachments] == ["board.png"]
    ids = component_ids(world.components(board))
    assert any(i.startswith(f"act:{table_id}:0:0:") for i in ids)  # the first turn's public choices
    assert [i for i in ids if i.startswith("tbl:")] == [
        f"tbl:{table_id}:{v}" for v in ("hand", "rules", "log", "resign", "end")
    ]
    lobby = world.lobby(table_id)
    assert en("ui.lobby.started", thread=f"<#{thread.id}>") in embed_text(lobby.embeds)
    assert component_ids(world.components(lobby)) == [f"tbl:{table_id}:rules"]  # only the rules stay
    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.status == "active" and row.board_message_id == board.id


async def test_six_seats_play_and_targets_come_as_a_select(world):
    alice, bob = world.members("alice", "bob")
    world.rig(first_seat=0)
    table_id = await world.seat(alice, bob, ais=4)

    assert len(world.table(table_id).seats) == 6
    rows = world.components(world.board(table_id))
    selects = [c for row in rows for c in row["components"] if c["type"] == 3]
    steal = next(s for s in selects if s["custom_id"] == f"acts:{table_id}:0:0:steal")
    assert [o["value"] for o in steal["options"]] == [f"steal.{t}" for t in range(1, 6)]


async def test_the_host_leaving_cancels_the_lobby(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob, start=False)

    await world.lobby_click(alice, table_id, "leave")

    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.status == "cancelled"
    lobby = world.lobby(table_id)
    assert en("ui.lobby.cancelled") in embed_text(lobby.embeds)
    assert lobby.components == []
    assert table_id not in world.service.tables


async def test_a_moderator_may_cancel_someone_elses_lobby(world):
    alice = world.member("alice")
    mod = world.member("mod", moderator=True)
    table_id = await world.new_table(alice)

    result = await world.lobby_click(mod, table_id, "cancel")

    assert not result.ephemeral
    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.status == "cancelled"


async def test_two_tables_share_a_channel(world):
    alice, bob, carol, dave = world.members("alice", "bob", "carol", "dave")

    first = await world.seat(alice, bob)
    second = await world.seat(carol, dave)

    assert first != second
    assert {t.id for t in world.channel.threads} == {world.table(first).thread_id, world.table(second).thread_id}


async def test_the_draft_variant_needs_exactly_two_players(world):
    alice, bob, carol = world.members("alice", "bob", "carol")
    table_id = await world.seat(alice, bob, carol, draft=True, start=False)
    before = await world.db_snapshot(table_id)

    result = await world.lobby_click(alice, table_id, "start")

    assert private_text(result) == en("coup.error.draft_needs_two_players")
    assert await world.db_snapshot(table_id) == before
    assert world.table(table_id).status == "lobby"


async def test_a_lobby_whose_message_cannot_be_posted_is_cancelled(world, monkeypatch):
    alice = world.member("alice")
    real = discord.InteractionResponse.send_message
    refused: list[int] = []

    async def send_message(self: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("embed") is not None and not refused:
            refused.append(1)

            class Response:
                status, reason = 503, "Service Unavailable"

            raise discord.DiscordServerError(Response(), "down")
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(discord.InteractionResponse, "send_message", send_message)

    result = await alice.slash(world.channel, "coup new")

    assert private_text(result) == en("ui.error.lobby_not_posted")
    assert [error.code for error in world.rejections()] == ["ui.error.lobby_not_posted"]
    row = await world.bot.storage.get_table(1)
    assert row is not None and row.status == "cancelled" and 1 not in world.service.tables
