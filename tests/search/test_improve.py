"""The improvement step (search/improve.py) and the levels that use it (issue 19).

Mechanisms only (strength is measured by bench/strength.py, docs/search.md): the step keeps
the sparring bot's move unless a candidate is measured better by ``z`` standard errors; it
never reads hidden cards; it is deterministic in its seed; levels apply it only in games that
ship it; the service reports it.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from quansu import games
from quansu.search import SearchConfig, search
from quansu.search.bots import ISMCTSBot, make_bot
from quansu.search.config import SearchOptionError
from quansu.search.evaluator import Evaluation, Evaluator, UniformEvaluator, playout
from quansu.search.improve import ImproveConfig, improve
from quansu.search.levels import LEVELS, level_bot
from tests.search.test_search_nocheat import midgame_state, permuted

GAMES = ["tienlen", "samloc", "phom", "tan"]


def _position(name: str, seed: int):
    return midgame_state(games.make(name, 4), seed)


@pytest.mark.parametrize(
    "bad",
    [
        dict(worlds=-1),
        dict(worlds=1),
        dict(candidates=0),
        dict(z=-0.5),
        dict(z=float("nan")),
        dict(playout="mcts"),
        dict(base="random"),
        dict(iterations=-3),
        dict(worlds=True),
        dict(look=1),
        dict(look=-8),
        dict(margin=-1.0),
        dict(margin=float("inf")),
    ],
)
def test_bad_settings_are_refused_naming_the_field(bad):
    with pytest.raises(SearchOptionError) as e:
        ImproveConfig(**bad)
    assert repr(next(iter(bad))) in str(e.value)


@pytest.mark.parametrize("name", GAMES)
def test_the_step_keeps_the_sparring_move_unless_a_candidate_is_measured_better(name):
    state = _position(name, 3)
    game = state.game
    res = search(state, SearchConfig(iterations=60), seed=1)
    for z in (0.0, 1.0, 10.0):
        imp = improve(
            state, res, ImproveConfig(worlds=12, candidates=3, z=z, playout="heuristic"), seed=5
        )
        # the reference is the sparring bot's move with the step's first derived generator
        ref = game.sparring_move(state, random.Random(random.Random(5).getrandbits(63)))
        assert imp.reference == ref
        assert imp.move in state.legal_moves()
        if imp.paired is None:
            assert imp.move == ref
            continue
        top = imp.paired.moves[0]
        better = top.move != ref and top.diff - z * top.diff_stderr > 0
        assert imp.move == (top.move if better else ref)
        assert imp.changed == better
        assert imp.paired.worlds == 12


def test_the_hopeless_rule_drops_what_cannot_pass_at_the_cap():
    """One look of the early stop (search.paired._hopeless_look): with z 1 and margin 1 at a
    quarter of the cap (shrink 0.5), a candidate is dropped when d + se <= 0.5 se."""
    from quansu.search.paired import _hopeless_look

    ref = [0.0, 1.0, 0.0, 1.0]
    worse = [-1.0, 0.0, -1.0, 0.0]  # d -1, se 0: dropped
    same = list(ref)  # d 0, se 0: cannot beat the reference, dropped
    noisy = [0.0, 2.0, 0.0, 0.0]  # d 0, se 0.5: 0.5 <= 0.25 is false, kept
    better = [1.0, 2.0, 1.0, 2.0]  # d 1, se 0: kept
    active = [True] * 5
    assert not _hopeless_look([ref, worse, same, noisy, better], active, 1.0, 1.0, 0.5)
    assert active == [True, False, False, True, True]
    active = [True] * 3
    assert _hopeless_look([ref, worse, same], active, 1.0, 1.0, 0.5)
    assert active == [True, False, False]


@pytest.mark.parametrize("name", ["tienlen", "samloc"])
def test_the_early_stop_plays_fewer_worlds_and_only_passing_candidates(name):
    """With ``look`` the step stops once no candidate can pass (the reference then), and a
    changed move is a candidate played on every world that beats the reference by z standard
    errors; without it every world is played."""
    stopped_early = 0
    for seed in range(6):
        state = _position(name, seed)
        res = search(state, SearchConfig(iterations=60), seed=seed)
        cfg = ImproveConfig(worlds=16, candidates=3, playout="heuristic")
        full = improve(state, res, cfg, seed=seed)
        early = improve(state, res, dataclasses.replace(cfg, look=4), seed=seed)
        assert early.reference == full.reference
        if full.paired is None:
            assert early.paired is None
            continue
        assert full.paired.worlds == 16
        pr = early.paired
        assert pr.worlds in (4, 8, 12, 16)
        if pr.stopped == "hopeless":
            stopped_early += 1
            assert pr.worlds < 16 and early.move == early.reference
            assert all(m.dropped for m in pr.moves if m.move != early.reference)
        if early.changed:
            m = pr.move(early.move)
            assert not m.dropped and m.worlds == pr.worlds
            assert m.diff - cfg.z * m.diff_stderr > 0
    assert stopped_early  # the rule is exercised


def test_a_large_margin_always_plays_the_reference():
    for seed in range(4):
        state = _position("samloc", seed)
        res = search(state, SearchConfig(iterations=40), seed=seed)
        lo = improve(state, res, ImproveConfig(worlds=8, z=0.0), seed=seed)
        hi = improve(state, res, ImproveConfig(worlds=8, z=10.0), seed=seed)
        assert hi.move == hi.reference and not hi.changed
        assert lo.reference == hi.reference


@pytest.mark.parametrize("name", GAMES)
def test_the_step_never_reads_hidden_cards(name):
    state = _position(name, 11)
    other = permuted(state, 2)
    if other is None:
        pytest.skip("no other placement of the hidden cards")
    cfg = ImproveConfig(worlds=6, candidates=2, z=0.0, playout="heuristic")
    res = search(state, SearchConfig(iterations=40), seed=4)
    res2 = search(other, SearchConfig(iterations=40), seed=4)
    a, b = improve(state, res, cfg, seed=9), improve(other, res2, cfg, seed=9)
    assert a.move == b.move and a.reference == b.reference
    fa = [(m.move, m.mean, m.diff) for m in a.paired.moves] if a.paired else None
    fb = [(m.move, m.mean, m.diff) for m in b.paired.moves] if b.paired else None
    assert fa == fb


class _LastMove(Evaluator):
    """A policy for the tests: all its prior on the last legal move (values unused)."""

    def __init__(self):
        self.calls = 0

    def evaluate(self, states, moves, rng, *, values=True, stop=None):
        self.calls += 1
        return [Evaluation([0.0] * (len(ms) - 1) + [1.0]) for ms in moves]


@pytest.mark.parametrize("name", GAMES)
def test_evaluator_playouts_play_the_highest_prior_for_every_seat(name):
    state = _position(name, 7)
    ev = _LastMove()
    values = playout(state.clone(), random.Random(3), "evaluator", evaluator=ev)
    expected = state.clone()
    calls = 0
    while not expected.is_terminal():
        moves = expected.legal_moves()
        calls += len(moves) > 1
        expected.apply(moves[-1])
    assert values == expected.returns()
    assert ev.calls == calls  # forced moves need no call
    # ties (uniform priors) are broken by the generator: the same seed, the same playout
    a = playout(state.clone(), random.Random(8), "evaluator", evaluator=UniformEvaluator())
    b = playout(state.clone(), random.Random(8), "evaluator", evaluator=UniformEvaluator())
    assert a == b
    with pytest.raises(ValueError, match="needs an evaluator"):
        playout(state.clone(), random.Random(3), "evaluator")


def test_the_step_rolls_out_with_the_evaluator_when_asked():
    state = _position("tienlen", 5)
    res = search(state, SearchConfig(iterations=50), seed=2)
    cfg = ImproveConfig(worlds=4, candidates=3, z=0.0, playout="evaluator")
    with pytest.raises(SearchOptionError, match="'evaluator' needs an evaluator"):
        improve(state, res, cfg, seed=21)
    ev = _LastMove()
    a = improve(state, res, cfg, seed=21, evaluator=ev)
    b = improve(state, res, cfg, seed=21, evaluator=_LastMove())
    assert a.paired is not None and ev.calls > 0
    assert (a.move, a.reference) == (b.move, b.reference)
    assert [(m.move, m.mean) for m in a.paired.moves] == [(m.move, m.mean) for m in b.paired.moves]
    # the continuation differs from heuristic rollouts on the same worlds
    h = improve(
        state, res, ImproveConfig(worlds=4, candidates=3, z=0.0, playout="heuristic"), seed=21
    )
    assert [m.mean for m in h.paired.moves] != [m.mean for m in a.paired.moves]


def test_the_step_is_deterministic_in_its_seed():
    state = _position("phom", 5)
    res = search(state, SearchConfig(iterations=50), seed=2)
    cfg = ImproveConfig(worlds=6, candidates=3)
    a, b = improve(state, res, cfg, seed=21), improve(state, res, cfg, seed=21)
    assert (a.move, a.reference) == (b.move, b.reference)
    assert [(m.move, m.mean) for m in a.paired.moves] == [(m.move, m.mean) for m in b.paired.moves]


def test_levels_apply_the_step_only_in_games_that_ship_it(monkeypatch):
    for name in GAMES:
        game = games.make(name, 4)
        for lv in LEVELS.values():
            its, worlds = lv.plan(game)
            want = round(lv.improve_share * game.search_improve_worlds)
            if want >= 2:
                assert (its, worlds) == (lv.improve_iterations, want)
                assert lv.step(game).candidates == game.search_improve_candidates
            else:
                assert (its, worlds) == (lv.iterations, 0) and lv.step(game) is None
    assert LEVELS[5].improve_share >= LEVELS[4].improve_share > 0
    assert all(LEVELS[k].improve_share == 0 for k in (1, 2, 3))
    # a game without the step: the level plays its most visited move after its own budget
    monkeypatch.setitem(
        LEVELS, 4, type(LEVELS[4])(4, 30, 0.0, improve_share=0.4, improve_iterations=20)
    )
    cls = games.game_classes()["tan"]
    monkeypatch.setattr(cls, "search_improve_worlds", 0)
    bot = level_bot(4, seed=1)
    state = _position("tan", 2)
    bot.choose(state, state.current_player)
    assert bot.last_improvement is None and bot.last_result.iterations == 30
    # with it: the level's shorter search, then the step on the level's share of the worlds
    monkeypatch.setattr(cls, "search_improve_worlds", 10)
    monkeypatch.setattr(cls, "search_improve_candidates", 2)
    bot = level_bot(4, seed=1)
    bot.choose(state, state.current_player)
    assert bot.last_result.iterations == 20
    assert bot.last_improvement is not None
    if bot.last_improvement.paired is not None:
        assert bot.last_improvement.paired.worlds == 4


def test_a_level_rolls_out_with_the_network_only_when_it_has_one(monkeypatch):
    """``search_improve_playout="evaluator"``: a level guided by a policy rolls out with it; the
    network-free level (uniform priors, or none) with the sparring bot."""
    cls = games.game_classes()["tienlen"]
    game = games.make("tienlen", 4)
    assert LEVELS[5].step(game).playout == game.search_improve_playout
    monkeypatch.setattr(cls, "search_improve_playout", "evaluator")

    class _Policy(_LastMove):
        learned_policy = True

    for ev, want in (
        (None, "sparring"),
        (UniformEvaluator(), "sparring"),
        (_LastMove(), "sparring"),
        (_Policy(), "evaluator"),
    ):
        assert level_bot(5, seed=1, evaluator=ev).improvement(game).playout == want
    bot = level_bot(5, seed=1, evaluator=_Policy())
    state = _position("tienlen", 5)
    bot.choose(state, state.current_player)
    assert bot.evaluator.calls > 0


def test_the_improve_bot_spec_and_forced_moves():
    bot = make_bot("improve:worlds=4:candidates=2:z=0.5:rollout=heuristic:iterations=20", seed=3)
    assert isinstance(bot, ISMCTSBot) and bot.improvement(games.make("tan", 4)) is bot.improve
    assert (bot.improve.worlds, bot.improve.candidates, bot.improve.z, bot.improve.playout) == (
        4,
        2,
        0.5,
        "heuristic",
    )
    game = games.make("tienlen", 4)
    state = game.new_initial_state(random.Random(1))
    while len(state.legal_moves()) != 1:
        state.apply(game.heuristic_move(state, random.Random(0)))
    forced = state.legal_moves()[0]
    assert bot.choose(state, state.current_player) == forced
    assert bot.last_improvement is None
    with pytest.raises(SearchOptionError, match="worlds"):
        make_bot("improve:worlds=1")
    with pytest.raises(SearchOptionError, match="unknown setting 'bogus'"):
        make_bot("improve:bogus=2")


def test_the_service_lists_and_reports_the_step(monkeypatch):
    from quansu.games import record as rec
    from quansu.server import convert
    from quansu.server.engine import build_engine
    from quansu.server.v1 import service_pb2 as pb

    engine = build_engine(uniform=True)
    desc = engine.describe_games()
    assert {g.name: (g.improve_worlds, g.improve_candidates) for g in desc.games} == {
        n: (c.search_improve_worlds, c.search_improve_candidates)
        for n, c in games.game_classes().items()
    }
    for lv in desc.levels:
        want = LEVELS[lv.level]
        assert lv.improve_share == want.improve_share
        assert lv.improve_iterations == (want.improve_iterations if want.improve_share else 0)
    state = _position("samloc", 4)
    cls = games.game_classes()["samloc"]
    monkeypatch.setattr(cls, "search_improve_worlds", 15)
    monkeypatch.setattr(cls, "search_improve_candidates", 2)
    monkeypatch.setitem(
        LEVELS, 4, type(LEVELS[4])(4, 500, 0.0, improve_share=0.4, improve_iterations=30)
    )
    view = rec.view_from_state(state, state.current_player)
    req = pb.SuggestRequest(view=convert.record_message(view), strength=4, seed=8)
    a, b = engine.suggest(req), engine.suggest(req)
    assert a.stats.iterations == 30 and a.stats.improve_worlds == 6
    assert a.chosen == b.chosen and a.stats.improve_changed == b.stats.improve_changed
    assert a.chosen.text in {state.game.move_to_text(m) for m in state.legal_moves()}
    # a hint (strength 0) and a level without the step run no improvement
    hint = engine.suggest(pb.SuggestRequest(view=convert.record_message(view), seed=8))
    assert hint.stats.improve_worlds == 0 and not hint.stats.improve_changed
    lv3 = engine.suggest(pb.SuggestRequest(view=convert.record_message(view), strength=3, seed=8))
    assert lv3.stats.improve_worlds == 0 and lv3.stats.iterations == LEVELS[3].iterations
    # a call with no time left: the search and the step stop at once, the answer is the
    # sparring bot's move and says the deadline cut it
    late = engine.suggest(req, seconds_left=0.0)
    assert late.stats.stopped_by == "deadline" and late.stats.improve_worlds == 0
    assert not late.stats.improve_changed
    assert late.chosen.text in {state.game.move_to_text(m) for m in state.legal_moves()}


def test_the_service_reports_the_rollout_policy_it_plays(monkeypatch):
    """GameInfo.improve_playout: the game's setting with its network loaded; a game set to the
    network's rollouts says (and plays) "sparring" on a server without it."""
    from quansu.server.engine import build_engine

    cls = games.game_classes()["tienlen"]
    monkeypatch.setattr(cls, "search_improve_playout", "evaluator")
    uniform = {g.name: g.improve_playout for g in build_engine(uniform=True).describe_games().games}
    guided = {g.name: g.improve_playout for g in build_engine().describe_games().games}
    assert uniform["tienlen"] == "sparring" and guided["tienlen"] == "evaluator"
    for name, c in games.game_classes().items():
        if name != "tienlen":
            assert uniform[name] == guided[name] == c.search_improve_playout
