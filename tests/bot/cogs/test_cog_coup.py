"""The /coup command group: /coup new with its options, and /coup rules, in the user's language."""

from __future__ import annotations

import pytest

from bot.i18n import translate
from bot.presenters.coup import RULE_SECTIONS
from tests.support import embed_text, private_text

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("clock", [5, 14, 3601, 99999])
@pytest.mark.parametrize("locale", ["en-US", "ru"])
async def test_a_clock_out_of_range_is_refused_privately(world, clock, locale):
    alice = world.member("alice", locale=locale)

    result = await alice.slash(world.channel, "coup new", clock=clock)

    assert result.ephemeral
    name = "часы" if locale == "ru" else "clock"  # the option as the user's client names it
    expected = translate(locale, "ui.error.option_range", name=name, min=15, max=3600)
    assert private_text(result) == expected
    assert "Traceback" not in expected
    assert [e.code for e in world.rejections()] == ["ui.error.option_range"]
    assert await world.bot.storage.tables_for_guild(world.guild.id) == []
    assert world.service.tables == {}


async def test_the_russian_refusal_reads_naturally(world):
    ivan = world.member("ivan", locale="ru")

    result = await ivan.slash(world.channel, "coup new", clock=5)

    assert private_text(result) == "Значение «часы» должно быть от 15 до 3600."
    world.rejections()


@pytest.mark.parametrize("clock", [15, 3600])
async def test_the_clock_limits_are_accepted(world, clock):
    alice = world.member("alice")

    table_id = await world.new_table(alice, clock=clock)

    assert world.table(table_id).clock_seconds == clock


async def test_a_lobby_in_a_russian_server_is_in_russian_whoever_opens_it(make_world):
    world = make_world("ru")
    alice = world.member("alice", locale="en-US")

    table_id = await world.new_table(alice, clock=45)

    (embed,) = world.lobby(table_id).embeds
    assert embed.title == "Переворот — стол №1"
    assert translate("ru", "ui.lobby.clock", seconds=45) in embed_text([embed])
    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.locale == "ru"


@pytest.mark.parametrize(("locale", "title", "first"), [("en-US", "Coup", "Setup"), ("ru", "Переворот", "Подготовка")])
async def test_rules_come_privately_in_the_users_language(make_world, locale, title, first):
    world = make_world("ru" if locale == "en-US" else "en-US")  # the server's language does not matter
    reader = world.member("reader", locale=locale)

    result = await reader.slash(world.channel, "coup rules")

    assert result.ephemeral and result.response is not None
    (embed,) = result.response.embeds
    assert embed.title == title
    assert [f.name for f in embed.fields] == [translate(locale, f"coup.rules.{k}.title") for k in RULE_SECTIONS]
    assert embed.fields[0].name == first


async def test_the_boards_rules_button_answers_privately_in_the_users_language(world):
    alice, bob = world.members("alice", "bob")
    ivan = world.member("ivan", locale="ru")
    table_id = await world.seat(alice, bob)

    result = await world.table_button(ivan, table_id, "rules")

    assert result.ephemeral and result.response is not None
    assert result.response.embeds[0].title == "Переворот"
