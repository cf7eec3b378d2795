"""ISMCTS on the toy hidden-card game: known best moves, values, determinism, budgets, results."""

from __future__ import annotations

import random
import threading
import time

import pytest

from quansu.games.base import GameError
from quansu.games.cards import parse_card
from quansu.search import (
    Evaluation,
    Evaluator,
    SearchConfig,
    SearchError,
    SearchOptionError,
    UniformEvaluator,
    search,
)
from quansu.search.config import from_dict
from tests.search.test_search_toygame import PASS, BeatGame, beat_state


def c(text):
    return parse_card(text)


def stats_by_move(result):
    return {m.move: m for m in result.moves}


# -- known best moves ----------------------------------------------------------------------------


@pytest.mark.parametrize("keys", ["own", "observer", "model"])
def test_leads_the_unbeatable_card_first(keys):
    # Seat 0 holds 2H (beats everything) and 3S; seat 1 holds one card among the other 50.
    # Leading 2H forces a pass, then 3S wins: +1 for sure.  Leading 3S lets seat 1 go out.
    st = beat_state(2, ["2H 3S", "9C"], deck_size=52)
    res = search(st, SearchConfig(iterations=1500, opponent_keys=keys), seed=3)
    assert res.best.move == c("2H")
    s = stats_by_move(res)
    assert s[c("2H")].mean == pytest.approx(1.0)
    assert s[c("3S")].mean < 0.5
    if keys == "model":
        # opponents own no nodes: the line is the observer's own plan
        assert res.best.line[:2] == ((0, c("2H")), (0, c("3S")))
    else:
        assert res.best.line[:3] == ((0, c("2H")), (1, PASS), (0, c("3S")))


@pytest.mark.parametrize("keys", ["own", "observer", "model"])
def test_value_is_the_expectation_over_the_observers_beliefs(keys):
    # Seat 0: 5S 3S.  Seat 1: one card out of the 10 unseen (deck 3S..5H).  Leading 5S loses only
    # when seat 1 holds 5C, 5D or 5H: EV = 0.7 * (+1) + 0.3 * (-1) = +0.4.  Leading 3S: seat 1
    # always beats it and goes out: EV -> -1 under good play.
    st = beat_state(2, ["5S 3S", "4C"], deck_size=12)
    res = search(st, SearchConfig(iterations=4000, opponent_keys=keys), seed=1)
    s = stats_by_move(res)
    assert res.best.move == c("5S")
    assert s[c("5S")].mean == pytest.approx(0.4, abs=0.08)
    assert s[c("3S")].mean < 0.0
    assert s[c("5S")].lcb < s[c("5S")].mean


def test_three_players_each_seat_maximises_its_own_payoff():
    # Seat 1 to act after seat 0 led 6S.  Seat 1 holds 2H (the top card) and 3S: playing 2H
    # wins the round, then 3S wins the game (+2).  Passing lets seat 2 or 0 continue.
    st = beat_state(3, ["6S 4C", "2H 3S", "9D 8C"], first=0, deck_size=52)
    st.apply(c("6S"))
    res = search(st, SearchConfig(iterations=1500), seed=2)
    assert res.observer == 1
    assert res.best.move == c("2H")
    assert stats_by_move(res)[c("2H")].mean == pytest.approx(2.0)


# -- determinism ---------------------------------------------------------------------------------


def test_same_seed_same_result_and_other_seed_differs():
    game = BeatGame(4, {"deck_size": 52, "hand_size": 6})
    st = game.new_initial_state(random.Random(11))
    cfg = SearchConfig(iterations=400)
    a = search(st, cfg, seed=7)
    b = search(st, cfg, seed=7)
    other = search(st, cfg, seed=8)
    assert a.moves == b.moves and a.tree_size == b.tree_size
    assert [(m.move, m.visits, m.mean) for m in a.moves] != [
        (m.move, m.visits, m.mean) for m in other.moves
    ]


def test_search_does_not_change_the_state():
    game = BeatGame(3, {"deck_size": 30, "hand_size": 5})
    st = game.new_initial_state(random.Random(4))
    before = (st.zones(), st.history, st.current_player)
    search(st, SearchConfig(iterations=200), seed=1)
    assert (st.zones(), st.history, st.current_player) == before


# -- result fields -------------------------------------------------------------------------------


def test_result_accounts_for_every_iteration():
    game = BeatGame(4, {"deck_size": 52, "hand_size": 6})
    st = game.new_initial_state(random.Random(5))
    res = search(st, SearchConfig(iterations=300), seed=0)
    assert res.iterations == 300
    assert sum(m.visits for m in res.moves) == 300
    assert res.determinizations == 301  # one more for the root priors
    assert sorted(m.move for m in res.moves) == sorted(st.legal_moves())
    assert sum(m.prior for m in res.moves) == pytest.approx(1.0)
    assert res.tree_size > 1 and res.stopped == "iterations" and res.elapsed_s >= 0
    for m in res.moves:
        assert m.line[0] == (st.current_player, m.move)
        assert -game.payoff_bound() <= m.mean <= game.payoff_bound()
        assert m.lcb <= m.mean or m.visits < 2
    visits = [m.visits for m in res.moves]
    assert visits == sorted(visits, reverse=True)
    d = res.to_dict(game)
    assert d["moves"][0]["move"] == game.move_to_text(res.best.move)
    assert d["moves"][0]["line"][0] == [st.current_player, game.move_to_text(res.best.move)]


def test_choose_with_temperature_samples_by_visits():
    game = BeatGame(4, {"deck_size": 52, "hand_size": 6})
    st = game.new_initial_state(random.Random(5))
    res = search(st, SearchConfig(iterations=300), seed=0)
    assert res.choose() == res.best.move
    rng = random.Random(1)
    picks = {res.choose(rng, temperature=5.0) for _ in range(200)}
    assert len(picks) > 1
    assert picks <= {m.move for m in res.moves if m.visits > 0}
    with pytest.raises(GameError):
        res.choose(None, temperature=1.0)


# -- budgets -------------------------------------------------------------------------------------


class FakeClock:
    """Advances ``step`` seconds every time it is read."""

    def __init__(self, step):
        self.t = 0.0
        self.step = step

    def __call__(self):
        self.t += self.step
        return self.t


def toy_opening(players=4, hand=8, seed=3):
    return BeatGame(players, {"deck_size": 52, "hand_size": hand}).new_initial_state(
        random.Random(seed)
    )


def test_time_budget_stops_the_search():
    clock = FakeClock(0.001)
    res = search(toy_opening(), SearchConfig(iterations=None, time_s=0.05), seed=0, clock=clock)
    assert res.stopped == "time"
    assert 0 < res.iterations < 50


def test_deadline_stops_the_search():
    clock = FakeClock(0.001)
    res = search(toy_opening(), SearchConfig(iterations=None), seed=0, clock=clock, deadline=0.03)
    assert res.stopped == "deadline"
    assert 0 < res.iterations < 30


def test_deadline_already_passed_returns_the_priors():
    res = search(
        toy_opening(), SearchConfig(iterations=None), seed=0, deadline=time.monotonic() - 1
    )
    assert res.iterations == 0 and res.stopped == "deadline"
    assert len(res.moves) == len(toy_opening().legal_moves())
    assert res.best.visits == 0


def test_cancel_event_from_the_progress_callback():
    cancel = threading.Event()
    seen = []

    def progress(partial):
        seen.append(partial)
        if len(seen) == 3:
            cancel.set()

    clock = FakeClock(0.001)
    cfg = SearchConfig(iterations=None, progress_interval_s=0.01)
    res = search(toy_opening(), cfg, seed=0, cancel=cancel, progress=progress, clock=clock)
    assert res.stopped == "cancelled"
    assert len(seen) == 3
    assert all(p.stopped == "running" for p in seen)
    assert [p.iterations for p in seen] == sorted(p.iterations for p in seen)
    assert res.iterations >= seen[-1].iterations


def test_cancel_from_another_thread_returns_best_so_far():
    cancel = threading.Event()
    running = threading.Event()
    out = {}
    cfg = SearchConfig(iterations=None, progress_interval_s=0.01)
    th = threading.Thread(
        target=lambda: out.setdefault(
            "r",
            search(
                toy_opening(4, 13),
                cfg,
                seed=0,
                cancel=cancel,
                progress=lambda p: p.iterations and running.set(),
            ),
        )
    )
    th.start()
    # cancel once the search has done some work (an event, not a guess of how long it takes)
    assert running.wait(timeout=120)
    cancel.set()
    th.join(timeout=120)
    assert not th.is_alive()
    assert out["r"].stopped == "cancelled" and out["r"].iterations > 0


class SlowEvaluator(Evaluator):
    """Uniform priors; values from a playout that polls ``stop`` (to test aborts)."""

    def __init__(self):
        self.aborted = 0

    def evaluate(self, states, moves, rng, *, values=True, stop=None):
        from quansu.search.evaluator import Aborted

        out = []
        for st, legal in zip(states, moves):
            if values and stop is not None and stop():
                self.aborted += 1
                raise Aborted()
            out.append(
                Evaluation([1.0] * len(legal), [0.0] * st.game.num_players if values else None)
            )
        return out


def test_an_aborted_batch_is_discarded():
    clock = FakeClock(0.001)
    ev = SlowEvaluator()
    cfg = SearchConfig(iterations=None, time_s=0.02, leaf_value="evaluator", batch_size=4)
    res = search(toy_opening(), cfg, ev, seed=0, clock=clock)
    assert ev.aborted == 1
    assert sum(m.visits for m in res.moves) == res.iterations


def test_no_budget_and_terminal_state_are_errors():
    with pytest.raises(SearchError):
        search(toy_opening(), SearchConfig(iterations=None), seed=0)
    st = beat_state(2, ["3S", "4S"], deck_size=8)
    st.apply(c("3S"))
    assert st.is_terminal()
    with pytest.raises(SearchError, match="terminal"):
        search(st, SearchConfig(iterations=10))


# -- leaf values, batches, evaluators ------------------------------------------------------------


@pytest.mark.parametrize(
    "changes",
    [
        {"leaf_value": "evaluator"},
        {"leaf_value": "mix", "mix_lambda": 0.5},
        {"leaf_value": "evaluator", "batch_size": 8},
        {"playout": "heuristic"},
        {"playout": "mast", "mast_epsilon": 0.3},
        {"opponent_keys": "observer", "batch_size": 4},
        {"fpu_reduction": 0.2, "value_scale": 1.0},
    ],
)
def test_every_mode_finds_the_known_best_move(changes):
    st = beat_state(2, ["2H 3S", "9C"], deck_size=52)
    res = search(st, SearchConfig(iterations=800).replace(**changes), UniformEvaluator(), seed=4)
    assert res.best.move == c("2H")
    assert res.iterations == 800
    assert sum(m.visits for m in res.moves) == 800


class FixedPriors(Evaluator):
    """Priors favour the highest card; values are zero."""

    def evaluate(self, states, moves, rng, *, values=True, stop=None):
        return [
            Evaluation(
                [1.0 + (m if m >= 0 else 0) for m in legal],
                [0.0] * st.game.num_players if values else None,
            )
            for st, legal in zip(states, moves)
        ]


def test_priors_steer_the_search_and_are_reported():
    st = toy_opening(4, 6)
    res = search(st, SearchConfig(iterations=50, leaf_value="evaluator"), FixedPriors(), seed=0)
    top = max(st.legal_moves())
    assert res.best.move == top  # zero values: the highest prior gets most visits
    assert max(res.moves, key=lambda m: m.prior).move == top


def test_prior_temperature_sharpens_the_priors_puct_uses_not_the_reported_ones():
    """With zero values, visits follow the priors; a prior temperature below 1 puts more of
    them on the top-prior move, while the reported priors stay the evaluator's."""
    st = toy_opening(4, 6)
    moves = st.legal_moves()
    top = max(moves)
    cfg = SearchConfig(iterations=200, leaf_value="evaluator")
    plain = search(st, cfg, FixedPriors(), seed=0)
    sharp = search(st, cfg.replace(prior_temperature=0.25), FixedPriors(), seed=0)
    assert stats_by_move(sharp)[top].visits > stats_by_move(plain)[top].visits
    raw = [1.0 + (m if m >= 0 else 0) for m in moves]
    for m, p in zip(moves, raw):
        assert stats_by_move(sharp)[m].prior == pytest.approx(p / sum(raw))
        assert stats_by_move(plain)[m].prior == pytest.approx(p / sum(raw))
    for bad in (0, -1.0, float("inf")):
        with pytest.raises(SearchOptionError, match="prior_temperature"):
            SearchConfig(prior_temperature=bad)


def test_uniform_evaluator_values_are_rollout_payoffs():
    st = toy_opening(3, 4)
    ev = UniformEvaluator(rollouts=4).evaluate([st], [st.legal_moves()], random.Random(0))[0]
    assert len(ev.priors) == len(st.legal_moves())
    assert sum(ev.priors) == pytest.approx(1.0)
    assert sum(ev.values) == pytest.approx(0.0)
    assert all(-2.0 <= v <= 2.0 for v in ev.values)
    with pytest.raises(SearchOptionError):
        UniformEvaluator(rollouts=0)


def test_assume_state_known_is_a_perfect_information_search():
    # With the true cards known, leading 5S wins for sure when seat 1 holds 4C.
    st = beat_state(2, ["5S 3S", "4C"], deck_size=12)
    res = search(st, SearchConfig(iterations=500), seed=1, assume_state_known=True)
    assert res.best.move == c("5S")
    assert stats_by_move(res)[c("5S")].mean == pytest.approx(1.0)


# -- config --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "changes,word",
    [
        ({"iterations": 0}, "iterations"),
        ({"iterations": 1.5}, "iterations"),
        ({"time_s": -1}, "time_s"),
        ({"c_puct": "x"}, "c_puct"),
        ({"leaf_value": "net"}, "leaf_value"),
        ({"playout": "smart"}, "playout"),
        ({"opponent_keys": "all"}, "opponent_keys"),
        ({"mix_lambda": 2}, "mix_lambda"),
        ({"batch_size": 0}, "batch_size"),
        ({"temperature": float("nan")}, "temperature"),
        ({"bogus": 1}, "bogus"),
    ],
)
def test_bad_config_names_the_field(changes, word):
    with pytest.raises(SearchOptionError, match=word):
        from_dict(changes)
    assert issubclass(SearchOptionError, GameError)


def test_mast_learns_move_values_and_plays_greedily():
    from quansu.search.evaluator import MoveAverages, playout

    mast = MoveAverages()
    mast.update([(0, 5), (1, 7), (0, 5)], [1.0, -1.0])
    assert mast.value(5) == pytest.approx(1.0) and mast.table[5][1] == 2
    assert mast.value(7) == pytest.approx(-1.0) and mast.value(9) == 0.0
    mast.update([(1, 5)], [1.0, -1.0])
    assert mast.value(5) == pytest.approx(1 / 3)
    # Greedy (epsilon 0): the toy leader plays the card MAST rates highest.
    st = beat_state(2, ["9S 5S 3S", "4C 8D 6H"], deck_size=52)
    table = MoveAverages()
    table.update([(0, c("5S"))], [2.0, -2.0])
    probe = st.clone()
    playout(probe, random.Random(0), "mast", mast=table, epsilon=0.0)
    assert probe.history[0] == (0, c("5S"))
    assert table.table[c("5S")][1] == 2  # the playout's own moves were added
    with pytest.raises(ValueError):
        playout(st.clone(), random.Random(0), "mast")


class BrokenEvaluator(Evaluator):
    name = "broken"

    def __init__(self, priors_short=False, no_values=False):
        self.priors_short, self.no_values = priors_short, no_values

    def evaluate(self, states, moves, rng, *, values=True, stop=None):
        return [
            Evaluation(
                [1.0] * (len(legal) - self.priors_short),
                None if self.no_values else [0.0] * st.game.num_players,
            )
            for st, legal in zip(states, moves)
        ]


def test_a_broken_evaluator_is_named_in_the_error():
    with pytest.raises(SearchError, match="'broken' gave 1 priors for 2 moves"):
        search(
            beat_state(2, ["5S 3S", "4C"], deck_size=12),
            SearchConfig(iterations=5),
            BrokenEvaluator(priors_short=True),
        )
    with pytest.raises(SearchError, match="'broken' gave values None"):
        search(
            beat_state(2, ["5S 3S", "4C"], deck_size=12),
            SearchConfig(iterations=5, leaf_value="evaluator"),
            BrokenEvaluator(no_values=True),
        )


class OneHotPriors(Evaluator):
    """All prior on one move (as a near one-hot network policy would put it); no values."""

    def __init__(self, favourite):
        self.favourite = favourite

    def evaluate(self, states, moves, rng, *, values=True, stop=None):
        return [
            Evaluation([1.0 if m == self.favourite else 0.0 for m in legal], None)
            for legal in moves
        ]


def test_prior_mix_lets_the_search_leave_a_wrong_one_hot_prior():
    # The known position above: 2H wins for sure, 3S loses; the prior puts everything on 3S.
    st = beat_state(2, ["2H 3S", "9C"], deck_size=52)
    ev = OneHotPriors(c("3S"))
    stuck = search(st, SearchConfig(iterations=400, prior_mix=0.0), ev, seed=3)
    mixed = search(st, SearchConfig(iterations=400, prior_mix=0.5), ev, seed=3)
    assert stats_by_move(stuck)[c("2H")].visits < stats_by_move(mixed)[c("2H")].visits
    assert mixed.best.move == c("2H")
    with pytest.raises(SearchOptionError, match="prior_mix"):
        SearchConfig(prior_mix=1.5)


@pytest.mark.parametrize("name", ["tienlen", "phom", "samloc", "tan"])
def test_game_playout_is_the_games_search_playout(name):
    """``playout="game"`` (the default) plays out with the game's ``search_playout``: the same
    seed gives exactly the search of that playout named explicitly."""
    from quansu.games import make

    game = make(name, 4)
    assert game.search_playout in ("random", "heuristic")
    rng = random.Random(5)
    st = game.new_initial_state(rng)
    while st.is_terminal():  # an instant win ends some deals at once
        st = game.new_initial_state(rng)
    assert SearchConfig().playout == "game"
    a = search(st, SearchConfig(iterations=40, playout="game"), seed=2)
    b = search(st, SearchConfig(iterations=40, playout=game.search_playout), seed=2)

    def table(res):
        return [(m.move, m.visits, m.mean) for m in res.moves]

    assert table(a) == table(b)


# -- the paused garbage collector ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tienlen", "samloc", "phom", "tan"])
def test_a_search_makes_no_cyclic_garbage_and_restores_the_collector(name):
    """The search pauses the cyclic garbage collector (search/ismcts.py, GC_COLLECT_EVERY), so
    what it runs must not leave reference cycles behind: with the collector off, a search of
    every game with its own playouts leaves (almost) nothing for it to find.  (Phỏm's meld
    arrangements used a recursive closure: 10,000 objects of cyclic garbage per 300
    iterations.)"""
    import gc

    from quansu.games.registry import make
    from quansu.search import search

    game = make(name, 4)
    rng = random.Random(3)
    state = game.new_initial_state(rng)
    while state.is_terminal() or len(state.legal_moves()) < 2:  # a position with a choice
        if state.is_terminal():
            state = game.new_initial_state(rng)
        else:
            state.apply(state.legal_moves()[0])
    cfg = SearchConfig(iterations=300, playout=game.search_playout)
    assert gc.isenabled()
    search(state, cfg, seed=1)
    assert gc.isenabled()  # resumed
    gc.collect()
    gc.disable()
    try:
        result = search(state, cfg, seed=1)
        assert not gc.isenabled()  # left off when it was off
        found = gc.collect()
    finally:
        gc.enable()
    assert result.iterations == 300
    assert found <= 16, f"{found} objects of cyclic garbage from one search"
