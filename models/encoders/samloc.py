"""Sâm lốc encoder spec (layout in :mod:`models.encoders.base`).

Zones: ``table`` (every card played) and ``set_aside`` (hidden; its size only).  Combos: the
engine's ``MoveInfo.combo`` names; ``declare`` / ``decline`` are move kinds.
Version history: 1 - first layout; 2 - hand features (next seat on one card -> the báo một
rule, whether a move holds the highest rank or empties the hand); 3 - the engine's
``previous_winner`` option (a seat number, not a rule) is left out of the features.
Báo sâm asking every seat (also after a declaration) adds ``declare`` / ``decline`` moves to the
history that the recent-moves block already encodes; the layout, and so the version, is unchanged.
"""

from quansu.models.encoders.base import EncoderSpec

SPEC = EncoderSpec(
    game="samloc",
    version=4,
    zones=("table", "set_aside"),
    hand_features=True,
    skip_options=("previous_winner",),
    combos=("single", "pair", "triple", "quad", "straight", "double_quad"),
    target_is_card=False,
    recent=4,
    heuristic_feature=True,
)
