"""The HOUSE deck (spec §1) has the design properties the spec promises."""

from __future__ import annotations

import doctest
from collections import Counter
from types import ModuleType

import pytest

import games.masti.deck
import games.masti.engine
import games.masti.scoring
from games.masti.deck import ALL_CARDS, CARDS, MAX_PILE_SYMBOLS, card_info, sort_key
from games.masti.models import CardKind, Guild, Persona

BY_GUILD = {
    Guild.ARISTOCRATS: {"P05": 1, "E05": 1, "E07": 1, "U09": 2, "U10": 1, "A12": 1},
    Guild.ARTISTS: {"A05": 1, "U05": 1, "P07": 2, "A09": 1, "P10": 1, "E12": 1},
    Guild.MERCHANTS: {"U04": 1, "E06": 1, "P08": 2, "U08": 1, "A10": 1, "P12": 1},
    Guild.CRAFTSMEN: {"A04": 1, "P06": 1, "A08": 2, "E08": 1, "E10": 1, "U12": 1},
    Guild.KNIGHTS: {"P04": 1, "U06": 1, "A07": 1, "E09": 2, "A11": 1, "E11": 1},
    Guild.ASSASSINS: {"E04": 1, "A06": 1, "U07": 2, "P09": 1, "P11": 1, "U11": 1},
}


def test_52_unique_cards_4_personas_by_13_values() -> None:
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 52
    assert Counter(card_info(c).persona for c in ALL_CARDS) == dict.fromkeys(Persona, 13)
    assert card_info("P07").persona is Persona.PIETRA and card_info("P07").value == 7


def test_guild_table_matches_spec_1_5() -> None:
    for guild, cards in BY_GUILD.items():
        held = {c: i.symbols for c, i in CARDS.items() if i.guild is guild}
        assert held == cards
        assert sum(cards.values()) == 7
        assert sum(int(c[1:]) for c in cards) == 48


def test_neutral_cards() -> None:
    kinds = {1: CardKind.JOKER, 2: CardKind.PENALTY, 3: CardKind.BONUS, 13: CardKind.POWER}
    for card in ALL_CARDS:
        info = card_info(card)
        if info.value in kinds:
            assert info.kind is kinds[info.value] and info.guild is None and info.symbols == 0
        else:
            assert info.kind is CardKind.GUILD and info.guild is not None and info.symbols in (1, 2)


def test_design_properties() -> None:
    for guild in Guild:
        values = sorted(i.value for i in CARDS.values() if i.guild is guild)
        assert sum(values[:2]) == 10 and sum(values[2:4]) == 16 and sum(values[4:]) == 22
        assert [4 <= v <= 6 for v in values].count(True) == 2
    doubles = sorted(i.value for i in CARDS.values() if i.symbols == 2)
    assert doubles == [7, 7, 8, 8, 9, 9]
    per_persona: Counter[Persona] = Counter()
    for info in CARDS.values():
        per_persona[info.persona] += info.symbols
        assert info.kind is not CardKind.GUILD or info.guild is not None
    assert per_persona == {Persona.ALDO: 10, Persona.PIETRA: 11, Persona.ENZO: 10, Persona.UGO: 11}
    for persona in Persona:
        assert {i.guild for i in CARDS.values() if i.persona is persona and i.guild} == set(Guild)
    assert max(sum(BY_GUILD[g].values()) for g in Guild) + 1 == MAX_PILE_SYMBOLS


def test_lowest_card_order() -> None:
    assert sorted(["E01", "A01", "U09"], key=sort_key) == ["A01", "E01", "U09"]


def test_card_ids_are_compact_json() -> None:
    assert card_info("U13").model_dump_json() == (
        '{"id":"U13","persona":"U","value":13,"kind":"power","guild":null,"symbols":0}'
    )


@pytest.mark.parametrize("module", [games.masti.deck, games.masti.scoring, games.masti.engine])
def test_doctests(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
