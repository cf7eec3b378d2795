"""Domain errors -> gRPC status codes, in one place.

Every exception that leaves a servicer method goes through :func:`to_rpc_status`:

* rules-layer errors (:class:`games.base.GameError` and its subclasses, :class:`games.cards.CardError`,
  the record errors of ``games.record``) and :class:`RequestError` (a bad request field found by
  the service itself) -> ``INVALID_ARGUMENT`` with a ``google.rpc.BadRequest`` detail holding one
  field violation: the request field path (``view.moves[17]``, ``record.deal.hands[1]``,
  ``budget.iterations``) and the message;
* :class:`Busy` -> ``RESOURCE_EXHAUSTED`` (every worker busy and the queue full);
* :class:`Unauthenticated` -> ``UNAUTHENTICATED``;
* :class:`Unavailable` -> ``UNAVAILABLE`` (the server is draining or a worker died);
* anything else -> ``INTERNAL`` with a generic message (the traceback goes to the server log,
  at most one per 10 s: :data:`INTERNAL_LOG`).

Error texts never echo much of the input: :func:`clip_message` shortens every quoted run of
input to :data:`QUOTE_LIMIT` characters and the whole text to :data:`MESSAGE_LIMIT`, so a status
(message and BadRequest detail) always fits in a client's metadata limit.  A request body that
is not a valid protobuf is :class:`BadBody` (INVALID_ARGUMENT, field ``request``), logged by
:data:`BAD_BODY_LOG` at most once per ``interval_s``.

The field path of a rules error comes from the prefix the rules layer puts on its messages
(``"moves[17]: ..."``, ``"deal.hands[1]: ..."``), or else from the error's class.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from typing import Any

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from quansu.games.base import DealError, GameError, IllegalMoveError, MoveParseError, OptionError
from quansu.games.cards import CardError

log = logging.getLogger("quansu.server")


class ServiceError(Exception):
    """Base of the errors the service raises itself."""

    code: grpc.StatusCode = grpc.StatusCode.INTERNAL


class RequestError(ServiceError):
    """A bad request field: ``field`` is the request field path, ``message`` says what is wrong."""

    code = grpc.StatusCode.INVALID_ARGUMENT

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message


class BadBody(RequestError):
    """A request body that is not a valid protobuf of the method's request message (or is over
    the size limit): INVALID_ARGUMENT naming the field ``request``."""

    def __init__(self, message: str):
        super().__init__("request", message)


class Busy(ServiceError):
    """Every worker is busy and the wait queue is full."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED


class Unauthenticated(ServiceError):
    code = grpc.StatusCode.UNAUTHENTICATED


class Unavailable(ServiceError):
    code = grpc.StatusCode.UNAVAILABLE


class DeadlineExceeded(ServiceError):
    code = grpc.StatusCode.DEADLINE_EXCEEDED


class RemoteError(ServiceError):
    """An error whose status was computed elsewhere (in a search worker): ``status`` is the
    ``google.rpc.Status`` to answer with."""

    def __init__(self, status: status_pb2.Status):
        super().__init__(status.message)
        self.status = status


#: A leading field path such as ``moves[17]``, ``deal.hands[1]``, ``options.trump_swap``,
#: ``result.net``, followed by ``": "``.
_FIELD_RE = re.compile(r"^([a-z_]+(?:\[\d+\])?(?:\.[a-z_]+(?:\[\d+\])?)*): ")
_OPTION_NAME_RE = re.compile(r"(?<!unknown )option '([A-Za-z0-9_]+)'")

#: Top-level fields of a record or view: a rules message naming one of these is a field path.
_TOP_FIELDS = {"format", "game", "players", "options", "seat", "deal", "drawn", "moves", "result"}


def as_request_error(exc: BaseException, prefix: str) -> RequestError:
    """A rules-layer error about a record or view held in request field ``prefix``, as a
    :class:`RequestError` naming the full field path."""
    field = rules_field(exc)
    msg = str(exc)
    m = _FIELD_RE.match(msg)
    if m and (m.group(1) == field or field.startswith(m.group(1) + ".")):
        msg = msg[m.end():]
    return RequestError(join_field(prefix, field), msg)


def rules_field(exc: BaseException) -> str:
    """The record/view field a rules-layer error points at ("" when it names none)."""
    field = getattr(exc, "field", None)
    if isinstance(field, str) and field:
        return field
    msg = str(exc)
    if isinstance(exc, OptionError):
        # "options: option 'u_payment': ..." names the option; an unknown one names none
        m = _OPTION_NAME_RE.search(msg)
        if m:
            return f"options.{m.group(1)}"
        return "options"
    m = _FIELD_RE.match(msg)
    if m and m.group(1).split(".")[0].split("[")[0] in _TOP_FIELDS:
        return m.group(1)
    if isinstance(exc, (IllegalMoveError, MoveParseError)):
        return "moves"
    if isinstance(exc, (DealError, CardError)):
        return "deal"
    if isinstance(exc, GameError):
        low = msg.lower()
        if "unknown game" in low:
            return "game"
        if "player" in low:
            return "players"
    return ""


def join_field(prefix: str, field: str) -> str:
    if not prefix:
        return field
    if not field:
        return prefix
    return f"{prefix}.{field}"


def is_rules_error(exc: BaseException) -> bool:
    if isinstance(exc, (GameError, CardError)):
        return True
    # games.record's errors, whatever their base, carry a field path.
    return type(exc).__module__.startswith("games.") and isinstance(exc, ValueError)


#: Longest quoted run of input an error text keeps (characters).
QUOTE_LIMIT = 64
#: Longest error text (characters); gRPC sends it twice (message and BadRequest detail), and a
#: client refuses trailers over 8 KB.
MESSAGE_LIMIT = 400
#: A quoted run: "..." (JSON, with escapes) or '...' (Python repr).
_LONG_RUN_RE = re.compile(r"[^\s\"']{%d,}" % (QUOTE_LIMIT + 1))
_QUOTED_RE = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')


def clip(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters (the cut marked with ``...``)."""
    return text if len(text) <= limit else text[:max(0, limit - 3)] + "..."


def clip_message(message: str) -> str:
    """An error text with every quoted run of input, and every other run without spaces, cut to
    :data:`QUOTE_LIMIT` characters (quotes kept), and the whole cut to :data:`MESSAGE_LIMIT`."""
    def short(m: re.Match) -> str:
        q = m.group(0)
        if len(q) <= QUOTE_LIMIT + 2:
            return q
        return q[0] + q[1:QUOTE_LIMIT - 2] + "..." + q[0]

    message = _QUOTED_RE.sub(short, message)
    # an unquoted run of input (a huge number, a long token) is cut too
    message = _LONG_RUN_RE.sub(lambda m: m.group(0)[:QUOTE_LIMIT - 3] + "...", message)
    return clip(message, MESSAGE_LIMIT)


class RateLimitedLog:
    """Log one line at most every ``interval_s`` seconds, saying how many were left out."""

    def __init__(self, logger: logging.Logger, interval_s: float = 10.0):
        self.logger = logger
        self.interval_s = interval_s
        self._lock = threading.Lock()
        self._next = 0.0
        self._skipped = 0

    def warning(self, message: str, *args: Any) -> bool:
        """Log ``message % args`` unless a line was logged less than ``interval_s`` ago; returns
        whether it was logged."""
        now = time.monotonic()
        with self._lock:
            if now < self._next:
                self._skipped += 1
                return False
            skipped, self._skipped = self._skipped, 0
            self._next = now + self.interval_s
        suffix = f" ({skipped} more like it not logged)" if skipped else ""
        self.logger.warning(message + suffix, *args)
        return True

    def exception(self, message: str, exc: BaseException) -> bool:
        """Log ``message`` at ERROR with ``exc``'s traceback, at most once per ``interval_s``;
        returns whether it was logged."""
        now = time.monotonic()
        with self._lock:
            if now < self._next:
                self._skipped += 1
                return False
            skipped, self._skipped = self._skipped, 0
            self._next = now + self.interval_s
        suffix = f" ({skipped} more like it not logged)" if skipped else ""
        self.logger.error(message + suffix, exc_info=exc)
        return True


#: The log of request bodies that do not parse (one line per 10 s at most).
BAD_BODY_LOG = RateLimitedLog(log)
#: The tracebacks of server bugs (INTERNAL), one per 10 s at most: the only tracebacks a call
#: writes (every other error is a status in the call's log line, server/logs.py).
INTERNAL_LOG = RateLimitedLog(log)


def bad_request(field: str, message: str) -> status_pb2.Status:
    """An INVALID_ARGUMENT status with one BadRequest field violation (texts clipped by
    :func:`clip_message`)."""
    field = clip(field, 2 * QUOTE_LIMIT)
    message = clip_message(message)
    detail = error_details_pb2.BadRequest(
        field_violations=[error_details_pb2.BadRequest.FieldViolation(field=field, description=message)])
    packed = any_pb2.Any()
    packed.Pack(detail)
    text = f"{field}: {message}" if field and not message.startswith(field) else message
    return status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=text, details=[packed])


def to_rpc_status(exc: BaseException, prefix: str = "") -> status_pb2.Status:
    """The ``google.rpc.Status`` for an exception; ``prefix`` is the request field that held the
    record or view (``"view"``, ``"record"``) for rules-layer errors."""
    if isinstance(exc, RemoteError):
        return exc.status
    if isinstance(exc, RequestError):
        return bad_request(exc.field, exc.message)
    if is_rules_error(exc):
        err = as_request_error(exc, prefix)
        return bad_request(err.field, err.message)
    if isinstance(exc, ServiceError):
        return status_pb2.Status(code=exc.code.value[0], message=str(exc))
    INTERNAL_LOG.exception(f"internal error ({type(exc).__name__})", exc)
    return status_pb2.Status(code=code_pb2.INTERNAL,
                             message=f"internal error ({type(exc).__name__}); see the server log")


def abort(context: grpc.ServicerContext, exc: BaseException, prefix: str = "") -> Any:
    """End the call with the status of ``exc`` (raises, as ``context.abort`` does)."""
    context.abort_with_status(rpc_status.to_status(to_rpc_status(exc, prefix)))


def field_violations(err: grpc.RpcError) -> list[tuple[str, str]]:
    """Client side: the ``(field, description)`` pairs of an error's BadRequest detail."""
    status = rpc_status.from_call(err)
    out: list[tuple[str, str]] = []
    if status is None:
        return out
    for d in status.details:
        if d.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            br = error_details_pb2.BadRequest()
            d.Unpack(br)
            out += [(v.field, v.description) for v in br.field_violations]
    return out
