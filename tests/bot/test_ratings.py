"""Pure OpenSkill rating functions: free-for-all, ties, teams, AI seats and the ordinal."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bot.ratings import DEFAULT_MU, DEFAULT_SIGMA, Rating, ordinal, rate_outcome, rate_result, winning_seats
from games.core.models import Outcome


@dataclass(frozen=True)
class Seat:
    seat: int | None
    user_id: int | None
    is_ai: bool = False


def test_defaults_and_ordinal() -> None:
    assert DEFAULT_MU == 25.0
    assert abs(DEFAULT_SIGMA - 25 / 3) < 1e-12
    assert ordinal(DEFAULT_MU, DEFAULT_SIGMA) == pytest.approx(0.0)
    assert ordinal(30.0, 2.0) == 24.0
    assert Rating(30.0, 2.0).ordinal == 24.0
    assert Rating() == Rating(DEFAULT_MU, DEFAULT_SIGMA)


def test_winner_goes_up_loser_goes_down() -> None:
    new = rate_result({}, [(1, 0), (2, 1)])
    assert new[1].mu > DEFAULT_MU > new[2].mu
    assert new[1].sigma < DEFAULT_SIGMA and new[2].sigma < DEFAULT_SIGMA


def test_free_for_all_orders_by_rank() -> None:
    new = rate_result({}, [(10, 2), (11, 0), (12, 1)])
    assert new[11].mu > new[12].mu > new[10].mu


def test_prior_ratings_are_used() -> None:
    strong, weak = (35.0, 3.0), (20.0, 3.0)
    upset = rate_result({1: strong, 2: weak}, [(1, 1), (2, 0)])
    expected = rate_result({1: strong, 2: weak}, [(1, 0), (2, 1)])
    assert 35.0 - upset[1].mu > expected[1].mu - 35.0  # losing as favourite costs more than winning gains


def test_ties_between_equals_keep_mu_and_cut_sigma() -> None:
    new = rate_result({1: None, 2: None}, [(1, 0), (2, 0)])
    assert new[1].mu == pytest.approx(DEFAULT_MU) and new[2].mu == pytest.approx(DEFAULT_MU)
    assert new[1].sigma < DEFAULT_SIGMA


def test_tie_pulls_ratings_together() -> None:
    new = rate_result({1: (30.0, 4.0), 2: (20.0, 4.0)}, [(1, 0), (2, 0)])
    assert new[1].mu < 30.0 and new[2].mu > 20.0


def test_teams_share_the_result() -> None:
    new = rate_result({}, [(1, 0), (2, 0), (3, 1), (4, 1)], teams=[[1, 2], [3, 4]])
    assert new[1].mu == pytest.approx(new[2].mu)
    assert new[3].mu == pytest.approx(new[4].mu)
    assert new[1].mu > DEFAULT_MU > new[3].mu


def test_fewer_than_two_sides_changes_nothing() -> None:
    assert rate_result({}, [(1, 0)]) == {}
    assert rate_result({}, []) == {}
    assert rate_result({}, [(1, 0), (2, 0)], teams=[[1, 2]]) == {}


@pytest.mark.parametrize(
    ("ranks", "teams"),
    [
        ([(1, 0), (1, 1)], None),  # ranked twice
        ([(1, 0), (2, 1)], [[1], [3]]),  # team member not ranked
        ([(1, 0), (2, 1)], [[1, 2], [2]]),  # in two teams
        ([(1, 0), (2, 1), (3, 1)], [[1, 2], [3]]),  # team members with different ranks
    ],
)
def test_inconsistent_input_is_rejected(ranks: list[tuple[int, int]], teams: list[list[int]] | None) -> None:
    with pytest.raises(ValueError):
        rate_result({}, ranks, teams)


def test_rate_outcome_drops_ai_seats() -> None:
    seats = [Seat(0, 1), Seat(1, None, is_ai=True), Seat(2, 2)]
    new = rate_outcome({}, seats, Outcome(ranks=(1, 0, 2)))  # the AI won
    assert set(new) == {1, 2}
    assert new[1].mu > DEFAULT_MU > new[2].mu


def test_rate_outcome_with_one_human_rates_nobody() -> None:
    seats = [Seat(0, 1), Seat(1, None, is_ai=True), Seat(2, None, is_ai=True)]
    assert rate_outcome({}, seats, Outcome(ranks=(0, 1, 2))) == {}


def test_rate_outcome_teams_drop_ai_members_and_ai_only_teams() -> None:
    seats = [Seat(0, 1), Seat(1, 2), Seat(2, None, is_ai=True), Seat(3, None, is_ai=True)]
    mixed = Outcome(ranks=(0, 1, 0, 1), teams=((0, 2), (1, 3)))
    new = rate_outcome({}, seats, mixed)
    assert new[1].mu > DEFAULT_MU > new[2].mu

    humans_vs_ai = Outcome(ranks=(0, 0, 1, 1), teams=((0, 1), (2, 3)))
    assert rate_outcome({}, seats, humans_vs_ai) == {}


def test_rate_outcome_rejects_seats_outside_the_outcome() -> None:
    with pytest.raises(ValueError):
        rate_outcome({}, [Seat(0, 1), Seat(5, 2)], Outcome(ranks=(0, 1)))
    with pytest.raises(ValueError):
        rate_outcome({}, [Seat(None, 1)], Outcome(ranks=(0,)))


def test_winning_seats() -> None:
    assert winning_seats(Outcome(ranks=(2, 0, 1))) == {1}
    assert winning_seats(Outcome(ranks=(0, 1, 0, 1), teams=((0, 2), (1, 3)))) == {0, 2}
