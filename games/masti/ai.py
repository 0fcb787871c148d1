"""An AI for «Масти Власти» that plays from its own seat's view and the legal actions only.

It never sees the state: everything comes from :class:`~games.masti.models.MastiView` (its hand,
every won pile, the cards on the table) and the legal actions it is handed. Its decisions:

- **Valuing cards.** A scoring unit (a player, or a team with the §7 dedupe) is worth the score
  its won cards would make now, with a joker valued as it could still be placed; a trick is worth
  what it changes in the taker's unit, so sets that score (3 or 7 symbols, +2 cards, the fourth
  power card) are wanted, and 4–6-symbol piles, −2 cards and lone power cards are avoided.
- **Playing a trick.** It deals the unseen cards to the seats still to act many times (the same
  deals for every candidate), lets them answer as any legal player might, and plays the card, or
  the bribe, with the best average: its own unit's gain minus a share of what an opponent gains,
  plus what the card is worth kept in hand. The best few are then played out as whole imagined
  games in which every seat, opponents included, plays a quick greedy policy: an opponent that
  ducks bad tricks and takes good ones, as a real one does, is what makes leading costly. So it
  follows suit low when a trick is bad, wins with the smallest card that does it when a trick is
  good, dumps −2 and power cards on other players, and bribes when every card would take a bad
  trick. A partner's good trick is its own.
- **Six players.** It seeds the card it least wants to hold (a power card, a −2, a lone high
  card) and, after winning rounds 1–8, leaves the card whose loss raises its team's score most.

It is deterministic given the :class:`~games.core.rng.GameRng` it is handed (the only draws are
the deals it imagines).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from pydantic import BaseModel

from games.core.rng import GameRng
from games.masti.deck import ALL_CARDS, CARDS, GUILD_ORDER, PERSONA_ORDER
from games.masti.models import CardKind, LeaveCard, MastiView, PayBribe, Phase, PlayCard, SeedTrump
from games.masti.scoring import PILE_POINTS, POWER_POINTS

# ----------------------------------------------------------------------------- card tables
_INDEX: dict[str, int] = {card: i for i, card in enumerate(ALL_CARDS)}
_SUIT: tuple[int, ...] = tuple(PERSONA_ORDER.index(CARDS[c].persona) for c in ALL_CARDS)
_VALUE: tuple[int, ...] = tuple(CARDS[c].value for c in ALL_CARDS)
_GUILD: tuple[int, ...] = tuple(
    GUILD_ORDER.index(guild) if (guild := CARDS[c].guild) is not None else -1 for c in ALL_CARDS
)
_SYMBOLS: tuple[int, ...] = tuple(CARDS[c].symbols for c in ALL_CARDS)
_KINDS: tuple[CardKind, ...] = tuple(CARDS[c].kind for c in ALL_CARDS)
_GUILDS = len(GUILD_ORDER)
# Holdings layout: symbols per guild (0..5), then jokers, bonus, penalty, power cards, gems.
_JOKER, _BONUS, _PENALTY, _POWER, _GEMS = 6, 7, 8, 9, 10
_SLOT: tuple[int, ...] = tuple(
    {
        CardKind.GUILD: _GUILD[i],
        CardKind.JOKER: _JOKER,
        CardKind.BONUS: _BONUS,
        CardKind.PENALTY: _PENALTY,
        CardKind.POWER: _POWER,
    }[_KINDS[i]]
    for i in range(len(ALL_CARDS))
)
_BRIBE_CARD = -1
_NO_GAIN = -99.0


@dataclass(frozen=True)
class Weights:
    """The strategy's tunable numbers (the defaults are the tuned ones)."""

    #: Imagined deals of the unseen cards per decision.
    samples: int = 40
    #: How much an opponent unit's gain counts against ours (split over the opponent units).
    opponent_share: float = 0.9
    #: The value of a placed joker that has no useful pile yet while the game goes on.
    joker_floor: float = 1.5
    #: The value of keeping a bribe gem for a later bad trick, per remaining round share.
    gem_option: float = 1.2
    #: The value of keeping a card in hand, by how it can shape later tricks.
    keep_low: float = 0.15
    keep_power: float = -0.6
    #: How our seats lead in imagined games: 0 at random, 1 by the chance to win the trump card.
    lead_policy: int = 1
    #: In imagined games our seats bribe when the best card is worth less than this.
    bribe_below: float = -1.0
    #: Symbols a guild pile may still be forced to take over a whole game (values piles by their future).
    risk: float = 0.0
    #: Imagined plays to spend on whole imagined games per decision (0: decide on this round alone).
    budget: int = 12000
    #: Fewest imagined games per candidate and stage.
    min_games: int = 4
    #: How many of the best candidates by this round's value are played out.
    shortlist: int = 6
    #: How much the best opponent's final score counts against ours in a played-out game.
    margin: float = 1.0
    #: A bonus for a played-out game that we win outright.
    win_bonus: float = 0.0
    #: When positive, a played-out game is worth a smooth chance of winning, lead/scale through a sigmoid.
    win_scale: float = 0.0
    #: How the other units play in played-out games: 0 any legal option at random, 1 the greedy policy
    #: (the tuned 1: a random opponent takes bad tricks it would duck, so leading looked too safe and the
    #: team that led round 1 of the 4-player team game won only 27.5%; 47.5% with 1, 100 games).
    opponents: int = 1


DEFAULT_WEIGHTS = Weights()


# ----------------------------------------------------------------------------- valuing collections
def _holdings(cards: Sequence[str], gems: int) -> list[int]:
    """Return the holdings vector of won ``cards`` and ``gems``."""
    held = [0] * 11
    for card in cards:
        i = _INDEX[card]
        held[_SLOT[i]] += _SYMBOLS[i] if _KINDS[i] is CardKind.GUILD else 1
    held[_GEMS] = gems
    return held


def _take(held: list[int], cards: Sequence[int], gems: int) -> list[int]:
    """Return ``held`` after taking ``cards`` (indices) and ``gems``."""
    out = held.copy()
    for i in cards:
        out[_SLOT[i]] += _SYMBOLS[i] if _KINDS[i] is CardKind.GUILD else 1
    out[_GEMS] += gems
    return out


_P: tuple[int, ...] = PILE_POINTS
#: What one joker adds to a pile of ``s`` symbols (a pile of 0 cannot take one).
_JOKER_GAIN: tuple[float, ...] = (_NO_GAIN, *(float(PILE_POINTS[s + 1] - PILE_POINTS[s]) for s in range(1, 8)))


def _potential(mu: float) -> tuple[float, ...]:
    """Return what a pile of 0..8 symbols is likely to end up worth if ``mu`` more symbols may still join it.

    The symbols still to come are taken as Poisson(``mu``); an empty guild stays at 0 (no pile).
    """
    table = [0.0]
    for symbols in range(1, 9):
        chance = math.exp(-mu)
        total = 0.0
        for extra in range(9):
            total += chance * PILE_POINTS[min(symbols + extra, 7) if symbols < 8 else 8]
            chance *= mu / (extra + 1)
        table.append(total)
    return tuple(table)


_POT_STEPS = 20
#: Pile worth tables for mu = 0.0, 0.1, ... 2.0 symbols still to come.
_POTENTIALS: tuple[tuple[float, ...], ...] = tuple(_potential(k / 10) for k in range(_POT_STEPS + 1))


def _pot_table(risk: float, rounds_after: int, max_rounds: int) -> tuple[float, ...]:
    """Return the pile worth table when ``rounds_after`` rounds follow the current one."""
    mu = risk * rounds_after / max(1, max_rounds)
    return _POTENTIALS[min(_POT_STEPS, round(mu * 10))]


def _joker_points(piles: Sequence[int], jokers: int, floor: float) -> float:
    """Return what ``jokers`` add to ``piles`` (symbol counts), greedily; ``floor`` while play goes on."""
    if jokers == 1:
        gain = max([_JOKER_GAIN[s] for s in piles], default=_NO_GAIN)
        return max(gain, floor) if floor > _NO_GAIN else (0.0 if gain == _NO_GAIN else gain)
    gains = sorted([_JOKER_GAIN[s] for s in piles], reverse=True)
    total = 0.0
    for j in range(jokers):
        gain = gains[j] if j < len(gains) else _NO_GAIN
        if floor > _NO_GAIN:
            gain = max(gain, floor)
        elif gain == _NO_GAIN:
            gain = 0.0
        total += gain
    return total


def unit_value(members: Sequence[Sequence[int]], floor: float = _NO_GAIN, pot: Sequence[float] = _P) -> float:
    """Return the score of a unit's holdings (one member: a player; two: a team with the §7 dedupe).

    ``floor`` values jokers while the game goes on (a joker will find a pile); the default scores
    exactly as the engine would at the end. ``pot`` gives a pile's worth by its symbols (the
    scoring table by default; while play goes on, what the pile is likely to end up worth).
    """
    if len(members) == 1:
        h = members[0]
        total = float(
            pot[h[0]]
            + pot[h[1]]
            + pot[h[2]]
            + pot[h[3]]
            + pot[h[4]]
            + pot[h[5]]
            + 2 * h[_BONUS]
            - 2 * h[_PENALTY]
            + h[_GEMS]
            + POWER_POINTS[min(4, h[_POWER])]
        )
        if h[_JOKER]:
            total += _joker_points(h[:_GUILDS], h[_JOKER], floor)
        return total
    a, b = members[0], members[1]
    total = float(
        2 * (a[_BONUS] + b[_BONUS] - a[_PENALTY] - b[_PENALTY])
        + a[_GEMS]
        + b[_GEMS]
        + POWER_POINTS[min(4, a[_POWER] + b[_POWER])]
    )
    own_a: list[int] = []
    own_b: list[int] = []
    ties: list[int] = []
    piles = 0.0
    for g in range(_GUILDS):
        sa = a[g]
        sb = b[g]
        if sa and sb:
            if sa < sb:
                own_a.append(sa)
                piles += pot[sa]
            elif sb < sa:
                own_b.append(sb)
                piles += pot[sb]
            else:
                ties.append(sa)
                piles += pot[sa]
        elif sa:
            own_a.append(sa)
            piles += pot[sa]
        elif sb:
            own_b.append(sb)
            piles += pot[sb]
    ja = a[_JOKER]
    jb = b[_JOKER]
    if not ja and not jb:
        return total + piles
    if floor > _NO_GAIN or not ties:
        # While play goes on, equal piles go to the partner holding more jokers (a fair estimate).
        if ja >= jb:
            own_a.extend(ties)
        else:
            own_b.extend(ties)
        return total + piles + _joker_points(own_a, ja, floor) + _joker_points(own_b, jb, floor)
    best = -1e9
    for choice in product((0, 1), repeat=len(ties)):
        with_a = own_a + [s for s, c in zip(ties, choice, strict=True) if c == 0]
        with_b = own_b + [s for s, c in zip(ties, choice, strict=True) if c == 1]
        best = max(best, _joker_points(with_a, ja, floor) + _joker_points(with_b, jb, floor))
    return total + piles + best


def gain_of(
    members: Sequence[Sequence[int]],
    position: int,
    cards: Sequence[int],
    gems: int,
    floor: float,
    pot: Sequence[float] = _P,
) -> float:
    """Return what member ``position`` taking ``cards`` (indices) and ``gems`` adds to the unit's value.

    The same as the difference of two :func:`unit_value` calls, computed on the touched piles only
    (it falls back to the two calls when a joker is involved).
    """
    held = members[position]
    add = [0] * 11
    for c in cards:
        add[_SLOT[c]] += _SYMBOLS[c] if _KINDS[c] is CardKind.GUILD else 1
    if add[_JOKER] or any(m[_JOKER] for m in members):
        after = _take(list(held), cards, gems)
        changed = [*members[:position], after, *members[position + 1 :]]
        return unit_value(changed, floor, pot) - unit_value(members, floor, pot)
    power = sum(m[_POWER] for m in members)
    total = float(
        2 * add[_BONUS]
        - 2 * add[_PENALTY]
        + gems
        + POWER_POINTS[min(4, power + add[_POWER])]
        - POWER_POINTS[min(4, power)]
    )
    if len(members) == 1:
        for g in range(_GUILDS):
            if add[g]:
                total += pot[held[g] + add[g]] - pot[held[g]]
        return total
    partner = members[1 - position]
    for g in range(_GUILDS):
        if add[g]:
            mine = held[g]
            other = partner[g]
            if other:
                before = pot[min(mine, other)] if mine else pot[other]
                total += pot[min(mine + add[g], other)] - before
            else:
                total += pot[mine + add[g]] - pot[mine]
    return total


# ----------------------------------------------------------------------------- reading the view
@dataclass
class _Table:
    """What the AI reads off its view once per decision."""

    view: MastiView
    me: int
    units: list[tuple[int, ...]]
    unit_of: dict[int, int]
    held: list[list[int]]
    hand: list[int]
    unseen: list[int]
    floor: float
    rounds_left: int
    pot: tuple[float, ...]


def _read(view: MastiView, weights: Weights) -> _Table:
    me = view.viewer
    assert me is not None  # noqa: S101 - checked by choose()
    n = view.num_seats
    units: list[tuple[int, ...]] = (
        [tuple(t) for t in view.teams] if view.teams is not None else [(s,) for s in range(n)]
    )
    unit_of = {s: u for u, seats in enumerate(units) for s in seats}
    held: list[list[int]] = []
    seen: set[str] = set(view.hand or ())
    for player in view.players:
        won = [c for pile in player.piles for c in pile.cards] + list(player.neutral)
        seen.update(won)
        held.append(_holdings(won, player.wealth_gems))
    seen.update(p.card for p in view.plays if p.card is not None)
    seen.update(view.left_cards)
    seen.update(view.trump_deck_cards or ())
    seen.update(view.leave_choices)
    if view.trump is not None:
        seen.add(view.trump)
    if view.seeded_card is not None:
        seen.add(view.seeded_card)
    unseen = [i for i, card in enumerate(ALL_CARDS) if card not in seen]
    rounds_left = max(0, view.max_rounds - view.round)
    floor = weights.joker_floor if rounds_left > 0 else _NO_GAIN
    hand = [_INDEX[c] for c in view.hand or ()]
    after = view.max_rounds - view.round if n == 6 else view.trump_deck_size
    pot = _pot_table(weights.risk, after, view.max_rounds)
    return _Table(view, me, units, unit_of, held, hand, unseen, floor, rounds_left, pot)


def _unit_members(table: _Table, unit: int, held: Sequence[list[int]]) -> list[list[int]]:
    return [held[s] for s in table.units[unit]]


# ----------------------------------------------------------------------------- rollouts
# A 64-bit linear congruential generator for the imagined games: seeded from the GameRng, so
# decisions stay deterministic, and far cheaper per draw (its high bits are used).
_LCG_A = 6364136223846793005
_LCG_C = 1442695040888963407
_LCG_MASK = (1 << 64) - 1


class _World:
    """One imagined continuation: every hand dealt, the trump deck in order; mutated by :meth:`run`."""

    __slots__ = (
        "bribe_below",
        "deck",
        "floor",
        "gems",
        "hands",
        "held",
        "lead_policy",
        "leader",
        "left",
        "max_rounds",
        "n",
        "out",
        "pot",
        "risk",
        "round",
        "six",
        "smart",
        "state",
        "unit_of",
        "units",
    )

    def __init__(
        self,
        table: _Table,
        hands: list[list[int]],
        gems: list[int],
        deck: list[int],
        seed: int,
        lead_policy: int = 0,
        bribe_below: float = -1.0,
        risk: float = 0.0,
        opponents: int = 0,
    ) -> None:
        view = table.view
        self.n = view.num_seats
        self.six = self.n == 6
        self.hands = hands
        self.gems = gems
        self.held = [h.copy() for h in table.held]
        self.out = [p.out for p in view.players]
        self.deck = deck
        self.left = [_INDEX[c] for c in view.left_cards]
        self.round = view.round
        self.max_rounds = view.max_rounds
        self.leader = table.me
        self.units = table.units
        self.unit_of = table.unit_of
        # Seats that play the greedy policy; the others play any legal option at random.
        self.smart = frozenset(range(self.n)) if opponents else frozenset(table.units[table.unit_of[table.me]])
        self.state = seed & _LCG_MASK
        self.floor = table.floor
        self.lead_policy = lead_policy
        self.bribe_below = bribe_below
        self.pot = table.pot
        self.risk = risk

    def below(self, options: int) -> int:
        """Return a draw in [0, options)."""
        self.state = (self.state * _LCG_A + _LCG_C) & _LCG_MASK
        return (self.state >> 33) % options

    def members(self, seat: int) -> list[list[int]]:
        return [self.held[s] for s in self.units[self.unit_of[seat]]]

    def shuffle_deck(self) -> None:
        """Put the trump deck in a random order (the order is hidden from every seat)."""
        deck = self.deck
        for i in range(len(deck) - 1, 0, -1):
            j = self.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]

    def hold_chance(self, rest: Sequence[int], led: int, trump_suit: int, key: int, unit: int) -> float:
        """Return the chance no opponent of ``unit`` still to act beats ``key`` (each plays any legal option)."""
        chance = 1.0
        unit_of = self.unit_of
        for seat in rest:
            if unit_of[seat] == unit:
                continue
            hand = self.hands[seat]
            legal = [c for c in hand if _SUIT[c] == led] or hand
            beat = 0
            for c in legal:
                suit = _SUIT[c]
                if (20 + _VALUE[c] if suit == trump_suit else (_VALUE[c] if suit == led else -1)) > key:
                    beat += 1
            if beat:
                chance *= 1.0 - beat / (len(legal) + (1 if self.gems[seat] > 0 else 0))
        return chance

    def greedy(self, seat: int, plays: list[tuple[int, int]], trump: int, rest: Sequence[int]) -> int:
        """A quick one-trick policy: win good tricks cheaply, duck bad ones, dump bad cards.

        Inside an imagined game every hand is known, so it reckons how likely the seats still to
        act are to beat each card.
        """
        hand = self.hands[seat]
        trump_suit = _SUIT[trump]
        unit = self.unit_of[seat]
        members = self.members(seat)
        position = self.units[unit].index(seat)
        if not plays:
            return self.lead(seat, hand, trump, rest, members, position)
        led = _SUIT[plays[0][1]]
        legal = [c for c in hand if _SUIT[c] == led] or hand
        best_key = -1
        best_seat = -1
        gems = 0
        table_cards = [trump]
        for s, c in plays:
            if c < 0:
                gems += 1
                continue
            table_cards.append(c)
            suit = _SUIT[c]
            key = 20 + _VALUE[c] if suit == trump_suit else (_VALUE[c] if suit == led else -1)
            if key > best_key:
                best_key = key
                best_seat = s
        # A partner winning so far takes what we play under it, unless someone beats it.
        partner = self.units[unit].index(best_seat) if best_seat != seat and self.unit_of[best_seat] == unit else -1
        partner_holds = self.hold_chance(rest, led, trump_suit, best_key, unit) if partner >= 0 and rest else 1.0
        best_card = legal[0]
        best_value = -1e9
        for c in legal:
            suit = _SUIT[c]
            key = 20 + _VALUE[c] if suit == trump_suit else (_VALUE[c] if suit == led else -1)
            if key > best_key:
                sure = self.hold_chance(rest, led, trump_suit, key, unit) if rest else 1.0
                table_cards.append(c)
                gain = gain_of(members, position, table_cards, gems, self.floor, self.pot)
                table_cards.pop()
                value = sure * gain + (1.0 - sure) * _DUMP[c] - 0.01 * _VALUE[c]
            elif partner >= 0:
                table_cards.append(c)
                gain = gain_of(members, partner, table_cards, gems, self.floor, self.pot)
                table_cards.pop()
                value = partner_holds * gain + (1.0 - partner_holds) * _DUMP[c] + 0.01 * _VALUE[c]
            else:
                value = _DUMP[c] + 0.01 * _VALUE[c]
            if value > best_value:
                best_value = value
                best_card = c
        if self.gems[seat] > 0 and best_value < self.bribe_below:
            return _BRIBE_CARD
        return best_card

    def lead(
        self, seat: int, hand: list[int], trump: int, rest: Sequence[int], members: list[list[int]], position: int
    ) -> int:
        """Lead the card with the best mix of winning the trump card and dumping it on another seat."""
        if self.lead_policy == 0:
            return hand[self.below(len(hand))]
        trump_suit = _SUIT[trump]
        best_card = hand[0]
        best_value = -1e9
        for c in hand:
            suit = _SUIT[c]
            key = 20 + _VALUE[c] if suit == trump_suit else _VALUE[c]
            sure = self.hold_chance(rest, suit, trump_suit, key, self.unit_of[seat])
            value = sure * gain_of(members, position, [trump, c], 0, self.floor, self.pot) + (1.0 - sure) * _DUMP[c]
            value -= 0.01 * _VALUE[c]
            if value > best_value:
                best_value = value
                best_card = c
        return best_card

    def leave(self, seat: int, taken: list[int]) -> int:
        """Return the card the round winner leaves in the centre (6 players)."""
        if seat not in self.smart:
            return taken[self.below(len(taken))]
        unit = self.units[self.unit_of[seat]]
        position = unit.index(seat)
        members = self.members(seat)
        best_card = taken[0]
        best_value = -1e9
        for c in taken:
            after = members[position].copy()
            after[_SLOT[c]] -= _SYMBOLS[c] if _KINDS[c] is CardKind.GUILD else 1
            value = unit_value([*members[:position], after, *members[position + 1 :]], self.floor, self.pot)
            if value > best_value:
                best_value = value
                best_card = c
        return best_card

    def run(self, order: list[int], plays: list[tuple[int, int]], trump: int) -> list[float]:
        """Play the current round from ``plays`` and every later round; return each unit's final score."""
        n = self.n
        hands = self.hands
        gems = self.gems
        held = self.held
        smart = self.smart
        suit_of = _SUIT
        value_of = _VALUE
        while True:
            led = suit_of[plays[0][1]] if plays else -1
            for seat in order[len(plays) :]:
                hand = hands[seat]
                if seat in smart:
                    card = self.greedy(seat, plays, trump, order[len(plays) + 1 :])
                elif led < 0:
                    self.state = (self.state * _LCG_A + _LCG_C) & _LCG_MASK
                    card = hand[(self.state >> 33) % len(hand)]
                else:
                    legal = [c for c in hand if suit_of[c] == led] or hand
                    options = len(legal) + (1 if gems[seat] > 0 else 0)
                    self.state = (self.state * _LCG_A + _LCG_C) & _LCG_MASK
                    k = (self.state >> 33) % options
                    card = legal[k] if k < len(legal) else _BRIBE_CARD
                if card < 0:
                    gems[seat] -= 1
                else:
                    hand.remove(card)
                    if led < 0:
                        led = suit_of[card]
                plays.append((seat, card))
            trump_suit = suit_of[trump]
            winner = plays[0][0]
            best = -1
            bribes = 0
            taken = [trump]
            for seat, card in plays:
                if card < 0:
                    bribes += 1
                    continue
                taken.append(card)
                suit = suit_of[card]
                key = 20 + value_of[card] if suit == trump_suit else (value_of[card] if suit == led else -1)
                if key > best:
                    best = key
                    winner = seat
            mine = held[winner]
            for c in taken:
                mine[_SLOT[c]] += _SYMBOLS[c] if _KINDS[c] is CardKind.GUILD else 1
            mine[_GEMS] += bribes
            if self.six and self.round <= _LEAVE_ROUNDS:
                card = self.leave(winner, taken)
                mine[_SLOT[card]] -= _SYMBOLS[card] if _KINDS[card] is CardKind.GUILD else 1
                self.left.append(card)
            self.leader = winner
            if not any(hands) or (self.six and self.round >= self.max_rounds) or (not self.six and not self.deck):
                break
            self.round += 1
            if self.six and self.round in _REBUILD_ROUNDS:
                deck = self.left
                for i in range(len(deck) - 1, 0, -1):
                    j = self.below(i + 1)
                    deck[i], deck[j] = deck[j], deck[i]
                self.deck = deck
                self.left = []
            trump = self.deck.pop()
            if self.risk > 0:
                after = self.max_rounds - self.round if self.six else len(self.deck)
                self.pot = _pot_table(self.risk, after, self.max_rounds)
            for s in range(n):
                if not self.out[s] and not hands[s]:
                    self.out[s] = True
                    gems[s] = 0
            lead = winner
            while self.out[lead]:
                lead = (lead + 1) % n
            order = [s for s in _ROTATIONS[n][lead] if not self.out[s]]
            plays = []
        return [unit_value([held[s] for s in unit]) for unit in self.units]


_LEAVE_ROUNDS = 8
_GAME_OVERHEAD = 12
#: Seats clockwise from each lead, by table size.
_ROTATIONS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple((lead + k) % n for k in range(n)) for lead in range(n)) for n in range(3, 7)
}
_REBUILD_ROUNDS = (5, 9)
#: What sending a card to another player's trick is worth to the one who dumps it.
_DUMP: tuple[float, ...] = tuple(
    {CardKind.PENALTY: 1.0, CardKind.POWER: 1.0, CardKind.BONUS: -1.0, CardKind.JOKER: -0.5}.get(_KINDS[i], 0.0)
    for i in range(len(ALL_CARDS))
)


# ----------------------------------------------------------------------------- the agent
class MastiAgent:
    """The «Масти Власти» AI; deterministic given the generator it is handed."""

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        """Use ``weights`` (the tuned defaults unless an experiment passes others)."""
        self.weights = weights

    def choose(self, view: BaseModel, legal: list[Any], rng: GameRng) -> Any:
        """Return one of ``legal`` for the seat ``view`` belongs to."""
        if not isinstance(view, MastiView) or view.viewer is None:
            raise ValueError("the Masti AI needs its own seat's MastiView")
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        table = _read(view, self.weights)
        if view.phase is Phase.SEEDING:
            seeds = [a for a in legal if isinstance(a, SeedTrump)]
            return self._seed(table, seeds) if seeds else legal[0]
        if view.phase is Phase.LEAVE:
            leaves = [a for a in legal if isinstance(a, LeaveCard)]
            return self._leave(table, leaves) if leaves else legal[0]
        return self._play(table, legal, rng)

    # ------------------------------------------------------------------ hand shape
    def _keep_value(self, card: int, table: _Table) -> float:
        """Return what holding ``card`` for later rounds is worth (negative: a liability)."""
        w = self.weights
        if _KINDS[card] is CardKind.POWER:
            return w.keep_power
        return w.keep_low * (7 - _VALUE[card]) / 6

    # ------------------------------------------------------------------ 6 players: seeding
    def _seed(self, table: _Table, seeds: Sequence[SeedTrump]) -> SeedTrump:
        """Add the card least worth keeping: a power card, a −2, else the most awkward high card."""

        def score(action: SeedTrump) -> tuple[float, int]:
            i = _INDEX[action.card]
            kind = _KINDS[i]
            if kind is CardKind.POWER:
                base = 3.0
            elif kind is CardKind.PENALTY:
                base = 1.0
            elif kind in (CardKind.BONUS, CardKind.JOKER):
                base = -2.0
            else:
                base = _VALUE[i] / 12 - 0.1 * _SYMBOLS[i]
            same_suit = sum(1 for c in table.hand if _SUIT[c] == _SUIT[i])
            return (base + 0.05 * same_suit, -i)

        return max(seeds, key=score)

    # ------------------------------------------------------------------ 6 players: leaving a card
    def _leave(self, table: _Table, leaves: Sequence[LeaveCard]) -> LeaveCard:
        """Leave the card whose loss raises our unit's value most (ties: one that hurts its next taker)."""
        my_unit = table.unit_of[table.me]
        base = table.held[table.me]
        others = [table.held[s] for s in table.units[my_unit] if s != table.me]

        def score(action: LeaveCard) -> tuple[float, int]:
            i = _INDEX[action.card]
            after = base.copy()
            after[_SLOT[i]] -= _SYMBOLS[i] if _KINDS[i] is CardKind.GUILD else 1
            members = [after, *others] if table.units[my_unit][0] == table.me else [*others, after]
            own = unit_value(members, table.floor)
            # The card returns as a trump card for a later winner, most likely an opponent.
            generic = {CardKind.BONUS: 2.0, CardKind.PENALTY: -2.0, CardKind.POWER: -1.0, CardKind.JOKER: 1.5}
            return (own - 0.2 * generic.get(_KINDS[i], 1.0), -i)

        return max(leaves, key=score)

    # ------------------------------------------------------------------ playing a round
    def _play(self, table: _Table, legal: Sequence[Any], rng: GameRng) -> Any:
        view = table.view
        w = self.weights
        n = view.num_seats
        lead = view.lead if view.lead is not None else table.me
        order = [s for s in ((lead + k) % n for k in range(n)) if not view.players[s].out]
        played = [(p.seat, _INDEX[p.card] if p.card is not None else _BRIBE_CARD) for p in view.plays]
        trump = _INDEX[view.trump] if view.trump is not None else -1
        candidates: list[tuple[Any, int]] = []
        for action in legal:
            if isinstance(action, PlayCard):
                candidates.append((action, _INDEX[action.card]))
            elif isinstance(action, PayBribe):
                candidates.append((action, _BRIBE_CARD))
        if not candidates or trump < 0:
            return legal[0]
        values = self._trick_values(table, order, played, trump, candidates, rng)
        ranked = sorted(range(len(candidates)), key=lambda k: (-values[k], k))
        if w.budget <= 0 or len(ranked) == 1:
            return candidates[ranked[0]][0]
        shortlist = ranked[: w.shortlist]
        chosen = self._search(table, order, played, trump, [candidates[k][1] for k in shortlist], rng)
        return candidates[shortlist[chosen]][0]

    def _search(
        self,
        table: _Table,
        order: list[int],
        played: list[tuple[int, int]],
        trump: int,
        cards: list[int],
        rng: GameRng,
    ) -> int:
        """Return the index of the best of ``cards`` by whole imagined games (successive halving).

        Every candidate still in the race plays the same imagined deals; after each stage the worse
        half drops out. The number of games is set by a budget of imagined plays, so a decision
        takes about as long early in the game (long games, fewer of them) as late.
        """
        view = table.view
        w = self.weights
        me = table.me
        my_unit = table.unit_of[me]
        others = [s for s in range(view.num_seats) if s != me]
        sizes = [view.players[s].hand_size for s in others]
        known_deck = [_INDEX[c] for c in view.trump_deck_cards or ()]
        if not known_deck and view.seeded_card is not None:
            known_deck = [_INDEX[view.seeded_card]]
        hidden = max(0, view.trump_deck_size - len(known_deck))
        gems = [p.bribe_gems for p in view.players]
        rounds = view.max_rounds - view.round + 1 if view.num_seats == 6 else view.trump_deck_size + 1
        # An imagined game costs its plays plus a fixed set-up (about a dozen plays' worth).
        games = max(w.min_games * len(cards), w.budget // (rounds * len(order) + _GAME_OVERHEAD))
        alive = list(range(len(cards)))
        totals = [0.0] * len(cards)
        played_games = [0] * len(cards)
        stages = max(1, (len(cards) - 1).bit_length())
        dealt = 0
        for stage in range(stages):
            per = max(w.min_games, games // (stages * len(alive)))
            for _ in range(per):
                pool = rng.shuffled(table.unseen)
                hands: list[list[int]] = [[] for _ in range(view.num_seats)]
                hands[me] = table.hand
                start = 0
                for seat, size in zip(others, sizes, strict=True):
                    hands[seat] = pool[start : start + size]
                    start += size
                deck = [*known_deck, *pool[start : start + hidden]]
                seed = int(rng.random() * (1 << 53)) + dealt
                dealt += 1
                for j in alive:
                    card = cards[j]
                    world = _World(
                        table,
                        [h.copy() for h in hands],
                        gems.copy(),
                        deck.copy(),
                        seed,
                        w.lead_policy,
                        w.bribe_below,
                        w.risk,
                        w.opponents,
                    )
                    if card >= 0:
                        world.hands[me].remove(card)
                    else:
                        world.gems[me] -= 1
                    world.shuffle_deck()
                    scores = world.run(order, [*played, (me, card)], trump)
                    mine = scores[my_unit]
                    rest = max(v for u, v in enumerate(scores) if u != my_unit)
                    lead = mine - rest
                    if w.win_scale > 0:
                        # A smooth chance of finishing first: what matters is winning, not by how much.
                        totals[j] += 1.0 / (1.0 + math.exp(-lead / w.win_scale)) + w.margin * lead / 100
                    else:
                        totals[j] += mine - w.margin * rest + (w.win_bonus if mine > rest else 0.0)
                    played_games[j] += 1
            if stage < stages - 1:
                alive.sort(key=lambda j: (-totals[j] / played_games[j], j))
                alive = alive[: max(1, (len(alive) + 1) // 2)]
        return max(alive, key=lambda j: (totals[j] / played_games[j], -j))

    def _trick_values(
        self,
        table: _Table,
        order: list[int],
        played: list[tuple[int, int]],
        trump: int,
        candidates: list[tuple[Any, int]],
        rng: GameRng,
    ) -> list[float]:
        """Return each candidate's value over imagined ends of this round only."""
        view = table.view
        w = self.weights
        after = order[len(played) + 1 :] if table.me in order else []
        trump_suit = _SUIT[trump]
        my_unit = table.unit_of[table.me]
        opponents = max(1, len(table.units) - 1)
        share = w.opponent_share / opponents

        # Imagined deals: the seats still to act get random unseen cards (common to every candidate).
        samples = w.samples if after else 1
        deals: list[list[list[int]]] = []
        for _ in range(samples):
            pool = rng.shuffled(table.unseen) if after else []
            dealt: list[list[int]] = []
            start = 0
            for seat in after:
                size = view.players[seat].hand_size
                dealt.append(pool[start : start + size])
                start += size
            deals.append(dealt)
        # Each follower's random choices, fixed per deal so candidates meet the same answers.
        picks = [[rng.random() for _ in after] for _ in range(samples)]

        gain_cache: dict[tuple[int, tuple[int, ...], int], float] = {}

        def gain(winner: int, cards: tuple[int, ...], gems: int) -> float:
            key = (winner, cards, gems)
            if key in gain_cache:
                return gain_cache[key]
            unit = table.unit_of[winner]
            members = _unit_members(table, unit, table.held)
            delta = gain_of(members, table.units[unit].index(winner), cards, gems, table.floor, table.pot)
            value = delta if unit == my_unit else -share * delta
            gain_cache[key] = value
            return value

        values: list[float] = []
        for _action, card in candidates:
            total = 0.0
            for deal, pick in zip(deals, picks, strict=True):
                plays = [*played, (table.me, card)]
                led = plays[0][1]
                led_suit = _SUIT[led] if led >= 0 else _SUIT[card]
                for k, seat in enumerate(after):
                    hand = deal[k]
                    follow = [c for c in hand if _SUIT[c] == led_suit] or hand
                    options = len(follow) + (1 if view.players[seat].bribe_gems > 0 else 0)
                    if options == 0:
                        continue
                    choice = min(int(pick[k] * options), options - 1)
                    plays.append((seat, follow[choice] if choice < len(follow) else _BRIBE_CARD))
                winner = _winner(plays, trump_suit)
                cards = (*tuple(sorted(c for _, c in plays if c >= 0)), trump)
                gems = sum(1 for _, c in plays if c < 0)
                total += gain(winner, cards, gems)
            value = total / samples
            if card >= 0:
                value -= self._keep_value(card, table)
            else:
                value -= w.gem_option * _gem_scarcity(view, table)
            values.append(value)
        return values


def _gem_scarcity(view: MastiView, table: _Table) -> float:
    """Return how much one more bribe gem is still worth (1 early, 0 when it cannot be used)."""
    me = view.players[table.me]
    if me.bribe_gems <= 0:
        return 0.0
    rounds = table.rounds_left + 1
    return min(1.0, rounds / max(1, me.bribe_gems * 3))


def _winner(plays: Sequence[tuple[int, int]], trump_suit: int) -> int:
    """Return the seat winning ``plays`` (seat, card index; -1 = bribe); the lead always played."""
    led_suit = _SUIT[plays[0][1]]
    best_seat = plays[0][0]
    best_key = (-1, -1)
    for seat, card in plays:
        if card < 0:
            continue
        suit = _SUIT[card]
        if suit == trump_suit:
            key = (1, _VALUE[card])
        elif suit == led_suit:
            key = (0, _VALUE[card])
        else:
            continue
        if key > best_key:
            best_key = key
            best_seat = seat
    return best_seat
