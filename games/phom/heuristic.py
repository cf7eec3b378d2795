"""The rule-based "careful club player" for Phỏm.

It sees only the acting seat's information (its hand and the public table):

* take: eat whenever eating is legal (an eaten card always completes a phỏm and is paid for);
  otherwise draw;
* Ù: always declare it when it is offered;
* lay: the arrangement that leaves the fewest points after sending what can be sent and
  discarding the highest remaining card;
* send: the highest card that can be sent; when none is left, the discard below (the discard
  ends the sending);
* discard: the card whose loss costs least: low deadwood points left, cạ with a live third card
  kept, and no card the next seat could eat (a live 3-card phỏm through it with both other cards
  unseen), weighted more for chốt cards.
"""

from __future__ import annotations

import random

try:
    import cython
except ImportError:  # no Cython installed: the same code runs untyped (games/_cy.py)
    from quansu.games import _cy as cython

from quansu.games.phom import rules as R
from quansu.games.phom.rules import DISCARD, EAT, LAY, SEND, SEND_BASE, TAKE, U
from quansu.games.phom.rules import TAI as TAI_KIND


@cython.locals(known=cython.ulonglong, s=cython.int, x=cython.int)
def _unseen(state, seat: int) -> int:
    """Cards whose place ``seat`` does not know (other hands' hidden cards, stock, set aside)."""
    known = state.hands[seat]
    for s in range(state.n):
        known |= state.eaten[s]
        for x in state.rows[s]:
            known |= cython.cast(cython.ulonglong, 1) << x
    for t in state.table:
        known |= t[1]
    return R.FULL & ~known


#: per card x, the other two cards of each 3-card phỏm through x (masks)
_REST = tuple(tuple(m & ~(1 << x) for m in R.MIN_MELDS[x]) for x in range(52))
#: _REST flattened, 6 slots a card (4 to 6 phỏm through a card), the unused slots bit 63 (a card
#: no mask of unseen cards holds, so they never count): a C array in the compiled build
#: (declared in quansu.games.phom.heuristic.pxd, filled from this list at import)
_NO_CARD = 1 << 63
_REST6 = [r for x in range(52) for r in _REST[x] + (_NO_CARD,) * (6 - len(_REST[x]))]


@cython.cfunc
@cython.inline
@cython.locals(x=cython.ulonglong)
@cython.returns(cython.int)
def _pop(x: int) -> int:
    """``x.bit_count()`` (compiled: the compiler's popcount, declared in this module's .pxd)."""
    if cython.compiled:
        return __builtin_popcountll(x)  # noqa: F821 - quansu.games.phom.heuristic.pxd
    return x.bit_count()


if not cython.compiled:
    _pop = int.bit_count  # noqa: F811 - uncompiled, the int method itself (no wrapper call)

#: R.RUN_START and R.SUIT_BLOCK as 64-bit words of the compiled build
_RS = cython.declare(cython.ulonglong, R.RUN_START)
_SB = cython.declare(cython.ulonglong, R.SUIT_BLOCK)


@cython.locals(
    h=cython.ulonglong,
    melded=cython.ulonglong,
    unseen=cython.ulonglong,
    d=cython.ulonglong,
    u=cython.ulonglong,
    rs=cython.ulonglong,
    sb=cython.ulonglong,
    d0=cython.ulonglong,
    d1=cython.ulonglong,
    d2=cython.ulonglong,
    h1=cython.ulonglong,
    h2=cython.ulonglong,
    h3=cython.ulonglong,
    u0=cython.ulonglong,
    u1=cython.ulonglong,
    u2=cython.ulonglong,
    u3=cython.ulonglong,
    count=cython.int,
)
def _potential(h: int, melded: int, unseen: int) -> int:
    """Number of 3-card phỏm with two cards in ``h``, the lower of them among its deadwood
    (``h`` outside ``melded``), and the third unseen (each counted once, from its lower hand
    card).  Counted with masks: a run (s, s+1, s+2) by which of its cards is the unseen one, a
    set by the suits of its two hand cards and of the third card.  Compiled, the masks are
    64-bit words (cards 0..51: ``~`` sets only bits above the deck, which every ``&`` with a
    hand mask clears)."""
    d = h & ~melded
    u = unseen & ~h
    rs = _RS
    count = (
        _pop(d & (h >> 1) & (u >> 2) & rs)  # hand s, s+1; unseen s+2
        + _pop(d & (u >> 1) & (h >> 2) & rs)  # hand s, s+2; unseen s+1
        + _pop(u & (d >> 1) & (h >> 2) & rs)
    )  # hand s+1, s+2; unseen s
    sb = _SB
    d0, d1, d2 = d & sb, d >> 13 & sb, d >> 26 & sb
    h1, h2, h3 = h >> 13 & sb, h >> 26 & sb, h >> 39
    u0, u1, u2, u3 = u & sb, u >> 13 & sb, u >> 26 & sb, u >> 39
    # suits (i, j) of the hand cards, i < j, the lower one deadwood; the third of another suit
    return count + (
        _pop(d0 & h1 & (u2 | u3))
        + _pop(d0 & h1 & u2 & u3)
        + _pop(d0 & h2 & (u1 | u3))
        + _pop(d0 & h2 & u1 & u3)
        + _pop(d0 & h3 & (u1 | u2))
        + _pop(d0 & h3 & u1 & u2)
        + _pop(d1 & h2 & (u0 | u3))
        + _pop(d1 & h2 & u0 & u3)
        + _pop(d1 & h3 & (u0 | u2))
        + _pop(d1 & h3 & u0 & u2)
        + _pop(d2 & h3 & (u0 | u1))
        + _pop(d2 & h3 & u0 & u1)
    )


@cython.ccall
@cython.locals(
    x=cython.int, unseen=cython.ulonglong, d=cython.int, i=cython.int, rest=cython.ulonglong
)
@cython.returns(cython.int)
def _danger(x: int, unseen: int) -> int:
    """How many 3-card phỏm through ``x`` have both other cards unseen (the next seat may eat)."""
    d = 0
    for i in range(6 * x, 6 * x + 6):
        rest = _REST6[i]
        if rest & unseen == rest:
            d += 1
    return d


@cython.locals(
    h=cython.ulonglong,
    e=cython.ulonglong,
    unseen=cython.ulonglong,
    free=cython.ulonglong,
    bit=cython.ulonglong,
    h2=cython.ulonglong,
    c=cython.int,
    pot=cython.int,
    dan=cython.int,
    dw=cython.longlong,
    w=cython.double,
    base=cython.longlong,
)
def discard_terms(state, legal: list) -> list[tuple[int, float, int, int, int]]:
    """The terms of the discard choice, one tuple per card discard among ``legal`` (the seat to
    act's moves): ``(move, score, deadwood, potential, danger)``.  ``deadwood``: points of the
    hand left after the discard outside its best phỏm (10**6 when the eaten cards cannot all be
    melded); ``potential``: live 3-card phỏm two of whose cards stay in that deadwood;
    ``danger``: live 3-card phỏm through the discarded card (the next seat may eat it);
    ``score = deadwood - 3 * potential + w * danger`` (lower is better; ``w`` larger for chốt
    discards).  Reads only the acting seat's information."""
    p = state.cur
    h = state.hands[p]
    e = state.eaten[p]
    one = state.game._one
    unseen = _unseen(state, p)
    chot = state.s_now <= state.n
    w = 4.0 if chot else 1.5
    if state.laid >> p & 1 or state.phase != DISCARD:
        w = 0.5 if not chot else 3.0
    # A card of h in no meld of h (free) leaves the other cards' best arrangement as it is:
    # without it the deadwood is the whole hand's less its points (rules.min_deadwood).
    free = h & ~R.meldable(h)
    base = -1
    if free and not free & e:
        pts, free_melded = R._min_deadwood(h ^ free, e, one)
        if pts < R._NO_COVER:
            base = pts + R.points(free)
    out = []
    for mv in legal:
        if mv == U or not 0 <= mv < 52:
            continue
        c = mv
        bit = cython.cast(cython.ulonglong, 1) << c
        h2 = h & ~bit
        if base >= 0 and bit & free:
            dw = base - R.POINTS[c]
            melded = free_melded
        else:
            dw, melded = R.min_deadwood(h2, e, one)
        pot = _potential(h2, melded, unseen)
        dan = _danger(c, unseen)
        out.append((mv, dw - 3.0 * pot + w * dan, dw, pot, dan))
    return out


def discard_key(terms: tuple) -> tuple:
    """Sort key of :func:`discard_terms` rows: the bot discards the smallest (best score, then
    the highest card, then the lowest id)."""
    return (terms[1], -R.POINTS[terms[0]], terms[0])


def _choose_discard(state, legal: list) -> int:
    return min(discard_terms(state, legal), key=discard_key)[0]


def _lay_value(state, arr: tuple) -> float:
    """Points left after laying ``arr``, sending greedily and discarding the highest card (lower
    is better); laying nothing while a meld is possible costs a móm penalty."""
    p = state.cur
    h = state.hands[p]
    used = 0
    for m in arr:
        used |= m
    left = h & ~used
    has_own = bool(arr) or any(t[0] == p for t in state.table)
    if state.kind == TAI_KIND:
        can_send = has_own and state.game._tai_send
        targets = [t[1] for t in state.table] + list(arr)
    else:
        can_send = bool(arr)
        targets = [t[1] for t in state.table if t[0] != p]
    if can_send:
        changed = True
        while changed and left.bit_count() > 1:
            changed = False
            for i, m in enumerate(targets):
                acc = R.meld_accepts(m) & left
                if acc:
                    low = acc & -acc
                    left ^= low
                    targets[i] = m | low
                    changed = True
                    if left.bit_count() <= 1:
                        break
    pts = R.points(left)
    if left:
        pts -= max(R.POINTS[x] for x in R.bits(left))
    mom = not arr and not any(t[0] == p for t in state.table)
    return pts + (40 if mom else 0) - 0.01 * len(arr)


def heuristic_move(state, rng: random.Random):
    """The club player's move for the seat to act."""
    legal = state.legal_moves()
    if len(legal) == 1:
        return legal[0]
    if U in legal:
        return U
    ph = state.phase
    if ph == TAKE:
        for mv in legal:
            if isinstance(mv, int) and EAT <= mv < EAT + 52:
                return mv
        return legal[0]
    if ph == LAY:
        return min(
            (mv for mv in legal if isinstance(mv, tuple)),
            key=lambda a: (_lay_value(state, a), [R.meld_key(m) for m in a]),
        )
    if ph == SEND:
        sends = [mv for mv in legal if isinstance(mv, int) and mv >= SEND_BASE]
        if sends:
            return max(sends, key=lambda mv: (R.POINTS[(mv - SEND_BASE) % 64], -mv))
    return _choose_discard(state, legal)
