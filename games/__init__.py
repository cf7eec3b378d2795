"""Rules engines behind one interface (:mod:`games.base`).  ``games.make(name, players, options)``."""

from quansu.games.base import (
    TERMINAL,
    Deal,
    DealError,
    Game,
    GameError,
    IllegalMoveError,
    MoveInfo,
    MoveParseError,
    OptionError,
    OptionSpec,
    State,
)
from quansu.games.registry import game_classes, game_names, make

__all__ = [
    "TERMINAL",
    "Deal",
    "DealError",
    "Game",
    "GameError",
    "IllegalMoveError",
    "MoveInfo",
    "MoveParseError",
    "OptionError",
    "OptionSpec",
    "State",
    "game_classes",
    "game_names",
    "make",
]
