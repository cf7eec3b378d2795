"""Policy-vs-policy matches on fixed deals (numpy only).  The search-level arena lives in
``search/``; this small one is what training needs to compare two networks cheaply."""

from __future__ import annotations

import math
import random
from typing import Callable, Sequence

from quansu.games.base import Deal, Game, State

Agent = Callable[[State, random.Random], object]


def policy_match(
    game: Game, agent_a: Agent, agent_b: Agent, deals: Sequence[Deal], rng: random.Random
) -> list[float]:
    """Play every deal ``num_players`` times, agent A in seat r (r = 0..N-1) and agent B in the
    other seats.  Returns, per deal, A's mean payoff in bets over the N rotations (positive =
    A is stronger)."""
    n = game.num_players
    scores = []
    for deal in deals:
        total = 0.0
        for r in range(n):
            state = game.state_from_deal(deal)
            while not state.is_terminal():
                agent = agent_a if state.current_player == r else agent_b
                state.apply(agent(state, rng))
            total += state.returns()[r]
        scores.append(total / n)
    return scores


def mean_ci(xs: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its normal ``z`` interval."""
    k = len(xs)
    if k == 0:
        return 0.0, 0.0, 0.0
    m = sum(xs) / k
    if k < 2:
        return m, m, m
    var = sum((x - m) ** 2 for x in xs) / (k - 1)
    h = z * math.sqrt(var / k)
    return m, m - h, m + h
