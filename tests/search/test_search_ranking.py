"""The one ranking rule of hints and analysis (search/ranking.py) and the reasons that follow
it (server/reasons.py): "best" is the highest mean payoff among measured moves, the most
visited move is named as such, tied moves are grouped, too few visits say so."""

from __future__ import annotations

import inspect
import random

import pytest

from quansu.games import record as rec
from quansu.games.registry import game_names, make
from quansu.search.ranking import min_visits, rank
from quansu.search.result import MoveStats, SearchResult
from quansu.server import reasons as server_reasons
from quansu.server.reasons import search_reasons


def _stats(move, visits, mean, se=0.1, z=1.96):
    lcb = mean - z * se if visits >= 2 else -500.0
    return MoveStats(move, visits, mean, 0.1, lcb, ((0, move),))


def _result(*moves):
    return SearchResult(
        observer=0,
        moves=tuple(moves),
        iterations=sum(m.visits for m in moves),
        determinizations=0,
        elapsed_s=0.0,
        tree_size=1,
        stopped="iterations",
    )


def test_best_is_the_highest_mean_among_measured_moves():
    # "a" is the most visited, "b" has the higher mean, "c" too few visits (a high mean on 3)
    res = _result(
        _stats("a", 120, 0.10, 0.02),
        _stats("b", 60, 0.40, 0.03),
        _stats("c", 3, 0.9, 0.5),
        _stats("d", 1, 2.0),
    )
    ranked = rank(res)
    assert [r.move for r in ranked] == ["b", "a", "c", "d"]
    assert [r.measured for r in ranked] == [True, True, False, False]
    assert ranked[1].most_visited and not ranked[0].most_visited
    assert ranked[0].group == 0 and ranked[1].group == 1  # 0.40 vs 0.10: not tied
    assert ranked[3].lower_bound is None  # no placeholder bound
    assert ranked[2].lower_bound is not None  # 3 visits: a real (wide) bound
    assert min_visits(184) == 10 and min_visits(10) == 4


def test_tied_moves_share_a_group():
    res = _result(
        _stats("a", 100, 0.30, 0.05),
        _stats("b", 90, 0.28, 0.05),
        _stats("c", 80, 0.27, 0.05),
        _stats("d", 70, -0.5, 0.05),
    )
    groups = {r.move: r.group for r in rank(res)}
    assert groups == {"a": 0, "b": 0, "c": 0, "d": 1}


def test_search_reasons_agree_with_the_numbers():
    def codes(**kw):
        return [r[0] for r in search_reasons(legal_count=5, **kw)]

    assert codes(rank=0) == ["best_value"]
    assert codes(rank=1, group=0, top_text="3S") == ["tied"]
    assert "3S" in search_reasons(rank=1, legal_count=5, group=0, top_text="3S")[0][3]
    assert codes(rank=1, group=1, most_visited=True, safest=True) == ["most_visited", "safest"]
    assert codes(rank=4, measured=False, group=2, visits=1) == ["few_visits"]
    assert codes(rank=0, measured=False, visits=2) == ["few_visits"]  # no best without data
    assert [r[0] for r in search_reasons(rank=0, legal_count=1)] == ["only_move"]


def test_reasons_live_with_each_game():
    """server/reasons.py knows no game: every registered game explains its own moves."""
    src = inspect.getsource(server_reasons)
    for name in game_names():
        assert f'"{name}"' not in src
    for name in game_names():
        game = make(name, 4 if name != "tan" else 2)
        state = game.new_initial_state(random.Random(1))
        seat = state.current_player
        for move in state.legal_moves()[:20]:
            for code, cards, combo, text in game.move_reasons(state, seat, move):
                assert code and text and isinstance(cards, tuple)


@pytest.mark.parametrize("game", game_names())
def test_suggestions_follow_the_rule(game):
    from quansu.server.engine import build_engine
    from tests.helpers.service import view_to_act

    eng = build_engine(uniform=True)
    view = view_to_act(game, 4, seed=2)
    state = rec.replay_view(view, random.Random(0))
    result = eng._search(state, 80, None, 3, None, None)
    out = eng._suggestions(state, result, 64)
    assert len(out) == len(result.moves)
    best = [s for s in out if any(r.code == "best_value" for r in s.reasons)]
    measured = [s for s in out if not any(r.code == "few_visits" for r in s.reasons)]
    if measured:
        assert best == [out[0]]
        assert out[0].expected_payoff == max(s.expected_payoff for s in measured)
    most = max(result.moves, key=lambda m: m.visits)
    named = [s.move.text for s in out if any(r.code == "most_visited" for r in s.reasons)]
    assert named in ([], [state.game.move_to_text(most.move)])
    for s in out:
        assert s.HasField("lower_bound") == (s.visits >= 2)
