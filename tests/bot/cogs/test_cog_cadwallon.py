"""The /cadwallon command group (/гильдии): new with its options, rules with the card tables, place by code."""

from __future__ import annotations

import discord
import pytest

from bot.cogs.cadwallon import pack_embeds, placing_table, rules_page_payload
from bot.i18n import translate
from bot.presenters.cadwallon import RULE_PAGES, CadwallonPresenter
from bot.tables import Seat, Table, TableError
from games.cadwallon.cards import CARDS
from games.cadwallon.engine import CadwallonEngine
from games.cadwallon.models import CadwallonOptions, PlaceAgent
from games.cadwallon.state import CadwallonState
from tests.support import component_ids, embed_text, private_text

LOBBY_VERBS = ["join", "leave", "addai", "removeai", "start", "cancel"]
PRESENTER = CadwallonPresenter()
#: What every new lobby's options hold from the server's settings (here: the defaults).
FLOW = {"reaction_clock": 15, "reminders": True, "archive_minutes": 60}


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


@pytest.mark.asyncio
async def test_the_commands_carry_their_russian_names(world):
    alice = world.member("alice", locale="ru")

    root = world.env.backend.find_command("cadwallon", None)

    assert root is not None and root["name_localizations"]["ru"] == "гильдии"
    subcommands = {o["name"]: o for o in root["options"]}
    assert {name: o["name_localizations"]["ru"] for name, o in subcommands.items()} == {
        "new": "новая",
        "rules": "правила",
        "place": "выставить",
    }
    options = {o["name"]: o for o in subcommands["new"]["options"]}
    assert {name: (o["type"], o["name_localizations"]["ru"]) for name, o in options.items()} == {
        "clock": (4, "часы"),
        "grid": (4, "сетка"),
        "conditions": (5, "условия"),
        "contracts": (5, "контракты"),
        "starting_action": (5, "стартовое_действие"),
        "expansion": (5, "дополнение"),
        "language": (3, "язык"),
    }
    assert [c["value"] for c in options["grid"]["choices"]] == [3, 4, 5]
    assert [c["name"] for c in options["grid"]["choices"]] == ["3×3", "4×4", "5×5"]
    assert not any(o.get("required") for o in options.values())
    (code,) = subcommands["place"]["options"]
    assert code["required"] and code["name_localizations"]["ru"] == "код"
    (part,) = subcommands["rules"]["options"]
    assert [c["value"] for c in part["choices"]] == ["all", *RULE_PAGES]
    assert part["choices"][0]["name_localizations"]["ru"] == "всё"
    assert {"cadwallon new", "cadwallon rules", "cadwallon place"} <= set(alice.available_commands(world.channel))


@pytest.mark.asyncio
async def test_new_opens_a_public_lobby_showing_its_options(world):
    alice = world.member("alice")

    result = await alice.slash(world.channel, "cadwallon new", clock=45, grid=5, conditions=True, starting_action=True)

    assert result.response is not None and not result.ephemeral
    (embed,) = result.response.embeds
    assert embed.title == en("ui.lobby.title", game="Guilds of Cadwallon", id=1)
    assert embed.fields[0].name == en("ui.lobby.seats", n=1, max=8)
    options = [  # stored options come back in key order
        en("ui.lobby.clock", seconds=45),
        en("cadwallon.option.conditions"),
        en("cadwallon.option.contracts"),
        en("cadwallon.option.grid", value=5),
        en("cadwallon.option.starting_action"),
    ]
    assert embed.fields[1].value == "\n".join(options)
    assert component_ids(result.response.components) == [*(f"lobby:1:{verb}" for verb in LOBBY_VERBS), "tbl:1:rules"]
    row = await world.bot.storage.get_table(1)
    assert row is not None and row.game == "cadwallon" and row.status == "lobby"
    assert row.options == {
        "clock": 45,
        "game": {
            "grid": 5,
            "conditions": True,
            "contracts": True,
            "starting_action": True,
            "expansion_actions_3x3": False,
        },
        **FLOW,
    }


@pytest.mark.asyncio
async def test_new_without_options_takes_the_defaults(world):
    alice = world.member("alice")

    table_id = await world.new_table(alice, game="cadwallon", expansion=True, contracts=False)

    row = await world.bot.storage.get_table(table_id)
    assert row is not None
    assert row.options == {
        "clock": 60,
        "game": {
            "grid": None,
            "conditions": False,
            "contracts": False,
            "starting_action": False,
            "expansion_actions_3x3": True,
        },
        **FLOW,
    }
    text = embed_text(world.lobby(table_id).embeds)
    assert en("cadwallon.option.expansion_actions_3x3") in text and "cadwallon.option" not in text


@pytest.mark.asyncio
async def test_the_expansion_option_is_dropped_on_a_large_grid(world):
    alice = world.member("alice")

    table_id = await world.new_table(alice, game="cadwallon", grid=4, expansion=True)

    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.options["game"]["expansion_actions_3x3"] is False


@pytest.mark.asyncio
@pytest.mark.parametrize("locale", ["en-US", "ru"])
async def test_a_clock_out_of_range_is_refused_privately(world, locale):
    alice = world.member("alice", locale=locale)

    result = await alice.slash(world.channel, "cadwallon new", clock=14)

    assert result.ephemeral
    name = "часы" if locale == "ru" else "clock"
    assert private_text(result) == translate(locale, "ui.error.option_range", name=name, min=15, max=3600)
    assert [e.code for e in world.rejections()] == ["ui.error.option_range"]
    assert await world.bot.storage.tables_for_guild(world.guild.id) == []


@pytest.mark.asyncio
async def test_a_3x3_table_seats_at_most_four_players(world):
    alice, bob = world.member("alice"), world.member("bob")
    table_id = await world.seat(alice, ais=3, start=False, game="cadwallon", grid=3)
    before = await world.db_snapshot(table_id)

    joined = await world.lobby_click(bob, table_id, "join")
    added = await world.lobby_click(alice, table_id, "addai")

    assert private_text(joined) == en("table.full", max=4)
    assert private_text(added) == en("table.full", max=4)
    assert await world.db_snapshot(table_id) == before
    assert "4" in (world.lobby(table_id).embeds[0].fields[0].name or "")


@pytest.mark.asyncio
async def test_a_lobby_in_a_russian_server_is_in_russian(make_world):
    world = make_world("ru")
    alice = world.member("alice", locale="en-US")

    table_id = await world.new_table(alice, game="cadwallon", grid=3)

    (embed,) = world.lobby(table_id).embeds
    assert embed.title == "Гильдии Кадвалона — стол №1"
    assert "Сетка 3×3" in (embed.fields[1].value or "")


@pytest.mark.asyncio
@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("ru", "ru")])
async def test_rules_come_privately_with_every_card_table(world, locale, lang):
    reader = world.member("reader", locale=locale)

    result = await reader.slash(world.channel, "cadwallon rules")

    messages = [m for m in [result.response, *result.followups] if m is not None]
    assert messages and all(m.ephemeral for m in messages)
    embeds = [embed for m in messages for embed in m.embeds]
    assert [e.title for e in embeds] == [translate(lang, f"cadwallon.page.{page}") for page in RULE_PAGES]
    assert len(messages) < len(RULE_PAGES)  # pages share messages while they fit
    for message in messages:
        assert sum(len(e) for e in message.embeds) <= 6000
    text = embed_text(embeds)
    for card in CARDS:  # every district card's name is in the tables
        info = CARDS[card]
        if info.category.value == "action":
            assert translate(lang, f"cadwallon.action.{card}") in text
            assert translate(lang, f"cadwallon.action_text.{card}") in text
        elif info.category.value == "militia":
            assert translate(lang, f"cadwallon.militia.{card}") in text
    for k in range(1, 21):
        assert translate(lang, f"cadwallon.contract_text.K{k:02d}") in text
    for c in range(1, 13):
        assert translate(lang, f"cadwallon.condition_text.C{c:02d}") in text
    assert {"en": "house card", "ru": "домашн"}[lang] in text
    assert "cadwallon." not in text and "{" not in text


@pytest.mark.asyncio
async def test_one_part_of_the_rules(world):
    reader = world.member("reader")

    result = await reader.slash(world.channel, "cadwallon rules", part="actions")

    assert result.ephemeral and result.response is not None and not result.followups
    (embed,) = result.response.embeds
    assert embed.title == en("cadwallon.page.actions")
    assert [f.name for f in embed.fields] == [t for t, _ in PRESENTER.rule_page("actions", "en")]


@pytest.mark.asyncio
async def test_the_boards_rules_button_shows_the_main_rules(world):
    alice = world.member("alice")
    table_id = await world.seat(alice, ais=1, game="cadwallon")
    ivan = world.member("ivan", locale="ru")

    # The board's row gave Rules' place to Full board, whose private answer carries it.
    full = await world.table_button(ivan, table_id, "full")
    assert full.ephemeral and full.response is not None
    result = await ivan.click(full.response, custom_id=f"tbl:{table_id}:rules")

    assert result.ephemeral and result.response is not None
    (embed,) = result.response.embeds
    assert embed.title == "Гильдии Кадвалона"
    assert [f.name for f in embed.fields] == [t for t, _ in PRESENTER.rules("ru")]
    assert "/гильдии правила" in embed_text([embed])


@pytest.mark.asyncio
async def test_place_without_a_game_is_refused(world):
    alice = world.member("alice")

    result = await alice.slash(world.channel, "cadwallon place", code="B2E")

    assert private_text(result) == en("cadwallon.place.no_table")
    assert [e.code for e in world.rejections()] == ["cadwallon.place.no_table"]


@pytest.mark.asyncio
async def test_place_from_the_channel_finds_the_one_table_waiting_for_the_user(world):
    alice = world.member("alice")
    world.rig(seed="place", game_options={"first_seat": 0})
    table_id = await world.seat(alice, ais=1, game="cadwallon", grid=3)

    result = await alice.slash(world.channel, "cadwallon place", code="A1-A2")

    assert result.ephemeral and result.response is not None, private_text(result)
    state = world.state(table_id)
    assert isinstance(state, CadwallonState)
    assert any(a.owner == 0 and a.boulevard == 0 for a in state.agents) or state.round > 1
    (embed,) = result.response.embeds
    assert embed.title == en("ui.panel.title", game="Guilds of Cadwallon")
    # The command's answer is a panel like any other: it follows the game from now on.
    assert world.table(table_id).status == "active"
    assert alice.id in world.bot.publisher._panels.get(table_id, {})


@pytest.mark.asyncio
async def test_place_autocompletes_the_free_boulevards_only_for_the_player_awaited(world):
    alice, bob = world.members("alice", "bob")
    world.rig(seed="place", game_options={"first_seat": 0})
    table_id = await world.seat(alice, ais=1, game="cadwallon", grid=3)

    offered = await alice.autocomplete(world.channel, "cadwallon place", "code", "")
    state = world.state(table_id)
    assert isinstance(state, CadwallonState)
    free = {a.boulevard for a in CadwallonEngine().legal_actions(state, 0) if isinstance(a, PlaceAgent)}
    assert len(offered) == len(free) == 12
    assert {choice["value"] for choice in offered} == free
    assert offered[0]["name"].startswith("A1│A2 · ")
    narrowed = await alice.autocomplete(world.channel, "cadwallon place", "code", "в2")
    assert {choice["value"] for choice in narrowed} == {"B2E", "B2S", "B1E", "A2S"}
    assert await bob.autocomplete(world.channel, "cadwallon place", "code", "") == []  # not seated

    result = await alice.slash(world.channel, "cadwallon place", code=narrowed[0]["value"])
    assert result.ephemeral and result.response is not None, private_text(result)


# ---------------------------------------------------------------------- helpers, without Discord
def _table(table_id: int, user_id: int, channel: int, thread: int, *, waiting: bool) -> Table:
    state = CadwallonEngine().setup(2, CadwallonOptions(grid=3, first_seat=0 if waiting else 1), "s").state
    table = Table(
        id=table_id,
        guild_id=1,
        channel_id=channel,
        game="cadwallon",
        host_id=user_id,
        status="active",
        options={},
        seed="s",
        locale="en",
        thread_id=thread,
        state=state,
    )
    table.seats = [
        Seat(seat=0, user_id=user_id, name="a", is_ai=False),
        Seat(seat=1, user_id=None, name="b", is_ai=True),
    ]
    return table


def test_placing_table_prefers_this_thread_then_the_one_waiting():
    here = _table(1, 7, channel=10, thread=11, waiting=False)
    waiting = _table(2, 7, channel=10, thread=12, waiting=True)
    other = _table(3, 7, channel=10, thread=13, waiting=False)
    assert placing_table([here, waiting, other], 7, 11) is here
    assert placing_table([here, waiting, other], 7, 10) is waiting  # the channel holds all three
    assert placing_table([here, waiting, other], 7, 99) is waiting
    with pytest.raises(TableError, match="no_table"):
        placing_table([here, other], 7, 99)
    with pytest.raises(TableError, match="no_table"):
        placing_table([waiting, _table(4, 7, channel=20, thread=21, waiting=True)], 7, 99)
    with pytest.raises(TableError, match="no_table"):
        placing_table([waiting], 8, 12)  # not seated there


def test_pack_embeds_keeps_messages_within_discords_limits():
    big = [discord.Embed(title="x", description="y" * 2500) for _ in range(5)]
    packed = pack_embeds(big)
    assert [len(m) for m in packed] == [2, 2, 1]
    small = [discord.Embed(title=str(i)) for i in range(23)]
    assert [len(m) for m in pack_embeds(small)] == [10, 10, 3]
    for page in RULE_PAGES:
        for locale in ("ru", "en"):
            embed = rules_page_payload(page, locale).embed
            assert len(embed) <= 6000 and all(len(f.value or "") <= 1024 for f in embed.fields)
