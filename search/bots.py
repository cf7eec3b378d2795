"""Bots: ``choose(state, seat) -> move`` from ``seat``'s information only.

* :class:`RandomBot`: a uniformly random legal move.
* :class:`HeuristicBot`: the game's rule-based club-player policy (``game.heuristic_move``).
* :class:`SparringBot`: the game's strong rule-based sparring policy (``game.sparring_move``;
  games without one play their heuristic).
* :class:`PIMCBot`: perfect-information Monte Carlo, the classical baseline: it samples
  determinizations ("worlds") of the hidden cards and runs a perfect-information tree search in
  each (the search with ``assume_state_known=True`` on the world), then plays the move with the
  most visits summed over the worlds (determinized UCT ensemble); the mean value reported is the
  visit-weighted mean over worlds.
* :class:`ISMCTSBot`: the information-set search.
* ``improve`` (an :class:`ISMCTSBot` with an improvement step in every game): one step of
  rollout policy improvement over the sparring bot (Tesauro and Galperin's on-line policy
  improvement, :mod:`search.improve`): a short ISMCTS proposes candidates, the sparring bot's
  own move is the reference, and every candidate is evaluated against it on common sampled
  worlds with the sparring policy playing every seat to the end; the bot leaves the sparring
  bot's move only for a candidate measured better by ``z`` standard errors.

Every bot owns a ``random.Random`` (from the ``seed`` it is built with), so a game between bots is
reproducible.  :func:`make_bot` builds a bot from a text spec such as ``"ismcts:iterations=200"``.
"""

from __future__ import annotations

import random
from typing import Any

from quansu.games.base import GameError, Move, State
from quansu.search.config import FIELDS, SearchConfig, SearchOptionError, from_dict
from quansu.search.evaluator import Evaluator
from quansu.search.improve import ImproveConfig, Improvement
from quansu.search.improve import improve as improve_move
from quansu.search.ismcts import search
from quansu.search.result import SearchResult


class Bot:
    """The bot interface.  ``name``: the spec it was built from (for reports)."""

    name: str = "bot"

    def choose(self, state: State, seat: int) -> Move:
        """The move for ``seat``, which must be the seat to act in ``state``.  Uses only what
        ``seat`` may know."""
        raise NotImplementedError

    @staticmethod
    def _check(state: State, seat: int) -> list:
        if state.is_terminal():
            raise GameError("the game is over: no move to choose")
        if state.current_player != seat:
            raise GameError(f"seat {seat} is not to act (seat {state.current_player} is)")
        return state.legal_moves()


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> Move:
        legal = self._check(state, seat)
        return legal[self.rng.randrange(len(legal))]


class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> Move:
        self._check(state, seat)
        return state.game.heuristic_move(state, self.rng)


class SparringBot(Bot):
    name = "sparring"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> Move:
        self._check(state, seat)
        return state.game.sparring_move(state, self.rng)


class ISMCTSBot(Bot):
    """ISMCTS with ``config`` (its ``temperature`` picks the final move) and ``evaluator``.

    ``improve``: an improvement step after the search in every game (:mod:`search.improve`: the
    search's best moves measured against the sparring bot's own move on common sampled worlds;
    level bots take their step from the game instead, :class:`search.levels.LevelBot`); when
    it applies, the search runs ``improve.iterations`` iterations (if set) and the step's move
    is played.  ``last_result``: the :class:`SearchResult` of the latest search and
    ``last_improvement`` the latest :class:`search.improve.Improvement` (None when the move was
    forced or no step ran).
    """

    name = "ismcts"

    def __init__(
        self,
        config: SearchConfig | None = None,
        evaluator: Evaluator | None = None,
        seed: int = 0,
        name: str | None = None,
        *,
        improve: ImproveConfig | None = None,
    ):
        self.config = config or SearchConfig()
        self.evaluator = evaluator
        self.rng = random.Random(seed)
        self.improve = improve if improve is not None and improve.worlds else None
        self.last_result: SearchResult | None = None
        self.last_improvement: Improvement | None = None
        if name:
            self.name = name

    def improvement(self, game) -> ImproveConfig | None:
        """The improvement step this bot runs in ``game`` (None: none)."""
        return self.improve

    def choose(self, state: State, seat: int) -> Move:
        legal = self._check(state, seat)
        self.last_improvement = None
        if len(legal) == 1:
            self.last_result = None
            return legal[0]
        cfg = self.config
        step = self.improvement(state.game)
        if step is not None:
            # the step measures the search's moves against the sparring bot's own move, which
            # it adds itself: its search proposes alternatives, unanchored
            cfg = cfg.replace(anchor=0.0)
            if step.iterations:
                cfg = cfg.replace(iterations=step.iterations, time_s=None)
        res = search(state, cfg, self.evaluator, seed=self.rng.getrandbits(63))
        self.last_result = res
        if step is not None:
            self.last_improvement = improve_move(
                state, res, step, seed=self.rng.getrandbits(63), evaluator=self.evaluator
            )
            return self.last_improvement.move
        return res.choose(self.rng, self.config.temperature)


class PIMCBot(Bot):
    """Perfect-information Monte Carlo over ``worlds`` determinizations.

    The budget in ``config`` (``iterations`` and/or ``time_s``) is the total for one decision,
    split evenly over the worlds.
    """

    name = "pimc"

    def __init__(
        self,
        worlds: int = 10,
        config: SearchConfig | None = None,
        evaluator: Evaluator | None = None,
        seed: int = 0,
        name: str | None = None,
    ):
        if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
            raise SearchOptionError(f"pimc: worlds must be a whole number >= 1, got {worlds!r}")
        self.worlds = worlds
        self.config = config or SearchConfig()
        self.evaluator = evaluator
        self.rng = random.Random(seed)
        self.last_values: dict | None = None
        if name:
            self.name = name

    def _world_config(self) -> SearchConfig:
        cfg = self.config
        changes: dict[str, Any] = {}
        if cfg.iterations is not None:
            changes["iterations"] = max(1, cfg.iterations // self.worlds)
        if cfg.time_s is not None:
            changes["time_s"] = cfg.time_s / self.worlds
        return cfg.replace(**changes)

    def choose(self, state: State, seat: int) -> Move:
        legal = self._check(state, seat)
        if len(legal) == 1:
            return legal[0]
        wcfg = self._world_config()
        visits = {m: 0 for m in legal}
        total = {m: 0.0 for m in legal}
        for _ in range(self.worlds):
            world = state.determinize(seat, self.rng)
            res = search(
                world, wcfg, self.evaluator, seed=self.rng.getrandbits(63), assume_state_known=True
            )
            for ms in res.moves:
                visits[ms.move] += ms.visits
                total[ms.move] += ms.mean * ms.visits
        self.last_values = {
            m: (visits[m], total[m] / visits[m] if visits[m] else 0.0) for m in legal
        }
        return max(legal, key=lambda m: (visits[m], total[m]))


BOT_KINDS = (
    "random",
    "heuristic",
    "sparring",
    "ismcts",
    "pimc",
    "improve",
    "level1",
    "level2",
    "level3",
    "level4",
    "level5",
)


def _parse_value(text: str) -> Any:
    low = text.lower()
    if low in ("none", "null"):
        return None
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"kind:key=value:key=value"`` into the kind and its settings (values parsed as
    numbers, booleans, ``none`` or text).  Raises :class:`SearchOptionError` on a bad spec."""
    if not isinstance(spec, str) or not spec.strip():
        raise SearchOptionError(f"bad bot spec {spec!r}: expected e.g. 'ismcts:iterations=200'")
    parts = spec.strip().split(":")
    kind = parts[0].lower()
    if kind not in BOT_KINDS:
        raise SearchOptionError(
            f"unknown bot {parts[0]!r} in {spec!r}; known bots: {', '.join(BOT_KINDS)}"
        )
    settings: dict[str, Any] = {}
    for p in parts[1:]:
        if "=" not in p:
            raise SearchOptionError(f"bad bot setting {p!r} in {spec!r}: expected key=value")
        k, v = p.split("=", 1)
        settings[k.strip()] = _parse_value(v.strip())
    return kind, settings


def make_bot(spec: str, seed: int = 0, evaluator: Evaluator | None = None) -> Bot:
    """A bot from a spec: ``random``, ``heuristic``, ``sparring``, ``ismcts[:field=value...]`` (any
    :class:`SearchConfig` field, e.g. ``ismcts:iterations=200:opponent_keys=observer``),
    ``pimc[:worlds=N][:field=value...]`` (the budget is per decision),
    ``improve[:worlds=N][:candidates=K][:z=Z][:base=sparring|heuristic][:rollout=POLICY]
    [:field=value...]`` (a search, 200 iterations unless set, then the improvement step in
    every game; defaults: 64 worlds, :class:`search.improve.ImproveConfig`) or ``level1`` .. ``level5``
    (``level3:playout=heuristic``: other search settings under the level's budget and temperature).
    Raises :class:`SearchOptionError` naming what is wrong."""
    from quansu.search.levels import level_bot

    kind, settings = parse_bot_spec(spec)
    if kind in ("random", "heuristic", "sparring"):
        if settings:
            raise SearchOptionError(f"bot {kind!r} takes no settings, got {sorted(settings)}")
        return {"random": RandomBot, "heuristic": HeuristicBot, "sparring": SparringBot}[kind](seed)
    if kind.startswith("level"):
        fixed = [k for k in settings if k in ("iterations", "time_s", "temperature")]
        if fixed:
            raise SearchOptionError(
                f"bot {kind!r}: {fixed[0]!r} is set by the level; other search "
                f"settings may be given (e.g. {kind}:playout=heuristic)"
            )
        base = from_dict(settings) if settings else None
        bot = level_bot(int(kind[5:]), seed=seed, evaluator=evaluator, base=base)
        bot.name = spec
        return bot
    if kind == "pimc":
        worlds = settings.pop("worlds", 10)
        unknown = [k for k in settings if k not in FIELDS]
        if unknown:
            raise SearchOptionError(
                f"unknown setting {unknown[0]!r} for pimc in {spec!r}; "
                f"known: worlds, {', '.join(FIELDS)}"
            )
        return PIMCBot(worlds, from_dict(settings), evaluator, seed, name=spec)
    if kind == "improve":
        own: dict[str, Any] = {
            k: settings.pop(k)
            for k in ("candidates", "worlds", "z", "base", "look", "margin")
            if k in settings
        }
        if "rollout" in settings:
            own["playout"] = settings.pop("rollout")
        unknown = [k for k in settings if k not in FIELDS]
        if unknown:
            raise SearchOptionError(
                f"unknown setting {unknown[0]!r} for improve in {spec!r}; "
                f"known: candidates, worlds, z, base, look, margin, rollout, {', '.join(FIELDS)}"
            )
        cfg = from_dict({"iterations": 200, **settings})
        return ISMCTSBot(
            cfg, evaluator, seed, name=spec, improve=ImproveConfig(**{"worlds": 64, **own})
        )
    return ISMCTSBot(from_dict(settings), evaluator, seed, name=spec)
