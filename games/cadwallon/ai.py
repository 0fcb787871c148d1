"""An AI for «Гильдии Кадвалона» that plays from its own seat's view and the legal actions only.

It never sees the state: everything comes from :class:`~games.cadwallon.models.CadwallonView`
(the grid, the agents, every captured and played card, its own hand and contract) and the legal
actions it is handed. Its decisions:

- **What a card is worth to a seat.** Each seat's captured cards are scored the way the engine
  scores them (guild points times cards, personalities where they add most, Creditors, militia,
  actions, the condition), and a grid card is worth what it adds to that score. Guild members and
  militia still in the deck raise the stakes a little: a guild's first card is worth more than its
  points because later members multiply with it, and a Creditor's +5 counts with the chance of
  completing its guild. Only its own contract counts, credited by how far the
  seat leads the best other seat on what the contract measures (revision 2 contracts compare with
  the table). A card an opponent would take counts against it, most of all for the leader.
- **Placing an agent.** It imagines the rest of the Deploy phase many times: the other seats place
  half their agents where a quick estimate says they gain most themselves (recomputed beside each
  boulevard it tries, so their answer to its agent is foreseen; a militia they would win counts as
  a loss, so they keep away from it unless every boulevard left loses) and the rest on free
  boulevards at random, its own later agents go where a quick estimate of support likes them best, and Capture
  is judged exactly as the rules do (ties stay, marks, Arbitration, Precedence). Imagining every
  other seat at random made a free card that the next seat can tie or outbid look as safe as a
  card won outright, so a late placer claimed leftovers instead of outbidding a card an opponent
  leads and can no longer defend. The free boulevards the quick estimate likes best are tried on the
  same imagined futures and the weaker half dropped stage by stage; it keeps the boulevard whose
  futures are worth most. So it
  backs the cards worth most to it where it can still win them, leaves lost causes and militia
  alone, and takes cards from whoever is ahead.
- **Action cards.** After placing, every playable card and every target (pruned by the quick
  estimate when there are many) is tried on the same imagined futures as not playing; a card is
  played when it gains more than holding it is worth. Cards that do not touch the board (Informant,
  Pickpocket, Windfall, Scapegoat, …) are valued directly. A card with several targets is chosen
  target by target from the same imagined futures, so each step agrees with the first.
- **The First Player card.** Going first next round is worth a few points, the more the later
  this seat would otherwise place; Ducal Favour is played for that (and not when the card comes
  to it anyway or the game is ending).
- **Tarot Mages.** The peeked card worth least to it relative to the others goes to the bottom
  when it is a bad card, and the best ones are put on top.

It is deterministic given the :class:`~games.core.rng.GameRng` it is handed. The futures of an
action-card decision are drawn from a generator keyed by the public position (round, grid and
agents), so the card choice and its later target choices see the same futures.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from games.cadwallon.board import Board, board
from games.cadwallon.cards import (
    CARDS,
    CONTRACT_REWARD,
    CONTRACT_RULES,
    GUILD_ORDER,
    PATRON_CONTRACTS,
    district_cards_in_play,
)
from games.cadwallon.models import (
    CadwallonView,
    Category,
    ChooseAgent,
    ChooseBoulevard,
    ChooseCard,
    ChooseSeat,
    ChooseSlot,
    EndTurn,
    OrderTarot,
    PlaceAgent,
    PlayAction,
    TurnStep,
)
from games.cadwallon.scoring import CREDITOR_BONUS, FULL_CREDITOR_BONUS, FULL_GUILD, GUILD_CAP, contract_beaten
from games.core.rng import GameRng


@dataclass(frozen=True)
class Weights:
    """The strategy's tunable numbers (the defaults are the tuned ones)."""

    #: Imagined placements (summed over every imagined future) one decision may spend.
    budget: int = 60000
    #: Imagined futures per candidate in the first stage of a race (doubling each stage).
    first_stage: int = 4
    #: Most imagined futures per candidate.
    max_futures: int = 96
    #: Candidates that enter a race after the quick estimate (placements and action plans).
    shortlist: int = 14
    #: Agents, and boulevards, paired by the cards that move agents (A05, A18, A22).
    pairing: int = 6
    #: How much the opponents' gains count against ours, in total over the opponents.
    opponent_share: float = 1.0
    #: How sharply that weight goes to the leading opponent (per point of live score).
    leader_focus: float = 0.08
    #: Share of the unseen members of a guild a seat is expected to collect later (× 1/players).
    potential: float = 0.5
    #: The same for unseen militia.
    militia_potential: float = 0.3
    #: The worth of holding an action card beyond its points (the chance to play it).
    action_option: float = 0.8
    #: An action card is played only when it gains more than this (the worth of keeping it).
    hold: float = 0.6
    #: Softness of the quick support estimate (in support points).
    softness: float = 1.5
    #: Points that going first rather than last in next round's turn order is worth (Ducal Favour).
    first_player: float = 2.5
    #: Share of the other seats' imagined placements that go where the quick estimate says they
    #: gain most themselves (the rest go to a free boulevard at random).
    greedy: float = 0.5


DEFAULT_WEIGHTS = Weights()

# ----------------------------------------------------------------------------- card tables
_MEMBER, _CREDITOR, _PERSONALITY, _MILITIA, _ACTION = range(5)
_KIND_OF: dict[Category, int] = {
    Category.GUILD: _MEMBER,
    Category.CREDITOR: _CREDITOR,
    Category.PERSONALITY: _PERSONALITY,
    Category.MILITIA: _MILITIA,
    Category.ACTION: _ACTION,
}
_TYPES = "DMOH"
_KIND: dict[str, int] = {c: _KIND_OF[i.category] for c, i in CARDS.items()}
_GUILD: dict[str, int] = {c: GUILD_ORDER.index(i.guild) if i.guild is not None else -1 for c, i in CARDS.items()}
_GP: dict[str, int] = {c: i.gp for c, i in CARDS.items()}
_PP: dict[str, int] = {c: i.pp for c, i in CARDS.items()}
_S: dict[str, int] = {c: i.support for c, i in CARDS.items()}
_TYPE: dict[str, int] = {c: _TYPES.index(i.district.value) for c, i in CARDS.items()}
_MARKS = frozenset(("A07", "A08", "A09", "A14", "A17", "A24", "A26"))
_PATRON: dict[str, int] = {k: GUILD_ORDER.index(g) for k, g in PATRON_CONTRACTS.items()}
_BASE_ACTIONS = 14
#: The controller of an agent that Double Agent turned (revision 5): its support counts for nobody.
NOBODY = -1
#: Action cards whose effect is on this round's board (the others are valued directly).
_BOARD_CARDS = _MARKS | {"A01", "A03", "A04", "A05", "A06", "A11", "A13", "A15", "A18", "A19", "A22"}

# Holdings: a tuple of counts, one layout for every seat.
_GPS, _MEMBERS, _CREDS = 0, 8, 16
_PERS, _MIL, _PPS, _HAND, _PLAYED, _DTYPES = 24, 25, 26, 27, 28, 29
_HLEN = 33
Holding = tuple[int, ...]


def _put(h: list[int], card: str) -> None:
    """Add a card a seat owns to the holdings ``h`` (a won action card joins the hand)."""
    kind = _KIND[card]
    if kind == _MEMBER:
        g = _GUILD[card]
        h[_GPS + g] += _GP[card]
        h[_MEMBERS + g] += 1
    elif kind == _CREDITOR:
        h[_CREDS + _GUILD[card]] = 1
    elif kind == _PERSONALITY:
        h[_PERS] += 1
    elif kind == _MILITIA:
        h[_MIL] += 1
        h[_PPS] += _PP[card]
    else:
        h[_HAND] += 1
    h[_DTYPES + _TYPE[card]] += 1


def holding(captured: Sequence[str], played: Sequence[str], hand: Sequence[str] | None, hand_size: int) -> Holding:
    """Return the holdings of a seat: its captured cards, played actions and hand (size, or cards if known)."""
    h = [0] * _HLEN
    for card in captured:
        _put(h, card)
    for card in played:
        h[_PLAYED] += 1
        h[_DTYPES + _TYPE[card]] += 1
    h[_HAND] = hand_size
    for card in hand or ():
        h[_DTYPES + _TYPE[card]] += 1
    return tuple(h)


def with_card(h: Holding, card: str) -> Holding:
    """Return ``h`` after winning ``card``."""
    out = list(h)
    _put(out, card)
    return tuple(out)


def without_militia(h: Holding, card: str) -> Holding:
    """Return ``h`` after giving away the militia ``card`` (Scapegoat)."""
    out = list(h)
    out[_MIL] -= 1
    out[_PPS] -= _PP[card]
    out[_DTYPES + _TYPE[card]] -= 1
    return tuple(out)


def after_playing(h: Holding) -> Holding:
    """Return ``h`` after playing one action card from the hand."""
    out = list(h)
    out[_HAND] -= 1
    out[_PLAYED] += 1
    return tuple(out)


@dataclass(frozen=True)
class Context:
    """What scoring a seat's holdings needs besides the holdings.

    ``expect[g]`` is how many more members of guild ``g`` the seat is expected to collect (average
    ``gbar[g]`` points each), ``mil_expect`` and ``pbar`` the same for militia; ``exact`` scores as
    the engine does at the end (no expectations, a contract counts only when fulfilled).
    ``rivals[g]`` is the most members of ``g`` any other seat holds, ``rival_militia`` the most
    militia cards.
    """

    condition: str | None = None
    guilds: int = 4
    expect: tuple[float, ...] = (0.0,) * 8
    gbar: tuple[float, ...] = (0.0,) * 8
    mil_expect: float = 0.0
    pbar: float = 0.0
    contract: str | None = None
    rivals: tuple[int, ...] = (0,) * 8
    rival_militia: int = 0
    exact: bool = True
    #: The best other seat's measure of this seat's contract (the lowest for a ``fewest`` one).
    rival_best: float = 0.0
    #: Seats at the table (some contracts count ties only from 3 players).
    players: int = 2


#: Chance credited to a contract by how far the seat is ahead of the best other seat (a met tie is 1).
_PATRON_PROGRESS = {2: 0.9, 1: 0.7, 0: 0.25, -1: 0.08}


def contract_measure(contract: str, h: Holding, guilds: int, cap: int = GUILD_CAP) -> int:
    """Return what ``contract`` counts for holdings ``h`` (as :func:`games.cadwallon.scoring.contract_measure`).

    Another seat's hand is only a count, so its district types (Landlord) are those of its
    captured and played cards.
    """
    measure = CONTRACT_RULES[contract].measure
    members = h[_MEMBERS : _MEMBERS + guilds]
    pers = h[_PERS]
    if measure == "members":
        return h[_MEMBERS + _PATRON[contract]]
    if measure == "militia":
        return h[_MIL]
    if measure == "personalities":
        return pers
    if measure == "roster":
        return max(members, default=0) + pers
    if measure == "crests":
        return sum(1 for g in range(guilds) if members[g] or h[_CREDS + g])
    if measure == "hand":
        return h[_HAND]
    if measure == "guilds":
        return sum(1 for m in members if m)
    if measure == "threes":
        return sum(1 for m in members if m >= 3)
    if measure == "creditors":
        return sum(h[_CREDS : _CREDS + guilds])
    if measure == "district":
        return max(h[_DTYPES : _DTYPES + 4])
    if measure == "played":
        return h[_PLAYED]
    return max((h[_GPS + g] * min(cap, members[g] + pers) for g in range(guilds) if members[g]), default=0)


def _contract_worth(c: Context, h: Holding) -> float:
    """Return what the seat's own contract is worth for ``h`` (partial credit unless ``exact``)."""
    contract = c.contract
    if contract is None:
        return 0.0
    rule = CONTRACT_RULES[contract]
    cap = 5 if c.condition == "C02" else GUILD_CAP
    mine = contract_measure(contract, h, c.guilds, cap)
    reward = float(min(2 * h[_HAND], 6) if contract == "K08" else CONTRACT_REWARD[contract])
    best = c.rivals[_PATRON[contract]] if contract in _PATRON else int(c.rival_best)
    if c.exact:
        return reward if contract_beaten(contract, mine, best, c.players) else 0.0
    if contract == "K08":
        reward = 6.0  # the cards still to come may fill the hand
    ties = rule.ties and c.players >= rule.ties_from
    lead = (best - mine if rule.fewest else mine - best) + (1 if ties else 0)
    if mine < rule.least:
        lead = min(lead, 0)
    return reward * _PATRON_PROGRESS[max(-1, min(2, lead))] if lead >= -1 else 0.0


#: Contracts and conditions whose worth depends on where personalities go beyond their points.
_SHAPED_CONTRACTS: frozenset[str] = frozenset()
_SHAPED_CONDITIONS = frozenset(("C06", "C10", "C11"))
#: Most personalities whose every split is tried (more are placed greedily).
_SEARCH_PERSONALITIES = 6


def _splits(capacity: Sequence[int], count: int) -> list[tuple[int, ...]]:
    """Return every way to give at most ``count`` personalities to guilds within their ``capacity``."""
    if not capacity:
        return [()]
    out: list[tuple[int, ...]] = []
    for k in range(min(capacity[0], count), -1, -1):
        out.extend((k, *rest) for rest in _splits(capacity[1:], count - k))
    return out


def _creditor_bonus(cards: int, expected: float, exact: bool) -> float:
    """Return a held Creditor's bonus: +1, or +5 with four cards of its guild (digest §8.3, revision 2).

    Short of four, the +5 is worth the chance of completing the guild (the expected further
    members over the missing ones, cubed), so members of a guild whose Creditor the seat holds —
    and the Creditor of a guild it has nearly completed — are worth more than their points.
    """
    if cards >= FULL_GUILD:
        return float(FULL_CREDITOR_BONUS)
    if exact:
        return float(CREDITOR_BONUS)
    chance = min(1.0, (cards + expected) / FULL_GUILD) ** 3
    return CREDITOR_BONUS + (FULL_CREDITOR_BONUS - CREDITOR_BONUS) * chance


@lru_cache(maxsize=65536)
def worth(h: Holding, c: Context) -> float:
    """Return the score of holdings ``h`` (the engine's score when ``c.exact``; else an expectation).

    Personalities go where they add most: every split is tried when a contract, the condition or a
    Creditor cares about guild sizes (as the engine does), else one by one to the best guild, which is the
    same because a personality then adds its guild's points wherever it goes.
    """
    cond = c.condition
    cap = 5 if cond == "C02" else 4
    n_guilds = c.guilds
    gps = h[_GPS : _GPS + n_guilds]
    members = h[_MEMBERS : _MEMBERS + n_guilds]
    creds = h[_CREDS : _CREDS + n_guilds]
    expect = c.expect
    gbar = c.gbar

    def line(g: int, cards: int) -> float:
        e = expect[g]
        points = (gps[g] + e * gbar[g]) * (cards + e)
        if cond == "C06" and cards == 1:
            points *= min(1.0, e)
        bonus = 0.0
        if creds[g]:
            bonus = _creditor_bonus(cards, e, c.exact)
        if cond == "C10" and cards == 4:
            bonus += 3.0
        return points + bonus

    def guilds_total(extra: Sequence[int]) -> float:
        cards = [members[g] + extra[g] for g in range(n_guilds)]
        lines = [line(g, cards[g]) for g in range(n_guilds)]
        total = sum(lines)
        if cond == "C11":
            positive = sorted(lines[g] for g in range(n_guilds) if (cards[g] or creds[g]) and lines[g] > 0)
            if len(positive) >= 2:
                total -= positive[0]
        if c.contract is not None:
            total += _contract_worth(c, h)
        return total

    count = h[_PERS] if cond != "C05" else 0
    # A Creditor's +5 needs four cards, so one personality may be worth nothing until a second
    # joins it: one-by-one placement would miss that, every split does not.
    shaped = c.contract in _SHAPED_CONTRACTS or cond in _SHAPED_CONDITIONS or any(creds)
    if count and shaped and count <= _SEARCH_PERSONALITIES:
        # Guilds without members or Creditor are interchangeable: one of them stands for all.
        empty = next((g for g in range(n_guilds) if not members[g] and not creds[g]), -1)
        used = [g for g in range(n_guilds) if members[g] or creds[g] or g == empty]
        best = -math.inf
        for split in _splits([max(0, cap - members[g]) for g in used], count):
            extra = [0] * n_guilds
            for g, k in zip(used, split, strict=True):
                extra[g] = k
            best = max(best, guilds_total(extra))
        total = best
    else:
        extra = [0] * n_guilds
        for _ in range(count):
            choice, gain = -1, 1e-9
            for g in range(n_guilds):
                held = members[g] + extra[g]
                if held >= cap:
                    continue
                d = line(g, held + 1) - line(g, held)
                if d > gain:
                    choice, gain = g, d
            if choice < 0:
                break
            extra[choice] += 1
        total = guilds_total(extra)
    if cond == "C05":
        total += 2 * h[_PERS]
    future_pp = c.mil_expect * c.pbar
    if cond == "C01":
        total -= h[_PPS] + future_pp
    else:
        total -= (h[_PPS] + future_pp) * (h[_MIL] + c.mil_expect)
    if cond == "C12" and h[_MIL] >= 1 and h[_MIL] >= c.rival_militia:
        total -= 5
    total += (h[_HAND] + h[_PLAYED]) * (3 if cond == "C04" else 2)
    return total


# ----------------------------------------------------------------------------- the round model
class _Round:
    """The Deploy phase as the AI imagines it: a mutable copy built from the view."""

    def __init__(self, view: CadwallonView, values: Callable[[str], list[float]]) -> None:
        me = view.viewer
        assert me is not None  # noqa: S101 - checked by choose()
        self.geo: Board = board(view.grid)
        self.n = view.num_seats
        self.me: int = me
        size = len(view.slots)
        self.cards: list[str | None] = [s.card.id if s.card is not None else None for s in view.slots]
        self.es: list[float] = [float(s.effective_support) for s in view.slots]
        self.values: list[list[float]] = [values(c) if c is not None else [0.0] * self.n for c in self.cards]
        self.curfew = [False] * size
        self.slander = [False] * size
        self.arb = [-1] * size
        self.bribe: list[tuple[int, ...]] = [() for _ in range(size)]
        self.rally: list[tuple[int, ...]] = [() for _ in range(size)]
        for s in view.slots:
            for mark in s.marks:
                self._mark(mark.card, s.index, mark.seat, adjust=False)
        index = self.geo.boulevard_index
        #: (boulevard, controller, owner, id); the controller of an agent that Double Agent turned
        #: is ``NOBODY`` (revision 5): it supports no seat and only holds its boulevard.
        self.agents: list[tuple[int, int, int, int]] = [
            (a.boulevard_index, NOBODY if a.turned else a.owner, a.owner, a.id) for a in view.agents
        ]
        self.free: list[int] = [index[b] for b in view.free_boulevards]
        self.barricade = index[view.barricade] if view.barricade is not None else -1
        self.supply = [0 if p.resigned else p.supply for p in view.players]
        self.order = [(view.first_seat + i) % self.n for i in range(self.n)]
        self.precedence = view.condition == "C03"

    def copy(self) -> _Round:
        """Return an independent copy (the view-derived tables are shared, the mutable parts copied)."""
        out = object.__new__(_Round)
        out.__dict__.update(self.__dict__)
        out.cards = self.cards.copy()
        out.es = self.es.copy()
        out.values = self.values.copy()
        out.curfew = self.curfew.copy()
        out.slander = self.slander.copy()
        out.arb = self.arb.copy()
        out.bribe = self.bribe.copy()
        out.rally = self.rally.copy()
        out.agents = self.agents.copy()
        out.free = self.free.copy()
        out.supply = self.supply.copy()
        return out

    # ------------------------------------------------------------------ effects
    def _mark(self, card: str, slot: int, seat: int, adjust: bool = True) -> None:
        """Record ``seat``'s mark ``card`` on ``slot``; ``adjust`` changes S too (the view's S has the old marks)."""
        if card == "A07":
            self.bribe[slot] = (*self.bribe[slot], seat)
        elif card == "A17":
            self.rally[slot] = (*self.rally[slot], seat)
        elif card == "A09":
            self.curfew[slot] = True
        elif card == "A14":
            if self.arb[slot] < 0:
                self.arb[slot] = seat
        elif card == "A08":
            self.slander[slot] = True
            self.es[slot] = 0.0
        elif adjust and not self.slander[slot]:
            # Slander sets S to 0 after every other change (digest §5.4.1), so it wins over these.
            if card == "A24":
                self.es[slot] += 1.0
            elif card == "A26":
                self.es[slot] = 2.0

    def mark(self, card: str, slot: int) -> None:
        """Play a marking card on the grid card at ``slot``."""
        self._mark(card, slot, self.me)

    def place(self, seat: int, boulevard: int) -> None:
        """Put an agent of ``seat`` on ``boulevard`` (a free one, or a crowded one by Crowded Street)."""
        self.agents.append((boulevard, seat, seat, -1))
        self.supply[seat] -= 1
        if boulevard in self.free:
            self.free.remove(boulevard)

    def _vacate(self, boulevard: int) -> None:
        if boulevard != self.barricade and all(a[0] != boulevard for a in self.agents):
            self.free.append(boulevard)

    def move(self, agent: int, boulevard: int) -> None:
        """Move placed agent ``agent`` to the free ``boulevard``."""
        for i, a in enumerate(self.agents):
            if a[3] == agent:
                self.agents[i] = (boulevard, a[1], a[2], a[3])
                self.free.remove(boulevard)
                self._vacate(a[0])
                return

    def arrest(self, agent: int) -> None:
        """Send placed agent ``agent`` back to its owner's supply."""
        for i, a in enumerate(self.agents):
            if a[3] == agent:
                del self.agents[i]
                self.supply[a[2]] += 1
                self._vacate(a[0])
                return

    def turn_agent(self, agent: int) -> None:
        """Make placed agent ``agent`` support nobody (Double Agent, revision 5); it keeps its boulevard."""
        self.agents = [(a[0], NOBODY, a[2], a[3]) if a[3] == agent else a for a in self.agents]

    def swap_agents(self, mine: int, theirs: int) -> None:
        """Swap the boulevards of two placed agents (Masquerade)."""
        where = {a[3]: a[0] for a in self.agents}
        self.agents = [
            (where[theirs], a[1], a[2], a[3])
            if a[3] == mine
            else (where[mine], a[1], a[2], a[3])
            if a[3] == theirs
            else a
            for a in self.agents
        ]

    def build_barricade(self, boulevard: int) -> None:
        """Close the free ``boulevard`` for this round."""
        self.free.remove(boulevard)
        self.barricade = boulevard

    def swap_cards(self, x: int, y: int) -> None:
        """Swap two grid cards; their marks travel with them, the agents stay."""
        self.cards[x], self.cards[y] = self.cards[y], self.cards[x]
        self.es[x], self.es[y] = self.es[y], self.es[x]
        self.values[x], self.values[y] = self.values[y], self.values[x]
        self.curfew[x], self.curfew[y] = self.curfew[y], self.curfew[x]
        self.slander[x], self.slander[y] = self.slander[y], self.slander[x]
        self.arb[x], self.arb[y] = self.arb[y], self.arb[x]
        self.bribe[x], self.bribe[y] = self.bribe[y], self.bribe[x]
        self.rally[x], self.rally[y] = self.rally[y], self.rally[x]

    def demolish(self, slot: int, support: float, values: list[float]) -> None:
        """Replace the card at ``slot`` by an unknown card of average ``support`` and ``values``."""
        self.es[slot] = support
        self.values[slot] = values
        self.curfew[slot] = self.slander[slot] = False
        self.arb[slot] = -1
        self.bribe[slot] = self.rally[slot] = ()

    # ------------------------------------------------------------------ imagining
    def prepare(self) -> _Prepared:
        """Freeze this model into the tables the imagined futures run on."""
        return _Prepared(self)


class _Prepared:
    """A model ready for imagined futures: flat support table, free list and judged slots."""

    def __init__(self, r: _Round) -> None:
        n = r.n
        self.n = n
        self.me = r.me
        self.ends = r.geo.ends
        self.es = r.es
        size = len(r.cards)
        sup = [0.0] * (size * n)
        near = [0] * (size * n)
        es = r.es
        for b, controller, _owner, _id in r.agents:
            if controller == NOBODY:
                continue
            x, y = self.ends[b]
            sup[x * n + controller] += es[y]
            sup[y * n + controller] += es[x]
            near[x * n + controller] = 1
            near[y * n + controller] = 1
        self.sup = sup
        self.near = near
        self.free = list(r.free)
        pos = [-1] * len(self.ends)
        for i, b in enumerate(self.free):
            pos[b] = i
        self.pos = pos
        self.supply = list(r.supply)
        self.left = sum(self.supply)
        self.start = (r.me + 1) % n
        self.values = [v for row in r.values for v in row]
        self.judged = [x for x in range(size) if r.cards[x] is not None and not r.curfew[x]]
        self.special = [x for x in self.judged if r.bribe[x] or r.rally[x]]
        self.track = bool(self.special)
        self.bribe = r.bribe
        self.rally = r.rally
        self.arb = r.arb
        self.order = r.order
        self.precedence = r.precedence
        self.around = r.geo.around
        self.size = size
        #: Per seat, the boulevards that seat gains on, best first (``None``: every seat places at random).
        self.others: list[list[int]] | None = None
        #: Per seat, the boulevards that seat loses on, least bad first (it places there last).
        self.worse: list[list[int]] = []
        #: Per seat, 1 for each boulevard in its ``worse`` list.
        self.shun: list[bytearray] = []
        self.greedy = 0.0

    def judge(self, sup: list[float], near: list[int]) -> float:
        """Return what Capture on ``sup`` is worth to the AI (digest §5.4)."""
        n = self.n
        values = self.values
        total = 0.0
        special = self.special
        for x in self.judged:
            base = x * n
            row = sup[base : base + n]
            if special and x in special:
                for s in self.rally[x]:
                    if near[base + s]:
                        row[s] *= 2
                for s in self.bribe[x]:
                    if near[base + s]:
                        row[s] += 2
            top = max(row)
            if top <= 0:
                continue
            if row.count(top) == 1:
                total += values[base + row.index(top)]
                continue
            arb = self.arb[x]
            if arb >= 0 and row[arb] == top:
                total += values[base + arb]
            elif self.precedence:
                for s in self.order:
                    if row[s] == top:
                        total += values[base + s]
                        break
        return total

    def rollout(self, us: Sequence[float], pref: Sequence[int]) -> float:
        """Play the rest of Deploy once (others by ``us``, ours by ``pref``) and judge it."""
        n = self.n
        me = self.me
        ends = self.ends
        es = self.es
        sup = self.sup.copy()
        near = self.near.copy() if self.track else self.near
        track = self.track
        free = self.free.copy()
        pos = self.pos.copy()
        supply = self.supply.copy()
        left = self.left
        seat = self.start
        k = 0
        q = 0
        others = self.others
        worse = self.worse
        shun = self.shun
        greedy = self.greedy
        qs = [0] * n
        while free and left:
            while not supply[seat]:
                seat = seat + 1 if seat + 1 < n else 0
            if seat == me:
                b = pref[q]
                while pos[b] < 0:
                    q += 1
                    b = pref[q]
            else:
                u = us[k]
                k += 1
                b = -1
                if others is not None:
                    if u < greedy:
                        # The seat's best boulevard still free (none left: one it does not lose on at
                        # random, and when it loses on every one, the least bad).
                        order = others[seat]
                        j = qs[seat]
                        while j < len(order) and pos[order[j]] < 0:
                            j += 1
                        qs[seat] = j
                        u /= greedy
                        if j < len(order):
                            b = order[j]
                        elif worse[seat]:
                            b = _not_shunned(free, shun[seat], int(u * len(free)))
                            if b < 0:
                                order = worse[seat]
                                j = 0
                                while pos[order[j]] < 0:
                                    j += 1
                                b = order[j]
                    else:
                        u = (u - greedy) / (1.0 - greedy)
                if b < 0:
                    b = free[int(u * len(free))]
            i = pos[b]
            last = free.pop()
            if last != b:
                free[i] = last
                pos[last] = i
            pos[b] = -1
            x, y = ends[b]
            sup[x * n + seat] += es[y]
            sup[y * n + seat] += es[x]
            if track:
                near[x * n + seat] = 1
                near[y * n + seat] = 1
            supply[seat] -= 1
            left -= 1
            seat = seat + 1 if seat + 1 < n else 0
        return self.judge(sup, near)

    def remaining(self) -> int:
        """Return how many placements an imagined future still makes."""
        return min(self.left, len(self.free))

    # ------------------------------------------------------------------ the quick estimate
    def shares(self) -> list[float]:
        """Return each seat's expected share of one free boulevard."""
        total = max(self.left, len(self.free))
        return [s / total if total else 0.0 for s in self.supply]

    def free_support(self) -> list[float]:
        """Return, per slot, the support the free boulevards beside it could still bring."""
        out = [0.0] * self.size
        es = self.es
        for b in self.free:
            x, y = self.ends[b]
            out[x] += es[y]
            out[y] += es[x]
        return out

    def soft_slot(
        self, x: int, row: Sequence[float], open_support: float, shares: Sequence[float], tau: float
    ) -> float:
        """Return the quick estimate of what slot ``x`` is worth: supports to soft win chances."""
        n = self.n
        base = x * n
        weights, total = _soft_weights(row, open_support, shares, tau)
        values = self.values
        return sum(values[base + s] * weights[s] for s in range(n) if weights[s]) / total

    def soft_total(self, tau: float) -> float:
        """Return the quick estimate of the whole grid."""
        shares = self.shares()
        opened = self.free_support()
        n = self.n
        return sum(self.soft_slot(x, self.sup[x * n : x * n + n], opened[x], shares, tau) for x in self.judged)

    def removal_gains(self, agents: Sequence[tuple[int, int, int, int]], tau: float) -> dict[int, float]:
        """Return the quick estimate of taking each placed agent off the board, by agent id."""
        shares = self.shares()
        opened = self.free_support()
        n = self.n
        es = self.es
        judged = set(self.judged)
        out: dict[int, float] = {}
        for b, controller, _owner, agent in agents:
            x, y = self.ends[b]
            gain = 0.0
            if controller == NOBODY:
                out[agent] = gain
                continue
            for slot, lost in ((x, es[y]), (y, es[x])):
                if slot in judged:
                    row = self.sup[slot * n : slot * n + n]
                    after = list(row)
                    after[controller] -= lost
                    gain += self.soft_slot(slot, after, opened[slot], shares, tau)
                    gain -= self.soft_slot(slot, row, opened[slot], shares, tau)
            out[agent] = gain
        return out

    def placement_gains(self, tau: float, seat: int = -1) -> dict[int, float]:
        """Return the quick estimate of ``seat`` (default: ours) placing an agent on each boulevard."""
        shares = self.shares()
        opened = self.free_support()
        n = self.n
        me = self.me if seat < 0 else seat
        es = self.es
        judged = set(self.judged)
        out: dict[int, float] = {}
        for b, (x, y) in enumerate(self.ends):
            gain = 0.0
            for slot, add in ((x, es[y]), (y, es[x])):
                if slot not in judged:
                    continue
                row = self.sup[slot * n : slot * n + n]
                before = self.soft_slot(slot, row, opened[slot], shares, tau)
                after_row = list(row)
                after_row[me] += add
                free_here = add if self.pos[b] >= 0 else 0.0
                gain += self.soft_slot(slot, after_row, opened[slot] - free_here, shares, tau) - before
            out[b] = gain
        return out

    def seat_gains(
        self,
        seat: int,
        own: Sequence[float],
        tau: float,
        boulevards: Sequence[int],
        shares: Sequence[float],
        opened: Sequence[float],
    ) -> dict[int, float]:
        """Return the quick estimate of what ``seat`` itself gains by placing on each of ``boulevards``.

        ``own[x]`` is what winning the card at slot ``x`` adds to that seat's score (negative for a
        militia: raising its chance to win one is a loss); what the other seats win does not count
        for it here.
        """
        n = self.n
        es = self.es
        sup = self.sup
        out: dict[int, float] = {}
        for b in boulevards:
            x, y = self.ends[b]
            gain = 0.0
            for slot, add in ((x, es[y]), (y, es[x])):
                value = own[slot]
                if value == 0.0 or add <= 0.0:
                    continue
                row = sup[slot * n : slot * n + n]
                before = _soft_win(row, seat, opened[slot], shares, tau)
                after_row = list(row)
                after_row[seat] += add
                gain += value * (_soft_win(after_row, seat, opened[slot] - add, shares, tau) - before)
            out[b] = gain
        return out


def _not_shunned(free: Sequence[int], shun: bytearray, start: int) -> int:
    """Return the first boulevard of ``free`` from index ``start`` on (wrapping) not in ``shun``, or -1."""
    size = len(free)
    for i in range(start, start + size):
        b = free[i - size if i >= size else i]
        if not shun[b]:
            return b
    return -1


def _soft_weights(
    row: Sequence[float], open_support: float, shares: Sequence[float], tau: float
) -> tuple[list[float], float]:
    """Return each seat's soft weight to win a card with supports ``row``, and their total.

    A seat's expected support is its own plus its share of the support still open; the total starts
    at 1 for "nobody" (the card stays), so a seat's chance is its weight over the total.
    """
    weights = [0.0] * len(row)
    total = 1.0
    for s, support in enumerate(row):
        mu = support + shares[s] * open_support
        if mu > 0:
            w = math.exp(min(mu / tau, 30.0))
            weights[s] = w
            total += w
    return weights, total


def _soft_win(row: Sequence[float], seat: int, open_support: float, shares: Sequence[float], tau: float) -> float:
    """Return the quick estimate of ``seat``'s chance to win a card with supports ``row``."""
    weights, total = _soft_weights(row, open_support, shares, tau)
    return weights[seat] / total


# ----------------------------------------------------------------------------- reading the view
class _Reading:
    """What the AI derives from its view once per decision: holdings, contexts, card values."""

    def __init__(self, view: CadwallonView, weights: Weights) -> None:
        me = view.viewer
        assert me is not None  # noqa: S101 - checked by choose()
        self.view = view
        self.w = weights
        self.me: int = me
        n = view.num_seats
        self.n = n
        players = view.players
        mine = players[me]
        self.hand: tuple[str, ...] = mine.hand or ()
        self.contract = mine.contract
        self.holdings: list[Holding] = [
            holding(p.captured, p.played, p.hand if p.seat == me else None, p.hand_size) for p in players
        ]
        self.condition = view.condition
        self.action_points = 3 if view.condition == "C04" else 2
        self.active = [p.seat for p in players if not p.resigned]
        guilds = 4 if view.grid == 3 else 8
        # Cards not seen anywhere: the deck, the reserve and the other hands hold them.
        seen: set[str] = {s.card.id for s in view.slots if s.card is not None}
        for p in players:
            seen.update(p.captured)
            seen.update(p.played)
            seen.update(p.hand or ())  # every hand is open under Open Books (C09)
        # A 3×3 game uses the expansion actions only when the table chose so; one in sight shows it.
        expansion = view.grid != 3 or any(_KIND[c] == _ACTION and int(c[1:]) > _BASE_ACTIONS for c in seen)
        self.unseen = [c for c in district_cards_in_play(view.grid, expansion) if c not in seen]
        share = 1.0 / max(1, len(self.active))
        expect = [0.0] * 8
        gbar = [0.0] * 8
        for g in range(guilds):
            left = [c for c in self.unseen if _KIND[c] == _MEMBER and _GUILD[c] == g]
            if left:
                expect[g] = weights.potential * share * len(left)
                gbar[g] = sum(_GP[c] for c in left) / len(left)
        militia = [c for c in self.unseen if _KIND[c] == _MILITIA]
        mil_expect = weights.militia_potential * share * len(militia)
        pbar = sum(_PP[c] for c in militia) / len(militia) if militia else 0.0
        members = [[h[_MEMBERS + g] for g in range(8)] for h in self.holdings]
        militia_counts = [h[_MIL] for h in self.holdings]
        self.contexts: list[Context] = []
        rival_best = 0.0
        if self.contract is not None:
            cap = 5 if view.condition == "C02" else GUILD_CAP
            others = [contract_measure(self.contract, self.holdings[o], guilds, cap) for o in range(n) if o != me]
            if others:
                rival_best = min(others) if CONTRACT_RULES[self.contract].fewest else max(others)
        for s in range(n):
            rivals = tuple(max((members[o][g] for o in range(n) if o != s), default=0) for g in range(8))
            self.contexts.append(
                Context(
                    condition=view.condition,
                    guilds=guilds,
                    expect=tuple(expect),
                    gbar=tuple(gbar),
                    mil_expect=mil_expect,
                    pbar=pbar,
                    contract=self.contract if s == me else None,
                    rivals=rivals,
                    rival_militia=max((militia_counts[o] for o in range(n) if o != s), default=0),
                    exact=False,
                    rival_best=rival_best if s == me else 0.0,
                    players=n,
                )
            )
        # How much each opponent's gain counts against ours: more for whoever leads.
        live = [p.live_score for p in players]
        others = [s for s in self.active if s != me]
        top = max((live[s] for s in others), default=0)
        raw = {s: math.exp(weights.leader_focus * (live[s] - top)) for s in others}
        norm = sum(raw.values()) or 1.0
        self.threat = [weights.opponent_share * raw.get(s, 0.0) / norm for s in range(n)]
        self._values: dict[str, list[float]] = {}

    def gain(self, seat: int, card: str) -> float:
        """Return what winning ``card`` adds to ``seat``'s expected score."""
        h = self.holdings[seat]
        c = self.contexts[seat]
        extra = self.w.action_option if _KIND[card] == _ACTION else 0.0
        return worth(with_card(h, card), c) - worth(h, c) + extra

    def values(self, card: str) -> list[float]:
        """Return, per seat, what that seat winning ``card`` is worth to the AI."""
        row = self._values.get(card)
        if row is None:
            row = [self.gain(s, card) if s == self.me else -self.threat[s] * self.gain(s, card) for s in range(self.n)]
            self._values[card] = row
        return row

    def relative(self, card: str) -> float:
        """Return what ``card`` is worth to the AI against the average opponent."""
        others = [s for s in self.active if s != self.me]
        return self.gain(self.me, card) - sum(self.threat[s] * self.gain(s, card) for s in others)

    def turns_left(self) -> int:
        """Return how many more turns this seat will take this round (after the current one)."""
        return self.view.players[self.me].supply

    def last_round(self) -> bool:
        """Return whether the game will most likely end at the next Reveal."""
        return self.view.deck_size < len(self.view.slots) // 2


# ----------------------------------------------------------------------------- plans for action cards
@dataclass
class _Plan:
    """One way to play an action card: the card, its targets in order, its effect and direct gain.

    ``effect`` names what the card does to the imagined board (``""``: nothing, the card is valued by
    ``flat`` alone) and ``args`` its slots, boulevards or agents.
    """

    card: str
    steps: tuple[Any, ...] = ()
    effect: str = ""
    args: tuple[int, ...] = ()
    flat: float = 0.0
    quick: float = 0.0
    prepared: _Prepared | None = field(default=None, repr=False)


def _apply(r: _Round, plan: _Plan, average: tuple[float, list[float]] | None) -> None:
    """Apply ``plan``'s effect to the imagined board ``r``."""
    kind, args = plan.effect, plan.args
    if kind == "mark":
        r.mark(plan.card, args[0])
    elif kind == "demolish" and average is not None:
        r.demolish(args[0], average[0], average[1])
    elif kind == "swap_cards":
        r.swap_cards(args[0], args[1])
    elif kind == "place":
        r.place(r.me, args[0])
    elif kind == "barricade":
        r.build_barricade(args[0])
    elif kind == "arrest":
        r.arrest(args[0])
    elif kind == "turn":
        r.turn_agent(args[0])
    elif kind == "move":
        r.move(args[0], args[1])
    elif kind == "swap_agents":
        r.swap_agents(args[0], args[1])


def _futures(rng: GameRng, count: int, length: int) -> list[list[float]]:
    """Return ``count`` imagined futures: ``length`` uniform draws each (the other seats' picks)."""
    return [[rng.random() for _ in range(length)] for _ in range(count)]


_LOST = -1e18


def _race(
    preps: Sequence[_Prepared],
    prefs: Sequence[Sequence[int]],
    costs: Sequence[float],
    futures: Sequence[Sequence[float]],
    w: Weights,
    keep: int = -1,
) -> list[float]:
    """Return each candidate's mean worth (minus its cost) by successive halving.

    Every candidate still in the race plays the same futures; after each stage the worse half drops
    out (candidate ``keep`` never does). Dropped candidates get ``_LOST``: a mean over fewer futures
    is not comparable with the finalists'.
    """
    count = len(preps)
    totals = [0.0] * count
    runs = [0] * count
    alive = list(range(count))
    used = 0
    per = w.first_stage
    length = max((p.remaining() for p in preps), default=0)
    cost = length + preps[0].size // 2 + 4 if preps else 1
    spent = 0
    if length == 0:
        # Nothing is left to imagine: one judgement is exact.
        return [p.judge(p.sup, p.near) - c for p, c in zip(preps, costs, strict=True)]
    while True:
        batch = futures[used : used + per]
        if not batch:
            break
        for j in alive:
            p = preps[j]
            pref = prefs[j]
            for us in batch:
                totals[j] += p.rollout(us, pref)
            runs[j] += len(batch)
        spent += len(batch) * len(alive) * cost
        used += len(batch)
        if len(alive) <= 2 and (used >= len(futures) or spent >= w.budget):
            break
        alive.sort(key=lambda j: (-(totals[j] / runs[j] - costs[j]), j))
        if len(alive) > 2:
            survivors = alive[: max(2, (len(alive) + 1) // 2)]
            if keep >= 0 and keep not in survivors:
                survivors.append(keep)
            alive = survivors
        per = min(per * 2, max(1, (w.budget - spent) // max(1, len(alive) * cost)))
        if spent >= w.budget:
            break
    final = set(alive)
    return [totals[j] / runs[j] - costs[j] if j in final else _LOST for j in range(count)]


# ----------------------------------------------------------------------------- the agent
class CadwallonAgent:
    """The «Гильдии Кадвалона» AI; deterministic given the generator it is handed."""

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        """Use ``weights`` (the tuned defaults unless an experiment passes others)."""
        self.weights = weights

    def choose(self, view: BaseModel, legal: list[Any], rng: GameRng) -> Any:
        """Return one of ``legal`` for the seat ``view`` belongs to."""
        if not isinstance(view, CadwallonView) or view.viewer is None:
            raise ValueError("the Cadwallon AI needs its own seat's CadwallonView")
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        reading = _Reading(view, self.weights)
        if view.step is TurnStep.PLACE:
            action = self._place(reading, legal, rng)
        elif view.step is TurnStep.TAROT:
            action = self._tarot(reading, legal)
        else:
            action = self._act(reading, legal)
        return action if action in legal else _fallback(legal)

    # ------------------------------------------------------------------ placing
    def _place(self, reading: _Reading, legal: Sequence[Any], rng: GameRng) -> Any:
        w = self.weights
        model = _Round(reading.view, reading.values)
        base = model.prepare()
        tau = w.softness
        gains = base.placement_gains(tau)
        index = model.geo.boulevard_index
        places = [a for a in legal if isinstance(a, PlaceAgent)]
        if not places:
            return _fallback(legal)
        places.sort(key=lambda a: (-gains[index[a.boulevard]], index[a.boulevard]))
        places = places[: max(w.shortlist, 2)]
        # What each other seat still placing gains itself, boulevard by boulevard: the imagined
        # futures send part of its agents there, so a claim it can outbid does not look safe.
        me = model.me
        rivals = [s for s in range(model.n) if s != me and base.supply[s] > 0] if w.greedy > 0 else []
        own = {s: [reading.gain(s, c) if c is not None else 0.0 for c in model.cards] for s in rivals}
        shares = base.shares()
        liked = {s: base.seat_gains(s, own[s], tau, base.free, shares, base.free_support()) for s in rivals}
        preps: list[_Prepared] = []
        prefs: list[list[int]] = []
        for action in places:
            b = index[action.boulevard]
            trial = model.copy()
            trial.place(me, b)
            prep = trial.prepare()
            preps.append(prep)
            prefs.append(sorted(prep.free, key=lambda x: (-gains[x], x)))
            if rivals:
                # Our agent changes only the cards it faces: their boulevards are estimated again.
                near = {c for slot in model.geo.ends[b] for c in model.geo.around[slot] if prep.pos[c] >= 0}
                opened = prep.free_support()
                others: list[list[int]] = [[] for _ in range(model.n)]
                worse: list[list[int]] = [[] for _ in range(model.n)]
                shun = [bytearray(len(model.geo.ends)) for _ in range(model.n)]
                for s in rivals:
                    after = {**liked[s], **prep.seat_gains(s, own[s], tau, sorted(near), shares, opened)}
                    others[s] = sorted((c for c in prep.free if after[c] > 0), key=lambda c: (-after[c], c))
                    # A seat must place even where it loses (a militia it would rather not win).
                    worse[s] = sorted((c for c in prep.free if after[c] < 0), key=lambda c: (-after[c], c))
                    for c in worse[s]:
                        shun[s][c] = 1
                prep.others = others
                prep.worse = worse
                prep.shun = shun
                prep.greedy = w.greedy
        length = max(p.remaining() for p in preps)
        futures = _futures(rng, w.max_futures, length)
        means = _race(preps, prefs, [0.0] * len(preps), futures, w)
        best = max(range(len(places)), key=lambda j: (means[j], -j))
        return places[best]

    # ------------------------------------------------------------------ Tarot Mages
    def _tarot(self, reading: _Reading, legal: Sequence[Any]) -> Any:
        peek = reading.view.peek or ()
        orders = [a for a in legal if isinstance(a, OrderTarot)]
        if not peek or not orders:
            return _fallback(legal)
        worth_of = {c: reading.relative(c) for c in peek}
        worst = min(peek, key=lambda c: (worth_of[c], c))
        bottom = worst if worth_of[worst] < 0 else None
        top = tuple(sorted((c for c in peek if c != bottom), key=lambda c: (-worth_of[c], c)))
        wanted = OrderTarot(top=top, bottom=bottom)
        return wanted if wanted in orders else orders[0]

    # ------------------------------------------------------------------ action step
    def _act(self, reading: _Reading, legal: Sequence[Any]) -> Any:
        view = reading.view
        stop = next((a for a in legal if isinstance(a, EndTurn)), None) or _fallback(legal)
        pending = view.pending
        chosen: list[Any] = []
        if pending is None:
            cards = sorted({a.card for a in legal if isinstance(a, PlayAction)})
        else:
            cards = [pending.card]
            if pending.choice == 2:
                if pending.slot is not None:
                    chosen = [ChooseSlot(slot=pending.slot)]
                elif pending.agent is not None:
                    chosen = [ChooseAgent(agent=pending.agent)]
                elif pending.card_chosen is not None:
                    chosen = [ChooseCard(card=pending.card_chosen)]
        model = _Round(view, reading.values)
        base = model.prepare()
        first = chosen[0] if chosen else None
        plans: list[_Plan] = []
        for card in cards:
            plans.extend(self._plans(reading, model, base, card, first))
        step = len(chosen)
        if pending is not None:
            plans = [p for p in plans if list(p.steps[:step]) == chosen and len(p.steps) > step]
            plans = [p for p in plans if p.steps[step] in legal]
        if not plans:
            return stop
        best = self._best_plan(reading, model, base, plans)
        if best is None:
            return stop
        if pending is None:
            return PlayAction(card=best.card)
        return best.steps[step]

    def _hold(self, reading: _Reading, card: str) -> float:
        """Return what keeping ``card`` in hand is worth against playing it now."""
        h = reading.holdings[reading.me]
        c = reading.contexts[reading.me]
        contract = worth(h, c) - worth(after_playing(h), c)
        # A card that works on this round's board may find a better moment; the others gain the same
        # whenever they are played, so only the turn's one action step is at stake (the plans compete).
        later = (
            self.weights.hold
            if card in _BOARD_CARDS and not (reading.last_round() and reading.turns_left() == 0)
            else 0.0
        )
        return later + contract

    def _best_plan(self, reading: _Reading, model: _Round, base: _Prepared, plans: list[_Plan]) -> _Plan | None:
        """Return the plan that gains most over not playing (``None``: keep the cards)."""
        w = self.weights
        tau = w.softness
        average = self._average_card(reading) if any(p.effect == "demolish" for p in plans) else None
        holds = {card: self._hold(reading, card) for card in {p.card for p in plans}}
        scored: list[tuple[float, int, _Plan]] = []
        board_plans: list[tuple[int, _Plan]] = []
        base_quick = base.soft_total(tau)
        for k, plan in enumerate(plans):
            if not plan.effect:
                scored.append((plan.flat - holds[plan.card], k, plan))
                continue
            trial = model.copy()
            _apply(trial, plan, average)
            plan.prepared = trial.prepare()
            # The quick estimate ranks the plans; only the best enter the race.
            plan.quick = plan.prepared.soft_total(tau) - base_quick
            board_plans.append((k, plan))
        board_plans.sort(key=lambda kp: (-kp[1].quick, kp[0]))
        board_plans = board_plans[: w.shortlist]
        if board_plans:
            gains = base.placement_gains(tau)
            preps = [base, *(p.prepared for _, p in board_plans if p.prepared is not None)]
            prefs = [sorted(q.free, key=lambda x: (-gains[x], x)) for q in preps]
            length = max(q.remaining() for q in preps)
            futures = _futures(GameRng(_position_key(reading.view)), w.max_futures, length)
            costs = [0.0, *(holds[p.card] - p.flat for _, p in board_plans)]
            means = _race(preps, prefs, costs, futures, w, keep=0)
            for j, (k, plan) in enumerate(board_plans, start=1):
                scored.append((means[j] - means[0], k, plan))
        if not scored:
            return None
        gain, _, best = max(scored, key=lambda t: (t[0], -t[1]))
        return best if gain > 0 else None

    def _plans(self, reading: _Reading, model: _Round, base: _Prepared, card: str, first: Any) -> list[_Plan]:
        """Return the ways this seat may play ``card`` now (``first``: its first target, if chosen).

        Cards that move agents would list every agent with every boulevard; only the few agents and
        boulevards the quick estimate likes best are paired.
        """
        view = reading.view
        me = reading.me
        geo = model.geo
        names = geo.slot_names
        bnames = geo.boulevard_names
        filled = [x for x, c in enumerate(model.cards) if c is not None]
        plans: list[_Plan] = []
        if card in _MARKS or card == "A19":
            if card == "A19" and view.deck_size <= 0:
                return plans
            wanted = {"A24": (_MEMBER, _CREDITOR), "A26": (_PERSONALITY,)}.get(card)
            effect = "demolish" if card == "A19" else "mark"
            for x in filled:
                held = model.cards[x]
                if held is not None and (wanted is None or _KIND[held] in wanted):
                    plans.append(_Plan(card, (ChooseSlot(slot=names[x]),), effect, (x,)))
            return plans
        if card in ("A01", "A11"):
            starts = [geo.slot_index[first.slot]] if isinstance(first, ChooseSlot) else filled
            for x in starts:
                for y in filled:
                    if y == x or (first is None and y < x):
                        continue
                    cx, cy = model.cards[x], model.cards[y]
                    if cx is None or cy is None:
                        continue
                    if (card == "A01" and _TYPE[cx] != _TYPE[cy]) or (card == "A11" and y not in geo.neighbours[x]):
                        continue
                    pair = (ChooseSlot(slot=names[x]), ChooseSlot(slot=names[y]))
                    plans.append(_Plan(card, pair, "swap_cards", (x, y)))
            return plans
        supply = view.players[me].supply
        if card == "A03":
            counts: dict[int, int] = {}
            for a in model.agents:
                counts[a[0]] = counts.get(a[0], 0) + 1
            if supply > 0:
                crowded = [b for b in sorted(counts) if counts[b] == 1]
                plans.extend(_Plan(card, (ChooseBoulevard(boulevard=bnames[b]),), "place", (b,)) for b in crowded)
            return plans
        if card == "A13":
            plans.extend(_Plan(card, (ChooseBoulevard(boulevard=bnames[b]),), "barricade", (b,)) for b in model.free)
            return plans
        if card == "A04":
            # Revision 4: the extra agent goes beside a card that the agent placed this turn faces.
            own_placed = [a for a in model.agents if a[2] == me]
            if supply > 0 and own_placed:
                last = max(own_placed, key=lambda a: a[3])[0]
                near = {b for slot in geo.ends[last] for b in geo.around[slot]}
                targets = [b for b in model.free if b in near]
                plans.extend(_Plan(card, (ChooseBoulevard(boulevard=bnames[b]),), "place", (b,)) for b in targets)
            return plans
        protected = {p.seat for p in view.players if p.protected}
        own = [a for a in model.agents if a[2] == me]
        rivals = [a for a in model.agents if a[2] != me and a[2] not in protected]
        if card in ("A06", "A15"):
            effect = "arrest" if card == "A06" else "turn"
            plans.extend(_Plan(card, (ChooseAgent(agent=a[3]),), effect, (a[3],)) for a in rivals)
            return plans
        if card in ("A05", "A18", "A22"):
            tau = self.weights.softness
            pick = self.weights.pairing
            removal = base.removal_gains(model.agents, tau)
            # Our agents that do least where they stand; the opponents' agents that hurt us most.
            # A turned agent supports nobody: moving it (A05, A18) only moves an empty figure.
            if card != "A22":
                own = [a for a in own if a[1] != NOBODY]
                rivals = [a for a in rivals if a[1] != NOBODY]
            own = sorted(own, key=lambda a: (-removal[a[3]], a[3]))[:pick]
            rivals = sorted(rivals, key=lambda a: (-removal[a[3]], a[3]))[:pick]
            if isinstance(first, ChooseAgent):
                own = [a for a in model.agents if a[3] == first.agent] if card in ("A05", "A22") else own
                rivals = [a for a in model.agents if a[3] == first.agent] if card == "A18" else rivals
        if card in ("A05", "A18"):
            for a in own if card == "A05" else rivals:
                # Our agent goes where it helps us most, an opponent's where it does us most good.
                gains = base.placement_gains(tau, a[1])
                targets = sorted(model.free, key=lambda b: (-gains[b], b))[:pick]
                for b in targets:
                    steps = (ChooseAgent(agent=a[3]), ChooseBoulevard(boulevard=bnames[b]))
                    plans.append(_Plan(card, steps, "move", (a[3], b)))
            return plans
        if card == "A22":
            for a in own:
                for o in rivals:
                    if o[0] != a[0]:
                        plans.append(
                            _Plan(card, (ChooseAgent(agent=a[3]), ChooseAgent(agent=o[3])), "swap_agents", (a[3], o[3]))
                        )
            return plans
        return self._direct_plans(reading, card)

    def _direct_plans(self, reading: _Reading, card: str) -> list[_Plan]:
        """Return the plans of cards that do not touch the board, valued directly."""
        view = reading.view
        w = self.weights
        me = reading.me
        points = reading.action_points + w.action_option
        others = [s for s in reading.active if s != me]
        continues = not reading.last_round()
        opponent_hands = sum(view.players[s].hand_size for s in others)
        if card == "A02":
            return [_Plan(card, flat=0.3 if continues and view.deck_size > 0 else 0.0)]
        if card == "A10":
            return [_Plan(card, flat=self._first_player_gain(reading) if continues else 0.0)]
        if card == "A12":
            return [_Plan(card, flat=points)] if view.reserve_size > 0 else []
        if card == "A16":
            return [_Plan(card, flat=min(1.0, 0.2 * opponent_hands))]
        if card == "A21":
            own_left = len(reading.hand) - 1
            return [_Plan(card, flat=min(1.0, 0.2 * opponent_hands) - 0.5 * min(1, own_left))]
        if card == "A25":
            actions = sum(1 for c in reading.unseen if _KIND[c] == _ACTION)
            elsewhere = view.reserve_size + opponent_hands
            chance = max(0, actions - elsewhere) / view.deck_size if view.deck_size else 0.0
            return [_Plan(card, flat=min(1.0, chance) * points)] if view.deck_size > 0 else []
        if card == "A20":
            return [
                _Plan(card, (ChooseSeat(seat=s),), flat=points * (1.0 + reading.threat[s]))
                for s in others
                if view.players[s].hand_size > 0
            ]
        if card == "A23":
            plans: list[_Plan] = []
            h = reading.holdings[me]
            c = reading.contexts[me]
            militia = sorted({m for m in view.players[me].captured if _KIND[m] == _MILITIA})
            for m in militia:
                relief = worth(without_militia(h, m), c) - worth(h, c)
                for s in others:
                    hurt = reading.gain(s, m)  # negative: the militia costs them
                    plans.append(
                        _Plan(card, (ChooseCard(card=m), ChooseSeat(seat=s)), flat=relief - reading.threat[s] * hurt)
                    )
            return plans
        return []

    def _first_player_gain(self, reading: _Reading) -> float:
        """Return what taking the First Player card for next round (Ducal Favour) is worth.

        Going first picks the best boulevard before anyone else, so a seat's place in next round's
        turn order is worth ``first_player`` points spread from first (all of it) to last (none).
        The card would otherwise go to the seat after this round's First Player, or to whoever
        already played Ducal Favour this round.
        """
        view = reading.view
        order = [s for s in range(reading.n) if s in reading.active]
        if len(order) < 2:
            return 0.0
        holder = view.favour_seat
        if holder is None or holder not in order:
            later = [s for s in order if s > view.first_seat]
            holder = later[0] if later else order[0]
        place = (order.index(reading.me) - order.index(holder)) % len(order)
        return self.weights.first_player * place / (len(order) - 1)

    def _average_card(self, reading: _Reading) -> tuple[float, list[float]] | None:
        """Return the support and per-seat worth of an average unseen card (Demolition's replacement)."""
        pool = [c for c in reading.unseen if _KIND[c] != _ACTION] or reading.unseen
        if not pool:
            return None
        support = sum(_S[c] for c in pool) / len(pool)
        rows = [reading.values(c) for c in pool]
        return support, [sum(r[s] for r in rows) / len(rows) for s in range(reading.n)]


def _position_key(view: CadwallonView) -> str:
    """Return a key of the public position that stays the same while one action card is chosen."""
    cards = ",".join(s.card.id if s.card is not None else "-" for s in view.slots)
    agents = ",".join(f"{a.id}:{a.boulevard_index}:{a.owner}:{a.turned:d}" for a in view.agents)
    return f"cadwallon-ai:{view.round}:{view.viewer}:{cards}:{agents}"


def _fallback(legal: Sequence[Any]) -> Any:
    """Return a safe legal action: end the turn when allowed, else the first listed."""
    return next((a for a in legal if isinstance(a, EndTurn)), legal[0])
