"""The balance benchmark at tiny sizes: every section and line is there, and its verdicts follow the targets.

Nothing here asserts on timings or on how balanced a game is: the numbers are the benchmark's to
report. Synthetic records check the PASS/MISS logic; a few real games check the plumbing.
"""

from __future__ import annotations

import dataclasses
import doctest

import pytest

import benchmarks.__main__ as cli
import benchmarks.balance as balance
from benchmarks import masti
from benchmarks.balance import Record, Setting
from benchmarks.common import Line
from bot.tables import choose_ai_action
from games.cadwallon.cards import contracts_in_play
from games.cadwallon.models import CadwallonView
from games.core import Outcome
from games.intrigue.models import Victory
from games.registry import AGENTS, ENGINES

#: One cheap setting per game, and Cadwallon at 8 players for the tie line.
TINY = (
    Setting("coup", 3),
    Setting("masti", 3),
    Setting("cadwallon", 3, (("grid", 3),)),
    Setting("cadwallon", 8, (("grid", 4),)),
    Setting("intrigue", 2, (("lands", "random"),)),
)


def test_doctests() -> None:
    result = doctest.testmod(balance)
    assert result.attempted >= 10
    assert result.failed == 0


def test_every_setting_each_game_offers() -> None:
    labels = {game: [s.label for s in balance.settings_of(game)] for game in ("coup", "masti", "cadwallon", "intrigue")}
    assert labels["coup"] == [f"{n} players" for n in range(2, 7)] + ["2 players, draft"]
    assert labels["masti"] == [f"{n} players" for n in range(3, 7)] + ["4 players, teams"]
    assert labels["cadwallon"] == [
        *(f"{n} players, grid=3" for n in range(2, 5)),
        *(f"{n} players, grid=4" for n in range(2, 9)),
        *(f"{n} players, grid=5" for n in range(2, 9)),
    ]
    assert labels["intrigue"] == [
        f"{n} players, lands={lands}" for lands in ("standard", "random") for n in range(2, 9)
    ]


def test_seat_verdict_is_judged_on_the_interval() -> None:
    # Exactly fair over many games: the whole interval is inside ±5 pp.
    assert balance.judge_seats([2_500.0] * 4, 10_000) == (
        True,
        "worst: position 1 25.0% (95% CI 24.2%–25.9%) vs fair 25.0%, +0.0 pp",
    )
    # Exactly fair over few games: not proven, and the text says how many games it takes.
    passed, text = balance.judge_seats([5.0] * 4, 20)
    assert not passed and "undecided at 20 games, needs ≈ 289" in text
    # Clearly unfair: the interval lies outside the band.
    passed, text = balance.judge_seats([600.0, 400.0], 1_000)
    assert not passed and text.endswith("beyond ±5 pp")
    assert balance.games_needed(1 / 4) == 289


def test_unit_shares_count_teams_in_turn_order_and_split_shared_wins() -> None:
    outcome = Outcome(ranks=(0, 1, 0, 2))
    assert balance.unit_shares(outcome, 4, 2) == (0.5, 0.0, 0.5, 0.0)
    teams = Outcome(ranks=(1, 0, 1, 0, 1, 1), teams=((0, 3), (1, 4), (2, 5)))
    assert balance.unit_shares(teams, 6, 4) == (1.0, 0.0, 0.0)


def record(ending: str = "election", length: int = 6, shares: tuple[float, ...] = (1.0, 0.0), **extra) -> Record:
    return Record(shares=shares, length=length, ending=ending, extra=extra)


def by_name(lines: list[Line], text: str) -> Line:
    (line,) = [line for line in lines if text in line.name]
    return line


def test_intrigue_targets() -> None:
    setting = Setting("intrigue", 2, (("lands", "standard"),))
    victories = [v.value for v in Victory if v not in {Victory.TURN_LIMIT, Victory.LAST_PLAYER}]
    even = [record(ending=victories[i % 4], length=5 + i % 3) for i in range(40)]
    lines = balance.balance_lines({setting: even})
    assert by_name(lines, "each victory's share").passed
    assert by_name(lines, "end turn").passed
    assert by_name(lines, "turn limit").passed
    # Elections only, early, and a third on the turn limit: all three targets missed.
    skewed = [record(ending="election", length=3)] * 20 + [record(ending="turn_limit", length=10)] * 10
    lines = balance.balance_lines({setting: skewed})
    assert not by_name(lines, "each victory's share").passed
    assert "coup 0%" in by_name(lines, "each victory's share").value
    assert not by_name(lines, "end turn").passed
    assert not by_name(lines, "turn limit").passed


def test_intrigue_items_that_never_matter_or_always_decide() -> None:
    setting = Setting("intrigue", 2, (("lands", "standard"),))
    records = [
        record(lands=(("land 1", True, True), ("land 2", True, False), ("land 3", True, i % 2 == 0)))
        for i in range(balance.MIN_ITEM_GAMES)
    ]
    line = by_name(balance.balance_lines({setting: records}), "lands held")
    assert not line.passed
    assert "never matters: land 2" in line.value and "always decides: land 1" in line.value
    middling = [record(lands=(("land 3", True, i % 2 == 0),)) for i in range(balance.MIN_ITEM_GAMES)]
    assert by_name(balance.balance_lines({setting: middling}), "lands held").passed
    # Too few games in play to judge: never a PASS.
    few = middling[: balance.MIN_ITEM_GAMES - 1]
    line = by_name(balance.balance_lines({setting: few}), "lands held")
    assert not line.passed and "too few games" in line.value


def test_cadwallon_targets() -> None:
    four = Setting("cadwallon", 4, (("grid", 4),))
    eight = Setting("cadwallon", 8, (("grid", 4),))
    quad = (1.0, 0.0, 0.0, 0.0)
    records = [
        record(
            ending="deck_exhausted",
            shares=quad,
            accident=(("K01", i % 3 == 0), ("K17", True)),
            held=(("K01", True),),
            creditors=(5,) if i % 2 else (1,),
            played=(("A01", 1.0), ("A02", 0.0)),
        )
        for i in range(balance.MIN_ACTION_PLAYS)
    ]
    tied = [record(shares=(1.0,) + (0.0,) * 7, judgments=10, ties=1)]
    lines = balance.balance_lines({four: records, eight: tied})
    assert by_name(lines, "K01 met by accident").passed  # a third
    assert "holders met it 100% of 30" in by_name(lines, "K01 met by accident").value
    assert not by_name(lines, "K17 met by accident").passed  # always
    creditors = by_name(lines, "Creditors")
    # Of the 30 games with a Creditor captured (the eight-player one has none), 15 paid the full bonus.
    assert (
        creditors.passed
        and creditors.value == "in 50.0% of the 30 games with a Creditor captured (15 of the 30 Creditors held paid it)"
    )
    action = by_name(lines, "action card")
    assert not action.passed and "far above: A01" in action.value  # its player always wins: 4× fair
    assert "A01 4.00× fair (95% CI 4.00–4.00, 30 plays)" in action.value
    assert "(whole interval above: A01)" in action.value
    assert by_name(lines, "8 players, grid=4: card judgments tied").passed  # 10%
    assert len([line for line in lines if "judgments tied" in line.name]) == 1  # 8 players only


def test_creditors_without_any_captured_cannot_pass() -> None:
    setting = Setting("cadwallon", 2, (("grid", 3),))
    line = by_name(balance.balance_lines({setting: [record(creditors=())]}), "Creditors")
    assert not line.passed and line.value == "no Creditor captured in 1 games"


def test_masti_guild_targets() -> None:
    setting = Setting("masti", 3)
    records = [record(shares=(1.0, 0.0, 0.0), piles=(("ARI", 3), ("KNI", -2 if i else 1))) for i in range(10)]
    lines = balance.balance_lines({setting: records})
    assert by_name(lines, "ARI").passed is False  # always positive
    assert by_name(lines, "KNI").passed is False  # almost never
    mixed = [record(shares=(1.0, 0.0, 0.0), piles=(("ART", 2 if i % 4 else -1),)) for i in range(8)]
    assert by_name(balance.balance_lines({setting: mixed}), "ART").passed


def test_contract_check_agrees_with_the_engine_for_each_holder() -> None:
    engine, agent = ENGINES["cadwallon"], AGENTS["cadwallon"]
    state = engine.setup(4, engine.options_type(grid=4), "balance-contracts").state
    while engine.active_seats(state):
        seat = min(engine.active_seats(state))
        state = engine.apply(state, seat, choose_ai_action(engine, agent, state, seat)).state
    view = engine.view(state, None)
    assert isinstance(view, CadwallonView) and view.result is not None
    hands = [balance._own_hand(engine, state, seat) for seat in range(4)]
    for breakdown in view.result:
        assert breakdown.contract is not None
        assert balance.contract_met(view, hands, breakdown.seat, breakdown.contract) == breakdown.contract_met


def test_contract_check_compares_with_the_other_seats_hands_and_played_cards() -> None:
    """K18 (most actions played) and K08 (most in hand) measure the seat against the others' cards.

    The check once built the table context from captured cards only, so every rival had played
    nothing: anyone who played one action "met" K18 (81% of non-holders in all-AI games).
    """
    engine = ENGINES["cadwallon"]
    view = engine.view(engine.setup(3, engine.options_type(grid=4), "balance-k18").state, None)
    assert isinstance(view, CadwallonView)
    plays = {0: ("A01",), 1: ("A02", "A03"), 2: ()}
    view = view.model_copy(
        update={"players": tuple(p.model_copy(update={"played": plays[p.seat]}) for p in view.players)}
    )
    hands: list[tuple[str, ...]] = [(), (), ("A04", "A05")]
    assert not balance.contract_met(view, hands, 0, "K18")
    assert balance.contract_met(view, hands, 1, "K18")
    assert not balance.contract_met(view, [("A06",), (), ("A04", "A05")], 0, "K08")


@pytest.fixture(scope="module")
def tiny_results() -> dict[Setting, list[Record]]:
    return balance.measure(TINY, 2, workers=1)


def test_report_has_every_section_and_line(tiny_results) -> None:
    lines = balance.balance_lines(tiny_results)
    for line in lines:
        assert line.section.startswith(balance.SECTION) and line.target and line.verdict in {"PASS", "MISS"}
    seat = [line for line in lines if line.section.endswith("seat position")]
    assert [line.name.split(" (")[0] for line in seat] == [f"{s.game}: {s.label}" for s in TINY]
    assert all("needs ≥" in line.name for line in seat)
    contracts = sorted(set(contracts_in_play(3)) | set(contracts_in_play(4)))
    assert [line.name for line in lines if "met by accident" in line.name] == [
        f"{k} met by accident" for k in contracts
    ]
    for text in ("Creditors", "action card", "8 players, grid=4: card judgments tied"):
        by_name(lines, text)
    for text in ("each victory's share", "end turn", "turn limit", "lands held", "characters held", "traits held"):
        by_name(lines, text)
    assert len([line for line in lines if "masti guilds" in line.section]) >= 4
    text = balance.report(tiny_results, 1.0, 1, "tiny")
    for game in ("coup", "masti", "cadwallon", "intrigue"):
        assert f"## {game}" in text
    assert "| 8 players, grid=4 | 2 |" in text and "## Targets" in text


def test_records_do_not_depend_on_the_workers(tiny_results) -> None:
    chosen = (TINY[0], TINY[2])
    assert balance.measure(chosen, 2, workers=2, chunk=1) == {s: tiny_results[s] for s in chosen}


def test_command_writes_the_report(tmp_path, capsys) -> None:
    args = ["--games", "2", "--game", "coup", "--seats", "2", "--workers", "1", "--out", str(tmp_path)]
    assert balance.main(args) == 0
    text = (tmp_path / "balance.md").read_text(encoding="utf-8")
    assert text.startswith("# Balance report") and "| 2 players | 2 |" in text and "| 2 players, draft | 2 |" in text
    assert "3 players" not in text
    captured = capsys.readouterr()
    assert text.strip() in captured.out
    # Progress goes to stderr, one line per setting as its last game ends.
    assert captured.err.splitlines() == ["coup: 2 players: 2 games played", "coup: 2 players, draft: 2 games played"]


def test_command_plays_only_the_settings_with_the_options_asked(tmp_path, capsys) -> None:
    """``--option lands=random`` measures one land set; a value no setting has is refused, not run empty."""
    args = ["--games", "1", "--game", "intrigue", "--seats", "2", "--workers", "1", "--out", str(tmp_path)]
    assert balance.main([*args, "--option", "lands=random"]) == 0
    assert capsys.readouterr().err.splitlines() == ["intrigue: 2 players, lands=random: 1 games played"]
    for bad in ("lands=none", "lands"):
        with pytest.raises(SystemExit):
            balance.main([*args, "--option", bad])


def test_bench_section_plays_the_settings_it_is_given() -> None:
    lines = balance.bench_balance(games=2, workers=1, settings=[Setting("coup", 2)])
    assert [line.name for line in lines] == ["coup: 2 players (2 games; ±5 pp needs ≥ 385 games)"]


@pytest.mark.parametrize("games", [0, 3])
def test_make_bench_runs_the_balance_section_at_its_size(monkeypatch, tmp_path, games) -> None:
    async def no_clicks(*_args, **_kwargs) -> list[Line]:
        return []

    monkeypatch.setattr(cli, "bench_clicks", no_clicks)
    for name in ("bench_render", "bench_playouts", "bench_ai", "bench_winrate", "bench_games", "bench_memory"):
        monkeypatch.setattr(cli, name, lambda *_args, **_kwargs: [])
    for name in ("bench_spam", "bench_bookkeeping", "bench_replay"):
        monkeypatch.setattr(cli, name, lambda *_args, **_kwargs: [])
    for name in ("bench_render", "bench_playouts", "bench_ai", "bench_winrate"):
        monkeypatch.setattr(masti, name, lambda *_args, **_kwargs: [])
    asked: list[int] = []
    line = Line(balance.SECTION, "x", "1", "y", True)

    def fake_balance(*, games: int) -> list[Line]:
        asked.append(games)
        return [line]

    monkeypatch.setattr(cli, "bench_balance", fake_balance)
    lines = cli.run_all(dataclasses.replace(cli.QUICK, balance_games=games), tmp_path)
    assert asked == ([games] if games else [])
    assert lines == ([line] if games else [])
