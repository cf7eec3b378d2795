"""Pure Phỏm rules on card masks (no state): melds, cạ, the eaten-cover invariant, tied cards,
arrangements, Ù tests, points, sends.

Internal card layout
--------------------
The engine works on its own *internal* card index ``x = 13 * suit + (rank - 1)`` where ``suit``
is ``S C D H`` -> 0..3 (as in :mod:`games.cards`) and ``rank`` is the Phỏm rank ``A=1 .. K=13``.
Each suit is then one contiguous 13-bit block with A lowest, so a run is a run of adjacent bits
that never crosses a block edge (K and A are never adjacent) and a set is the same bit in several
blocks.  :data:`TO_INT` / :data:`TO_EXT` convert single cards and :func:`mask_to_int` /
:func:`mask_to_ext` convert masks between this layout and the project's card ids
(``games.cards``: ``4 * rank_index + suit``).  Every function of this module takes and returns
internal masks unless its name says ``ext``.

The eaten-cover invariant (``docs/rules/phom.md`` §3)
------------------------------------------------------
``cover(h, e)``: the hand ``h`` (eaten cards ``e`` included) holds pairwise-disjoint melds, each
with exactly one eaten card (or, with ``one_per_meld=False``, at least one), that together hold
every eaten card.  With one eaten card per meld a cover exists iff one exists with 3-card melds
(shrink each meld to 3 cards around its eaten card), so the search only tries the at most six
3-card melds through each eaten card.
"""

from __future__ import annotations

from functools import lru_cache

from quansu.games.caches import cache_size
from quansu.games.cards import PHOM_RANK

#: The turn's phases (``PhomState.phase``, the turn as moves: :mod:`games.phom.game`) and their
#: names; the kinds of turn (``PhomState.kind``): a normal turn, the lay-down turn, a tái turn.
TAKE, LAY, SEND, DISCARD, OVER = 0, 1, 2, 3, 4
PHASE_NAMES = ("take", "lay", "send", "discard", "over")
NORMAL, LAYDOWN, TAI = 0, 1, 2
#: Move values besides a discard (the internal card ``x``) and a lay (a tuple of meld masks):
#: ``EAT + x``, :data:`DRAW`, :data:`U`, ``SEND_BASE + 64 * meld id + x``.
EAT = 64
DRAW = 200
U = 202
SEND_BASE = 256

SUIT_BLOCK = 0x1FFF
FULL = (1 << 52) - 1
SUIT_MASK = tuple(SUIT_BLOCK << (13 * s) for s in range(4))
#: RANK_MASK[r]: the four cards of rank r (0 = A .. 12 = K).
RANK_MASK = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in range(13))
#: Cards that can start a 3-card run (rank A..J).
RUN_START = sum(((1 << 11) - 1) << (13 * s) for s in range(4))
#: Points of each internal card: A=1 .. K=13.
POINTS = tuple(x % 13 + 1 for x in range(52))
K_RANK = 12

#: TO_INT[ext card id] -> internal index; TO_EXT[internal] -> ext card id.
TO_INT = tuple(13 * (c & 3) + PHOM_RANK[c >> 2] - 1 for c in range(52))
TO_EXT = tuple(sorted(range(52), key=lambda c: TO_INT[c]))
assert all(TO_INT[TO_EXT[x]] == x for x in range(52))


def _chunk_tables(perm: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    out = []
    for k in range(7):
        row = []
        for byte in range(256):
            m = 0
            for b in range(8):
                i = 8 * k + b
                if byte >> b & 1 and i < 52:
                    m |= 1 << perm[i]
            row.append(m)
        out.append(tuple(row))
    return tuple(out)


_TO_INT_TABLE = _chunk_tables(TO_INT)
_TO_EXT_TABLE = _chunk_tables(TO_EXT)


def mask_to_int(m: int) -> int:
    """Ext card mask (games.cards ids) -> internal mask."""
    t = _TO_INT_TABLE
    return (
        t[0][m & 255]
        | t[1][m >> 8 & 255]
        | t[2][m >> 16 & 255]
        | t[3][m >> 24 & 255]
        | t[4][m >> 32 & 255]
        | t[5][m >> 40 & 255]
        | t[6][m >> 48 & 255]
    )


def mask_to_ext(m: int) -> int:
    """Internal mask -> ext card mask (games.cards ids)."""
    t = _TO_EXT_TABLE
    return (
        t[0][m & 255]
        | t[1][m >> 8 & 255]
        | t[2][m >> 16 & 255]
        | t[3][m >> 24 & 255]
        | t[4][m >> 32 & 255]
        | t[5][m >> 40 & 255]
        | t[6][m >> 48 & 255]
    )


def _bit_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    base = [tuple(i for i in range(13) if v >> i & 1) for v in range(1 << 13)]
    return tuple(tuple(tuple(13 * s + i for i in t) for t in base) for s in range(4))


_B0, _B1, _B2, _B3 = _bit_tables()


def bits(m: int) -> list[int]:
    """Indices of the set bits of a card mask ``m`` (< 2**52), ascending."""
    return [*_B0[m & 0x1FFF], *_B1[m >> 13 & 0x1FFF], *_B2[m >> 26 & 0x1FFF], *_B3[m >> 39]]


def rank_of(x: int) -> int:
    """Phỏm rank 0..12 (A..K) of an internal card."""
    return x % 13


def suit_of(x: int) -> int:
    """Suit 0..3 (S C D H) of an internal card."""
    return x // 13


def card_key(x: int) -> int:
    """Sort key of an internal card in notation order (A low .. K, equal ranks S C D H)."""
    return (x % 13) * 4 + x // 13


def _block_points() -> tuple[int, ...]:
    """Points of every 13-bit suit block (bit r = the card of rank r: r + 1 points)."""
    out = [0] * (1 << 13)
    for b in range(1, 1 << 13):
        low = b & -b
        out[b] = out[b ^ low] + low.bit_length()
    return tuple(out)


_BLOCK_POINTS = _block_points()


def points(m: int) -> int:
    """Card points of a mask (A=1, 2..10 face value, J=11, Q=12, K=13)."""
    t = _BLOCK_POINTS
    return t[m & 0x1FFF] + t[m >> 13 & 0x1FFF] + t[m >> 26 & 0x1FFF] + t[m >> 39]


# -- meld tables --------------------------------------------------------------------------------


def _run(x: int, length: int) -> int:
    return ((1 << length) - 1) << x


def _all_melds() -> list[int]:
    out = []
    for s in range(4):
        for a in range(13):
            for length in range(3, 14 - a):
                out.append(_run(13 * s + a, length))
    for r in range(13):
        full = RANK_MASK[r]
        for s in range(4):
            out.append(full & ~(1 << (13 * s + r)))
        out.append(full)
    return out


#: Every meld of the deck (264 runs, 65 sets) as internal masks.
ALL_MELDS: tuple[int, ...] = tuple(_all_melds())
IS_MELD = frozenset(ALL_MELDS)
#: MELDS_WITH[x]: every meld containing card x.
MELDS_WITH: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted((m for m in ALL_MELDS if m >> x & 1), key=lambda m: (m.bit_count(), m)))
    for x in range(52)
)
#: MIN_MELDS[x]: the 3-card melds containing x (at most 3 sets and 3 runs).
MIN_MELDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(m for m in MELDS_WITH[x] if m.bit_count() == 3) for x in range(52)
)


def is_meld(m: int) -> bool:
    """True iff the internal mask ``m`` is one phỏm (a set of 3-4 or a run of >= 3, A low)."""
    return m in IS_MELD


def is_set(m: int) -> bool:
    """True iff ``m`` is a meld whose cards share one rank."""
    if m not in IS_MELD:
        return False
    low = (m & -m).bit_length() - 1
    return m & RANK_MASK[low % 13] == m


def meld_key(m: int) -> int:
    """Sort key of a meld: its lowest card in notation order."""
    return min(card_key(x) for x in bits(m))


def is_ca(x: int, y: int) -> bool:
    """True iff the two internal cards are a cạ: same rank, or same suit with ranks 1 or 2 apart
    (A low; K-A is not adjacent)."""
    if x == y:
        return False
    if x % 13 == y % 13:
        return True
    return x // 13 == y // 13 and abs(x - y) <= 2


def meld_accepts(m: int) -> int:
    """Mask of the cards that can be sent to the laid meld ``m`` (a 4th card of a 3-card set, or a
    card extending a run at either end)."""
    low = (m & -m).bit_length() - 1
    rm = RANK_MASK[low % 13]
    if m & rm == m:
        return rm & ~m if m.bit_count() == 3 else 0
    return ((m << 1) | (m >> 1)) & SUIT_MASK[low // 13] & ~m


# -- fast structure tests -----------------------------------------------------------------------


def meldable(h: int) -> int:
    """Cards of ``h`` that lie in at least one meld inside ``h``."""
    r = h & (h >> 1) & (h >> 2) & RUN_START
    out = r | (r << 1) | (r << 2)
    a = h & SUIT_BLOCK
    b = (h >> 13) & SUIT_BLOCK
    c = (h >> 26) & SUIT_BLOCK
    d = h >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    if t:
        out |= (t | t << 13 | t << 26 | t << 39) & h
    return out


def has_ca_or_meld(h: int) -> bool:
    """True iff ``h`` holds two cards of one rank or a cạ of one suit (so also any meld)."""
    a = h & SUIT_BLOCK
    b = (h >> 13) & SUIT_BLOCK
    c = (h >> 26) & SUIT_BLOCK
    d = h >> 39
    if (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d):
        return True
    for blk in (a, b, c, d):
        if blk & (blk >> 1) or blk & (blk >> 2):
            return True
    return False


def is_u_khan(h: int) -> bool:
    """Ù khan: the hand holds no meld and no cạ (all ranks differ; within a suit ranks differ by
    at least 3)."""
    return not has_ca_or_meld(h)


def melds_in(h: int) -> list[int]:
    """Every meld that lies inside ``h``, sorted by (lowest card, mask)."""
    out = []
    r = h & (h >> 1) & (h >> 2) & RUN_START
    while r:
        low = r & -r
        x = low.bit_length() - 1
        r ^= low
        length = 3
        end = 13 * (x // 13 + 1)
        while x + length < end and h >> (x + length) & 1:
            length += 1
        for n in range(3, length + 1):
            out.append(_run(x, n))
    a = h & SUIT_BLOCK
    b = (h >> 13) & SUIT_BLOCK
    c = (h >> 26) & SUIT_BLOCK
    d = h >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    while t:
        low = t & -t
        rk = low.bit_length() - 1
        t ^= low
        have = h & RANK_MASK[rk]
        if have.bit_count() == 4:
            out.append(have)
            for s in range(4):
                out.append(have & ~(1 << (13 * s + rk)))
        else:
            out.append(have)
    out.sort(key=lambda m: (meld_key(m), m))
    return out


# -- the eaten-cover invariant ------------------------------------------------------------------


def cover(h: int, e: int, one_per_meld: bool = True) -> bool:
    """True iff ``h`` (which contains the eaten cards ``e``) holds disjoint melds covering every
    eaten card, each meld with exactly one eaten card (``one_per_meld``) or at least one."""
    if not e:
        return True
    low = e & -e
    x = low.bit_length() - 1
    if one_per_meld:
        for m in MIN_MELDS[x]:
            if m & h == m and m & e == low and cover(h ^ m, e ^ low, True):
                return True
    else:
        for m in MELDS_WITH[x]:
            if m & h == m and cover(h & ~m, e & ~m, False):
                return True
    return False


def _cover_unions(h: int, e: int, one: bool, used: int, out: list[int]) -> None:
    if not e:
        out.append(used)
        return
    low = e & -e
    x = low.bit_length() - 1
    if one:
        for m in MIN_MELDS[x]:
            if m & h == m and m & e == low:
                _cover_unions(h ^ m, e ^ low, True, used | m, out)
    else:
        for m in MELDS_WITH[x]:
            if m & h == m:
                _cover_unions(h & ~m, e & ~m, False, used | m, out)


def tied(h: int, e: int, one_per_meld: bool = True) -> int:
    """Mask of the non-eaten cards of ``h`` that lie in every cover (tied cards, bị trói): taking
    one of them out of the hand would leave an eaten card outside every meld.  Returns ``h``
    minus ``e`` when no cover exists at all."""
    if not e:
        return 0
    unions: list[int] = []
    _cover_unions(h, e, one_per_meld, 0, unions)
    if not unions:
        return h & ~e
    acc = unions[0]
    for u in unions:
        acc &= u
    return acc & ~e


def can_eat(h: int, e: int, c: int, one_per_meld: bool = True) -> bool:
    """True iff eating internal card ``c`` keeps the invariant: ``cover(h + c, e + c)``."""
    bit = 1 << c
    h |= bit
    if not e:
        # fast path: a meld through c inside h + c
        for m in MIN_MELDS[c]:
            if m & h == m:
                return True
        return False
    return cover(h, e | bit, one_per_meld)


def legal_discards(h: int, e: int, one_per_meld: bool = True) -> int:
    """Mask of the cards that may be discarded: not eaten and not tied."""
    if not e:
        return h
    return h & ~e & ~tied(h, e, one_per_meld)


# -- arrangements and Ù -------------------------------------------------------------------------


def _fit(h: int, e: int, budget: int, one: bool) -> bool:
    if not h:
        return True
    low = h & -h
    x = low.bit_length() - 1
    if budget and not low & e and _fit(h ^ low, e, budget - 1, one):
        return True
    for m in MELDS_WITH[x]:
        if m & h == m:
            em = m & e
            if one and em & (em - 1):
                continue
            if _fit(h ^ m, e & ~m, budget, one):
                return True
    return False


def can_u(h: int, e: int, one_per_meld: bool = True) -> bool:
    """Ù test on a hand after taking: at least one meld and at most one card outside disjoint melds
    that satisfy the eaten-cover condition."""
    n = h.bit_count()
    if n < 2:
        return False
    mb = meldable(h)
    if (h & ~mb).bit_count() > 1 or e & ~mb:
        return False
    return _fit(h, e, 1, one_per_meld)


def can_fill(h: int, e: int, one_per_meld: bool = True) -> bool:
    """True iff every card of ``h`` lies in disjoint melds satisfying the eaten-cover condition
    (the Ù tròn test on a 10-card hand)."""
    if not h or meldable(h) != h:
        return False
    return _fit(h, e, 0, one_per_meld)


def arrangements(
    h: int, e: int, one_per_meld: bool = True, min_left: int = 1, cands: list[int] | None = None
) -> list[tuple[int, ...]]:
    """Every legal lay-down arrangement of ``h``: sets of pairwise-disjoint melds inside ``h``,
    each eaten card in a different meld (or in some meld when not ``one_per_meld``), leaving at
    least ``min_left`` cards in hand.  Each arrangement is a tuple of meld masks sorted by lowest
    card; the empty tuple (lay nothing) is included when ``e`` is empty.  Order: deterministic."""
    if cands is None:
        cands = melds_in(h)
    if one_per_meld and e:
        cands = [m for m in cands if (m & e).bit_count() <= 1]
    out: list[tuple[int, ...]] = []
    _arrange(cands, e, h.bit_count() - min_left, 0, 0, [], out)
    return out


def _arrange(
    cands: list[int],
    e: int,
    most: int,
    i: int,
    used: int,
    chosen: list[int],
    out: list[tuple[int, ...]],
) -> None:
    """:func:`arrangements`' walk: append to ``out`` every arrangement that extends ``chosen``
    (the melds taken so far, covering ``used``) with melds from ``cands[i:]``, covering at most
    ``most`` cards.  (A module function, not a closure: a recursive closure is a reference
    cycle, garbage on every call that only the cyclic collector frees.)"""
    if not e & ~used and used.bit_count() <= most:
        out.append(tuple(chosen))
    for j in range(i, len(cands)):
        m = cands[j]
        if m & used:
            continue
        chosen.append(m)
        _arrange(cands, e, most, j + 1, used | m, chosen, out)
        chosen.pop()


def min_deadwood(h: int, e: int, one_per_meld: bool = True) -> tuple[int, int]:
    """Best arrangement for points: ``(deadwood points, melded mask)`` minimising the points of
    the cards left outside disjoint melds (eaten cards must be melded, one per meld).  Returns
    ``(10**6, 0)`` when no cover exists.

    The cards of ``h`` in no meld inside ``h`` are deadwood in every arrangement, and removing
    them changes no meld of the rest: the best arrangement of the other cards, plus their points,
    is the answer (the same one the search over all of ``h`` finds).  So the search (cached,
    :func:`_min_deadwood`) runs on the meldable cards only, and hands that differ in such cards
    (a seat's candidate discards) share it.  When an eaten card is among them, or no cover
    exists, the search runs on the whole hand as given (the same value as ever)."""
    free = h & ~meldable(h)
    if free and not free & e:
        pts, melded = _min_deadwood(h ^ free, e, one_per_meld)
        if pts < _NO_COVER:
            return (pts + points(free), melded)
    return _min_deadwood(h, e, one_per_meld)


#: Deadwood at or above this: no cover (``_best``'s 10**6, plus the points of cards it skipped).
_NO_COVER = 10**6


@lru_cache(maxsize=cache_size("phom_deadwood"))
def _min_deadwood(h: int, e: int, one_per_meld: bool = True) -> tuple[int, int]:
    """:func:`min_deadwood` by search over the whole of ``h`` (LRU-cached)."""
    return _best(h, e, one_per_meld, {})


#: the LRU cache's figures and reset (the cache now sits on the search of the meldable cards)
min_deadwood.cache_info = _min_deadwood.cache_info
min_deadwood.cache_clear = _min_deadwood.cache_clear


def _best(h: int, e: int, one: bool, memo: dict) -> tuple[int, int]:
    if not h:
        return (0, 0)
    key = (h, e)
    got = memo.get(key)
    if got is not None:
        return got
    low = h & -h
    x = low.bit_length() - 1
    best = (10**6, 0)
    mb = meldable(h)
    if not low & e:
        if not low & mb:
            sub = _best(h ^ low, e, one, memo)
            res = (sub[0] + POINTS[x], sub[1])
            memo[key] = res
            return res
        sub = _best(h ^ low, e, one, memo)
        best = (sub[0] + POINTS[x], sub[1])
    for m in MELDS_WITH[x]:
        if m & h == m:
            em = m & e
            if one and em & (em - 1):
                continue
            sub = _best(h ^ m, e & ~m, one, memo)
            if sub[0] < best[0]:
                best = (sub[0], sub[1] | m)
    memo[key] = best
    return best


_RUN5_START = sum(((1 << 9) - 1) << (13 * s) for s in range(4))


def five_in_row(m: int) -> bool:
    """True iff ``m`` holds 5 consecutive ranks of one suit (đồng hoa)."""
    return bool(m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4) & _RUN5_START)


# -- text ---------------------------------------------------------------------------------------

_RANK_TXT = "A23456789TJQK"
_SUIT_TXT = "SCDH"


def card_text(x: int) -> str:
    """Canonical text of an internal card, e.g. ``"7H"``."""
    return _RANK_TXT[x % 13] + _SUIT_TXT[x // 13]


def mask_text(m: int) -> str:
    """Cards of an internal mask in notation order separated by spaces."""
    return " ".join(card_text(x) for x in sorted(bits(m), key=card_key))
