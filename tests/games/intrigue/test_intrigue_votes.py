"""Votes: the seed's council vote, sway, Сапфировые Озёра, vote traits, land votes, appointments (§10, §11)."""

from __future__ import annotations

import pytest

from games.core.errors import GameError
from games.core.models import Event
from games.intrigue.data import STANDARD_NINE
from games.intrigue.models import (
    BallotsRevealed,
    CharAction,
    Done,
    MercType,
    NeutralVoted,
    Phase,
    PickAction,
    PickAmount,
    PickCharacter,
    PickSide,
    RevealAssassin,
    Side,
    Skip,
    VoteDictated,
    VoteKind,
    VoteResolved,
)
from games.intrigue.state import IntrigueState
from tests.games.intrigue.helpers import (
    ENGINE,
    B,
    G,
    R,
    Y,
    begin,
    new,
    play,
    skip_windows,
    top,
    top_kind,
    until,
    with_card,
    with_tokens,
)

ZB, DS, BR, CH, ZAL, BRO, TD = 1, 2, 3, 4, 6, 11, 12
FOR, AGAINST, ABSTAIN, NONE = (PickSide(side=s) for s in (Side.FOR, Side.AGAINST, Side.ABSTAIN, Side.NONE))


def slots(state: IntrigueState, turn: int = 2) -> IntrigueState:
    state = begin(state, Phase.CHARACTERS, turn=turn)
    return until(state, lambda s: top_kind(s) == "slot")


def pass_until_slot_of(state: IntrigueState, seat: int) -> IntrigueState:
    while not (top_kind(state) == "slot" and top(state).seat == seat):
        active = min(ENGINE.active_seats(state))
        state = play(state, active, ENGINE.default_action(state, active))
    return state


def test_seed_council_vote_example() -> None:
    heads = {ZB: 10, DS: 16, BR: 2, CH: 4, ZAL: 5, BRO: 17, TD: 1}
    state = new(4, heads=heads, council=[6, 7, 8, 9])
    state = with_tokens(
        state,
        chars={
            6: {R: 3, G: 2, Y: 1},
            7: {G: 2, R: 2},
            8: {Y: 4},
            9: {Y: 1, G: 1},
            10: {R: 4, G: 3, Y: 1},
            17: {G: 2},
            2: {R: 1},
            5: {Y: 1},
        },
    )
    state = slots(state)
    assert state.representative == 10
    state = pass_until_slot_of(state, R)
    state = play(
        state, R, PickCharacter(character=6), PickAction(action=CharAction.REMOVE_HEAD), PickCharacter(character=16)
    )
    assert top_kind(state) == "vote" and ENGINE.active_seats(state) == {R, G, Y}
    state = play(state, R, FOR, FOR, FOR)  # Эдмар, Томас; preference on Марк
    state = play(state, G, AGAINST, AGAINST)  # preferences on Марк and Густав
    step = ENGINE.apply(state, Y, AGAINST)  # Элиза; then the Густав preference
    state = play(step.state, Y, AGAINST)
    vote = top(state)
    assert vote.votes == {6: "for", 10: "for", 8: "against"}
    assert vote.tallies[7] == {"for": 1, "against": 1} and vote.tallies[9] == {"against": 2}
    # Sway round 1 on Марк: G via the Братья head (free), R via Гюнтер, Y via Жозетта.
    assert ENGINE.active_seats(state) == {R, G, Y}
    state = play(state, G, PickCharacter(character=7), PickCharacter(character=17), AGAINST, Done())
    state = play(state, R, PickCharacter(character=7), PickCharacter(character=2), FOR, Done())
    state = play(state, Y, PickCharacter(character=7), PickCharacter(character=5), AGAINST, Done())
    assert top(state).tallies[7] == {"for": 2, "against": 3}
    assert state.char_tokens[16][G] == 2 and state.char_tokens[1][R] == 0 and state.char_tokens[4][Y] == 0
    events: list[Event] = []
    for seat in sorted(ENGINE.active_seats(state)):
        step = ENGINE.apply(state, seat, Skip())
        events += step.events
        state = step.state
    resolved = [e for e in events if isinstance(e, VoteResolved)]
    assert [(e.passed, e.votes_for, e.votes_against) for e in resolved] == [(False, 2, 3)]
    assert 16 in state.heads


def _trait_board() -> IntrigueState:
    # Томас heads Залесье, the Representative on an empty board (cells 10, the most since revision 6).
    heads = {ZB: 5, DS: 16, BR: 2, CH: 13, ZAL: 10, BRO: 17, TD: 1}
    state = new(4, heads=heads, council=[4, 3, 8, 9])
    return with_tokens(state, chars={4: {R: 3}, 3: {B: 3}})


def test_envious_and_noble_controller_ballots() -> None:
    state = slots(_trait_board())
    state = pass_until_slot_of(state, R)
    state = play(
        state, R, PickCharacter(character=4), PickAction(action=CharAction.REMOVE_HEAD), PickCharacter(character=16)
    )
    state = play(state, R, FOR)
    state = play(state, B, FOR)
    state = until(state, lambda s: top_kind(s) != "vote")
    assert state.char_tokens[3][R] == 4  # Матей Завистник: For → +1
    assert state.char_tokens[2][B] == 1  # Ирена Благородная and Гордая: For → −1 forced, doubled


def test_sapphire_lakes_dictates_one_neutral_voter_once_per_turn() -> None:
    heads = {1: 10, 2: 16, 3: 2, 4: 13, 5: 11, 6: 5, 10: 14, 11: 17, 12: 1}
    state = new(4, heads=heads, council=[6, 7, 8, 9], lands=STANDARD_NINE)
    state = with_tokens(state, chars={6: {R: 3}, 8: {R: 2}, 11: {B: 1}, 7: {G: 1, Y: 1}, 10: {Y: 2}})
    state = slots(state)
    state = pass_until_slot_of(state, R)
    state = play(
        state, R, PickCharacter(character=6), PickAction(action=CharAction.REMOVE_HEAD), PickCharacter(character=16)
    )
    state = until(state, lambda s: top_kind(s) == "vote" and top(s).stage == 5)
    assert ENGINE.active_seats(state) == {B}
    assert ENGINE.default_action(state, B) == Skip()
    step = ENGINE.apply(play(state, B, PickCharacter(character=7)), B, FOR)
    state = step.state
    assert [e.voter for e in step.events if isinstance(e, VoteDictated)] == [7]
    assert top(state).votes[7] == "for" and "sapphire" in state.used
    assert 7 not in [v for v in top(state).neutral if v not in top(state).votes]
    # A second use this turn: the controller is not asked again.
    state = until(state, lambda s: top_kind(s) != "vote")
    second = state.model_copy(update={"stack": (*state.stack,)})
    assert "sapphire" in second.used
    with pytest.raises(GameError):
        play(second, B, PickCharacter(character=7))


def _land_vote_board() -> IntrigueState:
    # 7 heads: R controls 4, B 1, two neutral (Матей on ЗБ, Жозетта on Залесье).
    heads = {ZB: 4, DS: 16, BR: 2, CH: 13, ZAL: 5, BRO: 17, TD: 1}
    state = new(4, heads=heads, council=[6, 7, 8, 9])
    return with_tokens(
        state,
        chars={16: {R: 2}, 2: {R: 2}, 13: {R: 2}, 17: {R: 2}, 1: {B: 1}, 7: {Y: 3}},
        lands={ZB: {G: 2}},
    )


def _call_councillor_removal(state: IntrigueState) -> IntrigueState:
    state = slots(state)
    state = pass_until_slot_of(state, R)
    state = play(state, R, PickCharacter(character=16), PickAction(action=CharAction.REMOVE_COUNCILLOR))
    state = skip_windows(play(state, R, PickCharacter(character=7)))
    state = play(state, R, FOR, FOR, FOR, FOR)
    return play(state, B, AGAINST)


def test_councillor_removal_fails_without_five_for() -> None:
    state = _call_councillor_removal(_land_vote_board())
    assert ENGINE.active_seats(state) == {G}
    state = play(state, G, Skip())
    assert 7 in state.council


def test_councillor_removal_passes_with_a_stake_and_the_seat_is_refilled() -> None:
    state = _call_councillor_removal(_land_vote_board())
    state = play(state, G, PickCharacter(character=4), PickAmount(amount=2), FOR, Done())
    assert 7 not in state.council and 7 in state.dismissed
    assert state.char_tokens[6][Y] == 3  # he keeps his tokens in the pool
    assert state.land_tokens[state.lands.index(ZB)][G] == 0
    assert top_kind(state) == "vote" and top(state).vote is VoteKind.APPOINT
    assert 7 not in top(state).candidates


def test_council_vacancy_appointment_vote_and_head_refill() -> None:
    heads = {ZB: 4, DS: 16, BR: 2, CH: 13, ZAL: 5, BRO: 3, TD: 1}
    state = new(4, heads=heads, council=[6, 7, 8, 9])
    state = with_tokens(
        state,
        chars={2: {R: 2}, 16: {R: 2}, 3: {B: 2}, 4: {G: 2}, 9: {Y: 1}},
        lands={ZB: {R: 2}},
    )
    state = with_card(state, "M01", R, MercType.ASSASSIN, 8)
    state = begin(state, Phase.LANDS_ONE, turn=2)
    state = play(state, R, RevealAssassin(card="M01"))
    assert 8 in state.dead and top_kind(state) == "vote" and top(state).council == "treasurer"
    state = play(state, R, PickCharacter(character=2), PickCharacter(character=2))
    state = play(state, B, PickCharacter(character=3))
    step = ENGINE.apply(state, G, PickCharacter(character=4))
    state = step.state
    revealed = [e for e in step.events if isinstance(e, BallotsRevealed)]
    assert revealed
    state = until(state, lambda s: top_kind(s) != "vote")
    assert state.council[2] == 2  # Гюнтер, Казначей now, with his tokens
    assert state.char_tokens[1][R] == 2
    assert top_kind(state) == "pick" and ENGINE.active_seats(state) == {Y}  # the Appointer fills БР
    state = play(state, Y, PickCharacter(character=top(state).candidates[-1]))
    assert state.heads[state.lands.index(BR)] is not None


def test_appointment_tie_goes_to_the_privy_councillors_controller() -> None:
    heads = {ZB: 4, DS: 16, BR: 2, CH: 13, ZAL: 5, BRO: 3, TD: 1}
    state = new(4, heads=heads, council=[6, 7, 8, 9])
    state = with_tokens(state, chars={2: {R: 2}, 16: {R: 2}, 3: {B: 2}, 4: {G: 2}, 9: {Y: 1}}, lands={ZB: {R: 2}})
    state = with_card(state, "M01", R, MercType.ASSASSIN, 8)
    state = begin(state, Phase.LANDS_ONE, turn=2)
    state = play(state, R, RevealAssassin(card="M01"))
    state = play(state, R, PickCharacter(character=2), PickCharacter(character=2))
    state = play(state, B, PickCharacter(character=3))
    state = play(state, G, PickCharacter(character=3))
    state = until(state, lambda s: top_kind(s) == "pick")
    assert ENGINE.active_seats(state) == {Y}
    assert sorted(top(state).candidates) == [2, 3]
    state = play(state, Y, PickCharacter(character=3))
    assert state.council[2] == 3


def test_removal_vote_lapses_when_the_subject_dies_in_w3() -> None:
    heads = {ZB: 10, DS: 16, BR: 2, CH: 13, ZAL: 5, BRO: 17, TD: 1}
    state = new(4, heads=heads, council=[6, 7, 8, 9])
    state = with_tokens(state, chars={6: {R: 3}}, lands={DS: {Y: 2}})
    state = with_card(state, "M01", Y, MercType.ASSASSIN, 16)
    state = slots(state)
    state = pass_until_slot_of(state, R)
    state = play(
        state, R, PickCharacter(character=6), PickAction(action=CharAction.REMOVE_HEAD), PickCharacter(character=16)
    )
    assert top_kind(state) == "window"
    state = play(state, Y, RevealAssassin(card="M01"))
    state = until(state, lambda s: top_kind(s) not in ("window", "pick", "vacancy"))
    assert 16 in state.dead and 6 in state.acted
    assert top_kind(state) != "vote" or top(state).subject != 16


def test_ballot_done_defaults_the_rest_to_abstain() -> None:
    state = slots(_trait_board())
    state = pass_until_slot_of(state, R)
    state = play(
        state, R, PickCharacter(character=4), PickAction(action=CharAction.REMOVE_HEAD), PickCharacter(character=16)
    )
    assert ENGINE.default_action(state, R) == Done()
    state = play(state, R, Done())
    step = ENGINE.apply(state, B, Done())
    revealed = next(e for e in step.events if isinstance(e, BallotsRevealed))
    assert set(revealed.votes) == {(4, "abstain", R), (3, "abstain", B)}


def test_neutral_unswayed_councillor_votes_its_disposition() -> None:
    state = slots(_trait_board())
    state = pass_until_slot_of(state, R)
    state = play(
        state, R, PickCharacter(character=4), PickAction(action=CharAction.REMOVE_HEAD), PickCharacter(character=16)
    )
    assert state.representative == 10
    state = play(state, R, FOR)
    step = ENGINE.apply(state, B, FOR)
    events = list(step.events)
    state = step.state
    while top_kind(state) == "vote":
        seat = min(ENGINE.active_seats(state))
        step = ENGINE.apply(state, seat, Skip())
        events += step.events
        state = step.state
    neutral = {e.voter: (e.vote, e.how) for e in events if isinstance(e, NeutralVoted)}
    assert neutral == {8: ("abstain", "disposition"), 9: ("against", "disposition"), 10: ("against", "disposition")}
    resolved = next(e for e in events if isinstance(e, VoteResolved))
    assert (resolved.votes_for, resolved.votes_against, resolved.passed) == (2, 2, False)
