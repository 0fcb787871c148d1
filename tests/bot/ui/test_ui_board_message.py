"""The board message at phone size: a few log lines, no internal footer, the utility row, the Full board button."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from PIL import Image

from bot.i18n import translate
from bot.presenters.registry import PRESENTERS
from bot.ui.panels import BOARD_LOG_LINES, BOARD_VERSION, MAX_ROWS, board_payload, full_board_payload, has_full_board
from bot.ui.text import image_names
from tests.support import World, embed_text, private_text

pytestmark = pytest.mark.asyncio


def en(key: str, **params: Any) -> str:
    return translate("en", key, **params)


def utility_row(world: World, table_id: int) -> list[str]:
    """Return the verbs of the board's last row of buttons (the utility row)."""
    rows = world.components(world.board(table_id))
    last = rows[-1]["components"]
    return [c["custom_id"].split(":")[-1] for c in last]


def attachment_png(world: World, response: Any) -> bytes:
    channel_id = response.channel.id if isinstance(response, discord.Message) else response.channel_id
    stored = world.env.backend.get_message(channel_id, response.id)
    (attachment,) = stored.attachments
    data = world.env.backend.cdn.get(attachment["url"])
    assert data is not None
    return bytes(data)


async def test_only_the_compact_boards_games_have_a_full_board() -> None:
    assert {game for game in PRESENTERS if has_full_board(game)} == {"cadwallon", "masti", "intrigue"}


@pytest.mark.parametrize("game", ["coup", "masti"])
async def test_the_board_shows_three_log_lines_and_no_footer(world: World, game: str) -> None:
    people = world.members("alice", "bob", "carol")
    table_id = await world.seat(*people, game=game)
    table = world.table(table_id)
    lines = [f"line {n}" for n in range(8)]
    payload = board_payload(table, lines, awaited_legal=[])
    description = payload.embed.description or ""
    assert [line for line in lines if line in description] == lines[-BOARD_LOG_LINES:] == lines[-3:]
    assert not payload.embed.footer.text  # no "#2 · v12"
    assert table.state is not None and payload.extra[BOARD_VERSION] == table.state.version
    shown = world.board(table_id)
    assert not shown.embeds[0].footer.text and f"v{table.state.version}" not in embed_text(shown.embeds)


async def test_the_utility_row_is_apart_from_the_moves(world: World) -> None:
    alice, bob = world.members("alice", "bob")
    coup = await world.seat(alice, bob, game="coup")
    rows = world.components(world.board(coup))
    assert len(rows) <= MAX_ROWS
    assert utility_row(world, coup) == ["hand", "rules", "log", "resign", "end"]
    # No move in the utility row, and no utility button among the moves.
    for row in rows[:-1]:
        assert all(not c["custom_id"].startswith("tbl:") for c in row["components"])
    masti = await world.seat(alice, bob, world.member("carol"), game="masti")
    assert utility_row(world, masti) == ["hand", "full", "log", "resign", "end"]
    (full,) = [c for c in world.components(world.board(masti))[-1]["components"] if c["custom_id"].endswith(":full")]
    assert full["label"] == en("board.button.full")


@pytest.mark.parametrize("game", ["masti", "intrigue"])
async def test_full_board_is_sent_privately_from_the_public_view(world: World, game: str) -> None:
    alice, bob, carol = world.members("alice", "bob", "carol")
    table_id = await world.seat(alice, bob, carol, game=game)
    table = world.table(table_id)

    result = await world.table_button(carol, table_id, "full")

    assert result.ephemeral and result.response is not None, private_text(result)
    png = attachment_png(world, result.response)
    expected = full_board_payload(table, "en").png
    assert png == expected  # the public view's detailed board, whoever asks
    seat = table.seat_of(carol.id)
    assert seat is not None
    if game == "masti":  # a seat's own view would add its hand to the detailed board: never sent here
        assert png != PRESENTERS[game].render_board(table.view(seat.seat), image_names(table.names()), "en")
    assert png != attachment_png(world, world.board(table_id))  # not the compact board again
    assert Image.open(io.BytesIO(png)).width > 800
    assert en("board.full.title", game=en(f"{game}.name"), id=table_id) in embed_text(result.response.embeds)
    verbs = [c.get("custom_id", "") for row in result.response.components for c in row["components"]]
    assert verbs == [f"tbl:{table_id}:rules"]  # the Rules the board's row gave up its place for


async def test_full_board_of_a_game_without_one_is_refused(world: World) -> None:
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob, game="coup")
    board = await world.forge(world.thread(table_id), [button_row(f"tbl:{table_id}:full")])

    result = await alice.click(board, custom_id=f"tbl:{table_id}:full")

    assert result.ephemeral and private_text(result) == en("table.error")


def button_row(custom_id: str) -> dict[str, Any]:
    return {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}
