"""The /masti command group (/масти): /masti new with its clock and teams options, and /masti rules."""

from __future__ import annotations

import pytest

from bot.i18n import translate
from bot.presenters.masti import RULE_SECTIONS
from bot.ui.commands import fill_commands
from games.masti.deck import CARDS, GUILD_ORDER, sort_key
from tests.support import component_ids, embed_text, private_text

pytestmark = pytest.mark.asyncio
#: What every new lobby's options hold from the server's settings (here: the defaults).
FLOW = {"reaction_clock": 15, "reminders": True, "archive_minutes": 60}

LOBBY_VERBS = ["join", "leave", "addai", "removeai", "start", "cancel"]
#: How the rules' deck table writes a persona, by locale.
PERSONA_LETTERS = {"en": {"A": "A", "P": "P", "E": "E", "U": "U"}, "ru": {"A": "А", "P": "П", "E": "Э", "U": "У"}}
#: The house-deck note of each language: the deck is ours, not the printed one.
HOUSE_NOTE = {
    "en": "this deck is our own balanced design, not the printed one",
    "ru": "колода здесь наша собственная, сбалансированная, а не печатная",
}


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


def deck_lines(locale: str) -> list[str]:
    """Return the rules' deck table built from the engine's own deck: ``Guild: P5, E5, …, U9×2, …``."""
    letters = PERSONA_LETTERS[locale]
    lines = []
    for guild in GUILD_ORDER:
        cards = sorted((c for c, info in CARDS.items() if info.guild is guild), key=sort_key)
        items = [f"{letters[c[0]]}{CARDS[c].value}" + ("×2" if CARDS[c].symbols == 2 else "") for c in cards]
        lines.append(f"{translate(locale, f'masti.guild.{guild.value}')}: {', '.join(items)}")
    return lines


async def test_the_commands_carry_their_russian_names(world):
    alice = world.member("alice", locale="ru")

    root = world.env.backend.find_command("masti", None)

    assert root is not None and root["name_localizations"]["ru"] == "масти"
    subcommands = {o["name"]: o for o in root["options"]}
    assert {name: o["name_localizations"]["ru"] for name, o in subcommands.items()} == {
        "new": "новая",
        "rules": "правила",
    }
    options = {o["name"]: o for o in subcommands["new"]["options"]}
    assert {name: (o["type"], o["name_localizations"]["ru"]) for name, o in options.items()} == {
        "clock": (4, "часы"),
        "teams": (5, "команды"),
        "language": (3, "язык"),
    }
    assert not any(o.get("required") for o in options.values())
    assert options["teams"]["description_localizations"]["ru"] == translate("ru", "cmd.masti.teams_description")
    assert {"masti new", "masti rules"} <= set(alice.available_commands(world.channel))


@pytest.mark.parametrize("teams", [False, True])
async def test_new_opens_a_public_lobby_showing_its_options(world, teams):
    alice = world.member("alice")

    result = await alice.slash(world.channel, "masti new", clock=45, teams=teams)

    assert result.response is not None and not result.ephemeral
    (embed,) = result.response.embeds
    assert embed.title == en("ui.lobby.title", game="Suits of Power", id=1)
    assert embed.fields[0].name == en("ui.lobby.seats", n=1, max=6)
    options = [en("ui.lobby.clock", seconds=45)] + ([en("masti.option.teams")] if teams else [])
    assert embed.fields[1].value == "\n".join(options)
    assert component_ids(result.response.components) == [*(f"lobby:1:{verb}" for verb in LOBBY_VERBS), "tbl:1:rules"]
    row = await world.bot.storage.get_table(1)
    assert row is not None and row.game == "masti" and row.status == "lobby" and row.host_id == alice.id
    assert row.options == {"clock": 45, "game": {"teams": teams}, **FLOW}
    assert row.lobby_message_id == result.response.id


async def test_new_without_options_takes_the_defaults(world):
    alice = world.member("alice")

    table_id = await world.new_table(alice, game="masti")

    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.options == {
        "clock": 60,
        "game": {"teams": False},
        **FLOW,
    }  # the server's default clock
    assert "masti.option" not in embed_text(world.lobby(table_id).embeds)  # never a raw catalogue key


@pytest.mark.parametrize("clock", [14, 3601])
@pytest.mark.parametrize("locale", ["en-US", "ru"])
async def test_a_clock_out_of_range_is_refused_privately(world, clock, locale):
    alice = world.member("alice", locale=locale)

    result = await alice.slash(world.channel, "masti new", clock=clock, teams=True)

    assert result.ephemeral
    name = "часы" if locale == "ru" else "clock"  # the option as the user's client names it
    assert private_text(result) == translate(locale, "ui.error.option_range", name=name, min=15, max=3600)
    assert [e.code for e in world.rejections()] == ["ui.error.option_range"]
    assert await world.bot.storage.tables_for_guild(world.guild.id) == []


async def test_a_lobby_in_a_russian_server_is_in_russian_whoever_opens_it(make_world):
    world = make_world("ru")
    alice = world.member("alice", locale="en-US")

    table_id = await world.new_table(alice, game="masti", clock=45, teams=True)

    (embed,) = world.lobby(table_id).embeds
    assert embed.title == "Масти Власти — стол №1"
    assert embed.fields[1].value == translate("ru", "ui.lobby.clock", seconds=45) + "\nКомандная игра вчетвером (2 × 2)"


async def test_a_table_seats_three_to_six(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob, start=False, game="masti", teams=True)
    before = await world.db_snapshot(table_id)

    too_few = await world.lobby_click(alice, table_id, "start")

    assert private_text(too_few) == en("table.seat_count", min=3, max=6, have=2)
    assert await world.db_snapshot(table_id) == before
    for _ in range(4):
        await world.lobby_click(alice, table_id, "addai")
    too_many = await world.lobby_click(world.member("carol"), table_id, "join")
    assert private_text(too_many) == en("table.full", max=6)
    assert en("ui.lobby.seats", n=6, max=6) in embed_text(world.lobby(table_id).embeds)


@pytest.mark.parametrize(("locale", "title"), [("en-US", "Suits of Power"), ("ru", "Масти Власти")])
async def test_rules_come_privately_with_the_house_deck(make_world, locale, title):
    world = make_world("ru" if locale == "en-US" else "en-US")  # the server's language does not matter
    reader = world.member("reader", locale=locale)
    lang = locale.split("-")[0]

    result = await reader.slash(world.channel, "masti rules")

    assert result.ephemeral and result.response is not None
    (embed,) = result.response.embeds
    assert embed.title == title
    assert [f.name for f in embed.fields] == [translate(lang, f"masti.rules.{k}.title") for k in RULE_SECTIONS]
    texts = {key: field.value or "" for key, field in zip(RULE_SECTIONS, embed.fields, strict=True)}
    ids = world.bot.command_ids  # the commands the rules name are clickable mentions
    full = {key: fill_commands(translate(lang, f"masti.rules.{key}.text"), lang, ids) for key in RULE_SECTIONS}
    assert texts == full  # none cut short
    assert len(embed) <= 6000
    deck = texts["deck"]
    assert HOUSE_NOTE[lang] in deck.replace("\n", " ")
    assert deck_lines(lang) == [line for line in deck.splitlines() if ":" in line and "×2" in line]
    assert "Traceback" not in deck and "masti.rules" not in embed_text([embed])


async def test_the_boards_rules_button_answers_in_the_clickers_language(world):
    alice = world.member("alice")
    table_id = await world.seat(alice, ais=2, game="masti")
    ivan = world.member("ivan", locale="ru")

    # The board's utility row gives Rules' place to Full board; its private reply carries Rules.
    full = await world.table_button(ivan, table_id, "full")
    assert full.response is not None
    result = await ivan.click(full.response, custom_id=f"tbl:{table_id}:rules")

    assert result.ephemeral and result.response is not None
    (embed,) = result.response.embeds
    assert embed.title == "Масти Власти"
    assert embed.fields[-2].name == translate("ru", "masti.rules.deck.title")
