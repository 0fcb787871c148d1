"""Event narration: the right line per event and variant, in both languages, private lines kept private."""

from __future__ import annotations

import doctest
from typing import get_args

import pytest
from pydantic import BaseModel

import bot.i18n.narrate
from bot.i18n.narrate import SEAT_FIELDS, event_key, narrate, narrate_for
from games.core.models import Event
from games.coup.models import (
    ActionBlocked,
    ActionDeclared,
    ActionFailed,
    ActionKind,
    BlockDeclared,
    Card,
    CardDrafted,
    CardDrawn,
    CardsDealt,
    ChallengeIssued,
    ClaimConceded,
    ClaimProven,
    CoinsRefunded,
    CoinsReturned,
    CoinsStolen,
    CoinsTaken,
    CoupEvent,
    DeckShuffled,
    ExchangeCompleted,
    ExchangeDrawn,
    GameStarted,
    GameWon,
    InfluenceLost,
    PlayerEliminated,
    PlayerResigned,
    ResponseAllowed,
    TurnStarted,
)

RU = ("Наташа", "Саша", "Гриша")
EN = ("Natasha", "Sasha", "Grisha")
ONLY = frozenset  # visible_to shorthand

# (event, Russian line, English line); together they cover every event class and variant.
CASES: list[tuple[Event, str | None, str | None]] = [
    (
        GameStarted(first_seat=0, draft=False, starting_coins=(2, 2, 2)),
        "Игра началась! Первый ход: Наташа.",
        "The game begins! Natasha goes first.",
    ),
    (
        GameStarted(first_seat=1, draft=True, starting_coins=(2, 1)),
        "Игра началась — вдвоём, с тайным выбором карт. Первый ход: Саша.",
        "The game begins: two players, with the draft variant. Sasha goes first.",
    ),
    (
        CardsDealt(seat=0, cards=(Card.CONTESSA, Card.DUKE), visible_to=ONLY({0})),
        "Вы получаете карты: Графиня, Герцог.",
        "You receive: Contessa, Duke.",
    ),
    (CardDrafted(seat=1, card=None), "Саша тайно выбирает карту.", "Sasha picks a card in secret."),
    (
        CardDrafted(seat=1, card=Card.CAPTAIN, visible_to=ONLY({1})),
        "Вы выбираете карту «Капитан».",
        "You pick Captain.",
    ),
    (TurnStarted(seat=0), "Ходит Наташа.", "Natasha's turn."),
    (
        TurnStarted(seat=0, forced_coup=True),
        "Ходит Наташа. У игрока 10 монет или больше — только переворот!",
        "Natasha's turn. With 10 or more coins, it must be a Coup!",
    ),
    (
        ActionDeclared(actor=1, action=ActionKind.INCOME),
        "Саша объявляет действие «Доход».",
        "Sasha declares Income.",
    ),
    (
        ActionDeclared(actor=0, action=ActionKind.TAX, claim=Card.DUKE),
        "Наташа объявляет действие «Налог» (покровитель: Герцог).",
        "Natasha claims Duke and declares Tax.",
    ),
    (
        ActionDeclared(actor=1, action=ActionKind.STEAL, target=2, claim=Card.CAPTAIN),
        "Саша объявляет действие «Кража» (покровитель: Капитан), цель — Гриша.",
        "Sasha claims Captain and declares Steal, targeting Grisha.",
    ),
    (
        ActionDeclared(actor=0, action=ActionKind.COUP, target=2, cost=7),
        "Наташа платит 7 монет и объявляет действие «Переворот», цель — Гриша.",
        "Natasha pays 7 coins and declares Coup, targeting Grisha.",
    ),
    (
        ActionDeclared(actor=2, action=ActionKind.ASSASSINATE, target=0, claim=Card.ASSASSIN, cost=3),
        "Гриша платит 3 монеты и объявляет действие «Заказное убийство» (покровитель: Ассасин), цель — Наташа.",
        "Grisha claims Assassin, pays 3 coins and declares Assassinate, targeting Natasha.",
    ),
    (ResponseAllowed(seat=2), "Гриша не возражает.", "Grisha allows it."),
    (
        ChallengeIssued(challenger=1, claimant=2, card=Card.DUKE),
        "Саша оспаривает покровителя «Герцог» у игрока Гриша.",
        "Sasha challenges Grisha's Duke.",
    ),
    (
        ClaimProven(claimant=2, card=Card.DUKE),
        "Гриша показывает карту «Герцог» — оспаривание не удалось. "
        "Карта уходит в колоду двора, взамен Гриша берёт новую.",
        "Grisha shows Duke: the challenge fails. The card goes back into the court deck and Grisha draws a new one.",
    ),
    (
        CardDrawn(seat=2, card=Card.CONTESSA, visible_to=ONLY({2})),
        "Взамен вы получаете карту «Графиня».",
        "Your replacement card: Contessa.",
    ),
    (
        ClaimConceded(claimant=2, card=Card.AMBASSADOR),
        "Гриша не показывает карту «Посол» — оспаривание удалось.",
        "Grisha does not show Ambassador: the challenge succeeds.",
    ),
    (
        BlockDeclared(blocker=0, card=Card.CONTESSA),
        "Наташа запрещает действие (покровитель: Графиня).",
        "Natasha claims Contessa and blocks.",
    ),
    (
        InfluenceLost(seat=1, card=Card.ASSASSIN),
        "Саша теряет покровителя и раскрывает карту «Ассасин».",
        "Sasha loses an influence and reveals Assassin.",
    ),
    (
        InfluenceLost(seat=2, card=Card.CONTESSA, timed_out=True),
        "Время вышло: Гриша теряет покровителя, случайно раскрыта карта «Графиня».",
        "Time's up: Grisha loses an influence, and Contessa is revealed at random.",
    ),
    (
        PlayerEliminated(seat=2),
        "Гриша отправляется в ссылку и выбывает из игры.",
        "Grisha is exiled and out of the game.",
    ),
    (
        CoinsTaken(seat=0, amount=3, action=ActionKind.TAX),
        "Наташа берёт из казны 3 монеты (Налог).",
        "Natasha takes 3 coins from the treasury (Tax).",
    ),
    (
        CoinsTaken(seat=1, amount=1, action=ActionKind.INCOME),
        "Саша берёт из казны 1 монету (Доход).",
        "Sasha takes 1 coin from the treasury (Income).",
    ),
    (
        CoinsStolen(actor=1, target=2, amount=2),
        "Саша крадёт 2 монеты у игрока Гриша.",
        "Sasha steals 2 coins from Grisha.",
    ),
    (
        CoinsStolen(actor=1, target=2, amount=1),
        "Саша крадёт 1 монету у игрока Гриша.",
        "Sasha steals 1 coin from Grisha.",
    ),
    (
        CoinsRefunded(seat=2, amount=3),
        "Плата возвращается: Гриша получает назад 3 монеты.",
        "The cost is refunded: Grisha gets 3 coins back.",
    ),
    (
        CoinsReturned(seat=2, amount=5),
        "Гриша возвращает в казну 5 монет.",
        "Grisha returns 5 coins to the treasury.",
    ),
    (
        ActionBlocked(actor=2, blocker=0, card=Card.CONTESSA),
        "Запрет в силе: действие не выполняется.",
        "The block stands: Grisha's action does not happen.",
    ),
    (
        ActionFailed(actor=0, action=ActionKind.TAX),
        "Наташа не выполняет действие «Налог».",
        "Natasha's Tax does not happen.",
    ),
    (
        ExchangeDrawn(seat=1, cards=(Card.ASSASSIN, Card.DUKE), visible_to=ONLY({1})),
        "Обмен — вам пришли из колоды двора: Ассасин, Герцог.",
        "Exchange — you draw from the court deck: Assassin, Duke.",
    ),
    (
        ExchangeCompleted(seat=1),
        "Саша завершает обмен: лишние карты уходят в колоду двора.",
        "Sasha finishes the exchange; the other cards go back into the court deck.",
    ),
    (
        ExchangeCompleted(
            seat=1,
            kept=(Card.ASSASSIN, Card.CAPTAIN),
            returned=(Card.DUKE, Card.CONTESSA),
            visible_to=ONLY({1}),
        ),
        "Обмен завершён. Вы оставляете: Ассасин, Капитан; в колоду двора уходят: Герцог, Графиня.",
        "Exchange done. You keep: Assassin, Captain; back into the court deck: Duke, Contessa.",
    ),
    (DeckShuffled(size=9), None, None),
    (
        PlayerResigned(seat=1, revealed=(Card.CAPTAIN, Card.CONTESSA)),
        "Саша сдаётся и раскрывает карты: Капитан, Графиня.",
        "Sasha resigns and reveals: Captain, Contessa.",
    ),
    (GameWon(seat=0), "Наташа побеждает и захватывает власть!", "Natasha wins and seizes power!"),
]


@pytest.mark.parametrize(("event", "ru", "en"), CASES, ids=[f"{e.kind}-{i}" for i, (e, _, _) in enumerate(CASES)])
def test_event_lines(event: Event, ru: str | None, en: str | None) -> None:
    assert narrate("coup", event, "ru", RU) == ru
    assert narrate("coup", event, "en", EN) == en


def test_the_cases_cover_every_event_class() -> None:
    classes: tuple[type[BaseModel], ...] = get_args(get_args(CoupEvent)[0])
    assert {type(event) for event, _, _ in CASES} == set(classes)


def test_every_seat_field_of_coup_events_is_known() -> None:
    counts = {"amount", "cost", "size"}
    for cls in get_args(get_args(CoupEvent)[0]):
        for name, info in cls.model_fields.items():
            if info.annotation in (int, int | None) and name not in counts:
                assert name in SEAT_FIELDS, f"{cls.__name__}.{name}"


def test_the_most_specific_existing_variant_wins() -> None:
    assassinate = ActionDeclared(actor=2, action=ActionKind.ASSASSINATE, target=0, claim=Card.ASSASSIN, cost=3)
    assert event_key("coup", assassinate) == "coup.event.action_declared__target__claim__cost"
    steal = ActionDeclared(actor=1, action=ActionKind.STEAL, target=2, claim=Card.CAPTAIN)
    assert event_key("coup", steal) == "coup.event.action_declared__target__claim"
    income = ActionDeclared(actor=1, action=ActionKind.INCOME)
    assert event_key("coup", income) == "coup.event.action_declared"
    # only ``kept`` set: no ``__kept`` key exists, so the plain line is used
    half = ExchangeCompleted(seat=1, kept=(Card.DUKE,))
    assert event_key("coup", half) == "coup.event.exchange_completed"


def test_variants_survive_a_json_round_trip() -> None:
    event = InfluenceLost(seat=2, card=Card.CONTESSA, timed_out=True)
    again = InfluenceLost.model_validate_json(event.model_dump_json())
    assert narrate("coup", again, "ru", RU) == narrate("coup", event, "ru", RU)


def test_locale_is_normalised() -> None:
    event = TurnStarted(seat=2)
    assert narrate("coup", event, "en-GB", EN) == "Grisha's turn."
    assert narrate("coup", event, "uk", EN) == "Grisha's turn."  # no catalogue: English, not Russian
    assert narrate("coup", event, None, RU) == "Ходит Гриша."


def test_unknown_seat_gets_a_numbered_name() -> None:
    assert narrate("coup", TurnStarted(seat=3), "ru", RU) == "Ходит Игрок 4."
    assert narrate("coup", TurnStarted(seat=3), "en", EN) == "Player 4's turn."


def test_events_without_a_line_are_silent() -> None:
    class Mystery(Event):
        kind: str = "mystery"

    assert narrate("coup", Mystery(), "ru", RU) is None
    assert narrate("nogame", TurnStarted(seat=0), "ru", RU) is None


def test_private_events_reach_only_their_seat() -> None:
    events = [
        GameStarted(first_seat=0, draft=False, starting_coins=(2, 2, 2)),
        CardsDealt(seat=0, cards=(Card.CONTESSA, Card.DUKE), visible_to=ONLY({0})),
        CardsDealt(seat=1, cards=(Card.CAPTAIN, Card.CONTESSA), visible_to=ONLY({1})),
        DeckShuffled(size=9),
        TurnStarted(seat=0),
    ]
    assert narrate_for("coup", events, 0, "ru", RU) == [
        "Игра началась! Первый ход: Наташа.",
        "Вы получаете карты: Графиня, Герцог.",
        "Ходит Наташа.",
    ]
    assert narrate_for("coup", events, 1, "en", EN) == [
        "The game begins! Natasha goes first.",
        "You receive: Captain, Contessa.",
        "Natasha's turn.",
    ]
    public = ["The game begins! Natasha goes first.", "Natasha's turn."]
    assert narrate_for("coup", events, 2, "en", EN) == public
    assert narrate_for("coup", events, None, "en", EN) == public


def test_exchange_picks_stay_with_the_ambassador() -> None:
    events = [
        ExchangeDrawn(seat=1, cards=(Card.ASSASSIN, Card.DUKE), visible_to=ONLY({1})),
        ExchangeCompleted(
            seat=1, kept=(Card.ASSASSIN, Card.CAPTAIN), returned=(Card.DUKE, Card.CONTESSA), visible_to=ONLY({1})
        ),
        ExchangeCompleted(seat=1),
    ]
    others = narrate_for("coup", events, 0, "ru", RU)
    assert others == ["Саша завершает обмен: лишние карты уходят в колоду двора."]
    assert not any(card in line for line in others for card in ("Ассасин", "Капитан", "Герцог", "Графиня"))
    assert len(narrate_for("coup", events, 1, "ru", RU)) == 3


def test_module_doctests() -> None:
    result = doctest.testmod(bot.i18n.narrate)
    assert result.attempted > 0
    assert result.failed == 0
