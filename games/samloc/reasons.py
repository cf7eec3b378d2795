"""Sâm lốc explains its own moves (the game side of a hint's reasons, :mod:`games.reasons`).

Codes: ``declares`` / ``declines`` (báo sâm), ``finishes``, ``plays_bomb`` (a four of a kind),
``breaks_bomb`` / ``keeps_bomb`` (``cards``: the four of a kind), ``plays_two``, ``holds_twos``,
``sheds_lowest``.  Read from the moving seat's own hand only.
"""

from __future__ import annotations

from quansu.games.base import Move, State
from quansu.games.reasons import SHEDDING_TEXTS, Reason, by_rank, hand_of, say, shedding_reasons

#: Sâm lốc's reasons: code -> (English, Vietnamese) (:func:`games.reasons.say`).
TEXTS: dict[str, tuple[str, str]] = {
    "declares": ("declares Sâm", "báo sâm"),
    "declines": ("does not declare Sâm", "không báo sâm"),
    **{
        k: SHEDDING_TEXTS[k]
        for k in (
            "finishes",
            "plays_bomb",
            "breaks_bomb",
            "keeps_bomb",
            "plays_two",
            "holds_twos",
            "sheds_lowest",
        )
    },
}


def bombs(hand: list[int]) -> list[tuple[int, ...]]:
    """The fours of a kind of ``hand`` (Sâm has no pair-sequence bombs)."""
    return [tuple(cs) for r, cs in sorted(by_rank(hand).items()) if len(cs) == 4]


def move_reasons(state: State, seat: int, move: Move) -> list[Reason]:
    """Why ``seat`` might play ``move`` in ``state`` (a state consistent with its view)."""
    info = state.game.describe_move(move)
    if info.kind == "declare":
        return [say(TEXTS, "declares")]
    if info.kind == "decline":
        return [say(TEXTS, "declines")]
    hand = hand_of(state, seat)
    return shedding_reasons(info, hand, bombs)
