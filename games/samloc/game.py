"""Sâm lốc on the common interface: :class:`SamlocGame` (options, deals, move text, the bots'
wiring) and :class:`SamlocState` (:mod:`games.samloc.state`, the compiled core; re-exported
here); rebuilding a deal from a seat's view is :mod:`games.samloc.view`.

Moves are ints: a card play is the mask of its cards (bit ``c`` = card id ``c``), :data:`PASS`
is 0, and the báo sâm decisions are :data:`DECLARE` (``1 << 52``) and :data:`DECLINE`
(``1 << 53``) (:mod:`games.samloc.rules`).  The rules, and every decision the engine takes
where they leave room, are in ``docs/rules/samloc.md``.

A game runs in three phases:

1. the deal and the instant-win check (no moves; an instant win ends the game at once);
2. báo sâm: every seat answers once, in seat order 0, 1, ... N-1 (``declare`` / ``decline``), also
   after someone has declared; once all N have answered, the priority picks the declarer: the
   previous game's winner (option ``previous_winner``) if he declared, else the declarer with
   the lowest seat number (nearest the table owner, seat 0);
3. play: the declarer (else ``deal.first``) leads; each seat beats the top or passes; a seat
   that passed is locked out until the round ends.

Payoffs are in bets per seat (``returns()``), zero-sum; ``settlement()`` gives the transfers.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from quansu.games.base import (
    Deal,
    DealError,
    Game,
    GameError,
    MoveInfo,
    MoveParseError,
    OptionError,
    OptionSpec,
    SearchTuning,
)
from quansu.games.cards import CardError, card_str, parse_cards
from quansu.games.samloc import errors as _errors  # noqa: F401  (registers the texts)

from . import rules as R
from . import view as _view
from .heuristic import heuristic_move as _heuristic_move
from .rules import DECLARE, DECLINE, PASS  # noqa: F401  (re-exported: the move constants)
from .sparring import choose as _sparring_choose

# the state and its constants and helpers, re-exported: importable from here as before the split
from .state import (  # noqa: F401
    _BIT,
    _COMBOS_MAX,
    END_INSTANT,
    END_NORMAL,
    END_SAM_BLOCKED,
    END_SAM_FAILED,
    END_SAM_SUCCESS,
    FULL,
    HAND_SIZE,
    PH_DECLARE,
    PH_OVER,
    PH_PLAY,
    SamlocState,
    _fmt,
    _make_deal,
    lowest_holder,
    sample_hidden,
)


class SamlocGame(Game):
    """Sâm lốc for 2 to 4 players (10 cards each; the rest is set aside unseen)."""

    name = "samloc"
    title = "Sâm lốc"
    min_players = 2
    max_players = 4
    rules_version = 1
    #: Heuristic playouts: stronger than random ones at equal time.  Levels 4-5: the
    #: improvement step over the sparring bot, with its early stop (a look every 20 worlds):
    #: level 5 at 715 ms of CPU p95 instead of 921, as strong within the planned margin.
    #: Analyze: at most 16,384 worlds a decision; a game has few decisions with a choice, so
    #: steady marks cost about 19 s of one core a game on average (docs/search.md).
    tuning = SearchTuning(
        playout="heuristic",
        improve_worlds=160,
        improve_candidates=4,
        improve_look=20,
        analysis_worlds=16384,
        guided_leaf="rollout",
    )
    #: A seat's payoff averages 11.5 bets in absolute value in a 4-player game of the
    #: rule-based bots (``python -m quansu.bench.stake``).
    stake = 10.0
    option_specs = (
        OptionSpec(
            "straight_allows_two",
            True,
            "straights may hold a 2 at the low end (A-2-3.., 2-3-4..); false: no 2 in straights",
            type=bool,
        ),
        OptionSpec(
            "single_quad_chops_pair_of_twos",
            False,
            "one four of a kind also chops a pair of 2s",
            type=bool,
        ),
        OptionSpec(
            "double_quad_enabled",
            True,
            "two fours of a kind played together chop a pair of 2s (or a lower double quad)",
            type=bool,
        ),
        OptionSpec(
            "two_in_straight_counts",
            True,
            "going out with a straight that holds a 2 counts as going out on a 2",
            type=bool,
        ),
        OptionSpec(
            "bao_mot_mode",
            "penalty",
            "last-card rule: 'penalty' (the seat before pays all if he let it out), "
            "'forced' (he must play his highest single), 'off'",
            choices=("penalty", "forced", "off"),
            type=str,
        ),
        OptionSpec(
            "bao_mot_pass_liable",
            False,
            "penalty mode: the seat before is also liable when he passed with a card that would stop it",
            type=bool,
        ),
        OptionSpec(
            "sam_fail_multiplier",
            "opponents",
            "a blocked Sâm costs sam_amount x (N-1) ('opponents') or x N ('all_players')",
            choices=("opponents", "all_players"),
            type=str,
        ),
        OptionSpec(
            "sam_fail_no_blocker",
            "each_opponent",
            "a Sâm lost by going out on a 2 pays sam_amount to each opponent",
            choices=("each_opponent",),
            type=str,
        ),
        OptionSpec(
            "sam_block_also_pays_chop",
            True,
            "a chop that blocks a Sâm also earns its chop money",
            type=bool,
        ),
        OptionSpec(
            "sam_amount",
            20,
            "Sâm payment per opponent, in bets",
            type=int,
            minimum=0,
            maximum=10000,
        ),
        OptionSpec(
            "instant_win_enabled",
            True,
            "instant wins (sảnh rồng, tứ quý 2, đồng hoa, 3 xám, 5 đôi) are checked after the deal",
            type=bool,
        ),
        OptionSpec(
            "instant_win_amount",
            20,
            "paid to an instant winner by each other seat, in bets",
            type=int,
            minimum=0,
            maximum=10000,
        ),
        OptionSpec(
            "cong_amount",
            15,
            "paid by a loser who never played a card, instead of the card count",
            type=int,
            minimum=0,
            maximum=10000,
        ),
        OptionSpec(
            "thoi_two",
            10,
            "per 2 held at the end, or per 2 in a player's going-out play",
            type=int,
            minimum=0,
            maximum=10000,
        ),
        OptionSpec(
            "thoi_quad",
            20,
            "per four of a kind held at the end",
            type=int,
            minimum=0,
            maximum=10000,
        ),
        OptionSpec("chop_two", 20, "chop money per 2 chopped", type=int, minimum=0, maximum=10000),
        OptionSpec(
            "chop_quad",
            30,
            "chop money per four of a kind chopped",
            type=int,
            minimum=0,
            maximum=10000,
        ),
        OptionSpec(
            "chop_chain_last_victim_pays_all",
            True,
            "a chop chain is paid once at round end by the last victim to the last chopper; "
            "false: every chop is paid by its own victim",
            type=bool,
        ),
        OptionSpec(
            "first_game_leader",
            "lowest_card",
            "first game without a Sâm: the holder of the lowest card leads, or a random seat",
            choices=("lowest_card", "random"),
            type=str,
        ),
        OptionSpec(
            "previous_winner",
            -1,
            "seat that won the previous game (leads unless someone declares Sâm, first among "
            "declarers); -1: a first game",
            type=int,
            minimum=-1,
            maximum=3,
        ),
    )

    def __init__(self, num_players: int = 4, options=None):
        super().__init__(num_players, options)
        o = self.options
        n = num_players
        #: Most moves of one game: N decisions, <= 10N plays, <= N-1 passes per round.
        self.max_moves = n + 10 * n * n
        self._allow_two = o["straight_allows_two"]
        self._quad_pair = o["single_quad_chops_pair_of_twos"]
        self._dq = o["double_quad_enabled"]
        self._two_str = o["two_in_straight_counts"]
        self._mode = o["bao_mot_mode"]
        self._forced = o["bao_mot_mode"] == "forced"
        self._penalty = o["bao_mot_mode"] == "penalty"
        self._pass_liable = o["bao_mot_pass_liable"]
        self._sam_mult = (n - 1) if o["sam_fail_multiplier"] == "opponents" else n
        self._sam_chop = o["sam_block_also_pays_chop"]
        self._sam = o["sam_amount"]
        self._iw = o["instant_win_enabled"]
        self._iw_amount = o["instant_win_amount"]
        self._cong = o["cong_amount"]
        self._thoi_two = o["thoi_two"]
        self._thoi_quad = o["thoi_quad"]
        self._chop_two = o["chop_two"]
        self._chop_quad = o["chop_quad"]
        self._chain_all = o["chop_chain_last_victim_pays_all"]
        self._lowest = o["first_game_leader"] == "lowest_card"
        self._prev = o["previous_winner"]
        #: classification cache of played masks (a pure function of the mask and options;
        #: trimmed at :data:`_COMBOS_MAX` entries)
        self._cls: dict[int, tuple] = {}
        self._after = tuple(tuple((s + i) % n for i in range(1, n)) for s in range(n))
        self._before = tuple(tuple((s - i) % n for i in range(1, n)) for s in range(n))

    def check_options(self) -> None:
        for name in (
            "sam_amount",
            "instant_win_amount",
            "cong_amount",
            "thoi_two",
            "thoi_quad",
            "chop_two",
            "chop_quad",
        ):
            if self.options[name] < 0:
                raise OptionError.of("samloc.option_negative", name=name, value=self.options[name])
        pw = self.options["previous_winner"]
        if not -1 <= pw < self.num_players:
            raise OptionError.of(
                "samloc.previous_winner_seat", pw=pw, num_players=self.num_players - 1
            )

    # -- facts ---------------------------------------------------------------------------
    def payoff_bound(self) -> float:
        """Bound on any seat's |payoff| in bets: all losers' payments (card count or cóng, 2s and
        quads held) plus every possible chop, or a Sâm / instant-win settlement."""
        n = self.num_players
        per_loser = (
            max(self._cong, HAND_SIZE - 1, self._thoi_two * 4)
            + self._thoi_two * 4
            + self._thoi_quad * 2
        )
        chops = self._chop_two * 4 + self._chop_quad * 10
        normal = (n - 1) * per_loser + chops
        sam = self._sam * max(n, self._sam_mult) + (
            2 * max(self._chop_two, self._chop_quad) if self._sam_chop else 0
        )
        instant = self._iw_amount * (n - 1)
        return float(max(normal, sam, instant))

    # -- deals ---------------------------------------------------------------------------
    def _draw(self, rng: random.Random):
        """Random hands as masks: ``(masks, set-aside mask, first)``."""
        n = self.num_players
        cards = rng.sample(range(52), HAND_SIZE * n)
        masks = []
        dealt = 0
        for s in range(n):
            m = 0
            for c in cards[HAND_SIZE * s : HAND_SIZE * (s + 1)]:
                m |= _BIT[c]
            masks.append(m)
            dealt |= m
        if self._prev >= 0:
            first = self._prev
        elif self._lowest:
            first = cards.index(min(cards)) // HAND_SIZE
        else:
            first = rng.randrange(n)
        return masks, FULL & ~dealt, first

    def random_deal(self, rng: random.Random) -> Deal:
        """A random deal: 10 cards per seat, the rest set aside.  ``first``: the option
        ``previous_winner`` when set, else (a first game) the lowest card's holder, or a random
        seat with ``first_game_leader = "random"``."""
        masks, rest, first = self._draw(rng)
        return _make_deal(masks, rest, first)

    def new_initial_state(self, rng: random.Random) -> "SamlocState":
        """A game from a random deal (the same deal as ``random_deal(rng)``), built without
        re-validating it."""
        masks, rest, first = self._draw(rng)
        return SamlocState._start(self, masks, rest, first, None, True)

    def _lowest_holder(self, hands: Sequence[int]) -> int:
        """:func:`games.samloc.state.lowest_holder`."""
        return lowest_holder(hands)

    def state_from_deal(self, deal: Deal) -> "SamlocState":
        """The initial state of ``deal`` (validated; raises :class:`DealError` naming the field).

        ``deal.first``: the seat that leads if nobody declares Sâm: the previous winner (option
        ``previous_winner``) in a later game; in a first game the holder of the lowest card
        (``first_game_leader = "lowest_card"``) or any seat (``"random"``).
        """
        n = self.num_players
        if not isinstance(deal, Deal):
            raise DealError.of("samloc.expected_deal", "deal", type=type(deal).__name__)
        if not isinstance(deal.hands, (tuple, list)) or len(deal.hands) != n:
            got = len(deal.hands) if isinstance(deal.hands, (tuple, list)) else deal.hands
            raise DealError.of("samloc.hands_for_players", "deal.hands", got=got, n=n)
        seen = 0
        masks = []
        for s, hand in enumerate(deal.hands):
            if not isinstance(hand, (tuple, list)):
                raise DealError.of("samloc.expected_card_ids", f"deal.hands[{s}]")
            if len(hand) != HAND_SIZE:
                raise DealError.of(
                    "samloc.hand_size", f"deal.hands[{s}]", n_hand=len(hand), HAND_SIZE=HAND_SIZE
                )
            m = 0
            for i, c in enumerate(hand):
                if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
                    raise DealError.of("samloc.bad_card_id", f"deal.hands[{s}][{i}]", c=c)
                if seen >> c & 1:
                    raise DealError.of(
                        "samloc.card_dealt_twice", f"deal.hands[{s}]", card=card_str(c)
                    )
                seen |= 1 << c
                m |= 1 << c
            masks.append(m)
        if deal.stock:
            raise DealError.of("samloc.no_stock", "deal.stock")
        if deal.trump is not None:
            raise DealError.of("samloc.no_trump", "deal.trump")
        rest = FULL & ~seen
        if deal.set_aside:
            sa = 0
            for i, c in enumerate(deal.set_aside):
                if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
                    raise DealError.of("samloc.bad_card_id", f"deal.set_aside[{i}]", c=c)
                if (seen | sa) >> c & 1:
                    raise DealError.of(
                        "samloc.card_dealt_twice", "deal.set_aside", card=card_str(c)
                    )
                sa |= 1 << c
            if sa != rest:
                raise DealError.of(
                    "samloc.set_aside_size",
                    "deal.set_aside",
                    n_set_aside=len(deal.set_aside),
                    value=52 - HAND_SIZE * n,
                )
        first = deal.first
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
            raise DealError.of("samloc.first_not_a_seat", "deal.first", first=first, n=n - 1)
        if deal.extra:
            raise DealError.of("samloc.no_extra", "deal.extra")
        if self._prev >= 0:
            if first != self._prev:
                raise DealError.of(
                    "samloc.previous_winner_leads", "deal.first", first=first, prev=self._prev
                )
        elif self._lowest:
            holder = lowest_holder(masks)
            if holder != first:
                low = (seen & -seen).bit_length() - 1
                raise DealError.of(
                    "samloc.lowest_card_held",
                    "deal.first",
                    first=first,
                    card=card_str(low),
                    holder=holder,
                )
        return SamlocState._start(self, masks, rest, first, deal, True)

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
        """A full deal consistent with ``seat``'s view (see :meth:`games.base.Game.deal_for_view`):
        :func:`games.samloc.view.deal_for_view`."""
        return _view.deal_for_view(
            self, seat, hand, counts, moves, rng, first=first, drawn=drawn, trump=trump
        )

    def _sample(
        self,
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
        """Draw hidden cards: :func:`games.samloc.state.sample_hidden`."""
        return sample_hidden(self, rng, fixed, need, pool, caps, leader, iw, strict, tries)

    # -- moves ---------------------------------------------------------------------------
    def move_to_text(self, move: Any) -> str:
        if move == PASS and not isinstance(move, bool) and isinstance(move, int):
            return "pass"
        if move == DECLARE:
            return "declare"
        if move == DECLINE:
            return "decline"
        if isinstance(move, bool) or not isinstance(move, int) or not 0 < move <= FULL:
            raise GameError.of("samloc.not_a_move", move=move)
        return _fmt(move)

    def parse_move(self, text: str) -> int:
        if not isinstance(text, str):
            raise MoveParseError.of("samloc.move_not_text", text=text)
        t = text.strip().lower()
        if t == "pass":
            return PASS
        if t == "declare":
            return DECLARE
        if t == "decline":
            return DECLINE
        if not t:
            raise MoveParseError.of("samloc.move_empty")
        try:
            ids = parse_cards(text)
        except CardError as e:
            raise MoveParseError.of("samloc.bad_move_cards", text=text, error=e) from None
        m = 0
        for c in ids:
            m |= 1 << c
        if R.classify(m, self._allow_two, self._dq) is None:
            raise MoveParseError.of("samloc.move_not_combination", text=text)
        return m

    def describe_move(self, move: Any) -> MoveInfo:
        if move == DECLARE:
            return MoveInfo(kind="declare")
        if move == DECLINE:
            return MoveInfo(kind="decline")
        if move == PASS and isinstance(move, int) and not isinstance(move, bool):
            return MoveInfo(kind="pass")
        if isinstance(move, bool) or not isinstance(move, int) or not 0 < move <= FULL:
            raise GameError.of("samloc.not_a_move", move=move)
        c = R.classify(move, self._allow_two, self._dq)
        return MoveInfo(
            kind="play",
            cards=tuple(R.sequence_order(move)),
            combo=R.COMBO_NAMES[c[0]] if c else None,
        )

    def heuristic_move(self, state: "SamlocState", rng: random.Random) -> int:
        return _heuristic_move(self, state, rng)

    def sparring_move(self, state: "SamlocState", rng: random.Random) -> int:
        """The sparring bot's move (:mod:`games.samloc.sparring`: card counting, hand plan,
        control of the lead, báo một, báo sâm, exact endgame) for the seat to act, from that
        seat's information only."""
        return _sparring_choose(self, state, rng)
