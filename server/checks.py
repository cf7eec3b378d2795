"""The requests' checks: every field a caller can get wrong, raised as
:class:`server.errors.RequestError` naming the request field (docs/api.md, "Errors").

:class:`Checks` holds them for :class:`server.engine.Engine` (which composes it with
:class:`server.suggest.Suggest` and :class:`server.analysis.Analysis`): the cheap checks the
server process runs before admitting a call (``precheck_*``: fields, budgets, sizes; no
conversion, no replay) and the full ones a worker runs once (``_parse_*``: the view or record
replayed, rules errors mapped to the request field by :func:`rules`).  Also the server's
:class:`Limits`, the request language (:func:`check_language`) and Analyze's default
thresholds (:func:`default_thresholds`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from quansu.games import record as rec
from quansu.games.base import Game
from quansu.games.reasons import LANGUAGES
from quansu.server import convert
from quansu.server.errors import RequestError, as_request_error, is_rules_error
from quansu.server.v1 import service_pb2 as pb

#: Default (good, inaccuracy, mistake) thresholds as fractions of the game's stake
#: (``Game.stake``, bets).  A mark needs its whole 95 % interval inside one band, and bands this
#: wide give most decisions the same mark whatever the seed (docs/api.md, "Analyze").
THRESHOLD_FRACTIONS = (0.1, 0.3, 0.6)


@dataclass(frozen=True)
class Limits:
    """Server defaults and maximums.

    Budgets: a request's zero fields take the defaults (``default_ms`` 0 = no time limit);
    values above the maximums are rejected.  ``default_interval_ms`` / ``min_interval_ms``:
    SuggestStream's partial-ranking period.  ``max_analyze_decisions``: the most decisions one
    Analyze call judges.  ``default_worlds`` / ``max_worlds``: Analyze's cap of sampled worlds
    per decision (the request's ``max_worlds``; 0 takes ``default_worlds``, and its 0 the game's
    ``Game.analysis_worlds``).  ``hint_worlds``: the worlds a hint's candidates are measured on
    in every game (None: each game's ``Game.hint_worlds``; 0: a hint is the search's own
    ranking; see :data:`HINT_CANDIDATES`).

    Sizes, checked before a call is admitted (:meth:`Engine.precheck`): ``max_request_bytes``,
    the largest request body (below gRPC's own 4 MiB limit); ``max_text``, the longest string
    field (moves, format, game, option strings); the moves of a record or view are at most the
    game's ``max_moves`` and every card list at most 52 (:func:`server.convert.check_limits`).
    """

    default_iterations: int = 200
    default_ms: int = 0
    max_iterations: int = 50_000
    max_ms: int = 60_000
    default_top_k: int = 5
    max_top_k: int = 64
    default_interval_ms: int = 250
    min_interval_ms: int = 20
    max_analyze_decisions: int = 2000
    default_worlds: int = 0
    max_worlds: int = 65536
    hint_worlds: int | None = None
    max_request_bytes: int = 64 * 1024
    max_text: int = 256


def default_thresholds(game: type[Game] | Game) -> pb.Thresholds:
    """Analyze's default thresholds of ``game`` (a game class or instance): the
    :data:`THRESHOLD_FRACTIONS` of its ``stake``, in bets."""
    g, i, m = (f * game.stake for f in THRESHOLD_FRACTIONS)
    return pb.Thresholds(good=g, inaccuracy=i, mistake=m)


def check_language(value: str, field: str) -> str:
    """The language of a request's reason and error texts ("" is English); :class:`RequestError`
    naming ``field`` for any other value than :data:`games.reasons.LANGUAGES`."""
    if value and value not in LANGUAGES:
        raise RequestError.of(
            field, "request.language", value=value[:16], languages=", ".join(LANGUAGES)
        )
    return value or "en"


def rules(prefix: str):
    """Context: re-raise rules-layer errors as RequestErrors under the request field ``prefix``."""

    class _Ctx:
        def __enter__(self):
            return self

        def __exit__(self, et, e, tb):
            if e is not None and is_rules_error(e) and not isinstance(e, RequestError):
                raise as_request_error(e, prefix) from None
            return False

    return _Ctx()


def request_language(kind: str, payload: bytes) -> str:
    """The ``language`` of a serialized request when it is one of :data:`LANGUAGES` ("" when
    none, or when the request does not parse)."""
    message = {
        "suggest": pb.SuggestRequest,
        "suggest_stream": pb.SuggestStreamRequest,
        "analyze": pb.AnalyzeRequest,
        "analyze_plan": pb.AnalyzeRequest,
        "analyze_probe": pb.AnalyzeRequest,
        "legal_moves": pb.LegalMovesRequest,
    }.get(kind)
    if message is None:
        return ""
    try:
        req = message.FromString(payload)
    except Exception:
        return ""
    if kind == "suggest_stream":
        req = req.request
    lang = getattr(req, "language", "")
    return lang if lang in LANGUAGES else ""


class Checks:
    """The checks of :class:`server.engine.Engine`'s requests, against ``self.limits``
    (:class:`Limits`).  ``_parse_analyze`` takes the worlds' cap and thresholds from here too."""

    def _budget(self, budget: pb.Budget, field: str) -> tuple[int | None, int | None]:
        """(iterations, milliseconds) after defaults; None = no limit of that kind."""
        lim = self.limits
        it, ms = budget.iterations, budget.milliseconds
        if it < 0:
            raise RequestError.of(f"{field}.iterations", "request.negative", value=it)
        if ms < 0:
            raise RequestError.of(f"{field}.milliseconds", "request.negative", value=ms)
        if it > lim.max_iterations:
            raise RequestError.of(
                f"{field}.iterations", "request.over_maximum", value=it, limit=lim.max_iterations
            )
        if ms > lim.max_ms:
            raise RequestError.of(
                f"{field}.milliseconds", "request.over_maximum", value=ms, limit=lim.max_ms
            )
        if it == 0 and ms == 0:
            it, ms = lim.default_iterations, lim.default_ms
        return (it or None), (ms or None)

    # -- cheap checks (before admission: no conversion, no replay) ------------------------------
    def precheck_suggest(self, request: pb.SuggestRequest, prefix: str = "") -> None:
        """The cheap checks of a Suggest request (fields, budget, sizes of the view), which the
        server process runs before the call takes a worker; raises :class:`RequestError`."""
        p = f"{prefix}." if prefix else ""
        if not request.HasField("view"):
            raise RequestError.of(f"{p}view", "request.view_missing")
        lim = self.limits
        if request.top_k < 0 or request.top_k > lim.max_top_k:
            raise RequestError.of(
                f"{p}top_k", "request.out_of_range", value=request.top_k, lo=0, hi=lim.max_top_k
            )
        if not 0 <= request.strength <= 5:
            raise RequestError.of(f"{p}strength", "request.strength", value=request.strength)
        self._budget(request.budget, f"{p}budget")
        check_language(request.language, f"{p}language")
        convert.check_limits(request.view, f"{p}view", lim.max_text)

    def precheck_suggest_stream(self, request: pb.SuggestStreamRequest) -> None:
        if not request.HasField("request"):
            raise RequestError.of("request", "request.stream_request_missing")
        if request.interval_ms < 0:
            raise RequestError.of("interval_ms", "request.negative", value=request.interval_ms)
        self.precheck_suggest(request.request, "request")

    def _precheck_source(self, request) -> None:
        which, msg = convert.source_of(request)
        convert.check_limits(msg, which, self.limits.max_text)

    def precheck_analyze(self, request: pb.AnalyzeRequest) -> None:
        self._precheck_source(request)
        if len(request.seats) > convert.MAX_SEATS:
            raise RequestError.of(
                "seats", "request.too_many_seats", n=len(request.seats), limit=convert.MAX_SEATS
            )
        for i, s in enumerate(request.seats):
            if s < 0:
                raise RequestError.of(f"seats[{i}]", "request.seat_negative", seat=s)
        self._budget(request.budget, "budget")
        check_language(request.language, "language")
        for name in ("good", "inaccuracy", "mistake"):
            v = getattr(request.thresholds, name)
            if v < 0 or not math.isfinite(v):
                raise RequestError.of(f"thresholds.{name}", "request.threshold", value=v)

    def precheck_legal_moves(self, request: pb.LegalMovesRequest) -> None:
        self._precheck_source(request)
        check_language(request.language, "language")

    # -- full validation (in the worker: the view or record is replayed once) --------------------
    def _parse_suggest(self, request: pb.SuggestRequest, prefix: str):
        p = f"{prefix}." if prefix else ""
        self.precheck_suggest(request, prefix)
        with rules(f"{p}view"):
            view = convert.parse_view(request.view)
            seed = request.seed if request.HasField("seed") else 0
            state = rec.replay_view(view, random.Random(seed))
        if state.is_terminal():
            raise RequestError.of(f"{p}view.moves", "request.game_over")
        if state.current_player != view.seat:
            raise RequestError.of(
                f"{p}view.seat",
                "request.seat_not_to_act",
                seat=view.seat,
                to_act=state.current_player,
            )
        return view, state

    def check_suggest(self, request: pb.SuggestRequest) -> None:
        """Raise :class:`RequestError` for a bad Suggest request."""
        self._parse_suggest(request, "")

    def check_suggest_stream(self, request: pb.SuggestStreamRequest) -> None:
        self.precheck_suggest_stream(request)
        self._parse_suggest(request.request, "request")

    def _parse_analyze(self, request: pb.AnalyzeRequest):
        self.precheck_analyze(request)
        which, msg = convert.source_of(request)
        with rules(which):
            parsed = convert.parse_record(msg) if which == "record" else convert.parse_view(msg)
            seed = request.seed if request.HasField("seed") else 0
            rng = random.Random(seed)
            state = convert.replay(parsed, rng)
        n = parsed.game.num_players
        seats = list(request.seats)
        for i, s in enumerate(seats):
            if not 0 <= s < n:
                raise RequestError.of(
                    f"seats[{i}]", "request.seat_out_of_range", seat=s, last=n - 1
                )
            if which == "view" and s != parsed.seat:
                raise RequestError.of(
                    f"seats[{i}]", "request.view_judges_own_seat", seat=parsed.seat
                )
            if s in seats[:i]:
                raise RequestError.of(f"seats[{i}]", "request.seat_twice", seat=s)
        if not seats:
            seats = [parsed.seat] if which == "view" else list(range(n))
        self._budget(request.budget, "budget")
        th = self._thresholds(request, parsed.game)
        decisions = [i for i, (s, _) in enumerate(parsed.moves) if s in seats]
        if len(decisions) > self.limits.max_analyze_decisions:
            raise RequestError.of(
                "seats",
                "request.too_many_decisions",
                n=len(decisions),
                limit=self.limits.max_analyze_decisions,
            )
        worlds = self._worlds(request.max_worlds, parsed.game)
        if which == "view":
            # The replayed state is one deal consistent with the view: as a record it gives the
            # view's seat exactly the view's information at every point.
            parsed = rec.Record(game=parsed.game, deal=state.deal, moves=parsed.moves)
            full = False
        else:
            full = True
        return parsed, state, seats, decisions, th, full, worlds

    def _worlds(self, given: int, game: Game) -> int:
        """Analyze's cap of worlds per decision: the request's, else the server's default, else
        the game's ``analysis_worlds`` (never above ``max_worlds``)."""
        lim = self.limits
        if given < 0:
            raise RequestError.of("max_worlds", "request.negative", value=given)
        if given > lim.max_worlds:
            raise RequestError.of(
                "max_worlds", "request.over_maximum", value=given, limit=lim.max_worlds
            )
        if given == 1:
            raise RequestError.of("max_worlds", "request.one_world")
        return given or self._default_worlds(game.analysis_worlds)

    def _default_worlds(self, game_worlds: int) -> int:
        """The cap of a request without ``max_worlds``: the server's default, else the game's
        ``analysis_worlds``, never above ``max_worlds``."""
        lim = self.limits
        return min(lim.default_worlds or game_worlds, lim.max_worlds)

    def _thresholds(self, request: pb.AnalyzeRequest, game: Game) -> pb.Thresholds:
        th = default_thresholds(game)
        given = request.thresholds
        for name in ("good", "inaccuracy", "mistake"):
            v = getattr(given, name)
            if v < 0 or not math.isfinite(v):
                raise RequestError.of(f"thresholds.{name}", "request.threshold", value=v)
            if v:
                setattr(th, name, v)
        if not th.good <= th.inaccuracy <= th.mistake:
            raise RequestError.of(
                "thresholds",
                "request.thresholds_order",
                good=th.good,
                inaccuracy=th.inaccuracy,
                mistake=th.mistake,
            )
        return th

    def check_analyze(self, request: pb.AnalyzeRequest) -> None:
        self._parse_analyze(request)
