"""Bots backed by the shipped networks (search's :class:`~search.bots.Bot` interface)."""

from __future__ import annotations

from quansu.games.base import Move, State
from quansu.models.evaluator import NetworkEvaluator
from quansu.search.bots import Bot, ISMCTSBot
from quansu.search.config import SearchConfig


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


def guided_config(
    evaluator: NetworkEvaluator, base: SearchConfig | None = None, leaf: str | None = None
) -> SearchConfig:
    """Search settings for network-guided ISMCTS: priors from the network (sharpened by the
    game's ``tuning.guided_prior_temperature``); leaf values ``leaf`` (default the game's
    ``tuning.guided_leaf``): the network's (batches of 8, PUCT value scale = the model's payoff
    scale) or playouts (the search's automatic scale, as in the network-free search).  Both
    chosen by measurement (``python -m quansu.bench.models --only guided``, docs/models.md)."""
    tuning = evaluator.game.tuning
    base = (base or SearchConfig()).replace(prior_temperature=tuning.guided_prior_temperature)
    leaf = leaf or tuning.guided_leaf
    if leaf == "rollout":
        return base.replace(leaf_value="rollout", batch_size=1)
    return base.replace(leaf_value=leaf, batch_size=8, value_scale=evaluator.model.value_scale)


def guided_bot(
    evaluator: NetworkEvaluator,
    config: SearchConfig | None = None,
    seed: int = 0,
    name: str = "guided",
) -> ISMCTSBot:
    """ISMCTS guided by ``evaluator`` (see :func:`guided_config`)."""
    return ISMCTSBot(guided_config(evaluator, config), evaluator, seed, name=name)
