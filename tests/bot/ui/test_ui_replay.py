"""A game kept: the board's Log button, /history and the replay viewer, on SQLite and on PostgreSQL.

Every test here runs twice: on a SQLite file and on a fresh PostgreSQL database (the bot's
``settings`` and storage are chosen by the ``backend`` parameter).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from simcord.actors import MemberActor
from simcord.results import InteractionResult

from bot.errors import error_text
from bot.i18n import translate
from bot.presenters.registry import PRESENTERS
from bot.settings import Settings
from bot.storage import Storage
from bot.tables import TableService
from bot.ui.gamelog import step_lines
from bot.ui.replay import hands, log_entries, paginate, rebuild, replay_payload
from games.core import StaleActionError
from games.core.schema import load_state, state_schema
from games.coup.models import TakeIncome
from games.registry import ENGINES
from tests.bot.resilience.registry import discord_games
from tests.bot.test_tables import BOB, CAROL, HOST, FakeClock, RecordingPublisher, three_humans
from tests.bot.test_tables_state_schema import CoupEngineNext
from tests.support import World, button_rows, component_ids, embed_text, private_text, select_rows
from tests.support.postgres import temp_database

pytestmark = pytest.mark.asyncio


def en(key: str, **params: object) -> str:
    return translate("en", key, **params)


STALE = error_text(StaleActionError(), "en")


# ---------------------------------------------------------------------- both backends
@pytest_asyncio.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "bot.sqlite3")
        return
    async with temp_database() as url:
        yield url


@pytest.fixture
def settings(tmp_path: Path, database: str) -> Settings:
    postgres = database.startswith("postgresql://")
    return Settings(
        discord_token=None,
        database_path=str(tmp_path / "bot.sqlite3"),
        database_url=database if postgres else None,
        ai_delay_seconds=0,
        board_edit_interval=0,
        default_clock_seconds=60,
        # SimCord members click at machine speed (see tests/bot/conftest.py).
        click_burst=0,
        open_table_cooldown_seconds=0,
        _env_file=None,
    )


# ---------------------------------------------------------------------- helpers
class StateRecorder:
    """Records every state the table service stores, by table and version: the truth replays must match."""

    def __init__(self, storage: Storage) -> None:
        self.states: dict[int, dict[int, str]] = {}
        start, commit = storage.start_table, storage.commit_action

        async def start_table(table_id: int, **kwargs: Any) -> Any:
            result = await start(table_id, **kwargs)
            self.states.setdefault(table_id, {})[kwargs["version"]] = kwargs["state_json"]
            return result

        async def commit_action(
            table_id: int, expected_version: int, new_state_json: str, new_version: int, *args: Any, **kwargs: Any
        ) -> Any:
            result = await commit(table_id, expected_version, new_state_json, new_version, *args, **kwargs)
            self.states.setdefault(table_id, {})[new_version] = new_state_json
            return result

        storage.start_table = start_table  # type: ignore[method-assign]  # a recording wrapper of the real method
        storage.commit_action = commit_action  # type: ignore[method-assign]


async def coup_duel(world: World, *, finish: bool) -> tuple[MemberActor, MemberActor, int]:
    """alice and bob play Coup (a fixed seed); bob resigns when ``finish``, after some moves."""
    alice, bob = world.members("alice", "bob")
    world.rig(first_seat=0, seed="replay-duel")
    table_id = await world.seat(alice, bob)
    for _ in range(6):
        await world.play_step(table_id, [alice, bob])
    if finish:
        confirm = await world.table_button(bob, table_id, "resign")
        assert confirm.response is not None
        await bob.click(confirm.response, custom_id=f"tbl:{table_id}:resign_yes")
        row = await world.bot.storage.get_table(table_id)
        assert row is not None and row.status == "finished"
    return alice, bob, table_id


def log_text(result: InteractionResult) -> str:
    assert result.response is not None and result.ephemeral, private_text(result)
    return embed_text(result.response.embeds)


async def open_log(world: World, member: MemberActor, table_id: int) -> InteractionResult:
    return await member.click(world.board(table_id), custom_id=f"tbl:{table_id}:log")


# ---------------------------------------------------------------------- the board's log
async def test_the_board_log_leaves_out_filler(world: World) -> None:
    _alice, _bob, table_id = await coup_duel(world, finish=False)

    lines = list(world.bot.publisher.logs[table_id])

    assert lines, "the board shows a log"
    allow = en("coup.event.response_allowed", seat="alice").split("alice")[-1]
    assert not [line for line in lines if line.endswith(allow)]
    assert not [line for line in lines if line in {en("coup.event.turn_started", seat=n) for n in ("alice", "bob")}]


async def test_the_log_button_pages_the_public_log_while_the_game_runs(world: World) -> None:
    _alice, _bob, table_id = await coup_duel(world, finish=False)
    carol = world.member("carol")  # a spectator may read the public log too

    result = await open_log(world, carol, table_id)

    text = log_text(result)
    assert en("ui.log.live") in text
    assert "🔒" not in text  # no private event while the game runs
    table = world.table(table_id)
    dealt = [
        line
        for line in step_lines("coup", _deal_events(table), table.names(), "en", hidden=True)
        if line.startswith("🔒")
    ]
    assert len(dealt) == 2 and not any(line in text for line in dealt)  # each seat's hidden deal exists, unshown
    assert result.response is not None
    ids = component_ids(world.components(result.response))
    assert any(i.startswith(f"log:{table_id}:prev:") for i in ids)
    assert all(len(i) <= 100 for i in ids)


def _deal_events(table: Any) -> Sequence[Any]:
    engine = ENGINES[table.game]
    options = engine.options_type.model_validate(table.options.get("game", {}))
    return engine.setup(len(table.seats), options, table.seed).events


async def test_after_the_end_the_log_shows_every_hidden_card_and_pages_back_and_forth(world: World) -> None:
    alice, bob = world.members("alice", "bob")
    world.rig(first_seat=0, seed="replay-whole")
    table_id = await world.seat(alice, bob, ais=2)
    await world.play_out(table_id, [alice, bob])
    data = await world.bot.storage.replay_data(table_id)
    assert data is not None and data.table.status == "finished"
    pages = paginate(log_entries(rebuild(data), "en"))
    assert len(pages) > 2  # a whole four-player game fills pages

    result = await alice.click(world.board(table_id), custom_id=f"tbl:{table_id}:log")

    text = log_text(result)
    assert en("ui.log.finished") in text
    assert all(f"🔒 {name}" in text for name in ("alice", "bob", "AI 3", "AI 4"))  # every deal; AIs named for seats
    assert en("ui.log.page", page=1, pages=len(pages)) in text
    assert result.response is not None
    shown = result.response
    for page, nav in ((1, "next"), (2, "next"), (1, "prev")):
        moved = await alice.click(shown, custom_id=f"log:{table_id}:{nav}:{page}")
        assert moved.response is not None and moved.response.id == shown.id and not moved.followups
        assert en("ui.log.page", page=page + 1, pages=len(pages)) in embed_text(moved.response.embeds)
        assert pages[page] in (moved.response.embeds[0].description or "")
        shown = moved.response


async def test_a_forged_log_page_is_refused_and_another_servers_log_is_never_shown(
    world: World, make_world: Any
) -> None:
    alice, _bob, table_id = await coup_duel(world, finish=True)
    other = make_world()
    mallory = other.member("mallory")

    beyond = await alice.click(
        await world.forge(world.thread(table_id), button_rows(f"log:{table_id}:next:999")),
        custom_id=f"log:{table_id}:next:999",
    )
    foreign = await mallory.click(
        await other.forge(other.channel, button_rows(f"log:{table_id}:next:0")), custom_id=f"log:{table_id}:next:0"
    )

    assert private_text(beyond) == STALE
    assert private_text(foreign) == en("ui.replay.not_here")


# ---------------------------------------------------------------------- /history
async def test_history_lists_this_servers_finished_games_with_filters(world: World, make_world: Any) -> None:
    alice, bob, coup_id = await coup_duel(world, finish=True)
    carol = world.member("carol")
    other = make_world()
    olga, oleg = other.members("olga", "oleg")
    other.rig(first_seat=0)
    foreign_id = await other.seat(olga, oleg)
    confirm = await other.table_button(oleg, foreign_id, "resign")
    assert confirm.response is not None
    await oleg.click(confirm.response, custom_id=f"tbl:{foreign_id}:resign_yes")
    live_id = await world.seat(carol, world.member("dave"))

    everything = await carol.slash(world.channel, "history")
    only_masti = await carol.slash(world.channel, "history", game="masti")
    only_bob = await carol.slash(world.channel, "history", member=bob)
    only_carol = await carol.slash(world.channel, "history", member=carol)

    text = log_text(everything)
    assert f"#{coup_id}" in text and f"#{foreign_id}" not in text and f"#{live_id}" not in text
    assert f"1. {alice.mention}, 2. {bob.mention}" in text  # bob resigned: alice won
    assert everything.response is not None
    assert f"rpl:{coup_id}:{carol.id}:open:0" in component_ids(world.components(everything.response))
    assert en("ui.history.empty") in log_text(only_masti)
    assert f"#{coup_id}" in log_text(only_bob)
    assert en("ui.history.empty") in log_text(only_carol)
    olga_view = log_text(await olga.slash(other.channel, "history"))
    assert f"#{foreign_id}" in olga_view and f"#{coup_id}" not in olga_view


# ---------------------------------------------------------------------- the replay viewer
async def test_the_viewer_steps_through_a_finished_game_and_refuses_stale_and_foreign_clicks(world: World) -> None:
    recorder = StateRecorder(world.bot.storage)
    alice, _bob, table_id = await coup_duel(world, finish=True)
    states = recorder.states[table_id]
    total = max(states)
    carol = world.member("carol")

    opened = await alice.click(world.board(table_id), custom_id=f"tbl:{table_id}:replay")
    assert opened.response is not None and opened.ephemeral
    viewer = opened.response

    def shown_version(result: InteractionResult) -> int:
        # A move edits the viewer itself: no new message.
        assert result.response is not None and result.response.id == viewer.id and not result.followups
        message = world.env.backend.get_message(viewer.channel_id, viewer.id)
        footer = message.embeds[0]["footer"]["text"]
        return int(footer.rsplit("v", 1)[1])

    assert shown_version(opened) == 0
    for step in range(1, total + 1):  # ▶ through the whole game: each step is the stored state's version
        stepped = await alice.click(viewer, custom_id=f"rpl:{table_id}:{alice.id}:next:{step}")
        assert shown_version(stepped) == step
    first = await alice.click(viewer, custom_id=f"rpl:{table_id}:{alice.id}:first:0")
    assert shown_version(first) == 0
    last = await alice.click(viewer, custom_id=f"rpl:{table_id}:{alice.id}:last:{total}")
    assert shown_version(last) == total
    message = world.env.backend.get_message(viewer.channel_id, viewer.id)
    hands = " ".join(f["value"] for f in message.embeds[0]["fields"])
    assert "alice" in " ".join(f["name"] for f in message.embeds[0]["fields"]) and hands
    jump = await alice.select(viewer, ["0"], custom_id=f"rpls:{table_id}:{alice.id}:jump")
    assert shown_version(jump) == 0
    export = await alice.click(viewer, custom_id=f"rpl:{table_id}:{alice.id}:txt:0")
    assert export.response is not None and export.ephemeral and export.response.attachments

    before = world.env.backend.get_message(viewer.channel_id, viewer.id).embeds
    # Only alice sees her viewer; its buttons on a message carol can see (a forged copy) stay alice's.
    copy = await world.forge(world.thread(table_id), world.components(viewer))
    foreign = await carol.click(copy, custom_id=f"rpl:{table_id}:{alice.id}:next:1")
    foreign_jump = await carol.select(copy, ["0"], custom_id=f"rpls:{table_id}:{alice.id}:jump")
    beyond = f"rpl:{table_id}:{alice.id}:next:{total + 1}"  # a step the game never had (a damaged id)
    stale = await alice.click(await world.forge(world.thread(table_id), button_rows(beyond)), custom_id=beyond)
    jump_id = f"rpls:{table_id}:{alice.id}:jump"
    forged = await world.forge(world.thread(table_id), select_rows(jump_id, str(total + 5)))
    forged_jump = await alice.select(forged, [str(total + 5)], custom_id=jump_id)

    assert foreign.ephemeral and private_text(foreign) == en("ui.replay.not_yours")
    assert foreign_jump.ephemeral and private_text(foreign_jump) == en("ui.replay.not_yours")
    assert stale.ephemeral and private_text(stale) == STALE
    assert forged_jump.ephemeral and private_text(forged_jump) == STALE
    assert world.env.backend.get_message(viewer.channel_id, viewer.id).embeds == before


async def test_no_replay_of_a_game_still_running(world: World) -> None:
    alice, _bob, table_id = await coup_duel(world, finish=False)

    forged = await world.forge(world.thread(table_id), button_rows(f"rpl:{table_id}:{alice.id}:open:0"))
    result = await alice.click(forged, custom_id=f"rpl:{table_id}:{alice.id}:open:0")

    assert private_text(result) == en("ui.replay.not_finished")


@pytest.mark.parametrize("game", discord_games())
async def test_every_replayed_step_equals_the_state_the_table_had(world: World, game: str) -> None:
    recorder = StateRecorder(world.bot.storage)
    alice = world.member("alice")
    engine = ENGINES[game]
    low = engine.min_seats
    table_id = await world.seat(alice, game=game, ais=max(1, low - 1))
    await world.play_out(table_id, [alice], max_steps=3_000)
    row = await world.bot.storage.get_table(table_id)
    assert row is not None and row.status == "finished"

    await world.restart()  # replays of games stored by an earlier process work all the same
    record = await world.bot.replays.record(table_id, world.guild.id)

    stored = recorder.states[table_id]
    assert [step.state.version for step in record.steps] == sorted(stored)
    for step in record.steps:
        assert json.loads(step.state.model_dump_json()) == json.loads(stored[step.state.version])
    assert record.steps[-1].state.model_dump_json() == row.state
    # The viewer's jumps: rounds (or turns) in order, each at the step its start event was reported in.
    marks = record.marks()
    assert marks and [number for _kind, number, _step in marks] == list(range(1, len(marks) + 1))
    assert all(any(e.kind == f"{kind}_started" for e in record.steps[at].events) for kind, _n, at in marks)
    if world.bot.storage.dialect != "sqlite":
        return  # the states are equal, so what is drawn from them is too: checked once, on SQLite
    # What the viewer lists at every step is what each seat saw of the stored state then.
    presenter = PRESENTERS[game]
    names = list(record.names)
    for index, step in enumerate(record.steps):
        truth = load_state(engine, stored[step.state.version], state_schema(engine))
        seen = [presenter.private_summary(engine.view(truth, seat), names, "en") for seat in range(len(names))]
        assert [summary for _name, summary in hands(record, index, "en")] == [
            text[: 3600 // len(names)] for text in seen
        ]


async def test_a_game_stored_before_an_upgrade_of_its_state_schema_replays(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = await Storage.open(database)
    try:
        old = TableService(storage, RecordingPublisher(), ai_delay=0, time_fn=FakeClock(), run_clocks=False)
        table = await three_humans(old)
        await old.act(table.id, HOST, table.prompt_version, TakeIncome())
        await old.resign(table.id, BOB)
        await old.resign(table.id, CAROL)
        await old.close()
        row = await storage.get_table(table.id)
        assert row is not None and row.status == "finished" and row.state_schema == 0 and row.state is not None

        monkeypatch.setitem(ENGINES, "coup", CoupEngineNext())  # the release that changed the state model
        data = await storage.replay_data(table.id)
        assert data is not None
        record = rebuild(data)

        assert [step.state.version for step in record.steps] == list(range(row.version + 1))
        assert record.steps[-1].state.model_dump(mode="json") == json.loads(row.state)
        for step in range(len(record.steps)):  # the viewer draws every step
            embed, _view, png = replay_payload(record, step, HOST, "ru")
            assert png and embed.footer.text == f"#{table.id} · v{step}"
    finally:
        await storage.close()
