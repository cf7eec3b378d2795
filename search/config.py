"""Search settings as a frozen dataclass, checked on construction.

Every bad value raises :class:`SearchOptionError` (an :class:`games.base.OptionError`, hence a
:class:`games.base.GameError`) naming the field, so the service can answer "invalid argument".
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Mapping

from quansu.games.base import OptionError


class SearchOptionError(OptionError):
    """A bad search setting (unknown name, wrong type or out of range)."""


LEAF_VALUES = ("rollout", "evaluator", "mix")
PLAYOUTS = ("game", "random", "heuristic", "sparring", "mast")
OPPONENT_KEYS = ("game", "own", "observer", "model")
OPPONENT_POLICIES = ("heuristic", "sparring", "random")


@dataclass(frozen=True)
class SearchConfig:
    """How one ISMCTS search runs (:func:`search.ismcts.search`); every field is checked here.

    The search stops at the first budget reached (``iterations``, ``time_s``, or the caller's
    deadline or cancel event; at least one must be set).  Each iteration draws a determinization
    (or cycles through ``belief_worlds`` weighted ones), walks the tree by PUCT over the moves
    available in it (``c_puct``, the evaluator's priors shaped by ``prior_temperature``,
    ``prior_mix`` and the root ``anchor``), keys the opponents' nodes by ``opponent_keys`` and
    values the leaf by ``leaf_value`` (a ``playout``, the evaluator, or both; an exact endgame
    below ``endgame_cards``).  ``None`` and ``"game"`` take the game's measured choice
    (``Game.search_*``).  Payoffs are in bets; each field's meaning is beside it.
    """

    # -- budget (``None``: no limit)
    #: Iterations, one determinization and one leaf value each.
    iterations: int | None = 1000
    #: Wall-clock seconds from the start of the search.
    time_s: float | None = None
    # -- tree policy
    #: Exploration weight of PUCT, ``Q/scale + c_puct * P * sqrt(A) / (1 + n)`` where ``A`` is
    #: how often the move was available (moves that exist only in some determinizations are
    #: judged by their availability, not the parent's visits).
    c_puct: float = 1.5
    #: Share of a uniform prior mixed into the evaluator's priors in PUCT, ``P = (1 - prior_mix)
    #: * prior + prior_mix / k`` over the ``k`` moves available (0: the priors as they are).
    prior_mix: float = 0.0
    #: PUCT uses ``prior ** (1 / prior_temperature)`` (before ``prior_mix``), normalised over the
    #: moves available; below 1 sharpens a network's priors.  Reported priors
    #: (:class:`~search.result.MoveStats`) are the evaluator's.
    prior_temperature: float = 1.0
    #: Share of the root's prior given to the game's sparring bot's move (its rule-based choice
    #: from the searching seat's information), ``P = (1 - anchor) * prior + anchor`` on that move.
    #: ``None``: the game's ``search_anchor``; 0: off.
    anchor: float | None = None
    #: An unvisited move's Q is its node's mean value minus this (units of the value scale).
    fpu_reduction: float = 0.0
    #: How the nodes where an opponent acts are keyed: ``"game"``: ``Game.search_opponent_keys``;
    #: ``"own"``: by the opponent's own information-state key in the determinization;
    #: ``"observer"``: by the observer's key (single-observer ISMCTS); ``"model"``: opponents own
    #: no nodes, each opponent move is drawn from ``opponent_policy`` given its hand in the
    #: determinization.  The observer's own nodes are always keyed by the observer's key.
    opponent_keys: str = "game"
    #: The opponent model of ``"model"`` keying and of ``belief_worlds``: ``"heuristic"``
    #: (``heuristic_move``), ``"sparring"`` (``sparring_move``) or ``"random"``, each reading
    #: only that opponent's information in the determinization.
    opponent_policy: str = "heuristic"
    # -- inference
    #: 0: a fresh determinization every iteration (hard constraints only).  ``K > 0``: ``K``
    #: determinizations drawn once, weighted by how likely the opponents' past moves are under
    #: ``opponent_policy`` (``1 - belief_epsilon`` on the model's move, ``belief_epsilon / (choices
    #: - 1)`` on another), tempered to an effective sample size of at least ``K / 4`` and
    #: resampled; the iterations cycle through them.
    belief_worlds: int = 0
    #: The model's error rate (0 < e <= 1).
    belief_epsilon: float = 0.2
    #: Payoffs are divided by this before entering PUCT; ``None``: the game's ``payoff_bound()``.
    value_scale: float | None = None
    # -- leaf values (payoffs per seat, in bets)
    #: ``"rollout"`` (a ``playout`` to the end), ``"evaluator"`` (the evaluator's value) or
    #: ``"mix"`` (``mix_lambda * rollout + (1 - mix_lambda) * evaluator``).
    leaf_value: str = "rollout"
    #: ``"game"``: the game's ``search_playout``; ``"random"``; ``"heuristic"`` or ``"sparring"``
    #: (the game's rule-based bots in every seat, from that seat's information); ``"mast"``
    #: (epsilon-greedy on the mean payoff each move has earned its player in this search).
    playout: str = "game"
    mix_lambda: float = 0.5
    #: The share of random moves in ``"mast"`` playouts.
    mast_epsilon: float = 0.1
    #: A leaf with at most this many cards still to be played (``State.endgame_size``) is valued
    #: exactly by :mod:`search.endgame` instead of a playout.  ``None``: the game's
    #: ``search_endgame_cards``; 0: off.
    endgame_cards: int | None = None
    #: Positions one exact solve may expand before the leaf is played out instead.
    endgame_nodes: int = 2000
    # -- engineering
    #: Leaves sent to the evaluator per call (virtual loss spreads the batch).
    batch_size: int = 1
    #: The loss (units of the value scale) charged to a path while its leaf waits in a batch.
    virtual_loss: float = 1.0
    #: Seconds between progress callbacks.
    progress_interval_s: float = 0.1
    #: Moves in each root move's principal line (the root move included).
    line_length: int = 8
    #: z of the lower confidence bound (1.96: 95 % two-sided normal).
    lcb_z: float = 1.96
    #: Final move choice: 0 = most visits, else sampled by ``visits ** (1 / temperature)``.
    temperature: float = 0.0

    def __post_init__(self) -> None:
        def number(
            name: str,
            lo: float,
            hi: float = math.inf,
            *,
            integer: bool = False,
            optional: bool = False,
            open_lo: bool = False,
        ) -> None:
            v = getattr(self, name)
            if v is None and optional:
                return
            if (
                isinstance(v, bool)
                or not isinstance(v, (int, float))
                or (integer and not isinstance(v, int))
                or not math.isfinite(v)
            ):
                kind = "a whole number" if integer else "a finite number"
                raise SearchOptionError(f"search option {name!r}: expected {kind}, got {v!r}")
            if v < lo or v > hi or (open_lo and v == lo):
                bound = f"> {lo}" if open_lo else f">= {lo}"
                if hi != math.inf:
                    bound += f" and <= {hi}"
                raise SearchOptionError(f"search option {name!r}: {v!r} must be {bound}")

        def choice(name: str, allowed: tuple[str, ...]) -> None:
            v = getattr(self, name)
            if v not in allowed:
                raise SearchOptionError(
                    f"search option {name!r}: {v!r} is not one of {', '.join(allowed)}"
                )

        number("iterations", 1, integer=True, optional=True)
        number("time_s", 0, optional=True, open_lo=True)
        number("c_puct", 0)
        number("prior_mix", 0, 1)
        number("prior_temperature", 0, open_lo=True)
        number("anchor", 0, 1, optional=True)
        number("fpu_reduction", 0)
        choice("opponent_keys", OPPONENT_KEYS)
        choice("opponent_policy", OPPONENT_POLICIES)
        number("belief_worlds", 0, 4096, integer=True)
        number("belief_epsilon", 0, 1, open_lo=True)
        number("value_scale", 0, optional=True, open_lo=True)
        choice("leaf_value", LEAF_VALUES)
        choice("playout", PLAYOUTS)
        number("mix_lambda", 0, 1)
        number("mast_epsilon", 0, 1)
        number("endgame_cards", 0, 52, integer=True, optional=True)
        number("endgame_nodes", 1, 1_000_000, integer=True)
        number("batch_size", 1, 4096, integer=True)
        number("virtual_loss", 0)
        number("progress_interval_s", 0, open_lo=True)
        number("line_length", 1, 1000, integer=True)
        number("lcb_z", 0)
        number("temperature", 0)

    def replace(self, **changes: Any) -> "SearchConfig":
        """A copy with some fields changed (checked like the constructor)."""
        return from_dict(changes, base=self)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


FIELDS = tuple(f.name for f in dataclasses.fields(SearchConfig))


def from_dict(values: Mapping[str, Any], base: SearchConfig | None = None) -> SearchConfig:
    """A config from ``base`` (default: the defaults) with ``values`` applied; unknown names raise
    :class:`SearchOptionError` listing the known ones."""
    for name in values:
        if name not in FIELDS:
            raise SearchOptionError(
                f"unknown search option {name!r}; known options: {', '.join(FIELDS)}"
            )
    return dataclasses.replace(base or SearchConfig(), **dict(values))
