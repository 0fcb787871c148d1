"""The turn and its phases (spec §2, §3–§8).

Placement, Spies & Thieves, Lands I, Investments, Characters (slots, character actions, contests,
lending, Речная Подкова), Lands II and the windows.

Each procedure is a frame (``state.py``) driven by its :class:`~games.intrigue.game.Rules`. Multi-part
decisions are sub-decisions: picks accumulate in the frame's ``draft``/``basket`` with ``Back`` to undo
and are applied when complete (or on ``Done``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from typing_extensions import override

from games.core.models import Seat
from games.intrigue.data import (
    BEYOND_THE_WOODS,
    BLACK_HARBOUR,
    DISCOUNTED_MERCENARY_COST,
    EMPTY_HILLS,
    HILLS_COINS,
    INVEST_COST,
    MERCENARY_COST,
    MISTY_VALE,
    RIVER_HORSESHOE,
    TREASURER_GRANT,
    VALE_OF_ARROWS,
    Trait,
    placement_rounds,
)
from games.intrigue.game import BISHOP, MARSHAL, TREASURER, Game, Rules, pending, private, register
from games.intrigue.mercenaries import (
    MAX_LISTED_EXTRA,
    apply_free,
    bribe_cost,
    free_moves,
    record_reveal,
    send_card,
)
from games.intrigue.models import (
    ActionTaken,
    Back,
    BasketSubmitted,
    CardsHired,
    CharAction,
    Choose,
    CoinsGiven,
    ContestCalled,
    ContestHead,
    ContestResolved,
    Decision,
    Done,
    DraftItem,
    DraftView,
    GrowthChosen,
    HandExpired,
    LandHolders,
    LendAnswered,
    LendOffered,
    MercType,
    MilitaryMoved,
    Mode,
    Option,
    OrderFixed,
    Pass,
    PendingView,
    Phase,
    PhaseStarted,
    PickAction,
    PickAmount,
    PickCard,
    PickCharacter,
    PickLand,
    PickMode,
    PickSeat,
    PickType,
    PlaceToken,
    PlayerPassed,
    PopulationGrew,
    Reason,
    RevealHow,
    RiverAnswered,
    RiverPlayed,
    Skip,
    SlotStarted,
    SubmissionReceived,
    SycophantRewarded,
    TaxDeclared,
    TaxDefaulted,
    TurnStarted,
    Victory,
    VoteKind,
    Window,
    WindowClosed,
    WindowOpened,
)
from games.intrigue.state import (
    SUPPLY_ORDER,
    ActFrame,
    AmountFrame,
    CharactersFrame,
    ContestFrame,
    ElectionFrame,
    EndFrame,
    FaceDown,
    GarrisonFrame,
    GrowthFrame,
    InvestFrame,
    LandsOneFrame,
    LandsTwoFrame,
    LendFrame,
    PlacementFrame,
    RepresentativeFrame,
    RevealFrame,
    RiverFrame,
    SlotFrame,
    SpiesFrame,
    TurnFrame,
    VacancyFrame,
    VoteFrame,
    WindowFrame,
)
from games.intrigue.victory import finish


# Legal lists are built for every step; the few distinct picks they hold are frozen models, made once.
@cache
def _place(land: int, *, head: bool) -> PlaceToken:
    return PlaceToken(land=land, head=True) if head else PlaceToken(land=land)


@cache
def _pick_land(land: int) -> PickLand:
    return PickLand(land=land)


@cache
def _pick_type(merc: MercType) -> PickType:
    return PickType(merc=merc)


@cache
def _pick_action(action: CharAction, *, rider: bool) -> PickAction:
    return PickAction(action=action, rider=True) if rider else PickAction(action=action)


BACK: Any = Back()
DONE: Any = Done()
PASS: Any = Pass()
SKIP: Any = Skip()
DECLINE: Any = Choose(option=Option.DECLINE)
#: The highest lending price listed among the legal actions (apply accepts any price the borrower can pay).
MAX_LISTED_PRICE = 20


# ----------------------------------------------------------------------------- setup placement
def placement_prompts(n: int) -> list[tuple[int, int]]:
    """Return the snake placement prompts (§2 step 5): seat order, reverse, seat order, reverse."""
    prompts: list[tuple[int, int]] = []
    for r, count in enumerate(placement_rounds(n)):
        seats = range(n) if r % 2 == 0 else range(n - 1, -1, -1)
        prompts.extend((s, count) for s in seats)
    return prompts


@register("placement")
class PlacementRules(Rules):
    """Setup placement (D1): one token per action, tokens per prompt from :func:`placement_rounds`.

    2/2/2/1; 1/2/2/1/1 at three players (revision 3), 1/1/1/2/2 at two (revision 7). The frame keeps
    its prompts, so a table in set-up finishes with the rounds it began with.
    """

    @override
    def run(self, g: Game, f: PlacementFrame) -> bool:
        if f.index >= len(f.prompts):
            g.pop()
            return False
        return True

    @override
    def active(self, g: Game, f: PlacementFrame) -> list[Seat]:
        return [f.prompts[f.index][0]]

    @override
    def legal(self, g: Game, f: PlacementFrame, seat: Seat) -> list[Any]:
        out: list[Any] = [_place(land, head=False) for land in g.lands]
        out += [_place(land, head=True) for land in g.lands if g.head_of(land) is not None]
        return out

    @override
    def act(self, g: Game, f: PlacementFrame, seat: Seat, action: Any) -> None:
        if action.head:
            head = g.head_of(action.land)
            assert head is not None  # noqa: S101 - validated
            g.place(seat, 1, Reason.SETUP, character=head)
        else:
            g.place(seat, 1, Reason.SETUP, land=action.land)
        f.placed += 1
        if f.placed >= f.prompts[f.index][1]:
            f.index += 1
            f.placed = 0

    @override
    def default(self, g: Game, f: PlacementFrame, seat: Seat) -> Any:
        land = min(g.lands, key=lambda land: (sum(g.land_row(land)), land))
        return PlaceToken(land=land)

    @override
    def pending(self, g: Game, f: PlacementFrame) -> PendingView:
        seat, count = f.prompts[f.index]
        return pending(Decision.PLACEMENT, [seat], step="place", actor=seat, picks_left=count - f.placed)


# ----------------------------------------------------------------------------- the turn
def start_turn(g: Game) -> None:
    """Begin the next turn: reset the once-per-turn records and push its phases."""
    g.turn += 1
    g.acted = []
    g.dismissed = []
    g.used = []
    g.grown = []
    g.hired = [0] * g.n
    g.vale_tax = None
    g.order = []
    g.passed = []
    g.emit(TurnStarted(turn=g.turn, rsp=tuple(g.rsp())))
    g.push(TurnFrame())


_PHASES = (Phase.SPIES, Phase.LANDS_ONE, Phase.INVESTMENTS, Phase.CHARACTERS, Phase.LANDS_TWO)


@register("turn")
class TurnRules(Rules):
    """The five phases in order; vacancies are retried at the start of each (§10.3)."""

    @override
    def run(self, g: Game, f: TurnFrame) -> bool:
        if f.stage >= 2 * len(_PHASES):
            g.pop()
            return False
        phase = _PHASES[f.stage // 2]
        if f.stage % 2 == 0:
            g.phase = phase
            g.emit(PhaseStarted(phase=phase, turn=g.turn))
            f.stage += 1
            g.push(VacancyFrame())
            return False
        f.stage += 1
        if phase is Phase.SPIES:
            if g.turn > 1:
                g.push(SpiesFrame(order=g.rsp()))
        elif phase is Phase.LANDS_ONE:
            g.push(LandsOneFrame())
        elif phase is Phase.INVESTMENTS:
            order = sorted(range(g.n), key=lambda s: (g.coins[s], g.rsp_index(s)))
            g.push(InvestFrame(order=order))
        elif phase is Phase.CHARACTERS:
            g.push(CharactersFrame())
        else:
            g.push(LandsTwoFrame())
        return False


# ----------------------------------------------------------------------------- windows
@register("window")
class WindowRules(Rules):
    """A window (D2): every eligible seat takes free actions F1–F3, then Done."""

    @override
    def run(self, g: Game, f: WindowFrame) -> bool:
        if not f.opened:
            seats = [s for s in range(g.n) if g.free_eligible(s)]
            if not seats:
                g.pop()
                return False
            f.opened = True
            g.emit(WindowOpened(window=f.window, seats=tuple(seats)))
        if self.active(g, f):
            return True
        g.emit(WindowClosed(window=f.window))
        g.pop()
        return False

    @override
    def active(self, g: Game, f: WindowFrame) -> list[Seat]:
        return [s for s in range(g.n) if s not in f.done and g.free_eligible(s)]

    @override
    def legal(self, g: Game, f: WindowFrame, seat: Seat) -> list[Any]:
        return [*free_moves(g, seat), DONE]

    @override
    def act(self, g: Game, f: WindowFrame, seat: Seat, action: Any) -> None:
        if action == DONE:
            f.done.append(seat)
            return
        f.done = []
        apply_free(g, seat, action)

    @override
    def default(self, g: Game, f: WindowFrame, seat: Seat) -> Any:
        return DONE

    @override
    def pending(self, g: Game, f: WindowFrame) -> PendingView:
        return pending(Decision.WINDOW, self.active(g, f), step="window", window=f.window)


# ----------------------------------------------------------------------------- spies and thieves
def _targets(g: Game, seat: Seat) -> list[FaceDown]:
    return [c for c in g.cards if c.owner != seat]


@register("spies")
class SpiesRules(Rules):
    """Spies & Thieves (D3): the RSP loop of spy and thief reveals (§4)."""

    @override
    def run(self, g: Game, f: SpiesFrame) -> bool:
        for _ in range(g.n + 1):
            if len(f.out) >= g.n:
                break
            seat = f.order[f.cur]
            if seat in f.out:
                f.cur = (f.cur + 1) % g.n
                continue
            if seat in g.resigned or not g.earlier_cards(seat):
                f.out.append(seat)
                f.cur = (f.cur + 1) % g.n
                continue
            return True
        g.pop()
        return False

    @override
    def active(self, g: Game, f: SpiesFrame) -> list[Seat]:
        return [f.order[f.cur]]

    @override
    def legal(self, g: Game, f: SpiesFrame, seat: Seat) -> list[Any]:
        targets = _targets(g, seat)
        if not f.draft:
            agents = [
                PickCard(card=c.id)
                for c in g.earlier_cards(seat)
                if c.merc in (MercType.SPY, MercType.THIEF) and targets
            ]
            return [*agents, PASS]
        if len(f.draft) == 1:
            chars = sorted({c.character for c in targets})
            return [*(PickCharacter(character=c) for c in chars), BACK, PASS]
        char = f.draft[1].character
        return [*(PickCard(card=c.id) for c in targets if c.character == char), BACK, PASS]

    @override
    def act(self, g: Game, f: SpiesFrame, seat: Seat, action: Any) -> None:
        if action == PASS:
            f.out.append(seat)
            f.draft = []
            f.cur = (f.cur + 1) % g.n
            g.emit(PlayerPassed(seat=seat, phase=Phase.SPIES))
            return
        if action == BACK:
            f.draft.pop()
            return
        if not f.draft:
            f.draft.append(DraftItem(step="agent", card=action.card))
            return
        if len(f.draft) == 1:
            f.draft.append(DraftItem(step="character", character=action.character))
            return
        agent_id = f.draft[0].card
        assert agent_id is not None  # noqa: S101 - the first pick is the agent
        f.draft = []
        f.cur = (f.cur + 1) % g.n
        agent = g.take_card(agent_id)
        target = g.take_card(action.card)
        how = RevealHow.SPY if agent.merc is MercType.SPY else RevealHow.THIEF
        record_reveal(g, agent, RevealHow.OWN, seat)
        record_reveal(g, target, how, seat, agent=agent.id)
        g.push(RevealFrame(how=how, card=target, agent=agent, by=seat))

    @override
    def default(self, g: Game, f: SpiesFrame, seat: Seat) -> Any:
        return PASS

    @override
    def pending(self, g: Game, f: SpiesFrame) -> PendingView:
        seat = f.order[f.cur]
        return pending(Decision.SPY_TURN, [seat], step="spy_turn", actor=seat)

    @override
    def draft(self, g: Game, f: SpiesFrame, seat: Seat) -> DraftView | None:
        step = ("agent", "character", "target")[len(f.draft)]
        return DraftView(decision=Decision.SPY_TURN, step=step, items=tuple(f.draft))


# ----------------------------------------------------------------------------- lands I
@register("lands_one")
class LandsOneRules(Rules):
    """Lands I (§5): W1, Властный, holders, growth, income, Чёрная Гавань, stipends."""

    @override
    def run(self, g: Game, f: LandsOneFrame) -> bool:
        if f.stage == 0:
            f.stage = 1
            g.push(WindowFrame(window=Window.W1))
        elif f.stage == 1:
            for pos, land in enumerate(g.lands):
                head = g.heads[pos]
                if head is not None and g.has(head, Trait.IMPERIOUS):
                    for seat in range(g.n):
                        g.place(seat, g.tokens(head)[seat] // 3, Reason.IMPERIOUS, land=land)
            f.stage = 2
        elif f.stage == 2:
            holders = [g.holder(land) for land in g.lands]
            g.emit(
                LandHolders(
                    lands=g.lands,
                    holders=tuple(h for h, _ in holders),
                    contested=tuple(tuple(c) for _, c in holders),
                )
            )
            choices: dict[int, list[int]] = {}
            for land, (holder, _) in zip(g.lands, holders, strict=True):
                if holder is not None and g.free_cells(land) > 0:
                    choices.setdefault(holder, []).append(land)
            f.stage = 3
            if choices:
                g.push(GrowthFrame(choices=choices))
        else:
            self._income(g)
            g.pop()
        return False

    def _income(self, g: Game) -> None:
        for pos, land in enumerate(g.lands):
            holder, contested = g.holder(land)
            if holder is not None:
                if land in g.grown:
                    continue
                income = g.peaceful[pos]
                head = g.heads[pos]
                if head is not None and g.has(head, Trait.THRIFTY):
                    income += 1
                if head is not None and g.has(head, Trait.WASTEFUL):
                    income = max(0, income - 1)
                g.gain(holder, income, Reason.INCOME, land)
            for seat in contested:
                g.gain(seat, 1, Reason.INCOME, land)
        if BLACK_HARBOUR in g.pos:
            harbour = g.combined(BLACK_HARBOUR)
            if harbour is not None:
                g.gain(harbour, 1, Reason.HARBOUR, BLACK_HARBOUR)
        for seat in range(g.n):
            g.gain(seat, g.controls(seat, g.councillors()), Reason.STIPEND)


@register("growth")
class GrowthRules(Rules):
    """Growth (D8, sealed): a sole holder may grow one held land with a free cell."""

    interrupt = True

    @override
    def run(self, g: Game, f: GrowthFrame) -> bool:
        if self.active(g, f):
            return True
        for seat in sorted(f.subs):
            land = f.subs[seat]
            g.emit(GrowthChosen(seat=seat, land=land or None))
            if land:
                g.peaceful[g.pos[land]] += 1
                g.grown.append(land)
                g.emit(PopulationGrew(land=land, seat=seat, peaceful=g.peaceful[g.pos[land]]))
        g.pop()
        return False

    @override
    def active(self, g: Game, f: GrowthFrame) -> list[Seat]:
        return [s for s in sorted(f.choices) if s not in f.subs]

    @override
    def legal(self, g: Game, f: GrowthFrame, seat: Seat) -> list[Any]:
        return [*(_pick_land(land) for land in f.choices[seat]), SKIP]

    @override
    def act(self, g: Game, f: GrowthFrame, seat: Seat, action: Any) -> None:
        f.subs[seat] = action.land if isinstance(action, PickLand) else 0
        g.emit(SubmissionReceived(seat=seat, decision=Decision.GROWTH))

    @override
    def default(self, g: Game, f: GrowthFrame, seat: Seat) -> Any:
        return SKIP

    @override
    def pending(self, g: Game, f: GrowthFrame) -> PendingView:
        return pending(Decision.GROWTH, self.active(g, f), step="growth", submitted=tuple(sorted(f.subs)))

    @override
    def submission(self, g: Game, f: GrowthFrame, seat: Seat) -> DraftView | None:
        if seat not in f.subs:
            return None
        item = DraftItem(step="growth", land=f.subs[seat] or None)
        return DraftView(decision=Decision.GROWTH, step="submitted", items=(item,))


# ----------------------------------------------------------------------------- investments
def woods_discount(g: Game, seat: Seat) -> bool:
    """Return whether ``seat``'s first mercenary this turn costs 2 (Залесье, §1.2)."""
    if BEYOND_THE_WOODS not in g.pos or f"woods:{seat}" in g.used:
        return False
    return g.controller(g.head_of(BEYOND_THE_WOODS)) == seat or g.land_row(BEYOND_THE_WOODS)[seat] >= 3


#: A basket's next purchase, as ``basket_cost`` counts it.
_INVEST_ITEM = DraftItem(step="invest")
_HIRE_ITEM = DraftItem(step="hire")


def basket_cost(g: Game, seat: Seat, basket: list[DraftItem]) -> int:
    """Return what ``basket`` costs ``seat`` now."""
    invests = sum(1 for it in basket if it.step == "invest")
    hires = sum(1 for it in basket if it.step == "hire")
    cost = INVEST_COST * invests + MERCENARY_COST * hires
    if hires and woods_discount(g, seat):
        cost -= MERCENARY_COST - DISCOUNTED_MERCENARY_COST
    return cost


@register("invest")
class InvestRules(Rules):
    """Investments (D9): one basket per seat, poorest first (§6)."""

    @override
    def run(self, g: Game, f: InvestFrame) -> bool:
        while f.index < len(f.order) and f.order[f.index] in g.resigned:
            f.index += 1
        if f.index >= len(f.order):
            g.pop()
            return False
        return True

    @override
    def active(self, g: Game, f: InvestFrame) -> list[Seat]:
        return [f.order[f.index]]

    @override
    def legal(self, g: Game, f: InvestFrame, seat: Seat) -> list[Any]:
        out: list[Any] = free_moves(g, seat)
        coins = g.coins[seat]
        if basket_cost(g, seat, [*f.basket, _INVEST_ITEM]) <= coins:
            out += [_pick_land(land) for land in g.lands]
        if basket_cost(g, seat, [*f.basket, _HIRE_ITEM]) <= coins:
            for merc in self._in_stock(g, f):
                out.append(_pick_type(merc))
        if f.basket:
            out.append(BACK)
            if basket_cost(g, seat, f.basket) <= coins:
                out.append(DONE)
        out.append(SKIP)
        return out

    def _in_stock(self, g: Game, f: InvestFrame) -> list[MercType]:
        return [
            merc
            for i, merc in enumerate(SUPPLY_ORDER)
            if g.supply[i] > sum(1 for it in f.basket if it.step == "hire" and it.merc is merc)
        ]

    @override
    def act(self, g: Game, f: InvestFrame, seat: Seat, action: Any) -> None:
        if isinstance(action, PickLand):
            f.basket.append(DraftItem(step="invest", land=action.land))
        elif isinstance(action, PickType):
            f.basket.append(DraftItem(step="hire", merc=action.merc))
        elif action == BACK:
            f.basket.pop()
        elif action in (DONE, SKIP):
            self._submit(g, f, seat, f.basket if action == DONE else [])
        else:
            apply_free(g, seat, action)

    def _submit(self, g: Game, f: InvestFrame, seat: Seat, basket: list[DraftItem]) -> None:
        invested = [it.land for it in basket if it.step == "invest" and it.land is not None]
        hires = [it.merc for it in basket if it.step == "hire" and it.merc is not None]
        total = basket_cost(g, seat, basket)
        if invested:
            g.pay(seat, INVEST_COST * len(invested), Reason.INVEST)
            for land in invested:
                g.place(seat, 1, Reason.INVEST, land=land)
        if hires:
            cost = total - INVEST_COST * len(invested)
            if woods_discount(g, seat):
                g.use(f"woods:{seat}")
            g.pay(seat, cost, Reason.HIRE)
            cards = []
            for merc in hires:
                g.supply[SUPPLY_ORDER.index(merc)] -= 1
                cards.append(g.to_hand(seat, merc))
            g.hired[seat] += len(hires)
            g.emit(CardsHired(seat=seat, count=len(hires), cost=cost))
            g.emit(
                CardsHired(
                    seat=seat,
                    count=len(hires),
                    cost=cost,
                    cards=tuple(c.id for c in cards),
                    types=tuple(hires),
                    visible_to=private(seat),
                )
            )
        g.emit(BasketSubmitted(seat=seat, invested=tuple(invested), hired=len(hires), paid=total))
        f.basket = []
        f.index += 1

    @override
    def default(self, g: Game, f: InvestFrame, seat: Seat) -> Any:
        return SKIP

    @override
    def pending(self, g: Game, f: InvestFrame) -> PendingView:
        seat = f.order[f.index]
        return pending(Decision.INVEST, [seat], step="basket", actor=seat)

    @override
    def draft(self, g: Game, f: InvestFrame, seat: Seat) -> DraftView | None:
        return DraftView(decision=Decision.INVEST, step="basket", items=tuple(f.basket))


# ----------------------------------------------------------------------------- characters
def player_order(g: Game) -> list[Seat]:
    """Return the Characters-phase order (§7.2): Проныра controllers, character tokens, land tokens, RSP."""
    sly = {g.controller(c) for c in g.with_trait(Trait.SLY)}

    def key(seat: Seat) -> tuple[int, int, int, int]:
        return (0 if seat in sly else 1, -g.office_tokens(seat), -g.total_land_tokens(seat), g.rsp_index(seat))

    return sorted(range(g.n), key=key)


def sycophants(g: Game) -> None:
    """At the start of a slot: each Подхалим in office rewards a new strict council leader (§1.4 #8)."""
    scores = [g.council_tokens(s) for s in range(g.n)]
    top = max(scores)
    leaders = [s for s in range(g.n) if scores[s] == top]
    if top <= 0 or len(leaders) != 1:
        return
    leader = leaders[0]
    for c in g.with_trait(Trait.SYCOPHANT):
        if g.leaders[c - 1] != leader:
            g.leaders[c - 1] = leader
            g.place(leader, 1, Reason.SYCOPHANT, character=c)
            g.emit(SycophantRewarded(character=c, leader=leader))


def contestable(g: Game, seat: Seat) -> list[int]:
    """Return the neutral heads ``seat`` may contest now (§7.5)."""
    out = []
    for pos, head in enumerate(g.heads):
        if head is None or head in g.acted or g.controller(head) is not None:
            continue
        if seat in g.tied_top(head) and g.land_tokens[pos][seat] >= 1:
            out.append(head)
    return out


def _marker_sources(g: Game, seat: Seat, via: int, *, rider: bool = False) -> list[Option]:
    """Return where ``seat``'s marker for a card sent through ``via`` may come from (§9.2).

    With the Пустые Холмы ``rider`` the action also costs one of the seat's tokens on ``via``
    (never the land), paid first: the marker must come from what is left.
    """
    sources = []
    if g.tokens(via)[seat] >= 1 + rider:
        sources.append(Option.FROM_CHARACTER)
    land = g.land_of(via)
    if land is not None and g.land_row(land)[seat] >= 1:
        sources.append(Option.FROM_LAND)
    return sources


def _rider(f: ActFrame) -> bool:
    """Return whether the action drafted in ``f`` carries the Пустые Холмы rider."""
    first = _item(f, "action")
    return bool(first is not None and first.rider)


def send_targets(g: Game, seat: Seat, via: int, merc: MercType, *, rider: bool = False) -> list[int]:
    """Return where ``seat`` may send a ``merc`` through ``via`` (§9.2), after the Холмы ``rider`` if taken."""
    out = [c for c in g.office_characters() if c != via] if _marker_sources(g, seat, via, rider=rider) else []
    if merc is MercType.GUARD:
        out.append(via)
    return sorted(out)


def river_targets(g: Game, seat: Seat, merc: MercType) -> list[int]:
    """Return the characters a card may be played onto through Речная Подкова (§9.7)."""
    river = g.head_of(RIVER_HORSESHOE)
    out = []
    for c in sorted(g.office_characters()):
        if c == river:
            continue
        if merc in (MercType.SPY, MercType.THIEF) and not any(x.character == c and x.owner != seat for x in g.cards):
            continue
        out.append(c)
    return out


def borrowers(g: Game, seat: Seat, via: int) -> list[Seat]:
    """Return the players ``seat`` may lend ``via``'s send to (§7.4)."""
    return [q for q in range(g.n) if q != seat and q not in g.resigned and g.tokens(via)[q] >= 1 and g.hands[q]]


def military_moves(g: Game, moves: list[tuple[int, int]]) -> tuple[list[int], dict[int, list[int]]]:
    """Return the sources with a legal destination and each source's destinations after ``moves``."""
    mil = {land: g.military[p] for p, land in enumerate(g.lands)}
    free = {land: g.free_cells(land) for land in g.lands}
    for src, dst in moves:
        mil[src] -= 1
        free[src] += 1
        mil[dst] += 1
        free[dst] -= 1
    dests = {src: [d for d in g.lands if d != src and free[d] > 0] for src in g.lands if mil[src] > 0}
    return [s for s, d in dests.items() if d], dests


def char_actions(g: Game, seat: Seat, via: int, *, lend: bool) -> list[PickAction]:
    """Return the actions ``seat`` may take through ``via`` (§7.4, §1.5)."""
    acts: list[CharAction] = []
    index = g.seat_of(via)
    if index == MARSHAL and military_moves(g, [])[0]:
        acts.append(CharAction.MOVE_MILITARY)
    elif index == BISHOP:
        acts.append(CharAction.BLESS)
    elif index == TREASURER:
        acts.append(CharAction.GRANT)
    if g.is_councillor(via):
        if any(h != via for h in g.head_characters()):
            acts.append(CharAction.REMOVE_HEAD)
        acts.append(CharAction.ELECTION)
    land = g.land_of(via)
    if land is not None and any(c is not None for c in g.council):
        acts.append(CharAction.REMOVE_COUNCILLOR)
    hills = land == EMPTY_HILLS and g.tokens(via)[seat] >= 1
    if hills:
        acts.append(CharAction.HILLS)
    if land == RIVER_HORSESHOE and any(
        h.merc is not MercType.GUARD and river_targets(g, seat, h.merc) for h in g.hands[seat]
    ):
        acts.append(CharAction.RIVER_PLAY)
    if any(send_targets(g, seat, via, h.merc) for h in g.hands[seat]):
        acts.append(CharAction.SEND)
    if lend and borrowers(g, seat, via):
        acts.append(CharAction.LEND)
    out = [_pick_action(a, rider=False) for a in acts]
    if hills:
        out += [
            _pick_action(a, rider=True)
            for a in acts
            if a is not CharAction.HILLS
            and (a is not CharAction.SEND or any(send_targets(g, seat, via, h.merc, rider=True) for h in g.hands[seat]))
        ]
    return out


def actable(g: Game, seat: Seat, *, lend: bool = True) -> list[int]:
    """Return the characters ``seat`` may act via now (controls, in office, not acted, has an action)."""
    return [
        c
        for c in g.office_characters()
        if c not in g.acted and g.controller(c) == seat and char_actions(g, seat, c, lend=lend)
    ]


@register("characters")
class CharactersRules(Rules):
    """Characters (§7): W2, the Representative, the order, action slots, hand expiry."""

    @override
    def run(self, g: Game, f: CharactersFrame) -> bool:
        if f.stage == 0:
            f.stage = 1
            g.push(WindowFrame(window=Window.W2))
        elif f.stage == 1:
            f.stage = 2
            g.push(RepresentativeFrame())
        elif f.stage == 2:
            g.order = player_order(g)
            g.passed = []
            g.emit(OrderFixed(order=tuple(g.order)))
            f.stage = 3
        elif f.stage == 3:
            self._next_slot(g, f)
        else:
            self._expire(g)
            g.pop()
        return False

    def _next_slot(self, g: Game, f: CharactersFrame) -> None:
        if f.answer is not None:
            last = g.order[(f.pos - 1) % len(g.order)]
            if f.answer == "main":
                f.idle = []
            elif last not in f.idle:
                f.idle.append(last)
            f.answer = None
        live = [s for s in g.order if s not in g.passed]
        # The phase ends when everyone is out, or every seat still in had a slot without a main action.
        if not live or all(s in f.idle for s in live):
            f.stage = 4
            return
        seat = g.order[f.pos % len(g.order)]
        f.pos += 1
        if seat in g.passed:
            return
        if seat in g.resigned:
            g.passed.append(seat)
            g.emit(PlayerPassed(seat=seat, phase=Phase.CHARACTERS))
            return
        sycophants(g)
        if not actable(g, seat) and not contestable(g, seat) and not g.free_eligible(seat):
            if seat not in f.idle:
                f.idle.append(seat)
            return
        g.push(SlotFrame(seat=seat))

    def _expire(self, g: Game) -> None:
        for seat in range(g.n):
            gone = [h for h in g.hands[seat] if h.expires_turn <= g.turn]
            if not gone:
                continue
            g.hands[seat] = [h for h in g.hands[seat] if h.expires_turn > g.turn]
            for h in gone:
                g.return_to_supply(h.merc)
            g.emit(HandExpired(seat=seat, count=len(gone)))
            g.emit(
                HandExpired(
                    seat=seat,
                    count=len(gone),
                    cards=tuple(h.id for h in gone),
                    types=tuple(h.merc for h in gone),
                    visible_to=private(seat),
                )
            )


@register("slot")
class SlotRules(Rules):
    """An action slot (D10): free actions, then one main action — act, contest or pass (§7.3)."""

    @override
    def run(self, g: Game, f: SlotFrame) -> bool:
        if f.answer is not None:
            answer = f.answer
            f.answer = None
            if answer == "main":
                g.pop("main")
                return False
            if answer == "pass_now":
                self.act(g, f, f.seat, PASS)
                return False
            if answer == "declined":
                f.no_lend = True
        if not f.started:
            f.started = True
            g.emit(SlotStarted(seat=f.seat))
        return True

    @override
    def active(self, g: Game, f: SlotFrame) -> list[Seat]:
        return [f.seat]

    def _has_main(self, g: Game, f: SlotFrame) -> bool:
        return bool(actable(g, f.seat, lend=not f.no_lend) or contestable(g, f.seat))

    @override
    def legal(self, g: Game, f: SlotFrame, seat: Seat) -> list[Any]:
        if f.contest is not None:
            land = g.land_of(f.contest)
            assert land is not None  # noqa: S101 - contests are for heads
            bids = [PickAmount(amount=b) for b in range(1, g.land_row(land)[seat] + 1)]
            return [*bids, BACK, PASS]
        out: list[Any] = free_moves(g, seat)
        acts = actable(g, seat, lend=not f.no_lend)
        contests = contestable(g, seat)
        out += [PickCharacter(character=c) for c in acts]
        out += [ContestHead(character=c) for c in contests]
        out.append(PASS if acts or contests else DONE)
        return out

    @override
    def act(self, g: Game, f: SlotFrame, seat: Seat, action: Any) -> None:
        if action == PASS:
            g.passed.append(seat)
            g.emit(PlayerPassed(seat=seat, phase=Phase.CHARACTERS))
            g.pop("pass")
        elif action == DONE:
            g.pop("skip")
        elif action == BACK:
            f.contest = None
        elif isinstance(action, ContestHead):
            f.contest = action.character
        elif isinstance(action, PickAmount):
            head = f.contest
            assert head is not None  # noqa: S101 - a bid follows the contest pick
            f.contest = None
            bidders = [s for s in g.tied_top(head) if s != seat]
            g.push(ContestFrame(seat=seat, character=head, bid=action.amount, bidders=bidders))
        elif isinstance(action, PickCharacter):
            g.push(ActFrame(seat=seat, character=action.character, via="slot", no_lend=f.no_lend))
        else:
            apply_free(g, seat, action)

    @override
    def default(self, g: Game, f: SlotFrame, seat: Seat) -> Any:
        if f.contest is not None or self._has_main(g, f):
            return PASS
        return DONE

    @override
    def pending(self, g: Game, f: SlotFrame) -> PendingView:
        return pending(Decision.SLOT, [f.seat], step="slot", actor=f.seat)

    @override
    def draft(self, g: Game, f: SlotFrame, seat: Seat) -> DraftView | None:
        if f.contest is None:
            return DraftView(decision=Decision.SLOT, step="main")
        return DraftView(decision=Decision.SLOT, step="bid", items=(DraftItem(step="contest", character=f.contest),))


# ----------------------------------------------------------------------------- a character's action
def _item(f: ActFrame, step: str) -> DraftItem | None:
    for it in f.draft:
        if it.step == step:
            return it
    return None


def _card_merc(g: Game, seat: Seat, card_id: str | None) -> MercType | None:
    card = g.hand_card(seat, card_id or "")
    return None if card is None else card.merc


@register("act")
class ActRules(Rules):
    """Choosing one character action and its parameters, then resolving it (§7.4)."""

    @override
    def run(self, g: Game, f: ActFrame) -> bool:
        if f.answer == "back":
            f.answer = None
        return True

    @override
    def active(self, g: Game, f: ActFrame) -> list[Seat]:
        return [f.seat]

    # ------------------------------------------------------------------ steps
    def _step(self, g: Game, f: ActFrame) -> str | None:
        """Return the next parameter to pick, or ``None`` when the action is complete."""
        first = _item(f, "action")
        if first is None:
            return "action"
        action = first.action
        picks = [it.step for it in f.draft]
        if action is CharAction.MOVE_MILITARY:
            if f.draft[-1].step == "done":
                return None
            moves = picks.count("to")
            if picks[-1] == "from":
                return "to"
            return None if moves >= 2 else "from"
        if action is CharAction.BLESS:
            return None if "land" in picks else "land"
        if action is CharAction.GRANT:
            return None if "seat" in picks else "seat"
        if action in (CharAction.REMOVE_HEAD, CharAction.REMOVE_COUNCILLOR):
            return None if "subject" in picks else "subject"
        if action is CharAction.LEND:
            for step in ("borrower", "price"):
                if step not in picks:
                    return step
            return None
        if action in (CharAction.ELECTION, CharAction.HILLS):
            return None
        if "card" not in picks:
            return "card"
        if "target" not in picks:
            return "target"
        card_item = _item(f, "card")
        assert card_item is not None  # noqa: S101 - picked above
        merc = _card_merc(g, f.seat, card_item.card)
        if action is CharAction.SEND:
            target = _item(f, "target")
            if (
                target is not None
                and target.character != f.character
                and "source" not in picks
                and len(_marker_sources(g, f.seat, f.character, rider=_rider(f))) > 1
            ):
                return "source"
            if merc is MercType.MESSENGER and "mode" not in picks:
                return "mode"
            return None
        # Речная Подкова
        if merc is MercType.MESSENGER:
            if "mode" not in picks:
                return "mode"
            mode = _item(f, "mode")
            if mode is not None and mode.mode is Mode.BRIBE and "extra" not in picks:
                return "extra"
            return None
        if merc in (MercType.SPY, MercType.THIEF) and "target_card" not in picks:
            return "target_card"
        return None

    @override
    def legal(self, g: Game, f: ActFrame, seat: Seat) -> list[Any]:
        step = self._step(g, f)
        back = [] if (step == "action" and f.via == "contest") else [BACK]
        # The decision's own default is legal at every step: Pass (slot), none (contest), decline (lend).
        back.append({"slot": PASS, "contest": SKIP, "lend": DECLINE}[f.via])
        if step == "action":
            acts: list[Any] = char_actions(g, seat, f.character, lend=f.via == "slot" and not f.no_lend)
            return [*acts, *back]
        first = _item(f, "action")
        assert first is not None  # noqa: S101 - past the action step
        action = first.action
        out: list[Any] = []
        if step == "from":
            moves = self._moves(f)
            out = [_pick_land(land) for land in military_moves(g, moves)[0]]
            out.append(DONE)
        elif step == "to":
            moves = self._moves(f)
            src = f.draft[-1].land
            out = [_pick_land(land) for land in military_moves(g, moves)[1].get(src or 0, [])]
        elif step == "land":
            out = [_pick_land(land) for land in g.lands]
        elif step == "seat":
            out = [PickSeat(seat=s) for s in range(g.n)]
        elif step == "subject":
            if action is CharAction.REMOVE_HEAD:
                out = [PickCharacter(character=c) for c in sorted(g.head_characters()) if c != f.character]
            else:
                out = [PickCharacter(character=c) for c in sorted(c for c in g.council if c is not None)]
        elif step == "borrower":
            out = [PickSeat(seat=q) for q in borrowers(g, seat, f.character)]
        elif step == "price":
            borrower = _item(f, "borrower")
            limit = g.coins[borrower.seat or 0] if borrower is not None else 0
            out = [PickAmount(amount=x) for x in range(min(limit, MAX_LISTED_PRICE) + 1)]
        elif step == "card":
            if action is CharAction.SEND:
                out = [
                    PickCard(card=h.id)
                    for h in g.hands[seat]
                    if send_targets(g, seat, f.character, h.merc, rider=_rider(f))
                ]
            else:
                out = [
                    PickCard(card=h.id)
                    for h in g.hands[seat]
                    if h.merc is not MercType.GUARD and river_targets(g, seat, h.merc)
                ]
        elif step == "target":
            card = _item(f, "card")
            merc = _card_merc(g, seat, card.card if card else None)
            assert merc is not None  # noqa: S101 - the card is in hand
            if action is CharAction.SEND:
                out = [PickCharacter(character=c) for c in send_targets(g, seat, f.character, merc, rider=_rider(f))]
            else:
                out = [PickCharacter(character=c) for c in river_targets(g, seat, merc)]
        elif step == "source":
            out = [Choose(option=o) for o in _marker_sources(g, seat, f.character, rider=_rider(f))]
        elif step == "mode":
            out = [PickMode(mode=Mode.GIFT), PickMode(mode=Mode.BRIBE)]
        elif step == "extra":
            target = _item(f, "target")
            t = target.character if target else None
            assert t is not None  # noqa: S101 - picked before the extra tokens
            if g.has(t, Trait.INCORRUPTIBLE):
                out = [PickAmount(amount=0)]
            else:
                out = [
                    PickAmount(amount=k) for k in range(MAX_LISTED_EXTRA + 1) if bribe_cost(g, t, k) <= g.coins[seat]
                ]
        elif step == "target_card":
            target = _item(f, "target")
            out = [
                PickCard(card=c.id)
                for c in g.cards
                if target is not None and c.character == target.character and c.owner != seat
            ]
        return [*out, *back]

    def _moves(self, f: ActFrame) -> list[tuple[int, int]]:
        lands = [it.land or 0 for it in f.draft if it.step in ("from", "to")]
        return [(lands[i], lands[i + 1]) for i in range(0, len(lands) - 1, 2)]

    @override
    def act(self, g: Game, f: ActFrame, seat: Seat, action: Any) -> None:
        if action == BACK:
            if not f.draft or (f.via == "lend" and len(f.draft) == 1):
                g.pop("back")
            else:
                f.draft.pop()
            return
        if action == SKIP:
            g.pop("main")
            return
        if action == PASS:
            g.pop("pass_now")
            return
        if action == DECLINE:
            g.pop("declined_now")
            return
        step = self._step(g, f)
        assert step is not None  # noqa: S101 - an incomplete action awaits a pick
        if action == DONE:
            f.draft.append(DraftItem(step="done"))
        elif isinstance(action, PickAction):
            f.draft.append(DraftItem(step="action", action=action.action, rider=action.rider))
        elif isinstance(action, PickLand):
            f.draft.append(DraftItem(step=step, land=action.land))
        elif isinstance(action, PickSeat):
            f.draft.append(DraftItem(step=step, seat=action.seat))
        elif isinstance(action, PickAmount):
            f.draft.append(DraftItem(step=step, amount=action.amount))
        elif isinstance(action, PickCard):
            f.draft.append(DraftItem(step=step, card=action.card))
        elif isinstance(action, PickCharacter):
            f.draft.append(DraftItem(step=step, character=action.character))
        elif isinstance(action, Choose):
            f.draft.append(DraftItem(step=step, option=action.option))
        elif isinstance(action, PickMode):
            f.draft.append(DraftItem(step=step, mode=action.mode))
        if self._step(g, f) is None:
            self._execute(g, f)

    def accepts(self, g: Game, f: ActFrame, seat: Seat, action: Any) -> bool:
        """Accept parameters beyond the listed range: a lending price or a bribe's extra tokens."""
        if not isinstance(action, PickAmount) or action.amount <= 0:
            return False
        step = self._step(g, f)
        if step == "price":
            borrower = _item(f, "borrower")
            return borrower is not None and action.amount <= g.coins[borrower.seat or 0]
        if step == "extra":
            target = _item(f, "target")
            t = target.character if target else None
            return (
                t is not None and not g.has(t, Trait.INCORRUPTIBLE) and bribe_cost(g, t, action.amount) <= g.coins[seat]
            )
        return False

    # ------------------------------------------------------------------ resolution
    def _execute(self, g: Game, f: ActFrame) -> None:
        first = _item(f, "action")
        assert first is not None  # noqa: S101 - complete actions have one
        action = first.action
        assert action is not None  # noqa: S101 - the action pick names one
        seat, via = f.seat, f.character
        if action is CharAction.LEND:
            borrower = _item(f, "borrower")
            price = _item(f, "price")
            assert borrower is not None and borrower.seat is not None  # noqa: S101 - picked
            assert price is not None and price.amount is not None  # noqa: S101 - picked
            g.emit(LendOffered(lender=seat, borrower=borrower.seat, character=via, price=price.amount))
            g.pop()
            g.push(LendFrame(lender=seat, borrower=borrower.seat, character=via, price=price.amount))
            return
        if f.via == "lend":
            lender = f.lender
            assert lender is not None  # noqa: S101 - a lent send names its lender
            lend_frame = g.stack[-2]
            price = lend_frame.price
            if price:
                g.coins[seat] -= price
                g.coins[lender] += price
                g.emit(CoinsGiven(seat=seat, to=lender, amount=price, reason=Reason.LEND))
            g.emit(LendAnswered(borrower=seat, accepted=True))
        if via not in g.acted:
            g.acted.append(via)
        target = _item(f, "target")
        subject = _item(f, "subject")
        seat_pick = _item(f, "seat")
        land_pick = _item(f, "land")
        g.emit(
            ActionTaken(
                seat=seat,
                character=via,
                action=action,
                rider=bool(first.rider),
                target=(target.character if target else None) or (subject.character if subject else None),
                land=land_pick.land if land_pick else None,
                to=seat_pick.seat if seat_pick else None,
            )
        )
        if (first.rider or action is CharAction.HILLS) and g.remove(seat, 1, Reason.HILLS, character=via):
            g.gain(seat, HILLS_COINS, Reason.HILLS)
        g.pop("sent" if f.via == "lend" else "main")
        if action is CharAction.MOVE_MILITARY:
            for src, dst in self._moves(f):
                g.military[g.pos[src]] -= 1
                g.military[g.pos[dst]] += 1
                g.emit(MilitaryMoved(source=src, dest=dst))
        elif action is CharAction.BLESS:
            assert land_pick is not None and land_pick.land is not None  # noqa: S101 - picked
            g.place(seat, 1, Reason.BLESS, land=land_pick.land)
        elif action is CharAction.GRANT:
            assert seat_pick is not None and seat_pick.seat is not None  # noqa: S101 - picked
            g.gain(seat_pick.seat, TREASURER_GRANT, Reason.GRANT)
        elif action is CharAction.REMOVE_HEAD:
            assert subject is not None  # noqa: S101 - picked
            g.push(VoteFrame(vote=VoteKind.REMOVE_HEAD, caller=seat, via=via, subject=subject.character))
        elif action is CharAction.REMOVE_COUNCILLOR:
            assert subject is not None  # noqa: S101 - picked
            g.push(VoteFrame(vote=VoteKind.REMOVE_COUNCILLOR, caller=seat, via=via, subject=subject.character))
        elif action is CharAction.ELECTION:
            g.push(ElectionFrame(seat=seat, character=via))
        elif action is CharAction.SEND:
            card = _item(f, "card")
            mode = _item(f, "mode")
            source_pick = _item(f, "source")
            assert card is not None and card.card is not None and target is not None  # noqa: S101 - picked
            assert target.character is not None  # noqa: S101 - picked
            if target.character == via:
                source = "reserve"
            elif source_pick is not None:
                source = "character" if source_pick.option is Option.FROM_CHARACTER else "land"
            else:
                source = "character" if _marker_sources(g, seat, via)[0] is Option.FROM_CHARACTER else "land"
            send_card(g, seat, via, card.card, target.character, source, mode.mode if mode else None)
        elif action is CharAction.RIVER_PLAY:
            card = _item(f, "card")
            mode = _item(f, "mode")
            extra = _item(f, "extra")
            target_card = _item(f, "target_card")
            assert card is not None and card.card is not None  # noqa: S101 - picked
            assert target is not None and target.character is not None  # noqa: S101 - picked
            g.push(
                RiverFrame(
                    seat=seat,
                    card=card.card,
                    target=target.character,
                    mode=mode.mode if mode else None,
                    extra=extra.amount or 0 if extra else 0,
                    target_card=target_card.card if target_card else None,
                )
            )

    @override
    def default(self, g: Game, f: ActFrame, seat: Seat) -> Any:
        return {"slot": PASS, "contest": SKIP, "lend": DECLINE}[f.via]

    @override
    def pending(self, g: Game, f: ActFrame) -> PendingView:
        decision = Decision.LEND_OFFER if f.via == "lend" else Decision.SLOT
        return pending(decision, [f.seat], step="act", actor=f.seat, character=f.character)

    @override
    def draft(self, g: Game, f: ActFrame, seat: Seat) -> DraftView | None:
        decision = Decision.LEND_OFFER if f.via == "lend" else Decision.SLOT
        return DraftView(decision=decision, step=self._step(g, f) or "done", items=tuple(f.draft))


# ----------------------------------------------------------------------------- contests and lending
@register("contest")
class ContestRules(Rules):
    """A contest for a neutral head (D11): sealed all-pay bids of land tokens (§7.5)."""

    interrupt = True

    @override
    def run(self, g: Game, f: ContestFrame) -> bool:
        if f.stage == 0:
            g.emit(ContestCalled(seat=f.seat, character=f.character))
            f.stage = 1
        if self.active(g, f):
            return True
        land = g.land_of(f.character)
        assert land is not None  # noqa: S101 - contests are for heads
        bids = {f.seat: f.bid, **f.subs}
        for seat in sorted(bids):
            g.remove(seat, bids[seat], Reason.BID, land=land)
        if f.character not in g.acted:
            g.acted.append(f.character)
        top = max(bids.values())
        best = [s for s, b in bids.items() if b == top]
        winner = best[0] if len(best) == 1 else None
        g.emit(ContestResolved(character=f.character, bids=tuple(sorted(bids.items())), winner=winner))
        g.pop("main")
        if winner is not None:
            g.push(ActFrame(seat=winner, character=f.character, via="contest"))
        return False

    @override
    def active(self, g: Game, f: ContestFrame) -> list[Seat]:
        return [s for s in f.bidders if s not in f.subs]

    @override
    def legal(self, g: Game, f: ContestFrame, seat: Seat) -> list[Any]:
        land = g.land_of(f.character)
        assert land is not None  # noqa: S101 - contests are for heads
        return [PickAmount(amount=b) for b in range(g.land_row(land)[seat] + 1)]

    @override
    def act(self, g: Game, f: ContestFrame, seat: Seat, action: Any) -> None:
        f.subs[seat] = action.amount
        g.emit(SubmissionReceived(seat=seat, decision=Decision.CONTEST_BID))

    @override
    def default(self, g: Game, f: ContestFrame, seat: Seat) -> Any:
        return PickAmount(amount=0)

    @override
    def pending(self, g: Game, f: ContestFrame) -> PendingView:
        return pending(
            Decision.CONTEST_BID,
            self.active(g, f),
            step="bid",
            actor=f.seat,
            character=f.character,
            submitted=tuple(sorted(f.subs)),
        )

    @override
    def submission(self, g: Game, f: ContestFrame, seat: Seat) -> DraftView | None:
        if seat == f.seat:
            items = (DraftItem(step="bid", amount=f.bid),)
        elif seat in f.subs:
            items = (DraftItem(step="bid", amount=f.subs[seat]),)
        else:
            return None
        return DraftView(decision=Decision.CONTEST_BID, step="submitted", items=items)


@register("lend")
class LendRules(Rules):
    """A lend offer (D12): the borrower accepts (and picks its send) or declines (§7.4)."""

    interrupt = True

    @override
    def run(self, g: Game, f: LendFrame) -> bool:
        if f.answer == "sent":
            g.pop("main")
            return False
        if f.answer == "declined_now":
            g.emit(LendAnswered(borrower=f.borrower, accepted=False))
            g.pop("declined")
            return False
        f.answer = None
        return True

    @override
    def active(self, g: Game, f: LendFrame) -> list[Seat]:
        return [f.borrower]

    @override
    def legal(self, g: Game, f: LendFrame, seat: Seat) -> list[Any]:
        out: list[Any] = []
        if g.coins[seat] >= f.price and any(send_targets(g, seat, f.character, h.merc) for h in g.hands[seat]):
            out.append(Choose(option=Option.ACCEPT))
        out.append(Choose(option=Option.DECLINE))
        return out

    @override
    def act(self, g: Game, f: LendFrame, seat: Seat, action: Any) -> None:
        if action.option is Option.DECLINE:
            g.emit(LendAnswered(borrower=seat, accepted=False))
            g.pop("declined")
            return
        first = DraftItem(step="action", action=CharAction.SEND)
        g.push(ActFrame(seat=seat, character=f.character, via="lend", lender=f.lender, draft=[first]))

    @override
    def default(self, g: Game, f: LendFrame, seat: Seat) -> Any:
        return Choose(option=Option.DECLINE)

    @override
    def pending(self, g: Game, f: LendFrame) -> PendingView:
        return pending(
            Decision.LEND_OFFER, [f.borrower], step="lend", actor=f.lender, character=f.character, amount=f.price
        )


@register("river")
class RiverRules(Rules):
    """Речная Подкова consent (D18): the target's controller, or sealed bids of its tied-top players."""

    interrupt = True

    @override
    def run(self, g: Game, f: RiverFrame) -> bool:
        if f.stage == 0:
            g.emit(RiverPlayed(seat=f.seat, target=f.target))
            controller = g.controller(f.target)
            f.stage = 1
            if controller == f.seat:
                return self._consent(g, f)
            if controller is not None:
                f.bidders = [controller]
            else:
                tied = g.tied_top(f.target)
                if tied and g.land_of(f.target) is not None:
                    f.bidders = tied
                    f.sealed = True
            if not f.bidders:
                g.emit(RiverAnswered(consent=False))
                g.pop()
                return False
        if self.active(g, f):
            return True
        if not f.sealed:
            consent = f.subs[f.bidders[0]][0].option is Option.CONSENT
            g.emit(RiverAnswered(consent=consent, by=f.bidders[0]))
        else:
            land = g.land_of(f.target)
            bids: list[tuple[int, int, bool]] = []
            for seat in f.bidders:
                items = f.subs[seat]
                bid = items[0].amount or 0 if items else 0
                yes = len(items) > 1 and items[1].option is Option.CONSENT
                if land is not None:
                    bid = g.remove(seat, bid, Reason.BID, land=land)
                bids.append((seat, bid, yes))
            top = max(b for _, b, _ in bids)
            best = [x for x in bids if x[1] == top]
            consent = len(best) == 1 and best[0][2]
            g.emit(RiverAnswered(consent=consent, bids=tuple(bids)))
        if consent:
            return self._consent(g, f)
        g.pop()
        return False

    def _consent(self, g: Game, f: RiverFrame) -> bool:
        g.pop()
        card = g.hand_card(f.seat, f.card)
        if card is None or not g.in_office(f.target):
            return False
        target_card = g.find_card(f.target_card) if f.target_card else None
        if card.merc in (MercType.SPY, MercType.THIEF) and (target_card is None or target_card.character != f.target):
            return False
        # On the board under a new id, like a sent card: the hand id stays the owner's.
        board_id = g.face_down_id(card)
        g.hands[f.seat].remove(card)
        played = FaceDown(
            id=board_id, owner=f.seat, merc=card.merc, mode=f.mode, character=f.target, turn_placed=g.turn
        )
        record_reveal(g, played, RevealHow.RIVER, f.seat)
        if target_card is not None and card.merc in (MercType.SPY, MercType.THIEF):
            g.take_card(target_card.id)
            how = RevealHow.SPY if card.merc is MercType.SPY else RevealHow.THIEF
            record_reveal(g, target_card, how, f.seat, agent=board_id)
            g.push(RevealFrame(how=how, card=target_card, agent=played, by=f.seat, river=True))
        else:
            g.push(RevealFrame(how=RevealHow.RIVER, card=played, by=f.seat, extra=f.extra, river=True))
        return False

    @override
    def active(self, g: Game, f: RiverFrame) -> list[Seat]:
        return [s for s in f.bidders if s not in f.subs]

    @override
    def legal(self, g: Game, f: RiverFrame, seat: Seat) -> list[Any]:
        answers = [Choose(option=Option.CONSENT), Choose(option=Option.REFUSE)]
        if not f.sealed:
            return answers
        draft = f.drafts.get(seat, [])
        if not draft:
            land = g.land_of(f.target)
            assert land is not None  # noqa: S101 - sealed consent is for heads
            return [PickAmount(amount=b) for b in range(g.land_row(land)[seat] + 1)]
        return [*answers, BACK]

    @override
    def act(self, g: Game, f: RiverFrame, seat: Seat, action: Any) -> None:
        if not f.sealed:
            f.subs[seat] = [DraftItem(step="answer", option=action.option)]
            return
        draft = f.drafts.setdefault(seat, [])
        if action == BACK:
            draft.pop()
        elif isinstance(action, PickAmount):
            draft.append(DraftItem(step="bid", amount=action.amount))
        else:
            draft.append(DraftItem(step="answer", option=action.option))
            f.subs[seat] = list(draft)
            g.emit(SubmissionReceived(seat=seat, decision=Decision.RIVER_CONSENT))

    @override
    def default(self, g: Game, f: RiverFrame, seat: Seat) -> Any:
        if f.sealed and not f.drafts.get(seat):
            return PickAmount(amount=0)
        return Choose(option=Option.REFUSE)

    @override
    def pending(self, g: Game, f: RiverFrame) -> PendingView:
        return pending(
            Decision.RIVER_CONSENT,
            self.active(g, f),
            step="consent",
            actor=f.seat,
            target=f.target,
            character=f.target,
            submitted=tuple(sorted(f.subs)),
        )

    @override
    def draft(self, g: Game, f: RiverFrame, seat: Seat) -> DraftView | None:
        if seat in f.subs or seat not in f.bidders:
            return None
        items = tuple(f.drafts.get(seat, []))
        step = "bid" if f.sealed and not items else "answer"
        return DraftView(decision=Decision.RIVER_CONSENT, step=step, items=items)

    @override
    def submission(self, g: Game, f: RiverFrame, seat: Seat) -> DraftView | None:
        if seat not in f.subs or not f.sealed:
            return None
        return DraftView(decision=Decision.RIVER_CONSENT, step="submitted", items=tuple(f.subs[seat]))


# ----------------------------------------------------------------------------- lands II
@register("lands_two")
class LandsTwoRules(Rules):
    """Lands II (§8): W4, the Долина Стрел tax, tax, garrison reveals, the turn limit."""

    @override
    def run(self, g: Game, f: LandsTwoFrame) -> bool:
        if f.stage == 0:
            f.stage = 1
            g.push(WindowFrame(window=Window.W4))
        elif f.stage == 1:
            f.stage = 3
            g.vale_tax = 1
            if VALE_OF_ARROWS in g.pos:
                marshal = g.controller(g.council[MARSHAL])
                if marshal is not None:
                    f.stage = 2
                    g.push(AmountFrame(seat=marshal, decision=Decision.VALE_TAX, amounts=[1, 2], default=1))
                else:
                    g.emit(TaxDeclared(seat=None, amount=1))
        elif f.stage == 2:
            g.vale_tax = int(f.answer or 1)
            f.answer = None
            g.emit(TaxDeclared(seat=g.controller(g.council[MARSHAL]), amount=g.vale_tax))
            f.stage = 3
        elif f.stage == 3:
            self._tax(g)
            f.stage = 4
        elif f.stage == 4:
            if f.pos >= len(g.lands):
                f.stage = 5
                return False
            land = g.lands[f.pos]
            f.pos += 1
            head = g.head_of(land)
            if head is None:
                return False
            p = g.pos[land]
            if land == MISTY_VALE:
                revealer, k = g.holder(land)[0], g.military[p]
            else:
                revealer, k = g.controller(head), g.military[p] // 2
            if revealer is None or k <= 0:
                return False
            if any(c.character == head and c.owner != revealer for c in g.cards):
                g.push(GarrisonFrame(land=land, seat=revealer, left=k))
        else:
            if g.turn >= g.max_turns:
                finish(g, Victory.TURN_LIMIT, None)
            else:
                g.pop()
        return False

    def _tax(self, g: Game) -> None:
        for land in g.lands:
            holder, contested = g.holder(land)
            rate = (g.vale_tax or 1) if land == VALE_OF_ARROWS else 1
            payers = [(holder, rate)] if holder is not None else [(s, 1) for s in contested]
            for seat, amount in payers:
                if g.coins[seat] >= amount:
                    g.pay(seat, amount, Reason.TAX, land)
                    continue
                g.emit(TaxDefaulted(seat=seat, land=land, amount=amount))
                g.remove(seat, 1, Reason.TAX_DEFAULT, land=land, forced=True)
                head = g.head_of(land)
                if head is not None:
                    g.remove(seat, 1, Reason.TAX_DEFAULT, character=head, forced=True)


@register("garrison")
class GarrisonRules(Rules):
    """A garrison reveal (D20): up to k other players' face-down cards on a head, one by one (§8.3)."""

    def _cards(self, g: Game, f: GarrisonFrame) -> list[FaceDown]:
        head = g.head_of(f.land)
        return [c for c in g.cards if c.character == head and c.owner != f.seat]

    @override
    def run(self, g: Game, f: GarrisonFrame) -> bool:
        if f.left > 0 and self._cards(g, f) and f.answer != "done":
            return True
        g.pop()
        return False

    @override
    def active(self, g: Game, f: GarrisonFrame) -> list[Seat]:
        return [f.seat]

    @override
    def legal(self, g: Game, f: GarrisonFrame, seat: Seat) -> list[Any]:
        return [*(PickCard(card=c.id) for c in self._cards(g, f)), DONE]

    @override
    def act(self, g: Game, f: GarrisonFrame, seat: Seat, action: Any) -> None:
        if action == DONE:
            f.answer = "done"
            return
        card = g.take_card(action.card)
        f.left -= 1
        f.draft.append(DraftItem(step="card", card=card.id))
        record_reveal(g, card, RevealHow.GARRISON, seat)
        g.push(RevealFrame(how=RevealHow.GARRISON, card=card, by=seat))

    @override
    def default(self, g: Game, f: GarrisonFrame, seat: Seat) -> Any:
        return DONE

    @override
    def pending(self, g: Game, f: GarrisonFrame) -> PendingView:
        return pending(
            Decision.GARRISON,
            [f.seat],
            step="garrison",
            actor=f.seat,
            land=f.land,
            character=g.head_of(f.land),
            picks_left=f.left,
        )


# ----------------------------------------------------------------------------- the Рука порядка ending
@register("end")
class EndRules(Rules):
    """The fifth kill (§12.4): fill every seat, pick the Representative, rank by the score vector."""

    interrupt = True

    @override
    def run(self, g: Game, f: EndFrame) -> bool:
        if f.stage == 0:
            f.stage = 1
            g.push(VacancyFrame())
        elif f.stage == 1:
            f.stage = 2
            if g.head_characters():
                g.push(RepresentativeFrame())
        else:
            finish(g, Victory.HAND_OF_ORDER, None)
        return False
