"""The service's data plane: every RPC as a plain function of protobuf messages.

:class:`Engine` validates requests (raising :class:`server.errors.RequestError` with the request
field path), replays records and views through :mod:`games.record`, runs the ISMCTS search of
:mod:`search.ismcts` with the evaluator chosen for the game at startup
(:class:`server.evaluators.EvaluatorSet`) and builds the responses.  It knows nothing about
gRPC: the servicer runs it in worker processes, ``quansu hint`` / ``quansu analyze`` run it in
process, and ``bench/service.py`` times it directly.

The engine is a facade over three modules, one concern each: :mod:`server.checks` (the
request checks and :class:`Limits`), :mod:`server.suggest` (Suggest and hints: the search and
its ranked answer) and :mod:`server.analysis` (Analyze: the paired rows, marks and plan, and
its parallel path on any executor); here are DescribeGames, LegalMoves and the worker entry
(:meth:`Engine.run_job`).  Every name the callers import from this module is still here.

Units: every value is in bets from the point of view of the seat named in the message.  Budgets
are iterations and milliseconds.
"""

from __future__ import annotations

import json
import random
from typing import Callable, Iterable

from quansu.games.registry import game_classes
from quansu.search.levels import LEVELS, served_improve_playout
from quansu.server import convert
from quansu.server.analysis import (
    ANALYZE_ACCURACY_PRECISION,
    ANALYZE_BEST_SHARE,
    ANALYZE_CANDIDATES,
    ANALYZE_PAIRED,
    ANALYZE_PRECISION,
    ANALYZE_SEARCH_SHARE,
    BAND_MARKS,
    MARK_NAMES,
    Analysis,
    RayExecutor,
    accuracy_scale,
    analysis_bands,
    decision_accuracy,
    judge_in_parallel,
    mark_of,
)
from quansu.server.checks import (
    THRESHOLD_FRACTIONS,
    Checks,
    Limits,
    check_language,
    default_thresholds,
    request_language,
    rules,
)
from quansu.server.errors import RequestError
from quansu.server.evaluators import UNIFORM, EvaluatorSet
from quansu.server.suggest import (
    FORCED_HINT_WORLDS,
    HINT_CANDIDATES,
    HINT_PAIRED,
    HINT_PAIRED_SEED,
    HINT_SEARCH_SHARE,
    StopFn,
    Suggest,
    deadline_margin,
    view_seed,
)
from quansu.server.v1 import service_pb2 as pb

__all__ = [
    "API_VERSION",
    "Emit",
    "StopFn",
    "Engine",
    "build_engine",
    "Limits",
    "check_language",
    "THRESHOLD_FRACTIONS",
    "default_thresholds",
    "view_seed",
    "deadline_margin",
    "HINT_CANDIDATES",
    "HINT_PAIRED",
    "HINT_PAIRED_SEED",
    "FORCED_HINT_WORLDS",
    "HINT_SEARCH_SHARE",
    "MARK_NAMES",
    "BAND_MARKS",
    "ANALYZE_CANDIDATES",
    "ANALYZE_SEARCH_SHARE",
    "ANALYZE_PAIRED",
    "ANALYZE_PRECISION",
    "ANALYZE_ACCURACY_PRECISION",
    "ANALYZE_BEST_SHARE",
    "mark_of",
    "analysis_bands",
    "decision_accuracy",
    "accuracy_scale",
    "judge_in_parallel",
    "RayExecutor",
]

API_VERSION = "quansu.v1"

Emit = Callable[[bytes], None]


class Engine(Checks, Suggest, Analysis):
    """Runs the RPCs.  ``evaluators``: None in the server process (validation and the cheap
    calls only; ``model_names`` then says what the workers loaded).  ``workers``: reported in
    DescribeGames.  The request checks, Suggest and Analyze are those of :class:`Checks`,
    :class:`Suggest` and :class:`Analysis` (module doc)."""

    def __init__(
        self,
        limits: Limits | None = None,
        evaluators: EvaluatorSet | None = None,
        model_names: dict[str, str] | None = None,
        workers: int = 0,
    ):
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
    def describe_games(
        self, request: pb.DescribeGamesRequest | None = None
    ) -> pb.DescribeGamesResponse:
        lim = self.limits
        out = pb.DescribeGamesResponse(api_version=API_VERSION)
        for name, cls in game_classes().items():
            g = out.games.add(
                name=name,
                title=cls.title or name,
                min_players=cls.min_players,
                max_players=cls.max_players,
                model=self.model_name(name),
                rules_version=cls.rules_version,
                improve_worlds=cls.search_improve_worlds,
                improve_candidates=cls.search_improve_candidates,
                improve_playout=served_improve_playout(
                    cls.search_improve_playout, self.model_name(name) != UNIFORM
                ),
                search_anchor=cls.search_anchor,
                analysis_worlds=self._default_worlds(cls.analysis_worlds),
                hint_worlds=self._hint_worlds(cls),
                search_playout=cls.search_playout,
                search_opponent_keys=cls.search_opponent_keys,
                search_endgame_cards=cls.search_endgame_cards,
                guided_leaf=cls.tuning.guided_leaf,
                guided_prior_temperature=cls.tuning.guided_prior_temperature,
            )
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
            out.levels.add(
                level=lv.level,
                iterations=lv.iterations,
                temperature=lv.temperature,
                improve_share=lv.improve_share,
                improve_iterations=lv.improve_iterations if lv.improve_share else 0,
                anchored=lv.anchored,
            )
        return out

    # -- LegalMoves ---------------------------------------------------------------------------
    def legal_moves(self, request: pb.LegalMovesRequest) -> pb.LegalMovesResponse:
        self.precheck_legal_moves(request)
        which, msg = convert.source_of(request)
        with rules(which):
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

    # -- worker entry -------------------------------------------------------------------------
    def run_job(
        self, kind: str, payload: bytes, emit: Emit, stop: StopFn, seconds_left: float | None
    ) -> None:
        """Run one serialized request in a worker; serialized responses go to ``emit``.  The
        request is validated here, once (the server process ran only the cheap checks).  An
        error leaves with ``language`` set to the request's (its status is written in it:
        :func:`server.errors.to_rpc_status`)."""
        try:
            self._run_job(kind, payload, emit, stop, seconds_left)
        except Exception as e:
            lang = request_language(kind, payload)
            if lang:
                e.language = lang
            raise

    def _run_job(
        self, kind: str, payload: bytes, emit: Emit, stop: StopFn, seconds_left: float | None
    ) -> None:
        if kind == "legal_moves":
            emit(self.legal_moves(pb.LegalMovesRequest.FromString(payload)).SerializeToString())
        elif kind == "suggest":
            req = pb.SuggestRequest.FromString(payload)
            emit(self.suggest(req, stop=stop, seconds_left=seconds_left).SerializeToString())
        elif kind == "suggest_stream":
            req = pb.SuggestStreamRequest.FromString(payload)
            self.precheck_suggest_stream(req)
            final = self.suggest(
                req.request,
                stop=stop,
                seconds_left=seconds_left,
                emit=lambda m: emit(m.SerializeToString()),
                interval_ms=req.interval_ms,
                prefix="request",
            )
            emit(final.SerializeToString())
        elif kind == "analyze":
            req = pb.AnalyzeRequest.FromString(payload)
            self.analyze(
                req, lambda m: emit(m.SerializeToString()), stop=stop, seconds_left=seconds_left
            )
        elif kind in ("analyze_plan", "analyze_probe"):
            req = pb.AnalyzeRequest.FromString(payload)
            plan = self.plan_analyze(req, probe=kind == "analyze_probe")
            emit(json.dumps(plan).encode())
        else:
            raise RequestError.of("", "request.unknown_job", kind=kind)


def build_engine(
    limits: Limits | None = None, uniform: bool = False, models: Iterable[tuple[str, str]] = ()
) -> Engine:
    """An engine with its evaluators loaded (what each worker process runs)."""
    models = tuple(models)
    engine = Engine(limits, EvaluatorSet(uniform=uniform, paths=dict(models)))
    engine.build_args = (limits, uniform, models)
    return engine
