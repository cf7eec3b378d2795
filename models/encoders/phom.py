"""Phỏm encoder spec (layout in :mod:`models.encoders.base`).

Zones: ``table`` (laid melds and sent cards), ``stock`` and ``set_aside`` (sizes only: their
cards are hidden), ``discard{s}`` per seat as relative planes.  Opponents' known hand cards are
their eaten cards (from ``known_cards``).  ``MoveInfo.target`` of ``send`` is a meld id.
Version history: 1 - first layout; 2 - the heuristic-choice move feature.
"""

from models.encoders.base import EncoderSpec

SPEC = EncoderSpec(game="phom", version=2, zones=("table", "stock", "set_aside"),
                   seat_zones=("discard",), combos=(), target_is_card=False, recent=4,
                   heuristic_feature=True)
