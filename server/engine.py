"""The service's data plane: every RPC as a plain function of protobuf messages.

:class:`Engine` validates requests (raising :class:`server.errors.RequestError` with the request
field path), replays records and views through :mod:`games.record`, runs the ISMCTS search of
:mod:`search.ismcts` with the evaluator chosen for the game at startup
(:class:`server.evaluators.EvaluatorSet`) and builds the responses.  It knows nothing about
gRPC: the servicer runs it in worker processes, ``quansu hint`` / ``quansu analyze`` run it in
process, and ``bench/service.py`` times it directly.

Units: every value is in bets from the point of view of the seat named in the message.  Budgets
are iterations and milliseconds.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import random
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from quansu.games import record as rec
from quansu.games.base import Game, State
from quansu.games.reasons import LANGUAGES, language
from quansu.games.registry import game_classes
from quansu.search.improve import improve
from quansu.search.ismcts import search
from quansu.search.levels import LEVELS
from quansu.search.paired import (PairedConfig, PairedResult, accuracy_of, band_of,
                                  paired_evaluate)
from quansu.search.ranking import rank as rank_moves
from quansu.search.result import SearchResult
from quansu.server import convert
from quansu.server.advice import Row, advice as advice_line, fold_variants, order_rest
from quansu.server.errors import RequestError, as_request_error, is_rules_error
from quansu.server.evaluators import UNIFORM, EvaluatorSet
from quansu.server.reasons import move_reasons, search_reasons
from quansu.server.v1 import records_pb2, service_pb2 as pb

API_VERSION = "quansu.v1"

Emit = Callable[[bytes], None]
StopFn = Callable[[], bool]

#: Default (good, inaccuracy, mistake) thresholds as fractions of the game's stake
#: (``Game.stake``, bets).  A mark needs its whole 95 % interval inside one band, and bands this
#: wide give most decisions the same mark whatever the seed (docs/api.md, "Analyze").
THRESHOLD_FRACTIONS = (0.1, 0.3, 0.6)

MARK_NAMES = {pb.MARK_BEST: "best", pb.MARK_GOOD: "good", pb.MARK_INACCURACY: "inaccuracy",
              pb.MARK_MISTAKE: "mistake", pb.MARK_BLUNDER: "blunder", pb.MARK_UNCLEAR: "unclear"}
#: The marks of the four loss bands cut by the thresholds (the first band: best or good).
BAND_MARKS = (pb.MARK_GOOD, pb.MARK_INACCURACY, pb.MARK_MISTAKE, pb.MARK_BLUNDER)
#: Analyze: moves per decision the paired evaluation screens besides the played one and the
#: sparring bot's move (the top of the search's ranking; every legal move when there are at
#: most this many and one more), and the share of a decision's time (under a deadline) its
#: search may take.  40, so that the candidates do not hang on the search's seed even at
#: decisions with dozens of legal moves; a candidate's screening costs only 128 playouts.
ANALYZE_CANDIDATES = 40
ANALYZE_SEARCH_SHARE = 0.3
#: Analyze's paired evaluation (``max_worlds`` comes from the request, Limits or the game's
#: ``analysis_worlds``): the candidates are screened on 128 worlds and the best 4 measured
#: against the played move on fresh worlds, looking at 32, 64, 128, ... worlds with the
#: interval widened for every look.
#: It stops when the interval lies inside one band (``settled``), when its half-width is at
#: most ``ANALYZE_PRECISION`` times the good threshold (``precise``), or at the cap; no
#: futility stop: a decision next to a threshold is the one that needs the worlds (its mark
#: is the band of its estimate, :func:`mark_of`).  The screening is wide enough that the best
#: move is rarely dropped, so a decision's loss does not change between seeds.
ANALYZE_PAIRED = PairedConfig(min_worlds=32, growth=2.0, look_correction=True, screen_keep=4,
                              screen_worlds=128, futility=0.0)
#: A hint (Suggest without ``strength``) is measured like an Analyze decision: the search's
#: best ``HINT_CANDIDATES`` moves and the sparring bot's move are played on the same
#: ``Game.hint_worlds`` sampled worlds (:func:`search.paired.paired_evaluate`, the game's
#: heuristic continuing) and ranked by their paired values, tied moves grouped: the one
#: ranking rule of Suggest and Analyze, steadier between seeds than the search's own ranking.
#: Under a time budget or a deadline the search takes ``HINT_SEARCH_SHARE`` of the time; with
#: too little left to measure 2 worlds, the hint is the search's ranking.
HINT_CANDIDATES = 8
#: A hint's paired evaluation (``max_worlds``: the game's ``hint_worlds``): the race rule of
#: :class:`search.paired.PairedConfig` (``race``), looking every 32 worlds: a candidate surely
#: worse than the leader stops being played, and the measurement stops once no candidate still
#: played could be told apart from the leader by the cap if its difference held (a separated
#: leader, or moves tied now that more worlds would most likely leave tied).  The tied groups
#: are those of the worlds played: 37-61 % fewer playouts than every candidate on every world,
#: with the same top groups (bench/README.md).
HINT_PAIRED = PairedConfig(min_worlds=32, max_worlds=128, batch=32, futility=0.0, race=True)
#: What a hint's seed is mixed with to seed its paired evaluation (the search takes the seed).
HINT_PAIRED_SEED = 0x41E7
#: The deals a forced move's hint is played on to give the position's value (the move with the
#: game's heuristic to the end, as a hint measures its candidates; Limits.hint_worlds, when
#: positive and smaller, caps it): a standard error of about 0.1 bets in Tiến lên, 1.2 in Phỏm.
FORCED_HINT_WORLDS = 32
HINT_SEARCH_SHARE = 0.5
#: Analyze's ``precise`` stop, as a share of the good threshold: small enough that a decision
#: next to a threshold goes on until its interval is on one side of it.
ANALYZE_PRECISION = 0.2
#: A decision settles inside one band only when its accuracy (:func:`decision_accuracy`) is
#: known to within this too (the half-width of its interval, 0..1): the last band is
#: unbounded, and a blunder settled on few worlds would move the seat's accuracy between seeds.
ANALYZE_ACCURACY_PRECISION = 0.05
#: Best or good: a decision in the first band is best when no candidate is measurably better
#: (``loss_low`` 0) or its estimated loss is at most this share of the good threshold (0.05
#: bets in Tiến lên), good otherwise, and the paired evaluation settles on that line as on a
#: threshold, so that a small loss is not best under one seed and good under another.
ANALYZE_BEST_SHARE = 0.5



def view_seed(view: records_pb2.View) -> int:
    """The seed of a Suggest that names none: a 64-bit digest of the view's content (its
    deterministic protobuf encoding), so that the same view gets the same answer every time it
    is asked (a hint does not flip between two equally good moves on a second click).  An app
    that wants variety (bots that vary their play in one position) passes its own seed."""
    data = view.SerializeToString(deterministic=True)
    return int.from_bytes(hashlib.blake2b(data, digest_size=8, person=b"quansu-seed").digest(),
                          "little")


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


class _Flag:
    """``is_set()`` over a stop function (the search's cancel interface)."""

    def __init__(self, stop: StopFn):
        self._stop = stop

    def is_set(self) -> bool:
        return self._stop()


def default_thresholds(game: type[Game] | Game) -> pb.Thresholds:
    """Analyze's default thresholds of ``game`` (a game class or instance): the
    :data:`THRESHOLD_FRACTIONS` of its ``stake``, in bets."""
    g, i, m = (f * game.stake for f in THRESHOLD_FRACTIONS)
    return pb.Thresholds(good=g, inaccuracy=i, mistake=m)


def _fill(s: pb.Suggestion, game: Game, line, reasons) -> None:
    """Add a move's principal ``line`` (``(seat, move)`` pairs) and its ``reasons``
    (:data:`games.reasons.Reason` tuples) to the Suggestion ``s``."""
    for seat, mv in line:
        s.principal_line.add(seat=seat, move=game.move_to_text(mv))
    for code, cards, combo, text in reasons:
        s.reasons.add(code=code, cards=convert.cards_text(cards), combo=combo, text=text)


def mark_of(loss: float, loss_low: float, loss_high: float, th: pb.Thresholds) -> int:
    """The mark of a decision whose loss is estimated at ``loss`` with the interval
    ``[loss_low, loss_high]`` (bets).  The thresholds cut the losses into four bands; the mark
    is the band that holds the estimate, given when the interval stays within that band and
    its neighbours (so that at 95 % confidence the mark is right or one band off, and the
    interval shows which way); an interval that reaches two bands away from the estimate's is
    ``MARK_UNCLEAR``.  When the whole interval lies in one band the mark is settled in the
    strict sense.  In the first band: best when no candidate is measurably better
    (``loss_low`` is 0) or the estimate is at most ``ANALYZE_BEST_SHARE`` of the good threshold
    (better by a negligible amount only), else good; the evaluation treats that line as one
    more threshold (:func:`analysis_bands`)."""
    bands = (th.good, th.inaccuracy, th.mistake)
    lo, hi = band_of(loss_low, bands), band_of(loss_high, bands)
    b = min(max(band_of(loss, bands), lo), hi)
    if lo < b - 1 or hi > b + 1:
        return pb.MARK_UNCLEAR
    if b == 0 and (loss_low <= 0.0 or loss <= ANALYZE_BEST_SHARE * th.good):
        return pb.MARK_BEST
    return BAND_MARKS[b]


def analysis_bands(th: pb.Thresholds) -> tuple[float, float, float, float]:
    """The loss thresholds (bets, ascending) the paired evaluation of an Analyze decision
    settles between: the best/good line (``ANALYZE_BEST_SHARE`` of good), good, inaccuracy,
    mistake."""
    return (ANALYZE_BEST_SHARE * th.good, th.good, th.inaccuracy, th.mistake)


def decision_accuracy(loss: float, th: pb.Thresholds) -> float:
    """The accuracy of one decision with a choice, 0..1: ``2 ** (-loss / mistake)`` (1 for no
    loss, 0.5 at the mistake threshold, 0.25 at twice it).  Continuous in the estimated loss,
    so a loss measured a little differently moves it a little, where a mark can flip."""
    return accuracy_of(loss, accuracy_scale(th))


def accuracy_scale(th: pb.Thresholds) -> float:
    """The loss (bets) at which a decision's accuracy is 0.5: the mistake threshold (1 when
    that is not positive)."""
    return th.mistake if th.mistake > 0 else 1.0


def deadline_margin(seconds_left: float) -> float:
    """Seconds a search keeps before the call's deadline for the answer's way back (building the
    response, the pipe to the server process, the checks, serialization and transport): 15 ms
    plus 30 % of the time left, at most 0.3 s.  The call's clock starts when it arrives (the
    gRPC deadline is absolute), so time in the queue and in the replay is already spent."""
    return min(0.3, 0.015 + 0.3 * seconds_left)


def check_language(value: str, field: str) -> str:
    """The language of a request's reason and error texts ("" is English); :class:`RequestError`
    naming ``field`` for any other value than :data:`games.reasons.LANGUAGES`."""
    if value and value not in LANGUAGES:
        raise RequestError.of(field, "request.language", value=value[:16],
                              languages=", ".join(LANGUAGES))
    return value or "en"


def _rules(prefix: str):
    """Context: re-raise rules-layer errors as RequestErrors under the request field ``prefix``."""

    class _Ctx:
        def __enter__(self):
            return self

        def __exit__(self, et, e, tb):
            if e is not None and is_rules_error(e) and not isinstance(e, RequestError):
                raise as_request_error(e, prefix) from None
            return False

    return _Ctx()


class Engine:
    """Runs the RPCs.  ``evaluators``: None in the server process (validation and the cheap
    calls only; ``model_names`` then says what the workers loaded).  ``workers``: reported in
    DescribeGames."""

    def __init__(self, limits: Limits | None = None, evaluators: EvaluatorSet | None = None,
                 model_names: dict[str, str] | None = None, workers: int = 0):
        self.limits = limits or Limits()
        #: ``build_engine``'s arguments, for worker processes that need the same engine
        self.build_args = None
        self.evaluators = evaluators
        self._model_names = dict(model_names or (evaluators.model_names() if evaluators else {}))
        self.workers = workers

    def model_names(self) -> dict[str, str]:
        return dict(self._model_names)

    def model_name(self, game_name: str) -> str:
        return self._model_names.get(game_name, UNIFORM)

    # -- DescribeGames ------------------------------------------------------------------------
    def describe_games(self, request: pb.DescribeGamesRequest | None = None) -> pb.DescribeGamesResponse:
        lim = self.limits
        out = pb.DescribeGamesResponse(api_version=API_VERSION)
        for name, cls in game_classes().items():
            g = out.games.add(name=name, title=cls.title or name, min_players=cls.min_players,
                              max_players=cls.max_players, model=self.model_name(name),
                              rules_version=cls.rules_version,
                              improve_worlds=cls.search_improve_worlds,
                              improve_candidates=cls.search_improve_candidates,
                              search_anchor=cls.search_anchor,
                              analysis_worlds=self._default_worlds(cls.analysis_worlds),
                              hint_worlds=self._hint_worlds(cls),
                              search_playout=cls.search_playout,
                              search_opponent_keys=cls.search_opponent_keys,
                              search_endgame_cards=cls.search_endgame_cards,
                              guided_leaf=cls.tuning.guided_leaf,
                              guided_prior_temperature=cls.tuning.guided_prior_temperature)
            g.options.extend(convert.option_message(s) for s in cls.option_specs)
            g.thresholds.CopyFrom(default_thresholds(cls))
        out.limits.default_budget.iterations = lim.default_iterations
        out.limits.default_budget.milliseconds = lim.default_ms
        out.limits.max_budget.iterations = lim.max_iterations
        out.limits.max_budget.milliseconds = lim.max_ms
        out.limits.default_top_k = lim.default_top_k
        out.limits.max_top_k = lim.max_top_k
        out.limits.workers = self.workers
        out.limits.max_request_bytes = lim.max_request_bytes
        for lv in LEVELS.values():
            out.levels.add(level=lv.level, iterations=lv.iterations, temperature=lv.temperature,
                           improve_share=lv.improve_share,
                           improve_iterations=lv.improve_iterations if lv.improve_share else 0,
                           anchored=lv.anchored)
        return out

    # -- LegalMoves ---------------------------------------------------------------------------
    def legal_moves(self, request: pb.LegalMovesRequest) -> pb.LegalMovesResponse:
        self.precheck_legal_moves(request)
        which, msg = convert.source_of(request)
        with _rules(which):
            parsed = convert.parse_record(msg) if which == "record" else convert.parse_view(msg)
            state = convert.replay(parsed, random.Random(0))
        game = parsed.game
        out = pb.LegalMovesResponse(game=game.name, history_length=len(parsed.moves))
        if state.is_terminal():
            out.terminal = True
            out.to_act = -1
            if which == "record":
                out.result.CopyFrom(convert.result_message(state))
            return out
        out.to_act = state.current_player
        if which == "view" and state.current_player != parsed.seat:
            out.hidden = True
            return out
        # in a player's order, grouped by kind; labels in the request's language
        out.moves.extend(convert.legal_move_messages(state, request.language or "en"))
        return out

    # -- validation -----------------------------------------------------------------------------
    def _budget(self, budget: pb.Budget, field: str) -> tuple[int | None, int | None]:
        """(iterations, milliseconds) after defaults; None = no limit of that kind."""
        lim = self.limits
        it, ms = budget.iterations, budget.milliseconds
        if it < 0:
            raise RequestError.of(f"{field}.iterations", "request.negative", value=it)
        if ms < 0:
            raise RequestError.of(f"{field}.milliseconds", "request.negative", value=ms)
        if it > lim.max_iterations:
            raise RequestError.of(f"{field}.iterations", "request.over_maximum", value=it,
                                  limit=lim.max_iterations)
        if ms > lim.max_ms:
            raise RequestError.of(f"{field}.milliseconds", "request.over_maximum", value=ms,
                                  limit=lim.max_ms)
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
            raise RequestError.of(f"{p}top_k", "request.out_of_range", value=request.top_k, lo=0,
                                  hi=lim.max_top_k)
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
            raise RequestError.of("seats", "request.too_many_seats", n=len(request.seats),
                                  limit=convert.MAX_SEATS)
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
        with _rules(f"{p}view"):
            view = convert.parse_view(request.view)
            seed = request.seed if request.HasField("seed") else 0
            state = rec.replay_view(view, random.Random(seed))
        if state.is_terminal():
            raise RequestError.of(f"{p}view.moves", "request.game_over")
        if state.current_player != view.seat:
            raise RequestError.of(f"{p}view.seat", "request.seat_not_to_act", seat=view.seat,
                                  to_act=state.current_player)
        return view, state

    def check_suggest(self, request: pb.SuggestRequest) -> None:
        """Raise :class:`RequestError` for a bad Suggest request."""
        self._parse_suggest(request, "")

    def check_suggest_stream(self, request: pb.SuggestStreamRequest) -> None:
        self.precheck_suggest_stream(request)
        self._parse_suggest(request.request, "request")

    # -- search -------------------------------------------------------------------------------
    def _search(self, state: State, iterations: int | None, ms: int | None, seed: int,
                stop: StopFn | None, seconds_left: float | None, progress=None,
                interval_s: float | None = None, evaluator=None,
                anchor: float | None = None) -> SearchResult:
        if self.evaluators is None:
            raise RuntimeError("this engine has no evaluators (server process)")
        ev, base = self.evaluators.for_game(state.game)
        if evaluator is not None:
            ev = evaluator(ev)
        changes: dict = {"iterations": iterations, "time_s": (ms / 1000.0) if ms else None}
        if interval_s:
            changes["progress_interval_s"] = interval_s
        if anchor is not None:
            changes["anchor"] = anchor
        cfg = base.replace(**changes)
        deadline = None
        if seconds_left is not None:
            deadline = time.monotonic() + max(0.0, seconds_left - deadline_margin(seconds_left))
        cancel = _Flag(stop) if stop is not None else None
        if cfg.iterations is None and cfg.time_s is None and deadline is None:
            cfg = cfg.replace(iterations=self.limits.default_iterations)
        return search(state, cfg, ev, seed=seed, deadline=deadline, cancel=cancel,
                      progress=progress)

    def _lcb_z(self, game) -> float:
        return self.evaluators.for_game(game)[1].lcb_z if self.evaluators is not None else 1.96

    def _rows(self, state: State, result: SearchResult, hint: bool = False) -> list[Row]:
        """Every move of ``result`` as a row in the order of the ranking rule
        (:mod:`search.ranking`: measured moves by mean payoff, tied ones grouped, moves with
        too few visits last and without a lower bound), those last by the payoff they show
        (:func:`server.advice.order_rest`).  ``hint``: the reasons leave out the search's
        ``most_visited`` and ``safest`` (a hint plays its first row; those are statistics)."""
        game = state.game
        seat = result.observer
        total = sum(m.visits for m in result.moves) or 1
        ranked = rank_moves(result, lcb_z=self._lcb_z(game))
        rows = []
        for rank, r in enumerate(ranked):
            m = r.stats
            s = pb.Suggestion(move=convert.move_message(game, m.move), visit_share=m.visits / total,
                              visits=m.visits, expected_payoff=m.mean, prior=m.prior, group=r.group)
            if r.lower_bound is not None:
                s.lower_bound = r.lower_bound

            def explain(top_text, rank=rank, r=r):
                return move_reasons(
                    state, seat, r.move, rank=rank, legal_count=len(result.moves),
                    safest=r.safest and not hint, measured=r.measured, group=r.group,
                    top_text=top_text, most_visited=r.most_visited and not hint,
                    visits=r.stats.visits)

            rows.append(Row(m.move, s, r.measured, line=m.line, explain=explain))
        return order_rest(rows)

    @staticmethod
    def _explain(game: Game, rows: list[Row], k: int) -> list[pb.Suggestion]:
        """The first ``k`` rows as Suggestions, with their principal lines and reasons
        (``tied`` names the first row, when it is ranked)."""
        top_text = rows[0].msg.move.label if rows and rows[0].ranked else ""
        out = []
        for r in rows[:k]:
            _fill(r.msg, game, r.line, r.explain(top_text) if r.explain is not None else ())
            out.append(r.msg)
        return out

    def _suggestions(self, state: State, result: SearchResult, k: int,
                     hint: bool = False) -> list[pb.Suggestion]:
        """The first ``k`` rows of ``result`` (:meth:`_rows`); ``hint``: suit variants of equal
        value folded into one row (:func:`server.advice.fold_variants`)."""
        rows = fold_variants(state, self._rows(state, result, hint), fold=hint)
        return self._explain(state.game, rows, k)

    def _suggest_response(self, state: State, result: SearchResult, k: int, chosen,
                          final: bool, rows: list[Row] | None = None, hint: bool = False,
                          forced: bool = False) -> pb.SuggestResponse:
        """The response to a Suggest: the first ``k`` of ``rows`` (default: the search's, by the
        ranking rule, :meth:`_rows`), ``chosen`` and the search's statistics.  ``hint``: suit
        variants folded (:func:`server.advice.fold_variants`), ``chosen`` = the first row and
        the advice line (:func:`server.advice.advice`; ``forced``: a lone legal move)."""
        game = state.game
        out = pb.SuggestResponse(game=game.name, seat=result.observer, final=final,
                                 model=self.model_name(game.name))
        if rows is None:
            rows = fold_variants(state, self._rows(state, result, hint), fold=hint)
        out.moves.extend(self._explain(game, rows, k))
        if hint and rows:
            chosen = rows[0].move              # a hint plays its first row
            out.advice = advice_line(rows, forced=forced)
        out.chosen.CopyFrom(convert.move_message(game, chosen))
        out.stats.iterations = result.iterations
        out.stats.elapsed_ms = result.elapsed_s * 1000.0
        out.stats.nodes = result.tree_size
        out.stats.stopped_by = result.stopped
        out.stats.legal_moves = len(result.moves)
        out.stats.max_depth = max((len(m.line) for m in result.moves), default=0)
        out.stats.deep_share = result.deep_share
        out.stats.tree_depth = result.max_depth
        return out

    def suggest(self, request: pb.SuggestRequest, *, stop: StopFn | None = None,
                seconds_left: float | None = None, emit: Callable[[pb.SuggestResponse], None] | None = None,
                interval_ms: int = 0, prefix: str = "") -> pb.SuggestResponse:
        """Run a Suggest; with ``emit``, partial rankings go to it every ``interval_ms``."""
        view_t0 = time.monotonic()
        end = None if seconds_left is None else view_t0 + seconds_left
        view, state = self._parse_suggest(request, prefix)
        p = f"{prefix}." if prefix else ""
        iterations, ms = self._budget(request.budget, f"{p}budget")
        temperature = 0.0
        step = None
        anchor = None
        if request.strength:
            # bot play: the search layer's strength level (search.levels), the same bots as
            # in the arena.  A level is its iteration budget (no wall-time cap); an explicit
            # budget in the request overrides it, and the call's deadline may stop it early.
            # In games that ship it, levels 4-5 end with the improvement step (search.improve)
            level = LEVELS[request.strength]
            temperature = level.temperature
            anchor = None if level.anchored else 0.0
            if not (request.budget.iterations or request.budget.milliseconds):
                step = level.step(state.game)
                iterations, ms = level.plan(state.game)[0], None
                if step is not None:
                    anchor = 0.0   # the step's search proposes alternatives to that move
        seed = request.seed if request.HasField("seed") else view_seed(request.view)
        k = request.top_k or self.limits.default_top_k
        hint_worlds = self._hint_worlds(state.game)
        measured = not request.strength and hint_worlds > 0
        if measured:
            anchor = 0.0   # the sparring bot's move is measured too: the search proposes others
        hint_end = None
        if measured and ms:
            # a time budget covers both: the search takes its share, the measurement the rest
            hint_end = view_t0 + ms / 1000.0
            ms = max(1, int(ms * HINT_SEARCH_SHARE))
        progress = None
        interval_s = None
        if emit is not None:
            interval_s = max(interval_ms or self.limits.default_interval_ms,
                             self.limits.min_interval_ms) / 1000.0

            def send_partial(partial: SearchResult) -> None:
                if partial.moves and partial.iterations:
                    emit(self._suggest_response(state, partial, k, partial.best.move, False,
                                                hint=not request.strength))

            progress = send_partial

        left = None if end is None else end - time.monotonic()   # the replay took some of it
        if measured and left is not None:
            left *= HINT_SEARCH_SHARE      # the call's deadline: the measurement needs its share
        with language(request.language):       # the reasons' texts (games.reasons)
            result = self._search(state, iterations, ms, seed, stop, left, progress, interval_s,
                                  anchor=anchor)
            if step is not None and result.stopped != "forced":
                t0 = time.monotonic()
                cut = None if end is None else end - deadline_margin(end - view_t0)
                imp = improve(state, result, step, seed=seed ^ 0x1A7E, deadline=cut, stop=stop)
                out = self._suggest_response(state, result, k, imp.move, True)
                out.stats.elapsed_ms += (time.monotonic() - t0) * 1000.0
                out.stats.improve_worlds = imp.paired.worlds if imp.paired else 0
                out.stats.improve_changed = imp.changed
                if imp.paired is not None and imp.paired.stopped in ("deadline", "cancelled"):
                    out.stats.stopped_by = imp.paired.stopped   # the step was cut short
                return out
            if not request.strength and result.stopped == "forced":
                # one legal move: said to be forced, with the position's value measured
                t0 = time.monotonic()
                cut = None if end is None else end - deadline_margin(end - view_t0)
                out = self._forced_hint(state, result, k, seed, cut, stop)
                out.stats.elapsed_ms += (time.monotonic() - t0) * 1000.0
                return out
            if measured and result.stopped not in ("forced", "cancelled"):
                t0 = time.monotonic()
                cut = None if end is None else end - deadline_margin(end - view_t0)
                if hint_end is not None:
                    cut = hint_end if cut is None else min(cut, hint_end)
                out = self._measured_hint(state, result, k, seed, hint_worlds, cut, stop)
                out.stats.elapsed_ms += (time.monotonic() - t0) * 1000.0
                if out.stats.stopped_by == "deadline" and cut == hint_end:
                    out.stats.stopped_by = "time"    # the request's time budget, not the call's
                return out
            chosen = result.choose(random.Random(seed ^ 0x5EED), temperature)
            return self._suggest_response(state, result, k, chosen, True,
                                          hint=not request.strength)

    def _forced_hint(self, state: State, result: SearchResult, k: int, seed: int,
                     deadline: float | None, stop: StopFn | None) -> pb.SuggestResponse:
        """A hint for a position with one legal move: the move, said to be forced, with the
        position's value for the seat: the move played on :data:`FORCED_HINT_WORLDS` sampled
        deals (fewer with a smaller positive ``Limits.hint_worlds``) with the game's heuristic
        to the end, as a hint measures its candidates (``visits`` = the deals, ``stats.
        hint_worlds`` too; ``stopped_by`` stays ``forced``).  With no time to measure 2 deals,
        the search's answer (0 visits) with the advice saying the move is forced."""
        w = FORCED_HINT_WORLDS
        if self.limits.hint_worlds:
            w = min(w, self.limits.hint_worlds)
        cfg = dataclasses.replace(HINT_PAIRED, max_worlds=w, min_worlds=w)
        move = result.moves[0].move
        pr = paired_evaluate(state, [], move, config=cfg, seed=seed ^ HINT_PAIRED_SEED,
                             deadline=deadline, stop=stop)
        rows = None
        if pr.worlds >= 2:
            rows = self._paired_rows(state, result, pr)
        out = self._suggest_response(state, result, k, move, True, rows, hint=True, forced=True)
        if rows is not None:
            out.stats.hint_worlds = pr.worlds
        return out

    def _hint_worlds(self, game) -> int:
        """The worlds a hint in ``game`` (a game or its class) is measured on: the server's
        ``Limits.hint_worlds`` if set, else the game's ``hint_worlds``."""
        w = self.limits.hint_worlds
        return game.hint_worlds if w is None else w

    def hint_candidates(self, state: State, result: SearchResult, seed: int) -> tuple[list, list]:
        """The search's ranking (:func:`search.ranking.rank`) and the moves a hint measures: the
        search's best :data:`HINT_CANDIDATES` and the sparring bot's move (its first, the search's
        best, is the paired evaluation's reference)."""
        ranked = rank_moves(result, lcb_z=self._lcb_z(state.game))
        candidates = [r.move for r in ranked[:HINT_CANDIDATES]]
        sparring = state.game.sparring_move(state.clone(), random.Random(seed))
        if sparring not in candidates:
            candidates.append(sparring)
        return ranked, candidates

    def _measured_hint(self, state: State, result: SearchResult, k: int, seed: int, w: int,
                       deadline: float | None, stop: StopFn | None) -> pb.SuggestResponse:
        """A hint ranked by the paired evaluation of the search's best moves (see
        :data:`HINT_CANDIDATES`): the candidates first, by paired value (``visits`` = the worlds
        each was measured on, ``expected_payoff`` its paired value, ``group`` the tied groups of
        the paired differences), then the search's other moves in its order, not measured
        (``visits`` 0, the search's mean, no lower bound, the group after the last).  ``chosen``
        is the top of that ranking; ``stats.hint_worlds`` the worlds measured (at most ``w``;
        fewer when the top was settled sooner, :data:`HINT_PAIRED`, or when the deadline cut the
        measurement short)."""
        game = state.game
        ranked, candidates = self.hint_candidates(state, result, seed)
        cfg = dataclasses.replace(HINT_PAIRED, max_worlds=w,
                                  min_worlds=min(HINT_PAIRED.min_worlds, w))
        pr = paired_evaluate(state, candidates[1:], candidates[0], config=cfg,
                             seed=seed ^ HINT_PAIRED_SEED, deadline=deadline, stop=stop)
        if pr.worlds < 2:
            # no time left to measure anything: the search's own ranking, as without measuring
            out = self._suggest_response(state, result, k, candidates[0], True, hint=True)
            out.stats.stopped_by = pr.stopped
            return out
        rows = self._paired_rows(state, result, pr)
        last = max((r.msg.group for r in rows), default=-1)
        for r in ranked:
            if r.move in candidates:
                continue
            m = r.stats
            s = pb.Suggestion(move=convert.move_message(game, m.move), visits=0,
                              expected_payoff=m.mean, prior=m.prior, group=last + 1)

            def explain(top_text, move=m.move, rank=len(rows)):
                return (search_reasons(rank=rank, legal_count=len(ranked), hinted=False)
                        + game.move_reasons(state, pr.observer, move))

            rows.append(Row(m.move, s, False, line=m.line, explain=explain))
        rows = fold_variants(state, order_rest(rows))
        out = self._suggest_response(state, result, k, pr.top.move, True, rows, hint=True)
        out.stats.hint_worlds = pr.worlds
        if pr.stopped in ("deadline", "cancelled"):
            out.stats.stopped_by = pr.stopped    # the measurement was cut short
        return out

    def suggest_for_state(self, state: State, *, strength: int = 5, iterations: int = 0,
                          milliseconds: int = 0, top_k: int = 0, seed: int | None = None,
                          seconds_left: float | None = None,
                          language: str = "") -> pb.SuggestResponse:
        """Suggest for the seat to act in a running game held in this process (``quansu play``'s
        bots and hints): the seat's view is cut from the state, so the search sees only what
        that seat knows."""
        if state.is_terminal():
            raise RequestError.of("state", "request.game_over")
        view = rec.view_from_state(state, state.current_player)
        req = pb.SuggestRequest(view=convert.record_message(view), top_k=top_k, strength=strength,
                                budget=pb.Budget(iterations=iterations, milliseconds=milliseconds),
                                language=language)
        if seed is not None:
            req.seed = seed
        return self.suggest(req, seconds_left=seconds_left)

    # -- Analyze ------------------------------------------------------------------------------
    def _parse_analyze(self, request: pb.AnalyzeRequest):
        self.precheck_analyze(request)
        which, msg = convert.source_of(request)
        with _rules(which):
            parsed = convert.parse_record(msg) if which == "record" else convert.parse_view(msg)
            seed = request.seed if request.HasField("seed") else 0
            rng = random.Random(seed)
            state = convert.replay(parsed, rng)
        n = parsed.game.num_players
        seats = list(request.seats)
        for i, s in enumerate(seats):
            if not 0 <= s < n:
                raise RequestError.of(f"seats[{i}]", "request.seat_out_of_range", seat=s, last=n - 1)
            if which == "view" and s != parsed.seat:
                raise RequestError.of(f"seats[{i}]", "request.view_judges_own_seat", seat=parsed.seat)
            if s in seats[:i]:
                raise RequestError.of(f"seats[{i}]", "request.seat_twice", seat=s)
        if not seats:
            seats = [parsed.seat] if which == "view" else list(range(n))
        self._budget(request.budget, "budget")
        th = self._thresholds(request, parsed.game)
        decisions = [i for i, (s, _) in enumerate(parsed.moves) if s in seats]
        if len(decisions) > self.limits.max_analyze_decisions:
            raise RequestError.of("seats", "request.too_many_decisions", n=len(decisions),
                                  limit=self.limits.max_analyze_decisions)
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
            raise RequestError.of("max_worlds", "request.over_maximum", value=given, limit=lim.max_worlds)
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
            raise RequestError.of("thresholds", "request.thresholds_order", good=th.good,
                                  inaccuracy=th.inaccuracy, mistake=th.mistake)
        return th

    def check_analyze(self, request: pb.AnalyzeRequest) -> None:
        self._parse_analyze(request)

    def analyze(self, request: pb.AnalyzeRequest, emit: Callable[[pb.AnalyzeResponse], None], *,
                stop: StopFn | None = None, seconds_left: float | None = None,
                jobs: int = 1) -> None:
        """Judge every decision of the requested seats; ``emit`` gets one message per decision
        (game order) and then one summary per seat.  Each decision with a choice: a search from
        the seat's information proposes candidates, which :func:`search.paired.paired_evaluate`
        measures against the played move on common worlds until the mark is settled.  With
        ``seconds_left`` (the call's deadline) the time left is shared evenly among the
        decisions still to judge, so the whole analysis ends in time.  Stops early (without
        summaries) when ``stop()`` turns true.  ``jobs`` > 1 (without a deadline, on an engine
        made by :func:`build_engine`): the decisions, which are independent, are judged by that
        many worker processes, with the same results as one process."""
        start = time.monotonic()
        record, final_state, seats, decisions, th, full, worlds = self._parse_analyze(request)
        game = record.game
        iterations, ms = self._budget(request.budget, "budget")
        seed = request.seed if request.HasField("seed") else 0
        model = self.model_name(game.name)
        total = len(decisions)
        judged: dict[int, list[pb.Decision]] = {s: [] for s in seats}
        if jobs > 1 and seconds_left is None and total > 1 and self.build_args is not None:
            for done, d in enumerate(self._judge_in_parallel(
                    record, decisions, iterations, ms, seed, th, worlds, request.language, jobs,
                    stop)):
                if d is None:
                    return
                judged[d.seat].append(d)
                emit(pb.AnalyzeResponse(decision=d, done=done + 1, total=total, thresholds=th,
                                        model=model))
            decisions = []
        for done, index in enumerate(decisions):
            if stop is not None and stop():
                return
            left = None
            if seconds_left is not None:
                # share the time left evenly among the decisions still to judge
                left = (seconds_left - (time.monotonic() - start)) / (total - done)
                if left <= 0:
                    return
            seat, played = record.moves[index]
            view = rec.view_at(record, seat, index)
            rng = random.Random(seed * 1_000_003 + index)
            state = rec.replay_view(view, rng)
            with language(request.language):   # the reasons' texts (games.reasons)
                d = self._decision(state, index, seat, played, iterations, ms, seed + index, stop,
                                   left, th, worlds)
            judged[seat].append(d)
            emit(pb.AnalyzeResponse(decision=d, done=done + 1, total=total, thresholds=th, model=model))
        for seat in seats:
            emit(pb.AnalyzeResponse(summary=self._summary(seat, judged[seat], final_state, full, th),
                                    done=total, total=total, thresholds=th, model=model))

    def plan_analyze(self, request: pb.AnalyzeRequest, probe: bool = False) -> dict:
        """What an Analyze of ``request`` will judge, before it runs: ``decisions`` (its
        ``total``), ``choices`` (those with more than one legal move; a forced one costs
        nothing), ``worlds`` (the cap per decision) and ``game``.  With ``probe``: one
        decision (the middle choice) judged as the Analyze would, with ``probe_seconds``, the
        wall seconds it took here, so that the whole costs about ``probe_seconds * choices``
        on one worker.  Validates the request as :meth:`analyze` does."""
        record, _, _, decisions, th, _, worlds = self._parse_analyze(request)
        iterations, ms = self._budget(request.budget, "budget")
        seed = request.seed if request.HasField("seed") else 0
        choices = []
        for index in decisions:
            seat, played = record.moves[index]
            state = rec.replay_view(rec.view_at(record, seat, index),
                                    random.Random(seed * 1_000_003 + index))
            if len(state.legal_moves()) > 1:
                choices.append((index, seat, played, state))
        out = {"game": record.game.name, "players": record.game.num_players,
               "decisions": len(decisions), "choices": len(choices), "worlds": worlds}
        if probe and choices:
            index, seat, played, state = choices[len(choices) // 2]
            start = time.monotonic()
            with language(request.language):
                self._decision(state, index, seat, played, iterations, ms, seed + index, None,
                               None, th, worlds)
            out["probe_seconds"] = time.monotonic() - start
        return out

    def _judge_in_parallel(self, record, decisions, iterations, ms, seed, th, worlds, lang,
                           jobs, stop):
        """The Decisions of ``decisions`` (record indices) in order, judged by ``jobs`` worker
        processes; None (and the rest cancelled) once ``stop()`` turns true."""
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures import TimeoutError as Pending

        game = record.game
        tasks = []
        for index in decisions:
            seat, played = record.moves[index]
            tasks.append((rec.view_at(record, seat, index), index, seat, game.move_to_text(played),
                          iterations, ms, seed, th.SerializeToString(), worlds, lang))
        with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)),
                                 mp_context=mp.get_context("spawn"), initializer=_analyze_worker_init,
                                 initargs=(self.build_args,)) as pool:
            futures = [pool.submit(_analyze_worker_judge, t) for t in tasks]
            try:
                for fut in futures:
                    while True:
                        if stop is not None and stop():
                            yield None
                            return
                        try:
                            data = fut.result(timeout=0.05 if stop is not None else None)
                            break
                        except Pending:
                            continue
                    yield pb.Decision.FromString(data)
            finally:
                for fut in futures:
                    fut.cancel()

    def _decision(self, state: State, index: int, seat: int, played, iterations, ms, seed, stop,
                  left, th, worlds: int = 512) -> pb.Decision:
        game = state.game
        legal = state.legal_moves()
        d = pb.Decision(index=index, seat=seat, played=convert.move_message(game, played),
                        legal_moves=len(legal))
        if len(legal) == 1:
            d.forced = True
            d.best.CopyFrom(d.played)
            d.mark = pb.MARK_BEST
            d.stopped_by = "forced"
            return d
        start = time.monotonic()
        # unanchored: the sparring bot's move is measured anyway; the search proposes others
        result = self._search(state, iterations, ms, seed, stop,
                              None if left is None else ANALYZE_SEARCH_SHARE * left, anchor=0.0)
        ranked = rank_moves(result, lcb_z=self._lcb_z(game))
        if len(legal) <= ANALYZE_CANDIDATES + 1:
            candidates = list(legal)
        else:
            candidates = [r.move for r in ranked[:ANALYZE_CANDIDATES]]
            # the sparring bot's move too (from the seat's own information; deterministic), so
            # that a strong move the short search happened to pass over is still measured
            sparring = game.sparring_move(state.clone(), random.Random(seed))
            if sparring not in candidates:
                candidates.append(sparring)
        deadline = None
        if left is not None:
            deadline = start + left - (min(0.1, 0.1 * left) + 0.005)
        cfg = dataclasses.replace(ANALYZE_PAIRED, max_worlds=worlds,
                                  min_worlds=min(ANALYZE_PAIRED.min_worlds, worlds),
                                  precision=ANALYZE_PRECISION * th.good,
                                  accuracy_scale=accuracy_scale(th),
                                  accuracy_precision=ANALYZE_ACCURACY_PRECISION)
        pr = paired_evaluate(state, candidates, played, config=cfg, seed=seed,
                             bands=analysis_bands(th), deadline=deadline,
                             stop=stop)
        top = pr.top
        d.best.CopyFrom(convert.move_message(game, top.move))
        d.played_value = pr.move(played).value
        d.best_value = top.value
        d.loss = pr.loss
        d.loss_low = pr.loss_low
        d.loss_high = pr.loss_high
        d.loss_stderr = pr.loss_stderr
        d.worlds = pr.worlds
        d.stopped_by = pr.stopped
        d.mark = mark_of(pr.loss, pr.loss_low, pr.loss_high, th)
        d.top.extend(self._paired_suggestions(state, result, pr))
        return d

    def _paired_rows(self, state: State, result: SearchResult, pr: PairedResult) -> list[Row]:
        """The candidates of a paired evaluation as ranked rows (visits = worlds), their
        reasons filled later (:meth:`_explain`)."""
        game = state.game
        stats = {m.move: m for m in result.moves}
        out = []
        for rank, m in enumerate(pr.moves):
            s = pb.Suggestion(move=convert.move_message(game, m.move), visits=m.worlds,
                              visit_share=m.worlds / pr.worlds if pr.worlds else 0.0,
                              expected_payoff=m.value, group=m.group)
            if m.worlds >= 2:
                s.lower_bound = m.value - 1.96 * m.stderr
            st = stats.get(m.move)
            if st is not None:
                s.prior = st.prior

            def explain(top_text, m=m, rank=rank):
                return (search_reasons(rank=rank, legal_count=len(result.moves),
                                       measured=m.worlds >= 2, group=m.group, top_text=top_text,
                                       visits=m.worlds)
                        + game.move_reasons(state, pr.observer, m.move))

            out.append(Row(m.move, s, m.worlds >= 2, line=st.line if st is not None else (),
                           explain=explain))
        return out

    def _paired_suggestions(self, state: State, result: SearchResult,
                            pr: PairedResult) -> list[pb.Suggestion]:
        """The candidates of a paired evaluation as ranked Suggestions (visits = worlds):
        Analyze's ``top`` (each move its own row; ``tied`` names the top move)."""
        game = state.game
        top_text = convert.move_label(game, pr.top.move)
        out = []
        for r in self._paired_rows(state, result, pr):
            _fill(r.msg, game, r.line, r.explain(top_text))
            out.append(r.msg)
        return out

    @staticmethod
    def _summary(seat: int, decisions: list[pb.Decision], final_state: State, full: bool,
                 th: pb.Thresholds) -> pb.SeatSummary:
        out = pb.SeatSummary(seat=seat, decisions=len(decisions))
        chosen = [d for d in decisions if not d.forced]
        settled = [d for d in chosen if d.mark != pb.MARK_UNCLEAR]
        out.total_loss = sum(d.loss for d in decisions)
        out.average_loss = out.total_loss / len(chosen) if chosen else 0.0
        # the mean accuracy of the decisions with a choice, from their estimated losses
        out.accuracy = (sum(decision_accuracy(d.loss, th) for d in chosen) / len(chosen)
                        if chosen else 1.0)
        for name in MARK_NAMES.values():
            out.marks[name] = 0
        for d in decisions:
            out.marks[MARK_NAMES[d.mark]] += 1
        worst = sorted((d for d in settled if d.loss > 0), key=lambda d: (-d.loss, d.index))[:3]
        out.worst.extend(worst)
        if full and final_state.is_terminal():
            out.payoff = float(final_state.returns()[seat])
        return out

    # -- worker entry -------------------------------------------------------------------------
    def run_job(self, kind: str, payload: bytes, emit: Emit, stop: StopFn,
                seconds_left: float | None) -> None:
        """Run one serialized request in a worker; serialized responses go to ``emit``.  The
        request is validated here, once (the server process ran only the cheap checks).  An
        error leaves with ``language`` set to the request's (its status is written in it:
        :func:`server.errors.to_rpc_status`)."""
        try:
            self._run_job(kind, payload, emit, stop, seconds_left)
        except Exception as e:
            lang = _request_language(kind, payload)
            if lang:
                e.language = lang
            raise

    def _run_job(self, kind: str, payload: bytes, emit: Emit, stop: StopFn,
                 seconds_left: float | None) -> None:
        if kind == "legal_moves":
            emit(self.legal_moves(pb.LegalMovesRequest.FromString(payload)).SerializeToString())
        elif kind == "suggest":
            req = pb.SuggestRequest.FromString(payload)
            emit(self.suggest(req, stop=stop, seconds_left=seconds_left).SerializeToString())
        elif kind == "suggest_stream":
            req = pb.SuggestStreamRequest.FromString(payload)
            self.precheck_suggest_stream(req)
            final = self.suggest(req.request, stop=stop, seconds_left=seconds_left,
                                 emit=lambda m: emit(m.SerializeToString()),
                                 interval_ms=req.interval_ms, prefix="request")
            emit(final.SerializeToString())
        elif kind == "analyze":
            req = pb.AnalyzeRequest.FromString(payload)
            self.analyze(req, lambda m: emit(m.SerializeToString()), stop=stop,
                         seconds_left=seconds_left)
        elif kind in ("analyze_plan", "analyze_probe"):
            req = pb.AnalyzeRequest.FromString(payload)
            plan = self.plan_analyze(req, probe=kind == "analyze_probe")
            emit(json.dumps(plan).encode())
        else:
            raise RequestError.of("", "request.unknown_job", kind=kind)


def _request_language(kind: str, payload: bytes) -> str:
    """The ``language`` of a serialized request when it is one of :data:`LANGUAGES` ("" when
    none, or when the request does not parse)."""
    message = {"suggest": pb.SuggestRequest, "suggest_stream": pb.SuggestStreamRequest,
               "analyze": pb.AnalyzeRequest, "analyze_plan": pb.AnalyzeRequest,
               "analyze_probe": pb.AnalyzeRequest, "legal_moves": pb.LegalMovesRequest}.get(kind)
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


def build_engine(limits: Limits | None = None, uniform: bool = False,
                 models: Iterable[tuple[str, str]] = ()) -> Engine:
    """An engine with its evaluators loaded (what each worker process runs)."""
    models = tuple(models)
    engine = Engine(limits, EvaluatorSet(uniform=uniform, paths=dict(models)))
    engine.build_args = (limits, uniform, models)
    return engine


_WORKER_ENGINE: Engine | None = None


def _analyze_worker_init(build_args) -> None:
    """A worker process of :meth:`Engine.analyze` with ``jobs``: its own engine."""
    global _WORKER_ENGINE
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent stops the pool
    _WORKER_ENGINE = build_engine(*build_args)


def _analyze_worker_judge(task) -> bytes:
    """One decision, judged as :meth:`Engine.analyze` does in one process (same seeds)."""
    view, index, seat, played_text, iterations, ms, seed, th_bytes, worlds, lang = task
    engine = _WORKER_ENGINE
    state = rec.replay_view(view, random.Random(seed * 1_000_003 + index))
    played = state.game.parse_move(played_text)
    th = pb.Thresholds.FromString(th_bytes)
    with language(lang):
        d = engine._decision(state, index, seat, played, iterations, ms, seed + index, None, None,
                             th, worlds)
    return d.SerializeToString()
