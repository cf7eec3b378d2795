"""Pure Tiến lên miền Nam rules on card masks (no state): classify / generate / filter.

Cards are ids 0..51 (:mod:`games.cards`); in Tiến lên the id *is* the card's strength
(``4 * rank_index + suit_index``, 3♠ = 0 ... 2♥ = 51).  A combination is an ``int`` mask of its
cards, and ``0`` is a pass.  Because strength == id, two combinations of the same shape compare
by their masks as integers: the higher top card decides (see :func:`beats_same_shape`), and a
list of same-shape masks sorted ascending is sorted by top card.

Shapes are small ints (``shape_of``):

* ``SINGLE`` (1), ``PAIR`` (2), ``TRIPLE`` (3), ``QUAD`` (4) - cards of one rank;
* ``STRAIGHT + k`` (16 + k, k = 3..12) - k consecutive ranks within 3..A, no 2;
* ``PAIRSEQ + k`` (32 + k, k = 3..6 with 13-card hands) - k consecutive pairs within 3..A.

Move generation is split three ways:

* **classify** - :func:`classify` (full validity check of any mask) and :func:`shape_of` (shape
  of a mask known to be a valid combination);
* **generate** - :func:`generate_sets`, :func:`generate_straights`, :func:`generate_pairseqs`
  (one family of shapes each; :func:`generate` = all three) list every combination of a hand,
  grouped by shape, each group sorted ascending (= by top card), built from per-rank nibble
  tables;
* **filter** - :func:`filter_groups` keeps the combinations that avoid removed cards (the
  combinations of a sub-hand are those of the hand that lie within it, so the engine filters its
  cached groups when a hand shrinks instead of regenerating); :func:`higher_of` keeps the
  members of a group that beat a top, :func:`lowest_combination` finds the smallest
  combination of a shape above a card without listing any, and :func:`chop_shapes` names the
  bomb shapes that may be played on it (the chop table).
"""

from __future__ import annotations

from bisect import bisect_left

try:
    import cython
except ImportError:  # no Cython installed: the same code runs untyped (games/_cy.py)
    from quansu.games import _cy as cython

SINGLE, PAIR, TRIPLE, QUAD = 1, 2, 3, 4
STRAIGHT = 16
PAIRSEQ = 32
PS3, PS4, PS5, PS6 = PAIRSEQ + 3, PAIRSEQ + 4, PAIRSEQ + 5, PAIRSEQ + 6

#: Mask of the four 2s (heo).
TWOS = 0xF << 48
#: Mask of the cards that may be in a straight / pair sequence (ranks 3..A).
NON_TWOS = (1 << 48) - 1
#: 3♠.
SPADE3 = 1

#: Every shape a 13-card hand can hold, in the order lead moves are listed.
ALL_SHAPES = (
    (SINGLE, PAIR, TRIPLE, QUAD) + tuple(STRAIGHT + k for k in range(3, 13)) + (PS3, PS4, PS5, PS6)
)

_POP = tuple(bin(v).count("1") for v in range(16))


def shape_name(shape: int) -> str:
    """Human name of a shape code, e.g. ``"straight of 5"``, ``"4 pair sequence"``."""
    if shape == SINGLE:
        return "single"
    if shape == PAIR:
        return "pair"
    if shape == TRIPLE:
        return "triple"
    if shape == QUAD:
        return "four of a kind"
    if STRAIGHT + 3 <= shape <= STRAIGHT + 12:
        return f"straight of {shape - STRAIGHT}"
    if PAIRSEQ + 3 <= shape <= PAIRSEQ + 12:
        return f"{shape - PAIRSEQ} pair sequence"
    return f"shape {shape}"


def combo_kind(shape: int) -> str:
    """MoveInfo.combo string of a shape: single, pair, triple, four_of_a_kind, straight,
    pair_sequence."""
    if shape <= QUAD:
        return ("", "single", "pair", "triple", "four_of_a_kind")[shape]
    return "straight" if shape < PAIRSEQ else "pair_sequence"


# --------------------------------------------------------------------------------------------
# classify


def shape_of(mask: int) -> int:
    """Shape of a mask that is known to be a valid non-empty combination (fast path).

    Same-rank sets span one rank; a straight of n cards spans n ranks; a pair sequence of n
    cards spans n/2 ranks, so the card count and the rank span decide.
    """
    n = mask.bit_count()
    if n == 1:
        return SINGLE
    span = ((mask.bit_length() - 1) >> 2) - (((mask & -mask).bit_length() - 1) >> 2) + 1
    if span == 1:
        return n
    if span == n:
        return STRAIGHT + n
    return PAIRSEQ + span


def classify(mask: int) -> int:
    """Shape of ``mask`` if it is a legal Tiến lên combination, else 0.

    ``mask``: a card-set mask (any int).  Checks everything: non-empty, within the deck, one
    rank for 1-4 cards, consecutive distinct ranks without a 2 for straights (k >= 3), exactly
    two cards of each of k >= 3 consecutive ranks without a 2 for pair sequences.
    """
    if mask <= 0 or mask >> 52:
        return 0
    n = mask.bit_count()
    lo_rank = ((mask & -mask).bit_length() - 1) >> 2
    hi_rank = (mask.bit_length() - 1) >> 2
    if lo_rank == hi_rank:
        return n  # 1..4 cards of one rank
    if n < 3 or mask & TWOS:
        return 0
    span = hi_rank - lo_rank + 1
    if span < 3:
        return 0
    if n == span:  # a straight: every rank of the span once (none twice)
        x = mask | mask >> 1 | mask >> 2 | mask >> 3
        return STRAIGHT + span if (x & _R_ALL).bit_count() == n else 0
    if n == 2 * span:  # a pair sequence: every rank of the span twice (none three times)
        x = mask - ((mask >> 1) & 0x5555555555555)
        c = (x & 0x3333333333333) + ((x >> 2) & 0x3333333333333)  # cards per rank nibble
        return PAIRSEQ + span if (((c >> 1) | (c >> 2)) & _R_ALL).bit_count() == span else 0
    return 0


def is_bomb_shape(shape: int, long_pair_sequence_is_bomb: bool = True) -> bool:
    """Whether a shape is a bomb (hàng): four of a kind, 3 or 4 pair sequence, and k >= 5 pair
    sequences when ``long_pair_sequence_is_bomb``."""
    if shape == QUAD or shape == PS3 or shape == PS4:
        return True
    return shape > PS4 and long_pair_sequence_is_bomb


def is_two_combo(mask: int, shape: int) -> bool:
    """A single, pair or triple of 2s."""
    return shape <= TRIPLE and mask >> 48 != 0


# --------------------------------------------------------------------------------------------
# beating (docs/rules/tienlen.md "Beating the table"; used by the engine and by the tests'
# cross-checks)


def beats_same_shape(x: int, t: int) -> bool:
    """``x`` beats ``t`` when both have the same shape: its top card is stronger."""
    return x > t  # same shape: the highest differing card is in the higher-topped mask


def chop_shapes(
    top: int, top_shape: int, quad_chops_pair_of_twos: bool, long_pair_sequence_is_bomb: bool
) -> tuple[int, ...]:
    """Bomb shapes of which **any** member may be played on ``top`` (the chop table of
    docs/rules/tienlen.md), besides the same-shape-higher rule.  Empty when only same-shape plays
    beat it."""
    longs = (PS5, PS6) if long_pair_sequence_is_bomb else ()
    if top_shape == SINGLE:
        return (QUAD, PS3, PS4) + longs if top >> 48 else ()
    if top_shape == PAIR:
        if not top >> 48:
            return ()
        return ((QUAD,) if quad_chops_pair_of_twos else ()) + (PS4,) + longs
    if top_shape == PS3:
        return (QUAD, PS4) + longs
    if top_shape == QUAD:
        return (PS4,) + longs
    if top_shape == PS4:
        return longs
    return ()


def beats(
    x: int, top: int, quad_chops_pair_of_twos: bool = True, long_pair_sequence_is_bomb: bool = True
) -> bool:
    """Whether the combination ``x`` may be played on the current top ``top``
    (docs/rules/tienlen.md).

    Both are valid combination masks.  Same shape and higher top card, or a bomb allowed by the
    chop table.
    """
    xs, ts = shape_of(x), shape_of(top)
    if xs == ts:
        return x > top
    return xs in chop_shapes(top, ts, quad_chops_pair_of_twos, long_pair_sequence_is_bomb)


# --------------------------------------------------------------------------------------------
# generate


def _subsets(v: int, k: int) -> tuple[int, ...]:
    out = []
    for s in range(16):
        if s & v == s and _POP[s] == k:
            out.append(s)
    return tuple(sorted(out))


#: ``_AT[k][r][v]``: the k-card subsets of nibble ``v`` at rank ``r`` as absolute masks, ascending.
_AT = [
    [[tuple(s << (4 * r) for s in _subsets(v, k)) for v in range(16)] for r in range(13)]
    for k in range(5)
]
_SINGLES_AT = _AT[1]
_PAIRS_AT = _AT[2]
_TRIPLES_AT = _AT[3]
_SHIFTS = tuple(range(0, 52, 4))


#: Families of shapes generated together: sets (1-4 cards of a rank), straights, pair sequences.
FAM_SETS, FAM_STRAIGHTS, FAM_PAIRSEQS = 1, 2, 4
ALL_FAMS = 7


def family(shape: int) -> int:
    """The family bit of a shape."""
    return FAM_SETS if shape < STRAIGHT else (FAM_STRAIGHTS if shape < PAIRSEQ else FAM_PAIRSEQS)


def generate_sets(hand: int) -> dict[int, list[int]]:
    """Singles, pairs, triples and fours of ``hand``: shape -> ascending masks (present only)."""
    groups: dict[int, list[int]] = {}
    singles: list[int] = []
    pairs: list[int] = []
    triples: list[int] = []
    quads: list[int] = []
    r = 0
    h = hand
    while h:
        v = h & 15
        if v:
            singles += _SINGLES_AT[r][v]
            if _POP[v] >= 2:
                pairs += _PAIRS_AT[r][v]
                if _POP[v] >= 3:
                    triples += _TRIPLES_AT[r][v]
                    if v == 15:
                        quads.append(15 << (4 * r))
        h >>= 4
        r += 1
    if singles:
        groups[SINGLE] = singles
    if pairs:
        groups[PAIR] = pairs
    if triples:
        groups[TRIPLE] = triples
    if quads:
        groups[QUAD] = quads
    return groups


def _runs(hand: int, at, min_pop: int) -> dict[int, list[int]]:
    """Straights (``at`` = singles table, min_pop 1) or pair sequences (pairs table, 2) of
    ``hand`` by extending runs of qualifying ranks 3..A.  Products are listed with the new
    (higher) rank outermost, which keeps every list ascending."""
    base = STRAIGHT if min_pop == 1 else PAIRSEQ
    nibs = [_POP[(hand >> s) & 15] >= min_pop and (hand >> s) & 15 for s in _SHIFTS[:12]]
    groups: dict[int, list[int]] = {}
    r = 0
    while r < 10:
        if not (nibs[r] and nibs[r + 1] and nibs[r + 2]):
            r += 1
            continue
        partial = at[r][nibs[r]]
        j = r + 1
        while j < 12:
            vj = nibs[j]
            if not vj:
                break
            partial = [a | b for b in at[j][vj] for a in partial]
            if j - r >= 2:
                k = base + j - r + 1
                g = groups.get(k)
                if g is None:
                    groups[k] = partial
                else:
                    groups[k] = g + partial
            j += 1
        r += 1
    return groups


def generate_straights(hand: int) -> dict[int, list[int]]:
    """Every straight of ``hand`` (every suit choice; no 2s): shape -> ascending masks."""
    return _runs(hand, _SINGLES_AT, 1)


def generate_pairseqs(hand: int) -> dict[int, list[int]]:
    """Every pair sequence of ``hand`` (every suit choice; no 2s): shape -> ascending masks."""
    return _runs(hand, _PAIRS_AT, 2)


GENERATORS = {
    FAM_SETS: generate_sets,
    FAM_STRAIGHTS: generate_straights,
    FAM_PAIRSEQS: generate_pairseqs,
}


def generate(hand: int) -> dict[int, list[int]]:
    """Every combination in ``hand``: shape -> list of masks sorted ascending (= by top card).

    ``hand``: a card mask (any size).  Only shapes present are keys.  Every suit choice of a
    straight or pair sequence is listed; 2s never appear in straights or pair sequences.
    """
    groups = generate_sets(hand)
    groups.update(generate_straights(hand))
    groups.update(generate_pairseqs(hand))
    return groups


def filter_groups(groups: dict[int, list[int]], removed: int) -> dict[int, list[int]]:
    """The groups of ``hand & ~removed`` from the groups of ``hand`` (order kept, empty groups
    dropped)."""
    out = {}
    for sh, lst in groups.items():
        f = [m for m in lst if not m & removed]
        if f:
            out[sh] = f
    return out


def lead_list(groups: dict[int, list[int]]) -> list[int]:
    """All combinations of the groups in the canonical lead order: by shape (singles, pairs,
    triples, fours, straights by length, pair sequences by length), then ascending."""
    out: list[int] = []
    for sh in sorted(groups):
        out += groups[sh]
    return out


def higher_of(group: list[int], top: int) -> list[int]:
    """The members of a sorted same-shape ``group`` that beat ``top`` (a new list)."""
    return group[bisect_left(group, 1 << top.bit_length()) :]


@cython.cfunc
@cython.inline
@cython.locals(v=cython.ulonglong)
@cython.returns(cython.int)
def _nibble_count(v: int) -> int:
    """The number of set bits of the nibble ``v`` (0..15)."""
    return (v & 1) + ((v >> 1) & 1) + ((v >> 2) & 1) + ((v >> 3) & 1)


if not cython.compiled:
    _nibble_count = int.bit_count  # noqa: F811 - uncompiled, the int method itself


@cython.cfunc
@cython.inline
@cython.locals(
    v=cython.ulonglong, k=cython.int, out=cython.ulonglong, b=cython.ulonglong, i=cython.int
)
@cython.returns(cython.ulonglong)
def _lowest_bits(v: int, k: int) -> int:
    """The ``k`` lowest set bits of ``v`` (every set bit when it has fewer)."""
    out = 0
    for i in range(k):
        b = v & (~v + 1)  # v & -v, written for an unsigned word
        out |= b
        v ^= b
    return out


@cython.ccall
@cython.locals(
    hand=cython.ulonglong,
    shape=cython.int,
    floor=cython.int,
    per=cython.int,
    span=cython.int,
    last=cython.int,
    r=cython.int,
    j=cython.int,
    ok=cython.bint,
    nib=cython.ulonglong,
    tops=cython.ulonglong,
    t=cython.ulonglong,
    below=cython.ulonglong,
    low=cython.ulonglong,
)
@cython.returns(cython.ulonglong)
def lowest_combination(hand: int, shape: int, floor: int = 0) -> int:
    """The smallest combination of ``shape`` in ``hand`` whose top card is ``floor`` (a card
    id, 0..52) or higher, as a mask; 0 when there is none.  The same as
    ``min((m for m in generate(hand).get(shape, ()) if m.bit_length() > floor), default=0)``
    without listing the combinations: masks compare by their top card first, so the answer
    has the lowest possible top card (the lowest rank, then suit, at or above ``floor`` that
    completes the shape) and, under it, the lowest cards of each rank."""
    if shape < STRAIGHT:  # k cards of one rank, 2s included
        per, span, last = shape, 1, 12
    elif shape < PAIRSEQ:  # one card of each of k consecutive ranks 3..A
        per, span, last = 1, shape - STRAIGHT, 11
    else:  # two cards of each of k consecutive ranks 3..A
        per, span, last = 2, shape - PAIRSEQ, 11
    r = max(floor >> 2, span - 1)
    while r <= last:
        # the ranks below the top rank: ``per`` cards each, the lowest ones
        low = 0
        ok = True
        for j in range(r - span + 1, r):
            nib = (hand >> (4 * j)) & 15
            if _nibble_count(nib) < per:
                ok = False
                r = j + span  # every run ending at ranks j .. j + span - 1 holds rank j
                break
            low |= _lowest_bits(nib, per) << (4 * j)
        if not ok:
            continue
        # the top rank: the lowest top card at or above ``floor`` with ``per - 1`` cards below
        nib = (hand >> (4 * r)) & 15
        tops = nib
        if r == floor >> 2:
            tops = nib >> (floor & 3) << (floor & 3)
        while tops:
            t = tops & (~tops + 1)
            tops ^= t
            below = nib & (t - 1)
            if _nibble_count(below) >= per - 1:
                return low | ((t | _lowest_bits(below, per - 1)) << (4 * r))
        r += 1
    return 0


# --------------------------------------------------------------------------------------------
# instant wins and penalty values (docs/rules/tienlen.md)


def rank_counts(hand: int) -> list[int]:
    """Number of cards of each rank index 0..12 (3 .. A, 2) in ``hand``."""
    return [_POP[(hand >> s) & 15] for s in _SHIFTS]


_SUIT_MASKS = tuple(sum(1 << (4 * r + s) for r in range(13)) for s in range(4))
_BLACK = _SUIT_MASKS[0] | _SUIT_MASKS[1]
_RED = _SUIT_MASKS[2] | _SUIT_MASKS[3]


_R_ALL = sum(1 << (4 * r) for r in range(13))  # bit 0 of every rank nibble
_R_LOW = sum(1 << (4 * r) for r in range(12))  # ranks 3..A


#: the same masks as typed 64-bit words (C arithmetic when compiled)
_W_ALL = cython.declare(cython.ulonglong, _R_ALL)
_W_LOW = cython.declare(cython.ulonglong, _R_LOW)


@cython.cfunc
@cython.inline
@cython.locals(x=cython.ulonglong)
@cython.returns(cython.int)
def _ranks_flagged(x: int) -> int:
    """How many rank nibbles of ``x`` have bit 0 set, ``x`` holding no other bits (a result of
    :func:`_rank_bits`): the multiplication adds every nibble into the top rank's (at most 13,
    no carries)."""
    return cython.cast(cython.int, ((x * _W_ALL) >> 48) & 15)


if not cython.compiled:
    # uncompiled, the int method itself (``x`` holds the flag bits only): no wrapper call
    _ranks_flagged = int.bit_count  # noqa: F811


@cython.locals(hand=cython.ulonglong, a1=cython.ulonglong, a2=cython.ulonglong, a3=cython.ulonglong)
def _rank_bits(hand: int) -> tuple[int, int, int, int]:
    """Rank-nibble bit 0 set where the rank holds >= 1, >= 2, >= 3, 4 cards."""
    a1, a2, a3 = hand >> 1, hand >> 2, hand >> 3
    return (
        (hand | a1 | a2 | a3) & _W_ALL,
        ((hand & (a1 | a2 | a3)) | (a1 & (a2 | a3)) | (a2 & a3)) & _W_ALL,
        ((hand & a1 & (a2 | a3)) | ((hand | a1) & a2 & a3)) & _W_ALL,
        hand & a1 & a2 & a3 & _W_ALL,
    )


@cython.locals(
    hand=cython.ulonglong,
    ge1=cython.ulonglong,
    ge2=cython.ulonglong,
    ge3=cython.ulonglong,
    ge4=cython.ulonglong,
    p=cython.ulonglong,
    s=cython.int,
)
def instant_win(
    hand: int, first_game: bool, first_game_extra: bool = True, flush_rule: str = "12_same_suit"
) -> str | None:
    """The name of the instant-win (tới trắng) hand ``hand`` holds, or ``None``
    (docs/rules/tienlen.md, "Instant wins").

    ``hand``: a dealt 13-card mask.  ``first_game``: the game is the first of its session (the
    first-game-only hands apply when ``first_game_extra`` too).  ``flush_rule``:
    ``"12_same_suit"``, ``"13_same_color"`` or ``"off"``.  Checked in the order of the rules' table.
    """
    if hand >> 48 == 15:
        return "four 2s"
    ge1, ge2, ge3, ge4 = _rank_bits(hand)
    if ge1 & _W_LOW == _W_LOW:
        return "dragon straight"
    p = ge2 & _W_LOW
    if p & (p >> 4) & (p >> 8) & (p >> 12) & (p >> 16):
        return "5 pair sequence"
    if _ranks_flagged(ge2) + _ranks_flagged(ge4) >= 6:
        return "six pairs"
    if flush_rule == "12_same_suit":
        for s in range(4):  # the cards of suit s, moved onto bit 0 of their rank nibbles
            if _ranks_flagged((hand >> s) & _W_ALL) >= 12:
                return "12 of one suit"
    elif flush_rule == "13_same_color":
        if hand & _BLACK == hand or hand & _RED == hand:
            return "13 of one color"
    if _ranks_flagged(ge3) >= 4:
        return "four triples"
    if first_game and first_game_extra:
        if hand & 15 == 15:
            return "four 3s"
        if hand & SPADE3 and ge2 & 0x111 == 0x111:
            return "3 pair sequence with 3S"
    return None


#: Penalty values of the single 2s (2♠ 2♣ 2♦ 2♥) and of bombs, per ``penalty_unit``.
PENALTY_TABLES = {
    "bet": {"twos": (0.5, 0.5, 1.0, 1.0), PS3: 1.5, QUAD: 2.0, PS4: 2.5},
    "points": {"twos": (1.0, 2.0, 3.0, 4.0), PS3: 4.0, QUAD: 4.0, PS4: 4.0},
}


def combo_value(mask: int, shape: int, table: dict) -> float:
    """Chop value of the chopped combination (a single/pair of 2s or a bomb), in bets.

    A pair sequence of 5+ pairs is priced as a 4 đôi thông."""
    if shape == QUAD or shape == PS3:
        return table[shape]
    if shape >= PS4:
        return table[PS4]
    twos = table["twos"]
    v = 0.0
    m = mask >> 48
    for s in range(4):
        if m >> s & 1:
            v += twos[s]
    return v


def _best_runs(length: int, v3: float, v4: float) -> float:
    """Best total value of pieces of 3 or 4 pairs cut from a run of ``length`` pair-ranks."""
    best = [0.0] * (length + 1)
    for i in range(1, length + 1):
        b = best[i - 1]
        if i >= 3:
            b = max(b, best[i - 3] + v3)
        if i >= 4:
            b = max(b, best[i - 4] + v4)
        best[i] = b
    return best[length]


@cython.locals(
    hand=cython.ulonglong,
    m=cython.int,
    s=cython.int,
    r=cython.int,
    c=cython.int,
    run=cython.int,
    v=cython.double,
)
def thoi_value(hand: int, table: dict) -> float:
    """Thối value of a hand ("Settlement" in docs/rules/tienlen.md): its 2s, plus its
    four-of-a-kinds (ranks 3..A), plus the best split of each maximal run of remaining pair-ranks
    into 3- and 4-pair sequences."""
    v = 0.0
    twos = table["twos"]
    m = hand >> 48
    for s in range(4):
        if m >> s & 1:
            v += twos[s]
    run = 0
    for r in range(12):
        c = _nibble_count((hand >> (4 * r)) & 15)
        if c == 4:
            v += table[QUAD]
            c = 0
        if c >= 2:
            run += 1
        else:
            if run >= 3:
                v += _best_runs(run, table[PS3], table[PS4])
            run = 0
    if run >= 3:
        v += _best_runs(run, table[PS3], table[PS4])
    return v
