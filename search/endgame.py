"""Exact endgames: the perfect-information value of a determinization when few cards remain.

A determinization is a perfect-information game: every hand (and, in games with a stock, the
order of the stock) is fixed.  When few cards remain, :class:`EndgameSolver` plays it out
exactly instead of with a playout: a max^n search in which the seat to act picks the move that
maximises its own payoff (ties: the first such move in ``legal_moves()`` order), with a
transposition table keyed by :meth:`games.base.State.endgame_key`.  The table lives as long as
the solver (one search): late in a game the hidden cards are few, so many iterations draw the
same world and find their endgame already solved.

A game takes part by implementing :meth:`~games.base.State.endgame_size` (how much play is
left, compared with ``limit``) and :meth:`~games.base.State.endgame_key` (a hashable key that
fixes every continuation and its payoffs); the search never looks inside either.
"""

from __future__ import annotations

from typing import Hashable

from quansu.games.base import State


class _Over(Exception):
    """The node budget of one solve is spent."""


class EndgameSolver:
    """Exact values of small determinizations, shared across one search's iterations.

    ``limit``: a determinization is solved when ``state.endgame_size() <= limit`` (the game's
    unit, cards still to be played).  ``nodes``: positions expanded per solve before it gives up
    (then the caller plays out instead; positions solved before giving up stay in the table).
    ``table_size``: entries kept in the transposition table (cleared when full).

    Counters: ``solved`` (solves that finished), ``gave_up`` (solves over budget), ``expanded``
    (positions expanded in all).
    """

    def __init__(self, limit: int, nodes: int = 2000, table_size: int = 200_000):
        if limit < 0 or nodes < 1 or table_size < 1:
            raise ValueError("EndgameSolver: limit >= 0, nodes >= 1 and table_size >= 1")
        self.limit = limit
        self.nodes = nodes
        self.table_size = table_size
        self.table: dict[Hashable, tuple] = {}
        self.solved = 0
        self.gave_up = 0
        self.expanded = 0
        self._left = 0

    def applies(self, state: State) -> bool:
        """Whether ``state`` is small enough to solve (its game supports exact endgames)."""
        size = state.endgame_size()
        return size is not None and size <= self.limit

    def value(self, state: State) -> list[float] | None:
        """Payoff per seat (bets, every seat's own payoff) of ``state`` under max^n play, or
        None when the solve exceeds the node budget.  ``state`` is not modified."""
        if len(self.table) > self.table_size:
            self.table.clear()
        self._left = self.nodes
        try:
            v = self._solve(state)
        except _Over:
            self.gave_up += 1
            return None
        self.solved += 1
        return list(v)

    def _solve(self, st: State) -> tuple:
        key = st.endgame_key()
        table = self.table
        v = table.get(key)
        if v is not None:
            return v
        moves = st.legal_moves()
        if not moves:
            v = tuple(st.returns())
            table[key] = v
            return v
        self._left -= 1
        self.expanded += 1
        if self._left < 0:
            raise _Over
        me = st.current_player
        v = None
        for m in moves:
            c = st.clone()
            c.apply_unchecked(m)
            x = self._solve(c)
            if v is None or x[me] > v[me]:
                v = x
        table[key] = v
        return v
