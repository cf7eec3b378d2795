"""Tiến lên miền Nam: the :class:`Game` of ``docs/rules/tienlen.md`` (options, deals, move text,
the bots' wiring); the position is :class:`TienLenState` (:mod:`games.tienlen.state`, the
compiled core), rebuilding a deal from a seat's view is :mod:`games.tienlen.view`.

Moves are ints: a play is the mask of its cards (card id == strength, :mod:`games.cards`),
``0`` is a pass.  Rules decisions are written down in ``docs/rules/tienlen.md``.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

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
from quansu.games.cards import CardError, card_str, cards_of, format_cards, parse_cards
from quansu.games.tienlen import rules as R
from quansu.games.tienlen import view as _view
from quansu.games.tienlen.heuristic import choose as _heuristic_choose
from quansu.games.tienlen.sparring import choose as _sparring_choose

# the state, re-exported: TienLenState and NUM_DEALT importable from here as before the split
from quansu.games.tienlen.state import NUM_DEALT, TienLenState  # noqa: F401


def _options() -> tuple[OptionSpec, ...]:
    return (
        OptionSpec(
            "first_game",
            True,
            "this game is the first of its session: first-game instant wins apply and, "
            "with first_lead_requires_3_spades, the holder of 3S leads",
        ),
        OptionSpec(
            "first_lead_requires_3_spades",
            False,
            "first game: the holder of 3S (else the lowest dealt card) leads and must play "
            "it; false: a random seat leads freely",
        ),
        OptionSpec(
            "four_of_a_kind_chops_pair_of_twos", True, "a four of a kind may chop a pair of 2s"
        ),
        OptionSpec(
            "four_pairs_ignore_pass",
            "pair_of_twos",
            "seats that passed this round may still play a 4 pair sequence when the top is "
            "a pair of 2s (or any 2s / bomb, or never)",
            choices=("pair_of_twos", "twos_and_bombs", "none"),
        ),
        OptionSpec(
            "long_pair_sequence_is_bomb",
            True,
            "a pair sequence of 5+ pairs (only possible without instant wins) is a bomb "
            "stronger than a 4 pair sequence",
        ),
        OptionSpec(
            "instant_win_enabled", True, "instant wins (tới trắng) are checked after the deal"
        ),
        OptionSpec(
            "instant_win_first_game_extra",
            True,
            "in the first game, four 3s and a 3 pair sequence holding 3S also win instantly",
        ),
        OptionSpec(
            "instant_win_flush_rule",
            "12_same_suit",
            "which one-suit hand wins instantly: 12 cards of one suit, 13 of one color, or none",
            choices=("12_same_suit", "13_same_color", "off"),
        ),
        OptionSpec(
            "settlement_mode",
            "ranking",
            "ranking: play until one seat holds cards, pay by rank; count: the game ends at "
            "the first finisher, losers pay per card left",
            choices=("ranking", "count"),
        ),
        OptionSpec(
            "rank_payments",
            (1.0, 0.5),
            "ranking mode, in bets: last pays first, and (4 players) third pays second",
            type=tuple,
            minimum=0,
            maximum=1000,
        ),
        OptionSpec(
            "penalty_unit",
            "bet",
            "value table of 2s and bombs for chops and thối: bet (black 2 0.5, red 2 1, "
            "3 pairs 1.5, four 2, 4 pairs 2.5) or points (2S 1, 2C 2, 2D 3, 2H 4, bombs 4)",
            choices=("bet", "points"),
        ),
        OptionSpec(
            "chop_chain_last_victim_pays_all",
            True,
            "a chop chain is paid at round end by its last victim to its last chopper "
            "(false: each victim pays his own chopper at once)",
        ),
        OptionSpec(
            "chop_void_if_victim_finished",
            True,
            "a chop pays nothing when the chopped play was the victim's last cards",
        ),
        OptionSpec("thoi_enabled", True, "2s and bombs left in a loser's hand are paid for (thối)"),
        OptionSpec(
            "thoi_payee",
            "previous_finisher",
            "ranking mode: who is paid the last player's thối",
            choices=("previous_finisher", "winner"),
        ),
        OptionSpec(
            "cong_enabled",
            True,
            "a seat still holding all 13 cards when the first seat finishes is cóng",
        ),
        OptionSpec(
            "cong_multiplier",
            2.0,
            "a cóng seat pays the winner this many bets (count mode: 13 cards times this)",
            type=float,
            minimum=0,
            maximum=100,
        ),
        OptionSpec(
            "instant_win_payment",
            2.0,
            "bets each opponent pays an instant winner",
            type=float,
            minimum=0,
            maximum=1000,
        ),
        OptionSpec(
            "dut_mu_enabled",
            True,
            "the first finisher ending with a play holding 3S makes every other seat lose",
        ),
        OptionSpec("dut_mu_single_only", False, "đút mù only when the last play is the single 3S"),
        OptionSpec(
            "count_unit",
            1.0,
            "count mode: bets per card left in a loser's hand",
            type=float,
            minimum=0,
            maximum=1000,
        ),
    )


class TienLenGame(Game):
    """Tiến lên miền Nam for 2-4 players (13 cards each), every option of
    docs/rules/tienlen.md.

    Moves: ``int`` masks (a play) or ``0`` (pass).  Payoffs in bets (see "Settlement" in
    docs/rules/tienlen.md).
    """

    name = "tienlen"
    title = "Tiến lên miền Nam"
    min_players = 2
    max_players = 4
    option_specs = _options()
    rules_version = 1
    #: Heuristic playouts: stronger than random ones at equal time.  Anchor: a quarter of the
    #: root prior on the sparring bot's move measured stronger than none.  Levels 4-5: the
    #: improvement step with few worlds and candidates, as Tiến lên's sparring rollouts are the
    #: slowest of the four games, and its early stop (a look every 8 worlds): level 5 at 938 ms
    #: of CPU p95 instead of 1,800, still beating three sparring bots.  Analyze: at most 8,192
    #: worlds a decision, steady marks under seeds for about 47 s of one core a game on average
    #: (docs/search.md).
    tuning = SearchTuning(
        playout="heuristic",
        anchor=0.25,
        improve_worlds=24,
        improve_candidates=3,
        improve_look=8,
        analysis_worlds=8192,
        guided_leaf="rollout",
    )

    def __init__(self, num_players: int = 4, options=None):
        super().__init__(num_players, options)
        o = self.options
        n = num_players
        #: every play moves >= 1 card and is followed by at most n-1 passes.
        self.max_moves = NUM_DEALT * n * n
        self._table = R.PENALTY_TABLES[o["penalty_unit"]]
        self._lpsb = o["long_pair_sequence_is_bomb"]
        self._bombs = frozenset((R.QUAD, R.PS3, R.PS4) + ((R.PS5, R.PS6) if self._lpsb else ()))
        #: the same as a bit set of shapes (bit ``shape``; every shape is below 64)
        self._bomb_bits = sum(1 << sh for sh in self._bombs)
        self._ranking = o["settlement_mode"] == "ranking"
        self._require_first = o["first_game"] and o["first_lead_requires_3_spades"]
        self._instant = o["instant_win_enabled"]
        self._next = tuple((s + 1) % n for s in range(n))
        # follow info per top: index shape + 64 * (top holds a 2)
        # -> (any-shapes for unlocked seats, passed seats are offered a turn,
        #     any-shapes for passed seats, same-shape allowed for passed seats)
        mode = o["four_pairs_ignore_pass"]
        quad_pair = o["four_of_a_kind_chops_pair_of_twos"]
        info: list[Any] = [None] * 128
        long_seqs = (R.PS4, R.PS5, R.PS6) if self._lpsb else (R.PS4,)
        for shape in R.ALL_SHAPES:
            for two in (0, 1):  # two: the top holds a 2 (a 2-combination, or four 2s)
                top_probe = (1 << 48) if two else 1
                anys = R.chop_shapes(top_probe, shape, quad_pair, self._lpsb)
                is_two = bool(two) and shape <= R.TRIPLE
                if mode == "pair_of_twos":
                    exc = shape == R.PAIR and is_two
                elif mode == "twos_and_bombs":
                    exc = is_two or shape in self._bombs
                else:
                    exc = False
                exc_any = tuple(s for s in anys if s in long_seqs)
                exc_same = shape in long_seqs
                info[shape + 64 * two] = (anys, exc, exc_any, exc_same)
        self._finfo = tuple(info)
        self._rank_pay = tuple(float(x) for x in o["rank_payments"])

    def check_options(self) -> None:
        o = self.options
        if len(o["rank_payments"]) != 2:
            raise OptionError.of("tienlen.rank_payments_length")
        for name in ("cong_multiplier", "instant_win_payment", "count_unit"):
            if o[name] < 0:
                raise OptionError.of("tienlen.option_negative", name=name, o=o[name])
        if any(x < 0 for x in o["rank_payments"]):
            raise OptionError.of("tienlen.rank_payments_negative", o=o["rank_payments"])

    # -- facts ---------------------------------------------------------------------------
    def payoff_bound(self) -> float:
        """A true bound on |returns()[s]| in bets: every opponent paying its worst price
        (instant win, cóng, rank or count money, each with the largest thối a 13-card hand can
        hold) plus every chop the deck allows (all 2s and the most valuable set of disjoint
        bombs).  About 54 bets at 4 players with the defaults; typical payoffs are a few bets."""
        o = self.options
        t = self._table
        twos = sorted(t["twos"], reverse=True)
        items = ((4, t[R.QUAD]), (6, t[R.PS3]), (8, t[R.PS4]))

        def bombs(cards: int) -> float:  # most valuable disjoint bombs from `cards` non-2 cards
            best = [0.0] * (cards + 1)
            for c in range(1, cards + 1):
                best[c] = max([best[c - 1]] + [best[c - k] + v for k, v in items if k <= c])
            return best[cards]

        thoi_max = 0.0
        if o["thoi_enabled"]:
            thoi_max = max(sum(twos[:k]) + bombs(NUM_DEALT - k) for k in range(5))
        chops = sum(twos) + bombs(48)
        per_opp = max(
            o["instant_win_payment"],
            max(self._rank_pay) + thoi_max,
            o["cong_multiplier"] + thoi_max,
            (NUM_DEALT * o["count_unit"] * max(1.0, o["cong_multiplier"]) + thoi_max)
            if not self._ranking
            else 0.0,
        )
        return float((self.num_players - 1) * per_opp + chops)

    # -- deals ---------------------------------------------------------------------------
    def random_deal(self, rng: random.Random) -> Deal:
        """Shuffle with ``rng``; 13 cards per seat, the rest set aside.  The first seat is
        random, or (first game with ``first_lead_requires_3_spades``) the holder of the lowest
        dealt card."""
        deck = list(range(52))
        rng.shuffle(deck)
        n = self.num_players
        hands = tuple(tuple(sorted(deck[NUM_DEALT * s : NUM_DEALT * (s + 1)])) for s in range(n))
        aside = tuple(sorted(deck[NUM_DEALT * n :]))
        if self._require_first:
            low = min(deck[: NUM_DEALT * n])
            first = next(s for s in range(n) if low in hands[s])
        else:
            first = rng.randrange(n)
        return Deal(hands=hands, first=first, set_aside=aside)

    def _check_deal(self, deal: Deal) -> tuple[list[int], int]:
        if not isinstance(deal, Deal):
            raise DealError.of("tienlen.expected_deal", "deal", type=type(deal).__name__)
        n = self.num_players
        if len(deal.hands) != n:
            raise DealError.of(
                "tienlen.hands_for_players", "deal.hands", n_hands=len(deal.hands), n=n
            )
        if deal.stock:
            raise DealError.of("tienlen.no_stock", "deal.stock")
        if deal.trump is not None:
            raise DealError.of("tienlen.no_trump", "deal.trump")
        if deal.extra:
            raise DealError.of("tienlen.no_extra", "deal.extra", extra=deal.extra[0][0])
        seen = 0
        masks = []

        def take(c, where):
            nonlocal seen
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
                raise DealError.of("tienlen.bad_card_id", where, c=c)
            if seen >> c & 1:
                raise DealError.of("tienlen.card_dealt_twice", card=card_str(c))
            seen |= 1 << c

        for s, hand in enumerate(deal.hands):
            if len(hand) != NUM_DEALT:
                raise DealError.of(
                    "tienlen.hand_size", f"deal.hands[{s}]", n_hand=len(hand), NUM_DEALT=NUM_DEALT
                )
            m0 = seen
            for i, c in enumerate(hand):
                take(c, f"deal.hands[{s}][{i}]")
            masks.append(seen & ~m0)
        dealt = seen
        if deal.set_aside:
            for i, c in enumerate(deal.set_aside):
                take(c, f"deal.set_aside[{i}]")
            if seen != (1 << 52) - 1:
                missing = (1 << 52) - 1 & ~seen
                raise DealError.of(
                    "tienlen.set_aside_size",
                    "deal.set_aside",
                    n_set_aside=len(deal.set_aside),
                    value=52 - NUM_DEALT * n,
                    cards=format_cards(missing),
                )
        aside = ((1 << 52) - 1) & ~dealt
        first = deal.first
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
            raise DealError.of("tienlen.first_out_of_range", "deal.first", first=first, n=n - 1)
        if self._require_first:
            low = dealt & -dealt
            if not masks[first] & low:
                holder = next(s for s in range(n) if masks[s] & low)
                raise DealError.of(
                    "tienlen.first_lead_holder",
                    "deal.first",
                    first=first,
                    card=card_str(low.bit_length() - 1),
                    holder=holder,
                )
        return masks, aside

    def state_from_deal(self, deal: Deal) -> "TienLenState":
        masks, aside = self._check_deal(deal)
        st = TienLenState.__new__(TienLenState)
        st._init(self, masks, aside, deal.first, deal)
        return st

    def new_initial_state(self, rng: random.Random) -> "TienLenState":
        """A random deal (see :meth:`random_deal`) without re-validating it."""
        deck = list(range(52))
        rng.shuffle(deck)
        n = self.num_players
        masks = []
        dealt = 0
        for s in range(n):
            m = 0
            for c in deck[NUM_DEALT * s : NUM_DEALT * (s + 1)]:
                m |= 1 << c
            masks.append(m)
            dealt |= m
        if self._require_first:
            low = dealt & -dealt
            first = next(s for s in range(n) if masks[s] & low)
        else:
            first = rng.randrange(n)
        st = TienLenState.__new__(TienLenState)
        st._init(self, masks, ((1 << 52) - 1) & ~dealt, first, None)
        return st

    def deal_for_view(
        self,
        seat: int,
        hand: Sequence[int],
        counts: Sequence[int],
        moves: Sequence[tuple[int, Any]],
        rng: random.Random,
        *,
        first: int = 0,
        drawn: Sequence[int] = (),
        trump: int | None = None,
    ) -> Deal:
        """A full deal consistent with ``seat``'s view (see :meth:`Game.deal_for_view`):
        :func:`games.tienlen.view.deal_for_view`."""
        return _view.deal_for_view(
            self, seat, hand, counts, moves, rng, first=first, drawn=drawn, trump=trump
        )

    # -- moves ---------------------------------------------------------------------------
    def move_to_text(self, move: Any) -> str:
        if isinstance(move, bool) or not isinstance(move, int) or move < 0 or move >> 52:
            raise MoveParseError.of("tienlen.not_a_move_value", move=move)
        if move == 0:
            return "pass"
        return format_cards(move)

    def parse_move(self, text: str) -> int:
        """``"pass"`` -> 0; cards such as ``"3S 4S 5H"`` -> their mask.  The cards must form a
        Tiến lên combination."""
        if not isinstance(text, str):
            raise MoveParseError.of("tienlen.move_not_text", text=text)
        t = text.strip()
        if t.lower() == "pass":
            return 0
        if not t:
            raise MoveParseError.of("tienlen.move_empty")
        try:
            cards = parse_cards(t)
        except CardError as e:
            raise MoveParseError.of("tienlen.bad_move_cards", text=text, error=e) from None
        m = 0
        for c in cards:
            m |= 1 << c
        if not R.classify(m):
            raise MoveParseError.of(
                "tienlen.move_not_combination", text=text, cards=format_cards(m)
            )
        return m

    def describe_move(self, move: Any) -> MoveInfo:
        text = self.move_to_text(move)  # validates
        if move == 0:
            return MoveInfo(kind="pass")
        shape = R.classify(move)
        if not shape:
            raise MoveParseError.of("tienlen.not_combination", text=text)
        return MoveInfo(kind="play", cards=tuple(cards_of(move)), combo=R.combo_kind(shape))

    def heuristic_move(self, state: "TienLenState", rng: random.Random) -> int:
        """The careful-club-player move (:mod:`games.tienlen.heuristic`) for the seat to act,
        from that seat's information only."""
        return _heuristic_choose(self, state, rng)

    def sparring_move(self, state: "TienLenState", rng: random.Random) -> int:
        """The sparring bot's move (:mod:`games.tienlen.sparring`: card counting, hand plan,
        control of the lead, blocking, exact endgame) for the seat to act, from that seat's
        information only."""
        return _sparring_choose(self, state, rng)
