"""Tấn (Vietnamese Durak): the game on the common interface of :mod:`games.base` (options, deals,
move text, bot wiring); its position, :class:`~games.tan.state.TanState`, is in
:mod:`games.tan.state`.

Rules, options, the move protocol (the swap round included) and every decision this engine takes
where the rules leave a choice: ``docs/rules/tan.md``.

Seats are numbered 0..N-1 in the order of play: play always goes 0 -> 1 -> ... -> N-1 -> 0, and
"against the direction of play" means descending seat numbers.  The option ``direction`` names
the physical way round the table (counterclockwise by default, or clockwise) and changes nothing
in seat space (docs/rules/tan.md §1; before rules version 3 ``"clockwise"`` reversed the seat
order, which the published notation does not allow).  All chance is
in the :class:`~games.base.Deal`: ``hands`` (8 cards each), ``stock`` (the face-down stock, top
card first), ``trump`` (the face-up card lying under the stock, drawn last) and ``first`` (the
first attacker: the dealer, or a randomly chosen seat).
"""

from __future__ import annotations

import math
import random
from typing import Sequence

from quansu.games.base import Deal, DealError, Game, MoveInfo, OptionError, OptionSpec, SearchTuning
from quansu.games.cards import card_str
from quansu.games.tan import errors as _errors  # noqa: F401  (registers the texts)
from quansu.games.tan import rules as R
from quansu.games.tan.heuristic import heuristic_move as _heuristic_move
from quansu.games.tan.heuristic import playout as _heuristic_playout

# the move values and tables, importable from here as before the state moved to state.py
from quansu.games.tan.rules import (  # noqa: F401
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
from quansu.games.tan.sparring import choose as _sparring_choose

# the position and its phases (games/tan/state.py), importable from here as before
from quansu.games.tan.state import (  # noqa: F401
    _SWAP_ANY_LOWER,
    _SWAP_NONE,
    _SWAP_TWO_ONLY,
    ATTACK,
    DEFEND,
    OVER,
    SETUP,
    THROW,
    TanState,
)
from quansu.games.tan.view import deal_for_view as _deal_for_view

OPTION_SPECS = (
    OptionSpec(
        "direction",
        "counterclockwise",
        "the physical direction of play (and of the deal) round the table; seats are "
        "numbered in the order of play, so play goes 0->1->2->3 under either value and "
        "the option changes nothing in the game",
        choices=("counterclockwise", "clockwise"),
        type=str,
    ),
    OptionSpec(
        "trump_swap",
        "any_lower",
        "swap of the face-up trump (đổi chủ): any lower trump, only the 2 of trumps "
        "(đổi 2 chủ: the seat after the swapper then attacks first), or none",
        choices=("any_lower", "two_only", "none"),
        type=str,
    ),
    OptionSpec(
        "swap_timing",
        "setup",
        "when a player may swap: in a swap round before the first attack, where every "
        "seat answers once (swap or done) in play order from the first attacker, or at "
        "any of his own decisions while the face-up card is still in the stock (once per "
        "player)",
        choices=("setup", "while_in_stock"),
        type=str,
    ),
    OptionSpec(
        "first_attacker",
        "dealer",
        "who attacks first in a random deal: the dealer (seat 0 in a random deal) or a "
        "random seat; a given deal names it in deal.first",
        choices=("dealer", "random"),
        type=str,
    ),
    OptionSpec(
        "defender_empty",
        "draw_and_continue",
        "a defender who beats with his last card: draws up to 8 at once and the bout goes "
        "on, or the bout ends as a successful defence",
        choices=("draw_and_continue", "end_bout"),
        type=str,
    ),
    OptionSpec(
        "refill_order",
        "attacker_then_reverse",
        "refill order after a bout: the attacker, then against the play direction "
        "(descending seats, defender last), or the attacker, the others in play order, "
        "defender last",
        choices=("attacker_then_reverse", "attacker_then_play_order_defender_last"),
        type=str,
    ),
    OptionSpec(
        "end_condition",
        "first_out_wins",
        "the first player out wins at once, or play on until one player holds cards (he loses)",
        choices=("first_out_wins", "until_one_left"),
        type=str,
    ),
    OptionSpec(
        "loss_amount",
        1.0,
        "bets each loser pays the winner (until_one_left: the last player pays each other player)",
        type=float,
        minimum=0,
        maximum=1000,
    ),
    OptionSpec(
        "instant_win_eight_trumps",
        False,
        "thắng trắng: a player dealt 8 trumps wins at once, before any move",
        type=bool,
    ),
    OptionSpec(
        "repeat_trump_loss",
        False,
        "thua trắng (same trump turned three times in a row): not defined by the rules "
        "file; only false is accepted",
        type=bool,
    ),
    OptionSpec(
        "cung_chu",
        False,
        "luật cúng chủ: not defined by the rules file; only false is accepted",
        type=bool,
    ),
    OptionSpec(
        "xa_chu",
        False,
        "luật xả chủ: not defined by the rules file; only false is accepted",
        type=bool,
    ),
)


class TanGame(Game):
    """Tấn for 2..4 players.  Moves are ints (:mod:`games.tan.rules`)."""

    name = "tan"
    title = "Tấn"
    min_players = 2
    max_players = 4
    option_specs = OPTION_SPECS
    #: Hard bound on the moves of one game: a game still running after this many moves ends at
    #: once as a draw with no payment (Tấn can cycle forever when nobody defends; see
    #: docs/rules/tan.md "Termination").
    max_moves = 1000
    #: 2: the swap round asks every seat (issue 17); 3: seats follow the order of play whatever
    #: ``direction`` says (issue 44: ``"clockwise"`` used to play 0 -> 3 -> 2 -> 1)
    rules_version = 3
    #: Heuristic playouts: stronger than random ones at equal time.  Analyze: at most 32,768
    #: worlds a decision; two Tấn moves end the same deal differently in many worlds (a paired
    #: difference's standard deviation is about 1.3 bets), so marks settle only on many worlds
    #: (about 97 s of one core a game).  Hints are the search's own ranking: Tấn moves differ
    #: little beside the spread of a deal's payoff, so a hint measured on 128 deals left most
    #: moves tied with the best.  The network-guided search: priors sharpened (temperature
    #: 0.1), which guided it above the uniform search on 96 deals planned in advance.
    tuning = SearchTuning(
        playout="heuristic",
        analysis_worlds=32768,
        hint_worlds=0,
        guided_leaf="rollout",
        guided_prior_temperature=0.1,
    )

    def check_options(self) -> None:
        o = self.options
        amount = o["loss_amount"]
        if not (math.isfinite(amount) and amount > 0):
            raise OptionError.of("tan.loss_amount_positive", amount=amount)
        for name in ("repeat_trump_loss", "cung_chu", "xa_chu"):
            if o[name]:
                raise OptionError.of("tan.option_true_unsupported", name=name)
        n = self.num_players
        # Seats are numbered in the order of play, so the next seat is always s + 1 and the
        # previous one s - 1, whatever ``direction`` says: that option names the physical way
        # round the table and changes nothing in seat space (docs/rules/tan.md §1).
        self._nxt = tuple((s + 1) % n for s in range(n))
        prv = [(s - 1) % n for s in range(n)]
        self._prv = tuple(prv)
        orders = []
        for a in range(n):
            if o["refill_order"] == "attacker_then_reverse":
                order = [a]
                s = a
                for _ in range(n - 1):
                    s = prv[s]
                    order.append(s)
            else:
                d = self._nxt[a]
                order = [a]
                s = self._nxt[d]
                while s != a:
                    order.append(s)
                    s = self._nxt[s]
                order.append(d)
            orders.append(tuple(order))
        #: _refill[a]: the refill order after a bout attacked by seat a.
        self._refill = tuple(orders)
        self._swap_mode = {
            "none": _SWAP_NONE,
            "any_lower": _SWAP_ANY_LOWER,
            "two_only": _SWAP_TWO_ONLY,
        }[o["trump_swap"]]
        self._anytime = self._swap_mode != _SWAP_NONE and o["swap_timing"] == "while_in_stock"
        self._end_bout = o["defender_empty"] == "end_bout"
        self._until_one = o["end_condition"] == "until_one_left"
        self._amount = float(amount)
        # what a game is played for (Game.stake): the loser pays loss_amount to each other seat
        # (a seat's payoff averages 1.0 bet in absolute value at 2 players, 1.5 at 4, with 1)
        self.stake = self._amount
        self._stock_len = 52 - HAND_SIZE * n - 1

    # -- facts ---------------------------------------------------------------------------
    def payoff_bound(self) -> float:
        """The winner (first_out_wins) or the loser (until_one_left) moves loss_amount * (N-1)."""
        return self._amount * (self.num_players - 1)

    # -- deals ---------------------------------------------------------------------------
    def random_deal(self, rng: random.Random) -> Deal:
        n = self.num_players
        deck = list(range(52))
        rng.shuffle(deck)
        hands = tuple(tuple(deck[HAND_SIZE * s : HAND_SIZE * s + HAND_SIZE]) for s in range(n))
        k = HAND_SIZE * n
        first = rng.randrange(n) if self.options["first_attacker"] == "random" else 0
        return Deal(hands=hands, first=first, stock=tuple(deck[k + 1 :]), trump=deck[k])

    def new_initial_state(self, rng: random.Random) -> "TanState":
        return TanState(self, self.random_deal(rng))

    def state_from_deal(self, deal: Deal) -> "TanState":
        self.check_deal(deal)
        return TanState(self, deal)

    def check_deal(self, deal: Deal) -> None:
        """Raise :class:`DealError` naming the field when ``deal`` is impossible for this game."""
        if not isinstance(deal, Deal):
            raise DealError.of("tan.expected_deal", "deal", type=type(deal).__name__)
        n = self.num_players
        if len(deal.hands) != n:
            raise DealError.of("tan.hands_for_players", "deal.hands", n_hands=len(deal.hands), n=n)
        seen: dict[int, str] = {}

        def add(card, where):
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 52:
                raise DealError.of("tan.bad_card_id", where, card=card)
            if card in seen:
                raise DealError.of(
                    "tan.card_dealt_twice", card=card_str(card), seen=seen[card], where=where
                )
            seen[card] = where

        for s, hand in enumerate(deal.hands):
            if len(hand) != HAND_SIZE:
                raise DealError.of(
                    "tan.hand_size", f"deal.hands[{s}]", n_hand=len(hand), HAND_SIZE=HAND_SIZE
                )
            for c in hand:
                add(c, f"deal.hands[{s}]")
        if deal.trump is None:
            raise DealError.of("tan.trump_missing", "deal.trump")
        add(deal.trump, "deal.trump")
        if len(deal.stock) != self._stock_len:
            raise DealError.of(
                "tan.stock_size",
                "deal.stock",
                n_stock=len(deal.stock),
                n=n,
                stock_len=self._stock_len,
            )
        for c in deal.stock:
            add(c, "deal.stock")
        if deal.set_aside:
            raise DealError.of(
                "tan.no_set_aside", "deal.set_aside", n_set_aside=len(deal.set_aside)
            )
        first = deal.first
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
            raise DealError.of("tan.first_not_a_seat", "deal.first", first=first, n=n)

    def deal_for_view(
        self,
        seat: int,
        hand: Sequence[int],
        counts: Sequence[int],
        moves: Sequence[tuple[int, int]],
        rng: random.Random,
        *,
        first: int = 0,
        drawn: Sequence[int] = (),
        trump: int | None = None,
    ) -> Deal:
        return _deal_for_view(
            self, seat, hand, counts, moves, rng, first=first, drawn=drawn, trump=trump
        )

    # -- moves ---------------------------------------------------------------------------
    def move_to_text(self, move: int) -> str:
        return R.move_to_text(move)

    def parse_move(self, text: str) -> int:
        return R.parse_move(text)

    def describe_move(self, move: int) -> MoveInfo:
        return R.describe_move(move)

    def heuristic_move(self, state: "TanState", rng: random.Random) -> int:
        return _heuristic_move(state, rng)

    def heuristic_playout(self, state: "TanState", rng: random.Random, stop=None) -> list | None:
        """:meth:`Game.heuristic_playout` as one loop in games/tan/heuristic.py (compiled: C
        calls of the policy and of ``apply_unchecked``); the same moves and draws."""
        return _heuristic_playout(state, rng, stop)

    def sparring_move(self, state: "TanState", rng: random.Random) -> int:
        """The sparring bot's move (:mod:`games.tan.sparring`: card counting, reading the
        history, trump economy, Monte Carlo search over the unseen cards once the stock is
        short) for the seat to act, from that seat's information only."""
        return _sparring_choose(self, state, rng)
