"""The «Гильдии Кадвалона» catalogues: both languages complete, every template formats, Discord limits hold."""

from __future__ import annotations

import string
from fnmatch import fnmatchcase

import pytest

from bot.i18n import SUPPORTED_LOCALES, catalogue, translate
from bot.presenters.cadwallon import ALL_GROUPS, READINGS, RULE_PAGES, RULE_SECTIONS, card_name
from bot.ui.commands import fill_commands
from games.cadwallon.cards import ALL_ACTIONS, ALL_CONTRACTS, CARDS, CONDITIONS, GUILD_ORDER
from games.cadwallon.engine import ERROR_CODES, MARK_CARDS, TARGET_CARDS
from games.cadwallon.models import (
    CadwallonOptions,
    CaptureOutcome,
    Category,
    DeployEnd,
    DrawSource,
    EndReason,
    TurnStep,
)

DOMAINS = ("cadwallon.", "render_cadwallon.", "cmd.cadwallon.")
#: The params each key may use (glob patterns; the first match wins).
PARAMS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (pattern, frozenset(params))
    for pattern, params in (
        ("cadwallon.value.*", {"gp", "pp", "s"}),
        ("cadwallon.label.member", {"guild", "k"}),
        ("cadwallon.label.card", {"card", "value", "district"}),
        ("cadwallon.label.slot", {"slot", "card"}),
        ("cadwallon.label.boulevard", {"boulevard", "west", "east"}),
        ("cadwallon.label.boulevard_agents", {"boulevard", "owners", "west", "east"}),
        ("cadwallon.label.agent", {"boulevard", "owner"}),
        ("cadwallon.label.agent_turned_nobody", {"boulevard", "owner"}),
        ("cadwallon.label.tarot_top", {"top"}),
        ("cadwallon.label.tarot_bottom", {"top", "bottom"}),
        ("cadwallon.summary.guild", {"guild", "n"}),
        ("cadwallon.summary.*", {"n"}),
        ("cadwallon.status.place", {"round", "name", "free", "deck"}),
        ("cadwallon.status.over_plain", set()),
        ("cadwallon.status.over*", {"winners", "points"}),
        ("cadwallon.status.*", {"round", "name", "deck"}),
        ("cadwallon.panel.hand", {"n"}),
        ("cadwallon.panel.hand_line", {"card", "text"}),
        ("cadwallon.panel.contract", {"name", "text"}),
        ("cadwallon.panel.agents", {"supply", "total"}),
        ("cadwallon.panel.captured", {"cards"}),
        ("cadwallon.panel.score", {"score", "crests"}),
        ("cadwallon.panel.todo.tarot", {"cards"}),
        ("cadwallon.panel.todo.wait", {"name"}),
        ("cadwallon.panel.target.*", {"card"}),
        ("cadwallon.panel.target2.*", {"card", "first"}),
        ("cadwallon.panel.*", set()),
        ("cadwallon.button.seat", {"name"}),
        ("cadwallon.button.seat_hand", {"name", "n"}),
        ("cadwallon.option.*", {"value"}),
        ("cadwallon.place.bad_code", {"text", "grid"}),
        ("cadwallon.result.head*", {"place", "name", "points"}),
        ("cadwallon.result.crests", {"n"}),
        ("cadwallon.result.guilds", {"items"}),
        ("cadwallon.result.guild", {"guild", "gp", "cards", "points"}),
        ("cadwallon.result.guild_personalities", {"guild", "gp", "cards", "n", "points"}),
        ("cadwallon.result.guild_empty", {"guild", "n"}),
        ("cadwallon.result.guild_compact", {"guild", "total"}),
        ("cadwallon.result.guild_*", {"guild"}),
        ("cadwallon.result.free_spirits", {"n", "points"}),
        ("cadwallon.result.unassigned", {"n"}),
        ("cadwallon.result.actions", {"n", "each", "points"}),
        ("cadwallon.result.militia*", {"n", "pp", "points"}),
        ("cadwallon.result.contract_*", {"name", "points"}),
        ("cadwallon.result.no_*", set()),
        ("cadwallon.result.*", {"points"}),
        ("cadwallon.revision.result_seat", {"points"}),
        ("cadwallon.table.districts", {"items"}),
        ("cadwallon.table.creditors", {"items"}),
        ("cadwallon.table.guild", {"guild", "code", "cards", "gp"}),
        ("cadwallon.table.member", {"gp", "s", "district"}),
        ("cadwallon.table.personality", {"id", "name", "district"}),
        ("cadwallon.table.militia", {"id", "name", "pp", "s", "district"}),
        ("cadwallon.table.action", {"id", "name", "district", "text"}),
        ("cadwallon.table.condition", {"id", "name", "text"}),
        ("cadwallon.table.contract", {"id", "name", "text"}),
        ("cadwallon.event.game_started", {"grid", "agents", "first", "deck", "reserve"}),
        ("cadwallon.event.game_started_condition", {"condition"}),
        ("cadwallon.event.contract_dealt", {"name"}),
        ("cadwallon.event.action_card_drawn", {"seat", "source"}),
        ("cadwallon.event.action_card_drawn_private", {"card", "source"}),
        ("cadwallon.event.action_card_drawn_open", {"seat", "card", "source"}),
        ("cadwallon.event.reserve_empty", {"seat"}),
        ("cadwallon.event.round_started", {"round", "first"}),
        ("cadwallon.event.cards_revealed", {"cards", "n", "left"}),
        ("cadwallon.event.cards_revealed_many", {"n", "left"}),
        ("cadwallon.event.agent_placed", {"seat", "boulevard", "left"}),
        ("cadwallon.event.agent_placed_card", {"seat", "boulevard", "card", "left"}),
        ("cadwallon.event.action_played", {"seat", "card"}),
        ("cadwallon.event.cards_swapped", {"seat", "first", "first_slot", "second", "second_slot"}),
        ("cadwallon.event.deck_peeked", {"seat", "n"}),
        ("cadwallon.event.deck_peeked_private", {"cards"}),
        ("cadwallon.event.deck_reordered_private", {"top"}),
        ("cadwallon.event.deck_reordered_private_bottom", {"top", "bottom"}),
        ("cadwallon.event.deck_reordered*", {"seat"}),
        ("cadwallon.event.agent_returned", {"seat", "owner", "boulevard"}),
        ("cadwallon.event.agent_moved*", {"seat", "owner", "origin", "destination"}),
        ("cadwallon.event.agents_swapped", {"seat", "owner", "mine", "theirs"}),
        ("cadwallon.event.agent_turned", {"seat", "owner", "boulevard"}),
        ("cadwallon.event.barricade_built", {"seat", "boulevard"}),
        ("cadwallon.event.card_demolished", {"seat", "slot", "removed", "dealt"}),
        ("cadwallon.event.card_stolen", {"seat", "victim"}),
        ("cadwallon.event.card_stolen_card", {"seat", "victim", "card"}),
        ("cadwallon.event.militia_given", {"seat", "recipient", "card"}),
        ("cadwallon.event.windfall_*", {"seat", "card"}),
        ("cadwallon.event.supply_left", {"seats"}),
        ("cadwallon.event.card_captured", {"slot", "seat", "card", "support"}),
        ("cadwallon.event.card_captured_hidden", {"slot", "seat", "support"}),
        ("cadwallon.event.supports", {"supports"}),
        ("cadwallon.event.round_ended*", {"round", "n", "first"}),
        ("cadwallon.event.stalled", {"n"}),
        ("cadwallon.event.player_resigned", {"seat"}),
        ("cadwallon.event.game_ended_*", {"deck", "empty"}),
        ("cadwallon.event.game_scored*", {"winners", "scores"}),
        ("cadwallon.event.*", set()),
        ("cadwallon.played.*", {"seat"}),
        ("cadwallon.mark.*", {"seat", "slot", "target"}),
        ("cadwallon.deploy_end.*", {"round"}),
        ("cadwallon.outcome.*", {"seats"}),
        ("cadwallon.stayed.tie", {"slot", "card", "seats", "support"}),
        ("cadwallon.stayed.*", {"slot", "card"}),
        ("cadwallon.error.invalid_seat_count", {"min", "max", "have"}),
        ("cadwallon.error.seats_for_grid", {"grid", "min", "max", "have"}),
        ("render_cadwallon.condition", {"name", "text"}),
        ("render_cadwallon.play", {"name", "card"}),
        ("render_cadwallon.windfall", {"card"}),
        ("render_cadwallon.this_round", {"items"}),
        ("render_cadwallon.tie", {"slot"}),
        ("render_cadwallon.curfew", {"slot"}),
        ("render_cadwallon.stayed", {"slots"}),
        ("render_cadwallon.last_capture", {"round", "items"}),
        ("render_cadwallon.status.over_plain", set()),
        ("render_cadwallon.status.over*", {"names"}),
        ("render_cadwallon.status.*", {"name"}),
        ("render_cadwallon.part.*", {"n"}),
        ("render_cadwallon.player", {"n"}),
        ("render_cadwallon.round", {"n"}),
        ("render_cadwallon.deck", {"n"}),
        ("render_cadwallon.reserve", {"n"}),
        ("render_cadwallon.agents", {"n"}),
        ("render_cadwallon.hand", {"n"}),
        ("render_cadwallon.played", {"n"}),
        ("*", set()),
    )
)
INT_PARAMS = frozenset(
    {
        "n",
        "gp",
        "pp",
        "s",
        "k",
        "grid",
        "agents",
        "deck",
        "reserve",
        "left",
        "round",
        "free",
        "points",
        "supply",
        "total",
        "score",
        "crests",
        "cards",
        "support",
        "place",
        "min",
        "max",
        "have",
        "each",
        "west",
        "east",
        "value",
        "empty",
    }
)
LONG_NAME = "W" * 32  # Discord display names are at most 32 characters


def placeholders(template: str) -> set[str]:
    return {
        f.split(".")[0].split("[")[0]
        for _, f, _, _ in string.Formatter().parse(template)
        if f and not f.startswith("/")
    }


def expected_params(key: str) -> frozenset[str]:
    for pattern, params in PARAMS:
        if fnmatchcase(key, pattern):
            return params
    raise AssertionError(key)


def own_keys(locale: str) -> list[str]:
    return [key for key in catalogue(locale) if key.startswith(DOMAINS)]


def test_both_languages_have_the_same_keys() -> None:
    ru, en = set(own_keys("ru")), set(own_keys("en"))
    assert ru
    assert sorted(ru - en) == [], "missing in English"
    assert sorted(en - ru) == [], "missing in Russian"


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_template_uses_only_its_params_and_formats(locale: str) -> None:
    for key in own_keys(locale):
        template = catalogue(locale)[key]
        assert template, f"{locale} {key} is empty"
        allowed = expected_params(key)
        used = placeholders(template)
        assert used <= allowed, f"{locale} {key}: unexpected params {sorted(used - allowed)}"
        sample: dict[str, object] = {name: 2 if name in INT_PARAMS else f"<{name}>" for name in allowed}
        text = fill_commands(translate(locale, key, **sample), locale, None)
        assert "{" not in text and "}" not in text, f"{locale} {key} did not format: {text!r}"
        assert text == text.strip() and "  " not in text, f"{locale} {key}: stray spaces"


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_card_condition_contract_and_enum_has_its_messages(locale: str) -> None:
    keys = catalogue(locale)
    assert keys["cadwallon.name"] == {"ru": "Гильдии Кадвалона", "en": "Guilds of Cadwallon"}[locale]
    for guild in GUILD_ORDER:
        assert keys[f"cadwallon.guild.{guild.value}"] and keys[f"cadwallon.creditor.{guild.value}"]
    for card, info in CARDS.items():
        assert card_name(card, locale) and "cadwallon." not in card_name(card, locale)
        if info.category is Category.PERSONALITY:
            assert keys[f"cadwallon.personality.{card}"]
    for card in ALL_ACTIONS:
        assert keys[f"cadwallon.action.{card}"] and keys[f"cadwallon.action_text.{card}"]
    for condition in CONDITIONS:
        assert keys[f"cadwallon.condition.{condition}"] and keys[f"cadwallon.condition_text.{condition}"]
    for contract in ALL_CONTRACTS:
        assert keys[f"cadwallon.contract.{contract}"] and keys[f"cadwallon.contract_text.{contract}"]
    for district in "DMOH":
        assert keys[f"cadwallon.district.{district}"]
    for category in Category:
        assert keys[f"cadwallon.value.{category.value}"]
    for source in DrawSource:
        assert keys[f"cadwallon.source.{source.value}"]
    for reason in EndReason:
        assert keys[f"cadwallon.end_reason.{reason.value}"]
        assert keys[f"cadwallon.event.game_ended_{reason.value}"]
    for end in DeployEnd:
        assert keys[f"cadwallon.deploy_end.{end.value}"]
    for outcome in (CaptureOutcome.ARBITRATION, CaptureOutcome.PRECEDENCE):
        assert keys[f"cadwallon.outcome.{outcome.value}"]
    for outcome in (CaptureOutcome.TIE, CaptureOutcome.NO_SUPPORT, CaptureOutcome.CURFEW):
        assert keys[f"cadwallon.stayed.{outcome.value}"]
    for card in MARK_CARDS:
        assert keys[f"cadwallon.mark.{card}"]
    for card in TARGET_CARDS:
        assert keys[f"cadwallon.panel.target.{card}"]
    for card in ("A01", "A05", "A11", "A18", "A22", "A23"):
        assert keys[f"cadwallon.panel.target2.{card}"]
    for group in ALL_GROUPS:
        assert keys[f"cadwallon.select.{group}"]
    for key in RULE_SECTIONS:
        assert keys[f"cadwallon.rules.{key}.title"] and keys[f"cadwallon.rules.{key}.text"]
    for page in RULE_PAGES:
        assert keys[f"cadwallon.page.{page}"] and keys[f"cmd.cadwallon.part_{page}"]
    for reading in READINGS:
        assert keys[f"cadwallon.reading.{reading}"]
    assert {step.value for step in TurnStep} == {"place", "act", "tarot"}


def test_every_engine_error_code_has_a_message() -> None:
    for code in ERROR_CODES:
        domain, _, name = code.partition(".")
        for locale in SUPPORTED_LOCALES:
            assert f"{domain}.error.{name}" in catalogue(locale), (locale, code)


def test_the_lobby_describes_the_options_the_command_sets() -> None:
    for option in ("grid", "conditions", "contracts", "starting_action", "expansion_actions_3x3"):
        assert option in CadwallonOptions.model_fields
        for locale in SUPPORTED_LOCALES:
            assert f"cadwallon.option.{option}" in catalogue(locale)
    assert translate("ru", "cadwallon.option.grid", value=5) == "Сетка 5×5"
    assert "first_seat" not in {k.split(".")[-1] for k in own_keys("ru") if k.startswith("cadwallon.option.")}


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_labels_fit_discord(locale: str) -> None:
    keys = catalogue(locale)
    for key in own_keys(locale):
        if key.startswith("cadwallon.select."):
            assert len(keys[key]) <= 150  # a select placeholder
        if key.startswith("cadwallon.button."):
            assert len(translate(locale, key, name=LONG_NAME, n=12)) <= 80
    for key in own_keys(locale):
        if key.startswith("cmd.cadwallon.") and (key.endswith("description") or "part_" in key):
            assert 0 < len(keys[key]) <= 100, key
    longest = max((card_name(c, locale) for c in CARDS), key=len)
    assert len(translate(locale, "cadwallon.label.slot", slot="E5", card=longest + " (−2 PP, S 3, High Town)")) <= 100


def test_the_command_names_are_discord_names() -> None:
    assert catalogue("ru")["cmd.cadwallon.name"] == "гильдии"
    assert catalogue("en")["cmd.cadwallon.name"] == "cadwallon"
    for locale in SUPPORTED_LOCALES:
        for key in own_keys(locale):
            if key.endswith("_name") or key == "cmd.cadwallon.name":
                value = catalogue(locale)[key]
                assert value == value.lower() and " " not in value and len(value) <= 32, key


@pytest.mark.parametrize(("n", "word"), [(1, "проспект"), (3, "проспекта"), (11, "проспектов"), (21, "проспект")])
def test_russian_plurals_agree_with_the_number(n: int, word: str) -> None:
    line = translate("ru", "cadwallon.status.place", round=1, name="Аня", free=n, deck=5)
    assert f"свободно {n} {word}," in line


def test_the_rules_use_the_rulebook_terms_and_say_the_cards_are_ours() -> None:
    text = " ".join(catalogue("ru")[f"cadwallon.rules.{key}.text"] for key in RULE_SECTIONS)
    for term in ("Кварталов", "Очки Гильдий", "Штрафные Очки", "Величина Поддержки", "проспект", "Первого Игрока"):
        assert term in text, term
    for term in ("Открытие", "Отправка", "Захват", "Кредитор", "Персонаж", "Стража", "домашние карты"):
        assert term in text, term
    english = " ".join(catalogue("en")[f"cadwallon.rules.{key}.text"] for key in RULE_SECTIONS)
    assert "house card" in english and "not the printed one" in english
    assert "= 4 × 3 = 12" in english and "−2 × 2 = −4" in english and "Total 12" in english
