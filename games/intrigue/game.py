"""The working copy of an «Интриги» table: board queries, rule mutations and the frame-rules registry.

:class:`Game` unpacks an :class:`~games.intrigue.state.IntrigueState` into mutable lists for one
``apply``; ``commit`` freezes it again. Every rule module registers a :class:`Rules` object per frame
kind (see ``state.py`` for the frame model); the driver in ``engine.py`` runs the innermost frame.
Queries restate the glossary of spec §0: control, tied-top players, land holder, land majority,
combined majority, rotating seat priority.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel

from games.core.errors import IllegalActionError
from games.core.models import Event, Seat
from games.core.rng import GameRng
from games.intrigue.data import (
    COUNCIL_SEATS,
    LANDS,
    TRAITS,
    CouncilSeat,
    Trait,
)
from games.intrigue.models import (
    CardDiscarded,
    CharStatus,
    CoinsGained,
    CoinsPaid,
    Decision,
    DraftView,
    MercType,
    PendingView,
    Phase,
    Reason,
    ResultView,
    TokensPlaced,
    TokensRemoved,
)
from games.intrigue.state import SUPPLY_ORDER, FaceDown, Frame, HandCard, IntrigueState

MARSHAL, BISHOP, TREASURER, PRIVY = range(4)
#: Every card id, new (``M100``…, :func:`card_id`) or of a table begun under the old numbering (``M01``…).
CARD_ID = re.compile(r"M\d+")


def card_id(seed: str, number: int) -> str:
    """Return the ``number``-th card id (from 1) of the table seeded ``seed``.

    The 3-digit ids ``M100``…``M999`` in a seeded order, then the 4-digit ones, and so on: distinct,
    and unpredictable without the seed.
    """
    index, digits = number - 1, 3
    while index >= 9 * 10 ** (digits - 1):
        index -= 9 * 10 ** (digits - 1)
        digits += 1
    return f"M{_id_order(seed, digits)[index]}"


@lru_cache(maxsize=64)
def _id_order(seed: str, digits: int) -> tuple[int, ...]:
    low = 10 ** (digits - 1)
    return tuple(GameRng.for_step(seed, 0, f"card_ids:{digits}").shuffled(range(low, 10 * low)))


_PHASE_ORDER = {p: i for i, p in enumerate(Phase)}


@lru_cache(maxsize=64)
def _positions(lands: tuple[int, ...]) -> dict[int, int]:
    """Return each land's position in ``lands`` (a table's lands never change)."""
    return {land: i for i, land in enumerate(lands)}


def private(seat: Seat) -> frozenset[Seat]:
    """Return the audience of a private event of ``seat``."""
    return frozenset((seat,))


def _thaw(value: Any) -> Any:
    """Return ``value`` with every list and dict in it copied (everything else is immutable)."""
    kind = type(value)
    if kind is list:
        return [_thaw(x) if type(x) in _MUTABLE else x for x in value]
    if kind is dict:
        return {k: _thaw(x) if type(x) in _MUTABLE else x for k, x in value.items()}
    return value


_MUTABLE = (list, dict)


_set = object.__setattr__
_M = TypeVar("_M", bound=BaseModel)


def _built(cls: type[_M], fields: dict[str, Any], fields_set: set[str]) -> _M:
    """Return a ``cls`` holding ``fields`` as they are: pydantic's copy without its generic steps.

    Only for our frames and states, which forbid extra fields and have no private attributes, and
    only with values already valid (nothing is validated).
    """
    out = object.__new__(cls)
    _set(out, "__dict__", fields)
    _set(out, "__pydantic_fields_set__", fields_set)
    _set(out, "__pydantic_extra__", None)
    _set(out, "__pydantic_private__", None)
    return out


def _fresh(frame: Any) -> Any:
    """Return a copy of ``frame`` that shares nothing mutable with it (what pydantic's ``__copy__`` does)."""
    fields = frame.__dict__.copy()
    for name, value in fields.items():
        if type(value) in _MUTABLE:
            fields[name] = _thaw(value)
    return _built(type(frame), fields, set(frame.__pydantic_fields_set__))


class Game:
    """A mutable working copy of a state (read-only when built with ``copy=False``)."""

    def __init__(self, state: IntrigueState, *, copy: bool = True) -> None:
        s = state
        self.state = s
        self.n = s.num_seats
        self.lands: tuple[int, ...] = s.lands
        self.pos: dict[int, int] = _positions(s.lands)  # shared by every copy: never changed
        self.max_turns = s.max_turns
        self.turn = s.turn
        self.phase = s.phase
        self.coins = list(s.coins)
        self.peaceful = list(s.peaceful)
        self.military = list(s.military)
        self.land_tokens = list(map(list, s.land_tokens))
        self.char_tokens = list(map(list, s.char_tokens))
        self.heads = list(s.heads)
        self.council = list(s.council)
        self.representative = s.representative
        self.dead = list(s.dead)
        self.dismissed = list(s.dismissed)
        self.acted = list(s.acted)
        self.cards = list(s.cards)
        self.hands = list(map(list, s.hands))
        self.supply = list(s.supply)
        self.next_card = s.next_card
        self.kills = s.kills
        self.leaders = list(s.leaders)
        self.grown = list(s.grown)
        self.hired = list(s.hired)
        self.used = list(s.used)
        self.vale_tax = s.vale_tax
        self.order = list(s.order)
        self.passed = list(s.passed)
        self.resigned = list(s.resigned)
        self.reveals = list(s.reveals)
        self.ending = s.ending
        self.result: ResultView | None = s.result
        # Rules change frames in place, so a working copy owns fresh ones: a shallow copy whose lists
        # and dicts are copied in turn (frames hold only those, scalars and frozen models). Four
        # times as fast as rebuilding each frame from its dump, which was a third of every ``apply``.
        self.stack: list[Any] = [_fresh(f) for f in s.stack] if copy else list(s.stack)
        self.events: list[Event] = []

    # ------------------------------------------------------------------ plumbing
    def commit(self) -> IntrigueState:
        """Freeze the working copy into the next state (version + 1)."""
        state = self.state
        # ``model_copy(update=…)`` without its generic steps (the state has no extra or private parts).
        fields = state.__dict__.copy()
        fields.update(
            version=state.version + 1,
            turn=self.turn,
            phase=self.phase,
            coins=tuple(self.coins),
            peaceful=tuple(self.peaceful),
            military=tuple(self.military),
            land_tokens=tuple(map(tuple, self.land_tokens)),
            char_tokens=tuple(map(tuple, self.char_tokens)),
            heads=tuple(self.heads),
            council=tuple(self.council),
            representative=self.representative,
            dead=tuple(self.dead),
            dismissed=tuple(self.dismissed),
            acted=tuple(self.acted),
            cards=tuple(self.cards),
            hands=tuple(map(tuple, self.hands)),
            supply=tuple(self.supply),
            next_card=self.next_card,
            kills=self.kills,
            leaders=tuple(self.leaders),
            grown=tuple(self.grown),
            hired=tuple(self.hired),
            used=tuple(self.used),
            vale_tax=self.vale_tax,
            order=tuple(self.order),
            passed=tuple(self.passed),
            resigned=tuple(self.resigned),
            reveals=tuple(self.reveals[-REVEALS_KEPT:]),
            ending=self.ending,
            result=self.result,
            stack=tuple(self.stack),
        )
        return _built(IntrigueState, fields, state.__pydantic_fields_set__ | _COMMITTED)

    def settle(self, state: IntrigueState) -> None:
        """Make this working copy, just committed as ``state``, a read-only copy of ``state``.

        What ``Game(state, copy=False)`` would build: the same lists (the reveals as kept) and the
        frames of ``state`` itself. Nothing may change it afterwards.
        """
        self.state = state
        self.reveals = list(state.reveals)
        self.events = []

    def emit(self, event: Event) -> None:
        """Record an event of this step."""
        self.events.append(event)

    @property
    def over(self) -> bool:
        """Return whether the game has ended."""
        return self.phase is Phase.OVER

    def phase_reached(self, phase: Phase) -> bool:
        """Return whether the turn has reached ``phase``."""
        return _PHASE_ORDER[self.phase] >= _PHASE_ORDER[phase]

    def push(self, frame: Frame) -> None:
        """Start a procedure on top of the current one."""
        self.stack.append(frame)

    def pop(self, answer: str | int | None = None) -> None:
        """Finish the innermost procedure, handing ``answer`` to its parent (if any)."""
        self.stack.pop()
        if answer is not None and self.stack:
            self.stack[-1].answer = answer

    def rsp(self) -> list[Seat]:
        """Return the rotating seat priority of this turn (§0)."""
        start = (self.turn - 1) % self.n
        return [(start + i) % self.n for i in range(self.n)]

    def rsp_index(self, seat: Seat) -> int:
        """Return ``seat``'s place in this turn's rotating seat priority."""
        return (seat - (self.turn - 1)) % self.n

    def use(self, mark: str) -> None:
        """Record a once-per-turn use."""
        self.used.append(mark)

    # ------------------------------------------------------------------ offices
    def head_of(self, land: int) -> int | None:
        """Return the head of ``land`` (``None``: vacant or not in play)."""
        pos = self.pos.get(land)
        return None if pos is None else self.heads[pos]

    def land_of(self, character: int) -> int | None:
        """Return the land ``character`` heads, if any."""
        for pos, head in enumerate(self.heads):
            if head == character:
                return self.lands[pos]
        return None

    def seat_of(self, character: int) -> int | None:
        """Return the permanent council seat index ``character`` holds, if any."""
        for i, c in enumerate(self.council):
            if c == character:
                return i
        return None

    def in_office(self, character: int) -> bool:
        """Return whether ``character`` is a head or a permanent councillor."""
        return character in self.heads or character in self.council

    def office_characters(self) -> list[int]:
        """Return every character in office: heads in land order, then the council."""
        return [c for c in self.heads if c is not None] + [c for c in self.council if c is not None]

    def head_characters(self) -> list[int]:
        """Return the heads in office, in land order."""
        return [c for c in self.heads if c is not None]

    def councillors(self) -> list[int | None]:
        """Return the five council seats (four permanent, then the Representative)."""
        return [*self.council, self.representative]

    def is_councillor(self, character: int) -> bool:
        """Return whether ``character`` sits in one of the five council seats."""
        return character in self.council or (character is not None and character == self.representative)

    def pool(self) -> list[int]:
        """Return the characters eligible for a seat: alive, out of office, not dismissed this turn."""
        return [c for c in range(1, 19) if c not in self.dead and not self.in_office(c) and c not in self.dismissed]

    def status(self, character: int) -> CharStatus:
        """Return where ``character`` is."""
        if character in self.dead:
            return CharStatus.DEAD
        if character in self.heads:
            return CharStatus.HEAD
        if character in self.council:
            return CharStatus.COUNCIL
        return CharStatus.POOL

    def has(self, character: int, trait: Trait) -> bool:
        """Return whether ``character`` carries ``trait`` and is in office (traits work only in office)."""
        return trait in TRAITS[character] and self.in_office(character)

    def with_trait(self, trait: Trait) -> list[int]:
        """Return every character in office with ``trait``."""
        return [c for c in self.office_characters() if trait in TRAITS[c]]

    # ------------------------------------------------------------------ influence
    def tokens(self, character: int) -> list[int]:
        """Return everyone's tokens on ``character``."""
        return self.char_tokens[character - 1]

    def land_row(self, land: int) -> list[int]:
        """Return everyone's land tokens on ``land``."""
        return self.land_tokens[self.pos[land]]

    def controller(self, character: int | None) -> Seat | None:
        """Return the player with strictly more tokens on ``character`` than every other (§0)."""
        if character is None:
            return None
        row = self.char_tokens[character - 1]
        top = max(row)
        if top <= 0 or row.count(top) > 1:
            return None
        return row.index(top)

    def tied_top(self, character: int) -> list[Seat]:
        """Return the players sharing the top count (≥ 1) on a neutral ``character``."""
        row = self.char_tokens[character - 1]
        top = max(row)
        if top <= 0:
            return []
        best = [s for s, v in enumerate(row) if v == top]
        return best if len(best) > 1 else []

    def holder(self, land: int) -> tuple[Seat | None, list[Seat]]:
        """Return the land holder of ``land`` and, when contested, the contested players (§0)."""
        row = self.land_row(land)
        head = self.head_of(land)
        head_row = self.char_tokens[head - 1] if head is not None else [0] * self.n
        sums = [row[s] + head_row[s] for s in range(self.n)]
        top = max(sums)
        if top <= 0:
            return None, []
        best = [s for s in range(self.n) if sums[s] == top]
        if len(best) == 1:
            return best[0], []
        top_head = max(head_row[s] for s in best)
        best = [s for s in best if head_row[s] == top_head]
        if len(best) == 1:
            return best[0], []
        return None, best

    def majority(self, land: int) -> Seat | None:
        """Return the land majority of ``land``: strictly most land tokens (victories, §0)."""
        row = self.land_row(land)
        top = max(row)
        if top <= 0 or row.count(top) > 1:
            return None
        return row.index(top)

    def combined(self, land: int) -> Seat | None:
        """Return the combined (land + head) majority of ``land`` (Чёрная Гавань)."""
        row = self.land_row(land)
        head = self.head_of(land)
        head_row = self.char_tokens[head - 1] if head is not None else [0] * self.n
        sums = [row[s] + head_row[s] for s in range(self.n)]
        top = max(sums)
        if top <= 0:
            return None
        best = [s for s in range(self.n) if sums[s] == top]
        return best[0] if len(best) == 1 else None

    def cells(self, land: int) -> int:
        """Return ``land``'s cell count."""
        return LANDS[land].cells

    def free_cells(self, land: int) -> int:
        """Return ``land``'s empty cells."""
        p = self.pos[land]
        return LANDS[land].cells - self.peaceful[p] - self.military[p]

    def appointer(self, *, from_treasurer: bool = False) -> Seat | None:
        """Return the Appointer (§1.5): the Тайный Советник's controller, else the Казначей's, else nobody."""
        if not from_treasurer:
            privy = self.controller(self.council[PRIVY])
            if privy is not None:
                return privy
        return self.controller(self.council[TREASURER])

    def council_tokens(self, seat: Seat) -> int:
        """Return ``seat``'s tokens on the five councillors."""
        return sum(self.char_tokens[c - 1][seat] for c in self.councillors() if c is not None)

    def office_tokens(self, seat: Seat) -> int:
        """Return ``seat``'s tokens on every character in office."""
        return sum(self.char_tokens[c - 1][seat] for c in self.office_characters())

    def total_land_tokens(self, seat: Seat) -> int:
        """Return ``seat``'s tokens on all lands."""
        return sum(row[seat] for row in self.land_tokens)

    def markers(self, seat: Seat) -> int:
        """Return ``seat``'s markers on face-down cards."""
        return sum(1 for c in self.cards if c.owner == seat)

    def controls(self, seat: Seat, characters: Iterable[int | None]) -> int:
        """Return how many of ``characters`` ``seat`` controls."""
        return sum(1 for c in characters if c is not None and self.controller(c) == seat)

    # ------------------------------------------------------------------ mutations
    def place(
        self, seat: Seat, count: int, reason: Reason, *, land: int | None = None, character: int | None = None
    ) -> None:
        """Place ``count`` of ``seat``'s tokens on a land or a character."""
        if count <= 0:
            return
        if land is not None:
            self.land_row(land)[seat] += count
        elif character is not None:
            self.tokens(character)[seat] += count
        self.emit(TokensPlaced(seat=seat, count=count, land=land, character=character, reason=reason))

    def remove(
        self,
        seat: Seat,
        count: int,
        reason: Reason,
        *,
        land: int | None = None,
        character: int | None = None,
        forced: bool = False,
    ) -> int:
        """Remove up to ``count`` of ``seat``'s tokens; a forced removal of exactly 1 from a Гордый is 2.

        Returns the number removed (all present when fewer than required, §0).
        """
        if count <= 0:
            return 0
        if character is not None:
            if forced and count == 1 and self.has(character, Trait.PROUD):
                count = 2
            row = self.tokens(character)
        elif land is not None:
            row = self.land_row(land)
        else:
            return 0
        taken = min(count, row[seat])
        if taken <= 0:
            return 0
        row[seat] -= taken
        self.emit(TokensRemoved(seat=seat, count=taken, land=land, character=character, reason=reason, forced=forced))
        return taken

    def gain(self, seat: Seat, amount: int, reason: Reason, land: int | None = None) -> None:
        """``seat`` takes ``amount`` coins from the bank."""
        if amount <= 0:
            return
        self.coins[seat] += amount
        self.emit(CoinsGained(seat=seat, amount=amount, reason=reason, land=land))

    def pay(self, seat: Seat, amount: int, reason: Reason, land: int | None = None) -> None:
        """``seat`` pays ``amount`` coins to the bank (validated by the caller)."""
        if amount <= 0:
            return
        self.coins[seat] -= amount
        self.emit(CoinsPaid(seat=seat, amount=amount, reason=reason, land=land))

    def new_card_id(self) -> str:
        """Return a fresh card id: the ``next_card``-th of the table's seeded sequence of ids.

        A card gets one whenever it enters a hand and again whenever it goes face down (§9.2, the
        Речная Подкова play), so an id tells nothing: not the card's type, not when or how it came
        (a count of public events used to name a card taken in public, issue 11), and a face-down
        card's id is not its id in hand. The sequence is a seeded shuffle, so which id comes next
        depends on nothing hidden (not even on which ids are held), and no id is dealt twice.
        """
        used = self.card_ids_in_use()
        while True:
            card = card_id(self.state.seed, self.next_card)
            self.next_card += 1
            if card not in used:  # only a table begun under the old numbering (M01, M02…) holds one
                return card

    def face_down_id(self, card: HandCard) -> str:
        """Return the id hand card ``card`` takes face down: a fresh one (call it while ``card`` is held)."""
        return self.new_card_id()

    def card_ids_in_use(self) -> set[str]:
        """Return every card id the table still refers to: hands, the board, recent reveals, procedures."""
        used = {c.id for hand in self.hands for c in hand} | {c.id for c in self.cards}
        used.update(r.card for r in self.reveals)
        used.update(CARD_ID.findall("".join(f.model_dump_json() for f in self.stack)))
        return used

    def expiry(self) -> int:
        """Return the turn whose Characters phase a card entering a hand now expires in (§9.1)."""
        started = self.phase_reached(Phase.CHARACTERS)
        return self.turn + 1 if started else self.turn

    def to_hand(self, seat: Seat, merc: MercType) -> HandCard:
        """Put a card of type ``merc`` into ``seat``'s hand under a fresh id."""
        card = HandCard(id=self.new_card_id(), merc=merc, expires_turn=self.expiry())
        self.hands[seat].append(card)
        return card

    def return_to_supply(self, merc: MercType) -> None:
        """Put a spent or discarded card back into the supply."""
        self.supply[SUPPLY_ORDER.index(merc)] += 1

    def discard(self, card: FaceDown, *, public: bool) -> None:
        """Discard a face-down (or just revealed) card; its marker returns. ``public``: type known."""
        self.return_to_supply(card.merc)
        self.emit(
            CardDiscarded(card=card.id, owner=card.owner, merc=card.merc if public else None, character=card.character)
        )

    def take_card(self, card_id: str) -> FaceDown:
        """Remove the face-down card ``card_id`` from the board and return it."""
        for i, card in enumerate(self.cards):
            if card.id == card_id:
                return self.cards.pop(i)
        raise IllegalActionError("intrigue.no_such_card", card=card_id)

    def find_card(self, card_id: str) -> FaceDown | None:
        """Return the face-down card ``card_id`` if it is on the board."""
        for card in self.cards:
            if card.id == card_id:
                return card
        return None

    def hand_card(self, seat: Seat, card_id: str) -> HandCard | None:
        """Return ``seat``'s hand card ``card_id``."""
        for card in self.hands[seat]:
            if card.id == card_id:
                return card
        return None

    def discard_cards_on(self, character: int) -> None:
        """Discard every face-down card on ``character`` without effect (death, dismissal)."""
        keep: list[FaceDown] = []
        for card in self.cards:
            if card.character == character:
                self.discard(card, public=False)
            else:
                keep.append(card)
        self.cards = keep

    def vacate(self, character: int) -> None:
        """Take ``character`` out of his seat(s); the Representative seat empties with his head seat."""
        for pos, head in enumerate(self.heads):
            if head == character:
                self.heads[pos] = None
        for i, c in enumerate(self.council):
            if c == character:
                self.council[i] = None
        if self.representative == character:
            self.representative = None

    def earlier_cards(self, seat: Seat) -> list[FaceDown]:
        """Return ``seat``'s face-down cards placed in an earlier turn."""
        return [c for c in self.cards if c.owner == seat and c.turn_placed < self.turn]

    def free_eligible(self, seat: Seat) -> bool:
        """Return whether ``seat`` may take part in a window (public facts only, §3.3)."""
        if seat in self.resigned:
            return False
        turn = self.turn
        for card in self.cards:
            if card.owner == seat and card.turn_placed < turn:
                return True
        heads = self.heads
        for p, row in enumerate(self.land_tokens):  # noqa: SIM110 - a plain loop: any() of a generator is slower here
            if row[seat] >= 2 and heads[p] is not None:
                return True
        return False


REVEALS_KEPT = 16
#: The fields :meth:`Game.commit` writes.
_COMMITTED = frozenset(
    {
        "version",
        "turn",
        "phase",
        "coins",
        "peaceful",
        "military",
        "land_tokens",
        "char_tokens",
        "heads",
        "council",
        "representative",
        "dead",
        "dismissed",
        "acted",
        "cards",
        "hands",
        "supply",
        "next_card",
        "kills",
        "leaders",
        "grown",
        "hired",
        "used",
        "vale_tax",
        "order",
        "passed",
        "resigned",
        "reveals",
        "ending",
        "result",
        "stack",
    }
)


class Rules:
    """How one frame kind behaves. ``interrupt`` frames hold victory checks back (§3.7)."""

    interrupt: ClassVar[bool] = False

    def run(self, g: Game, f: Any) -> bool:
        """Advance ``f`` (the innermost frame); return ``True`` when waiting for a decision."""
        raise NotImplementedError

    def active(self, g: Game, f: Any) -> list[Seat]:
        """Return the seats ``f`` waits for."""
        return []

    def legal(self, g: Game, f: Any, seat: Seat) -> list[Any]:
        """Return ``seat``'s legal actions."""
        return []

    def act(self, g: Game, f: Any, seat: Seat, action: Any) -> None:
        """Apply a legal action of ``seat``."""
        raise NotImplementedError

    def default(self, g: Game, f: Any, seat: Seat) -> Any:
        """Return the clock's action for ``seat``."""
        raise NotImplementedError

    def pending(self, g: Game, f: Any) -> PendingView:
        """Return the public description of the decision."""
        raise NotImplementedError

    def draft(self, g: Game, f: Any, seat: Seat) -> DraftView | None:
        """Return ``seat``'s own sub-decision in progress (private)."""
        return None

    def submission(self, g: Game, f: Any, seat: Seat) -> DraftView | None:
        """Return ``seat``'s sealed submission before the reveal (private)."""
        return None


RULES: dict[str, Rules] = {}


def register(kind: str) -> Any:
    """Class decorator: register a :class:`Rules` subclass for frame ``kind``."""

    def wrap(cls: type[Rules]) -> type[Rules]:
        RULES[kind] = cls()
        return cls

    return wrap


def pending(decision: Decision, seats: Sequence[Seat], **fields: Any) -> PendingView:
    """Build a :class:`PendingView`."""
    return PendingView(decision=decision, seats=tuple(sorted(seats)), **fields)


COUNCIL_SEAT_OF: dict[int, CouncilSeat] = dict(enumerate(COUNCIL_SEATS))
