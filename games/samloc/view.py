"""Sâm lốc from one seat's view: rebuilding a full deal consistent with what a seat saw
(``SamlocGame.deal_for_view``).

Opponents get every card they later play plus random unseen cards, drawn by
:func:`games.samloc.state.sample_hidden` (the sampler the state's determinization uses, in the
compiled core) under what the public history implies; the deal is checked by replaying the
moves.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Sequence

from quansu.games.base import Deal, DealError, IllegalMoveError, check_view_hand
from quansu.games.cards import cards_of
from quansu.games.samloc import errors as _errors  # noqa: F401  (registers the texts)

from . import rules as R
from .state import FULL, HAND_SIZE, SamlocState, _fmt, _make_deal, sample_hidden

if TYPE_CHECKING:  # annotations only: the game module imports this one
    from .game import SamlocGame


def deal_for_view(
    game: SamlocGame,
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
    :meth:`games.base.Game.deal_for_view`).

    Opponents get every card they later play plus random unseen cards, subject to what the
    history implies: nobody held an instant-win hand (the game started), a first game's
    leader held the lowest dealt card, and under ``bao_mot_mode = "forced"`` a forced single
    was the player's highest rank.  Whether it is a first game is the option
    ``previous_winner``.
    """
    n = game.num_players
    own = check_view_hand(game, seat, hand, counts, HAND_SIZE)
    if drawn:
        raise DealError.of("samloc.no_stock_to_draw", "drawn")
    if trump is not None:
        raise DealError.of("samloc.no_trump", "trump")
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n:
        raise DealError.of("samloc.first_not_a_seat", "first", first=first, n=n - 1)
    if game._prev >= 0 and first != game._prev:
        raise DealError.of("samloc.previous_winner_leads", "first", first=first, prev=game._prev)
    moves = list(moves)
    played = [0] * n
    allp = 0
    for i, mv in enumerate(moves):
        try:
            s, m = mv
        except (TypeError, ValueError):
            raise IllegalMoveError.of("samloc.expected_seat_move", f"moves[{i}]", mv=mv) from None
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n:
            raise IllegalMoveError.of("samloc.seat_not_a_seat", f"moves[{i}]", s=s, n=n - 1)
        if isinstance(m, bool) or not isinstance(m, int):
            raise IllegalMoveError.of("samloc.not_a_move_value", f"moves[{i}]", m=m)
        if 0 < m <= FULL:
            if m & allp:
                raise IllegalMoveError.of(
                    "samloc.already_played", f"moves[{i}]", fmt=_fmt(m & allp)
                )
            if s != seat:
                if m & own:
                    raise IllegalMoveError.of(
                        "samloc.plays_others_cards",
                        f"moves[{i}]",
                        s=s,
                        fmt=_fmt(m & own),
                        seat=seat,
                    )
                if (played[s] | m).bit_count() > HAND_SIZE:
                    raise IllegalMoveError.of(
                        "samloc.too_many_played", f"moves[{i}]", s=s, HAND_SIZE=HAND_SIZE
                    )
            allp |= m
            played[s] |= m
    played[seat] = 0
    fixed = [played[s] for s in range(n)]
    fixed[seat] = own
    pool = FULL & ~own & ~allp
    need = [HAND_SIZE - fixed[s].bit_count() for s in range(n)]
    # skeleton replay (hidden cards arbitrary, forced-rule checks relaxed for them): public
    # legality, and the caps that forced plays imply
    sk_hands = list(fixed)
    pl = cards_of(pool)
    j = 0
    for s in range(n):
        for _ in range(need[s]):
            sk_hands[s] |= 1 << pl[j]
            j += 1
    sk_rest = FULL
    for h in sk_hands:
        sk_rest &= ~h
    st = SamlocState._start(game, sk_hands, sk_rest, first, None, False)
    st._relax = FULL & ~(1 << seat)  # seats whose forced rule is not checked
    for i, (s, m) in enumerate(moves):
        if st._cur != s:
            if st._cur < 0:
                raise IllegalMoveError.of("samloc.move_after_end", f"moves[{i}]", s=s)
            raise IllegalMoveError(st.out_of_turn_reason(s, m), path=f"moves[{i}]")
        try:
            st.apply(m)
        except IllegalMoveError as e:
            raise IllegalMoveError.wrap(e, f"moves[{i}]") from None
    caps = [12] * n if st._caps is None else list(st._caps)
    caps[seat] = 12
    leader = first if (game._prev < 0 and game._lowest) else -1
    iw = game._iw and R.instant_win(own, game._allow_two) == 0
    res = sample_hidden(game, rng, fixed, need, pool, caps, leader, iw, strict=True)
    if res is None:
        if leader >= 0:
            raise DealError.of("samloc.lowest_card_leader", "first", first=first)
        raise DealError.of("samloc.no_consistent_deal")
    drawn_m, rest = res
    deal = _make_deal([fixed[s] | drawn_m[s] for s in range(n)], rest, first)
    game.replay(deal, moves)  # raises IllegalMoveError naming moves[i]
    return deal
