"""Suggest and hints: the search of a view and the ranked answer built from it.

:class:`Suggest` (composed into :class:`server.engine.Engine`) runs the ISMCTS search of
:mod:`search.ismcts` with the evaluator chosen for the game (``_search``, which Analyze's
decisions use too), ranks its moves (:mod:`search.ranking`), measures a hint's best moves by
paired evaluation (:data:`HINT_CANDIDATES`, :data:`HINT_PAIRED`) and builds the
:class:`SuggestResponse` with each move's principal line and reasons.  It needs the engine's
``limits``, ``evaluators`` and ``model_name`` and the request checks of
:class:`server.checks.Checks`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import time
from typing import Callable

from quansu.games import record as rec
from quansu.games.base import Game, State
from quansu.games.reasons import language
from quansu.search.improve import improve
from quansu.search.ismcts import search
from quansu.search.levels import LEVELS
from quansu.search.paired import PairedConfig, PairedResult, paired_evaluate
from quansu.search.ranking import rank as rank_moves
from quansu.search.result import SearchResult
from quansu.server import convert
from quansu.server.advice import Row, fold_variants, order_rest
from quansu.server.advice import advice as advice_line
from quansu.server.errors import RequestError
from quansu.server.reasons import move_reasons, search_reasons
from quansu.server.v1 import records_pb2
from quansu.server.v1 import service_pb2 as pb

StopFn = Callable[[], bool]

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


def view_seed(view: records_pb2.View) -> int:
    """The seed of a Suggest that names none: a 64-bit digest of the view's content (its
    deterministic protobuf encoding), so that the same view gets the same answer every time it
    is asked (a hint does not flip between two equally good moves on a second click).  An app
    that wants variety (bots that vary their play in one position) passes its own seed."""
    data = view.SerializeToString(deterministic=True)
    return int.from_bytes(
        hashlib.blake2b(data, digest_size=8, person=b"quansu-seed").digest(), "little"
    )


class _Flag:
    """``is_set()`` over a stop function (the search's cancel interface)."""

    def __init__(self, stop: StopFn):
        self._stop = stop

    def is_set(self) -> bool:
        return self._stop()


def fill(s: pb.Suggestion, game: Game, line, reasons) -> None:
    """Add a move's principal ``line`` (``(seat, move)`` pairs) and its ``reasons``
    (:data:`games.reasons.Reason` tuples) to the Suggestion ``s``."""
    for seat, mv in line:
        s.principal_line.add(seat=seat, move=game.move_to_text(mv))
    for code, cards, combo, text in reasons:
        s.reasons.add(code=code, cards=convert.cards_text(cards), combo=combo, text=text)


def deadline_margin(seconds_left: float) -> float:
    """Seconds a search keeps before the call's deadline for the answer's way back (building the
    response, the pipe to the server process, the checks, serialization and transport): 15 ms
    plus 30 % of the time left, at most 0.3 s.  The call's clock starts when it arrives (the
    gRPC deadline is absolute), so time in the queue and in the replay is already spent."""
    return min(0.3, 0.015 + 0.3 * seconds_left)


class Suggest:
    """Suggest, SuggestStream and hints on :class:`server.engine.Engine` (module doc); the
    search and the paired rows shared with :class:`server.analysis.Analysis`."""

    # -- search -------------------------------------------------------------------------------
    def _search(
        self,
        state: State,
        iterations: int | None,
        ms: int | None,
        seed: int,
        stop: StopFn | None,
        seconds_left: float | None,
        progress=None,
        interval_s: float | None = None,
        evaluator=None,
        anchor: float | None = None,
    ) -> SearchResult:
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
        return search(
            state, cfg, ev, seed=seed, deadline=deadline, cancel=cancel, progress=progress
        )

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
            s = pb.Suggestion(
                move=convert.move_message(game, m.move),
                visit_share=m.visits / total,
                visits=m.visits,
                expected_payoff=m.mean,
                prior=m.prior,
                group=r.group,
            )
            if r.lower_bound is not None:
                s.lower_bound = r.lower_bound

            def explain(top_text, rank=rank, r=r):
                return move_reasons(
                    state,
                    seat,
                    r.move,
                    rank=rank,
                    legal_count=len(result.moves),
                    safest=r.safest and not hint,
                    measured=r.measured,
                    group=r.group,
                    top_text=top_text,
                    most_visited=r.most_visited and not hint,
                    visits=r.stats.visits,
                )

            rows.append(Row(m.move, s, r.measured, line=m.line, explain=explain))
        return order_rest(rows)

    @staticmethod
    def _explain(game: Game, rows: list[Row], k: int) -> list[pb.Suggestion]:
        """The first ``k`` rows as Suggestions, with their principal lines and reasons
        (``tied`` names the first row, when it is ranked)."""
        top_text = rows[0].msg.move.label if rows and rows[0].ranked else ""
        out = []
        for r in rows[:k]:
            fill(r.msg, game, r.line, r.explain(top_text) if r.explain is not None else ())
            out.append(r.msg)
        return out

    def _suggestions(
        self, state: State, result: SearchResult, k: int, hint: bool = False
    ) -> list[pb.Suggestion]:
        """The first ``k`` rows of ``result`` (:meth:`_rows`); ``hint``: suit variants of equal
        value folded into one row (:func:`server.advice.fold_variants`)."""
        rows = fold_variants(state, self._rows(state, result, hint), fold=hint)
        return self._explain(state.game, rows, k)

    def _suggest_response(
        self,
        state: State,
        result: SearchResult,
        k: int,
        chosen,
        final: bool,
        rows: list[Row] | None = None,
        hint: bool = False,
        forced: bool = False,
    ) -> pb.SuggestResponse:
        """The response to a Suggest: the first ``k`` of ``rows`` (default: the search's, by the
        ranking rule, :meth:`_rows`), ``chosen`` and the search's statistics.  ``hint``: suit
        variants folded (:func:`server.advice.fold_variants`), ``chosen`` = the first row and
        the advice line (:func:`server.advice.advice`; ``forced``: a lone legal move)."""
        game = state.game
        out = pb.SuggestResponse(
            game=game.name, seat=result.observer, final=final, model=self.model_name(game.name)
        )
        if rows is None:
            rows = fold_variants(state, self._rows(state, result, hint), fold=hint)
        out.moves.extend(self._explain(game, rows, k))
        if hint and rows:
            chosen = rows[0].move  # a hint plays its first row
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

    def suggest(
        self,
        request: pb.SuggestRequest,
        *,
        stop: StopFn | None = None,
        seconds_left: float | None = None,
        emit: Callable[[pb.SuggestResponse], None] | None = None,
        interval_ms: int = 0,
        prefix: str = "",
    ) -> pb.SuggestResponse:
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
                    anchor = 0.0  # the step's search proposes alternatives to that move
        seed = request.seed if request.HasField("seed") else view_seed(request.view)
        k = request.top_k or self.limits.default_top_k
        hint_worlds = self._hint_worlds(state.game)
        measured = not request.strength and hint_worlds > 0
        if measured:
            anchor = 0.0  # the sparring bot's move is measured too: the search proposes others
        hint_end = None
        if measured and ms:
            # a time budget covers both: the search takes its share, the measurement the rest
            hint_end = view_t0 + ms / 1000.0
            ms = max(1, int(ms * HINT_SEARCH_SHARE))
        progress = None
        interval_s = None
        if emit is not None:
            interval_s = (
                max(interval_ms or self.limits.default_interval_ms, self.limits.min_interval_ms)
                / 1000.0
            )

            def send_partial(partial: SearchResult) -> None:
                if partial.moves and partial.iterations:
                    emit(
                        self._suggest_response(
                            state, partial, k, partial.best.move, False, hint=not request.strength
                        )
                    )

            progress = send_partial

        left = None if end is None else end - time.monotonic()  # the replay took some of it
        if measured and left is not None:
            left *= HINT_SEARCH_SHARE  # the call's deadline: the measurement needs its share
        with language(request.language):  # the reasons' texts (games.reasons)
            result = self._search(
                state, iterations, ms, seed, stop, left, progress, interval_s, anchor=anchor
            )
            if step is not None and result.stopped != "forced":
                t0 = time.monotonic()
                cut = None if end is None else end - deadline_margin(end - view_t0)
                imp = improve(state, result, step, seed=seed ^ 0x1A7E, deadline=cut, stop=stop)
                out = self._suggest_response(state, result, k, imp.move, True)
                out.stats.elapsed_ms += (time.monotonic() - t0) * 1000.0
                out.stats.improve_worlds = imp.paired.worlds if imp.paired else 0
                out.stats.improve_changed = imp.changed
                if imp.paired is not None and imp.paired.stopped in ("deadline", "cancelled"):
                    out.stats.stopped_by = imp.paired.stopped  # the step was cut short
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
                    out.stats.stopped_by = "time"  # the request's time budget, not the call's
                return out
            chosen = result.choose(random.Random(seed ^ 0x5EED), temperature)
            return self._suggest_response(state, result, k, chosen, True, hint=not request.strength)

    def _forced_hint(
        self,
        state: State,
        result: SearchResult,
        k: int,
        seed: int,
        deadline: float | None,
        stop: StopFn | None,
    ) -> pb.SuggestResponse:
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
        pr = paired_evaluate(
            state, [], move, config=cfg, seed=seed ^ HINT_PAIRED_SEED, deadline=deadline, stop=stop
        )
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

    def _measured_hint(
        self,
        state: State,
        result: SearchResult,
        k: int,
        seed: int,
        w: int,
        deadline: float | None,
        stop: StopFn | None,
    ) -> pb.SuggestResponse:
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
        cfg = dataclasses.replace(
            HINT_PAIRED, max_worlds=w, min_worlds=min(HINT_PAIRED.min_worlds, w)
        )
        pr = paired_evaluate(
            state,
            candidates[1:],
            candidates[0],
            config=cfg,
            seed=seed ^ HINT_PAIRED_SEED,
            deadline=deadline,
            stop=stop,
        )
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
            s = pb.Suggestion(
                move=convert.move_message(game, m.move),
                visits=0,
                expected_payoff=m.mean,
                prior=m.prior,
                group=last + 1,
            )

            def explain(top_text, move=m.move, rank=len(rows)):
                return search_reasons(
                    rank=rank, legal_count=len(ranked), hinted=False
                ) + game.move_reasons(state, pr.observer, move)

            rows.append(Row(m.move, s, False, line=m.line, explain=explain))
        rows = fold_variants(state, order_rest(rows))
        out = self._suggest_response(state, result, k, pr.top.move, True, rows, hint=True)
        out.stats.hint_worlds = pr.worlds
        if pr.stopped in ("deadline", "cancelled"):
            out.stats.stopped_by = pr.stopped  # the measurement was cut short
        return out

    def suggest_for_state(
        self,
        state: State,
        *,
        strength: int = 5,
        iterations: int = 0,
        milliseconds: int = 0,
        top_k: int = 0,
        seed: int | None = None,
        seconds_left: float | None = None,
        language: str = "",
    ) -> pb.SuggestResponse:
        """Suggest for the seat to act in a running game held in this process (``quansu play``'s
        bots and hints): the seat's view is cut from the state, so the search sees only what
        that seat knows."""
        if state.is_terminal():
            raise RequestError.of("state", "request.game_over")
        view = rec.view_from_state(state, state.current_player)
        req = pb.SuggestRequest(
            view=convert.record_message(view),
            top_k=top_k,
            strength=strength,
            budget=pb.Budget(iterations=iterations, milliseconds=milliseconds),
            language=language,
        )
        if seed is not None:
            req.seed = seed
        return self.suggest(req, seconds_left=seconds_left)

    def _paired_rows(self, state: State, result: SearchResult, pr: PairedResult) -> list[Row]:
        """The candidates of a paired evaluation as ranked rows (visits = worlds), their
        reasons filled later (:meth:`_explain`)."""
        game = state.game
        stats = {m.move: m for m in result.moves}
        out = []
        for rank, m in enumerate(pr.moves):
            s = pb.Suggestion(
                move=convert.move_message(game, m.move),
                visits=m.worlds,
                visit_share=m.worlds / pr.worlds if pr.worlds else 0.0,
                expected_payoff=m.value,
                group=m.group,
            )
            if m.worlds >= 2:
                s.lower_bound = m.value - 1.96 * m.stderr
            st = stats.get(m.move)
            if st is not None:
                s.prior = st.prior

            def explain(top_text, m=m, rank=rank):
                return search_reasons(
                    rank=rank,
                    legal_count=len(result.moves),
                    measured=m.worlds >= 2,
                    group=m.group,
                    top_text=top_text,
                    visits=m.worlds,
                ) + game.move_reasons(state, pr.observer, m.move)

            out.append(
                Row(
                    m.move,
                    s,
                    m.worlds >= 2,
                    line=st.line if st is not None else (),
                    explain=explain,
                )
            )
        return out
