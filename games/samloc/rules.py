"""Pure Sâm lốc rules on card masks: classify, generate and compare combinations, instant wins.

Cards are the ids of :mod:`games.cards` (``id = 4 * rank_index + suit_index``, rank index
``3 4 5 6 7 8 9 T J Q K A 2`` -> 0..12).  A card set is a 52-bit ``int`` mask.  Suits never
compare in Sâm: two cards of one rank are equal.

A combination is described by ``(ctype, length, key)``:

* ``ctype``: :data:`SINGLE`, :data:`PAIR`, :data:`TRIPLE`, :data:`QUAD` (tứ quý),
  :data:`STRAIGHT` (sảnh) or :data:`DQUAD` (two fours of a kind played together);
* ``length``: number of cards;
* ``key``: what compares within one shape.  Singles, pairs, triples and quads: the rank index
  (0..12).  Straights: the sequence value of the highest card, where a straight holding a 2 maps
  ``A -> 1, 2 -> 2`` and any other straight maps ``A -> 14``; 3..K are 3..13 (so ``A 2 3`` has
  key 3 and ``Q K A`` key 14).  Double quads: the rank index of the higher quad.

Straights are generated as windows ``[a, b]`` of sequence values 1..14 (value -> rank index by
:data:`VALUE_RANK`); a window holding value 14 (A high) must start at 3 or more, so ``K A 2`` and
wraps never occur.  With ``allow_two = False`` (option ``straight_allows_two``) only values 3..14
are used.
"""

from __future__ import annotations

from quansu.games.cards import CARD_BIT

#: The moves that are not card masks: a pass, and the báo sâm answers (above every card bit).
PASS = 0
DECLARE = 1 << 52
DECLINE = 1 << 53

SINGLE, PAIR, TRIPLE, QUAD, STRAIGHT, DQUAD = 1, 2, 3, 4, 5, 6
COMBO_NAMES = {
    SINGLE: "single",
    PAIR: "pair",
    TRIPLE: "triple",
    QUAD: "quad",
    STRAIGHT: "straight",
    DQUAD: "double_quad",
}

ACE, TWO = 11, 12
TWOS = 0xF << (4 * TWO)
NIB1 = int("1" * 13, 16)  # bit 0 of every rank nibble
BLACK = int("3" * 13, 16)  # spades and clubs
RED = int("C" * 13, 16)  # diamonds and hearts
FULL = (1 << 52) - 1

#: Sequence value (1..14) -> rank index; index 0 unused.
VALUE_RANK = (-1, ACE, TWO, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ACE)

# Instant-win types, highest priority first has the largest number.
IW_NONE, IW_FIVE_PAIRS, IW_THREE_TRIPLES, IW_SAME_COLOUR, IW_FOUR_TWOS, IW_DRAGON = 0, 1, 2, 3, 4, 5
INSTANT_WIN_NAMES = {
    IW_DRAGON: "sảnh rồng",
    IW_FOUR_TWOS: "tứ quý 2",
    IW_SAME_COLOUR: "đồng hoa",
    IW_THREE_TRIPLES: "3 xám",
    IW_FIVE_PAIRS: "5 đôi",
}


def _subs(nib: int, k: int) -> tuple[int, ...]:
    out = []
    for s in range(1, 16):
        if s & nib == s and bin(s).count("1") == k:
            out.append(s)
    return tuple(out)


#: SUBS_AT[k][r][nib]: the k-card sub-masks (as card masks, shifted to rank r) of a rank nibble.
SUBS_AT = [
    [[tuple(s << (4 * r) for s in _subs(nib, k)) for nib in range(16)] for r in range(13)]
    for k in range(5)
]
BIT = CARD_BIT


def rank_counts(mask: int) -> int:
    """Per-rank card counts packed in nibbles (nibble r holds 0..4)."""
    x = mask - ((mask >> 1) & 0x5555555555555)
    return (x & 0x3333333333333) + ((x >> 2) & 0x3333333333333)


def _compress(x: int) -> int:
    """Bits at positions 4r (r = 0..12) -> bit r."""
    x = (x | (x >> 3)) & 0x03030303030303
    x = (x | (x >> 6)) & 0x000F000F000F000F
    x = (x | (x >> 12)) & 0x000000FF000000FF
    return (x | (x >> 24)) & 0xFFFF


def ranks_present(mask: int) -> int:
    """13-bit mask of the ranks present in ``mask`` (bit r = rank index r)."""
    c = rank_counts(mask)
    return _compress((c | (c >> 1) | (c >> 2)) & NIB1)


def ranks_with_at_least(mask: int, k: int) -> int:
    """13-bit mask of the ranks with at least ``k`` cards (k = 1..4)."""
    c = rank_counts(mask)
    if k == 1:
        m = c | (c >> 1) | (c >> 2)
    elif k == 2:
        m = (c >> 1) | (c >> 2)
    elif k == 3:
        m = (c & (c >> 1)) | (c >> 2)
    else:
        m = c >> 2
    return _compress(m & NIB1)


def value_mask(rp: int, allow_two: bool) -> int:
    """Sequence-value mask (bits 1..14) of a 13-bit rank-present mask."""
    vm = (rp & 0xFFF) << 3
    if allow_two:
        vm |= ((rp >> ACE) & 1) << 1 | ((rp >> TWO) & 1) << 2
    return vm


def straight_key(mask: int, allow_two: bool = True) -> int:
    """Key of ``mask`` as a straight (>= 3 cards of distinct consecutive values), else 0."""
    n = mask.bit_count()
    if n < 3:
        return 0
    rp = ranks_present(mask)
    if rp.bit_count() != n:
        return 0
    if rp >> TWO & 1:
        if not allow_two:
            return 0
        vm = (rp & 0xFFF) << 3
        vm = (vm & ~(1 << 14)) | ((rp >> ACE) & 1) << 1 | 1 << 2
    else:
        vm = (rp & 0xFFF) << 3
    low = (vm & -vm).bit_length() - 1
    if vm >> low != (1 << n) - 1:
        return 0
    return low + n - 1


def classify(mask: int, allow_two: bool = True, double_quad: bool = True):
    """``(ctype, length, key)`` of a card mask, or ``None`` if it is not a Sâm combination."""
    if mask <= 0 or mask > FULL:
        return None
    n = mask.bit_count()
    low = (mask & -mask).bit_length() - 1
    r = low >> 2
    if n <= 4 and mask >> (4 * r) <= 15:
        return (SINGLE, PAIR, TRIPLE, QUAD)[n - 1], n, r
    if n == 8 and double_quad:
        hi = mask.bit_length() - 1 >> 2
        if mask == (0xF << (4 * r)) | (0xF << (4 * hi)):
            return DQUAD, 8, hi
    k = straight_key(mask, allow_two)
    if k:
        return STRAIGHT, n, k
    return None


def _straights(hand: int, allow_two: bool, length: int, min_key: int, out: list) -> None:
    """Append every straight of ``hand`` (length ``length``, or every length >= 3 when
    ``length`` is 0) whose key is > ``min_key``."""
    c = rank_counts(hand)
    rp = _compress((c | (c >> 1) | (c >> 2)) & NIB1)
    vm = (rp & 0xFFF) << 3
    if allow_two:
        vm |= ((rp >> ACE) & 1) << 1 | ((rp >> TWO) & 1) << 2
    if length:
        # windows [b-length+1, b] with b > min_key
        m = vm
        for _ in range(length - 1):
            m &= m >> 1  # bit a set iff values a..a+length-1 all present
        a_min = max(min_key - length + 2, 1)
        m >>= a_min
        a = a_min
        sub1 = SUBS_AT[1]
        while m:
            if m & 1:
                if not (a + length - 1 == 14 and a <= 2):
                    combos = [0]
                    for v in range(a, a + length):
                        r = VALUE_RANK[v]
                        singles = sub1[r][(hand >> (4 * r)) & 15]
                        combos = [x | s for x in combos for s in singles]
                    out.extend(combos)
            m >>= 1
            a += 1
        return
    # every length: walk the runs of present values
    sub1 = SUBS_AT[1]
    v = 1
    while vm >> v:
        if not (vm >> v) & 1:
            v += 1
            continue
        e = v
        while (vm >> (e + 1)) & 1:
            e += 1
        if e - v >= 2:
            for a in range(v, e - 1):
                combos = [0]
                for b in range(a, e + 1):
                    if b == 14 and a <= 2:
                        break
                    r = VALUE_RANK[b]
                    singles = sub1[r][(hand >> (4 * r)) & 15]
                    combos = [x | s for x in combos for s in singles]
                    if b - a >= 2:
                        out.extend(combos)
        v = e + 1


def _groups(hand: int, k: int, min_rank: int, out: list) -> None:
    """Append every k-card same-rank group (k = 2, 3, 4) of rank > ``min_rank``."""
    c = rank_counts(hand)
    if k == 2:
        m = ((c >> 1) | (c >> 2)) & NIB1
    elif k == 3:
        m = ((c & (c >> 1)) | (c >> 2)) & NIB1
    else:
        m = (c >> 2) & NIB1
    if min_rank >= 0:
        m = m >> (4 * (min_rank + 1)) << (4 * (min_rank + 1))
    subs = SUBS_AT[k]
    while m:
        low = m & -m
        r = low.bit_length() >> 2
        out.extend(subs[r][(hand >> (4 * r)) & 15])
        m ^= low


def _double_quads(hand: int, min_key: int, out: list) -> None:
    qr = ranks_with_at_least(hand, 4)
    if qr.bit_count() < 2:
        return
    ranks = [r for r in range(13) if qr >> r & 1]
    for j in range(len(ranks)):
        if ranks[j] <= min_key:
            continue
        for i in range(j):
            out.append((0xF << (4 * ranks[i])) | (0xF << (4 * ranks[j])))


def _singles(hand: int, min_rank: int, out: list) -> None:
    m = hand >> (4 * (min_rank + 1)) << (4 * (min_rank + 1))
    while m:
        low = m & -m
        out.append(low)
        m ^= low


def highest_rank_singles(hand: int) -> list[int]:
    """The cards of the highest rank in ``hand`` (one single move each)."""
    r = (hand.bit_length() - 1) >> 2
    return _split(hand & (0xF << (4 * r)))


def _split(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low)
        m ^= low
    return out


def lead_combos(hand: int, allow_two: bool = True, forced_high_single: bool = False) -> list[int]:
    """Every combination that may lead a round from ``hand`` (double quads never lead).

    Order: singles, then pairs, triples and quads by rank, then straights by start and
    length.  ``forced_high_single``: the báo một "forced" rule - singles only of the highest
    rank held.
    """
    out = highest_rank_singles(hand) if forced_high_single else _split(hand)
    if hand & (hand - 1):
        c = rank_counts(hand)
        m = ((c >> 1) | (c >> 2)) & NIB1  # ranks with >= 2 cards (bit 4r)
        if m:
            s2, s3 = SUBS_AT[2], SUBS_AT[3]
            while m:
                low = m & -m
                r = low.bit_length() >> 2
                nib = (hand >> (4 * r)) & 15
                out.extend(s2[r][nib])
                if nib in _GE3:
                    out.extend(s3[r][nib])
                    if nib == 15:
                        out.append(15 << (4 * r))
                m ^= low
        p = _compress((c | (c >> 1) | (c >> 2)) & NIB1)
        vm = (p & 0xFFF) << 3
        if allow_two:
            vm |= ((p >> ACE) & 1) << 1 | ((p >> TWO) & 1) << 2
        if vm & (vm >> 1) & (vm >> 2):
            _straights(hand, allow_two, 0, 0, out)
    return out


_GE3 = frozenset(n for n in range(16) if n.bit_count() >= 3)


def beating_combos(
    hand: int,
    ctype: int,
    length: int,
    key: int,
    allow_two: bool = True,
    double_quad: bool = True,
    quad_chops_pair_of_twos: bool = False,
    forced_high_single: bool = False,
) -> list[int]:
    """Every combination of ``hand`` that beats a top of ``(ctype, length, key)`` (no pass).

    Same shape with a strictly higher key, plus chops: a quad on a single 2, a double quad (or,
    with ``quad_chops_pair_of_twos``, a quad) on a pair of 2s, a higher quad on a quad, a higher
    double quad on a double quad.
    """
    out: list[int] = []
    if ctype == SINGLE:
        if forced_high_single:
            r = (hand.bit_length() - 1) >> 2
            if r > key:
                out = _split(hand & (0xF << (4 * r)))
        else:
            _singles(hand, key, out)
        if key == TWO:
            _groups(hand, 4, -1, out)
    elif ctype == PAIR:
        _groups(hand, 2, key, out)
        if key == TWO:
            if quad_chops_pair_of_twos:
                _groups(hand, 4, -1, out)
            if double_quad:
                _double_quads(hand, -1, out)
    elif ctype == TRIPLE:
        _groups(hand, 3, key, out)
    elif ctype == STRAIGHT:
        if hand.bit_count() >= length:
            _straights(hand, allow_two, length, key, out)
    elif ctype == QUAD:
        _groups(hand, 4, key, out)
    elif ctype == DQUAD:
        _double_quads(hand, key, out)
    return out


def can_beat(
    hand: int,
    ctype: int,
    length: int,
    key: int,
    allow_two: bool = True,
    double_quad: bool = True,
    quad_chops_pair_of_twos: bool = False,
) -> bool:
    """Whether ``hand`` holds a combination that beats a top of ``(ctype, length, key)``:
    ``bool(beating_combos(...))`` (``forced_high_single`` off) without listing them."""
    c = rank_counts(hand)
    if ctype == SINGLE:
        if hand >> (4 * (key + 1)):
            return True
        return key == TWO and (c >> 2) & NIB1 != 0
    if ctype == PAIR:
        if ((c >> 1) | (c >> 2)) & NIB1 & (FULL << (4 * (key + 1))):
            return True
        if key == TWO:
            quads = (c >> 2) & NIB1
            if quads and (quad_chops_pair_of_twos or (double_quad and quads & (quads - 1))):
                return True
        return False
    if ctype == TRIPLE:
        return ((c & (c >> 1)) | (c >> 2)) & NIB1 & (FULL << (4 * (key + 1))) != 0
    if ctype == QUAD:
        return (c >> 2) & NIB1 & (FULL << (4 * (key + 1))) != 0
    if ctype == DQUAD:
        quads = (c >> 2) & NIB1
        return quads & (quads - 1) != 0 and (quads.bit_length() - 1) >> 2 > key
    if ctype == STRAIGHT:
        if hand.bit_count() < length:
            return False
        rp = _compress((c | (c >> 1) | (c >> 2)) & NIB1)
        vm = (rp & 0xFFF) << 3
        if allow_two:
            vm |= ((rp >> ACE) & 1) << 1 | ((rp >> TWO) & 1) << 2
        m = vm
        for _ in range(length - 1):
            m &= m >> 1  # bit a set iff values a..a+length-1 all present
        m >>= max(key - length + 2, 1)
        m <<= max(key - length + 2, 1)
        if 13 <= length <= 14:  # a window ending on 14 (A high) must not start at 1 or 2
            m &= ~(1 << (15 - length))
        return m != 0
    return False


def beats(
    move: tuple, top: tuple, double_quad: bool = True, quad_chops_pair_of_twos: bool = False
) -> bool:
    """Whether a combination ``(ctype, length, key)`` beats the top ``(ctype, length, key)``."""
    mt, ml, mk = move
    tt, tl, tk = top
    if mt == tt and ml == tl:
        return mk > tk
    if mt == QUAD:
        return (tt == SINGLE and tk == TWO) or (
            quad_chops_pair_of_twos and tt == PAIR and tk == TWO
        )
    if mt == DQUAD:
        return double_quad and tt == PAIR and tk == TWO
    return False


def has_multi_card_combo(hand: int, allow_two: bool = True) -> bool:
    """Whether ``hand`` holds a pair (or more of a rank) or a straight."""
    if ranks_with_at_least(hand, 2):
        return True
    vm = value_mask(ranks_present(hand), allow_two)
    m = vm & (vm >> 1) & (vm >> 2)
    # a window starting at 1 or 2 and reaching 14 needs 13 values, impossible here
    return m != 0


def instant_win(hand: int, allow_two: bool = True) -> int:
    """The instant-win type of a 10-card hand (``IW_*``, 0 when none).  ``allow_two``: option
    ``straight_allows_two`` (whether a sảnh rồng may hold a 2)."""
    c = rank_counts(hand)
    ge1 = _compress((c | (c >> 1) | (c >> 2)) & NIB1)
    if ge1.bit_count() == 10 and hand.bit_count() == 10:
        if straight_key(hand, allow_two):
            return IW_DRAGON
    if hand & TWOS == TWOS:
        return IW_FOUR_TWOS
    if hand & RED == 0 or hand & BLACK == 0:
        return IW_SAME_COLOUR
    ge3 = (c & (c >> 1)) | (c >> 2)
    if (ge3 & NIB1).bit_count() >= 3:
        return IW_THREE_TRIPLES
    if c & NIB1 == 0:
        return IW_FIVE_PAIRS
    return IW_NONE


def sequence_order(mask: int) -> list[int]:
    """Card ids of ``mask`` in printing order: ascending rank (3..A, 2) then suit, except that a
    straight holding a 2 prints in its own sequence order (``AH 2D 3S``)."""
    ids = []
    m = mask
    while m:
        low = m & -m
        ids.append(low.bit_length() - 1)
        m ^= low
    if len(ids) >= 3 and mask & TWOS and straight_key(mask, True):
        ids.sort(key=lambda c: 1 if c >> 2 == ACE else 2 if c >> 2 == TWO else (c >> 2) + 3)
    return ids
