"""Reference Sâm lốc heuristic.

The pre-optimisation code of issue 22 (commit 1a04877), kept for tests/games/test_speed_equivalence.py:
the optimised code must give the same answers as this on many random inputs.  Copied unchanged
apart from imports and ``sam_success_chance``: its Monte Carlo estimate was redefined as a
fixed function of the hand (the same sampled deals for every hand, no draw from the caller's
rng), so this copy evaluates those deals with the original loop.  Not used by the package.
"""

from __future__ import annotations

import random

from quansu.games.base import TERMINAL
from quansu.games.samloc import rules as R
from quansu.games.samloc.rules import DQUAD, PAIR, QUAD, SINGLE, STRAIGHT, TRIPLE, TWO, TWOS

SAM_THRESHOLD = 0.75
SAM_SAMPLES = 48
PLAY_COST = 10

_plan_cache: dict = {}


def _counts(hand: int) -> tuple[int, ...]:
    return tuple(((hand >> (4 * r)) & 15).bit_count() for r in range(13))


def _group_cost(kind: int, ranks: tuple[int, ...]) -> int:
    if kind == SINGLE:
        r = ranks[0]
        return PLAY_COST + (max(0, 10 - r) if r < TWO else 0)
    return PLAY_COST


def _windows_with(r: int, counts: tuple[int, ...], allow_two: bool):
    """Rank tuples of straights (in sequence order) holding rank r, all ranks present."""
    vals = []
    if r == R.ACE:
        vals = [14, 1] if allow_two else [14]
    elif r == TWO:
        vals = [2] if allow_two else []
    else:
        vals = [r + 3]
    lo_v = 1 if allow_two else 3
    out = []
    for v in vals:
        for a in range(max(lo_v, v - 9), v + 1):
            for b in range(max(v, a + 2), min(14, a + 9) + 1):
                if b == 14 and a <= 2:
                    continue
                ranks = tuple(R.VALUE_RANK[x] for x in range(a, b + 1))
                if all(counts[x] > 0 for x in ranks):
                    out.append(ranks)
    return out


def _plan_counts(counts: tuple[int, ...], allow_two: bool):
    key = (counts, allow_two)
    hit = _plan_cache.get(key)
    if hit is not None:
        return hit
    r = next((i for i in range(13) if counts[i]), -1)
    if r < 0:
        res = (0, ())
    else:
        c = counts[r]
        rest = counts[:r] + (0,) + counts[r + 1 :]
        kind = (SINGLE, PAIR, TRIPLE, QUAD)[c - 1]
        sub = _plan_counts(rest, allow_two)
        best = (sub[0] + _group_cost(kind, (r,) * c), ((kind, (r,) * c),) + sub[1])
        for ranks in _windows_with(r, counts, allow_two):
            nc = list(counts)
            for x in ranks:
                nc[x] -= 1
            sub = _plan_counts(tuple(nc), allow_two)
            cost = sub[0] + PLAY_COST
            if cost < best[0]:
                best = (cost, ((STRAIGHT, ranks),) + sub[1])
        res = best
    if len(_plan_cache) > 200000:
        _plan_cache.clear()
    _plan_cache[key] = res
    return res


def plan(hand: int, allow_two: bool = True):
    """``(cost, groups)``: a cheapest split of ``hand`` into combinations, each group
    ``(ctype, ranks)`` (ranks in sequence order for straights, repeated for same-rank groups)."""
    return _plan_counts(_counts(hand), allow_two)


def plan_cost(hand: int, allow_two: bool = True) -> int:
    return _plan_counts(_counts(hand), allow_two)[0]


def group_mask(hand: int, ranks: tuple[int, ...]) -> int:
    """Concrete cards of ``hand`` for a group's ranks (lowest suits first)."""
    m = 0
    for r in ranks:
        avail = (hand >> (4 * r)) & 15 & ~(m >> (4 * r))
        low = avail & -avail
        m |= low << (4 * r)
    return m


def _unseen(state, seat: int) -> int:
    return R.FULL & ~state.hands[seat] & ~state.table


def _beatable(mask: int, by: int, game) -> bool:
    c = R.classify(mask, game._allow_two, game._dq)
    if c is None:
        return True
    return bool(R.beating_combos(by, c[0], c[1], c[2], game._allow_two, game._dq, game._quad_pair))


def sam_success_chance(game, hand: int, unseen: int, rng=None, samples: int = SAM_SAMPLES) -> float:
    """The original Monte Carlo loop, one sampled deal and one opponent at a time, on the fixed
    sampled deals of the current module (``games.samloc.heuristic.sample_deals``) instead of
    ``rng.sample``."""
    from quansu.games.samloc.heuristic import sample_deals

    groups = [group_mask(hand, g[1]) for g in plan(hand, game._allow_two)[1]]
    # a combination that can never be beaten needs no sampling
    risky = [m for m in groups if _beatable(m, unseen, game)]
    final_ok = [m for m in groups if not _counts_two(game, m)]
    if not final_ok:
        return 0.0
    if len(risky) == 0:
        return 1.0
    if len(risky) == 1 and not _counts_two(game, risky[0]):
        return 1.0
    pool = [c for c in range(52) if unseen >> c & 1]
    opp = game.num_players - 1
    deals = sample_deals(len(pool), opp, samples)
    wins = 0
    for s in range(samples):
        hands = []
        for i in range(opp):
            m = 0
            for j in deals[s][i]:
                m |= 1 << pool[int(j)]
            hands.append(m)
        beaten = [m for m in risky if any(_beatable(m, h, game) for h in hands)]
        if not beaten or (len(beaten) == 1 and not _counts_two(game, beaten[0])):
            wins += 1
    return wins / samples


def _counts_two(game, mask: int) -> bool:
    if not mask & TWOS:
        return False
    c = R.classify(mask, game._allow_two, game._dq)
    return c is None or c[0] != STRAIGHT or game._two_str


def heuristic_move(game, state, rng: random.Random) -> int:
    """The club player's move for the seat to act (see the module docstring)."""
    from quansu.games.samloc.game import DECLARE, DECLINE, PASS

    s = state.current_player
    if s == TERMINAL:
        raise ValueError("heuristic_move: the game is over")
    legal = state.legal_moves()
    if state.in_declarations:
        if not state.declaration_matters(s):
            return DECLINE  # an earlier seat's declaration outranks this one: nothing to gain
        chance = sam_success_chance(game, state.hands[s], _unseen(state, s), rng)
        return DECLARE if chance >= SAM_THRESHOLD else DECLINE
    if len(legal) == 1:
        return legal[0]
    hand = state.hands[s]
    allow_two = game._allow_two
    top = state.top
    declarer = state.declarer
    unseen = _unseen(state, s)

    # against a declarer: block whenever possible, as cheaply as possible
    if declarer >= 0 and declarer != s:
        beats = [m for m in legal if m != PASS]
        if beats:
            return min(beats, key=lambda m: (plan_cost(hand ^ m, allow_two), m.bit_count(), m))
        return PASS

    nxt = state._next_active(s)
    danger_next = nxt >= 0 and state.hands[nxt].bit_count() == 1
    sizes = [
        state.hands[t].bit_count() for t in range(state._n) if t != s and state._active >> t & 1
    ]
    min_opp = min(sizes) if sizes else 10

    # as declarer: safest plays first, never finish on a 2
    if declarer == s:
        return _declarer_lead(game, hand, legal, unseen)

    def finishing(m: int) -> bool:
        return m == hand and not _counts_two(game, m)

    for m in legal:
        if m != PASS and finishing(m):
            return m

    base = plan_cost(hand, allow_two)
    late = min_opp <= 3 or hand.bit_count() <= 4

    def spend(m: int) -> float:
        """Extra cost of giving up strong cards (2s, aces, bombs) now."""
        if late:
            return 0.0
        cost = 0.0
        cost += 8 * (m & TWOS).bit_count()
        cost += 2 * (m & (0xF << (4 * R.ACE))).bit_count()
        return cost

    def after(m: int) -> float:
        rest = hand ^ m
        if not rest:
            return 5.0 * (m & TWOS).bit_count()  # out on a 2: a loss, but a cheap one
        v = plan_cost(rest, allow_two)
        groups = plan(rest, allow_two)[1]
        if len(groups) == 1 and not _counts_two(game, rest) and not _beatable(m, unseen, game):
            v -= 100  # nobody can beat m, and the rest goes out in one play
        if (rest & TWOS) == rest:
            v += 15  # only 2s left: the hand can only end on a 2
        return v

    quads = 0
    for r in range(13):
        if (hand >> (4 * r)) & 15 == 15:
            quads |= 15 << (4 * r)

    if top is None:
        # leading
        if danger_next:
            multi = [
                m
                for m in legal
                if m.bit_count() > 1 and R.classify(m, allow_two, game._dq)[0] != QUAD
            ]
            if multi:
                return min(multi, key=lambda m: (after(m) + spend(m), m))
            singles = [m for m in legal if m.bit_count() == 1]
            return max(singles)

        def lead_score(m: int) -> float:
            c = R.classify(m, allow_two, game._dq)
            v = after(m) + spend(m)
            if c[0] == QUAD and hand != m:
                v += 25  # keep fours of a kind to chop with
            elif quads & m:
                v += 25  # ... and do not break them
            # lead weak combinations first, long straights early (they shed many cards)
            if c[0] == STRAIGHT:
                v += (c[2] - 3) * 0.3 - 5 * c[1]
            else:
                v += c[2] * 1.0
            if c[0] == SINGLE and min_opp == 1:
                v += 6 if c[2] < 10 else 0
            return v

        return min(legal, key=lambda m: (lead_score(m), m))

    # following
    owner, tmask = top
    tc = R.classify(tmask, allow_two, game._dq)
    plays = [m for m in legal if m != PASS]
    if danger_next and tc[0] == SINGLE:
        singles = [m for m in plays if m.bit_count() == 1]
        if singles:
            return max(singles)
    # chopping a 2 or a four of a kind earns chop money: always take it, with the smallest bomb
    chops = [m for m in plays if R.classify(m, allow_two, game._dq)[0] in (QUAD, DQUAD)]
    if chops and (tmask & TWOS or tc[0] in (QUAD, DQUAD)):
        return min(chops)
    # passing gives up tempo (the first to go out takes everything): a bias to play, stronger
    # when an opponent is close to going out
    best, best_v = PASS, float(base) + (30 if min_opp <= 3 else 12)
    for m in plays:
        v = after(m) + spend(m)
        if v < best_v or (v == best_v and best != PASS and m < best):
            best, best_v = m, v
    return best


def _declarer_lead(game, hand: int, legal: list[int], unseen: int) -> int:
    allow_two = game._allow_two
    for m in legal:
        if m == hand and not _counts_two(game, m):
            return m
    groups = [group_mask(hand, g[1]) for g in plan(hand, allow_two)[1]]
    groups = [m for m in groups if m in legal] or [m for m in legal]
    safe = [m for m in groups if not _beatable(m, unseen, game)]
    # the last play must not hold a 2; play 2s and safe plays first
    twos = [m for m in groups if _counts_two(game, m)]
    if twos:
        return min(twos)
    if safe and len(groups) > 1:
        # keep one non-safe (or the weakest) play for last
        return max(safe, key=lambda m: (m.bit_count(), m))
    risky = sorted(groups, key=lambda m: (R.classify(m, allow_two, game._dq)[2], m))
    return risky[-1] if len(risky) > 1 else risky[0]
