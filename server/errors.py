"""Domain errors -> gRPC status codes, in one place.

Every exception that leaves a servicer method goes through :func:`to_rpc_status`:

* rules-layer errors (:class:`games.base.GameError` and its subclasses, :class:`games.cards.CardError`,
  the record errors of ``games.record``) and :class:`RequestError` (a bad request field found by
  the service itself) -> ``INVALID_ARGUMENT`` with a ``google.rpc.BadRequest`` detail holding one
  field violation: the request field path (``view.moves[17]``, ``record.deal.hands[1]``,
  ``budget.iterations``) and the message;
* :class:`Busy` -> ``RESOURCE_EXHAUSTED`` (every worker busy and the queue full), with the
  server's retry delay (``Busy.retry_after_s``, computed by :class:`server.pool.WorkerPool`) as a
  ``google.rpc.RetryInfo`` detail and, on the gRPC port, the standard trailer
  ``grpc-retry-pushback-ms`` (:func:`to_grpc_status`); clients read it back with
  :func:`retry_after_s`;
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

**Language.**  Every error text of the rules (:class:`games.errors.CodedError`) and of the
service's own checks (:class:`RequestError` with a :class:`games.errors.Text`; codes
``request.*``, :data:`TEXTS`) has a stable code, parameters and an English and a Vietnamese
text.  :func:`to_rpc_status` writes the description in the call's language (``lang``: the
request's ``language`` field, "vi" or English) and the code in the violation's ``reason``
(``TIENLEN_NOT_IN_HAND``); field paths and status codes never change.
"""

from __future__ import annotations

import collections
import hmac
import logging
import math
import re
import threading
import time
from typing import Any

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from quansu.games.base import DealError, GameError, IllegalMoveError, MoveParseError, OptionError
from quansu.games.cards import CardError
from quansu.games.errors import CodedError, Text, register
from quansu.games.errors import render as render_error

log = logging.getLogger("quansu.server")


#: The service's own error texts (its checks of a request's fields): code -> (English,
#: Vietnamese), registered with the rules' texts (:data:`games.errors.TABLE`).
TEXTS: dict[str, tuple[str, str]] = register(
    {
        "request.text_too_long": (
            "{n} characters, over the maximum of {limit}",
            "{n} ký tự, vượt mức tối đa {limit}",
        ),
        "request.too_many_cards": (
            "{n} cards, over the maximum of {limit}",
            "{n} lá, vượt mức tối đa {limit}",
        ),
        "request.too_many_items": (
            "{n} items, over the maximum of {limit}",
            "{n} phần tử, vượt mức tối đa {limit}",
        ),
        "request.too_many_options": (
            "{n} options, over the maximum of {limit}",
            "{n} tùy chọn, vượt mức tối đa {limit}",
        ),
        "request.too_many_hands": (
            "{n} hands, over the maximum of {limit}",
            "{n} tay bài, vượt mức tối đa {limit}",
        ),
        "request.too_many_entries": (
            "{n} entries, over the maximum of {limit}",
            "{n} mục, vượt mức tối đa {limit}",
        ),
        "request.too_many_transfers": (
            "{n} transfers, over the maximum of {limit}",
            "{n} khoản thanh toán, vượt mức tối đa {limit}",
        ),
        "request.too_many_seats": (
            "{n} seats, over the maximum of {limit}",
            "{n} ghế, vượt mức tối đa {limit}",
        ),
        "request.not_finite": ("{value} is not a finite number", "{value} không phải số hữu hạn"),
        "request.option_not_finite": (
            "not a finite number ({error})",
            "không phải số hữu hạn ({error})",
        ),
        "request.option_too_deep": (
            "nested too deep for an option value",
            "lồng quá sâu đối với giá trị của một tùy chọn",
        ),
        "request.too_many_moves": (
            "{n} moves, over the most a game can have ({limit} for {game!r} "
            "with {players} players)",
            "{n} nước, nhiều hơn số nước tối đa của một ván ({limit} với "
            "{game!r} cho {players} người chơi)",
        ),
        "request.option_name_too_long": (
            "an option name of {n} characters, over the maximum of {limit}",
            "tên tùy chọn dài {n} ký tự, vượt mức tối đa {limit}",
        ),
        "request.not_object": (
            "expected a JSON object, got {type}",
            "cần một đối tượng JSON, nhận {type}",
        ),
        "request.not_message": (
            "not a valid {message}: {error}",
            "không phải {message} hợp lệ: {error}",
        ),
        "request.record_or_view": (
            "expected a record or a view",
            "cần một bản ghi cả ván hoặc phần nhìn của một ghế",
        ),
        "request.language": (
            "{value!r} is not a language; expected one of {languages} (or empty: en)",
            "{value!r} không phải ngôn ngữ; cần một trong {languages} (hoặc để trống: en)",
        ),
        "request.negative": ("{value} is negative", "{value} là số âm"),
        "request.over_maximum": (
            "{value} is over the server's maximum of {limit}",
            "{value} vượt mức tối đa {limit} của máy chủ",
        ),
        "request.out_of_range": (
            "{value} is out of range {lo}..{hi}",
            "{value} ngoài khoảng {lo}..{hi}",
        ),
        "request.strength": (
            "{value} is out of range 1..5 (0: a hint)",
            "{value} ngoài khoảng 1..5 (0: gợi ý)",
        ),
        "request.view_missing": (
            "missing: Suggest takes a seat's view",
            "thiếu: Suggest cần phần nhìn của một ghế",
        ),
        "request.stream_request_missing": (
            "missing: the Suggest request to stream",
            "thiếu: yêu cầu Suggest để gửi dần",
        ),
        "request.seat_negative": ("seat {seat} is negative", "ghế {seat} là số âm"),
        "request.threshold": (
            "{value} must be a finite number >= 0",
            "{value} phải là số hữu hạn >= 0",
        ),
        "request.game_over": (
            "the game is over: there is no move to suggest",
            "ván đã hết: không còn nước nào để gợi ý",
        ),
        "request.seat_not_to_act": (
            "seat {seat} is not to act (seat {to_act} is)",
            "chưa đến lượt ghế {seat} (đang đến lượt ghế {to_act})",
        ),
        "request.seat_out_of_range": (
            "seat {seat} is out of range 0..{last}",
            "ghế {seat} ngoài khoảng 0..{last}",
        ),
        "request.view_judges_own_seat": (
            "a view of seat {seat} can only judge seat {seat}'s decisions",
            "phần nhìn của ghế {seat} chỉ đánh giá được các nước của ghế {seat}",
        ),
        "request.seat_twice": ("seat {seat} is named twice", "ghế {seat} được ghi hai lần"),
        "request.too_many_decisions": (
            "{n} decisions to judge, over the server's maximum of {limit}",
            "{n} quyết định cần đánh giá, vượt mức tối đa {limit} của máy chủ",
        ),
        "request.one_world": (
            "1 world gives no interval: ask for 2 or more",
            "1 ván mẫu không cho ra khoảng tin cậy: hãy cần từ 2 trở lên",
        ),
        "request.thresholds_order": (
            "expected good <= inaccuracy <= mistake, got {good:g}, {inaccuracy:g}, {mistake:g}",
            "cần good <= inaccuracy <= mistake, nhận {good:g}, {inaccuracy:g}, {mistake:g}",
        ),
        "request.body_too_large": (
            "{n} bytes, over the server's maximum of {limit} for a {message}",
            "{n} byte, vượt mức tối đa {limit} của máy chủ cho một {message}",
        ),
        "request.body_not_message": (
            "the body ({n} bytes) is not a valid {message}",
            "nội dung ({n} byte) không phải {message} hợp lệ",
        ),
        "request.unknown_job": ("unknown job kind {kind!r}", "không có loại việc {kind!r}"),
        # the HTTP gateway's own checks (server/gateway.py)
        "request.json_body_too_large": (
            "{n} bytes, over the gateway's maximum of {limit} for a JSON body",
            "{n} byte, vượt mức tối đa {limit} của cổng HTTP cho một thân JSON",
        ),
        "request.body_over_limit": (
            "over the gateway's maximum of {limit} bytes for a JSON body",
            "vượt mức tối đa {limit} byte của cổng HTTP cho một thân JSON",
        ),
        "request.not_utf8": ("the body is not UTF-8 text", "thân yêu cầu không phải văn bản UTF-8"),
        "request.bad_json": ("not valid JSON: {error}", "không phải JSON hợp lệ: {error}"),
        "request.not_json_object": (
            "expected a JSON object, got {type}",
            "cần một đối tượng JSON, nhận được {type}",
        ),
        "request.json_too_deep": ("nested deeper than {limit} levels", "lồng sâu quá {limit} tầng"),
        "request.bad_message": (
            "not valid for a {message}: {error}",
            "không hợp lệ cho một {message}: {error}",
        ),
        "request.bad_timeout": (
            "{value} is not a timeout: digits then one of H M S m u n, e.g. 2S or 500m",
            "{value} không phải thời hạn: chữ số rồi một trong H M S m u n, ví dụ 2S hay 500m",
        ),
        "request.not_integer": (
            "expected an integer, got {type}",
            "cần một số nguyên, nhận được {type}",
        ),
        "request.unknown_field": (
            "unknown field; expected {allowed}",
            "trường không biết; cần một trong {allowed}",
        ),
        "request.not_game_name": (
            "expected a game name, got {type}",
            "cần tên một trò chơi, nhận được {type}",
        ),
        "request.game_name_too_long": ("longer than {limit} characters", "dài quá {limit} ký tự"),
        "request.options_not_object": (
            "expected an object, got {type}",
            "cần một đối tượng, nhận được {type}",
        ),
        "request.option_nan": ("not a finite number", "không phải số hữu hạn"),
        "request.missing_record": (
            "missing: the game record to cut the view from",
            "thiếu: biên bản ván để cắt góc nhìn",
        ),
        "request.missing_seat": ("missing: a seat 0..{last}", "thiếu: một ghế 0..{last}"),
    }
)


class ServiceError(Exception):
    """Base of the errors the service raises itself."""

    code: grpc.StatusCode = grpc.StatusCode.INTERNAL


class RequestError(ServiceError):
    """A bad request field: ``field`` is the request field path, ``message`` says what is wrong
    (English); ``text`` is the message's :class:`games.errors.Text` (code and params, rendered
    in any language by :meth:`render`), or the rules error it comes from, or ``None`` for a
    plain English message."""

    code = grpc.StatusCode.INVALID_ARGUMENT

    def __init__(self, field: str, message: "str | Text | CodedError"):
        self.text = message if isinstance(message, (Text, CodedError)) else None
        self.message = message.render("en") if self.text is not None else str(message)
        super().__init__(f"{field}: {self.message}" if field else self.message)
        self.field = field

    @classmethod
    def of(cls, field: str, code: str, /, **params: Any) -> "RequestError":
        """The error ``code`` (:data:`TEXTS`) about request field ``field``."""
        return cls(field, Text(code, **params))

    def render(self, lang: str = "en") -> str:
        """The message (without the field) in ``lang``."""
        return self.text.render(lang) if self.text is not None else self.message

    @property
    def error_code(self) -> str:
        """The stable code of the message ("" for a plain one)."""
        return self.text.code if self.text is not None else ""


class BadBody(RequestError):
    """A request body that is not a valid protobuf of the method's request message (or is over
    the size limit): INVALID_ARGUMENT naming the field ``request``."""

    def __init__(self, message: str):
        super().__init__("request", message)


class Busy(ServiceError):
    """Every worker is busy and the wait queue is full.  ``retry_after_s``: how long the
    server asks the client to wait before it tries again (seconds; None: no advice), sent as a
    ``google.rpc.RetryInfo`` detail and the ``grpc-retry-pushback-ms`` trailer."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED

    def __init__(self, message: str, retry_after_s: float | None = None):
        super().__init__(message)
        if retry_after_s is not None and not (math.isfinite(retry_after_s) and retry_after_s >= 0):
            retry_after_s = None
        self.retry_after_s = retry_after_s


class Unauthenticated(ServiceError):
    code = grpc.StatusCode.UNAUTHENTICATED


def check_token(
    got: str, expected: bytes | None, carrier: str = "metadata", header: str = "authorization"
) -> None:
    """Refuse a call whose ``header`` value ``got`` is not ``Bearer <token>`` (``expected``:
    ``b"Bearer <token>"``; None: no token required), compared in constant time: raises
    :class:`Unauthenticated` saying whether the value was missing or wrong.  ``carrier``:
    "metadata" (gRPC, lower-case ``authorization``) or "header" (HTTP, ``Authorization``).
    The gRPC interceptor and the HTTP gateway both check with it."""
    if expected is None:
        return
    if hmac.compare_digest(got.encode("utf-8", "replace"), expected):
        return
    raise Unauthenticated(
        f"missing {carrier} '{header}: Bearer <token>'"
        if not got
        else f"the token in '{header}' is not valid"
    )


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
    :class:`RequestError` naming the full field path; its message keeps the rules error's code
    (:meth:`RequestError.render` writes it in any language, without the path the field names)."""
    field = rules_field(exc)
    msg = str(exc)
    m = _FIELD_RE.match(msg)
    if m and (m.group(1) == field or field.startswith(m.group(1) + ".")):
        msg = msg[m.end() :]
        if isinstance(exc, CodedError) and exc.path and exc.path[0] == m.group(1):
            return RequestError(
                join_field(prefix, field),
                type(exc)(exc.text if exc.text is not None else exc.plain, path=exc.path[1:]),
            )
    elif isinstance(exc, CodedError):
        return RequestError(join_field(prefix, field), exc)
    return RequestError(join_field(prefix, field), msg)


def error_text(exc: BaseException, lang: str = "en") -> str:
    """The message of a rules error or :class:`RequestError` in ``lang`` (anything else:
    ``str()``)."""
    if isinstance(exc, RequestError):
        return exc.render(lang)
    return render_error(exc, lang)


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
    return text if len(text) <= limit else text[: max(0, limit - 3)] + "..."


def clip_message(message: str) -> str:
    """An error text with every quoted run of input, and every other run without spaces, cut to
    :data:`QUOTE_LIMIT` characters (quotes kept), and the whole cut to :data:`MESSAGE_LIMIT`."""

    def short(m: re.Match) -> str:
        q = m.group(0)
        if len(q) <= QUOTE_LIMIT + 2:
            return q
        return q[0] + q[1 : QUOTE_LIMIT - 2] + "..." + q[0]

    message = _QUOTED_RE.sub(short, message)
    # an unquoted run of input (a huge number, a long token) is cut too
    message = _LONG_RUN_RE.sub(lambda m: m.group(0)[: QUOTE_LIMIT - 3] + "...", message)
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


def violation_reason(code: str) -> str:
    """An error code as a FieldViolation ``reason`` (UPPER_SNAKE_CASE: ``tienlen.not_in_hand``
    -> ``TIENLEN_NOT_IN_HAND``)."""
    return code.upper().replace(".", "_")


#: Whether this google.rpc has ``FieldViolation.reason`` (googleapis-common-protos >= 1.65).
_HAS_REASON = "reason" in error_details_pb2.BadRequest.FieldViolation.DESCRIPTOR.fields_by_name


def bad_request(field: str, message: str, code: str = "") -> status_pb2.Status:
    """An INVALID_ARGUMENT status with one BadRequest field violation (texts clipped by
    :func:`clip_message`); ``code``, the error's stable code, goes in the violation's
    ``reason`` (:func:`violation_reason`)."""
    field = clip(field, 2 * QUOTE_LIMIT)
    message = clip_message(message)
    violation = error_details_pb2.BadRequest.FieldViolation(field=field, description=message)
    if code and _HAS_REASON:
        violation.reason = violation_reason(code)
    detail = error_details_pb2.BadRequest(field_violations=[violation])
    packed = any_pb2.Any()
    packed.Pack(detail)
    text = f"{field}: {message}" if field and not message.startswith(field) else message
    return status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=text, details=[packed])


def to_rpc_status(exc: BaseException, prefix: str = "", lang: str = "") -> status_pb2.Status:
    """The ``google.rpc.Status`` for an exception; ``prefix`` is the request field that held the
    record or view (``"view"``, ``"record"``) for rules-layer errors; ``lang`` the language of an
    INVALID_ARGUMENT's description ("vi"; anything else: English), or ``exc.language`` when the
    worker that raised it set one."""
    lang = lang or getattr(exc, "language", "") or "en"
    if isinstance(exc, RemoteError):
        return exc.status
    if isinstance(exc, RequestError):
        return bad_request(exc.field, exc.render(lang), exc.error_code)
    if is_rules_error(exc):
        err = as_request_error(exc, prefix)
        return bad_request(err.field, err.render(lang), err.error_code)
    if isinstance(exc, Busy) and exc.retry_after_s is not None:
        return busy_status(str(exc), exc.retry_after_s)
    if isinstance(exc, ServiceError):
        return status_pb2.Status(code=exc.code.value[0], message=str(exc))
    INTERNAL_LOG.exception(f"internal error ({type(exc).__name__})", exc)
    return status_pb2.Status(
        code=code_pb2.INTERNAL, message=f"internal error ({type(exc).__name__}); see the server log"
    )


class _GrpcStatus(
    collections.namedtuple("_GrpcStatus", ("code", "details", "trailing_metadata")), grpc.Status
):
    """A ``grpc.Status`` (what ``context.abort_with_status`` takes)."""


#: The trailer that carries a serialized ``google.rpc.Status`` (its details included).
DETAILS_KEY = "grpc-status-details-bin"
#: The standard gRPC trailer of a server's retry pushback (gRFC A6): whole milliseconds to wait
#: before the next attempt.
RETRY_PUSHBACK_KEY = "grpc-retry-pushback-ms"


def retry_delay_ms(seconds: float) -> int:
    """A retry delay in whole milliseconds, rounded up (never earlier than the server said)."""
    return max(0, math.ceil(seconds * 1000.0 - 1e-6))


def busy_status(message: str, retry_after_s: float) -> status_pb2.Status:
    """A RESOURCE_EXHAUSTED status with a ``google.rpc.RetryInfo`` detail of ``retry_after_s``
    (in whole milliseconds, as the trailer :data:`RETRY_PUSHBACK_KEY` says it); the message is
    clipped like every error text (:func:`clip_message`)."""
    ms = retry_delay_ms(retry_after_s)
    info = error_details_pb2.RetryInfo(
        retry_delay=duration_pb2.Duration(seconds=ms // 1000, nanos=(ms % 1000) * 1_000_000)
    )
    packed = any_pb2.Any()
    packed.Pack(info)
    return status_pb2.Status(
        code=code_pb2.RESOURCE_EXHAUSTED, message=clip_message(message), details=[packed]
    )


def retry_delay_s(status: status_pb2.Status) -> float | None:
    """The retry delay of a status's ``google.rpc.RetryInfo`` detail (seconds), None without
    one."""
    for d in status.details:
        if d.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            d.Unpack(info)
            return info.retry_delay.seconds + info.retry_delay.nanos / 1e9
    return None


def to_grpc_status(status: status_pb2.Status) -> grpc.Status:
    """The ``grpc.Status`` to end a call with (``context.abort_with_status``): the status in
    ``grpc-status-details-bin`` and, when it carries a ``RetryInfo``, the same delay in the
    trailer ``grpc-retry-pushback-ms`` (whole milliseconds), which gRPC clients with a retry
    policy honour by themselves."""
    out = rpc_status.to_status(status)
    delay = retry_delay_s(status)
    if delay is None:
        return out
    return _GrpcStatus(
        out.code,
        out.details,
        tuple(out.trailing_metadata) + ((RETRY_PUSHBACK_KEY, str(retry_delay_ms(delay))),),
    )


def abort(context: grpc.ServicerContext, exc: BaseException, prefix: str = "") -> Any:
    """End the call with the status of ``exc`` (raises, as ``context.abort`` does)."""
    context.abort_with_status(to_grpc_status(to_rpc_status(exc, prefix)))


def retry_after_s(err: grpc.RpcError) -> float | None:
    """Client side: the server's retry delay of a refused call (seconds), from the trailer
    ``grpc-retry-pushback-ms`` or else the status's ``RetryInfo`` detail; None when the server
    gave none."""
    trailing = getattr(err, "trailing_metadata", None)
    items = (trailing() if callable(trailing) else None) or ()
    for key, value in items:
        if key == RETRY_PUSHBACK_KEY:
            try:
                ms = int(value)
            except (TypeError, ValueError):
                return None  # gRFC A6: a pushback that is not a number means "do not retry"
            return ms / 1000.0 if ms >= 0 else None
    for key, value in items:
        if key == DETAILS_KEY:
            try:
                return retry_delay_s(status_pb2.Status.FromString(value))
            except Exception:  # noqa: BLE001 - an unreadable detail: no advice
                return None
    return None


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
