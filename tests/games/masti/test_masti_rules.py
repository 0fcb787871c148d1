"""Scenario tests of the 3-5 player game and the 4-player team game (spec §12), on stacked decks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.core.errors import GameError, GameOverError, IllegalActionError, NotYourTurnError
from games.core.models import Event
from games.masti import engine as engine_module
from games.masti.engine import ERROR_CODES, TABLE
from games.masti.models import (
    LeaveCard,
    MastiOptions,
    Mode,
    PayBribe,
    Phase,
    PlayCard,
    SeedTrump,
)
from games.masti.scoring import score_unit
from games.masti.state import MastiState
from tests.games.masti.helpers import ENGINE, all_cards, of_kind, play, run, stacked, stacked_options


def bribe_policy(limits: dict[int, int]):
    """Bribe whenever allowed, up to ``limits[seat]`` times per seat; otherwise the clock's default."""
    paid = dict.fromkeys(limits, 0)

    def policy(state: MastiState, seat: int):
        if paid.get(seat, 0) < limits.get(seat, 0) and PayBribe() in ENGINE.legal_actions(state, seat):
            paid[seat] += 1
            return PayBribe()
        return None

    return policy, paid


# ----------------------------------------------------------------------------- setup, scenarios 1-2
@pytest.mark.parametrize(("n", "deck", "hand", "gems"), [(3, 16, 12, 4), (4, 12, 10, 2), (5, 12, 8, 4)])
def test_deal(n: int, deck: int, hand: int, gems: int) -> None:
    step = ENGINE.setup(n, MastiOptions(), "deal")
    state = step.state
    assert state.trump is not None and len(state.trump_deck) == deck - 1
    assert [len(h) for h in state.hands] == [hand] * n
    assert state.bribe_gems == (gems,) * n
    assert state.max_rounds == hand + gems == TABLE[n].rounds
    assert sorted(all_cards(state)) == sorted(c for c in all_cards(state)) and len(set(all_cards(state))) == 52
    assert state.phase is Phase.PLAY and state.round == 1 and state.mode is Mode.STANDARD
    dealt = of_kind(step.events, "cards_dealt")
    assert [e.visible_to for e in dealt] == [frozenset({s}) for s in range(n)]
    assert of_kind(step.events, "trump_revealed")[0].card == state.trump


def test_setup_is_seeded_and_first_seat_drawn() -> None:
    firsts = {ENGINE.setup(4, MastiOptions(), f"seed{i}").state.first_seat for i in range(20)}
    assert len(firsts) > 1
    assert ENGINE.setup(4, MastiOptions(), "x").state == ENGINE.setup(4, MastiOptions(), "x").state
    state = ENGINE.setup(5, MastiOptions(first_seat=3), "x").state
    assert state.first_seat == 3 and state.turn == 3


@pytest.mark.parametrize(
    ("n", "options", "code"),
    [
        (2, MastiOptions(), "masti.invalid_seat_count"),
        (7, MastiOptions(), "masti.invalid_seat_count"),
        (3, MastiOptions(first_seat=3), "masti.invalid_first_seat"),
        (3, MastiOptions(hands=((),), trump_deck=()), "masti.invalid_deck"),
    ],
)
def test_setup_errors(n: int, options: MastiOptions, code: str) -> None:
    with pytest.raises(GameError) as error:
        ENGINE.setup(n, options, "x")
    assert error.value.code == code


def test_stacked_deck_must_hold_every_card_once() -> None:
    good = stacked_options(3)
    assert good.hands is not None
    bad_hands = ((*good.hands[0][:-1], good.hands[1][0]), *good.hands[1:])
    with pytest.raises(GameError, match=r"masti\.invalid_deck"):
        ENGINE.setup(3, good.model_copy(update={"hands": bad_hands}), "x")


def test_teams_option_ignored_for_three_and_five() -> None:
    assert ENGINE.setup(3, MastiOptions(teams=True), "x").state.teams is None
    assert ENGINE.setup(5, MastiOptions(teams=True), "x").state.mode is Mode.STANDARD


# ----------------------------------------------------------------------------- the lead and following, 3-6
def test_lead_cannot_bribe() -> None:
    state = stacked(3)
    assert state.turn == 0 and state.bribe_gems[0] == 4
    assert PayBribe() not in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalActionError) as error:
        ENGINE.apply(state, 0, PayBribe())
    assert error.value.code == "masti.lead_cannot_bribe"
    assert not ENGINE.view(state, 0).can_bribe


def test_must_follow_the_led_persona() -> None:
    state = stacked(3, {0: ["A07"], 1: ["A05", "P09"]}, void={1: "A"})
    state, _ = play(state, "A07")
    state = state.model_copy(update={"bribe_gems": (4, 1, 4)})
    assert ENGINE.legal_actions(state, 1) == [PlayCard(card="A05"), PayBribe()]
    view = ENGINE.view(state, 1)
    assert view.legal_cards == ("A05",) and view.can_bribe
    before = state.model_dump_json()
    with pytest.raises(IllegalActionError) as error:
        ENGINE.apply(state, 1, PlayCard(card="P09"))
    assert error.value.code == "masti.must_follow_suit"
    assert state.model_dump_json() == before


def test_without_the_led_persona_any_card_is_legal() -> None:
    state = stacked(3, {0: ["A07"], 1: ["A05"]}, void={2: "A"})
    state, _ = play(state, "A07", "A05")
    assert not any(c.startswith("A") for c in state.hands[2])
    legal = ENGINE.legal_actions(state, 2)
    assert legal == [*(PlayCard(card=c) for c in state.hands[2]), PayBribe()]


def test_no_bribe_without_bribe_gems() -> None:
    state = stacked(3, {0: ["A07"]})
    state, _ = play(state, "A07")
    state = state.model_copy(update={"bribe_gems": (4, 0, 4), "wealth_gems": (0, 3, 0)})
    assert PayBribe() not in ENGINE.legal_actions(state, 1)
    with pytest.raises(IllegalActionError) as error:
        ENGINE.apply(state, 1, PayBribe())
    assert error.value.code == "masti.no_bribe_gems"


# ----------------------------------------------------------------------------- who wins, 7-10
def test_any_trump_beats_the_led_persona() -> None:
    state = stacked(3, {0: ["A07"], 1: ["A12"], 2: ["E04"]}, ["E10"], void={2: "A"})
    assert state.trump == "E10"
    state, events = play(state, "A07", "A12", "E04")
    assert of_kind(events, "round_won")[0].winner == 2


def test_off_persona_thirteen_never_wins() -> None:
    state = stacked(3, {0: ["P06"], 1: ["P11"], 2: ["A13"]}, ["U10"], void={2: "P"})
    state, events = play(state, "P06", "P11", "A13")
    assert of_kind(events, "round_won")[0].winner == 1


def test_led_persona_is_trump() -> None:
    state = stacked(3, {0: ["P05"], 1: ["P12"], 2: ["E13"]}, ["P10"], void={2: "P"})
    state, events = play(state, "P05", "P12", "E13")
    assert of_kind(events, "round_won")[0].winner == 1


def test_neutral_trump_card_names_its_persona() -> None:
    state = stacked(3, {0: ["P12"], 1: ["U04"]}, ["U02"], void={1: "P"})
    view = ENGINE.view(state, None)
    assert view.trump == "U02" and view.trump_persona is not None and view.trump_persona.value == "U"
    state, events = play(state, "P12", "U04", None)
    won = of_kind(events, "round_won")[0]
    assert won.winner == 1 and won.cards == ("P12", "U04", "U02")


# ----------------------------------------------------------------------------- taking cards, 11-12
def test_two_bribes_the_lead_takes_its_card_the_trump_and_the_gems() -> None:
    state = stacked(3, {0: ["A07"]}, ["E10"])
    state, events = play(state, "A07", None, None)
    won = of_kind(events, "round_won")[0]
    assert (won.winner, won.cards, won.gems) == (0, ("A07", "E10"), 2)
    assert state.won[0] == ("A07", "E10")
    assert state.wealth_gems == (2, 0, 0)
    assert state.bribe_gems == (4, 3, 3)
    assert [e.kind for e in events].count("bribe_paid") == 2
    assert state.turn == 0 and state.round == 2 and state.trump is not None


def test_winner_takes_three_cards_and_the_trump() -> None:
    state = stacked(3, {0: ["A07"], 1: ["A12"], 2: ["E04"]}, ["E10"], void={2: "A"})
    state, _ = play(state, "A07", "A12", "E04")
    assert len(state.won[2]) == 4 and state.won[0] == state.won[1] == ()
    view = ENGINE.view(state, None)
    assert view.last_round is not None and view.last_round.winner == 2
    assert view.players[2].won_cards == 4 and view.plays == ()


# ----------------------------------------------------------------------------- dropping out, 13-15
def test_a_seat_with_no_cards_drops_out_and_loses_its_bribe_gems() -> None:
    policy, paid = bribe_policy({0: 4, 1: 2, 2: 4})
    state, events = run(stacked(3), policy)
    assert paid == {0: 4, 1: 2, 2: 4}
    dropped = of_kind(events, "player_dropped_out")
    assert [(e.seat, e.gems_removed) for e in dropped] == [(1, 2)]
    drop_round = next(e.round for e in of_kind(events, "round_started") if events.index(e) > events.index(dropped[0]))
    assert drop_round == 15
    assert state.out == (False, True, False) and state.bribe_gems[1] == 0
    later = events[events.index(dropped[0]) :]
    assert all(e.seat != 1 for e in of_kind(later, "card_played") + of_kind(later, "bribe_paid"))
    assert state.result is not None
    mine = next(u for u in state.result if u.seats == (1,))
    assert mine.total == score_unit((1,), {1: state.won[1]}, {1: state.wealth_gems[1]}).total


def test_the_next_seat_with_cards_leads_when_the_winner_has_none() -> None:
    state = stacked(3, {0: ["A13"], 1: ["A05", "P05"], 2: ["A06", "P06"]}, ["U10"])
    state = state.model_copy(update={"hands": (("A13",), ("A05", "P05"), ("A06", "P06"))})
    state, events = play(state, "A13", "A05", "A06")
    assert of_kind(events, "round_won")[0].winner == 0
    assert [(e.seat, e.gems_removed) for e in of_kind(events, "player_dropped_out")] == [(0, 4)]
    assert of_kind(events, "round_started")[0].lead == 1
    assert state.order == (1, 2) and state.turn == 1


def test_last_player_with_cards_plays_alone() -> None:
    policy, paid = bribe_policy({0: 3})
    state, events = run(stacked(3), policy)
    assert paid == {0: 3}
    won = of_kind(events, "round_won")
    assert len(won) == 15
    for event in won[12:]:
        assert event.winner == 0 and len(event.cards) == 2
    assert state.phase is Phase.FINISHED
    assert len(state.trump_deck) == 1  # round 16's trump card is never revealed
    assert state.bribe_gems[0] == 1  # an unused gem, worth nothing
    assert state.result is not None
    seat0 = next(u for u in state.result if u.seats == (0,))
    assert seat0.gems == state.wealth_gems[0]


# ----------------------------------------------------------------------------- the end, 16-17
def test_four_players_without_bribes_end_after_round_ten() -> None:
    state, events = run(stacked(4))
    assert len(of_kind(events, "round_won")) == 10
    assert len(of_kind(events, "trump_revealed")) == 9  # round 1's was revealed at setup
    assert len(state.trump_deck) == 2 and state.trump is None
    assert all(not hand for hand in state.hands)
    assert state.bribe_gems == (2, 2, 2, 2)  # unused, worth nothing
    assert state.result is not None
    assert all(u.gems == 0 for u in state.result)


def test_three_players_sixteen_rounds_when_all_gems_are_spent() -> None:
    policy, paid = bribe_policy({0: 4})
    state, events = run(stacked(3), policy)
    assert paid == {0: 4}
    assert len(of_kind(events, "round_won")) == 16
    assert state.round == 16 and not state.trump_deck
    assert all(not hand for hand in state.hands)
    assert state.bribe_gems == (0, 0, 0)
    assert [(e.seat, e.gems_removed) for e in of_kind(events, "player_dropped_out")] == [(1, 4), (2, 4)]
    assert len(all_cards(state)) == 52 == sum(len(w) for w in state.won)
    assert ENGINE.outcome(state) is not None


# ----------------------------------------------------------------------------- teams, 26
def test_four_player_teams() -> None:
    state = stacked(4, {0: ["A07"], 1: ["A12"], 2: ["A03"], 3: ["A02"]}, ["E10"], teams=True)
    assert state.teams == ((0, 2), (1, 3)) and state.mode is Mode.TEAMS
    view = ENGINE.view(state, None)
    assert [p.team for p in view.players] == [0, 1, 0, 1]
    state, events = play(state, "A07", "A12", "A03", "A02")
    assert of_kind(events, "round_won")[0].winner == 1
    assert len(state.won[1]) == 5 and state.won[0] == state.won[2] == state.won[3] == ()
    state, _ = run(state)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.teams == ((0, 2), (1, 3))
    assert outcome.ranks[0] == outcome.ranks[2] and outcome.ranks[1] == outcome.ranks[3]
    assert outcome.scores is not None and outcome.scores[0] == outcome.scores[2]
    assert state.result is not None and len(state.result) == 2


# ----------------------------------------------------------------------------- clocks, 36-37
def test_timeout_follower_plays_lowest_legal_never_bribes() -> None:
    state = stacked(3, {0: ["P06"], 1: ["P05", "P11"]}, void={1: "P"})
    state, _ = play(state, "P06")
    state = state.model_copy(update={"bribe_gems": (4, 2, 4)})
    assert ENGINE.default_action(state, 1) == PlayCard(card="P05")


def test_timeout_lead_plays_lowest_card() -> None:
    state = stacked(3)
    state = state.model_copy(update={"hands": (("E01", "A01", "U09"), *state.hands[1:])})
    assert ENGINE.default_action(state, 0) == PlayCard(card="A01")
    with pytest.raises(NotYourTurnError):
        ENGINE.default_action(state, 1)


# ----------------------------------------------------------------------------- views, 38
def test_views_show_only_the_viewers_hand() -> None:
    state = ENGINE.setup(4, MastiOptions(), "views").state
    for seat in range(4):
        view = ENGINE.view(state, seat)
        assert view.hand == state.hands[seat]
        for player in view.players:
            assert player.hand == (state.hands[seat] if player.seat == seat else None)
            assert player.hand_size == len(state.hands[player.seat])
    public = ENGINE.view(state, None)
    assert public.hand is None and public.legal_cards is None
    assert all(p.hand is None for p in public.players)
    dumped = public.model_dump_json()
    assert not any(card in dumped for hand in state.hands for card in hand)
    with pytest.raises(GameError, match=r"masti\.invalid_seat"):
        ENGINE.view(state, 4)


def test_view_of_a_round_in_progress() -> None:
    state = stacked(3, {0: ["A07"]}, ["E10"])
    state, _ = play(state, "A07", None)
    view = ENGINE.view(state, 2)
    assert view.lead == 0 and view.led_persona is not None and view.led_persona.value == "A"
    assert [(p.seat, p.card, p.bribe) for p in view.plays] == [(0, "A07", False), (1, None, True)]
    assert view.turn == 2 and view.awaiting == (2,)
    assert view.trump_deck_size == 15 and view.trump_deck_cards is None
    assert view.round == 1 and view.max_rounds == 16
    assert view.players[1].bribe_gems == 3


# ----------------------------------------------------------------------------- replay, 39 and errors
def test_replay_is_identical() -> None:
    def game() -> tuple[MastiState, list[Event]]:
        state = ENGINE.setup(5, MastiOptions(), "replay").state
        return run(state, bribe_policy({1: 2, 3: 4})[0])

    assert game() == game()


def test_errors_leave_the_state_unchanged() -> None:
    state = stacked(3, {0: ["A07"]})
    before = state.model_dump_json()
    tries = [
        (1, PlayCard(card="P02"), NotYourTurnError),
        (5, PlayCard(card="A07"), NotYourTurnError),
        (0, PlayCard(card=state.hands[1][0]), IllegalActionError),
        (0, SeedTrump(card="A07"), IllegalActionError),
        (0, LeaveCard(card="A07"), IllegalActionError),
        (0, {"kind": "bribe", "extra": 1}, IllegalActionError),
        (0, {"kind": "play", "card": "Z99"}, IllegalActionError),
        (0, "nonsense", IllegalActionError),
    ]
    for seat, action, error in tries:
        with pytest.raises(error):
            ENGINE.apply(state, seat, action)
        assert state.model_dump_json() == before
    with pytest.raises(GameError) as caught:
        ENGINE.apply(state, 0, SeedTrump(card="A07"))
    assert caught.value.code == "masti.wrong_phase"
    with pytest.raises(GameError) as caught:
        ENGINE.apply(state, 0, PlayCard(card=state.hands[1][0]))
    assert caught.value.code == "masti.card_not_in_hand"


def test_actions_as_json_dicts_are_accepted() -> None:
    state = stacked(3, {0: ["A07"]})
    step = ENGINE.apply(state, 0, {"kind": "play", "card": "A07"})
    assert of_kind(step.events, "card_played")[0].card == "A07"


def test_game_over_refuses_everything() -> None:
    state, _ = run(stacked(3))
    with pytest.raises(GameOverError):
        ENGINE.apply(state, 0, PlayCard(card="A07"))
    with pytest.raises(GameOverError):
        ENGINE.resign(state, 0)
    assert ENGINE.legal_actions(state, 0) == [] and not ENGINE.active_seats(state)


def test_error_codes_are_listed() -> None:
    source = Path(engine_module.__file__).read_text(encoding="utf-8")
    used = set(re.findall(r'"(masti\.[a-z_]+)"', source))
    assert used <= set(ERROR_CODES)
    assert used == {c for c in ERROR_CODES if c.startswith("masti.")}
