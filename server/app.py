"""Serving: the gRPC server with its worker pool, health, reflection, TLS, token and drain.

:class:`QuansuServer` builds everything; :func:`serve` runs it until SIGTERM or SIGINT and then
drains: health turns NOT_SERVING (and the ports keep serving for ``drain_notice_s`` seconds, so
that a load balancer polling health sees it), new calls are refused, in-flight calls get up to
``drain_s`` seconds to finish, the workers stop, and the process exits 0.

Readiness: every worker imports everything, loads and runs every model and answers one tiny
Suggest per game (:func:`ready_check`) before it joins the pool, and the server reports SERVING
only once its workers are ready; health is NOT_SERVING while no worker is alive.  With
``metrics_port`` the server also serves Prometheus metrics (:mod:`server.metrics`); every call
is logged as one JSON line (:mod:`server.logs`).

Security: with ``tls_cert``/``tls_key`` the port speaks TLS only.  With ``token`` every call
except the health service must carry the metadata ``authorization: Bearer <token>``, else
UNAUTHENTICATED.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
import random
import signal
import sys
import threading
from concurrent import futures
from dataclasses import dataclass, field
from functools import partial

import grpc
from grpc_health.v1 import health, health_pb2
from grpc_reflection.v1alpha import reflection

from quansu import __version__
from quansu.server import errors
from quansu.server.engine import Engine, Limits, build_engine
from quansu.server.logs import Calls
from quansu.server.pool import WorkerPool
from quansu.server.servicer import (
    QuansuServicer,
    raw_handlers,
    raw_health_handler,
    raw_reflection_handler,
    track_workers,
)
from quansu.server.v1 import service_pb2

log = logging.getLogger("quansu.server")

SERVICE_NAME = service_pb2.DESCRIPTOR.services_by_name["QuansuService"].full_name
HEALTH_PREFIX = "/grpc.health.v1.Health/"

#: Packages a server imports in full at start (:func:`preload_modules`), but for these prefixes:
#: the training code (torch, never on the request path).  The command line (``quansu.cli``) is
#: outside these packages.
PRELOAD_PACKAGES = ("quansu.search", "quansu.models", "quansu.server")
PRELOAD_SKIP = ("quansu.models.training",)

#: Addresses that listen on every interface.
ALL_INTERFACES = {"", "0.0.0.0", "::", "[::]", "*"}


def _import_tree(name: str, out: list[str]) -> None:
    importlib.import_module(name)
    out.append(name)
    pkg = sys.modules[name]
    for info in pkgutil.iter_modules(getattr(pkg, "__path__", ()), prefix=name + "."):
        if not info.name.startswith(PRELOAD_SKIP):
            _import_tree(info.name, out)


def preload_modules() -> list[str]:
    """Import now every module a request can reach: every game with all its modules
    (:func:`games.registry.load_all`), the search, the networks' code (encoders, evaluator) and
    the service.  The server process and each worker call this at start, so that a missing or
    broken module stops the start (nothing is imported lazily on the request path, and
    replacing the installed files under a running server cannot break it).  Returns the module
    names; raises :class:`RuntimeError` naming the module that cannot be imported."""
    from quansu.games.registry import load_all

    names: list[str] = []
    try:
        load_all()
        for pkg in PRELOAD_PACKAGES:
            _import_tree(pkg, names)
    except ImportError as e:
        raise RuntimeError(f"cannot start: {e}") from e
    exercise_games()
    return names


def exercise_games(moves: int = 4) -> None:
    """Take every game a few moves along the paths a request takes: a seat's view rebuilt
    through ``deal_for_view``, a determinization, move text both ways, the heuristic and
    sparring moves.  The games import some of their modules only on that first use, and a
    file missing from the installed package shows only then: here, at start.  Raises
    :class:`RuntimeError` naming the game and the problem."""
    from quansu.games import record as rec
    from quansu.games.registry import game_classes, make

    for name, cls in game_classes().items():
        try:
            game = make(name, cls.max_players)
            rng = random.Random(0)
            state = game.new_initial_state(rng)
            for _ in range(moves):
                if state.is_terminal():
                    break
                seat = state.current_player
                for move in state.legal_moves():
                    game.describe_move(move)
                    game.parse_move(game.move_to_text(move))
                rebuilt = rec.replay_view(rec.view_from_state(state, seat), rng)
                rebuilt.determinize(seat, rng)
                game.sparring_move(state, rng)
                state.apply(game.heuristic_move(state, rng))
        except Exception as e:  # noqa: BLE001 - any failure here stops the start, named
            raise RuntimeError(f"cannot start: game {name}: {type(e).__name__}: {e}") from e


def warm_models(engine: Engine) -> None:
    """Build the network evaluator of every game that has one (for its largest player count)
    and evaluate one position with it, so that every model, encoder and inference session is
    loaded and known to work before the server reports SERVING."""
    from quansu.games.registry import game_classes, make
    from quansu.server.evaluators import UNIFORM

    for name, cls in game_classes().items():
        if engine.evaluators is None or engine.evaluators.model_name(name) == UNIFORM:
            continue
        game = make(name, cls.max_players)
        evaluator, _config = engine.evaluators.for_game(game)
        rng = random.Random(0)
        state = game.new_initial_state(rng)
        evaluator.evaluate([state], [state.legal_moves()], rng)


def ready_check(engine: Engine) -> None:
    """Answer one tiny Suggest per game (its largest player count, a position with a choice,
    2 iterations), in every language: the whole path of a request (replay of a view, the
    evaluator, the search, reasons) works for every game before the worker serves.  Raises
    :class:`RuntimeError` naming the game."""
    from quansu.games.reasons import LANGUAGES
    from quansu.games.registry import game_classes, make

    for name, cls in game_classes().items():
        try:
            game = make(name, cls.max_players)
            rng = random.Random(0)
            state = game.new_initial_state(rng)
            while not state.is_terminal() and len(state.legal_moves()) < 2:
                state.apply(game.heuristic_move(state, rng))
            if state.is_terminal():
                continue
            for lang in LANGUAGES:
                resp = engine.suggest_for_state(
                    state, strength=0, iterations=2, top_k=2, seed=0, language=lang
                )
                if not resp.moves or not resp.chosen.text:
                    raise RuntimeError("the Suggest answered no move")
        except Exception as e:  # noqa: BLE001 - any failure here stops the start, named
            raise RuntimeError(
                f"cannot start: ready check of game {name}: {type(e).__name__}: {e}"
            ) from e


def start_worker_engine(
    limits: Limits, uniform: bool, models: tuple, log_level: int | None = None
) -> Engine:
    """What each worker process runs at start: import everything, load and try every model,
    answer one Suggest per game (:func:`ready_check`).  ``log_level``: log as the server does
    (JSON lines, :func:`server.logs.configure`)."""
    if log_level is not None:
        from quansu.server.logs import configure

        configure(log_level)
    preload_modules()
    engine = build_engine(limits, uniform, models)
    warm_models(engine)
    ready_check(engine)
    return engine


def exposure_warning(host: str, token: str | None) -> str | None:
    """The warning for a server that listens on every interface without a token (None when
    there is nothing to warn about)."""
    if token or host.strip() not in ALL_INTERFACES:
        return None
    return (
        f"serving on {host or 'every interface'} without --token: anyone who can reach "
        f"this port can use the service; pass --token (or set $QUANSU_TOKEN), or listen "
        f"on 127.0.0.1 with --host"
    )


@dataclass
class ServerConfig:
    """Everything ``quansu serve`` can set.

    ``workers``: search processes (None: one per core).  ``queue_size``: calls that may wait for
    a worker (None: 4 per worker); one more gets RESOURCE_EXHAUSTED.  ``models``: game name ->
    ``.onnx`` path overriding the shipped model; ``uniform``: use the uniform evaluator for every
    game.  ``drain_s``: grace period for in-flight calls at shutdown.
    """

    host: str = "127.0.0.1"
    port: int = 50051
    workers: int | None = None
    queue_size: int | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    token: str | None = None
    drain_s: float = 10.0
    limits: Limits = field(default_factory=Limits)
    uniform: bool = False
    models: dict[str, str] = field(default_factory=dict)
    reflection: bool = True
    #: ready spare worker processes that take a dead worker's place at once (each costs one
    #: worker's memory; 0: a dead worker is replaced by a process started then, about 1 s)
    spare_workers: int = 1
    #: also serve the HTTP/JSON gateway and the web page on this port (server/gateway.py;
    #: 0: any free port; None: no HTTP), with the same host, TLS, token, pool and limits
    http_port: int | None = None
    #: also serve Prometheus metrics on this port (server/metrics.py; 0: any free port; None:
    #: none), same host and TLS, no token
    metrics_port: int | None = None
    #: at shutdown, seconds during which health already says NOT_SERVING but calls are still
    #: served, before new calls are refused and the in-flight ones drained (``drain_s``)
    drain_notice_s: float = 0.0
    #: the logging level of the workers (JSON lines, server/logs.py); None: left as it is
    log_level: int | None = None


def _deny_handler(
    handler: grpc.RpcMethodHandler, message: str, rpc: str | None = None, calls: Calls | None = None
) -> grpc.RpcMethodHandler:
    def deny(request, context):
        if calls is not None and rpc is not None:  # counted and logged as any call
            call = calls.start(rpc, context)
            call.failed(errors.Unauthenticated(message))
            call.finish()
        context.abort(grpc.StatusCode.UNAUTHENTICATED, message)

    def deny_stream(request_iter, context):
        deny(None, context)

    # no request deserializer: a refused call's body is never parsed
    kw = dict(request_deserializer=None, response_serializer=handler.response_serializer)
    if handler.request_streaming and handler.response_streaming:
        return grpc.stream_stream_rpc_method_handler(deny_stream, **kw)
    if handler.request_streaming:
        return grpc.stream_unary_rpc_method_handler(deny_stream, **kw)
    if handler.response_streaming:
        return grpc.unary_stream_rpc_method_handler(deny, **kw)
    return grpc.unary_unary_rpc_method_handler(deny, **kw)


class TokenInterceptor(grpc.ServerInterceptor):
    """Require ``authorization: Bearer <token>`` on every call but the health checks.  A refused
    call of the service is observed by ``calls`` (log line, metrics) when set."""

    def __init__(self, token: str, calls: Calls | None = None):
        self._expected = f"Bearer {token}".encode()
        self.calls = calls

    def intercept_service(self, continuation, handler_call_details):
        if handler_call_details.method.startswith(HEALTH_PREFIX):
            return continuation(handler_call_details)
        got = ""
        for key, value in handler_call_details.invocation_metadata or ():
            if key == "authorization":
                got = value if isinstance(value, str) else value.decode("utf-8", "replace")
        handler = continuation(handler_call_details)
        if handler is None:
            return None
        try:
            errors.check_token(got, self._expected)
            return handler
        except errors.Unauthenticated as e:
            msg = str(e)
        service, _, rpc = handler_call_details.method.lstrip("/").partition("/")
        return _deny_handler(handler, msg, rpc if service == SERVICE_NAME else None, self.calls)


class QuansuServer:
    """A started-on-demand quansu server.  ``start()`` returns the bound port."""

    def __init__(self, config: ServerConfig):
        self.config = config
        preload_modules()
        self.pool = WorkerPool(
            partial(
                start_worker_engine,
                config.limits,
                config.uniform,
                tuple(sorted(config.models.items())),
                config.log_level,
            ),
            workers=config.workers,
            queue_size=config.queue_size,
            spares=config.spare_workers,
        )
        self.engine = Engine(
            config.limits, evaluators=None, model_names=self.pool.models, workers=self.pool.size
        )
        self.metrics = None  # server.metrics.ServiceMetrics with metrics_port
        self.metrics_port: int | None = None
        if config.metrics_port is not None:
            from quansu.server.metrics import ServiceMetrics

            self.metrics = ServiceMetrics(self.pool, self.pool.models)
        self.calls = Calls(self.metrics)
        interceptors = [TokenInterceptor(config.token, self.calls)] if config.token else []
        threads = self.pool.size + self.pool.queue_size + 16
        self.server = grpc.server(
            futures.ThreadPoolExecutor(max_workers=threads, thread_name_prefix="quansu-rpc"),
            interceptors=interceptors,
            options=[("grpc.so_reuseport", 0)],
        )
        # every method receives its request's bytes and parses them itself (server/servicer.py)
        self.servicer = QuansuServicer(self.engine, self.pool, self.calls)
        self.server.add_generic_rpc_handlers((raw_handlers(self.servicer),))
        self.health = health.HealthServicer()
        self.server.add_generic_rpc_handlers((raw_health_handler(self.health),))
        if config.reflection:
            self.server.add_generic_rpc_handlers(
                (
                    raw_reflection_handler(
                        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME)
                    ),
                )
            )
        address = f"{config.host}:{config.port}"
        if config.tls_cert or config.tls_key:
            if not (config.tls_cert and config.tls_key):
                raise ValueError("TLS needs both a certificate and a key")
            with open(config.tls_key, "rb") as f:
                key = f.read()
            with open(config.tls_cert, "rb") as f:
                cert = f.read()
            creds = grpc.ssl_server_credentials([(key, cert)])
            self.port = self.server.add_secure_port(address, creds)
        else:
            self.port = self.server.add_insecure_port(address)
        if not self.port:
            self.pool.close()
            raise OSError(f"cannot listen on {address}")
        self._stopped = threading.Event()
        self._notice_over = threading.Event()
        self.http = None  # server.gateway.HttpServer, once started
        self.http_port: int | None = None

    def start(self) -> int:
        if self.metrics is not None:
            try:
                self.metrics_port = self.metrics.serve(
                    self.config.host,
                    self.config.metrics_port,
                    self.config.tls_cert,
                    self.config.tls_key,
                )
            except BaseException:
                self.pool.close()
                raise
        self.server.start()
        # the workers answered their ready check (one Suggest per game) before the pool
        # started; NOT_SERVING while no worker is alive, SERVING again once one is
        status = (
            health_pb2.HealthCheckResponse.SERVING
            if self.pool.stats().alive
            else health_pb2.HealthCheckResponse.NOT_SERVING
        )
        for name in ("", SERVICE_NAME):
            self.health.set(name, status)
        track_workers(self.pool, self.health, ("", SERVICE_NAME), self._stopped.is_set)
        if self.config.http_port is not None:
            self._start_http()
        return self.port

    def _start_http(self) -> None:
        """The HTTP/JSON gateway over the same servicer (so the same pool, limits and errors)."""
        from quansu.server.gateway import Gateway, HttpServer

        gateway = Gateway(
            self.servicer,
            token=self.config.token,
            threads=self.pool.size + self.pool.queue_size + 16,
            health=lambda: not self._stopped.is_set() and self.pool.stats().alive > 0,
        )
        self.http = HttpServer(
            gateway,
            self.config.host,
            self.config.http_port,
            self.config.tls_cert,
            self.config.tls_key,
        )
        try:
            self.http_port = self.http.start()
        except BaseException:
            self.http = None
            self.server.stop(0)
            if self.metrics is not None:
                self.metrics.close()
            self.pool.close()
            raise

    def stop(self, grace: float | None = None, notice: float | None = None) -> None:
        """Drain: health turns NOT_SERVING at once (gRPC and HTTP); the ports keep serving for
        ``notice`` seconds (default: the config's ``drain_notice_s``); then new calls are
        refused, in-flight ones get ``grace`` seconds (default: ``drain_s``) to finish, and the
        workers stop."""
        if self._stopped.is_set():
            return
        self._stopped.set()  # the HTTP health answers NOT_SERVING from now on
        self.health.enter_graceful_shutdown()
        notice = self.config.drain_notice_s if notice is None else notice
        if notice > 0:
            self._notice_over.wait(notice)
        grace = self.config.drain_s if grace is None else grace
        if self.http is not None:
            self.http.begin_stop(grace)
        self.server.stop(grace).wait()
        if self.http is not None:
            self.http.wait_stopped(grace + 5.0)
        if self.metrics is not None:
            self.metrics.close()
        self.pool.close()

    def end_notice(self) -> None:
        """End the drain notice now (a second SIGTERM does): new calls are refused from here."""
        self._notice_over.set()

    def wait(self) -> None:
        self.server.wait_for_termination()


def serve(config: ServerConfig, ready=None) -> int:
    """Run until SIGTERM/SIGINT, then drain and return 0.  ``ready(port)`` is called once the
    server listens."""
    warning = exposure_warning(config.host, config.token)
    if warning:
        log.warning(warning)
    server = QuansuServer(config)
    port = server.start()
    if ready is None:
        log.info("quansu %s serving on %s:%d", __version__, config.host, port)
    stop = threading.Event()

    def on_signal(signum, frame):
        if stop.is_set():  # a second signal: end the drain notice now
            server.end_notice()
            return
        log.info("signal %d: draining", signum)
        stop.set()

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        if ready is not None:
            ready(port)
        if server.http_port is not None:
            log.info(
                "HTTP/JSON gateway and web page on %s://%s:%d/",
                "https" if config.tls_cert else "http",
                config.host,
                server.http_port,
            )
        if server.metrics_port is not None:
            log.info(
                "Prometheus metrics on %s://%s:%d/metrics",
                "https" if config.tls_cert else "http",
                config.host,
                server.metrics_port,
            )
        while not stop.wait(0.5):
            pass
        server.stop()
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    return 0
