"""A strong rule-based "sparring" player for Phỏm: ``PhomGame.sparring_move``.

It plays like a careful human who counts cards, from **its own seat's information only** (its
hand and the public record: discards, eats, laid phỏm, sends, hand and stock sizes):
:class:`_Ctx` copies what the seat may know out of the state and everything else works on that
copy.  Rules: ``docs/rules/phom.md``.

* **Card tracking.**  Unseen cards are the deck less its hand, the discards, the eaten cards and
  the table; for the next seat, the chance of holding each unseen card *free* (able to make a
  new phỏm), lowered by what its discards, its eats and its draws instead of eating show.
* **Danger of a discard** to the next seat (the only one that can eat it): the chance it makes
  a phỏm with the card times what the eat costs in bets (payment, đền, the eater's progress).
* **Hand plan.**  The hand after the discard valued in bets: deadwood at the lay-down, cạ
  weighted by their live outs and the takes left, the risk of móm and the chance of Ù.
* **Take:** eat whenever the rules allow.  **Lay and send:** every arrangement with the greedy
  send closure and the best last discard; sending out all but one card is Ù (gửi hết).

:func:`choose` is the entry point; :class:`Params` holds the weights, tuned against
:mod:`games.phom.heuristic` in the arena (one sparring seat against three heuristic seats).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

try:
    import cython
except ImportError:  # no Cython installed: the same code runs untyped (games/_cy.py)
    from quansu.games import _cy as cython

from quansu.games.phom import rules as R
from quansu.games.phom import settle as S
from quansu.games.phom.rules import DRAW, EAT, LAY, SEND, SEND_BASE, TAI, TAKE, U


@dataclass(frozen=True)
class Params:
    """Weights of the sparring bot (bets unless said otherwise)."""

    point: float = 0.1  #: bets per deadwood point of the hand kept
    ca_share: float = 1.8  #: share of a cạ's points counted as saved when it may complete
    ca_meld: float = 0.4  #: value of a new phỏm (beyond its points) when a cạ completes
    eat_rate: float = 2.0  #: chance of getting an out by eating, relative to drawing it
    mom: float = 13.0  #: cost of ending móm (no phỏm)
    u_share: float = 0.7  #: share of the Ù money counted for the chance of Ù
    progress: float = 0.0  #: cost of the eater's progress when the next seat eats
    disc_ca: float = 0.6  #: chance factor of a card in cạ with one of the seat's discards
    end_point: float = 0.2  #: bets per point left at the lay-down (lay and send choices)
    danger: float = 0.7  #: weight of the expected cost of being eaten
    fp_turns: float = 0.5  #: share of the later discards that drop a card kept now
    all_points: float = 0.1  #: weight of all deadwood points beside those left at the end


PARAMS = Params()

#: per card x, the other two cards of each 3-card phỏm through x (masks)
_REST = tuple(tuple(m & ~(1 << x) for m in R.MIN_MELDS[x]) for x in range(52))
#: per card x, the cards that make a cạ with it
_CA = tuple(sum(1 << y for y in range(52) if R.is_ca(x, y)) for x in range(52))


def _outs_table() -> dict[int, int]:
    """For a cạ (two-card mask), the cards that complete it into a 3-card phỏm."""
    out: dict[int, int] = {}
    for m in R.ALL_MELDS:
        if m.bit_count() != 3:
            continue
        for x in R.bits(m):
            pair = m & ~(1 << x)
            out[pair] = out.get(pair, 0) | (1 << x)
    return out


_OUTS = _outs_table()
#: a typed one (C shifts of it are 64-bit when compiled)
_U1 = cython.declare(cython.ulonglong, 1)
#: _CA, R.POINTS and _OUTS as C arrays of the compiled build (declared in
#: quansu.games.phom.sparring.pxd, filled from these lists at import): ``_OUTS2[52 * x + y]`` the
#: outs of the cạ (x, y), 0 when x and y make no cạ
_CA64 = list(_CA)
_PTS = list(R.POINTS)
_OUTS2 = [_OUTS.get((1 << x) | (1 << y), 0) if x != y else 0 for x in range(52) for y in range(52)]


@cython.cfunc
@cython.inline
@cython.locals(x=cython.ulonglong)
@cython.returns(cython.int)
def _low(x: int) -> int:
    """Index of the lowest set bit of the nonzero mask ``x`` (compiled: count trailing zeros)."""
    if cython.compiled:
        return __builtin_ctzll(x)  # noqa: F821 - quansu.games.phom.sparring.pxd
    return (x & -x).bit_length() - 1


@cython.cfunc
@cython.inline
@cython.locals(x=cython.ulonglong)
@cython.returns(cython.int)
def _pop(x: int) -> int:
    """``x.bit_count()`` (compiled: the compiler's popcount)."""
    if cython.compiled:
        return __builtin_popcountll(x)  # noqa: F821 - quansu.games.phom.sparring.pxd
    return x.bit_count()


class _Ctx:
    """What the seat to act knows, and the estimates derived from it (built once per decision).

    Only public facts are copied out of the state (hand sizes, eaten cards, discard rows, the
    table, the move history, eat counts, stock size, lay-down flags) beside the seat's own
    hand; nothing else of the state is kept."""

    __slots__ = (
        "game",
        "p",
        "me",
        "n",
        "hand",
        "eaten",
        "one",
        "unseen",
        "nxt",
        "pfree",
        "excl",
        "live",
        "rate",
        "takes",
        "laid_me",
        "table",
        "kind",
        "s_now",
        "eats",
        "eaten_nxt",
        "round_me",
        "opts",
        "u_money",
        "_chance",
        "_cost",
    )

    def __init__(self, game, state, params: Params):
        self.game = game
        self.p = params
        n = state.n
        me = state.cur
        self.me = me
        self.n = n
        # -- what the seat may know
        self.hand = state.hands[me]
        sizes = [h.bit_count() for h in state.hands]
        eaten = tuple(state.eaten)
        self.eaten = eaten[me]
        rows = state.rows
        self.table = tuple(state.table)
        hist = state.hist
        self.eats = tuple(state.eats)
        self.s_now = state.s_now
        self.kind = state.kind
        self.laid_me = bool(state.laid >> me & 1)
        self.round_me = len(rows[me]) + 1
        # -- derived
        self.one = game._one
        self.opts = game.options
        self.u_money = (n - 1) * self.opts["u_payment"]
        known = self.hand
        for s in range(n):
            known |= eaten[s]
            for x in rows[s]:
                known |= 1 << x
        for t in self.table:
            known |= t[1]
        unseen = R.FULL & ~known
        self.unseen = unseen
        nu = unseen.bit_count()

        # partners of the opponents' eaten cards: those opponents hold them, so they are
        # less likely to reach this seat
        partner = [0.0] * 52
        for s in range(n):
            if s == me:
                continue
            for x in R.bits(eaten[s]):
                pairs = [r for r in _REST[x] if r & unseen == r]
                if not pairs:
                    continue
                w = 1.0 / len(pairs)
                for r in pairs:
                    for y in R.bits(r):
                        partner[y] = min(1.0, partner[y] + w)
        self.live = partner

        # the next seat: chance that it holds each unseen card free, and the pairs that its
        # passes on this seat's discards ruled out
        nxt = (me + 1) % n
        self.nxt = nxt
        e_nxt = eaten[nxt]
        self.eaten_nxt = e_nxt
        hid = sizes[nxt] - e_nxt.bit_count()
        base = hid / nu if nu else 0.0
        near_disc = 0
        draws = 0
        passes = []
        for i, (s, mv) in enumerate(hist):
            if s != nxt:
                continue
            if mv == DRAW:
                draws += 1
                if i:
                    ps, pm = hist[i - 1]
                    if ps == me and type(pm) is int and pm < 52:
                        passes.append((pm, draws - 1))  # the pass's own draw is new
            elif type(mv) is int and mv < 52:
                near_disc |= _CA[mv]
        pf = [0.0] * 52
        disc_ca = params.disc_ca
        one = self.one
        for x in R.bits(unseen):
            q = base
            if near_disc >> x & 1:
                q *= disc_ca
            if e_nxt:
                tie = _tied_chance(e_nxt, x, unseen)
                # one eaten card per phỏm: its partners are tied to it; otherwise they are
                # held and can take a second eaten card
                q = q * (1.0 - tie) if one else q + (1.0 - q) * tie
            pf[x] = q
        if not self.one:
            for x in R.bits(e_nxt):
                pf[x] = 1.0
        self.pfree = pf
        excl: dict[int, float] = {}
        for d, at in passes:
            old = max(0.0, 1.0 - (draws - at) / hid) if hid else 0.0
            keep = 1.0 - old * old  # chance that such a pair was formed since the pass
            for r in _REST[d]:
                excl[r] = min(excl.get(r, 1.0), keep)
        self.excl = excl

        # takes left to this seat before (and including) its lay-down turn
        takes = 0
        if not self.laid_me:
            s_after = self.s_now  # the stock after this turn's take
            while s_after > n - 1:
                s_after -= n  # after the next take of this seat
                if s_after < 0:
                    break
                takes += 1
        self.takes = takes
        # chance that one given live out reaches the seat (drawn or eaten) in those takes
        per_take = min((1.0 + params.eat_rate) / nu, 1.0) if nu else 0.0
        self.rate = 1.0 - (1.0 - per_take) ** takes if takes else 0.0
        self._chance: dict[int, float] = {}
        self._cost: dict[bool, float] = {}

    # -- danger ---------------------------------------------------------------------------------
    def eat_chance(self, c: int) -> float:
        """Chance that the next seat can eat ``c`` (holds a free pair making a 3-card phỏm
        with it)."""
        got = self._chance.get(c)
        if got is None:
            got = self._chance[c] = self._eat_chance(c)
        return got

    @cython.locals(
        unseen=cython.ulonglong,
        e_nxt=cython.ulonglong,
        r=cython.ulonglong,
        one=cython.bint,
        q=cython.double,
        pr=cython.double,
    )
    def _eat_chance(self, c: int) -> float:
        unseen = self.unseen
        e_nxt = self.eaten_nxt
        one = self.one
        pf = self.pfree
        excl = self.excl
        q = 1.0
        for r in _REST[c]:
            if r & unseen != r and (one or r & ~unseen & ~e_nxt):
                continue
            # the pair's lower card, then its other card
            pr = pf[_low(r)] * pf[_low(r & (r - 1))]
            if excl:
                f = excl.get(r)
                if f is not None:
                    pr *= f
            q *= 1.0 - min(pr, 1.0)
        return 1.0 - q

    def eat_cost(self, c: int = -1) -> float:
        """What it costs (bets) when the next seat eats this turn's discard ``c``: the eat
        payment, and on its third eat the whole Ù money (đền)."""
        king = c >= 0 and c % 13 == R.K_RANK
        got = self._cost.get(king)  # a function of the decision and of the king alone
        if got is None:
            k = self.eats[self.nxt] + 1
            cost = S.eat_payment(k, self.s_now <= self.n, king, self.round_me, self.opts)
            if k >= 3:
                cost += self.u_money
            got = self._cost[king] = cost + self.p.progress
        return got

    def danger(self, c: int) -> float:
        """Expected cost (bets, weighted) of discarding ``c``: none on the game's last discard."""
        if self.s_now == 0:
            return 0.0
        ch = self.eat_chance(c)
        if not ch:
            return 0.0
        return self.p.danger * ch * self.eat_cost(c)

    # -- hand value -----------------------------------------------------------------------------
    def free_sends(self, dead: int) -> int:
        """Cards of ``dead`` that can be sent (in a chain) onto phỏm laid by others."""
        targets = [t[1] for t in self.table if t[0] != self.me]
        free = 0
        changed = bool(targets)
        while changed:
            changed = False
            for i, m in enumerate(targets):
                acc = R.meld_accepts(m) & dead & ~free
                if acc:
                    free |= acc
                    targets[i] = m | acc
                    changed = True
        return free

    @cython.locals(
        h=cython.ulonglong,
        e=cython.ulonglong,
        dead=cython.ulonglong,
        dead_all=cython.ulonglong,
        melded=cython.ulonglong,
        free=cython.ulonglong,
        unseen=cython.ulonglong,
        d=cython.ulonglong,
        part=cython.ulonglong,
        lo=cython.ulonglong,
        outs=cython.ulonglong,
        o=cython.ulonglong,
        all_outs=cython.ulonglong,
        n_dead=cython.int,
        x=cython.int,
        y=cython.int,
        u=cython.int,
        fp=cython.double,
        v=cython.double,
        val=cython.double,
        rate=cython.double,
        gain=cython.double,
        n_live=cython.double,
        pc=cython.double,
        miss=cython.double,
        ca_w=cython.double,
        ca_meld=cython.double,
        saved=cython.double,
    )
    def hand_value(self, h: int, e: int) -> float:
        """Value in bets of keeping the hand ``h`` (eaten cards ``e``) after the discard.

        Compiled, the card loops run on 64-bit words and C tables (``_low``, ``_CA64``,
        ``_OUTS2``, ``_PTS``), with the values of the list loops they replaced, bit for bit
        (tests/games/test_speed_equivalence.py)."""
        p = self.p
        dw, melded = R.min_deadwood(h, e, self.one)
        if dw >= 10**6:
            return -1e9
        dead = dead_all = h & ~melded
        if melded and not self.laid_me:
            free = self.free_sends(dead)
            if free:
                dead &= ~free
                dw -= R.points(free)
        takes = self.takes
        if not takes:
            return -p.end_point * dw
        n_dead = _pop(dead)
        # the cards still dead at the lay-down: the lowest; the others go in later discards
        keep = n_dead - takes * p.fp_turns
        fp = 0.0
        if keep > 0:
            vals = []
            d = dead
            while d:
                vals.append(_PTS[_low(d)])
                d &= d - 1
            for v in sorted(vals):
                if keep <= 0:
                    break
                fp += v * min(keep, 1.0)
                keep -= 1.0
        val = -p.point * (fp + p.all_points * dw)
        rate = self.rate
        unseen = self.unseen
        live = self.live
        all_outs = 0
        gain = 0.0
        ca_w = p.point * p.ca_share  # (the products in the order of p.point * p.ca_share * pts)
        ca_meld = p.ca_meld
        d = dead
        while d:
            x = _low(d)
            d &= d - 1
            part = _CA64[x] & h & ~(_U1 << x)
            # a pair of dead cards is counted once, from its lower card
            part &= ~(dead & ((_U1 << (x + 1)) - 1))
            while part:
                y = _low(part)
                part &= part - 1
                lo = _U1 << y
                outs = _OUTS2[52 * x + y] & unseen
                if not outs:
                    continue
                all_outs |= outs
                n_live = 0.0
                o = outs
                while o:
                    n_live += 1.0 - live[_low(o)]
                    o &= o - 1
                pc = 1.0 - (1.0 - rate) ** n_live
                if dead & lo:
                    saved = _PTS[x] + _PTS[y]
                    gain += pc * (ca_w * saved + ca_meld)
                else:  # a dead card with a card of a phỏm: half as good
                    gain += 0.5 * pc * (ca_w * _PTS[x] + ca_meld)
        val += gain
        if not melded and not e:
            miss = 1.0
            o = all_outs
            while o:
                u = _low(o)
                o &= o - 1
                miss *= 1.0 - rate * (1.0 - live[u])
            val -= p.mom * miss
        if n_dead <= 3 and p.u_share:
            val += p.u_share * self.u_money * self.u_chance(h & ~(dead_all & ~dead), e)
        return val

    def u_chance(self, h: int, e: int) -> float:
        """Chance of a Ù before the lay-down from ``h``: the cards that complete the whole
        hand at a take, each arriving at the rate of one live out."""
        near = 0
        for x in R.bits(h):
            near |= _CA[x]
        miss = 1.0
        one = self.one
        # A card that joins a phỏm only with u is in cạ with u (a 3-card run or set through
        # u), so a hand with two cards outside every phỏm and outside u's cạ is no Ù with u:
        # R.can_u would say no (the same answer, without the search).
        free = h & ~R.meldable(h)
        for u in R.bits(near & self.unseen):
            if (free & ~_CA[u]).bit_count() > 1:
                continue
            if R.can_u(h | (1 << u), e, one):
                miss *= 1.0 - self.rate * (1.0 - self.live[u])
        return 1.0 - miss


def _tied_chance(eaten: int, x: int, unseen: int) -> float:
    """Chance that the unseen card ``x`` is a partner of one of the ``eaten`` cards of a seat
    (equal weight on each pair of unseen cards that makes a 3-card phỏm with an eaten card)."""
    tot = 0.0
    for c in R.bits(eaten & _CA[x]):
        pairs = [r for r in _REST[c] if r & unseen == r]
        if pairs:
            tot += sum(1 for r in pairs if r >> x & 1) / len(pairs)
    return min(tot, 1.0)


# ---------------------------------------------------------------------------------------------
# lay, send and the discard that ends the turn


def _send_plan(ctx: _Ctx, h: int, targets: list[int], can_send: bool):
    """Best ``(cost, sends, discard)`` for the hand ``h`` before the turn's sends and discard:
    for every legal discard d, every other card that can be sent (in a chain) is sent;
    sending all but d is Ù (gửi hết).  ``cost`` in bets (lower is better)."""
    e = ctx.eaten
    e &= h
    legal = h if not e else R.legal_discards(h, e, ctx.one)
    best = None
    for d in R.bits(legal):
        rest = h & ~(1 << d)
        sent = 0
        if can_send and targets:
            tg = list(targets)
            changed = True
            while changed:
                changed = False
                for i, m in enumerate(tg):
                    acc = R.meld_accepts(m) & rest & ~sent
                    if acc:
                        sent |= acc
                        tg[i] = m | acc
                        changed = True
            sent &= ~e
        left = rest & ~sent
        if sent and not left and ctx.game._send_all:
            cost = -ctx.u_money
        else:
            cost = ctx.p.end_point * R.points(left) + ctx.danger(d)
        key = (cost, -R.POINTS[d], d)
        if best is None or key < best[0]:
            best = (key, sent, d)
    return best[0][0], best[1], best[2]


def _targets(ctx: _Ctx, arr: tuple) -> tuple[list[int], bool]:
    """The phỏm that may receive sends after laying ``arr``, and whether sending is allowed."""
    me = ctx.me
    if ctx.kind == TAI:
        has_own = bool(arr) or any(t[0] == me for t in ctx.table)
        return [t[1] for t in ctx.table] + list(arr), has_own and ctx.game._tai_send
    return [t[1] for t in ctx.table if t[0] != me], bool(arr)


def _choose_lay(ctx: _Ctx, legal: list):
    """The arrangement whose sends and last discard cost least (laying nothing while a phỏm is
    possible costs the móm)."""
    me = ctx.me
    h = ctx.hand
    best = None
    has_own = any(t[0] == me for t in ctx.table)
    for arr in legal:
        if type(arr) is not tuple:
            continue
        used = 0
        for m in arr:
            used |= m
        left = h & ~used
        targets, can_send = _targets(ctx, arr)
        cost, _sent, _d = _send_plan(ctx, left, targets, can_send)
        if not arr and not has_own:
            cost += ctx.p.mom
        key = (cost, -len(arr), [R.meld_key(m) for m in arr])
        if best is None or key < best[0]:
            best = (key, arr)
    return best[1]


def _choose_send(ctx: _Ctx, legal: list):
    """A send of the best plan while one is left, then its discard."""
    targets, _can = _targets(ctx, ())
    _cost, sent, d = _send_plan(ctx, ctx.hand, targets, True)
    if sent:
        for mv in legal:
            if type(mv) is int and mv >= SEND_BASE and sent >> ((mv - SEND_BASE) % 64) & 1:
                return mv
    return d


def _choose_discard(ctx: _Ctx, legal: list):
    """The discard keeping the most valuable hand, net of its danger; ties: the higher card."""
    h = ctx.hand
    e = ctx.eaten
    best = None
    for mv in legal:
        if type(mv) is not int or not 0 <= mv < 52:
            continue
        val = ctx.hand_value(h & ~(1 << mv), e) - ctx.danger(mv)
        key = (-val, -R.POINTS[mv], mv)
        if best is None or key < best[0]:
            best = (key, mv)
    return best[1]


def choose(game, state, rng: random.Random | None = None, params: Params | None = None):
    """The sparring bot's move for the seat to act in ``state`` (a legal move), from that seat's
    information only.  ``params``: the weights (default :data:`PARAMS`); ``rng`` is unused (the
    bot is deterministic)."""
    legal = state.legal_moves()
    if not legal:
        raise ValueError("sparring_move: the game is over")
    if len(legal) == 1:
        return legal[0]
    if U in legal:
        return U
    ph = state.phase
    params = params or PARAMS
    if ph == TAKE:
        for mv in legal:
            if type(mv) is int and EAT <= mv < EAT + 52:
                return mv
        return DRAW
    ctx = _Ctx(game, state, params)
    if ph == LAY:
        return _choose_lay(ctx, legal)
    if ph == SEND:
        return _choose_send(ctx, legal)
    return _choose_discard(ctx, legal)
