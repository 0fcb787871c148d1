"""The data contract of «Масти Власти» (Grok Games, 2023): cards, options, actions, events and views.

This module is the contract other parts of the bot build on (renderer, AI, localisation): names
here only ever grow, they are never renamed or removed. Rules source:
``shared/rules/masti-vlasti.md`` (binding rulings) and the Russian rulebook v1.0.

* A card travels everywhere as its compact id :data:`CardId` — the persona code and a two-digit
  value, ``"P07"`` = Пьетра 7. Its static data (persona, value, guild, symbols, neutral kind) is a
  :class:`CardInfo`, looked up with :func:`games.masti.deck.card_info` (the HOUSE deck of §1).
* Actions are imperative (``PlayCard``) with a ``kind`` discriminator; events are past tense
  (``CardPlayed``), private ones carry ``visible_to``.
* :class:`MastiView` is everything one seat (or a spectator, ``viewer=None``) may know.

Every model is a frozen pydantic model that round-trips through JSON.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from games.core.models import Event, Model, Seat

#: A card id: persona code (A, P, E, U) + two-digit value 01..13, e.g. ``"P07"``.
CardId = Annotated[str, Field(pattern=r"^[APEU](0[1-9]|1[0-3])$")]


class Persona(StrEnum):
    """The four personas (suits), in the seed's order (used for display and tie-breaks)."""

    ALDO = "A"  # Альдо
    PIETRA = "P"  # Пьетра
    ENZO = "E"  # Энцо
    UGO = "U"  # Уго


class Guild(StrEnum):
    """The six guilds, in the seed's order (used for display and deterministic choices)."""

    ARISTOCRATS = "ARI"  # Гильдия аристократов
    ARTISTS = "ART"  # Гильдия художников
    MERCHANTS = "MER"  # Гильдия торговцев
    CRAFTSMEN = "CRA"  # Гильдия ремесленников
    KNIGHTS = "KNI"  # Гильдия рыцарей
    ASSASSINS = "ASS"  # Гильдия убийц


class CardKind(StrEnum):
    """What a card does at the end of the game (values 1, 2, 3 and 13 are neutral)."""

    GUILD = "guild"  # values 4..12: one guild, 1 or 2 symbols
    JOKER = "joker"  # value 1: joins one guild pile as 1 symbol
    PENALTY = "penalty"  # value 2: -2 points
    BONUS = "bonus"  # value 3: +2 points
    POWER = "power"  # value 13: scored by how many are held


class CardInfo(Model):
    """The static data of one card: ``guild`` is ``None`` and ``symbols`` 0 for neutral cards."""

    id: CardId
    persona: Persona
    value: int
    kind: CardKind
    guild: Guild | None = None
    symbols: int = 0


class Phase(StrEnum):
    """What the table is waiting for."""

    SEEDING = "seeding"  # 6 players: the three 9-card players each add one card to the trump deck
    PLAY = "play"  # the seat due to act plays a card (or bribes)
    LEAVE = "leave"  # 6 players, rounds 1-8: the round winner leaves one taken card in the centre
    FINISHED = "finished"


class Mode(StrEnum):
    """How the table scores: each player alone, or in fixed teams of two."""

    STANDARD = "standard"
    TEAMS = "teams"


class MastiOptions(Model):
    """Table options.

    ``teams`` plays the 4-player team game (6 players always play in teams; ignored otherwise).
    ``first_seat`` fixes the first player of round 1 (rematch, tests); ``None`` draws it.

    Stacked decks for tests: ``hands`` gives every seat's dealt hand and ``trump_deck`` the trump
    deck, index 0 on top (revealed first). Together they must hold all 52 cards in the sizes of the
    mode; with 6 players ``trump_deck`` is the single leftover card and the first player's three
    seats (``first_seat`` .. ``first_seat + 2``) hold 8 cards, the others 9. A stacked table never
    shuffles: the seeded 6-player trump deck is the leftover card followed by the added cards in
    seat order starting after the first player's three seats, and a rebuilt trump deck keeps the
    order in which the cards were left.
    """

    teams: bool = False
    first_seat: int | None = None
    hands: tuple[tuple[CardId, ...], ...] | None = None
    trump_deck: tuple[CardId, ...] | None = None


# ----------------------------------------------------------------------------- actions
class PlayCard(Model):
    """Play ``card`` from hand to the current round (the lead, or a follower)."""

    kind: Literal["play"] = "play"
    card: CardId


class PayBribe(Model):
    """Skip this round by paying one gem from the bribe supply (never allowed to the lead)."""

    kind: Literal["bribe"] = "bribe"


class SeedTrump(Model):
    """6 players, setup: secretly add ``card`` from hand to the trump deck (9-card players only)."""

    kind: Literal["seed"] = "seed"
    card: CardId


class LeaveCard(Model):
    """6 players, rounds 1-8: leave ``card``, one of the cards just taken, face up in the centre."""

    kind: Literal["leave"] = "leave"
    card: CardId


MastiAction = Annotated[PlayCard | PayBribe | SeedTrump | LeaveCard, Field(discriminator="kind")]
ACTION_ADAPTER: TypeAdapter[MastiAction] = TypeAdapter(MastiAction)


# ----------------------------------------------------------------------------- events
class GameStarted(Event):
    """The table was set up.

    ``teams`` lists each team's seats (``None`` in the standard game); ``first_seat`` leads round 1.
    """

    kind: Literal["game_started"] = "game_started"
    mode: Mode
    teams: tuple[tuple[Seat, ...], ...] | None = None
    first_seat: Seat
    hand_sizes: tuple[int, ...]
    bribe_gems: int
    trump_deck_size: int
    max_rounds: int


class CardsDealt(Event):
    """``seat`` received ``cards`` face down (private to that seat)."""

    kind: Literal["cards_dealt"] = "cards_dealt"
    seat: Seat
    cards: tuple[CardId, ...]


class TrumpSeeded(Event):
    """6 players: ``seat`` added a card to the trump deck; ``card`` is filled only in its private copy."""

    kind: Literal["trump_seeded"] = "trump_seeded"
    seat: Seat
    card: CardId | None = None


class TrumpDeckFormed(Event):
    """6 players: the seeded trump deck of ``size`` cards was shuffled (its contents stay hidden)."""

    kind: Literal["trump_deck_formed"] = "trump_deck_formed"
    size: int


class TrumpDeckRebuilt(Event):
    """6 players, start of round 5 or 9: the left ``cards`` (sorted) were shuffled into the trump deck."""

    kind: Literal["trump_deck_rebuilt"] = "trump_deck_rebuilt"
    round: int
    cards: tuple[CardId, ...]


class TrumpRevealed(Event):
    """``card`` was turned face up as the trump card of ``round``; ``persona`` is trump."""

    kind: Literal["trump_revealed"] = "trump_revealed"
    round: int
    card: CardId
    persona: Persona
    deck_left: int


class PlayerDroppedOut(Event):
    """``seat`` began a round with no cards: it takes no more turns, ``gems_removed`` left the game."""

    kind: Literal["player_dropped_out"] = "player_dropped_out"
    seat: Seat
    gems_removed: int


class RoundStarted(Event):
    """Round ``round`` began; ``lead`` plays the starting card."""

    kind: Literal["round_started"] = "round_started"
    round: int
    lead: Seat


class CardPlayed(Event):
    """``seat`` played ``card``; ``automatic`` when the engine played it for a resigned seat."""

    kind: Literal["card_played"] = "card_played"
    seat: Seat
    card: CardId
    automatic: bool = False


class BribePaid(Event):
    """``seat`` paid a gem from its bribe supply and plays no card this round."""

    kind: Literal["bribe_paid"] = "bribe_paid"
    seat: Seat
    gems_left: int


class RoundWon(Event):
    """``winner`` took ``cards`` (the cards played, then the trump card) and ``gems`` bribe gems."""

    kind: Literal["round_won"] = "round_won"
    round: int
    winner: Seat
    cards: tuple[CardId, ...]
    trump: CardId
    gems: int


class CardLeft(Event):
    """6 players: ``seat`` left ``card`` face up in the centre; it belongs to nobody now."""

    kind: Literal["card_left"] = "card_left"
    seat: Seat
    card: CardId
    automatic: bool = False


class PlayerResigned(Event):
    """``seat`` resigned; ``seats`` are all the seats withdrawn with it (its team in a team game)."""

    kind: Literal["player_resigned"] = "player_resigned"
    seat: Seat
    seats: tuple[Seat, ...]


class JokerPlacement(Model):
    """One joker of ``owner`` joined ``owner``'s ``guild`` pile (``guild=None``: discarded)."""

    owner: Seat
    card: CardId
    guild: Guild | None = None


class JokersPlaced(Event):
    """The engine placed every joker the score-maximising legal way (§6.1, §7)."""

    kind: Literal["jokers_placed"] = "jokers_placed"
    placements: tuple[JokerPlacement, ...]


class GameScored(Event):
    """The game ended: ``scores[seat]`` (the team's score in a team game) and ``ranks[seat]`` (0 = first)."""

    kind: Literal["game_scored"] = "game_scored"
    scores: tuple[int, ...]
    ranks: tuple[int, ...]


MastiEvent = Annotated[
    GameStarted
    | CardsDealt
    | TrumpSeeded
    | TrumpDeckFormed
    | TrumpDeckRebuilt
    | TrumpRevealed
    | PlayerDroppedOut
    | RoundStarted
    | CardPlayed
    | BribePaid
    | RoundWon
    | CardLeft
    | PlayerResigned
    | JokersPlaced
    | GameScored,
    Field(discriminator="kind"),
]
EVENT_ADAPTER: TypeAdapter[MastiEvent] = TypeAdapter(MastiEvent)


# ----------------------------------------------------------------------------- score breakdown
class PileScore(Model):
    """One guild pile at the end.

    ``symbols`` counts the guild cards only (a ×2 card counts 2); ``joker`` is the joker placed on
    it, adding one symbol. ``counted`` is ``False`` for a team pile dropped by the dedupe (§7), whose
    ``points`` are then 0.
    """

    owner: Seat
    guild: Guild
    cards: tuple[CardId, ...]
    symbols: int
    joker: CardId | None = None
    counted: bool = True
    points: int


class ScoreBreakdown(Model):
    """The itemised final score of one scoring unit: a player, or a team (``seats`` of both partners).

    ``total = sum(pile points) + bonus_points + penalty_points + power_points + gems``.
    ``won_cards`` and ``gems`` are also the tie-breaks (§8); ``rank`` is 0 for first place.
    """

    seats: tuple[Seat, ...]
    piles: tuple[PileScore, ...]
    discarded_jokers: tuple[CardId, ...] = ()
    bonus_cards: int
    bonus_points: int
    penalty_cards: int
    penalty_points: int
    power_cards: int
    power_points: int
    gems: int
    total: int
    won_cards: int
    rank: int
    resigned: bool = False


# ----------------------------------------------------------------------------- views
class PlayView(Model):
    """One seat's action in the current round: ``card`` played, or ``card=None`` for a bribe."""

    seat: Seat
    card: CardId | None = None

    @property
    def bribe(self) -> bool:
        """Return whether this seat bribed instead of playing."""
        return self.card is None


class GuildPileView(Model):
    """A won guild pile: its cards (sorted) and its symbol count (×2 cards count 2)."""

    guild: Guild
    cards: tuple[CardId, ...]
    symbols: int


class PlayerView(Model):
    """One seat as the viewer sees it.

    ``piles`` lists only non-empty guild piles, in guild order; ``neutral`` is the neutral pile
    (jokers, −2, +2, power cards). ``hand`` is filled only for the viewer's own seat. ``out`` means
    the seat dropped out with an empty hand; ``seeded`` (6 players) that it has added its card to
    the trump deck.
    """

    seat: Seat
    team: int | None = None
    hand_size: int
    bribe_gems: int
    wealth_gems: int
    piles: tuple[GuildPileView, ...]
    neutral: tuple[CardId, ...]
    won_cards: int
    power_cards: int
    out: bool = False
    resigned: bool = False
    seeded: bool = False
    hand: tuple[CardId, ...] | None = None


class RoundResultView(Model):
    """The last finished round: who won it, the cards taken (played, then trump) and the gems."""

    round: int
    winner: Seat
    cards: tuple[CardId, ...]
    trump: CardId
    gems: int
    left: CardId | None = None


class MastiView(Model):
    """Everything ``viewer`` may know (``viewer=None``: the public/spectator view).

    ``teams[i]`` lists the seats of team ``i`` (``None`` in the standard game). ``trump`` is the
    face-up trump card of the round and ``trump_deck_size`` the unrevealed cards under it;
    ``trump_deck_cards`` (sorted) is filled when the set is public (a rebuilt 6-player deck).
    ``left_cards`` is the 6-player left-card stack (oldest first). ``plays`` are this round's
    actions in play order, the lead first. ``turn`` is the seat due to play (phase ``play``) or to
    leave a card (phase ``leave``); ``awaiting`` every seat the table waits for.

    Private to the viewer (``None`` in the spectator view): ``hand``, ``legal_cards`` (the cards it
    may play, seed or leave now, lowest first; empty while it is not awaited), ``can_bribe`` and
    ``seeded_card`` (6 players: the card it added to the trump deck, while that card is still
    hidden in the deck). ``result`` holds one breakdown per scoring unit, best first, once the
    game is over.
    """

    viewer: Seat | None
    num_seats: int
    version: int
    phase: Phase
    mode: Mode
    teams: tuple[tuple[Seat, ...], ...] | None = None
    first_seat: Seat
    round: int
    max_rounds: int
    players: tuple[PlayerView, ...]
    trump: CardId | None = None
    trump_persona: Persona | None = None
    trump_deck_size: int
    trump_deck_cards: tuple[CardId, ...] | None = None
    left_cards: tuple[CardId, ...] = ()
    lead: Seat | None = None
    led_persona: Persona | None = None
    plays: tuple[PlayView, ...] = ()
    turn: Seat | None = None
    awaiting: tuple[Seat, ...] = ()
    leave_choices: tuple[CardId, ...] = ()
    last_round: RoundResultView | None = None
    hand: tuple[CardId, ...] | None = None
    legal_cards: tuple[CardId, ...] | None = None
    can_bribe: bool = False
    seeded_card: CardId | None = None
    result: tuple[ScoreBreakdown, ...] | None = None
