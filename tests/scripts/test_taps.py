"""Smoke test of the taps script: a short Масти Власти game with and without panels that follow the game.

Every Масти Власти decision is private, so without following panels each move after another
player's costs "My cards" plus the choice, and with them one tap: the script must see that.
The form filling is checked on a hand-made modal (no decision of these games opens one yet).
"""

from __future__ import annotations

import pytest

from bot.codec import encode_action
from games.masti.models import PayBribe, PlayCard
from scripts.taps import (
    PLAN,
    Row,
    Spec,
    fill_form,
    find_action,
    find_multi,
    form_openers,
    main,
    plan_for,
    run_taps,
    table_lines,
)

MASTI = Spec("masti", 3)


@pytest.mark.asyncio
async def test_following_panels_cut_the_taps_of_a_whole_game():
    (followed,) = await run_taps([MASTI], seed="smoke")
    (unfollowed,) = await run_taps([MASTI], follow=False, seed="smoke")

    for row in (followed, unfollowed):
        assert row.finished and row.decisions >= 10
        assert row.decisions <= row.taps <= 3 * row.decisions  # at most My cards + choice, a refusal would raise
    assert followed.decisions == unfollowed.decisions  # the same seeded game, played the same way
    assert followed.opens == 1 and followed.taps == followed.decisions + 1  # one My cards, then one tap per move
    assert unfollowed.opens > followed.opens and unfollowed.taps > followed.taps
    assert followed.meets_target()
    lines = table_lines([followed, unfollowed])
    assert lines[2].startswith("| masti | 3 | yes |") and lines[3].startswith("| masti | 3 | no |")


def test_plan_has_two_player_counts_of_every_game():
    assert {game: len({s.players for s in plan_for(game)}) for game in ("coup", "masti", "cadwallon", "intrigue")} == {
        "coup": 2,
        "masti": 2,
        "cadwallon": 2,
        "intrigue": 2,
    }
    assert plan_for("all") == PLAN
    with pytest.raises(ValueError, match="unknown game"):
        plan_for("chess")


def test_an_intrigue_row_is_judged_per_active_turn():
    row = Row(spec=Spec("intrigue", 3), follow=True, decisions=20, taps=30, turn_taps={1: 12, 2: 6})
    assert row.turn_stats() == (12, 9.0) and row.meets_target()
    row.turn_taps[3] = 13
    assert not row.meets_target()
    assert Row(spec=MASTI, follow=True, decisions=10, taps=14).meets_target() is False


def test_a_free_action_after_a_done_in_the_same_turn_is_what_a_standing_pass_gives_up():
    row = Row(spec=Spec("intrigue", 3), follow=True)
    row.windows = [(1, False), (1, True), (1, False), (2, True), (3, False), (3, True), (3, True), (3, False)]
    assert row.acted_after_done() == 2  # turn 1's third answer and turn 3's last; turn 2 passed once only
    lines = table_lines([row])
    assert lines[-1].endswith("8 window answers, 2 of them a free action after a Done of hers in the same turn")


def test_actions_are_found_only_for_the_current_prompt():
    play = encode_action(PlayCard(card="A13"))
    rows = [
        {"type": 1, "components": [{"type": 2, "custom_id": f"act:7:5:1:{encode_action(PayBribe())}"}]},
        {"type": 1, "components": [{"type": 3, "custom_id": "acts:7:5:1:aldo", "options": [{"value": play}]}]},
    ]
    assert find_action(rows, 7, 5, play) == ("select", "acts:7:5:1:aldo")
    assert find_action(rows, 7, 5, encode_action(PayBribe())) == ("button", f"act:7:5:1:{encode_action(PayBribe())}")
    assert find_action(rows, 7, 6, play) is None  # a stale panel
    assert find_action(rows, 8, 5, play) is None


def test_a_multi_select_takes_the_ais_next_picks_in_as_few_picks_as_a_person_needs():
    options = [{"value": v} for v in ("land.1", "land.2", "hire.spy", "done")]
    multi = {"type": 3, "custom_id": "acts:7:5:1:basket", "max_values": 4, "options": options}
    single = {"type": 3, "custom_id": "acts:7:5:1:land", "options": options}
    rows = [{"type": 1, "components": [single]}, {"type": 1, "components": [multi]}]
    # Different picks then Pay: all at once, in the list's order, whatever the AI's order.
    assert find_multi(rows, 7, 5, ["hire.spy", "land.2", "done", "other"]) == (
        "acts:7:5:1:basket",
        ["land.2", "hire.spy", "done"],
        3,
    )
    # A repeated pick: one of each now, Pay later with the repeat.
    assert find_multi(rows, 7, 5, ["land.1", "land.1", "hire.spy", "done"]) == (
        "acts:7:5:1:basket",
        ["land.1", "hire.spy"],
        2,
    )
    assert find_multi(rows, 7, 5, ["land.1", "done"])[1] == ["land.1", "done"]  # type: ignore[index]  # found
    assert find_multi(rows, 7, 5, ["land.1", "other", "done"]) is None  # one action: a plain pick
    assert find_multi(rows, 7, 6, ["land.1", "done"]) is None  # a stale panel
    assert find_multi([{"type": 1, "components": [single]}], 7, 5, ["land.1", "done"]) is None  # one value a select


def test_a_form_is_filled_with_the_actions_the_ai_takes_next():
    rows = [
        {"type": 1, "components": [{"type": 2, "custom_id": "form:7:5:basket"}, {"type": 2, "custom_id": "tbl:7:hand"}]}
    ]
    assert form_openers(rows) == ["form:7:5:basket"]
    modal = {
        "custom_id": "basket",
        "components": [
            {"type": 18, "component": {"type": 3, "custom_id": "one", "options": [{"value": "b"}, {"value": "a"}]}},
            {
                "type": 18,
                "component": {
                    "type": 3,
                    "custom_id": "many",
                    "max_values": 3,
                    "options": [{"value": "c"}, {"value": "a"}, {"value": "x"}],
                },
            },
            {"type": 18, "component": {"type": 21, "custom_id": "radio", "options": [{"value": "x"}, {"value": "b"}]}},
            {"type": 18, "component": {"type": 22, "custom_id": "boxes", "options": [{"value": "c"}, {"value": "d"}]}},
            {"type": 18, "component": {"type": 4, "custom_id": "text"}},
        ],
    }
    # Each planned action is answered once, in the first control offering it.
    assert fill_form(modal, ["a", "b", "c"]) == {"one": ["a"], "many": ["c"], "radio": "b"}
    # The decision ends at the first planned action the form does not offer (its closing action).
    assert fill_form(modal, ["b", "pay", "a"]) == {"one": ["b"]}


def test_an_action_taken_twice_fills_two_fields_and_a_form_too_small_is_not_filled():
    slot = [{"value": "spy"}, {"value": "land"}]
    basket = {
        "custom_id": "basket",
        "components": [{"type": 18, "component": {"type": 3, "custom_id": f"f{i}", "options": slot}} for i in range(3)],
    }
    assert fill_form(basket, ["spy", "spy", "land", "pay"]) == {"f0": ["spy"], "f1": ["spy"], "f2": ["land"]}
    # Four purchases do not fit three fields: submitted, the form would buy another basket.
    assert fill_form(basket, ["spy", "spy", "land", "land", "pay"]) == {}


def test_main_prints_the_table(capsys, monkeypatch):
    async def fake_run(plan, *, follow, seed, intrigue_turns, standing_pass):
        return [Row(spec=plan[0], follow=follow, decisions=4, taps=5, opens=1, finished=True)]

    monkeypatch.setattr("scripts.taps.run_taps", fake_run)
    assert main(["--game", "coup", "--no-follow"]) == 0
    out = capsys.readouterr().out
    assert "| coup | 3 | no | 4 | 5 | 1.25 | 1 | 0 | 0 | – | ≤ 1.3 ✓ |" in out
