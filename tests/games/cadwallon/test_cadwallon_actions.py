"""Every action card (digest §2.7, §6; scenarios 27, 29-31 and the card rules)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from games.cadwallon.engine import ERROR_CODES
from games.cadwallon.models import (
    CancelAction,
    ChooseAgent,
    ChooseBoulevard,
    ChooseCard,
    ChooseSeat,
    ChooseSlot,
    DrawSource,
    EndTurn,
    OrderTarot,
    PendingView,
    PlaceAgent,
    PlayAction,
    TargetKind,
    TurnStep,
)
from games.cadwallon.state import CadwallonState
from games.core.errors import GameError
from games.core.models import Event
from tests.games.cadwallon.helpers import ENGINE, act, build, grid_of, of_kind, public, support_of

DECK = ("USU-4", "BLA-4", "M01", "M02", "P1", "P2", "P3", "P4", "A01")


def acting(
    cards: Mapping[str, str] | None = None,
    hand: Sequence[str] = ("A10",),
    *,
    n: int = 2,
    agents: Sequence[tuple[int, str]] = (),
    supply: Sequence[int] | None = None,
    **kwargs: Any,
) -> CadwallonState:
    """Seat 0 in its action step (it has placed) holding ``hand``."""
    hands = {0: tuple(hand), **kwargs.pop("hands", {})}
    return build(grid_of(cards or {}), n=n, hands=hands, agents=agents, supply=supply, step=TurnStep.ACT, **kwargs)


def expect(code: str, state: CadwallonState, *actions: Any) -> None:
    for action in actions[:-1]:
        state, _ = act(state, action)
    assert state.turn is not None
    with pytest.raises(GameError) as error:
        ENGINE.apply(state, state.turn, actions[-1])
    assert error.value.code == code and code in ERROR_CODES


def pending(state: CadwallonState) -> PendingView:
    """Return the half-played action card seat 0 sees (it must be there)."""
    view = ENGINE.view(state, 0).pending
    assert view is not None
    return view


def played(events: Sequence[Event]) -> list[Any]:
    return of_kind(events, "action_played")


# ----------------------------------------------------------------------------- A01 New Markets (scenario 27)
def test_scenario_27_new_markets_swaps_two_cards_of_one_type() -> None:
    cards = {"B1": "M01", "B2": "ZOD-2", "C1": "JEW-1", "A1": "USU-3"}
    state = acting(cards, ("A01",), agents=[(0, "B1E"), (1, "A1S")])
    assert ENGINE.view(state, None).boulevards[2].support == (3, 1)  # B1E: S(ZOD-2) toward B1, S(M01) toward B2
    chosen, _ = act(state, PlayAction(card="A01"), ChooseSlot(slot="B1"))
    assert ChooseSlot(slot="B2") in ENGINE.legal_actions(chosen, 0)
    assert ChooseSlot(slot="C1") not in ENGINE.legal_actions(chosen, 0)
    view = ENGINE.view(chosen, 0)
    assert view.pending is not None and view.pending.choice == 2 and view.pending.slot == "B1"
    after, events = act(chosen, ChooseSlot(slot="B2"))
    assert after.slots[3] == "ZOD-2" and after.slots[4] == "M01"
    assert after.agents == state.agents
    swapped = of_kind(events, "cards_swapped")[0]
    assert (swapped.slots, swapped.cards) == (("B1", "B2"), ("M01", "ZOD-2"))
    assert played(events)[0].slots == ("B1", "B2")
    assert ENGINE.view(after, None).boulevards[2].support == (1, 3)
    assert after.played[0] == ("A01",) and after.hands[0] == () and after.turn == 1
    expect("cadwallon.bad_target", state, PlayAction(card="A01"), ChooseSlot(slot="B1"), ChooseSlot(slot="C1"))


def test_new_markets_offers_only_cards_with_a_partner_of_their_type() -> None:
    # ZOD-4 is the only Old Town card on this grid: it has nobody to swap with.
    slots = ["USU-1", "ZOD-2", "JEW-1", "ZOD-3", "ZOD-1", "JEW-3", "M01", "P2", "ZOD-4"]
    state = build(slots, hands={0: ("A01",)}, step=TurnStep.ACT)
    chosen = ENGINE.apply(state, 0, PlayAction(card="A01")).state
    offered = [a.slot for a in ENGINE.legal_actions(chosen, 0) if isinstance(a, ChooseSlot)]
    assert offered == ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2"]
    expect("cadwallon.bad_target", chosen, ChooseSlot(slot="C3"))


# ----------------------------------------------------------------------------- A02 Tarot Mages
def test_tarot_mages_peeks_privately_and_can_bury_one() -> None:
    state = acting({}, ("A02",), deck=("M01", "P1", "USU-4", "A05"))
    peeked, events = act(state, PlayAction(card="A02"))
    assert [(e.cards, e.visible_to) for e in of_kind(events, "deck_peeked")] == [
        (("M01", "P1", "USU-4"), frozenset({0})),
        (None, None),
    ]
    assert ENGINE.view(peeked, 0).peek == ("M01", "P1", "USU-4") and ENGINE.view(peeked, 1).peek is None
    assert ENGINE.view(peeked, None).step is TurnStep.TAROT and ENGINE.view(peeked, None).deck_size == 1
    assert peeked.played[0] == ("A02",)
    done, events = act(peeked, OrderTarot(top=("USU-4", "P1"), bottom="M01"))
    assert done.deck == ("USU-4", "P1", "A05", "M01") and done.turn == 1
    reordered = of_kind(events, "deck_reordered")
    assert [(e.to_bottom, e.top, e.visible_to) for e in reordered] == [
        (True, ("USU-4", "P1"), frozenset({0})),
        (True, None, None),
    ]
    expect("cadwallon.bad_order", peeked, OrderTarot(top=("USU-4", "P1")))
    expect("cadwallon.bad_order", peeked, OrderTarot(top=("USU-4", "P1", "A05")))


def test_tarot_mages_with_a_short_deck() -> None:
    state = acting({}, ("A02",), deck=("M01",))
    peeked, _ = act(state, PlayAction(card="A02"))
    assert ENGINE.legal_actions(peeked, 0) == [OrderTarot(top=("M01",)), OrderTarot(top=(), bottom="M01")]
    expect("cadwallon.card_not_playable", acting({}, ("A02",)), PlayAction(card="A02"))


# ----------------------------------------------------------------------------- A03 Crowded Street (scenario 29)
def test_crowded_street_doubles_up_on_a_single_agent() -> None:
    cards = {"B1": "USU-1", "B2": "BLA-3"}
    state = acting(cards, ("A03",), agents=[(1, "B1E"), (0, "A1E"), (1, "A1E")], supply=[1, 0], deck=DECK)
    legal = ENGINE.legal_actions(act(state, PlayAction(card="A03"))[0], 0)
    assert [a.boulevard for a in legal if isinstance(a, ChooseBoulevard)] == ["B1E"]
    after, events = act(state, PlayAction(card="A03"), ChooseBoulevard(boulevard="B1E"))
    placed = of_kind(events, "agent_placed")[0]
    assert (placed.seat, placed.boulevard, placed.card) == (0, "B1E", "A03")
    # Both agents count in full at the Capture that follows (seat 0 had no agent left).
    assert support_of(events, "B1") == {0: 3, 1: 3} and support_of(events, "B2") == {0: 1, 1: 1}
    assert after.round == 3 and after.supply == (6, 6)  # Capture came and the next round began


def test_scenario_29_crowded_street_refuses_a_full_boulevard() -> None:
    state = acting({}, ("A03",), agents=[(1, "B1E"), (1, "B1E"), (1, "A1E")], supply=[1, 0])
    expect("cadwallon.bad_target", state, PlayAction(card="A03"), ChooseBoulevard(boulevard="B1E"))
    expect("cadwallon.bad_target", state, PlayAction(card="A03"), ChooseBoulevard(boulevard="C2E"))
    expect(
        "cadwallon.card_not_playable", acting({}, ("A03",), agents=[(1, "B1E")], supply=[0, 5]), PlayAction(card="A03")
    )


# ----------------------------------------------------------------------------- A04 Reinforcements, A05 Change of Plans
def test_reinforcements_place_another_agent_beside_the_agent_placed_this_turn() -> None:
    """Revision 4: the extra agent goes beside a card that this turn's agent faces (A1E: A1 and A2)."""
    state = acting({}, ("A04",), agents=[(0, "A1E")], supply=[3, 5])
    chosen, _ = act(state, PlayAction(card="A04"))
    options = [a.boulevard for a in ENGINE.legal_actions(chosen, 0) if isinstance(a, ChooseBoulevard)]
    assert options == ["A2E", "A1S", "A2S"]
    after, events = act(chosen, ChooseBoulevard(boulevard="A2S"))
    assert of_kind(events, "agent_placed")[0].card == "A04"
    assert after.supply == (2, 5) and after.turn == 1 and after.step is TurnStep.PLACE
    expect("cadwallon.bad_target", state, PlayAction(card="A04"), ChooseBoulevard(boulevard="C2E"))
    expect("cadwallon.bad_target", state, PlayAction(card="A04"), ChooseBoulevard(boulevard="A1E"))
    expect("cadwallon.card_not_playable", acting({}, ("A04",), supply=[0, 5]), PlayAction(card="A04"))


def test_reinforcements_follow_the_latest_own_agent() -> None:
    """The agent placed this turn is the seat's newest figure: C2E (C2 and C3), not the older A1E."""
    state = acting({}, ("A04",), agents=[(0, "A1E"), (1, "B2E"), (0, "C2E")], supply=[3, 5])
    chosen, _ = act(state, PlayAction(card="A04"))
    options = [a.boulevard for a in ENGINE.legal_actions(chosen, 0) if isinstance(a, ChooseBoulevard)]
    assert options == ["C1E", "B2S", "B3S"]


def test_reinforcements_need_a_free_boulevard_beside_it() -> None:
    # Every boulevard around A1 and A2 is taken: nothing to reinforce, though C2E is free.
    taken = [(0, "A1E"), (1, "A2E"), (1, "A1S"), (1, "A2S")]
    state = acting({}, ("A04",), agents=[*taken[1:], taken[0]], supply=[3, 5])
    expect("cadwallon.card_not_playable", state, PlayAction(card="A04"))


def test_change_of_plans_moves_an_own_agent() -> None:
    state = acting({}, ("A05",), agents=[(0, "A1E"), (1, "A2E")])
    chosen, _ = act(state, PlayAction(card="A05"))
    assert [a for a in ENGINE.legal_actions(chosen, 0) if isinstance(a, ChooseAgent)] == [ChooseAgent(agent=0)]
    assert pending(chosen).needs is TargetKind.AGENT
    chosen, _ = act(chosen, ChooseAgent(agent=0))
    assert pending(chosen).needs is TargetKind.BOULEVARD
    assert ChooseBoulevard(boulevard="A2E") not in ENGINE.legal_actions(chosen, 0)
    after, events = act(chosen, ChooseBoulevard(boulevard="C2E"))
    moved = of_kind(events, "agent_moved")[0]
    assert (moved.owner, moved.origin, moved.destination) == (0, "A1E", "C2E")
    assert after.agents[0].boulevard == 5
    expect("cadwallon.bad_target", state, PlayAction(card="A05"), ChooseAgent(agent=1))


# ----------------------------------------------------------------------------- A06, A16 (scenario 31)
def test_scenario_31_bodyguards_protect_from_arrest() -> None:
    state = build(
        grid_of({}), n=3, agents=[(0, "A1E"), (1, "A2E")], supply=[3, 3, 3], turn=1, hands={1: ("A16",), 2: ("A06",)}
    )
    state, events = act(state, PlaceAgent(boulevard="B1E"), PlayAction(card="A16"))
    assert state.protected == (1,) and played(events)[0].card == "A16"
    assert ENGINE.view(state, None).players[1].protected
    state, _ = act(state, PlaceAgent(boulevard="B2E"), PlayAction(card="A06"))
    offered = [a.agent for a in ENGINE.legal_actions(state, 2) if isinstance(a, ChooseAgent)]
    assert offered == [0]
    expect("cadwallon.target_protected", state, ChooseAgent(agent=1))
    expect("cadwallon.bad_target", state, ChooseAgent(agent=99))
    after, events = act(state, ChooseAgent(agent=0))
    assert of_kind(events, "agent_returned")[0].owner == 0 and after.supply[0] == 4


def test_arrest_is_unplayable_when_every_opponent_is_protected() -> None:
    state = acting({}, ("A06",), agents=[(1, "A1E")], protected=[1])
    expect("cadwallon.card_not_playable", state, PlayAction(card="A06"))


# ----------------------------------------------------------------------------- marks: A07 A08 A09 A14 A17 A24 A26
@pytest.mark.parametrize("card", ["A07", "A08", "A09", "A14", "A17"])
def test_marking_cards_mark_any_grid_card(card: str) -> None:
    state = acting({"B2": "USU-1"}, (card,))
    chosen, _ = act(state, PlayAction(card=card))
    assert len([a for a in ENGINE.legal_actions(chosen, 0) if isinstance(a, ChooseSlot)]) == 9
    after, events = act(chosen, ChooseSlot(slot="B2"))
    mark = of_kind(events, "card_marked")[0]
    assert (mark.seat, mark.card, mark.slot, mark.target) == (0, card, "B2", "USU-1")
    marks = ENGINE.view(after, None).slots[4].marks
    assert [(m.card, m.seat) for m in marks] == [(card, 0)]


def test_guild_tithe_and_patronage_targets() -> None:
    cards = {"A1": "P1", "A2": "M01", "A3": "A05"}
    state = acting(cards, ("A24", "A26"))
    tithe = act(state, PlayAction(card="A24"))[0]
    offered = {a.slot for a in ENGINE.legal_actions(tithe, 0) if isinstance(a, ChooseSlot)}
    assert offered == {"B1", "B2", "B3", "C1", "C2", "C3"}  # guild members only: not P1, M01, A05
    patron = act(state, PlayAction(card="A26"))[0]
    assert [a.slot for a in ENGINE.legal_actions(patron, 0) if isinstance(a, ChooseSlot)] == ["A1"]
    after, _ = act(patron, ChooseSlot(slot="A1"))
    assert ENGINE.view(after, None).slots[0].effective_support == 2
    no_personality = acting({}, ("A26",))
    expect("cadwallon.card_not_playable", no_personality, PlayAction(card="A26"))


def test_marks_travel_with_their_card() -> None:
    state = acting({"B1": "USU-1", "B2": "ZOD-2"}, ("A11",), marks=[("A08", 1, "USU-1")])
    after, _ = act(state, PlayAction(card="A11"), ChooseSlot(slot="B1"), ChooseSlot(slot="B2"))
    view = ENGINE.view(after, None)
    assert view.slots[4].marks[0].target == "USU-1" and view.slots[4].effective_support == 0
    assert view.slots[3].marks == ()


# ----------------------------------------------------------------------------- A10 Ducal Favour
def test_ducal_favour_is_recorded() -> None:
    after, events = act(acting({}, ("A10",), n=3), PlayAction(card="A10"))
    assert after.favour == 0 and ENGINE.view(after, None).favour_seat == 0
    assert [e.card for e in played(events)] == ["A10"] and ENGINE.view(after, None).round_plays[0].card == "A10"


# ----------------------------------------------------------------------------- A11 Riots
def test_riots_swap_adjacent_cards_only() -> None:
    state = acting({"B2": "USU-1", "B3": "M01", "C3": "P1"}, ("A11",))
    chosen, _ = act(state, PlayAction(card="A11"), ChooseSlot(slot="B2"))
    assert [a.slot for a in ENGINE.legal_actions(chosen, 0) if isinstance(a, ChooseSlot)] == ["A2", "B1", "B3", "C2"]
    expect("cadwallon.bad_target", chosen, ChooseSlot(slot="C3"))
    after, _ = act(chosen, ChooseSlot(slot="B3"))
    assert after.slots[4:6] == ("M01", "USU-1")


# ----------------------------------------------------------------------------- A12 Informant
def test_informant_draws_a_secret_action() -> None:
    after, events = act(acting({}, ("A12",), reserve=("A20", "A21")), PlayAction(card="A12"))
    assert after.hands[0] == ("A20",) and after.reserve == ("A21",)
    drawn = of_kind(events, "action_card_drawn")
    assert [(e.card, e.source, e.visible_to) for e in drawn] == [
        ("A20", DrawSource.INFORMANT, frozenset({0})),
        (None, DrawSource.INFORMANT, None),
    ]
    expect("cadwallon.card_not_playable", acting({}, ("A12",)), PlayAction(card="A12"))


# ----------------------------------------------------------------------------- A15 + A22 (scenario 30), A18
def test_scenario_30_double_agent_stays_turned_when_swapped() -> None:
    """Revision 5: the turned agent supports nobody (it used to support A15's player), moved or not."""
    cards = {"C1": "USU-1", "C2": "BLA-3", "B1": "JEW-1", "B2": "JEW-2"}
    state = build(
        grid_of(cards),
        n=3,
        agents=[(1, "B1E"), (2, "C1E")],
        supply=[1, 1, 1],
        hands={0: ("A15",), 2: ("A22",)},
        deck=DECK,
    )
    state, events = act(state, PlaceAgent(boulevard="A1E"), PlayAction(card="A15"), ChooseAgent(agent=0))
    turned = of_kind(events, "agent_turned")[0]
    assert (turned.seat, turned.owner, turned.agent, turned.boulevard) == (0, 1, 0, "B1E")
    view = ENGINE.view(state, None)
    assert [(a.id, a.owner, a.turned) for a in view.agents if a.id == 0] == [(0, 1, True)]
    state, _ = act(state, PlaceAgent(boulevard="A2E"))
    state, _ = act(state, PlaceAgent(boulevard="A3S"), PlayAction(card="A22"), ChooseAgent(agent=1))
    assert [a.agent for a in ENGINE.legal_actions(state, 2) if isinstance(a, ChooseAgent)] == [2, 3, 0]  # by boulevard
    state, events = act(state, ChooseAgent(agent=0))
    swapped = of_kind(events, "agents_swapped")[0]
    assert (swapped.agents, swapped.boulevards) == ((1, 0), ("C1E", "B1E"))
    # Agent 0 now stands on C1E (USU-1 | BLA-3), still turned: it supports nobody there.
    assert support_of(events, "C1") == {}
    assert support_of(events, "C2") == {}
    assert support_of(events, "B1") == {2: 1}  # seat 2's agent moved to B1E: S(JEW-2) toward B1
    assert ENGINE.view(state, None).agents == ()  # agents go home at the end of the round, unturned


def test_double_agent_support_counts_for_nobody() -> None:
    """Revision 5: the turned agent's support leaves its owner and goes to no one, Bribe included."""
    cards = {"B1": "JEW-1", "B2": "JEW-2"}
    state = acting(
        cards, ("A15",), agents=[(1, "B1E"), (0, "A3S")], supply=[1, 1], deck=DECK, marks=[("A07", 1, "JEW-1")]
    )
    before = ENGINE.view(state, None)
    assert [a.turned for a in before.agents] == [False, False]
    after, events = act(state, PlayAction(card="A15"), ChooseAgent(agent=0))
    turned = of_kind(events, "agent_turned")[0]
    assert (turned.seat, turned.owner, turned.boulevard) == (0, 1, "B1E")
    assert [(a.owner, a.turned) for a in ENGINE.view(after, None).agents] == [(1, True), (0, False)]
    assert after.agents[0].turned
    _, events = act(after, PlaceAgent(boulevard="C1E"), PlaceAgent(boulevard="C2E"))
    assert support_of(events, "B1") == {} and support_of(events, "B2") == {}  # no Bribe: seat 1 has no agent there


def test_diversion_moves_an_opponents_agent() -> None:
    state = acting({}, ("A18",), agents=[(1, "A1E"), (0, "A2E")])
    chosen, _ = act(state, PlayAction(card="A18"))
    assert [a.agent for a in ENGINE.legal_actions(chosen, 0) if isinstance(a, ChooseAgent)] == [0]
    after, events = act(chosen, ChooseAgent(agent=0), ChooseBoulevard(boulevard="C2E"))
    moved = of_kind(events, "agent_moved")[0]
    assert (moved.seat, moved.owner, moved.destination) == (0, 1, "C2E")
    assert after.agents[0].boulevard == 5
    expect(
        "cadwallon.card_not_playable", acting({}, ("A18",), agents=[(1, "A1E")], protected=[1]), PlayAction(card="A18")
    )


def test_masquerade_never_swaps_on_one_boulevard() -> None:
    state = acting({}, ("A22",), agents=[(0, "A1E"), (1, "A1E")])
    expect("cadwallon.card_not_playable", state, PlayAction(card="A22"))


# ----------------------------------------------------------------------------- A19 Demolition
def test_demolition_sends_a_card_under_and_deals_the_top() -> None:
    state = acting({"B2": "USU-1"}, ("A19",), deck=("M01", "P1"), marks=[("A08", 1, "USU-1")])
    after, events = act(state, PlayAction(card="A19"), ChooseSlot(slot="B2"))
    demolished = of_kind(events, "card_demolished")[0]
    assert (demolished.slot, demolished.removed, demolished.dealt) == ("B2", "USU-1", "M01")
    assert after.slots[4] == "M01" and after.deck == ("P1", "USU-1") and after.marks == ()
    single, _ = act(acting({"B2": "USU-1"}, ("A19",), deck=("M01",)), PlayAction(card="A19"), ChooseSlot(slot="B2"))
    assert single.slots[4] == "M01" and single.deck == ("USU-1",)
    expect("cadwallon.card_not_playable", acting({}, ("A19",)), PlayAction(card="A19"))


# ----------------------------------------------------------------------------- A20 Pickpocket
def test_pickpocket_steals_at_random_and_only_the_two_see_it() -> None:
    state = acting({}, ("A20",), n=3, hands={1: ("A05", "A06")})
    chosen, _ = act(state, PlayAction(card="A20"))
    assert [a for a in ENGINE.legal_actions(chosen, 0) if isinstance(a, ChooseSeat)] == [ChooseSeat(seat=1)]
    expect("cadwallon.bad_target", chosen, ChooseSeat(seat=2))
    after, events = act(chosen, ChooseSeat(seat=1))
    stolen = of_kind(events, "card_stolen")
    taken = stolen[0].card
    assert taken in ("A05", "A06") and stolen[0].visible_to == frozenset({0, 1})
    assert stolen[1].card is None and stolen[1].visible_to is None
    assert after.hands[0] == (taken,) and len(after.hands[1]) == 1
    assert played(events)[0].target_seat == 1
    expect("cadwallon.card_not_playable", acting({}, ("A20",), n=3), PlayAction(card="A20"))


def test_pickpocket_leaves_the_reserve_alone() -> None:
    """The robbed player draws no replacement (tried for revision 5; it did not move the card's numbers)."""
    state = acting({}, ("A20",), n=3, hands={1: ("A05",)}, reserve=("A21", "A12"))
    after, events = act(state, PlayAction(card="A20"), ChooseSeat(seat=1))
    assert after.hands[0] == ("A05",) and after.hands[1] == () and after.reserve == ("A21", "A12")
    assert not of_kind(events, "action_card_drawn")


# ----------------------------------------------------------------------------- A21 Martial Law
def test_martial_law_is_announced() -> None:
    after, events = act(acting({}, ("A21",)), PlayAction(card="A21"))
    assert after.actions_closed and ENGINE.view(after, None).actions_closed
    assert played(events)[0].card == "A21"


# ----------------------------------------------------------------------------- A23 Scapegoat
def test_scapegoat_hands_a_militia_to_another_player() -> None:
    state = acting({}, ("A23",), n=3, captured={0: ("M01", "M04", "USU-1")})
    chosen, _ = act(state, PlayAction(card="A23"))
    assert [a for a in ENGINE.legal_actions(chosen, 0) if isinstance(a, ChooseCard)] == [
        ChooseCard(card="M01"),
        ChooseCard(card="M04"),
    ]
    expect("cadwallon.bad_target", chosen, ChooseCard(card="USU-1"))
    chosen, _ = act(chosen, ChooseCard(card="M04"))
    waiting = pending(chosen)
    assert waiting.needs is TargetKind.SEAT and waiting.card_chosen == "M04" and waiting.choice == 2
    assert [a for a in ENGINE.legal_actions(chosen, 0) if isinstance(a, ChooseSeat)] == [
        ChooseSeat(seat=1),
        ChooseSeat(seat=2),
    ]
    after, events = act(chosen, ChooseSeat(seat=2))
    given = of_kind(events, "militia_given")[0]
    assert (given.recipient, given.card) == (2, "M04")
    assert after.captured[0] == ("M01", "USU-1") and after.captured[2] == ("M04",)


# ----------------------------------------------------------------------------- A25 Windfall
def test_windfall_action_goes_to_hand_anything_else_to_the_bottom() -> None:
    after, events = act(acting({}, ("A25",), deck=("A07", "M01")), PlayAction(card="A25"))
    revealed = of_kind(events, "windfall_revealed")[0]
    assert (revealed.card, revealed.to_hand, revealed.visible_to) == ("A07", True, None)
    assert after.hands[0] == ("A07",) and after.deck == ("M01",)
    assert ENGINE.view(after, None).revealed == "A07"
    after, _ = act(acting({}, ("A25",), deck=("M01", "P1")), PlayAction(card="A25"))
    assert after.deck == ("P1", "M01") and after.hands[0] == ()
    expect("cadwallon.card_not_playable", acting({}, ("A25",)), PlayAction(card="A25"))


# ----------------------------------------------------------------------------- common rules (§6)
def test_one_card_per_turn_and_it_stays_played() -> None:
    state = acting({}, ("A10", "A21"))
    after, events = act(state, PlayAction(card="A10"))
    assert after.turn == 1 and after.hands[0] == ("A21",) and after.played[0] == ("A10",)
    assert of_kind(events, "turn_ended")[0].played
    assert ENGINE.view(after, None).players[0].played == ("A10",)


def test_cancel_keeps_the_card_and_allows_another() -> None:
    state = acting({}, ("A09", "A10"))
    state, _ = act(state, PlayAction(card="A09"), CancelAction())
    assert ENGINE.legal_actions(state, 0) == [EndTurn(), PlayAction(card="A09"), PlayAction(card="A10")]
    state, _ = act(state, PlayAction(card="A10"))
    assert state.hands[0] == ("A09",)


def test_public_events_never_name_a_card_being_targeted() -> None:
    state = acting({}, ("A09",))
    _, events = act(state, PlayAction(card="A09"))
    assert public(events) == []
