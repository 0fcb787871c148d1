"""The 6-player team game: seeding the trump deck, leaving cards, rebuilding (spec §2.3, §4, scenarios 32-35)."""

from __future__ import annotations

import pytest

from games.core.errors import GameError, IllegalActionError
from games.core.models import Event
from games.masti.models import LeaveCard, MastiOptions, Mode, Phase, PlayCard, SeedTrump
from games.masti.state import MastiState
from tests.games.masti.helpers import ENGINE, all_cards, of_kind, run, stacked


def seeded_game(first: int = 4) -> MastiState:
    state = ENGINE.setup(6, MastiOptions(first_seat=first), "six").state
    for seat in sorted(ENGINE.active_seats(state)):
        state = ENGINE.apply(state, seat, ENGINE.default_action(state, seat)).state
    return state


def test_setup_with_first_player_four() -> None:
    step = ENGINE.setup(6, MastiOptions(first_seat=4), "six")
    state = step.state
    assert [len(h) for h in state.hands] == [8, 9, 9, 9, 8, 8]
    assert state.phase is Phase.SEEDING and state.seeders == (1, 2, 3)
    assert ENGINE.active_seats(state) == {1, 2, 3}
    assert len(state.trump_deck) == 1 and state.trump is None
    assert state.teams == ((0, 3), (1, 4), (2, 5)) and state.mode is Mode.TEAMS
    assert state.bribe_gems == (4,) * 6
    assert len(set(all_cards(state))) == 52
    assert ENGINE.legal_actions(state, 2) == [SeedTrump(card=c) for c in state.hands[2]]
    assert ENGINE.legal_actions(state, 4) == []
    with pytest.raises(IllegalActionError, match=r"masti\.wrong_phase"):
        ENGINE.apply(state, 2, PlayCard(card=state.hands[2][0]))


def test_seeding_is_sealed_and_private() -> None:
    state = ENGINE.setup(6, MastiOptions(first_seat=4), "six").state
    card = state.hands[2][3]
    step = ENGINE.apply(state, 2, SeedTrump(card=card))
    state = step.state
    assert ENGINE.active_seats(state) == {1, 3}
    private, public = of_kind(step.events, "trump_seeded")
    assert (private.card, private.visible_to) == (card, frozenset({2}))
    assert (public.card, public.visible_to) == (None, None)
    assert ENGINE.view(state, 2).seeded_card == card
    assert ENGINE.view(state, 1).seeded_card is None and ENGINE.view(state, None).seeded_card is None
    assert [p.seeded for p in ENGINE.view(state, None).players] == [False, False, True, False, False, False]
    assert card not in ENGINE.view(state, None).model_dump_json()
    with pytest.raises(GameError, match=r"masti\.card_not_in_hand"):
        ENGINE.apply(state, 1, SeedTrump(card=card))
    for seat in (3, 1):
        step = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
        state = step.state
    assert [e.size for e in of_kind(step.events, "trump_deck_formed")] == [4]
    assert [len(h) for h in state.hands] == [8] * 6
    assert state.phase is Phase.PLAY and state.round == 1 and state.turn == 4
    assert len(state.trump_deck) == 3 and state.trump is not None
    assert all(len(h) + g == 12 for h, g in zip(state.hands, state.bribe_gems, strict=True))


def test_stacked_seeded_deck_keeps_order() -> None:
    state = stacked(6, first=4)
    leftover = state.trump_deck[0]
    seeds = {seat: state.hands[seat][-1] for seat in (1, 2, 3)}
    for seat in (3, 1, 2):
        state = ENGINE.apply(state, seat, SeedTrump(card=seeds[seat])).state
    assert state.trump == leftover
    assert state.trump_deck == (seeds[1], seeds[2], seeds[3])


def test_round_one_winner_takes_seven_and_leaves_one() -> None:
    state = seeded_game()
    for _ in range(6):
        (seat,) = ENGINE.active_seats(state)
        step = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
        state = step.state
    won = of_kind(step.events, "round_won")[0]
    assert state.phase is Phase.LEAVE and ENGINE.active_seats(state) == {won.winner}
    assert len(won.cards) == 7 and len(state.won[won.winner]) == 7
    view = ENGINE.view(state, None)
    assert view.leave_choices == won.cards and view.turn == won.winner
    outsider = next(c for c in state.hands[0])
    with pytest.raises(IllegalActionError, match=r"masti\.not_a_won_card"):
        ENGINE.apply(state, won.winner, LeaveCard(card=outsider))
    choice = won.cards[2]
    step = ENGINE.apply(state, won.winner, LeaveCard(card=choice))
    state = step.state
    assert [e.kind for e in step.events][:3] == ["card_left", "trump_revealed", "round_started"]
    assert len(state.won[won.winner]) == 6 and choice not in state.won[won.winner]
    assert state.left == (choice,) and ENGINE.view(state, None).left_cards == (choice,)
    assert state.round == 2 and state.trump is not None
    assert len(set(all_cards(state))) == 52


def test_rebuild_at_round_five_is_public_as_a_set() -> None:
    state = seeded_game()
    events: list[Event] = []
    while state.round < 5:
        (seat,) = ENGINE.active_seats(state)
        step = ENGINE.apply(state, seat, ENGINE.default_action(state, seat))
        state = step.state
        events.extend(step.events)
    left = [e.card for e in of_kind(events, "card_left")]
    assert len(left) == 4
    (rebuilt,) = of_kind(events, "trump_deck_rebuilt")
    assert rebuilt.round == 5 and rebuilt.cards == tuple(sorted(left, key=lambda c: (int(c[1:]), "APEU".index(c[0]))))
    view = ENGINE.view(state, None)
    assert view.trump is not None and view.trump_deck_cards is not None
    assert {view.trump, *view.trump_deck_cards} == set(left)
    assert view.trump_deck_size == 3 and view.left_cards == ()
    assert all(ENGINE.view(state, s).seeded_card is None for s in range(6))


def test_twelve_rounds_without_leaving_in_rounds_nine_to_twelve() -> None:
    def bribe_always(state: MastiState, seat: int):
        legal = ENGINE.legal_actions(state, seat)
        return legal[-1] if legal[-1].kind == "bribe" else None

    state, events = run(seeded_game(), bribe_always)
    assert len(of_kind(events, "round_won")) == 12
    assert len(of_kind(events, "card_left")) == 8
    kinds = [e.kind for e in events]
    last_left = len(kinds) - 1 - kinds[::-1].index("card_left")
    assert [e.round for e in of_kind(events[last_left:], "round_won")] == [9, 10, 11, 12]
    assert [e.round for e in of_kind(events, "trump_deck_rebuilt")] == [5, 9]
    assert state.phase is Phase.FINISHED and state.round == 12
    assert state.left == () and state.trump_deck == ()
    assert sum(len(w) for w in state.won) == 52  # every card, left ones included, was won in the end


def test_no_bribes_end_after_round_eight_and_left_cards_score_for_nobody() -> None:
    state, events = run(seeded_game())
    assert len(of_kind(events, "round_won")) == 8
    assert len(state.left) == 4
    assert sum(len(w) for w in state.won) == 48
    assert len(set(all_cards(state))) == 52
    assert state.result is not None
    scored = sorted(c for u in state.result for p in u.piles for c in p.cards)
    assert not set(scored) & set(state.left)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.teams == ((0, 3), (1, 4), (2, 5))
    for a, b in outcome.teams:
        assert outcome.ranks[a] == outcome.ranks[b]
