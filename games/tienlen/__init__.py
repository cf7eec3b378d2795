"""Tiến lên miền Nam (``games.make("tienlen", players, options)``): rules and
engine decisions in ``docs/rules/tienlen.md``.

Moves are ints: the mask of the cards played, ``0`` for pass.
"""

from quansu.games.tienlen.game import TienLenGame, TienLenState

GAME = TienLenGame

__all__ = ["GAME", "TienLenGame", "TienLenState"]
