"""Event-loop lag while 20 members spam "My cards", through the real bot on SimCord's offline Discord.

Twenty members sit at four tables of five (one table of each registered game in turn) and click
their board's *My cards* button (``tbl:<id>:hand``) five times a second each, on a fixed timetable
(a bot that falls behind gets the clicks anyway). Meanwhile a *probe* task sleeps 1 ms again and
again and records how late it wakes up: that overshoot is the event-loop lag every other table of
the process would feel (a clock firing late, a click answered late). The clicks arrive one after
another (the target) or, as the worst case, in lock-step waves of twenty at one instant.

The run is made twice: with the click limit off (every click builds a private panel: the worst
case) and with the limit as shipped (:mod:`bot.ui.limits`; its clock is real time here, since
SimCord's virtual clock stands still). SimCord's own work (building interaction payloads, serving
the bot's REST calls) runs on the same loop, so the lag measured is an upper bound of the bot's.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord.interactions as simcord_interactions
from simcord import Env
from simcord.actors import MemberActor
from simcord.backend import serializers
from simcord.builders import ChannelHandle
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult

from benchmarks.common import Line, ms, p50_p99, registered_games
from bot.app import TableBot, create_bot
from bot.i18n import translate
from bot.settings import Settings
from bot.storage import Storage

SECTION = "14. Click spam"
MEMBERS = 20
PER_TABLE = 5
TARGET_LAG_P99 = 0.050
PROBE_SLEEP = 0.001
#: Clicks a second from the twenty: each member mashing "My cards" five times a second.
SPAM_RATE = MEMBERS * 5.0
#: How often SimCord looks again whether the bot is done (its default, 50 ms, would pace the rounds).
SETTLE_POLL = 0.002


@dataclass
class SpamRun:
    """What one run saw: the probe's lags, and how the clicks were answered."""

    lags: list[float] = field(default_factory=list)
    answers: Counter[str] = field(default_factory=Counter)
    clicks: int = 0
    seconds: float = 0.0


@contextlib.asynccontextmanager
async def _bot_on_simcord(workdir: Path, *, click_limit: bool) -> AsyncIterator[tuple[Env, TableBot]]:
    shipped = Settings(_env_file=None)
    settings = Settings(
        discord_token=None,
        database_path=str(workdir / f"spam-{int(click_limit)}.sqlite3"),
        ai_delay_seconds=0,
        open_table_cooldown_seconds=0,  # one host opens tables back to back here
        click_burst=shipped.click_burst if click_limit else 0,
        _env_file=None,
    )
    storage = await Storage.open(settings.database_path)
    bot = create_bot(settings, storage=storage)
    env = Env(bot)
    await env.start()
    try:
        bot.clicks.buckets.clock = time.perf_counter
        yield env, bot
    finally:
        await env.shutdown()
        await bot.service.close()
        await storage.close()


async def _settle(env: Env) -> None:
    await env._settle_internal(idle=SETTLE_POLL)


def _prune_timers(env: Env) -> None:
    """Drop from SimCord's books the timers that can no longer matter, so its settling stays cheap.

    SimCord scans every timer it tracks on each settle, and forgets one only when it fires. Every
    private panel leaves one (discord.py's 15-minute expiry of the message's view; the view holds
    only ``DynamicItem`` s, registered either way): with a thousand panels the scans, not the bot,
    would fill the loop. As ``tests.bot.resilience.play.prune_timers`` does for the long suites.
    """
    work = env._work
    live = []
    for record in work.callbacks:
        if record.handle is not None and record.handle.cancelled():
            if record.real_handle is not None:
                record.real_handle.cancel()
            continue
        live.append(record)
    work.callbacks[:] = live
    for task in list(work.tasks):
        if not task.done() and getattr(task.get_coro(), "__qualname__", "") == "BaseView.__timeout_task_impl":
            task.cancel()


async def _seat_tables(
    env: Env, bot: TableBot, channel: ChannelHandle, members: Sequence[MemberActor]
) -> dict[int, tuple[int, int, int]]:
    """Open and start one table per five members; return member id → (table, thread, board message)."""
    games = registered_games()
    where: dict[int, tuple[int, int, int]] = {}
    for index in range(0, len(members), PER_TABLE):
        group = members[index : index + PER_TABLE]
        before = set(bot.service.tables)
        await group[0].slash(channel, f"{games[(index // PER_TABLE) % len(games)]} new", clock=3600)
        (table_id,) = set(bot.service.tables) - before
        lobby = next(m for m in channel.history() if m.id == bot.service.tables[table_id].lobby_message_id)
        for guest in group[1:]:
            await guest.click(lobby, custom_id=f"lobby:{table_id}:join")
        await group[0].click(lobby, custom_id=f"lobby:{table_id}:start")
        await _settle(env)
        table = bot.service.tables[table_id]
        assert table.thread_id is not None and table.board_message_id is not None  # noqa: S101 - set by Start
        for member in group:
            where[member.id] = (table_id, table.thread_id, table.board_message_id)
    return where


def _emit(env: Env, member: MemberActor, where: dict[int, tuple[int, int, int]]) -> Any:
    """Send ``member``'s "My cards" click to the bot now, without waiting for its answer; return its record."""
    backend = env.backend
    table_id, thread_id, board_id = where[member.id]
    stored = backend.get_message(thread_id, board_id)
    record, payload = simcord_interactions.base_payload(
        backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=thread_id,
        guild_id=member.guild.id,
        user_id=member.id,
        data={"custom_id": f"tbl:{table_id}:hand", "component_type": ComponentType.BUTTON},
    )
    payload["message"] = dict(serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    env._notify_dispatch_observers(record)
    backend.emit("INTERACTION_CREATE", payload)
    return record


async def _stream(
    env: Env,
    members: Sequence[MemberActor],
    where: dict[int, tuple[int, int, int]],
    *,
    clicks: int,
    rate: float,
    waves: bool,
) -> list[InteractionResult]:
    """Send ``clicks`` clicks at ``rate`` a second, the members in turn, then wait for every answer.

    The clicks follow a fixed timetable, not the bot's answers: a bot falling behind gets them
    anyway, as it would from Discord. With ``waves`` every member's click of a round arrives at the
    same instant (the rounds at the same average rate).
    """
    group = len(members) if waves else 1
    env._begin_operation("spam")
    try:
        records = []
        loop = asyncio.get_running_loop()
        began = loop.time()
        for index in range(clicks):
            delay = began + (index // group) * group / rate - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            records.append(_emit(env, members[index % len(members)], where))
            if index % len(members) == len(members) - 1:
                _prune_timers(env)
        await env._settle_internal(idle=SETTLE_POLL, dispatch="INTERACTION_CREATE")
    finally:
        env._end_operation()
    return [InteractionResult(env, record) for record in records]


def _answer(result: InteractionResult, too_fast: str) -> str:
    message = result.response
    if message is None or not message.ephemeral:
        return "unanswered"
    if message.content == too_fast:
        return "too fast"
    return "panel" if message.embeds else "other"


async def spam(workdir: Path, *, clicks: int, rate: float, click_limit: bool, waves: bool = False) -> SpamRun:
    """Send ``clicks`` "My cards" clicks at ``rate`` a second with the probe measuring the loop's lag."""
    run = SpamRun()
    async with _bot_on_simcord(workdir, click_limit=click_limit) as (env, bot):
        guild = env.create_guild("Bench")
        channel = guild.create_text_channel("games")
        members = [guild.add_member(env.create_user(f"m{n}")) for n in range(MEMBERS)]
        where = await _seat_tables(env, bot, channel, members)
        too_fast = translate("en", "ui.error.too_fast")
        stop = asyncio.Event()

        async def probe() -> None:
            while not stop.is_set():
                began = time.perf_counter()
                await asyncio.sleep(PROBE_SLEEP)
                run.lags.append(max(0.0, time.perf_counter() - began - PROBE_SLEEP))

        task = asyncio.create_task(probe())
        began = time.perf_counter()
        try:
            for result in await _stream(env, members, where, clicks=clicks, rate=rate, waves=waves):
                run.answers[_answer(result, too_fast)] += 1
                run.clicks += 1
        finally:
            run.seconds = time.perf_counter() - began
            stop.set()
            await task
    return run


def _line(run: SpamRun, label: str, *, target: bool) -> Line:
    p50, p99 = p50_p99(run.lags)
    answers = ", ".join(f"{count} {kind}" for kind, count in sorted(run.answers.items()))
    return Line(
        SECTION,
        f"event-loop lag, {MEMBERS} members spamming “My cards” at {MEMBERS // PER_TABLE} tables, {label}"
        f" ({run.clicks} clicks in {run.seconds:.1f} s: {answers})",
        f"p50 {ms(p50)} · p99 {ms(p99)} · max {ms(max(run.lags))}",
        f"p99 ≤ {ms(TARGET_LAG_P99)}" if target else "(context)",
        p99 <= TARGET_LAG_P99 or not target,
    )


def bench_spam(workdir: Path | None = None, *, clicks: int = 1_000, rate: float = SPAM_RATE) -> list[Line]:
    """Measure the loop's lag under "My cards" spam, without and with the click limit.

    The target applies to clicks arriving on their own timetable, as twenty people's clicks do;
    the runs in lock-step waves (all twenty at one instant, five times a second) are the worst
    case, given for context.
    """
    lines: list[Line] = []
    per_member = rate / MEMBERS
    with tempfile.TemporaryDirectory(prefix="bench-spam-") as tmp:
        where = workdir or Path(tmp)
        for waves in (False, True):
            for click_limit in (False, True):
                run = asyncio.run(spam(where, clicks=clicks, rate=rate, click_limit=click_limit, waves=waves))
                arrival = "all twenty at once" if waves else "one after another"
                label = f"{per_member:g} clicks/s each, {arrival}, click limit {'as shipped' if click_limit else 'off'}"
                lines.append(_line(run, label, target=not waves))
    return lines


def main() -> None:
    """Print the lines (``python -m benchmarks.spam``)."""
    for line in bench_spam():
        print(f"{line.name}: {line.value} ({line.target}: {line.verdict})")


if __name__ == "__main__":
    main()
