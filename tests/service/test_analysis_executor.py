"""Analyze's parallel path is one function on any executor (issue 43):
:func:`quansu.server.analysis.judge_in_parallel` runs :func:`quansu.server.analysis.judge_decision`
on whatever it is given (the local process pool of ``Engine.analyze(jobs=N)``, a Ray cluster,
or here an executor that runs each task in this process), with the decisions of one process
for the same seeds.  The engine's old names are still importable from ``quansu.server.engine``.
"""

from __future__ import annotations

import json
from concurrent.futures import Future
from pathlib import Path

from quansu.server import analysis, checks, convert, engine, suggest
from quansu.server.engine import build_engine
from quansu.server.v1 import service_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]


class InProcess:
    """An executor that runs each task when it is submitted; counts them."""

    def __init__(self) -> None:
        self.calls: list = []

    def submit(self, fn, *args) -> Future:
        self.calls.append(fn)
        fut: Future = Future()
        fut.set_result(fn(*args))
        return fut


def _request() -> pb.AnalyzeRequest:
    obj = json.loads((ROOT / "docs" / "examples" / "tan.record.json").read_text())
    return pb.AnalyzeRequest(
        record=convert.record_message(obj), budget=pb.Budget(iterations=8), seed=5, max_worlds=8
    )


def test_an_executor_judges_the_decisions_of_one_process():
    eng = build_engine(uniform=True)
    req = _request()
    one, other = [], []
    eng.analyze(req, one.append)
    ex = InProcess()
    eng.analyze(req, other.append, executor=ex)
    decisions = sum(1 for m in one if m.WhichOneof("item") == "decision")
    assert decisions > 1 and ex.calls == [analysis.judge_decision] * decisions
    assert [m.SerializeToString() for m in one] == [m.SerializeToString() for m in other]


def test_a_stop_cancels_the_rest():
    eng = build_engine(uniform=True)
    out: list = []
    eng.analyze(_request(), out.append, executor=InProcess(), stop=lambda: True)
    assert out == []  # stopped before the first decision: no summary either


class Recorded(Future):
    """A finished future that records whether it was cancelled."""

    def __init__(self, value) -> None:
        super().__init__()
        self.set_result(value)
        self.cancelled_by_caller = False

    def cancel(self) -> bool:
        self.cancelled_by_caller = True
        return False


def test_a_future_that_was_read_is_never_cancelled():
    """Only the futures not yet read are cancelled, and only when the caller stops early: Ray
    2.60 aborts the driver when a task is cancelled as its reply arrives."""
    data = pb.Decision(index=1).SerializeToString()
    futs: list[Recorded] = []

    class Rec:
        def submit(self, fn, *args):
            futs.append(Recorded(data))
            return futs[-1]

    tasks = [()] * 4
    assert len(list(analysis.judge_in_parallel(Rec(), tasks))) == 4
    assert not any(f.cancelled_by_caller for f in futs)
    futs.clear()
    it = analysis.judge_in_parallel(Rec(), tasks)
    next(it), next(it)
    it.close()  # the caller stops after two
    assert [f.cancelled_by_caller for f in futs] == [False, False, True, True]


def test_the_old_names_are_still_the_engines():
    assert engine.Limits is checks.Limits and engine.check_language is checks.check_language
    assert engine.default_thresholds is checks.default_thresholds
    assert engine.THRESHOLD_FRACTIONS is checks.THRESHOLD_FRACTIONS
    assert (
        engine.view_seed is suggest.view_seed and engine.deadline_margin is suggest.deadline_margin
    )
    for name in (
        "HINT_CANDIDATES",
        "HINT_PAIRED",
        "HINT_PAIRED_SEED",
        "FORCED_HINT_WORLDS",
        "HINT_SEARCH_SHARE",
    ):
        assert getattr(engine, name) is getattr(suggest, name), name
    for name in (
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
    ):
        assert getattr(engine, name) is getattr(analysis, name), name
    assert all(
        issubclass(engine.Engine, c) for c in (checks.Checks, suggest.Suggest, analysis.Analysis)
    )
