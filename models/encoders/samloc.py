"""Sâm lốc encoder spec (layout in :mod:`models.encoders.base`).

Zones: ``table`` (every card played) and ``set_aside`` (hidden; its size only).  Combos: the
engine's ``MoveInfo.combo`` names; ``declare`` / ``decline`` are move kinds.
Version history: 1 - first layout.
"""

from models.encoders.base import EncoderSpec

SPEC = EncoderSpec(game="samloc", version=1, zones=("table", "set_aside"),
                   combos=("single", "pair", "triple", "quad", "straight", "double_quad"),
                   target_is_card=False, recent=4)
