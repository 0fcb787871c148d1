"""«Интриги» rules help names our design's revisions 4 to 8 and what they changed (issue 15).

Revision 4: the full lands. Revision 5 changed only the AI (with 9 lands it reaches for the seat of a
coup or a will), so the help says just that. Revision 6: Залесье 10 (5/5), a land for both a coup and
a will. Revision 7: two players place their tokens in rounds of 1, 1, 1, 2, 2. Revision 8: with 9
lands the turn limit is 14 unless the host names one.
"""

from __future__ import annotations

import pytest

from bot.i18n import SUPPORTED_LOCALES
from bot.presenters.intrigue import RULE_SECTIONS
from bot.presenters.registry import PRESENTERS
from games.intrigue.data import (
    BEYOND_THE_WOODS,
    BLACK_HARBOUR,
    BROWN_PLAINS,
    DEFAULT_MAX_TURNS,
    LANDS,
    MISTY_VALE,
    STANDARD_NINE,
    STANDARD_SEVEN,
    THE_BROTHERS,
    lands_for,
    majority_needed,
    placement_rounds,
)

#: Revision 4: the standard lands that count for a coup and never grow (no free cell).
FULL = (BROWN_PLAINS, BLACK_HARBOUR, THE_BROTHERS, MISTY_VALE)


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_the_rules_end_with_revisions_four_to_eight_and_name_what_changed(locale: str) -> None:
    sections = dict(zip(RULE_SECTIONS, rules_of(locale), strict=True))
    assert RULE_SECTIONS[-1] == "revision"
    title, text = sections["revision"]
    assert "4" in title and "8" in title
    six_at = text.index({"ru": "Ред. 6", "en": "Rev. 6"}[locale])
    seven_at = text.index({"ru": "Ред. 7", "en": "Rev. 7"}[locale])
    eight_at = text.index({"ru": "Ред. 8", "en": "Rev. 8"}[locale])
    five = text[text.index({"ru": "Ред. 5", "en": "Rev. 5"}[locale]) : six_at]
    woods = LANDS[BEYOND_THE_WOODS]
    name = woods.ru if locale == "ru" else woods.en
    assert f"{name} {woods.cells} ({woods.peaceful}/{woods.military})" in text[six_at:seven_at]
    assert {"ru": "только ИИ", "en": "only the AI"}[locale] in five
    for land_id in FULL:  # revision 4 names them; the lands table gives their figures
        land = LANDS[land_id]
        name = land.ru if locale == "ru" else land.en
        assert name in text[:six_at]
        assert f"{name} {land.cells} ({land.peaceful}/{land.military})" in sections["lands"][1]
    assert {"ru": "вдвоём", "en": "2 players"}[locale] in text[seven_at:eight_at]
    eight, seven_lands, nine_lands = text[eight_at:], lands_for(5), lands_for(6)
    assert f"{nine_lands} " in eight and f" {DEFAULT_MAX_TURNS[nine_lands]} " in eight
    assert f" {DEFAULT_MAX_TURNS[seven_lands]} " in eight  # the limit it replaced
    assert f"({DEFAULT_MAX_TURNS[seven_lands]}; {DEFAULT_MAX_TURNS[nine_lands]} " in sections["goal"][1]
    for seats in (2, 3):  # the rounds of revisions 7 and 3 are told in the set-up
        assert ",".join(str(r) for r in placement_rounds(seats)) in sections["setup"][1]


def test_both_standard_sets_leave_slack_for_a_coup_and_a_will() -> None:
    # Revision 2: each standard set has more lands with M ≥ P (and with M ≤ P) than the m a
    # coup (or will) needs, so neither condition asks for every such land at once.
    for lands in (STANDARD_SEVEN, STANDARD_NINE):
        m = majority_needed(len(lands))
        assert sum(LANDS[i].military >= LANDS[i].peaceful for i in lands) > m
        assert sum(LANDS[i].military <= LANDS[i].peaceful for i in lands) > m


def test_beyond_the_woods_counts_for_both_a_coup_and_a_will_and_never_grows() -> None:
    # Revision 6: with 7 lands a coup had 5 lands to choose 4 from and ended 5–8% of 4–5-player
    # games; a full Залесье with P = M makes it 6 (both standard sets hold it).
    woods = LANDS[BEYOND_THE_WOODS]
    assert woods.peaceful == woods.military and woods.peaceful + woods.military == woods.cells
    assert BEYOND_THE_WOODS in STANDARD_SEVEN and BEYOND_THE_WOODS in STANDARD_NINE
    assert sum(LANDS[i].military >= LANDS[i].peaceful for i in STANDARD_SEVEN) == 6


def test_standard_coup_lands_cannot_grow_into_peaceful_lands() -> None:
    # Revision 4: growth adds a peaceful token (the rulebook's only population change besides the
    # Военачальник's moves); in all-AI games it had turned Бурые Равнины 4/4 into 5/4 in every game.
    # Now growth into every free cell leaves each standard coup land with M ≥ P: only the Военачальник
    # can take one away (by moving military out).
    for land_id in set(STANDARD_SEVEN) | set(STANDARD_NINE):
        land = LANDS[land_id]
        if land.military >= land.peaceful:
            free = land.cells - land.peaceful - land.military
            assert land.peaceful + free <= land.military, land
    assert all(LANDS[i].peaceful + LANDS[i].military == LANDS[i].cells for i in FULL)


def test_no_two_lands_share_cells_population_and_peaceful() -> None:
    # §1.1: the Representative chain (cells, then P + M, then P) separates any two lands at start.
    keys = [(land.cells, land.peaceful + land.military, land.peaceful) for land in LANDS.values()]
    assert len(set(keys)) == len(keys)


def rules_of(locale: str) -> list[tuple[str, str]]:
    return PRESENTERS["intrigue"].rules(locale)
