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

from tests.helpers.service import TLS_DIR, client, running_server, view_to_act

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def one_worker():
    """One worker and no queue: a second concurrent search is refused."""
    with running_server(workers=1, queue_size=0) as (server, tgt):
        yield tgt


def _wait_busy(server, busy=1, what="the worker to take the call"):
    """Wait until ``busy`` workers of ``server``'s pool run a job: an event, never a guess of
    how long a call takes to reach a worker on a loaded machine."""
    end = time.monotonic() + 120
    while server.pool.stats().busy != busy:
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.02)


def _first_partial(call):
    """The first partial ranking of a SuggestStream: its search is running in a worker."""
    first = next(call)
    assert not first.final
    return first


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
        # a long search holds the only worker (its first partial ranking says it runs there);
        # every check below happens while it is still running, whatever the machine's load
        search = c.suggest_stream(view, milliseconds=60_000, iterations=50_000, interval_ms=50)
        _first_partial(search)
        assert c.health() == "SERVING"  # answered while the only worker searches
        assert c.describe_games().games  # answered in the server process meanwhile
        # LegalMoves replays in the workers, through the same admission as the searches
        for call in (lambda: c.suggest(view, iterations=10), lambda: c.legal_moves(view)):
            with pytest.raises(grpc.RpcError) as ei:
                call()
            assert ei.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert not next(search).final  # the search was running all along
        search.cancel()
        _wait_free(c, view)


def _wait_free(c, view):
    """Call until the only worker takes a call again (it was freed by a cancel), with a bound
    far above the pool's grace period."""
    end = time.monotonic() + 120
    while True:
        try:
            resp = c.suggest(view, iterations=20)
            break
        except grpc.RpcError as e:
            assert e.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert time.monotonic() < end, "the cancelled search kept its worker"
            time.sleep(0.05)
    assert resp.stats.iterations == 20


def test_a_time_budget_stops_the_search(one_worker):
    view = view_to_act("tienlen", 4, seed=1)
    with client(one_worker) as c:
        resp = c.suggest(view, milliseconds=300, iterations=50_000)
        assert resp.stats.stopped_by == "time" and 0 < resp.stats.iterations < 50_000


def test_cancelled_stream_frees_its_worker(one_worker):
    view = view_to_act("tienlen", 4, seed=2)
    with client(one_worker) as c:
        call = c.suggest_stream(view, milliseconds=60_000, iterations=50_000, interval_ms=50)
        _first_partial(call)
        call.cancel()
        with pytest.raises(grpc.RpcError) as ei:
            for _ in call:
                pass
        assert ei.value.code() == grpc.StatusCode.CANCELLED
        # the worker stops (within its grace period) and takes the next call: without the
        # cancel it would search for a minute
        _wait_free(c, view)


def test_analyze_shares_the_deadline_among_decisions(one_worker):
    from tests.helpers.service import long_record

    obj = long_record("tienlen", 4, min_moves=20, seed=3)
    seat = obj["moves"][0]["seat"]
    n = sum(1 for m in obj["moves"] if m["seat"] == seat)
    with client(one_worker) as c:
        # 50,000 iterations a decision would take minutes; the call's 10 s deadline is shared
        # among the decisions, and every one is still answered before it (a call past its
        # deadline fails with DEADLINE_EXCEEDED)
        msgs = list(c.analyze(obj, seats=[seat], iterations=50_000, max_worlds=64, timeout=10))
        assert sum(1 for m in msgs if m.WhichOneof("item") == "decision") == n
        assert msgs[-1].WhichOneof("item") == "summary"


def test_deadline_passing_in_the_queue_is_deadline_exceeded():
    view = view_to_act("tienlen", 4, seed=3)
    with running_server(workers=1, queue_size=2) as (server, tgt), client(tgt) as c:
        t, box = _in_thread(lambda: c.suggest(view, milliseconds=3000, iterations=50_000))
        _wait_busy(server)
        with pytest.raises(grpc.RpcError) as ei:
            c.suggest(view, iterations=5, timeout=0.3)
        assert ei.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        t.join(120)
        assert box["value"].stats.stopped_by == "time"
        # a queued call with time to spare runs once the worker is free
        t, box = _in_thread(lambda: c.suggest(view, milliseconds=500, iterations=50_000))
        _wait_busy(server)
        assert c.suggest(view, iterations=7, timeout=120).stats.iterations == 7
        t.join(120)


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
    with running_server(
        workers=1, tls_cert=str(TLS_DIR / "server.crt"), tls_key=str(TLS_DIR / "server.key")
    ) as (_server, tgt):
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
        [
            sys.executable,
            "-m",
            "quansu.cli.serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--workers",
            "1",
            "--uniform",
            "--drain",
            "10",
            "--log-level",
            "WARNING",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert "serving on" in line, line + proc.stderr.read()
        port = int(line.split(":")[1].split()[0])
        view = view_to_act("tienlen", 4, seed=6)
        with client(f"127.0.0.1:{port}") as c:
            # the call is in flight (its first partial ranking came back) when SIGTERM comes
            call = c.suggest_stream(view, milliseconds=2000, iterations=50_000, interval_ms=50)
            _first_partial(call)
            proc.send_signal(signal.SIGTERM)
            *_, last = call  # drained: the call ends normally
            assert last.final and last.stats.stopped_by == "time"
        assert proc.wait(timeout=120) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_dead_worker_is_replaced():
    view = view_to_act("tienlen", 4, seed=7)
    with running_server(workers=1, queue_size=1) as (server, tgt), client(tgt) as c:
        pid = server.pool._workers[0].proc.pid
        t, box = _in_thread(lambda: c.suggest(view, milliseconds=60_000, iterations=50_000))
        _wait_busy(server)
        os.kill(pid, signal.SIGKILL)
        t.join(120)
        assert box["error"].code() == grpc.StatusCode.UNAVAILABLE
        resp = c.suggest(view, iterations=9)
        assert resp.stats.iterations == 9
        assert server.pool._workers[0].proc.pid != pid
        assert server.pool.stats().restarts == 1
