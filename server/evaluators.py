"""The evaluator each game's searches use, chosen once at startup.

For every registered game the service loads the game's network (``models/<game>.onnx``, or a
path given with ``quansu serve --model GAME=PATH``) when one exists, and otherwise uses the
network-free :class:`search.evaluator.UniformEvaluator` (reported as ``"uniform"``).  A model
file that exists but does not load or does not match the game's encoder stops the start with
its :class:`models.evaluator.ModelError` rather than silently serving without it.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from quansu.games.base import Game, GameError
from quansu.games.registry import game_classes, make
from quansu.search.config import SearchConfig
from quansu.search.evaluator import Evaluator, UniformEvaluator

UNIFORM = "uniform"
#: The most evaluators (one per game, player count and option set) an :class:`EvaluatorSet`
#: keeps; the least recently used goes first.
MAX_NETWORKS = 32


@dataclass
class _Entry:
    model_name: str
    model: object | None  # models.evaluator.PolicyValueModel


class EvaluatorSet:
    """game name -> the evaluator its searches use.

    ``uniform``: use the uniform evaluator for every game.  ``paths``: game name -> model file
    overriding the shipped one (the file must exist).
    """

    def __init__(self, uniform: bool = False, paths: Mapping[str, str] | None = None):
        paths = dict(paths or {})
        names = list(game_classes())
        for name in paths:
            if name not in names:
                raise GameError(
                    f"--model {name}=...: unknown game; known games: {', '.join(names)}"
                )
        self._entries: dict[str, _Entry] = {}
        # (game, players, options) -> its evaluator, least recently used first; at most
        # MAX_NETWORKS (their cached answers share one bounded cache: models/evaluator.py)
        self._networks: OrderedDict = OrderedDict()
        for name in names:
            self._entries[name] = self._load(name, paths.get(name), uniform)

    @staticmethod
    def _load(name: str, path: str | None, uniform: bool) -> _Entry:
        if uniform and path is None:
            return _Entry(UNIFORM, None)
        try:
            from quansu.models.evaluator import default_model_path, load_model
        except ImportError:
            if path is not None:
                raise
            return _Entry(UNIFORM, None)
        file = Path(path) if path is not None else default_model_path(name)
        if path is None and not file.is_file():
            return _Entry(UNIFORM, None)
        model = load_model(make(name, game_classes()[name].max_players), file)
        return _Entry(file.name, model)

    def model_names(self) -> dict[str, str]:
        """game name -> the loaded model's name (``"uniform"`` without a network)."""
        return {name: e.model_name for name, e in self._entries.items()}

    def model_name(self, game_name: str) -> str:
        return self._entries[game_name].model_name

    def for_game(self, game: Game) -> tuple[Evaluator, SearchConfig]:
        """The evaluator for ``game`` and the base search settings that go with it (rollout
        leaves for the uniform evaluator, :func:`models.bots.guided_config` otherwise)."""
        entry = self._entries.get(game.name)
        if entry is None or entry.model is None:
            return UniformEvaluator(), SearchConfig(leaf_value="rollout", playout="game")
        key = (game.name, game.num_players, repr(sorted(game.options.items())))
        ev = self._networks.get(key)
        if ev is None:
            from quansu.models.evaluator import NetworkEvaluator

            ev = self._networks[key] = NetworkEvaluator(game, entry.model)
            if len(self._networks) > MAX_NETWORKS:
                self._networks.popitem(last=False)
        else:
            self._networks.move_to_end(key)
        from quansu.models.bots import guided_config

        return ev, guided_config(ev)
