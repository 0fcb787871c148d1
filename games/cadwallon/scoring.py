"""End-of-game scoring of «Гильдии Кадвалона» (digest §8-9), with the distinct-crests tie-break.

Guilds, personalities, Creditors, actions, militia, conditions and contracts, then the ranking.

Pure functions of the cards each seat owns. The engine calls :func:`score_table` once the game is
over and :func:`live_total` for the public running score (no contracts).

The seed's example (digest §8.4): Red holds USU-4, USU-1, JEW-2, one personality, one action card and
militia M01 + M02. The personality joins the Usurers: ``(1 + 3) × 3 + 2 × 1 + 2 − (1 + 1) × 2 = 12``.

>>> breakdown = score_seat(0, ("USU-4", "USU-1", "JEW-2", "P1", "M01", "M02"), ("A01",), 0, grid=3)
>>> breakdown.total, [(g.guild.value, g.personalities, g.total) for g in breakdown.guilds]
(12, [('USU', 1, 12), ('JEW', 0, 2)])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from games.cadwallon.cards import CARDS, CONTRACT_REWARD, CONTRACT_RULES, PATRON_CONTRACTS, guilds_in_play
from games.cadwallon.models import Category, Guild, GuildScore, ScoreBreakdown
from games.core.models import Seat

GUILD_CAP = 4
CHARTER_CAP = 5  # C02
FULL_GUILD = 4
CREDITOR_BONUS = 1
FULL_CREDITOR_BONUS = 5
GREAT_GUILD_BONUS = 3  # C10
FREE_SPIRIT_POINTS = 2  # C05
INFORMER_PENALTY = 5  # C12
ACTION_POINTS = 2
GOLDEN_ACTION_POINTS = 3  # C04
HOARDER_PER_CARD, HOARDER_CAP = 2, 6  # K08


@dataclass(frozen=True)
class _Holding:
    """One guild as a player holds it before personalities: members, their GP, the Creditor."""

    guild: Guild
    members: tuple[str, ...]
    gp: int
    creditor: bool


@dataclass(frozen=True)
class TableContext:
    """What one seat's contract and conditions need to know about the other seats.

    ``rival_members[g]`` is the most members of guild ``g`` any other seat holds; ``most_militia``
    whether this seat has the most militia cards at the table (ties included, at least one).
    """

    rival_members: Mapping[Guild, int]
    most_militia: bool
    #: Per contract, the best measure among the other seats (the lowest for a ``fewest`` contract).
    rival_best: Mapping[str, int] = field(default_factory=dict)
    #: Seats at the table (some contracts count ties only from 3 players).
    players: int = 2


_NO_RIVALS = TableContext(rival_members={}, most_militia=False)


def contract_measure(
    contract: str, captured: Sequence[str], hand: Sequence[str], played: Sequence[str], cap: int = GUILD_CAP
) -> int:
    """Return what ``contract`` counts for one seat's cards (revision 2, :data:`CONTRACT_RULES`).

    ``roster`` is the most members of one guild plus every personality (no cap: it measures, it
    does not score), ``grand`` the most points one guild can score with them (at most ``cap``
    cards), ``threes`` the guilds with at least 3 members, ``crests`` the distinct guild crests of
    members and Creditors, ``district`` the most owned cards (captured, in hand or played) of one
    district type.
    """
    rule = CONTRACT_RULES[contract]
    members = members_by_guild(captured)
    categories = Counter(CARDS[c].category for c in captured)
    personalities = categories[Category.PERSONALITY]
    measure = rule.measure
    if measure == "members":
        return members[PATRON_CONTRACTS[contract]]
    if measure == "militia":
        return categories[Category.MILITIA]
    if measure == "personalities":
        return personalities
    if measure == "roster":
        return max(members.values(), default=0) + personalities
    if measure == "hand":
        return len(hand)
    if measure == "guilds":
        return len(members)
    if measure == "crests":
        return crests(captured)
    if measure == "threes":
        return sum(1 for m in members.values() if m >= 3)
    if measure == "creditors":
        return categories[Category.CREDITOR]
    if measure == "district":
        types = Counter(CARDS[c].district for c in (*captured, *hand, *played))
        return max(types.values(), default=0)
    if measure == "played":
        return len(played)
    points: Counter[Guild] = Counter()
    for card in captured:
        info = CARDS[card]
        if info.category is Category.GUILD and info.guild is not None:
            points[info.guild] += info.gp
    return max((points[g] * min(cap, m + personalities) for g, m in members.items()), default=0)


def contract_beaten(contract: str, mine: int, best_other: int, players: int) -> bool:
    """Return whether ``mine`` fulfils ``contract`` against the other seats' best measure at a table of ``players``."""
    rule = CONTRACT_RULES[contract]
    if mine < rule.least:
        return False
    tie = rule.ties and players >= rule.ties_from and mine == best_other
    if rule.fewest:
        return mine < best_other or tie
    return mine > best_other or tie


def crests(captured: Sequence[str]) -> int:
    """Return the distinct guild crests among captured members and Creditors (§9 tie-break).

    >>> crests(("USU-1", "USU-C", "ZOD-C", "P1", "M01"))
    2
    """
    return len({info.guild for card in captured if (info := CARDS[card]).guild is not None})


def members_by_guild(captured: Sequence[str]) -> Counter[Guild]:
    """Return how many guild members (not Creditors, not personalities) of each guild ``captured`` holds."""
    return Counter(
        info.guild for card in captured if (info := CARDS[card]).category is Category.GUILD and info.guild is not None
    )


def militia_count(captured: Sequence[str]) -> int:
    """Return the number of militia cards in ``captured``."""
    return sum(1 for card in captured if CARDS[card].category is Category.MILITIA)


@lru_cache(maxsize=4096)
def _militia_counts(captured: tuple[tuple[str, ...], ...]) -> tuple[int, ...]:
    return tuple(militia_count(cards) for cards in captured)


def _holdings(captured: Sequence[str], guilds: Sequence[Guild]) -> list[_Holding]:
    members: dict[Guild, list[str]] = {g: [] for g in guilds}
    creditors: set[Guild] = set()
    for card in captured:
        info = CARDS[card]
        if info.guild is None or info.guild not in members:
            continue
        if info.category is Category.GUILD:
            members[info.guild].append(card)
        else:
            creditors.add(info.guild)
    return [
        _Holding(g, tuple(sorted(members[g])), sum(CARDS[c].gp for c in members[g]), g in creditors) for g in guilds
    ]


def _splits(capacities: Sequence[int], empty: Sequence[bool], count: int) -> Iterator[tuple[int, ...]]:
    """Yield every way to give up to ``count`` personalities to guilds within their ``capacities``.

    Guilds without members (``empty``) are interchangeable, so among them only non-increasing
    splits are yielded (the others score the same).
    """
    n = len(capacities)

    def rec(i: int, left: int, last_empty: int) -> Iterator[tuple[int, ...]]:
        if i == n:
            yield ()
            return
        top = min(capacities[i], left)
        if empty[i]:
            top = min(top, last_empty)
        for k in range(top, -1, -1):
            for rest in rec(i + 1, left - k, k if empty[i] else last_empty):
                yield (k, *rest)

    yield from rec(0, count, count)


def _guild_line(holding: _Holding, extra: int, condition: str | None) -> GuildScore:
    members = len(holding.members)
    cards = members + extra
    points = holding.gp * cards
    loner = condition == "C06" and cards == 1
    if loner:
        points = 0
    bonus = 0
    if holding.creditor:
        # Revision 2: personalities assigned to the guild count toward its four cards (the seed's
        # «4 карты соответствующей Гильдии»); members alone almost never reach four.
        bonus = FULL_CREDITOR_BONUS if cards >= FULL_GUILD else CREDITOR_BONUS
    great = GREAT_GUILD_BONUS if condition == "C10" and cards == FULL_GUILD else 0
    return GuildScore(
        guild=holding.guild,
        members=holding.members,
        personalities=extra,
        cards=cards,
        gp=holding.gp,
        points=points,
        loner=loner,
        creditor=holding.creditor,
        creditor_bonus=bonus,
        great_bonus=great,
        total=points + bonus + great,
    )


def _contract_met(
    contract: str, captured: Sequence[str], hand: Sequence[str], played: Sequence[str], context: TableContext, cap: int
) -> tuple[bool, int]:
    """Return whether ``contract`` is fulfilled and its reward (digest §2.9, revision 2)."""
    rule = CONTRACT_RULES[contract]
    mine = contract_measure(contract, captured, hand, played, cap)
    if contract in PATRON_CONTRACTS:
        best = context.rival_members.get(PATRON_CONTRACTS[contract], 0)  # 0 members never wins: least 1
    else:
        best = context.rival_best.get(contract, 10**6 if rule.fewest else 0)
    met = contract_beaten(contract, mine, best, context.players)
    reward = min(HOARDER_PER_CARD * len(hand), HOARDER_CAP) if contract == "K08" else CONTRACT_REWARD[contract]
    return met, reward if met else 0


def score_seat(
    seat: Seat,
    captured: Sequence[str],
    played: Sequence[str],
    hand_size: int,
    *,
    grid: int,
    hand: Sequence[str] = (),
    condition: str | None = None,
    contract: str | None = None,
    context: TableContext = _NO_RIVALS,
    seat_points: int = 0,
) -> ScoreBreakdown:
    """Score one seat (digest §8), assigning its personalities the way that maximises its total.

    ``hand`` (the action cards in hand) is only needed by K17; ``hand_size`` counts them. Among
    equally good assignments the first found wins: most personalities to the earliest guilds.
    """
    guilds = guilds_in_play(grid)
    holdings = _holdings(captured, guilds)
    personalities = tuple(sorted(c for c in captured if CARDS[c].category is Category.PERSONALITY))
    militia = tuple(sorted(c for c in captured if CARDS[c].category is Category.MILITIA))
    pp = sum(CARDS[c].pp for c in militia)
    militia_penalty = pp if condition == "C01" else pp * len(militia)
    informer = INFORMER_PENALTY if condition == "C12" and context.most_militia and militia else 0
    actions = hand_size + len(played)
    action_points = actions * (GOLDEN_ACTION_POINTS if condition == "C04" else ACTION_POINTS)
    cap = CHARTER_CAP if condition == "C02" else GUILD_CAP
    free_spirits = condition == "C05"
    count = 0 if free_spirits else len(personalities)
    capacities = [max(0, cap - len(h.members)) for h in holdings]
    # A guild with its Creditor is not interchangeable with an empty one: four cards earn the +5.
    empty = [not h.members and not h.creditor for h in holdings]
    fixed = action_points - militia_penalty - informer + seat_points
    best: ScoreBreakdown | None = None
    for split in _splits(capacities, empty, count):
        lines = [_guild_line(h, k, condition) for h, k in zip(holdings, split, strict=True)]
        guild_points = sum(line.total for line in lines)
        positive = sorted(line.total for line in lines if line.total > 0)
        austerity = positive[0] if condition == "C11" and len(positive) >= 2 else 0
        unassigned = len(personalities) - sum(split)
        spirit = FREE_SPIRIT_POINTS * unassigned if free_spirits else 0
        met, reward = False, 0
        if contract is not None:
            met, reward = _contract_met(contract, captured, hand, played, context, cap)
        total = guild_points - austerity + spirit + fixed + reward
        if best is None or total > best.total:
            shown = tuple(
                line for line, h in zip(lines, holdings, strict=True) if h.members or h.creditor or line.personalities
            )
            best = ScoreBreakdown(
                seat=seat,
                guilds=shown,
                personality_cards=personalities,
                unassigned=unassigned,
                free_spirit_points=spirit,
                guild_points=guild_points,
                austerity_loss=austerity,
                action_cards=actions,
                action_points=action_points,
                militia=militia,
                militia_pp=pp,
                militia_penalty=militia_penalty,
                informer_penalty=informer,
                contract=contract,
                contract_met=met,
                contract_points=reward,
                seat_points=seat_points,
                total=total,
                crests=crests(captured),
            )
    assert best is not None  # noqa: S101 - the empty split always exists
    return best


def table_context(
    seat: Seat,
    captured: Sequence[Sequence[str]],
    guilds: Sequence[Guild],
    hands: Sequence[Sequence[str]] = (),
    played: Sequence[Sequence[str]] = (),
    condition: str | None = None,
) -> TableContext:
    """Return what ``seat``'s scoring needs from the other seats' cards (hands and played: K08, K17, K18)."""
    rivals: dict[Guild, int] = dict.fromkeys(guilds, 0)
    for other, cards in enumerate(captured):
        if other == seat:
            continue
        for guild, count in members_by_guild(cards).items():
            rivals[guild] = max(rivals.get(guild, 0), count)
    counts = [militia_count(cards) for cards in captured]
    mine = counts[seat]
    cap = CHARTER_CAP if condition == "C02" else GUILD_CAP
    others = [s for s in range(len(captured)) if s != seat]
    best: dict[str, int] = {}
    for contract, rule in CONTRACT_RULES.items():
        if contract in PATRON_CONTRACTS or not others:
            continue
        values = [
            contract_measure(
                contract,
                captured[s],
                hands[s] if s < len(hands) else (),
                played[s] if s < len(played) else (),
                cap,
            )
            for s in others
        ]
        best[contract] = min(values) if rule.fewest else max(values)
    return TableContext(
        rival_members=rivals,
        most_militia=mine >= 1 and mine == max(counts),
        rival_best=best,
        players=len(captured),
    )


def score_table(
    captured: Sequence[Sequence[str]],
    played: Sequence[Sequence[str]],
    hands: Sequence[Sequence[str]],
    *,
    grid: int,
    condition: str | None,
    contracts: Sequence[str | None],
    seat_points: Sequence[int] = (),
) -> list[ScoreBreakdown]:
    """Score every seat at the end of the game (ranks are set by :func:`rank_scores`)."""
    guilds = guilds_in_play(grid)
    return [
        score_seat(
            seat,
            captured[seat],
            played[seat],
            len(hands[seat]),
            grid=grid,
            hand=hands[seat],
            condition=condition,
            contract=contracts[seat],
            context=table_context(seat, captured, guilds, hands, played, condition),
            seat_points=seat_points[seat] if seat < len(seat_points) else 0,
        )
        for seat in range(len(captured))
    ]


@lru_cache(maxsize=8192)
def _live(
    captured: tuple[str, ...],
    played: tuple[str, ...],
    hand_size: int,
    grid: int,
    condition: str | None,
    most: bool,
    seat_points: int,
) -> tuple[int, int]:
    breakdown = score_seat(
        0,
        captured,
        played,
        hand_size,
        grid=grid,
        condition=condition,
        context=TableContext(rival_members={}, most_militia=most),
        seat_points=seat_points,
    )
    return breakdown.total, breakdown.crests


def live_total(
    seat: Seat,
    captured: Sequence[tuple[str, ...]],
    played: tuple[str, ...],
    hand_size: int,
    *,
    grid: int,
    condition: str | None,
    seat_points: int = 0,
) -> tuple[int, int]:
    """Return the public running score of ``seat`` (no contract, seat allowance included) and its crests."""
    counts = _militia_counts(tuple(captured))
    most = counts[seat] >= 1 and counts[seat] == max(counts)
    return _live(captured[seat], played, hand_size, grid, condition, most, seat_points)


def rank_scores(totals: Sequence[int], crest_counts: Sequence[int], resigned: Sequence[Seat]) -> tuple[int, ...]:
    """Rank seats (0 = first) by total, then distinct crests; equal pairs share a rank (§9).

    Resigned seats rank below every seat still playing, the latest to resign highest.

    >>> rank_scores([12, 12, 9], [3, 2, 5], [])
    (0, 1, 2)
    >>> rank_scores([12, 12, 30], [2, 2, 0], [2])
    (0, 0, 2)
    """
    n = len(totals)
    playing = [s for s in range(n) if s not in resigned]
    ranks = [0] * n
    keys = {s: (totals[s], crest_counts[s]) for s in playing}
    for s in playing:
        ranks[s] = sum(1 for o in playing if keys[o] > keys[s])
    for position, s in enumerate(reversed(resigned)):
        ranks[s] = len(playing) + position
    return tuple(ranks)
