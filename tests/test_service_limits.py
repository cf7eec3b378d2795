"""Serving behaviour: a full queue, cancellation freeing the worker, health during searches,
TLS, the token, and SIGTERM draining a real ``quansu serve`` process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import pytest

from tests.test_service_util import TLS_DIR, client, running_server, view_to_act

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def one_worker():
    """One worker and no queue: a second concurrent search is refused."""
    with running_server(workers=1, queue_size=0) as (_server, tgt):
        yield tgt


def _in_thread(fn):
    box: dict = {}

    def run():
        try:
            box["value"] = fn()
        except Exception as e:  # checked by the caller
            box["error"] = e

    t = threading.Thread(target=run)
    t.start()
    return t, box


def test_full_queue_is_resource_exhausted_and_health_answers(one_worker):
    view = view_to_act("tienlen", 4, seed=1)
    with client(one_worker) as c:
        t, box = _in_thread(lambda: c.suggest(view, milliseconds=1500, iterations=50_000))
        time.sleep(0.4)
        t0 = time.monotonic()
        assert c.health() == "SERVING"          # answered while the only worker searches
        assert time.monotonic() - t0 < 0.5
        assert c.describe_games().games          # answered in the server process meanwhile
        # LegalMoves replays in the workers, through the same admission as the searches
        for call in (lambda: c.suggest(view, iterations=10), lambda: c.legal_moves(view)):
            with pytest.raises(grpc.RpcError) as ei:
                call()
            assert ei.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        t.join(30)
        assert box["value"].stats.stopped_by == "time"
        assert c.suggest(view, iterations=10).stats.iterations == 10


def test_cancelled_stream_frees_its_worker(one_worker):
    view = view_to_act("tienlen", 4, seed=2)
    with client(one_worker) as c:
        call = c.suggest_stream(view, milliseconds=20_000, iterations=50_000, interval_ms=50)
        first = next(call)
        assert not first.final
        call.cancel()
        with pytest.raises(grpc.RpcError) as ei:
            for _ in call:
                pass
        assert ei.value.code() == grpc.StatusCode.CANCELLED
        # the worker stops within its grace period and takes the next call
        deadline = time.monotonic() + 5
        while True:
            try:
                resp = c.suggest(view, iterations=20)
                break
            except grpc.RpcError as e:
                assert e.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert time.monotonic() < deadline, "the cancelled search kept its worker"
                time.sleep(0.05)
        assert resp.stats.iterations == 20


def test_analyze_shares_the_deadline_among_decisions(one_worker):
    from tests.test_service_util import long_record

    obj = long_record("tienlen", 4, min_moves=20, seed=3)
    seat = obj["moves"][0]["seat"]
    n = sum(1 for m in obj["moves"] if m["seat"] == seat)
    with client(one_worker) as c:
        t0 = time.monotonic()
        msgs = list(c.analyze(obj, seats=[seat], iterations=50_000, timeout=1.5))
        assert time.monotonic() - t0 < 2.5
        assert sum(1 for m in msgs if m.WhichOneof("item") == "decision") == n
        assert msgs[-1].WhichOneof("item") == "summary"


def test_deadline_passing_in_the_queue_is_deadline_exceeded():
    view = view_to_act("tienlen", 4, seed=3)
    with running_server(workers=1, queue_size=2) as (_server, tgt), client(tgt) as c:
        t, box = _in_thread(lambda: c.suggest(view, milliseconds=1000, iterations=50_000))
        time.sleep(0.3)
        t0 = time.monotonic()
        with pytest.raises(grpc.RpcError) as ei:
            c.suggest(view, iterations=5, timeout=0.3)
        assert ei.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert time.monotonic() - t0 < 1.0
        t.join(30)
        assert box["value"].stats.stopped_by == "time"
        # a queued call with time to spare runs once the worker is free
        t, box = _in_thread(lambda: c.suggest(view, milliseconds=500, iterations=50_000))
        time.sleep(0.2)
        assert c.suggest(view, iterations=7, timeout=10).stats.iterations == 7
        t.join(30)


def obj_view():
    return view_to_act("tienlen", 4, seed=3)


def test_token_is_required_except_for_health():
    view = view_to_act("tienlen", 4, seed=4)
    with running_server(workers=1, token="s3cret") as (_server, tgt):
        with client(tgt) as c:
            assert c.health() == "SERVING"
            with pytest.raises(grpc.RpcError) as ei:
                c.legal_moves(view)
            assert ei.value.code() == grpc.StatusCode.UNAUTHENTICATED
            assert "authorization" in ei.value.details()
            with pytest.raises(grpc.RpcError) as ei:
                list(c.analyze(view, iterations=5))
            assert ei.value.code() == grpc.StatusCode.UNAUTHENTICATED
        with client(tgt, token="wrong") as c:
            with pytest.raises(grpc.RpcError) as ei:
                c.suggest(view, iterations=5)
            assert ei.value.code() == grpc.StatusCode.UNAUTHENTICATED
        with client(tgt, token="s3cret") as c:
            assert c.suggest(view, iterations=5).stats.iterations == 5
            assert c.describe_games().games


def test_tls():
    view = view_to_act("tienlen", 4, seed=5)
    with running_server(workers=1, tls_cert=str(TLS_DIR / "server.crt"),
                        tls_key=str(TLS_DIR / "server.key")) as (_server, tgt):
        port = tgt.rsplit(":", 1)[1]
        with client(f"localhost:{port}", tls_ca=str(TLS_DIR / "server.crt")) as c:
            assert c.health() == "SERVING"
            assert c.suggest(view, iterations=5).stats.iterations == 5
        with client(tgt, timeout=3) as plain:
            with pytest.raises(grpc.RpcError) as ei:
                plain.describe_games()
            assert ei.value.code() == grpc.StatusCode.UNAVAILABLE


def test_sigterm_drains_in_flight_calls_and_exits_cleanly():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "quansu.server.cmd_serve", "--host", "127.0.0.1", "--port", "0",
         "--workers", "1", "--uniform", "--drain", "10", "--log-level", "WARNING"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "serving on" in line, line + proc.stderr.read()
        port = int(line.split(":")[1].split()[0])
        view = view_to_act("tienlen", 4, seed=6)
        with client(f"127.0.0.1:{port}") as c:
            t, box = _in_thread(lambda: c.suggest(view, milliseconds=1200, iterations=50_000))
            time.sleep(0.4)
            proc.send_signal(signal.SIGTERM)
            t.join(30)
            assert "error" not in box, box.get("error")
            assert box["value"].stats.stopped_by == "time"
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_dead_worker_is_replaced():
    view = view_to_act("tienlen", 4, seed=7)
    with running_server(workers=1, queue_size=1) as (server, tgt), client(tgt) as c:
        pid = server.pool._workers[0].proc.pid
        t, box = _in_thread(lambda: c.suggest(view, milliseconds=3000, iterations=50_000))
        time.sleep(0.4)
        os.kill(pid, signal.SIGKILL)
        t.join(30)
        assert box["error"].code() == grpc.StatusCode.UNAVAILABLE
        resp = c.suggest(view, iterations=9)
        assert resp.stats.iterations == 9
        assert server.pool._workers[0].proc.pid != pid
        assert server.pool.stats().restarts == 1
