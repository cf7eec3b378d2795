"""Strength levels 1..5 for bots in apps: an iteration budget and a move-choice temperature.

A level is defined by its iteration budget alone, never by wall time, so a level plays the same
on a busy machine as on an idle one and a game is reproducible by seed.  A caller that needs an
answer by a time limit passes a budget in milliseconds or a deadline; then (and only then) the
search may stop early, and the answer's ``stats.stopped_by`` says so.

Levels 4 and 5 always play their best move (strength first at the top): the most visited one,
or, in games that ship it (``Game.search_improve_worlds``), the move of the improvement step
(:mod:`search.improve`: a shorter search of ``improve_iterations`` proposes candidates, which
are measured against the game's sparring bot's own move on ``improve_share`` of the game's
worlds).  Levels 1..3
sample the final move from the visit counts with a temperature as well as searching less, so
they make human-like mistakes: a plausible but worse move, more often the lower the level
(docs/search.md, "Strength levels").  Levels 3-5 search with the game's root anchor on the
sparring bot's move (``Game.search_anchor``, where it measured stronger), levels 1-2 without.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from quansu.search.bots import ISMCTSBot
from quansu.search.config import SearchConfig, SearchOptionError
from quansu.search.evaluator import Evaluator
from quansu.search.improve import ImproveConfig


@dataclass(frozen=True)
class Level:
    """``iterations``: the search budget per decision (iterations of ISMCTS).  ``temperature``:
    0 = the most visited move, higher = a choice sampled by ``visits ** (1 / temperature)``.
    ``anchored``: the search uses the game's root anchor on the sparring bot's move
    (``Game.search_anchor``; levels 1-2 search without it, so their mistakes stay their own;
    a level's improvement step starts from that move itself and its search goes unanchored).
    ``improve_share``: in games with an improvement step (``Game.search_improve_worlds`` > 0),
    the share of the game's worlds this level's step plays (0: no step at this level), after a
    search of ``improve_iterations`` iterations instead of ``iterations``."""

    level: int
    iterations: int
    temperature: float
    anchored: bool = True
    improve_share: float = 0.0
    improve_iterations: int = 0

    def step(self, game) -> ImproveConfig | None:
        """The improvement step of this level in ``game`` (None: none)."""
        worlds = round(self.improve_share * game.search_improve_worlds)
        if worlds < 2:
            return None
        return ImproveConfig(
            worlds=worlds,
            candidates=game.search_improve_candidates,
            iterations=self.improve_iterations,
            playout=game.search_improve_playout,
            look=game.search_improve_look,
        )

    def plan(self, game) -> tuple[int, int]:
        """``(search iterations, improvement worlds)`` of this level in ``game`` (worlds 0: no
        improvement step)."""
        step = self.step(game)
        if step is None:
            return self.iterations, 0
        return step.iterations or self.iterations, step.worlds

    def to_dict(self) -> dict:
        return {
            "level": self.level,
            "iterations": self.iterations,
            "temperature": self.temperature,
            "anchored": self.anchored,
            "improve_share": self.improve_share,
            "improve_iterations": self.improve_iterations,
        }


LEVELS: dict[int, Level] = {
    1: Level(1, 10, 1.0, anchored=False),
    2: Level(2, 50, 0.5, anchored=False),
    3: Level(3, 200, 0.1),
    4: Level(4, 500, 0.0, improve_share=0.4, improve_iterations=200),
    5: Level(5, 1000, 0.0, improve_share=1.0, improve_iterations=200),
}


def _level(level: int) -> Level:
    if isinstance(level, bool) or level not in LEVELS:
        raise SearchOptionError(f"strength level {level!r} is not one of 1, 2, 3, 4, 5")
    return LEVELS[level]


def level_config(level: int, base: SearchConfig | None = None) -> SearchConfig:
    """The search config of a strength level (other settings from ``base``): the level's
    iterations and temperature, no wall-time limit, and no root anchor at the levels without
    one (``Level.anchored``)."""
    lv = _level(level)
    cfg = (base or SearchConfig()).replace(
        iterations=lv.iterations, time_s=None, temperature=lv.temperature
    )
    return cfg if lv.anchored else cfg.replace(anchor=0.0)


def served_improve_playout(playout: str, learned_policy: bool) -> str:
    """The improvement step's rollout policy as played: a game's ``"evaluator"`` rollouts need a
    learned policy (a network), else the sparring bot's (the levels and DescribeGames)."""
    return "sparring" if playout == "evaluator" and not learned_policy else playout


def level_bot(
    level: int, seed: int = 0, evaluator: Evaluator | None = None, base: SearchConfig | None = None
) -> ISMCTSBot:
    """An ISMCTS bot playing at ``level`` (1 weakest .. 5 full strength), with the level's
    improvement step in games that ship it."""
    return LevelBot(_level(level), level_config(level, base), evaluator, seed)


class LevelBot(ISMCTSBot):
    """The bot of a strength level: its search, and in games that ship it the level's
    improvement step (:meth:`Level.step`)."""

    def __init__(
        self, level: Level, config: SearchConfig, evaluator: Evaluator | None = None, seed: int = 0
    ):
        super().__init__(config, evaluator, seed, name=f"level{level.level}")
        self.level = level

    def improvement(self, game) -> ImproveConfig | None:
        """The level's step; a game that rolls out with the network
        (``search_improve_playout="evaluator"``) rolls out with its sparring bot when this bot's
        evaluator is no learned policy (``Evaluator.learned_policy``: the network-free search)."""
        step = self.level.step(game)
        if step is None:
            return None
        policy = self.evaluator is not None and self.evaluator.learned_policy
        return dataclasses.replace(step, playout=served_improve_playout(step.playout, policy))
