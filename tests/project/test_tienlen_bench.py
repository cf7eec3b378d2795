"""Smoke test of the engine benchmark (bench/engine.py): it runs and reports sane figures.
Speed itself is never asserted in tests."""

import io
import json

import pytest

from quansu.bench import engine


def test_bench_runs_on_tienlen(tmp_path):
    out = io.StringIO()
    path = tmp_path / "bench.json"
    res = engine.run(
        [
            "--game",
            "tienlen",
            "--players",
            "3",
            "--seconds",
            "0.05",
            "--no-peers",
            "--json",
            str(path),
            "--clock",
            "cpu",
        ],
        out=out,
    )
    r = res["games"]["tienlen"]
    assert r["games"] >= 1 and r["moves"] >= r["games"]
    assert r["moves_per_s"] > r["games_per_s"] > 0
    assert r["clone_us"] > 0 and r["determinize_us"] > 0 and r["legal_moves_us"] > 0
    assert "tienlen" in out.getvalue() and "games/s" in out.getvalue()
    assert json.loads(path.read_text())["games"]["tienlen"]["games"] == r["games"]


def test_bench_skips_unknown_game():
    out = io.StringIO()
    res = engine.run(["--game", "chess", "--seconds", "0.01", "--no-peers"], out=out)
    assert res["games"] == {} and "chess" in out.getvalue() and "skipped" in out.getvalue()


def test_bench_peer_when_rlcard_is_installed():
    pytest.importorskip("rlcard")
    r = engine.rlcard_core_playouts("doudizhu", 0.05, 0)
    assert r["games"] >= 1 and r["moves"] > 0
    r = engine.rlcard_env_playouts("doudizhu", 0.05, 0)
    assert r["games"] >= 1 and r["moves"] > 0
