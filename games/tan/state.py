"""Tấn: the position, :class:`TanState` (what the compiled core needs: the move generator, apply,
the rules' steps, determinize), and its phase constants.

The game (options, deals, move text, bot wiring) is :class:`games.tan.game.TanGame`; the move
values are :mod:`games.tan.rules`'.  Compiled, TanState is an extension type whose layout is
declared in ``quansu.games.tan.state.pxd`` beside this file.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Hashable

try:
    import cython
except ImportError:  # no Cython installed: the same code runs untyped (games/_cy.py)
    from quansu.games import _cy as cython

from quansu.games.base import HAND_ZONES, TERMINAL, Deal, GameError, IllegalMoveError, State
from quansu.games.cards import CARD_BIT as _BIT
from quansu.games.cards import SUIT_SYMBOLS, card_str, format_cards, shuffle, tan_key
from quansu.games.errors import Text
from quansu.games.tan import errors as _errors  # noqa: F401  (registers the texts)
from quansu.games.tan import rules as R
from quansu.games.tan.rules import (
    _C0,
    _C1,
    _C2,
    _C3,
    _T0,
    _T1,
    _T2,
    _T3,
    BEATERS,
    DEFEND_BASE,
    DONE,
    HAND_SIZE,
    LOWER_TRUMPS,
    RANKBIT,
    RANKSET_CARDS,
    SUIT_MASK,
    SWAP_BASE,
    TAKE,
    THROW_BASE,
    TWO_OF,
    cards_of,
)

if TYPE_CHECKING:
    from quansu.games.tan.game import TanGame

SETUP, ATTACK, DEFEND, THROW, OVER = range(5)
_PHASE_NAMES = ("setup", "attack", "defend", "throw", "over")

_SWAP_NONE, _SWAP_ANY_LOWER, _SWAP_TWO_ONLY = range(3)


class TanState:
    """A Tấn position.

    Public fields (read them, never write them): ``hands[s]`` (card mask of seat s),
    ``known[s]`` (the cards of ``hands[s]`` everybody can locate: picked up, received in a
    swap, or the drawn face-up card), ``stock`` / ``sp`` (face-down stock, top first, and the
    index of its next card), ``faceup`` (the face-up trump card while it lies under the stock,
    else -1), ``trump`` (trump suit 0..3), ``table`` (mask of this bout's cards), ``uncovered``
    (the attack card waiting for an answer, or -1), ``discard`` (mask), ``phase``, ``attacker``,
    ``defender``, ``pointer`` (the seat asked to throw in, or to swap in the setup round).
    """

    __slots__ = (
        "game",
        "n",
        "hands",
        "known",
        "stock",
        "sp",
        "faceup",
        "trump",
        "table",
        "tranks",
        "uncovered",
        "discard",
        "phase",
        "cur",
        "attacker",
        "defender",
        "pointer",
        "passes",
        "nthrow",
        "swapped",
        "opened",
        "anytime",
        "cap",
        "hist",
        "empty_at",
        "winner",
        "loser",
        "bout_start",
        "_deal",
        "_perm",
        "_draw_log",
        "_detprep",
    )

    # the rest of :class:`State`'s interface (TanState implements it without deriving from it:
    # compiled, it is an extension type, quansu.games.tan.state.pxd, and those cannot derive
    # from a Python class): :meth:`State.__str__` below; :meth:`zone_sizes` is its own

    def __str__(self) -> str:
        return State.__str__(self)

    def __init__(self, game: TanGame, deal: Deal):
        n = game.num_players
        self.game = game
        self.n = n
        self.hands = [sum(1 << c for c in h) for h in deal.hands]
        self.known = [0] * n
        self.stock = tuple(deal.stock)
        self.sp = 0
        self.faceup = deal.trump
        self.trump = deal.trump & 3
        self.table = 0
        self.tranks = 0
        self.uncovered = -1
        self.discard = 0
        self.passes = 0
        self.nthrow = n - 1
        self.swapped = 0
        self.opened = False
        self.anytime = game._anytime
        self.cap = game.max_moves
        self.hist: list[tuple[int, int]] = []
        self.empty_at = [0] * n
        self.winner = -1
        self.loser = -1
        self.bout_start = 0
        self._deal = deal
        self._perm = None
        self._draw_log = None
        self._detprep = None
        first = deal.first
        self.phase = ATTACK
        self.cur = first
        self.attacker = first
        self.defender = game._nxt[first]
        self.pointer = first
        if game.options["instant_win_eight_trumps"]:
            suit = SUIT_MASK[self.trump]
            for s in range(n):
                if self.hands[s] & suit == self.hands[s]:
                    self.winner = s
                    self._over()
                    return
        if game._swap_mode != _SWAP_NONE and not game._anytime:
            # the swap round: every seat answers once, even when the face-up card is the 2 of
            # trumps and nobody can swap (docs/rules/tan.md "The swap round")
            self.phase = SETUP
            self.cur = first
            self.pointer = first
            self.attacker = first
            self.defender = game._nxt[first]
        else:
            self._start_bout(first)

    # -- basic facts -----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.cur

    def is_terminal(self) -> bool:
        return self.cur == TERMINAL

    @property
    def deal(self) -> Deal:
        if self._perm is None:
            return self._deal
        d = self._deal
        hands = [list(h) for h in d.hands]
        stock = list(d.stock)
        for old, new in self._perm:
            mp = dict(zip(old, new))
            hands = [[mp.get(c, c) for c in h] for h in hands]
            stock = [mp.get(c, c) for c in stock]
        return Deal(
            hands=tuple(tuple(h) for h in hands),
            first=d.first,
            stock=tuple(stock),
            trump=d.trump,
            set_aside=d.set_aside,
            extra=d.extra,
        )

    @property
    def history(self) -> list[tuple[int, int]]:
        return self.hist

    def trump_card(self) -> int:
        """The trump card dealt face up (``deal.trump``, never permuted by
        :meth:`determinize`), without rebuilding a sampled world's deal."""
        return self._deal.trump

    def stock_count(self) -> int:
        """Cards left to draw, the face-up trump included."""
        return len(self.stock) - self.sp + (self.faceup >= 0)

    # -- moves -----------------------------------------------------------------------------
    def _swap_candidates(self, seat: int) -> int:
        """Mask of the cards ``seat`` may give for the face-up card now (0 when none)."""
        g = self.game
        f = self.faceup
        if f < 0 or self.swapped >> seat & 1:
            return 0
        if g._swap_mode == _SWAP_ANY_LOWER:
            return self.hands[seat] & LOWER_TRUMPS[f]
        if g._swap_mode == _SWAP_TWO_ONLY:
            return self.hands[seat] & (1 << TWO_OF[self.trump])
        return 0

    def legal_moves(self) -> list[int]:
        ph = self.phase
        h = self.hands[self.cur]
        if ph == THROW:
            m = h & RANKSET_CARDS[self.tranks]
            if m:
                moves = [
                    *_T0[m & 8191],
                    *_T1[(m >> 13) & 8191],
                    *_T2[(m >> 26) & 8191],
                    *_T3[m >> 39],
                    DONE,
                ]
            else:
                moves = [DONE]
        elif ph == DEFEND:
            a = self.uncovered
            base = DEFEND_BASE + 64 * a
            m = h & BEATERS[self.trump][a]
            if m:
                moves = [base + d for d in cards_of(m)]
                moves.append(TAKE)
            else:
                moves = [TAKE]
        elif ph == ATTACK:
            moves = [*_C0[h & 8191], *_C1[(h >> 13) & 8191], *_C2[(h >> 26) & 8191], *_C3[h >> 39]]
        elif ph == SETUP:
            moves = [SWAP_BASE + c for c in cards_of(self._swap_candidates(self.cur))]
            moves.append(DONE)
            return moves
        else:
            return []
        if self.anytime and self.faceup >= 0:
            cand = self._swap_candidates(self.cur)
            if cand:
                moves.extend(SWAP_BASE + c for c in cards_of(cand))
        return moves

    def apply(self, move) -> None:
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError.of("tan.not_a_move_value", move=move)
        if self.phase == OVER:
            raise IllegalMoveError.of("tan.game_over_move", move_text=self._move_text(move))
        if move not in self.legal_moves():
            raise IllegalMoveError(self._why_illegal(move))
        self.apply_unchecked(move)

    def _move_text(self, move) -> str:
        try:
            return repr(R.move_to_text(move))
        except Exception:
            return repr(move)

    def _swap_round_note(self) -> str:
        """What the swap round asks of the seat to act (the phase is SETUP)."""
        seat = self.cur
        if not self._swap_candidates(seat):
            return Text("tan.swap_round_only_done", seat=seat)
        return Text("tan.swap_round_answer", seat=seat)

    def out_of_turn_reason(self, seat: int, move) -> str:
        """In the swap round, name what the protocol expects: a record in a dialect that ends
        or skips the round moves the wrong seat here."""
        if self.phase == SETUP:
            return Text(
                "tan.out_of_turn_swap",
                move_text=self._move_text(move),
                seat=seat,
                note=self._swap_round_note(),
            )
        return State.out_of_turn_reason(self, seat, move)

    def _why_illegal(self, move) -> str:
        seat = self.cur
        text = self._move_text(move)
        try:
            R.move_to_text(move)
        except Exception:
            return Text("tan.not_a_move_text", text=text)
        if self.phase == SETUP and not SWAP_BASE <= move < TAKE:
            return Text("tan.swap_round_first", text=text, note=self._swap_round_note())
        card = R.played_card(move)
        if card >= 0 and not self.hands[seat] >> card & 1:
            return Text("tan.card_not_in_hand", text=text, card=card_str(card), seat=seat)
        ph = self.phase
        if SWAP_BASE <= move < TAKE:
            why = self._no_swap_reason(seat, card)
            return Text("tan.swap_not_now", text=text, seat=seat, why=why)
        if ph == ATTACK:
            return Text("tan.must_attack", text=text, seat=seat)
        if ph == DEFEND:
            a = self.uncovered
            if DEFEND_BASE <= move < SWAP_BASE:
                if (move - DEFEND_BASE) >> 6 != a:
                    return Text("tan.wrong_card_to_beat", text=text, card=card_str(a))
                return Text(
                    "tan.does_not_beat",
                    text=text,
                    card=card_str(card),
                    card2=card_str(a),
                    trump=SUIT_SYMBOLS[self.trump],
                )
            return Text("tan.must_defend_or_take", text=text, seat=seat, card=card_str(a))
        if ph == THROW:
            if THROW_BASE <= move < DEFEND_BASE:
                return Text("tan.rank_not_on_table", text=text, card=card_str(card))
            return Text("tan.throw_or_done", text=text, seat=seat)
        return Text("tan.not_legal_now", text=text)

    def _no_swap_reason(self, seat: int, card: int) -> str:
        """Why ``seat`` may not give ``card`` (which it holds) for the face-up card now."""
        g = self.game
        f = self.faceup
        if g._swap_mode == _SWAP_NONE:
            return Text("tan.swap_disabled")
        if f < 0:
            return Text("tan.face_up_drawn")
        if self.phase != SETUP and not self.anytime:
            return Text("tan.swap_round_over")
        if self.swapped >> seat & 1:
            return Text("tan.swap_once")
        if g._swap_mode == _SWAP_TWO_ONLY:
            two = card_str(TWO_OF[self.trump])
            return Text("tan.swap_two_only", two=two)
        return Text("tan.swap_lower_trump", card=card_str(f))

    @cython.ccall
    @cython.locals(
        move=cython.int,
        seat=cython.int,
        ph=cython.int,
        c=cython.int,
        d=cython.int,
        s=cython.int,
        p=cython.int,
        hist=list,
        hands=list,
    )
    def apply_unchecked(self, move) -> None:
        seat = self.cur
        hist = self.hist
        hist.append((seat, move))
        ph = self.phase
        if ph == THROW:
            if move == DONE:
                self.passes += 1
                if self.passes >= self.nthrow:
                    self._end_bout(True)
                else:
                    # ask the next thrower in play order (not the defender, holding cards)
                    d = self.defender
                    hands = self.hands
                    nxt = self.game._nxt
                    s = nxt[seat]
                    while s == d or not hands[s]:
                        s = nxt[s]
                    self.pointer = s
                    self.cur = s
            elif move < DEFEND_BASE:
                c = move - THROW_BASE
                bit = _BIT[c]
                h = self.hands[seat] ^ bit
                self.hands[seat] = h
                self.known[seat] &= ~bit
                self.table |= bit
                self.tranks |= RANKBIT[c]
                self.uncovered = c
                self.passes = 0
                self.phase = DEFEND
                self.cur = self.defender
                if not h:
                    self.nthrow -= 1
                    self._emptied(seat)
            else:
                self._swap(seat, move - SWAP_BASE)
        elif ph == DEFEND:
            if move < SWAP_BASE:
                d = seat
                c = (move - DEFEND_BASE) & 63
                bit = _BIT[c]
                h = self.hands[d] ^ bit
                self.hands[d] = h
                self.known[d] &= ~bit
                self.table |= bit
                self.tranks |= RANKBIT[c]
                self.uncovered = -1
                if h:
                    p = self.pointer
                    if self.hands[p]:
                        self.phase = THROW
                        self.cur = p
                    else:
                        self._ask_thrower(p)
                elif self.faceup < 0:
                    self._emptied(d)
                    if self.phase != OVER:
                        self._end_bout(True)
                elif self.game._end_bout:
                    self.empty_at[d] = len(hist)
                    self._end_bout(True)
                else:
                    self._draw(d, HAND_SIZE)
                    if self.faceup < 0:
                        self._outs_after_stock_ran_out()
                    if self.phase != OVER:
                        self._ask_thrower(self.pointer)
            elif move == TAKE:
                d = seat
                self.hands[d] |= self.table
                self.known[d] |= self.table
                self._end_bout(False)
            else:
                self._swap(seat, move - SWAP_BASE)
        elif ph == ATTACK:
            if move < 52:
                bit = _BIT[move]
                h = self.hands[seat] ^ bit
                self.hands[seat] = h
                self.known[seat] &= ~bit
                self.table = bit
                self.tranks = RANKBIT[move]
                self.uncovered = move
                self.pointer = seat
                self.passes = 0
                self.opened = True
                self.phase = DEFEND
                self.cur = self.defender
                if not h:
                    self.nthrow -= 1
                    self._emptied(seat)
            else:
                self._swap(seat, move - SWAP_BASE)
        elif ph == SETUP:
            if move == DONE:
                self._setup_next(seat)
            else:
                self._swap(seat, move - SWAP_BASE)
        if len(hist) >= self.cap and self.phase != OVER:
            self._over()

    # -- rules steps -----------------------------------------------------------------------
    def _swap(self, seat: int, card: int) -> None:
        """``seat`` gives ``card`` and takes the face-up trump; ``card`` becomes face-up."""
        f = self.faceup
        fb = 1 << f
        bit = 1 << card
        self.hands[seat] = (self.hands[seat] ^ bit) | fb
        self.known[seat] = (self.known[seat] & ~bit) | fb
        self.faceup = card
        self.swapped |= 1 << seat
        g = self.game
        if self.phase == SETUP:
            if g._swap_mode == _SWAP_TWO_ONLY:
                # đổi 2 chủ: the seat after the swapper attacks first; the round goes on
                self.attacker = g._nxt[seat]
                self.defender = g._nxt[self.attacker]
            self._setup_next(seat)
        elif g._swap_mode == _SWAP_TWO_ONLY and not self.opened:
            # đổi 2 chủ before the first attack: the seat after the swapper attacks first
            self._start_bout(g._nxt[seat])

    def _setup_next(self, seat: int) -> None:
        """After ``seat``'s answer in the swap round: the next seat, or (after N answers) the
        first bout, attacked by ``self.attacker`` (the first attacker, or under đổi 2 chủ the
        seat after the swapper)."""
        self.passes += 1
        if self.passes >= self.n:
            self._start_bout(self.attacker)
        else:
            nxt = self.game._nxt[seat]
            self.pointer = nxt
            self.cur = nxt

    def _start_bout(self, a: int) -> None:
        hands = self.hands
        nxt = self.game._nxt
        d = nxt[a]
        while not hands[d]:
            d = nxt[d]
        self.attacker = a
        self.defender = d
        self.pointer = a
        self.passes = 0
        nthrow = -1
        for h in hands:
            if h:
                nthrow += 1
        self.nthrow = nthrow
        self.phase = ATTACK
        self.cur = a
        self.bout_start = len(self.hist)

    def _over(self) -> None:
        self.phase = OVER
        self.cur = TERMINAL

    def _emptied(self, seat: int) -> None:
        """``seat`` has just played his last card."""
        if self.faceup < 0:
            # no cards and an empty stock: out
            if not self.game._until_one:
                self.winner = seat
                self._over()
        else:
            self.empty_at[seat] = len(self.hist)

    def _outs_after_stock_ran_out(self) -> None:
        """The stock has just run out: every empty hand is out now (first out wins: the one
        who emptied his hand first)."""
        if self.game._until_one:
            return
        best = -1
        for s in range(self.n):
            if not self.hands[s] and (best < 0 or self.empty_at[s] < self.empty_at[best]):
                best = s
        if best >= 0:
            self.winner = best
            self._over()

    def _draw(self, seat: int, upto: int) -> None:
        """``seat`` draws from the top of the stock until he holds ``upto`` cards."""
        need = upto - self.hands[seat].bit_count()
        if need <= 0:
            return
        st = self.stock
        sp = self.sp
        take = min(need, len(st) - sp)
        m = 0
        for i in range(sp, sp + take):
            m |= 1 << st[i]
        self.sp = sp + take
        got = st[sp : sp + take] if self._draw_log is not None else ()
        if need > take and self.faceup >= 0:
            f = self.faceup
            m |= 1 << f
            self.known[seat] |= 1 << f
            self.faceup = -1
            got = got + (f,) if self._draw_log is not None else ()
        self.hands[seat] |= m
        if self._draw_log is not None:
            for c in got:
                self._draw_log.append((seat, c))

    def _ask_thrower(self, start: int) -> None:
        """Ask the first thrower from ``start`` on (play order, not the defender, holding
        cards); end the bout when there is none or the defender has no card."""
        d = self.defender
        hands = self.hands
        if not hands[d]:
            self._end_bout(True)
            return
        nxt = self.game._nxt
        s = start
        for _ in range(self.n):
            if s != d and hands[s]:
                self.pointer = s
                self.cur = s
                self.phase = THROW
                return
            s = nxt[s]
        self._end_bout(True)

    def _end_bout(self, defended: bool) -> None:
        g = self.game
        a = self.attacker
        d = self.defender
        if defended:
            self.discard |= self.table
        self.table = 0
        self.tranks = 0
        self.uncovered = -1
        hands = self.hands
        if self.faceup >= 0:
            for s in g._refill[a]:
                if hands[s].bit_count() < HAND_SIZE:
                    self._draw(s, HAND_SIZE)
                    if self.faceup < 0:
                        break
            if self.faceup >= 0:
                # the stock lasted: every seat holds 8 or more cards
                x = d if defended else g._nxt[d]
                self.attacker = x
                self.defender = g._nxt[x]
                self.pointer = x
                self.passes = 0
                self.nthrow = self.n - 1
                self.phase = ATTACK
                self.cur = x
                self.bout_start = len(self.hist)
                return
            self._outs_after_stock_ran_out()
            if self.phase == OVER:
                return
        n = self.n
        holders = 0
        last = -1
        for s in range(n):
            if hands[s]:
                holders += 1
                last = s
        if holders <= 1:
            if g._until_one:
                self.loser = last
            else:
                self._outs_after_stock_ran_out()
            self._over()
            return
        nxt = g._nxt
        if defended and hands[d]:
            x = d
        else:
            x = nxt[d]
            while not hands[x]:
                x = nxt[x]
        self._start_bout(x)

    # -- results -----------------------------------------------------------------------------
    def returns(self) -> list[float]:
        n = self.n
        amt = self.game._amount
        if self.phase != OVER:
            return [0.0] * n
        if self.winner >= 0:
            return [amt * (n - 1) if s == self.winner else -amt for s in range(n)]
        if self.loser >= 0:
            return [-amt * (n - 1) if s == self.loser else amt for s in range(n)]
        return [0.0] * n

    def endgame_size(self) -> int | None:
        """Cards in the hands plus cards left in the stock (exact endgames,
        :mod:`search.endgame`; a determinization fixes the stock's order); None during the swap
        round."""
        if self.phase == SETUP:
            return None
        return sum(h.bit_count() for h in self.hands) + len(self.stock) - self.sp

    def endgame_key(self) -> Hashable:
        """The hands, the rest of the stock, the bout (its plays since it started), the roles,
        the move count (the move cap) and the outcome so far: not the earlier history."""
        return (
            tuple(self.hands),
            tuple(self.known),
            self.stock[self.sp :],
            self.faceup,
            self.table,
            self.tranks,
            self.uncovered,
            self.discard,
            self.phase,
            self.cur,
            self.attacker,
            self.defender,
            self.pointer,
            self.passes,
            self.nthrow,
            self.swapped,
            self.opened,
            self.anytime,
            len(self.hist),
            tuple(self.hist[self.bout_start :]),
            tuple(self.empty_at),
            self.winner,
            self.loser,
        )

    def settlement(self) -> list[tuple[int, int, float]]:
        amt = self.game._amount
        if self.phase != OVER:
            return []
        if self.winner >= 0:
            return [(s, self.winner, amt) for s in range(self.n) if s != self.winner]
        if self.loser >= 0:
            return [(self.loser, s, amt) for s in range(self.n) if s != self.loser]
        return []

    # -- copying and information ---------------------------------------------------------------
    def clone(self) -> "TanState":
        c = TanState.__new__(TanState)
        c.game = self.game
        c.n = self.n
        c.hands = self.hands[:]
        c.known = self.known[:]
        c.stock = self.stock
        c.sp = self.sp
        c.faceup = self.faceup
        c.trump = self.trump
        c.table = self.table
        c.tranks = self.tranks
        c.uncovered = self.uncovered
        c.discard = self.discard
        c.phase = self.phase
        c.cur = self.cur
        c.attacker = self.attacker
        c.defender = self.defender
        c.pointer = self.pointer
        c.passes = self.passes
        c.nthrow = self.nthrow
        c.anytime = self.anytime
        c.cap = self.cap
        c.swapped = self.swapped
        c.opened = self.opened
        c.hist = self.hist[:]
        c.empty_at = self.empty_at[:]
        c.winner = self.winner
        c.loser = self.loser
        c.bout_start = self.bout_start
        c._deal = self._deal
        c._perm = self._perm
        c._draw_log = None
        c._detprep = None
        return c

    def _check_seat(self, seat) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise GameError.of("tan.seat_not_of_players", seat=seat, n=self.n)

    def observation(self, seat: int) -> Hashable:
        """``(seat, seat's hand mask, initial face-up trump card, first attacker, history)``.

        Every move is public, so the history (with the public deal facts) fixes everything on
        the table, every hand size and every publicly located card; the hand mask adds what only
        ``seat`` sees.
        """
        if seat.__class__ is not int or not 0 <= seat < self.n:
            self._check_seat(seat)
        return (seat, self.hands[seat], self._deal.trump, self._deal.first, tuple(self.hist))

    def information_state_key(self, seat: int) -> Hashable:
        return self.observation(seat)

    def sibling_key(self, seat: int) -> int:
        """The seat's hand mask: every move is public and :meth:`observation` holds the history,
        so siblings (states after one same move from states of one information set) share
        the history, the trump card and the first attacker, and differ only in the hands."""
        if seat.__class__ is not int or not 0 <= seat < self.n:
            self._check_seat(seat)
        return self.hands[seat]

    def determinize(self, seat: int, rng: random.Random) -> "TanState":
        """Redeal the cards ``seat`` cannot locate: the other hands' unknown cards and the
        face-down stock.  Picked-up, swapped and drawn face-up cards stay with their holders,
        the face-up trump stays under the stock, all hand and stock sizes are kept."""
        self._check_seat(seat)
        hands = self.hands
        known = self.known
        sp = self.sp
        # what the draw starts from depends only on the seat and this state: kept for the next
        # call (a search determinizes its root state on every iteration); every move appends to
        # the history, so its length tells whether the state moved on since
        prep = self._detprep
        if prep is None or prep[0] != seat or prep[1] != len(self.hist):
            pool: list[int] = []
            sizes = [0] * self.n
            for o in range(self.n):
                if o != seat:
                    hidden = cards_of(hands[o] & ~known[o])
                    pool.extend(hidden)
                    sizes[o] = len(hidden)
            pool.extend(self.stock[sp:])
            # shuffle a canonical order, so that the result depends only on what ``seat`` knows
            prep = self._detprep = (seat, len(self.hist), tuple(pool), sizes, sorted(pool))
        pool_t = prep[2]
        sizes = prep[3]
        new = list(prep[4])
        shuffle(new, rng)
        det = self.clone()
        i = 0
        dh = det.hands
        for o in range(self.n):
            k = sizes[o]
            if k:
                m = 0
                for c in new[i : i + k]:
                    m |= 1 << c
                dh[o] = known[o] | m
                i += k
        det.stock = self.stock[:sp] + tuple(new[i:])
        step = ((pool_t, tuple(new)),)
        det._perm = step if self._perm is None else self._perm + step
        return det

    def zones(self) -> dict[str, int]:
        z = {HAND_ZONES[s]: self.hands[s] for s in range(self.n)}
        stock = 0
        for c in self.stock[self.sp :]:
            stock |= 1 << c
        if self.faceup >= 0:
            stock |= 1 << self.faceup
        z["stock"] = stock
        z["table"] = self.table
        z["discard"] = self.discard
        return z

    def zone_sizes(self) -> dict[str, int]:
        """:meth:`zones`' sizes, counted without building the stock's mask (the encoder asks for
        them on every network call)."""
        z = {HAND_ZONES[s]: self.hands[s].bit_count() for s in range(self.n)}
        z["stock"] = self.stock_count()
        z["table"] = self.table.bit_count()
        z["discard"] = self.discard.bit_count()
        return z

    def known_cards(self, seat: int) -> dict[str, int]:
        self._check_seat(seat)
        z = {HAND_ZONES[s]: (self.hands[s] if s == seat else self.known[s]) for s in range(self.n)}
        z["stock"] = (1 << self.faceup) if self.faceup >= 0 else 0
        z["table"] = self.table
        z["discard"] = self.discard
        return z

    def table_pairs(self) -> list[tuple[int, int]]:
        """This bout's cards as ``(attack card, defence card or -1)``, in play order."""
        pairs: list[list[int]] = []
        if self.phase in (SETUP, OVER) and not self.table:
            return []
        for _, m in self.hist[self.bout_start :]:
            if m < DEFEND_BASE:
                pairs.append([m if m < 52 else m - THROW_BASE, -1])
            elif m < SWAP_BASE and pairs:
                pairs[-1][1] = (m - DEFEND_BASE) & 63
        return [tuple(p) for p in pairs]

    def render(self, seat: int) -> str:
        self._check_seat(seat)
        g = self.game
        key = tan_key
        faceup = self.trump_card()
        lines = []
        tr = SUIT_SYMBOLS[self.trump]
        if self.faceup >= 0:
            lines.append(
                f"trump {tr}; face-up {card_str(self.faceup)} under the stock; "
                f"stock {self.stock_count()} cards"
            )
        else:
            lines.append(f"trump {tr}; the stock is empty")
        for s in range(self.n):
            h = self.hands[s]
            tag = " (you)" if s == seat else ""
            role = ""
            if self.phase in (ATTACK, DEFEND, THROW):
                role = (
                    " attacker"
                    if s == self.attacker
                    else (" defender" if s == self.defender else "")
                )
            if s == seat:
                # the hand as a player holds it: 2 low ... A high, the trumps last
                hand = " ".join(card_str(c) for c in g.sort_cards(cards_of(h), faceup))
                lines.append(f"seat {s}{tag}{role}: {hand}")
            else:
                kn = self.known[s]
                extra = f" (known: {format_cards(kn, key=key)})" if kn else ""
                lines.append(f"seat {s}{role}: {h.bit_count()} cards{extra}")
        pairs = self.table_pairs() if self.table else []
        if pairs:
            lines.append(
                "table: "
                + "  ".join(card_str(a) + "/" + (card_str(d) if d >= 0 else "-") for a, d in pairs)
            )
        lines.append(f"discard: {self.discard.bit_count()} cards")
        if self.phase == OVER:
            if self.winner >= 0:
                lines.append(f"game over: seat {self.winner} wins")
            elif self.loser >= 0:
                lines.append(f"game over: seat {self.loser} loses")
            else:
                lines.append("game over: draw")
        else:
            what = {
                SETUP: f"answers the swap round (swap or done; seat {self.attacker} attacks first)",
                ATTACK: "attacks",
                DEFEND: f"defends against {card_str(self.uncovered)}"
                if self.uncovered >= 0
                else "defends",
                THROW: "may throw in",
            }[self.phase]
            lines.append(f"to act: seat {self.cur} {what}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"<tan state: {_PHASE_NAMES[self.phase]}, seat {self.cur} to act, "
            f"{len(self.hist)} moves>"
        )
