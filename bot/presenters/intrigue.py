"""How «Интриги» is shown: labels, status line, public decisions, the private panel, log lines, rules, result.

Multi-parameter decisions are sequences of small picks (``PickCard``, ``PickCharacter``, ``PickLand``…)
whose meaning comes from the step: the viewer's own :class:`~games.intrigue.models.DraftView`
(``view.draft.step``, private) when it has one, else the public ``view.pending.step``. A label names
what the pick means at that step ("Откуда: Долина Стрел", "Ставка: 2 жетона"); the panel's "what now"
line comes from ``intrigue.todo.<decision>_<step>`` (falling back to the decision's own line).

**Public decisions.** Only decisions whose legal actions follow from public facts alone and that
never carry a free action (F1–F3 reveal one's own hidden cards) are offered on the board:
placement (D1), the thief's take (D5), a recruit (D6), the Golden Coast offer (D7), Sapphire Lakes
(D14), an appointment or tie choice (D16), the guarded-assassin penalty (D17) and the Vale of Arrows
tax (D19). Everything sealed (growth, bids, ballots, sway, guards, consent), every slot, window,
investment and lending step (card types, modes, hires) is taken in the deciding seat's private panel.

**Layout.** Buttons: Done, Back, Pass, Skip, sides, modes, hires and named answers. Selects, one per
group of at most 25: the thing being picked (``land``, ``character``, ``card``, ``amount``…), and
``free`` for F1–F3. Groups longer than 25 continue in ``<group>_2``; if the panel would need more
than its four rows, the smallest selects are merged (``more``), so no choice is ever dropped.

**Log lines** follow :mod:`bot.i18n.narrate`'s key and variant rules (``intrigue.event.<kind>``,
``…__<field>``) with this game's own parameters: seats, characters, lands, cards and vote values
become names, and tuples (holders, ballots, bids, sway commitments, ranks) become readable lists.
Public copies of events carry no hidden field, so their lines never name a card's type or mode.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from enum import StrEnum
from functools import cache
from typing import Any

from pydantic import BaseModel

from bot.codec import encode_action
from bot.i18n import has_key, translate
from bot.i18n.narrate import event_key
from bot.presenters import Choice, Explore, Form, FormField
from bot.presenters.chains import Chain, Link, expand, runs
from bot.render.intrigue import (
    card_number,
    character_name,
    land_name,
    render_intrigue_board,
    render_intrigue_compact,
    render_intrigue_hand,
)
from games.core.models import Event
from games.intrigue.data import CHARACTERS, DISCOUNTED_MERCENARY_COST, LANDS, CouncilSeat, Trait, has_trait
from games.intrigue.models import (
    Back,
    BallotsRevealed,
    BasketSubmitted,
    BribeDelivered,
    CardDiscarded,
    CardRevealed,
    CardsHired,
    CharacterView,
    CharStatus,
    Choose,
    CoinsPaid,
    ContestHead,
    ContestResolved,
    Convert,
    Decision,
    Done,
    DraftItem,
    DraftView,
    ElectionResolved,
    GameEnded,
    GameStarted,
    GiftDelivered,
    GiveCoins,
    HandExpired,
    IntrigueView,
    LandHolders,
    MercType,
    Mode,
    Option,
    Pass,
    Phase,
    PickAction,
    PickAmount,
    PickCard,
    PickCharacter,
    PickLand,
    PickMode,
    PickSeat,
    PickSide,
    PickType,
    PlaceToken,
    Reason,
    RevealAssassin,
    RevealMessenger,
    RiverAnswered,
    Side,
    Skip,
    SwayRevealed,
    TokensPlaced,
    VoteKind,
    VoteResolved,
    VoteView,
)

#: Decisions whose legal actions depend on public facts only and that offer no free action (F1–F3).
PUBLIC_DECISIONS: frozenset[Decision] = frozenset(
    {
        Decision.PLACEMENT,
        Decision.THIEF_TAKE,
        Decision.RECRUIT,
        Decision.RARE_GIFT,
        Decision.SAPPHIRE,
        Decision.APPOINT,
        Decision.ASSASSIN_PENALTY,
        Decision.VALE_TAX,
    }
)
RULE_SECTIONS = (
    "house",
    "goal",
    "setup",
    "turn",
    "control",
    "lands",
    "characters",
    "traits",
    "council",
    "mercenaries",
    "votes",
    "free",
    "revision",
)
#: Sections whose text is followed by one generated line per land, character or trait.
TABLE_SECTIONS = frozenset({"lands", "characters", "traits"})
#: Rows a panel or board may fill with choices (one more row holds the table buttons).
ROWS = 4
PER_ROW = 5
MAX_OPTIONS = 25
#: A modal holds at most five fields.
MAX_FORM_FIELDS = 5
DONE_ACTION = Done()
#: Free actions: applied at once when taken, so never a step of a chained option.
FREE_ACTIONS = RevealMessenger | RevealAssassin | Convert | GiveCoins
#: The select holding chained options that start with a button's action (a ballot's sides).
CHAIN_GROUP = "any"
#: The basket's multi-select: every purchase and Pay, several ticked at once.
BASKET_GROUP = "basket"
CHAIN_LABEL_SEP = " → "
SKIP_ACTION = Skip()
#: Every select group the presenter uses (``intrigue.select.<group>`` must exist for each).
SELECT_GROUPS = (
    "place",
    "land",
    "land_2",
    "land_3",
    "character",
    "character_2",
    "character_3",
    "contest",
    "card",
    "card_2",
    "card_3",
    "amount",
    "amount_2",
    "amount_3",
    "seat",
    "free",
    "free_2",
    "free_3",
    "action",
    "hire",
    "more",
    "more_2",
    "any",
    "basket",
)
MERC_EMOJI: dict[MercType, str] = {
    MercType.ASSASSIN: "\N{DAGGER KNIFE}",
    MercType.THIEF: "\N{MONEY BAG}",
    MercType.SPY: "\N{EYE}",
    MercType.GUARD: "\N{SHIELD}",
    MercType.MESSENGER: "\N{ENVELOPE}",
}
SIDE_STYLE: dict[Side, str] = {
    Side.FOR: "success",
    Side.AGAINST: "danger",
    Side.ABSTAIN: "secondary",
    Side.NONE: "secondary",
}
#: Event fields holding a seat (or a tuple of seats), by name; ``by`` and ``winner`` depend on the event.
SEAT_FIELDS = frozenset({"seat", "to", "lender", "borrower", "caller", "owner", "leader", "rsp", "order", "seats"})
CHARACTER_FIELDS = frozenset({"character", "via", "target", "subject", "voter", "heads", "pool", "characters"})
LAND_FIELDS = frozenset({"land", "lands", "source", "dest", "invested"})
#: Params a log line may use on top of its event's own fields.
EXTRA_EVENT_PARAMS: dict[str, frozenset[str]] = {
    "game_started": frozenset({"count"}),
    "game_ended": frozenset({"ranking"}),
}
_BASE_FIELDS = frozenset(Event.model_fields)


def _offers_back(legal: Sequence[Any]) -> bool:
    """Return whether ``legal`` holds Back (a model without fields: its type says it, no comparison needed)."""
    return any(type(a) is Back for a in legal)


def _view(view: BaseModel) -> IntrigueView:
    if not isinstance(view, IntrigueView):
        raise TypeError(f"expected IntrigueView, got {type(view).__name__}")
    return view


def t(locale: str, key: str, **params: Any) -> str:
    """Translate ``intrigue.<key>``."""
    return translate(locale, f"intrigue.{key}", **params)


def seat_name(seat: int | None, names: Sequence[str], locale: str) -> str:
    """Return the display name of ``seat`` (``Игрок 3`` if unknown, ``—`` for none)."""
    if seat is None:
        return "—"
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return translate(locale, "core.seat", number=seat + 1)


def seats_text(seats: Sequence[int], names: Sequence[str], locale: str) -> str:
    """Return names joined by commas (``—`` for none)."""
    return ", ".join(seat_name(s, names, locale) for s in seats) or "—"


def merc_name(merc: MercType, locale: str) -> str:
    """Return the localized mercenary type (Убийца, Вор…)."""
    return t(locale, f"merc.{merc.value}")


def side_name(value: str, locale: str) -> str:
    """Return a vote value as words: a side (``for``…) or a candidate's name (a character id)."""
    if value.isdigit() and int(value) in CHARACTERS:
        return character_name(int(value), locale)
    key = f"intrigue.side.{value}"
    return translate(locale, key) if has_key(key, locale) else value


def council_name(seat: CouncilSeat | str, locale: str) -> str:
    """Return the localized council seat (Военачальник…)."""
    value = seat.value if isinstance(seat, CouncilSeat) else seat
    return t(locale, f"council.{value}")


def role(character: int, view: IntrigueView, locale: str) -> str:
    """Return where ``character`` sits: "Глава: Золотой Берег", "Казначей", "резерв"."""
    info = next((c for c in view.characters if c.id == character), None)
    if info is None:
        return "—"
    parts: list[str] = []
    if info.council is not None:
        parts.append(council_name(info.council, locale))
    if info.land is not None:
        parts.append(f"{translate(locale, 'render_intrigue.head')}: {land_name(info.land, locale)}")
    if info.representative:
        parts.append(t(locale, "council.representative"))
    if not parts:
        key = "render_intrigue.dead" if info.status is CharStatus.DEAD else "render_intrigue.pool"
        parts.append(translate(locale, key).lower())
    return ", ".join(parts)


def card_text(card: str, view: IntrigueView, names: Sequence[str], locale: str) -> str:
    """Return what the viewer may know of ``card``: its type for own cards, else owner and place."""
    me = view.players[view.viewer] if view.viewer is not None and view.viewer < len(view.players) else None
    for held in (me.hand or ()) if me is not None else ():
        if held.id == card:
            # Never the card's id ("M08"): a hand card is named by its type and how long it lasts.
            return t(locale, "button.card_hand", merc=merc_name(held.merc, locale), turn=held.expires_turn)
    face_down = next((c for c in view.cards if c.id == card), None)
    if face_down is None:
        return card
    where = character_name(face_down.character, locale)
    label = face_down_label(view, card)
    if face_down.owner == view.viewer and face_down.merc is not None:
        merc = merc_name(face_down.merc, locale)
        if face_down.mode is not None:
            merc = f"{merc} ({t(locale, f'mode.{face_down.mode.value}')})"
        return t(locale, "button.card_own", card=label, merc=merc, character=where)
    return t(locale, "button.card_other", card=label, owner=seat_name(face_down.owner, names, locale), character=where)


def face_down_label(view: IntrigueView, card: str) -> str:
    """Return how text names face-down ``card``: ``#n``, its number on its character (as on the board).

    A card's id is for actions only; shown, a count of public events could tie it to what was
    known of the card before (issue 11).
    """
    return f"#{card_number(view.cards, card)}"


def current_step(view: IntrigueView) -> tuple[Decision | None, str, int | None]:
    """Return (decision, step, argument) of the decision the viewer faces.

    The viewer's own draft names the sub-step (private); otherwise the public pending step. A ballot
    step such as ``vote:12`` splits into the step ``vote`` and the voter 12.
    """
    pending = view.pending
    draft = view.draft
    if pending is None:
        return None, "", None
    step = pending.step
    if draft is not None and draft.decision is pending.decision:
        step = draft.step
    name, _, arg = step.partition(":")
    return pending.decision, name, int(arg) if arg.isdigit() else None


def bribe_cost(character: int | None, extra: int) -> int:
    """Return what a bribe with ``extra`` tokens costs on delivery (§9.4; Жадный: 1 + 4k).

    >>> bribe_cost(1, 2), bribe_cost(14, 2), bribe_cost(14, 0)
    (6, 9, 1)
    """
    if character is not None and has_trait(character, Trait.INCORRUPTIBLE):
        return 0
    if character is not None and has_trait(character, Trait.GREEDY):
        return 1 + 4 * extra
    return 3 * extra


def _draft_value(items: Sequence[DraftItem], step: str) -> DraftItem | None:
    return next((item for item in reversed(items) if item.step == step), None)


# ---------------------------------------------------------------------- the presenter
class IntriguePresenter:
    """The presenter of «Интриги»."""

    game = "intrigue"
    #: Events the log leaves out: who is to act and that a secret choice was made (the result of
    #: the choice is the line worth reading).
    log_filler = frozenset({"slot_started", "submission_received"})

    def render_board(self, view: BaseModel, names: Sequence[str], locale: str) -> bytes:
        """Return the compact board (sized to read where Discord shows it); a seat's view gets the detailed one."""
        v = _view(view)
        if v.viewer is not None:
            return render_intrigue_board(v, names, locale)
        return render_intrigue_compact(v, names, locale)

    def render_full_board(self, view: BaseModel, names: Sequence[str], locale: str) -> bytes:
        """Return the detailed board (characters, tokens, mercenaries, reveals) for the **Full board** button."""
        return render_intrigue_board(_view(view), names, locale)

    def render_hand(self, view: BaseModel, names: Sequence[str], locale: str) -> bytes | None:
        """Return the viewer's own mercenaries as cards, or ``None`` when its hand is empty."""
        _ = names  # the hand shows cards only
        return render_intrigue_hand(_view(view), locale)

    # ------------------------------------------------------------------ status
    def status(self, view: BaseModel, names: Sequence[str], locale: str) -> str:
        """Return the turn, phase, decision and who is awaited, in one line."""
        v = _view(view)
        if v.result is not None or v.phase is Phase.OVER:
            return self._status_over(v, names, locale)
        phase = t(locale, f"phase.{v.phase.value}")
        key = "status.prefix" if v.turn >= 1 else "status.prefix_setup"
        prefix = t(locale, key, turn=v.turn, max_turns=v.max_turns, phase=phase)
        pending = v.pending
        waiting = seats_text(v.awaiting, names, locale)
        if pending is None:
            return f"{prefix} {t(locale, 'status.waiting', waiting=waiting)}"
        key = f"status.{pending.decision.value}"
        if pending.decision is Decision.SLOT and pending.character is not None and pending.step == "act":
            key += "_character"
        if pending.decision is Decision.APPOINT and pending.land is not None:
            key += "_land"
        return f"{prefix} {t(locale, key, **self._params(v, names, locale))}"

    def _params(self, v: IntrigueView, names: Sequence[str], locale: str) -> dict[str, Any]:
        """Return every parameter a status or to-do line may use, from public facts only."""
        pending = v.pending
        assert pending is not None  # noqa: S101 - callers check
        vote = v.vote
        kind = vote.vote if vote is not None else pending.vote
        return {
            "actor": seats_text(pending.seats, names, locale),
            "waiting": seats_text([s for s in pending.seats if s not in pending.submitted], names, locale),
            "n": pending.picks_left if pending.picks_left is not None else 0,
            "window": t(locale, f"window.{pending.window.value}") if pending.window is not None else "—",
            "character": character_name(pending.character, locale) if pending.character is not None else "—",
            "land": land_name(pending.land, locale) if pending.land is not None else "—",
            "vote": t(locale, f"vote_kind.{kind.value}") if kind is not None else "—",
            "round": vote.sway_round if vote is not None else 1,
        }

    def _status_over(self, v: IntrigueView, names: Sequence[str], locale: str) -> str:
        result = v.result
        if result is None:
            return t(locale, "phase.over")
        victory = t(locale, f"victory.{result.victory.value}")
        if result.winner is not None:
            return t(locale, "status.over", victory=victory, winner=seat_name(result.winner, names, locale))
        firsts = [s for s, rank in enumerate(result.ranks) if rank == min(result.ranks, default=0)]
        return t(locale, "status.over_ranked", victory=victory, winner=seats_text(firsts, names, locale))

    # ------------------------------------------------------------------ private panel
    def private_summary(self, view: BaseModel, names: Sequence[str], locale: str) -> str:
        """Return the viewer's coins and tokens, hand, own face-down cards, stock, draft and what to decide."""
        v = _view(view)
        if v.viewer is None:
            return translate(locale, "ui.panel.spectator")
        me = v.players[v.viewer]
        lines = [
            t(
                locale,
                "panel.coins",
                coins=me.coins,
                lands=me.land_tokens,
                characters=me.character_tokens,
                council=me.council_tokens,
            )
        ]
        by_turn: dict[int, list[str]] = {}
        for card in me.hand or ():
            by_turn.setdefault(card.expires_turn, []).append(
                t(locale, "panel.hand_card", merc=merc_name(card.merc, locale))
            )
        for turn, cards in sorted(by_turn.items()):
            lines.append(t(locale, "panel.hand", turn=turn, cards=", ".join(cards)))
        if not by_turn:
            lines.append(t(locale, "panel.hand_empty"))
        own = [c for c in v.cards if c.owner == v.viewer and c.merc is not None]
        if own:
            parts = []
            for face_down in own:
                assert face_down.merc is not None  # noqa: S101 - filtered above
                params = {
                    "card": face_down_label(v, face_down.id),
                    "merc": merc_name(face_down.merc, locale),
                    "character": character_name(face_down.character, locale),
                    "turn": face_down.turn_placed,
                }
                if face_down.mode is not None:
                    mode = t(locale, f"mode.{face_down.mode.value}")
                    parts.append(t(locale, "panel.board_card_mode", mode=mode, **params))
                else:
                    parts.append(t(locale, "panel.board_card", **params))
            lines.append(t(locale, "panel.board_cards", cards="; ".join(parts)))
        if v.in_stock is not None:
            types = ", ".join(merc_name(m, locale) for m in v.in_stock) or "—"
            lines.append(t(locale, "panel.stock", types=types))
        if v.draft is not None and v.draft.items:
            lines.append(t(locale, "panel.draft", items=self.draft_text(v.draft, v, names, locale)))
        if v.submission is not None and v.submission.items:
            lines.append(t(locale, "panel.submission", items=self.draft_text(v.submission, v, names, locale)))
        lines.append(self.todo(v, names, locale))
        if v.phase not in (Phase.SPIES, Phase.OVER) and v.result is None and not me.resigned:
            lines.append(t(locale, "panel.pay_hint"))  # F4 is a command, not a button (any moment but S&T)
        return "\n".join(lines)

    def todo(self, v: IntrigueView, names: Sequence[str], locale: str) -> str:
        """Return the line saying what the viewer must decide now (or whom the table waits for)."""
        assert v.viewer is not None  # noqa: S101 - only seats have a to-do
        me = v.players[v.viewer]
        if v.result is not None or v.phase is Phase.OVER:
            return t(locale, "panel.over")
        if me.resigned:
            return t(locale, "panel.resigned")
        pending = v.pending
        if pending is None or v.viewer not in v.awaiting:
            if v.awaiting:
                return t(locale, "panel.waiting", waiting=seats_text(v.awaiting, names, locale))
            return t(locale, "panel.nothing")
        if v.submission is not None and v.draft is None:
            return t(locale, "todo.submitted")
        decision, step, arg = current_step(v)
        assert decision is not None  # noqa: S101 - a pending decision
        params = self._params(v, names, locale)
        if arg is not None:
            params["character"] = character_name(arg, locale)
        key = f"intrigue.todo.{decision.value}_{step}"
        if not has_key(key, locale):
            key = f"intrigue.todo.{decision.value}"
        return translate(locale, key, **params)

    def draft_text(self, draft: DraftView, v: IntrigueView, names: Sequence[str], locale: str) -> str:
        """Return the picks of a draft or sealed submission as words, in order."""
        return "; ".join(self._item_text(item, v, names, locale) for item in draft.items) or "—"

    def _item_text(self, item: DraftItem, v: IntrigueView, names: Sequence[str], locale: str) -> str:
        parts: list[str] = []
        if item.action is not None:
            action = t(locale, f"char_action.{item.action.value}")
            parts.append(t(locale, "button.action_rider", action=action) if item.rider else action)
        if item.character is not None:
            parts.append(character_name(item.character, locale))
        if item.land is not None:
            parts.append(land_name(item.land, locale))
        if item.seat is not None:
            parts.append(seat_name(item.seat, names, locale))
        if item.card is not None:
            parts.append(card_text(item.card, v, names, locale))
        if item.merc is not None:
            parts.append(merc_name(item.merc, locale))
        if item.mode is not None:
            parts.append(t(locale, f"mode.{item.mode.value}"))
        if item.candidate is not None:
            parts.append(character_name(item.candidate, locale))
        if item.side is not None:
            parts.append(t(locale, f"side.{item.side.value}"))
        if item.option is not None:
            parts.append(t(locale, f"answer.{item.option.value}"))
        if item.amount is not None:
            parts.append(str(item.amount))
        if item.step == "hire" and item.merc is not None:
            return t(locale, "button.hire", merc=merc_name(item.merc, locale))
        if item.step == "invest" and item.land is not None:
            return t(locale, "button.invest", land=land_name(item.land, locale))
        return ": ".join([*parts[:1], ", ".join(parts[1:])]) if len(parts) > 1 else (parts[0] if parts else "—")

    # ------------------------------------------------------------------ rules and result
    def rules(self, locale: str) -> list[tuple[str, str]]:
        """Return the rules summary sections; the land, character and trait tables come from our house data."""
        sections: list[tuple[str, str]] = []
        for key in RULE_SECTIONS:
            title = t(locale, f"rules.{key}.title")
            text = t(locale, f"rules.{key}.text")
            if key in TABLE_SECTIONS:
                text = "\n".join([text, *self._table(key, locale)])
            sections.append((title, text))
        return sections

    def _table(self, key: str, locale: str) -> list[str]:
        if key == "lands":
            lines = []
            for land in LANDS.values():
                tags = "".join(
                    tag
                    for tag, ok in (("⚔", land.military >= land.peaceful), ("☮", land.military <= land.peaceful))
                    if ok
                )
                lines.append(
                    t(
                        locale,
                        "rules.lands.line",
                        name=land_name(land.id, locale),
                        cells=land.cells,
                        peaceful=land.peaceful,
                        military=land.military,
                        tags=tags,
                        ability=t(locale, f"ability.{land.id}"),
                    )
                )
            return lines
        if key == "characters":
            return [
                t(
                    locale,
                    "rules.characters.line",
                    name=character_name(c.id, locale),
                    traits=", ".join(t(locale, f"trait.{trait.value}") for trait in c.traits),
                    disposition=t(locale, f"disposition_short.{c.disposition.value}"),
                )
                for c in CHARACTERS.values()
            ]
        return [
            t(
                locale,
                "rules.traits.line",
                trait=t(locale, f"trait.{trait.value}"),
                help=t(locale, f"trait_help.{trait.value}"),
            )
            for trait in Trait
        ]

    def result_lines(self, view: BaseModel, names: Sequence[str], locale: str) -> list[str]:
        """Return the standings (§12.6): a winner by election, coup or will first, then by the score vector."""
        v = _view(view)
        result = v.result
        if result is None:
            return []
        victory = t(locale, f"victory.{result.victory.value}")
        lines = [t(locale, "result.ended", victory=victory)]
        order = sorted(range(len(result.ranks)), key=lambda s: (result.ranks[s], s))
        for seat in order:
            place = result.ranks[seat] + 1
            name = seat_name(seat, names, locale)
            if seat == result.winner:
                lines.append("**" + t(locale, "result.line_winner", place=place, name=name, victory=victory) + "**")
            else:
                lines.append(t(locale, "result.line", place=place, name=name))
            if seat < len(result.scores):
                council, characters, board, coins = result.scores[seat]
                lines.append(
                    "• " + t(locale, "result.score", council=council, characters=characters, board=board, coins=coins)
                )
        return lines

    # ------------------------------------------------------------------ choices
    def public_choices(
        self, view: BaseModel, awaited_legal: Sequence[Any], names: Sequence[str], locale: str
    ) -> list[Choice]:
        """Return the board's decisions: only those of :data:`PUBLIC_DECISIONS`, labelled from the public view."""
        v = _view(view)
        if v.viewer is not None:
            raise ValueError("public choices are built from the public view only")
        if not self.decided_on_board(v):
            return []
        return pack([self.label(action, v, names, locale) for action in awaited_legal])

    def decided_on_board(self, view: BaseModel) -> bool:
        """Return whether the current decision is public (see :data:`PUBLIC_DECISIONS`)."""
        v = _view(view)
        return v.pending is not None and v.pending.decision in PUBLIC_DECISIONS and v.result is None

    def private_choices(self, view: BaseModel, legal: Sequence[Any], names: Sequence[str], locale: str) -> list[Choice]:
        """Label every legal action of the viewer (its own cards by type), packed to fit the panel."""
        v = _view(view)
        return pack([self.label(action, v, names, locale) for action in legal])

    def chain_choices(
        self, view: BaseModel, legal: Sequence[Any], names: Sequence[str], locale: str, explore: Explore | None = None
    ) -> list[Choice]:
        """Return the private choices with the sub-steps of one decision chained into single options.

        A select of the panel whose choices start a private draft (a character's action, a
        mercenary send, a basket, a ballot, a sway, a spy's target) offers whole sequences instead,
        as many as fit its 25 options (:mod:`bot.presenters.chains`); chosen, the sequence is
        applied at once. Buttons that start one (a ballot's sides) become one such select. A
        group is chained only when the panel still fits its rows, so no choice is ever lost.

        An investment basket's picks are one select where several can be ticked at once, its
        last option Pay (:meth:`_basket_select`): a basket of different purchases is one pick.
        """
        v = _view(view)
        choices = self._chained(v, legal, names, locale, explore)
        decision, step, _ = current_step(v)
        if decision is Decision.INVEST and step == "basket" and v.viewer is not None:
            return self._basket_select(choices, v, locale)
        return choices

    def _basket_select(self, choices: list[Choice], v: IntrigueView, locale: str) -> list[Choice]:
        """Return the basket's choices with its picks in one multi-select (group ``basket``), Pay last.

        Every investment and hire the engine offers is an option, and so is Pay (the engine's
        Done, last in the list, so ticked picks are applied before it). Ticking one pick is one
        step, as before; ticking several, with or without Pay, takes them at once, all or nothing.
        The order of a basket's picks changes nothing (it is paid whole), so the list's order is
        as good as the order of ticking. The chained shortcuts (one pick repeated, then Pay) stay
        in a select of their own; the buttons (Pay, Back, Skip) stay as they are.
        """
        picks = [c for c in choices if isinstance(c.action, PickLand | PickType)]
        if not picks:
            return choices
        pay = Choice(DONE_ACTION, t(locale, "button.basket_pay"), emoji="\N{WHITE HEAVY CHECK MARK}")
        multi = [Choice(c.action, c.label, BASKET_GROUP, emoji=c.emoji, multi=True) for c in [*picks, pay]]
        chains = [
            Choice(c.action, c.label, CHAIN_GROUP, emoji=c.emoji) for c in choices if isinstance(c.action, Chain)
        ][:MAX_OPTIONS]
        rest = [c for c in choices if not isinstance(c.action, PickLand | PickType | Chain)]
        trial = [*multi, *(chains if len(chains) > 1 else []), *rest]
        return trial if _fits(trial) else choices

    def _chained(
        self, v: IntrigueView, legal: Sequence[Any], names: Sequence[str], locale: str, explore: Explore | None
    ) -> list[Choice]:
        """Return the private choices with chained options (see :meth:`chain_choices`)."""
        base = self.private_choices(v, legal, names, locale)
        # A placement is no draft (the engine offers no Back after it): nothing to chain, and exploring
        # its picks would cost every set-up click's panel for nothing (most clicks of a game's start).
        placing = v.pending is not None and v.pending.decision is Decision.PLACEMENT
        if explore is None or v.viewer is None or placing:
            return base
        roots = [a for a in legal if self._chains_from(a, legal)]
        if not roots:
            return base
        states: dict[tuple[Any, ...], tuple[IntrigueView, list[Any]] | None] = {}
        # After a pick that is no draft (Back not offered) the chain ends: an explorer that can list the legal
        # actions alone spares the view there.
        legal_only = getattr(explore, "legal", None)

        def after(actions: tuple[Any, ...]) -> tuple[IntrigueView, list[Any]] | None:
            key: tuple[Any, ...] = actions
            try:
                hash(key)
            except TypeError:  # an action with a list in it: its text is the key
                key = tuple(encode_action(a) for a in actions)
            if key not in states:
                if legal_only is not None:
                    listed = legal_only(actions)
                    if listed is None or not _offers_back(listed):
                        states[key] = None
                        return None
                found = explore(actions)
                states[key] = (_view(found[0]), found[1]) if found is not None else None
            return states[key]

        def continuations(actions: tuple[Any, ...]) -> tuple[list[tuple[Any, str]], bool]:
            found = after(actions)
            # The engine offers Back only while the picks are an undoable draft: nothing is applied yet.
            if found is None or not _offers_back(found[1]):
                return [], False
            then_view, then_legal = found
            steps = [
                (a, self._link_label(a, then_view, names, locale))
                for a in then_legal
                if self._chains_on(a, legal, then_view)
            ]
            dropped = any(
                not isinstance(a, Back) and not self._exit(a, legal) and not self._chains_on(a, legal, then_view)
                for a in then_legal
            )
            return steps, dropped

        root_ids = {id(a) for a in roots}
        choices = list(base)
        decision, step, _ = current_step(v)
        basket = decision is Decision.INVEST and step == "basket"
        begun = v.draft is not None and bool(v.draft.items) and not basket
        groups: dict[str | None, list[Choice]] = {}
        for choice in base:
            groups.setdefault(choice.group, []).append(choice)
        for group, members in groups.items():
            starts = [c for c in members if id(c.action) in root_ids or c.action in roots]
            if not starts or not any(continuations((c.action,))[0] for c in starts):
                continue  # no pick of the group goes on (expand and runs would keep the roots alone)
            # A group's select holds its choices and their chains; buttons' chains get a select of their own.
            # A decision already begun (its tree is small) spills its chains into the panel's spare rows
            # (``<group>_2``…); a first step keeps to one select, each chain costing the engine a replay.
            if group is not None:
                spare = min(ROWS - _rows(choices), len(_spill_names(choices, group))) if begun else 0
                selects = 1 + spare
                room = MAX_OPTIONS * selects - (len(members) - len(starts))
            else:
                room = MAX_OPTIONS + len(starts)
            links = [Link((c.action,), (self._link_label(c.action, v, names, locale),)) for c in starts]
            # A basket's different purchases are one pick of its multi-select (:meth:`_basket_select`):
            # only its runs of one purchase repeated need chains.
            grown = links if basket else expand(links, continuations, limit=room, join=CHAIN_LABEL_SEP)
            known = {link.value() for link in grown}
            # Left room: runs of one pick repeated, then paid or sent (two investments in one land).
            left = room - len(grown)
            extra = runs(links, continuations, lambda a: isinstance(a, Done), room=left, join=CHAIN_LABEL_SEP)
            extra = [link for link in extra if link.value() not in known][:left]
            chained: dict[str, list[Choice]] = {}
            for link in [*grown, *extra]:
                if len(link.actions) > 1:
                    root = encode_action(link.actions[0])
                    emoji = next(c.emoji for c in starts if encode_action(c.action) == root)
                    chain = Choice(Chain(link.actions), _join(link.labels), group or CHAIN_GROUP, emoji=emoji)
                    chained.setdefault(root, []).append(chain)
            count = sum(len(found) for found in chained.values())
            if not count or (group is None and count < 2):
                continue  # nothing chained (a select of one option would be a button: one action only)
            if group is None:
                trial = [*choices, *(c for found in chained.values() for c in found)]
            else:
                # Each chain right after the step-by-step choice it starts with, over as many selects as it needs.
                trial = _split(_after_roots(choices, chained), group)
            if _fits(trial):
                choices = trial
        return choices

    @staticmethod
    def _exit(action: Any, root_legal: Sequence[Any]) -> bool:
        """Return whether ``action`` leaves the decision as it could be left before any pick (Pass, Skip, decline)."""
        return isinstance(action, Pass | Skip) or (isinstance(action, Choose) and action in root_legal)

    def _chains_from(self, action: Any, root_legal: Sequence[Any]) -> bool:
        """Return whether a chain may start with ``action``: a pick, never a free action or an exit."""
        return not isinstance(action, FREE_ACTIONS | Back | Done) and not self._exit(action, root_legal)

    def _chains_on(self, action: Any, root_legal: Sequence[Any], v: IntrigueView) -> bool:
        """Return whether ``action`` may continue a chain: a pick, or the Done that completes a draft.

        A ballot's Done (send it unfinished) is left to the steps: an entry answered before it
        stays an option of its own.
        """
        if isinstance(action, Done):
            return current_step(v)[0] is not Decision.BALLOT
        return self._chains_from(action, root_legal)

    def _link_label(self, action: Any, v: IntrigueView, names: Sequence[str], locale: str) -> str:
        """Return one step of a chained option's label: a name for a pick of a thing, else the step's label.

        A ballot's entry names its voter ("Ален: For"): the entries of one chain are for different voters.
        """
        decision, _, voter = current_step(v)
        if decision is Decision.BALLOT and voter is not None and isinstance(action, PickSide | PickCharacter):
            answer = self._link_label_plain(action, v, names, locale)
            return f"{character_name(voter, locale)}: {answer}"
        return self._link_label_plain(action, v, names, locale)

    def _link_label_plain(self, action: Any, v: IntrigueView, names: Sequence[str], locale: str) -> str:
        """Return the label of one chained step without its voter."""
        if isinstance(action, PickCharacter):
            return character_name(action.character, locale)
        if isinstance(action, PickLand):
            return land_name(action.land, locale)
        if isinstance(action, PickSeat):
            return seat_name(action.seat, names, locale)
        return self.label(action, v, names, locale).label

    def forms(
        self, view: BaseModel, legal: Sequence[Any], names: Sequence[str], locale: str, explore: Explore | None = None
    ) -> list[Form]:
        """Return the viewer's decisions that one form takes whole: a basket or a ballot not yet begun.

        Their parts are known up front, so the form has a field per part; the panel keeps the
        step-by-step picks too, and a decision already begun goes on that way. The other
        multi-part decisions stay step by step: a mercenary send's and a removal's later parts
        depend on the earlier picks (which card decides the targets, the target the price).
        """
        v = _view(view)
        decision, step, _ = current_step(v)
        if v.viewer is None or (v.draft is not None and v.draft.items):
            return []
        if decision is Decision.BALLOT:
            return self._ballot_form(v, legal, names, locale)
        if decision is not Decision.INVEST or step != "basket":
            return []
        return self._basket_form(v, legal, names, locale)

    def _basket_form(self, v: IntrigueView, legal: Sequence[Any], names: Sequence[str], locale: str) -> list[Form]:
        """Return the basket's form: a field per purchase, up to what the coins could buy (five at most).

        Every field offers every land to invest in and every type in stock; the picks are made in
        field order, then Pay. An empty form buys nothing (Skip). A basket over the purse is
        refused whole by the engine at the part it can no longer afford.
        """
        assert v.viewer is not None  # noqa: S101 - checked by the caller
        parts = [self.label(a, v, names, locale) for a in legal if isinstance(a, PickLand | PickType)]
        if not parts or SKIP_ACTION not in legal:
            return []
        coins = v.players[v.viewer].coins
        slots = max(1, min(MAX_FORM_FIELDS, coins // DISCOUNTED_MERCENARY_COST))
        fields = tuple(
            FormField(
                label=translate(locale, "form.intrigue.basket_slot", n=index + 1)[:45],
                choices=tuple(parts[:MAX_OPTIONS]),
            )
            for index in range(slots)
        )
        return [
            Form(
                kind="basket",
                title=translate(locale, "form.intrigue.basket_title"),
                button=translate(locale, "form.intrigue.basket_button"),
                fields=fields,
                then=(DONE_ACTION,),
                empty=(SKIP_ACTION,),
            )
        ]

    def _ballot_form(self, v: IntrigueView, legal: Sequence[Any], names: Sequence[str], locale: str) -> list[Form]:
        """Return the sealed ballot's form: a field per entry, in the engine's order (§11, D13).

        The entries follow the engine's rule from the public view: a vote for each voter the viewer
        controls, in the vote's order of voters, then (a vote to remove a head only) a preference
        for each neutral voter the viewer shares the top count on. Every field must be answered:
        the engine sends the ballot itself once its last entry is in. When the first entry is not
        the one the engine asks for (control changed since the voters were fixed), or there are
        more than five entries, there is no form and the ballot is filled step by step.
        """
        vote = v.vote
        if vote is None or v.viewer is None or v.draft is None:
            return []
        by_id = {c.id: c for c in v.characters}
        entries: list[tuple[str, int]] = [
            ("vote", voter.character)
            for voter in vote.voters
            if (info := by_id.get(voter.character)) is not None and info.controller == v.viewer
        ]
        if vote.vote is VoteKind.REMOVE_HEAD:
            entries += [
                ("pref", voter.character)
                for voter in vote.voters
                if (info := by_id.get(voter.character)) is not None
                and info.controller is None
                and v.viewer in info.tied_top
            ]
        if not entries or len(entries) > MAX_FORM_FIELDS or v.draft.step != f"{entries[0][0]}:{entries[0][1]}":
            return []
        fields: list[FormField] = []
        for entry, voter in entries:
            options = self._ballot_options(entry, vote)
            if not fields and set(options) != {a for a in legal if isinstance(a, PickSide | PickCharacter)}:
                return []  # the engine offers other answers than this reading of the rules: no form
            label = translate(locale, f"form.intrigue.ballot_{entry}", character=character_name(voter, locale))
            choices = tuple(self._ballot_choice(a, entry, v, locale) for a in options)
            fields.append(FormField(label=label[:45], choices=choices, min_values=1, max_values=1))
        title = translate(locale, "form.intrigue.ballot_title", vote=t(locale, f"vote_kind.{vote.vote.value}"))
        button = translate(locale, "form.intrigue.ballot_button")
        return [Form(kind="ballot", title=title[:45], button=button, fields=tuple(fields))]

    @staticmethod
    def _ballot_options(entry: str, vote: VoteView) -> list[Any]:
        """Return the answers of one ballot entry, as the engine offers them (§11)."""
        if entry == "pref":
            return [PickSide(side=Side.FOR), PickSide(side=Side.AGAINST), PickSide(side=Side.NONE)]
        if vote.vote is VoteKind.APPOINT:
            return [*(PickCharacter(character=c) for c in vote.candidates), PickSide(side=Side.ABSTAIN)]
        return [PickSide(side=Side.FOR), PickSide(side=Side.AGAINST), PickSide(side=Side.ABSTAIN)]

    def _ballot_choice(self, action: Any, entry: str, v: IntrigueView, locale: str) -> Choice:
        """Return one answer of a ballot entry labelled as its step-by-step button says it."""
        if isinstance(action, PickCharacter):
            name = character_name(action.character, locale)
            return Choice(action, t(locale, "button.candidate", character=name, role=role(action.character, v, locale)))
        side = t(locale, f"side.{action.side.value}")
        return Choice(action, t(locale, "button.pref" if entry == "pref" else "button.side", side=side))

    def label(self, action: Any, v: IntrigueView, names: Sequence[str], locale: str) -> Choice:
        """Return the labelled choice of one action at the viewer's current step."""
        decision, step, _ = current_step(v)
        dvalue = decision.value if decision is not None else ""
        if isinstance(action, Done):
            return Choice(
                action, self._variant(locale, "done", dvalue), style="success", emoji="\N{WHITE HEAVY CHECK MARK}"
            )
        if isinstance(action, Back):
            return Choice(action, t(locale, "button.back"), emoji="\N{LEFTWARDS BLACK ARROW}")
        if isinstance(action, Pass):
            return Choice(action, t(locale, "button.pass"), style="danger")
        if isinstance(action, Skip):
            return Choice(action, self._variant(locale, "skip", dvalue))
        if isinstance(action, PlaceToken):
            land = land_name(action.land, locale)
            if action.head:
                head = self._head(v, action.land)
                text = t(
                    locale, "button.place_head", land=land, character=character_name(head, locale) if head else "—"
                )
            else:
                text = t(locale, "button.place_land", land=land)
            return Choice(action, text, group="place")
        if isinstance(action, RevealMessenger | RevealAssassin | Convert):
            return self._free(action, v, locale)
        if isinstance(action, GiveCoins):
            return Choice(
                action, t(locale, "button.give", amount=action.amount, name=seat_name(action.to, names, locale))
            )
        if isinstance(action, PickType):
            return Choice(
                action,
                t(locale, "button.hire", merc=merc_name(action.merc, locale)),
                group="hire",
                emoji=MERC_EMOJI[action.merc],
            )
        if isinstance(action, PickLand):
            key = {"basket": "invest", "growth": "grow", "from": "from", "to": "to", "land": "bless"}.get(step, "land")
            return Choice(action, t(locale, f"button.{key}", land=land_name(action.land, locale)), group="land")
        if isinstance(action, PickSeat):
            key = {"seat": "grant", "borrower": "borrower"}.get(step, "seat")
            return Choice(action, t(locale, f"button.{key}", name=seat_name(action.seat, names, locale)), group="seat")
        if isinstance(action, PickCharacter):
            return self._character(action, v, decision, step, locale)
        if isinstance(action, ContestHead):
            info = self._info(v, action.character)
            land = land_name(info.land, locale) if info is not None and info.land is not None else "—"
            text = t(locale, "button.contest", character=character_name(action.character, locale), land=land)
            return Choice(action, text, group="contest", emoji="\N{CROSSED SWORDS}")
        if isinstance(action, PickCard):
            return Choice(action, card_text(action.card, v, names, locale), group="card")
        if isinstance(action, PickAmount):
            return Choice(action, self._amount(action.amount, v, decision, step, locale), group="amount")
        if isinstance(action, PickMode):
            return Choice(action, t(locale, f"mode.{action.mode.value}").capitalize(), style="primary")
        if isinstance(action, PickSide):
            side = t(locale, f"side.{action.side.value}")
            key = {"pref": "pref"}.get(step, "dictate" if decision is Decision.SAPPHIRE else "side")
            return Choice(action, t(locale, f"button.{key}", side=side), style=SIDE_STYLE[action.side])
        if isinstance(action, PickAction):
            name = t(locale, f"char_action.{action.action.value}")
            text = (
                t(locale, "button.action_rider", action=name)
                if action.rider
                else t(locale, "button.action", action=name)
            )
            return Choice(action, text, group="action")
        if isinstance(action, Choose):
            style = (
                "success"
                if action.option in (Option.ACCEPT, Option.CONSENT, Option.PAY, Option.RECRUIT)
                else "secondary"
            )
            return Choice(action, t(locale, f"answer.{action.option.value}"), style=style)
        raise TypeError(f"unknown Intrigue action {action!r}")

    def _variant(self, locale: str, button: str, decision: str) -> str:
        key = f"intrigue.button.{button}_{decision}"
        return translate(locale, key) if has_key(key, locale) else t(locale, f"button.{button}")

    def _info(self, v: IntrigueView, character: int) -> CharacterView | None:
        return next((c for c in v.characters if c.id == character), None)

    def _head(self, v: IntrigueView, land: int) -> int | None:
        return next((item.head for item in v.lands if item.id == land), None)

    def _free(self, action: RevealMessenger | RevealAssassin | Convert, v: IntrigueView, locale: str) -> Choice:
        if isinstance(action, Convert):
            head = self._head(v, action.land)
            text = t(
                locale,
                "button.convert",
                land=land_name(action.land, locale),
                character=character_name(head, locale) if head is not None else "—",
            )
            return Choice(action, text, group="free")
        card = next((c for c in v.cards if c.id == action.card), None)
        where = character_name(card.character, locale) if card is not None else "—"
        label = face_down_label(v, action.card)
        if isinstance(action, RevealAssassin):
            return Choice(action, t(locale, "button.reveal_assassin", card=label, character=where), group="free")
        if card is not None and card.mode is Mode.BRIBE:
            cost = bribe_cost(card.character, action.extra)
            text = t(locale, "button.reveal_bribe", card=label, character=where, extra=action.extra, cost=cost)
            return Choice(action, text, group="free")
        mode = t(locale, f"mode.{card.mode.value}") if card is not None and card.mode is not None else "?"
        return Choice(
            action, t(locale, "button.reveal_messenger", card=label, mode=mode, character=where), group="free"
        )

    def _character(
        self, action: PickCharacter, v: IntrigueView, decision: Decision | None, step: str, locale: str
    ) -> Choice:
        name = character_name(action.character, locale)
        where = role(action.character, v, locale)
        if decision is Decision.SLOT and step == "main":
            key = "act_via"
        elif step in ("subject", "target"):
            key = step
        elif decision is Decision.APPOINT and step == "appoint":
            key = "appoint"
        elif decision in (Decision.SAPPHIRE, Decision.SWAY) and step == "voter":
            key = "voter"
        elif decision is Decision.SWAY and step == "head":
            key = "head"
        elif decision is Decision.ASSASSIN_PENALTY:
            key = "penalty"
        elif decision is Decision.BALLOT:
            key = "candidate"
        else:
            key = "character"
        return Choice(action, t(locale, f"button.{key}", character=name, role=where), group="character")

    def _amount(self, amount: int, v: IntrigueView, decision: Decision | None, step: str, locale: str) -> str:
        if decision is Decision.VALE_TAX:
            return t(locale, "button.tax", n=amount)
        if step == "price":
            return t(locale, "button.price", n=amount)
        if step == "extra":
            target = _draft_value(v.draft.items if v.draft is not None else (), "target")
            return t(locale, "button.extra", n=amount, cost=bribe_cost(target.character if target else None, amount))
        if step == "bid" or decision in (Decision.CONTEST_BID, Decision.RIVER_CONSENT):
            return t(locale, "button.bid", n=amount)
        if decision is Decision.SWAY:
            return t(locale, "button.stake", n=amount)
        return t(locale, "button.amount", n=amount)

    # ------------------------------------------------------------------ log lines
    def log_lines(self, events: Sequence[Event], names: Sequence[str], locale: str) -> list[str]:
        """Return the lines of one step's public ``events``, a delivered bribe or gift as one line.

        A messenger's delivery is announced as the reveal, the coins paid, the tokens placed, the
        delivery and the discard; the delivery line says all of it, so the other four are left out.
        """
        skip: set[int] = set()
        for delivery in events:
            if not isinstance(delivery, BribeDelivered | GiftDelivered):
                continue
            reason = Reason.BRIBE if isinstance(delivery, BribeDelivered) else Reason.GIFT
            for index, event in enumerate(events):
                if (
                    (isinstance(event, CoinsPaid) and event.reason is reason and event.seat == delivery.seat)
                    or (
                        isinstance(event, TokensPlaced)
                        and event.reason is reason
                        and event.seat == delivery.seat
                        and event.character == delivery.character
                    )
                    or (
                        isinstance(event, CardRevealed | CardDiscarded)
                        and event.owner == delivery.seat
                        and event.character == delivery.character
                        and event.merc is MercType.MESSENGER
                    )
                ):
                    skip.add(index)
        lines = (self.narrate(event, names, locale) for index, event in enumerate(events) if index not in skip)
        return [line for line in lines if line]

    def narrate(self, event: BaseModel, names: Sequence[str], locale: str) -> str | None:
        """Return the log line of ``event`` (``None``: no line), ids shown as names."""
        key = event_key("intrigue", event, locale)
        if key is None:
            return None
        params = {name: self._param(event, name, getattr(event, name), names, locale) for name in _fields(type(event))}
        if isinstance(event, GameStarted):
            params["count"] = len(event.lands)
        if isinstance(event, GameEnded):
            params["ranking"] = _ranking(event.ranks, names, locale)
        return translate(locale, key, **params) or None

    def _param(self, event: BaseModel, name: str, value: object, names: Sequence[str], locale: str) -> object:
        if isinstance(event, LandHolders) and name == "holders":
            return _holders(event, names, locale)
        if isinstance(event, BallotsRevealed) and name in ("votes", "preferences"):
            return _ballots(value, names, locale)
        if isinstance(event, SwayRevealed) and name == "commitments":
            return _commitments(event, names, locale)
        if isinstance(event, ContestResolved | RiverAnswered) and name == "bids":
            return _bids(value, names, locale)
        if isinstance(event, VoteResolved) and name == "tally":
            return "; ".join(f"{character_name(c, locale)} {n}" for c, n in event.tally) or "—"
        if isinstance(event, VoteResolved) and name == "winner":
            return character_name(value, locale) if isinstance(value, int) else "—"
        if isinstance(event, CardsHired | HandExpired) and name == "cards":
            return _cards_with_types(event.cards or (), event.types or (), locale)
        if isinstance(event, BasketSubmitted) and name == "invested":
            if not event.invested:
                return t(locale, "panel.invested_none")
            return t(locale, "panel.invested", lands=_land_counts(event.invested, locale))
        if isinstance(event, ElectionResolved) and name == "seats":
            return value
        if name in ("by", "winner") and isinstance(value, int):
            return seat_name(value, names, locale)
        if name in ("vote",) and isinstance(value, str) and not isinstance(value, StrEnum):
            return side_name(value, locale)
        if name in SEAT_FIELDS:
            if isinstance(value, int) and not isinstance(value, bool):
                return seat_name(value, names, locale)
            if isinstance(value, tuple):
                return seats_text([s for s in value if isinstance(s, int)], names, locale)
        if name in CHARACTER_FIELDS or (name == "council" and isinstance(value, tuple)):
            if isinstance(value, int) and not isinstance(value, bool):
                return character_name(value, locale)
            if isinstance(value, tuple):
                return ", ".join(character_name(c, locale) for c in value if isinstance(c, int)) or "—"
        if name in LAND_FIELDS:
            if isinstance(value, int) and not isinstance(value, bool):
                return land_name(value, locale)
            if isinstance(value, tuple):
                return ", ".join(land_name(land, locale) for land in value if isinstance(land, int)) or "—"
        if name == "how" and isinstance(value, str):
            domain = "reveal_how" if not has_key(f"intrigue.how.{value}", locale) else "how"
            return t(locale, f"{domain}.{value}")
        if isinstance(value, StrEnum):
            return t(locale, f"{_enum_domain(type(value))}.{value.value}")
        if isinstance(value, tuple) and all(isinstance(item, StrEnum) for item in value):
            return ", ".join(t(locale, f"{_enum_domain(type(item))}.{item.value}") for item in value) or "—"
        if isinstance(value, tuple):
            return ", ".join(str(item) for item in value) or "—"
        if value is None:
            return "—"
        return value


# ---------------------------------------------------------------------- choice packing
def pack(choices: list[Choice]) -> list[Choice]:
    """Return ``choices`` laid out to fit four rows without losing any.

    Groups longer than 25 are split (``card``, ``card_2``…); while the buttons and selects need more
    than four rows, the two smallest selects that fit together are merged into ``more``.
    """
    groups: dict[str, list[Choice]] = {}
    for choice in choices:
        if choice.group is not None:
            groups.setdefault(choice.group, []).append(choice)
    split: dict[str, list[Choice]] = {}
    for name, group in groups.items():
        for index in range(0, len(group), MAX_OPTIONS):
            chunk_name = name if index == 0 else f"{name}_{index // MAX_OPTIONS + 1}"
            split[chunk_name] = group[index : index + MAX_OPTIONS]
    buttons = [c for c in choices if c.group is None]

    def rows(selects: dict[str, list[Choice]]) -> int:
        return _rows_for(len(buttons), (len(g) for g in selects.values()))

    merged = 0
    while rows(split) > ROWS:
        multi = sorted((n for n, g in split.items() if len(g) > 1), key=lambda n: len(split[n]))
        pair = next(
            (
                (a, b)
                for i, a in enumerate(multi)
                for b in multi[i + 1 :]
                if len(split[a]) + len(split[b]) <= MAX_OPTIONS
            ),
            None,
        )
        if pair is None:
            break
        a, b = pair
        name = "more" if merged == 0 else f"more_{merged + 1}"
        merged += 1
        combined = split.pop(a) + split.pop(b)
        split[name] = combined
    out = list(buttons)
    for name, group in split.items():
        out.extend(Choice(c.action, c.label[:100], group=name, style=c.style, emoji=c.emoji) for c in group)
    return [Choice(c.action, c.label[:80], c.group, c.style, c.emoji) if c.group is None else c for c in out]


def _join(labels: Sequence[str]) -> str:
    """Return a chained option's label: its steps' labels in order, a run of one label as ``label ×n``."""
    parts: list[str] = []
    count = 0
    for index, label in enumerate(labels):
        count += 1
        if index + 1 == len(labels) or labels[index + 1] != label:
            parts.append(label if count == 1 else f"{label} ×{count}")
            count = 0
    return CHAIN_LABEL_SEP.join(parts)


def _after_roots(choices: Sequence[Choice], chained: dict[str, list[Choice]]) -> list[Choice]:
    """Return ``choices`` with each choice's chains (by its encoded action) right after it."""
    out: list[Choice] = []
    for choice in choices:
        out.append(choice)
        if not isinstance(choice.action, Chain):
            out.extend(chained.get(encode_action(choice.action), ()))
    return out


def _rows_for(buttons: int, sizes: Iterable[int]) -> int:
    """Return the rows of ``buttons`` buttons and selects of ``sizes`` options (a select of one is a button)."""
    sizes = list(sizes)
    singles = sum(1 for n in sizes if n == 1)
    return math.ceil((buttons + singles) / PER_ROW) + sum(1 for n in sizes if n > 1)


def _group_sizes(choices: Sequence[Choice]) -> dict[str, int]:
    """Return how many of ``choices`` each select group holds."""
    groups: dict[str, int] = {}
    for choice in choices:
        if choice.group is not None:
            groups[choice.group] = groups.get(choice.group, 0) + 1
    return groups


def _rows(choices: Sequence[Choice]) -> int:
    """Return the rows ``choices`` fill as they are (a group of one is a button; a select is a row)."""
    return _rows_for(sum(1 for c in choices if c.group is None), _group_sizes(choices).values())


def _spill_names(choices: Sequence[Choice], group: str) -> list[str]:
    """Return the select names ``group``'s options may continue in (``<group>_2``, ``_3``: known, unused)."""
    used = {c.group for c in choices}
    return [name for name in (f"{group}_2", f"{group}_3") if name in SELECT_GROUPS and name not in used]


def _split(choices: list[Choice], group: str) -> list[Choice]:
    """Return ``choices`` with ``group`` over 25 options cut into selects of near-equal size, in order.

    The parts are ``group`` and then :func:`_spill_names` (never a part of one option, which would
    be a button); a group with no names left to spill into is left as it is (and will not fit).
    """
    members = [c for c in choices if c.group == group]
    parts = math.ceil(len(members) / MAX_OPTIONS)
    names = [group, *_spill_names(choices, group)]
    if parts <= 1 or parts > len(names):
        return choices
    size = math.ceil(len(members) / parts)
    renamed = {id(c): names[index // size] for index, c in enumerate(members)}
    return [
        Choice(c.action, c.label, renamed[id(c)], c.style, c.emoji, c.multi) if id(c) in renamed else c for c in choices
    ]


def _fits(choices: Sequence[Choice]) -> bool:
    """Return whether ``choices`` fill at most :data:`ROWS` rows as they are: no select merged, none cut."""
    return all(n <= MAX_OPTIONS for n in _group_sizes(choices).values()) and _rows(choices) <= ROWS


# ---------------------------------------------------------------------- narration helpers
@cache
def _fields(model: type[BaseModel]) -> tuple[str, ...]:
    return tuple(name for name in model.model_fields if name not in _BASE_FIELDS)


_ENUM_DOMAINS: dict[str, str] = {
    "Phase": "phase",
    "Decision": "decision",
    "Window": "window",
    "MercType": "merc",
    "Mode": "mode",
    "CharAction": "char_action",
    "Side": "side",
    "Option": "answer",
    "VoteKind": "vote_kind",
    "Victory": "victory",
    "RevealHow": "reveal_how",
    "Reason": "reason",
    "CouncilSeat": "council",
    "Disposition": "disposition",
    "Trait": "trait",
}


def _enum_domain(enum: type[StrEnum]) -> str:
    return _ENUM_DOMAINS.get(enum.__name__, enum.__name__.lower())


def _holders(event: LandHolders, names: Sequence[str], locale: str) -> str:
    parts = []
    for land, holder, contested in zip(event.lands, event.holders, event.contested, strict=False):
        if holder is not None:
            who = seat_name(holder, names, locale)
        elif contested:
            who = f"{translate(locale, 'render_intrigue.contested').lower()} ({seats_text(contested, names, locale)})"
        else:
            who = translate(locale, "render_intrigue.nobody")
        parts.append(f"{land_name(land, locale)} — {who}")
    return "; ".join(parts) or "—"


def _ballots(value: object, names: Sequence[str], locale: str) -> str:
    if not isinstance(value, tuple):
        return "—"
    parts = []
    for entry in value:
        if isinstance(entry, tuple) and len(entry) == 3:
            voter, vote, seat = entry
            parts.append(
                f"{character_name(voter, locale)} — {side_name(str(vote), locale)} ({seat_name(seat, names, locale)})"
            )
    return "; ".join(parts) or "—"


def _commitments(event: SwayRevealed, names: Sequence[str], locale: str) -> str:
    parts = []
    for seat, voter, head, amount, choice, counted in event.commitments:
        who = seat_name(seat, names, locale)
        what = side_name(choice, locale)
        target = character_name(voter, locale)
        if head is not None:
            text = f"{who}: {target} — {what} ({t(locale, 'button.head', character=character_name(head, locale))})"
        else:
            text = f"{who}: {target} — {what} ({t(locale, 'button.stake', n=amount)})"
        parts.append(text if counted else f"{text} ✗")
    return "; ".join(parts) or "—"


def _bids(value: object, names: Sequence[str], locale: str) -> str:
    if not isinstance(value, tuple):
        return "—"
    parts = []
    for entry in value:
        if isinstance(entry, tuple) and len(entry) >= 2:
            text = f"{seat_name(entry[0], names, locale)} {entry[1]}"
            if len(entry) == 3:
                text += f" ({t(locale, 'answer.consent' if entry[2] else 'answer.refuse').lower()})"
            parts.append(text)
    return ", ".join(parts) or "—"


def _cards_with_types(cards: Sequence[str], types: Sequence[MercType], locale: str) -> str:
    """Return the types of ``cards`` (never their ids, which mean nothing to players)."""
    return ", ".join(merc_name(merc, locale) for _card, merc in zip(cards, types, strict=False)) or "—"


def _land_counts(lands: Sequence[int], locale: str) -> str:
    counts: dict[int, int] = {}
    for land in lands:
        counts[land] = counts.get(land, 0) + 1
    return (
        ", ".join(f"{land_name(land, locale)} ×{n}" if n > 1 else land_name(land, locale) for land, n in counts.items())
        or "—"
    )


def _ranking(ranks: Sequence[int], names: Sequence[str], locale: str) -> str:
    order = sorted(range(len(ranks)), key=lambda s: (ranks[s], s))
    return ", ".join(f"{ranks[s] + 1}. {seat_name(s, names, locale)}" for s in order) or "—"


__all__ = [
    "EXTRA_EVENT_PARAMS",
    "PUBLIC_DECISIONS",
    "RULE_SECTIONS",
    "SELECT_GROUPS",
    "IntriguePresenter",
    "bribe_cost",
    "card_text",
    "current_step",
    "face_down_label",
    "pack",
    "role",
    "seat_name",
]
