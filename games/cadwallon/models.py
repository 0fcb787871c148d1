"""The data contract of «Гильдии Кадвалона» (Guilds of Cadwallon): cards, options, actions, events, views.

This module is the contract other parts of the bot build on (renderer, presenter, AI, localisation):
names here only ever grow, they are never renamed or removed. Rules source:
``shared/rules/cadwallon.md`` (binding RULING and HOUSE lines) over the Russian rulebook seed.

Addressing (digest §3.1), used by every action, event and view:

* A **slot** is named row letter + column number (``"A1"`` top-left … ``"E5"``); its engine index is
  ``r·n + c``. A **boulevard** is the gap between two orthogonally adjacent slots, named after its
  upper-left slot plus ``E`` (the gap to the east, ``"B2E"`` = ``B2│B3``) or ``S`` (the gap to the
  south, ``"B2S"`` = ``B2─C2``). Engine index: the ``E`` boulevards ``r·(n−1) + c`` first, then the
  ``S`` boulevards ``n(n−1) + r·n + c``. Every list in a view follows the index order.
* A **card** travels as its id: guild members ``"USU-1"`` … ``"ALC-4"``, Creditors ``"USU-C"``,
  personalities ``"P1"`` … ``"P8"``, militia ``"M01"`` … ``"M10"``, actions ``"A01"`` … ``"A26"``,
  conditions ``"C01"`` … ``"C12"``, contracts ``"K01"`` … ``"K20"``. Static card data (a HOUSE card
  unless the seed prints it) is a :class:`CardInfo`, from :func:`games.cadwallon.cards.card_info`.
* An **agent** on the board has a round-local id (:class:`AgentView`); actions choose agents by id.

Playing an action card is a short chain of small decisions held in the state, so that each step
lists few options (digest §12 is kept: nothing is committed before the last target, and a pass at
any point leaves the card in hand): :class:`PlayAction` picks the card; then, as the view's
``pending.needs`` says, :class:`ChooseSlot`, :class:`ChooseBoulevard`, :class:`ChooseAgent`,
:class:`ChooseSeat` or :class:`ChooseCard`; :class:`CancelAction` goes back to the card choice and
:class:`EndTurn` ends the turn without playing. Tarot Mages (A02) is committed at once and asks for
:class:`OrderTarot` after its private peek.

Every model is a frozen pydantic model that round-trips through JSON.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from games.core.models import Event, Model, Seat

#: A slot name: row letter A-E, column 1-5 (``"B2"``).
SlotName = Annotated[str, Field(pattern=r"^[A-E][1-5]$")]
#: A boulevard name: its upper-left slot + ``E`` (east gap) or ``S`` (south gap), e.g. ``"B2E"``.
BoulevardName = Annotated[str, Field(pattern=r"^[A-E][1-5][ES]$")]
#: An action card id ``A01`` … ``A26``.
ActionCardId = Annotated[str, Field(pattern=r"^A(0[1-9]|1[0-9]|2[0-6])$")]
#: Any district card id (guild member, Creditor, personality, militia, action).
CardId = Annotated[
    str,
    Field(pattern=r"^((USU|JEW|BLA|ZOD|THI|FER|ARC|ALC)-[1-4C]|P[1-8]|M(0[1-9]|10)|A(0[1-9]|1[0-9]|2[0-6]))$"),
]


# ----------------------------------------------------------------------------- static data
class Category(StrEnum):
    """What a district card is (digest §2.1)."""

    GUILD = "guild"  # a guild member: crest, 1-3 GP, S 1-3
    CREDITOR = "creditor"  # a guild's Creditor (expansion): crest, bonus only, S 1
    PERSONALITY = "personality"  # wild at scoring, S 0
    MILITIA = "militia"  # penalty points, S 1-2
    ACTION = "action"  # 2 GP, S 2, goes to the hand when won


class District(StrEnum):
    """The four district types (HOUSE, digest §2.2); only card effects use them."""

    DOCKS = "D"
    MARKET = "M"
    OLD_TOWN = "O"
    HIGH_TOWN = "H"


class Guild(StrEnum):
    """The eight guild crests in the digest's order (the first four are the base game's)."""

    USU = "USU"  # Usurers / Ростовщики
    JEW = "JEW"  # Jewelers / Ювелиры
    BLA = "BLA"  # Blades / Мечи
    ZOD = "ZOD"  # Zodiac / Зодиак
    THI = "THI"  # Thieves / Воры (HOUSE name)
    FER = "FER"  # Ferrymen / Перевозчики (HOUSE name)
    ARC = "ARC"  # Architects / Зодчие (HOUSE name)
    ALC = "ALC"  # Alchemists / Алхимики (HOUSE name)


class CardInfo(Model):
    """The static data of one district card.

    ``gp`` are guild points (actions: 2; Creditors and personalities: 0), ``pp`` penalty points
    (militia only), ``support`` the printed support value S. ``house`` is true for data designed
    by this project (every card except what the seed prints): the bot labels it «домашняя карта».
    """

    id: str
    category: Category
    district: District
    guild: Guild | None = None
    gp: int = 0
    pp: int = 0
    support: int = 0
    house: bool = True


class Phase(StrEnum):
    """What the table is in: Reveal and Capture resolve by themselves, so only Deploy waits for seats."""

    DEPLOY = "deploy"
    FINISHED = "finished"


class TurnStep(StrEnum):
    """The step of the Deploy turn the active seat is in."""

    PLACE = "place"  # step 1: place one agent (mandatory)
    ACT = "act"  # step 2: play one action card or end the turn (may be choosing targets: ``pending``)
    TAROT = "tarot"  # Tarot Mages (A02) was played: order the peeked cards


class TargetKind(StrEnum):
    """What the pending action card asks for next (the action to answer with)."""

    SLOT = "slot"  # ChooseSlot: a grid card
    BOULEVARD = "boulevard"  # ChooseBoulevard
    AGENT = "agent"  # ChooseAgent: a placed agent, by id
    SEAT = "seat"  # ChooseSeat: another player
    CARD = "card"  # ChooseCard: one of your captured cards (A23: a militia)


class DrawSource(StrEnum):
    """Where an action card in a hand came from."""

    START = "start"  # the starting-action option
    SHORTAGE = "shortage"  # a shortage draw at the end of Deploy (§5.3)
    INFORMANT = "informant"  # A12 Informant
    WINDFALL = "windfall"  # A25 Windfall revealed an action card
    STOLEN = "stolen"  # A20 Pickpocket
    CAPTURED = "captured"  # won at Capture


class DeployEnd(StrEnum):
    """Why Deploy ended."""

    NO_FREE_BOULEVARD = "no_free_boulevard"
    NO_AGENTS = "no_agents"


class CaptureOutcome(StrEnum):
    """How one grid card fared at Capture (digest §5.4)."""

    WON = "won"  # a unique highest positive support
    ARBITRATION = "arbitration"  # tied, the A14 holder among the tied won it
    PRECEDENCE = "precedence"  # tied, C03: the first tied player in turn order won it
    TIE = "tie"  # tied, nobody won it: it stays
    NO_SUPPORT = "no_support"  # highest support 0: it stays
    CURFEW = "curfew"  # marked by A09: it stays


class EndReason(StrEnum):
    """Why the game ended."""

    DECK_EXHAUSTED = "deck_exhausted"  # a Reveal could not fill every empty slot (§7)
    STALLED = "stalled"  # three consecutive rounds without a capture (RULING §7)
    RESIGNED = "resigned"  # fewer than two players are left in the game


# ----------------------------------------------------------------------------- options
class CadwallonOptions(Model):
    """Table options (digest §10).

    ``grid`` is the grid size: 3 (2-4 players), 4 or 5 (2-8 players); ``None`` chooses 3×3 for 2-4
    players and 4×4 for 5-8. ``conditions`` reveals one condition card for the whole game
    (``condition`` fixes which one, for tests and hosts); ``contracts`` deals one secret contract
    per player (on by default); ``starting_action`` deals one secret action card per player;
    ``expansion_actions_3x3`` lets a 3×3 deck draw its 7 actions from all 26 (ignored on larger
    grids). ``first_seat`` fixes the First Player (host pick, rematch); ``None`` draws a random seat.

    Stacked decks for tests: ``deck`` is the district deck (index 0 on top, dealt first),
    ``reserve`` the action reserve, ``contract_cards`` the contract dealt to each seat and
    ``starting_hands`` each seat's starting hand. A stacked table (``deck`` given) never shuffles:
    an unstacked reserve is empty, unstacked contracts are dealt in id order, the condition is
    ``condition`` or C01, the First Player ``first_seat`` or seat 0.
    """

    grid: Literal[3, 4, 5] | None = None
    conditions: bool = False
    condition: str | None = Field(default=None, pattern=r"^C(0[1-9]|1[0-2])$")
    contracts: bool = True
    starting_action: bool = False
    expansion_actions_3x3: bool = False
    first_seat: int | None = None
    deck: tuple[str, ...] | None = None
    reserve: tuple[str, ...] | None = None
    contract_cards: tuple[str, ...] | None = None
    starting_hands: tuple[tuple[str, ...], ...] | None = None


# ----------------------------------------------------------------------------- actions
class PlaceAgent(Model):
    """Step 1 of a Deploy turn: place one agent from your supply on the free ``boulevard``."""

    kind: Literal["place"] = "place"
    boulevard: BoulevardName


class PlayAction(Model):
    """Step 2: play ``card`` from your hand (targets, if any, are asked next)."""

    kind: Literal["play"] = "play"
    card: ActionCardId


class ChooseSlot(Model):
    """Answer a pending action card with the grid card at ``slot``."""

    kind: Literal["slot"] = "slot"
    slot: SlotName


class ChooseBoulevard(Model):
    """Answer a pending action card with ``boulevard``."""

    kind: Literal["boulevard"] = "boulevard"
    boulevard: BoulevardName


class ChooseAgent(Model):
    """Answer a pending action card with the placed agent ``agent`` (its id in the view's ``agents``)."""

    kind: Literal["agent"] = "agent"
    agent: int


class ChooseSeat(Model):
    """Answer a pending action card with the player at ``seat``."""

    kind: Literal["seat"] = "seat"
    seat: Seat


class ChooseCard(Model):
    """Answer a pending action card with ``card``, one of your captured cards (A23: a militia)."""

    kind: Literal["card"] = "card"
    card: CardId


class CancelAction(Model):
    """Put the pending action card back (nothing was played) and choose again."""

    kind: Literal["cancel"] = "cancel"


class EndTurn(Model):
    """End the turn without playing an action card (also drops a card whose targets are being chosen)."""

    kind: Literal["pass"] = "pass"


class OrderTarot(Model):
    """Tarot Mages (A02): put ``top`` back on the deck (index 0 on top) and ``bottom`` under it.

    ``top`` and ``bottom`` together are exactly the peeked cards; ``bottom`` may be ``None``.
    """

    kind: Literal["tarot_order"] = "tarot_order"
    top: tuple[CardId, ...]
    bottom: CardId | None = None


CadwallonAction = Annotated[
    PlaceAgent
    | PlayAction
    | ChooseSlot
    | ChooseBoulevard
    | ChooseAgent
    | ChooseSeat
    | ChooseCard
    | CancelAction
    | EndTurn
    | OrderTarot,
    Field(discriminator="kind"),
]
ACTION_ADAPTER: TypeAdapter[CadwallonAction] = TypeAdapter(CadwallonAction)


# ----------------------------------------------------------------------------- shared pieces
class SlotCard(Model):
    """The card ``card`` at ``slot``."""

    slot: SlotName
    card: str


class SupportEntry(Model):
    """``seat`` had ``support`` on a grid card at Capture (only seats with an agent beside it)."""

    seat: Seat
    support: int


class CaptureView(Model):
    """How one grid card fared at the last Capture.

    ``card`` is ``None`` for an action card won by another seat (it joined a hidden hand, RULING
    §11); ``category`` is always given. ``supports`` lists every seat with an agent beside the card,
    highest first (seat order on ties), and ``support`` is the highest of them (0 without any).
    ``winner`` is ``None`` when the card stayed; ``tied`` lists
    the seats tied for the highest positive support (empty unless tied).
    """

    slot: SlotName
    card: str | None = None
    category: Category
    winner: Seat | None = None
    support: int = 0
    outcome: CaptureOutcome
    supports: tuple[SupportEntry, ...] = ()
    tied: tuple[Seat, ...] = ()


# ----------------------------------------------------------------------------- events
class GameStarted(Event):
    """The table was set up: grid size, agents per player, First Player, pile sizes, the condition."""

    kind: Literal["game_started"] = "game_started"
    grid: int
    agents_per_player: int
    first_seat: Seat
    deck_size: int
    reserve_size: int
    condition: str | None = None
    contracts: bool = False
    starting_action: bool = False


class ContractDealt(Event):
    """``seat`` was dealt the secret ``contract`` (private to that seat)."""

    kind: Literal["contract_dealt"] = "contract_dealt"
    seat: Seat
    contract: str


class ActionCardDrawn(Event):
    """``seat`` took an action card into its hand from ``source``; ``card`` only in the private copy."""

    kind: Literal["action_card_drawn"] = "action_card_drawn"
    seat: Seat
    source: DrawSource
    card: str | None = None


class ReserveEmpty(Event):
    """``seat`` was due a shortage draw but the action reserve was empty: nothing was drawn."""

    kind: Literal["reserve_empty"] = "reserve_empty"
    seat: Seat


class RoundStarted(Event):
    """Round ``round`` began with ``first_seat`` as First Player."""

    kind: Literal["round_started"] = "round_started"
    round: int
    first_seat: Seat


class CardsRevealed(Event):
    """The Reveal dealt ``cards`` face up into the empty slots (slot-index order); ``deck_left`` remain."""

    kind: Literal["cards_revealed"] = "cards_revealed"
    round: int
    cards: tuple[SlotCard, ...]
    deck_left: int


class AgentPlaced(Event):
    """``seat`` placed agent ``agent`` on ``boulevard``; ``card`` is A03/A04 when a card placed it."""

    kind: Literal["agent_placed"] = "agent_placed"
    seat: Seat
    agent: int
    boulevard: BoulevardName
    card: str | None = None
    supply_left: int


class ActionPlayed(Event):
    """``seat`` played action ``card`` face up with the targets it chose (the effect events follow)."""

    kind: Literal["action_played"] = "action_played"
    seat: Seat
    card: str
    slots: tuple[SlotName, ...] = ()
    boulevard: BoulevardName | None = None
    agents: tuple[int, ...] = ()
    target_seat: Seat | None = None
    target_card: str | None = None


class TurnEnded(Event):
    """``seat`` ended its turn; ``played`` says whether it played an action card this turn."""

    kind: Literal["turn_ended"] = "turn_ended"
    seat: Seat
    played: bool


class CardsSwapped(Event):
    """A01/A11: the cards at ``slots[0]`` and ``slots[1]`` swapped places (``cards`` as they were)."""

    kind: Literal["cards_swapped"] = "cards_swapped"
    seat: Seat
    slots: tuple[SlotName, SlotName]
    cards: tuple[str, str]


class DeckPeeked(Event):
    """A02: ``seat`` looked at the top ``count`` cards; ``cards`` (top first) only in its private copy."""

    kind: Literal["deck_peeked"] = "deck_peeked"
    seat: Seat
    count: int
    cards: tuple[str, ...] | None = None


class DeckReordered(Event):
    """A02: ``seat`` put the peeked cards back; ``to_bottom`` if one went under the deck.

    The private copy names ``top`` (top first) and ``bottom``.
    """

    kind: Literal["deck_reordered"] = "deck_reordered"
    seat: Seat
    to_bottom: bool
    top: tuple[str, ...] | None = None
    bottom: str | None = None
    automatic: bool = False


class AgentReturned(Event):
    """A06: agent ``agent`` of ``owner`` on ``boulevard`` went back to its owner's supply."""

    kind: Literal["agent_returned"] = "agent_returned"
    seat: Seat
    owner: Seat
    agent: int
    boulevard: BoulevardName


class AgentMoved(Event):
    """A05/A18: agent ``agent`` of ``owner`` moved from ``origin`` to ``destination``."""

    kind: Literal["agent_moved"] = "agent_moved"
    seat: Seat
    owner: Seat
    agent: int
    origin: BoulevardName
    destination: BoulevardName


class AgentsSwapped(Event):
    """A22: ``seat``'s agent ``agents[0]`` and ``owner``'s agent ``agents[1]`` swapped boulevards.

    ``boulevards`` are where each agent stood before the swap.
    """

    kind: Literal["agents_swapped"] = "agents_swapped"
    seat: Seat
    owner: Seat
    agents: tuple[int, int]
    boulevards: tuple[BoulevardName, BoulevardName]


class AgentTurned(Event):
    """A15 played by ``seat``: agent ``agent`` of ``owner`` on ``boulevard`` supports nobody this round (revision 5)."""

    kind: Literal["agent_turned"] = "agent_turned"
    seat: Seat
    owner: Seat
    agent: int
    boulevard: BoulevardName


class CardMarked(Event):
    """A07, A08, A09, A14, A17, A24, A26: ``seat`` marked ``target`` at ``slot`` with action ``card``."""

    kind: Literal["card_marked"] = "card_marked"
    seat: Seat
    card: str
    slot: SlotName
    target: str


class BarricadeBuilt(Event):
    """A13: no agent may be placed on or moved to ``boulevard`` this round."""

    kind: Literal["barricade_built"] = "barricade_built"
    seat: Seat
    boulevard: BoulevardName


class CardDemolished(Event):
    """A19: ``removed`` at ``slot`` went under the deck and ``dealt`` (the top card) took its place."""

    kind: Literal["card_demolished"] = "card_demolished"
    seat: Seat
    slot: SlotName
    removed: str
    dealt: str


class CardStolen(Event):
    """A20: ``seat`` took an action card at random from ``victim``; ``card`` only for the two of them."""

    kind: Literal["card_stolen"] = "card_stolen"
    seat: Seat
    victim: Seat
    card: str | None = None


class MilitiaGiven(Event):
    """A23: ``seat`` gave its captured militia ``card`` to ``recipient``."""

    kind: Literal["militia_given"] = "militia_given"
    seat: Seat
    recipient: Seat
    card: str


class WindfallRevealed(Event):
    """A25: ``card`` was revealed from the deck top: an action went to ``seat``'s hand, else to the bottom."""

    kind: Literal["windfall_revealed"] = "windfall_revealed"
    seat: Seat
    card: str
    to_hand: bool


class DeployEnded(Event):
    """Deploy of ``round`` ended because of ``reason``; ``supply_left[seat]`` agents were not placed."""

    kind: Literal["deploy_ended"] = "deploy_ended"
    round: int
    reason: DeployEnd
    supply_left: tuple[int, ...]


class CardCaptured(Event):
    """Capture: ``seat`` won ``card`` at ``slot`` with ``support`` (``outcome`` won/arbitration/precedence).

    A won action card joins the hidden hand: the public copy has ``card=None`` and the winner's
    private copy names it (both public under C09). ``supports`` lists every seat beside the card.
    """

    kind: Literal["card_captured"] = "card_captured"
    seat: Seat
    slot: SlotName
    card: str | None = None
    category: Category
    support: int
    outcome: CaptureOutcome
    supports: tuple[SupportEntry, ...] = ()
    tied: tuple[Seat, ...] = ()


class CardStayed(Event):
    """Capture: ``card`` at ``slot`` stayed on the grid (``outcome`` tie/no_support/curfew)."""

    kind: Literal["card_stayed"] = "card_stayed"
    slot: SlotName
    card: str
    outcome: CaptureOutcome
    supports: tuple[SupportEntry, ...] = ()
    tied: tuple[Seat, ...] = ()


class RoundEnded(Event):
    """Round ``round`` ended: ``captured`` cards changed hands, agents went home.

    ``next_first_seat`` holds the First Player card now (``by_favour``: A10 took it there);
    ``stalled_rounds`` counts consecutive rounds without a capture.
    """

    kind: Literal["round_ended"] = "round_ended"
    round: int
    captured: int
    next_first_seat: Seat
    by_favour: bool = False
    stalled_rounds: int = 0


class PlayerResigned(Event):
    """``seat`` resigned: its agents left the board and it takes no more turns."""

    kind: Literal["player_resigned"] = "player_resigned"
    seat: Seat


class GameEnded(Event):
    """The game ended because of ``reason`` (deck exhausted: ``deck_size`` < ``empty_slots``)."""

    kind: Literal["game_ended"] = "game_ended"
    reason: EndReason
    deck_size: int
    empty_slots: int


# ----------------------------------------------------------------------------- score breakdown
class GuildScore(Model):
    """One guild of one player at the end (digest §8).

    ``members`` are the guild member cards held, ``personalities`` how many personalities were
    assigned to it, ``cards = len(members) + personalities``, ``gp`` the members' guild points.
    ``points = gp × cards`` (0 when ``loner`` under C06). ``creditor`` says the player holds the
    guild's Creditor, worth ``creditor_bonus`` (+1, or +5 with all four members). ``great_bonus`` is
    C10's +3. ``total = points + creditor_bonus + great_bonus``.
    """

    guild: Guild
    members: tuple[str, ...] = ()
    personalities: int = 0
    cards: int = 0
    gp: int = 0
    points: int = 0
    loner: bool = False
    creditor: bool = False
    creditor_bonus: int = 0
    great_bonus: int = 0
    total: int = 0


class ScoreBreakdown(Model):
    """The itemised score of one player.

    ``guilds`` lists each guild with a member, a Creditor or a personality, in guild order.
    ``personality_cards`` are all personalities held; ``unassigned`` joined no guild (C05: each
    scores ``free_spirit_points`` 2 instead). ``austerity_loss`` is C11's loss (a positive number
    subtracted). ``action_cards`` counts actions in hand and played (``action_points`` = 2 or 3 each).
    ``militia_penalty = militia_pp × len(militia)`` (C01: the plain sum) and ``informer_penalty`` is
    C12's 5, both positive numbers subtracted. ``contract`` is the seat's contract (``None`` without
    contracts), worth ``contract_points`` when ``contract_met``. ``total`` is the final score
    (``live`` views: without the contract). ``crests`` counts distinct guild crests among captured
    members and Creditors (the tie-break). ``rank`` is 0 for first place.
    """

    seat: Seat
    guilds: tuple[GuildScore, ...] = ()
    personality_cards: tuple[str, ...] = ()
    unassigned: int = 0
    free_spirit_points: int = 0
    guild_points: int = 0
    austerity_loss: int = 0
    action_cards: int = 0
    action_points: int = 0
    militia: tuple[str, ...] = ()
    militia_pp: int = 0
    militia_penalty: int = 0
    informer_penalty: int = 0
    contract: str | None = None
    contract_met: bool = False
    contract_points: int = 0
    #: Revision 2's seat allowance for the seat's place in round 1's turn order (in ``total``).
    seat_points: int = 0
    total: int = 0
    crests: int = 0
    rank: int = 0
    resigned: bool = False


class GameScored(Event):
    """The game was scored: ``scores[seat]``, ``ranks[seat]`` (0 = first) and each seat's breakdown."""

    kind: Literal["game_scored"] = "game_scored"
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    breakdowns: tuple[ScoreBreakdown, ...]


CadwallonEvent = Annotated[
    GameStarted
    | ContractDealt
    | ActionCardDrawn
    | ReserveEmpty
    | RoundStarted
    | CardsRevealed
    | AgentPlaced
    | ActionPlayed
    | TurnEnded
    | CardsSwapped
    | DeckPeeked
    | DeckReordered
    | AgentReturned
    | AgentMoved
    | AgentsSwapped
    | AgentTurned
    | CardMarked
    | BarricadeBuilt
    | CardDemolished
    | CardStolen
    | MilitiaGiven
    | WindfallRevealed
    | DeployEnded
    | CardCaptured
    | CardStayed
    | RoundEnded
    | PlayerResigned
    | GameEnded
    | GameScored,
    Field(discriminator="kind"),
]
EVENT_ADAPTER: TypeAdapter[CadwallonEvent] = TypeAdapter(CadwallonEvent)


# ----------------------------------------------------------------------------- views
class MarkView(Model):
    """A this-round marker: ``seat`` played action ``card`` on ``target``, now at ``slot``."""

    card: str
    seat: Seat
    slot: SlotName
    target: str


class SlotView(Model):
    """One grid slot: its name and index, the card on it (``None``: empty) and that card's marks.

    ``effective_support`` is the card's S this round after marks and the condition (A26, A24, C07,
    A08), the value an agent beside it gives toward the card across the boulevard.
    """

    slot: SlotName
    index: int
    row: int
    column: int
    card: CardInfo | None = None
    effective_support: int = 0
    marks: tuple[MarkView, ...] = ()


class BoulevardView(Model):
    """One boulevard between ``slots[0]`` (west/north) and ``slots[1]`` (east/south).

    ``orientation`` is ``E`` (a gap between two cards of a row, label ``B2│B3``) or ``S`` (a gap
    between two cards of a column, label ``B2─C2``). ``agents`` are the ids of the agents on it (two
    only through A03), ``barricade`` whether A13 closed it, ``free`` whether an agent may be placed
    there. ``support`` is what an agent here would give toward ``slots[0]`` and ``slots[1]``: the
    effective S of the card across, i.e. ``(S(slots[1]), S(slots[0]))``.
    """

    boulevard: BoulevardName
    index: int
    orientation: Literal["E", "S"]
    slots: tuple[SlotName, SlotName]
    agents: tuple[int, ...] = ()
    barricade: bool = False
    free: bool = True
    support: tuple[int, int] = (0, 0)


class AgentView(Model):
    """A placed agent: round-local ``id`` and its ``owner`` (the figure's colour), whom it supports.

    ``turned``: Double Agent (A15) turned it this round, so its support counts for nobody.
    """

    id: int
    owner: Seat
    boulevard: BoulevardName
    boulevard_index: int
    turned: bool = False


class PlayedActionView(Model):
    """``seat`` played action ``card`` this round (play order)."""

    seat: Seat
    card: str


class PendingView(Model):
    """The viewer's action card whose targets are being chosen (viewer only).

    ``needs`` is what the next choice answers (the legal actions list the options); ``choice`` is
    1 for the first target, 2 for the second. ``slot``, ``agent`` and ``card`` are the targets
    already chosen (A01/A11 first slot, A05/A18/A22 agent, A23 militia card).
    """

    card: str
    needs: TargetKind
    choice: int = 1
    slot: SlotName | None = None
    agent: int | None = None
    card_chosen: str | None = None


class PlayerView(Model):
    """One seat as the viewer sees it.

    ``supply`` are agents not yet placed this round, ``agents_placed`` those on the board,
    ``agents_per_round`` the table's count. ``captured`` (face up, sorted) holds won members,
    Creditors, personalities and militia; ``played`` the action cards played face up (play order).
    ``hand`` is filled for the viewer's own seat (every seat under C09), else ``None``;
    ``hand_size`` is public. ``contract`` is the seat's own contract (everyone's once the game is
    over). ``protected``: A16 guards its agents this round. ``live_score`` is the public running
    score (no contract), ``crests`` the tie-break count.
    """

    seat: Seat
    supply: int
    agents_placed: int
    agents_per_round: int
    hand_size: int
    hand: tuple[str, ...] | None = None
    captured: tuple[str, ...] = ()
    played: tuple[str, ...] = ()
    contract: str | None = None
    protected: bool = False
    live_score: int = 0
    crests: int = 0
    resigned: bool = False


class CadwallonView(Model):
    """Everything ``viewer`` may know (``viewer=None``: the public/spectator view).

    ``grid`` is the side ``n``; ``slots`` (``n²``, index order) and ``boulevards`` (``2n(n−1)``,
    index order) describe the board, ``agents`` every placed agent, ``barricade`` A13's boulevard,
    ``free_boulevards`` the names an agent may be placed on now. ``expansion`` says the deck uses
    the expansion content (4×4/5×5). ``phase``/``round``/``first_seat``/``turn``/``step`` say
    where the game is (``step`` is the turn step of ``turn``); ``awaiting`` every seat waited for.
    ``deck_size`` and ``reserve_size`` are the district deck and the action reserve.
    ``condition`` is the revealed condition card. ``round_plays`` are this round's action cards,
    ``actions_closed`` means A21 closed actions this round, ``favour_seat`` who played A10 (takes
    the First Player card), ``revealed`` A25's card this round. ``stalled_rounds`` counts rounds
    without a capture (3 ends the game). ``last_capture`` is the last Capture's resolution, one
    entry per grid card in slot order; ``last_capture_round`` its round.

    Viewer only: ``pending`` (its action card being targeted) and ``peek`` (A02: the peeked cards,
    top first, while it orders them). ``result`` holds every seat's breakdown, in seat order, once
    the game is over; ``end_reason`` says why it ended.
    """

    viewer: Seat | None
    num_seats: int
    version: int
    grid: int
    expansion: bool
    phase: Phase
    round: int
    first_seat: Seat
    turn: Seat | None = None
    step: TurnStep | None = None
    awaiting: tuple[Seat, ...] = ()
    slots: tuple[SlotView, ...]
    boulevards: tuple[BoulevardView, ...]
    agents: tuple[AgentView, ...] = ()
    barricade: BoulevardName | None = None
    free_boulevards: tuple[BoulevardName, ...] = ()
    players: tuple[PlayerView, ...]
    deck_size: int
    reserve_size: int
    condition: str | None = None
    conditions: bool = False
    contracts: bool = False
    starting_action: bool = False
    round_plays: tuple[PlayedActionView, ...] = ()
    actions_closed: bool = False
    favour_seat: Seat | None = None
    revealed: str | None = None
    stalled_rounds: int = 0
    last_capture: tuple[CaptureView, ...] = ()
    last_capture_round: int | None = None
    pending: PendingView | None = None
    peek: tuple[str, ...] | None = None
    end_reason: EndReason | None = None
    result: tuple[ScoreBreakdown, ...] | None = None
