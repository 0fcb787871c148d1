"""Bad clicks get a clear private answer in the clicker's language, and change nothing.

Each refused click must: be answered privately, show no traceback or code, leave the table's stored
state untouched, log no error (checked for every SimCord test) and raise nothing the bot swallowed.
"""

from __future__ import annotations

import pytest
from simcord.actors import MemberActor
from simcord.results import InteractionResult

from bot.i18n import translate
from games.coup.engine import stacked_deck
from games.coup.models import Card, TakeIncome
from tests.support import World, button_rows, private_text, select_rows

pytestmark = pytest.mark.asyncio

D = Card
DUEL_DECK = stacked_deck([[D.DUKE, D.ASSASSIN], [D.CAPTAIN, D.CONTESSA]])


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


async def duel(world: World) -> tuple[MemberActor, MemberActor, int]:
    alice, bob = world.members("alice", "bob")
    world.rig(deck=DUEL_DECK, first_seat=0)
    table_id = await world.seat(alice, bob)
    return alice, bob, table_id


def assert_private_refusal(world: World, result: InteractionResult, expected: str) -> None:
    text = private_text(result)
    assert text == expected
    assert "Traceback" not in text and "Error" not in text
    assert not world.env.errors  # nothing swallowed: the bot answered it as a rule error


async def test_acting_out_of_turn(world):
    _alice, bob, table_id = await duel(world)
    before = await world.db_snapshot(table_id)

    result = await world.act(bob, table_id, TakeIncome())

    assert_private_refusal(world, result, en("call.not_your_turn", names="alice"))
    assert await world.db_snapshot(table_id) == before


async def test_a_user_who_is_not_seated(world):
    _alice, _bob, table_id = await duel(world)
    carol = world.member("carol")
    before = await world.db_snapshot(table_id)

    result = await world.act(carol, table_id, TakeIncome())

    assert_private_refusal(world, result, en("table.not_seated"))
    assert await world.db_snapshot(table_id) == before


async def test_a_button_of_another_table(world):
    alice, _bob, first = await duel(world)
    carol, dave = world.members("carol", "dave")
    world.rig(deck=DUEL_DECK, first_seat=0)
    second = await world.seat(carol, dave)
    snapshots = (await world.db_snapshot(first), await world.db_snapshot(second))

    # carol plays at the second table and clicks the first table's board; a copy of that button
    # posted in her own thread carries the first table's id all the same.
    direct = await world.act(carol, first, TakeIncome())
    copied = await world.forge(world.thread(second), world.components(world.board(first)))
    via_copy = await world.press(carol, copied, TakeIncome())

    assert_private_refusal(world, direct, en("table.not_seated"))
    assert_private_refusal(world, via_copy, en("table.not_seated"))
    assert (await world.db_snapshot(first), await world.db_snapshot(second)) == snapshots
    assert alice.id not in {s.user_id for s in world.table(second).seats}


async def test_a_button_of_an_older_version(world):
    alice, bob, table_id = await duel(world)
    stale = await world.stale_copy(table_id)
    await world.act(alice, table_id, TakeIncome())
    await world.act(bob, table_id, TakeIncome())
    before = await world.db_snapshot(table_id)

    result = await world.press(alice, stale, TakeIncome())  # it is alice's turn again, but not that prompt's

    assert_private_refusal(world, result, en("core.error.stale"))
    assert await world.db_snapshot(table_id) == before


@pytest.mark.parametrize(
    ("custom_id", "key", "params"),
    [
        ("act:{t}:0:0:bogus", "ui.error.bad_component", {}),
        ("act:{t}:0:0:steal.x", "ui.error.bad_component", {}),
        ("act:{t}:0:0:income.1", "ui.error.bad_component", {}),
        ("act:{t}:0:0:keep.duke+joker", "ui.error.bad_component", {}),
        ("act:{t}:0:1:~", "ui.error.bad_component", {}),
        ("act:999:0:0:income", "table.not_found", {}),
        ("tbl:{t}:frobnicate", "table.error", {}),
        ("tbl:999:hand", "table.not_found", {}),
        ("lobby:{t}:dance", "table.error", {}),
        ("act:{t}:0:0:assassinate.1", "coup.error.not_enough_coins", {"cost": 3, "coins": 1}),
        ("act:{t}:0:0:steal.0", "coup.error.invalid_target", {}),
        ("act:{t}:0:0:reveal.duke", "coup.error.wrong_phase", {}),
    ],
)
async def test_a_damaged_or_impossible_button(world, custom_id, key, params):
    alice, _bob, table_id = await duel(world)
    message = await world.forge(world.thread(table_id), button_rows(custom_id.format(t=table_id)))
    before = await world.db_snapshot(table_id)

    result = await alice.click(message, custom_id=custom_id.format(t=table_id))

    assert_private_refusal(world, result, en(key, **params))
    assert await world.db_snapshot(table_id) == before


async def test_a_select_whose_value_is_not_an_action(world):
    alice, _bob, table_id = await duel(world)
    custom_id = f"acts:{table_id}:0:0:steal"
    message = await world.forge(world.thread(table_id), select_rows(custom_id, "steal.1", "steal", "nonsense"))
    before = await world.db_snapshot(table_id)

    results = [await alice.select(message, [value], custom_id=custom_id) for value in ("steal", "nonsense")]

    for result in results:
        assert_private_refusal(world, result, en("ui.error.bad_component"))
    assert await world.db_snapshot(table_id) == before


async def test_acting_on_a_finished_table(world):
    alice, bob, table_id = await duel(world)
    stale = await world.stale_copy(table_id)
    await world.table_button(bob, table_id, "resign")
    confirm = await world.table_button(bob, table_id, "resign")
    assert confirm.response is not None
    await bob.click(confirm.response, custom_id=f"tbl:{table_id}:resign_yes")
    assert world.table(table_id).status == "finished"
    before = await world.db_snapshot(table_id)

    move = await world.press(alice, stale, TakeIncome())
    cards = await alice.click(stale, custom_id=f"tbl:{table_id}:hand")
    resign = await alice.click(stale, custom_id=f"tbl:{table_id}:resign")

    for result in (move, cards, resign):
        assert_private_refusal(world, result, en("table.finished"))
    assert await world.db_snapshot(table_id) == before


async def test_joining_through_an_old_lobby_message_once_started(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob, start=False)
    old_lobby = await world.forge(world.channel, world.components(world.lobby(table_id)))
    await world.lobby_click(alice, table_id, "start")
    carol = world.member("carol")
    before = await world.db_snapshot(table_id)

    result = await carol.click(old_lobby, custom_id=f"lobby:{table_id}:join")

    assert_private_refusal(world, result, en("table.not_in_lobby"))
    assert await world.db_snapshot(table_id) == before


async def test_refusals_follow_the_clickers_language(world):
    alice, _bob, table_id = await duel(world)
    ivan = world.member("ivan", locale="ru")
    before = await world.db_snapshot(table_id)

    result = await world.act(ivan, table_id, TakeIncome())

    assert_private_refusal(world, result, translate("ru", "table.not_seated"))
    assert await world.db_snapshot(table_id) == before
    assert alice.id == world.table(table_id).host_id


@pytest.mark.parametrize("verb", ["hand", "back"])
async def test_table_buttons_of_a_table_still_in_the_lobby(world, verb):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob, start=False)
    message = await world.forge(world.channel, button_rows(f"tbl:{table_id}:{verb}"))
    before = await world.db_snapshot(table_id)

    result = await bob.click(message, custom_id=f"tbl:{table_id}:{verb}")

    expected = {"hand": "table.not_started", "back": "table.not_on_autopilot"}[verb]
    assert_private_refusal(world, result, en(expected))
    assert await world.db_snapshot(table_id) == before
