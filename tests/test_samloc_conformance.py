"""The common conformance suite for Sâm lốc at every player count and several option sets, plus
the same checks on long games (random play declares Sâm half the time, and a blocked Sâm ends
a game after a few moves, so a second run declines Sâm to reach full-length games)."""

import random

import pytest

from quansu.games import make
from quansu.games.conformance import check_determinization, check_game, check_zones
from quansu.games.samloc import DECLARE, DECLINE

OPTION_SETS = [
    {},
    {"bao_mot_mode": "forced", "straight_allows_two": False, "first_game_leader": "random"},
    {"single_quad_chops_pair_of_twos": True, "double_quad_enabled": False,
     "chop_chain_last_victim_pays_all": False, "bao_mot_pass_liable": True,
     "two_in_straight_counts": False, "sam_fail_multiplier": "all_players"},
    {"instant_win_enabled": False, "bao_mot_mode": "off", "sam_block_also_pays_chop": False,
     "sam_amount": 10, "cong_amount": 13, "thoi_two": 5, "thoi_quad": 10, "chop_two": 10,
     "chop_quad": 15},
]


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("opts", OPTION_SETS, ids=["default", "forced", "options2", "amounts"])
def test_conformance(n, opts):
    stats = check_game(make("samloc", n, opts), games=40, seed=100 * n + len(opts))
    assert stats["max_length"] <= make("samloc", n, opts).max_moves


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
                assert [replayed.observation(s) for s in range(n)] == [st.observation(s) for s in range(n)]
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
