"""``quansu hint`` and ``quansu analyze``: in process and against a server, tables, JSON,
the plot, and clear errors for bad files."""

from __future__ import annotations

import argparse
import io
import json

import pytest

from quansu.cli import analyze as cmd_analyze
from quansu.cli import hint as cmd_hint
from quansu.cli import serve as cmd_serve
from quansu.games import record as rec
from tests.helpers.service import long_record, running_server, view_to_act


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
    assert (
        cmd_hint.run(
            _args(
                cmd_hint,
                [
                    str(d / "view.json"),
                    "--uniform",
                    "--iterations",
                    "40",
                    "--seed",
                    "3",
                    "--top",
                    "3",
                ],
            ),
            out=out,
        )
        == 0
    )
    text = out.getvalue()
    lines = text.splitlines()
    # the advice line first (issue 45), the rows, then play: the first row's move
    assert lines[0].startswith("Best move: ") and lines[-1].startswith("play: ")
    assert "40 iterations" not in text and "lcb" not in text  # statistics: --details
    out = io.StringIO()
    assert (
        cmd_hint.run(
            _args(
                cmd_hint,
                [
                    str(d / "view.json"),
                    "--uniform",
                    "--iterations",
                    "40",
                    "--seed",
                    "3",
                    "--top",
                    "3",
                    "--details",
                ],
            ),
            out=out,
        )
        == 0
    )
    details = out.getvalue()
    assert details.splitlines()[0] == lines[0]
    assert "seat" in details and "40 iterations" in details and "lcb" in details
    out = io.StringIO()
    assert (
        cmd_hint.run(
            _args(
                cmd_hint,
                [
                    str(d / "view.json"),
                    "--uniform",
                    "--iterations",
                    "40",
                    "--seed",
                    "3",
                    "--top",
                    "3",
                    "--json",
                ],
            ),
            out=out,
        )
        == 0
    )
    resp = json.loads(out.getvalue())
    legal = set(rec.legal_move_texts(rec.replay_view(view, __import__("random").Random(0))))
    assert resp["chosen"]["text"] in legal
    assert resp["seat"] == view["seat"]
    assert resp["advice"] == lines[0]
    assert resp["chosen"]["text"] == resp["moves"][0]["move"]["text"]
    assert lines[-1] == "play: " + resp["moves"][0]["move"]["text"]


def test_hint_cuts_a_view_from_a_record(files, capsys):
    d, record, _view = files
    seat = record["moves"][5]["seat"]
    out = io.StringIO()
    assert (
        cmd_hint.run(
            _args(
                cmd_hint,
                [
                    str(d / "game.json"),
                    "--seat",
                    str(seat),
                    "--at",
                    "5",
                    "--uniform",
                    "--iterations",
                    "20",
                    "--json",
                ],
            ),
            out=out,
        )
        == 0
    )
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
    assert (
        cmd_analyze.run(
            _args(
                cmd_analyze,
                [
                    str(d / "game.json"),
                    "--uniform",
                    "--seat",
                    str(seat),
                    "--iterations",
                    "15",
                    "--plot",
                    str(png),
                ],
            ),
            out=out,
        )
        == 0
    )
    text = out.getvalue()
    n = sum(1 for m in record["moves"] if m["seat"] == seat)
    assert text.count("\n") >= n + 3
    assert f"seat {seat}: {n} decisions" in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_hint_and_analyze_against_a_server(files):
    d, record, view = files
    with running_server(workers=1, token="tok") as (_server, target):
        out = io.StringIO()
        assert (
            cmd_hint.run(
                _args(
                    cmd_hint,
                    [
                        str(d / "view.json"),
                        "--server",
                        target,
                        "--token",
                        "tok",
                        "--iterations",
                        "30",
                        "--json",
                    ],
                ),
                out=out,
            )
            == 0
        )
        assert json.loads(out.getvalue())["stats"]["iterations"] == 30
        out = io.StringIO()
        assert (
            cmd_analyze.run(
                _args(
                    cmd_analyze,
                    [
                        str(d / "game.json"),
                        "--server",
                        target,
                        "--token",
                        "tok",
                        "--seat",
                        "0",
                        "--iterations",
                        "8",
                        "--json",
                    ],
                ),
                out=out,
            )
            == 0
        )
        lines = [json.loads(x) for x in out.getvalue().splitlines()]
        assert "summary" in lines[-1]
        # a bad request is reported with its field, exit 2
        assert (
            cmd_analyze.run(
                _args(
                    cmd_analyze,
                    [str(d / "game.json"), "--server", target, "--token", "tok", "--seat", "9"],
                )
            )
            == 2
        )
        # a wrong token: exit 1 with the status
        assert cmd_hint.run(_args(cmd_hint, [str(d / "view.json"), "--server", target])) == 1


def test_serve_rejects_bad_settings(capsys):
    for argv in (
        ["--model", "tienlen"],
        ["--tls-cert", "x.pem"],
        ["--max-iterations", "0"],
        ["--default-iterations", "900", "--max-iterations", "100"],
    ):
        assert cmd_serve.run(_args(cmd_serve, argv)) == 2
        assert "error:" in capsys.readouterr().err


def test_evaluator_choice_per_game(tmp_path, capsys):
    from quansu.games.base import GameError
    from quansu.games.registry import game_names, make
    from quansu.models.evaluator import ModelError, default_model_path
    from quansu.search.evaluator import UniformEvaluator
    from quansu.server.evaluators import EvaluatorSet

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
    assert (
        cmd_serve.run(
            _args(
                cmd_serve,
                [
                    "--port",
                    "0",
                    "--host",
                    "127.0.0.1",
                    "--workers",
                    "1",
                    "--model",
                    f"tienlen={bad}",
                ],
            )
        )
        == 1
    )
    assert "cannot be loaded" in capsys.readouterr().err


def test_shipped_models_are_served_by_name():
    from quansu.client import Client
    from quansu.games.registry import game_names
    from quansu.models.evaluator import default_model_path
    from quansu.server.engine import build_engine

    shipped = [g for g in game_names() if default_model_path(g).is_file()]
    if not shipped:
        pytest.skip("no shipped models/<game>.onnx yet")
    engine = build_engine()
    for game in shipped:
        name = default_model_path(game).name
        assert engine.model_name(game) == name
        resp = engine.suggest(
            Client.suggest_request(view_with_a_choice(game, 4, seed=1), iterations=20, seed=1)
        )
        assert resp.model == name and resp.stats.iterations == 20
        assert abs(sum(s.prior for s in resp.moves) - 1) < 1e-6 or resp.stats.legal_moves > len(
            resp.moves
        )


# -- issue 18 item 3: the small things a new user trips over ------------------------------------
ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"


def _quansu() -> str:
    import sys
    from pathlib import Path

    script = Path(sys.executable).parent / "quansu"
    assert script.is_file(), f"no console script at {script}: pip install -e '.[dev]'"
    return str(script)


def test_version(capsys):
    import quansu
    from quansu import cli

    with pytest.raises(SystemExit) as ei:
        cli.main(["--version"])
    assert ei.value.code == 0
    # and the build of the hot paths (search.compiled): the editable dev install is pure Python
    assert capsys.readouterr().out.strip() == f"quansu {quansu.__version__} (pure Python)"
    assert quansu.__version__ != "0+unknown"  # read from the installed distribution


def test_server_address_without_a_port_goes_to_50051():
    from quansu.client import DEFAULT_PORT, Client, TargetError, normalize_target

    assert DEFAULT_PORT == 50051
    for given, expected in [
        ("localhost", "localhost:50051"),
        ("10.0.0.7", "10.0.0.7:50051"),
        ("localhost:6000", "localhost:6000"),
        ("::1", "[::1]:50051"),
        ("[::1]", "[::1]:50051"),
        ("[::1]:7", "[::1]:7"),
        (" example.com ", "example.com:50051"),
        ("dns:///example.com:443", "dns:///example.com:443"),
        ("unix:/tmp/q.sock", "unix:/tmp/q.sock"),
    ]:
        assert normalize_target(given) == expected, given
    for bad, says in [
        ("", "empty"),
        ("localhost:", "port ''"),
        ("h:99999", "1..65535"),
        ("h:http", "'http'"),
        (":50051", "no host"),
        ("[::1", "missing ']'"),
        ("[::1]x", "expected ':PORT'"),
    ]:
        with pytest.raises(TargetError, match=says):
            normalize_target(bad)
    with Client("localhost") as c:
        assert c.target == "localhost:50051" and not c.tls
    # the same from the command line: `quansu serve` listens on 50051 by default, and a bad
    # --server is refused with the reason, exit 2
    assert _args(cmd_serve, []).port == 50051
    assert _args(cmd_hint, ["v.json", "--server", "localhost"]).server == "localhost"


def test_bad_server_address_is_refused(files, capsys):
    d, _record, _view = files
    assert cmd_hint.run(_args(cmd_hint, [str(d / "view.json"), "--server", "localhost:http"])) == 2
    assert "error: --server:" in capsys.readouterr().err


def test_dash_reads_standard_input(files, monkeypatch):
    d, record, view = files
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(view)))
    out = io.StringIO()
    assert (
        cmd_hint.run(
            _args(cmd_hint, ["-", "--uniform", "--iterations", "12", "--seed", "1", "--json"]),
            out=out,
        )
        == 0
    )
    assert json.loads(out.getvalue())["stats"]["iterations"] == 12
    seat = record["moves"][0]["seat"]
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record)))
    out = io.StringIO()
    assert (
        cmd_analyze.run(
            _args(cmd_analyze, ["-", "--uniform", "--seat", str(seat), "--iterations", "6"]),
            out=out,
        )
        == 0
    )
    assert f"seat {seat}:" in out.getvalue()
    # replay and view: the console script with the record on its standard input
    import subprocess

    text = (EXAMPLES / "tienlen.record.json").read_text()
    r = subprocess.run(
        [_quansu(), "replay", "-"], input=text, capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0 and "result: agrees with the settlement" in r.stdout, r.stderr
    r = subprocess.run(
        [_quansu(), "view", "-", "--seat", "1", "--at", "3", "--out", "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    cut = json.loads(r.stdout)
    assert cut["format"] == "quansu-view/1" and cut["seat"] == 1 and len(cut["moves"]) == 3


class _ClosedPipe(io.StringIO):
    def write(self, s):
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self):
        raise BrokenPipeError(32, "Broken pipe")


def test_closed_pipe_exits_quietly(monkeypatch, capsys):
    from quansu import cli

    record = str(EXAMPLES / "tienlen.record.json")
    monkeypatch.setattr("sys.stdout", _ClosedPipe())
    assert cli.main(["replay", record]) == cli.EXIT_BROKEN_PIPE == 141
    assert (
        cli.main(["hint", str(EXAMPLES / "tienlen.view.json"), "--uniform", "--iterations", "5"])
        == 141
    )
    monkeypatch.undo()
    assert capsys.readouterr().err == ""


def test_closed_pipe_exits_quietly_in_a_real_pipe():
    """``quansu replay X --legal | head -1``: the reader goes away early."""
    import subprocess

    proc = subprocess.Popen(
        [_quansu(), "replay", str(EXAMPLES / "tienlen.record.json"), "--legal"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    proc.stdout.close()  # gone before the first write: every write fails
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 141
    assert err == "", err
    r = subprocess.run(
        f"'{_quansu()}' replay '{EXAMPLES / 'tienlen.record.json'}' --legal | head -1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.stdout.startswith("game: tienlen") and r.stderr == "", r.stderr


def test_tls_and_plaintext_mismatch_is_explained(files, capsys):
    from tests.helpers.service import TLS_DIR

    d, _record, _view = files
    hint = [str(d / "view.json"), "--iterations", "5", "--timeout", "20"]
    with running_server(
        workers=1, tls_cert=str(TLS_DIR / "server.crt"), tls_key=str(TLS_DIR / "server.key")
    ) as (_server, target):
        assert cmd_hint.run(_args(cmd_hint, hint + ["--server", target])) == 1
        err = capsys.readouterr().err
        assert f"the server at {target} seems to use TLS" in err and "--tls-ca" in err, err
    with running_server(workers=1) as (_server, target):
        port = target.rsplit(":", 1)[1]
        assert (
            cmd_hint.run(
                _args(
                    cmd_hint,
                    hint
                    + ["--server", f"localhost:{port}", "--tls-ca", str(TLS_DIR / "server.crt")],
                )
            )
            == 1
        )
        err = capsys.readouterr().err
        assert "seems to use plaintext" in err and "drop --tls-ca" in err, err
        # matching sides: no such message (and the call works)
        assert (
            cmd_hint.run(_args(cmd_hint, hint + ["--server", target, "--json"]), out=io.StringIO())
            == 0
        )
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]
    assert (
        cmd_analyze.run(
            _args(
                cmd_analyze,
                [str(d / "game.json"), "--server", f"127.0.0.1:{free}", "--timeout", "20"],
            )
        )
        == 1
    )
    assert f"nothing answers at 127.0.0.1:{free}" in capsys.readouterr().err


def test_warning_when_serving_every_interface_without_a_token():
    from quansu.server.app import exposure_warning

    for host in ("0.0.0.0", "::", "[::]", ""):
        msg = exposure_warning(host, None)
        assert msg and "--token" in msg, host
        assert exposure_warning(host, "s3cret") is None
    assert exposure_warning("127.0.0.1", None) is None
    assert exposure_warning("localhost", None) is None


def _serve_and_stop(*argv: str, env=None) -> tuple[str, str]:
    """Run `quansu serve ARGV` until its start line, then SIGTERM; (start line, stderr)."""
    import signal
    import subprocess

    proc = subprocess.Popen(
        [_quansu(), "serve", "--port", "0", "--workers", "1", "--uniform", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = proc.stdout.readline()
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    return line, err


def test_serve_start_line_and_exposure_warning():
    import os

    import quansu

    env = {k: v for k, v in os.environ.items() if k != "QUANSU_TOKEN"}
    line, err = _serve_and_stop("--host", "0.0.0.0", env=env)
    assert line.startswith(f"quansu {quansu.__version__} serving on 0.0.0.0:"), line
    assert "WARNING" in err and "without --token" in err, err
    line, err = _serve_and_stop("--host", "0.0.0.0", "--token", "s3cret", env=env)
    assert "token required" in line and "without --token" not in err, err
    line, err = _serve_and_stop("--host", "127.0.0.1", env=env)
    assert "serving on 127.0.0.1:" in line and "without --token" not in err, err


def test_install_hints_work_from_a_checkout_and_an_install(monkeypatch, capsys):
    from pathlib import Path

    from quansu import cli
    from quansu.cli import train as cmd_train

    assert cli.checkout_root() == ROOT  # the tests run on an editable install of this checkout
    here = cli.install_hint("train")
    assert here.startswith("pip install -e '.[train]' in the checkout") and str(ROOT) in here
    assert "pip install 'quansu[train]'" in here
    monkeypatch.setattr(cli, "checkout_root", lambda: None)
    installed = cli.install_hint("train")
    assert installed.startswith("pip install 'quansu[train]'") and "-e '.[train]'" in installed
    monkeypatch.undo()
    try:
        import onnx  # noqa: F401
        import torch  # noqa: F401
    except ImportError:
        assert cmd_train.run(_args(cmd_train, ["--game", "tienlen"])) == 2
        err = capsys.readouterr().err
        assert "[train] extra" in err and "pip install -e '.[train]'" in err
        assert Path(ROOT).name in err


def _readme_commands() -> list[list[str]]:
    """Every `quansu ...` command the README shows (code blocks and inline code)."""
    import re
    import shlex

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.findall(r"^quansu [^\n`]+", text, flags=re.M)
    found += re.findall(r"`(quansu [^`]+)`", text)
    out = []
    for cmd in found:
        cmd = re.sub(r"\[[^\]]*\]", "", cmd.split("&&")[0]).strip()  # [optional] parts
        # placeholders such as `--seat S --at K` stand for numbers
        out.append(["1" if re.fullmatch(r"[A-Z]", a) else a for a in shlex.split(cmd)[1:]])
    return out


def test_readme_commands_parse():
    from quansu import cli

    commands = _readme_commands()
    names = {argv[0] for argv in commands}
    assert {"serve", "hint", "arena", "replay", "play"} <= names, names
    for argv in commands:
        if argv[0].startswith("-"):  # `quansu --version`
            with pytest.raises(SystemExit) as ei:
                cli.main(argv)
            assert ei.value.code == 0
            continue
        cli.build_parser(argv[0]).parse_args(argv)


def test_readme_first_command_serves_the_web_page():
    """The easiest way to see quansu play is the web page: the README's first command serves
    it, and the page's address is beside it."""
    import re

    from quansu import cli

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```bash\n(.+?)\n```", text, flags=re.S).group(1)
    assert first.startswith("pip install . && quansu serve "), first
    args = cli.build_parser("serve").parse_args(first.split("&&")[1].split()[1:])
    assert args.http_port, first
    after = text[text.index(first) :][:600]
    assert f"http://localhost:{args.http_port}/" in after


def test_readme_arena_example_finishes_in_minutes():
    """The README's arena command, its CPU time on one deal scaled to its deals, must take
    minutes of one core, not hours (the former `--deals 200` with the default 1000 iterations a
    move took about an hour of one core).  CPU seconds (this process and any child), not wall
    time: a loaded machine makes the test slower, not red."""
    import resource
    import time

    def cpu() -> float:
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + kids.ru_utime + kids.ru_stime

    from quansu import cli
    from quansu.cli import arena as cmd_arena

    arena = [argv for argv in _readme_commands() if argv[0] == "arena"]
    assert len(arena) == 1
    args = cli.build_parser("arena").parse_args(arena[0])
    deals = args.deals
    args.deals, args.workers, args.quiet = 1, 1, True
    t0 = cpu()
    assert cmd_arena.run(args, out=io.StringIO(), err=io.StringIO()) == 0
    one_core_minutes = (cpu() - t0) * deals / 60
    assert one_core_minutes < 10, f"about {one_core_minutes:.0f} minutes of one core"
