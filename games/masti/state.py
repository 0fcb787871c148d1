"""The full state of a «Масти Власти» table, hidden cards included.

Only the engine reads this model; everything shown to a person or an AI goes through
``MastiEngine.view``. Card ids are the plain strings of :data:`games.masti.models.CardId`; the
trump deck is a tuple whose index 0 is the next card to reveal.
"""

from __future__ import annotations

from games.core.models import BaseState, Seat
from games.masti.models import Mode, Phase, PlayView, RoundResultView, ScoreBreakdown


class MastiState(BaseState):
    """Everything about a table.

    Invariants:

    * ``hands``, the trump deck, the trump card, this round's ``plays``, the ``won`` cards, the
      ``left`` stack and (during 6-player seeding) the ``seeded`` cards hold the 52 cards once each;
    * for a seat still in the game at the start of round ``r``:
      ``len(hands[s]) + bribe_gems[s] == max_rounds - (r - 1)``;
    * ``order`` is the seats acting this round, the lead first; ``turn == order[len(plays)]`` in
      phase ``play``; ``winner`` is the last round's winner (it leaves a card in phase ``leave``);
    * ``seeded[s]`` is the card seat ``s`` added to the 6-player trump deck (``None``: not a
      9-card player, or not yet chosen); ``seeders`` are the 9-card players;
    * ``deck_public``: the set of trump-deck cards is public (a rebuilt 6-player deck);
    * ``resigned`` lists withdrawn seats in the order they left; they are played by the engine.
    * ``stacked`` tables never shuffle.
    """

    mode: Mode
    teams: tuple[tuple[Seat, ...], ...] | None = None
    first_seat: Seat
    stacked: bool = False
    phase: Phase
    round: int
    max_rounds: int
    hands: tuple[tuple[str, ...], ...]
    bribe_gems: tuple[int, ...]
    wealth_gems: tuple[int, ...]
    won: tuple[tuple[str, ...], ...]
    out: tuple[bool, ...]
    trump: str | None = None
    trump_deck: tuple[str, ...] = ()
    deck_public: bool = False
    left: tuple[str, ...] = ()
    seeders: tuple[Seat, ...] = ()
    seeded: tuple[str | None, ...] = ()
    leader: Seat
    order: tuple[Seat, ...] = ()
    plays: tuple[PlayView, ...] = ()
    turn: Seat | None = None
    winner: Seat | None = None
    just_taken: tuple[str, ...] = ()
    last_round: RoundResultView | None = None
    resigned: tuple[Seat, ...] = ()
    result: tuple[ScoreBreakdown, ...] | None = None
    scores: tuple[int, ...] | None = None
    ranks: tuple[int, ...] | None = None
