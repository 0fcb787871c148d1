"""A game kept: its whole log (the board's 📜 Log button), and the step-through replay viewer.

Both are rebuilt from the stored action log, never from stored states: the engines are
deterministic, so the seed, the options and the log give the state and the events of every step
(:func:`bot.tables.replay_steps`). A table saved before a restart or an upgrade of its state schema
replays the same way.

Hidden information. While a game runs its log shows public events only, and no replay opens; once
it is finished every private event is narrated and the viewer lists every hand at every step.

Private messages, paged with buttons whose ids follow the grammar of :mod:`bot.ui.components`:

- ``log:<table>:<nav>:<page>``            the log, page ``<page>`` (``<nav>`` keeps ids distinct)
- ``rpl:<table>:<owner>:<nav>:<step>``    the replay of ``<owner>``, at step ``<step>`` (``txt``: the log as a file)
- ``rpls:<table>:<owner>:jump``           jump to a round or turn (the option's value is the step)

A viewer belongs to whoever opened it: another member's click is refused privately. A click that
names a step the game does not have (a damaged or forged id) is refused as out of date.
"""

from __future__ import annotations

import asyncio
import io
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from bot.errors import deliver
from bot.guilds import interaction_locale
from bot.i18n import translate
from bot.presenters.registry import PRESENTERS
from bot.storage import ReplayData, Storage, TableRow, TableStatus
from bot.tables import RESIGN_ACTION, TableError, replay_steps
from bot.ui.components import LogButton, ReplayButton, ReplaySelect
from bot.ui.gamelog import step_lines
from bot.ui.panels import COLOUR, game_name
from bot.ui.text import image_names, safe_names
from games.core import BaseState, Event, StaleActionError
from games.registry import ENGINES

if TYPE_CHECKING:
    from pydantic import BaseModel

    from bot.app import TableBot

#: Characters of log text on one page (an embed description holds 4096).
PAGE_CHARS = 3500
#: Lines of log text on one page at most.
PAGE_LINES = 30
#: Finished games kept rebuilt in memory (a viewer's clicks replay nothing again).
CACHE_SIZE = 16
#: Jump targets one select offers (Discord's limit), around the current step.
JUMP_OPTIONS = 25
#: Steps between two jump targets of a game that reports neither rounds nor turns.
MARK_EVERY = 10


@dataclass(frozen=True)
class ReplayStep:
    """One step of a game: the state after it and the events it produced (step 0 is the deal)."""

    state: BaseState
    events: tuple[Event, ...]
    seat: int | None = None
    by_timeout: bool = False
    resigned: bool = False


@dataclass
class GameRecord:
    """A table's whole game rebuilt from its action log."""

    table: TableRow
    names: tuple[str, ...]
    steps: tuple[ReplayStep, ...]
    _marks: list[tuple[str, int, int]] | None = field(default=None, repr=False)

    @property
    def finished(self) -> bool:
        """Return whether the game is over with a result (then every hidden card may be shown)."""
        return self.table.status == TableStatus.FINISHED

    def view(self, step: int, seat: int | None = None) -> BaseModel:
        """Return what ``seat`` saw (``None``: the public view) after ``step``."""
        return ENGINES[self.table.game].view(self.steps[step].state, seat)

    def marks(self) -> list[tuple[str, int, int]]:
        """Return where rounds begin (or turns, in a game without rounds): (kind, number, step).

        Read from the public ``round_started`` / ``turn_started`` events every game reports; a game
        with neither is marked every :data:`MARK_EVERY` steps.
        """
        if self._marks is None:
            self._marks = []
            for kind in ("round", "turn"):
                starts = [
                    i for i, step in enumerate(self.steps) if any(e.kind == f"{kind}_started" for e in step.events)
                ]
                if starts:
                    self._marks = [(kind, number, index) for number, index in enumerate(starts, start=1)]
                    break
            else:
                self._marks = [("step", index, index) for index in range(0, len(self.steps), MARK_EVERY)]
        return self._marks


def rebuild(data: ReplayData) -> GameRecord:
    """Return the whole game of ``data``'s table, step by step."""
    names = tuple(s.display_name for s in sorted(data.seats, key=lambda s: s.seat if s.seat is not None else 0))
    replayed = replay_steps(data)
    state, events = next(replayed)
    steps = [ReplayStep(state=state, events=tuple(events))]
    for entry, (state, events) in zip(data.log, replayed, strict=True):
        steps.append(
            ReplayStep(
                state=state,
                events=tuple(events),
                seat=entry.seat,
                by_timeout=entry.by_timeout,
                resigned=entry.action == RESIGN_ACTION,
            )
        )
    return GameRecord(table=data.table, names=names, steps=tuple(steps))


# ---------------------------------------------------------------------- the log
def log_entries(record: GameRecord, locale: str) -> list[str]:
    """Return the game's log, one entry per step that shows something; private events only after the end."""
    entries: list[str] = []
    hidden = record.finished
    for index, step in enumerate(record.steps):
        lines = step_lines(record.table.game, step.events, safe_names(record.names), locale, hidden=hidden)
        if not lines:
            continue
        label = translate(locale, "ui.log.deal") if index == 0 else translate(locale, "ui.log.step", n=index)
        if step.by_timeout:
            label = f"{label} {translate(locale, 'ui.log.timeout')}"
        entries.append("\n".join([f"**{label}**", *(f"• {line}" for line in lines)]))
    return entries


def paginate(entries: Sequence[str]) -> list[str]:
    """Return the entries cut into pages of at most :data:`PAGE_CHARS` characters and :data:`PAGE_LINES` lines."""
    pages: list[str] = []
    current: list[str] = []
    size = lines = 0
    for entry in entries:
        entry = entry[:PAGE_CHARS]
        count = entry.count("\n") + 1
        if current and (size + len(entry) + 1 > PAGE_CHARS or lines + count > PAGE_LINES):
            pages.append("\n".join(current))
            current, size, lines = [], 0, 0
        current.append(entry)
        size += len(entry) + 1
        lines += count
    if current:
        pages.append("\n".join(current))
    return pages


def log_text(record: GameRecord, locale: str) -> str:
    """Return the whole log as plain text (the export file)."""
    title = translate(locale, "ui.log.title", game=game_name(record.table.game, locale), id=record.table.id)
    body = "\n\n".join(log_entries(record, locale)).replace("**", "")
    return f"{title}\n\n{body}\n"


def log_payload(record: GameRecord, page: int, locale: str) -> tuple[discord.Embed, discord.ui.View]:
    """Return page ``page`` of the log with its ◀ ▶ buttons."""
    pages = paginate(log_entries(record, locale)) or [translate(locale, "ui.log.empty")]
    if not 0 <= page < len(pages):
        raise StaleActionError
    note = translate(locale, "ui.log.finished" if record.finished else "ui.log.live")
    embed = discord.Embed(
        title=translate(locale, "ui.log.title", game=game_name(record.table.game, locale), id=record.table.id),
        description=f"*{note}*\n\n{pages[page]}"[:4096],
        colour=COLOUR,
    )
    embed.set_footer(text=translate(locale, "ui.log.page", page=page + 1, pages=len(pages)))
    view = discord.ui.View(timeout=None)
    table_id = record.table.id
    view.add_item(LogButton(table_id, "prev", max(0, page - 1), emoji="\N{BLACK LEFT-POINTING TRIANGLE}"))
    view.add_item(LogButton(table_id, "next", min(len(pages) - 1, page + 1), emoji="\N{BLACK RIGHT-POINTING TRIANGLE}"))
    for item, disabled in zip(view.children, (page == 0, page == len(pages) - 1), strict=True):
        if isinstance(item, LogButton):
            item.item.disabled = disabled
    return embed, view


def last_page(record: GameRecord, locale: str) -> int:
    """Return the index of the log's last page."""
    return max(0, len(paginate(log_entries(record, locale))) - 1)


# ---------------------------------------------------------------------- the viewer
def hands(record: GameRecord, step: int, locale: str) -> list[tuple[str, str]]:
    """Return (name, private summary) of every seat after ``step``: only for a finished game."""
    if not record.finished:
        raise TableError("ui.replay.not_finished")
    presenter = PRESENTERS[record.table.game]
    budget = hand_chars(len(record.names))
    names = safe_names(record.names)
    return [
        (name[:256] or "-", presenter.private_summary(record.view(step, seat), names, locale)[:budget] or "-")
        for seat, name in enumerate(names)
    ]


def hand_chars(seats: int) -> int:
    """Return how much of each hand the viewer shows: a field holds 1024 characters, an embed 6000 in all."""
    return min(1024, 3600 // max(1, seats))


def replay_payload(
    record: GameRecord, step: int, owner: int, locale: str
) -> tuple[discord.Embed, discord.ui.View, bytes]:
    """Return the viewer at ``step``: the board drawn from the public view, the step's log and every hand."""
    if not record.finished:
        raise TableError("ui.replay.not_finished")
    total = len(record.steps) - 1
    if not 0 <= step <= total:
        raise StaleActionError
    game = record.table.game
    presenter = PRESENTERS[game]
    public = record.view(step)
    png = presenter.render_board(public, image_names(record.names), locale)
    names = safe_names(record.names)
    current = record.steps[step]
    header = translate(locale, "ui.replay.step", n=step, total=total)
    if step == 0:
        header += " · " + translate(locale, "ui.replay.deal")
    elif current.seat is not None and 0 <= current.seat < len(record.names):
        header += " · " + translate(locale, "ui.replay.move", name=names[current.seat])
    lines = step_lines(game, current.events, names, locale, hidden=True)
    status = presenter.status(public, names, locale)
    description = "\n".join([f"**{header}**", status, "", *(f"• {line}" for line in lines)])
    embed = discord.Embed(
        title=translate(locale, "ui.replay.title", game=game_name(game, locale), id=record.table.id),
        description=description[:1900],
        colour=COLOUR,
    )
    for name, summary in hands(record, step, locale):
        embed.add_field(name=f"\N{PLAYING CARD BLACK JOKER} {name}", value=summary, inline=False)
    embed.set_image(url="attachment://replay.png")
    embed.set_footer(text=f"#{record.table.id} · v{current.state.version}")
    view = discord.ui.View(timeout=None)
    table_id = record.table.id
    buttons = [
        ("first", 0, "\N{BLACK LEFT-POINTING DOUBLE TRIANGLE WITH VERTICAL BAR}", step == 0),
        ("prev", max(0, step - 1), "\N{BLACK LEFT-POINTING TRIANGLE}", step == 0),
        ("next", min(total, step + 1), "\N{BLACK RIGHT-POINTING TRIANGLE}", step == total),
        ("last", total, "\N{BLACK RIGHT-POINTING DOUBLE TRIANGLE WITH VERTICAL BAR}", step == total),
    ]
    for nav, target, emoji, disabled in buttons:
        button = ReplayButton(table_id, owner, nav, target, emoji=emoji, row=0)
        button.item.disabled = disabled
        view.add_item(button)
    export = ReplayButton(
        table_id, owner, "txt", 0, label=translate(locale, "ui.button.log_export"), emoji="\N{PAGE FACING UP}", row=0
    )
    view.add_item(export)
    options = jump_options(record, step, locale)
    if options:
        placeholder = translate(locale, "ui.replay.jump")
        view.add_item(ReplaySelect(table_id, owner, placeholder=placeholder, options=options, row=1))
    return embed, view, png


def jump_options(record: GameRecord, step: int, locale: str) -> list[discord.SelectOption]:
    """Return the rounds (or turns) to jump to: the :data:`JUMP_OPTIONS` nearest the current step."""
    marks = record.marks()
    if len(marks) > JUMP_OPTIONS:
        here = max((i for i, mark in enumerate(marks) if mark[2] <= step), default=0)
        start = min(max(0, here - JUMP_OPTIONS // 2), len(marks) - JUMP_OPTIONS)
        marks = marks[start : start + JUMP_OPTIONS]
    return [
        discord.SelectOption(
            label=translate(locale, f"ui.replay.{kind}", n=number, total=len(record.steps) - 1)[:100],
            value=str(target),
            description=translate(locale, "ui.replay.step", n=target, total=len(record.steps) - 1)[:100],
            default=target <= step < next((m[2] for m in marks if m[2] > target), len(record.steps)),
        )
        for kind, number, target in marks
    ]


# ---------------------------------------------------------------------- the handlers
class Replays:
    """Answers the Log button, the log's pages and the replay viewer for one bot."""

    def __init__(self, bot: TableBot) -> None:
        """Bind the handlers to ``bot``."""
        self.bot = bot
        self._cache: OrderedDict[tuple[int, int], GameRecord] = OrderedDict()

    @property
    def storage(self) -> Storage:
        """Return the bot's storage."""
        return self.bot.storage

    async def record(self, table_id: int, guild_id: int | None) -> GameRecord:
        """Return the rebuilt game of ``table_id``, refused unless it was played in ``guild_id``."""
        row = await self.storage.get_table(table_id)
        if row is None or row.state is None:
            raise TableError("table.not_found" if row is None else "table.not_started")
        if row.guild_id != guild_id:
            raise TableError("ui.replay.not_here")
        key = (row.id, row.version)
        cached = self._cache.get(key)
        if cached is not None and cached.table.status == row.status:
            self._cache.move_to_end(key)
            return cached
        data = await self.storage.replay_data(table_id)
        if data is None or data.table.state is None:
            raise TableError("table.not_found")
        record = await asyncio.to_thread(rebuild, data)
        self._cache[(data.table.id, data.table.version)] = record
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return record

    async def open_log(self, interaction: discord.Interaction, table_id: int) -> None:
        """Send the log privately: a live game at its latest page, a finished one from the start."""
        locale = interaction_locale(interaction)
        record = await self.record(table_id, interaction.guild_id)
        page = 0 if record.finished else last_page(record, locale)
        embed, view = log_payload(record, page, locale)
        await deliver(lambda: interaction.response.send_message(embed=embed, view=view, ephemeral=True))

    async def log_page(self, interaction: discord.Interaction, table_id: int, page: int) -> None:
        """Show another page of the log in the clicked private message."""
        locale = interaction_locale(interaction)
        record = await self.record(table_id, interaction.guild_id)
        embed, view = log_payload(record, page, locale)
        await deliver(lambda: interaction.response.edit_message(embed=embed, view=view))

    async def open_replay(self, interaction: discord.Interaction, table_id: int) -> None:
        """Send a new viewer of a finished game, owned by the clicker, at the deal."""
        await self._show(interaction, table_id, interaction.user.id, 0, edit=False)

    async def replay_click(
        self, interaction: discord.Interaction, table_id: int, owner: int, nav: str, step: int
    ) -> None:
        """Move the clicker's own viewer to ``step``, or send the log as a file (``nav`` ``txt``)."""
        if interaction.user.id != owner:
            raise TableError("ui.replay.not_yours")
        if nav == "txt":
            locale = interaction_locale(interaction)
            record = await self.record(table_id, interaction.guild_id)
            if not record.finished:
                raise TableError("ui.replay.not_finished")
            text = log_text(record, locale).encode()
            content = translate(locale, "ui.replay.export", id=table_id)

            async def send() -> None:
                # A File is read once: a repeated delivery needs a fresh one.
                file = discord.File(io.BytesIO(text), filename=f"table-{table_id}-log.txt")
                await interaction.response.send_message(content, file=file, ephemeral=True)

            await deliver(send)
            return
        await self._show(interaction, table_id, owner, step, edit=nav != "open")

    async def replay_jump(self, interaction: discord.Interaction, table_id: int, owner: int, value: str) -> None:
        """Move the clicker's own viewer to the chosen round or turn."""
        if interaction.user.id != owner:
            raise TableError("ui.replay.not_yours")
        if not value.isdigit() or len(value) > 6:
            raise StaleActionError
        await self._show(interaction, table_id, owner, int(value), edit=True)

    async def _show(
        self, interaction: discord.Interaction, table_id: int, owner: int, step: int, *, edit: bool
    ) -> None:
        locale = interaction_locale(interaction)
        record = await self.record(table_id, interaction.guild_id)
        if not record.finished:
            raise TableError("ui.replay.not_finished")
        if not 0 <= step < len(record.steps):
            raise StaleActionError
        # Drawing a board takes a moment: acknowledge first, draw off the event loop, then answer.
        if edit:
            await deliver(interaction.response.defer)
        else:
            await deliver(lambda: interaction.response.defer(ephemeral=True, thinking=True))
        embed, view, png = await asyncio.to_thread(replay_payload, record, step, owner, locale)

        def image() -> discord.File:
            return discord.File(io.BytesIO(png), filename="replay.png")

        if edit:
            await deliver(lambda: interaction.edit_original_response(embed=embed, view=view, attachments=[image()]))
        else:
            await deliver(lambda: interaction.followup.send(embed=embed, view=view, file=image(), ephemeral=True))


def results_line(names: dict[int, str], ranks: dict[int, int], locale: str) -> str:
    """Return a history entry's players by place: ``1. alice, 2. bob`` (ties share a place)."""
    if not ranks:
        return translate(locale, "ui.history.no_result")
    ordered = sorted(ranks, key=lambda seat: (ranks[seat], seat))
    return ", ".join(f"{ranks[seat] + 1}. {names.get(seat, '?')}" for seat in ordered)


__all__ = [
    "GameRecord",
    "ReplayStep",
    "Replays",
    "hand_chars",
    "hands",
    "jump_options",
    "log_entries",
    "log_payload",
    "log_text",
    "paginate",
    "rebuild",
    "replay_payload",
    "results_line",
]
