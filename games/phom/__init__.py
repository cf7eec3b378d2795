"""Phỏm (Tá lả), the northern Vietnamese rummy, for 2-4 players (rules: ``docs/rules/phom.md``).

``GAME`` registers the game as ``"phom"``.  Modules: :mod:`games.phom.rules` (pure functions on
card masks, the move values and the turn's phases), :mod:`games.phom.settle` (the payments),
:mod:`games.phom.state` (the State, one move per decision of a turn), :mod:`games.phom.game`
(the Game: options, deals, move text, bot wiring), :mod:`games.phom.view` (determinization and
rebuilding a deal from a seat's view), :mod:`games.phom.heuristic` (the rule-based club player).
"""

from quansu.games.phom.game import PhomGame
from quansu.games.phom.state import PhomState

GAME = PhomGame

__all__ = ["GAME", "PhomGame", "PhomState"]
