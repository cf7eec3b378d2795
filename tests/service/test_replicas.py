"""The service as replicas (issue 41, point 4): ``quansu serve --replicas N``
(:mod:`server.replicas`) and the client that spreads its calls over them and sends a call
again after UNAVAILABLE (:class:`quansu.client.Client`).

Two real replicas (whole ``quansu serve`` processes, one worker each, the uniform evaluator)
on 127.0.0.1.  A replica is killed (SIGKILL, as a crash) while 20 concurrent Suggest calls are
spread over both: without retries exactly the calls in flight on it fail, with UNAVAILABLE, and
every other call answers as a lone call does; with the client's retries no call fails; the
replacement answers on the same port.  Bounded by work: each call a search of a few hundred
iterations, every wait a bounded number of polls (no assertion on wall time).
"""

from __future__ import annotations

import json
import os
import random
import socket
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from quansu.cli import serve as cmd_serve
from quansu.client import Client, TargetError, balanced_target, service_config, split_targets
from quansu.server.replicas import ReplicaError, Replicas, check_ports, child_argv, serve_parser
from tests.helpers.service import view_to_act

CALLS = 20
ITERATIONS = 300
SEED = 1
#: the flags of each replica: one worker, room for every call in its queue, a short drain
SERVE_ARGS = [
    "--workers",
    "1",
    "--queue",
    "32",
    "--uniform",
    "--log-level",
    "warning",
    "--drain",
    "2",
    "--drain-notice",
    "0",
]
POLL_S = 0.05


def _free_base(n: int) -> int:
    """A port P with P..P+n-1 free on 127.0.0.1 now."""
    rng = random.Random(os.getpid())
    for _ in range(200):
        base = rng.randrange(20000, 60000)
        socks = []
        try:
            for p in range(base, base + n):
                s = socket.socket()
                socks.append(s)
                s.bind(("127.0.0.1", p))
            return base
        except OSError:
            continue
        finally:
            for s in socks:
                s.close()
    raise AssertionError("no free ports")


def _scrape(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as r:
        text = r.read().decode()
    out: dict = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def _load(port: int) -> dict:
    """A replica's Suggest calls: ``in_flight`` (running or waiting for its worker), ``done``
    (ended, any status) and ``errors`` (ended with another status than OK)."""
    m = _scrape(port)

    def total(name):
        return sum(
            v for (n, labels), v in m.items() if n == name and dict(labels).get("rpc") == "Suggest"
        )

    return {
        "in_flight": int(
            m.get(("quansu_workers_busy", ()), 0) + m.get(("quansu_queue_depth", ()), 0)
        ),
        "done": int(total("quansu_requests_total")),
        "errors": int(total("quansu_errors_total")),
    }


def _comparable(resp):
    """An answer without its timings."""
    resp = type(resp).FromString(resp.SerializeToString())
    resp.ClearField("stats")
    return resp


@pytest.fixture(scope="module")
def view():
    return view_to_act("tienlen", 4, seed=3)


@pytest.fixture(scope="module")
def replicas():
    base = _free_base(4)
    sup = Replicas(
        2,
        SERVE_ARGS,
        host="127.0.0.1",
        port=0,
        metrics_port=base,
        http_port=base + 2,
        health_interval=5.0,
    )
    sup.start()
    stop = threading.Event()
    watcher = threading.Thread(target=sup.run, args=(stop,), daemon=True)
    watcher.start()
    try:
        yield sup
    finally:
        groups = [r.pid for r in sup.replicas]
        stop.set()
        watcher.join(60)
        # every replica and its workers gone: nothing left behind (exited workers are reaped
        # by init: a few polls)
        for pid in groups:
            for _ in range(200):
                try:
                    os.killpg(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(POLL_S)
            else:
                raise AssertionError(f"processes of replica group {pid} left behind")


@pytest.fixture(scope="module")
def reference(replicas, view):
    """The answer of a lone call (the same on every replica: same view, seed and budget)."""
    with Client(replicas.targets()[0], timeout=120) as c:
        return _comparable(c.suggest(view, iterations=ITERATIONS, seed=SEED))


def _wait_replaced(sup: Replicas, index: int, old_pid: int, view) -> int:
    """Polls until replica ``index`` is a new process that answers Suggest; returns them."""
    for polls in range(1, 2001):
        r = sup.replicas[index]
        if r.pid != old_pid and r.ready.is_set():
            try:
                with Client(sup.targets()[index], timeout=60) as c:
                    if c.suggest(view, iterations=10, seed=SEED).chosen.text:
                        return polls
            except grpc.RpcError:
                pass
        time.sleep(POLL_S)
    raise AssertionError(f"replica {index} not replaced")


def _kill_under_load(sup: Replicas, victim: int, client: Client, view):
    """20 concurrent Suggest calls through ``client``; once all are running or queued on the
    replicas and the victim has at least two, the victim's server is killed.  Returns (its
    calls in flight just before the kill, the outcomes: an answer or an RpcError)."""
    other = 1 - victim
    before = [_load(r.metrics_port)["done"] for r in sup.replicas]

    def call(_):
        try:
            return client.suggest(view, iterations=ITERATIONS, seed=SEED)
        except grpc.RpcError as e:
            return e

    with ThreadPoolExecutor(CALLS) as ex:
        futures = [ex.submit(call, i) for i in range(CALLS)]
        for _ in range(2000):
            # the other replica first: the victim's count is the last read before the kill
            # (every call is on a replica by then: its in-flight calls can only end)
            o = _load(sup.replicas[other].metrics_port)
            v = _load(sup.replicas[victim].metrics_port)
            placed = (
                o["in_flight"]
                + v["in_flight"]
                + o["done"]
                - before[other]
                + v["done"]
                - before[victim]
            )
            if placed == CALLS and v["in_flight"] >= 2:
                sup.kill(victim)
                break
            assert not all(f.done() for f in futures), "every call ended before the kill"
            time.sleep(POLL_S)
        else:
            raise AssertionError("the calls never spread over both replicas")
        return v["in_flight"], [f.result() for f in futures]


def test_replicas_answer_suggest_over_grpc_and_http(replicas, view, reference):
    tg = replicas.targets()
    assert len(set(replicas.ports)) == 2 and all(replicas.ports)
    before = [_load(r.metrics_port)["done"] for r in replicas.replicas]
    with Client(tg, timeout=120) as c:
        assert c.target == "ipv4:" + ",".join(tg)
        for polls in range(1, 41):  # round_robin: both serve once both are connected
            assert _comparable(c.suggest(view, iterations=ITERATIONS, seed=SEED)) == reference
            done = [_load(r.metrics_port)["done"] - b for r, b in zip(replicas.replicas, before)]
            if all(done):
                break
        assert all(done), done
        assert c.health() == "SERVING"
    # the same with one string, and each replica's own HTTP gateway
    with Client(",".join(tg), timeout=120) as c:
        assert _comparable(c.suggest(view, iterations=ITERATIONS, seed=SEED)) == reference
    for r in replicas.replicas:
        body = {"view": view, "budget": {"iterations": ITERATIONS}, "seed": SEED}
        req = urllib.request.Request(
            f"http://127.0.0.1:{r.http_port}/v1/suggest",
            data=json.dumps(body).encode(),
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=120) as resp:
            assert resp.status == 200
            assert json.loads(resp.read())["chosen"]["text"] == reference.chosen.text


def test_replica_killed_under_20_calls(replicas, view, reference):
    sup = replicas
    # -- without retries: only the calls in flight on the killed replica fail ---------------
    victim, other = 0, 1
    old_pid = sup.replicas[victim].pid
    errors_other = _load(sup.replicas[other].metrics_port)["errors"]
    with Client(sup.targets(), timeout=120) as c:
        in_flight, outcomes = _kill_under_load(sup, victim, c, view)
    failed = [o for o in outcomes if isinstance(o, grpc.RpcError)]
    answered = [o for o in outcomes if not isinstance(o, grpc.RpcError)]
    assert 1 <= len(failed) <= in_flight, (len(failed), in_flight)
    assert {e.code() for e in failed} == {grpc.StatusCode.UNAVAILABLE}
    assert all(_comparable(a) == reference for a in answered)
    # the other replica failed no call: every call it had was answered
    assert _load(sup.replicas[other].metrics_port)["errors"] == errors_other
    # the replacement serves on the same port
    polls = _wait_replaced(sup, victim, old_pid, view)
    print(
        f"replica {victim} replaced after {polls} polls; {len(failed)} of {in_flight} calls "
        f"in flight on it failed"
    )
    assert sup.replicas[victim].starts == 2

    # -- with the client's retries: the calls in flight are sent again, to the other ---------
    victim, other = 1, 0
    old_pid = sup.replicas[victim].pid
    with Client(sup.targets(), timeout=120, retries=4) as c:
        in_flight, outcomes = _kill_under_load(sup, victim, c, view)
    assert in_flight >= 2
    assert not [o for o in outcomes if isinstance(o, grpc.RpcError)]
    assert all(_comparable(a) == reference for a in outcomes)  # the same answer on a retry
    _wait_replaced(sup, victim, old_pid, view)
    assert sup.restarts == 2


# -- settings ---------------------------------------------------------------------------------


def test_targets_and_service_config():
    assert split_targets("a:1, b:2") == ["a:1", "b:2"]
    assert split_targets(["localhost", "127.0.0.1:7"]) == ["localhost:50051", "127.0.0.1:7"]
    assert split_targets("dns:///quansu:50051") == ["dns:///quansu:50051"]
    for bad in ([], "a:1,", ["dns:///x:1", "a:2"]):
        with pytest.raises(TargetError):
            split_targets(bad)
    assert balanced_target(["127.0.0.1:5", "127.0.0.1:6"]) == "ipv4:127.0.0.1:5,127.0.0.1:6"
    assert service_config(0, balanced=False) == {}
    cfg = service_config(9, balanced=True)
    assert cfg["loadBalancingConfig"] == [{"round_robin": {}}]
    policy = cfg["methodConfig"][0]["retryPolicy"]
    assert policy["maxAttempts"] == 5 and policy["retryableStatusCodes"] == ["UNAVAILABLE"]
    assert service_config(1, balanced=False)["methodConfig"][0]["retryPolicy"]["maxAttempts"] == 2
    with Client("127.0.0.1:1,127.0.0.1:2") as c:
        assert c.target == "ipv4:127.0.0.1:1,127.0.0.1:2" and c.targets == [
            "127.0.0.1:1",
            "127.0.0.1:2",
        ]
    with Client("127.0.0.1:1") as c:
        assert c.target == "127.0.0.1:1"


def test_replica_flags(capsys):
    p = serve_parser()
    args = p.parse_args(
        [
            "--replicas",
            "3",
            "--port",
            "7000",
            "--workers",
            "2",
            "--uniform",
            "--model",
            "tan=a.onnx",
            "--model",
            "phom=b.onnx",
            "--token",
            "s",
            "--http-port",
            "8000",
        ]
    )
    assert child_argv(args, p) == [
        "--workers",
        "2",
        "--model",
        "tan=a.onnx",
        "--model",
        "phom=b.onnx",
        "--uniform",
    ]
    sup = Replicas(3, [], host="0.0.0.0", port=7000, http_port=8000, token="s")
    assert sup.targets() == ["127.0.0.1:7000", "127.0.0.1:7001", "127.0.0.1:7002"]
    assert [r.http_port for r in sup.replicas] == [8000, 8001, 8002]
    assert sup.env["QUANSU_TOKEN"] == "s"
    assert sup.health_interval > 0
    # over TLS the supervisor watches the processes only (it has no CA for the certificate)
    assert Replicas(2, ["--tls-cert", "c.pem", "--tls-key", "k.pem"]).health_interval == 0
    for n, kw, words in (
        (0, {}, "at least 1"),
        (2, {"http_port": 0}, "first port"),
        (3, {"port": 65534}, "above 65535"),
    ):
        with pytest.raises(ReplicaError, match=words):
            check_ports(n, kw.get("port", 0), kw.get("http_port"), None)
    for argv, words in (
        (["--replicas", "0"], "--replicas must be at least 1"),
        (["--replicas", "2", "--metrics-port", "0"], "--metrics-port 0"),
        (["--replicas", "2", "--max-ms", "0"], "max-ms"),
    ):
        assert cmd_serve.run(p.parse_args(argv)) == 2
        assert words in capsys.readouterr().err


def test_a_replica_that_cannot_start_stops_the_service(tmp_path):
    sup = Replicas(
        2,
        ["--workers", "1", "--model", f"tienlen={tmp_path / 'missing.onnx'}"],
        port=0,
        start_timeout=600,
    )
    with pytest.raises(RuntimeError, match="did not start"):
        sup.start()
    for r in sup.replicas:
        assert r.proc.poll() is not None
