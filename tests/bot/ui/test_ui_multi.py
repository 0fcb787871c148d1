"""A multi-select: the Интриги basket's purchases and Pay ticked at once, one interaction for the whole basket.

The basket's select (``acts:<table>:<prompt>:1:basket``) lets every option be ticked; the ticked
actions are applied in the select's own order (Pay is last), through ``TableService.act_many``:
all or nothing, against the prompt in the custom id. Every request the bot sends is validated
against Discord's OpenAPI spec by the autouse fixture of ``tests/bot/conftest.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.codec import encode_action
from bot.i18n import translate
from games.intrigue.data import INVEST_COST
from games.intrigue.models import Done, IntrigueView, MercType, PickLand, PickType, Skip
from tests.bot.ui.test_ui_forms import alices_basket
from tests.bot.ui.test_ui_intrigue import panel, state_of
from tests.support import World, embed_text, private_text, walk

pytestmark = pytest.mark.asyncio


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


def basket_select(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the basket's multi-select among ``rows``."""
    found = [
        c for c in walk(rows) if str(c.get("custom_id", "")).startswith("acts:") and c["custom_id"].endswith(":basket")
    ]
    assert len(found) == 1, [c.get("custom_id") for c in walk(rows)]
    return found[0]


def two_lands(world: World, table_id: int) -> tuple[str, str]:
    lands = sorted(state_of(world, table_id).lands)
    return encode_action(PickLand(land=lands[0])), encode_action(PickLand(land=lands[1]))


def kinds(entries: list[Any]) -> list[str]:
    return [entry.action.split('"kind":"')[1].split('"')[0] for entry in entries]


async def test_the_basket_select_offers_every_purchase_and_pay_last(world):
    alice, _, table_id = await alices_basket(world, coins=9)
    opened = await panel(world, alice, table_id)

    select = basket_select(world.components(opened))

    values = [o["value"] for o in select["options"]]
    assert select["max_values"] == len(values) > 2  # every option may be ticked
    assert values[-1] == encode_action(Done())
    assert set(two_lands(world, table_id)) <= set(values)
    assert encode_action(PickType(merc=MercType.SPY)) in values
    assert select["options"][-1]["label"] == en("intrigue.button.basket_pay")
    assert select["placeholder"] == en("intrigue.select.basket")


async def test_ticking_several_purchases_and_pay_takes_the_whole_basket_in_the_lists_order(world):
    alice, _, table_id = await alices_basket(world, coins=12)
    opened = await panel(world, alice, table_id)
    select = basket_select(world.components(opened))
    first, second = two_lands(world, table_id)
    spy = encode_action(PickType(merc=MercType.SPY))
    log_before = len(await world.service.storage.action_log(table_id))

    # Ticked in any order (Pay first here): applied in the list's order, so Pay closes the basket.
    picked = await alice.select(opened, [encode_action(Done()), spy, second, first], custom_id=select["custom_id"])

    assert not picked.followups, private_text(picked)
    assert picked.response is not None and picked.response.id == opened.id  # the panel itself moved on
    after = state_of(world, table_id)
    assert [c.merc for c in after.hands[0]] == [MercType.SPY]
    assert 12 - after.coins[0] in (2 * INVEST_COST + 2, 2 * INVEST_COST + 3)  # a hire is 2 under Beyond-the-Woods
    assert 0 not in world.table(table_id).engine.active_seats(after)  # the basket was submitted
    log = await world.service.storage.action_log(table_id)
    taken = [entry for entry in log[log_before:] if entry.seat == 0][:4]
    assert kinds(taken) == ["pick_land", "pick_land", "pick_type", "done"]


async def test_one_ticked_purchase_is_one_step_and_the_basket_goes_on(world):
    alice, _, table_id = await alices_basket(world, coins=9)
    opened = await panel(world, alice, table_id)
    select = basket_select(world.components(opened))

    picked = await alice.select(opened, [encode_action(PickType(merc=MercType.SPY))], custom_id=select["custom_id"])

    assert not picked.followups and picked.response is not None, private_text(picked)
    assert "Picked so far: Hire: Spy." in embed_text(picked.response.embeds)
    view = world.table(table_id).engine.view(state_of(world, table_id), 0)
    assert isinstance(view, IntrigueView) and view.draft is not None and len(view.draft.items) == 1
    assert 0 in view.awaiting  # nothing paid yet: Back still undoes it
    # The basket goes on: the select again, with Pay as its last option beside the Pay button.
    again = basket_select(world.components(picked.response))
    assert again["options"][-1]["value"] == encode_action(Done())


async def test_a_basket_over_the_purse_applies_nothing(world):
    alice, _, table_id = await alices_basket(world, coins=6)  # two purchases at most
    opened = await panel(world, alice, table_id)
    select = basket_select(world.components(opened))
    first, second = two_lands(world, table_id)
    before = await world.db_snapshot(table_id)

    over = await alice.select(
        opened,
        [first, second, encode_action(PickType(merc=MercType.SPY)), encode_action(Done())],
        custom_id=select["custom_id"],
    )

    assert over.ephemeral and private_text(over) and "Traceback" not in private_text(over)
    assert await world.db_snapshot(table_id) == before  # not even the two affordable parts
    assert state_of(world, table_id).coins[0] == 6


async def test_pay_ticked_alone_on_an_empty_basket_applies_nothing(world):
    alice, _, table_id = await alices_basket(world, coins=9)
    opened = await panel(world, alice, table_id)
    select = basket_select(world.components(opened))
    before = await world.db_snapshot(table_id)

    refused = await alice.select(opened, [encode_action(Done())], custom_id=select["custom_id"])

    assert refused.ephemeral and private_text(refused)
    assert await world.db_snapshot(table_id) == before


async def test_a_stale_basket_select_is_refused_privately_and_applies_nothing(world):
    alice, _, table_id = await alices_basket(world, coins=9)
    opened = await panel(world, alice, table_id)
    rows = world.components(opened)
    select = basket_select(rows)
    copy = await world.forge(world.thread(table_id), rows)  # the panel as it looked before
    await world.press(alice, opened, Skip())  # the basket is decided another way meanwhile
    before = await world.db_snapshot(table_id)
    first, second = two_lands(world, table_id)

    late = await alice.select(copy, [first, second, encode_action(Done())], custom_id=select["custom_id"])

    assert late.ephemeral
    assert private_text(late) in {en("core.error.stale"), world.not_yours(table_id)}
    assert await world.db_snapshot(table_id) == before


async def test_another_members_basket_select_is_refused(world):
    alice, bob, table_id = await alices_basket(world, coins=9)
    carol = world.member("carol")
    opened = await panel(world, alice, table_id)
    copy = await world.forge(world.thread(table_id), world.components(opened))  # alice's select, where all see it
    select = basket_select(world.components(copy))
    first, second = two_lands(world, table_id)
    before = await world.db_snapshot(table_id)

    by_bob = await bob.select(copy, [first, second, encode_action(Done())], custom_id=select["custom_id"])
    by_carol = await carol.select(copy, [first, encode_action(Done())], custom_id=select["custom_id"])

    assert by_bob.ephemeral and private_text(by_bob) == world.not_yours(table_id)
    assert by_carol.ephemeral and private_text(by_carol) == en("table.not_seated")
    assert await world.db_snapshot(table_id) == before
