"""One clock on the board: the embed's live countdown; the image never shows the time left."""

from __future__ import annotations

import pytest

from bot.i18n import translate
from games.registry import ENGINES
from tests.support import World, embed_text

pytestmark = pytest.mark.asyncio


def board_png(world: World, table_id: int) -> bytes:
    board = world.board(table_id)
    stored = world.env.backend.get_message(board.channel.id, board.id)
    (attachment,) = stored.attachments
    data = world.env.backend.cdn.get(attachment["url"])
    assert data is not None
    return data


def board_edits(world: World, table_id: int) -> int:
    message_id = world.table(table_id).board_message_id
    return sum(1 for r in world.env.http_requests if r.method == "PATCH" and r.path.endswith(f"/messages/{message_id}"))


@pytest.mark.parametrize("game", sorted(ENGINES))
async def test_the_same_state_drawn_later_gives_the_same_image(world, game):
    # The service reads SimCord's virtual clock, so the 25 s below really pass for it.
    world.service.now = lambda: world.env.now().timestamp()
    people = [world.member(name) for name in ("alice", "bob", "carol", "dave")[: ENGINES[game].min_seats]]
    table_id = await world.seat(*people, game=game)
    table = world.table(table_id)
    version, deadline = world.state(table_id).version, table.deadline
    assert deadline is not None
    first, edits = board_png(world, table_id), board_edits(world, table_id)

    await world.env.advance_time(25)  # well inside the 60 s clock: nobody has moved
    publisher = world.bot.publisher
    publisher.table_changed(table, ())  # the board is drawn again from the same state
    await publisher._board_tasks[table_id]  # the redraw's own task: wait until it has landed
    await world.env.settle()

    assert world.state(table_id).version == version and table.deadline == deadline
    assert board_edits(world, table_id) == edits + 1  # it really was drawn again, 25 s later
    assert board_png(world, table_id) == first
    # The live countdown is the embed's Discord timestamp, which every client counts down itself.
    clock = translate("en", "ui.board.clock", when=f"<t:{int(deadline)}:R>")
    assert clock in embed_text(world.board(table_id).embeds)
