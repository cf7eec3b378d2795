"""Phỏm (Tá lả) on the common game interface: :class:`PhomGame` (options, deals, move text, bot
wiring) here, its position :class:`~games.phom.state.PhomState` in :mod:`games.phom.state`.

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
from typing import Any

from quansu.games.base import (
    Deal,
    DealError,
    Game,
    MoveInfo,
    MoveParseError,
    OptionError,
    OptionSpec,
    SearchTuning,
)
from quansu.games.cards import CardError, card_str, parse_card
from quansu.games.errors import Text
from quansu.games.phom import errors as _errors  # noqa: F401  (registers the texts)
from quansu.games.phom import rules as R
from quansu.games.phom.heuristic import heuristic_move as _heuristic_move

# the turn's phases and the move values (games/phom/rules.py), importable from here as before
from quansu.games.phom.rules import (  # noqa: F401
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
from quansu.games.phom.sparring import choose as _sparring_choose

# the position (games/phom/state.py), importable from here as before
from quansu.games.phom.state import F_ACTED, F_SENT, PhomState  # noqa: F401
from quansu.games.phom.view import deal_for_view as _deal_for_view

_TO_INT = R.TO_INT
_TO_EXT = R.TO_EXT
_ALL52 = frozenset(range(52))


def _opt_specs() -> tuple[OptionSpec, ...]:
    return (
        OptionSpec(
            "send_all_counts_as_u",
            True,
            "sending away all trash but at most one card in a lay-down or tái turn is Ù "
            "(seed 000); false: seed 001",
            type=bool,
        ),
        OptionSpec(
            "u_khan_enabled",
            True,
            "a dealt hand with no phỏm and no cạ wins at once (Ù khan)",
            type=bool,
        ),
        OptionSpec(
            "u_khan_payment",
            5,
            "bets each other player pays for Ù khan",
            type=float,
            minimum=0,
            maximum=1000,
        ),
        OptionSpec(
            "u_tron_enabled",
            False,
            "Ù tròn (all 10 cards in phỏm after taking) pays 10 per loser (seed 001)",
            type=bool,
        ),
        OptionSpec(
            "dong_hoa_trang_enabled",
            False,
            "Ù with every card of the hand of one suit and in phỏm, none left outside, "
            "pays 10 per loser (seed 001)",
            type=bool,
        ),
        OptionSpec(
            "u_thong_enabled",
            False,
            "Ù in consecutive games pays +2 per loser (seed 001; needs the option "
            "'previous_u_winner')",
            type=bool,
        ),
        OptionSpec(
            "previous_u_winner",
            -1,
            "seat that won the previous game by Ù, for Ù thông (-1: none, e.g. the first "
            "game of a session)",
            type=int,
            minimum=-1,
            maximum=3,
        ),
        OptionSpec(
            "dong_hoa_enabled",
            False,
            "5 consecutive natural cards of one suit inside one's laid phỏm earn 2 from "
            "each player without (seed 001)",
            type=bool,
        ),
        OptionSpec(
            "u_k_enabled",
            False,
            "a laid set of 3 / 4 natural kings earns 5 / 10 from each other player (seed 001)",
            type=bool,
        ),
        OptionSpec(
            "ca_k_enabled",
            False,
            "an eaten king pays 2 / 4 / 6 by round, 10 if a chốt card (seed 001)",
            type=bool,
        ),
        OptionSpec(
            "den_an_chot",
            False,
            "the last player to eat a chốt card pays the whole Ù of anyone else (seed "
            "001, incl. chốt hạ ù đền)",
            type=bool,
        ),
        OptionSpec(
            "one_eaten_card_per_meld",
            True,
            "each phỏm holds exactly one eaten card (false: at least one)",
            type=bool,
        ),
        OptionSpec(
            "chot_payment_mode",
            "replace",
            "a chốt card eaten pays the chốt amount ('replace') or the eat amount plus it ('add')",
            choices=("replace", "add"),
            type=str,
        ),
        OptionSpec(
            "eat_payments",
            (1, 2, 3, 4),
            "bets the victim pays for the eater's 1st, 2nd, 3rd eat and for a chốt card",
            type=tuple,
            minimum=0,
            maximum=1000,
        ),
        OptionSpec(
            "last_place_pays",
            "by_position",
            "with fewer than 4 players the last place pays by position or always 3",
            choices=("by_position", "always_3"),
            type=str,
        ),
        OptionSpec(
            "mom_payment",
            4,
            "bets a móm (cháy) player pays the winner",
            type=float,
            minimum=0,
            maximum=1000,
        ),
        OptionSpec(
            "u_payment",
            5,
            "bets each other player pays the Ù player",
            type=float,
            minimum=0,
            maximum=1000,
        ),
        OptionSpec(
            "tai_turn_can_send",
            True,
            "in a tái turn the player may send cards (tái gửi)",
            type=bool,
        ),
        OptionSpec(
            "tai_tiebreak",
            True,
            "on equal points a player without a tái turn ranks above one with",
            type=bool,
        ),
        OptionSpec(
            "all_mom_first_layer_wins",
            True,
            "when everybody is móm the first to lay down wins (false: no ranking money)",
            type=bool,
        ),
        OptionSpec(
            "auto_declare_u",
            True,
            "the engine declares Ù as soon as it is possible (false: a 'u' move)",
            type=bool,
        ),
        OptionSpec(
            "first_game_first_player",
            "seat0",
            "first player of a random deal: seat 0 (table owner) or a random seat",
            choices=("seat0", "random"),
            type=str,
        ),
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
    tuning = SearchTuning(
        playout="heuristic",
        anchor=0.25,
        improve_worlds=160,
        improve_candidates=4,
        analysis_worlds=32768,
        hint_worlds=96,
        guided_leaf="rollout",
    )
    #: A seat's payoff averages 4.4 bets in absolute value in a 4-player game of the rule-based
    #: bots (``python -m quansu.bench.stake``), so the mark thresholds, shares of the stake,
    #: weigh a loss as in the other games.
    stake = 4.0

    def check_options(self) -> None:
        o = self.options
        for k, v in (
            ("u_khan_payment", o["u_khan_payment"]),
            ("mom_payment", o["mom_payment"]),
            ("u_payment", o["u_payment"]),
        ):
            if v < 0:
                raise OptionError.of("phom.option_negative", k=k, v=v)
        if any(v < 0 for v in o["eat_payments"]):
            raise OptionError.of("phom.eat_payments_negative", o=o["eat_payments"])
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
        per = max(
            o["u_payment"],
            o["u_khan_payment"] if o["u_khan_enabled"] else 0,
            10 if o["u_tron_enabled"] or o["dong_hoa_trang_enabled"] else 0,
            o["mom_payment"],
            3,
        )
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
            hands.append(tuple(deck[pos : pos + k]))
            pos += k
        stock = tuple(deck[pos : pos + 4 * n - 1])
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
            if (
                type(first) is int
                and 0 <= first < n
                and len(deal.hands) == n
                and deal.trump is None
                and len(deal.stock) == 4 * n - 1
                and len(deal.set_aside) == 52 - 13 * n
                and all(len(h) == (10 if s == first else 9) for s, h in enumerate(deal.hands))
                and not deal.extra
            ):
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
                raise DealError.of(
                    "phom.card_dealt_twice", card=card_str(c), seen=seen[c], where=where
                )
            seen[c] = where

        for s, hand in enumerate(deal.hands):
            want = 10 if s == first else 9
            if len(hand) != want:
                raise DealError.of(
                    "phom.hand_size",
                    f"deal.hands[{s}]",
                    n_hand=len(hand),
                    want=want,
                    who=Text("phom.who_first" if s == first else "phom.who_seat"),
                )
            for c in hand:
                note(c, f"deal.hands[{s}]")
        if len(deal.stock) != 4 * n - 1:
            raise DealError.of(
                "phom.stock_size", "deal.stock", n_stock=len(deal.stock), value=4 * n - 1, n=n
            )
        for c in deal.stock:
            note(c, "deal.stock")
        if len(deal.set_aside) != 52 - 13 * n:
            raise DealError.of(
                "phom.set_aside_size",
                "deal.set_aside",
                n_set_aside=len(deal.set_aside),
                value=52 - 13 * n,
                n=n,
            )
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
        return Deal(
            hands=deal.hands,
            first=deal.first,
            stock=deal.stock,
            set_aside=rest,
            trump=deal.trump,
            extra=deal.extra,
        )

    def deal_for_view(self, seat, hand, counts, moves, rng, *, first=0, drawn=(), trump=None):
        return _deal_for_view(
            self, seat, hand, counts, moves, rng, first=first, drawn=drawn, trump=trump
        )

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
            raise MoveParseError.of(
                "phom.no_done", move=json.dumps(text.strip(), ensure_ascii=False)
            )
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
                        raise MoveParseError.of(
                            "phom.card_named_twice", text=text, card_text=R.card_text(x)
                        )
                    m |= 1 << x
                if not R.is_meld(m):
                    raise MoveParseError.of("phom.not_a_meld", text=text, meld_text=_meld_text(m))
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
            melds = tuple(
                tuple(_TO_EXT[x] for x in sorted(R.bits(m), key=R.card_key)) for m in move
            )
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
        return _heuristic_move(state, rng)

    def sparring_move(self, state: "PhomState", rng: random.Random):
        """The sparring bot's move (:mod:`games.phom.sparring`: card tracking, danger of each
        discard to the next seat, hand plan with live outs, móm and Ù chances, lay and send
        planning) for the seat to act, from that seat's information only."""
        return _sparring_choose(self, state, rng)
