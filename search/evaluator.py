"""Leaf evaluators for the search: priors over a state's legal moves and a value per seat.

An :class:`Evaluator` answers for a *batch* of states at once, so that a network evaluator
(ONNX, in ``models/``) can run one forward pass per batch.  The search sends states taken from
one determinization each; an evaluator must read only what the seat to act may know in that
state (its observation) for the priors, and must not mutate the states it is given.

:class:`UniformEvaluator` is the network-free baseline: uniform priors, and values from random
rollouts to the end of the game.  :func:`playout` is the rollout used by both the evaluator and
the search's own ``leaf_value="rollout"`` mode.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, Sequence

from quansu.games.base import Move, State, policy_playout

#: ``stop()`` -> True when the search must give up (deadline or cancel); polled during playouts.
StopFn = Callable[[], bool]

_STOP_EVERY = 4  # playout moves between two stop() polls


class Aborted(Exception):
    """Raised inside a playout or an evaluator when ``stop()`` turned true; the search discards
    the unfinished iteration."""


@dataclass(frozen=True)
class Evaluation:
    """The evaluator's answer for one state.

    ``priors``: one non-negative float per legal move, in the order of the ``moves`` the
    evaluator was given (the state's ``legal_moves()``); they need not sum to one (the search
    normalises over the moves available).  ``values``: the expected final payoff of every seat, in
    bets, each from that seat's own point of view (length = number of players), or ``None`` when
    values were not asked for.
    """

    priors: Sequence[float]
    values: Sequence[float] | None = None


class Evaluator:
    """The interface: batch evaluation of states.

    Subclasses implement :meth:`evaluate`.  ``name`` identifies the evaluator in results.
    ``learned_policy``: whether its priors are a learned policy whose top move can stand in for a
    player (a network: the improvement step's ``"evaluator"`` rollouts at the levels).
    """

    name: str = "evaluator"
    learned_policy: bool = False

    def evaluate(
        self,
        states: Sequence[State],
        moves: Sequence[Sequence[Move]],
        rng: random.Random,
        *,
        values: bool = True,
        stop: StopFn | None = None,
    ) -> list[Evaluation]:
        """Evaluate a batch.

        ``states[i]``: a non-terminal state; ``moves[i]``: its ``legal_moves()`` (same order).
        ``rng``: randomness for stochastic evaluators (rollouts).  ``values``: whether values are
        needed (a priors-only call may skip them).  ``stop``: poll it during long work and raise
        :class:`Aborted` when it returns True.  Returns one :class:`Evaluation` per state.
        """
        raise NotImplementedError


class MoveAverages:
    """MAST (move-average sampling): the mean final payoff, in bets, of the seat that played each
    move, over the iterations of one search.  ``table[move] = [mean, count]``; moves are keyed
    without their seat or position, so what is learnt in one line of play is reused in others."""

    __slots__ = ("table",)

    def __init__(self):
        self.table: dict = {}

    def value(self, move: Move) -> float:
        """The mean payoff of ``move`` for its player (0.0, neutral, when never played)."""
        e = self.table.get(move)
        return e[0] if e is not None else 0.0

    def update(self, trajectory, values: Sequence[float]) -> None:
        """Add one iteration: ``trajectory`` = ``(seat, move)`` pairs, ``values`` = payoffs."""
        table = self.table
        for seat, move in trajectory:
            e = table.get(move)
            if e is None:
                table[move] = [values[seat], 1]
            else:
                e[1] += 1
                e[0] += (values[seat] - e[0]) / e[1]


def playout(
    state: State,
    rng: random.Random,
    policy: str = "random",
    stop: StopFn | None = None,
    mast: MoveAverages | None = None,
    epsilon: float = 0.1,
    evaluator: Evaluator | None = None,
) -> list[float]:
    """Play ``state`` (mutated in place) to the end and return its payoffs per seat, in bets.

    ``policy``: ``"game"`` (the game's ``search_playout``: whichever of random and heuristic
    makes the search stronger at equal time in that game), ``"random"`` (uniform over legal
    moves), ``"heuristic"`` (the game's ``heuristic_move`` for the seat to act), ``"sparring"``
    (the game's ``sparring_move``, its strongest rule-based bot) or ``"mast"``
    (with probability ``epsilon`` a random move, else the legal move with the best
    :class:`MoveAverages` value in ``mast``, ties broken at random; the playout's moves are
    then added to ``mast``) or ``"evaluator"`` (every seat plays the move with the highest prior
    of ``evaluator``, e.g. a policy network, read from that seat's information; ties at random;
    a forced move without a call).  ``stop`` is polled every 4
    moves (every move with the heuristic); when it returns True the playout raises
    :class:`Aborted`.
    """
    if policy == "game":
        policy = state.game.search_playout
    legal_moves = state.legal_moves
    apply = state.apply_unchecked
    k = 0
    if policy == "random":
        rand = rng.random
        while True:
            moves = legal_moves()
            if not moves:
                return state.returns()
            apply(moves[int(rand() * len(moves))])
            k += 1
            if stop is not None and k % _STOP_EVERY == 0 and stop():
                raise Aborted()
    if policy == "mast":
        if mast is None:
            raise ValueError("playout: policy 'mast' needs a MoveAverages table")
        table = mast.table
        rand = rng.random
        trajectory: list = []
        while True:
            moves = state.legal_moves()
            n = len(moves)
            if not n:
                values = state.returns()
                mast.update(trajectory, values)
                return values
            if n == 1:
                move = moves[0]
            elif rand() < epsilon:
                move = moves[int(rand() * n)]
            else:
                r = int(rand() * n)
                best = -math.inf
                move = moves[r]
                for j in range(r, r + n):
                    m = moves[j - n] if j >= n else moves[j]
                    e = table.get(m)
                    q = e[0] if e is not None else 0.0
                    if q > best:
                        best = q
                        move = m
            trajectory.append((state.current_player, move))
            state.apply_unchecked(move)
            k += 1
            if stop is not None and k % _STOP_EVERY == 0 and stop():
                raise Aborted()
    if policy == "evaluator":
        if evaluator is None:
            raise ValueError("playout: policy 'evaluator' needs an evaluator")
        return _evaluator_playout(state, rng, evaluator, stop)
    if policy == "sparring":
        values = policy_playout(state, state.game.sparring_move, rng, stop)
    else:  # the heuristic: the game's own loop (compiled in some games), the same moves
        values = state.game.heuristic_playout(state, rng, stop)
    if values is None:
        raise Aborted()
    return values


def _evaluator_playout(
    state: State, rng: random.Random, evaluator: Evaluator, stop: StopFn | None
) -> list[float]:
    """:func:`playout` with policy ``"evaluator"``: one priors-only call per decision of more
    than one legal move; the highest prior wins, ties at random."""
    k = 0
    while True:
        moves = state.legal_moves()
        if not moves:
            return state.returns()
        if len(moves) == 1:
            move = moves[0]
        else:
            priors = evaluator.evaluate([state], [moves], rng, values=False, stop=stop)[0].priors
            best = max(priors)
            top = [i for i, p in enumerate(priors) if p == best]
            move = moves[top[0] if len(top) == 1 else top[int(rng.random() * len(top))]]
        state.apply_unchecked(move)
        k += 1
        if stop is not None and k % _STOP_EVERY == 0 and stop():
            raise Aborted()


class UniformEvaluator(Evaluator):
    """Uniform priors; values are the mean payoff of ``rollouts`` playouts with ``policy``.

    The network-free evaluator.  Priors are ``1 / len(moves)`` each; values (bets, per seat)
    come from playing clones of the state to the end.
    """

    name = "uniform"

    def __init__(self, rollouts: int = 1, policy: str = "random"):
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
            from quansu.search.config import SearchOptionError

            raise SearchOptionError(
                f"UniformEvaluator: rollouts must be a whole number >= 1, got {rollouts!r}"
            )
        if policy not in ("game", "random", "heuristic"):
            from quansu.search.config import SearchOptionError

            raise SearchOptionError(
                f"UniformEvaluator: policy {policy!r} is not game, random or heuristic"
            )
        self.rollouts = rollouts
        self.policy = policy

    def evaluate(self, states, moves, rng, *, values=True, stop=None):
        out = []
        for state, legal in zip(states, moves):
            k = len(legal)
            priors = [1.0 / k] * k
            if not values:
                out.append(Evaluation(priors))
                continue
            total = None
            for _ in range(self.rollouts):
                r = playout(state.clone(), rng, self.policy, stop)
                total = list(r) if total is None else [a + b for a, b in zip(total, r)]
            out.append(Evaluation(priors, [t / self.rollouts for t in total]))
        return out
