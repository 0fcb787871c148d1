"""The «Интриги» AI: legal actions only, from its own view only, deterministic, and sensible."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from games.core.models import Event
from games.core.protocol import RandomAgent
from games.core.rng import GameRng
from games.intrigue import ai as ai_module
from games.intrigue.ai import IntrigueAgent, fallback
from games.intrigue.models import (
    Back,
    CharAction,
    Choose,
    Decision,
    Done,
    IntrigueOptions,
    IntrigueView,
    MercType,
    Mode,
    Option,
    Pass,
    Phase,
    PickAction,
    PickCard,
    PickCharacter,
    PickMode,
    PickSide,
    PickType,
    RevealMessenger,
    Side,
    Skip,
    Victory,
)
from games.intrigue.state import IntrigueState
from games.registry import AGENTS
from tests.games.intrigue.helpers import (
    ENGINE,
    B,
    G,
    R,
    begin,
    new,
    play,
    top_kind,
    until,
    with_card,
    with_coins,
    with_hand,
    with_tokens,
)

AI = IntrigueAgent()
ZB, DS, BR, CH, ZAL, BRO, TD = 1, 2, 3, 4, 6, 11, 12
QUIET_HEADS = {ZB: 4, DS: 17, BR: 2, CH: 13, ZAL: 5, BRO: 11, TD: 15}
COUNCIL = [7, 16, 10, 14]  # Военачальник, Епископ, Казначей, Тайный Советник


def ai_rng(state: IntrigueState, seat: int) -> GameRng:
    return GameRng.for_step(state.seed, state.version, f"ai{seat}")


def play_game(
    n: int, seed: str, ai_seats: set[int], *, lands: str = "standard", max_steps: int = 40_000
) -> tuple[IntrigueState, list[Event], list[tuple[Decision, str]]]:
    """Play a whole game: AI seats choose from their view and legal actions, the others at random.

    Returns the final state, the events and the (decision, draft step) of every AI choice.
    """
    options = IntrigueOptions(lands="random") if lands == "random" else IntrigueOptions()
    state = ENGINE.setup(n, options, seed).state
    rnd = RandomAgent()
    events: list[Event] = []
    asked: list[tuple[Decision, str]] = []
    for _ in range(max_steps):
        active = sorted(ENGINE.active_seats(state))
        if not active:
            return state, events, asked
        seat = active[0]
        legal = ENGINE.legal_actions(state, seat)
        view = ENGINE.view(state, seat)
        if seat in ai_seats:
            action = AI.choose(view, legal, ai_rng(state, seat))
            assert action in legal, (seat, action, legal)
            assert action != Back() or legal == [Back()]
            assert view.pending is not None
            asked.append((view.pending.decision, view.draft.step if view.draft else ""))
        else:
            action = rnd.choose(view, legal, ai_rng(state, seat))
        step = ENGINE.apply(state, seat, action)
        state = step.state
        events.extend(step.events)
    raise AssertionError("the game did not end")


def test_registered() -> None:
    assert isinstance(AGENTS["intrigue"], IntrigueAgent)


@pytest.mark.parametrize("n", range(2, 9))
@pytest.mark.parametrize("seed", ["a", "b"])
def test_only_legal_actions_beside_random_seats(n: int, seed: str) -> None:
    # Every other seat is the AI; the random seats stir up votes, contests, reveals and lending.
    state, _, asked = play_game(n, f"legal-{seed}-{n}", {s for s in range(n) if s % 2 == 0}, lands="random")
    assert state.phase is Phase.OVER
    assert {Decision.PLACEMENT, Decision.INVEST, Decision.SLOT} <= {d for d, _ in asked}


@pytest.mark.parametrize("n", range(2, 9))
def test_only_legal_actions_at_an_all_ai_table(n: int) -> None:
    state, _, _ = play_game(n, f"all-ai-{n}", set(range(n)))
    assert state.phase is Phase.OVER and state.result is not None


def test_meets_every_kind_of_decision_in_playouts() -> None:
    """Over a few mixed games the AI is asked nearly every decision of the catalogue, and answers legally."""
    seen: set[Decision] = set()
    for g in range(8):
        n = 3 + g % 5
        _, _, asked = play_game(n, f"kinds-{g}", {s for s in range(n) if (s + g) % 2 == 0}, lands="random")
        seen |= {d for d, _ in asked}
    common = {
        Decision.PLACEMENT,
        Decision.WINDOW,
        Decision.SPY_TURN,
        Decision.GROWTH,
        Decision.INVEST,
        Decision.SLOT,
        Decision.BALLOT,
        Decision.APPOINT,
        Decision.VALE_TAX,
    }
    assert common <= seen, common - seen


@pytest.mark.parametrize("n", [3, 6])
def test_deterministic_given_the_generator(n: int) -> None:
    seats = {0, 2}
    first = play_game(n, f"det-{n}", seats)
    second = play_game(n, f"det-{n}", seats)
    assert first[0] == second[0]
    assert first[1] == second[1]


def decision_points(n: int, seed: str, limit: int = 25) -> list[tuple[IntrigueState, int]]:
    """Return states of a random game where a seat has a real choice, with that seat."""
    state = ENGINE.setup(n, IntrigueOptions(), seed).state
    rnd = RandomAgent()
    found: list[tuple[IntrigueState, int]] = []
    k = 0
    while ENGINE.active_seats(state) and len(found) < limit:
        seat = min(ENGINE.active_seats(state))
        legal = ENGINE.legal_actions(state, seat)
        k += 1
        if len(legal) > 1 and k % 7 == 0:
            found.append((state, seat))
        state = ENGINE.apply(state, seat, rnd.choose(ENGINE.view(state, seat), legal, ai_rng(state, seat))).state
    return found


@pytest.mark.parametrize("n", [3, 6])
def test_decides_from_the_view_alone(n: int) -> None:
    """A detached copy of the view gives the same decision, and so does any state the seat cannot tell apart."""
    for k, (state, seat) in enumerate(decision_points(n, f"view-{n}")):
        view = ENGINE.view(state, seat)
        legal = ENGINE.legal_actions(state, seat)
        expected = AI.choose(view, legal, GameRng(f"v{k}"))
        detached = IntrigueView.model_validate_json(view.model_dump_json())
        assert AI.choose(detached, list(legal), GameRng(f"v{k}")) == expected
        other = ENGINE.resample_hidden(state, seat, GameRng(f"resample{k}"))
        assert ENGINE.view(other, seat) == view
        assert AI.choose(ENGINE.view(other, seat), ENGINE.legal_actions(other, seat), GameRng(f"v{k}")) == expected


def test_ai_module_never_touches_the_state() -> None:
    source = Path(ai_module.__file__).read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module is not None
    } | {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    engine_modules = {f"games.intrigue.{m}" for m in ("state", "engine", "game", "phases", "votes", "mercenaries")}
    assert not imported & engine_modules
    assert "IntrigueState" not in source


def test_refuses_a_public_view() -> None:
    state = ENGINE.setup(3, IntrigueOptions(), "public").state
    with pytest.raises(ValueError, match="own seat"):
        AI.choose(ENGINE.view(state, None), ENGINE.legal_actions(state, 0), GameRng("x"))


def test_fallback_never_picks_back() -> None:
    assert fallback([Back(), Pass()]) == Pass()
    assert fallback([Back(), PickCharacter(character=3)]) == PickCharacter(character=3)
    assert fallback([PickCard(card="M01"), Back(), Done()]) == Done()


def test_beats_random_players() -> None:
    """A modest seeded check: the AI wins most 3-player games against random seats (the script measures more)."""
    wins = 0
    for g in range(6):
        seat = g % 3
        state, _, _ = play_game(3, f"beat-{g}", {seat})
        assert state.result is not None
        wins += state.result.ranks[seat] == 0
    assert wins >= 5


def test_ai_seats_finish_a_six_player_game_with_legal_choices() -> None:
    """Two AI seats among random ones play a whole 6-player game; decision time is ``benchmarks.games``'s."""
    state = ENGINE.setup(6, IntrigueOptions(), "speed").state
    rnd = RandomAgent()
    decisions = 0
    while ENGINE.active_seats(state):
        seat = min(ENGINE.active_seats(state))
        legal = ENGINE.legal_actions(state, seat)
        agent = AI if seat in (0, 3) else rnd
        action = agent.choose(ENGINE.view(state, seat), legal, ai_rng(state, seat))
        assert action in legal
        decisions += seat in (0, 3)
        state = ENGINE.apply(state, seat, action).state
    assert state.result is not None
    assert decisions > 0


# ----------------------------------------------------------------------------- sensible play
def drive(
    state: IntrigueState, ai_seat: int, pred: Any, limit: int = 400, events: list[Event] | None = None
) -> IntrigueState:
    """Let ``ai_seat`` play by the AI and everyone else by the clock defaults until ``pred`` holds."""
    for _ in range(limit):
        if pred(state):
            return state
        active = sorted(ENGINE.active_seats(state))
        assert active, "the game ended first"
        seat = ai_seat if ai_seat in active else active[0]
        if seat == ai_seat:
            legal = ENGINE.legal_actions(state, seat)
            action = AI.choose(ENGINE.view(state, seat), legal, ai_rng(state, seat))
        else:
            action = ENGINE.default_action(state, seat)
        step = ENGINE.apply(state, seat, action)
        state = step.state
        if events is not None:
            events.extend(step.events)
    raise AssertionError("condition never held")


def test_calls_the_election_with_four_council_seats() -> None:
    state = new(3, heads=QUIET_HEADS, council=COUNCIL)
    state = with_tokens(state, chars={7: {R: 1}, 16: {R: 1}, 10: {R: 2}, 14: {R: 1}})
    state = begin(state, Phase.CHARACTERS, turn=2)
    state = drive(state, R, lambda s: s.phase is Phase.OVER)
    assert state.result is not None
    assert state.result.victory is Victory.ELECTION and state.result.winner == R


def test_hires_messengers_and_sends_them_at_the_council() -> None:
    # R controls two heads, each with a land token under it: two messengers, sent at councillors.
    state = new(3, heads=QUIET_HEADS, council=COUNCIL)
    state = with_tokens(state, chars={4: {R: 2}, 2: {R: 2}}, lands={ZB: {R: 1}, BR: {R: 1}})
    state = begin(state, Phase.INVESTMENTS, turn=1)
    state = drive(state, R, lambda s: s.phase is Phase.CHARACTERS)
    hired = [h.merc for h in state.hands[R]]
    assert hired == [MercType.MESSENGER, MercType.MESSENGER]
    events: list[Event] = []
    state = drive(state, R, lambda s: s.turn == 2, events=events)
    sent = [c for c in state.cards if c.owner == R and c.turn_placed == 1]
    assert len(sent) == 2
    assert {c.character for c in sent} <= set(COUNCIL)
    assert len({c.character for c in sent}) == 2
    # The markers left both heads R's, and the coins left paid the tax (no default).
    assert state.char_tokens[3][R] >= 1 and state.char_tokens[1][R] >= 1
    assert not any(e.kind == "tax_defaulted" for e in events)


def test_reveals_a_gift_in_the_first_window_and_a_bribe_with_extras() -> None:
    state = new(3, heads=QUIET_HEADS, council=COUNCIL)
    rivals = {land: {B: 1} for land in (DS, BR, CH, ZAL, BRO, TD)}
    state = with_tokens(state, chars={4: {R: 2}}, lands={ZB: {R: 2}, **rivals})
    state = with_card(state, "M01", R, MercType.MESSENGER, 7, mode=Mode.GIFT, turn=1)
    state = with_card(state, "M02", R, MercType.MESSENGER, 16, mode=Mode.BRIBE, turn=1)
    state = with_coins(state, {R: 30})
    state = begin(state, Phase.LANDS_ONE, turn=2)
    assert top_kind(state) == "window"
    legal = ENGINE.legal_actions(state, R)
    assert AI.choose(ENGINE.view(state, R), legal, GameRng("w1")) == RevealMessenger(card="M01")
    state = drive(state, R, lambda s: s.phase is Phase.CHARACTERS)
    assert state.char_tokens[6][R] >= 1  # the gift to Марк (with the Золотой Берег upgrade: 2)
    assert state.char_tokens[15][R] >= 2  # the bribe to Отто, with extra tokens bought


def test_answers_with_its_guard() -> None:
    state = new(3, heads=QUIET_HEADS, council=COUNCIL)
    state = with_tokens(state, chars={10: {R: 1}}, lands={ZB: {B: 2}})
    state = with_card(state, "M01", B, MercType.ASSASSIN, 10)
    state = with_card(state, "M02", R, MercType.GUARD, 10)
    state = begin(state, Phase.LANDS_ONE, turn=2)
    state = play(state, B, ENGINE.legal_actions(state, B)[0])
    assert top_kind(state) == "guard"
    legal = ENGINE.legal_actions(state, R)
    assert AI.choose(ENGINE.view(state, R), legal, GameRng("g")) == PickCard(card="M02")


def test_picks_the_cheapest_penalty() -> None:
    # A guarded assassin: R loses 1 token on 3 characters; it keeps its control of Томас (margin 1).
    state = new(3, heads=QUIET_HEADS, council=COUNCIL)
    state = with_tokens(state, chars={10: {R: 1}, 4: {R: 3}, 17: {R: 3}, 2: {R: 3}, 13: {R: 3}}, lands={ZB: {R: 2}})
    state = with_card(state, "M01", R, MercType.ASSASSIN, 7)
    state = with_card(state, "M02", B, MercType.GUARD, 7)
    state = begin(state, Phase.LANDS_ONE, turn=2)
    state = play(state, R, ENGINE.legal_actions(state, R)[0])
    state = play(state, B, PickCard(card="M02"))
    assert top_kind(state) == "penalty"
    state = drive(state, R, lambda s: top_kind(s) != "penalty")
    assert state.char_tokens[9][R] == 1


def test_thief_takes_a_bribe_it_can_send_and_recruits() -> None:
    heads = {**QUIET_HEADS, BR: 2}
    state = new(3, heads=heads, council=COUNCIL)
    state = with_tokens(state, chars={2: {R: 2}, 4: {R: 2}}, lands={BR: {R: 1}, ZB: {R: 1}})
    state = with_card(state, "M01", R, MercType.THIEF, 16)
    state = with_card(state, "M02", B, MercType.MESSENGER, 7, mode=Mode.BRIBE)
    state = begin(state, Phase.SPIES, turn=2)
    state = drive(state, R, lambda s: top_kind(s) == "ask")
    view = ENGINE.view(state, R)
    assert view.pending is not None and view.pending.decision is Decision.THIEF_TAKE
    state = play(state, R, AI.choose(view, ENGINE.legal_actions(state, R), GameRng("t")))
    assert [h.merc for h in state.hands[R]] == [MercType.MESSENGER]


def test_recruits_through_the_brown_plains() -> None:
    heads = {**QUIET_HEADS, BR: 2}
    state = new(3, heads=heads, council=COUNCIL)
    state = with_tokens(state, chars={2: {G: 2}}, lands={BR: {G: 1}})
    state = with_card(state, "M01", R, MercType.THIEF, 16)
    state = with_card(state, "M02", B, MercType.MESSENGER, 7, mode=Mode.BRIBE)
    state = begin(state, Phase.SPIES, turn=2)
    state = until(state, lambda s: top_kind(s) == "spies" and ENGINE.active_seats(s) == {R})
    state = play(state, R, PickCard(card="M01"), PickCharacter(character=7), PickCard(card="M02"))
    state = play(state, R, Choose(option=Option.TAKE_COINS))
    view = ENGINE.view(state, G)
    assert view.pending is not None and view.pending.decision is Decision.RECRUIT
    assert AI.choose(view, ENGINE.legal_actions(state, G), GameRng("r")) == Choose(option=Option.RECRUIT)


def spy_turn_picks(state: IntrigueState, seat: int) -> tuple[list[Any], IntrigueState]:
    """Play ``seat``'s Spies & Thieves turn by the AI; return its picks and the state after them."""
    state = until(state, lambda s: top_kind(s) == "spies" and ENGINE.active_seats(s) == {seat})
    picks = []
    while top_kind(state) == "spies" and ENGINE.active_seats(state) == {seat}:
        legal = ENGINE.legal_actions(state, seat)
        action = AI.choose(ENGINE.view(state, seat), legal, ai_rng(state, seat))
        assert action in legal and action != Back()
        picks.append(action)
        state = play(state, seat, action)
    return picks, state


def test_uses_its_spy_on_a_rival_card() -> None:
    state = new(3, heads=QUIET_HEADS, council=COUNCIL)
    state = with_tokens(state, chars={7: {R: 1}})
    state = with_card(state, "M01", R, MercType.SPY, 16)
    state = with_card(state, "M02", B, MercType.MESSENGER, 7, mode=Mode.GIFT)
    state = begin(state, Phase.SPIES, turn=2)
    picks, _ = spy_turn_picks(state, R)
    assert picks == [PickCard(card="M01"), PickCharacter(character=7), PickCard(card="M02")]


def test_exposes_the_rival_card_that_would_win_the_election() -> None:
    # B's cards lie on Тайный Советник (its fourth councillor if a messenger) and on Артур, R's own
    # head. The thief goes for the councillor, not for the card on the character R holds.
    state = new(3, heads=QUIET_HEADS, council=COUNCIL)
    state = with_tokens(state, chars={7: {B: 2}, 16: {B: 2}, 10: {B: 2}, 4: {R: 2}}, lands={ZB: {R: 1}})
    state = with_card(state, "M01", R, MercType.THIEF, 16)
    state = with_card(state, "M02", B, MercType.MESSENGER, 4, mode=Mode.GIFT)
    state = with_card(state, "M03", B, MercType.MESSENGER, 14, mode=Mode.BRIBE)
    state = begin(state, Phase.SPIES, turn=2)
    picks, state = spy_turn_picks(state, R)
    assert picks == [PickCard(card="M01"), PickCharacter(character=14), PickCard(card="M03")]
    assert state.char_tokens[14][B] == 0


def test_votes_for_its_own_head_and_against_a_rival() -> None:
    # B calls the removal of R's head; R's councillor votes Against, and For when the head is G's.
    for owner, side in ((R, Side.AGAINST), (G, Side.FOR)):
        state = new(3, heads=QUIET_HEADS, council=COUNCIL)
        state = with_tokens(state, chars={7: {B: 1}, 16: {R: 1}, 4: {owner: 2}}, lands={ZB: {owner: 1}})
        state = begin(state, Phase.CHARACTERS, turn=2)
        state = until(state, lambda s: top_kind(s) == "slot" and ENGINE.active_seats(s) == {B})
        state = play(state, B, PickCharacter(character=7), PickAction(action=CharAction.REMOVE_HEAD))
        state = play(state, B, PickCharacter(character=4))
        state = until(state, lambda s: R in ENGINE.active_seats(s) and top_kind(s) == "vote")
        legal = ENGINE.legal_actions(state, R)
        assert AI.choose(ENGINE.view(state, R), legal, GameRng("v")) == PickSide(side=side)


def test_declines_a_dear_lend() -> None:
    state = new(3, heads=QUIET_HEADS, council=COUNCIL)
    state = with_tokens(state, chars={4: {B: 2, R: 1}}, lands={ZB: {B: 1}})
    state = with_hand(state, R, "M05", MercType.MESSENGER, expires=2)
    state = begin(state, Phase.CHARACTERS, turn=2)
    state = until(state, lambda s: top_kind(s) == "slot" and ENGINE.active_seats(s) == {B})
    state = play(state, B, PickCharacter(character=4), PickAction(action=CharAction.LEND))
    state = play(state, B, ENGINE.legal_actions(state, B)[0])  # the borrower R
    legal = ENGINE.legal_actions(state, B)
    price = max((a for a in legal if a.kind == "pick_amount"), key=lambda a: a.amount)
    state = play(state, B, price)
    view = ENGINE.view(state, R)
    assert view.pending is not None and view.pending.decision is Decision.LEND_OFFER
    assert AI.choose(view, ENGINE.legal_actions(state, R), GameRng("l")) == Choose(option=Option.DECLINE)


def test_sends_nothing_and_hires_nothing_in_the_last_turn() -> None:
    state = new(3, heads=QUIET_HEADS, council=COUNCIL, max_turns=4)
    state = with_tokens(state, chars={4: {R: 2}}, lands={ZB: {R: 3}})
    state = begin(state, Phase.INVESTMENTS, turn=4)
    state = drive(state, R, lambda s: s.phase is not Phase.INVESTMENTS)
    assert not state.hands[R]
    assert state.coins[R] < 15  # the coins went into tokens


def test_mode_and_skip_steps_answer_legally() -> None:
    """A hand-driven send: the mode step gets a mode, and a sway round is skipped."""
    state = new(3, heads=QUIET_HEADS, council=COUNCIL)
    state = with_tokens(state, chars={4: {R: 2}}, lands={ZB: {R: 1}})
    state = with_hand(state, R, "M05", MercType.MESSENGER, expires=2)
    state = begin(state, Phase.CHARACTERS, turn=2)
    state = until(state, lambda s: top_kind(s) == "slot" and ENGINE.active_seats(s) == {R})
    seen = []
    while R in ENGINE.active_seats(state) and top_kind(state) in ("slot", "act"):
        legal = ENGINE.legal_actions(state, R)
        action = AI.choose(ENGINE.view(state, R), legal, ai_rng(state, R))
        seen.append(action)
        state = play(state, R, action)
    assert any(isinstance(a, PickMode) for a in seen)
    assert not any(isinstance(a, Back | Skip | PickType) for a in seen)
