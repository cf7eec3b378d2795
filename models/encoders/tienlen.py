"""Tiến lên miền Nam encoder spec (layout in :mod:`models.encoders.base`).

Zones: ``played`` (every card played so far) and ``set_aside`` (cards dealt to nobody when
N < 4; known only under the first-lead rule).  Combos: the engine's ``MoveInfo.combo`` names.
Version history: 1 - first layout; 2 - the heuristic-choice move feature (``SPECS``: networks
trained before version 4 still load); 3 - the bot's hand plans as move terms (tried, not kept:
docs/models.md); 4 - version 2 and the sparring-choice move feature (the default, the shipped
network's).
"""

from dataclasses import replace

from quansu.models.encoders.base import EncoderSpec

#: Version 2 (every feature of version 4 but the sparring choice).
V2 = EncoderSpec(
    game="tienlen",
    version=2,
    zones=("played", "set_aside"),
    combos=("single", "pair", "triple", "four_of_a_kind", "straight", "pair_sequence"),
    target_is_card=False,
    recent=4,
    heuristic_feature=True,
)

SPEC = replace(V2, version=4, sparring_feature=True)

#: Other layouts, by version (``models.encoders.spec_for``).
SPECS = {2: V2}
