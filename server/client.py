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
import socket
import ssl
from typing import Any, Iterable, Iterator, Mapping, Sequence

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from quansu.server import convert
from quansu.server.v1 import records_pb2
from quansu.server.v1 import service_pb2 as pb
from quansu.server.v1 import service_pb2_grpc

RecordOrView = records_pb2.Record | records_pb2.View | Mapping[str, Any]

#: The port ``quansu serve`` listens on, and the one a target without a port goes to.
DEFAULT_PORT = 50051

#: gRPC target schemes left as they are (``dns:///host:port``, ``unix:/path``, ...).
_SCHEMES = ("dns:", "unix:", "unix-abstract:", "ipv4:", "ipv6:", "vsock:")


class TargetError(ValueError):
    """A server address that cannot be used."""


def normalize_target(target: str) -> str:
    """``host:port`` for a server address: ``"localhost"`` -> ``"localhost:50051"``,
    ``"::1"`` or ``"[::1]"`` -> ``"[::1]:50051"``; a target with a port or a gRPC scheme
    (``dns:``, ``unix:``, ...) is kept.  Raises :class:`TargetError` for an empty host or a port
    that is not a number in 1..65535."""
    if not isinstance(target, str) or not target.strip():
        raise TargetError("server address: empty (expected HOST or HOST:PORT)")
    t = target.strip()
    if t.startswith(_SCHEMES):
        return t
    if t.startswith("["):  # [v6] or [v6]:port
        end = t.find("]")
        if end < 0:
            raise TargetError(f"server address {target!r}: missing ']' after the IPv6 address")
        host, rest = t[:end + 1], t[end + 1:]
        if not rest:
            return f"{host}:{DEFAULT_PORT}"
        if not rest.startswith(":"):
            raise TargetError(f"server address {target!r}: expected ':PORT' after {host}")
        port = rest[1:]
    elif t.count(":") >= 2:  # a bare IPv6 address
        return f"[{t}]:{DEFAULT_PORT}"
    elif ":" in t:
        host, port = t.rsplit(":", 1)
        if not host:
            raise TargetError(f"server address {target!r}: no host before ':{port}'")
    else:
        return f"{t}:{DEFAULT_PORT}"
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise TargetError(f"server address {target!r}: port {port!r} is not a number in 1..65535")
    return t


def _host_port(target: str) -> tuple[str, int] | None:
    """(host, port) of a normalized ``host:port`` target; None for scheme targets."""
    if target.startswith(_SCHEMES):
        return None
    host, _, port = target.rpartition(":")
    return host.strip("[]"), int(port)


def speaks_tls(host: str, port: int, timeout: float = 3.0) -> bool | None:
    """Whether the server at host:port answers a TLS handshake (certificates are not checked:
    this only tells TLS from plaintext).  None when it cannot be reached at all."""
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    ctx.set_alpn_protocols(["h2"])
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError:
        return None
    try:
        with ctx.wrap_socket(sock, server_hostname=host) as tls:
            tls.settimeout(timeout)
            return True
    except (ssl.SSLError, ConnectionError, socket.timeout):
        return False
    except OSError:
        return False
    finally:
        sock.close()


def diagnose(error: grpc.RpcError, target: str, tls: bool) -> str | None:
    """A sentence for a person when a call to ``target`` failed with UNAVAILABLE because no
    server listens there or because client and server disagree on TLS; None otherwise (or when
    the error is something else)."""
    code = getattr(error, "code", None)
    if code is None or code() != grpc.StatusCode.UNAVAILABLE:
        return None
    hp = _host_port(target)
    if hp is None:
        return None
    host, port = hp
    server_tls = speaks_tls(host, port)
    if server_tls is None:
        return f"nothing answers at {target} (is `quansu serve` running there, on that port?)"
    if server_tls and not tls:
        return (f"the server at {target} seems to use TLS and this client connected in "
                f"plaintext; pass --tls-ca CERT.pem (the server's certificate or its CA)")
    if tls and not server_tls:
        return (f"the server at {target} seems to use plaintext and this client connected "
                f"with TLS; drop --tls-ca (or start the server with --tls-cert/--tls-key)")
    return None


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

    ``target``: ``"host:port"`` (``"host"`` alone: port 50051).  ``token``: sent as ``authorization: Bearer <token>``.
    ``tls_ca``: PEM bytes or a file path of the certificate(s) to trust; with it the channel
    uses TLS (``server_name``: the name to check in the server's certificate, when it differs
    from the target's host).  ``timeout``: default deadline per call in seconds (None: none).
    """

    def __init__(self, target: str, *, token: str | None = None, tls_ca: bytes | str | None = None,
                 server_name: str | None = None, timeout: float | None = None):
        target = normalize_target(target)
        self.target = target
        self.tls = tls_ca is not None
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

    def diagnose(self, error: grpc.RpcError) -> str | None:
        """Why a call failed with UNAVAILABLE, when it is clear: nothing listens at the target,
        or the server uses TLS and this client does not (or the other way round)."""
        return diagnose(error, self.target, self.tls)

    def _kw(self, timeout: float | None) -> dict:
        return {"timeout": timeout if timeout is not None else self.timeout, "metadata": self.metadata}

    # -- RPCs ----------------------------------------------------------------------------------
    def describe_games(self, *, timeout: float | None = None) -> pb.DescribeGamesResponse:
        return self.stub.DescribeGames(pb.DescribeGamesRequest(), **self._kw(timeout))

    def legal_moves(self, game: RecordOrView, *, language: str = "",
                    timeout: float | None = None) -> pb.LegalMovesResponse:
        """The seat to act and its legal moves; ``language`` ("vi", "en"): the language of an
        INVALID_ARGUMENT's description (why the record or view is refused)."""
        return self.stub.LegalMoves(self.legal_moves_request(game, language=language),
                                    **self._kw(timeout))

    @staticmethod
    def legal_moves_request(game: RecordOrView, *, language: str = "") -> pb.LegalMovesRequest:
        msg = as_message(game)
        if isinstance(msg, records_pb2.View):
            return pb.LegalMovesRequest(view=msg, language=language)
        return pb.LegalMovesRequest(record=msg, language=language)

    @staticmethod
    def suggest_request(view: RecordOrView, *, iterations: int = 0, milliseconds: int = 0,
                        top_k: int = 0, strength: int = 0, seed: int | None = None,
                        language: str = "") -> pb.SuggestRequest:
        msg = as_message(view)
        if not isinstance(msg, records_pb2.View):
            raise TypeError("Suggest takes a seat's view (format quansu-view/1), not a full record")
        req = pb.SuggestRequest(view=msg, budget=_budget(iterations, milliseconds), top_k=top_k,
                                strength=strength, language=language)
        if seed is not None:
            req.seed = seed
        return req

    def suggest(self, view: RecordOrView, *, iterations: int = 0, milliseconds: int = 0,
                top_k: int = 0, strength: int = 0, seed: int | None = None, language: str = "",
                timeout: float | None = None) -> pb.SuggestResponse:
        """Ranked moves for the view's seat (zero budget fields: the server's defaults).
        ``language`` ("vi", "en"; "": English): the reasons' ``text`` and an INVALID_ARGUMENT's
        description."""
        req = self.suggest_request(view, iterations=iterations, milliseconds=milliseconds,
                                   top_k=top_k, strength=strength, seed=seed, language=language)
        return self.stub.Suggest(req, **self._kw(timeout))

    def suggest_stream(self, view: RecordOrView, *, interval_ms: int = 0, iterations: int = 0,
                       milliseconds: int = 0, top_k: int = 0, strength: int = 0,
                       seed: int | None = None, language: str = "",
                       timeout: float | None = None) -> Iterator[pb.SuggestResponse]:
        """Partial rankings every ``interval_ms`` and then the final one (``final``).  The
        returned iterator is also a call: ``.cancel()`` stops the search.  ``language`` as in
        :meth:`suggest`."""
        req = self.suggest_request(view, iterations=iterations, milliseconds=milliseconds,
                                   top_k=top_k, strength=strength, seed=seed, language=language)
        return self.stub.SuggestStream(pb.SuggestStreamRequest(request=req, interval_ms=interval_ms),
                                       **self._kw(timeout))

    @staticmethod
    def analyze_request(game: RecordOrView, *, seats: Sequence[int] = (), iterations: int = 0,
                        milliseconds: int = 0, thresholds: Mapping[str, float] | None = None,
                        seed: int | None = None, language: str = "") -> pb.AnalyzeRequest:
        msg = as_message(game)
        req = pb.AnalyzeRequest(seats=list(seats), budget=_budget(iterations, milliseconds),
                                thresholds=pb.Thresholds(**dict(thresholds or {})),
                                language=language)
        if isinstance(msg, records_pb2.View):
            req.view.CopyFrom(msg)
        else:
            req.record.CopyFrom(msg)
        if seed is not None:
            req.seed = seed
        return req

    def analyze(self, game: RecordOrView, *, seats: Sequence[int] = (), iterations: int = 0,
                milliseconds: int = 0, thresholds: Mapping[str, float] | None = None,
                seed: int | None = None, language: str = "",
                timeout: float | None = None) -> Iterator[pb.AnalyzeResponse]:
        """One message per judged decision, then one summary per seat.  ``language`` ("vi",
        "en"; "": English): the reasons' ``text`` in ``Decision.top`` and an
        INVALID_ARGUMENT's description."""
        req = self.analyze_request(game, seats=seats, iterations=iterations,
                                   milliseconds=milliseconds, thresholds=thresholds, seed=seed,
                                   language=language)
        return self.stub.Analyze(req, **self._kw(timeout))

    def health(self, service: str = "", *, timeout: float | None = 5.0) -> str:
        """``"SERVING"``, ``"NOT_SERVING"``, ... of the server (or one service)."""
        resp = self.health_stub.Check(health_pb2.HealthCheckRequest(service=service),
                                      timeout=timeout)
        return health_pb2.HealthCheckResponse.ServingStatus.Name(resp.status)
