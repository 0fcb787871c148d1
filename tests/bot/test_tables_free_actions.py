"""Free actions: a game may accept some actions from any seat at any moment (a payment in a deal)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import pytest
import pytest_asyncio
from pydantic import BaseModel, TypeAdapter

from bot.storage import Storage
from bot.tables import TableError, TableService, replay
from games.core import GameError, IllegalActionError, NotYourTurnError
from games.core.models import BaseState, Event, Model, Outcome, Seat, Step
from games.registry import ENGINES
from tests.bot.test_tables import FakeClock, RecordingPublisher

pytestmark = pytest.mark.asyncio

HOST, BOB = 101, 102


class Count(Model):
    """The seat to move says the next number."""

    kind: Literal["count"] = "count"


class Tip(Model):
    """Give coins to another seat; allowed at any moment."""

    kind: Literal["tip"] = "tip"
    to: Seat
    amount: int


class TipState(BaseState):
    turn: Seat = 0
    counted: int = 0
    coins: tuple[int, ...] = ()


class TipOptions(Model):
    pass


class TipEngine:
    """Two seats count to four in turn; either may tip the other between counts."""

    name: ClassVar[str] = "tipjar"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    shuffle_seats: ClassVar[bool] = False
    state_type = TipState
    options_type = TipOptions
    action_adapter: TypeAdapter[Any] = TypeAdapter(Count | Tip)

    def setup(self, num_seats: int, options: BaseModel, seed: str) -> Step[TipState]:
        return Step(TipState(seed=seed, num_seats=num_seats, coins=(5,) * num_seats), ())

    def active_seats(self, state: TipState) -> frozenset[Seat]:
        return frozenset() if state.counted >= 4 else frozenset({state.turn})

    def legal_actions(self, state: TipState, seat: Seat) -> list[Any]:
        return [Count()] if seat in self.active_seats(state) else []

    def free_actions(self, state: TipState, seat: Seat) -> list[Any]:
        if state.counted >= 4 or state.coins[seat] == 0:
            return []
        return [Tip(to=1 - seat, amount=1)]

    def apply(self, state: TipState, seat: Seat, action: Any) -> Step[TipState]:
        if isinstance(action, Tip):
            if state.counted >= 4 or not 1 <= action.amount <= state.coins[seat] or action.to == seat:
                raise IllegalActionError
            coins = list(state.coins)
            coins[seat] -= action.amount
            coins[action.to] += action.amount
            new = state.model_copy(update={"coins": tuple(coins), "version": state.version + 1})
            return Step(new, (Event(kind="tipped"),))
        if seat not in self.active_seats(state):
            raise NotYourTurnError
        new = state.model_copy(
            update={"turn": 1 - state.turn, "counted": state.counted + 1, "version": state.version + 1}
        )
        return Step(new, (Event(kind="counted"),))

    def view(self, state: TipState, seat: Seat | None) -> BaseModel:
        return state

    def default_action(self, state: TipState, seat: Seat) -> Any:
        return Count()

    def outcome(self, state: TipState) -> Outcome | None:
        if state.counted < 4:
            return None
        return Outcome(ranks=(0, 0), scores=tuple(float(c) for c in state.coins))

    def resign(self, state: TipState, seat: Seat) -> Step[TipState]:
        return Step(state.model_copy(update={"counted": 4, "version": state.version + 1}), ())


@pytest_asyncio.fixture
async def service(tmp_path, monkeypatch):
    monkeypatch.setitem(ENGINES, "tipjar", TipEngine())
    storage = await Storage.open(tmp_path / "t.sqlite3")
    svc = TableService(storage, RecordingPublisher(), ai_delay=0, time_fn=FakeClock(), run_clocks=False)
    yield svc
    await svc.close()
    await storage.close()


async def _started(service: TableService) -> int:
    table = await service.create_lobby(
        guild_id=1, channel_id=2, game="tipjar", host_id=HOST, host_name="H", options={}, locale="en"
    )
    await service.join(table.id, BOB, "B")
    await service.start(table.id, HOST)
    return table.id


async def test_a_free_action_from_a_waiting_seat_keeps_the_prompt_and_its_clock(service) -> None:
    table_id = await _started(service)
    table = await service.get(table_id)
    prompt, deadline = table.prompt_version, table.deadline
    assert service.free_for(table, 1) == [Tip(to=0, amount=1)]

    await service.act_free(table_id, BOB, Tip(to=0, amount=3))

    assert table.state is not None and table.state.coins == (8, 2)
    assert (table.prompt_version, table.deadline) == (prompt, deadline)
    # The seat to move still answers the same prompt with its old buttons.
    await service.act(table_id, HOST, prompt, Count())
    assert table.state.counted == 1
    replayed = await replay(service.storage, table_id)
    assert replayed == table.state


async def test_an_invalid_free_action_changes_nothing(service) -> None:
    table_id = await _started(service)
    table = await service.get(table_id)
    before = table.state
    with pytest.raises(GameError):
        await service.act_free(table_id, BOB, Tip(to=0, amount=6))
    with pytest.raises(TableError) as stranger:
        await service.act_free(table_id, 999, Tip(to=0, amount=1))
    assert stranger.value.code == "table.not_seated"
    assert table.state == before


async def test_games_without_free_actions_refuse_them(service, monkeypatch) -> None:
    table_id = await _started(service)
    table = await service.get(table_id)
    monkeypatch.delattr(TipEngine, "free_actions")
    assert service.free_for(table, 1) == []
    with pytest.raises(TableError) as refused:
        await service.act_free(table_id, BOB, Tip(to=0, amount=1))
    assert refused.value.code == "table.not_your_turn"
