"""A rule-based "careful club player" for Tiến lên miền Nam.

It uses only what the seat to act knows: its own hand, the table (top, owner, passes), the
number of cards every seat holds and the legal moves.  Habits:

* the hand is split into a plan (:func:`plan`): 2s and bombs kept apart, then the split of the
  other cards into straights, triples, pairs and singles with the fewest pieces;
* lead the plan piece that starts lowest (longer pieces first on ties); with an opponent on one
  card, lead no single (or the highest); with two pieces left, play the strong one first;
* follow with the lowest plan piece that beats the top, never breaking a piece, never spending a
  2 or a bomb on ordinary cards unless someone is close to finishing;
* chop 2s and bombs whenever a bomb allows it; finish at once when the whole hand is legal.
"""

from __future__ import annotations

import random

try:
    import cython
except ImportError:  # no Cython installed: the same code runs untyped (games/_cy.py)
    from quansu.games import _cy as cython

from quansu.games.caches import cache_size
from quansu.games.tienlen import rules as R
from quansu.games.tienlen.state import TienLenState

_TWO_RANK = 12
_U1 = cython.declare(cython.ulonglong, 1)
_U15 = cython.declare(cython.ulonglong, 15)
# the 64-bit words of the compiled popcount (typed, so that C arithmetic wraps at 64 bits)
_W55 = cython.declare(cython.ulonglong, 0x5555555555555555)
_W33 = cython.declare(cython.ulonglong, 0x3333333333333333)
_W0F = cython.declare(cython.ulonglong, 0x0F0F0F0F0F0F0F0F)
_W01 = cython.declare(cython.ulonglong, 0x0101010101010101)


@cython.cfunc
@cython.inline
@cython.locals(x=cython.ulonglong)
@cython.returns(cython.int)
def _pop(x: int) -> int:
    """The number of cards in the mask ``x``: ``x.bit_count()`` (compiled: the same by
    arithmetic on a 64-bit word)."""
    if cython.compiled:
        x = x - ((x >> 1) & _W55)
        x = (x & _W33) + ((x >> 2) & _W33)
        x = (x + (x >> 4)) & _W0F
        return cython.cast(cython.int, (x * _W01) >> 56)
    return x.bit_count()


@cython.cfunc
@cython.inline
@cython.locals(x=cython.ulonglong)
@cython.returns(cython.int)
def _bitlen(x: int) -> int:
    """``x.bit_length()``: the index of the highest card of the mask ``x`` plus one (0 for no
    card)."""
    if cython.compiled:
        x |= x >> 1
        x |= x >> 2
        x |= x >> 4
        x |= x >> 8
        x |= x >> 16
        x |= x >> 32
        return _pop(x)
    return x.bit_length()


@cython.cfunc
@cython.inline
@cython.locals(x=cython.ulonglong)
@cython.returns(cython.int)
def _low_bit_index(x: int) -> int:
    """The index of the lowest card of the mask ``x`` > 0."""
    if cython.compiled:
        return _pop((x & -x) - 1)
    return (x & -x).bit_length() - 1


if not cython.compiled:
    # uncompiled, the int methods themselves: no wrapper call in the pure build's hot paths
    _pop = int.bit_count  # noqa: F811
    _bitlen = int.bit_length  # noqa: F811


#: packed rank counts (nibble r = cards of rank r, ranks 3..A) -> the best first piece of the
#: fewest-pieces split, packed into one int (:func:`_split_entry`): the pieces, whether the
#: piece is a straight, its start and length, and the packed counts left.  Ints, not tuples:
#: Python's garbage collector has no work with them (a search that fills the Tiến lên caches
#: with tuples left about 100,000 new ones for its next collections to walk, about a tenth of
#: the search's time).  Bounded: emptied (between two top-level splits) once it holds
#: :data:`_SPLITS_MAX` entries.
_SPLITS: dict[int, int] = {0: 0}
_SPLITS_MAX = cache_size("tienlen_splits")
# the fields of a split entry: counts left in bits 0-47, then length, start, straight, pieces
_SPLIT_LEN = cython.declare(cython.int, 48)
_SPLIT_START = cython.declare(cython.int, 52)
_SPLIT_STRAIGHT = cython.declare(cython.int, 56)
_SPLIT_PIECES = cython.declare(cython.int, 57)
_REST48 = cython.declare(cython.ulonglong, (1 << 48) - 1)


@cython.cfunc
@cython.inline
@cython.locals(
    n=cython.ulonglong,
    straight=cython.ulonglong,
    start=cython.ulonglong,
    length=cython.ulonglong,
    rest=cython.ulonglong,
)
@cython.returns(cython.ulonglong)
def _split_entry(n: int, straight: int, start: int, length: int, rest: int) -> int:
    """One :data:`_SPLITS` value: ``n`` pieces (0..12), ``straight`` (0/1), ``start`` (rank
    0..11), ``length`` (0..12) and the packed counts ``rest`` (48 bits) in one word."""
    return (
        (n << _SPLIT_PIECES)
        | (straight << _SPLIT_STRAIGHT)
        | (start << _SPLIT_START)
        | (length << _SPLIT_LEN)
        | rest
    )


@cython.cfunc
@cython.locals(
    c=cython.ulonglong,
    sh=cython.int,
    r=cython.int,
    rest=cython.ulonglong,
    best_n=cython.int,
    n=cython.int,
    x=cython.ulonglong,
    length=cython.int,
    best=cython.ulonglong,
)
@cython.returns(cython.int)
def _split(c: int) -> int:
    """The fewest pieces (sets of one rank, straights of >= 3 consecutive ranks) covering the
    packed rank counts ``c``; records the first piece of the chosen split in :data:`_SPLITS`.

    The lowest rank ``r`` held is either one set (all its cards) or the start of a straight;
    ties prefer a straight, the longest of equals."""
    e = _SPLITS.get(c)
    if e is not None:
        return e >> _SPLIT_PIECES
    sh = _low_bit_index(c) & ~3
    r = sh >> 2
    rest = c & ~(_U15 << sh)
    best_n = _split(rest) + 1
    best = _split_entry(best_n, 0, r, (c >> sh) & 15, rest)
    x = c
    length = 0
    while sh < 48 and (x >> sh) & 15:
        x -= _U1 << sh
        length += 1
        if length >= 3:
            n = _split(x) + 1
            if n <= best_n:
                best_n = n
                best = _split_entry(n, 1, r, length, x)
        sh += 4
    _SPLITS[c] = best
    return best_n


@cython.locals(c=cython.ulonglong, e=cython.ulonglong)
def _split_parts(c: int) -> list[tuple[bool, int, int]]:
    """The fewest-pieces split of packed rank counts ``c`` as ``(is_straight, start, length)``
    parts, lowest start first: a straight of ``length`` ranks from ``start``, or a set of
    ``length`` cards of rank ``start``."""
    if len(_SPLITS) >= _SPLITS_MAX:
        _SPLITS.clear()
        _SPLITS[0] = 0
    _split(c)
    parts = []
    while c:
        e = _SPLITS[c]
        parts.append(
            (bool((e >> _SPLIT_STRAIGHT) & 1), (e >> _SPLIT_START) & 15, (e >> _SPLIT_LEN) & 15)
        )
        c = e & _REST48
    return parts


# Nibble masks: bit b of every rank nibble (ranks 3..A and 2) and the bits above bit 0, 1, 2.
# (C constants when compiled: an untyped module global is a Python object there.)
_NIB0 = cython.declare(cython.ulonglong, 0x1111111111111)
_ABOVE0 = cython.declare(cython.ulonglong, 0xEEEEEEEEEEEEE)
_ABOVE1 = cython.declare(cython.ulonglong, 0xCCCCCCCCCCCCC)
_ABOVE2 = cython.declare(cython.ulonglong, 0x8888888888888)
_BELOW3 = cython.declare(cython.ulonglong, 0x7777777777777)
_BELOW2 = cython.declare(cython.ulonglong, 0x3333333333333)
_M55 = cython.declare(cython.ulonglong, 0x5555555555555)
_M33 = cython.declare(cython.ulonglong, 0x3333333333333)
_TWOS = cython.declare(cython.ulonglong, R.TWOS)
_NON_TWOS = cython.declare(cython.ulonglong, R.NON_TWOS)
_QUAD = cython.declare(cython.int, 0)
_STRAIGHT_OP = cython.declare(cython.int, 1)
_PAIRSEQ_OP = cython.declare(cython.int, 2)
_SET_OP = cython.declare(cython.int, 3)

#: packed rank counts of a hand's cards 3..A -> its plan recipe (see :func:`_recipe`; a
#: tuple of ints, each piece packed into one, for the garbage collector as :data:`_SPLITS`).
#: Bounded: emptied when it reaches :data:`_RECIPES_MAX` entries.
_RECIPES: dict[int, tuple] = {}
# a recipe piece: the rank mask in bits 0-47, the op in bits 48-49, the shape from bit 50
_OP_AT = cython.declare(cython.int, 48)
_SHAPE_AT = cython.declare(cython.int, 50)
_RECIPES_MAX = cache_size("tienlen_recipes")


@cython.locals(hand=cython.ulonglong, x=cython.ulonglong)
def _packed_counts(hand: int) -> int:
    """The number of cards of every rank, one per nibble (nibble r = rank r's count, 0..4)."""
    x = hand - ((hand >> 1) & _M55)
    return (x & _M33) + ((x >> 2) & _M33)


@cython.locals(
    packed=cython.ulonglong,
    quads=cython.ulonglong,
    c=cython.ulonglong,
    low=cython.ulonglong,
    pairs=cython.ulonglong,
    run=cython.ulonglong,
    length=cython.int,
    start=cython.int,
    straight=cython.bint,
)
def _recipe(packed: int) -> tuple[int, ...]:
    """The suit-free part of :func:`plan` for the rank counts ``packed`` (cards 3..A): the
    pieces in plan order, each ``rank mask | op << 48 | shape << 50``, ``op`` one of quad,
    pair sequence, straight (the lowest card of every rank of the mask still in the hand) and
    set (every card of the rank still in the hand).  Depends on the counts only, so every hand
    with the same counts shares it."""
    ops = []
    quads = (packed >> 2) & _NIB0  # a count of 4 is the only one with bit 2
    c = packed
    while quads:
        low = quads & -quads
        ops.append(_piece(_QUAD, low * 15, R.QUAD))
        c &= ~(low * 15)
        quads ^= low
    # maximal runs of >= 3 ranks holding 2 or 3 cards; a pair sequence of the first 6 of each
    pairs = ((c >> 1) | (c >> 2)) & _NIB0
    while pairs:
        low = pairs & -pairs
        run = 0
        length = 0
        while pairs & low:
            run |= low
            pairs ^= low
            low <<= 4
            length += 1
        if length >= 3:
            if length > 6:
                run = _first_ranks(run, 6)
                length = 6
            ops.append(_piece(_PAIRSEQ_OP, run * 15, R.PAIRSEQ + length))
            c -= 2 * run
    parts = _split_parts(c)
    for straight, start, length in parts:
        if straight:
            ops.append(
                _piece(
                    _STRAIGHT_OP, ((_U1 << (4 * length)) - 1) << (4 * start), R.STRAIGHT + length
                )
            )
    for straight, start, length in parts:
        if not straight:
            ops.append(_piece(_SET_OP, _U15 << (4 * start), 0))
    return tuple(ops)


@cython.cfunc
@cython.inline
@cython.locals(op=cython.ulonglong, mask=cython.ulonglong, shape=cython.ulonglong)
@cython.returns(cython.ulonglong)
def _piece(op: int, mask: int, shape: int) -> int:
    """One piece of a recipe: ``mask | op << 48 | shape << 50``."""
    return mask | (op << _OP_AT) | (shape << _SHAPE_AT)


def _first_ranks(bits: int, k: int) -> int:
    """The lowest ``k`` set bits of ``bits``."""
    out = 0
    for _ in range(k):
        low = bits & -bits
        out |= low
        bits ^= low
    return out


#: hand -> its plan (:func:`plan`), each piece packed into one int, ``mask | shape << 52``
#: (:func:`_pieces`; ints for the garbage collector, as :data:`_SPLITS`).  Bounded: emptied
#: when it holds :data:`_PLANS_MAX` hands.  (The Tiến lên caches are emptied, not trimmed: one
#: search refills them, and trimming cost a search about 6 %: docs/search.md.)
_PLANS: dict[int, tuple] = {}
_PLANS_MAX = cache_size("tienlen_plans")
_SHAPE_BIT = cython.declare(cython.int, 52)
_CARDS52 = cython.declare(cython.ulonglong, (1 << 52) - 1)


def plan(hand: int) -> tuple[tuple[int, int], ...]:
    """The seat's plan for ``hand``: disjoint pieces ``(mask, shape)`` covering the hand.

    2s form one set (a single, pair or triple of 2s; four 2s never reach play), fours of a kind
    and runs of >= 3 pairs are kept as bombs (the highest two cards of each rank), the rest is
    split into the fewest straights / sets.

    The split depends on the rank counts only: it is computed once per count vector
    (:func:`_recipe`) and laid onto the hand's suits here.  Bounded caches (games/caches.py:
    ``tienlen_plans``, ``tienlen_recipes``, ``tienlen_splits``): 16,384 hands, 32,768 count
    vectors, 131,072 entries of the split search by default.
    """
    return tuple(_unpacked(_pieces(hand)))


def _pieces(hand: int) -> tuple[int, ...]:
    """:func:`plan` with each piece packed, ``mask | shape << 52`` (cached)."""
    p = _PLANS.get(hand)
    if p is None:
        if len(_PLANS) >= _PLANS_MAX:
            _PLANS.clear()
        p = _PLANS[hand] = _make_plan(hand)
    return p


@cython.locals(e=cython.ulonglong)
def _unpacked(pieces) -> list[tuple[int, int]]:
    """Packed plan pieces as ``(mask, shape)`` pairs."""
    return [(e & _CARDS52, e >> _SHAPE_BIT) for e in pieces]


@cython.locals(
    hand=cython.ulonglong,
    twos=cython.ulonglong,
    rest=cython.ulonglong,
    packed=cython.ulonglong,
    op=cython.int,
    wm=cython.ulonglong,
    shape=cython.int,
    x=cython.ulonglong,
    low=cython.ulonglong,
    m=cython.ulonglong,
    hi=cython.ulonglong,
    y=cython.ulonglong,
    c=cython.int,
    e=cython.ulonglong,
)
def _make_plan(hand: int) -> tuple[int, ...]:
    """The plan of ``hand``, packed (:func:`_pieces`)."""
    pieces: list[int] = []
    twos = hand & _TWOS
    if twos:
        if twos == _TWOS:
            for c in range(48, 52):
                pieces.append(_packed_piece(_U1 << c, R.SINGLE))
        else:
            pieces.append(_packed_piece(twos, _pop(twos)))
    rest = hand & _NON_TWOS
    packed = _packed_counts(rest)
    ops = _RECIPES.get(packed)
    if ops is None:
        if len(_RECIPES) >= _RECIPES_MAX:
            _RECIPES.clear()
        ops = _RECIPES[packed] = _recipe(packed)
    for e in ops:
        wm = e & _REST48
        op = (e >> _OP_AT) & 3
        shape = e >> _SHAPE_AT
        if op == _STRAIGHT_OP:
            # the lowest card of every rank in the window
            x = rest & wm
            low = x & ~(((x << 1) & _ABOVE0) | ((x << 2) & _ABOVE1) | ((x << 3) & _ABOVE2))
            rest ^= low
            pieces.append(_packed_piece(low, shape))
        elif op == _SET_OP:
            m = rest & wm
            if m:
                pieces.append(_packed_piece(m, _pop(m)))
        elif op == _PAIRSEQ_OP:
            # the highest two cards of every rank in the window (each holds 2 or 3 cards)
            x = rest & wm
            hi = x & ~(((x >> 1) & _BELOW3) | ((x >> 2) & _BELOW2) | ((x >> 3) & _NIB0))
            y = x ^ hi
            hi |= y & ~(((y >> 1) & _BELOW3) | ((y >> 2) & _BELOW2) | ((y >> 3) & _NIB0))
            rest &= ~hi
            pieces.append(_packed_piece(hi, shape))
        else:
            rest &= ~wm
            pieces.append(_packed_piece(wm, shape))
    return tuple(pieces)


@cython.cfunc
@cython.inline
@cython.locals(mask=cython.ulonglong, shape=cython.ulonglong)
@cython.returns(cython.ulonglong)
def _packed_piece(mask: int, shape: int) -> int:
    """One piece of a packed plan: ``mask | shape << 52``."""
    return mask | (shape << _SHAPE_BIT)


def _is_power(mask: int, shape: int, bombs) -> bool:
    return shape in bombs or (shape <= R.TRIPLE and mask >> 48 != 0)


@cython.locals(
    state=TienLenState,
    me=cython.int,
    active=cython.int,
    best=cython.int,
    s=cython.int,
    c=cython.int,
    n=cython.int,
)
def _opp_min(game, state, me: int) -> int:
    """The fewest cards an opponent still in play holds (13 when none)."""
    hands = state.hands
    active = state.active
    best = 13
    n = game.num_players
    for s in range(n):
        if s != me and active >> s & 1:
            c = _pop(hands[s])
            if c < best:
                best = c
    return best


@cython.cfunc
@cython.returns(cython.bint)
def _urgent(game, state, me: int, hand: int) -> bool:
    """Whether the seat ``me`` holding ``hand`` must hurry: 4 cards or fewer left, or an
    opponent with 2 or fewer."""
    return _pop(hand) <= 4 or _opp_min(game, state, me) <= 2


_TRIPLE = cython.declare(cython.int, R.TRIPLE)


@cython.locals(
    best=cython.ulonglong,
    low=cython.ulonglong,
    n=cython.int,
    m=cython.ulonglong,
    lm=cython.ulonglong,
    c=cython.int,
)
def _lowest_longest(pieces: list) -> int:
    """The mask of the piece that starts lowest, the longest of those (the first on a tie):
    ``min(pieces, key=lambda p: (p[0] & -p[0], -p[0].bit_count()))[0]`` without a key tuple
    per piece."""
    it = iter(pieces)
    best = next(it)[0]
    low = best & -best
    n = -1
    for p in it:
        m = p[0]
        lm = m & -m
        if lm < low:
            best, low, n = m, lm, -1
        elif lm == low:
            if n < 0:
                n = _pop(best)
            c = _pop(m)
            if c > n:
                best, n = m, c
    return best


@cython.locals(
    state=TienLenState,
    me=cython.int,
    bomb_bits=cython.ulonglong,
    any_bits=cython.ulonglong,
    same_shape=cython.int,
    tb=cython.int,
    sh=cython.int,
    m=cython.ulonglong,
    best=cython.ulonglong,
    a=cython.int,
    n_power=cython.int,
    low=cython.ulonglong,
    lm=cython.ulonglong,
    bn=cython.int,
    c=cython.int,
    above=cython.ulonglong,
    e=cython.ulonglong,
)
def choose(game, state, rng: random.Random) -> int:
    """The heuristic move of the seat to act in ``state`` (a legal move)."""
    me = state.cur
    if me < 0:
        raise ValueError("heuristic_move: the game is over")
    hand = state.hands[me]
    bombs = game._bombs
    bomb_bits = game._bomb_bits
    pieces = _PLANS.get(hand)  # packed: mask | shape << 52
    if pieces is None:
        pieces = _pieces(hand)
    top = state.top

    if not top:
        # A leader may play every combination of its hand (holding the first-lead card while
        # that is required), and every plan piece is one, so the lead list is not needed.
        req = state.req
        if (not req or hand & req) and R.classify(hand):
            return hand  # finish now
        if req:
            cands = [p for p in pieces if p & req]
            if not cands:  # the first lead must hold a given card: the smallest such play
                return min(state.legal_moves(), key=lambda m: (m.bit_count() != 1, m))
        else:
            cands = pieces
        # one pass: are there 2s or bombs ("power"), and the ordinary piece that starts lowest,
        # the longest of those (the first on a tie; _lowest_longest of the ordinary pieces)
        n_power = 0
        best = 0
        low = 0
        bn = -1
        for e in cands:
            m = e & _CARDS52
            sh = e >> _SHAPE_BIT
            if (bomb_bits >> sh) & 1 or (sh <= _TRIPLE and m >> 48):
                n_power += 1
                continue
            lm = m & -m
            if not best or lm < low:
                best, low, bn = m, lm, -1
            elif lm == low:
                if bn < 0:
                    bn = _pop(best)
                c = _pop(m)
                if c > bn:
                    best, bn = m, c
        if n_power and len(pieces) == 2 and len(cands) == 2:
            power = [p for p in _unpacked(cands) if _is_power(p[0], p[1], bombs)]
            return max(power, key=lambda p: (p[1] in bombs, p[0]))[0]
        if best:
            if _opp_min(game, state, me) == 1:
                normal = [p for p in _unpacked(cands) if not _is_power(p[0], p[1], bombs)]
                multi = [p for p in normal if p[1] != R.SINGLE]
                if multi:
                    return _lowest_longest(multi)
                return max(normal, key=lambda p: p[0])[0]
            return best
        # only 2s and bombs: bombs first (only bombs beat them), then 2s from the lowest
        power = _unpacked(cands)
        bomb_p = [p for p in power if p[1] in bombs]
        if bomb_p:
            return min(bomb_p, key=lambda p: p[0])[0]
        return min(power, key=lambda p: p[0])[0]

    top_shape = state.top_shape
    if state.passed >> me & 1:
        same_shape, tb, anys = state.follow_rule()
    else:  # state.follow_rule(), inlined for the usual case (the seat has not passed)
        same_shape, tb, anys = top_shape, top.bit_length(), state.finfo[0]
    # finish now when the whole hand may be played: it has the top's shape (so as many cards)
    # or is a bomb (>= 4 cards) allowed on it
    n = hand.bit_count()
    if n == top.bit_count() or (anys and n >= 4):
        shape = R.classify(hand)
        if shape and ((shape == same_shape and hand.bit_length() > tb) or shape in anys):
            return hand
    if _is_power(top, top_shape, bombs):
        # A 2 or a bomb on top: the lowest bomb that may be played on it, else pass (no plan
        # piece that is not a 2 or a bomb beats it).
        return state.lowest_play(True)
    # the lowest plan piece that may be played (not a 2 or a bomb), found without the moves
    any_bits = 0
    for a in anys:
        any_bits |= _U1 << a
    best = 0
    for e in pieces:
        m = e & _CARDS52
        sh = e >> _SHAPE_BIT
        if (
            ((sh == same_shape and _bitlen(m) > tb) or (any_bits >> sh) & 1)
            and not ((bomb_bits >> sh) & 1 or (sh <= _TRIPLE and m >> 48))
            and (not best or m < best)
        ):
            best = m
    if best:
        return best
    if top_shape != R.SINGLE:
        if not _urgent(game, state, me, hand):
            return 0  # no piece beats it and nothing is urgent: pass (whatever the moves are)
        # the lowest play that is not a bomb (one without a 2 if there is one: every such mask
        # is below every mask with a 2)
        return state.lowest_play(False)
    # a single on top
    if not anys and not (same_shape == R.SINGLE and _bitlen(hand) > tb):
        return 0  # no card above it and no bomb allowed: no play at all
    triples = 0  # a single from a triple (not of 2s) costs little: the pair stays
    for e in pieces:
        m = e & _CARDS52
        if e >> _SHAPE_BIT == _TRIPLE and not m >> 48:
            triples |= m
    if not anys:
        # The plays are the hand's cards above the top card (legal_moves()[1:]): the choices
        # below made on that mask, without listing the moves.
        above = hand >> tb << tb
        m = above & triples
        if m:
            return m & -m
        if _urgent(game, state, me, hand):
            m = above & _NON_TWOS
            if m:
                return m & -m
            m = above & _TWOS
            return m & -m
        m = above & _TWOS
        if m and (_bitlen(top) - 1) >> 2 >= 11 and _pop(hand & _TWOS) >= 2:
            return m & -m  # an ace on the table: a 2 on it
        return 0
    # bombs allowed on the single: the moves listed
    plays = state.legal_moves()[1:]
    if not plays:
        return 0
    if triples:
        clean = [m for m in plays if m & triples]
        if clean:
            return min(clean)
    shape_of = R.shape_of
    twos = [m for m in plays if shape_of(m) not in bombs and m >> 48]
    if _urgent(game, state, me, hand):
        ordinary = [m for m in plays if not m >> 48 and shape_of(m) not in bombs]
        if ordinary:
            return min(ordinary)
        if twos:
            return min(twos)
        return 0
    if twos and (top.bit_length() - 1) >> 2 >= 11:  # an ace on the table
        if (hand & R.TWOS).bit_count() >= 2:
            return min(twos)
    return 0
