"""Helpers for the Sâm lốc tests (no tests here): build positions from card notation."""

from __future__ import annotations

import random

from quansu.games import make
from quansu.games.base import Deal
from quansu.games.cards import parse_cards, parse_mask
from quansu.games.samloc import DECLARE, DECLINE
from quansu.games.samloc import rules as R


def game(n: int = 4, **opts):
    return make("samloc", n, opts)


def fill_hands(hands: list[str], n: int, allow_two: bool = True, seed: int = 0) -> list[list[int]]:
    """Each seat's given cards (card notation) topped up to 10 with other cards so that no
    hand is an instant win."""
    given = [parse_cards(h) if h else [] for h in hands] + [[] for _ in range(n - len(hands))]
    used = set(c for h in given for c in h)
    assert len(used) == sum(len(h) for h in given), "a card is given twice"
    rng = random.Random(seed)
    for _ in range(1000):
        pool = [c for c in range(52) if c not in used]
        rng.shuffle(pool)
        out, j = [], 0
        for h in given:
            k = 10 - len(h)
            out.append(sorted(h + pool[j : j + k]))
            j += k
        if all(
            R.instant_win(sum(1 << c for c in h), allow_two) == 0
            for h, gv in zip(out, given)
            if len(gv) < 10
        ):
            return out
    raise AssertionError("could not fill the hands without an instant win")


def position(
    hands: list[str],
    first: int = 0,
    n: int = 4,
    declines: bool = True,
    full: bool = False,
    declarers: tuple[int, ...] | None = None,
    **opts,
):
    """A state of a later game led by ``first`` (the previous winner), hands given in notation
    (topped up unless ``full``), after báo sâm: every seat declined when ``declines``; with
    ``declarers``, every seat answered, those seats ``declare`` and the others ``decline``."""
    g = game(n, previous_winner=first, **opts)
    if full:
        hs = [sorted(parse_cards(h)) for h in hands]
    else:
        hs = fill_hands(hands, n, g.options["straight_allows_two"])
    deal = Deal(hands=tuple(tuple(h) for h in hs), first=first)
    st = g.state_from_deal(deal)
    if declarers is not None:
        for s in range(n):
            assert st.current_player == s, "báo sâm asks the seats in order from seat 0"
            st.apply(DECLARE if s in declarers else DECLINE)
    elif declines:
        while st.legal_moves() and st.legal_moves()[-1] == DECLINE:
            st.apply(DECLINE)
    return g, st


def play(g, st, *moves: str) -> None:
    """Apply moves in notation for whoever is to act."""
    for text in moves:
        st.apply(g.parse_move(text))


def mask(text: str) -> int:
    return parse_mask(text)
