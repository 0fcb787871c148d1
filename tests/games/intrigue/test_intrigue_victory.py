"""Victory and game end: Рука порядка, coup, will of the people, election, the turn limit (§12)."""

from __future__ import annotations

from collections.abc import Iterable

from games.core.models import Event
from games.intrigue.data import AWAY_AFTER_TIMEOUTS, STANDARD_NINE, SUGGESTED_CLOCKS
from games.intrigue.models import (
    CharAction,
    ElectionResolved,
    MercType,
    Pass,
    Phase,
    PickAction,
    PickCharacter,
    RevealAssassin,
    Victory,
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
    top,
    top_kind,
    until,
    with_card,
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
    pos = state.lands.index(CH)
    peaceful = list(state.peaceful)
    peaceful[pos] = ch_peaceful
    return state.model_copy(update={"peaceful": tuple(peaceful)})


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
