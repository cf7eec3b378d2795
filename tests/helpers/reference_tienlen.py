"""Reference Tiến lên heuristic (``plan``, ``choose``) and ``rules.classify``.

The pre-optimisation code of issue 22 (commit 1a04877), kept for tests/games/test_speed_equivalence.py:
the optimised code must give the same answers as this on many random inputs.  Copied unchanged
apart from imports.  Not used by the package.
"""

from __future__ import annotations

import random
from functools import lru_cache

from quansu.games.tienlen import rules as R
from quansu.games.tienlen.rules import _POP, PAIRSEQ, STRAIGHT, TWOS

_TWO_RANK = 12


def _runs_of_pairs(counts: list[int]) -> list[tuple[int, int]]:
    """Maximal runs (start, length >= 3) of ranks 3..A holding >= 2 cards."""
    out = []
    r = 0
    while r < 12:
        if counts[r] >= 2:
            s = r
            while r < 12 and counts[r] >= 2:
                r += 1
            if r - s >= 3:
                out.append((s, r - s))
        else:
            r += 1
    return out


@lru_cache(maxsize=4096)
def _split_counts(counts: tuple[int, ...]) -> tuple[int, tuple]:
    """Fewest pieces for rank counts 3..A (12 entries): (pieces, tuple of (kind, start, len))
    with kind "set" (len = rank count used) or "straight"."""
    r = 0
    while r < 12 and counts[r] == 0:
        r += 1
    if r == 12:
        return 0, ()
    best = None
    # the cards of rank r as one set
    c = list(counts)
    c[r] = 0
    n, rest = _split_counts(tuple(c))
    best = (n + 1, (("set", r, counts[r]),) + rest)
    # or a straight starting at r
    c = list(counts)
    length = 0
    j = r
    while j < 12 and c[j] > 0:
        c[j] -= 1
        length += 1
        if length >= 3:
            n, rest = _split_counts(tuple(c))
            # ties: prefer fewer pieces, then the straight (sheds more cards at once)
            if n + 1 <= best[0]:
                best = (n + 1, (("straight", r, length),) + rest)
        j += 1
    return best


@lru_cache(maxsize=8192)
def plan(hand: int) -> tuple[tuple[int, int], ...]:
    """The seat's plan for ``hand``: disjoint pieces ``(mask, shape)`` covering the hand.

    2s form one set (a single, pair or triple of 2s; four 2s never reach play), fours of a kind
    and runs of >= 3 pairs are kept as bombs (the highest two cards of each rank), the rest is
    split into the fewest straights / sets.
    """
    pieces: list[tuple[int, int]] = []
    twos = hand & R.TWOS
    if twos:
        if twos.bit_count() == 4:
            pieces.extend((1 << c, R.SINGLE) for c in range(48, 52) if twos >> c & 1)
        else:
            pieces.append((twos, twos.bit_count()))
    rest = hand & R.NON_TWOS
    counts = R.rank_counts(rest)
    for r in range(12):
        if counts[r] == 4:
            m = 0xF << (4 * r)
            pieces.append((m, R.QUAD))
            rest &= ~m
            counts[r] = 0
    for start, length in _runs_of_pairs(counts):
        length = min(length, 6)
        m = 0
        for r in range(start, start + length):
            nib = (rest >> (4 * r)) & 0xF
            cards = [b for b in range(4) if nib >> b & 1]
            for b in cards[-2:]:
                m |= 1 << (4 * r + b)
        pieces.append((m, R.PAIRSEQ + length))
        rest &= ~m
    counts = R.rank_counts(rest)
    _, parts = _split_counts(tuple(counts[:12]))
    # straights take the lowest cards of their ranks first, sets take what is left
    for kind, start, length in parts:
        if kind == "straight":
            m = 0
            for r in range(start, start + length):
                nib = (rest >> (4 * r)) & 0xF
                m |= (nib & -nib) << (4 * r)
            rest ^= m
            pieces.append((m, R.STRAIGHT + length))
    for kind, start, length in parts:
        if kind == "set":
            m = rest & (0xF << (4 * start))
            if m:
                pieces.append((m, m.bit_count()))
    return tuple(pieces)


def _is_power(mask: int, shape: int, bombs) -> bool:
    return shape in bombs or (shape <= R.TRIPLE and mask >> 48 != 0)


def choose(game, state, rng: random.Random) -> int:
    """The heuristic move of the seat to act in ``state`` (a legal move)."""
    legal = state.legal_moves()
    if not legal:
        raise ValueError("heuristic_move: the game is over")
    me = state.current_player
    hand = state.hands[me]
    if hand in legal:
        return hand  # finish now
    bombs = game._bombs
    n = game.num_players
    others = [state.hands[s].bit_count() for s in range(n) if s != me and state.active >> s & 1]
    opp_min = min(others) if others else 13
    pieces = plan(hand)
    top = state.top
    legal_set = set(legal)

    if not top:
        cands = [p for p in pieces if p[0] in legal_set]
        if not cands:  # the first lead must hold a given card: the smallest such play
            return min(legal, key=lambda m: (m.bit_count() != 1, m))
        normal = [p for p in cands if not _is_power(p[0], p[1], bombs)]
        power = [p for p in cands if _is_power(p[0], p[1], bombs)]
        if len(pieces) == 2 and power and len(cands) == 2:
            return max(power, key=lambda p: (p[1] in bombs, p[0]))[0]
        if normal:
            if opp_min == 1:
                multi = [p for p in normal if p[1] != R.SINGLE]
                if multi:
                    return min(multi, key=lambda p: (p[0] & -p[0], -p[0].bit_count()))[0]
                return max(normal, key=lambda p: p[0])[0]
            return min(normal, key=lambda p: (p[0] & -p[0], -p[0].bit_count()))[0]
        # only 2s and bombs: bombs first (only bombs beat them), then 2s from the lowest
        bomb_p = [p for p in power if p[1] in bombs]
        if bomb_p:
            return min(bomb_p, key=lambda p: p[0])[0]
        return min(power, key=lambda p: p[0])[0]

    plays = [m for m in legal if m]
    if not plays:
        return 0
    top_shape = state.top_shape
    top_power = _is_power(top, top_shape, bombs)
    if top_power:
        chops = [m for m in plays if R.shape_of(m) in bombs]
        if chops:
            return min(chops)
    piece_masks = {p[0] for p in pieces}
    clean = [m for m in plays if m in piece_masks and not _is_power(m, R.shape_of(m), bombs)]
    if not clean and top_shape == R.SINGLE:
        singles_of_sets = [p[0] for p in pieces if p[1] in (R.PAIR, R.TRIPLE) and not p[0] >> 48]
        # a single from a triple costs little: the pair stays
        clean = [m for m in plays if any(m & s and s.bit_count() == 3 for s in singles_of_sets)]
    if clean:
        return min(clean)
    urgent = opp_min <= 2 or hand.bit_count() <= 4
    if top_power:
        return 0
    twos = [m for m in plays if R.shape_of(m) not in bombs and m >> 48]
    if urgent:
        ordinary = [m for m in plays if not m >> 48 and R.shape_of(m) not in bombs]
        if ordinary:
            return min(ordinary)
        if twos:
            return min(twos)
        return 0
    if twos and top_shape == R.SINGLE and (top.bit_length() - 1) >> 2 >= 11:  # an ace on the table
        if (hand & R.TWOS).bit_count() >= 2:
            return min(twos)
    return 0


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
    counts = [_POP[(mask >> (4 * r)) & 15] for r in range(lo_rank, hi_rank + 1)]
    if all(c == 1 for c in counts) and len(counts) >= 3:
        return STRAIGHT + len(counts)
    if all(c == 2 for c in counts) and len(counts) >= 3:
        return PAIRSEQ + len(counts)
    return 0
