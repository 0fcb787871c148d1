"""The Discord publisher: keeps each table's lobby, thread and board message in step with its state.

When a game ends the lobby message becomes its result card (places, rating changes, a link to the
thread, the final board, Rematch), and later the service has the publisher archive and lock the
thread (:meth:`DiscordPublisher.archive_thread`).

Board edits are coalesced per table (Discord rate-limits message edits), sent with the bot token
(interaction tokens die after 15 minutes) and rendered off the event loop.

Calling the players (one rule for every game): whenever a human's decision is awaited, on the board
or in the private panel, the table's thread holds one short message naming everyone awaited and
where each decides. Each human is pinged once per decision (a prompt awaiting them); whoever
answers is edited out (an edit pings nobody), the message is deleted when nobody is left, and a
new one (replacing it) is posted only when someone newly awaited must be pinged. AI seats and
seats on autopilot are never called; a seat that comes back is. When about a fifth of a clock of
at least :data:`REMINDER_MIN_CLOCK` seconds is left, and the table's ``reminders`` option is on,
those still awaited are pinged once more.

Per-table bookkeeping (log lines, the pending board and lobby tasks, the call and its reminder)
lives only as long as the table is shown: a task leaves its map when it is done, and the rest is
forgotten once the final board, result or cancellation has been posted, so memory stays flat
however many tables a process has shown.

Discord can fail any request (a timeout, a server error discord.py stopped retrying): a failed
board update is drawn again after a back-off until it lands, so the board always ends showing the
table's state; a failed welcome or lobby edit is only logged, a failed call is posted at the next
board update, and a failed result is posted again.

Private panels that follow the game (kept in this process's memory only): the last private panel a
player opened or clicked at a table (:meth:`DiscordPublisher.panel_shown`) is edited, with the
interaction token that sent or last edited it, each time a decision comes to them in the panel, and
once more when a decision it offered has passed without them (a clock ran out, they answered on the
board), so it never keeps stale buttons. A token lets the bot edit its message for Discord's 15
minutes; a panel is followed only while its token is younger than :data:`PANEL_FOLLOW_SECONDS`, and
dropped when it is older or an edit finds it gone. The call's ping stays whatever happens: an edit
of a private message notifies nobody, and "My cards" still opens a fresh panel. Only the newest
panel of a player follows; an older one is edited into a short "this panel moved" note. A panel is
drawn from its own seat's view only (:func:`bot.ui.panels.panel_payload`), in the language it was
opened in.

Every message goes out with ``allowed_mentions`` naming exactly whom it means to ping: the players
in the welcome, those newly called in a call, nobody in any other (a name holding mention syntax
is escaped as well, see :mod:`bot.ui.text`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.i18n import translate
from bot.presenters.registry import PRESENTERS
from bot.storage import ArchiveRow
from bot.tables import Table, TableResult
from bot.ui.gamelog import step_lines
from bot.ui.panels import Payload, board_payload, game_name, lobby_payload, panel_payload, result_payload
from bot.ui.text import NO_PINGS, pinging, safe_name, safe_names
from games.core import Event

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)
LOG_LINES = 8
#: What a request to Discord may raise when Discord or the network fails.
DISCORD_FAILURES = (discord.HTTPException, TimeoutError, aiohttp.ClientError)
#: Seconds to wait before each new try of a board update or result that failed; then give up.
RETRY_DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
#: Where an awaited human decides, in the order the call lists them (catalogue keys ``call.<place>``).
PLACES = ("board", "panel")
#: The reminder comes when this share of the clock is left ...
REMINDER_SHARE = 0.2
#: ... on clocks at least this long (seconds); shorter ones (reaction windows) get none.
REMINDER_MIN_CLOCK = 30.0
#: Discord lets the bot edit a private panel with its interaction token for 15 minutes; the panel
#: follows the game only while the token is younger than this, so an edit never races the expiry.
PANEL_FOLLOW_SECONDS = 14 * 60.0


class DiscordPublisher:
    """Shows tables in Discord; the table service calls it after every change."""

    def __init__(self, bot: TableBot, *, edit_interval: float = 0.6) -> None:
        """Build the publisher for ``bot``."""
        self.bot = bot
        self.edit_interval = edit_interval
        self.retry_delays: tuple[float, ...] = RETRY_DELAYS
        self.logs: dict[int, deque[str]] = {}
        self._board_tasks: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        #: Tables whose board loop sleeps now (:meth:`_nap`), and those whose loop must end after its draw.
        self._board_naps: set[int] = set()
        self._board_stops: set[int] = set()
        self._lobby_tasks: dict[int, asyncio.Task[None]] = {}
        self._calls: dict[int, _Call] = {}
        self._reminders: dict[int, asyncio.TimerHandle] = {}
        # A reminder being sent; held here so the loop does not drop the task (it is not per table).
        self._reminder_tasks: set[asyncio.Task[None]] = set()
        #: The last board image of a finished table, until its result card shows it too.
        self._final_boards: dict[int, bytes] = {}
        #: The private panel that follows the game, per table and user (see :meth:`panel_shown`).
        self._panels: dict[int, dict[int, _Panel]] = {}
        #: Whether panels follow the game at all (``scripts/taps.py --no-follow`` measures the bot without it).
        self.follow_panels = True
        #: Called with every payload the bot posts (the offline demo saves them).
        self.observers: list[Callable[[Table, str, Payload], None]] = []

    # ------------------------------------------------------------------ Publisher protocol
    def lobby_changed(self, table: Table) -> None:
        """Queue a redraw of the lobby message."""
        if table.id not in self._lobby_tasks or self._lobby_tasks[table.id].done():
            task = asyncio.create_task(self._edit_lobby(table), name=f"lobby-{table.id}")
            _track(self._lobby_tasks, table.id, task)

    def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        """Record the public log lines of ``events`` and queue a board redraw."""
        lines = self.logs.setdefault(table.id, deque(maxlen=LOG_LINES))
        lines.extend(step_lines(table.game, events, safe_names(table.names()), table.locale, hidden=False))
        self._measure_clock(table)
        self._release_answered(table)
        self._schedule_board(table)

    async def game_started(self, table: Table) -> None:
        """Open the table's thread, welcome the players and post the first board."""
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        name = translate(table.locale, "ui.board.thread_name", game=game_name(table.game, table.locale), id=table.id)
        thread: discord.abc.Messageable
        try:
            if table.lobby_message_id is not None:
                created = await channel.get_partial_message(table.lobby_message_id).create_thread(
                    name=name[:100], auto_archive_duration=1440
                )
            else:
                real = self.bot.get_channel(table.channel_id)
                if not isinstance(real, discord.TextChannel):
                    raise TypeError("tables start in text channels")
                created = await real.create_thread(
                    name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=1440
                )
            await self.bot.service.attach_messages(table, thread_id=created.id)
            thread = created
        except (*DISCORD_FAILURES, TypeError):
            log.warning("could not open a thread for table %s; playing in the channel", table.id, exc_info=True)
            thread = channel
            await self.bot.service.attach_messages(table, thread_id=table.channel_id)
        players = [s.user_id for s in table.seats if not s.is_ai and s.user_id is not None]
        if players:
            mentions = " ".join(f"<@{user_id}>" for user_id in players)
            try:
                await thread.send(
                    translate(table.locale, "ui.board.welcome", mentions=mentions), allowed_mentions=pinging(players)
                )
            except DISCORD_FAILURES:
                log.warning("could not welcome the players of table %s", table.id, exc_info=True)
        self.lobby_changed(table)

    async def game_finished(self, table: Table, result: TableResult) -> None:
        """Draw the final board, post the result in the thread and turn the lobby message into the result card."""
        await self._flush_board(table)
        names = {s.user_id: s.name for s in table.seats if s.user_id is not None}
        payload = result_payload(table, result, names)
        self._notify(table, "result", payload)
        target = self._thread(table)
        for delay in (0.0, *self.retry_delays):
            await asyncio.sleep(delay)
            try:
                await target.send(embed=payload.embed, view=payload.view, allowed_mentions=NO_PINGS)
                break
            except DISCORD_FAILURES:
                log.warning("could not post the result of table %s", table.id, exc_info=True)
        await self._post_card(table, result, names)
        self._forget(table.id)

    async def _post_card(self, table: Table, result: TableResult, names: dict[int, str]) -> None:
        """Edit the lobby message into the result card (a new message if the lobby was deleted)."""
        pending = self._lobby_tasks.get(table.id)
        if pending is not None and pending is not asyncio.current_task():
            # A lobby redraw queued before the end (at the start) must not land over the card.
            with contextlib.suppress(Exception):
                await pending
        card = result_payload(table, result, names, card=True, board_png=self._final_boards.get(table.id))
        self._notify(table, "card", card)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        for delay in (0.0, *self.retry_delays):
            await asyncio.sleep(delay)
            try:
                files = [card.file()] if card.png is not None else []
                if table.lobby_message_id is None:
                    await channel.send(embed=card.embed, view=card.view, files=files, allowed_mentions=NO_PINGS)
                    return
                try:
                    await channel.get_partial_message(table.lobby_message_id).edit(
                        content=None, embed=card.embed, view=card.view, attachments=files, allowed_mentions=NO_PINGS
                    )
                except discord.NotFound:
                    # The lobby message was deleted: the channel still gets its result.
                    files = [card.file()] if card.png is not None else []  # a File is sent only once
                    await channel.send(embed=card.embed, view=card.view, files=files, allowed_mentions=NO_PINGS)
                return
            except discord.Forbidden:
                log.warning("may not post the result card of table %s", table.id, exc_info=True)
                return
            except DISCORD_FAILURES:
                log.warning("could not post the result card of table %s", table.id, exc_info=True)

    async def table_cancelled(self, table: Table, by_user: int | None) -> None:
        """Close the lobby or board of a cancelled table."""
        if table.board_message_id is not None:
            await self._flush_board(table)
            if by_user is None:
                text = translate(table.locale, "ui.board.ended_by_agreement")
            else:
                # A moderator who is not seated is shown by mention, which pings no one here.
                name = next((safe_name(s.name) for s in table.seats if s.user_id == by_user), f"<@{by_user}>")
                text = translate(table.locale, "ui.board.ended", name=name)
            with contextlib.suppress(*DISCORD_FAILURES):
                await self._thread(table).send(text, allowed_mentions=NO_PINGS)
        await self._edit_lobby(table)
        self._forget(table.id)

    async def table_quarantined(self, table: Table) -> bool:
        """Tell the table's thread (or channel) that its saved game could not be loaded.

        A deleted thread or a channel the bot may no longer write in counts as told: there is
        nobody left to tell, and trying again at every start would not change that.
        """
        try:
            await self._thread(table).send(translate(table.locale, "ui.board.quarantined", id=table.id))
        except (discord.NotFound, discord.Forbidden):
            log.info("table %s is quarantined; its thread is gone", table.id)
        except DISCORD_FAILURES:
            log.warning("could not tell table %s that it is quarantined", table.id, exc_info=True)
            return False
        return True

    async def archive_thread(self, archive: ArchiveRow) -> bool:
        """Archive and lock the thread of a table that is over (archive only, if the bot may not lock).

        A deleted thread, or one the bot may not archive at all, is logged and left: nothing more can
        be done about it. Other failures return ``False`` so the service tries again later.
        """
        reason = f"table #{archive.table_id} is over"
        try:
            try:
                await self.bot.http.edit_channel(archive.thread_id, reason=reason, archived=True, locked=True)
            except discord.Forbidden:
                # Locking needs Manage Threads; archiving a thread the bot opened does not.
                log.warning("may not lock the thread of table %s; archiving it only", archive.table_id)
                await self.bot.http.edit_channel(archive.thread_id, reason=reason, archived=True)
        except (discord.NotFound, discord.Forbidden):
            log.warning("could not archive the thread of table %s: gone or not allowed", archive.table_id)
        except DISCORD_FAILURES:
            log.warning("could not archive the thread of table %s for now", archive.table_id, exc_info=True)
            return False
        return True

    # ------------------------------------------------------------------ internals
    def _notify(self, table: Table, kind: str, payload: Payload) -> None:
        for observer in self.observers:
            try:
                observer(table, kind, payload)
            except Exception:
                log.exception("publisher observer failed")

    def _thread(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.thread_id or table.channel_id, guild_id=table.guild_id)

    def _forget(self, table_id: int) -> None:
        """Drop what was kept to show a table that is over (called once its last message is posted).

        Its board and lobby tasks are not touched: a task leaves its map itself when it ends.
        """
        self.logs.pop(table_id, None)
        self._calls.pop(table_id, None)
        self._cancel_reminder(table_id)
        self._final_boards.pop(table_id, None)
        self._dirty.discard(table_id)
        self._panels.pop(table_id, None)

    async def _edit_lobby(self, table: Table) -> None:
        if table.lobby_message_id is None or table.status == "finished":
            return  # a finished table's lobby message is its result card (see game_finished)
        payload = lobby_payload(table, table.locale)
        self._notify(table, "lobby", payload)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        try:
            await channel.get_partial_message(table.lobby_message_id).edit(
                embed=payload.embed, view=payload.view, allowed_mentions=NO_PINGS
            )
        except DISCORD_FAILURES:
            log.warning("could not edit the lobby of table %s", table.id, exc_info=True)

    def _schedule_board(self, table: Table) -> None:
        self._dirty.add(table.id)
        task = self._board_tasks.get(table.id)
        if task is None or task.done():
            _track(self._board_tasks, table.id, asyncio.create_task(self._board_loop(table), name=f"board-{table.id}"))

    async def _board_loop(self, table: Table) -> None:
        failures = 0
        try:
            while table.id in self._dirty and table.id not in self._board_stops:
                if self.edit_interval:
                    await self._nap(table.id, self.edit_interval)
                self._dirty.discard(table.id)
                if await self._draw_board(table):
                    failures = 0
                    continue
                if table.id in self._board_stops:
                    return  # the last board is being drawn (:meth:`_flush_board`)
                if failures >= len(self.retry_delays):
                    log.warning("gave up updating the board of table %s for now", table.id)
                    return
                # Draw again later (from the state as it is then) unless a newer change already will.
                self._dirty.add(table.id)
                await self._nap(table.id, self.retry_delays[failures])
                failures += 1
        except Exception:
            log.exception("board update of table %s failed", table.id)

    async def _nap(self, table_id: int, seconds: float) -> None:
        """Sleep in the board loop, marked as the only moment :meth:`_flush_board` may cancel it."""
        self._board_naps.add(table_id)
        try:
            await asyncio.sleep(seconds)
        finally:
            self._board_naps.discard(table_id)

    async def _flush_board(self, table: Table) -> None:
        """Draw the board now, trying again after failures (the last board of a table must land).

        A board loop still running is stopped first, but never in the middle of a request:
        discord.py must see the answer of every request it sent (a request cancelled in flight can
        leave its rate-limit bucket waiting for an answer that never comes), so a loop that is
        drawing is let finish that draw, and only one that sleeps is cancelled.
        """
        task = self._board_tasks.get(table.id)
        if task is not None and not task.done() and task is not asyncio.current_task():
            self._dirty.discard(table.id)
            self._board_stops.add(table.id)
            try:
                if table.id in self._board_naps:
                    task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            finally:
                self._board_stops.discard(table.id)
        for delay in (0.0, *self.retry_delays):
            await asyncio.sleep(delay)
            if await self._draw_board(table):
                return

    async def _draw_board(self, table: Table) -> bool:
        """Post or edit the board from the table's state now; return whether Discord took it."""
        if table.state is None:
            return True
        service = self.bot.service
        state = table.state
        awaited: list[Any] = []
        seen: set[str] = set()
        for seat in sorted(table.engine.active_seats(state)):
            for action in table.engine.legal_actions(state, seat):
                key = action.model_dump_json()
                if key not in seen:
                    seen.add(key)
                    awaited.append(action)
        lines = list(self.logs.get(table.id, ()))
        # The worker thread draws a snapshot: the live table keeps moving while the image renders,
        # and a board must never pair one prompt's buttons with another prompt's version.
        snapshot = replace(table, seats=[replace(seat) for seat in table.seats])
        payload = await asyncio.to_thread(board_payload, snapshot, lines, awaited_legal=awaited)
        self._notify(table, "board", payload)
        if table.status == "finished" and payload.png is not None:
            self._final_boards[table.id] = payload.png  # the result card shows the same image
        target = self._thread(table)
        try:
            if table.board_message_id is None:
                message = await target.send(
                    embed=payload.embed, view=payload.view, file=payload.file(), allowed_mentions=NO_PINGS
                )
                await service.attach_messages(table, board_message_id=message.id)
            else:
                await target.get_partial_message(table.board_message_id).edit(
                    embed=payload.embed,
                    view=payload.view,
                    attachments=[payload.file()],
                    allowed_mentions=NO_PINGS,
                )
        except discord.NotFound:
            # The board was deleted: post a new one so the game can go on.
            try:
                message = await target.send(
                    embed=payload.embed, view=payload.view, file=payload.file(), allowed_mentions=NO_PINGS
                )
            except DISCORD_FAILURES:
                log.warning("could not post a new board for table %s", table.id, exc_info=True)
                return False
            await service.attach_messages(table, board_message_id=message.id)
        except DISCORD_FAILURES:
            log.warning("could not update the board of table %s", table.id, exc_info=True)
            return False
        await self._follow_panels(table)
        await self._call_players(table, target)
        return True

    # ------------------------------------------------------------------ panels that follow the game
    async def panel_shown(
        self,
        table: Table,
        user_id: int,
        interaction: discord.Interaction,
        shown: PanelShown,
    ) -> None:
        """Remember the panel ``interaction`` just sent or edited as the one of ``user_id`` that follows the game.

        ``shown`` says which message it is and what it showed. A player's older panel (another
        message) is edited into a short note pointing to the newer one. If the table moved on while
        the panel was being sent, the panel is brought up to date at once.
        """
        if not self.follow_panels or table.status != "active" or table.seat_of(user_id) is None:
            return  # a spectator's panel shows no decision; a finished table's map is already forgotten
        panels = self._panels.setdefault(table.id, {})
        old = panels.get(user_id)
        panel = _Panel(
            interaction=interaction,
            message_id=shown.message_id,
            original=shown.original,
            issued=self.bot.service.now(),
            locale=shown.locale,
            key=shown.key,
            live=shown.live,
        )
        panels[user_id] = panel
        if old is not None and old.message_id != panel.message_id and self._fresh(old):
            moved = Payload(embed=discord.Embed(description=translate(old.locale, "panel.moved")))
            with contextlib.suppress(*DISCORD_FAILURES):
                await _edit_panel(old, moved, keep_view=False)
        await self._follow(table, user_id, panel)

    def _fresh(self, panel: _Panel) -> bool:
        """Return whether ``panel``'s token is young enough to edit it."""
        return self.bot.service.now() - panel.issued < PANEL_FOLLOW_SECONDS

    async def _follow_panels(self, table: Table) -> None:
        """Bring every followed panel of ``table`` to the decision it shows now (see :meth:`_follow`)."""
        for user_id, panel in list(self._panels.get(table.id, {}).items()):
            await self._follow(table, user_id, panel)

    async def _follow(self, table: Table, user_id: int, panel: _Panel) -> None:
        """Edit ``panel`` when a decision came to its player in the panel, or the one it offered has passed.

        A token too old to edit drops the panel (the call's ping and "My cards" take over); so does
        a panel Discord no longer knows (deleted, expired). Other failures keep it for the next update.

        Nobody waits for a panel: while one edit of it is in flight (perhaps sleeping out a 429), a
        later caller only asks that edit to look again when it ends. So a board update and its
        call are never held up behind one player's panel.
        """
        if panel.lock.locked():
            panel.again = True
            return
        async with panel.lock:
            panel.again = True
            while panel.again:
                panel.again = False
                if not await self._follow_once(table, user_id, panel):
                    return

    async def _follow_once(self, table: Table, user_id: int, panel: _Panel) -> bool:
        """Bring ``panel`` up to date once; return whether it is still followed and was not refused."""
        panels = self._panels.get(table.id)
        if panels is None or panels.get(user_id) is not panel:
            return False  # replaced by a newer panel, or the table is over and forgotten
        key = panel_key(table)
        awaited = self._awaited(table).get(user_id)
        if key == panel.key or not (panel.live or (awaited is not None and awaited[1] == "panel")):
            return True
        if not self._fresh(panel):
            del panels[user_id]
            return False
        # Drawn off the loop (a hand picture may be rendered) from a snapshot, as the board is.
        snapshot = replace(table, seats=[replace(seat) for seat in table.seats])
        live = seat_awaited(snapshot, user_id)
        payload = await asyncio.to_thread(panel_payload, snapshot, user_id, panel.locale)
        try:
            await _edit_panel(panel, payload, keep_view=True)
        except (discord.NotFound, discord.Forbidden):
            log.info("the panel of user %s at table %s is gone; the call takes over", user_id, table.id)
            if panels.get(user_id) is panel:
                del panels[user_id]
            return False
        except DISCORD_FAILURES:
            log.warning("could not update a panel at table %s", table.id, exc_info=True)
            return False
        panel.key, panel.live = panel_key(snapshot), live
        return True

    # ------------------------------------------------------------------ calling the players
    def _measure_clock(self, table: Table) -> _Call | None:
        """Note the length of the prompt's clock the first time the publisher hears of that prompt.

        The service calls :meth:`table_changed` right after it sets a new prompt's deadline, so
        ``deadline - now`` then is the clock's whole length, whatever the decision's kind made it.
        """
        if table.deadline is None or table.state is None or table.status != "active":
            return self._calls.get(table.id)
        call = self._calls.setdefault(table.id, _Call())
        if call.clock is None or call.clock[0] != table.prompt_version:
            call.clock = (table.prompt_version, table.deadline - self.bot.service.now())
        return call

    def _release_answered(self, table: Table) -> None:
        """Forget the call of every human the table stopped waiting for, at the step it happened.

        The service reports every step here before the (coalesced) board update, so a player who
        answered and is awaited again a moment later is called again, while one who goes on deciding
        step after step (a multi-part turn) keeps the one call they had.
        """
        call = self._calls.get(table.id)
        state = table.state
        if call is None or not call.awaited or state is None:
            return
        active = table.engine.active_seats(state) if table.status == "active" else frozenset()
        still = {s.user_id for s in table.seats if s.seat in active and not s.ai_controlled}
        for user_id in [user_id for user_id in call.awaited if user_id not in still]:
            del call.awaited[user_id]

    @staticmethod
    def _awaited(table: Table) -> dict[int, tuple[int, str]]:
        """Return the humans the table waits for now: user id → (prompt version, where they decide).

        AI seats and seats on autopilot are never called: the AI answers for them; nor is a seat
        whose standing pass answers its reaction window (the table passes it at once).
        """
        state = table.state
        if table.status != "active" or state is None:
            return {}
        place = "board" if PRESENTERS[table.game].decided_on_board(table.view(None)) else "panel"
        awaited: dict[int, tuple[int, str]] = {}
        for index in sorted(table.engine.active_seats(state)):
            seat = table.seats[index]
            if not table.answered_for(index, state) and seat.user_id is not None:
                awaited[seat.user_id] = (table.prompt_version, place)
        return awaited

    @staticmethod
    def _call_text(table: Table, awaited: dict[int, tuple[int, str]], *, reminder: bool) -> str:
        """Return the call naming everyone ``awaited``, a line per place (after the reminder line)."""
        lines: list[str] = []
        if reminder and table.deadline is not None:
            lines.append(translate(table.locale, "call.reminder", when=f"<t:{int(table.deadline)}:R>"))
        for place in PLACES:
            users = [user_id for user_id, (_, where) in awaited.items() if where == place]
            if users:
                mentions = " ".join(f"<@{user_id}>" for user_id in users)
                lines.append(translate(table.locale, f"call.{place}", mentions=mentions))
        return "\n".join(lines)

    async def _call_players(self, table: Table, target: discord.PartialMessageable, *, remind: bool = False) -> None:
        """Keep the table's one call message naming exactly the humans it waits for.

        A human is mentioned once each time the table starts waiting for them (a decision, or the
        first of a run of decisions they take one after another, see :meth:`_release_answered`): a
        new message pings only those newly awaited (or, for the reminder, everyone still awaited)
        and replaces the last one; someone who answered is edited out (an edit pings nobody), and the message is deleted
        when nobody is left or the game is over.

        Nobody waits for the call: while one change of it is in flight (perhaps sleeping out a 429),
        a board update or the reminder only asks that change to look again when it ends, as
        :meth:`_follow` does for panels. So the board loop never queues behind the reminder.
        """
        if table.status != "active" or table.state is None:
            await self._dismiss_call(table, target)
            return
        call = self._measure_clock(table) or self._calls.setdefault(table.id, _Call())
        if call.lock.locked():
            call.again = True
            call.remind = call.remind or remind
            return
        async with call.lock:
            call.again, call.remind = True, remind
            arm = True
            while call.again:
                call.again = False
                remind, call.remind = call.remind, False
                if self._calls.get(table.id) is not call or table.status != "active":
                    return  # the table ended while this call was being changed
                arm = await self._call_once(table, target, call, remind=remind)
        if arm:
            self._arm_reminder(table, call)

    async def _call_once(self, table: Table, target: discord.PartialMessageable, call: _Call, *, remind: bool) -> bool:
        """Bring the call message up to date once; return whether the reminder should be (re)armed."""
        awaited = self._awaited(table)
        if remind:
            if call.reminded == table.prompt_version or not awaited:
                return False
            call.reminded = table.prompt_version
            fresh = list(awaited)
        else:
            fresh = [user_id for user_id in awaited if user_id not in call.awaited]
        reminder = call.reminded == table.prompt_version
        content = self._call_text(table, awaited, reminder=reminder)
        old = call.message_id
        if fresh:
            try:
                message = await target.send(content, allowed_mentions=pinging(fresh))
            except DISCORD_FAILURES:
                # Nobody was called: the next board update (or the reminder's next arming) tries again.
                log.warning("could not call the players of table %s", table.id, exc_info=True)
                if remind:
                    call.reminded = None
                return False
            call.message_id, call.pinged = message.id, set(fresh)
            if old is not None:
                with contextlib.suppress(*DISCORD_FAILURES):
                    await target.get_partial_message(old).delete()
        elif old is not None and not awaited:
            call.message_id, call.pinged = None, set()
            with contextlib.suppress(*DISCORD_FAILURES):
                await target.get_partial_message(old).delete()
        elif old is not None and content != call.content:
            # Whoever this message pinged and is still named keeps the mention; nobody new is pinged.
            still = [user_id for user_id in awaited if user_id in call.pinged]
            with contextlib.suppress(*DISCORD_FAILURES):
                await target.get_partial_message(old).edit(content=content, allowed_mentions=pinging(still))
        call.awaited, call.content = awaited, content
        return True

    async def _dismiss_call(self, table: Table, target: discord.PartialMessageable) -> None:
        """Delete the call of a table that waits for nobody any more (it ended) and forget it."""
        self._cancel_reminder(table.id)
        call = self._calls.pop(table.id, None)
        if call is not None and call.message_id is not None:
            with contextlib.suppress(*DISCORD_FAILURES):
                await target.get_partial_message(call.message_id).delete()

    def _arm_reminder(self, table: Table, call: _Call) -> None:
        """(Re)start the reminder of the table's prompt: due when a fifth of its clock is left.

        Armed from ``table.deadline`` each time the publisher hears of the table, so a deadline
        that moved ("More time") moves the reminder too. None when reminders are off, when no human
        is awaited, once this prompt's reminder was sent, or for clocks shorter than
        :data:`REMINDER_MIN_CLOCK` (reaction windows: a reminder would come seconds before the end).
        """
        self._cancel_reminder(table.id)
        deadline = table.deadline
        if not table.reminders or deadline is None or table.status != "active" or not call.awaited:
            return
        if call.reminded == table.prompt_version:
            return
        now = self.bot.service.now()
        if call.clock is None or call.clock[0] != table.prompt_version:
            # A prompt first heard of after a restart: its remaining time is the best length known.
            call.clock = (table.prompt_version, deadline - now)
        length = call.clock[1]
        if length < REMINDER_MIN_CLOCK:
            return
        delay = max(0.0, deadline - length * REMINDER_SHARE - now)
        loop = asyncio.get_running_loop()
        self._reminders[table.id] = loop.call_later(delay, self._reminder_due, table, table.prompt_version)

    def _cancel_reminder(self, table_id: int) -> None:
        handle = self._reminders.pop(table_id, None)
        if handle is not None:
            handle.cancel()

    def _reminder_due(self, table: Table, prompt_version: int) -> None:
        self._reminders.pop(table.id, None)
        if table.status != "active" or table.prompt_version != prompt_version or table.id not in self._calls:
            return
        task = asyncio.create_task(
            self._call_players(table, self._thread(table), remind=True), name=f"remind-{table.id}"
        )
        self._reminder_tasks.add(task)
        task.add_done_callback(self._reminder_tasks.discard)


@dataclass
class _Call:
    """The message calling the humans one table waits for, and what its reminder needs."""

    message_id: int | None = None
    #: Whom the message names: user id → (prompt version, place) of the decision they were called for.
    awaited: dict[int, tuple[int, str]] = field(default_factory=dict)
    #: Whom the message pinged when it was posted (edits keep their mention, and ping nobody else).
    pinged: set[int] = field(default_factory=set)
    content: str = ""
    #: The prompt version and length (seconds) of the clock it was last heard of with.
    clock: tuple[int, float] | None = None
    #: The prompt version whose reminder was sent (once per prompt).
    reminded: int | None = None
    #: Board updates and the reminder change the message one at a time; nobody queues on it.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    #: Set while a change is in flight when the table moved again: that change looks again when it ends.
    again: bool = field(default=False, repr=False)
    #: Set with ``again`` when the reminder came meanwhile: the next look is the reminder's.
    remind: bool = field(default=False, repr=False)


@dataclass(frozen=True)
class PanelShown:
    """What a private panel the player just saw is: which message, its language, what it showed."""

    #: The message id (``None`` if Discord did not say; it then counts as a message of its own).
    message_id: int | None
    #: Whether it is the interaction's own response (edited through ``@original``) or a followup.
    original: bool
    locale: str
    #: :func:`panel_key` of the table when the panel was drawn.
    key: tuple[int, str]
    #: Whether it offered its player a decision (they were awaited when it was drawn).
    live: bool


def panel_key(table: Table) -> tuple[int, str]:
    """Return what a panel drawn now shows: the prompt it answers and whether the game goes on."""
    return (table.prompt_version, table.status)


def seat_awaited(table: Table, user_id: int) -> bool:
    """Return whether the table waits for ``user_id``'s seat now (its panel then offers a decision)."""
    seat = table.seat_of(user_id)
    state = table.state
    return (
        seat is not None
        and state is not None
        and table.status == "active"
        and seat.seat in table.engine.active_seats(state)
        and not table.passes(seat.seat, state)
    )


@dataclass
class _Panel:
    """A player's private panel that follows the game, and the interaction whose token edits it."""

    interaction: discord.Interaction
    message_id: int | None
    original: bool
    #: When its token was issued (the service's clock), to stop following it before it expires.
    issued: float
    locale: str
    key: tuple[int, str]
    live: bool
    #: The board loop and a click never edit one panel at once.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    #: Set while an edit is in flight when the table moved again: that edit looks again when it ends.
    again: bool = field(default=False, repr=False)


async def _edit_panel(panel: _Panel, payload: Payload, *, keep_view: bool) -> None:
    """Edit ``panel``'s message to ``payload`` (its hand picture replaces any earlier attachment)."""
    files = [payload.file()] if payload.png is not None else []
    view = payload.view if keep_view else None
    if panel.original or panel.message_id is None:
        await panel.interaction.edit_original_response(
            embed=payload.embed, view=view, attachments=files, allowed_mentions=NO_PINGS
        )
    else:
        await panel.interaction.followup.edit_message(
            panel.message_id, embed=payload.embed, view=view, attachments=files, allowed_mentions=NO_PINGS
        )


def _track(tasks: dict[int, asyncio.Task[None]], table_id: int, task: asyncio.Task[None]) -> None:
    """Keep ``task`` as ``table_id``'s entry in ``tasks`` until it ends (unless replaced before)."""
    tasks[table_id] = task

    def untrack(done: asyncio.Task[None]) -> None:
        if tasks.get(table_id) is done:
            del tasks[table_id]

    task.add_done_callback(untrack)
