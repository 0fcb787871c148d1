"""The «Интриги» catalogues: both languages complete, every template formats, every code and enum has words."""

from __future__ import annotations

import string
import typing
from fnmatch import fnmatchcase
from typing import Any

import pytest
from pydantic import BaseModel

from bot.i18n import SUPPORTED_LOCALES, catalogue, translate
from bot.i18n.narrate import VARIANT_SEPARATOR
from bot.presenters.intrigue import EXTRA_EVENT_PARAMS, SELECT_GROUPS
from bot.ui.commands import fill_commands
from games.intrigue.data import CHARACTERS, LANDS, CouncilSeat, Disposition, Trait
from games.intrigue.engine import ERROR_CODES
from games.intrigue.models import (
    CharAction,
    Decision,
    IntrigueEvent,
    IntrigueOptions,
    MercType,
    Mode,
    Option,
    Phase,
    Reason,
    RevealHow,
    Side,
    Victory,
    VoteKind,
    Window,
)

EVENT_CLASSES: tuple[type[BaseModel], ...] = typing.get_args(typing.get_args(IntrigueEvent)[0])
STATUS = {"actor", "waiting", "n", "window", "character", "land", "vote", "round"}
BUTTON = {
    "land",
    "character",
    "card",
    "mode",
    "extra",
    "cost",
    "amount",
    "name",
    "merc",
    "role",
    "owner",
    "n",
    "side",
    "action",
    "answer",
    "turn",  # a hand card's last turn (a hand card is named by its type and turn, never its id)
}
#: The params each key may use (glob patterns; the first match wins). Event keys are checked against
#: their event's fields (plus the presenter's extras) instead.
PARAMS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (pattern, frozenset(params))
    for pattern, params in (
        ("intrigue.status.prefix*", {"turn", "max_turns", "phase"}),
        ("intrigue.status.over*", {"victory", "winner"}),
        ("intrigue.status.*", STATUS),
        ("intrigue.todo.*", STATUS),
        ("intrigue.panel.coins", {"coins", "lands", "characters", "council"}),
        ("intrigue.panel.hand", {"turn", "cards"}),
        ("intrigue.panel.hand_card", {"merc"}),
        ("intrigue.panel.board_cards", {"cards"}),
        ("intrigue.panel.board_card*", {"card", "merc", "character", "turn", "mode"}),
        ("intrigue.panel.stock", {"types"}),
        ("intrigue.panel.draft", {"items"}),
        ("intrigue.panel.submission", {"items"}),
        ("intrigue.panel.waiting", {"waiting"}),
        ("intrigue.panel.invested", {"lands"}),
        ("intrigue.panel.*", set()),
        ("intrigue.button.*", BUTTON),
        ("intrigue.error.invalid_seat_count", {"min", "max", "have"}),
        ("intrigue.error.*", {"min", "max", "coins", "amount", "name", "card", "action", "seat", "to"}),
        ("intrigue.option.*", {"value"}),
        ("intrigue.pay.done", {"name", "amount"}),
        ("intrigue.result.line_winner", {"place", "name", "victory"}),
        ("intrigue.result.line", {"place", "name"}),
        ("intrigue.result.score", {"council", "characters", "board", "coins"}),
        ("intrigue.result.ended", {"victory"}),
        ("intrigue.rules.lands.line", {"name", "cells", "peaceful", "military", "tags", "ability"}),
        ("intrigue.rules.characters.line", {"name", "traits", "disposition"}),
        ("intrigue.rules.traits.line", {"trait", "help"}),
        ("intrigue.*", set()),
        ("render_intrigue.player", {"n"}),
        ("render_intrigue.turn", {"turn", "max"}),
        ("render_intrigue.limit", {"max"}),
        ("render_intrigue.kills", {"n", "max"}),
        ("render_intrigue.majority", {"m", "lands"}),
        ("render_intrigue.peaceful", {"n"}),
        ("render_intrigue.military", {"n"}),
        ("render_intrigue.coins", {"n"}),
        ("render_intrigue.hand", {"n"}),
        ("render_intrigue.hired", {"n"}),
        ("render_intrigue.place", {"n"}),
        ("render_intrigue.tokens", {"lands", "characters", "council"}),
        ("render_intrigue.progress", {"coup", "will", "m"}),
        ("render_intrigue.waiting", {"names"}),
        ("render_intrigue.waits_many", {"n"}),
        ("render_intrigue.vote", {"kind", "yes", "no", "needed"}),
        ("render_intrigue.vote_appoint", {"kind", "cast", "voters"}),
        ("render_intrigue.reveal", {"merc", "owner", "character"}),
        ("render_intrigue.*", set()),
        ("cmd.intrigue.*", set()),
    )
)
INT_PARAMS = frozenset(
    {"n", "turn", "max_turns", "max", "min", "have", "coins", "amount", "cost", "extra", "round", "place"}
    | {"cells", "peaceful", "military", "m", "yes", "no", "needed", "cast", "voters", "coup", "will"}
    | {"council", "characters", "board", "lands"}
)
LONG_NAME = "W" * 32


def placeholders(template: str) -> set[str]:
    return {
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in string.Formatter().parse(template)
        if field and not field.startswith("/")
    }


def event_class(kind: str) -> type[BaseModel] | None:
    return next((cls for cls in EVENT_CLASSES if cls.model_fields["kind"].default == kind), None)


def expected_params(key: str) -> frozenset[str]:
    if key.startswith("intrigue.event."):
        kind, *variant = key.removeprefix("intrigue.event.").split(VARIANT_SEPARATOR)
        cls = event_class(kind)
        assert cls is not None, f"{key}: no Интриги event has kind {kind!r}"
        fields = set(cls.model_fields) - {"kind", "visible_to"}
        assert set(variant) <= fields, f"{key}: the variant names fields the event does not have"
        return frozenset(fields) | EXTRA_EVENT_PARAMS.get(kind, frozenset())
    for pattern, params in PARAMS:
        if fnmatchcase(key, pattern):
            return params
    raise AssertionError(f"{key}: no expected params declared in this test")


def sample(key: str, name: str) -> Any:
    if key.startswith("intrigue.event."):
        cls = event_class(key.removeprefix("intrigue.event.").split(VARIANT_SEPARATOR)[0])
        info = cls.model_fields.get(name) if cls is not None else None
        if info is not None and info.annotation in (int, int | None):
            return 2
        if name in {"count", "max_turns", "coins", "tokens", "amount", "cost", "paid", "price", "kills"}:
            return 2
        return f"<{name}>"
    return 2 if name in INT_PARAMS else f"<{name}>"


def own_keys(locale: str) -> list[str]:
    return [key for key in catalogue(locale) if key.startswith(("intrigue.", "render_intrigue.", "cmd.intrigue."))]


def test_both_languages_have_the_same_keys() -> None:
    ru, en = set(own_keys("ru")), set(own_keys("en"))
    assert ru
    assert sorted(ru - en) == [], "missing in English"
    assert sorted(en - ru) == [], "missing in Russian"


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_template_uses_only_its_params_and_formats(locale: str) -> None:
    for key in own_keys(locale):
        template = catalogue(locale)[key]
        if key == "intrigue.event.window_closed":
            assert template == ""  # deliberately silent: the next phase line says it
            continue
        assert template, f"{locale} {key} is empty"
        allowed = expected_params(key)
        used = placeholders(template)
        assert used <= allowed, f"{locale} {key}: unexpected params {sorted(used - allowed)}"
        text = fill_commands(translate(locale, key, **{name: sample(key, name) for name in allowed}), locale, None)
        assert "{" not in text and "}" not in text, f"{locale} {key} did not format: {text!r}"
        assert text == text.strip() and "  " not in text, f"{locale} {key}: stray spaces"


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_enum_value_of_the_game_has_words(locale: str) -> None:
    keys = catalogue(locale)
    assert keys["intrigue.name"] == {"ru": "Интриги", "en": "Intrigue"}[locale]
    domains: list[tuple[str, type[Any]]] = [
        ("phase", Phase),
        ("decision", Decision),
        ("window", Window),
        ("merc", MercType),
        ("mode", Mode),
        ("side", Side),
        ("answer", Option),
        ("char_action", CharAction),
        ("vote_kind", VoteKind),
        ("victory", Victory),
        ("reveal_how", RevealHow),
        ("reason", Reason),
        ("council", CouncilSeat),
        ("disposition", Disposition),
        ("disposition_short", Disposition),
        ("trait", Trait),
        ("trait_help", Trait),
    ]
    for domain, enum in domains:
        for member in enum:
            assert keys.get(f"intrigue.{domain}.{member.value}"), (domain, member)
    assert keys["intrigue.council.representative"]
    for land in LANDS:
        assert keys[f"intrigue.ability.{land}"]
    for decision in Decision:
        for section in ("status", "todo", "decision"):
            assert keys[f"intrigue.{section}.{decision.value}"]
    for group in SELECT_GROUPS:
        assert 0 < len(keys[f"intrigue.select.{group}"]) <= 150  # a select placeholder


def test_russian_trait_and_council_names_follow_the_rulebook() -> None:
    keys = catalogue("ru")
    assert [keys[f"intrigue.trait.{t.value}"] for t in Trait] == [
        "Взяточник",
        "Жадный",
        "Гордый",
        "Хозяйственный",
        "Расточительный",
        "Осторожный",
        "Коллекционер",
        "Подхалим",
        "Неподкупный",
        "Завистник",
        "Благородный",
        "Властный",
        "Проныра",
    ]
    assert [keys[f"intrigue.council.{s.value}"] for s in CouncilSeat] == [
        "Военачальник",
        "Епископ",
        "Казначей",
        "Тайный Советник",
    ]
    assert [keys[f"intrigue.victory.{v}"] for v in ("election", "coup", "will", "hand_of_order")] == [
        "Избрание Советом",
        "Военный переворот",
        "Воля народа",
        "Рука порядка",
    ]
    assert len(CHARACTERS) == 18


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_event_class_has_a_line(locale: str) -> None:
    kinds = [cls.model_fields["kind"].default for cls in EVENT_CLASSES]
    assert len(kinds) == len(set(kinds))
    for kind in kinds:
        assert f"intrigue.event.{kind}" in catalogue(locale), kind


#: The lines of events' private copies (the only copies whose card fields are filled).
PRIVATE_EVENT_KEYS = frozenset(
    f"intrigue.event.{key}"
    for key in ("card_sent__merc", "card_sent__merc__mode", "cards_hired__cards__types", "hand_expired__cards__types")
)


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_no_public_line_names_a_card_id(locale: str) -> None:
    # A card's id is for actions; printed in the public log, a count of public events could tie it
    # to what was known of the card earlier (issue 11). Public lines say "a card (owner) on …".
    for key in own_keys(locale):
        if key.startswith("intrigue.event.") and key not in PRIVATE_EVENT_KEYS:
            used = placeholders(catalogue(locale)[key])
            assert not used & {"card", "cards", "against", "agent"}, f"{locale} {key} names a card id"


def test_every_engine_error_code_and_command_error_has_a_message() -> None:
    cog_codes = ("not_in_thread", "not_seated", "target_not_seated", "pay_self", "amount_range")
    codes = [*ERROR_CODES, *(f"intrigue.{code}" for code in cog_codes)]
    for code in codes:
        domain, _, name = code.partition(".")
        for locale in SUPPORTED_LOCALES:
            assert f"{domain}.error.{name}" in catalogue(locale), (locale, code)


def test_russian_plurals_agree_with_their_numbers() -> None:
    assert translate("ru", "intrigue.pay.done", name="Аня", amount=1) == "Вы передали Аня: 1 монета."
    assert translate("ru", "intrigue.pay.done", name="Аня", amount=3) == "Вы передали Аня: 3 монеты."
    assert translate("ru", "intrigue.button.bid", n=5) == "Ставка: 5 жетонов"
    assert translate("ru", "intrigue.button.price", n=21) == "Цена: 21 монета"
    assert translate("ru", "render_intrigue.coins", n=12) == "12 монет"
    assert translate("en", "intrigue.button.extra", n=1, cost=3) == "+1 token (3 coins)"


def test_the_lobby_describes_only_the_options_players_set() -> None:
    fields = set(IntrigueOptions.model_fields)
    assert {"lands", "max_turns"} <= fields
    described = {key.split(".")[-1] for key in own_keys("ru") if key.startswith("intrigue.option.")}
    assert described == {"lands", "max_turns"}  # never the test-only land_ids / characters
    assert translate("ru", "intrigue.option.max_turns", value=12) == "Лимит ходов: 12"


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_command_strings_fit_discord(locale: str) -> None:
    keys = catalogue(locale)
    assert keys["cmd.intrigue.name"] == {"ru": "интриги", "en": "intrigue"}[locale]
    for key in own_keys(locale):
        if not key.startswith("cmd.intrigue."):
            continue
        value = keys[key]
        if key.endswith("name"):
            assert value == value.lower() and " " not in value and len(value) <= 32, key
        else:
            assert 0 < len(value) <= 100, key
    assert (keys["cmd.intrigue.new_name"], keys["cmd.intrigue.rules_name"], keys["cmd.intrigue.pay_name"]) == {
        "ru": ("новая", "правила", "заплатить"),
        "en": ("new", "rules", "pay"),
    }[locale]


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_the_widest_lines_still_fit(locale: str) -> None:
    waiting = ", ".join([LONG_NAME] * 8)
    for decision in Decision:
        line = translate(
            locale,
            f"intrigue.status.{decision.value}",
            actor=LONG_NAME,
            waiting=waiting,
            n=3,
            window="W3",
            card="M99",
            character="Лукреция Сладкоречивая",
            land="Земля Святого Ириаша",
            vote="Снятие Советника",
            round=3,
        )
        assert len(line) <= 400, line
