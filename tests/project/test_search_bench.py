"""bench/search.py runs (a smoke run with tiny budgets; speeds are not asserted here)."""

from __future__ import annotations

import json

import pytest

from quansu import games
from quansu.bench import search as bench_search


@pytest.mark.parametrize("name", games.game_names())
def test_bench_search_smoke(name, tmp_path, capsys):
    path = tmp_path / "b.json"
    # the benchmark measures a speed over a time budget: 1 s (not less) leaves room for a few
    # iterations on a loaded machine, where 0.05 s once ran none
    assert (
        bench_search.main(
            [
                "--games",
                name,
                "--seconds",
                "1",
                "--positions",
                "1",
                "--latency-trials",
                "1",
                "--no-openspiel",
                "--json",
                str(path),
            ]
        )
        == 0
    )
    data = json.loads(path.read_text())
    row = data["games"][0]
    assert row["game"] == name and row["iterations_per_s"] > 0
    assert row["cancel_latency_ms_max"] >= 0 and row["deadline_overshoot_ms_max"] >= 0
    assert "OpenSpiel peer skipped" in capsys.readouterr().out


def test_tuning_argument_parses_fields_and_refuses_bad_items():
    """``--tuning``: numbers where they parse, text otherwise; an item without ``=`` names it."""
    assert bench_search._tuning_arg("improve_worlds=24,improve_look=8,playout=heuristic") == {
        "improve_worlds": 24,
        "improve_look": 8,
        "playout": "heuristic",
    }
    assert bench_search._tuning_arg("anchor=0.25") == {"anchor": 0.25}
    assert bench_search._tuning_arg(None) == {}
    with pytest.raises(SystemExit, match="improve_look"):
        bench_search._tuning_arg("improve_look")
