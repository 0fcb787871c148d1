"""Chained options: several sub-steps of one Интриги decision taken with one pick of the private panel.

A chained option's value is its encoded actions joined by ``CHAIN_SEP`` (:mod:`bot.presenters.chains`);
the pick applies them through ``TableService.act_many`` against the prompt in the select's custom id:
all or nothing. Every request the bot sends is validated against Discord's OpenAPI spec by the
autouse fixture of ``tests/bot/conftest.py``.
"""

from __future__ import annotations

from typing import Any

import pytest
from simcord.actors import MemberActor

from bot.codec import encode_action
from bot.i18n import translate
from bot.presenters.chains import CHAIN_SEP
from games.intrigue.models import Decision, IntrigueView, Pass, PickAction, PickCharacter, PickLand
from games.intrigue.state import IntrigueState
from tests.bot.ui.test_ui_intrigue import intrigue_table, panel, play_until, state_of
from tests.support import World, private_text, select_rows, walk

pytestmark = pytest.mark.asyncio


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


def chains(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Return (select custom id, value) of every chained option among ``rows``."""
    return [
        (component["custom_id"], option["value"])
        for component in walk(rows)
        if str(component.get("custom_id", "")).startswith("acts:")
        for option in component.get("options") or []
        if CHAIN_SEP in option["value"]
    ]


async def alices_slot(world: World) -> tuple[MemberActor, int]:
    """Seat alice and bob and play until alice chooses her action slot's main action (D10)."""
    alice, bob = world.members("alice", "bob")
    table_id = await intrigue_table(world, alice, bob)

    def her_slot(state: IntrigueState) -> bool:
        view = world.table(table_id).engine.view(state, 0)
        assert isinstance(view, IntrigueView)
        return (
            view.pending is not None
            and view.pending.decision is Decision.SLOT
            and 0 in view.awaiting
            and view.draft is not None
            and view.draft.step == "main"
            and any(isinstance(a, PickCharacter) for a in world.table(table_id).engine.legal_actions(state, 0))
        )

    await play_until(world, table_id, her_slot)
    return alice, table_id


async def test_a_chained_option_applies_its_whole_sequence_in_one_pick(world):
    alice, table_id = await alices_slot(world)
    opened = await panel(world, alice, table_id)
    offered = chains(world.components(opened))
    assert offered, "the slot's panel offers no chained option"
    custom_id, value = max(offered, key=lambda item: item[1].count(CHAIN_SEP))
    codes = value.split(CHAIN_SEP)
    assert codes[0].startswith("pick_character.") and codes[1].startswith("pick_action.")
    before = len(await world.service.storage.action_log(table_id))

    picked = await alice.select(opened, [value], custom_id=custom_id)

    assert not picked.followups, private_text(picked)
    assert picked.response is not None and picked.response.id == opened.id  # the panel itself moved on
    table = world.table(table_id)
    log = await world.service.storage.action_log(table_id)
    taken = [entry for entry in log[before:] if entry.seat == 0][: len(codes)]
    adapter = table.engine.action_adapter
    assert [encode_action(adapter.validate_json(entry.action)) for entry in taken] == codes  # each part, in order
    assert len(log) - before >= len(codes)


async def test_a_stale_chained_option_is_refused_privately_and_applies_nothing(world):
    alice, table_id = await alices_slot(world)
    opened = await panel(world, alice, table_id)
    rows = world.components(opened)
    custom_id, value = chains(rows)[0]
    copy = await world.forge(world.thread(table_id), rows)  # the panel as it looked before
    await world.press(alice, opened, Pass())  # the slot is decided another way meanwhile
    before = await world.db_snapshot(table_id)

    late = await alice.select(copy, [value], custom_id=custom_id)

    assert late.ephemeral
    assert private_text(late) in {en("core.error.stale"), world.not_yours(table_id)}
    assert await world.db_snapshot(table_id) == before


async def test_a_chained_option_no_longer_legal_applies_nothing(world):
    alice, table_id = await alices_slot(world)
    table = world.table(table_id)
    state = state_of(world, table_id)
    via = next(a for a in table.engine.legal_actions(state, 0) if isinstance(a, PickCharacter))
    # The first parts are legal now; the last is not (no such land): the whole pick must be refused.
    then = next(a for a in _after(world, table_id, via) if isinstance(a, PickAction))
    value = CHAIN_SEP.join(encode_action(a) for a in (via, then, PickLand(land=99)))
    custom_id = f"acts:{table_id}:{table.prompt_version}:1:character"
    forged = await world.forge(world.thread(table_id), select_rows(custom_id, value))
    before = await world.db_snapshot(table_id)

    refused = await alice.select(forged, [value], custom_id=custom_id)

    # The engine's own refusal of the last part (the first two were read and tried, then dropped).
    assert refused.ephemeral and private_text(refused) == en("intrigue.error.illegal_choice")
    assert await world.db_snapshot(table_id) == before
    assert state_of(world, table_id) == state  # not even the legal first parts


def _after(world: World, table_id: int, action: Any) -> list[Any]:
    """Return alice's legal actions once ``action`` is taken (on a copy: nothing is applied)."""
    table = world.table(table_id)
    engine = table.engine
    return list(engine.legal_actions(engine.apply(state_of(world, table_id), 0, action).state, 0))


async def test_a_select_continued_under_a_numbered_name_takes_its_pick(world):
    # Long groups and spilled chains continue in ``<group>_2``, ``_3``: their custom ids must parse.
    alice, table_id = await alices_slot(world)
    table = world.table(table_id)
    via = next(a for a in table.engine.legal_actions(state_of(world, table_id), 0) if isinstance(a, PickCharacter))
    then = next(a for a in _after(world, table_id, via) if isinstance(a, PickAction))
    value = CHAIN_SEP.join(encode_action(a) for a in (via, then))
    custom_id = f"acts:{table_id}:{table.prompt_version}:1:character_2"
    forged = await world.forge(world.thread(table_id), select_rows(custom_id, value))

    picked = await alice.select(forged, [value], custom_id=custom_id)

    assert not picked.followups, private_text(picked)
    assert private_text(picked) != en("ui.error.bad_component")
    view = table.engine.view(state_of(world, table_id), 0)
    assert isinstance(view, IntrigueView) and view.draft is not None
    assert view.draft.items[-1].action is then.action  # both parts taken: the draft is past the action
