"""Phỏm encoder spec (layout in :mod:`models.encoders.base`).

Zones: ``table`` (laid melds and sent cards), ``stock`` and ``set_aside`` (sizes only: their
cards are hidden), ``discard{s}`` per seat as relative planes.  Opponents' known hand cards are
their eaten cards (from ``known_cards``).  ``MoveInfo.target`` of ``send`` is a meld id.

Move terms (:func:`move_terms`, on card discards only, zeros elsewhere; in the discard phase and
in the send phase, where the discards that end the sending stand beside the sends): the heuristic
bot's
own discard terms (:func:`games.phom.heuristic.discard_terms`), so that a network can re-weigh
them rather than rediscover phỏm from card planes: deadwood points left / 50 (2 when the eaten
cards could no longer all be melded), live phỏm kept in the deadwood / 4, live phỏm through the
discarded card (the next seat may eat it) / 4, and the gap between the move's score and the
bot's best / 10 (at most 3).

Version history: 1 - first layout; 2 - the heuristic-choice move feature; 3 - the discard terms
(``SPECS``: networks trained before version 4 still load); 4 - version 3 and the sparring-choice
move feature (the default, the shipped network's).
(Rules version 2, Phỏm without ``done``, kept layout 3: the send phase's discards get the same
discard terms the discard phase's have.)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

import numpy as np

from quansu.games.phom.game import DISCARD, SEND, U
from quansu.games.phom.heuristic import discard_key, discard_terms
from quansu.models.encoders.base import EncoderSpec

MOVE_TERMS = ("deadwood", "potential", "danger", "score_gap")


def move_terms(state, moves: Sequence) -> tuple:
    """``(choice, float32[len(moves), 4])``: the terms above for each card discard, and the
    heuristic bot's discard when this is its discard decision (None otherwise, e.g. in the send
    phase while a send is legal: the bot then sends)."""
    out = np.zeros((len(moves), len(MOVE_TERMS)), dtype=np.float32)
    phase = state.phase
    if len(moves) < 2 or (phase != DISCARD and phase != SEND) or U in moves:
        return None, out
    rows = discard_terms(state, moves)
    if not rows:
        return None, out
    best = min(rows, key=discard_key)
    at = {mv: i for i, mv in enumerate(moves)}
    for mv, score, dw, pot, dan in rows:
        out[at[mv]] = (min(dw, 100) / 50.0, pot / 4.0, dan / 4.0, min(score - best[1], 30.0) / 10.0)
    # in the send phase the bot discards only when no send is legal
    return (best[0] if len(rows) == len(moves) else None), out


#: Version 3 (every feature of version 4 but the sparring choice).
V3 = EncoderSpec(
    game="phom",
    version=3,
    zones=("table", "stock", "set_aside"),
    seat_zones=("discard",),
    combos=(),
    target_is_card=False,
    recent=4,
    heuristic_feature=True,
    move_terms=move_terms,
    move_terms_names=MOVE_TERMS,
)

SPEC = replace(V3, version=4, sparring_feature=True)

#: Other layouts, by version (``models.encoders.spec_for``).
SPECS = {3: V3}
