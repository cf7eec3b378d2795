"""Information-set Monte Carlo tree search (ISMCTS) from one seat's information.

Each iteration draws a fresh determinization of the hidden cards with
``state.determinize(observer, rng)`` and walks the tree with it:

* A node belongs to the seat to act and is found, below each (node, move) edge, by that seat's
  information-state key: the observer's nodes by the observer's key; an opponent's nodes by the
  opponent's own key in the current determinization (``opponent_keys="own"``) or by the
  observer's key (``"observer"``, single-observer ISMCTS).  Below one edge the key is the
  state's ``sibling_key``, which tells that edge's children apart exactly as the full key does
  (every walk through a node came by the same moves) and is cheaper to hash.  With
  ``opponent_keys="model"`` the opponents own no nodes: their moves on the walk are drawn from
  a hand-aware opponent model (``opponent_policy``, from the hand each holds in the
  determinization), and the tree holds only the observer's information sets, shared by every
  determinization that reaches the same public history, so the observer's own later turns are
  planned.
* A root with one legal move is answered at once (no iteration; ``stopped == "forced"``).
* Selection is PUCT with the evaluator's priors, normalised over the moves available in this
  determinization; the exploration term uses each move's availability count, so moves that exist
  only in some determinizations are not starved or over-explored.
* Each seat maximises its own payoff: an edge stores the payoff (bets) of the seat that chose it,
  divided by the value scale (``payoff_bound()`` by default) inside PUCT.
* A new node is a leaf: its value per seat comes from a rollout, from the evaluator, or a mix.
  Leaves are evaluated in batches of ``batch_size`` (virtual loss spreads a batch).

The search reads the true state only through ``determinize(observer, ...)``, the observer's legal
moves and ``current_player``, so it plays from the observer's information only (tested by
permuting the opponents' hidden cards).

Budgets: iterations, wall time, an absolute deadline (``clock()`` units, ``time.monotonic`` by
default) and a ``threading.Event`` to cancel; the stop conditions are polled every iteration and
every few playout moves, and the best result so far is returned.
"""

from __future__ import annotations

import gc
import math
import random
import threading
import time
from typing import Any, Callable

try:
    import cython
except ImportError:  # no Cython installed: the same code runs untyped (games/_cy.py)
    from quansu.games import _cy as cython

if cython.compiled:  # C's sqrt, the same correctly rounded square root as math.sqrt
    from cython.cimports.libc.math import sqrt as _sqrt
else:
    from math import sqrt as _sqrt

from quansu.games.base import TERMINAL, GameError, State
from quansu.search.config import SearchConfig
from quansu.search.endgame import EndgameSolver
from quansu.search.evaluator import Aborted, Evaluator, MoveAverages, UniformEvaluator, playout
from quansu.search.result import MoveStats, SearchResult

ProgressFn = Callable[[SearchResult], None]


class SearchError(GameError):
    """A search that cannot run (terminal state, no budget)."""


class _Node:
    """One information set of the seat ``seat`` to act.

    Lists are indexed by move number ``i`` (``moves[i]``): ``prior`` (evaluator, unnormalised),
    ``n`` (visits), ``w`` / ``w2`` (sum / sum of squares of ``seat``'s payoff in bets), ``avail``
    (iterations in which the move was legal), ``kids`` (child key -> node, or None).
    ``visits`` / ``value_sum``: the node's own visit count and sum of ``seat``'s payoff, leaf
    value included.  ``moves`` is None until priors are known; ``index`` is None until the
    node is first selected from.
    """

    __slots__ = (
        "seat",
        "visits",
        "value_sum",
        "moves",
        "prior",
        "index",
        "n",
        "w",
        "w2",
        "avail",
        "kids",
    )

    def __init__(self, seat: int):
        self.seat = seat
        self.visits = 0
        self.value_sum = 0.0
        # lists (and the index a dict) once set, read only after: Any for the type checker
        self.moves: Any = None
        self.prior: Any = None
        self.index: Any = None

    def open(self) -> None:
        k = len(self.moves)
        self.index = {m: i for i, m in enumerate(self.moves)}
        self.n = [0] * k
        self.w = [0.0] * k
        self.w2 = [0.0] * k
        self.avail = [0] * k
        self.kids = [None] * k

    def add_moves(self, moves, priors) -> None:
        for m, p in zip(moves, priors):
            if m not in self.index:
                self.index[m] = len(self.moves)
                self.moves.append(m)
                self.prior.append(float(p))
                self.n.append(0)
                self.w.append(0.0)
                self.w2.append(0.0)
                self.avail.append(0)
                self.kids.append(None)


def search(
    state: State,
    config: SearchConfig | None = None,
    evaluator: Evaluator | None = None,
    *,
    seed: int = 0,
    rng: random.Random | None = None,
    deadline: float | None = None,
    cancel: threading.Event | None = None,
    progress: ProgressFn | None = None,
    clock: Callable[[], float] = time.monotonic,
    assume_state_known: bool = False,
) -> SearchResult:
    """Search ``state`` from the information of the seat to act; return statistics per root move.

    ``config``: settings and budget (default :class:`SearchConfig`).  ``evaluator``: priors and
    leaf values (default :class:`UniformEvaluator`).  ``seed`` / ``rng``: all randomness
    (determinizations, rollouts, evaluator); the same state, seed and iteration budget give the
    same result.  ``deadline``: absolute time in ``clock()`` units.  ``cancel``: stops the search
    when set.  ``progress``: called with a partial :class:`SearchResult` every
    ``config.progress_interval_s`` seconds (from the searching thread).
    ``assume_state_known``: treat ``state`` as the true world (no determinization; a perfect-
    information search) -- only for searching a determinization, as PIMC does.

    Raises :class:`SearchError` for a terminal state or a search with no budget at all.
    """
    cfg = config or SearchConfig()
    if state.is_terminal():
        raise SearchError("cannot search a terminal state: the game is over")
    if cfg.iterations is None and cfg.time_s is None and deadline is None and cancel is None:
        raise SearchError(
            "search has no budget: set iterations, time_s, a deadline or a cancel event"
        )
    legal = state.legal_moves()
    if len(legal) == 1:
        return forced_result(state, legal[0], clock)
    paused = gc.isenabled()
    if paused:  # see GC_COLLECT_EVERY
        gc.disable()
    try:
        return _Search(
            state,
            cfg,
            evaluator or UniformEvaluator(),
            rng or random.Random(seed),
            deadline,
            cancel,
            progress,
            clock,
            assume_state_known,
        ).run()
    finally:
        if paused:
            gc.enable()


#: A search pauses Python's automatic cyclic garbage collector while it runs (and resumes it
#: when it returns, if it was on): the tree it grows is alive until the end, yet every few
#: hundred new objects triggered a collection that walked it, about a tenth of a Tiến lên
#: search's time.  The search itself makes no cyclic garbage (tests/search/test_search_ismcts.py checks every
#: game); in case some code it calls does, it collects the youngest generation every this many
#: iterations, so that such garbage stays bounded however long the search runs.
GC_COLLECT_EVERY = 5_000


def forced_result(state: State, move, clock: Callable[[], float] = time.monotonic) -> SearchResult:
    """The result for a position with one legal move: no search, ``stopped == "forced"``,
    0 visits, mean 0.0 (unknown), prior 1.0, and the game's ``-payoff_bound()`` as the bound."""
    start = clock()
    stats = MoveStats(
        move, 0, 0.0, 1.0, -float(state.game.payoff_bound()), ((state.current_player, move),)
    )
    return SearchResult(
        observer=state.current_player,
        moves=(stats,),
        iterations=0,
        determinizations=0,
        elapsed_s=clock() - start,
        tree_size=1,
        stopped="forced",
    )


class _Search:
    def __init__(self, state, cfg, evaluator, rng, deadline, cancel, progress, clock, known):
        self.root_state = state
        self.cfg = cfg
        self.evaluator = evaluator
        self.rng = rng
        self.cancel = cancel
        self.progress = progress
        self.clock = clock
        self.known = known
        self.observer = state.current_player
        self.game = state.game
        self.bound = float(self.game.payoff_bound())
        self.fixed_scale = cfg.value_scale
        self.scale = float(cfg.value_scale or self.bound)
        self.sumsq = 0.0  # leaf payoffs seen (all seats), for the automatic value scale
        self.nvalues = 0
        self.mast = MoveAverages() if cfg.playout == "mast" else None
        self.start = clock()
        ends = [
            t
            for t in (deadline, None if cfg.time_s is None else self.start + cfg.time_s)
            if t is not None
        ]
        self.stop_at = min(ends) if ends else None
        self.deadline = deadline
        self.iterations = 0
        self.determinizations = 0
        self.tree_size = 1
        self.root = _Node(self.observer)
        self.root_moves = list(state.legal_moves())
        self.root_priors = None  # the evaluator's root priors, as reported
        self.prior_power = 1.0 / cfg.prior_temperature
        self.stopped = "running"
        keys = cfg.opponent_keys
        self.keys = self.game.search_opponent_keys if keys == "game" else keys
        self.model = self.keys == "model"
        self.opponent_model = _opponent_policy(self.game, cfg.opponent_policy)
        self.opponent_move = self.opponent_model if self.model else None
        self.pool = None  # the belief-weighted worlds (cfg.belief_worlds > 0)
        self.pool_next = 0
        self.deep = 0  # iterations whose walk went through an existing node at depth >= 2
        self.walked = 0  # existing nodes selected from below the root, summed over iterations
        self.max_depth = 0  # deepest existing node selected from (root = 0)
        ec = self.game.search_endgame_cards if cfg.endgame_cards is None else cfg.endgame_cards
        self.endgame = EndgameSolver(ec, cfg.endgame_nodes) if ec > 0 else None

    # -- budget ---------------------------------------------------------------------------------
    def _stop_reason(self) -> str | None:
        if self.cancel is not None and self.cancel.is_set():
            return "cancelled"
        if self.stop_at is not None and self.clock() >= self.stop_at:
            return (
                "deadline"
                if self.deadline is not None and self.stop_at == self.deadline
                else "time"
            )
        if self.cfg.iterations is not None and self.iterations >= self.cfg.iterations:
            return "iterations"
        return None

    def _stop_now(self) -> bool:
        if self.cancel is not None and self.cancel.is_set():
            return True
        return self.stop_at is not None and self.clock() >= self.stop_at

    def _world(self) -> State:
        self.determinizations += 1
        if self.known:
            return self.root_state.clone()
        if self.cfg.belief_worlds:
            if self.pool is None:
                self.pool = belief_pool(
                    self.root_state,
                    self.observer,
                    self.cfg.belief_worlds,
                    self.opponent_model,
                    self.cfg.belief_epsilon,
                    self.rng,
                )
            world = self.pool[self.pool_next % len(self.pool)]
            self.pool_next += 1
            return world.clone()
        return self.root_state.determinize(self.observer, self.rng)

    # -- main loop ------------------------------------------------------------------------------
    def run(self) -> SearchResult:
        cfg = self.cfg
        stop = self._stop_now if (self.cancel is not None or self.stop_at is not None) else None
        # Root priors come from a determinization, never from the true state.
        try:
            first = self._world()
            ev = self._priors(first, self.root_moves, stop)
            self.root.moves = list(self.root_moves)
            self.root_priors = [float(p) for p in ev.priors]
            self.root.prior = self._anchored(self._shaped(ev.priors))
            self.root.open()
        except Aborted:
            self.root.moves = list(self.root_moves)
            self.root.prior = [1.0] * len(self.root_moves)
            self.root.open()
        next_progress = self.start + cfg.progress_interval_s if self.progress else math.inf
        batch = cfg.batch_size
        next_gc = GC_COLLECT_EVERY
        while True:
            vlb = cfg.virtual_loss * self.scale if batch > 1 else 0.0
            reason = self._stop_reason()
            if reason is not None:
                self.stopped = reason
                break
            if self.iterations >= next_gc:
                gc.collect(0)
                next_gc = self.iterations + GC_COLLECT_EVERY
            pending = []
            room = batch if cfg.iterations is None else min(batch, cfg.iterations - self.iterations)
            for _ in range(room):
                leaf = self._descend(self._world(), vlb)
                if leaf is None:
                    self.iterations += 1
                else:
                    pending.append(leaf)
                if batch > 1 and stop is not None and stop():
                    break
            if pending:
                try:
                    self._evaluate(pending, vlb, stop)
                except Aborted:
                    for _node, _det, _legal, path in pending:
                        self._revert(path, vlb)
            if self.progress is not None and self.clock() >= next_progress:
                self.progress(self.result())
                next_progress = self.clock() + cfg.progress_interval_s
        return self.result()

    def _anchored(self, prior: list) -> list:
        """The root's PUCT priors with ``anchor`` of their mass moved to the sparring bot's move
        (``SearchConfig.anchor``; the bot reads only the searching seat's information)."""
        a = self.game.search_anchor if self.cfg.anchor is None else self.cfg.anchor
        if a <= 0.0:
            return prior
        ref = self.game.sparring_move(self.root_state, random.Random(self.rng.getrandbits(63)))
        psum = sum(prior)
        keep = (1.0 - a) / psum if psum > 0 else 0.0
        flat = 0.0 if psum > 0 else (1.0 - a) / len(prior)
        return [p * keep + flat + (a if m == ref else 0.0) for p, m in zip(prior, self.root_moves)]

    def _shaped(self, priors) -> list:
        """Priors as PUCT uses them (``prior_temperature`` applied)."""
        power = self.prior_power
        if power == 1.0:
            return [float(p) for p in priors]
        return [float(p) ** power for p in priors]

    def _priors(self, det: State, legal, stop=None):
        evs = self.evaluator.evaluate([det], [legal], self.rng, values=False, stop=stop)
        self._check(evs, [det], [legal], False)
        return evs[0]

    def _check(self, evs, dets, legals, values: bool) -> None:
        name = getattr(self.evaluator, "name", type(self.evaluator).__name__)
        if len(evs) != len(dets):
            raise SearchError(
                f"evaluator {name!r} answered {len(evs)} evaluations for {len(dets)} states"
            )
        n = self.game.num_players
        for ev, legal in zip(evs, legals):
            if len(ev.priors) != len(legal):
                raise SearchError(
                    f"evaluator {name!r} gave {len(ev.priors)} priors for {len(legal)} moves"
                )
            if values and (ev.values is None or len(ev.values) != n):
                raise SearchError(
                    f"evaluator {name!r} gave values {ev.values!r}, expected {n} numbers"
                )

    @cython.locals(
        node=_Node,
        child=_Node,
        c=cython.double,
        scale=cython.double,
        psum=cython.double,
        flat=cython.double,
        use_flat=cython.bint,
        keep=cython.double,
        mix=cython.double,
        fpu=cython.double,
        best=cython.double,
        q=cython.double,
        pr=cython.double,
        sc=cython.double,
        wi=cython.double,
        ai=cython.double,
        i=cython.Py_ssize_t,
        bi=cython.Py_ssize_t,
        ni=cython.Py_ssize_t,
        obs=cython.int,
        p=cython.int,
        own=cython.bint,
        model=cython.bint,
        missing=cython.bint,
        n=list,
        w=list,
        prior=list,
        avail=list,
        ids=list,
        path=list,
        index=dict,
        kids=dict,
    )
    def _descend(self, det: State, vlb: float):
        """Walk one determinization down the tree.  Returns None when the walk ended in a
        terminal state (already backed up), else the leaf ``(node, det, legal, path)``.

        Compiled, the walk's numbers are C doubles and C integers (``c_puct``, the scale, the
        PUCT terms: the same IEEE operations in the same order as the uncompiled code, so both
        builds choose the same edges) and the nodes are extension types (the module's .pxd)."""
        cfg = self.cfg
        node = self.root
        legal = self.root_moves
        path = []
        obs = self.observer
        own = self.keys == "own"
        model = self.model
        c = cfg.c_puct
        scale = self.scale
        while True:
            if node.index is None:
                if node.moves is None:
                    ev = self._priors(det, legal)
                    node.moves = list(legal)
                    node.prior = self._shaped(ev.priors)
                node.open()
            index = node.index
            ids = []
            missing = False
            for m in legal:
                ii = index.get(m)
                if ii is None:
                    missing = True
                    break
                ids.append(ii)
            if missing:
                ev = self._priors(det, legal)
                node.add_moves(legal, self._shaped(ev.priors))
                ids = [index[m] for m in legal]
            n, w, prior, avail = node.n, node.w, node.prior, node.avail
            psum = 0.0
            for i in ids:
                avail[i] += 1
                psum += prior[i]
            use_flat = psum <= 0.0
            flat = 0.0
            if use_flat:
                psum = 1.0
                flat = 1.0 / len(ids)
            # PUCT prior = keep * prior / psum + mix (the uniform share of cfg.prior_mix)
            keep = (1.0 - cfg.prior_mix) / psum
            mix = cfg.prior_mix / len(ids)
            fpu = (node.value_sum / node.visits / scale if node.visits else 0.0) - cfg.fpu_reduction
            best = -math.inf
            bi = ids[0]
            for i in ids:
                ni = n[i]
                if ni:
                    wi = w[i]
                    q = wi / ni / scale
                else:
                    q = fpu
                if use_flat:
                    pr = flat
                else:
                    pr = prior[i]
                    pr = pr * keep + mix
                ai = avail[i]
                sc = q + c * pr * _sqrt(ai) / (1 + ni)
                if sc > best:
                    best = sc
                    bi = i
            n[bi] += 1
            node.visits += 1
            if vlb:
                w[bi] -= vlb
                node.value_sum -= vlb
            path.append((node, bi))
            det.apply_unchecked(node.moves[bi])
            p = det.current_player
            if model:
                opp = self.opponent_move
                rng = self.rng
                while p != obs and p != TERMINAL:
                    det.apply_unchecked(opp(det, rng))
                    p = det.current_player
            if p == TERMINAL:
                self._walked(path)
                self._backup(path, det.returns(), vlb)
                return None
            if model:
                # below this edge the observer's own moves so far are fixed; its next node is the
                # set of moves the table now allows it (public history abstracted to that)
                legal = det.legal_moves()
                key = model_node_key(legal)
            else:
                key = (p, det.sibling_key(p if (own or p == obs) else obs))
                legal = None
            kids = node.kids[bi]
            if kids is None:
                kids = node.kids[bi] = {}
            child = kids.get(key)
            if child is None:
                child = kids[key] = _Node(p)
                self.tree_size += 1
            node = child
            if legal is None:
                legal = det.legal_moves()
            if node.visits == 0:
                self._walked(path)
                return node, det, legal, path

    def _walked(self, path) -> None:
        d = len(path)
        self.walked += d - 1
        if d >= 3:
            self.deep += 1
        if d - 1 > self.max_depth:
            self.max_depth = d - 1

    def _evaluate(self, pending, vlb, stop) -> None:
        cfg = self.cfg
        mode = cfg.leaf_value
        dets = [p[1] for p in pending]
        legals = [p[2] for p in pending]
        evs: Any = None
        if mode != "rollout":
            evs = self.evaluator.evaluate(dets, legals, self.rng, values=True, stop=stop)
            self._check(evs, dets, legals, True)
        if mode != "evaluator":
            rolls = [self._rollout(d, stop) for d in dets]
        for k, (node, _det, legal, path) in enumerate(pending):
            if mode == "rollout":
                values = rolls[k]
            elif mode == "evaluator":
                values = evs[k].values
            else:
                lam = cfg.mix_lambda
                values = [lam * r + (1 - lam) * e for r, e in zip(rolls[k], evs[k].values)]
            if evs is not None and node.moves is None:
                node.moves = list(legal)
                node.prior = self._shaped(evs[k].priors)
            node.visits += 1
            node.value_sum += values[node.seat]
            self._backup(path, values, vlb)
            self.iterations += 1

    def _rollout(self, det: State, stop) -> list[float]:
        """A leaf's payoffs per seat: exact when the endgame solver takes it, else a playout."""
        eg = self.endgame
        if eg is not None and eg.applies(det):
            v = eg.value(det)
            if v is not None:
                return v
        cfg = self.cfg
        return playout(det, self.rng, cfg.playout, stop, self.mast, cfg.mast_epsilon)

    @cython.locals(node=_Node, v=cython.double, vl=cython.double, sq=cython.double)
    def _backup(self, path, values, vlb) -> None:
        if self.fixed_scale is None:
            sq = 0.0  # the squares summed in order from 0.0, as sum() adds floats on 3.11
            for v in values:
                sq += v * v
            self.sumsq += sq
            self.nvalues += len(values)
            if self.sumsq > 0.0:
                self.scale = 2.0 * math.sqrt(self.sumsq / self.nvalues)
        if self.mast is not None:
            self.mast.update([(node.seat, node.moves[i]) for node, i in path], values)
        vl = vlb
        for node, i in path:
            v = values[node.seat]
            node.w[i] += v + vl
            node.w2[i] += v * v
            node.value_sum += v + vl

    @staticmethod
    def _revert(path, vlb) -> None:
        for node, i in path:
            node.n[i] -= 1
            node.visits -= 1
            node.w[i] += vlb
            node.value_sum += vlb

    # -- result ---------------------------------------------------------------------------------
    def _line(self, i: int) -> tuple:
        root = self.root
        line = [(self.observer, root.moves[i])]
        kids = root.kids[i]
        while kids and len(line) < self.cfg.line_length:
            child = max(kids.values(), key=lambda nd: nd.visits)
            if child.index is None:
                break
            j = max(range(len(child.moves)), key=lambda k: child.n[k])
            if child.n[j] == 0:
                break
            line.append((child.seat, child.moves[j]))
            kids = child.kids[j]
        return tuple(line)

    def result(self) -> SearchResult:
        root = self.root
        z = self.cfg.lcb_z
        priors = self.root_priors or root.prior
        psum = sum(priors) or 1.0
        stats = []
        for i, m in enumerate(root.moves):
            n = root.n[i]
            mean = root.w[i] / n if n else 0.0
            if n >= 2:
                var = max(0.0, (root.w2[i] - n * mean * mean) / (n - 1))
                lcb = mean - z * math.sqrt(var / n)
            else:
                lcb = -self.bound
            stats.append((MoveStats(m, n, mean, priors[i] / psum, lcb, self._line(i)), i))
        stats.sort(key=lambda t: (-t[0].visits, -t[0].mean, -t[0].prior, t[1]))
        walks = max(1, self.determinizations)
        return SearchResult(
            observer=self.observer,
            moves=tuple(s for s, _ in stats),
            iterations=self.iterations,
            determinizations=self.determinizations,
            elapsed_s=self.clock() - self.start,
            tree_size=self.tree_size,
            stopped=self.stopped,
            max_depth=self.max_depth,
            deep_share=self.deep / walks,
            visits_below_root=self.walked,
        )


def world_log_likelihood(
    world: State, observer: int, model, epsilon: float, rng: random.Random
) -> float:
    """Log-likelihood of the opponents' past moves in ``world`` (a determinization) under the
    opponent ``model`` (``move(state, rng)``), replaying its history from its deal.

    Each decision of a seat other than ``observer`` with ``k > 1`` legal moves counts
    ``log(1 - epsilon)`` when the model plays the move that was played in that world's state
    (the seat's hand as the world deals it), else ``log(epsilon / (k - 1))``.  Decisions with
    one legal move count nothing.  A world whose history does not replay scores ``-inf``."""
    game = world.game
    try:
        s = game.state_from_deal(world.deal)
    except GameError:
        return -math.inf
    hit = math.log(1.0 - epsilon) if epsilon < 1.0 else -math.inf
    total = 0.0
    for seat, move in world.history:
        if s.current_player != seat:
            return -math.inf
        if seat != observer:
            legal = s.legal_moves()
            k = len(legal)
            if k > 1:
                if move not in legal:
                    return -math.inf
                if model(s, rng) == move:
                    total += hit if epsilon < 1.0 else math.log(1.0 / k)
                else:
                    total += math.log(epsilon / (k - 1))
        s.apply_unchecked(move)
    return total


def belief_pool(
    state: State, observer: int, k: int, model, epsilon: float, rng: random.Random
) -> list:
    """``k`` determinizations of ``state`` for ``observer``, resampled (systematic resampling)
    from ``k`` fresh ones with weights ``exp(beta * world_log_likelihood)``: worlds in which the
    opponents' past moves are likely under ``model`` come back more often.  ``beta`` (<= 1) is
    lowered until the weights keep an effective sample size of ``k / 4``."""
    worlds = [state.determinize(observer, rng) for _ in range(k)]
    logs = [world_log_likelihood(w, observer, model, epsilon, rng) for w in worlds]
    top = max(logs)
    if top == -math.inf:
        return worlds
    weights = _tempered(logs, top, k / 4.0)
    total = sum(weights)
    step = total / k
    u = rng.random() * step
    out = []
    acc = 0.0
    i = 0
    for j in range(k):
        target = u + j * step
        while acc + weights[i] < target and i < k - 1:
            acc += weights[i]
            i += 1
        out.append(worlds[i])
    return out


def _tempered(logs: list, top: float, min_ess: float) -> list:
    """Weights ``exp(beta * (log - top))`` with the largest ``beta`` in (0, 1] whose effective
    sample size ``(sum w)^2 / sum w^2`` is at least ``min_ess`` (bisection), so that a model
    that is too sure of itself cannot collapse the worlds onto a few (the opponents are not
    the model)."""

    def weights(beta):
        return [math.exp(beta * (x - top)) if x > -math.inf else 0.0 for x in logs]

    def ess(w):
        s2 = sum(x * x for x in w)
        return (sum(w) ** 2) / s2 if s2 > 0 else 0.0

    w = weights(1.0)
    if ess(w) >= min_ess:
        return w
    lo, hi = 0.0, 1.0
    for _ in range(20):
        mid = (lo + hi) / 2
        if ess(weights(mid)) >= min_ess:
            lo = mid
        else:
            hi = mid
    return weights(lo)


def model_node_key(legal) -> tuple:
    """The key of the observer's node below a tree edge with ``opponent_keys="model"``.

    Below an edge the observer's own moves since the root are fixed (its hand is known), so its
    situation differs between determinizations only by the public table, which reaches the
    observer as the set of moves it now has: the key is that set (``legal``: the observer's
    legal moves, in the engine's deterministic order).  Two determinizations that reach the
    same public history reach the same node; so do two histories that leave the observer the
    same choices (an abstraction that lets the search plan its own later turns)."""
    return tuple(legal)


def _opponent_policy(game, name: str):
    """``move(state, rng)`` of the opponent model ``name`` for the seat to act in ``state``
    (reading only that seat's information in the determinization)."""
    if name == "random":

        def rand(state, rng):
            moves = state.legal_moves()
            return moves[int(rng.random() * len(moves))]

        return rand
    if name == "sparring":
        return getattr(game, "sparring_move", game.heuristic_move)
    return game.heuristic_move
