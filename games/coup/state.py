"""The full state of a Переворот (Coup) table, hidden cards included.

Only the engine reads this model; everything shown to a person or an AI goes through
``CoupEngine.view``. The court deck is a tuple whose index 0 is the top card.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from games.core.models import BaseState, Model, Seat
from games.coup.models import ActionKind, Card, Phase


class PendingAction(Model):
    """The declared action being resolved.

    ``cost`` is what the actor already paid; ``proven`` is set once the claim survived a
    challenge, after which it can no longer be challenged.
    """

    kind: ActionKind
    actor: Seat
    target: Seat | None = None
    claim: Card | None = None
    cost: int = 0
    proven: bool = False


class PendingBlock(Model):
    """A block of the pending action, claiming ``card``."""

    blocker: Seat
    card: Card


class PendingChallenge(Model):
    """A challenge waiting for the claimant to prove or concede."""

    challenger: Seat
    claimant: Seat
    card: Card
    against: Literal["action", "block"]


class AfterLoss(StrEnum):
    """What the table does once the pending influence loss is resolved."""

    END_TURN = "end_turn"  # the action is over (coup, failed claim, assassination done)
    ACTION_PROVEN = "action_proven"  # a challenger lost: the proven action goes on (target may still block)
    BLOCK_STANDS = "block_stands"  # a challenger of a block lost: the block stops the action
    RESOLVE_ACTION = "resolve_action"  # a caught bluffed block: the action resolves


class CoupState(BaseState):
    """Everything about a table, hidden cards included.

    Invariants: ``hands[s]`` are the face-down cards of ``s`` (empty once out, and during the draft
    until ``s`` picks); ``eliminated`` lists seats in the order they went out; ``responders`` are the
    seats still to answer the open response window, in turn order; ``drawn`` holds the two cards of
    an exchange in progress; during the draft ``deck`` holds the third set of five characters.
    ``stacked`` tables never shuffle: returned cards go to the bottom of the deck.
    """

    first_seat: Seat
    stacked: bool = False
    draft: bool = False
    phase: Phase
    turn: Seat
    forced_coup: bool = False
    coins: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    revealed: tuple[tuple[Card, ...], ...]
    deck: tuple[Card, ...]
    action: PendingAction | None = None
    block: PendingBlock | None = None
    challenge: PendingChallenge | None = None
    responders: tuple[Seat, ...] = ()
    losing: Seat | None = None
    after_loss: AfterLoss | None = None
    drawn: tuple[Card, ...] = ()
    eliminated: tuple[Seat, ...] = ()
    winner: Seat | None = None
