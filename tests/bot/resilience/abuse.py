"""Random bad interactions against live, finished and cancelled tables, each one checked.

:class:`Abuser` keeps a small server busy: a *target* table being played (a new one when it ends),
a *foreign* table, a *finished* and a *cancelled* one, copies of old boards and panels, and
members who are seated, not seated, in Russian or in English. Each step sends one interaction of
a random kind:

- ``valid``: the awaited human plays the move the AI would (the game goes on);
- ``burst``: the same valid click sent two to four times at once (only one may apply);
- ``stale``: a component of an older board or panel copy, by its owner or anyone;
- ``wrong_user``: a current component clicked by a player who is not awaited, or an outsider;
- ``foreign``: the foreign table's components clicked by the target's players;
- ``malformed``: damaged or random custom ids (up to Discord's 100 characters);
- ``bad_select``: a real select id with values that are no action, too long, or too many;
- ``closed``: components of the finished and the cancelled table.

After each: the interaction was acknowledged; a refused one got a private message that is exactly
the clicker's-language text of a rule error (never the apology for a bug); an interaction that
cannot be valid changed nothing in the database (any table); a burst applied exactly once.

The bot runs with its click limit as shipped (a few clicks at once, then about one a second per
member). The limit's clock is the abuser's own: each step takes :data:`SECONDS_PER_STEP`, and
opening a table a minute, so bursts and a busy player run into the limit while the game goes on. A
click over the limit is an acceptable answer of any kind (private "too fast", nothing changed), even
for a valid move: that move is simply tried again at a later step.
"""

from __future__ import annotations

import copy
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
import simcord.interactions as simcord_interactions
from simcord.actors import MemberActor
from simcord.backend import serializers
from simcord.builders import ChannelHandle
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult, ResponseMessage

from bot.codec import CodecError
from bot.errors import answer_error as answer_error_of_the_bot
from bot.errors import error_text
from bot.tables import Table, choose_ai_action
from bot.ui import components as ui_components
from bot.ui.limits import TooFastError
from games.core import GameError, GameRng, RandomAgent
from tests.bot.resilience.play import prune_timers
from tests.bot.resilience.registry import seat_counts
from tests.support import World, button_rows, component_ids, find_action, walk

KINDS: dict[str, float] = {
    "valid": 0.22,
    "burst": 0.05,
    "stale": 0.15,
    "wrong_user": 0.15,
    "foreign": 0.08,
    "malformed": 0.15,
    "bad_select": 0.10,
    "closed": 0.10,
}
#: Table buttons that change something when clicked by the right person; never sent at random.
CHANGING_VERBS = (
    "resign_yes",
    "end_yes",
    "endvote",
    "endvote_yes",
    "back",
    "rematch",
    "start",
    "leave",
    "cancel",
    "join",
    "addai",
    "removeai",
)
ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789:._+~-ЖЯё😀 "
#: Seconds of the click limit's clock each step takes (the server's members click about once a second).
SECONDS_PER_STEP = 1.0
#: Seconds of that clock opening a table takes (people gather): every member's clicks are back.
SECONDS_PER_TABLE = 60.0


@dataclass
class Errors:
    """The errors the bot answered, by interaction id (spied on ``answer_error``)."""

    by_interaction: dict[int, BaseException] = field(default_factory=dict)

    def install(self, monkeypatch: Any) -> None:
        real = answer_error_of_the_bot

        async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
            self.by_interaction[interaction.id] = error
            await real(interaction, error)

        monkeypatch.setattr(ui_components, "answer_error", answer_error)


@dataclass
class AbuseReport:
    """What the abuse run sent and saw."""

    sent: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    limited: Counter[str] = field(default_factory=Counter)  # refused by the click limit (also in refused)
    applied: Counter[str] = field(default_factory=Counter)
    seconds: dict[str, float] = field(default_factory=dict)
    bursts: int = 0
    games_finished: int = 0
    problems: list[str] = field(default_factory=list)

    def fail(self, text: str) -> None:
        if len(self.problems) < 40:
            self.problems.append(text)


async def burst(
    world: World, member: MemberActor, message: Any, data: dict[str, Any], count: int
) -> list[InteractionResult]:
    """Send ``count`` copies of one component interaction at once (before the bot handles any)."""
    env = world.env
    backend = env.backend
    channel_id = message.channel_id if hasattr(message, "channel_id") else message.channel.id
    stored = backend.get_message(channel_id, message.id)
    channel = ChannelHandle(env, member.guild, backend.get_channel(stored.channel_id))
    env._begin_operation("burst")
    try:
        records = []
        for _ in range(count):
            record, payload = simcord_interactions.base_payload(
                backend,
                type=InteractionType.MESSAGE_COMPONENT,
                channel_id=channel.id,
                guild_id=member.guild.id,
                user_id=member.id,
                data=copy.deepcopy(data),
            )
            payload["message"] = dict(serializers.message_payload(backend, stored))
            record.source_message_id = stored.id
            env._notify_dispatch_observers(record)
            records.append((record, payload))
        for _record, payload in records:
            backend.emit("INTERACTION_CREATE", payload)
        await env._settle_internal(dispatch="INTERACTION_CREATE")
    finally:
        env._end_operation()
    return [InteractionResult(env, record) for record, _payload in records]


class Abuser:
    """Sends random interactions at one game's tables and checks each answer."""

    def __init__(self, world: World, game: str, errors: Errors, seed: str) -> None:
        self.world = world
        self.game = game
        self.errors = errors
        self.rng = GameRng(f"abuse:{seed}")
        self.report = AbuseReport()
        self.players = [
            world.member("ann", locale="en-US"),
            world.member("boris", locale="ru"),
            world.member("cleo"),
            world.member("dasha", locale="ru"),
        ]
        self.outsiders = [world.member("egor", locale="ru"), world.member("fay", locale="en-GB")]
        self.now = 0.0
        world.bot.clicks.buckets.clock = lambda: self.now
        self.target = 0
        self.foreign = 0
        self.closed: list[int] = []
        self.copies: list[tuple[int, Any]] = []  # (table id, forged message) of older boards and panels
        self.closed_copies: list[Any] = []

    # ------------------------------------------------------------------ messages
    # World's readers scan a channel's whole history for one message; a long run posts thousands,
    # so messages are read straight from SimCord's store here.
    def board(self, table_id: int) -> ResponseMessage:
        table = self.world.table(table_id)
        assert table.board_message_id is not None and table.thread_id is not None
        return ResponseMessage(
            self.world.env, self.world.env.backend.get_message(table.thread_id, table.board_message_id)
        )

    def thread_id(self, table_id: int) -> int:
        thread_id = self.world.table(table_id).thread_id
        assert thread_id is not None
        return thread_id

    async def forge(self, channel_id: int, rows: Sequence[dict[str, Any]]) -> ResponseMessage:
        """Post, as the bot, a message with component ``rows`` (an old copy, a damaged component)."""
        env = self.world.env
        stored = env.backend.create_message(
            channel_id, env.backend.bot_user.id, "", components=copy.deepcopy(list(rows))
        )
        await env.settle()
        return ResponseMessage(env, stored)

    async def copy_board(self, table_id: int) -> ResponseMessage:
        return await self.forge(self.thread_id(table_id), self.board(table_id).components)

    async def open_panel(self, member: MemberActor, table_id: int) -> InteractionResult | None:
        """Click "My cards"; return the answer, or ``None`` when the click limit refused it."""
        self.report.sent["panel"] += 1
        result = await member.click(self.board(table_id), custom_id=f"tbl:{table_id}:hand")
        if self.check_answer("panel", member, result) == "limited":
            self.report.limited["panel"] += 1
            return None
        return result

    # ------------------------------------------------------------------ tables
    def people(self) -> list[MemberActor]:
        return [*self.players, *self.outsiders]

    def member(self, user_id: int | None) -> MemberActor | None:
        return next((m for m in self.people() if m.id == user_id), None)

    async def open_table(self, humans: int) -> int:
        """Open and start a table of up to ``humans`` players (AI seats only where the game needs more)."""
        counts = [n for n in seat_counts(self.game) if n <= max(humans, min(seat_counts(self.game)))]
        seats = counts[self.rng.below(len(counts))]
        humans = min(humans, seats)
        host, *guests = self.players[:humans]
        self.now += SECONDS_PER_TABLE
        table_id = await self.world.seat(
            host, *guests, ais=seats - humans, game=self.game, clock=3600, reaction_clock=3600
        )
        self.now += SECONDS_PER_TABLE
        return table_id

    async def setup(self) -> None:
        """Open the target, foreign, finished and cancelled tables."""
        world = self.world
        cancelled = await self.open_table(2)
        self.closed_copies.append(await self.copy_board(cancelled))
        # A game is ended without a result by a moderator (its host may not once a move is made).
        moderator = world.member("moderator", moderator=True)
        confirm = await world.table_button(moderator, cancelled, "end")
        assert confirm.response is not None
        await moderator.click(confirm.response, custom_id=f"tbl:{cancelled}:end_yes")
        assert world.table(cancelled).status == "cancelled"
        self.now += SECONDS_PER_TABLE
        lobby = await world.new_table(self.players[1], game=self.game, clock=3600)
        self.closed_copies.append(await self.forge(world.channel.id, world.components(world.lobby(lobby))))
        await world.lobby_click(self.players[1], lobby, "cancel")
        self.closed.extend([cancelled, lobby])
        self.foreign = await self.open_table(2)
        self.target = await self.open_table(3 + self.rng.below(2))
        # One outsider holds "My cards" down once, so every run meets the click limit at least once
        # (the random kinds alone reach it only by chance).
        for _ in range(world.bot.clicks.buckets.burst + 1):
            await self.open_panel(self.outsiders[0], self.target)

    def table(self) -> Table:
        return self.world.table(self.target)

    async def renew_target(self) -> None:
        """When the target table is over, keep its copies as closed ones and open the next."""
        if self.table().status == "active":
            return
        self.report.games_finished += 1
        self.closed.append(self.target)
        self.closed_copies.extend(message for table_id, message in self.copies if table_id == self.target)
        self.closed_copies = self.closed_copies[-12:]
        self.copies = [(t, m) for t, m in self.copies if t != self.target]
        self.target = await self.open_table(3 + self.rng.below(2))

    # ------------------------------------------------------------------ sending
    async def snapshot(self, custom_id: str) -> tuple[Any, ...]:
        """Return what is stored about the tables a click could touch: the target and the table its
        custom id names (status, version, state, messages, seats; the log and clock change only
        with the version)."""
        tables = {self.target}
        parts = custom_id.split(":")
        if len(parts) > 1 and parts[1].isdigit() and int(parts[1]) in {*self.closed, self.foreign}:
            tables.add(int(parts[1]))
        storage = self.world.bot.storage
        out: list[Any] = []
        for table_id in sorted(tables):
            row = await storage.get_table(table_id)
            assert row is not None
            stored = (row.status, row.version, row.state, row.thread_id, row.board_message_id, row.lobby_message_id)
            out.append((stored, tuple(await storage.seats(table_id))))
        return tuple(out)

    def check_answer(self, kind: str, member: MemberActor, result: InteractionResult) -> str:
        """Check one answer; return "answered", "refused" or "limited" (refused by the click limit)."""
        interaction_id = result._interaction.id
        if not result.acknowledged:
            self.report.fail(f"{kind}: interaction {interaction_id} of {member.name} was never answered")
            return "answered"
        error = self.errors.by_interaction.get(interaction_id)
        if error is None:
            return "answered"
        if not isinstance(error, GameError | CodecError):
            self.report.fail(f"{kind}: {member.name} got the apology for a bug: {error!r}")
            return "refused"
        locale = self.world._locales.get(member.id, "en-US")
        expected = error_text(error, locale)
        texts = [m.content for m in [result.response, *result.followups] if m is not None and m.ephemeral]
        if expected not in texts:
            self.report.fail(f"{kind}: {member.name} ({locale}) got {texts!r}, not {expected!r}")
        return "limited" if isinstance(error, TooFastError) else "refused"

    async def send(
        self,
        kind: str,
        member: MemberActor,
        message: Any,
        custom_id: str,
        values: Sequence[str] | None,
        *,
        may_change: bool,
    ) -> None:
        before = await self.snapshot(custom_id)
        if values is None:
            result = await member.click(message, custom_id=custom_id)
        else:
            result = await member.select(message, list(values), custom_id=custom_id)
        self.report.sent[kind] += 1
        answer = self.check_answer(kind, member, result)
        refused = answer != "answered"
        self.report.refused[kind] += refused
        self.report.limited[kind] += answer == "limited"
        after = await self.snapshot(custom_id)
        if before != after:
            if may_change and not refused:
                self.report.applied[kind] += 1
            else:
                self.report.fail(f"{kind}: {custom_id!r} {values!r} by {member.name} changed a table")

    # ------------------------------------------------------------------ kinds
    async def step(self) -> None:
        self.now += SECONDS_PER_STEP
        prune_timers(self.world)
        await self.renew_target()
        kind = self.pick_kind()
        began = time.perf_counter()
        await getattr(self, f"do_{kind}")()
        self.report.seconds[kind] = self.report.seconds.get(kind, 0.0) + time.perf_counter() - began

    def pick_kind(self) -> str:
        """Draw the kind of the next interaction by the weights of :data:`KINDS`."""
        draw = self.rng.random()
        for kind, weight in KINDS.items():
            if draw < weight:
                return kind
            draw -= weight
        return "valid"

    def awaited_human(self) -> tuple[MemberActor, Any] | None:
        table = self.table()
        state = table.state
        if table.status != "active" or state is None:
            return None
        for seat in sorted(table.engine.active_seats(state)):
            who = table.seats[seat]
            member = self.member(who.user_id)
            if member is not None and not who.ai_controlled:
                # A random legal move: the game's AI can take a quarter of a second to think.
                return member, choose_ai_action(table.engine, RandomAgent(), state, seat)
        return None

    async def where(self, member: MemberActor, action: Any) -> tuple[Any, tuple[str, str, str]] | None:
        """Return the message (board or the member's fresh panel) and component taking ``action``."""
        board = self.board(self.target)
        found = find_action(board.components, action)
        if found is not None:
            return board, found
        panel = await self.open_panel(member, self.target)
        if panel is None:
            return None  # too fast: the move is tried again at a later step
        if panel.response is None:
            self.report.fail("a panel did not open")
            return None
        self.copies.append((self.target, await self.forge(self.thread_id(self.target), panel.response.components)))
        found = find_action(panel.response.components, action)
        return (panel.response, found) if found is not None else None

    async def do_valid(self) -> None:
        awaited = self.awaited_human()
        if awaited is None:
            await self.world.env.settle()
            return
        member, action = awaited
        if self.rng.random() < 0.2:
            self.copies.append((self.target, await self.copy_board(self.target)))
            self.copies = self.copies[-30:]
        limited = self.report.limited["panel"]
        located = await self.where(member, action)
        if located is None:
            if self.report.limited["panel"] == limited:
                self.report.fail(f"{action!r} is offered neither on the board nor in the panel")
            return
        message, (kind, custom_id, value) = located
        await self.send("valid", member, message, custom_id, None if kind == "button" else [value], may_change=True)

    async def do_burst(self) -> None:
        awaited = self.awaited_human()
        if awaited is None:
            return
        member, action = awaited
        located = await self.where(member, action)
        if located is None:
            return
        message, (kind, custom_id, value) = located
        table = self.table()
        version = table.state.version if table.state is not None else 0
        data: dict[str, Any] = {"custom_id": custom_id}
        if kind == "button":
            data["component_type"] = ComponentType.BUTTON
        else:
            data["component_type"] = ComponentType.STRING_SELECT
            data["values"] = [value]
        count = 2 + self.rng.below(3)
        results = await burst(self.world, member, message, data, count)
        self.report.bursts += 1
        self.report.sent["burst"] += count
        answers = [self.check_answer("burst", member, r) for r in results]
        refusals = sum(answer != "answered" for answer in answers)
        limited = answers.count("limited")
        self.report.refused["burst"] += refusals
        self.report.limited["burst"] += limited
        mine = [
            e for e in await self.world.bot.storage.action_log(self.target, since=version) if e.user_id == member.id
        ]
        # Exactly one click applies, unless the click limit refused every one of them.
        applied = 1 if limited < count else 0
        if len(mine) != applied or refusals != count - applied:
            self.report.fail(
                f"a burst of {count} applied {len(mine)} times with {refusals} refusals ({limited} too fast)"
            )

    def random_member(self, *, exclude: MemberActor | None = None) -> MemberActor:
        pool = [m for m in self.people() if m is not exclude]
        return pool[self.rng.below(len(pool))]

    @staticmethod
    def clickable(rows: Sequence[dict[str, Any]], *, every_verb: bool = False) -> list[tuple[str, list[str] | None]]:
        """Return every (custom_id, select values or None) of ``rows``.

        Unless ``every_verb`` (for closed tables, where nothing can change), the table buttons that
        change something when the right person clicks them are left out.
        """
        out: list[tuple[str, list[str] | None]] = []
        for component in walk(rows):
            custom_id = component.get("custom_id") or ""
            if not custom_id or (not every_verb and custom_id.split(":")[-1] in CHANGING_VERBS):
                continue
            if component.get("type") == 2:
                out.append((custom_id, None))
            elif component.get("type") == 3:
                out.extend((custom_id, [o["value"]]) for o in component.get("options") or [])
        return out

    async def send_any(self, kind: str, member: MemberActor, message: Any, *, may_change: bool) -> None:
        options = self.clickable(message.components, every_verb=kind == "closed")
        if not options:
            return
        custom_id, values = options[self.rng.below(len(options))]
        await self.send(kind, member, message, custom_id, values, may_change=may_change)

    async def do_stale(self) -> None:
        live = [(t, m) for t, m in self.copies if t == self.target]
        if not live:
            self.copies.append((self.target, await self.copy_board(self.target)))
            return
        _table, message = live[self.rng.below(len(live))]
        table = self.table()
        awaited = self.awaited_human()
        member = awaited[0] if awaited is not None and self.rng.random() < 0.6 else self.random_member()
        # A copy whose prompt is still the current one is no longer stale: its click may apply.
        current = any(f":{table.prompt_version}:" in custom_id for custom_id in component_ids(message.components))
        await self.send_any("stale", member, message, may_change=current and table.status == "active")

    async def do_wrong_user(self) -> None:
        awaited = self.awaited_human()
        member = self.random_member(exclude=awaited[0] if awaited else None)
        table = self.table()
        if member in self.players and table.seat_of(member.id) is not None and awaited is not None:
            state = table.state
            seat = table.seat_of(member.id)
            if state is not None and seat is not None and seat.seat in table.engine.active_seats(state):
                return  # awaited too (a window open to several seats): not a wrong user
        board = self.board(self.target)
        if self.rng.random() < 0.5 or awaited is None:
            await self.send_any("wrong_user", member, board, may_change=False)
            return
        # The awaited player's own panel, clicked by someone else.
        panel = await self.open_panel(awaited[0], self.target)
        if panel is None or panel.response is None:
            return
        forged = await self.forge(self.thread_id(self.target), panel.response.components)
        self.copies.append((self.target, forged))
        await self.send_any("wrong_user", member, forged, may_change=False)

    async def do_foreign(self) -> None:
        world = self.world
        foreign = world.table(self.foreign)
        if foreign.status != "active":
            return
        forged = await self.forge(self.thread_id(self.target), self.board(self.foreign).components)
        member = self.players[self.rng.below(len(self.players))]
        if foreign.seat_of(member.id) is not None:
            member = self.outsiders[self.rng.below(len(self.outsiders))]
        await self.send_any("foreign", member, forged, may_change=False)

    def damaged_id(self) -> str:
        """Return a custom id no template of a working component fully matches the meaning of."""
        table = self.table()
        real = component_ids(self.board(self.target).components) or [f"tbl:{table.id}:hand"]
        base = real[self.rng.below(len(real))]
        choice = self.rng.below(9)
        if choice == 0:
            return "".join(ALPHABET[self.rng.below(len(ALPHABET))] for _ in range(1 + self.rng.below(100)))
        if choice == 1:
            return base[: max(1, self.rng.below(len(base)))]
        if choice == 2:
            return (base + "x" * 100)[:100]
        if choice == 3:
            return base.replace(f":{table.id}:", f":{10**17 + self.rng.below(10**6)}:", 1)
        if choice == 4:
            return base.replace(f":{table.id}:", ":" + "9" * 19 + ":", 1)
        if choice == 5:
            return f"act:{table.id}:{table.prompt_version}:{self.rng.below(2)}:" + "".join(
                ALPHABET[self.rng.below(37)] for _ in range(1 + self.rng.below(60))
            )
        if choice == 6:
            return f"tbl:{table.id}:" + "".join(ALPHABET[self.rng.below(26)] for _ in range(1 + self.rng.below(16)))
        if choice == 7:
            return f"lobby:{table.id}:" + "".join(ALPHABET[self.rng.below(26)] for _ in range(1 + self.rng.below(12)))
        return f"acts:{table.id}:{table.prompt_version}:1:" + "ж" * (1 + self.rng.below(20))

    async def do_malformed(self) -> None:
        custom_id = self.damaged_id()
        if custom_id.split(":")[-1] in CHANGING_VERBS:
            return
        forged = await self.forge(self.thread_id(self.target), button_rows(custom_id))
        member = self.random_member()
        await self.send("malformed", member, forged, custom_id, None, may_change=False)

    async def do_bad_select(self) -> None:
        table = self.table()
        prefix = f"acts:{table.id}:{table.prompt_version}:{self.rng.below(2)}:"
        selects = [c for c in component_ids(self.board(self.target).components) if c.startswith("acts:")]
        custom_id = selects[0] if selects and self.rng.random() < 0.5 else prefix + "any"
        values = list(
            dict.fromkeys(
                [
                    "",
                    "-",
                    "~",
                    "x" * 100,
                    "ж" * 100,
                    "play.",
                    "keep.duke+duke+duke+duke",
                    "income.1.2.3",
                    "steal.99999999999999999999",
                    "reveal.~",
                ]
            )
        )
        chosen = [v for v in values if v] or ["-"]
        count = 1 + self.rng.below(3)
        start = self.rng.below(len(chosen))
        picked = [chosen[(start + i) % len(chosen)] for i in range(count)]
        options = [{"label": v[:100] or "-", "value": v} for v in chosen]
        rows = [{"type": 1, "components": [{"type": 3, "custom_id": custom_id, "options": options, "max_values": 25}]}]
        forged = await self.forge(self.thread_id(self.target), rows)
        member = self.random_member()
        await self.send("bad_select", member, forged, custom_id, picked, may_change=False)

    async def do_closed(self) -> None:
        if not self.closed_copies:
            return
        message = self.closed_copies[self.rng.below(len(self.closed_copies))]
        await self.send_any("closed", self.random_member(), message, may_change=False)
