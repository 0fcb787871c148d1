"""Scenario tests with stacked decks for every line of ../shared/rules/coup.md, section by section."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest

from games.core.errors import GameError, GameOverError, IllegalActionError, NotYourTurnError
from games.core.models import Event, Outcome
from games.coup import engine as engine_module
from games.coup.engine import ERROR_CODES, CoupEngine, stacked_deck
from games.coup.models import (
    FULL_DECK,
    ActionBlocked,
    ActionDeclared,
    ActionFailed,
    ActionKind,
    Allow,
    Assassinate,
    Block,
    BlockDeclared,
    Card,
    CardDrafted,
    CardDrawn,
    CardsDealt,
    Challenge,
    ChallengeIssued,
    ClaimConceded,
    ClaimProven,
    CoinsRefunded,
    CoinsReturned,
    CoinsStolen,
    CoinsTaken,
    CollectTax,
    Concede,
    CoupOptions,
    DeckShuffled,
    DraftCard,
    ExchangeCards,
    ExchangeCompleted,
    ExchangeDrawn,
    GameStarted,
    GameWon,
    InfluenceLost,
    KeepCards,
    LaunchCoup,
    Phase,
    PlayerEliminated,
    PlayerResigned,
    ProveClaim,
    RevealCard,
    Steal,
    TakeForeignAid,
    TakeIncome,
    TurnStarted,
)
from games.coup.state import CoupState

E = CoupEngine()
T = TypeVar("T", bound=Event)
DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, CONTESSA = (
    Card.DUKE,
    Card.ASSASSIN,
    Card.CAPTAIN,
    Card.AMBASSADOR,
    Card.CONTESSA,
)


class Table:
    """A game under test: applies actions and keeps the whole event log."""

    def __init__(self, state: CoupState, events: tuple[Event, ...] = ()) -> None:
        self.state = state
        self.log: list[Event] = list(events)

    def act(self, seat: int, action: object) -> list[Event]:
        step = E.apply(self.state, seat, action)
        assert step.state.version == self.state.version + 1
        self.state = step.state
        self.log.extend(step.events)
        return list(step.events)

    def refuse(self, seat: int, action: object, code: str, error: type[GameError] = IllegalActionError) -> None:
        before = self.state
        with pytest.raises(error) as info:
            E.apply(self.state, seat, action)
        assert info.value.code == code
        assert self.state == before

    def allow_all(self) -> list[Event]:
        events: list[Event] = []
        while self.state.phase in (Phase.RESPOND_ACTION, Phase.RESPOND_BLOCK):
            events += self.act(min(E.active_seats(self.state)), Allow())
        return events

    def set(self, **update: Any) -> None:
        """Edit the state directly (coins, mostly) as if the table had got there by play."""
        state = self.state.model_copy(update=update)
        if state.phase is Phase.DECLARE:
            state = state.model_copy(update={"forced_coup": state.coins[state.turn] >= 10})
        self.state = state

    @property
    def coins(self) -> tuple[int, ...]:
        return self.state.coins

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return self.state.hands

    @property
    def active(self) -> frozenset[int]:
        return E.active_seats(self.state)

    def legal(self, seat: int) -> list[Any]:
        return E.legal_actions(self.state, seat)


def new(hands: Sequence[Sequence[Card]], court: Sequence[Card] = (), *, first: int = 0, **options: Any) -> Table:
    step = E.setup(len(hands), CoupOptions(deck=stacked_deck(hands, court), first_seat=first, **options), "test")
    return Table(step.state, step.events)


def outcome(state: CoupState) -> Outcome:
    result = E.outcome(state)
    assert result is not None
    return result


def of(events: Sequence[Event], kind: type[T]) -> list[T]:
    return [e for e in events if isinstance(e, kind)]


# ============================================================================ components and setup
class TestSetup:
    @pytest.mark.parametrize("seats", range(2, 7))
    def test_fifteen_cards_two_each_rest_is_court_deck(self, seats: int) -> None:
        state = E.setup(seats, CoupOptions(), "deal").state
        assert all(len(hand) == 2 for hand in state.hands)
        assert len(state.deck) == 15 - 2 * seats
        dealt = [card for hand in state.hands for card in hand]
        assert Counter(dealt + list(state.deck)) == Counter(FULL_DECK)
        assert Counter(FULL_DECK) == Counter(dict.fromkeys(Card, 3))

    @pytest.mark.parametrize("seats", range(3, 7))
    def test_two_coins_each(self, seats: int) -> None:
        assert E.setup(seats, CoupOptions(), "x").state.coins == (2,) * seats

    @pytest.mark.parametrize("seats", [0, 1, 7])
    def test_two_to_six_players(self, seats: int) -> None:
        with pytest.raises(GameError) as info:
            E.setup(seats, CoupOptions(), "x")
        assert info.value.code == "coup.invalid_seat_count"

    def test_stacked_deal(self) -> None:
        t = new([[DUKE, CONTESSA], [CAPTAIN, AMBASSADOR], [ASSASSIN, ASSASSIN]], [DUKE, CAPTAIN])
        assert t.hands == ((DUKE, CONTESSA), (CAPTAIN, AMBASSADOR), (ASSASSIN, ASSASSIN))
        assert t.state.deck[:2] == (DUKE, CAPTAIN)
        assert len(t.state.deck) == 9

    def test_setup_events_deal_privately(self) -> None:
        t = new([[DUKE, CONTESSA], [CAPTAIN, AMBASSADOR], [ASSASSIN, ASSASSIN]], first=1)
        started, *dealt, turn = t.log
        assert started == GameStarted(first_seat=1, draft=False, starting_coins=(2, 2, 2))
        assert dealt == [CardsDealt(seat=s, cards=t.hands[s], visible_to=frozenset({s})) for s in range(3)]
        assert turn == TurnStarted(seat=1)

    def test_treasury_is_unlimited(self) -> None:
        # RULING: more than the box's 51 coins may be in play.
        hands = [
            [DUKE, DUKE],
            [DUKE, ASSASSIN],
            [ASSASSIN, ASSASSIN],
            [CAPTAIN] * 2,
            [CAPTAIN, AMBASSADOR],
            [AMBASSADOR] * 2,
        ]
        t = new(hands)
        t.set(coins=(9,) * 6)
        for seat in range(6):
            t.act(seat, CollectTax())
            t.allow_all()
        assert sum(t.coins) == 72

    def test_first_player_is_random_and_reproducible(self) -> None:
        firsts = {E.setup(4, CoupOptions(), f"seed-{i}").state.first_seat for i in range(40)}
        assert firsts == {0, 1, 2, 3}
        assert E.setup(4, CoupOptions(), "same").state == E.setup(4, CoupOptions(), "same").state

    def test_rematch_winner_starts(self) -> None:
        # RULING: in a rematch the previous winner starts: the table passes first_seat.
        state = E.setup(4, CoupOptions(first_seat=2), "x").state
        assert state.first_seat == state.turn == 2
        assert E.active_seats(state) == {2}

    def test_bad_options(self) -> None:
        for options, code in [
            (CoupOptions(first_seat=3), "coup.invalid_first_seat"),
            (CoupOptions(deck=(DUKE,) * 15), "coup.invalid_deck"),
            (CoupOptions(deck=FULL_DECK[:14]), "coup.invalid_deck"),
        ]:
            with pytest.raises(GameError) as info:
                E.setup(3, options, "x")
            assert info.value.code == code


class TestTwoPlayers:
    def test_first_player_starts_with_one_coin(self) -> None:
        assert new([[DUKE, DUKE], [CAPTAIN, CAPTAIN]], first=1).coins == (2, 1)
        assert new([[DUKE, DUKE], [CAPTAIN, CAPTAIN]], first=0).coins == (1, 2)

    def test_draft_only_for_two_players(self) -> None:
        with pytest.raises(GameError) as info:
            E.setup(3, CoupOptions(draft=True), "x")
        assert info.value.code == "coup.draft_needs_two_players"

    def test_draft_both_pick_at_once_then_third_set_is_dealt(self) -> None:
        # Stacked: the third set is the characters in order of first appearance in the deck.
        deck = stacked_deck([[CAPTAIN, DUKE], [CAPTAIN, AMBASSADOR]], [CONTESSA, ASSASSIN])
        t = Table(*E.setup(2, CoupOptions(draft=True, deck=deck, first_seat=1), "d"))
        assert t.state.phase is Phase.DRAFT
        assert t.active == {0, 1}
        assert t.coins == (2, 1)
        assert E.view(t.state, 0).choices == tuple(Card)
        assert E.view(t.state, None).choices is None
        assert t.legal(1) == [DraftCard(card=c) for c in Card]
        events = t.act(1, DraftCard(card=ASSASSIN))
        assert events == [
            CardDrafted(seat=1, card=ASSASSIN, visible_to=frozenset({1})),
            CardDrafted(seat=1, card=None),
        ]
        assert t.active == {0}
        assert E.view(t.state, 1).choices is None
        t.refuse(1, DraftCard(card=DUKE), "core.not_your_turn", NotYourTurnError)
        events = t.act(0, DraftCard(card=ASSASSIN))
        # Third set: captain, duke, ambassador, contessa, assassin. First player (1) gets captain.
        assert t.hands == ((ASSASSIN, DUKE), (ASSASSIN, CAPTAIN))
        assert t.state.deck == (AMBASSADOR, CONTESSA, ASSASSIN)
        assert of(events, CardsDealt) == [
            CardsDealt(seat=1, cards=(CAPTAIN,), visible_to=frozenset({1})),
            CardsDealt(seat=0, cards=(DUKE,), visible_to=frozenset({0})),
        ]
        assert events[-1] == TurnStarted(seat=1)
        assert E.view(t.state, None).phase is Phase.DECLARE
        assert t.active == {1}
        # The other eight cards of the first two sets left the game.
        assert sum(map(len, t.hands)) + len(t.state.deck) == 7

    def test_random_draft_deals_from_a_full_set(self) -> None:
        for i in range(10):
            t = Table(*E.setup(2, CoupOptions(draft=True), f"draft-{i}"))
            t.act(0, DraftCard(card=DUKE))
            t.act(1, DraftCard(card=DUKE))
            assert t.hands[0][0] == t.hands[1][0] == DUKE
            third = [t.hands[0][1], t.hands[1][1], *t.state.deck]
            assert sorted(third) == sorted(Card)
            assert of(t.log, DeckShuffled) == [DeckShuffled(size=5)]

    def test_draft_timeout_picks_a_random_card(self) -> None:
        state = E.setup(2, CoupOptions(draft=True), "d").state
        action = E.default_action(state, 0)
        assert isinstance(action, DraftCard)
        assert action == E.default_action(state, 0)


# ============================================================================ turn
class TestTurn:
    def test_declare_and_pay_first(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        t.set(coins=(5, 2, 2))
        events = t.act(0, Assassinate(target=1))
        assert events == [ActionDeclared(actor=0, action=ActionKind.ASSASSINATE, target=1, claim=ASSASSIN, cost=3)]
        assert t.coins == (2, 2, 2)
        assert t.state.phase is Phase.RESPOND_ACTION

    def test_passing_is_impossible(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        assert Allow() not in t.legal(0)
        t.refuse(0, Allow(), "coup.wrong_phase")
        t.refuse(0, Concede(), "coup.wrong_phase")

    def test_turn_passes_clockwise_to_next_live_player(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA], [AMBASSADOR, AMBASSADOR]], first=2)
        t.act(2, TakeIncome())
        assert t.state.turn == 3
        t.act(3, TakeIncome())
        assert t.state.turn == 0
        t.set(eliminated=(1,), hands=(t.hands[0], (), t.hands[2], t.hands[3]), revealed=((), (CAPTAIN,) * 2, (), ()))
        t.act(0, TakeIncome())
        assert t.state.turn == 2

    def test_every_action_is_legal_when_affordable(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        t.set(coins=(7, 2, 2))
        assert t.legal(0) == [
            TakeIncome(),
            TakeForeignAid(),
            LaunchCoup(target=1),
            LaunchCoup(target=2),
            CollectTax(),
            Assassinate(target=1),
            Assassinate(target=2),
            Steal(target=1),
            Steal(target=2),
            ExchangeCards(),
        ]
        assert t.legal(1) == []


# ============================================================================ actions
class TestActions:
    def test_income(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        events = t.act(0, TakeIncome())
        assert events == [
            ActionDeclared(actor=0, action=ActionKind.INCOME),
            CoinsTaken(seat=0, amount=1, action=ActionKind.INCOME),
            TurnStarted(seat=1),
        ]
        assert t.coins == (3, 2, 2)

    def test_foreign_aid_unchallengeable_blockable_by_anyone_claiming_duke(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        t.act(0, TakeForeignAid())
        assert t.active == {1, 2}
        assert t.legal(2) == [Block(card=DUKE), Allow()]
        t.refuse(1, Challenge(), "coup.cannot_challenge")
        t.refuse(1, Block(card=CONTESSA), "coup.wrong_block_card")
        t.act(1, Allow())
        t.act(2, Block(card=DUKE))
        assert t.state.phase is Phase.RESPOND_BLOCK
        assert t.active == {0, 1}
        events = t.allow_all()
        assert of(events, ActionBlocked) == [ActionBlocked(actor=0, blocker=2, card=DUKE)]
        assert t.coins == (2, 2, 2)

    def test_foreign_aid_allowed(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        t.act(0, TakeForeignAid())
        events = t.allow_all()
        assert of(events, CoinsTaken) == [CoinsTaken(seat=0, amount=2, action=ActionKind.FOREIGN_AID)]
        assert t.coins == (4, 2, 2)

    def test_coup_costs_seven_unblockable_unchallengeable(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, AMBASSADOR], [CONTESSA, CONTESSA]])
        t.set(coins=(7, 2, 2))
        t.act(0, LaunchCoup(target=1))
        assert t.coins == (0, 2, 2)
        assert t.state.phase is Phase.LOSE_INFLUENCE
        assert t.active == {1}
        assert t.legal(1) == [RevealCard(card=AMBASSADOR), RevealCard(card=CAPTAIN)]
        t.act(1, RevealCard(card=CAPTAIN))
        assert t.hands[1] == (AMBASSADOR,)
        assert t.state.revealed[1] == (CAPTAIN,)
        assert t.state.turn == 1

    def test_tax_claims_duke_and_cannot_be_blocked(self) -> None:
        t = new([[CAPTAIN, CAPTAIN], [DUKE, DUKE], [CONTESSA, CONTESSA]])
        t.act(0, CollectTax())
        assert t.legal(1) == [Challenge(), Allow()]
        t.refuse(1, Block(card=DUKE), "coup.cannot_block")
        t.allow_all()
        assert t.coins == (5, 2, 2)

    def test_assassinate_only_target_blocks_with_contessa(self) -> None:
        t = new([[ASSASSIN, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, AMBASSADOR]])
        t.set(coins=(3, 2, 2))
        t.act(0, Assassinate(target=2))
        assert t.legal(1) == [Challenge(), Allow()]
        assert t.legal(2) == [Challenge(), Block(card=CONTESSA), Allow()]
        t.refuse(1, Block(card=CONTESSA), "coup.cannot_block")
        t.refuse(2, Block(card=DUKE), "coup.wrong_block_card")
        t.allow_all()
        assert t.state.phase is Phase.LOSE_INFLUENCE and t.state.losing == 2
        t.act(2, RevealCard(card=AMBASSADOR))
        assert t.coins == (0, 2, 2)
        assert t.hands[2] == (CONTESSA,)

    @pytest.mark.parametrize(("target_coins", "stolen"), [(5, 2), (2, 2), (1, 1), (0, 0)])
    def test_steal_two_or_what_there_is(self, target_coins: int, stolen: int) -> None:
        t = new([[CAPTAIN, DUKE], [DUKE, DUKE], [CONTESSA, CONTESSA]])
        t.set(coins=(2, target_coins, 2))
        t.act(0, Steal(target=1))
        events = t.allow_all()
        assert of(events, CoinsStolen) == [CoinsStolen(actor=0, target=1, amount=stolen)]
        assert t.coins == (2 + stolen, target_coins - stolen, 2)

    def test_steal_blocked_by_target_with_captain_or_ambassador(self) -> None:
        t = new([[CAPTAIN, DUKE], [DUKE, DUKE], [CONTESSA, CONTESSA]])
        t.act(0, Steal(target=1))
        assert t.legal(1) == [Challenge(), Block(card=CAPTAIN), Block(card=AMBASSADOR), Allow()]
        assert Block(card=CAPTAIN) not in t.legal(2)
        t.refuse(1, Block(card=CONTESSA), "coup.wrong_block_card")
        t.act(1, Block(card=AMBASSADOR))
        t.allow_all()
        assert t.coins == (2, 2, 2)

    def test_exchange_cannot_be_blocked(self) -> None:
        t = new([[AMBASSADOR, DUKE], [DUKE, DUKE], [CONTESSA, CONTESSA]], [CAPTAIN, ASSASSIN])
        t.act(0, ExchangeCards())
        assert t.legal(1) == [Challenge(), Allow()]
        t.refuse(1, Block(card=AMBASSADOR), "coup.cannot_block")
        t.allow_all()
        assert t.state.phase is Phase.EXCHANGE

    def test_ten_coins_must_coup(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN]], first=0)
        for _ in range(3):
            t.act(0, CollectTax())
            t.allow_all()
            t.act(1, TakeIncome())
        assert t.coins == (10, 5)
        assert t.state.forced_coup
        assert t.log[-1] == TurnStarted(seat=0, forced_coup=True)
        assert E.view(t.state, None).forced_coup
        assert t.legal(0) == [LaunchCoup(target=1)]
        t.refuse(0, CollectTax(), "coup.must_coup")
        t.refuse(0, TakeIncome(), "coup.must_coup")
        t.act(0, LaunchCoup(target=1))
        assert E.view(t.state, 0).players[0].coins == 3

    def test_costs_must_be_affordable(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        t.set(coins=(6, 2, 2))
        t.refuse(0, LaunchCoup(target=1), "coup.not_enough_coins")
        assert LaunchCoup(target=1) not in t.legal(0)
        t.set(coins=(2, 2, 2))
        t.refuse(0, Assassinate(target=1), "coup.not_enough_coins")
        assert not any(isinstance(a, Assassinate) for a in t.legal(0))

    @pytest.mark.parametrize("action", [LaunchCoup, Assassinate, Steal])
    def test_target_alive_and_not_actor(self, action: type[LaunchCoup | Assassinate | Steal]) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        t.set(coins=(7, 2, 2), eliminated=(2,), hands=(t.hands[0], t.hands[1], ()))
        for target in (0, 2, 3, -1):
            t.refuse(0, action(target=target), "coup.invalid_target")
            assert action(target=target) not in t.legal(0)


# ============================================================================ challenges
class TestChallenges:
    def test_anyone_may_challenge_even_if_not_targeted(self) -> None:
        t = new([[CAPTAIN, DUKE], [DUKE, DUKE], [CONTESSA, ASSASSIN]])
        t.act(0, Steal(target=1))
        t.act(2, Challenge())
        assert t.state.phase is Phase.PROVE
        assert t.active == {0}
        assert E.view(t.state, None).challenge is not None

    def test_eliminated_player_cannot_challenge(self) -> None:
        t = new([[CAPTAIN, DUKE], [DUKE, DUKE], [CONTESSA, ASSASSIN]])
        t.set(eliminated=(2,), hands=(t.hands[0], t.hands[1], ()))
        t.act(0, CollectTax())
        assert t.active == {1}
        t.refuse(2, Challenge(), "core.not_your_turn", NotYourTurnError)

    def test_cannot_show_claim_fails_cost_refunded(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CONTESSA], [CONTESSA, CONTESSA]])
        t.set(coins=(3, 2, 2))
        t.act(0, Assassinate(target=1))
        t.act(2, Challenge())
        assert t.legal(0) == [Concede()]
        t.refuse(0, ProveClaim(), "coup.card_not_held")
        events = t.act(0, Concede())
        assert events[:3] == [
            ClaimConceded(claimant=0, card=ASSASSIN),
            CoinsRefunded(seat=0, amount=3),
            ActionFailed(actor=0, action=ActionKind.ASSASSINATE),
        ]
        assert t.state.phase is Phase.LOSE_INFLUENCE and t.state.losing == 0
        t.act(0, RevealCard(card=DUKE))
        assert t.coins == (3, 2, 2)
        assert t.hands[1] == (CAPTAIN, CONTESSA)
        assert t.state.turn == 1

    def test_will_not_show_is_allowed(self) -> None:
        t = new([[DUKE, CAPTAIN], [CAPTAIN, CONTESSA], [CONTESSA, CONTESSA]])
        t.act(0, CollectTax())
        t.act(1, Challenge())
        assert t.legal(0) == [ProveClaim(), Concede()]
        t.act(0, Concede())
        t.act(0, RevealCard(card=CAPTAIN))
        assert t.coins == (2, 2, 2)

    def test_shown_card_is_shuffled_back_and_replaced_then_action_goes_ahead(self) -> None:
        t = new([[DUKE, CAPTAIN], [CAPTAIN, CONTESSA], [CONTESSA, AMBASSADOR]], [ASSASSIN])
        t.act(0, CollectTax())
        t.act(2, Challenge())
        events = t.act(0, ProveClaim())
        assert events[:3] == [
            ClaimProven(claimant=0, card=DUKE),
            DeckShuffled(size=10),
            CardDrawn(seat=0, card=ASSASSIN, visible_to=frozenset({0})),
        ]
        # Stacked deck: the shown card went to the bottom, the replacement came off the top.
        assert t.state.deck[-1] == DUKE
        assert sorted(t.hands[0]) == sorted([CAPTAIN, ASSASSIN])
        assert t.state.phase is Phase.LOSE_INFLUENCE and t.state.losing == 2
        events = t.act(2, RevealCard(card=AMBASSADOR))
        assert of(events, CoinsTaken) == [CoinsTaken(seat=0, amount=3, action=ActionKind.TAX)]
        assert t.coins == (5, 2, 2)

    def test_unstacked_replacement_keeps_the_deck(self) -> None:
        claims = {DUKE: CollectTax(), ASSASSIN: Assassinate(target=1), CAPTAIN: Steal(target=1)}
        states = (E.setup(3, CoupOptions(first_seat=0), f"shuffle-{i}").state for i in range(50))
        state = next(s for s in states if s.hands[0][0] in claims)
        action = claims[state.hands[0][0]]
        t = Table(state.model_copy(update={"coins": (3, 2, 2)}))
        t.act(0, action)
        t.act(1, Challenge())
        t.act(0, ProveClaim())
        assert len(t.state.deck) == 9
        assert Counter([*t.hands[0], *t.hands[1], *t.hands[2], *t.state.deck]) == Counter(FULL_DECK)

    def test_first_challenge_wins(self) -> None:
        # RULING: later challengers are told the claim is already being challenged.
        t = new([[DUKE, CAPTAIN], [CAPTAIN, CONTESSA], [CONTESSA, AMBASSADOR]])
        t.act(0, CollectTax())
        t.act(2, Challenge())
        t.refuse(1, Challenge(), "coup.already_challenged", NotYourTurnError)
        assert t.state.challenge is not None and t.state.challenge.challenger == 2

    def test_no_challenge_after_the_game_moved_on(self) -> None:
        t = new([[DUKE, CAPTAIN], [CAPTAIN, CONTESSA], [CONTESSA, AMBASSADOR]])
        t.act(0, CollectTax())
        t.allow_all()
        t.refuse(2, Challenge(), "core.not_your_turn", NotYourTurnError)
        t.refuse(1, Challenge(), "coup.wrong_phase")

    def test_proven_claim_cannot_be_challenged_again(self) -> None:
        t = new([[ASSASSIN, CAPTAIN], [CAPTAIN, CONTESSA], [DUKE, AMBASSADOR]])
        t.set(coins=(3, 2, 2))
        t.act(0, Assassinate(target=1))
        t.act(2, Challenge())
        t.act(0, ProveClaim())
        t.act(2, RevealCard(card=DUKE))
        # The target may still block, but no longer challenge.
        assert t.active == {1}
        assert t.legal(1) == [Block(card=CONTESSA), Allow()]
        t.refuse(1, Challenge(), "coup.cannot_challenge")

    def test_challenge_of_block_fails(self) -> None:
        t = new([[CAPTAIN, DUKE], [AMBASSADOR, CONTESSA], [CONTESSA, AMBASSADOR]], [DUKE])
        t.act(0, Steal(target=1))
        t.act(1, Block(card=AMBASSADOR))
        t.act(2, Challenge())
        events = t.act(1, ProveClaim())
        assert of(events, ClaimProven) == [ClaimProven(claimant=1, card=AMBASSADOR)]
        assert of(events, CardDrawn) == [CardDrawn(seat=1, card=DUKE, visible_to=frozenset({1}))]
        events = t.act(2, RevealCard(card=CONTESSA))
        assert of(events, ActionBlocked) == [ActionBlocked(actor=0, blocker=1, card=AMBASSADOR)]
        assert t.coins == (2, 2, 2)


# ============================================================================ blocks
class TestBlocks:
    def test_block_window_is_everyone_but_the_blocker(self) -> None:
        t = new([[CAPTAIN, DUKE], [AMBASSADOR, CONTESSA], [CONTESSA, AMBASSADOR], [DUKE, DUKE]])
        t.act(0, TakeForeignAid())
        t.act(2, Block(card=DUKE))
        assert t.active == {0, 1, 3}
        assert t.legal(0) == [Challenge(), Allow()]
        t.refuse(2, Allow(), "core.not_your_turn", NotYourTurnError)

    def test_block_cannot_be_blocked(self) -> None:
        t = new([[CAPTAIN, DUKE], [AMBASSADOR, CONTESSA], [CONTESSA, AMBASSADOR]])
        t.act(0, TakeForeignAid())
        t.act(1, Block(card=DUKE))
        t.refuse(2, Block(card=DUKE), "coup.cannot_block")

    def test_blocked_assassination_is_not_refunded(self) -> None:
        t = new([[ASSASSIN, DUKE], [CONTESSA, CAPTAIN], [DUKE, AMBASSADOR]])
        t.set(coins=(3, 2, 2))
        t.act(0, Assassinate(target=1))
        t.act(2, Allow())
        t.act(1, Block(card=CONTESSA))
        events = t.allow_all()
        assert of(events, ActionBlocked) == [ActionBlocked(actor=0, blocker=1, card=CONTESSA)]
        assert not of(events, CoinsRefunded)
        assert t.coins == (0, 2, 2)
        assert t.hands[1] == (CONTESSA, CAPTAIN)

    def test_caught_bluffed_block_lets_the_action_resolve(self) -> None:
        t = new([[CAPTAIN, DUKE], [CONTESSA, ASSASSIN], [DUKE, AMBASSADOR]])
        t.set(coins=(2, 4, 2))
        t.act(0, Steal(target=1))
        t.act(1, Block(card=CAPTAIN))
        t.act(0, Challenge())
        assert t.legal(1) == [Concede()]
        t.act(1, Concede())
        events = t.act(1, RevealCard(card=ASSASSIN))
        assert of(events, CoinsStolen) == [CoinsStolen(actor=0, target=1, amount=2)]
        assert t.coins == (4, 2, 2)


# ============================================================================ response window
class TestResponseWindow:
    def test_window_for_every_other_live_player_closes_when_all_allowed(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA], [AMBASSADOR, AMBASSADOR]], first=1)
        t.act(1, CollectTax())
        assert t.active == {0, 2, 3}
        assert E.view(t.state, None).awaiting == (0, 2, 3)
        t.act(3, Allow())
        assert t.active == {0, 2}
        t.refuse(3, Allow(), "core.not_your_turn", NotYourTurnError)
        t.act(0, Allow())
        events = t.act(2, Allow())
        assert of(events, CoinsTaken) == [CoinsTaken(seat=1, amount=3, action=ActionKind.TAX)]
        assert t.state.turn == 2

    def test_window_closes_on_first_block(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA], [AMBASSADOR, AMBASSADOR]])
        t.act(0, Steal(target=2))
        t.act(2, Block(card=CAPTAIN))
        assert t.state.phase is Phase.RESPOND_BLOCK
        # The action's claim can no longer be challenged, only the block's.
        assert t.state.challenge is None
        t.act(1, Challenge())
        assert t.state.challenge is not None and t.state.challenge.claimant == 2

    def test_survived_challenge_opens_target_only_window_when_blockable(self) -> None:
        t = new([[CAPTAIN, DUKE], [AMBASSADOR, AMBASSADOR], [CONTESSA, CONTESSA]])
        t.act(0, Steal(target=1))
        t.act(2, Challenge())
        t.act(0, ProveClaim())
        t.act(2, RevealCard(card=CONTESSA))
        assert t.state.phase is Phase.RESPOND_ACTION and t.active == {1}
        t.act(1, Block(card=AMBASSADOR))
        assert t.active == {0, 2}

    def test_survived_challenge_of_unblockable_action_resolves_at_once(self) -> None:
        t = new([[DUKE, DUKE], [AMBASSADOR, AMBASSADOR], [CONTESSA, CAPTAIN]])
        t.act(0, CollectTax())
        t.act(2, Challenge())
        t.act(0, ProveClaim())
        events = t.act(2, RevealCard(card=CAPTAIN))
        assert of(events, CoinsTaken)
        assert t.state.phase is Phase.DECLARE and t.state.turn == 1

    def test_timer_counts_as_allow(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        t.act(0, TakeForeignAid())
        assert E.default_action(t.state, 1) == Allow()
        t.act(1, Allow())
        t.act(2, Block(card=DUKE))
        assert E.default_action(t.state, 0) == Allow()


# ============================================================================ losing influence
class TestLosingInfluence:
    def test_loser_chooses_and_revealed_cards_stay_face_up(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, AMBASSADOR], [CONTESSA, CONTESSA]])
        t.set(coins=(7, 2, 2))
        t.act(0, LaunchCoup(target=1))
        t.act(1, RevealCard(card=AMBASSADOR))
        assert E.view(t.state, None).players[1].revealed == (AMBASSADOR,)
        assert E.view(t.state, None).players[1].hidden_count == 1

    def test_same_two_cards_still_ask(self) -> None:
        # Skipping the question would tell the table that both cards are the same.
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        t.set(coins=(7, 2, 2))
        t.act(0, LaunchCoup(target=1))
        assert t.state.phase is Phase.LOSE_INFLUENCE
        assert t.legal(1) == [RevealCard(card=CAPTAIN)]
        t.refuse(1, RevealCard(card=DUKE), "coup.card_not_held")

    def test_last_card_is_revealed_at_once(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, AMBASSADOR]])
        t.set(coins=(7, 3, 2), hands=(t.hands[0], (CAPTAIN,), t.hands[2]), revealed=((), (DUKE,), ()))
        events = t.act(0, LaunchCoup(target=1))
        assert events[1:] == [
            InfluenceLost(seat=1, card=CAPTAIN),
            PlayerEliminated(seat=1),
            CoinsReturned(seat=1, amount=3),
            TurnStarted(seat=2),
        ]
        assert t.coins == (0, 0, 2)
        assert t.state.eliminated == (1,)
        assert not E.view(t.state, None).players[1].alive

    def test_timer_reveals_a_random_face_down_card(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, AMBASSADOR], [CONTESSA, CONTESSA]])
        t.set(coins=(7, 2, 2))
        t.act(0, LaunchCoup(target=1))
        picks = set()
        for seed in range(30):
            state = t.state.model_copy(update={"seed": f"timer-{seed}"})
            action = E.default_action(state, 1)
            assert action == E.default_action(state, 1)
            picks.add(action)
        assert picks == {RevealCard(card=CAPTAIN), RevealCard(card=AMBASSADOR)}

    def test_captain_still_steals_from_caught_bluffer_who_is_out(self) -> None:
        # RULING: the action resolves first, then the eliminated player's coins go back.
        t = new([[CAPTAIN, DUKE], [CONTESSA, DUKE], [DUKE, AMBASSADOR]])
        t.set(coins=(2, 3, 2), hands=(t.hands[0], (CONTESSA,), t.hands[2]), revealed=((), (DUKE,), ()))
        t.act(0, Steal(target=1))
        t.act(2, Allow())
        t.act(1, Block(card=AMBASSADOR))
        t.act(0, Challenge())
        events = t.act(1, Concede())
        assert [type(e) for e in events] == [
            ClaimConceded,
            InfluenceLost,
            PlayerEliminated,
            CoinsStolen,
            CoinsReturned,
            TurnStarted,
        ]
        assert of(events, CoinsStolen) == [CoinsStolen(actor=0, target=1, amount=2)]
        assert of(events, CoinsReturned) == [CoinsReturned(seat=1, amount=1)]
        assert t.coins == (4, 0, 2)
        assert t.state.turn == 2

    def test_assassination_of_a_player_already_out_does_nothing(self) -> None:
        t = new([[ASSASSIN, DUKE], [CONTESSA, DUKE], [DUKE, AMBASSADOR]])
        t.set(coins=(3, 2, 2), hands=(t.hands[0], (CONTESSA,), t.hands[2]), revealed=((), (DUKE,), ()))
        t.act(0, Assassinate(target=1))
        t.act(1, Challenge())
        events = t.act(0, ProveClaim())
        assert of(events, PlayerEliminated) == [PlayerEliminated(seat=1)]
        assert of(events, ActionFailed) == [ActionFailed(actor=0, action=ActionKind.ASSASSINATE)]
        assert not of(events, CoinsRefunded)
        assert t.coins == (0, 0, 2)

    def test_double_loss_failed_challenge_of_the_assassin(self) -> None:
        t = new([[ASSASSIN, DUKE], [CONTESSA, CAPTAIN], [DUKE, AMBASSADOR]])
        t.set(coins=(3, 2, 2))
        t.act(0, Assassinate(target=1))
        t.act(1, Challenge())
        t.act(0, ProveClaim())
        t.act(1, RevealCard(card=CAPTAIN))
        assert t.active == {1}  # the target may still block
        events = t.act(1, Allow())
        assert of(events, InfluenceLost) == [InfluenceLost(seat=1, card=CONTESSA)]
        assert t.state.eliminated == (1,)

    def test_double_loss_caught_contessa_bluff(self) -> None:
        t = new([[ASSASSIN, DUKE], [DUKE, CAPTAIN], [DUKE, AMBASSADOR]])
        t.set(coins=(3, 2, 2))
        t.act(0, Assassinate(target=1))
        t.act(1, Block(card=CONTESSA))
        t.act(2, Challenge())
        t.act(1, Concede())
        events = t.act(1, RevealCard(card=DUKE))
        assert of(events, InfluenceLost) == [InfluenceLost(seat=1, card=DUKE), InfluenceLost(seat=1, card=CAPTAIN)]
        assert t.state.eliminated == (1,)


# ============================================================================ exchange
class TestExchange:
    def test_draw_two_keep_two_rest_goes_back(self) -> None:
        t = new([[AMBASSADOR, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]], [ASSASSIN, DUKE, CONTESSA])
        t.act(0, ExchangeCards())
        events = t.allow_all()
        assert of(events, ExchangeDrawn) == [ExchangeDrawn(seat=0, cards=(ASSASSIN, DUKE), visible_to=frozenset({0}))]
        assert t.state.phase is Phase.EXCHANGE and t.active == {0}
        assert len(t.state.deck) == 7
        assert E.view(t.state, 0).choices == (AMBASSADOR, DUKE, ASSASSIN, DUKE)
        assert E.view(t.state, 1).choices is None
        assert t.legal(0) == [
            KeepCards(cards=c)
            for c in [
                (AMBASSADOR, ASSASSIN),
                (AMBASSADOR, DUKE),
                (ASSASSIN, DUKE),
                (DUKE, DUKE),
            ]
        ]
        t.refuse(0, KeepCards(cards=(DUKE,)), "coup.wrong_keep_count")
        t.refuse(0, KeepCards(cards=(DUKE, DUKE, ASSASSIN)), "coup.wrong_keep_count")
        t.refuse(0, KeepCards(cards=(CAPTAIN, DUKE)), "coup.cards_not_available")
        t.refuse(0, KeepCards(cards=(ASSASSIN, ASSASSIN)), "coup.cards_not_available")
        events = t.act(0, KeepCards(cards=(DUKE, ASSASSIN)))  # any order is accepted
        assert events[:3] == [
            ExchangeCompleted(seat=0, kept=(ASSASSIN, DUKE), returned=(AMBASSADOR, DUKE), visible_to=frozenset({0})),
            ExchangeCompleted(seat=0),
            DeckShuffled(size=9),
        ]
        assert t.hands[0] == (ASSASSIN, DUKE)
        assert t.state.deck[-2:] == (AMBASSADOR, DUKE)
        assert t.state.turn == 1

    def test_single_influence_keeps_one_of_three(self) -> None:
        t = new([[AMBASSADOR, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]], [ASSASSIN, DUKE])
        t.set(hands=((AMBASSADOR,), t.hands[1], t.hands[2]), revealed=((DUKE,), (), ()))
        t.act(0, ExchangeCards())
        t.allow_all()
        assert t.legal(0) == [KeepCards(cards=(c,)) for c in (AMBASSADOR, ASSASSIN, DUKE)]
        t.refuse(0, KeepCards(cards=(AMBASSADOR, DUKE)), "coup.wrong_keep_count")
        t.act(0, KeepCards(cards=(DUKE,)))
        assert t.hands[0] == (DUKE,)
        assert len(t.state.deck) == 9

    def test_replacement_is_drawn_before_the_exchange_draw(self) -> None:
        t = new([[AMBASSADOR, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]], [ASSASSIN, DUKE, CONTESSA])
        t.act(0, ExchangeCards())
        t.act(1, Challenge())
        events = t.act(0, ProveClaim())
        assert of(events, CardDrawn) == [CardDrawn(seat=0, card=ASSASSIN, visible_to=frozenset({0}))]
        events = t.act(1, RevealCard(card=CAPTAIN))
        assert of(events, ExchangeDrawn)[0].cards == (DUKE, CONTESSA)
        assert sorted(E.view(t.state, 0).choices or ()) == sorted([DUKE, ASSASSIN, DUKE, CONTESSA])

    def test_timer_keeps_the_original_cards(self) -> None:
        t = new([[AMBASSADOR, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]], [ASSASSIN, DUKE])
        t.act(0, ExchangeCards())
        t.allow_all()
        action = E.default_action(t.state, 0)
        assert action == KeepCards(cards=(AMBASSADOR, DUKE))
        t.act(0, action)
        assert sorted(t.hands[0]) == [AMBASSADOR, DUKE]

    def test_unstacked_exchange_returns_and_shuffles(self) -> None:
        state = E.setup(3, CoupOptions(first_seat=0), "exchange").state
        t = Table(state)
        t.act(0, ExchangeCards())
        t.allow_all()
        pool = t.hands[0] + t.state.drawn
        t.act(0, t.legal(0)[-1])
        assert len(t.state.deck) == 9
        assert Counter([*t.hands[0], *t.state.deck, *t.hands[1], *t.hands[2]]) == Counter(FULL_DECK)
        assert Counter(t.hands[0]) <= Counter(pool)


# ============================================================================ end
class TestEnd:
    def test_last_player_wins_ranks_reverse_elimination(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA], [AMBASSADOR, AMBASSADOR]])
        t.set(hands=((DUKE,), (CAPTAIN,), (CONTESSA,), (AMBASSADOR,)), coins=(7, 7, 7, 7))
        t.act(0, LaunchCoup(target=2))  # seat 2 out first
        assert E.outcome(t.state) is None
        t.act(1, LaunchCoup(target=0))  # seat 0 out second
        events = t.act(3, LaunchCoup(target=1))
        assert events[-1] == GameWon(seat=3)
        assert t.state.phase is Phase.OVER
        assert t.state.winner == 3
        assert t.active == frozenset()
        assert outcome(t.state).ranks == (2, 1, 3, 0)
        view = E.view(t.state, None)
        assert view.winner == 3 and view.eliminated == (2, 0, 1)
        t.refuse(3, TakeIncome(), "core.game_over", GameOverError)
        with pytest.raises(GameOverError):
            E.default_action(t.state, 3)
        assert t.legal(3) == []


# ============================================================================ hidden and public information
class TestInformation:
    def test_views_show_only_own_hand(self) -> None:
        t = new([[DUKE, CONTESSA], [CAPTAIN, AMBASSADOR], [ASSASSIN, ASSASSIN]])
        for seat in range(3):
            view = E.view(t.state, seat)
            assert view.players[seat].hand == t.hands[seat]
            assert all(p.hand is None for p in view.players if p.seat != seat)
        public = E.view(t.state, None)
        assert all(p.hand is None for p in public.players)
        assert public.deck_size == 9
        assert [p.coins for p in public.players] == [2, 2, 2]

    def test_kept_and_returned_cards_are_never_public(self) -> None:
        t = new([[AMBASSADOR, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]], [ASSASSIN, DUKE])
        t.act(0, ExchangeCards())
        t.allow_all()
        t.act(0, KeepCards(cards=(ASSASSIN, DUKE)))
        public = [e for e in t.log if e.visible_to is None]
        assert ExchangeCompleted(seat=0) in public
        assert not [e for e in public if isinstance(e, ExchangeDrawn | CardDrawn | CardsDealt)]

    def test_claims_challenges_blocks_and_outcomes_are_public(self) -> None:
        t = new([[CAPTAIN, DUKE], [AMBASSADOR, CONTESSA], [CONTESSA, AMBASSADOR]], [DUKE])
        t.act(0, Steal(target=1))
        t.act(1, Block(card=AMBASSADOR))
        t.act(2, Challenge())
        t.act(1, ProveClaim())
        t.act(2, RevealCard(card=CONTESSA))
        private = [e for e in t.log if e.visible_to is not None]
        expected: set[type[Event]] = {CardsDealt, CardDrawn}
        assert {type(e) for e in private} == expected
        public = [type(e) for e in t.log if e.visible_to is None]
        assert public == [
            GameStarted,
            TurnStarted,
            ActionDeclared,
            BlockDeclared,
            ChallengeIssued,
            ClaimProven,
            DeckShuffled,
            InfluenceLost,
            ActionBlocked,
            TurnStarted,
        ]

    def test_invalid_viewer(self) -> None:
        t = new([[DUKE, CONTESSA], [CAPTAIN, AMBASSADOR]])
        with pytest.raises(GameError):
            E.view(t.state, 2)


# ============================================================================ defaults on timeout
class TestDefaults:
    def test_declare_income_unless_forced(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        t.set(coins=(9, 2, 2))
        assert E.default_action(t.state, 0) == TakeIncome()

    def test_forced_coup_target_most_cards_then_coins_then_turn_order(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA], [AMBASSADOR, AMBASSADOR]], first=1)
        t.set(coins=(2, 10, 2, 2))
        assert E.default_action(t.state, 1) == LaunchCoup(target=2)  # all tie: next in turn order
        t.set(coins=(3, 10, 2, 2))
        assert E.default_action(t.state, 1) == LaunchCoup(target=0)  # most coins
        t.set(hands=(t.hands[0][:1], t.hands[1], t.hands[2], t.hands[3]), revealed=((DUKE,), (), (), ()))
        assert E.default_action(t.state, 1) == LaunchCoup(target=2)  # most face-down cards first

    def test_prove_when_holding_else_concede(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        t.act(0, CollectTax())
        t.act(1, Challenge())
        assert E.default_action(t.state, 0) == ProveClaim()
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        t.act(0, ExchangeCards())
        t.act(1, Challenge())
        assert E.default_action(t.state, 0) == Concede()

    def test_not_awaited(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        with pytest.raises(NotYourTurnError):
            E.default_action(t.state, 1)


# ============================================================================ resigning
class TestResign:
    def test_resign_on_own_turn_passes_the_turn(self) -> None:
        t = new([[DUKE, CONTESSA], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        step = E.resign(t.state, 0)
        assert [type(e) for e in step.events] == [PlayerResigned, PlayerEliminated, CoinsReturned, TurnStarted]
        assert step.events[0] == PlayerResigned(seat=0, revealed=(DUKE, CONTESSA))
        assert step.state.turn == 1 and step.state.coins[0] == 0
        assert step.state.version == t.state.version + 1

    def test_resigning_blocker_withdraws_the_block(self) -> None:
        t = new([[CAPTAIN, DUKE], [AMBASSADOR, CONTESSA], [CONTESSA, AMBASSADOR]])
        t.act(0, Steal(target=1))
        t.act(1, Block(card=AMBASSADOR))
        step = E.resign(t.state, 1)
        assert of(list(step.events), CoinsStolen) == [CoinsStolen(actor=0, target=1, amount=2)]
        assert step.state.turn == 2

    def test_resign_down_to_one_player_ends_the_game(self) -> None:
        t = new([[DUKE, CONTESSA], [CAPTAIN, CAPTAIN]])
        step = E.resign(t.state, 1)
        assert step.events[-1] == GameWon(seat=0)
        assert outcome(step.state).ranks == (0, 1)
        with pytest.raises(GameOverError):
            E.resign(step.state, 0)

    def test_resign_twice_is_refused(self) -> None:
        t = new([[DUKE, CONTESSA], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        state = E.resign(t.state, 1).state
        with pytest.raises(IllegalActionError) as info:
            E.resign(state, 1)
        assert info.value.code == "coup.already_out"

    def test_resigning_loser_skips_the_loss(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, AMBASSADOR], [CONTESSA, CONTESSA]])
        t.set(coins=(7, 2, 2))
        t.act(0, LaunchCoup(target=1))
        step = E.resign(t.state, 1)
        assert step.state.phase is Phase.DECLARE and step.state.turn == 2


# ============================================================================ errors
class TestErrors:
    def test_not_your_turn(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        t.refuse(1, TakeIncome(), "core.not_your_turn", NotYourTurnError)
        t.refuse(5, TakeIncome(), "core.not_your_turn", NotYourTurnError)

    def test_unknown_action(self) -> None:
        t = new([[DUKE, DUKE], [CAPTAIN, CAPTAIN], [CONTESSA, CONTESSA]])
        t.refuse(0, {"kind": "income"}, "coup.unknown_action")

    def test_every_code_raised_is_listed(self) -> None:
        source = Path(engine_module.__file__).read_text(encoding="utf-8")
        raised = set(re.findall(r'Error\(\s*"((?:coup|core)\.[a-z_]+)"', source))
        listed = set(ERROR_CODES)
        assert raised | {"core.not_your_turn", "core.game_over"} == listed
