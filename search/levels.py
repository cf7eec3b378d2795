"""Strength levels 1..5 for bots in apps: a search budget and a move-choice temperature.

Level 5 is the full strength (largest budget, always the most visited move).  Lower levels search
less and sample the final move from the visit counts with a temperature, so they make human-like
mistakes: a plausible but worse move, more often the lower the level.  The temperature is what
separates the upper levels: beyond a few hundred iterations extra search buys little in these
games, while sampling the move costs a measurable share of the payoff (docs/search.md, "Strength
levels").  Every level has an iteration budget and a wall-time cap (seconds per decision); the
iteration budget is usually reached first, which keeps games reproducible by seed.
"""

from __future__ import annotations

from dataclasses import dataclass

from quansu.search.bots import ISMCTSBot
from quansu.search.config import SearchConfig, SearchOptionError
from quansu.search.evaluator import Evaluator


@dataclass(frozen=True)
class Level:
    """``iterations`` and ``time_s``: the search budget per decision (the first reached stops
    it).  ``temperature``: 0 = most visited move, higher = more random choice by visits."""

    level: int
    iterations: int
    time_s: float
    temperature: float


LEVELS: dict[int, Level] = {
    1: Level(1, 10, 0.1, 1.0),
    2: Level(2, 50, 0.25, 1.0),
    3: Level(3, 200, 0.5, 1.0),
    4: Level(4, 500, 1.0, 0.6),
    5: Level(5, 1500, 3.0, 0.0),
}


def _level(level: int) -> Level:
    if isinstance(level, bool) or level not in LEVELS:
        raise SearchOptionError(f"strength level {level!r} is not one of 1, 2, 3, 4, 5")
    return LEVELS[level]


def level_config(level: int, base: SearchConfig | None = None) -> SearchConfig:
    """The search config of a strength level (other settings from ``base``)."""
    lv = _level(level)
    return (base or SearchConfig()).replace(iterations=lv.iterations, time_s=lv.time_s,
                                            temperature=lv.temperature)


def level_bot(level: int, seed: int = 0, evaluator: Evaluator | None = None,
              base: SearchConfig | None = None) -> ISMCTSBot:
    """An ISMCTS bot playing at ``level`` (1 weakest .. 5 full strength)."""
    return ISMCTSBot(level_config(level, base), evaluator, seed, name=f"level{level}")
