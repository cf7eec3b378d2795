"""Reference Tấn heuristic.

The code before the key-free choices of issue 22 (commit c46b7ba: ``min(..., key=tuple)`` and a
phase import on every call), kept for tests/games/test_speed_equivalence.py: the optimised heuristic
must choose the same move as this in every state.  Copied unchanged.  Not used by the package.
"""

from __future__ import annotations

import random

from quansu.games.base import IllegalMoveError
from quansu.games.tan.rules import CARD_VALUE, DEFEND_BASE, DONE, SWAP_BASE, TAKE, THROW_BASE


def _cost(card: int, trump: int) -> int:
    """Worth of a card to its holder: its Tấn value (2..14), +13 for a trump."""
    return CARD_VALUE[card] + (13 if card & 3 == trump else 0)


def heuristic_move(state, rng: random.Random) -> int:
    """The policy's move for ``state.current_player`` (a legal move of ``state``)."""
    legal = state.legal_moves()
    if not legal:
        raise IllegalMoveError.of("tan.bot_game_over", bot="heuristic_move")
    if len(legal) == 1:
        return legal[0]
    from quansu.games.tan.game import ATTACK, DEFEND, THROW

    g = state.game
    seat = state.current_player
    hand = state.hands[seat]
    trump = state.trump
    stock_empty = state.stock_count() == 0
    first_out = not g._until_one

    swaps = [m for m in legal if SWAP_BASE <= m < TAKE]
    if swaps:
        give = min(swaps, key=lambda m: CARD_VALUE[m - SWAP_BASE])
        if g.options["trump_swap"] != "two_only" or CARD_VALUE[state.faceup] >= 10:
            return give
        legal = [m for m in legal if not SWAP_BASE <= m < TAKE]
        if len(legal) == 1:
            return legal[0]

    ph = state.phase
    if ph == ATTACK:
        counts = {}
        for c in legal:
            counts[c >> 2] = counts.get(c >> 2, 0) + 1
        return min(
            legal, key=lambda c: (c & 3 == trump, CARD_VALUE[c] - 2 * (counts[c >> 2] - 1), c)
        )

    if ph == DEFEND:
        defences = [m for m in legal if DEFEND_BASE <= m < SWAP_BASE]
        if not defences:
            return TAKE
        best = min(defences, key=lambda m: (_cost((m - DEFEND_BASE) & 63, trump), m))
        d = (best - DEFEND_BASE) & 63
        if d & 3 != trump:
            return best
        if stock_empty:
            return best
        on_table = state.table.bit_count()
        if CARD_VALUE[d] == 14 and on_table < 5:
            return TAKE
        if CARD_VALUE[d] <= 9 + on_table:
            return best
        return TAKE

    if ph == THROW:
        throws = [m for m in legal if THROW_BASE <= m < DEFEND_BASE]
        if not throws:
            return DONE
        if first_out and stock_empty and hand.bit_count() == 1:
            return throws[0]
        if stock_empty:
            ok = [
                m
                for m in throws
                if (m - THROW_BASE) & 3 != trump or CARD_VALUE[m - THROW_BASE] <= 8
            ]
        else:
            ok = [
                m
                for m in throws
                if (m - THROW_BASE) & 3 != trump and CARD_VALUE[m - THROW_BASE] <= 10
            ]
        if not ok:
            return DONE
        return min(ok, key=lambda m: (_cost(m - THROW_BASE, trump), m))

    # the setup round with no swap worth making
    return DONE
