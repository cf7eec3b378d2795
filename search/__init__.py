"""Game-agnostic information-set Monte Carlo tree search, evaluators, bots and the arena.

Imports only :mod:`games.base` and :mod:`games.cards`; per-game knowledge reaches the search
through the game interface (``determinize``, ``information_state_key``, ``heuristic_move``).
"""

from quansu.search.config import SearchConfig, SearchOptionError
from quansu.search.evaluator import Evaluation, Evaluator, UniformEvaluator, playout
from quansu.search.ismcts import SearchError, search
from quansu.search.result import MoveStats, SearchResult

__all__ = [
    "Evaluation",
    "Evaluator",
    "MoveStats",
    "SearchConfig",
    "SearchError",
    "SearchOptionError",
    "SearchResult",
    "UniformEvaluator",
    "playout",
    "search",
]
