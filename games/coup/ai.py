"""An AI for Переворот (Coup) that plays the whole game from its own seat's view and legal actions.

It reads the table as a card counter (:class:`Reading`): its own hand, every revealed card, the
size of the court deck and, in the two-player draft, how that deal is built (one full set of the
five characters shared out, plus each player's secret pick) give the chance that a given opponent
holds a character; a player down to one card has probably kept the better of its two. A claim is
itself evidence (players mostly claim what they hold), so the chance that a claim is true weighs the
card count against an assumed bluff rate.

From that, every decision compares expected values in coins. An influence is worth about a coup at
a bigger table (a player's last one the game); head to head it is worth the share of the game it
swings, from rough odds of winning with two or one influence against two or one.

- declaring: income, foreign aid, tax, steal, assassinate, exchange and coup are each scored with
  the chance of being blocked or, for a bluff, challenged, plus a little seeded noise; a move that
  is probably blocked sometimes gives way to banking coins (more often the longer a game drags), so
  two AIs never trade blocked moves forever;
- responding: it blocks with the card it holds, bluffs a block when being caught is unlikely or the
  alternative is elimination, and challenges an action or a block when the chance it is a bluff
  outweighs the influence a lost challenge costs (always when every copy is accounted for
  elsewhere, never a long shot with its last influence);
- losing influence, exchanging and drafting: it keeps the characters that are worth most at this
  table (the draft pick is mixed, so an opponent cannot count on it).

Every random choice draws from the generator it is handed, so a decision is a pure function of the
view, the legal actions and that generator.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from games.core.rng import GameRng
from games.coup.models import (
    BLOCKERS,
    CLAIMS,
    COSTS,
    ActionKind,
    Allow,
    Block,
    Card,
    Challenge,
    CoupView,
    DraftCard,
    KeepCards,
    LaunchCoup,
    Phase,
    PlayerView,
    ProveClaim,
    RevealCard,
)

COPIES = 3
#: Cards in play in the two-player draft: one set of five shared out, plus each player's pick.
DRAFT_CARDS = 7
#: How much a card is worth holding: Duke pays every turn, Captain and Assassin press opponents,
#: Contessa defends, Ambassador mostly cycles cards.
CARD_VALUE: dict[Card, float] = {
    Card.DUKE: 5.0,
    Card.CAPTAIN: 4.0,
    Card.ASSASSIN: 4.0,
    Card.CONTESSA: 3.0,
    Card.AMBASSADOR: 2.0,
}
#: The draft pick is drawn with these weights (and opponents' picks are assumed drawn the same way).
#: The first player starts a coin behind, so it leans to the Captain: a steal is a four-coin swing.
DRAFT_WEIGHTS: dict[Card, float] = {
    Card.DUKE: 0.30,
    Card.CAPTAIN: 0.25,
    Card.ASSASSIN: 0.20,
    Card.CONTESSA: 0.15,
    Card.AMBASSADOR: 0.10,
}
DRAFT_WEIGHTS_FIRST: dict[Card, float] = {
    Card.DUKE: 0.19,
    Card.CAPTAIN: 0.55,
    Card.ASSASSIN: 0.09,
    Card.CONTESSA: 0.09,
    Card.AMBASSADOR: 0.08,
}
#: The weight of the plain card count against the draft deal's own odds (cards move after the deal).
DRAFT_MOVED = 0.2
#: How likely a player losing an influence keeps the worse of its two cards, against the better one.
KEPT_WORSE = 0.35
#: What an influence is worth in coins (a coup costs 7 and takes one), and a lost game.
INFLUENCE = 8.0
GAME = 60.0
#: Head to head, an influence is worth the share of the game it wins: the game is worth this many coins
#: and these are the rough odds of winning with (own, opponent's) influences, coins aside.
DUEL_GAME = 40.0
DUEL_ODDS: dict[tuple[int, int], float] = {(2, 2): 0.5, (2, 1): 0.75, (1, 2): 0.25, (1, 1): 0.5}
#: How often a claimant is assumed to bluff a claim or a block (the prior the card count updates): head
#: to head bluffs pay (one opponent to catch them), at a bigger table they seldom do.
ASSUMED_BLUFF = 0.12
ASSUMED_BLUFF_DUEL = 0.2
ASSUMED_BLOCK_BLUFF_DUEL = 0.4
#: The chance one opponent challenges a claim, before it has seen any copy of the character revealed.
CHALLENGE_BASE = 0.1
CHALLENGE_BASE_DUEL = 0.15
CHALLENGE_PER_REVEALED = 0.25
#: The chance a target facing an assassination of its last card challenges it.
LAST_CARD_CHALLENGE = 0.7
#: The chance a target without the card still claims it to block (bluffed blocks).
BLUFF_BLOCK = 0.15
BLUFF_BLOCK_DUEL = 0.45
LAST_CARD_BLUFF_BLOCK = 0.6
#: Noise, in coins, added to each declared action's value: near ties break at random, bluffs stay unpredictable.
NOISE = 0.3
#: How often the AI only banks coins (income, tax, exchange: nothing an opponent can block) instead of
#: a best move that is probably blocked: without it two AIs that block each other's steals honestly
#: would trade them forever.
BANK_RATE = 0.05
BANK_WHEN_BLOCKED = 0.35
#: Actions per seat after which a game counts as dragging on: from then on banking grows more likely, so
#: even two AIs that keep blocking each other's assassinations honestly reach a coup.
LONG_GAME = 40
#: A Contessa bluff against an assassination, when worth it with two cards left, is made this often
#: (not always: a certainty an opponent could read).
BLUFF_BLOCK_RATE = 0.75


class CoupAgent:
    """The Coup AI; deterministic given the generator it is handed."""

    def choose(self, view: BaseModel, legal: list[Any], rng: GameRng) -> Any:
        """Return one of ``legal`` for the seat ``view`` belongs to."""
        if not isinstance(view, CoupView) or view.viewer is None:
            raise ValueError("the Coup AI needs its own seat's CoupView")
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase is Phase.DRAFT:
            return _draft(legal, rng, first=view.first_seat == view.viewer)
        if phase is Phase.PROVE:
            return next((a for a in legal if isinstance(a, ProveClaim)), legal[0])
        if phase is Phase.EXCHANGE:
            keeps = [a for a in legal if isinstance(a, KeepCards)]
            reading = Reading(view)
            return max(keeps, key=lambda a: reading.hand_value(a.cards)) if keeps else legal[0]
        if phase is Phase.LOSE_INFLUENCE:
            reveals = [a for a in legal if isinstance(a, RevealCard)]
            reading = Reading(view)
            return min(reveals, key=lambda a: reading.card_value(a.card)) if reveals else legal[0]
        if phase is Phase.DECLARE:
            return _declare(Reading(view), legal, rng)
        if phase in {Phase.RESPOND_ACTION, Phase.RESPOND_BLOCK}:
            return _respond(Reading(view), legal, rng)
        return legal[0]


# ----------------------------------------------------------------------------- reading the table
class Reading:
    """What one seat can infer from its view: who probably holds what, and what things are worth."""

    def __init__(self, view: CoupView) -> None:
        """Count the cards ``view``'s seat can see."""
        assert view.viewer is not None  # noqa: S101 - checked by CoupAgent.choose
        self.view = view
        self.me: PlayerView = view.players[view.viewer]
        self.hand: tuple[Card, ...] = self.me.hand or ()
        self.opponents = [p for p in view.players if p.alive and p.seat != self.me.seat]
        self.live = len(self.opponents) + 1
        self.revealed: Counter[Card] = Counter()
        for player in view.players:
            self.revealed.update(player.revealed)
        self.seen = self.revealed + Counter(self.hand)
        self.unknown = view.deck_size + sum(p.hidden_count for p in view.players if p.seat != self.me.seat)
        cards = view.deck_size + sum(p.hidden_count + len(p.revealed) for p in view.players)
        self.draft = view.num_seats == 2 and cards == DRAFT_CARDS
        self._holds: dict[tuple[int, Card], float] = {}
        self._draft_odds: dict[Card, float] | None = None

    # ------------------------------------------------------------------ odds
    def holds(self, seat: int, card: Card) -> float:
        """Return the chance that ``seat`` (an opponent) holds at least one face-down ``card``."""
        key = (seat, card)
        if key not in self._holds:
            player = self.view.players[seat]
            if player.hidden_count == 0:
                odds = 0.0
            elif self.draft:
                # The deal as dealt, blended with the plain count: proven claims and exchanges move cards
                # in ways the deal cannot tell, so nothing the count allows is ever taken as impossible.
                plain = _at_least_one(COPIES - self.seen[card], self.unknown, player.hidden_count)
                dealt = self._draft_holds()
                odds = (1 - DRAFT_MOVED) * dealt[card] + DRAFT_MOVED * plain if dealt else plain
            elif player.hidden_count == 1 and player.revealed:
                odds = self._last_card(player).get(card, 0.0)
            else:
                odds = _at_least_one(COPIES - self.seen[card], self.unknown, player.hidden_count)
            self._holds[key] = odds
        return self._holds[key]

    def _last_card(self, player: PlayerView) -> dict[Card, float]:
        """Return the odds of each character being ``player``'s one face-down card.

        The unseen copies set the prior; the card it chose to give up updates it: a player losing an
        influence mostly keeps the better card, so a last card worth less than the one revealed is
        less likely than the count alone says.
        """
        given_up = player.revealed[-1]
        weights = {card: max(0, COPIES - self.seen[card]) * _kept_likelihood(card, given_up) for card in Card}
        total = sum(weights.values())
        return {card: weight / total for card, weight in weights.items()} if total > 0 else {}

    def _draft_holds(self) -> dict[Card, float]:
        """Return the opponent's odds per character in the draft, summed over every way it was dealt.

        The deal: one set of the five characters, from which each player got one card (the rest is
        the court deck), plus each player's own pick. This seat's pick is one of its two original
        cards (hand and revealed), the opponent's pick is weighted as the AI drafts, and the
        opponent's card from the shared set is any of the four this seat did not get. A deal that
        cannot explain the opponent's revealed cards is dropped; if none can (cards moved through
        proven claims and exchanges), it returns no odds and the plain card count answers.
        """
        if self._draft_odds is not None:
            return self._draft_odds
        opponent = self.opponents[0] if self.opponents else None
        mine = list(self.hand) + list(self.me.revealed)
        weights: dict[Card, float] = dict.fromkeys(Card, 0.0)
        total = 0.0
        if opponent is not None:
            shown = Counter(opponent.revealed)
            for shared in dict.fromkeys(mine):
                rest = [c for c in Card if c != shared]
                for pick, prior in draft_weights(opponent.seat == self.view.first_seat).items():
                    for dealt in rest:
                        original = Counter((pick, dealt))
                        if not shown <= original:
                            continue
                        hidden = original - shown
                        weight = prior / len(rest)
                        if len(hidden) == 1 and opponent.revealed:
                            weight *= _kept_likelihood(next(iter(hidden)), opponent.revealed[-1])
                        total += weight
                        for card in hidden:
                            weights[card] += weight
        self._draft_odds = {card: weights[card] / total for card in Card} if total > 0 else {}
        return self._draft_odds

    def claim_true(self, seat: int, card: Card, *, block: bool = False) -> float:
        """Return the chance that ``seat``'s claim of ``card`` is true: the count, updated by the claim.

        ``block``: the claim blocks an action (head to head, blocks are bluffed more than actions).
        """
        held = self.holds(seat, card)
        if held <= 0.0:
            return 0.0
        duel = ASSUMED_BLOCK_BLUFF_DUEL if block else ASSUMED_BLUFF_DUEL
        bluff = duel if self.live == 2 else ASSUMED_BLUFF
        return held / (held + (1.0 - held) * bluff)

    def challenged(self, card: Card, *, by: Sequence[PlayerView] | None = None) -> float:
        """Return the chance that someone challenges this seat's claim of ``card``."""
        base = CHALLENGE_BASE_DUEL if self.live == 2 else CHALLENGE_BASE
        one = min(0.95, base + CHALLENGE_PER_REVEALED * self.revealed[card])
        return 1.0 - (1.0 - one) ** len(self.opponents if by is None else by)

    def blocked(self, kind: ActionKind, target: int | None) -> float:
        """Return the chance this seat's ``kind`` is blocked (a true block, or a bluffed one)."""
        cards = BLOCKERS.get(kind, ())
        if not cards:
            return 0.0
        blockers = self.opponents if target is None else [self.view.players[target]]
        none = 1.0
        for player in blockers:
            if all(self.seen[card] >= COPIES for card in cards):
                continue  # every blocking card is in sight: a block would be a bluff we call
            lacks = math.prod(1.0 - self.holds(player.seat, card) for card in cards)
            if kind is ActionKind.ASSASSINATE and player.hidden_count == 1:
                bluff = LAST_CARD_BLUFF_BLOCK
            else:
                bluff = BLUFF_BLOCK_DUEL if self.live == 2 else BLUFF_BLOCK
            none *= lacks * (1.0 - bluff)
        return 1.0 - none

    # ------------------------------------------------------------------ values
    def weight(self, seat: int) -> float:
        """Return how much an opponent's gain is a loss to this seat (all of it head to head)."""
        if self.live <= 2:
            return 1.0
        player = self.view.players[seat]
        # The richest and the healthiest opponents are the ones to hold back.
        return (1.0 + player.coins / 10 + 0.3 * (player.hidden_count - 1)) / (self.live - 1)

    def own_influence(self, lost: int = 1) -> float:
        """Return what losing ``lost`` of this seat's influences costs it."""
        mine = self.me.hidden_count
        if self.live == 2:
            theirs = self.opponents[0].hidden_count
            return DUEL_GAME * (_duel_odds(mine, theirs) - _duel_odds(mine - lost, theirs))
        if mine <= lost:
            return GAME
        return INFLUENCE * lost

    def their_influence(self, seat: int) -> float:
        """Return what one of ``seat``'s influences lost is worth to this seat."""
        player = self.view.players[seat]
        if self.live == 2:
            mine, theirs = self.me.hidden_count, player.hidden_count
            return DUEL_GAME * (_duel_odds(mine, theirs - 1) - _duel_odds(mine, theirs))
        # Worth what a coup costs, more for a dangerous opponent (rich, healthy) and for one it puts out.
        threat = 1.0 + player.coins / 10 + (0.3 if player.hidden_count > 1 else 0.5)
        return INFLUENCE * threat / 1.3

    def card_value(self, card: Card) -> float:
        """Return what holding ``card`` is worth at this table."""
        value = CARD_VALUE[card]
        if card is Card.CAPTAIN and self.live == 2:
            value += 0.75  # a steal is a four-coin swing head to head
        if card is Card.CONTESSA and any(p.coins >= COSTS[ActionKind.ASSASSINATE] for p in self.opponents):
            value += 1.0
        return value

    def hand_value(self, cards: Sequence[Card]) -> float:
        """Score a hand: its cards, less a duplicate (less flexible and easier to read)."""
        value = sum(self.card_value(c) for c in cards)
        return value - (1.5 if len(set(cards)) < len(cards) else 0.0)


def _duel_odds(mine: int, theirs: int) -> float:
    """Return the rough chance of winning a duel with ``mine`` influences against ``theirs``."""
    if mine <= 0:
        return 0.0
    if theirs <= 0:
        return 1.0
    return DUEL_ODDS.get((mine, theirs), 0.5)


def _kept_likelihood(kept: Card, given_up: Card) -> float:
    """Return how likely a player holding ``kept`` and ``given_up`` gives up the latter (relative)."""
    return 1.0 if CARD_VALUE[kept] >= CARD_VALUE[given_up] else KEPT_WORSE


def _at_least_one(copies: float, unknown: int, drawn: int) -> float:
    """Return the chance that ``drawn`` of ``unknown`` cards hold at least one of ``copies`` copies."""
    if copies <= 0 or drawn <= 0 or unknown <= 0:
        return 0.0
    none = 1.0
    for i in range(drawn):
        if unknown - i <= 0:
            return 1.0
        none *= max(0.0, (unknown - copies - i) / (unknown - i))
    return 1.0 - none


# ----------------------------------------------------------------------------- drafting
def draft_weights(first: bool) -> dict[Card, float]:
    """Return the weights the AI drafts with, as the first player or the second."""
    return DRAFT_WEIGHTS_FIRST if first else DRAFT_WEIGHTS


def _draft(legal: Sequence[Any], rng: GameRng, *, first: bool) -> Any:
    """Pick the draft card at random by :func:`draft_weights`: a fixed pick would be counted on."""
    drafts = [a for a in legal if isinstance(a, DraftCard)]
    if not drafts:
        return legal[0]
    weights = draft_weights(first)
    roll = rng.random() * sum(weights[a.card] for a in drafts)
    for action in drafts:
        roll -= weights[action.card]
        if roll < 0:
            return action
    return drafts[-1]


# ----------------------------------------------------------------------------- declaring
def _declare(reading: Reading, legal: Sequence[Any], rng: GameRng) -> Any:
    """Return the declared action with the best expected value (plus a little seeded noise)."""
    coups = [a for a in legal if isinstance(a, LaunchCoup)]
    if coups:
        # A coup cannot be stopped: take it whenever it is affordable, on the most dangerous opponent.
        return max(coups, key=lambda a: _coup_priority(reading, a.target))
    scored = [(_declare_value(reading, action) + NOISE * rng.random(), index) for index, action in enumerate(legal)]
    best = legal[max(scored)[1]]
    kind = ActionKind(best.kind)
    if kind in BLOCKERS and reading.blocked(kind, getattr(best, "target", None)) >= BANK_WHEN_BLOCKED:
        # A move that is probably blocked may be blocked every time: sometimes bank coins instead.
        seats = reading.view.num_seats
        dragging = max(0, reading.view.version - LONG_GAME * seats) / (LONG_GAME * seats)
        if rng.random() < BANK_RATE + dragging:
            banking = [(value, index) for value, index in scored if ActionKind(legal[index].kind) not in BLOCKERS]
            best = legal[max(banking)[1]] if banking else best
    return best


def _coup_priority(reading: Reading, seat: int) -> tuple[float, ...]:
    player = reading.view.players[seat]
    return (float(player.hidden_count), float(player.coins), -float((seat - reading.me.seat) % reading.view.num_seats))


def _declare_value(reading: Reading, action: Any) -> float:
    """Return what declaring ``action`` is expected to gain, in coins."""
    kind = ActionKind(action.kind)
    target: int | None = getattr(action, "target", None)
    claim = CLAIMS.get(kind)
    if kind is ActionKind.INCOME:
        return 1.0
    if kind is ActionKind.FOREIGN_AID:
        return 2.0 * (1.0 - reading.blocked(kind, None))
    if kind is ActionKind.TAX:
        gain = 3.0
    elif kind is ActionKind.STEAL:
        assert target is not None  # noqa: S101 - steals carry a target
        taken = min(2, reading.view.players[target].coins)
        gain = taken * (1.0 + reading.weight(target)) * (1.0 - reading.blocked(kind, target))
    elif kind is ActionKind.ASSASSINATE:
        assert target is not None  # noqa: S101 - assassinations carry a target
        cost = COSTS[kind]
        gain = reading.their_influence(target) * (1.0 - reading.blocked(kind, target)) - cost
    elif kind is ActionKind.EXCHANGE:
        gain = _exchange_gain(reading)
    else:
        return 0.0
    assert claim is not None  # noqa: S101 - the remaining actions all claim a character
    if claim in reading.hand:
        return gain
    caught = reading.challenged(claim)
    if kind is ActionKind.ASSASSINATE and target is not None and reading.view.players[target].hidden_count == 1:
        # A target about to go out has nothing left to lose by challenging.
        caught = max(caught, LAST_CARD_CHALLENGE)
    return (1.0 - caught) * gain - caught * reading.own_influence()


def _exchange_gain(reading: Reading) -> float:
    """Return what an exchange is worth: more the weaker the hand is against the cards out there."""
    if not reading.hand:
        return 0.0
    per_card = reading.hand_value(reading.hand) / len(reading.hand)
    average = sum(CARD_VALUE.values()) / len(CARD_VALUE)
    return max(0.3, (average + 1.0 - per_card) * 1.2)


# ----------------------------------------------------------------------------- responding
def _respond(reading: Reading, legal: Sequence[Any], rng: GameRng) -> Any:
    """Challenge, block or allow the pending action or block."""
    view = reading.view
    allow = next((a for a in legal if isinstance(a, Allow)), legal[0])
    can_challenge = any(isinstance(a, Challenge) for a in legal)
    action = view.action
    if action is None:
        return allow
    me = reading.me.seat
    if view.phase is Phase.RESPOND_BLOCK and view.block is not None:
        if not can_challenge:
            return allow
        stake = _action_worth(reading, action.action, action.actor, action.target)
        challenge = _should_challenge(reading, view.block.blocker, view.block.card, stake, block=True)
        return Challenge() if challenge else allow
    blocks = [a for a in legal if isinstance(a, Block)]
    claim = action.claim
    targeted_kill = action.action is ActionKind.ASSASSINATE and action.target == me
    if can_challenge and claim is not None and reading.claim_true(action.actor, claim) <= 0.0:
        return Challenge()  # no copy is left for the claim: a sure win, better than any block
    for block in blocks:
        if block.card in reading.hand:
            return block
    harm = -_action_worth(reading, action.action, action.actor, action.target)
    # A lost challenge of an assassination aimed at us leaves the assassination to take the other card.
    fail = reading.own_influence(2) if targeted_kill else None
    if can_challenge and claim is not None and _should_challenge(reading, action.actor, claim, harm, fail=fail):
        return Challenge()
    if blocks:
        bluff = _bluff_block(reading, blocks, action.action, action.actor, action.target, rng, can_challenge)
        if bluff is not None:
            return bluff
    if can_challenge and claim is not None and targeted_kill and reading.me.hidden_count == 1:
        # No Contessa to hide behind and the assassination ends the game for us: only a challenge can save it.
        return Challenge()
    return allow


def _action_worth(reading: Reading, kind: ActionKind, actor: int, target: int | None) -> float:
    """Return what the pending action going ahead is worth to this seat, in coins (negative: it hurts)."""
    me = reading.me.seat
    mine = actor == me
    sign = 1.0 if mine else -reading.weight(actor)
    if kind is ActionKind.TAX:
        return 3.0 * sign
    if kind is ActionKind.FOREIGN_AID:
        return 2.0 * sign
    if kind is ActionKind.EXCHANGE:
        return 1.0 * sign
    if kind is ActionKind.STEAL:
        assert target is not None  # noqa: S101 - steals carry a target
        taken = min(2, reading.view.players[target].coins)
        if mine:
            return taken * (1.0 + reading.weight(target))
        if target == me:
            return -taken * (1.0 + reading.weight(actor))
        return -taken * reading.weight(actor)
    if kind is ActionKind.ASSASSINATE:
        assert target is not None  # noqa: S101 - assassinations carry a target
        if mine:
            return reading.their_influence(target)
        if target == me:
            return -reading.own_influence()
        return 0.0  # one opponent weakening another is no loss to us
    return 0.0


def _should_challenge(
    reading: Reading, claimant: int, card: Card, stake: float, *, fail: float | None = None, block: bool = False
) -> bool:
    """Return whether challenging ``claimant``'s claim of ``card`` is worth the risk.

    ``stake`` is what the claim succeeding costs this seat (the action's harm, or the worth of its
    own action that a block stops). Success also takes one of the claimant's influences; failure
    takes one of ours (or ``fail``, when losing costs more). A claim no copy is left for is always
    challenged.
    """
    true = reading.claim_true(claimant, card, block=block)
    if true <= 0.0:
        return True
    gain = reading.their_influence(claimant) + max(0.0, stake)
    return (1.0 - true) * gain > true * (reading.own_influence() if fail is None else fail)


def _bluff_block(
    reading: Reading,
    blocks: Sequence[Block],
    kind: ActionKind,
    actor: int,
    target: int | None,
    rng: GameRng,
    can_challenge: bool,
) -> Block | None:
    """Return a bluffed block when it is worth the risk of being caught, else ``None``."""
    me = reading.me
    harm = -_action_worth(reading, kind, actor, target)
    if harm <= 0:
        return None
    # Who may challenge a block: everyone but the blocker; the actor above all.
    challengers = reading.opponents
    options = []
    for block in blocks:
        if reading.seen[block.card] >= COPIES and not reading.draft:
            continue  # every copy is in sight: the bluff is plain to anyone counting revealed cards
        caught = reading.challenged(block.card, by=challengers)
        if kind is ActionKind.ASSASSINATE:
            # Caught, the block costs an influence and the assassination still takes another.
            value = harm - caught * reading.own_influence(2)
        else:
            # Caught, the block costs an influence and the action goes ahead all the same.
            value = harm - caught * (reading.own_influence() + harm)
        options.append((value, block))
    if not options:
        return None
    value, best = max(options, key=lambda option: option[0])
    if value <= 0:
        return None
    last_hope = kind is ActionKind.ASSASSINATE and me.hidden_count == 1
    if last_hope and can_challenge:
        # Compare with the other way out: challenging the Assassin.
        assassin_true = reading.claim_true(actor, Card.ASSASSIN)
        if 1.0 - assassin_true > 1.0 - reading.challenged(best.card, by=challengers):
            return None
    if last_hope:
        return best
    rate = BLUFF_BLOCK_RATE if kind is ActionKind.ASSASSINATE else min(1.0, value / max(harm, 1.0))
    return best if rng.random() < rate else None
