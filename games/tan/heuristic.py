"""The rule-based Tấn policy of a careful club player.

It uses only what the seat to act knows: its own hand, the table, the trump suit, the face-up
card and the stock size.  In short:

* swap: take the face-up trump whenever a swap is allowed (giving the lowest eligible trump);
  under đổi 2 chủ only when the face-up card is a ten or higher, because the swapper then
  attacks last;
* attack with the cheapest card: non-trumps before trumps, low before high, preferring a rank
  held twice or more (so that the rest can be thrown in);
* defend with the cheapest card that beats (a same-suit card before a trump); take when only a
  trump beats and it is too valuable for the size of the table, unless the stock is empty (then
  shedding cards matters more) or the defence is the winning last card;
* throw in low non-trumps (up to a ten; any non-trump and trumps up to an eight once the stock is
  empty), the lowest first; playing one's last card with the stock empty always wins under
  ``first_out_wins``.
"""

from __future__ import annotations

import random

from quansu.games.base import IllegalMoveError
from quansu.games.tan.game import ATTACK, DEFEND, THROW
from quansu.games.tan.rules import (CARD_VALUE, DEFEND_BASE, DONE, SWAP_BASE, TAKE, THROW_BASE)


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
        # the lowest (non-trump first, value less twice the other cards of its rank, card):
        # one whole number per card instead of a key tuple (each part is bounded)
        counts = {}
        for c in legal:
            counts[c >> 2] = counts.get(c >> 2, 0) + 1
        best, best_key = -1, 1 << 30
        for c in legal:
            k = (((c & 3 == trump) << 16) | ((CARD_VALUE[c] - 2 * counts[c >> 2] + 40) << 8)
                 | c)
            if k < best_key:
                best, best_key = c, k
        return best

    if ph == DEFEND:
        defences = [m for m in legal if DEFEND_BASE <= m < SWAP_BASE]
        if not defences:
            return TAKE
        best, best_key = -1, 1 << 30
        for m in defences:   # min by (cost, move), one whole number per move (m < 4096)
            k = (_cost((m - DEFEND_BASE) & 63, trump) << 12) | m
            if k < best_key:
                best, best_key = m, k
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
            ok = [m for m in throws
                  if (m - THROW_BASE) & 3 != trump or CARD_VALUE[m - THROW_BASE] <= 8]
        else:
            ok = [m for m in throws
                  if (m - THROW_BASE) & 3 != trump and CARD_VALUE[m - THROW_BASE] <= 10]
        if not ok:
            return DONE
        best, best_key = -1, 1 << 30
        for m in ok:   # min by (cost, move), one whole number per move (m < 128)
            k = (_cost(m - THROW_BASE, trump) << 8) | m
            if k < best_key:
                best, best_key = m, k
        return best

    # the setup round with no swap worth making
    return DONE
