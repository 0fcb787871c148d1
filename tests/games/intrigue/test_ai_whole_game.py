"""The «Интриги» AI plays the whole game (issue 15): one constructed scenario per behaviour.

Each board makes one move clearly right — swaying a neutral councillor to save its head, contesting
a tied head, moving military into a Military coup, calling a land vote that stops a rival's
Election, lending an idle character's send, hiring and sending a thief while a rival is one councillor
from its Election — and checks that the AI makes it.
"""

from __future__ import annotations

from typing import Any

from games.core.models import Event
from games.core.rng import GameRng
from games.intrigue.ai import HAND_STEP, TOKEN_COUNCIL, Ctx, IntrigueAgent
from games.intrigue.models import (
    CharAction,
    ContestHead,
    Decision,
    MercType,
    Phase,
    PickAction,
    PickCharacter,
    PickLand,
    PickSide,
    Side,
    SwayRevealed,
    Victory,
    VoteCalled,
    VoteKind,
)
from games.intrigue.state import IntrigueState
from tests.games.intrigue.helpers import (
    ENGINE,
    B,
    G,
    R,
    Y,
    begin,
    new,
    play,
    top_kind,
    until,
    with_coins,
    with_hand,
    with_population,
    with_tokens,
)

AI = IntrigueAgent()
ZB, DS, BR, CH, SO, ZAL, DG, BRO, TD = 1, 2, 3, 4, 5, 6, 10, 11, 12
QUIET_HEADS = {ZB: 4, DS: 17, BR: 2, CH: 13, ZAL: 5, BRO: 11, TD: 15}


def drive(
    state: IntrigueState, ai_seats: set[int], pred: Any, limit: int = 600, events: list[Event] | None = None
) -> IntrigueState:
    """Let ``ai_seats`` play by the AI and everyone else by the clock defaults until ``pred`` holds."""
    for _ in range(limit):
        if pred(state):
            return state
        active = sorted(ENGINE.active_seats(state))
        assert active, "the game ended first"
        mine = [s for s in active if s in ai_seats]
        seat = mine[0] if mine else active[0]
        if seat in ai_seats:
            rng = GameRng.for_step(state.seed, state.version, f"ai{seat}")
            action = AI.choose(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), rng)
        else:
            action = ENGINE.default_action(state, seat)
        step = ENGINE.apply(state, seat, action)
        state = step.state
        if events is not None:
            events.extend(step.events)
    raise AssertionError("condition never held")


def test_sways_a_neutral_councillor_to_keep_its_head() -> None:
    # B controls the Военачальник and calls the removal of R's head Артур. Жозетта and Эдмар are
    # neutral councillors whose disposition is For: with B's own ballot that is 3 For, enough.
    # R advises one of them Against through its other head Гюнтер, and the motion fails.
    state = new(3, heads={**QUIET_HEADS, ZB: 1}, council=[7, 5, 6, 14])
    state = with_tokens(state, chars={7: {B: 2}, 1: {R: 2}, 2: {R: 2}}, lands={ZB: {R: 1}, BR: {R: 1}})
    state = begin(state, Phase.CHARACTERS, turn=2)
    state = until(state, lambda s: top_kind(s) == "slot" and ENGINE.active_seats(s) == {B})
    state = play(state, B, PickCharacter(character=7), PickAction(action=CharAction.REMOVE_HEAD))
    state = play(state, B, PickCharacter(character=1))
    state = until(state, lambda s: top_kind(s) == "vote" and B in ENGINE.active_seats(s))
    state = play(state, B, PickSide(side=Side.FOR))
    events: list[Event] = []
    state = drive(state, {R}, lambda s: top_kind(s) != "vote" and top_kind(s) != "window", events=events)
    sways = [e for e in events if isinstance(e, SwayRevealed)]
    advice = [c for e in sways for c in e.commitments if c[0] == R]
    assert advice and all(c[4] == Side.AGAINST.value and c[1] in (5, 6) for c in advice)
    assert 1 in state.heads  # Артур keeps his seat


def test_contests_a_tied_head_and_acts_through_it() -> None:
    # R, B and G tie on Матей (2 tokens each); only R has a land token on Золотой Берег (too few to
    # convert), and R holds a messenger with no character of its own to send it through: it
    # contests, bids 1 and sends, its marker from Матей (still neutral afterwards).
    state = new(3, heads=QUIET_HEADS, council=[7, 16, 10, 14])
    state = with_tokens(state, chars={4: {R: 2, B: 2, G: 2}}, lands={ZB: {R: 1}})
    state = with_hand(state, R, "M05", MercType.MESSENGER, expires=2)
    state = begin(state, Phase.CHARACTERS, turn=2)
    state = until(state, lambda s: top_kind(s) == "slot" and ENGINE.active_seats(s) == {R})
    view = ENGINE.view(state, R)
    assert AI.choose(view, ENGINE.legal_actions(state, R), GameRng("c")) == ContestHead(character=4)
    state = drive(state, {R}, lambda s: 4 in s.acted)
    state = drive(state, {R}, lambda s: not s.hands[R] or top_kind(s) not in ("act", "slot"))
    sent = [c for c in state.cards if c.owner == R]
    assert len(sent) == 1 and sent[0].character != 4
    assert state.char_tokens[3] == (1, 2, 2)  # the marker came off Матей, who stays neutral


def test_moves_military_into_a_military_coup() -> None:
    # R controls the Военачальник and has land majority on Долина Стрел, Чёрная Гавань and Братья
    # (M ≥ P) and on Золотой Берег, left P4 M3 with two free cells (revision 6 fills Залесье, the
    # last land one token short of M ≥ P). One military token moved there makes 4 coup lands.
    state = new(3, heads=QUIET_HEADS, council=[7, 16, 10, 14])
    state = with_tokens(
        state, chars={7: {R: 2}}, lands={DS: {R: 1}, CH: {R: 1}, BRO: {R: 1}, ZB: {R: 1}, BR: {B: 3}, TD: {B: 2}}
    )
    state = with_population(state, {ZB: (4, 3)})
    state = begin(state, Phase.CHARACTERS, turn=2)
    state = drive(state, {R}, lambda s: s.phase is Phase.OVER)
    assert state.result is not None
    assert state.result.victory is Victory.COUP and state.result.winner == R


def test_calls_a_land_vote_that_stops_a_rivals_election() -> None:
    # B holds all four permanent councillors by one token: its next slot wins by Election. R (first
    # in order by Проныра) and G hold the heads between them; R calls a land vote on B's Тайный
    # Советник, G votes For with R, and the removal passes before B can call the Election.
    heads = {ZB: 18, DS: 17, BR: 2, CH: 12, ZAL: 5, BRO: 11, TD: 15}
    state = new(3, heads=heads, council=[7, 16, 10, 14])
    state = with_tokens(
        state,
        chars={7: {B: 1}, 16: {B: 1}, 10: {B: 1}, 14: {B: 1}, 18: {R: 2}, 17: {R: 2}, 2: {R: 2}}
        | {12: {G: 2}, 5: {G: 2}, 11: {G: 2}, 15: {G: 2}},
        lands={ZB: {R: 1}, DS: {R: 1}, BR: {R: 1}},
    )
    state = begin(state, Phase.CHARACTERS, turn=2)
    events: list[Event] = []
    state = drive(state, {R, G}, lambda s: s.phase is not Phase.CHARACTERS or s.result is not None, events=events)
    called = [e for e in events if isinstance(e, VoteCalled) and e.vote is VoteKind.REMOVE_COUNCILLOR]
    assert called and called[0].caller == R
    assert state.result is None or state.result.winner != B


def test_lends_an_idle_character_to_the_weakest_rival() -> None:
    # R controls Артур but has no card; B (far behind G) has a token on Артур, a card and coins.
    state = new(3, heads=QUIET_HEADS, council=[7, 16, 10, 14])
    state = with_tokens(state, chars={4: {R: 2, B: 1}, 7: {G: 3}, 16: {G: 3}}, lands={ZB: {R: 1}})
    state = with_hand(state, B, "M05", MercType.MESSENGER, expires=2)
    state = begin(state, Phase.CHARACTERS, turn=2)
    state = drive(state, {R}, lambda s: top_kind(s) == "lend" or 4 in s.acted or R in s.passed)
    view = ENGINE.view(state, B)
    assert view.pending is not None and view.pending.decision is Decision.LEND_OFFER
    assert view.pending.actor == R


def test_does_not_grow_away_its_own_coup_land() -> None:
    # R holds the Военачальник and land majority on Долина Стрел, left P3 M3 with two free cells by
    # a military move (revision 4 fills the other lands that count for both): growing it would pay a
    # little income later but make it P4 M3, no longer a coup land, so it keeps it.
    state = new(3, heads=QUIET_HEADS, council=[7, 16, 10, 14])
    state = with_tokens(state, chars={7: {R: 2}}, lands={DS: {R: 2}, CH: {R: 1, B: 1}, BRO: {R: 1, B: 1}})
    state = with_population(state, {DS: (None, 3)})
    state = begin(state, Phase.LANDS_ONE, turn=2)
    state = until(state, lambda s: top_kind(s) == "growth")
    legal = ENGINE.legal_actions(state, R)
    assert PickLand(land=DS) in legal
    action = AI.choose(ENGINE.view(state, R), legal, GameRng("g"))
    assert action != PickLand(land=DS)


def test_a_leading_ai_counts_each_kill_toward_the_hand_of_order() -> None:
    # R leads the score vector (6 council tokens to B's 4): killing B's Томас brings the Рука
    # порядка one kill closer, worth HAND_STEP per kill already made plus one. B, still behind after
    # killing G's Збигнев, gets no such pull.
    state = new(3, heads=QUIET_HEADS, council=[7, 16, 10, 14])
    state = with_tokens(state, chars={7: {R: 3}, 16: {R: 3}, 10: {B: 4}, 14: {G: 1}})
    gains = {}
    for kills in (0, 3):
        at = state.model_copy(update={"kills": kills})
        for seat, target in ((R, 10), (B, 14)):
            ctx = Ctx(ENGINE.view(at, seat))
            gains[seat, kills] = ctx.kill_gain(ctx.board, target)
    assert gains[R, 3] - gains[R, 0] == 3 * HAND_STEP
    assert gains[B, 3] == gains[B, 0]


def test_hires_and_sends_the_fifth_assassin_that_ranks_it_first() -> None:
    # Four kills are made and R leads the score vector: an assassin on a rival's councillor, revealed
    # next turn, ends the game by the Рука порядка with R first.
    state = new(3, heads=QUIET_HEADS, council=[7, 16, 10, 14])
    state = with_tokens(state, chars={7: {R: 3}, 16: {R: 3}, 10: {B: 4}, 14: {G: 1}}, lands={ZB: {R: 1}})
    state = begin(state, Phase.INVESTMENTS, turn=2, kills=4)
    state = drive(state, {R}, lambda s: s.phase is Phase.OVER, limit=2000)
    assert state.result is not None
    assert state.result.victory is Victory.HAND_OF_ORDER and state.result.ranks[R] == 0


def test_reaches_for_the_privy_councillor_when_it_holds_the_will_lands() -> None:
    # Six players, nine lands (m = 5): R has land majority on five lands with M ≤ P (Золотой Берег,
    # Бурые Равнины, Чёрная Гавань, Сапфировые Озёра, Залесье), but B holds the Тайный Советник
    # Гюнтер by one token. R's one messenger could take a neutral land head outright (a head's action
    # and vote), yet it goes to Гюнтер: a token level with B is a step towards the Воля народа, the
    # one thing R still lacks.
    heads = {ZB: 4, DS: 17, BR: 18, CH: 12, SO: 6, ZAL: 5, DG: 8, BRO: 11, TD: 15}
    state = new(6, heads=heads, council=[7, 16, 10, 2])
    state = with_tokens(
        state,
        chars={4: {R: 2}, 2: {B: 1}, 7: {G: 2}, 16: {G: 2}, 10: {G: 2}, 17: {Y: 2}, 12: {B: 2}},
        lands={ZB: {R: 2}, BR: {R: 1}, CH: {R: 1}, SO: {R: 1}, ZAL: {R: 1}},
    )
    state = with_hand(state, R, "M05", MercType.MESSENGER, expires=2)
    state = begin(state, Phase.CHARACTERS, turn=2)
    state = drive(state, {R}, lambda s: not s.hands[R] or 4 in s.acted or R in s.passed)
    sent = [c for c in state.cards if c.owner == R]
    assert [c.character for c in sent] == [2]


def test_reaches_for_a_seat_only_in_nine_land_games() -> None:
    # With 7 lands (2–5 players) m = 4 is quickly held; there only a held seat makes the lands count.
    for seats, lands in ((4, (ZB, BR, CH, ZAL)), (6, (ZB, BR, CH, SO, ZAL))):
        state = new(seats, council=[7, 16, 10, 2])
        state = with_tokens(state, chars={2: {B: 1}}, lands={land: {R: 1} for land in lands})
        ctx = Ctx(ENGINE.view(state, R))
        level = ctx.char_gain(ctx.board, 2, 1)
        assert (level > 10 * TOKEN_COUNCIL) is (seats == 6), (seats, level)


def test_hires_and_sends_a_thief_while_a_rival_is_one_councillor_from_its_election() -> None:
    # B holds three councillors and can still send through Эдмар: one more councillor is its Election.
    # R hires a thief with its messengers and sends it this turn, so it lies face down in time for the
    # next Spies & Thieves, before any card B sends now can be revealed.
    state = new(3, heads=QUIET_HEADS, council=[7, 16, 10, 14])
    state = with_tokens(
        state,
        chars={7: {B: 2}, 16: {B: 2}, 10: {B: 2}, 17: {B: 2}, 4: {R: 2}, 2: {R: 2}},
        lands={DS: {B: 1}, ZB: {R: 1}, BR: {R: 1}},
    )
    state = with_coins(state, {R: 12, B: 6})
    state = begin(state, Phase.INVESTMENTS, turn=1)
    state = drive(state, {R}, lambda s: s.phase is Phase.CHARACTERS)
    assert MercType.THIEF in [h.merc for h in state.hands[R]]
    state = drive(state, {R}, lambda s: s.turn == 2)
    assert [c.merc for c in state.cards if c.owner == R and c.merc is MercType.THIEF]


def test_a_quiet_rival_is_not_worth_a_thief() -> None:
    # The same R with nobody near a victory: it hires messengers only.
    state = new(3, heads=QUIET_HEADS, council=[7, 16, 10, 14])
    state = with_tokens(state, chars={17: {B: 2}, 4: {R: 2}, 2: {R: 2}}, lands={DS: {B: 1}, ZB: {R: 1}, BR: {R: 1}})
    state = with_coins(state, {R: 12, B: 6})
    state = begin(state, Phase.INVESTMENTS, turn=1)
    state = drive(state, {R}, lambda s: s.phase is Phase.CHARACTERS)
    assert [h.merc for h in state.hands[R]] == [MercType.MESSENGER, MercType.MESSENGER]
