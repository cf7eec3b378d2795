"""Hints (Suggest without ``strength``) are measured: the search's best moves and the sparring
bot's move are played on common sampled worlds and ranked by their paired values (issue 20:
one ranking rule for Suggest and Analyze, tied moves grouped, hints stable across seeds)."""

from __future__ import annotations

import pytest

from quansu.server.engine import HINT_CANDIDATES, Limits, build_engine
from quansu.server.v1 import service_pb2 as pb
from tests.helpers.service import view_message, view_to_act

GAMES = ("tienlen", "samloc", "phom", "tan")


@pytest.fixture(scope="module")
def engines():
    return {w: build_engine(Limits(hint_worlds=w), uniform=True) for w in (24, 64, 0)}


def _hint(engine, view, **kw) -> pb.SuggestResponse:
    req = pb.SuggestRequest(view=view_message(view), seed=kw.pop("seed", 3), **kw)
    if "iterations" not in kw:
        req.budget.iterations = 60
    return engine.suggest(req)


@pytest.mark.parametrize("game", GAMES)
def test_a_hint_ranks_the_measured_candidates_by_paired_value(engines, game):
    view = view_to_act(game, 4 if game != "tan" else 2, seed=11)
    r = _hint(engines[64], view, top_k=64)
    # the race (HINT_PAIRED) looks at 32 worlds, then at the cap of 64: it stops at the first
    # look once the top of the ranking is settled
    assert r.stats.hint_worlds in (32, 64)
    measured = [m for m in r.moves if m.visits]
    rest = r.moves[len(measured) :]
    assert 2 <= len(measured) <= HINT_CANDIDATES + 1  # the search's best and the sparring move
    # every candidate is played on the first 32 worlds; one surely worse than the leader is
    # not played on the others; the top group was played on every world
    assert all(32 <= m.visits <= r.stats.hint_worlds for m in measured)
    assert all(m.visits == r.stats.hint_worlds for m in measured if m.group == 0)
    values = [m.expected_payoff for m in measured]
    assert values == sorted(values, reverse=True)  # by paired value
    groups = [m.group for m in measured]
    assert groups[0] == 0 and groups == sorted(groups)
    assert r.chosen.text == r.moves[0].move.text  # a hint chooses the top of its ranking
    codes = [x.code for x in r.moves[0].reasons]
    assert codes[0] == "best_value"
    assert all("best_value" not in [x.code for x in m.reasons] for m in r.moves[1:])
    assert all(m.reasons[0].code == "tied" for m in measured[1:] if m.group == 0)
    last = groups[-1]
    for m in rest:  # not measured: after them, no bound
        assert m.visits == 0 and m.group == last + 1 and not m.HasField("lower_bound")
        assert m.reasons[0].code == "not_measured"
    assert len(r.moves) == r.stats.legal_moves  # top_k 64: every legal move is listed


def test_a_hint_is_repeatable_and_can_be_the_search_ranking(engines):
    view = view_to_act("tienlen", 4, seed=12)
    for w in (24, 64):  # the race's stop is seeded too
        a, b = _hint(engines[w], view), _hint(engines[w], view)
        a.stats.elapsed_ms = b.stats.elapsed_ms = 0
        assert a == b  # same request, same seed: same answer
    plain = _hint(engines[0], view, top_k=64)  # Limits(hint_worlds=0)
    assert plain.stats.hint_worlds == 0
    assert sum(m.visits for m in plain.moves) == plain.stats.iterations  # the search's visits
    assert all(x.code != "not_measured" for m in plain.moves for x in m.reasons)


def test_bot_play_is_not_measured(engines):
    view = view_to_act("tienlen", 4, seed=13)
    r = engines[24].suggest(pb.SuggestRequest(view=view_message(view), seed=1, strength=3))
    assert r.stats.hint_worlds == 0


def test_a_time_budget_covers_the_search_and_the_measurement(engines):
    view = view_to_act("phom", 4, seed=14)
    req = pb.SuggestRequest(view=view_message(view), seed=1)
    req.budget.milliseconds = 150
    r = build_engine(Limits(hint_worlds=100_000), uniform=True).suggest(req)
    assert r.stats.stopped_by == "time"  # the measurement ran out of time
    assert 0 < r.stats.hint_worlds < 100_000
    # bounded by the budget, not by the 100,000 worlds (minutes); a loose bound, so that a
    # loaded machine makes the test slower, not red
    assert r.stats.elapsed_ms < 150 * 20


def test_each_game_sets_its_hint_worlds_and_describe_games_lists_them(engines):
    games = {g.name: g for g in build_engine(uniform=True).describe_games().games}
    assert games["tan"].hint_worlds == 0  # Tấn: the search's ranking
    assert all(games[n].hint_worlds == 128 for n in ("tienlen", "samloc"))
    assert games["phom"].hint_worlds == 96  # its noisy, long playouts
    assert {g.hint_worlds for g in engines[24].describe_games().games} == {24}  # Limits
    tan = build_engine(uniform=True).suggest(
        pb.SuggestRequest(
            view=view_message(view_to_act("tan", 2, seed=11)),
            seed=1,
            budget=pb.Budget(iterations=60),
        )
    )
    assert tan.stats.hint_worlds == 0 and tan.moves[0].visits > 0


def test_a_deadline_leaves_the_measurement_its_share_or_the_search_ranking_answers(engines):
    view = view_to_act("tienlen", 4, seed=15)
    eng = build_engine(Limits(hint_worlds=100_000), uniform=True)
    req = pb.SuggestRequest(view=view_message(view), seed=1)
    req.budget.iterations = 50_000
    r = eng.suggest(req, seconds_left=0.6)
    assert r.stats.stopped_by == "deadline"
    assert r.stats.iterations < 50_000 and r.stats.hint_worlds >= 2  # both steps ran
    assert r.stats.elapsed_ms < 600 * 20  # cut by the deadline (loose: a loaded machine)
    assert r.moves[0].visits == r.stats.hint_worlds
    # no time at all for the measurement: the search's ranking, no invented payoffs
    r = eng.suggest(req, seconds_left=0.0)
    assert r.stats.hint_worlds == 0 and r.moves and r.stats.stopped_by == "deadline"
    assert sum(m.visits for m in r.moves) <= r.stats.iterations
