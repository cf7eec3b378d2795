"""Fuzzing the running service: malformed and mutated requests on every RPC.

    python -m quansu.bench.fuzz --requests 100000 --clients 3   # a server of its own (2 workers)
    python -m quansu.bench.fuzz --requests 20000 --target 127.0.0.1:50051

Each request is either raw bytes (random, or a valid request cut short, with flipped bytes or
garbage appended) or a structured mutation of a valid view or record of every game (fields set
to odd values of the right type: huge and negative numbers, NaN and infinities, long and odd
strings, moves deleted, repeated, reordered or rewritten, extreme option values, odd budgets,
seats and thresholds), sent as bytes to Suggest, SuggestStream, Analyze, LegalMoves,
DescribeGames or the health check.  A tenth of the calls get a short deadline (50-500 ms).

Only documented outcomes are accepted (:func:`problems`): OK with finite numbers only,
INVALID_ARGUMENT with a BadRequest field, RESOURCE_EXHAUSTED, DEADLINE_EXCEEDED for a call with
a short deadline, NOT_FOUND for a health check of an unknown service.  Anything else (INTERNAL,
UNKNOWN, a hang past the long deadline, a dead server) is a problem; the run prints every
distinct problem with the request that caused it, the status counts, and exits 1 if there was
any.

The mutations take their choices from a :class:`Chooser`: :class:`RandomChooser` here and in
``bench/soak.py``, hypothesis's draws in ``tests/service/test_service_fuzz.py``.
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import random
import sys
import threading
import time
from collections import Counter
from typing import Any, Sequence

import grpc
from google.protobuf import struct_pb2
from google.protobuf.message import DecodeError, Message

from quansu.server.v1 import records_pb2
from quansu.server.v1 import service_pb2 as pb

SERVICE = "/quansu.v1.QuansuService/"
HEALTH = "/grpc.health.v1.Health/Check"

#: method -> (request type, response type, streaming response)
METHODS: dict[str, tuple[type[Message] | None, type[Message] | None, bool]] = {
    SERVICE + "Suggest": (pb.SuggestRequest, pb.SuggestResponse, False),
    SERVICE + "SuggestStream": (pb.SuggestStreamRequest, pb.SuggestResponse, True),
    SERVICE + "Analyze": (pb.AnalyzeRequest, pb.AnalyzeResponse, True),
    SERVICE + "LegalMoves": (pb.LegalMovesRequest, pb.LegalMovesResponse, False),
    SERVICE + "DescribeGames": (pb.DescribeGamesRequest, pb.DescribeGamesResponse, False),
    HEALTH: (None, None, False),
}

#: The long deadline of a call without a short one: a call still running then is a hang.
HANG_S = 60.0


class Chooser:
    """Where a mutation takes its choices from."""

    def integer(self, lo: int, hi: int) -> int:
        raise NotImplementedError

    def pick(self, seq: Sequence[Any]) -> Any:
        return seq[self.integer(0, len(seq) - 1)]

    def boolean(self) -> bool:
        return self.integer(0, 1) == 1


class RandomChooser(Chooser):
    def __init__(self, rng: random.Random):
        self.rng = rng

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)


# -- odd values of each type ----------------------------------------------------------------------

INT32 = (0, 1, -1, 2, 3, 4, 5, 7, 13, 51, 52, 53, 100, 255, 1000, 2**31 - 1, -(2**31))
FLOATS = (
    0.0,
    -0.0,
    0.5,
    1.0,
    -1.0,
    2.5,
    999.0,
    1000.0,
    1000.5,
    10000.0,
    1e6,
    1e15,
    1e300,
    -1e300,
    5e-324,
    float(2**53),
    math.nan,
    math.inf,
    -math.inf,
)
TEXTS = (
    "",
    "pass",
    "draw",
    "take",
    "done",
    "u",
    "swap",
    "declare",
    "decline",
    "lay",
    "3S",
    "2H 2D",
    "10H",
    "♠A",
    "3s",
    "ZZ",
    "eat 9H",
    "lay 3S 4S 5S",
    "send 0 6S",
    "attack 5C",
    "defend 5C 7C",
    "throw 9D",
    "discard KH",
    "3S 4S 5S 6S 7S",
    "quansu-view/1",
    "quansu-record/1",
    "quansu-view/9",
    "tienlen",
    "phom",
    "samloc",
    "tan",
    "chess",
    "\x00",
    "ệ" * 80,
    "x" * 300,
    "3S " * 100,
    "\ud7ff" * 3,
    "-1",
    "NaN",
)
CARD_TEXTS = (
    "3S",
    "3C",
    "AH",
    "2H",
    "KD",
    "TC",
    "10H",
    "1X",
    "",
    "♠A",
    "3s",
    "S3",
    "ZZZZ",
    "x" * 40,
)
OPTION_NAMES = (
    "first_game",
    "settlement_mode",
    "rank_payments",
    "cong_multiplier",
    "count_unit",
    "instant_win_payment",
    "u_payment",
    "mom_payment",
    "eat_payments",
    "previous_u_winner",
    "u_khan_payment",
    "sam_amount",
    "chop_quad",
    "thoi_two",
    "previous_winner",
    "bao_mot_mode",
    "loss_amount",
    "direction",
    "trump_swap",
    "no_such_rule",
    "x" * 80,
)


def odd_int(ch: Chooser) -> int:
    return ch.pick(INT32) if ch.boolean() else ch.integer(-5, 60)


def odd_float(ch: Chooser) -> float:
    return ch.pick(FLOATS) if ch.boolean() else ch.integer(-2000, 2000) / 8


def odd_text(ch: Chooser) -> str:
    return ch.pick(TEXTS)


def odd_value(ch: Chooser, depth: int = 0) -> struct_pb2.Value:
    v = struct_pb2.Value()
    kind = ch.integer(0, 6 if depth < 2 else 3)
    if kind == 0:
        v.number_value = odd_float(ch)
    elif kind == 1:
        v.string_value = odd_text(ch)
    elif kind == 2:
        v.bool_value = ch.boolean()
    elif kind == 3:
        v.null_value = struct_pb2.NULL_VALUE
    elif kind in (4, 5):
        for _ in range(ch.pick((0, 1, 2, 4, 40))):
            v.list_value.values.append(odd_value(ch, depth + 1))
    else:
        v.struct_value.fields[ch.pick(OPTION_NAMES)].CopyFrom(odd_value(ch, depth + 1))
    return v


# -- mutations of a record or view message ----------------------------------------------------------


def _mut_source(ch: Chooser, m) -> None:
    """One random change of a View or Record message, in place."""
    is_view = isinstance(m, records_pb2.View)
    n_moves = len(m.moves)
    kinds = [
        "players",
        "game",
        "format",
        "option",
        "options_many",
        "card",
        "card_add",
        "card_del",
        "hand_add",
        "hand_del",
        "count",
        "first",
        "trump",
        "stock",
        "move_del",
        "move_dup",
        "move_swap",
        "move_text",
        "move_seat",
        "move_insert",
        "moves_repeat",
        "moves_cut",
        "result_net",
        "result_transfer",
    ]
    if is_view:
        kinds += ["seat", "seat_clear", "drawn"]
    kind = ch.pick(kinds)
    hands = m.deal.hands
    if kind == "players":
        m.players = odd_int(ch)
    elif kind == "game":
        m.game = odd_text(ch)
    elif kind == "format":
        m.format = odd_text(ch)
    elif kind == "seat":
        m.seat = odd_int(ch)
    elif kind == "seat_clear":
        m.ClearField("seat")
    elif kind == "option":
        m.options.fields[ch.pick(OPTION_NAMES)].CopyFrom(odd_value(ch))
    elif kind == "options_many":
        for i in range(ch.pick((3, 30, 70))):
            m.options.fields[f"o{i}"].number_value = odd_float(ch)
    elif kind in ("card", "card_add", "card_del") and hands:
        hand = hands[ch.integer(0, len(hands) - 1)]
        if kind == "card_add" or not hand.cards:
            for _ in range(ch.pick((1, 1, 2, 60))):
                hand.cards.append(ch.pick(CARD_TEXTS))
        elif kind == "card":
            hand.cards[ch.integer(0, len(hand.cards) - 1)] = ch.pick(CARD_TEXTS)
        else:
            del hand.cards[ch.integer(0, len(hand.cards) - 1)]
    elif kind == "hand_add":
        hands.add(count=odd_int(ch))
    elif kind == "hand_del" and hands:
        del hands[ch.integer(0, len(hands) - 1)]
    elif kind == "count" and hands:
        hands[ch.integer(0, len(hands) - 1)].count = odd_int(ch)
    elif kind == "first":
        m.deal.first = odd_int(ch)
    elif kind == "trump":
        m.deal.trump = ch.pick(CARD_TEXTS)
    elif kind == "stock":
        m.deal.stock.append(ch.pick(CARD_TEXTS))
    elif kind == "drawn":
        m.drawn.append(ch.pick(CARD_TEXTS))
    elif kind == "move_del" and n_moves:
        del m.moves[ch.integer(0, n_moves - 1)]
    elif kind == "move_dup" and n_moves:
        i = ch.integer(0, n_moves - 1)
        m.moves.add().CopyFrom(m.moves[i])
    elif kind == "move_swap" and n_moves >= 2:
        i, j = ch.integer(0, n_moves - 1), ch.integer(0, n_moves - 1)
        a, b = records_pb2.Event(), records_pb2.Event()
        a.CopyFrom(m.moves[i])
        b.CopyFrom(m.moves[j])
        m.moves[i].CopyFrom(b)
        m.moves[j].CopyFrom(a)
    elif kind == "move_text" and n_moves:
        m.moves[ch.integer(0, n_moves - 1)].move = odd_text(ch)
    elif kind == "move_seat" and n_moves:
        m.moves[ch.integer(0, n_moves - 1)].seat = odd_int(ch)
    elif kind == "move_insert":
        events = [records_pb2.Event() for _ in range(n_moves)]
        for e, src in zip(events, m.moves):
            e.CopyFrom(src)
        events.insert(
            ch.integer(0, n_moves), records_pb2.Event(seat=ch.integer(-1, 4), move=odd_text(ch))
        )
        del m.moves[:]
        m.moves.extend(events)
    elif kind == "moves_repeat" and n_moves:
        times = ch.pick((2, 5, 50, 400))
        events = list(m.moves) * times
        copies = [records_pb2.Event() for _ in events]
        for c, e in zip(copies, events):
            c.CopyFrom(e)
        del m.moves[:]
        m.moves.extend(copies)
    elif kind == "moves_cut" and n_moves:
        del m.moves[ch.integer(0, n_moves - 1) :]
    elif kind == "result_net":
        for _ in range(ch.pick((1, 4, 12))):
            m.result.net.append(odd_float(ch))
    elif kind == "result_transfer":
        m.result.transfers.add(payer=odd_int(ch), payee=odd_int(ch), amount=odd_float(ch))


def _mut_request(ch: Chooser, req: Message) -> None:
    """One random change of a request's own fields (budget, top_k, seats, ...)."""
    if isinstance(req, pb.SuggestStreamRequest):
        if ch.boolean():
            req.interval_ms = odd_int(ch)
            return
        req = req.request
    if isinstance(req, pb.SuggestRequest):
        field = ch.pick(("top_k", "strength", "iterations", "milliseconds", "seed", "clear"))
        if field in ("top_k", "strength"):
            setattr(req, field, odd_int(ch))
        elif field in ("iterations", "milliseconds"):
            setattr(req.budget, field, odd_int(ch))
        elif field == "seed":
            req.seed = ch.pick((0, 1, 2**64 - 1, 12345))
        else:
            req.ClearField("view")
    elif isinstance(req, pb.AnalyzeRequest):
        field = ch.pick(
            ("seats", "iterations", "milliseconds", "threshold", "seed", "clear", "max_worlds")
        )
        if field == "max_worlds":
            req.max_worlds = ch.pick((-1, 1, 3, 4097, 2**31 - 1, -(2**31)))
        elif field == "seats":
            for _ in range(ch.pick((1, 2, 12))):
                req.seats.append(odd_int(ch))
        elif field in ("iterations", "milliseconds"):
            setattr(req.budget, field, odd_int(ch))
        elif field == "threshold":
            setattr(req.thresholds, ch.pick(("good", "inaccuracy", "mistake")), odd_float(ch))
        elif field == "seed":
            req.seed = ch.pick((0, 2**64 - 1))
        else:
            req.ClearField(req.WhichOneof("game") or "view")
    elif isinstance(req, pb.LegalMovesRequest) and ch.boolean():
        req.ClearField(req.WhichOneof("game") or "view")


def _source_of(req: Message):
    if isinstance(req, pb.SuggestStreamRequest):
        req = req.request
    if isinstance(req, pb.SuggestRequest):
        return req.view if req.HasField("view") else None
    which = req.WhichOneof("game")
    return getattr(req, which) if which else None


def base_sources(seed: int = 0) -> list[tuple[str, Message]]:
    """Valid views (of the seat to act, with a choice) and records of every game: ``(kind,
    message)`` with kind ``"view"`` or ``"record"``."""
    from quansu.games import record as rec
    from quansu.games.registry import game_names, make
    from quansu.server import convert

    out: list[tuple[str, Message]] = []
    for g, name in enumerate(game_names()):
        for players in (4, 2):
            rng = random.Random(seed * 1000 + g * 10 + players)
            game = make(name, players)
            for _ in range(50):
                state = game.new_initial_state(rng)
                stop_at = rng.randint(2, 12)
                k = 0
                while not state.is_terminal() and k < stop_at:
                    state.apply(rng.choice(state.legal_moves()))
                    k += 1
                if not state.is_terminal() and len(state.legal_moves()) > 1:
                    break
            if not state.is_terminal():
                out.append(
                    (
                        "view",
                        convert.record_message(rec.view_from_state(state, state.current_player)),
                    )
                )
                out.append(("record", convert.record_message(rec.record_from_state(state))))
            while not state.is_terminal():
                state.apply(rng.choice(state.legal_moves()))
            out.append(("record", convert.record_message(rec.record_from_state(state))))
    return out


def request_for(method: str, kind: str, source: Message, ch: Chooser) -> Message:
    """A valid request of ``method`` around ``source`` (a Suggest needs a view)."""
    budget = pb.Budget(iterations=ch.pick((1, 5, 20)))
    if method.endswith("/LegalMoves"):
        return pb.LegalMovesRequest(**{kind: source})
    if method.endswith("/Analyze"):
        # at most 32 worlds a decision (a mutation may set another cap): the games' own
        # defaults (up to 4,096) would make every valid Analyze a minute of a worker's time
        return pb.AnalyzeRequest(**{kind: source}, budget=budget, max_worlds=ch.pick((2, 8, 32)))
    view = source if kind == "view" else None
    req = pb.SuggestRequest(budget=budget, top_k=ch.integer(0, 6), seed=ch.integer(0, 9))
    if view is not None:
        req.view.CopyFrom(view)
    else:  # a record's bytes where a view is expected
        try:
            req.view.ParseFromString(source.SerializeToString())
        except DecodeError:
            req.view.game = source.game
    if method.endswith("/SuggestStream"):
        return pb.SuggestStreamRequest(request=req, interval_ms=ch.pick((0, 20, 50)))
    return req


def structured_case(ch: Chooser, sources: list[tuple[str, Message]]) -> tuple[str, bytes]:
    """A mutated request: ``(method, body)``."""
    method = ch.pick([m for m in METHODS if m.startswith(SERVICE) and "Describe" not in m])
    kind, source = ch.pick(sources)
    src = type(source)()
    src.CopyFrom(source)
    req = request_for(method, kind, src, ch)
    for _ in range(ch.integer(0, 3)):
        target = _source_of(req)
        if target is not None and ch.integer(0, 3):
            _mut_source(ch, target)
        else:
            _mut_request(ch, req)
    body = req.SerializeToString()
    if ch.integer(0, 9) == 0:
        body = byte_mutation(ch, body)
    return method, body


def byte_mutation(ch: Chooser, body: bytes) -> bytes:
    """A valid body cut short, with a byte flipped, or with garbage appended."""
    kind = ch.integer(0, 2)
    if kind == 0 and body:
        return body[: ch.integer(0, len(body) - 1)]
    if kind == 1 and body:
        i = ch.integer(0, len(body) - 1)
        return body[:i] + bytes([body[i] ^ (1 << ch.integer(0, 7))]) + body[i + 1 :]
    return body + bytes(ch.integer(0, 255) for _ in range(ch.integer(1, 8)))


def raw_case(ch: Chooser) -> tuple[str, bytes]:
    """Random bytes to a random method (health included)."""
    method = ch.pick(list(METHODS))
    n = ch.pick((0, 1, 2, 8, 64, 300))
    return method, bytes(ch.integer(0, 255) for _ in range(n))


def malformed_case(ch: Chooser, sources) -> tuple[str, bytes]:
    """A body that does not parse, or a mutated one (soak's malformed share)."""
    if ch.boolean():
        return raw_case(ch)
    return structured_case(ch, sources)


# -- calling and judging ------------------------------------------------------------------------------


def call(channel: grpc.Channel, method: str, body: bytes, timeout: float):
    """``(code, details, responses, rpc error)``: the responses as bytes."""
    streaming = METHODS[method][2]
    try:
        if streaming:
            out = list(channel.unary_stream(method)(body, timeout=timeout))
        else:
            out = [channel.unary_unary(method)(body, timeout=timeout)]
        return grpc.StatusCode.OK, "", out, None
    except grpc.RpcError as e:
        return e.code(), e.details() or "", [], e


def problems(
    method: str, code, details: str, responses: list[bytes], error, short: bool
) -> list[str]:
    """What is wrong with an outcome (empty: a documented one)."""
    from quansu.server.errors import field_violations
    from quansu.server.servicer import non_finite_fields

    out = []
    if code == grpc.StatusCode.OK:
        resp_type = METHODS[method][1]
        for data in responses:
            if resp_type is None:
                continue
            try:
                msg = resp_type.FromString(data)
            except DecodeError:
                out.append("an answer that does not parse")
                continue
            bad = non_finite_fields(msg)
            if bad:
                out.append(f"non-finite numbers at {bad[:3]}")
        return out
    if code == grpc.StatusCode.INVALID_ARGUMENT:
        if error is not None and not field_violations(error):
            out.append(f"INVALID_ARGUMENT without a field: {details[:100]}")
        if len(details) > 1000:
            out.append(f"an error text of {len(details)} characters")
        return out
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
        return out
    if code == grpc.StatusCode.DEADLINE_EXCEEDED and short:
        return out
    if code == grpc.StatusCode.NOT_FOUND and method == HEALTH:
        return out
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return [f"hang: no answer within {HANG_S:g} s"]
    return [f"{code.name}: {details[:120]}"]


def _stream(
    channel,
    requests: int,
    seed: int,
    sources,
    codes: Counter,
    found: dict,
    lock: threading.Lock,
    done: list[int],
) -> None:
    """Send ``requests`` fuzzed requests drawn from ``random.Random(seed)``, one at a time."""
    rng = random.Random(seed)
    ch = RandomChooser(rng)
    for _ in range(requests):
        method, body = raw_case(ch) if rng.random() < 0.3 else structured_case(ch, sources)
        short = rng.random() < 0.1
        timeout = rng.uniform(0.05, 0.5) if short else HANG_S
        code, details, responses, error = call(channel, method, body, timeout)
        bad = problems(method, code, details, responses, error, short)
        with lock:
            codes[code.name] += 1
            done[0] += 1
            for p in bad:
                key = p.split(":")[0]
                if key not in found:
                    found[key] = f"{p} <- {method} {base64.b64encode(body[:2000]).decode()}"


def run(
    target: str, requests: int, seed: int, report_every: float = 30.0, clients: int = 1
) -> dict:
    """Send ``requests`` fuzzed requests to ``target`` from ``clients`` threads at once (the
    requests split evenly; client ``k`` draws from its own generator, seeded ``seed`` for the
    first and ``(seed, k)`` for the others, so a run is the same set of requests whatever the
    interleaving)."""
    sources = base_sources(seed)
    codes: Counter = Counter()
    found: dict[str, str] = {}
    lock = threading.Lock()
    done = [0]
    t0 = time.monotonic()
    with grpc.insecure_channel(target) as channel:
        threads = []
        for k in range(clients):
            n = requests // clients + (1 if k < requests % clients else 0)
            s = seed if k == 0 else seed * 1_000_003 + k
            threads.append(
                threading.Thread(
                    target=_stream,
                    args=(channel, n, s, sources, codes, found, lock, done),
                    daemon=True,
                )
            )
        for t in threads:
            t.start()
        last = t0
        while any(t.is_alive() for t in threads):
            time.sleep(0.2)
            if time.monotonic() - last > report_every:
                last = time.monotonic()
                with lock:
                    print(
                        f"{done[0]} requests, {dict(codes)}, {len(found)} problems", file=sys.stderr
                    )
    return {
        "requests": requests,
        "clients": clients,
        "seconds": round(time.monotonic() - t0, 1),
        "codes": dict(codes),
        "problems": found,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--requests", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--target", help="HOST:PORT of a running server (default: start one)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--clients",
        type=int,
        default=1,
        help="requests in flight at once (threads, each with its own stream)",
    )
    args = ap.parse_args(argv)
    if args.clients < 1:
        ap.error("--clients: at least 1")
    if args.target:
        out = run(args.target, args.requests, args.seed, clients=args.clients)
    else:
        from quansu.server.app import QuansuServer, ServerConfig
        from quansu.server.engine import Limits

        # small budgets: the fuzz is about what reaches the engine, not about search time
        # (Analyze's paired evaluation too: 32 worlds a decision, not the games' 1,024-4,096)
        limits = Limits(
            default_iterations=10,
            max_iterations=100,
            max_ms=50,
            max_analyze_decisions=10,
            default_worlds=32,
            max_worlds=64,
        )
        server = QuansuServer(
            ServerConfig(
                host="127.0.0.1",
                port=0,
                workers=args.workers,
                queue_size=64,
                uniform=True,
                limits=limits,
            )
        )
        port = server.start()
        try:
            out = run(f"127.0.0.1:{port}", args.requests, args.seed, clients=args.clients)
            out["pool"] = vars(server.pool.stats())
        finally:
            server.stop(grace=2)
    print(json.dumps(out, indent=1))
    return 1 if out["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
