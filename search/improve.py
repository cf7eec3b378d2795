"""One step of rollout policy improvement over a rule-based base policy (issue 19).

On-line policy improvement (Tesauro and Galperin 1996): to improve on a base policy at a
decision, play each candidate move followed by the base policy to the end, many times, and keep
the candidate with the best mean.  Against opponents who play like the base policy the rollouts
model them exactly, and the improved move is at least as good as the base policy's own move up
to the sampling error, which the paired evaluation keeps small.  Here, at a decision of the
seat to act:

1. the **reference** is the base policy's own move (``base``: the game's sparring bot, its
   strongest rule-based player, or its heuristic);
2. the **candidates** are the ``candidates`` first moves of an ISMCTS result for the same
   position (most visited first; the caller's search, e.g. 200 iterations guided by the
   network);
3. every candidate and the reference are evaluated on ``worlds`` common determinizations drawn
   from the seat's information, each followed by ``playout`` for every seat to the end
   (:func:`search.paired.paired_evaluate`: the same hidden cards and continuation random
   numbers for every candidate, so the differences are measured with far fewer worlds);
4. the move is the candidate with the highest paired value if it beats the reference by more
   than ``z`` standard errors of the paired difference, else the reference.

So the result never trades the base policy's move for a candidate on noise alone.  The cost per
decision is ``worlds`` x (candidates + 1) playouts on top of the search (fewer when candidates
coincide with the reference).  Game-agnostic: it reads the game through the interface
(``sparring_move``, ``heuristic_move`` and what :mod:`search.paired` uses).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable

from quansu.games.base import Move, State
from quansu.search.config import SearchOptionError
from quansu.search.evaluator import Evaluator
from quansu.search.paired import PairedConfig, PairedResult, paired_evaluate
from quansu.search.result import SearchResult

_BASES = ("sparring", "heuristic")
_PLAYOUTS = ("sparring", "heuristic", "game", "random", "evaluator")


@dataclass(frozen=True)
class ImproveConfig:
    """Settings of the improvement step (checked on construction; a bad value raises
    :class:`search.config.SearchOptionError` naming the field).

    ``worlds``: common determinizations per decision (0: no improvement step).
    ``candidates``: how many of the search's moves are evaluated besides the reference.
    ``z``: how many standard errors of the paired difference a candidate must beat the
    reference by.  ``playout``: the continuation policy of every seat (``"sparring"``,
    ``"heuristic"``, ``"game"``, ``"random"``, or ``"evaluator"``: the highest prior of the
    search's evaluator, e.g. the game's network).  ``base``: the reference policy
    (``"sparring"`` or ``"heuristic"``).  ``iterations``: the budget of the search that proposes
    the candidates when this step runs (0: the caller's search budget unchanged).  ``look``:
    worlds between two looks of the early stop (0: none, every candidate plays every world): at
    each look a candidate that would need more than ``margin`` standard errors of luck to pass
    the test at ``worlds`` is dropped, and the step ends, with the reference, once none is left
    (:class:`search.paired.PairedConfig` ``beat``).
    """

    worlds: int = 0
    candidates: int = 4
    z: float = 1.0
    playout: str = "sparring"
    base: str = "sparring"
    iterations: int = 0
    look: int = 0
    margin: float = 1.0

    def __post_init__(self) -> None:
        for name, lo in (("worlds", 0), ("candidates", 1), ("iterations", 0), ("look", 0)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < lo or v > 100000:
                raise SearchOptionError(
                    f"improve option {name!r}: expected a whole number in [{lo}, 100000], got {v!r}"
                )
        if self.look == 1:
            raise SearchOptionError(
                "improve option 'look': 1 world between looks gives no standard error; "
                "use 0 (no early stop) or at least 2"
            )
        if self.worlds == 1:
            raise SearchOptionError(
                "improve option 'worlds': 1 world gives no standard error; "
                "use 0 (off) or at least 2"
            )
        z = self.z
        if isinstance(z, bool) or not isinstance(z, (int, float)) or not 0 <= z <= 10:
            raise SearchOptionError(f"improve option 'z': expected a number in [0, 10], got {z!r}")
        m = self.margin
        if isinstance(m, bool) or not isinstance(m, (int, float)) or not 0 <= m <= 10:
            raise SearchOptionError(
                f"improve option 'margin': expected a number in [0, 10], got {m!r}"
            )
        if self.playout not in _PLAYOUTS:
            raise SearchOptionError(
                f"improve option 'playout': expected one of "
                f"{', '.join(_PLAYOUTS)}, got {self.playout!r}"
            )
        if self.base not in _BASES:
            raise SearchOptionError(
                f"improve option 'base': expected one of {', '.join(_BASES)}, got {self.base!r}"
            )


@dataclass(frozen=True)
class Improvement:
    """What the improvement step decided.  ``move``: the move to play.  ``reference``: the base
    policy's move.  ``paired``: the paired evaluation (None when the search's candidates were
    the reference alone, so nothing needed measuring).  ``changed``: ``move != reference``."""

    move: Move
    reference: Move
    paired: PairedResult | None

    @property
    def changed(self) -> bool:
        return self.move != self.reference


def improve(
    state: State,
    result: SearchResult,
    config: ImproveConfig,
    *,
    seed: int,
    deadline: float | None = None,
    stop: Callable[[], bool] | None = None,
    clock: Callable[[], float] = time.monotonic,
    evaluator: Evaluator | None = None,
) -> Improvement:
    """The improved move for the seat to act in ``state`` (non-terminal, more than one legal
    move), given ``result``, a search of the same position from that seat's information.
    Deterministic in ``seed``.  ``deadline`` (absolute ``clock()`` time) and ``stop()`` cut the
    evaluation short; it then decides on the worlds played so far (the reference when none).
    ``evaluator``: the rollout policy of ``config.playout="evaluator"`` (a
    :class:`search.config.SearchOptionError` when that playout has none)."""
    game = state.game
    rng = random.Random(seed)
    ref_rng = random.Random(rng.getrandbits(63))
    base = game.sparring_move if config.base == "sparring" else game.heuristic_move
    reference = base(state, ref_rng)
    ranked = sorted(result.moves, key=lambda m: (-m.visits, -m.mean))
    candidates = [m.move for m in ranked[: config.candidates]]
    if not config.worlds or candidates == [reference]:
        return Improvement(reference, reference, None)
    early = 0 < config.look < config.worlds
    first = config.look if early else config.worlds
    pcfg = PairedConfig(
        min_worlds=first,
        max_worlds=config.worlds,
        batch=first,
        playout=config.playout,
        futility=0.0,
        beat=early,
        beat_z=config.z,
        beat_margin=config.margin,
    )
    pr = paired_evaluate(
        state,
        candidates,
        reference,
        config=pcfg,
        seed=rng.getrandbits(63),
        deadline=deadline,
        stop=stop,
        clock=clock,
        evaluator=evaluator,
    )
    # the best candidate played on every world (a dropped one was measured on fewer)
    top = next(m for m in pr.moves if not m.dropped)
    if top.move != reference and pr.worlds >= 2 and top.diff - config.z * top.diff_stderr > 0:
        return Improvement(top.move, reference, pr)
    return Improvement(reference, reference, pr)
