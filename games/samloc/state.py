"""Sâm lốc: the :class:`SamlocState` of ``docs/rules/samloc.md`` (a position: the báo sâm round,
move generation, apply, settlement, determinization) and the helpers it needs.

The part of the game the compiled core needs (``search/compiled.py``'s ``CORE``).  The
:class:`~games.samloc.game.SamlocGame` (options, deals, move text, bot wiring) is in
:mod:`games.samloc.game`, which re-exports the public names of this module; the move constants
(:data:`PASS`, :data:`DECLARE`, :data:`DECLINE`) are in :mod:`games.samloc.rules`.
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any, Hashable, Sequence

from quansu.games.base import TERMINAL, Deal, GameError, IllegalMoveError, State
from quansu.games.caches import cache_size, make_room
from quansu.games.cards import RANKS, card_str, cards_of
from quansu.games.errors import Text
from quansu.games.samloc import errors as _errors  # noqa: F401  (registers the texts)

from . import rules as R
from .rules import DECLARE, DECLINE, DQUAD, PASS, QUAD, SINGLE, STRAIGHT, TWOS

if TYPE_CHECKING:  # annotations only: the game module imports this one
    from .game import SamlocGame

FULL = (1 << 52) - 1
HAND_SIZE = 10

PH_DECLARE, PH_PLAY, PH_OVER = 0, 1, 2

#: entries of a rule set's classification cache (``SamLocGame._cls``; games/caches.py:
#: QUANSU_CACHE_SAMLOC_COMBOS)
_COMBOS_MAX = cache_size("samloc_combos")

# how the game ended (``SamlocState.end_kind``)
END_NORMAL = "normal"
END_INSTANT = "instant_win"
END_SAM_SUCCESS = "sam_success"
END_SAM_BLOCKED = "sam_blocked"
END_SAM_FAILED = "sam_failed"  # declarer went out on a 2, no blocker

_BIT = R.BIT


def _make_deal(masks: Sequence[int], rest: int, first: int) -> Deal:
    return Deal(
        hands=tuple(tuple(cards_of(m)) for m in masks), first=first, set_aside=tuple(cards_of(rest))
    )


def _fmt(mask: int) -> str:
    return " ".join(card_str(c) for c in R.sequence_order(mask))


def lowest_holder(hands: Sequence[int]) -> int:
    """The seat whose hand (mask) holds the lowest card of all ``hands``, or -1."""
    u = 0
    for h in hands:
        u |= h
    low = u & -u
    for s, h in enumerate(hands):
        if h & low:
            return s
    return -1


def sample_hidden(
    game: SamlocGame,
    rng: random.Random,
    fixed: list[int],
    need: list[int],
    pool: int,
    caps: list[int],
    leader: int,
    iw: bool,
    strict: bool = False,
    tries: int = 200,
):
    """Draw hidden cards: seat s gets ``need[s]`` cards of ``pool`` (ranks <= ``caps[s]``), the
    rest is set aside.  Constraints checked by rejection: ``leader`` (if >= 0) holds the
    lowest dealt card; with ``iw`` no drawn-into hand is an instant win.  Returns
    ``(drawn masks per seat, set-aside mask)``; ``None`` if ``strict`` and nothing fits."""
    n = len(fixed)
    pl = cards_of(pool)
    capped = sorted((caps[s], s) for s in range(n) if need[s] and caps[s] < 12)
    free = [s for s in range(n) if need[s] and caps[s] >= 12]
    allow_two = game._allow_two
    total_free = sum(need[s] for s in free)
    drawn = None
    rest = 0
    for _ in range(tries):
        drawn = [0] * n
        if capped:
            remaining = pl
            ok = True
            for cap, s in capped:
                elig = [c for c in remaining if c >> 2 <= cap]
                if len(elig) < need[s]:
                    ok = False
                    break
                pick = rng.sample(elig, need[s])
                m = 0
                for c in pick:
                    m |= _BIT[c]
                drawn[s] = m
                remaining = [c for c in remaining if not m >> c & 1]
            if not ok:
                if strict:
                    return None
                # inconsistent caps (cannot happen for a real history): ignore them
                capped = []
                free = [s for s in range(n) if need[s]]
                total_free = sum(need[s] for s in free)
                continue
            order = rng.sample(remaining, total_free)
            left = 0
            for c in remaining:
                left |= _BIT[c]
        else:
            order = rng.sample(pl, total_free)
            left = pool
        j = 0
        for s in free:
            m = 0
            for c in order[j : j + need[s]]:
                m |= _BIT[c]
            drawn[s] = m
            left &= ~m
            j += need[s]
        rest = left
        if leader >= 0:
            u = 0
            for s in range(n):
                u |= fixed[s] | drawn[s]
            if not (fixed[leader] | drawn[leader]) & (u & -u):
                continue
        if iw:
            bad = False
            for s in range(n):
                if need[s] and R.instant_win(fixed[s] | drawn[s], allow_two):
                    bad = True
                    break
            if bad:
                continue
        return drawn, rest
    if strict:
        return None
    return drawn, rest


class SamlocState(State):
    """A Sâm lốc position.

    Public attributes (read-only for callers): ``hands[s]`` (card mask of seat s), ``table``
    (mask of every card played).  ``legal_moves()`` returns a cached list: do not mutate it.
    """

    __slots__ = (
        "game",
        "_n",
        "_deal",
        "_first",
        "_prev",
        "hands",
        "played",
        "table",
        "set_aside",
        "_phase",
        "_cur",
        "_declared",
        "_declarer",
        "_top",
        "_ttype",
        "_tlen",
        "_tkey",
        "_towner",
        "_tlead",
        "_passed",
        "_active",
        "_moved",
        "_out2",
        "_chain_v",
        "_chain_victim",
        "_chain_chopper",
        "_pay",
        "_caps",
        "_hist",
        "_legal",
        "_relax",
        "_winner",
        "_next_leader",
        "_end",
        "_den",
        "_iw_seat",
        "_iw_type",
        "_returns",
    )

    # -- construction --------------------------------------------------------------------
    @classmethod
    def _start(
        cls,
        game: SamlocGame,
        hands: list[int],
        rest: int,
        first: int,
        deal: Deal | None,
        check_instant: bool,
    ) -> "SamlocState":
        st = cls.__new__(cls)
        n = game.num_players
        st.game = game
        st._n = n
        st._deal = deal
        st._first = first
        st._prev = game._prev
        st.hands = list(hands)
        st.played = [0] * n
        st.table = 0
        st.set_aside = rest
        st._phase = PH_DECLARE
        st._cur = 0
        st._declared = 0
        st._declarer = -1
        st._top = 0
        st._ttype = 0
        st._tlen = 0
        st._tkey = 0
        st._towner = -1
        st._tlead = False
        st._passed = 0
        st._active = (1 << n) - 1
        st._moved = 0
        st._out2 = [0] * n
        st._chain_v = 0
        st._chain_victim = -1
        st._chain_chopper = -1
        st._pay = []
        st._caps = [12] * n if game._forced else None
        st._hist = []
        st._legal = None
        st._relax = 0
        st._winner = -1
        st._next_leader = -1
        st._end = None
        st._den = -1
        st._iw_seat = -1
        st._iw_type = 0
        st._returns = None
        if check_instant and game._iw:
            best, who = 0, -1
            for i in range(n):
                s = (first + i) % n
                t = R.instant_win(hands[s], game._allow_two)
                if t > best:
                    best, who = t, s
            if who >= 0:
                st._iw_seat, st._iw_type = who, best
                for s in range(n):
                    if s != who and game._iw_amount:
                        st._pay.append((s, who, game._iw_amount))
                st._winner = st._next_leader = who
                st._finish(END_INSTANT)
        return st

    def clone(self) -> "SamlocState":
        st = SamlocState.__new__(SamlocState)
        st.game = self.game
        st._n = self._n
        st._deal = self._deal
        st._first = self._first
        st._prev = self._prev
        st.hands = self.hands[:]
        st.played = self.played[:]
        st.table = self.table
        st.set_aside = self.set_aside
        st._phase = self._phase
        st._cur = self._cur
        st._declared = self._declared
        st._declarer = self._declarer
        st._top = self._top
        st._ttype = self._ttype
        st._tlen = self._tlen
        st._tkey = self._tkey
        st._towner = self._towner
        st._tlead = self._tlead
        st._passed = self._passed
        st._active = self._active
        st._moved = self._moved
        st._out2 = self._out2[:]
        st._chain_v = self._chain_v
        st._chain_victim = self._chain_victim
        st._chain_chopper = self._chain_chopper
        st._pay = self._pay[:]
        st._caps = None if self._caps is None else self._caps[:]
        st._hist = self._hist[:]
        st._legal = self._legal
        st._relax = self._relax
        st._winner = self._winner
        st._next_leader = self._next_leader
        st._end = self._end
        st._den = self._den
        st._iw_seat = self._iw_seat
        st._iw_type = self._iw_type
        st._returns = self._returns
        return st

    # -- public facts --------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self._cur

    def is_terminal(self) -> bool:
        return self._cur < 0

    @property
    def deal(self) -> Deal:
        if self._deal is None:
            self._deal = _make_deal(
                [self.hands[s] | self.played[s] for s in range(self._n)],
                self.set_aside,
                self._first,
            )
        return self._deal

    @property
    def history(self) -> list[tuple[int, int]]:
        return list(self._hist)

    @property
    def declarer(self) -> int:
        """The Sâm declarer's seat, or -1 (none, or báo sâm is not over)."""
        return self._declarer

    @property
    def in_declarations(self) -> bool:
        """Whether báo sâm is under way (the seat to act answers ``declare`` or ``decline``)."""
        return self._phase == PH_DECLARE

    def declared_mask(self) -> int:
        """Bit s set when seat s has answered ``declare`` (public)."""
        return self._declared

    def declaration_matters(self, seat: int) -> bool:
        """During báo sâm: whether ``seat``'s ``declare`` could make it the declarer, given the
        answers so far (false when an earlier seat declared and ``seat`` is not the previous
        game's winner, whose declaration outranks every other)."""
        return seat == self._prev or not self._declared & ((1 << seat) - 1)

    def out_of_turn_reason(self, seat: int, move: Any) -> str:
        """Báo sâm asks every seat in turn, also after a declaration: a record that skips the
        remaining answers (the former dialect) is refused with the seat that must answer."""
        cur = self._cur
        if self._phase == PH_DECLARE:
            if move == DECLARE or move == DECLINE:
                return Text("samloc.answers_out_of_turn", seat=seat, cur=cur)
            try:
                text = self.game.move_to_text(move)
            except GameError:
                return Text("samloc.must_answer_first_not_seat", cur=cur, seat=seat)
            return Text(
                "samloc.must_answer_first_not_move",
                cur=cur,
                seat=seat,
                move=json.dumps(text, ensure_ascii=False),
            )
        return super().out_of_turn_reason(seat, move)

    @property
    def winner(self) -> int:
        """The winner's seat once the game is over (-1 before, or after a Sâm lost on a 2)."""
        return self._winner

    @property
    def next_leader(self) -> int | None:
        """The option ``previous_winner`` for the next game: the winner, the instant winner, the
        successful declarer or the blocker.  ``None`` before the end, and after a Sâm lost on a
        2 with no blocker (the next game is then played as a first game)."""
        return self._next_leader if self._next_leader >= 0 else None

    @property
    def end_kind(self) -> str | None:
        """How the game ended (``"normal"``, ``"instant_win"``, ``"sam_success"``,
        ``"sam_blocked"``, ``"sam_failed"``), or ``None`` before the end."""
        return self._end

    @property
    def top(self) -> tuple[int, int] | None:
        """``(owner seat, card mask)`` of the combination to beat, or ``None`` when the seat to
        act leads a new round."""
        return None if self._towner < 0 else (self._towner, self._top)

    def transfers_so_far(self) -> list[tuple[int, int, float]]:
        """Transfers ``(payer, payee, amount)`` settled so far: chop money of finished rounds
        (and, once the game is over, everything; see :meth:`settlement`).  Public."""
        return [(a, b, float(v)) for a, b, v in self._pay]

    def open_chop_chain(self) -> tuple[int, int, int] | None:
        """The chop chain of the current round, ``(victim, chopper, value in bets)``, paid by the
        victim to the chopper when the round ends; ``None`` when there is none."""
        if not self._chain_v:
            return None
        return (self._chain_victim, self._chain_chopper, self._chain_v)

    def passed_mask(self) -> int:
        """Bit s set when seat s has passed in the current round."""
        return self._passed

    def forced_cap(self, seat: int) -> int:
        """Under ``bao_mot_mode = "forced"``: the highest rank index seat may still hold (public,
        from his forced single plays); 12 when unconstrained."""
        return 12 if self._caps is None else self._caps[seat]

    # -- moves ---------------------------------------------------------------------------
    def _next_active(self, s: int) -> int:
        act = self._active
        for t in self.game._after[s]:
            if act >> t & 1:
                return t
        return -1

    def _prev_active(self, s: int) -> int:
        act = self._active
        for t in self.game._before[s]:
            if act >> t & 1:
                return t
        return -1

    def _forced_now(self, s: int) -> bool:
        if not self.game._forced:
            return False
        t = self._next_active(s)
        return t >= 0 and self.hands[t].bit_count() == 1

    def legal_moves(self) -> list[int]:
        """Legal moves of the seat to act (cached; do not mutate).  Declarations:
        ``[DECLARE, DECLINE]``.  Leading: every combination (singles, pairs, triples, quads,
        straights).  Following: ``PASS`` first, then every combination that beats the top."""
        lm = self._legal
        if lm is not None:
            return lm
        if self._phase == PH_PLAY:
            g = self.game
            s = self._cur
            hand = self.hands[s]
            forced = g._forced and self._forced_now(s)
            if self._towner < 0:
                lm = R.lead_combos(hand, g._allow_two, forced)
            else:
                lm = [PASS]
                lm += R.beating_combos(
                    hand,
                    self._ttype,
                    self._tlen,
                    self._tkey,
                    g._allow_two,
                    g._dq,
                    g._quad_pair,
                    forced,
                )
        elif self._phase == PH_DECLARE:
            lm = [DECLARE, DECLINE]
        else:
            lm = []
        self._legal = lm
        return lm

    def apply(self, move: Any) -> None:
        """Apply ``move`` for the seat to act; an illegal move raises
        :class:`IllegalMoveError` (naming why) and leaves the state unchanged."""
        s = self._cur
        if s < 0:
            raise IllegalMoveError.of("samloc.game_over")
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError.of("samloc.not_a_move", move=move)
        if self._phase == PH_DECLARE:
            if move != DECLARE and move != DECLINE:
                raise IllegalMoveError.of("samloc.must_answer", s=s)
        elif move == DECLARE or move == DECLINE:
            if self._towner < 0:
                raise IllegalMoveError.of("samloc.answers_over_lead", s=s)
            raise IllegalMoveError.of("samloc.answers_over_beat", s=s)
        elif move == PASS:
            if self._towner < 0:
                raise IllegalMoveError.of("samloc.lead_cannot_pass", s=s)
        else:
            if not 0 < move <= FULL:
                raise IllegalMoveError.of("samloc.not_a_move", move=move)
            hand = self.hands[s]
            if move & ~hand:
                raise IllegalMoveError.of("samloc.not_in_hand", fmt=_fmt(move & ~hand), s=s)
            g = self.game
            c = R.classify(move, g._allow_two, g._dq)
            if c is None:
                raise IllegalMoveError.of("samloc.not_combination", fmt=_fmt(move))
            if self._towner < 0:
                if c[0] == DQUAD:
                    raise IllegalMoveError.of("samloc.double_quad_answer", _fmt(move))
            elif not R.beats(c, (self._ttype, self._tlen, self._tkey), g._dq, g._quad_pair):
                raise IllegalMoveError.of(
                    "samloc.does_not_beat", fmt=_fmt(move), fmt2=_fmt(self._top)
                )
            if c[0] == SINGLE and g._forced and not self._relax >> s & 1 and self._forced_now(s):
                hr = (hand.bit_length() - 1) >> 2
                if c[2] != hr:
                    raise IllegalMoveError.of(
                        "samloc.bao_mot", next_active=self._next_active(s), s=s, RANKS=RANKS[hr]
                    )
        self.apply_unchecked(move)

    def apply_unchecked(self, move: int) -> None:
        """Apply a move taken from ``legal_moves()`` (no checks)."""
        s = self._cur
        self._legal = None
        if move == PASS:
            self._hist.append((s, move))
            self._do_pass(s)
        elif move > FULL:
            self._hist.append((s, move))
            self._do_declaration(s, move == DECLARE)
        else:
            self._do_play(s, move)
            self._hist.append((s, move))

    # -- internals -----------------------------------------------------------------------
    def _start_play(self, leader: int) -> None:
        self._phase = PH_PLAY
        self._cur = leader

    def _do_declaration(self, s: int, declare: bool) -> None:
        if declare:
            self._declared |= 1 << s
        if s + 1 < self._n:
            self._cur = s + 1
            return
        d = self._priority_declarer()
        self._declarer = d
        self._start_play(self._first if d < 0 else d)

    def _priority_declarer(self) -> int:
        """Among the seats that declared so far: the previous winner if he declared, else the
        lowest seat (nearest the table owner); -1 when nobody declared."""
        dm = self._declared
        if not dm:
            return -1
        if self._prev >= 0 and dm >> self._prev & 1:
            return self._prev
        return (dm & -dm).bit_length() - 1

    def _combo_value(self) -> int:
        """Chop money of the current top (it is being chopped)."""
        g = self.game
        t = self._ttype
        if t == QUAD:
            return g._chop_quad
        if t == DQUAD:
            return 2 * g._chop_quad
        return g._chop_two * (self._top & TWOS).bit_count()

    def _end_round(self, leader: int) -> None:
        if self._chain_v:
            self._pay.append((self._chain_victim, self._chain_chopper, self._chain_v))
            self._chain_v = 0
        self._passed = 0
        self._towner = -1
        self._top = 0
        self._cur = leader

    def _do_pass(self, s: int) -> None:
        self._passed |= 1 << s
        owner = self._towner
        elig = self._active & ~self._passed & ~(1 << owner)
        if not elig:
            self._end_round(owner if self._active >> owner & 1 else self._next_active(owner))
            return
        for t in self.game._after[s]:
            if elig >> t & 1:
                self._cur = t
                return

    def _do_play(self, s: int, mask: int) -> None:
        g = self.game
        c = g._cls.get(mask)
        if c is None:
            c = R.classify(mask, g._allow_two, g._dq)
            if len(g._cls) >= _COMBOS_MAX:
                make_room(g._cls)
            g._cls[mask] = c
        ct, ln, key = c
        owner = self._towner
        hand_before = self.hands[s]
        if g._forced and ct == SINGLE and self._forced_now(s):
            if key < self._caps[s]:
                self._caps[s] = key
        hand = hand_before ^ mask
        self.hands[s] = hand
        self.table |= mask
        self.played[s] |= mask
        self._moved |= 1 << s
        declarer = self._declarer
        if declarer >= 0 and s != declarer:
            # any play by another seat beats the declarer: the Sâm is blocked
            if (ct == QUAD or ct == DQUAD) and g._sam_chop:
                v = self._combo_value()
                if v:
                    self._pay.append((declarer, s, v))
            self._pay.append((declarer, s, g._sam * g._sam_mult))
            self._set_top(s, mask, ct, ln, key, owner)
            self._winner = self._next_leader = s
            self._finish(END_SAM_BLOCKED)
            return
        if owner >= 0 and (ct == QUAD or ct == DQUAD):
            v = self._combo_value()
            if g._chain_all:
                self._chain_v += v
                self._chain_victim = owner
                self._chain_chopper = s
            elif v:
                self._pay.append((owner, s, v))
        if hand == 0:
            twos = (mask & TWOS).bit_count() if (ct != STRAIGHT or g._two_str) else 0
            if s == declarer:
                self._set_top(s, mask, ct, ln, key, owner)
                if twos:
                    for t in range(self._n):
                        if t != s and g._sam:
                            self._pay.append((s, t, g._sam))
                    self._finish(END_SAM_FAILED)
                else:
                    for t in range(self._n):
                        if t != s and g._sam:
                            self._pay.append((t, s, g._sam))
                    self._winner = self._next_leader = s
                    self._finish(END_SAM_SUCCESS)
                return
            if twos:
                self._out2[s] = twos
                self._active &= ~(1 << s)
                self._set_top(s, mask, ct, ln, key, owner)
                if self._active.bit_count() == 1:
                    self._end_normal(self._active.bit_length() - 1)
                    return
            else:
                den = -1
                if g._penalty and owner >= 0 and self._ttype == SINGLE and ct == SINGLE:
                    den = self._liable(s, key)
                self._set_top(s, mask, ct, ln, key, owner)
                self._den = den
                self._end_normal(s)
                return
        else:
            self._set_top(s, mask, ct, ln, key, owner)
        elig = self._active & ~self._passed & ~(1 << s)
        if not elig:
            self._end_round(s if self._active >> s & 1 else self._next_active(s))
            return
        for t in g._after[s]:
            if elig >> t & 1:
                self._cur = t
                return

    def _set_top(self, s: int, mask: int, ct: int, ln: int, key: int, owner: int) -> None:
        self._tlead = owner < 0
        self._top = mask
        self._ttype = ct
        self._tlen = ln
        self._tkey = key
        self._towner = s

    def _liable(self, a: int, rank: int) -> int:
        """Báo một: the seat liable for letting seat ``a`` go out with a single of ``rank`` on
        the current single top, or -1.  Called before the top is replaced."""
        p = self._prev_active(a)
        if p < 0 or p == a:
            return -1
        g = self.game
        if self._towner == p:
            then = self.hands[p] | self._top
            if then >> (4 * rank):
                return p
            if self._tlead and R.has_multi_card_combo(then, g._allow_two):
                return p
            return -1
        if g._pass_liable and self._hist and self._hist[-1] == (p, PASS):
            if self.hands[p] >> (4 * rank):
                return p
        return -1

    def _end_normal(self, w: int) -> None:
        g = self.game
        if self._chain_v:
            self._pay.append((self._chain_victim, self._chain_chopper, self._chain_v))
            self._chain_v = 0
        owed = []
        for p in range(self._n):
            if p == w:
                continue
            if self._out2[p]:
                amt = g._thoi_two * self._out2[p]
            else:
                h = self.hands[p]
                amt = (
                    (h.bit_count() if self._moved >> p & 1 else g._cong)
                    + g._thoi_two * (h & TWOS).bit_count()
                    + g._thoi_quad * R.ranks_with_at_least(h, 4).bit_count()
                )
            owed.append((p, amt))
        if self._den >= 0:
            total = sum(a for _, a in owed)
            if total:
                self._pay.append((self._den, w, total))
        else:
            for p, amt in owed:
                if amt:
                    self._pay.append((p, w, amt))
        self._winner = self._next_leader = w
        self._finish(END_NORMAL)

    def _finish(self, kind: str) -> None:
        self._end = kind
        self._phase = PH_OVER
        self._cur = TERMINAL
        ret = [0.0] * self._n
        for payer, payee, amt in self._pay:
            ret[payer] -= amt
            ret[payee] += amt
        self._returns = ret

    # -- results -------------------------------------------------------------------------
    def returns(self) -> list[float]:
        """Payoff per seat in bets (zeros before the end), zero-sum."""
        if self._returns is None:
            return [0.0] * self._n
        return list(self._returns)

    def settlement(self) -> list[tuple[int, int, float]]:
        """Transfers ``(payer, payee, amount in bets)``: settled chop money in order, then the
        end-of-game payments.  Empty before the end."""
        if self._phase != PH_OVER:
            return []
        return [(a, b, float(v)) for a, b, v in self._pay]

    def endgame_size(self) -> int | None:
        """Cards still in the hands of the seats in play, once the báo sâm round is over (exact
        endgames, :mod:`search.endgame`); None while seats may still declare."""
        if self._phase == PH_DECLARE:
            return None
        a = self._active
        return sum(h.bit_count() for s, h in enumerate(self.hands) if a >> s & 1)

    def endgame_key(self) -> Hashable:
        """Every field the continuations and payoffs depend on (hands, the trick, passes, seats
        in play, the declaration, the chop chain, the payments so far ...), not the history."""
        return (
            tuple(self.hands),
            self.table,
            self.set_aside,
            self._phase,
            self._cur,
            self._declared,
            self._declarer,
            self._top,
            self._ttype,
            self._tlen,
            self._tkey,
            self._towner,
            self._tlead,
            self._passed,
            self._active,
            self._moved,
            tuple(self._out2),
            self._chain_v,
            self._chain_victim,
            self._chain_chopper,
            tuple(self._pay),
            None if self._caps is None else tuple(self._caps),
            self._relax,
            self._winner,
            self._next_leader,
            self._end,
            self._den,
        )

    # -- information ---------------------------------------------------------------------
    def observation(self, seat: int) -> Hashable:
        """``(seat, seat's hand mask, previous winner or -1, public history, instant win)``:
        everything ``seat`` may know (hand sizes, the top, passes follow from the history)."""
        return (seat, self.hands[seat], self._prev, tuple(self._hist), self._iw_seat, self._iw_type)

    def sibling_key(self, seat: int) -> Hashable:
        """``(seat's hand mask, instant winner, instant win)``: every move is public and
        :meth:`observation` holds them all, so siblings (states after one same move from states
        of one information set) share the history and the previous winner."""
        return (self.hands[seat], self._iw_seat, self._iw_type)

    def zones(self) -> dict[str, int]:
        z = {f"hand{s}": self.hands[s] for s in range(self._n)}
        z["table"] = self.table
        z["set_aside"] = self.set_aside
        return z

    def known_cards(self, seat: int) -> dict[str, int]:
        return {f"hand{seat}": self.hands[seat], "table": self.table}

    def determinize(self, seat: int, rng: random.Random) -> "SamlocState":
        """Redraw every card ``seat`` cannot locate (opponents' hands and the set-aside pile) with
        the same counts, respecting what the public history implies (see :func:`sample_hidden`)."""
        det = self.clone()
        if self._phase == PH_OVER:
            return det
        g = self.game
        n = self._n
        fixed = [self.played[s] for s in range(n)]
        fixed[seat] |= self.hands[seat]
        need = [0 if s == seat else self.hands[s].bit_count() for s in range(n)]
        pool = self.set_aside
        for s in range(n):
            if s != seat:
                pool |= self.hands[s]
        caps = [12] * n if self._caps is None else self._caps[:]
        first_game_lowest = self._prev < 0 and g._lowest
        revealed = self._phase == PH_PLAY and self._declarer < 0
        leader = self._first if (first_game_lowest and revealed) else -1
        drawn, rest = sample_hidden(g, rng, fixed, need, pool, caps, leader, g._iw)
        for s in range(n):
            if s != seat:
                det.hands[s] = drawn[s]
        det.set_aside = rest
        det._deal = None
        det._legal = self._legal if self._cur == seat else None
        if first_game_lowest and not revealed:
            det._first = lowest_holder([det.hands[s] | det.played[s] for s in range(n)])
        return det

    # -- text ----------------------------------------------------------------------------
    def render(self, seat: int) -> str:
        g = self.game
        n = self._n
        lines = [f"Sâm lốc, {n} players - seat {seat}'s view"]
        lines.append(f"your hand: {_fmt(self.hands[seat]) or '(empty)'}")
        sizes = []
        for s in range(n):
            tag = []
            if s == self._declarer:
                tag.append("Sâm")
            if self._out2[s]:
                tag.append("out on a 2")
            if self._passed >> s & 1:
                tag.append("passed")
            if self.hands[s].bit_count() == 1:
                tag.append("báo một")
            sizes.append(
                f"seat {s}: {self.hands[s].bit_count()} cards"
                + (f" ({', '.join(tag)})" if tag else "")
            )
        lines.extend(sizes)
        if self._towner >= 0:
            c = R.classify(self._top, g._allow_two, g._dq)
            lines.append(f"top: {_fmt(self._top)} ({R.COMBO_NAMES[c[0]]}) by seat {self._towner}")
        if self._phase == PH_DECLARE:
            said = [str(t) for t in range(n) if self._declared >> t & 1]
            lines.append(
                f"báo sâm: seat {self._cur} to declare or decline"
                + (f" (declared so far: seat {', '.join(said)})" if said else "")
            )
        elif self._phase == PH_PLAY:
            lead = "leads a new round" if self._towner < 0 else "to beat the top or pass"
            lines.append(f"seat {self._cur} {lead}")
        else:
            lines.append(
                f"game over ({self._end}); winner: seat {self._winner}"
                if self._winner >= 0
                else f"game over ({self._end})"
            )
            if self._iw_seat >= 0:
                lines.append(
                    f"instant win: {R.INSTANT_WIN_NAMES[self._iw_type]} (seat {self._iw_seat})"
                )
            lines.append(
                "returns: " + ", ".join(f"seat {s} {r:+g}" for s, r in enumerate(self.returns()))
            )
        return "\n".join(lines)
