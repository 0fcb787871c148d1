"""The «Масти Власти» catalogues: both languages complete, every template formats, Discord limits hold."""

from __future__ import annotations

import string
from fnmatch import fnmatchcase
from typing import Any, get_args

import pytest
from pydantic import BaseModel

from bot.i18n import SUPPORTED_LOCALES, catalogue, translate
from bot.i18n.narrate import VARIANT_SEPARATOR
from bot.presenters.masti import PLAY_GROUP, RULE_SECTIONS, card_label
from bot.ui.commands import fill_commands
from games.masti.deck import CARDS, GUILD_ORDER
from games.masti.engine import ERROR_CODES
from games.masti.models import CardKind, Guild, MastiEvent, MastiOptions, Mode, Persona, Phase

EVENT_CLASSES: tuple[type[BaseModel], ...] = get_args(get_args(MastiEvent)[0])
#: Params derived by the presenter on top of an event's own fields.
EXTRA_EVENT_PARAMS: dict[str, frozenset[str]] = {"game_scored": frozenset({"winners"})}
#: The params each key may use (glob patterns; the first match wins). Event keys are checked
#: against their event's fields instead.
PARAMS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (pattern, frozenset(params))
    for pattern, params in (
        ("masti.name", set()),
        ("masti.persona.*", set()),
        ("masti.guild.*", set()),
        ("masti.guild_full.*", set()),
        ("masti.card.*", set()),
        ("masti.face.guild*", {"guild"}),
        ("masti.face.*", set()),
        ("masti.label.card", {"persona", "value", "face"}),
        ("masti.label.short", {"value", "face"}),
        ("masti.phase.*", set()),
        ("masti.mode.*", set()),
        ("masti.team.members", {"first", "second"}),
        ("masti.status.seeding", {"waiting"}),
        ("masti.status.lead", {"round", "max_rounds", "trump", "name"}),
        ("masti.status.follow", {"round", "max_rounds", "trump", "name", "card"}),
        ("masti.status.leave", {"round", "name"}),
        ("masti.status.over*", {"winners"}),
        ("masti.panel.hand", {"n"}),
        ("masti.panel.hand_line", {"persona", "cards"}),
        ("masti.panel.gems", {"bribe", "wealth"}),
        ("masti.panel.team", {"partner"}),
        ("masti.panel.pile", {"guild", "symbols"}),
        ("masti.panel.piles", {"piles"}),
        ("masti.panel.neutral", {"cards"}),
        ("masti.panel.seeded", {"card"}),
        ("masti.panel.trump", {"card"}),
        ("masti.panel.todo.follow*", {"persona"}),
        ("masti.panel.todo.bribe", {"n"}),
        ("masti.panel.todo.wait", {"name"}),
        ("masti.panel.*", set()),
        ("masti.button.bribe", {"n"}),
        ("masti.select.*", set()),
        ("masti.joker.placed", {"card", "guild", "owner"}),
        ("masti.joker.discarded", {"card", "owner"}),
        ("masti.error.invalid_seat_count", {"min", "max", "have"}),
        ("masti.error.*", set()),
        ("masti.option.*", {"value"}),
        ("masti.result.head*", {"place", "names", "points", "total"}),
        ("masti.result.piles", {"items"}),
        ("masti.result.piles_none", set()),
        ("masti.result.pile*", {"guild", "symbols", "points", "owner"}),
        (
            "masti.result.extras",
            {
                "power",
                "power_points",
                "bonus",
                "bonus_points",
                "penalty",
                "penalty_points",
                "gems",
                "gems_points",
                "won",
            },
        ),
        ("masti.result.discarded", {"cards"}),
        ("masti.rules.*", set()),
        ("cmd.masti.*", set()),
    )
)
INT_PARAMS = frozenset(
    {
        "n",
        "min",
        "max",
        "have",
        "round",
        "max_rounds",
        "bribe",
        "wealth",
        "symbols",
        "total",
        "place",
        "value",
        "power",
        "bonus",
        "penalty",
        "gems",
        "won",
        "size",
        "deck_left",
        "gems_removed",
        "gems_left",
        "bribe_gems",
        "trump_deck_size",
    }
)
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
    if key.startswith("masti.event."):
        kind, *variant = key.removeprefix("masti.event.").split(VARIANT_SEPARATOR)
        fields = event_fields(kind)
        assert fields is not None, f"{key}: no Masti event has kind {kind!r}"
        assert set(variant) <= fields, f"{key}: the variant names fields the event does not have"
        return frozenset(fields) | EXTRA_EVENT_PARAMS.get(kind, frozenset())
    for pattern, params in PARAMS:
        if fnmatchcase(key, pattern):
            return params
    raise AssertionError(f"{key}: no expected params declared in this test")


def sample(name: str) -> Any:
    return 2 if name in INT_PARAMS else f"<{name}>"


def own_keys(locale: str) -> list[str]:
    return [key for key in catalogue(locale) if key.startswith(("masti.", "cmd.masti."))]


def test_both_languages_have_the_same_keys() -> None:
    ru, en = set(own_keys("ru")), set(own_keys("en"))
    assert ru
    assert sorted(ru - en) == [], "missing in English"
    assert sorted(en - ru) == [], "missing in Russian"


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_template_uses_only_its_params_and_formats(locale: str) -> None:
    for key in own_keys(locale):
        template = catalogue(locale)[key]
        assert template, f"{locale} {key} is empty"  # no Masti event is deliberately silent
        allowed = expected_params(key)
        used = placeholders(template)
        assert used <= allowed, f"{locale} {key}: unexpected params {sorted(used - allowed)}"
        text = fill_commands(translate(locale, key, **{name: sample(name) for name in allowed}), locale, None)
        assert "{" not in text and "}" not in text, f"{locale} {key} did not format: {text!r}"
        assert text == text.strip() and "  " not in text, f"{locale} {key}: stray spaces"


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_persona_guild_card_kind_phase_and_mode_has_a_name(locale: str) -> None:
    keys = catalogue(locale)
    assert keys["masti.name"] == {"ru": "Масти Власти", "en": "Suits of Power"}[locale]
    for persona in Persona:
        assert keys[f"masti.persona.{persona.value}"]
    for guild in Guild:
        assert keys[f"masti.guild.{guild.value}"]
        assert keys[f"masti.guild_full.{guild.value}"]
    for kind in CardKind:
        assert keys[f"masti.card.{kind.value}"]
        if kind is not CardKind.GUILD:
            assert keys[f"masti.face.{kind.value}"]
    for phase in Phase:
        assert keys[f"masti.phase.{phase.value}"]
    for mode in Mode:
        assert keys[f"masti.mode.{mode.value}"]
    for group in (PLAY_GROUP, "seed", "leave", "any"):
        assert keys[f"masti.select.{group}"]


def test_russian_names_follow_the_rulebook() -> None:
    keys = catalogue("ru")
    assert [keys[f"masti.persona.{p.value}"] for p in Persona] == ["Альдо", "Пьетра", "Энцо", "Уго"]
    assert [keys[f"masti.guild_full.{g.value}"] for g in Guild] == [
        "Гильдия аристократов",
        "Гильдия художников",
        "Гильдия торговцев",
        "Гильдия ремесленников",
        "Гильдия рыцарей",
        "Гильдия убийц",
    ]
    assert keys["masti.card.power"] == "Карта власти"
    assert keys["masti.card.joker"] == "Джокер"


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_event_class_has_a_line(locale: str) -> None:
    kinds = [cls.model_fields["kind"].default for cls in EVENT_CLASSES]
    assert len(kinds) == len(set(kinds))
    for kind in kinds:
        assert f"masti.event.{kind}" in catalogue(locale), kind


def test_every_engine_error_code_has_a_message() -> None:
    for code in ERROR_CODES:
        domain, _, name = code.partition(".")
        for locale in SUPPORTED_LOCALES:
            assert f"{domain}.error.{name}" in catalogue(locale), (locale, code)


def test_the_lobby_describes_the_teams_option() -> None:
    assert "teams" in MastiOptions.model_fields
    assert "Командная игра" in translate("ru", "masti.option.teams", value=True)
    assert "first_seat" not in {key.split(".")[-1] for key in own_keys("ru") if key.startswith("masti.option.")}


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_labels_fit_discord(locale: str) -> None:
    assert len(translate(locale, "masti.button.bribe", n=4)) <= 80
    for key in own_keys(locale):
        if key.startswith("masti.select."):
            assert len(catalogue(locale)[key]) <= 150  # a select placeholder
    for key in ("new_description", "rules_description", "clock_description", "teams_description", "description"):
        assert len(catalogue(locale)[f"cmd.masti.{key}"]) <= 100


def test_the_command_names_are_discord_names() -> None:
    assert catalogue("ru")["cmd.masti.name"] == "масти"
    assert catalogue("en")["cmd.masti.name"] == "masti"
    for locale in SUPPORTED_LOCALES:
        for key in own_keys(locale):
            if key.startswith("cmd.masti.") and key.endswith("name"):
                value = catalogue(locale)[key]
                assert value == value.lower() and " " not in value and len(value) <= 32


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_rules_fit_one_embed(locale: str) -> None:
    keys = catalogue(locale)
    sections = sorted({key.split(".")[2] for key in keys if key.startswith("masti.rules.")})
    assert sections == sorted(RULE_SECTIONS)
    total = len(keys["masti.name"])
    for section in RULE_SECTIONS:
        title, text = keys[f"masti.rules.{section}.title"], keys[f"masti.rules.{section}.text"]
        assert 0 < len(title) <= 256, section
        assert 0 < len(text) <= 1024, section
        total += len(title) + len(text)
    assert total <= 5500  # an embed holds 6000 characters in all; keep a margin


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_the_rules_show_our_house_deck_and_say_it_is_ours(locale: str) -> None:
    text = catalogue(locale)["masti.rules.deck.text"]
    title = catalogue(locale)["masti.rules.deck.title"]
    ours = {"ru": ("наша собственная", "а не печатная"), "en": ("our own", "not the printed one")}[locale]
    for phrase in ours:
        assert phrase in text
    assert {"ru": "наша", "en": "our own"}[locale] in title
    letters = {"ru": {"A": "А", "P": "П", "E": "Э", "U": "У"}, "en": {"A": "A", "P": "P", "E": "E", "U": "U"}}[locale]
    lines = text.splitlines()
    for guild in GUILD_ORDER:
        cards = [info for info in CARDS.values() if info.guild is guild]
        listed = ", ".join(
            f"{letters[info.persona.value]}{info.value}{'×2' if info.symbols == 2 else ''}"
            for info in sorted(cards, key=lambda i: (i.value, "APEU".index(i.persona.value)))
        )
        expected = f"{catalogue(locale)[f'masti.guild.{guild.value}']}: {listed}"
        assert expected in lines, expected


def test_the_rules_use_the_rulebook_terms_and_rulings() -> None:
    text = " ".join(catalogue("ru")[f"masti.rules.{section}.text"] for section in RULE_SECTIONS)
    for term in (
        "персонаж",
        "стартовая карта",
        "козыр",
        "колод",
        "самоцвет для подкупа",
        "карт",
        "богатства",
        "стопк",
        "символ",
        "джокер",
        "карта власти",
        "гильди",
    ):
        assert term in text, term
    for ruling in (
        "подкупать ему нельзя",  # the lead may not bribe
        "даже если нужная карта есть",  # a bribe is allowed when you could follow
        "бывают козырями",  # neutral cards follow suit and can be trumps
        "даже нейтральной",  # a neutral trump card names its persona
        "очков не приносят",  # bribe gems left at the end score nothing
        "обязан лечь",  # jokers are mandatory where legal
        "меньше символов",  # team dedupe keeps the smaller pile
        "складываются",  # team power cards are combined
        "друг напротив друга",  # six players: partners opposite
        "хоть козырь",  # any taken card may be left
        "порядок — нет",  # a rebuilt trump deck's order is hidden
        "никогда не подкупает",  # the clock never bribes
        "Места перемешиваются",  # seats are shuffled
    ):
        assert ruling in text, ruling


def test_the_longest_lines_still_fit() -> None:
    # The widest status and panel lines, with 32-character names and the longest card labels.
    for locale in SUPPORTED_LOCALES:
        card = max((card_label(c, locale) for c in CARDS), key=len)
        line = translate(
            locale, "masti.status.follow", round=16, max_rounds=16, trump="Пьетра", card=card, name=LONG_NAME
        )
        assert len(line) <= 200
        assert len(translate(locale, "masti.status.seeding", waiting=", ".join([LONG_NAME] * 3))) <= 300
