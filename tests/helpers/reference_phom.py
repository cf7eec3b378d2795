"""Reference Phỏm determinization (``view.determinize`` with the original eaten-cover test).

The pre-optimisation code of issue 22 (commit 1a04877), kept for tests/games/test_speed_equivalence.py:
the optimised code must give the same answers as this on many random inputs.  Copied unchanged
apart from imports.  Not used by the package.
"""

from __future__ import annotations

import random

from quansu.games.phom import rules as R

_TRIES = 24


def _sample_constrained(
    pool: list[int], seats: list[int], sizes: dict, eaten: list[int], one: bool, rng: random.Random
) -> tuple[dict, list[int]] | None:
    """Hidden cards for the seats holding eaten cards, each hand satisfying the cover, drawn
    from ``pool``; returns (seat -> mask, the unused pool cards) or None.  First by rejection
    (uniform among valid hands), then by joint construction: a random 3-card meld from the pool
    around every eaten card, the rest at random."""
    for _ in range(2):
        avail = pool[:]
        got = {}
        for o in seats:
            k = sizes[o]
            found = None
            for _round in range(2):
                rng.shuffle(avail)
                # every window of k consecutive cards of a random order is a uniform k-subset
                m = 0
                for x in avail[:k]:
                    m |= 1 << x
                for i in range(len(avail) - k + 1):
                    if i:
                        m ^= (1 << avail[i - 1]) | (1 << avail[i + k - 1])
                    if R.cover(m | eaten[o], eaten[o], one):
                        found = m
                        break
                if found is not None:
                    break
            if found is None:
                break
            got[o] = found
            avail = [x for x in avail if not found >> x & 1]
        else:
            rng.shuffle(avail)
            return got, avail
    pool_mask = 0
    for x in pool:
        pool_mask |= 1 << x
    melds_of = R.MIN_MELDS if one else R.MELDS_WITH
    for _ in range(4 * _TRIES):
        order = seats[:]
        rng.shuffle(order)
        reserved = 0
        got = {}
        for o in order:
            e_all = eaten[o]
            chosen = 0
            es = R.bits(e_all)
            rng.shuffle(es)
            for e in es:
                free = pool_mask & ~reserved & ~chosen
                cands = [
                    m
                    for m in melds_of[e]
                    if not (m & ~(1 << e)) & ~(free | e_all)
                    and not (one and (m & e_all) != 1 << e)
                    and not m & chosen
                ]
                if not cands:
                    break
                chosen |= rng.choice(cands) & ~e_all
            else:
                if chosen.bit_count() <= sizes[o]:
                    got[o] = chosen
                    reserved |= chosen
                    continue
            break
        if len(got) != len(seats):
            continue
        avail = [x for x in pool if not reserved >> x & 1]
        pos = 0
        for o in seats:
            k = sizes[o] - got[o].bit_count()
            for x in avail[pos : pos + k]:
                got[o] |= 1 << x
            pos += k
        if all(R.cover(got[o] | eaten[o], eaten[o], one) for o in seats):
            return got, avail[pos:]
    return None


def determinize(st, seat: int, rng: random.Random):
    """A copy of ``st`` with every card ``seat`` cannot locate redrawn (see module doc)."""
    n = st.n
    one = st.game._one
    hands = st.hands
    eaten = st.eaten
    opp = [o for o in range(n) if o != seat]
    hidden = {o: hands[o] & ~eaten[o] for o in opp}
    stock_old = st.stock[st.sp :]
    pool_mask = st.aside
    for x in stock_old:
        pool_mask |= 1 << x
    for o in opp:
        pool_mask |= hidden[o]
    pool = R.bits(pool_mask)
    rng.shuffle(pool)
    new_hidden: dict[int, int] = {}
    constrained = [o for o in opp if eaten[o]]
    if constrained:
        sizes = {o: hidden[o].bit_count() for o in constrained}
        res = _sample_constrained(pool, constrained, sizes, eaten, one, rng)
        if res is None:
            # keep the true hidden cards of these seats (always valid); not reached in practice:
            # rejection and construction both failed many times
            new_hidden = {o: hidden[o] for o in constrained}
            taken = 0
            for o in constrained:
                taken |= hidden[o]
            pool = [x for x in pool if not taken >> x & 1]
        else:
            new_hidden, pool = res
    pos = 0
    for o in opp:
        if o in new_hidden:
            continue
        k = hidden[o].bit_count()
        m = 0
        for x in pool[pos : pos + k]:
            m |= 1 << x
        pos += k
        new_hidden[o] = m
    ns = len(stock_old)
    new_stock = tuple(pool[pos : pos + ns])
    pos += ns
    new_aside = 0
    for x in pool[pos:]:
        new_aside |= 1 << x

    d = st.clone()
    for o in opp:
        d.hands[o] = new_hidden[o] | eaten[o]
    d.stock = st.stock[: st.sp] + new_stock
    d.aside = new_aside
    d._deal_src = (
        st._deal_src,
        (opp, hidden, new_hidden, stock_old, new_stock, st.aside, new_aside),
    )
    return d
