"""The card data of «Гильдии Кадвалона» (digest §1-2): the single source of every card's values.

The seed prints no per-card data, so nearly everything here is a **HOUSE** card designed by this
project (digest §2); :attr:`CardInfo.house` marks it. Only the category rules are the seed's: an
action is always 2 GP / S 2, a personality 0 / 0.

>>> card_info("USU-1").gp, card_info("USU-1").support, card_info("USU-1").district.value
(3, 1, 'D')
>>> card_info("M05").pp, card_info("A01").district.value, card_info("JEW-C").district.value
(2, 'D', 'M')
>>> len(DISTRICT_CARDS), len(base_deck()), len(expansion_district_cards())
(84, 25, 58)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games.cadwallon.models import CardInfo, Category, District, Guild

_DMOH = (District.DOCKS, District.MARKET, District.OLD_TOWN, District.HIGH_TOWN)

#: The guilds in digest order; the first four are the base game's.
GUILD_ORDER: tuple[Guild, ...] = tuple(Guild)
BASE_GUILDS: tuple[Guild, ...] = GUILD_ORDER[:4]

#: (GP, S) of each guild's members 1-4 (digest §2.3, HOUSE). Design revision 6: the Usurers and the Zodiac
#: have no S 2 member (USU-3 and USU-4, every ZOD card), so fewer cards tie at 8 players; GP and ΣS unchanged.
GUILD_VALUES: dict[Guild, tuple[tuple[int, int], ...]] = {
    Guild.USU: ((3, 1), (1, 3), (2, 1), (1, 3)),
    Guild.JEW: ((3, 1), (2, 1), (2, 2), (1, 3)),
    Guild.BLA: ((2, 1), (2, 2), (1, 3), (1, 3)),
    Guild.ZOD: ((2, 1), (2, 3), (2, 1), (1, 3)),
    Guild.THI: ((3, 1), (3, 1), (1, 2), (1, 3)),
    Guild.FER: ((3, 1), (1, 3), (1, 3), (1, 2)),
    Guild.ARC: ((2, 3), (2, 1), (2, 1), (1, 3)),
    Guild.ALC: ((3, 2), (2, 1), (2, 1), (1, 3)),
}
#: Militia (PP, S), digest §2.6 (HOUSE).
MILITIA_VALUES: dict[int, tuple[int, int]] = {
    1: (1, 1),
    2: (1, 1),
    3: (1, 2),
    4: (2, 1),
    5: (2, 2),
    6: (1, 1),
    7: (1, 2),
    8: (1, 2),
    9: (2, 1),
    10: (2, 2),
}
CREDITOR_SUPPORT = 1
ACTION_GP = 2
ACTION_SUPPORT = 2


def member_id(guild: Guild, k: int) -> str:
    """Return the id of member ``k`` (1-4) of ``guild``."""
    return f"{guild.value}-{k}"


def creditor_id(guild: Guild) -> str:
    """Return the id of ``guild``'s Creditor."""
    return f"{guild.value}-C"


def personality_id(i: int) -> str:
    """Return the id of personality ``i`` (1-8)."""
    return f"P{i}"


def militia_id(i: int) -> str:
    """Return the id of militia ``i`` (1-10)."""
    return f"M{i:02d}"


def action_id(i: int) -> str:
    """Return the id of action ``i`` (1-26)."""
    return f"A{i:02d}"


def _build() -> dict[str, CardInfo]:
    cards: dict[str, CardInfo] = {}
    for g, guild in enumerate(GUILD_ORDER):
        for k, (gp, support) in enumerate(GUILD_VALUES[guild], start=1):
            cards[member_id(guild, k)] = CardInfo(
                id=member_id(guild, k),
                category=Category.GUILD,
                district=_DMOH[(g + k - 1) % 4],
                guild=guild,
                gp=gp,
                support=support,
            )
        cards[creditor_id(guild)] = CardInfo(
            id=creditor_id(guild),
            category=Category.CREDITOR,
            district=_DMOH[g % 4],
            guild=guild,
            support=CREDITOR_SUPPORT,
        )
    for i in range(1, 9):
        cards[personality_id(i)] = CardInfo(
            id=personality_id(i), category=Category.PERSONALITY, district=_DMOH[(i - 1) % 4]
        )
    for i, (pp, support) in MILITIA_VALUES.items():
        cards[militia_id(i)] = CardInfo(
            id=militia_id(i), category=Category.MILITIA, district=_DMOH[(i - 1) % 4], pp=pp, support=support
        )
    for i in range(1, 27):
        cards[action_id(i)] = CardInfo(
            id=action_id(i),
            category=Category.ACTION,
            district=_DMOH[(i - 1) % 4],
            gp=ACTION_GP,
            support=ACTION_SUPPORT,
        )
    return cards


#: Every district card by id, in a fixed order (guilds with their Creditor, personalities, militia, actions).
CARDS: dict[str, CardInfo] = _build()
DISTRICT_CARDS: tuple[str, ...] = tuple(CARDS)
BASE_ACTIONS: tuple[str, ...] = tuple(action_id(i) for i in range(1, 15))
ALL_ACTIONS: tuple[str, ...] = tuple(action_id(i) for i in range(1, 27))
CONDITIONS: tuple[str, ...] = tuple(f"C{i:02d}" for i in range(1, 13))
BASE_CONTRACTS: tuple[str, ...] = tuple(f"K{i:02d}" for i in range(1, 11))
ALL_CONTRACTS: tuple[str, ...] = tuple(f"K{i:02d}" for i in range(1, 21))
#: Contracts "Patron of a guild" (most members of it): K01-K04 base guilds, K11-K14 expansion.
PATRON_CONTRACTS: dict[str, Guild] = {
    **{f"K{i + 1:02d}": guild for i, guild in enumerate(BASE_GUILDS)},
    **{f"K{i + 11:02d}": guild for i, guild in enumerate(GUILD_ORDER[4:])},
}


@dataclass(frozen=True)
class ContractRule:
    """How a contract compares its holder with the other players at the end (revision 2).

    ``measure`` names what is counted (:func:`games.cadwallon.scoring.contract_measure`); the holder
    must have the most of it (``fewest``: the least), ``ties`` says whether sharing that with another
    player still counts (``ties_from``: only at tables of at least that many players; with two,
    equal counts are common enough to make a tie too easy), and the count must reach ``least``.
    Comparing with the table instead of a fixed number keeps a contract about as hard with 2
    players as with 8 and on every grid.
    """

    measure: str
    ties: bool = True
    least: int = 1
    fewest: bool = False
    ties_from: int = 2


#: Every contract's rule (HOUSE, revision 2). Patrons count members of their guild, strictly most.
CONTRACT_RULES: dict[str, ContractRule] = {
    # With 5 or more players a strict "most" of one guild became rare (6-10% at 8), so a tie counts there.
    **{k: ContractRule("members", ties_from=5) for k in PATRON_CONTRACTS},
    "K05": ContractRule("militia", least=0, fewest=True),
    "K06": ContractRule("personalities", ties_from=3),
    "K07": ContractRule("roster", ties_from=3),
    "K08": ContractRule("hand"),
    "K09": ContractRule("guilds", ties_from=3),
    "K10": ContractRule("threes"),
    "K15": ContractRule("creditors"),
    "K16": ContractRule("militia"),
    "K17": ContractRule("district"),
    "K18": ContractRule("played"),
    "K19": ContractRule("crests", ties_from=5),
    "K20": ContractRule("grand"),
}
#: Flat rewards of the other contracts (K08 is +2 per action in hand, capped at 6).
CONTRACT_REWARD: dict[str, int] = {
    **dict.fromkeys(PATRON_CONTRACTS, 5),
    "K05": 4,
    "K06": 4,
    "K07": 4,
    "K08": 6,
    "K09": 4,
    "K10": 4,
    "K15": 5,
    "K16": 6,
    "K17": 4,
    "K18": 4,
    "K19": 6,
    "K20": 5,
}


def card_info(card: str) -> CardInfo:
    """Return the static data of district card ``card``.

    Raises:
        KeyError: ``card`` is not a district card.
    """
    return CARDS[card]


def category(card: str) -> Category:
    """Return the category of ``card``."""
    return CARDS[card].category


def is_action(card: str) -> bool:
    """Return whether ``card`` is an action card."""
    return CARDS[card].category is Category.ACTION


@cache
def base_deck() -> tuple[str, ...]:
    """Return the 3×3 deck's fixed part: the 16 base members, P1-P4, M01-M05 (actions are added)."""
    members = tuple(member_id(g, k) for g in BASE_GUILDS for k in range(1, 5))
    return (*members, *(personality_id(i) for i in range(1, 5)), *(militia_id(i) for i in range(1, 6)))


@cache
def expansion_district_cards() -> tuple[str, ...]:
    """Return the 4×4/5×5 cards other than actions: 32 members, 8 Creditors, 8 personalities, 10 militia."""
    return tuple(card for card in DISTRICT_CARDS if not is_action(card))


def guilds_in_play(grid: int) -> tuple[Guild, ...]:
    """Return the guilds whose cards are in a game on a ``grid``×``grid`` board (3×3: the base four)."""
    return BASE_GUILDS if grid == 3 else GUILD_ORDER


def contracts_in_play(grid: int) -> tuple[str, ...]:
    """Return the contracts dealt on a ``grid``×``grid`` board (RULING §2.9: 3×3 deals K01-K10)."""
    return BASE_CONTRACTS if grid == 3 else ALL_CONTRACTS


def district_cards_in_play(grid: int, expansion_actions: bool = False) -> tuple[str, ...]:
    """Return every district card that can appear in a game of this size (deck plus reserve)."""
    if grid == 3:
        return (*base_deck(), *(ALL_ACTIONS if expansion_actions else BASE_ACTIONS))
    return (*expansion_district_cards(), *ALL_ACTIONS)


#: Revision 3: on 4×4 and 5×5 the last place of round 1 gets this many points (by grid) and the
#: places between it and the First Player a straight-line share, rounded. One line per grid for
#: every player count (per-setting rows would fit noise). First fit, 4 on both grids, on 40 all-AI
#: games per setting: the first half of the order won more (first-half minus last-half wins, pooled:
#: +11.5 on 4×4, +53.5 on 5×5). Refitted on 420 games per grid (those plus 20 per setting played
#: with the allowance): 4 over-corrected 4×4 (-25) and under-corrected 5×5 (+28); 2 and 5 leave
#: -1 and +1, with the squared deviation from the fair shares as low as any other line.
LARGE_GRID_ALLOWANCE: dict[int, int] = {4: 2, 5: 5}


def _large_grid_row(grid: int, players: int) -> tuple[int, ...]:
    """Return revision 3's allowance by place at a 4×4 or 5×5 table of ``players`` (a straight line from 0).

    >>> _large_grid_row(4, 2), _large_grid_row(4, 8), _large_grid_row(5, 4)
    ((0, 2), (0, 0, 1, 1, 1, 1, 2, 2), (0, 2, 3, 5))
    """
    top = LARGE_GRID_ALLOWANCE[grid]
    return tuple(round(top * place / (players - 1)) for place in range(players))


#: Seat allowance (HOUSE, revision 2; the rulebook is silent on turn order's edge): points each
#: player adds to the final score by their place in round 1's turn order (the First Player is
#: place 0), per (grid, players). All-AI playouts showed the round-1 order deciding too many games
#: (3×3: 2 players 60% / 40%, 3 players 40% / 34% / 26%); the points bring every place within ±5 pp of its fair share.
#: Revision 3 adds 4×4 and 5×5 (:data:`LARGE_GRID_ALLOWANCE`).
SEAT_ALLOWANCE: dict[tuple[int, int], tuple[int, ...]] = {
    (3, 2): (0, 5),
    (3, 3): (0, 2, 4),
    (3, 4): (0, 0, 2, 5),
    **{(grid, players): _large_grid_row(grid, players) for grid in (4, 5) for players in range(2, 9)},
}


def seat_allowance(grid: int, players: int, place: int) -> int:
    """Return the seat allowance of round-1 turn-order ``place`` at a ``grid`` table of ``players``."""
    row = SEAT_ALLOWANCE.get((grid, players), ())
    return row[place] if 0 <= place < len(row) else 0
