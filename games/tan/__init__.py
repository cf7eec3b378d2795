"""Tấn (Vietnamese Durak) for 2-4 players: ``games.make("tan", players, options)``.

Rules, options and this engine's decisions: ``docs/rules/tan.md``.
"""

from quansu.games.tan.game import TanGame
from quansu.games.tan.state import TanState

GAME = TanGame

__all__ = ["GAME", "TanGame", "TanState"]
