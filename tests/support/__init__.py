"""Helpers of the Discord glue tests: the :class:`World` driver and readers of SimCord messages."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from simcord import Env
from simcord.actors import MemberActor
from simcord.builders import ChannelHandle, GuildHandle
from simcord.results import InteractionResult, ResponseMessage

from bot.app import TableBot, create_bot
from bot.codec import encode_action
from bot.i18n import translate
from bot.settings import Settings
from bot.storage import Storage
from bot.tables import Table, TableService, choose_ai_action
from bot.ui.text import safe_name
from games.core import Agent, BaseState, GameError, RandomAgent
from games.coup.models import Card
from games.registry import AGENTS

MessageLike = discord.Message | ResponseMessage


def walk(rows: Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for row in rows:
        yield row
        yield from walk(row.get("components") or [])


def component_ids(rows: Sequence[dict[str, Any]]) -> list[str]:
    return [c["custom_id"] for c in walk(rows) if c.get("custom_id")]


def find_action(rows: Sequence[dict[str, Any]], action: Any) -> tuple[str, str, str] | None:
    """Return ("button" | "select", custom_id, value) of the component taking ``action``."""
    encoded = encode_action(action)
    for component in walk(rows):
        custom_id = component.get("custom_id") or ""
        if component.get("type") == 2 and custom_id.startswith("act:") and custom_id.split(":", 4)[4] == encoded:
            return ("button", custom_id, encoded)
        if component.get("type") == 3 and custom_id.startswith("acts:"):
            for option in component.get("options") or []:
                if option["value"] == encoded:
                    return ("select", custom_id, encoded)
    return None


def private_text(result: InteractionResult) -> str:
    """Return the text of a private answer (content and embed descriptions), or "" if none."""
    messages = [m for m in [result.response, *result.followups] if m is not None and m.ephemeral]
    parts: list[str] = []
    for message in messages:
        parts.append(message.content)
        parts.extend(embed.description or "" for embed in message.embeds)
    return "\n".join(p for p in parts if p)


def embed_text(embeds: Sequence[discord.Embed]) -> str:
    """Return every visible text of ``embeds``."""
    parts: list[str] = []
    for embed in embeds:
        parts.extend(str(x) for x in (embed.title, embed.description, embed.footer.text) if x)
        for embed_field in embed.fields:
            parts.extend(str(x) for x in (embed_field.name, embed_field.value) if x)
    return "\n".join(parts)


def button_rows(*custom_ids: str) -> list[dict[str, Any]]:
    """Return one action row of plain buttons with ``custom_ids`` (for forged messages)."""
    buttons = [{"type": 2, "style": 2, "label": f"b{i}", "custom_id": c} for i, c in enumerate(custom_ids)]
    return [{"type": 1, "components": buttons}]


def select_rows(custom_id: str, *values: str) -> list[dict[str, Any]]:
    """Return one action row holding a string select with option ``values`` (for forged messages)."""
    options = [{"label": v[:100], "value": v} for v in values]
    return [{"type": 1, "components": [{"type": 3, "custom_id": custom_id, "options": options}]}]


# ---------------------------------------------------------------------- bots
async def build_bot(settings: Settings, bots: list[TableBot]) -> TableBot:
    """Return ``create_bot(settings)`` on a storage opened here, on the test's task.

    ``Storage.open`` leaves its ``PRAGMA journal_mode`` cursor unfinished, so when it runs inside the
    bot's ``setup_hook`` and SimCord still holds a reference to that cursor the migration's COMMIT
    fails now and then (see ``test_app.py::test_storage_opens_while_a_cursor_is_still_referenced``).
    Opening it outside SimCord's bookkeeping keeps these tests deterministic.
    """
    storage = await Storage.open(settings.database_target)  # the PostgreSQL URL when one is set
    bot = create_bot(settings, storage=storage)
    bot.storage = storage
    bots.append(bot)
    return bot


# ---------------------------------------------------------------------- the world driver
@dataclass
class Rig:
    """Engine options and seed forced onto the next lobby (stacked decks make games exact)."""

    game: dict[str, Any]
    seed: str | None


class World:
    """A server with a games channel, and verbs to play tables in it through Discord."""

    def __init__(self, env: Env, settings: Settings, bots: list[TableBot], locales: dict[int, str], guild_locale: str):
        self.env = env
        self.settings = settings
        self._bots = bots
        self._locales = locales
        self.guild: GuildHandle = env.create_guild("Tabletop", preferred_locale=guild_locale)
        self.channel: ChannelHandle = self.guild.create_text_channel("games")
        self._moderators: Any = None
        self._rig: Rig | None = None
        self._rigged_service: TableService | None = None
        self._known: dict[int, Table] = {}

    # ------------------------------------------------------------------ people
    @property
    def bot(self) -> TableBot:
        return self.env.bot  # type: ignore[return-value]  # the env runs our TableBot

    @property
    def service(self) -> TableService:
        return self.bot.service

    def member(self, name: str, *, locale: str | None = None, moderator: bool = False) -> MemberActor:
        """Add a member (with a client ``locale`` such as "ru"; a moderator may manage the server)."""
        roles = []
        if moderator:
            if self._moderators is None:
                self._moderators = self.guild.create_role(
                    "Moderators", permissions=discord.Permissions(manage_guild=True)
                )
            roles.append(self._moderators)
        actor = self.guild.add_member(self.env.create_user(name), roles=roles)
        if locale is not None:
            self._locales[actor.id] = locale
        return actor

    def members(self, *names: str) -> list[MemberActor]:
        return [self.member(name) for name in names]

    # ------------------------------------------------------------------ lobby
    def rig(
        self,
        *,
        deck: Sequence[Card] | None = None,
        first_seat: int | None = None,
        seed: str | None = "rigged",
        game_options: dict[str, Any] | None = None,
    ) -> None:
        """Force a stacked ``deck``, the ``first_seat`` and the ``seed`` of the next lobby opened.

        ``game_options`` adds any other engine options (a Масти Власти deal: ``hands``, ``trump_deck``).
        """
        game: dict[str, Any] = dict(game_options or {})
        if deck is not None:
            game["deck"] = [card.value for card in deck]
        if first_seat is not None:
            game["first_seat"] = first_seat
        self._rig = Rig(game=game, seed=seed)
        service = self.service
        if self._rigged_service is service:
            return
        original = service.create_lobby

        async def create_lobby(**kwargs: Any) -> Table:
            rig, self._rig = self._rig, None
            if rig is not None:
                options = dict(kwargs["options"])
                options["game"] = {**options.get("game", {}), **rig.game}
                kwargs["options"] = options
                kwargs["seed"] = rig.seed
            return await original(**kwargs)

        service.create_lobby = create_lobby  # type: ignore[method-assign]  # a test double around the real method
        self._rigged_service = service

    async def new_table(self, host: MemberActor, *, game: str = "coup", **options: Any) -> int:
        """Open a lobby with ``/<game> new`` (``/coup new`` unless told) and return its table id."""
        before = set(self.service.tables)
        result = await host.slash(self.channel, f"{game} new", **options)
        assert result.response is not None and not result.ephemeral, result
        (table_id,) = set(self.service.tables) - before
        self.table(table_id)
        return table_id

    def lobby(self, table_id: int) -> discord.Message:
        """Return the lobby message of ``table_id`` as it is now."""
        row = self.table(table_id)
        assert row.lobby_message_id is not None
        return self.message(self.channel, row.lobby_message_id)

    async def lobby_click(self, member: MemberActor, table_id: int, verb: str) -> InteractionResult:
        return await member.click(self.lobby(table_id), custom_id=f"lobby:{table_id}:{verb}")

    async def seat(
        self,
        host: MemberActor,
        *guests: MemberActor,
        ais: int = 0,
        start: bool = True,
        reaction_clock: int | None = None,
        **options: Any,
    ) -> int:
        """Open a table, seat ``guests`` and ``ais`` AIs, and start it (unless ``start`` is false).

        ``reaction_clock`` sets the table's reaction-window clock (no command option sets it: the
        server's setting does), for long games whose 15-s windows would run out in real time.
        """
        table_id = await self.new_table(host, **options)
        if reaction_clock is not None:
            self.table(table_id).options["reaction_clock"] = reaction_clock
        for guest in guests:
            result = await self.lobby_click(guest, table_id, "join")
            assert not result.ephemeral, private_text(result)
        for _ in range(ais):
            result = await self.lobby_click(host, table_id, "addai")
            assert not result.ephemeral, private_text(result)
        if start:
            result = await self.lobby_click(host, table_id, "start")
            assert not result.ephemeral, private_text(result)
            assert self.table(table_id).status in {"active", "finished"}
        return table_id

    # ------------------------------------------------------------------ table
    def table(self, table_id: int) -> Table:
        """Return table ``table_id``: the live one, or as it was last seen once it is over."""
        live = self.service.tables.get(table_id)
        if live is not None:
            self._known[table_id] = live
            return live
        return self._known[table_id]

    def state(self, table_id: int) -> Any:
        state = self.table(table_id).state
        assert state is not None
        return state

    def thread(self, table_id: int) -> ChannelHandle:
        thread_id = self.table(table_id).thread_id
        return next(t for t in self.channel.threads if t.id == thread_id)

    def message(self, channel: ChannelHandle, message_id: int) -> discord.Message:
        found = [m for m in channel.history() if m.id == message_id]
        assert found, f"message {message_id} is not in {channel!r}"
        return found[0]

    def board(self, table_id: int) -> discord.Message:
        """Return the board message of ``table_id`` as it is now."""
        table = self.table(table_id)
        assert table.board_message_id is not None
        return self.message(self.thread(table_id), table.board_message_id)

    def thread_messages(self, table_id: int) -> list[discord.Message]:
        return self.thread(table_id).history()

    async def db_snapshot(self, table_id: int) -> tuple[Any, ...]:
        """Return everything stored about a table, to prove a refused click changed nothing."""
        storage = self.bot.storage
        row = await storage.get_table(table_id)
        assert row is not None
        seats = await storage.seats(table_id)
        log = await storage.action_log(table_id)
        clock = await storage.get_clock(table_id)
        return (row.status, row.version, row.state, tuple(seats), len(log), clock)

    def not_yours(self, table_id: int, locale: str = "en") -> str:
        """Return the refusal of a click on someone else's decision: it names who is deciding now."""
        table = self.table(table_id)
        deciding = sorted(table.engine.active_seats(self.state(table_id)))
        names = ", ".join(safe_name(table.seats[index].name) for index in deciding)
        return translate(locale, "call.not_your_turn", names=names)

    # ------------------------------------------------------------------ clicks
    async def press(self, member: MemberActor, message: MessageLike, action: Any) -> InteractionResult:
        """Take ``action`` with the button or select option of ``message`` that carries it."""
        found = find_action(self.components(message), action)
        assert found is not None, f"{action!r} is not offered on {message!r}: {component_ids(self.components(message))}"
        kind, custom_id, value = found
        if kind == "button":
            return await member.click(message, custom_id=custom_id)
        return await member.select(message, [value], custom_id=custom_id)

    async def act(self, member: MemberActor, table_id: int, action: Any) -> InteractionResult:
        """Take ``action`` on the public board."""
        return await self.press(member, self.board(table_id), action)

    async def open_panel(self, member: MemberActor, table_id: int) -> InteractionResult:
        """Click "My cards" on the board and return the (private) answer."""
        return await member.click(self.board(table_id), custom_id=f"tbl:{table_id}:hand")

    async def table_button(self, member: MemberActor, table_id: int, verb: str) -> InteractionResult:
        return await member.click(self.board(table_id), custom_id=f"tbl:{table_id}:{verb}")

    def components(self, message: MessageLike) -> list[dict[str, Any]]:
        """Return the raw component rows of ``message`` as Discord stores them now."""
        channel_id = message.channel_id if isinstance(message, ResponseMessage) else message.channel.id
        return self.env.backend.get_message(channel_id, message.id).components

    async def forge(self, channel: ChannelHandle, rows: Sequence[dict[str, Any]]) -> discord.Message:
        """Post, as the bot, a message carrying component ``rows``: a copy of an old board, a damaged button.

        Discord clients can click a button from a message version they still show, and ids from an
        older bot version may linger; this is how a test clicks such a button.
        """
        stored = self.env.backend.create_message(
            channel.id, self.env.backend.bot_user.id, "", components=copy.deepcopy(list(rows))
        )
        await self.env.settle()
        return self.message(channel, stored.id)

    async def stale_copy(self, table_id: int) -> discord.Message:
        """Return a copy of the board's buttons as they are now, to click once the board has moved on."""
        return await self.forge(self.thread(table_id), self.components(self.board(table_id)))

    # ------------------------------------------------------------------ playing whole games
    def seat_member(self, table_id: int, seat: int, people: Sequence[MemberActor]) -> MemberActor:
        user_id = self.table(table_id).seats[seat].user_id
        return next(m for m in people if m.id == user_id)

    async def play_step(self, table_id: int, people: Sequence[MemberActor]) -> bool:
        """Let the first human seat the game waits for answer as the bot's AI would; return False if none."""
        table = self.table(table_id)
        state = table.state
        assert state is not None
        waiting = [s for s in sorted(table.engine.active_seats(state)) if not table.seats[s].ai_controlled]
        if not waiting:
            return False
        seat = waiting[0]
        member = self.seat_member(table_id, seat, people)
        action = choose_ai_action(table.engine, self.agent(table.game), state, seat)
        board = self.board(table_id)
        if find_action(self.components(board), action) is not None:
            result = await self.press(member, board, action)
            assert not result.followups and not result.ephemeral, private_text(result)
            return True
        panel = await self.open_panel(member, table_id)
        assert panel.ephemeral and panel.response is not None
        result = await self.press(member, panel.response, action)
        assert not result.followups, private_text(result)
        # Accepted: the panel itself is edited; a refusal would come as a new private message.
        assert result.response is not None and result.response.id == panel.response.id, private_text(result)
        return True

    @staticmethod
    def agent(game: str) -> Agent:
        """Return the AI the bot plays ``game``'s AI seats with (the table service's own choice)."""
        return AGENTS.get(game, RandomAgent())

    async def play_out(self, table_id: int, people: Sequence[MemberActor], *, max_steps: int = 400) -> None:
        """Play ``table_id`` to its end, every human answering through the board or its panel."""
        for _ in range(max_steps):
            table = self.service.tables.get(table_id)
            if table is None or table.status != "active":
                return
            if not await self.play_step(table_id, people):
                await self.env.settle()
                table = self.service.tables.get(table_id)
                assert table is None or table.status != "active" or self._waiting_humans(table), (
                    "the table waits for nobody"
                )
        raise AssertionError(f"table {table_id} did not finish in {max_steps} steps")

    @staticmethod
    def _waiting_humans(table: Table) -> bool:
        state: BaseState | None = table.state
        return state is not None and any(not table.seats[s].ai_controlled for s in table.engine.active_seats(state))

    # ------------------------------------------------------------------ restart
    async def restart(self) -> TableBot:
        """Restart the bot on the same database: a fresh ``create_bot(settings)``; Discord persists."""
        old = self.bot
        new = await build_bot(self.settings, self._bots)
        await self.env.restart_bot(new)
        await old.service.close()
        await old.storage.close()
        return new

    # ------------------------------------------------------------------ errors the bot answered
    def rejections(self) -> list[GameError]:
        """Acknowledge the errors SimCord captured (slash-command rule errors) and return them.

        Each must be a rule error the bot answered privately, never a bug.
        """
        found: list[GameError] = []
        for error in self.env.errors:
            cause: BaseException | None = error
            while cause is not None and not isinstance(cause, GameError):
                cause = cause.__cause__ or getattr(cause, "original", None)
            assert isinstance(cause, GameError), f"unexpected bot error: {error!r}"
            found.append(cause)
        return found
