"""An AI for «Интриги» that plays from its own seat's view and the legal actions only.

It never sees the state: everything comes from :class:`~games.intrigue.models.IntrigueView` (every
token, coin and population, its own hand and the types of its own face-down cards, the decision in
progress and its own draft) and the legal actions it is handed.

**What a position is worth.** One evaluation scores a board of tokens for the AI's seat: control of
council seats (the Election needs 4 of 5, and council tokens are the first key of the end score),
control of land heads (each is one action a turn), holding lands while income still comes, a land
token under each controlled head (the cheap marker source for sending), the score keys (council,
character and board tokens), and the land majorities of the Military coup / Will of the people,
worth the more the closer it is to controlling the Военачальник / Тайный Советник (each token
behind its top count a step further off). With the lands of a victory held, or all but one, each
step towards that seat is a step towards the victory, so it sends its messengers there. The
strongest opponent's share of the same terms counts against it; a rival's lands count in full only
once it holds the seat. Placement, investment, conversion, blessing, appointment, sending and
assassination are all "which choice leaves the best board", so they pull the same way.

**Its plan.** Concentrate tokens on a few heads it can hold, each with a land token under it;
hire one messenger per character it can send through, send them at the councillors it does not
hold yet (a bribe where extra tokens may be bought later, a gift where a bribe would be refused
or overpriced), reveal gifts at once and bribes in its own Investments turn with the spare coins,
and call the Election as soon as it controls 4 of the 5 council seats. Assassins go to an
opponent's well-stocked councillor; while the AI would rank first by the score vector each kill is
also a step towards the Рука порядка (worth more the more kills are made), and for the fifth kill it
hires and sends an assassin wherever that death would leave it first, revealing it only if it still
would.
**Spies and thieves.** A rival's face-down card is weighed as what it would cost the AI once
revealed (a likely messenger, and a possible assassin where a death would hurt). While a rival is
one councillor or one seat from a victory — a card already down, or one a rival with an action and
coins may still send this turn — it hires a thief (a spy if none is left) and sends it through its
cheapest character, onto a councillor where garrisons cannot find it. In the next Spies & Thieves,
before any card sent this turn can be revealed, it exposes the rival card that threatens most.
Votes follow its interest (its own heads and councillors stay, an opponent's go); appointments,
the Сапфировые Озёра dictation, guard answers, garrison reveals and the Долина Стрел tax likewise.
In the last turn nothing is sent (it could never be revealed): coins go into tokens and land
tokens are converted into head tokens, which rank above them in the score vector.

**The rest of the game.** It contests a tied head when the head's best action, planned on the
board after its bid is paid, is worth more than the bid; it answers the strongest rival's contest
with a matching bid. In a removal vote it sways the open neutral voters (advice through its heads,
the Братья head for free; stakes of land tokens in a land vote) when the vote is heading the wrong
way and the outcome is worth more than the tokens. It calls a removal whenever the seats that gain
by it (everyone but the subject's controller, and For-disposed neutral councillors) can carry it,
which is how it stops a rival holding 4 council seats (that rival's Election is weighed as a loss
of ``ELECTION_THREAT``). As Военачальник it moves up to 2 military tokens to the pair of moves that
leaves the best board (its own coup, a rival's broken will). A character it cannot use it lends
for a price to the rival furthest behind.

**Sub-steps.** A multi-pick decision is re-planned from the view at every step (the draft says
what is already picked), so each pick agrees with the first. It never chooses ``Back``; when no
forward pick is worth it, it takes the decision's own default (Done, Skip, Pass, Decline, bid 0).
It is deterministic given the :class:`~games.core.rng.GameRng` it is handed, which only breaks
exact ties.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from games.core.rng import GameRng
from games.intrigue.data import (
    BEYOND_THE_WOODS,
    BRIBE_EXTRA_COST,
    EMPTY_HILLS,
    GREEDY_EXTRA_COST,
    INVEST_COST,
    MERCENARY_COST,
    RIVER_HORSESHOE,
    THE_BROTHERS,
    VALE_OF_ARROWS,
    Trait,
    has_trait,
)
from games.intrigue.models import (
    Back,
    CharAction,
    CharStatus,
    Choose,
    ContestHead,
    Convert,
    Decision,
    Done,
    DraftItem,
    FaceDownView,
    IntrigueView,
    MercType,
    Mode,
    Option,
    Pass,
    Phase,
    PickAction,
    PickAmount,
    PickCard,
    PickCharacter,
    PickLand,
    PickMode,
    PickSeat,
    PickSide,
    PickType,
    PlaceToken,
    RevealAssassin,
    RevealMessenger,
    Side,
    Skip,
    VoteKind,
)

# ----------------------------------------------------------------------------- weights
#: A coin's worth while coins can still be turned into tokens (3 coins buy about one token).
COIN = 0.33
#: Holding a council seat / a land head (one action a turn, a vote, a marker source).
CONTROL_COUNCIL = 9.0
CONTROL_HEAD = 5.0
#: Extra for a safety margin of tokens over the runner-up (per token, up to 3).
MARGIN = 0.6
#: Score-key weights of one own token: on a councillor (key 1), a head (key 2), a land (key 3).
TOKEN_COUNCIL = 1.0
TOKEN_HEAD = 0.45
TOKEN_LAND = 0.25
#: Control of 3 / 4+ council seats (4 of 5 wins the Election).
THREE_SEATS = 6.0
FOUR_SEATS = 40.0
#: A land token under a controlled head: sending through it costs no head token.
MARKER_SOURCE = 0.6
#: The extra cost of taking a marker off a character rather than off its land.
REBUILD = 0.4
#: Land majority of a coup / will land, and meeting the whole condition.
MAJORITY_LAND = 2.0
CONDITION_MET = 60.0
#: Reaching for the Военачальник / Тайный Советник: control is 1, a seat level with the top count is
#: one step of ``1 / REACH_STEPS`` short, each token behind one step more. With the m qualifying lands
#: held a step is worth its share of ``SEAT_MISSING``; with m − 1, half of it.
REACH_STEPS = 5
SEAT_MISSING = 30.0
#: The reach counts in games of this many lands (6–8 players: m = 5 of 9). With 7 lands m = 4 is
#: quickly held, and reaching for the seat there ended all-AI games of 2, 3 and 5 players by turn 2.
PURSUIT_LANDS = 9
#: A kill (not the fifth) while the AI would rank first by the score vector: the Рука порядка comes
#: one kill closer, worth this much per kill already made plus one.
HAND_STEP = 3.0
#: An assassin sent for the fifth kill onto a character whose death would rank the AI first.
HAND_SEND = 12.0
#: How much the strongest opponent's terms, and all opponents' terms, count against it.
LEADER_WEIGHT = 0.5
FIELD_WEIGHT = 0.1
#: The chance a face-down card survives until its owner reveals it.
SURVIVAL = 0.85
#: Minimum gain for a free action or a main action to be worth taking.
MIN_GAIN = 0.05
#: Value of a kill that ends the game (fifth kill): won or lost.
ENDING = 200.0
#: A rival holding 4 council seats (its Election is one action away).
ELECTION_THREAT = 60.0
#: What a rival's face-down card is taken to be when the AI weighs it: most cards are messengers
#: (4 per player against 3 of each other type), and an assassin matters only where it would kill.
LIKELY_MESSENGER = 0.75
LIKELY_ASSASSIN = 0.15
#: The chance a rival with an action and coins sends a messenger to the seat that hurts the AI most
#: before the next Spies & Thieves, which an agent sent now could then expose.
RIVAL_SENDS = 0.5
#: A rival card is worth an agent only when it could decide the game: a loss this large is a rival
#: one councillor (or one seat) from a victory; smaller gains are left to contests and votes.
DECISIVE = 20.0
#: A spy or thief lying on a head may be found by a garrison before it acts; a councillor is safe.
AGENT_ON_HEAD = 0.8
#: The "target" of a spy or thief weighed for hiring, before it has a character to lie on.
ANYWHERE = -1
#: A lend's price, and the share of a borrower's likely gain that counts against the lender.
LEND_PRICE = 2
LEND_HARM = 1.0

_CONTROLLED = (CharStatus.HEAD, CharStatus.COUNCIL)


# ----------------------------------------------------------------------------- boards
@dataclass
class Board:
    """A hypothetical token layout: tokens per land and per character, and who is in office."""

    land: dict[int, list[int]]
    char: dict[int, list[int]]
    office: set[int]
    #: Population per land, ``[peaceful, military]`` (the Военачальник moves military tokens).
    pop: dict[int, tuple[int, int]]

    def copy(self) -> Board:
        """Return an independent copy."""
        return Board(
            {k: list(v) for k, v in self.land.items()},
            {k: list(v) for k, v in self.char.items()},
            set(self.office),
            self.pop,
        )

    def killed(self, c: int) -> Board:
        """Return a copy with character ``c`` dead: out of office, its tokens gone."""
        after = self.copy()
        after.char[c] = [0] * len(after.char[c])
        after.office.discard(c)
        return after


def controller(tokens: Sequence[int]) -> int | None:
    """Return the seat with strictly the most tokens (≥ 1), else ``None``."""
    top = max(tokens)
    if top <= 0:
        return None
    seats = [s for s, t in enumerate(tokens) if t == top]
    return seats[0] if len(seats) == 1 else None


def land_holder(row: Sequence[int], head: Sequence[int] | None) -> tuple[int | None, tuple[int, ...]]:
    """Return the land holder and the contested seats (§0: land + head tokens, then head tokens)."""
    heads = head if head is not None else [0] * len(row)
    sums = [r + h for r, h in zip(row, heads, strict=True)]
    top = max(sums)
    if top <= 0:
        return None, ()
    tied = [s for s, v in enumerate(sums) if v == top]
    if len(tied) == 1:
        return tied[0], ()
    best = max(heads[s] for s in tied)
    tied = [s for s in tied if heads[s] == best]
    if len(tied) == 1:
        return tied[0], ()
    return None, tuple(tied)


# ----------------------------------------------------------------------------- context
class Ctx:
    """What the AI reads off its view, once per decision."""

    def __init__(self, view: IntrigueView) -> None:
        if view.viewer is None:
            raise ValueError("the Intrigue AI needs its own seat's view")
        self.view = view
        self.me: int = view.viewer
        self.n = view.num_seats
        self.others = [s for s in range(self.n) if s != self.me]
        self.chars = {c.id: c for c in view.characters}
        self.lands = {land.id: land for land in view.lands}
        council = view.council
        self.permanent = [council.marshal, council.bishop, council.treasurer, council.privy]
        self.council = {c for c in [*self.permanent, council.representative] if c is not None}
        self.head_of = {land.id: land.head for land in view.lands}
        self.land_of = {c.id: c.land for c in view.characters if c.status is CharStatus.HEAD and c.land is not None}
        me = view.players[self.me]
        self.coins = me.coins
        self.hand = me.hand or ()
        self.final = view.turn >= view.max_turns
        self.turns_left = max(0, view.max_turns - view.turn)
        early = view.phase in (Phase.SETUP, Phase.SPIES, Phase.LANDS_ONE)
        self.incomes_left = min(3, self.turns_left + (1 if early or view.turn == 0 else 0))
        self.coin = COIN if not self.final else 0.01
        self.board = Board(
            {land.id: list(land.tokens) for land in view.lands},
            {c.id: list(c.tokens) for c in view.characters},
            {c.id for c in view.characters if c.status in _CONTROLLED},
            {land.id: (land.peaceful, land.military) for land in view.lands},
        )
        self.expected = self._with_pending(self.board)
        self.my_cards = [c for c in view.cards if c.owner == self.me]
        self._values: dict[int, float] = {}
        self._targets: dict[tuple[int, MercType], tuple[float, Mode | None]] = {}
        self._threats: dict[str, float] = {}
        self._reach: float | None = None

    def value(self, board: Board) -> float:
        """Return :meth:`evaluate` of ``board``, cached for the two boards that never change."""
        if board is not self.board and board is not self.expected:
            return self.evaluate(board)
        key = id(board)
        if key not in self._values:
            self._values[key] = self.evaluate(board)
        return self._values[key]

    def after_losing(self, land: int, count: int) -> Ctx:
        """Return a context whose board has ``count`` fewer own tokens on ``land`` (a paid bid)."""
        out = copy.copy(self)
        out.board = self.board.copy()
        out.board.land[land][self.me] -= count
        out.expected = out._with_pending(out.board)
        out._values = {}
        out._targets = {}
        out._threats = {}
        out._reach = None
        return out

    # ------------------------------------------------------------------ board helpers
    def _with_pending(self, board: Board) -> Board:
        """Return ``board`` with the AI's own face-down messengers counted as delivered."""
        out = board.copy()
        for card in self.view.cards:
            if card.owner != self.me or card.merc is not MercType.MESSENGER or card.character not in out.office:
                continue
            out.char[card.character][self.me] += self.delivered(card.character, card.mode or Mode.GIFT)
        return out

    def delivered(self, target: int, mode: Mode) -> int:
        """Return the tokens a messenger of ``mode`` adds to ``target`` (before bribe extras)."""
        if mode is Mode.GIFT:
            return 2 if has_trait(target, Trait.COLLECTOR) else 1
        return 0 if has_trait(target, Trait.INCORRUPTIBLE) else 1

    def mine(self, c: int, board: Board | None = None) -> int:
        """Return the AI's tokens on character ``c``."""
        return (board or self.board).char[c][self.me]

    def margin(self, c: int, board: Board | None = None) -> int:
        """Return the AI's tokens on ``c`` minus the most any opponent has."""
        tokens = (board or self.board).char[c]
        return tokens[self.me] - max((tokens[s] for s in self.others), default=0)

    def controls(self, c: int | None, board: Board | None = None) -> bool:
        """Return whether the AI controls character ``c``."""
        return c is not None and controller((board or self.board).char[c]) == self.me

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, board: Board) -> float:
        """Return how good ``board`` is for the AI (see the module docstring)."""
        me, n = self.me, self.n
        value = 0.0
        opp = [0.0] * n
        own_seats = 0
        opp_seats = [0] * n
        acting = 1.0 if self.turns_left > 0 or self.view.phase is not Phase.LANDS_TWO else 0.2
        for c in board.office:
            tokens = board.char[c]
            in_council = c in self.council
            weight = TOKEN_COUNCIL if in_council else TOKEN_HEAD
            value += weight * tokens[me]
            for s in self.others:
                opp[s] += weight * tokens[s]
            who = controller(tokens)
            if who is None:
                continue
            base = CONTROL_COUNCIL if in_council else CONTROL_HEAD
            if who == me:
                second = max((tokens[s] for s in self.others), default=0)
                value += base * acting + MARGIN * min(tokens[me] - second, 3)
                own_seats += in_council
            else:
                opp[who] += base * acting
                opp_seats[who] += in_council
        value += _seat_bonus(own_seats)
        for s in self.others:
            opp[s] += _seat_bonus(opp_seats[s])
        if any(opp_seats[s] >= 4 for s in self.others):
            # A rival with 4 council seats wins by Election in its next slot: nothing else matters as much.
            value -= ELECTION_THREAT
        income = COIN * self.incomes_left
        m = self.view.majority_needed
        coup = will = 0
        opp_coup = [0] * n
        opp_will = [0] * n
        for land_id, row in board.land.items():
            peaceful, military = board.pop[land_id]
            head = self.head_of[land_id]
            head_row = board.char[head] if head is not None and head in board.office else None
            holder, contested = land_holder(row, head_row)
            if holder == me:
                value += peaceful * income
            elif holder is not None:
                opp[holder] += peaceful * income
            if me in contested:
                value += income
            value += TOKEN_LAND * row[me]
            for s in self.others:
                opp[s] += TOKEN_LAND * row[s]
            if head_row is not None and row[me] >= 1 and controller(head_row) == me:
                value += MARKER_SOURCE * acting
            major = controller(row)
            if major is None:
                continue
            if military >= peaceful:
                if major == me:
                    coup += 1
                else:
                    opp_coup[major] += 1
            if military <= peaceful:
                if major == me:
                    will += 1
                else:
                    opp_will[major] += 1
        pursue = len(board.land) >= PURSUIT_LANDS
        marshal = _reaches(board, self.permanent[0], n, pursue)
        privy = _reaches(board, self.permanent[3], n, pursue)
        value += _condition(coup, m, marshal[me], pursue) + _condition(will, m, privy[me], pursue)
        for s in self.others:
            # A rival counts only once it holds the seat: reaching for it is a plan the AI cannot see.
            opp[s] += _condition(opp_coup[s], m, float(marshal[s] >= 1.0), pursue) + _condition(
                opp_will[s], m, float(privy[s] >= 1.0), pursue
            )
        if self.others:
            value -= LEADER_WEIGHT * max(opp[s] for s in self.others) + FIELD_WEIGHT * sum(opp)
        return value

    # ------------------------------------------------------------------ common plans
    def land_gain(self, board: Board, land: int, count: int = 1) -> float:
        """Return what ``count`` more own tokens on ``land`` add to ``board``."""
        after = board.copy()
        after.land[land][self.me] += count
        return self.evaluate(after) - self.value(board)

    def char_gain(self, board: Board, c: int, count: int) -> float:
        """Return what ``count`` more own tokens on character ``c`` add to ``board``."""
        after = board.copy()
        after.char[c][self.me] = max(0, after.char[c][self.me] + count)
        return self.evaluate(after) - self.value(board)

    def kill_gain(self, board: Board, c: int) -> float:
        """Return what killing ``c`` is worth (the fifth kill: whether the ending ranks the AI first)."""
        if self.view.kills + 1 >= self.view.kills_to_end:
            return ENDING if self.first_after_kill(c) else -ENDING
        after = board.killed(c)
        hand = HAND_STEP * (self.view.kills + 1) if self.first_after_kill(c) else 0.0
        return self.evaluate(after) - self.value(board) + hand

    def first_after_kill(self, c: int) -> bool:
        """Return whether the AI would rank first by the score vector once ``c`` is dead."""
        tokens = self.board.char[c]
        in_council = c in self.council

        def key(s: int) -> tuple[int, ...]:
            score = list(self.view.players[s].score)
            score[0] -= tokens[s] if in_council else 0
            score[1] -= tokens[s]
            score[2] -= tokens[s]
            return tuple(score)

        mine = key(self.me)
        return all(mine >= key(s) for s in self.others)

    def best_land(self, board: Board, lands: Iterable[int]) -> tuple[float, int] | None:
        """Return the best land to put one own token on, with its gain."""
        options = [(self.land_gain(board, land), -land) for land in lands]
        if not options:
            return None
        gain, neg = max(options)
        return gain, -neg

    def convert_gain(self, board: Board, land: int) -> float:
        """Return what converting 2 land tokens on ``land`` into 1 head token adds."""
        head = self.head_of.get(land)
        if head is None or board.land[land][self.me] < 2:
            return -1.0
        after = board.copy()
        after.land[land][self.me] -= 2
        after.char[head][self.me] += 1
        gain = self.evaluate(after) - self.value(board)
        if self.final and self.view.phase is Phase.LANDS_TWO:
            # The score vector ranks character tokens above board tokens: convert all that is left.
            gain += 1.0
        return gain

    def tax_due(self, board: Board | None = None) -> int:
        """Return the tax the AI expects to pay in Lands II (one coin per held or contested land)."""
        if self.view.phase is Phase.LANDS_TWO and self.view.vale_tax is not None and board is None:
            # Past the tax step of this turn nothing more is due before the next income.
            return 0
        board = board or self.board
        due = 0
        for land_id, row in board.land.items():
            head = self.head_of[land_id]
            head_row = board.char[head] if head is not None and head in board.office else None
            holder, contested = land_holder(row, head_row)
            if holder == self.me:
                due += 2 if land_id == VALE_OF_ARROWS and self.vale_high() else 1
            elif self.me in contested:
                due += 1
        return due

    def vale_high(self) -> bool:
        """Return whether the Долина Стрел tax may be 2 (an opponent controls the Военачальник)."""
        marshal = self.permanent[0]
        who = self.chars[marshal].controller if marshal is not None else None
        return who is not None and who != self.me

    def leader(self) -> int | None:
        """Return the opponent with the best score vector."""
        if not self.others:
            return None
        return max(self.others, key=lambda s: (self.view.players[s].score, -s))

    # ------------------------------------------------------------------ rival cards (spies and thieves)
    def rival_gain(self, s: int, c: int, tokens: int) -> float:
        """Return what ``tokens`` more of rival ``s``'s tokens on character ``c`` cost the AI."""
        after = self.expected.copy()
        after.char[c][s] += tokens
        return self.value(self.expected) - self.evaluate(after)

    def messenger_tokens(self, s: int, c: int) -> int:
        """Return the most tokens rival ``s``'s messenger on ``c`` may bring (a bribe buys extras)."""
        gift = self.delivered(c, Mode.GIFT)
        if has_trait(c, Trait.INCORRUPTIBLE):
            return gift
        per = GREEDY_EXTRA_COST if has_trait(c, Trait.GREEDY) else BRIBE_EXTRA_COST
        return max(gift, 1 + min(2, self.view.players[s].coins // per))

    def card_threat(self, card: FaceDownView) -> float:
        """Return what a rival's face-down card is expected to cost the AI once its owner reveals it.

        Its type is hidden: it is weighed as a likely messenger (its owner's tokens on the character)
        and, where the character's death would hurt the AI, a possible assassin.
        """
        if card.id in self._threats:
            return self._threats[card.id]
        c, s = card.character, card.owner
        threat = 0.0
        if c in self.expected.office:
            threat = LIKELY_MESSENGER * max(0.0, self.rival_gain(s, c, self.messenger_tokens(s, c)))
            if self.chars[c].controller != s:
                loss = self.value(self.expected) - self.evaluate(self.expected.killed(c))
                threat += LIKELY_ASSASSIN * max(0.0, loss)
        self._threats[card.id] = threat
        return threat

    def rival_reach(self) -> float:
        """Return the worst a rival's messenger sent this turn onto a councillor could cost the AI.

        Only a rival with an action left and a card or the coins to hire one is counted.
        """
        if self._reach is not None:
            return self._reach
        worst = 0.0
        acting = {ch.controller for ch in self.view.characters if ch.id in self.board.office and not ch.acted}
        for s in self.others:
            player = self.view.players[s]
            if s not in acting or (player.hand_size == 0 and player.coins < MERCENARY_COST):
                continue
            for c in self.council:
                if c in self.expected.office:
                    worst = max(worst, self.rival_gain(s, c, self.messenger_tokens(s, c)))
        self._reach = worst
        return worst

    def rival_cards(self) -> list[FaceDownView]:
        """Return the rivals' face-down cards, the most threatening first."""
        cards = [c for c in self.view.cards if c.owner != self.me]
        return sorted(cards, key=lambda c: (-self.card_threat(c), c.id))

    def agent_worth(self, extra: int = 0) -> float:
        """Return what one more own spy or thief on the board is worth (``extra``: others sent before it).

        Each agent exposes one rival card in the next Spies & Thieves: the AI's agents already lying
        face down take the worst cards first, and a card a rival may still send this turn counts at
        :data:`RIVAL_SENDS`.
        """
        placed = sum(1 for c in self.my_cards if c.merc in (MercType.SPY, MercType.THIEF))
        rivals = (c for c in self.view.cards if c.owner != self.me)
        threats = [t for t in map(self.card_threat, rivals) if t >= LIKELY_MESSENGER * DECISIVE]
        reach = self.rival_reach()
        if reach >= DECISIVE:
            threats.append(RIVAL_SENDS * reach)
        threats.sort(reverse=True)
        index = placed + extra
        return threats[index] if index < len(threats) else 0.0


def _seat_bonus(seats: int) -> float:
    if seats >= 4:
        return FOUR_SEATS
    if seats == 3:
        return THREE_SEATS
    return 0.0


def _reaches(board: Board, c: int | None, n: int, pursue: bool = True) -> list[float]:
    """Return how close each seat is to controlling character ``c``: 1 in control, less per token behind.

    Level with the top count is ``1 - 1 / REACH_STEPS``, each token behind ``1 / REACH_STEPS`` less
    (never below 0); a vacant seat is out of everyone's reach. Without ``pursue`` only control counts.

    >>> board = Board({}, {7: [2, 1, 0]}, {7}, {})
    >>> [round(r, 1) for r in _reaches(board, 7, 3)]
    [1.0, 0.6, 0.4]
    >>> _reaches(board, 7, 3, pursue=False)
    [1.0, 0.0, 0.0]
    """
    if c is None or c not in board.office:
        return [0.0] * n
    tokens = board.char[c]
    out = []
    for s in range(n):
        top = max((t for q, t in enumerate(tokens) if q != s), default=0)
        gap = top - tokens[s]
        out.append(1.0 if gap < 0 else 0.0 if not pursue else max(0.0, (REACH_STEPS - 1 - gap) / REACH_STEPS))
    return out


def _condition(lands: int, m: int, reach: float, pursue: bool = True) -> float:
    """Return what ``lands`` qualifying land majorities are worth with the seat ``reach`` away (§12.2, §12.3)."""
    if reach >= 1.0 and lands >= m:
        return CONDITION_MET
    if not pursue:
        return MAJORITY_LAND * lands * (1.0 if reach >= 1.0 else 0.1)
    value = MAJORITY_LAND * lands * (0.1 + 0.9 * reach)
    if lands >= m - 1:
        # The seat and at most one land are missing: each token closer to the seat is a step towards
        # the victory (half a step while a land is missing too).
        value += SEAT_MISSING * reach * (1.0 if lands >= m else 0.5)
    return value


# ----------------------------------------------------------------------------- helpers
_DONE = Done()
_SKIP = Skip()
_PASS = Pass()
_BACK = Back()
#: The "nothing" answers, in the order a fallback prefers them.
_DEFAULTS: tuple[Any, ...] = (
    _DONE,
    _SKIP,
    Choose(option=Option.DECLINE),
    Choose(option=Option.REFUSE),
    PickAmount(amount=0),
    PickSide(side=Side.NONE),
    PickSide(side=Side.ABSTAIN),
    _PASS,
)


def fallback(legal: Sequence[Any]) -> Any:
    """Return the decision's "nothing" answer if legal, else the first action that is not ``Back``."""
    for action in _DEFAULTS:
        if action in legal:
            return action
    for action in legal:
        if action != _BACK:
            return action
    return legal[0]


def _items(view: IntrigueView) -> tuple[DraftItem, ...]:
    return view.draft.items if view.draft is not None else ()


def _item(items: Iterable[DraftItem], step: str) -> DraftItem | None:
    for it in items:
        if it.step == step:
            return it
    return None


@dataclass(frozen=True)
class Plan:
    """One main action through one character, with its parameters and its worth."""

    value: float
    character: int
    action: CharAction
    rider: bool = False
    card: str | None = None
    target: int | None = None
    source: Option | None = None
    mode: Mode | None = None
    land: int | None = None
    seat: int | None = None
    amount: int | None = None
    moves: tuple[tuple[int, int], ...] = ()


# ----------------------------------------------------------------------------- the agent
class IntrigueAgent:
    """The «Интриги» AI; deterministic given the generator it is handed."""

    def choose(self, view: BaseModel, legal: list[Any], rng: GameRng) -> Any:
        """Return one of ``legal`` for the seat ``view`` belongs to."""
        if not isinstance(view, IntrigueView) or view.viewer is None:
            raise ValueError("the Intrigue AI needs its own seat's IntrigueView")
        if not legal:
            raise ValueError("no legal actions")
        if len(legal) == 1:
            return legal[0]
        action = self._decide(Ctx(view), legal, rng)
        return action if action in legal else fallback(legal)

    def _decide(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        pending = ctx.view.pending
        if pending is None:
            return fallback(legal)
        decision = pending.decision
        handler = {
            Decision.PLACEMENT: self._placement,
            Decision.WINDOW: self._window,
            Decision.SPY_TURN: self._spy_turn,
            Decision.GUARD: self._guard,
            Decision.THIEF_TAKE: self._thief_take,
            Decision.RECRUIT: self._recruit,
            Decision.RARE_GIFT: self._rare_gift,
            Decision.GROWTH: self._growth,
            Decision.INVEST: self._invest,
            Decision.SLOT: self._slot,
            Decision.CONTEST_BID: self._contest_bid,
            Decision.LEND_OFFER: self._lend,
            Decision.BALLOT: self._ballot,
            Decision.SAPPHIRE: self._sapphire,
            Decision.SWAY: self._sway,
            Decision.APPOINT: self._appoint,
            Decision.ASSASSIN_PENALTY: self._penalty,
            Decision.RIVER_CONSENT: self._river_consent,
            Decision.VALE_TAX: self._vale_tax,
            Decision.GARRISON: self._garrison,
        }[decision]
        return handler(ctx, legal, rng)

    # ------------------------------------------------------------------ setup (D1)
    def _placement(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        base = ctx.value(ctx.board)
        best: tuple[float, float, Any] | None = None
        for action in legal:
            if not isinstance(action, PlaceToken):
                continue
            after = ctx.board.copy()
            head = ctx.head_of.get(action.land)
            if action.head and head is not None:
                after.char[head][ctx.me] += 1
            else:
                after.land[action.land][ctx.me] += 1
            key = (ctx.evaluate(after) - base, rng.random(), action)
            if best is None or key[:2] > best[:2]:
                best = key
        return best[2] if best is not None else fallback(legal)

    # ------------------------------------------------------------------ free actions (F1–F3)
    def _free_action(self, ctx: Ctx, legal: list[Any], *, bribes: bool) -> Any | None:
        """Return the free action worth taking now (a reveal or a conversion), or ``None``."""
        cards = {c.id: c for c in ctx.my_cards}
        reveals = [a for a in legal if isinstance(a, RevealMessenger)]
        for action in reveals:
            card = cards.get(action.card)
            if card is None or card.mode is not Mode.GIFT:
                continue
            return action
        if bribes:
            chosen = self._bribe_reveal(ctx, reveals, cards)
            if chosen is not None:
                return chosen
        for action in legal:
            if isinstance(action, RevealAssassin):
                card = cards.get(action.card)
                if card is not None and ctx.kill_gain(ctx.board, card.character) > 1.0:
                    return action
        converts = [(ctx.convert_gain(ctx.board, a.land), -a.land, a) for a in legal if isinstance(a, Convert)]
        if converts:
            gain, _, convert = max(converts, key=lambda x: (x[0], x[1]))
            if gain > 0.3:
                return convert
        return None

    def _bribe_reveal(self, ctx: Ctx, reveals: list[RevealMessenger], cards: dict[str, Any]) -> Any | None:
        """Return the reveal of an own bribe with the extra tokens the spare coins buy."""
        options: dict[str, list[int]] = {}
        for action in reveals:
            card = cards.get(action.card)
            if card is None or card.mode is not Mode.BRIBE or has_trait(card.character, Trait.INCORRUPTIBLE):
                continue
            options.setdefault(action.card, []).append(action.extra)
        if not options:
            return None
        card_id = min(options)
        card = cards[card_id]
        spare = ctx.coins - ctx.tax_due()
        if not ctx.final:
            spare -= MERCENARY_COST * min(2, len(_send_vias(ctx)))
        per = GREEDY_EXTRA_COST if has_trait(card.character, Trait.GREEDY) else BRIBE_EXTRA_COST
        base = ctx.board.copy()
        base.char[card.character][ctx.me] += 1
        extra = 0
        # Each extra token must be worth at least what its coins would buy as a land token.
        while extra + 1 in options[card_id] and spare >= per * (extra + 1) + (1 if per == GREEDY_EXTRA_COST else 0):
            gain = ctx.char_gain(base, card.character, 1)
            if gain < per * ctx.coin * 1.05 and not ctx.final:
                break
            base.char[card.character][ctx.me] += 1
            extra += 1
        action = RevealMessenger(card=card_id, extra=extra)
        return action if extra in options[card_id] else None

    # ------------------------------------------------------------------ windows (D2)
    def _window(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        bribes = ctx.view.phase is not Phase.LANDS_ONE
        action = self._free_action(ctx, legal, bribes=bribes)
        return action if action is not None else fallback(legal)

    # ------------------------------------------------------------------ spies and thieves (D3)
    def _spy_turn(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        """Expose the rival card that threatens most, with a thief where it has one.

        A thief stops a messenger of either mode (and may keep it); a spy stops a bribe or an
        assassin, while an exposed gift is delivered as its owner would have done anyway.
        """
        draft = ctx.view.draft
        step = draft.step if draft is not None else "agent"
        rivals = ctx.rival_cards()
        if step == "agent":
            agents = [a for a in legal if isinstance(a, PickCard)]
            if not agents or not rivals:
                return fallback(legal)
            kinds = {c.id: c.merc for c in ctx.my_cards}
            # Thieves first, then the earliest placed (the longest exposed to garrisons and rivals).
            return min(agents, key=lambda a: (kinds.get(a.card) is not MercType.THIEF, a.card))
        if step == "character":
            picks = {a.character: a for a in legal if isinstance(a, PickCharacter)}
            for card in rivals:
                if card.character in picks:
                    return picks[card.character]
            return fallback(legal)
        targets = {a.card: a for a in legal if isinstance(a, PickCard)}
        for card in rivals:
            if card.id in targets:
                return targets[card.id]
        return fallback(legal)

    # ------------------------------------------------------------------ interrupts (D4–D7)
    def _guard(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        # A guard's answer always pays its owner tokens on the target and stops the rival card.
        guards = [a for a in legal if isinstance(a, PickCard)]
        return guards[0] if guards else fallback(legal)

    def _thief_take(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        take = Choose(option=Option.TAKE_CARD)
        coins = Choose(option=Option.TAKE_COINS)
        # A stolen bribe is a free messenger this turn if there is a character to send it through.
        if take in legal and not ctx.final and len(_send_vias(ctx)) > len(ctx.hand):
            return take
        return coins if coins in legal else fallback(legal)

    def _recruit(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        recruit = Choose(option=Option.RECRUIT)
        return recruit if recruit in legal and not ctx.final else fallback(legal)

    def _rare_gift(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        pay = Choose(option=Option.PAY)
        # One more token for 2 coins is cheaper than any other token.
        return pay if pay in legal and ctx.coins - 2 >= ctx.tax_due() else fallback(legal)

    # ------------------------------------------------------------------ growth (D8)
    def _growth(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        lands = [a for a in legal if isinstance(a, PickLand)]
        if not lands:
            return fallback(legal)
        # Growth costs this turn's income of the land and pays +1 every later turn; it also moves the
        # land towards the Will of the people and away from the Military coup, which the board's
        # value weighs (a grown military land may cost its coup, or break a rival's).
        base = ctx.value(ctx.board)
        later = ctx.turns_left
        best: tuple[float, int, Any] | None = None
        for action in lands:
            peaceful, military = ctx.board.pop[action.land]
            if later < 2 * peaceful or ctx.coins < 6:
                continue
            after = ctx.board.copy()
            after.pop = {**after.pop, action.land: (peaceful + 1, military)}
            gain = ctx.evaluate(after) - base
            if gain > -MIN_GAIN and (best is None or (gain, -peaceful) > (best[0], best[1])):
                best = (gain, -peaceful, action)
        return best[2] if best is not None else fallback(legal)

    # ------------------------------------------------------------------ investments (D9)
    def _invest(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        free = self._free_action(ctx, legal, bribes=True)
        if free is not None:
            return free
        wanted = self._basket(ctx)
        have = [(it.step, it.land if it.step == "invest" else it.merc) for it in _items(ctx.view)]
        for i, item in enumerate(wanted):
            if i < len(have):
                if have[i] != item:
                    break
                continue
            action: Any = PickLand(land=int(item[1])) if item[0] == "invest" else PickType(merc=MercType(item[1]))
            if action in legal:
                return action
            break
        if _DONE in legal:
            return _DONE
        return _SKIP if _SKIP in legal else fallback(legal)

    def _basket(self, ctx: Ctx) -> list[tuple[str, Any]]:
        """Return the basket the AI wants: hires first, then investments, within its spare coins."""
        coins = ctx.coins - ctx.tax_due()
        basket: list[tuple[str, Any]] = []
        discount = _woods_discount(ctx)
        if not ctx.final:
            first = True
            for merc in self._hires(ctx):
                cost = MERCENARY_COST - (1 if discount and first else 0)
                if coins < cost:
                    break
                if ctx.view.in_stock is not None and merc not in ctx.view.in_stock:
                    # A spy stands in for a thief (it stops a bribe or an assassin, not a gift).
                    merc = MercType.SPY if merc is MercType.THIEF else MercType.MESSENGER
                    if merc not in ctx.view.in_stock:
                        continue
                basket.append(("hire", merc))
                coins -= cost
                first = False
        board = ctx.board.copy()
        tax = ctx.tax_due(board)
        while coins >= INVEST_COST:
            best = ctx.best_land(board, ctx.lands)
            if best is None or (best[0] < INVEST_COST * ctx.coin and not ctx.final):
                break
            board.land[best[1]][ctx.me] += 1
            # Holding one more land adds its tax to this turn's bill.
            more = ctx.tax_due(board) - tax
            if coins < INVEST_COST + more:
                break
            basket.append(("invest", best[1]))
            coins -= INVEST_COST + more
            tax += more
        return basket

    def _hires(self, ctx: Ctx) -> list[MercType]:
        """Return the cards worth hiring now: the best targets paired with the cheapest senders.

        Each target is worth its best card (a messenger, or an assassin where a kill pays well, at
        most one a turn; a guard on a held councillor under threat); the best targets go with the
        cheapest markers, and a pair is hired when it gains more than the card costs. Cards in hand
        fill the first pairs.
        """
        markers = sorted(min(_marker_cost(ctx, v, s) for s in _sources(ctx, v)) for v in _send_vias(ctx))
        wanted: list[tuple[float, int, MercType]] = []
        for c in sorted(ctx.expected.office):
            gain, _ = self._target_gain(ctx, c, MercType.MESSENGER)
            best = (gain, -c, MercType.MESSENGER)
            kill, _ = self._target_gain(ctx, c, MercType.ASSASSIN)
            if ctx.turns_left >= 1 and kill >= 4.0 and kill > gain:
                best = (kill, -c, MercType.ASSASSIN)
            wanted.append(best)
        threatened = self._threatened(ctx)
        if threatened is not None:
            wanted.append((self._target_gain(ctx, threatened, MercType.GUARD)[0], 0, MercType.GUARD))
        if ctx.turns_left >= 1:
            # A thief sent this turn exposes a rival's card in the next Spies & Thieves, before it acts.
            wanted.append((self._target_gain(ctx, ANYWHERE, MercType.THIEF)[0], 1, MercType.THIEF))
        wanted.sort(reverse=True)
        out: list[MercType] = []
        assassin = False
        for (gain, _, merc), marker in zip(wanted, markers, strict=False):
            if gain - marker <= MERCENARY_COST * ctx.coin:
                break
            if merc is MercType.ASSASSIN and assassin:
                merc = MercType.MESSENGER
            assassin = assassin or merc is MercType.ASSASSIN
            out.append(merc)
        return out[len(ctx.hand) :]

    def _threatened(self, ctx: Ctx) -> int | None:
        """Return a councillor the AI holds that carries rival face-down cards and no guard of its own."""
        for c in sorted(ctx.council):
            if not ctx.controls(c):
                continue
            rivals = any(card.character == c and card.owner != ctx.me for card in ctx.view.cards)
            guarded = any(card.character == c and card.merc is MercType.GUARD for card in ctx.my_cards)
            if rivals and not guarded:
                return c
        return None

    # ------------------------------------------------------------------ action slots (D10)
    def _slot(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        pending = ctx.view.pending
        draft = ctx.view.draft
        if pending is not None and pending.step == "act":
            return self._act(ctx, legal, pending.character or 0)
        if draft is not None and draft.step == "bid":
            contest = _item(draft.items, "contest")
            head = contest.character if contest is not None else None
            bid = PickAmount(amount=self._contest(ctx, head)[1]) if head is not None else None
            return bid if bid in legal else fallback(legal)
        free = self._free_action(ctx, legal, bribes=True)
        if free is not None:
            return free
        options = [a.character for a in legal if isinstance(a, PickCharacter)]
        plans = [p for c in options for p in self._plans(ctx, c)]
        best_act = max(plans, key=lambda p: (p.value, -p.character)) if plans else None
        contests = [(self._contest(ctx, a.character), a) for a in legal if isinstance(a, ContestHead)]
        best_contest = max(contests, key=lambda x: (x[0][0], -x[1].character)) if contests else None
        act_value = best_act.value if best_act is not None else MIN_GAIN
        if best_contest is not None and best_contest[0][0] > max(act_value, MIN_GAIN) and best_contest[0][1] >= 1:
            return best_contest[1]
        if best_act is not None and best_act.value > MIN_GAIN:
            return PickCharacter(character=best_act.character)
        return fallback(legal)

    def _contest(self, ctx: Ctx, head: int) -> tuple[float, int]:
        """Return what contesting the tied ``head`` is worth and the bid for it (§7.5).

        Bids are land tokens of the head's land, all discarded: it bids one more than the most any
        other tied-top player could bid when it can, and counts a tie it might meet as half a win.
        """
        land = ctx.land_of.get(head)
        if land is None:
            return -1.0, 0
        row = ctx.board.land[land]
        mine = row[ctx.me]
        rivals = [s for s in ctx.chars[head].tied_top if s != ctx.me]
        most = max((row[s] for s in rivals), default=0)
        bid = min(mine, most + 1)
        if bid < 1:
            return -1.0, 0
        chance = 1.0 if bid > most else 0.5
        after = ctx.after_losing(land, bid)
        cost = ctx.value(ctx.board) - after.value(after.board)
        # The head acts after the bid is paid: plan its action on that board.
        plans = [p for p in self._plans(after, head) if p.action is not CharAction.LEND]
        best = max((p.value for p in plans), default=0.0)
        return chance * best - cost, bid

    def _act(self, ctx: Ctx, legal: list[Any], character: int) -> Any:
        """Pick the next parameter of the best plan through ``character``."""
        draft = ctx.view.draft
        step = draft.step if draft is not None else "action"
        items = _items(ctx.view)
        first = _item(items, "action")
        plans = self._plans(ctx, character, fixed=first.action if first is not None else None, items=items)
        if step == "action":
            plans = [p for p in plans if PickAction(action=p.action, rider=p.rider) in legal]
        plan = max(plans, key=lambda p: p.value) if plans else None
        if step == "action":
            if plan is None or plan.value <= MIN_GAIN:
                return self._harmless(legal)
            action = PickAction(action=plan.action, rider=plan.rider)
            return action if action in legal else self._harmless(legal)
        if plan is None:
            return self._finish_any(ctx, legal, step)
        chosen: Any = None
        if step == "card":
            chosen = PickCard(card=plan.card or "")
        elif step == "target":
            chosen = PickCharacter(character=plan.target or 0)
        elif step == "source":
            chosen = Choose(option=plan.source or Option.FROM_LAND)
        elif step == "mode":
            chosen = PickMode(mode=plan.mode or Mode.GIFT)
        elif step == "land":
            chosen = PickLand(land=plan.land or 0)
        elif step == "seat":
            chosen = PickSeat(seat=plan.seat if plan.seat is not None else ctx.me)
        elif step == "subject":
            chosen = PickCharacter(character=plan.target or 0)
        elif step == "extra":
            chosen = self._river_extra(ctx, legal, plan)
        elif step in ("from", "to"):
            chosen = self._military_step(ctx, step, plan)
        elif step == "borrower":
            chosen = PickSeat(seat=plan.seat if plan.seat is not None else ctx.me)
        elif step == "price":
            chosen = PickAmount(amount=plan.amount or 0)
        elif step == "target_card":
            chosen = self._pick_rival_card(ctx, legal)
        if chosen is not None and chosen in legal:
            return chosen
        return self._finish_any(ctx, legal, step)

    def _military_step(self, ctx: Ctx, step: str, plan: Plan) -> Any:
        """Return the next pick of the planned military moves (the draft says which are made)."""
        made = [it.land for it in _items(ctx.view) if it.step in ("from", "to")]
        flat = [land for move in plan.moves for land in move]
        if made != flat[: len(made)]:
            return None
        if len(made) >= len(flat):
            return _DONE if step == "from" else None
        return PickLand(land=flat[len(made)])

    def _harmless(self, legal: list[Any]) -> Any:
        """Return an action step's least harmful choice when no plan is worth it."""
        for action in (CharAction.GRANT, CharAction.BLESS, CharAction.ELECTION):
            pick = PickAction(action=action)
            if pick in legal:
                return pick
        return fallback(legal)

    def _finish_any(self, ctx: Ctx, legal: list[Any], step: str) -> Any:
        """Complete an action whose plan no longer fits: the first forward pick, never ``Back``."""
        if step == "from" and _DONE in legal:
            return _DONE
        if step == "seat" and PickSeat(seat=ctx.me) in legal:
            return PickSeat(seat=ctx.me)
        if step == "price":
            amounts = [a for a in legal if isinstance(a, PickAmount)]
            if amounts:
                return max(amounts, key=lambda a: a.amount)
        if step == "extra":
            amounts = [a for a in legal if isinstance(a, PickAmount)]
            if amounts:
                return min(amounts, key=lambda a: a.amount)
        forward = [a for a in legal if a != _BACK and (_is_source(a) or not isinstance(a, Pass | Skip | Choose))]
        return forward[0] if forward else fallback(legal)

    def _river_extra(self, ctx: Ctx, legal: list[Any], plan: Plan) -> Any:
        amounts = sorted((a for a in legal if isinstance(a, PickAmount)), key=lambda a: a.amount)
        if not amounts:
            return None
        target = plan.target or 0
        per = GREEDY_EXTRA_COST if has_trait(target, Trait.GREEDY) else BRIBE_EXTRA_COST
        spare = ctx.coins - ctx.tax_due()
        best = amounts[0]
        for a in amounts:
            if a.amount * per <= spare and (a.amount <= 2 or ctx.final):
                best = a
        return best

    def _pick_rival_card(self, ctx: Ctx, legal: list[Any]) -> Any:
        cards = [a for a in legal if isinstance(a, PickCard)]
        return cards[0] if cards else None

    # ------------------------------------------------------------------ planning main actions
    def _plans(
        self, ctx: Ctx, c: int, fixed: CharAction | None = None, items: tuple[DraftItem, ...] = ()
    ) -> list[Plan]:
        """Return every worthwhile plan through character ``c`` (``fixed``: the action already picked)."""
        if c not in ctx.board.office:
            return []
        plans: list[Plan] = []
        ch = ctx.chars[c]
        seat_index = ch.council
        in_council = c in ctx.council
        picked_card = _item(items, "card")
        picked_target = _item(items, "target")

        def want(action: CharAction) -> bool:
            return fixed is None or fixed is action

        if in_council and want(CharAction.ELECTION):
            seats = ctx.view.players[ctx.me].council_seats
            plans.append(Plan(1000.0 if seats >= 4 else 0.0, c, CharAction.ELECTION))
        if seat_index is not None and seat_index.value == "marshal" and want(CharAction.MOVE_MILITARY):
            plan = self._military_plan(ctx, c)
            if plan is not None:
                plans.append(plan)
        if seat_index is not None and seat_index.value == "treasurer" and want(CharAction.GRANT):
            plans.append(Plan(2 * ctx.coin + 0.1, c, CharAction.GRANT, seat=ctx.me))
        if seat_index is not None and seat_index.value == "bishop" and want(CharAction.BLESS):
            best = ctx.best_land(ctx.expected, ctx.lands)
            if best is not None:
                plans.append(Plan(best[0], c, CharAction.BLESS, land=best[1]))
        if in_council and want(CharAction.REMOVE_HEAD):
            plans.extend(self._removal_plans(ctx, c, CharAction.REMOVE_HEAD))
        if ch.status is CharStatus.HEAD and want(CharAction.REMOVE_COUNCILLOR):
            plans.extend(self._removal_plans(ctx, c, CharAction.REMOVE_COUNCILLOR))
        if ch.status is CharStatus.HEAD and ch.land == EMPTY_HILLS and want(CharAction.HILLS) and ctx.margin(c) >= 2:
            plans.append(Plan(2 * ctx.coin - TOKEN_HEAD, c, CharAction.HILLS))
        if want(CharAction.SEND) and not ctx.final:
            plans.extend(self._send_plans(ctx, c, picked_card, picked_target))
        if ch.status is CharStatus.HEAD and ch.land == RIVER_HORSESHOE and want(CharAction.RIVER_PLAY):
            plans.extend(self._river_plans(ctx, c, picked_card, picked_target))
        if want(CharAction.LEND) and not ctx.final:
            plan = self._lend_plan(ctx, c, plans)
            if plan is not None:
                plans.append(plan)
        return plans

    def _military_plan(self, ctx: Ctx, marshal: int) -> Plan | None:
        """Plan the Военачальник's move of up to 2 military tokens: the pair that leaves the best board.

        Moving military changes which lands count for the Military coup (M ≥ P) and the Will of the
        people (M ≤ P): it builds the AI's own condition and breaks a rival's.
        """
        board = ctx.expected
        base = ctx.value(board)
        cells = {land.id: land.cells for land in ctx.view.lands}

        def moves_from(b: Board) -> list[tuple[int, int]]:
            out = []
            for src, (_, mil) in b.pop.items():
                if mil <= 0:
                    continue
                for dst, (p, m) in b.pop.items():
                    if dst != src and p + m < cells[dst]:
                        out.append((src, dst))
            return out

        def moved(b: Board, src: int, dst: int) -> Board:
            after = b.copy()
            pop = dict(after.pop)
            p, m = pop[src]
            pop[src] = (p, m - 1)
            p, m = pop[dst]
            pop[dst] = (p, m + 1)
            after.pop = pop
            return after

        best: tuple[float, tuple[tuple[int, int], ...]] = (0.0, ())
        firsts = sorted(((ctx.evaluate(moved(board, *mv)), mv) for mv in moves_from(board)), reverse=True)[:4]
        for value, first in firsts:
            if value - base > best[0]:
                best = (value - base, (first,))
            once = moved(board, *first)
            for second in moves_from(once):
                gain = ctx.evaluate(moved(once, *second)) - base
                if gain > best[0] + 1e-9:
                    best = (gain, (first, second))
        if not best[1]:
            return None
        return Plan(best[0], marshal, CharAction.MOVE_MILITARY, moves=best[1])

    def _lend_plan(self, ctx: Ctx, via: int, plans: list[Plan]) -> Plan | None:
        """Offer ``via``'s send to the weakest rival for a price when the AI cannot use it better.

        The seed's own example (Матей) is a paid lend; the borrower's card may hurt the AI, so it
        lends only to the rival furthest behind and only when no plan of its own through ``via`` pays.
        """
        if any(p.value > MIN_GAIN for p in plans) or ctx.view.phase is not Phase.CHARACTERS:
            return None
        tokens = ctx.board.char[via]
        borrowers = [
            q
            for q in ctx.others
            if tokens[q] >= 1 and ctx.view.players[q].hand_size > 0 and ctx.view.players[q].coins >= LEND_PRICE
        ]
        if not borrowers:
            return None
        weakest = min(borrowers, key=lambda q: (ctx.view.players[q].score, q))
        if weakest == ctx.leader() and len(ctx.others) > 1:
            return None
        gain = 2 * LEND_PRICE * ctx.coin - LEND_HARM * FIELD_WEIGHT * 10
        if gain <= MIN_GAIN:
            return None
        return Plan(gain, via, CharAction.LEND, seat=weakest, amount=LEND_PRICE)

    def _send_plans(
        self, ctx: Ctx, via: int, picked_card: DraftItem | None, picked_target: DraftItem | None
    ) -> list[Plan]:
        plans: list[Plan] = []
        sources = _sources(ctx, via)
        marker = min(((_marker_cost(ctx, via, s), s.value) for s in sources), default=None)
        seen: set[MercType] = set()
        for card in ctx.hand:
            if picked_card is not None and picked_card.card != card.id:
                continue
            if picked_card is None and card.merc in seen:
                continue
            seen.add(card.merc)
            for target in sorted(ctx.board.office):
                if picked_target is not None and picked_target.character != target:
                    continue
                if target == via and card.merc is not MercType.GUARD:
                    continue
                gain, mode = self._target_gain(ctx, target, card.merc)
                if target == via:
                    plans.append(Plan(gain, via, CharAction.SEND, card=card.id, target=target, mode=mode))
                    continue
                if marker is None:
                    continue
                cost, source = marker
                plans.append(
                    Plan(
                        gain - cost, via, CharAction.SEND, card=card.id, target=target, source=Option(source), mode=mode
                    )
                )
        return plans

    def _target_gain(self, ctx: Ctx, target: int, merc: MercType) -> tuple[float, Mode | None]:
        """Return what a ``merc`` sent onto ``target`` is expected to be worth, and the messenger's mode."""
        key = (target, merc)
        if key not in ctx._targets:
            ctx._targets[key] = self._target_gain_uncached(ctx, target, merc)
        return ctx._targets[key]

    def _target_gain_uncached(self, ctx: Ctx, target: int, merc: MercType) -> tuple[float, Mode | None]:
        board = ctx.expected
        if target not in board.office and not (target == ANYWHERE and merc in (MercType.SPY, MercType.THIEF)):
            return -1.0, None
        if merc is MercType.MESSENGER:
            mode = _mode_for(ctx, target)
            tokens = ctx.delivered(target, mode)
            if tokens <= 0:
                return -1.0, mode
            return SURVIVAL * ctx.char_gain(board, target, tokens), mode
        if merc is MercType.ASSASSIN:
            if ctx.controls(target) or ctx.view.kills + 1 >= ctx.view.kills_to_end:
                # The fifth kill is judged when it is revealed; a sent assassin keeps the option.
                gain = 1.0 if not ctx.controls(target) and ctx.turns_left >= 1 else -5.0
                if gain > 0 and ctx.first_after_kill(target):
                    # Ranked first if it died now: an assassin kept on it can end the game when revealed.
                    gain = HAND_SEND
                return gain, None
            return SURVIVAL * ctx.kill_gain(board, target), None
        if merc is MercType.GUARD:
            # A guard answers a rival assassin (or thief) there and pays its owner tokens.
            if not ctx.controls(target):
                return -0.5, None
            rivals = any(card.character == target and card.owner != ctx.me for card in ctx.view.cards)
            guarded = any(card.character == target and card.merc is MercType.GUARD for card in ctx.my_cards)
            if guarded:
                return 0.0, None
            worth = 1.5 if target in ctx.council else 0.6
            return (worth if rivals else worth / 3), None
        # Spy or thief: it may expose any rival card, so where it lies matters only for garrisons, which
        # reveal cards on heads and never on councillors (ANYWHERE: not sent yet, weighed for hiring).
        if target == ANYWHERE:
            in_hand = sum(1 for card in ctx.hand if card.merc in (MercType.SPY, MercType.THIEF))
            worth = ctx.agent_worth(max(0, in_hand - 1))
        else:
            worth = ctx.agent_worth()
        if merc is MercType.SPY:
            # An exposed gift is delivered all the same: a spy stops about half the messengers.
            worth *= 0.6
        if target != ANYWHERE and target not in ctx.council:
            worth *= AGENT_ON_HEAD
        return worth, None

    def _river_plans(
        self, ctx: Ctx, via: int, picked_card: DraftItem | None, picked_target: DraftItem | None
    ) -> list[Plan]:
        plans: list[Plan] = []
        for card in ctx.hand:
            if card.merc is MercType.GUARD or (picked_card is not None and picked_card.card != card.id):
                continue
            for target in sorted(ctx.board.office):
                if target == via or (picked_target is not None and picked_target.character != target):
                    continue
                who = ctx.chars[target].controller
                consent = 1.0 if who == ctx.me else 0.4 if who is not None else 0.0
                if consent <= 0.0:
                    continue
                if card.merc is MercType.MESSENGER:
                    mode = Mode.GIFT
                    gain = ctx.char_gain(ctx.board, target, ctx.delivered(target, mode))
                    plans.append(
                        Plan(consent * gain, via, CharAction.RIVER_PLAY, card=card.id, target=target, mode=mode)
                    )
                elif card.merc is MercType.ASSASSIN and who != ctx.me:
                    gain = ctx.kill_gain(ctx.board, target)
                    plans.append(Plan(consent * gain, via, CharAction.RIVER_PLAY, card=card.id, target=target))
                elif card.merc in (MercType.SPY, MercType.THIEF):
                    rivals = [x for x in ctx.view.cards if x.character == target and x.owner != ctx.me]
                    if rivals:
                        plans.append(Plan(consent * 0.5, via, CharAction.RIVER_PLAY, card=card.id, target=target))
        return plans

    def _removal_plans(self, ctx: Ctx, via: int, action: CharAction) -> list[Plan]:
        """Plan a removal vote it can carry: an opponent's head (council vote) or councillor (land vote)."""
        plans: list[Plan] = []
        if action is CharAction.REMOVE_HEAD:
            subjects = [c for c in ctx.board.office if ctx.chars[c].status is CharStatus.HEAD and c != via]
            voters = list(ctx.council)
            needed = 3
        else:
            subjects = [c for c in ctx.permanent if c is not None]
            voters = [c for c in ctx.board.office if ctx.chars[c].status is CharStatus.HEAD]
            needed = ctx.view.removal_votes_needed
        for subject in subjects:
            who = ctx.chars[subject].controller
            if who is None or who == ctx.me:
                continue
            # Every seat but the subject's controller gains by a rival's removal and votes For; a
            # neutral councillor votes its disposition, a neutral head does not vote (§11.1).
            fors = 0
            for v in voters:
                if v == subject:
                    continue
                voter_seat = ctx.chars[v].controller
                if voter_seat is not None:
                    fors += voter_seat != who
                elif action is CharAction.REMOVE_HEAD:
                    fors += ctx.chars[v].disposition.value == Side.FOR.value
            if fors < needed:
                continue
            mine = sum(1 for v in voters if v != subject and ctx.controls(v))
            after = ctx.board.copy()
            after.office.discard(subject)
            gain = ctx.evaluate(after) - ctx.value(ctx.board)
            # Votes it does not cast itself may still be swayed away: a smaller expected gain.
            sure = 0.8 if mine >= needed else 0.5
            plans.append(Plan(gain * sure, via, action, target=subject))
        return plans

    # ------------------------------------------------------------------ contests and lending (D11, D12)
    def _contest_bid(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        # All bids are discarded. Against the strongest rival a bid that matches the most it can
        # have bid (a tie leaves the head idle) is worth a land token or two; otherwise it keeps them.
        pending = ctx.view.pending
        if pending is None or pending.character is None or pending.actor is None:
            return fallback(legal)
        land = ctx.land_of.get(pending.character)
        if land is None or pending.actor != ctx.leader():
            return fallback(legal)
        row = ctx.board.land[land]
        bid = min(row[ctx.me], row[pending.actor], 2)
        action = PickAmount(amount=bid)
        return action if action in legal else fallback(legal)

    def _lend(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        pending = ctx.view.pending
        if pending is not None and pending.step == "act":
            return self._act(ctx, legal, pending.character or 0)
        accept = Choose(option=Option.ACCEPT)
        price = pending.amount if pending is not None and pending.amount is not None else 0
        if accept in legal and pending is not None and pending.character is not None:
            plans = self._send_plans(ctx, pending.character, None, None)
            best = max((p.value for p in plans), default=0.0)
            # The price goes to a rival: it counts twice (its coins lost, theirs gained).
            if best - 2 * price * ctx.coin > 1.0:
                return accept
        return fallback(legal)

    # ------------------------------------------------------------------ votes (D13–D15)
    def _side(self, ctx: Ctx, voter: int | None) -> Side:
        """Return the side the AI wants in the current removal vote (``voter`` adds its own trait)."""
        vote = ctx.view.vote
        if vote is None or vote.subject is None:
            return Side.ABSTAIN
        subject = vote.subject
        who = ctx.chars[subject].controller
        if who == ctx.me:
            side = Side.AGAINST
        elif vote.caller == ctx.me or who is not None:
            side = Side.FOR
        elif ctx.mine(subject) > 0 and ctx.margin(subject) >= 0:
            side = Side.AGAINST
        else:
            side = Side.ABSTAIN
        if voter is None or ctx.chars[voter].controller != ctx.me:
            return side
        envious = has_trait(voter, Trait.ENVIOUS)
        noble = has_trait(voter, Trait.NOBLE)
        proud = has_trait(voter, Trait.PROUD)
        loss = 2 if proud else 1
        if side is Side.ABSTAIN:
            if envious:
                return Side.FOR
            if noble:
                return Side.AGAINST
        # A vote that would cost the AI its control of the voter is not cast.
        if side is Side.FOR and noble and ctx.margin(voter) <= loss:
            return Side.ABSTAIN
        if side is Side.AGAINST and envious and ctx.margin(voter) <= loss:
            return Side.ABSTAIN
        return side

    def _candidate(self, ctx: Ctx, candidates: Iterable[int]) -> int | None:
        """Return the appointment candidate the AI backs (one it controls, else its best margin)."""
        best: tuple[int, int, int] | None = None
        for c in candidates:
            key = (ctx.margin(c), ctx.mine(c), -c)
            if best is None or key > best:
                best = key
        if best is None or best[0] <= 0:
            return None
        return -best[2]

    def _ballot(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        draft = ctx.view.draft
        vote = ctx.view.vote
        if draft is None or vote is None or ":" not in draft.step:
            return fallback(legal)
        kind, _, raw = draft.step.partition(":")
        voter = int(raw)
        if vote.vote is VoteKind.APPOINT:
            pick = self._candidate(ctx, vote.candidates)
            action: Any = PickCharacter(character=pick) if pick is not None else PickSide(side=Side.ABSTAIN)
            return action if action in legal else fallback(legal)
        side = self._side(ctx, voter if kind == "vote" else None)
        if kind == "pref" and side is Side.ABSTAIN:
            side = Side.NONE
        action = PickSide(side=side)
        return action if action in legal else fallback(legal)

    def _sapphire(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        vote = ctx.view.vote
        draft = ctx.view.draft
        if vote is None:
            return fallback(legal)
        if vote.vote is VoteKind.APPOINT:
            pick = self._candidate(ctx, vote.candidates)
            want: Any = PickCharacter(character=pick) if pick is not None else None
        else:
            side = self._side(ctx, None)
            want = PickSide(side=side) if side in (Side.FOR, Side.AGAINST) else None
        if want is None:
            return fallback(legal)
        if draft is None or draft.step == "voter":
            voters = [a for a in legal if isinstance(a, PickCharacter)]
            return voters[0] if voters else fallback(legal)
        return want if want in legal else fallback(legal)

    def _sway(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        """Sway the remaining neutral voters when the vote would otherwise go the wrong way (§11.3).

        The whole round's commitments are planned from the view each time; the draft says which
        picks are made, and the next one is returned.
        """
        plan = self._sway_plan(ctx)
        picks: list[Any] = []
        council_vote = ctx.view.vote is not None and ctx.view.vote.vote is VoteKind.REMOVE_HEAD
        for voter, how, side in plan:
            picks.append(PickCharacter(character=voter))
            picks.append(PickCharacter(character=how) if council_vote else PickAmount(amount=how))
            picks.append(PickSide(side=side))
        made = len(_items(ctx.view))
        if made < len(picks):
            action = picks[made]
            if action in legal:
                return action
        if made and made == len(picks) and _DONE in legal:
            return _DONE
        return _SKIP if _SKIP in legal else fallback(legal)

    def _projected(self, ctx: Ctx) -> tuple[int, list[tuple[int, dict[str, int]]]]:
        """Return the For votes the current vote is heading for, and the open neutral voters' tallies."""
        vote = ctx.view.vote
        assert vote is not None  # noqa: S101 - called inside a vote
        fors = 0
        open_voters: list[tuple[int, dict[str, int]]] = []
        for voter in vote.voters:
            tally = dict(voter.tally)
            if voter.vote is not None:
                fors += voter.vote == Side.FOR.value
                continue
            open_voters.append((voter.character, tally))
            top = max(tally.values(), default=0)
            best = [k for k, v in tally.items() if v == top]
            if top > 0 and len(best) == 1:
                fors += best[0] == Side.FOR.value
            elif vote.vote is VoteKind.REMOVE_HEAD:
                fors += ctx.chars[voter.character].disposition.value == Side.FOR.value
        return fors, open_voters

    def _sway_plan(self, ctx: Ctx) -> list[tuple[int, int, Side]]:
        """Return this round's commitments: (voter, advising head or stake, side), cheapest first."""
        vote = ctx.view.vote
        if vote is None or vote.vote is VoteKind.APPOINT or vote.subject is None:
            return []
        side = self._side(ctx, None)
        if side not in (Side.FOR, Side.AGAINST):
            return []
        fors, open_voters = self._projected(ctx)
        passes = fors >= vote.needed
        if passes == (side is Side.FOR):
            return []
        flips = vote.needed - fors if side is Side.FOR else fors - vote.needed + 1
        want = side.value
        other = Side.AGAINST.value if side is Side.FOR else Side.FOR.value
        council_vote = vote.vote is VoteKind.REMOVE_HEAD
        costs: list[tuple[int, int]] = []
        for voter, tally in open_voters:
            mine, theirs = tally.get(want, 0), tally.get(other, 0)
            top = max(tally.values(), default=0)
            leading = [k for k, v in tally.items() if v == top]
            if top > 0 and leading == [want]:
                continue
            if not council_vote or top > 0:
                current = other if top > 0 and leading == [other] else None
            else:
                current = ctx.chars[voter].disposition.value
            if side is Side.FOR and current == want:
                continue
            if side is Side.AGAINST and current != other:
                continue
            costs.append((theirs - mine + 1, voter))
        costs.sort()
        after = ctx.board.copy()
        after.office.discard(vote.subject)
        stake = ctx.evaluate(after) - ctx.value(ctx.board)
        worth = stake if side is Side.FOR else -stake
        out: list[tuple[int, int, Side]] = []
        spent = 0.0
        used_heads = set(vote.used_heads)
        staked: dict[int, int] = {}
        for need, voter in costs[: max(0, flips)]:
            if council_vote:
                heads = self._advisers(ctx, voter, used_heads, need)
                if heads is None:
                    return []
                for head, cost in heads:
                    used_heads.add(head)
                    spent += cost
                    out.append((voter, head, side))
            else:
                land = ctx.land_of.get(voter)
                have = 0 if land is None else ctx.board.land[land][ctx.me] - staked.get(land, 0)
                if land is None or have < need:
                    return []
                staked[land] = staked.get(land, 0) + need
                spent -= ctx.land_gain(ctx.board, land, -need)
                out.append((voter, need, side))
        if len(out) == 0 or spent >= 0.8 * worth:
            return []
        return out

    def _advisers(self, ctx: Ctx, voter: int, used: set[int], need: int) -> list[tuple[int, float]] | None:
        """Return ``need`` heads the AI can advise through (each with its token's cost), or ``None``."""
        options: list[tuple[float, int]] = []
        brothers = ctx.head_of.get(THE_BROTHERS)
        for head in sorted(ctx.board.office):
            if ctx.chars[head].status is not CharStatus.HEAD or head == voter or head in used:
                continue
            if ctx.mine(head) < 1:
                continue
            if head == brothers and ctx.controls(head):
                options.append((0.0, head))
                continue
            # A rival that holds more tokens on the head wins the advice through it (§11.3).
            if ctx.margin(head) < 0:
                continue
            options.append((-ctx.char_gain(ctx.board, head, -1), head))
        options.sort()
        if len(options) < need:
            return None
        return [(head, cost) for cost, head in options[:need]]

    # ------------------------------------------------------------------ appointments, penalties (D16, D17)
    def _appoint(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        picks = [a for a in legal if isinstance(a, PickCharacter)]
        if not picks:
            return fallback(legal)
        return max(picks, key=lambda a: (ctx.margin(a.character), ctx.mine(a.character), -a.character))

    def _penalty(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        picks = [a for a in legal if isinstance(a, PickCharacter)]
        if not picks:
            return fallback(legal)
        return max(picks, key=lambda a: (ctx.char_gain(ctx.board, a.character, -1), -a.character))

    # ------------------------------------------------------------------ Речная Подкова consent (D18)
    def _river_consent(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        # An unknown card of a rival on its own character is far more often a threat than a favour.
        return fallback(legal)

    # ------------------------------------------------------------------ Lands II (D19, D20)
    def _vale_tax(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        vale = ctx.lands.get(VALE_OF_ARROWS)
        payers = set() if vale is None else ({vale.holder} if vale.holder is not None else set(vale.contested))
        high = PickAmount(amount=2)
        if high in legal and payers and ctx.me not in payers:
            return high
        low = PickAmount(amount=1)
        return low if low in legal else fallback(legal)

    def _garrison(self, ctx: Ctx, legal: list[Any], rng: GameRng) -> Any:
        pending = ctx.view.pending
        head = pending.character if pending is not None else None
        cards = [a for a in legal if isinstance(a, PickCard)]
        # A revealed messenger or guard costs a head token, a thief, assassin or spy pays one:
        # search while the head can afford a loss.
        if head is not None and cards and ctx.margin(head) >= 2:
            return cards[0]
        return _DONE if _DONE in legal else fallback(legal)


# ----------------------------------------------------------------------------- small helpers
def _is_source(action: Any) -> bool:
    return isinstance(action, Choose) and action.option in (Option.FROM_CHARACTER, Option.FROM_LAND)


def _sources(ctx: Ctx, via: int) -> list[Option]:
    out = []
    if ctx.board.char[via][ctx.me] >= 1:
        out.append(Option.FROM_CHARACTER)
    land = ctx.land_of.get(via)
    if land is not None and ctx.board.land[land][ctx.me] >= 1:
        out.append(Option.FROM_LAND)
    return out


def _marker_cost(ctx: Ctx, via: int, source: Option) -> float:
    """Return what moving one own token off ``via`` (or its land) onto a card costs."""
    board = ctx.expected
    if source is Option.FROM_LAND:
        land = ctx.land_of.get(via)
        if land is None:
            return 99.0
        return -ctx.land_gain(board, land, -1)
    # A character token costs two land tokens to rebuild (conversion), so it is dearer to spend.
    return -ctx.char_gain(board, via, -1) + REBUILD


def _send_vias(ctx: Ctx) -> list[int]:
    """Return the characters the AI controls, has not used this turn and could send through."""
    out = []
    for c in sorted(ctx.board.office):
        ch = ctx.chars[c]
        if ch.controller != ctx.me or (ch.acted and ctx.view.phase is Phase.CHARACTERS):
            continue
        if _sources(ctx, c):
            out.append(c)
    return out


def _mode_for(ctx: Ctx, target: int) -> Mode:
    """Return a messenger's mode: a bribe where extra tokens may follow, a gift where a bribe is poor."""
    if (
        has_trait(target, Trait.INCORRUPTIBLE)
        or has_trait(target, Trait.COLLECTOR)
        or has_trait(target, Trait.GREEDY)
        or ctx.turns_left < 1
    ):
        return Mode.GIFT
    return Mode.BRIBE


def _woods_discount(ctx: Ctx) -> bool:
    """Return whether the AI's first hire this turn costs 2 (Залесье, public facts)."""
    land = ctx.lands.get(BEYOND_THE_WOODS)
    if land is None or ctx.view.players[ctx.me].hired_this_turn:
        return False
    head = land.head
    return (head is not None and ctx.chars[head].controller == ctx.me) or land.tokens[ctx.me] >= 3
