"""The end of a table: a whole game to the result, ratings, Rematch, Resign and End table."""

from __future__ import annotations

import discord
import pytest
from simcord.actors import MemberActor

from bot.i18n import translate
from bot.ui.panels import rating_line
from games.coup.engine import stacked_deck
from games.coup.models import Card, Phase, TakeIncome
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
    # The AI seat moves first: with this deck and seed the Coup AI then loses, and bob wins.
    world.rig(deck=QUICK_DECK, first_seat=2, seed="g0")
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
    names = {
        alice.id: "alice",
        bob.id: "bob",
        None: en("ui.lobby.ai_name", n=3),
    }  # the AI sits in seat 3 and is named for it
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
    assert ratings.value == "\n".join(rating_line("en", names[user_id], c) for user_id, c in changes.items())
    assert component_ids(world.components(result)) == [f"tbl:{table_id}:rematch"]

    board = world.board(table_id)
    assert en("coup.status.over", winner=winner) in embed_text(board.embeds)
    assert component_ids(world.components(board)) == [
        f"tbl:{table_id}:{verb}" for verb in ("rematch", "rules", "log", "replay")
    ]
    rows = await storage.leaderboard(world.guild.id, "coup")
    assert {r.user_id for r in rows} == {alice.id, bob.id}
    winner_id = by_rank[0].user_id
    assert all(r.wins == (1 if r.user_id == winner_id else 0) and r.games == 1 for r in rows)


async def test_rematch_invites_the_others_and_seats_only_who_joins(world):
    alice, bob, table_id = await finished_game(world)
    results = await world.bot.storage.results(table_id)
    winner_id = min(results, key=lambda r: r.rank).user_id
    assert winner_id == bob.id  # fixed by the stacked deck and the seed
    sent_before = len(world.env.http_requests)

    by_alice = await alice.click(world.thread_messages(table_id)[-1], custom_id=f"tbl:{table_id}:rematch")

    assert by_alice.ephemeral
    assert private_text(by_alice).startswith(en("ui.lobby.created") + " https://discord.com/channels/")
    new_id = table_id + 1
    row = await world.bot.storage.get_table(new_id)
    assert row is not None and row.status == "lobby" and row.host_id == alice.id and row.rematch_of == table_id
    # Only the clicker and the AI are seated: bob is invited, not seated.
    assert [s.user_id for s in await world.bot.storage.lobby_seats(new_id)] == [alice.id, None]
    lobby = world.lobby(new_id)
    assert lobby.content == en("ui.lobby.rematch_invite", mentions=f"<@{bob.id}>", id=table_id)
    (post,) = [
        r
        for r in world.env.http_requests[sent_before:]
        if r.method == "POST" and r.path.startswith("/channels/") and (r.json or {}).get("content")
    ]
    mentions = post.json["allowed_mentions"]
    assert mentions["parse"] == [] and [int(u) for u in mentions["users"]] == [bob.id]
    assert en("ui.lobby.first_player", name=f"<@{bob.id}>") not in embed_text(lobby.embeds)  # not seated yet

    joined = await world.lobby_click(bob, new_id, "join")
    assert not joined.ephemeral
    assert en("ui.lobby.first_player", name=f"<@{bob.id}>") in embed_text(world.lobby(new_id).embeds)
    started = await world.lobby_click(alice, new_id, "start")
    assert not started.followups
    state = world.state(new_id)
    assert world.table(new_id).seats[state.first_seat].user_id == bob.id


async def test_a_second_rematch_press_points_to_the_open_one(world):
    alice, bob, table_id = await finished_game(world)
    await alice.click(world.thread_messages(table_id)[-1], custom_id=f"tbl:{table_id}:rematch")
    lobby = world.lobby(table_id + 1)

    again = [await who.click(world.board(table_id), custom_id=f"tbl:{table_id}:rematch") for who in (bob, alice, bob)]

    url = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{lobby.id}"
    assert [private_text(r) for r in again] == [en("ui.lobby.rematch_open", url=url)] * 3
    assert await world.bot.storage.get_table(table_id + 2) is None


async def test_the_winner_leaving_the_rematch_lobby_drops_the_first_player(world):
    alice, bob, table_id = await finished_game(world)
    await alice.click(world.board(table_id), custom_id=f"tbl:{table_id}:rematch")
    new_id = table_id + 1
    await world.lobby_click(bob, new_id, "join")
    await world.lobby_click(bob, new_id, "leave")
    carol = world.member("carol")
    await world.lobby_click(carol, new_id, "join")  # carol takes the place bob's lobby index held

    await world.lobby_click(alice, new_id, "start")

    row = await world.bot.storage.get_table(new_id)
    assert row is not None and row.options["game"].get("first_seat") is None
    assert "first_player" not in row.options


async def test_the_rematch_button_expires_after_half_an_hour(world, monkeypatch):
    _alice, bob, table_id = await finished_game(world)
    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.finished_at is not None
    monkeypatch.setattr(world.service, "now", lambda: row.finished_at + 30 * 60 + 1)

    late = await bob.click(world.board(table_id), custom_id=f"tbl:{table_id}:rematch")

    assert private_text(late) == en("table.rematch_expired", minutes=30)
    assert await world.bot.storage.get_table(table_id + 1) is None


async def test_a_rematch_lobby_that_cannot_be_posted_is_cancelled(world, monkeypatch):
    alice, _bob, table_id = await finished_game(world)

    async def refuse(*args: object, **kwargs: object) -> None:
        raise discord.DiscordServerError(_Response(), "down")

    monkeypatch.setattr(discord.PartialMessageable, "send", refuse)
    result = await alice.click(world.board(table_id), custom_id=f"tbl:{table_id}:rematch")

    assert private_text(result) == en("ui.error.lobby_not_posted")
    row = await world.bot.storage.get_table(table_id + 1)
    assert row is not None and row.status == "cancelled" and table_id + 1 not in world.service.tables
    monkeypatch.undo()
    again = await alice.click(world.board(table_id), custom_id=f"tbl:{table_id}:rematch")  # not "already open"
    assert private_text(again).startswith(en("ui.lobby.created"))


class _Response:
    """The least of an aiohttp response discord.py's HTTP errors read."""

    status = 503
    reason = "Service Unavailable"


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
    # The board keeps the last three lines; the Log button shows the whole game's.
    log = await bob.click(world.board(table_id), custom_id=f"tbl:{table_id}:log")
    assert log.response is not None and "bob resigns and reveals: Captain, Contessa." in embed_text(log.response.embeds)


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
    assert "bob resigns and reveals: Contessa, Ambassador." in world.bot.publisher.logs[table_id]
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


async def test_a_spectator_may_not_end_a_table(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob)
    before = await world.db_snapshot(table_id)

    refused = await world.table_button(world.member("carol"), table_id, "end")

    assert private_text(refused) == en("table.host_only")
    assert await world.db_snapshot(table_id) == before


async def test_after_the_first_move_the_host_cannot_void_the_game_alone(world):
    alice, bob = world.members("alice", "bob")
    world.rig(deck=DUEL_DECK, first_seat=0)
    table_id = await world.seat(alice, bob)
    confirm = await world.table_button(alice, table_id, "resign")
    assert confirm.response is not None
    forged_end = await world.forge(world.thread(table_id), [{"type": 1, "components": [
        {"type": 2, "style": 4, "label": "end", "custom_id": f"tbl:{table_id}:end_yes"}
    ]}])  # fmt: skip
    await world.act(alice, table_id, _income())  # the first move
    before = await world.db_snapshot(table_id)

    asked = await world.table_button(alice, table_id, "end")
    forced = await alice.click(forged_end, custom_id=f"tbl:{table_id}:end_yes")

    assert asked.response is not None and asked.response.embeds[0].description == en("ui.panel.confirm_endvote")
    assert private_text(forced) == en("table.end_needs_agreement")
    assert await world.db_snapshot(table_id) == before
    # Resigned or not, the host's loss stands: resigning finishes the duel with a result.
    await alice.click(confirm.response, custom_id=f"tbl:{table_id}:resign_yes")
    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.status == "finished"
    assert {r.user_id: r.rank for r in await world.bot.storage.results(table_id)} == {bob.id: 0, alice.id: 1}


async def test_a_game_ends_without_result_when_every_player_agrees(world):
    alice, bob, carol = world.members("alice", "bob", "carol")
    world.rig(deck=TRIO_DECK, first_seat=0)
    table_id = await world.seat(alice, bob, carol)
    await world.act(alice, table_id, _income())

    asked = await world.table_button(bob, table_id, "end")
    assert asked.response is not None
    await bob.click(asked.response, custom_id=f"tbl:{table_id}:endvote_yes")

    proposal = world.thread_messages(table_id)[-1]
    assert proposal.content == en("ui.board.end_proposed", name="bob", mentions=f"<@{alice.id}> <@{carol.id}>")
    assert proposal.embeds[0].description == en("ui.board.end_votes", agreed=1, needed=3)
    assert world.table(table_id).status == "active"
    await alice.click(proposal, custom_id=f"tbl:{table_id}:endvote")
    assert world.message(world.thread(table_id), proposal.id).embeds[0].description == en(
        "ui.board.end_votes", agreed=2, needed=3
    )
    spectator = await world.member("dave").click(proposal, custom_id=f"tbl:{table_id}:endvote")
    assert private_text(spectator) == en("table.not_seated")
    assert world.table(table_id).status == "active"

    await carol.click(proposal, custom_id=f"tbl:{table_id}:endvote")

    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.status == "cancelled"
    assert await world.bot.storage.results(table_id) == []
    assert en("ui.board.ended_by_agreement") in [m.content for m in world.thread_messages(table_id)]
    lobby = embed_text(world.lobby(table_id).embeds)
    assert en("result.ended", thread=f"<#{world.table(table_id).thread_id}>") in lobby
    assert en("ui.lobby.started", thread=f"<#{world.table(table_id).thread_id}>") not in lobby


async def test_the_stale_lobby_leave_button_of_a_started_game_only_explains(world):
    alice, bob = world.members("alice", "bob")
    table_id = await world.seat(alice, bob)
    lobby = world.lobby(table_id)
    stale = await world.forge(world.channel, [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "Leave", "custom_id": f"lobby:{table_id}:leave"}
    ]}])  # fmt: skip
    before = await world.db_snapshot(table_id)

    results = [await who.click(stale, custom_id=f"lobby:{table_id}:leave") for who in (alice, bob)]

    assert [private_text(r) for r in results] == [en("table.leave_started")] * 2
    assert await world.db_snapshot(table_id) == before
    assert world.table(table_id).status == "active" and lobby.id == world.lobby(table_id).id


def _income() -> TakeIncome:
    return TakeIncome()


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
    # The lobby in the channel says the game ended without a result, and where it was played.
    thread = f"<#{world.table(table_id).thread_id}>"
    assert en("result.ended", thread=thread) in embed_text(world.lobby(table_id).embeds)
