"""Private panels that follow the game: one tap per move once a player has a panel open.

The publisher edits a player's newest private panel, with the interaction token that sent or last
edited it, when a decision comes to them in the panel (:mod:`bot.ui.publisher`). A token Discord
would no longer honour (older than :data:`~bot.ui.publisher.PANEL_FOLLOW_SECONDS` on the service's
clock) is not used: the call's ping and "My cards" take over. Edits are read back from SimCord's
request log (``PATCH /webhooks/<app>/<token>/messages/...``) and its stored messages.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from simcord.results import ResponseMessage

from bot.i18n import translate
from bot.presenters.coup import CoupPresenter
from bot.tables import choose_ai_action
from bot.ui.publisher import PANEL_FOLLOW_SECONDS
from games.coup.engine import stacked_deck
from games.coup.models import Card, Challenge, CollectTax, ProveClaim, TakeIncome
from tests.support import World, embed_text, find_action

pytestmark = pytest.mark.asyncio

D = Card
DUEL_DECK = stacked_deck([[D.DUKE, D.ASSASSIN], [D.CAPTAIN, D.CONTESSA]])
HAND_PNG = b"\x89PNG\r\n\x1a\nhand"


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


def panel_edits(world: World, since: int, response: ResponseMessage | None = None) -> list[str]:
    """Return the paths of the webhook edits (panel edits) the bot sent from request ``since`` on.

    With ``response``, only the edits made with the token of the interaction that sent it.
    """
    paths = [r.path for r in world.env.http_requests[since:] if r.method == "PATCH" and r.path.startswith("/webhooks/")]
    if response is None:
        return paths
    # Every interaction whose message is ``response``: the one that sent it and the clicks that edited it.
    tokens = {r.token for r in world.env.backend.interactions.values() if r.message_id == response.id}
    return [path for path in paths if path.split("/")[3] in tokens]


def attachments(world: World, message: ResponseMessage) -> list[str]:
    return [a["filename"] for a in world.env.backend.get_message(message.channel_id, message.id).attachments]


async def duel(world: World) -> tuple[Any, Any, int]:
    alice, bob = world.members("alice", "bob")
    world.rig(deck=DUEL_DECK, first_seat=0)
    table_id = await world.seat(alice, bob, clock=3600)
    return alice, bob, table_id


async def test_the_open_panel_follows_to_the_next_private_decision(world):
    alice, bob, table_id = await duel(world)
    opened = await world.open_panel(alice, table_id)
    panel = opened.response
    assert panel is not None

    await world.act(alice, table_id, CollectTax())  # on the board
    await world.act(bob, table_id, Challenge())  # alice must now show the Duke, privately

    # Her panel already offers it: one tap, no "My cards" click.
    assert find_action(world.components(panel), ProveClaim()) is not None
    text = embed_text(panel.embeds)
    assert en("coup.panel.hand", cards="\N{CROWN} Duke, \N{DAGGER KNIFE} Assassin") in text
    assert "Captain" not in text and "Contessa" not in text  # drawn from her own view only: bob's cards never
    # The ping stays: an edited private message notifies nobody.
    assert world.thread_messages(table_id)[-1].content == en("call.panel", mentions=alice.mention)
    proved = await world.press(alice, panel, ProveClaim())
    assert proved.response is not None and proved.response.id == panel.id and not proved.followups


async def test_every_masti_move_takes_one_tap_once_the_panel_is_open(world):
    alice = world.member("alice")
    table_id = await world.seat(alice, ais=2, game="masti", clock=3600)
    table = world.table(table_id)
    opens, moves, panel = 0, 0, None
    while moves < 12 and table.status == "active":
        await world.env.settle()
        state = world.state(table_id)
        seat = table.seat_of(alice.id)
        assert seat is not None and seat.seat in table.engine.active_seats(state)
        action = choose_ai_action(table.engine, world.agent("masti"), state, seat.seat)
        if panel is None or find_action(world.components(panel), action) is None:
            opened = await world.open_panel(alice, table_id)
            opens, panel = opens + 1, opened.response
            assert panel is not None
        result = await world.press(alice, panel, action)
        assert result.response is not None and result.response.id == panel.id, result
        moves += 1
    assert moves == 12 and opens == 1


async def test_a_token_too_old_to_edit_falls_back_to_the_call(world, monkeypatch):
    alice, bob, table_id = await duel(world)
    opened = await world.open_panel(alice, table_id)
    panel = opened.response
    assert panel is not None
    before = embed_text(panel.embeds)
    # 15 minutes pass on the service's clock (and Discord's): the token would be refused.
    now = world.service.now
    monkeypatch.setattr(world.service, "now", lambda: now() + PANEL_FOLLOW_SECONDS + 60)
    await world.env.advance_time(15 * 60 + 1)
    since = len(world.env.http_requests)

    await world.act(alice, table_id, CollectTax())
    await world.act(bob, table_id, Challenge())

    assert panel_edits(world, since) == []  # no edit was even tried
    assert embed_text(panel.embeds) == before
    assert alice.id not in world.bot.publisher._panels.get(table_id, {})
    assert world.thread_messages(table_id)[-1].content == en("call.panel", mentions=alice.mention)
    reopened = await world.open_panel(alice, table_id)  # "My cards" works as ever
    assert reopened.response is not None and find_action(world.components(reopened.response), ProveClaim())


async def test_only_the_newest_panel_of_a_player_follows(world):
    alice, bob, table_id = await duel(world)
    older = (await world.open_panel(alice, table_id)).response
    newer = (await world.open_panel(alice, table_id)).response
    assert older is not None and newer is not None and older.id != newer.id
    assert embed_text(older.embeds) == en("panel.moved") and not world.components(older)
    since = len(world.env.http_requests)

    await world.act(alice, table_id, CollectTax())
    await world.act(bob, table_id, Challenge())

    assert find_action(world.components(newer), ProveClaim()) is not None
    assert embed_text(older.embeds) == en("panel.moved") and not world.components(older)
    assert panel_edits(world, since, older) == [] and panel_edits(world, since, newer)


async def test_the_panel_follows_in_the_language_it_was_opened_in(make_world):
    world = make_world("en-US")
    alice = world.member("alice", locale="ru")
    bob = world.member("bob")
    world.rig(deck=DUEL_DECK, first_seat=0)
    table_id = await world.seat(alice, bob, clock=3600)
    panel = (await world.open_panel(alice, table_id)).response
    assert panel is not None

    await world.act(alice, table_id, CollectTax())
    await world.act(bob, table_id, Challenge())

    assert find_action(world.components(panel), ProveClaim()) is not None
    assert panel.embeds[0].title == translate("ru", "ui.panel.title", game=translate("ru", "coup.name"))


async def test_a_hand_picture_is_attached_and_replaced_when_the_panel_follows(world, monkeypatch):
    drawn: list[Any] = []

    def render_hand(self: CoupPresenter, view: Any, names: Any, locale: str) -> bytes:
        drawn.append(view)
        return HAND_PNG + str(len(drawn)).encode()  # a new picture every time

    monkeypatch.setattr(CoupPresenter, "render_hand", render_hand, raising=False)
    alice, bob, table_id = await duel(world)
    panel = (await world.open_panel(alice, table_id)).response
    assert panel is not None
    assert attachments(world, panel) == ["hand.png"]
    assert panel.embeds[0].image.url == "attachment://hand.png"

    await world.act(alice, table_id, CollectTax())
    await world.act(bob, table_id, Challenge())

    assert find_action(world.components(panel), ProveClaim()) is not None
    assert attachments(world, panel) == ["hand.png"]  # replaced, not piled up
    alices_seat = world.table(table_id).seat_of(alice.id)
    assert alices_seat is not None
    assert drawn and all(view.viewer == alices_seat.seat for view in drawn)


async def test_a_panel_without_a_picture_has_no_attachment(world, monkeypatch):
    monkeypatch.setattr(CoupPresenter, "render_hand", lambda *_args: None, raising=False)
    alice, _bob, table_id = await duel(world)
    panel = (await world.open_panel(alice, table_id)).response
    assert panel is not None and attachments(world, panel) == [] and not panel.embeds[0].image
    await world.press(alice, panel, TakeIncome())
    assert attachments(world, panel) == []


async def test_nobody_waits_for_a_panel_edit_in_flight_and_it_looks_again(world, monkeypatch):
    """A board update must not sit behind one player's panel edit (say, sleeping out a 429).

    While an edit of a panel is in flight, a second follow returns at once and only asks that edit
    to look again when it ends, so the panel still ends up showing the latest decision.
    """
    alice, _bob, table_id = await duel(world)
    opened = await world.open_panel(alice, table_id)
    assert opened.response is not None
    publisher = world.bot.publisher
    table = world.table(table_id)
    panel = publisher._panels[table_id][alice.id]
    gate = asyncio.Event()
    looks: list[int] = []

    async def follow_once(self: Any, table: Any, user_id: int, followed: Any) -> bool:
        looks.append(user_id)
        if len(looks) == 1:
            await gate.wait()  # the first edit is held up in flight
        return True

    monkeypatch.setattr(type(publisher), "_follow_once", follow_once)
    first = asyncio.create_task(publisher._follow(table, alice.id, panel))
    for _ in range(5):
        await asyncio.sleep(0)
    assert looks == [alice.id] and not first.done()

    second = asyncio.create_task(publisher._follow(table, alice.id, panel))
    for _ in range(5):
        await asyncio.sleep(0)
    assert second.done(), "the second follow waited for the edit in flight"
    assert looks == [alice.id]

    gate.set()
    await first
    assert looks == [alice.id, alice.id]  # the edit in flight looked again when it ended
