"""The HTTP/JSON gateway: the five RPCs of ``quansu.v1.QuansuService`` over HTTP, and the web page.

``quansu serve --http-port P`` runs it beside the gRPC port, in the same process (uvicorn in a
thread of its own, serving a Starlette app).  Every RPC goes through the **same servicer object**
as the gRPC calls (:class:`server.servicer.QuansuServicer`): the same cheap checks, the same
worker pool and admission (RESOURCE_EXHAUSTED when the queue is full), the same limits, the same
error statuses.  The gateway only translates:

* the request body, JSON in the protobuf JSON mapping of the RPC's request message (field names
  as in the ``.proto`` or in lowerCamelCase, as protobuf JSON allows), into the message's bytes,
  which the servicer receives as a gRPC call's bytes;
* the ``Authorization: Bearer TOKEN`` header (the server's ``--token``), checked like the gRPC
  metadata of the same name; the ``Grpc-Timeout`` header (gRPC's notation: ``2S``, ``500m``)
  into the call's deadline; a client that goes away into a cancelled call;
* the answer into JSON (``preserving_proto_field_name``: the names of the ``.proto`` and of the
  record files), one JSON object per line (NDJSON, ``application/x-ndjson``) for the streaming
  RPCs;
* a status into an HTTP status (:data:`HTTP_STATUS`) with a JSON body ``{"error": {"code",
  "status", "message", "violations": [{"field", "description"}], "details"}}``; the violations
  are those of the ``google.rpc.BadRequest`` detail, so INVALID_ARGUMENT keeps its field path;
  a RESOURCE_EXHAUSTED's ``google.rpc.RetryInfo`` (the pool's retry delay) becomes
  ``retry_after_ms`` in the body and ``Retry-After`` (whole seconds, rounded up, at least 1).
  An error after the first line of a stream comes as a last line ``{"error": ...}``.

Routes (docs/api.md, "HTTP/JSON"): ``POST /v1/suggest``, ``POST /v1/suggest-stream``, ``POST
/v1/analyze``, ``POST /v1/legal-moves``, ``GET /v1/games``; the web page's helpers ``POST
/v1/web/new-game``, ``POST /v1/web/view`` and ``POST /v1/web/estimate``; ``GET /v1/health``
(no token, like gRPC health); and the page itself (``/``, files of ``server/web/``), served with a Content-Security-Policy that
allows nothing outside this server.

Calls run in a bounded thread pool (as many threads as the gRPC server has): a call that finds no
free thread is RESOURCE_EXHAUSTED at once, never queued unseen.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random
import re
import secrets
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, Callable

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from quansu.server import convert, errors
from quansu.server.v1 import records_pb2
from quansu.server.v1 import service_pb2 as pb

log = logging.getLogger("quansu.server")

#: The page's files (``server/web/``), served at ``/`` and ``/<name>``.
WEB_DIR = Path(__file__).with_name("web")
#: The content type of each kind of page file; other files are not served.
WEB_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
#: Sent with every page file: the page may load and call nothing but this server.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

NDJSON = "application/x-ndjson"
JSON_TYPE = "application/json"

#: gRPC status -> HTTP status.
HTTP_STATUS = {
    code_pb2.OK: 200,
    code_pb2.CANCELLED: 499,
    code_pb2.UNKNOWN: 500,
    code_pb2.INVALID_ARGUMENT: 400,
    code_pb2.DEADLINE_EXCEEDED: 504,
    code_pb2.NOT_FOUND: 404,
    code_pb2.ALREADY_EXISTS: 409,
    code_pb2.PERMISSION_DENIED: 403,
    code_pb2.RESOURCE_EXHAUSTED: 429,
    code_pb2.FAILED_PRECONDITION: 400,
    code_pb2.ABORTED: 409,
    code_pb2.OUT_OF_RANGE: 400,
    code_pb2.UNIMPLEMENTED: 501,
    code_pb2.INTERNAL: 500,
    code_pb2.UNAVAILABLE: 503,
    code_pb2.DATA_LOSS: 500,
    code_pb2.UNAUTHENTICATED: 401,
}

#: The gRPC timeout units (``Grpc-Timeout: 2S``) in seconds.
_TIMEOUT_UNITS = {"H": 3600.0, "M": 60.0, "S": 1.0, "m": 1e-3, "u": 1e-6, "n": 1e-9}
_TIMEOUT_RE = re.compile(r"^\s*(\d{1,8})([HMSmun])\s*$")
#: Largest JSON body, as a multiple of the largest protobuf body (JSON spells names out).
JSON_BODY_FACTOR = 8
#: Deepest JSON nesting a body may have (a record is about 5 deep).
MAX_JSON_DEPTH = 32


# -- the call context the servicer sees ------------------------------------------------------


class CallAborted(Exception):
    """The servicer ended the call with ``status`` (a ``google.rpc.Status``)."""

    def __init__(self, status: status_pb2.Status):
        super().__init__(status.message)
        self.status = status


class HttpCallContext(grpc.ServicerContext):
    """What :class:`server.servicer.QuansuServicer` reads of a gRPC call, for an HTTP call:
    the time left, whether the call is still wanted, and the abort that ends it (raised as
    :class:`CallAborted` carrying the full ``google.rpc.Status``, details included)."""

    def __init__(self, seconds: float | None, metadata: tuple = (), peer: str = ""):
        self._end = None if seconds is None else time.monotonic() + seconds
        self._ended = threading.Event()
        self._callbacks: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._metadata = tuple(metadata)
        self._peer = peer
        self._code: grpc.StatusCode | None = None
        self._details = ""
        self._trailing: tuple = ()

    # the call's life
    def is_active(self) -> bool:
        return not self._ended.is_set()

    def time_remaining(self) -> float | None:
        return None if self._end is None else max(0.0, self._end - time.monotonic())

    def cancel(self) -> None:
        """The HTTP client went away (or the gateway gave up): the call is no longer wanted."""
        self._finish()

    def _finish(self) -> None:
        with self._lock:
            if self._ended.is_set():
                return
            self._ended.set()
            callbacks, self._callbacks = self._callbacks, []
        for cb in callbacks:
            try:
                cb()
            except Exception:  # a callback's bug must not break the gateway
                log.exception("call callback failed")

    def add_callback(self, callback) -> bool:
        with self._lock:
            if self._ended.is_set():
                return False
            self._callbacks.append(callback)
            return True

    # ending the call with a status
    def abort(self, code: grpc.StatusCode, details: str):
        raise CallAborted(status_pb2.Status(code=code.value[0], message=details or ""))

    def abort_with_status(self, status):
        for key, value in getattr(status, "trailing_metadata", None) or ():
            if key == "grpc-status-details-bin":
                try:
                    rich = status_pb2.Status.FromString(value)
                except Exception:  # noqa: BLE001 - an unreadable detail: keep code and message
                    break
                raise CallAborted(rich)
        raise CallAborted(
            status_pb2.Status(
                code=status.code.value[0], message=getattr(status, "details", "") or ""
            )
        )

    def set_code(self, code) -> None:
        self._code = code

    def set_details(self, details) -> None:
        self._details = details or ""

    def code(self):
        return self._code

    def details(self):
        return self._details

    def set_trailing_metadata(self, trailing_metadata) -> None:
        self._trailing = tuple(trailing_metadata or ())

    def trailing_metadata(self):
        return self._trailing

    def send_initial_metadata(self, initial_metadata) -> None:
        pass

    def set_compression(self, compression) -> None:
        pass

    def disable_next_message_compression(self) -> None:
        pass

    # who is calling
    def invocation_metadata(self):
        return self._metadata

    def peer(self) -> str:
        return self._peer

    def peer_identities(self):
        return None

    def peer_identity_key(self):
        return None

    def auth_context(self):
        return {}

    def status_set(self) -> status_pb2.Status | None:
        """The status a handler set with ``set_code`` without aborting (None: none, or OK)."""
        if self._code is None or self._code == grpc.StatusCode.OK:
            return None
        return status_pb2.Status(code=self._code.value[0], message=self._details)


# -- statuses as HTTP answers ------------------------------------------------------------------


def status_of(exc: BaseException, lang: str = "") -> status_pb2.Status:
    """The ``google.rpc.Status`` of an exception raised while serving an HTTP call; an
    INVALID_ARGUMENT's description in ``lang`` ("vi"; else English)."""
    if isinstance(exc, CallAborted):
        return exc.status
    return errors.to_rpc_status(exc, lang=lang)


def error_language(request: Request, obj: dict | None = None) -> str:
    """The language of the gateway's own errors for ``request``: the body's ``language``
    ("vi"), else ``Accept-Language`` when it starts with Vietnamese, else English ("")."""
    lang = obj.get("language") if isinstance(obj, dict) else None
    if isinstance(lang, str) and lang in WEB_LANGUAGES:
        return lang
    accept = request.headers.get("accept-language", "").strip().lower()
    return "vi" if accept.startswith("vi") else ""


def error_json(status: status_pb2.Status) -> dict:
    """The JSON body of an error: code (HTTP), status (the gRPC name), message, the BadRequest
    violations, and every detail in protobuf JSON."""
    violations = []
    details = []
    for d in status.details:
        if d.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            br = error_details_pb2.BadRequest()
            d.Unpack(br)
            violations += [
                {"field": v.field, "description": v.description} for v in br.field_violations
            ]
        try:
            details.append(json_format.MessageToDict(d, preserving_proto_field_name=True))
        except (json_format.SerializeToJsonError, TypeError, KeyError):
            details.append({"@type": d.type_url})
    name = code_pb2.Code.Name(status.code) if status.code in code_pb2.Code.values() else "UNKNOWN"
    out = {"code": HTTP_STATUS.get(status.code, 500), "status": name, "message": status.message}
    delay = errors.retry_delay_s(status)
    if delay is not None:
        out["retry_after_ms"] = errors.retry_delay_ms(delay)
    if violations:
        out["violations"] = violations
    if details:
        out["details"] = details
    return {"error": out}


def _dumps(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def error_response(status: status_pb2.Status) -> Response:
    body = error_json(status)
    headers = {}
    if status.code == code_pb2.UNAUTHENTICATED:
        headers["WWW-Authenticate"] = 'Bearer realm="quansu"'
    if status.code in (code_pb2.RESOURCE_EXHAUSTED, code_pb2.UNAVAILABLE):
        headers["Retry-After"] = str(retry_after_header(status))
    return Response(
        _dumps(body), status_code=body["error"]["code"], media_type=JSON_TYPE, headers=headers
    )


def retry_after_header(status: status_pb2.Status) -> int:
    """The ``Retry-After`` seconds of a refusal: the status's ``RetryInfo`` delay rounded up to
    whole seconds, at least 1 (1 without one)."""
    delay = errors.retry_delay_s(status)
    if delay is None:
        return 1
    return max(1, math.ceil(errors.retry_delay_ms(delay) / 1000))


class _Answer:
    """A web helper's answer: plain JSON, passed through :func:`message_dict` as it is."""

    def __init__(self, obj: dict):
        self.obj = obj


def message_dict(msg: Message | _Answer) -> dict:
    """A response message in protobuf JSON, with the ``.proto`` field names."""
    if isinstance(msg, _Answer):
        return msg.obj
    return json_format.MessageToDict(msg, preserving_proto_field_name=True)


# -- reading a request -------------------------------------------------------------------------

_NO_FIELD_RE = re.compile(r'has no field named "([^"]+)" at "([^"]*)"')
_AT_PATH_RE = re.compile(r" at ([A-Za-z_][\w.\[\]]*?)\.?$")
_FAILED_FIELD_RE = re.compile(r"Failed to parse (\w+) field")


def parse_error_field(text: str) -> str:
    """The request field a protobuf JSON parse error is about (``view.deal.hands``,
    ``budget.iterations``), or ``"request"`` when it names none."""
    m = _NO_FIELD_RE.search(text)
    if m:
        at = m.group(2).split(".")[1:]
        return ".".join(at + [m.group(1)])
    chain = _FAILED_FIELD_RE.findall(text)
    if chain:
        return ".".join(chain)
    m = _AT_PATH_RE.search(text.splitlines()[0] if text else "")
    if m and "." in m.group(1):
        return m.group(1).split(".", 1)[1]
    return "request"


def _depth(obj: Any, limit: int) -> int:
    """Nesting depth of a JSON value, counted up to ``limit + 1``."""
    stack = [(obj, 1)]
    deepest = 0
    while stack:
        v, d = stack.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            return deepest
        if isinstance(v, dict):
            stack += [(x, d + 1) for x in v.values()]
        elif isinstance(v, list):
            stack += [(x, d + 1) for x in v]
    return deepest


def parse_json_body(body: bytes, max_bytes: int) -> dict:
    """A request body as a JSON object; :class:`errors.RequestError` naming ``request``."""
    if len(body) > max_bytes:
        raise errors.RequestError.of(
            "request", "request.json_body_too_large", n=len(body), limit=max_bytes
        )
    if not body.strip():
        return {}
    try:
        obj = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise errors.RequestError.of("request", "request.not_utf8") from None
    except json.JSONDecodeError as e:
        raise errors.RequestError.of(
            "request", "request.bad_json", error=f"{e.msg} at line {e.lineno}, column {e.colno}"
        ) from None
    except (RecursionError, ValueError) as e:
        raise errors.RequestError.of(
            "request", "request.bad_json", error=errors.clip(str(e))
        ) from None
    if not isinstance(obj, dict):
        raise errors.RequestError.of("request", "request.not_json_object", type=_json_type(obj))
    if _depth(obj, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise errors.RequestError.of("request", "request.json_too_deep", limit=MAX_JSON_DEPTH)
    return obj


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _json_type(v: Any) -> str:
    return {
        dict: "an object",
        list: "an array",
        str: "a string",
        bool: "a boolean",
        type(None): "null",
    }.get(type(v), "a number")


def json_message(obj: dict, message_type: type[Message]) -> Message:
    """The request message of a JSON object (protobuf JSON mapping); a value the message cannot
    hold is :class:`errors.RequestError` naming its field."""
    try:
        return json_format.ParseDict(obj, message_type())
    except json_format.ParseError as e:
        text = str(e)
        raise errors.RequestError.of(
            parse_error_field(text),
            "request.bad_message",
            message=message_type.DESCRIPTOR.name,
            error=text.splitlines()[0],
        ) from None
    except (RecursionError, ValueError, TypeError, AttributeError) as e:
        raise errors.RequestError.of(
            "request",
            "request.bad_message",
            message=message_type.DESCRIPTOR.name,
            error=errors.clip(str(e)),
        ) from None


def parse_timeout(value: str | None) -> float | None:
    """Seconds of a ``Grpc-Timeout`` header (None: no deadline)."""
    if value is None:
        return None
    m = _TIMEOUT_RE.match(value)
    if not m:
        raise errors.RequestError.of(
            "grpc-timeout", "request.bad_timeout", value=repr(errors.clip(value))
        )
    return int(m.group(1)) * _TIMEOUT_UNITS[m.group(2)]


# -- the web page's helpers --------------------------------------------------------------------


def _int_field(obj: dict, name: str, default: int | None, lo: int, hi: int) -> int | None:
    v = obj.get(name, default)
    if v is None:
        return None
    if (
        isinstance(v, bool)
        or not isinstance(v, (int, float))
        or (isinstance(v, float) and not v.is_integer())
    ):
        raise errors.RequestError.of(name, "request.not_integer", type=_json_type(v))
    v = int(v)
    if not lo <= v <= hi:
        raise errors.RequestError.of(name, "request.out_of_range", value=v, lo=lo, hi=hi)
    return v


def _check_keys(obj: dict, allowed: tuple[str, ...]) -> None:
    for k in obj:
        if k not in allowed:
            raise errors.RequestError.of(
                errors.clip(str(k)), "request.unknown_field", allowed=", ".join(allowed)
            )


def new_game(obj: dict) -> dict:
    """``POST /v1/web/new-game`` ``{game, players, options, seed}`` -> ``{"record", "seed"}``:
    a new deal as a ``quansu-record/1`` object (no moves yet; a deal that ends the game at once
    carries its result)."""
    from quansu.games import record as rec
    from quansu.games.registry import make

    _check_keys(obj, ("game", "players", "options", "seed"))
    game_name = obj.get("game", "tienlen")
    if not isinstance(game_name, str):
        raise errors.RequestError.of("game", "request.not_game_name", type=_json_type(game_name))
    if len(game_name) > 64:
        raise errors.RequestError.of("game", "request.game_name_too_long", limit=64)
    players = _int_field(obj, "players", 4, 1, convert.MAX_SEATS)
    options = obj.get("options") or {}
    if not isinstance(options, dict):
        raise errors.RequestError.of(
            "options", "request.options_not_object", type=_json_type(options)
        )
    if len(options) > convert.MAX_OPTIONS:
        raise errors.RequestError.of(
            "options", "request.too_many_options", n=len(options), limit=convert.MAX_OPTIONS
        )
    for k, v in options.items():
        if isinstance(v, float) and not math.isfinite(v):
            raise errors.RequestError.of(f"options.{k}", "request.option_nan")
    seed = _int_field(obj, "seed", None, 0, 2**63 - 1)
    if seed is None:
        seed = secrets.randbits(31)
    try:
        game = make(game_name, players, options)
        state = game.new_initial_state(random.Random(seed))
        record = rec.record_from_state(state)
    except Exception as e:  # noqa: BLE001 - rules errors name their field; others are bugs
        if errors.is_rules_error(e):
            raise errors.as_request_error(e, "") from None
        raise
    return {"record": record, "seed": seed}


def _mask_cards(mask: int) -> list[str]:
    from quansu.games.cards import card_str

    return [card_str(c) for c in range(52) if mask >> c & 1]


#: The languages of the page's texts (``language`` of ``/v1/web/view``).
WEB_LANGUAGES = ("en", "vi")


def _language(obj: dict) -> str:
    lang = obj.get("language") or "en"
    if lang not in WEB_LANGUAGES:
        raise errors.RequestError.of(
            "language",
            "request.language",
            value=errors.clip(str(lang)),
            languages=", ".join(WEB_LANGUAGES),
        )
    return lang


def _cards(game, cards, trump) -> list[str]:
    """Card ids as text in a player's order (the game's rank order, Tấn's trumps last)."""
    from quansu.games.cards import card_str

    return [card_str(c) for c in game.sort_cards(cards, trump)]


def _mask_list(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def _move_json(game, seat: int, move, lang: str) -> dict:
    """A played move as the page shows it: the notation, the words a player says, its group."""
    return {
        "seat": seat,
        "text": game.move_to_text(move),
        "label": game.move_label(move, lang),
        "group": game.move_group(move),
    }


def _trick_board(state, lang: str, top: int, owner: int, passed: int) -> dict:
    """Tiến lên's and Sâm lốc's round: the combination to beat (``top``, a card mask, played by
    ``owner``; none when the seat to act leads) and the seats that passed in this round."""
    from quansu.games.cards import card_str

    game = state.game
    board: dict = {
        "kind": "trick",
        "to_beat": None,
        "passed": [s for s in range(game.num_players) if passed >> s & 1],
    }
    if top and owner >= 0:
        cards = _mask_list(top)
        beat = {"seat": owner, "cards": _cards(game, cards, None), "text": "", "label": ""}
        for s, m in reversed(state.history):  # the play that put these cards on top
            info = game.describe_move(m)
            if s == owner and sorted(info.cards) == cards:
                beat.update(text=game.move_to_text(m), label=game.move_label(m, lang))
                break
        else:
            beat.update(text=" ".join(card_str(c) for c in cards), label=" ".join(beat["cards"]))
        board["to_beat"] = beat
    return board


def _tan_board(state, lang: str) -> dict:
    """Tấn's bout: attacker and defender, the cards of the bout as attack/defence pairs (who
    played each attack card, and whether it was thrown in), the attack card waiting for an
    answer, and the trump (the face-up card, whether it still lies under the stock)."""
    from quansu.games.cards import SUIT_SYMBOLS, card_str
    from quansu.games.tan.game import OVER, SETUP

    game = state.game
    phase = {SETUP: "swap", OVER: "over"}.get(state.phase, "bout")
    pairs: list[dict] = []
    if phase == "bout" and state.table:
        for s, m in state.history[state.bout_start :]:
            info = game.describe_move(m)
            if info.kind in ("attack", "throw"):
                pairs.append(
                    {
                        "attack": card_str(info.cards[0]),
                        "seat": s,
                        "throw_in": info.kind == "throw" or bool(pairs),
                        "defence": None,
                        "defended_by": None,
                    }
                )
            elif info.kind == "defend":
                target = card_str(info.target)
                for p in pairs:
                    if p["attack"] == target:
                        p["defence"] = card_str(info.cards[0])
                        p["defended_by"] = s
    # the trump card: the face-up card while it lies under the stock (a swap changes it),
    # else the one dealt face up
    trump = state.faceup if state.faceup >= 0 else state.trump_card()
    return {
        "kind": "bout",
        "phase": phase,
        "attacker": state.attacker if phase != "over" else -1,
        "defender": state.defender if phase == "bout" else -1,
        "pairs": pairs,
        "uncovered": card_str(state.uncovered) if state.uncovered >= 0 else None,
        "trump": card_str(trump),
        "trump_suit": SUIT_SYMBOLS[state.trump],
        "trump_under_stock": state.faceup >= 0,
    }


def _discard_board(state, lang: str) -> dict:
    """Phỏm's middle of the table: the card just discarded, which the next seat may eat (or
    leave, and draw), while it is the last move."""
    from quansu.games.cards import card_str

    game = state.game
    board: dict = {"kind": "discard", "last": None}
    history = state.history
    if history and not state.is_terminal():
        seat, move = history[-1]
        info = game.describe_move(move)
        if info.kind == "discard" and info.cards:
            board["last"] = {
                "seat": seat,
                "card": card_str(info.cards[0]),
                "text": game.move_to_text(move),
                "label": game.move_label(move, lang),
            }
    return board


def _board(state, lang: str) -> dict:
    """What lies in the middle of the table as a player reads it, by game."""
    name = state.game.name
    if name == "tan":
        return _tan_board(state, lang)
    if name == "tienlen":
        return _trick_board(state, lang, state.top, state.owner, state.passed)
    if name == "samloc":
        top = state.top
        board = _trick_board(
            state, lang, top[1] if top else 0, top[0] if top else -1, state.passed_mask()
        )
        board["declaring"] = state.in_declarations
        board["declarer"] = state.declarer
        return board
    return _discard_board(state, lang)


def seat_view(obj: dict, max_text: int) -> dict:
    """``POST /v1/web/view`` ``{record, seat, at, language}`` -> ``{"view", "table"}``: the
    ``quansu-view/1`` of ``seat`` after the first ``at`` moves of the record (all by default,
    :func:`games.record.view_at`), and what that seat sees of the table: ``to_act`` (-1 when
    over), ``terminal``, ``hand`` (its cards now, in a player's order), ``zones`` (every zone's
    size and the cards of it the seat knows), ``history`` (the moves so far with their
    ``label`` in ``language`` and ``group``), ``board`` (the middle of the table by game:
    Tiến lên's and Sâm lốc's combination to beat, Tấn's bout as attack/defence pairs with
    attacker, defender and throw-ins, and its trump; null in Phỏm), ``trump`` (the trump card,
    shown once), ``stake`` (what a game is played for, in bets: a resignation's loss), ``text``
    (the game's own rendering for that seat) and, at the end, ``returns`` and ``result`` (the
    record's ``result`` field: net and transfers)."""
    lang = "en"
    try:
        _check_keys(obj, ("record", "seat", "at", "language"))
        lang = _language(obj)
        return _seat_view(obj, max_text, lang)
    except Exception as e:  # noqa: BLE001 - the description in the page's language
        e.language = lang
        raise


def _seat_view(obj: dict, max_text: int, lang: str) -> dict:
    from quansu.games import record as rec

    if "record" not in obj:
        raise errors.RequestError.of("record", "request.missing_record")
    msg = convert.parse_json_message(obj["record"], records_pb2.Record(), "record")
    convert.check_limits(msg, "record", max_text)
    try:
        parsed = rec.parse_record(convert.message_json(msg))
    except Exception as e:  # noqa: BLE001
        if errors.is_rules_error(e):
            raise errors.as_request_error(e, "record") from None
        raise
    n = parsed.game.num_players
    seat = _int_field(obj, "seat", None, 0, n - 1)
    if seat is None:
        raise errors.RequestError.of("seat", "request.missing_seat", last=n - 1)
    at = _int_field(obj, "at", len(parsed.moves), 0, len(parsed.moves))
    try:
        view = rec.view_at(parsed, seat, at)
        if at == len(parsed.moves):
            state = rec.replay_record(parsed)
        else:
            cut = dict(convert.message_json(msg))
            cut["moves"] = cut.get("moves", [])[:at]
            cut.pop("result", None)
            state = rec.replay_record(cut)
    except Exception as e:  # noqa: BLE001
        if errors.is_rules_error(e):
            raise errors.as_request_error(e, "record") from None
        raise
    game = state.game
    trump = state.trump_card()
    known = state.known_cards(seat)
    sizes = state.zone_sizes()
    board = _board(state, lang)
    table = {
        "to_act": -1 if state.is_terminal() else state.current_player,
        "terminal": state.is_terminal(),
        "hand": _cards(game, _mask_list(known.get(f"hand{seat}", 0)), trump),
        "zones": [
            {
                "name": name,
                "count": sizes[name],
                "cards": _cards(game, _mask_list(known.get(name, 0)), trump),
            }
            for name in sizes
        ],
        "history": [_move_json(game, s, m, lang) for s, m in state.history],
        "board": board,
        "trump": board["trump"]
        if board and "trump" in board
        else (None if trump is None else _mask_cards(1 << trump)[0]),
        "stake": float(game.stake),
        "text": state.render(seat),
    }
    if state.is_terminal():
        table["returns"] = [float(x) for x in state.returns()]
        table["result"] = rec.result_json(state)
    return {"view": view, "table": table}


# -- the gateway -------------------------------------------------------------------------------

_END = object()


class _Call:
    """One HTTP call's way between its thread (the servicer) and the event loop (the answer)."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.queue: asyncio.Queue = asyncio.Queue()

    def push(self, item) -> bool:
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, item)
            return True
        except RuntimeError:  # the loop is closed: nobody will read it
            return False


class Gateway:
    """The Starlette app over ``servicer`` (a :class:`server.servicer.QuansuServicer`).

    ``token``: require ``Authorization: Bearer TOKEN`` (all but health and the page's files).
    ``threads``: calls served at once (one more is RESOURCE_EXHAUSTED).  ``health()``: whether
    the service can serve (``GET /v1/health``).
    """

    def __init__(
        self,
        servicer,
        token: str | None = None,
        threads: int = 32,
        health: Callable[[], bool] | None = None,
    ):
        self.servicer = servicer
        self.limits = servicer.engine.limits
        self.token = token
        self._expected = f"Bearer {token}".encode() if token else None
        self.health = health
        self.draining = False
        self.threads = max(1, threads)
        self._slots = threading.BoundedSemaphore(self.threads)
        self._executor = ThreadPoolExecutor(
            max_workers=self.threads, thread_name_prefix="quansu-http"
        )
        self.max_body = self.limits.max_request_bytes * JSON_BODY_FACTOR
        # wall seconds of one judged decision, by (game, players, worlds, iterations, ms)
        self._probe_seconds: dict[tuple, float] = {}
        self._probe_lock = threading.Lock()
        # read once: the page keeps working if the installed files go away under the server
        self.web_files = {
            p.name: (p.read_bytes(), WEB_TYPES[p.suffix])
            for p in sorted(WEB_DIR.glob("*"))
            if p.is_file() and p.suffix in WEB_TYPES
        }
        rpc = self._rpc
        routes = [
            Route(
                "/v1/suggest",
                partial(rpc, method="Suggest", message_type=pb.SuggestRequest),
                methods=["POST"],
            ),
            Route(
                "/v1/suggest-stream",
                partial(
                    rpc, method="SuggestStream", message_type=pb.SuggestStreamRequest, stream=True
                ),
                methods=["POST"],
            ),
            Route(
                "/v1/analyze",
                partial(rpc, method="Analyze", message_type=pb.AnalyzeRequest, stream=True),
                methods=["POST"],
            ),
            Route(
                "/v1/legal-moves",
                partial(rpc, method="LegalMoves", message_type=pb.LegalMovesRequest),
                methods=["POST"],
            ),
            Route(
                "/v1/games",
                partial(
                    rpc, method="DescribeGames", message_type=pb.DescribeGamesRequest, body=False
                ),
                methods=["GET"],
            ),
            Route("/v1/web/new-game", partial(self._helper, fn=new_game), methods=["POST"]),
            Route(
                "/v1/web/view",
                partial(self._helper, fn=partial(seat_view, max_text=self.limits.max_text)),
                methods=["POST"],
            ),
            Route("/v1/web/estimate", partial(self._helper, fn=self.estimate), methods=["POST"]),
            Route("/v1/health", self._health, methods=["GET"]),
            Route("/", self._page, methods=["GET", "HEAD"]),
            Route("/{name:str}", self._page, methods=["GET", "HEAD"]),
        ]
        self.app = Starlette(routes=routes)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)

    def estimate(self, obj: dict) -> dict:
        """``POST /v1/web/estimate`` (an ``/v1/analyze`` body) -> ``{"decisions", "choices",
        "worlds", "seconds", "basis"}``: how long that Analyze should take on this server,
        before it starts.  ``seconds``: the wall seconds of one decision with a choice of this
        game, player count, world cap and budget, measured here (``basis`` "probe": one
        decision of this request judged now, on a worker; "measured": an earlier probe's
        figure), times the request's ``choices`` (forced decisions cost nothing); 0 when it
        has no choice.  Runs in a call thread."""
        request = json_message(obj, pb.AnalyzeRequest)
        engine, pool = self.servicer.engine, self.servicer.pool
        engine.precheck_analyze(request)
        payload = request.SerializeToString()

        def job(kind: str) -> dict:
            last = None
            for data in pool.run(kind, payload, None, lambda: True):
                last = data
            if last is None:
                raise errors.Unavailable("the worker ended without an answer; retry")
            return json.loads(last)

        plan = job("analyze_plan")
        budget = request.budget
        key = (
            plan["game"],
            plan["players"],
            plan["worlds"],
            budget.iterations,
            budget.milliseconds,
        )
        per_decision = self._probe_seconds.get(key)
        basis = "measured"
        if per_decision is None and plan["choices"]:
            per_decision = job("analyze_probe").get("probe_seconds", 0.0)
            with self._probe_lock:
                self._probe_seconds[key] = per_decision
            basis = "probe"
        return {
            "decisions": plan["decisions"],
            "choices": plan["choices"],
            "worlds": plan["worlds"],
            "basis": basis,
            "seconds": round((per_decision or 0.0) * plan["choices"], 1),
        }

    # -- checks ------------------------------------------------------------------------------
    def _check_token(self, request: Request) -> None:
        errors.check_token(
            request.headers.get("authorization", ""),
            self._expected,
            carrier="header",
            header="Authorization",
        )

    def _check_open(self) -> None:
        if self.draining:
            raise errors.Unavailable("the server is shutting down")

    async def _read(self, request: Request) -> bytes:
        length = request.headers.get("content-length")
        if length and length.isdigit() and int(length) > self.max_body:
            raise errors.RequestError.of(
                "request", "request.json_body_too_large", n=int(length), limit=self.max_body
            )
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > self.max_body:
                raise errors.RequestError.of(
                    "request", "request.body_over_limit", limit=self.max_body
                )
            chunks.append(chunk)
        return b"".join(chunks)

    def _context(self, request: Request, seconds: float | None) -> HttpCallContext:
        meta = tuple(
            (k.lower(), v)
            for k, v in request.headers.items()
            if k.lower() not in ("authorization", "cookie")
        )
        client = request.client
        peer = f"http:{client.host}:{client.port}" if client else "http:unknown"
        return HttpCallContext(seconds, meta, peer)

    # -- running a call in a thread ----------------------------------------------------------
    def _start(
        self,
        call: _Call,
        ctx: HttpCallContext,
        work: Callable[[], Any],
        stream: bool,
        lang: str = "",
    ) -> None:
        """Run ``work`` (the servicer's method) in a thread; its answers go to ``call.queue``
        as ``("item", bytes)``, then ``_END`` or ``("error", Status)``."""
        if not self._slots.acquire(blocking=False):
            retry_delay = getattr(self.servicer.pool, "retry_delay", None)
            raise errors.Busy(
                f"all {self.threads} HTTP call threads are busy; retry later",
                retry_after_s=retry_delay() if retry_delay is not None else None,
            )

        def run() -> None:
            try:
                if stream:
                    it = work()
                    try:
                        for msg in it:
                            if not ctx.is_active():
                                break
                            call.push(("item", _dumps(message_dict(msg)) + b"\n"))
                    finally:
                        close = getattr(it, "close", None)
                        if close is not None:
                            close()
                else:
                    msg = work()
                    set_status = ctx.status_set()
                    if set_status is not None:
                        call.push(("error", set_status))
                        return
                    if msg is None:
                        raise errors.Unavailable("the call ended without an answer; retry")
                    call.push(("item", _dumps(message_dict(msg))))
                call.push(_END)
            except BaseException as e:  # noqa: BLE001 - every failure becomes a status
                call.push(("error", status_of(e, lang)))
            finally:
                ctx._finish()
                self._slots.release()

        try:
            self._executor.submit(run)
        except RuntimeError:
            self._slots.release()
            raise errors.Unavailable("the server is shutting down") from None

    async def _until(self, request: Request, call: _Call, ctx: HttpCallContext):
        """The next item of ``call``, cancelling the call if the client disconnects meanwhile."""
        get = asyncio.ensure_future(call.queue.get())
        watch = asyncio.ensure_future(_disconnected(request))
        try:
            done, _ = await asyncio.wait({get, watch}, return_when=asyncio.FIRST_COMPLETED)
            if get in done:
                return get.result()
            ctx.cancel()
            return None
        finally:
            for t in (get, watch):
                if not t.done():
                    t.cancel()

    # -- routes ------------------------------------------------------------------------------
    async def _rpc(
        self,
        request: Request,
        method: str,
        message_type: type[Message],
        stream: bool = False,
        body: bool = True,
    ) -> Response:
        obj = None
        try:
            self._check_token(request)
            self._check_open()
            seconds = parse_timeout(request.headers.get("grpc-timeout"))
            ctx = self._context(request, seconds)
            raw = await self._read(request) if body else b""
            obj = parse_json_body(raw, self.max_body)
            msg = json_message(obj, message_type)
            data = msg.SerializeToString()
            call = _Call(asyncio.get_running_loop())
            handler = getattr(self.servicer, method)
            self._start(call, ctx, lambda: handler(data, ctx), stream)
        except Exception as e:  # noqa: BLE001
            return error_response(status_of(e, error_language(request, obj)))
        first = await self._until(request, call, ctx)
        if first is None:  # the client went away
            return error_response(
                status_pb2.Status(code=code_pb2.CANCELLED, message="the client went away")
            )
        if first is not _END and first[0] == "error":
            return error_response(first[1])
        if not stream:
            return Response(first[1], media_type=JSON_TYPE)

        async def lines():
            try:
                item = first
                while item is not _END:
                    if item[0] == "error":
                        yield _dumps(error_json(item[1])) + b"\n"
                        return
                    yield item[1]
                    item = await self._until(request, call, ctx)
                    if item is None:
                        return
            finally:
                ctx.cancel()

        return StreamingResponse(
            lines(),
            media_type=NDJSON,
            headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"},
        )

    async def _helper(self, request: Request, fn: Callable[[dict], dict]) -> Response:
        obj = None
        try:
            self._check_token(request)
            self._check_open()
            obj = parse_json_body(await self._read(request), self.max_body)
            ctx = self._context(request, None)
            call = _Call(asyncio.get_running_loop())
            self._start(
                call, ctx, lambda: _Answer(fn(obj)), False, lang=error_language(request, obj)
            )
        except Exception as e:  # noqa: BLE001
            return error_response(status_of(e, error_language(request, obj)))
        item = await self._until(request, call, ctx)
        if item is None:
            return error_response(
                status_pb2.Status(code=code_pb2.CANCELLED, message="the client went away")
            )
        if item is _END or item[0] == "error":
            return error_response(
                item[1]
                if item is not _END
                else status_pb2.Status(code=code_pb2.INTERNAL, message="no answer")
            )
        return Response(item[1], media_type=JSON_TYPE)

    async def _health(self, request: Request) -> Response:
        ok = not self.draining and (self.health is None or self.health())
        return Response(
            _dumps({"status": "SERVING" if ok else "NOT_SERVING"}),
            status_code=200 if ok else 503,
            media_type=JSON_TYPE,
            headers={"Cache-Control": "no-store"},
        )

    async def _page(self, request: Request) -> Response:
        name = request.path_params.get("name", "index.html")
        page = self.web_files.get(name)
        if page is None:
            return Response(
                _dumps(
                    {
                        "error": {
                            "code": 404,
                            "status": "NOT_FOUND",
                            "message": f"no page file {errors.clip(name)!r}",
                        }
                    }
                ),
                status_code=404,
                media_type=JSON_TYPE,
            )
        content, media_type = page
        return Response(
            b"" if request.method == "HEAD" else content,
            media_type=media_type,
            headers={
                "Content-Security-Policy": CSP,
                "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer",
                "Cache-Control": "no-cache",
            },
        )


async def _disconnected(request: Request) -> None:
    """Return once the HTTP client has gone away."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


# -- serving -----------------------------------------------------------------------------------


def bind_tcp(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` (``::`` takes IPv4 too).  Made with the protocol
    number, as asyncio's own are: asyncio turns Nagle's algorithm off only on sockets whose
    ``proto`` is TCP, and a response written in two parts (headers, then body) would otherwise
    wait for the client's delayed ACK, 40 ms on every call of a kept-alive connection."""
    try:
        infos = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP, flags=socket.AI_PASSIVE
        )
        family, type_, proto, _, address = infos[0]
        sock = socket.socket(family, type_, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
            sock.bind(address)
        except BaseException:
            sock.close()
            raise
    except OSError as e:
        raise OSError(f"cannot listen on {host}:{port} (HTTP): {e.strerror or e}") from None
    return sock


class HttpServer:
    """:class:`Gateway` served by uvicorn in a thread of its own.  ``start()`` returns the bound
    port; ``stop(grace)`` refuses new calls, gives the calls in flight ``grace`` seconds, then
    ends the others (their searches are cancelled)."""

    def __init__(
        self,
        gateway: Gateway,
        host: str,
        port: int,
        tls_cert: str | None = None,
        tls_key: str | None = None,
    ):
        import uvicorn

        self.gateway = gateway
        self.config = uvicorn.Config(
            gateway.app,
            host=host.strip("[]") or "0.0.0.0",
            port=port,
            lifespan="off",
            log_config=None,
            access_log=False,
            server_header=False,
            ssl_certfile=tls_cert,
            ssl_keyfile=tls_key,
            timeout_graceful_shutdown=10,
        )
        self.server = uvicorn.Server(self.config)
        self.tls = bool(tls_cert)
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None
        self._error: BaseException | None = None
        self.port = 0

    def start(self, timeout: float = 30.0) -> int:
        self._socket = bind_tcp(self.config.host, self.config.port)
        self.port = self._socket.getsockname()[1]

        def run() -> None:
            try:
                self.server.run(sockets=[self._socket])
            except BaseException as e:  # noqa: BLE001 - reported by start()
                self._error = e

        self._thread = threading.Thread(target=run, name="quansu-http", daemon=True)
        self._thread.start()
        end = time.monotonic() + timeout
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > end:
                self.gateway.close()
                raise OSError(
                    f"the HTTP gateway did not start on port {self.port}"
                    + (f": {self._error}" if self._error else "")
                )
            time.sleep(0.01)
        return self.port

    def begin_stop(self, grace: float) -> None:
        """Refuse new calls now and let uvicorn drain for up to ``grace`` seconds."""
        self.gateway.draining = True
        self.config.timeout_graceful_shutdown = max(0, math.ceil(grace))
        self.server.should_exit = True

    def wait_stopped(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)
        self.gateway.close()

    def stop(self, grace: float = 0.0) -> None:
        self.begin_stop(grace)
        self.wait_stopped(grace + 10.0)
