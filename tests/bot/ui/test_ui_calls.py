"""Calling the players: one mention per human decision, in every game, and the reminder before time runs out.

What Discord received is read back from SimCord's request log: a *ping* is a message posted in the
table's thread whose ``allowed_mentions`` names users (the welcome aside). AI seats move
:data:`AI_DELAY` seconds after their decision opens here, and the whole-game test advances
SimCord's clock by that much only once every human answered, so every state a human waits in is
drawn (and called) before an AI moves on: each ping belongs to the prompt open when the test looks.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest
from simcord.actors import MemberActor

from bot.i18n import translate
from bot.presenters.registry import PRESENTERS
from bot.tables import choose_ai_action
from bot.ui import interactions, panels
from bot.ui.text import safe_name
from games.coup.engine import stacked_deck
from games.coup.models import Allow, Card, Challenge, CollectTax, Phase, ProveClaim, RevealCard, TakeIncome
from tests.support import World, find_action, private_text

pytestmark = pytest.mark.asyncio

D = Card
DUEL_DECK = stacked_deck([[D.DUKE, D.ASSASSIN], [D.CAPTAIN, D.CONTESSA]])
TRIO_DECK = stacked_deck([[D.DUKE, D.CAPTAIN], [D.CONTESSA, D.AMBASSADOR], [D.ASSASSIN, D.CONTESSA]])
#: Seconds an AI seat waits before it moves (the tests advance SimCord's clock past it).
AI_DELAY = 30
#: A stand-in board image: these tests are about the messages around the board, not its picture.
FAKE_PNG = b"\x89PNG\r\n\x1a\nboard"


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"ai_delay_seconds": AI_DELAY})


@pytest.fixture
def no_images(monkeypatch):
    for presenter in PRESENTERS.values():
        monkeypatch.setattr(presenter, "render_board", lambda *_args: FAKE_PNG)


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


def pings(world: World, table_id: int, since: int = 0) -> list[tuple[set[int], str]]:
    """Return (pinged users, content) of every call posted in the table's thread from request ``since`` on."""
    table = world.table(table_id)
    path = f"/channels/{table.thread_id}/messages"
    welcome = en("ui.board.welcome", mentions=" ".join(f"<@{s.user_id}>" for s in table.seats if not s.is_ai))
    found: list[tuple[set[int], str]] = []
    for request in world.env.http_requests[since:]:
        body = request.json or {}
        if request.method != "POST" or request.path != path or body.get("content") == welcome:
            continue
        users = {int(user) for user in (body.get("allowed_mentions") or {}).get("users") or []}
        if users:
            found.append((users, body["content"]))
    return found


def calls_shown(world: World, table_id: int) -> list[str]:
    """Return the call messages the thread shows now."""
    keys = ("call.board", "call.panel")
    marks = [en(key, mentions="\x00").split("\x00")[1] for key in keys]
    return [m.content for m in world.thread_messages(table_id) if any(mark in m.content for mark in marks)]


def _mentions(line: str) -> str:
    """Return the mentions a call line starts with."""
    return line.split(",", 1)[0]


def awaited_humans(world: World, table_id: int) -> set[int]:
    table = world.table(table_id)
    active = table.engine.active_seats(world.state(table_id))
    return {s.user_id for s in table.seats if s.seat in active and not s.ai_controlled and s.user_id is not None}


async def duel(world: World, *, reminders: bool = True, **options: Any) -> tuple[MemberActor, MemberActor, int]:
    alice, bob = world.members("alice", "bob")
    world.rig(deck=DUEL_DECK, first_seat=0)
    table_id = await world.seat(alice, bob, start=False, **options)
    world.table(table_id).options["reminders"] = reminders
    started = await world.lobby_click(alice, table_id, "start")
    assert not started.ephemeral, private_text(started)
    return alice, bob, table_id


# ---------------------------------------------------------------------- whole games
WHOLE_GAMES = [
    pytest.param("coup", 3, {}, id="coup"),
    pytest.param("masti", 3, {}, id="masti"),
    pytest.param("cadwallon", 3, {}, id="cadwallon"),
    pytest.param("intrigue", 3, {"turns": 4}, id="intrigue"),
]


@pytest.mark.parametrize(("game", "seats", "options"), WHOLE_GAMES)
async def test_every_human_decision_of_a_whole_game_is_called_exactly_once(world, no_images, game, seats, options):
    alice, bob = people = world.members("alice", "bob")
    world.rig(seed=f"calls-{game}")
    table_id = await world.seat(alice, bob, ais=seats - 2, game=game, clock=3600, **options)
    humans = {alice.id, bob.id}
    # A human's *stretch* is a run of steps the table waits for them without a break (one decision,
    # or several taken one after another): each stretch must be called exactly once. Every step's
    # awaited humans are read as the service reports the step, before any board update.
    waiting = awaited_humans(world, table_id)  # the stretches the start opened
    stretch: Counter[int] = Counter(waiting)
    publisher = world.bot.publisher
    report = publisher.table_changed

    def record(table, events):
        nonlocal waiting
        now = awaited_humans(world, table.id) if table.status == "active" else set()
        stretch.update(now - waiting)
        waiting = now
        report(table, events)

    publisher.table_changed = record
    called: Counter[tuple[int, int]] = Counter()  # (user, stretch) → pings
    cursor = 0
    decisions = 0
    for _ in range(2_000):
        await world.env.settle()
        table = world.service.tables.get(table_id)
        if table is None or table.status != "active":
            break
        new = pings(world, table_id, cursor)
        cursor = len(world.env.http_requests)
        awaited = awaited_humans(world, table_id)
        for users, content in new:
            assert users <= awaited, (users, awaited, content)  # never an AI, never someone not awaited
            for user in users:
                called[(user, stretch[user])] += 1
        # Everyone awaited has been called for this stretch, and only once.
        assert all(called[(user, stretch[user])] == 1 for user in awaited), (called, awaited)
        shown = calls_shown(world, table_id)
        if awaited:
            assert len(shown) == 1 and all(f"<@{user}>" in shown[0] for user in awaited), shown
            assert not any(f"<@{user}>" in shown[0] for user in humans - awaited), shown
            # The call sends the one who answers next where its decision really is.
            seat = min(s.seat for s in table.seats if s.user_id in awaited)
            action = choose_ai_action(table.engine, world.agent(game), world.state(table_id), seat)
            on_board = find_action(world.components(world.board(table_id)), action) is not None
            place = "call.board" if on_board else "call.panel"
            assert any(
                line == en(place, mentions=_mentions(line)) and f"<@{table.seats[seat].user_id}>" in line
                for line in shown[0].split("\n")
            ), (place, shown)
            assert await world.play_step(table_id, people)
            decisions += 1
        else:
            assert not shown, shown  # nobody human is awaited: no call is left standing
            await world.env.advance_time(AI_DELAY)
    else:
        raise AssertionError("the game did not end")
    assert world.table(table_id).status == "finished"
    assert decisions >= 4 and {user for user, _ in called} == humans
    assert sum(called.values()) == len(called)  # one ping per (human, stretch), never two
    if game in {"intrigue", "cadwallon"}:
        # Turns of several decisions in a row are called once, not once per step.
        assert len(called) < decisions, (len(called), decisions)
    assert not calls_shown(world, table_id)  # the last call went with the game
    assert table_id not in publisher._calls and table_id not in publisher._reminders


# ---------------------------------------------------------------------- the right person, in the right place
async def test_a_board_decision_after_a_panel_decision_calls_the_right_player(world):
    alice, bob, carol = world.members("alice", "bob", "carol")
    world.rig(deck=TRIO_DECK, first_seat=0)
    table_id = await world.seat(alice, bob, carol)
    assert calls_shown(world, table_id) == [en("call.board", mentions=alice.mention)]

    await world.act(alice, table_id, CollectTax())
    assert calls_shown(world, table_id) == [en("call.board", mentions=f"{bob.mention} {carol.mention}")]
    await world.act(carol, table_id, Challenge())
    assert world.state(table_id).phase is Phase.PROVE
    assert calls_shown(world, table_id) == [en("call.panel", mentions=alice.mention)]
    alices = await world.open_panel(alice, table_id)
    assert alices.response is not None
    await world.press(alice, alices.response, ProveClaim())
    assert calls_shown(world, table_id) == [en("call.panel", mentions=carol.mention)]
    cursor = len(world.env.http_requests)
    carols = await world.open_panel(carol, table_id)
    assert carols.response is not None
    await world.press(carol, carols.response, RevealCard(card=D.ASSASSIN))

    # bob now declares on the board: carol's panel call is gone and bob is called to the board.
    assert world.state(table_id).turn == 1 and awaited_humans(world, table_id) == {bob.id}
    assert calls_shown(world, table_id) == [en("call.board", mentions=bob.mention)]
    assert pings(world, table_id, cursor) == [({bob.id}, en("call.board", mentions=bob.mention))]


async def test_a_window_edits_out_who_answered_without_pinging_again(world):
    alice, bob, carol = world.members("alice", "bob", "carol")
    world.rig(deck=TRIO_DECK, first_seat=0)
    table_id = await world.seat(alice, bob, carol)
    await world.act(alice, table_id, CollectTax())
    cursor = len(world.env.http_requests)

    await world.act(bob, table_id, Allow())

    assert calls_shown(world, table_id) == [en("call.board", mentions=carol.mention)]
    assert pings(world, table_id, cursor) == []  # an edit, not a new message
    (edit,) = [r for r in world.env.http_requests[cursor:] if r.method == "PATCH" and (r.json or {}).get("content")]
    assert [int(u) for u in edit.json["allowed_mentions"]["users"]] == [carol.id]


async def test_the_call_goes_with_an_ended_table(world):
    alice, _bob, table_id = await duel(world)
    assert calls_shown(world, table_id) == [en("call.board", mentions=alice.mention)]

    confirm = await world.table_button(alice, table_id, "end")  # the host, before anyone moved
    assert confirm.response is not None
    await alice.click(confirm.response, custom_id=f"tbl:{table_id}:end_yes")
    await world.env.settle()

    assert world.table(table_id).status == "cancelled"
    assert calls_shown(world, table_id) == []
    assert table_id not in world.bot.publisher._calls and table_id not in world.bot.publisher._reminders


# ---------------------------------------------------------------------- autopilot and coming back
async def test_a_seat_on_autopilot_is_not_called_and_is_called_again_when_back(world):
    alice, bob, table_id = await duel(world, reminders=False)
    await world.env.advance_time(61)  # alice times out once
    await world.act(bob, table_id, TakeIncome())
    await world.env.advance_time(61)  # and twice: the AI plays for her
    assert world.table(table_id).seats[0].autopilot
    cursor = len(world.env.http_requests)

    await world.act(bob, table_id, TakeIncome())  # alice's turn: the AI will answer for her

    assert awaited_humans(world, table_id) == set() and world.table(table_id).engine.active_seats(
        world.state(table_id)
    ) == {0}
    assert pings(world, table_id, cursor) == [] and calls_shown(world, table_id) == []

    back = await world.table_button(alice, table_id, "back")
    assert back.ephemeral

    assert pings(world, table_id, cursor) == [({alice.id}, en("call.board", mentions=alice.mention))]
    await world.env.advance_time(AI_DELAY + 1)
    assert world.table(table_id).engine.active_seats(world.state(table_id)) == {0}  # she decides herself


# ---------------------------------------------------------------------- the reminder
async def test_the_reminder_pings_once_when_a_fifth_of_the_clock_is_left(world):
    alice, bob, table_id = await duel(world, clock=60)
    cursor = len(world.env.http_requests)

    await world.env.advance_time(47)
    assert pings(world, table_id, cursor) == []
    await world.env.advance_time(2)  # 11 s left of 60

    deadline = world.table(table_id).deadline
    assert deadline is not None
    reminder = en("call.reminder", when=f"<t:{int(deadline)}:R>") + "\n" + en("call.board", mentions=alice.mention)
    assert pings(world, table_id, cursor) == [({alice.id}, reminder)]
    assert calls_shown(world, table_id) == [reminder]  # it replaced the first call
    await world.env.advance_time(10)
    assert pings(world, table_id, cursor) == [({alice.id}, reminder)]  # once

    await world.env.advance_time(2)  # time is up: bob's turn opens a new decision
    assert world.state(table_id).turn == 1
    assert pings(world, table_id, cursor)[1:] == [({bob.id}, en("call.board", mentions=bob.mention))]
    assert calls_shown(world, table_id) == [en("call.board", mentions=bob.mention)]


async def test_no_reminder_when_reminders_are_off_or_the_clock_is_short(world):
    _alice, _bob, quiet = await duel(world, reminders=False, clock=60)
    carol, dave = world.members("carol", "dave")
    world.rig(deck=DUEL_DECK, first_seat=0)
    short = await world.seat(carol, dave, clock=20)
    cursor = len(world.env.http_requests)

    await world.env.advance_time(19)

    assert pings(world, short, cursor) == []
    await world.env.advance_time(40)
    assert pings(world, quiet, cursor) == []
    assert world.state(quiet).version == 0  # still alice's first decision


async def test_a_moved_deadline_moves_the_reminder(world, monkeypatch):
    alice, _bob, table_id = await duel(world, clock=60)
    await world.env.advance_time(10)
    table = world.table(table_id)
    assert table.deadline is not None
    real_rules = panels.rules_payload

    def more_time(*args: Any) -> Any:
        # What "More time" does, inside a click the bot handles (so SimCord runs the timers it arms
        # on its clock): the deadline moves, the service re-arms its clock and tells the publisher.
        assert table.deadline is not None
        table.deadline += 30
        world.service._arm_clock(table)
        world.bot.publisher.table_changed(table, ())
        return real_rules(*args)

    monkeypatch.setattr(interactions, "rules_payload", more_time)
    await world.table_button(alice, table_id, "rules")
    cursor = len(world.env.http_requests)

    await world.env.advance_time(40)  # 50 s in: the old reminder time has passed
    assert pings(world, table_id, cursor) == []
    # SimCord moves the event loop's clock, not the wall clock deadlines are written in, so the
    # re-armed timers count from the moment they were re-armed: the reminder is due 78 s after it
    # and the clock runs out 90 s after it.
    await world.env.advance_time(45)

    ((users, content),) = pings(world, table_id, cursor)
    assert users == {alice.id} and content.startswith(en("call.reminder", when=f"<t:{int(table.deadline)}:R>"))
    assert world.state(table_id).version == 0  # before the moved deadline


async def test_nobody_waits_for_a_call_change_in_flight_and_it_looks_again(world, monkeypatch):
    """A board update must not queue behind the reminder's post (say, sleeping out a 429).

    While one change of the call is in flight, a later one returns at once and only asks the change
    in flight to look again when it ends; a reminder asked for meanwhile is that next look.
    """
    alice, _bob, table_id = await duel(world, clock=60)
    publisher = world.bot.publisher
    table = world.table(table_id)
    target = publisher._thread(table)
    gate = asyncio.Event()
    looks: list[bool] = []

    async def call_once(self: Any, table: Any, target: Any, call: Any, *, remind: bool) -> bool:
        looks.append(remind)
        if len(looks) == 1:
            await gate.wait()  # the first change is held up in flight
        return False

    monkeypatch.setattr(type(publisher), "_call_once", call_once)
    first = asyncio.create_task(publisher._call_players(table, target))
    for _ in range(5):
        await asyncio.sleep(0)
    assert looks == [False] and not first.done()

    board = asyncio.create_task(publisher._call_players(table, target))
    reminder = asyncio.create_task(publisher._call_players(table, target, remind=True))
    for _ in range(5):
        await asyncio.sleep(0)
    assert board.done() and reminder.done(), "a later change waited for the one in flight"
    assert looks == [False]

    gate.set()
    await first
    assert looks == [False, True]  # one more look, and it is the reminder's
    assert alice.id in publisher._awaited(table)


# ---------------------------------------------------------------------- a click on someone else's decision
async def test_a_click_on_someone_elses_decision_names_who_is_deciding(world):
    alice = world.member("*al_ice*")
    bob = world.member("bob", locale="ru")
    world.rig(deck=DUEL_DECK, first_seat=0)
    table_id = await world.seat(alice, bob)
    before = await world.db_snapshot(table_id)

    refused = await world.act(bob, table_id, TakeIncome())

    assert refused.ephemeral
    assert private_text(refused) == translate("ru", "call.not_your_turn", names=safe_name("*al_ice*"))
    assert "\\*al\\_ice\\*" in private_text(refused)
    assert await world.db_snapshot(table_id) == before
