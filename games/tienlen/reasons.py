"""Tiến lên explains its own moves (the game side of a hint's reasons, :mod:`games.reasons`).

Codes: ``finishes`` (plays the last cards), ``plays_bomb`` (a four of a kind or three or more
consecutive pairs), ``breaks_bomb`` / ``keeps_bomb`` (``cards``: the bomb), ``plays_two``,
``holds_twos`` (passes while holding 2s), ``sheds_lowest``.  Read from the moving seat's own
hand only.
"""

from __future__ import annotations

from quansu.games.base import Move, State
from quansu.games.reasons import SHEDDING_TEXTS, TWO, Reason, by_rank, hand_of, shedding_reasons

#: Tiến lên's reasons: code -> (English, Vietnamese) (:func:`games.reasons.say`).
TEXTS: dict[str, tuple[str, str]] = {
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
}


def bombs(hand: list[int]) -> list[tuple[int, ...]]:
    """Fours of a kind, then runs of three or more consecutive pairs below the 2 (a run uses
    the two lowest cards of each rank), as card tuples."""
    ranks = by_rank(hand)
    out = [tuple(cs) for r, cs in sorted(ranks.items()) if len(cs) == 4]
    run: list[int] = []
    for r in range(TWO + 1):
        if r < TWO and len(ranks.get(r, ())) >= 2:
            run.append(r)
            continue
        if len(run) >= 3:
            out.append(tuple(c for rr in run for c in ranks[rr][:2]))
        run = []
    return out


def move_reasons(state: State, seat: int, move: Move) -> list[Reason]:
    """Why ``seat`` might play ``move`` in ``state`` (a state consistent with its view)."""
    hand = hand_of(state, seat)
    return shedding_reasons(state.game.describe_move(move), hand, bombs)
