"""The rules engine of «Масти Власти» (Grok Games, 2023) for 3-6 players.

Rules source: ``shared/rules/masti-vlasti.md`` — the binding digest of the Hobby World rulebook v1.0
(every RULING there is implemented), played with the project's HOUSE deck (:mod:`games.masti.deck`).
Variants: 3, 4 and 5 players standard; 4 players in two teams (option ``teams``); 6 players always
in three teams with the trump deck the players seed and rebuild at rounds 5 and 9.

**Resigning** (the engine's reading, spec §10): a resignation withdraws the seat's whole scoring
unit — the player, or in a team game the team (the team scores one number, so a half-resigned team
would make no sense). Withdrawn seats stay in the card flow, because their cards must keep moving:
from then on the engine takes their decisions itself with :meth:`MastiEngine.default_action`
(lowest legal card, never a bribe; lowest card to seed or leave) and they are never awaited again.
When fewer than two units are left playing, the game ends at once and is scored as it stands.
Withdrawn units rank below every unit still playing, the latest to resign highest; units still
playing rank by the usual score and tie-breaks (§8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from games.core.errors import GameError, GameOverError, IllegalActionError, NotYourTurnError
from games.core.models import Event, Outcome, Seat, Step
from games.core.rng import GameRng
from games.masti.deck import ALL_CARDS, sort_key
from games.masti.models import (
    ACTION_ADAPTER,
    BribePaid,
    CardLeft,
    CardPlayed,
    CardsDealt,
    GameScored,
    GameStarted,
    GuildPileView,
    JokerPlacement,
    JokersPlaced,
    LeaveCard,
    MastiAction,
    MastiOptions,
    MastiView,
    Mode,
    PayBribe,
    Persona,
    Phase,
    PlayCard,
    PlayerDroppedOut,
    PlayerResigned,
    PlayerView,
    PlayView,
    RoundResultView,
    RoundStarted,
    RoundWon,
    SeedTrump,
    TrumpDeckFormed,
    TrumpDeckRebuilt,
    TrumpRevealed,
    TrumpSeeded,
)
from games.masti.scoring import joker_placements, piles_of, score_units
from games.masti.state import MastiState

#: Every error code this engine raises (stable: the bot translates them).
ERROR_CODES: tuple[str, ...] = (
    "core.game_over",
    "core.not_your_turn",
    "masti.invalid_seat_count",
    "masti.invalid_options",
    "masti.invalid_first_seat",
    "masti.invalid_deck",
    "masti.invalid_seat",
    "masti.unknown_action",
    "masti.wrong_phase",
    "masti.card_not_in_hand",
    "masti.must_follow_suit",
    "masti.lead_cannot_bribe",
    "masti.no_bribe_gems",
    "masti.not_a_won_card",
    "masti.already_resigned",
)


@dataclass(frozen=True)
class TableSize:
    """The setup row of one player count (§2): hand and trump deck sizes, bribe gems, rounds."""

    trump_deck: int
    hand: int
    gems: int
    rounds: int


#: Setup by player count. With 6 players the trump deck starts as the single leftover card and
#: ``hand`` is the hand after seeding (the three 9-card players add one card each).
TABLE: dict[int, TableSize] = {
    3: TableSize(trump_deck=16, hand=12, gems=4, rounds=16),
    4: TableSize(trump_deck=12, hand=10, gems=2, rounds=12),
    5: TableSize(trump_deck=12, hand=8, gems=4, rounds=12),
    6: TableSize(trump_deck=1, hand=8, gems=4, rounds=12),
}
#: 6 players: rounds after which the winner leaves a card, and rounds whose start rebuilds the deck.
LEAVE_ROUNDS = 8
REBUILD_ROUNDS = (5, 9)

_VALUE: dict[str, int] = {card: int(card[1:]) for card in ALL_CARDS}
_NEUTRAL_VALUES = frozenset((1, 2, 3, 13))
POWER_VALUE = 13
_PLAYS: dict[str, PlayCard] = {card: PlayCard(card=card) for card in ALL_CARDS}
_SEEDS: dict[str, SeedTrump] = {card: SeedTrump(card=card) for card in ALL_CARDS}
_LEAVES: dict[str, LeaveCard] = {card: LeaveCard(card=card) for card in ALL_CARDS}
_BRIBE = PayBribe()


def _private(seat: Seat) -> frozenset[Seat]:
    return frozenset((seat,))


def _sorted(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=sort_key))


def legal_cards(hand: Sequence[str], plays: Sequence[PlayView]) -> tuple[str, ...]:
    """Return the cards of ``hand`` that may be played after ``plays`` (must follow the led persona).

    >>> legal_cards(("A05", "P09"), (PlayView(seat=0, card="A07"),))
    ('A05',)
    >>> legal_cards(("E05", "P09"), (PlayView(seat=0, card="A07"),))
    ('E05', 'P09')
    """
    if not plays or plays[0].card is None:
        return tuple(hand)
    led = plays[0].card[0]
    follow = tuple(card for card in hand if card[0] == led)
    return follow or tuple(hand)


def round_winner(plays: Sequence[PlayView], trump: str) -> Seat:
    """Return the seat winning a round (§3.3): the highest trump, else the highest led-persona card.

    >>> plays = [PlayView(seat=0, card="A07"), PlayView(seat=1, card="A12"), PlayView(seat=2, card="E04")]
    >>> round_winner(plays, "E10")
    2
    """
    lead = plays[0].card
    assert lead is not None  # noqa: S101 - the lead always plays a card
    played = [p for p in plays if p.card is not None]
    trumps = [p for p in played if p.card is not None and p.card[0] == trump[0]]
    pool = trumps or [p for p in played if p.card is not None and p.card[0] == lead[0]]
    return max(pool, key=lambda p: _VALUE[p.card or ""]).seat


def teams_for(num_seats: int, teams: bool) -> tuple[tuple[Seat, ...], ...] | None:
    """Return the fixed teams of a table (partners never sit next to each other), or ``None``."""
    if num_seats == 6:
        return ((0, 3), (1, 4), (2, 5))
    if num_seats == 4 and teams:
        return ((0, 2), (1, 3))
    return None


class _Table:
    """A mutable working copy of a state for one step: the rules in motion.

    Methods mutate the copy and append events; ``commit`` freezes it into the next state once. The
    input state is never touched, so an error half-way leaves nothing changed.
    """

    def __init__(self, state: MastiState) -> None:
        self.state = state
        self.n = state.num_seats
        self.phase = state.phase
        self.round = state.round
        self.hands = [list(hand) for hand in state.hands]
        self.bribe_gems = list(state.bribe_gems)
        self.wealth_gems = list(state.wealth_gems)
        self.won = [list(cards) for cards in state.won]
        self.out = list(state.out)
        self.trump = state.trump
        self.trump_deck = list(state.trump_deck)
        self.deck_public = state.deck_public
        self.left = list(state.left)
        self.seeded = list(state.seeded)
        self.leader = state.leader
        self.order = list(state.order)
        self.plays = list(state.plays)
        self.turn = state.turn
        self.winner = state.winner
        self.just_taken = list(state.just_taken)
        self.last_round = state.last_round
        self.resigned = list(state.resigned)
        self.result = state.result
        self.scores = state.scores
        self.ranks = state.ranks
        self.events: list[Event] = []
        self._rng: GameRng | None = None

    # ------------------------------------------------------------------ plumbing
    def commit(self) -> Step[MastiState]:
        """Freeze the working copy into the next state (version + 1) with the step's events."""
        state = self.state.model_copy(
            update={
                "version": self.state.version + 1,
                "phase": self.phase,
                "round": self.round,
                "hands": tuple(tuple(hand) for hand in self.hands),
                "bribe_gems": tuple(self.bribe_gems),
                "wealth_gems": tuple(self.wealth_gems),
                "won": tuple(tuple(cards) for cards in self.won),
                "out": tuple(self.out),
                "trump": self.trump,
                "trump_deck": tuple(self.trump_deck),
                "deck_public": self.deck_public,
                "left": tuple(self.left),
                "seeded": tuple(self.seeded),
                "leader": self.leader,
                "order": tuple(self.order),
                "plays": tuple(self.plays),
                "turn": self.turn,
                "winner": self.winner,
                "just_taken": tuple(self.just_taken),
                "last_round": self.last_round,
                "resigned": tuple(self.resigned),
                "result": self.result,
                "scores": self.scores,
                "ranks": self.ranks,
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

    def units(self) -> list[tuple[Seat, ...]]:
        """Return the scoring units: the teams, or every seat alone."""
        return list(self.state.teams) if self.state.teams is not None else [(s,) for s in range(self.n)]

    # ------------------------------------------------------------------ seeding (6 players)
    def seed(self, seat: Seat, card: str) -> None:
        """``seat`` adds ``card`` to the trump deck; after the third card the deck is formed."""
        self.hands[seat].remove(card)
        self.seeded[seat] = card
        self.emit(TrumpSeeded(seat=seat, card=card, visible_to=_private(seat)))
        self.emit(TrumpSeeded(seat=seat))
        if any(self.seeded[s] is None for s in self.state.seeders):
            return
        deck = [*self.trump_deck, *(self.seeded[s] or "" for s in self.state.seeders)]
        if not self.state.stacked:
            deck = self.rng().shuffled(deck)
        self.trump_deck = deck
        self.emit(TrumpDeckFormed(size=len(deck)))
        self.phase = Phase.PLAY
        self.reveal()
        self.start_round()

    # ------------------------------------------------------------------ rounds
    def reveal(self) -> None:
        """Turn the top trump-deck card face up as this round's trump card."""
        card = self.trump_deck.pop(0)
        self.trump = card
        self.emit(TrumpRevealed(round=self.round, card=card, persona=Persona(card[0]), deck_left=len(self.trump_deck)))

    def start_round(self) -> None:
        """Drop out the seats with empty hands, then let the leader (or the next seat with cards) lead."""
        for seat in range(self.n):
            if not self.out[seat] and not self.hands[seat]:
                self.out[seat] = True
                gems, self.bribe_gems[seat] = self.bribe_gems[seat], 0
                self.emit(PlayerDroppedOut(seat=seat, gems_removed=gems))
        lead = self.leader
        while self.out[lead]:
            lead = (lead + 1) % self.n
        self.order = [s for s in ((lead + i) % self.n for i in range(self.n)) if not self.out[s]]
        self.plays = []
        self.turn = lead
        self.emit(RoundStarted(round=self.round, lead=lead))

    def play(self, seat: Seat, card: str, *, automatic: bool = False) -> None:
        """``seat`` plays ``card`` (already checked legal)."""
        self.hands[seat].remove(card)
        self.plays.append(PlayView(seat=seat, card=card))
        self.emit(CardPlayed(seat=seat, card=card, automatic=automatic))
        self.advance()

    def bribe(self, seat: Seat) -> None:
        """``seat`` pays a bribe gem and plays no card this round."""
        self.bribe_gems[seat] -= 1
        self.plays.append(PlayView(seat=seat))
        self.emit(BribePaid(seat=seat, gems_left=self.bribe_gems[seat]))
        self.advance()

    def advance(self) -> None:
        """Pass the turn on, or end the round once every seat in the game has acted."""
        if len(self.plays) < len(self.order):
            self.turn = self.order[len(self.plays)]
            return
        self.finish_round()

    def finish_round(self) -> None:
        """The winner takes the played cards, the trump card and the bribes (§3.3-3.4)."""
        trump = self.trump
        assert trump is not None  # noqa: S101 - every round has a face-up trump card
        winner = round_winner(self.plays, trump)
        taken = [p.card for p in self.plays if p.card is not None]
        taken.append(trump)
        gems = sum(1 for p in self.plays if p.card is None)
        self.won[winner].extend(taken)
        self.wealth_gems[winner] += gems
        self.emit(RoundWon(round=self.round, winner=winner, cards=tuple(taken), trump=trump, gems=gems))
        self.last_round = RoundResultView(round=self.round, winner=winner, cards=tuple(taken), trump=trump, gems=gems)
        self.leader = winner
        self.winner = winner
        self.trump = None
        self.plays = []
        self.order = []
        if self.n == 6 and self.round <= LEAVE_ROUNDS:
            self.phase = Phase.LEAVE
            self.just_taken = taken
            self.turn = winner
            return
        self.turn = None
        self.after_round()

    def leave(self, seat: Seat, card: str, *, automatic: bool = False) -> None:
        """6 players: the round winner leaves ``card`` (one just taken) in the centre."""
        self.won[seat].remove(card)
        self.left.append(card)
        self.just_taken = []
        if self.last_round is not None:
            self.last_round = self.last_round.model_copy(update={"left": card})
        self.emit(CardLeft(seat=seat, card=card, automatic=automatic))
        self.phase = Phase.PLAY
        self.turn = None
        self.after_round()

    def after_round(self) -> None:
        """Check the end of the game (§5); otherwise reveal the next trump card and start the round."""
        six = self.n == 6
        if all(not hand for hand in self.hands) or (six and self.round >= self.state.max_rounds):
            self.finish()
            return
        if not six and not self.trump_deck:
            self.finish()
            return
        self.round += 1
        if six and self.round in REBUILD_ROUNDS:
            cards = list(self.left)
            if not self.state.stacked:
                cards = self.rng().shuffled(cards)
            self.trump_deck = cards
            self.left = []
            self.deck_public = True
            self.emit(TrumpDeckRebuilt(round=self.round, cards=_sorted(cards)))
        self.reveal()
        self.start_round()

    # ------------------------------------------------------------------ end, resign, autoplay
    def finish(self) -> None:
        """Score the game (§6-8): jokers placed, breakdowns, ranks."""
        units = self.units()
        won = dict(enumerate(self.won))
        gems = dict(enumerate(self.wealth_gems))
        result = score_units(units, won, gems, self.resigned)
        scores = [0] * self.n
        ranks = [0] * self.n
        placements: list[JokerPlacement] = []
        for unit in sorted(result, key=lambda u: u.seats):
            placements.extend(joker_placements(unit, won))
            for seat in unit.seats:
                scores[seat] = unit.total
                ranks[seat] = unit.rank
        self.result = result
        self.scores = tuple(scores)
        self.ranks = tuple(ranks)
        self.phase = Phase.FINISHED
        self.turn = None
        self.emit(JokersPlaced(placements=tuple(placements)))
        self.emit(GameScored(scores=self.scores, ranks=self.ranks))

    def resign(self, seat: Seat) -> None:
        """Withdraw ``seat``'s unit; end the game if fewer than two units still play."""
        unit = next(u for u in self.units() if seat in u)
        self.resigned.extend([seat, *(s for s in unit if s != seat)])
        self.emit(PlayerResigned(seat=seat, seats=unit))
        playing = [u for u in self.units() if not any(s in self.resigned for s in u)]
        if len(playing) < 2:
            self.finish()
            return
        if self.phase is Phase.SEEDING:
            for member in unit:
                if member in self.state.seeders and self.seeded[member] is None:
                    self.seed(member, min(self.hands[member], key=sort_key))
        self.settle()

    def settle(self) -> None:
        """Take every decision due from a resigned seat, until a playing seat is awaited or the end."""
        while True:
            if self.phase is Phase.PLAY and self.turn is not None and self.turn in self.resigned:
                seat = self.turn
                legal = legal_cards(self.hands[seat], self.plays)
                self.play(seat, min(legal, key=sort_key), automatic=True)
            elif self.phase is Phase.LEAVE and self.winner is not None and self.winner in self.resigned:
                self.leave(self.winner, min(self.just_taken, key=sort_key), automatic=True)
            else:
                return


class MastiEngine:
    """The rules of «Масти Власти» as pure functions of :class:`MastiState`."""

    name: ClassVar[str] = "masti"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 6
    #: RULING (§2): seats are shuffled at the start with the table's seeded generator.
    shuffle_seats: ClassVar[bool] = True
    state_type: type[MastiState] = MastiState
    options_type: type[BaseModel] = MastiOptions
    action_adapter: TypeAdapter[Any] = ACTION_ADAPTER

    # ------------------------------------------------------------------ setup
    def setup(self, num_seats: int, options: BaseModel, seed: str) -> Step[MastiState]:
        """Deal a new game.

        Args:
            num_seats: Players at the table, 3 to 6.
            options: A :class:`MastiOptions` (or a model that validates as one).
            seed: The table seed; every random draw of the game derives from it.

        Returns:
            The initial state and the deal's events (each seat's cards privately).

        Raises:
            GameError: The seat count, options, first seat or stacked deck are invalid.
        """
        opts = _coerce_options(options)
        if not self.min_seats <= num_seats <= self.max_seats:
            raise GameError("masti.invalid_seat_count", min=self.min_seats, max=self.max_seats, have=num_seats)
        size = TABLE[num_seats]
        six = num_seats == 6
        stacked = opts.hands is not None or opts.trump_deck is not None
        first = opts.first_seat
        if first is not None and not 0 <= first < num_seats:
            raise GameError("masti.invalid_first_seat", seat=first)
        if first is None and not (stacked and six):
            first = GameRng.for_step(seed, 0, "first_seat").below(num_seats)
        if stacked:
            hands, deck, first = _stacked_deal(num_seats, opts, first)
        else:
            assert first is not None  # noqa: S101 - drawn above when not given
            order = GameRng.for_step(seed, 0, "deal").shuffled(ALL_CARDS)
            deck = order[: size.trump_deck]
            rest = order[size.trump_deck :]
            # 6 players: dealing from first + 3 gives the three extra cards to the 9-card seats.
            start = (first + 3) % num_seats if six else 0
            dealt: list[list[str]] = [[] for _ in range(num_seats)]
            for index, card in enumerate(rest):
                dealt[(start + index) % num_seats].append(card)
            hands = [_sorted(hand) for hand in dealt]
        teams = teams_for(num_seats, opts.teams)
        mode = Mode.TEAMS if teams is not None else Mode.STANDARD
        seeders = tuple((first + 3 + i) % 6 for i in range(3)) if six else ()
        events: list[Event] = [
            GameStarted(
                mode=mode,
                teams=teams,
                first_seat=first,
                hand_sizes=tuple(len(hand) for hand in hands),
                bribe_gems=size.gems,
                trump_deck_size=len(deck),
                max_rounds=size.rounds,
            )
        ]
        events.extend(CardsDealt(seat=s, cards=hands[s], visible_to=_private(s)) for s in range(num_seats))
        state = MastiState(
            seed=seed,
            num_seats=num_seats,
            mode=mode,
            teams=teams,
            first_seat=first,
            stacked=stacked,
            phase=Phase.SEEDING if six else Phase.PLAY,
            round=1,
            max_rounds=size.rounds,
            hands=tuple(hands),
            bribe_gems=(size.gems,) * num_seats,
            wealth_gems=(0,) * num_seats,
            won=((),) * num_seats,
            out=(False,) * num_seats,
            trump_deck=tuple(deck),
            seeders=seeders,
            seeded=(None,) * num_seats if six else (),
            leader=first,
        )
        if six:
            return Step(state, tuple(events))
        table = _Table(state)
        table.reveal()
        table.start_round()
        events.extend(table.events)
        return Step(table.commit().state.model_copy(update={"version": 0}), tuple(events))

    # ------------------------------------------------------------------ queries
    def active_seats(self, state: MastiState) -> frozenset[Seat]:
        """Return the seats the game waits for; empty once the game is over."""
        phase = state.phase
        if phase is Phase.PLAY:
            return frozenset((state.turn,)) if state.turn is not None else frozenset()
        if phase is Phase.LEAVE:
            return frozenset((state.winner,)) if state.winner is not None else frozenset()
        if phase is Phase.SEEDING:
            return frozenset(s for s in state.seeders if state.seeded[s] is None and s not in state.resigned)
        return frozenset()

    def legal_actions(self, state: MastiState, seat: Seat) -> list[Any]:
        """Return every action ``seat`` may take now (empty when it is not awaited)."""
        if seat not in self.active_seats(state):
            return []
        phase = state.phase
        if phase is Phase.PLAY:
            actions: list[Any] = [_PLAYS[c] for c in legal_cards(state.hands[seat], state.plays)]
            if state.plays and state.bribe_gems[seat] > 0:
                actions.append(_BRIBE)
            return actions
        if phase is Phase.SEEDING:
            return [_SEEDS[c] for c in state.hands[seat]]
        return [_LEAVES[c] for c in _sorted(state.just_taken)]

    # ------------------------------------------------------------------ actions
    def apply(self, state: MastiState, seat: Seat, action: object) -> Step[MastiState]:
        """Apply ``action`` by ``seat``.

        Args:
            state: The table before the action.
            seat: The acting seat.
            action: A :data:`MastiAction` (or its JSON-like dict).

        Returns:
            The next state (version + 1) and the events of the step, including every automatic
            decision taken for resigned seats and, at the end, the scoring.

        Raises:
            GameOverError: The game is over.
            NotYourTurnError: ``seat`` is not awaited.
            GameError: The action breaks a rule (see :data:`ERROR_CODES`); the state is unchanged.
        """
        if state.phase is Phase.FINISHED:
            raise GameOverError
        act = _coerce_action(action)
        if seat not in self.active_seats(state):
            raise NotYourTurnError(seat=seat)
        phase = state.phase
        table = _Table(state)
        if isinstance(act, PlayCard):
            _expect(phase, Phase.PLAY, act)
            hand = state.hands[seat]
            if act.card not in hand:
                raise IllegalActionError("masti.card_not_in_hand", card=act.card)
            if act.card not in legal_cards(hand, state.plays):
                led = state.plays[0].card or ""
                raise IllegalActionError("masti.must_follow_suit", card=act.card, led=led[0])
            table.play(seat, act.card)
        elif isinstance(act, PayBribe):
            _expect(phase, Phase.PLAY, act)
            if not state.plays:
                raise IllegalActionError("masti.lead_cannot_bribe")
            if state.bribe_gems[seat] <= 0:
                raise IllegalActionError("masti.no_bribe_gems")
            table.bribe(seat)
        elif isinstance(act, SeedTrump):
            _expect(phase, Phase.SEEDING, act)
            if act.card not in state.hands[seat]:
                raise IllegalActionError("masti.card_not_in_hand", card=act.card)
            table.seed(seat, act.card)
        else:
            _expect(phase, Phase.LEAVE, act)
            if act.card not in state.just_taken:
                raise IllegalActionError("masti.not_a_won_card", card=act.card)
            table.leave(seat, act.card)
        table.settle()
        return table.commit()

    def resign(self, state: MastiState, seat: Seat) -> Step[MastiState]:
        """Withdraw ``seat`` (with its team) from play; the engine plays its cards from now on.

        Args:
            state: The table before the resignation.
            seat: The resigning seat.

        Returns:
            The next state and events (see the module docstring for the reading of resigning).

        Raises:
            GameOverError: The game is over.
            GameError: The seat is not at the table or has already resigned.
        """
        if state.phase is Phase.FINISHED:
            raise GameOverError
        if not 0 <= seat < state.num_seats:
            raise IllegalActionError("masti.invalid_seat", seat=seat)
        if seat in state.resigned:
            raise IllegalActionError("masti.already_resigned", seat=seat)
        table = _Table(state)
        table.resign(seat)
        return table.commit()

    # ------------------------------------------------------------------ views
    def view(self, state: MastiState, seat: Seat | None) -> MastiView:
        """Return what ``seat`` may see (``None``: the public view, no hands).

        Raises:
            GameError: ``seat`` is not at the table.
        """
        n = state.num_seats
        if seat is not None and not 0 <= seat < n:
            raise IllegalActionError("masti.invalid_seat", seat=seat)
        team_of = {s: i for i, team in enumerate(state.teams or ()) for s in team}
        players = []
        for s in range(n):
            won = state.won[s]
            piles, neutral, power = _won_summary(won)
            players.append(
                PlayerView(
                    seat=s,
                    team=team_of.get(s),
                    hand_size=len(state.hands[s]),
                    bribe_gems=state.bribe_gems[s],
                    wealth_gems=state.wealth_gems[s],
                    piles=piles,
                    neutral=neutral,
                    won_cards=len(won),
                    power_cards=power,
                    out=state.out[s],
                    resigned=s in state.resigned,
                    seeded=s in state.seeders and state.seeded[s] is not None,
                    hand=state.hands[s] if s == seat else None,
                )
            )
        active = self.active_seats(state)
        hand: tuple[str, ...] | None = None
        legal: tuple[str, ...] | None = None
        can_bribe = False
        seeded_card: str | None = None
        if seat is not None:
            hand = state.hands[seat]
            legal = ()
            if seat in active:
                actions = self.legal_actions(state, seat)
                legal = tuple(a.card for a in actions if not isinstance(a, PayBribe))
                can_bribe = _BRIBE in actions
            if state.seeded and not state.deck_public:
                mine = state.seeded[seat]
                if mine is not None and (state.phase is Phase.SEEDING or mine in state.trump_deck):
                    seeded_card = mine
        first_play = state.plays[0].card if state.plays else None
        return MastiView(
            viewer=seat,
            num_seats=n,
            version=state.version,
            phase=state.phase,
            mode=state.mode,
            teams=state.teams,
            first_seat=state.first_seat,
            round=state.round,
            max_rounds=state.max_rounds,
            players=tuple(players),
            trump=state.trump,
            trump_persona=Persona(state.trump[0]) if state.trump is not None else None,
            trump_deck_size=len(state.trump_deck),
            trump_deck_cards=_sorted(state.trump_deck) if state.deck_public else None,
            left_cards=state.left,
            lead=state.order[0] if state.phase is Phase.PLAY and state.order else None,
            led_persona=Persona(first_play[0]) if first_play is not None else None,
            plays=state.plays,
            turn=state.turn,
            awaiting=tuple(sorted(active)),
            leave_choices=tuple(state.just_taken) if state.phase is Phase.LEAVE else (),
            last_round=state.last_round,
            hand=hand,
            legal_cards=legal,
            can_bribe=can_bribe,
            seeded_card=seeded_card,
            result=state.result,
        )

    def default_action(self, state: MastiState, seat: Seat) -> MastiAction:
        """Return the clock's action for ``seat`` (§10): the lowest legal card, never a bribe.

        Raises:
            NotYourTurnError: ``seat`` is not awaited.
        """
        if seat not in self.active_seats(state):
            raise NotYourTurnError(seat=seat)
        if state.phase is Phase.PLAY:
            return _PLAYS[min(legal_cards(state.hands[seat], state.plays), key=sort_key)]
        if state.phase is Phase.SEEDING:
            return _SEEDS[min(state.hands[seat], key=sort_key)]
        return _LEAVES[min(state.just_taken, key=sort_key)]

    def outcome(self, state: MastiState) -> Outcome | None:
        """Return the result once the game is over (team games: both partners share the team's rank)."""
        if state.phase is not Phase.FINISHED or state.ranks is None or state.scores is None:
            return None
        return Outcome(ranks=state.ranks, scores=tuple(float(s) for s in state.scores), teams=state.teams)

    # ------------------------------------------------------------------ leak-check hook
    def resample_hidden(self, state: MastiState, seat: Seat | None, rng: GameRng) -> MastiState:
        """Return a state ``seat`` cannot tell from ``state``, everything hidden from it redrawn.

        Hidden from ``seat``: the other hands (sizes kept), the trump deck (its contents, or only its
        order once a rebuilt 6-player deck's set is public) and the cards other seats seeded. The
        seat's own seeded card stays in the deck.
        """
        n = state.num_seats
        others = [s for s in range(n) if s != seat]
        hands = [list(hand) for hand in state.hands]
        seeded = list(state.seeded)
        own_seed = seeded[seat] if seat is not None and seeded else None
        seeding = state.phase is Phase.SEEDING
        deck = list(state.trump_deck)
        pool = [card for s in others for card in hands[s]]
        if not state.deck_public:
            pool.extend(card for card in deck if card != own_seed)
        if seeding:
            pool.extend(card for s in others if (card := seeded[s]) is not None)
        pool = rng.shuffled(pool)
        taken = iter(pool)
        for s in others:
            hands[s] = list(_sorted([next(taken) for _ in hands[s]]))
        if seeding:
            for s in others:
                if seeded[s] is not None:
                    seeded[s] = next(taken)
        if state.deck_public:
            deck = rng.shuffled(deck)
        else:
            old = set(deck)
            mine = own_seed is not None and own_seed in old
            deck = [next(taken) for _ in range(len(deck) - (1 if mine else 0))]
            if mine and own_seed is not None:
                deck.insert(rng.below(len(deck) + 1), own_seed)
            if not seeding and seeded:
                free = [card for card in deck if card != own_seed]
                for s in others:
                    card = seeded[s]
                    if card is not None and card in old:
                        seeded[s] = free.pop(rng.below(len(free)))
        return state.model_copy(
            update={
                "hands": tuple(tuple(hand) for hand in hands),
                "seeded": tuple(seeded),
                "trump_deck": tuple(deck),
            }
        )


# ----------------------------------------------------------------------------- helpers
@lru_cache(maxsize=4096)
def _won_summary(won: tuple[str, ...]) -> tuple[tuple[GuildPileView, ...], tuple[str, ...], int]:
    """Return the guild piles, the neutral pile and the power-card count of some won cards (memoised)."""
    piles = tuple(GuildPileView(guild=p.guild, cards=p.cards, symbols=p.symbols) for p in piles_of(0, won).values())
    neutral = _sorted([c for c in won if _VALUE[c] in _NEUTRAL_VALUES])
    return piles, neutral, sum(1 for c in won if _VALUE[c] == POWER_VALUE)


def _coerce_options(options: BaseModel) -> MastiOptions:
    if isinstance(options, MastiOptions):
        return options
    try:
        return MastiOptions.model_validate(options.model_dump())
    except ValidationError as error:
        raise GameError("masti.invalid_options") from error


def _coerce_action(action: object) -> MastiAction:
    if isinstance(action, PlayCard | PayBribe | SeedTrump | LeaveCard):
        return action
    try:
        parsed: MastiAction = ACTION_ADAPTER.validate_python(action)
    except ValidationError as error:
        raise IllegalActionError("masti.unknown_action") from error
    return parsed


def _expect(phase: Phase, wanted: Phase, action: MastiAction) -> None:
    if phase is not wanted:
        raise IllegalActionError("masti.wrong_phase", phase=phase.value, action=action.kind)


def _stacked_deal(
    num_seats: int, opts: MastiOptions, first: Seat | None
) -> tuple[list[tuple[str, ...]], list[str], Seat]:
    """Check a stacked deal against the mode's sizes; infer the 6-player first seat if not given."""
    size = TABLE[num_seats]
    hands = opts.hands
    deck = opts.trump_deck
    if hands is None or deck is None or len(hands) != num_seats or len(deck) != size.trump_deck:
        raise GameError("masti.invalid_deck")
    every = [card for hand in hands for card in hand] + list(deck)
    if sorted(every) != sorted(ALL_CARDS):
        raise GameError("masti.invalid_deck")
    sizes = [len(hand) for hand in hands]
    if num_seats == 6:
        starts = [f for f in range(6) if all(sizes[(f + i) % 6] == 8 for i in range(3))]
        if first is None and starts:
            first = starts[0]
        if first is None or first not in starts or sorted(sizes) != [8, 8, 8, 9, 9, 9]:
            raise GameError("masti.invalid_deck")
    elif first is None or any(s != size.hand for s in sizes):
        raise GameError("masti.invalid_deck")
    return [_sorted(hand) for hand in hands], list(deck), first
