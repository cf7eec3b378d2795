"""Server-guided retry delays (retry pushback, issue 21).

The pool's delay (service time x (calls waiting + 1) / workers, clamped to [0.05 s, 10 s]) on a
real pool of stand-in workers; a refusal over gRPC (the ``grpc-retry-pushback-ms`` trailer and a
``google.rpc.RetryInfo`` detail that agree) and over HTTP (429 with ``Retry-After`` and
``retry_after_ms``) from a real server with one worker and no queue, held busy by a search;
``Client(retries=N)`` waiting the server's delay and succeeding once the worker is free, and
``retries=0`` raising :class:`quansu.client.ServerBusy` with the delay.  No assertion depends on
how fast the machine is: every refusal is made while the only worker is known to be busy (the
pool says so), and every hold lasts seconds longer than the retries need to start.
"""

from __future__ import annotations

import json
import math
import random
import threading

import grpc
import pytest
from google.rpc import code_pb2, error_details_pb2
from grpc_status import rpc_status

from quansu.client import Client, ServerBusy
from quansu.server import errors, gateway
from quansu.server.pool import RETRY_MAX_S, RETRY_MIN_S, SERVICE_TIME_INITIAL_S, drain_delay
from tests.helpers.service import client, running_server, view_to_act
from tests.service.test_http_gateway import post
from tests.service.test_service_hardening import _pool, _run, _wait_for

# -- the pool's delay --------------------------------------------------------------------------


def test_drain_delay_grows_with_the_queue_and_stays_within_the_clamp():
    delays = [drain_delay(0.3, waiting, 2) for waiting in range(12)]
    assert delays == sorted(delays) and len(set(delays)) == len(delays)
    assert delays[0] == pytest.approx(0.15) and delays[7] == pytest.approx(1.2)
    assert drain_delay(0.3, 7, 4) == pytest.approx(drain_delay(0.3, 7, 2) / 2)
    assert drain_delay(0.0, 0, 8) == RETRY_MIN_S
    assert drain_delay(0.001, 3, 2) == RETRY_MIN_S
    assert drain_delay(120.0, 8, 2) == RETRY_MAX_S
    assert drain_delay(5.0, 1, 1) == RETRY_MAX_S


def test_refusal_pressure_stretches_the_delay():
    assert drain_delay(0.3, 1, 2, pressure=4.0) == pytest.approx(4 * drain_delay(0.3, 1, 2))
    assert drain_delay(0.3, 1, 2, pressure=0.2) == drain_delay(0.3, 1, 2)  # at least 1
    assert drain_delay(0.3, 1, 2, pressure=1e9) == RETRY_MAX_S
    pool = _pool(workers=1, spares=0, queue_size=0)

    def hold():
        try:
            _run(pool, "60")
        except (errors.ServiceError, OSError):
            pass  # the pool closed under the held call: the test is over

    t = threading.Thread(target=hold)
    try:
        t.start()
        _wait_for(lambda: pool.stats().busy == 1, what="the worker busy")
        base = pool.retry_delay()  # one admission, no refusal yet
        assert base == pytest.approx(drain_delay(SERVICE_TIME_INITIAL_S, 0, 1))
        delays = []
        for _ in range(6):
            with pytest.raises(errors.Busy) as ei:
                _run(pool, "0")
            delays.append(ei.value.retry_after_s)
        # refusals per admitted call grow (decayed over 10 s: a little under 1, 2, ... 6)
        assert delays == sorted(delays) and delays[-1] > 4 * base
        assert delays[0] == pytest.approx(base, rel=0.01)
    finally:
        pool.close()
        t.join(30)


def _quiet_run(pool, seconds: str) -> None:
    try:
        _run(pool, seconds)
    except errors.ServiceError:
        pass  # the pool closed under the call: the test is over


def test_a_refusal_carries_the_queues_drain_time():
    pool = _pool(workers=1, spares=0, queue_size=3)
    threads = []
    try:
        assert pool.stats().service_time_s == SERVICE_TIME_INITIAL_S
        seen = [pool.retry_delay()]
        # one call holds the worker, three wait: the delay grows with every waiting call
        for waiting in range(4):
            t = threading.Thread(target=_quiet_run, args=(pool, "60" if waiting == 0 else "0"))
            t.start()
            threads.append(t)
            _wait_for(
                lambda: pool.stats().busy == 1 and pool.stats().waiting == waiting,
                what=f"{waiting} calls waiting",
            )
            seen.append(pool.retry_delay())
        with pytest.raises(errors.Busy) as ei:
            _run(pool, "0")
        delay = ei.value.retry_after_s
        assert delay == pytest.approx(drain_delay(SERVICE_TIME_INITIAL_S, 3, 1))
        assert RETRY_MIN_S <= delay <= RETRY_MAX_S
        assert seen[1:] == [pytest.approx(SERVICE_TIME_INITIAL_S * k) for k in (1, 2, 3, 4)]
        assert delay == pytest.approx(seen[-1])
        # the status the servicer answers with says the same, in whole milliseconds
        status = errors.to_rpc_status(ei.value)
        assert status.code == code_pb2.RESOURCE_EXHAUSTED
        assert errors.retry_delay_s(status) * 1000 == errors.retry_delay_ms(delay)
    finally:
        pool.close()  # cancels the held call
        for t in threads:
            t.join(30)


def test_the_service_time_follows_finished_calls():
    pool = _pool(workers=1, spares=0, queue_size=1)
    try:
        assert _run(pool, "0.5") == [b"slept"]  # a call of at least 0.5 s
        assert pool.stats().service_time_s > SERVICE_TIME_INITIAL_S
        for _ in range(200):  # many instant calls pull it down
            pool._observe(0.0)
        assert pool.stats().service_time_s < 0.001
        assert pool.retry_delay() == RETRY_MIN_S
        for _ in range(200):
            pool._observe(600.0)
        assert pool.retry_delay() == RETRY_MAX_S
    finally:
        pool.close()


# -- statuses --------------------------------------------------------------------------------


def test_busy_status_details_and_trailer_agree():
    status = errors.to_rpc_status(errors.Busy("all busy", retry_after_s=0.1234))
    assert status.code == code_pb2.RESOURCE_EXHAUSTED and status.message == "all busy"
    assert errors.retry_delay_s(status) == pytest.approx(0.124)  # rounded up to whole ms
    out = errors.to_grpc_status(status)
    assert out.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    trailer = dict(out.trailing_metadata)
    assert trailer[errors.RETRY_PUSHBACK_KEY] == "124"
    assert trailer[errors.DETAILS_KEY] == status.SerializeToString()
    # a refusal without advice (the gateway's own, over a pool that gives none) carries neither
    bare = errors.to_rpc_status(errors.Busy("all busy"))
    assert errors.retry_delay_s(bare) is None and not bare.details
    assert errors.RETRY_PUSHBACK_KEY not in dict(errors.to_grpc_status(bare).trailing_metadata)
    # other statuses are as before
    bad = errors.to_rpc_status(errors.RequestError.of("top_k", "request.negative", value=-1))
    assert bad.code == code_pb2.INVALID_ARGUMENT and errors.retry_delay_s(bad) is None


def test_gateway_retry_after_is_the_delay_rounded_up_to_seconds():
    for delay, header in (
        (0.05, "1"),
        (0.999, "1"),
        (1.0, "1"),
        (1.0004, "2"),
        (2.3, "3"),
        (10.0, "10"),
    ):
        resp = gateway.error_response(errors.to_rpc_status(errors.Busy("x", retry_after_s=delay)))
        assert resp.status_code == 429
        assert resp.headers["retry-after"] == header, delay
        body = json.loads(resp.body)["error"]
        assert body["retry_after_ms"] == errors.retry_delay_ms(delay)
    resp = gateway.error_response(errors.to_rpc_status(errors.Busy("x")))
    assert resp.headers["retry-after"] == "1" and "retry_after_ms" not in json.loads(resp.body)


# -- a real server: one worker, no queue --------------------------------------------------------


@pytest.fixture(scope="module")
def busy_server():
    with running_server(workers=1, queue_size=0, spare_workers=0, http_port=0) as (server, tgt):
        yield server, tgt


class _Hold:
    """A streamed search that keeps the only worker busy until :meth:`release` (at the latest
    when the block ends): no refusal in the tests depends on how long anything takes."""

    def __init__(self, server, target: str, seed: int = 1):
        self.server = server
        self.client = client(target)
        self.messages = 0
        view = view_to_act("tienlen", 4, seed=seed)
        self.call = self.client.suggest_stream(
            view, milliseconds=50_000, iterations=50_000, interval_ms=200
        )

        def run():
            try:
                for _ in self.call:
                    self.messages += 1
            except grpc.RpcError:
                pass  # CANCELLED by release()

        self.thread = threading.Thread(target=run)

    def __enter__(self):
        self.thread.start()
        _wait_for(lambda: self.server.pool.stats().busy == 1, what="the search to hold the worker")
        return self

    def release(self) -> None:
        self.call.cancel()
        self.thread.join(60)

    def __exit__(self, *exc):
        self.release()
        self.client.close()
        # the cancelled search's worker is taken back before the next test holds it
        _wait_for(lambda: self.server.pool.stats().busy == 0, what="the worker to be free")


def test_a_grpc_refusal_carries_the_pushback_trailer_and_retry_info(busy_server):
    server, tgt = busy_server
    view = view_to_act("tienlen", 4, seed=2)
    with _Hold(server, tgt), client(tgt) as c:
        with pytest.raises(grpc.RpcError) as ei:
            c.stub.Suggest(c.suggest_request(view, iterations=5), timeout=30)
        err = ei.value
        assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        trailer = dict(err.trailing_metadata())
        ms = int(trailer["grpc-retry-pushback-ms"])
        status = rpc_status.from_call(err)
        infos = []
        for d in status.details:
            if d.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
                info = error_details_pb2.RetryInfo()
                d.Unpack(info)
                infos.append(info)
        assert len(infos) == 1
        delay = infos[0].retry_delay
        assert delay.seconds * 1000 + delay.nanos / 1e6 == ms
        assert RETRY_MIN_S * 1000 <= ms <= RETRY_MAX_S * 1000
        assert errors.retry_after_s(err) == ms / 1000
        # no call is waiting: the delay is one service time of the only worker
        assert ms == errors.retry_delay_ms(drain_delay(server.pool.stats().service_time_s, 0, 1))
        # the client without retries raises at once, with the server's delay
        with pytest.raises(ServerBusy) as ei:
            c.suggest(view, iterations=5)
        assert ei.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        # (the refusal pressure may have stretched it since: refusals per admitted call)
        assert ei.value.attempts == 1 and ei.value.retry_after_s >= ms / 1000 - 1e-9
        assert isinstance(ei.value, grpc.RpcError)
        with pytest.raises(ServerBusy) as ei:
            c.legal_moves(view)
        assert ei.value.retry_after_s is not None
        with pytest.raises(ServerBusy) as ei:
            list(c.suggest_stream(view, iterations=5))
        assert ei.value.retry_after_s is not None and ei.value.attempts == 1


def test_a_gateway_refusal_is_429_with_retry_after(busy_server):
    server, tgt = busy_server
    view = view_to_act("tienlen", 4, seed=3)
    with _Hold(server, tgt):
        status, headers, raw = post(server.http_port, "/v1/suggest", {"view": view}, token=None)
        assert status == 429
        err = json.loads(raw)["error"]
        assert err["status"] == "RESOURCE_EXHAUSTED"
        ms = err["retry_after_ms"]
        assert isinstance(ms, int) and RETRY_MIN_S * 1000 <= ms <= RETRY_MAX_S * 1000
        assert int(headers["retry-after"]) == max(1, math.ceil(ms / 1000)) >= 1
        assert [d["@type"] for d in err["details"]] == ["type.googleapis.com/google.rpc.RetryInfo"]


def _retrying_call(server, tgt, fn, seed: int):
    """Run ``fn(client)`` with ``Client(retries=...)`` while a search holds the only worker,
    free the worker once the client has been refused twice, and return ``(fn's result, the
    waits (server delay, wait))``."""
    waits: list[tuple[float | None, float]] = []
    refused = threading.Semaphore(0)
    box: dict = {}
    with Client(tgt, timeout=120, retries=10_000, retry_rng=random.Random(seed)) as c:
        plain = c.retry_wait

        def recorded(after, attempt):
            w = plain(after, attempt)
            waits.append((after, w))
            refused.release()
            return w

        c.retry_wait = recorded

        def run():
            try:
                box["value"] = fn(c)
            except Exception as e:  # checked below
                box["error"] = e

        with _Hold(server, tgt, seed=seed) as hold:
            t = threading.Thread(target=run)
            t.start()
            for _ in range(2):
                assert refused.acquire(timeout=60), "the client was not refused while busy"
            hold.release()
            t.join(120)
    assert "value" in box, box.get("error")
    return box["value"], waits


def test_client_retries_until_the_worker_is_free(busy_server):
    server, tgt = busy_server
    view = view_to_act("tienlen", 4, seed=4)
    answer, waits = _retrying_call(server, tgt, lambda c: c.suggest(view, iterations=7), 7)
    assert answer.stats.iterations == 7
    assert len(waits) >= 2
    for after, w in waits:
        assert after is not None and RETRY_MIN_S <= after <= RETRY_MAX_S
        assert 0.5 * after <= w <= 1.5 * after
    # a stream is retried the same way before its first message
    msgs, waits = _retrying_call(
        server, tgt, lambda c: list(c.suggest_stream(view, iterations=7, interval_ms=10)), 8
    )
    assert msgs[-1].final and msgs[-1].stats.iterations == 7
    assert len(waits) >= 2 and all(after is not None for after, _ in waits)


def test_client_retry_wait_is_jittered_and_reproducible():
    with (
        Client("127.0.0.1:1", retries=3, retry_rng=11) as a,
        Client("127.0.0.1:1", retries=3, retry_rng=random.Random(11)) as b,
    ):
        wa = [a.retry_wait(0.4, k) for k in range(50)]
        wb = [b.retry_wait(0.4, k) for k in range(50)]
        assert wa == wb
        assert all(0.2 <= w <= 0.6 for w in wa) and len(set(wa)) == 50
        # no server delay: a doubling fallback
        assert 0.05 <= a.retry_wait(None, 0) <= 0.15
        assert 0.4 <= a.retry_wait(None, 3) <= 1.2
    with pytest.raises(ValueError):
        Client("127.0.0.1:1", retries=-1)
