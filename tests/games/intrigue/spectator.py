"""A spectator who counts public «Интриги» events to name face-down cards (issue 11, item 1).

Card ids used to be minted in sequence (``M01``, ``M02``…) and kept face down. Counting the public
``CardsHired`` (how many cards were hired) and ``CardTaken`` (a revealed card, of public type, taken
into hand) events, a spectator knew which id the publicly taken card received, and recognised it
when the public log later showed that id going face down. :func:`count_named` plays seeded AI games
and counts how many sent cards such a spectator names correctly; :func:`sequential_ids` brings the
old numbering back, to show what it leaked.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from unittest.mock import patch

from games.core.rng import GameRng
from games.intrigue.ai import IntrigueAgent
from games.intrigue.engine import IntrigueEngine
from games.intrigue.game import Game
from games.intrigue.models import CardSent, CardsHired, CardTaken, IntrigueOptions, MercType
from games.intrigue.state import HandCard

ENGINE = IntrigueEngine()
AI = IntrigueAgent()


@dataclass
class Spectator:
    """Reads public events only; predicts the id each publicly taken card receives."""

    minted: int = 0
    known: dict[str, MercType] | None = None

    def read(self, event: object) -> tuple[str, MercType] | None:
        """Take in one public event; return ``(card, type)`` when it names a card going face down."""
        known = self.known if self.known is not None else {}
        self.known = known
        if isinstance(event, CardsHired):
            self.minted += event.count
        elif isinstance(event, CardTaken):
            self.minted += 1
            known[f"M{self.minted:02d}"] = event.merc
        elif isinstance(event, CardSent) and event.card in known:
            return event.card, known.pop(event.card)
        return None


@dataclass
class Tally:
    """What the spectator named over some games."""

    games: int = 0
    games_leaked: int = 0
    named: int = 0


def play_and_watch(seats: int, seed: str, tally: Tally, max_steps: int = 40_000) -> None:
    """Play one all-AI game; count the sent cards the spectator names with the right type."""
    state = ENGINE.setup(seats, IntrigueOptions(), seed).state
    spectator = Spectator()
    named = 0
    for _ in range(max_steps):
        active = sorted(ENGINE.active_seats(state))
        if not active:
            break
        seat = active[0]
        rng = GameRng.for_step(state.seed, state.version, f"ai{seat}")
        action = AI.choose(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), rng)
        step = ENGINE.apply(state, seat, action)
        state = step.state
        for event in step.events:
            if event.visible_to is not None:
                continue
            guess = spectator.read(event)
            if guess is None:
                continue
            card = next((c for c in state.cards if c.id == guess[0]), None)
            if card is not None and card.merc is guess[1]:
                named += 1
    tally.games += 1
    tally.named += named
    tally.games_leaked += 1 if named else 0


def count_named(games: int, start: int = 0) -> Tally:
    """Play ``games`` seeded AI games (3–5 seats in turn); return what the spectator named."""
    tally = Tally()
    for index in range(start, start + games):
        play_and_watch(3 + index % 3, f"spectator-{index}", tally)
    return tally


@contextmanager
def sequential_ids() -> Iterator[None]:
    """Run the engine with the old numbering: ids ``M01``, ``M02``… in order, kept face down.

    The deliberately leaky variant the checks are shown to catch (``tests/bot/resilience``).
    """

    def new_card_id(g: Game) -> str:
        card = f"M{g.next_card:02d}"
        g.next_card += 1
        return card

    def face_down_id(g: Game, card: HandCard) -> str:
        return card.id

    with patch.object(Game, "new_card_id", new_card_id), patch.object(Game, "face_down_id", face_down_id):
        yield
