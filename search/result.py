"""What a search returns: statistics per root move and totals."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from quansu.games.base import Game, GameError, Move


@dataclass(frozen=True)
class MoveStats:
    """One root move of the observer.

    ``visits``: iterations that went through this move.  ``mean``: the mean payoff of the
    observer, in bets, over those iterations (0.0 when ``visits`` is 0).  ``prior``: the
    evaluator's prior, normalised over the root moves.  ``lcb``: ``mean - z * stderr`` in bets
    (the game's ``-payoff_bound()`` when ``visits < 2``).  ``line``: the principal line starting
    with this move, as ``(seat, move)`` pairs (after the root move, the most visited move of the
    most visited node, i.e. the most likely continuation).
    """

    move: Move
    visits: int
    mean: float
    prior: float
    lcb: float
    line: tuple[tuple[int, Move], ...]

    def to_dict(self, game: Game) -> dict[str, Any]:
        return {
            "move": game.move_to_text(self.move),
            "visits": self.visits,
            "mean": self.mean,
            "prior": self.prior,
            "lcb": self.lcb,
            "line": [[seat, game.move_to_text(m)] for seat, m in self.line],
        }


@dataclass(frozen=True)
class SearchResult:
    """The result of one search from the observer's information.

    ``moves``: every root move, best first (most visits, then higher mean, then legal order).
    ``iterations``: completed iterations.  ``determinizations``: determinizations drawn (one per
    started iteration, aborted ones included).  ``elapsed_s``: wall seconds.  ``tree_size``:
    nodes in the tree.  ``stopped``: why it ended (``"iterations"``, ``"time"``,
    ``"deadline"``, ``"cancelled"``, ``"forced"`` when the position had one legal move and no
    search ran, or ``"running"`` for a progress report).

    How deep the tree reaches (the planning the search does below the root):
    ``max_depth``: the deepest existing node an iteration selected a move from (root = 0);
    ``deep_share``: the share of iterations whose walk went through an existing node at depth
    >= 2 (a node below a root move's first reply); ``visits_below_root``: existing nodes
    selected from below the root, summed over the iterations.
    """

    observer: int
    moves: tuple[MoveStats, ...]
    iterations: int
    determinizations: int
    elapsed_s: float
    tree_size: int
    stopped: str
    extra: dict[str, Any] = field(default_factory=dict)
    max_depth: int = 0
    deep_share: float = 0.0
    visits_below_root: int = 0

    @property
    def best(self) -> MoveStats:
        """The most visited root move."""
        return self.moves[0]

    def choose(self, rng: random.Random | None = None, temperature: float = 0.0) -> Move:
        """The final move: the most visited one (``temperature`` 0), or a sample with weights
        ``visits ** (1 / temperature)`` drawn with ``rng``."""
        if temperature <= 0 or len(self.moves) == 1:
            return self.moves[0].move
        if rng is None:
            raise GameError("choose: a temperature above 0 needs an rng")
        top = max(m.visits for m in self.moves)
        if top == 0:
            return self.moves[0].move
        weights = [(m.visits / top) ** (1.0 / temperature) for m in self.moves]
        x = rng.random() * sum(weights)
        for m, w in zip(self.moves, weights):
            x -= w
            if x < 0:
                return m.move
        return self.moves[0].move

    def to_dict(self, game: Game) -> dict[str, Any]:
        """JSON-ready form, moves in the game's canonical notation."""
        return {
            "observer": self.observer,
            "iterations": self.iterations,
            "determinizations": self.determinizations,
            "elapsed_s": self.elapsed_s,
            "tree_size": self.tree_size,
            "stopped": self.stopped,
            "max_depth": self.max_depth,
            "deep_share": self.deep_share,
            "visits_below_root": self.visits_below_root,
            "moves": [m.to_dict(game) for m in self.moves],
            **self.extra,
        }
