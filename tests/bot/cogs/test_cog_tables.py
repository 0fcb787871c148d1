"""/leaderboard and /stats: OpenSkill ratings of rated games, AI seats never rated."""

from __future__ import annotations

import pytest
from simcord.actors import MemberActor

from bot.i18n import translate
from bot.ratings import DEFAULT_MU, DEFAULT_SIGMA, ordinal, rate_result
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
            rating=f"{expected[alice.id].ordinal:.1f}",
            games=1,
            wins=0,
        ),
        en(
            "ui.leaderboard.line",
            place=2,
            name=bob.mention,
            rating=f"{expected[bob.id].ordinal:.1f}",
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
        "ui.stats.line", game="Coup", rating=f"{rating[alice.id].ordinal:.1f}", games=1, wins=0
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
