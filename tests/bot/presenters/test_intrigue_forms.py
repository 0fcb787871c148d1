"""«Интриги» forms over recorded games: every form the presenter offers takes its whole decision.

For each decision of the seeded playouts where the presenter offers a form (a basket or a sealed
ballot not yet begun), the form's actions — the first option of every ballot field; an empty basket
and a basket of one purchase — are applied with the engine's full checks: each part must be legal, and the sequence
must end the decision: its last part submits the basket or the ballot (a ballot by its last entry,
so no entry is left to a default).
"""

from __future__ import annotations

from typing import Any

from bot.presenters import Form
from bot.presenters.intrigue import IntriguePresenter
from bot.ui.forms import MAX_FIELDS, MAX_OPTIONS, MAX_TITLE
from games.intrigue.models import BasketSubmitted, Decision, IntrigueView, SubmissionReceived
from games.intrigue.state import IntrigueState
from tests.bot.intrigue_playouts import ENGINE, NAMES, games

PRESENTER = IntriguePresenter()


def forms_at(state: IntrigueState, seat: int, locale: str = "en") -> list[Form]:
    view = ENGINE.view(state, seat)
    return PRESENTER.forms(view, ENGINE.legal_actions(state, seat), NAMES[: state.num_seats], locale)


def apply_all(state: IntrigueState, seat: int, actions: list[Any]) -> tuple[IntrigueState, list[Any]]:
    """Apply ``actions`` one by one as ``act_many`` does; return the state and the last action's events."""
    events: list[Any] = []
    for action in actions:
        assert seat in ENGINE.active_seats(state), f"the decision ended before {action!r}"
        step = ENGINE.apply(state, seat, action)
        state, events = step.state, list(step.events)
    return state, events


def test_every_offered_form_takes_its_whole_decision() -> None:
    seen: dict[str, int] = {}
    for game in games():
        for step in game.steps:
            for locale in ("en", "ru"):
                forms = forms_at(step.state, step.seat, locale)
                for form in forms:
                    assert form.kind in {"basket", "ballot"}
                    assert 0 < len(form.fields) <= MAX_FIELDS and len(form.title) <= MAX_TITLE
                    assert all(0 < len(f.choices) <= MAX_OPTIONS and len(f.label) <= 45 for f in form.fields)
            forms = forms_at(step.state, step.seat)
            for form in forms:
                seen[form.kind] = seen.get(form.kind, 0) + 1
                firsts = [[field.choices[0].action] for field in form.fields]
                if form.kind == "ballot":
                    attempts = [form.actions(firsts)]
                else:  # an empty basket, and one purchase (more may be over the purse: the engine refuses)
                    attempts = [form.actions([[] for _ in form.fields])]
                    attempts.append(form.actions([firsts[0], *([] for _ in form.fields[1:])]))
                for actions in attempts:
                    _, events = apply_all(step.state, step.seat, actions)
                    if form.kind == "ballot":  # sent by its last entry, whole (no entry left to default)
                        sent = [e for e in events if isinstance(e, SubmissionReceived) and e.seat == step.seat]
                        assert sent and sent[0].decision is Decision.BALLOT
                    else:
                        assert any(isinstance(e, BasketSubmitted) and e.seat == step.seat for e in events)
    assert seen.get("basket") and seen.get("ballot"), seen


def test_a_begun_decision_offers_no_form() -> None:
    begun = 0
    for game in games():
        for step in game.steps:
            view = ENGINE.view(step.state, step.seat)
            assert isinstance(view, IntrigueView)
            if view.draft is not None and view.draft.items:
                begun += 1
                assert forms_at(step.state, step.seat) == []
    assert begun
