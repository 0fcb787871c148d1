"""Playing through Discord: the private "My cards" panel, board buttons and selects, response windows."""

from __future__ import annotations

import pytest
from simcord.actors import MemberActor

from bot.i18n import translate
from games.coup.engine import stacked_deck
from games.coup.models import (
    Allow,
    Card,
    Challenge,
    CollectTax,
    DraftCard,
    ExchangeCards,
    KeepCards,
    Phase,
    ProveClaim,
    RevealCard,
    Steal,
    TakeIncome,
)
from tests.support import World, component_ids, embed_text, find_action, private_text

pytestmark = pytest.mark.asyncio

D = Card
#: alice (seat 0, moves first): Duke + Assassin; bob: Captain + Contessa; the court deck starts Ambassador, Duke.
DUEL_DECK = stacked_deck([[D.DUKE, D.ASSASSIN], [D.CAPTAIN, D.CONTESSA]], [D.AMBASSADOR, D.DUKE])
#: alice: Duke + Captain; bob: Contessa + Ambassador; carol: Assassin + Contessa.
TRIO_DECK = stacked_deck([[D.DUKE, D.CAPTAIN], [D.CONTESSA, D.AMBASSADOR], [D.ASSASSIN, D.CONTESSA]])


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


async def duel(world: World) -> tuple[MemberActor, MemberActor, int]:
    alice, bob = world.members("alice", "bob")
    world.rig(deck=DUEL_DECK, first_seat=0)
    table_id = await world.seat(alice, bob)
    return alice, bob, table_id


async def test_my_cards_opens_a_private_panel_with_the_seats_own_cards(world):
    alice, bob, table_id = await duel(world)

    result = await world.open_panel(alice, table_id)

    assert result.ephemeral and result.response is not None
    text = embed_text(result.response.embeds)
    assert en("coup.panel.hand", cards="\N{CROWN} Duke, \N{DAGGER KNIFE} Assassin") in text
    assert en("coup.panel.coins", n=1) in text
    assert en("coup.panel.todo.declare") in text
    assert "Captain" not in text and "Contessa" not in text  # bob's cards
    ids = component_ids(result.response.components)
    assert {f"act:{table_id}:0:1:income", f"act:{table_id}:0:1:tax", f"tbl:{table_id}:hand"} <= set(ids)
    assert f"act:{table_id}:0:1:assassinate.1" not in ids  # 1 coin: not legal

    bobs = await world.open_panel(bob, table_id)
    assert bobs.ephemeral and bobs.response is not None
    bob_text = embed_text(bobs.response.embeds)
    assert en("coup.panel.hand", cards="\N{ANCHOR} Captain, \N{ROSE} Contessa") in bob_text
    assert "Duke" not in bob_text and "Assassin" not in bob_text
    assert component_ids(bobs.response.components) == [f"tbl:{table_id}:hand"]  # nothing to decide now


async def test_the_panel_can_be_refreshed_and_reopened(world):
    alice, _bob, table_id = await duel(world)
    first = await world.open_panel(alice, table_id)
    assert first.response is not None
    first_text = embed_text(first.response.embeds)

    refreshed = await alice.click(first.response, custom_id=f"tbl:{table_id}:hand")
    reopened = await world.open_panel(alice, table_id)

    assert refreshed.response is not None and refreshed.response.id == first.response.id  # edited in place
    assert refreshed.response.ephemeral and not refreshed.followups
    assert reopened.ephemeral and reopened.response is not None and reopened.response.id != first.response.id
    assert embed_text(reopened.response.embeds) == first_text
    # Only the newest panel follows the game: the older one now points to it, with no stale buttons.
    assert embed_text(first.response.embeds) == en("panel.moved") and not world.components(first.response)


async def test_a_spectator_sees_the_public_part_only(world):
    _alice, _bob, table_id = await duel(world)
    carol = world.member("carol")

    result = await world.open_panel(carol, table_id)

    assert result.ephemeral and result.response is not None
    text = embed_text(result.response.embeds)
    assert en("ui.panel.spectator") in text
    assert not any(card in text for card in ("Duke", "Assassin", "Captain", "Contessa"))
    assert component_ids(result.response.components) == [f"tbl:{table_id}:hand"]


async def test_private_decisions_are_taken_on_the_panel(world):
    alice, bob, table_id = await duel(world)

    declared = await world.act(alice, table_id, CollectTax())
    challenged = await world.act(bob, table_id, Challenge())

    assert declared.deferred and not declared.followups
    assert challenged.deferred and not challenged.followups
    assert world.state(table_id).phase is Phase.PROVE
    board = world.board(table_id)
    assert not any(i.startswith("act") for i in component_ids(world.components(board)))  # a private decision
    ping = world.thread_messages(table_id)[-1]
    assert ping.content == en("call.panel", mentions=alice.mention)

    panel = await world.open_panel(alice, table_id)
    assert panel.response is not None
    proved = await world.press(alice, panel.response, ProveClaim())
    assert proved.response is not None and proved.response.id == panel.response.id and not proved.followups
    # The Duke went back into the deck and alice drew the Ambassador from its top.
    assert en("coup.panel.hand", cards="\N{DAGGER KNIFE} Assassin, \N{SCROLL} Ambassador") in embed_text(
        proved.response.embeds
    )

    bobs = await world.open_panel(bob, table_id)
    assert bobs.response is not None
    assert {f"act:{table_id}:3:1:reveal.captain", f"act:{table_id}:3:1:reveal.contessa"} <= set(
        component_ids(bobs.response.components)
    )
    await world.press(bob, bobs.response, RevealCard(card=D.CAPTAIN))

    state = world.state(table_id)
    assert state.coins == (4, 2) and state.turn == 1 and state.revealed == ((), (D.CAPTAIN,))
    # The board shows the last three lines; the whole public log is the one the Log button pages.
    text = embed_text(world.board(table_id).embeds) + "\n".join(world.bot.publisher.logs[table_id])
    assert "alice claims Duke and declares Tax." in text
    assert "bob challenges alice's Duke." in text
    assert "bob loses an influence and reveals Captain." in text
    assert "alice takes 3 coins from the treasury (Tax)." in text
    assert "Ambassador" not in text and "Contessa" not in text and "Assassin" not in text  # still face down

    # bob exchanges; alice allows; bob keeps one card of three with a select on his panel.
    await world.act(bob, table_id, ExchangeCards())
    await world.act(alice, table_id, Allow())
    assert world.state(table_id).phase is Phase.EXCHANGE
    bobs = await world.open_panel(bob, table_id)
    assert bobs.response is not None
    (select,) = [c for row in bobs.response.components for c in row["components"] if c["type"] == 3]
    assert select["custom_id"] == f"acts:{table_id}:6:1:keep"
    assert sorted(o["value"] for o in select["options"]) == ["keep.contessa", "keep.duke"]
    kept = await world.press(bob, bobs.response, KeepCards(cards=(D.DUKE,)))
    assert not kept.followups
    state = world.state(table_id)
    assert state.hands[1] == (D.DUKE,) and state.turn == 0 and state.phase is Phase.DECLARE


async def test_targets_are_chosen_with_a_select_and_every_responder_is_accepted(world):
    alice, bob, carol = world.members("alice", "bob", "carol")
    world.rig(deck=TRIO_DECK, first_seat=0)
    table_id = await world.seat(alice, bob, carol)

    steal = await world.act(alice, table_id, Steal(target=2))  # a select: two targets

    assert steal.deferred and not steal.followups
    prompt = world.table(table_id).prompt_version
    assert world.state(table_id).responders == (1, 2)
    ids_before = component_ids(world.components(world.board(table_id)))
    assert f"act:{table_id}:{prompt}:0:allow" in ids_before
    assert f"act:{table_id}:{prompt}:0:block.captain" in ids_before  # carol, the target, may block

    first = await world.act(bob, table_id, Allow())
    assert first.deferred and not first.followups
    assert world.table(table_id).prompt_version == prompt  # the same prompt goes on
    assert set(component_ids(world.components(world.board(table_id)))) == set(ids_before)  # same ids: same prompt
    before = await world.db_snapshot(table_id)
    again = await world.act(bob, table_id, Allow())  # the same button, clicked again
    assert private_text(again) == world.not_yours(table_id) == en("call.not_your_turn", names="carol")
    assert await world.db_snapshot(table_id) == before

    second = await world.act(carol, table_id, Allow())
    assert second.deferred and not second.followups
    state = world.state(table_id)
    assert state.coins == (4, 2, 0) and state.turn == 1
    assert "alice steals 2 coins from carol." in embed_text(world.board(table_id).embeds)
    log = await world.bot.storage.action_log(table_id)
    assert [(row.seat, row.action, row.user_id) for row in log] == [
        (0, '{"kind":"steal","target":2}', alice.id),
        (1, '{"kind":"allow"}', bob.id),
        (2, '{"kind":"allow"}', carol.id),
    ]


async def test_a_double_click_is_applied_once(world):
    alice, _bob, table_id = await duel(world)
    stale = await world.stale_copy(table_id)

    first = await world.act(alice, table_id, TakeIncome())
    second = await world.press(alice, stale, TakeIncome())

    assert first.deferred and not first.followups
    assert private_text(second) == en("core.error.stale")
    assert world.state(table_id).version == 1
    assert len(await world.bot.storage.action_log(table_id)) == 1


async def test_an_old_panel_is_refused_once_the_board_moved_on(world):
    alice, bob, table_id = await duel(world)
    old_panel = await world.open_panel(alice, table_id)
    assert old_panel.response is not None
    # The panel itself follows the game (its stale buttons are replaced); a client may still show
    # the old buttons for a moment, so a copy of them is what gets clicked.
    old_rows = world.components(old_panel.response)
    await world.act(alice, table_id, TakeIncome())
    await world.act(bob, table_id, TakeIncome())
    before = await world.db_snapshot(table_id)
    assert find_action(world.components(old_panel.response), TakeIncome()) is None

    result = await world.press(alice, await world.forge(world.thread(table_id), old_rows), TakeIncome())

    assert private_text(result) == en("core.error.stale")
    assert await world.db_snapshot(table_id) == before


async def test_private_text_follows_the_clicker_and_public_text_the_server(make_world):
    world = make_world("ru")
    alice = world.member("alice", locale="en-US")
    bob = world.member("bob", locale="ru")
    world.rig(deck=DUEL_DECK, first_seat=0)
    table_id = await world.seat(alice, bob)

    board = world.board(table_id)
    assert board.embeds[0].title == translate("ru", "ui.board.title", game="Переворот", id=table_id)
    assert world.thread(table_id).name == f"Переворот №{table_id}"
    alices = await world.open_panel(alice, table_id)
    bobs = await world.open_panel(bob, table_id)
    refused = await world.act(bob, table_id, TakeIncome())  # not bob's turn

    assert alices.response is not None and alices.response.embeds[0].title == "Coup: your cards"
    assert bobs.response is not None and bobs.response.embeds[0].title == "Переворот: ваши карты"
    assert translate("ru", "coup.panel.hand", cards="\N{ANCHOR} Капитан, \N{ROSE} Графиня") in embed_text(
        bobs.response.embeds
    )
    assert private_text(refused) == translate("ru", "call.not_your_turn", names="alice")


async def test_the_draft_is_picked_in_secret_on_the_panels(world):
    alice, bob = world.members("alice", "bob")
    world.rig(first_seat=0)
    table_id = await world.seat(alice, bob, draft=True)

    assert world.state(table_id).phase is Phase.DRAFT
    board = world.board(table_id)
    assert en("coup.status.draft", waiting="alice, bob") in embed_text(board.embeds)
    assert not any(i.startswith("act") for i in component_ids(world.components(board)))
    panels = {}
    for member in (alice, bob):
        panel = await world.open_panel(member, table_id)
        assert panel.ephemeral and panel.response is not None
        picks = [i for i in component_ids(panel.response.components) if i.startswith("act")]
        assert picks == [f"act:{table_id}:0:1:draft.{card.value}" for card in Card]
        panels[member.id] = panel.response

    await world.press(alice, panels[alice.id], DraftCard(card=D.CONTESSA))
    assert "Contessa" not in embed_text(world.board(table_id).embeds)  # a secret pick
    await world.press(bob, panels[bob.id], DraftCard(card=D.DUKE))

    state = world.state(table_id)
    assert state.phase is Phase.DECLARE and state.hands[0][0] is D.CONTESSA and state.hands[1][0] is D.DUKE
    text = embed_text(world.board(table_id).embeds)
    assert "Contessa" not in text and "Duke" not in text
