"""Games finish, lose no move and end with a true board while Discord fails ≥ 10% of requests.

Faults (see :mod:`tests.bot.resilience.faults`): 429 with ``retry_after``, 500, 502, timeouts before
and after Discord acted, and interactions whose token has expired. They are on from the Start
click to the end of the game, for the thread, the welcome, every board edit, every panel, every
click's answer and the result. Checks, per game:

- the game finishes, and its action log replays to the stored state, each version once;
- no move is lost: every accepted click is in the log, and nothing else a human did is;
- the board message Discord holds at the end is the final state's board (embed, buttons, image: a
  real PNG in the long run, the JSON of the view it is drawn from in the normal one);
- every click whose token Discord still honoured was answered (no "This interaction failed");
- the bot logged no error: a failed request is a warning, never a bug.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.i18n import translate
from bot.storage import Storage
from bot.tables import replay
from bot.ui.panels import BOARD_VERSION, Payload, board_payload
from games.coup.models import TakeIncome
from tests.bot.resilience import faults
from tests.bot.resilience.leaks import recording_views
from tests.bot.resilience.play import Players
from tests.bot.resilience.registry import discord_games, record, scale, seat_counts

pytestmark = pytest.mark.asyncio


def table_size(game: str, index: int) -> int:
    counts = seat_counts(game)
    return counts[index % len(counts)]


async def check_log(storage: Storage, table_id: int) -> None:
    row = await storage.get_table(table_id)
    assert row is not None and row.state is not None
    log = await storage.action_log(table_id)
    assert [entry.seq for entry in log] == list(range(row.version)), "log has gaps or repeats"
    rebuilt = await replay(storage, table_id)
    assert rebuilt is not None and rebuilt.model_dump_json() == row.state


def strip_ids(value: Any) -> Any:
    """Drop the layout ``id`` Discord adds to every stored component, and empty fields."""
    if isinstance(value, list):
        return [strip_ids(item) for item in value]
    if isinstance(value, dict):
        return {key: strip_ids(item) for key, item in value.items() if key != "id" and item is not None}
    return value


def final_board_matches(players: Players, table_id: int, last: Payload) -> None:
    """The board Discord shows is the last one the bot drew, and that one shows the final state."""
    world = players.world
    table = world.table(table_id)
    assert table.board_message_id is not None and table.state is not None
    # The table plays in its thread, or in the channel if opening the thread failed.
    shown = world.message(players.place(table), table.board_message_id)
    fresh = board_payload(table, [], awaited_legal=[])
    # The last drawn board is the final state's (status, version, buttons and image) ...
    assert last.extra[BOARD_VERSION] == table.state.version
    assert (last.embed.description or "").split("\n")[0] == (fresh.embed.description or "").split("\n")[0]
    assert last.view.to_components() == fresh.view.to_components()
    assert last.png == fresh.png
    # ... and it is what Discord holds.
    assert shown.embeds[0].to_dict() == discord.Embed.from_dict(last.embed.to_dict()).to_dict()
    assert strip_ids(world.components(shown)) == strip_ids(last.view.to_components())
    stored = world.env.backend.get_message(shown.channel.id, shown.id)
    (attachment,) = stored.attachments
    assert world.env.backend.cdn.get(attachment["url"]) == last.png


@pytest.mark.parametrize("game", discord_games())
async def test_games_survive_discord_faults(world, monkeypatch, game):
    plan = faults.install(monkeypatch, faults.FaultPlan(seed=f"faults-{game}", enabled=False))
    world.bot.publisher.retry_delays = (0.02, 0.05, 0.1, 0.2, 0.4, 0.8)
    # Injected timeouts are waited out in real time and retried after back-offs (up to 1.6 s for one
    # update), several at once after a Start (thread, welcome, board, call): SimCord's default 5 s
    # to settle is too short for that on a busy machine, and its failure would be the harness's. At
    # soak size the 7-player «Интриги» game runs whole phases of five AI seats between two human
    # clicks, each move a board drawn under faults; since its AI hires thieves (more moves), 30 s
    # timed out in it beside a running `make test`. A hung bot still fails, at 300 s.
    world.env.settle_timeout = max(world.env.settle_timeout, 300.0)
    boards: dict[int, Payload] = {}
    world.bot.publisher.observers.append(
        lambda table, kind, payload: boards.__setitem__(table.id, payload) if kind == "board" else None
    )
    players = Players(world, world.members("alice", "bob", "carol"))
    finished: list[int] = []
    sizes = scale()
    with recording_views([game], draw=sizes.draw_boards):
        for index in range(sizes.fault_games):
            # The normal run plays the smallest table with one human (long games take minutes).
            seats = table_size(game, index)
            humans = min(1 + index % 2, seats)
            host, *guests = players.people[:humans]
            # An hour's clock, reaction windows too: a long game must not meet SimCord's real-time timers half-way.
            table_id = await world.seat(
                host, *guests, ais=seats - humans, start=False, game=game, clock=3600, reaction_clock=3600
            )
            plan.enabled = True
            for _ in range(10):  # a Start whose interaction expired did nothing: the host clicks again
                if world.table(table_id).status != "lobby":
                    break
                await world.lobby_click(host, table_id, "start")
            await players.play_out(table_id)
            await world.env.settle()
            plan.enabled = False
            assert world.table(table_id).status == "finished"
            finished.append(table_id)
        for table_id in finished:
            await check_log(world.bot.storage, table_id)
            final_board_matches(players, table_id, boards[table_id])

    storage = world.bot.storage
    accepted = [c for c in players.clicks if c.version_after > c.version_before]
    human_moves = [
        entry
        for table_id in finished
        for entry in await storage.action_log(table_id)
        if entry.user_id is not None and not entry.by_timeout
    ]
    # Each human move in the log came from one click, and no click was applied twice.
    assert len(human_moves) == len([c for c in accepted if c.custom_id.startswith("act")])
    unanswered = [c for c in players.clicks if not c.acknowledged and c.interaction_id not in plan.dead_interactions]
    assert not unanswered, f"{len(unanswered)} clicks were left without an answer: {unanswered[:3]}"
    assert plan.share >= 0.10, plan.injected
    record(
        "discord_faults",
        game,
        games=len(finished),
        requests=plan.requests,
        faults=dict(plan.injected),
        share=round(plan.share, 3),
        clicks=len(players.clicks),
        expired=len(plan.dead_interactions),
    )


# ---------------------------------------------------------------------- one fault at a time
async def duel(world, monkeypatch, *, start: bool = True) -> tuple[faults.FaultPlan, Any, Any, int]:
    """A Coup table of alice (to move first) and bob, with a fault plan that injects only what a test forces."""
    plan = faults.install(monkeypatch, faults.FaultPlan(seed="forced", enabled=False))
    world.bot.publisher.retry_delays = (0.02, 0.05, 0.1)
    alice, bob = world.members("alice", "bob")
    world.rig(first_seat=0)
    table_id = await world.seat(alice, bob, start=start)
    return plan, alice, bob, table_id


def version(world, table_id: int) -> int:
    state = world.table(table_id).state
    return -1 if state is None else state.version


def board_shows_now(world, table_id: int) -> bool:
    """Return whether the board message shows the table's state now (a board names no version).

    It does when its text is the one the bot would draw now: the status and the last log lines.
    """
    table = world.table(table_id)
    assert table.state is not None
    awaited = [
        a for s in sorted(table.engine.active_seats(table.state)) for a in table.engine.legal_actions(table.state, s)
    ]
    fresh = board_payload(table, list(world.bot.publisher.logs.get(table_id, ())), awaited_legal=awaited)
    shown: str | None = world.board(table_id).embeds[0].description
    return shown == fresh.embed.description


async def test_a_lost_acknowledgement_is_sent_again(world, monkeypatch):
    plan, alice, _bob, table_id = await duel(world, monkeypatch)
    plan.force("timeout_before", "POST", "/interactions/*/callback")

    result = await world.act(alice, table_id, TakeIncome())

    assert result.acknowledged and version(world, table_id) == 1
    assert [kind for kind, _method, _path in plan.log] == ["timeout_before"]


async def test_an_acknowledgement_that_arrived_is_not_repeated(world, monkeypatch):
    plan, alice, _bob, table_id = await duel(world, monkeypatch)
    plan.force("timeout_after", "POST", "/interactions/*/callback")

    result = await world.act(alice, table_id, TakeIncome())

    # The retry met "already acknowledged": delivered, nothing sent twice, nothing applied twice.
    assert result.acknowledged and not result.followups and version(world, table_id) == 1
    assert len(await world.bot.storage.action_log(table_id)) == 1


async def test_an_expired_click_keeps_its_move_and_the_board_shows_it(world, monkeypatch):
    plan, alice, _bob, table_id = await duel(world, monkeypatch)
    plan.force("expire", "POST", "/interactions/*/callback")

    result = await world.act(alice, table_id, TakeIncome())

    assert not result.acknowledged  # Discord allows no answer any more
    assert version(world, table_id) == 1
    assert version(world, table_id) == 1 and board_shows_now(world, table_id)


async def test_a_failed_board_edit_is_drawn_again(world, monkeypatch):
    plan, alice, _bob, table_id = await duel(world, monkeypatch)
    plan.force("timeout_before", "PATCH", "/channels/*/messages/*", times=2)

    await world.act(alice, table_id, TakeIncome())
    await world.env.settle()

    assert [kind for kind, _method, _path in plan.log] == ["timeout_before", "timeout_before"]
    assert version(world, table_id) == 1 and board_shows_now(world, table_id)


async def test_a_rule_error_after_a_lost_acknowledgement_reaches_the_clicker(world, monkeypatch):
    plan = faults.install(monkeypatch, faults.FaultPlan(seed="forced", enabled=False))
    alice = world.member("alice")
    table_id = await world.new_table(alice)
    plan.force("timeout_after", "POST", "/interactions/*/callback")

    result = await world.lobby_click(alice, table_id, "start")  # one player: too few to start

    texts = [m.content for m in result.followups if m.ephemeral]
    assert texts == [translate("en-US", "table.seat_count", min=2, max=6, have=1)]
    assert world.table(table_id).status == "lobby"


async def test_a_start_survives_a_lost_thread_and_welcome(world, monkeypatch):
    plan, alice, bob, table_id = await duel(world, monkeypatch, start=False)
    plan.force("timeout_after", "POST", "/channels/*/messages/*/threads")  # the thread exists, unknown to us
    plan.force("timeout_before", "POST", "/channels/*/messages")  # the welcome is lost

    result = await world.lobby_click(alice, table_id, "start")

    table = world.table(table_id)
    assert result.acknowledged and table.status == "active"
    assert table.thread_id == world.channel.id  # it plays in the channel
    players = Players(world, [alice, bob])
    await players.play_out(table_id)
    assert world.table(table_id).status == "finished"
