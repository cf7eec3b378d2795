"""The gRPC servicer: thin glue between gRPC calls and :class:`server.engine.Engine`.

Every method of ``quansu.v1.QuansuService``, of the health service and of reflection is
registered with **no request deserializer** (:func:`raw_handlers`, :func:`raw_health_handler`,
:func:`raw_reflection_handler`): the handler receives the request's bytes and parses them
itself.  grpc-python's own deserialization keeps about 16 KB of server memory for good on every
body that does not parse (``bench/grpc_leak.py``); parsed here, such a body is an
INVALID_ARGUMENT naming the field ``request`` that costs nothing lasting (one log line per 10 s
at most, :data:`server.errors.BAD_BODY_LOG`).

A call goes through the cheap checks first, in this order, before anything is converted or
replayed: the token (:class:`server.app.TokenInterceptor`, before the body is even parsed), the
body's size (:attr:`Limits.max_request_bytes`), the parse, the counts and lengths of every field
(:meth:`Engine.precheck`), then admission (a worker or a place in the wait queue of
:class:`server.pool.WorkerPool`, else RESOURCE_EXHAUSTED).  The request is then validated and
replayed once, in the worker, which answers.  ``LegalMoves`` goes through the same pool;
``DescribeGames`` and health answer in the server process.

The call's deadline is read when the handler starts (gRPC's deadline is absolute, so time spent
before that counts too) and reaches the worker's search, which keeps a margin for the answer's
way back (:func:`server.engine.deadline_margin`).  Every answer is checked to hold only finite
numbers (:func:`check_finite`).  Every exception becomes a status through
:func:`server.errors.to_rpc_status`.

Every call of the service is observed here, in the one path that the gRPC port and the HTTP
gateway share (:class:`server.logs.Calls`): its request's game, players and budget, its answers'
iterations, its status and duration make one JSON log line and, with ``--metrics-port``, the
Prometheus metrics (:mod:`server.metrics`).
"""

from __future__ import annotations

import math
from typing import Callable, Iterable

import grpc
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError, Message

from quansu.server import errors
from quansu.server.engine import Engine
from quansu.server.logs import Call, Calls
from quansu.server.pool import WorkerPool
from quansu.server.v1 import service_pb2 as pb

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["QuansuService"].full_name

#: Deadlines further away than this are treated as none (gRPC reports "no deadline" as a huge
#: remaining time).
_NO_DEADLINE_S = 10 * 365 * 24 * 3600.0

_FLOATS = (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT)


def seconds_left(context: grpc.ServicerContext) -> float | None:
    """Seconds until the call's deadline, or None when it has none."""
    t = context.time_remaining()
    if t is None or t > _NO_DEADLINE_S:
        return None
    return max(0.0, t)


def parse_body(body: bytes, message_type: type[Message], max_bytes: int | None = None) -> Message:
    """The request message of a raw body; :class:`server.errors.BadBody` when it is larger than
    ``max_bytes`` or does not parse."""
    if not isinstance(body, (bytes, bytearray, memoryview)):
        raise TypeError(f"expected the request's bytes, got {type(body).__name__}")
    name = message_type.DESCRIPTOR.name
    if max_bytes is not None and len(body) > max_bytes:
        raise errors.BadBody(
            errors.Text("request.body_too_large", n=len(body), limit=max_bytes, message=name)
        )
    try:
        return message_type.FromString(bytes(body))
    except (DecodeError, RecursionError, ValueError) as e:
        errors.BAD_BODY_LOG.warning(
            "a %d-byte request body is not a valid %s: %s", len(body), name, errors.clip(str(e))
        )
        raise errors.BadBody(
            errors.Text("request.body_not_message", n=len(body), message=name)
        ) from None


def non_finite_fields(msg: Message, path: str = "") -> list[str]:
    """The paths of every NaN or infinite float/double in ``msg`` (recursively)."""
    out: list[str] = []
    for fd, value in msg.ListFields():
        where = f"{path}.{fd.name}" if path else fd.name
        if fd.type in _FLOATS:
            values = value if fd.is_repeated else (value,)
            out += [where for v in values if not math.isfinite(v)]
        elif fd.type == FieldDescriptor.TYPE_MESSAGE:
            if fd.message_type.GetOptions().map_entry:
                vtype = fd.message_type.fields_by_name["value"].type
                for k, v in value.items():
                    if vtype == FieldDescriptor.TYPE_MESSAGE:
                        out += non_finite_fields(v, f"{where}[{k!r}]")
                    elif vtype in _FLOATS and not math.isfinite(v):
                        out.append(f"{where}[{k!r}]")
            elif fd.is_repeated:
                for i, v in enumerate(value):
                    out += non_finite_fields(v, f"{where}[{i}]")
            else:
                out += non_finite_fields(value, where)
    return out


def check_finite(msg: Message) -> Message:
    """``msg`` itself; raises AssertionError (a server bug: INTERNAL) when an answer would carry
    a NaN or an infinity."""
    bad = non_finite_fields(msg)
    if bad:
        raise AssertionError(
            f"{msg.DESCRIPTOR.name} carries non-finite numbers at {', '.join(bad[:5])}"
        )
    return msg


class QuansuServicer:
    """``engine``: the cheap checks and DescribeGames; ``pool``: the workers that validate,
    replay and search; ``calls``: the observer of every call (its log line and metrics; default:
    the log line only).  Register it with :func:`raw_handlers`."""

    def __init__(self, engine: Engine, pool: WorkerPool, calls: Calls | None = None):
        self.engine = engine
        self.pool = pool
        self.calls = calls or Calls()

    @staticmethod
    def _abort(call: Call, context, exc: BaseException):
        """End the call with the status of ``exc`` (raises, as ``context.abort`` does)."""
        context.abort_with_status(errors.to_grpc_status(call.failed(exc)))

    @staticmethod
    def _ended(call: Call, context) -> None:
        """A stream whose worker has ended: OK when the call is still wanted.  A client that
        went away (or a deadline that passed) stops the worker early and quietly, so its short
        stream is no answer in full: the call stays CANCELLED (:meth:`Call.finish`)."""
        if context.is_active():
            call.ok()

    def _parse(self, body: bytes, message_type: type[Message]) -> Message:
        return parse_body(body, message_type, self.engine.limits.max_request_bytes)

    def _run(self, kind: str, body: bytes, left: float | None, context) -> Iterable[bytes]:
        return self.pool.run(kind, bytes(body), left, context.is_active)

    def DescribeGames(self, body, context):
        call = self.calls.start("DescribeGames", context)
        try:
            request = self._parse(body, pb.DescribeGamesRequest)
            out = check_finite(self.engine.describe_games(request))
            call.ok()
            return out
        except Exception as e:
            self._abort(call, context, e)
        finally:
            call.finish()

    def LegalMoves(self, body, context):
        call = self.calls.start("LegalMoves", context)
        try:
            left = seconds_left(context)
            request = self._parse(body, pb.LegalMovesRequest)
            call.request(request)
            self.engine.precheck_legal_moves(request)
            last = None
            for data in self._run("legal_moves", body, left, context):
                last = data
            if last is None:
                raise errors.Unavailable("the worker ended without an answer; retry")
            out = check_finite(pb.LegalMovesResponse.FromString(last))
            call.ok()
            return out
        except Exception as e:
            self._abort(call, context, e)
        finally:
            call.finish()

    def Suggest(self, body, context):
        call = self.calls.start("Suggest", context)
        try:
            left = seconds_left(context)
            request = self._parse(body, pb.SuggestRequest)
            call.request(request)
            self.engine.precheck_suggest(request)
            last = None
            for data in self._run("suggest", body, left, context):
                last = data
            if last is None:
                raise errors.Unavailable("the search ended without an answer; retry")
            out = call.answer(check_finite(pb.SuggestResponse.FromString(last)))
            call.ok()
            return out
        except Exception as e:
            self._abort(call, context, e)
        finally:
            call.finish()

    def SuggestStream(self, body, context):
        call = self.calls.start("SuggestStream", context)
        try:
            left = seconds_left(context)
            request = self._parse(body, pb.SuggestStreamRequest)
            call.request(request)
            self.engine.precheck_suggest_stream(request)
            for data in self._run("suggest_stream", body, left, context):
                yield call.answer(check_finite(pb.SuggestResponse.FromString(data)))
            self._ended(call, context)
        except Exception as e:
            self._abort(call, context, e)
        finally:
            call.finish()  # a stream the client closed early ends CANCELLED

    def Analyze(self, body, context):
        call = self.calls.start("Analyze", context)
        try:
            left = seconds_left(context)
            request = self._parse(body, pb.AnalyzeRequest)
            call.request(request)
            self.engine.precheck_analyze(request)
            for data in self._run("analyze", body, left, context):
                yield call.answer(check_finite(pb.AnalyzeResponse.FromString(data)))
            self._ended(call, context)
        except Exception as e:
            self._abort(call, context, e)
        finally:
            call.finish()  # a stream the client closed early ends CANCELLED


def raw_handlers(servicer: QuansuServicer) -> grpc.GenericRpcHandler:
    """``quansu.v1.QuansuService`` with every method receiving its request's bytes."""
    unary = grpc.unary_unary_rpc_method_handler
    stream = grpc.unary_stream_rpc_method_handler
    return grpc.method_handlers_generic_handler(
        SERVICE_NAME,
        {
            "Suggest": unary(
                servicer.Suggest,
                request_deserializer=None,
                response_serializer=pb.SuggestResponse.SerializeToString,
            ),
            "SuggestStream": stream(
                servicer.SuggestStream,
                request_deserializer=None,
                response_serializer=pb.SuggestResponse.SerializeToString,
            ),
            "Analyze": stream(
                servicer.Analyze,
                request_deserializer=None,
                response_serializer=pb.AnalyzeResponse.SerializeToString,
            ),
            "LegalMoves": unary(
                servicer.LegalMoves,
                request_deserializer=None,
                response_serializer=pb.LegalMovesResponse.SerializeToString,
            ),
            "DescribeGames": unary(
                servicer.DescribeGames,
                request_deserializer=None,
                response_serializer=pb.DescribeGamesResponse.SerializeToString,
            ),
        },
    )


def raw_health_handler(health_servicer) -> grpc.GenericRpcHandler:
    """``grpc.health.v1.Health`` (``Check`` and ``Watch``) of grpc_health's ``HealthServicer``,
    receiving the request's bytes (the servicer keeps its ``set`` and graceful shutdown)."""
    from grpc_health.v1 import health_pb2

    def check(body, context):
        try:
            request = parse_body(body, health_pb2.HealthCheckRequest, 4096)
        except errors.BadBody as e:
            errors.abort(context, e)
        return health_servicer.Check(request, context)

    def watch(body, context):
        try:
            request = parse_body(body, health_pb2.HealthCheckRequest, 4096)
        except errors.BadBody as e:
            errors.abort(context, e)
        return health_servicer.Watch(request, context)

    ser = health_pb2.HealthCheckResponse.SerializeToString
    return grpc.method_handlers_generic_handler(
        "grpc.health.v1.Health",
        {
            "Check": grpc.unary_unary_rpc_method_handler(
                check, request_deserializer=None, response_serializer=ser
            ),
            "Watch": grpc.unary_stream_rpc_method_handler(
                watch, request_deserializer=None, response_serializer=ser
            ),
        },
    )


def raw_reflection_handler(service_names: Iterable[str]) -> grpc.GenericRpcHandler:
    """Server reflection (``grpc.reflection.v1alpha``) receiving each request's bytes."""
    from grpc_reflection.v1alpha import reflection, reflection_pb2

    servicer = reflection.ReflectionServicer(tuple(service_names))

    def info(bodies, context):
        def requests():
            for body in bodies:
                try:
                    yield parse_body(body, reflection_pb2.ServerReflectionRequest, 64 * 1024)
                except errors.BadBody as e:
                    errors.abort(context, e)

        return servicer.ServerReflectionInfo(requests(), context)

    return grpc.method_handlers_generic_handler(
        reflection.SERVICE_NAME,
        {
            "ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
                info,
                request_deserializer=None,
                response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
            ),
        },
    )


def track_workers(
    pool: WorkerPool, health_servicer, names: Iterable[str], draining: Callable[[], bool]
) -> None:
    """Health follows the workers: NOT_SERVING while none is alive, SERVING again once one is
    (never while ``draining()``)."""
    from grpc_health.v1 import health_pb2

    names = tuple(names)

    def on_change(alive: int) -> None:
        if draining():
            return
        status = (
            health_pb2.HealthCheckResponse.SERVING
            if alive
            else health_pb2.HealthCheckResponse.NOT_SERVING
        )
        for name in names:
            health_servicer.set(name, status)

    pool.add_listener(on_change)
