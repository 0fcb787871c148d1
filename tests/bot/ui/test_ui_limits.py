"""Limits through Discord: lobby expiry, caps, removing a player, the cooldown on opening tables, the click limit.

These tests run the bot with the limits' production defaults (the other SimCord tests turn the
click limit and the cooldown off, see ``tests/bot/conftest.py``) and caps small enough to reach.
SimCord's clock stands still unless a test advances it, so every click of a test happens at one
instant until ``advance_time``.
"""

from __future__ import annotations

import pytest
from simcord.actors import MemberActor

from bot.i18n import translate
from bot.settings import Settings
from tests.support import World, component_ids, embed_text, private_text

pytestmark = pytest.mark.asyncio

DEFAULTS = Settings(_env_file=None)
LOBBY_CAP = 2
SERVER_CAP = 3


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The limits as shipped, with caps small enough for a test to reach."""
    return settings.model_copy(
        update={
            "click_burst": DEFAULTS.click_burst,
            "clicks_per_second": DEFAULTS.clicks_per_second,
            "open_table_cooldown_seconds": DEFAULTS.open_table_cooldown_seconds,
            "lobby_expiry_minutes": DEFAULTS.lobby_expiry_minutes,
            "max_lobbies_per_member": LOBBY_CAP,
            "max_tables_per_server": SERVER_CAP,
        }
    )


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


async def seat_ids(world: World, table_id: int) -> list[int | None]:
    return [s.user_id for s in await world.bot.storage.lobby_seats(table_id)]


async def new_table_refused(world: World, host: MemberActor, game: str = "coup") -> str:
    """Send ``/<game> new`` expecting a refusal; return its private text."""
    before = set(world.service.tables)
    result = await host.slash(world.channel, f"{game} new")
    assert result.ephemeral and set(world.service.tables) == before, result
    return private_text(result)


# ---------------------------------------------------------------------- expiry
async def test_the_lobby_says_when_it_expires_and_then_expires(world):
    alice = world.member("alice")
    table_id = await world.new_table(alice)
    table = world.table(table_id)
    assert table.expires_at is not None
    when = f"<t:{int(table.expires_at)}:R>"
    assert en("ui.lobby.expires", when=when) in embed_text(world.lobby(table_id).embeds)

    await world.env.advance_time(DEFAULTS.lobby_expiry_minutes * 60 - 5)
    assert world.table(table_id).status == "lobby"  # not yet

    await world.env.advance_time(6)

    assert table_id not in world.service.tables
    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.status == "cancelled"
    lobby = world.lobby(table_id)
    assert en("ui.lobby.expired") in embed_text(lobby.embeds)
    assert when not in embed_text(lobby.embeds)
    assert component_ids(world.components(lobby)) == []  # no Join on an expired lobby


async def test_an_expired_lobby_is_in_russian_on_a_russian_server(make_world):
    world = make_world("ru")
    alice = world.member("alice")
    table_id = await world.new_table(alice)

    await world.env.advance_time(DEFAULTS.lobby_expiry_minutes * 60 + 1)

    assert translate("ru", "ui.lobby.expired") in embed_text(world.lobby(table_id).embeds)


# ---------------------------------------------------------------------- caps
async def test_a_member_past_the_lobby_cap_is_refused_privately(world):
    alice, bob = world.members("alice", "bob")
    for _ in range(LOBBY_CAP):
        await world.new_table(alice)
        await world.env.advance_time(DEFAULTS.open_table_cooldown_seconds)

    text = await new_table_refused(world, alice, "masti")

    assert text == en("table.lobby_limit", max=LOBBY_CAP)
    assert [e.code for e in world.rejections()] == ["table.lobby_limit"]
    await world.new_table(bob)  # another member still may


async def test_a_server_past_the_table_cap_is_refused_privately(world):
    people = world.members("alice", "bob", "carol", "dan")
    for host in people[:SERVER_CAP]:
        await world.new_table(host)

    text = await new_table_refused(world, people[SERVER_CAP])

    assert text == en("table.server_limit", max=SERVER_CAP)
    assert [e.code for e in world.rejections()] == ["table.server_limit"]


# ---------------------------------------------------------------------- removing a player
async def test_the_host_removes_a_player_with_the_lobby_select(world):
    alice, bob, carol = world.members("alice", "bob", "carol")
    table_id = await world.new_table(alice)
    assert f"lobbys:{table_id}:kick" not in component_ids(world.components(world.lobby(table_id)))  # nobody yet
    await world.lobby_click(bob, table_id, "join")
    await world.lobby_click(carol, table_id, "join")
    select = f"lobbys:{table_id}:kick"
    assert select in component_ids(world.components(world.lobby(table_id)))

    result = await alice.select(world.lobby(table_id), [str(bob.id)], custom_id=select)

    assert not result.ephemeral, private_text(result)
    assert await seat_ids(world, table_id) == [alice.id, carol.id]
    assert bob.mention not in embed_text(world.lobby(table_id).embeds)
    again = await world.lobby_click(bob, table_id, "join")
    assert again.ephemeral and private_text(again) == en("table.removed")
    assert await seat_ids(world, table_id) == [alice.id, carol.id]


async def test_the_remove_select_works_after_a_restart(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.new_table(alice)
    await world.lobby_click(bob, table_id, "join")
    lobby = world.lobby(table_id)

    await world.restart()
    result = await alice.select(lobby, [str(bob.id)], custom_id=f"lobbys:{table_id}:kick")

    assert not result.ephemeral, private_text(result)
    assert await seat_ids(world, table_id) == [alice.id]


async def test_a_guest_cannot_remove_anyone(world):
    alice, bob, carol = world.members("alice", "bob", "carol")
    table_id = await world.new_table(alice)
    await world.lobby_click(bob, table_id, "join")
    await world.lobby_click(carol, table_id, "join")
    before = await world.db_snapshot(table_id)

    result = await carol.select(world.lobby(table_id), [str(bob.id)], custom_id=f"lobbys:{table_id}:kick")

    assert result.ephemeral and private_text(result) == en("table.host_only")
    assert await world.db_snapshot(table_id) == before


async def test_a_forged_removal_value_is_refused(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.new_table(alice)
    await world.lobby_click(bob, table_id, "join")
    before = await world.db_snapshot(table_id)
    forged = await world.forge(
        world.channel,
        [
            {
                "type": 1,
                "components": [
                    {
                        "type": 3,
                        "custom_id": f"lobbys:{table_id}:kick",
                        "options": [{"label": "x", "value": "not-a-member"}],
                    }
                ],
            }
        ],
    )

    result = await alice.select(forged, ["not-a-member"], custom_id=f"lobbys:{table_id}:kick")

    assert result.ephemeral and private_text(result) == en("ui.error.bad_component")
    assert await world.db_snapshot(table_id) == before


# ---------------------------------------------------------------------- the cooldown on opening tables
async def test_opening_tables_has_a_cooldown_shared_by_every_game(world):
    alice = world.member("alice")
    first = await world.new_table(alice)
    await world.lobby_click(alice, first, "cancel")

    refused = await new_table_refused(world, alice)
    other_game = await new_table_refused(world, alice, "intrigue")

    seconds = int(DEFAULTS.open_table_cooldown_seconds)
    assert refused == other_game == en("ui.error.cooldown", seconds=seconds)
    assert len(world.env.errors) == 2  # acknowledged: the refusals went through the error handler
    await world.env.advance_time(seconds)
    await world.new_table(alice)


# ---------------------------------------------------------------------- the click limit
async def test_click_spam_is_answered_too_fast_and_changes_nothing(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.new_table(alice)
    for _ in range(DEFAULTS.click_burst):
        leave = await world.lobby_click(bob, table_id, "leave")  # refused (not seated), but a click
        assert private_text(leave) == en("table.not_seated")
    before = await world.db_snapshot(table_id)

    spam = await world.lobby_click(bob, table_id, "join")

    assert spam.ephemeral and private_text(spam) == en("ui.error.too_fast")
    assert await world.db_snapshot(table_id) == before  # the join did not happen
    assert await seat_ids(world, table_id) == [alice.id]
    # Another member is not slowed down by bob, and bob clicks again a moment later.
    assert not (await world.lobby_click(alice, table_id, "addai")).ephemeral
    await world.env.advance_time(1 / DEFAULTS.clicks_per_second)
    joined = await world.lobby_click(bob, table_id, "join")
    assert not joined.ephemeral, private_text(joined)
    assert await seat_ids(world, table_id) == [alice.id, None, bob.id]


async def test_a_too_fast_answer_is_in_the_clickers_language(world):
    alice = world.member("alice")
    boris = world.member("boris", locale="ru")
    table_id = await world.new_table(alice)
    for _ in range(DEFAULTS.click_burst):
        await world.lobby_click(boris, table_id, "leave")

    spam = await world.lobby_click(boris, table_id, "leave")

    assert spam.ephemeral and private_text(spam) == translate("ru", "ui.error.too_fast")
