"""House data of «Интриги» (spec §1): lands, characters, traits, council seats, colours and clocks.

Every value here is DESIGN data from ``shared/rules/intrigue.md`` §1 (the seed's card images were
lost); the bot labels it "house data". Ids are the spec's: lands 1–12, characters 1–18. Static data
never enters the state: views carry ids and presenters look names up here.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Trait(StrEnum):
    """The 13 character traits (§1.4)."""

    BRIBE_TAKER = "bribe_taker"  # Взяточник
    GREEDY = "greedy"  # Жадный
    PROUD = "proud"  # Гордый
    THRIFTY = "thrifty"  # Хозяйственный
    WASTEFUL = "wasteful"  # Расточительный
    CAUTIOUS = "cautious"  # Осторожный
    COLLECTOR = "collector"  # Коллекционер
    SYCOPHANT = "sycophant"  # Подхалим
    INCORRUPTIBLE = "incorruptible"  # Неподкупный
    ENVIOUS = "envious"  # Завистник
    NOBLE = "noble"  # Благородный
    IMPERIOUS = "imperious"  # Властный
    SLY = "sly"  # Проныра


class Disposition(StrEnum):
    """How a neutral, unswayed councillor votes on a head removal (§1.3, §11.1)."""

    FOR = "for"
    AGAINST = "against"
    ABSTAIN = "abstain"


class CouncilSeat(StrEnum):
    """The four permanent council seats, in the order vacancies are filled (§10.3)."""

    MARSHAL = "marshal"  # Военачальник
    BISHOP = "bishop"  # Епископ
    TREASURER = "treasurer"  # Казначей
    PRIVY = "privy"  # Тайный Советник


COUNCIL_SEATS: tuple[CouncilSeat, ...] = tuple(CouncilSeat)


class LandInfo(NamedTuple):
    """One land card (§1.1)."""

    id: int
    ru: str
    en: str
    cells: int
    peaceful: int
    military: int
    in_seven: bool
    in_nine: bool


class CharacterInfo(NamedTuple):
    """One character card (§1.3)."""

    id: int
    ru: str
    en: str
    traits: tuple[Trait, ...]
    disposition: Disposition


# Land ids with a special ability (§1.2).
GOLDEN_COAST = 1
VALE_OF_ARROWS = 2
BROWN_PLAINS = 3
BLACK_HARBOUR = 4
SAPPHIRE_LAKES = 5
BEYOND_THE_WOODS = 6
EMPTY_HILLS = 7
RIVER_HORSESHOE = 8
ST_IRIASH = 9
FAR_GARRISON = 10
THE_BROTHERS = 11
MISTY_VALE = 12

LANDS: dict[int, LandInfo] = {
    land.id: land
    for land in (
        LandInfo(1, "Золотой Берег", "Golden Coast", 9, 5, 2, True, True),
        LandInfo(2, "Долина Стрел", "Vale of Arrows", 8, 3, 4, True, True),
        LandInfo(3, "Бурые Равнины", "Brown Plains", 8, 4, 4, True, True),
        LandInfo(4, "Чёрная Гавань", "Black Harbour", 6, 3, 3, True, True),
        LandInfo(5, "Сапфировые Озёра", "Sapphire Lakes", 8, 5, 1, False, True),
        LandInfo(6, "Залесье", "Beyond-the-Woods", 10, 5, 5, True, True),
        LandInfo(7, "Пустые Холмы", "Empty Hills", 6, 1, 3, False, False),
        LandInfo(8, "Речная Подкова", "River Horseshoe", 8, 4, 2, False, False),
        LandInfo(9, "Земля Святого Ириаша", "Land of St Iriash", 7, 5, 1, False, False),
        LandInfo(10, "Дальний Гарнизон", "Far Garrison", 7, 1, 5, False, True),
        LandInfo(11, "Братья", "The Brothers", 4, 2, 2, True, True),
        LandInfo(12, "Туманная Долина", "Misty Vale", 7, 3, 4, True, True),
    )
}
STANDARD_SEVEN: tuple[int, ...] = tuple(i for i, land in LANDS.items() if land.in_seven)
STANDARD_NINE: tuple[int, ...] = tuple(i for i, land in LANDS.items() if land.in_nine)

_T = Trait
_D = Disposition
CHARACTERS: dict[int, CharacterInfo] = {
    c.id: c
    for c in (
        CharacterInfo(1, "Артур Красавчик", "Arthur the Handsome", (_T.COLLECTOR, _T.PROUD), _D.FOR),
        CharacterInfo(2, "Гюнтер Рыболов", "Günter the Fisherman", (_T.THRIFTY,), _D.ABSTAIN),
        CharacterInfo(3, "Ирена Высокая", "Irena the Tall", (_T.NOBLE, _T.PROUD), _D.AGAINST),
        CharacterInfo(4, "Матей Многословный", "Matej the Verbose", (_T.ENVIOUS,), _D.FOR),
        CharacterInfo(5, "Жозетта Огненная", "Josette the Fiery", (_T.WASTEFUL,), _D.FOR),
        CharacterInfo(6, "Эдмар Тёмный", "Edmar the Dark", (_T.BRIBE_TAKER, _T.CAUTIOUS), _D.FOR),
        CharacterInfo(7, "Марк Широкоплечий", "Mark the Broad-Shouldered", (_T.IMPERIOUS,), _D.AGAINST),
        CharacterInfo(8, "Элиза Вечерняя", "Eliza of the Evening", (_T.COLLECTOR,), _D.ABSTAIN),
        CharacterInfo(9, "Густав Мудрый", "Gustav the Wise", (_T.INCORRUPTIBLE, _T.CAUTIOUS), _D.AGAINST),
        CharacterInfo(10, "Томас Твёрдый", "Thomas the Firm", (_T.INCORRUPTIBLE,), _D.AGAINST),
        CharacterInfo(11, "Бланка Щедрая", "Blanka the Open-Handed", (_T.WASTEFUL, _T.COLLECTOR), _D.ABSTAIN),
        CharacterInfo(12, "Вильгельм Седой", "Wilhelm the Grey", (_T.NOBLE, _T.IMPERIOUS), _D.AGAINST),
        CharacterInfo(13, "Дорота Лисья", "Dorota the Vixen", (_T.SLY, _T.SYCOPHANT), _D.FOR),
        CharacterInfo(14, "Збигнев Скупой", "Zbigniew the Miser", (_T.GREEDY, _T.THRIFTY), _D.ABSTAIN),
        CharacterInfo(
            15, "Лукреция Сладкоречивая", "Lucrezia the Honey-Tongued", (_T.SYCOPHANT, _T.BRIBE_TAKER), _D.ABSTAIN
        ),
        CharacterInfo(16, "Отто Железный", "Otto the Iron", (_T.IMPERIOUS, _T.PROUD), _D.AGAINST),
        CharacterInfo(17, "Радек Кривой", "Radek the Crooked", (_T.GREEDY, _T.ENVIOUS), _D.FOR),
        CharacterInfo(18, "Агнешка Тихая", "Agnieszka the Quiet", (_T.SLY, _T.CAUTIOUS), _D.ABSTAIN),
    )
}
CHARACTER_IDS: tuple[int, ...] = tuple(CHARACTERS)
#: ``TRAITS[c]`` is the frozenset of character ``c``'s traits (hot path: trait tests).
TRAITS: dict[int, frozenset[Trait]] = {c.id: frozenset(c.traits) for c in CHARACTERS.values()}

#: Seat colours (§1.7): code, emoji, Russian name.
COLOURS: tuple[tuple[str, str, str], ...] = (
    ("R", "\N{LARGE RED SQUARE}", "красный"),
    ("B", "\N{LARGE BLUE SQUARE}", "синий"),
    ("G", "\N{LARGE GREEN SQUARE}", "зелёный"),
    ("Y", "\N{LARGE YELLOW SQUARE}", "жёлтый"),
    ("P", "\N{LARGE PURPLE SQUARE}", "фиолетовый"),
    ("O", "\N{LARGE ORANGE SQUARE}", "оранжевый"),
    ("N", "\N{LARGE BROWN SQUARE}", "коричневый"),
    ("W", "\N{WHITE LARGE SQUARE}", "белый"),
)

STARTING_COINS = 15
STARTING_TOKENS = 7
#: Snake placement rounds of setup (§2 step 5): tokens per prompt; even rounds run in reverse seat order.
PLACEMENT_ROUNDS: tuple[int, ...] = (2, 2, 2, 1)
#: Revision 3: three players place in rounds of 1, 2, 2, 1, 1, so the first seat places one token
#: blind and the last seat the last one. Over three seeded all-AI samples (140 games) the first of
#: three seats won 12% with 2, 2, 2, 1 (fair 33%, best seat 51%); with these rounds 17% (130 games,
#: best seat 43%). At 4 players the same rounds left the last seat 13% and 5% of two samples (fair
#: 25%), and at 2 players gave the second seat 83%: every other count keeps 2, 2, 2, 1.
THREE_PLAYER_ROUNDS: tuple[int, ...] = (1, 2, 2, 1, 1)
#: Revision 7: two players place in rounds of 1, 1, 1, 2, 2. With 2, 2, 2, 1 the first seat won 79%
#: and 76% of two all-AI samples on the standard lands (200 and 400 games), 61% on random lands;
#: with these rounds 61% and 57% on the same seeds, 41% on random lands. The seat that first
#: controls a council seat (mostly the Representative, the head with the most tokens) wins most
#: two-player games, and the rounds decide which seat that is: 1, 2, 2, 2 and 1, 2, 2, 1, 1 handed
#: the second seat 81%.
TWO_PLAYER_ROUNDS: tuple[int, ...] = (1, 1, 1, 2, 2)
MERCENARY_COST = 3
DISCOUNTED_MERCENARY_COST = 2
INVEST_COST = 3
BRIBE_EXTRA_COST = 3
GREEDY_EXTRA_COST = 4
GOLDEN_COAST_COST = 2
THIEF_COINS = 2
TREASURER_GRANT = 2
HILLS_COINS = 2
COPIES_PER_TYPE = 3  # assassins, thieves, spies, guards
MESSENGERS_PER_PLAYER = 4
KILLS_TO_END = 5
HEAD_REMOVAL_VOTES = 3
ELECTION_SEATS = 4
MAX_SWAY_ROUNDS = 3
#: The turn limit when the host names none, by the number of lands (our design, revision 8): 9 lands
#: among 6–8 players need more turns to reach a majority on 5 of them than 7 lands among 2–5.
DEFAULT_MAX_TURNS: dict[int, int] = {7: 10, 9: 14}
MIN_MAX_TURNS = 4
MAX_MAX_TURNS = 20

#: Suggested clock per decision (§3.6, seconds). The table service runs one clock per prompt at the
#: table's own length; these are the spec's suggestions, kept for the presenter and the service.
SUGGESTED_CLOCKS: dict[str, int] = {
    "D1": 120,
    "D2": 45,
    "D3": 60,
    "D4": 30,
    "D5": 30,
    "D6": 30,
    "D7": 30,
    "D8": 60,
    "D9": 120,
    "D10": 120,
    "D11": 45,
    "D12": 60,
    "D13": 60,
    "D14": 30,
    "D15": 60,
    "D16": 45,
    "D17": 45,
    "D18": 30,
    "D19": 30,
    "D20": 45,
}
#: A window's clock is restarted by each free action, up to this cap (§3.3).
WINDOW_CAP_SECONDS = 180
#: Consecutive timeouts after which a seat is "away" (§3.4): the table service tracks them.
AWAY_AFTER_TIMEOUTS = 3


def lands_for(num_seats: int) -> int:
    """Return how many lands a table of ``num_seats`` plays with (§1.1, §13)."""
    return 7 if num_seats <= 5 else 9


def placement_rounds(num_seats: int) -> tuple[int, ...]:
    """Return the tokens per prompt of each snake placement round at ``num_seats`` players (§2 step 5)."""
    return {2: TWO_PLAYER_ROUNDS, 3: THREE_PLAYER_ROUNDS}.get(num_seats, PLACEMENT_ROUNDS)


def majority_needed(num_lands: int) -> int:
    """Return m, the land count of a coup or a will of the people (§12)."""
    return num_lands // 2 + 1


def councillor_removal_votes(num_lands: int) -> int:
    """Return the For votes a councillor removal needs: 5 of 7, 6 of 9 (§11.1, RULING G17)."""
    return -(-2 * num_lands // 3)


def has_trait(character: int, trait: Trait) -> bool:
    """Return whether ``character`` carries ``trait``."""
    return trait in TRAITS[character]
