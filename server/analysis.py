"""Analyze: every decision of a game judged by paired evaluation, with its mark.

:class:`Analysis` (composed into :class:`server.engine.Engine`) judges each decision of the
requested seats: a short search from the seat's information proposes candidates
(:data:`ANALYZE_CANDIDATES`), :func:`search.paired.paired_evaluate` measures them against the
played move on common worlds until the mark is settled (:data:`ANALYZE_PAIRED`,
:func:`mark_of`), and a summary per seat closes the answer.  It uses the search and paired rows
of :class:`server.suggest.Suggest` and the checks of :class:`server.checks.Checks`.

Judging decisions in parallel is one function on any executor, :func:`judge_in_parallel`: each
decision is a picklable task (:func:`decision_tasks`) that the module-level
:func:`judge_decision` runs with an engine built from the same ``build_args``, on a local
process pool (:func:`local_executor`, ``Engine.analyze(jobs=N)``) or on Ray
(:class:`RayExecutor`), with the same results as one process for the same seeds.
"""

from __future__ import annotations

import dataclasses
import random
import time
from concurrent.futures import TimeoutError as Pending
from typing import Any, Callable, Iterator, Sequence

from quansu.games import record as rec
from quansu.games.base import State
from quansu.games.reasons import language
from quansu.search.paired import PairedConfig, PairedResult, accuracy_of, band_of, paired_evaluate
from quansu.search.ranking import rank as rank_moves
from quansu.search.result import SearchResult
from quansu.server import convert
from quansu.server.suggest import StopFn, fill
from quansu.server.v1 import service_pb2 as pb

MARK_NAMES = {
    pb.MARK_BEST: "best",
    pb.MARK_GOOD: "good",
    pb.MARK_INACCURACY: "inaccuracy",
    pb.MARK_MISTAKE: "mistake",
    pb.MARK_BLUNDER: "blunder",
    pb.MARK_UNCLEAR: "unclear",
}
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
ANALYZE_PAIRED = PairedConfig(
    min_worlds=32, growth=2.0, look_correction=True, screen_keep=4, screen_worlds=128, futility=0.0
)
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


class Analysis:
    """Analyze on :class:`server.engine.Engine` (module doc)."""

    def analyze(
        self,
        request: pb.AnalyzeRequest,
        emit: Callable[[pb.AnalyzeResponse], None],
        *,
        stop: StopFn | None = None,
        seconds_left: float | None = None,
        jobs: int = 1,
        executor=None,
    ) -> None:
        """Judge every decision of the requested seats; ``emit`` gets one message per decision
        (game order) and then one summary per seat.  Each decision with a choice: a search from
        the seat's information proposes candidates, which :func:`search.paired.paired_evaluate`
        measures against the played move on common worlds until the mark is settled.  With
        ``seconds_left`` (the call's deadline) the time left is shared evenly among the
        decisions still to judge, so the whole analysis ends in time.  Stops early (without
        summaries) when ``stop()`` turns true.  ``jobs`` > 1 (without a deadline, on an engine
        made by :func:`build_engine`): the decisions, which are independent, are judged by that
        many worker processes, with the same results as one process; ``executor`` (the same
        conditions): by that executor instead (:func:`judge_in_parallel`, e.g. a
        :class:`RayExecutor`)."""
        start = time.monotonic()
        record, final_state, seats, decisions, th, full, worlds = self._parse_analyze(request)
        game = record.game
        iterations, ms = self._budget(request.budget, "budget")
        seed = request.seed if request.HasField("seed") else 0
        model = self.model_name(game.name)
        total = len(decisions)
        judged: dict[int, list[pb.Decision]] = {s: [] for s in seats}
        if (
            (jobs > 1 or executor is not None)
            and seconds_left is None
            and total > 1
            and self.build_args is not None
        ):
            for done, d in enumerate(
                self._judge_in_parallel(
                    record,
                    decisions,
                    iterations,
                    ms,
                    seed,
                    th,
                    worlds,
                    request.language,
                    jobs,
                    stop,
                    executor,
                )
            ):
                if d is None:
                    return
                judged[d.seat].append(d)
                emit(
                    pb.AnalyzeResponse(
                        decision=d, done=done + 1, total=total, thresholds=th, model=model
                    )
                )
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
            with language(request.language):  # the reasons' texts (games.reasons)
                d = self._decision(
                    state, index, seat, played, iterations, ms, seed + index, stop, left, th, worlds
                )
            judged[seat].append(d)
            emit(
                pb.AnalyzeResponse(
                    decision=d, done=done + 1, total=total, thresholds=th, model=model
                )
            )
        for seat in seats:
            emit(
                pb.AnalyzeResponse(
                    summary=self._summary(seat, judged[seat], final_state, full, th),
                    done=total,
                    total=total,
                    thresholds=th,
                    model=model,
                )
            )

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
            state = rec.replay_view(
                rec.view_at(record, seat, index), random.Random(seed * 1_000_003 + index)
            )
            if len(state.legal_moves()) > 1:
                choices.append((index, seat, played, state))
        out = {
            "game": record.game.name,
            "players": record.game.num_players,
            "decisions": len(decisions),
            "choices": len(choices),
            "worlds": worlds,
        }
        if probe and choices:
            index, seat, played, state = choices[len(choices) // 2]
            start = time.monotonic()
            with language(request.language):
                self._decision(
                    state, index, seat, played, iterations, ms, seed + index, None, None, th, worlds
                )
            out["probe_seconds"] = time.monotonic() - start
        return out

    def _judge_in_parallel(
        self, record, decisions, iterations, ms, seed, th, worlds, lang, jobs, stop, executor=None
    ):
        """The Decisions of ``decisions`` (record indices) in order, judged on ``executor``, or
        by ``jobs`` local worker processes (:func:`local_executor`); None (and the rest
        cancelled) once ``stop()`` turns true."""
        tasks = decision_tasks(
            record, decisions, iterations, ms, seed, th, worlds, lang, self.build_args
        )
        if executor is not None:
            yield from judge_in_parallel(executor, tasks, stop)
            return
        with local_executor(min(jobs, len(tasks))) as pool:
            yield from judge_in_parallel(pool, tasks, stop)

    def _decision(
        self,
        state: State,
        index: int,
        seat: int,
        played,
        iterations,
        ms,
        seed,
        stop,
        left,
        th,
        worlds: int = 512,
    ) -> pb.Decision:
        game = state.game
        legal = state.legal_moves()
        d = pb.Decision(
            index=index,
            seat=seat,
            played=convert.move_message(game, played),
            legal_moves=len(legal),
        )
        if len(legal) == 1:
            d.forced = True
            d.best.CopyFrom(d.played)
            d.mark = pb.MARK_BEST
            d.stopped_by = "forced"
            return d
        start = time.monotonic()
        # unanchored: the sparring bot's move is measured anyway; the search proposes others
        result = self._search(
            state,
            iterations,
            ms,
            seed,
            stop,
            None if left is None else ANALYZE_SEARCH_SHARE * left,
            anchor=0.0,
        )
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
        cfg = dataclasses.replace(
            ANALYZE_PAIRED,
            max_worlds=worlds,
            min_worlds=min(ANALYZE_PAIRED.min_worlds, worlds),
            precision=ANALYZE_PRECISION * th.good,
            accuracy_scale=accuracy_scale(th),
            accuracy_precision=ANALYZE_ACCURACY_PRECISION,
        )
        pr = paired_evaluate(
            state,
            candidates,
            played,
            config=cfg,
            seed=seed,
            bands=analysis_bands(th),
            deadline=deadline,
            stop=stop,
        )
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

    def _paired_suggestions(
        self, state: State, result: SearchResult, pr: PairedResult
    ) -> list[pb.Suggestion]:
        """The candidates of a paired evaluation as ranked Suggestions (visits = worlds):
        Analyze's ``top`` (each move its own row; ``tied`` names the top move)."""
        game = state.game
        top_text = convert.move_label(game, pr.top.move)
        out = []
        for r in self._paired_rows(state, result, pr):
            fill(r.msg, game, r.line, r.explain(top_text))
            out.append(r.msg)
        return out

    @staticmethod
    def _summary(
        seat: int, decisions: list[pb.Decision], final_state: State, full: bool, th: pb.Thresholds
    ) -> pb.SeatSummary:
        out = pb.SeatSummary(seat=seat, decisions=len(decisions))
        chosen = [d for d in decisions if not d.forced]
        settled = [d for d in chosen if d.mark != pb.MARK_UNCLEAR]
        out.total_loss = sum(d.loss for d in decisions)
        out.average_loss = out.total_loss / len(chosen) if chosen else 0.0
        # the mean accuracy of the decisions with a choice, from their estimated losses
        out.accuracy = (
            sum(decision_accuracy(d.loss, th) for d in chosen) / len(chosen) if chosen else 1.0
        )
        for name in MARK_NAMES.values():
            out.marks[name] = 0
        for d in decisions:
            out.marks[MARK_NAMES[d.mark]] += 1
        worst = sorted((d for d in settled if d.loss > 0), key=lambda d: (-d.loss, d.index))[:3]
        out.worst.extend(worst)
        if full and final_state.is_terminal():
            out.payoff = float(final_state.returns()[seat])
        return out


# -- judging decisions in parallel: one function, any executor --------------------------------


def decision_tasks(
    record,
    decisions: Sequence[int],
    iterations,
    ms,
    seed: int,
    th: pb.Thresholds,
    worlds: int,
    lang: str,
    build_args,
) -> list[tuple]:
    """One picklable task of :func:`judge_decision` per decision of ``record`` (indices
    ``decisions``), judged as :meth:`Analysis.analyze` does in one process; ``build_args``:
    :func:`server.engine.build_engine`'s arguments (``Engine.build_args``)."""
    game = record.game
    tasks = []
    for index in decisions:
        seat, played = record.moves[index]
        tasks.append(
            (
                build_args,
                rec.view_at(record, seat, index),
                index,
                seat,
                game.move_to_text(played),
                iterations,
                ms,
                seed,
                th.SerializeToString(),
                worlds,
                lang,
            )
        )
    return tasks


#: The engines of this process's :func:`judge_decision` tasks, by ``build_args`` (a worker
#: builds its engine on its first task and keeps it for the next).
_ENGINES: dict = {}


def _engine_of(build_args):
    engine = _ENGINES.get(build_args)
    if engine is None:
        from quansu.server.engine import build_engine

        engine = _ENGINES[build_args] = build_engine(*build_args)
    return engine


def judge_decision(task: tuple) -> bytes:
    """One decision of :func:`decision_tasks`, judged as :meth:`Analysis.analyze` does in one
    process (same seeds), as a serialized ``Decision``: the task every executor runs."""
    (build_args, view, index, seat, played_text, iterations, ms, seed, th_bytes, worlds, lang) = (
        task
    )
    engine = _engine_of(build_args)
    state = rec.replay_view(view, random.Random(seed * 1_000_003 + index))
    played = state.game.parse_move(played_text)
    th = pb.Thresholds.FromString(th_bytes)
    with language(lang):
        d = engine._decision(
            state, index, seat, played, iterations, ms, seed + index, None, None, th, worlds
        )
    return d.SerializeToString()


def judge_in_parallel(
    executor, tasks: Sequence[tuple], stop: StopFn | None = None
) -> Iterator[pb.Decision | None]:
    """The Decisions of ``tasks`` (:func:`decision_tasks`) in order, each judged by
    :func:`judge_decision` on ``executor``: anything with ``submit(fn, task)`` returning a
    future with ``result(timeout)`` (raising ``concurrent.futures.TimeoutError`` while
    pending) and ``cancel()``, such as the local pool of :func:`local_executor` or a
    :class:`RayExecutor`.  None once ``stop()`` turns true, the futures not yet read then
    cancelled (a local pool's waiting tasks; a Ray task runs out, :meth:`_RayFuture.cancel`)."""
    futures = [executor.submit(judge_decision, t) for t in tasks]
    done = 0  # futures whose result was read: never cancelled
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
            done += 1
            yield pb.Decision.FromString(data)
    finally:
        for fut in futures[done:]:
            fut.cancel()


def _worker_init() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the pool


def local_executor(workers: int):
    """A local pool of ``workers`` spawned processes for :func:`judge_in_parallel` (a context
    manager: leaving it waits for the workers)."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(
        max_workers=workers, mp_context=mp.get_context("spawn"), initializer=_worker_init
    )


class RayExecutor:
    """``submit(fn, *args)`` as Ray tasks of ``num_cpus`` CPUs on the connected cluster
    (:func:`server.ray_cluster.connect` first), retried up to ``max_retries`` times when lost
    with their worker or node, as :func:`server.ray_cluster.map_unordered` runs its tasks; for
    :func:`judge_in_parallel`."""

    def __init__(self, num_cpus: float = 1, max_retries: int = 3) -> None:
        from quansu.server.ray_cluster import require_ray

        self._ray = require_ray()
        self._options = {
            "num_cpus": num_cpus,
            "max_retries": max_retries,
            "retry_exceptions": False,
            "scheduling_strategy": "SPREAD",  # as server.ray_cluster.map_unordered
        }
        self._remote: dict = {}

    def submit(self, fn: Callable[..., Any], *args) -> "_RayFuture":
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(**self._options)(fn)
        return _RayFuture(self._ray, remote.remote(*args))


class _RayFuture:
    """A Ray task as :func:`judge_in_parallel` reads a future."""

    def __init__(self, ray, ref) -> None:
        self._ray, self._ref = ray, ref

    def result(self, timeout: float | None = None):
        ready, _ = self._ray.wait([self._ref], num_returns=1, timeout=timeout)
        if not ready:
            raise Pending()
        return self._ray.get(self._ref)

    def cancel(self) -> bool:
        """Nothing: the task runs out its (bounded) budget and its result is dropped; when the
        driver exits, Ray ends its tasks.  Ray 2.60's ``ray.cancel`` races with a running
        task's reply and can abort the driver process ("Tried to complete task that was not
        pending", ray-project/ray#54846), and a driver cannot tell a running task from a
        waiting one without the dashboard; see :func:`server.ray_cluster.map_unordered`."""
        return False
