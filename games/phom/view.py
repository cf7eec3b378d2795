"""Hidden information for Phỏm: determinization and rebuilding a deal from one seat's view.

What a seat knows (``docs/rules/phom.md`` §14): its own hand (its draws included), every
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

from quansu.games.base import Deal, DealError, IllegalMoveError
from quansu.games.caches import cache_size, make_room
from quansu.games.cards import card_str, shuffle
from quansu.games.errors import Text
from quansu.games.phom import errors as _errors  # noqa: F401  (registers the texts)
from quansu.games.phom import rules as R

_TRIES = 24

#: (pool mask, eaten mask, one per meld) -> :func:`_witnesses`.  Bounded: trimmed at
#: :data:`_WITNESSES_MAX` entries.  A search draws every determinization from one pool, so the
#: constraints are worked out once per root and reused by every iteration.
_witness_cache: dict = {}
_WITNESSES_MAX = cache_size("phom_witnesses")


def _witnesses(pool: int, eaten: int, one: bool) -> tuple[int, ...]:
    """The minimal sets ``w`` of cards of ``pool`` such that ``R.cover(m | eaten, eaten, one)``
    holds exactly when ``m`` (cards of ``pool``) contains one of them.  (A cover of ``m |
    eaten`` is a cover of ``pool | eaten`` whose non-eaten cards lie in ``m``.)"""
    key = (pool, eaten, one)
    ws = _witness_cache.get(key)
    if ws is None:
        unions: list[int] = []
        R._cover_unions(pool | eaten, eaten, one, 0, unions)
        minimal: list[int] = []
        for u in sorted({u & ~eaten for u in unions}, key=lambda u: (u.bit_count(), u)):
            if not any(v & u == v for v in minimal):
                minimal.append(u)
        ws = tuple(minimal)
        if len(_witness_cache) >= _WITNESSES_MAX:
            make_room(_witness_cache)
        _witness_cache[key] = ws
    return ws


def _sample_constrained(
    pool: list[int], seats: list[int], sizes: dict, eaten: list[int], one: bool, rng: random.Random
) -> tuple[dict, list[int]] | None:
    """Hidden cards for the seats holding eaten cards, each hand satisfying the cover, drawn
    from ``pool``; returns (seat -> mask, the unused pool cards) or None.  First by rejection
    (uniform among valid hands), then by joint construction: a random 3-card meld from the pool
    around every eaten card, the rest at random."""
    pool_mask = 0
    for x in pool:
        pool_mask |= 1 << x
    # R.cover(m | eaten[o], eaten[o], one) for m within the pool  <=>  m holds a witness
    witnesses = {o: _witnesses(pool_mask, eaten[o], one) for o in seats}
    for _ in range(2):
        avail = pool[:]
        got = {}
        for o in seats:
            k = sizes[o]
            ws = witnesses[o]
            found = None
            for _round in range(2):
                shuffle(avail, rng)
                # every window of k consecutive cards of a random order is a uniform k-subset
                m = 0
                for x in avail[:k]:
                    m |= 1 << x
                for i in range(len(avail) - k + 1):
                    if i:
                        m ^= (1 << avail[i - 1]) | (1 << avail[i + k - 1])
                    for w in ws:
                        if w & m == w:
                            found = m
                            break
                    if found is not None:
                        break
                if found is not None:
                    break
            if found is None:
                break
            got[o] = found
            avail = [x for x in avail if not found >> x & 1]
        else:
            shuffle(avail, rng)
            return got, avail
    melds_of = R.MIN_MELDS if one else R.MELDS_WITH
    for _ in range(4 * _TRIES):
        order = seats[:]
        shuffle(order, rng)
        reserved = 0
        got = {}
        for o in order:
            e_all = eaten[o]
            chosen = 0
            es = R.bits(e_all)
            shuffle(es, rng)
            for e in es:
                free = pool_mask & ~reserved & ~chosen
                cands = [
                    m
                    for m in melds_of[e]
                    if not (m & ~(1 << e)) & ~(free | e_all)
                    and not (one and (m & e_all) != 1 << e)
                    and not m & chosen
                ]
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
            for x in avail[pos : pos + k]:
                got[o] |= 1 << x
            pos += k
        if all(any(w & got[o] == w for w in witnesses[o]) for o in seats):
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
    stock_old = st.stock[st.sp :]
    pool_mask = st.aside
    for x in stock_old:
        pool_mask |= 1 << x
    for o in opp:
        pool_mask |= hidden[o]
    pool = R.bits(pool_mask)
    shuffle(pool, rng)
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
        for x in pool[pos : pos + k]:
            m |= 1 << x
        pos += k
        new_hidden[o] = m
    ns = len(stock_old)
    new_stock = tuple(pool[pos : pos + ns])
    pos += ns
    new_aside = 0
    for x in pool[pos:]:
        new_aside |= 1 << x

    d = st.clone()
    for o in opp:
        d.hands[o] = new_hidden[o] | eaten[o]
    d.stock = st.stock[: st.sp] + new_stock
    d.aside = new_aside
    d._deal_src = (
        st._deal_src,
        (opp, hidden, new_hidden, stock_old, new_stock, st.aside, new_aside),
    )
    return d


# -- rebuilding a deal from a seat's view -------------------------------------------------------


class _PublicTurns:
    """Whose turn it is and in which phase, followed from the public moves alone.

    Mirrors the phase logic of :class:`games.phom.state.PhomState` on public facts (hand sizes,
    stock size, who has laid down, the owners of the laid melds, the last discard), so that a
    history whose moves are made out of turn, in the wrong phase or after the end is rejected
    with ``moves[i]`` before any deal is built.  What depends on hidden cards (Ù, whether an eat
    or a lay is possible) is left to the replay of the rebuilt deal.
    """

    def __init__(self, game, counts: Sequence[int], first: int, stock_len: int):
        self.game = game
        self.n = game.num_players
        self.cnt = list(counts)
        self.cur = first
        self.phase = R.DISCARD
        self.kind = R.NORMAL
        self.stock_len = stock_len
        self.drawn = 0
        self.s_now = stock_len
        self.laid = 0
        self.owners: list[int] = []
        self.last: int | None = None  # internal card of the last discard while it can be eaten
        self.over = False

    def _expected(self) -> str:
        return {R.TAKE: "draw / eat", R.LAY: "lay", R.SEND: "send / discard", R.DISCARD: "discard"}[
            self.phase
        ]

    def step(self, i: int, s: int, mv, text: str) -> None:
        """Apply move ``mv`` (text ``text``) of seat ``s``, the ``i``-th of the history; raise
        :class:`IllegalMoveError` naming ``moves[i]`` when it cannot be made now."""
        if self.over:
            raise IllegalMoveError.of("phom.move_after_end", f"moves[{i}]", text=text, s=s)
        if s != self.cur:
            raise IllegalMoveError.of("phom.out_of_turn", f"moves[{i}]", s=s, cur=self.cur)
        ph = self.phase
        g = self.game

        def wrong_phase() -> IllegalMoveError:
            return IllegalMoveError.of(
                "phom.wrong_phase_view",
                f"moves[{i}]",
                text=text,
                s=s,
                expected=self._expected(),
                phase=Text(f"phom.phase_{R.PHASE_NAMES[ph]}"),
            )

        if isinstance(mv, tuple):  # lay
            if ph != R.LAY:
                raise wrong_phase()
            k = sum(m.bit_count() for m in mv)
            if k >= self.cnt[s]:
                raise IllegalMoveError.of(
                    "phom.keep_one_to_discard", f"moves[{i}]", text=text, s=s, cnt=self.cnt[s]
                )
            self.cnt[s] -= k
            self.owners.extend([s] * len(mv))
            if self.kind == R.LAYDOWN:
                self.laid |= 1 << s
            self.phase = R.SEND if self._can_enter_send(s) else R.DISCARD
        elif mv == R.U:
            if g._auto:
                raise IllegalMoveError.of("phom.u_automatic", f"moves[{i}]")
            self.over = True
        elif mv == R.DRAW:
            if ph != R.TAKE:
                raise wrong_phase()
            if self.drawn >= self.stock_len:
                raise IllegalMoveError.of("phom.stock_empty", f"moves[{i}]", s=s)
            self.drawn += 1
            self.last = None
            self._after_take(s)
        elif R.EAT <= mv < R.EAT + 52:
            if ph != R.TAKE:
                raise wrong_phase()
            x = mv - R.EAT
            if self.last != x:
                now = Text("phom.no_card") if self.last is None else R.card_text(self.last)
                raise IllegalMoveError.of(
                    "phom.eat_only_last_discard", f"moves[{i}]", text=text, now=now
                )
            self.last = None
            self._after_take(s)
        elif mv < 52:  # discard (also ends the sending: Phỏm has no 'done')
            if ph not in (R.DISCARD, R.SEND):
                raise wrong_phase()
            self.cnt[s] -= 1
            self.last = mv
            if self.s_now == 0:
                self.over = True
                return
            self.cur = (s + 1) % self.n
            self.phase = R.TAKE
            self.kind = R.NORMAL
        else:  # send
            if ph != R.SEND:
                raise wrong_phase()
            j = (mv - R.SEND_BASE) // 64
            if j >= len(self.owners):
                raise IllegalMoveError.of(
                    "phom.no_such_meld_laid",
                    f"moves[{i}]",
                    text=text,
                    j=j,
                    n_owners=len(self.owners),
                )
            if self.owners[j] == s and self.kind != R.TAI:
                raise IllegalMoveError.of("phom.send_own_meld", f"moves[{i}]", text=text, j=j, s=s)
            self.cnt[s] -= 1
            left = self.cnt[s]
            if g._auto and g._send_all and left <= 1:
                self.over = True
            elif left < 2:
                self.phase = R.DISCARD

    def _after_take(self, p: int) -> None:
        self.cnt[p] += 1
        self.s_now = self.stock_len - self.drawn
        if self.laid >> p & 1:
            self.kind, self.phase = R.TAI, R.LAY
        elif self.s_now <= self.n - 1:
            self.kind, self.phase = R.LAYDOWN, R.LAY
        else:
            self.kind, self.phase = R.NORMAL, R.DISCARD

    def _can_enter_send(self, p: int) -> bool:
        if self.cnt[p] < 2 or p not in self.owners:
            return False
        if self.kind == R.TAI:
            return self.game._tai_send
        return any(o != p for o in self.owners)


def deal_for_view(
    game,
    seat: int,
    hand: Sequence[int],
    counts: Sequence[int],
    moves: Sequence,
    rng: random.Random,
    *,
    first: int = 0,
    drawn: Sequence[int] = (),
    trump=None,
) -> Deal:
    """A full deal consistent with ``seat``'s view (see :meth:`games.base.Game.deal_for_view`).

    The history is first followed turn by turn on public facts (:class:`_PublicTurns`): a move
    out of turn, of the wrong phase or after the end raises :class:`IllegalMoveError` naming
    ``moves[i]``.  Every card an opponent later plays from his hand (discards, laid cards other
    than his eaten ones, sends) is dealt to him or put on one of his earlier draws; the partner
    cards of an eaten card that is laid later are in his hand by the time he ate it (strict
    attempts); an eaten card that is not yet laid gets random partner cards forming a phỏm with
    it.  The rest is random.  The result is replayed to check it (a deal whose replay ends in a Ù
    that the view does not show is only a last resort); up to 40 random attempts are made before
    giving up with the last error.
    """
    n = game.num_players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise DealError.of("phom.seat_not_a_seat", "seat", seat=seat, n=n - 1)

    def as_list(value, name: str) -> list:
        try:
            return list(value)
        except TypeError:
            raise DealError.of("phom.expected_list", name, value=value) from None

    hand = as_list(hand, f"deal.hands[{seat}]")
    counts = as_list(counts, "counts")
    drawn = as_list(drawn, "drawn")
    try:
        moves = list(moves)
    except TypeError:
        raise IllegalMoveError.of("phom.moves_not_list", "moves", moves=moves) from None
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
        raise DealError.of("phom.first_not_a_seat", "deal.first", first=first, n=n - 1)
    if trump is not None:
        raise DealError.of("phom.no_trump", "deal.trump")
    if len(counts) != n:
        raise DealError.of("phom.counts_entries", "counts", n_counts=len(counts), n=n)
    for s in range(n):
        want = 10 if s == first else 9
        if counts[s] != want:
            raise DealError.of(
                "phom.counts_size",
                f"deal.hands[{s}]",
                counts=counts[s],
                want=want,
                who=Text("phom.who_first" if s == first else "phom.who_seat"),
            )
    mine = 0
    for c in hand:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
            raise DealError.of("phom.bad_card_id", f"deal.hands[{seat}]", c=c)
        if mine >> c & 1:
            raise DealError.of("phom.card_twice_in_hand", card=card_str(c), seat=seat)
        mine |= 1 << c
    if len(hand) != counts[seat]:
        raise DealError.of(
            "phom.count_size",
            f"deal.hands[{seat}]",
            n_hand=len(hand),
            counts=counts[seat],
            who=Text("phom.who_first" if seat == first else "phom.who_seat"),
        )
    for c in drawn:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
            raise DealError.of("phom.bad_card_id", "drawn", c=c)
        if mine >> c & 1:
            raise DealError.of("phom.card_already_seat", "drawn", card=card_str(c), seat=seat)
        mine |= 1 << c

    to_int = R.TO_INT
    to_ext = R.TO_EXT
    stock_len = 4 * n - 1
    # walk the public moves
    draw_slots: list[list[int]] = [[] for _ in range(n)]  # stock positions drawn per seat
    my_positions: list[int] = []
    need: dict[int, list] = {}  # ext card -> [seat, deadline draws, move index]
    eaten_at: dict[int, tuple[int, int]] = {}  # ext card -> (seat, draws before the eat)
    laid_eaten: set[int] = set()
    partner_deadline: list[tuple[int, int, int]] = []
    draws = [0] * n
    pos = 0
    turns = _PublicTurns(game, counts, first, stock_len)

    def require(c_ext: int, s: int, i: int, deadline: int) -> None:
        if mine >> c_ext & 1:
            raise IllegalMoveError.of(
                "phom.plays_others_card", f"moves[{i}]", s=s, card=card_str(c_ext), seat=seat
            )
        got = need.get(c_ext)
        if got is None:
            need[c_ext] = [s, deadline, i]
        elif got[0] != s:
            raise IllegalMoveError.of(
                "phom.already_played", f"moves[{i}]", s=s, card=card_str(c_ext), got=got[0]
            )
        else:
            got[1] = min(got[1], deadline)

    for i, item in enumerate(moves):
        try:
            s, mv = item
        except (TypeError, ValueError):
            raise IllegalMoveError.of("phom.expected_seat_move", f"moves[{i}]", item=item) from None
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n:
            raise IllegalMoveError.of("phom.bad_seat", f"moves[{i}]", s=s)
        try:
            text = game.move_to_text(mv)
        except Exception:
            raise IllegalMoveError.of("phom.not_a_move_value", f"moves[{i}]", mv=mv) from None
        turns.step(i, s, mv, text)
        if isinstance(mv, tuple):
            if s == seat:
                continue
            for m in mv:
                es = [
                    x
                    for x in R.bits(m)
                    if eaten_at.get(to_ext[x], (None,))[0] == s and to_ext[x] not in laid_eaten
                ]
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
                raise IllegalMoveError.of("phom.stock_empty", f"moves[{i}]", s=s)
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
                    raise IllegalMoveError.of(
                        "phom.discards_eaten", f"moves[{i}]", s=s, card=card_str(c)
                    )
                require(c, s, i, draws[s])
        elif mv >= 256:
            if s != seat:
                require(to_ext[(mv - 256) % 64], s, i, draws[s])
    if len(my_positions) != len(drawn):
        raise DealError.of(
            "phom.drawn_count",
            "drawn",
            n_drawn=len(drawn),
            seat=seat,
            n_my_positions=len(my_positions),
        )
    unlaid = [(c, st) for c, st in eaten_at.items() if c not in laid_eaten and st[0] != seat]

    last_err: Exception | None = None
    one = game._one
    ended: Deal | None = None  # a deal whose replay ends where the public history does not
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
        shuffle(free, rng)
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
            if not one:  # a phỏm may hold several eaten cards: his other unlaid ones may serve
                for d, (s2, _t2) in unlaid:
                    if s2 == s:
                        held |= 1 << to_int[d]
            avail = free_mask | held
            cands = [m for m in R.MIN_MELDS[x] if not (m & ~(1 << x)) & ~avail]
            if not cands and not one:
                # several eaten cards may share a longer phỏm: the fewest new cards
                longer = [
                    ((m & ~held).bit_count(), m)
                    for m in R.MELDS_WITH[x]
                    if not (m & ~(1 << x)) & ~avail
                ]
                fewest = min((k for k, _m in longer), default=0)
                cands = [m for k, m in longer if k == fewest]
            if not cands:
                ok = False
                break
            m = rng.choice(cands)
            for y in R.bits(m & ~(1 << x)):
                ce = to_ext[y]
                if not held >> y & 1:
                    req[ce] = [s, t, -1]
                    free.remove(ce)
                elif strict and ce in req:  # in his hand by the time he ate
                    req[ce][1] = min(req[ce][1], t)
        if not ok:
            last_err = IllegalMoveError.of("phom.view_no_meld", "moves")
            continue
        hands: list[list[int]] = [[] for _ in range(n)]
        stock: list[int | None] = [None] * stock_len
        for j, p in enumerate(my_positions):
            stock[p] = drawn[j]
        hands[seat] = list(hand)
        # the deadlines depend on this attempt's choices (strict partner deadlines, random
        # partners), so a failure here moves on to the next attempt
        for o in range(n):
            if o == seat or not ok:
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
                last_err = IllegalMoveError.of(
                    "phom.cannot_hold_in_time", where, o=o, card=card_str(c)
                )
                ok = False
                break
            if not ok:
                continue
            if attempt % 2:
                # earliest deadlines first fills the dealt hand with the cards played later,
                # which can make a Ù (or another hidden fact) that the history rules out: move
                # some of them onto his unused later draws (each still drawn before it is played)
                open_slots = list(range(k, len(slots)))
                kept = []
                for deadline, _r, c in cards[: len(hands[o])]:
                    fits = [j for j in open_slots if j < deadline]
                    if fits and rng.random() < 0.5:
                        j = rng.choice(fits)
                        open_slots.remove(j)
                        stock[slots[j]] = c
                        cap += 1
                    else:
                        kept.append(c)
                hands[o] = kept
            if cap > len(free):
                last_err = IllegalMoveError.of("phom.view_too_many_cards", "moves")
                ok = False
                continue
            while cap > 0:
                hands[o].append(free.pop())
                cap -= 1
        if not ok:
            continue
        if sum(1 for c in stock if c is None) > len(free):
            last_err = IllegalMoveError.of("phom.view_too_many_cards", "moves")
            continue
        for p in range(stock_len):
            if stock[p] is None:
                stock[p] = free.pop()
        deal = Deal(
            hands=tuple(tuple(h) for h in hands),
            first=first,
            stock=tuple(stock),
            set_aside=tuple(free),
        )
        try:
            replayed = game.replay(deal, moves)
        except IllegalMoveError as e:
            last_err = e
            continue
        if replayed.is_terminal() and not turns.over:
            # the hidden cards made an Ù that the view does not show (e.g. an opponent's tái
            # draw): keep looking for a deal that goes on, as the game in the view may
            ended = ended or deal
            continue
        return deal
    if ended is not None:
        return ended
    assert last_err is not None
    raise IllegalMoveError.wrap(last_err)
