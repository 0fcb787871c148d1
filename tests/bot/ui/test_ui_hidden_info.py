"""No public payload shows a hidden card: seeded games played through the bot, every payload checked.

Four complementary checks while whole games are played (humans answering through the board and
their private panels, AI seats playing themselves):

1. The board image is drawn from the public view: every view the presenter renders for a board has
   ``viewer=None`` and no hand, and every board payload the publisher's observers see carries such
   an image.
2. Redrawing every card hidden from the table (``engine.resample_hidden(state, None)``) leaves the
   whole board payload unchanged (embed, buttons and selects, the image's source view): it depends
   on public information only. Likewise each private panel depends only on its seat's own view.
3. A card name appears in public text only once a public event named it (a claim, a block, a
   challenge, a proven or revealed card, a resignation); the lines of private events (dealt or
   drawn cards, an exchange's pick) never appear in public text.
4. The public messages left in the channel and the thread mention no card that was never public.
"""

from __future__ import annotations

import dataclasses
import re
import threading
from collections.abc import Iterable
from typing import Any

import discord
import pytest

from bot.i18n import translate
from bot.i18n.narrate import narrate
from bot.presenters.coup import CoupPresenter
from bot.tables import Table
from bot.ui.panels import Payload, board_payload, panel_payload
from games.core import Event, GameRng
from games.coup.models import Card, CoupView
from tests.support import embed_text

pytestmark = pytest.mark.asyncio

CARD_NAMES = {translate("en", f"coup.card.{card.value}"): card for card in Card}
CARD_PATTERN = re.compile(r"\b(" + "|".join(CARD_NAMES) + r")\b")
#: (seed, humans, AI seats, draft): short seeded games with claims, blocks, challenges and exchanges.
GAMES = [
    ("leak200-40", 2, 0, False),
    ("leak201-0", 2, 0, True),
    ("leak310-6", 2, 1, False),
    ("leak410-45", 3, 1, False),
]


def cards_named(text: str) -> set[Card]:
    return {CARD_NAMES[name] for name in CARD_PATTERN.findall(text)}


def cards_in(value: Any) -> set[Card]:
    if isinstance(value, Card):
        return {value}
    if isinstance(value, tuple | list):
        return {card for item in value for card in cards_in(item)}
    return set()


def payload_text(payload: Payload) -> str:
    return embed_text([payload.embed])


def components(view: discord.ui.View) -> list[dict[str, Any]]:
    return view.to_components()


def awaited_legal(table: Table) -> list[Any]:
    state = table.state
    assert state is not None
    out: list[Any] = []
    for seat in sorted(table.engine.active_seats(state)):
        out.extend(a for a in table.engine.legal_actions(state, seat) if a not in out)
    return out


class LeakCheck:
    """Spies on the bot's presenter, board and panel builders and publisher while games are played."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.rendered: dict[bytes, CoupView] = {}
        self.public_cards: dict[int, set[Card]] = {}
        self.private_lines: dict[int, set[str]] = {}
        self.boards = 0
        self.panels = 0
        self.observed: dict[str, int] = {}
        self._shadow = threading.local()

    # ------------------------------------------------------------------ 1. the image's source view
    def install(self, monkeypatch, world) -> None:
        real_render = CoupPresenter.render_board
        real_board = board_payload
        real_panel = panel_payload
        check = self

        def render_board(self, view, names, locale):
            if getattr(check._shadow, "on", False):
                return view.model_dump_json().encode()  # a shadow build compares the source view itself
            if view.viewer is not None or any(p.hand is not None for p in view.players) or view.choices:
                check.problems.append(f"a board was drawn from a private view: {view!r}")
            png = real_render(self, view, names, locale)
            check.rendered[png] = view
            return png

        def checked_board(table: Table, log_lines, *, awaited_legal):
            payload = real_board(table, log_lines, awaited_legal=awaited_legal)
            check.board_is_public(table, list(log_lines), real_board)
            return payload

        def checked_panel(table: Table, user_id: int, locale: str) -> Payload:
            payload = real_panel(table, user_id, locale)
            check.panel_is_private(table, user_id, locale, real_panel, payload)
            return payload

        monkeypatch.setattr(CoupPresenter, "render_board", render_board)
        monkeypatch.setattr("bot.ui.publisher.board_payload", checked_board)
        monkeypatch.setattr("bot.ui.interactions.panel_payload", checked_panel)
        monkeypatch.setattr("bot.ui.publisher.panel_payload", checked_panel)
        self.watch(monkeypatch, world.bot.publisher)

    def watch(self, monkeypatch, publisher) -> None:
        real_changed = publisher.table_changed

        def table_changed(table: Table, events: Iterable[Event]) -> None:
            self.record_events(table, list(events))
            real_changed(table, events)

        monkeypatch.setattr(publisher, "table_changed", table_changed)
        publisher.observers.append(self.observe)

    # ------------------------------------------------------------------ 2. invariance under hidden redraws
    def board_is_public(self, table: Table, lines: list[str], build: Any) -> None:
        snapshot = dataclasses.replace(table)
        state = snapshot.state
        if state is None:
            return
        engine: Any = table.engine  # resample_hidden is the conformance hook of the Coup engine
        redrawn = engine.resample_hidden(state, None, GameRng.for_step("leak-check", state.version))
        other = dataclasses.replace(snapshot, state=redrawn)
        self._shadow.on = True
        try:
            mine = build(snapshot, lines, awaited_legal=awaited_legal(snapshot))
            theirs = build(other, lines, awaited_legal=awaited_legal(other))
        finally:
            self._shadow.on = False
        self.boards += 1
        if mine.embed.to_dict() != theirs.embed.to_dict():
            self.problems.append(f"board text depends on hidden cards at v{state.version}")
        if components(mine.view) != components(theirs.view):
            self.problems.append(f"board buttons depend on hidden cards at v{state.version}")
        if mine.png != theirs.png:
            self.problems.append(f"the board image's view depends on hidden cards at v{state.version}")

    def panel_is_private(self, table: Table, user_id: int, locale: str, build: Any, payload: Payload) -> None:
        state = table.state
        seat = table.seat_of(user_id)
        if state is None:
            return
        index = seat.seat if seat is not None else None
        engine: Any = table.engine
        redrawn = engine.resample_hidden(state, index, GameRng.for_step("panel-check", state.version))
        theirs = build(dataclasses.replace(table, state=redrawn), user_id, locale)
        self.panels += 1
        if payload.embed.to_dict() != theirs.embed.to_dict() or components(payload.view) != components(theirs.view):
            self.problems.append(f"seat {index}'s panel depends on cards it cannot see at v{state.version}")

    # ------------------------------------------------------------------ 3. card names in public text
    def record_events(self, table: Table, events: list[Event]) -> None:
        known = self.public_cards.setdefault(table.id, set())
        private = self.private_lines.setdefault(table.id, set())
        for event in events:
            if event.visible_to is None:
                for name in type(event).model_fields:
                    known |= cards_in(getattr(event, name))
            else:
                line = narrate(table.game, event, table.locale, table.names())
                if line:
                    private.add(line)

    def public_text_ok(self, table_id: int, text: str, where: str) -> None:
        unknown = cards_named(text) - self.public_cards.get(table_id, set())
        if unknown:
            self.problems.append(f"{where} names {sorted(unknown)} before any public event did: {text!r}")
        leaked = [line for line in self.private_lines.get(table_id, ()) if line in text]
        if leaked:
            self.problems.append(f"{where} shows private log lines {leaked}")

    def observe(self, table: Table, kind: str, payload: Payload) -> None:
        self.observed[kind] = self.observed.get(kind, 0) + 1
        if kind == "board":
            view = self.rendered.get(payload.png or b"")
            if view is None or view.viewer is not None:
                self.problems.append(f"board payload of table {table.id} has an image not drawn from the public view")
        self.public_text_ok(table.id, payload_text(payload), f"{kind} payload")


async def test_no_public_payload_shows_a_hidden_card(world, monkeypatch):
    check = LeakCheck()
    check.install(monkeypatch, world)
    people = world.members("alice", "bob", "carol")
    tables: list[int] = []

    for seed, humans, ais, draft in GAMES:
        world.rig(first_seat=0, seed=seed)
        host, *guests = people[:humans]
        table_id = await world.seat(host, *guests, ais=ais, draft=draft)
        await world.play_out(table_id, people[:humans], max_steps=200)
        tables.append(table_id)

    assert not check.problems, "\n".join(check.problems[:20])
    assert check.boards > 100 and check.panels > 20 and len(check.rendered) > 50
    assert check.observed["board"] > 100 and check.observed["result"] == len(GAMES)
    # 4. What stays in the channel and the threads once the games are over.
    for table_id in tables:
        assert world.table(table_id).status == "finished"
        for message in world.thread_messages(table_id):
            assert not message.flags.ephemeral
            check.public_text_ok(table_id, message.content + "\n" + embed_text(message.embeds), "a thread message")
        check.public_text_ok(table_id, world.thread(table_id).name or "", "the thread name")
    for message in world.channel.history():
        assert not cards_named(message.content + embed_text(message.embeds)), message
    assert not check.problems, "\n".join(check.problems[:20])
