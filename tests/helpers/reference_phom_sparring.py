"""Reference Phỏm sparring valuation.

The methods of ``games/phom/sparring.py``'s ``_Ctx`` before the typed card loops (commit
3fb60d9: ``hand_value`` over lists of card indices, ``_eat_chance`` and ``u_chance`` on Python
ints, ``eat_cost`` computed at every call), kept for tests/games/test_speed_equivalence.py: the
optimised bot must give the same values and choose the same move as these in every state.
Copied unchanged (without their Cython declarations) onto a subclass of today's ``_Ctx``, whose
``__init__`` they share.  Not used by the package.
"""

from __future__ import annotations

from quansu.games.phom import rules as R
from quansu.games.phom import settle as S
from quansu.games.phom.sparring import _CA, _OUTS, _REST, _U1, _Ctx


class ReferenceCtx(_Ctx):
    """``_Ctx`` with the valuation of commit 3fb60d9."""

    def _eat_chance(self, c: int) -> float:
        unseen = self.unseen
        pf = self.pfree
        excl = self.excl
        q = 1.0
        for r in _REST[c]:
            if r & unseen != r and (self.one or r & ~unseen & ~self.eaten_nxt):
                continue
            low = r & -r
            pr = pf[low.bit_length() - 1] * pf[(r ^ low).bit_length() - 1]
            f = excl.get(r)
            if f is not None:
                pr *= f
            q *= 1.0 - min(pr, 1.0)
        return 1.0 - q

    def eat_cost(self, c: int = -1) -> float:
        """What it costs (bets) when the next seat eats this turn's discard ``c``: the eat
        payment, and on its third eat the whole Ù money (đền)."""
        k = self.eats[self.nxt] + 1
        king = c >= 0 and c % 13 == R.K_RANK
        cost = S.eat_payment(k, self.s_now <= self.n, king, self.round_me, self.opts)
        if k >= 3:
            cost += self.u_money
        return cost + self.p.progress

    def hand_value(self, h: int, e: int) -> float:
        """Value in bets of keeping the hand ``h`` (eaten cards ``e``) after the discard."""
        p = self.p
        dw, melded = R.min_deadwood(h, e, self.one)
        if dw >= 10**6:
            return -1e9
        dead = dead_all = h & ~melded
        pts = R.POINTS
        if melded and not self.laid_me:
            free = self.free_sends(dead)
            if free:
                dead &= ~free
                dw -= R.points(free)
        takes = self.takes
        if not takes:
            return -p.end_point * dw
        cards = R.bits(dead)
        # the cards still dead at the lay-down: the lowest; the others go in later discards
        keep = len(cards) - takes * p.fp_turns
        fp = 0.0
        if keep > 0:
            for v in sorted([pts[x] for x in cards]):
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
        for x in cards:
            part = _CA[x] & h & ~(_U1 << x)
            # a pair of dead cards is counted once, from its lower card
            part &= ~(dead & ((_U1 << (x + 1)) - 1))
            for y in R.bits(part):
                lo = _U1 << y
                outs = _OUTS[(_U1 << x) | lo] & unseen
                if not outs:
                    continue
                all_outs |= outs
                n_live = 0.0
                for u in R.bits(outs):
                    n_live += 1.0 - live[u]
                pc = 1.0 - (1.0 - rate) ** n_live
                if dead & lo:
                    saved = pts[x] + pts[y]
                    gain += pc * (ca_w * saved + ca_meld)
                else:  # a dead card with a card of a phỏm: half as good
                    gain += 0.5 * pc * (ca_w * pts[x] + ca_meld)
        val += gain
        if not melded and not e:
            miss = 1.0
            for u in R.bits(all_outs):
                miss *= 1.0 - rate * (1.0 - live[u])
            val -= p.mom * miss
        if len(cards) <= 3 and p.u_share:
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
        for u in R.bits(near & self.unseen):
            if R.can_u(h | (1 << u), e, one):
                miss *= 1.0 - self.rate * (1.0 - self.live[u])
        return 1.0 - miss
