"""Humans who play through whatever Discord shows them, even when Discord misbehaves; SimCord upkeep.

:class:`tests.support.World` plays as a perfect client: every click is answered. Under injected
faults a board edit may be late or a panel may never arrive, so these players look at the messages
as Discord stores them now, click what they would click, and simply try again on the next step
when nothing happened — as a person would. Each click is recorded with what came of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from simcord.actors import MemberActor
from simcord.builders import ChannelHandle
from simcord.results import InteractionResult

from bot.tables import Table, choose_ai_action
from tests.support import World, button_rows, find_action


def prune_timers(world: World) -> None:
    """Drop timers that can no longer matter from SimCord's bookkeeping, so each settle stays cheap.

    SimCord scans every timer it tracks on each settle. Two kinds pile up in a long run: cancelled
    timers (the table service re-arms a table's clock on every move; SimCord forgets a timer only
    when it fires) and the 15-minute expiry discord.py gives the view of every private message
    (the views hold only ``DynamicItem`` s, which stay registered either way). With thousands of
    clicks, each would cost a scan of thousands of them.
    """
    work = world.env._work
    live = []
    for record in work.callbacks:
        if record.handle is not None and record.handle.cancelled():
            if record.real_handle is not None:
                record.real_handle.cancel()
            continue
        live.append(record)
    work.callbacks[:] = live
    for task in list(work.tasks):
        coro = task.get_coro()
        if not task.done() and getattr(coro, "__qualname__", "") == "BaseView.__timeout_task_impl":
            task.cancel()


async def play_out(world: World, table_id: int, people: Sequence[MemberActor], *, max_steps: int = 3_000) -> None:
    """:meth:`World.play_out`, dropping dead timers from SimCord's books as it goes (see :func:`prune_timers`)."""
    for _ in range(max_steps):
        prune_timers(world)
        table = world.service.tables.get(table_id)
        if table is None or table.status != "active":
            return
        if not await world.play_step(table_id, people):
            await world.env.settle()
    raise AssertionError(f"table {table_id} did not finish in {max_steps} steps")


@dataclass
class Click:
    """One interaction a player sent and what came of it."""

    user_id: int
    custom_id: str
    interaction_id: int
    acknowledged: bool
    private_text: str
    version_before: int
    version_after: int


@dataclass
class Players:
    """The humans of one world; they answer whatever a table waits them for."""

    world: World
    people: Sequence[MemberActor]
    clicks: list[Click] = field(default_factory=list)

    def member(self, user_id: int | None) -> MemberActor:
        return next(m for m in self.people if m.id == user_id)

    def live(self, table_id: int) -> Table | None:
        table = self.world.service.tables.get(table_id)
        return table if table is not None and table.status == "active" else None

    def place(self, table: Table) -> ChannelHandle:
        """Return where the table plays: its thread, or the channel when opening the thread failed."""
        if table.thread_id == self.world.channel.id:
            return self.world.channel
        return self.world.thread(table.id)

    def board_rows(self, table: Table) -> tuple[Any, list[dict[str, Any]]] | None:
        """Return the board message as Discord holds it now, and its component rows."""
        if table.board_message_id is None or table.thread_id is None:
            return None
        backend = self.world.env.backend
        try:
            stored = backend.get_message(table.thread_id, table.board_message_id)
        except Exception:
            return None
        message = self.world.message(self.place(table), stored.id)
        return message, stored.components

    async def step(self, table_id: int) -> bool:
        """Let one awaited human act; return False when the table waits for no human."""
        table = self.live(table_id)
        if table is None or table.state is None:
            return False
        state = table.state
        humans = [s for s in sorted(table.engine.active_seats(state)) if not table.seats[s].ai_controlled]
        if not humans:
            return False
        seat = humans[0]
        member = self.member(table.seats[seat].user_id)
        action = choose_ai_action(table.engine, self.world.agent(table.game), state, seat)
        board = self.board_rows(table)
        if board is not None:
            message, rows = board
            found = find_action(rows, action)
            if found is not None:
                await self.press(member, table, message, found)
                return True
            if any(c.get("custom_id") == f"tbl:{table.id}:hand" for row in rows for c in row.get("components", [])):
                panel = await self.click(member, table, message, f"tbl:{table.id}:hand")
                return await self.from_panel(member, table, panel, action)
        # No board to click on (its first post was lost): reopen the panel from a copy of the button.
        forged = await self.world.forge(self.place(table), button_rows(f"tbl:{table.id}:hand"))
        panel = await self.click(member, table, forged, f"tbl:{table.id}:hand")
        return await self.from_panel(member, table, panel, action)

    async def from_panel(self, member: MemberActor, table: Table, panel: InteractionResult, action: Any) -> bool:
        response = panel.response
        if response is None or not response.ephemeral:
            return True  # no panel came (its answer was lost): try again next step
        found = find_action(response.components, action)
        if found is not None and self.live(table.id) is not None:
            await self.press(member, table, response, found)
        return True

    async def press(self, member: MemberActor, table: Table, message: Any, found: tuple[str, str, str]) -> None:
        kind, custom_id, value = found
        before = self.version(table)
        if kind == "button":
            result = await member.click(message, custom_id=custom_id)
        else:
            result = await member.select(message, [value], custom_id=custom_id)
        self.note(member, custom_id, result, before, table)

    async def click(self, member: MemberActor, table: Table, message: Any, custom_id: str) -> InteractionResult:
        before = self.version(table)
        result = await member.click(message, custom_id=custom_id)
        self.note(member, custom_id, result, before, table)
        return result

    @staticmethod
    def version(table: Table) -> int:
        return table.state.version if table.state is not None else -1

    def note(self, member: MemberActor, custom_id: str, result: InteractionResult, before: int, table: Table) -> None:
        texts = [m.content for m in [result.response, *result.followups] if m is not None and m.ephemeral]
        self.clicks.append(
            Click(
                user_id=member.id,
                custom_id=custom_id,
                interaction_id=result._interaction.id,
                acknowledged=result.acknowledged,
                private_text="\n".join(t for t in texts if t),
                version_before=before,
                version_after=self.version(table),
            )
        )

    async def play_out(self, table_id: int, *, max_steps: int = 3_000) -> None:
        """Play until the table is over; AI seats and clocks move on their own in between."""
        idle = 0
        for _ in range(max_steps):
            prune_timers(self.world)
            if self.live(table_id) is None:
                return
            if await self.step(table_id):
                idle = 0
                continue
            await self.world.env.settle()
            idle += 1
            if idle > 50:
                raise AssertionError(f"table {table_id} waits for nobody")
        raise AssertionError(f"table {table_id} did not finish in {max_steps} steps")
