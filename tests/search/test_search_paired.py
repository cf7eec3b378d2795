"""Paired evaluation (search/paired.py) on a toy game whose move values are known exactly.

The toy game "pick": seat 0 knows nothing but the rules; seat 1 holds one hidden card ``h``
drawn from ``0 .. DECK-1``.  Seat 0 picks a move ``m`` (0..K-1), then seat 1 answers 0 or 1 (at
random in random playouts, 0 for the heuristic) and the game ends.  Seat 0 wins

    BASE[m] + SLOPE[m] * (h % 3 - 1) + NOISE[m] * (2 * answer - 1)

bets (seat 1 the opposite).  Over a uniform hidden card and a uniform answer the value of ``m``
is ``BASE[m] + SLOPE[m] * E[h % 3 - 1]``: exactly known.  The hidden card and the answer are
shared by every move in a world (common random numbers), so paired differences remove most
of the spread that ``SLOPE`` and ``NOISE`` put into each single value.
"""

from __future__ import annotations

import statistics

import pytest

from quansu.games.base import TERMINAL, Deal, Game, GameError, MoveInfo, State
from quansu.search.config import SearchOptionError
from quansu.search.paired import PairedConfig, band_of, joint_z, paired_evaluate

DECK = 12
BASE = [0.0, 0.30, -0.50, 0.30, 0.05]
SLOPE = [1.0, 1.1, 0.9, 1.3, 1.0]
NOISE = [0.8, 0.8, 0.8, 0.8, 0.8]
MEAN_H = statistics.fmean(h % 3 - 1 for h in range(DECK))


def true_value(m: int) -> float:
    return BASE[m] + SLOPE[m] * MEAN_H


class PickGame(Game):
    name = "pick"
    title = "Pick (toy)"
    min_players = max_players = 2

    def payoff_bound(self) -> float:
        return 4.0

    def random_deal(self, rng):
        return Deal(hands=((), (rng.randrange(DECK),)))

    def state_from_deal(self, deal):
        return PickState(self, deal.hands[1][0])

    def move_to_text(self, move) -> str:
        return f"m{move}"

    def parse_move(self, text):
        return int(text[1:])

    def describe_move(self, move):
        return MoveInfo("play")

    def heuristic_move(self, state, rng):
        return state.legal_moves()[0]


class PickState(State):
    def __init__(self, game, hidden):
        self.game = game
        self.hidden = hidden
        self.moves: list[tuple[int, int]] = []

    @property
    def current_player(self):
        return TERMINAL if len(self.moves) == 2 else len(self.moves)

    def legal_moves(self):
        if len(self.moves) == 0:
            return list(range(len(BASE)))
        if len(self.moves) == 1:
            return [0, 1]
        return []

    def apply(self, move):
        if move not in self.legal_moves():
            raise GameError(f"illegal {move}")
        self.moves.append((self.current_player, move))

    def clone(self):
        s = PickState(self.game, self.hidden)
        s.moves = list(self.moves)
        return s

    def returns(self):
        if len(self.moves) < 2:
            return [0.0, 0.0]
        m, a = self.moves[0][1], self.moves[1][1]
        x = BASE[m] + SLOPE[m] * (self.hidden % 3 - 1) + NOISE[m] * (2 * a - 1)
        return [x, -x]

    @property
    def history(self):
        return list(self.moves)

    def determinize(self, seat, rng):
        s = self.clone()
        if seat != 1:
            s.hidden = rng.randrange(DECK)
        return s


def _state():
    return PickGame(2).state_from_deal(Deal(hands=((), (5,))))


RANDOM = PairedConfig(min_worlds=64, max_worlds=64, playout="random")


def test_true_values_are_what_the_test_assumes():
    assert MEAN_H == 0
    assert [true_value(m) for m in range(len(BASE))] == BASE  # moves 1 and 3 tie at 0.30


@pytest.mark.parametrize("ref", [0, 2, 3, 1])
def test_loss_interval_covers_the_true_loss(ref):
    """Over 20 seeds the 95 % interval of the loss holds the exact loss at least 18 times, and
    the estimate is unbiased to within its spread."""
    cands = [0, 1, 2, 3, 4]
    truth = max(0.0, max(true_value(c) for c in cands) - true_value(ref))
    hits, losses = 0, []
    for seed in range(20):
        r = paired_evaluate(_state(), cands, ref, config=RANDOM, seed=seed)
        assert r.worlds == 64 and r.loss_low <= r.loss <= r.loss_high
        hits += r.loss_low - 1e-12 <= truth <= r.loss_high + 1e-12
        losses.append(r.loss)
    assert hits >= 18, (hits, truth)
    assert statistics.fmean(losses) == pytest.approx(truth, abs=0.15)


def test_pairing_shrinks_the_standard_error():
    """The paired difference's standard error is far below what independent samples give."""
    r = paired_evaluate(_state(), [1], 0, config=RANDOM, seed=3)
    best = r.move(1)
    unpaired = (r.move(0).stderr ** 2 + best.stderr**2) ** 0.5
    assert best.diff_stderr < 0.5 * unpaired
    assert best.diff == pytest.approx(0.30, abs=4 * best.diff_stderr + 1e-9)


def test_ranking_groups_and_top():
    r = paired_evaluate(
        _state(),
        [1, 2, 3, 4],
        0,
        config=PairedConfig(min_worlds=200, max_worlds=200, playout="random"),
        seed=1,
    )
    order = [m.move for m in r.moves]
    assert set(order[:2]) == {1, 3} and order[-1] == 2
    values = [m.value for m in r.moves]
    assert values == sorted(values, reverse=True)
    assert r.loss == pytest.approx(r.top.diff)
    # moves 1 and 3 (both worth 0.30) are tied; 4 (0.05) and 2 (-0.50) are in later groups
    assert r.move(1).group == r.move(3).group == 0
    assert 0 < r.move(4).group < r.move(2).group
    groups = [m.group for m in r.moves]
    assert groups == sorted(groups)


def test_a_clear_loss_settles_early_in_its_band():
    bands = (0.05, 0.15, 0.4)
    cfg = PairedConfig(min_worlds=16, max_worlds=512, batch=8, playout="random")
    r = paired_evaluate(_state(), [0, 1], 2, config=cfg, seed=2, bands=bands)  # loss 0.8
    assert r.settled and r.stopped == "settled" and r.worlds < 512
    assert band_of(r.loss_low, bands) == band_of(r.loss_high, bands) == 3
    # the best move itself: loss 0, settled in the first band
    r = paired_evaluate(_state(), [0, 2], 1, config=cfg, seed=2, bands=bands)
    assert r.settled and r.loss == 0 and r.loss_high <= 0.05 and r.top.move == 1


def test_a_loss_on_a_threshold_stays_unsettled_at_the_cap():
    """True loss 0.30 (move 0 against move 1) with a band edge at 0.30: the interval straddles
    it whatever the number of worlds, so the evaluation runs to the cap and is not settled."""
    cfg = PairedConfig(min_worlds=16, max_worlds=96, batch=16, playout="random", futility=0)
    r = paired_evaluate(_state(), [1], 0, config=cfg, seed=4, bands=(0.30,))
    assert not r.settled and r.stopped == "cap" and r.worlds == 96
    assert r.loss_low < 0.30 < r.loss_high
    # with the futility stop it ends sooner, just as unsettled
    cfg = PairedConfig(min_worlds=16, max_worlds=4096, batch=16, playout="random")
    r = paired_evaluate(_state(), [1], 0, config=cfg, seed=4, bands=(0.30,))
    assert not r.settled and r.stopped == "futile" and r.worlds < 4096
    assert r.loss_low < 0.30 < r.loss_high


def test_dominated_candidates_are_dropped():
    cfg = PairedConfig(min_worlds=16, max_worlds=400, batch=8, playout="random")
    r = paired_evaluate(_state(), [1, 2, 3], 0, config=cfg, seed=5, bands=(0.299, 0.301))
    worse = r.move(2)
    assert worse.dropped and worse.worlds < r.worlds


def test_same_seed_same_result_and_heuristic_continuation():
    a = paired_evaluate(_state(), [1, 2], 0, config=RANDOM, seed=9)
    b = paired_evaluate(_state(), [1, 2], 0, config=RANDOM, seed=9)
    assert a == b.__class__(**{**b.__dict__, "elapsed_s": a.elapsed_s})
    # heuristic continuation: seat 1 always answers 0, so the value of m is BASE + SLOPE * E - NOISE
    r = paired_evaluate(
        _state(), [1], 0, config=PairedConfig(min_worlds=300, max_worlds=300), seed=1
    )
    assert r.move(0).mean == pytest.approx(true_value(0) - NOISE[0], abs=0.15)
    assert r.move(1).diff == pytest.approx(0.30, abs=0.05)


def test_deadline_and_stop():
    t = [0.0]

    def clock():
        t[0] += 1.0
        return t[0]

    r = paired_evaluate(
        _state(),
        [1],
        0,
        config=PairedConfig(max_worlds=1000),
        seed=1,
        bands=(0.3,),
        deadline=10.0,
        clock=clock,
    )
    assert r.stopped == "deadline" and r.worlds < 10
    r = paired_evaluate(_state(), [1], 0, seed=1, stop=lambda: True)
    assert r.stopped == "cancelled" and r.worlds == 0 and not r.settled
    assert r.loss_high == pytest.approx(8.0)  # no data: the loss can be anything up to 2 * bound


def test_bad_arguments_name_the_field():
    with pytest.raises(SearchOptionError, match="max_worlds"):
        PairedConfig(max_worlds=1)
    with pytest.raises(SearchOptionError, match="min_worlds"):
        PairedConfig(min_worlds=64, max_worlds=32)
    with pytest.raises(SearchOptionError, match="confidence"):
        PairedConfig(confidence=1.0)
    with pytest.raises(SearchOptionError, match="futility"):
        PairedConfig(futility=1.5)
    with pytest.raises(SearchOptionError, match="playout"):
        PairedConfig(playout="mast")
    with pytest.raises(GameError, match="m7"):
        paired_evaluate(_state(), [7], 0)


def test_joint_z():
    assert joint_z(0.95, 1) == pytest.approx(1.96, abs=0.01)
    assert joint_z(0.95, 3) == pytest.approx(2.394, abs=0.01)
    assert band_of(0.05, (0.05, 0.15)) == 0 and band_of(0.06, (0.05, 0.15)) == 1


def test_screening_keeps_the_best_candidates_and_uses_fresh_worlds():
    """Screening ranks every candidate on its own first worlds and keeps the best few; the
    evaluation proper runs on the worlds after them."""
    cfg = PairedConfig(
        min_worlds=32, max_worlds=32, playout="random", screen_keep=2, screen_worlds=40
    )
    r = paired_evaluate(_state(), [1, 2, 3, 4], 0, config=cfg, seed=3)
    kept = {m.move for m in r.moves}
    assert kept == {0, 1, 3} and set(r.screened_out) == {2, 4}
    assert r.worlds == 32 and r.playouts == 40 * 5 + 32 * 3
    plain = paired_evaluate(
        _state(),
        [1, 3],
        0,
        config=PairedConfig(min_worlds=32, max_worlds=32, playout="random"),
        seed=3,
    )
    assert r.move(1).diff != plain.move(1).diff  # not the screening's worlds again


def test_look_schedule_and_its_correction():
    from quansu.search.paired import look_schedule

    assert look_schedule(PairedConfig(min_worlds=32, max_worlds=512, growth=2.0)) == [
        32,
        64,
        128,
        256,
        512,
    ]
    assert look_schedule(PairedConfig(min_worlds=16, max_worlds=40, batch=8)) == [16, 24, 32, 40]
    one = paired_evaluate(
        _state(),
        [1],
        0,
        config=PairedConfig(min_worlds=32, max_worlds=32, playout="random"),
        seed=1,
    )
    many = paired_evaluate(
        _state(),
        [1],
        0,
        config=PairedConfig(
            min_worlds=32, max_worlds=512, growth=2.0, look_correction=True, playout="random"
        ),
        seed=1,
        bands=(10.0,),
    )
    assert many.z == pytest.approx(joint_z(0.95, 5)) and many.z > one.z


def test_more_bad_settings():
    for kw, word in [
        ({"growth": 0.5}, "growth"),
        ({"screen_keep": -1}, "screen_keep"),
        ({"screen_worlds": 1}, "screen_worlds"),
        ({"batch": True}, "batch"),
    ]:
        with pytest.raises(SearchOptionError, match=word):
            PairedConfig(**kw)


def test_precision_stop_ends_a_straddling_decision_once_it_is_measured():
    """True loss 0.30 on a band edge: without a precision target the evaluation runs to the cap;
    with one it stops at the first look whose interval is narrow enough, still covering 0.30."""
    base = dict(min_worlds=16, max_worlds=1024, batch=16, growth=2.0, playout="random", futility=0)
    full = paired_evaluate(_state(), [1], 0, config=PairedConfig(**base), seed=4, bands=(0.30,))
    assert full.stopped == "cap" and full.worlds == 1024
    r = paired_evaluate(
        _state(), [1], 0, config=PairedConfig(**base, precision=0.012), seed=4, bands=(0.30,)
    )
    assert r.stopped == "precise" and r.worlds < 1024
    assert (r.loss_high - r.loss_low) / 2 <= 0.012 and r.loss_low <= 0.30 <= r.loss_high
    # one look earlier the interval was still wider than the target (it stopped at the first)
    prev = paired_evaluate(
        _state(),
        [1],
        0,
        config=PairedConfig(**{**base, "max_worlds": r.worlds // 2}),
        seed=4,
        bands=(0.30,),
    )
    assert (prev.loss_high - prev.loss_low) / 2 > 0.012
    # a clear loss still settles inside its band before the precision target is reached
    clear = paired_evaluate(
        _state(),
        [0, 1],
        2,
        config=PairedConfig(**base, precision=0.01),
        seed=2,
        bands=(0.05, 0.15, 0.4),
    )
    assert clear.stopped == "settled"
    with pytest.raises(SearchOptionError, match="precision"):
        PairedConfig(precision=-0.1)


def test_marks_near_a_threshold_are_the_true_band_or_its_neighbour():
    """The toy decision whose true loss is 0.30 (move 0 against move 1), judged with bands whose
    edge 0.25 lies near it: over 12 seeds the mark (the band of the estimate, the interval
    within one band of it) is never unclear and never two bands off, and it is the true band
    (mistake) in most seeds."""
    from quansu.server.engine import mark_of
    from quansu.server.v1 import service_pb2 as pb

    th = pb.Thresholds(good=0.1, inaccuracy=0.25, mistake=0.6)
    cfg = PairedConfig(
        min_worlds=32,
        max_worlds=512,
        growth=2.0,
        look_correction=True,
        playout="random",
        futility=0,
        precision=0.05,
    )
    marks = []
    for seed in range(12):
        r = paired_evaluate(
            _state(), [1, 4], 0, config=cfg, seed=seed, bands=(th.good, th.inaccuracy, th.mistake)
        )
        marks.append(mark_of(r.loss, r.loss_low, r.loss_high, th))
    assert set(marks) <= {pb.MARK_INACCURACY, pb.MARK_MISTAKE}, marks
    assert marks.count(pb.MARK_MISTAKE) >= 8, marks


def test_a_settled_blunder_waits_until_its_accuracy_is_known():
    """Move 2 loses 0.8 against move 1, in the last (unbounded) band of (0.05, 0.15, 0.4): it
    settles at the first look, with a wide interval.  With an accuracy precision the
    evaluation goes on until the decision's accuracy 2 ** (-loss / 0.4) is known to within it,
    then stops as settled, its interval still covering the true loss."""
    from quansu.search.paired import accuracy_width

    bands = (0.05, 0.15, 0.4)
    base = dict(min_worlds=16, max_worlds=4096, batch=16, growth=2.0, playout="random")
    plain = paired_evaluate(_state(), [1], 2, config=PairedConfig(**base), seed=2, bands=bands)
    assert plain.stopped == "settled" and plain.worlds == 16
    cfg = PairedConfig(**base, accuracy_scale=0.4, accuracy_precision=0.02)
    assert accuracy_width(cfg, plain.loss_low, plain.loss_high) > 0.04
    r = paired_evaluate(_state(), [1], 2, config=cfg, seed=2, bands=bands)
    assert r.stopped == "settled" and r.settled and 16 < r.worlds < 4096
    assert accuracy_width(cfg, r.loss_low, r.loss_high) <= 0.04
    assert r.loss_low <= 0.8 <= r.loss_high
    assert accuracy_width(PairedConfig(), 0.0, 5.0) == 0.0  # off without a scale
    with pytest.raises(SearchOptionError, match="accuracy_precision"):
        PairedConfig(accuracy_precision=-1)


def test_under_a_deadline_the_screening_leaves_the_evaluation_time():
    """A screening that would take longer than the time left stops at SCREEN_SHARE of it, and
    the evaluation proper still measures the kept candidates on fresh worlds."""
    from quansu.search.paired import SCREEN_SHARE

    t = [0.0]

    def clock():
        t[0] += 1.0
        return t[0]

    cfg = PairedConfig(
        min_worlds=4,
        max_worlds=100_000,
        batch=4,
        screen_keep=2,
        screen_worlds=100_000,
        playout="random",
    )
    r = paired_evaluate(
        _state(), [1, 2, 3, 4], 0, config=cfg, seed=1, bands=(0.3,), deadline=400.0, clock=clock
    )
    assert 0 < SCREEN_SHARE < 1
    assert r.stopped == "deadline" and r.worlds >= 4 and len(r.moves) == 3
    assert r.playouts > 5 * 4  # the screening played some worlds too


RACE = dict(min_worlds=16, max_worlds=256, batch=16, growth=2.0, playout="random", race=True)


def test_race_stops_once_the_leader_is_separated():
    """Move 1 (0.30) against 0 (0.00) and 2 (-0.50), whose paired differences are clear at
    once: the race stops ("ranked") at its first look (16 worlds, 48 playouts instead of the
    cap's 768) with 1 alone on top, 2 dropped as surely worse than the leader and the
    reference kept (the values are paired with it)."""
    r = paired_evaluate(_state(), [1, 2], 0, config=PairedConfig(**RACE), seed=3)
    assert r.stopped == "ranked" and r.settled and r.worlds == 16 and r.playouts == 48
    assert r.top.move == 1 and r.move(1).group == 0
    assert r.move(2).dropped and not r.move(0).dropped
    assert r.move(0).group > 0 and r.move(2).group > 0
    # without race the same cap and looks (no bands: the loss rule settles at the first look
    # too, but keeps every candidate and says nothing about which move leads)
    capped = paired_evaluate(
        _state(),
        [1, 2],
        0,
        config=PairedConfig(**{**RACE, "race": False, "min_worlds": 256}),
        seed=3,
    )
    assert capped.worlds == 256 and capped.playouts == 768 and not capped.move(2).dropped


def test_race_stops_tied_leaders_before_the_cap():
    """Moves 1 and 3 are both worth 0.30: no number of worlds separates them, and the race stops
    ("ranked") at the first look where their difference, were it to hold, would still not
    separate them at the cap: on every seed before the cap, both in the top group, the worse
    moves 4 and 2 dropped at the first look."""
    for seed in range(8):
        r = paired_evaluate(_state(), [1, 2, 3, 4], 0, config=PairedConfig(**RACE), seed=seed)
        assert r.stopped == "ranked" and r.settled and r.worlds < 256
        assert {m.move for m in r.moves if m.group == 0} == {1, 3}
        assert r.move(2).dropped and r.move(4).dropped and r.move(2).worlds == 16


def _look(diffs: list[float], shrink: float, z: float = 2.0, leader_first: bool = True):
    """_race_look on a leader at 1.0 and one candidate behind it by ``diffs`` world by world."""
    from quansu.search.paired import _race_look

    lead = [1.0] * len(diffs)
    other = [1.0 - d for d in diffs]
    values = [lead, other] if leader_first else [other, lead]
    active = [True, True]
    return _race_look(values, active, z, shrink), active


def test_race_look_drops_separates_and_projects():
    """The rule on numbers chosen by hand (16 worlds, paired differences alternating around
    their mean by 0.1: standard error 0.0258, z 2: half-width 0.052)."""

    def diffs(mean):
        return [mean + 0.1 * (-1) ** i for i in range(16)]

    # 0.1 behind: surely worse, dropped; the leader alone: settled
    settled, active = _look(diffs(0.1), 0.25)
    assert settled and active == [True, False]
    # 0.03 behind: not separated now (0.03 < 0.052) but would be at the cap if it held
    # (0.03 > 0.052 * 0.25): not settled; at the cap (shrink 1) it is a tie: settled
    settled, active = _look(diffs(0.03), 0.25)
    assert not settled and active == [True, True]
    assert _look(diffs(0.03), 1.0)[0]
    # 0.005 behind: would not be separated even at the cap: settled, both kept (a tie)
    settled, active = _look(diffs(0.005), 0.25)
    assert settled and active == [True, True]
    # the reference (index 0) is never dropped, but surely worse it counts as settled
    settled, active = _look(diffs(0.1), 0.25, leader_first=False)
    assert settled and active == [True, True]


def test_race_is_deterministic_and_leaves_the_loss_rule_alone():
    cfg = PairedConfig(**RACE)
    a = paired_evaluate(_state(), [1, 2, 3, 4], 0, config=cfg, seed=7)
    b = paired_evaluate(_state(), [1, 2, 3, 4], 0, config=cfg, seed=7)
    assert a == b.__class__(**{**b.__dict__, "elapsed_s": a.elapsed_s})
    # without race the same settings run the loss rule (bands: settled inside one band)
    plain = PairedConfig(**{**RACE, "race": False})
    r = paired_evaluate(_state(), [0, 1], 2, config=plain, seed=2, bands=(0.05, 0.15, 0.4))
    assert r.stopped == "settled"
