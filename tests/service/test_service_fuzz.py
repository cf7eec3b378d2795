"""Property-based fuzzing of every RPC (hypothesis): raw bytes, and structured mutations of valid
views and records of every game, sent as bytes to a real server.  Only documented outcomes are
allowed (:func:`quansu.bench.fuzz.problems`): OK with finite numbers only, INVALID_ARGUMENT with
a field, RESOURCE_EXHAUSTED, DEADLINE_EXCEEDED for a short deadline, NOT_FOUND for a health
check of an unknown service; never INTERNAL, UNKNOWN or a hang.

The number of examples per test is bounded for CI (``QUANSU_FUZZ_EXAMPLES``, default 40); a long
run is ``QUANSU_FUZZ_EXAMPLES=5000 pytest tests/service/test_service_fuzz.py`` or the benchmark
``python -m quansu.bench.fuzz --requests 100000``.
"""

from __future__ import annotations

import os

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quansu.bench import fuzz

# hypothesis warns when a failing example's repr is large (a whole view): harmless here
pytestmark = pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")

EXAMPLES = int(os.environ.get("QUANSU_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class DrawChooser(fuzz.Chooser):
    """The mutations' choices drawn by hypothesis (so that a failure shrinks)."""

    def __init__(self, data):
        self.data = data

    def integer(self, lo: int, hi: int) -> int:
        return self.data.draw(st.integers(lo, hi))


def _limits():
    from quansu.server.engine import Limits

    # small budgets: the fuzz is about what reaches the engine, not about search time
    return Limits(default_iterations=10, max_iterations=100, max_ms=50, max_analyze_decisions=10)


LIMITS = _limits()


@pytest.fixture(scope="module")
def channel():
    from tests.helpers.service import running_server

    with (
        running_server(workers=2, spare_workers=0, queue_size=16, limits=LIMITS) as (_s, tgt),
        grpc.insecure_channel(tgt) as ch,
    ):
        yield ch


@pytest.fixture(scope="module")
def sources():
    return fuzz.base_sources(seed=1)


def _check(channel, method: str, body: bytes, timeout: float = fuzz.HANG_S):
    code, details, responses, error = fuzz.call(channel, method, body, timeout)
    short = timeout < fuzz.HANG_S
    assert fuzz.problems(method, code, details, responses, error, short) == [], (
        method,
        code,
        details,
        body[:200],
    )
    return code


@FUZZ
@given(method=st.sampled_from(sorted(fuzz.METHODS)), body=st.binary(max_size=400))
def test_raw_bytes_on_every_method(channel, method, body):
    _check(channel, method, body)


@FUZZ
@given(data=st.data())
def test_structured_mutations_of_views_and_records(channel, sources, data):
    method, body = fuzz.structured_case(DrawChooser(data), sources)
    _check(channel, method, body)


@FUZZ
@given(data=st.data(), timeout=st.floats(0.05, 0.5))
def test_mutations_with_short_deadlines(channel, sources, data, timeout):
    method, body = fuzz.structured_case(DrawChooser(data), sources)
    _check(channel, method, body, timeout)


@FUZZ
@given(data=st.data())
def test_valid_requests_of_every_game_are_answered_with_finite_numbers(channel, sources, data):
    """Unmutated requests around every base view and record: answered OK (a record where a view
    is needed: INVALID_ARGUMENT), every number finite."""
    ch = DrawChooser(data)
    method = ch.pick(
        [m for m in fuzz.METHODS if m.startswith(fuzz.SERVICE) and "Describe" not in m]
    )
    kind, source = ch.pick(sources)
    body = fuzz.request_for(method, kind, source, ch).SerializeToString()
    code = _check(channel, method, body)
    if kind == "view" or method.endswith(("/LegalMoves", "/Analyze")):
        if code == grpc.StatusCode.INVALID_ARGUMENT and method.endswith("/Analyze"):
            # a long record: more decisions than this server's max_analyze_decisions
            req = fuzz.METHODS[method][0].FromString(body)
            assert len(getattr(req, req.WhichOneof("game")).moves) > LIMITS.max_analyze_decisions
            return
        assert code == grpc.StatusCode.OK, (method, kind)


def test_the_sources_cover_every_game_as_views_and_records(sources):
    from quansu.games.registry import game_names

    kinds = {(msg.game, kind) for kind, msg in sources}
    for name in game_names():
        assert (name, "view") in kinds and (name, "record") in kinds
