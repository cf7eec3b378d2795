"""Batch analysis, arenas and strength runs as tasks (issue 41): on the local process pool and
on a real Ray cluster of two nodes started on this machine (``ray start --head`` and ``ray
start --address``, one CPU each, each with its own temporary folder, on 127.0.0.1, stopped at
the end: :class:`quansu.server.ray_cluster.LocalCluster`).

Bounded by work: six short games (the documentation's examples) judged with 16 worlds and 20
iterations a decision, arenas of a few deals of two-player Tấn with rule-based bots.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from quansu import batch
from quansu.batch import Settings, read_items, read_results, run_batch

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
#: the six short games, the shortest first (so that work is left when the second node dies)
SIX = [
    "samloc.view.json",
    "tan.view.json",
    "tan.record.json",
    "tienlen.view.json",
    "phom.view.json",
    "samloc.record.json",
]
SETTINGS = Settings(worlds=16, iterations=20, seed=7)


def six_items():
    return list(read_items([str(EXAMPLES / f) for f in SIX]))


def judged(lines):
    """What must not depend on where a game was judged: per key, the status, the decisions
    and the summaries."""
    return {x["key"]: (x["status"], x.get("decisions"), x.get("summaries")) for x in lines}


@pytest.fixture(scope="module")
def local_six(tmp_path_factory):
    """The six games judged in this process: the reference."""
    out = tmp_path_factory.mktemp("local") / "local.jsonl"
    res = run_batch(six_items(), SETTINGS, out_path=str(out), jobs=1)
    assert res.ran == 6 and res.failed == 0
    return res


# -- without Ray --------------------------------------------------------------------------------


def test_batch_writes_each_result_once_skips_on_rerun_and_reports_invalid(tmp_path, local_six):
    out = tmp_path / "r.jsonl"
    good = json.loads((EXAMPLES / "tan.view.json").read_text())
    bad = {"format": "quansu-record/1", "game": "tienlen"}
    stream = tmp_path / "in.jsonl"
    stream.write_text(json.dumps(good) + "\n" + "not json\n" + json.dumps(bad) + "\n")
    seen = []
    res = run_batch(
        list(read_items([str(stream), str(EXAMPLES / "tan.view.json")])),
        SETTINGS,
        out_path=str(out),
        jobs=1,
        on_result=seen.append,
    )
    # the same game twice (in the stream and as a file) is judged once
    assert res.ran == 3 and res.skipped == 0 and res.failed == 2
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["status"] for x in lines] == [x["status"] for x in seen]
    by_status = sorted(x["status"] for x in lines)
    assert by_status == ["invalid", "invalid", "ok"]
    errors = {x["source"].rsplit(":", 1)[1]: x["error"] for x in lines if x["status"] != "ok"}
    assert "JSON" in errors["2"] and "players" in errors["3"]
    # the same marks as the reference run of the same game with the same settings
    ok = next(x for x in lines if x["status"] == "ok")
    assert judged([ok]).items() <= judged(local_six.lines).items()
    # a rerun with the same settings runs nothing; other settings run again
    again = run_batch(list(read_items([str(stream)])), SETTINGS, out_path=str(out), jobs=1)
    assert (again.ran, again.skipped) == (0, 3)
    assert len(out.read_text().splitlines()) == 3
    other = Settings(worlds=16, iterations=20, seed=8)
    assert other.digest() != SETTINGS.digest()
    items = [
        it
        for it in read_items([str(stream)])
        if it.obj is not None and "moves" in it.obj and it.obj.get("format") == "quansu-view/1"
    ]
    assert run_batch(items, other, out_path=str(out), jobs=1).ran == 1


def test_sources_folders_globs_and_a_stream(tmp_path):
    (tmp_path / "sub").mkdir()
    for f in ("tan.view.json", "samloc.view.json"):
        (tmp_path / "sub" / f).write_text((EXAMPLES / f).read_text())
    (tmp_path / "sub" / "index.json").write_text('{"games": []}')  # not a game: skipped
    skipped = []
    folder = list(read_items([str(tmp_path / "sub")], skipped=skipped.append))
    assert [Path(i.source).name for i in folder] == ["samloc.view.json", "tan.view.json"]
    assert [Path(p).name for p in skipped] == ["index.json"]
    globbed = list(read_items([str(tmp_path / "**" / "t*.json")], skipped=skipped.append))
    assert [Path(i.source).name for i in globbed] == ["tan.view.json"]
    text = (EXAMPLES / "tan.view.json").read_text()
    stream = list(read_items(["-"], stdin=io.StringIO(json.dumps(json.loads(text)) + "\n\n{")))
    assert [i.source for i in stream] == ["-:1", "-:3"]
    # the same game, whatever its layout, has the same digest
    assert stream[0].digest == globbed[0].digest and stream[1].obj is None
    with pytest.raises(FileNotFoundError):
        list(read_items([str(tmp_path / "none" / "*.json")]))


def test_a_result_that_failed_otherwise_runs_again(tmp_path):
    out = tmp_path / "r.jsonl"
    items = list(read_items([str(EXAMPLES / "tan.view.json")]))
    key = f"{items[0].digest}.{SETTINGS.digest()}"
    out.write_text(
        json.dumps({"key": key, "status": "error", "error": "worker lost"}) + "\n" + '{"key": "torn'
    )  # a killed run's half-written last line
    res = run_batch(items, SETTINGS, out_path=str(out), jobs=1)
    assert res.ran == 1 and read_results(str(out))[key]["status"] == "ok"


def test_local_pool_equals_one_process(tmp_path, local_six):
    """Two worker processes, results in the order they finish: the same lines."""
    items = six_items()[:3]
    res = run_batch(items, SETTINGS, out_path=str(tmp_path / "p.jsonl"), jobs=2)
    assert judged(res.lines).items() <= judged(local_six.lines).items()
    # on a pool kept open by the caller, twice: the second run on warm workers
    with batch.local_pool(2) as pool:
        for k in range(2):
            res = run_batch(items, SETTINGS, out_path=str(tmp_path / f"w{k}.jsonl"), pool=pool)
            assert judged(res.lines).items() <= judged(local_six.lines).items()


def test_analyze_command_batch_mode_table_and_reports(tmp_path, local_six):
    from quansu.cli import main

    out = tmp_path / "r.jsonl"
    reports = tmp_path / "html"
    argv = [
        "analyze",
        str(EXAMPLES / "tan.view.json"),
        str(EXAMPLES / "samloc.view.json"),
        "--worlds",
        "16",
        "--iterations",
        "20",
        "--seed",
        "7",
        "--jobs",
        "1",
        "--out",
        str(out),
        "--reports",
        str(reports),
        "--quiet",
        "--lang",
        "en",
    ]
    assert main(argv) == 0
    assert sorted(p.suffix for p in reports.iterdir()) == [".html", ".html"]
    lines = list(read_results(str(out)).values())
    assert judged(lines).items() <= judged(local_six.lines).items()


def test_ray_missing_says_what_to_install(tmp_path, monkeypatch, capfd):
    from quansu.cli import main

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    rc = main(
        ["analyze", str(EXAMPLES / "tan.view.json"), "--ray", "--out", str(tmp_path / "r.jsonl")]
    )
    assert rc == 2
    assert "quansu[ray]" in capfd.readouterr().err
    assert not (tmp_path / "r.jsonl").exists()
    import argparse

    from quansu.cli import arena as cmd_arena

    p = argparse.ArgumentParser()
    cmd_arena.add_arguments(p)
    err = io.StringIO()
    rc = cmd_arena.run(
        p.parse_args(
            [
                "--game",
                "tan",
                "--players",
                "2",
                "--bots",
                "heuristic,random",
                "--deals",
                "1",
                "--ray",
                "auto",
                "--quiet",
            ]
        ),
        out=io.StringIO(),
        err=err,
    )
    assert rc == 2 and "quansu[ray]" in err.getvalue()


def test_ray_address_forms():
    files: list[str] = []
    assert batch.ray_address("", files) == "" and batch.ray_address("auto", files) == "auto"
    assert batch.ray_address("10.0.0.5:6379", files) == "10.0.0.5:6379"
    assert batch.ray_address("ray://head:10001", files) == "ray://head:10001"
    # `--ray GAME.json`: the game file went to --ray; it comes back, and Ray is local
    assert batch.ray_address(str(EXAMPLES / "tan.view.json"), files) == ""
    assert files == [str(EXAMPLES / "tan.view.json")]
    with pytest.raises(ValueError, match="not an address"):
        batch.ray_address("nowhere", files)


def test_the_serving_path_and_local_runs_never_import_ray():
    code = (
        "import sys\n"
        "import quansu.server.app, quansu.server.gateway, quansu.server.engine\n"
        "from quansu.cli import build_parser\n"
        "build_parser()\n"
        "from quansu.games import make\n"
        "from quansu.search.arena import run_arena\n"
        "run_arena(make('tan', 2), ['heuristic', 'random'], 1, seed=1, workers=1)\n"
        "from quansu.batch import read_items, run_batch, Settings\n"
        f"items = list(read_items([{str(EXAMPLES / 'tan.view.json')!r}]))\n"
        "assert run_batch(items, Settings(worlds=16, iterations=20), jobs=1).lines[0]['status'] == 'ok'\n"
        "print('ray' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=True
    )
    assert out.stdout.strip() == "False"


def test_a_driver_that_cannot_connect_yet_tries_again(monkeypatch):
    """``ray.init`` gives up on a head whose GCS listens before its raylet is registered (seen
    on a loaded machine): the cluster's start shuts the half-made driver down and tries again
    until its start timeout, instead of failing the first time."""
    ray_cluster = pytest.importorskip("quansu.server.ray_cluster")
    ray = ray_cluster.require_ray()
    calls: list[str] = []

    def flaky_connect(address):
        calls.append(address)
        if calls.count(address) < 3:
            raise ConnectionError(f"Failed to connect to Ray cluster at {address}")

    monkeypatch.setattr(ray_cluster, "connect", flaky_connect)
    monkeypatch.setattr(ray, "shutdown", lambda: calls.append("shutdown"))
    c = ray_cluster.LocalCluster((1,), start_timeout_s=60)
    c.address = "127.0.0.1:1"
    c._wait(c._connected, "the driver's connection to the head")
    assert calls == ["127.0.0.1:1", "shutdown", "127.0.0.1:1", "shutdown", "127.0.0.1:1"]
    c.start_timeout_s = 0
    calls.clear()
    with pytest.raises(RuntimeError, match="the driver's connection to the head not up"):
        c._wait(c._connected, "the driver's connection to the head")


# -- on a two-node cluster ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster():
    ray_cluster = pytest.importorskip("quansu.server.ray_cluster")
    ray_cluster.require_ray()  # the dev extra installs it: a missing Ray fails here
    # the GCS notices a lost node in about 2 s instead of 30 s
    env = {
        "RAY_health_check_period_ms": "500",
        "RAY_health_check_failure_threshold": "4",
        "RAY_health_check_initial_delay_ms": "500",
    }
    with ray_cluster.LocalCluster((1, 1), object_store_mb=80, env=env) as c:
        c.ids = c.node_ids()
        assert all(c.ids) and len(set(c.ids)) == 2
        yield c


def test_batch_analysis_runs_on_both_nodes_with_the_local_marks(cluster, tmp_path, local_six):
    from quansu.cli import main

    out = tmp_path / "ray.jsonl"
    err = io.StringIO()
    argv = [
        "analyze",
        *[str(EXAMPLES / f) for f in SIX],
        "--ray",
        cluster.address,
        "--worlds",
        "16",
        "--iterations",
        "20",
        "--seed",
        "7",
        "--out",
        str(out),
    ]
    old = sys.stderr
    sys.stderr = err
    try:
        assert main(argv) == 0
    finally:
        sys.stderr = old
    assert "6/6 games, 0 failed" in err.getvalue()
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 6 and len({x["key"] for x in lines}) == 6
    assert {x["node"] for x in lines} == set(cluster.ids), "both nodes ran games"
    assert judged(lines) == judged(local_six.lines)


def test_arena_on_the_cluster_equals_the_local_table(cluster, tmp_path):
    import argparse

    from quansu.cli import arena as cmd_arena

    def main(argv):
        p = argparse.ArgumentParser()
        cmd_arena.add_arguments(p)
        return cmd_arena.run(p.parse_args(argv), out=io.StringIO(), err=io.StringIO())

    runs = {}
    for where, extra in (("local", ["--workers", "1"]), ("ray", ["--ray", cluster.address])):
        path = tmp_path / f"{where}.json"
        records = tmp_path / f"{where}-records"
        assert (
            main(
                [
                    "--game",
                    "tan",
                    "--players",
                    "2",
                    "--bots",
                    "heuristic,sparring",
                    "--deals",
                    "4",
                    "--seed",
                    "3",
                    "--quiet",
                    "--json",
                    str(path),
                    "--records",
                    str(records),
                    *extra,
                ]
            )
            == 0
        )
        runs[where] = (json.loads(path.read_text()), records)
    (local, lrec), (ray, rrec) = runs["local"], runs["ray"]
    timing = ("ms_per_move",)
    assert [{k: v for k, v in s.items() if k not in timing} for s in ray["stats"]] == [
        {k: v for k, v in s.items() if k not in timing} for s in local["stats"]
    ]
    assert [(g["deal"], g["rotation"], g["payoffs"], g["moves"]) for g in ray["per_game"]] == [
        (g["deal"], g["rotation"], g["payoffs"], g["moves"]) for g in local["per_game"]
    ]
    assert "hook" not in ray["per_game"][0]
    # the records played on the cluster came back here, the same games
    names = sorted(p.name for p in lrec.iterdir())
    assert names == sorted(p.name for p in rrec.iterdir()) and len(names) == 4 * 2 + 1
    for n in names:
        assert json.loads((lrec / n).read_text()) == json.loads((rrec / n).read_text())


def test_strength_run_on_the_cluster_equals_the_local_run(cluster, tmp_path):
    from quansu.bench import strength
    from quansu.server import ray_cluster

    local = strength.paired("tan", "heuristic", "random", "sparring", deals=3, seed=2, players=2)
    assert (
        strength.main(
            [
                "--game",
                "tan",
                "--players",
                "2",
                "--a",
                "heuristic",
                "--b",
                "random",
                "--opponent",
                "sparring",
                "--deals",
                "3",
                "--seed",
                "2",
                "--ray",
                cluster.address,
                "--json",
                str(tmp_path / "s.json"),
            ]
        )
        == 0
    )
    ray = json.loads((tmp_path / "s.json").read_text())
    for key in (
        "a_payoff",
        "a_payoff_ci",
        "b_payoff",
        "b_payoff_ci",
        "a_minus_b",
        "a_minus_b_ci",
        "a_win",
        "b_win",
    ):
        assert ray[key] == local[key], key
    h2h = strength.head_to_head(
        "tan", ["heuristic", "sparring"], 2, seed=5, map_fn=ray_cluster.mapper(cluster.address)
    )
    here = strength.head_to_head("tan", ["heuristic", "sparring"], 2, seed=5)
    assert {s: b["payoff"] for s, b in h2h["bots"].items()} == {
        s: b["payoff"] for s, b in here["bots"].items()
    }


def test_analyze_decisions_on_the_cluster_equal_one_process(cluster):
    """Analyze's parallel path takes an executor (``quansu.server.analysis.judge_in_parallel``):
    with a ``RayExecutor`` the decisions of one game are judged as Ray tasks, with the answers
    of one process."""
    from quansu.server import convert, ray_cluster
    from quansu.server.analysis import RayExecutor
    from quansu.server.engine import build_engine
    from quansu.server.v1 import service_pb2 as pb

    obj = json.loads((EXAMPLES / "tan.record.json").read_text())
    req = pb.AnalyzeRequest(
        record=convert.record_message(obj), budget=pb.Budget(iterations=20), seed=7, max_worlds=16
    )
    eng = build_engine(uniform=True)
    here, there = [], []
    eng.analyze(req, here.append)
    ray_cluster.connect(cluster.address)
    eng.analyze(req, there.append, executor=RayExecutor())
    assert sum(1 for m in there if m.WhichOneof("item") == "decision") > 1
    assert [m.SerializeToString() for m in there] == [m.SerializeToString() for m in here]


def test_a_lost_node_loses_no_game_and_judges_none_twice(cluster, tmp_path, local_six):
    """The second node is killed (every process of it, at once) as soon as it has returned
    its first game: the games it held are run again on the head, every game is written exactly
    once, with the marks of the local run."""
    out = tmp_path / "kill.jsonl"
    victim = cluster.ids[1]
    after: list[dict] = []
    state = {"killed": False}

    def on_result(line):
        if state["killed"]:
            after.append(line)
        elif line["node"] == victim:
            cluster.kill(1)
            state["killed"] = True

    res = run_batch(six_items(), SETTINGS, out_path=str(out), executor="ray", on_result=on_result)
    assert state["killed"]
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 6 and len({x["key"] for x in lines}) == 6
    assert res.failed == 0 and judged(lines) == judged(local_six.lines)
    assert after and all(x["node"] == cluster.ids[0] for x in after)
    assert cluster.alive_nodes() == 1


def test_a_driver_joins_a_cluster_that_asks_for_the_machines_token(tmp_path):
    """With a token in ``~/.ray/auth_token`` (what a plain local ``ray.init()`` leaves behind),
    ``ray start`` asks for it; :func:`quansu.server.ray_cluster.connect` sends it, so the
    driver is not refused.  In a child process with its own home folder, so that neither this
    machine's token nor this process's Ray settings take part."""
    (tmp_path / ".ray").mkdir()
    (tmp_path / ".ray" / "auth_token").write_text("quansu-test-" + "0" * 52)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH")}
    env["HOME"] = str(tmp_path)
    code = (
        "from quansu.server import ray_cluster as rc\n"
        "with rc.LocalCluster((1,), object_store_mb=80) as c:\n"
        "    rc.connect(c.address)\n"
        "    print('cpus', rc.cluster_cpus(), flush=True)\n"
        "    rc.disconnect()\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0 and "cpus 1" in run.stdout, run.stderr[-2000:]
