"""Rebuilding a full Tấn deal from one seat's view (``Game.deal_for_view``).

The method starts from a random deal that gives the observer his own hand and puts the
face-up trump under the stock, and replays the public moves on it.  Whenever the replay needs
a card somewhere the observer cannot see (an opponent plays a card he does not hold yet in the
provisional deal, or the observer draws a card other than the one he reports), the two cards'
identities are exchanged in the provisional deal and in the replayed state.  That is sound
because both cards are hidden from every seat so far: no earlier move named either, so the
history stays the same, and cards whose place is public (picked up, swapped, the face-up card,
the table and the discard) are never exchanged.
"""

from __future__ import annotations

import random
from typing import Sequence

from quansu.games.base import Deal, DealError, IllegalMoveError
from quansu.games.cards import card_str
from quansu.games.tan import errors as _errors  # noqa: F401  (registers the texts)
from quansu.games.tan.rules import HAND_SIZE, cards_of, played_card


def _check_card(card, where: str) -> int:
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 52:
        raise DealError.of("tan.bad_card_id", where, card=card)
    return card


def _exchange(state, work_hands, work_stock, u: int, v: int) -> None:
    """Exchange the identities of hidden cards ``u`` and ``v`` in the state and the deal."""
    ub, vb = 1 << u, 1 << v
    both = ub | vb
    hands = state.hands
    for s in range(len(hands)):
        h = hands[s]
        if bool(h & ub) != bool(h & vb):
            hands[s] = h ^ both
    st = list(state.stock)
    for i, c in enumerate(st):
        if c == u:
            st[i] = v
        elif c == v:
            st[i] = u
    state.stock = tuple(st)
    for lst in work_hands + [work_stock]:
        for i, c in enumerate(lst):
            if c == u:
                lst[i] = v
            elif c == v:
                lst[i] = u


def _hidden_from(state, seat: int, card: int) -> bool:
    """Whether ``card`` lies where ``seat`` cannot see it: another hand's unknown part or the
    face-down stock still to be drawn."""
    bit = 1 << card
    for o in range(state.n):
        if o != seat and state.hands[o] & ~state.known[o] & bit:
            return True
    return card in state.stock[state.sp :]


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
    trump: int | None = None,
) -> Deal:
    """See :meth:`games.base.Game.deal_for_view`.  ``moves`` are ``(seat, move)`` pairs (move
    codes or move text)."""
    n = game.num_players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise DealError.of("tan.seat_not_a_seat", "seat", seat=seat, n=n)
    counts = list(counts)
    if len(counts) != n:
        raise DealError.of("tan.counts_entries", "counts", n_counts=len(counts), n=n)
    for s, k in enumerate(counts):
        if k != HAND_SIZE:
            raise DealError.of("tan.count_size", f"counts[{s}]", k=k, HAND_SIZE=HAND_SIZE)
    hand = [_check_card(c, "hand") for c in hand]
    if len(hand) != HAND_SIZE:
        raise DealError.of("tan.hand_size", "hand", n_hand=len(hand), HAND_SIZE=HAND_SIZE)
    if len(set(hand)) != len(hand):
        dup = next(c for c in hand if hand.count(c) > 1)
        raise DealError.of("tan.card_named_twice", "hand", card=card_str(dup))
    if trump is None:
        raise DealError.of("tan.view_trump_missing", "trump")
    _check_card(trump, "trump")
    if trump in hand:
        raise DealError.of("tan.drawn_in_hand", "trump", card=card_str(trump), seat=seat)
    # (a card may be drawn twice: drawn, swapped for the face-up card, drawn again as that)
    drawn = [_check_card(c, f"drawn[{i}]") for i, c in enumerate(drawn)]

    rest = [c for c in range(52) if c not in hand and c != trump]
    rng.shuffle(rest)
    work_hands: list[list[int]] = []
    i = 0
    for s in range(n):
        if s == seat:
            work_hands.append(list(hand))
        else:
            work_hands.append(rest[i : i + HAND_SIZE])
            i += HAND_SIZE
    work_stock = rest[i:]
    state = game.state_from_deal(
        Deal(
            hands=tuple(tuple(h) for h in work_hands),
            first=first,
            stock=tuple(work_stock),
            trump=trump,
        )
    )
    state._draw_log = []
    k = 0
    for idx, entry in enumerate(moves):
        try:
            mover, move = entry
        except (TypeError, ValueError):
            raise IllegalMoveError.of("tan.expected_seat_move", f"moves[{idx}]", entry=entry)
        if isinstance(move, str):
            move = game.parse_move(move)
        if state.is_terminal():
            raise IllegalMoveError.of("tan.game_over", f"moves[{idx}]")
        if mover != state.current_player:
            raise IllegalMoveError(state.out_of_turn_reason(mover, move), path=f"moves[{idx}]")
        if mover != seat and isinstance(move, int) and not isinstance(move, bool):
            try:
                card = played_card(move)
            except TypeError:
                card = -1
            if (
                0 <= card < 52
                and not state.hands[mover] >> card & 1
                and _hidden_from(state, seat, card)
            ):
                free = cards_of(state.hands[mover] & ~state.known[mover])
                if free:
                    _exchange(state, work_hands, work_stock, card, rng.choice(free))
        start = len(state._draw_log)
        try:
            state.apply(move)
        except IllegalMoveError as e:
            raise IllegalMoveError.wrap(e, f"moves[{idx}]") from None
        pending = [c for s, c in state._draw_log[start:] if s == seat]
        while pending:
            got = pending.pop(0)
            if k >= len(drawn):
                raise DealError.of("tan.drawn_too_few", "drawn", n_drawn=len(drawn), seat=seat)
            want = drawn[k]
            if got != want:
                if state.known[seat] >> got & 1:
                    raise DealError.of(
                        "tan.drew_face_up",
                        f"drawn[{k}]",
                        seat=seat,
                        card=card_str(got),
                        card2=card_str(want),
                    )
                if want in pending:
                    pending[pending.index(want)] = got
                elif not _hidden_from(state, seat, want):
                    raise DealError.of(
                        "tan.cannot_draw_known", f"drawn[{k}]", card=card_str(want), seat=seat
                    )
                _exchange(state, work_hands, work_stock, got, want)
            k += 1
    if k != len(drawn):
        raise DealError.of("tan.drawn_count", "drawn", n_drawn=len(drawn), seat=seat, k=k)
    deal = Deal(
        hands=tuple(tuple(h) for h in work_hands), first=first, stock=tuple(work_stock), trump=trump
    )
    check = game.replay(
        deal, [(s, game.parse_move(m) if isinstance(m, str) else m) for s, m in moves]
    )
    if check.hands[seat] != state.hands[seat] or check.history != state.history:
        raise AssertionError("deal_for_view built an inconsistent deal (engine bug)")
    return deal
