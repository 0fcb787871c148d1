"""The rulebook's three-player sample game (Наташа, Саша, Гриша), rounds one to three, as written."""

from __future__ import annotations

from games.core.models import Event
from games.coup.engine import CoupEngine, stacked_deck
from games.coup.models import (
    ActionBlocked,
    Allow,
    Assassinate,
    Block,
    Card,
    CardDrawn,
    Challenge,
    ClaimConceded,
    ClaimProven,
    CoinsReturned,
    CoinsStolen,
    CollectTax,
    Concede,
    CoupOptions,
    ExchangeCards,
    ExchangeCompleted,
    ExchangeDrawn,
    InfluenceLost,
    KeepCards,
    LaunchCoup,
    Phase,
    PlayerEliminated,
    ProveClaim,
    RevealCard,
    Steal,
    TakeIncome,
    TurnStarted,
)
from games.coup.state import CoupState

E = CoupEngine()
NATASHA, SASHA, GRISHA = 0, 1, 2
DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, CONTESSA = (
    Card.DUKE,
    Card.ASSASSIN,
    Card.CAPTAIN,
    Card.AMBASSADOR,
    Card.CONTESSA,
)


def play(state: CoupState, seat: int, action: object) -> tuple[CoupState, list[Event]]:
    step = E.apply(state, seat, action)
    assert step.state.version == state.version + 1
    return step.state, list(step.events)


def test_sample_game_rounds_one_to_three() -> None:
    deck = stacked_deck(
        [[CONTESSA, DUKE], [CAPTAIN, CONTESSA], [ASSASSIN, DUKE]],
        # Саша's exchange draws Ассасин and Герцог; Гриша's replacement after proving is Графиня.
        [ASSASSIN, DUKE, CONTESSA],
    )
    state = E.setup(3, CoupOptions(deck=deck, first_seat=NATASHA), "sample").state
    assert state.coins == (2, 2, 2)
    assert len(state.deck) == 9

    # ------------------------------------------------------------------ round 1
    # Наташа claims the Duke; nobody challenges; she takes 3 and has 5.
    state, _ = play(state, NATASHA, CollectTax())
    state, _ = play(state, SASHA, Allow())
    state, _ = play(state, GRISHA, Allow())
    assert state.coins[NATASHA] == 5

    # Саша bluffs the Ambassador; nobody challenges; he draws Ассасин and Герцог and keeps Ассасин
    # and Капитан, returning Герцог and Графиня.
    assert AMBASSADOR not in state.hands[SASHA]
    state, _ = play(state, SASHA, ExchangeCards())
    state, _ = play(state, GRISHA, Allow())
    state, events = play(state, NATASHA, Allow())
    assert next(e for e in events if isinstance(e, ExchangeDrawn)).cards == (ASSASSIN, DUKE)
    assert E.view(state, SASHA).choices == (CAPTAIN, CONTESSA, ASSASSIN, DUKE)
    state, events = play(state, SASHA, KeepCards(cards=(ASSASSIN, CAPTAIN)))
    private = [e for e in events if isinstance(e, ExchangeCompleted) and e.visible_to]
    assert private[0].returned == (CONTESSA, DUKE)
    assert sorted(state.hands[SASHA]) == [ASSASSIN, CAPTAIN]
    assert state.coins[SASHA] == 2

    # Гриша claims the Duke; Саша challenges; Гриша shows the Duke, shuffles it back and draws
    # Графиня, then takes 3; Саша reveals his Ассасин.
    state, _ = play(state, GRISHA, CollectTax())
    state, _ = play(state, SASHA, Challenge())
    state, events = play(state, GRISHA, ProveClaim())
    assert ClaimProven(claimant=GRISHA, card=DUKE) in events
    assert CardDrawn(seat=GRISHA, card=CONTESSA, visible_to=frozenset({GRISHA})) in events
    assert state.phase is Phase.LOSE_INFLUENCE and state.losing == SASHA
    state, _ = play(state, SASHA, RevealCard(card=ASSASSIN))

    # After round one.
    assert state.coins == (5, 2, 5)
    assert sorted(state.hands[NATASHA]) == [CONTESSA, DUKE]
    assert state.hands[SASHA] == (CAPTAIN,)
    assert state.revealed[SASHA] == (ASSASSIN,)
    assert sorted(state.hands[GRISHA]) == [ASSASSIN, CONTESSA]

    # ------------------------------------------------------------------ round 2
    # Наташа claims the Duke again: 8 coins.
    state, _ = play(state, NATASHA, CollectTax())
    state, _ = play(state, SASHA, Allow())
    state, _ = play(state, GRISHA, Allow())
    assert state.coins[NATASHA] == 8

    # Саша takes income: 3 coins.
    state, _ = play(state, SASHA, TakeIncome())
    assert state.coins[SASHA] == 3

    # Гриша claims the Assassin, pays 3 and targets Наташа; nobody challenges, Наташа blocks with
    # the Contessa, nobody challenges that; Гриша keeps 2 coins.
    state, _ = play(state, GRISHA, Assassinate(target=NATASHA))
    assert state.coins[GRISHA] == 2
    state, _ = play(state, SASHA, Allow())
    state, _ = play(state, NATASHA, Block(card=CONTESSA))
    state, _ = play(state, SASHA, Allow())
    state, events = play(state, GRISHA, Allow())
    assert ActionBlocked(actor=GRISHA, blocker=NATASHA, card=CONTESSA) in events

    # After round two.
    assert state.coins == (8, 3, 2)
    assert [len(hand) for hand in state.hands] == [2, 1, 2]

    # ------------------------------------------------------------------ round 3
    # Наташа spends 7 on a coup against Гриша, who reveals his Графиня. Наташа has 1 coin left.
    state, _ = play(state, NATASHA, LaunchCoup(target=GRISHA))
    assert state.losing == GRISHA
    state, _ = play(state, GRISHA, RevealCard(card=CONTESSA))
    assert state.coins[NATASHA] == 1

    # Саша claims the Captain to steal 2 from Гриша; nobody challenges; Гриша blocks claiming the
    # Ambassador; Саша challenges; Гриша bluffed and loses his last card, the Ассасин; Саша still
    # steals 2 and has 5.
    state, _ = play(state, SASHA, Steal(target=GRISHA))
    state, _ = play(state, NATASHA, Allow())
    state, _ = play(state, GRISHA, Block(card=AMBASSADOR))
    state, _ = play(state, SASHA, Challenge())
    assert E.legal_actions(state, GRISHA) == [Concede()]
    state, events = play(state, GRISHA, Concede())
    assert events == [
        ClaimConceded(claimant=GRISHA, card=AMBASSADOR),
        InfluenceLost(seat=GRISHA, card=ASSASSIN),
        PlayerEliminated(seat=GRISHA),
        CoinsStolen(actor=SASHA, target=GRISHA, amount=2),
        TurnStarted(seat=NATASHA),
    ]
    assert not [e for e in events if isinstance(e, CoinsReturned)]

    # After round three.
    assert state.eliminated == (GRISHA,)
    assert state.coins[NATASHA] == 1
    assert state.coins[SASHA] == 5
    assert state.coins[GRISHA] == 0
    assert state.revealed[GRISHA] == (CONTESSA, ASSASSIN)
    assert state.phase is Phase.DECLARE and state.turn == NATASHA
    public = E.view(state, None)
    assert not public.players[GRISHA].alive
    assert public.eliminated == (GRISHA,)
    assert E.outcome(state) is None  # the game goes on
