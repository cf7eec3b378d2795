"""Tiến lên miền Nam from one seat's view: rebuilding a full deal consistent with what a seat
saw (``TienLenGame.deal_for_view``).

A seat sees its own hand and every play; opponents get the cards they played plus random unseen
cards, the rest is set aside, and draws that could not have been played (an instant win, the
first-lead rule broken) are redrawn.  The determinization of a live state (redrawing what the
seat to act cannot see, thousands of times per search) is ``TienLenState.determinize``, in
:mod:`games.tienlen.state` with the rest of the compiled state.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Sequence

from quansu.games.base import Deal, DealError, IllegalMoveError, check_view_hand
from quansu.games.cards import card_str, cards_of, format_cards, shuffle
from quansu.games.errors import Text
from quansu.games.tienlen import rules as R
from quansu.games.tienlen.state import NUM_DEALT

if TYPE_CHECKING:  # annotations only: the game module imports this one
    from quansu.games.tienlen.game import TienLenGame


def deal_for_view(
    game: TienLenGame,
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
    """A full deal consistent with ``seat``'s view (``game.deal_for_view``, see
    :meth:`Game.deal_for_view`).

    Opponents get every card they played in ``moves`` plus random unseen cards; the rest is
    set aside.  Deals where a hand would have won instantly (the game would not have been
    played) are redrawn, and the first-lead rule is respected.  The result is checked by
    replaying ``moves``.
    """
    n = game.num_players
    if drawn:
        raise DealError.of("tienlen.no_stock_to_draw", "drawn")
    if trump is not None:
        raise DealError.of("tienlen.no_trump", "trump")
    own = check_view_hand(game, seat, hand, counts, NUM_DEALT)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
        raise DealError.of("tienlen.first_out_of_range", "deal.first", first=first, n=n - 1)
    played = [0] * n
    allp = 0
    for i, item in enumerate(moves):
        try:
            s, m = item
        except (TypeError, ValueError):
            raise IllegalMoveError.of(
                "tienlen.expected_seat_move", f"moves[{i}]", item=item
            ) from None
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n:
            raise IllegalMoveError.of("tienlen.seat_out_of_range", f"moves[{i}]", s=s, n=n - 1)
        if isinstance(m, bool) or not isinstance(m, int) or m < 0 or m >> 52:
            raise IllegalMoveError.of("tienlen.not_a_move_in_moves", f"moves[{i}]", m=m)
        if not m:
            continue
        if s == seat:
            if m & ~own:
                raise IllegalMoveError.of(
                    "tienlen.view_not_in_hand", f"moves[{i}]", cards=format_cards(m & ~own), s=s
                )
        elif m & own:
            raise IllegalMoveError.of(
                "tienlen.view_own_cards", f"moves[{i}]", cards=format_cards(m & own), seat=seat, s=s
            )
        dup = m & allp
        if dup:
            raise IllegalMoveError.of(
                "tienlen.already_played", f"moves[{i}]", cards=format_cards(dup)
            )
        played[s] |= m
        allp |= m
        if played[s].bit_count() > NUM_DEALT:
            raise IllegalMoveError.of(
                "tienlen.too_many_played", f"moves[{i}]", s=s, NUM_DEALT=NUM_DEALT
            )
    forced_aside = 0
    if game._require_first:
        if moves:
            m0 = next((m for s, m in moves if m), 0)
            if m0:
                forced_aside = (m0 & -m0) - 1  # everything below the first play's lowest card
        elif first == seat:
            forced_aside = (own & -own) - 1
        if forced_aside & own:
            raise DealError.of(
                "tienlen.first_cannot_lead",
                "deal.first",
                first=first,
                seat=seat,
                cards=format_cards(forced_aside & own),
            )
        if forced_aside.bit_count() > 52 - NUM_DEALT * n:
            raise DealError.of(
                "tienlen.first_must_hold",
                "deal.first",
                first=first,
                card=card_str(0) if n == 4 else Text("tienlen.lowest_dealt_card"),
            )
    known = own | forced_aside
    for s in range(n):
        known |= played[s]
    pool = cards_of(((1 << 52) - 1) & ~known)
    need = [0 if s == seat else NUM_DEALT - played[s].bit_count() for s in range(n)]
    if sum(need) > len(pool):
        raise DealError.of("tienlen.view_too_many_played", "moves")
    full = (1 << 52) - 1
    last = None
    for _ in range(400):
        shuffle(pool, rng)
        hands = []
        k = 0
        for s in range(n):
            if s == seat:
                hands.append(own)
                continue
            m = played[s]
            for c in pool[k : k + need[s]]:
                m |= 1 << c
            k += need[s]
            hands.append(m)
        last = hands
        if consistent(game, hands, first, seat):
            break
    else:
        raise DealError.of("tienlen.no_consistent_deal")
    dealt = 0
    for m in last:
        dealt |= m
    return Deal(
        hands=tuple(tuple(cards_of(m)) for m in last),
        first=first,
        set_aside=tuple(cards_of(full & ~dealt)),
    )


def consistent(game: TienLenGame, hands: Sequence[int], first: int, seat: int) -> bool:
    """A full deal that could have been played: the first-lead rule kept and, unless the
    observer ``seat``'s own hand wins instantly (then the game is over whatever the others
    hold), no other hand wins instantly."""
    if game._instant:
        o = game.options
        fg, extra, flush = (
            o["first_game"],
            o["instant_win_first_game_extra"],
            o["instant_win_flush_rule"],
        )
        if not R.instant_win(hands[seat], fg, extra, flush):
            for s, m in enumerate(hands):
                if s != seat and R.instant_win(m, fg, extra, flush):
                    return False
    if game._require_first:
        dealt = 0
        for m in hands:
            dealt |= m
        if not hands[first] & dealt & -dealt:
            return False
    return True
