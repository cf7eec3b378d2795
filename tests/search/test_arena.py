"""The arena: rotations, statistics, determinism across workers, the CLI module."""

from __future__ import annotations

import argparse
import io
import json
import math

import pytest

from quansu import games
from quansu.cli import arena as cmd_arena
from quansu.games.base import GameError
from quansu.search.arena import _mean_ci, progress_bar, run_arena, summarize
from tests.search.test_search_toygame import BeatGame


def toy(players=3):
    return BeatGame(players, {"deck_size": 40, "hand_size": 5})


def test_bots_rotate_through_every_seat_of_every_deal():
    res = run_arena(toy(3), ["heuristic", "random", "ismcts:iterations=10"], 4, seed=2, workers=1)
    assert res.games == 12 and len(res.per_game) == 12
    for d in range(4):
        gs = [g for g in res.per_game if g["deal"] == d]
        assert [g["rotation"] for g in gs] == [0, 1, 2]
        for spec in ("heuristic", "random", "ismcts:iterations=10"):
            assert sorted(g["seats"].index(spec) for g in gs) == [0, 1, 2]
        assert all(abs(sum(g["payoffs"])) < 1e-9 for g in gs)


def test_stats_are_zero_sum_and_win_shares_add_up():
    res = run_arena(toy(4), ["heuristic", "random", "random", "random"], 5, seed=1, workers=1)
    by = {s.bot: s for s in res.stats}
    assert by["heuristic"].seats == 1 and by["random"].seats == 3
    assert by["heuristic"].games == by["random"].games == 20
    assert by["heuristic"].payoff + 3 * by["random"].payoff == pytest.approx(0.0, abs=1e-9)
    assert by["heuristic"].win + 3 * by["random"].win == pytest.approx(1.0)


def test_summary_by_hand():
    deals = [
        {
            "deal": 0,
            "games": [
                {
                    "seats": ["a", "b"],
                    "payoffs": [1.0, -1.0],
                    "moves": [2, 2],
                    "seconds": [0.002, 0.0],
                },
                {
                    "seats": ["b", "a"],
                    "payoffs": [0.5, -0.5],
                    "moves": [1, 3],
                    "seconds": [0.0, 0.006],
                },
            ],
        },
        {
            "deal": 1,
            "games": [
                {
                    "seats": ["a", "b"],
                    "payoffs": [0.0, 0.0],
                    "moves": [1, 1],
                    "seconds": [0.0, 0.0],
                },
                {
                    "seats": ["b", "a"],
                    "payoffs": [-2.0, 2.0],
                    "moves": [1, 1],
                    "seconds": [0.0, 0.0],
                },
            ],
        },
    ]
    a, b = summarize(["a", "b"], deals)
    # a: deal 0 -> (1 - 0.5) / 2 = 0.25, deal 1 -> (0 + 2) / 2 = 1.0
    assert a.payoff == pytest.approx(0.625)
    assert a.payoff_ci == pytest.approx(
        1.96 * math.sqrt(((0.25 - 0.625) ** 2 + (1 - 0.625) ** 2) / 2)
    )
    # wins: deal 0 -> a wins game 1 only (0.5); deal 1 -> tie (0.5) then win (1) -> 0.75
    assert a.win == pytest.approx(0.625) and b.win == pytest.approx(0.375)
    assert a.ms_per_move == pytest.approx(1000 * 0.008 / 7)
    assert _mean_ci([3.0]) == (3.0, None)


def test_same_results_with_one_or_two_workers():
    specs = ["ismcts:iterations=20", "heuristic", "random"]
    one = run_arena(toy(3), specs, 4, seed=5, workers=1)
    two = run_arena(toy(3), specs, 4, seed=5, workers=2)

    def strip(r):
        return [(g["deal"], g["rotation"], g["seats"], g["payoffs"]) for g in r.per_game]

    assert strip(one) == strip(two)
    assert [(s.bot, s.win, s.payoff) for s in one.stats] == [
        (s.bot, s.win, s.payoff) for s in two.stats
    ]
    other = run_arena(toy(3), specs, 4, seed=6, workers=1)
    assert strip(other) != strip(one)


def test_heuristic_beats_random_on_the_toy_game():
    res = run_arena(toy(4), ["heuristic", "random", "random", "random"], 40, seed=3, workers=1)
    h = res.stats[0]
    assert h.payoff - h.payoff_ci > 0
    assert h.win - h.win_ci > 0.25


def test_hook_sees_every_finished_game():
    seen = []
    run_arena(
        toy(2),
        ["heuristic", "random"],
        3,
        seed=0,
        workers=1,
        hook=lambda state, info: seen.append((state.is_terminal(), info["deal"], info["rotation"])),
    )
    assert seen == [(True, d, r) for d in range(3) for r in range(2)]


@pytest.mark.parametrize(
    "kwargs,word",
    [
        ({"bots": ["heuristic"], "deals": 2}, "bots"),
        ({"bots": ["heuristic", "nobot", "random"], "deals": 2}, "unknown bot"),
        ({"bots": ["heuristic", "random", "random"], "deals": 0}, "deals"),
        ({"bots": ["heuristic", "random", "random"], "deals": 2, "workers": 0}, "workers"),
    ],
)
def test_bad_arena_requests(kwargs, word):
    with pytest.raises(GameError, match=word):
        run_arena(toy(3), **kwargs)


def test_progress_bar_ends_with_a_full_bar():
    out = io.StringIO()
    show = progress_bar(out)
    for k in range(1, 5):
        show(k, 4, 0.1 * k)
    assert out.getvalue().rstrip().endswith("eta    0.0 s")
    assert "[" + "#" * 30 + "] 4/4 deals" in out.getvalue()


def cli_args(**kw):
    p = argparse.ArgumentParser()
    cmd_arena.add_arguments(p)
    argv = []
    for k, v in kw.items():
        argv += [f"--{k}"] + ([] if v is True else [str(v)])
    return p.parse_args(argv)


def test_cli_table_and_json(tmp_path, monkeypatch):
    monkeypatch.setattr(cmd_arena, "make", lambda name, players, options: toy(players))
    path = tmp_path / "r.json"
    out, err = io.StringIO(), io.StringIO()
    args = cli_args(
        game="beat",
        players=3,
        bots="heuristic,random,random",
        deals=3,
        seed=1,
        workers=1,
        json=path,
    )
    assert cmd_arena.run(args, out=out, err=err) == 0
    assert "heuristic" in out.getvalue() and "win %" in out.getvalue()
    assert "3/3 deals" in err.getvalue()
    data = json.loads(path.read_text())
    assert data["games"] == 9 and data["bots"] == ["heuristic", "random", "random"]
    assert [s["bot"] for s in data["stats"]] == ["heuristic", "random"]
    assert len(data["per_game"]) == 9


def test_cli_json_to_stdout_and_errors(monkeypatch):
    monkeypatch.setattr(cmd_arena, "make", lambda name, players, options: toy(players))
    out, err = io.StringIO(), io.StringIO()
    args = cli_args(players=2, bots="heuristic,random", deals=2, workers=1, json=True, quiet=True)
    assert cmd_arena.run(args, out=out, err=err) == 0
    assert json.loads(out.getvalue())["games"] == 4 and err.getvalue() == ""
    err = io.StringIO()
    assert (
        cmd_arena.run(
            cli_args(players=2, bots="heuristic,best", deals=2), out=io.StringIO(), err=err
        )
        == 2
    )
    assert "unknown bot 'best'" in err.getvalue()


@pytest.mark.parametrize("name", games.game_names())
def test_cli_on_registered_games(name):
    out, err = io.StringIO(), io.StringIO()
    n = games.game_classes()[name].min_players
    args = cli_args(
        game=name,
        players=n,
        bots=",".join(["heuristic"] + ["random"] * (n - 1)),
        deals=2,
        workers=1,
        quiet=True,
    )
    assert cmd_arena.run(args, out=out, err=err) == 0, err.getvalue()
    assert f"{name}, {n} players, 2 deals" in out.getvalue()
    bad = cli_args(game=name, players=n, bots="heuristic", deals=2)
    assert cmd_arena.run(bad, out=io.StringIO(), err=(e := io.StringIO())) == 2
    assert "--bots" in e.getvalue()


@pytest.mark.parametrize("name", games.game_names()[:2])
def test_cli_records_every_game(name, tmp_path):
    from quansu.games.record import read_json, replay_record

    n = games.game_classes()[name].min_players
    args = cli_args(
        game=name,
        players=n,
        bots=",".join(["heuristic"] + ["random"] * (n - 1)),
        deals=2,
        workers=2,
        quiet=True,
        records=tmp_path / "rec",
    )
    assert cmd_arena.run(args, out=io.StringIO(), err=io.StringIO()) == 0
    index = json.loads((tmp_path / "rec" / "index.json").read_text())
    assert len(index["games"]) == 2 * n
    for entry in index["games"]:
        state = replay_record(read_json(str(tmp_path / "rec" / entry["file"])))
        assert state.is_terminal()
        assert state.returns() == pytest.approx(entry["payoffs"])


def test_cli_records_into_an_unwritable_place(tmp_path, monkeypatch):
    monkeypatch.setattr(cmd_arena, "make", lambda name, players, options: toy(players))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    err = io.StringIO()
    args = cli_args(players=2, bots="heuristic,random", deals=1, records=blocker / "sub")
    assert cmd_arena.run(args, out=io.StringIO(), err=err) == 2
    assert "--records" in err.getvalue()
