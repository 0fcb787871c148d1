"""The message catalogues: both languages complete, every template formats, Discord limits hold."""

from __future__ import annotations

import string
from fnmatch import fnmatchcase
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any, get_args

import pytest
from pydantic import BaseModel

from bot.i18n import SUPPORTED_LOCALES, catalogue, translate
from bot.i18n.narrate import VARIANT_SEPARATOR
from bot.ui.commands import fill_commands
from games.coup.models import ActionKind, Card, CoupEvent, Phase

LOCALES_DIR = Path(__file__).parents[3] / "bot" / "i18n" / "locales"
EVENT_CLASSES: tuple[type[BaseModel], ...] = get_args(get_args(CoupEvent)[0])
RULE_SECTIONS = (
    "setup",
    "turn",
    "actions",
    "challenges",
    "blocks",
    "influence",
    "exchange",
    "two_players",
    "table",
    "end",
)
#: The params each key may use (glob patterns; the first match wins). Event keys are checked
#: against their event's fields instead.
PARAMS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (pattern, frozenset(params))
    for pattern, params in (
        ("core.test.*", {"n"}),
        ("core.plural.*", {"n"}),
        ("core.seat", {"number"}),
        ("core.apology", set()),
        ("core.error.not_your_turn", {"seat"}),
        ("core.error.*", set()),
        ("coup.name", set()),
        ("coup.card.*", set()),
        ("coup.action.*", set()),
        ("coup.action_help.*", set()),
        ("coup.phase.draft", set()),
        ("coup.phase.*", {"name"}),
        ("coup.claim.plain", {"actor", "action"}),
        ("coup.claim.targeted", {"actor", "action", "target"}),
        ("coup.status.draft", {"waiting"}),
        ("coup.status.respond_action", {"claim", "waiting"}),
        ("coup.status.respond_block", {"claim", "blocker", "card", "waiting"}),
        ("coup.status.prove", {"challenger", "claimant", "card"}),
        ("coup.status.over", {"winner"}),
        ("coup.status.*", {"name"}),
        ("coup.panel.hand", {"cards"}),
        ("coup.panel.revealed", {"cards"}),
        ("coup.panel.coins", {"n"}),
        ("coup.panel.exchange_pool", {"cards", "n"}),
        ("coup.panel.*", set()),
        ("coup.button.coup", {"target"}),
        ("coup.button.assassinate", {"target"}),
        ("coup.button.steal", {"target"}),
        ("coup.button.block", {"card"}),
        ("coup.button.prove", {"card"}),
        ("coup.button.reveal", {"card"}),
        ("coup.button.draft", {"card"}),
        ("coup.button.keep", {"cards"}),
        ("coup.button.*", set()),
        ("coup.error.must_coup", {"coins"}),
        ("coup.error.not_enough_coins", {"cost", "coins"}),
        ("coup.error.invalid_seat_count", {"min", "max", "have"}),
        ("coup.error.wrong_keep_count", {"expected", "got"}),
        ("coup.error.*", set()),
        ("coup.rules.*", set()),
        ("coup.option.*", set()),
        ("coup.select.*", set()),
    )
)
INT_PARAMS = frozenset({"n", "amount", "cost", "coins", "expected", "got", "min", "max", "have", "number", "size"})
LONG_NAME = "W" * 32  # Discord display names are at most 32 characters


def placeholders(template: str) -> set[str]:
    return {
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in string.Formatter().parse(template)
        if field and not field.startswith("/")
    }


def event_fields(kind: str) -> set[str] | None:
    for cls in EVENT_CLASSES:
        if cls.model_fields["kind"].default == kind:
            return set(cls.model_fields) - {"kind", "visible_to"}
    return None


def expected_params(key: str) -> frozenset[str]:
    if key.startswith("coup.event."):
        kind, *variant = key.removeprefix("coup.event.").split(VARIANT_SEPARATOR)
        fields = event_fields(kind)
        assert fields is not None, f"{key}: no Coup event has kind {kind!r}"
        assert set(variant) <= fields, f"{key}: the variant names fields the event does not have"
        return frozenset(fields)
    for pattern, params in PARAMS:
        if fnmatchcase(key, pattern):
            return params
    raise AssertionError(f"{key}: no expected params declared in this test")


def sample(name: str) -> Any:
    return 2 if name in INT_PARAMS else f"<{name}>"


def own_keys(locale: str) -> list[str]:
    return [key for key in catalogue(locale) if key.startswith(("core.", "coup."))]


def test_locales_are_supported() -> None:
    assert SUPPORTED_LOCALES == ("ru", "en")


@pytest.mark.parametrize("domain", sorted(p.stem for p in (LOCALES_DIR / "ru").glob("*.toml")))
def test_every_domain_has_the_same_keys_in_both_languages(domain: str) -> None:
    ru = {key for key in catalogue("ru") if key.split(".")[0] == domain}
    en = {key for key in catalogue("en") if key.split(".")[0] == domain}
    assert ru, domain
    assert sorted(ru - en) == [], "missing in English"
    assert sorted(en - ru) == [], "missing in Russian"


def test_both_languages_have_the_same_files() -> None:
    ru = sorted(p.name for p in (LOCALES_DIR / "ru").glob("*.toml"))
    en = sorted(p.name for p in (LOCALES_DIR / "en").glob("*.toml"))
    assert ru == en


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_template_uses_only_its_params_and_formats(locale: str) -> None:
    for key in own_keys(locale):
        template = catalogue(locale)[key]
        allowed = expected_params(key)
        used = placeholders(template)
        assert used <= allowed, f"{locale} {key}: unexpected params {sorted(used - allowed)}"
        text = fill_commands(translate(locale, key, **{name: sample(name) for name in allowed}), locale, None)
        assert "{" not in text and "}" not in text, f"{locale} {key} did not format: {text!r}"
        assert text == text.strip() and "  " not in text, f"{locale} {key}: stray spaces"


def test_only_silent_events_are_empty_and_in_both_languages() -> None:
    for locale in SUPPORTED_LOCALES:
        empty = {key for key in own_keys(locale) if not catalogue(locale)[key]}
        assert empty == {"coup.event.deck_shuffled"}, locale


@pytest.mark.parametrize(
    ("n", "ru", "en"),
    [
        (0, "0 монет", "0 coins"),
        (1, "1 монета", "1 coin"),
        (2, "2 монеты", "2 coins"),
        (4, "4 монеты", "4 coins"),
        (5, "5 монет", "5 coins"),
        (11, "11 монет", "11 coins"),
        (12, "12 монет", "12 coins"),
        (21, "21 монета", "21 coins"),
        (22, "22 монеты", "22 coins"),
        (25, "25 монет", "25 coins"),
        (111, "111 монет", "111 coins"),
    ],
)
def test_plurals(n: int, ru: str, en: str) -> None:
    assert translate("ru", "core.plural.coins", n=n) == ru
    assert translate("en", "core.plural.coins", n=n) == en


def test_accusative_plurals_in_coup_lines() -> None:
    assert translate("ru", "coup.panel.exchange_pool", cards="А, Б, В", n=1).endswith(
        "Оставьте 1 карту, остальные вернутся в колоду двора."
    )
    assert "Оставьте 2 карты" in translate("ru", "coup.panel.exchange_pool", cards="А", n=2)
    assert translate("ru", "coup.error.not_enough_coins", cost=3, coins=1) == (
        "Не хватает монет: действие стоит 3 монеты, а у вас 1."
    )


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_card_action_and_phase_has_its_messages(locale: str) -> None:
    keys = catalogue(locale)
    assert keys["coup.name"]
    for card in Card:
        assert keys[f"coup.card.{card.value}"]
    for action in ActionKind:
        assert keys[f"coup.action.{action.value}"]
        assert 0 < len(keys[f"coup.action_help.{action.value}"]) <= 100  # select option description
    for phase in Phase:
        assert keys[f"coup.phase.{phase.value}"]
        assert keys[f"coup.panel.todo.{phase.value}"]


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_event_class_has_a_line(locale: str) -> None:
    kinds = [cls.model_fields["kind"].default for cls in EVENT_CLASSES]
    assert len(kinds) == len(set(kinds))
    for kind in kinds:
        assert f"coup.event.{kind}" in catalogue(locale), kind


def test_every_engine_error_code_has_a_message() -> None:
    engine = pytest.importorskip("games.coup.engine", reason="the Coup engine is not written yet")
    for code in engine.ERROR_CODES:
        domain, _, name = code.partition(".")
        for locale in SUPPORTED_LOCALES:
            assert f"{domain}.error.{name}" in catalogue(locale), (locale, code)


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_button_labels_fit_discord(locale: str) -> None:
    cards = [translate(locale, f"coup.card.{card.value}") for card in Card]
    longest_card = max(cards, key=len)
    longest_keep = max((", ".join(pair) for pair in combinations_with_replacement(cards, 2)), key=len)
    params = {"target": LONG_NAME, "card": longest_card, "cards": longest_keep}
    buttons = [key for key in catalogue(locale) if key.startswith("coup.button.")]
    assert {key.removeprefix("coup.button.") for key in buttons} >= {
        *(action.value for action in ActionKind),
        "challenge",
        "block",
        "allow",
        "prove",
        "concede",
        "reveal",
        "keep",
        "draft",
        "my_cards",
        "back",
        "resign",
    }
    for key in buttons:
        label = translate(locale, key, **params)
        assert 0 < len(label) <= 80, (key, label)


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_rules_fit_one_embed(locale: str) -> None:
    keys = catalogue(locale)
    sections = sorted({key.split(".")[2] for key in keys if key.startswith("coup.rules.")})
    assert sections == sorted(RULE_SECTIONS)
    total = 0
    for section in RULE_SECTIONS:
        title, text = keys[f"coup.rules.{section}.title"], keys[f"coup.rules.{section}.text"]
        assert 0 < len(title) <= 256, section
        assert 0 < len(text) <= 1024, section
        total += len(title) + len(text)
    assert total <= 5500  # an embed holds 6000 characters in all; leave room for its title and footer


def test_rules_use_the_rulebook_terms() -> None:
    text = " ".join(catalogue("ru")[f"coup.rules.{section}.text"] for section in RULE_SECTIONS)
    for term in ("покровител", "колод", "двора", "казн", "оспорить", "запретить", "Доход", "Иностранная помощь"):
        assert term in text, term
    for term in ("Переворот", "Налог", "Заказное убийство", "Кража", "Обмен"):
        assert term in text, term
    for term in ("Герцог", "Ассасин", "Капитан", "Посл", "Графин"):
        assert term in text, term
