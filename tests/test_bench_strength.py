"""bench.strength: paired strength runs (A and B on the same deals against the same opponents)."""

from __future__ import annotations

import pytest

from quansu.bench import strength


def test_paired_run_pairs_by_deal_and_reports_intervals():
    res = strength.paired("tienlen", "random", "level1", "heuristic", deals=3, seed=4, players=2)
    assert res["a_minus_b"] == pytest.approx(res["a_payoff"] - res["b_payoff"])
    assert res["a_minus_b_ci"] >= 0.0 and 0.0 <= res["a_win"] <= 1.0
    again = strength.paired("tienlen", "random", "level1", "heuristic", deals=3, seed=4, players=2)
    assert again["a_minus_b"] == res["a_minus_b"]          # reproducible by seed
    assert "A - B" in strength.text(res)


def test_the_same_bot_against_itself_pairs_to_zero():
    res = strength.paired("tan", "level1", "level1:c_puct=1.5", "heuristic", deals=2, seed=1, players=2)
    assert res["a_minus_b"] == pytest.approx(0.0)


def test_bots_must_differ_from_the_opponent():
    with pytest.raises(SystemExit):
        strength.paired("tan", "heuristic", "level1", "heuristic", deals=1)
