"""The /intrigue command group (/интриги): new with its options, rules with our house data, pay in a game thread."""

from __future__ import annotations

import pytest

from bot.cogs.intrigue import game_table_in
from bot.i18n import translate
from bot.presenters.intrigue import RULE_SECTIONS
from bot.tables import TableError
from games.intrigue.data import CHARACTERS, LANDS
from tests.support import component_ids, embed_text, private_text

pytestmark = pytest.mark.asyncio
#: What every new lobby's options hold from the server's settings (here: the defaults).
FLOW = {"reaction_clock": 15, "reminders": True, "archive_minutes": 60}

LOBBY_VERBS = ["join", "leave", "addai", "removeai", "start", "cancel"]
HOUSE_NOTE = {"en": "our own design", "ru": "наши собственные"}


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


async def test_the_commands_carry_their_russian_names(world):
    alice = world.member("alice", locale="ru")

    root = world.env.backend.find_command("intrigue", None)

    assert root is not None and root["name_localizations"]["ru"] == "интриги"
    subcommands = {o["name"]: o for o in root["options"]}
    assert {name: o["name_localizations"]["ru"] for name, o in subcommands.items()} == {
        "new": "новая",
        "rules": "правила",
        "pay": "заплатить",
    }
    new = {o["name"]: o for o in subcommands["new"]["options"]}
    assert {name: (o["type"], o["name_localizations"]["ru"]) for name, o in new.items()} == {
        "clock": (4, "часы"),
        "random_lands": (5, "случайные_земли"),
        "turns": (4, "ходы"),
        "language": (3, "язык"),
        "reaction_clock": (4, "часы_реакции"),
    }
    assert not any(o.get("required") for o in new.values())
    pay = {o["name"]: o for o in subcommands["pay"]["options"]}
    assert {name: (o["type"], o["name_localizations"]["ru"], o.get("required")) for name, o in pay.items()} == {
        "member": (6, "игрок", True),
        "amount": (4, "сумма", True),
    }
    assert {"intrigue new", "intrigue rules", "intrigue pay"} <= set(alice.available_commands(world.channel))


async def test_new_opens_a_public_lobby_showing_its_options(world):
    alice = world.member("alice")

    result = await alice.slash(world.channel, "intrigue new", clock=45, random_lands=True, turns=12)

    assert result.response is not None and not result.ephemeral
    (embed,) = result.response.embeds
    assert embed.title == en("ui.lobby.title", game="Intrigue", id=1)
    assert embed.fields[0].name == en("ui.lobby.seats", n=1, max=8)
    assert embed.fields[1].value == "\n".join(
        [en("ui.lobby.clock", seconds=45), en("intrigue.option.lands"), en("intrigue.option.max_turns", value=12)]
    )
    assert component_ids(result.response.components) == [*(f"lobby:1:{verb}" for verb in LOBBY_VERBS), "tbl:1:rules"]
    row = await world.bot.storage.get_table(1)
    assert row is not None and row.game == "intrigue" and row.status == "lobby"
    assert row.options == {"clock": 45, "game": {"max_turns": 12, "lands": "random"}, **FLOW}


async def test_new_without_options_takes_the_defaults(world):
    alice = world.member("alice")

    table_id = await world.new_table(alice, game="intrigue")

    row = await world.bot.storage.get_table(table_id)
    # No clock named: each decision keeps the rules' own clock (§3.6); the setting is the fallback.
    assert row is not None and row.options == {
        "clock": 60,
        "clock_by_decision": True,
        "game": {},  # the turn limit too: the engine takes it from the land count
        **FLOW,
    }
    text = embed_text(world.lobby(table_id).embeds)
    assert en("ui.lobby.clock_by_decision") in text and en("ui.lobby.clock", seconds=60) not in text
    assert "intrigue.option" not in text and en("intrigue.option.lands") not in text


@pytest.mark.parametrize(
    ("options", "name", "low", "high"),
    [({"clock": 14}, "clock", 15, 3600), ({"clock": 3601}, "clock", 15, 3600), ({"turns": 3}, "turns", 4, 20)],
)
@pytest.mark.parametrize("locale", ["en-US", "ru"])
async def test_options_out_of_range_are_refused_privately(world, options, name, low, high, locale):
    alice = world.member("alice", locale=locale)

    result = await alice.slash(world.channel, "intrigue new", **options)

    assert result.ephemeral
    shown = translate(locale, f"cmd.intrigue.{'clock' if name == 'clock' else 'max_turns'}_name")
    assert private_text(result) == translate(locale, "ui.error.option_range", name=shown, min=low, max=high)
    assert [e.code for e in world.rejections()] == ["ui.error.option_range"]
    assert await world.bot.storage.tables_for_guild(world.guild.id) == []


async def test_a_lobby_in_a_russian_server_is_in_russian(make_world):
    world = make_world("ru")
    alice = world.member("alice", locale="en-US")

    table_id = await world.new_table(alice, game="intrigue", turns=6)

    (embed,) = world.lobby(table_id).embeds
    assert embed.title == "Интриги — стол №1"
    assert embed.fields[1].value == translate("ru", "ui.lobby.clock_by_decision") + "\nЛимит ходов: 6"


async def test_a_table_seats_two_to_eight(world):
    alice = world.member("alice")
    table_id = await world.seat(alice, start=False, game="intrigue")
    before = await world.db_snapshot(table_id)

    alone = await world.lobby_click(alice, table_id, "start")

    assert private_text(alone) == en("table.seat_count", min=2, max=8, have=1)
    assert await world.db_snapshot(table_id) == before
    for _ in range(7):
        await world.lobby_click(alice, table_id, "addai")
    full = await world.lobby_click(world.member("carol"), table_id, "join")
    assert private_text(full) == en("table.full", max=8)
    started = await world.lobby_click(alice, table_id, "start")
    assert not started.ephemeral
    state = world.state(table_id)
    assert len(state.lands) == 9  # 6–8 players play nine lands
    assert state.max_turns == 14  # and, with no limit named, 14 turns (our design, revision 8)


@pytest.mark.parametrize(("locale", "title"), [("en-US", "Intrigue"), ("ru", "Интриги")])
async def test_rules_come_privately_with_our_lands_characters_and_traits(make_world, locale, title):
    world = make_world("ru" if locale == "en-US" else "en-US")  # the server's language does not matter
    reader = world.member("reader", locale=locale)
    lang = locale.split("-")[0]

    result = await reader.slash(world.channel, "intrigue rules")

    assert result.ephemeral and result.response is not None
    (embed,) = result.response.embeds
    assert embed.title == title
    assert [f.name for f in embed.fields] == [translate(lang, f"intrigue.rules.{k}.title") for k in RULE_SECTIONS]
    assert len(embed) <= 6000
    texts = {key: field.value or "" for key, field in zip(RULE_SECTIONS, embed.fields, strict=True)}
    assert HOUSE_NOTE[lang] in texts["house"]
    assert all(len(text) <= 1024 for text in texts.values())
    for land in LANDS.values():
        assert (land.ru if lang == "ru" else land.en) in texts["lands"]
    for character in CHARACTERS.values():
        assert (character.ru if lang == "ru" else character.en) in texts["characters"]
    assert "intrigue.rules" not in embed_text([embed])


async def test_the_boards_rules_button_answers_in_the_clickers_language(world):
    alice = world.member("alice")
    table_id = await world.seat(alice, ais=1, game="intrigue")
    ivan = world.member("ivan", locale="ru")

    # The board's utility row gives Rules' place to Full board; its private reply carries Rules.
    full = await world.table_button(ivan, table_id, "full")
    assert full.response is not None
    result = await ivan.click(full.response, custom_id=f"tbl:{table_id}:rules")

    assert result.ephemeral and result.response is not None
    (embed,) = result.response.embeds
    assert embed.title == "Интриги"
    assert embed.fields[0].name == translate("ru", "intrigue.rules.house.title")


async def test_pay_finds_the_callers_own_game_among_tables_sharing_a_channel(world):
    alice, bob, carol, dave = world.members("alice", "bob", "carol", "dave")
    first = await world.seat(alice, bob, game="intrigue")
    second = await world.seat(carol, dave, game="intrigue")
    tables = list(world.service.tables.values())
    for table in tables:
        table.thread_id = 777  # as when no thread could be opened and both play in the channel

    assert game_table_in(tables, 777, carol.id).id == second
    assert game_table_in(tables, 777, alice.id).id == first
    with pytest.raises(TableError) as nobody:
        game_table_in(tables, 777, world.member("erin").id)
    assert nobody.value.code == "intrigue.not_seated"
    with pytest.raises(TableError) as elsewhere:
        game_table_in(tables, 778, alice.id)
    assert elsewhere.value.code == "intrigue.not_in_thread"
