"""bench/hint.py runs on a tiny configuration (latencies are measured, not asserted here)."""

from __future__ import annotations

import json

from quansu.bench import hint as bench_hint


def test_hint_views_are_fixed_and_spread_over_the_game():
    a = bench_hint.hint_views("tienlen", 2, seed=5, players=4, per_deal=3)
    b = bench_hint.hint_views("tienlen", 2, seed=5, players=4, per_deal=3)
    assert a == b and len(a) == 6
    assert all(v["players"] == 4 for v in a)
    # per deal: its first decision with a choice, then later ones
    for d in range(2):
        cuts = [len(v.get("moves", ())) for v in a[3 * d : 3 * d + 3]]
        assert cuts == sorted(cuts) and len(set(cuts)) == 3


def test_bench_hint_smoke(tmp_path, capsys):
    path = tmp_path / "hint.json"
    assert (
        bench_hint.main(
            [
                "--games",
                "tienlen,tan",
                "--deals",
                "1",
                "--per-deal",
                "2",
                "--uniform",
                "--hint-worlds",
                "8",
                "--steps",
                "--step-worlds",
                "4,8",
                "--rounds",
                "2",
                "--json",
                str(path),
            ]
        )
        == 0
    )
    data = json.loads(path.read_text())
    assert data["command"].startswith("python -m quansu.bench.hint --games tienlen,tan")
    assert data["commit"] and data["machine"]["cores"] >= 1 and data["date"]
    tienlen, tan = data["games"]
    assert tienlen["game"] == "tienlen" and tienlen["players"] == 4 and tienlen["positions"] == 2
    # --hint-worlds 8 sets every game's cap (Tấn's too), below the race's first look (16)
    for row in tienlen["rows"] + tan["rows"]:
        assert row["hint_worlds"] == 8 and row["top"] and row["top_group"] >= 1
        # two rounds, each in a fresh process: the same answer, the least time kept
        assert len(row["cpu_ms_rounds"]) == 2 and row["cpu_ms"] == min(row["cpu_ms_rounds"])
        assert row["same_answer"]
    for g in (tienlen, tan):
        for key in ("cpu_ms", "wall_ms"):
            s = g["summary"][key]
            assert 0 < s["p50"] <= s["p95"] <= s["max"]
        assert [st["step"] for st in g["steps"]] == ["search", "4 worlds", "8 worlds", "shipped"]
        assert [st["worlds"] for st in g["steps"][:3]] == [0, 4, 8]
        assert all(st["top_group_mean"] >= 1 for st in g["steps"])
        shipped = g["steps"][-1]  # the race on the same candidates: the engine's cap of 8
        assert shipped["worlds"] == 8 and shipped["playouts_mean"] >= 8 * 2
    out = capsys.readouterr().out
    assert "tienlen: CPU p95 <= 300 ms" in out and "top group" in out


def test_best_of_rounds_keeps_each_positions_least_time():
    def row(cpu, wall, top):
        return {"cpu_ms": cpu, "wall_ms": wall, "top": top, "hint_worlds": 32, "top_group": 1}

    a = [row(10.0, 12.0, "x"), row(30.0, 31.0, "y")]
    b = [row(12.0, 11.0, "x"), row(20.0, 40.0, "z")]
    rows = bench_hint.best_of([a, b])
    assert [r["cpu_ms"] for r in rows] == [10.0, 20.0]
    assert [r["wall_ms"] for r in rows] == [11.0, 31.0]
    assert rows[1]["cpu_ms_rounds"] == [30.0, 20.0] and rows[1]["top"] == "z"
    assert [r["same_answer"] for r in rows] == [True, False]
