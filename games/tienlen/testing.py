"""Build Tiến lên positions directly from hands and a table, for tests and puzzles.

A position built here has no history: its ``deal`` is its hands plus the cards it says were
played, so replaying that deal does not reproduce it.  Use it to examine one rule at a time.
"""

from __future__ import annotations

from typing import Sequence

from quansu.games.cards import parse_mask
from quansu.games.tienlen import rules as R
from quansu.games.tienlen.game import TienLenGame
from quansu.games.tienlen.state import NUM_DEALT, TienLenState


def _mask(x) -> int:
    if isinstance(x, int):
        return x
    return parse_mask(x) if x else 0


def position(
    game: TienLenGame,
    hands: Sequence,
    *,
    to_act: int,
    top="",
    owner: int | None = None,
    passed: Sequence[int] = (),
    finished: Sequence[int] = (),
    fresh: Sequence[int] = (),
    first: int = 0,
) -> TienLenState:
    """A mid-game state.

    ``hands[s]``: seat s's cards (text such as ``"3S 4S"`` or a mask).  ``to_act``: the seat to
    act.  ``top``: the combination on the table (empty: ``to_act`` leads).  ``owner``: who
    played ``top`` (default: the seat before ``to_act``).  ``passed``: seats that passed this
    round.  ``finished``: seats already out, in finishing order.  ``fresh``: seats that have
    not played a card yet (they must hold 13 cards; every other seat is marked as having played,
    so cóng does not apply to it).  The cards in no hand are spread over the seats' played
    cards (and the set-aside pile when N < 4) so that all 52 cards are placed.
    """
    n = game.num_players
    if len(hands) != n:
        raise ValueError(f"{len(hands)} hands for {n} players")
    masks = [_mask(h) for h in hands]
    seen = 0
    for m in masks:
        if seen & m:
            raise ValueError("a card is in two hands")
        seen |= m
    for s in fresh:
        if masks[s].bit_count() != NUM_DEALT:
            raise ValueError(f"fresh seat {s} must hold {NUM_DEALT} cards")
    rest = [c for c in range(52) if not seen >> c & 1]
    played = [0] * n
    need = [0 if s in fresh else NUM_DEALT - masks[s].bit_count() for s in range(n)]
    for s in range(n):
        for _ in range(need[s]):
            played[s] |= 1 << rest.pop()
    aside = 0
    for c in rest:
        aside |= 1 << c
    if n == 4 and aside:
        raise ValueError("4 players: every seat holds or has played exactly 13 cards")
    st = TienLenState.__new__(TienLenState)
    st._init(game, masks, aside, first, None)
    st.instant = -1
    st.end = ""
    st._result = None
    st.transfers = ()
    st.played = played
    st.req = 0
    st.finish = tuple(finished)
    st.active = 0
    for s in range(n):
        if masks[s] and s not in finished:
            st.active |= 1 << s
    t = _mask(top)
    if t & seen:
        raise ValueError("the top's cards are in a hand")
    st.top = t
    if t:
        shape = R.classify(t)
        if not shape:
            raise ValueError(f"top {top!r} is not a combination")
        st.top_shape = shape
        st.finfo = game._finfo[shape + 64] if t >> 48 else game._finfo[shape]
        st.owner = (to_act - 1) % n if owner is None else owner
    else:
        st.top_shape = 0
        st.finfo = None
        st.owner = to_act
    st.passed = 0
    for s in passed:
        st.passed |= 1 << s
    st.cur = to_act
    st._gen = [None] * n
    return st
