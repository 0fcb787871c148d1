"""Count the taps a person needs per decision: seeded whole games through the real bot, offline.

``python -m scripts.taps [--no-follow] [--no-pass] [--game coup|masti|cadwallon|intrigue|all] [--seed S]
[--intrigue-turns N]`` (``make taps``) plays seeded games of every game, at two player counts each,
through the real :class:`~bot.app.TableBot` on SimCord's in-memory Discord (as :mod:`scripts.demo`
does). One seat is a member, Alice, driven like a person; the others are the bot's AI seats.

At each of Alice's decisions the game's AI chooses her action from her own view
(:func:`bot.tables.choose_ai_action`), and the script makes the interactions a person needs to
take it on what Discord shows her:

- the public board's button or select option that carries the action for the current prompt
  (its value is the action encoded by :func:`bot.codec.encode_action`), else
- the same in the last private panel she has, if it shows the current prompt (a panel that follows
  the game does; without following, only a panel her last click edited to her next decision), else
- "My cards" on the board (one tap) and then the action in the panel it opens.

A select counts one interaction (opening the list and picking its option is one choice). An option
that chains several steps of one decision (:mod:`bot.presenters.chains`: its value is several
encoded actions) is picked, one interaction, when it holds exactly the AI's next actions for her
seat; so is a multi-select (several options ticked at once, one interaction, as a form's select
field is) when its options hold the AI's next actions in any order (the bot offers one only where
the order changes nothing: a basket's purchases and Pay). The pick taking the most actions is
taken, before anything else. A decision
that opens a modal form counts the click that opens it, one per control filled in it (selects, radio
and checkbox groups, whose option values are matched to the actions the AI would take next for her
seat, in order) and its submit. A form is looked for behind any button the bot shows Alice that is
not one of the known kinds (game actions, table buttons, More time) when the action itself is not
offered; text inputs are not filled (no decision of these games is typed).

In an Интриги window where the AI passes, she clicks "Done until the end of the turn" (``pass:``)
instead, and the table passes her later windows of that turn
(``--no-pass``: she never does). Decisions are Alice's actions in the table's action log (a form
may take several at once; a window the table passed for her is one too, taking no tap). For
Интриги the taps are also summed per game turn in which Alice took a decision (``state.turn``).
The table printed gives, per game and player count: decisions, taps, taps per decision, "My cards"
clicks, and for Интриги the taps per active turn (max and mean). ``--no-follow`` turns the
publisher's following panels off (``DiscordPublisher.follow_panels``), to measure the bot as it was.

Targets (issue 13): at most 1.3 taps per decision on average for Coup, Масти Власти and Cadwallon,
and at most 12 taps per active Интриги turn.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord
from simcord.actors import MemberActor
from simcord.builders import ChannelHandle
from simcord.enums import ComponentType
from simcord.results import InteractionResult, ResponseMessage

from bot.app import TableBot, create_bot
from bot.codec import encode_action
from bot.presenters.chains import CHAIN_SEP
from bot.settings import Settings
from bot.storage import Storage
from bot.tables import Table, choose_ai_action
from games.core import Agent, RandomAgent
from games.core.protocol import reaction_seats
from games.registry import AGENTS

#: A clock no game reaches: SimCord's time stands still, and no decision should time out anyway.
CLOCK_SECONDS = 3600
#: The longest a click may take to settle in SimCord (seconds; a whole AI turn runs inside it).
SETTLE_SECONDS = 60.0
#: Custom id prefixes of the components the bot is known to show (anything else may open a form).
KNOWN_PREFIXES = ("act:", "acts:", "tbl:", "more:", "log:", "rpl:", "rpls:", "lobby:", "lobbys:", "rules:")
#: How many of Alice's next actions a form may be filled from.
FORM_LOOKAHEAD = 40
#: A table still going after this many of Alice's clicks is a bug in the driver or the bot.
MAX_CLICKS = 3000
TARGET_TAPS_PER_DECISION = 1.3
TARGET_INTRIGUE_TURN_TAPS = 12
GAMES = ("coup", "masti", "cadwallon", "intrigue")


@dataclass(frozen=True)
class Spec:
    """One measured game: which game, how many players, and its slash-command options."""

    game: str
    players: int
    options: tuple[tuple[str, Any], ...] = ()


#: Two player counts of every game.
PLAN: tuple[Spec, ...] = (
    Spec("coup", 3),
    Spec("coup", 5),
    Spec("masti", 3),
    Spec("masti", 4),
    Spec("cadwallon", 2),
    Spec("cadwallon", 4),
    Spec("intrigue", 3),
    Spec("intrigue", 4),
)


@dataclass
class Row:
    """What one game cost Alice."""

    spec: Spec
    follow: bool
    decisions: int = 0
    taps: int = 0
    opens: int = 0
    forms: int = 0
    #: "Done until the end of the turn" clicks (Интриги).
    passes: int = 0
    #: Her Интриги window answers in order: (turn, whether it was Done).
    windows: list[tuple[int, bool]] = field(default_factory=list)
    #: Taps per Интриги game turn in which Alice decided something.
    turn_taps: dict[int, int] = field(default_factory=dict)
    finished: bool = False

    @property
    def per_decision(self) -> float:
        """Return the mean taps per decision."""
        return self.taps / self.decisions if self.decisions else 0.0

    def turn_stats(self) -> tuple[int, float] | None:
        """Return (max, mean) taps per active Интриги turn, or ``None`` for other games."""
        if self.spec.game != "intrigue" or not self.turn_taps:
            return None
        values = list(self.turn_taps.values())
        return max(values), sum(values) / len(values)

    def acted_after_done(self) -> int:
        """Return her window answers that were a free action after a Done of hers in the same turn.

        What "Done until the end of the turn" would have cost her in a game played without it.
        """
        passed: set[int] = set()
        acted = 0
        for turn, done in self.windows:
            if done:
                passed.add(turn)
            elif turn in passed:
                acted += 1
        return acted

    def meets_target(self) -> bool:
        """Return whether the game is within the issue's target."""
        stats = self.turn_stats()
        if stats is not None:
            return stats[0] <= TARGET_INTRIGUE_TURN_TAPS
        return self.per_decision <= TARGET_TAPS_PER_DECISION


def table_lines(rows: Sequence[Row]) -> list[str]:
    """Return the results as a Markdown table."""
    lines = [
        "| game | players | panels follow | decisions | taps | taps/decision | My cards | forms | turn passes "
        "| Интриги taps per active turn (max / mean, turns over target) | target |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        stats = row.turn_stats()
        over = sum(1 for taps in row.turn_taps.values() if taps > TARGET_INTRIGUE_TURN_TAPS)
        turns = f"{stats[0]} / {stats[1]:.1f} ({over} of {len(row.turn_taps)} over)" if stats is not None else "–"
        target = (
            f"≤ {TARGET_INTRIGUE_TURN_TAPS}/turn" if row.spec.game == "intrigue" else f"≤ {TARGET_TAPS_PER_DECISION}"
        )
        mark = "✓" if row.meets_target() else "✗"
        lines.append(
            f"| {row.spec.game} | {row.spec.players} | {'yes' if row.follow else 'no'} | {row.decisions} | {row.taps} "
            f"| {row.per_decision:.2f} | {row.opens} | {row.forms} | {row.passes} | {turns} | {target} {mark} |"
        )
    for row in rows:
        if row.windows:
            lines.append(
                f"\n{row.spec.game} {row.spec.players}p: {len(row.windows)} window answers, "
                f"{row.acted_after_done()} of them a free action after a Done of hers in the same turn"
            )
    return lines


# ---------------------------------------------------------------------- reading what Discord shows
def _walk(rows: Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for row in rows:
        yield row
        yield from _walk(row.get("components") or [])
        if isinstance(row.get("component"), dict):
            yield from _walk([row["component"]])


def find_action(rows: Sequence[dict[str, Any]], table_id: int, prompt: int, code: str) -> tuple[str, str] | None:
    """Return ("button" | "select", custom id) of the component taking action ``code`` for ``prompt``."""
    for component in _walk(rows):
        custom_id = component.get("custom_id") or ""
        parts = custom_id.split(":", 4)
        if len(parts) < 5 or parts[1] != str(table_id) or parts[2] != str(prompt):
            continue
        if component.get("type") == ComponentType.BUTTON and parts[0] == "act" and parts[4] == code:
            return ("button", custom_id)
        options = component.get("options") or []
        if component.get("type") == ComponentType.STRING_SELECT and parts[0] == "acts":  # noqa: SIM102 - reads clearer
            if any(option.get("value") == code for option in options):
                return ("select", custom_id)
    return None


def _action_selects(rows: Sequence[dict[str, Any]], table_id: int, prompt: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield (custom id, component) of every select of game actions for ``prompt`` of the table."""
    for component in _walk(rows):
        custom_id = component.get("custom_id") or ""
        parts = custom_id.split(":", 4)
        if component.get("type") != ComponentType.STRING_SELECT or parts[0] != "acts" or len(parts) < 5:
            continue
        if parts[1] == str(table_id) and parts[2] == str(prompt):
            yield custom_id, component


def find_chain(
    rows: Sequence[dict[str, Any]], table_id: int, prompt: int, upcoming: Sequence[str]
) -> tuple[str, str, int] | None:
    """Return (custom id, value, length) of the longest chained option taking the next ``upcoming`` actions.

    A chained option's value is several encoded actions joined by ``CHAIN_SEP``
    (:mod:`bot.presenters.chains`); it is taken only when those are exactly the actions the AI takes
    next for this seat, in order, so one pick is one decision the person meant whole.
    """
    best: tuple[str, str, int] | None = None
    for custom_id, component in _action_selects(rows, table_id, prompt):
        for option in component.get("options") or []:
            codes = str(option.get("value") or "").split(CHAIN_SEP)
            if len(codes) > 1 and list(upcoming[: len(codes)]) == codes and (best is None or len(codes) > best[2]):
                best = (custom_id, option["value"], len(codes))
    return best


def find_multi(
    rows: Sequence[dict[str, Any]], table_id: int, prompt: int, upcoming: Sequence[str]
) -> tuple[str, list[str], int] | None:
    """Return (custom id, values, count) of the most of the next ``upcoming`` actions one multi-select takes.

    A select letting several options be ticked (``max_values`` above one) applies the ticked
    actions in its options' order (:class:`bot.ui.components.ActSelect`); the bot offers one only
    where that order changes nothing (an investment basket's picks, then Pay). The AI's run of
    next actions that are all options of such a select is taken in as few picks as a person
    needs: every different option at once when none repeats (the whole basket, Pay included, one
    interaction); when some repeat, one of each but the run's last (Pay), which waits for the
    pick that takes the repeats. Fewer than two actions is no multi pick (a plain pick takes one).
    """
    best: tuple[str, list[str], int] | None = None
    for custom_id, component in _action_selects(rows, table_id, prompt):
        if (component.get("max_values") or 1) < 2:
            continue
        order = [str(option.get("value")) for option in component.get("options") or []]
        run: list[str] = []
        for code in upcoming:
            if code not in order:
                break
            run.append(code)
        taken = list(dict.fromkeys(run))
        if len(taken) < len(run) and run and run.count(run[-1]) == 1:
            taken.remove(run[-1])  # the closing pick comes with the repeats, in a later pick
        taken = taken[: component["max_values"]]
        if len(taken) > 1 and (best is None or len(taken) > best[2]):
            best = (custom_id, sorted(taken, key=order.index), len(taken))
    return best


def form_openers(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Return the custom ids of buttons of a kind the bot is not known to show (they may open a form)."""
    return [
        component["custom_id"]
        for component in _walk(rows)
        if component.get("type") == ComponentType.BUTTON
        and component.get("custom_id")
        and not component["custom_id"].startswith(KNOWN_PREFIXES)
    ]


def fill_form(modal: dict[str, Any], upcoming: Sequence[str]) -> dict[str, Any]:
    """Return a form's answers: in its choice controls, the actions the AI takes next for this decision.

    The decision is the run of ``upcoming`` actions that the form's controls offer (the form's own
    closing action, such as paying for a basket, is no option and ends it). Each of those actions
    is answered in the first control that offers it and is not answered yet, in the AI's order, so
    an action taken twice (two hires of one type, a ballot of For and For) fills two controls. A
    form that cannot hold the whole decision is not filled (its submission would take another one).
    """
    controls = [
        control
        for control in _walk(modal.get("components") or [])
        if control.get("custom_id") and control.get("options")
    ]
    offered = {o.get("value") for control in controls for o in control["options"]}
    decision: list[str] = []
    for code in upcoming:
        if code not in offered:
            break
        decision.append(code)
    values = _answers(controls, decision)
    placed = sum(len(value) if isinstance(value, list) else 1 for value in values.values())
    return values if placed == len(decision) else {}


def steps_instead(modal: dict[str, Any], upcoming: Sequence[str]) -> int:
    """Return the taps the decision a form would take costs without it: one per action, closing included."""
    offered = {o.get("value") for control in _walk(modal.get("components") or []) for o in control.get("options") or []}
    taken = 0
    for code in upcoming:
        if code not in offered:
            return taken + 1  # the closing action (pay, send) is one more tap
        taken += 1
    return taken


def _complete(modal: dict[str, Any], values: dict[str, Any]) -> bool:
    """Return whether ``values`` answer every required control of ``modal`` (else the plan is not this form's)."""
    return all(
        control["custom_id"] in values
        for control in _walk(modal.get("components") or [])
        if control.get("custom_id")
        and control.get("options")
        and control.get("required", True)
        and (control.get("min_values") is None or control.get("min_values", 1) > 0)
    )


def _answers(controls: Sequence[dict[str, Any]], decision: Sequence[str]) -> dict[str, Any]:
    rank: dict[str, int] = {}
    for index, code in enumerate(decision):
        rank.setdefault(code, index)
    left = Counter(decision)  # how many times each action is still to be answered
    values: dict[str, Any] = {}
    for control in controls:
        options = sorted(
            (o.get("value") for o in control["options"] if left[o.get("value")] > 0),
            key=rank.__getitem__,
        )
        if not options:
            continue
        kind = control.get("type")
        if kind == ComponentType.RADIO_GROUP:
            picked = options[:1]
            values[control["custom_id"]] = picked[0]
        elif kind == ComponentType.CHECKBOX_GROUP or (control.get("max_values") or 1) > 1:
            picked = options[: control.get("max_values") or len(options)]
            values[control["custom_id"]] = picked
        else:
            picked = options[:1]
            values[control["custom_id"]] = picked
        left.subtract(picked)
    return values


# ---------------------------------------------------------------------- the person
class Person:
    """Alice at one table: takes the AI's action for her seat with the interactions a person needs."""

    def __init__(self, env: simcord.Env, member: MemberActor, table: Table, row: Row, *, standing_pass: bool) -> None:
        """Drive ``member``'s seat at ``table``, counting into ``row`` (``standing_pass``: she may pass a turn)."""
        self.standing_pass = standing_pass
        self.env = env
        self.member = member
        self.table = table
        self.row = row
        self.agent: Agent = AGENTS.get(table.game, RandomAgent())
        self.panel: ResponseMessage | None = None

    def _message(self, message_id: int) -> ResponseMessage:
        """Return a live handle on a message of the table's thread (board or panel)."""
        channel_id = self.table.thread_id or self.table.channel_id
        return ResponseMessage(self.env, self.env.backend.get_message(channel_id, message_id))

    def _rows(self, message: ResponseMessage) -> list[dict[str, Any]]:
        return self.env.backend.get_message(message.channel_id, message.id).components

    def _tap(self) -> None:
        self.row.taps += 1
        state = self.table.state
        if self.table.game == "intrigue" and state is not None:
            turn = int(getattr(state, "turn", 0))
            self.row.turn_taps[turn] = self.row.turn_taps.get(turn, 0) + 1

    def _upcoming(self, seat: int) -> list[str]:
        """Return the encoded actions the AI would take for ``seat`` from now on, while it stays awaited."""
        engine, state = self.table.engine, self.table.state
        codes: list[str] = []
        for _ in range(FORM_LOOKAHEAD):
            if state is None or seat not in engine.active_seats(state) or engine.outcome(state) is not None:
                break
            action = choose_ai_action(engine, self.agent, state, seat)
            codes.append(encode_action(action))
            state = engine.apply(state, seat, action).state
        return codes

    async def play(self) -> None:
        """Play Alice's seat until the game ends."""
        for _ in range(MAX_CLICKS):
            await self.env.settle()
            table, state = self.table, self.table.state
            if table.status != "active" or state is None:
                self.row.finished = table.status == "finished"
                return
            seat = table.seat_of(self.member.id)
            if seat is not None and table.passes(seat.seat, state):
                await asyncio.sleep(0.001)  # her standing pass is being committed (a storage thread): no tap
                continue
            if seat is None or seat.seat not in table.engine.active_seats(state):
                raise RuntimeError(f"table #{table.id} waits for nobody the script drives (v{state.version})")
            await self.decide(seat.seat)
        raise RuntimeError(f"table #{self.table.id} did not end within {MAX_CLICKS} clicks")

    async def decide(self, seat: int) -> None:
        """Take the AI's next action for ``seat``: board, open panel, else My cards first; or a form."""
        table = self.table
        assert table.state is not None and table.board_message_id is not None  # noqa: S101 - an active table
        code = encode_action(choose_ai_action(table.engine, self.agent, table.state, seat))
        prompt = table.prompt_version
        board = self._message(table.board_message_id)
        if seat in reaction_seats(table.engine, table.state):
            done = code == encode_action(table.engine.default_action(table.state, seat))
            self.row.windows.append((int(getattr(table.state, "turn", 0)), done))
            if done and self.standing_pass and await self._pass_rest_of_turn(board, prompt):
                return
        # One pick of a chained option or a multi-select takes several steps at once: fewer taps than anything else.
        if self.panel is not None and await self._take_several(self.panel, seat, prompt):
            return
        # A person takes a decision offered as one form through that form (its button names it).
        if self.panel is not None and await self._try_forms(self.panel, seat, prompt=prompt, first=code):
            return
        for message in (board, self.panel):
            if message is not None and (found := find_action(self._rows(message), table.id, prompt, code)):
                await self._take(message, found, code)
                return
        if self.panel is not None and await self._try_forms(self.panel, seat):
            return
        self.panel = await self._open_panel(board)
        if await self._take_several(self.panel, seat, prompt):
            return
        if await self._try_forms(self.panel, seat, prompt=prompt, first=code):
            return
        if found := find_action(self._rows(self.panel), table.id, prompt, code):
            await self._take(self.panel, found, code)
            return
        if await self._try_forms(self.panel, seat) or await self._try_forms(board, seat):
            return
        raise RuntimeError(f"action {code} of table #{table.id} is offered nowhere (v{prompt})")

    async def _open_panel(self, board: ResponseMessage) -> ResponseMessage:
        """Click "My cards" on the board (one tap) and return the private panel it opens."""
        self._tap()
        self.row.opens += 1
        opened = await self.member.click(board, custom_id=f"tbl:{self.table.id}:hand")
        if opened.response is None or not opened.ephemeral:
            raise RuntimeError("“My cards” did not open a private panel")
        return opened.response

    async def _pass_rest_of_turn(self, board: ResponseMessage, prompt: int) -> bool:
        """Answer a window the AI passes with "Done until the end of the turn"; return whether she did.

        She gives up what a later window of the turn might have offered, as a person using the
        button does (``--no-pass`` plays the same seeds without it, to compare).
        """
        button = f"pass:{self.table.id}:{prompt}:on"
        for message in (self.panel, None):
            if message is None:
                self.panel = message = await self._open_panel(board)
            if button in {c.get("custom_id") for c in _walk(self._rows(message))}:
                self._tap()
                self.row.passes += 1
                result = await self.member.click(message, custom_id=button)
                self._check(result, message)
                return True
        return False

    async def _take_several(self, message: ResponseMessage, seat: int, prompt: int) -> bool:
        """Take the AI's next actions with one pick of a chained option or a multi-select; return whether one was."""
        rows, upcoming = self._rows(message), self._upcoming(seat)
        chain = find_chain(rows, self.table.id, prompt, upcoming)
        multi = find_multi(rows, self.table.id, prompt, upcoming)
        if multi is not None and (chain is None or multi[2] > chain[2]):
            self._tap()
            result = await self.member.select(message, multi[1], custom_id=multi[0])
            self._check(result, message)
            return True
        if chain is not None:
            await self._take(message, ("select", chain[0]), chain[1])
            return True
        return False

    async def _take(self, message: ResponseMessage, found: tuple[str, str], code: str) -> None:
        kind, custom_id = found
        self._tap()
        if kind == "button":
            result = await self.member.click(message, custom_id=custom_id)
        else:
            result = await self.member.select(message, [code], custom_id=custom_id)
        self._check(result, message)

    async def _try_forms(
        self, message: ResponseMessage, seat: int, *, prompt: int | None = None, first: str | None = None
    ) -> bool:
        """Open a form behind an unknown button of ``message`` and submit it filled; return whether one was.

        With ``prompt`` and ``first``, only a form of that prompt whose answers take the action
        ``first`` is used (the decision it is for), and a form looked into but not used costs
        nothing: its button says what it is for, so a person would not have opened it.
        """
        upcoming = self._upcoming(seat)
        for custom_id in form_openers(self._rows(message)):
            if prompt is not None and not custom_id.startswith(f"form:{self.table.id}:{prompt}:"):
                continue
            shown = await self.member.click(message, custom_id=custom_id)
            modal = shown.modal
            if modal is None:
                continue
            values = fill_form(modal, upcoming)
            chosen = {v for value in values.values() for v in (value if isinstance(value, list) else [value])}
            if not values or (first is not None and first not in chosen) or not _complete(modal, values):
                continue  # a form for something else: closing it costs no interaction
            if first is not None and 2 + len(values) > steps_instead(modal, upcoming):
                continue  # opening, filling and sending it takes more taps than the steps: a person takes the steps
            self._tap()
            for _ in values:
                self._tap()
            self._tap()
            self.row.forms += 1
            result = await self.member.submit_modal(shown, values)
            self._check(result, message)
            return True
        return False

    def _check(self, result: InteractionResult, message: ResponseMessage) -> None:
        """Fail on a refused click (a new private message) instead of counting it as a move."""
        if result.followups or (result.ephemeral and result.response is not None and result.response.id != message.id):
            texts = [
                m.content or "".join(e.description or "" for e in m.embeds)
                for m in [result.response, *result.followups]
                if m
            ]
            raise RuntimeError(f"a click of the script was refused: {texts}")
        if result.response is not None and result.response.ephemeral and message is not self.panel:
            self.panel = result.response


# ---------------------------------------------------------------------- running games
async def _play(
    env: simcord.Env,
    bot: TableBot,
    channel: ChannelHandle,
    member: MemberActor,
    spec: Spec,
    row: Row,
    *,
    standing_pass: bool,
) -> None:
    options = dict(spec.options)
    options["clock"] = CLOCK_SECONDS
    result = await member.slash(channel, f"{spec.game} new", **options)
    if result.response is None:
        raise RuntimeError(f"/{spec.game} new did not answer")
    lobby = result.response
    table_id = next(
        int(c["custom_id"].split(":")[1])
        for c in _walk(lobby.components)
        if c.get("custom_id", "").startswith("lobby:")
    )
    # Reaction windows keep their own short clock otherwise; under SimCord it would run in real time.
    (await bot.service.get(table_id)).options["reaction_clock"] = CLOCK_SECONDS
    for _ in range(spec.players - 1):
        await member.click(lobby, custom_id=f"lobby:{table_id}:addai")
    await member.click(lobby, custom_id=f"lobby:{table_id}:start")
    table = await bot.service.get(table_id)
    await Person(env, member, table, row, standing_pass=standing_pass).play()
    seat = table.seat_of(member.id)
    log = await bot.storage.action_log(table_id)
    row.decisions = sum(
        1 for entry in log if seat is not None and entry.seat == seat.seat and entry.user_id == member.id
    )


async def run_taps(
    plan: Sequence[Spec] = PLAN,
    *,
    follow: bool = True,
    seed: str = "taps",
    intrigue_turns: int | None = None,
    standing_pass: bool = True,
) -> list[Row]:
    """Play every game of ``plan`` with Alice driven like a person; return what each cost her."""
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="taps-") as tmp:
        settings = Settings(
            discord_token=None,
            database_path=str(Path(tmp) / "taps.sqlite3"),
            ai_delay_seconds=0,
            board_edit_interval=0,
            default_clock_seconds=CLOCK_SECONDS,
            click_burst=0,
            open_table_cooldown_seconds=0,
            _env_file=None,
        )
        storage = await Storage.open(settings.database_path)
        try:
            bot = create_bot(settings, storage=storage)
            async with simcord.run(bot, settle_timeout=SETTLE_SECONDS) as env:
                bot.publisher.follow_panels = follow
                guild = env.create_guild("Taps", preferred_locale="en-US")
                channel = guild.create_text_channel("games")
                alice = guild.add_member(env.create_user("alice"))
                for index, spec in enumerate(plan):
                    options = dict(spec.options)
                    if spec.game == "intrigue" and intrigue_turns is not None:
                        options.setdefault("turns", intrigue_turns)
                    spec = Spec(spec.game, spec.players, tuple(options.items()))
                    row = Row(spec=spec, follow=follow)
                    _seed_next(bot, f"{seed}-{index}")
                    await _play(env, bot, channel, alice, spec, row, standing_pass=standing_pass)
                    rows.append(row)
            await bot.service.close()
        finally:
            await storage.close()
    return rows


def _seed_next(bot: TableBot, seed: str) -> None:
    """Make the next lobby the bot opens use ``seed`` (a /new command draws a random one)."""
    service = bot.service
    original = type(service).create_lobby

    async def create_lobby(**kwargs: Any) -> Table:
        service.create_lobby = original.__get__(service)  # type: ignore[method-assign]  # only the next lobby
        kwargs["seed"] = seed
        return await original(service, **kwargs)

    service.create_lobby = create_lobby  # type: ignore[method-assign]  # only the next lobby


def plan_for(game: str) -> tuple[Spec, ...]:
    """Return the part of :data:`PLAN` that plays ``game`` (``all``: every game)."""
    if game != "all" and game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    return tuple(spec for spec in PLAN if game in {"all", spec.game})


def main(argv: Sequence[str] | None = None) -> int:
    """Run the games from the command line and print the table."""
    parser = argparse.ArgumentParser(prog="python -m scripts.taps", description=__doc__.splitlines()[0])
    parser.add_argument("--no-follow", action="store_true", help="measure without panels that follow the game")
    parser.add_argument("--game", choices=(*GAMES, "all"), default="all", help="play only this game")
    parser.add_argument("--seed", default="taps", help="seed of the tables")
    parser.add_argument("--no-pass", action="store_true", help="never use Интриги's Done until the end of the turn")
    parser.add_argument("--intrigue-turns", type=int, default=None, help="Интриги turn limit (default: the game's)")
    args = parser.parse_args(argv)
    rows = asyncio.run(
        run_taps(
            plan_for(args.game),
            follow=not args.no_follow,
            seed=args.seed,
            intrigue_turns=args.intrigue_turns,
            standing_pass=not args.no_pass,
        )
    )
    print("\n".join(table_lines(rows)))
    missed = Counter(row.spec.game for row in rows if not row.finished)
    if missed:
        print(f"games that did not finish: {dict(missed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
