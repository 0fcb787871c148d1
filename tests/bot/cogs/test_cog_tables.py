"""/leaderboard and /stats: OpenSkill ratings of rated games, AI seats never rated."""

from __future__ import annotations

from typing import Any

import pytest
from simcord.actors import MemberActor

from bot.i18n import translate
from bot.ratings import DEFAULT_MU, DEFAULT_SIGMA, display_rating, ordinal, rate_result
from games.registry import ENGINES
from tests.support import World, embed_text

pytestmark = pytest.mark.asyncio


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


async def resign(world: World, member: MemberActor, table_id: int) -> None:
    confirm = await world.table_button(member, table_id, "resign")
    assert confirm.response is not None
    await member.click(confirm.response, custom_id=f"tbl:{table_id}:resign_yes")


async def rated_game(world: World) -> tuple[MemberActor, MemberActor]:
    """alice, bob and an AI: bob resigns, then alice; the AI wins, alice is second, bob third."""
    alice, bob = world.members("alice", "bob")
    world.rig(first_seat=0)
    table_id = await world.seat(alice, bob, ais=1)
    await resign(world, bob, table_id)
    await resign(world, alice, table_id)
    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.status == "finished"
    return alice, bob


async def test_an_empty_leaderboard(world):
    alice = world.member("alice")

    result = await alice.slash(world.channel, "leaderboard", game="coup")

    assert not result.ephemeral and result.response is not None
    (embed,) = result.response.embeds
    assert embed.title == en("ui.leaderboard.title", game="Coup")
    assert embed.description == en("ui.leaderboard.empty")


async def test_the_leaderboard_ranks_humans_by_openskill_and_leaves_the_ai_out(world):
    alice, bob = await rated_game(world)
    carol = world.member("carol")

    result = await carol.slash(world.channel, "leaderboard", game="coup")

    assert not result.ephemeral and result.response is not None
    expected = rate_result({}, [(alice.id, 0), (bob.id, 1)])  # the AI drops out of the ranking
    lines = (result.response.embeds[0].description or "").splitlines()
    assert lines == [
        en(
            "ui.leaderboard.line",
            place=1,
            name=alice.mention,
            rating=display_rating(*expected[alice.id]),
            games=1,
            wins=0,
        ),
        en(
            "ui.leaderboard.line",
            place=2,
            name=bob.mention,
            rating=display_rating(*expected[bob.id]),
            games=1,
            wins=0,
        ),
    ]
    assert expected[alice.id].ordinal > ordinal(DEFAULT_MU, DEFAULT_SIGMA) > expected[bob.id].ordinal
    (call,) = [r for r in world.env.http_requests if r.path.endswith("/callback") and r.json["type"] == 4][-1:]
    assert call.json["data"]["allowed_mentions"] == {"parse": []}  # a leaderboard pings nobody


async def test_stats_are_private_and_count_games_and_wins(world):
    alice, bob = await rated_game(world)

    mine = await alice.slash(world.channel, "stats")
    bobs = await alice.slash(world.channel, "stats", member=bob)

    assert mine.ephemeral and mine.response is not None
    rating = rate_result({}, [(alice.id, 0), (bob.id, 1)])
    assert mine.response.embeds[0].title == en("ui.stats.title", name="alice")
    assert mine.response.embeds[0].description == en(
        "ui.stats.line", game="Coup", rating=display_rating(*rating[alice.id]), games=1, wins=0
    )
    assert bobs.response is not None and bobs.response.embeds[0].title == en("ui.stats.title", name="bob")


async def test_stats_in_russian_use_russian_plurals(world):
    alice, _bob = await rated_game(world)
    ivan = world.member("ivan", locale="ru")

    result = await ivan.slash(world.channel, "stats", member=alice)
    nobody = await ivan.slash(world.channel, "stats")

    assert result.response is not None
    assert "1 партия, 0 побед" in embed_text(result.response.embeds)
    assert nobody.response is not None
    assert nobody.response.embeds[0].description == translate("ru", "ui.stats.empty", name="ivan")


async def test_a_game_with_one_human_is_unrated(world):
    alice = world.member("alice")
    world.rig(first_seat=0)
    table_id = await world.seat(alice, ais=1)

    await resign(world, alice, table_id)

    result = world.thread_messages(table_id)[-1]
    assert result.embeds[0].footer.text == en("ui.result.unrated")
    assert await world.bot.storage.leaderboard(world.guild.id, "coup") == []


def synced_choices(world: World, command: str) -> list[dict[str, Any]]:
    """Return the game choices of ``command`` as the bot last synced them to Discord."""
    (sync,) = [r for r in world.env.http_requests if r.method == "PUT" and r.path.endswith("/commands")][-1:]
    (payload,) = [c for c in sync.json or [] if c["name"] == command]
    (option,) = [o for o in payload["options"] if o["name"] == "game"]
    choices: list[dict[str, Any]] = option["choices"]
    return choices


@pytest.mark.parametrize("command", ["leaderboard", "stats", "history"])
async def test_the_game_choices_carry_the_games_names_in_each_language(world, command):
    choices = synced_choices(world, command)

    assert [c["value"] for c in choices] == list(ENGINES)
    assert [c["name"] for c in choices] == [translate("en", f"{game}.name") for game in ENGINES]
    assert [c["name_localizations"]["ru"] for c in choices] == [translate("ru", f"{game}.name") for game in ENGINES]


async def test_the_display_scale_starts_newcomers_at_1000_and_keeps_a_first_loss_positive(world):
    _alice, bob = await rated_game(world)
    carol = world.member("carol")

    result = await carol.slash(world.channel, "leaderboard", game="coup")

    bobs = rate_result({}, [(_alice.id, 0), (bob.id, 1)])[bob.id]
    assert bobs.ordinal < 0 < display_rating(*bobs) < 1000  # the raw ordinal went negative; the display did not
    assert result.response is not None
    assert f"— {display_rating(*bobs)} (" in (result.response.embeds[0].description or "")
    assert display_rating(DEFAULT_MU, DEFAULT_SIGMA) == 1000


async def test_stats_list_the_members_recent_games_with_place_rating_change_date_and_link(world):
    alice, bob = await rated_game(world)
    first = (await world.bot.storage.finished_tables(world.guild.id, user_id=alice.id))[0]
    world.rig(first_seat=0)
    solo = await world.seat(alice, ais=1)  # one human: unrated
    await resign(world, alice, solo)
    second = await world.bot.storage.get_table(solo)
    assert second is not None and second.finished_at is not None and first.finished_at is not None

    result = await alice.slash(world.channel, "stats")

    assert result.response is not None
    (recent,) = [f for f in result.response.embeds[0].fields if f.name == en("help.stats.recent")]
    change = rate_result({}, [(alice.id, 0), (bob.id, 1)])[alice.id]
    delta = display_rating(*change) - 1000
    assert (recent.value or "").splitlines() == [
        en(
            "help.stats.recent_line",
            when=f"<t:{int(second.finished_at)}:d>",
            game="Coup",
            place=en("help.stats.place", place=2, n=2),
            rating=en("help.stats.unrated"),
            link=f"[#{solo}](https://discord.com/channels/{world.guild.id}/{second.thread_id})",
        ),
        en(
            "help.stats.recent_line",
            when=f"<t:{int(first.finished_at)}:d>",
            game="Coup",
            place=en("help.stats.place", place=2, n=3),
            rating=en("help.stats.change", delta=f"{delta:+d}"),
            link=f"[#{first.id}](https://discord.com/channels/{world.guild.id}/{first.thread_id})",
        ),
    ]
    assert delta > 0  # second of three behind an unrated AI: above bob, so up


async def test_stats_of_someone_else_in_russian_show_their_recent_games_in_russian(world):
    alice, _bob = await rated_game(world)
    ivan = world.member("ivan", locale="ru")

    result = await ivan.slash(world.channel, "stats", member=alice)

    assert result.response is not None
    (recent,) = [f for f in result.response.embeds[0].fields if f.name == "Последние партии"]
    assert "Переворот · 2-е место из 3 · рейтинг +" in (recent.value or "")


async def test_stats_of_one_game_leave_the_other_games_out(world):
    alice, _bob = await rated_game(world)

    coup = await alice.slash(world.channel, "stats", game="coup")
    masti = await alice.slash(world.channel, "stats", game="masti")

    assert coup.response is not None and masti.response is not None
    assert [f.name for f in coup.response.embeds[0].fields] == [en("help.stats.recent")]
    assert masti.response.embeds[0].description == en("ui.stats.empty", name="alice")
    assert masti.response.embeds[0].fields == []
