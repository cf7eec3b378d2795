"""Phỏm (Tá lả) on the common game interface: :class:`PhomGame` and :class:`PhomState`.

Rules, options and the engine's own decisions: ``docs/rules/phom.md``.

A turn as moves
---------------
Every decision of a turn is its own move of the seat to act (canonical text in brackets):

1. **take** (phase ``TAKE``): ``draw`` (top stock card, seen only by the drawer) or ``eat C``
   (the previous seat's last discard, when the eaten-cover invariant holds afterwards).  The first
   player's opening turn has no take.
2. **Ù** is checked right after the take (and after each send): with ``auto_declare_u`` (default)
   the engine declares it inside that move and the game ends; otherwise ``u`` is offered beside
   the other moves.  Ù khan is checked when a seat's first turn begins (before taking).
3. **lay** (phase ``LAY``; the lay-down turn, once the stock holds ``<= N-1`` cards after taking,
   and every tái turn): one move per distinct legal arrangement, ``lay 4D 5D 6D / 7S 7C 7H``;
   ``lay`` alone lays nothing (móm, or no new meld in a tái turn).
4. **send** (phase ``SEND``; after laying at least one meld in the game, when sending is allowed
   in this turn and a target meld exists): ``send 8H to 3`` (one card to one laid meld, meld ids
   in the order laid from 0), repeated; the ``discard`` that follows ends the sending (Phỏm has
   no ``done``: in this phase the legal moves are the sends and the discards).
5. **discard** (phases ``SEND`` and ``DISCARD``): ``discard KC`` (never an eaten or tied card);
   it ends the turn.

Which phases occur depends only on public facts (stock size, who has laid down, the table, hand
sizes), never on a hidden card, so observers learn only what the moves show.

Move values (internal card index ``x`` of :mod:`games.phom.rules`): ``x`` = discard,
``64 + x`` = eat, ``256 + 64 * i + x`` = send to meld ``i``, :data:`DRAW`, :data:`U`, and a
tuple of internal meld masks (sorted by lowest card) = lay.
"""

from __future__ import annotations

import json
import random
from typing import Any, Hashable

from quansu.games.base import (HAND_ZONES as _HAND_KEYS, TERMINAL, Deal, DealError, Game,
                               IllegalMoveError, MoveInfo, MoveParseError, OptionError, OptionSpec,
                               SearchTuning, State)
from quansu.games.cards import CardError, card_str, parse_card
from quansu.games.errors import Text
from quansu.games.phom import errors as _errors  # noqa: F401  (registers the texts)
from quansu.games.phom import rules as R
from quansu.games.phom import settle as S

TAKE, LAY, SEND, DISCARD, OVER = 0, 1, 2, 3, 4
PHASE_NAMES = ("take", "lay", "send", "discard", "over")
NORMAL, LAYDOWN, TAI = 0, 1, 2
EAT = 64
DRAW = 200
U = 202
SEND_BASE = 256
#: Turn flags: something was laid or sent this turn / a card was sent this turn.
F_ACTED, F_SENT = 1, 2

_TO_INT = R.TO_INT
_TO_EXT = R.TO_EXT
_ALL52 = frozenset(range(52))
#: zone names per seat, and the ext-id bit of each internal card (hot paths of the encoder)
_DISCARD_KEYS = tuple(f"discard{s}" for s in range(4))
_EXT_BIT = tuple(1 << R.TO_EXT[x] for x in range(52))

_heuristic_move = None  # games.phom.heuristic.heuristic_move, once imported


def _opt_specs() -> tuple[OptionSpec, ...]:
    return (
        OptionSpec("send_all_counts_as_u", True,
                   "sending away all trash but at most one card in a lay-down or tái turn is Ù "
                   "(seed 000); false: seed 001", type=bool),
        OptionSpec("u_khan_enabled", True,
                   "a dealt hand with no phỏm and no cạ wins at once (Ù khan)", type=bool),
        OptionSpec("u_khan_payment", 5, "bets each other player pays for Ù khan", type=float,
                   minimum=0, maximum=1000),
        OptionSpec("u_tron_enabled", False,
                   "Ù tròn (all 10 cards in phỏm after taking) pays 10 per loser (seed 001)",
                   type=bool),
        OptionSpec("dong_hoa_trang_enabled", False,
                   "Ù with every card of the hand of one suit and in phỏm, none left outside, "
                   "pays 10 per loser (seed 001)", type=bool),
        OptionSpec("u_thong_enabled", False,
                   "Ù in consecutive games pays +2 per loser (seed 001; needs the option "
                   "'previous_u_winner')", type=bool),
        OptionSpec("previous_u_winner", -1,
                   "seat that won the previous game by Ù, for Ù thông (-1: none, e.g. the first "
                   "game of a session)", type=int, minimum=-1, maximum=3),
        OptionSpec("dong_hoa_enabled", False,
                   "5 consecutive natural cards of one suit inside one's laid phỏm earn 2 from "
                   "each player without (seed 001)", type=bool),
        OptionSpec("u_k_enabled", False,
                   "a laid set of 3 / 4 natural kings earns 5 / 10 from each other player "
                   "(seed 001)", type=bool),
        OptionSpec("ca_k_enabled", False,
                   "an eaten king pays 2 / 4 / 6 by round, 10 if a chốt card (seed 001)",
                   type=bool),
        OptionSpec("den_an_chot", False,
                   "the last player to eat a chốt card pays the whole Ù of anyone else (seed "
                   "001, incl. chốt hạ ù đền)", type=bool),
        OptionSpec("one_eaten_card_per_meld", True,
                   "each phỏm holds exactly one eaten card (false: at least one)", type=bool),
        OptionSpec("chot_payment_mode", "replace",
                   "a chốt card eaten pays the chốt amount ('replace') or the eat amount plus it "
                   "('add')", choices=("replace", "add"), type=str),
        OptionSpec("eat_payments", (1, 2, 3, 4),
                   "bets the victim pays for the eater's 1st, 2nd, 3rd eat and for a chốt card",
                   type=tuple, minimum=0, maximum=1000),
        OptionSpec("last_place_pays", "by_position",
                   "with fewer than 4 players the last place pays by position or always 3",
                   choices=("by_position", "always_3"), type=str),
        OptionSpec("mom_payment", 4, "bets a móm (cháy) player pays the winner", type=float,
                   minimum=0, maximum=1000),
        OptionSpec("u_payment", 5, "bets each other player pays the Ù player", type=float,
                   minimum=0, maximum=1000),
        OptionSpec("tai_turn_can_send", True,
                   "in a tái turn the player may send cards (tái gửi)", type=bool),
        OptionSpec("tai_tiebreak", True,
                   "on equal points a player without a tái turn ranks above one with",
                   type=bool),
        OptionSpec("all_mom_first_layer_wins", True,
                   "when everybody is móm the first to lay down wins (false: no ranking money)",
                   type=bool),
        OptionSpec("auto_declare_u", True,
                   "the engine declares Ù as soon as it is possible (false: a 'u' move)",
                   type=bool),
        OptionSpec("first_game_first_player", "seat0",
                   "first player of a random deal: seat 0 (table owner) or a random seat",
                   choices=("seat0", "random"), type=str),
    )


def _meld_text(m: int) -> str:
    return R.mask_text(m)


class PhomGame(Game):
    """Phỏm for 2-4 players.  Options: :attr:`option_specs` (explained in docs/rules/phom.md).

    Deal (:class:`games.base.Deal`, ext card ids): ``hands[first]`` 10 cards, the others 9;
    ``stock`` exactly 4N-1 cards, top first; ``set_aside`` the other 52-13N cards; ``first`` the
    first player (table owner / previous winner).  ``extra`` must be empty: what carries over
    from the previous game (the Ù winner, for Ù thông) is the option ``previous_u_winner``.
    """

    name = "phom"
    title = "Phỏm (Tá lả)"
    min_players = 2
    max_players = 4
    option_specs = _opt_specs()
    max_moves = 400
    #: 2: no ``done`` (the discard ends the sending); đồng hoa trắng needs every card in phỏm
    rules_version = 2
    #: Heuristic playouts: stronger than random ones at the levels' budgets.  Anchor: a
    #: quarter of the root prior on the sparring bot's move measured clearly stronger than
    #: none.  Levels 4-5: the improvement step lifts level 5 above the sparring bot.
    #: Analyze: at most 32,768 worlds a decision; the hidden stock makes Phỏm the noisiest game,
    #: and marks steady under seeds need that many (about 109 s of one core a game).  Hints: at
    #: most 96 worlds (128 elsewhere): Phỏm's playouts are the noisiest and among the longest,
    #: and 96 keeps the hints as steady as 128 at a lower latency (docs/search.md).
    tuning = SearchTuning(playout="heuristic", anchor=0.25, improve_worlds=160,
                          improve_candidates=4, analysis_worlds=32768, hint_worlds=96,
                          guided_leaf="rollout")
    #: A seat's payoff averages 4.4 bets in absolute value in a 4-player game of the rule-based
    #: bots (``python -m quansu.bench.stake``), so the mark thresholds, shares of the stake,
    #: weigh a loss as in the other games.
    stake = 4.0

    def check_options(self) -> None:
        o = self.options
        for k, v in (("u_khan_payment", o["u_khan_payment"]), ("mom_payment", o["mom_payment"]),
                     ("u_payment", o["u_payment"])):
            if v < 0:
                raise OptionError.of("phom.option_negative", k=k, v=v)
        if any(v < 0 for v in o["eat_payments"]):
            raise OptionError.of("phom.eat_payments_negative", o=o['eat_payments'])
        prev = o["previous_u_winner"]
        n = self.num_players
        if not -1 <= prev < n:
            raise OptionError.of("phom.previous_u_winner_seat", prev=prev, n=n - 1)
        self._prev_u = prev
        self._one = o["one_eaten_card_per_meld"]
        self._auto = o["auto_declare_u"]
        self._send_all = o["send_all_counts_as_u"]
        self._khan = o["u_khan_enabled"]
        self._tai_send = o["tai_turn_can_send"]

    # -- facts ---------------------------------------------------------------------------------
    def payoff_bound(self) -> float:
        """Largest possible |net| of one seat in bets: 3 eats at the highest eat price plus
        N-1 opponents each paying the largest end amount with every bonus."""
        o = self.options
        ep = o["eat_payments"]
        max_eat = max(ep[:3]) + (ep[3] if o["chot_payment_mode"] == "add" else 0)
        max_eat = max(max_eat, ep[3])
        if o["ca_k_enabled"]:
            max_eat = max(max_eat, 10)
        per = max(o["u_payment"], o["u_khan_payment"] if o["u_khan_enabled"] else 0,
                  10 if o["u_tron_enabled"] or o["dong_hoa_trang_enabled"] else 0,
                  o["mom_payment"], 3)
        per += (2 if o["u_thong_enabled"] else 0) + (2 if o["dong_hoa_enabled"] else 0)
        per += 10 if o["u_k_enabled"] else 0
        return float(3 * max_eat + (self.num_players - 1) * per)

    # -- deals ---------------------------------------------------------------------------------
    def random_deal(self, rng: random.Random) -> Deal:
        n = self.num_players
        deck = list(range(52))
        rng.shuffle(deck)
        first = 0 if self.options["first_game_first_player"] == "seat0" else rng.randrange(n)
        hands = []
        pos = 0
        for s in range(n):
            k = 10 if s == first else 9
            hands.append(tuple(deck[pos:pos + k]))
            pos += k
        stock = tuple(deck[pos:pos + 4 * n - 1])
        pos += 4 * n - 1
        return Deal(hands=tuple(hands), first=first, stock=stock, set_aside=tuple(deck[pos:]))

    def check_deal(self, deal: Deal) -> None:
        """Raise :class:`DealError` naming the field when ``deal`` is impossible for this game."""
        n = self.num_players
        if not isinstance(deal, Deal):
            raise DealError.of("phom.expected_deal", "deal", type=type(deal).__name__)
        # fast path for well-formed deals; the detailed checks below name what is wrong
        first = deal.first
        try:
            if (type(first) is int and 0 <= first < n and len(deal.hands) == n
                    and deal.trump is None and len(deal.stock) == 4 * n - 1
                    and len(deal.set_aside) == 52 - 13 * n
                    and all(len(h) == (10 if s == first else 9) for s, h in enumerate(deal.hands))
                    and not deal.extra):
                cards = [c for h in deal.hands for c in h]
                cards += deal.stock
                cards += deal.set_aside
                if set(cards) == _ALL52 and len(cards) == 52 and bool not in set(map(type, cards)):
                    return
        except TypeError:
            pass
        first = deal.first
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
            raise DealError.of("phom.first_not_a_seat", "deal.first", first=first, n=n - 1)
        if len(deal.hands) != n:
            raise DealError.of("phom.hands_for_players", "deal.hands", n_hands=len(deal.hands), n=n)
        seen: dict[int, str] = {}

        def note(c: Any, where: str) -> None:
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
                raise DealError.of("phom.bad_card_id", where, c=c)
            if c in seen:
                raise DealError.of("phom.card_dealt_twice", card=card_str(c), seen=seen[c],
                                   where=where)
            seen[c] = where

        for s, hand in enumerate(deal.hands):
            want = 10 if s == first else 9
            if len(hand) != want:
                raise DealError.of("phom.hand_size", f"deal.hands[{s}]", n_hand=len(hand),
                                   want=want,
                                   who=Text("phom.who_first" if s == first else "phom.who_seat"))
            for c in hand:
                note(c, f"deal.hands[{s}]")
        if len(deal.stock) != 4 * n - 1:
            raise DealError.of("phom.stock_size", "deal.stock", n_stock=len(deal.stock),
                               value=4 * n - 1, n=n)
        for c in deal.stock:
            note(c, "deal.stock")
        if len(deal.set_aside) != 52 - 13 * n:
            raise DealError.of("phom.set_aside_size", "deal.set_aside",
                               n_set_aside=len(deal.set_aside),
                               value=52 - 13 * n, n=n)
        for c in deal.set_aside:
            note(c, "deal.set_aside")
        if deal.trump is not None:
            raise DealError.of("phom.no_trump", "deal.trump")
        if deal.extra:
            got = repr(deal.extra)
            if len(got) > 60:
                got = got[:57] + "..."
            raise DealError.of("phom.no_extra", "deal.extra", got=got)

    def state_from_deal(self, deal: Deal) -> "PhomState":
        if isinstance(deal, Deal) and not deal.set_aside and self.num_players < 4:
            deal = self._fill_set_aside(deal)
        self.check_deal(deal)
        return PhomState(self, deal)

    @staticmethod
    def _fill_set_aside(deal: Deal) -> Deal:
        """A deal without ``set_aside`` (a record may leave it out): the cards that are in no
        hand and not in the stock, in card-id order.  Bad hands or stock are left to
        :meth:`check_deal`, which names them before the set-aside cards."""
        try:
            placed = {c for h in deal.hands for c in h} | set(deal.stock)
        except TypeError:
            return deal
        rest = tuple(c for c in range(52) if c not in placed)
        return Deal(hands=deal.hands, first=deal.first, stock=deal.stock, set_aside=rest,
                    trump=deal.trump, extra=deal.extra)

    def deal_for_view(self, seat, hand, counts, moves, rng, *, first=0, drawn=(), trump=None):
        from quansu.games.phom.view import deal_for_view
        return deal_for_view(self, seat, hand, counts, moves, rng, first=first, drawn=drawn,
                             trump=trump)

    # -- moves ---------------------------------------------------------------------------------
    def move_to_text(self, move) -> str:
        if isinstance(move, tuple):
            for m in move:
                if type(m) is not int or not R.is_meld(m):
                    raise MoveParseError.of("phom.not_a_move", move=move)
            if not move:
                return "lay"
            return "lay " + " / ".join(_meld_text(m) for m in move)
        if not isinstance(move, int) or isinstance(move, bool):
            raise MoveParseError.of("phom.not_a_move", move=move)
        if 0 <= move < 52:
            return "discard " + R.card_text(move)
        if EAT <= move < EAT + 52:
            return "eat " + R.card_text(move - EAT)
        if move == DRAW:
            return "draw"
        if move == U:
            return "u"
        if move >= SEND_BASE and (move - SEND_BASE) % 64 < 52:
            i, x = divmod(move - SEND_BASE, 64)
            return f"send {R.card_text(x)} to {i}"
        raise MoveParseError.of("phom.not_a_move", move=move)

    def parse_move(self, text: str):
        if not isinstance(text, str):
            raise MoveParseError.of("phom.move_not_text", text=text)
        t = text.strip().lower()
        parts = t.split()
        if not parts:
            raise MoveParseError.of("phom.move_empty", text=text)
        head = parts[0]

        def card(s: str) -> int:
            try:
                return _TO_INT[parse_card(s)]
            except CardError as e:
                raise MoveParseError.of("phom.bad_move_cards", text=text, error=e) from None

        if head in ("draw", "u") and len(parts) == 1:
            return DRAW if head == "draw" else U
        if head == "done":
            # the former dialect of this project: refused, never reinterpreted
            raise MoveParseError.of("phom.no_done",
                                    move=json.dumps(text.strip(), ensure_ascii=False))
        if head in ("eat", "discard") and len(parts) == 2:
            x = card(parts[1])
            return x if head == "discard" else EAT + x
        if head == "send" and len(parts) == 4 and parts[2] == "to":
            x = card(parts[1])
            if not parts[3].isdigit():
                raise MoveParseError.of("phom.meld_id_not_number", text=text, parts=parts[3])
            i = int(parts[3])
            if i > 1000:
                raise MoveParseError.of("phom.meld_id_range", text=text, i=i)
            return SEND_BASE + 64 * i + x
        if head == "lay":
            rest = t[3:].strip()
            if not rest:
                return ()
            melds = []
            used = 0
            for grp in rest.split("/"):
                cards = grp.split()
                if not cards:
                    raise MoveParseError.of("phom.empty_meld", text=text)
                m = 0
                for s in cards:
                    x = card(s)
                    if m >> x & 1:
                        raise MoveParseError.of("phom.card_named_twice", text=text,
                                                card_text=R.card_text(x))
                    m |= 1 << x
                if not R.is_meld(m):
                    raise MoveParseError.of("phom.not_a_meld", text=text,
                                            meld_text=_meld_text(m))
                if m & used:
                    raise MoveParseError.of("phom.melds_share", text=text)
                used |= m
                melds.append(m)
            melds.sort(key=R.meld_key)
            return tuple(melds)
        raise MoveParseError.of("phom.bad_move_text", text=text)

    def describe_move(self, move) -> MoveInfo:
        if isinstance(move, tuple):
            self.move_to_text(move)  # validates
            melds = tuple(tuple(_TO_EXT[x] for x in sorted(R.bits(m), key=R.card_key)) for m in move)
            return MoveInfo("lay", cards=tuple(c for m in melds for c in m), melds=melds)
        self.move_to_text(move)  # validates
        if move < 52:
            return MoveInfo("discard", cards=(_TO_EXT[move],))
        if move < EAT + 52:
            return MoveInfo("eat", cards=(_TO_EXT[move - EAT],))
        if move == DRAW:
            return MoveInfo("draw")
        if move == U:
            return MoveInfo("u")
        i, x = divmod(move - SEND_BASE, 64)
        return MoveInfo("send", cards=(_TO_EXT[x],), target=i)

    def heuristic_move(self, state: "PhomState", rng: random.Random):
        global _heuristic_move
        if _heuristic_move is None:  # imported once, on first use (the heuristic imports this module)
            from quansu.games.phom.heuristic import heuristic_move as _heuristic_move
        return _heuristic_move(state, rng)

    def sparring_move(self, state: "PhomState", rng: random.Random):
        """The sparring bot's move (:mod:`games.phom.sparring`: card tracking, danger of each
        discard to the next seat, hand plan with live outs, móm and Ù chances, lay and send
        planning) for the seat to act, from that seat's information only."""
        from quansu.games.phom.sparring import choose
        return choose(self, state, rng)


class PhomState(State):
    """A Phỏm position.  All masks are internal (:mod:`games.phom.rules`); :meth:`zones` and
    :meth:`known_cards` give project card ids.

    Public per seat: eaten cards still in hand (``eaten``), hand sizes, discard rows (``rows``,
    after card shifting), laid melds (``table``: ``(owner, mask, owner's own cards, eaten cards
    in it)``), lay-down order, tái turns, eat counts, stock size.  Hidden: the other hands' other
    cards, the stock order, the set-aside cards.
    """

    __slots__ = ("game", "n", "hands", "eaten", "rows", "stock", "sp", "aside", "table", "cur",
                 "phase", "kind", "tflags", "s_now", "laid", "lay_order", "tai", "acted", "eats",
                 "last", "starter", "pay", "liable", "hist", "result", "u_info",
                 "_deal_src")

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
                if (o["dong_hoa_trang_enabled"]
                        and any(h & ~R.SUIT_MASK[s] == 0 for s in range(4))
                        and R.can_fill(h, e, one)):
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
        return S.rank_seats([R.points(h) for h in self.hands], [not k for k in nm],
                            [bool(self.tai >> s & 1) for s in range(n)], self.lay_order,
                            self.game.options["tai_tiebreak"])

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
        return (seat, self.cur, self.phase, self.kind, self.tflags, self.hands[seat],
                tuple(self.eaten), tuple(h.bit_count() for h in self.hands), tuple(self.rows),
                tuple(self.table), len(self.stock) - self.sp, self.starter, self.laid,
                self.lay_order, self.tai, self.acted, tuple(self.eats), self.last, self.liable,
                self.result)

    def information_state_key(self, seat: int) -> Hashable:
        return self.observation(seat)

    def zones(self) -> dict[str, int]:
        ext = R.mask_to_ext
        z = {f"hand{s}": ext(self.hands[s]) for s in range(self.n)}
        stock = 0
        for x in self.stock[self.sp:]:
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
        from quansu.games.phom.view import determinize
        return determinize(self, seat, rng)

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
                lines.append(f"last discard: {R.card_text(self.last[0])} by seat {self.last[1]}"
                             f"{' (chốt)' if self.last[2] else ''}")
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
        phase_kinds = {TAKE: ("draw", "eat", "u"), LAY: ("lay", "u"), SEND: ("send", "discard", "u"),
                       DISCARD: ("discard", "u")}[self.phase]
        if kind not in phase_kinds:
            return Text("phom.wrong_phase", text=text, p=p, join=' / '.join(expected),
                        ph=Text(f"phom.phase_{ph}"))
        h = self.hands[p]
        if kind == "eat":
            x = move - EAT
            if self.last is None or self.last[0] != x:
                cur = Text("phom.no_card") if self.last is None else R.card_text(self.last[0])
                return (Text("phom.eat_only_last", text=text, cur=cur))
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
                return Text("phom.cards_not_in_hand", text=text, mask_text=R.mask_text(used & ~h), p=p)
            if self.eaten[p] & ~used:
                return Text("phom.lay_eaten", text=text, mask_text=R.mask_text(self.eaten[p] & ~used))
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

    return Deal(hands=tuple(tuple(m(c) for c in h) for h in base.hands), first=base.first,
                stock=tuple(m(c) for c in base.stock),
                set_aside=tuple(m(c) for c in base.set_aside), trump=base.trump,
                extra=base.extra)
