"""Cadwallon forms over seeded games: a two-target action card played with both targets in one form.

Every form the presenter offers is read from the engine (through ``explore``): for each one at each
decision of the seeded random games, playing the card with any answer to the first field together
with any answer to the second must be legal part by part and leave no card waiting for a target.
"""

from __future__ import annotations

from typing import Any

from bot.presenters import Form
from bot.ui.forms import MAX_FIELDS, MAX_TITLE, fits
from games.cadwallon.models import CadwallonView, PlayAction
from games.cadwallon.state import CadwallonState
from games.core import GameError
from tests.bot.presenters.test_cadwallon_presenter import ENGINE, LONG_NAMES, PRESENTER, every_mode


def explorer(state: CadwallonState, seat: int) -> Any:
    def explore(actions: Any) -> Any:
        after = state
        try:
            for action in actions:
                if seat not in ENGINE.active_seats(after):
                    return None
                after = ENGINE.apply(after, seat, action).state
        except GameError:
            return None
        if seat not in ENGINE.active_seats(after):
            return None
        return ENGINE.view(after, seat), ENGINE.legal_actions(after, seat)

    return explore


def forms_at(state: CadwallonState, seat: int, locale: str = "en") -> list[Form]:
    legal = ENGINE.legal_actions(state, seat)
    names = list(LONG_NAMES[: state.num_seats])
    forms = PRESENTER.forms(ENGINE.view(state, seat), legal, names, locale, explore=explorer(state, seat))
    return [form for form in forms if fits(form)]  # as the panel filters them (bot.ui.forms.forms_for)


def test_every_form_plays_its_card_with_both_targets() -> None:
    cards: set[str] = set()
    for _grid, _seats, game in every_mode():
        for state in game.states:
            for seat in sorted(ENGINE.active_seats(state)):
                view = ENGINE.view(state, seat)
                assert isinstance(view, CadwallonView)
                if view.pending is not None or not any(
                    isinstance(a, PlayAction) for a in ENGINE.legal_actions(state, seat)
                ):
                    continue
                for form in forms_at(state, seat):
                    card, first, second = form.fields
                    (play,) = (c.action for c in card.choices)  # the card comes first, its one answer
                    assert isinstance(play, PlayAction) and card.min_values == 1
                    cards.add(play.card)
                    assert len(form.fields) <= MAX_FIELDS and len(form.title) <= MAX_TITLE
                    assert all(len(f.label) <= 45 and len(f.description or "") <= 100 for f in form.fields)
                    for one in first.choices[:6]:  # any first answer goes with any second one
                        for two in second.choices[:6]:
                            after = state
                            for action in form.actions([[play], [one.action], [two.action]]):
                                after = ENGINE.apply(after, seat, action).state
                            then = ENGINE.view(after, seat)
                            assert isinstance(then, CadwallonView)
                            assert then.pending is None  # the card was played whole
    # Only two-target cards; A01/A11 (same type, a neighbour) depend on the first pick whatever the board.
    assert {"A05", "A18", "A23"} & cards and cards <= {"A05", "A18", "A22", "A23"}, cards
