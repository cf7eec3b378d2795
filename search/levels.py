"""Strength levels 1..5 for bots in apps: an iteration budget and a move-choice temperature.

A level is defined by its iteration budget alone, never by wall time, so a level plays the same
on a busy machine as on an idle one and a game is reproducible by seed.  A caller that needs an
answer by a time limit passes a budget in milliseconds or a deadline; then (and only then) the
search may stop early, and the answer's ``stats.stopped_by`` says so.

Levels 4 and 5 always play their best move (strength first at the top): the most visited one,
or, in games that ship it (``Game.search_improve``), the move of the improvement step
(:mod:`search.improve`: a shorter search proposes candidates, which are measured against the
game's sparring bot's own move on common sampled worlds; the level then defines ``improve``,
its worlds and the search's iterations in those games).  Levels 1..3
sample the final move from the visit counts with a temperature as well as searching less, so
they make human-like mistakes: a plausible but worse move, more often the lower the level
(docs/search.md, "Strength levels").
"""

from __future__ import annotations

from dataclasses import dataclass

from quansu.search.bots import ISMCTSBot
from quansu.search.config import SearchConfig, SearchOptionError
from quansu.search.evaluator import Evaluator
from quansu.search.improve import ImproveConfig


@dataclass(frozen=True)
class Level:
    """``iterations``: the search budget per decision (iterations of ISMCTS).  ``temperature``:
    0 = the most visited move, higher = a choice sampled by ``visits ** (1 / temperature)``.
    ``improve``: the improvement step in games that ship it (None: none), with its own search
    budget (``improve.iterations``) and worlds."""

    level: int
    iterations: int
    temperature: float
    improve: ImproveConfig | None = None

    def plan(self, game) -> tuple[int, int]:
        """``(search iterations, improvement worlds)`` of this level in ``game`` (worlds 0: no
        improvement step)."""
        if self.improve is not None and game.search_improve:
            return self.improve.iterations or self.iterations, self.improve.worlds
        return self.iterations, 0

    def to_dict(self) -> dict:
        return {"level": self.level, "iterations": self.iterations,
                "temperature": self.temperature,
                "improve": None if self.improve is None else self.improve.to_dict()}


LEVELS: dict[int, Level] = {
    1: Level(1, 10, 1.0),
    2: Level(2, 50, 0.5),
    3: Level(3, 200, 0.1),
    4: Level(4, 500, 0.0, ImproveConfig(worlds=64, candidates=4, iterations=200)),
    5: Level(5, 1000, 0.0, ImproveConfig(worlds=160, candidates=4, iterations=200)),
}


def _level(level: int) -> Level:
    if isinstance(level, bool) or level not in LEVELS:
        raise SearchOptionError(f"strength level {level!r} is not one of 1, 2, 3, 4, 5")
    return LEVELS[level]


def level_config(level: int, base: SearchConfig | None = None) -> SearchConfig:
    """The search config of a strength level (other settings from ``base``): the level's
    iterations and temperature, no wall-time limit."""
    lv = _level(level)
    return (base or SearchConfig()).replace(iterations=lv.iterations, time_s=None,
                                            temperature=lv.temperature)


def level_bot(level: int, seed: int = 0, evaluator: Evaluator | None = None,
              base: SearchConfig | None = None) -> ISMCTSBot:
    """An ISMCTS bot playing at ``level`` (1 weakest .. 5 full strength), with the level's
    improvement step in games that ship it."""
    return ISMCTSBot(level_config(level, base), evaluator, seed, name=f"level{level}",
                     improve=_level(level).improve)
