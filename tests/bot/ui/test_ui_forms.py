"""One decision, one form: the Интриги basket taken whole in a modal, and every way a form is refused.

A form is a private panel's button (``form:<table>:<prompt>:<kind>``) opening a modal whose fields
are selects of encoded engine actions; its submission is applied whole through
``TableService.act_many`` or not at all. Every request the bot sends (the modal too) is validated
against Discord's OpenAPI spec by the autouse fixture of ``tests/bot/conftest.py``.
"""

from __future__ import annotations

from typing import Any

import pytest
from simcord.actors import MemberActor
from simcord.results import InteractionResult, ResponseMessage

from bot.codec import encode_action
from bot.i18n import translate
from bot.presenters.registry import PRESENTERS
from bot.tables import TableError
from bot.ui.forms import MAX_FIELDS, MAX_TITLE
from games.cadwallon.models import ChooseAgent, ChooseBoulevard, EndTurn, PlaceAgent
from games.cadwallon.state import CadwallonState
from games.core import StaleActionError
from games.intrigue.data import INVEST_COST
from games.intrigue.models import Decision, Done, IntrigueView, MercType, PickLand, PickType, Skip
from games.intrigue.state import IntrigueState
from tests.bot.ui.test_ui_cadwallon import DEAL as CADWALLON_DEAL
from tests.bot.ui.test_ui_intrigue import intrigue_table, panel, play_until, state_of
from tests.support import World, component_ids, embed_text, private_text, walk

pytestmark = pytest.mark.asyncio

RADIO_GROUP = 21  # Discord's component type of a radio group


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


def form_button(rows: list[dict[str, Any]], kind: str = "basket") -> str | None:
    """Return the custom id of the form button ``kind`` among ``rows``, if there is one."""
    return next((c for c in component_ids(rows) if c.startswith("form:") and c.endswith(f":{kind}")), None)


async def alices_basket(world: World, *, coins: int | None = None) -> tuple[MemberActor, MemberActor, int]:
    """Seat alice and bob and play until alice fills her (empty) Investments basket."""
    alice, bob = world.members("alice", "bob")
    table_id = await intrigue_table(world, alice, bob)

    def her_turn(state: IntrigueState) -> bool:
        view = world.table(table_id).engine.view(state, 0)
        assert isinstance(view, IntrigueView)
        return (
            view.pending is not None
            and view.pending.decision is Decision.INVEST
            and 0 in view.awaiting
            and not PRESENTERS["intrigue"].decided_on_board(view)
        )

    await play_until(world, table_id, her_turn)
    if coins is not None:
        # The stacked purse of the test, in the table's live state (the next commit stores it).
        table = world.table(table_id)
        state = state_of(world, table_id)
        table.state = state.model_copy(update={"coins": (coins, *state.coins[1:])})
    return alice, bob, table_id


async def open_form(world: World, member: MemberActor, table_id: int) -> tuple[ResponseMessage, InteractionResult]:
    opened = await panel(world, member, table_id)
    button = form_button(world.components(opened))
    assert button is not None, component_ids(world.components(opened))
    shown = await member.click(opened, custom_id=button)
    assert shown.modal is not None, private_text(shown)
    return opened, shown


def answer(component: dict[str, Any], value: str) -> str | list[str]:
    """Return how a member fills ``component`` with ``value``: a radio group takes one value, a select a list."""
    return value if component["type"] == RADIO_GROUP else [value]


def assert_refused(result: InteractionResult, expected: str) -> None:
    text = private_text(result)
    assert result.ephemeral and text == expected, text
    assert result.modal is None


def cadwallon_state(world: World, table_id: int) -> CadwallonState:
    state = world.state(table_id)
    assert isinstance(state, CadwallonState)
    return state


def land(state: IntrigueState) -> int:
    return next(iter(state.lands))


# ---------------------------------------------------------------------- the whole decision
async def test_the_basket_form_applies_the_whole_basket_in_one_submission(world):
    alice, _, table_id = await alices_basket(world, coins=12)
    state = state_of(world, table_id)
    where = land(state)
    log_before = len(await world.service.storage.action_log(table_id))

    opened, shown = await open_form(world, alice, table_id)

    modal = shown.modal
    assert modal is not None
    assert modal["custom_id"] == f"formm:{table_id}:{world.table(table_id).prompt_version}:basket"
    assert 0 < len(modal["components"]) <= MAX_FIELDS and len(modal["title"]) <= MAX_TITLE
    assert modal["title"] == en("form.intrigue.basket_title")
    assert modal["components"][0]["type"] == 18  # a Label wrapping the select
    values = {o["value"] for o in modal["components"][0]["component"]["options"]}
    invest, hire = encode_action(PickLand(land=where)), encode_action(PickType(merc=MercType.SPY))
    assert {invest, hire} <= values  # option values are encoded engine actions
    done = await alice.submit_modal(shown, {"f0": [invest], "f1": [hire]})

    assert not done.followups, private_text(done)
    assert done.response is not None and done.response.id == opened.id  # the panel itself is redrawn
    after = state_of(world, table_id)
    assert [c.merc for c in after.hands[0]] == [MercType.SPY]
    assert 12 - after.coins[0] in (INVEST_COST + 2, INVEST_COST + 3)  # a hire is 2 under Beyond-the-Woods
    assert 0 not in world.table(table_id).engine.active_seats(after)  # the basket was submitted
    log = await world.service.storage.action_log(table_id)
    kinds = [entry.action for entry in log[log_before : log_before + 3]]
    assert [k.split('"kind":"')[1].split('"')[0] for k in kinds] == ["pick_land", "pick_type", "done"]


async def test_an_empty_basket_form_buys_nothing(world):
    alice, _, table_id = await alices_basket(world, coins=9)
    _, shown = await open_form(world, alice, table_id)

    done = await alice.submit_modal(shown, {})

    assert not done.followups, private_text(done)
    after = state_of(world, table_id)
    assert after.coins[0] == 9 and not after.hands[0]
    assert 0 not in world.table(table_id).engine.active_seats(after)


async def test_an_illegal_part_applies_nothing(world):
    alice, _, table_id = await alices_basket(world, coins=6)  # two investments at most
    where = land(state_of(world, table_id))
    _, shown = await open_form(world, alice, table_id)
    before = await world.db_snapshot(table_id)
    invest = encode_action(PickLand(land=where))

    over = await alice.submit_modal(shown, {"f0": [invest], "f1": [invest], "f2": [invest]})

    assert over.ephemeral and "Traceback" not in private_text(over)
    assert private_text(over) != ""
    assert await world.db_snapshot(table_id) == before  # not even the two affordable parts
    assert state_of(world, table_id).coins[0] == 6


# ---------------------------------------------------------------------- refusals
async def test_a_form_submitted_after_its_decision_passed_is_refused(world):
    alice, _, table_id = await alices_basket(world, coins=9)
    _, shown = await open_form(world, alice, table_id)
    table = world.table(table_id)
    assert alice.id == table.seats[0].user_id
    await world.service.act(table_id, alice.id, table.prompt_version, Skip())  # decided another way meanwhile
    await world.env.settle()
    before = await world.db_snapshot(table_id)

    late = await alice.submit_modal(shown, {"f0": [encode_action(PickType(merc=MercType.SPY))]})

    assert_refused(late, en("core.error.stale"))
    assert await world.db_snapshot(table_id) == before


async def test_a_form_button_of_a_passed_decision_opens_nothing(world):
    alice, _, table_id = await alices_basket(world, coins=9)
    opened = await panel(world, alice, table_id)
    copy = await world.forge(world.thread(table_id), world.components(opened))  # the panel as it was
    await world.press(alice, opened, Skip())
    button = form_button(world.components(copy))
    assert button is not None

    late = await alice.click(copy, custom_id=button)

    assert_refused(late, en("core.error.stale"))


async def test_a_started_basket_takes_no_form(world):
    alice, _, table_id = await alices_basket(world, coins=9)
    opened, shown = await open_form(world, alice, table_id)
    picked = await world.press(alice, opened, PickType(merc=MercType.SPY))  # one sub-step, the old way
    assert picked.response is not None
    assert form_button(world.components(picked.response)) is None  # the basket goes on step by step
    before = await world.db_snapshot(table_id)

    late = await alice.submit_modal(shown, {})

    assert_refused(late, en("core.error.stale"))
    assert await world.db_snapshot(table_id) == before


async def test_another_members_form_is_refused(world):
    alice, bob, table_id = await alices_basket(world, coins=9)
    carol = world.member("carol")
    opened = await panel(world, alice, table_id)
    copy = await world.forge(world.thread(table_id), world.components(opened))  # alice's button, where all see it
    button = form_button(world.components(copy))
    assert button is not None
    before = await world.db_snapshot(table_id)

    by_bob = await bob.click(copy, custom_id=button)
    by_carol = await carol.click(copy, custom_id=button)

    assert_refused(by_bob, world.not_yours(table_id))
    assert_refused(by_carol, en("table.not_seated"))
    assert await world.db_snapshot(table_id) == before


async def test_a_form_survives_a_restart_and_an_unknown_form_has_expired(world):
    alice, _, table_id = await alices_basket(world, coins=9)
    _, shown = await open_form(world, alice, table_id)
    _, legacy = await open_form(world, alice, table_id)
    await world.restart()
    hire = encode_action(PickType(merc=MercType.SPY))
    assert legacy._interaction.modal is not None
    legacy._interaction.modal["custom_id"] = f"oldform:{table_id}"  # a modal id of an older bot
    before = await world.db_snapshot(table_id)

    expired = await alice.submit_modal(legacy, {"f0": [hire]})

    assert_refused(expired, en("form.expired"))
    assert await world.db_snapshot(table_id) == before
    done = await alice.submit_modal(shown, {"f0": [hire]})  # the form's id carries all it needs
    assert not done.followups, private_text(done)
    assert [c.merc for c in state_of(world, table_id).hands[0]] == [MercType.SPY]


async def test_a_panel_offers_the_form_beside_its_step_by_step_picks(world):
    alice, bob, table_id = await alices_basket(world, coins=9)

    opened = await panel(world, alice, table_id)
    waiting = await panel(world, bob, table_id)

    rows = world.components(opened)
    assert len(rows) <= 5
    assert form_button(rows) is not None
    assert any(c.get("custom_id", "").startswith("acts:") for c in walk(rows))  # the picks stay
    assert form_button(world.components(waiting)) is None  # only the deciding seat gets a form
    label = next(c for c in walk(rows) if c.get("custom_id", "").startswith("form:"))["label"]
    assert label == en("form.intrigue.basket_button")
    assert en("intrigue.todo.D9_basket") in embed_text(opened.embeds)


# ---------------------------------------------------------------------- the service's act_many
async def test_act_many_refuses_a_sequence_that_outlives_its_decision_and_commits_once(world, monkeypatch):
    alice, _, table_id = await alices_basket(world, coins=9)
    table = world.table(table_id)
    before = await world.db_snapshot(table_id)
    spy = PickType(merc=MercType.SPY)

    with pytest.raises(TableError) as refused:
        await world.service.act_many(table_id, alice.id, table.prompt_version, [spy, Done(), spy])

    assert refused.value.code == "form.unfinished" and en("form.unfinished")
    assert await world.db_snapshot(table_id) == before
    with pytest.raises(StaleActionError):
        await world.service.act_many(table_id, alice.id, table.prompt_version - 1, [spy, Done()])
    assert await world.db_snapshot(table_id) == before
    storage = world.service.storage
    writes: list[str] = []
    for name in ("commit_action", "commit_actions"):
        original = getattr(storage, name)

        async def spy_on(*args: Any, _name: str = name, _original: Any = original, **kwargs: Any) -> Any:
            writes.append(_name)
            return await _original(*args, **kwargs)

        monkeypatch.setattr(storage, name, spy_on)
    await world.service.act_many(table_id, alice.id, table.prompt_version, [spy, Done()])
    assert [c.merc for c in state_of(world, table_id).hands[0]] == [MercType.SPY]
    assert writes[:1] == ["commit_actions"] and writes.count("commit_actions") == 1  # one transaction


# ---------------------------------------------------------------------- a sealed ballot
async def a_fresh_ballot(world: World) -> tuple[list[MemberActor], int, int]:
    """Seat three members and play until one of them faces a sealed ballot not yet begun."""
    people = world.members("alice", "bob", "carol")
    table_id = await intrigue_table(world, *people)
    fresh: list[int] = []

    def ballot_to_fill(state: IntrigueState) -> bool:
        table = world.table(table_id)
        for seat in sorted(table.engine.active_seats(state)):
            view = table.engine.view(state, seat)
            assert isinstance(view, IntrigueView)
            pending = view.pending
            if pending is not None and pending.decision is Decision.BALLOT and view.draft is not None:
                if view.draft.items or table.seats[seat].ai_controlled:
                    continue
                fresh.append(seat)
                return True
        return False

    await play_until(world, table_id, ballot_to_fill, steps=3000)
    return list(people), table_id, fresh[-1]


async def open_ballot(world: World, member: MemberActor, table_id: int) -> tuple[ResponseMessage, InteractionResult]:
    opened = await panel(world, member, table_id)
    button = form_button(world.components(opened), "ballot")
    assert button is not None, component_ids(world.components(opened))
    shown = await member.click(opened, custom_id=button)
    assert shown.modal is not None, private_text(shown)
    return opened, shown


async def test_the_ballot_form_sends_the_whole_ballot(world):
    people, table_id, seat = await a_fresh_ballot(world)
    member = world.seat_member(table_id, seat, people)
    _, shown = await open_ballot(world, member, table_id)
    fields = [c["component"] for c in (shown.modal or {})["components"]]
    assert {f["type"] for f in fields} == {RADIO_GROUP}  # a few answers each: one tap per entry
    answers = {f["custom_id"]: answer(f, f["options"][-1]["value"]) for f in fields}  # abstain / no preference
    logged = len(await world.service.storage.action_log(table_id))

    done = await member.submit_modal(shown, answers)

    assert not done.followups, private_text(done)
    log = await world.service.storage.action_log(table_id)
    mine = log[logged : logged + len(fields)]
    assert [entry.seat for entry in mine] == [seat] * len(fields)
    assert [entry.action for entry in mine] == [
        f'{{"kind":"pick_side","side":"{str(v).split(".")[1]}"}}' for v in answers.values()
    ]
    # Every entry answered, in the form's order; the last one sent the ballot (no Done, no default).
    assert len(mine) == len(fields) <= 5


# ---------------------------------------------------------------------- a Cadwallon card with two targets
async def test_a_two_target_card_is_played_with_both_targets_in_one_form(world):
    alice, bob = world.members("alice", "bob")
    world.rig(
        seed="cadwallon",
        game_options={**CADWALLON_DEAL, "reserve": ["A04", "A06"], "starting_hands": [["A05"], ["A13"]]},
    )
    table_id = await world.seat(alice, bob, game="cadwallon", grid=3)
    await world.act(alice, table_id, PlaceAgent(boulevard="A1E"))
    mine = await panel(world, alice, table_id)
    button = form_button(world.components(mine), "play_a05")
    assert button is not None, component_ids(world.components(mine))
    shown = await alice.click(mine, custom_id=button)
    assert shown.modal is not None, private_text(shown)
    card, first, second = (c["component"] for c in shown.modal["components"])
    assert [(o["value"], o.get("default")) for o in card["options"]] == [("play.A05", True)]  # shown chosen
    agent = next(a.id for a in cadwallon_state(world, table_id).agents if a.owner == 0)
    assert encode_action(ChooseAgent(agent=agent)) in [o["value"] for o in first["options"]]
    move = encode_action(ChooseBoulevard(boulevard="B3S"))
    assert move in [o["value"] for o in second["options"]]
    logged = len(await world.service.storage.action_log(table_id))

    answers = {card["custom_id"]: ["play.A05"], first["custom_id"]: [f"agent.{agent}"], second["custom_id"]: [move]}
    done = await alice.submit_modal(shown, answers)

    assert not done.followups, private_text(done)
    state = cadwallon_state(world, table_id)
    assert state.played[0] == ("A05",) and state.pending is None
    assert [a.boulevard for a in state.agents if a.owner == 0] == [11]  # B3S, the barricade example's index
    assert len(await world.service.storage.action_log(table_id)) == logged + 3  # play, agent, boulevard


async def test_a_ballot_form_is_refused_once_the_ballot_was_sent_or_by_another_member(world):
    people, table_id, seat = await a_fresh_ballot(world)
    member = world.seat_member(table_id, seat, people)
    opened, shown = await open_ballot(world, member, table_id)
    copy = await world.forge(world.thread(table_id), world.components(opened))
    button = form_button(world.components(copy), "ballot")
    assert button is not None
    fields = [c["component"] for c in (shown.modal or {})["components"]]
    answers = {f["custom_id"]: answer(f, f["options"][0]["value"]) for f in fields}
    stranger = world.member("dave")
    by_stranger = await stranger.click(copy, custom_id=button)
    assert_refused(by_stranger, en("table.not_seated"))
    table = world.table(table_id)
    await world.service.act(table_id, member.id, table.prompt_version, Done())  # sent the other way meanwhile
    await world.env.settle()
    before = await world.db_snapshot(table_id)

    late = await member.submit_modal(shown, answers)
    again = await member.click(copy, custom_id=button)

    assert late.ephemeral and private_text(late) in {en("core.error.stale"), world.not_yours(table_id)}
    assert again.ephemeral and again.modal is None
    assert await world.db_snapshot(table_id) == before


async def test_a_two_target_form_is_refused_when_stale_forged_or_not_yours(world):
    alice, bob = world.members("alice", "bob")
    deal = {**CADWALLON_DEAL, "reserve": ["A04", "A06"], "starting_hands": [["A05"], ["A13"]]}
    world.rig(seed="cadwallon", game_options=deal)
    table_id = await world.seat(alice, bob, game="cadwallon", grid=3)
    await world.act(alice, table_id, PlaceAgent(boulevard="A1E"))
    mine = await panel(world, alice, table_id)
    copy = await world.forge(world.thread(table_id), world.components(mine))
    button = form_button(world.components(copy), "play_a05")
    assert button is not None
    shown = await alice.click(mine, custom_id=button)
    assert shown.modal is not None
    card, first, second = (c["component"] for c in shown.modal["components"])
    agent = first["options"][0]["value"]
    before = await world.db_snapshot(table_id)

    by_bob = await bob.click(copy, custom_id=button)
    spec = shown._interaction.modal  # a client that sends a value the form never offered
    assert spec is not None
    spec["components"][2]["component"]["options"].append({"label": "A1E", "value": "boulevard.A1E"})
    forged = await alice.submit_modal(
        shown, {card["custom_id"]: ["play.A05"], first["custom_id"]: [agent], second["custom_id"]: ["boulevard.A1E"]}
    )  # A1E holds her own agent: no option of the form (damaged or forged)

    assert_refused(by_bob, world.not_yours(table_id))
    assert_refused(forged, en("ui.error.bad_component"))
    assert await world.db_snapshot(table_id) == before
    shown = await alice.click(mine, custom_id=button)
    table = world.table(table_id)
    await world.service.act(table_id, alice.id, table.prompt_version, EndTurn())  # her turn ends meanwhile
    await world.env.settle()
    before = await world.db_snapshot(table_id)
    late = await alice.submit_modal(
        shown, {card["custom_id"]: ["play.A05"], first["custom_id"]: [agent], second["custom_id"]: ["boulevard.B3S"]}
    )
    assert_refused(late, en("core.error.stale"))
    assert await world.db_snapshot(table_id) == before
