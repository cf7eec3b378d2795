"""Bots backed by the shipped networks (search's :class:`~search.bots.Bot` interface)."""

from __future__ import annotations

from quansu.games.base import Move, State
from quansu.search.bots import Bot, ISMCTSBot
from quansu.search.config import SearchConfig
from quansu.models.evaluator import NetworkEvaluator


class PolicyBot(Bot):
    """The policy network alone: the move with the highest prior, no search."""

    name = "policy"

    def __init__(self, evaluator: NetworkEvaluator, name: str | None = None):
        self.evaluator = evaluator
        if name:
            self.name = name

    def choose(self, state: State, seat: int) -> Move:
        legal = self._check(state, seat)
        if len(legal) == 1:
            return legal[0]
        ev = self.evaluator.evaluate([state], [legal])[0]
        best = max(range(len(legal)), key=lambda i: ev.priors[i])
        return legal[best]


#: Leaf values of the network-guided search per game: ``"evaluator"`` (the value head, leaves
#: batched by 8) or ``"rollout"`` (playouts with the game's ``search_playout``; the network
#: gives the priors).  Chosen by measurement (``python -m quansu.bench.models --only guided --leaf L``,
#: figures in docs/models.md).
GUIDED_LEAF = {"tienlen": "rollout", "samloc": "rollout", "phom": "rollout",
               "tan": "rollout"}

#: The search's prior temperature per game (``SearchConfig.prior_temperature``; 1 where
#: absent): below 1 the search trusts the network's ranking more.  Chosen by measurement
#: (``python -m quansu.bench.models --only guided --prior-temperature T``, docs/models.md): Tấn's
#: 0.1 guided the search above the uniform one on 96 deals planned in advance; Tiến lên's did
#: not (it stays 1).
GUIDED_PRIOR_TEMPERATURE: dict[str, float] = {"tan": 0.1}


def guided_config(evaluator: NetworkEvaluator, base: SearchConfig | None = None,
                  leaf: str | None = None) -> SearchConfig:
    """Search settings for network-guided ISMCTS: priors from the network (sharpened by the
    game's :data:`GUIDED_PRIOR_TEMPERATURE`); leaf values
    ``leaf`` (default :data:`GUIDED_LEAF` of the game): the network's (batches of 8, PUCT
    value scale = the model's payoff scale) or playouts (the search's automatic scale, as in
    the network-free search)."""
    base = (base or SearchConfig()).replace(
        prior_temperature=GUIDED_PRIOR_TEMPERATURE.get(evaluator.game.name, 1.0))
    leaf = leaf or GUIDED_LEAF.get(evaluator.game.name, "evaluator")
    if leaf == "rollout":
        return base.replace(leaf_value="rollout", batch_size=1)
    return base.replace(leaf_value=leaf, batch_size=8, value_scale=evaluator.model.value_scale)


def guided_bot(evaluator: NetworkEvaluator, config: SearchConfig | None = None, seed: int = 0,
               name: str = "guided") -> ISMCTSBot:
    """ISMCTS guided by ``evaluator`` (see :func:`guided_config`)."""
    return ISMCTSBot(guided_config(evaluator, config), evaluator, seed, name=name)
