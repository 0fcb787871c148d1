"""Persistent components: ``DynamicItem`` buttons and selects that survive restarts.

Every custom id follows one grammar, parsed by the templates below (≤ 100 characters):

- ``lobby:<table>:<verb>``             lobby buttons (join, leave, ai, unai, start, cancel)
- ``lobbys:<table>:<verb>``            a lobby select (``kick``: the host removes the chosen player)
- ``tbl:<table>:<verb>``               table buttons (hand, full, rules, resign, end, back, rematch, …)
- ``rules:<game>``                     a game's rules, with no table (the buttons under /help)
- ``act:<table>:<prompt>:<action>``    one game action (``bot.codec``) answering prompt ``<prompt>``
- ``acts:<table>:<prompt>:<group>:<p>`` a select of game actions; ``<p>`` is 1 on a private panel
- ``form:<table>:<prompt>:<kind>``     opens the form (a modal) taking the whole decision ``<kind>``
- ``more:<table>:<prompt>``             "More time" in the reaction window that opened at ``<prompt>``
- ``pass:<table>:<prompt>:<mode>``      a standing pass: ``on`` passes this window and the rest of the
                                       span (:meth:`bot.tables.TableService.pass_windows`), ``off`` takes it back
- ``log:<table>:<nav>:<page>``          a page of a game's log (:mod:`bot.ui.replay`)
- ``rpl:<table>:<owner>:<nav>:<step>``  the replay viewer of member ``<owner>``, moved to ``<step>``
- ``rpls:<table>:<owner>:jump``         the viewer's jump to a round or turn (the value is the step)

Because the table id and prompt version travel in the id, a click after a restart works, and a
click on an older prompt is refused instead of applied. Every click first passes the member's click
limit (:mod:`bot.ui.limits`): one too many is answered "too fast" and does nothing else.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.codec import CodecError, decode_action, encode_action
from bot.errors import answer_error
from bot.presenters.chains import CHAIN_SEP
from bot.ui.limits import TooFastError

if TYPE_CHECKING:
    from bot.app import TableBot

MAX_CUSTOM_ID = 100


def _bot(interaction: discord.Interaction) -> TableBot:
    return interaction.client  # type: ignore[return-value]  # the only client this code runs in


def _label(item: discord.ui.Item[Any]) -> str:
    return getattr(item, "label", None) or ""


def _check_rate(interaction: discord.Interaction) -> None:
    """Refuse the click (``TooFastError``) when the member is over the click limit."""
    _bot(interaction).clicks.check(interaction)


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"lobby:(?P<table>\d{1,18}):(?P<verb>[a-z]{1,12})"
):
    """A lobby button."""

    def __init__(
        self, table_id: int, verb: str, label: str, style: discord.ButtonStyle, emoji: str | None = None
    ) -> None:
        """Build the button for ``verb`` at ``table_id``."""
        super().__init__(discord.ui.Button(label=label, style=style, emoji=emoji, custom_id=f"lobby:{table_id}:{verb}"))
        self.table_id = table_id
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["table"]), match["verb"], _label(item), discord.ButtonStyle.secondary)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the bot's lobby handler."""
        try:
            _check_rate(interaction)
            await _bot(interaction).interactions.lobby_click(interaction, self.table_id, self.verb)
        except Exception as error:
            await answer_error(interaction, error)


class LobbySelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"lobbys:(?P<table>\d{1,18}):(?P<verb>[a-z]{1,12})"
):
    """A lobby select; ``kick`` lists the joined players, and the host's choice is removed."""

    def __init__(
        self,
        table_id: int,
        verb: str,
        *,
        placeholder: str = "",
        options: list[discord.SelectOption] | None = None,
    ) -> None:
        """Build the select for ``verb`` at ``table_id``."""
        super().__init__(
            discord.ui.Select(
                custom_id=f"lobbys:{table_id}:{verb}",
                placeholder=placeholder[:150] or None,
                options=options or [discord.SelectOption(label="-", value="-")],
                min_values=1,
                max_values=1,
            )
        )
        self.table_id = table_id
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbySelect:
        """Rebuild the select from its custom id; its chosen value arrives with the interaction."""
        select = cls(int(match["table"]), match["verb"])
        if isinstance(item, discord.ui.Select):
            select.item = item
        return select

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the choice to the bot's lobby handler."""
        try:
            _check_rate(interaction)
            values = self.item.values
            if len(values) != 1:
                raise CodecError(f"one value expected, got {len(values)}")  # a damaged or forged select
            await _bot(interaction).interactions.lobby_select(interaction, self.table_id, self.verb, values[0])
        except Exception as error:
            await answer_error(interaction, error)


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tbl:(?P<table>\d{1,18}):(?P<verb>[a-z_]{1,16})"
):
    """A table button that is not a game action (my cards, rules, resign, rematch …)."""

    def __init__(
        self,
        table_id: int,
        verb: str,
        label: str,
        style: discord.ButtonStyle,
        emoji: str | None = None,
        *,
        row: int | None = None,
    ) -> None:
        """Build the button for ``verb`` at ``table_id`` (in action row ``row`` if given)."""
        button = discord.ui.Button[Any](label=label, style=style, emoji=emoji, custom_id=f"tbl:{table_id}:{verb}")
        super().__init__(button, row=row)
        self.table_id = table_id
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["table"]), match["verb"], _label(item), discord.ButtonStyle.secondary)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the bot's table handler."""
        try:
            _check_rate(interaction)
            await _bot(interaction).interactions.table_click(interaction, self.table_id, self.verb)
        except Exception as error:
            await answer_error(interaction, error)


class GameRulesButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"rules:(?P<game>[a-z]{1,16})"):
    """A game's Rules button that needs no table (under /help): the rules privately, in the clicker's language."""

    def __init__(self, game: str, label: str, emoji: str | None = None) -> None:
        """Build the button showing the rules of ``game``."""
        button = discord.ui.Button[Any](
            label=label, style=discord.ButtonStyle.secondary, emoji=emoji, custom_id=f"rules:{game}"
        )
        super().__init__(button)
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameRulesButton:
        """Rebuild the button from its custom id."""
        return cls(match["game"], _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the bot's rules handler."""
        try:
            _check_rate(interaction)
            await _bot(interaction).interactions.game_rules(interaction, self.game)
        except Exception as error:
            await answer_error(interaction, error)


class ActButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"act:(?P<table>\d{1,18}):(?P<prompt>\d{1,9}):(?P<private>[01]):(?P<action>[A-Za-z0-9_.+~-]{1,60})",
):
    """A button that takes one game action."""

    def __init__(
        self,
        table_id: int,
        prompt: int,
        action: str,
        *,
        private: bool,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
    ) -> None:
        """Build the button taking ``action`` (already encoded) for prompt ``prompt``."""
        custom_id = f"act:{table_id}:{prompt}:{int(private)}:{action}"
        super().__init__(discord.ui.Button(label=label[:80], style=style, emoji=emoji, custom_id=custom_id))
        self.table_id = table_id
        self.prompt = prompt
        self.action = action
        self.private = private

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActButton:
        """Rebuild the button from its custom id."""
        return cls(
            int(match["table"]),
            int(match["prompt"]),
            match["action"],
            private=match["private"] == "1",
            label=_label(item),
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        """Apply the action through the table service."""
        try:
            _check_rate(interaction)
            await _bot(interaction).interactions.act_click(
                interaction, self.table_id, self.prompt, self.action, private=self.private
            )
        except Exception as error:
            await answer_error(interaction, error)


class ActSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"acts:(?P<table>\d{1,18}):(?P<prompt>\d{1,9}):(?P<private>[01]):(?P<group>[a-z0-9_]{1,20})",
):
    """A select whose options are game actions (targets, exchange keeps …)."""

    def __init__(
        self,
        table_id: int,
        prompt: int,
        group: str,
        *,
        private: bool,
        placeholder: str = "",
        options: list[discord.SelectOption] | None = None,
        max_values: int = 1,
    ) -> None:
        """Build the select for ``group`` with ``options`` whose values are encoded actions.

        With ``max_values`` above one several options may be ticked at once: they are one
        decision's picks, applied in the options' order (see :meth:`callback`).
        """
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"acts:{table_id}:{prompt}:{int(private)}:{group}",
                placeholder=placeholder[:150] or None,
                options=options,
                min_values=1,
                max_values=max(1, min(max_values, len(options))),
            )
        )
        self.table_id = table_id
        self.prompt = prompt
        self.private = private

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActSelect:
        """Rebuild the select from its custom id; its chosen value arrives with the interaction.

        A button carrying a select's id (a damaged message) keeps the empty select built here, so
        the click is answered as a component that does not work.
        """
        select = cls(int(match["table"]), int(match["prompt"]), match["group"], private=match["private"] == "1")
        if isinstance(item, discord.ui.Select):
            select.item = item
        return select

    async def callback(self, interaction: discord.Interaction) -> None:
        """Apply the chosen action; several ticked options of a multi-select as one chain, in the options' order.

        The order is the select's own (the message Discord sends with the click), never the order
        of ticking, so a list that ends with its closing pick (Pay) always closes the decision last.
        The chain is applied all or nothing, as a chained option is.
        """
        try:
            _check_rate(interaction)
            values = list(self.item.values)
            if not values or (len(values) > 1 and self.item.max_values < len(values)):
                raise CodecError(f"one value expected, got {len(values)}")  # a damaged or forged select
            if len(values) > 1 and (len(set(values)) != len(values) or any(CHAIN_SEP in value for value in values)):
                raise CodecError("a multi-select answers distinct single actions")
            order = {option.value: index for index, option in enumerate(self.item.options)}
            values.sort(key=lambda value: order.get(value, len(order)))
            await _bot(interaction).interactions.act_click(
                interaction, self.table_id, self.prompt, CHAIN_SEP.join(values), private=self.private
            )
        except Exception as error:
            await answer_error(interaction, error)


class FormButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"form:(?P<table>\d{1,18}):(?P<prompt>\d{1,9}):(?P<kind>[a-z0-9_]{1,16})",
):
    """A private panel's button opening the form of one whole decision (:mod:`bot.ui.forms`)."""

    def __init__(self, table_id: int, prompt: int, kind: str, label: str = "", *, row: int | None = None) -> None:
        """Build the button opening form ``kind`` of prompt ``prompt``."""
        button = discord.ui.Button[Any](
            label=label[:80] or None,
            style=discord.ButtonStyle.primary,
            emoji="\N{MEMO}",
            custom_id=f"form:{table_id}:{prompt}:{kind}",
        )
        super().__init__(button, row=row)
        self.table_id = table_id
        self.prompt = prompt
        self.kind = kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FormButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["table"]), int(match["prompt"]), match["kind"], _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the form, if the decision is still the clicker's."""
        try:
            _check_rate(interaction)
            await _bot(interaction).form_clicks.open_form(interaction, self.table_id, self.prompt, self.kind)
        except Exception as error:
            await answer_error(interaction, error)


class MoreTimeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"more:(?P<table>\d{1,18}):(?P<prompt>\d{1,9})"
):
    """The board's "More time" of a reaction window: an awaited player pushes that window's clock back once."""

    def __init__(self, table_id: int, prompt: int, label: str = "", *, row: int | None = None) -> None:
        """Build the button of the window that opened at version ``prompt``."""
        button = discord.ui.Button[Any](
            label=label[:80] or None,
            style=discord.ButtonStyle.secondary,
            emoji="\N{HOURGLASS WITH FLOWING SAND}",
            custom_id=f"more:{table_id}:{prompt}",
        )
        super().__init__(button, row=row)
        self.table_id = table_id
        self.prompt = prompt

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoreTimeButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["table"]), int(match["prompt"]), _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Ask the table service for more time."""
        try:
            _check_rate(interaction)
            await _bot(interaction).interactions.more_time_click(interaction, self.table_id, self.prompt)
        except Exception as error:
            await answer_error(interaction, error)


class PassButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pass:(?P<table>\d{1,18}):(?P<prompt>\d{1,9}):(?P<mode>on|off)",
):
    """A private panel's standing pass: Done for this window and the rest of its span (``on``), or taking it back."""

    def __init__(self, table_id: int, prompt: int, mode: str, label: str = "", *, row: int | None = None) -> None:
        """Build the button of the window that opened at version ``prompt`` (0 for ``off``, which answers no prompt)."""
        button = discord.ui.Button[Any](
            label=label[:80] or None,
            style=discord.ButtonStyle.secondary,
            emoji="\N{BLACK RIGHT-POINTING DOUBLE TRIANGLE}" if mode == "on" else "\N{LEFTWARDS ARROW WITH HOOK}",
            custom_id=f"pass:{table_id}:{prompt}:{mode}",
        )
        super().__init__(button, row=row)
        self.table_id = table_id
        self.prompt = prompt
        self.mode = mode

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PassButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["table"]), int(match["prompt"]), match["mode"], _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Ask the table service to pass (or stop passing) and redraw the clicker's panel."""
        try:
            _check_rate(interaction)
            await _bot(interaction).interactions.pass_click(
                interaction, self.table_id, self.prompt, passing=self.mode == "on"
            )
        except Exception as error:
            await answer_error(interaction, error)


class LogButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"log:(?P<table>\d{1,18}):(?P<nav>[a-z]{1,8}):(?P<page>\d{1,6})",
):
    """A page button of a game's log (the private message the board's Log button sends)."""

    def __init__(self, table_id: int, nav: str, page: int, *, emoji: str | None = None) -> None:
        """Build the button showing ``page``; ``nav`` (prev, next) keeps two buttons' ids apart."""
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary, emoji=emoji, custom_id=f"log:{table_id}:{nav}:{page}"
            )
        )
        self.table_id = table_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LogButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["table"]), match["nav"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page."""
        try:
            _check_rate(interaction)
            await _bot(interaction).replays.log_page(interaction, self.table_id, self.page)
        except Exception as error:
            await answer_error(interaction, error)


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rpl:(?P<table>\d{1,18}):(?P<owner>\d{1,20}):(?P<nav>[a-z]{1,8}):(?P<step>\d{1,6})",
):
    """A button of a replay viewer: open it, move it, or export the log; only its owner's clicks count."""

    def __init__(
        self,
        table_id: int,
        owner: int,
        nav: str,
        step: int,
        *,
        label: str | None = None,
        emoji: str | None = None,
        row: int | None = None,
    ) -> None:
        """Build the button moving ``owner``'s viewer of ``table_id`` to ``step`` (``nav`` txt: export)."""
        button = discord.ui.Button[Any](
            label=label,
            style=discord.ButtonStyle.secondary,
            emoji=emoji,
            custom_id=f"rpl:{table_id}:{owner}:{nav}:{step}",
        )
        super().__init__(button, row=row)
        self.table_id = table_id
        self.owner = owner
        self.nav = nav
        self.step = step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["table"]), int(match["owner"]), match["nav"], int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the replay handler."""
        try:
            _check_rate(interaction)
            await _bot(interaction).replays.replay_click(interaction, self.table_id, self.owner, self.nav, self.step)
        except Exception as error:
            await answer_error(interaction, error)


class ReplaySelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"rpls:(?P<table>\d{1,18}):(?P<owner>\d{1,20}):jump",
):
    """A replay viewer's jump to a round or turn; each option's value is the step it starts at."""

    def __init__(
        self,
        table_id: int,
        owner: int,
        *,
        placeholder: str = "",
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
    ) -> None:
        """Build the select of ``owner``'s viewer of ``table_id``."""
        select = discord.ui.Select[Any](
            custom_id=f"rpls:{table_id}:{owner}:jump",
            placeholder=placeholder[:150] or None,
            options=options or [discord.SelectOption(label="-", value="-")],
            min_values=1,
            max_values=1,
        )
        super().__init__(select, row=row)
        self.table_id = table_id
        self.owner = owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplaySelect:
        """Rebuild the select from its custom id; its chosen value arrives with the interaction."""
        select = cls(int(match["table"]), int(match["owner"]))
        if isinstance(item, discord.ui.Select):
            select.item = item
        return select

    async def callback(self, interaction: discord.Interaction) -> None:
        """Move the viewer to the chosen step."""
        try:
            _check_rate(interaction)
            values = self.item.values
            if len(values) != 1:
                raise CodecError(f"one value expected, got {len(values)}")  # a damaged or forged select
            await _bot(interaction).replays.replay_jump(interaction, self.table_id, self.owner, values[0])
        except Exception as error:
            await answer_error(interaction, error)


def _none_of(*items: type[discord.ui.DynamicItem[Any]]) -> str:
    """Return a pattern that fully matches any custom id none of ``items``' templates fully matches."""
    patterns = (re.sub(r"\(\?P<\w+>", "(?:", item.__discord_ui_compiled_template__.pattern) for item in items)
    known = "|".join(f"(?:{pattern})" for pattern in patterns)  # group names may repeat only once
    return rf"(?!(?:{known})\Z)(?s:.+)"


#: Every component the bot makes; :class:`UnknownComponent` claims every other custom id.
KNOWN_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    LobbySelect,
    TableButton,
    GameRulesButton,
    ActButton,
    ActSelect,
    FormButton,
    MoreTimeButton,
    PassButton,
    LogButton,
    ReplayButton,
    ReplaySelect,
)


class UnknownComponent(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=_none_of(*KNOWN_ITEMS),
):
    """Any other custom id on the bot's messages (damaged, or left by an older version of the bot).

    discord.py ignores a click no component claims, and Discord then shows the user "This
    interaction failed"; this one answers it privately instead, as a component that no longer works.
    discord.py offers a click to every matching template, so this template excludes the others.
    """

    def __init__(self, custom_id: str) -> None:
        """Stand for the component ``custom_id``."""
        super().__init__(discord.ui.Button(label="-", custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> UnknownComponent:
        """Rebuild the component from its custom id."""
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer privately that this component does not work."""
        error: Exception = CodecError(self.custom_id)
        try:
            _check_rate(interaction)
        except TooFastError as too_fast:
            error = too_fast
        await answer_error(interaction, error)


DYNAMIC_ITEMS = (*KNOWN_ITEMS, UnknownComponent)

__all__ = [
    "DYNAMIC_ITEMS",
    "MAX_CUSTOM_ID",
    "ActButton",
    "ActSelect",
    "FormButton",
    "GameRulesButton",
    "LobbyButton",
    "LobbySelect",
    "LogButton",
    "MoreTimeButton",
    "PassButton",
    "ReplayButton",
    "ReplaySelect",
    "TableButton",
    "UnknownComponent",
    "decode_action",
    "encode_action",
]
