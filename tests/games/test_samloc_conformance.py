"""Sâm lốc's long games under the conformance checks (the suite itself: tests/games/test_conformance.py):
the checks on long games (random play declares Sâm half the time, and a blocked Sâm ends
a game after a few moves, so a second run declines Sâm to reach full-length games)."""

import random

import pytest

from quansu.games import make
from quansu.games.conformance import check_determinization, check_zones
from quansu.games.samloc import DECLARE, DECLINE
from tests.helpers.option_sets import SAMLOC_OPTION_SETS as OPTION_SETS


def _long_games(g, games, seed):
    """Conformance-style checks on games where Sâm is (almost) always declined."""
    rng = random.Random(seed)
    n = g.num_players
    bound = g.payoff_bound()
    for _ in range(games):
        st = g.new_initial_state(rng)
        step = 0
        while not st.is_terminal():
            lm = st.legal_moves()
            if step % 5 == 0:
                for s in range(n):
                    check_determinization(g, st, s, rng)
                replayed = g.replay(st.deal, st.history)
                assert [replayed.observation(s) for s in range(n)] == [
                    st.observation(s) for s in range(n)
                ]
                for m in lm:
                    assert g.parse_move(g.move_to_text(m)) == m
            if lm[-1] == DECLINE:
                m = DECLARE if rng.random() < 0.03 else DECLINE
            else:
                m = rng.choice(lm)
            st.apply(m)
            check_zones(g, st)
            step += 1
            assert step <= g.max_moves
        ret = st.returns()
        assert abs(sum(ret)) < 1e-9 and all(abs(r) <= bound for r in ret)
        paid = [0.0] * n
        for a, b, v in st.settlement():
            paid[a] -= v
            paid[b] += v
        assert paid == ret
        assert g.replay(st.deal, st.history).returns() == ret


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("opts", OPTION_SETS[:3], ids=["default", "forced", "options2"])
def test_long_games_keep_the_conformance_properties(n, opts):
    _long_games(make("samloc", n, opts), games=10, seed=n)
