"""Phỏm (Tá lả): the position, :class:`PhomState` (the turn's phases as moves, apply, the end
of the game and its settlement, the zones and what each seat knows).

The game (options, deals, move text, bot wiring) is :class:`games.phom.game.PhomGame`; the move
values and the turn's phases are :mod:`games.phom.rules`' (the turn as moves: the module
docstring of :mod:`games.phom.game`); determinization is :mod:`games.phom.view`'s.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Hashable

from quansu.games.base import HAND_ZONES as _HAND_KEYS
from quansu.games.base import TERMINAL, Deal, IllegalMoveError, MoveParseError, State
from quansu.games.errors import Text
from quansu.games.phom import errors as _errors  # noqa: F401  (registers the texts)
from quansu.games.phom import rules as R
from quansu.games.phom import settle as S
from quansu.games.phom.rules import (
    DISCARD,
    DRAW,
    EAT,
    LAY,
    LAYDOWN,
    NORMAL,
    OVER,
    PHASE_NAMES,
    SEND,
    SEND_BASE,
    TAI,
    TAKE,
    U,
)
from quansu.games.phom.view import determinize as _determinize

if TYPE_CHECKING:
    from quansu.games.phom.game import PhomGame

#: Turn flags: something was laid or sent this turn / a card was sent this turn.
F_ACTED, F_SENT = 1, 2

_TO_INT = R.TO_INT
_TO_EXT = R.TO_EXT
#: zone names per seat, and the ext-id bit of each internal card (hot paths of the encoder)
_DISCARD_KEYS = tuple(f"discard{s}" for s in range(4))
_EXT_BIT = tuple(1 << R.TO_EXT[x] for x in range(52))


class PhomState(State):
    """A Phỏm position.  All masks are internal (:mod:`games.phom.rules`); :meth:`zones` and
    :meth:`known_cards` give project card ids.

    Public per seat: eaten cards still in hand (``eaten``), hand sizes, discard rows (``rows``,
    after card shifting), laid melds (``table``: ``(owner, mask, owner's own cards, eaten cards
    in it)``), lay-down order, tái turns, eat counts, stock size.  Hidden: the other hands' other
    cards, the stock order, the set-aside cards.
    """

    __slots__ = (
        "game",
        "n",
        "hands",
        "eaten",
        "rows",
        "stock",
        "sp",
        "aside",
        "table",
        "cur",
        "phase",
        "kind",
        "tflags",
        "s_now",
        "laid",
        "lay_order",
        "tai",
        "acted",
        "eats",
        "last",
        "starter",
        "pay",
        "liable",
        "hist",
        "result",
        "u_info",
        "_deal_src",
    )

    def __init__(self, game: PhomGame, deal: Deal):
        self.game = game
        n = game.num_players
        self.n = n
        self.hands = [R.mask_to_int(sum(1 << c for c in h)) for h in deal.hands]
        self.eaten = [0] * n
        self.rows = [()] * n
        self.stock = tuple(_TO_INT[c] for c in deal.stock)
        self.sp = 0
        self.aside = R.mask_to_int(sum(1 << c for c in deal.set_aside))
        self.table = []
        self.cur = deal.first
        self.phase = DISCARD
        self.kind = NORMAL
        self.tflags = 0
        self.s_now = len(self.stock)
        self.laid = 0
        self.lay_order = ()
        self.tai = 0
        self.acted = 1 << deal.first
        self.eats = [0] * n
        self.last = None
        self.starter = deal.first
        self.pay = []
        self.liable = -1
        self.hist = []
        self.result = None
        self.u_info = None
        self._deal_src = deal
        if game._auto:
            h = self.hands[self.cur]
            if game._khan and R.is_u_khan(h):
                self._finish_u(self.cur, "khan")
            elif R.can_u(h, 0, game._one):
                self._finish_u(self.cur, "take")

    # -- basic facts ---------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.cur

    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def deal(self) -> Deal:
        src = self._deal_src
        if isinstance(src, Deal):
            return src
        deal = _resolve_deal(src)
        self._deal_src = deal
        return deal

    @property
    def history(self) -> list:
        return self.hist

    @property
    def stock_left(self) -> int:
        """Cards left in the stock."""
        return len(self.stock) - self.sp

    def clone(self) -> "PhomState":
        c = PhomState.__new__(PhomState)
        c.game = self.game
        c.n = self.n
        c.hands = self.hands[:]
        c.eaten = self.eaten[:]
        c.rows = self.rows[:]
        c.stock = self.stock
        c.sp = self.sp
        c.aside = self.aside
        c.table = self.table[:]
        c.cur = self.cur
        c.phase = self.phase
        c.kind = self.kind
        c.tflags = self.tflags
        c.s_now = self.s_now
        c.laid = self.laid
        c.lay_order = self.lay_order
        c.tai = self.tai
        c.acted = self.acted
        c.eats = self.eats[:]
        c.last = self.last
        c.starter = self.starter
        c.pay = self.pay[:]
        c.liable = self.liable
        c.hist = self.hist[:]
        c.result = self.result
        c.u_info = self.u_info
        c._deal_src = self._deal_src
        return c

    # -- legal moves ---------------------------------------------------------------------------
    def legal_moves(self) -> list:
        """Legal moves of the seat to act (a new list each call; see the module doc for the
        values), in a deterministic order."""
        return self._gen()

    def _gen(self) -> list:
        ph = self.phase
        p = self.cur
        g = self.game
        if ph == DISCARD:
            h = self.hands[p]
            e = self.eaten[p]
            out = R.bits(h if not e else R.legal_discards(h, e, g._one))
            if not g._auto and self._u_available():
                out.append(U)
            return out
        if ph == TAKE:
            out = [DRAW]
            last = self.last
            if last is not None and R.can_eat(self.hands[p], self.eaten[p], last[0], g._one):
                out.append(EAT + last[0])
            if not g._auto and self._u_available():
                out.append(U)
            return out
        if ph == LAY:
            out = list(R.arrangements(self.hands[p], self.eaten[p], g._one, 1))
            if not g._auto and self._u_available():
                out.append(U)
            return out
        if ph == SEND:
            out = []
            h = self.hands[p]
            if h.bit_count() >= 2:
                own_ok = self.kind == TAI
                for i, (owner, m, _own, _e) in enumerate(self.table):
                    if owner == p and not own_ok:
                        continue
                    acc = R.meld_accepts(m) & h
                    while acc:
                        low = acc & -acc
                        out.append(SEND_BASE + 64 * i + low.bit_length() - 1)
                        acc ^= low
            # the discard ends the sending (and the turn): no 'done'
            e = self.eaten[p]
            out += R.bits(h if not e else R.legal_discards(h, e, g._one))
            if not g._auto and self._u_available():
                out.append(U)
            return out
        return []

    def _u_available(self) -> bool:
        """Whether a ``u`` declaration is legal now (only used when auto_declare_u is off)."""
        return self._u_kind() is not None

    def _u_kind(self) -> str | None:
        """The kind of Ù the seat to act could declare now ('khan', 'take', 'send', 'lay'), or
        None.  'take': the hand right after taking (or the opening hand) fits into melds with at
        most one card left; 'send' / 'lay': at most one card is left after laying and sending."""
        p = self.cur
        g = self.game
        h = self.hands[p]
        khan_ok = g._khan and R.is_u_khan(h)
        if self.phase == TAKE:
            return "khan" if khan_ok and not self.acted >> p & 1 else None
        if not self.tflags:
            if self.phase == SEND:
                return None
            if R.can_u(h, self.eaten[p], g._one):
                return "take"
            if khan_ok and not self.hist:
                return "khan"
            return None
        if h.bit_count() > 1:
            return None
        if self.tflags & F_SENT:
            return "send" if g._send_all else None
        return "lay"

    # -- applying ------------------------------------------------------------------------------
    def apply(self, move) -> None:
        if self.phase == OVER:
            raise IllegalMoveError.of("phom.game_over")
        t = type(move)
        ok = (t is int or t is tuple) and move in self._gen()
        if not ok:
            raise IllegalMoveError(self._why_illegal(move))
        self.apply_unchecked(move)

    def apply_unchecked(self, move) -> None:
        p = self.cur
        if type(move) is tuple:
            self.hist.append((p, move))
            self._do_lay(p, move)
        elif move < 52:
            self.hist.append((p, move))
            self._do_discard(p, move)
        elif move == DRAW:
            self.hist.append((p, move))
            x = self.stock[self.sp]
            self.sp += 1
            self.hands[p] |= 1 << x
            self._after_take(p)
        elif move < EAT + 52:
            self.hist.append((p, move))
            self._do_eat(p, move - EAT)
        elif move == U:
            how = self._u_kind() or "take"
            self.hist.append((p, move))
            self._finish_u(p, how)
        else:
            self.hist.append((p, move))
            i, x = divmod(move - SEND_BASE, 64)
            self._do_send(p, i, x)

    def _do_eat(self, p: int, x: int) -> None:
        g = self.game
        bit = 1 << x
        n = self.n
        v = (p - 1) % n
        _card, _seat, chot, rnd = self.last
        self.hands[p] |= bit
        self.eaten[p] |= bit
        k = self.eats[p] + 1
        self.eats[p] = k
        o = g.options
        amount = S.eat_payment(k, chot, x % 13 == R.K_RANK, rnd, o)
        if amount:
            self.pay.append((v, p, amount))
        if chot and o["den_an_chot"]:
            self.liable = p
        rows = self.rows
        rows[v] = rows[v][:-1]
        st = self.starter
        if v != st and rows[st]:
            moved = rows[st][-1]
            rows[st] = rows[st][:-1]
            rows[v] = rows[v] + (moved,)
        self.starter = (st + 1) % n
        self.last = None
        self._after_take(p)

    def _after_take(self, p: int) -> None:
        g = self.game
        self.acted |= 1 << p
        self.s_now = s = len(self.stock) - self.sp
        self.tflags = 0
        if g._auto and R.can_u(self.hands[p], self.eaten[p], g._one):
            self._finish_u(p, "take")
            return
        if self.laid >> p & 1:
            self.kind = TAI
            self.tai |= 1 << p
            self.phase = LAY
        elif s <= self.n - 1:
            self.kind = LAYDOWN
            self.phase = LAY
        else:
            self.kind = NORMAL
            self.phase = DISCARD

    def _do_lay(self, p: int, melds: tuple) -> None:
        h = self.hands[p]
        e = self.eaten[p]
        for m in melds:
            self.table.append((p, m, m, m & e))
            h &= ~m
        self.hands[p] = h
        self.eaten[p] = e & h
        if melds:
            self.tflags |= F_ACTED
        if self.kind == LAYDOWN:
            self.laid |= 1 << p
            self.lay_order = self.lay_order + (p,)
        self.phase = SEND if self._can_enter_send(p) else DISCARD

    def _can_enter_send(self, p: int) -> bool:
        if self.hands[p].bit_count() < 2:
            return False
        if self.kind == TAI:
            if not self.game._tai_send:
                return False
            has_own = False
            for t in self.table:
                if t[0] == p:
                    has_own = True
                    break
            return has_own
        has_own = False
        has_other = False
        for t in self.table:
            if t[0] == p:
                has_own = True
            else:
                has_other = True
        return has_own and has_other

    def _do_send(self, p: int, i: int, x: int) -> None:
        bit = 1 << x
        self.hands[p] ^= bit
        owner, m, own, em = self.table[i]
        self.table[i] = (owner, m | bit, own, em)
        self.tflags |= F_ACTED | F_SENT
        g = self.game
        left = self.hands[p].bit_count()
        if g._auto and g._send_all and left <= 1:
            self._finish_u(p, "send")
            return
        if left < 2:
            self.phase = DISCARD

    def _do_discard(self, p: int, x: int) -> None:
        self.hands[p] ^= 1 << x
        row = self.rows[p] + (x,)
        self.rows[p] = row
        n = self.n
        s = self.s_now
        self.last = (x, p, s <= n, len(row))
        if s == 0:
            self._finish_normal()
            return
        q = (p + 1) % n
        self.cur = q
        self.phase = TAKE
        self.kind = NORMAL
        self.tflags = 0
        g = self.game
        if g._auto and g._khan and not self.acted >> q & 1 and R.is_u_khan(self.hands[q]):
            self._finish_u(q, "khan")

    # -- settlement ----------------------------------------------------------------------------
    def _laid_natural(self, p: int) -> int:
        nat = 0
        for owner, _m, own, em in self.table:
            if owner == p:
                nat |= own & ~em
        return nat

    def _uk_of_table(self, p: int) -> int:
        """Ù K amount of seat p's laid melds (0, 5 or 10)."""
        best = 0
        for owner, _m, own, em in self.table:
            if owner == p and own & R.RANK_MASK[R.K_RANK] == own:
                best = max(best, S.u_k_amount((own & ~em).bit_count()))
        return best

    def _finish_u(self, w: int, how: str) -> None:
        """Game over by Ù of seat w.  ``how``: 'take' (hand arrangement after taking or at the
        opening), 'send' (gửi hết), 'lay' (laid all but one card), 'khan'."""
        g = self.game
        o = g.options
        n = self.n
        h = self.hands[w]
        e = self.eaten[w]
        one = g._one
        laid_before = bool(self.laid >> w & 1) or any(t[0] == w for t in self.table)
        if how == "khan":
            amount = o["u_khan_payment"]
        else:
            amount = o["u_payment"]
            if how == "take" and not laid_before:
                if o["u_tron_enabled"] and R.can_fill(h, e, one):
                    amount = max(amount, 10)
                # đồng hoa trắng: every card of the hand of one suit and in phỏm, none left
                # outside (a Ù that discards a trash card is a plain Ù, whatever its suit)
                if (
                    o["dong_hoa_trang_enabled"]
                    and any(h & ~R.SUIT_MASK[s] == 0 for s in range(4))
                    and R.can_fill(h, e, one)
                ):
                    amount = max(amount, 10)
        # bonuses of the Ù player from his melds: (đồng hoa, Ù K)
        dh = False
        uk = self._uk_of_table(w) if o["u_k_enabled"] else 0
        nat_laid = self._laid_natural(w)
        if o["dong_hoa_enabled"] and R.five_in_row(nat_laid):
            dh = True
        u_melds = ()
        if how == "take":
            best = None
            for arr in R.arrangements(h, e, one, 0):
                used = 0
                for m in arr:
                    used |= m
                if (h & ~used).bit_count() > 1:
                    continue
                a_dh = dh or (o["dong_hoa_enabled"] and R.five_in_row(nat_laid | (used & ~e)))
                a_uk = uk
                if o["u_k_enabled"]:
                    for m in arr:
                        if m & R.RANK_MASK[R.K_RANK] == m:
                            a_uk = max(a_uk, S.u_k_amount((m & ~e).bit_count()))
                score = (2 if a_dh else 0) + a_uk
                if best is None or score > best[0]:
                    best = (score, arr, a_dh, a_uk)
            if best is not None:
                _s, u_melds, dh, uk = best
        liable = -1
        if self.eats[w] >= 3:
            liable = (w - 1) % n
        elif o["den_an_chot"] and self.liable >= 0 and self.liable != w:
            liable = self.liable
        per = amount
        if o["u_thong_enabled"] and g._prev_u == w:
            per += 2
        if dh:
            per += 2
        ends = S.u_payments(w, n, per, liable)
        if o["u_k_enabled"]:
            uks = [uk if t == w else self._uk_of_table(t) for t in range(n)]
            ends += S.bonus_payments(uks, exclude=liable)
        self.u_info = (w, how, amount, liable, u_melds)
        self._end(ends)

    def points(self, seat: int) -> int:
        """Card points of the cards in ``seat``'s hand now (A=1 .. K=13)."""
        return R.points(self.hands[seat])

    def ranking(self) -> list[int]:
        """Seats from nhất to bét by the §9 rules (meaningful once everybody has laid down)."""
        n = self.n
        nm = [0] * n
        for t in self.table:
            nm[t[0]] += 1
        return S.rank_seats(
            [R.points(h) for h in self.hands],
            [not k for k in nm],
            [bool(self.tai >> s & 1) for s in range(n)],
            self.lay_order,
            self.game.options["tai_tiebreak"],
        )

    def _finish_normal(self) -> None:
        o = self.game.options
        n = self.n
        nm = [0] * n
        for t in self.table:
            nm[t[0]] += 1
        mom = [not k for k in nm]
        ends = S.rank_payments(self.ranking(), mom, o)
        if o["dong_hoa_enabled"]:
            ends += S.dong_hoa_payments([R.five_in_row(self._laid_natural(s)) for s in range(n)])
        if o["u_k_enabled"]:
            ends += S.bonus_payments([self._uk_of_table(s) for s in range(n)])
        self.u_info = None
        self._end(ends)

    def _end(self, ends: list) -> None:
        self.phase = OVER
        self.result = tuple(self.pay) + tuple(ends)

    def returns(self) -> list[float]:
        out = [0.0] * self.n
        if self.phase != OVER:
            return out
        for payer, payee, amt in self.result:
            out[payer] -= amt
            out[payee] += amt
        return out

    def settlement(self) -> list[tuple[int, int, float]]:
        if self.phase != OVER:
            return []
        return [(a, b, float(x)) for a, b, x in self.result]

    # -- information ---------------------------------------------------------------------------
    def observation(self, seat: int) -> Hashable:
        return (
            seat,
            self.cur,
            self.phase,
            self.kind,
            self.tflags,
            self.hands[seat],
            tuple(self.eaten),
            tuple(h.bit_count() for h in self.hands),
            tuple(self.rows),
            tuple(self.table),
            len(self.stock) - self.sp,
            self.starter,
            self.laid,
            self.lay_order,
            self.tai,
            self.acted,
            tuple(self.eats),
            self.last,
            self.liable,
            self.result,
        )

    def information_state_key(self, seat: int) -> Hashable:
        return self.observation(seat)

    def zones(self) -> dict[str, int]:
        ext = R.mask_to_ext
        z = {f"hand{s}": ext(self.hands[s]) for s in range(self.n)}
        stock = 0
        for x in self.stock[self.sp :]:
            stock |= 1 << x
        z["stock"] = ext(stock)
        z["set_aside"] = ext(self.aside)
        self._public_zones(z)
        return z

    def _public_zones(self, z: dict[str, int]) -> None:
        """Add the zones everyone sees to ``z``: each seat's discard row and the table."""
        for s in range(self.n):
            m = 0
            for x in self.rows[s]:
                m |= _EXT_BIT[x]
            z[_DISCARD_KEYS[s]] = m
        tab = 0
        for t in self.table:
            tab |= t[1]
        z["table"] = R.mask_to_ext(tab) if tab else 0

    def zone_sizes(self) -> dict[str, int]:
        # counts of the internal masks: no conversion to card ids needed
        z = {_HAND_KEYS[s]: self.hands[s].bit_count() for s in range(self.n)}
        z["stock"] = len(self.stock) - self.sp
        z["set_aside"] = self.aside.bit_count()
        for s in range(self.n):
            z[_DISCARD_KEYS[s]] = len(self.rows[s])
        tab = 0
        for t in self.table:
            tab |= t[1]
        z["table"] = tab.bit_count()
        return z

    def known_cards(self, seat: int) -> dict[str, int]:
        # the zones of :meth:`zones` as ``seat`` knows them: its own hand, the cards the others
        # ate (shown when eaten), nothing of the stock and the set-aside cards, every discard
        # row and the table (converted here directly: the encoder calls this at every node)
        ext = R.mask_to_ext
        out = {}
        for s in range(self.n):
            m = self.hands[s] if s == seat else self.eaten[s]
            out[_HAND_KEYS[s]] = ext(m) if m else 0
        out["stock"] = 0
        out["set_aside"] = 0
        self._public_zones(out)
        return out

    def determinize(self, seat: int, rng: random.Random) -> "PhomState":
        return _determinize(self, seat, rng)

    # -- text ----------------------------------------------------------------------------------
    def render(self, seat: int) -> str:
        n = self.n
        lines = [f"Phỏm, {n} players, you are seat {seat}; stock {self.stock_left} cards"]
        for s in range(n):
            tag = []
            if self.laid >> s & 1:
                tag.append("laid down")
            if self.tai >> s & 1:
                tag.append("tái")
            if self.eats[s]:
                tag.append(f"ate {self.eats[s]}")
            who = "you" if s == seat else f"{self.hands[s].bit_count()} cards"
            row = " ".join(R.card_text(x) for x in self.rows[s]) or "-"
            line = f"seat {s} ({who}{', ' + ', '.join(tag) if tag else ''}): discards {row}"
            if self.eaten[s]:
                line += f"; eaten (face up) {R.mask_text(self.eaten[s])}"
            lines.append(line)
        if self.table:
            lines.append("table:")
            for i, (owner, m, own, _e) in enumerate(self.table):
                sent = m & ~own
                extra = f" (sent: {R.mask_text(sent)})" if sent else ""
                lines.append(f"  [{i}] seat {owner}: {R.mask_text(m)}{extra}")
        lines.append(f"your hand: {R.mask_text(self.hands[seat])}")
        if self.phase == OVER:
            lines.append("game over")
            if self.u_info is not None:
                lines.append(f"seat {self.u_info[0]} Ù ({self.u_info[1]})")
        else:
            lines.append(f"to act: seat {self.cur} ({PHASE_NAMES[self.phase]})")
            if self.last is not None and self.phase == TAKE:
                lines.append(
                    f"last discard: {R.card_text(self.last[0])} by seat {self.last[1]}"
                    f"{' (chốt)' if self.last[2] else ''}"
                )
        return "\n".join(lines)

    def _why_illegal(self, move) -> str:
        g = self.game
        try:
            text = g.move_to_text(move)
        except MoveParseError:
            return Text("phom.not_a_move", move=move)
        p = self.cur
        ph = PHASE_NAMES[self.phase]
        info = g.describe_move(move)
        kind = info.kind
        expected = []
        for m in self.legal_moves():
            k = g.describe_move(m).kind
            if k not in expected:
                expected.append(k)
        phase_kinds = {
            TAKE: ("draw", "eat", "u"),
            LAY: ("lay", "u"),
            SEND: ("send", "discard", "u"),
            DISCARD: ("discard", "u"),
        }[self.phase]
        if kind not in phase_kinds:
            return Text(
                "phom.wrong_phase",
                text=text,
                p=p,
                join=" / ".join(expected),
                ph=Text(f"phom.phase_{ph}"),
            )
        h = self.hands[p]
        if kind == "eat":
            x = move - EAT
            if self.last is None or self.last[0] != x:
                cur = Text("phom.no_card") if self.last is None else R.card_text(self.last[0])
                return Text("phom.eat_only_last", text=text, cur=cur)
            return Text("phom.eat_no_meld", text=text, card_text=R.card_text(x))
        if kind == "discard":
            if not h >> move & 1:
                return Text("phom.card_not_in_hand", text=text, card_text=R.card_text(move), p=p)
            if self.eaten[p] >> move & 1:
                return Text("phom.discard_eaten", text=text, card_text=R.card_text(move))
            return Text("phom.discard_tied", text=text, card_text=R.card_text(move))
        if kind == "send":
            i, x = divmod(move - SEND_BASE, 64)
            if not h >> x & 1:
                return Text("phom.card_not_in_hand", text=text, card_text=R.card_text(x), p=p)
            if i >= len(self.table):
                return Text("phom.no_such_meld", text=text, i=i, n_table=len(self.table) - 1)
            if h.bit_count() < 2:
                return Text("phom.keep_last_card", text=text)
            return Text("phom.send_not_fit", text=text, card_text=R.card_text(x), i=i)
        if kind == "lay":
            used = 0
            for m in move:
                used |= m
            if used & ~h:
                return Text(
                    "phom.cards_not_in_hand", text=text, mask_text=R.mask_text(used & ~h), p=p
                )
            if self.eaten[p] & ~used:
                return Text(
                    "phom.lay_eaten", text=text, mask_text=R.mask_text(self.eaten[p] & ~used)
                )
            return Text("phom.lay_eaten_rule", text=text)
        if kind == "u":
            return Text("phom.no_u", text=text)
        return Text("phom.not_legal_now", text=text)


def _resolve_deal(src) -> Deal:
    """A determinized state's deal: the parent deal with the hidden cards permuted."""
    if isinstance(src, Deal):
        return src
    parent, (opp, hidden, new_hidden, stock_old, new_stock, aside, new_aside) = src
    base = _resolve_deal(parent)
    perm: dict[int, int] = {}
    pairs = [(R.bits(hidden[o]), R.bits(new_hidden[o])) for o in opp]
    pairs.append((list(stock_old), list(new_stock)))
    pairs.append((R.bits(aside), R.bits(new_aside)))
    for old, new in pairs:
        for a, b in zip(old, new):
            if a != b:
                perm[_TO_EXT[a]] = _TO_EXT[b]

    def m(c: int) -> int:
        return perm.get(c, c)

    return Deal(
        hands=tuple(tuple(m(c) for c in h) for h in base.hands),
        first=base.first,
        stock=tuple(m(c) for c in base.stock),
        set_aside=tuple(m(c) for c in base.set_aside),
        trump=base.trump,
        extra=base.extra,
    )
