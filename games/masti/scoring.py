"""End-of-game scoring of «Масти Власти» (spec §6-8): piles, jokers, neutral cards, gems, teams, ranks.

Pure functions of the won cards; the engine calls :func:`score_units` once the game is over.

>>> pile_points(3), pile_points(4), power_points(4)
(6, -1, 10)
>>> # A joker is mandatory: 3 aristocrat symbols + joker = 4 symbols, -1 point; plus 1 gem.
>>> unit = score_unit((0,), {0: ("P05", "E05", "A12", "P01")}, {0: 1})
>>> unit.total, unit.piles[0].joker, unit.piles[0].points
(0, 'P01', -1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from games.core.models import Seat
from games.masti.deck import CARDS, GUILD_ORDER, MAX_PILE_SYMBOLS, sort_key
from games.masti.models import CardKind, Guild, JokerPlacement, PileScore, ScoreBreakdown

#: Points of a guild pile by its symbol count, 0..8 (§6.2).
PILE_POINTS: tuple[int, ...] = (0, 1, 3, 6, -1, -3, -6, 10, 15)
#: Points by number of power cards held, 0..4 (§6.3).
POWER_POINTS: tuple[int, ...] = (0, -1, -3, -6, 10)
BONUS_POINTS = 2
PENALTY_POINTS = -2
_GUILD_INDEX: dict[Guild, int] = {guild: index for index, guild in enumerate(GUILD_ORDER)}
_GUILD_OF: dict[str, Guild | None] = {card: info.guild for card, info in CARDS.items()}
_SYMBOLS_OF: dict[str, int] = {card: info.symbols for card, info in CARDS.items()}


def pile_points(symbols: int) -> int:
    """Return the points of a guild pile with ``symbols`` symbols (jokers included).

    Raises:
        ValueError: The count is outside 0..8, which the deck makes impossible (§1.5).
    """
    if not 0 <= symbols <= MAX_PILE_SYMBOLS:
        raise ValueError(f"a guild pile cannot hold {symbols} symbols")
    return PILE_POINTS[symbols]


def power_points(count: int) -> int:
    """Return the points for holding ``count`` power cards (a team looks up its combined count)."""
    return POWER_POINTS[count]


@dataclass(frozen=True)
class Pile:
    """One player's pile of one guild: its cards (lowest first) and symbols (×2 cards count 2)."""

    owner: Seat
    guild: Guild
    cards: tuple[str, ...]
    symbols: int


def piles_of(owner: Seat, won: Sequence[str]) -> dict[Guild, Pile]:
    """Return ``owner``'s non-empty guild piles formed from its won cards, in guild order."""
    cards: dict[Guild, list[str]] = {}
    for card in won:
        guild = _GUILD_OF[card]
        if guild is not None:
            cards.setdefault(guild, []).append(card)
    piles: dict[Guild, Pile] = {}
    for guild in GUILD_ORDER:
        if guild in cards:
            held = tuple(sorted(cards[guild], key=sort_key))
            piles[guild] = Pile(owner, guild, held, sum(_SYMBOLS_OF[c] for c in held))
    return piles


def place_jokers(piles: Sequence[Pile], jokers: Sequence[str]) -> tuple[dict[Guild, str], tuple[str, ...]]:
    """Place ``jokers`` on ``piles`` (one owner's) the score-maximising legal way (§6.1).

    Exactly ``min(jokers, piles)`` jokers are placed, one per pile, on the piles with the largest
    gain ``T(s+1) - T(s)`` even when it is negative; equal gains go to the earliest guild.

    Returns:
        The joker placed on each chosen pile's guild, and the discarded jokers.
    """
    ordered_jokers = sorted(jokers, key=sort_key)
    ranked = sorted(
        piles, key=lambda p: (-(pile_points(p.symbols + 1) - pile_points(p.symbols)), _GUILD_INDEX[p.guild])
    )
    placed = {pile.guild: joker for pile, joker in zip(ranked, ordered_jokers, strict=False)}
    return placed, tuple(ordered_jokers[len(placed) :])


def _count(won: Sequence[str], kind: CardKind) -> int:
    return sum(1 for card in won if CARDS[card].kind is kind)


@dataclass(frozen=True)
class Counting:
    """Which pile counts for each guild, and where each member's jokers went (§6.1, §7)."""

    points: int
    counted: dict[Guild, Seat]
    placed: dict[Seat, dict[Guild, str]]
    discarded: dict[Seat, tuple[str, ...]]


def choose_counted(
    member_piles: Mapping[Seat, Mapping[Guild, Pile]], jokers: Mapping[Seat, Sequence[str]]
) -> tuple[dict[Guild, Seat], dict[Seat, dict[Guild, str]], dict[Seat, tuple[str, ...]]]:
    """Choose the counted pile of every guild and place every member's jokers, maximising the points.

    Works for one player (every pile counts) and for a team: of a guild held by several members
    only a pile with the fewest symbols (before jokers) counts; among equal piles every choice is
    tried (ties: the lower seat, then guild order). Each member's jokers then go greedily onto its
    own counted piles (:func:`place_jokers`).

    Args:
        member_piles: Each member's guild piles (members in seat order).
        jokers: Each member's jokers.

    Returns:
        The counting seat per guild, each member's placed jokers by guild, and its discarded jokers.
    """
    seats = sorted(member_piles)
    candidates: dict[Guild, list[Seat]] = {}
    for guild in GUILD_ORDER:
        holders = [seat for seat in seats if guild in member_piles[seat]]
        if holders:
            fewest = min(member_piles[seat][guild].symbols for seat in holders)
            candidates[guild] = [seat for seat in holders if member_piles[seat][guild].symbols == fewest]
    guilds = list(candidates)
    best: Counting | None = None
    for choice in product(*(candidates[guild] for guild in guilds)):
        counted = dict(zip(guilds, choice, strict=True))
        placed: dict[Seat, dict[Guild, str]] = {}
        discarded: dict[Seat, tuple[str, ...]] = {}
        points = 0
        for seat in seats:
            own = [member_piles[seat][g] for g, owner in counted.items() if owner == seat]
            placed[seat], discarded[seat] = place_jokers(own, jokers.get(seat, ()))
            points += sum(pile_points(p.symbols + (p.guild in placed[seat])) for p in own)
        if best is None or points > best.points:
            best = Counting(points, counted, placed, discarded)
    assert best is not None  # noqa: S101 - product() of no factors yields one empty choice
    return best.counted, best.placed, best.discarded


def score_unit(
    seats: Sequence[Seat],
    won: Mapping[Seat, Sequence[str]],
    gems: Mapping[Seat, int],
    *,
    resigned: bool = False,
) -> ScoreBreakdown:
    """Score one unit: a single player (standard game) or a team (§7), with ``rank`` left at 0.

    For a team the pile of each guild held by several members is the one with fewest symbols
    (before jokers); on equal counts every choice is tried and the best team score kept (ties: the
    lower seat's pile, then guild order). Each member's jokers go greedily onto its own counted
    piles, the rest are discarded. Neutral cards, power cards and gems are summed over the team.

    Args:
        seats: The unit's seats, lowest first.
        won: Every seat's won cards (at least the unit's).
        gems: Every seat's wealth-card gems (at least the unit's).
        resigned: Whether the unit resigned (recorded in the breakdown).

    Returns:
        The itemised score.
    """
    member_piles = {seat: piles_of(seat, won[seat]) for seat in seats}
    jokers = {seat: [c for c in won[seat] if CARDS[c].kind is CardKind.JOKER] for seat in seats}
    counted, placed, discarded = choose_counted(member_piles, jokers)
    piles: list[PileScore] = []
    for guild in GUILD_ORDER:
        for seat in seats:
            pile = member_piles[seat].get(guild)
            if pile is None:
                continue
            is_counted = counted.get(guild) == seat
            joker = placed[seat].get(guild) if is_counted else None
            points = pile_points(pile.symbols + (joker is not None)) if is_counted else 0
            piles.append(
                PileScore(
                    owner=seat,
                    guild=guild,
                    cards=pile.cards,
                    symbols=pile.symbols,
                    joker=joker,
                    counted=is_counted,
                    points=points,
                )
            )
    all_won = [card for seat in seats for card in won[seat]]
    bonus = _count(all_won, CardKind.BONUS)
    penalty = _count(all_won, CardKind.PENALTY)
    power = _count(all_won, CardKind.POWER)
    unit_gems = sum(gems[seat] for seat in seats)
    total = (
        sum(p.points for p in piles) + BONUS_POINTS * bonus + PENALTY_POINTS * penalty + power_points(power) + unit_gems
    )
    return ScoreBreakdown(
        seats=tuple(seats),
        piles=tuple(piles),
        discarded_jokers=tuple(c for seat in seats for c in discarded[seat]),
        bonus_cards=bonus,
        bonus_points=BONUS_POINTS * bonus,
        penalty_cards=penalty,
        penalty_points=PENALTY_POINTS * penalty,
        power_cards=power,
        power_points=power_points(power),
        gems=unit_gems,
        total=total,
        won_cards=len(all_won),
        rank=0,
        resigned=resigned,
    )


def joker_placements(unit: ScoreBreakdown, won: Mapping[Seat, Sequence[str]]) -> tuple[JokerPlacement, ...]:
    """Return where each of the unit's jokers went (``guild=None``: discarded), by owner then card."""
    out: list[JokerPlacement] = []
    for seat in unit.seats:
        on_pile = {p.joker: p.guild for p in unit.piles if p.owner == seat and p.joker is not None}
        for card in sorted((c for c in won[seat] if CARDS[c].kind is CardKind.JOKER), key=sort_key):
            out.append(JokerPlacement(owner=seat, card=card, guild=on_pile.get(card)))
    return tuple(out)


def rank_units(units: Sequence[ScoreBreakdown], resign_order: Sequence[Seat] = ()) -> list[int]:
    """Return each unit's rank (0 = first; equal ranks share the place).

    Units still playing rank by score, then won cards, then wealth gems (§8). Units that resigned
    rank below all of them, the latest to resign highest.

    >>> a = score_unit((0,), {0: ("P05",)}, {0: 0})
    >>> b = score_unit((1,), {1: ("E05",)}, {1: 1})
    >>> rank_units([a, b])
    [1, 0]
    """

    def key(unit: ScoreBreakdown) -> tuple[int, int, int]:
        return (unit.total, unit.won_cards, unit.gems)

    def resigned_at(unit: ScoreBreakdown) -> int:
        return min(resign_order.index(s) for s in unit.seats if s in resign_order)

    playing = [u for u in units if not any(s in resign_order for s in u.seats)]
    ranks: list[int] = []
    for unit in units:
        if unit in playing:
            ranks.append(sum(1 for other in playing if key(other) > key(unit)))
        else:
            later = sum(1 for other in units if other not in playing and resigned_at(other) > resigned_at(unit))
            ranks.append(len(playing) + later)
    return ranks


def score_units(
    units: Sequence[Sequence[Seat]],
    won: Mapping[Seat, Sequence[str]],
    gems: Mapping[Seat, int],
    resign_order: Sequence[Seat] = (),
) -> tuple[ScoreBreakdown, ...]:
    """Score and rank every unit; return the breakdowns best first (ties: lower seat first)."""
    scored = [score_unit(seats, won, gems, resigned=any(s in resign_order for s in seats)) for seats in units]
    ranks = rank_units(scored, resign_order)
    ranked = [unit.model_copy(update={"rank": rank}) for unit, rank in zip(scored, ranks, strict=True)]
    return tuple(sorted(ranked, key=lambda u: (u.rank, u.seats)))
