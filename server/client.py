"""A small typed Python client of the quansu gRPC service.

    from quansu.server.client import Client, build_view

    view = build_view("tienlen", players=4, seat=0,
                      hand="3S 5D 6C 7H 8H 9S TC JD QS KH AS 2C 2H",
                      moves=[], first=0)
    with Client("127.0.0.1:50051") as c:
        answer = c.suggest(view, iterations=400, top_k=3, seed=7)
        for s in answer.moves:
            print(s.move.text, round(s.expected_payoff, 2), [r.code for r in s.reasons])

Every method takes messages or the plain JSON objects of ``quansu-view/1`` /
``quansu-record/1`` files (as :func:`json.load` gives them), and returns the response messages of
``proto/quansu/v1/service.proto``.  Errors are :class:`grpc.RpcError`;
:func:`server.errors.field_violations` lists an INVALID_ARGUMENT's field paths.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator, Mapping, Sequence

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from quansu.server import convert
from quansu.server.v1 import records_pb2
from quansu.server.v1 import service_pb2 as pb
from quansu.server.v1 import service_pb2_grpc

RecordOrView = records_pb2.Record | records_pb2.View | Mapping[str, Any]


def _cards(cards: str | Sequence[str]) -> list[str]:
    if isinstance(cards, str):
        return cards.replace(",", " ").split()
    return [str(c) for c in cards]


def build_view(game: str, players: int, seat: int, hand: str | Sequence[str], *,
               moves: Iterable[tuple[int, str]] = (), counts: Sequence[int] | None = None,
               options: Mapping[str, Any] | None = None, drawn: str | Sequence[str] = (),
               first: int = 0, trump: str | None = None) -> records_pb2.View:
    """A ``quansu-view/1`` message from cards and moves in canonical text.

    ``hand``: the seat's cards as dealt (``"3S 4S 5H"`` or a list).  ``counts``: how many cards
    each seat was dealt (default: every seat as many as ``hand``).  ``moves``: the public history
    as ``(seat, move text)``.  ``options``: only those that differ from the defaults.
    ``drawn``: the seat's own draws from the stock, in order.  ``trump``: Tấn's face-up card.
    The service validates everything; this only builds the message.
    """
    hand = _cards(hand)
    counts = list(counts) if counts is not None else [len(hand)] * players
    view = records_pb2.View(format="quansu-view/1", game=game, players=players, seat=seat,
                            drawn=_cards(drawn))
    view.options.update(dict(options or {}))
    for s in range(players):
        if s == seat:
            view.deal.hands.add(cards=hand)
        else:
            view.deal.hands.add(count=counts[s])
    view.deal.first = first
    if trump is not None:
        view.deal.trump = trump
    for s, text in moves:
        view.moves.add(seat=s, move=text)
    return view


def as_message(obj: RecordOrView) -> records_pb2.Record | records_pb2.View:
    """A record or view message from a message or a JSON object."""
    if isinstance(obj, (records_pb2.Record, records_pb2.View)):
        return obj
    return convert.record_message(dict(obj))


def load(path: str) -> records_pb2.Record | records_pb2.View:
    """Read a ``quansu-record/1`` or ``quansu-view/1`` JSON file as its message."""
    with open(path, encoding="utf-8") as f:
        return as_message(json.load(f))


def _budget(iterations: int, milliseconds: int) -> pb.Budget:
    return pb.Budget(iterations=iterations, milliseconds=milliseconds)


class Client:
    """A connection to a quansu server.

    ``target``: ``"host:port"``.  ``token``: sent as ``authorization: Bearer <token>``.
    ``tls_ca``: PEM bytes or a file path of the certificate(s) to trust; with it the channel
    uses TLS (``server_name``: the name to check in the server's certificate, when it differs
    from the target's host).  ``timeout``: default deadline per call in seconds (None: none).
    """

    def __init__(self, target: str, *, token: str | None = None, tls_ca: bytes | str | None = None,
                 server_name: str | None = None, timeout: float | None = None):
        options = []
        if tls_ca is not None:
            ca = tls_ca
            if isinstance(ca, str):
                with open(ca, "rb") as f:
                    ca = f.read()
            if server_name:
                options.append(("grpc.ssl_target_name_override", server_name))
            self.channel = grpc.secure_channel(target, grpc.ssl_channel_credentials(ca), options)
        else:
            self.channel = grpc.insecure_channel(target, options)
        self.stub = service_pb2_grpc.QuansuServiceStub(self.channel)
        self.health_stub = health_pb2_grpc.HealthStub(self.channel)
        self.metadata = [("authorization", f"Bearer {token}")] if token else None
        self.timeout = timeout

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.channel.close()

    def _kw(self, timeout: float | None) -> dict:
        return {"timeout": timeout if timeout is not None else self.timeout, "metadata": self.metadata}

    # -- RPCs ----------------------------------------------------------------------------------
    def describe_games(self, *, timeout: float | None = None) -> pb.DescribeGamesResponse:
        return self.stub.DescribeGames(pb.DescribeGamesRequest(), **self._kw(timeout))

    def legal_moves(self, game: RecordOrView, *, timeout: float | None = None) -> pb.LegalMovesResponse:
        return self.stub.LegalMoves(self.legal_moves_request(game), **self._kw(timeout))

    @staticmethod
    def legal_moves_request(game: RecordOrView) -> pb.LegalMovesRequest:
        msg = as_message(game)
        if isinstance(msg, records_pb2.View):
            return pb.LegalMovesRequest(view=msg)
        return pb.LegalMovesRequest(record=msg)

    @staticmethod
    def suggest_request(view: RecordOrView, *, iterations: int = 0, milliseconds: int = 0,
                        top_k: int = 0, strength: int = 0, seed: int | None = None) -> pb.SuggestRequest:
        msg = as_message(view)
        if not isinstance(msg, records_pb2.View):
            raise TypeError("Suggest takes a seat's view (format quansu-view/1), not a full record")
        req = pb.SuggestRequest(view=msg, budget=_budget(iterations, milliseconds), top_k=top_k,
                                strength=strength)
        if seed is not None:
            req.seed = seed
        return req

    def suggest(self, view: RecordOrView, *, iterations: int = 0, milliseconds: int = 0,
                top_k: int = 0, strength: int = 0, seed: int | None = None,
                timeout: float | None = None) -> pb.SuggestResponse:
        """Ranked moves for the view's seat (zero budget fields: the server's defaults)."""
        req = self.suggest_request(view, iterations=iterations, milliseconds=milliseconds,
                                   top_k=top_k, strength=strength, seed=seed)
        return self.stub.Suggest(req, **self._kw(timeout))

    def suggest_stream(self, view: RecordOrView, *, interval_ms: int = 0, iterations: int = 0,
                       milliseconds: int = 0, top_k: int = 0, strength: int = 0,
                       seed: int | None = None, timeout: float | None = None) -> Iterator[pb.SuggestResponse]:
        """Partial rankings every ``interval_ms`` and then the final one (``final``).  The
        returned iterator is also a call: ``.cancel()`` stops the search."""
        req = self.suggest_request(view, iterations=iterations, milliseconds=milliseconds,
                                   top_k=top_k, strength=strength, seed=seed)
        return self.stub.SuggestStream(pb.SuggestStreamRequest(request=req, interval_ms=interval_ms),
                                       **self._kw(timeout))

    @staticmethod
    def analyze_request(game: RecordOrView, *, seats: Sequence[int] = (), iterations: int = 0,
                        milliseconds: int = 0, thresholds: Mapping[str, float] | None = None,
                        seed: int | None = None) -> pb.AnalyzeRequest:
        msg = as_message(game)
        req = pb.AnalyzeRequest(seats=list(seats), budget=_budget(iterations, milliseconds),
                                thresholds=pb.Thresholds(**dict(thresholds or {})))
        if isinstance(msg, records_pb2.View):
            req.view.CopyFrom(msg)
        else:
            req.record.CopyFrom(msg)
        if seed is not None:
            req.seed = seed
        return req

    def analyze(self, game: RecordOrView, *, seats: Sequence[int] = (), iterations: int = 0,
                milliseconds: int = 0, thresholds: Mapping[str, float] | None = None,
                seed: int | None = None, timeout: float | None = None) -> Iterator[pb.AnalyzeResponse]:
        """One message per judged decision, then one summary per seat."""
        req = self.analyze_request(game, seats=seats, iterations=iterations,
                                   milliseconds=milliseconds, thresholds=thresholds, seed=seed)
        return self.stub.Analyze(req, **self._kw(timeout))

    def health(self, service: str = "", *, timeout: float | None = 5.0) -> str:
        """``"SERVING"``, ``"NOT_SERVING"``, ... of the server (or one service)."""
        resp = self.health_stub.Check(health_pb2.HealthCheckRequest(service=service),
                                      timeout=timeout)
        return health_pb2.HealthCheckResponse.ServingStatus.Name(resp.status)
