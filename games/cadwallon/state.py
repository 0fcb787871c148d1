"""The full state of a «Гильдии Кадвалона» table, hidden cards included.

Only the engine reads this model; everything shown to a person or an AI goes through
``CadwallonEngine.view``. Slots and boulevards are engine indices here (:mod:`games.cadwallon.board`);
the deck and the reserve are tuples whose index 0 is the top card.
"""

from __future__ import annotations

from games.cadwallon.models import CaptureView, EndReason, Phase, ScoreBreakdown, TurnStep
from games.core.models import BaseState, Model, Seat


class Agent(Model):
    """A placed agent: round-local ``id``, figure ``owner`` and ``boulevard`` index.

    ``turned``: Double Agent (A15) turned it this round, so its support counts for nobody (revision 5);
    otherwise it supports its owner.
    """

    id: int
    owner: Seat
    boulevard: int
    turned: bool = False


class Mark(Model):
    """A this-round marker of action ``card`` played by ``seat`` on the grid card ``target`` (moves with it)."""

    card: str
    seat: Seat
    target: str


class Pending(Model):
    """An action card of the turn seat whose targets are being chosen; nothing is committed yet.

    ``slot`` (A01/A11 first card), ``agent`` (A05/A18/A22 first agent) and ``militia`` (A23) hold
    the first choice of a two-target card.
    """

    card: str
    slot: int | None = None
    agent: int | None = None
    militia: str | None = None


class CadwallonState(BaseState):
    """Everything about a table.

    Invariants:

    * every district card in play is exactly once in ``slots``, ``deck``, ``reserve``, ``hands``,
      ``captured``, ``played`` or ``tarot``;
    * in phase ``deploy`` every slot holds a card, ``turn`` is the active seat and ``step`` its step;
      ``pending`` only in step ``act``, ``tarot`` (the peeked cards, top first, out of the deck) only
      in step ``tarot``;
    * ``supply[s] + (agents of s on the board) == agents_per_player`` during a round, for seats not
      resigned (resigned seats have neither);
    * ``played`` holds every action card played, per seat; ``round_plays`` this round's, in order;
    * ``stacked`` tables never shuffle (tests).
    """

    grid: int
    expansion: bool
    conditions: bool = False
    condition: str | None = None
    contracts_on: bool = False
    starting_action: bool = False
    stacked: bool = False
    phase: Phase
    round: int
    first_seat: Seat
    #: Round 1's First Player (the seat allowance counts places from it); ``None`` on tables set up
    #: before revision 2, which get no allowance.
    opening_seat: Seat | None = None
    turn: Seat | None = None
    step: TurnStep | None = None
    played_this_turn: bool = False
    slots: tuple[str | None, ...]
    deck: tuple[str, ...]
    reserve: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    contracts: tuple[str | None, ...]
    agents_per_player: int
    supply: tuple[int, ...]
    agents: tuple[Agent, ...] = ()
    next_agent: int = 0
    barricade: int | None = None
    marks: tuple[Mark, ...] = ()
    captured: tuple[tuple[str, ...], ...]
    played: tuple[tuple[str, ...], ...]
    round_plays: tuple[tuple[Seat, str], ...] = ()
    actions_closed: bool = False
    favour: Seat | None = None
    protected: tuple[Seat, ...] = ()
    pending: Pending | None = None
    tarot: tuple[str, ...] = ()
    revealed: str | None = None
    stalled_rounds: int = 0
    last_capture: tuple[CaptureView, ...] = ()
    last_capture_round: int | None = None
    resigned: tuple[Seat, ...] = ()
    end_reason: EndReason | None = None
    result: tuple[ScoreBreakdown, ...] | None = None
    scores: tuple[int, ...] | None = None
    ranks: tuple[int, ...] | None = None
