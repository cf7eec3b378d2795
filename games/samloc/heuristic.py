"""The rule-based "careful club player" for Sâm lốc.

It sees only its own seat's information: its hand, the cards on the table, hand sizes and the
public history (all read from the state through public facts, never opponents' hands).

Policy in short:

* **báo sâm**: plan the hand as few combinations as possible; estimate with a small Monte-Carlo
  over the unseen cards how often no opponent can beat any planned play but the last; declare
  only when that chance is at least :data:`SAM_THRESHOLD` (a very strong hand).  A seat whose
  declaration would be outranked by an earlier one (it is not the previous winner) declines.
* **as declarer**: lead the plays nobody can beat first, the weakest play last, never end on a 2.
* **against a declarer**: block with the cheapest play that beats.
* **normal play**: a one-step look-ahead on a *plan cost* of the remaining hand (10 per play
  needed, more for low loose singles); spending 2s and aces early costs extra; chopping a 2 or a
  four of a kind earns a bonus; fours of a kind are kept for chopping; low singles are shed first.
* **báo một**: when the next seat has one card, lead a multi-card combination or the highest
  single, and answer a single only with the highest single.
"""

from __future__ import annotations

import random

from quansu.games.base import TERMINAL
from quansu.games.caches import cache_size, make_room

from . import rules as R
from .rules import DECLARE, DECLINE, DQUAD, PAIR, PASS, QUAD, SINGLE, STRAIGHT, TRIPLE, TWO, TWOS

SAM_THRESHOLD = 0.75
SAM_SAMPLES = 48
PLAY_COST = 10

#: the sampled deals of :func:`sam_success_chance` come from this seed (common random numbers)
SAM_SEED = 2208


def _group_cost(kind: int, ranks: tuple[int, ...]) -> int:
    if kind == SINGLE:
        r = ranks[0]
        return PLAY_COST + (max(0, 10 - r) if r < TWO else 0)
    return PLAY_COST


#: (a, b) -> the rank indices of the straight of sequence values a..b, in sequence order, and
#: the packed rank counts of its cards (one per rank).
_WIN_RANKS = {
    (a, b): tuple(R.VALUE_RANK[x] for x in range(a, b + 1))
    for a in range(1, 15)
    for b in range(a, 15)
}
_WIN_ONES = {w: sum(1 << (4 * r) for r in ranks) for w, ranks in _WIN_RANKS.items()}

#: (rank, value mask, allow_two) -> the straights through that rank (:func:`_windows_with`).
#: Bounded: trimmed (:func:`games.caches.make_room`) at :data:`_WINDOWS_MAX` entries.
_windows_cache: dict = {}
_WINDOWS_MAX = cache_size("samloc_windows")


def _windows_with(r: int, vm: int, allow_two: bool) -> list:
    """The straights holding rank ``r`` whose every value is present in the value mask ``vm``
    (bit v = sequence value v held), as ``(ranks in sequence order, packed rank counts)``:
    by sequence value of ``r`` (A high first, then A low), start, then end."""
    key = (r, vm, allow_two)
    out = _windows_cache.get(key)
    if out is not None:
        return out
    if r == R.ACE:
        vals = [14, 1] if allow_two else [14]
    elif r == TWO:
        vals = [2] if allow_two else []
    else:
        vals = [r + 3]
    lo_v = 1 if allow_two else 3
    out = []
    for v in vals:
        lo = v
        while lo - 1 >= lo_v and vm >> (lo - 1) & 1:
            lo -= 1
        hi = v
        while hi < 14 and vm >> (hi + 1) & 1:
            hi += 1
        for a in range(max(lo_v, v - 9, lo), v + 1):
            for b in range(max(v, a + 2), min(14, a + 9, hi) + 1):
                if b == 14 and a <= 2:
                    continue
                out.append((_WIN_RANKS[a, b], _WIN_ONES[a, b]))
    if len(_windows_cache) >= _WINDOWS_MAX:
        make_room(_windows_cache)
    _windows_cache[key] = out
    return out


#: packed rank counts | allow_two << 60 -> (cost, groups) (:func:`plan`), trimmed when it holds
#: :data:`_PLAN_CACHE_SIZE` entries (games/caches.py: QUANSU_CACHE_SAMLOC_PLANS).
_plan_cache: dict = {}
_PLAN_CACHE_SIZE = cache_size("samloc_plans")
_TWO_KEY = 1 << 60


def _plan_packed(c: int, allow_two: bool):
    """:func:`plan` of the packed rank counts ``c`` (nibble r = cards of rank r)."""
    key = c | _TWO_KEY if allow_two else c
    hit = _plan_cache.get(key)
    if hit is not None:
        return hit
    if not c:
        res = (0, ())
    else:
        sh = ((c & -c).bit_length() - 1) & ~3
        r = sh >> 2
        n = (c >> sh) & 15
        kind = (SINGLE, PAIR, TRIPLE, QUAD)[n - 1]
        sub = _plan_packed(c & ~(15 << sh), allow_two)
        ranks = (r,) * n
        best = (sub[0] + _group_cost(kind, ranks), ((kind, ranks),) + sub[1])
        # value mask of the ranks held (A also as value 1 and 2 as value 2 when allowed)
        x = (c | (c >> 1) | (c >> 2)) & R.NIB1
        rp = R._compress(x)
        vm = (rp & 0xFFF) << 3
        if allow_two:
            vm |= ((rp >> R.ACE) & 1) << 1 | ((rp >> TWO) & 1) << 2
        for ranks, ones in _windows_with(r, vm, allow_two):
            sub = _plan_packed(c - ones, allow_two)
            cost = sub[0] + PLAY_COST
            if cost < best[0]:
                best = (cost, ((STRAIGHT, ranks),) + sub[1])
        res = best
    if len(_plan_cache) >= _PLAN_CACHE_SIZE:
        make_room(_plan_cache)
    _plan_cache[key] = res
    return res


def plan(hand: int, allow_two: bool = True):
    """``(cost, groups)``: a cheapest split of ``hand`` into combinations, each group
    ``(ctype, ranks)`` (ranks in sequence order for straights, repeated for same-rank groups).

    Depends on the rank counts only (memoised per count vector, bounded)."""
    x = hand - ((hand >> 1) & 0x5555555555555)
    c = (x & 0x3333333333333) + ((x >> 2) & 0x3333333333333)  # R.rank_counts, inlined
    hit = _plan_cache.get(c | _TWO_KEY if allow_two else c)
    return hit if hit is not None else _plan_packed(c, allow_two)


def plan_cost(hand: int, allow_two: bool = True) -> int:
    return plan(hand, allow_two)[0]


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
    return R.can_beat(by, c[0], c[1], c[2], game._allow_two, game._dq, game._quad_pair)


#: (hand, unseen, players, rule options, samples) -> :func:`sam_success_chance`.  Bounded:
#: trimmed at :data:`_SAM_MEMO_MAX` entries.
_sam_memo: dict = {}
_SAM_MEMO_MAX = cache_size("samloc_chance")
#: (pool size, opponents, samples) -> the sampled deals as a 0/1 matrix (samples x opponents
#: rows, pool columns: pool card i goes to that opponent).  At most 52 x 3 x a few entries.
_deal_rows: dict = {}


def sample_deals(pool_size: int, opponents: int, samples: int):
    """The fixed sampled deals of :func:`sam_success_chance` for a pool of ``pool_size`` unseen
    cards: an int array ``(samples, opponents, 10)`` of pool indices (pool = the unseen cards in
    ascending id order), every row a uniform random 10-card hand, disjoint within a sample;
    the same for every call (seed :data:`SAM_SEED`)."""
    import numpy as np

    gen = np.random.Generator(np.random.PCG64([SAM_SEED, pool_size, opponents, samples]))
    perm = np.argsort(gen.random((samples, pool_size)), axis=1, kind="stable")
    return perm[:, : 10 * opponents].reshape(samples, opponents, 10)


def _deal_matrix(pool_size: int, opponents: int, samples: int):
    key = (pool_size, opponents, samples)
    a = _deal_rows.get(key)
    if a is None:
        import numpy as np

        idx = sample_deals(pool_size, opponents, samples)
        a = np.zeros((samples * opponents, pool_size))
        rows = np.repeat(np.arange(samples * opponents), 10)
        a[rows, idx.reshape(-1)] = 1.0
        if len(_deal_rows) > 512:
            _deal_rows.clear()
        _deal_rows[key] = a
    return a


def sam_success_chance(
    game, hand: int, unseen: int, rng: random.Random | None = None, samples: int = SAM_SAMPLES
) -> float:
    """Estimated chance that declaring Sâm with ``hand`` succeeds: opponents get random
    10-card hands from ``unseen``; success when no opponent can beat any planned play but the
    last one (which must hold no counted 2).

    The estimate is a fixed function of its arguments: the same ``samples`` sampled deals
    (:func:`sample_deals`, seed :data:`SAM_SEED`) for every hand, evaluated on rank counts all
    at once, and memoised (bounded).  ``rng`` is not used (kept for callers)."""
    key = (
        hand,
        unseen,
        game.num_players,
        game._allow_two,
        game._dq,
        game._quad_pair,
        game._two_str,
        samples,
    )
    hit = _sam_memo.get(key)
    if hit is None:
        hit = _sam_chance(game, hand, unseen, samples)
        if len(_sam_memo) >= _SAM_MEMO_MAX:
            make_room(_sam_memo)
        _sam_memo[key] = hit
    return hit


def _sam_chance(game, hand: int, unseen: int, samples: int) -> float:
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
    import numpy as np

    pool = [c for c in range(52) if unseen >> c & 1]
    opp = game.num_players - 1
    ranks = np.zeros((len(pool), 13))
    ranks[np.arange(len(pool)), np.array(pool) >> 2] = 1.0
    counts = (_deal_matrix(len(pool), opp, samples) @ ranks).reshape(samples, opp, 13)
    beaten = np.zeros((samples, len(risky)), dtype=bool)
    at_least = [None, counts >= 1, counts >= 2, counts >= 3, counts >= 4]
    for j, m in enumerate(risky):
        beaten[:, j] = _beaten_by_any(game, m, at_least)
    nb = beaten.sum(axis=1)
    plain = np.array([not _counts_two(game, m) for m in risky])
    wins = (nb == 0) | ((nb == 1) & (beaten & plain).any(axis=1))
    return int(wins.sum()) / samples


def _beaten_by_any(game, mask: int, at_least):
    """Per sampled deal: whether some opponent holds a combination that beats ``mask``
    (:func:`_beatable` on rank counts; ``at_least[k]``: counts >= k, samples x opponents x 13)."""
    import numpy as np

    c = R.classify(mask, game._allow_two, game._dq)
    ge1, ge2, ge3, ge4 = at_least[1], at_least[2], at_least[3], at_least[4]
    if c is None:
        return np.ones(ge1.shape[0], dtype=bool)
    ctype, length, key = c
    if ctype == SINGLE:
        b = ge1[:, :, key + 1 :].any(axis=2)
        if key == TWO:
            b |= ge4.any(axis=2)
    elif ctype == PAIR:
        b = ge2[:, :, key + 1 :].any(axis=2)
        if key == TWO:
            nq = ge4.sum(axis=2)
            if game._quad_pair:
                b |= nq >= 1
            if game._dq:
                b |= nq >= 2
    elif ctype == TRIPLE:
        b = ge3[:, :, key + 1 :].any(axis=2)
    elif ctype == QUAD:
        b = ge4[:, :, key + 1 :].any(axis=2)
    elif ctype == DQUAD:
        b = (ge4.sum(axis=2) >= 2) & ge4[:, :, key + 1 :].any(axis=2)
    elif ctype == STRAIGHT:
        if length > 10:  # an opponent holds 10 cards
            return np.zeros(ge1.shape[0], dtype=bool)
        # value v present (index v = sequence value 1..14; A also as 1 and 2 as 2 when allowed)
        vals = np.zeros(ge1.shape[:2] + (15,), dtype=bool)
        vals[:, :, 3:15] = ge1[:, :, 0:12]
        if game._allow_two:
            vals[:, :, 1] = ge1[:, :, R.ACE]
            vals[:, :, 2] = ge1[:, :, TWO]
        run = np.concatenate([np.zeros(vals.shape[:2] + (1,)), np.cumsum(vals, axis=2)], axis=2)
        # windows a..a+length-1 with a higher top (and not 1..14 or 2..14)
        starts = [
            a
            for a in range(max(key - length + 2, 1), 16 - length)
            if not (a + length - 1 == 14 and a <= 2)
        ]
        if not starts:
            return np.zeros(ge1.shape[0], dtype=bool)
        full = (run[:, :, length:] - run[:, :, :-length]) == length  # index a: window a..
        b = full[:, :, starts].any(axis=2)
    else:
        return np.zeros(ge1.shape[0], dtype=bool)
    return b.any(axis=1)


def _counts_two(game, mask: int) -> bool:
    if not mask & TWOS:
        return False
    c = R.classify(mask, game._allow_two, game._dq)
    return c is None or c[0] != STRAIGHT or game._two_str


# The move terms of :func:`heuristic_move`, at module level rather than nested in it: nested
# functions that refer to one another form a reference cycle on every call in the compiled
# build (one closure scope holds the functions, each function holds the scope), garbage that
# only the cyclic collector frees (docs/search.md, "Garbage collection").


def _spend(m: int, late: bool) -> float:
    """Extra cost of giving up strong cards (2s, aces, bombs) now (none late in the deal)."""
    if late:
        return 0.0
    cost = 0.0
    cost += 8 * (m & TWOS).bit_count()
    cost += 2 * (m & (0xF << (4 * R.ACE))).bit_count()
    return cost


def _after(game, hand: int, m: int, allow_two: bool, unseen: int) -> float:
    """Cost of the hand left after playing ``m``."""
    rest = hand ^ m
    if not rest:
        return 5.0 * (m & TWOS).bit_count()  # out on a 2: a loss, but a cheap one
    v, groups = plan(rest, allow_two)
    if len(groups) == 1 and not _counts_two(game, rest) and not _beatable(m, unseen, game):
        v -= 100  # nobody can beat m, and the rest goes out in one play
    if (rest & TWOS) == rest:
        v += 15  # only 2s left: the hand can only end on a 2
    return v


def _lead_score(
    game, hand: int, m: int, allow_two: bool, unseen: int, late: bool, quads: int, min_opp: int
) -> float:
    """Cost of leading ``m`` (lowest is led)."""
    c = R.classify(m, allow_two, game._dq)
    v = _after(game, hand, m, allow_two, unseen) + _spend(m, late)
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


def heuristic_move(game, state, rng: random.Random) -> int:
    """The club player's move for the seat to act (see the module docstring)."""
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

    for m in legal:
        if m != PASS and m == hand and not _counts_two(game, m):
            return m  # finishing (not on a 2)

    base = plan_cost(hand, allow_two)
    late = min_opp <= 3 or hand.bit_count() <= 4
    quads = ((R.rank_counts(hand) >> 2) & R.NIB1) * 15  # the cards of its fours of a kind

    if top is None:
        # leading
        if danger_next:
            multi = [
                m
                for m in legal
                if m.bit_count() > 1 and R.classify(m, allow_two, game._dq)[0] != QUAD
            ]
            if multi:
                return min(
                    multi,
                    key=lambda m: (_after(game, hand, m, allow_two, unseen) + _spend(m, late), m),
                )
            singles = [m for m in legal if m.bit_count() == 1]
            return max(singles)
        return min(
            legal,
            key=lambda m: (_lead_score(game, hand, m, allow_two, unseen, late, quads, min_opp), m),
        )

    # following
    owner, tmask = top
    tc = R.classify(tmask, allow_two, game._dq)
    plays = [m for m in legal if m != PASS]
    if danger_next and tc[0] == SINGLE:
        singles = [m for m in plays if m.bit_count() == 1]
        if singles:
            return max(singles)
    # chopping a 2 or a four of a kind earns chop money: always take it, with the smallest bomb
    chops = [
        m
        for m in plays
        if m.bit_count() in (4, 8) and R.classify(m, allow_two, game._dq)[0] in (QUAD, DQUAD)
    ]
    if chops and (tmask & TWOS or tc[0] in (QUAD, DQUAD)):
        return min(chops)
    # passing gives up tempo (the first to go out takes everything): a bias to play, stronger
    # when an opponent is close to going out
    best, best_v = PASS, float(base) + (30 if min_opp <= 3 else 12)
    for m in plays:
        v = _after(game, hand, m, allow_two, unseen) + _spend(m, late)
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
