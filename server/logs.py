"""The server's logs: JSON lines, one per call.

``quansu serve --log-level LEVEL`` (:data:`LEVELS`; anything else is refused) writes every log
record as one JSON object per line on standard error (:class:`JsonFormatter`: ``ts``, ``level``,
``logger``, ``msg``, then the record's fields).  Every call of ``quansu.v1.QuansuService``, over
gRPC or the HTTP gateway (both go through :class:`server.servicer.QuansuServicer`), ends with one
line of the logger ``quansu.calls`` at INFO (:class:`Call`)::

    {"ts": "2025-01-01T12:00:00.123Z", "level": "INFO", "logger": "quansu.calls", "msg": "call",
     "rpc": "Suggest", "game": "tienlen", "players": 4, "budget": {"iterations": 400, "ms": 0},
     "strength": 0, "language": "vi", "iterations": 400, "status": "OK", "ms": 212.4,
     "peer": "ipv4:127.0.0.1:52100"}

What a line holds is counts and names only: **never a card** of a view or record, nor an error
message (which may quote cards), at any level above DEBUG.  At DEBUG a second line per call
(``"msg": "call detail"``, level DEBUG) adds the error's message and the request itself in
protobuf JSON.

Tracebacks are written only for INTERNAL (a server bug), at most one per 10 s
(:data:`server.errors.INTERNAL_LOG`); every other error is a status in the call's line.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any, Callable

from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import code_pb2, status_pb2

#: The levels of ``--log-level`` (lower or upper case).
LEVELS = ("debug", "info", "warning", "error", "critical")

#: The logger of the per-call lines.
CALL_LOG = logging.getLogger("quansu.calls")

#: The game label of a request whose game is not one the server knows (bounded label values).
UNKNOWN_GAME = "unknown"
#: The game label of a call without a game (DescribeGames, a body that does not parse).
NO_GAME = "none"


def parse_level(text: str) -> int:
    """The logging level named ``text`` (one of :data:`LEVELS`, any case); ValueError for any
    other value."""
    name = str(text).strip().lower()
    if name not in LEVELS:
        raise ValueError(
            f"unknown log level {str(text)[:32]!r}; expected one of {', '.join(LEVELS)}"
        )
    return getattr(logging, name.upper())


class JsonFormatter(logging.Formatter):
    """One JSON object per record: ``ts`` (UTC, ms), ``level``, ``logger``, ``msg``, the
    record's ``fields`` (a dict passed as ``extra={"fields": ...}``), and ``traceback`` when the
    record carries one."""

    def format(self, record: logging.LogRecord) -> str:
        ts = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        out: dict[str, Any] = {
            "ts": f"{ts}.{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            for k, v in fields.items():
                out.setdefault(k, v)
        if record.exc_info:
            out["traceback"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["traceback"] = record.exc_text
        return json.dumps(out, ensure_ascii=False, default=str, separators=(", ", ": "))


def configure(level: int | str, stream=None) -> None:
    """Log every record at ``level`` or above as JSON lines on ``stream`` (standard error): the
    root logger's only handler.  ``level``: a logging level or one of :data:`LEVELS`."""
    if isinstance(level, str):
        level = parse_level(level)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    root.addHandler(handler)
    root.setLevel(level)


def game_label(name: str) -> str:
    """A request's game as a bounded label: its name when the server knows it, else
    :data:`UNKNOWN_GAME` (a client cannot make up label values)."""
    from quansu.games.registry import game_classes

    if not name:
        return NO_GAME
    return name if name in game_classes() else UNKNOWN_GAME


def _source(msg: Message):
    """The record or view of a request message (or None)."""
    for field in ("view", "record"):
        if field in msg.DESCRIPTOR.fields_by_name and msg.HasField(field):
            return getattr(msg, field)
    return None


class Call:
    """One call, from its start to its end: what the per-call line and the metrics are made of.

    The servicer makes it (:meth:`Calls.start`), tells it the parsed request (:meth:`request`),
    each answer (:meth:`answer`) or the exception (:meth:`failed`), and ends it (:meth:`finish`,
    once; a call that ends without either, such as a stream the client closed, is CANCELLED).
    """

    def __init__(self, rpc: str, peer: str, on_finish: Callable[["Call"], None]):
        self.rpc = rpc
        self.peer = peer
        self.game = NO_GAME
        self.players = 0
        self.budget: dict[str, int] | None = None
        self.strength: int | None = None
        self.language: str | None = None
        self.iterations = 0
        self.search_ms = 0.0
        self.decisions = 0
        self.code: int | None = None
        self.message = ""
        self.request_msg: Message | None = None
        self._start = time.perf_counter()
        self.ms = 0.0
        self._on_finish = on_finish
        self._done = False

    # -- what the servicer tells --------------------------------------------------------------
    def request(self, msg: Message) -> None:
        """The parsed request: its game, player count, budget, strength and language."""
        self.request_msg = msg
        inner = msg.request if self.rpc == "SuggestStream" else msg
        src = _source(inner)
        if src is not None:
            self.game = game_label(src.game)
            self.players = int(src.players)
        fields = inner.DESCRIPTOR.fields_by_name
        if "budget" in fields:
            self.budget = {"iterations": inner.budget.iterations, "ms": inner.budget.milliseconds}
        if "strength" in fields:
            self.strength = inner.strength
        if "language" in fields:
            self.language = inner.language[:8] or "en"

    def answer(self, msg: Message) -> Message:
        """An answer on its way out (returned as it is): the search's iterations (the last
        Suggest answer's, which counts them all) and Analyze's decisions."""
        if msg.DESCRIPTOR.name == "SuggestResponse":
            self.iterations = msg.stats.iterations
            self.search_ms = msg.stats.elapsed_ms
        elif msg.DESCRIPTOR.name == "AnalyzeResponse" and msg.WhichOneof("item") == "decision":
            self.decisions += 1
        return msg

    def failed(self, exc: BaseException) -> status_pb2.Status:
        """The status the call ends with for ``exc`` (:func:`server.errors.to_rpc_status`,
        computed once: an INTERNAL's traceback is logged there, rate-limited)."""
        from quansu.server.errors import to_rpc_status

        lang = self.language if self.language in ("en", "vi") else ""
        status = to_rpc_status(exc, lang=lang)  # an INVALID_ARGUMENT in the request's language
        self.code = status.code
        self.message = status.message
        return status

    def ok(self) -> None:
        """The call answered in full."""
        if self.code is None:
            self.code = code_pb2.OK

    # -- the end ------------------------------------------------------------------------------
    @property
    def status(self) -> str:
        code = code_pb2.CANCELLED if self.code is None else self.code
        return code_pb2.Code.Name(code) if code in code_pb2.Code.values() else "UNKNOWN"

    def finish(self) -> None:
        """End the call (once): its line and its metrics."""
        if self._done:
            return
        self._done = True
        if self.code is None:
            self.code = code_pb2.CANCELLED
        self.ms = (time.perf_counter() - self._start) * 1000.0
        try:
            self._on_finish(self)
        except Exception:  # noqa: BLE001 - observing a call must never break it
            logging.getLogger("quansu.server").exception("recording a call failed")

    def fields(self, debug: bool = False) -> dict[str, Any]:
        """The per-call line's fields (with ``debug``: also the error message and the request,
        which may hold cards: for DEBUG only)."""
        out: dict[str, Any] = {"rpc": self.rpc, "game": self.game}
        if self.players:
            out["players"] = self.players
        if self.budget is not None:
            out["budget"] = self.budget
        if self.strength is not None:
            out["strength"] = self.strength
        if self.language is not None:
            out["language"] = self.language
        out["iterations"] = self.iterations
        if self.rpc == "Analyze":
            out["decisions"] = self.decisions
        out["status"] = self.status
        out["ms"] = round(self.ms, 1)
        out["peer"] = self.peer
        if debug:
            if self.message:
                out["message"] = self.message
            if self.request_msg is not None:
                out["request"] = json_format.MessageToDict(
                    self.request_msg, preserving_proto_field_name=True
                )
        return out


class Calls:
    """Makes the :class:`Call` of each call and, at its end, writes its line and hands it to
    ``metrics`` (:class:`server.metrics.ServiceMetrics`, or None)."""

    def __init__(self, metrics=None, log: logging.Logger = CALL_LOG):
        self.metrics = metrics
        self.log = log

    def start(self, rpc: str, context) -> Call:
        try:
            peer = context.peer() or ""
        except Exception:  # noqa: BLE001 - a context without a peer
            peer = ""
        return Call(rpc, str(peer)[:128], self._finished)

    def _finished(self, call: Call) -> None:
        if self.log.isEnabledFor(logging.INFO):
            self.log.info("call", extra={"fields": call.fields()})
        if self.log.isEnabledFor(logging.DEBUG):
            # a line of its own at DEBUG: the error's message and the request may hold cards
            self.log.debug("call detail", extra={"fields": call.fields(debug=True)})
        if self.metrics is not None:
            self.metrics.observe(call)
