"""Victory and game end: Рука порядка, coup, will of the people, election, the turn limit (§12)."""

from __future__ import annotations

from collections.abc import Iterable

from games.core.models import Event
from games.intrigue.data import AWAY_AFTER_TIMEOUTS, STANDARD_NINE, SUGGESTED_CLOCKS
from games.intrigue.models import (
    BallotsRevealed,
    CharAction,
    Convert,
    Done,
    ElectionResolved,
    MercType,
    Mode,
    Pass,
    Phase,
    PickAction,
    PickAmount,
    PickCharacter,
    PickSide,
    RevealAssassin,
    RevealMessenger,
    Side,
    Skip,
    Victory,
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
    outcome_of,
    play,
    result_of,
    skip_windows,
    top,
    top_kind,
    until,
    with_card,
    with_population,
    with_tokens,
)

ZB, DS, BR, CH, ZAL, BRO, TD = 1, 2, 3, 4, 6, 11, 12


def test_hand_of_order_at_the_fifth_kill() -> None:
    heads = {ZB: 10, DS: 16, BR: 2, CH: 13, ZAL: 5, BRO: 17, TD: 1}
    state = new(2, heads=heads, council=[6, 7, 8, 9])
    state = with_tokens(
        state,
        chars={6: {R: 4, B: 4}, 7: {R: 5, B: 5}, 10: {R: 6, B: 6}, 16: {R: 5}, 2: {B: 3}},
        lands={DS: {R: 2}},
    )
    state = with_card(state.model_copy(update={"kills": 4}), "M01", R, MercType.ASSASSIN, 13)
    state = begin(state, Phase.LANDS_ONE, turn=2)
    step = ENGINE.apply(state, R, RevealAssassin(card="M01"))
    state = until(step.state, lambda s: s.phase is Phase.OVER)
    assert state.kills == 5
    assert result_of(state).victory is Victory.HAND_OF_ORDER
    assert state.heads[state.lands.index(CH)] is not None  # the seats were filled
    assert state.representative == 10
    assert result_of(state).scores[R][0] == result_of(state).scores[B][0] == 15
    assert (result_of(state).scores[R][1], result_of(state).scores[B][1]) == (20, 18)
    assert outcome_of(state).ranks == (0, 1)


def _coup_board(ch_peaceful: int = 3) -> IntrigueState:
    state = new(4, heads={}, council=[6, 7, 8, 9])
    state = with_tokens(state, chars={6: {R: 1}}, lands={DS: {R: 1}, CH: {R: 1}, BRO: {R: 1}, TD: {R: 1}})
    return with_population(state, {CH: (ch_peaceful, None)})


def test_military_coup_counts_a_balanced_land() -> None:
    state = begin(_coup_board(), Phase.LANDS_ONE, turn=2)
    assert state.phase is Phase.OVER
    assert (result_of(state).victory, result_of(state).winner) == (Victory.COUP, R)
    assert outcome_of(state).ranks[R] == 0


def test_no_coup_when_a_land_is_peaceful() -> None:
    state = begin(_coup_board(ch_peaceful=4), Phase.LANDS_ONE, turn=2)
    assert state.phase is not Phase.OVER


def _will_board(lands: Iterable[int]) -> IntrigueState:
    state = new(6, heads={}, council=[6, 7, 8, 9], lands=STANDARD_NINE)
    return with_tokens(state, chars={9: {B: 1}}, lands={land: {B: 1} for land in lands})


def test_will_of_the_people_with_nine_lands() -> None:
    state = begin(_will_board([1, 3, 5, 6, 11]), Phase.LANDS_ONE, turn=2)
    assert (result_of(state).victory, result_of(state).winner) == (Victory.WILL, B)
    state = begin(_will_board([1, 3, 5, 6]), Phase.LANDS_ONE, turn=2)
    assert state.phase is not Phase.OVER


def _election_board() -> IntrigueState:
    heads = {ZB: 10, DS: 16, BR: 2, CH: 13, ZAL: 5, BRO: 17, TD: 1}
    state = new(4, heads=heads, council=[6, 7, 8, 9])
    return with_tokens(state, chars={6: {R: 2}, 7: {R: 2}, 8: {R: 2}, 9: {Y: 1}, 10: {R: 3}})


def _call_election(state: IntrigueState) -> IntrigueState:
    state = begin(state, Phase.CHARACTERS, turn=2)
    state = until(state, lambda s: top_kind(s) == "slot" and top(s).seat == R)
    assert state.representative == 10
    return play(state, R, PickCharacter(character=6), PickAction(action=CharAction.ELECTION))


def test_election_won_with_four_of_five_seats() -> None:
    state = _call_election(_election_board())
    assert state.phase is Phase.OVER
    assert (result_of(state).victory, result_of(state).winner) == (Victory.ELECTION, R)


def test_election_fails_after_a_kill_in_w3_and_the_action_is_spent() -> None:
    state = with_card(_election_board(), "M01", Y, MercType.ASSASSIN, 10)
    state = _call_election(state)
    assert top_kind(state) == "window" and ENGINE.active_seats(state) == {Y}
    state = play(state, Y, RevealAssassin(card="M01"))
    assert 10 in state.dead and state.representative is None
    events: list[Event] = []
    while state.phase is not Phase.OVER and 6 in state.acted and top_kind(state) != "slot":
        seat = min(ENGINE.active_seats(state))
        step = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
        events += step.events
        state = step.state
    resolved = [e for e in events if isinstance(e, ElectionResolved)]
    assert [(e.seat, e.seats, e.won) for e in resolved] == [(R, 3, False)]
    assert state.phase is not Phase.OVER and 6 in state.acted


def test_turn_limit_ranks_by_the_score_vector() -> None:
    state = new(3, heads={ZB: 4}, max_turns=4)
    state = with_tokens(state, chars={4: {B: 2}}, lands={BR: {G: 1}})
    state = begin(state, Phase.LANDS_TWO, turn=4)
    state = until(state, lambda s: s.phase is Phase.OVER)
    assert result_of(state).victory is Victory.TURN_LIMIT and result_of(state).winner is None
    ranks = outcome_of(state).ranks
    assert ranks[B] == 0 and ranks[G] == 1 and ranks[R] == 2
    ended = result_of(state)
    assert ended.scores[B][1] == 2


def test_slot_default_is_pass_and_clock_constants() -> None:
    state = with_tokens(new(3, heads={ZB: 4}), chars={4: {B: 2}})
    state = begin(state, Phase.CHARACTERS, turn=2)
    state = until(state, lambda s: top_kind(s) == "slot")
    assert ENGINE.default_action(state, B) == Pass()
    assert SUGGESTED_CLOCKS["D10"] == 120 and SUGGESTED_CLOCKS["D4"] == 30 and AWAY_AFTER_TIMEOUTS == 3


# ----------------------------------------------------------------------------- checks inside W3 and votes
# §3.7: the game ends the moment a condition holds — after each free action of a W3 window and after
# each sway round too, not only once the vote or the election is over. Coup lands of the seven:
# ДС (P3 M4), ЧГ (3/3), Братья (2/2), ТД (3/4).
HEADS = {ZB: 10, DS: 16, BR: 2, CH: 13, ZAL: 5, BRO: 17, TD: 1}
COUP_LANDS = (DS, CH, BRO, TD)


def _own_slot(state: IntrigueState, seat: int) -> IntrigueState:
    """Begin turn 2's Characters phase and take defaults until ``seat``'s action slot."""
    state = begin(state, Phase.CHARACTERS, turn=2)
    return until(state, lambda s: top_kind(s) == "slot" and top(s).seat == seat)


def _gift_for_the_marshal() -> IntrigueState:
    """R holds the four coup lands; the Военачальник is tied R–B until R's gift M01 on him is revealed."""
    state = new(4, heads=HEADS, council=[6, 7, 8, 9])
    state = with_tokens(
        state, chars={6: {R: 1, B: 1}, 7: {Y: 2}, 16: {Y: 2}}, lands={land: {R: 1} for land in COUP_LANDS}
    )
    return with_card(state, "M01", R, MercType.MESSENGER, 6, mode=Mode.GIFT)


def _assert_coup_now(step_events: tuple[Event, ...], state: IntrigueState, winner: int) -> None:
    assert state.phase is Phase.OVER
    assert (result_of(state).victory, result_of(state).winner) == (Victory.COUP, winner)
    assert not [e for e in step_events if isinstance(e, BallotsRevealed | VoteResolved | ElectionResolved)]


def test_a_gift_revealed_in_a_removal_votes_w3_ends_the_game_before_the_ballots() -> None:
    # Y moves to dismiss the Военачальник; in W3 R's gift gives R the Военачальник with 4 coup lands.
    state = _own_slot(_gift_for_the_marshal(), Y)
    state = play(state, Y, PickCharacter(character=16), PickAction(action=CharAction.REMOVE_COUNCILLOR))
    state = play(state, Y, PickCharacter(character=6))
    assert top_kind(state) == "window" and state.stack[-2].kind == "vote"
    assert ENGINE.active_seats(state) == {R}
    step = ENGINE.apply(state, R, RevealMessenger(card="M01"))
    _assert_coup_now(step.events, step.state, R)
    assert 6 in step.state.council  # the vote never dismissed him


def test_a_gift_revealed_in_an_elections_w3_ends_the_game_at_once() -> None:
    state = _own_slot(_gift_for_the_marshal(), Y)
    state = play(state, Y, PickCharacter(character=7), PickAction(action=CharAction.ELECTION))
    assert top_kind(state) == "window" and state.stack[-2].kind == "election"
    step = ENGINE.apply(state, R, RevealMessenger(card="M01"))
    _assert_coup_now(step.events, step.state, R)


def test_a_coup_met_in_the_callers_own_w3_beats_the_election_that_resolves_after_it() -> None:
    # R calls the election with 3 of 5 seats (Епископ, Казначей, Представитель); his gift in W3 gives
    # him the Военачальник: 4 of 5 *and* a coup. The coup is met at once; the election only after W3
    # (§12.6: "Election (only as it resolves)"), so the game ends by coup.
    state = new(4, heads=HEADS, council=[6, 7, 8, 9])
    state = with_tokens(
        state, chars={6: {R: 1, B: 1}, 7: {R: 1}, 8: {R: 1}, 16: {R: 3}}, lands={land: {R: 1} for land in COUP_LANDS}
    )
    state = _own_slot(with_card(state, "M01", R, MercType.MESSENGER, 6, mode=Mode.GIFT), R)
    assert state.representative == 16
    state = play(state, R, PickCharacter(character=7), PickAction(action=CharAction.ELECTION))
    assert top_kind(state) == "window"
    step = ENGINE.apply(state, R, RevealMessenger(card="M01"))
    _assert_coup_now(step.events, step.state, R)


def test_a_convert_in_a_head_removal_votes_w3_completes_a_will_of_the_people() -> None:
    # B holds the Тайный Советник and 3 will lands (ЗБ, БР, ЧГ); on Залесье Y leads 3–2. Y converts
    # there in W3 (3 → 1 land tokens): B now leads Залесье too, a will of the people on 4 lands.
    state = new(4, heads=HEADS, council=[6, 7, 8, 9])
    state = with_tokens(
        state,
        chars={9: {B: 1}, 7: {Y: 2}},
        lands={ZB: {B: 1}, BR: {B: 1}, CH: {B: 1}, ZAL: {B: 2, Y: 3}},
    )
    state = _own_slot(state, Y)
    state = play(
        state, Y, PickCharacter(character=7), PickAction(action=CharAction.REMOVE_HEAD), PickCharacter(character=16)
    )
    assert top_kind(state) == "window" and ENGINE.active_seats(state) == {B, Y}
    step = ENGINE.apply(state, Y, Convert(land=ZAL))
    state = step.state
    assert state.phase is Phase.OVER
    assert (result_of(state).victory, result_of(state).winner) == (Victory.WILL, B)
    assert not [e for e in step.events if isinstance(e, BallotsRevealed | VoteResolved)]


def test_a_coup_completed_by_an_appointment_inside_w3_ends_the_game_before_the_removal_ballots() -> None:
    # R kills the Военачальник in W3 of Y's head-removal vote; the appointment vote (an interrupt
    # inside the window) seats R's head Дорота as Военачальник: with the 4 coup lands the game ends
    # as soon as the vacancy is filled, not after the removal vote.
    state = new(4, heads=HEADS, council=[6, 7, 8, 9])
    state = with_tokens(state, chars={6: {B: 1}, 7: {Y: 2}, 13: {R: 2}}, lands={land: {R: 1} for land in COUP_LANDS})
    state = _own_slot(with_card(state, "M01", R, MercType.ASSASSIN, 6), Y)
    state = play(
        state, Y, PickCharacter(character=7), PickAction(action=CharAction.REMOVE_HEAD), PickCharacter(character=16)
    )
    state = play(state, R, RevealAssassin(card="M01"))
    assert 6 in state.dead and top_kind(state) == "vote" and top(state).vote is VoteKind.APPOINT
    state = play(state, R, PickCharacter(character=13))  # Дорота's own ballot
    assert top_kind(state) == "vote" and ENGINE.active_seats(state) == {R}  # a sway round
    step = ENGINE.apply(state, R, Skip())
    state = step.state
    assert state.council[0] == 13
    assert state.phase is Phase.OVER
    assert (result_of(state).victory, result_of(state).winner) == (Victory.COUP, R)
    removal = [e for e in step.events if isinstance(e, VoteResolved) and e.vote is VoteKind.REMOVE_HEAD]
    assert not removal


def test_stakes_of_a_sway_round_that_complete_a_coup_end_the_game_before_the_count() -> None:
    # R holds the Военачальник and 3 coup lands; Y leads ТД 2–1. Y stakes both ТД tokens on Артур's
    # land vote: R now leads ТД, and the coup ends the game before the vote is counted.
    state = new(4, heads=HEADS, council=[6, 7, 8, 9])
    state = with_tokens(
        state,
        chars={6: {R: 1}, 16: {Y: 2}},
        lands={DS: {R: 1}, CH: {R: 1}, BRO: {R: 1}, TD: {R: 1, Y: 2}},
    )
    state = _own_slot(state, Y)
    state = play(state, Y, PickCharacter(character=16), PickAction(action=CharAction.REMOVE_COUNCILLOR))
    state = skip_windows(play(state, Y, PickCharacter(character=7)))
    state = play(state, Y, Done())  # Y's land votes (Отто's, Дорота's): abstain
    assert top_kind(state) == "vote" and top(state).stage == 61
    state = play(state, Y, PickCharacter(character=1), PickAmount(amount=2), PickSide(side=Side.FOR), Done())
    step = ENGINE.apply(state, R, Skip())
    state = step.state
    assert state.phase is Phase.OVER
    assert (result_of(state).victory, result_of(state).winner) == (Victory.COUP, R)
    assert not [e for e in step.events if isinstance(e, VoteResolved)]
