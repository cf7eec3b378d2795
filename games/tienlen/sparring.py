"""A strong rule-based "sparring" player for Tiến lên miền Nam: ``TienLenGame.sparring_move``.

It plays like a careful human who counts cards, from **its own seat's information only** (its
hand, the public history, hand sizes, who has finished, the table and chop chain):
:class:`_Ctx` copies that out of the state and everything else works on the copy.

* **Card counting.**  Per opponent, the chance of holding a combination that beats a given one
  (hypergeometric per rank; straights and pair sequences rank by rank; bombs by the chop
  table); passes read softly, and as hard facts when passing meant not going out.
* **Hand plan.**  The hand split into combinations (every split of ranks into sets, straights
  and pair sequences) minimising a cost: ``combo_cost`` each, less ``control`` times its chance
  to win the trick when led (bosses regain the lead).
* **Move choice.**  Every legal move scored: plan cost of the hand left, the value of winning
  the trick, the danger of letting an opponent out, and money in bets (chops, 2s chopped,
  thối, cóng): low combinations first, bosses and 2s kept to regain the lead.
* **Endgame exactness.**  A hand that splits into sure bosses and one last combination goes out
  guaranteed (3♠ last when that ends the game đút mù); the search over splits is exhaustive.

:func:`choose` is the entry point; :class:`Params` holds the weights (tuned against
:mod:`games.tienlen.heuristic` in the arena).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from quansu.games.tienlen import rules as R

_RANK = tuple(0xF << (4 * r) for r in range(13))
_NON_TWO_RANKS = 12
_FULL = (1 << 52) - 1
_INF = float("inf")


@dataclass(frozen=True)
class Params:
    """Weights of the sparring bot (plan-cost units; ``money`` converts bets into them)."""

    combo_cost: float = 1.0  #: cost of one combination still to be played
    control: float = 1.5  #: earned by a combination in proportion to its chance to win a lead
    control_other: float = 1.5  #: the same for triples, straights and non-bomb pair sequences
    respond: float = 0.15  #: chance that an opponent holding a beater plays it (this trick)
    plan_respond: float = 0.4  #: the same, for the control value of a combination in the plan
    out_bonus: float = 3.0  #: value of winning the trick with a rest that then goes out guaranteed
    rank_power: float = (
        3.0  #: a single's control value is at least (share of unseen cards below it) ** this
    )
    pass_soft: float = 0.35  #: beater chance of a seat that passed a lower same-shape top
    pass_soft_two: float = 0.8  #: the same for beaters that are 2s (club players save them)
    lead_value: float = 0.6  #: value of winning the trick when following
    lead_keep: float = 1.3  #: value of keeping the lead when leading
    lead_cards: float = 0.0  #: bonus per card of a lead
    danger: float = 2.5  #: cost of letting an opponent go out (following)
    danger_lead: float = 2.5  #: the same, leading
    danger_pass: float = 2.5  #: the same, passing while the top's owner is about to go out
    money: float = 2.0  #: plan-cost units per bet
    fin_lead: tuple = (
        1.0,
        1.0,
        0.55,
        0.3,
        0.12,
        0.04,
    )  #: chance a seat with k cards goes out from the lead
    cong_guard: int = 5  #: with all 13 cards, play anything once an opponent is this close
    keep_spade3: float = 2.0  #: value of keeping 3♠ for a đút mù finish
    solve_nodes: int = 4000  #: budget (positions) of the exact two-seat endgame; 0: off
    solve_cards: int = 14  #: ... tried when the two hands hold at most this many cards


PARAMS = Params()


# ---------------------------------------------------------------------------------------------
# probabilities


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


def _partitions(items: list[int]) -> list[list[int]]:
    """Every set partition of the card bits ``items`` as lists of masks."""
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out = []
    for p in _partitions(rest):
        out.append([first] + p)
        for i in range(len(p)):
            out.append(p[:i] + [p[i] | first] + p[i + 1 :])
    return out


#: nibble -> every partition of its cards into same-rank sets (masks within the nibble).
_PARTS = [None] + [
    tuple(tuple(p) for p in _partitions([1 << b for b in range(4) if v >> b & 1]))
    for v in range(1, 16)
]


# ---------------------------------------------------------------------------------------------
# what the seat knows


class _Ctx:
    """The acting seat's knowledge and the caches of one decision."""

    __slots__ = (
        "p",
        "me",
        "n",
        "hand",
        "unseen",
        "U",
        "uc",
        "opps",
        "counts",
        "passes",
        "bombs",
        "quad_pair",
        "lpsb",
        "w_cache",
        "plan_memo",
        "sure_memo",
        "hold_cache",
        "sure_cache",
        "ge_cache",
        "bomb_cache",
        "dut_mu",
        "chain_mode",
    )

    def __init__(self, game, state, params: Params):
        self.p = params
        me = self.me = state.cur
        n = self.n = game.num_players
        hand = self.hand = state.hands[me]
        played = 0
        for m in state.played:
            played |= m
        # everything this seat cannot see: opponents' hands and (N < 4) the set-aside cards
        self.unseen = _FULL & ~played & ~hand
        self.U = self.unseen.bit_count()
        self.uc = R.rank_counts(self.unseen)
        # public: how many cards each seat holds, who is still in play
        self.counts = [state.hands[s].bit_count() if state.active >> s & 1 else 0 for s in range(n)]
        self.opps = [s for s in range(n) if s != me and self.counts[s]]
        self.passes = _pass_records(game, state.history, [h.bit_count() for h in state.hands])
        self.bombs = game._bombs
        o = game.options
        self.quad_pair = o["four_of_a_kind_chops_pair_of_twos"]
        self.lpsb = game._lpsb
        self.chain_mode = o["chop_chain_last_victim_pays_all"]
        # a first finish with a play holding 3♠ ends the game đút mù (every other seat loses)
        self.dut_mu = (
            not state.finish
            and o["dut_mu_enabled"]
            and bool(hand & R.SPADE3)
            and o["settlement_mode"] == "ranking"
        )
        self.w_cache: dict[int, float] = {}
        self.plan_memo: dict[int, tuple] = {}
        self.sure_memo: dict[int, tuple] = {}
        self.hold_cache: dict[tuple, float] = {}
        self.sure_cache: dict[int, bool] = {}
        self.ge_cache: dict[tuple, list] = {}
        self.bomb_cache: dict[tuple, float] = {}

    # -- an opponent's chance to hold a beater -------------------------------------------------
    def _ge(self, i: int, u: int, k: int) -> float:
        return _hg_ge(self.U, self.counts[i], u, k)

    def _run(self, i: int, length: int, k: int, top: int) -> float:
        """P(opponent ``i`` holds ``length`` consecutive ranks within 3..A, each with >= ``k``
        cards, beating the same-shape ``top`` (``-1``: any such run)).  The ranks are taken as
        independent and overlapping runs are counted once (a run-length recursion)."""
        if self.counts[i] < length * k:
            return 0.0
        uc = self.uc
        ge = self.ge_cache.get((i, k))
        if ge is None:
            ge = self.ge_cache[(i, k)] = [self._ge(i, uc[r], k) for r in range(_NON_TWO_RANKS)]
        if top >= 0:
            rt = top >> 2
            h = (self.unseen & _RANK[rt] & ~((2 << top) - 1)).bit_count()  # above top, its rank
            # a run ending at rt needs a card above the top there
            if k == 1:
                p_end = self._ge(i, h, 1)
            else:
                u = uc[rt]
                p_end = (
                    self._ge(i, u, k) * (1.0 - comb(u - h, k) / comb(u, k)) if h and u >= k else 0.0
                )
            for r in range(rt - length + 1, rt):
                p_end *= ge[r]
            start = max(0, rt - length + 2)
        else:
            p_end = 0.0
            start = 0
        # runs ending above rt: probability mass by current run length
        dist = [1.0] + [0.0] * (length - 1)
        hit = 0.0
        for r in range(start, _NON_TWO_RANKS):
            q = ge[r]
            if q == 0.0:
                dist = [sum(dist)] + [0.0] * (length - 1)
                continue
            new = [0.0] * length
            new[0] = sum(dist) * (1.0 - q)
            for c in range(length - 1):
                new[c + 1] = dist[c] * q
            hit += dist[length - 1] * q
            dist = new
        return 1.0 - (1.0 - hit) * (1.0 - p_end)

    def _quads(self, i: int, above: int) -> float:
        """P(opponent ``i`` holds a four of a kind of rank > ``above`` (ranks 3..A))."""
        if self.counts[i] < 4:
            return 0.0
        q = 1.0
        for r in range(above + 1, _NON_TWO_RANKS):
            if self.uc[r] == 4:
                q *= 1.0 - self._ge(i, 4, 4)
        return 1.0 - q

    def _bomb_beat(self, i: int, mask: int, shape: int) -> float:
        """P(opponent ``i`` holds a bomb that may be played on ``mask`` by the chop table,
        same-shape bombs excluded).  Depends on ``mask`` only through whether it holds a 2
        (cached per opponent, shape and that)."""
        two = mask >> 48 != 0
        key = (i, shape, two)
        got = self.bomb_cache.get(key)
        if got is None:
            got = self.bomb_cache[key] = self._bomb_beat_of(i, shape, two)
        return got

    def _bomb_beat_of(self, i: int, shape: int, two: bool) -> float:
        q = 1.0
        if shape == R.SINGLE and two:
            q *= (
                (1.0 - self._quads(i, -1))
                * (1.0 - self._run(i, 3, 2, -1))
                * (1.0 - self._run(i, 4, 2, -1))
            )
        elif shape == R.PAIR and two:
            if self.quad_pair:
                q *= 1.0 - self._quads(i, -1)
            q *= 1.0 - self._run(i, 4, 2, -1)
        elif shape == R.PS3:
            q *= (1.0 - self._quads(i, -1)) * (1.0 - self._run(i, 4, 2, -1))
        elif shape == R.QUAD:
            q *= 1.0 - self._run(i, 4, 2, -1)
        else:
            return 0.0
        if self.lpsb and shape in (R.SINGLE, R.PAIR, R.PS3, R.QUAD, R.PS4):
            q *= (1.0 - self._run(i, 5, 2, -1)) * (1.0 - self._run(i, 6, 2, -1))
        return 1.0 - q

    def hold(self, i: int, mask: int, shape: int) -> tuple[float, float, float]:
        """``(p_low, p_two, p_bomb)``: the chance that opponent ``i`` holds a same-shape beater
        of ``mask`` without 2s, one with 2s, and a bomb that chops it (no pass inference)."""
        key = (i, mask)
        got = self.hold_cache.get(key)
        if got is not None:
            return got
        size = mask.bit_count()
        n = self.counts[i]
        top = mask.bit_length() - 1
        rt = top >> 2
        p_low = p_two = 0.0
        if n >= size:
            if shape == R.SINGLE:
                higher = self.unseen & ~((2 << top) - 1)
                h2 = (higher & R.TWOS).bit_count()
                h1 = higher.bit_count() - h2
                p_low = self._ge(i, h1, 1)
                p_two = self._ge(i, h2, 1)
            elif shape <= R.QUAD:
                k = size
                uc = self.uc
                q_low = q_two = 1.0
                for r in range(rt + 1, 13):
                    if uc[r] >= k:
                        if r == 12:
                            q_two *= 1.0 - self._ge(i, uc[r], k)
                        else:
                            q_low *= 1.0 - self._ge(i, uc[r], k)
                h = (self.unseen & _RANK[rt] & ~((2 << top) - 1)).bit_count()
                if h and shape != R.QUAD and uc[rt] >= k:
                    u = uc[rt]
                    ps = self._ge(i, u, k) * (1.0 - comb(u - h, k) / comb(u, k))
                    if rt == 12:
                        q_two *= 1.0 - ps
                    else:
                        q_low *= 1.0 - ps
                if shape == R.QUAD:
                    q_two = 1.0
                p_low, p_two = 1.0 - q_low, 1.0 - q_two
            elif shape < R.PAIRSEQ:
                p_low = self._run(i, shape - R.STRAIGHT, 1, top)
            else:
                p_low = self._run(i, shape - R.PAIRSEQ, 2, top)
        p_bomb = self._bomb_beat(i, mask, shape)
        got = (p_low, p_two, p_bomb)
        self.hold_cache[key] = got
        return got

    def pass_factor(self, i: int, mask: int, shape: int) -> tuple[float, float]:
        """Pass inference for opponent ``i`` against ``mask``: factors on its beater chances
        (low, 2s).  (0, 0) when a pass proves it cannot beat."""
        f_low = f_two = 1.0
        size = mask.bit_count()
        for sh, top, cnt in self.passes[i]:
            if sh == shape and top <= mask:
                if cnt == size:
                    return 0.0, 0.0
                f_low = self.p.pass_soft
                f_two = self.p.pass_soft_two
        return f_low, f_two

    def beat_p(self, i: int, mask: int, shape: int) -> float:
        """Chance that opponent ``i`` holds a beater of ``mask``, passes read softly."""
        p_low, p_two, p_bomb = self.hold(i, mask, shape)
        f_low, f_two = self.pass_factor(i, mask, shape)
        if f_low == 0.0:
            return 0.0
        return 1.0 - (1.0 - f_low * p_low) * (1.0 - f_two * p_two) * (1.0 - f_two * p_bomb)

    def sure(self, mask: int, shape: int, seats=None) -> bool:
        """No seat in ``seats`` (default: every opponent) can beat ``mask`` whatever the unseen
        cards are (hard facts only)."""
        if seats is None:
            got = self.sure_cache.get(mask)
            if got is not None:
                return got
        ok = True
        for i in self.opps if seats is None else seats:
            p_low, p_two, p_bomb = self.hold(i, mask, shape)
            if p_low or p_two or p_bomb:
                if self.pass_factor(i, mask, shape)[0] != 0.0:
                    ok = False
                    break
        if seats is None:
            self.sure_cache[mask] = ok
        return ok

    def win_p(self, mask: int, shape: int, seats, rho: float | None = None) -> float:
        """Chance that nobody in ``seats`` beats ``mask`` (each holder answers with chance
        ``rho``, default ``respond``)."""
        if rho is None:
            rho = self.p.respond
        q = 1.0
        for i in seats:
            q *= 1.0 - rho * self.beat_p(i, mask, shape)
        return q

    # -- the plan ------------------------------------------------------------------------------
    def cost(self, mask: int, shape: int) -> float:
        w = self.w_cache.get(mask)
        if w is None:
            w = self.win_p(mask, shape, self.opps, self.p.plan_respond)
            if shape == R.SINGLE and self.p.rank_power and self.U:
                # a high card becomes a boss as the cards above it are played: its share of
                # the unseen cards it beats is a floor on its control value
                below = (self.unseen & ((1 << mask.bit_length()) - 1)).bit_count()
                w = max(w, (below / self.U) ** self.p.rank_power)
            self.w_cache[mask] = w
        if shape > R.PAIR and shape not in self.bombs:
            # triples, straights: seldom led by others, so no way back to the lead; a boss of
            # these shapes is a free play, not a control
            return self.p.combo_cost - self.p.control_other * w
        return self.p.combo_cost - self.p.control * w

    def plan(self, mask: int) -> tuple[float, tuple]:
        """``(cost, combos)``: the cheapest split of ``mask`` into combinations ``(mask, shape)``."""
        return _split(self, mask, self.plan_memo, False)

    def value(self, mask: int, win: float = 0.0) -> float:
        """Score of keeping ``mask``: its plan cost, less ``out_bonus`` times ``win`` (the
        chance of winning the trick being played) when ``mask`` then goes out guaranteed."""
        c = self.plan(mask)[0]
        if win and self.p.out_bonus and _guaranteed_lead(self, mask) is not None:
            c -= self.p.out_bonus * win
        return c

    def sure_plan(self, mask: int) -> tuple[float, tuple]:
        """``(non-sure combinations, combos)``: the split with the fewest combinations that are
        not sure bosses (ties: fewer combinations)."""
        return _split(self, mask, self.sure_memo, True)


def _split(ctx: _Ctx, mask: int, memo: dict, sure_mode: bool) -> tuple[float, tuple]:
    if not mask:
        return 0.0, ()
    got = memo.get(mask)
    if got is not None:
        return got
    low = (mask & -mask).bit_length() - 1
    r = low >> 2
    sh = 4 * r
    nib = (mask >> sh) & 15

    if sure_mode:

        def cost(m, shape):
            return 0.001 if ctx.sure(m, shape) else 1.001
    else:
        cost = ctx.cost

    best_c = _INF
    best_p: tuple = ()
    # the rank's cards as same-rank sets, the rest split on its own
    sub_c, sub_p = _split(ctx, mask & ~_RANK[r], memo, sure_mode)
    for part in _PARTS[nib]:
        c = sub_c
        combos = []
        for s in part:
            m = s << sh
            shape = s.bit_count()
            c += cost(m, shape)
            combos.append((m, shape))
        if c < best_c:
            best_c, best_p = c, tuple(combos) + sub_p
    if r < 10:
        # straights from this rank (its lowest card; the top rank's lowest or highest card)
        body = 0
        j = r
        while j < _NON_TWO_RANKS:
            nj = (mask >> (4 * j)) & 15
            if not nj:
                break
            lo = (nj & -nj) << (4 * j)
            if j - r >= 2:
                hi = (1 << (nj.bit_length() - 1)) << (4 * j)
                shape = R.STRAIGHT + j - r + 1
                for t in (lo, hi) if hi != lo else (lo,):
                    m = body | t
                    c, p = _split(ctx, mask & ~m, memo, sure_mode)
                    c += cost(m, shape)
                    if c < best_c:
                        best_c, best_p = c, ((m, shape),) + p
            body |= lo
            j += 1
        # pair sequences from this rank (the two lowest cards; the top rank's two lowest or highest)
        body = 0
        j = r
        while j < _NON_TWO_RANKS:
            nj = (mask >> (4 * j)) & 15
            if nj.bit_count() < 2:
                break
            a = nj & -nj
            lo = (a | ((nj ^ a) & -(nj ^ a))) << (4 * j)
            if j - r >= 2:
                b = 1 << (nj.bit_length() - 1)
                hi = (b | (1 << ((nj ^ b).bit_length() - 1))) << (4 * j)
                shape = R.PAIRSEQ + j - r + 1
                for t in (lo, hi) if hi != lo else (lo,):
                    m = body | t
                    c, p = _split(ctx, mask & ~m, memo, sure_mode)
                    c += cost(m, shape)
                    if c < best_c:
                        best_c, best_p = c, ((m, shape),) + p
            body |= lo
            j += 1
    got = memo[mask] = (best_c, best_p)
    return got


# ---------------------------------------------------------------------------------------------
# the public history: what each seat passed on


def _pass_records(game, history, counts_now: list[int]) -> list[list[tuple[int, int, int]]]:
    """Per seat, ``(shape, top, cards held)`` of every voluntary pass (a pass by a seat that
    had not passed this round), replaying the table rules on the public history; ``counts_now``:
    the cards each seat holds after it."""
    n = len(counts_now)
    recs: list[list] = [[] for _ in range(n)]
    counts = list(counts_now)
    for seat, move in history:
        counts[seat] += move.bit_count()
    active = (1 << n) - 1
    top = top_shape = 0
    owner = -1
    passed = 0
    exc = False
    nxt = game._next
    finfo_tab = game._finfo
    first_out = True
    for seat, move in history:
        if move:
            counts[seat] -= move.bit_count()
            top, top_shape, owner = move, R.shape_of(move), seat
            passed &= ~(1 << seat)
            exc = finfo_tab[top_shape + 64 * (move >> 48 != 0)][1]
            if not counts[seat]:
                active &= ~(1 << seat)
                if first_out:
                    first_out = False
                    if game.options["cong_enabled"]:
                        for s in range(n):
                            if counts[s] == 13:
                                active &= ~(1 << s)
        else:
            if not passed >> seat & 1:
                recs[seat].append((top_shape, top, counts[seat]))
            passed |= 1 << seat
        s = nxt[seat]
        while s != owner:
            if active >> s & 1 and (exc or not passed >> s & 1):
                break
            s = nxt[s]
        else:
            top = top_shape = 0
            passed = 0
            exc = False
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
    me = state.cur
    hand = state.hands[me]
    if hand in legal:
        return hand  # go out now
    if len(legal) == 1:
        return legal[0]
    ctx = _Ctx(game, state, params or PARAMS)
    if state.top:
        move = _follow(game, state, ctx, legal)
    else:
        move = _lead(game, state, ctx, legal)
    if (
        len(ctx.opps) == 1
        and ctx.U == ctx.counts[ctx.opps[0]]
        and ctx.p.solve_nodes
        and ctx.U + hand.bit_count() <= ctx.p.solve_cards
    ):
        # the last opponent holds every unseen card: the rest of the game is known exactly
        solved = _solve_two(state, me, legal, move, ctx.p.solve_nodes)
        if solved is not None:
            return solved
    return move


class _Abort(Exception):
    pass


def _solve_two(state, me: int, legal: list[int], preferred: int, budget: int) -> int | None:
    """The best move by exact minimax (alpha-beta, the opponent minimising this seat's payoff)
    when one opponent is left and holds every unseen card, or None past ``budget`` positions.
    The heuristic choice ``preferred`` is kept unless a move is strictly better."""
    world = state.determinize(me, random.Random(0))  # the only world: no card is hidden
    solver = _TwoSolver(me, budget)

    def after(m: int):
        c = world.clone()
        c.apply_unchecked(m)
        return c

    try:
        v_pref = solver.value(after(preferred), -_INF, _INF)
        best, best_v = preferred, v_pref
        for m in legal:
            if m == preferred:
                continue
            x = solver.value(after(m), best_v + 1e-9, _INF)
            if x > best_v + 1e-9:
                best, best_v = m, solver.value(after(m), -_INF, _INF)
    except _Abort:
        return None
    return best


class _TwoSolver:
    """:func:`_solve_two`'s alpha-beta search with its transposition table (bounds per
    position) and its count of positions.  (An object rather than a recursive closure: a
    recursive closure is a reference cycle, garbage only the cyclic collector frees.)"""

    __slots__ = ("me", "budget", "nodes", "tt")

    def __init__(self, me: int, budget: int):
        self.me = me
        self.budget = budget
        self.nodes = 0
        self.tt: dict = {}

    def value(self, st, alpha: float, beta: float) -> float:
        """``me``'s payoff of ``st`` under best play by both seats, exact when it lies in
        (``alpha``, ``beta``), else a bound on the side it fell (fail-soft)."""
        me = self.me
        if st.cur < 0:
            return st.returns()[me]
        tt = self.tt
        key = (tuple(st.hands), st.top, st.cur, st.passed, st.owner, st.chain)
        lo, hi = tt.get(key, (-_INF, _INF))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        a0, b0 = alpha, beta
        alpha, beta = max(alpha, lo), min(beta, hi)
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Abort
        moves = st.legal_moves()
        hand = st.hands[st.cur]
        # finish first, then the plays that shed most cards, pass last (a stable sort: the
        # order of (m != hand, -cards) without a key tuple per move)
        moves.sort(key=int.bit_count, reverse=True)
        if moves[0] != hand and hand in moves:
            moves.remove(hand)
            moves.insert(0, hand)
        if st.cur == me:
            best = -_INF
            for m in moves:
                c = st.clone()
                c.apply_unchecked(m)
                x = self.value(c, alpha, beta)
                if x > best:
                    best = x
                    if x > alpha:
                        alpha = x
                        if alpha >= beta:
                            break
        else:
            best = _INF
            for m in moves:
                c = st.clone()
                c.apply_unchecked(m)
                x = self.value(c, alpha, beta)
                if x < best:
                    best = x
                    if x < beta:
                        beta = x
                        if alpha >= beta:
                            break
        if best <= a0:
            tt[key] = (lo, min(hi, best))
        elif best >= b0:
            tt[key] = (max(lo, best), hi)
        else:
            tt[key] = (best, best)
        return best


def _guaranteed_lead(ctx: _Ctx, hand: int) -> tuple | None:
    """A split of ``hand`` whose combinations are all sure bosses but at most one: the seat,
    on lead, goes out whatever the opponents hold.  Returns the combos, the one to finish with
    last (a combination holding 3♠ when that makes the finish đút mù), or None."""
    k, combos = ctx.sure_plan(hand)
    if k > 1.5:
        return None
    if ctx.dut_mu and hand & R.SPADE3:
        groups = R.generate(hand)
        for shape in sorted(groups):
            for c in groups[shape]:
                if c & R.SPADE3:
                    k2, combos2 = ctx.sure_plan(hand & ~c)
                    if k2 < 0.5:
                        return combos2 + ((c, shape),)
    bosses = tuple(c for c in combos if ctx.sure(*c))
    return bosses + tuple(c for c in combos if not ctx.sure(*c))


def _finish_danger(ctx: _Ctx, mask: int, shape: int, seats) -> float:
    """Chance that playing ``mask`` lets an opponent in ``seats`` out: it beats with its last
    cards, or wins the trick and leads out."""
    size = mask.bit_count()
    fin = ctx.p.fin_lead
    rho = ctx.p.respond
    q = 1.0
    for i in seats:
        n = ctx.counts[i]
        if n > size + len(fin) - 2:
            continue
        b = ctx.beat_p(i, mask, shape)
        if not b:
            continue
        if n == size:
            q *= 1.0 - b
        else:
            q *= 1.0 - rho * b * fin[n - size]
    return 1.0 - q


def _lead(game, state, ctx: _Ctx, legal: list[int]) -> int:
    p = ctx.p
    hand = ctx.hand
    # endgame: a guaranteed way out
    g = _guaranteed_lead(ctx, hand)
    if g is not None:
        cands = [c for c in g[:-1] if c[0] in legal] if len(g) > 1 else []
        if cands:
            return max(cands, key=lambda c: (c[0].bit_count(), c[0]))[0]
    seats = ctx.opps
    best, best_s = legal[0], _INF
    for m in legal:
        shape = R.shape_of(m)
        rest = hand & ~m
        w = ctx.win_p(m, shape, seats)
        c = ctx.value(rest, w)
        s = (
            c
            - p.lead_keep * w
            + p.danger_lead * _finish_danger(ctx, m, shape, seats)
            - p.lead_cards * m.bit_count()
        )
        s += p.money * _money(game, state, ctx, m, shape, seats)
        if ctx.dut_mu and m & R.SPADE3:
            s += p.keep_spade3
        s += _tiebreak(m)
        if _TRACE is not None:
            _TRACE.append((m, s, c, w, 0.0))
        if s < best_s:
            best, best_s = m, s
    return best


_TRACE = None  # a list: _follow / _lead append (move, score) pairs (debugging)


def _follow(game, state, ctx: _Ctx, legal: list[int]) -> int:
    p = ctx.p
    hand = ctx.hand
    top, top_shape, owner = state.top, state.top_shape, state.owner
    # seats that may still answer a play of ours in this round
    seats = [i for i in ctx.opps if not state.passed >> i & 1]
    if state.top >> 48 and top_shape == R.PAIR:
        seats = list(ctx.opps)
    # endgame: a sure boss now and a guaranteed way out after it
    for m in legal:
        if m and ctx.sure(m, R.shape_of(m), seats) and _guaranteed_lead(ctx, hand & ~m) is not None:
            return m
    base_c = ctx.value(hand)
    # pass: the top stays unless a later seat beats it
    later = [i for i in seats if i != owner]
    stand = 1.0
    for i in later:
        stand *= 1.0 - p.respond * ctx.beat_p(i, top, top_shape)
    d_pass = 0.0
    if owner != ctx.me and ctx.counts[owner]:
        k = ctx.counts[owner]
        if k < len(p.fin_lead):
            d_pass = stand * p.fin_lead[k]
    s_pass = base_c + p.danger_pass * d_pass
    if hand.bit_count() == 13 and ctx.opps and min(ctx.counts[i] for i in ctx.opps) <= p.cong_guard:
        s_pass += p.money * 2.0  # cóng costs two bets and more
    best, best_s = 0, s_pass
    for m in legal:
        if not m:
            continue
        shape = R.shape_of(m)
        rest = hand & ~m
        w = ctx.win_p(m, shape, seats)
        c = ctx.value(rest, w)
        s = c - p.lead_value * w + p.danger * _finish_danger(ctx, m, shape, seats)
        s += p.money * _money(game, state, ctx, m, shape, seats)
        if ctx.dut_mu and m & R.SPADE3:
            s += p.keep_spade3
        s += _tiebreak(m)
        if _TRACE is not None:
            _TRACE.append((m, s, c, w, _money(game, state, ctx, m, shape, seats)))
        if s < best_s:
            best, best_s = m, s
    return best


def _tiebreak(m: int) -> float:
    """Lower cards first, longer combinations first (tiny)."""
    return 1e-4 * ((m & -m).bit_length() - 1) / 52 - 1e-5 * m.bit_count()


def _money(game, state, ctx: _Ctx, m: int, shape: int, seats) -> float:
    """Expected loss in bets of playing ``m`` (negative: a gain): chops won or suffered."""
    table = game._table
    loss = 0.0
    top = state.top
    if top and shape in ctx.bombs:
        # a chop: the chain is paid to the last chopper by the last victim
        chain = state.chain[0] if state.chain is not None else 0.0
        v_top = R.combo_value(top, state.top_shape, table)
        victim_out = not state.hands[state.owner] and game.options["chop_void_if_victim_finished"]
        q = 1.0
        for i in seats:
            q *= 1.0 - ctx.hold(i, m, shape)[2] - ctx.hold(i, m, shape)[0]
        counter = 1.0 - q
        v_m = R.combo_value(m, shape, table)
        if ctx.chain_mode:
            gain = 0.0 if victim_out else chain + v_top
            loss -= (1.0 - counter) * gain
            loss += counter * (chain + v_top + v_m)
        else:
            loss -= 0.0 if victim_out else v_top
            loss += counter * v_m
    elif shape <= R.TRIPLE and m >> 48:
        # a 2-combination: the chance that it gets chopped
        q = 1.0
        for i in seats:
            q *= 1.0 - ctx.hold(i, m, shape)[2]
        loss += (1.0 - q) * R.combo_value(m, shape, table)
    return loss
