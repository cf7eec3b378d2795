"""Tấn encoder spec (layout in :mod:`models.encoders.base`).

Zones: ``table`` (this bout's attack and defence cards), ``discard`` (finished bouts),
``stock`` (only the face-up card is known; the size counts).  The trump card and suit come from
``deal.trump``.  ``MoveInfo.target`` of ``defend`` is the attacked card.
Version history: 1 - first layout; 2 - the heuristic-choice move feature (the shipped
network's); 3 - version 2 and the sparring-choice move feature (``SPECS``, trained with
``--encoder-version 3``).
"""

from dataclasses import replace

from quansu.models.encoders.base import EncoderSpec

SPEC = EncoderSpec(
    game="tan",
    version=2,
    zones=("table", "discard", "stock"),
    combos=(),
    target_is_card=True,
    recent=4,
    has_trump=True,
    heuristic_feature=True,
)

#: Other layouts, by version (``models.encoders.spec_for``).
SPECS = {3: replace(SPEC, version=3, sparring_feature=True)}
