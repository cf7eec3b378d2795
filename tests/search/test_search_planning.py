"""The search's planning mechanisms: forced moves, observer-keyed trees with a hand-aware
opponent model (``opponent_keys="model"``), depth statistics, levels defined by budgets."""

from __future__ import annotations

import random

import pytest

from quansu import games
from quansu.search.config import SearchConfig, SearchOptionError
from quansu.search.ismcts import model_node_key, search
from quansu.search.levels import LEVELS, level_config


def _opening(seed: int = 0):
    return games.make("tienlen", 4, {}).new_initial_state(random.Random(seed))


def _forced_state():
    """A Tiến lên state where the seat to act can only pass: play until a seat has one move."""
    rng = random.Random(5)
    for seed in range(50):
        s = games.make("tienlen", 4, {}).new_initial_state(random.Random(seed))
        while not s.is_terminal():
            legal = s.legal_moves()
            if len(legal) == 1:
                return s
            s.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("no forced position found")


def test_forced_move_is_answered_without_search():
    s = _forced_state()
    (only,) = s.legal_moves()
    calls = []

    class Counting:
        name = "counting"

        def evaluate(self, *a, **k):  # pragma: no cover - must not be called
            calls.append(1)
            raise AssertionError("the evaluator must not be asked for a forced move")

    res = search(s, SearchConfig(iterations=500), Counting(), seed=1)
    assert res.stopped == "forced" and res.iterations == 0 and res.determinizations == 0
    assert [m.move for m in res.moves] == [only] and res.moves[0].prior == 1.0
    assert not calls


def test_model_keying_plans_the_observers_later_turns():
    s = _opening(1)
    flat = search(s, SearchConfig(iterations=300, opponent_keys="own"), seed=3)
    deep = search(s, SearchConfig(iterations=300, opponent_keys="model"), seed=3)
    # with opponents keyed by their sampled hands, no node below a root move is ever reused
    assert flat.max_depth == 0 and flat.deep_share == 0.0
    assert deep.max_depth >= 2 and deep.deep_share > 0.1 and deep.visits_below_root > 0
    assert max(len(m.line) for m in deep.moves) >= 3
    assert deep.to_dict(s.game)["deep_share"] == deep.deep_share


def test_same_public_history_reaches_the_same_node_in_two_determinizations():
    s = _opening(2)
    me = s.current_player
    a = s.determinize(me, random.Random(1))
    b = s.determinize(me, random.Random(2))
    assert a.hands[(me + 1) % 4] != b.hands[(me + 1) % 4]  # different worlds
    # the observer leads its lowest single; every opponent passes where it can
    lead = min(a.legal_moves(), key=lambda m: (bin(m).count("1") != 1, m))
    for det in (a, b):
        det.apply(lead)
        while det.current_player != me and not det.is_terminal():
            det.apply(0 if 0 in det.legal_moves() else det.legal_moves()[0])
    assert a.current_player == b.current_player == me
    assert model_node_key(a.legal_moves()) == model_node_key(b.legal_moves())
    # and a different public history leaves different choices
    c = s.determinize(me, random.Random(1))
    other = max(c.legal_moves())
    c.apply(other)
    while c.current_player != me and not c.is_terminal():
        c.apply(0 if 0 in c.legal_moves() else c.legal_moves()[0])
    assert model_node_key(c.legal_moves()) != model_node_key(a.legal_moves())


def test_model_search_reads_only_the_observers_information():
    s = _opening(3)
    me = s.current_player
    cfg = SearchConfig(iterations=120, opponent_keys="model")
    base = search(s, cfg, seed=9)
    # the same observer information with the opponents' hidden cards permuted
    other = s.determinize(me, random.Random(77))
    again = search(other, cfg, seed=9)
    assert [(m.move, m.visits) for m in base.moves] == [(m.move, m.visits) for m in again.moves]


def test_opponent_policy_is_checked():
    with pytest.raises(SearchOptionError, match="opponent_policy"):
        SearchConfig(opponent_policy="oracle")
    for name in ("heuristic", "sparring", "random"):
        res = search(
            _opening(4),
            SearchConfig(iterations=30, opponent_keys="model", opponent_policy=name),
            seed=1,
        )
        assert res.iterations == 30


def test_levels_are_budgets_without_wall_time():
    for k, lv in LEVELS.items():
        cfg = level_config(k)
        assert cfg.time_s is None and cfg.iterations == lv.iterations
    assert LEVELS[4].temperature == 0.0 and LEVELS[5].temperature == 0.0


def test_describe_games_lists_the_levels_and_suggest_reports_depth():
    from quansu.games import record as rec
    from quansu.server import convert
    from quansu.server.engine import build_engine
    from quansu.server.v1 import service_pb2 as pb

    engine = build_engine(uniform=True)
    levels = engine.describe_games().levels
    assert [(lv.level, lv.iterations, lv.temperature) for lv in levels] == [
        (k, lv.iterations, lv.temperature) for k, lv in sorted(LEVELS.items())
    ]
    assert [lv.anchored for lv in levels] == [False, False, True, True, True]
    anchors = {g.name: g.search_anchor for g in engine.describe_games().games}
    assert anchors["phom"] == 0.25 and anchors["tienlen"] == 0.25 and anchors["tan"] == 0.0
    state = _opening(6)
    view = rec.view_from_state(state, state.current_player)
    resp = engine.suggest(pb.SuggestRequest(view=convert.record_message(view), strength=3, seed=2))
    # a level is its iteration budget: no wall-time stop
    assert resp.stats.iterations == LEVELS[3].iterations and resp.stats.stopped_by == "iterations"
    assert 0.0 <= resp.stats.deep_share <= 1.0 and resp.stats.tree_depth >= 0


def _heuristic_game_state(moves: int = 20, seed: int = 3):
    g = games.make("tienlen", 4, {})
    s = g.new_initial_state(random.Random(seed))
    rng = random.Random(1)
    for _ in range(moves):
        s.apply(g.heuristic_move(s, rng))
    return s


def test_inference_weights_worlds_by_the_opponents_past_moves():
    from quansu.search.ismcts import belief_pool, world_log_likelihood

    s = _heuristic_game_state()
    me = s.current_player
    model = s.game.heuristic_move
    rng = random.Random(4)
    # the true world (every seat played the model's moves) is far more likely than sampled ones
    true = world_log_likelihood(s, me, model, 0.2, rng)
    others = [world_log_likelihood(s.determinize(me, rng), me, model, 0.2, rng) for _ in range(30)]
    assert true > max(others)
    assert sorted(others)[15] < true - 5.0
    # a world where an opponent passed although the model would have beaten the table
    # scores lower than one where the pass was the model's move
    pool = belief_pool(s, me, 40, model, 0.2, random.Random(5))
    assert len(pool) == 40
    fresh = [s.determinize(me, random.Random(100 + i)) for i in range(40)]

    def mean(ws):
        return sum(world_log_likelihood(w, me, model, 0.2, rng) for w in ws) / len(ws)

    assert mean(pool) > mean(fresh)
    # and the pool keeps several distinct worlds (tempered weights)
    assert len({tuple(w.hands) for w in pool}) >= 5


def test_a_world_inconsistent_with_a_likely_pass_gets_less_weight():
    from quansu.search.ismcts import world_log_likelihood

    g = games.make("tienlen", 2, {})
    rng = random.Random(0)
    for seed in range(500):
        s = g.new_initial_state(random.Random(seed))
        first = s.current_player
        s.apply(g.heuristic_move(s, rng))  # the observer leads
        if s.is_terminal() or 0 not in s.legal_moves():
            continue
        s.apply(0)  # the opponent passes
        if s.is_terminal() or s.current_player != first:
            continue
        # two worlds of the observer's information: the opponent could beat the lead or not
        could, could_not = None, None
        for k in range(200):
            w = s.determinize(first, random.Random(k))
            before = g.state_from_deal(w.deal)
            before.apply(w.history[0][1])
            options = before.legal_moves()
            if len(options) > 1 and g.heuristic_move(before, rng) != 0:
                could = could or w  # the model would have beaten the lead
            elif len(options) == 1:
                could_not = could_not or w  # the pass was forced
        if could is not None and could_not is not None:
            break
    else:
        raise AssertionError("no position found")
    assert world_log_likelihood(could_not, first, g.heuristic_move, 0.2, rng) == 0.0
    assert world_log_likelihood(could, first, g.heuristic_move, 0.2, rng) < -1.0


def _choice_state(name: str = "phom", seed: int = 4):
    """A position of ``name`` (4 players) where the seat to act has several moves."""
    g = games.make(name, 4, {})
    s = g.new_initial_state(random.Random(seed))
    rng = random.Random(seed)
    while len(s.legal_moves()) < 3:
        s.apply(g.heuristic_move(s, rng))
    return s


def test_anchor_puts_the_root_prior_on_the_sparring_move():
    from quansu.search.evaluator import UniformEvaluator

    s = _choice_state()
    ref = s.game.sparring_move(s, random.Random(0))
    plain = search(s, SearchConfig(iterations=60, anchor=0.0), UniformEvaluator(), seed=3)
    anchored = search(s, SearchConfig(iterations=60, anchor=0.9), UniformEvaluator(), seed=3)
    visits = lambda res: {m.move: m.visits for m in res.moves}  # noqa: E731
    assert anchored.best.move == ref
    assert visits(anchored)[ref] > visits(plain)[ref]
    # the reported priors stay the evaluator's
    assert [m.prior for m in anchored.moves if m.move == ref] == [
        m.prior for m in plain.moves if m.move == ref
    ]
    # the same request and seed give the same search
    again = search(s, SearchConfig(iterations=60, anchor=0.9), UniformEvaluator(), seed=3)
    assert visits(again) == visits(anchored)


def test_anchor_defaults_to_the_game_and_levels_1_2_go_without():
    from quansu.search.evaluator import UniformEvaluator

    s = _choice_state()
    assert s.game.search_anchor > 0.0 and games.make("tan", 2, {}).search_anchor == 0.0
    by_game = search(s, SearchConfig(iterations=40), UniformEvaluator(), seed=5)
    explicit = search(
        s, SearchConfig(iterations=40, anchor=s.game.search_anchor), UniformEvaluator(), seed=5
    )
    off = search(s, SearchConfig(iterations=40, anchor=0.0), UniformEvaluator(), seed=5)
    assert [(m.move, m.visits) for m in by_game.moves] == [
        (m.move, m.visits) for m in explicit.moves
    ]
    assert [(m.move, m.visits) for m in by_game.moves] != [(m.move, m.visits) for m in off.moves]
    assert [level_config(k).anchor for k in (1, 2)] == [0.0, 0.0]
    assert [level_config(k).anchor for k in (3, 4, 5)] == [None, None, None]
    with pytest.raises(SearchOptionError, match="anchor"):
        SearchConfig(anchor=1.5)


def test_the_service_anchors_only_the_searches_it_does_not_measure(monkeypatch):
    """Level play at levels 3-5 without a step uses the game's anchor; levels 1-2, a level's
    improvement step, a measured hint and Analyze's candidates search unanchored."""
    from quansu.games import record as rec
    from quansu.server import convert
    from quansu.server.engine import Engine, Limits, build_engine
    from quansu.server.v1 import service_pb2 as pb
    from tests.helpers.service import long_record

    seen = []
    real = Engine._search

    def spy(self, *args, anchor=None, **kwargs):
        seen.append(anchor)
        return real(self, *args, anchor=anchor, **kwargs)

    monkeypatch.setattr(Engine, "_search", spy)
    engine = build_engine(Limits(hint_worlds=4), uniform=True)
    state = _choice_state("tienlen", 2)
    view = convert.record_message(rec.view_from_state(state, state.current_player))
    for strength in (1, 2, 3, 4, 5, 0):
        engine.suggest(pb.SuggestRequest(view=view, strength=strength, seed=1))
    assert seen == [0.0, 0.0, None, 0.0, 0.0, 0.0]
    record = convert.record_message(long_record("tienlen", 2, min_moves=4, seed=1))
    engine.analyze(
        pb.AnalyzeRequest(
            record=record, seats=[0], budget=pb.Budget(iterations=10), seed=1, max_worlds=4
        ),
        lambda r: None,
    )
    assert seen[6:] and set(seen[6:]) == {0.0}
