"""/help and the Rules buttons: every game, clickable commands in the reader's language, rules privately."""

from __future__ import annotations

import pytest

from bot.i18n import translate
from bot.ui.commands import CommandIds
from bot.ui.panels import game_name
from games.registry import ENGINES
from tests.support import World, button_rows, component_ids, embed_text, private_text

pytestmark = pytest.mark.asyncio


async def synced_ids(world: World) -> dict[str, int]:
    """Return the ids Discord holds for the bot's commands (asked of Discord, not of the bot)."""
    return {command.name: command.id for command in await world.bot.tree.fetch_commands()}


async def test_help_lists_every_game_with_clickable_commands_and_rules_buttons(world):
    alice = world.member("alice")
    ids = await synced_ids(world)

    result = await alice.slash(world.channel, "help")

    assert result.ephemeral and result.response is not None
    (embed,) = result.response.embeds
    assert embed.title == translate("en", "help.title")
    fields = {f.name: f.value or "" for f in embed.fields}
    for game in ENGINES:
        text = fields[game_name(game, "en")]
        assert f"</{game} new:{ids[game]}>" in text and f"</{game} rules:{ids[game]}>" in text
    assert f"</cadwallon place:{ids['cadwallon']}>" in fields["Guilds of Cadwallon"]
    ratings = fields[translate("en", "help.ratings_title")]
    assert all(f"</{name}:{ids[name]}>" in ratings for name in ("leaderboard", "stats", "history"))
    assert "1000 + 20 × (μ − 3σ)" in ratings  # the help says what the rating number is
    settings = fields[translate("en", "help.settings_title")]
    assert f"</language:{ids['language']}>" in settings and f"</settings show:{ids['settings']}>" in settings
    assert "{" not in embed_text([embed])
    assert component_ids(result.response.components) == [f"rules:{game}" for game in ENGINES]


async def test_help_in_russian_names_the_russian_commands_beside_the_mentions(world):
    ivan = world.member("ivan", locale="ru")
    ids = await synced_ids(world)

    result = await ivan.slash(world.channel, "help")

    assert result.response is not None
    (embed,) = result.response.embeds
    assert embed.title == translate("ru", "help.title")
    fields = {f.name: f.value or "" for f in embed.fields}
    assert f"</coup new:{ids['coup']}> (/переворот новая)" in fields["Переворот"]
    assert f"</intrigue pay:{ids['intrigue']}> (/интриги заплатить)" in fields["Интриги"]
    assert f"</leaderboard:{ids['leaderboard']}> (/рейтинг)" in fields[translate("ru", "help.ratings_title")]
    labels = [c["label"] for row in result.response.components for c in row["components"]]
    assert labels == [translate("ru", "help.rules_button", game=game_name(game, "ru")) for game in ENGINES]


async def test_help_without_synced_ids_shows_the_plain_commands(world):
    alice = world.member("alice")
    world.bot.command_ids = CommandIds()  # as before the first sync

    result = await alice.slash(world.channel, "help")

    assert result.response is not None
    text = embed_text(result.response.embeds)
    assert "</" not in text
    assert "/coup new" in text and "/leaderboard" in text and "/cadwallon place" in text


async def test_a_rules_button_under_help_shows_that_games_rules_in_the_readers_language(world):
    ivan = world.member("ivan", locale="ru")
    ids = await synced_ids(world)
    answer = await ivan.slash(world.channel, "help")
    assert answer.response is not None

    result = await ivan.click(answer.response, custom_id="rules:coup")

    assert result.ephemeral and result.response is not None
    (embed,) = result.response.embeds
    assert embed.title == "Переворот"
    # The rules' own command mentions are filled in too, in the reader's language.
    assert f"</leaderboard:{ids['leaderboard']}> (/рейтинг)" in embed_text([embed])


async def test_every_lobby_has_a_rules_button_answering_privately_in_the_clickers_language(world):
    host = world.member("alice")
    ivan = world.member("ivan", locale="ru")
    table_id = await world.new_table(host, game="masti")
    lobby = world.lobby(table_id)
    assert f"tbl:{table_id}:rules" in component_ids(world.components(lobby))

    russian = await ivan.click(lobby, custom_id=f"tbl:{table_id}:rules")
    english = await host.click(lobby, custom_id=f"tbl:{table_id}:rules")

    assert russian.ephemeral and russian.response is not None
    assert russian.response.embeds[0].title == "Масти Власти"
    assert english.ephemeral and english.response is not None
    assert english.response.embeds[0].title == "Suits of Power"
    assert world.table(table_id).status == "lobby"  # reading the rules changes nothing


async def test_the_rules_button_stays_on_the_lobby_message_once_the_game_started(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob)

    assert f"tbl:{table_id}:rules" in component_ids(world.components(world.lobby(table_id)))


async def test_a_forged_rules_button_for_no_such_game_is_refused_privately(world):
    alice = world.member("alice")
    forged = await world.forge(world.channel, button_rows("rules:chess"))

    result = await alice.click(forged, custom_id="rules:chess")

    assert result.ephemeral
    assert private_text(result) == translate("en", "table.error")
