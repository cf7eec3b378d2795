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
    """How one ISMCTS search runs.

    Budget (the search stops at the first one reached; at least one of ``iterations``,
    ``time_s`` must be set unless the caller passes a deadline or a cancel event):

    * ``iterations``: iterations (one determinization and one leaf value each); ``None`` = no limit.
    * ``time_s``: wall-clock seconds from the start of the search; ``None`` = no limit.

    Tree policy:

    * ``c_puct``: exploration weight of PUCT, ``Q/scale + c_puct * P * sqrt(A) / (1 + n)`` where
      ``A`` is how often the move was available (moves that exist only in some determinizations
      are judged by their availability, not the parent's visits).
    * ``prior_mix``: share of a uniform prior mixed into the evaluator's priors in PUCT,
      ``P = (1 - prior_mix) * prior + prior_mix / k`` over the ``k`` moves available (0: the
      evaluator's priors as they are; softens near one-hot network policies).
    * ``prior_temperature``: PUCT uses ``prior ** (1 / prior_temperature)`` (before
      ``prior_mix``), normalised over the moves available; for a network's softmax priors this
      is the softmax of its logits divided by the temperature.  Below 1 sharpens them (the
      search trusts the network's ranking more), 1 leaves them as they are.  Reported priors
      (:class:`~search.result.MoveStats`) are the evaluator's.
    * ``anchor``: share of the root's prior given to the game's sparring bot's own move (its
      rule-based choice from the searching seat's information), ``P = (1 - anchor) * prior +
      anchor`` on that move: the search starts from the careful move and leaves it only where
      its playouts find better.  ``None`` (the default): the game's ``search_anchor`` (0 where
      anchoring did not measure stronger); 0: off.
    * ``fpu_reduction``: an unvisited move's Q is its node's mean value minus this (in units of
      the value scale).
    * ``opponent_keys``: how the nodes where an opponent acts are keyed.  ``"game"`` (the
      default): the game's measured choice (``Game.search_opponent_keys``).  ``"own"``: by what that
      opponent knows in the current determinization (its own information-state key), so the
      opponent's choices depend on its (sampled) hand.  ``"observer"``: by the observer's
      information-state key (single-observer ISMCTS: one node per public situation, with move
      availability handling the hands that differ).  ``"model"``: opponents own no nodes; each
      opponent move on the tree walk is drawn from ``opponent_policy`` given the hand that
      opponent holds in the current determinization (a hand-aware opponent model), and the
      observer's next node is found by the observer's key, so the observer's later turns are
      planned in a tree shared by all determinizations.  The observer's own nodes are always
      keyed by the observer's information-state key.
    * ``opponent_policy``: the opponent model of ``opponent_keys="model"``: ``"heuristic"``
      (the game's ``heuristic_move``), ``"sparring"`` (the game's ``sparring_move``, its
      strongest rule-based bot) or ``"random"``; each reads only that opponent's information in
      the determinization.

    Inference (opponent modelling in the determinizations):

    * ``belief_worlds``: 0 = every iteration draws a fresh determinization (hard constraints
      only).  ``K > 0``: the search draws ``K`` determinizations once, weights each by how
      likely the opponents' past moves are under ``opponent_policy`` given the hands that world
      gives them (each opponent decision with a choice counts ``1 - belief_epsilon`` when the
      model plays the move that was played, else ``belief_epsilon / (choices - 1)``), tempers
      the weights so that their effective sample size stays at least ``K / 4``, resamples ``K``
      worlds by them, and the iterations cycle through those.
    * ``belief_epsilon``: the model's error rate (0 < e <= 1; 1 - e on the model's move).
    * ``value_scale``: payoffs (bets) are divided by this before entering PUCT; ``None`` = the
      game's ``payoff_bound()``.

    Leaf values (payoffs per seat, in bets):

    * ``leaf_value``: ``"rollout"`` (play the determinization to the end with ``playout``),
      ``"evaluator"`` (the evaluator's value), or ``"mix"``
      (``mix_lambda * rollout + (1 - mix_lambda) * evaluator``).
    * ``playout``: ``"game"`` (the default: the game's ``search_playout``, random or heuristic,
      whichever measured stronger at equal time in that game), ``"random"`` (uniform over
      legal moves), ``"heuristic"`` (the game's rule-based policy for every seat, from that
      seat's information in the determinization), ``"sparring"`` (the game's strongest
      rule-based bot, ``sparring_move``, likewise) or
      ``"mast"`` (move-average sampling: epsilon-greedy on the mean payoff each move has earned
      its player so far in this search, tree and playout moves alike).
    * ``mast_epsilon``: the share of random moves in ``"mast"`` playouts.
    * ``endgame_cards``: a leaf whose determinization has at most this many cards still to be
      played (the game's :meth:`~games.base.State.endgame_size`) is valued exactly, by the
      max^n solver of :mod:`search.endgame`, instead of by a playout (rollout and mix leaves).
      ``None`` (the default): the game's ``search_endgame_cards`` (0 where exact endgames did
      not measure stronger or the game has none); 0: off.
    * ``endgame_nodes``: positions one exact solve may expand before it gives up and the leaf
      is played out instead.

    Engineering:

    * ``batch_size``: leaves sent to the evaluator per call (virtual loss spreads the batch).
    * ``virtual_loss``: the loss, in units of the value scale, charged to a path while its leaf
      waits in a batch.
    * ``progress_interval_s``: seconds between progress callbacks.
    * ``line_length``: moves in each root move's principal line (including the root move).
    * ``lcb_z``: z of the lower confidence bound (1.96 = 95 % two-sided normal).
    * ``temperature``: final move choice; 0 = most visits, else sample visits ** (1/temperature).
    """

    iterations: int | None = 1000
    time_s: float | None = None
    c_puct: float = 1.5
    prior_mix: float = 0.0
    prior_temperature: float = 1.0
    anchor: float | None = None
    fpu_reduction: float = 0.0
    opponent_keys: str = "game"
    opponent_policy: str = "heuristic"
    belief_worlds: int = 0
    belief_epsilon: float = 0.2
    value_scale: float | None = None
    leaf_value: str = "rollout"
    playout: str = "game"
    mix_lambda: float = 0.5
    mast_epsilon: float = 0.1
    endgame_cards: int | None = None
    endgame_nodes: int = 2000
    batch_size: int = 1
    virtual_loss: float = 1.0
    progress_interval_s: float = 0.1
    line_length: int = 8
    lcb_z: float = 1.96
    temperature: float = 0.0

    def __post_init__(self) -> None:
        def number(name: str, lo: float, hi: float = math.inf, *, integer: bool = False,
                   optional: bool = False, open_lo: bool = False) -> None:
            v = getattr(self, name)
            if v is None and optional:
                return
            if isinstance(v, bool) or not isinstance(v, (int, float)) or \
                    (integer and not isinstance(v, int)) or not math.isfinite(v):
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
                    f"search option {name!r}: {v!r} is not one of {', '.join(allowed)}")

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
                f"unknown search option {name!r}; known options: {', '.join(FIELDS)}")
    return dataclasses.replace(base or SearchConfig(), **dict(values))
