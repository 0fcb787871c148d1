"""What players read of «Интриги»: never an internal card id, and Russian whose names need no declension.

Names (characters, lands, players) are inserted in the nominative, so a template must not put one
straight after a preposition ("на Жозетта Огненная") or after a title that governs its case
("на Главу Густав Мудрый"). A generic noun in front keeps the phrase grammatical ("на персонаже
Жозетта Огненная", "игроку Саша"), as does a colon, a dash or parentheses ("на пост Главы —
Густав Мудрый").
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.presenters.intrigue import IntriguePresenter
from games.intrigue.data import BLACK_HARBOUR
from games.intrigue.models import CoinsGained, Reason
from tests.bot.intrigue_playouts import ENGINE, NAMES, games

LOCALES_DIR = Path(__file__).resolve().parents[3] / "bot" / "i18n" / "locales"
#: Placeholders that stand for a name (character, land, player); counts such as ``{lands}`` are not.
NAME_FIELDS = (
    "character|target|via|land|seat|seats|owner|by|winner|caller|lender|borrower|to|subject|name|names|holder|head"
)
PREPOSITIONS = (
    "на|через|у|к|ко|от|для|с|со|о|об|обо|по|за|при|из|до|без|под|над|перед|против|между|среди|после|вместо|"
    "кроме|ради|около|мимо|возле|в|во"
)
#: A preposition right before a name, or a title/adjective that would decline it ("Главу", "нейтрального").
UNDECLINED = re.compile(
    rf"(?i)(?:(?:^|[\s(«—:])(?:{PREPOSITIONS})\s+|\bглав(?:у|е|ой|ы)\s+|\b\w+(?:ого|его|ому|ему)\s+)"
    rf"\{{(?:{NAME_FIELDS})(?::[^}}]*)?\}}"
)
#: An engine card id, as the engine names mercenaries ("M08").
CARD_ID = re.compile(r"\bM\d{2,3}\b")
PRESENTER = IntriguePresenter()


def templates(locale: str) -> Iterator[tuple[str, str]]:
    def walk(prefix: str, data: dict[str, object]) -> Iterator[tuple[str, str]]:
        for key, value in data.items():
            if isinstance(value, dict):
                yield from walk(f"{prefix}.{key}", value)
            elif isinstance(value, str):
                yield f"{prefix}.{key}", value

    for domain in ("intrigue", "render_intrigue"):
        yield from walk(domain, tomllib.loads((LOCALES_DIR / locale / f"{domain}.toml").read_text("utf-8")))


def test_the_pattern_catches_the_old_mistakes() -> None:
    assert UNDECLINED.search("{land}: на Главу {character}")
    assert UNDECLINED.search("Раскрыта карта ({owner}) на {character}: {merc}")
    assert UNDECLINED.search("Ваше предпочтение для нейтрального {character}.")
    assert not UNDECLINED.search("{land}: на пост Главы — {character}")
    assert not UNDECLINED.search("Раскрыта карта ({owner}) на персонаже {character}: {merc}")
    assert not UNDECLINED.search("Жетоны: на землях {lands}")  # a count, not a name


def test_no_russian_template_puts_a_name_where_it_would_need_declining() -> None:
    bad = [f"{key} = {text}" for key, text in templates("ru") if UNDECLINED.search(text)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_no_template_prints_a_card_as_its_id(locale: str) -> None:
    """A hand card is named by its type; a face-down one by its number on its character (``#n``)."""
    bad = [f"{key} = {text}" for key, text in templates(locale) if "{card}" in text and "hand" in key]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_nothing_players_read_in_real_games_shows_a_card_id(locale: str) -> None:
    """Every log line (public and private), every panel and every label of a few real games."""
    for game in games()[:2]:
        names = NAMES[: game.seats]
        events = [*game.setup_events, *(event for step in game.steps for event in step.events)]
        for event in events:
            line = PRESENTER.narrate(event, names, locale) or ""
            assert not CARD_ID.search(line), (type(event).__name__, line)
        for step in game.steps[:: max(1, len(game.steps) // 40)]:
            view = ENGINE.view(step.state, step.seat)
            summary = PRESENTER.private_summary(view, names, locale)
            assert not CARD_ID.search(summary), summary
            for choice in PRESENTER.private_choices(view, list(step.legal), names, locale):
                assert not CARD_ID.search(choice.label), choice.label
            assert not CARD_ID.search(PRESENTER.status(ENGINE.view(step.state, None), names, locale))


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_a_coin_line_never_names_its_land_twice(locale: str) -> None:
    """Чёрная Гавань's extra coin said "… с земли Чёрная Гавань (Чёрная Гавань)": the reason now says what it is."""
    event = CoinsGained(seat=0, amount=1, reason=Reason.HARBOUR, land=BLACK_HARBOUR)
    line = IntriguePresenter().narrate(event, NAMES, locale)
    assert line is not None
    land = "Чёрная Гавань" if locale == "ru" else "Black Harbour"
    assert line.count(land) == 1, line
