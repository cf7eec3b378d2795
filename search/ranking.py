"""The one ranking rule of hints (Suggest) and analysis (Analyze): what "best" means.

Rule (``docs/api.md``, "Ranking"):

1. A move is *measured* when it has at least :func:`min_visits` visits (4, or 5 % of the
   root's visits when that is more).  Measured moves come first, ranked by mean payoff
   (highest first; equal means by visits).  The first is the best move (``best_value``).
2. Moves with fewer visits follow, by visits: their mean rests on too few samples to rank them
   and they carry no lower bound (``few_visits``).
3. Equal choices: consecutive measured moves are grouped while their payoffs are statistically
   tied with the group's first move (difference within ``z`` standard errors of the difference,
   ``z`` = 2.5: the search's means are not independent samples, and the first of several noisy
   means is biased upward, so a 1.96 margin calls too few ties); group 0 holds the best move and
   the moves as good as it.
4. The most visited move (the bot's choice at temperature 0) is named as such when it is not
   the best move.

Analyze applies the same rule to its paired evaluation (:mod:`search.paired`): there every
candidate is measured on the same worlds, the value is the paired estimate and ties use the
paired difference.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from quansu.search.result import MoveStats, SearchResult

#: The fewest visits of a measured move, and its least share of the root's visits.
MIN_VISITS = 4
MIN_SHARE = 0.05
#: z of the equal-choice test.  2.5 rather than 1.96: over 24 positions of Tấn, Tiến lên and
#: Phỏm searched with 5 seeds (200 iterations), a move was in every seed's group 0 on 21 of 24
#: positions with 2.5 against 17 with 1.96, while group 0 grew from 3.66 to 3.74 moves on average.
TIE_Z = 2.5


def min_visits(total_visits: int) -> int:
    """Visits a move needs to be ranked by its payoff."""
    return max(MIN_VISITS, math.ceil(MIN_SHARE * total_visits))


@dataclass(frozen=True)
class RankedMove:
    """One move in the ranking.  ``stats``: the search's statistics.  ``measured``: ranked by
    its payoff (enough visits).  ``stderr``: the standard error of its mean payoff in bets
    (None below 2 visits).  ``lower_bound``: ``stats.lcb`` where it rests on at least 2 visits
    (None otherwise: no placeholder).  ``group``: equal-choice group (0: tied with the best
    move; unmeasured moves get the group after the last measured one).  ``most_visited``: the
    most visited move.  ``safest``: the highest lower bound among measured moves."""

    stats: MoveStats
    measured: bool
    stderr: float | None
    lower_bound: float | None
    group: int
    most_visited: bool
    safest: bool

    @property
    def move(self):
        return self.stats.move


def rank(result: SearchResult, lcb_z: float = 1.96, tie_z: float = TIE_Z) -> list[RankedMove]:
    """Every root move of ``result`` in the order of the ranking rule.  ``lcb_z``: the z the
    search used for ``MoveStats.lcb`` (``SearchConfig.lcb_z``), to recover standard errors."""
    moves = list(result.moves)
    total = sum(m.visits for m in moves)
    floor = min_visits(total)
    top_visits = max((m.visits for m in moves), default=0)
    most = next((m.move for m in moves if m.visits == top_visits), None) if top_visits else None

    def stderr(m: MoveStats) -> float | None:
        if m.visits < 2:
            return None
        if lcb_z <= 0:
            return 0.0
        return max(0.0, (m.mean - m.lcb) / lcb_z)

    measured = sorted((m for m in moves if m.visits >= floor), key=lambda m: (-m.mean, -m.visits))
    rest = [m for m in moves if m.visits < floor]  # already by visits (the search's order)
    safest = max(measured, key=lambda m: m.lcb).move if measured else None
    out: list[RankedMove] = []
    group, leader = -1, None
    for m in measured:
        if leader is not None:
            a, b = stderr(leader), stderr(m)
            if abs(leader.mean - m.mean) <= tie_z * math.hypot(a or 0.0, b or 0.0):
                out.append(RankedMove(m, True, b, m.lcb, group, m.move == most, m.move == safest))
                continue
        group += 1
        leader = m
        out.append(RankedMove(m, True, stderr(m), m.lcb, group, m.move == most, m.move == safest))
    for m in rest:
        se = stderr(m)
        out.append(
            RankedMove(
                m, False, se, m.lcb if se is not None else None, group + 1, m.move == most, False
            )
        )
    return out
