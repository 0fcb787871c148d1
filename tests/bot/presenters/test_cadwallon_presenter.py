"""The «Гильдии Кадвалона» presenter: labels for every legal action, which decisions are public, log, panel, result."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any, get_args

import pytest
from pydantic import BaseModel

from bot.i18n import SUPPORTED_LOCALES, has_key, translate
from bot.presenters import Choice
from bot.presenters.cadwallon import (
    ALL_GROUPS,
    RESULT_BUDGET,
    RULE_PAGES,
    RULE_SECTIONS,
    CadwallonPresenter,
    agent_label,
    boulevard_label,
    boulevard_suggestions,
    boulevard_text,
    card_label,
    parse_boulevard,
    slot_label,
)
from bot.presenters.registry import PRESENTERS
from games.cadwallon.cards import CARDS, GUILD_ORDER, seat_allowance
from games.cadwallon.engine import CadwallonEngine
from games.cadwallon.models import (
    ActionCardDrawn,
    AgentTurned,
    AgentView,
    CadwallonEvent,
    CadwallonOptions,
    CadwallonView,
    CaptureOutcome,
    CardCaptured,
    CardStayed,
    CardStolen,
    Category,
    ChooseAgent,
    ChooseCard,
    ContractDealt,
    DeckPeeked,
    DeckReordered,
    DrawSource,
    EndReason,
    GameEnded,
    MilitiaGiven,
    Phase,
    PlaceAgent,
    PlayAction,
    PlayerResigned,
    ReserveEmpty,
    RoundEnded,
    SupportEntry,
    TurnEnded,
    TurnStep,
    WindfallRevealed,
)
from games.cadwallon.scoring import score_seat, score_table
from games.cadwallon.state import CadwallonState
from games.core.models import Event
from games.core.rng import GameRng

ENGINE = CadwallonEngine()
PRESENTER = CadwallonPresenter()
#: (grid, seats, options): every grid, small and full tables, and the optional rules.
MODES = [
    (3, 2, {}),
    (3, 4, {"conditions": True, "starting_action": True}),
    (4, 5, {"starting_action": True}),
    (5, 3, {"conditions": True}),
    (5, 8, {"starting_action": True, "conditions": True}),
]
SEEDS = ["p1", "p2"]
#: Discord display names are at most 32 characters; distinct so a leak names its seat.
LONG_NAMES = tuple(chr(ord("A") + i) * 32 for i in range(8))
RU_NAMES = ("Аня", "Боря", "Вася", "Гена", "Дима", "Женя", "Зоя", "Ира")
RAW_ID = re.compile(r"\b((USU|JEW|BLA|ZOD|THI|FER|ARC|ALC)-[1-4C]|A(0[1-9]|1\d|2[0-6])|M(0[1-9]|10)|[CK]\d\d|P[1-8])\b")
GROUP = re.compile(r"^[a-z_]{1,20}$")
PANEL_ROWS = 4  # bot.ui.panels: MAX_ROWS - 1 rows for choices, the last for the utility buttons
EVENT_CLASSES: tuple[type[BaseModel], ...] = get_args(get_args(CadwallonEvent)[0])


@dataclass
class Playout:
    """A seeded random game: every state, with the events of the step that led to it."""

    states: list[CadwallonState] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


@cache
def playout(grid: int, seats: int, seed: str, options: tuple[tuple[str, bool], ...] = ()) -> Playout:
    step = ENGINE.setup(seats, CadwallonOptions(grid=grid, **dict(options)), seed)
    out = Playout([step.state], list(step.events))
    state = step.state
    rng = GameRng(f"presenter:{seed}")
    while ENGINE.active_seats(state):
        seat = min(ENGINE.active_seats(state))
        step = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
        state = step.state
        out.states.append(state)
        out.events.extend(step.events)
    return out


def every_mode() -> Iterator[tuple[int, int, Playout]]:
    for grid, seats, options in MODES:
        for seed in SEEDS:
            yield grid, seats, playout(grid, seats, seed, tuple(sorted(options.items())))


# ---------------------------------------------------------------------- addressing
def test_boulevard_codes_read_as_the_two_slots_they_separate():
    assert boulevard_text("B2E") == "B2│B3"
    assert boulevard_text("B2S") == "B2─C2"
    assert boulevard_text("D4E") == "D4│D5"
    assert parse_boulevard("B2E", 3) == "B2E"
    assert parse_boulevard(" b2s ", 3) == "B2S"
    assert parse_boulevard("B2│B3", 4) == "B2E"
    assert parse_boulevard("C2─B2", 4) == "B2S"
    assert parse_boulevard("В2Е", 3) == "B2E"  # a Russian keyboard's look-alike letters
    assert parse_boulevard("В2С", 3) == "B2S"
    for wrong in ("C3E", "C1S", "A1", "A1C3", "E5E", "", "zzz", "B2 B4"):
        assert parse_boulevard(wrong, 3) is None, wrong
    assert parse_boulevard("E4E", 5) == "E4E"


def test_suggestions_match_a_slot_a_code_or_both_slots_in_board_order():
    view = ENGINE.view(ENGINE.setup(2, CadwallonOptions(grid=3), "suggest").state, 0)
    every = {b.boulevard for b in view.boulevards}
    assert len(every) == 12
    by_index = [b.boulevard for b in sorted(view.boulevards, key=lambda b: b.index)]

    def codes(typed: str, allowed: set[str] = every, limit: int = 25) -> list[str]:
        return [code for _, code in boulevard_suggestions(view, allowed, typed, "en", limit)]

    assert codes("") == by_index
    assert set(codes("b2")) == {"B2E", "B2S", "B1E", "A2S"}  # every boulevard beside B2
    assert codes("В2Е") == codes("B2E") == codes("b3b2") == ["B2E"]  # Russian letters, either slot first
    assert codes("C2B2") == codes("b2s") == ["B2S"]
    assert codes("B2", {"A1E", "B2S"}) == ["B2S"]  # only what the player may take
    assert codes("z9") == [] and codes("", limit=5) == by_index[:5]
    labels = {code: label for label, code in boulevard_suggestions(view, every, "A1", "ru")}
    assert labels["A1E"] == boulevard_label(next(b for b in view.boulevards if b.boulevard == "A1E"), "ru")


def test_the_digests_support_example_labels_the_boulevard():
    """An agent between Usurers 1 (S 1) at B1 and Blades 3 (S 3) at B2 gives 3 toward B1 and 1 toward B2."""
    deck = ["USU-2", "USU-3", "USU-4", "USU-1", "BLA-3", "M01", "JEW-1", "JEW-2", "JEW-3"]
    state = ENGINE.setup(2, CadwallonOptions(grid=3, deck=tuple(deck), first_seat=0), "label").state
    view = ENGINE.view(state, None)
    b1e = next(b for b in view.boulevards if b.boulevard == "B1E")
    assert boulevard_label(b1e, "en") == "B1│B2 · +3 / +1"
    assert slot_label(view, "B2", "en") == "B2 · Blades 3 (1 GP, S 3, Docks)"
    assert slot_label(view, "B3", "ru") == "Б3 · Ночной сторож (−1 ШО, ВП 1, Доки)"
    assert card_label("ZOD-2", "en") == "Zodiac 2 (2 GP, S 3, Docks)"
    assert card_label("USU-C", "ru") == "Кредитор Ростовщиков (бонус, ВП 1, Доки)"
    assert card_label("P1", "en") == "Aldebert (wild, S 0, Docks)"
    choices = PRESENTER.public_choices(view, ENGINE.legal_actions(state, 0), RU_NAMES[:2], "en")
    b1 = next(c for c in choices if c.action == PlaceAgent(boulevard="B1E"))
    assert (b1.label, b1.group) == ("B1│B2 · +3 / +1", "place_e")


# ---------------------------------------------------------------------- choices
@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_legal_action_gets_one_label_that_fits_discord(locale):
    kinds: set[str] = set()
    for _grid, seats, play in every_mode():
        for state in play.states:
            for seat in sorted(ENGINE.active_seats(state)):
                view = ENGINE.view(state, seat)
                legal = ENGINE.legal_actions(state, seat)
                choices = PRESENTER.private_choices(view, legal, LONG_NAMES[:seats], locale)
                assert [c.action for c in choices] == legal
                for choice in choices:
                    kinds.add(choice.action.kind)
                    assert choice.label and "{" not in choice.label, choice
                    assert not RAW_ID.search(choice.label), choice.label
                    assert choice.style in {"primary", "secondary", "success", "danger"}
                    if choice.group is None:
                        assert len(choice.label) <= 80, choice.label  # a button
                    else:
                        assert len(choice.label) <= 100, choice.label  # a select option
                        assert GROUP.match(choice.group) and choice.group in ALL_GROUPS, choice.group
                        assert has_key(f"cadwallon.select.{choice.group}", locale)
    assert {"place", "play", "pass", "cancel", "slot", "boulevard", "agent", "seat", "tarot_order"} <= kinds


def test_choices_fit_the_private_panel_without_merging():
    """Ungrouped choices are buttons (5 a row), groups of two or more are selects (≤ 25 options)."""
    for _grid, seats, play in every_mode():
        for state in play.states:
            for seat in sorted(ENGINE.active_seats(state)):
                view = ENGINE.view(state, seat)
                choices = PRESENTER.private_choices(view, ENGINE.legal_actions(state, seat), LONG_NAMES[:seats], "en")
                groups: dict[str | None, list[Choice]] = {}
                for choice in choices:
                    groups.setdefault(choice.group, []).append(choice)
                buttons = len(groups.pop(None, [])) + sum(1 for g in groups.values() if len(g) == 1)
                selects = [g for g in groups.values() if len(g) > 1]
                assert -(-buttons // 5) + len(selects) <= PANEL_ROWS
                assert all(len(g) <= 25 for g in selects)


def test_placement_is_public_and_everything_else_private():
    seen_private = False
    for _grid, seats, play in every_mode():
        for state in play.states[:: max(1, len(play.states) // 40)]:
            public = ENGINE.view(state, None)
            awaited = [a for s in sorted(ENGINE.active_seats(state)) for a in ENGINE.legal_actions(state, s)]
            on_board = PRESENTER.decided_on_board(public)
            choices = PRESENTER.public_choices(public, awaited if on_board else [], RU_NAMES[:seats], "ru")
            assert on_board == (public.phase is Phase.DEPLOY and public.step is TurnStep.PLACE)
            if on_board:
                assert [c.action for c in choices] == awaited
                assert {c.group for c in choices} <= {"place_e", "place_s"}
                assert all(len([c for c in choices if c.group == g]) <= 20 for g in ("place_e", "place_s"))
                assert [c.action.boulevard for c in choices] == list(public.free_boulevards)
            else:
                seen_private = True
                assert choices == []
    assert seen_private


def test_public_choices_refuse_a_seats_view_and_hidden_decisions():
    state = playout(3, 2, "p1").states[0]
    (seat,) = ENGINE.active_seats(state)
    with pytest.raises(ValueError, match="public view"):
        PRESENTER.public_choices(ENGINE.view(state, seat), [], RU_NAMES[:2], "ru")
    with pytest.raises(TypeError, match="only placements"):
        PRESENTER.public_choices(ENGINE.view(state, None), [PlayAction(card="A01")], RU_NAMES[:2], "ru")


def test_a_card_outside_the_hand_is_refused():
    state = playout(3, 2, "p1").states[0]
    (seat,) = ENGINE.active_seats(state)
    view = ENGINE.view(state, seat)
    stranger = next(
        c for c in CARDS if CARDS[c].category is Category.ACTION and c not in (view.players[seat].hand or ())
    )
    with pytest.raises(ValueError, match="hand"):
        PRESENTER.private_choices(view, [PlayAction(card=stranger)], RU_NAMES[:2], "ru")
    with pytest.raises(ValueError, match="agent"):
        PRESENTER.private_choices(view, [ChooseAgent(agent=99)], RU_NAMES[:2], "ru")
    with pytest.raises(TypeError):
        PRESENTER.private_choices(view, [object()], RU_NAMES[:2], "ru")


def test_scapegoat_offers_only_the_viewers_own_captured_militia():
    state = playout(3, 2, "p1").states[0]
    (seat,) = ENGINE.active_seats(state)
    view = ENGINE.view(state, seat)
    players = tuple(p.model_copy(update={"captured": ("M01", "M03")}) if p.seat == seat else p for p in view.players)
    view = view.model_copy(update={"players": players})
    choices = PRESENTER.private_choices(view, [ChooseCard(card="M01"), ChooseCard(card="M03")], RU_NAMES[:2], "en")
    assert [(c.label, c.group) for c in choices] == [
        ("Night Watchman (−1 PP, S 1, Docks)", "militia"),
        ("Street Patrol (−1 PP, S 2, Old Town)", "militia"),
    ]
    with pytest.raises(ValueError, match="captured"):
        PRESENTER.private_choices(view, [ChooseCard(card="M02")], RU_NAMES[:2], "en")


# ---------------------------------------------------------------------- status and panel
def test_status_lines_say_who_does_what():
    states = playout(5, 8, "p1", (("conditions", True), ("starting_action", True))).states
    steps: dict[TurnStep | None, str] = {}
    for state in states:
        public = ENGINE.view(state, None)
        text = PRESENTER.status(public, RU_NAMES, "en")
        assert text and "{" not in text
        steps.setdefault(public.step, text)
    assert (
        steps[TurnStep.PLACE].startswith("Round 1: ") and "places an agent (40 free boulevards" in steps[TurnStep.PLACE]
    )
    assert "may play an action card" in steps[TurnStep.ACT]
    final = ENGINE.view(states[-1], None)
    assert final.result is not None
    winners = [b for b in final.result if b.rank == 0]
    assert PRESENTER.status(final, RU_NAMES, "en").startswith("Game over.")
    assert RU_NAMES[winners[0].seat] in PRESENTER.status(final, RU_NAMES, "en")


def test_the_private_panel_shows_only_the_viewers_own_secrets():
    rng = GameRng("panel")
    for _grid, seats, play in every_mode():
        for state in play.states[:: max(1, len(play.states) // 25)]:
            for seat in range(seats):
                view = ENGINE.view(state, seat)
                text = PRESENTER.private_summary(view, RU_NAMES[:seats], "ru")
                assert text and "{" not in text and not RAW_ID.search(text)
                other = ENGINE.resample_hidden(state, seat, rng)
                assert PRESENTER.private_summary(ENGINE.view(other, seat), RU_NAMES[:seats], "ru") == text
                legal = ENGINE.legal_actions(state, seat)
                mine = [(c.label, c.group) for c in PRESENTER.private_choices(view, legal, RU_NAMES[:seats], "ru")]
                theirs = PRESENTER.private_choices(
                    ENGINE.view(other, seat), ENGINE.legal_actions(other, seat), RU_NAMES[:seats], "ru"
                )
                assert mine == [(c.label, c.group) for c in theirs]


def test_the_panel_lists_the_hand_with_effects_the_contract_and_the_task():
    state = ENGINE.setup(
        2,
        CadwallonOptions(
            grid=3,
            deck=("USU-1", "BLA-3", "JEW-1", "P1", "ZOD-1", "M01", "USU-2", "JEW-4", "ZOD-2"),
            reserve=("A04",),
            starting_action=True,
            starting_hands=(("A06",), ("A13",)),
            contract_cards=("K05", "K06"),
            first_seat=0,
        ),
        "panel",
    ).state
    text = PRESENTER.private_summary(ENGINE.view(state, 0), ["Аня", "Боря"], "en")
    assert text.splitlines()[:2] == [
        "Your action cards (1, house cards):",
        "• **Arrest** — " + translate("en", "cadwallon.action_text.A06"),
    ]
    assert "Your secret contract: **Clean Hands** — no more militia cards than any other player → +4." in text
    assert "Agents to place this round: 6 of 6." in text
    assert translate("en", "cadwallon.panel.todo.place") in text
    assert "Barricade" not in text and "Friends at Court" not in text
    waiting = PRESENTER.private_summary(ENGINE.view(state, 1), ["Аня", "Боря"], "ru")
    assert "Сейчас ходит Аня." in waiting
    assert PRESENTER.private_summary(ENGINE.view(state, None), ["Аня", "Боря"], "ru") == translate(
        "ru", "ui.panel.spectator"
    )
    # Bob places; his Barricade asks for a boulevard: the panel says what to choose.
    state = ENGINE.apply(state, 0, PlaceAgent(boulevard="A1E")).state
    state = ENGINE.apply(state, 1, PlaceAgent(boulevard="B1E")).state
    state = ENGINE.apply(state, 1, PlayAction(card="A13")).state
    text = PRESENTER.private_summary(ENGINE.view(state, 1), ["Аня", "Боря"], "en")
    assert translate("en", "cadwallon.panel.target.A13", card="Barricade") in text
    labels = [
        c.label
        for c in PRESENTER.private_choices(ENGINE.view(state, 1), ENGINE.legal_actions(state, 1), ["Аня", "Боря"], "en")
    ]
    assert labels[-2:] == ["Choose another card", "End turn (keep the card)"]


# ---------------------------------------------------------------------- log lines
def _examples() -> list[Event]:
    """Events a random playout may miss: private copies, rare outcomes and endings."""
    supports = (SupportEntry(seat=0, support=4), SupportEntry(seat=1, support=4))
    return [
        ContractDealt(seat=0, contract="K07", visible_to=frozenset({0})),
        ActionCardDrawn(seat=1, source=DrawSource.SHORTAGE),
        ActionCardDrawn(seat=1, source=DrawSource.INFORMANT, card="A02", visible_to=frozenset({1})),
        ActionCardDrawn(seat=1, source=DrawSource.STOLEN, card="A02"),
        ReserveEmpty(seat=2),
        DeckPeeked(seat=0, count=3),
        DeckPeeked(seat=0, count=3, cards=("A01", "M02", "P3"), visible_to=frozenset({0})),
        DeckReordered(seat=0, to_bottom=True, automatic=True),
        DeckReordered(seat=0, to_bottom=True, top=("A01", "M02"), bottom="P3", visible_to=frozenset({0})),
        CardStolen(seat=0, victim=1),
        CardStolen(seat=0, victim=1, card="A06", visible_to=frozenset({0, 1})),
        MilitiaGiven(seat=0, recipient=2, card="M03"),
        WindfallRevealed(seat=1, card="A05", to_hand=True),
        WindfallRevealed(seat=1, card="USU-1", to_hand=False),
        CardCaptured(
            seat=1,
            slot="B2",
            card="ZOD-1",
            category=Category.GUILD,
            support=4,
            outcome=CaptureOutcome.ARBITRATION,
            supports=supports,
            tied=(0, 1),
        ),
        CardCaptured(seat=1, slot="C3", category=Category.ACTION, support=2, outcome=CaptureOutcome.WON),
        CardStayed(slot="A1", card="USU-1", outcome=CaptureOutcome.TIE, supports=supports, tied=(0, 1)),
        CardStayed(slot="A2", card="P1", outcome=CaptureOutcome.NO_SUPPORT),
        CardStayed(slot="A3", card="M01", outcome=CaptureOutcome.CURFEW, supports=supports[:1]),
        RoundEnded(round=2, captured=0, next_first_seat=2, by_favour=True, stalled_rounds=2),
        PlayerResigned(seat=1),
        GameEnded(reason=EndReason.STALLED, deck_size=4, empty_slots=0),
        GameEnded(reason=EndReason.RESIGNED, deck_size=4, empty_slots=0),
    ]


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_event_kind_has_a_log_line(locale):
    seen: set[str] = set()
    events = [e for _g, _s, play in every_mode() for e in play.events] + _examples()
    for event in events:
        line = PRESENTER.narrate(event, LONG_NAMES, locale)
        kind = event.kind
        seen.add(kind)
        if isinstance(event, TurnEnded):
            assert line is None  # deliberately silent: the next placement names the next player
            continue
        assert line, event
        assert "{" not in line and "cadwallon." not in line, line
        assert not RAW_ID.search(line.replace(LONG_NAMES[0], "")), line
    kinds = {cls.model_fields["kind"].default for cls in EVENT_CLASSES}
    assert kinds <= seen, sorted(kinds - seen)


def test_capture_lines_name_the_winner_the_support_and_ties():
    names = ["Аня", "Боря", "Вася"]
    examples = {type(e).__name__ + str(getattr(e, "slot", "")): e for e in _examples()}
    won = PRESENTER.narrate(examples["CardCapturedB2"], names, "en")
    assert won == "B2: Боря takes Zodiac 1 with support 4. (Аня 4, Боря 4) Tied with Аня, Боря; Arbitration decides."
    hidden = PRESENTER.narrate(examples["CardCapturedC3"], names, "ru")
    assert hidden == "В3: Боря забирает карту действий с поддержкой 2."
    tie = PRESENTER.narrate(examples["CardStayedA1"], names, "en")
    assert tie == "A1: Usurers 1 stays — a tie at 4 between Аня, Боря."
    assert (
        PRESENTER.narrate(examples["CardStayedA2"], names, "ru") == "А2: «Альдеберт» остаётся — её никто не поддержал."
    )


def test_the_double_agent_line_says_which_agent_was_turned():
    turned = AgentTurned(seat=0, owner=1, agent=3, boulevard="B1E")
    names = ["Аня", "Боря"]
    # Revision 5: the turned agent supports nobody.
    assert PRESENTER.narrate(turned, names, "en") == "Аня turns Боря's agent on B1│B2: this round it supports nobody."
    assert PRESENTER.narrate(turned, names, "ru") == (
        "Аня перевербовывает агента игрока Боря на Б1│Б2: в этом раунде он никого не поддерживает."
    )


def test_a_private_line_names_the_card_and_the_public_one_does_not():
    names = ["Аня", "Боря"]
    public = PRESENTER.narrate(CardStolen(seat=0, victim=1), names, "en")
    private = PRESENTER.narrate(CardStolen(seat=0, victim=1, card="A06", visible_to=frozenset({0, 1})), names, "en")
    assert public == "Аня steals an action card from Боря."
    assert private == "Аня steals Arrest from Боря."
    drawn = ActionCardDrawn(seat=1, source=DrawSource.SHORTAGE)
    assert PRESENTER.narrate(drawn, names, "ru") == "Боря берёт на руку карту действий (не хватило проспектов)."


# ---------------------------------------------------------------------- result
def test_the_seed_example_reads_itemised():
    """Red: Usurers 1 + 3 with a personality (12), Jewelers 2 (2), an action (+2), militia 1 + 1 (−4) → 12."""
    red = score_seat(0, ("USU-4", "USU-1", "JEW-2", "P1", "M01", "M02"), ("A01",), 0, grid=3)
    assert red.total == 12
    blue = score_seat(1, ("BLA-1",), (), 0, grid=3)
    view = ENGINE.view(playout(3, 2, "p1").states[-1], None)
    view = view.model_copy(update={"result": (red.model_copy(update={"rank": 0}), blue.model_copy(update={"rank": 1}))})
    lines = PRESENTER.result_lines(view, ["Red", "Blue"], "en")
    assert lines[1:4] == [
        "**1. Red — 12 points**",
        "• Guilds: Usurers 4 × 3 (1 personality) = 12; Jewelers 2 × 1 = 2",
        "• Actions: 1 × 2 = +2 · Militia: −2 × 2 = −4",
    ]
    assert lines[4] == "**2. Blue — 2 points**"
    ru = PRESENTER.result_lines(view, ["Red", "Blue"], "ru")
    assert "• Гильдии: Ростовщики 4 × 3 (Персонажей: 1) = 12; Ювелиры 2 × 1 = 2" in ru


def test_creditors_contracts_and_the_crest_tie_break_are_itemised():
    captured = (
        ("USU-1", "USU-2", "USU-3", "USU-4", "USU-C", "M05"),
        ("JEW-1", "JEW-2", "ZOD-C", "BLA-1", "P1", "P2"),
    )
    table = score_table(captured, ((), ("A01",)), ((), ()), grid=4, condition=None, contracts=("K05", "K16"))
    view = ENGINE.view(playout(4, 5, "p1", (("starting_action", True),)).states[-1], None)
    view = view.model_copy(update={"result": table, "num_seats": 2})
    text = "\n".join(PRESENTER.result_lines(view, ["Ann", "Bob"], "en"))
    assert "Usurers 7 × 4 = 28 + Creditor with four cards +5" in text
    assert "Zodiac: no members + Creditor +1" in text
    assert "Contract Clean Hands: not fulfilled" in text and "Contract Friend of the Watch: not fulfilled" in text
    tied = [b.model_copy(update={"total": 10, "rank": i}) for i, b in enumerate(table)]
    view = view.model_copy(update={"result": tuple(tied)})
    text = "\n".join(PRESENTER.result_lines(view, ["Ann", "Bob"], "en"))
    assert f"· tie-break: {table[0].crests} crest" in text


def test_the_seat_allowance_is_itemised_when_given():
    """Revision 2: a seat's allowance for its place in round 1's turn order has its own result line."""
    late = score_seat(0, ("BLA-1",), (), 0, grid=3, seat_points=4)
    first = score_seat(1, ("BLA-2",), (), 0, grid=3)
    view = ENGINE.view(playout(3, 2, "p1").states[-1], None)
    view = view.model_copy(
        update={"result": (late.model_copy(update={"rank": 0}), first.model_copy(update={"rank": 1}))}
    )
    text = "\n".join(PRESENTER.result_lines(view, ["Ann", "Bob"], "en"))
    assert "**1. Ann — 6 points**" in text and text.count("Seat allowance +4") == 1
    assert "Надбавка за место +4" in "\n".join(PRESENTER.result_lines(view, ["Ann", "Bob"], "ru"))


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_results_of_every_mode_fit_one_embed(locale):
    for grid, seats, play in every_mode():
        view = ENGINE.view(play.states[-1], None)
        assert view.phase is Phase.FINISHED and view.result is not None
        lines = PRESENTER.result_lines(view, LONG_NAMES[:seats], locale)
        text = "\n".join(lines)
        assert len(text) <= RESULT_BUDGET and "{" not in text
        heads = [line for line in lines if line.startswith("**")]
        assert len(heads) == seats, (grid, seats)


def test_eight_long_breakdowns_are_shortened_to_fit():
    cards = [c for c in CARDS if CARDS[c].category is Category.GUILD]  # 32 members: 4 per seat, every guild
    spread = tuple(tuple(cards[s::8]) + ("P1", "M01", "M02") * (s == 0) for s in range(8))
    table = score_table(
        spread, ((),) * 8, ((),) * 8, grid=5, condition="C11", contracts=tuple(f"K{i:02d}" for i in range(11, 19))
    )
    view = ENGINE.view(playout(5, 8, "p1", (("conditions", True), ("starting_action", True))).states[-1], None)
    view = view.model_copy(update={"result": table})
    for locale in SUPPORTED_LOCALES:
        lines = PRESENTER.result_lines(view, LONG_NAMES, locale)
        assert len("\n".join(lines)) <= RESULT_BUDGET
        assert len([line for line in lines if line.startswith("**")]) == 8


# ---------------------------------------------------------------------- rules
@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_the_revision_page_gives_the_4x4_and_5x5_seat_allowance_as_the_engine_has_it(locale):
    """Revision 3's section lists every 4×4 and 5×5 row of the seat allowance, each grid in its own sentence."""
    (text,) = [x for t, x in PRESENTER.rule_page("revision", locale) if "5×5" in t]
    for grid in (4, 5):
        (sentence,) = [part for part in text.split("\n") if part.startswith(f"{grid}×{grid}: ")]
        rows = ["/".join(str(seat_allowance(grid, n, place)) for place in range(n)) for n in range(2, 9)]
        assert sentence.removeprefix(f"{grid}×{grid}: ").removesuffix(".").split("; ") == rows


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_the_main_rules_fit_one_embed_and_the_pages_their_fields(locale):
    sections = PRESENTER.rules(locale)
    assert [t for t, _ in sections] == [translate(locale, f"cadwallon.rules.{k}.title") for k in RULE_SECTIONS]
    assert all(0 < len(text) <= 1024 for _, text in sections)
    assert sum(len(t) + len(x) for t, x in sections) <= 5500
    for page in RULE_PAGES:
        fields = PRESENTER.rule_page(page, locale)
        assert fields and all(0 < len(t) <= 256 and 0 < len(x) <= 1024 for t, x in fields)
        assert len(fields) <= 25
        assert len(PRESENTER.rule_page_title(page, locale)) + sum(len(t) + len(x) for t, x in fields) <= 6000
    with pytest.raises(ValueError, match="unknown rules page"):
        PRESENTER.rule_page("chess", locale)


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_the_card_tables_come_from_the_engines_cards_and_say_they_are_house_cards(locale):
    cards = "\n".join(text for _, text in PRESENTER.rule_page("cards", locale))
    for guild in GUILD_ORDER:
        members = [CARDS[f"{guild.value}-{k}"] for k in range(1, 5)]
        values = " · ".join(f"{m.gp}/{m.support} {m.district.value}" for m in members)
        assert values in cards, guild
    for i in range(1, 11):
        info = CARDS[f"M{i:02d}"]
        assert f"M{i:02d} {translate(locale, f'cadwallon.militia.M{i:02d}')}: −{info.pp}" in cards
    house = {"en": "house card", "ru": "домашние карты"}[locale]
    for page in ("cards", "actions", "conditions"):
        assert house in PRESENTER.rule_page_title(page, locale)
    main = " ".join(text for _, text in PRESENTER.rules(locale))
    assert {"en": "**house card**", "ru": "**домашние карты**"}[locale] in main
    actions = "\n".join(text for _, text in PRESENTER.rule_page("actions", locale))
    assert all(f"**A{i:02d} " in actions for i in range(1, 27))
    conditions = "\n".join(text for _, text in PRESENTER.rule_page("conditions", locale))
    assert all(f"**C{i:02d} " in conditions for i in range(1, 13))
    assert all(f"**K{i:02d} " in conditions for i in range(1, 21))
    readings = "\n".join(text for _, text in PRESENTER.rule_page("readings", locale))
    assert readings.count("• ") == 15


def test_the_presenter_is_registered():
    assert isinstance(PRESENTERS["cadwallon"], CadwallonPresenter)


def test_render_board_goes_through_the_real_renderer():
    state = playout(3, 2, "p1").states[5]
    png = PRESENTER.render_board(ENGINE.view(state, None), RU_NAMES[:2], "ru")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    with pytest.raises(TypeError):
        PRESENTER.render_board(object(), RU_NAMES[:2], "ru")  # type: ignore[arg-type]
    view: Any = ENGINE.view(state, None)
    assert isinstance(view, CadwallonView)


def test_the_board_message_gets_the_compact_board_and_full_board_the_detailed_one() -> None:
    """``render_board`` (the public message) is the 560×560 compact board; ``render_full_board`` the detailed one."""
    import io

    from PIL import Image

    state = playout(4, 3, "p-full").states[9]
    public = ENGINE.view(state, None)
    compact = Image.open(io.BytesIO(PRESENTER.render_board(public, RU_NAMES[:3], "ru")))
    full = Image.open(io.BytesIO(PRESENTER.render_full_board(public, RU_NAMES[:3], "ru")))
    assert compact.size == (560, 560)  # square, like the phone's 280×280 embed box
    assert full.width > 1000 and full.height > 700  # the detailed board keeps its size
    leaky = public.model_copy(
        update={"players": tuple(p.model_copy(update={"hand": ("A01",)}) for p in public.players)}
    )
    for render in (PRESENTER.render_board, PRESENTER.render_full_board):
        with pytest.raises(ValueError, match="hand of seat"):
            render(leaky, RU_NAMES[:3], "ru")


# ---------------------------------------------------------------------- one notation (issue 13)
def test_one_boulevard_notation_in_both_languages_and_every_spelling_parses() -> None:
    """The board, selects and log write a boulevard as its two slots; Russian rows are А–Д."""
    assert boulevard_text("B2E", "ru") == "Б2│Б3"
    assert boulevard_text("C1S", "ru") == "В1─Г1"
    assert boulevard_text("C1S", "en") == "C1─D1"
    for typed in ("Б2│Б3", "б2б3", "Б3-Б2", "Б2 Б3", "B2E", "b2e", "Б2В", "B2B3"):
        assert parse_boulevard(typed, 3, "ru") == "B2E", typed
    # On a Russian board В is the third row: В1─Г1 is C1S, not a look-alike of B.
    assert parse_boulevard("В1Г1", 4, "ru") == "C1S"
    assert parse_boulevard("В1Ю", 4, "ru") == "C1S"
    # On an English board a Russian keyboard's look-alikes still mean the Latin letters.
    assert parse_boulevard("В1С", 3, "en") == "B1S"
    assert parse_boulevard("Б2Б3", 3, "en") is None


def test_russian_placement_labels_and_suggestions_use_russian_rows() -> None:
    state = ENGINE.setup(2, CadwallonOptions(grid=3, first_seat=0), "notation").state
    view = ENGINE.view(state, 0)
    codes = {b.boulevard for b in view.boulevards}
    found = boulevard_suggestions(view, codes, "Б2", "ru")
    assert {code for _, code in found} == {"A2S", "B1E", "B2E", "B2S"}
    assert all(label.split(" ")[0].count("Б2") == 1 for label, _ in found)
    assert not any("B" in label for label, _ in found)


def test_buttons_use_the_boards_pictures() -> None:
    """Militia is a shield on the board, so its choices wear 🛡; action cards are a scroll in both."""
    import bot.presenters.cadwallon as presenter
    import bot.render.cadwallon as render
    from games.cadwallon.models import Category

    assert render.CATEGORY_GLYPHS[Category.MILITIA][0].__name__ == "_shield"
    assert presenter.EMOJI_MILITIA == "\N{SHIELD}"
    assert render.CATEGORY_GLYPHS[Category.ACTION][0].__name__ == "_scroll"
    assert presenter.EMOJI_CARD == "\N{SCROLL}"


#: The revision page's last sections (issue 15): revision, card changed, before → after, a phrase of its new text.
LATEST_REVISIONS = [
    (-3, "4", "A04", "1.59 → 1.38", {"en": "this turn", "ru": "этот ход"}),
    (-2, "5", "A15", "1.60 → 1.16", {"en": "nobody", "ru": "никого"}),
]


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
@pytest.mark.parametrize(("index", "number", "card", "measured", "phrase"), LATEST_REVISIONS)
def test_the_revision_page_ends_with_revisions_four_and_five(locale, index, number, card, measured, phrase):
    """Revision 4 names Reinforcements and revision 5 Double Agent, each with its numbers and the card's new text."""
    title, text = PRESENTER.rule_page("revision", locale)[index]
    assert number in title and number in PRESENTER.rule_page_title("revision", locale)
    assert translate(locale, f"cadwallon.action.{card}") in title
    assert measured.replace(".", "," if locale == "ru" else ".") in text.replace("×", "")
    actions = "\n".join(x for _, x in PRESENTER.rule_page("actions", locale))
    assert translate(locale, f"cadwallon.action_text.{card}") in actions
    assert phrase[locale] in translate(locale, f"cadwallon.action_text.{card}")


#: Revision 6 (issue 15): the guild members whose S changed, each (old S, new S).
REVISION_6 = {"USU-3": (2, 1), "USU-4": (2, 3), "ZOD-1": (2, 1), "ZOD-2": (2, 3), "ZOD-3": (2, 1), "ZOD-4": (2, 3)}


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_the_revision_page_ends_with_revision_six_and_its_new_support_values(locale):
    """Revision 6 names every changed Usurer and Zodiac card with its S before → after, as the engine has it."""
    title, text = PRESENTER.rule_page("revision", locale)[-1]
    assert "6" in title and "6" in PRESENTER.rule_page_title("revision", locale)
    for card, (_old, new) in REVISION_6.items():
        assert CARDS[card].support == new
        name = card_label(card, locale).split(" (")[0]
        assert name in text
    assert "2 → 1" in text and "2 → 3" in text
    # Each guild's points and total S stay as they were (digest §2.3: GP + S = 15 per guild).
    for guild in ("USU", "ZOD"):
        members = [CARDS[f"{guild}-{k}"] for k in range(1, 5)]
        assert sum(c.gp for c in members) == 7 and sum(c.support for c in members) == 8


def test_a_turned_agent_is_labelled_as_supporting_nobody():
    """Revision 5: the agent Double Agent turned keeps its owner's colour and says it supports nobody."""
    turned = AgentView(id=3, owner=1, boulevard="B1E", boulevard_index=4, turned=True)
    plain = turned.model_copy(update={"turned": False})
    names = ["Аня", "Боря"]
    assert agent_label(turned, names, "en") == "B1│B2 · Боря (turned: supports nobody)"
    assert agent_label(turned, names, "ru") == "Б1│Б2 · Боря (перевербован: никого не поддерживает)"
    assert agent_label(plain, names, "en") == "B1│B2 · Боря"
