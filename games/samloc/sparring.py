"""A strong rule-based "sparring" player for Sâm lốc: ``SamlocGame.sparring_move``.

It plays like a careful human who counts cards, from **its own seat's information only** (its
hand, the public history, hand sizes, the top, passes, the chop chain, under ``bao_mot_mode =
"forced"`` the public caps): :class:`_Ctx` copies that out of the state and everything else works
on the copy.  Suits never compare in Sâm, so it thinks in **rank counts** (13 nibbles), with the
plans memoised on the count vector.

* **Card counting.**  Per opponent, the chance of holding a combination that beats a given one
  (hypergeometric per rank; straights window by window; quads by the chop table); passes read
  softly, and as hard facts where passing with a beater makes no sense.
* **Hand plan.**  The hand split into combinations minimising a cost (``combo_cost`` each, less
  ``control`` times its chance to win the trick when led; bosses regain the lead).
* **Move choice.**  Every distinct legal move scored: plan cost of the hand left, the value of
  winning the trick, the danger of letting an opponent out, and money in bets (cards kept, 2s,
  quads, chops, cóng).  **Báo một** and **báo sâm** follow the options; the Sâm declaration is
  taken when the exact chance of going out uninterrupted reaches ``sam_threshold``.
* **Endgame exactness.**  A hand that splits into sure bosses and one last 2-free combination
  goes out guaranteed (exhaustive, memoised search over the splits).

:func:`choose` is the entry point; :class:`Params` holds the weights (tuned against
:mod:`games.samloc.heuristic` in the arena).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from math import comb, log

from quansu.games.caches import cache_size, make_room
from quansu.games.samloc import rules as R
from quansu.games.samloc.rules import DQUAD, PAIR, QUAD, SINGLE, STRAIGHT, TRIPLE, TWO, TWOS

_FULL = (1 << 52) - 1
_DECLARE = 1 << 52
_DECLINE = 1 << 53
_NIB1 = R.NIB1
_INF = float("inf")
HAND_SIZE = 10


@dataclass(frozen=True)
class Params:
    """Weights of the sparring bot (plan-cost units; ``money`` converts bets into them)."""

    combo_cost: float = 1.0  #: cost of one combination still to be played
    control: float = 1.5  #: earned by a combination in proportion to its chance to win a lead
    control_lead_only: float = (
        1.0  #: the same for straights and triples (rarely an answer to a lead)
    )
    respond: float = 0.7  #: chance that an opponent holding a beater plays it
    pass_soft: float = 0.35  #: beater chance of a seat that passed a lower same-shape top
    pass_soft_two: float = 0.8  #: the same for beaters that are 2s or bombs (players save them)
    lead_value: float = 0.6  #: value of winning the trick when following
    lead_keep: float = 0.5  #: value of keeping the lead when leading
    danger: float = 0.8  #: cost of letting an opponent go out
    danger_now: float = 0.8  #: cost of letting an opponent go out at once with its last cards
    money: float = 0.1  #: plan-cost units per bet
    two_end: float = 3.0  #: a hand left with only 2s (it cannot go out and win)
    fin_lead: tuple = (
        1.0,
        1.0,
        0.55,
        0.3,
        0.12,
        0.04,
    )  #: chance a seat with k cards goes out from the lead
    bill_risk: tuple = (1.0, 1.0, 0.7, 0.45, 0.25, 0.12, 0.05, 0.02, 0.0, 0.0, 0.0)
    #: ^ weight of the bill of the cards kept, by the fewest cards an opponent holds
    pass_cost: float = 0.5  #: tempo given up by passing (the round goes on without this seat)
    pass_cost_late: float = 2.0  #: the same once an opponent holds three cards or fewer
    go_out: float = 4.0  #: the lead is worth up to this many times more: by the chance to lead out
    out_combos: int = 2  #: ... from a hand left of at most this many combinations
    low_first: float = 0.6  #: leading: cost per unit of the led combination's strength (0..1)
    shed: float = 0.1  #: leading: value per card led
    cong_guard: int = 4  #: with all ten cards, play anything once an opponent is this close
    sam_threshold: float = 0.55  #: declare Sâm at this chance of going out unbeaten


PARAMS = Params()


# ---------------------------------------------------------------------------------------------
# combinations in rank space
#
# A combination is ``cid = type << 8 | length << 4 | key`` (key: the rank index for same-rank
# groups, the sequence value of the highest card for straights) and its count vector ``delta``
# (nibble r = cards of rank r).


def _cid(t: int, ln: int, key: int) -> int:
    return t << 8 | ln << 4 | key


def _straight_windows(allow_two: bool):
    """Per lowest rank index r: the straights ``(need, delta, cid, has_two)`` whose lowest rank
    index is r (``need``: 13-bit mask of the ranks they use)."""
    out = [[] for _ in range(13)]
    lo = 1 if allow_two else 3
    for a in range(lo, 15):
        for b in range(a + 2, 15):
            if b == 14 and a <= 2:
                continue
            ranks = [R.VALUE_RANK[v] for v in range(a, b + 1)]
            if len(set(ranks)) != len(ranks):
                continue
            need = 0
            delta = 0
            for r in ranks:
                need |= 1 << r
                delta += 1 << (4 * r)
            out[min(ranks)].append((need, delta, _cid(STRAIGHT, b - a + 1, b), TWO in ranks))
    return tuple(tuple(w) for w in out)


_WINDOWS = {True: _straight_windows(True), False: _straight_windows(False)}


def _present(c: int) -> int:
    """13-bit mask of the ranks present in a count vector."""
    return R._compress((c | (c >> 1) | (c >> 2)) & _NIB1)


#: (rank counts, rank, allow_two) -> the combination options of :func:`_options`.  Bounded:
#: trimmed at :data:`_OPTS_MAX` entries (games/caches.py: QUANSU_CACHE_SAMLOC_SPARRING).
_OPTS: dict = {}
_OPTS_MAX = cache_size("samloc_sparring")


def _options(c: int, allow_two: bool) -> tuple:
    """Every combination ``(cid, delta)`` holding a card of the lowest rank of the count vector
    ``c`` (every split of ``c`` is found by taking one of them and splitting the
    rest): the same-rank groups, largest first, then the straights whose lowest rank it is.
    Cached across decisions (a pure function of the counts and the option; about 0.5 kB an
    entry, trimmed at :data:`_OPTS_MAX` entries)."""
    key = c if allow_two else -c
    got = _OPTS.get(key)
    if got is None:
        low = (c & -c).bit_length() - 1
        r = low >> 2
        sh = 4 * r
        cnt = (c >> sh) & 15
        opts = [(k << 8 | k << 4 | r, k << sh) for k in range(cnt, 0, -1)]
        if r <= 9:
            pres = _present(c)
            for need, delta, cid, _ in _WINDOWS[allow_two][r]:
                if need & pres == need:
                    opts.append((cid, delta))
        got = tuple(opts)
        if len(_OPTS) >= _OPTS_MAX:
            make_room(_OPTS)
        _OPTS[key] = got
    return got


def _combo_of(mask: int, allow_two: bool):
    """``(cid, delta)`` of a played mask."""
    c = R.classify(mask, allow_two, True)
    return _cid(c[0], c[1], c[2]), R.rank_counts(mask)


@lru_cache(maxsize=None)
def _hg_ge(U: int, n: int, u: int, k: int) -> float:
    """P(at least ``k`` of ``u`` given cards lie in a hand of ``n`` cards drawn from ``U``)."""
    if k <= 0:
        return 1.0
    if u < k or n < k or U <= 0:
        return 0.0
    if n >= U:
        return 1.0
    tot = comb(U, n)
    s = 0
    for j in range(k, min(u, n) + 1):
        s += comb(u, j) * comb(U - u, n - j)
    return s / tot


# ---------------------------------------------------------------------------------------------
# what the seat knows


class _Tab:
    """Beater chances of one opponent with ``n`` cards drawn from ``U`` unseen cards (counts
    ``uc`` per rank), as suffix tables over the key to beat (built lazily)."""

    __slots__ = (
        "U",
        "n",
        "uc",
        "allow_two",
        "hg1",
        "above",
        "_groups",
        "_two",
        "_quads",
        "_straights",
    )

    def __init__(self, U: int, n: int, uc: list, allow_two: bool):
        self.U, self.n, self.uc, self.allow_two = U, n, uc, allow_two
        self.hg1 = [_hg_ge(U, n, u, 1) for u in uc]
        above = [0] * 13
        acc = 0
        for r in range(TWO - 1, -1, -1):
            above[r] = acc
            acc += uc[r]
        self.above = above  #: non-2 unseen cards of a rank above r
        self._groups: dict = {}
        self._two: dict = {}
        self._quads = None
        self._straights: dict = {}

    def groups(self, k: int) -> list:
        """``[r]``: P(no ``k`` cards of one rank in r+1 .. A)."""
        got = self._groups.get(k)
        if got is None:
            got = [1.0] * 13
            q = 1.0
            U, n, uc = self.U, self.n, self.uc
            for r in range(TWO - 1, -1, -1):
                got[r] = q
                if uc[r] >= k:
                    q *= 1.0 - _hg_ge(U, n, uc[r], k)
            self._groups[k] = got
        return got

    def two(self, k: int) -> float:
        """P(at least ``k`` 2s)."""
        got = self._two.get(k)
        if got is None:
            got = self._two[k] = _hg_ge(self.U, self.n, self.uc[TWO], k)
        return got

    def quads(self) -> list:
        """``[r]``: P(no four of a kind of rank r+1 .. 2)."""
        if self._quads is None:
            got = [1.0] * 13
            q = 1.0
            p4 = _hg_ge(self.U, self.n, 4, 4)
            for r in range(TWO, -1, -1):
                got[r] = q
                if self.uc[r] == 4:
                    q *= 1.0 - p4
            self._quads = got
        return self._quads

    def no_quad3(self) -> float:
        """P(no four 3s) (the one rank ``quads()[0]`` leaves out)."""
        return 1.0 - _hg_ge(self.U, self.n, 4, 4) if self.uc[0] == 4 else 1.0

    def straights(self, ln: int) -> list:
        """``[v]``: P(a straight of ``ln`` cards with a value above v), v = 0 .. 14."""
        got = self._straights.get(ln)
        if got is None:
            got = [0.0] * 15
            lo = 1 if self.allow_two else 3
            hg1 = self.hg1
            q = 1.0
            for b in range(14, 0, -1):
                got[b] = 1.0 - q
                a = b - ln + 1
                if a < lo or (b == 14 and a <= 2):
                    continue
                pr = 1.0
                for v in range(a, b + 1):
                    pr *= hg1[R.VALUE_RANK[v]]
                    if pr == 0.0:
                        break
                q *= 1.0 - pr
            got[0] = 1.0 - q
            self._straights[ln] = got
        return got


class _Ctx:
    """The acting seat's knowledge and the caches of one decision."""

    __slots__ = (
        "p",
        "g",
        "me",
        "n",
        "hand",
        "hc",
        "unseen",
        "U",
        "uc",
        "opps",
        "counts",
        "passes",
        "allow_two",
        "dq",
        "quad_pair",
        "two_str",
        "seat_u",
        "hold_cache",
        "beat_cache",
        "cost_cache",
        "tabs",
        "plan_memo",
        "sure_cache",
        "guar_memo",
        "sam_memo",
        "sam_p_cache",
        "out_memo",
        "declarer",
    )

    def __init__(self, game, state, params: Params, me: int):
        self.p = params
        self.g = game
        self.me = me
        n = self.n = game.num_players
        hand = self.hand = state.hands[me]
        self.hc = R.rank_counts(hand)
        played = state.played
        table = 0
        for m in played:
            table |= m
        self.unseen = _FULL & ~table & ~hand
        self.U = self.unseen.bit_count()
        ucv = R.rank_counts(self.unseen)
        self.uc = [(ucv >> (4 * r)) & 15 for r in range(13)]
        # public: how many cards each seat holds (0 once out)
        self.counts = [state.hands[s].bit_count() for s in range(n)]
        self.opps = [s for s in range(n) if s != me and self.counts[s] > 0]
        self.allow_two = game._allow_two
        self.dq = game._dq
        self.quad_pair = game._quad_pair
        self.two_str = game._two_str
        self.declarer = state.declarer
        # per opponent: (U, unseen counts) of the cards it may hold (forced-play caps)
        self.seat_u = {}
        for s in self.opps:
            cap = state.forced_cap(s)
            if cap >= TWO:
                self.seat_u[s] = (self.U, self.uc)
            else:
                ucs = self.uc[: cap + 1] + [0] * (12 - cap)
                self.seat_u[s] = (sum(ucs), ucs)
        self.passes = _pass_records(state.history, n, self.allow_two, self.declarer)
        self.tabs: dict = {}
        self.hold_cache: dict = {}
        self.beat_cache: dict = {}
        self.cost_cache: dict = {}
        self.plan_memo: dict = {}
        self.sure_cache: dict = {}
        self.guar_memo: dict = {}
        self.sam_memo: dict = {}
        self.sam_p_cache: dict = {}
        self.out_memo: dict = {}

    # -- an opponent's chance to hold a beater -------------------------------------------------
    def _tab(self, i: int) -> "_Tab":
        key = (i if self.seat_u[i][1] is not self.uc else -1, self.counts[i])
        t = self.tabs.get(key)
        if t is None:
            U, uc = self.seat_u[i]
            t = self.tabs[key] = _Tab(U, self.counts[i], uc, self.allow_two)
        return t

    def hold(self, i: int, cid: int) -> tuple[float, float, float]:
        """``(p_low, p_two, p_bomb)``: the chance that opponent ``i`` holds a same-shape beater
        of ``cid`` without 2s, one with 2s, and a bomb that chops it (no pass inference)."""
        key = (i, cid)
        got = self.hold_cache.get(key)
        if got is not None:
            return got
        t, ln, k = cid >> 8, (cid >> 4) & 15, cid & 15
        n = self.counts[i]
        tab = self._tab(i)
        p_low = p_two = p_bomb = 0.0
        if n >= ln:
            if t == SINGLE:
                if k < TWO:
                    p_low = _hg_ge(tab.U, n, tab.above[k], 1)
                    p_two = tab.hg1[TWO]
            elif t <= TRIPLE:
                if k < TWO:
                    p_low = 1.0 - tab.groups(ln)[k]
                    p_two = tab.two(ln)
            elif t == QUAD:
                p_bomb = 1.0 - tab.quads()[k]
            elif t == STRAIGHT:
                p_low = tab.straights(ln)[k]
        if k == TWO and n >= 4:
            if t == SINGLE:
                p_bomb = 1.0 - tab.quads()[0] * tab.no_quad3()
            elif t == PAIR:
                pq = 1.0 - tab.quads()[0] * tab.no_quad3()
                p_bomb = pq if self.quad_pair else 0.0
                if self.dq and n >= 8:
                    p_bomb = 1.0 - (1.0 - p_bomb) * (1.0 - pq * pq)
        got = (p_low, p_two, p_bomb)
        self.hold_cache[key] = got
        return got

    def pass_factor(self, i: int, cid: int) -> tuple[float, float, float]:
        """Pass inference for opponent ``i`` against ``cid``: factors on its beater chances
        (low, 2s, bombs); 0 where a pass proves it cannot beat."""
        f_low = f_two = f_bomb = 1.0
        t, ln, k = cid >> 8, (cid >> 4) & 15, cid & 15
        ps = self.p
        for pt, pl, pk, cnt, hard in self.passes[i]:
            if pt == t and pl == ln and pk <= k:
                if hard:
                    return 0.0, 0.0, 0.0
                if cnt == ln:
                    f_low = 0.0  # it would have gone out with a beater free of 2s
                elif f_low > ps.pass_soft:
                    f_low = ps.pass_soft
                if f_two > ps.pass_soft_two:
                    f_two = ps.pass_soft_two
            if pt == SINGLE and pk == TWO and t in (SINGLE, PAIR) and k == TWO:
                if hard:
                    f_bomb = 0.0
                elif f_bomb > ps.pass_soft_two:
                    f_bomb = ps.pass_soft_two
        return f_low, f_two, f_bomb

    def beat_p(self, i: int, cid: int) -> float:
        """Chance that opponent ``i`` holds a beater of ``cid``, passes read softly."""
        key = (i, cid)
        got = self.beat_cache.get(key)
        if got is None:
            p_low, p_two, p_bomb = self.hold(i, cid)
            if not (p_low or p_two or p_bomb):
                got = 0.0
            else:
                f_low, f_two, f_bomb = self.pass_factor(i, cid)
                got = 1.0 - (1.0 - f_low * p_low) * (1.0 - f_two * p_two) * (1.0 - f_bomb * p_bomb)
            self.beat_cache[key] = got
        return got

    def sure(self, cid: int, seats=None) -> bool:
        """No seat in ``seats`` (default: every opponent) can beat ``cid`` whatever the unseen
        cards are (hard facts only)."""
        if seats is None:
            got = self.sure_cache.get(cid)
            if got is not None:
                return got
        ok = True
        for i in self.opps if seats is None else seats:
            p_low, p_two, p_bomb = self.hold(i, cid)
            if p_low or p_two or p_bomb:
                f = self.pass_factor(i, cid)
                if (f[0] and p_low) or (f[1] and p_two) or (f[2] and p_bomb):
                    ok = False
                    break
        if seats is None:
            self.sure_cache[cid] = ok
        return ok

    def win_p(self, cid: int, seats) -> float:
        """Chance that nobody in ``seats`` beats ``cid``."""
        rho = self.p.respond
        q = 1.0
        for i in seats:
            b = self.beat_p(i, cid)
            if b:
                q *= 1.0 - rho * b
        return q

    def counted_two(self, cid: int, delta: int) -> bool:
        """Whether going out with this combination counts as going out on a 2."""
        if not delta >> (4 * TWO):
            return False
        return cid >> 8 != STRAIGHT or self.two_str

    # -- the plan ------------------------------------------------------------------------------
    def cost(self, cid: int) -> float:
        w = self.cost_cache.get(cid)
        if w is None:
            t = cid >> 8
            ctl = self.p.control_lead_only if t == STRAIGHT or t == TRIPLE else self.p.control
            w = self.cost_cache[cid] = self.p.combo_cost - ctl * self.win_p(cid, self.opps)
        return w

    def plan(self, c: int) -> float:
        """Cost of the cheapest split of the count vector ``c`` into combinations."""
        if not c:
            return 0.0
        got = self.plan_memo.get(c)
        if got is not None:
            return got
        best = _INF
        cost = self.cost
        plan = self.plan
        for cid, delta in _options(c, self.allow_two):
            v = cost(cid) + plan(c - delta)
            if v < best:
                best = v
        self.plan_memo[c] = best
        return best

    def plan_cost(self, c: int) -> float:
        """The plan cost of a hand left (count vector), a hand of only 2s penalised."""
        v = self.plan(c)
        if c and not c & ((1 << (4 * TWO)) - 1):
            v += self.p.two_end
        return v

    # -- exact endgame -------------------------------------------------------------------------
    def guaranteed(self, c: int, last: bool = True):
        """A way to play out ``c`` from the lead whatever the opponents hold: ``(cid, delta)``
        combinations, every one a sure boss but the final one, which is free of counted 2s
        (``last``: the final slot is still open).  ``None`` when there is none."""
        if not c:
            return () if not last else None
        key = (c, last)
        if key in self.guar_memo:
            return self.guar_memo[key]
        self.guar_memo[key] = None
        res = None
        for cid, delta in _options(c, self.allow_two):
            rest = c - delta
            if self.sure(cid):
                sub = self.guaranteed(rest, last)
                if sub is not None:
                    res = ((cid, delta),) + sub
                    break
            if last and not self.counted_two(cid, delta):
                sub = self.guaranteed(rest, False)
                if sub is not None:
                    res = sub + ((cid, delta),)
                    break
        self.guar_memo[key] = res
        return res

    # -- báo sâm -------------------------------------------------------------------------------
    def sam_beat_p(self, cid: int) -> float:
        """Chance that some opponent holds a beater of ``cid`` (hard pass facts only: nobody
        lets a Sâm through that he can block)."""
        got = self.sam_p_cache.get(cid)
        if got is None:
            q = 1.0
            for i in self.opps:
                p_low, p_two, p_bomb = self.hold(i, cid)
                if p_low or p_two or p_bomb:
                    f = self.pass_factor(i, cid)
                    q *= (
                        (1.0 - (f[0] > 0) * p_low)
                        * (1.0 - (f[1] > 0) * p_two)
                        * (1.0 - (f[2] > 0) * p_bomb)
                    )
            got = self.sam_p_cache[cid] = 1.0 - q
        return got

    def sam_plan(self, c: int, last: bool = True):
        """``(log chance, combos)``: the split of ``c`` that maximises the chance that every
        combination but the final (2-free) one is unbeaten; combos are ``(cid, delta, p_beat)``
        with the final one last."""
        if not c:
            return (0.0, ()) if not last else (-_INF, ())
        key = (c, last)
        got = self.sam_memo.get(key)
        if got is not None:
            return got
        best = (-_INF, ())
        for cid, delta in _options(c, self.allow_two):
            rest = c - delta
            pb = self.sam_beat_p(cid)
            if pb < 1.0:
                lv, sub = self.sam_plan(rest, last)
                if lv > -_INF:
                    v = lv + log(1.0 - pb)
                    if v > best[0]:
                        best = (v, ((cid, delta, pb),) + sub)
            if last and not self.counted_two(cid, delta):
                lv, sub = self.sam_plan(rest, False)
                if lv > best[0]:
                    best = (lv, sub + ((cid, delta, pb),))
        self.sam_memo[key] = best
        return best

    def out_chance(self, c: int, last: bool = True) -> float:
        """Chance of playing out ``c`` from the lead: the best split's product of the chances
        that each combination but the last (free of counted 2s) wins its trick."""
        if not c:
            return 0.0 if last else 1.0
        key = (c, last)
        got = self.out_memo.get(key)
        if got is not None:
            return got
        best = 0.0
        for cid, delta in _options(c, self.allow_two):
            rest = c - delta
            v = self.out_chance(rest, last)
            if v > best:
                v *= self.win_p(cid, self.opps)
                if v > best:
                    best = v
            if last and not self.counted_two(cid, delta):
                v = self.out_chance(rest, False)
                if v > best:
                    best = v
        self.out_memo[key] = best
        return best


def _pass_records(history, n: int, allow_two: bool, declarer: int) -> list[list[tuple]]:
    """Per seat, ``(type, length, key, cards held, hard)`` of every pass, each made on the last
    play before it (a pass never starts a round).  ``hard``: a pass on the declarer's play
    (passing lets the Sâm through, so the seat had no beater)."""
    recs: list[list] = [[] for _ in range(n)]
    counts = [HAND_SIZE] * n
    top = None
    owner = -1
    for seat, move in history:
        if move > _FULL:
            continue
        if move:
            counts[seat] -= move.bit_count()
            c = R.classify(move, allow_two, True)
            top = (c[0], c[1], c[2])
            owner = seat
        elif top is not None:
            recs[seat].append((top[0], top[1], top[2], counts[seat], owner == declarer >= 0))
    return recs


# ---------------------------------------------------------------------------------------------
# the move


def choose(game, state, rng: random.Random | None = None, params: Params | None = None) -> int:
    """The sparring bot's move for the seat to act in ``state`` (a legal move), from that seat's
    information only.  ``params``: the weights (default :data:`PARAMS`); ``rng`` is unused (the
    bot is deterministic)."""
    legal = state.legal_moves()
    if not legal:
        raise ValueError("sparring_move: the game is over")
    p = params or PARAMS
    me = state.current_player
    if state.in_declarations:
        return _declare(game, state, p, me)
    if len(legal) == 1:
        return legal[0]
    hand = state.hands[me]
    ctx = _Ctx(game, state, p, me)
    declarer = ctx.declarer
    if hand in legal:
        cid, delta = _combo_of(hand, ctx.allow_two)
        if not ctx.counted_two(cid, delta):
            return hand  # go out now and win
    if declarer >= 0 and declarer != me:
        return _block(ctx, legal)
    if declarer == me:
        return _sam_lead(ctx, legal)
    top = state.top
    if top is not None:
        return _follow(game, state, ctx, legal)
    return _lead(game, state, ctx, legal)


def sam_chance(game, state, seat: int, params: Params | None = None) -> float:
    """The bot's estimate of the chance that ``seat`` (to answer báo sâm, or the declarer) plays
    out its hand without being beaten, from that seat's information."""
    ctx = _Ctx(game, state, params or PARAMS, seat)
    lv, combos = ctx.sam_plan(ctx.hc)
    return _sam_prob(combos) if lv > -_INF else 0.0


def _sam_prob(combos) -> float:
    """The chance of a Sâm plan (final combination exempt), same-shape combinations nested: only
    the lowest of each shape can be beaten first."""
    low: dict[int, float] = {}
    for cid, _, pb in combos[:-1]:
        shape = cid >> 4
        if shape not in low or cid < low[shape][0]:
            low[shape] = (cid, pb)
    q = 1.0
    for _, pb in low.values():
        q *= 1.0 - pb
    return q


def _declare(game, state, p: Params, me: int) -> int:
    if not state.declaration_matters(me):
        return _DECLINE
    hand = state.hands[me]
    # a quick bound: a hand needing many plays never makes it
    if _min_combos(R.rank_counts(hand), game._allow_two) > 5:
        return _DECLINE
    return _DECLARE if sam_chance(game, state, me, p) >= p.sam_threshold else _DECLINE


@lru_cache(maxsize=cache_size("samloc_sparring"))
def _min_combos(c: int, allow_two: bool) -> int:
    """The fewest combinations a count vector splits into."""
    if not c:
        return 0
    low = (c & -c).bit_length() - 1
    r = low >> 2
    sh = 4 * r
    cnt = (c >> sh) & 15
    best = 1 + _min_combos(c - (cnt << sh), allow_two)
    if r <= 9:
        pres = _present(c)
        for need, delta, _, _ in _WINDOWS[allow_two][r]:
            if need & pres == need:
                v = 1 + _min_combos(c - delta, allow_two)
                if v < best:
                    best = v
    return best


def _distinct(legal: list[int], allow_two: bool) -> list[tuple[int, int, int]]:
    """``(move, cid, delta)`` for one move of each rank-count vector (suits never compare)."""
    seen = set()
    out = []
    for m in legal:
        if not m:
            continue
        d = R.rank_counts(m)
        if d in seen:
            continue
        seen.add(d)
        cid, _ = _combo_of(m, allow_two)
        out.append((m, cid, d))
    return out


def _block(ctx: _Ctx, legal: list[int]) -> int:
    """Against a declarer any play blocks the Sâm: block, with a chop when there is one (it also
    earns the chop money)."""
    plays = [m for m in legal if m]
    if not plays:
        return 0
    chops = [
        m
        for m in plays
        if m.bit_count() >= 4 and R.classify(m, ctx.allow_two, ctx.dq)[0] in (QUAD, DQUAD)
    ]
    if chops:
        return min(chops)
    return min(plays, key=lambda m: (m.bit_count(), m))


def _sam_lead(ctx: _Ctx, legal: list[int]) -> int:
    """As declarer: the best Sâm split of the hand; lead its safest play (2s first among equals),
    keeping the riskiest 2-free play for last."""
    lv, combos = ctx.sam_plan(ctx.hc)
    moves = {d: m for m, _, d in _distinct(legal, ctx.allow_two)}
    if lv > -_INF and combos:
        head = combos[:-1] or combos
        order = sorted(head, key=lambda x: (x[2], -(x[1] >> (4 * TWO)), -x[1].bit_count()))
        for cid, delta, _ in order:
            m = moves.get(delta)
            if m is not None:
                return m
    # no plan (only 2s left): shed the 2s, longest first
    return max((m for m in legal if m), key=lambda m: (m.bit_count(), m))


def _bill(ctx: _Ctx, c: int) -> float:
    """What a loser holding the count vector ``c`` pays: a card each, plus thối."""
    g = ctx.g
    twos = (c >> (4 * TWO)) & 15
    quads = ((c >> 2) & _NIB1).bit_count()
    return _cards(c) + g._thoi_two * twos + g._thoi_quad * quads


def _cards(c: int) -> int:
    s = 0
    while c:
        s += c & 15
        c >>= 4
    return s


def _risk(ctx: _Ctx) -> float:
    if not ctx.opps:
        return 0.0
    k = min(ctx.counts[i] for i in ctx.opps)
    br = ctx.p.bill_risk
    return br[k] if k < len(br) else 0.0


def _finish_danger(ctx: _Ctx, cid: int, seats) -> float:
    """Cost (``danger_now`` and ``danger`` weights) of the chance that playing ``cid`` lets an
    opponent in ``seats`` out: it beats with its last cards (at once, on a beater free of 2s:
    going out on a 2 loses), or wins the trick and leads out."""
    size = (cid >> 4) & 15
    p = ctx.p
    fin = p.fin_lead
    rho = p.respond
    q_now = q_later = 1.0
    for i in seats:
        n = ctx.counts[i]
        if n > size + len(fin) - 2 or n < size:
            continue
        if n == size:
            p_low, _, p_bomb = ctx.hold(i, cid)
            if p_low or p_bomb:
                f_low, _, f_bomb = ctx.pass_factor(i, cid)
                q_now *= (1.0 - f_low * p_low) * (1.0 - f_bomb * p_bomb)
            continue
        b = ctx.beat_p(i, cid)
        if b:
            q_later *= 1.0 - rho * b * fin[n - size]
    return p.danger_now * (1.0 - q_now) + p.danger * (1.0 - q_later)


def _liable_risk(ctx: _Ctx, state, cid: int, delta: int, leading: bool) -> bool:
    """Báo một (penalty): whether playing the single ``cid`` could let the next seat, down to one
    card, go out on it with this seat liable."""
    g = ctx.g
    if not g._penalty or cid >> 8 != SINGLE:
        return False
    a = state._next_active(ctx.me)
    if a < 0 or ctx.counts[a] != 1:
        return False
    k = cid & 15
    _, uc = ctx.seat_u[a]
    # ranks a last card could have that beat this single and do not lose (not a 2)
    higher = [r for r in range(k + 1, TWO) if uc[r]]
    if not higher:
        return False
    if leading and R.has_multi_card_combo(ctx.hand, ctx.allow_two):
        return True
    top_rank = (ctx.hand.bit_length() - 1) >> 2
    return top_rank >= higher[0]


def _money_play(game, state, ctx: _Ctx, m: int, cid: int, seats) -> float:
    """Expected loss in bets of playing ``m`` (negative: a gain): chops won or suffered."""
    t = cid >> 8
    loss = 0.0
    top = state.top
    if top is not None and t in (QUAD, DQUAD):
        # a chop: the chain is paid to the last chopper by the last victim when the round ends
        chain = state.open_chop_chain()
        cv = chain[2] if chain else 0
        owner, tmask = top
        tc = R.classify(tmask, ctx.allow_two, ctx.dq)
        if tc[0] == QUAD:
            v_top = game._chop_quad
        elif tc[0] == DQUAD:
            v_top = 2 * game._chop_quad
        else:
            v_top = game._chop_two * (tmask & TWOS).bit_count()
        v_m = game._chop_quad if t == QUAD else 2 * game._chop_quad
        q = 1.0
        for i in seats:
            h = ctx.hold(i, cid)
            q *= 1.0 - (h[2] + h[0])
        counter = 1.0 - q
        if game._chain_all:
            loss -= (1.0 - counter) * (cv + v_top)
            loss += counter * (cv + v_top + v_m)
        else:
            loss -= v_top
            loss += counter * v_m
    elif m & TWOS and t in (SINGLE, PAIR):
        q = 1.0
        for i in seats:
            q *= 1.0 - ctx.hold(i, cid)[2]
        loss += (1.0 - q) * game._chop_two * (m & TWOS).bit_count()
    return loss


def _two_out_score(ctx: _Ctx, cid: int, delta: int) -> float | None:
    """Going out on a 2 (a loss, paying ``thoi_two`` per 2 in the play): its score, comparable
    to the plan scores through ``money``; ``None`` when the move does not empty the hand."""
    if delta != ctx.hc:
        return None
    twos = (delta >> (4 * TWO)) & 15
    return ctx.p.money * ctx.g._thoi_two * twos + ctx.p.two_end


def _lead(game, state, ctx: _Ctx, legal: list[int]) -> int:
    p = ctx.p
    hc = ctx.hc
    # endgame: a guaranteed way out
    gseq = ctx.guaranteed(hc)
    if gseq is not None and len(gseq) > 1:
        moves = {d: m for m, _, d in _distinct(legal, ctx.allow_two)}
        for cid, delta in gseq[:-1]:
            m = moves.get(delta)
            if m is not None:
                return m
    seats = ctx.opps
    risk = _risk(ctx)
    cands = _distinct(legal, ctx.allow_two)
    safe = [x for x in cands if not _liable_risk(ctx, state, x[1], x[2], True)]
    if safe:
        cands = safe
    best, best_s = cands[0][0], _INF
    for m, cid, delta in cands:
        rest = hc - delta
        s = _two_out_score(ctx, cid, delta)
        if s is None:
            s = ctx.plan_cost(rest)
            s -= p.lead_keep * ctx.win_p(cid, seats) * _lead_gain(ctx, rest)
            s += p.low_first * _strength(cid) - p.shed * _cards(delta)
            s += _finish_danger(ctx, cid, seats)
            s += p.money * (_money_play(game, state, ctx, m, cid, seats) + risk * _bill(ctx, rest))
        s += _tiebreak(cid, delta)
        if s < best_s:
            best, best_s = m, s
    return best


def _follow(game, state, ctx: _Ctx, legal: list[int]) -> int:
    p = ctx.p
    hc = ctx.hc
    owner, tmask = state.top
    tcid, _ = _combo_of(tmask, ctx.allow_two)
    passed = state.passed_mask()
    # seats that may still answer a play of ours in this round
    seats = [i for i in ctx.opps if not passed >> i & 1]
    cands = _distinct(legal, ctx.allow_two)
    # endgame: a sure boss now and a guaranteed way out after it
    for m, cid, delta in cands:
        if ctx.sure(cid, seats) and ctx.guaranteed(hc - delta) is not None:
            return m
    safe = [x for x in cands if not _liable_risk(ctx, state, x[1], x[2], False)]
    cands = safe
    risk = _risk(ctx)
    base_c = ctx.plan_cost(hc)
    # pass: the top stays unless a later seat beats it
    later = [i for i in seats if i != owner]
    stand = 1.0
    for i in later:
        stand *= 1.0 - p.respond * ctx.beat_p(i, tcid)
    d_pass = 0.0
    if owner != ctx.me and ctx.counts[owner]:
        k = ctx.counts[owner]
        if k < len(p.fin_lead):
            d_pass = stand * p.fin_lead[k]
    s_pass = base_c + p.danger * d_pass + p.money * risk * _bill(ctx, hc)
    s_pass += (
        p.pass_cost_late if ctx.opps and min(ctx.counts[i] for i in ctx.opps) <= 3 else p.pass_cost
    )
    if (
        ctx.counts[ctx.me] == HAND_SIZE
        and ctx.opps
        and min(ctx.counts[i] for i in ctx.opps) <= p.cong_guard
    ):
        s_pass += p.money * (game._cong - HAND_SIZE)
    best, best_s = 0, s_pass
    for m, cid, delta in cands:
        rest = hc - delta
        s = _two_out_score(ctx, cid, delta)
        if s is None:
            s = ctx.plan_cost(rest)
            s -= p.lead_value * ctx.win_p(cid, seats) * _lead_gain(ctx, rest)
            s += _finish_danger(ctx, cid, seats)
            s += p.money * (_money_play(game, state, ctx, m, cid, seats) + risk * _bill(ctx, rest))
        s += _tiebreak(cid, delta)
        if s < best_s:
            best, best_s = m, s
    return best


def _lead_gain(ctx: _Ctx, rest: int) -> float:
    """How much having the lead is worth with the count vector ``rest`` left, relative to the
    usual: up to ``go_out`` times as much, by the chance of leading out from there (every
    combination but a last one free of counted 2s wins its trick)."""
    if not rest or _min_combos(rest, ctx.allow_two) > ctx.p.out_combos:
        return 1.0
    return 1.0 + (ctx.p.go_out - 1.0) * ctx.out_chance(rest)


def _strength(cid: int) -> float:
    """Where a combination stands among its shape, 0 (lowest) .. 1 (highest); straights and
    triples 0 (they are led, hardly ever an answer, so nothing is gained by keeping them)."""
    if cid >> 8 == STRAIGHT or cid >> 8 == TRIPLE:
        return 0.0
    return (cid & 15) / 12


def _tiebreak(cid: int, delta: int) -> float:
    """Lower combinations first, longer ones first (tiny)."""
    return 1e-4 * (cid & 15) / 16 - 1e-5 * _cards(delta)
