"""A small typed Python client of the quansu gRPC service.

    from quansu.client import Client, build_view

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
:func:`server.errors.field_violations` lists an INVALID_ARGUMENT's field paths.  A call the
server refuses because it is busy (RESOURCE_EXHAUSTED) raises :class:`ServerBusy`, a
:class:`grpc.RpcError` whose ``retry_after_s`` is the server's retry delay; with
``Client(retries=N)`` the client itself waits that long (times a random factor in 0.5..1.5) and
tries again, up to N times (docs/api.md, "Busy servers and retries"), and a call that fails with
UNAVAILABLE (a server or replica that went away with the call) is sent again by gRPC's retry
policy.  Several servers (replicas, docs/scaling.md): ``Client(["host1:50051", "host2:50051"])``,
``Client("host1:50051,host2:50051")`` or ``Client("dns:///quansu.example:50051")`` spread the
calls over them (gRPC's ``round_robin``).
"""

from __future__ import annotations

import json
import random
import socket
import ssl
import time
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, TypeAlias

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from quansu.server import convert
from quansu.server.errors import retry_after_s as _retry_after_s
from quansu.server.v1 import records_pb2, service_pb2_grpc
from quansu.server.v1 import service_pb2 as pb

RecordOrView: TypeAlias = records_pb2.Record | records_pb2.View | Mapping[str, Any]

#: The port ``quansu serve`` listens on, and the one a target without a port goes to.
DEFAULT_PORT = 50051

#: gRPC target schemes left as they are (``dns:///host:port``, ``unix:/path``, ...).
_SCHEMES = ("dns:", "unix:", "unix-abstract:", "ipv4:", "ipv6:", "vsock:")


#: A refused client's wait when the server gave no retry delay: this many seconds, doubled at
#: every further refusal, up to :data:`RETRY_FALLBACK_MAX_S` (before the jitter).
RETRY_FALLBACK_S = 0.1
RETRY_FALLBACK_MAX_S = 10.0
#: The range of the random factor a retry's wait is multiplied by.
RETRY_JITTER = (0.5, 1.5)


#: gRPC's cap on the attempts of its retry policy (the first one included).
MAX_ATTEMPTS = 5
#: The service whose calls gRPC's retry policy sends again after UNAVAILABLE: every method is
#: safe to send twice (nothing is written; Suggest and Analyze answer the same for the same seed,
#: and a request without a seed gets one from the view's digest).
_SERVICE = "quansu.v1.QuansuService"
#: Targets that gRPC resolves to several addresses: spread with ``round_robin``.
_BALANCED_SCHEMES = ("dns:", "ipv4:", "ipv6:")


class TargetError(ValueError):
    """A server address that cannot be used."""


class ServerBusy(grpc.RpcError):
    """A call the server refused with RESOURCE_EXHAUSTED (every worker busy and its queue full),
    after the retries the client was allowed.  ``retry_after_s``: the server's retry delay in
    seconds (its ``grpc-retry-pushback-ms`` trailer, or the ``google.rpc.RetryInfo`` detail),
    None when the server gave none.  ``attempts``: how many times the call was sent.  ``error``:
    gRPC's own error of the last attempt; ``code()``, ``details()``, ``trailing_metadata()``
    and the rest are its, so the code that handles a :class:`grpc.RpcError` works unchanged."""

    def __init__(self, error: grpc.RpcError, retry_after_s: float | None, attempts: int = 1):
        super().__init__(error)
        self.error = error
        self.retry_after_s = retry_after_s
        self.attempts = attempts

    def code(self) -> grpc.StatusCode:
        return self.error.code()

    def details(self) -> str:
        return self.error.details()

    def trailing_metadata(self):
        return self.error.trailing_metadata()

    def initial_metadata(self):
        return self.error.initial_metadata()

    def debug_error_string(self) -> str:
        return self.error.debug_error_string()

    def __str__(self) -> str:
        after = "" if self.retry_after_s is None else f"; retry after {self.retry_after_s:g} s"
        return f"{self.error.details()} ({self.attempts} attempt(s){after})"


def _refused(error: grpc.RpcError) -> bool:
    code = getattr(error, "code", None)
    return callable(code) and code() == grpc.StatusCode.RESOURCE_EXHAUSTED


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
        host, rest = t[: end + 1], t[end + 1 :]
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


def split_targets(target: str | Sequence[str]) -> list[str]:
    """The normalized addresses of one server or several: a list of addresses, or one string
    with commas between them (``"a:50051,b:50051"``); a scheme target (``dns:///name:port``,
    ``ipv4:1.2.3.4:1,1.2.3.5:1``) is one address.  Raises :class:`TargetError`."""
    if isinstance(target, str):
        t = target.strip()
        parts = [t] if t.startswith(_SCHEMES) else t.split(",")
    else:
        parts = list(target)
        if not parts:
            raise TargetError("server addresses: none given")
    out = [normalize_target(p) for p in parts]
    if len(out) > 1 and any(p.startswith(_SCHEMES) for p in out):
        raise TargetError(
            "server addresses: a scheme target (dns:, ipv4:, ...) must be the only "
            "one; list several servers as HOST:PORT"
        )
    return out


def balanced_target(targets: Sequence[str]) -> str:
    """One gRPC target for several ``host:port`` servers: each host resolved now (its IPv4
    addresses when it has any), as ``ipv4:a:p,b:p`` (or ``ipv6:[a]:p,...``).  Addresses are not
    looked up again later: for a set of servers that changes, give a ``dns:///NAME:PORT`` whose
    name resolves to all of them.  Raises :class:`TargetError`."""
    v4: list[str] = []
    v6: list[str] = []
    for target in targets:
        hp = _host_port(target)
        assert hp is not None, f"{target!r} names a scheme; only host:port targets are balanced"
        host, port = hp
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as e:
            raise TargetError(f"server address {target!r}: cannot resolve {host!r}: {e}") from None
        four = [i[4][0] for i in infos if i[0] == socket.AF_INET]
        six = [i[4][0] for i in infos if i[0] == socket.AF_INET6]
        if four:
            v4 += [f"{a}:{port}" for a in dict.fromkeys(four)]
        elif six:
            v6 += [f"[{a}]:{port}" for a in dict.fromkeys(six)]
    if v4 and v6:
        raise TargetError(
            "server addresses: some resolve to IPv4 only and some to IPv6 only; "
            "give one dns:///NAME:PORT for all of them"
        )
    return "ipv4:" + ",".join(v4) if v4 else "ipv6:" + ",".join(v6)


def service_config(retries: int, balanced: bool) -> dict:
    """The channel's gRPC service config: ``round_robin`` over the addresses when ``balanced``;
    with ``retries`` > 0 a retry policy that sends a call of the service again after UNAVAILABLE
    (``min(retries + 1, 5)`` attempts in all; a stream only while it has received nothing),
    after a random wait of up to 0.1 s, doubling to 1 s."""
    config: dict = {}
    if balanced:
        config["loadBalancingConfig"] = [{"round_robin": {}}]
    if retries > 0:
        config["methodConfig"] = [
            {
                "name": [{"service": _SERVICE}],
                "retryPolicy": {
                    "maxAttempts": min(retries + 1, MAX_ATTEMPTS),
                    "initialBackoff": "0.1s",
                    "maxBackoff": "1s",
                    "backoffMultiplier": 2,
                    "retryableStatusCodes": ["UNAVAILABLE"],
                },
            }
        ]
    return config


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
    hp = None if "," in target else _host_port(target)  # several servers: no one to ask
    if hp is None:
        return None
    host, port = hp
    server_tls = speaks_tls(host, port)
    if server_tls is None:
        return f"nothing answers at {target} (is `quansu serve` running there, on that port?)"
    if server_tls and not tls:
        return (
            f"the server at {target} seems to use TLS and this client connected in "
            f"plaintext; pass --tls-ca CERT.pem (the server's certificate or its CA)"
        )
    if tls and not server_tls:
        return (
            f"the server at {target} seems to use plaintext and this client connected "
            f"with TLS; drop --tls-ca (or start the server with --tls-cert/--tls-key)"
        )
    return None


def _cards(cards: str | Sequence[str]) -> list[str]:
    if isinstance(cards, str):
        return cards.replace(",", " ").split()
    return [str(c) for c in cards]


def build_view(
    game: str,
    players: int,
    seat: int,
    hand: str | Sequence[str],
    *,
    moves: Iterable[tuple[int, str]] = (),
    counts: Sequence[int] | None = None,
    options: Mapping[str, Any] | None = None,
    drawn: str | Sequence[str] = (),
    first: int = 0,
    trump: str | None = None,
) -> records_pb2.View:
    """A ``quansu-view/1`` message from cards and moves in canonical text.

    ``hand``: the seat's cards as dealt (``"3S 4S 5H"`` or a list).  ``counts``: how many cards
    each seat was dealt (default: every seat as many as ``hand``).  ``moves``: the public history
    as ``(seat, move text)``.  ``options``: only those that differ from the defaults.
    ``drawn``: the seat's own draws from the stock, in order.  ``trump``: Tấn's face-up card.
    The service validates everything; this only builds the message.
    """
    hand = _cards(hand)
    counts = list(counts) if counts is not None else [len(hand)] * players
    view = records_pb2.View(
        format="quansu-view/1", game=game, players=players, seat=seat, drawn=_cards(drawn)
    )
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

    ``retries``: how many times a call the server refuses as busy (RESOURCE_EXHAUSTED) is sent
    again (default 0: never; the refusal raises :class:`ServerBusy` at once).  Before each retry
    the client waits the server's retry delay (``ServerBusy.retry_after_s``; without one
    :data:`RETRY_FALLBACK_S`, doubling) times a random factor in 0.5..1.5 drawn from
    ``retry_rng`` (a :class:`random.Random`, or an int seed; default: seeded by the system), so
    that clients refused together do not come back together.  The waits count against the
    call's ``timeout``: a retry that could not start before it is not made.  A stream
    (``suggest_stream``, ``analyze``) is retried only while it has received nothing.  Suggest
    and Analyze with a ``seed`` answer the same on a retry.

    With ``retries`` > 0 a call that fails with UNAVAILABLE (its server or replica died or
    drained with the call, or cannot be reached) is also sent again, by gRPC's retry policy
    (:func:`service_config`: ``min(retries + 1, 5)`` attempts, waits of up to 0.1 s doubling to
    1 s, within the call's ``timeout``), to another replica when there are several.

    Several servers (replicas of one service, docs/scaling.md): ``target`` a list of
    ``host:port``, one string with commas between them, or a ``dns:///NAME:PORT`` (or
    ``ipv4:``/``ipv6:``) target whose name gives several addresses; the calls are spread over
    the servers that answer (gRPC's ``round_robin``), one that goes away is left out until it
    is back.  Host names in a list are resolved once, here (:func:`balanced_target`).
    """

    def __init__(
        self,
        target: str | Sequence[str],
        *,
        token: str | None = None,
        tls_ca: bytes | str | None = None,
        server_name: str | None = None,
        timeout: float | None = None,
        retries: int = 0,
        retry_rng: random.Random | int | None = None,
    ):
        targets = split_targets(target)
        if not isinstance(retries, int) or retries < 0:
            raise ValueError(f"retries: expected an integer >= 0, got {retries!r}")
        self.retries = retries
        self.retry_rng = (
            retry_rng if isinstance(retry_rng, random.Random) else random.Random(retry_rng)
        )
        #: the servers as given (normalized); ``target``: the one gRPC target for all of them
        self.targets = targets
        target = targets[0] if len(targets) == 1 else balanced_target(targets)
        self.target = target
        self.tls = tls_ca is not None
        options: list[tuple[str, Any]] = [("grpc.enable_retries", 1)]
        config = service_config(retries, balanced=target.startswith(_BALANCED_SCHEMES))
        if config:
            options.append(("grpc.service_config", json.dumps(config)))
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
        return {
            "timeout": timeout if timeout is not None else self.timeout,
            "metadata": self.metadata,
        }

    # -- refusals and retries ------------------------------------------------------------------
    def retry_wait(self, retry_after_s: float | None, attempt: int) -> float:
        """Seconds to wait before retry number ``attempt + 1`` after a refusal whose server
        delay is ``retry_after_s``: that delay (or the fallback, doubling with ``attempt``) times
        the jitter factor."""
        base = retry_after_s
        if base is None:
            base = min(RETRY_FALLBACK_MAX_S, RETRY_FALLBACK_S * 2**attempt)
        return base * self.retry_rng.uniform(*RETRY_JITTER)

    def _next_try(
        self, error: grpc.RpcError, attempt: int, end: float | None
    ) -> tuple[float, float | None]:
        """After refusal ``error`` of try ``attempt`` (0 first): ``(wait, timeout of the next
        try)``; raises :class:`ServerBusy` when no retry is left or none fits before ``end``."""
        busy = ServerBusy(error, _retry_after_s(error), attempt + 1)
        if attempt >= self.retries:
            raise busy from None
        wait = self.retry_wait(busy.retry_after_s, attempt)
        if end is None:
            return wait, None
        left = end - time.monotonic() - wait
        if left <= 0:
            raise busy from None
        return wait, left

    def _unary(self, method: Callable, request, timeout: float | None):
        """``method(request)`` with the retries of refused calls."""
        kw = self._kw(timeout)
        end = None if kw["timeout"] is None else time.monotonic() + kw["timeout"]
        attempt = 0
        while True:
            try:
                return method(request, **kw)
            except grpc.RpcError as e:
                if not _refused(e):
                    raise
                wait, kw["timeout"] = self._next_try(e, attempt, end)
            time.sleep(wait)
            attempt += 1

    def _stream(self, method: Callable, request, timeout: float | None) -> "_RetryingStream":
        kw = self._kw(timeout)
        end = None if kw["timeout"] is None else time.monotonic() + kw["timeout"]
        return _RetryingStream(self, method, request, kw, end)

    # -- RPCs ----------------------------------------------------------------------------------
    def describe_games(self, *, timeout: float | None = None) -> pb.DescribeGamesResponse:
        return self._unary(self.stub.DescribeGames, pb.DescribeGamesRequest(), timeout)

    def legal_moves(
        self, game: RecordOrView, *, language: str = "", timeout: float | None = None
    ) -> pb.LegalMovesResponse:
        """The seat to act and its legal moves; ``language`` ("vi", "en"): the language of an
        INVALID_ARGUMENT's description (why the record or view is refused)."""
        return self._unary(
            self.stub.LegalMoves, self.legal_moves_request(game, language=language), timeout
        )

    @staticmethod
    def legal_moves_request(game: RecordOrView, *, language: str = "") -> pb.LegalMovesRequest:
        msg = as_message(game)
        if isinstance(msg, records_pb2.View):
            return pb.LegalMovesRequest(view=msg, language=language)
        return pb.LegalMovesRequest(record=msg, language=language)

    @staticmethod
    def suggest_request(
        view: RecordOrView,
        *,
        iterations: int = 0,
        milliseconds: int = 0,
        top_k: int = 0,
        strength: int = 0,
        seed: int | None = None,
        language: str = "",
    ) -> pb.SuggestRequest:
        msg = as_message(view)
        if not isinstance(msg, records_pb2.View):
            raise TypeError("Suggest takes a seat's view (format quansu-view/1), not a full record")
        req = pb.SuggestRequest(
            view=msg,
            budget=_budget(iterations, milliseconds),
            top_k=top_k,
            strength=strength,
            language=language,
        )
        if seed is not None:
            req.seed = seed
        return req

    def suggest(
        self,
        view: RecordOrView,
        *,
        iterations: int = 0,
        milliseconds: int = 0,
        top_k: int = 0,
        strength: int = 0,
        seed: int | None = None,
        language: str = "",
        timeout: float | None = None,
    ) -> pb.SuggestResponse:
        """Ranked moves for the view's seat (zero budget fields: the server's defaults).
        ``language`` ("vi", "en"; "": English): the reasons' ``text`` and an INVALID_ARGUMENT's
        description."""
        req = self.suggest_request(
            view,
            iterations=iterations,
            milliseconds=milliseconds,
            top_k=top_k,
            strength=strength,
            seed=seed,
            language=language,
        )
        return self._unary(self.stub.Suggest, req, timeout)

    def suggest_stream(
        self,
        view: RecordOrView,
        *,
        interval_ms: int = 0,
        iterations: int = 0,
        milliseconds: int = 0,
        top_k: int = 0,
        strength: int = 0,
        seed: int | None = None,
        language: str = "",
        timeout: float | None = None,
    ) -> Iterator[pb.SuggestResponse]:
        """Partial rankings every ``interval_ms`` and then the final one (``final``).  The
        returned iterator is also a call: ``.cancel()`` stops the search.  ``language`` as in
        :meth:`suggest`."""
        req = self.suggest_request(
            view,
            iterations=iterations,
            milliseconds=milliseconds,
            top_k=top_k,
            strength=strength,
            seed=seed,
            language=language,
        )
        return self._stream(
            self.stub.SuggestStream,
            pb.SuggestStreamRequest(request=req, interval_ms=interval_ms),
            timeout,
        )

    @staticmethod
    def analyze_request(
        game: RecordOrView,
        *,
        seats: Sequence[int] = (),
        iterations: int = 0,
        milliseconds: int = 0,
        thresholds: Mapping[str, float] | None = None,
        seed: int | None = None,
        language: str = "",
        max_worlds: int = 0,
    ) -> pb.AnalyzeRequest:
        msg = as_message(game)
        req = pb.AnalyzeRequest(
            seats=list(seats),
            budget=_budget(iterations, milliseconds),
            thresholds=pb.Thresholds(**dict(thresholds or {})),
            language=language,
            max_worlds=max_worlds,
        )
        if isinstance(msg, records_pb2.View):
            req.view.CopyFrom(msg)
        else:
            req.record.CopyFrom(msg)
        if seed is not None:
            req.seed = seed
        return req

    def analyze(
        self,
        game: RecordOrView,
        *,
        seats: Sequence[int] = (),
        iterations: int = 0,
        milliseconds: int = 0,
        thresholds: Mapping[str, float] | None = None,
        seed: int | None = None,
        language: str = "",
        max_worlds: int = 0,
        timeout: float | None = None,
    ) -> Iterator[pb.AnalyzeResponse]:
        """One message per judged decision, then one summary per seat.  ``language`` ("vi",
        "en"; "": English): the reasons' ``text`` in ``Decision.top`` and an
        INVALID_ARGUMENT's description.  ``max_worlds``: the cap of sampled worlds per decision
        (0: the server's default for the game)."""
        req = self.analyze_request(
            game,
            seats=seats,
            iterations=iterations,
            milliseconds=milliseconds,
            thresholds=thresholds,
            seed=seed,
            language=language,
            max_worlds=max_worlds,
        )
        return self._stream(self.stub.Analyze, req, timeout)

    def health(self, service: str = "", *, timeout: float | None = 5.0) -> str:
        """``"SERVING"``, ``"NOT_SERVING"``, ... of the server (or one service)."""
        resp = self.health_stub.Check(
            health_pb2.HealthCheckRequest(service=service), timeout=timeout
        )
        return health_pb2.HealthCheckResponse.ServingStatus.Name(resp.status)


class _RetryingStream:
    """A server-streaming call that is sent again when the server refuses it as busy before its
    first message (up to the client's ``retries``), and raises :class:`ServerBusy` for a
    refusal it does not retry.  Iterate it; ``cancel()`` and every other attribute of a gRPC
    call are the current attempt's."""

    def __init__(self, client: Client, method: Callable, request, kw: dict, end: float | None):
        self._client = client
        self._method = method
        self._request = request
        self._kw = kw
        self._end = end
        self._attempt = 0
        self._received = False
        self._cancelled = False
        self._call = method(request, **kw)

    def __iter__(self) -> "_RetryingStream":
        return self

    def __next__(self):
        while True:
            try:
                msg = next(self._call)
            except grpc.RpcError as e:
                if not _refused(e):
                    raise
                if self._received or self._cancelled:
                    raise ServerBusy(e, _retry_after_s(e), self._attempt + 1) from None
                wait, self._kw["timeout"] = self._client._next_try(e, self._attempt, self._end)
                time.sleep(wait)
                if self._cancelled:
                    raise ServerBusy(e, _retry_after_s(e), self._attempt + 1) from None
                self._attempt += 1
                self._call = self._method(self._request, **self._kw)
                continue
            self._received = True
            return msg

    def cancel(self) -> bool:
        self._cancelled = True
        return self._call.cancel()

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._call, name)
