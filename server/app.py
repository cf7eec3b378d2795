"""Serving: the gRPC server with its worker pool, health, reflection, TLS, token and drain.

:class:`QuansuServer` builds everything; :func:`serve` runs it until SIGTERM or SIGINT and then
drains: health turns NOT_SERVING, new calls are refused, in-flight calls get up to
``drain_s`` seconds to finish, the workers stop, and the process exits 0.

Security: with ``tls_cert``/``tls_key`` the port speaks TLS only.  With ``token`` every call
except the health service must carry the metadata ``authorization: Bearer <token>``, else
UNAUTHENTICATED.
"""

from __future__ import annotations

import hmac
import logging
import signal
import threading
from concurrent import futures
from dataclasses import dataclass, field
from functools import partial

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from quansu.server.engine import Engine, Limits, build_engine
from quansu.server.pool import WorkerPool
from quansu.server.servicer import QuansuServicer
from quansu.server.v1 import service_pb2, service_pb2_grpc

log = logging.getLogger("quansu.server")

SERVICE_NAME = service_pb2.DESCRIPTOR.services_by_name["QuansuService"].full_name
HEALTH_PREFIX = "/grpc.health.v1.Health/"


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


def _deny_handler(handler: grpc.RpcMethodHandler, message: str) -> grpc.RpcMethodHandler:
    def deny(request, context):
        context.abort(grpc.StatusCode.UNAUTHENTICATED, message)

    def deny_stream(request_iter, context):
        context.abort(grpc.StatusCode.UNAUTHENTICATED, message)

    kw = dict(request_deserializer=handler.request_deserializer,
              response_serializer=handler.response_serializer)
    if handler.request_streaming and handler.response_streaming:
        return grpc.stream_stream_rpc_method_handler(deny_stream, **kw)
    if handler.request_streaming:
        return grpc.stream_unary_rpc_method_handler(deny_stream, **kw)
    if handler.response_streaming:
        return grpc.unary_stream_rpc_method_handler(deny, **kw)
    return grpc.unary_unary_rpc_method_handler(deny, **kw)


class TokenInterceptor(grpc.ServerInterceptor):
    """Require ``authorization: Bearer <token>`` on every call but the health checks."""

    def __init__(self, token: str):
        self._expected = f"Bearer {token}".encode()

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
        if hmac.compare_digest(got.encode(), self._expected):
            return handler
        msg = ("missing metadata 'authorization: Bearer <token>'" if not got
               else "the token in 'authorization' is not valid")
        return _deny_handler(handler, msg)


class QuansuServer:
    """A started-on-demand quansu server.  ``start()`` returns the bound port."""

    def __init__(self, config: ServerConfig):
        self.config = config
        self.pool = WorkerPool(partial(build_engine, config.limits, config.uniform,
                                       tuple(sorted(config.models.items()))),
                               workers=config.workers, queue_size=config.queue_size)
        self.engine = Engine(config.limits, evaluators=None, model_names=self.pool.models,
                             workers=self.pool.size)
        interceptors = [TokenInterceptor(config.token)] if config.token else []
        threads = self.pool.size + self.pool.queue_size + 16
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=threads,
                                                             thread_name_prefix="quansu-rpc"),
                                  interceptors=interceptors,
                                  options=[("grpc.so_reuseport", 0)])
        service_pb2_grpc.add_QuansuServiceServicer_to_server(QuansuServicer(self.engine, self.pool),
                                                             self.server)
        self.health = health.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        if config.reflection:
            reflection.enable_server_reflection(
                (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), self.server)
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

    def start(self) -> int:
        self.server.start()
        for name in ("", SERVICE_NAME):
            self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        return self.port

    def stop(self, grace: float | None = None) -> None:
        """Drain: refuse new calls, let in-flight ones finish within ``grace`` seconds (default:
        the config's ``drain_s``), then stop the workers."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        self.health.enter_graceful_shutdown()
        grace = self.config.drain_s if grace is None else grace
        self.server.stop(grace).wait()
        self.pool.close()

    def wait(self) -> None:
        self.server.wait_for_termination()


def serve(config: ServerConfig, ready=None) -> int:
    """Run until SIGTERM/SIGINT, then drain and return 0.  ``ready(port)`` is called once the
    server listens."""
    server = QuansuServer(config)
    port = server.start()
    stop = threading.Event()

    def on_signal(signum, frame):
        log.info("signal %d: draining", signum)
        stop.set()

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        if ready is not None:
            ready(port)
        while not stop.wait(0.5):
            pass
        server.stop()
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    return 0
