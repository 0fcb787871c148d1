"""«Гильдии Кадвалона» through Discord: lobby to result, placement on the board, the private panel, bad input.

Placing an agent is a public decision (which boulevards are free is public), so the board offers it
in two selects, *Between columns │* and *Between rows ─*; action cards and their targets live in the
seat's private "My cards" panel. A stacked 3×3 deal (``CadwallonOptions.deck`` / ``starting_hands``
/ ``first_seat``) makes the opening exact:

* A1 Usurers 1 (3 GP, S 1), A2 Blades 3 (1, S 3), A3 Jewelers 1, B1 Aldebert (S 0), B2 Zodiac 1,
  B3 Night Watchman, C1 Usurers 2, C2 Jewelers 4, C3 Zodiac 2;
* alice (seat 0, First Player) holds Arrest (A06), bob holds Barricade (A13).

Whole games are dealt from the table's seed and played by the bot's AI (AI seats, and the World
driver for the humans, answering through the board and their panels). :class:`LeakCheck` checks
that every board is drawn from the public view and that boards and panels do not change when the
cards hidden from their audience are redrawn.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence
from typing import Any

import pytest
from simcord.actors import MemberActor
from simcord.results import InteractionResult, ResponseMessage

from bot.codec import encode_action
from bot.i18n import translate
from bot.presenters.cadwallon import CadwallonPresenter, boulevard_text
from bot.tables import Table
from bot.ui import panels
from bot.ui.panels import Payload
from games.cadwallon.engine import CadwallonEngine
from games.cadwallon.models import (
    CadwallonView,
    ChooseAgent,
    ChooseBoulevard,
    EndTurn,
    Phase,
    PlaceAgent,
    PlayAction,
    TurnStep,
)
from games.cadwallon.state import CadwallonState
from games.core import GameRng
from tests.support import World, button_rows, component_ids, embed_text, private_text, select_rows, walk

pytestmark = pytest.mark.asyncio

ENGINE = CadwallonEngine()
PRESENTER = CadwallonPresenter()
GAME = "Guilds of Cadwallon"
DECK = [
    "USU-1",
    "BLA-3",
    "JEW-1",
    "P1",
    "ZOD-1",
    "M01",
    "USU-2",
    "JEW-4",
    "ZOD-2",
    "BLA-1",
    "BLA-2",
    "ZOD-3",
    "JEW-2",
    "USU-3",
    "M02",
    "P2",
    "A02",
    "JEW-3",
]
DEAL: dict[str, Any] = {
    "deck": DECK,
    "reserve": ["A04", "A05"],
    "starting_action": True,
    "starting_hands": [["A06"], ["A13"]],
    "contract_cards": ["K05", "K06"],
    "first_seat": 0,
}


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


def state_of(world: World, table_id: int) -> CadwallonState:
    state = world.state(table_id)
    assert isinstance(state, CadwallonState)
    return state


def offered(rows: Sequence[dict[str, Any]]) -> dict[str, list[str]]:
    """Return the game actions of a message: ``{group: [encoded action, …]}`` (``"button"`` for buttons)."""
    out: dict[str, list[str]] = {}
    for component in walk(rows):
        custom_id = component.get("custom_id") or ""
        if custom_id.startswith("acts:"):
            out[custom_id.split(":")[4]] = [o["value"] for o in component["options"]]
        elif custom_id.startswith("act:"):
            out.setdefault("button", []).append(custom_id.split(":", 4)[4])
    return out


def select_labels(rows: Sequence[dict[str, Any]], group: str) -> list[str]:
    for component in walk(rows):
        if (component.get("custom_id") or "").endswith(f":{group}"):
            return [o["label"] for o in component["options"]]
    return []


def assert_refused(world: World, result: InteractionResult, expected: str) -> None:
    text = private_text(result)
    assert result.ephemeral and text == expected, text
    assert "Traceback" not in text
    assert not world.env.errors  # answered as a rule error, nothing swallowed


async def stacked(world: World) -> tuple[MemberActor, MemberActor, int]:
    alice, bob = world.members("alice", "bob")
    world.rig(seed="cadwallon", game_options=DEAL)
    table_id = await world.seat(alice, bob, game="cadwallon", grid=3)
    return alice, bob, table_id


async def panel(world: World, member: MemberActor, table_id: int) -> ResponseMessage:
    result = await world.open_panel(member, table_id)
    assert result.ephemeral and result.response is not None, private_text(result)
    return result.response


async def choose(world: World, member: MemberActor, table_id: int, group: str, value: str) -> InteractionResult:
    """Choose ``value`` in a forged copy of the current prompt's select ``group`` (a stale or crafted message)."""
    custom_id = f"acts:{table_id}:{world.table(table_id).prompt_version}:0:{group}"
    message = await world.forge(world.thread(table_id), select_rows(custom_id, value))
    return await member.select(message, [value], custom_id=custom_id)


async def press(world: World, member: MemberActor, table_id: int, action: Any) -> InteractionResult:
    """Click a forged private button taking ``action`` at the current prompt."""
    custom_id = f"act:{table_id}:{world.table(table_id).prompt_version}:1:{encode_action(action)}"
    message = await world.forge(world.thread(table_id), button_rows(custom_id))
    return await member.click(message, custom_id=custom_id)


# ---------------------------------------------------------------------- placement on the board
async def test_the_board_offers_every_free_boulevard_in_two_selects_with_its_support(world):
    _alice, _bob, table_id = await stacked(world)

    rows = world.components(world.board(table_id))

    choices = offered(rows)
    prompt = world.table(table_id).prompt_version
    east = [f"place.{r}{c}E" for r in "ABC" for c in (1, 2)]
    south = [f"place.{r}{c}S" for r in "AB" for c in (1, 2, 3)]
    assert choices["place_e"] == east and choices["place_s"] == south
    assert "button" not in choices  # the action step is private; the board offers placements only
    labels = select_labels(rows, "place_e")
    assert labels[0] == "A1│A2 · +3 / +1"  # Usurers 1 (S 1) beside Blades 3 (S 3)
    assert select_labels(rows, "place_s")[0] == "A1─B1 · +0 / +1"  # Aldebert (S 0) below Usurers 1
    placeholders = [c.get("placeholder") for c in walk(rows) if (c.get("custom_id") or "").startswith("acts:")]
    assert placeholders == [en("cadwallon.select.place_e"), en("cadwallon.select.place_s")]
    assert all(f"acts:{table_id}:{prompt}:0:" in cid for cid in component_ids(rows) if cid.startswith("acts:"))
    (embed,) = world.board(table_id).embeds
    assert PRESENTER.status(ENGINE.view(state_of(world, table_id), None), ["alice", "bob"], "en") in (
        embed.description or ""
    )


async def test_a_whole_opening_placements_an_action_card_and_its_target(world):
    alice, bob, table_id = await stacked(world)

    # alice places on the board; her Arrest has no target yet (no rival agent), so her turn ends.
    placed = await world.act(alice, table_id, PlaceAgent(boulevard="A1E"))
    assert not placed.ephemeral and not placed.followups
    state = state_of(world, table_id)
    assert (state.turn, state.step, state.supply) == (1, TurnStep.PLACE, (5, 6))
    assert "alice places an agent on A1│A2 (5 left)." in embed_text(world.board(table_id).embeds)

    # bob types the code with /cadwallon place in the thread and gets his panel back.
    typed = await bob.slash(world.thread(table_id), "cadwallon place", code="b2s")
    assert typed.ephemeral and typed.response is not None, private_text(typed)
    state = state_of(world, table_id)
    assert (state.turn, state.step) == (1, TurnStep.ACT)
    assert offered(typed.response.components) == {"button": ["pass", "play.A13"]}
    text = embed_text(typed.response.embeds)
    assert en("cadwallon.panel.todo.act") in text
    assert "**Barricade** — " + en("cadwallon.action_text.A13") in text
    assert en("cadwallon.panel.contract", name="Friends at Court", text=en("cadwallon.contract_text.K06")) in text
    assert "Arrest" not in text and "Clean Hands" not in text  # alice's hand and contract

    # bob plays Barricade from that panel: it asks for a free boulevard (nothing is committed yet).
    asked = await world.press(bob, typed.response, PlayAction(card="A13"))
    assert asked.response is not None and not asked.followups, private_text(asked)
    choices = offered(asked.response.components)
    assert choices["button"] == ["cancel", "pass"]
    assert "boulevard.A1E" not in choices["target_e"] and "boulevard.B2S" not in choices["target_s"]
    assert en("cadwallon.panel.target.A13", card="Barricade") in embed_text(asked.response.embeds)
    assert state_of(world, table_id).hands[1] == ("A13",)
    done = await world.press(bob, asked.response, ChooseBoulevard(boulevard="B3S"))
    assert done.response is not None and not done.followups
    state = state_of(world, table_id)
    assert (state.turn, state.barricade, state.played[1]) == (0, 11, ("A13",))
    assert "bob barricades B3─C3." in embed_text(world.board(table_id).embeds)
    assert "place.B3S" not in offered(world.components(world.board(table_id)))["place_s"]

    # alice places again; now Arrest has a target, so she is offered it in her panel.
    await world.act(alice, table_id, PlaceAgent(boulevard="A2S"))
    mine = await panel(world, alice, table_id)
    assert offered(mine.components) == {"button": ["pass", "play.A06"]}
    assert not offered(world.components(world.board(table_id)))  # the board waits for the panel
    target = await world.press(alice, mine, PlayAction(card="A06"))
    assert target.response is not None
    bob_agent = next(a.id for a in state_of(world, table_id).agents if a.owner == 1)
    assert offered(target.response.components) == {"button": ["cancel", "pass", f"agent.{bob_agent}"]}
    await world.press(alice, target.response, ChooseAgent(agent=bob_agent))
    state = state_of(world, table_id)
    assert state.supply == (4, 6) and all(a.owner == 0 for a in state.agents) and state.turn == 1
    log = embed_text(world.board(table_id).embeds)
    assert "alice plays Arrest." in log
    assert "alice arrests bob's agent on B2─C2: it goes back to bob's supply." in log


async def test_ending_the_turn_keeps_the_card(world):
    alice, bob, table_id = await stacked(world)
    await world.act(alice, table_id, PlaceAgent(boulevard="A1E"))
    await world.act(bob, table_id, PlaceAgent(boulevard="C1E"))
    opened = await panel(world, bob, table_id)

    ended = await world.press(bob, opened, EndTurn())

    assert ended.response is not None and not ended.followups
    state = state_of(world, table_id)
    assert state.hands[1] == ("A13",) and state.turn == 0 and state.step is TurnStep.PLACE
    assert en("cadwallon.panel.todo.wait", name="alice") in embed_text(ended.response.embeds)


# ---------------------------------------------------------------------- bad input
async def test_acting_out_of_turn_is_refused_privately(world):
    _alice, bob, table_id = await stacked(world)
    before = await world.db_snapshot(table_id)

    result = await world.act(bob, table_id, PlaceAgent(boulevard="B1E"))

    assert_refused(world, result, en("call.not_your_turn", names="alice"))
    assert await world.db_snapshot(table_id) == before


async def test_an_occupied_boulevard_is_refused_privately(world):
    alice, bob, table_id = await stacked(world)
    await world.act(alice, table_id, PlaceAgent(boulevard="A1E"))
    before = await world.db_snapshot(table_id)

    result = await choose(world, bob, table_id, "place_e", "place.A1E")

    assert_refused(world, result, en("cadwallon.error.boulevard_taken"))
    assert await world.db_snapshot(table_id) == before


async def test_an_action_card_not_held_is_refused_privately(world):
    alice, bob, table_id = await stacked(world)
    await world.act(alice, table_id, PlaceAgent(boulevard="A1E"))
    await world.act(bob, table_id, PlaceAgent(boulevard="C1E"))
    before = await world.db_snapshot(table_id)

    not_held = await press(world, bob, table_id, PlayAction(card="A06"))  # alice's Arrest
    assert_refused(world, not_held, en("cadwallon.error.card_not_in_hand"))
    in_russian = await press(world, world.member("ivan", locale="ru"), table_id, PlayAction(card="A13"))
    assert_refused(world, in_russian, translate("ru", "table.not_seated"))
    assert await world.db_snapshot(table_id) == before


async def test_a_second_action_card_and_an_old_panel_are_refused(world):
    alice, bob, table_id = await stacked(world)
    await world.act(alice, table_id, PlaceAgent(boulevard="A1E"))
    await world.act(bob, table_id, PlaceAgent(boulevard="C1E"))
    opened = await panel(world, bob, table_id)
    old_rows = world.components(opened)  # a panel Discord still shows somewhere, as it was then
    await world.press(bob, opened, PlayAction(card="A13"))
    await world.press(bob, (await panel(world, bob, table_id)), ChooseBoulevard(boulevard="C2E"))
    before = await world.db_snapshot(table_id)

    # The old panel still shows Barricade; its prompt is gone and the turn with it: it is out of date.
    again = await world.press(bob, await world.forge(world.thread(table_id), old_rows), PlayAction(card="A13"))
    assert_refused(world, again, en("core.error.stale"))
    # A second card in the same turn is impossible: the turn passed to alice with the first one.
    second = await press(world, bob, table_id, PlayAction(card="A13"))
    assert_refused(world, second, en("call.not_your_turn", names="alice"))
    assert await world.db_snapshot(table_id) == before


async def test_typed_codes_that_name_no_free_boulevard_are_refused(world):
    alice, bob, table_id = await stacked(world)
    thread = world.thread(table_id)
    await world.act(alice, table_id, PlaceAgent(boulevard="A1E"))
    before = await world.db_snapshot(table_id)

    nowhere = await bob.slash(thread, "cadwallon place", code="C3E")
    taken = await bob.slash(thread, "cadwallon place", code="A1│A2")
    early = await alice.slash(thread, "cadwallon place", code="B1E")
    stranger = await world.member("carol").slash(thread, "cadwallon place", code="B1E")

    assert private_text(nowhere) == en("cadwallon.place.bad_code", text="C3E", grid=3)
    assert private_text(taken) == en("cadwallon.error.boulevard_taken")
    assert private_text(early) == en("table.not_your_turn")
    assert private_text(stranger) == en("cadwallon.place.no_table")
    assert [e.code for e in world.rejections()] == [
        "cadwallon.place.bad_code",
        "cadwallon.boulevard_taken",
        "table.not_your_turn",
        "cadwallon.place.no_table",
    ]
    assert await world.db_snapshot(table_id) == before


# ---------------------------------------------------------------------- whole games
class LeakCheck:
    """Boards are drawn from the public view; boards and panels do not change when hidden cards are redrawn."""

    def __init__(self, *, real_images: bool) -> None:
        self.real_images = real_images
        self.problems: list[str] = []
        self.boards = 0
        self.panels = 0
        # Per thread: boards are built off the event loop, and two builds may overlap.
        self._shadow = threading.local()

    def install(self, monkeypatch, world: World) -> None:
        real_render = CadwallonPresenter.render_board
        real_board = panels.board_payload
        real_panel = panels.panel_payload
        check = self

        def render_board(self, view, names, locale):
            if not isinstance(view, CadwallonView) or view.viewer is not None or view.pending or view.peek:
                check.problems.append(f"a board was drawn from a private view: {view!r}")
            if getattr(check._shadow, "on", False) or not check.real_images:
                return b"\x89PNG\r\n\x1a\n" + view.model_dump_json().encode()
            return real_render(self, view, names, locale)

        def checked_board(table: Table, log_lines, *, awaited_legal):
            payload = real_board(table, log_lines, awaited_legal=awaited_legal)
            check.board_is_public(table, list(log_lines), real_board)
            return payload

        def checked_panel(table: Table, user_id: int, locale: str) -> Payload:
            payload = real_panel(table, user_id, locale)
            check.panel_is_private(table, user_id, locale, real_panel, payload)
            return payload

        monkeypatch.setattr(CadwallonPresenter, "render_board", render_board)
        monkeypatch.setattr("bot.ui.publisher.board_payload", checked_board)
        monkeypatch.setattr("bot.ui.interactions.panel_payload", checked_panel)
        monkeypatch.setattr("bot.ui.publisher.panel_payload", checked_panel)

    def board_is_public(self, table: Table, lines: list[str], build: Any) -> None:
        state = table.state
        if not isinstance(state, CadwallonState):
            return
        snapshot = dataclasses.replace(table)
        other = dataclasses.replace(table, state=ENGINE.resample_hidden(state, None, GameRng(f"leak{state.version}")))
        self._shadow.on = True
        try:
            mine = build(snapshot, lines, awaited_legal=_awaited(snapshot))
            theirs = build(other, lines, awaited_legal=_awaited(other))
        finally:
            self._shadow.on = False
        self.boards += 1
        if (mine.embed.to_dict(), mine.view.to_components(), mine.png) != (
            theirs.embed.to_dict(),
            theirs.view.to_components(),
            theirs.png,
        ):
            self.problems.append(f"the board depends on hidden cards at v{state.version}")

    def panel_is_private(self, table: Table, user_id: int, locale: str, build: Any, payload: Payload) -> None:
        state = table.state
        seat = table.seat_of(user_id)
        if not isinstance(state, CadwallonState) or seat is None:
            return
        redrawn = ENGINE.resample_hidden(state, seat.seat, GameRng(f"panel{state.version}"))
        theirs = build(dataclasses.replace(table, state=redrawn), user_id, locale)
        self.panels += 1
        if (payload.embed.to_dict(), payload.view.to_components()) != (
            theirs.embed.to_dict(),
            theirs.view.to_components(),
        ):
            self.problems.append(f"seat {seat.seat}'s panel depends on cards it cannot see at v{state.version}")


def _awaited(table: Table) -> list[Any]:
    state = table.state
    assert state is not None
    out: list[Any] = []
    for seat in sorted(table.engine.active_seats(state)):
        out.extend(a for a in table.engine.legal_actions(state, seat) if a not in out)
    return out


def assert_itemised(text: str, public: CadwallonView, names: list[str]) -> None:
    """Each player best first: place, name and total, the guilds with personalities, actions, militia, contract."""
    assert public.result is not None
    heads = [line for line in text.splitlines() if line.startswith("**")]
    ordered = sorted(public.result, key=lambda b: (b.rank, b.seat))
    assert len(heads) == len(ordered)
    for head, b in zip(heads, ordered, strict=True):
        assert head.startswith(f"**{b.rank + 1}. {names[b.seat]} — {b.total} ")
        fixed = b.action_points - b.militia_penalty - b.informer_penalty + b.contract_points + b.seat_points
        assert b.total == b.guild_points - b.austerity_loss + b.free_spirit_points + fixed
        if b.seat_points:  # revision 2's allowance for the place in round 1's turn order
            assert f"Seat allowance +{b.seat_points}" in text
    for b in ordered:
        if b.contract is not None:
            assert en(f"cadwallon.contract.{b.contract}") in text  # contracts are revealed at the end
        for g in b.guilds:
            if g.members and not g.loner:
                assert f"{en(f'cadwallon.guild.{g.guild.value}')} {g.gp} × {g.cards}" in text


GAMES = [
    pytest.param(3, 1, 1, "full-3x3", True, {}, id="3x3-2p"),
    pytest.param(3, 2, 1, "full-3x3-3p", False, {"conditions": True, "starting_action": True}, id="3x3-3p-options"),
    pytest.param(5, 1, 7, "full-5x5", False, {"starting_action": True}, id="5x5-8p"),
]


@pytest.mark.parametrize(("grid", "humans", "ais", "seed", "real_images", "options"), GAMES)
async def test_a_whole_game_through_discord(world, monkeypatch, grid, humans, ais, seed, real_images, options):
    check = LeakCheck(real_images=real_images)
    check.install(monkeypatch, world)
    people = world.members(*["ann", "ben", "cat"][:humans])
    host, *guests = people
    world.rig(seed=seed)

    table_id = await world.seat(host, *guests, ais=ais, game="cadwallon", grid=grid, **options)
    await world.play_out(table_id, people, max_steps=600)

    table = world.table(table_id)
    names = table.names()
    state = state_of(world, table_id)
    assert state.phase is Phase.FINISHED and state.grid == grid
    public = ENGINE.view(state, None)
    assert public.result is not None
    # The result: itemised per guild, contracts revealed, the stored ranks.
    message = world.thread_messages(table_id)[-1]
    (embed,) = message.embeds
    assert embed.title == en("ui.result.title", game=GAME, id=table_id)
    assert embed.description == "\n".join(PRESENTER.result_lines(public, names, "en"))
    assert_itemised(embed.description or "", public, names)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    results = sorted(await world.bot.storage.results(table_id), key=lambda r: r.seat)
    assert [(r.seat, r.rank) for r in results] == list(enumerate(outcome.ranks))
    changes = await world.bot.storage.rating_changes(table_id)
    assert {c.user_id for c in changes} == ({p.id for p in people} if humans > 1 else set())
    assert component_ids(world.components(message)) == [f"tbl:{table_id}:rematch"]
    board = world.board(table_id)
    assert PRESENTER.status(public, names, "en") in embed_text(board.embeds)
    # Hidden information never reached a board or another seat's panel.
    assert not check.problems, "\n".join(check.problems[:10])
    assert check.boards >= 5 and check.panels >= 1

    # Rematch keeps the grid and the options.
    rematch = await people[0].click(message, custom_id=f"tbl:{table_id}:rematch")
    assert private_text(rematch).startswith(en("ui.lobby.created"))
    new = await world.bot.storage.get_table(table_id + 1)
    assert new is not None and new.game == "cadwallon" and new.options["game"]["grid"] == grid
    assert en("cadwallon.option.grid", value=grid) in embed_text(world.lobby(table_id + 1).embeds)


async def test_the_placement_selects_of_a_5x5_grid_list_only_free_boulevards(world, monkeypatch):
    monkeypatch.setattr(CadwallonPresenter, "render_board", lambda *_args: b"\x89PNG\r\n\x1a\n")
    alice = world.member("alice")
    world.rig(seed="five", game_options={"first_seat": 0})
    table_id = await world.seat(alice, ais=7, game="cadwallon", grid=5)

    rows = world.components(world.board(table_id))

    choices = offered(rows)
    assert len(choices["place_e"]) == len(choices["place_s"]) == 20  # 40 boulevards, two selects
    state = state_of(world, table_id)
    free = list(ENGINE.view(state, None).free_boulevards)
    assert choices["place_e"] + choices["place_s"] == [f"place.{b}" for b in free]
    assert all(" · +" in label for label in select_labels(rows, "place_e"))
    assert boulevard_text("E4E") in " ".join(select_labels(rows, "place_e"))
