"""Paired evaluation of candidate moves with common random numbers (the variance reduction of
backgammon rollouts): Analyze's judgement of a decision and a hint's measurement.

At a decision of seat ``observer`` every candidate (the move played, the *reference*, and the
best few moves of a short search) is played on the *same* worlds with the *same* random
numbers: world ``i`` is ``state.determinize(observer, rng_i)`` with ``rng_i`` seeded by ``(seed,
i)`` only, and each candidate's clone of it is played to the end with ``config.playout`` from a
fresh ``random.Random`` on the same per-world seed.  A candidate's value relative to the
reference is the mean of the paired differences ``v[c][i] - v[ref][i]`` with its standard
error: what the worlds share cancels out, so far fewer worlds are needed.

The reference's loss is ``L = max(0, max_c (V(c) - V(ref)))``; its interval uses ``z`` with a
Bonferroni correction over the ``k`` comparisons (and, optionally, the looks), capped at twice
the game's ``payoff_bound()``.  Worlds are added in batches and the evaluation stops when the
interval lies inside one of the caller's bands (``"settled"``), is narrow enough
(``"precise"``), looks futile, or at the cap, a deadline or a stop; candidates that cannot be
best any more are dropped.  :class:`PairedConfig` lists the rules (screening, growth of the
looks, the hint's ``race``).

Game-agnostic: reads only the game interface (``determinize``, ``clone``, ``apply_unchecked``,
``legal_moves``, ``returns``, the playout policies through :func:`search.evaluator.playout`).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from statistics import NormalDist
from typing import Callable, Sequence

from quansu.games.base import GameError, Move, SeededOnUse, State
from quansu.search.config import SearchOptionError
from quansu.search.evaluator import Aborted, Evaluator, playout

StopFn = Callable[[], bool]

#: Under a deadline the screening of the candidates takes at most this share of the time, so
#: that the evaluation proper has the rest (with 41 candidates the screening alone could take
#: a decision's whole share of an Analyze deadline).
SCREEN_SHARE = 0.5

_PLAYOUTS = ("game", "random", "heuristic", "sparring", "evaluator")


@dataclass(frozen=True)
class PairedConfig:
    """Settings of a paired evaluation (checked on construction; a bad value raises
    :class:`search.config.SearchOptionError` naming the field).

    ``min_worlds``: worlds before the first look at the stopping rule.  ``max_worlds``: the cap.
    ``batch``: worlds between two looks.  ``confidence``: the joint coverage of the loss
    interval (0.95: a 95 % interval).  ``playout``: the continuation policy after the candidate
    move, for every seat (``"heuristic"``: the game's rule-based bot, the default; ``"sparring"``,
    ``"random"``, ``"game"``, the game's ``search_playout``, or ``"evaluator"``, the highest prior
    of the evaluator given to :func:`paired_evaluate`), see :func:`search.evaluator.playout`.
    ``growth``: 1 looks every ``batch`` worlds; above 1 each look is at ``growth`` times the
    worlds of the last (32, 64, 128, ... with 2).  ``look_correction``: widen the interval for
    the number of looks too (Bonferroni over comparisons x looks), so that stopping at the first
    settled look keeps its coverage.  ``screen_keep`` (0: no screening): rank every candidate on
    the first ``screen_worlds`` worlds and keep the best ``screen_keep`` besides the reference;
    the evaluation then runs on fresh worlds.  ``futility``: stop early (``"futile"``) once the chance that the interval leaves the band
    threshold nearest the estimate by ``max_worlds`` falls below this (0: never).
    ``precision`` (bets, 0: off): stop (``"precise"``) at the first look where the loss
    interval's half-width ``(loss_high - loss_low) / 2`` is at most this.
    ``accuracy_scale`` (bets, 0: off) and ``accuracy_precision`` (0..1): a decision's accuracy
    is ``2 ** (-loss / accuracy_scale)``; with both set, an interval inside one band counts as
    settled only when the accuracy's interval, ``2 ** (-loss_low / s) - 2 ** (-loss_high / s)``,
    is at most twice ``accuracy_precision`` wide (the last band is unbounded: a loss known
    only to lie above the last threshold leaves the accuracy anywhere below its value there).
    ``race`` (a hint's rule: which moves are best, not the reference's loss): at every look
    the *leader* is the candidate with the highest mean, and a candidate whose paired difference
    with the leader is below zero by more than ``z`` standard errors is dropped (sequential
    elimination; the reference is always played: the values are paired with it).  The
    evaluation stops (``"ranked"``) at the first look where no candidate still played besides
    the leader could yet be told apart from it by ``max_worlds``: its difference ``d`` with the
    leader is at most ``z * se * sqrt(n / max_worlds)`` (``se`` its standard error after ``n``
    worlds), i.e. even if ``d`` held, its interval at the cap would still reach zero.  So a
    separated leader stops the evaluation, and so do moves that are tied now and that more
    worlds would most likely leave tied (the advice, the top tied group, would not change).
    ``beat`` (the improvement step's rule; :mod:`search.improve`): a candidate is
    wanted only if at the cap it beats the reference by more than ``beat_z`` standard errors of
    the paired difference.  At every look before the cap a candidate is dropped as hopeless when
    even its difference ``d`` plus ``beat_margin`` standard errors ``se`` is at most the least
    difference that would pass at the cap, ``beat_z * se * sqrt(n / max_worlds)`` (``n``
    worlds played; the standard error taken to shrink like ``1 / sqrt(worlds)``); the
    evaluation stops (``"hopeless"``) when no candidate is left besides the reference.
    With ``race`` or ``beat`` (``beat`` wins when both are set), ``bands``, ``precision``, the
    futility and the loss-based drop are not used.
    """

    min_worlds: int = 16
    max_worlds: int = 256
    batch: int = 8
    growth: float = 1.0
    look_correction: bool = False
    screen_keep: int = 0
    screen_worlds: int = 24
    confidence: float = 0.95
    playout: str = "heuristic"
    futility: float = 0.1
    precision: float = 0.0
    accuracy_scale: float = 0.0
    accuracy_precision: float = 0.0
    race: bool = False
    beat: bool = False
    beat_z: float = 1.0
    beat_margin: float = 1.0

    def __post_init__(self) -> None:
        for name in ("min_worlds", "max_worlds", "batch"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 2:
                raise SearchOptionError(
                    f"paired option {name!r}: expected a whole number >= 2, got {v!r}"
                )
        if self.min_worlds > self.max_worlds:
            raise SearchOptionError(
                f"paired option 'min_worlds': {self.min_worlds} is above "
                f"max_worlds {self.max_worlds}"
            )
        c = self.confidence
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not 0.5 <= c < 1:
            raise SearchOptionError(
                f"paired option 'confidence': expected a number in [0.5, 1), got {c!r}"
            )
        g = self.growth
        if isinstance(g, bool) or not isinstance(g, (int, float)) or not 1 <= g <= 16:
            raise SearchOptionError(
                f"paired option 'growth': expected a number in [1, 16], got {g!r}"
            )
        for name, lo in (("screen_keep", 0), ("screen_worlds", 2)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < lo:
                raise SearchOptionError(
                    f"paired option {name!r}: expected a whole number >= {lo}, got {v!r}"
                )
        f = self.futility
        if isinstance(f, bool) or not isinstance(f, (int, float)) or not 0 <= f < 1:
            raise SearchOptionError(
                f"paired option 'futility': expected a number in [0, 1), got {f!r}"
            )
        p = self.precision
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p < math.inf:
            raise SearchOptionError(
                f"paired option 'precision': expected a number >= 0 (bets), got {p!r}"
            )
        for name in ("accuracy_scale", "accuracy_precision", "beat_z", "beat_margin"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < math.inf:
                raise SearchOptionError(
                    f"paired option {name!r}: expected a number >= 0, got {v!r}"
                )
        if self.playout not in _PLAYOUTS:
            raise SearchOptionError(
                f"paired option 'playout': {self.playout!r} is not one of {', '.join(_PLAYOUTS)}"
            )


@dataclass(frozen=True)
class PairedMove:
    """One candidate after the evaluation.

    ``worlds``: the worlds it was played on (the first ``worlds`` of the sequence; fewer than
    the reference's when it was dropped).  ``mean``: its mean payoff for the observer on those
    worlds, in bets.  ``value``: its paired estimate on the reference's worlds, ``V(ref) + diff``
    (bets; what ranks the candidates).  ``diff`` / ``diff_stderr``: the mean paired difference
    ``v[c] - v[ref]`` and its standard error (0 for the reference itself).  ``stderr``: the
    standard error of ``mean`` alone (unpaired, for a lower bound).  ``group``: 0 for the top
    move and the moves statistically tied with it (paired test at the evaluation's ``z``), then
    1, 2, ... for the next tied groups.  ``dropped``: stopped early as surely worse than the
    best move.
    """

    move: Move
    worlds: int
    mean: float
    value: float
    diff: float
    diff_stderr: float
    stderr: float
    group: int
    dropped: bool


@dataclass(frozen=True)
class PairedResult:
    """The outcome of :func:`paired_evaluate`.

    ``moves``: the candidates, highest ``value`` first (the reference's ties broken in its
    favour).  ``top``: the first of them.  ``loss`` / ``loss_low`` / ``loss_high``: the
    reference's loss in bets and its interval (``confidence`` jointly over the comparisons).
    ``loss_stderr``: the standard error of the paired difference between ``top`` and the
    reference (0 when the reference is on top).  ``worlds``: worlds the reference was played on.
    ``z``: the quantile used.  ``settled``: the interval lies inside one band (and, with
    ``accuracy_precision``, the accuracy is known to within it).  ``stopped``:
    ``"settled"``, ``"cap"`` (max_worlds), ``"futile"`` (would not settle by the cap),
    ``"precise"`` (the interval is narrower than ``2 * precision``), ``"ranked"`` (``race``: the
    top of the ranking is settled), ``"hopeless"`` (``beat``: no candidate can still beat the
    reference), ``"deadline"`` or ``"cancelled"``.  ``playouts``:
    playouts run in all (screening included).  ``screened_out``: candidates the screening
    dropped (not in ``moves``).
    """

    observer: int
    reference: Move
    moves: tuple[PairedMove, ...]
    loss: float
    loss_low: float
    loss_high: float
    loss_stderr: float
    worlds: int
    z: float
    settled: bool
    stopped: str
    playouts: int
    elapsed_s: float
    screened_out: tuple = ()

    @property
    def top(self) -> PairedMove:
        return self.moves[0]

    def move(self, move: Move) -> PairedMove:
        for m in self.moves:
            if m.move == move:
                return m
        raise KeyError(move)


def _play_world(
    state: State,
    observer: int,
    moves: Sequence[Move],
    seed: int,
    index: int,
    policy: str,
    poll,
    evaluator: Evaluator | None = None,
) -> list[float]:
    """The observer's payoff after each of ``moves`` in world ``index`` (one determinization,
    one continuation seed shared by every move)."""
    rng = random.Random(world_seed(seed, index))
    world = state.determinize(observer, rng)
    play_seed = rng.getrandbits(64)
    out = []
    for m in moves:
        s = world.clone()
        s.apply_unchecked(m)
        if s.is_terminal():
            out.append(float(s.returns()[observer]))
        else:
            values = playout(s, SeededOnUse(play_seed), policy, poll, evaluator=evaluator)
            out.append(float(values[observer]))
    return out


def world_payoffs(
    state: State, moves: Sequence[Move], seed: int, index: int, policy: str = "heuristic"
) -> list[float]:
    """The observer's (the seat to act's) payoff after each of ``moves`` in world ``index`` of an
    evaluation seeded ``seed``: the row :func:`paired_evaluate` plays there (benchmarks replay
    its stopping rules on these rows)."""
    return _play_world(state, state.current_player, moves, seed, index, policy, None)


def look_schedule(cfg: PairedConfig) -> list[int]:
    """The world counts at which the stopping rule looks: ``min_worlds``, then every ``batch``
    worlds (``growth`` 1) or each count ``growth`` times the last (at least ``batch`` more),
    and ``max_worlds``."""
    out = [cfg.min_worlds]
    while out[-1] < cfg.max_worlds:
        nxt = max(out[-1] + cfg.batch, math.ceil(out[-1] * cfg.growth))
        out.append(min(nxt, cfg.max_worlds))
    return out


def accuracy_of(loss: float, scale: float) -> float:
    """A decision's accuracy, 0..1: ``2 ** (-loss / scale)`` for a loss of ``loss`` bets (a
    negative loss counts as 0) and ``scale`` bets > 0 (1 for no loss, 0.5 at ``scale``)."""
    return 2.0 ** (-max(0.0, loss) / scale)


def accuracy_width(cfg: PairedConfig, lo: float, hi: float) -> float:
    """The width of the decision accuracy's interval for the loss interval ``[lo, hi]`` (bets),
    :func:`accuracy_of` at each end with ``cfg.accuracy_scale`` (0 when that is 0)."""
    s = cfg.accuracy_scale
    if s <= 0:
        return 0.0
    return accuracy_of(lo, s) - accuracy_of(hi, s)


def _settled(cfg: PairedConfig, bands: Sequence[float], lo: float, hi: float) -> bool:
    """Whether the loss interval ``[lo, hi]`` settles the evaluation: inside one band and, with
    ``accuracy_precision`` set, the accuracy known to within it."""
    if bands and band_of(lo, bands) != band_of(hi, bands):
        return False
    return not cfg.accuracy_precision or accuracy_width(cfg, lo, hi) <= 2.0 * cfg.accuracy_precision


def band_of(x: float, bands: Sequence[float]) -> int:
    """How many of the ascending thresholds ``bands`` lie below ``x`` (a value equal to a
    threshold belongs to the lower band)."""
    return sum(1 for t in bands if x > t)


def joint_z(confidence: float, comparisons: int) -> float:
    """The two-sided normal quantile for ``comparisons`` simultaneous intervals of joint coverage
    at least ``confidence`` (Bonferroni)."""
    k = max(1, comparisons)
    return NormalDist().inv_cdf(1.0 - (1.0 - confidence) / (2.0 * k))


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    if n == 0:
        return 0.0, math.inf
    m = sum(xs) / n
    if n < 2:
        return m, math.inf
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(max(0.0, var) / n)


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``a[i] - b[i]`` over the common prefix."""
    n = min(len(a), len(b))
    return _mean_se([a[i] - b[i] for i in range(n)])


def world_seed(seed: int, index: int) -> int:
    """The seed of world ``index`` of an evaluation seeded ``seed``."""
    return (seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB) % (1 << 64)


def paired_evaluate(
    state: State,
    candidates: Sequence[Move],
    reference: Move,
    *,
    config: PairedConfig | None = None,
    seed: int = 0,
    bands: Sequence[float] = (),
    deadline: float | None = None,
    stop: StopFn | None = None,
    clock: Callable[[], float] = time.monotonic,
    evaluator: Evaluator | None = None,
) -> PairedResult:
    """Evaluate ``candidates`` (legal moves of the seat to act in ``state``; ``reference`` is
    added when missing) on common sampled worlds from that seat's information; see the module
    text.  ``bands``: ascending loss thresholds in bets for the stopping rule (empty: stop at
    ``min_worlds``).  ``deadline``: absolute ``clock()`` time.  ``stop()``: cancel.
    ``evaluator``: the policy of ``config.playout="evaluator"`` (needed then, unused otherwise).
    The same arguments give the same result (everything random is seeded by ``seed``).

    Raises :class:`games.base.GameError` for a terminal state or a candidate that is not legal.
    """
    cfg = config or PairedConfig()
    if cfg.playout == "evaluator" and evaluator is None:
        raise SearchOptionError("paired option 'playout': 'evaluator' needs an evaluator")
    start = clock()
    if state.is_terminal():
        raise GameError("paired evaluation: the game is over")
    observer = state.current_player
    legal = state.legal_moves()
    moves: list[Move] = []
    for m in [reference, *candidates]:
        if m not in legal:
            raise GameError(
                f"paired evaluation: {state.game.move_to_text(m)!r} is not legal for "
                f"seat {observer}"
            )
        if m not in moves:
            moves.append(m)
    bands = sorted(float(b) for b in bands)
    poll = (
        None
        if stop is None and deadline is None
        else (
            lambda: (stop is not None and stop()) or (deadline is not None and clock() >= deadline)
        )
    )
    first = 0
    playouts = 0
    screened_out: tuple = ()
    if cfg.screen_keep and len(moves) - 1 > cfg.screen_keep:
        # phase 1: rank every candidate on the first screen_worlds worlds and keep the best
        # screen_keep; the evaluation proper then runs on fresh worlds (no winner's curse).
        # Under a deadline the screening takes at most SCREEN_SHARE of the time left.
        screen_poll = poll
        if deadline is not None:
            screen_end = start + SCREEN_SHARE * max(0.0, deadline - start)

            def screen_poll_until_end():
                return (stop is not None and stop()) or clock() >= screen_end

            screen_poll = screen_poll_until_end
        sums = [0.0] * len(moves)
        try:
            for i in range(cfg.screen_worlds):
                if i and screen_poll is not None and screen_poll():
                    break
                row = _play_world(
                    state, observer, moves, seed, i, cfg.playout, screen_poll, evaluator
                )
                playouts += len(row)
                sums = [a + b for a, b in zip(sums, row)]
        except Aborted:
            pass
        order = sorted(range(1, len(moves)), key=lambda j: (-sums[j], j))
        keep = sorted(order[: cfg.screen_keep])
        screened_out = tuple(moves[j] for j in sorted(order[cfg.screen_keep :]))
        moves = [moves[0]] + [moves[j] for j in keep]
        first = cfg.screen_worlds
    k = len(moves) - 1
    looks = look_schedule(cfg)
    z = joint_z(cfg.confidence, k * (len(looks) if cfg.look_correction else 1))
    look_at = set(looks)
    cap = 2.0 * float(state.game.payoff_bound())
    values: list[list[float]] = [[] for _ in moves]
    active = [True] * len(moves)
    n = 0
    stopped = "cap"

    def halted() -> str | None:
        if stop is not None and stop():
            return "cancelled"
        if deadline is not None and clock() >= deadline:
            return "deadline"
        return None

    def interval():
        ref = values[0]
        lo = hi = 0.0
        for j in range(1, len(moves)):
            if not active[j]:
                continue
            d, se = _paired(values[j], ref)
            if math.isinf(se):
                hi = cap
                continue
            lo = max(lo, d - z * se)
            hi = max(hi, d + z * se)
        return lo, min(hi, cap)

    try:
        while n < cfg.max_worlds:
            why = halted()
            if why is not None:
                stopped = why
                break
            idx = [j for j in range(len(moves)) if active[j]]
            row = _play_world(
                state,
                observer,
                [moves[j] for j in idx],
                seed,
                first + n,
                cfg.playout,
                poll,
                evaluator,
            )
            playouts += len(row)
            for j, v in zip(idx, row):
                values[j].append(v)
            n += 1
            if n not in look_at:
                continue
            shrink = math.sqrt(n / cfg.max_worlds)
            if cfg.beat:
                if n < cfg.max_worlds and _hopeless_look(
                    values, active, cfg.beat_z, cfg.beat_margin, shrink
                ):
                    stopped = "hopeless"
                    break
            elif cfg.race:
                if n < cfg.max_worlds and _race_look(values, active, z, shrink):
                    stopped = "ranked"
                    break
            else:
                lo, hi = interval()
                if _settled(cfg, bands, lo, hi):
                    stopped = "settled"
                    break
                if cfg.precision and (hi - lo) / 2.0 <= cfg.precision:
                    stopped = "precise"
                    break
                for j in range(1, len(moves)):
                    if active[j]:
                        d, se = _paired(values[j], values[0])
                        if d + z * se < lo:
                            active[j] = False
                if n >= 2 * cfg.min_worlds and _futile(
                    values, active, lo, hi, z, bands, n, cfg.max_worlds, cfg.futility
                ):
                    stopped = "futile"
                    break
    except Aborted:
        stopped = "cancelled" if stop is not None and stop() else "deadline"
    lo, hi = interval()
    if cfg.race:
        settled = stopped == "ranked"
    else:
        settled = n >= 2 and _settled(cfg, bands, lo, hi)
    if stopped == "cap" and settled:
        stopped = "settled"

    ref_mean, _ = _mean_se(values[0])
    rows = []
    for j, m in enumerate(moves):
        mean, se = _mean_se(values[j])
        if j == 0:
            d, dse = 0.0, 0.0
        else:
            d, dse = _paired(values[j], values[0])
        rows.append([j, m, len(values[j]), mean, ref_mean + d, d, dse, se, not active[j]])
    # highest paired value first; the reference wins exact ties, then candidate order
    rows.sort(key=lambda r: (-r[4], r[0] != 0, r[0]))
    groups = _groups([values[r[0]] for r in rows], [r[4] for r in rows], z)
    out = tuple(
        PairedMove(
            move=r[1],
            worlds=r[2],
            mean=r[3],
            value=r[4],
            diff=r[5],
            diff_stderr=r[6] if not math.isinf(r[6]) else cap,
            stderr=r[7] if not math.isinf(r[7]) else cap,
            group=g,
            dropped=r[8],
        )
        for r, g in zip(rows, groups)
    )
    top = out[0]
    loss = max(0.0, top.diff)
    return PairedResult(
        observer=observer,
        reference=moves[0],
        moves=out,
        loss=loss,
        loss_low=lo,
        loss_high=max(hi, loss),
        loss_stderr=top.diff_stderr if top.move != moves[0] else 0.0,
        worlds=n,
        z=z,
        settled=settled,
        stopped=stopped,
        playouts=playouts,
        elapsed_s=clock() - start,
        screened_out=screened_out,
    )


def _hopeless_look(
    values: list[list[float]], active: list[bool], z: float, margin: float, shrink: float
) -> bool:
    """One look of the improvement step's rule (:class:`PairedConfig` ``beat``): drop every
    candidate (never the reference, index 0) whose paired difference with the reference ``d``
    satisfies ``d + margin * se <= z * se * shrink`` (``shrink``: ``sqrt(n / max_worlds)``, the
    share of the standard error left at the cap; equal values so far, ``se`` 0, drop unless
    ``d > 0``); return whether every candidate is dropped."""
    left = False
    for j in range(1, len(values)):
        if not active[j]:
            continue
        d, se = _paired(values[j], values[0])
        if not math.isinf(se) and d + margin * se <= z * se * shrink:
            active[j] = False
        else:
            left = True
    return not left


def _race_look(values: list[list[float]], active: list[bool], z: float, shrink: float) -> bool:
    """One look of the race rule (:class:`PairedConfig` ``race``): drop every candidate (never
    the reference, index 0) whose paired difference with the leader (the highest mean among the
    candidates still played, all on the same worlds) is below zero by more than ``z`` standard
    errors; return whether the ranking of the top is settled: no other candidate still played
    would be told apart from the leader with its standard error times ``shrink`` (the share of
    it left at the cap, ``sqrt(n / max_worlds)``)."""
    idx = [j for j in range(len(values)) if active[j]]
    means = {j: sum(values[j]) / len(values[j]) for j in idx}
    leader = min(idx, key=lambda j: (-means[j], j))
    settled = True
    for j in idx:
        if j == leader:
            continue
        d, se = _paired(values[leader], values[j])
        if math.isinf(se):
            settled = False
        elif d - z * se > 0:
            if j:
                active[j] = False
        elif d - z * se * shrink > 0:
            settled = False
    return settled


def _futile(
    values, active, lo: float, hi: float, z: float, bands, n: int, cap: int, limit: float
) -> bool:
    """Whether the loss interval is unlikely (probability below ``limit``) to leave the band
    threshold nearest to the loss estimate by the cap: the estimate is taken to move like a
    normal variable with the variance the remaining worlds add, and the interval to shrink
    like ``1 / sqrt(worlds)``."""
    if limit <= 0 or n >= cap:
        return False
    est = max(
        0.0,
        max(
            (_paired(values[j], values[0])[0] for j in range(1, len(values)) if active[j]),
            default=0.0,
        ),
    )
    inside = [t for t in bands if lo < t < hi]
    if not inside:
        return False
    t = min(inside, key=lambda x: abs(x - est))
    half = (hi - lo) / 2.0
    se = half / z
    half_cap = half * math.sqrt(n / cap)
    spread = se * math.sqrt(max(0.0, 1.0 - n / cap))
    if spread <= 0:
        return abs(est - t) <= half_cap
    nd = NormalDist(est, spread)
    p_settle = nd.cdf(t - half_cap) + 1.0 - nd.cdf(t + half_cap)
    return p_settle < limit


def _groups(samples: list[list[float]], values: list[float], z: float) -> list[int]:
    """Tied groups of moves ranked by ``values`` (contiguous in that order): a group starts at
    the best move not yet grouped (its leader) and holds the following moves whose paired
    difference with the leader is within ``z`` standard errors."""
    group = []
    g = -1
    leader = None
    for i in range(len(values)):
        if leader is not None:
            d, se = _paired(samples[leader], samples[i])
            if math.isinf(se) or abs(d) <= z * se:
                group.append(g)
                continue
        g += 1
        leader = i
        group.append(g)
    return group
