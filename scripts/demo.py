"""Play whole Coup, Масти Власти, Гильдии Кадвалона and Интриги games through the real bot, offline; save what it posts.

``python -m scripts.demo --out demo-output [--game coup|masti|cadwallon|intrigue|all] [--games N] [--seed S]``
(``make demo``) runs the real :class:`~bot.app.TableBot` (its cogs, components, table service,
SQLite storage and publisher) against SimCord's in-memory Discord. No token and no network are needed.

First Alice runs ``/help`` on the English server (its private answer is shown in the transcript,
command mentions as ``[/coup new]``). Then the plan, in order (``--game`` keeps one game's part of
it, ``--games N`` then plays its first N):

1. Coup on an English server: a member runs ``/coup new``, clicks *Add AI* twice and *Start*. After
   that the member's seat is played by clicking the bot's own buttons: the board for public
   decisions and the private "My cards" panel for hidden ones. The Coup AI makes each choice from
   that seat's view.
2. Coup on a Russian server (guild locale ``ru``): all-AI tables of 2, 4 and 6 seats and a 2-player
   draft game. Each lobby is opened through the table service with ``seat_host=False`` and posted by
   the bot, as the Rematch button does. The host clicks *Add AI* and *Start* on it, and the bot's own
   Start path opens the thread, posts and edits the board and announces the result.
3. Масти Власти on the English server: a member runs ``/masti new teams:True``, adds three AIs and
   starts a 4-player team game, then plays her seat through her private panel (every Масти Власти
   decision is private). Her choices come from ``AGENTS["masti"]``, or from the random agent the bot
   itself falls back to while no Масти Власти AI is registered.
4. Масти Власти on the Russian server: all-AI tables of 3, 4, 4 in teams, 5 and 6 seats, opened and
   started as in 2.
5. Гильдии Кадвалона on the English server: a member runs ``/cadwallon new grid:3``, adds one AI and
   plays her seat: placements with the board's selects (where to place is public), action cards
   and their targets in her private panel. Her choices come from ``AGENTS["cadwallon"]``, or the
   random agent while no Гильдии Кадвалона AI is registered.
6. Гильдии Кадвалона on the Russian server: all-AI tables of 4 seats on a 3×3 grid and 8 seats on a
   5×5 grid, opened and started as in 2.
7. Интриги on the English server: a member runs ``/intrigue new``, adds two AIs and plays her seat
   through a whole game: the setup placement with the board's select (it is public), everything
   else (sealed choices, hires, card types) in her private panel.
8. Интриги on the Russian server: all-AI tables of 4 seats (7 lands) and 6 seats (9 lands), with a
   turn limit of 6 (see ``INTRIGUE_AI_TURNS``).

Written to ``--out``:

- ``transcript.md``: every message, edit and interaction answer the bot sent, in order (from
  SimCord's REST log), with the members' clicks between them. Mentions show as names and board
  images as links. Private answers are listed but not shown, except for one example.
- ``<game>-<table>-<nnn>.png`` (``coup-…``, ``masti-…``, ``cadwallon-…``): every board image the bot
  posted, from the publisher's observers.
- ``private-panel.md``, ``private-panel-masti.md`` and ``private-panel-cadwallon.md``: one private
  "My cards" panel of each game as its owner sees it.

Tables are seeded from ``--seed`` (``<seed>-<n>``), except the English ones. Their seeds are drawn by
the bot, as for every ``/coup new`` and ``/masti new``. The AIs act without a pause (``ai_delay_seconds = 0``), so board
edits coalesce while they play. The number of images per game therefore varies between runs, while
the moves of a seeded game do not. Some seatings of AIs trade blocked actions forever; a table still
going after ``MAX_MOVES`` moves is ended the way its host's End button ends it, and the summary
says so.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord

from bot.app import TableBot, create_bot
from bot.codec import encode_action
from bot.i18n import normalize_locale
from bot.presenters.registry import PRESENTERS
from bot.settings import Settings
from bot.storage import Storage
from bot.tables import Table
from bot.ui.panels import Payload, lobby_payload
from games.core import Agent, GameRng, RandomAgent
from games.registry import AGENTS, ENGINES

GAMES = ("coup", "masti", "cadwallon", "intrigue")
#: The game's name in the transcript.
TITLES = {
    "coup": "Переворот (Coup)",
    "masti": "Масти Власти (Suits of Power)",
    "cadwallon": "Гильдии Кадвалона (Guilds of Cadwallon)",
    "intrigue": "Интриги (Intrigue)",
}
#: The game's short name in a game's label.
SHORT_TITLES = {"coup": "Coup", "masti": "Масти Власти", "cadwallon": "Гильдии Кадвалона", "intrigue": "Интриги"}
#: The file of each game's private panel example.
PANEL_FILES = {
    "coup": "private-panel.md",
    "masti": "private-panel-masti.md",
    "cadwallon": "private-panel-cadwallon.md",
    "intrigue": "private-panel-intrigue.md",
}
CLOCK_SECONDS = 300
#: The turn limit of the all-AI Интриги tables (the hosted one plays the default 10). A whole
#: all-AI game plays out inside one click's settle, and late in the plan SimCord's bookkeeping of
#: every earlier interaction slows each board edit, so these games are kept to 400 moves or so.
INTRIGUE_AI_TURNS = 6
#: How long (real seconds) SimCord waits for the bot to go idle; a whole all-AI game plays out while
#: the Start click settles. It must stay below the decision clock: SimCord waits in real time for
#: timers due before this limit, so a longer limit would let every clock run out.
SETTLE_SECONDS = 120.0
#: A game still running after this many moves is taken as stuck (the longest of 1,000 seeded all-AI
#: games took about 750): the demo then ends it as its host would, with the End button's service call.
MAX_MOVES = 2_000
EPHEMERAL = 64
CALLBACKS = {
    4: "answers",
    5: "defers its answer",
    6: "acknowledges the click",
    7: "updates the clicked message",
}
MENTION = re.compile(r"<@!?(\d+)>")
CHANNEL_MENTION = re.compile(r"<#(\d+)>")
#: A clickable slash-command mention; Discord shows it as the command's name.
COMMAND_MENTION = re.compile(r"</([^:>]+):\d+>")
TABLE_ID = re.compile(r"^lobby:(\d+):")
FOOTER_TABLE = re.compile(r"^#(\d+) ")


@dataclass(frozen=True)
class GameSpec:
    """One game of the demo plan."""

    locale: str
    players: int
    draft: bool = False
    hosted: bool = False
    game: str = "coup"
    teams: bool = False
    grid: int | None = None

    @property
    def label(self) -> str:
        """Return a short description, e.g. ``Coup, ru, 2 players, draft, all AI``."""
        parts = [SHORT_TITLES[self.game], self.locale, f"{self.players} players"]
        if self.grid is not None:
            parts.append(f"{self.grid}×{self.grid}")
        if self.draft:
            parts.append("draft")
        if self.teams or (self.game == "masti" and self.players == 6):
            parts.append("teams")
        parts.append("host plays through the buttons" if self.hosted else "all AI")
        return ", ".join(parts)


PLAN: tuple[GameSpec, ...] = (
    GameSpec("en", 3, hosted=True),
    GameSpec("ru", 2),
    GameSpec("ru", 4),
    GameSpec("ru", 6),
    GameSpec("ru", 2, draft=True),
    GameSpec("en", 4, hosted=True, game="masti", teams=True),
    GameSpec("ru", 3, game="masti"),
    GameSpec("ru", 4, game="masti"),
    GameSpec("ru", 4, game="masti", teams=True),
    GameSpec("ru", 5, game="masti"),
    GameSpec("ru", 6, game="masti"),
    GameSpec("en", 2, hosted=True, game="cadwallon", grid=3),
    GameSpec("ru", 4, game="cadwallon", grid=3),
    GameSpec("ru", 8, game="cadwallon", grid=5),
    GameSpec("en", 3, hosted=True, game="intrigue"),
    GameSpec("ru", 4, game="intrigue"),
    GameSpec("ru", 6, game="intrigue"),
)


@dataclass
class GameReport:
    """What one game of the demo produced."""

    spec: GameSpec
    table_id: int
    moves: int
    images: int
    winner: str
    seconds: float
    stuck: bool = False


@dataclass
class DemoResult:
    """What the whole demo produced."""

    games: list[GameReport] = field(default_factory=list)
    images: int = 0
    seconds: float = 0.0
    out: Path = Path()

    @property
    def moves(self) -> int:
        """Return the accepted moves over all games."""
        return sum(g.moves for g in self.games)

    def summary(self) -> str:
        """Return the short summary printed at the end."""
        lines = [
            f"Demo: {len(self.games)} games, {self.moves} moves, {self.images} board images, "
            f"{self.seconds:.1f} s -> {self.out}/"
        ]
        lines.extend(
            f"  table #{g.table_id} ({g.spec.label}): {g.moves} moves, {g.images} images, "
            + (f"ended by the demo after {MAX_MOVES} moves (stuck)" if g.stuck else f"winner {g.winner}")
            + f", {g.seconds:.1f} s"
            for g in self.games
        )
        return "\n".join(lines)


# ---------------------------------------------------------------------- transcript
def _quote(lines: Iterable[str]) -> list[str]:
    """Return ``lines`` as one Markdown block quote with hard line breaks."""
    out = [f"> {line}  " if line else ">" for line in lines]
    if out and out[-1].endswith("  "):
        out[-1] = out[-1].rstrip()
    return out


def _component_text(component: dict[str, Any]) -> str:
    kind = component.get("type")
    if kind == 2:
        emoji = (component.get("emoji") or {}).get("name") or ""
        label = component.get("label") or ""
        return f"[{(emoji + ' ' + label).strip()}]"
    if kind == 3:
        options = " | ".join(str(o.get("label", "")) for o in component.get("options") or [])
        return f"⟨{component.get('placeholder') or '…'}: {options}⟩"
    return f"⟨component {kind}⟩"


def image_key(title: object, description: object, footer: object) -> str:
    """Return what ties a posted image to its message: the embed's title, text and footer."""
    return "\x1f".join(str(part or "") for part in (title, description, footer))


class Recorder:
    """Turns SimCord's REST log and the publisher's payloads into the transcript and image files."""

    def __init__(self, env: simcord.Env, out: Path) -> None:
        """Record ``env`` into ``out``."""
        self.env = env
        self.out = out
        self.lines: list[str] = []
        self.cursor = 0
        self.names: dict[int, str] = {}
        self.places: dict[int, str] = {}
        self.parents: list[simcord.ChannelHandle] = []
        self.images: dict[str, deque[str]] = defaultdict(deque)
        self.image_count: Counter[int] = Counter()
        self.private_answers = 0
        #: Lobby messages the bot turns into result cards (their edits are titled so).
        self.cards: set[str] = set()
        self.capture_panel: str | None = None
        self.panel_examples: dict[str, list[str]] = {}
        #: Show private answers in full (the replay's section: what Alice steps through).
        self.show_private = False

    # -------------------------------------------------------------- inputs
    def observe(self, table: Table, kind: str, payload: Payload) -> None:
        """Save the board image of ``payload`` (a publisher observer); note which lobby becomes a result card."""
        if kind == "card" and table.lobby_message_id is not None:
            self.cards.add(str(table.lobby_message_id))
        if payload.png is None:
            return
        self.image_count[table.id] += 1
        name = f"{table.game}-{table.id}-{self.image_count[table.id]:03d}.png"
        (self.out / name).write_bytes(payload.png)
        # Boards carry no footer: an image is matched to its message by the embed's visible text.
        embed = payload.embed
        self.images[image_key(embed.title, embed.description, embed.footer.text)].append(name)

    def heading(self, text: str, level: int = 2) -> None:
        """Start a section of the transcript."""
        self.flush()
        self.lines.extend(["", "#" * level + " " + text, ""])

    def note(self, text: str) -> None:
        """Write what a member or the demo does, after everything the bot sent before it."""
        self.flush()
        self.lines.extend([f"**{text}**", ""])

    def flush(self, *, private_update: bool = False) -> None:
        """Write every request the bot made since the last flush.

        Args:
            private_update: The last click was on a private message, so a callback that updates
                the clicked message is private too.
        """
        requests = self.env.http_requests
        for request in requests[self.cursor :]:
            self._request(request, private_update=private_update)
        self.cursor = len(requests)

    # -------------------------------------------------------------- formatting
    def _text(self, text: str) -> str:
        text = MENTION.sub(lambda m: "@" + self.names.get(int(m[1]), m[1]), text)
        text = COMMAND_MENTION.sub(lambda m: f"[/{m[1]}]", text)
        return CHANNEL_MENTION.sub(lambda m: "#" + self._place(m[1]), text)

    def _place(self, channel_id: str | int) -> str:
        key = int(channel_id)
        if key not in self.places:
            for thread in (t for parent in self.parents for t in parent.threads):
                self.places.setdefault(thread.id, thread.name or str(thread.id))
        return self.places.get(key, str(channel_id))

    def _request(self, request: simcord.HttpLogEntry, *, private_update: bool) -> None:
        method, path, body = request.method, request.path, request.json
        parts = path.strip("/").split("/")
        if method == "GET":
            return
        if method == "PUT" and path.endswith("/commands"):
            self._entry("The bot syncs its slash commands.", None)
        elif method == "POST" and parts[0] == "channels" and parts[-1] == "threads":
            name = str((body or {}).get("name", ""))
            self._entry(f"The bot opens the thread “{name}” on the lobby message.", None)
        elif method == "POST" and parts[0] == "channels" and parts[-1] == "messages":
            self._entry(f"The bot posts in #{self._place(parts[1])}:", body)
        elif method == "PATCH" and parts[0] == "channels" and parts[-1] in self.cards:
            self._entry(f"The bot turns the lobby message in #{self._place(parts[1])} into the result card:", body)
        elif method == "PATCH" and parts[0] == "channels":
            self._entry(f"The bot edits a message in #{self._place(parts[1])}:", body)
        elif method == "DELETE" and parts[0] == "channels":
            self._entry(f"The bot deletes its earlier message in #{self._place(parts[1])}.", None)
        elif parts[0] == "interactions" and parts[-1] == "callback":
            kind = int((body or {}).get("type", 0))
            data = (body or {}).get("data") or {}
            private = bool(int(data.get("flags") or 0) & EPHEMERAL) or (kind == 7 and private_update)
            self._answer(CALLBACKS.get(kind, f"answers (type {kind})"), data if kind in {4, 7} else None, private)
        elif parts[0] == "webhooks":
            private = bool(int((body or {}).get("flags") or 0) & EPHEMERAL)
            verb = "edits its answer" if method == "PATCH" else "follows up"
            self._answer(verb, body, private)
        else:
            self._entry(f"The bot calls {method} {path}.", None)

    def _answer(self, verb: str, body: dict[str, Any] | None, private: bool) -> None:
        if not private:
            self._entry(f"The bot {verb}:" if body else f"The bot {verb}.", body)
            return
        self.private_answers += 1
        if self.show_private and body:
            self._entry(f"The bot {verb} privately (only Alice sees this):", body)
            return
        if self.capture_panel is not None and body and body.get("embeds"):
            self.panel_examples[self.capture_panel] = self._message(body)
            self.capture_panel = None
            self._entry(f"The bot {verb} privately (only the clicking member sees this):", body)
            return
        self.lines.extend([f"- *The bot {verb} privately (not shown).*", ""])

    def _entry(self, title: str, body: dict[str, Any] | None) -> None:
        self.lines.append(f"- {title}")
        if body:
            self.lines.append("")
            self.lines.extend(_quote(self._message(body)))
        self.lines.append("")

    def _message(self, body: dict[str, Any]) -> list[str]:
        lines: list[str] = []
        if body.get("content"):
            lines.extend(self._text(str(body["content"])).splitlines())
        for embed in body.get("embeds") or []:
            lines.extend(self._embed(embed))
        for row in body.get("components") or []:
            items = row.get("components") or [row]
            lines.append(" ".join(_component_text(c) for c in items))
        return lines

    def _embed(self, embed: dict[str, Any]) -> list[str]:
        lines: list[str] = []
        if embed.get("title"):
            lines.append(f"**{self._text(str(embed['title']))}**")
        if embed.get("description"):
            lines.extend(self._text(line) for line in str(embed["description"]).splitlines())
        for item in embed.get("fields") or []:
            name = self._text(str(item.get("name", ""))).replace("\u200b", "").strip()
            value = self._text(str(item.get("value", ""))).replace("\n", " · ")
            lines.append(f"*{name}:* {value}" if name else value)
        footer = str((embed.get("footer") or {}).get("text") or "")
        image = str((embed.get("image") or {}).get("url") or "")
        if image.startswith("attachment://"):
            queue = self.images.get(image_key(embed.get("title"), embed.get("description"), footer))
            file = queue.popleft() if queue else None
            lines.append(f"![board]({file})" if file else "*(board image not captured)*")
        if footer:
            lines.append(f"_{self._text(footer)}_")
        return lines

    # -------------------------------------------------------------- output
    def write(self, result: DemoResult) -> None:
        """Write ``transcript.md`` and ``private-panel.md``."""
        self.flush()
        head = [
            "# Demo transcript",
            "",
            "Whole games of Переворот (Coup), Масти Власти, Гильдии Кадвалона and Интриги played by the real bot on "
            "SimCord's offline Discord "
            "(`python -m scripts.demo`). Every message, edit and interaction answer the bot sent is "
            "listed in order; **bold lines** are what members (or the demo) did.",
            "",
            "```text",
            result.summary(),
            "```",
        ]
        (self.out / "transcript.md").write_text("\n".join([*head, *self.lines]).rstrip() + "\n", encoding="utf-8")
        for game, example in self.panel_examples.items():
            panel = [
                f"# Private panel example: {TITLES[game]}",
                "",
                "What a player sees after clicking “My cards” on the board: an ephemeral message built "
                "from that seat's own view and legal actions (`bot.ui.panels.panel_payload`).",
                "",
                *_quote(example),
            ]
            (self.out / PANEL_FILES[game]).write_text("\n".join(panel) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------- driving the bot
def _find_component(message: discord.Message, custom_id: str) -> discord.Button | discord.SelectMenu | None:
    for row in message.components:
        for item in getattr(row, "children", ()):
            if isinstance(item, discord.Button | discord.SelectMenu) and item.custom_id == custom_id:
                return item
    return None


def _find_action(
    message: discord.Message, table_id: int, prompt: int, *, private: bool, code: str
) -> tuple[str, str, bool] | None:
    """Return (custom id, label, is a select) of the component taking action ``code``, if shown."""
    flag = int(private)
    button_id = f"act:{table_id}:{prompt}:{flag}:{code}"
    select_prefix = f"acts:{table_id}:{prompt}:{flag}:"
    for row in message.components:
        for item in getattr(row, "children", ()):
            if isinstance(item, discord.Button) and item.custom_id == button_id:
                return button_id, item.label or code, False
            if isinstance(item, discord.SelectMenu) and (item.custom_id or "").startswith(select_prefix):
                for option in item.options:
                    if option.value == code:
                        return item.custom_id or "", option.label, True
    return None


class Demo:
    """One SimCord world with an English and a Russian server, and the bot under test."""

    def __init__(self, env: simcord.Env, bot: TableBot, recorder: Recorder, seed: str) -> None:
        """Build both servers, their channels and hosts."""
        self.env = env
        self.bot = bot
        self.rec = recorder
        self.seed = seed
        self.stuck: set[int] = set()
        self.replayed = False
        self._ending: set[asyncio.Task[Any]] = set()
        self.en_guild = env.create_guild("Board Game Club", preferred_locale="en-US")
        self.en_channels = {
            "coup": self.en_guild.create_text_channel("coup"),
            "masti": self.en_guild.create_text_channel("suits-of-power"),
            "cadwallon": self.en_guild.create_text_channel("guilds-of-cadwallon"),
            "intrigue": self.en_guild.create_text_channel("intrigue"),
        }
        self.alice = self.en_guild.add_member(env.create_user("alice", global_name="Alice"))
        self.ru_guild = env.create_guild("Клуб настольных игр", preferred_locale="ru")
        self.ru_channels = {
            "coup": self.ru_guild.create_text_channel("переворот"),
            "masti": self.ru_guild.create_text_channel("масти-власти"),
            "cadwallon": self.ru_guild.create_text_channel("гильдии-кадвалона"),
            "intrigue": self.ru_guild.create_text_channel("интриги"),
        }
        self.anna = self.ru_guild.add_member(env.create_user("anna", global_name="Анна"))
        me = bot.user
        if me is not None:
            recorder.names[me.id] = me.name
        recorder.names.update({self.alice.id: "Alice", self.anna.id: "Анна"})
        for channel in [*self.en_channels.values(), *self.ru_channels.values()]:
            recorder.places[channel.id] = channel.name or str(channel.id)
            recorder.parents.append(channel)

    def watch(self, table: Table, kind: str, payload: Payload) -> None:
        """End a table that is still going after :data:`MAX_MOVES` moves (a publisher observer).

        Some seats of AIs trade blocked actions forever (see the demo's report); the host's End
        button calls ``TableService.cancel``, and so does this.
        """
        state = table.state
        if table.status != "active" or state is None or state.version < MAX_MOVES or table.id in self.stuck:
            return
        self.stuck.add(table.id)
        self.rec.note(
            f"The demo ends table #{table.id} as its host after {state.version} moves: the AIs are stuck "
            "trading blocked actions"
        )
        task = asyncio.get_running_loop().create_task(
            self.bot.service.cancel(table.id, table.host_id, is_moderator=False), name=f"demo-end-{table.id}"
        )
        self._ending.add(task)
        task.add_done_callback(self._ending.discard)

    def _guild_locale(self, guild: simcord.GuildHandle) -> str:
        cached = self.bot.get_guild(guild.id)
        return normalize_locale(str(cached.preferred_locale) if cached is not None else None)

    def _message(self, channel: simcord.ChannelHandle, message_id: int | None) -> discord.Message:
        for message in reversed(channel.history()):
            if message.id == message_id:
                return message
        raise LookupError(f"message {message_id} is not in #{channel.name}")

    def _thread(self, channel: simcord.ChannelHandle, table: Table) -> simcord.ChannelHandle:
        for thread in channel.threads:
            if thread.id == table.thread_id:
                return thread
        raise LookupError(f"table #{table.id} has no thread in #{channel.name}")

    async def click(
        self, member: simcord.MemberActor, who: str, message: discord.Message, custom_id: str, *, private: bool = False
    ) -> simcord.InteractionResult:
        """Click the button ``custom_id`` on ``message`` as ``member`` and record it."""
        item = _find_component(message, custom_id)
        label = getattr(item, "label", None) or str(getattr(item, "emoji", None) or "") or custom_id
        self.rec.note(f"{who} clicks [{label}]")
        result = await member.click(message, custom_id=custom_id)
        self.rec.flush(private_update=private)
        return result

    async def ask_for_help(self) -> None:
        """Alice runs /help: the games, how to open a table, the commands (clickable) and the Rules buttons."""
        self.rec.heading("Help")
        self.rec.show_private = True
        try:
            self.rec.note("Alice runs /help")
            result = await self.alice.slash(self.en_channels["coup"], "help")
            self.rec.flush()
            if result.response is None:
                raise RuntimeError("/help did not answer")
        finally:
            self.rec.show_private = False

    async def play(self, index: int, spec: GameSpec) -> GameReport:
        """Play game number ``index`` of the plan and return what it produced."""
        start = time.perf_counter()
        self.rec.heading(f"Game {index}: {spec.label}")
        table = await (self._hosted_game(spec) if spec.hosted else self._ai_game(index, spec))
        await self.env.settle()
        stuck = table.id in self.stuck
        self.rec.flush()
        if table.state is None or table.status != ("cancelled" if stuck else "finished"):
            raise RuntimeError(f"table #{table.id} did not finish (status {table.status})")
        if spec.hosted and not stuck and not self.replayed:
            self.replayed = True
            await self._replay(table, self.en_channels[spec.game])
        outcome = table.engine.outcome(table.state)
        winner = "—"
        if outcome is not None:
            # A team game ranks both partners first.
            winner = " & ".join(seat.name for seat, rank in zip(table.seats, outcome.ranks, strict=True) if rank == 0)
        return GameReport(
            spec=spec,
            table_id=table.id,
            moves=table.state.version,
            images=self.rec.image_count[table.id],
            winner=winner,
            seconds=time.perf_counter() - start,
            stuck=stuck,
        )

    async def _replay(self, table: Table, channel: simcord.ChannelHandle) -> None:
        """Alice opens the finished game from /history and steps through its replay, then exports its log."""
        self.rec.heading(f"Replay of table #{table.id}", level=3)
        self.rec.show_private = True
        try:
            self.rec.note("Alice runs /history")
            listing = await self.alice.slash(channel, "history")
            self.rec.flush()
            if listing.response is None:
                raise RuntimeError("/history did not answer")
            base = f"rpl:{table.id}:{self.alice.id}"
            opened = await self.click(self.alice, "Alice", listing.response.message, f"{base}:open:0", private=True)
            if opened.response is None:
                raise RuntimeError("the replay did not open")
            viewer = opened.response.message
            total = table.state.version if table.state is not None else 0
            steps = [f"{base}:next:{step}" for step in range(1, min(3, total) + 1)]
            for custom_id in [*steps, f"{base}:last:{total}"]:
                clicked = await self.click(self.alice, "Alice", viewer, custom_id, private=True)
                viewer = clicked.response.message if clicked.response is not None else viewer
            jump = _find_component(viewer, f"rpls:{table.id}:{self.alice.id}:jump")
            if isinstance(jump, discord.SelectMenu) and jump.options:
                target = jump.options[len(jump.options) // 2]
                self.rec.note(f"Alice jumps to “{target.label}”")
                await self.alice.select(viewer, [target.value], custom_id=jump.custom_id)
                self.rec.flush(private_update=True)
            await self.click(self.alice, "Alice", viewer, f"{base}:txt:0", private=True)
        finally:
            self.rec.show_private = False

    async def _ai_game(self, index: int, spec: GameSpec) -> Table:
        """Open an all-AI lobby through the service, post it with the bot, add AIs and start by clicks."""
        service = self.bot.service
        locale = self._guild_locale(self.ru_guild)
        ru_channel = self.ru_channels[spec.game]
        options: dict[str, Any] = _game_options(spec)
        self.rec.note(
            "The demo opens an all-AI table through TableService.create_lobby(seat_host=False); "
            "the bot posts its lobby, as the Rematch button does"
        )
        table = await service.create_lobby(
            guild_id=self.ru_guild.id,
            channel_id=ru_channel.id,
            game=spec.game,
            host_id=self.anna.id,
            host_name="Анна",
            options={"clock": CLOCK_SECONDS, "game": options},
            locale=locale,
            seed=f"{self.seed}-{index}",
            seat_host=False,
        )
        payload = lobby_payload(table, locale)
        channel = self.bot.get_partial_messageable(ru_channel.id, guild_id=self.ru_guild.id)
        posted = await channel.send(embed=payload.embed, view=payload.view)
        await service.set_lobby_message(table, posted.id)
        self.rec.flush()
        lobby = self._message(ru_channel, posted.id)
        for _ in range(spec.players):
            await self.click(self.anna, "Анна", lobby, f"lobby:{table.id}:addai")
        await self.click(self.anna, "Анна", lobby, f"lobby:{table.id}:start")
        self._thread(ru_channel, table)
        return table

    async def _hosted_game(self, spec: GameSpec) -> Table:
        """Open a table with ``/<game> new`` and play the host's seat through the bot's buttons."""
        en_channel = self.en_channels[spec.game]
        options: dict[str, Any] = {"teams": True} if spec.teams else {}
        if spec.grid is not None:
            options["grid"] = spec.grid
        # One clock longer than SimCord's settle limit for every decision: without it Интриги keeps
        # the rules' own clocks (30–120 s), which would run out while a click settles.
        options["clock"] = CLOCK_SECONDS
        shown = "".join(f" {key}:{value}" for key, value in options.items())
        self.rec.note(f"Alice runs /{spec.game} new{shown}")
        result = await self.alice.slash(en_channel, f"{spec.game} new", **options)
        self.rec.flush()
        if result.response is None:
            raise RuntimeError(f"/{spec.game} new did not answer")
        lobby = result.response.message
        table_id = next(
            int(match[1])
            for row in lobby.components
            for item in getattr(row, "children", ())
            if (match := TABLE_ID.match(getattr(item, "custom_id", None) or ""))
        )
        for _ in range(spec.players - 1):
            await self.click(self.alice, "Alice", lobby, f"lobby:{table_id}:addai")
        await self.click(self.alice, "Alice", lobby, f"lobby:{table_id}:start")
        table = await self.bot.service.get(table_id)
        thread = self._thread(en_channel, table)
        await self._play_seat(table, thread)
        return table

    async def _play_seat(self, table: Table, thread: simcord.ChannelHandle) -> None:
        """Play Alice's seat: the game's AI chooses from her view, the demo clicks the matching component.

        A game without a registered AI falls back to the random agent, as the bot's AI seats do.
        """
        agent: Agent = AGENTS.get(table.game, RandomAgent())
        presenter = PRESENTERS[table.game]
        engine = table.engine
        shown_panel = False
        while True:
            await self.env.settle()
            self.rec.flush()
            state = table.state
            if table.status != "active" or state is None:
                return
            seat = table.seat_of(self.alice.id)
            if seat is None or seat.seat not in engine.active_seats(state):
                raise RuntimeError(f"table #{table.id} waits for nobody the demo drives (v{state.version})")
            view = engine.view(state, seat.seat)
            action = agent.choose(
                view, engine.legal_actions(state, seat.seat), GameRng.for_step(state.seed, state.version, salt="demo")
            )
            code = encode_action(action)
            prompt = table.prompt_version
            board = self._message(thread, table.board_message_id)
            on_board = presenter.decided_on_board(engine.view(state, None))
            found = _find_action(board, table.id, prompt, private=False, code=code) if on_board else None
            if found is None or not shown_panel:
                self.rec.capture_panel = None if shown_panel else table.game
                opened = await self.click(self.alice, "Alice", board, f"tbl:{table.id}:hand")
                shown_panel = True
                if found is None:
                    if opened.response is None:
                        raise RuntimeError("“My cards” did not answer")
                    panel = opened.response.message
                    found = _find_action(panel, table.id, prompt, private=True, code=code)
                    if found is None:
                        raise RuntimeError(f"action {code} is neither on the board nor in the panel")
                    await self._take(panel, found, code, private=True)
                    continue
            await self._take(board, found, code, private=False)

    async def _take(self, message: discord.Message, found: tuple[str, str, bool], code: str, *, private: bool) -> None:
        """Click the button, or pick the select option, that takes the action encoded as ``code``."""
        custom_id, label, is_select = found
        if is_select:
            self.rec.note(f"Alice chooses “{label}”")
            await self.alice.select(message, [code], custom_id=custom_id)
        else:
            self.rec.note(f"Alice clicks [{label}]")
            await self.alice.click(message, custom_id=custom_id)
        self.rec.flush(private_update=private)


def _game_options(spec: GameSpec) -> dict[str, Any]:
    """Return the engine options an all-AI table of ``spec`` is opened with."""
    if spec.game == "coup":
        return {"draft": spec.draft}
    if spec.game == "cadwallon":
        return {"grid": spec.grid}
    if spec.game == "intrigue":
        return {"max_turns": INTRIGUE_AI_TURNS}
    return {"teams": spec.teams}


def _warm_up(games: Iterable[str]) -> None:
    """Render one board of each of ``games`` so fonts and sprites are cached before the first game."""
    for game in games:
        engine = ENGINES[game]
        step = engine.setup(4, engine.options_type(), "warm-up")
        PRESENTERS[game].render_board(engine.view(step.state, None), ["A", "B", "C", "D"], "ru")


def _clear(out: Path) -> None:
    """Remove the files an earlier demo wrote to ``out`` (only those)."""
    pngs = [path for game in GAMES for path in out.glob(f"{game}-*-*.png")]
    for path in [*pngs, out / "transcript.md", *(out / name for name in PANEL_FILES.values())]:
        path.unlink(missing_ok=True)


def plan_for(game: str = "all") -> tuple[GameSpec, ...]:
    """Return the part of :data:`PLAN` that plays ``game`` (``all``: the whole plan)."""
    if game != "all" and game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    return tuple(spec for spec in PLAN if game in {"all", spec.game})


async def run_demo(
    out: Path, *, games: int | None = None, seed: str = "demo", plan: Sequence[GameSpec] = PLAN
) -> DemoResult:
    """Play the first ``games`` games of ``plan`` (all by default) and write the transcript and images to ``out``."""
    games = len(plan) if games is None else games
    if not 1 <= games <= len(plan):
        raise ValueError(f"--games must be between 1 and {len(plan)}")
    plan = plan[:games]
    started = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    _clear(out)
    _warm_up(dict.fromkeys(spec.game for spec in plan))
    result = DemoResult(out=out)
    with tempfile.TemporaryDirectory(prefix="coup-demo-") as tmp:
        settings = Settings(
            discord_token=None,
            database_path=str(Path(tmp) / "demo.sqlite3"),
            default_locale="ru",
            ai_delay_seconds=0,
            board_edit_interval=0,
            default_clock_seconds=CLOCK_SECONDS,
            # SimCord's clock stands still while the demo's members click at machine speed: no click
            # limit, no cooldown between the tables Alice opens.
            click_burst=0,
            open_table_cooldown_seconds=0,
            _env_file=None,
        )
        # SimCord detaches the bot without calling its close(), so the demo owns the storage.
        storage = await Storage.open(settings.database_path)
        try:
            bot = create_bot(settings, storage=storage)
            async with simcord.run(bot, settle_timeout=SETTLE_SECONDS) as env:
                recorder = Recorder(env, out)
                recorder.heading("Setup")
                bot.publisher.observers.append(recorder.observe)
                demo = Demo(env, bot, recorder, seed)
                bot.publisher.observers.append(demo.watch)
                await demo.ask_for_help()
                for index, spec in enumerate(plan, start=1):
                    result.games.append(await demo.play(index, spec))
                result.images = sum(recorder.image_count.values())
                result.seconds = time.perf_counter() - started
                recorder.write(result)
            await bot.service.close()
        finally:
            await storage.close()
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """Run the demo from the command line."""
    parser = argparse.ArgumentParser(prog="python -m scripts.demo", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("demo-output"), help="output directory")
    parser.add_argument("--game", choices=(*GAMES, "all"), default="all", help="play only this game's part of the plan")
    parser.add_argument("--games", type=int, default=None, help="play the first N games of the (chosen) plan")
    parser.add_argument("--seed", default="demo", help="seed of the all-AI tables")
    args = parser.parse_args(argv)
    result = asyncio.run(run_demo(args.out, games=args.games, seed=args.seed, plan=plan_for(args.game)))
    print(result.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
