"""Mercenaries (spec §9): free reveals and conversion, sending, the resolution table, guards, kills.

A revealed card is resolved by a :class:`~games.intrigue.state.RevealFrame` whose stages follow the
§9.8 table; interrupts (guard responses D4, the thief's take D5, the Бурые Равнины recruit D6, the
Золотой Берег rare gift D7, the guarded-assassin penalty D17) are child frames whose answer comes
back in ``frame.answer``. Also here: the small generic prompt frames (named answers, amounts,
character picks) every module uses.
"""

from __future__ import annotations

from typing import Any

from typing_extensions import override

from games.core.models import Seat
from games.intrigue.data import (
    BRIBE_EXTRA_COST,
    BROWN_PLAINS,
    GOLDEN_COAST,
    GOLDEN_COAST_COST,
    GREEDY_EXTRA_COST,
    KILLS_TO_END,
    THIEF_COINS,
    Trait,
)
from games.intrigue.game import Game, Rules, pending, private, register
from games.intrigue.models import (
    AssassinGuarded,
    BribeDelivered,
    CardRevealed,
    CardSent,
    CardTaken,
    CharacterDismissed,
    CharacterKilled,
    Choose,
    Convert,
    Decision,
    DraftItem,
    DraftView,
    GiftDelivered,
    GuardAnswered,
    MercType,
    Mode,
    Option,
    PendingView,
    Phase,
    PickAmount,
    PickCard,
    PickCharacter,
    Reason,
    RevealAssassin,
    RevealedView,
    RevealHow,
    RevealMessenger,
    SubmissionReceived,
    TokensConverted,
    TokensRemoved,
)
from games.intrigue.state import (
    AmountFrame,
    AskFrame,
    EndFrame,
    FaceDown,
    GuardFrame,
    PenaltyFrame,
    PickFrame,
    RevealFrame,
    VacancyFrame,
)

#: The highest bribe ``extra`` listed among the legal actions (apply accepts any payable amount).
MAX_LISTED_EXTRA = 9


# ----------------------------------------------------------------------------- free actions F1–F3
def bribe_cost(g: Game, target: int, extra: int) -> int:
    """Return what a bribe with ``extra`` tokens costs on delivery (§9.4; Жадный: 1 + 4k)."""
    if g.has(target, Trait.GREEDY):
        return 1 + GREEDY_EXTRA_COST * extra
    return BRIBE_EXTRA_COST * extra


def free_moves(g: Game, seat: Seat) -> list[Any]:
    """Return ``seat``'s F1–F3 actions now (the caller decides whether this is a free-action moment)."""
    if g.phase is Phase.SPIES or seat in g.resigned:
        return []
    out: list[Any] = []
    for card in g.cards:
        if card.owner != seat or card.turn_placed >= g.turn:
            continue
        if card.merc is MercType.MESSENGER:
            if card.mode is Mode.GIFT or g.has(card.character, Trait.INCORRUPTIBLE):
                out.append(RevealMessenger(card=card.id))
            else:
                for extra in range(MAX_LISTED_EXTRA + 1):
                    if bribe_cost(g, card.character, extra) > g.coins[seat]:
                        break
                    out.append(RevealMessenger(card=card.id, extra=extra))
        elif card.merc is MercType.ASSASSIN:
            out.append(RevealAssassin(card=card.id))
    for pos, land in enumerate(g.lands):
        if g.heads[pos] is not None and g.land_tokens[pos][seat] >= 2:
            out.append(Convert(land=land))
    return out


def free_move_valid(g: Game, seat: Seat, action: Any) -> bool:
    """Return whether an F1–F3 action outside the listed range (a large bribe) is valid now."""
    if not isinstance(action, RevealMessenger) or action.extra <= MAX_LISTED_EXTRA:
        return False
    card = g.find_card(action.card)
    if card is None or card.owner != seat or card.turn_placed >= g.turn or card.mode is not Mode.BRIBE:
        return False
    if g.has(card.character, Trait.INCORRUPTIBLE):
        return False
    return bribe_cost(g, card.character, action.extra) <= g.coins[seat]


def apply_free(g: Game, seat: Seat, action: Any) -> None:
    """Apply a validated F1–F3 action."""
    if isinstance(action, Convert):
        land = action.land
        head = g.head_of(land)
        assert head is not None  # noqa: S101 - validated: the land has a head
        g.remove(seat, 2, Reason.CONVERT, land=land)
        g.place(seat, 1, Reason.CONVERT, character=head)
        g.emit(TokensConverted(seat=seat, land=land, character=head))
        return
    card = g.take_card(action.card)
    record_reveal(g, card, RevealHow.OWN, seat)
    extra = action.extra if isinstance(action, RevealMessenger) else 0
    g.push(RevealFrame(how=RevealHow.OWN, card=card, by=seat, extra=extra))


def record_reveal(g: Game, card: FaceDown, how: RevealHow, by: Seat, agent: str | None = None) -> None:
    """Make a turned-up card public: the event and the view's recent reveals."""
    mode = card.mode if card.merc is MercType.MESSENGER else None
    g.emit(
        CardRevealed(
            card=card.id,
            owner=card.owner,
            character=card.character,
            merc=card.merc,
            mode=mode,
            how=how,
            by=by,
            agent=agent,
        )
    )
    g.reveals.append(
        RevealedView(
            card=card.id,
            owner=card.owner,
            character=card.character,
            merc=card.merc,
            mode=mode,
            how=how,
            by=by,
            turn=g.turn,
        )
    )


# ----------------------------------------------------------------------------- sending
def send_card(g: Game, seat: Seat, via: int, card_id: str, target: int, source: str, mode: Mode | None) -> None:
    """Send ``card_id`` from ``seat``'s hand through ``via`` onto ``target`` (§9.2)."""
    card = g.hand_card(seat, card_id)
    assert card is not None  # noqa: S101 - validated by the action's legal list
    # Face down under a new id (drawn while the hand id is still taken): whatever was known of
    # the card in hand does not follow it onto the board.
    board_id = g.face_down_id(card)
    g.hands[seat].remove(card)
    if source == "character":
        g.remove(seat, 1, Reason.MARKER, character=via)
    elif source == "land":
        land = g.land_of(via)
        assert land is not None  # noqa: S101 - a land source needs a head
        g.remove(seat, 1, Reason.MARKER, land=land)
    mode = mode if card.merc is MercType.MESSENGER else None
    g.cards.append(FaceDown(id=board_id, owner=seat, merc=card.merc, mode=mode, character=target, turn_placed=g.turn))
    src: Any = source
    g.emit(CardSent(seat=seat, card=board_id, via=via, target=target, source=src))
    g.emit(
        CardSent(
            seat=seat,
            card=board_id,
            via=via,
            target=target,
            source=src,
            merc=card.merc,
            mode=mode,
            visible_to=private(seat),
        )
    )


# ----------------------------------------------------------------------------- effects
def deliver_gift(g: Game, sender: Seat, target: int) -> None:
    """A gift adds 1 sender token (2 on a Коллекционер)."""
    tokens = 2 if g.has(target, Trait.COLLECTOR) else 1
    g.place(sender, tokens, Reason.GIFT, character=target)
    g.emit(GiftDelivered(seat=sender, character=target, tokens=tokens))


def deliver_bribe(g: Game, sender: Seat, target: int, extra: int) -> None:
    """A bribe adds 1 + ``extra`` tokens, paid on delivery; a Неподкупный target takes nothing (§9.4).

    A delivery the sender cannot pay (only a forced one reaches here unpaid) adds nothing (§1.4 #2).
    """
    if g.has(target, Trait.INCORRUPTIBLE):
        g.emit(BribeDelivered(seat=sender, character=target, tokens=0, paid=0, refused=True))
        return
    cost = bribe_cost(g, target, extra)
    if cost > g.coins[sender]:
        g.emit(BribeDelivered(seat=sender, character=target, tokens=0, paid=0))
        return
    g.pay(sender, cost, Reason.GREEDY if g.has(target, Trait.GREEDY) else Reason.BRIBE)
    g.place(sender, 1 + extra, Reason.BRIBE, character=target)
    g.emit(BribeDelivered(seat=sender, character=target, tokens=1 + extra, paid=cost))


def exposure_penalties(g: Game, card: FaceDown) -> None:
    """The exposed card's owner pays the trait penalties of §1.4 (#6, #9b, #11) on every such character."""
    owner, target = card.owner, card.character
    rules: list[tuple[Trait, int]] = []
    if card.merc is MercType.MESSENGER and card.mode is Mode.BRIBE:
        rules = [(Trait.CAUTIOUS, 1), (Trait.INCORRUPTIBLE, 1)]
    elif card.merc is MercType.MESSENGER:
        if g.has(target, Trait.BRIBE_TAKER):
            rules = [(Trait.INCORRUPTIBLE, 1)]
    elif card.merc is MercType.THIEF:
        rules = [(Trait.CAUTIOUS, 1)]
    elif card.merc is MercType.ASSASSIN:
        rules = [(Trait.CAUTIOUS, 2), (Trait.NOBLE, 2)]
    for trait, count in rules:
        for character in g.with_trait(trait):
            g.remove(owner, count, Reason.PENALTY, character=character, forced=True)


def golden_coast_eligible(g: Game, sender: Seat) -> bool:
    """Return whether ``sender`` gets the Золотой Берег offer for a delivered gift (§1.2)."""
    if GOLDEN_COAST not in g.pos or "golden_coast" in g.used or g.coins[sender] < GOLDEN_COAST_COST:
        return False
    return g.controller(g.head_of(GOLDEN_COAST)) == sender or g.land_row(GOLDEN_COAST)[sender] >= 3


def brown_plains_controller(g: Game) -> Seat | None:
    """Return who may recruit an exposed card now (Бурые Равнины head controller, once per turn)."""
    if BROWN_PLAINS not in g.pos or "brown_plains" in g.used:
        return None
    return g.controller(g.head_of(BROWN_PLAINS))


def guard_responders(g: Game, character: int, exclude: Seat) -> list[Seat]:
    """Return the owners of earlier face-down cards on ``character`` who may answer with a guard (§9.6)."""
    seats = {c.owner for c in g.cards if c.character == character and c.turn_placed < g.turn and c.owner != exclude}
    return [s for s in g.rsp() if s in seats]


def kill(g: Game, character: int, by: Seat) -> None:
    """Kill ``character`` (§10.1); the fifth kill starts the Рука порядка ending."""
    g.kills += 1
    g.emit(CharacterKilled(character=character, seat=by, kills=g.kills))
    row = g.tokens(character)
    for seat, count in enumerate(row):
        if count:
            g.emit(TokensRemoved(seat=seat, count=count, character=character, reason=Reason.KILLED, forced=True))
            row[seat] = 0
    g.discard_cards_on(character)
    g.vacate(character)
    g.dead.append(character)
    if g.kills >= KILLS_TO_END:
        g.ending = True
        g.stack = [EndFrame()]
        return
    g.push(VacancyFrame())


def dismiss(g: Game, character: int) -> None:
    """Send ``character`` to the pool with his tokens (§10.2); his face-down cards are discarded."""
    g.emit(CharacterDismissed(character=character))
    g.discard_cards_on(character)
    g.vacate(character)
    g.dismissed.append(character)


# ----------------------------------------------------------------------------- reveal resolution
_GUARD_ANSWER, _THIEF_TAKE, _RECRUIT, _RECRUIT_ANSWER, _DISCARD, _DELIVERED, _RARE_GIFT, _KILL = (
    1,
    4,
    5,
    6,
    7,
    8,
    21,
    30,
)


@register("reveal")
class RevealRules(Rules):
    """Resolves one turned-up card by the §9.8 table."""

    interrupt = True

    @override
    def run(self, g: Game, f: RevealFrame) -> bool:
        stage = f.stage
        if stage == 0:
            self._start(g, f)
        elif stage == _GUARD_ANSWER:
            self._guard_answer(g, f)
        elif stage == _THIEF_TAKE:
            take = f.answer == Option.TAKE_CARD.value
            f.answer = None
            if take:
                self._to_thief(g, f)
                return False
            g.gain(f.by, THIEF_COINS, Reason.THIEF)
            f.stage = _RECRUIT
        elif stage == _RECRUIT:
            chooser = brown_plains_controller(g)
            if chooser is None:
                f.stage = _DISCARD
            else:
                c = f.card
                g.push(
                    AskFrame(
                        seat=chooser,
                        decision=Decision.RECRUIT,
                        options=[Option.RECRUIT, Option.DECLINE],
                        default=Option.DECLINE,
                        card=c.id,
                        merc=c.merc,
                        character=c.character,
                    )
                )
                f.stage = _RECRUIT_ANSWER
        elif stage == _RECRUIT_ANSWER:
            if f.answer == Option.RECRUIT.value:
                chooser = brown_plains_controller(g)
                assert chooser is not None  # noqa: S101 - nothing acts between the offer and the answer
                g.use("brown_plains")
                card = g.to_hand(chooser, f.card.merc)
                g.emit(
                    CardTaken(
                        seat=chooser, card=f.card.id, merc=f.card.merc, how="recruit", expires_turn=card.expires_turn
                    )
                )
                f.recruited = True
            f.answer = None
            f.stage = _DISCARD
        elif stage == _DISCARD:
            if not f.recruited:
                g.discard(f.card, public=True)
            self._finish(g, f)
        elif stage == _DELIVERED:
            g.discard(f.card, public=True)
            self._finish(g, f)
        elif stage == _RARE_GIFT:
            if f.answer == Option.PAY.value:
                g.use("golden_coast")
                g.pay(f.card.owner, GOLDEN_COAST_COST, Reason.GOLDEN_COAST)
                g.place(f.card.owner, 1, Reason.GOLDEN_COAST, character=f.card.character)
            f.answer = None
            f.stage = _DELIVERED
        elif stage == _KILL:
            g.discard(f.card, public=True)
            g.pop()
            kill(g, f.card.character, f.card.owner)
        return False

    # ------------------------------------------------------------------ stages
    def _start(self, g: Game, f: RevealFrame) -> None:
        card = f.card
        if f.how in (RevealHow.OWN, RevealHow.RIVER):
            self._own(g, f)
        elif f.how is RevealHow.SPY:
            self._spy(g, f)
        elif f.how is RevealHow.THIEF:
            if card.merc is MercType.MESSENGER:
                responders = [] if f.river else guard_responders(g, card.character, f.by)
                if responders:
                    g.push(GuardFrame(character=card.character, against=card.id, eligible=responders))
                    f.stage = _GUARD_ANSWER
                else:
                    f.answer = ""
                    self._guard_answer(g, f)
            else:
                if card.merc in (MercType.THIEF, MercType.ASSASSIN):
                    exposure_penalties(g, card)
                f.stage = _RECRUIT
        else:
            self._garrison(g, f)

    def _own(self, g: Game, f: RevealFrame) -> None:
        card = f.card
        if card.merc is MercType.MESSENGER:
            if card.mode is Mode.GIFT:
                self._gift(g, f)
            else:
                deliver_bribe(g, card.owner, card.character, f.extra)
                f.stage = _DELIVERED
        elif card.merc is MercType.ASSASSIN:
            responders = [] if f.river else guard_responders(g, card.character, card.owner)
            if responders:
                g.push(GuardFrame(character=card.character, against=card.id, eligible=responders))
                f.stage = _GUARD_ANSWER
            else:
                f.stage = _KILL
        else:
            # Only spies and thieves remain: played through Речная Подкова they resolve like §9.8.
            f.stage = _DELIVERED

    def _gift(self, g: Game, f: RevealFrame) -> None:
        sender = f.card.owner
        deliver_gift(g, sender, f.card.character)
        if golden_coast_eligible(g, sender):
            g.push(
                AskFrame(
                    seat=sender,
                    decision=Decision.RARE_GIFT,
                    options=[Option.PAY, Option.DECLINE],
                    default=Option.DECLINE,
                    card=f.card.id,
                    character=f.card.character,
                )
            )
            f.stage = _RARE_GIFT
        else:
            f.stage = _DELIVERED

    def _spy(self, g: Game, f: RevealFrame) -> None:
        card = f.card
        owner, target = card.owner, card.character
        if card.merc is MercType.MESSENGER and card.mode is Mode.GIFT:
            exposure_penalties(g, card)
            self._gift(g, f)
            return
        if card.merc is MercType.MESSENGER:
            if not g.has(target, Trait.BRIBE_TAKER):
                g.remove(owner, 1, Reason.EXPOSED, character=target, forced=True)
            exposure_penalties(g, card)
        elif card.merc is MercType.THIEF:
            g.remove(owner, 1, Reason.EXPOSED, character=target, forced=True)
            exposure_penalties(g, card)
        elif card.merc is MercType.ASSASSIN:
            g.remove(owner, g.tokens(target)[owner], Reason.ASSASSIN_EXPOSED, character=target, forced=True)
            exposure_penalties(g, card)
        elif card.merc is MercType.GUARD:
            g.remove(f.by, 1, Reason.SPY_ON_GUARD, character=target, forced=True)
        f.stage = _RECRUIT

    def _guard_answer(self, g: Game, f: RevealFrame) -> None:
        guard_id = f.answer if isinstance(f.answer, str) else ""
        f.answer = None
        card = f.card
        if guard_id:
            guard = g.take_card(guard_id)
            record_reveal(g, guard, RevealHow.OWN, guard.owner)
            g.emit(GuardAnswered(seat=guard.owner, card=guard.id, character=card.character, against=card.id))
            g.discard(guard, public=True)
            if card.merc is MercType.ASSASSIN:
                g.place(guard.owner, 2, Reason.GUARD, character=card.character)
                g.discard(card, public=True)
                g.pop()
                start_penalty(g, card.owner)
                return
            # A guarded thief: the thief does nothing and the messenger is delivered as its owner's own.
            g.place(guard.owner, 1, Reason.GUARD, character=card.character)
            if card.mode is Mode.GIFT:
                self._gift(g, f)
            else:
                deliver_bribe(g, card.owner, card.character, 0)
                f.stage = _DELIVERED
            return
        if card.merc is MercType.ASSASSIN:
            f.stage = _KILL
            return
        # An unguarded thief on a messenger.
        exposure_penalties(g, card)
        if card.mode is Mode.GIFT:
            self._to_thief(g, f)
            return
        g.push(
            AskFrame(
                seat=f.by,
                decision=Decision.THIEF_TAKE,
                options=[Option.TAKE_CARD, Option.TAKE_COINS],
                default=Option.TAKE_COINS,
                card=card.id,
                merc=card.merc,
                character=card.character,
            )
        )
        f.stage = _THIEF_TAKE

    def _to_thief(self, g: Game, f: RevealFrame) -> None:
        card = g.to_hand(f.by, f.card.merc)
        g.emit(CardTaken(seat=f.by, card=f.card.id, merc=f.card.merc, how="thief", expires_turn=card.expires_turn))
        self._finish(g, f)

    def _garrison(self, g: Game, f: RevealFrame) -> None:
        card = f.card
        if card.merc in (MercType.MESSENGER, MercType.GUARD):
            g.remove(f.by, 1, Reason.GARRISON, character=card.character, forced=True)
        else:
            g.place(f.by, 1, Reason.GARRISON, character=card.character)
        exposure_penalties(g, card)
        f.stage = _RECRUIT

    def _finish(self, g: Game, f: RevealFrame) -> None:
        if f.agent is not None:
            g.discard(f.agent, public=True)
        g.pop()


def start_penalty(g: Game, seat: Seat) -> None:
    """The guarded assassin's owner removes 1 own token from 3 characters in office (D17, §9.6)."""
    eligible = [c for c in g.office_characters() if g.tokens(c)[seat] > 0]
    if len(eligible) <= 3:
        for c in eligible:
            g.remove(seat, 1, Reason.GUARDED_ASSASSIN, character=c, forced=True)
        g.emit(AssassinGuarded(seat=seat, characters=tuple(eligible)))
        return
    g.push(PenaltyFrame(seat=seat, picks=3))


# ----------------------------------------------------------------------------- interrupt prompts
@register("guard")
class GuardRules(Rules):
    """Guard responses (D4): sealed; the first guard in RSP order counts."""

    interrupt = True

    @override
    def run(self, g: Game, f: GuardFrame) -> bool:
        waiting = [s for s in f.eligible if s not in f.subs]
        if waiting:
            return True
        chosen = ""
        for seat in g.rsp():
            card = f.subs.get(seat, "")
            if seat in f.eligible and card and g.find_card(card) is not None:
                chosen = card
                break
        g.pop(chosen)
        return False

    @override
    def active(self, g: Game, f: GuardFrame) -> list[Seat]:
        return [s for s in f.eligible if s not in f.subs]

    @override
    def legal(self, g: Game, f: GuardFrame, seat: Seat) -> list[Any]:
        guards = [
            PickCard(card=c.id)
            for c in g.cards
            if c.owner == seat and c.character == f.character and c.merc is MercType.GUARD and c.turn_placed < g.turn
        ]
        return [*guards, Choose(option=Option.DECLINE)]

    @override
    def act(self, g: Game, f: GuardFrame, seat: Seat, action: Any) -> None:
        f.subs[seat] = action.card if isinstance(action, PickCard) else ""
        g.emit(SubmissionReceived(seat=seat, decision=Decision.GUARD))

    @override
    def default(self, g: Game, f: GuardFrame, seat: Seat) -> Any:
        return Choose(option=Option.DECLINE)

    @override
    def pending(self, g: Game, f: GuardFrame) -> PendingView:
        return pending(
            Decision.GUARD,
            self.active(g, f),
            step="guard",
            character=f.character,
            card=f.against,
            submitted=tuple(sorted(f.subs)),
        )

    @override
    def submission(self, g: Game, f: GuardFrame, seat: Seat) -> DraftView | None:
        if seat not in f.subs:
            return None
        card = f.subs[seat]
        item = DraftItem(step="guard", card=card or None, option=None if card else Option.DECLINE)
        return DraftView(decision=Decision.GUARD, step="submitted", items=(item,))


@register("penalty")
class PenaltyRules(Rules):
    """The guarded-assassin penalty (D17): 3 distinct characters in office with own tokens."""

    interrupt = True

    def _candidates(self, g: Game, f: PenaltyFrame) -> list[int]:
        return [c for c in g.office_characters() if g.tokens(c)[f.seat] > 0 and c not in f.picked]

    @override
    def run(self, g: Game, f: PenaltyFrame) -> bool:
        if len(f.picked) < f.picks and self._candidates(g, f):
            return True
        for c in f.picked:
            g.remove(f.seat, 1, Reason.GUARDED_ASSASSIN, character=c, forced=True)
        g.emit(AssassinGuarded(seat=f.seat, characters=tuple(f.picked)))
        g.pop()
        return False

    @override
    def active(self, g: Game, f: PenaltyFrame) -> list[Seat]:
        return [f.seat]

    @override
    def legal(self, g: Game, f: PenaltyFrame, seat: Seat) -> list[Any]:
        return [PickCharacter(character=c) for c in sorted(self._candidates(g, f))]

    @override
    def act(self, g: Game, f: PenaltyFrame, seat: Seat, action: Any) -> None:
        f.picked.append(action.character)

    @override
    def default(self, g: Game, f: PenaltyFrame, seat: Seat) -> Any:
        best = min(self._candidates(g, f), key=lambda c: (-g.tokens(c)[seat], c))
        return PickCharacter(character=best)

    @override
    def pending(self, g: Game, f: PenaltyFrame) -> PendingView:
        return pending(
            Decision.ASSASSIN_PENALTY, [f.seat], step="character", actor=f.seat, picks_left=f.picks - len(f.picked)
        )

    @override
    def draft(self, g: Game, f: PenaltyFrame, seat: Seat) -> DraftView | None:
        items = tuple(DraftItem(step="character", character=c) for c in f.picked)
        return DraftView(decision=Decision.ASSASSIN_PENALTY, step="character", items=items)


@register("ask")
class AskRules(Rules):
    """A named-answer prompt of one seat; the answer goes to the parent frame."""

    interrupt = True

    @override
    def run(self, g: Game, f: AskFrame) -> bool:
        return True

    @override
    def active(self, g: Game, f: AskFrame) -> list[Seat]:
        return [f.seat]

    @override
    def legal(self, g: Game, f: AskFrame, seat: Seat) -> list[Any]:
        options = list(f.options)
        if f.decision is Decision.RARE_GIFT and g.coins[seat] < GOLDEN_COAST_COST:
            options = [o for o in options if o is not Option.PAY]
        return [Choose(option=o) for o in options]

    @override
    def act(self, g: Game, f: AskFrame, seat: Seat, action: Any) -> None:
        g.pop(action.option.value)

    @override
    def default(self, g: Game, f: AskFrame, seat: Seat) -> Any:
        return Choose(option=f.default)

    @override
    def pending(self, g: Game, f: AskFrame) -> PendingView:
        return pending(
            f.decision,
            [f.seat],
            step=f.decision.name.lower(),
            actor=f.seat,
            card=f.card,
            merc=f.merc,
            character=f.character,
        )


@register("amount")
class AmountRules(Rules):
    """An amount prompt of one seat (the Долина Стрел tax); the answer goes to the parent frame."""

    interrupt = True

    @override
    def run(self, g: Game, f: AmountFrame) -> bool:
        return True

    @override
    def active(self, g: Game, f: AmountFrame) -> list[Seat]:
        return [f.seat]

    @override
    def legal(self, g: Game, f: AmountFrame, seat: Seat) -> list[Any]:
        return [PickAmount(amount=a) for a in f.amounts]

    @override
    def act(self, g: Game, f: AmountFrame, seat: Seat, action: Any) -> None:
        g.pop(action.amount)

    @override
    def default(self, g: Game, f: AmountFrame, seat: Seat) -> Any:
        return PickAmount(amount=f.default)

    @override
    def pending(self, g: Game, f: AmountFrame) -> PendingView:
        return pending(f.decision, [f.seat], step="amount", actor=f.seat)


@register("pick")
class PickRules(Rules):
    """A character choice of one seat (D16); the answer goes to the parent frame."""

    interrupt = True

    @override
    def run(self, g: Game, f: PickFrame) -> bool:
        return True

    @override
    def active(self, g: Game, f: PickFrame) -> list[Seat]:
        return [f.seat]

    @override
    def legal(self, g: Game, f: PickFrame, seat: Seat) -> list[Any]:
        return [PickCharacter(character=c) for c in f.candidates]

    @override
    def act(self, g: Game, f: PickFrame, seat: Seat, action: Any) -> None:
        g.pop(action.character)

    @override
    def default(self, g: Game, f: PickFrame, seat: Seat) -> Any:
        return PickCharacter(character=f.default)

    @override
    def pending(self, g: Game, f: PickFrame) -> PendingView:
        step = "appoint" if f.land is not None or f.council is not None else "tie"
        return pending(f.decision, [f.seat], step=step, actor=f.seat, land=f.land)
