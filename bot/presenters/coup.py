"""How Переворот (Coup) is shown: labels, status line, public decisions and the private panel.

Public decisions (declaring an action, the response windows) depend only on public information,
so they are built from the public view and shown to the whole table. Choices that depend on hidden
cards (prove or concede, which card to lose, what to keep, the draft) are offered only in the
seat's private panel, built from that seat's own view and legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from bot.i18n import translate
from bot.i18n.narrate import narrate
from bot.presenters import Choice
from bot.render.coup import render_coup_board, render_coup_hand
from games.coup.models import (
    CLAIMS,
    ActionKind,
    Allow,
    Assassinate,
    Block,
    Card,
    Challenge,
    CollectTax,
    Concede,
    CoupView,
    DraftCard,
    ExchangeCards,
    KeepCards,
    LaunchCoup,
    Phase,
    ProveClaim,
    RevealCard,
    Steal,
    TakeForeignAid,
    TakeIncome,
)

#: One picture per character everywhere: these emoji are the emblems drawn on the board's cards
#: (bot.render.coup.EMBLEMS: crown, dagger, anchor, scroll, rose), in the panel and on the buttons.
CARD_EMOJI: dict[Card, str] = {
    Card.DUKE: "\N{CROWN}",
    Card.ASSASSIN: "\N{DAGGER KNIFE}",
    Card.CAPTAIN: "\N{ANCHOR}",
    Card.AMBASSADOR: "\N{SCROLL}",
    Card.CONTESSA: "\N{ROSE}",
}
#: Phases whose legal actions follow from public information only.
PUBLIC_PHASES = frozenset({Phase.DECLARE, Phase.RESPOND_ACTION, Phase.RESPOND_BLOCK})
RULE_SECTIONS = (
    "setup",
    "turn",
    "actions",
    "challenges",
    "blocks",
    "influence",
    "exchange",
    "two_players",
    "table",
    "end",
)


def _view(view: BaseModel) -> CoupView:
    if not isinstance(view, CoupView):
        raise TypeError(f"expected CoupView, got {type(view).__name__}")
    return view


def card_name(card: Card, locale: str) -> str:
    """Return the localized character name."""
    return translate(locale, f"coup.card.{card.value}")


def action_name(action: ActionKind, locale: str) -> str:
    """Return the localized action name."""
    return translate(locale, f"coup.action.{action.value}")


class CoupPresenter:
    """The presenter of Переворот."""

    game = "coup"
    #: Events the log leaves out: the next line says it all (an action that goes ahead was
    #: allowed; a declaration names whose turn it is). In a 6-player game they were 2 lines in 3.
    log_filler = frozenset({"response_allowed", "turn_started"})

    def render_board(self, view: BaseModel, names: Sequence[str], locale: str) -> bytes:
        """Return the board PNG."""
        return render_coup_board(_view(view), names, locale)

    def render_hand(self, view: BaseModel, names: Sequence[str], locale: str) -> bytes | None:
        """Return the viewer's own cards as a picture for the private panel (``None`` for a spectator)."""
        return render_coup_hand(_view(view), names, locale)

    # ------------------------------------------------------------------ text
    def status(self, view: BaseModel, names: Sequence[str], locale: str) -> str:
        """Return what the table waits for, in one line."""
        v = _view(view)
        waiting = ", ".join(names[s] for s in v.awaiting)
        if v.phase is Phase.OVER:
            return translate(locale, "coup.status.over", winner=names[v.winner] if v.winner is not None else "?")
        if v.phase is Phase.DRAFT:
            return translate(locale, "coup.status.draft", waiting=waiting)
        if v.phase is Phase.DECLARE:
            key = "coup.status.declare_forced" if v.forced_coup else "coup.status.declare"
            return translate(locale, key, name=names[v.turn])
        claim = self._claim_text(v, names, locale)
        if v.phase is Phase.RESPOND_ACTION:
            return translate(locale, "coup.status.respond_action", claim=claim, waiting=waiting)
        if v.phase is Phase.RESPOND_BLOCK and v.block is not None:
            return translate(
                locale,
                "coup.status.respond_block",
                claim=claim,
                blocker=names[v.block.blocker],
                card=card_name(v.block.card, locale),
                waiting=waiting,
            )
        if v.phase is Phase.PROVE and v.challenge is not None:
            return translate(
                locale,
                "coup.status.prove",
                challenger=names[v.challenge.challenger],
                claimant=names[v.challenge.claimant],
                card=card_name(v.challenge.card, locale),
            )
        if v.phase is Phase.LOSE_INFLUENCE and v.losing is not None:
            return translate(locale, "coup.status.lose", name=names[v.losing])
        if v.phase is Phase.EXCHANGE:
            return translate(locale, "coup.status.exchange", name=names[v.turn])
        return waiting

    def _claim_text(self, v: CoupView, names: Sequence[str], locale: str) -> str:
        if v.action is None:
            return ""
        params: dict[str, Any] = {"actor": names[v.action.actor], "action": action_name(v.action.action, locale)}
        key = "coup.claim.plain"
        if v.action.target is not None:
            params["target"] = names[v.action.target]
            key = "coup.claim.targeted"
        return translate(locale, key, **params)

    def private_summary(self, view: BaseModel, names: Sequence[str], locale: str) -> str:
        """Return the viewer's hand, coins and the decision it faces."""
        v = _view(view)
        if v.viewer is None:
            return translate(locale, "ui.panel.spectator")
        me = v.players[v.viewer]
        hand = ", ".join(f"{CARD_EMOJI[c]} {card_name(c, locale)}" for c in (me.hand or ())) or "—"
        lines = [
            translate(locale, "coup.panel.hand", cards=hand),
            translate(locale, "coup.panel.coins", n=me.coins),
        ]
        if me.revealed:
            lost = ", ".join(card_name(c, locale) for c in me.revealed)
            lines.append(translate(locale, "coup.panel.revealed", cards=lost))
        if not me.alive:
            lines.append(translate(locale, "coup.panel.out"))
        if v.viewer in v.awaiting:
            lines.append(translate(locale, f"coup.panel.todo.{v.phase.value}"))
        if v.choices and v.phase is Phase.EXCHANGE:
            pool = ", ".join(card_name(c, locale) for c in v.choices)
            lines.append(translate(locale, "coup.panel.exchange_pool", cards=pool, n=me.hidden_count))
        return "\n".join(lines)

    def rules(self, locale: str) -> list[tuple[str, str]]:
        """Return the rules summary sections."""
        return [
            (translate(locale, f"coup.rules.{key}.title"), translate(locale, f"coup.rules.{key}.text"))
            for key in RULE_SECTIONS
        ]

    def result_lines(self, view: BaseModel, names: Sequence[str], locale: str) -> list[str]:
        """Return the standings: the winner, then the others in reverse order of elimination."""
        v = _view(view)
        order = ([v.winner] if v.winner is not None else []) + list(reversed(v.eliminated))
        return [translate(locale, "ui.result.line", place=i + 1, name=names[s]) for i, s in enumerate(order)]

    def narrate(self, event: BaseModel, names: Sequence[str], locale: str) -> str | None:
        """Return the log line of ``event`` through the shared narration (Coup events need nothing more)."""
        return narrate(self.game, event, locale, names)

    # ------------------------------------------------------------------ choices
    def public_choices(
        self, view: BaseModel, awaited_legal: Sequence[Any], names: Sequence[str], locale: str
    ) -> list[Choice]:
        """Return the table's public decisions: declaring an action and the response windows.

        What is legal in these phases follows from public facts only (coins, who is targeted, which
        window is open), so the awaited seats' legal actions may be shown to everyone. In every
        other phase the choice depends on hidden cards and lives in the private panel instead.
        """
        v = _view(view)
        if v.viewer is not None:
            raise ValueError("public choices are built from the public view only")
        if v.phase not in PUBLIC_PHASES:
            return []
        return [self._label(action, v, names, locale) for action in awaited_legal]

    def decided_on_board(self, view: BaseModel) -> bool:
        """Return whether the decision is public (declare, response windows)."""
        return _view(view).phase in PUBLIC_PHASES

    def private_choices(self, view: BaseModel, legal: Sequence[Any], names: Sequence[str], locale: str) -> list[Choice]:
        """Label every legal action of the viewer."""
        v = _view(view)
        return [self._label(action, v, names, locale) for action in legal]

    def _label(self, action: Any, v: CoupView, names: Sequence[str], locale: str) -> Choice:
        if isinstance(action, TakeIncome | TakeForeignAid | CollectTax | ExchangeCards):
            kind = ActionKind(action.kind)
            claim = CLAIMS.get(kind)
            return Choice(
                action,
                translate(locale, f"coup.button.{kind.value}"),
                style="primary" if claim is None else "secondary",
                emoji=CARD_EMOJI[claim] if claim else None,
            )
        if isinstance(action, LaunchCoup | Assassinate | Steal):
            kind = ActionKind(action.kind)
            claim = CLAIMS.get(kind)
            return Choice(
                action,
                translate(locale, f"coup.button.{kind.value}", target=names[action.target]),
                group=kind.value,
                style="danger" if kind is ActionKind.COUP else "secondary",
                emoji=CARD_EMOJI[claim] if claim else "\N{COLLISION SYMBOL}",
            )
        if isinstance(action, Challenge):
            return Choice(
                action, translate(locale, "coup.button.challenge"), style="danger", emoji="\N{BALLOT BOX WITH X}"
            )
        if isinstance(action, Block):
            return Choice(
                action,
                translate(locale, "coup.button.block", card=card_name(action.card, locale)),
                style="primary",
                emoji=CARD_EMOJI[action.card],
            )
        if isinstance(action, Allow):
            return Choice(
                action, translate(locale, "coup.button.allow"), style="success", emoji="\N{WHITE HEAVY CHECK MARK}"
            )
        if isinstance(action, ProveClaim):
            card = v.challenge.card if v.challenge is not None else None
            text = card_name(card, locale) if card else ""
            return Choice(action, translate(locale, "coup.button.prove", card=text), style="success")
        if isinstance(action, Concede):
            return Choice(action, translate(locale, "coup.button.concede"), style="danger")
        if isinstance(action, RevealCard):
            return Choice(
                action,
                translate(locale, "coup.button.reveal", card=card_name(action.card, locale)),
                style="danger",
                emoji=CARD_EMOJI[action.card],
            )
        if isinstance(action, KeepCards):
            cards = ", ".join(card_name(c, locale) for c in action.cards)
            return Choice(action, translate(locale, "coup.button.keep", cards=cards), group="keep", style="primary")
        if isinstance(action, DraftCard):
            return Choice(
                action,
                translate(locale, "coup.button.draft", card=card_name(action.card, locale)),
                style="primary",
                emoji=CARD_EMOJI[action.card],
            )
        raise TypeError(f"unknown Coup action {action!r}")
