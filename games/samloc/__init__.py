"""Sâm lốc (Sâm, northern shedding game): rules engine on the common interface.

``GAME`` registers the game as ``"samloc"``.  Moves are ints: the mask of the cards played,
``PASS`` (0), ``DECLARE`` and ``DECLINE`` (the báo sâm decisions).
"""

from quansu.games.samloc.game import DECLARE, DECLINE, PASS, SamlocGame, SamlocState

GAME = SamlocGame

__all__ = ["GAME", "DECLARE", "DECLINE", "PASS", "SamlocGame", "SamlocState"]
