"""«Интриги» chained options over recorded games: every chain is the engine's own, and no step is lost.

At decisions of the seeded playouts, the panel's choices with chains (``chain_choices``) must keep
every step-by-step choice, fit the panel (four rows, 25 options a select, 100 characters a label
and a value) and offer only sequences the engine takes: each part legal in turn, every part but
the last an undoable pick (the engine still offers Back after it), so nothing reaches the game
before the whole chain is chosen.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from pydantic import BaseModel

from bot.codec import encode_action
from bot.presenters import Choice
from bot.presenters.chains import MAX_LABEL, MAX_VALUE, Chain, Link, encode_choice, expand, runs
from bot.presenters.intrigue import MAX_OPTIONS, PER_ROW, ROWS, IntriguePresenter, _join
from bot.ui.forms import explorer
from games.core.rng import GameRng
from games.intrigue.models import Back, Decision, Done, IntrigueView
from games.intrigue.state import IntrigueState
from tests.bot.intrigue_playouts import ENGINE, NAMES, games

PRESENTER = IntriguePresenter()
#: Decisions sampled (every one is slow to explore; these are the ones with drafts).
SAMPLED = 400


def chained_at(state: IntrigueState, seat: int) -> tuple[list[Choice], list[Choice]]:
    view = ENGINE.view(state, seat)
    legal = ENGINE.legal_actions(state, seat)
    names = NAMES[: state.num_seats]
    plain = PRESENTER.private_choices(view, legal, names, "en")
    return plain, PRESENTER.chain_choices(view, legal, names, "en", explore=explorer(ENGINE, state, seat))


def rows(choices: list[Choice]) -> int:
    sizes = Counter(c.group for c in choices if c.group is not None)
    buttons = sum(1 for c in choices if c.group is None) + sum(1 for n in sizes.values() if n == 1)
    return math.ceil(buttons / PER_ROW) + sum(1 for n in sizes.values() if n > 1)


def check_chain(state: IntrigueState, seat: int, actions: tuple[Any, ...]) -> None:
    """Apply a chain as ``act_many`` does: every part legal, and every part but the last undoable."""
    for index, action in enumerate(actions):
        assert seat in ENGINE.active_seats(state), f"the decision ended before {action!r}"
        assert action in ENGINE.legal_actions(state, seat), action
        state = ENGINE.apply(state, seat, action).state
        if index < len(actions) - 1:
            assert Back() in ENGINE.legal_actions(state, seat), f"{action!r} was applied, not drafted"


def test_chains_keep_every_step_fit_the_panel_and_are_the_engines_own() -> None:
    seen: Counter[str] = Counter()
    sampled = 0
    for game in games():
        for step in game.steps:
            view = ENGINE.view(step.state, step.seat)
            assert isinstance(view, IntrigueView)
            if view.pending is None or view.pending.decision is Decision.PLACEMENT or sampled >= SAMPLED:
                continue
            sampled += 1
            plain, chained = chained_at(step.state, step.seat)
            values = [encode_choice(c.action) for c in chained]
            assert {encode_action(c.action) for c in plain} <= set(values)  # every step stays offered
            # No two options alike, but a multi-select's Pay may sit beside the Pay button.
            single = [encode_choice(c.action) for c in chained if not c.multi]
            assert len(single) == len(set(single))
            assert len(values) - len(single) == len({encode_choice(c.action) for c in chained if c.multi})
            assert rows(chained) <= ROWS
            assert all(n <= MAX_OPTIONS for n in Counter(c.group for c in chained if c.group).values())
            for choice in chained:
                if isinstance(choice.action, Chain):
                    assert choice.group is not None  # only a select carries a chain
                    assert len(encode_choice(choice.action)) <= MAX_VALUE and len(choice.label) <= MAX_LABEL
                    check_chain(step.state, step.seat, choice.action.actions)
                    seen[view.pending.decision.name] += 1
            spilled = {
                c.group for c in chained if isinstance(c.action, Chain) and c.group not in {p.group for p in plain}
            }
            if spilled - {"any"}:
                seen["spilled"] += 1  # a begun decision's chains continue in the panel's spare rows
            if any(c.multi for c in chained):
                seen["multi"] += 1
                assert view.pending.decision is Decision.INVEST  # only a basket's picks, whose order changes nothing
                assert [c.action for c in chained if c.multi][-1] == Done()  # Pay last: ticked picks come first
    # The recorded games reach the decisions chains are for.
    assert seen["SLOT"] and seen["BALLOT"] and seen["multi"] and seen["spilled"], seen


def test_the_explorer_reuses_explored_states_and_answers_as_a_replay_does() -> None:
    game = next(iter(games()))
    step = next(
        s for s in game.steps if Back() in ENGINE.legal_actions(ENGINE.apply(s.state, s.seat, s.action).state, s.seat)
    )
    explore = explorer(ENGINE, step.state, step.seat)
    first = step.action
    then = next(
        a for a in ENGINE.legal_actions(ENGINE.apply(step.state, step.seat, first).state, step.seat) if a != Back()
    )
    for actions in ((first,), (first, then), (first, then), (first, Back())):  # the second (first, then) is remembered
        state = step.state
        for action in actions:
            state = ENGINE.apply(state, step.seat, action).state
        found = explore(actions)
        if step.seat in ENGINE.active_seats(state):
            assert found == (ENGINE.view(state, step.seat), ENGINE.legal_actions(state, step.seat))
        else:
            assert found is None
    # A refused part, and anything after it, is no state at all.
    refused = Pick(code="nothing")
    assert explore((first, refused)) is None and explore((first, refused, then)) is None
    assert explore(()) == (ENGINE.view(step.state, step.seat), ENGINE.legal_actions(step.state, step.seat))


class Pick(BaseModel):
    """A stand-in action: the expansion only encodes and labels actions."""

    kind: str = "pick"
    code: str


def test_expand_grows_breadth_first_within_the_limit_and_keeps_the_roots() -> None:
    tree = {(): ["a", "b"], ("a",): ["x", "y"], ("b",): ["x", "y", "z"], ("a", "x"): ["p"]}

    def continuations(actions: tuple[Any, ...]) -> tuple[list[tuple[Any, str]], bool]:
        return [(Pick(code=k), k) for k in tree.get(tuple(a.code for a in actions), [])], False

    roots = [Link((Pick(code=k),), (k,)) for k in tree[()]]
    grown = expand(roots, continuations, limit=7)
    # The roots stay; a's two and b's three continuations fit (7); a → x, which leads to p only, becomes a → x → p.
    assert [" → ".join(link.labels) for link in grown] == ["a", "a → x → p", "a → y", "b", "b → x", "b → y", "b → z"]
    assert grown[1].value() == "pick.a,pick.x,pick.p"
    # b's three would not fit in four options: b stays a step of its own.
    assert [" → ".join(link.labels) for link in expand(roots, continuations, limit=4)] == [
        "a",
        "a → x → p",
        "a → y",
        "b",
    ]
    assert [" → ".join(link.labels) for link in expand(roots, continuations, limit=3)] == ["a", "b"]


def test_runs_repeat_one_pick_and_close_it_with_done_where_the_engine_offers_it() -> None:
    # "a" may be picked up to three times, each run closable by "done"; the third "a" completes by itself.
    def continuations(actions: tuple[Any, ...]) -> tuple[list[tuple[Any, str]], bool]:
        codes = [a.code for a in actions]
        if codes.count("a") >= 3:
            return [], False
        return [(Pick(code="a"), "a"), (Pick(code="b"), "b"), (Done(), "pay")], False

    roots = [Link((Pick(code="a"),), ("a",))]
    found = runs(roots, continuations, lambda a: isinstance(a, Done), room=10)

    assert [link.value() for link in found] == ["pick.a,done", "pick.a,pick.a,done", "pick.a,pick.a,pick.a"]
    assert len(runs(roots, continuations, lambda a: isinstance(a, Done), room=1)) == 1
    assert _join(["Kings Bay", "Kings Bay", "Pay"]) == "Kings Bay ×2 → Pay"


def test_the_explorer_answers_as_a_replay_from_the_start_would() -> None:
    # The explorer remembers the state after each sequence, and lists legal actions without a view;
    # neither may change an answer: compared with a fresh explorer per question (a replay from the
    # decision's state), along random walks that go on through drafts and stop where the engine refuses.
    draw = GameRng("explorer")
    asked = 0
    for game in games()[:3]:
        for step in game.steps[::7]:
            kept = explorer(ENGINE, step.state, step.seat)
            path: tuple[Any, ...] = ()
            for _ in range(4):
                found = kept(path)
                assert found == explorer(ENGINE, step.state, step.seat)(path)
                assert kept.legal(path) == (None if found is None else found[1])
                asked += 1
                if found is None or not found[1]:
                    break
                path = (*path, draw.choice(found[1]))
            # A sequence refused part way is refused whole, as it is remembered.
            refused = (*path, Back(), Back(), Back(), Back())
            assert kept(refused) == explorer(ENGINE, step.state, step.seat)(refused)
    assert asked > 100


def test_chains_are_the_same_with_an_explore_that_only_gives_views() -> None:
    # A presenter given a plain Explore (no legal-only listing) builds the same choices.
    for game in games()[:2]:
        for step in game.steps[::5]:
            view = ENGINE.view(step.state, step.seat)
            legal = ENGINE.legal_actions(step.state, step.seat)
            names = NAMES[: step.state.num_seats]
            full = explorer(ENGINE, step.state, step.seat)

            def plain(actions: Any, full: Any = full) -> Any:
                return full(actions)

            with_legal = PRESENTER.chain_choices(view, legal, names, "en", explore=full)
            assert PRESENTER.chain_choices(view, legal, names, "en", explore=plain) == with_legal


def test_a_placement_is_never_a_draft_so_its_picks_are_not_explored() -> None:
    seen = 0
    for game in games():
        for step in game.steps:
            pending = ENGINE.view(step.state, None).pending
            if pending is None or pending.decision is not Decision.PLACEMENT:
                continue
            seen += 1
            legal = ENGINE.legal_actions(step.state, step.seat)
            for action in legal:  # the engine's fact the presenter relies on
                after = ENGINE.apply(step.state, step.seat, action).state
                if step.seat in ENGINE.active_seats(after):
                    assert Back() not in ENGINE.legal_actions(after, step.seat), action

            def refuse(actions: Any) -> Any:
                raise AssertionError(f"explored {actions!r}")

            view = ENGINE.view(step.state, step.seat)
            names = NAMES[: step.state.num_seats]
            chained = PRESENTER.chain_choices(view, legal, names, "en", explore=refuse)
            assert chained == PRESENTER.private_choices(view, legal, names, "en")
    assert seen >= 20
