"""The HTTP/JSON gateway (server/gateway.py) and the web page it serves.

A real server (one worker process, the uniform evaluator, a token) answers over gRPC and HTTP
at once: every route, the protobuf JSON mapping both ways, NDJSON streaming, the token, the
error mapping with field paths, a client that goes away (before the first line or mid-stream:
the analysis stops, its worker is freed, the call is logged CANCELLED), a whole bot game played
through the page's endpoints, and the page's files (content types, no external URL, ``node
--check``).  The statuses a busy or failing pool gives (429, 504, 503, 500) come from a gateway
over the same servicer with a pool that fails on purpose.  The Node client runs against the live
server when node and its npm packages are there.

The work each test asks for is bounded (iterations, and :data:`WORLDS` worlds per decision for
an analysis); waits are long (:data:`WAIT_S`) so that a busy machine makes a test slower, never
failed, and times are measured, never asserted.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import pytest
from google.protobuf import any_pb2, json_format
from google.rpc import code_pb2, error_details_pb2, status_pb2

from quansu.games import record as rec
from quansu.games.registry import game_names
from quansu.server import errors
from quansu.server.engine import Engine, Limits
from quansu.server.gateway import (
    CSP,
    WEB_DIR,
    Gateway,
    HttpServer,
    parse_error_field,
    parse_timeout,
)
from quansu.server.servicer import QuansuServicer
from quansu.server.v1 import service_pb2 as pb
from tests.helpers.service import (
    TLS_DIR,
    call_log,
    client,
    long_record,
    record_json,
    running_server,
    view_to_act,
)
from tests.service.test_node_client import need_node_client

ROOT = Path(__file__).resolve().parents[2]
NODE_DIR = ROOT / "clients" / "node"
TOKEN = "s3cret-token"
GAMES = game_names()
#: The analyses' cap of sampled worlds per decision (``max_worlds``): the work each test asks
#: for is bounded, a Tiến lên decision a few tens of milliseconds of one core instead of the
#: seconds of the game's default cap.
WORLDS = 64
#: A wait for the server (a worker freed, a call's end) fails only after this long: the work
#: waited for is bounded, so a slow or busy machine makes the test slower, never failed.
WAIT_S = 300.0


# -- HTTP helpers ------------------------------------------------------------------------------


def call(
    port: int,
    method: str,
    path: str,
    body=None,
    token: str | None = TOKEN,
    headers: dict | None = None,
    tls: ssl.SSLContext | None = None,
    raw: bytes | None = None,
    timeout: float = WAIT_S,
):
    """``(status, headers, body bytes)`` of one HTTP call (``timeout``: of each read)."""
    if tls is not None:
        conn = http.client.HTTPSConnection("localhost", port, timeout=timeout, context=tls)
    else:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    h = {"Content-Type": "application/json"}
    if token:
        h["Authorization"] = f"Bearer {token}"
    h.update(headers or {})
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    try:
        conn.request(method, path, body=data, headers=h)
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def post(port, path, body, **kw):
    return call(port, "POST", path, body, **kw)


def ok_json(result) -> dict:
    status, headers, body = result
    assert status == 200, body[:500]
    assert headers["content-type"].startswith("application/json")
    return json.loads(body)


def ndjson(result) -> list[dict]:
    status, headers, body = result
    assert status == 200, body[:500]
    assert headers["content-type"].startswith("application/x-ndjson")
    text = body.decode()
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def violation(result) -> tuple[int, str, str]:
    """``(HTTP status, field, description)`` of an error answer with one violation."""
    status, headers, body = result
    assert headers["content-type"].startswith("application/json")
    err = json.loads(body)["error"]
    assert err["code"] == status
    assert err["violations"], err
    v = err["violations"][0]
    return status, v["field"], v["description"]


# -- the live server ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def live():
    """``(server, grpc target, http port)``: one worker, a queue, the token."""
    with running_server(workers=1, queue_size=4, token=TOKEN, http_port=0, spare_workers=0) as (
        server,
        target,
    ):
        yield server, target, server.http_port


@pytest.fixture(scope="module")
def port(live):
    return live[2]


@pytest.fixture(scope="module")
def grpc_client(live):
    c = client(live[1], token=TOKEN)
    yield c
    c.close()


# -- the five RPCs -----------------------------------------------------------------------------


def test_games_is_describe_games(port, grpc_client):
    got = ok_json(call(port, "GET", "/v1/games"))
    want = json_format.MessageToDict(grpc_client.describe_games(), preserving_proto_field_name=True)
    assert got == want
    assert [g["name"] for g in got["games"]] == GAMES
    assert got["api_version"] == "quansu.v1"
    assert got["limits"]["workers"] == 1


def test_suggest_answers_as_grpc_does(port, grpc_client):
    view = view_to_act("tienlen", 4, seed=2)
    body = {"view": view, "budget": {"iterations": 60}, "top_k": 3, "seed": 11}
    got = ok_json(post(port, "/v1/suggest", body))
    want = grpc_client.suggest(view, iterations=60, top_k=3, seed=11)
    assert got["game"] == "tienlen" and got.get("seat", 0) == view["seat"]
    assert [m["move"]["text"] for m in got["moves"]] == [m.move.text for m in want.moves]
    assert [m["visits"] for m in got["moves"]] == [m.visits for m in want.moves]
    assert got["chosen"]["text"] == want.chosen.text
    assert got["stats"]["iterations"] == want.stats.iterations == 60
    # the .proto names come back (the names of the record files), not lowerCamelCase
    first = got["moves"][0]
    assert "visit_share" in first and "principal_line" in first and "visitShare" not in first


def test_suggest_takes_lower_camel_case_and_a_strength(port):
    view = view_to_act("phom", 3, seed=1)
    got = ok_json(post(port, "/v1/suggest", {"view": view, "topK": 2, "strength": 1, "seed": "5"}))
    assert len(got["moves"]) <= 2
    texts = {m["move"]["text"] for m in got["moves"]}
    assert got["chosen"]["text"]
    legal = ok_json(post(port, "/v1/legal-moves", {"view": view}))
    assert texts <= {m["text"] for m in legal["moves"]}


@pytest.mark.parametrize("game", GAMES)
def test_legal_moves_of_a_record(port, game):
    obj = record_json(game, 4, seed=3, moves=5)
    state = rec.replay_record(obj)
    got = ok_json(post(port, "/v1/legal-moves", {"record": obj}))
    assert got["game"] == game
    assert got.get("history_length", 0) == len(obj["moves"])
    if state.is_terminal():
        assert got["terminal"]
    else:
        assert got.get("to_act", 0) == state.current_player
        assert [m["text"] for m in got["moves"]] == rec.legal_move_texts(state)


def test_analyze_streams_one_json_object_per_line(port):
    obj = long_record("tienlen", 2, min_moves=6, seed=1)
    lines = ndjson(
        post(
            port,
            "/v1/analyze",
            {
                "record": obj,
                "seats": [0, 1],
                "budget": {"iterations": 20},
                "seed": 3,
                "max_worlds": WORLDS,
            },
        )
    )
    decisions = [x["decision"] for x in lines if "decision" in x]
    summaries = [x["summary"] for x in lines if "summary" in x]
    assert len(decisions) == len(obj["moves"])
    assert [d.get("index", 0) for d in decisions] == list(range(len(obj["moves"])))
    assert sorted(s.get("seat", 0) for s in summaries) == [0, 1]
    assert lines[-1]["summary"] and all("decision" in x for x in lines[: len(decisions)])
    dones = [x["done"] for x in lines]
    assert dones == sorted(dones) and lines[-1]["done"] == lines[-1]["total"]
    for d in decisions:
        assert d["mark"].startswith("MARK_")


def test_an_analysis_is_estimated_before_it_starts(port):
    """``/v1/web/estimate``: the decisions and choices the Analyze will judge (as its stream
    then counts them), and a time from one decision judged on the server (a probe), reused
    for the next request of the same game and settings."""
    obj = long_record("tienlen", 2, min_moves=6, seed=1)
    body = {"record": obj, "seats": [0], "budget": {"iterations": 20}, "max_worlds": WORLDS}
    first = ok_json(post(port, "/v1/web/estimate", body))
    lines = ndjson(post(port, "/v1/analyze", body))
    decisions = [x["decision"] for x in lines if "decision" in x]
    assert first["decisions"] == len(decisions) == lines[-1]["total"]
    assert first["choices"] == sum(1 for d in decisions if not d.get("forced"))
    assert first["worlds"] == WORLDS
    if first["choices"]:
        assert first["basis"] == "probe" and first["seconds"] > 0
    again = ok_json(post(port, "/v1/web/estimate", dict(body, seats=[0, 1])))
    assert again["basis"] == "measured" and again["decisions"] == len(obj["moves"])
    status, field, _ = violation(post(port, "/v1/web/estimate", dict(body, seats=[7])))
    assert (status, field) == (400, "seats[0]")


def test_suggest_stream_ends_with_the_final_ranking(port):
    view = view_to_act("tienlen", 4, seed=4)
    lines = ndjson(
        post(
            port,
            "/v1/suggest-stream",
            {
                "request": {"view": view, "budget": {"iterations": 400}, "seed": 1},
                "interval_ms": 20,
            },
        )
    )
    assert lines[-1]["final"] is True
    assert all(not x.get("final") for x in lines[:-1])
    assert lines[-1]["stats"]["iterations"] == 400


def test_lines_arrive_while_the_analysis_runs(port):
    """The first decision is readable before the last one is judged (streamed, not buffered)."""
    obj = long_record("tienlen", 2, min_moves=10, seed=2)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request(
            "POST",
            "/v1/analyze",
            body=json.dumps(
                {"record": obj, "seats": [0], "budget": {"iterations": 30}, "max_worlds": WORLDS}
            ),
            headers={"Authorization": f"Bearer {TOKEN}"},
        )
        resp = conn.getresponse()
        assert resp.status == 200
        assert resp.getheader("content-type").startswith("application/x-ndjson")
        first = json.loads(resp.readline())
        assert first["done"] == 1 and first["total"] > 1
        rest = [json.loads(line) for line in resp.read().decode().splitlines()]
        assert rest[-1]["done"] == rest[-1]["total"] == first["total"]
    finally:
        conn.close()


# -- errors keep their field paths ------------------------------------------------------------


def _bad_card_view():
    v = view_to_act("tienlen", 4, seed=0)
    seat = v["seat"]
    v["deal"]["hands"][seat]["cards"][0] = "1X"
    return v, f"view.deal.hands[{seat}].cards[0]"


def _illegal_record():
    obj = long_record("tienlen", 4, min_moves=10, seed=5)
    obj.pop("result", None)
    del obj["moves"][4:]
    obj["moves"].append({"seat": obj["moves"][-1]["seat"], "move": "pass"})  # not that seat's turn
    return obj, f"record.moves[{len(obj['moves']) - 1}]"


def _bad_inputs():
    view = view_to_act("tienlen", 4, seed=0)
    bad_seat = dict(view, seat=9)
    card_view, card_field = _bad_card_view()
    record, move_field = _illegal_record()
    return [
        ("/v1/suggest", {"view": bad_seat}, "view.seat"),
        ("/v1/suggest", {"view": dict(view, game="chess")}, "view.game"),
        ("/v1/suggest", {"view": view, "budget": {"iterations": 10**7}}, "budget.iterations"),
        ("/v1/suggest", {"view": view, "strength": 9}, "strength"),
        ("/v1/suggest", {"view": card_view}, card_field),
        ("/v1/suggest", {"view": view, "nope": 1}, "nope"),
        ("/v1/suggest", {"view": view, "top_k": "many"}, "top_k"),
        ("/v1/suggest", {"view": {"deal": {"hands": [{"count": "x"}]}}}, "view.deal.hands.count"),
        ("/v1/suggest", {}, "view"),
        ("/v1/legal-moves", {"record": record}, move_field),
        ("/v1/legal-moves", {}, "game"),
        ("/v1/analyze", {"record": record_json("tan", 2, seed=1), "seats": [-1]}, "seats[0]"),
        (
            "/v1/analyze",
            {"record": record_json("tan", 2, seed=1), "thresholds": {"good": -1}},
            "thresholds.good",
        ),
        ("/v1/suggest-stream", {"request": {"view": bad_seat}}, "request.view.seat"),
        ("/v1/suggest-stream", {"interval_ms": 5}, "request"),
    ]


@pytest.mark.parametrize(
    "path,body,field", _bad_inputs(), ids=[f"{p}:{f}" for p, _, f in _bad_inputs()]
)
def test_invalid_argument_is_400_with_the_field_path(port, path, body, field):
    status, got_field, description = violation(post(port, path, body))
    assert status == 400
    assert got_field == field, description
    assert description


def test_the_same_violation_as_grpc(port, grpc_client):
    record, field = _illegal_record()
    with pytest.raises(grpc.RpcError) as e:
        grpc_client.legal_moves(record)
    [(g_field, g_description)] = errors.field_violations(e.value)
    status, h_field, h_description = violation(post(port, "/v1/legal-moves", {"record": record}))
    assert (h_field, h_description) == (g_field, g_description) == (field, g_description)
    body = json.loads(post(port, "/v1/legal-moves", {"record": record})[2])["error"]
    assert body["status"] == "INVALID_ARGUMENT"
    assert body["details"][0]["@type"].endswith("google.rpc.BadRequest")


@pytest.mark.parametrize(
    "raw,what",
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "expected a JSON object"),
        (b"\xff\xfe", "not UTF-8"),
        (b'{"top_k": NaN}', "not valid JSON"),
        (b"[" * 100 + b"]" * 100, "expected a JSON object"),
        (b'{"a":' * 40 + b"1" + b"}" * 40, "nested deeper"),
    ],
)
def test_a_body_that_is_not_a_json_object_names_the_request(port, raw, what):
    status, field, description = violation(post(port, "/v1/suggest", None, raw=raw))
    assert (status, field) == (400, "request")
    assert what in description


def test_a_body_over_the_limit_is_refused_before_parsing(port):
    status, field, description = violation(
        post(port, "/v1/suggest", None, raw=b" " * (8 * 256 * 1024 + 1))
    )
    assert (status, field) == (400, "request") and "maximum" in description


def test_a_bad_timeout_header_names_it(port):
    view = view_to_act("tienlen", 4, seed=0)
    status, field, _ = violation(
        post(port, "/v1/suggest", {"view": view}, headers={"Grpc-Timeout": "soon"})
    )
    assert (status, field) == (400, "grpc-timeout")


def test_the_listening_socket_is_tcp_so_that_nagle_is_off():
    """asyncio disables Nagle's algorithm only on sockets whose ``proto`` is TCP; without it a
    kept-alive connection waits 40 ms (the client's delayed ACK) on every answer."""
    import socket

    from quansu.server.gateway import bind_tcp

    sock = bind_tcp("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP and sock.getsockname()[1] > 0
        sock.listen()
        with pytest.raises(OSError, match="cannot listen"):
            bind_tcp("127.0.0.1", sock.getsockname()[1]).close()
    finally:
        sock.close()


def test_parse_helpers():
    assert parse_timeout("2S") == 2.0 and parse_timeout("500m") == 0.5
    assert parse_timeout("1M") == 60.0 and parse_timeout(None) is None
    with pytest.raises(errors.RequestError):
        parse_timeout("2 seconds")
    assert (
        parse_error_field(
            'Message type "x.SuggestRequest" has no field named "q" at "SuggestRequest.view"'
        )
        == "view.q"
    )
    assert (
        parse_error_field("Failed to parse budget field: Failed to parse iterations field: bad")
        == "budget.iterations"
    )
    assert parse_error_field("something else") == "request"


# -- the token ---------------------------------------------------------------------------------


@pytest.mark.parametrize("token,message", [(None, "missing header"), ("wrong", "not valid")])
def test_the_token_is_required_as_a_bearer_header(port, token, message):
    for method, path, body in (
        ("GET", "/v1/games", None),
        ("POST", "/v1/legal-moves", {"record": record_json("tan", 2)}),
        ("POST", "/v1/analyze", {"record": record_json("tan", 2)}),
        ("POST", "/v1/web/new-game", {"game": "tienlen"}),
    ):
        status, headers, raw = call(port, method, path, body, token=token)
        assert status == 401, raw
        assert headers["www-authenticate"].startswith("Bearer")
        err = json.loads(raw)["error"]
        assert err["status"] == "UNAUTHENTICATED" and message in err["message"]


def test_health_and_the_page_need_no_token(port):
    status, _, body = call(port, "GET", "/v1/health", token=None)
    assert status == 200 and json.loads(body) == {"status": "SERVING"}
    status, headers, _ = call(port, "GET", "/", token=None)
    assert status == 200 and headers["content-type"].startswith("text/html")


# -- deadlines, cancellation -------------------------------------------------------------------


def _wait_for(cond, seconds: float = WAIT_S) -> None:
    end = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def test_deadline_while_the_worker_is_busy_is_504_and_a_client_that_leaves_frees_it(live):
    """One worker: a long analysis holds it; a call with a 300 ms deadline waits for it and gets
    504.  Closing the analysis' connection cancels the search and frees the worker."""
    server, _, port = live
    _wait_for(lambda: server.pool.stats().busy == 0)
    obj = long_record("tienlen", 4, min_moves=30, seed=3)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    view = view_to_act("tienlen", 4, seed=1)
    try:
        conn.request(
            "POST",
            "/v1/analyze",
            body=json.dumps({"record": obj, "budget": {"iterations": 50000}}),
            headers={"Authorization": f"Bearer {TOKEN}"},
        )
        _wait_for(lambda: server.pool.stats().busy == 1)  # the analysis holds the worker
        s, _, body = post(
            port,
            "/v1/suggest",
            {"view": view, "budget": {"iterations": 10}},
            headers={"Grpc-Timeout": "300m"},
        )
        err = json.loads(body)["error"]
        assert (s, err["status"]) == (504, "DEADLINE_EXCEEDED"), body
    finally:
        conn.close()  # the client goes away: the gateway cancels the analysis
    _wait_for(lambda: server.pool.stats().busy == 0)  # long before 30 decisions x 50000
    got = ok_json(
        post(
            port,
            "/v1/suggest",
            {"view": view, "budget": {"iterations": 10}},
            headers={"Grpc-Timeout": "60S"},
        )
    )
    assert got["stats"]["iterations"] == 10


def test_a_client_that_leaves_mid_stream_cancels_the_analysis(live):
    """The web page's Cancel: the client closes the connection after the first lines of an
    analysis.  The call ends CANCELLED with fewer decisions than the record holds, and its worker
    is freed by the cancel (not killed and replaced)."""
    server, _, port = live
    _wait_for(lambda: server.pool.stats().busy == 0)
    obj = long_record("tienlen", 4, min_moves=40, seed=3)
    total = len(obj["moves"])
    deaths = server.pool.stats().deaths
    with call_log() as calls:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S)
        try:
            # every seat, up to 1,024 worlds a decision: the rest takes far longer than reading
            # two lines and closing
            conn.request(
                "POST",
                "/v1/analyze",
                body=json.dumps({"record": obj, "budget": {"iterations": 10}, "max_worlds": 1024}),
                headers={"Authorization": f"Bearer {TOKEN}"},
            )
            resp = conn.getresponse()
            assert resp.status == 200
            lines = [json.loads(resp.readline()) for _ in range(2)]
            assert [x["done"] for x in lines] == [1, 2] and lines[0]["total"] == total
        finally:
            conn.close()  # the client goes away mid-stream
        _wait_for(lambda: calls.of("Analyze"))
    [ended] = calls.of("Analyze")
    assert ended["status"] == "CANCELLED" and 2 <= ended["decisions"] < total, ended
    _wait_for(lambda: server.pool.stats().busy == 0)
    assert server.pool.stats().deaths == deaths


# -- statuses of a pool that fails on purpose ----------------------------------------------------


def _bad_request_status(field: str, message: str) -> status_pb2.Status:
    detail = error_details_pb2.BadRequest(
        field_violations=[
            error_details_pb2.BadRequest.FieldViolation(field=field, description=message)
        ]
    )
    packed = any_pb2.Any()
    packed.Pack(detail)
    return status_pb2.Status(
        code=code_pb2.INVALID_ARGUMENT, message=f"{field}: {message}", details=[packed]
    )


class FailingPool:
    """A pool whose every job ends as ``self.failure`` says (after ``items`` good messages;
    with ``hold``, only once the call is no longer wanted, as a worker stopped by a cancel
    ends: quietly)."""

    size = 1
    queue_size = 0

    def __init__(self):
        self.failure: BaseException | None = None
        self.items: list[bytes] = []
        self.hold = False

    def run(self, kind, payload, seconds_left, is_active):
        yield from self.items
        if self.hold:
            end = time.monotonic() + WAIT_S
            while is_active() and time.monotonic() < end:
                time.sleep(0.01)
        if self.failure is not None:
            raise self.failure


@pytest.fixture(scope="module")
def failing():
    """``(pool, port)``: a gateway over the real servicer and a :class:`FailingPool`."""
    pool = FailingPool()
    engine = Engine(Limits(), evaluators=None, model_names={}, workers=1)
    gateway = Gateway(QuansuServicer(engine, pool), token=None, threads=4)
    server = HttpServer(gateway, "127.0.0.1", 0)
    port = server.start()
    yield pool, port, gateway
    server.stop(0)


FAILURES = [
    (errors.Busy("all 1 search workers are busy"), 429, "RESOURCE_EXHAUSTED"),
    (
        errors.DeadlineExceeded("the deadline passed while waiting for a worker"),
        504,
        "DEADLINE_EXCEEDED",
    ),
    (errors.Unavailable("the server is shutting down"), 503, "UNAVAILABLE"),
    (errors.Unauthenticated("no"), 401, "UNAUTHENTICATED"),
    (
        errors.RemoteError(_bad_request_status("view.moves[3]", "not legal")),
        400,
        "INVALID_ARGUMENT",
    ),
    (RuntimeError("a bug"), 500, "INTERNAL"),
]


@pytest.mark.parametrize("failure,status,name", FAILURES, ids=[f[2] for f in FAILURES])
def test_every_status_maps_to_its_http_status(failing, failure, status, name):
    pool, port, _ = failing
    pool.failure, pool.items = failure, []
    view = view_to_act("tienlen", 4, seed=0)
    for path, body in (
        ("/v1/suggest", {"view": view}),
        ("/v1/suggest-stream", {"request": {"view": view}}),
        ("/v1/analyze", {"view": view}),
        ("/v1/legal-moves", {"view": view}),
    ):
        got, headers, raw = post(port, path, body, token=None)
        err = json.loads(raw)["error"]
        assert (got, err["status"], err["code"]) == (status, name, status), (path, raw)
        if name == "INVALID_ARGUMENT":
            assert err["violations"] == [{"field": "view.moves[3]", "description": "not legal"}]
        if name in ("RESOURCE_EXHAUSTED", "UNAVAILABLE"):
            assert headers["retry-after"] == "1"
        if name == "INTERNAL":
            assert "a bug" not in err["message"]  # the traceback stays in the server log


def test_an_error_after_the_first_line_ends_the_stream_with_an_error_line(failing):
    pool, port, _ = failing
    msg = pb.AnalyzeResponse(done=1, total=3)
    msg.decision.index = 0
    pool.items = [msg.SerializeToString()]
    pool.failure = errors.Unavailable("a search worker died during the call; retry")
    lines = ndjson(post(port, "/v1/analyze", {"view": view_to_act("tan", 2, seed=0)}, token=None))
    assert lines[0]["done"] == 1 and "decision" in lines[0]
    assert lines[-1]["error"]["status"] == "UNAVAILABLE" and lines[-1]["error"]["code"] == 503


def test_a_stream_the_client_left_ends_cancelled_not_ok(failing):
    """A worker stopped because its client went away ends its stream quietly, with no error:
    the call is logged (and counted) CANCELLED, not OK.  A stream read to its end is OK."""
    pool, port, _ = failing
    msg = pb.AnalyzeResponse(done=1, total=3)
    msg.decision.index = 0
    pool.failure, pool.items, pool.hold = None, [msg.SerializeToString()], True
    view = view_to_act("tan", 2, seed=0)
    try:
        with call_log() as calls:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S)
            try:
                conn.request("POST", "/v1/analyze", body=json.dumps({"view": view}))
                resp = conn.getresponse()
                assert resp.status == 200 and json.loads(resp.readline())["done"] == 1
            finally:
                conn.close()
            _wait_for(lambda: calls.of("Analyze"))
        [ended] = calls.of("Analyze")
        assert (ended["status"], ended["decisions"]) == ("CANCELLED", 1), ended
        pool.hold = False
        with call_log() as calls:
            assert len(ndjson(post(port, "/v1/analyze", {"view": view}, token=None))) == 1
        [ended] = calls.of("Analyze")
        assert (ended["status"], ended["decisions"]) == ("OK", 1), ended
    finally:
        pool.hold = False


def test_a_draining_gateway_refuses_new_calls(failing):
    pool, port, gateway = failing
    pool.failure, pool.items = None, []
    gateway.draining = True
    try:
        status, _, raw = post(port, "/v1/suggest", {"view": view_to_act("tan", 2)}, token=None)
        assert status == 503 and json.loads(raw)["error"]["status"] == "UNAVAILABLE"
        assert call(port, "GET", "/v1/health", token=None)[0] == 503
    finally:
        gateway.draining = False


def test_https_with_the_servers_certificate(failing):
    """TLS: the gateway serves HTTPS only, with the gRPC port's certificate and key."""
    pool, _, _ = failing
    pool.failure, pool.items = None, []
    engine = Engine(Limits(), evaluators=None, model_names={}, workers=1)
    gateway = Gateway(QuansuServicer(engine, pool), token=None, threads=2)
    server = HttpServer(
        gateway, "127.0.0.1", 0, str(TLS_DIR / "server.crt"), str(TLS_DIR / "server.key")
    )
    port = server.start()
    try:
        ctx = ssl.create_default_context(cafile=str(TLS_DIR / "server.crt"))
        status, _, body = call(port, "GET", "/v1/health", token=None, tls=ctx)
        assert status == 200 and json.loads(body)["status"] == "SERVING"
        with pytest.raises((http.client.HTTPException, ConnectionError, OSError)):
            call(port, "GET", "/v1/health", token=None, timeout=10)
    finally:
        server.stop(0)


# -- the web page's helpers and a whole game through the gateway ---------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_new_game_deals_a_record_that_replays(port, game):
    got = ok_json(post(port, "/v1/web/new-game", {"game": game, "players": 3, "seed": 7}))
    assert got["seed"] == 7
    record = got["record"]
    assert record["format"] == rec.RECORD_FORMAT and record["players"] == 3
    rec.replay_record(record)
    again = ok_json(post(port, "/v1/web/new-game", {"game": game, "players": 3, "seed": 7}))
    assert again["record"] == record  # the same seed deals the same cards
    view = ok_json(post(port, "/v1/web/view", {"record": record, "seat": 1}))
    assert view["view"] == rec.view_at(record, 1)
    assert sorted(view["table"]["hand"]) == sorted(record["deal"]["hands"][1]["cards"])
    zones = {z["name"]: z for z in view["table"]["zones"]}
    assert zones["hand1"]["cards"] == view["table"]["hand"]
    assert zones["hand0"]["cards"] == [] and zones["hand0"]["count"] > 0  # not seat 1's to see
    assert view["table"]["text"]


@pytest.mark.parametrize(
    "path,body,field",
    [
        ("/v1/web/new-game", {"game": "chess"}, "game"),
        ("/v1/web/new-game", {"game": 3}, "game"),
        ("/v1/web/new-game", {"game": "tienlen", "players": 7}, "players"),
        ("/v1/web/new-game", {"game": "tienlen", "players": "four"}, "players"),
        ("/v1/web/new-game", {"game": "tienlen", "options": {"nope": 1}}, "options"),
        ("/v1/web/new-game", {"game": "tienlen", "seed": -1}, "seed"),
        ("/v1/web/new-game", {"game": "tienlen", "colour": "red"}, "colour"),
        ("/v1/web/view", {"seat": 0}, "record"),
        ("/v1/web/view", {"record": record_json("tienlen", 4, seed=1, moves=3)}, "seat"),
        ("/v1/web/view", {"record": record_json("tienlen", 4, seed=1, moves=3), "seat": 4}, "seat"),
        (
            "/v1/web/view",
            {"record": record_json("tienlen", 4, seed=1, moves=3), "seat": 0, "at": 9},
            "at",
        ),
        ("/v1/web/view", {"record": _illegal_record()[0], "seat": 0}, _illegal_record()[1]),
        (
            "/v1/web/view",
            {"record": {"game": "tienlen", "players": 4, "deal": "x"}, "seat": 0},
            "record",
        ),
    ],
)
def test_web_helpers_name_the_bad_field(port, path, body, field):
    status, got, description = violation(post(port, path, body))
    assert (status, got) == (400, field), description


def test_the_view_at_a_move_and_the_result_at_the_end(port):
    record = long_record("tan", 2, min_moves=6, seed=0)
    got = ok_json(post(port, "/v1/web/view", {"record": record, "seat": 0, "at": 3}))
    assert got["view"] == rec.view_at(record, 0, 3)
    assert not got["table"]["terminal"] and got["table"]["to_act"] >= 0
    end = ok_json(post(port, "/v1/web/view", {"record": record, "seat": 1}))
    assert end["table"]["terminal"] and end["table"]["to_act"] == -1
    state = rec.replay_record(record)
    assert end["table"]["returns"] == pytest.approx(state.returns())
    assert end["table"]["result"] == rec.result_json(state)


def _state_where(game_name: str, players: int, want, seed: int = 0):
    """A record of a game of rule-based moves cut at the first position where ``want(state)``,
    with that state (tries seeds from ``seed``)."""
    import random

    from quansu.games.registry import make

    game = make(game_name, players)
    for s in range(seed, seed + 200):
        state = game.new_initial_state(random.Random(s))
        rng = random.Random(s)
        while not state.is_terminal():
            if want(state):
                return rec.record_from_state(state), state
            state.apply(game.heuristic_move(state, rng))
    raise AssertionError(f"no {game_name} position found")


@pytest.mark.parametrize("game", GAMES)
def test_the_view_names_the_moves_and_orders_the_hand_as_a_player(port, game):
    """``language`` names the moves of the history in the page's language; the hand and the
    zones come in the game's own order (Phỏm's ace low, Tấn's trumps last)."""
    record = long_record(game, 4, min_moves=8, seed=2)
    state = rec.replay_record(record)
    g = state.game
    for lang in ("vi", "en"):
        table = ok_json(
            post(port, "/v1/web/view", {"record": record, "seat": 1, "at": 8, "language": lang})
        )["table"]
        moves = state.history[:8]
        assert table["history"] == [
            {
                "seat": s,
                "text": g.move_to_text(m),
                "label": g.move_label(m, lang),
                "group": g.move_group(m),
            }
            for s, m in moves
        ]
    vi = ok_json(
        post(port, "/v1/web/view", {"record": record, "seat": 1, "at": 8, "language": "vi"})
    )["table"]
    en = ok_json(post(port, "/v1/web/view", {"record": record, "seat": 1, "at": 8}))["table"]
    assert [m["label"] for m in vi["history"]] != [m["label"] for m in en["history"]]
    from quansu.games.cards import parse_card

    unfinished = {k: v for k, v in record.items() if k != "result"}
    cut = rec.replay_record(dict(unfinished, moves=record["moves"][:8]))
    hand = [parse_card(c) for c in vi["hand"]]
    assert hand == g.sort_cards(hand, cut.trump_card())
    assert sorted(hand) == sorted(c for c in range(52) if cut.known_cards(1)["hand1"] >> c & 1)
    if game == "phom" and any(c[0] == "A" for c in vi["hand"]):
        assert vi["hand"][0][0] == "A"  # the ace lowest
    assert vi["stake"] == g.stake


def test_tan_bout_is_attack_defence_pairs_with_its_roles_and_the_trump_once(port):
    from quansu.games.cards import card_str

    def bout(state):  # a bout with a throw-in and a defended card
        pairs = state.table_pairs() if state.table else []
        return len(pairs) >= 2 and any(d >= 0 for _, d in pairs)

    record, state = _state_where("tan", 4, bout)
    table = ok_json(post(port, "/v1/web/view", {"record": record, "seat": 0, "language": "vi"}))[
        "table"
    ]
    board = table["board"]
    assert board["kind"] == "bout" and board["phase"] == "bout"
    assert (board["attacker"], board["defender"]) == (state.attacker, state.defender)
    assert [(p["attack"], p["defence"]) for p in board["pairs"]] == [
        (card_str(a), card_str(d) if d >= 0 else None) for a, d in state.table_pairs()
    ]
    assert [p["throw_in"] for p in board["pairs"]] == [False] + [True] * (len(board["pairs"]) - 1)
    texts = {f"{s} {state.game.move_to_text(m)}" for s, m in state.history}
    for p in board["pairs"]:
        assert (
            f"{p['seat']} attack {p['attack']}" in texts
            or f"{p['seat']} throw {p['attack']}" in texts
        ), p
        if p["defence"]:
            assert p["defended_by"] == state.defender
            assert f"{p['defended_by']} defend {p['attack']} with {p['defence']}" in texts
    # the trump once: the face-up card (the one under the stock), which the stock's zone
    # also holds as a known card; the page draws it from `trump` only
    assert table["trump"] == board["trump"]
    if state.faceup >= 0:
        assert board["trump"] == card_str(state.faceup) and board["trump_under_stock"]
    assert board["trump_suit"] == "♠♣♦♥"[state.trump]
    # the swap round and the end
    first = ok_json(post(port, "/v1/web/view", {"record": record, "seat": 0, "at": 0}))["table"]
    assert first["board"]["phase"] in ("swap", "bout") and first["board"]["pairs"] == []


@pytest.mark.parametrize("game", ["tienlen", "samloc"])
def test_the_combination_to_beat(port, game):
    from quansu.games.cards import card_str

    def top(state):
        if game == "tienlen":
            return state.top and state.owner >= 0 and state.owner != state.current_player
        t = state.top
        return t is not None and t[0] != state.current_player

    record, state = _state_where(game, 4, top)
    board = ok_json(post(port, "/v1/web/view", {"record": record, "seat": 0, "language": "vi"}))[
        "table"
    ]["board"]
    owner, mask = (state.owner, state.top) if game == "tienlen" else state.top
    beat = board["to_beat"]
    assert beat["seat"] == owner
    assert sorted(beat["cards"]) == sorted(card_str(c) for c in range(52) if mask >> c & 1)
    last = [(s, m) for s, m in state.history if s == owner][-1]
    assert beat["text"] == state.game.move_to_text(last[1])
    assert beat["label"] == state.game.move_label(last[1], "vi")
    start = ok_json(post(port, "/v1/web/view", {"record": record, "seat": 0, "at": 0}))
    assert start["table"]["board"]["to_beat"] is None
    if game == "samloc":
        assert (
            start["table"]["board"]["declaring"]
            == rec.replay_record({**record, "moves": []}).in_declarations
        )


def test_phom_board_is_the_card_just_discarded(port):
    from quansu.games.cards import card_str

    def eat_or_draw(state):
        return any(state.game.describe_move(m).kind == "eat" for m in state.legal_moves())

    record, state = _state_where("phom", 4, eat_or_draw)
    table = ok_json(post(port, "/v1/web/view", {"record": record, "seat": 0, "language": "vi"}))[
        "table"
    ]
    seat, move = state.history[-1]
    info = state.game.describe_move(move)
    assert info.kind == "discard"
    assert table["board"] == {
        "kind": "discard",
        "last": {
            "seat": seat,
            "card": card_str(info.cards[0]),
            "text": state.game.move_to_text(move),
            "label": state.game.move_label(move, "vi"),
        },
    }
    assert f"eat {card_str(info.cards[0])}" in {
        state.game.move_to_text(m) for m in state.legal_moves()
    }
    assert table["trump"] is None
    # after a draw, nothing lies to eat
    drawn = dict(record, moves=record["moves"] + [{"seat": state.current_player, "move": "draw"}])
    table = ok_json(post(port, "/v1/web/view", {"record": drawn, "seat": 0}))["table"]
    assert table["board"] == {"kind": "discard", "last": None}


def test_the_view_checks_its_language_and_speaks_it_in_errors(port):
    record = record_json("tienlen", 4, seed=1, moves=3)
    status, field, description = violation(
        post(port, "/v1/web/view", {"record": record, "seat": 0, "language": "fr"})
    )
    assert (status, field) == (400, "language") and "'fr'" in description
    status, field, description = violation(
        post(port, "/v1/web/view", {"record": record, "seat": 9, "language": "vi"})
    )
    assert (status, field, description) == (400, "seat", "9 ngoài khoảng 0..3")
    status, field, description = violation(
        post(port, "/v1/web/view", {"record": record, "seat": 9})
    )
    assert (status, field, description) == (400, "seat", "9 is out of range 0..3")


def test_a_resigned_game_is_an_unfinished_record_the_server_takes(port):
    """What the page keeps of a resigned game: the moves played, no result.  The referee
    replays it, LegalMoves says it is not over, and Analyze judges the decisions played."""
    record = record_json("tienlen", 4, seed=3, moves=6)
    record.pop("result", None)
    state = rec.replay_record(record)
    assert not state.is_terminal()
    legal = ok_json(post(port, "/v1/legal-moves", {"record": record}))
    assert not legal.get("terminal") and legal["moves"]
    seat = record["moves"][0]["seat"]
    lines = ndjson(
        post(
            port,
            "/v1/analyze",
            {"record": record, "seats": [seat], "budget": {"iterations": 10}, "max_worlds": WORLDS},
        )
    )
    mine = sum(m["seat"] == seat for m in record["moves"])
    assert sum("decision" in line for line in lines) == mine


def test_a_whole_bot_game_through_the_pages_endpoints(port):
    """What the page does: deal, then until the game ends, the seat to act's view and a level-1
    bot's move from Suggest; the human seat plays its first legal move from LegalMoves.  The
    finished record, with the result the page adds, is a valid quansu-record/1 file and is
    analyzed."""
    record = ok_json(post(port, "/v1/web/new-game", {"game": "tienlen", "players": 2, "seed": 12}))[
        "record"
    ]
    record.setdefault("moves", [])
    human = 0
    for _ in range(200):
        legal = ok_json(post(port, "/v1/legal-moves", {"record": record}))
        if legal.get("terminal"):
            break
        seat = legal.get("to_act", 0)
        if seat == human:
            move = legal["moves"][0]["text"]
        else:
            view = ok_json(post(port, "/v1/web/view", {"record": record, "seat": seat}))["view"]
            move = ok_json(
                post(
                    port, "/v1/suggest", {"view": view, "strength": 1, "seed": len(record["moves"])}
                )
            )["chosen"]["text"]
        record["moves"].append({"seat": seat, "move": move})
    else:
        pytest.fail("the game did not end in 200 moves")
    end = ok_json(post(port, "/v1/web/view", {"record": record, "seat": human}))["table"]
    record["result"] = end["result"]
    state = rec.replay_record(record)  # the downloaded file is valid, result included
    assert state.is_terminal()
    lines = ndjson(
        post(
            port,
            "/v1/analyze",
            {
                "record": record,
                "seats": [human],
                "budget": {"iterations": 10},
                "max_worlds": WORLDS,
            },
        )
    )
    assert lines[-1]["summary"].get("seat", 0) == human
    assert lines[-1]["summary"]["payoff"] == pytest.approx(state.returns()[human])


# -- the page ----------------------------------------------------------------------------------

PAGE_FILES = {
    "/": "text/html",
    "/index.html": "text/html",
    "/app.js": "text/javascript",
    "/style.css": "text/css",
}


def _page_texts(lang: str) -> dict[str, str]:
    """The keys of the page's own texts in ``lang`` (app.js ``TEXTS``)."""
    js = (WEB_DIR / "app.js").read_text(encoding="utf-8")
    start = js.index(f"  {lang}: {{")
    block = js[start : js.index("\n  },", start)]
    return set(re.findall(r"(?:^ +|, )([A-Za-z_]+): (?=[\"\[])", block, re.M))


def test_the_page_has_every_text_in_english_and_vietnamese():
    en, vi = _page_texts("en"), _page_texts("vi")
    assert len(en) > 100 and en == vi, en ^ vi
    js = (WEB_DIR / "app.js").read_text(encoding="utf-8")
    html = (WEB_DIR / "index.html").read_text(encoding="utf-8")
    used = set(re.findall(r"\bt\(\"([A-Za-z_]+)\"", js)) | set(
        re.findall(r'data-i18n="(\w+)"', html)
    )
    used = {key for key in used if not key.endswith("_")}  # t("w_" + word): words
    assert used and used <= en, used - en


@pytest.mark.parametrize("path,content_type", PAGE_FILES.items())
def test_the_page_is_served_with_its_content_type(port, path, content_type):
    status, headers, body = call(port, "GET", path, token=None)
    assert status == 200
    assert headers["content-type"].split(";")[0] == content_type
    assert headers["content-security-policy"] == CSP
    assert headers["x-content-type-options"] == "nosniff"
    name = "index.html" if path == "/" else path[1:]
    assert body == (WEB_DIR / name).read_bytes()


def test_unknown_page_files_are_404(port):
    for path in ("/nope.js", "/..%2Fgateway.py", "/gateway.py"):
        assert call(port, "GET", path, token=None)[0] == 404


#: XML namespace names are identifiers, never fetched.
NAMESPACES = {"http://www.w3.org/2000/svg"}


def test_the_page_uses_nothing_outside_the_server():
    texts = {p.name: p.read_text(encoding="utf-8") for p in WEB_DIR.iterdir() if p.is_file()}
    assert {"index.html", "app.js", "style.css"} <= set(texts)
    for name, text in texts.items():
        urls = set(re.findall(r"(?:https?:)?//[A-Za-z0-9.-]+\.[A-Za-z]{2,}[^\s\"'`)]*", text))
        assert urls <= NAMESPACES, (name, urls - NAMESPACES)
        assert "@import" not in text and "url(" not in text.replace("url(#", ""), name
    html = texts["index.html"]
    for ref in re.findall(r'(?:src|href)="([^"]+)"', html):
        assert ref in texts or ref.startswith("data:"), ref  # the page's own files only
    js = texts["app.js"]
    for path in re.findall(r'api(?:Stream)?\("([^"]+)"', js):
        assert path.startswith("/v1/"), path
    assert "innerHTML" not in js and "eval(" not in js  # texts are never parsed as HTML


def test_the_page_speaks_vietnamese_and_english():
    js = (WEB_DIR / "app.js").read_text(encoding="utf-8")
    html = (WEB_DIR / "index.html").read_text(encoding="utf-8")
    keys = set(re.findall(r'data-i18n="([a-z_]+)"', html))
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the texts table is checked by evaluating app.js")
    script = (
        "const vm=require('vm');const fs=require('fs');const c={document:{addEventListener(){}}};"
        "vm.createContext(c);vm.runInContext(fs.readFileSync(process.argv[1],'utf8')+"
        "';globalThis.__t=TEXTS;',c);"
        "process.stdout.write(JSON.stringify({t:c.__t}))"
    )
    out = json.loads(
        subprocess.run(
            [node, "-e", script, str(WEB_DIR / "app.js")],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout
    )
    en, vi = out["t"]["en"], out["t"]["vi"]
    assert set(en) == set(vi)
    assert keys <= set(en), keys - set(en)
    assert all(en[k] != vi[k] for k in ("tab_play", "hint", "game_over", "analysis"))
    # reasons: the server's texts in the page's language (tests/service/test_i18n.py), no table here
    assert "REASONS_VI" not in js and "language: S.lang" in js
    assert "♠" in js and "♣" in js and "♦" in js and "♥" in js


def test_app_js_parses_with_node():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    r = subprocess.run(
        [node, "--check", str(WEB_DIR / "app.js")], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr


# -- the Node client -----------------------------------------------------------------------------


def test_node_client_sources_parse():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    for name in ("index.js", "example.js"):
        r = subprocess.run(
            [node, "--check", str(NODE_DIR / name)], capture_output=True, text=True, timeout=60
        )
        assert r.returncode == 0, r.stderr


def test_node_client_against_the_live_server(live):
    # skipped without node or its packages, failed instead under QUANSU_NODE_TESTS=required
    need_node_client(("@grpc/grpc-js", "@grpc/proto-loader"))
    _, target, _ = live
    r = subprocess.run(
        ["node", "example.js", target, "--token", TOKEN, "--iterations", "40"],
        cwd=NODE_DIR,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert any(line.startswith("hint ") for line in lines)
    assert any(line.startswith("decision #") for line in lines)
    assert any(line.startswith("summary seat 0 accuracy=") for line in lines)
    assert any(line.startswith("refused view.seat: ") for line in lines), r.stdout
    bad = subprocess.run(
        ["node", "example.js", target, "--token", "wrong"],
        cwd=NODE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 1 and "token" in bad.stderr


# -- quansu serve --http-port -----------------------------------------------------------------


def test_serve_with_http_port_serves_both_and_drains_on_sigterm(tmp_path):
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "quansu",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--http-port",
            "0",
            "--workers",
            "1",
            "--uniform",
            "--drain",
            "2",
            "--log-level",
            "INFO",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    found = threading.Event()
    box: dict = {}

    def read() -> None:
        for line in proc.stderr:
            lines.append(line)
            m = re.search(r"HTTP/JSON gateway and web page on http://127\.0\.0\.1:(\d+)/", line)
            if m:
                box["port"] = int(m.group(1))
                found.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        end = time.monotonic() + WAIT_S
        while not found.wait(0.1):  # until the line, the process's end, or WAIT_S
            assert reader.is_alive() and time.monotonic() < end, "".join(lines)
        port = box["port"]
        status, _, body = call(port, "GET", "/v1/health", token=None)
        assert status == 200 and json.loads(body)["status"] == "SERVING"
        games = ok_json(call(port, "GET", "/v1/games", token=None))
        assert [g["name"] for g in games["games"]] == GAMES
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=WAIT_S) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    assert "quansu" in proc.stdout.read()
    with pytest.raises(OSError):
        call(port, "GET", "/v1/health", token=None, timeout=5)


def test_serve_refuses_a_bad_http_port():
    r = subprocess.run(
        [sys.executable, "-m", "quansu", "serve", "--http-port", "70000"],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, QUANSU_TOKEN=""),
    )
    assert r.returncode == 2 and "--http-port" in r.stderr


# -- bench/service.py --gateway ----------------------------------------------------------------


def test_the_gateway_overhead_benchmark_measures_both_ways():
    """``python bench/service.py --gateway`` on a few calls: the same Suggest through gRPC and
    the gateway (it raises if the two ever rank different moves), a p50 each way."""
    from quansu.bench import service

    g = service.gateway_overhead(calls=8, iterations=1, views=4)
    assert g["calls"] == 8 and g["iterations"] == 1
    assert 0 < g["grpc_p50_ms"] and 0 < g["http_p50_ms"]  # times: measured, not bounded
    assert g["overhead_p50_ms"] == pytest.approx(g["http_p50_ms"] - g["grpc_p50_ms"])


def test_the_gateways_own_errors_are_coded_and_in_the_callers_language(port):
    """The gateway's own checks (the body, the web helpers) carry a stable code (the
    violation's reason) and speak Vietnamese when the body's ``language`` or
    ``Accept-Language`` asks for it; the token is checked by the same code as gRPC's."""
    status, headers, body = post(
        port, "/v1/suggest", None, raw=b"[1, 2]", headers={"Accept-Language": "vi-VN,vi;q=0.9"}
    )
    err = json.loads(body)["error"]
    assert status == 400 and err["violations"][0]["field"] == "request"
    assert err["violations"][0]["description"].startswith("cần một đối tượng JSON")
    assert "REQUEST_NOT_JSON_OBJECT" in json.dumps(err["details"]), err["details"]
    status, _, body = post(port, "/v1/web/view", {"seat": 0, "language": "vi"})
    v = json.loads(body)["error"]["violations"][0]
    assert (status, v["field"]) == (400, "record") and v["description"].startswith("thiếu")
    status, _, body = post(port, "/v1/web/new-game", {"game": 7})
    v = json.loads(body)["error"]["violations"][0]
    assert (v["field"], v["description"]) == ("game", "expected a game name, got a number")
