"""Operations (issue 23): Prometheus metrics after a few calls over gRPC and HTTP, one JSON log
line per call without a card, log levels, rate-limited INTERNAL tracebacks, health that follows
the workers and the drain, and the readiness check of every game at start."""

from __future__ import annotations

import functools
import io
import json
import logging
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from quansu.games.registry import game_classes
from quansu.server import errors
from quansu.server.app import ready_check
from quansu.server.engine import Engine, build_engine
from quansu.server.gateway import CallAborted, HttpCallContext
from quansu.server.logs import CALL_LOG, JsonFormatter, parse_level
from quansu.server.servicer import QuansuServicer
from quansu.server.v1 import service_pb2 as pb
from tests.helpers.service import client, running_server, view_to_act

GAMES = sorted(game_classes())
CARD_RE = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][SCDH](?![A-Za-z0-9])")


def _http(port: int, method: str, path: str, body: dict | None = None, token: str | None = None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def _scrape(port: int) -> dict:
    """(name, sorted label items) -> value of every sample."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as r:
        text = r.read().decode()
    out = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def _value(samples: dict, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


class _Capture:
    """The JSON lines the ``quansu`` loggers write while it is open (at ``level``)."""

    def __init__(self, level=logging.INFO):
        self.stream = io.StringIO()
        self.handler = logging.StreamHandler(self.stream)
        self.handler.setFormatter(JsonFormatter())
        self.level = level

    def __enter__(self):
        self.logger = logging.getLogger("quansu")
        self.saved = self.logger.level
        self.logger.setLevel(self.level)
        self.logger.addHandler(self.handler)
        return self

    def __exit__(self, *exc):
        self.logger.removeHandler(self.handler)
        self.logger.setLevel(self.saved)

    def lines(self) -> list[dict]:
        return [json.loads(line) for line in self.stream.getvalue().splitlines() if line.strip()]

    def calls(self) -> list[dict]:
        return [x for x in self.lines() if x["logger"] == CALL_LOG.name and x["msg"] == "call"]


# -- metrics and the per-call log ---------------------------------------------------------------


def test_metrics_and_log_lines_after_grpc_and_http_calls():
    token = "s3cret"
    view = view_to_act("tienlen", 4, seed=3)
    bad = dict(view, seat=(view["seat"] + 1) % 4)  # not the seat to act
    hand = set(next(h["cards"] for h in view["deal"]["hands"] if "cards" in h))
    with (
        _Capture() as cap,
        running_server(workers=1, spare_workers=0, metrics_port=0, http_port=0, token=token) as (
            server,
            tgt,
        ),
    ):
        with client(tgt, token=token) as c:
            ok = c.suggest(view, iterations=30, seed=1)
            with pytest.raises(grpc.RpcError) as ei:
                c.suggest(bad, iterations=5)
            assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            c.legal_moves(view)
        with client(tgt, token="wrong") as c:
            with pytest.raises(grpc.RpcError) as ei:
                c.describe_games()
            assert ei.value.code() == grpc.StatusCode.UNAUTHENTICATED
        status, body = _http(
            server.http_port,
            "POST",
            "/v1/suggest",
            {"view": view, "budget": {"iterations": 20}, "language": "vi"},
            token,
        )
        assert status == 200, body
        status, _ = _http(server.http_port, "GET", "/v1/games", token=token)
        assert status == 200
        m = _scrape(server.metrics_port)

    # requests and errors per RPC, game and status code: the gRPC and the HTTP calls alike
    assert _value(m, "quansu_requests_total", rpc="Suggest", game="tienlen", code="OK") == 2
    assert (
        _value(m, "quansu_requests_total", rpc="Suggest", game="tienlen", code="INVALID_ARGUMENT")
        == 1
    )
    assert (
        _value(m, "quansu_errors_total", rpc="Suggest", game="tienlen", code="INVALID_ARGUMENT")
        == 1
    )
    assert _value(m, "quansu_errors_total", rpc="Suggest", game="tienlen", code="OK") == 0
    assert _value(m, "quansu_requests_total", rpc="LegalMoves", game="tienlen", code="OK") == 1
    assert _value(m, "quansu_requests_total", rpc="DescribeGames", game="none", code="OK") == 1
    assert (
        _value(m, "quansu_requests_total", rpc="DescribeGames", game="none", code="UNAUTHENTICATED")
        == 1
    )
    # latency, iterations and their rate
    assert _value(m, "quansu_request_duration_seconds_count", rpc="Suggest", game="tienlen") == 3
    assert _value(m, "quansu_request_duration_seconds_sum", rpc="Suggest", game="tienlen") > 0
    assert (
        _value(m, "quansu_search_iterations_total", rpc="Suggest", game="tienlen")
        == ok.stats.iterations + 20
    )
    assert _value(m, "quansu_search_iterations_per_second_count", game="tienlen") == 2
    assert _value(m, "quansu_search_iterations_per_second_sum", game="tienlen") > 0
    # the model per game, the queue and the workers
    for g in GAMES:
        assert _value(m, "quansu_model_info", game=g, model="uniform") == 1
    assert _value(m, "quansu_queue_depth") == 0
    assert _value(m, "quansu_queue_capacity") == server.pool.queue_size
    assert _value(m, "quansu_workers") == 1 and _value(m, "quansu_workers_live") == 1
    assert _value(m, "quansu_workers_busy") == 0
    assert _value(m, "quansu_worker_deaths_total") == 0
    assert _value(m, "quansu_worker_restarts_total") == 0
    if sys.platform.startswith("linux"):
        assert _value(m, "quansu_worker_rss_bytes", worker="0") > 10e6
        from quansu.games.caches import memory_budget_mb

        budget = _value(m, "quansu_worker_cache_budget_bytes")
        assert abs(budget - memory_budget_mb() * 1e6) < 1 and budget > 100e6

    # one JSON line per call, with the call's facts and never a card
    calls = cap.calls()
    assert [(x["rpc"], x["status"]) for x in calls] == [
        ("Suggest", "OK"),
        ("Suggest", "INVALID_ARGUMENT"),
        ("LegalMoves", "OK"),
        ("DescribeGames", "UNAUTHENTICATED"),
        ("Suggest", "OK"),
        ("DescribeGames", "OK"),
    ]
    first = calls[0]
    assert first["level"] == "INFO" and first["game"] == "tienlen" and first["players"] == 4
    assert first["budget"] == {"iterations": 30, "ms": 0}
    assert first["iterations"] == ok.stats.iterations and first["ms"] > 0
    assert first["peer"].startswith(("ipv4:", "ipv6:"))
    assert calls[4]["peer"].startswith("http:") and calls[4]["language"] == "vi"
    assert "message" not in calls[1] and "request" not in calls[1]
    text = cap.stream.getvalue()
    assert not (set(CARD_RE.findall(text)) & hand), text


def test_debug_logs_add_a_detail_line_with_the_request():
    engine = Engine()
    servicer = QuansuServicer(engine, pool=None)
    body = pb.SuggestRequest(budget=pb.Budget(iterations=999_999_999)).SerializeToString()
    with _Capture(logging.DEBUG) as cap:
        with pytest.raises(CallAborted):
            servicer.Suggest(body, HttpCallContext(None, peer="test"))
    lines = cap.lines()
    assert [x["msg"] for x in lines if x["logger"] == CALL_LOG.name] == ["call", "call detail"]
    call, detail = lines[-2], lines[-1]
    assert call["level"] == "INFO" and call["status"] == "INVALID_ARGUMENT"
    assert "message" not in call
    assert detail["level"] == "DEBUG" and detail["message"].startswith("view: missing")
    assert detail["request"]["budget"]["iterations"] == 999_999_999


def test_log_levels_are_checked():
    assert parse_level("info") == logging.INFO and parse_level("WARNING") == logging.WARNING
    assert parse_level(" Debug ") == logging.DEBUG
    for bad in ("verbose", "", "20", "trace"):
        with pytest.raises(ValueError):
            parse_level(bad)
    r = subprocess.run(
        [sys.executable, "-m", "quansu", "serve", "--log-level", "verbose", "--lang", "en"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2 and "unknown log level 'verbose'" in r.stderr


def test_internal_errors_log_a_rate_limited_traceback_and_others_none(monkeypatch):
    engine = Engine()
    servicer = QuansuServicer(engine, pool=None)

    def broken(request=None):
        raise KeyError("a server bug")

    monkeypatch.setattr(engine, "describe_games", broken)
    monkeypatch.setattr(errors.INTERNAL_LOG, "_next", 0.0)
    monkeypatch.setattr(errors.INTERNAL_LOG, "interval_s", 3600.0)
    body = pb.DescribeGamesRequest().SerializeToString()
    with _Capture() as cap:
        for _ in range(3):
            with pytest.raises(CallAborted) as ei:
                servicer.DescribeGames(body, HttpCallContext(None, peer="test"))
            assert ei.value.status.code == grpc.StatusCode.INTERNAL.value[0]
            assert "a server bug" not in ei.value.status.message
        # a bad request: a status in the call's line, no traceback
        with pytest.raises(CallAborted):
            servicer.Suggest(b"\xff" * 8, HttpCallContext(None, peer="test"))
    lines = cap.lines()
    tracebacks = [x for x in lines if "traceback" in x]
    assert len(tracebacks) == 1 and "KeyError: 'a server bug'" in tracebacks[0]["traceback"]
    assert tracebacks[0]["level"] == "ERROR"
    assert [x["status"] for x in cap.calls()] == ["INTERNAL"] * 3 + ["INVALID_ARGUMENT"]


# -- honest health ------------------------------------------------------------------------------


def _wait_for(predicate, timeout: float, what: str):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_health_is_not_serving_while_no_worker_can_serve():
    with (
        running_server(workers=1, spare_workers=0, metrics_port=0, http_port=0) as (server, tgt),
        client(tgt) as c,
    ):
        assert c.health() == "SERVING" and c.health("quansu.v1.QuansuService") == "SERVING"
        pool = server.pool
        factory = pool._factory
        # every new worker fails to start until the factory is put back: no worker can serve
        pool._factory = functools.partial(int, "not a worker")
        os.kill(pool._workers[0].proc.pid, signal.SIGKILL)
        _wait_for(lambda: c.health() == "NOT_SERVING", 60, "NOT_SERVING")
        assert c.health("quansu.v1.QuansuService") == "NOT_SERVING"
        status, body = _http(server.http_port, "GET", "/v1/health")
        assert status == 503 and json.loads(body)["status"] == "NOT_SERVING"
        m = _scrape(server.metrics_port)
        assert _value(m, "quansu_workers_live") == 0
        assert _value(m, "quansu_worker_deaths_total") == 1
        pool._factory = factory
        _wait_for(lambda: c.health() == "SERVING", 180, "SERVING again")
        status, _ = _http(server.http_port, "GET", "/v1/health")
        assert status == 200
        assert c.suggest(view_to_act("tan", 2, seed=1), iterations=5).stats.iterations == 5
        m = _scrape(server.metrics_port)
        assert _value(m, "quansu_workers_live") == 1
        assert _value(m, "quansu_worker_restarts_total") == 1


def test_health_is_not_serving_during_the_drain_before_the_port_closes():
    view = view_to_act("tienlen", 4, seed=5)
    with (
        running_server(workers=1, drain_notice_s=600, http_port=0) as (server, tgt),
        client(tgt) as c,
    ):
        assert c.health() == "SERVING"
        stopper = threading.Thread(target=server.stop, kwargs={"grace": 5.0}, daemon=True)
        stopper.start()
        # the notice lasts until end_notice(): health says NOT_SERVING, calls are still served
        _wait_for(lambda: c.health() == "NOT_SERVING", 60, "NOT_SERVING")
        status, body = _http(server.http_port, "GET", "/v1/health")
        assert status == 503 and json.loads(body)["status"] == "NOT_SERVING"
        assert c.suggest(view, iterations=5).stats.iterations == 5
        assert stopper.is_alive()
        server.end_notice()
        stopper.join(60)
        assert not stopper.is_alive()
        with pytest.raises(grpc.RpcError):
            c.health(timeout=5)


# -- readiness ----------------------------------------------------------------------------------


def test_ready_check_answers_one_suggest_per_game_and_language():
    engine = build_engine(uniform=True)
    asked = []
    real = engine.suggest_for_state

    def recording(state, **kw):
        resp = real(state, **kw)
        asked.append((state.game.name, kw["language"], len(resp.moves)))
        return resp

    engine.suggest_for_state = recording
    ready_check(engine)
    assert sorted({(g, lang) for g, lang, _ in asked}) == [
        (g, lang) for g in GAMES for lang in ("en", "vi")
    ]
    assert all(n >= 1 for _, _, n in asked)

    def broken(state, **kw):
        if state.game.name == "phom":
            raise ValueError("no evaluator")
        return real(state, **kw)

    engine.suggest_for_state = broken
    with pytest.raises(RuntimeError, match="ready check of game phom: ValueError: no evaluator"):
        ready_check(engine)
