"""Training samples: self-play game generation and the sample buffer (numpy only, no torch).

One sample is one decision: the acting seat's encoded state ``float32[state_dim]``, its legal
moves' rows ``float32[m, move_dim]``, the policy target ``float32[m]`` (sums to 1: the move the
heuristic bot chose, or the search's visit distribution; or, from :func:`advantage_game`, each
move's advantage in bets with NaN on moves not rolled out), and the value target ``float32[4]``:
a payoff in bets per relative seat (slot 0 = the acting seat): the game's final payoff, or the
heuristic move's rollout payoff for :func:`advantage_game` samples.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from quansu.games.base import Game, State
from quansu.models.encoders import MAX_SEATS, encoder_for
from quansu.search.evaluator import playout

#: policy(state, rng) -> (move to play, target distribution over state.legal_moves() or None)
Policy = Callable[[State, random.Random], tuple]

#: the rule-based bots that can play the self-play games and the rollouts: ``"heuristic"``
#: (``game.heuristic_move``, the club player) and ``"sparring"`` (``game.sparring_move``, the
#: strong rule-based baseline; a game without one falls back to its heuristic)
BOTS = ("heuristic", "sparring")


def bot_move(game: Game, bot: str = "heuristic") -> Callable:
    """``move(state, rng)`` of the rule-based ``bot`` (one of :data:`BOTS`)."""
    if bot not in BOTS:
        raise ValueError(f"unknown self-play bot {bot!r}; known: {', '.join(BOTS)}")
    return game.sparring_move if bot == "sparring" else game.heuristic_move


@dataclass
class GameSamples:
    states: list = field(default_factory=list)  # float32[S] each
    moves: list = field(default_factory=list)  # float32[m, F] each
    targets: list = field(default_factory=list)  # float32[m] each
    seats: list = field(default_factory=list)  # absolute seat of each decision
    returns: list | None = None  # final payoff per absolute seat
    values: list | None = None  # per decision: payoff per absolute seat


def play_game(
    game: Game, rng: random.Random, policy: Policy, *, record_forced: bool = False
) -> GameSamples:
    """Play one game where every seat uses ``policy``; record a sample at each decision with
    more than one legal move (``record_forced`` also records single-move decisions)."""
    enc = encoder_for(game)
    state = game.new_initial_state(rng)
    out = GameSamples()
    while not state.is_terminal():
        seat = state.current_player
        moves = state.legal_moves()
        move, target = policy(state, rng)
        if target is not None and (len(moves) > 1 or record_forced):
            out.states.append(enc.encode_state(state, seat))
            out.moves.append(enc.encode_moves(state, moves))
            out.targets.append(np.asarray(target, dtype=np.float32))
            out.seats.append(seat)
        state.apply(move)
    out.returns = list(state.returns())
    return out


def heuristic_policy(game: Game, epsilon: float = 0.0, bot: str = "heuristic") -> Policy:
    """The game's heuristic bot (or another rule-based ``bot`` of :data:`BOTS`); the target is
    its choice (one-hot).  With probability ``epsilon`` a uniformly random legal move is
    *played* instead (the target stays the bot's choice), for more varied positions."""
    choose = bot_move(game, bot)

    def policy(state: State, rng: random.Random):
        moves = state.legal_moves()
        choice = choose(state, rng)
        target = np.zeros(len(moves), dtype=np.float32)
        target[moves.index(choice)] = 1.0
        play = rng.choice(moves) if epsilon and rng.random() < epsilon else choice
        return play, target

    return policy


def advantage_game(
    game: Game,
    rng: random.Random,
    *,
    max_moves: int = 12,
    epsilon: float = 0.1,
    bot: str = "heuristic",
) -> GameSamples:
    """One heuristic self-play game (a share ``epsilon`` of moves random, for variety) whose
    samples carry rollout advantages: at every decision with more than one legal move, up to
    ``max_moves`` legal moves (the heuristic's move and a random choice of the others) are
    each played from the *true* state and continued by the heuristic bot at every seat to the
    end, all with the same random seed (common random numbers: the moves of one decision share
    the hidden cards and the draws, so their differences carry no luck between them).

    Policy target per move row: that move's payoff for the acting seat minus the mean over the
    rolled-out moves (bets), NaN for moves not rolled out.  Value target: the heuristic
    move's rollout payoffs (an unbiased sample of the heuristic's value from this
    information state, since the hidden cards are drawn as the deal drew them).

    This is one step of policy improvement over the heuristic bot (the rollout policy of
    Bertsekas, Tesauro and Galperin): a network that learns the expected advantages from the
    acting seat's information plays better than the heuristic against it.

    ``bot`` (:data:`BOTS`): the rule-based bot that plays the game and the rollouts, the
    heuristic by default; with ``"sparring"`` the game's sparring bot does both (the "heuristic
    move" above is then the sparring bot's; the encoder's heuristic-choice feature stays the
    heuristic bot's, so the network's inputs do not change).
    """
    choose = bot_move(game, bot)
    enc = encoder_for(game)
    state = game.new_initial_state(rng)
    out = GameSamples()
    out.values = []
    while not state.is_terminal():
        seat = state.current_player
        moves = state.legal_moves()
        choice = choose(state, rng)
        if len(moves) > 1:
            hi = moves.index(choice)
            idx = list(range(len(moves)))
            if len(moves) > max_moves:
                others = [i for i in idx if i != hi]
                idx = [hi] + rng.sample(others, max_moves - 1)
            seed = rng.getrandbits(64)
            pays = {}
            for i in idx:
                child = state.clone()
                child.apply(moves[i])
                pays[i] = list(playout(child, random.Random(seed), bot))
            mean = sum(p[seat] for p in pays.values()) / len(pays)
            target = np.full(len(moves), np.nan, dtype=np.float32)
            for i, p in pays.items():
                target[i] = p[seat] - mean
            out.states.append(enc.encode_state(state, seat))
            out.moves.append(enc.encode_moves(state, moves))
            out.targets.append(target)
            out.seats.append(seat)
            out.values.append(pays[hi])
        state.apply(rng.choice(moves) if epsilon and rng.random() < epsilon else choice)
    out.returns = list(state.returns())
    return out


class Buffer:
    """Samples in flat numpy arrays (a replay window of at most ``capacity`` decisions).

    ``states[T, S]`` float16, ``values[T, 4]`` float32 (bets, relative seats), ``moves[Mtot, F]``
    float16, ``targets[Mtot]`` float32, ``start[T]``/``count[T]`` int64 (each state's move rows).
    """

    def __init__(self, state_dim: int, move_dim: int, capacity: int = 200_000):
        self.state_dim, self.move_dim, self.capacity = state_dim, move_dim, capacity
        self._games: list[tuple] = []
        self.size = 0
        self.games = 0
        self._arrays = None

    def add_game(self, g: GameSamples, num_players: int) -> None:
        if not g.states:
            return
        vals = np.zeros((len(g.states), MAX_SEATS), dtype=np.float32)
        for i, seat in enumerate(g.seats):
            ret = g.values[i] if g.values is not None else g.returns
            for r in range(num_players):
                vals[i, r] = ret[(seat + r) % num_players]
        counts = np.array([len(t) for t in g.targets], dtype=np.int64)
        self._games.append(
            (
                np.stack(g.states).astype(np.float16),
                vals,
                np.concatenate(g.moves).astype(np.float16),
                np.concatenate(g.targets),
                counts,
            )
        )
        self.size += len(g.states)
        self.games += 1
        while self.size > self.capacity and len(self._games) > 1:
            self.size -= len(self._games.pop(0)[0])
        self._arrays = None

    def arrays(self):
        """``(states, values, moves, targets, start, count)`` (see the class docstring)."""
        if self._arrays is None:
            st = np.concatenate([g[0] for g in self._games])
            va = np.concatenate([g[1] for g in self._games])
            mv = np.concatenate([g[2] for g in self._games])
            tg = np.concatenate([g[3] for g in self._games])
            cnt = np.concatenate([g[4] for g in self._games])
            start = np.concatenate([[0], np.cumsum(cnt)[:-1]]).astype(np.int64)
            self._arrays = (st, va, mv, tg, start, cnt)
        return self._arrays

    def batch(self, idx: np.ndarray):
        """Gather states ``idx``: ``(states[B,S], values[B,4], moves[M,F], targets[M],
        move_state[M])`` as float32/int64 arrays."""
        st, va, mv, tg, start, cnt = self.arrays()
        c = cnt[idx]
        move_state = np.repeat(np.arange(len(idx), dtype=np.int64), c)
        offs = np.arange(c.sum()) - np.repeat(np.cumsum(c) - c, c)
        rows = np.repeat(start[idx], c) + offs
        return (
            st[idx].astype(np.float32),
            va[idx],
            mv[rows].astype(np.float32),
            tg[rows],
            move_state,
        )
