"""The end of a table: a whole game to the result, ratings, Rematch, Resign and End table."""

from __future__ import annotations

import pytest
from simcord.actors import MemberActor

from bot.i18n import translate
from bot.ratings import ordinal
from games.coup.engine import stacked_deck
from games.coup.models import Card, Phase
from tests.support import World, component_ids, embed_text, private_text

pytestmark = pytest.mark.asyncio

D = Card
#: Everyone holds Duke + Assassin: taxes and assassinations end the game in a few dozen moves.
QUICK_DECK = stacked_deck([[D.DUKE, D.ASSASSIN]] * 3)
DUEL_DECK = stacked_deck([[D.DUKE, D.ASSASSIN], [D.CAPTAIN, D.CONTESSA]])
TRIO_DECK = stacked_deck([[D.DUKE, D.CAPTAIN], [D.CONTESSA, D.AMBASSADOR], [D.ASSASSIN, D.CONTESSA]])


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


async def finished_game(world: World) -> tuple[MemberActor, MemberActor, int]:
    """Play alice, bob and one AI to the end, the humans answering as the bot's AI would."""
    alice, bob = world.members("alice", "bob")
    world.rig(deck=QUICK_DECK, first_seat=0, seed="g0")
    table_id = await world.seat(alice, bob, ais=1)
    await world.play_out(table_id, [alice, bob])
    return alice, bob, table_id


async def test_a_whole_game_with_humans_and_an_ai_ends_with_results_and_ratings(world):
    alice, bob, table_id = await finished_game(world)

    storage = world.bot.storage
    row = await storage.get_table(table_id)
    assert row is not None and row.status == "finished" and table_id not in world.service.tables
    results = await storage.results(table_id)
    assert [(r.seat, r.user_id, r.is_ai) for r in results] == [
        (0, alice.id, False),
        (1, bob.id, False),
        (2, None, True),
    ]
    by_rank = sorted(results, key=lambda r: r.rank)
    names = {alice.id: "alice", bob.id: "bob", None: en("ui.lobby.ai_name", n=1)}
    winner = names[by_rank[0].user_id]

    messages = world.thread_messages(table_id)
    result = messages[-1]
    (embed,) = result.embeds
    assert embed.title == en("ui.result.title", game="Coup", id=table_id)
    assert embed.description == "\n".join(f"{i + 1}. {names[r.user_id]}" for i, r in enumerate(by_rank))
    (ratings,) = embed.fields
    assert ratings.name == en("ui.result.ratings")
    changes = {c.user_id: c for c in await storage.rating_changes(table_id)}
    assert set(changes) == {alice.id, bob.id}  # the AI is never rated
    assert ratings.value == "\n".join(
        en(
            "ui.result.rating_line",
            name=names[user_id],
            before=f"{ordinal(c.mu_before, c.sigma_before):.1f}",
            after=f"{ordinal(c.mu_after, c.sigma_after):.1f}",
        )
        for user_id, c in changes.items()
    )
    assert component_ids(world.components(result)) == [f"tbl:{table_id}:rematch"]

    board = world.board(table_id)
    assert en("coup.status.over", winner=winner) in embed_text(board.embeds)
    assert component_ids(world.components(board)) == [f"tbl:{table_id}:rematch", f"tbl:{table_id}:rules"]
    rows = await storage.leaderboard(world.guild.id, "coup")
    assert {r.user_id for r in rows} == {alice.id, bob.id}
    winner_id = by_rank[0].user_id
    assert all(r.wins == (1 if r.user_id == winner_id else 0) and r.games == 1 for r in rows)


async def test_rematch_opens_a_lobby_where_the_winner_moves_first(world):
    alice, bob, table_id = await finished_game(world)
    results = await world.bot.storage.results(table_id)
    winner_id = min(results, key=lambda r: r.rank).user_id
    assert winner_id == bob.id  # fixed by the stacked deck and the seed

    by_alice = await alice.click(world.thread_messages(table_id)[-1], custom_id=f"tbl:{table_id}:rematch")
    by_bob = await bob.click(world.board(table_id), custom_id=f"tbl:{table_id}:rematch")

    for result in (by_alice, by_bob):
        assert result.ephemeral
        assert private_text(result).startswith(en("ui.lobby.created") + " https://discord.com/channels/")
    expected = {alice.id: ([alice.id, bob.id, None], 1), bob.id: ([bob.id, None, alice.id], 0)}
    for new_id, host in ((table_id + 1, alice.id), (table_id + 2, bob.id)):
        row = await world.bot.storage.get_table(new_id)
        assert row is not None and row.status == "lobby" and row.host_id == host and row.rematch_of == table_id
        seats = [s.user_id for s in await world.bot.storage.lobby_seats(new_id)]
        assert (seats, row.options["game"]["first_seat"]) == expected[host]
        assert seats[row.options["game"]["first_seat"]] == winner_id
        lobby = world.lobby(new_id)
        assert lobby.channel.id == world.channel.id and lobby.id == row.lobby_message_id

    started = await world.lobby_click(alice, table_id + 1, "start")
    assert not started.followups
    state = world.state(table_id + 1)
    assert state.first_seat == 1 and world.table(table_id + 1).seats[1].user_id == bob.id


async def test_rematch_is_for_players_of_a_finished_table(world):
    alice, bob, table_id = await finished_game(world)
    carol = world.member("carol")

    result = await carol.click(world.board(table_id), custom_id=f"tbl:{table_id}:rematch")

    assert private_text(result) == en("table.not_seated")
    assert await world.bot.storage.get_table(table_id + 1) is None
    assert {alice.id, bob.id} == {s.user_id for s in await world.bot.storage.seats(table_id) if s.user_id}


async def test_rematch_before_the_end_is_refused(world):
    alice, bob = world.members("alice", "bob")
    world.rig(deck=DUEL_DECK, first_seat=0)
    table_id = await world.seat(alice, bob)
    forged = await world.forge(world.thread(table_id), [{"type": 1, "components": [
        {"type": 2, "style": 3, "label": "Rematch", "custom_id": f"tbl:{table_id}:rematch"}
    ]}])  # fmt: skip

    result = await alice.click(forged, custom_id=f"tbl:{table_id}:rematch")

    assert private_text(result) == en("table.rematch_not_finished")
    assert await world.bot.storage.get_table(table_id + 1) is None


async def test_resign_asks_privately_then_ends_a_duel(world):
    alice, bob = world.members("alice", "bob")
    world.rig(deck=DUEL_DECK, first_seat=0)
    table_id = await world.seat(alice, bob)
    before = await world.db_snapshot(table_id)

    confirm = await world.table_button(bob, table_id, "resign")

    assert confirm.ephemeral and confirm.response is not None
    assert confirm.response.embeds[0].description == en("ui.panel.confirm_resign")
    assert component_ids(confirm.response.components) == [f"tbl:{table_id}:resign_yes"]
    assert await world.db_snapshot(table_id) == before  # asking changes nothing

    done = await bob.click(confirm.response, custom_id=f"tbl:{table_id}:resign_yes")

    assert done.response is not None and done.response.ephemeral
    assert done.response.embeds[0].description == en("ui.panel.resigned")
    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.status == "finished"
    results = {r.user_id: r.rank for r in await world.bot.storage.results(table_id)}
    assert results == {alice.id: 0, bob.id: 1}
    result = world.thread_messages(table_id)[-1]
    assert result.embeds[0].description == "1. alice\n2. bob"
    assert "bob resigns and reveals: Captain, Contessa." in embed_text(world.board(table_id).embeds)


async def test_a_resigning_player_leaves_and_the_game_goes_on(world):
    alice, bob, carol = world.members("alice", "bob", "carol")
    world.rig(deck=TRIO_DECK, first_seat=0)
    table_id = await world.seat(alice, bob, carol)
    confirm = await world.table_button(bob, table_id, "resign")
    assert confirm.response is not None

    await bob.click(confirm.response, custom_id=f"tbl:{table_id}:resign_yes")

    state = world.state(table_id)
    assert world.table(table_id).status == "active" and state.eliminated == (1,)
    assert state.phase is Phase.DECLARE and state.turn == 0
    assert "bob resigns and reveals: Contessa, Ambassador." in embed_text(world.board(table_id).embeds)
    again = await world.table_button(bob, table_id, "resign")
    assert again.response is not None
    refused = await bob.click(again.response, custom_id=f"tbl:{table_id}:resign_yes")
    assert private_text(refused) == en("coup.error.already_out")


async def test_a_spectator_cannot_resign(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob)
    carol = world.member("carol")

    result = await world.table_button(carol, table_id, "resign")

    assert private_text(result) == en("table.not_seated")


async def test_only_the_host_or_a_moderator_may_end_a_table(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob)
    before = await world.db_snapshot(table_id)

    refused = await world.table_button(bob, table_id, "end")

    assert private_text(refused) == en("table.host_only")
    assert await world.db_snapshot(table_id) == before


@pytest.mark.parametrize("who", ["host", "moderator"])
async def test_ending_a_table_after_confirmation(world, who):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob)
    ender = alice if who == "host" else world.member("mod", moderator=True)

    confirm = await world.table_button(ender, table_id, "end")

    assert confirm.ephemeral and confirm.response is not None
    assert confirm.response.embeds[0].description == en("ui.panel.confirm_end")
    assert world.table(table_id).status == "active"
    await ender.click(confirm.response, custom_id=f"tbl:{table_id}:end_yes")

    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.status == "cancelled"
    assert await world.bot.storage.results(table_id) == []
    assert await world.bot.storage.leaderboard(world.guild.id, "coup") == []
    name = "alice" if who == "host" else ender.mention
    assert world.thread_messages(table_id)[-1].content == en("ui.board.ended", name=name)
    assert world.components(world.board(table_id)) == []
    assert en("ui.lobby.cancelled") in embed_text(world.lobby(table_id).embeds)
