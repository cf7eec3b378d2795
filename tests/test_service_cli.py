"""``quansu hint`` and ``quansu analyze``: in process and against a server, tables, JSON,
the plot, and clear errors for bad files."""

from __future__ import annotations

import argparse
import io
import json

import pytest

from quansu.games import record as rec
from quansu.server import cmd_analyze, cmd_hint, cmd_serve
from tests.test_service_util import long_record, running_server, view_to_act


def view_with_a_choice(game: str, players: int = 4, seed: int = 0) -> dict:
    """A seat's view with at least two legal moves, so that a hint searches (a forced move is
    answered without search), from the first seed at or after ``seed`` that gives one."""
    import random

    for s in range(seed, seed + 100):
        view = view_to_act(game, players, seed=s)
        if len(rec.legal_move_texts(rec.replay_view(view, random.Random(0)))) > 1:
            return view
    raise AssertionError(f"no {game} view with a choice")


def _args(module, argv):
    p = argparse.ArgumentParser()
    module.add_arguments(p)
    return p.parse_args(argv)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("games")
    record = long_record("tienlen", 4, min_moves=12, seed=1)
    view = view_with_a_choice("tienlen", 4, seed=2)
    (d / "game.json").write_text(json.dumps(record))
    (d / "view.json").write_text(json.dumps(view))
    (d / "bad.json").write_text('{"format": "quansu-view/1", "game": "tienlen", "players": 4,')
    return d, record, view


def test_hint_in_process_table_and_json(files):
    d, _record, view = files
    out = io.StringIO()
    assert cmd_hint.run(_args(cmd_hint, [str(d / "view.json"), "--uniform", "--iterations", "40",
                                         "--seed", "3", "--top", "3"]), out=out) == 0
    text = out.getvalue()
    assert "seat" in text and "play:" in text and "40 iterations" in text
    out = io.StringIO()
    assert cmd_hint.run(_args(cmd_hint, [str(d / "view.json"), "--uniform", "--iterations", "40",
                                         "--seed", "3", "--json"]), out=out) == 0
    resp = json.loads(out.getvalue())
    legal = set(rec.legal_move_texts(rec.replay_view(view, __import__("random").Random(0))))
    assert resp["chosen"]["text"] in legal
    assert resp["seat"] == view["seat"]


def test_hint_cuts_a_view_from_a_record(files, capsys):
    d, record, _view = files
    seat = record["moves"][5]["seat"]
    out = io.StringIO()
    assert cmd_hint.run(_args(cmd_hint, [str(d / "game.json"), "--seat", str(seat), "--at", "5",
                                         "--uniform", "--iterations", "20", "--json"]), out=out) == 0
    assert json.loads(out.getvalue())["seat"] == seat
    # a record without --seat, a bad file, a missing file: exit 2 and a message naming the problem
    assert cmd_hint.run(_args(cmd_hint, [str(d / "game.json"), "--uniform"])) == 2
    assert "--seat" in capsys.readouterr().err
    assert cmd_hint.run(_args(cmd_hint, [str(d / "bad.json"), "--uniform"])) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert cmd_hint.run(_args(cmd_hint, [str(d / "nope.json"), "--uniform"])) == 2
    assert "nope.json" in capsys.readouterr().err


def test_analyze_in_process_table_and_plot(files, tmp_path):
    d, record, _view = files
    seat = record["moves"][0]["seat"]
    out = io.StringIO()
    png = tmp_path / "a.png"
    assert cmd_analyze.run(_args(cmd_analyze, [str(d / "game.json"), "--uniform", "--seat", str(seat),
                                               "--iterations", "15", "--plot", str(png)]),
                           out=out) == 0
    text = out.getvalue()
    n = sum(1 for m in record["moves"] if m["seat"] == seat)
    assert text.count("\n") >= n + 3
    assert f"seat {seat}: {n} decisions" in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_hint_and_analyze_against_a_server(files):
    d, record, view = files
    with running_server(workers=1, token="tok") as (_server, target):
        out = io.StringIO()
        assert cmd_hint.run(_args(cmd_hint, [str(d / "view.json"), "--server", target, "--token",
                                             "tok", "--iterations", "30", "--json"]), out=out) == 0
        assert json.loads(out.getvalue())["stats"]["iterations"] == 30
        out = io.StringIO()
        assert cmd_analyze.run(_args(cmd_analyze, [str(d / "game.json"), "--server", target,
                                                   "--token", "tok", "--seat", "0", "--iterations",
                                                   "8", "--json"]), out=out) == 0
        lines = [json.loads(x) for x in out.getvalue().splitlines()]
        assert "summary" in lines[-1]
        # a bad request is reported with its field, exit 2
        assert cmd_analyze.run(_args(cmd_analyze, [str(d / "game.json"), "--server", target,
                                                   "--token", "tok", "--seat", "9"])) == 2
        # a wrong token: exit 1 with the status
        assert cmd_hint.run(_args(cmd_hint, [str(d / "view.json"), "--server", target])) == 1


def test_serve_rejects_bad_settings(capsys):
    for argv in (["--model", "tienlen"], ["--tls-cert", "x.pem"], ["--max-iterations", "0"],
                 ["--default-iterations", "900", "--max-iterations", "100"]):
        assert cmd_serve.run(_args(cmd_serve, argv)) == 2
        assert "error:" in capsys.readouterr().err


def test_evaluator_choice_per_game(tmp_path, capsys):
    from quansu.games.base import GameError
    from quansu.games.registry import game_names
    from quansu.models.evaluator import ModelError, default_model_path
    from quansu.search.evaluator import UniformEvaluator
    from quansu.server.evaluators import EvaluatorSet
    from quansu.games.registry import make

    names = EvaluatorSet().model_names()
    assert sorted(names) == game_names()
    for game, name in names.items():
        assert (name == "uniform") == (not default_model_path(game).is_file())
    forced = EvaluatorSet(uniform=True)
    assert set(forced.model_names().values()) == {"uniform"}
    ev, cfg = forced.for_game(make("tienlen", 4))
    assert isinstance(ev, UniformEvaluator) and cfg.leaf_value == "rollout"
    with pytest.raises(GameError, match="unknown game"):
        EvaluatorSet(paths={"chess": "x.onnx"})
    with pytest.raises(ModelError, match="not found"):
        EvaluatorSet(paths={"tienlen": str(tmp_path / "missing.onnx")})
    # a model that cannot be loaded stops `quansu serve` with the reason, exit 1
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    assert cmd_serve.run(_args(cmd_serve, ["--port", "0", "--host", "127.0.0.1", "--workers", "1",
                                           "--model", f"tienlen={bad}"])) == 1
    assert "cannot be loaded" in capsys.readouterr().err


def test_shipped_models_are_served_by_name():
    from quansu.games.registry import game_names
    from quansu.models.evaluator import default_model_path
    from quansu.server.client import Client
    from quansu.server.engine import build_engine

    shipped = [g for g in game_names() if default_model_path(g).is_file()]
    if not shipped:
        pytest.skip("no shipped models/<game>.onnx yet")
    engine = build_engine()
    for game in shipped:
        name = default_model_path(game).name
        assert engine.model_name(game) == name
        resp = engine.suggest(Client.suggest_request(view_with_a_choice(game, 4, seed=1), iterations=20,
                                                     seed=1))
        assert resp.model == name and resp.stats.iterations == 20
        assert abs(sum(s.prior for s in resp.moves) - 1) < 1e-6 or resp.stats.legal_moves > len(resp.moves)
