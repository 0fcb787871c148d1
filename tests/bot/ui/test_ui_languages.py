"""Which language a table speaks in public, and which a member reads privately.

Public: the table's ``language`` option, the server's setting, the server's locale only where the
server is a Community server (others always report en-US), the opener's client language if we have
a catalogue for it, then DEFAULT_LOCALE (Russian here, the Settings default). Private: the member's
choice (/language), their client's language if we have a catalogue, else English.
"""

from __future__ import annotations

import pytest

from bot.i18n import translate
from tests.support import embed_text, private_text

pytestmark = pytest.mark.asyncio

GAME_NAMES = {"ru": "Переворот", "en": "Coup"}


async def assert_public_language(world, table_id: int, locale: str) -> None:
    """The lobby, the thread's name and the board of a started table are all in ``locale``."""
    game = GAME_NAMES[locale]
    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.locale == locale
    assert world.lobby(table_id).embeds[0].title == translate(locale, "ui.lobby.title", game=game, id=table_id)
    assert world.thread(table_id).name == translate(locale, "ui.board.thread_name", game=game, id=table_id)
    board = embed_text(world.board(table_id).embeds)
    other = "en" if locale == "ru" else "ru"
    assert GAME_NAMES[locale] in board and GAME_NAMES[other] not in board


@pytest.mark.parametrize("client", ["ru", "de"])
async def test_a_non_community_server_reporting_en_us_speaks_russian_by_default(make_world, client):
    """The typical friends' server: Discord says en-US, DEFAULT_LOCALE=ru, nobody asked for English."""
    world = make_world("en-US")
    assert world.bot.settings.default_locale == "ru"
    host = world.member("host", locale=client)  # ru: their own language; de: no catalogue → the default
    guest = world.member("guest")

    table_id = await world.seat(host, guest)

    await assert_public_language(world, table_id, "ru")


async def test_an_english_opener_in_a_non_community_server_gets_english(make_world):
    world = make_world("en-US")
    host, guest = world.member("host", locale="en-GB"), world.member("guest", locale="ru")

    table_id = await world.seat(host, guest)

    await assert_public_language(world, table_id, "en")


async def test_a_community_server_reporting_en_us_gets_english(make_world):
    world = make_world("en-US", community=True)
    host, guest = world.member("host", locale="ru"), world.member("guest", locale="ru")

    table_id = await world.seat(host, guest)

    await assert_public_language(world, table_id, "en")


async def test_table_option_beats_server_setting_beats_community_locale(make_world):
    world = make_world("ru")  # a Community server that chose Russian in Discord
    moderator = world.member("mod", locale="ru", moderator=True)

    community = await world.new_table(moderator)
    await moderator.slash(world.channel, "settings language", value="en")
    server = await world.new_table(moderator)
    table = await world.new_table(moderator, game="masti", language="ru")

    assert [(await world.bot.storage.get_table(t)).locale for t in (community, server, table)] == ["ru", "en", "ru"]
    assert world.lobby(server).embeds[0].title == translate("en", "ui.lobby.title", game="Coup", id=server)
    assert world.lobby(table).embeds[0].title.startswith("Масти Власти")


async def test_the_language_option_beats_the_openers_client(make_world):
    world = make_world("en-US")
    host, guest = world.member("host", locale="ru"), world.member("guest")

    table_id = await world.seat(host, guest, language="en")

    await assert_public_language(world, table_id, "en")


async def test_a_rematch_keeps_its_tables_language(make_world):
    world = make_world("en-US")
    host, guest = world.member("host", locale="ru"), world.member("guest")
    table_id = await world.seat(host, guest, ais=0, language="en")
    await world.play_out(table_id, [host, guest])

    result = await world.table_button(guest, table_id, "rematch")  # guest's client would say English anyway

    assert result.ephemeral
    rematch = max(world.service.tables)
    assert (await world.bot.storage.get_table(rematch)).locale == "en"


async def test_a_ukrainian_client_reads_english_unless_they_choose_russian(world):
    reader = world.member("reader", locale="uk")

    assert (await reader.slash(world.channel, "coup rules")).response.embeds[0].title == "Coup"

    chosen = await reader.slash(world.channel, "language", choice="ru")

    assert chosen.ephemeral and private_text(chosen) == translate("ru", "guild.language.chosen")
    assert await world.bot.storage.member_locales() == {reader.id: "ru"}
    assert (await reader.slash(world.channel, "coup rules")).response.embeds[0].title == "Переворот"
    refused = await reader.slash(world.channel, "coup new", clock=5)  # errors follow the choice too
    assert private_text(refused) == translate("ru", "ui.error.option_range", name="часы", min=15, max=3600)
    assert [e.code for e in world.rejections()] == ["ui.error.option_range"]

    back = await reader.slash(world.channel, "language", choice="discord")

    assert private_text(back) == translate("en", "guild.language.follow", language="English")
    assert await world.bot.storage.member_locales() == {}
    assert (await reader.slash(world.channel, "coup rules")).response.embeds[0].title == "Coup"


async def test_a_chosen_language_survives_a_restart_and_reaches_the_private_panel(world):
    alice = world.member("alice")  # an en-US client
    bob = world.member("bob")
    await alice.slash(world.channel, "language", choice="ru")
    table_id = await world.seat(alice, bob)

    await world.restart()
    panel = await world.open_panel(alice, table_id)
    other = await world.open_panel(bob, table_id)

    assert len(world.bot.languages) == 1
    assert panel.ephemeral and "Переворот" in embed_text(panel.response.embeds)
    assert "Coup" in embed_text(other.response.embeds)
