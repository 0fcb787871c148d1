"""The data contract of «Интриги»: options, actions, events and views.

This module is the contract the rest of the bot builds on (presenter, renderer, AI, localisation):
names here only ever grow, they are never renamed or removed. Rules source:
``shared/rules/intrigue.md`` (binding; RULING lines) over the 2016 amateur rulebook
(``rules/seeds/001_80fb6a4f03b1fc27.txt``). Static house data (names, traits, cells) lives in
:mod:`games.intrigue.data`; views carry ids.

* Ids: lands 1–12, characters 1–18 (see ``data.LANDS`` / ``data.CHARACTERS``); mercenary cards carry
  neutral ids (``M100``…, a seeded shuffle per table, see ``game.card_id``) dealt whenever a card
  enters a hand and again when it goes face down, so an id tells neither the type nor the card's
  past. Ids are for actions; no public text shows one.
* Actions are imperative with a ``kind`` discriminator. Multi-parameter decisions are sequences of
  small picks (``PickCard``, ``PickCharacter``, ``PickLand``…) whose meaning is given by the pending
  step (:class:`PendingView` ``step`` and the viewer's :class:`DraftView`); ``Back`` undoes a pick,
  ``Done`` submits. Every step lists at most ~50 legal actions.
* ``GiveCoins`` (free action F4) is accepted by ``apply`` from any seat at any moment except Spies &
  Thieves; it is offered by ``IntrigueEngine.free_actions`` and is *not* part of ``legal_actions``.
* Events are past tense; private copies carry ``visible_to``. Where one happening has a public and a
  private side the engine emits two copies of one event class (public copy with hidden fields ``None``).
* :class:`IntrigueView` is everything one seat (or a spectator, ``viewer=None``) may know.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from games.core.models import Event, Model, Seat
from games.intrigue.data import CouncilSeat, Disposition


# ----------------------------------------------------------------------------- enums
class Phase(StrEnum):
    """The phase of the turn (§3.1); ``setup`` is the initial placement."""

    SETUP = "setup"
    SPIES = "spies"  # Шпионы и воры
    LANDS_ONE = "lands_one"  # Земли. Первая
    INVESTMENTS = "investments"  # Вложения
    CHARACTERS = "characters"  # Персонажи
    LANDS_TWO = "lands_two"  # Земли. Вторая
    OVER = "over"


class Decision(StrEnum):
    """The decision catalogue of §3.6."""

    PLACEMENT = "D1"
    WINDOW = "D2"
    SPY_TURN = "D3"
    GUARD = "D4"
    THIEF_TAKE = "D5"
    RECRUIT = "D6"
    RARE_GIFT = "D7"
    GROWTH = "D8"
    INVEST = "D9"
    SLOT = "D10"
    CONTEST_BID = "D11"
    LEND_OFFER = "D12"
    BALLOT = "D13"
    SAPPHIRE = "D14"
    SWAY = "D15"
    APPOINT = "D16"
    ASSASSIN_PENALTY = "D17"
    RIVER_CONSENT = "D18"
    VALE_TAX = "D19"
    GARRISON = "D20"


class Window(StrEnum):
    """The four windows of free actions (§3.3)."""

    W1 = "W1"  # starts Lands I
    W2 = "W2"  # starts Characters
    W3 = "W3"  # follows the call of a removal vote or an election
    W4 = "W4"  # starts Lands II


class MercType(StrEnum):
    """Mercenary card types (§1.6)."""

    ASSASSIN = "assassin"
    THIEF = "thief"
    SPY = "spy"
    GUARD = "guard"
    MESSENGER = "messenger"


class Mode(StrEnum):
    """A messenger's secretly declared mode (RULING G14)."""

    GIFT = "gift"
    BRIBE = "bribe"


class CharAction(StrEnum):
    """What a character can do in its action (§7.4, §1.5)."""

    MOVE_MILITARY = "move_military"  # Военачальник
    BLESS = "bless"  # Епископ
    GRANT = "grant"  # Казначей
    REMOVE_HEAD = "remove_head"  # councillor: council vote on a head
    ELECTION = "election"  # councillor: Избрание Советом
    REMOVE_COUNCILLOR = "remove_councillor"  # head: land vote on a permanent councillor
    HILLS = "hills"  # Пустые Холмы head: the rider as the whole action
    RIVER_PLAY = "river_play"  # Речная Подкова head: direct play
    SEND = "send"  # send a mercenary
    LEND = "lend"  # lend the send to another player


class Side(StrEnum):
    """A ballot entry, a preference or a sway commitment."""

    FOR = "for"
    AGAINST = "against"
    ABSTAIN = "abstain"
    NONE = "none"  # no preference


class Option(StrEnum):
    """Named answers of yes/no style decisions (``Choose``)."""

    DECLINE = "decline"  # D4 no guard, D6 decline, D7 no, D12 decline
    RECRUIT = "recruit"  # D6
    PAY = "pay"  # D7
    TAKE_CARD = "take_card"  # D5
    TAKE_COINS = "take_coins"  # D5
    ACCEPT = "accept"  # D12
    CONSENT = "consent"  # D18
    REFUSE = "refuse"  # D18
    FROM_CHARACTER = "from_character"  # marker source
    FROM_LAND = "from_land"  # marker source


class VoteKind(StrEnum):
    """The three vote kinds of §11.1."""

    REMOVE_HEAD = "remove_head"  # council vote
    REMOVE_COUNCILLOR = "remove_councillor"  # land vote
    APPOINT = "appoint"  # land vote filling a council seat


class Victory(StrEnum):
    """How the game ended (§12)."""

    ELECTION = "election"
    COUP = "coup"
    WILL = "will"
    HAND_OF_ORDER = "hand_of_order"
    TURN_LIMIT = "turn_limit"
    LAST_PLAYER = "last_player"  # every other seat resigned


class RevealHow(StrEnum):
    """Who turned a face-down card up."""

    OWN = "own"  # F1/F2 by its owner
    SPY = "spy"
    THIEF = "thief"
    GARRISON = "garrison"
    RIVER = "river"  # played from hand through Речная Подкова


class CharStatus(StrEnum):
    """Where a character is."""

    HEAD = "head"
    COUNCIL = "council"
    POOL = "pool"
    DEAD = "dead"


class Reason(StrEnum):
    """Why tokens or coins moved (for the log)."""

    SETUP = "setup"
    INVEST = "invest"
    CONVERT = "convert"
    BLESS = "bless"
    IMPERIOUS = "imperious"
    SYCOPHANT = "sycophant"
    GIFT = "gift"
    BRIBE = "bribe"
    GUARD = "guard"
    GARRISON = "garrison"
    PENALTY = "penalty"  # exposure trait penalties (Осторожный, Неподкупный, Благородный)
    EXPOSED = "exposed"  # the "−1 on target" of an exposed card
    ASSASSIN_EXPOSED = "assassin_exposed"
    SPY_ON_GUARD = "spy_on_guard"
    TAX_DEFAULT = "tax_default"
    MARKER = "marker"
    ENVIOUS = "envious"
    NOBLE = "noble"
    ADVICE = "advice"
    STAKE = "stake"
    BID = "bid"
    HILLS = "hills"
    KILLED = "killed"
    GUARDED_ASSASSIN = "guarded_assassin"
    INCOME = "income"
    HARBOUR = "harbour"
    STIPEND = "stipend"
    HIRE = "hire"
    TAX = "tax"
    THIEF = "thief"
    GRANT = "grant"
    LEND = "lend"
    GREEDY = "greedy"
    GOLDEN_COAST = "golden_coast"


# ----------------------------------------------------------------------------- options
class IntrigueOptions(Model):
    """Table options.

    ``lands``: ``standard`` (the ✔ sets of §1.1) or ``random`` (a balanced seeded draw). 7 lands are
    played by 2–5 players and 9 by 6–8 (§13). ``max_turns``: the turn limit (§12.5, 4–20); unset, it
    follows the land count (``data.DEFAULT_MAX_TURNS``: 10 turns with 7 lands, 14 with 9).
    For tests: ``land_ids`` fixes the lands (any 7 or 9 distinct ids); ``characters`` stacks the
    character deal — heads in land order, then Военачальник, Епископ, Казначей, Тайный Советник, then
    the pool; unnamed characters follow in id order.
    """

    lands: Literal["standard", "random"] = "standard"
    max_turns: int | None = None
    land_ids: tuple[int, ...] | None = None
    characters: tuple[int, ...] | None = None


# ----------------------------------------------------------------------------- actions
class PlaceToken(Model):
    """Setup (D1): place one token on ``land`` (``head=True``: on its head)."""

    kind: Literal["place_token"] = "place_token"
    land: int
    head: bool = False


class Done(Model):
    """End a window turn, submit a ballot / sway round / basket, or stop picking (garrison, moves)."""

    kind: Literal["done"] = "done"


class Back(Model):
    """Undo the last pick of the current sub-decision."""

    kind: Literal["back"] = "back"


class Pass(Model):
    """Pass: out of Spies & Thieves, or out of the Characters phase for good."""

    kind: Literal["pass"] = "pass"


class Skip(Model):
    """Take the "nothing" answer: an empty basket, no growth, no dictation, no sway, no action."""

    kind: Literal["skip"] = "skip"


class RevealMessenger(Model):
    """F1: reveal an own face-down messenger placed in an earlier turn (a bribe adds ``extra`` tokens)."""

    kind: Literal["reveal_messenger"] = "reveal_messenger"
    card: str
    extra: int = 0


class RevealAssassin(Model):
    """F2: reveal an own face-down assassin placed in an earlier turn."""

    kind: Literal["reveal_assassin"] = "reveal_assassin"
    card: str


class Convert(Model):
    """F3: turn 2 own land tokens on ``land`` into 1 own token on its head."""

    kind: Literal["convert"] = "convert"
    land: int


class GiveCoins(Model):
    """F4: give ``amount`` coins to seat ``to`` (accepted from any seat, any moment but Spies & Thieves)."""

    kind: Literal["give_coins"] = "give_coins"
    to: Seat
    amount: int


class PickCard(Model):
    """Pick a mercenary card by id (own card to reveal or send, a target card, a guard to answer with)."""

    kind: Literal["pick_card"] = "pick_card"
    card: str


class PickCharacter(Model):
    """Pick a character: act via it, a target, a voter, a candidate, an appointee."""

    kind: Literal["pick_character"] = "pick_character"
    character: int


class PickLand(Model):
    """Pick a land: invest, grow, bless, move military from/to."""

    kind: Literal["pick_land"] = "pick_land"
    land: int


class PickSeat(Model):
    """Pick a player: the Казначей's grant, a borrower."""

    kind: Literal["pick_seat"] = "pick_seat"
    seat: Seat


class PickAmount(Model):
    """Pick a number: a bid, a stake, a lending price, a bribe's extra tokens, the Долина Стрел tax."""

    kind: Literal["pick_amount"] = "pick_amount"
    amount: int


class PickType(Model):
    """Investments: add one hire of ``merc`` to the basket."""

    kind: Literal["pick_type"] = "pick_type"
    merc: MercType


class PickMode(Model):
    """Declare a messenger's mode."""

    kind: Literal["pick_mode"] = "pick_mode"
    mode: Mode


class PickSide(Model):
    """A ballot entry, a preference, a dictated vote or a sway side."""

    kind: Literal["pick_side"] = "pick_side"
    side: Side


class PickAction(Model):
    """Choose the character's action; ``rider`` adds the Пустые Холмы rider (§1.2)."""

    kind: Literal["pick_action"] = "pick_action"
    action: CharAction
    rider: bool = False


class ContestHead(Model):
    """Main action: contest the neutral head ``character`` (§7.5)."""

    kind: Literal["contest_head"] = "contest_head"
    character: int


class Choose(Model):
    """A named answer (take card / coins, recruit, pay, accept, consent, marker source…)."""

    kind: Literal["choose"] = "choose"
    option: Option


IntrigueAction = Annotated[
    PlaceToken
    | Done
    | Back
    | Pass
    | Skip
    | RevealMessenger
    | RevealAssassin
    | Convert
    | GiveCoins
    | PickCard
    | PickCharacter
    | PickLand
    | PickSeat
    | PickAmount
    | PickType
    | PickMode
    | PickSide
    | PickAction
    | ContestHead
    | Choose,
    Field(discriminator="kind"),
]
ACTION_ADAPTER: TypeAdapter[IntrigueAction] = TypeAdapter(IntrigueAction)
ACTION_TYPES: tuple[type, ...] = (
    PlaceToken,
    Done,
    Back,
    Pass,
    Skip,
    RevealMessenger,
    RevealAssassin,
    Convert,
    GiveCoins,
    PickCard,
    PickCharacter,
    PickLand,
    PickSeat,
    PickAmount,
    PickType,
    PickMode,
    PickSide,
    PickAction,
    ContestHead,
    Choose,
)


# ----------------------------------------------------------------------------- events
class GameStarted(Event):
    """The table was set up with ``lands`` (ids, in play order) and the turn limit."""

    kind: Literal["game_started"] = "game_started"
    lands: tuple[int, ...]
    max_turns: int
    coins: int
    tokens: int


class CharactersDealt(Event):
    """The characters were dealt: ``heads[i]`` heads ``lands[i]``; the council; the rest is the pool."""

    kind: Literal["characters_dealt"] = "characters_dealt"
    lands: tuple[int, ...]
    heads: tuple[int, ...]
    council: tuple[int, ...]  # Военачальник, Епископ, Казначей, Тайный Советник
    pool: tuple[int, ...]


class TurnStarted(Event):
    """Turn ``turn`` began; ``rsp`` is its rotating seat priority."""

    kind: Literal["turn_started"] = "turn_started"
    turn: int
    rsp: tuple[Seat, ...]


class PhaseStarted(Event):
    """A phase of the turn began."""

    kind: Literal["phase_started"] = "phase_started"
    phase: Phase
    turn: int


class WindowOpened(Event):
    """A window of free actions opened for ``seats``."""

    kind: Literal["window_opened"] = "window_opened"
    window: Window
    seats: tuple[Seat, ...]


class WindowClosed(Event):
    """The window closed."""

    kind: Literal["window_closed"] = "window_closed"
    window: Window


class TokensPlaced(Event):
    """``seat`` placed ``count`` own tokens on ``land`` or on ``character``."""

    kind: Literal["tokens_placed"] = "tokens_placed"
    seat: Seat
    count: int
    land: int | None = None
    character: int | None = None
    reason: Reason


class TokensRemoved(Event):
    """``count`` of ``seat``'s tokens left ``land`` or ``character``; ``forced`` for penalties."""

    kind: Literal["tokens_removed"] = "tokens_removed"
    seat: Seat
    count: int
    land: int | None = None
    character: int | None = None
    reason: Reason
    forced: bool = False


class CoinsGained(Event):
    """``seat`` gained ``amount`` coins from the bank (``land`` for income)."""

    kind: Literal["coins_gained"] = "coins_gained"
    seat: Seat
    amount: int
    reason: Reason
    land: int | None = None


class CoinsPaid(Event):
    """``seat`` paid ``amount`` coins to the bank."""

    kind: Literal["coins_paid"] = "coins_paid"
    seat: Seat
    amount: int
    reason: Reason
    land: int | None = None


class CoinsGiven(Event):
    """``seat`` gave ``amount`` coins to ``to`` (F4, or a lending price)."""

    kind: Literal["coins_given"] = "coins_given"
    seat: Seat
    to: Seat
    amount: int
    reason: Reason | None = None


class TokensConverted(Event):
    """F3: ``seat`` turned 2 land tokens on ``land`` into 1 token on its head ``character``."""

    kind: Literal["tokens_converted"] = "tokens_converted"
    seat: Seat
    land: int
    character: int


class PopulationGrew(Event):
    """``land`` gained 1 peaceful population instead of paying ``seat`` income."""

    kind: Literal["population_grew"] = "population_grew"
    land: int
    seat: Seat
    peaceful: int


class GrowthChosen(Event):
    """A sealed growth choice was revealed (``land=None``: none)."""

    kind: Literal["growth_chosen"] = "growth_chosen"
    seat: Seat
    land: int | None = None


class LandHolders(Event):
    """Holders computed in Lands I or II: ``holders[i]`` of ``lands[i]`` (None), ``contested[i]`` seats."""

    kind: Literal["land_holders"] = "land_holders"
    lands: tuple[int, ...]
    holders: tuple[Seat | None, ...]
    contested: tuple[tuple[Seat, ...], ...]


class TaxDeclared(Event):
    """The Военачальник's controller (or the default) set the Долина Стрел tax."""

    kind: Literal["tax_declared"] = "tax_declared"
    seat: Seat | None
    amount: int


class TaxDefaulted(Event):
    """``seat`` could not pay ``land``'s tax of ``amount``."""

    kind: Literal["tax_defaulted"] = "tax_defaulted"
    seat: Seat
    land: int
    amount: int


class CardsHired(Event):
    """``seat`` hired ``count`` cards for ``cost``; ``cards``/``types`` only in the private copy."""

    kind: Literal["cards_hired"] = "cards_hired"
    seat: Seat
    count: int
    cost: int
    cards: tuple[str, ...] | None = None
    types: tuple[MercType, ...] | None = None


class BasketSubmitted(Event):
    """``seat`` ended its Investments turn: ``invested`` lands (one per token), ``hired`` cards."""

    kind: Literal["basket_submitted"] = "basket_submitted"
    seat: Seat
    invested: tuple[int, ...]
    hired: int
    paid: int


class RepresentativeChosen(Event):
    """``character`` (head of ``land``) became the Representative (``None``: no head in office)."""

    kind: Literal["representative_chosen"] = "representative_chosen"
    character: int | None
    land: int | None
    key: int  # the first §7.1 key that separated him (7 = the Appointer's choice; 0 = alone)


class OrderFixed(Event):
    """The Characters-phase player order was fixed (§7.2)."""

    kind: Literal["order_fixed"] = "order_fixed"
    order: tuple[Seat, ...]


class SlotStarted(Event):
    """An action slot of ``seat`` began."""

    kind: Literal["slot_started"] = "slot_started"
    seat: Seat


class PlayerPassed(Event):
    """``seat`` passed: out of this phase (or out of Spies & Thieves)."""

    kind: Literal["player_passed"] = "player_passed"
    seat: Seat
    phase: Phase


class SycophantRewarded(Event):
    """Подхалим ``character`` recorded ``leader`` as the new council leader and took a token of theirs."""

    kind: Literal["sycophant_rewarded"] = "sycophant_rewarded"
    character: int
    leader: Seat


class ActionTaken(Event):
    """``seat`` used ``character``'s action ``action`` (``rider``: with the Пустые Холмы rider)."""

    kind: Literal["action_taken"] = "action_taken"
    seat: Seat
    character: int
    action: CharAction
    rider: bool = False
    target: int | None = None  # a character
    land: int | None = None
    to: Seat | None = None


class MilitaryMoved(Event):
    """The Военачальник moved one military token from ``source`` to ``dest``."""

    kind: Literal["military_moved"] = "military_moved"
    source: int
    dest: int


class CardSent(Event):
    """``seat`` sent ``card`` through ``via`` onto ``target`` (marker from ``source``); type/mode private."""

    kind: Literal["card_sent"] = "card_sent"
    seat: Seat
    card: str
    via: int
    target: int
    source: Literal["character", "land", "reserve"]
    merc: MercType | None = None
    mode: Mode | None = None


class LendOffered(Event):
    """``lender`` offered ``character``'s send to ``borrower`` for ``price`` coins."""

    kind: Literal["lend_offered"] = "lend_offered"
    lender: Seat
    borrower: Seat
    character: int
    price: int


class LendAnswered(Event):
    """The borrower accepted or declined."""

    kind: Literal["lend_answered"] = "lend_answered"
    borrower: Seat
    accepted: bool


class CardRevealed(Event):
    """``card`` of ``owner`` on ``character`` was turned up (``how``; ``by`` the revealing seat)."""

    kind: Literal["card_revealed"] = "card_revealed"
    card: str
    owner: Seat
    character: int
    merc: MercType
    mode: Mode | None = None
    how: RevealHow
    by: Seat
    agent: str | None = None  # the spy or thief card that exposed it


class GiftDelivered(Event):
    """A gift of ``seat`` to ``character`` added ``tokens``."""

    kind: Literal["gift_delivered"] = "gift_delivered"
    seat: Seat
    character: int
    tokens: int


class BribeDelivered(Event):
    """A bribe of ``seat`` to ``character`` added ``tokens`` for ``paid`` coins (0 tokens: no effect)."""

    kind: Literal["bribe_delivered"] = "bribe_delivered"
    seat: Seat
    character: int
    tokens: int
    paid: int
    refused: bool = False  # Неподкупный


class CardDiscarded(Event):
    """``card`` (of ``owner``, type ``merc`` when known publicly) was discarded; its marker returned."""

    kind: Literal["card_discarded"] = "card_discarded"
    card: str
    owner: Seat
    merc: MercType | None = None
    character: int | None = None


class CardTaken(Event):
    """``seat`` took the revealed ``card`` (a ``merc``) into hand by ``how`` (thief or recruit)."""

    kind: Literal["card_taken"] = "card_taken"
    seat: Seat
    card: str
    merc: MercType
    how: Literal["thief", "recruit"]
    expires_turn: int


class GuardAnswered(Event):
    """``seat``'s guard ``card`` on ``character`` cancelled ``against``."""

    kind: Literal["guard_answered"] = "guard_answered"
    seat: Seat
    card: str
    character: int
    against: str


class SubmissionReceived(Event):
    """``seat`` submitted a sealed choice for ``decision`` (its content is revealed later)."""

    kind: Literal["submission_received"] = "submission_received"
    seat: Seat
    decision: Decision


class CharacterKilled(Event):
    """``character`` was killed by ``seat``'s assassin; ``kills`` is the new counter."""

    kind: Literal["character_killed"] = "character_killed"
    character: int
    seat: Seat
    kills: int


class CharacterDismissed(Event):
    """``character`` was removed by vote and went to the pool with his tokens."""

    kind: Literal["character_dismissed"] = "character_dismissed"
    character: int


class CharacterAppointed(Event):
    """``character`` took a seat: head of ``land`` or the council ``council`` seat (``by``: chooser)."""

    kind: Literal["character_appointed"] = "character_appointed"
    character: int
    land: int | None = None
    council: CouncilSeat | None = None
    by: Seat | None = None
    how: Literal["choice", "automatic", "vote", "iriash"] = "choice"


class SeatLeftVacant(Event):
    """A seat stays vacant (no eligible character)."""

    kind: Literal["seat_left_vacant"] = "seat_left_vacant"
    land: int | None = None
    council: CouncilSeat | None = None


class ContestCalled(Event):
    """``seat`` contested the neutral head ``character``."""

    kind: Literal["contest_called"] = "contest_called"
    seat: Seat
    character: int


class ContestResolved(Event):
    """The sealed bids (discarded land tokens) were revealed; ``winner`` takes the action (None: idle)."""

    kind: Literal["contest_resolved"] = "contest_resolved"
    character: int
    bids: tuple[tuple[Seat, int], ...]
    winner: Seat | None = None


class RiverPlayed(Event):
    """``seat`` played a card from hand onto ``target`` through Речная Подкова (type told on consent).

    ``card`` is no longer filled: the hand id is the owner's (the card goes face down under a new
    one); the field stays so that events written before still load.
    """

    kind: Literal["river_played"] = "river_played"
    seat: Seat
    target: int
    card: str | None = None


class RiverAnswered(Event):
    """The target's answer: ``consent``; ``bids`` when tied-top players bid (sealed, revealed)."""

    kind: Literal["river_answered"] = "river_answered"
    consent: bool
    by: Seat | None = None
    bids: tuple[tuple[Seat, int, bool], ...] = ()


class AssassinGuarded(Event):
    """A guarded assassin: ``seat`` removed 1 own token from each of ``characters``."""

    kind: Literal["assassin_guarded"] = "assassin_guarded"
    seat: Seat
    characters: tuple[int, ...]


class VoteCalled(Event):
    """A vote began: ``caller`` via ``via`` on ``subject`` (removals) or to fill ``council`` (appointment)."""

    kind: Literal["vote_called"] = "vote_called"
    vote: VoteKind
    caller: Seat | None = None
    via: int | None = None
    subject: int | None = None
    council: CouncilSeat | None = None


class VoteLapsed(Event):
    """The subject left office before the ballots: the motion lapsed."""

    kind: Literal["vote_lapsed"] = "vote_lapsed"
    subject: int


class BallotsRevealed(Event):
    """Sealed ballots revealed: ``votes`` (voter, vote, seat) and ``preferences`` (voter, side, seat)."""

    kind: Literal["ballots_revealed"] = "ballots_revealed"
    votes: tuple[tuple[int, str, Seat], ...]
    preferences: tuple[tuple[int, str, Seat], ...] = ()


class VoteDictated(Event):
    """Сапфировые Озёра: ``seat`` fixed neutral ``voter``'s vote to ``vote``."""

    kind: Literal["vote_dictated"] = "vote_dictated"
    seat: Seat
    voter: int
    vote: str


class SwayRevealed(Event):
    """A sway round's commitments: (seat, voter, head or None, amount, choice, counted)."""

    kind: Literal["sway_revealed"] = "sway_revealed"
    round: int
    commitments: tuple[tuple[Seat, int, int | None, int, str, bool], ...]


class NeutralVoted(Event):
    """Neutral ``voter`` voted ``vote`` by ``how`` (tally, disposition, dictated or none)."""

    kind: Literal["neutral_voted"] = "neutral_voted"
    voter: int
    vote: str
    how: Literal["tally", "disposition", "dictated", "none"]


class VoteResolved(Event):
    """The vote's count: ``votes_for``/``votes_against`` (removals) or ``winner`` (appointment)."""

    kind: Literal["vote_resolved"] = "vote_resolved"
    vote: VoteKind
    passed: bool
    votes_for: int = 0
    votes_against: int = 0
    needed: int = 0
    winner: int | None = None
    tally: tuple[tuple[int, int], ...] = ()


class ElectionCalled(Event):
    """``seat`` called an election via ``character``."""

    kind: Literal["election_called"] = "election_called"
    seat: Seat
    character: int


class ElectionResolved(Event):
    """The election was checked: ``seat`` controls ``seats`` of 5 council seats."""

    kind: Literal["election_resolved"] = "election_resolved"
    seat: Seat
    seats: int
    won: bool


class HandExpired(Event):
    """``count`` unsent cards of ``seat`` expired; ``cards``/``types`` only in the private copy."""

    kind: Literal["hand_expired"] = "hand_expired"
    seat: Seat
    count: int
    cards: tuple[str, ...] | None = None
    types: tuple[MercType, ...] | None = None


class PlayerResigned(Event):
    """``seat`` resigned: it stays in play, permanently on its defaults."""

    kind: Literal["player_resigned"] = "player_resigned"
    seat: Seat


class GameWon(Event):
    """``seat`` won by ``victory``."""

    kind: Literal["game_won"] = "game_won"
    seat: Seat
    victory: Victory


class GameEnded(Event):
    """The game ended by ``victory``; ``ranks[seat]`` (0 first) and the score vectors (§12.4)."""

    kind: Literal["game_ended"] = "game_ended"
    victory: Victory
    winner: Seat | None = None
    ranks: tuple[int, ...]
    scores: tuple[tuple[int, int, int, int], ...]


IntrigueEvent = Annotated[
    GameStarted
    | CharactersDealt
    | TurnStarted
    | PhaseStarted
    | WindowOpened
    | WindowClosed
    | TokensPlaced
    | TokensRemoved
    | CoinsGained
    | CoinsPaid
    | CoinsGiven
    | TokensConverted
    | PopulationGrew
    | GrowthChosen
    | LandHolders
    | TaxDeclared
    | TaxDefaulted
    | CardsHired
    | BasketSubmitted
    | RepresentativeChosen
    | OrderFixed
    | SlotStarted
    | PlayerPassed
    | SycophantRewarded
    | ActionTaken
    | MilitaryMoved
    | CardSent
    | LendOffered
    | LendAnswered
    | CardRevealed
    | GiftDelivered
    | BribeDelivered
    | CardDiscarded
    | CardTaken
    | GuardAnswered
    | SubmissionReceived
    | CharacterKilled
    | CharacterDismissed
    | CharacterAppointed
    | SeatLeftVacant
    | ContestCalled
    | ContestResolved
    | RiverPlayed
    | RiverAnswered
    | AssassinGuarded
    | VoteCalled
    | VoteLapsed
    | BallotsRevealed
    | VoteDictated
    | SwayRevealed
    | NeutralVoted
    | VoteResolved
    | ElectionCalled
    | ElectionResolved
    | HandExpired
    | PlayerResigned
    | GameWon
    | GameEnded,
    Field(discriminator="kind"),
]
EVENT_ADAPTER: TypeAdapter[IntrigueEvent] = TypeAdapter(IntrigueEvent)


# ----------------------------------------------------------------------------- views
class LandView(Model):
    """A land in play: population, head, everyone's land tokens and who holds it.

    ``holder`` is the income/tax holder (§0; ``None`` when contested or empty), ``contested`` the
    tied players of a contested land, ``majority`` the land majority of the victories (land tokens
    only), ``combined`` the Чёрная Гавань combined majority. ``grown``: grown this turn.
    """

    id: int
    cells: int
    peaceful: int
    military: int
    head: int | None = None
    tokens: tuple[int, ...]
    holder: Seat | None = None
    contested: tuple[Seat, ...] = ()
    majority: Seat | None = None
    combined: Seat | None = None
    grown: bool = False


class CharacterView(Model):
    """A character: where he is, everyone's tokens on him and who controls him.

    ``tied_top`` lists the players sharing the top count on a neutral character. ``leader`` is the
    Подхалим record (§1.4 #8). ``dismissed``: removed by vote this turn (not appointable).
    """

    id: int
    status: CharStatus
    land: int | None = None
    council: CouncilSeat | None = None
    representative: bool = False
    tokens: tuple[int, ...]
    controller: Seat | None = None
    tied_top: tuple[Seat, ...] = ()
    acted: bool = False
    dismissed: bool = False
    leader: Seat | None = None
    disposition: Disposition


class CouncilView(Model):
    """The council: character ids per seat (``None``: vacant)."""

    marshal: int | None = None
    bishop: int | None = None
    treasurer: int | None = None
    privy: int | None = None
    representative: int | None = None


class FaceDownView(Model):
    """A face-down mercenary: public id, owner, character and turn placed; type/mode for its owner only."""

    id: str
    owner: Seat
    character: int
    turn_placed: int
    merc: MercType | None = None
    mode: Mode | None = None


class HandCardView(Model):
    """A card in the viewer's own hand; it is discarded at the end of turn ``expires_turn``'s Characters phase."""

    id: str
    merc: MercType
    expires_turn: int


class PlayerView(Model):
    """One seat as everyone sees it; ``hand`` is filled for the viewer's own seat only.

    ``score`` is the §12.4 vector (council tokens, character tokens, board tokens, coins).
    ``coup_lands``/``will_lands`` count the qualifying lands with this player's land majority.
    """

    seat: Seat
    colour: str
    coins: int
    hand_size: int
    hired_this_turn: int = 0
    land_tokens: int
    character_tokens: int
    council_tokens: int
    markers: int
    score: tuple[int, int, int, int]
    coup_lands: int
    will_lands: int
    controls_marshal: bool = False
    controls_privy: bool = False
    council_seats: int = 0
    passed: bool = False
    resigned: bool = False
    hand: tuple[HandCardView, ...] | None = None


class VoterView(Model):
    """One voter of the current vote: the vote cast (once known) and how."""

    character: int
    vote: str | None = None
    cast_by: Seat | None = None
    how: str | None = None  # controller, dictated, tally, disposition, none
    tally: tuple[tuple[str, int], ...] = ()


class VoteView(Model):
    """The vote in progress (§11): voters, revealed ballots, tallies and the sway round."""

    vote: VoteKind
    caller: Seat | None = None
    via: int | None = None
    subject: int | None = None
    council: CouncilSeat | None = None
    voters: tuple[VoterView, ...] = ()
    candidates: tuple[int, ...] = ()
    needed: int = 0
    stage: str
    sway_round: int = 0
    revealed: bool = False
    used_heads: tuple[int, ...] = ()


class DraftItem(Model):
    """One pick of a sub-decision in progress (or one entry of a sealed submission)."""

    step: str
    card: str | None = None
    character: int | None = None
    land: int | None = None
    seat: Seat | None = None
    amount: int | None = None
    merc: MercType | None = None
    mode: Mode | None = None
    side: Side | None = None
    action: CharAction | None = None
    option: Option | None = None
    candidate: int | None = None
    rider: bool | None = None


class DraftView(Model):
    """The viewer's own sub-decision in progress: ``step`` it is at and the picks made so far."""

    decision: Decision
    step: str
    items: tuple[DraftItem, ...] = ()


class PendingView(Model):
    """The decision the table waits for, as everyone may see it.

    ``seats`` are the awaited seats; ``submitted`` the seats that already sent a sealed choice.
    The other fields describe the context (the acting seat, the character, the revealed card…).
    """

    decision: Decision
    seats: tuple[Seat, ...]
    step: str = ""
    actor: Seat | None = None
    character: int | None = None
    target: int | None = None
    card: str | None = None
    merc: MercType | None = None
    mode: Mode | None = None
    land: int | None = None
    amount: int | None = None
    window: Window | None = None
    vote: VoteKind | None = None
    submitted: tuple[Seat, ...] = ()
    picks_left: int | None = None


class RevealedView(Model):
    """A card turned up recently (the last few reveals of the game), with everything then made public."""

    card: str
    owner: Seat
    character: int
    merc: MercType
    mode: Mode | None = None
    how: RevealHow
    by: Seat
    turn: int


class ResultView(Model):
    """The final result: the winner (if any), how the game ended, ranks and score vectors."""

    victory: Victory
    winner: Seat | None = None
    ranks: tuple[int, ...]
    scores: tuple[tuple[int, int, int, int], ...]


class IntrigueView(Model):
    """Everything ``viewer`` may know (``viewer=None``: the public/spectator view).

    Private to the viewer (``None`` otherwise): ``players[viewer].hand``, the type/mode of the
    viewer's own face-down ``cards``, ``in_stock`` (its own Investments turn only), ``draft`` (its
    sub-decision in progress) and ``submission`` (its sealed choice before the reveal).
    """

    viewer: Seat | None
    num_seats: int
    version: int
    turn: int
    max_turns: int
    phase: Phase
    step: str
    lands: tuple[LandView, ...]
    characters: tuple[CharacterView, ...]
    council: CouncilView
    cards: tuple[FaceDownView, ...]
    players: tuple[PlayerView, ...]
    kills: int
    kills_to_end: int
    majority_needed: int
    removal_votes_needed: int
    rsp: tuple[Seat, ...] = ()
    order: tuple[Seat, ...] = ()
    slot_seat: Seat | None = None
    awaiting: tuple[Seat, ...] = ()
    pending: PendingView | None = None
    vote: VoteView | None = None
    golden_coast_used: bool = False
    brown_plains_used: bool = False
    sapphire_used: bool = False
    vale_tax: int | None = None
    reveals: tuple[RevealedView, ...] = ()
    in_stock: tuple[MercType, ...] | None = None
    draft: DraftView | None = None
    submission: DraftView | None = None
    result: ResultView | None = None
