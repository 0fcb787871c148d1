"""The project's own HOUSE deck of «Масти Власти» (spec §1): one table used by engine, renderer and help.

The printed per-card guild data is unknown; this balanced deck is ours (spec §1.3-1.5). Each guild
has six cards of values 4..12 carrying seven symbols, one of them a double (×2).

>>> card_info("P07").guild, card_info("P07").symbols
(<Guild.ARTISTS: 'ART'>, 2)
>>> card_info("U13").kind
<CardKind.POWER: 'power'>
"""

from __future__ import annotations

from types import MappingProxyType

from games.masti.models import CardInfo, CardKind, Guild, Persona

PERSONA_ORDER: tuple[Persona, ...] = tuple(Persona)
GUILD_ORDER: tuple[Guild, ...] = tuple(Guild)

#: Guild of every guild card, by value (4..12) and persona in the order A, P, E, U; a trailing
#: ``2`` marks a double (two-symbol) card. This is the table of spec §1.4.
_GUILD_TABLE: dict[int, tuple[str, str, str, str]] = {
    4: ("CRA", "KNI", "ASS", "MER"),
    5: ("ART", "ARI", "ARI", "ART"),
    6: ("ASS", "CRA", "MER", "KNI"),
    7: ("KNI", "ART2", "ARI", "ASS2"),
    8: ("CRA2", "MER2", "CRA", "MER"),
    9: ("ART", "ASS", "KNI2", "ARI2"),
    10: ("MER", "ART", "CRA", "ARI"),
    11: ("KNI", "ASS", "KNI", "ASS"),
    12: ("ARI", "MER", "ART", "CRA"),
}
_NEUTRAL: dict[int, CardKind] = {1: CardKind.JOKER, 2: CardKind.PENALTY, 3: CardKind.BONUS, 13: CardKind.POWER}


def card_id(persona: Persona, value: int) -> str:
    """Return the id of ``persona``'s card of ``value`` (``Persona.PIETRA, 7`` -> ``"P07"``)."""
    return f"{persona.value}{value:02d}"


def _build() -> dict[str, CardInfo]:
    cards: dict[str, CardInfo] = {}
    for persona_index, persona in enumerate(PERSONA_ORDER):
        for value in range(1, 14):
            cid = card_id(persona, value)
            if value in _NEUTRAL:
                cards[cid] = CardInfo(id=cid, persona=persona, value=value, kind=_NEUTRAL[value])
                continue
            code = _GUILD_TABLE[value][persona_index]
            symbols = 2 if code.endswith("2") else 1
            cards[cid] = CardInfo(
                id=cid, persona=persona, value=value, kind=CardKind.GUILD, guild=Guild(code[:3]), symbols=symbols
            )
    return cards


#: Every card of the deck by id, in persona order then value order.
CARDS: MappingProxyType[str, CardInfo] = MappingProxyType(_build())
#: The 52 card ids in canonical order (persona order, then value).
ALL_CARDS: tuple[str, ...] = tuple(CARDS)
#: Most symbols one guild pile can hold with a joker (§1.5): the scoring table's top.
MAX_PILE_SYMBOLS = 8


def card_info(card: str) -> CardInfo:
    """Return the static data of ``card``.

    Raises:
        KeyError: ``card`` is not a card id of this deck.
    """
    return CARDS[card]


_SORT_KEYS: dict[str, tuple[int, int]] = {c: (i.value, PERSONA_ORDER.index(i.persona)) for c, i in CARDS.items()}


def sort_key(card: str) -> tuple[int, int]:
    """Return the §10 ranking key of ``card``: value first, then persona order ("lowest" = smallest)."""
    return _SORT_KEYS[card]
