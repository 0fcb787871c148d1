"""The bot answers interactions only: messages in a channel, even ones that mention it, get no reply."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("text", ["{bot} help", "<@!{id}> help", "{bot} coup", "{bot}help"])
async def test_mentioning_the_bot_with_a_command_gets_no_answer(world, text):
    alice = world.member("alice")
    bot_user = world.env.backend.bot_user
    before = len(world.env.http_requests)

    await alice.send(world.channel, text.format(bot=f"<@{bot_user.id}>", id=bot_user.id))
    await world.env.settle()

    assert [m.author.id for m in world.channel.history()] == [alice.id]
    assert [r for r in world.env.http_requests[before:] if r.method != "GET"] == []


async def test_the_bot_has_no_help_command_nor_prefix_commands(world):
    assert world.bot.help_command is None
    assert world.bot.commands == set()
