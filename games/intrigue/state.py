"""The full state of an «Интриги» table, hidden cards and sealed choices included.

Only the engine reads this model; everything shown to a person or an AI goes through
``IntrigueEngine.view``. Arrays are indexed by seat, by land *position* (``lands[i]`` is the land id
at position ``i``, in id order) or by ``character - 1``.

The flow of play is a stack of **frames** (``stack``, last = innermost): each frame is one procedure
in progress — a phase, a window, a vote, a reveal being resolved, an interrupt — with its stage and
the sub-decisions gathered so far. The engine's driver runs the innermost frame until some seat must
decide. Frames are mutable working models inside one ``apply`` (the driver deep-copies them first)
and frozen data between actions.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.core.models import BaseState, Model, Seat
from games.intrigue.models import (
    Decision,
    DraftItem,
    MercType,
    Mode,
    Option,
    Phase,
    ResultView,
    RevealedView,
    RevealHow,
    VoteKind,
    Window,
)


class FaceDown(Model):
    """A face-down mercenary on a character; ``mode`` only for messengers."""

    id: str
    owner: Seat
    merc: MercType
    mode: Mode | None = None
    character: int
    turn_placed: int


class HandCard(Model):
    """A card in hand; discarded at the end of turn ``expires_turn``'s Characters phase if unsent."""

    id: str
    merc: MercType
    expires_turn: int


# ----------------------------------------------------------------------------- frames
class Frame(BaseModel):
    """A procedure in progress. ``answer`` receives the value a child frame returns."""

    model_config = ConfigDict(extra="forbid", validate_assignment=False)

    stage: int = 0
    answer: str | int | None = None


class PlacementFrame(Frame):
    """Setup placement (§2 step 5): ``prompts`` (seat, tokens) in snake order."""

    kind: Literal["placement"] = "placement"
    prompts: list[tuple[int, int]]
    index: int = 0
    placed: int = 0


class TurnFrame(Frame):
    """One turn: the five phases in order."""

    kind: Literal["turn"] = "turn"


class SpiesFrame(Frame):
    """Spies & Thieves (§4): the RSP loop; ``cur`` indexes ``order``; ``draft`` the current pick."""

    kind: Literal["spies"] = "spies"
    order: list[int]
    out: list[int] = Field(default_factory=list)
    cur: int = 0
    draft: list[DraftItem] = Field(default_factory=list)


class WindowFrame(Frame):
    """A window of free actions (§3.3)."""

    kind: Literal["window"] = "window"
    window: Window
    done: list[int] = Field(default_factory=list)
    opened: bool = False


class LandsOneFrame(Frame):
    """Lands I (§5)."""

    kind: Literal["lands_one"] = "lands_one"


class GrowthFrame(Frame):
    """Sealed growth choices (D8): ``choices[seat]`` lands it may grow; ``subs[seat]`` (0 = none)."""

    kind: Literal["growth"] = "growth"
    choices: dict[int, list[int]]
    subs: dict[int, int] = Field(default_factory=dict)


class InvestFrame(Frame):
    """Investments (§6): ``order`` poorest first; ``basket`` of the seat at ``index``."""

    kind: Literal["invest"] = "invest"
    order: list[int]
    index: int = 0
    basket: list[DraftItem] = Field(default_factory=list)


class CharactersFrame(Frame):
    """Characters (§7): ``pos`` counts slots; ``idle`` the seats with a slot and no main action since the last one."""

    kind: Literal["characters"] = "characters"
    pos: int = 0
    idle: list[int] = Field(default_factory=list)


class SlotFrame(Frame):
    """One action slot's main choice (D10) of ``seat``; ``no_lend`` after a declined lend."""

    kind: Literal["slot"] = "slot"
    seat: int
    no_lend: bool = False
    started: bool = False
    contest: int | None = None


class ActFrame(Frame):
    """Choosing and resolving one character action.

    ``via``: ``slot`` (the controller, may go Back to the slot), ``contest`` (the contest winner; no
    lend; Skip = no action) or ``lend`` (the borrower's send, after accepting). ``draft`` holds the
    picks so far.
    """

    kind: Literal["act"] = "act"
    seat: int
    character: int
    via: Literal["slot", "contest", "lend"]
    draft: list[DraftItem] = Field(default_factory=list)
    lender: int | None = None
    no_lend: bool = False


class ContestFrame(Frame):
    """A contest for neutral head ``character`` (§7.5): sealed bids ``subs`` of ``bidders``."""

    kind: Literal["contest"] = "contest"
    seat: int
    character: int
    bid: int
    bidders: list[int]
    subs: dict[int, int] = Field(default_factory=dict)


class LendFrame(Frame):
    """A lend offer (D12): the borrower answers; accepting pushes the borrower's send."""

    kind: Literal["lend"] = "lend"
    lender: int
    borrower: int
    character: int
    price: int


class RiverFrame(Frame):
    """A Речная Подкова direct play waiting for consent (D18)."""

    kind: Literal["river"] = "river"
    seat: int
    card: str
    target: int
    mode: Mode | None = None
    extra: int = 0
    target_card: str | None = None
    sealed: bool = False
    bidders: list[int] = Field(default_factory=list)
    drafts: dict[int, list[DraftItem]] = Field(default_factory=dict)
    subs: dict[int, list[DraftItem]] = Field(default_factory=dict)


class Commitment(BaseModel):
    """A sway commitment: advice (``head`` set, worth 1) or a stake (``amount`` land tokens)."""

    model_config = ConfigDict(extra="forbid")

    seat: int
    voter: int
    head: int | None = None
    amount: int = 1
    choice: str


class VoteFrame(Frame):
    """A vote (§11). ``votes`` maps voter → cast vote; ``how`` how it was cast; ``tallies`` sway.

    Vote values are strings: ``for`` / ``against`` / ``abstain`` / ``none`` (did not vote) or a
    candidate's character id. Stages: 0 call, 1 W3, 2 fix voters, 3 ballots, 4 reveal, 5 Сапфировые
    Озёра, 6 sway rounds, 7 resolve.
    """

    kind: Literal["vote"] = "vote"
    vote: VoteKind
    caller: int | None = None
    via: int | None = None
    subject: int | None = None
    council: str | None = None
    voters: list[int] = Field(default_factory=list)
    candidates: list[int] = Field(default_factory=list)
    participants: list[int] = Field(default_factory=list)
    drafts: dict[int, list[DraftItem]] = Field(default_factory=dict)
    subs: dict[int, list[DraftItem]] = Field(default_factory=dict)
    votes: dict[int, str] = Field(default_factory=dict)
    cast_by: dict[int, int] = Field(default_factory=dict)
    how: dict[int, str] = Field(default_factory=dict)
    tallies: dict[int, dict[str, int]] = Field(default_factory=dict)
    neutral: list[int] = Field(default_factory=list)
    tied: dict[int, list[int]] = Field(default_factory=dict)
    used_heads: list[int] = Field(default_factory=list)
    sway_round: int = 0
    revealed: bool = False
    sapphire_seat: int | None = None
    sapphire_draft: list[DraftItem] = Field(default_factory=list)
    removed_controller: int | None = None


class ElectionFrame(Frame):
    """An election call (§12.1): W3, then the check."""

    kind: Literal["election"] = "election"
    seat: int
    character: int


class LandsTwoFrame(Frame):
    """Lands II (§8): ``pos`` is the garrison step's land position."""

    kind: Literal["lands_two"] = "lands_two"
    pos: int = 0


class GarrisonFrame(Frame):
    """A garrison reveal (D20) on ``land``'s head by ``seat``, up to ``left`` more cards."""

    kind: Literal["garrison"] = "garrison"
    land: int
    seat: int
    left: int
    draft: list[DraftItem] = Field(default_factory=list)


class AskFrame(Frame):
    """A one-seat named-answer interrupt (D5, D6, D7, D12-style); the answer goes to the parent."""

    kind: Literal["ask"] = "ask"
    seat: int
    decision: Decision
    options: list[Option]
    default: Option
    card: str | None = None
    merc: MercType | None = None
    character: int | None = None


class AmountFrame(Frame):
    """A one-seat amount choice (the Долина Стрел tax, D19); the answer goes to the parent."""

    kind: Literal["amount"] = "amount"
    seat: int
    decision: Decision
    amounts: list[int]
    default: int


class GuardFrame(Frame):
    """Guard responses (D4, sealed): ``subs[seat]`` is a guard card id or ``""`` (no)."""

    kind: Literal["guard"] = "guard"
    character: int
    against: str
    eligible: list[int]
    subs: dict[int, str] = Field(default_factory=dict)


class PenaltyFrame(Frame):
    """The guarded-assassin penalty (D17): ``seat`` picks up to ``picks`` characters."""

    kind: Literal["penalty"] = "penalty"
    seat: int
    picks: int
    picked: list[int] = Field(default_factory=list)


class PickFrame(Frame):
    """A one-seat character choice (D16): an appointee or a tie-break; the answer goes to the parent."""

    kind: Literal["pick"] = "pick"
    seat: int
    decision: Decision
    candidates: list[int]
    default: int
    land: int | None = None
    council: str | None = None


class VacancyFrame(Frame):
    """Fills every vacant seat (§10.3): council seats first, then heads in land order."""

    kind: Literal["vacancy"] = "vacancy"
    tried: list[str] = Field(default_factory=list)
    chooser: dict[int, int] = Field(default_factory=dict)  # land → seat (Дальний Гарнизон after a vote)
    current: str | None = None
    current_by: int | None = None


class RevealFrame(Frame):
    """A revealed card being resolved (§9): ``card`` by ``how``; ``agent`` the spy/thief card."""

    kind: Literal["reveal"] = "reveal"
    how: RevealHow
    card: FaceDown
    by: int
    agent: FaceDown | None = None
    extra: int = 0
    river: bool = False
    recruited: bool = False


class RepresentativeFrame(Frame):
    """The Representative selection (§7.1); ``tied`` land positions left for the Appointer."""

    kind: Literal["representative"] = "representative"
    tied: list[int] = Field(default_factory=list)


class EndFrame(Frame):
    """The Рука порядка ending (§12.4): fill all seats, pick the Representative, rank."""

    kind: Literal["end"] = "end"


AnyFrame = Annotated[
    PlacementFrame
    | TurnFrame
    | SpiesFrame
    | WindowFrame
    | LandsOneFrame
    | GrowthFrame
    | InvestFrame
    | CharactersFrame
    | SlotFrame
    | ActFrame
    | ContestFrame
    | LendFrame
    | RiverFrame
    | VoteFrame
    | ElectionFrame
    | LandsTwoFrame
    | GarrisonFrame
    | AskFrame
    | AmountFrame
    | GuardFrame
    | PenaltyFrame
    | PickFrame
    | VacancyFrame
    | RevealFrame
    | RepresentativeFrame
    | EndFrame,
    Field(discriminator="kind"),
]


class IntrigueState(BaseState):
    """Everything about a table.

    Invariants: a character is in at most one of ``heads``, ``council`` (the representative is also a
    head), ``dead``; characters elsewhere are in the pool. ``supply[i]`` counts the cards of
    ``SUPPLY_ORDER[i]`` in the face-down supply (hidden from everyone). ``used`` holds once-per-turn
    marks (``golden_coast``, ``brown_plains``, ``sapphire``, ``woods:<seat>``).
    """

    lands: tuple[int, ...]
    max_turns: int
    turn: int = 0
    phase: Phase = Phase.SETUP
    coins: tuple[int, ...]
    peaceful: tuple[int, ...]
    military: tuple[int, ...]
    land_tokens: tuple[tuple[int, ...], ...]
    char_tokens: tuple[tuple[int, ...], ...]
    heads: tuple[int | None, ...]
    council: tuple[int | None, ...]
    representative: int | None = None
    dead: tuple[int, ...] = ()
    dismissed: tuple[int, ...] = ()
    acted: tuple[int, ...] = ()
    cards: tuple[FaceDown, ...] = ()
    hands: tuple[tuple[HandCard, ...], ...]
    supply: tuple[int, ...]
    next_card: int = 1
    kills: int = 0
    leaders: tuple[int | None, ...]
    grown: tuple[int, ...] = ()
    hired: tuple[int, ...]
    used: tuple[str, ...] = ()
    vale_tax: int | None = None
    order: tuple[int, ...] = ()
    passed: tuple[int, ...] = ()
    resigned: tuple[int, ...] = ()
    reveals: tuple[RevealedView, ...] = ()
    ending: bool = False
    stack: tuple[AnyFrame, ...] = ()
    result: ResultView | None = None


#: The supply's type order (``IntrigueState.supply``).
SUPPLY_ORDER: tuple[MercType, ...] = (
    MercType.ASSASSIN,
    MercType.THIEF,
    MercType.SPY,
    MercType.GUARD,
    MercType.MESSENGER,
)
