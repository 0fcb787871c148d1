"""The «Интриги» presenter: labels for every step, public vs private choices, status, panel, log, rules, result."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.i18n import SUPPORTED_LOCALES, catalogue, has_key, translate
from bot.presenters import Choice
from bot.presenters.intrigue import (
    PUBLIC_DECISIONS,
    RULE_SECTIONS,
    SELECT_GROUPS,
    IntriguePresenter,
    bribe_cost,
    current_step,
    pack,
)
from bot.presenters.registry import PRESENTERS
from bot.render.intrigue import reference_view
from bot.ui.commands import CommandIds, fill_commands
from games.core.rng import GameRng
from games.intrigue.data import CHARACTERS, LANDS, Trait
from games.intrigue.models import (
    Back,
    CardRevealed,
    CardSent,
    CardsHired,
    CharAction,
    Choose,
    ContestHead,
    Convert,
    Decision,
    Done,
    DraftItem,
    DraftView,
    GiveCoins,
    HandCardView,
    IntrigueView,
    MercType,
    Mode,
    Option,
    Pass,
    PendingView,
    PickAction,
    PickAmount,
    PickCard,
    PickCharacter,
    PickLand,
    PickMode,
    PickSeat,
    PickSide,
    PickType,
    PlaceToken,
    RevealAssassin,
    RevealHow,
    RevealMessenger,
    Side,
    Skip,
    Victory,
)
from tests.bot.intrigue_playouts import ENGINE, NAMES, Game, Step, games, sample_events

PRESENTER = IntriguePresenter()
RAW = re.compile(r"intrigue\.|render_intrigue\.|[{}]")
GROUP = re.compile(r"^[a-z_]{1,20}$")
PANEL_ROWS = 4  # bot.ui.panels: MAX_ROWS - 1 rows for choices, the last for the table buttons
#: Words that name a card's type or a messenger's mode: never on the public board before a reveal.
HIDDEN_WORDS = {
    locale: [translate(locale, f"intrigue.merc.{m.value}") for m in MercType]
    + [translate(locale, f"intrigue.mode.{m.value}") for m in Mode]
    for locale in SUPPORTED_LOCALES
}


def rows_needed(choices: list[Choice]) -> int:
    groups: dict[str, int] = {}
    for choice in choices:
        if choice.group is not None:
            groups[choice.group] = groups.get(choice.group, 0) + 1
    buttons = sum(1 for c in choices if c.group is None) + sum(1 for n in groups.values() if n == 1)
    return math.ceil(buttons / 5) + sum(1 for n in groups.values() if n > 1)


def every_step() -> Iterator[tuple[Game, Step]]:
    for game in games():
        for step in game.steps:
            yield game, step


# ---------------------------------------------------------------------- labels
@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_legal_action_of_every_step_gets_one_label_that_fits_discord(locale: str) -> None:
    for _game, step in every_step():
        view = ENGINE.view(step.state, step.seat)
        choices = PRESENTER.private_choices(view, list(step.legal), NAMES, locale)
        assert [c.action for c in choices] == [c.action for c in choices]  # stable
        assert sorted(map(repr, (c.action for c in choices))) == sorted(map(repr, step.legal))
        for choice in choices:
            assert choice.label and not RAW.search(choice.label), (choice.label, choice.action)
            limit = 80 if choice.group is None else 100
            assert len(choice.label) <= limit, choice.label
            if choice.group is not None:
                assert GROUP.match(choice.group) and choice.group in SELECT_GROUPS, choice.group
        assert rows_needed(choices) <= PANEL_ROWS, [c.label for c in choices]
        sizes: dict[str | None, int] = {}
        for choice in choices:
            sizes[choice.group] = sizes.get(choice.group, 0) + 1
        assert all(n <= 25 for g, n in sizes.items() if g is not None)


def test_every_drafted_step_seen_in_play_has_its_own_line_in_both_languages() -> None:
    seen: set[tuple[str, str]] = set()
    for _game, step in every_step():
        view = ENGINE.view(step.state, step.seat)
        decision, name, _ = current_step(view)
        assert decision is not None
        assert has_key(f"intrigue.todo.{decision.value}", "ru")
        if view.draft is not None and view.pending is not None and view.draft.decision is view.pending.decision:
            seen.add((decision.value, name))
    for value, name in seen:
        for locale in SUPPORTED_LOCALES:
            assert f"intrigue.todo.{value}_{name}" in catalogue(locale), (value, name, locale)
    assert {("D10", "main"), ("D10", "action"), ("D13", "vote"), ("D15", "voter"), ("D9", "basket")} <= seen


def view_at(
    decision: Decision, step: str, *, draft_step: str | None = None, items: tuple[DraftItem, ...] = ()
) -> IntrigueView:
    """Return seat 0's view of a busy table facing ``decision`` at ``step`` (with its own cards)."""
    base = reference_view(4)
    cards = tuple(
        card.model_copy(update={"merc": MercType.MESSENGER, "mode": Mode.BRIBE}) if card.owner == 0 else card
        for card in base.cards
    )
    players = tuple(
        p.model_copy(update={"hand": (HandCardView(id="M41", merc=MercType.ASSASSIN, expires_turn=4),)})
        if p.seat == 0
        else p
        for p in base.players
    )
    pending = PendingView(decision=decision, seats=(0,), step=step, actor=0, character=3, land=2, card="M02")
    draft = DraftView(decision=decision, step=draft_step, items=items) if draft_step is not None else None
    return base.model_copy(
        update={"viewer": 0, "cards": cards, "players": players, "pending": pending, "awaiting": (0,), "draft": draft}
    )


#: (decision, public step, draft step, an action and the words its Russian label must contain).
STEPS: list[tuple[Decision, str, str | None, Any, str]] = [
    (Decision.PLACEMENT, "place", None, PlaceToken(land=1), "Золотой Берег: на землю"),
    (Decision.PLACEMENT, "place", None, PlaceToken(land=1, head=True), "на пост Главы — Артур Красавчик"),
    (Decision.WINDOW, "window", None, Convert(land=2), "2 жетона земли Долина Стрел"),
    (Decision.WINDOW, "window", None, RevealAssassin(card="M01"), "Раскрыть #1 (убийца)"),
    (Decision.WINDOW, "window", None, RevealMessenger(card="M01", extra=2), "+2 жет. за"),
    (Decision.WINDOW, "window", None, Done(), "Готово"),
    (Decision.SPY_TURN, "spy_turn", "agent", PickCard(card="M01"), "#1 Посыльный (взятка)"),
    (Decision.SPY_TURN, "spy_turn", "target", PickCard(card="M02"), "#1 (Саша)"),
    (Decision.SPY_TURN, "spy_turn", "target", PickCard(card="M12"), "#2 (Alex) на персонаже Артур Красавчик"),
    (Decision.GUARD, "guard", None, Choose(option=Option.DECLINE), "Нет"),
    (Decision.THIEF_TAKE, "thief_take", None, Choose(option=Option.TAKE_COINS), "Взять 2 монеты"),
    (Decision.RECRUIT, "recruit", None, Choose(option=Option.RECRUIT), "Завербовать"),
    (Decision.RARE_GIFT, "rare_gift", None, Choose(option=Option.PAY), "Заплатить 2 монеты"),
    (Decision.GROWTH, "growth", None, PickLand(land=3), "Вырастить: Бурые Равнины"),
    (Decision.GROWTH, "growth", None, Skip(), "Не расти"),
    (Decision.INVEST, "basket", "basket", PickLand(land=3), "Жетон на землю Бурые Равнины"),
    (Decision.INVEST, "basket", "basket", PickType(merc=MercType.SPY), "Нанять: Шпион"),
    (Decision.INVEST, "basket", "basket", Done(), "Оплатить"),
    (Decision.SLOT, "slot", "main", PickCharacter(character=1), "Действовать через: Артур Красавчик"),
    (Decision.SLOT, "slot", "main", ContestHead(character=2), "Оспорить: Гюнтер Рыболов"),
    (Decision.SLOT, "slot", "main", Pass(), "Пас"),
    (Decision.SLOT, "slot", "bid", PickAmount(amount=2), "Ставка: 2 жетона"),
    (Decision.SLOT, "act", "action", PickAction(action=CharAction.SEND), "Отправить наёмника"),
    (Decision.SLOT, "act", "action", PickAction(action=CharAction.HILLS, rider=True), "+ Пустые Холмы"),
    (Decision.SLOT, "act", "from", PickLand(land=2), "Откуда: Долина Стрел"),
    (Decision.SLOT, "act", "to", PickLand(land=3), "Куда: Бурые Равнины"),
    (Decision.SLOT, "act", "land", PickLand(land=4), "Благословить: Чёрная Гавань"),
    (Decision.SLOT, "act", "seat", PickSeat(seat=1), "2 монеты игроку Саша"),
    (Decision.SLOT, "act", "borrower", PickSeat(seat=1), "Одолжить игроку Саша"),
    (Decision.SLOT, "act", "price", PickAmount(amount=5), "Цена: 5 монет"),
    (Decision.SLOT, "act", "subject", PickCharacter(character=1), "Снять: Артур Красавчик"),
    (Decision.SLOT, "act", "card", PickCard(card="M41"), "Убийца (в руке, до хода 4)"),
    (Decision.SLOT, "act", "target", PickCharacter(character=3), "Цель: Ирена Высокая"),
    (Decision.SLOT, "act", "source", Choose(option=Option.FROM_LAND), "Жетон с земли"),
    (Decision.SLOT, "act", "mode", PickMode(mode=Mode.GIFT), "Дар"),
    (Decision.SLOT, "act", "target_card", PickCard(card="M02"), "#1 (Саша)"),
    (Decision.CONTEST_BID, "bid", None, PickAmount(amount=1), "Ставка: 1 жетон"),
    (Decision.LEND_OFFER, "lend", None, Choose(option=Option.ACCEPT), "Согласиться"),
    (Decision.BALLOT, "ballot", "vote:3", PickSide(side=Side.AGAINST), "Против"),
    (Decision.BALLOT, "ballot", "pref:3", PickSide(side=Side.FOR), "Предпочтение: За"),
    (Decision.BALLOT, "ballot", "vote:3", PickCharacter(character=5), "Кандидат: Жозетта Огненная"),
    (Decision.SAPPHIRE, "sapphire", "voter", PickCharacter(character=11), "Нейтральный: Бланка Щедрая"),
    (Decision.SAPPHIRE, "sapphire", "vote", PickSide(side=Side.FOR), "Продиктовать: За"),
    (Decision.SWAY, "sway", "head", PickCharacter(character=2), "Совет через: Гюнтер Рыболов"),
    (Decision.SWAY, "sway", "amount", PickAmount(amount=3), "Ставка: 3 жетона"),
    (Decision.APPOINT, "appoint", None, PickCharacter(character=16), "Назначить: Отто Железный"),
    (Decision.APPOINT, "tie", None, PickCharacter(character=16), "Отто Железный"),
    (Decision.ASSASSIN_PENALTY, "character", "character", PickCharacter(character=4), "Снять жетон с: Матей"),
    (Decision.RIVER_CONSENT, "consent", "bid", PickAmount(amount=2), "Ставка: 2 жетона"),
    (Decision.RIVER_CONSENT, "consent", "answer", Choose(option=Option.REFUSE), "Отказать"),
    (Decision.VALE_TAX, "amount", None, PickAmount(amount=2), "Налог 2"),
    (Decision.GARRISON, "garrison", None, PickCard(card="M02"), "#1 (Саша)"),
    (Decision.GARRISON, "garrison", None, Done(), "Хватит"),
]


@pytest.mark.parametrize(("decision", "step", "draft_step", "action", "words"), STEPS)
def test_each_step_labels_its_picks_in_both_languages(
    decision: Decision, step: str, draft_step: str | None, action: Any, words: str
) -> None:
    view = view_at(decision, step, draft_step=draft_step)
    ru = PRESENTER.label(action, view, NAMES, "ru")
    en = PRESENTER.label(action, view, NAMES, "en")
    assert words in ru.label, ru.label
    assert en.label and not RAW.search(en.label) and en.label != ru.label
    todo = PRESENTER.todo(view, NAMES, "ru")
    assert todo and not RAW.search(todo)
    name = (draft_step or step).partition(":")[0]
    if draft_step is not None:
        assert has_key(f"intrigue.todo.{decision.value}_{name}", "en")


def test_bribe_extras_name_their_price_greedy_and_incorruptible_included() -> None:
    assert bribe_cost(1, 0) == 0 and bribe_cost(1, 3) == 9
    greedy = next(c for c, info in CHARACTERS.items() if Trait.GREEDY in info.traits)
    incorruptible = next(c for c, info in CHARACTERS.items() if Trait.INCORRUPTIBLE in info.traits)
    assert bribe_cost(greedy, 2) == 9 and bribe_cost(incorruptible, 5) == 0
    items = (DraftItem(step="card", card="M41"), DraftItem(step="target", character=greedy))
    view = view_at(Decision.SLOT, "act", draft_step="extra", items=items)
    assert PRESENTER.label(PickAmount(amount=2), view, NAMES, "ru").label == "+2 жетона (9 мон.)"
    assert PRESENTER.label(PickAmount(amount=1), view, NAMES, "en").label == "+1 token (5 coins)"


def test_give_coins_is_labelled_though_only_the_command_offers_it() -> None:
    view = view_at(Decision.SLOT, "slot", draft_step="main")
    assert PRESENTER.label(GiveCoins(to=1, amount=3), view, NAMES, "ru").label == "Дать 3 мон. игроку Саша"


def test_own_cards_show_their_type_and_others_only_owner_and_place() -> None:
    view = view_at(Decision.SPY_TURN, "spy_turn", draft_step="target")
    own = next(c for c in view.cards if c.owner == 0)
    other = next(c for c in view.cards if c.owner == 1)
    mine = PRESENTER.label(PickCard(card=own.id), view, NAMES, "ru").label
    theirs = PRESENTER.label(PickCard(card=other.id), view, NAMES, "ru").label
    assert "Посыльный (взятка)" in mine
    # Named by owner, character and number on it, as on the board; never by id (issue 11).
    assert theirs.startswith("#1 (Саша)") and not any(w in theirs for w in HIDDEN_WORDS["ru"])
    assert own.id not in mine and other.id not in theirs


def test_packing_splits_long_lists_and_merges_selects_to_fit_four_rows() -> None:
    many = [Choice(PickAmount(amount=n), str(n), group="amount") for n in range(30)]
    packed = pack(many)
    assert [c.group for c in packed].count("amount") == 25 and [c.group for c in packed].count("amount_2") == 5
    crowded = [
        *(Choice(Done(), f"b{i}") for i in range(5)),
        *(Choice(PickLand(land=n), "l", group="land") for n in range(1, 4)),
        *(Choice(PickCharacter(character=n), "c", group="character") for n in range(1, 4)),
        *(Choice(PickCard(card=f"M{n}"), "k", group="card") for n in range(1, 4)),
        *(Choice(PickAmount(amount=n), "a", group="amount") for n in range(1, 4)),
    ]
    packed = pack(crowded)
    assert rows_needed(packed) <= PANEL_ROWS
    assert len(packed) == len(crowded) and "more" in {c.group for c in packed}


# ---------------------------------------------------------------------- public and private
def test_only_decisions_that_depend_on_public_facts_are_on_the_board() -> None:
    assert Decision.SLOT not in PUBLIC_DECISIONS and Decision.INVEST not in PUBLIC_DECISIONS
    for sealed in (Decision.GROWTH, Decision.CONTEST_BID, Decision.BALLOT, Decision.SWAY, Decision.GUARD):
        assert sealed not in PUBLIC_DECISIONS
    shown = 0
    for _game, step in every_step():
        public = ENGINE.view(step.state, None)
        assert PRESENTER.decided_on_board(public) == (
            public.pending is not None and public.pending.decision in PUBLIC_DECISIONS
        )
        choices = PRESENTER.public_choices(public, list(step.legal), NAMES, "ru")
        if not PRESENTER.decided_on_board(public):
            assert choices == []
            continue
        shown += 1
        assert sorted(map(repr, (c.action for c in choices))) == sorted(map(repr, step.legal))
        for choice in choices:
            assert not isinstance(choice.action, RevealMessenger | RevealAssassin | PickType | PickMode)
            assert not any(word in choice.label for word in HIDDEN_WORDS["ru"]), choice.label
    assert shown > 50


def test_public_labels_status_and_choices_never_depend_on_hidden_cards() -> None:
    checked = 0
    for _game, step in every_step():
        if step.state.version % 7:
            continue
        other = ENGINE.resample_hidden(step.state, None, GameRng.for_step("presenter-leak", step.state.version))
        mine, theirs = ENGINE.view(step.state, None), ENGINE.view(other, None)
        for locale in SUPPORTED_LOCALES:
            assert PRESENTER.status(mine, NAMES, locale) == PRESENTER.status(theirs, NAMES, locale)
            if PRESENTER.decided_on_board(mine):
                legal = [
                    a for s in sorted(ENGINE.active_seats(step.state)) for a in ENGINE.legal_actions(step.state, s)
                ]
                legal_other = [a for s in sorted(ENGINE.active_seats(other)) for a in ENGINE.legal_actions(other, s)]
                assert PRESENTER.public_choices(mine, legal, NAMES, locale) == PRESENTER.public_choices(
                    theirs, legal_other, NAMES, locale
                )
        checked += 1
    assert checked > 100


def test_the_private_panel_depends_only_on_what_the_seat_may_know() -> None:
    checked = 0
    for _game, step in every_step():
        if step.state.version % 11:
            continue
        other = ENGINE.resample_hidden(step.state, step.seat, GameRng.for_step("panel-leak", step.state.version))
        mine, theirs = ENGINE.view(step.state, step.seat), ENGINE.view(other, step.seat)
        assert PRESENTER.private_summary(mine, NAMES, "ru") == PRESENTER.private_summary(theirs, NAMES, "ru")
        checked += 1
    assert checked > 50


def test_public_choices_refuse_a_seats_view() -> None:
    view = view_at(Decision.PLACEMENT, "place")
    with pytest.raises(ValueError, match="public view"):
        PRESENTER.public_choices(view, [PlaceToken(land=1)], NAMES, "ru")


# ---------------------------------------------------------------------- status and panel
@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_there_is_a_status_line_for_every_state_naming_the_phase_and_who_is_awaited(locale: str) -> None:
    for _game, step in every_step():
        public = ENGINE.view(step.state, None)
        line = PRESENTER.status(public, NAMES, locale)
        assert line and not RAW.search(line), line
        phase = translate(locale, f"intrigue.phase.{public.phase.value}")
        assert phase in line
        # The prefix names the phase; the decision part never says it again ("Вложения. Вложения: …").
        assert f"{phase}:" not in line, line
        assert public.pending is not None
        for seat in public.pending.seats:
            if seat not in public.pending.submitted:
                assert NAMES[seat] in line, line
    for decision in Decision:
        assert f"intrigue.status.{decision.value}" in catalogue(locale)
        assert f"intrigue.todo.{decision.value}" in catalogue(locale)
        assert f"intrigue.decision.{decision.value}" in catalogue(locale)


def test_the_final_status_and_results_name_the_winner_first() -> None:
    for game in games():
        public = ENGINE.view(game.final, None)
        result = public.result
        assert result is not None
        for locale in SUPPORTED_LOCALES:
            line = PRESENTER.status(public, NAMES, locale)
            assert translate(locale, f"intrigue.victory.{result.victory.value}") in line
            lines = PRESENTER.result_lines(public, NAMES, locale)
            first = min(range(game.seats), key=lambda s: (result.ranks[s], s))
            assert lines[1].strip("*").startswith(f"1. {NAMES[first]}")
            assert len(lines) == 1 + 2 * game.seats
            assert not any(RAW.search(line) for line in lines)
            assert len("\n".join(lines)) <= 4096


def test_a_winner_by_coup_is_ranked_first_with_the_victory_named() -> None:
    view = reference_view(3, over=True)
    lines = PRESENTER.result_lines(view, NAMES, "ru")
    assert lines[0] == "Конец игры: Военный переворот."
    assert lines[1] == "**1. Наташа — победа: Военный переворот**"
    assert lines[2].startswith("• Совет ")
    assert PRESENTER.status(view, NAMES, "en") == "Game over: Military coup. Winner: Наташа."
    assert Victory.COUP.value == "coup"


def test_the_panel_shows_own_cards_coins_and_what_to_decide() -> None:
    view = view_at(Decision.INVEST, "basket", draft_step="basket", items=(DraftItem(step="hire", merc=MercType.SPY),))
    view = view.model_copy(update={"in_stock": (MercType.SPY, MercType.GUARD)})
    text = PRESENTER.private_summary(view, NAMES, "ru")
    assert "Монеты: 3." in text
    assert "В руке (сыграть до конца Персонажей хода 4): Убийца." in text
    assert "Посыльный (взятка) на персонаже" in text
    assert "В продаже: Шпион, Охранник." in text
    assert "Выбрано: Нанять: Шпион." in text
    assert text.endswith(translate("ru", "intrigue.todo.D9_basket") + "\n" + translate("ru", "intrigue.panel.pay_hint"))
    spectator = PRESENTER.private_summary(reference_view(3), NAMES, "ru")
    assert spectator == translate("ru", "ui.panel.spectator")


# ---------------------------------------------------------------------- log lines
@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_event_has_a_readable_line(locale: str) -> None:
    for event in sample_events():
        line = PRESENTER.narrate(event, NAMES, locale)
        if event.kind == "window_closed":
            assert line is None
            continue
        assert line and not RAW.search(line), (event, line)
    for game in games():
        for event in [*game.setup_events, *(e for s in game.steps for e in s.events)]:
            line = PRESENTER.narrate(event, NAMES, locale)
            assert line is None or not RAW.search(line), (event, line)


def test_public_lines_never_name_a_hidden_type_or_mode() -> None:
    hidden_fields = ("merc", "mode", "types", "cards")
    checked = 0
    for game in games():
        for event in (e for s in game.steps for e in s.events):
            fields = [f for f in hidden_fields if f in type(event).model_fields]
            if event.visible_to is not None or not fields or any(getattr(event, f) is not None for f in fields):
                continue  # a private copy, or a revealed card whose type is public
            checked += 1
            for locale in SUPPORTED_LOCALES:
                line = PRESENTER.narrate(event, NAMES, locale) or ""
                assert not any(re.search(rf"\b{re.escape(w)}\b", line) for w in HIDDEN_WORDS[locale]), line
    assert checked > 20


def test_private_copies_speak_to_their_owner() -> None:
    sent = CardSent(
        seat=1, card="M07", via=1, target=2, source="character", merc=MercType.SPY, visible_to=frozenset({1})
    )
    public = sent.model_copy(update={"merc": None, "visible_to": None})
    assert PRESENTER.narrate(sent, NAMES, "ru") == (
        "Вы кладёте карту (Шпион) через персонажа Артур Красавчик на персонажа Гюнтер Рыболов."
    )
    assert PRESENTER.narrate(public, NAMES, "en") == (
        "Саша sends a card through Arthur the Handsome: face down on Günter the Fisherman."
    )
    hired = CardsHired(seat=0, count=2, cost=5, cards=("M01", "M02"), types=(MercType.THIEF, MercType.GUARD))
    assert PRESENTER.narrate(hired, NAMES, "en") == "You hire 2 mercenaries for 5 coins: Thief, Guard."
    assert PRESENTER.narrate(hired.model_copy(update={"cards": None, "types": None}), NAMES, "ru") == (
        "Наташа нанимает 2 наёмников за 5 монет."
    )


def test_reveals_name_the_owner_the_type_and_who_revealed_it_never_the_id() -> None:
    event = CardRevealed(
        card="M09", owner=2, character=8, merc=MercType.MESSENGER, mode=Mode.BRIBE, how=RevealHow.SPY, by=0
    )
    assert PRESENTER.narrate(event, NAMES, "ru") == (
        "Раскрыта карта (Григорий Константинопольский-Заде) на персонаже Элиза Вечерняя: "
        "Посыльный, взятка — раскрыл Наташа (шпион)."
    )


# ---------------------------------------------------------------------- rules, registry
@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_rules_have_every_section_the_house_tables_and_fit_one_embed(locale: str) -> None:
    # As shown: command placeholders become mentions, with ids as long as Discord's (19 digits).
    ids = CommandIds({"intrigue": 10**18})
    sections = [(title, fill_commands(text, locale, ids)) for title, text in PRESENTER.rules(locale)]
    assert [title for title, _ in sections] == [translate(locale, f"intrigue.rules.{k}.title") for k in RULE_SECTIONS]
    total = len(translate(locale, "intrigue.name"))
    for title, text in sections:
        assert 0 < len(title) <= 256 and 0 < len(text) <= 1024, (title, len(text))
        assert not RAW.search(text)
        total += len(title) + len(text)
    assert total <= 5900, total  # an embed holds 6000 characters in all
    texts = dict(zip(RULE_SECTIONS, (s[1] for s in sections), strict=True))
    house = {"ru": "наши собственные", "en": "our own design"}[locale]
    assert house in texts["house"]
    for land in LANDS.values():
        assert (land.ru if locale == "ru" else land.en) in texts["lands"]
        assert f" {land.cells} ({land.peaceful}/{land.military})" in texts["lands"]
    for character in CHARACTERS.values():
        assert (character.ru if locale == "ru" else character.en) in texts["characters"]
    for trait in Trait:
        assert translate(locale, f"intrigue.trait.{trait.value}") in texts["traits"]
    for seat in ("marshal", "bishop", "treasurer", "privy"):
        assert translate(locale, f"intrigue.council.{seat}") in texts["council"]
    for victory in ("coup", "will", "election", "hand_of_order"):
        assert translate(locale, f"intrigue.victory.{victory}").split()[0] in texts["goal"]


def test_the_presenter_is_registered_and_draws_with_the_intrigue_renderer() -> None:
    assert PRESENTERS["intrigue"] is not None and PRESENTERS["intrigue"].game == "intrigue"
    png = PRESENTER.render_board(reference_view(3), NAMES, "ru")
    assert png.startswith(b"\x89PNG")
    with pytest.raises(TypeError):
        PRESENTER.status(object(), NAMES, "ru")  # type: ignore[arg-type]  # a foreign view on purpose


def test_back_and_pass_are_buttons() -> None:
    view = view_at(Decision.SLOT, "act", draft_step="action")
    assert PRESENTER.label(Back(), view, NAMES, "en").group is None
    assert PRESENTER.label(Pass(), view, NAMES, "en").style == "danger"
