"""Переворот (Coup) rules engine: the base game for 2–6 players and the two-player draft variant.

Rules source: ``../shared/rules/coup.md`` (its RULING lines are binding) over the Russian rulebook
v1.0 (``rules/seeds/004_0eafc26263164d50.txt``).

How the engine reads the points the digest leaves to the implementation:

* Dealing: the 15 cards are shuffled once at setup; seat ``i`` gets cards ``2i`` and ``2i + 1`` and
  the rest, in order, is the court deck (index 0 is the top). With ``CoupOptions.deck`` the order is
  taken as given, every later "shuffle" keeps the order and returned cards go to the bottom.
* Draft (two players only): both seats pick at once from a full set of the five characters. The
  third set is then shuffled; the first player gets its first card, the other player its second,
  and the last three are the court deck. With a stacked deck the third set is not shuffled: it is
  the five characters in the order of their first appearance in ``CoupOptions.deck``.
* A challenged claimant is always asked (prove or concede), even when it cannot prove: skipping the
  question would tell the table that it does not hold the card.
* Losing influence with a single face-down card reveals it at once (its identity was never
  in doubt for the loser, and the table knows it has one card); with two cards the loser chooses,
  even when both are the same character (skipping the question would reveal that).
* Coins of eliminated players go back to the treasury when the turn's action has finished
  resolving (``CoinsReturned``, only when there are coins). If one player is left before an exchange
  starts, the exchange is skipped: the game is over.
* Resigning turns the seat's face-down cards face up and removes it from play at once. If it was the
  turn player, the rest of its action is dropped (a loss already being chosen is still taken). A
  resigning blocker withdraws its block, so the action goes ahead; a resigning responder counts as
  no answer.
* ``legal_actions`` in the declare and response phases depend on public facts only.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, TypeAdapter, ValidationError

from games.core.errors import GameError, GameOverError, IllegalActionError, NotYourTurnError
from games.core.models import Event, Outcome, Seat, Step
from games.core.rng import GameRng
from games.coup.models import (
    ACTION_ADAPTER,
    BLOCKERS,
    CLAIMS,
    COSTS,
    FORCED_COUP_COINS,
    FULL_DECK,
    TARGET_ONLY_BLOCK,
    TURN_ACTIONS,
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
    ChallengeView,
    ClaimConceded,
    ClaimProven,
    CoinsRefunded,
    CoinsReturned,
    CoinsStolen,
    CoinsTaken,
    CollectTax,
    Concede,
    CoupAction,
    CoupOptions,
    CoupView,
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
    PendingActionView,
    PendingBlockView,
    Phase,
    PlayerEliminated,
    PlayerResigned,
    PlayerView,
    ProveClaim,
    ResponseAllowed,
    RevealCard,
    Steal,
    TakeForeignAid,
    TakeIncome,
    TurnStarted,
)
from games.coup.state import AfterLoss, CoupState, PendingAction, PendingBlock, PendingChallenge

#: Every error code the engine raises (the i18n catalogue must translate each one).
ERROR_CODES: tuple[str, ...] = (
    "core.not_your_turn",
    "core.game_over",
    "coup.invalid_options",
    "coup.invalid_seat_count",
    "coup.invalid_first_seat",
    "coup.invalid_deck",
    "coup.draft_needs_two_players",
    "coup.invalid_seat",
    "coup.unknown_action",
    "coup.wrong_phase",
    "coup.already_challenged",
    "coup.already_out",
    "coup.must_coup",
    "coup.not_enough_coins",
    "coup.invalid_target",
    "coup.cannot_challenge",
    "coup.cannot_block",
    "coup.wrong_block_card",
    "coup.card_not_held",
    "coup.wrong_keep_count",
    "coup.cards_not_available",
)

_CHARACTERS: tuple[Card, ...] = tuple(Card)
_ACTION_TYPES = (
    TakeIncome,
    TakeForeignAid,
    LaunchCoup,
    CollectTax,
    Assassinate,
    Steal,
    ExchangeCards,
    Challenge,
    Block,
    Allow,
    ProveClaim,
    Concede,
    RevealCard,
    KeepCards,
    DraftCard,
)
_TARGETED_TYPES = (LaunchCoup, Assassinate, Steal)
_RESPOND_PHASES = frozenset({Phase.RESPOND_ACTION, Phase.RESPOND_BLOCK})

# Shared action instances: legal_actions is on the hot path of every playout.
_INCOME = TakeIncome()
_FOREIGN_AID = TakeForeignAid()
_TAX = CollectTax()
_EXCHANGE = ExchangeCards()
_ALLOW = Allow()
_CHALLENGE = Challenge()
_PROVE = ProveClaim()
_CONCEDE = Concede()
_COUPS = tuple(LaunchCoup(target=s) for s in range(6))
_ASSASSINATIONS = tuple(Assassinate(target=s) for s in range(6))
_STEALS = tuple(Steal(target=s) for s in range(6))
_BLOCKS = {card: Block(card=card) for card in Card}
_REVEALS = {card: RevealCard(card=card) for card in Card}
_DRAFTS = tuple(DraftCard(card=card) for card in Card)


def _private(seat: Seat) -> frozenset[Seat]:
    return frozenset((seat,))


class _Table:
    """A mutable working copy of a state for one step: the rules in motion.

    Methods mutate the copy and append events; ``commit`` freezes it into the next state. The input
    state is never touched, so an error raised half-way leaves nothing changed.
    """

    def __init__(self, state: CoupState) -> None:
        self.state = state
        self.n = state.num_seats
        self.phase = state.phase
        self.turn = state.turn
        self.forced_coup = state.forced_coup
        self.coins = list(state.coins)
        self.hands = [list(hand) for hand in state.hands]
        self.revealed = [list(cards) for cards in state.revealed]
        self.deck = list(state.deck)
        self.action = state.action
        self.block = state.block
        self.challenge = state.challenge
        self.responders = list(state.responders)
        self.losing = state.losing
        self.after_loss = state.after_loss
        self.drawn = list(state.drawn)
        self.eliminated = list(state.eliminated)
        self.winner = state.winner
        self.events: list[Event] = []
        self._rng: GameRng | None = None

    # ------------------------------------------------------------------ plumbing
    def commit(self) -> Step[CoupState]:
        """Freeze the working copy into the next state (version + 1) with the step's events."""
        state = self.state.model_copy(
            update={
                "version": self.state.version + 1,
                "phase": self.phase,
                "turn": self.turn,
                "forced_coup": self.forced_coup,
                "coins": tuple(self.coins),
                "hands": tuple(tuple(hand) for hand in self.hands),
                "revealed": tuple(tuple(cards) for cards in self.revealed),
                "deck": tuple(self.deck),
                "action": self.action,
                "block": self.block,
                "challenge": self.challenge,
                "responders": tuple(self.responders),
                "losing": self.losing,
                "after_loss": self.after_loss,
                "drawn": tuple(self.drawn),
                "eliminated": tuple(self.eliminated),
                "winner": self.winner,
            }
        )
        return Step(state, tuple(self.events))

    def rng(self) -> GameRng:
        """Return this step's generator (built on first use)."""
        if self._rng is None:
            self._rng = GameRng.for_step(self.state.seed, self.state.version)
        return self._rng

    def emit(self, event: Event) -> None:
        """Record an event of this step."""
        self.events.append(event)

    def alive(self, seat: Seat) -> bool:
        """Return whether ``seat`` is still in the game."""
        return seat not in self.eliminated

    def live_seats(self) -> list[Seat]:
        """Return the seats still in the game."""
        return [s for s in range(self.n) if s not in self.eliminated]

    def clockwise_after(self, seat: Seat) -> list[Seat]:
        """Return the live seats after ``seat`` in turn order (``seat`` itself excluded)."""
        return [s for s in ((seat + i) % self.n for i in range(1, self.n)) if s not in self.eliminated]

    def shuffle_in(self, cards: Sequence[Card]) -> None:
        """Put ``cards`` back into the court deck and shuffle it (stacked decks keep their order)."""
        self.deck.extend(cards)
        if not self.state.stacked:
            self.deck = self.rng().shuffled(self.deck)
        self.emit(DeckShuffled(size=len(self.deck)))

    # ------------------------------------------------------------------ the turn
    def declare(self, kind: ActionKind, target: Seat | None) -> None:
        """The turn player declares ``kind`` (on ``target``) and pays for it."""
        actor = self.turn
        cost = COSTS.get(kind, 0)
        claim = CLAIMS.get(kind)
        self.coins[actor] -= cost
        self.forced_coup = False
        self.emit(ActionDeclared(actor=actor, action=kind, target=target, claim=claim, cost=cost))
        self.action = PendingAction(kind=kind, actor=actor, target=target, claim=claim, cost=cost)
        if kind is ActionKind.INCOME:
            self.coins[actor] += 1
            self.emit(CoinsTaken(seat=actor, amount=1, action=kind))
            self.end_turn()
        elif kind is ActionKind.COUP:
            assert target is not None  # noqa: S101 - coups are validated to carry a target
            self.lose(target, AfterLoss.END_TURN)
        else:
            self.phase = Phase.RESPOND_ACTION
            self.responders = self.clockwise_after(actor)

    def allow(self, seat: Seat) -> None:
        """``seat`` lets the pending action or block stand; the window closes after the last one."""
        self.responders.remove(seat)
        self.emit(ResponseAllowed(seat=seat))
        if self.responders:
            return
        if self.phase is Phase.RESPOND_BLOCK:
            self.block_stands()
        else:
            self.resolve_action()

    def challenge_claim(self, seat: Seat) -> None:
        """``seat`` challenges the pending block's claim, or else the action's."""
        against: Literal["action", "block"]
        if self.phase is Phase.RESPOND_BLOCK:
            assert self.block is not None  # noqa: S101 - a block window has a block
            claimant, card, against = self.block.blocker, self.block.card, "block"
        else:
            assert self.action is not None  # noqa: S101 - an action window has an action
            assert self.action.claim is not None  # noqa: S101 - validated: the action claims a card
            claimant, card, against = self.action.actor, self.action.claim, "action"
        self.emit(ChallengeIssued(challenger=seat, claimant=claimant, card=card))
        self.challenge = PendingChallenge(challenger=seat, claimant=claimant, card=card, against=against)
        self.responders = []
        self.phase = Phase.PROVE

    def block_action(self, seat: Seat, card: Card) -> None:
        """``seat`` blocks the pending action claiming ``card``; everyone else may challenge it."""
        self.emit(BlockDeclared(blocker=seat, card=card))
        self.block = PendingBlock(blocker=seat, card=card)
        self.responders = self.clockwise_after(seat)
        self.phase = Phase.RESPOND_BLOCK

    def prove(self) -> None:
        """The claimant shows the card: it is shuffled back and replaced; the challenger loses."""
        challenge = self.challenge
        assert challenge is not None  # noqa: S101 - only asked while a challenge is pending
        claimant = challenge.claimant
        self.emit(ClaimProven(claimant=claimant, card=challenge.card))
        self.hands[claimant].remove(challenge.card)
        self.shuffle_in((challenge.card,))
        replacement = self.deck.pop(0)
        self.hands[claimant].append(replacement)
        self.emit(CardDrawn(seat=claimant, card=replacement, visible_to=_private(claimant)))
        self.challenge = None
        if challenge.against == "action":
            assert self.action is not None  # noqa: S101 - a challenged action is pending
            self.action = self.action.model_copy(update={"proven": True})
            self.lose(challenge.challenger, AfterLoss.ACTION_PROVEN)
        else:
            self.lose(challenge.challenger, AfterLoss.BLOCK_STANDS)

    def concede(self) -> None:
        """The claimant does not show the card: its claim fails and it loses an influence."""
        challenge = self.challenge
        assert challenge is not None  # noqa: S101 - only asked while a challenge is pending
        self.emit(ClaimConceded(claimant=challenge.claimant, card=challenge.card))
        self.challenge = None
        if challenge.against == "action":
            action = self.action
            assert action is not None  # noqa: S101 - a challenged action is pending
            if action.cost:
                self.coins[action.actor] += action.cost
                self.emit(CoinsRefunded(seat=action.actor, amount=action.cost))
            self.emit(ActionFailed(actor=action.actor, action=action.kind))
            self.lose(challenge.claimant, AfterLoss.END_TURN)
        else:
            self.block = None
            self.lose(challenge.claimant, AfterLoss.RESOLVE_ACTION)

    def lose(self, seat: Seat, after: AfterLoss) -> None:
        """``seat`` must lose an influence, then the table goes on with ``after``.

        A single face-down card is revealed at once; a seat already out loses nothing.
        """
        if not self.alive(seat):
            self.go_on(after)
            return
        if len(self.hands[seat]) == 1:
            self.after_loss = after
            self.reveal(seat, self.hands[seat][0])
            return
        self.phase = Phase.LOSE_INFLUENCE
        self.losing = seat
        self.after_loss = after

    def reveal(self, seat: Seat, card: Card) -> None:
        """``seat`` turns ``card`` face up; the table goes on with the pending ``after_loss``."""
        self.hands[seat].remove(card)
        self.revealed[seat].append(card)
        self.emit(InfluenceLost(seat=seat, card=card))
        if not self.hands[seat]:
            self.eliminated.append(seat)
            self.emit(PlayerEliminated(seat=seat))
        after = self.after_loss
        assert after is not None  # noqa: S101 - every loss records how to go on
        self.losing = None
        self.after_loss = None
        self.go_on(after)

    def go_on(self, after: AfterLoss) -> None:
        """Continue the turn after an influence loss."""
        if after is AfterLoss.END_TURN:
            self.end_turn()
        elif after is AfterLoss.BLOCK_STANDS:
            self.block_stands()
        elif after is AfterLoss.RESOLVE_ACTION:
            self.resolve_action()
        else:
            self.action_proven()

    def action_proven(self) -> None:
        """After a proven claim, the target may still block; otherwise the action resolves."""
        action = self.action
        assert action is not None  # noqa: S101 - a proven action is pending
        if action.kind in TARGET_ONLY_BLOCK and action.target is not None and self.alive(action.target):
            self.phase = Phase.RESPOND_ACTION
            self.responders = [action.target]
        else:
            self.resolve_action()

    def block_stands(self) -> None:
        """The block stops the action (its cost is not refunded)."""
        action, block = self.action, self.block
        assert action is not None  # noqa: S101 - a blocked action is pending
        assert block is not None  # noqa: S101 - and so is its block
        self.emit(ActionBlocked(actor=action.actor, blocker=block.blocker, card=block.card))
        self.end_turn()

    def resolve_action(self) -> None:
        """The pending action takes effect."""
        action = self.action
        assert action is not None  # noqa: S101 - only called with an action pending
        actor, kind, target = action.actor, action.kind, action.target
        if kind is ActionKind.TAX or kind is ActionKind.FOREIGN_AID:
            amount = 3 if kind is ActionKind.TAX else 2
            self.coins[actor] += amount
            self.emit(CoinsTaken(seat=actor, amount=amount, action=kind))
        elif kind is ActionKind.STEAL:
            assert target is not None  # noqa: S101 - steals carry a target
            # RULING: a target that went out this turn is still robbed before its coins go back.
            amount = min(2, self.coins[target])
            self.coins[target] -= amount
            self.coins[actor] += amount
            self.emit(CoinsStolen(actor=actor, target=target, amount=amount))
        elif kind is ActionKind.ASSASSINATE:
            assert target is not None  # noqa: S101 - assassinations carry a target
            if self.alive(target):
                self.lose(target, AfterLoss.END_TURN)
                return
            self.emit(ActionFailed(actor=actor, action=kind))
        elif kind is ActionKind.EXCHANGE and len(self.live_seats()) > 1:
            self.drawn = self.deck[:2]
            del self.deck[:2]
            self.emit(ExchangeDrawn(seat=actor, cards=tuple(self.drawn), visible_to=_private(actor)))
            self.responders = []
            self.phase = Phase.EXCHANGE
            return
        self.end_turn()

    def keep(self, kept: tuple[Card, ...]) -> None:
        """The ambassador keeps ``kept`` (validated) and returns the rest of its pool."""
        actor = self.turn
        pool = self.hands[actor] + self.drawn
        left = Counter(kept)
        returned: list[Card] = []
        for card in pool:
            if left[card]:
                left[card] -= 1
            else:
                returned.append(card)
        self.hands[actor] = list(kept)
        self.drawn = []
        self.emit(
            ExchangeCompleted(seat=actor, kept=kept, returned=tuple(returned), visible_to=_private(actor)),
        )
        self.emit(ExchangeCompleted(seat=actor))
        self.shuffle_in(returned)
        self.end_turn()

    def end_turn(self) -> None:
        """Return eliminated players' coins, then pass the turn clockwise or end the game."""
        for seat in self.eliminated:
            if self.coins[seat]:
                self.emit(CoinsReturned(seat=seat, amount=self.coins[seat]))
                self.coins[seat] = 0
        self.action = None
        self.block = None
        self.challenge = None
        self.responders = []
        self.losing = None
        self.after_loss = None
        self.forced_coup = False
        live = self.live_seats()
        if len(live) <= 1:
            self.winner = live[0] if live else None
            self.phase = Phase.OVER
            if self.winner is not None:
                self.emit(GameWon(seat=self.winner))
            return
        self.turn = self.clockwise_after(self.turn)[0]
        self.forced_coup = self.coins[self.turn] >= FORCED_COUP_COINS
        self.phase = Phase.DECLARE
        self.emit(TurnStarted(seat=self.turn, forced_coup=self.forced_coup))

    # ------------------------------------------------------------------ draft and resign
    def draft_pick(self, seat: Seat, card: Card) -> None:
        """``seat`` picks ``card`` from its set; after the second pick the third set is dealt."""
        self.hands[seat] = [card]
        self.emit(CardDrafted(seat=seat, card=card, visible_to=_private(seat)))
        self.emit(CardDrafted(seat=seat, card=None))
        if any(not hand for hand in self.hands):
            return
        third = self.deck
        if not self.state.stacked:
            third = self.rng().shuffled(third)
            self.emit(DeckShuffled(size=len(third)))
        order = [self.state.first_seat, 1 - self.state.first_seat]
        for seat_, dealt in zip(order, third, strict=False):
            self.hands[seat_].append(dealt)
            self.emit(CardsDealt(seat=seat_, cards=(dealt,), visible_to=_private(seat_)))
        self.deck = third[len(order) :]
        self.phase = Phase.DECLARE
        self.turn = self.state.first_seat
        self.forced_coup = False
        self.emit(TurnStarted(seat=self.turn))

    def resign(self, seat: Seat) -> None:
        """``seat`` leaves play at once; the table goes on without it."""
        cards = tuple(self.hands[seat])
        self.revealed[seat].extend(cards)
        self.hands[seat] = []
        self.eliminated.append(seat)
        self.emit(PlayerResigned(seat=seat, revealed=cards))
        self.emit(PlayerEliminated(seat=seat))
        if self.phase is Phase.DRAFT or len(self.live_seats()) <= 1:
            if self.drawn:
                self.shuffle_in(self.drawn)
                self.drawn = []
            self.end_turn()
        elif seat == self.turn:
            self._actor_resigned()
        elif seat in self.responders:
            self.responders.remove(seat)
            if not self.responders:
                if self.phase is Phase.RESPOND_BLOCK:
                    self.block_stands()
                else:
                    self.resolve_action()
        elif self.block is not None and self.block.blocker == seat and self.phase in (Phase.RESPOND_BLOCK, Phase.PROVE):
            # The block is withdrawn with its blocker: the action goes ahead.
            self.block = None
            self.challenge = None
            self.responders = []
            self.resolve_action()
        elif self.phase is Phase.LOSE_INFLUENCE and self.losing == seat:
            after = self.after_loss
            assert after is not None  # noqa: S101 - every loss records how to go on
            self.losing = None
            self.after_loss = None
            self.go_on(after)

    def _actor_resigned(self) -> None:
        """The turn player resigned: drop the rest of its action and pass the turn."""
        if self.drawn:
            self.shuffle_in(self.drawn)
            self.drawn = []
        action = self.action
        undone = self.phase in (Phase.RESPOND_ACTION, Phase.RESPOND_BLOCK, Phase.PROVE, Phase.EXCHANGE) or (
            self.phase is Phase.LOSE_INFLUENCE
            and self.after_loss in (AfterLoss.ACTION_PROVEN, AfterLoss.RESOLVE_ACTION)
        )
        if action is not None and undone:
            self.emit(ActionFailed(actor=action.actor, action=action.kind))
        if self.phase is Phase.LOSE_INFLUENCE and self.losing is not None and self.losing != self.turn:
            # A loss already being chosen (a coup, a lost challenge) is still taken.
            self.after_loss = AfterLoss.END_TURN
            return
        self.end_turn()


class CoupEngine:
    """The rules of Переворот as pure functions of :class:`CoupState`."""

    name: ClassVar[str] = "coup"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 6
    #: Players sit in the order they joined; the first player is drawn at random.
    shuffle_seats: ClassVar[bool] = False
    state_type: type[CoupState] = CoupState
    options_type: type[BaseModel] = CoupOptions
    action_adapter: TypeAdapter[Any] = ACTION_ADAPTER

    # ------------------------------------------------------------------ setup
    def setup(self, num_seats: int, options: BaseModel, seed: str) -> Step[CoupState]:
        """Deal a new game.

        Args:
            num_seats: Players at the table, 2 to 6.
            options: A :class:`CoupOptions` (or a model that validates as one).
            seed: The table seed; every random draw of the game derives from it.

        Returns:
            The initial state and the deal's events (each seat's cards privately).

        Raises:
            GameError: The seat count, options, first seat or stacked deck are invalid, or the
                draft is asked for with other than two players.
        """
        opts = _coerce_options(options)
        if not self.min_seats <= num_seats <= self.max_seats:
            raise GameError("coup.invalid_seat_count", min=self.min_seats, max=self.max_seats, have=num_seats)
        if opts.draft and num_seats != 2:
            raise GameError("coup.draft_needs_two_players")
        if opts.first_seat is not None and not 0 <= opts.first_seat < num_seats:
            raise GameError("coup.invalid_first_seat", seat=opts.first_seat)
        if opts.deck is not None and sorted(opts.deck) != sorted(FULL_DECK):
            raise GameError("coup.invalid_deck")
        first = opts.first_seat
        if first is None:
            first = GameRng.for_step(seed, 0, "first_seat").below(num_seats)
        coins = [2] * num_seats
        if num_seats == 2:
            coins[first] = 1
        stacked = opts.deck is not None
        events: list[Event] = [GameStarted(first_seat=first, draft=opts.draft, starting_coins=tuple(coins))]
        if opts.draft:
            third = tuple(dict.fromkeys(opts.deck)) if opts.deck is not None else _CHARACTERS
            hands: list[tuple[Card, ...]] = [(), ()]
            deck = third
            phase = Phase.DRAFT
        else:
            order = list(opts.deck) if opts.deck is not None else GameRng.for_step(seed, 0, "deal").shuffled(FULL_DECK)
            hands = [tuple(order[2 * s : 2 * s + 2]) for s in range(num_seats)]
            deck = tuple(order[2 * num_seats :])
            phase = Phase.DECLARE
            events.extend(CardsDealt(seat=s, cards=hands[s], visible_to=_private(s)) for s in range(num_seats))
            events.append(TurnStarted(seat=first))
        state = CoupState(
            seed=seed,
            num_seats=num_seats,
            first_seat=first,
            stacked=stacked,
            draft=opts.draft,
            phase=phase,
            turn=first,
            coins=tuple(coins),
            hands=tuple(hands),
            revealed=tuple(() for _ in range(num_seats)),
            deck=deck,
        )
        return Step(state, tuple(events))

    # ------------------------------------------------------------------ queries
    def active_seats(self, state: CoupState) -> frozenset[Seat]:
        """Return the seats the game waits for; empty once the game is over."""
        phase = state.phase
        if phase is Phase.DECLARE or phase is Phase.EXCHANGE:
            return frozenset((state.turn,))
        if phase in _RESPOND_PHASES:
            return frozenset(state.responders)
        if phase is Phase.PROVE:
            assert state.challenge is not None  # noqa: S101 - PROVE always has a challenge
            return frozenset((state.challenge.claimant,))
        if phase is Phase.LOSE_INFLUENCE:
            assert state.losing is not None  # noqa: S101 - LOSE_INFLUENCE always has a loser
            return frozenset((state.losing,))
        if phase is Phase.DRAFT:
            return frozenset(s for s, hand in enumerate(state.hands) if not hand)
        return frozenset()

    def reaction_seats(self, state: CoupState) -> frozenset[Seat]:
        """Return the awaited seats that are only asked whether to react to another seat's move.

        The challenge, block and allow windows (after an action is declared, and after a block):
        their default is Allow, and the table gives them its short reaction clock.
        """
        return frozenset(state.responders) if state.phase in _RESPOND_PHASES else frozenset()

    def legal_actions(self, state: CoupState, seat: Seat) -> list[Any]:
        """Return every action ``seat`` may take now (empty when it is not asked to act).

        Exchanges list each distinct multiset of cards to keep once, as a sorted tuple; reveals list
        each distinct face-down card once.
        """
        if seat not in self.active_seats(state):
            return []
        phase = state.phase
        if phase is Phase.DECLARE:
            return self._declare_options(state, seat)
        if phase is Phase.RESPOND_ACTION:
            action = state.action
            assert action is not None  # noqa: S101 - an action window has an action
            out: list[Any] = []
            if action.claim is not None and not action.proven:
                out.append(_CHALLENGE)
            if action.kind in BLOCKERS and (action.kind not in TARGET_ONLY_BLOCK or seat == action.target):
                out.extend(_BLOCKS[card] for card in BLOCKERS[action.kind])
            out.append(_ALLOW)
            return out
        if phase is Phase.RESPOND_BLOCK:
            return [_CHALLENGE, _ALLOW]
        if phase is Phase.PROVE:
            assert state.challenge is not None  # noqa: S101 - PROVE always has a challenge
            if state.challenge.card in state.hands[seat]:
                return [_PROVE, _CONCEDE]
            return [_CONCEDE]
        if phase is Phase.LOSE_INFLUENCE:
            return [_REVEALS[card] for card in sorted(set(state.hands[seat]))]
        if phase is Phase.EXCHANGE:
            pool = sorted(state.hands[seat] + state.drawn)
            keep = len(state.hands[seat])
            return [KeepCards(cards=combo) for combo in dict.fromkeys(itertools.combinations(pool, keep))]
        if phase is Phase.DRAFT:
            return list(_DRAFTS)
        return []

    def _declare_options(self, state: CoupState, seat: Seat) -> list[Any]:
        targets = [s for s in range(state.num_seats) if s != seat and s not in state.eliminated]
        coins = state.coins[seat]
        coups = [_COUPS[t] for t in targets] if coins >= COSTS[ActionKind.COUP] else []
        if state.forced_coup:
            return coups
        out: list[Any] = [_INCOME, _FOREIGN_AID, *coups, _TAX]
        if coins >= COSTS[ActionKind.ASSASSINATE]:
            out.extend(_ASSASSINATIONS[t] for t in targets)
        out.extend(_STEALS[t] for t in targets)
        out.append(_EXCHANGE)
        return out

    # ------------------------------------------------------------------ apply
    def apply(self, state: CoupState, seat: Seat, action: object) -> Step[CoupState]:
        """Apply ``action`` by ``seat``.

        Args:
            state: The current state (never modified).
            seat: The seat acting.
            action: One of the Coup action models.

        Returns:
            The next state (version + 1) and the events of the step, in order.

        Raises:
            GameOverError: The game has finished.
            NotYourTurnError: The game is not waiting for ``seat`` (``coup.already_challenged``
                when a challenge came too late).
            IllegalActionError: The action breaks a rule; ``code`` says which (see ``ERROR_CODES``).
        """
        self._check_actor(state, seat, action)
        table = _Table(state)
        phase = state.phase
        if phase is Phase.DECLARE:
            self._apply_declare(state, table, seat, action)
        elif phase is Phase.RESPOND_ACTION:
            self._apply_respond_action(state, table, seat, action)
        elif phase is Phase.RESPOND_BLOCK:
            self._apply_respond_block(table, seat, action)
        elif phase is Phase.PROVE:
            self._apply_prove(state, table, seat, action)
        elif phase is Phase.LOSE_INFLUENCE:
            if not isinstance(action, RevealCard):
                raise _wrong_phase(phase, action)
            if action.card not in state.hands[seat]:
                raise IllegalActionError("coup.card_not_held", card=action.card.value)
            table.reveal(seat, action.card)
        elif phase is Phase.EXCHANGE:
            if not isinstance(action, KeepCards):
                raise _wrong_phase(phase, action)
            table.keep(self._checked_keep(state, seat, action))
        else:
            if not isinstance(action, DraftCard):
                raise _wrong_phase(phase, action)
            table.draft_pick(seat, action.card)
        return table.commit()

    def _check_actor(self, state: CoupState, seat: Seat, action: object) -> None:
        if state.phase is Phase.OVER:
            raise GameOverError
        if not isinstance(action, _ACTION_TYPES):
            raise IllegalActionError("coup.unknown_action")
        if seat not in self.active_seats(state):
            if isinstance(action, Challenge) and state.challenge is not None:
                raise NotYourTurnError("coup.already_challenged")
            raise NotYourTurnError(seat=seat)

    def _apply_declare(self, state: CoupState, table: _Table, seat: Seat, action: object) -> None:
        if not isinstance(action, TURN_ACTIONS):
            raise _wrong_phase(state.phase, action)
        kind = ActionKind(action.kind)
        if state.forced_coup and kind is not ActionKind.COUP:
            raise IllegalActionError("coup.must_coup", coins=state.coins[seat])
        cost = COSTS.get(kind, 0)
        if state.coins[seat] < cost:
            raise IllegalActionError("coup.not_enough_coins", cost=cost, coins=state.coins[seat])
        target = action.target if isinstance(action, _TARGETED_TYPES) else None
        if target is not None and (target == seat or not 0 <= target < state.num_seats or target in state.eliminated):
            raise IllegalActionError("coup.invalid_target", target=target)
        table.declare(kind, target)

    def _apply_respond_action(self, state: CoupState, table: _Table, seat: Seat, action: object) -> None:
        pending = state.action
        assert pending is not None  # noqa: S101 - an action window has an action
        if isinstance(action, Allow):
            table.allow(seat)
        elif isinstance(action, Challenge):
            if pending.claim is None or pending.proven:
                raise IllegalActionError("coup.cannot_challenge", action=pending.kind.value)
            table.challenge_claim(seat)
        elif isinstance(action, Block):
            if pending.kind not in BLOCKERS or (pending.kind in TARGET_ONLY_BLOCK and seat != pending.target):
                raise IllegalActionError("coup.cannot_block", action=pending.kind.value)
            if action.card not in BLOCKERS[pending.kind]:
                raise IllegalActionError("coup.wrong_block_card", action=pending.kind.value, card=action.card.value)
            table.block_action(seat, action.card)
        else:
            raise _wrong_phase(state.phase, action)

    def _apply_respond_block(self, table: _Table, seat: Seat, action: object) -> None:
        if isinstance(action, Allow):
            table.allow(seat)
        elif isinstance(action, Challenge):
            table.challenge_claim(seat)
        elif isinstance(action, Block):
            raise IllegalActionError("coup.cannot_block", action="block")
        else:
            raise _wrong_phase(Phase.RESPOND_BLOCK, action)

    def _apply_prove(self, state: CoupState, table: _Table, seat: Seat, action: object) -> None:
        challenge = state.challenge
        assert challenge is not None  # noqa: S101 - PROVE always has a challenge
        if isinstance(action, ProveClaim):
            if challenge.card not in state.hands[seat]:
                raise IllegalActionError("coup.card_not_held", card=challenge.card.value)
            table.prove()
        elif isinstance(action, Concede):
            table.concede()
        else:
            raise _wrong_phase(state.phase, action)

    def _checked_keep(self, state: CoupState, seat: Seat, action: KeepCards) -> tuple[Card, ...]:
        keep = len(state.hands[seat])
        if len(action.cards) != keep:
            raise IllegalActionError("coup.wrong_keep_count", expected=keep, got=len(action.cards))
        kept = tuple(sorted(action.cards))
        if not Counter(kept) <= Counter(state.hands[seat] + state.drawn):
            raise IllegalActionError("coup.cards_not_available")
        return kept

    # ------------------------------------------------------------------ resign, views, defaults
    def resign(self, state: CoupState, seat: Seat) -> Step[CoupState]:
        """Remove ``seat`` from play at any moment; it ranks below every seat still playing.

        Raises:
            GameOverError: The game has finished.
            GameError: ``coup.invalid_seat`` for a seat not at the table, ``coup.already_out`` for a
                seat already out of the game.
        """
        if state.phase is Phase.OVER:
            raise GameOverError
        if not 0 <= seat < state.num_seats:
            raise GameError("coup.invalid_seat", seat=seat)
        if seat in state.eliminated:
            raise IllegalActionError("coup.already_out", seat=seat)
        table = _Table(state)
        table.resign(seat)
        return table.commit()

    def view(self, state: CoupState, seat: Seat | None) -> CoupView:
        """Return what ``seat`` may see (``None``: the public view).

        Raises:
            GameError: ``coup.invalid_seat`` for a seat not at the table.
        """
        if seat is not None and not 0 <= seat < state.num_seats:
            raise GameError("coup.invalid_seat", seat=seat)
        players = tuple(
            PlayerView(
                seat=s,
                coins=state.coins[s],
                revealed=state.revealed[s],
                hidden_count=len(state.hands[s]),
                alive=s not in state.eliminated,
                hand=state.hands[s] if s == seat else None,
            )
            for s in range(state.num_seats)
        )
        a = state.action
        pending = None if a is None else PendingActionView(action=a.kind, actor=a.actor, target=a.target, claim=a.claim)
        block = None if state.block is None else PendingBlockView(blocker=state.block.blocker, card=state.block.card)
        challenge = None
        if state.challenge is not None:
            c = state.challenge
            challenge = ChallengeView(challenger=c.challenger, claimant=c.claimant, card=c.card, against=c.against)
        choices: tuple[Card, ...] | None = None
        if seat is not None and state.phase is Phase.EXCHANGE and seat == state.turn:
            choices = state.hands[seat] + state.drawn
        elif seat is not None and state.phase is Phase.DRAFT and not state.hands[seat]:
            choices = _CHARACTERS
        return CoupView(
            viewer=seat,
            num_seats=state.num_seats,
            version=state.version,
            phase=state.phase,
            turn=state.turn,
            first_seat=state.first_seat,
            players=players,
            deck_size=len(state.deck),
            action=pending,
            block=block,
            challenge=challenge,
            awaiting=tuple(sorted(self.active_seats(state))),
            losing=state.losing,
            forced_coup=state.forced_coup,
            choices=choices,
            eliminated=state.eliminated,
            winner=state.winner,
        )

    def default_action(self, state: CoupState, seat: Seat) -> CoupAction:
        """Return the action taken for ``seat`` when its clock runs out.

        Declare: a coup when forced (on the opponent with the most face-down cards, then the most
        coins, then the nearest in turn order), else income. Respond: allow. Prove: prove if the
        card is held, else concede. Lose influence: a random face-down card. Exchange: keep the
        cards held before. Draft: a random character.

        Raises:
            GameOverError: The game has finished.
            NotYourTurnError: The game is not waiting for ``seat``.
        """
        if state.phase is Phase.OVER:
            raise GameOverError
        if seat not in self.active_seats(state):
            raise NotYourTurnError(seat=seat)
        phase = state.phase
        if phase is Phase.DECLARE:
            if not state.forced_coup:
                return _INCOME
            n = state.num_seats
            targets = [(seat + i) % n for i in range(1, n) if (seat + i) % n not in state.eliminated]
            return _COUPS[max(targets, key=lambda t: (len(state.hands[t]), state.coins[t], -((t - seat) % n)))]
        if phase in _RESPOND_PHASES:
            return _ALLOW
        if phase is Phase.PROVE:
            assert state.challenge is not None  # noqa: S101 - PROVE always has a challenge
            return _PROVE if state.challenge.card in state.hands[seat] else _CONCEDE
        rng = GameRng.for_step(state.seed, state.version, f"default:{seat}")
        if phase is Phase.LOSE_INFLUENCE:
            return _REVEALS[rng.choice(state.hands[seat])]
        if phase is Phase.EXCHANGE:
            return KeepCards(cards=tuple(sorted(state.hands[seat])))
        return _DRAFTS[rng.below(len(_DRAFTS))]

    def outcome(self, state: CoupState) -> Outcome | None:
        """Return the ranks once the game is over: the winner first, then reverse elimination order."""
        if state.phase is not Phase.OVER:
            return None
        n = state.num_seats
        ranks = [0] * n
        for order, seat in enumerate(state.eliminated):
            ranks[seat] = n - 1 - order
        return Outcome(ranks=tuple(ranks))

    # ------------------------------------------------------------------ conformance hook
    def resample_hidden(self, state: CoupState, seat: Seat | None, rng: GameRng) -> CoupState:
        """Return a state ``seat`` cannot tell from ``state``: every card hidden from it redrawn.

        The cards ``seat`` cannot see (other hands, the court deck, another seat's exchange draw)
        are pooled and dealt back at random into the same places and sizes. During the draft the
        other seat's pick is redrawn and the third set reordered. ``seat=None`` redraws every
        hidden card. Used by the conformance suite to prove views leak nothing.
        """
        n = state.num_seats
        hidden = [s for s in range(n) if s != seat]
        own_drawn = seat is not None and seat == state.turn and state.phase is Phase.EXCHANGE
        if state.phase is Phase.DRAFT:
            hands = list(state.hands)
            for s in hidden:
                if hands[s]:
                    hands[s] = (rng.choice(_CHARACTERS),)
            return state.model_copy(update={"hands": tuple(hands), "deck": tuple(rng.shuffled(state.deck))})
        pool: list[Card] = list(state.deck)
        for s in hidden:
            pool.extend(state.hands[s])
        if not own_drawn:
            pool.extend(state.drawn)
        pool = rng.shuffled(pool)
        hands = list(state.hands)
        for s in hidden:
            size = len(state.hands[s])
            hands[s], pool = tuple(pool[:size]), pool[size:]
        drawn = state.drawn
        if not own_drawn:
            drawn, pool = tuple(pool[: len(state.drawn)]), pool[len(state.drawn) :]
        return state.model_copy(update={"hands": tuple(hands), "drawn": drawn, "deck": tuple(pool)})


def _coerce_options(options: BaseModel) -> CoupOptions:
    if isinstance(options, CoupOptions):
        return options
    try:
        return CoupOptions.model_validate(options.model_dump())
    except ValidationError:
        raise GameError("coup.invalid_options") from None


def _wrong_phase(phase: Phase, action: object) -> IllegalActionError:
    kind = getattr(action, "kind", "?")
    return IllegalActionError("coup.wrong_phase", phase=phase.value, action=str(kind))


def stacked_deck(hands: Sequence[Sequence[Card]], court: Sequence[Card] = ()) -> tuple[Card, ...]:
    """Return a full 15-card order for ``CoupOptions.deck``: ``hands[i]`` dealt to seat ``i``.

    The court deck starts with ``court`` (top first); the cards not named fill the bottom in
    character order.

    >>> deck = stacked_deck([[Card.DUKE, Card.CONTESSA], [Card.CAPTAIN, Card.CAPTAIN]], [Card.DUKE])
    >>> [card.value for card in deck[:6]]
    ['duke', 'contessa', 'captain', 'captain', 'duke', 'duke']
    >>> len(deck)
    15

    Raises:
        ValueError: More than three copies of a character are named.
    """
    named = [card for hand in hands for card in hand] + list(court)
    rest = Counter(FULL_DECK)
    rest.subtract(named)
    if any(count < 0 for count in rest.values()):
        raise ValueError("more than three copies of a character")
    return tuple(named) + tuple(card for card in Card for _ in range(rest[card]))
