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

try:
    import cython
except ImportError:  # no Cython installed: the same code runs untyped (games/_cy.py)
    from quansu.games import _cy as cython

from quansu.games.base import TERMINAL, IllegalMoveError
from quansu.games.tan.rules import (
    BEATERS,
    CARD_VALUE,
    DEFEND_BASE,
    DONE,
    RANKSET_CARDS,
    SWAP_BASE,
    TAKE,
    THROW_BASE,
)
from quansu.games.tan.state import ATTACK, DEFEND, THROW, TanState

# The 64-bit words of the compiled popcount.  games/tienlen/heuristic.py has the same few lines
# (``_pop``): a C inline function is not shared between compiled modules without a .pxd file,
# and calling the other module's Python-level function would cost more than the loop it serves.
_W55 = cython.declare(cython.ulonglong, 0x5555555555555555)
_W33 = cython.declare(cython.ulonglong, 0x3333333333333333)
_W0F = cython.declare(cython.ulonglong, 0x0F0F0F0F0F0F0F0F)
_W01 = cython.declare(cython.ulonglong, 0x0101010101010101)


@cython.cfunc
@cython.inline
@cython.locals(x=cython.ulonglong)
@cython.returns(cython.int)
def _one_bit_length(x: int) -> int:
    """``x.bit_length()`` of a mask ``x`` holding exactly one card: that card plus one
    (compiled: the popcount of the bits below it, by arithmetic on a 64-bit word, plus one)."""
    if cython.compiled:
        x -= 1
        x = x - ((x >> 1) & _W55)
        x = (x & _W33) + ((x >> 2) & _W33)
        x = (x + (x >> 4)) & _W0F
        return cython.cast(cython.int, (x * _W01) >> 56) + 1
    return x.bit_length()


if not cython.compiled:
    # uncompiled, the int method itself: no wrapper call in the pure build's loops
    _one_bit_length = int.bit_length  # noqa: F811


@cython.cfunc
@cython.inline
@cython.locals(card=cython.int, trump=cython.int)
@cython.returns(cython.int)
def _cost(card: int, trump: int) -> int:
    """Worth of a card to its holder: its Tấn value (2..14), +13 for a trump."""
    return _VALUE[card] + (13 if card & 3 == trump else 0)


#: cards held of one rank (a nibble of the hand) -> how many
_RANK_HELD = tuple(n.bit_count() for n in range(16))

# The tables of the choice below, as C arrays in the compiled build (declared in
# quansu.games.tan.heuristic.pxd, filled from these lists at import: a lookup is one load instead
# of a tuple item and its conversion); uncompiled, the lists themselves.  _BEAT is BEATERS
# flattened (trump * 52 + attack card).
_VALUE = list(CARD_VALUE)
_HELD = list(_RANK_HELD)
_BEAT = [BEATERS[t][a] for t in range(4) for a in range(52)]


@cython.ccall
@cython.locals(state=TanState, ph=cython.int)
def heuristic_move(state, rng: random.Random) -> int:
    """The policy's move for ``state.current_player`` (a legal move of ``state``)."""
    ph = state.phase
    if (
        (ph == ATTACK or ph == DEFEND or ph == THROW)
        and not (state.anytime and state.faceup >= 0)
        and state.hands[state.cur]
    ):
        # no swap can be among the moves: they follow from the hand, no list is needed
        return _play(state, ph)
    legal = state.legal_moves()
    if not legal:
        raise IllegalMoveError.of("tan.bot_game_over", bot="heuristic_move")
    if len(legal) == 1:
        return legal[0]
    swaps = [m for m in legal if SWAP_BASE <= m < TAKE]
    if swaps:
        give = swaps[0]  # the lowest card given (the first of equals), as min() with a key
        for m in swaps:
            if CARD_VALUE[m - SWAP_BASE] < CARD_VALUE[give - SWAP_BASE]:
                give = m
        if state.game.options["trump_swap"] != "two_only" or CARD_VALUE[state.faceup] >= 10:
            return give
        legal = [m for m in legal if not SWAP_BASE <= m < TAKE]
        if len(legal) == 1:
            return legal[0]
    if ph == ATTACK or ph == DEFEND or ph == THROW:
        return _play(state, ph)
    # the setup round with no swap worth making
    return DONE


@cython.locals(
    state=TanState,
    ph=cython.int,
    hand=cython.ulonglong,
    x=cython.ulonglong,
    m=cython.ulonglong,
    low=cython.ulonglong,
    trump=cython.int,
    c=cython.int,
    k=cython.int,
    best=cython.int,
    best_key=cython.int,
    a=cython.int,
    d=cython.int,
    on_table=cython.int,
    stock_empty=cython.bint,
)
def _play(state, ph: int) -> int:
    """The move of an attack, defence or throw-in (``ph``), swaps aside, from the hand's mask:
    each choice is the lowest of one whole number per card (every part bounded), the order of
    the key tuples ``(non-trump first, value less twice the other cards of its rank, card)``
    (attack) and ``(cost, card)`` (defence, throw-in)."""
    hand = state.hands[state.cur]
    trump = state.trump
    if ph == ATTACK:
        best, best_key = -1, 1 << 30
        x = hand
        while x:
            low = x & -x
            x ^= low
            c = _one_bit_length(low) - 1
            # each card held of its rank (itself too) takes 2 off the key (values 2..14: positive)
            k = (
                ((c & 3 == trump) << 16)
                | ((_VALUE[c] - 2 * _HELD[(hand >> (c & ~3)) & 15] + 40) << 8)
                | c
            )
            if k < best_key:
                best, best_key = c, k
        return best

    if ph == DEFEND:
        a = state.uncovered
        m = hand & _BEAT[trump * 52 + a]
        if not m:
            return TAKE
        d, best_key = -1, 1 << 30
        while m:
            low = m & -m
            m ^= low
            c = _one_bit_length(low) - 1
            k = (_cost(c, trump) << 6) | c
            if k < best_key:
                d, best_key = c, k
        best = DEFEND_BASE + 64 * a + d
        if d & 3 != trump:
            return best
        if state.stock_count() == 0:
            return best
        on_table = state.table.bit_count()
        if _VALUE[d] == 14 and on_table < 5:
            return TAKE
        if _VALUE[d] <= 9 + on_table:
            return best
        return TAKE

    # THROW
    m = hand & RANKSET_CARDS[state.tranks]
    if not m:
        return DONE
    stock_empty = state.stock_count() == 0
    if not state.game._until_one and stock_empty and not hand & (hand - 1):
        return THROW_BASE + _one_bit_length(m & -m) - 1  # the last card: out first, the winner
    best, best_key = -1, 1 << 30
    while m:
        low = m & -m
        m ^= low
        c = _one_bit_length(low) - 1
        if c & 3 == trump:
            if not stock_empty or _VALUE[c] > 8:
                continue
        elif _VALUE[c] > (14 if stock_empty else 10):
            continue
        k = (_cost(c, trump) << 6) | c
        if k < best_key:
            best, best_key = c, k
    return DONE if best < 0 else THROW_BASE + best


@cython.locals(state=TanState)
def playout(state, rng: random.Random, stop=None) -> list | None:
    """:meth:`TanGame.heuristic_playout`: ``state`` played to the end by
    :func:`heuristic_move` for every seat; its payoffs, or None once ``stop()`` (asked after
    every move) says so.  Compiled, the policy and ``apply_unchecked`` are C calls."""
    if stop is None:
        while state.cur != TERMINAL:
            state.apply_unchecked(heuristic_move(state, rng))
        return state.returns()
    while state.cur != TERMINAL:
        state.apply_unchecked(heuristic_move(state, rng))
        if stop():
            return None
    return state.returns()
