"""Hidden information for Phỏm: determinization and rebuilding a deal from one seat's view.

What a seat knows (``shared/rules/phom.md`` §11): its own hand (its draws included), every
discard row, every eaten card and who holds it, the table, every hand size and the stock size.
It does not know the other hands' other cards, the stock order or the set-aside cards.

Determinization keeps all of that and redraws the unknown cards among the unknown places with
the same counts.  Hard constraint: an opponent holding eaten cards keeps them, and the redrawn
hand must satisfy the eaten-cover invariant (each eaten card in its own meld).  Such a hand is
drawn by rejection (uniform among valid hands), then, if that keeps failing, constructively
(a random 3-card meld around each eaten card from the unknown cards, the rest at random).
"""

from __future__ import annotations

import random
from typing import Sequence

from games.base import Deal, DealError, IllegalMoveError
from games.cards import card_str
from games.phom import rules as R

_TRIES = 24


def _sample_constrained(pool: list[int], seats: list[int], sizes: dict, eaten: list[int],
                        one: bool, rng: random.Random) -> tuple[dict, list[int]] | None:
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
                cands = [m for m in melds_of[e]
                         if not (m & ~(1 << e)) & ~(free | e_all)
                         and not (one and (m & e_all) != 1 << e)
                         and not m & chosen]
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
            for x in avail[pos:pos + k]:
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
    stock_old = st.stock[st.sp:]
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
        for x in pool[pos:pos + k]:
            m |= 1 << x
        pos += k
        new_hidden[o] = m
    ns = len(stock_old)
    new_stock = tuple(pool[pos:pos + ns])
    pos += ns
    new_aside = 0
    for x in pool[pos:]:
        new_aside |= 1 << x

    d = st.clone()
    for o in opp:
        d.hands[o] = new_hidden[o] | eaten[o]
    d.stock = st.stock[:st.sp] + new_stock
    d.aside = new_aside
    d._deal_src = (st._deal_src, (opp, hidden, new_hidden, stock_old, new_stock, st.aside,
                                  new_aside))
    return d


# -- rebuilding a deal from a seat's view -------------------------------------------------------

def deal_for_view(game, seat: int, hand: Sequence[int], counts: Sequence[int],
                  moves: Sequence, rng: random.Random, *, first: int = 0,
                  drawn: Sequence[int] = (), trump=None) -> Deal:
    """A full deal consistent with ``seat``'s view (see :meth:`games.base.Game.deal_for_view`).

    Every card an opponent later plays from his hand (discards, laid cards other than his eaten
    ones, sends) is dealt to him or put on one of his earlier draws; the partner cards of an
    eaten card that is laid later are in his hand by the time he ate it; an eaten card that is
    not yet laid gets random partner cards forming a phỏm with it.  The rest is random.  The
    result is replayed to check it; a few random attempts are made before giving up with the
    replay's error.
    """
    n = game.num_players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise DealError(f"seat: {seat!r} is not a seat 0..{n - 1}")
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
        raise DealError(f"deal.first: {first!r} is not a seat 0..{n - 1}")
    if trump is not None:
        raise DealError("deal.trump: Phỏm has no trump card")
    if len(counts) != n:
        raise DealError(f"counts: {len(counts)} entries for {n} players")
    for s in range(n):
        want = 10 if s == first else 9
        if counts[s] != want:
            raise DealError(f"deal.hands[{s}]: {counts[s]} cards, Phỏm deals {want}"
                            f" to {'the first player' if s == first else 'this seat'}")
    mine = 0
    for c in hand:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
            raise DealError(f"deal.hands[{seat}]: bad card id {c!r}")
        if mine >> c & 1:
            raise DealError(f"card {card_str(c)} dealt twice (deal.hands[{seat}])")
        mine |= 1 << c
    if len(hand) != counts[seat]:
        raise DealError(f"deal.hands[{seat}]: {len(hand)} cards, Phỏm deals {counts[seat]}"
                        f" to {'the first player' if seat == first else 'this seat'}")
    for c in drawn:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
            raise DealError(f"drawn: bad card id {c!r}")
        if mine >> c & 1:
            raise DealError(f"drawn: card {card_str(c)} is already in seat {seat}'s hand or draws")
        mine |= 1 << c

    to_int = R.TO_INT
    to_ext = R.TO_EXT
    stock_len = 4 * n - 1
    # walk the public moves
    draw_slots: list[list[int]] = [[] for _ in range(n)]   # stock positions drawn per seat
    my_positions: list[int] = []
    need: dict[int, list] = {}        # ext card -> [seat, deadline draws, move index]
    eaten_at: dict[int, tuple[int, int]] = {}   # ext card -> (seat, draws before the eat)
    laid_eaten: set[int] = set()
    partner_deadline: list[tuple[int, int, int]] = []
    draws = [0] * n
    pos = 0

    def require(c_ext: int, s: int, i: int, deadline: int) -> None:
        if mine >> c_ext & 1:
            raise IllegalMoveError(f"moves[{i}]: seat {s} plays {card_str(c_ext)}, which is "
                                   f"seat {seat}'s card")
        got = need.get(c_ext)
        if got is None:
            need[c_ext] = [s, deadline, i]
        elif got[0] != s:
            raise IllegalMoveError(f"moves[{i}]: seat {s} plays {card_str(c_ext)}, already "
                                   f"played by seat {got[0]}")
        else:
            got[1] = min(got[1], deadline)

    for i, item in enumerate(moves):
        try:
            s, mv = item
        except (TypeError, ValueError):
            raise IllegalMoveError(f"moves[{i}]: expected (seat, move), got {item!r}") from None
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n:
            raise IllegalMoveError(f"moves[{i}]: bad seat {s!r}")
        try:
            game.move_to_text(mv)
        except Exception:
            raise IllegalMoveError(f"moves[{i}]: not a Phỏm move: {mv!r}") from None
        if isinstance(mv, tuple):
            if s == seat:
                continue
            for m in mv:
                es = [x for x in R.bits(m) if eaten_at.get(to_ext[x], (None,))[0] == s
                      and to_ext[x] not in laid_eaten]
                for x in R.bits(m):
                    if x in es:
                        continue
                    require(to_ext[x], s, i, draws[s])
                for x in es:
                    laid_eaten.add(to_ext[x])
                    t = eaten_at[to_ext[x]][1]
                    for y in R.bits(m):
                        if y not in es:
                            partner_deadline.append((to_ext[y], s, t))
        elif mv == 200:  # draw
            if pos >= stock_len:
                raise IllegalMoveError(f"moves[{i}]: seat {s} draws from an empty stock")
            if s == seat:
                my_positions.append(pos)
            else:
                draw_slots[s].append(pos)
            draws[s] += 1
            pos += 1
        elif 64 <= mv < 116:
            eaten_at[to_ext[mv - 64]] = (s, draws[s])
        elif mv < 52:
            if s != seat:
                c = to_ext[mv]
                if eaten_at.get(c, (None,))[0] == s and c not in laid_eaten:
                    raise IllegalMoveError(f"moves[{i}]: seat {s} discards its eaten card "
                                           f"{card_str(c)}")
                require(c, s, i, draws[s])
        elif mv >= 256:
            if s != seat:
                require(to_ext[(mv - 256) % 64], s, i, draws[s])
    if len(my_positions) != len(drawn):
        raise DealError(f"drawn: {len(drawn)} cards, but seat {seat} drew {len(my_positions)} "
                        f"times in the moves")
    unlaid = [(c, st) for c, st in eaten_at.items() if c not in laid_eaten and st[0] != seat]

    last_err: Exception | None = None
    one = game._one
    for attempt in range(40):
        strict = attempt < 30
        req = {c: list(v) for c, v in need.items()}
        if strict:
            for c, s, t in partner_deadline:
                if c in req and req[c][0] == s:
                    req[c][1] = min(req[c][1], t)
        fixed = mine
        for c in req:
            fixed |= 1 << c
        free = [c for c in range(52) if not fixed >> c & 1]
        rng.shuffle(free)
        ok = True
        # random partners for eaten cards not laid yet
        for c, (s, t) in unlaid:
            free_mask = 0
            for y in free:
                free_mask |= 1 << to_int[y]
            x = to_int[c]
            held = 0
            for d, v in req.items():
                if v[0] == s:
                    held |= 1 << to_int[d]
            cands = [m for m in (R.MIN_MELDS[x] if one else R.MELDS_WITH[x])
                     if not (m & ~(1 << x)) & ~(free_mask | held)]
            if not cands:
                ok = False
                break
            m = rng.choice(cands)
            for y in R.bits(m & ~(1 << x) & ~held):
                ce = to_ext[y]
                req[ce] = [s, t, -1]
                free.remove(ce)
        if not ok:
            last_err = IllegalMoveError("moves: no phỏm can be found for an eaten card of the view")
            continue
        hands: list[list[int]] = [[] for _ in range(n)]
        stock: list[int | None] = [None] * stock_len
        for j, p in enumerate(my_positions):
            stock[p] = drawn[j]
        hands[seat] = list(hand)
        for o in range(n):
            if o == seat:
                continue
            cards = sorted((v[1], rng.random(), c) for c, v in req.items() if v[0] == o)
            cap = counts[o]
            slots = draw_slots[o]
            k = 0  # next draw slot
            for deadline, _r, c in cards:
                if cap > 0:
                    hands[o].append(c)
                    cap -= 1
                    continue
                if k < len(slots) and k < deadline:
                    stock[slots[k]] = c
                    k += 1
                    continue
                mi = need.get(c, [o, 0, -1])[2]
                where = f"moves[{mi}]" if mi >= 0 else "moves"
                raise IllegalMoveError(f"{where}: seat {o} cannot hold {card_str(c)} in time "
                                       f"(too many cards played from hand)")
            if cap > len(free):
                raise IllegalMoveError("moves: the view needs more cards than the deck holds")
            while cap > 0:
                hands[o].append(free.pop())
                cap -= 1
        if sum(1 for c in stock if c is None) > len(free):
            raise IllegalMoveError("moves: the view needs more cards than the deck holds")
        for p in range(stock_len):
            if stock[p] is None:
                stock[p] = free.pop()
        deal = Deal(hands=tuple(tuple(h) for h in hands), first=first,
                    stock=tuple(stock), set_aside=tuple(free))
        try:
            game.replay(deal, moves)
        except IllegalMoveError as e:
            last_err = e
            continue
        return deal
    assert last_err is not None
    raise IllegalMoveError(str(last_err))
