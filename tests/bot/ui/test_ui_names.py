"""Hostile display names at a real table: nothing a member names themselves can ping, link or reformat.

Every seat is taken by a member whose server nickname holds mention syntax, a masked link, markdown,
a right-to-left override or invisible characters; whole games are played through Discord and every
request the bot sent is read back: text, embeds, labels, thread names and ``allowed_mentions``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from simcord.actors import MemberActor

from bot.i18n import translate
from bot.presenters.registry import PRESENTERS
from bot.ui.text import image_name, label_name, safe_name
from tests.bot.resilience.registry import discord_games, seat_counts
from tests.support import World, private_text

pytestmark = pytest.mark.asyncio

#: A masked link whose ``[`` or ``](`` is not escaped by a backslash.
MASKED_LINK = re.compile(r"(?<!\\)\[[^\n]*?(?<!\\)\]\(")
EVERYONE = re.compile(r"(?<!\\)@(everyone|here)")
#: Characters no output may carry: bidi overrides and embeddings, word joiner, BOM, soft hyphen.
#: Games too long to play whole here: the host ends them after this many decisions.
STEPS = {"intrigue": 60}
INVISIBLE = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u200e\u200f\u2060\ufeff\u00ad")


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


def hostile_names(victim: MemberActor) -> list[str]:
    """Return six nicknames (Discord allows 32 characters), each an attack on the bot's messages."""
    names = [
        f"<@{victim.id}> @everyone",  # pings a member who is not playing, and the whole server
        "[gift](https://evil.example/x)",  # a masked link
        "[free",  # with the next seat's name, printed after ", ", a masked link across two names
        "](https://evil.example/nitro)",
        "# **b** __u__ ||s|| `c` ~~x~~ _1",  # a heading and every inline markdown, 32 characters
        "\u202eevil\u202c שלום\u200b\u2060 <#1> @here",  # RTL override, Hebrew, zero-width, a channel
    ]
    assert all(len(name) <= 32 for name in names) and len(names[4]) == 32
    return names


def add_member(world: World, username: str, nick: str) -> MemberActor:
    return world.guild.add_member(world.env.create_user(username), nick=nick)


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def component_texts(rows: list[dict[str, Any]]) -> Iterator[str]:
    """Return the labels and placeholders of ``rows`` (Discord shows them literally, without markdown)."""
    for row in rows:
        for component in row.get("components") or []:
            yield from (component[key] for key in ("label", "placeholder") if component.get(key))
            yield from (option["label"] for option in component.get("options") or [])
            yield from component_texts(component.get("components") or [])


def message_payloads(world: World) -> Iterator[tuple[str, dict[str, Any]]]:
    """Return (what, payload) of every message the bot posted or edited, and of every thread it opened."""
    for request in world.env.http_requests:
        body = request.json
        if not isinstance(body, dict):
            continue
        if request.path.endswith("/threads"):
            yield "thread", body
        elif request.path.startswith("/interactions/"):
            if isinstance(body.get("data"), dict) and body.get("type") in {4, 7}:
                yield f"{request.method} {request.path}", body["data"]
        elif "/messages" in request.path or request.path.startswith("/webhooks/"):
            yield f"{request.method} {request.path}", body


def check_requests(world: World, names: list[str], players: set[int], victim: MemberActor) -> str:
    """Assert every rule on what the bot sent; return the text of its messages (content and embeds)."""
    shown: list[str] = []
    welcomed = False
    for what, payload in message_payloads(world):
        everything = list(strings(payload))
        for text in everything:
            assert not INVISIBLE & set(text), (what, text)
        if what == "thread":
            assert not any(name in payload["name"] for name in names), payload
            continue
        labels = list(component_texts(payload.get("components") or []))
        for label in labels:
            assert "\\" not in label, (what, label)  # labels are literal: an escape would show
        text = "\n".join([payload.get("content") or "", *strings(payload.get("embeds") or [])])
        shown.append(text)
        assert f"<@{victim.id}>" not in text and f"<@!{victim.id}>" not in text, (what, text)
        assert not MASKED_LINK.search(text), (what, text)
        assert not EVERYONE.search(text), (what, text)
        rest = text
        for name in names:
            rest = rest.replace(safe_name(name), "")
        for name in names:
            assert name not in rest, (what, name, text)  # only ever shown escaped
        mentions = payload.get("allowed_mentions")
        assert mentions is not None and mentions.get("parse") == [], (what, payload)
        pinged = {int(user) for user in mentions.get("users") or []}
        # Only messages calling players (welcome, decision, end proposal) ping, and only those they name.
        assert pinged <= players, (what, mentions)
        assert all(f"<@{user}>" in str(payload.get("content")) for user in pinged), (what, text)
        welcomed = welcomed or pinged == players
    assert welcomed, "the welcome pings every player"
    return "\n".join(shown)


@pytest.mark.parametrize("game", discord_games())
async def test_hostile_names_in_every_seat_cannot_ping_link_or_reformat(world, monkeypatch, game):
    victim = world.member("victim")
    names = hostile_names(victim)[: max(seat_counts(game))]
    people = [add_member(world, f"player{i}", nick) for i, nick in enumerate(names)]
    drawn: list[list[str]] = []
    presenter = PRESENTERS[game]
    render = presenter.render_board

    def spy(view: Any, seat_names: Any, *args: Any, **kwargs: Any) -> bytes:
        drawn.append(list(seat_names))
        return render(view, seat_names, *args, **kwargs)

    monkeypatch.setattr(presenter, "render_board", spy)
    pngs: list[bytes] = []
    world.bot.publisher.observers.append(lambda _table, _kind, payload: pngs.append(payload.png or b""))
    world.rig(seed=f"names-{game}")

    table_id = await world.seat(people[0], *people[1:], game=game)
    for _ in range(STEPS.get(game, 600)):
        if world.table(table_id).status != "active":
            break
        if not await world.play_step(table_id, people):
            await world.env.settle()
    if game in STEPS:
        # A long game is ended part-way by everyone's agreement: the proposal names its proposer too.
        confirm = await world.table_button(people[0], table_id, "end")
        assert confirm.response is not None, private_text(confirm)
        await people[0].click(confirm.response, custom_id=f"tbl:{table_id}:endvote_yes")
        proposal = world.thread_messages(table_id)[-1]
        for person in people[1:]:
            await person.click(proposal, custom_id=f"tbl:{table_id}:endvote")
        assert world.table(table_id).status == "cancelled"
    else:
        assert world.table(table_id).status == "finished"
    text = check_requests(world, names, {p.id for p in people}, victim)
    # Each name is shown, escaped, in the messages, and drawn as members see it in the image.
    for name in names:
        assert safe_name(name) in text, name
    seated = [image_name(name) for name in world.table(table_id).names()]
    assert sorted(seated) == sorted(image_name(name) for name in names)
    assert drawn and all(seat_names == seated for seat_names in drawn)
    assert "evil שלום <#1> @here" in drawn[0]  # the real name, without its invisible characters
    assert any(png.startswith(b"\x89PNG") for png in pngs)
    assert world.board(table_id).attachments


async def test_a_host_named_as_a_mention_ends_the_table_without_pinging(world):
    victim = world.member("victim")
    host = add_member(world, "host", f"<@{victim.id}>")
    guest = world.member("guest")
    table_id = await world.seat(host, guest)

    confirm = await world.table_button(host, table_id, "end")
    assert confirm.response is not None
    await host.click(confirm.response, custom_id=f"tbl:{table_id}:end_yes")

    closing = world.thread_messages(table_id)[-1]
    assert closing.content == en("ui.board.ended", name=safe_name(f"<@{victim.id}>"))
    assert f"<@{victim.id}>" not in closing.content and not closing.mentions
    sent = [body for what, body in message_payloads(world) if body.get("content") == closing.content]
    assert sent and all(body["allowed_mentions"] == {"parse": []} for body in sent)


async def test_a_lobby_lists_players_by_mention_without_pinging_them(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob, start=False)

    lobby = world.lobby(table_id)
    assert f"<@{bob.id}>" in lobby.embeds[0].fields[0].value
    lobby_bodies = [body for what, body in message_payloads(world) if "embeds" in body]
    assert lobby_bodies and all(body["allowed_mentions"] == {"parse": []} for body in lobby_bodies)


async def test_labels_show_names_literally_and_isolate_right_to_left_ones(world):
    alice = world.member("alice")
    rtl = add_member(world, "rtl", "\u202eevil שלום")
    world.rig(first_seat=0, seed="labels")
    table_id = await world.seat(alice, rtl)
    # Coup's first player declares; Steal and Assassinate name the other seat in their labels.
    board = world.board(table_id)

    labels = list(component_texts(world.components(board)))

    assert label_name("\u202eevil שלום") == "\u2068evil שלום\u2069"
    assert any(label_name("\u202eevil שלום") in label for label in labels), labels


async def test_stats_of_a_hostile_name_are_escaped(world):
    alice = world.member("alice")
    hostile = add_member(world, "hostile", "**@everyone** [x](https://e.x)")

    result = await alice.slash(world.channel, "stats", member=hostile)

    assert result.response is not None, private_text(result)
    title = result.response.embeds[0].title
    assert title == en("ui.stats.title", name=safe_name("**@everyone** [x](https://e.x)"))
    assert not MASKED_LINK.search(title or "") and not EVERYONE.search(title or "")
