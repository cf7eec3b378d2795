"""bench.pool: pooling strength matches run on different deals."""

from __future__ import annotations

import json
import math

import pytest

from quansu.bench.pool import PoolError, main, pool


def _run(seed, mean, half, deals=24, ms=50.0, **extra):
    m = {
        "test": "guided",
        "baseline": "uniform",
        "deals": deals,
        "ms_per_move": ms,
        "guided_leaf_value": "rollout",
        "guided_batch": 1,
        "payoff_mean": mean,
        "ci95": [mean - half, mean + half],
        "seed": seed,
        "model": "shipped",
        "prior_temperature": 1.0,
    }
    m.update(extra)
    return {"game": "tienlen", "players": 4, "guided_vs_uniform": m}


def test_pooled_mean_and_interval_weight_runs_by_deals():
    res = pool([_run(1, 0.3, 0.196, deals=24), _run(2, 0.0, 0.392, deals=72)])
    assert res["deals"] == 96 and res["runs"] == 2 and res["seeds"] == [1, 2]
    assert res["payoff_mean"] == pytest.approx(0.075)
    se = math.sqrt((0.25 * 0.1) ** 2 + (0.75 * 0.2) ** 2)
    assert res["ci95"] == pytest.approx([0.075 - 1.96 * se, 0.075 + 1.96 * se], abs=1e-4)
    assert res["above_zero"] is False
    # equal runs with the same mean: the interval narrows by sqrt(k)
    four = pool([_run(s, 0.2, 0.2) for s in range(4)])
    assert four["ci95"] == pytest.approx([0.1, 0.3]) and four["above_zero"] is True


def test_a_missing_prior_mix_reads_as_its_default():
    res = pool([_run(1, 0.1, 0.1), _run(2, 0.1, 0.1, prior_mix=0.0)])
    assert res["prior_mix"] == 0.0


@pytest.mark.parametrize(
    "runs, field",
    [
        ([_run(1, 0.1, 0.1), _run(2, 0.1, 0.1, ms=100.0)], "ms_per_move"),
        ([_run(1, 0.1, 0.1), _run(2, 0.1, 0.1, prior_temperature=0.1)], "prior_temperature"),
        ([_run(1, 0.1, 0.1), dict(_run(2, 0.1, 0.1), game="tan")], "game"),
        ([_run(1, 0.1, 0.1), _run(1, 0.2, 0.1)], "seed appears twice"),
        ([_run(1, 0.1, 0.1), {"game": "tienlen", "players": 4}], "no 'guided_vs_uniform'"),
        ([], "no runs"),
        ([_run(1, 0.1, 0.1), [1, 2]], "run 2 is not a bench.models result"),
        ([_run(1, 0.1, 0.1, deals=0)], "deals must be a positive integer"),
        ([_run(1, 0.1, 0.1, ci95=[0.0])], "ci95"),
    ],
)
def test_runs_that_cannot_be_pooled_are_refused(runs, field):
    with pytest.raises(PoolError, match=field):
        pool(runs)


def test_cli(tmp_path, capsys):
    files = []
    for s in (1, 2):
        f = tmp_path / f"r{s}.json"
        f.write_text(json.dumps(_run(s, 0.2, 0.2)))
        files.append(str(f))
    assert main(files) == 0
    out = capsys.readouterr().out
    assert "pooled +0.200" in out and json.loads(out.splitlines()[-1])["deals"] == 48
    with pytest.raises(SystemExit):
        main(files + ["--part", "policy"])
    assert "no 'policy_vs_heuristic'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([str(tmp_path / "missing.json")])
    assert "missing.json" in capsys.readouterr().err


def test_cli_adds_the_pooled_line_to_a_card(tmp_path, capsys):
    from quansu.bench.models import CARD_HEADER

    files = []
    for s in (3, 4):
        f = tmp_path / f"r{s}.json"
        f.write_text(json.dumps(_run(s, -0.1, 0.2)))
        files.append(str(f))
    card = tmp_path / "g.md"
    card.write_text("# g\n\ntext\n")
    assert main(files + ["--card", str(card)]) == 0
    text = card.read_text()
    assert text.startswith("# g\n\ntext\n") and text.count(CARD_HEADER) == 1
    assert "`python -m quansu.bench.pool " + " ".join(files) + "`" in text
    assert (
        "pooled: -0.100 bets per game" in text
        and "over 48 deals (2 runs, seeds 3, 4), 50 ms per move (NOT above zero)" in text
    )
    with pytest.raises(SystemExit):
        main(files + ["--card", str(tmp_path / "no" / "card.md")])
    assert "--card" in capsys.readouterr().err
