"""Hardening of the service (issue 21): raw request bytes on every method, cheap checks before
admission in a fixed order, option ranges and finite answers, clipped error texts, and a pool
that heals itself (dead idle and busy workers, hung workers, health while no worker lives).

Speed is never asserted here (bench/soak.py and bench/grpc_leak.py measure it); the waits
below are generous bounds on a loaded machine, not measurements.
"""

from __future__ import annotations

import copy
import json
import math
import os
import signal
import threading
import time

import grpc
import pytest

GARBAGE = b"\xff" * 8

#: Every method of the server with (path, streaming request, streaming response).
METHODS = (
    ("/quansu.v1.QuansuService/Suggest", False, False),
    ("/quansu.v1.QuansuService/SuggestStream", False, True),
    ("/quansu.v1.QuansuService/Analyze", False, True),
    ("/quansu.v1.QuansuService/LegalMoves", False, False),
    ("/quansu.v1.QuansuService/DescribeGames", False, False),
    ("/grpc.health.v1.Health/Check", False, False),
    ("/grpc.health.v1.Health/Watch", False, True),
    ("/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo", True, True),
)


def raw_call(
    channel: grpc.Channel,
    method: str,
    body: bytes,
    *,
    req_stream=False,
    resp_stream=False,
    timeout: float = 30.0,
    metadata=None,
):
    """Send ``body`` as is; returns the response bytes (a list for streams)."""
    if req_stream:
        return list(channel.stream_stream(method)(iter([body]), timeout=timeout, metadata=metadata))
    if resp_stream:
        return list(channel.unary_stream(method)(body, timeout=timeout, metadata=metadata))
    return channel.unary_unary(method)(body, timeout=timeout, metadata=metadata)


def code_of(fn) -> grpc.StatusCode:
    try:
        fn()
    except grpc.RpcError as e:
        return e.code()
    return grpc.StatusCode.OK


def violations(fn) -> list[tuple[str, str]]:
    from quansu.server.errors import field_violations

    with pytest.raises(grpc.RpcError) as ei:
        fn()
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT, ei.value.details()
    return field_violations(ei.value)


@pytest.fixture(scope="module")
def server():
    from tests.helpers.service import running_server

    with running_server(workers=1) as (srv, tgt):
        yield srv, tgt


@pytest.fixture(scope="module")
def target(server):
    return server[1]


@pytest.fixture(scope="module")
def channel(target):
    with grpc.insecure_channel(target) as ch:
        yield ch


# -- raw bytes ------------------------------------------------------------------------------------


@pytest.mark.parametrize("method,req_stream,resp_stream", METHODS, ids=[m[0] for m in METHODS])
def test_a_body_that_does_not_parse_is_invalid_argument_on_every_method(
    channel, method, req_stream, resp_stream
):
    from quansu.server.errors import field_violations

    with pytest.raises(grpc.RpcError) as ei:
        raw_call(channel, method, GARBAGE, req_stream=req_stream, resp_stream=resp_stream)
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT, ei.value.details()
    ((field, message),) = field_violations(ei.value)
    assert field == "request" and "not a valid" in message


def test_garbage_bodies_leave_no_lasting_memory(channel):
    """grpc-python's own deserializer keeps ~16 KB per bad body (bench/grpc_leak.py); parsed in
    the handler, 3,000 of them must not grow this (server) process by anything like 48 MB."""
    from quansu.bench.grpc_leak import rss_mb

    def burst(n):
        for i in range(n):
            method, req_stream, resp_stream = METHODS[i % len(METHODS)]
            code = code_of(
                lambda: raw_call(
                    channel, method, GARBAGE, req_stream=req_stream, resp_stream=resp_stream
                )
            )
            assert code == grpc.StatusCode.INVALID_ARGUMENT

    burst(300)
    before = rss_mb(os.getpid())
    burst(3000)
    grown = rss_mb(os.getpid()) - before
    assert grown < 20, f"{grown:.1f} MB after 3,000 bad bodies"


def test_the_token_is_checked_before_the_body_is_parsed():
    from quansu.server import errors
    from tests.helpers.service import running_server

    with (
        running_server(workers=1, spare_workers=0, token="s3cret") as (_srv, tgt),
        grpc.insecure_channel(tgt) as ch,
    ):
        logged = []
        saved = errors.BAD_BODY_LOG.warning
        errors.BAD_BODY_LOG.warning = lambda *a: logged.append(a)
        try:
            for method, req_stream, resp_stream in METHODS[:5]:
                code = code_of(
                    lambda: raw_call(
                        ch, method, GARBAGE, req_stream=req_stream, resp_stream=resp_stream
                    )
                )
                assert code == grpc.StatusCode.UNAUTHENTICATED, method
            assert logged == []  # nothing was parsed
            good = [("authorization", "Bearer s3cret")]
            code = code_of(lambda: raw_call(ch, METHODS[0][0], GARBAGE, metadata=good))
            assert code == grpc.StatusCode.INVALID_ARGUMENT
            assert logged
        finally:
            errors.BAD_BODY_LOG.warning = saved
        # health answers without a token, and parses its own bytes
        code = code_of(lambda: raw_call(ch, "/grpc.health.v1.Health/Check", GARBAGE))
        assert code == grpc.StatusCode.INVALID_ARGUMENT


def test_bad_body_log_is_rate_limited():
    import logging

    from quansu.server.errors import RateLimitedLog

    records = []

    class Catch(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    logger = logging.getLogger("quansu.test.ratelimit")
    logger.addHandler(Catch())
    logger.propagate = False
    log = RateLimitedLog(logger, interval_s=3600)
    assert log.warning("bad body %d", 1)
    assert not any(log.warning("bad body %d", i) for i in range(50))
    log._next = 0.0
    assert log.warning("bad body %d", 99)
    assert records == ["bad body 1", "bad body 99 (50 more like it not logged)"]


# -- sizes and counts, before admission ----------------------------------------------------------


def _view(game="tienlen", seed=1):
    from tests.helpers.service import view_to_act

    return view_to_act(game, 4, seed=seed)


def _suggest_bytes(view: dict, **kw) -> bytes:
    from quansu.server import convert
    from quansu.server.v1 import service_pb2 as pb

    return pb.SuggestRequest(view=convert.record_message(view), **kw).SerializeToString()


def test_a_body_over_the_size_limit_is_refused_unread(server, channel):
    srv, _ = server
    limit = srv.engine.limits.max_request_bytes
    view = _view()
    view["moves"] = [{"seat": 0, "move": "pass"}] * (limit // 8)
    body = _suggest_bytes(view)
    assert limit < len(body) < 4 * 1024 * 1024
    with pytest.raises(grpc.RpcError) as ei:
        raw_call(channel, METHODS[0][0], body)
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "over the server's maximum" in ei.value.details()


@pytest.mark.parametrize("game", ["tienlen", "phom", "samloc", "tan"])
def test_more_moves_than_the_game_can_have_is_refused(server, game):
    from quansu.games.registry import make
    from tests.helpers.service import client

    srv, tgt = server
    view = _view(game)
    limit = make(game, 4).max_moves
    view["moves"] = (view["moves"] * (limit // max(1, len(view["moves"])) + 2))[: limit + 1]
    with client(tgt) as c:
        for call in (
            lambda: c.suggest(view, iterations=5),
            lambda: c.legal_moves(view),
            lambda: list(c.analyze(view, iterations=5)),
        ):
            ((field, message),) = violations(call)
            assert field == "view.moves" and str(limit) in message


def test_every_string_is_bounded_and_errors_quote_little(target):
    from tests.helpers.service import client

    long_text = "x" * 5000
    cases = [
        (lambda v: v["moves"].append({"seat": 0, "move": long_text}), "view.moves["),
        (lambda v: v.__setitem__("game", long_text), "view.game"),
        (lambda v: v.__setitem__("format", long_text), "view.format"),
        (
            lambda v: v["deal"]["hands"][v["seat"]]["cards"].__setitem__(0, long_text),
            "view.deal.hands[",
        ),
        (lambda v: v.__setitem__("options", {long_text: 1}), "view.options"),
        (
            lambda v: v.__setitem__("options", {"cong_multiplier": long_text}),
            "view.options.cong_multiplier",
        ),
    ]
    with client(target) as c:
        for mutate, field in cases:
            v = _view()
            mutate(v)
            with pytest.raises(grpc.RpcError) as ei:
                c.legal_moves(v)
            err = ei.value
            assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, err.details()
            from quansu.server.errors import field_violations

            ((f, msg),) = field_violations(err)
            assert f.startswith(field), (f, msg)
            assert "x" * 65 not in msg and "x" * 65 not in err.details()
            assert len(err.details()) < 500


def test_a_long_move_text_that_is_legal_length_is_quoted_clipped(target):
    """A move text under the length limit but not a move: the error names the move and quotes at
    most ~64 characters of it."""
    from quansu.server.errors import field_violations
    from tests.helpers.service import client

    v = _view()
    n = len(v["moves"])
    v["moves"].append({"seat": v["seat"], "move": "3S" + " 3S" * 80})
    with client(target) as c, pytest.raises(grpc.RpcError) as ei:
        c.legal_moves(v)
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    ((f, msg),) = field_violations(ei.value)
    assert f.startswith(f"view.moves[{n}]"), (f, msg)
    assert " 3S" * 30 not in msg


def test_clip_message():
    from quansu.server.errors import MESSAGE_LIMIT, QUOTE_LIMIT, clip_message

    assert clip_message('moves[3]: "abc" is not legal') == 'moves[3]: "abc" is not legal'
    out = clip_message('cannot parse "' + "y" * 1000 + '" here')
    assert out.startswith('cannot parse "y') and out.endswith('..." here')
    assert len(out) < QUOTE_LIMIT + 30
    out = clip_message("option 'k': " + repr("z" * 1000))
    assert "z" * QUOTE_LIMIT not in out
    assert len(clip_message("w" * 10_000)) == QUOTE_LIMIT
    assert len(clip_message("w " * 10_000)) == MESSAGE_LIMIT


def test_cheap_checks_come_before_admission_and_validation_after():
    """With the only worker busy and no queue: a request over a limit is still INVALID_ARGUMENT
    (checked before admission), a well-formed but illegal one is RESOURCE_EXHAUSTED (validated
    in the worker, after admission)."""
    from tests.helpers.service import client, running_server

    view = _view(seed=2)
    with running_server(workers=1, queue_size=0, spare_workers=0) as (_srv, tgt), client(tgt) as c:
        box: dict = {}
        t = threading.Thread(
            target=lambda: box.setdefault(
                "r", c.suggest(view, milliseconds=2500, iterations=50_000)
            )
        )
        t.start()
        deadline = time.monotonic() + 30
        while _srv.pool.stats().busy == 0:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        too_many = copy.deepcopy(view)
        too_many["moves"] = [{"seat": 0, "move": "pass"}] * 300
        ((field, _),) = violations(lambda: c.legal_moves(too_many))
        assert field == "view.moves"
        nan = copy.deepcopy(view)
        nan["options"] = {"count_unit": math.nan}
        ((field, _),) = violations(lambda: c.suggest(nan, iterations=5))
        assert field == "view.options.count_unit"
        ((field, _),) = violations(lambda: c.suggest(view, iterations=10**9))
        assert field == "budget.iterations"
        illegal = copy.deepcopy(view)
        illegal["moves"].append({"seat": 0, "move": "pass"})
        illegal["moves"].append({"seat": 0, "move": "pass"})
        for call in (lambda: c.legal_moves(illegal), lambda: c.suggest(illegal, iterations=5)):
            assert code_of(call) == grpc.StatusCode.RESOURCE_EXHAUSTED
        t.join(60)
        assert box["r"].stats.stopped_by == "time"
        ((field, _),) = violations(lambda: c.legal_moves(illegal))
        assert field.startswith("view.")


def test_the_worker_replays_a_view_once(monkeypatch):
    from quansu.games import record as rec
    from quansu.server.engine import build_engine
    from quansu.server.v1 import service_pb2 as pb

    engine = build_engine(uniform=True)
    calls = []
    real = rec.replay_view
    monkeypatch.setattr(rec, "replay_view", lambda *a, **k: calls.append(1) or real(*a, **k))
    out = []
    engine.run_job(
        "suggest",
        _suggest_bytes(_view(), budget=pb.Budget(iterations=10)),
        out.append,
        lambda: False,
        None,
    )
    assert len(out) == 1 and len(calls) == 1
    calls.clear()
    engine.run_job(
        "legal_moves",
        pb.LegalMovesRequest(
            view=pb.SuggestRequest.FromString(_suggest_bytes(_view())).view
        ).SerializeToString(),
        out.append,
        lambda: False,
        None,
    )
    assert len(calls) == 1


# -- option ranges and finite answers -------------------------------------------------------------


def test_every_numeric_option_declares_a_finite_range():
    from quansu.games.registry import game_classes

    numeric = 0
    for name, cls in game_classes().items():
        for spec in cls.option_specs:
            if not spec.numeric:
                continue
            numeric += 1
            assert spec.minimum is not None and spec.maximum is not None, (name, spec.name)
            assert math.isfinite(spec.minimum) and math.isfinite(spec.maximum)
            lo, hi = spec.bounds()
            defaults = spec.default if isinstance(spec.default, tuple) else (spec.default,)
            assert all(lo <= d <= hi for d in defaults), (name, spec.name)
    assert numeric >= 15


def test_describe_games_lists_the_ranges(target):
    from quansu.games.registry import game_classes
    from tests.helpers.service import client

    with client(target) as c:
        resp = c.describe_games()
    assert resp.limits.max_request_bytes > 0
    for g in resp.games:
        specs = {s.name: s for s in game_classes()[g.name].option_specs}
        for o in g.options:
            spec = specs[o.name]
            assert o.HasField("minimum") == spec.numeric
            if spec.numeric:
                assert (o.minimum, o.maximum) == tuple(float(x) for x in spec.bounds())


def _numeric_specs():
    from quansu.games.registry import game_classes

    return [
        (name, spec)
        for name, cls in game_classes().items()
        for spec in cls.option_specs
        if spec.numeric
    ]


@pytest.mark.parametrize("game,spec", _numeric_specs(), ids=lambda x: getattr(x, "name", x))
def test_out_of_range_options_are_invalid_argument_naming_the_option(game, spec):
    from quansu.server import convert
    from quansu.server.engine import Engine
    from quansu.server.errors import RequestError
    from quansu.server.v1 import service_pb2 as pb

    engine = Engine()
    base = _view(game, seed=3)
    lo, hi = spec.bounds()
    bad = [math.nan, math.inf, -math.inf, 1e300, -1e300, float(10**20), hi + 1, lo - 1]
    for value in bad:
        v = copy.deepcopy(base)
        v["options"] = {spec.name: [value] * len(spec.default) if spec.kind is tuple else value}
        request = pb.SuggestRequest(view=convert.record_message(v))
        for check in (engine.precheck_suggest, engine.check_suggest):
            try:
                check(request)
            except RequestError as e:
                assert e.field == f"view.options.{spec.name}", (value, e.field, e.message)
                assert len(e.message) < 300
                break
        else:
            pytest.fail(f"{game} {spec.name}={value!r} accepted")


def test_extreme_option_values_in_range_give_finite_answers(target):
    """The largest allowed payments and multipliers: every answer's numbers stay finite."""
    from quansu.server.servicer import non_finite_fields
    from tests.helpers.service import client

    with client(target) as c:
        for game, spec in _numeric_specs():
            if spec.name.startswith("previous"):
                continue
            _lo, hi = spec.bounds()
            v = _view(game, seed=4)
            v["options"] = {spec.name: [hi] * len(spec.default) if spec.kind is tuple else hi}
            try:
                resp = c.suggest(v, iterations=20, seed=1)
            except grpc.RpcError as e:
                # the game's own checks may refuse a combination; never anything but a field
                assert e.code() == grpc.StatusCode.INVALID_ARGUMENT, (game, spec.name, e.details())
                continue
            assert non_finite_fields(resp) == [], (game, spec.name)


def test_check_finite_refuses_a_nan_answer():
    from quansu.server.servicer import check_finite, non_finite_fields
    from quansu.server.v1 import service_pb2 as pb

    ok = pb.SuggestResponse(moves=[pb.Suggestion(expected_payoff=1.5, prior=0.25)])
    assert check_finite(ok) is ok
    bad = pb.SuggestResponse(
        moves=[pb.Suggestion(expected_payoff=1.5), pb.Suggestion(prior=math.nan)]
    )
    assert non_finite_fields(bad) == ["moves[1].prior"]
    with pytest.raises(AssertionError):
        check_finite(bad)
    summary = pb.AnalyzeResponse()
    summary.summary.total_loss = math.inf
    assert non_finite_fields(summary) == ["summary.total_loss"]


# -- the pool heals itself ------------------------------------------------------------------------


class _SleepEngine:
    """A stand-in engine for pool tests: ``run_job`` sleeps the payload's seconds, polling the
    stop flag unless the payload starts with ``!`` (a worker that does not stop).  A payload
    ending in ``#`` answers ``slept #N`` instead of ``slept``, N the order in which this worker
    started its jobs (0 first): the order is recorded where the jobs run, not where their
    threads hear back."""

    def __init__(self):
        self.started = 0

    def model_names(self):
        return {}

    def run_job(self, kind, payload, emit, stop, seconds_left):
        order = self.started
        self.started += 1
        text = payload.decode()
        stubborn = text.startswith("!")
        numbered = text.endswith("#")
        end = time.monotonic() + float(text.lstrip("!").rstrip("#"))
        while time.monotonic() < end:
            if not stubborn and stop():
                break
            time.sleep(0.01)
        emit(b"slept #%d" % order if numbered else b"slept")


def sleep_engine(hold: str | None = None) -> _SleepEngine:
    """Worker factory (picklable): waits while the file ``hold`` exists, then builds."""
    while hold and os.path.exists(hold):
        time.sleep(0.02)
    return _SleepEngine()


def _wait_for(cond, timeout=60.0, what="condition"):
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.02)


def _pool(hold=None, **kw):
    from functools import partial

    from quansu.server.pool import WorkerPool

    kw.setdefault("stop_grace_s", 0.5)
    return WorkerPool(partial(sleep_engine, hold), **kw)


def _run(pool, seconds: str, left=None):
    return list(pool.run("sleep", seconds.encode(), left, lambda: True))


def test_killing_a_worker_from_several_threads_at_once_closes_its_pipe_once():
    # the watcher and close() may kill the same worker at the same moment: a second close of
    # the pipe's descriptor would raise EBADF (seen in CI) or close a reused descriptor
    pool = _pool(workers=1, spares=0)
    try:
        worker = pool._workers[0]
        gate = threading.Barrier(8)
        raised = []

        def kill():
            gate.wait()
            try:
                worker.kill()
            except Exception as e:  # noqa: BLE001 - any error is the failure
                raised.append(e)

        threads = [threading.Thread(target=kill) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert raised == [] and worker.conn.closed and worker.dead
        worker.kill()  # and once more, later
    finally:
        pool.close()


def test_a_dead_idle_worker_is_replaced_by_the_spare_at_once():
    pool = _pool(workers=2, spares=1)
    try:
        victim = pool._workers[0]
        spare_pid = pool._spares[0].proc.pid
        os.kill(victim.proc.pid, signal.SIGKILL)
        _wait_for(lambda: pool.stats().restarts == 1, what="the spare taking the slot")
        assert pool._workers[0].proc.pid == spare_pid
        st = pool.stats()
        assert st.deaths == 1 and st.alive == 2
        _wait_for(lambda: pool.stats().spares == 1, what="a new spare")
        assert _run(pool, "0") == [b"slept"]
        assert _run(pool, "0") == [b"slept"]
    finally:
        pool.close()


def test_a_dead_idle_worker_is_replaced_without_a_spare_and_without_a_call():
    pool = _pool(workers=1, spares=0)
    alive = []
    pool.add_listener(alive.append)
    try:
        pid = pool._workers[0].proc.pid
        os.kill(pid, signal.SIGKILL)
        _wait_for(lambda: pool.stats().restarts == 1, what="the replacement")
        assert alive == [0, 1]
        assert pool._workers[0].proc.pid != pid and pool._workers[0].proc.is_alive()
        assert _run(pool, "0") == [b"slept"]
    finally:
        pool.close()


def test_a_call_whose_worker_dies_is_unavailable_at_once(tmp_path):
    """The replacement is held back (its factory waits on a file): the call must fail without
    waiting for it, and health-like listeners see 0 live workers until it is ready."""
    from quansu.server.errors import Unavailable
    from quansu.server.servicer import track_workers

    hold = tmp_path / "hold"
    pool = _pool(str(hold), workers=1, spares=0)

    class Health:
        def __init__(self):
            self.log = []

        def set(self, name, status):
            self.log.append((name, status))

    health = Health()
    track_workers(pool, health, ["", "svc"], lambda: False)
    try:
        box: dict = {}

        def call():
            try:
                _run(pool, "60")
            except Exception as e:
                box["error"] = e
                box["restarts"] = pool.stats().restarts

        t = threading.Thread(target=call)
        t.start()
        _wait_for(lambda: pool.stats().busy == 1, what="the call to start")
        hold.write_text("")
        os.kill(pool._workers[0].proc.pid, signal.SIGKILL)
        t.join(30)
        assert isinstance(box["error"], Unavailable)
        assert box["restarts"] == 0  # answered before any replacement existed
        _wait_for(lambda: pool.stats().alive == 0, what="the death to be seen")
        from grpc_health.v1 import health_pb2

        assert ("", health_pb2.HealthCheckResponse.NOT_SERVING) in health.log
        # calls wait (not fail) while no worker lives, and run once one is back
        waiter = threading.Thread(target=lambda: box.setdefault("later", _run(pool, "0")))
        waiter.start()
        time.sleep(0.3)
        assert "later" not in box
        hold.unlink()
        waiter.join(60)
        assert box["later"] == [b"slept"]
        assert pool.stats().restarts == 1
        assert health.log[-2:] == [
            ("", health_pb2.HealthCheckResponse.SERVING),
            ("svc", health_pb2.HealthCheckResponse.SERVING),
        ]
    finally:
        if hold.exists():
            hold.unlink()
        pool.close()


def test_a_worker_that_does_not_stop_is_killed_and_replaced():
    from quansu.server.errors import DeadlineExceeded, Unavailable

    pool = _pool(workers=1, spares=0, stop_grace_s=0.3)
    try:
        pid = pool._workers[0].proc.pid
        t0 = time.monotonic()
        with pytest.raises((Unavailable, DeadlineExceeded)):
            _run(pool, "!600", left=0.2)
        assert time.monotonic() - t0 < 300  # killed, not left to sleep its 600 s
        _wait_for(lambda: pool.stats().restarts == 1, what="the hung worker's replacement")
        assert pool._workers[0].proc.pid != pid
        assert pool.stats().deaths == 1
        assert _run(pool, "0") == [b"slept"]
    finally:
        pool.close()


def test_a_cancelled_call_frees_its_worker_without_a_restart():
    pool = _pool(workers=1, spares=0)
    try:
        active = {"on": True}
        box: dict = {}
        th = threading.Thread(
            target=lambda: box.setdefault(
                "r", _consume(pool.run("sleep", b"600", None, lambda: active["on"]))
            )
        )
        th.start()
        _wait_for(lambda: pool.stats().busy == 1, what="the call to start")
        active["on"] = False
        th.join(30)
        assert box["r"] == [b"slept"]  # the job stopped and answered
        assert _run(pool, "0") == [b"slept"]
        assert pool.stats().restarts == 0 and pool.stats().deaths == 0
    finally:
        pool.close()


def test_short_jobs_wait_before_searches_within_the_same_queue():
    from quansu.server.errors import Busy

    pool = _pool(workers=1, spares=0, queue_size=2)
    started = {}
    released = threading.Event()

    def job(kind, seconds, tag):
        # the one worker numbers the jobs in the order it starts them (not the order in which
        # these threads hear back, which the machine's load may swap)
        active = (lambda: not released.is_set()) if tag == "first" else (lambda: True)
        out = list(pool.run(kind, (seconds + "#").encode(), None, active))
        started[tag] = int(out[-1].split(b"#")[1])

    threads = []
    try:
        # the first job holds the worker (until released) while the others queue
        for kind, seconds, tag, waiting in (
            ("sleep", "600", "first", 0),
            ("sleep", "0", "search", 1),
            ("legal_moves", "0", "legal", 2),
        ):
            t = threading.Thread(target=job, args=(kind, seconds, tag))
            t.start()
            threads.append(t)
            _wait_for(
                lambda: pool.stats().busy == 1 and pool.stats().waiting == waiting,
                what=f"{tag} to be queued",
            )
        # the queue is full for every kind of job
        with pytest.raises(Busy):
            _run(pool, "0")
        with pytest.raises(Busy):
            list(pool.run("legal_moves", b"0", None, lambda: True))
        released.set()
        for t in threads:
            t.join(120)
        assert sorted(started, key=started.get) == ["first", "legal", "search"]
    finally:
        pool.close()


def _consume(it):
    try:
        return list(it)
    except Exception as e:  # the caller checks
        return e


def test_health_follows_the_workers_end_to_end():
    """A real server with one worker and no spare: killing the worker turns health NOT_SERVING
    until the replacement is up, then SERVING (watched on a Watch stream)."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from tests.helpers.service import client, running_server

    with running_server(workers=1, spare_workers=0) as (srv, tgt), grpc.insecure_channel(tgt) as ch:
        stub = health_pb2_grpc.HealthStub(ch)
        stream = stub.Watch(health_pb2.HealthCheckRequest(service=""), timeout=120)
        seen = [next(stream).status]
        assert seen == [health_pb2.HealthCheckResponse.SERVING]
        pid = srv.pool._workers[0].proc.pid
        os.kill(pid, signal.SIGKILL)
        for msg in stream:
            seen.append(msg.status)
            if msg.status == health_pb2.HealthCheckResponse.SERVING:
                break
        stream.cancel()
        assert health_pb2.HealthCheckResponse.NOT_SERVING in seen
        with client(tgt) as c:
            assert c.suggest(_view(), iterations=5).stats.iterations == 5
        assert srv.pool.stats().restarts == 1


def test_killing_an_idle_and_a_busy_worker_of_a_real_server():
    from tests.helpers.service import client, running_server

    view = _view(seed=5)
    with running_server(workers=2, spare_workers=1) as (srv, tgt), client(tgt) as c:
        box: dict = {}
        t = threading.Thread(
            target=lambda: box.setdefault(
                "code", code_of(lambda: c.suggest(view, milliseconds=20_000, iterations=50_000))
            )
        )
        t.start()
        _wait_for(lambda: srv.pool.stats().busy == 1, what="the search to start")
        busy = next(w for w in srv.pool._workers if w not in srv.pool._free)
        idle = srv.pool._free[0]
        os.kill(idle.proc.pid, signal.SIGKILL)
        os.kill(busy.proc.pid, signal.SIGKILL)
        t.join(60)
        assert box["code"] == grpc.StatusCode.UNAVAILABLE
        _wait_for(
            lambda: srv.pool.stats().restarts == 2 and srv.pool.stats().alive == 2,
            what="both replacements",
        )
        assert c.health() == "SERVING"
        for _ in range(3):
            assert c.suggest(view, iterations=5).stats.iterations == 5
        assert srv.pool.stats().deaths == 2


def test_drain_refuses_new_calls_finishes_old_ones_and_stays_not_serving():
    from tests.helpers.service import client, running_server

    view = _view(seed=6)
    with running_server(workers=1, spare_workers=0) as (srv, tgt), client(tgt) as c:
        box: dict = {}
        t = threading.Thread(
            target=lambda: box.setdefault(
                "r", c.suggest(view, milliseconds=1500, iterations=50_000)
            )
        )
        t.start()
        _wait_for(lambda: srv.pool.stats().busy == 1, what="the search to start")
        stopper = threading.Thread(target=lambda: srv.stop(grace=20))
        stopper.start()
        _wait_for(lambda: srv._stopped.is_set(), what="the drain to begin")
        t.join(60)
        assert box["r"].stats.stopped_by == "time"  # the in-flight call finished
        stopper.join(60)
        assert code_of(lambda: c.suggest(view, iterations=5, timeout=5)) in (
            grpc.StatusCode.UNAVAILABLE,
            grpc.StatusCode.CANCELLED,
        )


# -- deadlines -------------------------------------------------------------------------------------


def test_the_deadline_margin_leaves_room_for_the_answer():
    from quansu.server.engine import deadline_margin

    for left in (0.05, 0.1, 0.5, 1.0, 10.0, 600.0):
        m = deadline_margin(left)
        assert 0.015 <= m < left and m <= 0.3
    assert deadline_margin(0.05) >= 0.025


def test_short_deadlines_answer_best_so_far(target):
    """A 2 s deadline on a search of a minute: the answer comes (not DEADLINE_EXCEEDED), cut
    by the deadline.  (bench/soak.py --deadline-ms 50 measures the 50 ms case; a test keeps
    room for a loaded machine.)"""
    from tests.helpers.service import client

    with client(target) as c:
        resp = c.suggest(_view(seed=7), iterations=50_000, milliseconds=60_000, timeout=2.0)
    assert resp.stats.stopped_by == "deadline"
    assert resp.moves


# -- caches ----------------------------------------------------------------------------------------


def test_cache_sizes_are_settings_read_from_the_environment():
    import subprocess
    import sys

    code = (
        "from quansu.games.caches import CACHES, cache_size\n"
        "from quansu.games.phom import rules\n"
        "from quansu.games.samloc import heuristic\n"
        "from quansu.models.evaluator import NetworkEvaluator\n"
        "print(cache_size('evaluator'), rules.min_deadwood.cache_info().maxsize, "
        "heuristic._PLAN_CACHE_SIZE, cache_size('encoder_moves'))"
    )
    env = dict(
        os.environ,
        QUANSU_CACHE_EVALUATOR="11",
        QUANSU_CACHE_PHOM_DEADWOOD="7",
        QUANSU_CACHE_SAMLOC_PLANS="0",
        QUANSU_CACHE_ENCODER_MOVES="5",
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["11", "7", "0", "5"]
    env["QUANSU_CACHE_EVALUATOR"] = "many"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode != 0 and "QUANSU_CACHE_EVALUATOR" in out.stderr


def test_every_heuristic_cache_takes_its_size_from_the_settings():
    import subprocess
    import sys

    code = (
        "from quansu.games.tienlen import heuristic as th\n"
        "from quansu.games.samloc import heuristic as sh, sparring as ss, game as sg\n"
        "from quansu.games.phom import view\n"
        "print(th._SPLITS_MAX, th._RECIPES_MAX, th._PLANS_MAX, sh._WINDOWS_MAX, "
        "sh._SAM_MEMO_MAX, sg._COMBOS_MAX, ss._OPTS_MAX, ss._min_combos.cache_info().maxsize, "
        "view._WITNESSES_MAX)"
    )
    names = [
        "TIENLEN_SPLITS",
        "TIENLEN_RECIPES",
        "TIENLEN_PLANS",
        "SAMLOC_WINDOWS",
        "SAMLOC_CHANCE",
        "SAMLOC_COMBOS",
        "SAMLOC_SPARRING",
        "PHOM_WITNESSES",
    ]
    env = dict(os.environ, **{f"QUANSU_CACHE_{n}": str(10 + i) for i, n in enumerate(names)})
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["10", "11", "12", "13", "14", "15", "16", "16", "17"]
    # the split's memo cannot be turned off
    env["QUANSU_CACHE_TIENLEN_SPLITS"] = "0"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode != 0 and "QUANSU_CACHE_TIENLEN_SPLITS=0: must be at least 1" in out.stderr


def test_a_full_cache_drops_its_oldest_quarter():
    from quansu.games.caches import make_room

    cache = {k: str(k) for k in range(100)}
    make_room(cache)
    assert list(cache) == list(range(25, 100))
    one = {7: "x"}
    make_room(one)
    assert one == {}
    empty: dict = {}
    make_room(empty)  # a cache of size 0 (turned off) is empty when asked for room
    assert empty == {}
    # bounded at its size under a stream of insertions, the newest entries kept
    bounded: dict = {}
    for k in range(10_000):
        if len(bounded) >= 64:
            make_room(bounded)
        bounded[k] = k
        assert len(bounded) <= 64
    assert 9_999 in bounded and len(bounded) >= 48


def test_small_heuristic_caches_give_the_same_moves():
    """The caches hold pure functions' answers: tiny bounds (every cache trimmed or emptied over
    and over) give the same searches as the defaults."""
    import subprocess
    import sys

    code = (
        "import random\n"
        "from quansu.games.registry import make\n"
        "from quansu.search.evaluator import UniformEvaluator\n"
        "from quansu.search.ismcts import SearchConfig, search\n"
        "out = []\n"
        "for name in ('tienlen', 'samloc', 'phom'):\n"
        "    g = make(name, 4); rng = random.Random(5)\n"
        "    st = g.new_initial_state(rng)\n"
        "    while st.is_terminal() or len(st.legal_moves()) < 2:\n"
        "        st = g.new_initial_state(rng)\n"
        "        for _ in range(rng.randint(0, 8)):\n"
        "            if not st.is_terminal(): st.apply(rng.choice(st.legal_moves()))\n"
        "    r = search(st, SearchConfig(iterations=60, leaf_value='rollout', playout='game'),"
        " UniformEvaluator(), seed=3)\n"
        "    out.append([(g.move_to_text(m.move), m.visits) for m in r.moves])\n"
        "print(out)\n"
    )
    names = [
        "TIENLEN_SPLITS",
        "TIENLEN_RECIPES",
        "TIENLEN_PLANS",
        "SAMLOC_WINDOWS",
        "SAMLOC_CHANCE",
        "SAMLOC_COMBOS",
        "SAMLOC_SPARRING",
        "PHOM_WITNESSES",
        "SAMLOC_PLANS",
        "PHOM_DEADWOOD",
    ]
    small = dict(os.environ, **{f"QUANSU_CACHE_{n}": "3" for n in names})
    runs = [
        subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
        )
        for env in (dict(os.environ), small)
    ]
    for r in runs:
        assert r.returncode == 0, r.stderr
    assert runs[0].stdout == runs[1].stdout and "[(" in runs[0].stdout


def test_caches_are_bounded_per_process_however_many_option_sets_are_served():
    """A stream of requests each with its own option set (here 40 values of ``cong_multiplier``)
    must not make one cache per option set: the network answers share one cache and the encoders'
    move descriptions one count, each within its bound, and at most MAX_NETWORKS evaluators and
    MAX_ENCODERS encoders are kept."""
    import subprocess
    import sys

    code = (
        "import random\n"
        "from quansu.games.registry import make\n"
        "from quansu.models import encoders\n"
        "from quansu.models.encoders import base\n"
        "from quansu.models import evaluator\n"
        "from quansu.server.evaluators import MAX_NETWORKS, EvaluatorSet\n"
        "evs = EvaluatorSet()\n"
        "rng = random.Random(3)\n"
        "for i in range(40):\n"
        "    g = make('tienlen', 4, {'cong_multiplier': 2.0 + i / 8})\n"
        "    ev, _ = evs.for_game(g)\n"
        "    st = g.new_initial_state(rng)\n"
        "    for _ in range(6):\n"
        "        if st.is_terminal(): break\n"
        "        ev.evaluate([st])\n"
        "        st.apply(rng.choice(st.legal_moves()))\n"
        "descs = sum(len(e._desc) for e in list(base._ENCODERS))\n"
        "print(len(evaluator._SHARED_CACHE), descs, len(evs._networks), MAX_NETWORKS, "
        "len(encoders._cache), encoders.MAX_ENCODERS)\n"
    )
    env = dict(os.environ, QUANSU_CACHE_EVALUATOR="50", QUANSU_CACHE_ENCODER_MOVES="300")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    shared, descs, nets, max_nets, encs, max_encs = map(int, out.stdout.split())
    assert 0 < shared <= 50  # 40 option sets x up to 6 positions: 240 answers without the bound
    assert 0 < descs <= 300
    assert nets == max_nets < 40 and encs == max_encs < 40


def test_every_cache_documents_its_cost_and_the_pool_reports_worker_memory():
    from quansu.games.caches import CACHES, memory_budget_mb

    for spec in CACHES.values():
        assert spec.default > 0 and spec.bytes_per_entry > 0 and spec.what
    assert memory_budget_mb() > 0
    pool = _pool(workers=1, spares=0)
    try:
        (rss,) = pool.stats(rss=True).worker_rss_mb
        assert rss > 1
    finally:
        pool.close()


def test_docs_list_every_option_range():
    """docs/api.md "Option ranges" names every numeric option with its range."""
    import re
    from pathlib import Path

    from quansu.games.registry import game_classes

    text = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    section = text.split("### Option ranges", 1)[1].split("###", 1)[0]
    documented = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("game", "---"):
            continue
        m = re.match(r"(-?\d+)\.\.(-?\d+)", cells[2])
        assert m, line
        for name in re.findall(r"`([a-z_0-9]+)`", cells[1]):
            documented[(cells[0], name)] = (float(m.group(1)), float(m.group(2)))
    expected = {
        (g, s.name): tuple(float(x) for x in s.bounds())
        for g, cls in game_classes().items()
        for s in cls.option_specs
        if s.numeric
    }
    assert documented == expected


def test_memtrace_benchmark_reports_where_memory_grew(tmp_path, capsys):
    """bench/memtrace.py runs a worker's loop with the soak's traffic and reports the RSS, the
    traced memory and the largest differences between its two snapshots."""
    from quansu.bench import memtrace

    out = tmp_path / "m.json"
    assert (
        memtrace.main(
            ["--fill", "0", "--warmup", "0.5", "--seconds", "1", "--top", "3", "--json", str(out)]
        )
        == 0
    )
    got = json.loads(out.read_text())
    assert got["end"]["calls"] >= got["after_warmup"]["calls"] >= 1
    assert got["end"]["rss_mb"] > 0 and got["rss_after_fill_mb"] > 0
    assert len(got["largest_differences"]) <= 3
    assert all("where" in d and "mb" in d for d in got["largest_differences"])
    import tracemalloc

    assert not tracemalloc.is_tracing()  # stopped: it would slow the rest of the process
