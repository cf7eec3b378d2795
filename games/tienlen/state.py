"""Tiến lên miền Nam: the :class:`TienLenState` of ``docs/rules/tienlen.md`` (a position: move
generation, apply, settlement, determinization) and its move-generation helpers.

The part of the game the compiled core needs (``search/compiled.py``'s ``CORE``; compiled, the
state is an extension type laid out by ``quansu.games.tienlen.state.pxd``).  The
:class:`~games.tienlen.game.TienLenGame` (options, deals, move text, bot wiring) is in
:mod:`games.tienlen.game`, which re-exports the public names of this one.

Speed notes (search calls clone / determinize / legal_moves / apply thousands of times per
second): the state is a flat ``__slots__`` object of ints, small lists and shared immutable
tuples; every seat keeps the combinations of its hand grouped by shape, generates each family
of shapes (sets, straights, pair sequences) only when first needed, and, when its hand
shrinks, filters the groups it needs instead of regenerating; a hand's lead list is built once
and shared by clones.  See ``TienLenState._cache``.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from typing import TYPE_CHECKING, Any, Hashable

try:
    import cython
except ImportError:  # no Cython installed: the same code runs untyped (games/_cy.py)
    from quansu.games import _cy as cython

from quansu.games.base import TERMINAL, Deal, IllegalMoveError, State
from quansu.games.cards import cards_of, format_cards, shuffle
from quansu.games.errors import Text
from quansu.games.tienlen import rules as R
from quansu.games.tienlen.errors import shape_text
from quansu.games.tienlen.rules import lowest_combination as _lowest_combination

if TYPE_CHECKING:  # annotations only: the game module imports this one
    from quansu.games.tienlen.game import TienLenGame

NUM_DEALT = 13


_UNSET = object()
_FAM = tuple(R.family(sh) for sh in range(64))
_GENERATORS = R.GENERATORS
_GEN_ITEMS = tuple(sorted(R.GENERATORS.items()))


def _group(g: list, shape: int):
    """The ascending combinations of one shape in the hand of seat cache ``g`` (see
    ``TienLenState._cache``), or None."""
    memo = g[4]
    lst = memo.get(shape, _UNSET)
    if lst is not _UNSET:
        return lst
    fam = _FAM[shape]
    if not g[5] & fam:  # first use of this family: generate it for the current hand
        d = _GENERATORS[fam](g[0])
        g[1] = {**g[1], **d}  # copy: older caches of the seat share the old dict
        g[5] |= fam
        memo.update(d)
        lst = d.get(shape)
    else:
        lst = g[1].get(shape)
        if lst and g[2] != g[0]:
            rem = g[2] ^ g[0]
            lst = [m for m in lst if not m & rem] or None
    memo[shape] = lst
    return lst


def _lead(g: list) -> tuple:
    """Every combination of the seat cache's hand in lead order (by shape, then ascending);
    rebases the cache on its hand."""
    hand = g[0]
    base = g[1]
    if g[2] != hand:
        rem = g[2] ^ hand
        memo = g[4]
        new = {}
        for sh, lst in base.items():
            f = memo.get(sh, _UNSET)
            if f is _UNSET:
                f = [m for m in lst if not m & rem]
            if f:
                new[sh] = f
        base = new
    missing = 7 & ~g[5]  # R.ALL_FAMS
    if missing:
        if base is g[1]:
            base = dict(base)
        for fam, gen in _GEN_ITEMS:
            if missing & fam:
                base.update(gen(hand))
        g[5] = 7
    g[1] = base
    g[2] = hand
    g[4] = {}
    out: list[int] = []
    for sh in sorted(base):
        out += base[sh]
    lead = g[3] = tuple(out)
    return lead


class TienLenState:
    """A Tiến lên position.

    Public fields (read-only for callers): ``hands[s]`` (mask), ``played[s]`` (mask of cards
    seat s played), ``top`` (mask of the combination to beat, 0 when the seat to act leads),
    ``owner`` (seat that played ``top``), ``passed`` (bitmask of seats that passed this round),
    ``finish`` (seats in finishing order), ``cong`` (cóng seats).
    """

    __slots__ = (
        "game",
        "hands",
        "played",
        "cur",
        "top",
        "top_shape",
        "owner",
        "passed",
        "active",
        "finfo",
        "req",
        "aside",
        "first",
        "finish",
        "cong",
        "chain",
        "transfers",
        "end",
        "instant",
        "_hist",
        "_gen",
        "_deal",
        "_result",
    )

    # the rest of :class:`State`'s interface (TienLenState implements it without deriving from it:
    # compiled, it is an extension type, quansu.games.tienlen.state.pxd, and those cannot derive
    # from a Python class)
    zone_sizes = State.zone_sizes
    out_of_turn_reason = State.out_of_turn_reason
    trump_card = State.trump_card

    def __str__(self) -> str:
        return State.__str__(self)

    # -- construction --------------------------------------------------------------------
    def _init(
        self, game: TienLenGame, masks: list[int], aside: int, first: int, deal: Deal | None
    ) -> None:
        n = game.num_players
        self.game = game
        self.hands = masks
        self.played = [0] * n
        self.aside = aside
        self.first = first
        self.top = 0
        self.top_shape = 0
        self.owner = first
        self.passed = 0
        self.active = (1 << n) - 1
        self.finfo = None
        self.req = 0
        self.finish = ()
        self.cong = ()
        self.chain = None
        self.transfers = ()
        self.end = ""
        self.instant = -1
        self._hist = []
        self._gen = [None] * n
        self._deal = deal
        self._result = None
        self.cur = first
        if game._require_first:
            dealt = ((1 << 52) - 1) & ~aside
            self.req = dealt & -dealt
        if game._instant:
            o = game.options
            fg, extra, flush = (
                o["first_game"],
                o["instant_win_first_game_extra"],
                o["instant_win_flush_rule"],
            )
            for k in range(n):
                s = (first + k) % n
                if R.instant_win(masks[s], fg, extra, flush):
                    self.instant = s
                    self.finish = (s,)
                    self._finish_game("instant")
                    break

    def clone(self) -> "TienLenState":
        c = TienLenState.__new__(TienLenState)
        c.game = self.game
        c.hands = self.hands[:]
        c.played = self.played[:]
        c.cur = self.cur
        c.top = self.top
        c.top_shape = self.top_shape
        c.owner = self.owner
        c.passed = self.passed
        c.active = self.active
        c.finfo = self.finfo
        c.req = self.req
        c.aside = self.aside
        c.first = self.first
        c.finish = self.finish
        c.cong = self.cong
        c.chain = self.chain
        c.transfers = self.transfers
        c.end = self.end
        c.instant = self.instant
        c._hist = self._hist[:]
        c._gen = self._gen[:]
        c._deal = self._deal
        c._result = self._result
        return c

    # -- basic queries -------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.cur

    def is_terminal(self) -> bool:
        return self.cur < 0

    @property
    def history(self) -> list[tuple[int, int]]:
        return list(self._hist)

    @property
    def deal(self) -> Deal:
        d = self._deal
        if d is None:
            n = self.game.num_players
            d = Deal(
                hands=tuple(tuple(cards_of(self.hands[s] | self.played[s])) for s in range(n)),
                first=self.first,
                set_aside=tuple(cards_of(self.aside)),
            )
            self._deal = d
        return d

    # -- move generation -----------------------------------------------------------------
    # Every seat has a cache g = [hand, base, base_hand, lead, memo, families] for its current
    # hand.  States with the same hand for that seat (clones) share g; a new g is made when
    # the hand changes, so filling g in place is safe.
    #   base: shape -> ascending masks, generated for base_hand or for a later (smaller) hand
    #         of the same seat; the combinations of `hand` among them are those that avoid
    #         base_hand ^ hand (a sub-hand's combinations are the hand's that lie within it);
    #   families: bits of the shape families in base (a shape of a generated family with no
    #         entry has no combination; other families are generated when first needed);
    #   memo: shape -> the list for `hand` exactly (or None: no such combination);
    #   lead: every combination of `hand` in lead order, or None until needed.
    def _cache(self, seat: int) -> list:
        g = self._gen[seat]
        hand = self.hands[seat]
        if g is not None:
            if g[0] == hand:
                return g
            if g[0] & hand == hand:
                g = [hand, g[1], g[2], None, {}, g[5]]
                self._gen[seat] = g
                return g
        g = [hand, {}, hand, None, {}, 0]
        self._gen[seat] = g
        return g

    def legal_moves(self) -> list[int]:
        """Legal moves of the seat to act, a new list: a leader's plays (by shape, then
        ascending), or ``0`` (pass) followed by the plays that beat the top.  Empty iff
        terminal."""
        seat = self.cur
        if seat < 0:
            return []
        g = self._gen[seat]
        if g is None or g[0] != self.hands[seat]:
            g = self._cache(seat)
        top = self.top
        if not top:
            lead = g[3]
            if lead is None:
                lead = _lead(g)
            if self.req:
                req = self.req
                return [m for m in lead if m & req]
            return list(lead)
        res = [0]
        shape = self.top_shape
        if not self.passed >> seat & 1:
            hand = g[0]
            # a same-shape play needs as many cards and a card above the top's highest card
            tb = top.bit_length()
            if shape == 1:  # singles: the hand's cards above the top card, ascending
                h = hand >> tb << tb
                while h:
                    low = h & -h
                    res.append(low)
                    h ^= low
            elif hand.bit_length() > tb and hand.bit_count() >= top.bit_count():
                same = g[4].get(shape, _UNSET)
                if same is _UNSET:
                    same = _group(g, shape)
                if same and same[-1] > top:
                    res += same[bisect_left(same, 1 << tb) :]
            for sh in self.finfo[0]:
                b = _group(g, sh)
                if b:
                    res += b
        else:  # offered a turn by the four_pairs_ignore_pass exception
            _, _, exc_any, exc_same = self.finfo
            if exc_same:
                same = _group(g, shape)
                if same and same[-1] > top:
                    res += same[bisect_left(same, 1 << top.bit_length()) :]
            for sh in exc_any:
                b = _group(g, sh)
                if b:
                    res += b
        return res

    def lowest_play(self, bomb: bool) -> int:
        """The lowest play (the smallest mask) among the legal moves of the seat to act whose
        shape is one of the rules' bombs (``bomb``), or is not (``not bomb``); 0 when there is
        none.  ``min((m for m in legal_moves()[1:] if (shape_of(m) in bombs) == bomb),
        default=0)`` without listing the moves; only while a top is on the table."""
        seat = self.cur
        hand = self.hands[seat]
        if not cython.compiled:  # uncompiled, the seat's cached lists are faster than the loop
            g = self._gen[seat]
            if g is None or g[0] != hand:
                g = self._cache(seat)
        top = self.top
        shape = self.top_shape
        bombs = self.game._bombs
        if not self.passed >> seat & 1:
            same_ok, anys = True, self.finfo[0]
        else:  # offered a turn by the four_pairs_ignore_pass exception
            _, _, anys, same_ok = self.finfo
        best = 0
        if same_ok and (shape in bombs) == bomb:
            tb = top.bit_length()
            if shape == 1:  # singles: the lowest card above the top card
                h = hand >> tb << tb
                best = h & -h
            elif cython.compiled:  # the lowest of the shape whose top card is above the top's
                best = _lowest_combination(hand, shape, tb)
            else:
                same = _group(g, shape)
                if same and same[-1] > top:
                    best = same[bisect_left(same, 1 << tb)]
        for sh in anys:
            if (sh in bombs) == bomb:
                if cython.compiled:
                    b = _lowest_combination(hand, sh, 0)
                else:
                    b = _group(g, sh)
                    b = b[0] if b else 0
                if b and (not best or b < best):
                    best = b
        return best

    def follow_rule(self) -> tuple[int, int, tuple]:
        """What the seat to act may play on the top, as ``(same, bits, shapes)``: a
        combination ``m`` of its hand with shape ``sh`` is legal iff ``sh == same and
        m.bit_length() > bits`` (same shape, higher top card; ``same`` is -1 when that is not
        allowed) or ``sh in shapes`` (the bombs allowed on anything of the top's kind).  The
        membership test of :meth:`legal_moves` without listing the moves; only while a top is
        on the table."""
        if not self.passed >> self.cur & 1:
            return self.top_shape, self.top.bit_length(), self.finfo[0]
        _, _, exc_any, exc_same = self.finfo
        return (self.top_shape if exc_same else -1), self.top.bit_length(), exc_any

    # -- applying moves ------------------------------------------------------------------
    def apply(self, move: Any) -> None:
        if self.cur < 0:
            raise IllegalMoveError.of("tienlen.game_over")
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError.of("tienlen.not_a_move_value", move=move)
        if move not in self.legal_moves():
            raise IllegalMoveError(self._why_illegal(move))
        self.apply_unchecked(move)

    def _why_illegal(self, move: int) -> str:
        seat = self.cur
        if move < 0 or move >> 52:
            return Text("tienlen.not_a_move_value", move=move)
        if move == 0:
            return Text("tienlen.lead_cannot_pass", seat=seat)
        text = format_cards(move)
        missing = move & ~self.hands[seat]
        if missing:
            return Text("tienlen.not_in_hand", cards=format_cards(missing), seat=seat)
        shape = R.classify(move)
        if not shape:
            return Text("tienlen.not_combination", text=text)
        if not self.top:
            if self.req and not move & self.req:
                return Text("tienlen.first_lead_must_contain", cards=format_cards(self.req))
            return Text("tienlen.not_legal_now", text=text)
        top_text = format_cards(self.top)
        if self.passed >> seat & 1:
            if self.finfo[1]:
                return Text("tienlen.passed_may_pass_or_sequence", seat=seat)
            return Text("tienlen.passed_may_only_pass", seat=seat)
        if shape == self.top_shape:
            return Text("tienlen.does_not_beat", text=text, top_text=top_text)
        return Text(
            "tienlen.wrong_shape",
            text=text,
            shape=shape_text(shape),
            top_text=top_text,
            top_shape=shape_text(self.top_shape),
        )

    def apply_unchecked(self, move: int) -> None:
        seat = self.cur
        self._hist.append((seat, move))
        game = self.game
        if move:
            hand = self.hands[seat] ^ move
            self.hands[seat] = hand
            self.played[seat] |= move
            self.req = 0
            # shape_of, inlined: card count and rank span decide
            n = move.bit_count()
            if n == 1:
                shape = 1
            else:
                span = ((move.bit_length() - 1) >> 2) - (((move & -move).bit_length() - 1) >> 2) + 1
                shape = n if span == 1 else (R.STRAIGHT + n if span == n else R.PAIRSEQ + span)
            if self.top and shape in game._bombs:
                self._chop(seat, shape, game)
            self.top = move
            self.top_shape = shape
            owner = self.owner = seat
            passed = self.passed = self.passed & ~(1 << seat)
            finfo = self.finfo = game._finfo[shape + 64] if move >> 48 else game._finfo[shape]
            if not hand:
                self._finished(seat, move, game)
                if self.cur < 0:
                    return
        else:
            passed = self.passed = self.passed | (1 << seat)
            owner = self.owner
            finfo = self.finfo
        # the next seat to act: skip seats out of play and (outside the exception) seats that
        # passed; reaching the top's owner ends the round
        nxt = game._next
        active = self.active
        exc = finfo[1]
        s = nxt[seat]
        while s != owner:
            if active >> s & 1 and (exc or not passed >> s & 1):
                self.cur = s
                return
            s = nxt[s]
        # the round ends: the top's owner leads, or the next seat with cards (hưởng sái)
        if self.chain is not None:
            self._settle_chain()
        while not active >> s & 1:
            s = nxt[s]
        self.cur = s
        self.top = 0
        self.top_shape = 0
        self.passed = 0
        self.finfo = None

    def _chop(self, seat: int, shape: int, game: TienLenGame) -> None:
        """A chop event: ``seat`` plays a bomb on the top (a 2-combination or a bomb)."""
        victim = self.owner
        v = R.combo_value(self.top, self.top_shape, game._table)
        if game.options["chop_chain_last_victim_pays_all"]:
            ch = self.chain
            self.chain = (v if ch is None else ch[0] + v, victim, seat)
        else:
            if not (game.options["chop_void_if_victim_finished"] and not self.hands[victim]):
                self.transfers += ((victim, seat, v),)

    def _settle_chain(self) -> None:
        ch = self.chain
        if ch is not None:
            self.chain = None
            v, victim, chopper = ch
            if self.game.options["chop_void_if_victim_finished"] and not self.hands[victim]:
                return
            if v:
                self.transfers += ((victim, chopper, v),)

    def _finished(self, seat: int, move: int, game: TienLenGame) -> None:
        """``seat`` played its last card with ``move``."""
        self.active &= ~(1 << seat)
        first = not self.finish
        self.finish += (seat,)
        o = game.options
        if first:
            if o["cong_enabled"]:
                n = game.num_players
                cong = []
                for k in range(1, n):
                    s = (seat + k) % n
                    if self.hands[s].bit_count() == NUM_DEALT:
                        cong.append(s)
                        self.active &= ~(1 << s)
                self.cong = tuple(cong)
            if not game._ranking:
                self._finish_game("count")
                return
            if (
                o["dut_mu_enabled"]
                and move & R.SPADE3
                and (not o["dut_mu_single_only"] or move == R.SPADE3)
            ):
                self._finish_game("dut_mu")
                return
        if self.active & (self.active - 1) == 0:  # at most one seat still plays
            self._finish_game("ranking")

    # -- end of game and settlement ------------------------------------------------------
    def _finish_game(self, reason: str) -> None:
        self.end = reason
        self.cur = TERMINAL
        game = self.game
        o = game.options
        n = game.num_players
        table = game._table
        thoi = o["thoi_enabled"]
        out = []
        if reason == "instant":
            w = self.instant
            pay = o["instant_win_payment"]
            for s in range(n):
                if s != w and pay:
                    out.append((s, w, pay))
            self.transfers = tuple(out)
        else:
            self._settle_chain()
            out = list(self.transfers)
            w = self.finish[0]
            cong = self.cong
            mult = o["cong_multiplier"]
            if reason == "count":
                unit = o["count_unit"]
                for k in range(1, n):
                    s = (w + k) % n
                    h = self.hands[s]
                    amt = (NUM_DEALT * mult if s in cong else h.bit_count()) * unit
                    if thoi:
                        amt += R.thoi_value(h, table)
                    if amt:
                        out.append((s, w, amt))
            elif reason == "dut_mu":
                for k in range(1, n):
                    s = (w + k) % n
                    h = self.hands[s]
                    amt = mult if s in cong else game._rank_pay[0]
                    if thoi:
                        amt += R.thoi_value(h, table)
                    if amt:
                        out.append((s, w, amt))
            else:  # ranking
                remaining = [s for s in range(n) if self.active >> s & 1]
                ranks = list(self.finish) + remaining + list(cong)
                pairs = [(ranks[-1], ranks[0], game._rank_pay[0])]
                if n == 4:
                    pairs.append((ranks[2], ranks[1], game._rank_pay[1]))
                for payer, payee, amt in pairs:
                    if payer not in cong and amt:
                        out.append((payer, payee, amt))
                for s in cong:
                    amt = mult + (R.thoi_value(self.hands[s], table) if thoi else 0.0)
                    if amt:
                        out.append((s, w, amt))
                if thoi and remaining:
                    last = remaining[0]
                    v = R.thoi_value(self.hands[last], table)
                    if v:
                        payee = self.finish[-1] if o["thoi_payee"] == "previous_finisher" else w
                        out.append((last, payee, v))
            self.transfers = tuple(out)
        ret = [0.0] * n
        for payer, payee, amt in self.transfers:
            ret[payer] -= amt
            ret[payee] += amt
        self._result = ret

    def returns(self) -> list[float]:
        if self._result is None:
            return [0.0] * self.game.num_players
        return list(self._result)

    def settlement(self) -> list[tuple[int, int, float]]:
        if self.cur >= 0:
            return []
        return list(self.transfers)

    def endgame_size(self) -> int:
        """Cards still in the hands of the seats in play (exact endgames, :mod:`search.endgame`)."""
        a = self.active
        return sum(h.bit_count() for s, h in enumerate(self.hands) if a >> s & 1)

    def endgame_key(self) -> Hashable:
        """Hands, seat to act, trick (top, owner, passes), seats in play, the first-lead
        requirement, finishers, cóng seats, the open chop chain and the transfers so far:
        everything the continuations and the payoffs depend on."""
        return (
            tuple(self.hands),
            self.cur,
            self.top,
            self.owner,
            self.passed,
            self.active,
            self.req,
            self.finish,
            self.cong,
            self.chain,
            self.transfers,
        )

    def next_first(self) -> int:
        """The seat that leads the next game of the session: the first finisher (nhất) or
        the instant winner (docs/rules/tienlen.md); -1 before the end."""
        return self.finish[0] if self.cur < 0 and self.finish else -1

    def ranking(self) -> list[int]:
        """Seats from first to last place at the end of a ranking-mode game (finishers, the
        seat left holding cards, then cóng seats); before the end, the finishers so far."""
        if self.cur >= 0 or self.end != "ranking":
            return list(self.finish)
        n = self.game.num_players
        return list(self.finish) + [s for s in range(n) if self.active >> s & 1] + list(self.cong)

    # -- information ---------------------------------------------------------------------
    def observation(self, seat: int) -> Hashable:
        """``(seat, own hand mask, first seat, moves in order, instant winner or -1)``: the
        public history (every play and pass; the order of moves fixes who made each) plus the
        seat's own cards.  Everything else a seat knows follows from these."""
        return (seat, self.hands[seat], self.first, tuple(m for _, m in self._hist), self.instant)

    def information_state_key(self, seat: int) -> Hashable:
        return self.observation(seat)

    def sibling_key(self, seat: int) -> Hashable:
        """``(seat's hand mask, instant winner or -1)``: every move is public and
        :meth:`observation` holds them all, so siblings (states after one same move from states
        of one information set) share the history and the first seat."""
        return (self.hands[seat], self.instant)

    def zones(self) -> dict[str, int]:
        """``hand0..hand{N-1}``, ``played`` (every card played so far), ``set_aside``."""
        z = {f"hand{s}": h for s, h in enumerate(self.hands)}
        pl = 0
        for m in self.played:
            pl |= m
        z["played"] = pl
        z["set_aside"] = self.aside
        return z

    def _known_aside(self) -> int:
        """Set-aside cards whose place everybody knows: with the first-lead rule, every card
        below the first play's lowest card was not dealt."""
        if not self.game._require_first:
            return 0
        for _, m in self._hist:
            if m:
                return (m & -m) - 1
        return 0

    def known_cards(self, seat: int) -> dict[str, int]:
        """The seat's own hand, every played card, the set-aside cards implied by the first-lead
        rule, and (4 players, before the first play under that rule) 3♠ in the leader's hand."""
        n = self.game.num_players
        z = {f"hand{s}": 0 for s in range(n)}
        z[f"hand{seat}"] = self.hands[seat]
        if self.req and n == 4:
            z[f"hand{self.first}"] |= self.req
        pl = 0
        for m in self.played:
            pl |= m
        z["played"] = pl
        z["set_aside"] = self._known_aside()
        return z

    @cython.locals(
        cards=list,
        k=cython.Py_ssize_t,
        size=cython.Py_ssize_t,
        c=cython.int,
        m=cython.ulonglong,
        aside=cython.ulonglong,
        one=cython.ulonglong,
    )
    def determinize(self, seat: int, rng: random.Random) -> "TienLenState":
        """Redraw the cards ``seat`` cannot locate (other hands and the set-aside pile) with the
        same counts.  Draws whose deal would have been an instant win, or would break the
        first-lead rule, are redrawn (up to 100 tries, then the last draw is kept)."""
        game = self.game
        n = game.num_players
        det = self.clone()
        hands = det.hands
        played = self.played
        first = self.first
        lead_card = self.req if n == 4 else 0  # 4 players: 3S is known to be with the leader
        pool = self.aside
        others = []
        for s in range(n):
            if s != seat:
                pool |= hands[s]
                others.append(s)
        if game._require_first:
            pool &= ~(lead_card | self._known_aside())
        # the pool's cards, ascending (bit string read backwards)
        cards = [i for i, ch in enumerate(bin(pool)[:1:-1]) if ch == "1"]
        sizes = [(s, hands[s].bit_count() - (s == first and lead_card != 0)) for s in others]
        check_instant = game._instant and self.cur >= 0
        check_first = self.req and n < 4
        opts = game.options
        fg, extra, flush = (
            opts["first_game"],
            opts["instant_win_first_game_extra"],
            opts["instant_win_flush_rule"],
        )
        one = 1
        k = 0
        for _ in range(100):
            shuffle(cards, rng)
            k = 0
            for s, size in sizes:
                m = lead_card if s == first else 0
                for c in cards[k : k + size]:
                    m |= one << c
                k += size
                hands[s] = m
            if check_instant:
                instant = False
                for s in others:  # a loop, not any(<generator>): no generator object a draw
                    if R.instant_win(hands[s] | played[s], fg, extra, flush):
                        instant = True
                        break
                if instant:
                    continue
            if check_first:
                dealt = 0
                for s in range(n):
                    dealt |= hands[s] | played[s]
                if not (hands[first] | played[first]) & dealt & -dealt:
                    continue
            break
        aside = 0
        for c in cards[k:]:
            aside |= one << c
        if game._require_first:
            aside |= self._known_aside()
        det.aside = aside
        for s in others:
            det._gen[s] = None
        det._deal = None
        return det

    # -- text ----------------------------------------------------------------------------
    def render(self, seat: int) -> str:
        game = self.game
        n = game.num_players
        lines = [f"{game.title}, {n} players; you are seat {seat}"]
        lines.append("your hand: " + (format_cards(self.hands[seat]) or "(empty)"))
        counts = ", ".join(f"seat {s}: {self.hands[s].bit_count()}" for s in range(n))
        lines.append(f"cards left: {counts}")
        if self.top:
            lines.append(
                f"table: {format_cards(self.top)} ({R.shape_name(self.top_shape)}) "
                f"played by seat {self.owner}"
            )
        else:
            lines.append("table: empty (new round)")
        if self.passed:
            lines.append(
                "passed this round: "
                + ", ".join(f"seat {s}" for s in range(n) if self.passed >> s & 1)
            )
        if self.finish:
            lines.append("finished: " + ", ".join(f"seat {s}" for s in self.finish))
        if self.cong:
            lines.append("cóng: " + ", ".join(f"seat {s}" for s in self.cong))
        if self.chain is not None:
            v, victim, chopper = self.chain
            lines.append(f"chop chain: {v:g} bets, seat {victim} chopped by seat {chopper}")
        if self.cur >= 0:
            who = "you" if self.cur == seat else f"seat {self.cur}"
            lines.append(f"to act: {who}" + (" (leads)" if not self.top else ""))
        else:
            lines.append(f"game over ({self.end})")
        return "\n".join(lines)
