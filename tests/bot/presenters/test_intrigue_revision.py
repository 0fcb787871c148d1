"""«Интриги» rules help names our design's revision 3 and what it changed (issue 15): the land and the placement."""

from __future__ import annotations

import pytest

from bot.i18n import SUPPORTED_LOCALES
from bot.presenters.intrigue import RULE_SECTIONS
from bot.presenters.registry import PRESENTERS
from games.intrigue.data import LANDS, STANDARD_NINE, STANDARD_SEVEN, majority_needed, placement_rounds

BROWN_PLAINS = 3


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_the_rules_end_with_revision_three_and_name_the_changed_land_and_rounds(locale: str) -> None:
    sections = dict(zip(RULE_SECTIONS, rules_of(locale), strict=True))
    assert RULE_SECTIONS[-1] == "revision"
    title, text = sections["revision"]
    assert "3" in title
    land = LANDS[BROWN_PLAINS]
    assert (land.ru if locale == "ru" else land.en) in text
    assert f"{land.peaceful}/{land.military}" in text
    for seats in (2, 3):
        assert ",".join(str(r) for r in placement_rounds(seats)) in text
    assert ",".join(str(r) for r in placement_rounds(3)) in sections["setup"][1]


def test_both_standard_sets_leave_slack_for_a_coup_and_a_will() -> None:
    # Revision 2: each standard set has more lands with M ≥ P (and with M ≤ P) than the m a
    # coup (or will) needs, so neither condition asks for every such land at once.
    for lands in (STANDARD_SEVEN, STANDARD_NINE):
        m = majority_needed(len(lands))
        assert sum(LANDS[i].military >= LANDS[i].peaceful for i in lands) > m
        assert sum(LANDS[i].military <= LANDS[i].peaceful for i in lands) > m


def rules_of(locale: str) -> list[tuple[str, str]]:
    return PRESENTERS["intrigue"].rules(locale)
