"""Builders of every message the bot shows for a table: lobby, board, private panel, result.

Builders are pure functions of a table and its *views*; the public board is built from the public
view only, the private panel from the clicking seat's own view.

Seat names are chosen by members, so they reach a presenter only through :mod:`bot.ui.text`: escaped
for its text (status, summary, standings), cleaned for its choice labels, and as members see them
for the images.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.i18n import has_key, translate
from bot.presenters import Choice
from bot.presenters.chains import encode_choice
from bot.presenters.registry import PRESENTERS
from bot.ratings import display_rating
from bot.storage import RatingChange
from bot.tables import FIRST_PLAYER, MORE_TIME_SECONDS, Seat, Table, TableError, TableResult
from bot.ui.commands import CommandIds, fill_commands
from bot.ui.components import (
    ActButton,
    ActSelect,
    FormButton,
    LobbyButton,
    LobbySelect,
    MoreTimeButton,
    PassButton,
    TableButton,
)
from bot.ui.forms import explorer, forms_for
from bot.ui.text import image_names, label_name, label_names, safe_name, safe_names
from games.core.protocol import pass_scope, reaction_seats

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
MAX_ROWS = 5
PER_ROW = 5
MAX_OPTIONS = 25
#: Log lines above the board picture: enough to follow the last moves, short enough that the
#: picture and its buttons fit a phone screen (the Log button pages through the rest).
BOARD_LOG_LINES = 3
#: ``Payload.extra`` key of the state version a board payload shows.
BOARD_VERSION = "version"
COLOUR = discord.Colour(0xB8860B)
#: The file name of a private panel's hand picture (the embed shows it as ``attachment://hand.png``).
HAND_FILE = "hand.png"


@dataclass
class Payload:
    """The parts of one message: text, embed, components and an optional image."""

    embed: discord.Embed = field(default_factory=discord.Embed)
    view: discord.ui.View = field(default_factory=lambda: discord.ui.View(timeout=None))
    png: bytes | None = None
    filename: str = "board.png"
    extra: dict[str, Any] = field(default_factory=dict)

    def file(self) -> discord.File:
        """Return the image as a fresh ``discord.File`` (a File can be sent only once)."""
        if self.png is None:
            raise ValueError("this payload has no image")
        return discord.File(io.BytesIO(self.png), filename=self.filename)


def game_name(game: str, locale: str) -> str:
    """Return the localized name of ``game``."""
    return translate(locale, f"{game}.name")


def _view() -> discord.ui.View:
    return discord.ui.View(timeout=None)


# ---------------------------------------------------------------------- lobby
def _seat_label(seat: Seat) -> str:
    # A human is shown by mention (the lobby message pings no one: it is sent with no allowed mentions).
    return f"\N{ROBOT FACE} {safe_name(seat.name)}" if seat.is_ai else f"<@{seat.user_id}>"


def _first_player(table: Table) -> str | None:
    """Return who a rematch lobby lets move first, while they sit in it (else ``None``)."""
    first = table.options.get(FIRST_PLAYER)
    if not isinstance(first, dict) or table.status != "lobby":
        return None
    for seat in table.seats:
        if (seat.user_id is not None and seat.user_id == first.get("user_id")) or (
            seat.is_ai and seat.name == first.get("ai_name")
        ):
            return _seat_label(seat)
    return None


def lobby_payload(table: Table, locale: str) -> Payload:
    """Return the lobby message of ``table``."""
    name = game_name(table.game, locale)
    embed = discord.Embed(
        title=translate(locale, "ui.lobby.title", game=name, id=table.id),
        description=translate(
            locale, "ui.lobby.description" if table.status == "lobby" else "ui.lobby.host", host=f"<@{table.host_id}>"
        ),
        colour=COLOUR,
    )
    if table.status == "lobby" and table.expires_at is not None:
        # A Discord timestamp: each reader sees "in 29 minutes" in their own language and time zone.
        expires = translate(locale, "ui.lobby.expires", when=f"<t:{int(table.expires_at)}:R>")
        embed.description = f"{embed.description}\n{expires}"
    seats = "\n".join(f"{i + 1}. {_seat_label(s)}" for i, s in enumerate(table.seats)) or translate(
        locale, "ui.lobby.empty"
    )
    embed.add_field(
        name=translate(locale, "ui.lobby.seats", n=len(table.seats), max=table.seat_range()[1]),
        value=seats,
        inline=True,
    )
    clock = "ui.lobby.clock_by_decision" if table.options.get("clock_by_decision") else "ui.lobby.clock"
    options = [translate(locale, clock, seconds=table.clock_seconds)]
    # Only options the catalogue describes are shown: never a raw key, nor internal ones (a test deck).
    options.extend(
        translate(locale, f"{table.game}.option.{key}", value=value)
        for key, value in table.options.get("game", {}).items()
        if value not in (None, False) and has_key(f"{table.game}.option.{key}", locale)
    )
    first = _first_player(table)
    if first is not None:
        options.append(translate(locale, "ui.lobby.first_player", name=first))
    embed.add_field(name=translate(locale, "ui.lobby.options"), value="\n".join(options), inline=True)
    view = _view()
    if table.status == "lobby":
        buttons = [
            ("join", discord.ButtonStyle.success, "\N{HEAVY PLUS SIGN}"),
            ("leave", discord.ButtonStyle.secondary, None),
            ("add_ai", discord.ButtonStyle.secondary, "\N{ROBOT FACE}"),
            ("remove_ai", discord.ButtonStyle.secondary, None),
            ("start", discord.ButtonStyle.primary, "\N{BLACK RIGHT-POINTING TRIANGLE}"),
        ]
        for verb, style, emoji in buttons:
            view.add_item(
                LobbyButton(table.id, verb.replace("_", ""), translate(locale, f"ui.lobby.{verb}"), style, emoji)
            )
        view.add_item(LobbyButton(table.id, "cancel", translate(locale, "ui.lobby.cancel"), discord.ButtonStyle.danger))
        view.add_item(_rules_button(table, locale))
        guests = [s for s in table.seats if not s.is_ai and s.user_id is not None and s.user_id != table.host_id]
        if guests:
            # Everyone sees it; only the host's choice is obeyed (the service checks).
            choices = [
                discord.SelectOption(label=label_name(seat.name)[:100] or "-", value=str(seat.user_id))
                for seat in guests[:MAX_OPTIONS]
            ]
            placeholder = translate(locale, "ui.lobby.remove_player")
            view.add_item(LobbySelect(table.id, "kick", placeholder=placeholder, options=choices))
    elif table.status == "active" and table.thread_id:
        embed.add_field(
            name="\u200b", value=translate(locale, "ui.lobby.started", thread=f"<#{table.thread_id}>"), inline=False
        )
        view.add_item(_rules_button(table, locale))
    elif table.status == "cancelled":
        if table.thread_id is not None and table.thread_id != table.channel_id:
            # The game had started: its lobby points to where it was played and says how it ended.
            closed = translate(locale, "result.ended", thread=f"<#{table.thread_id}>")
        else:
            closed = translate(locale, "ui.lobby.expired" if table.expired else "ui.lobby.cancelled")
        embed.add_field(name="\u200b", value=closed, inline=False)
    return Payload(embed=embed, view=view)


def _rules_button(table: Table, locale: str) -> TableButton:
    """Return the lobby's Rules button: whoever clicks reads the rules privately, in their own language."""
    label = translate(locale, "ui.button.rules")
    return TableButton(table.id, "rules", label, discord.ButtonStyle.secondary, "\N{OPEN BOOK}")


# ---------------------------------------------------------------------- choices → components
def add_choices(
    view: discord.ui.View,
    table: Table,
    prompt: int,
    choices: Sequence[Choice],
    locale: str,
    *,
    private: bool,
    rows: int,
) -> None:
    """Lay ``choices`` out as buttons and selects in at most ``rows`` rows.

    Ungrouped choices become buttons, five to a row; a group of two or more becomes one select
    (its options carry the encoded actions). If that needs too many rows, all groups share one
    select.
    """
    buttons = [c for c in choices if c.group is None]
    groups: dict[str, list[Choice]] = {}
    for choice in choices:
        if choice.group is not None:
            groups.setdefault(choice.group, []).append(choice)
    singles = [g[0] for g in groups.values() if len(g) == 1]
    selects = {name: g for name, g in groups.items() if len(g) > 1}
    buttons.extend(singles)
    button_rows = -(-len(buttons) // PER_ROW)
    if button_rows + len(selects) > rows and selects:
        merged = [c for g in selects.values() for c in g]
        selects = {"any": merged}
    for index, choice in enumerate(buttons[: PER_ROW * max(0, rows - len(selects))]):
        view.add_item(
            ActButton(
                table.id,
                prompt,
                encode_choice(choice.action),
                private=private,
                label=choice.label,
                style=STYLES[choice.style],
                emoji=choice.emoji,
            )
        )
        _ = index
    for name, group in selects.items():
        options = [
            discord.SelectOption(label=c.label[:100], value=encode_choice(c.action), emoji=c.emoji)
            for c in group[:MAX_OPTIONS]
        ]
        placeholder = translate(locale, f"{table.game}.select.{name}")
        # A group of ``multi`` choices lets several be ticked at once (one decision's picks together).
        most = len(options) if all(c.multi for c in group) else 1
        view.add_item(
            ActSelect(
                table.id, prompt, name, private=private, placeholder=placeholder, options=options, max_values=most
            )
        )


# ---------------------------------------------------------------------- board
def board_payload(table: Table, log_lines: Sequence[str], *, awaited_legal: Sequence[Any]) -> Payload:
    """Return the public board: image from the public view, status, the last log lines, public decisions.

    Kept short for a phone: :data:`BOARD_LOG_LINES` log lines above the picture (the Log button has
    the rest), no footer, and the utility buttons in their own row under the moves. The image holds
    no clock (it would stand still once posted); the embed's Discord timestamp is the live countdown.
    """
    locale = table.locale
    presenter = PRESENTERS[table.game]
    assert table.state is not None  # noqa: S101 - boards exist only for started tables
    public = table.view(None)
    names = safe_names(table.names())
    png = presenter.render_board(public, image_names(table.names()), locale)
    status = presenter.status(public, names, locale)
    description = status
    if log_lines:
        description += "\n\n" + "\n".join(f"• {line}" for line in log_lines[-BOARD_LOG_LINES:])
    embed = discord.Embed(
        title=translate(locale, "ui.board.title", game=game_name(table.game, locale), id=table.id),
        description=description[:4000],
        colour=COLOUR,
    )
    embed.set_image(url="attachment://board.png")
    if table.deadline is not None and table.status == "active":
        clock = translate(locale, "ui.board.clock", when=f"<t:{int(table.deadline)}:R>")
        if table.extended:
            # Shown to everyone, on the board itself: the thread gets no extra message for it.
            took = ", ".join(names[i] for i in sorted(table.extended))
            clock += "\n" + translate(locale, "react.taken", names=took, seconds=MORE_TIME_SECONDS)
        embed.add_field(name="\N{HOURGLASS WITH FLOWING SAND}", value=clock, inline=False)
    autopiloted = [safe_name(s.name) for s in table.seats if s.autopilot]
    if autopiloted:
        embed.add_field(
            name="\N{ROBOT FACE}",
            value=translate(locale, "ui.board.autopilot", names=", ".join(autopiloted)),
            inline=False,
        )
    view = _view()
    if table.status == "active":
        choices = presenter.public_choices(public, awaited_legal, label_names(table.names()), locale)
        more_time = _offers_more_time(table)
        rows = MAX_ROWS - 2 if more_time else MAX_ROWS - 1
        add_choices(view, table, table.prompt_version, choices, locale, private=False, rows=rows)
        if more_time:
            label = translate(locale, "react.more_time", seconds=MORE_TIME_SECONDS)
            view.add_item(MoreTimeButton(table.id, table.prompt_version, label, row=MAX_ROWS - 2))
        for verb, style, emoji in _utility_buttons(table.game, autopiloted=bool(autopiloted)):
            label = translate(locale, "board.button.full" if verb == "full" else f"ui.button.{verb}")
            view.add_item(TableButton(table.id, verb, label, style, emoji, row=MAX_ROWS - 1))
    elif table.status == "finished":
        view.add_item(
            TableButton(
                table.id,
                "rematch",
                translate(locale, "ui.button.rematch"),
                discord.ButtonStyle.success,
                "\N{BLACK RIGHT-POINTING TRIANGLE}",
            )
        )
        for verb, emoji in (("rules", None), ("log", "\N{SCROLL}"), ("replay", "\N{FILM FRAMES}")):
            label = translate(locale, f"ui.button.{verb}")
            view.add_item(TableButton(table.id, verb, label, discord.ButtonStyle.secondary, emoji))
    # No footer: a "#2 · v12" means nothing to players. The version stays with the payload (never
    # sent) for whoever needs to know which state a board shows: logs, observers, tests.
    return Payload(embed=embed, view=view, png=png, extra={BOARD_VERSION: table.state.version})


def has_full_board(game: str) -> bool:
    """Return whether the presenter of ``game`` draws a detailed board behind a **Full board** button."""
    return callable(getattr(PRESENTERS[game], "render_full_board", None))


def _utility_buttons(game: str, *, autopiloted: bool) -> list[tuple[str, discord.ButtonStyle, str | None]]:
    """Return the board's utility row (verb, style, emoji): one row of at most five, below the moves.

    A row holds five. The panel, Resign and End stay; a game with a full board shows it in place of
    Rules (its private reply carries the Rules button); while "I'm back" is shown the Log gives way,
    and returns after.
    """
    row: list[tuple[str, discord.ButtonStyle, str | None]] = [
        ("hand", discord.ButtonStyle.primary, "\N{PLAYING CARD BLACK JOKER}"),
        ("rules", discord.ButtonStyle.secondary, "\N{OPEN BOOK}"),
        ("resign", discord.ButtonStyle.secondary, "\N{WAVING WHITE FLAG}"),
        ("end", discord.ButtonStyle.danger, None),
    ]
    if has_full_board(game):
        row[1] = ("full", discord.ButtonStyle.secondary, "\N{WORLD MAP}")
    if autopiloted:
        row.insert(1, ("back", discord.ButtonStyle.success, "\N{WAVING HAND SIGN}"))
    if len(row) < PER_ROW:
        row.insert(2, ("log", discord.ButtonStyle.secondary, "\N{SCROLL}"))
    return row


def full_board_payload(table: Table, locale: str) -> Payload:
    """Return the private **Full board** reply: the detailed image, drawn from the PUBLIC view only.

    Raises:
        TableError: If the game has no full board or the table has not started.
    """
    presenter = PRESENTERS[table.game]
    render_full = getattr(presenter, "render_full_board", None)
    if not callable(render_full):
        raise TableError("table.error")  # a forged custom id: this game has no full board
    if table.state is None:
        raise TableError("table.not_started")
    png = render_full(table.view(None), image_names(table.names()), locale)
    embed = discord.Embed(
        title=translate(locale, "board.full.title", game=game_name(table.game, locale), id=table.id), colour=COLOUR
    )
    embed.set_image(url="attachment://full.png")
    view = _view()
    view.add_item(_rules_button(table, locale))
    return Payload(embed=embed, view=view, png=png, filename="full.png")


def _offers_more_time(table: Table) -> bool:
    """Return whether the board offers "More time": a reaction window a human awaited may still extend."""
    state = table.state
    if state is None or table.deadline is None or not table.is_reaction(state):
        return False
    return any(not table.answered_for(i, state) and i not in table.extended for i in table.engine.active_seats(state))


def _offers_pass(table: Table, seat: int) -> bool:
    """Return whether ``seat``'s panel offers a standing pass: asked whether to react, in a game with a pass span."""
    state = table.state
    return (
        state is not None
        and pass_scope(table.engine, state) is not None
        and table.is_reaction(state)
        and seat in reaction_seats(table.engine, state)
    )


# ---------------------------------------------------------------------- private panel
def panel_payload(table: Table, user_id: int, locale: str) -> Payload:
    """Return the private panel of ``user_id``: its own view and its own legal actions.

    When the game's presenter has ``render_hand`` and it draws the seat's hand, the panel carries
    that picture (:data:`HAND_FILE`); a spectator's panel never has one.
    """
    presenter = PRESENTERS[table.game]
    assert table.state is not None  # noqa: S101 - panels exist only for started tables
    seat_obj = table.seat_of(user_id)
    seat = seat_obj.seat if seat_obj is not None else None
    view_model = table.view(seat)
    names = safe_names(table.names())
    lines = [presenter.status(table.view(None), names, locale), ""]
    lines.append(presenter.private_summary(view_model, names, locale))
    if seat_obj is not None and seat_obj.autopilot:
        lines.extend(["", translate(locale, "ui.panel.autopilot")])
    # A standing pass the player may take back (it lasts while the engine's pass span does).
    standing = (
        seat_obj is not None
        and not seat_obj.autopilot
        and table.status == "active"
        and table.standing_pass(seat_obj.seat, table.state)
    )
    if standing:
        lines.extend(["", translate(locale, "react.passing")])
    embed = discord.Embed(
        title=translate(locale, "ui.panel.title", game=game_name(table.game, locale)),
        description="\n".join(lines)[:4000],
        colour=COLOUR,
    )
    if table.deadline is not None:
        embed.add_field(
            name="\N{HOURGLASS WITH FLOWING SAND}",
            value=translate(locale, "ui.board.clock", when=f"<t:{int(table.deadline)}:R>"),
        )
    # A game may draw the seat's hand as a picture (optional presenter hook, see bot.presenters).
    render_hand = getattr(presenter, "render_hand", None)
    png = render_hand(view_model, image_names(table.names()), locale) if render_hand and seat is not None else None
    if png:
        embed.set_image(url=f"attachment://{HAND_FILE}")
    view = _view()
    if seat is not None and table.status == "active" and seat_obj is not None and not seat_obj.autopilot:
        legal = table.engine.legal_actions(table.state, seat)
        # One explorer for the chained options and the forms: both look at the picks after this state.
        explore = explorer(table.engine, table.state, seat)
        chained = getattr(presenter, "chain_choices", None)  # optional: sub-steps chained into one option
        if chained is not None:
            choices = chained(view_model, legal, label_names(table.names()), locale, explore=explore)
        else:
            choices = presenter.private_choices(view_model, legal, label_names(table.names()), locale)
        add_choices(view, table, table.prompt_version, choices, locale, private=True, rows=MAX_ROWS - 1)
        # A whole decision in one form sits in the last row, beside Refresh; its sub-step buttons stay above.
        for form in forms_for(table, seat, locale, explore=explore)[: PER_ROW - 2]:
            view.add_item(FormButton(table.id, table.prompt_version, form.kind, form.button, row=MAX_ROWS - 1))
        if _offers_pass(table, seat):
            label = translate(locale, "react.pass")
            view.add_item(PassButton(table.id, table.prompt_version, "on", label, row=MAX_ROWS - 1))
    if standing:
        view.add_item(PassButton(table.id, 0, "off", translate(locale, "react.resume"), row=MAX_ROWS - 1))
    if seat_obj is not None and seat_obj.autopilot:
        view.add_item(TableButton(table.id, "back", translate(locale, "ui.button.back"), discord.ButtonStyle.success))
    refresh = translate(locale, "ui.button.refresh")
    view.add_item(TableButton(table.id, "hand", refresh, discord.ButtonStyle.secondary, row=MAX_ROWS - 1))
    return Payload(embed=embed, view=view, png=png or None, filename=HAND_FILE)


def confirm_payload(table: Table, verb: str, locale: str) -> Payload:
    """Return a private confirmation for resign or end."""
    embed = discord.Embed(description=translate(locale, f"ui.panel.confirm_{verb}"), colour=COLOUR)
    view = _view()
    view.add_item(
        TableButton(table.id, f"{verb}_yes", translate(locale, f"ui.button.confirm_{verb}"), discord.ButtonStyle.danger)
    )
    return Payload(embed=embed, view=view)


def end_vote_payload(table: Table, agreed: int, needed: int) -> Payload:
    """Return the public proposal to end ``table`` without a result, with its Agree button."""
    locale = table.locale
    embed = discord.Embed(
        description=translate(locale, "ui.board.end_votes", agreed=agreed, needed=needed), colour=COLOUR
    )
    view = _view()
    view.add_item(
        TableButton(table.id, "endvote", translate(locale, "ui.button.agree_end"), discord.ButtonStyle.danger)
    )
    return Payload(embed=embed, view=view)


def rules_payload(game: str, locale: str, command_ids: CommandIds | None = None) -> Payload:
    """Return the rules summary of ``game`` as an embed.

    Commands the rules name become clickable mentions when ``command_ids`` knows their ids
    (:mod:`bot.ui.commands`), else the plain command as the reader's client names it.
    """
    presenter = PRESENTERS[game]
    embed = discord.Embed(title=game_name(game, locale), colour=COLOUR)
    for title, text in presenter.rules(locale):
        embed.add_field(name=title[:256], value=fill_commands(text, locale, command_ids)[:1024], inline=False)
    return Payload(embed=embed)


# ---------------------------------------------------------------------- result
def result_payload(
    table: Table,
    result: TableResult,
    names_by_user: dict[int, str],
    *,
    card: bool = False,
    board_png: bytes | None = None,
) -> Payload:
    """Return the result of a finished table: standings, rating changes, Rematch.

    Built from the public view only, so it shows exactly what the game reveals at its end. The
    thread's message (``card`` false) carries the text; the card that replaces the lobby message in
    the channel (``card`` true) adds a link to the thread and ``board_png``, the final board image
    as the thread's last board showed it (drawn from the public view too).
    """
    locale = table.locale
    presenter = PRESENTERS[table.game]
    assert table.state is not None  # noqa: S101
    public = table.view(None)
    lines = presenter.result_lines(public, safe_names(table.names()), locale)
    title = "result.card_title" if card else "ui.result.title"
    embed = discord.Embed(
        title=translate(locale, title, game=game_name(table.game, locale), id=table.id),
        description="\n".join(lines)[:4000],
        colour=discord.Colour.gold(),
    )
    if result.rating_changes:
        embed.add_field(
            name=translate(locale, "ui.result.ratings"),
            value="\n".join(
                rating_line(locale, safe_name(names_by_user.get(c.user_id, str(c.user_id))), c)
                for c in result.rating_changes
            ),
            inline=False,
        )
    elif result.outcome is not None:
        embed.set_footer(text=translate(locale, "ui.result.unrated"))
    png = None
    if card:
        if table.thread_id is not None and table.thread_id != table.channel_id:
            embed.add_field(
                name="\u200b", value=translate(locale, "result.thread", thread=f"<#{table.thread_id}>"), inline=False
            )
        if board_png is not None:
            png = board_png
            embed.set_image(url="attachment://board.png")
    view = _view()
    view.add_item(TableButton(table.id, "rematch", translate(locale, "ui.button.rematch"), discord.ButtonStyle.success))
    return Payload(embed=embed, view=view, png=png)


def rating_line(locale: str, name: str, change: RatingChange) -> str:
    """Return one player's rating change on the display scale: "alice: 1000 → 1024 (+24)"."""
    before = display_rating(change.mu_before, change.sigma_before)
    after = display_rating(change.mu_after, change.sigma_after)
    return translate(
        locale, "ui.result.rating_line", name=name, before=before, after=after, delta=f"{after - before:+d}"
    )
