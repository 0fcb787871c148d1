"""Who may end any table: a moderator in the games channel, judged by that channel's permissions.

A role allowed Manage Messages server-wide but denied it in the games channel (a channel overwrite)
is no moderator there; a member allowed Manage Threads in the games channel only is one, and so is a
member who may Manage Server.
"""

from __future__ import annotations

import discord
import pytest
from simcord.actors import MemberActor
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.i18n import translate
from tests.support import World, private_text

pytestmark = pytest.mark.asyncio


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


def member_with_role(world: World, name: str, permissions: discord.Permissions) -> tuple[MemberActor, int]:
    """Add ``name`` with a new role granting ``permissions`` server-wide; return it and the role's id."""
    role = world.guild.create_role(f"{name}-role", permissions=permissions)
    return world.guild.add_member(world.env.create_user(name), roles=[role]), role.id


def overwrite_games_channel(world: World, role_id: int, *, allow: discord.Permissions | None = None, deny=None) -> None:
    """Set the games channel's overwrite for ``role_id`` (its threads inherit it)."""
    world.env.backend.set_overwrite(
        world.channel.id,
        Overwrite(
            target_id=role_id,
            type=OverwriteType.ROLE,
            allow=allow.value if allow else 0,
            deny=deny.value if deny else 0,
        ),
    )


async def test_manage_messages_denied_in_the_games_channel_cannot_end_a_table_there(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob)
    lobby_id = await world.seat(alice, start=False)
    mod, role_id = member_with_role(world, "mod", discord.Permissions(manage_messages=True))
    overwrite_games_channel(world, role_id, deny=discord.Permissions(manage_messages=True))
    before = await world.db_snapshot(table_id)

    end = await world.table_button(mod, table_id, "end")
    cancel = await world.lobby_click(mod, lobby_id, "cancel")

    assert private_text(end) == en("table.host_only")
    assert private_text(cancel) == en("table.host_only")
    assert await world.db_snapshot(table_id) == before
    assert world.table(lobby_id).status == "lobby"


async def test_manage_messages_on_the_server_ends_a_table_where_no_overwrite_denies_it(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob)
    mod, _role_id = member_with_role(world, "mod", discord.Permissions(manage_messages=True))

    confirm = await world.table_button(mod, table_id, "end")

    assert confirm.response is not None and confirm.response.embeds[0].description == en("ui.panel.confirm_end")
    await mod.click(confirm.response, custom_id=f"tbl:{table_id}:end_yes")
    assert world.table(table_id).status == "cancelled"


async def test_manage_threads_in_the_games_channel_only_makes_a_moderator_there(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob)
    lobby_id = await world.seat(alice, start=False)
    mod, role_id = member_with_role(world, "mod", discord.Permissions.none())
    overwrite_games_channel(world, role_id, allow=discord.Permissions(manage_threads=True))

    confirm = await world.table_button(mod, table_id, "end")
    await world.lobby_click(mod, lobby_id, "cancel")

    assert confirm.response is not None and confirm.response.embeds[0].description == en("ui.panel.confirm_end")
    await mod.click(confirm.response, custom_id=f"tbl:{table_id}:end_yes")
    assert world.table(table_id).status == "cancelled"
    assert world.table(lobby_id).status == "cancelled"


async def test_a_member_who_may_manage_the_server_is_a_moderator_in_every_channel(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob)
    admin, role_id = member_with_role(world, "admin", discord.Permissions(manage_guild=True))
    overwrite_games_channel(world, role_id, deny=discord.Permissions(manage_messages=True, manage_threads=True))

    confirm = await world.table_button(admin, table_id, "end")

    assert confirm.response is not None and confirm.response.embeds[0].description == en("ui.panel.confirm_end")
