"""An AI for Переворот (Coup) that plays from its own seat's view and legal actions only.

It counts cards: the copies of a character it can see (its own hand and every revealed card) bound
how likely an opponent is to hold one. From that it

- claims what it holds (tax with a Duke, assassinate with an Assassin, steal with a Captain,
  exchange a weak hand with an Ambassador) and bluffs only rarely, when few copies are in sight;
- blocks what it can back, and bluffs a Contessa only when an assassination would finish it;
- challenges claims it knows are false (all three copies in sight) or very likely false when
  they hurt it;
- coups when it must or can, aiming at the opponent with the most influence, then coins;
- gives up its least useful card and keeps the most useful ones after an exchange.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from games.core.rng import GameRng
from games.coup.models import (
    CLAIMS,
    ActionKind,
    Allow,
    Block,
    Card,
    Challenge,
    CollectTax,
    CoupView,
    DraftCard,
    ExchangeCards,
    KeepCards,
    Phase,
    PlayerView,
    ProveClaim,
    RevealCard,
    TakeForeignAid,
    TakeIncome,
)

COPIES = 3
#: How much a card is worth holding: Duke pays every turn, Assassin and Captain press opponents,
#: Contessa defends, Ambassador mostly cycles cards.
CARD_VALUE: dict[Card, float] = {
    Card.DUKE: 5.0,
    Card.ASSASSIN: 4.0,
    Card.CAPTAIN: 3.5,
    Card.CONTESSA: 3.0,
    Card.AMBASSADOR: 2.0,
}
BLUFF_RATE = 0.08
PRESS_RATE = 0.7
SUSPICIOUS_CHALLENGE_RATE = 0.35


class CoupAgent:
    """The Coup AI; deterministic given the generator it is handed."""

    def choose(self, view: BaseModel, legal: list[Any], rng: GameRng) -> Any:
        """Return one of ``legal`` for the seat ``view`` belongs to."""
        if not isinstance(view, CoupView) or view.viewer is None:
            raise ValueError("the Coup AI needs its own seat's CoupView")
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase is Phase.DECLARE:
            return self._declare(view, legal, rng)
        if phase in {Phase.RESPOND_ACTION, Phase.RESPOND_BLOCK}:
            return self._respond(view, legal, rng)
        if phase is Phase.PROVE:
            return next((a for a in legal if isinstance(a, ProveClaim)), legal[0])
        if phase is Phase.LOSE_INFLUENCE:
            reveals = [a for a in legal if isinstance(a, RevealCard)]
            return min(reveals, key=lambda a: CARD_VALUE[a.card]) if reveals else legal[0]
        if phase is Phase.EXCHANGE:
            keeps = [a for a in legal if isinstance(a, KeepCards)]
            return max(keeps, key=lambda a: _hand_value(a.cards)) if keeps else legal[0]
        if phase is Phase.DRAFT:
            drafts = [a for a in legal if isinstance(a, DraftCard)]
            return max(drafts, key=lambda a: CARD_VALUE[a.card]) if drafts else legal[0]
        return legal[0]

    # ------------------------------------------------------------------ declaring
    def _declare(self, view: CoupView, legal: Sequence[Any], rng: GameRng) -> Any:
        me = _me(view)
        hand = set(me.hand or ())
        by_kind: dict[str, list[Any]] = {}
        for action in legal:
            by_kind.setdefault(action.kind, []).append(action)
        opponents = [p for p in view.players if p.alive and p.seat != me.seat]
        threat = sorted(opponents, key=lambda p: (-p.hidden_count, -p.coins, p.seat))

        def aimed(kind: str) -> Any | None:
            options = {a.target: a for a in by_kind.get(kind, [])}
            for player in threat:
                if player.seat in options:
                    return options[player.seat]
            return None

        coup = aimed("coup")
        if coup is not None:
            return coup
        # Pressing with a blockable action is not always right: an opponent that blocks every time
        # would otherwise lock two AIs into the same blocked move forever, so sometimes bank coins.
        press = rng.random() < PRESS_RATE
        if Card.ASSASSIN in hand and press:
            target = aimed("assassinate")
            if target is not None and _unseen_share(view, Card.CONTESSA) < 0.5:
                return target
        if Card.DUKE in hand and "tax" in by_kind:
            return CollectTax()
        if Card.CAPTAIN in hand and "steal" in by_kind and press:
            rich = [a for a in by_kind["steal"] if view.players[a.target].coins >= 2]
            if rich:
                return max(rich, key=lambda a: (view.players[a.target].coins, -a.target))
        if Card.AMBASSADOR in hand and "exchange" in by_kind and _hand_value(tuple(hand)) < 7:
            return ExchangeCards()
        if Card.ASSASSIN in hand and press:
            target = aimed("assassinate")
            if target is not None:
                return target
        # Rare bluffs, only on characters that are mostly out of sight.
        if "tax" in by_kind and _seen(view, Card.DUKE) <= 1 and rng.random() < BLUFF_RATE:
            return CollectTax()
        if "foreign_aid" in by_kind and _unseen_share(view, Card.DUKE) < 0.35:
            return TakeForeignAid()
        return next((a for a in legal if isinstance(a, TakeIncome)), legal[0])

    # ------------------------------------------------------------------ responding
    def _respond(self, view: CoupView, legal: Sequence[Any], rng: GameRng) -> Any:
        me = _me(view)
        hand = set(me.hand or ())
        blocks = [a for a in legal if isinstance(a, Block)]
        can_challenge = any(isinstance(a, Challenge) for a in legal)
        allow = next((a for a in legal if isinstance(a, Allow)), legal[0])
        action = view.action
        if view.phase is Phase.RESPOND_BLOCK and view.block is not None:
            claimed = view.block.card
            mine = action is not None and action.actor == me.seat
            if can_challenge and _seen(view, claimed) >= COPIES:
                return Challenge()
            if can_challenge and mine and me.hidden_count == 2 and _seen(view, claimed) >= 2:
                return Challenge() if rng.random() < SUSPICIOUS_CHALLENGE_RATE else allow
            return allow
        if action is None:
            return allow
        targeted = action.target == me.seat
        # Block honestly when we can.
        for block in blocks:
            if block.card in hand:
                return block
        claim = CLAIMS.get(action.action)
        if can_challenge and claim is not None and _seen(view, claim) >= COPIES:
            return Challenge()
        if targeted and action.action is ActionKind.ASSASSINATE:
            contessa = [b for b in blocks if b.card is Card.CONTESSA]
            if me.hidden_count == 1:
                # Losing the last card anyway: a challenge or a bluffed Contessa is the only hope.
                if can_challenge and claim is not None and _seen(view, claim) >= 2:
                    return Challenge()
                if contessa and _seen(view, Card.CONTESSA) < COPIES:
                    return contessa[0]
                if can_challenge:
                    return Challenge()
        if (
            can_challenge
            and claim is not None
            and targeted
            and me.hidden_count == 2
            and _seen(view, claim) >= 2
            and rng.random() < SUSPICIOUS_CHALLENGE_RATE
        ):
            return Challenge()
        return allow


def _me(view: CoupView) -> PlayerView:
    assert view.viewer is not None  # noqa: S101 - checked by choose()
    return view.players[view.viewer]


def _seen(view: CoupView, card: Card) -> int:
    """Return how many copies of ``card`` this seat can see (its own hand and every revealed card)."""
    counts: Counter[Card] = Counter()
    for player in view.players:
        counts.update(player.revealed)
        if player.hand is not None:
            counts.update(player.hand)
    return counts[card]


def _unseen_share(view: CoupView, card: Card) -> float:
    """Return the chance a given unknown card is ``card``."""
    unknown = view.deck_size + sum(p.hidden_count for p in view.players if p.hand is None)
    if unknown <= 0:
        return 0.0
    return max(0, COPIES - _seen(view, card)) / unknown


def _hand_value(cards: Sequence[Card]) -> float:
    """Score a hand: card values, with a penalty for a duplicate (less flexible, easier to read)."""
    value = sum(CARD_VALUE[c] for c in cards)
    return value - (1.5 if len(set(cards)) < len(cards) else 0.0)
