"""How «Масти Власти» is shown: card labels, status line, the private panel, log lines and the result.

Every playing decision of this game depends on the deciding seat's hand: which cards follow the
led persona, whether a bribe is worth it, which card to seed into the 6-player trump deck or leave
in the centre. So the public board offers no choices at all (:meth:`MastiPresenter.public_choices`
is always empty and :meth:`MastiPresenter.decided_on_board` always ``False``); each awaited seat
decides in its private panel, built from its own view and legal actions only.

A card is shown as ``"Пьетра 7 · Художники ×2"``: persona, value, then its guild (``×2`` for a
double card) or what the neutral card does. The hand in the private panel is grouped by persona,
and the playable cards are offered as one select per persona.

Log lines follow :mod:`bot.i18n.narrate` (key ``masti.event.<kind>``, variants ``<kind>__<field>``)
with two additions, because Masti events carry card ids and counts rather than enums:

* card ids (fields ``card``, ``trump``, ``cards``) become card labels, and ``lead`` is a seat;
* a non-seat ``int`` field counts as *set* for variants when it is not 0, so
  ``RoundWon(gems=2)`` reads ``masti.event.round_won__gems`` and ``RoundWon(gems=0)`` the plain line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum
from functools import cache
from itertools import combinations
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from bot.i18n import has_key, translate
from bot.i18n.narrate import SEAT_FIELDS, VARIANT_SEPARATOR
from bot.presenters import Choice
from bot.render.masti import render_masti_board, render_masti_compact, render_masti_hand
from games.core.models import Event
from games.masti.deck import PERSONA_ORDER, card_info, sort_key
from games.masti.models import (
    CardKind,
    GameScored,
    Guild,
    JokerPlacement,
    JokersPlaced,
    LeaveCard,
    MastiView,
    Mode,
    PayBribe,
    Persona,
    Phase,
    PileScore,
    PlayCard,
    ScoreBreakdown,
    SeedTrump,
)

#: One picture language (issue 13): each emoji names the figure the board draws for the same thing
#: (the crown of the Aristocrats' crest, the scales of the Merchants', the star of a Power card, the
#: "?" of a Joker), so a card reads the same in the image, the panel and the buttons.
GUILD_EMOJI: dict[Guild, str] = {
    Guild.ARISTOCRATS: "\N{CROWN}",
    Guild.ARTISTS: "\N{ARTIST PALETTE}",
    Guild.MERCHANTS: "\N{SCALES}",
    Guild.CRAFTSMEN: "\N{HAMMER}",
    Guild.KNIGHTS: "\N{SHIELD}",
    Guild.ASSASSINS: "\N{DAGGER KNIFE}",
}
NEUTRAL_EMOJI: dict[CardKind, str] = {
    CardKind.JOKER: "\N{BLACK QUESTION MARK ORNAMENT}",
    CardKind.PENALTY: "\N{HEAVY MINUS SIGN}",
    CardKind.BONUS: "\N{HEAVY PLUS SIGN}",
    CardKind.POWER: "\N{WHITE MEDIUM STAR}",
}
GEM_EMOJI = "\N{GEM STONE}"
#: The select of each persona's playable cards (group names must match ``[a-z_]{1,20}``).
#: Every playable card in one select (at most ten in a hand): one step, never a select per persona.
PLAY_GROUP = "any"
SEED_GROUP = "seed"
LEAVE_GROUP = "leave"
RULE_SECTIONS = (
    "goal",
    "setup",
    "round",
    "trick",
    "end",
    "scoring",
    "jokers",
    "teams",
    "six",
    "deck",
    "table",
)
#: Event fields holding seats: the shared set plus ``lead`` (``RoundStarted``).
EVENT_SEAT_FIELDS: frozenset[str] = SEAT_FIELDS | {"lead"}
#: Event fields holding one card id, and a tuple of them.
CARD_FIELDS = frozenset({"card", "trump"})
CARDS_FIELDS = frozenset({"cards"})
MINUS = "\N{MINUS SIGN}"
_BASE_FIELDS = frozenset(Event.model_fields)
_CAMEL_BOUNDARY = re.compile(r"(?<!^)(?=[A-Z])")


def _view(view: BaseModel) -> MastiView:
    if not isinstance(view, MastiView):
        raise TypeError(f"expected MastiView, got {type(view).__name__}")
    return view


def signed(n: int) -> str:
    """Return ``n`` with its sign and a true minus: ``+6``, ``−3``, ``0``."""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"{MINUS}{-n}"
    return "0"


# ---------------------------------------------------------------------- names and labels
def persona_name(persona: Persona, locale: str) -> str:
    """Return the localized persona name (Альдо, Пьетра, Энцо, Уго)."""
    return translate(locale, f"masti.persona.{persona.value}")


def guild_name(guild: Guild, locale: str) -> str:
    """Return the localized short guild name (Художники)."""
    return translate(locale, f"masti.guild.{guild.value}")


def card_emoji(card: str) -> str:
    """Return the emoji of ``card``: its guild's, or its neutral kind's."""
    info = card_info(card)
    return GUILD_EMOJI[info.guild] if info.guild is not None else NEUTRAL_EMOJI[info.kind]


def card_face(card: str, locale: str) -> str:
    """Return what ``card`` counts as at the end: ``"Художники ×2"``, ``"Джокер"``, ``"Штраф −2"``."""
    info = card_info(card)
    if info.guild is not None:
        key = "masti.face.guild_double" if info.symbols == 2 else "masti.face.guild"
        return translate(locale, key, guild=guild_name(info.guild, locale))
    return translate(locale, f"masti.face.{info.kind.value}")


def card_label(card: str, locale: str) -> str:
    """Return the full label of ``card``: ``"Пьетра 7 · Художники ×2"``."""
    info = card_info(card)
    return translate(
        locale,
        "masti.label.card",
        persona=persona_name(info.persona, locale),
        value=info.value,
        face=card_face(card, locale),
    )


def card_short(card: str, locale: str) -> str:
    """Return ``card`` without its persona (in the hand, under the persona's name): ``"7 Художники ×2"``."""
    return translate(locale, "masti.label.short", value=card_info(card).value, face=card_face(card, locale))


def cards_text(cards: Sequence[str], locale: str) -> str:
    """Return the labels of ``cards`` joined by commas (``—`` for none)."""
    return ", ".join(card_label(card, locale) for card in cards) or "—"


def seat_name(seat: int, names: Sequence[str], locale: str) -> str:
    """Return the display name of ``seat`` (``Игрок 3`` if unknown)."""
    if 0 <= seat < len(names):
        return names[seat]
    return translate(locale, "core.seat", number=seat + 1)


def unit_names(seats: Sequence[int], names: Sequence[str], locale: str) -> str:
    """Return a scoring unit's names: one player, or both partners (``"Аня и Боря"``)."""
    if len(seats) == 2:
        first, second = (seat_name(s, names, locale) for s in seats)
        return translate(locale, "masti.team.members", first=first, second=second)
    return ", ".join(seat_name(s, names, locale) for s in seats)


# ---------------------------------------------------------------------- the presenter
class MastiPresenter:
    """The presenter of «Масти Власти»."""

    game = "masti"

    def render_board(self, view: BaseModel, names: Sequence[str], locale: str) -> bytes:
        """Return the compact board (sized to read where Discord shows it); a seat's view gets the detailed one."""
        v = _view(view)
        if v.viewer is not None:
            return render_masti_board(v, names, locale)
        return render_masti_compact(v, names, locale)

    def render_full_board(self, view: BaseModel, names: Sequence[str], locale: str) -> bytes:
        """Return the detailed board (every pile, the legend, the last round) for the **Full board** button."""
        return render_masti_board(_view(view), names, locale)

    def render_hand(self, view: BaseModel, names: Sequence[str], locale: str) -> bytes | None:
        """Return the viewer's own hand as cards (playable ones bright), or ``None`` without a hand."""
        _ = names  # the hand shows cards only
        return render_masti_hand(_view(view), locale)

    # ------------------------------------------------------------------ status
    def status(self, view: BaseModel, names: Sequence[str], locale: str) -> str:
        """Return what the table waits for, in one line."""
        v = _view(view)
        if v.phase is Phase.FINISHED:
            return self._status_over(v, names, locale)
        if v.phase is Phase.SEEDING:
            waiting = ", ".join(seat_name(s, names, locale) for s in v.awaiting) or "—"
            return translate(locale, "masti.status.seeding", waiting=waiting)
        if v.phase is Phase.LEAVE:
            name = seat_name(v.turn, names, locale) if v.turn is not None else "—"
            return translate(locale, "masti.status.leave", name=name, round=v.round)
        name = seat_name(v.turn, names, locale) if v.turn is not None else "—"
        trump = persona_name(v.trump_persona, locale) if v.trump_persona is not None else "—"
        params: dict[str, Any] = {"round": v.round, "max_rounds": v.max_rounds, "trump": trump, "name": name}
        start = v.plays[0].card if v.plays else None
        if start is None:
            return translate(locale, "masti.status.lead", **params)
        return translate(locale, "masti.status.follow", card=card_label(start, locale), **params)

    def _status_over(self, v: MastiView, names: Sequence[str], locale: str) -> str:
        winners = [unit for unit in v.result or () if unit.rank == 0]
        if not winners:
            return translate(locale, "masti.panel.todo.over")
        text = "; ".join(unit_names(unit.seats, names, locale) for unit in winners)
        teams = v.mode is Mode.TEAMS
        if len(winners) > 1:
            key = "masti.status.over_teams_shared" if teams else "masti.status.over_shared"
        else:
            key = "masti.status.over_team" if teams else "masti.status.over"
        return translate(locale, key, winners=text)

    # ------------------------------------------------------------------ private panel
    def private_summary(self, view: BaseModel, names: Sequence[str], locale: str) -> str:
        """Return the viewer's hand by persona, its gems, its piles and what it must do now."""
        v = _view(view)
        if v.viewer is None:
            return translate(locale, "ui.panel.spectator")
        me = v.players[v.viewer]
        hand = sorted(v.hand or (), key=sort_key)
        lines: list[str] = []
        if hand:
            lines.append(translate(locale, "masti.panel.hand", n=len(hand)))
            for persona in PERSONA_ORDER:
                held = [c for c in hand if card_info(c).persona is persona]
                if held:
                    cards = ", ".join(f"{card_emoji(c)} {card_short(c, locale)}" for c in held)
                    lines.append(
                        translate(locale, "masti.panel.hand_line", persona=persona_name(persona, locale), cards=cards)
                    )
        else:
            lines.append(translate(locale, "masti.panel.hand_empty"))
        lines.append(translate(locale, "masti.panel.gems", bribe=me.bribe_gems, wealth=me.wealth_gems))
        partner = self._partner(v)
        if partner is not None:
            lines.append(translate(locale, "masti.panel.team", partner=seat_name(partner, names, locale)))
        if me.piles:
            piles = ", ".join(
                f"{GUILD_EMOJI[p.guild]} "
                + translate(locale, "masti.panel.pile", guild=guild_name(p.guild, locale), symbols=p.symbols)
                for p in me.piles
            )
            lines.append(translate(locale, "masti.panel.piles", piles=piles))
        if me.neutral:
            lines.append(translate(locale, "masti.panel.neutral", cards=cards_text(me.neutral, locale)))
        if v.seeded_card is not None:
            lines.append(translate(locale, "masti.panel.seeded", card=card_label(v.seeded_card, locale)))
        lines.extend(self._todo(v, names, locale))
        return "\n".join(lines)

    def _partner(self, v: MastiView) -> int | None:
        for team in v.teams or ():
            if v.viewer in team:
                return next((s for s in team if s != v.viewer), None)
        return None

    def _todo(self, v: MastiView, names: Sequence[str], locale: str) -> list[str]:
        """Return the lines saying what the viewer must (or may) do now."""
        assert v.viewer is not None  # noqa: S101 - only seats have a to-do
        me = v.players[v.viewer]
        if v.phase is Phase.FINISHED:
            return [translate(locale, "masti.panel.todo.over")]
        lines: list[str] = []
        if me.resigned:
            key = "masti.panel.resigned_team" if me.team is not None else "masti.panel.resigned"
            lines.append(translate(locale, key))
        elif me.out:
            lines.append(translate(locale, "masti.panel.out"))
        if me.resigned or me.out:
            return lines
        awaited = v.viewer in v.awaiting
        if v.phase is Phase.SEEDING:
            if awaited:
                return [translate(locale, "masti.panel.todo.seed")]
            if me.seeded:
                return [translate(locale, "masti.panel.todo.seed_done")]
            return [translate(locale, "masti.panel.todo.seed_wait")]
        if v.phase is Phase.LEAVE:
            if awaited:
                return [translate(locale, "masti.panel.todo.leave")]
            return [translate(locale, "masti.panel.todo.wait", name=self._turn_name(v, names, locale))]
        if v.trump is not None and v.trump_persona is not None:
            lines.append(translate(locale, "masti.panel.trump", card=card_label(v.trump, locale)))
        if not awaited:
            lines.append(translate(locale, "masti.panel.todo.wait", name=self._turn_name(v, names, locale)))
            return lines
        start = v.plays[0].card if v.plays else None
        if start is None:
            lines.append(translate(locale, "masti.panel.todo.lead"))
            return lines
        led = card_info(start).persona
        follows = any(card_info(c).persona is led for c in v.hand or ())
        key = "masti.panel.todo.follow" if follows else "masti.panel.todo.follow_void"
        # The status line above names the starting card; the to-do says what it asks of this hand.
        lines.append(translate(locale, key, persona=persona_name(led, locale)))
        if v.can_bribe:
            lines.append(translate(locale, "masti.panel.todo.bribe", n=me.bribe_gems))
        else:
            lines.append(translate(locale, "masti.panel.todo.no_bribe"))
        return lines

    def _turn_name(self, v: MastiView, names: Sequence[str], locale: str) -> str:
        return seat_name(v.turn, names, locale) if v.turn is not None else "—"

    # ------------------------------------------------------------------ rules and result
    def rules(self, locale: str) -> list[tuple[str, str]]:
        """Return the rules summary sections (the deck section shows our house deck)."""
        return [
            (translate(locale, f"masti.rules.{key}.title"), translate(locale, f"masti.rules.{key}.text"))
            for key in RULE_SECTIONS
        ]

    def result_lines(self, view: BaseModel, names: Sequence[str], locale: str) -> list[str]:
        """Return the standings, best first, each unit with its itemised score.

        Per player or team: the place and total, then every guild pile (symbols, joker, points; in
        a team game also its owner and whether it counted), then power cards, bonus and penalty
        cards, wealth gems and won cards (the first tie-break), then any discarded jokers.
        """
        v = _view(view)
        lines: list[str] = []
        for unit in v.result or ():
            lines.extend(self._unit_lines(unit, v.mode is Mode.TEAMS, names, locale))
        return lines

    def _unit_lines(self, unit: ScoreBreakdown, team: bool, names: Sequence[str], locale: str) -> list[str]:
        key = "masti.result.head_resigned" if unit.resigned else "masti.result.head"
        head = translate(
            locale,
            key,
            place=unit.rank + 1,
            names=unit_names(unit.seats, names, locale),
            points=signed(unit.total) if unit.total < 0 else str(unit.total),
            total=unit.total,
        )
        lines = [f"**{head}**"]
        piles = "; ".join(self._pile_text(pile, team, names, locale) for pile in unit.piles)
        if piles:
            lines.append("• " + translate(locale, "masti.result.piles", items=piles))
        else:
            lines.append("• " + translate(locale, "masti.result.piles_none"))
        lines.append(
            "• "
            + translate(
                locale,
                "masti.result.extras",
                power=unit.power_cards,
                power_points=signed(unit.power_points),
                bonus=unit.bonus_cards,
                bonus_points=signed(unit.bonus_points),
                penalty=unit.penalty_cards,
                penalty_points=signed(unit.penalty_points),
                gems=unit.gems,
                gems_points=signed(unit.gems),
                won=unit.won_cards,
            )
        )
        if unit.discarded_jokers:
            lines.append(
                "• " + translate(locale, "masti.result.discarded", cards=cards_text(unit.discarded_jokers, locale))
            )
        return lines

    def _pile_text(self, pile: PileScore, team: bool, names: Sequence[str], locale: str) -> str:
        params: dict[str, Any] = {
            "guild": guild_name(pile.guild, locale),
            "symbols": pile.symbols,
            "points": signed(pile.points),
            "owner": seat_name(pile.owner, names, locale),
        }
        if not pile.counted:
            key = "masti.result.pile_dropped"
        else:
            key = "masti.result.pile_team" if team else "masti.result.pile"
            if pile.joker is not None:
                key += "_joker"
        return f"{GUILD_EMOJI[pile.guild]} " + translate(locale, key, **params)

    # ------------------------------------------------------------------ choices
    def public_choices(
        self, view: BaseModel, awaited_legal: Sequence[Any], names: Sequence[str], locale: str
    ) -> list[Choice]:
        """Return no public decisions: every choice in this game depends on a hidden hand."""
        v = _view(view)
        if v.viewer is not None:
            raise ValueError("public choices are built from the public view only")
        return []

    def decided_on_board(self, view: BaseModel) -> bool:
        """Return ``False``: the awaited seats always decide in their private panels."""
        _view(view)
        return False

    def private_choices(self, view: BaseModel, legal: Sequence[Any], names: Sequence[str], locale: str) -> list[Choice]:
        """Label the viewer's legal actions: every playable card in one select (or one to seed/leave), then a bribe.

        Only cards the viewer may know of are ever labelled: its own hand, or (leaving a card) the
        cards it has just taken; anything else in ``legal`` is a bug and raises.
        """
        v = _view(view)
        own = set(v.hand or ())
        taken = set(v.leave_choices)
        plays = sorted((a for a in legal if isinstance(a, PlayCard)), key=lambda a: _hand_order(a.card))
        seeds = sorted((a for a in legal if isinstance(a, SeedTrump)), key=lambda a: sort_key(a.card))
        leaves = sorted((a for a in legal if isinstance(a, LeaveCard)), key=lambda a: sort_key(a.card))
        bribes = [a for a in legal if isinstance(a, PayBribe)]
        if len(plays) + len(seeds) + len(leaves) + len(bribes) != len(legal):
            raise TypeError(f"unknown Masti action among {legal!r}")
        if any(a.card not in own for a in plays) or any(a.card not in own for a in seeds):
            raise ValueError("a card outside the viewer's hand was offered")
        for leave in leaves:
            if leave.card not in taken:
                raise ValueError("a card the viewer did not just take was offered")
        choices: list[Choice] = []
        choices.extend(self._card_choice(play, play.card, PLAY_GROUP, locale) for play in plays)
        choices.extend(self._card_choice(seed, seed.card, SEED_GROUP, locale) for seed in seeds)
        choices.extend(self._card_choice(leave, leave.card, LEAVE_GROUP, locale) for leave in leaves)
        gems = v.players[v.viewer].bribe_gems if v.viewer is not None else 0
        choices.extend(
            Choice(bribe, translate(locale, "masti.button.bribe", n=gems), style="secondary", emoji=GEM_EMOJI)
            for bribe in bribes
        )
        return choices

    def _card_choice(self, action: Any, card: str, group: str, locale: str) -> Choice:
        return Choice(action, card_label(card, locale), group=group, style="primary", emoji=card_emoji(card))

    # ------------------------------------------------------------------ log lines
    def narrate(self, event: BaseModel, names: Sequence[str], locale: str) -> str | None:
        """Return the log line of ``event`` (``None``: no line), card ids shown as card labels."""
        key = _event_key(event, locale)
        if key is None:
            return None
        if isinstance(event, JokersPlaced) and not event.placements:
            return None  # nobody won a joker: nothing to say
        params = {name: _param(name, getattr(event, name), names, locale) for name in _fields(type(event))}
        if isinstance(event, GameScored):
            best = min(event.ranks, default=0)
            params["winners"] = ", ".join(
                seat_name(seat, names, locale) for seat, rank in enumerate(event.ranks) if rank == best
            )
        return translate(locale, key, **params) or None


def _hand_order(card: str) -> tuple[int, int]:
    """Return where ``card`` stands in the one select of playable cards: by persona, then by value.

    All personas share one select, so a persona's cards stay together, as in the hand's lines.
    """
    info = card_info(card)
    return PERSONA_ORDER.index(info.persona), info.value


# ---------------------------------------------------------------------- narration helpers
@cache
def _fields(model: type[BaseModel]) -> tuple[str, ...]:
    return tuple(name for name in model.model_fields if name not in _BASE_FIELDS)


def _is_set(name: str, value: object, info: FieldInfo) -> bool:
    """Return whether a field selects a variant: the shared rule, plus non-zero counts."""
    if value is None or value is False:
        return False
    if isinstance(value, bool):
        return info.is_required() or bool(value != info.default)
    if isinstance(value, int) and name not in EVENT_SEAT_FIELDS:
        return value != 0
    if info.is_required():
        return False
    return bool(value != info.default)


def _event_key(event: BaseModel, locale: str) -> str | None:
    kind = getattr(event, "kind", None)
    if not isinstance(kind, str):
        return None
    base = f"masti.event.{kind}"
    if not has_key(base, locale):
        return None
    fields = type(event).model_fields
    present = [name for name in _fields(type(event)) if _is_set(name, getattr(event, name), fields[name])]
    for size in range(len(present), 0, -1):
        for combo in combinations(present, size):
            key = VARIANT_SEPARATOR.join((base, *combo))
            if has_key(key, locale):
                return key
    return base


def _param(name: str, value: object, names: Sequence[str], locale: str) -> object:
    if name in EVENT_SEAT_FIELDS:
        if isinstance(value, int) and not isinstance(value, bool):
            return seat_name(value, names, locale)
        if isinstance(value, tuple):
            return ", ".join(seat_name(s, names, locale) for s in value if isinstance(s, int)) or "—"
    if name == "teams" and isinstance(value, tuple):
        return "; ".join(unit_names(team, names, locale) for team in value)
    if name in CARD_FIELDS:
        return card_label(value, locale) if isinstance(value, str) else ""
    if name in CARDS_FIELDS and isinstance(value, tuple):
        return cards_text([c for c in value if isinstance(c, str)], locale)
    if name == "placements" and isinstance(value, tuple):
        return "; ".join(_placement(p, names, locale) for p in value if isinstance(p, JokerPlacement)) or "—"
    if isinstance(value, StrEnum):
        return translate(locale, f"masti.{_enum_domain(type(value))}.{value.value}")
    if isinstance(value, tuple):
        return ", ".join(str(item) for item in value) or "—"
    return value


def _placement(placement: JokerPlacement, names: Sequence[str], locale: str) -> str:
    owner = seat_name(placement.owner, names, locale)
    card = card_label(placement.card, locale)
    if placement.guild is None:
        return translate(locale, "masti.joker.discarded", card=card, owner=owner)
    return translate(locale, "masti.joker.placed", card=card, owner=owner, guild=guild_name(placement.guild, locale))


@cache
def _enum_domain(enum: type[StrEnum]) -> str:
    """Return the catalogue section of an enum, as bot.i18n.narrate names it (``CardKind`` -> ``card``)."""
    return _CAMEL_BOUNDARY.sub("_", enum.__name__).lower().removesuffix("_kind")
