"""A strong rule-based "sparring" player for Tấn: ``TanGame.sparring_move``.

It plays like a careful human who counts cards, from **its own seat's information only** (its
hand, trump and face-up card, stock and hand sizes, the cards opponents are publicly known to
hold, the table, the discard pile, the public history): :class:`_Ctx` copies exactly that, so
permuting the opponents' hidden cards or the stock never changes a decision.

* **Card counting and reading.**  Hypergeometric chances over the unseen cards, with each
  opponent's known cards counted for sure; :func:`_replay` keeps per opponent the unseen cards
  it is believed *not* to hold (what its pick-ups, beats and throw-ins show), dropped on a draw.
* **Trump economy, attacks and throw-ins** (the rules): no trump spent on low attacks while the
  stock lasts, the cheapest beat, low plain cards first, never feeding a defender about to go
  out; its last card played whenever that wins.
* **Search** once the stock holds ``search_stock`` cards or fewer (``first_out_wins``): Monte
  Carlo over deals of the unseen cards (:func:`_sample_world`, beliefs respected), each candidate
  played to the end by :func:`_playout` (an exact, fast simulator with the heuristic in every
  seat), sequential halving over ``playouts``; the rules' move wins ties.

Cost: under 1 ms of CPU per decision on average (almost all in the search); about 15 µs with
``search=False``.  :func:`choose` is the entry point; :class:`Params` holds the weights (tuned
against :mod:`games.tan.heuristic` in the arena).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from quansu.games.base import IllegalMoveError
from quansu.games.tan.rules import (
    BEATERS,
    CARD_VALUE,
    DEFEND_BASE,
    DONE,
    HAND_SIZE,
    RANKBIT,
    RANKSET_CARDS,
    SUIT_MASK,
    SWAP_BASE,
    TAKE,
    THROW_BASE,
    cards_of,
)
from quansu.games.tan.state import ATTACK, DEFEND, THROW

_FULL = (1 << 52) - 1
_RANK_MASK = tuple(0xF << (4 * (c >> 2)) for c in range(52))


@dataclass(frozen=True)
class Params:
    """Weights of the sparring bot (in card-value units: a plain 2 is worth 2, an ace 14)."""

    trump_bonus: float = 13.0  #: extra worth of a trump over a plain card of the same rank
    pair_bonus: float = 2.0  #: attack: per other card of its rank held (throw-ins follow)
    unbeatable_bonus: float = 2.0  #: attack, stock phase: per unit chance the defender cannot beat
    defend_trump_base: float = 9.0  #: stock phase: beat with a trump of value <= base
    defend_trump_per_card: float = 1.0  #: ... + per_card * (cards on the table)
    defend_trump_late: float = 4.0  #: ... + late * (share of the stock already drawn)
    throw_max_stock: int = 10  #: stock phase: throw in plain cards up to this value
    throw_max_end: float = 22.0  #: empty stock: throw in cards whose worth is at most this
    throw_risk: float = 1.5  #: defence: cost per throwable card of the beater's new rank
    near_out: int = 2  #: a defender with this many cards or fewer is about to go out
    beliefs: bool = True  #: read the history for the cards an opponent does not hold
    done_beliefs: bool = True  #: ... including what a thrower who stops does not hold
    search: bool = True  #: Monte Carlo search (False: the rules alone, ~15 µs a move)
    playouts: int = 100  #: search: playouts per decision (sequential halving)
    min_worlds: int = 2  #: search: sampled deals per round at least
    same_stop: int = 6  #: search: stop after this many deals where nothing differs
    search_stock: int = 10  #: search once the stock holds this many cards or fewer


PARAMS = Params()


class _Ctx:
    """What the seat to act knows, copied out of the state (nothing else is read later)."""

    __slots__ = (
        "seat",
        "n",
        "trump",
        "hand",
        "faceup",
        "sc",
        "counts",
        "known",
        "table",
        "tranks",
        "uncovered",
        "discard",
        "phase",
        "attacker",
        "defender",
        "nxt",
        "first_out",
        "unknown",
        "hidden",
        "nobeat",
        "s0",
        "table_n",
        "p",
        "pointer",
        "passes",
    )

    def __init__(self, state, params: Params):
        g = state.game
        seat = state.current_player
        n = state.n
        self.p = params
        self.seat = seat
        self.n = n
        self.trump = state.trump
        self.hand = state.hands[seat]
        self.faceup = state.faceup
        self.sc = state.stock_count()
        self.counts = [h.bit_count() for h in state.hands]
        known = list(state.known)
        known[seat] = self.hand
        self.known = known
        self.table = state.table
        self.table_n = state.table.bit_count()
        self.tranks = state.tranks
        self.uncovered = state.uncovered
        self.discard = state.discard
        self.phase = state.phase
        self.attacker = state.attacker
        self.defender = state.defender
        self.pointer = state.pointer
        self.passes = state.passes
        self.nxt = g._nxt
        self.first_out = not g._until_one
        self.s0 = 52 - HAND_SIZE * n
        located = self.discard | self.table
        for k in known:
            located |= k
        if self.faceup >= 0:
            located |= 1 << self.faceup
        self.unknown = _FULL & ~located
        self.hidden = [self.counts[s] - known[s].bit_count() for s in range(n)]
        self.hidden[seat] = 0
        self.nobeat = _read_history(state, self) if params.beliefs else [0] * n

    # -- card counting ---------------------------------------------------------------------
    def p_holds(self, o: int, mask: int) -> float:
        """Chance that opponent ``o`` holds at least one card of ``mask`` now."""
        if self.known[o] & mask:
            return 1.0
        k = self.hidden[o]
        if k <= 0:
            return 0.0
        unknown = self.unknown
        pool = unknown & ~self.nobeat[o]
        u = pool.bit_count()
        if u < k:  # the beliefs contradict the counts: ignore them
            pool = unknown
            u = pool.bit_count()
        m = (mask & pool).bit_count()
        if m == 0:
            return 0.0
        if u - m < k:
            return 1.0
        q = 1.0
        for i in range(k):
            q *= (u - m - i) / (u - i)
        return 1.0 - q

    def p_beats(self, o: int, card: int) -> float:
        """Chance that ``o`` can beat ``card``."""
        return self.p_holds(o, BEATERS[self.trump][card])

    def worth(self, card: int) -> float:
        return CARD_VALUE[card] + (self.p.trump_bonus if card & 3 == self.trump else 0.0)

    def throwers(self) -> list[int]:
        """The seats other than the defender holding cards (the seat to act included)."""
        d = self.defender
        return [s for s in range(self.n) if s != d and self.counts[s]]


def _read_history(state, ctx: _Ctx) -> list[int]:
    """Per seat, the unseen cards it is believed not to hold (see the module docstring), from a
    replay of the public history.  When the replay does not reproduce the hand sizes and the
    stock of ``state`` (a position built by hand), no belief is kept."""
    if not state.hist:
        return [0] * ctx.n
    counts, stock, nobeat = _replay(state, ctx)
    if counts != ctx.counts or stock != ctx.sc:
        return [0] * ctx.n
    nobeat[ctx.seat] = 0
    return nobeat


def _replay(state, ctx: _Ctx) -> tuple[list[int], int, list[int]]:
    """Replay the public history from the deal: ``(hand sizes, stock size, beliefs)``.  Hand
    sizes and the stock follow from the moves (refills after each bout in the refill order, the
    defender's draw in mid-bout, pick-ups); a seat's beliefs are dropped when it draws."""
    n = ctx.n
    nobeat = [0] * n
    hist = state.hist
    g = state.game
    trump = ctx.trump
    tmask = SUIT_MASK[trump]
    refill = g._refill
    cont = not g._end_bout
    counts = [HAND_SIZE] * n
    stock = ctx.s0
    att = -1
    table_n = 0
    unc = -1
    tr = 0
    plain_low = ~tmask & _LOW10
    nothrow = _NOTHROW[trump]
    cheaper = _CHEAPER[trump]
    for s, m in hist:
        if m < 52:
            if att >= 0 and stock:
                for x in refill[att]:
                    c = counts[x]
                    if c < HAND_SIZE:
                        k = HAND_SIZE - c
                        if k > stock:
                            k = stock
                        counts[x] = c + k
                        stock -= k
                        nobeat[x] = 0
                        if not stock:
                            break
            att = s
            counts[s] -= 1
            table_n = 1
            unc = m
            tr = RANKBIT[m]
        elif m < DEFEND_BASE:
            c = m - THROW_BASE
            # the cheapest card worth throwing: none cheaper of a rank on the table
            ok = plain_low if stock else ~nothrow
            nobeat[s] |= RANKSET_CARDS[tr] & ok & cheaper[c]
            counts[s] -= 1
            table_n += 1
            unc = c
            tr |= RANKBIT[c]
        elif m < SWAP_BASE:
            a = (m - DEFEND_BASE) >> 6
            d = (m - DEFEND_BASE) & 63
            counts[s] -= 1
            table_n += 1
            unc = -1
            tr |= RANKBIT[d]
            va = CARD_VALUE[a]
            vd = CARD_VALUE[d]
            if d & 3 == a & 3:
                # beat with the same suit: no cheaper card of that suit between them
                nobeat[s] |= SUIT_MASK[a & 3] & _BETWEEN[va][vd]
            else:
                # a trump on a plain card: no card of the attack's suit beats it, no lower trump
                nobeat[s] |= (SUIT_MASK[a & 3] & _ABOVE[va]) | (tmask & _BETWEEN[1][vd])
            if counts[s] == 0 and stock and cont:
                k = HAND_SIZE if HAND_SIZE < stock else stock
                counts[s] = k
                stock -= k
                nobeat[s] = 0
        elif m == TAKE:
            if unc >= 0:
                va = CARD_VALUE[unc]
                if unc & 3 == trump:
                    nobeat[s] |= tmask & (
                        _ABOVE[va] if not stock else _BETWEEN[va][min(10 + table_n, 31)]
                    )
                else:
                    nobeat[s] |= SUIT_MASK[unc & 3] & _ABOVE[va]
                    nobeat[s] |= tmask & (_FULL if not stock else _BETWEEN[1][min(8 + table_n, 31)])
            counts[s] += table_n
            table_n = 0
        elif m == DONE and att >= 0 and ctx.p.done_beliefs:
            # a thrower who stops holds no low card of a rank on the table worth throwing
            nobeat[s] |= RANKSET_CARDS[tr] & (plain_low if stock else ~nothrow)
    if att >= 0 and stock and state.phase == ATTACK and state.bout_start == len(hist):
        # the last bout is over and the refill is done
        for x in refill[att]:
            c = counts[x]
            if c < HAND_SIZE:
                k = HAND_SIZE - c
                if k > stock:
                    k = stock
                counts[x] = c + k
                stock -= k
                nobeat[x] = 0
                if not stock:
                    break
    return counts, stock, nobeat


#: _ABOVE[v]: mask of every card of value > v;  _BETWEEN[lo][hi]: every card with lo < value < hi.
_ABOVE = tuple(sum(1 << c for c in range(52) if CARD_VALUE[c] > v) for v in range(16))
_BETWEEN = tuple(
    tuple(sum(1 << c for c in range(52) if lo < CARD_VALUE[c] < hi) for hi in range(32))
    for lo in range(16)
)
#: _CHEAPER[t][c]: every card cheaper than c with trump suit t (worth, then card id).
_CHEAPER = tuple(
    tuple(
        sum(
            1 << x
            for x in range(52)
            if (CARD_VALUE[x] + 13 * (x & 3 == t), x) < (CARD_VALUE[c] + 13 * (c & 3 == t), c)
        )
        for c in range(52)
    )
    for t in range(4)
)


# ---------------------------------------------------------------------------------------------
# the endgame simulator: the stock is empty, the first player out wins

#: _LOW10: every card up to a ten (the heuristic throws in no higher card while the stock lasts).
_LOW10 = _FULL & ~_ABOVE[10]
#: _NOTHROW[t]: the trumps above an 8 (the heuristic keeps them in the endgame).
_NOTHROW = tuple(SUIT_MASK[t] & _ABOVE[8] for t in range(4))


_TWOS = sum(1 << (48 + s) for s in range(4))


def _playout(
    hands: list[int],
    trump: int,
    g,
    a: int,
    d: int,
    phase: int,
    cur: int,
    table: int,
    tranks: int,
    unc: int,
    pointer: int,
    passes: int,
    stock: tuple,
    faceup: int,
    first: int,
    limit: int = 600,
) -> int:
    """Play a position to its end (first player out wins) with :mod:`games.tan.heuristic`'s
    policy for every seat, after the move ``first`` of the seat to act (a card, or -1 for
    ``take`` / ``done``; -2: the policy's own move).  ``hands`` (changed in place) holds every
    hand, ``stock`` the face-down stock in drawing order (top first), ``faceup`` the face-up card
    under it (-1: the stock is empty).  The rules are those of :class:`games.tan.state.TanState`
    (refills, the defender's draw in mid-bout, emptied hands while the stock lasts), without
    swaps.  Returns the winner, or -1 when ``limit`` moves pass without one."""
    beaters = BEATERS[trump]
    nothrow = _NOTHROW[trump]
    tmask = SUIT_MASK[trump]
    rankset = RANKSET_CARDS
    rankbit = RANKBIT
    nxt = g._nxt
    n = len(hands)
    sp = 0
    ns = len(stock)
    refill = g._refill
    cont = not g._end_bout
    empty_at = [0] * n
    nthrow = -1
    for h in hands:
        if h:
            nthrow += 1
    c = first
    t = 0
    while t < limit:
        t += 1
        if phase == DEFEND:
            h = hands[d]
            if c == -2:
                m = h & beaters[unc]
                c = -1
                if m:
                    x = m & ~tmask
                    if not x:
                        x = m
                        y = m & _TWOS
                        if y:
                            x = y
                    c = (x & -x).bit_length() - 1
                    if faceup >= 0 and c & 3 == trump:
                        on_table = table.bit_count()
                        v = CARD_VALUE[c]
                        if (v == 14 and on_table < 5) or v > 9 + on_table:
                            c = -1
            if c < 0:
                hands[d] = h | table
                defended = False
                c = -2
            else:
                h ^= 1 << c
                table |= 1 << c
                tranks |= rankbit[c]
                c = -2
                hands[d] = h
                if h:
                    phase = THROW
                    cur = pointer
                    if hands[cur]:
                        continue
                else:
                    if faceup < 0:
                        return d
                    if not cont:
                        empty_at[d] = t
                        defended = True
                    else:
                        # draw up to 8 at once, the bout goes on
                        k = ns - sp
                        if k > HAND_SIZE:
                            k = HAND_SIZE
                        for i in range(sp, sp + k):
                            h |= 1 << stock[i]
                        sp += k
                        if k < HAND_SIZE:
                            h |= 1 << faceup
                            faceup = -1
                        hands[d] = h
                        if faceup < 0:
                            best = -1
                            for s in range(n):
                                if not hands[s] and (best < 0 or empty_at[s] < empty_at[best]):
                                    best = s
                            if best >= 0:
                                return best
                # ask the first thrower from the pointer on
                s = pointer
                for _ in range(n):
                    if s != d and hands[s]:
                        break
                    s = nxt[s]
                else:
                    s = -1
                if s >= 0 and hands[d]:
                    pointer = cur = s
                    phase = THROW
                    continue
                defended = True
        elif phase == THROW:
            h = hands[cur]
            if c == -2:
                m = h & rankset[tranks]
                c = -1
                if m:
                    if faceup < 0:
                        if h == m and not m & (m - 1):
                            c = m.bit_length() - 1
                        else:
                            m &= ~nothrow
                            if m:
                                x = m & ~tmask
                                if not x:
                                    x = m
                                y = x & _TWOS
                                if y:
                                    x = y
                                c = (x & -x).bit_length() - 1
                    else:
                        m &= ~tmask & _LOW10
                        if m:
                            y = m & _TWOS
                            if y:
                                m = y
                            c = (m & -m).bit_length() - 1
            if c < 0:
                passes += 1
                c = -2
                if passes < nthrow:
                    s = nxt[cur]
                    while s == d or not hands[s]:
                        s = nxt[s]
                    pointer = cur = s
                    continue
                defended = True
            else:
                h ^= 1 << c
                hands[cur] = h
                table |= 1 << c
                tranks |= rankbit[c]
                unc = c
                passes = 0
                phase = DEFEND
                c = -2
                if not h:
                    if faceup < 0:
                        return cur
                    nthrow -= 1
                    empty_at[cur] = t
                continue
        else:
            h = hands[a]
            if c == -2:
                best = 1 << 30
                for x in cards_of(h):
                    k = (CARD_VALUE[x] + 12 - 2 * (h & _RANK_MASK[x]).bit_count()) * 64 + x
                    if x & 3 == trump:
                        k += 1 << 20
                    if k < best:
                        best = k
                        c = x
            h ^= 1 << c
            hands[a] = h
            table = 1 << c
            tranks = rankbit[c]
            unc = c
            pointer = a
            passes = 0
            phase = DEFEND
            c = -2
            if not h:
                if faceup < 0:
                    return a
                nthrow -= 1
                empty_at[a] = t
            continue
        # the bout is over
        table = 0
        tranks = 0
        if faceup >= 0:
            for s in refill[a]:
                k = HAND_SIZE - hands[s].bit_count()
                if k > 0:
                    h = hands[s]
                    avail = ns - sp
                    take = k if k < avail else avail
                    for i in range(sp, sp + take):
                        h |= 1 << stock[i]
                    sp += take
                    if k > take:
                        h |= 1 << faceup
                        faceup = -1
                    hands[s] = h
                    if faceup < 0:
                        break
            if faceup >= 0:
                a = d if defended else nxt[d]
                d = nxt[a]
                pointer = a
                passes = 0
                nthrow = n - 1
                phase = ATTACK
                continue
            best = -1
            for s in range(n):
                if not hands[s] and (best < 0 or empty_at[s] < empty_at[best]):
                    best = s
            if best >= 0:
                return best
        a = d if defended and hands[d] else nxt[d]
        while not hands[a]:
            a = nxt[a]
        d = nxt[a]
        while not hands[d]:
            d = nxt[d]
        pointer = a
        passes = 0
        nthrow = -1
        for h in hands:
            if h:
                nthrow += 1
        phase = ATTACK
    return -1


def _sample_world(ctx: "_Ctx", rng: random.Random) -> tuple[list[int], tuple] | None:
    """Deal the unseen cards to the opponents' hidden slots and the face-down stock (in a random
    order), respecting the beliefs of :func:`_read_history` when possible: the cards some
    opponent is believed not to hold are placed first, each to a random place that allows it
    (weighted by the free slots), then the rest are shuffled into the free slots.  Returns
    ``(hands, stock)``, or None when the counts do not fit."""
    n = ctx.n
    seat = ctx.seat
    hidden = ctx.hidden
    ns = ctx.sc - (ctx.faceup >= 0)
    opps = [o for o in range(n) if o != seat and hidden[o] > 0]
    unknown = ctx.unknown
    if unknown.bit_count() != ns + sum(hidden[o] for o in opps):
        return None
    nobeat = ctx.nobeat
    rnd = rng.random
    cons = 0
    for o in opps:
        cons |= nobeat[o]
    cons &= unknown
    for attempt in range(3):
        left = list(hidden)
        got = [0] * n
        stock = []
        room = ns
        ok = True
        if cons and attempt < 2:
            placed = list(cards_of(cons))
            placed.sort(key=lambda _: rnd())
            for c in placed:
                bit = 1 << c
                total = room
                for o in opps:
                    if left[o] and not nobeat[o] & bit:
                        total += left[o]
                if not total:
                    ok = False
                    break
                r = rnd() * total
                if r < room:
                    stock.append(c)
                    room -= 1
                    continue
                r -= room
                for o in opps:
                    if left[o] and not nobeat[o] & bit:
                        r -= left[o]
                        if r < 0:
                            break
                left[o] -= 1
                got[o] |= bit
            if not ok:
                continue
            free = list(cards_of(unknown & ~cons))
        else:
            free = list(cards_of(unknown))
        free.sort(key=lambda _: rnd())
        i = 0
        hands = list(ctx.known)
        for o in opps:
            k = left[o]
            m = got[o]
            for c in free[i : i + k]:
                m |= 1 << c
            i += k
            hands[o] |= m
        if stock:
            stock.extend(free[i:])
            stock.sort(key=lambda _: rnd())
        else:
            stock = free[i:]
        return hands, tuple(stock)
    return None


# ---------------------------------------------------------------------------------------------
# decisions


def _swap(ctx: _Ctx, state, swaps: list[int]) -> int | None:
    """The swap to make, or None to decline."""
    give = min(swaps, key=lambda m: CARD_VALUE[m - SWAP_BASE])
    if state.game.options["trump_swap"] == "two_only":
        return give if CARD_VALUE[state.faceup] >= 10 else None
    return give


def _attack(ctx: _Ctx, legal: list[int]) -> int:
    """The rules' attack: the card of the lowest worth, less ``pair_bonus`` per other card of
    its rank held (the rest follows as throw-ins) and, while the stock lasts,
    ``unbeatable_bonus`` times the chance that the defender cannot beat it (he must pick it up).
    With the stock empty and the defender about to go out: the card he is least likely to beat
    (a card he beats with his last ones would let him out)."""
    p = ctx.p
    hand = ctx.hand
    d = ctx.defender
    end = ctx.sc == 0
    if end and ctx.first_out and ctx.counts[d] <= p.near_out:
        return min(legal, key=lambda c: (ctx.p_beats(d, c), ctx.worth(c), c))
    best = -1
    best_score = 0.0
    for c in legal:
        score = ctx.worth(c) - p.pair_bonus * ((hand & _RANK_MASK[c]).bit_count() - 1)
        if not end:
            score -= p.unbeatable_bonus * (1.0 - ctx.p_beats(d, c))
        if best < 0 or score < best_score:
            best, best_score = c, score
    return best


def _defend(ctx: _Ctx, legal: list[int]) -> int:
    """The rules' defence: the cheapest beater (worth, plus ``throw_risk`` per card of a new
    rank that the throwers may still throw in); a trump only when it is cheap enough for the
    table while the stock lasts, else ``take``; with the stock (nearly) empty, always beat."""
    p = ctx.p
    defences = [m for m in legal if DEFEND_BASE <= m < SWAP_BASE]
    if not defences:
        return TAKE
    if ctx.sc == 0 and ctx.first_out and ctx.counts[ctx.seat] == 1:
        return defences[0]  # the last card beats: out
    trump = ctx.trump
    # throw-in risk of each beater: the cards of its rank the throwers may hold
    others = ctx.unknown
    for s in ctx.throwers():
        others |= ctx.known[s]
    others &= ~ctx.hand
    tr_ranks = ctx.tranks

    def cost(m):
        b = (m - DEFEND_BASE) & 63
        risk = 0
        if not (tr_ranks >> (b >> 2)) & 1:
            risk = (others & _RANK_MASK[b]).bit_count()
        return ctx.worth(b) + p.throw_risk * risk

    best = min(defences, key=lambda m: (cost(m), m))
    b = (best - DEFEND_BASE) & 63
    if b & 3 != trump or ctx.sc == 0:
        return best
    drawn = 1.0 - ctx.sc / ctx.s0
    limit = (
        p.defend_trump_base + p.defend_trump_per_card * ctx.table_n + p.defend_trump_late * drawn
    )
    if ctx.sc <= ctx.n:
        return best
    if CARD_VALUE[b] <= limit:
        return best
    return TAKE


def _throw(ctx: _Ctx, legal: list[int]) -> int:
    """The rules' throw-in: the cheapest low plain card while the stock lasts; once it is empty
    anything up to ``throw_max_end`` in worth, only what a defender about to go out cannot
    beat, and the last card always (out: a win)."""
    p = ctx.p
    throws = [m for m in legal if THROW_BASE <= m < DEFEND_BASE]
    if not throws:
        return DONE
    trump = ctx.trump
    end = ctx.sc == 0
    if end and ctx.first_out and ctx.counts[ctx.seat] == 1:
        return throws[0]  # the last card: out
    d = ctx.defender
    if end:
        if ctx.first_out and ctx.counts[d] <= p.near_out:
            # only what he cannot beat
            ok = [m for m in throws if ctx.p_beats(d, m - THROW_BASE) < 0.05]
        else:
            ok = [m for m in throws if ctx.worth(m - THROW_BASE) <= p.throw_max_end]
    else:
        ok = [
            m
            for m in throws
            if (m - THROW_BASE) & 3 != trump and CARD_VALUE[m - THROW_BASE] <= p.throw_max_stock
        ]
    if not ok:
        return DONE
    return min(ok, key=lambda m: (ctx.worth(m - THROW_BASE), m))


def _search_move(ctx: _Ctx, game, legal: list[int], rng: random.Random, prefer: int) -> int | None:
    """Monte Carlo over deals of the unseen cards: every candidate move is played to the end of
    the game with the heuristic policy for every seat (first player out wins) in the same
    sampled deals; sequential halving spends about ``playouts`` playouts (the weaker half of the
    candidates is dropped after each round).  Returns the move of the best mean payoff,
    ``prefer`` on ties, or None when the unseen cards cannot be dealt."""
    n = ctx.n
    seat = ctx.seat
    cands = []
    for m in legal:
        if m < 52:
            cands.append((m, m))
        elif m < DEFEND_BASE:
            cands.append((m, m - THROW_BASE))
        elif m < SWAP_BASE:
            cands.append((m, (m - DEFEND_BASE) & 63))
        elif m == TAKE or m == DONE:
            cands.append((m, -1))
    if len(cands) < 2:
        return None
    total = [0.0] * len(cands)
    win = n - 1
    alive = list(range(len(cands)))
    rounds = (len(cands) - 1).bit_length()
    budget = ctx.p.playouts
    args = (
        ctx.trump,
        game,
        ctx.attacker,
        ctx.defender,
        ctx.phase,
        seat,
        ctx.table,
        ctx.tranks,
        ctx.uncovered,
        ctx.pointer,
        ctx.passes,
    )
    faceup = ctx.faceup
    same_stop = ctx.p.same_stop
    differ = False
    played = 0
    while True:
        k = budget // (len(alive) * rounds)
        if k < ctx.p.min_worlds:
            k = ctx.p.min_worlds
        for _ in range(k):
            world = _sample_world(ctx, rng)
            if world is None:
                return None
            hands, stock = world
            first = None
            for i in alive:
                w = _playout(hands[:], *args, stock, faceup, cands[i][1])
                v = win if w == seat else (-1.0 if w >= 0 else 0.0)
                total[i] += v
                if first is None:
                    first = v
                elif v != first:
                    differ = True
            played += 1
            if not differ and played >= same_stop:
                # every candidate has done the same for this seat in every deal so far
                return prefer
        if len(alive) <= 2:
            break
        alive.sort(key=lambda i: (-total[i], cands[i][0] != prefer, i))
        alive = alive[: (len(alive) + 1) // 2]
    best = max(alive, key=lambda i: (total[i], cands[i][0] == prefer, -i))
    return cands[best][0]


def choose(game, state, rng: random.Random, params: Params = PARAMS) -> int:
    """The sparring bot's move for ``state.current_player`` (a legal move of ``state``)."""
    legal = state.legal_moves()
    if not legal:
        raise IllegalMoveError.of("tan.bot_game_over", bot="sparring")
    if len(legal) == 1:
        return legal[0]
    ctx = _Ctx(state, params)
    swaps = [m for m in legal if SWAP_BASE <= m < TAKE]
    if swaps:
        give = _swap(ctx, state, swaps)
        if give is not None:
            return give
        legal = [m for m in legal if not SWAP_BASE <= m < TAKE]
        if len(legal) == 1:
            return legal[0]
    ph = state.phase
    if ph == ATTACK:
        move = _attack(ctx, legal)
    elif ph == DEFEND:
        move = _defend(ctx, legal)
    elif ph == THROW:
        move = _throw(ctx, legal)
    else:
        return DONE
    if (
        params.search
        and ctx.sc <= params.search_stock
        and ctx.first_out
        and (ctx.faceup < 0 or not state.anytime)
    ):
        m = _search_move(ctx, game, legal, rng, move)
        if m is not None:
            return m
    return move
