"""No seat sees another seat's hidden data; no public output carries any; the AI sees its seat only.

Three tiers, all generic over the registered games (see :mod:`tests.bot.resilience.leaks`):

1. **Payload sweep** (many seeded games per game, no Discord): at every state of every game the
   public board (embed, buttons and selects, the view its image is drawn from) and the spectator's
   panel must not change when everything hidden from the table is redrawn; one seat's panel per
   state must not change when everything hidden from that seat is redrawn; each step's public log
   lines must not change either; every AI decision is given exactly its seat's view and legal
   actions; the result message of every game is public.
2. **Transcripts** (seeded games, no Discord): what a spectator remembers. The rest of a game is
   replayed from a twin state — its hidden ids dealt out differently (Интриги) or everything
   hidden redrawn — and every public event, public view, log line and board must be the same (for
   a redraw, while the public views agree). One state at a time cannot see an id whose value a
   count of public events predicts; this can (``test_the_transcript_check_catches_…``).
3. **Through the bot** (SimCord): whole games with humans and AI seats, spies on the publisher's
   board builds, the private panels and the AI's input, a spectator opening "My cards"; then
   every message left in Discord (thread names included) and every log record the bot wrote is
   searched for the private texts of any state (lines of a panel that a redraw of hidden data
   changes).
"""

from __future__ import annotations

import dataclasses
import logging
import multiprocessing
import re
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import discord
import pytest

import bot.tables
from bot.i18n import translate
from bot.presenters.registry import PRESENTERS
from bot.tables import Seat, Table, TableResult, choose_ai_action
from bot.ui import interactions, panels, publisher
from bot.ui.panels import game_name
from games.core import GameRng
from games.core.conformance import HiddenIdentities
from games.registry import AGENTS, ENGINES
from tests.bot.resilience.leaks import (
    LeakChecker,
    LeakReport,
    Played,
    SpyAgent,
    TranscriptChecker,
    leaked,
    recording_views,
    secret_texts,
    texts_of,
)
from tests.bot.resilience.play import play_out
from tests.bot.resilience.registry import discord_games, playable_games, record, scale, seat_counts
from tests.games.intrigue.spectator import sequential_ids
from tests.support import World

NAMES = ("Александра", "Константин", "Наташа", "Ярослав", "Маргарита", "Святослав", "Алиса", "Борис")
NOW = 1_000_000.0
SPECTATOR = 999
#: Gather a table's private texts at every this many boards (each costs a few panels per seat).
SECRETS_EVERY = 5


def sweep_table(game: str, index: int, seed: str) -> Table:
    engine = ENGINES[game]
    counts = seat_counts(game)
    seats = counts[index % len(counts)]
    state = engine.setup(seats, engine.options_type(), seed).state
    return Table(
        id=index + 1,
        guild_id=1,
        channel_id=2,
        game=game,
        host_id=100,
        status="active",
        options={"clock": 90},
        seed=seed,
        locale=("ru", "en")[index % 2],
        seats=[Seat(seat=i, user_id=100 + i, name=NAMES[i % len(NAMES)], is_ai=False) for i in range(seats)],
        thread_id=3,
        state=state,
        prompt_version=0,
        deadline=NOW + 90,
    )


def checked_steps(length: int, rng: GameRng, count: int) -> set[int]:
    """Return which of a game's ``length`` states to check: the first two, the last, and a random spread."""
    if length <= count:
        return set(range(length + 1))
    stride = length / (count - 3)
    return {0, 1, length} | {min(length, int(i * stride + rng.below(max(1, int(stride))))) for i in range(count - 3)}


def sweep_game(game: str, index: int, report: LeakReport, *, per_game: int) -> None:
    """Play one seeded game and check every output at ``per_game`` of its states (all of a short one).

    The game is played first (random legal moves); then at each checked state the board, one seat's
    panel (seats in turn), the spectator's panel and the public log lines of the step that led there
    are checked, and at some the game's AI is asked to decide, its input checked.
    """
    seed = f"leak-{game}-{index}"
    engine = ENGINES[game]
    checker = LeakChecker(report, seed)
    table = sweep_table(game, index, seed)
    names = table.names()
    rng = GameRng(seed)
    state = table.state
    assert state is not None
    steps: list[tuple[Any, int, Any, Any]] = []  # (state before, seat, action, step)
    while active := sorted(engine.active_seats(state)):
        seat = rng.choice(active)
        action = rng.choice(engine.legal_actions(state, seat))
        result = engine.apply(state, seat, action)
        steps.append((state, seat, action, result))
        state = result.state
    lines: deque[str] = deque(maxlen=8)
    check = checked_steps(len(steps), rng, per_game)
    for number in range(len(steps) + 1):
        if number:
            before, seat, action, result = steps[number - 1]
            table.state, table.prompt_version = result.state, result.state.version
            if number in check or number - 1 in check:
                lines.extend(checker.public_lines(table, before, seat, action, result.events, names))
            else:
                presenter = PRESENTERS[game]
                lines.extend(
                    line
                    for e in result.events
                    if e.visible_to is None and (line := presenter.narrate(e, names, table.locale))
                )
        if number not in check:
            continue
        if number < len(steps):
            # The game's AI is asked what it would do here (it can take a quarter of a second, so
            # the game itself goes on with random moves): its input must be its seat's view.
            before, seat, _action, _result = steps[number]
            if rng.random() < 0.3:
                choose_ai_action(engine, SpyAgent(AGENTS[game], engine, before, seat, checker), before, seat)
        else:
            table.status, table.deadline = "finished", None
        checker.board(table, list(lines))
        checker.panel(table, 100 + number % len(names), table.locale)
        if number % 3 == 0 or number == len(steps):
            checker.panel(table, SPECTATOR, table.locale)
    outcome = engine.outcome(state)
    checker.result(table, TableResult(outcome=outcome), {100 + i: name for i, name in enumerate(names)})
    report.states += len(steps) + 1


def sweep(game: str, start: int, stop: int, per_game: int) -> LeakReport:
    """Check the seeded games ``start`` … ``stop - 1`` of ``game`` (a worker process's share)."""
    report = LeakReport()
    with recording_views([game]):
        for index in range(start, stop):
            sweep_game(game, index, report, per_game=per_game)
    return report


def play_game(game: str, index: int, seed: str) -> tuple[Table, list[Played]]:
    """Return the table of seeded game ``index`` of ``game`` and its steps.

    Moves are random, except in a game with hidden ids (Интриги), whose AI plays every seat: random
    Интриги ends within a few turns, before cards are held and sent (the AI is too slow elsewhere).
    """
    engine = ENGINES[game]
    ai = isinstance(engine, HiddenIdentities)
    table = sweep_table(game, index, seed)
    rng = GameRng(f"{seed}:moves")
    state = table.state
    assert state is not None
    played: list[Played] = []
    while active := sorted(engine.active_seats(state)):
        seat = rng.choice(active)
        if ai:
            action = choose_ai_action(engine, AGENTS[game], state, seat)
        else:
            action = rng.choice(engine.legal_actions(state, seat))
        step = engine.apply(state, seat, action)
        played.append(Played(state, seat, action, step.state, tuple(step.events)))
        state = step.state
    return table, played


def transcript_game(game: str, index: int, report: LeakReport, *, starts: int) -> None:
    """Play one seeded game; from ``starts`` of its states replay the rest from twins and compare transcripts."""
    seed = f"transcript-{game}-{index}"
    table, played = play_game(game, index, seed)
    checker = TranscriptChecker(report, table, seed)
    order = GameRng(f"{seed}:starts").shuffled(range(len(played)))
    # Redraw and relabel where there is something hidden (the first states tried that hold any).
    resampled = 0
    for start in order[: starts * 20]:
        resampled += checker.resampled(played, start)
        if resampled == starts:
            break
    relabelled = 0
    for start in order[: starts * 20]:
        relabelled += checker.relabelled(played, start)
        if relabelled == starts:
            break
    report.states += len(played) + 1


def transcripts(game: str, start: int, stop: int, starts: int) -> LeakReport:
    """Check the transcripts of the seeded games ``start`` … ``stop - 1`` of ``game`` (a worker's share)."""
    report = LeakReport()
    with recording_views([game]):
        for index in range(start, stop):
            transcript_game(game, index, report, starts=starts)
    return report


@pytest.mark.parametrize("game", playable_games())
def test_public_transcripts_do_not_depend_on_hidden_data(game):
    # A spectator remembers: every public event, view, log line and board of the rest of a game must
    # be the same when it is replayed from a state whose hidden ids were dealt out differently, and
    # for as long as the public views agree, from a redraw of everything hidden (see leaks.py).
    sizes = scale()
    games = sizes.transcript_games
    workers = min(sizes.workers, games)
    began = time.perf_counter()
    if workers <= 1:
        report = transcripts(game, 0, games, sizes.transcript_starts)
    else:
        chunks = [
            (game, w * games // workers, (w + 1) * games // workers, sizes.transcript_starts) for w in range(workers)
        ]
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            report = LeakReport.merged(list(pool.map(transcripts, *zip(*chunks, strict=True))))
    record(
        "hidden_transcripts",
        game,
        games=games,
        states=report.states,
        relabelled_twins=report.relabelled_twins,
        relabelled_ids=report.relabelled_ids,
        relabelled_steps=report.relabelled_steps,
        resampled_twins=report.resampled_twins,
        resampled_steps=report.resampled_steps,
        problems=len(report.problems),
        seconds=round(time.perf_counter() - began, 1),
    )
    assert not report.problems, "\n".join(report.problems[:10])
    # The redraws did redraw (a trick-taking twin may part ways at once: its hands hold other cards).
    assert report.resampled_twins >= games, report
    if isinstance(ENGINES[game], HiddenIdentities):
        # The relabelling did relabel and the twins were followed: otherwise nothing was compared.
        assert report.relabelled_twins >= games and report.relabelled_steps >= 10 * games, report


@pytest.mark.parametrize("game", playable_games())
def test_payloads_leak_nothing(game, caplog):
    caplog.set_level(logging.DEBUG)
    sizes = scale()
    games = sizes.leak_games
    workers = min(sizes.workers, games)
    began = time.perf_counter()
    if workers <= 1:
        report = sweep(game, 0, games, sizes.leak_states)
    else:
        # Spawned workers: each imports the bot afresh, so the test's monkeypatches stay here.
        chunks = [(game, w * games // workers, (w + 1) * games // workers, sizes.leak_states) for w in range(workers)]
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            report = LeakReport.merged(list(pool.map(sweep, *zip(*chunks, strict=True))))
    record(
        "hidden_payloads",
        game,
        games=games,
        states=report.states,
        boards=report.boards,
        panels=report.panels,
        spectator_panels=report.spectator_panels,
        ai_decisions=report.ai_decisions,
        log_lines=report.log_lines,
        results=report.results,
        resamples_changed=report.resamples_changed,
        problems=len(report.problems),
        seconds=round(time.perf_counter() - began, 1),
    )
    assert not report.problems, "\n".join(report.problems[:10])
    assert report.results == games and report.ai_decisions >= 1
    # The redraws did redraw something: otherwise every comparison above proves nothing.
    assert report.resamples_changed > report.boards // 4, report


# ---------------------------------------------------------------------- through the bot
#: The plain-text messages the bot posts in a thread; none depends on the state.
TEXT_MESSAGES = ("ui.board.welcome", "call.board", "call.panel", "ui.board.ended")


def template(locale: str, key: str, **known: str) -> re.Pattern[str]:
    """Return a pattern matching the catalogue text ``key`` with any value for its mention/name fields."""
    marker = "\x00"
    text = translate(locale, key, mentions=marker, name=marker, **known)
    return re.compile("^" + ".+".join(re.escape(part) for part in text.split(marker)) + "$", re.S)


def normal(embed: dict[str, Any]) -> dict[str, Any]:
    """Return an embed as Discord stores it, to compare with what the bot built."""
    return dict(discord.Embed.from_dict(embed).to_dict())


class BotSpies:
    """Checks every board, panel, result and AI decision of the bot while it plays.

    Each board build is compared with the build from a redraw of the hidden data. At every
    :data:`SECRETS_EVERY` th board (and the last) the table's private texts (:func:`secret_texts`)
    are gathered and the log records written since are searched for them.
    """

    def __init__(self, world: World, monkeypatch: Any, game: str, caplog: Any) -> None:
        self.world = world
        self.caplog = caplog
        self.report = LeakReport()
        self.checker = LeakChecker(self.report, f"bot-{game}")
        self.secrets: set[str] = set()
        self.current: dict[int, set[str]] = {}
        self.posted: list[dict[str, Any]] = []
        self.logs_checked = 0
        self.boards_seen = 0
        self.leaks: list[str] = []
        self._rng = GameRng(f"secrets-{game}")
        real_board, real_result, real_panel = panels.board_payload, panels.result_payload, panels.panel_payload
        real_choose = bot.tables.choose_ai_action

        def board_payload(table: Table, log_lines: Any, *, awaited_legal: Any) -> Any:
            payload = real_board(table, log_lines, awaited_legal=awaited_legal)
            self.checker.board(table, list(log_lines))
            self.boards_seen += 1
            if self.boards_seen % SECRETS_EVERY == 1 or table.status != "active":
                self.leaks.extend(leaked(texts_of(payload), self.gather(table)))
            return payload

        def result_payload(table: Table, result: TableResult, names: dict[int, str], **kwargs: Any) -> Any:
            self.checker.result(table, result, names, **kwargs)
            return real_result(table, result, names, **kwargs)

        def panel_payload(table: Table, user_id: int, locale: str) -> Any:
            payload = real_panel(table, user_id, locale)
            self.checker.panel(table, user_id, locale)
            return payload

        def choose(engine: Any, agent: Any, state: Any, seat: int) -> Any:
            return real_choose(engine, SpyAgent(agent, engine, state, seat, self.checker), state, seat)

        monkeypatch.setattr(publisher, "board_payload", board_payload)
        monkeypatch.setattr(publisher, "result_payload", result_payload)
        monkeypatch.setattr(interactions, "panel_payload", panel_payload)
        monkeypatch.setattr(publisher, "panel_payload", panel_payload)
        monkeypatch.setattr(bot.tables, "choose_ai_action", choose)
        world.bot.publisher.observers.append(self.observe)

    def observe(self, table: Table, kind: str, payload: Any) -> None:
        """Keep the embed of every message the publisher posts (for the provenance check)."""
        self.posted.append(dict(payload.embed.to_dict()))

    def gather(self, table: Table) -> set[str]:
        """Return the private texts of ``table`` now; search the new log records for them."""
        if table.state is None:
            return set()
        # AI seats have no user: every seat gets a stand-in id for its panel.
        stand_in = [Seat(seat=s.seat, user_id=-1 - s.seat, name=s.name, is_ai=False) for s in table.seats]
        copy = dataclasses.replace(table, seats=stand_in)
        found = secret_texts(copy, [-1 - s.seat for s in table.seats], self._rng, draws=1)
        self.report.secrets += len(found - self.secrets)
        self.secrets |= found
        self.current[table.id] = found
        self.check_logs(found)
        return found

    def check_logs(self, secrets: set[str]) -> None:
        records = self.caplog.get_records("call")
        texts = [f"{r.getMessage()}\n{r.exc_text or ''}" for r in records[self.logs_checked :]]
        self.logs_checked = len(records)
        self.leaks.extend(leaked(texts, secrets))


@pytest.mark.asyncio
@pytest.mark.simcord(settle_timeout=60)  # the spies redraw every board several times over
@pytest.mark.parametrize("game", discord_games())
async def test_games_on_discord_leak_nothing(world, monkeypatch, caplog, game):
    # Every record of the bot's own loggers; other libraries at the bot's default level (INFO).
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.DEBUG, logger="bot")
    people = world.members("alice", "bob", "carol")
    spectator = world.member("dave", locale="ru")
    sizes = scale()
    with recording_views([game], draw=sizes.draw_boards):
        spies = BotSpies(world, monkeypatch, game, caplog)
        tables: list[int] = []
        for index in range(sizes.leak_discord_games):
            counts = seat_counts(game)
            # The normal run plays the smallest table (long games take minutes through Discord).
            seats = counts[index % len(counts)]
            humans = min(1 + index % 3, seats)
            host, *guests = people[:humans]
            # An hour's clock: a long game must not meet SimCord's real-time timers half-way.
            table_id = await world.seat(
                host, *guests, ais=seats - humans, game=game, clock=3600, reaction_clock=3600, start=False
            )
            started = await world.lobby_click(host, table_id, "start")
            assert not started.ephemeral
            await world.env.settle()
            await world.open_panel(spectator, table_id)
            # A short game may never need a private decision; every seated human looks once anyway.
            for member in people[:humans]:
                await world.open_panel(member, table_id)
            await play_out(world, table_id, people[:humans])
            await world.env.settle()
            tables.append(table_id)
    report = spies.report
    assert not report.problems, "\n".join(report.problems[:10])
    assert report.boards >= 10 * len(tables) and report.panels >= len(tables) and report.spectator_panels >= 1
    # Each table's result is checked twice: the thread's message and the channel's result card.
    assert report.results == 2 * len(tables) and report.ai_decisions >= 1 and spies.secrets, report
    # Nothing public or logged ever showed a text that was private at that moment; the last state's
    # private texts (cards never revealed) appear nowhere in the log.
    spies.check_logs(set().union(*spies.current.values()))
    assert not spies.leaks, spies.leaks[:5]
    # Every message left in Discord is one the bot built (and the spies checked) or a text that
    # depends on no state; thread names likewise.
    posted = [normal(e) for e in spies.posted]
    locale = world.table(tables[0]).locale
    names = [translate(locale, "ui.board.thread_name", game=game_name(game, locale), id=t)[:100] for t in tables]
    texts = [template(locale, key) for key in TEXT_MESSAGES]
    for table_id, name in zip(tables, names, strict=True):
        assert world.table(table_id).status == "finished"
        assert world.thread(table_id).name == name
        for message in [*world.thread_messages(table_id), *world.channel.history()]:
            assert not message.flags.ephemeral
            for embed in message.embeds:
                assert normal(embed.to_dict()) in posted, embed.to_dict()
            # Besides the texts above, Discord's own "thread created" notice repeats a thread name.
            content = message.content
            assert not content or content in names or any(t.match(content) for t in texts), content
    record(
        "hidden_discord",
        game,
        games=len(tables),
        boards=report.boards,
        panels=report.panels,
        spectator_panels=report.spectator_panels,
        ai_decisions=report.ai_decisions,
        results=report.results,
        secrets=len(spies.secrets),
        log_records=spies.logs_checked,
    )


# ---------------------------------------------------------------------- the sweep can fail
def test_the_sweep_catches_a_public_view_that_shows_a_hand(monkeypatch):
    engine = ENGINES["coup"]
    real = engine.view

    # A broken engine whose public view carries seat 0's hand while claiming to be public (a view
    # that says whose it is would be refused outright by the presenter).
    def view(state: Any, seat: int | None) -> Any:
        return real(state, seat) if seat is not None else real(state, 0).model_copy(update={"viewer": None})

    monkeypatch.setattr(engine, "view", view)
    report = sweep("coup", 0, 2, per_game=6)
    assert any("depends on hidden data" in problem for problem in report.problems), report.problems[:3]


def test_the_sweep_catches_a_log_record_that_names_a_hidden_card(monkeypatch):
    real = panels.board_payload

    def board_payload(table: Table, *args: Any, **kwargs: Any) -> Any:
        assert table.state is not None
        logging.getLogger("bot.ui.panels").warning("drawing %s", table.state.model_dump_json())
        return real(table, *args, **kwargs)

    monkeypatch.setattr(panels, "board_payload", board_payload)
    report = sweep("coup", 0, 2, per_game=6)
    assert any("log records of the board" in problem for problem in report.problems), report.problems[:3]


def test_the_transcript_check_catches_ids_dealt_in_sequence():
    # The old Интриги numbering (M01, M02… kept face down): a spectator counting public events knew
    # the id a publicly taken card got, and saw it go face down later. One state at a time, nothing
    # differs (the sweep above passed it); the transcript of a relabelled twin does.
    report = LeakReport()
    with sequential_ids(), recording_views(["intrigue"]):
        transcript_game("intrigue", 0, report, starts=2)
    assert report.relabelled_twins >= 1
    assert any("depend on hidden ids" in problem for problem in report.problems), report.problems[:3]
