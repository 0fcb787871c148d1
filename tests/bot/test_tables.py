"""The table service without Discord: lobby rules, prompts, clocks, autopilot, replay, restart."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import pytest
import pytest_asyncio

from bot.storage import ArchiveRow, Storage
from bot.tables import (
    DEFAULT_REACTION_SECONDS,
    RESTART_GRACE_SECONDS,
    Table,
    TableError,
    TableResult,
    TableService,
    replay,
)
from games.core import Event, GameError, StaleActionError
from games.coup.engine import stacked_deck
from games.coup.models import (
    Allow,
    Card,
    Challenge,
    CollectTax,
    Phase,
    ProveClaim,
    TakeForeignAid,
    TakeIncome,
)
from games.coup.state import CoupState

pytestmark = pytest.mark.asyncio

HOST, BOB, CAROL = 101, 102, 103


class RecordingPublisher:
    """Remembers what the service announced."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.finished: list[TableResult] = []
        self.started: list[int] = []
        self.cancelled: list[int] = []
        self.quarantined: list[int] = []
        self.archived: list[int] = []

    def lobby_changed(self, table: Table) -> None:
        pass

    def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        self.events.extend(events)

    async def game_started(self, table: Table) -> None:
        self.started.append(table.id)

    async def game_finished(self, table: Table, result: TableResult) -> None:
        self.finished.append(result)

    async def table_cancelled(self, table: Table, by_user: int | None) -> None:
        self.cancelled.append(table.id)

    async def table_quarantined(self, table: Table) -> bool:
        self.quarantined.append(table.id)
        return True

    async def archive_thread(self, archive: ArchiveRow) -> bool:
        self.archived.append(archive.thread_id)
        return True


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest_asyncio.fixture
async def service(tmp_path, clock):
    storage = await Storage.open(tmp_path / "t.sqlite3")
    svc = TableService(storage, RecordingPublisher(), ai_delay=0, time_fn=clock, run_clocks=False)
    yield svc
    await svc.close()
    await storage.close()


def deck() -> list[str]:
    # Seat 0: Duke + Contessa, seat 1: Captain + Captain, seat 2: Assassin + Ambassador.
    return [
        c.value
        for c in stacked_deck(
            [(Card.DUKE, Card.CONTESSA), (Card.CAPTAIN, Card.CAPTAIN), (Card.ASSASSIN, Card.AMBASSADOR)], ()
        )
    ]


async def three_humans(service: TableService, *, clock_seconds: int = 60) -> Table:
    table = await service.create_lobby(
        guild_id=1,
        channel_id=2,
        game="coup",
        host_id=HOST,
        host_name="Наташа",
        options={"clock": clock_seconds, "game": {"first_seat": 0, "deck": deck()}},
        locale="ru",
        seed="fixed",
    )
    await service.join(table.id, BOB, "Саша")
    await service.join(table.id, CAROL, "Гриша")
    return await service.start(table.id, HOST)


async def wait_until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Let background tasks (timers, AI moves, storage threads) run until ``condition`` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, "condition not reached in time"
        await asyncio.sleep(0.005)


def state(table: Table) -> CoupState:
    assert isinstance(table.state, CoupState)
    return table.state


async def test_lobby_rules(service: TableService) -> None:
    table = await service.create_lobby(
        guild_id=1, channel_id=2, game="coup", host_id=HOST, host_name="H", options={}, locale="ru"
    )
    with pytest.raises(TableError) as joined_twice:
        await service.join(table.id, HOST, "H")
    assert joined_twice.value.code == "table.already_joined"
    with pytest.raises(TableError) as too_few:
        await service.start(table.id, HOST)
    assert too_few.value.code == "table.seat_count"
    with pytest.raises(TableError) as not_host:
        await service.add_ai(table.id, BOB, "AI")
    assert not_host.value.code == "table.host_only"
    for n in range(5):
        await service.add_ai(table.id, HOST, f"AI {n}")
    with pytest.raises(TableError) as full:
        await service.join(table.id, BOB, "B")
    assert full.value.code == "table.full"
    await service.remove_ai(table.id, HOST)
    await service.join(table.id, BOB, "B")
    assert [s.seat for s in table.seats] == list(range(6))
    with pytest.raises(TableError) as bob_starts:
        await service.start(table.id, BOB)
    assert bob_starts.value.code == "table.host_only"


async def test_a_window_accepts_every_answer_to_one_prompt(service: TableService) -> None:
    table = await three_humans(service)
    prompt = table.prompt_version
    await service.act(table.id, HOST, prompt, TakeForeignAid())
    window = table.prompt_version
    assert state(table).phase is Phase.RESPOND_ACTION
    deadline = table.deadline
    await service.act(table.id, BOB, window, Allow())
    # Carol answers the same window with the button she already had: accepted, same deadline.
    assert table.prompt_version == window
    assert table.deadline == deadline
    await service.act(table.id, CAROL, window, Allow())
    assert state(table).phase is Phase.DECLARE
    assert state(table).coins[0] == 4
    # A click on the finished window is out of date and changes nothing.
    version = state(table).version
    with pytest.raises(StaleActionError):
        await service.act(table.id, BOB, window, Allow())
    assert state(table).version == version


async def test_double_click_applies_once(service: TableService) -> None:
    table = await three_humans(service)
    prompt = table.prompt_version
    results = await asyncio.gather(
        service.act(table.id, HOST, prompt, TakeIncome()),
        service.act(table.id, HOST, prompt, TakeIncome()),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Table) for r in results) == 1
    assert state(table).coins[0] == 3
    assert state(table).version == 1


async def test_bad_input_changes_nothing(service: TableService) -> None:
    table = await three_humans(service)
    before = state(table)
    with pytest.raises(TableError) as out_of_turn:
        await service.act(table.id, BOB, table.prompt_version, TakeIncome())
    assert out_of_turn.value.code == "table.not_your_turn"
    with pytest.raises(TableError) as stranger:
        await service.act(table.id, 999, table.prompt_version, TakeIncome())
    assert stranger.value.code == "table.not_seated"
    with pytest.raises(TableError) as foreign:
        await service.act(table.id + 50, HOST, 0, TakeIncome())
    assert foreign.value.code == "table.not_found"
    with pytest.raises(StaleActionError):
        await service.act(table.id, HOST, table.prompt_version + 7, TakeIncome())
    assert state(table) == before
    stored = await service.storage.get_table(table.id)
    assert stored is not None
    assert stored.version == before.version


async def test_clock_applies_defaults_then_autopilot_then_back(service: TableService, clock: FakeClock) -> None:
    table = await three_humans(service)
    # Host times out twice on declare → Income both times, then the seat is on autopilot.
    await service.on_clock(table.id, table.prompt_version)
    assert state(table).coins[0] == 3
    assert table.seats[0].timeouts_in_row == 1
    # Bob and Carol answer for themselves; their counters stay at zero.
    await service.act(table.id, BOB, table.prompt_version, TakeIncome())
    await service.act(table.id, CAROL, table.prompt_version, TakeIncome())
    await service.on_clock(table.id, table.prompt_version)
    assert table.seats[0].autopilot
    seats = await service.storage.seats(table.id)
    assert seats[0].autopilot
    with pytest.raises(TableError):
        await service.im_back(table.id, BOB)
    await service.im_back(table.id, HOST)
    assert not table.seats[0].autopilot
    assert table.seats[0].timeouts_in_row == 0


async def test_a_stale_clock_does_nothing(service: TableService) -> None:
    table = await three_humans(service)
    old = table.prompt_version
    await service.act(table.id, HOST, old, TakeIncome())
    version = state(table).version
    await service.on_clock(table.id, old)
    assert state(table).version == version


async def test_a_window_clock_allows_for_everyone_silent(service: TableService) -> None:
    table = await three_humans(service)
    await service.act(table.id, HOST, table.prompt_version, CollectTax())
    await service.on_clock(table.id, table.prompt_version)
    assert state(table).phase is Phase.DECLARE
    assert state(table).coins[0] == 5


async def test_log_replays_to_the_stored_state(service: TableService) -> None:
    table = await three_humans(service)
    await service.act(table.id, HOST, table.prompt_version, CollectTax())
    await service.act(table.id, BOB, table.prompt_version, Challenge())
    await service.act(table.id, HOST, table.prompt_version, ProveClaim())
    # Bob lost the challenge and must reveal a card; let his clock choose.
    await service.on_clock(table.id, table.prompt_version)
    await service.resign(table.id, CAROL)
    stored = await service.storage.get_table(table.id)
    assert stored is not None and stored.state is not None
    rebuilt = await replay(service.storage, table.id)
    assert rebuilt is not None
    assert rebuilt.model_dump_json() == stored.state
    from_snapshot = await replay(service.storage, table.id, from_snapshot=True)
    assert from_snapshot is not None
    assert from_snapshot.model_dump_json() == stored.state


async def test_restart_restores_tables_prompts_and_clocks(tmp_path, clock: FakeClock) -> None:
    path = tmp_path / "restart.sqlite3"
    storage = await Storage.open(path)
    first = TableService(storage, RecordingPublisher(), ai_delay=0, time_fn=clock, run_clocks=False)
    table = await three_humans(first, clock_seconds=30)
    await first.act(table.id, HOST, table.prompt_version, TakeForeignAid())
    await first.act(table.id, BOB, table.prompt_version, Allow())
    prompt, deadline = table.prompt_version, table.deadline
    assert deadline is not None
    await first.close()
    await storage.close()

    clock.now += 3600  # the bot was down for an hour: the clock ran out meanwhile
    storage = await Storage.open(path)
    second = TableService(storage, RecordingPublisher(), ai_delay=0, time_fn=clock, run_clocks=False)
    assert await second.restore() == 1
    again = second.tables[table.id]
    assert again.prompt_version == prompt
    assert again.deadline == clock.now + RESTART_GRACE_SECONDS
    assert state(again) == state(table)
    # Carol's old button still answers the same prompt.
    await second.act(table.id, CAROL, prompt, Allow())
    assert state(again).coins[0] == 4
    await second.close()
    await storage.close()


async def test_real_timers_fire(tmp_path, clock: FakeClock) -> None:
    storage = await Storage.open(tmp_path / "timers.sqlite3")
    svc = TableService(storage, RecordingPublisher(), ai_delay=0, time_fn=clock, run_clocks=True)
    table = await three_humans(svc, clock_seconds=60)
    clock.now += 60
    svc._arm_clock(table)  # re-arm against the moved fake clock: fires at once
    await wait_until(lambda: state(table).version == 1)
    assert state(table).version == 1
    assert state(table).coins[0] == 3
    await svc.close()
    await storage.close()


async def test_all_ai_table_plays_to_the_end_and_is_unrated(service: TableService) -> None:
    table = await service.create_lobby(
        guild_id=1, channel_id=2, game="coup", host_id=HOST, host_name="H", options={}, locale="en", seat_host=False
    )
    for n in range(4):
        await service.add_ai(table.id, HOST, f"AI {n}")
    await service.start(table.id, HOST)
    await wait_until(lambda: table.status == "finished")
    publisher = service.publisher
    assert isinstance(publisher, RecordingPublisher)
    await wait_until(lambda: bool(publisher.finished))
    assert publisher.finished and publisher.finished[0].rating_changes == ()
    assert table.id not in service.tables
    rebuilt = await replay(service.storage, table.id)
    assert rebuilt == table.state


async def test_humans_finishing_are_rated(service: TableService) -> None:
    table = await three_humans(service)
    # Everyone but the host resigns: the host wins, two humans lose.
    await service.resign(table.id, BOB)
    await service.resign(table.id, CAROL)
    assert table.status == "finished"
    publisher = service.publisher
    assert isinstance(publisher, RecordingPublisher)
    await wait_until(lambda: bool(publisher.finished))
    changes = {c.user_id: c for c in publisher.finished[0].rating_changes}
    assert set(changes) == {HOST, BOB, CAROL}
    # Carol resigned last, so she ranks above Bob.
    assert changes[HOST].mu_after > changes[HOST].mu_before
    assert changes[BOB].mu_after < changes[BOB].mu_before
    assert changes[HOST].ordinal_delta > changes[CAROL].ordinal_delta > changes[BOB].ordinal_delta
    board = await service.storage.leaderboard(1, "coup", limit=5)
    assert board[0].user_id == HOST
    with pytest.raises(TableError) as finished:
        await service.act(table.id, HOST, 0, TakeIncome())
    assert finished.value.code == "table.finished"


async def test_cancel_needs_host_or_moderator(service: TableService) -> None:
    table = await three_humans(service)
    with pytest.raises(TableError):
        await service.cancel(table.id, BOB, is_moderator=False)
    await service.cancel(table.id, BOB, is_moderator=True)
    assert table.status == "cancelled"
    with pytest.raises(TableError) as closed:
        await service.act(table.id, HOST, 0, TakeIncome())
    assert closed.value.code == "table.closed"


async def test_a_late_challenge_is_told_the_claim_is_already_challenged(service: TableService) -> None:
    table = await three_humans(service)
    await service.act(table.id, HOST, table.prompt_version, CollectTax())
    window = table.prompt_version
    await service.act(table.id, BOB, window, Challenge())
    with pytest.raises(GameError) as late:
        await service.act(table.id, CAROL, window, Challenge())
    assert late.value.code == "coup.already_challenged"
    with pytest.raises(StaleActionError):
        await service.act(table.id, CAROL, window, Allow())


async def test_a_chosen_grid_narrows_the_lobby(service) -> None:
    table = await service.create_lobby(
        guild_id=1,
        channel_id=2,
        game="cadwallon",
        host_id=HOST,
        host_name="H",
        options={"game": {"grid": 3}},
        locale="en",
    )
    assert table.seat_range() == (2, 4)
    for n in range(3):
        await service.add_ai(table.id, HOST, f"AI {n}")
    with pytest.raises(TableError) as full:
        await service.join(table.id, BOB, "B")
    assert full.value.code == "table.full"
    assert full.value.params["max"] == 4


async def intrigue_table(service: TableService, options: dict[str, object]) -> Table:
    table = await service.create_lobby(
        guild_id=1, channel_id=2, game="intrigue", host_id=HOST, host_name="H", options=options, locale="ru"
    )
    await service.join(table.id, BOB, "B")
    return await service.start(table.id, HOST)


async def test_a_table_keeping_the_rules_clocks_arms_each_decisions_own(service: TableService, clock) -> None:
    by_decision = await intrigue_table(service, {"clock": 90, "clock_by_decision": True, "game": {}})
    fixed = await intrigue_table(service, {"clock": 90, "game": {}})
    engine = by_decision.engine
    seen: set[int] = set()
    fixed_seen: set[int] = set()
    for _ in range(40):
        state = by_decision.state
        assert state is not None
        seconds = engine.decision_seconds(state)  # type: ignore[attr-defined]
        assert by_decision.deadline == clock.now + seconds
        seen.add(seconds)
        # One length for every decision, but a window (a reaction) gets the short reaction clock.
        assert fixed.state is not None and fixed.deadline is not None
        window = fixed.is_reaction(fixed.state)
        assert fixed.deadline == clock.now + (DEFAULT_REACTION_SECONDS if window else 90)
        fixed_seen.add(int(fixed.deadline - clock.now))
        for table in (by_decision, fixed):
            assert table.state is not None
            seat = min(engine.active_seats(table.state))
            user = table.seats[seat].user_id
            assert user is not None
            await service.act(table.id, user, table.prompt_version, engine.default_action(table.state, seat))
    assert {120, 45} <= seen  # placement, then a window
    assert fixed_seen == {90, DEFAULT_REACTION_SECONDS}


async def test_a_game_with_its_own_away_rule_keeps_it(service: TableService) -> None:
    # The service hands a seat to the AI after 2 timeouts; «Интриги» says 3 (§3.4).
    assert service.timeouts_before_autopilot == 2
    table = await intrigue_table(service, {"clock": 90, "game": {}})
    assert table.timeouts_before_away(service.timeouts_before_autopilot) == 3
    for _ in range(12):
        await service.on_clock(table.id, table.prompt_version)
        for seat in table.seats:
            assert seat.autopilot == (seat.timeouts_in_row >= 3), seat
        if any(seat.autopilot for seat in table.seats):
            break
    assert any(seat.autopilot for seat in table.seats)
    coup = await three_humans(service)
    assert coup.timeouts_before_away(service.timeouts_before_autopilot) == 2


class SlowStartPublisher(RecordingPublisher):
    """Opens a table's thread slowly, and records the order of what it shows."""

    def __init__(self) -> None:
        super().__init__()
        self.shown: list[str] = []
        self.thread_opening = asyncio.Event()
        self.release = asyncio.Event()

    async def game_started(self, table: Table) -> None:
        self.thread_opening.set()
        await self.release.wait()  # Discord takes its time to create the thread
        self.shown.append(f"started:{table.status}")

    async def table_cancelled(self, table: Table, by_user: int | None) -> None:
        self.shown.append("cancelled")


async def test_a_cancel_during_start_waits_for_the_thread_and_is_never_overtaken(tmp_path, clock) -> None:
    publisher = SlowStartPublisher()
    storage = await Storage.open(tmp_path / "race.sqlite3")
    service = TableService(storage, publisher, ai_delay=0, time_fn=clock, run_clocks=False)
    try:
        table = await service.create_lobby(
            guild_id=1, channel_id=2, game="coup", host_id=HOST, host_name="host", options={}, locale="en"
        )
        await service.join(table.id, BOB, "bob")
        start = asyncio.create_task(service.start(table.id, HOST))
        await publisher.thread_opening.wait()
        cancel = asyncio.create_task(service.cancel(table.id, HOST, is_moderator=False))
        for _ in range(20):
            await asyncio.sleep(0)
        # The cancel waits for the start: the table is not closed under a thread being opened.
        assert not cancel.done() and table.status == "active" and publisher.shown == []
        publisher.release.set()
        await asyncio.gather(start, cancel)
        assert publisher.shown == ["started:active", "cancelled"]
        assert table.status == "cancelled"
        row = await storage.get_table(table.id)
        assert row is not None and row.status == "cancelled"
    finally:
        await service.close()
        await storage.close()


async def test_a_cancel_before_start_makes_start_refuse(tmp_path, clock) -> None:
    publisher = SlowStartPublisher()
    publisher.release.set()
    storage = await Storage.open(tmp_path / "race2.sqlite3")
    service = TableService(storage, publisher, ai_delay=0, time_fn=clock, run_clocks=False)
    try:
        table = await service.create_lobby(
            guild_id=1, channel_id=2, game="coup", host_id=HOST, host_name="host", options={}, locale="en"
        )
        await service.join(table.id, BOB, "bob")
        results = await asyncio.gather(
            service.cancel(table.id, HOST, is_moderator=False), service.start(table.id, HOST), return_exceptions=True
        )
        assert isinstance(results[1], TableError) and results[1].code == "table.closed"
        assert publisher.shown == ["cancelled"]
    finally:
        await service.close()
        await storage.close()


async def test_the_host_may_end_a_game_only_until_its_first_move(service: TableService) -> None:
    table = await three_humans(service)
    await service.act(table.id, HOST, table.prompt_version, TakeIncome())
    with pytest.raises(TableError) as refused:
        await service.cancel(table.id, HOST, is_moderator=False)
    assert refused.value.code == "table.end_needs_agreement" and table.status == "active"
    await service.resign(table.id, HOST)
    with pytest.raises(TableError) as after_resigning:
        await service.cancel(table.id, HOST, is_moderator=False)
    assert after_resigning.value.code == "table.end_needs_agreement"


async def test_agreements_to_end_lapse_after_ten_minutes(service: TableService, clock: FakeClock) -> None:
    table = await three_humans(service)
    await service.act(table.id, HOST, table.prompt_version, TakeIncome())
    assert (await service.vote_end(table.id, HOST))[1:] == (1, 3)
    assert (await service.vote_end(table.id, BOB))[1:] == (2, 3)
    clock.now += 601
    assert (await service.vote_end(table.id, CAROL))[1:] == (1, 3)  # the earlier ones lapsed
    assert table.status == "active"
    await service.vote_end(table.id, HOST)
    await service.vote_end(table.id, BOB)
    assert table.status == "cancelled" and await service.storage.results(table.id) == []


async def test_ai_seats_are_renamed_after_their_shuffled_seats(service: TableService) -> None:
    """Масти shuffles the seats: every lobby-numbered AI takes its seat's number, stored too; custom names stay."""
    table = await service.create_lobby(
        guild_id=1,
        channel_id=2,
        game="masti",
        host_id=HOST,
        host_name="Наташа",
        options={"first_player": {"ai_name": "ИИ 2"}},
        locale="ru",
        seed="shuffle-ai-names",
    )
    for n in (1, 2):
        await service.add_ai(table.id, HOST, f"ИИ {n}")
    await service.add_ai(table.id, HOST, "Робот Фёдор")
    lobby_ai_2 = next(s for s in table.seats if s.name == "ИИ 2")
    table = await service.start(table.id, HOST)
    # The seed shuffles the lobby order (else this test would not test the renaming).
    assert [s.position for s in table.seats] != sorted(s.position for s in table.seats)
    for seat in table.seats:
        if seat.is_ai and seat.name != "Робот Фёдор":
            assert seat.name == f"ИИ {seat.seat + 1}"
    assert {s.name for s in table.seats} >= {"Наташа", "Робот Фёдор"}
    stored = {row.seat: row.display_name for row in await service.storage.seats(table.id)}
    assert stored == {s.seat: s.name for s in table.seats}
    # The rematch's first player was the AI called "ИИ 2" in the lobby, matched before the renaming.
    assert table.options["game"]["first_seat"] == lobby_ai_2.seat
