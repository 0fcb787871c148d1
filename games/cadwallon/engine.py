"""The rules engine of «Гильдии Кадвалона» (Guilds of Cadwallon) for 2-8 players on a 3×3, 4×4 or 5×5 grid.

Rules source: ``shared/rules/cadwallon.md`` — the binding digest of the Russian rulebook seed (every
RULING there is implemented), played with the project's HOUSE cards (:mod:`games.cadwallon.cards`).
Variants: the grid size, and the optional rules of digest §10 (conditions, contracts, starting
action, expansion actions in 3×3, the First Player).

How the engine reads the points the digest leaves to the implementation:

* **Targets one at a time.** An action card is chosen first (:class:`PlayAction`), then each target
  in turn, so every decision lists few options. Nothing is committed before the last target:
  :class:`CancelAction` returns to the card choice and :class:`EndTurn` (also the clock's choice)
  ends the turn with the card still in hand — digest §12's "no half-played card" holds. The card
  being targeted is private: the table only sees that the seat is in its action step.
* **Resigning** removes the seat from play at once: its agents leave the board (an agent it turned
  with A15 stays turned), it takes no more turns, draws nothing, and no action chooses it
  or its agents. If it was the turn seat, its turn ends (a card being targeted stays in hand; Tarot
  cards go back on top as seen). Its cards stay where they are and still count for the other
  seats' contracts and conditions. With fewer than two seats left the game ends and is scored as it
  stands. Resigned seats rank below every seat still playing, the latest to resign highest.
* The First Player card passes to the next seat still playing; A10 played by a resigned seat is void.
* Personalities may only join guilds of the game's content (3×3: the four base guilds).
* "Your agents" (A05, A22) are the figures you own, turned or not; a turned agent stays turned
  (A15) when moved. A22 never swaps two agents on the same boulevard (a no-op).
* Design revision 4 (issue 15; HOUSE cards only): A04's extra agent goes on a free boulevard beside
  one of the two cards that the agent placed this turn (the seat's newest figure) faces.
* Design revision 5 (HOUSE cards only): the agent that A15 turns supports nobody this round (it
  supported A15's player: a swing of two agents).
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import permutations
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from games.cadwallon.board import Board, board
from games.cadwallon.cards import (
    ALL_ACTIONS,
    BASE_ACTIONS,
    CARDS,
    CONDITIONS,
    base_deck,
    contracts_in_play,
    district_cards_in_play,
    expansion_district_cards,
    guilds_in_play,
    seat_allowance,
)
from games.cadwallon.models import (
    ACTION_ADAPTER,
    ActionCardDrawn,
    ActionPlayed,
    AgentMoved,
    AgentPlaced,
    AgentReturned,
    AgentsSwapped,
    AgentTurned,
    AgentView,
    BarricadeBuilt,
    BoulevardView,
    CadwallonAction,
    CadwallonOptions,
    CadwallonView,
    CancelAction,
    CaptureOutcome,
    CaptureView,
    CardCaptured,
    CardDemolished,
    CardMarked,
    CardsRevealed,
    CardsSwapped,
    CardStayed,
    CardStolen,
    Category,
    ChooseAgent,
    ChooseBoulevard,
    ChooseCard,
    ChooseSeat,
    ChooseSlot,
    ContractDealt,
    DeckPeeked,
    DeckReordered,
    DeployEnd,
    DeployEnded,
    DrawSource,
    EndReason,
    EndTurn,
    GameEnded,
    GameScored,
    GameStarted,
    MarkView,
    MilitiaGiven,
    OrderTarot,
    PendingView,
    Phase,
    PlaceAgent,
    PlayAction,
    PlayedActionView,
    PlayerResigned,
    PlayerView,
    ReserveEmpty,
    RoundEnded,
    RoundStarted,
    SlotCard,
    SlotView,
    SupportEntry,
    TargetKind,
    TurnEnded,
    TurnStep,
    WindfallRevealed,
)
from games.cadwallon.scoring import live_total, rank_scores, score_table
from games.cadwallon.state import Agent, CadwallonState, Mark, Pending
from games.core.errors import GameError, GameOverError, IllegalActionError, NotYourTurnError
from games.core.models import Event, Outcome, Seat, Step
from games.core.rng import GameRng
from games.core.schema import StateUpgrade

#: Every error code this engine raises (stable: the bot translates them).
ERROR_CODES: tuple[str, ...] = (
    "core.game_over",
    "core.not_your_turn",
    "cadwallon.invalid_seat_count",
    "cadwallon.seats_for_grid",
    "cadwallon.invalid_options",
    "cadwallon.invalid_first_seat",
    "cadwallon.invalid_deck",
    "cadwallon.invalid_seat",
    "cadwallon.unknown_action",
    "cadwallon.wrong_step",
    "cadwallon.boulevard_taken",
    "cadwallon.no_agents",
    "cadwallon.card_not_in_hand",
    "cadwallon.card_not_playable",
    "cadwallon.actions_closed",
    "cadwallon.bad_target",
    "cadwallon.target_protected",
    "cadwallon.bad_order",
    "cadwallon.already_resigned",
)

#: Agents per player by grid and player count (digest §1.4).
AGENTS_TABLE: dict[int, dict[int, int]] = {
    3: {2: 6, 3: 4, 4: 3},
    4: {2: 12, 3: 8, 4: 6, 5: 5, 6: 4, 7: 4, 8: 3},
    5: {2: 20, 3: 14, 4: 10, 5: 8, 6: 7, 7: 6, 8: 5},
}
MIN_SEATS, MAX_SEATS = 2, 8
ACTIONS_IN_3X3_DECK = 7
ACTION_DECK_SIZE = 12
TAROT_PEEK = 3
STALL_LIMIT = 3
ARBITRATION_BONUS = 2  # A07 Bribe
#: Action cards that mark one grid card (digest §2.7).
MARK_CARDS = frozenset(("A07", "A08", "A09", "A14", "A17", "A24", "A26"))
SLOT_CARDS = MARK_CARDS | {"A19"}
#: Cards that need targets; the others resolve when played.
TARGET_CARDS = SLOT_CARDS | {"A01", "A03", "A04", "A05", "A06", "A11", "A13", "A15", "A18", "A20", "A22", "A23"}

_PASS = EndTurn()
_CANCEL = CancelAction()


def _private(*seats: Seat) -> frozenset[Seat]:
    return frozenset(seats)


def seats_allowed(grid: int) -> tuple[int, int]:
    """Return the (min, max) players of a grid size (digest §4.1)."""
    return (MIN_SEATS, max(AGENTS_TABLE[grid]))


def default_grid(num_seats: int) -> int:
    """Return the grid used when the table chose none: 3×3 for 2-4 players, 4×4 for more."""
    return 3 if num_seats <= max(AGENTS_TABLE[3]) else 4


class _Table:
    """A mutable working copy of a state for one step: the rules in motion.

    Methods mutate the copy and append events; ``commit`` freezes it into the next state once. The
    input state is never touched, so an error half-way leaves nothing changed.
    """

    def __init__(self, state: CadwallonState) -> None:
        self.state = state
        self.n = state.num_seats
        self.board: Board = board(state.grid)
        self.phase = state.phase
        self.round = state.round
        self.first_seat = state.first_seat
        self.turn = state.turn
        self.step = state.step
        self.played_this_turn = state.played_this_turn
        self.slots = list(state.slots)
        self.deck = list(state.deck)
        self.reserve = list(state.reserve)
        self.hands = [list(hand) for hand in state.hands]
        self.supply = list(state.supply)
        self.agents = list(state.agents)
        self.next_agent = state.next_agent
        self.barricade = state.barricade
        self.marks = list(state.marks)
        self.captured = [list(cards) for cards in state.captured]
        self.played = [list(cards) for cards in state.played]
        self.round_plays = list(state.round_plays)
        self.actions_closed = state.actions_closed
        self.favour = state.favour
        self.protected = list(state.protected)
        self.pending = state.pending
        self.tarot = list(state.tarot)
        self.revealed = state.revealed
        self.stalled_rounds = state.stalled_rounds
        self.last_capture = state.last_capture
        self.last_capture_round = state.last_capture_round
        self.resigned = list(state.resigned)
        self.end_reason = state.end_reason
        self.result = state.result
        self.scores = state.scores
        self.ranks = state.ranks
        self.events: list[Event] = []
        self._rng: GameRng | None = None

    # ------------------------------------------------------------------ plumbing
    def commit(self, version: int | None = None) -> Step[CadwallonState]:
        """Freeze the working copy into the next state (version + 1) with the step's events."""
        state = self.state.model_copy(
            update={
                "version": self.state.version + 1 if version is None else version,
                "phase": self.phase,
                "round": self.round,
                "first_seat": self.first_seat,
                "turn": self.turn,
                "step": self.step,
                "played_this_turn": self.played_this_turn,
                "slots": tuple(self.slots),
                "deck": tuple(self.deck),
                "reserve": tuple(self.reserve),
                "hands": tuple(tuple(hand) for hand in self.hands),
                "supply": tuple(self.supply),
                "agents": tuple(self.agents),
                "next_agent": self.next_agent,
                "barricade": self.barricade,
                "marks": tuple(self.marks),
                "captured": tuple(tuple(cards) for cards in self.captured),
                "played": tuple(tuple(cards) for cards in self.played),
                "round_plays": tuple(self.round_plays),
                "actions_closed": self.actions_closed,
                "favour": self.favour,
                "protected": tuple(self.protected),
                "pending": self.pending,
                "tarot": tuple(self.tarot),
                "revealed": self.revealed,
                "stalled_rounds": self.stalled_rounds,
                "last_capture": self.last_capture,
                "last_capture_round": self.last_capture_round,
                "resigned": tuple(self.resigned),
                "end_reason": self.end_reason,
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

    def playing(self) -> list[Seat]:
        """Return the seats still in the game, in seat order."""
        return [s for s in range(self.n) if s not in self.resigned]

    def turn_order(self) -> list[Seat]:
        """Return the seats still playing in turn order from the First Player."""
        order = [(self.first_seat + i) % self.n for i in range(self.n)]
        return [s for s in order if s not in self.resigned]

    # ------------------------------------------------------------------ board queries
    def slot_name(self, slot: int) -> str:
        """Return the name of ``slot``."""
        return self.board.slot_names[slot]

    def blvd_name(self, boulevard: int) -> str:
        """Return the name of ``boulevard``."""
        return self.board.boulevard_names[boulevard]

    def agents_on(self, boulevard: int) -> list[Agent]:
        """Return the agents on ``boulevard``."""
        return [a for a in self.agents if a.boulevard == boulevard]

    def occupied(self) -> set[int]:
        """Return the boulevards holding at least one agent."""
        return {a.boulevard for a in self.agents}

    def free_boulevards(self) -> list[int]:
        """Return the boulevards with no agent and no barricade, in index order."""
        taken = self.occupied()
        return [b for b in range(len(self.board.ends)) if b not in taken and b != self.barricade]

    def agent(self, agent_id: int) -> Agent | None:
        """Return the placed agent ``agent_id`` (``None``: not on the board)."""
        return next((a for a in self.agents if a.id == agent_id), None)

    def slot_of(self, card: str) -> int | None:
        """Return the slot holding ``card`` (``None``: not on the grid)."""
        try:
            return self.slots.index(card)
        except ValueError:
            return None

    def effective_support(self) -> list[int]:
        """Return each slot's S this round (digest §5.4.1): printed, A26, A24, C07, then A08."""
        values: list[int] = []
        marks: dict[str, set[str]] = {}
        for mark in self.marks:
            marks.setdefault(mark.target, set()).add(mark.card)
        condition = self.state.condition
        for card in self.slots:
            if card is None:
                values.append(0)
                continue
            info = CARDS[card]
            value = info.support
            on = marks.get(card, set())
            if "A26" in on and info.category is Category.PERSONALITY:
                value = 2
            if "A24" in on and info.category in (Category.GUILD, Category.CREDITOR):
                value += 1
            if condition == "C07" and info.category is Category.MILITIA:
                value += 1
            if "A08" in on:
                value = 0
            values.append(value)
        return values

    # ------------------------------------------------------------------ rounds
    def start_round(self, first: bool = False) -> None:
        """Reveal (end the game if the deck cannot fill the grid), then open Deploy (digest §5.1)."""
        empty = [i for i, card in enumerate(self.slots) if card is None]
        if len(self.deck) < len(empty):
            self.finish(EndReason.DECK_EXHAUSTED, empty=len(empty))
            return
        if not first:
            self.round += 1
        self.emit(RoundStarted(round=self.round, first_seat=self.first_seat))
        dealt: list[SlotCard] = []
        for slot in empty:
            card = self.deck.pop(0)
            self.slots[slot] = card
            dealt.append(SlotCard(slot=self.slot_name(slot), card=card))
        self.emit(CardsRevealed(round=self.round, cards=tuple(dealt), deck_left=len(self.deck)))
        per = self.state.agents_per_player
        self.supply = [0 if s in self.resigned else per for s in range(self.n)]
        self.agents = []
        self.next_agent = 0
        self.turn = self.turn_order()[0]
        self.step = TurnStep.PLACE
        self.played_this_turn = False

    def place(self, seat: Seat, boulevard: int, card: str | None = None) -> None:
        """Put one agent of ``seat``'s supply on ``boulevard`` (already checked)."""
        agent = Agent(id=self.next_agent, owner=seat, boulevard=boulevard)
        self.next_agent += 1
        self.agents.append(agent)
        self.supply[seat] -= 1
        self.emit(
            AgentPlaced(
                seat=seat, agent=agent.id, boulevard=self.blvd_name(boulevard), card=card, supply_left=self.supply[seat]
            )
        )

    def after_place(self, seat: Seat) -> None:
        """Go to the action step, or end the turn when ``seat`` has no playable card (digest §13)."""
        if self.playable_cards(seat):
            self.step = TurnStep.ACT
            return
        self.end_turn(seat)

    def end_turn(self, seat: Seat) -> None:
        """End ``seat``'s turn: end Deploy when it is over, else pass to the next seat with agents."""
        self.emit(TurnEnded(seat=seat, played=self.played_this_turn))
        self.pending = None
        self.played_this_turn = False
        if not self.free_boulevards():
            self.end_deploy(DeployEnd.NO_FREE_BOULEVARD)
            return
        if sum(self.supply) == 0:
            self.end_deploy(DeployEnd.NO_AGENTS)
            return
        nxt = seat
        for _ in range(self.n):
            nxt = (nxt + 1) % self.n
            if self.supply[nxt] > 0 and nxt not in self.resigned:
                break
        self.turn = nxt
        self.step = TurnStep.PLACE

    def end_deploy(self, reason: DeployEnd) -> None:
        """Close Deploy; on a shortage each seat with agents left draws one action (digest §5.3)."""
        self.emit(DeployEnded(round=self.round, reason=reason, supply_left=tuple(self.supply)))
        self.turn = None
        self.step = None
        if reason is DeployEnd.NO_FREE_BOULEVARD:
            for seat in self.turn_order():
                if self.supply[seat] <= 0:
                    continue
                if not self.reserve:
                    self.emit(ReserveEmpty(seat=seat))
                    continue
                self.draw_reserve(seat, DrawSource.SHORTAGE)
        self.capture()

    def draw_reserve(self, seat: Seat, source: DrawSource) -> None:
        """Move the top card of the action reserve into ``seat``'s hand (private)."""
        card = self.reserve.pop(0)
        self.hands[seat].append(card)
        self.announce_card(seat, card, source)

    def announce_card(self, seat: Seat, card: str, source: DrawSource) -> None:
        """Tell ``seat`` which card it took and the table that it took one (C09: everyone sees it)."""
        if self.state.condition == "C09":
            self.emit(ActionCardDrawn(seat=seat, source=source, card=card))
            return
        self.emit(ActionCardDrawn(seat=seat, source=source, card=card, visible_to=_private(seat)))
        self.emit(ActionCardDrawn(seat=seat, source=source))

    # ------------------------------------------------------------------ capture
    def supports(self) -> list[dict[Seat, int]]:
        """Return each slot's support by seat (digest §5.4.2), only for seats with an agent beside it."""
        values = self.effective_support()
        ends = self.board.ends
        table: list[dict[Seat, int]] = [{} for _ in self.slots]
        for agent in self.agents:
            if agent.turned:
                continue  # revision 5: a Double Agent's support counts for nobody
            a, b = ends[agent.boulevard]
            c = agent.owner
            table[a][c] = table[a].get(c, 0) + values[b]
            table[b][c] = table[b].get(c, 0) + values[a]
        for mark in self.marks:
            slot = self.slot_of(mark.target)
            if slot is None or mark.seat not in table[slot]:
                continue
            if mark.card == "A17":
                table[slot][mark.seat] *= 2
        for mark in self.marks:
            slot = self.slot_of(mark.target)
            if slot is not None and mark.card == "A07" and mark.seat in table[slot]:
                table[slot][mark.seat] += ARBITRATION_BONUS
        return table

    def capture(self) -> None:
        """Judge every grid card on one snapshot, move the won ones, then end the round (digest §5.4-5.5)."""
        table = self.supports()
        order = self.turn_order()
        marks_on: dict[str, list[Mark]] = {}
        for mark in self.marks:
            marks_on.setdefault(mark.target, []).append(mark)
        results: list[CaptureView] = []
        winners: list[tuple[int, Seat]] = []
        for slot, card in enumerate(self.slots):
            if card is None:
                continue
            support = table[slot]
            entries = tuple(
                SupportEntry(seat=s, support=v)
                for s, v in sorted(support.items(), key=lambda item: (-item[1], item[0]))
            )
            on = marks_on.get(card, [])
            top = max(support.values(), default=0)
            tied = tuple(s for s in order if support.get(s) == top) if top > 0 else ()
            winner: Seat | None = None
            if any(m.card == "A09" for m in on):
                outcome = CaptureOutcome.CURFEW
            elif top <= 0:
                outcome = CaptureOutcome.NO_SUPPORT
            elif len(tied) == 1:
                outcome, winner = CaptureOutcome.WON, tied[0]
            else:
                arbiter = next((m.seat for m in on if m.card == "A14" and m.seat in tied), None)
                if arbiter is not None:
                    outcome, winner = CaptureOutcome.ARBITRATION, arbiter
                elif self.state.condition == "C03":
                    outcome, winner = CaptureOutcome.PRECEDENCE, tied[0]
                else:
                    outcome = CaptureOutcome.TIE
            shown_tied = tied if len(tied) > 1 else ()
            results.append(
                CaptureView(
                    slot=self.slot_name(slot),
                    card=card,
                    category=CARDS[card].category,
                    winner=winner,
                    support=top,
                    outcome=outcome,
                    supports=entries,
                    tied=shown_tied,
                )
            )
            if winner is not None:
                winners.append((slot, winner))
        for result in results:
            self.announce_capture(result)
        for slot, winner in winners:
            card = self.slots[slot]
            assert card is not None  # noqa: S101 - only filled slots are judged
            self.slots[slot] = None
            if CARDS[card].category is Category.ACTION:
                self.hands[winner].append(card)
            else:
                self.captured[winner].append(card)
        self.last_capture = tuple(results)
        self.last_capture_round = self.round
        self.end_round(len(winners))

    def announce_capture(self, result: CaptureView) -> None:
        """Emit one card's fate; a won action card is named only to its winner (RULING §11, C09 aside)."""
        card = result.card
        assert card is not None  # noqa: S101 - the state's log always names the card
        if result.winner is None:
            self.emit(
                CardStayed(
                    slot=result.slot, card=card, outcome=result.outcome, supports=result.supports, tied=result.tied
                )
            )
            return
        captured = CardCaptured(
            seat=result.winner,
            slot=result.slot,
            card=card,
            category=result.category,
            support=result.support,
            outcome=result.outcome,
            supports=result.supports,
            tied=result.tied,
        )
        if result.category is Category.ACTION and self.state.condition != "C09":
            self.emit(captured.model_copy(update={"visible_to": _private(result.winner)}))
            self.emit(captured.model_copy(update={"card": None}))
            return
        self.emit(captured)

    def end_round(self, captured: int) -> None:
        """Bring agents home, clear this round's effects, pass the First Player card, go on or stop."""
        self.agents = []
        self.supply = [0] * self.n
        self.barricade = None
        self.marks = []
        self.protected = []
        self.actions_closed = False
        self.round_plays = []
        self.revealed = None
        self.stalled_rounds = 0 if captured else self.stalled_rounds + 1
        by_favour = self.favour is not None and self.favour not in self.resigned
        if by_favour and self.favour is not None:
            nxt = self.favour
        else:
            nxt = self.first_seat
            for _ in range(self.n):
                nxt = (nxt + 1) % self.n
                if nxt not in self.resigned:
                    break
        self.favour = None
        self.first_seat = nxt
        self.emit(
            RoundEnded(
                round=self.round,
                captured=captured,
                next_first_seat=nxt,
                by_favour=by_favour,
                stalled_rounds=self.stalled_rounds,
            )
        )
        if self.stalled_rounds >= STALL_LIMIT:
            self.finish(EndReason.STALLED, empty=sum(1 for c in self.slots if c is None))
            return
        self.start_round()

    # ------------------------------------------------------------------ end
    def finish(self, reason: EndReason, empty: int) -> None:
        """End the game and score it (digest §7-9)."""
        self.end_reason = reason
        self.phase = Phase.FINISHED
        self.turn = None
        self.step = None
        self.pending = None
        if self.tarot:
            self.deck[:0] = self.tarot
            self.tarot = []
        self.emit(GameEnded(reason=reason, deck_size=len(self.deck), empty_slots=empty))
        breakdowns = score_table(
            self.captured,
            self.played,
            self.hands,
            grid=self.state.grid,
            condition=self.state.condition,
            contracts=self.state.contracts,
            seat_points=_seat_points(self.state),
        )
        totals = [b.total for b in breakdowns]
        ranks = rank_scores(totals, [b.crests for b in breakdowns], self.resigned)
        self.result = tuple(
            b.model_copy(update={"rank": ranks[b.seat], "resigned": b.seat in self.resigned}) for b in breakdowns
        )
        self.scores = tuple(totals)
        self.ranks = ranks
        self.emit(GameScored(scores=self.scores, ranks=ranks, breakdowns=self.result))

    def resign(self, seat: Seat) -> None:
        """Take ``seat`` out of play (see the module docstring)."""
        self.resigned.append(seat)
        self.emit(PlayerResigned(seat=seat))
        self.agents = [a for a in self.agents if a.owner != seat]
        self.supply[seat] = 0
        if seat in self.protected:
            self.protected.remove(seat)
        if len(self.playing()) < MIN_SEATS:
            self.finish(EndReason.RESIGNED, empty=sum(1 for c in self.slots if c is None))
            return
        if self.phase is not Phase.DEPLOY or self.turn is None:
            return
        if self.turn == seat:
            if self.tarot:
                self.deck[:0] = self.tarot
                self.tarot = []
            self.end_turn(seat)
            return
        pending = self.pending
        if pending is not None and pending.agent is not None and self.agent(pending.agent) is None:
            self.pending = None

    # ------------------------------------------------------------------ action cards: targets
    def own_agents(self, seat: Seat) -> list[Agent]:
        """Return ``seat``'s placed figures, by boulevard then id."""
        return sorted((a for a in self.agents if a.owner == seat), key=lambda a: (a.boulevard, a.id))

    def reinforcement_boulevards(self, seat: Seat) -> list[int]:
        """Return the free boulevards Reinforcements (A04) may fill for ``seat`` (revision 4).

        The extra agent joins the agent ``seat`` placed last (its own figure with the highest id, the
        one placed this turn): it goes on a free boulevard beside one of the two cards that agent faces.
        """
        if self.supply[seat] <= 0:
            return []
        own = [a for a in self.agents if a.owner == seat]
        if not own:
            return []
        last = max(own, key=lambda a: a.id)
        near = {b for slot in self.board.ends[last.boulevard] for b in self.board.around[slot]}
        return [b for b in self.free_boulevards() if b in near]

    def rival_agents(self, seat: Seat) -> list[Agent]:
        """Return the opponents' placed agents an action of ``seat`` may choose (not protected by A16)."""
        return sorted(
            (a for a in self.agents if a.owner != seat and a.owner not in self.protected),
            key=lambda a: (a.boulevard, a.id),
        )

    def options(self, seat: Seat, pending: Pending) -> list[Any]:
        """Return the legal answers to the next question of ``pending`` (empty: it has no target)."""
        card = pending.card
        names = self.board.slot_names
        bnames = self.board.boulevard_names
        if card in MARK_CARDS or card == "A19":
            if card == "A19" and not self.deck:
                return []
            wanted: tuple[Category, ...] = tuple(Category)
            if card == "A24":
                wanted = (Category.GUILD, Category.CREDITOR)
            elif card == "A26":
                wanted = (Category.PERSONALITY,)
            return [
                _slot_choice(names[s])
                for s, c in enumerate(self.slots)
                if c is not None and CARDS[c].category in wanted
            ]
        if card == "A01":
            types = [CARDS[c].district if c is not None else None for c in self.slots]
            if pending.slot is None:
                return [
                    _slot_choice(names[s])
                    for s, t in enumerate(types)
                    if t is not None and sum(1 for o in types if o == t) >= 2
                ]
            first = types[pending.slot]
            return [_slot_choice(names[s]) for s, t in enumerate(types) if t == first and s != pending.slot]
        if card == "A11":
            if pending.slot is None:
                return [_slot_choice(names[s]) for s, c in enumerate(self.slots) if c is not None]
            return [
                _slot_choice(names[s]) for s in sorted(self.board.neighbours[pending.slot]) if self.slots[s] is not None
            ]
        if card == "A04":
            return [_boulevard_choice(bnames[b]) for b in self.reinforcement_boulevards(seat)]
        if card == "A13":
            return [_boulevard_choice(bnames[b]) for b in self.free_boulevards()]
        if card == "A03":
            if self.supply[seat] <= 0:
                return []
            counts: dict[int, int] = {}
            for a in self.agents:
                counts[a.boulevard] = counts.get(a.boulevard, 0) + 1
            return [_boulevard_choice(bnames[b]) for b in sorted(counts) if counts[b] == 1]
        if card in ("A06", "A15"):
            return [_agent_choice(a.id) for a in self.rival_agents(seat)]
        if card in ("A05", "A18"):
            free = self.free_boulevards()
            if not free:
                return []
            if pending.agent is None:
                pool = self.own_agents(seat) if card == "A05" else self.rival_agents(seat)
                return [_agent_choice(a.id) for a in pool]
            return [_boulevard_choice(bnames[b]) for b in free]
        if card == "A22":
            rivals = self.rival_agents(seat)
            if pending.agent is None:
                return [
                    _agent_choice(a.id)
                    for a in self.own_agents(seat)
                    if any(r.boulevard != a.boulevard for r in rivals)
                ]
            mine = self.agent(pending.agent)
            where = mine.boulevard if mine is not None else -1
            return [_agent_choice(r.id) for r in rivals if r.boulevard != where]
        if card == "A20":
            return [_seat_choice(s) for s in range(self.n) if s != seat and s not in self.resigned and self.hands[s]]
        if card == "A23":
            if pending.militia is None:
                militia = sorted({c for c in self.captured[seat] if CARDS[c].category is Category.MILITIA})
                return [ChooseCard(card=c) for c in militia]
            return [_seat_choice(s) for s in range(self.n) if s != seat and s not in self.resigned]
        return []

    def playable(self, seat: Seat, card: str) -> bool:
        """Return whether ``card`` in ``seat``'s hand can be played now (every target it needs exists)."""
        if card in TARGET_CARDS:
            return bool(self.options(seat, Pending(card=card)))
        if card in ("A02", "A25"):
            return bool(self.deck)
        if card == "A12":
            return bool(self.reserve)
        return True

    def playable_cards(self, seat: Seat) -> list[str]:
        """Return the cards of ``seat``'s hand it may play now, lowest id first."""
        if self.actions_closed:
            return []
        return sorted(c for c in set(self.hands[seat]) if self.playable(seat, c))

    # ------------------------------------------------------------------ action cards: resolution
    def start_card(self, seat: Seat, card: str) -> None:
        """``seat`` chose ``card``: resolve it now, or hold it until its targets are chosen."""
        if card in TARGET_CARDS:
            self.pending = Pending(card=card)
            return
        self.commit_card(seat, card, ActionPlayed(seat=seat, card=card))
        if card == "A02":
            count = min(TAROT_PEEK, len(self.deck))
            self.tarot = self.deck[:count]
            del self.deck[:count]
            self.emit(DeckPeeked(seat=seat, count=count, cards=tuple(self.tarot), visible_to=_private(seat)))
            self.emit(DeckPeeked(seat=seat, count=count))
            self.step = TurnStep.TAROT
            return
        if card == "A10":
            self.favour = seat
        elif card == "A12":
            self.draw_reserve(seat, DrawSource.INFORMANT)
        elif card == "A16":
            if seat not in self.protected:
                self.protected.append(seat)
        elif card == "A21":
            self.actions_closed = True
        elif card == "A25":
            top = self.deck.pop(0)
            to_hand = CARDS[top].category is Category.ACTION
            if to_hand:
                self.hands[seat].append(top)
            else:
                self.deck.append(top)
            self.revealed = top
            self.emit(WindfallRevealed(seat=seat, card=top, to_hand=to_hand))
        self.end_turn(seat)

    def commit_card(self, seat: Seat, card: str, played: ActionPlayed) -> None:
        """Move ``card`` from the hand to the played area and announce it."""
        self.hands[seat].remove(card)
        self.played[seat].append(card)
        self.round_plays.append((seat, card))
        self.played_this_turn = True
        self.pending = None
        self.emit(played)

    def choose(self, seat: Seat, answer: Any) -> None:
        """Record one target of the pending card; resolve the card after its last target."""
        pending = self.pending
        assert pending is not None  # noqa: S101 - checked by the caller
        card = pending.card
        if card in ("A01", "A11") and pending.slot is None:
            self.pending = pending.model_copy(update={"slot": self.board.slot_index[answer.slot]})
            return
        if card in ("A05", "A18", "A22") and pending.agent is None:
            self.pending = pending.model_copy(update={"agent": answer.agent})
            return
        if card == "A23" and pending.militia is None:
            self.pending = pending.model_copy(update={"militia": answer.card})
            return
        self.resolve(seat, pending, answer)
        self.end_turn(seat)

    def resolve(self, seat: Seat, pending: Pending, answer: Any) -> None:
        """Apply the effect of ``pending.card`` with its last target ``answer`` (all checked legal)."""
        card = pending.card
        sname = self.slot_name
        bname = self.blvd_name
        if card in SLOT_CARDS:
            slot = self.board.slot_index[answer.slot]
            target = self.slots[slot]
            assert target is not None  # noqa: S101 - only filled slots are offered
            self.commit_card(seat, card, ActionPlayed(seat=seat, card=card, slots=(sname(slot),)))
            if card == "A19":
                self.marks = [m for m in self.marks if m.target != target]
                self.deck.append(target)
                dealt = self.deck.pop(0)
                self.slots[slot] = dealt
                self.emit(CardDemolished(seat=seat, slot=sname(slot), removed=target, dealt=dealt))
                return
            self.marks.append(Mark(card=card, seat=seat, target=target))
            self.emit(CardMarked(seat=seat, card=card, slot=sname(slot), target=target))
            return
        if card in ("A01", "A11"):
            assert pending.slot is not None  # noqa: S101 - the first slot was chosen
            a, b = pending.slot, self.board.slot_index[answer.slot]
            first, second = self.slots[a], self.slots[b]
            assert first is not None and second is not None  # noqa: S101 - only filled slots are offered
            self.commit_card(seat, card, ActionPlayed(seat=seat, card=card, slots=(sname(a), sname(b))))
            self.slots[a], self.slots[b] = second, first
            self.emit(CardsSwapped(seat=seat, slots=(sname(a), sname(b)), cards=(first, second)))
            return
        if card in ("A03", "A04", "A13"):
            boulevard = self.board.boulevard_index[answer.boulevard]
            self.commit_card(seat, card, ActionPlayed(seat=seat, card=card, boulevard=bname(boulevard)))
            if card == "A13":
                self.barricade = boulevard
                self.emit(BarricadeBuilt(seat=seat, boulevard=bname(boulevard)))
            else:
                self.place(seat, boulevard, card)
            return
        if card in ("A06", "A15"):
            agent = self.agent(answer.agent)
            assert agent is not None  # noqa: S101 - only placed agents are offered
            self.commit_card(seat, card, ActionPlayed(seat=seat, card=card, agents=(agent.id,)))
            where = bname(agent.boulevard)
            if card == "A06":
                self.agents.remove(agent)
                self.supply[agent.owner] += 1
                self.emit(AgentReturned(seat=seat, owner=agent.owner, agent=agent.id, boulevard=where))
            else:
                self.agents[self.agents.index(agent)] = agent.model_copy(update={"turned": True})
                self.emit(AgentTurned(seat=seat, owner=agent.owner, agent=agent.id, boulevard=where))
            return
        if card in ("A05", "A18"):
            assert pending.agent is not None  # noqa: S101 - the agent was chosen
            agent = self.agent(pending.agent)
            assert agent is not None  # noqa: S101 - checked when chosen
            boulevard = self.board.boulevard_index[answer.boulevard]
            self.commit_card(
                seat, card, ActionPlayed(seat=seat, card=card, agents=(agent.id,), boulevard=bname(boulevard))
            )
            self.agents[self.agents.index(agent)] = agent.model_copy(update={"boulevard": boulevard})
            self.emit(
                AgentMoved(
                    seat=seat,
                    owner=agent.owner,
                    agent=agent.id,
                    origin=bname(agent.boulevard),
                    destination=bname(boulevard),
                )
            )
            return
        if card == "A22":
            assert pending.agent is not None  # noqa: S101 - the own agent was chosen
            mine, theirs = self.agent(pending.agent), self.agent(answer.agent)
            assert mine is not None and theirs is not None  # noqa: S101 - checked when chosen
            self.commit_card(seat, card, ActionPlayed(seat=seat, card=card, agents=(mine.id, theirs.id)))
            self.agents[self.agents.index(mine)] = mine.model_copy(update={"boulevard": theirs.boulevard})
            self.agents[self.agents.index(theirs)] = theirs.model_copy(update={"boulevard": mine.boulevard})
            self.emit(
                AgentsSwapped(
                    seat=seat,
                    owner=theirs.owner,
                    agents=(mine.id, theirs.id),
                    boulevards=(bname(mine.boulevard), bname(theirs.boulevard)),
                )
            )
            return
        if card == "A20":
            victim = answer.seat
            self.commit_card(seat, card, ActionPlayed(seat=seat, card=card, target_seat=victim))
            hand = self.hands[victim]
            taken = hand.pop(self.rng().below(len(hand)))
            self.hands[seat].append(taken)
            if self.state.condition == "C09":
                self.emit(CardStolen(seat=seat, victim=victim, card=taken))
            else:
                self.emit(CardStolen(seat=seat, victim=victim, card=taken, visible_to=_private(seat, victim)))
                self.emit(CardStolen(seat=seat, victim=victim))
            return
        # A23: give the chosen militia to the chosen seat.
        militia = pending.militia
        assert militia is not None  # noqa: S101 - the militia was chosen
        recipient = answer.seat
        self.commit_card(seat, card, ActionPlayed(seat=seat, card=card, target_seat=recipient, target_card=militia))
        self.captured[seat].remove(militia)
        self.captured[recipient].append(militia)
        self.emit(MilitiaGiven(seat=seat, recipient=recipient, card=militia))

    def order_tarot(self, seat: Seat, top: tuple[str, ...], bottom: str | None, automatic: bool = False) -> None:
        """Put the peeked cards back: ``top`` on the deck (index 0 on top), ``bottom`` under it."""
        self.deck[:0] = list(top)
        if bottom is not None:
            self.deck.append(bottom)
        self.tarot = []
        self.emit(
            DeckReordered(
                seat=seat,
                to_bottom=bottom is not None,
                top=top,
                bottom=bottom,
                automatic=automatic,
                visible_to=_private(seat),
            )
        )
        self.emit(DeckReordered(seat=seat, to_bottom=bottom is not None, automatic=automatic))
        self.step = TurnStep.ACT
        self.end_turn(seat)


def tarot_orders(cards: tuple[str, ...]) -> list[OrderTarot]:
    """Return every way to put the peeked ``cards`` back: all on top, or one at the bottom (≤ 12).

    >>> [(o.top, o.bottom) for o in tarot_orders(("A01", "M02"))]
    [(('A01', 'M02'), None), (('M02', 'A01'), None), (('M02',), 'A01'), (('A01',), 'M02')]
    """
    orders = [OrderTarot(top=p, bottom=None) for p in permutations(cards)]
    for i, low in enumerate(cards):
        rest = cards[:i] + cards[i + 1 :]
        orders.extend(OrderTarot(top=p, bottom=low) for p in permutations(rest))
    return orders


def _drop_agent_controllers(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 0 → 1: agents lose ``controller``, which revision 5 made always the owner.

    A state saved before revision 5 could still hold an agent Double Agent gave to another seat
    (controller ≠ owner): it comes back turned, supporting nobody, as the card does now.
    """
    agents = []
    for agent in data.get("agents", []):
        kept = {key: value for key, value in agent.items() if key != "controller"}
        if agent.get("controller", agent["owner"]) != agent["owner"]:
            kept["turned"] = True
        agents.append(kept)
    return {**data, "agents": agents}


class CadwallonEngine:
    """The rules of «Гильдии Кадвалона» as pure functions of :class:`CadwallonState`."""

    name: ClassVar[str] = "cadwallon"
    min_seats: ClassVar[int] = MIN_SEATS
    max_seats: ClassVar[int] = MAX_SEATS
    #: Seats keep the lobby order: the First Player is drawn (or chosen) instead (RULING §4.5).
    shuffle_seats: ClassVar[bool] = False
    state_type: type[CadwallonState] = CadwallonState
    options_type: type[BaseModel] = CadwallonOptions
    #: Stored states: schema 1 dropped the agents' ``controller`` (see :func:`_drop_agent_controllers`).
    state_schema: ClassVar[int] = 1
    state_upgrades: ClassVar[dict[int, StateUpgrade]] = {0: _drop_agent_controllers}
    action_adapter: TypeAdapter[Any] = ACTION_ADAPTER

    # ------------------------------------------------------------------ setup
    def seat_range(self, options: BaseModel) -> tuple[int, int]:
        """Return the fewest and most players ``options`` allow (a chosen 3×3 grid seats at most 4)."""
        opts = _coerce_options(options)
        return (MIN_SEATS, MAX_SEATS) if opts.grid is None else seats_allowed(opts.grid)

    def setup(self, num_seats: int, options: BaseModel, seed: str) -> Step[CadwallonState]:
        """Deal a new game.

        Args:
            num_seats: Players at the table, 2 to 8 (3×3: 2 to 4).
            options: A :class:`CadwallonOptions` (or a model that validates as one).
            seed: The table seed; every random draw of the game derives from it.

        Returns:
            The initial state (round 1 revealed, the First Player to place) and the deal's events.

        Raises:
            GameError: The seat count does not fit the grid, or the options or stacked cards are invalid.
        """
        opts = _coerce_options(options)
        if not MIN_SEATS <= num_seats <= MAX_SEATS:
            raise GameError("cadwallon.invalid_seat_count", min=MIN_SEATS, max=MAX_SEATS, have=num_seats)
        grid = opts.grid if opts.grid is not None else default_grid(num_seats)
        low, high = seats_allowed(grid)
        if not low <= num_seats <= high:
            raise GameError("cadwallon.seats_for_grid", grid=grid, min=low, max=high, have=num_seats)
        if opts.condition is not None and not opts.conditions:
            raise GameError("cadwallon.invalid_options", option="condition")
        if opts.first_seat is not None and not 0 <= opts.first_seat < num_seats:
            raise GameError("cadwallon.invalid_first_seat", seat=opts.first_seat)
        stacked = opts.deck is not None
        if not stacked and (opts.reserve is not None or opts.starting_hands is not None):
            raise GameError("cadwallon.invalid_deck")
        rng = GameRng.for_step(seed, 0, "setup")
        condition: str | None = None
        if opts.conditions:
            condition = opts.condition or (CONDITIONS[0] if stacked else rng.choice(CONDITIONS))
        first = opts.first_seat if opts.first_seat is not None else 0 if stacked else rng.below(num_seats)
        deck, reserve = _stacked_piles(grid, opts) if stacked else _shuffled_piles(grid, opts, rng)
        contracts = _deal_contracts(num_seats, grid, opts, stacked, rng)
        hands: list[tuple[str, ...]] = [() for _ in range(num_seats)]
        if opts.starting_hands is not None:
            if not opts.starting_action or len(opts.starting_hands) != num_seats:
                raise GameError("cadwallon.invalid_deck")
            hands = [tuple(h) for h in opts.starting_hands]
            _check_cards(
                grid, opts, [*deck, *reserve, *(c for h in hands for c in h)], actions=[c for h in hands for c in h]
            )
        elif opts.starting_action:
            for seat in range(num_seats):
                if reserve:
                    hands[seat] = (reserve.pop(0),)
        per = AGENTS_TABLE[grid][num_seats] + (1 if condition == "C08" else 0)
        events: list[Event] = [
            GameStarted(
                grid=grid,
                agents_per_player=per,
                first_seat=first,
                deck_size=len(deck),
                reserve_size=len(reserve),
                condition=condition,
                contracts=opts.contracts,
                starting_action=opts.starting_action,
            )
        ]
        for seat, contract in enumerate(contracts):
            if contract is not None:
                events.append(ContractDealt(seat=seat, contract=contract, visible_to=_private(seat)))
        for seat, hand in enumerate(hands):
            for card in hand:
                if condition == "C09":
                    events.append(ActionCardDrawn(seat=seat, source=DrawSource.START, card=card))
                else:
                    events.append(
                        ActionCardDrawn(seat=seat, source=DrawSource.START, card=card, visible_to=_private(seat))
                    )
                    events.append(ActionCardDrawn(seat=seat, source=DrawSource.START))
        state = CadwallonState(
            seed=seed,
            num_seats=num_seats,
            grid=grid,
            expansion=grid != 3,
            conditions=opts.conditions,
            condition=condition,
            contracts_on=opts.contracts,
            starting_action=opts.starting_action,
            stacked=stacked,
            phase=Phase.DEPLOY,
            round=1,
            first_seat=first,
            opening_seat=first,
            slots=(None,) * (grid * grid),
            deck=tuple(deck),
            reserve=tuple(reserve),
            hands=tuple(hands),
            contracts=tuple(contracts),
            agents_per_player=per,
            supply=(0,) * num_seats,
            captured=((),) * num_seats,
            played=((),) * num_seats,
        )
        table = _Table(state)
        table.start_round(first=True)
        events.extend(table.events)
        return Step(table.commit(version=0).state, tuple(events))

    # ------------------------------------------------------------------ queries
    def active_seats(self, state: CadwallonState) -> frozenset[Seat]:
        """Return the seats the game waits for (the turn seat); empty once the game is over."""
        if state.phase is Phase.FINISHED or state.turn is None:
            return frozenset()
        return frozenset((state.turn,))

    def legal_actions(self, state: CadwallonState, seat: Seat) -> list[Any]:
        """Return every action ``seat`` may take now (empty when it is not awaited).

        Place: one :class:`PlaceAgent` per free boulevard. Action step: :class:`EndTurn` and one
        :class:`PlayAction` per playable card; while a card is pending its target answers,
        :class:`CancelAction` and :class:`EndTurn`. Tarot: every :class:`OrderTarot`.
        """
        if state.phase is Phase.FINISHED or seat != state.turn:
            return []
        table = _Table(state)
        if state.step is TurnStep.PLACE:
            return [_place(state.grid, b) for b in table.free_boulevards()]
        if state.step is TurnStep.TAROT:
            return list(tarot_orders(state.tarot))
        if state.pending is not None:
            return [*table.options(seat, state.pending), _CANCEL, _PASS]
        return [_PASS, *(PlayAction(card=c) for c in table.playable_cards(seat))]

    # ------------------------------------------------------------------ actions
    def apply(self, state: CadwallonState, seat: Seat, action: object) -> Step[CadwallonState]:
        """Apply ``action`` by ``seat``.

        Args:
            state: The table before the action.
            seat: The acting seat.
            action: A :data:`CadwallonAction` (or its JSON-like dict).

        Returns:
            The next state (version + 1) and the events of the step, including every automatic
            phase that follows (Capture, the next Reveal, the end and the scoring).

        Raises:
            GameOverError: The game is over.
            NotYourTurnError: ``seat`` is not awaited.
            GameError: The action breaks a rule (see :data:`ERROR_CODES`); the state is unchanged.
        """
        if state.phase is Phase.FINISHED:
            raise GameOverError
        act = _coerce_action(action)
        if seat != state.turn:
            raise NotYourTurnError(seat=seat)
        table = _Table(state)
        step = state.step
        if isinstance(act, PlaceAgent):
            if step is not TurnStep.PLACE:
                raise _wrong_step(act)
            boulevard = _boulevard(state.grid, act.boulevard)
            if state.supply[seat] <= 0:
                raise IllegalActionError("cadwallon.no_agents")
            if boulevard not in table.free_boulevards():
                raise IllegalActionError("cadwallon.boulevard_taken", boulevard=act.boulevard)
            table.place(seat, boulevard)
            table.after_place(seat)
        elif isinstance(act, OrderTarot):
            if step is not TurnStep.TAROT:
                raise _wrong_step(act)
            seen = sorted(state.tarot)
            given = sorted([*act.top, *([act.bottom] if act.bottom is not None else [])])
            if seen != given:
                raise IllegalActionError("cadwallon.bad_order")
            table.order_tarot(seat, tuple(act.top), act.bottom)
        elif step is not TurnStep.ACT:
            raise _wrong_step(act)
        elif isinstance(act, EndTurn):
            table.end_turn(seat)
        elif isinstance(act, CancelAction):
            if state.pending is None:
                raise _wrong_step(act)
            table.pending = None
        elif isinstance(act, PlayAction):
            if state.pending is not None:
                raise _wrong_step(act)
            if state.actions_closed:
                raise IllegalActionError("cadwallon.actions_closed")
            if act.card not in state.hands[seat]:
                raise IllegalActionError("cadwallon.card_not_in_hand", card=act.card)
            if not table.playable(seat, act.card):
                raise IllegalActionError("cadwallon.card_not_playable", card=act.card)
            table.start_card(seat, act.card)
        else:
            pending = state.pending
            if pending is None:
                raise _wrong_step(act)
            if act not in table.options(seat, pending):
                if isinstance(act, ChooseAgent):
                    target = table.agent(act.agent)
                    if target is not None and target.owner != seat and target.owner in state.protected:
                        raise IllegalActionError("cadwallon.target_protected", agent=act.agent)
                raise IllegalActionError("cadwallon.bad_target", card=pending.card)
            table.choose(seat, act)
        return table.commit()

    def resign(self, state: CadwallonState, seat: Seat) -> Step[CadwallonState]:
        """Take ``seat`` out of play at any moment (see the module docstring).

        Raises:
            GameOverError: The game is over.
            GameError: The seat is not at the table or has already resigned.
        """
        if state.phase is Phase.FINISHED:
            raise GameOverError
        if not 0 <= seat < state.num_seats:
            raise IllegalActionError("cadwallon.invalid_seat", seat=seat)
        if seat in state.resigned:
            raise IllegalActionError("cadwallon.already_resigned", seat=seat)
        table = _Table(state)
        table.resign(seat)
        return table.commit()

    def default_action(self, state: CadwallonState, seat: Seat) -> CadwallonAction:
        """Return the clock's action (digest §12).

        Place: the free boulevard with the largest ``S(X) + S(Y)``, lowest index on ties. Action
        step (choosing targets or not): end the turn, the card stays in hand. Tarot: keep the order.

        Raises:
            NotYourTurnError: ``seat`` is not awaited.
        """
        if state.phase is Phase.FINISHED or seat != state.turn:
            raise NotYourTurnError(seat=seat)
        if state.step is TurnStep.PLACE:
            table = _Table(state)
            values = table.effective_support()
            ends = table.board.ends
            best = max(table.free_boulevards(), key=lambda b: (values[ends[b][0]] + values[ends[b][1]], -b))
            return _place(state.grid, best)
        if state.step is TurnStep.TAROT:
            return OrderTarot(top=state.tarot, bottom=None)
        return _PASS

    def outcome(self, state: CadwallonState) -> Outcome | None:
        """Return the result once the game is over: ranks by total then distinct crests (§9)."""
        if state.phase is not Phase.FINISHED or state.ranks is None or state.scores is None:
            return None
        return Outcome(ranks=state.ranks, scores=tuple(float(s) for s in state.scores))

    # ------------------------------------------------------------------ views
    def view(self, state: CadwallonState, seat: Seat | None) -> CadwallonView:
        """Return what ``seat`` may see (``None``: the public view; digest §11).

        Raises:
            GameError: ``seat`` is not at the table.
        """
        n = state.num_seats
        if seat is not None and not 0 <= seat < n:
            raise IllegalActionError("cadwallon.invalid_seat", seat=seat)
        table = _Table(state)
        geo = table.board
        values = table.effective_support()
        names = geo.slot_names
        bnames = geo.boulevard_names
        marks_by_card: dict[str, list[MarkView]] = {}
        for mark in state.marks:
            slot = table.slot_of(mark.target)
            if slot is not None:
                marks_by_card.setdefault(mark.target, []).append(
                    MarkView(card=mark.card, seat=mark.seat, slot=names[slot], target=mark.target)
                )
        slots = tuple(
            _slot_view(state.grid, i, card, values[i], tuple(marks_by_card.get(card, ())) if card is not None else ())
            for i, card in enumerate(state.slots)
        )
        on: dict[int, list[int]] = {}
        for agent in state.agents:
            on.setdefault(agent.boulevard, []).append(agent.id)
        free = table.free_boulevards()
        free_set = set(free)
        boulevards = tuple(
            _boulevard_view(
                state.grid, b, tuple(on.get(b, ())), state.barricade == b, b in free_set, (values[y], values[x])
            )
            for b, (x, y) in enumerate(geo.ends)
        )
        agents = tuple(_agent_view(state.grid, a) for a in sorted(state.agents, key=lambda a: (a.boulevard, a.id)))
        finished = state.phase is Phase.FINISHED
        open_hands = state.condition == "C09"
        players = []
        allowance = _seat_points(state)
        for s in range(n):
            total, crests = live_total(
                s,
                state.captured,
                state.played[s],
                len(state.hands[s]),
                grid=state.grid,
                condition=state.condition,
                seat_points=allowance[s],
            )
            players.append(
                PlayerView(
                    seat=s,
                    supply=state.supply[s],
                    agents_placed=sum(1 for a in state.agents if a.owner == s),
                    agents_per_round=state.agents_per_player,
                    hand_size=len(state.hands[s]),
                    hand=tuple(sorted(state.hands[s])) if s == seat or open_hands else None,
                    captured=tuple(sorted(state.captured[s])),
                    played=state.played[s],
                    contract=state.contracts[s] if s == seat or finished else None,
                    protected=s in state.protected,
                    live_score=total,
                    crests=crests,
                    resigned=s in state.resigned,
                )
            )
        mine = seat is not None and seat == state.turn
        pending: PendingView | None = None
        if mine and state.pending is not None:
            pending = _pending_view(table, state.pending)
        last = tuple(
            c
            if c.category is not Category.ACTION or c.winner is None or c.winner == seat or open_hands
            else c.model_copy(update={"card": None})
            for c in state.last_capture
        )
        return CadwallonView(
            viewer=seat,
            num_seats=n,
            version=state.version,
            grid=state.grid,
            expansion=state.expansion,
            phase=state.phase,
            round=state.round,
            first_seat=state.first_seat,
            turn=state.turn,
            step=state.step,
            awaiting=tuple(sorted(self.active_seats(state))),
            slots=slots,
            boulevards=boulevards,
            agents=agents,
            barricade=bnames[state.barricade] if state.barricade is not None else None,
            free_boulevards=tuple(bnames[b] for b in free),
            players=tuple(players),
            deck_size=len(state.deck),
            reserve_size=len(state.reserve),
            condition=state.condition,
            conditions=state.conditions,
            contracts=state.contracts_on,
            starting_action=state.starting_action,
            round_plays=tuple(PlayedActionView(seat=s, card=c) for s, c in state.round_plays),
            actions_closed=state.actions_closed,
            favour_seat=state.favour,
            revealed=state.revealed,
            stalled_rounds=state.stalled_rounds,
            last_capture=last,
            last_capture_round=state.last_capture_round,
            pending=pending,
            peek=state.tarot if mine and state.step is TurnStep.TAROT else None,
            end_reason=state.end_reason,
            result=state.result,
        )

    # ------------------------------------------------------------------ leak-check hook
    def resample_hidden(self, state: CadwallonState, seat: Seat | None, rng: GameRng) -> CadwallonState:
        """Return a state ``seat`` cannot tell from ``state``, everything hidden from it redrawn.

        Hidden from ``seat`` (digest §11): the deck (contents and order), the action reserve, the
        other hands (sizes kept; public under C09), the other contracts (public once the game is over),
        another seat's Tarot peek
        and the card another seat is targeting (its pending choice is dropped).
        """
        n = state.num_seats
        open_hands = state.condition == "C09"
        tarot_hidden = state.step is TurnStep.TAROT and state.turn != seat and bool(state.tarot)
        hidden_hands = [s for s in range(n) if s != seat and not open_hands]
        deck = list(state.deck)
        tarot = list(state.tarot)
        actions = [c for c in deck if CARDS[c].category is Category.ACTION]
        others = [c for c in deck if CARDS[c].category is not Category.ACTION]
        if tarot_hidden:
            actions += [c for c in tarot if CARDS[c].category is Category.ACTION]
            others += [c for c in tarot if CARDS[c].category is not Category.ACTION]
        actions += list(state.reserve)
        for s in hidden_hands:
            actions += list(state.hands[s])
        actions = rng.shuffled(actions)
        hands = [list(hand) for hand in state.hands]
        for s in hidden_hands:
            hands[s] = [actions.pop() for _ in state.hands[s]]
        reserve = [actions.pop() for _ in state.reserve]
        rest = rng.shuffled([*actions, *others])
        if tarot_hidden:
            tarot, rest = rest[: len(tarot)], rest[len(tarot) :]
        contracts = list(state.contracts)
        if state.contracts_on and state.phase is not Phase.FINISHED:
            own = contracts[seat] if seat is not None else None
            pool = rng.shuffled([c for c in contracts_in_play(state.grid) if c != own])
            for s in range(n):
                if s != seat:
                    contracts[s] = pool.pop()
        pending = state.pending if state.turn == seat else None
        return state.model_copy(
            update={
                "deck": tuple(rest),
                "tarot": tuple(tarot),
                "reserve": tuple(reserve),
                "hands": tuple(tuple(hand) for hand in hands),
                "contracts": tuple(contracts),
                "pending": pending,
            }
        )


# ----------------------------------------------------------------------------- helpers
@lru_cache(maxsize=16384)
def _slot_view(grid: int, index: int, card: str | None, support: int, marks: tuple[MarkView, ...]) -> SlotView:
    """Return one slot's view (memoised: views are rebuilt often and slots rarely change)."""
    return SlotView(
        slot=board(grid).slot_names[index],
        index=index,
        row=index // grid,
        column=index % grid,
        card=CARDS[card] if card is not None else None,
        effective_support=support,
        marks=marks,
    )


@lru_cache(maxsize=16384)
def _boulevard_view(
    grid: int, index: int, agents: tuple[int, ...], barricade: bool, free: bool, support: tuple[int, int]
) -> BoulevardView:
    """Return one boulevard's view (memoised)."""
    geo = board(grid)
    x, y = geo.ends[index]
    return BoulevardView(
        boulevard=geo.boulevard_names[index],
        index=index,
        orientation="E" if geo.orientation(index) == "E" else "S",
        slots=(geo.slot_names[x], geo.slot_names[y]),
        agents=agents,
        barricade=barricade,
        free=free,
        support=support,
    )


@lru_cache(maxsize=16384)
def _agent_view(grid: int, agent: Agent) -> AgentView:
    """Return one placed agent's view (memoised)."""
    return AgentView(
        id=agent.id,
        owner=agent.owner,
        boulevard=board(grid).boulevard_names[agent.boulevard],
        boulevard_index=agent.boulevard,
        turned=agent.turned,
    )


@cache
def _slot_choice(name: str) -> ChooseSlot:
    return ChooseSlot(slot=name)


@cache
def _boulevard_choice(name: str) -> ChooseBoulevard:
    return ChooseBoulevard(boulevard=name)


@cache
def _agent_choice(agent: int) -> ChooseAgent:
    return ChooseAgent(agent=agent)


@cache
def _seat_choice(seat: Seat) -> ChooseSeat:
    return ChooseSeat(seat=seat)


_PLACES: dict[tuple[int, int], PlaceAgent] = {}


def _place(grid: int, boulevard: int) -> PlaceAgent:
    key = (grid, boulevard)
    action = _PLACES.get(key)
    if action is None:
        action = _PLACES[key] = PlaceAgent(boulevard=board(grid).boulevard_names[boulevard])
    return action


def _boulevard(grid: int, name: str) -> int:
    index = board(grid).boulevard_index.get(name)
    if index is None:
        raise IllegalActionError("cadwallon.bad_target", boulevard=name)
    return index


def _pending_view(table: _Table, pending: Pending) -> PendingView:
    card = pending.card
    names = table.board.slot_names
    needs, choice = TargetKind.SLOT, 1
    if card in ("A01", "A11"):
        choice = 1 if pending.slot is None else 2
    elif card in ("A03", "A04", "A13"):
        needs = TargetKind.BOULEVARD
    elif card in ("A06", "A15"):
        needs = TargetKind.AGENT
    elif card in ("A05", "A18"):
        needs, choice = (TargetKind.AGENT, 1) if pending.agent is None else (TargetKind.BOULEVARD, 2)
    elif card == "A22":
        needs, choice = TargetKind.AGENT, 1 if pending.agent is None else 2
    elif card == "A20":
        needs = TargetKind.SEAT
    elif card == "A23":
        needs, choice = (TargetKind.CARD, 1) if pending.militia is None else (TargetKind.SEAT, 2)
    return PendingView(
        card=card,
        needs=needs,
        choice=choice,
        slot=names[pending.slot] if pending.slot is not None else None,
        agent=pending.agent,
        card_chosen=pending.militia,
    )


def _wrong_step(action: CadwallonAction) -> GameError:
    return IllegalActionError("cadwallon.wrong_step", action=action.kind)


def _coerce_options(options: BaseModel) -> CadwallonOptions:
    if isinstance(options, CadwallonOptions):
        return options
    try:
        return CadwallonOptions.model_validate(options.model_dump())
    except ValidationError as error:
        raise GameError("cadwallon.invalid_options") from error


_ACTION_TYPES = (
    PlaceAgent,
    PlayAction,
    ChooseSlot,
    ChooseBoulevard,
    ChooseAgent,
    ChooseSeat,
    ChooseCard,
    CancelAction,
    EndTurn,
    OrderTarot,
)


def _coerce_action(action: object) -> CadwallonAction:
    if isinstance(action, _ACTION_TYPES):
        return action
    try:
        parsed: CadwallonAction = ACTION_ADAPTER.validate_python(action)
    except ValidationError as error:
        raise IllegalActionError("cadwallon.unknown_action") from error
    return parsed


def _shuffled_piles(grid: int, opts: CadwallonOptions, rng: GameRng) -> tuple[list[str], list[str]]:
    """Build and shuffle the district deck and the action reserve (digest §1.3)."""
    if grid == 3:
        pool = rng.shuffled(ALL_ACTIONS if opts.expansion_actions_3x3 else BASE_ACTIONS)
        deck = rng.shuffled([*base_deck(), *pool[:ACTIONS_IN_3X3_DECK]])
        return deck, pool[ACTIONS_IN_3X3_DECK:]
    pool = rng.shuffled(ALL_ACTIONS)
    deck = rng.shuffled([*expansion_district_cards(), *pool[ACTION_DECK_SIZE:]])
    return deck, pool[:ACTION_DECK_SIZE]


def _stacked_piles(grid: int, opts: CadwallonOptions) -> tuple[list[str], list[str]]:
    """Take the stacked deck and reserve as given, after checking the cards."""
    deck = list(opts.deck or ())
    reserve = list(opts.reserve or ())
    _check_cards(grid, opts, [*deck, *reserve], actions=reserve)
    return deck, reserve


def _check_cards(grid: int, opts: CadwallonOptions, cards: list[str], actions: list[str]) -> None:
    allowed = set(district_cards_in_play(grid, opts.expansion_actions_3x3))
    if len(set(cards)) != len(cards) or not set(cards) <= allowed:
        raise GameError("cadwallon.invalid_deck")
    if any(CARDS[c].category is not Category.ACTION for c in actions):
        raise GameError("cadwallon.invalid_deck")


def _seat_points(state: CadwallonState) -> tuple[int, ...]:
    """Return each seat's allowance for its place in round 1's turn order (revision 2; none before it)."""
    n = state.num_seats
    if state.opening_seat is None:
        return (0,) * n
    return tuple(seat_allowance(state.grid, n, (s - state.opening_seat) % n) for s in range(n))


def _deal_contracts(num_seats: int, grid: int, opts: CadwallonOptions, stacked: bool, rng: GameRng) -> list[str | None]:
    """Deal one contract per seat from the mode's contracts (RULING §2.9), or none when off."""
    if not opts.contracts:
        if opts.contract_cards is not None:
            raise GameError("cadwallon.invalid_options", option="contract_cards")
        return [None] * num_seats
    pool = contracts_in_play(grid)
    if opts.contract_cards is not None:
        given = list(opts.contract_cards)
        if len(given) != num_seats or len(set(given)) != len(given) or not set(given) <= set(pool):
            raise GameError("cadwallon.invalid_deck")
        return list(given)
    order = list(pool) if stacked else rng.shuffled(pool)
    return list(order[:num_seats])


__all__ = ["ERROR_CODES", "CadwallonEngine", "guilds_in_play", "tarot_orders"]
