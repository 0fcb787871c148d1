"""Data of Переворот (Coup): cards, options, actions, events and views.

Rules source: ../shared/rules/coup.md (binding rulings) and the Russian rulebook v1.0.
Actions are imperative (``CollectTax``), events past tense (``TaxCollected``); every model is a
frozen pydantic model that round-trips through JSON.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from games.core.models import Event, Model, Seat


class Card(StrEnum):
    """The five characters; three copies of each make the 15-card court deck."""

    DUKE = "duke"
    ASSASSIN = "assassin"
    CAPTAIN = "captain"
    AMBASSADOR = "ambassador"
    CONTESSA = "contessa"


FULL_DECK: tuple[Card, ...] = tuple(card for card in Card for _ in range(3))


class ActionKind(StrEnum):
    """The seven turn actions."""

    INCOME = "income"
    FOREIGN_AID = "foreign_aid"
    COUP = "coup"
    TAX = "tax"
    ASSASSINATE = "assassinate"
    STEAL = "steal"
    EXCHANGE = "exchange"


#: The character an action claims (actions absent here claim nobody and cannot be challenged).
CLAIMS: dict[ActionKind, Card] = {
    ActionKind.TAX: Card.DUKE,
    ActionKind.ASSASSINATE: Card.ASSASSIN,
    ActionKind.STEAL: Card.CAPTAIN,
    ActionKind.EXCHANGE: Card.AMBASSADOR,
}
#: The characters that may block an action.
BLOCKERS: dict[ActionKind, tuple[Card, ...]] = {
    ActionKind.FOREIGN_AID: (Card.DUKE,),
    ActionKind.ASSASSINATE: (Card.CONTESSA,),
    ActionKind.STEAL: (Card.CAPTAIN, Card.AMBASSADOR),
}
#: Actions only their target may block (foreign aid may be blocked by anyone).
TARGET_ONLY_BLOCK: frozenset[ActionKind] = frozenset({ActionKind.ASSASSINATE, ActionKind.STEAL})
COSTS: dict[ActionKind, int] = {ActionKind.COUP: 7, ActionKind.ASSASSINATE: 3}
TARGETED: frozenset[ActionKind] = frozenset({ActionKind.COUP, ActionKind.ASSASSINATE, ActionKind.STEAL})
FORCED_COUP_COINS = 10


class Phase(StrEnum):
    """What the table is waiting for."""

    DRAFT = "draft"  # 2-player draft variant: both pick a card in secret
    DECLARE = "declare"  # the turn player declares an action
    RESPOND_ACTION = "respond_action"  # others may challenge / block / allow the action
    RESPOND_BLOCK = "respond_block"  # everyone but the blocker may challenge / allow the block
    PROVE = "prove"  # a challenged claimant shows the card or concedes
    LOSE_INFLUENCE = "lose_influence"  # a seat picks which face-down card to reveal
    EXCHANGE = "exchange"  # the ambassador picks which cards to keep
    OVER = "over"


class CoupOptions(Model):
    """Table options.

    ``first_seat`` fixes the first player (rematch: the previous winner); ``None`` draws it.
    ``deck`` stacks the court deck for tests: the full 15-card order, dealt from the front; with a
    stacked deck every "shuffle" keeps order and returned cards go to the bottom, so scenarios
    are exact.
    """

    draft: bool = False
    first_seat: int | None = None
    deck: tuple[Card, ...] | None = None


# ----------------------------------------------------------------------------- actions
class TakeIncome(Model):
    """Take 1 coin; cannot be challenged or blocked."""

    kind: Literal["income"] = "income"


class TakeForeignAid(Model):
    """Take 2 coins; any other player may block claiming Duke."""

    kind: Literal["foreign_aid"] = "foreign_aid"


class LaunchCoup(Model):
    """Pay 7; the target loses an influence."""

    kind: Literal["coup"] = "coup"
    target: Seat


class CollectTax(Model):
    """Claim Duke: take 3 coins."""

    kind: Literal["tax"] = "tax"


class Assassinate(Model):
    """Claim Assassin, pay 3: the target loses an influence unless it blocks with Contessa."""

    kind: Literal["assassinate"] = "assassinate"
    target: Seat


class Steal(Model):
    """Claim Captain: take up to 2 coins from the target."""

    kind: Literal["steal"] = "steal"
    target: Seat


class ExchangeCards(Model):
    """Claim Ambassador: draw 2, keep as many as you had."""

    kind: Literal["exchange"] = "exchange"


class Challenge(Model):
    """Challenge the pending claim (an action's or a block's)."""

    kind: Literal["challenge"] = "challenge"


class Block(Model):
    """Block the pending action claiming ``card``."""

    kind: Literal["block"] = "block"
    card: Card


class Allow(Model):
    """Let the pending action or block stand."""

    kind: Literal["allow"] = "allow"


class ProveClaim(Model):
    """Show the challenged card; it is shuffled back and replaced."""

    kind: Literal["prove"] = "prove"


class Concede(Model):
    """Do not show the challenged card: the claim fails."""

    kind: Literal["concede"] = "concede"


class RevealCard(Model):
    """Lose an influence by turning ``card`` face up."""

    kind: Literal["reveal"] = "reveal"
    card: Card


class KeepCards(Model):
    """Finish an exchange keeping ``cards`` (a multiset, sorted); the rest go back."""

    kind: Literal["keep"] = "keep"
    cards: tuple[Card, ...]


class DraftCard(Model):
    """Draft variant: secretly pick ``card`` from your set of five."""

    kind: Literal["draft"] = "draft"
    card: Card


TURN_ACTIONS = (TakeIncome, TakeForeignAid, LaunchCoup, CollectTax, Assassinate, Steal, ExchangeCards)

CoupAction = Annotated[
    TakeIncome
    | TakeForeignAid
    | LaunchCoup
    | CollectTax
    | Assassinate
    | Steal
    | ExchangeCards
    | Challenge
    | Block
    | Allow
    | ProveClaim
    | Concede
    | RevealCard
    | KeepCards
    | DraftCard,
    Field(discriminator="kind"),
]
ACTION_ADAPTER: TypeAdapter[CoupAction] = TypeAdapter(CoupAction)


# ----------------------------------------------------------------------------- events
class GameStarted(Event):
    """The game began; ``first_seat`` moves first."""

    kind: Literal["game_started"] = "game_started"
    first_seat: Seat
    draft: bool
    starting_coins: tuple[int, ...]


class CardsDealt(Event):
    """``seat`` received ``cards`` face down (private to that seat)."""

    kind: Literal["cards_dealt"] = "cards_dealt"
    seat: Seat
    cards: tuple[Card, ...]


class CardDrafted(Event):
    """Draft variant: ``seat`` picked ``card`` (private); public copies carry ``card=None``."""

    kind: Literal["card_drafted"] = "card_drafted"
    seat: Seat
    card: Card | None


class TurnStarted(Event):
    """It is ``seat``'s turn; ``forced_coup`` when it holds 10+ coins."""

    kind: Literal["turn_started"] = "turn_started"
    seat: Seat
    forced_coup: bool = False


class ActionDeclared(Event):
    """``actor`` declared ``action`` (paying ``cost``), claiming ``claim`` if any."""

    kind: Literal["action_declared"] = "action_declared"
    actor: Seat
    action: ActionKind
    target: Seat | None = None
    claim: Card | None = None
    cost: int = 0


class ResponseAllowed(Event):
    """``seat`` let the pending action or block stand."""

    kind: Literal["response_allowed"] = "response_allowed"
    seat: Seat


class ChallengeIssued(Event):
    """``challenger`` challenged ``claimant``'s claim of ``card``."""

    kind: Literal["challenge_issued"] = "challenge_issued"
    challenger: Seat
    claimant: Seat
    card: Card


class ClaimProven(Event):
    """``claimant`` showed ``card``; it goes back into the court deck."""

    kind: Literal["claim_proven"] = "claim_proven"
    claimant: Seat
    card: Card


class CardDrawn(Event):
    """``seat`` drew a replacement ``card`` (private to that seat)."""

    kind: Literal["card_drawn"] = "card_drawn"
    seat: Seat
    card: Card


class ClaimConceded(Event):
    """``claimant`` did not show ``card``; the claim fails."""

    kind: Literal["claim_conceded"] = "claim_conceded"
    claimant: Seat
    card: Card


class BlockDeclared(Event):
    """``blocker`` blocked the pending action claiming ``card``."""

    kind: Literal["block_declared"] = "block_declared"
    blocker: Seat
    card: Card


class InfluenceLost(Event):
    """``seat`` turned ``card`` face up."""

    kind: Literal["influence_lost"] = "influence_lost"
    seat: Seat
    card: Card
    timed_out: bool = False


class PlayerEliminated(Event):
    """``seat`` has no face-down cards left."""

    kind: Literal["player_eliminated"] = "player_eliminated"
    seat: Seat


class CoinsTaken(Event):
    """``seat`` took ``amount`` coins from the treasury by ``action``."""

    kind: Literal["coins_taken"] = "coins_taken"
    seat: Seat
    amount: int
    action: ActionKind


class CoinsStolen(Event):
    """``actor`` took ``amount`` coins from ``target``."""

    kind: Literal["coins_stolen"] = "coins_stolen"
    actor: Seat
    target: Seat
    amount: int


class CoinsRefunded(Event):
    """A failed (challenged) action's cost went back to ``seat``."""

    kind: Literal["coins_refunded"] = "coins_refunded"
    seat: Seat
    amount: int


class CoinsReturned(Event):
    """An eliminated ``seat``'s coins went back to the treasury."""

    kind: Literal["coins_returned"] = "coins_returned"
    seat: Seat
    amount: int


class ActionBlocked(Event):
    """The pending action of ``actor`` was stopped by ``blocker``'s block."""

    kind: Literal["action_blocked"] = "action_blocked"
    actor: Seat
    blocker: Seat
    card: Card


class ActionFailed(Event):
    """The pending action of ``actor`` did not happen (its claim failed or the target is gone)."""

    kind: Literal["action_failed"] = "action_failed"
    actor: Seat
    action: ActionKind


class ExchangeDrawn(Event):
    """The ambassador drew ``cards`` (private to that seat)."""

    kind: Literal["exchange_drawn"] = "exchange_drawn"
    seat: Seat
    cards: tuple[Card, ...]


class ExchangeCompleted(Event):
    """The exchange ended; ``kept``/``returned`` are filled only in the actor's private copy."""

    kind: Literal["exchange_completed"] = "exchange_completed"
    seat: Seat
    kept: tuple[Card, ...] | None = None
    returned: tuple[Card, ...] | None = None


class DeckShuffled(Event):
    """The court deck was shuffled (``size`` cards)."""

    kind: Literal["deck_shuffled"] = "deck_shuffled"
    size: int


class PlayerResigned(Event):
    """``seat`` resigned: its face-down cards (``revealed``) were turned face up and it left play."""

    kind: Literal["player_resigned"] = "player_resigned"
    seat: Seat
    revealed: tuple[Card, ...]


class GameWon(Event):
    """``seat`` is the last player with influence."""

    kind: Literal["game_won"] = "game_won"
    seat: Seat


CoupEvent = Annotated[
    GameStarted
    | CardsDealt
    | CardDrafted
    | TurnStarted
    | ActionDeclared
    | ResponseAllowed
    | ChallengeIssued
    | ClaimProven
    | CardDrawn
    | ClaimConceded
    | BlockDeclared
    | InfluenceLost
    | PlayerEliminated
    | CoinsTaken
    | CoinsStolen
    | CoinsRefunded
    | CoinsReturned
    | ActionBlocked
    | ActionFailed
    | ExchangeDrawn
    | ExchangeCompleted
    | DeckShuffled
    | PlayerResigned
    | GameWon,
    Field(discriminator="kind"),
]
EVENT_ADAPTER: TypeAdapter[CoupEvent] = TypeAdapter(CoupEvent)


# ----------------------------------------------------------------------------- views
class PlayerView(Model):
    """One seat as a viewer sees it; ``hand`` is filled only for the viewer's own seat."""

    seat: Seat
    coins: int
    revealed: tuple[Card, ...]
    hidden_count: int
    alive: bool
    hand: tuple[Card, ...] | None = None


class PendingActionView(Model):
    """The declared action being resolved."""

    action: ActionKind
    actor: Seat
    target: Seat | None = None
    claim: Card | None = None


class PendingBlockView(Model):
    """The block being resolved."""

    blocker: Seat
    card: Card


class ChallengeView(Model):
    """The challenge being resolved: ``against`` is "action" or "block"."""

    challenger: Seat
    claimant: Seat
    card: Card
    against: Literal["action", "block"]


class CoupView(Model):
    """Everything ``viewer`` may know (``viewer=None``: the public/spectator view).

    ``awaiting`` lists the seats the game waits for; ``choices`` holds the viewer's private pool
    while it must choose (exchange: the cards held plus the two drawn; draft: the five characters).
    """

    viewer: Seat | None
    num_seats: int
    version: int
    phase: Phase
    turn: Seat
    first_seat: Seat
    players: tuple[PlayerView, ...]
    deck_size: int
    action: PendingActionView | None = None
    block: PendingBlockView | None = None
    challenge: ChallengeView | None = None
    awaiting: tuple[Seat, ...] = ()
    losing: Seat | None = None
    forced_coup: bool = False
    choices: tuple[Card, ...] | None = None
    eliminated: tuple[Seat, ...] = ()
    winner: Seat | None = None
