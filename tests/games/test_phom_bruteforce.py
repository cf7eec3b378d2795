"""A slow, independent brute-force legality check compared with the fast engine on thousands of
random positions: eat legality, discard legality (tied cards), Ù, and the lay-down arrangements.

The brute force works on project card ids with its own meld test and tries every subset of the
hand as a meld and every selection of disjoint melds; it shares no code with games/phom/rules.py.
"""

import random
from itertools import combinations

from quansu import games
from quansu.games.cards import PHOM_RANK
from quansu.games.phom import rules as R
from quansu.games.phom.game import DISCARD, TAKE

RANK = [PHOM_RANK[c >> 2] for c in range(52)]


def b_is_meld(cards) -> bool:
    n = len(cards)
    if n < 3:
        return False
    r0 = RANK[cards[0]]
    if all(RANK[c] == r0 for c in cards):
        return n <= 4
    s0 = cards[0] & 3
    if any(c & 3 != s0 for c in cards):
        return False
    rs = sorted(RANK[c] for c in cards)
    return rs[-1] - rs[0] == n - 1 and len(set(rs)) == n


def b_melds(hand: frozenset) -> list[frozenset]:
    """Every subset of the hand that is a meld.  A meld has one rank or one suit, so only the
    subsets of each rank group and of each suit group are tried (all of them)."""
    groups = {}
    for c in hand:
        groups.setdefault(("r", RANK[c]), []).append(c)
        groups.setdefault(("s", c & 3), []).append(c)
    out = set()
    for cards in groups.values():
        for k in range(3, len(cards) + 1):
            for combo in combinations(sorted(cards), k):
                if b_is_meld(combo):
                    out.add(frozenset(combo))
    return sorted(out, key=sorted)


def b_selections(melds: list[frozenset]):
    """Every set of pairwise-disjoint melds (as a tuple of melds), lazily."""

    def rec(i, used, chosen):
        yield tuple(chosen)
        for j in range(i, len(melds)):
            if not melds[j] & used:
                yield from rec(j + 1, used | melds[j], chosen + [melds[j]])

    return rec(0, frozenset(), [])


def b_valid(sel, eaten: frozenset, one: bool) -> bool:
    """Every eaten card laid; each meld with at most one eaten card (one), as the rules ask."""
    laid = frozenset().union(*sel) if sel else frozenset()
    if not eaten <= laid:
        return False
    if one and any(len(m & eaten) > 1 for m in sel):
        return False
    return True


def b_cover(hand: frozenset, eaten: frozenset, one: bool = True, all_melds=None) -> bool:
    """Cover by brute force; ``all_melds``: the melds of a superset of ``hand`` (reused)."""
    if all_melds is None:
        all_melds = b_melds(hand)
    melds = [m for m in all_melds if m & eaten and m <= hand]
    if one:
        melds = [m for m in melds if len(m & eaten) == 1]
    return any(b_valid(sel, eaten, one) for sel in b_selections(melds))


def b_u(hand: frozenset, eaten: frozenset, one: bool = True) -> bool:
    for sel in b_selections(b_melds(hand)):
        if sel and b_valid(sel, eaten, one):
            if len(hand) - sum(len(m) for m in sel) <= 1:
                return True
    return False


def to_int(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return R.mask_to_int(m)


def to_set(mask_int: int) -> frozenset:
    return frozenset(R.TO_EXT[x] for x in R.bits(mask_int))


def _positions_from_play(n_positions: int, seed: int):
    """(hand, eaten, candidate eat card or None) from random games: every TAKE with a discard to
    eat and every DISCARD with eaten cards."""
    rng = random.Random(seed)
    out = []
    for opts in ({}, {"one_eaten_card_per_meld": False}):
        game = games.make("phom", 4, opts)
        while len(out) < n_positions * (1 if opts else 0.6):
            st = game.new_initial_state(rng)
            while not st.is_terminal():
                p = st.cur
                if st.phase == TAKE and st.last is not None:
                    out.append(
                        (to_set(st.hands[p]), to_set(st.eaten[p]), R.TO_EXT[st.last[0]], game._one)
                    )
                elif st.phase == DISCARD and st.eaten[p]:
                    out.append((to_set(st.hands[p]), to_set(st.eaten[p]), None, game._one))
                moves = st.legal_moves()
                eats = [m for m in moves if isinstance(m, int) and 64 <= m < 116]
                st.apply(eats[0] if eats and rng.random() < 0.7 else rng.choice(moves))
    return out


def _dense_positions(n_positions: int, seed: int):
    """Hands from a small sub-deck (ranks A-7 of three suits) so that melds overlap a lot, with
    0-2 eaten cards chosen so that the invariant holds."""
    rng = random.Random(seed)
    sub = [c for c in range(52) if PHOM_RANK[c >> 2] <= 7 and (c & 3) != 3]
    out = []
    while len(out) < n_positions:
        cards = rng.sample(sub, 11)
        hand = frozenset(cards[:10])
        outside = cards[10]
        k = rng.choice((0, 1, 1, 2, 2))
        eaten = frozenset(rng.sample(sorted(hand), k))
        one = rng.random() < 0.8
        if not b_cover(hand, eaten, one):
            continue
        out.append((hand, eaten, outside, one))
    return out


def _check(hand, eaten, cand, one):
    h, e = to_int(hand), to_int(eaten)
    # eat legality
    if cand is not None:
        want = b_cover(hand | {cand}, eaten | {cand}, one)
        assert R.can_eat(h, e, R.TO_INT[cand], one) is want, (sorted(hand), sorted(eaten), cand)
    # discard legality on the hand (9 or 10 cards)
    legal = to_set(R.legal_discards(h, e, one))
    melds = b_melds(hand)
    want = frozenset(d for d in hand if d not in eaten and b_cover(hand - {d}, eaten, one, melds))
    assert legal == want, (sorted(hand), sorted(eaten), one)


def test_eat_and_discard_legality_random_play():
    positions = _positions_from_play(2000, seed=11)
    assert len(positions) >= 2000
    assert sum(1 for _h, e, _c, _o in positions if e) >= 300
    for pos in positions:
        _check(*pos)


def test_eat_and_discard_legality_dense_hands():
    positions = _dense_positions(2000, seed=12)
    for pos in positions:
        _check(*pos)


def test_u_and_arrangements_dense_hands():
    rng = random.Random(13)
    sub = [c for c in range(52) if PHOM_RANK[c >> 2] <= 8 and (c & 3) != 0]
    checked = 0
    while checked < 1000:
        size = rng.choice((3, 4, 7, 10))
        hand = frozenset(rng.sample(sub, size))
        eaten = frozenset(rng.sample(sorted(hand), rng.choice((0, 0, 1, 2))))
        one = rng.random() < 0.8
        if not b_cover(hand, eaten, one):
            continue
        checked += 1
        h, e = to_int(hand), to_int(eaten)
        assert R.can_u(h, e, one) is b_u(hand, eaten, one), (sorted(hand), sorted(eaten))
        want = {
            frozenset(sel)
            for sel in b_selections(b_melds(hand))
            if b_valid(sel, eaten, one) and len(hand) - sum(len(m) for m in sel) >= 1
        }
        got = R.arrangements(h, e, one, 1)
        assert len(got) == len(set(got))
        assert {frozenset(to_set(m) for m in a) for a in got} == want
