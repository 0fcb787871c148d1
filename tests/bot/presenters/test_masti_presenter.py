"""The «Масти Власти» presenter: labels for every legal action, private-only choices, status, log and result."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest

from bot.i18n import SUPPORTED_LOCALES, has_key, translate
from bot.i18n.narrate import narrate
from bot.presenters import Choice
from bot.presenters.coup import CoupPresenter
from bot.presenters.masti import (
    GUILD_EMOJI,
    LEAVE_GROUP,
    NEUTRAL_EMOJI,
    PLAY_GROUP,
    RULE_SECTIONS,
    SEED_GROUP,
    MastiPresenter,
    card_label,
    signed,
)
from bot.presenters.registry import PRESENTERS
from bot.render.masti import GLYPHS, NEUTRAL_MARKS, render_masti_board, render_masti_compact
from games.core.models import Event
from games.core.rng import GameRng
from games.coup.models import ActionKind, CoinsTaken
from games.coup.models import GameStarted as CoupStarted
from games.masti.deck import ALL_CARDS
from games.masti.engine import MastiEngine
from games.masti.models import (
    BribePaid,
    CardKind,
    CardLeft,
    CardPlayed,
    GameScored,
    JokerPlacement,
    JokersPlaced,
    LeaveCard,
    MastiOptions,
    MastiView,
    Mode,
    PayBribe,
    Phase,
    PlayCard,
    PlayerDroppedOut,
    PlayerResigned,
    RoundWon,
    SeedTrump,
    TrumpRevealed,
    TrumpSeeded,
)
from games.masti.scoring import score_unit
from games.masti.state import MastiState

ENGINE = MastiEngine()
PRESENTER = MastiPresenter()
MODES = [(3, False), (4, False), (4, True), (5, False), (6, False)]
SEEDS = ["p1", "p2", "p3"]
#: Discord display names are at most 32 characters; distinct so a leak names its seat.
LONG_NAMES = tuple(f"{chr(ord('A') + i)}" * 32 for i in range(6))
RU_NAMES = ("Аня", "Боря", "Вася", "Гена", "Дима", "Женя")
RAW_CARD = re.compile(r"\b[APEU](0[1-9]|1[0-3])\b")
GROUP = re.compile(r"^[a-z_]{1,20}$")
PANEL_ROWS = 4  # bot.ui.panels: MAX_ROWS - 1 rows for choices, the last for the utility buttons


@dataclass
class Playout:
    """A seeded random game: every state, with the events of the step that led to it."""

    n: int
    states: list[MastiState] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


@cache
def playout(n: int, teams: bool, seed: str) -> Playout:
    step = ENGINE.setup(n, MastiOptions(teams=teams), seed)
    out = Playout(n, [step.state], list(step.events))
    state = step.state
    rng = GameRng(f"presenter:{seed}")
    while ENGINE.active_seats(state):
        seat = rng.choice(sorted(ENGINE.active_seats(state)))
        step = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
        state = step.state
        out.states.append(state)
        out.events.extend(step.events)
    return out


def every_state() -> Iterator[tuple[int, bool, MastiState]]:
    for n, teams in MODES:
        for seed in SEEDS:
            for state in playout(n, teams, seed).states:
                yield n, teams, state


def card_of(action: Any) -> str | None:
    return getattr(action, "card", None)


# ---------------------------------------------------------------------- choices
@pytest.mark.parametrize(("n", "teams"), MODES)
@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_legal_action_gets_one_label_that_fits_discord(n, teams, locale):
    kinds: set[str] = set()
    for seed in SEEDS:
        for state in playout(n, teams, seed).states:
            for seat in sorted(ENGINE.active_seats(state)):
                view = ENGINE.view(state, seat)
                legal = ENGINE.legal_actions(state, seat)
                choices = PRESENTER.private_choices(view, legal, LONG_NAMES[:n], locale)
                assert sorted(repr(c.action) for c in choices) == sorted(map(repr, legal))
                for choice in choices:
                    kinds.add(choice.action.kind)
                    assert choice.label and "{" not in choice.label, choice
                    assert not RAW_CARD.search(choice.label), choice.label
                    assert choice.emoji
                    assert choice.style in {"primary", "secondary", "success", "danger"}
                    if choice.group is None:
                        assert len(choice.label) <= 80, choice.label  # a button
                    else:
                        assert len(choice.label) <= 100, choice.label  # a select option
                        assert GROUP.match(choice.group), choice.group
                        assert has_key(f"masti.select.{choice.group}", locale)
    expected = {"play", "bribe"} | ({"seed", "leave"} if n == 6 else set())
    assert kinds == expected


@pytest.mark.parametrize(("n", "teams"), MODES)
def test_private_choices_offer_only_the_viewers_own_cards(n, teams):
    for seed in SEEDS:
        for state in playout(n, teams, seed).states:
            for seat in sorted(ENGINE.active_seats(state)):
                view = ENGINE.view(state, seat)
                choices = PRESENTER.private_choices(view, ENGINE.legal_actions(state, seat), LONG_NAMES[:n], "ru")
                others = {card for s, hand in enumerate(state.hands) if s != seat for card in hand}
                for choice in choices:
                    card = card_of(choice.action)
                    if card is None:
                        continue
                    assert card not in others
                    if isinstance(choice.action, LeaveCard):
                        assert card in view.leave_choices
                    else:
                        assert card in (view.hand or ())


def test_a_card_outside_the_hand_is_refused():
    state = playout(3, False, "p1").states[0]
    (seat,) = ENGINE.active_seats(state)
    view = ENGINE.view(state, seat)
    stranger = next(c for c in ALL_CARDS if c not in (view.hand or ()))
    with pytest.raises(ValueError, match="hand"):
        PRESENTER.private_choices(view, [PlayCard(card=stranger)], RU_NAMES[:3], "ru")
    with pytest.raises(TypeError):
        PRESENTER.private_choices(view, [object()], RU_NAMES[:3], "ru")


@pytest.mark.parametrize(("n", "teams"), MODES)
def test_choices_fit_the_private_panel_without_merging(n, teams):
    """Ungrouped choices are buttons (5 a row), groups of two or more are selects (≤ 25 options)."""
    for seed in SEEDS:
        for state in playout(n, teams, seed).states:
            for seat in sorted(ENGINE.active_seats(state)):
                view = ENGINE.view(state, seat)
                choices = PRESENTER.private_choices(view, ENGINE.legal_actions(state, seat), LONG_NAMES[:n], "en")
                groups: dict[str | None, list[Choice]] = {}
                for choice in choices:
                    groups.setdefault(choice.group, []).append(choice)
                buttons = len(groups.pop(None, [])) + sum(1 for g in groups.values() if len(g) == 1)
                selects = [g for g in groups.values() if len(g) > 1]
                assert -(-buttons // 5) + len(selects) <= PANEL_ROWS
                assert all(len(g) <= 25 for g in selects)


def test_every_playable_card_is_in_one_select_and_the_bribe_is_a_button():
    state = playout(4, False, "p2").states[0]
    # Play the lead, then look at the first follower who may bribe.
    (lead,) = ENGINE.active_seats(state)
    state = ENGINE.apply(state, lead, ENGINE.legal_actions(state, lead)[0]).state
    (seat,) = ENGINE.active_seats(state)
    view = ENGINE.view(state, seat)
    choices = PRESENTER.private_choices(view, ENGINE.legal_actions(state, seat), RU_NAMES[:4], "ru")
    bribe = [c for c in choices if isinstance(c.action, PayBribe)]
    assert len(bribe) == 1 and bribe[0].group is None
    assert bribe[0].label == "Подкуп: пропустить ход (самоцветов: 2)"
    cards = [c for c in choices if isinstance(c.action, PlayCard)]
    assert cards and {c.group for c in cards} == {PLAY_GROUP}  # one step: one select, whatever the persona
    for choice in cards:
        assert choice.label == card_label(choice.action.card, "ru")


def test_seed_and_leave_choices_have_their_own_selects():
    states = playout(6, False, "p1").states
    seeding = next(s for s in states if s.phase is Phase.SEEDING)
    seat = min(ENGINE.active_seats(seeding))
    choices = PRESENTER.private_choices(ENGINE.view(seeding, seat), ENGINE.legal_actions(seeding, seat), RU_NAMES, "ru")
    assert len(choices) == 9 and {c.group for c in choices} == {SEED_GROUP}
    assert all(isinstance(c.action, SeedTrump) for c in choices)
    leaving = next(s for s in states if s.phase is Phase.LEAVE)
    (seat,) = ENGINE.active_seats(leaving)
    choices = PRESENTER.private_choices(ENGINE.view(leaving, seat), ENGINE.legal_actions(leaving, seat), RU_NAMES, "ru")
    assert {c.group for c in choices} == {LEAVE_GROUP}
    assert translate("ru", f"masti.select.{LEAVE_GROUP}") == "Какую карту оставить в центре стола?"


def test_card_labels_read_naturally():
    assert card_label("P07", "ru") == "Пьетра 7 · Художники ×2"
    assert card_label("P07", "en") == "Pietra 7 · Artists ×2"
    assert card_label("U02", "ru") == "Уго 2 · Штраф −2"
    assert card_label("A03", "en") == "Aldo 3 · Bonus +2"
    assert card_label("E01", "ru") == "Энцо 1 · Джокер"
    assert card_label("A13", "ru") == "Альдо 13 · Власть"
    assert card_label("E09", "ru") == "Энцо 9 · Рыцари ×2"
    for locale in SUPPORTED_LOCALES:
        labels = {card_label(card, locale) for card in ALL_CARDS}
        assert len(labels) == 52  # every card has its own label
        assert max(map(len, labels)) <= 40


# ---------------------------------------------------------------------- the public board
def test_the_board_offers_no_choices_in_any_phase():
    for n, _teams, state in every_state():
        public = ENGINE.view(state, None)
        awaited_legal = [a for s in sorted(ENGINE.active_seats(state)) for a in ENGINE.legal_actions(state, s)]
        assert PRESENTER.public_choices(public, awaited_legal, LONG_NAMES[:n], "ru") == []
        assert PRESENTER.decided_on_board(public) is False


def test_public_choices_refuse_a_seats_view():
    state = playout(3, False, "p1").states[0]
    with pytest.raises(ValueError, match="public"):
        PRESENTER.public_choices(ENGINE.view(state, 0), [], RU_NAMES[:3], "ru")


# ---------------------------------------------------------------------- status
@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_there_is_a_status_line_for_every_phase(locale):
    seen: dict[str, str] = {}
    for n, _teams, state in every_state():
        public = ENGINE.view(state, None)
        line = PRESENTER.status(public, LONG_NAMES[:n], locale)
        assert line and "{" not in line and not RAW_CARD.search(line), line
        kind = public.phase.value
        if public.phase is Phase.PLAY:
            kind = "follow" if public.plays else "lead"
        seen.setdefault(kind, line)
        if public.turn is not None and public.phase is not Phase.FINISHED:
            assert LONG_NAMES[public.turn] in line
    assert set(seen) == {"seeding", "lead", "follow", "leave", "finished"}


def test_status_lines_in_russian():
    state = playout(3, False, "p1").states[0]
    public = ENGINE.view(state, None)
    assert public.trump_persona is not None and public.turn is not None
    trump = translate("ru", f"masti.persona.{public.trump_persona.value}")
    lead = RU_NAMES[public.turn]
    assert PRESENTER.status(public, RU_NAMES[:3], "ru") == f"Раунд 1 из 16, козырь — {trump}. Начинает {lead}."
    card = state.hands[public.turn][0]
    state = ENGINE.apply(state, public.turn, PlayCard(card=card)).state
    line = PRESENTER.status(ENGINE.view(state, None), RU_NAMES[:3], "ru")
    assert f"стартовая карта — {card_label(card, 'ru')}" in line


@pytest.mark.parametrize(("n", "teams"), MODES)
def test_the_final_status_names_the_winners(n, teams):
    state = playout(n, teams, "p1").states[-1]
    public = ENGINE.view(state, None)
    line = PRESENTER.status(public, RU_NAMES[:n], "ru")
    winners = [u for u in public.result or () if u.rank == 0]
    for unit in winners:
        for seat in unit.seats:
            assert RU_NAMES[seat] in line
    if teams or n == 6:
        assert "команд" in line


# ---------------------------------------------------------------------- the private panel
@pytest.mark.parametrize(("n", "teams"), MODES)
def test_the_private_panel_depends_only_on_what_the_seat_may_know(n, teams):
    rng = GameRng(f"panel:{n}:{teams}")
    for state in playout(n, teams, "p1").states[::3]:
        for seat in range(n):
            view = ENGINE.view(state, seat)
            text = PRESENTER.private_summary(view, RU_NAMES[:n], "ru")
            assert text and "{" not in text and not RAW_CARD.search(text)
            other = ENGINE.resample_hidden(state, seat, rng)
            assert PRESENTER.private_summary(ENGINE.view(other, seat), RU_NAMES[:n], "ru") == text
            for s, hand in enumerate(state.hands):
                if s != seat:
                    assert not any(card_label(card, "ru") in text for card in hand if card not in state.trump_deck)


def test_the_panel_groups_the_hand_by_persona_and_says_what_to_do():
    state = playout(4, True, "p3").states[0]
    (lead,) = ENGINE.active_seats(state)
    text = PRESENTER.private_summary(ENGINE.view(state, lead), RU_NAMES[:4], "ru")
    assert text.startswith("Ваши карты (10):\n")
    assert "Самоцветы для подкупа: 2. На карте богатства: 0." in text
    assert f"Ваш напарник — {RU_NAMES[(lead + 2) % 4]}." in text
    assert "Вы начинаете раунд: сыграйте любую карту. Подкупать первому игроку нельзя." in text
    for persona in "APEU":
        if any(card[0] == persona for card in state.hands[lead]):
            assert f"**{translate('ru', f'masti.persona.{persona}')}:**" in text
    state = ENGINE.apply(state, lead, ENGINE.legal_actions(state, lead)[0]).state
    (seat,) = ENGINE.active_seats(state)
    text = PRESENTER.private_summary(ENGINE.view(state, seat), RU_NAMES[:4], "ru")
    assert "Сыграйте карту с персонажем " in text or "можно сыграть любую" in text
    assert "Стартовая карта" not in text  # the status line above the panel names it
    assert "Или пропустите ход, сыграв самоцвет для подкупа (в запасе: 2)." in text


def test_a_spectator_panel_shows_nothing_private():
    state = playout(5, False, "p1").states[3]
    assert PRESENTER.private_summary(ENGINE.view(state, None), RU_NAMES[:5], "ru") == translate(
        "ru", "ui.panel.spectator"
    )


# ---------------------------------------------------------------------- log lines
@pytest.mark.parametrize(("n", "teams"), MODES)
@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_event_of_a_game_has_a_readable_line(n, teams, locale):
    kinds: set[str] = set()
    for seed in SEEDS:
        for event in playout(n, teams, seed).events:
            line = PRESENTER.narrate(event, LONG_NAMES[:n], locale)
            if isinstance(event, JokersPlaced) and not event.placements:
                assert line is None
                continue
            assert line, event
            assert "{" not in line and not RAW_CARD.search(line) and "masti." not in line, line
            kinds.add(event.kind)
    assert {"game_started", "cards_dealt", "trump_revealed", "round_started", "card_played", "round_won"} <= kinds
    assert "game_scored" in kinds


NARRATED: list[tuple[Event, str, str]] = [
    (
        CardPlayed(seat=1, card="P07"),
        "Боря играет Пьетра 7 · Художники ×2.",
        "Боря plays Pietra 7 · Artists ×2.",
    ),
    (
        CardPlayed(seat=2, card="U13", automatic=True),
        "За игрока Вася бот играет Уго 13 · Власть.",
        "The bot plays Ugo 13 · Power for Вася.",
    ),
    (
        BribePaid(seat=0, gems_left=1),
        "Аня пропускает ход, сыграв самоцвет для подкупа (в запасе: 1).",
        "Аня skips the turn with a bribe gem (1 left).",
    ),
    (
        BribePaid(seat=0, gems_left=0),
        "Аня пропускает ход, сыграв последний самоцвет для подкупа.",
        "Аня skips the turn with their last bribe gem.",
    ),
    (
        RoundWon(round=3, winner=2, cards=("A07", "E04"), trump="E10", gems=0),
        "Вася забирает раунд 3: Альдо 7 · Рыцари, Энцо 4 · Убийцы.",
        "Вася wins round 3: Aldo 7 · Knights, Enzo 4 · Assassins.",
    ),
    (
        RoundWon(round=3, winner=2, cards=("A07", "E10"), trump="E10", gems=2),
        "Вася забирает раунд 3: Альдо 7 · Рыцари, Энцо 10 · Ремесленники — и 2 самоцвета на карту богатства.",
        "Вася wins round 3: Aldo 7 · Knights, Enzo 10 · Craftsmen, and 2 gems for the wealth card.",
    ),
    (
        TrumpRevealed(round=1, card="U02", persona="U", deck_left=14),
        "Раунд 1: открыта карта Уго 2 · Штраф −2, козырь — Уго. В колоде козырей ещё 14.",
        "Round 1: Ugo 2 · Penalty −2 is revealed, Ugo is trump. 14 cards left in the trump deck.",
    ),
    (
        TrumpRevealed(round=16, card="P05", persona="P", deck_left=0),
        "Раунд 16: открыта последняя карта колоды козырей — Пьетра 5 · Аристократы. Козырь — Пьетра.",
        "Round 16: the last card of the trump deck is revealed — Pietra 5 · Aristocrats. Pietra is trump.",
    ),
    (
        PlayerDroppedOut(seat=1, gems_removed=2),
        "Боря остаётся без карт и выбывает из розыгрыша. Самоцветов для подкупа уходит из игры: 2.",
        "Боря has no cards left and drops out of play; 2 bribe gems leave the game.",
    ),
    (
        PlayerDroppedOut(seat=1, gems_removed=0),
        "Боря остаётся без карт и выбывает из розыгрыша.",
        "Боря has no cards left and drops out of play.",
    ),
    (
        TrumpSeeded(seat=3),
        "Гена тайно кладёт карту в колоду козырей.",
        "Гена secretly adds a card to the trump deck.",
    ),
    (
        TrumpSeeded(seat=3, card="A11", visible_to=frozenset({3})),
        "Вы кладёте в колоду козырей карту Альдо 11 · Рыцари.",
        "You add Aldo 11 · Knights to the trump deck.",
    ),
    (
        CardLeft(seat=4, card="E01", automatic=True),
        "За игрока Дима бот оставляет в центре стола карту Энцо 1 · Джокер.",
        "The bot leaves Enzo 1 · Joker in the centre for Дима.",
    ),
    (
        PlayerResigned(seat=0, seats=(0, 3)),
        "Аня сдаётся. До конца партии бот разыгрывает карты: Аня, Гена.",
        "Аня resigns. A bot plays these cards to the end: Аня, Гена.",
    ),
    (
        JokersPlaced(
            placements=(
                JokerPlacement(owner=0, card="P01", guild="ASS"),
                JokerPlacement(owner=1, card="E01", guild=None),
            )
        ),
        "Джокеры: Пьетра 1 · Джокер → Убийцы (Аня); Энцо 1 · Джокер сброшен (Боря).",
        "Jokers: Pietra 1 · Joker → Assassins (Аня); Enzo 1 · Joker discarded (Боря).",
    ),
    (
        GameScored(scores=(19, 7, 19), ranks=(0, 2, 0)),
        "Игра окончена, очки подсчитаны. Первое место: Аня, Вася.",
        "Game over, the scores are in. First place: Аня, Вася.",
    ),
]


@pytest.mark.parametrize(("event", "ru", "en"), NARRATED)
def test_log_lines_read_naturally(event, ru, en):
    assert PRESENTER.narrate(event, RU_NAMES, "ru") == ru
    assert PRESENTER.narrate(event, RU_NAMES, "en") == en


def test_no_jokers_means_no_line():
    assert PRESENTER.narrate(JokersPlaced(placements=()), RU_NAMES, "ru") is None


def test_coup_narration_is_unchanged():
    coup = CoupPresenter()
    names = ["Наташа", "Саша"]
    for event in (
        CoupStarted(first_seat=0, draft=False, starting_coins=(2, 2)),
        CoinsTaken(seat=1, amount=2, action=ActionKind.FOREIGN_AID),
    ):
        for locale in SUPPORTED_LOCALES:
            assert coup.narrate(event, names, locale) == narrate("coup", event, locale, names)


# ---------------------------------------------------------------------- result
@pytest.mark.parametrize(("n", "teams"), MODES)
@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_result_lines_itemise_every_unit_and_fit_an_embed(n, teams, locale):
    for seed in SEEDS:
        public = ENGINE.view(playout(n, teams, seed).states[-1], None)
        assert public.result is not None
        lines = PRESENTER.result_lines(public, LONG_NAMES[:n], locale)
        text = "\n".join(lines)
        assert len(text) <= 4096  # an embed description
        assert "{" not in text and not RAW_CARD.search(text)
        heads = [line for line in lines if line.startswith("**")]
        assert len(heads) == len(public.result)
        for head, unit in zip(heads, public.result, strict=True):
            assert head.startswith(f"**{unit.rank + 1}. ")
            assert signed(unit.total).lstrip("+") in head
            for seat in unit.seats:
                assert LONG_NAMES[seat] in head


def _finished_view() -> MastiView:
    return ENGINE.view(playout(3, False, "p1").states[-1], None)


def test_the_seeds_solo_example_is_itemised():
    # Spec §6.6: Knights 2 → 3, Assassins 6 + joker → 10, Artists 2 → 3, Merchants 3 → 6, 2 power → −3.
    won = ("E09", "E04", "A06", "U07", "P09", "P11", "P01", "A05", "U05", "U04", "E06", "A10", "A13", "E13")
    unit = score_unit((0,), {0: won}, {0: 0})
    view = _finished_view().model_copy(update={"result": (unit,)})
    ru = PRESENTER.result_lines(view, RU_NAMES[:3], "ru")
    assert ru[0] == "**1. Аня — 19 очков**"
    assert "🗡 Убийцы 6 + джокер → +10" in ru[1]
    assert "\N{SCALES} Торговцы 3 → +6" in ru[1]
    assert ru[2].startswith("• Карты власти: 2 → −3 · бонусы: 0 → 0 · штрафы: 0 → 0 · самоцветы: 0 → 0")
    assert ru[2].endswith("взято карт: 14")
    en = PRESENTER.result_lines(view, ["Ann", "Bob", "Cid"], "en")
    assert en[0] == "**1. Ann — 19 points**"


def test_the_seeds_team_example_is_itemised():
    # Spec §7.1: team {0, 2}; total 10, B's Artists and Merchants piles do not count.
    won = {
        0: ("P05", "P07", "U04", "E06", "P01", "A13"),
        2: ("A05", "U05", "A09", "P10", "U08", "A10", "P12", "P04", "U13"),
    }
    unit = score_unit((0, 2), won, {0: 1, 2: 1})
    assert unit.total == 10
    view = _finished_view().model_copy(update={"result": (unit,), "mode": Mode.TEAMS})
    lines = PRESENTER.result_lines(view, RU_NAMES[:3], "ru")
    assert lines[0] == "**1. Аня и Вася — 10 очков**"
    assert "🎨 Художники 2 + джокер (Аня) → +6" in lines[1]
    assert "🎨 ~~Художники 4 (Вася)~~ не в счёт" in lines[1]
    assert "Карты власти: 2 → −3" in lines[2]


def test_negative_totals_use_a_true_minus():
    unit = score_unit((0,), {0: ("A13",)}, {0: 0})
    view = _finished_view().model_copy(update={"result": (unit.model_copy(update={"resigned": True}),)})
    assert PRESENTER.result_lines(view, RU_NAMES[:3], "ru")[0] == "**1. Аня — −1 очко (партия сдана)**"


# ---------------------------------------------------------------------- rules, board, registry
@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_rules_have_every_section(locale):
    sections = PRESENTER.rules(locale)
    assert len(sections) == len(RULE_SECTIONS)
    assert all(title and text and len(text) <= 1024 for title, text in sections)


def test_the_board_is_the_compact_picture_and_the_full_board_the_detailed_one():
    public = _finished_view()
    png = PRESENTER.render_board(public, RU_NAMES[:3], "ru")
    assert png.startswith(b"\x89PNG")
    assert png == render_masti_compact(public, RU_NAMES[:3], "ru")
    assert PRESENTER.render_full_board(public, RU_NAMES[:3], "ru") == render_masti_board(public, RU_NAMES[:3], "ru")


def test_a_foreign_view_is_refused():
    with pytest.raises(TypeError):
        PRESENTER.status(ENGINE.setup(3, MastiOptions(), "x").state, RU_NAMES[:3], "ru")


def test_the_presenter_is_registered():
    assert PRESENTERS["masti"].game == "masti"
    assert isinstance(PRESENTERS["masti"], MastiPresenter)


def test_one_picture_language_the_panel_emoji_name_what_the_board_draws() -> None:
    """A guild's emoji is the figure of its crest (👑 is the Aristocrats', never the Power card's)."""
    for guild, glyph in GLYPHS.items():
        figure = glyph.__name__.strip("_")  # _crown, _palette, _scales, _hammer, _shield, _dagger
        assert figure in unicodedata.name(GUILD_EMOJI[guild]).lower(), (guild, GUILD_EMOJI[guild])
    marks = {kind: mark for kind, (_colour, mark) in NEUTRAL_MARKS.items()}
    assert marks[CardKind.JOKER] == "?" and "QUESTION" in unicodedata.name(NEUTRAL_EMOJI[CardKind.JOKER])
    assert "STAR" in unicodedata.name(NEUTRAL_EMOJI[CardKind.POWER])  # the star drawn on a Power card
    assert len(set(GUILD_EMOJI.values()) | set(NEUTRAL_EMOJI.values())) == len(GUILD_EMOJI) + len(NEUTRAL_EMOJI)
