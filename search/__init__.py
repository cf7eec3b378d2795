"""Game-agnostic information-set Monte Carlo tree search, evaluators, bots and the arena.

Imports only :mod:`games.base` and :mod:`games.cards`; per-game knowledge reaches the search
through the game interface (``determinize``, ``information_state_key``, ``heuristic_move``).
"""

from search.config import SearchConfig, SearchOptionError
from search.evaluator import Evaluation, Evaluator, UniformEvaluator, playout
from search.ismcts import SearchError, search
from search.result import MoveStats, SearchResult

__all__ = ["Evaluation", "Evaluator", "MoveStats", "SearchConfig", "SearchError", "SearchOptionError",
           "SearchResult", "UniformEvaluator", "playout", "search"]
