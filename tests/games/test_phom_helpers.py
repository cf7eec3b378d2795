"""Helpers shared by the Phỏm tests: deals written in card notation and a scripted default player.

(Imported by the other ``test_phom_*`` files; the few tests here check the helpers themselves.)
"""

from __future__ import annotations

from quansu import games
from quansu.games.base import Deal
from quansu.games.cards import parse_cards
from quansu.games.phom import rules as R
from quansu.games.phom.game import DISCARD, DRAW, LAY, SEND, TAKE


def imask(text: str) -> int:
    """Internal Phỏm mask of cards in notation."""
    return R.mask_to_int(sum(1 << c for c in parse_cards(text)))


def icard(text: str) -> int:
    """Internal index of one card."""
    return R.TO_INT[parse_cards(text)[0]]


def make_deal(hands: list[str], stock_top: str = "", first: int = 0) -> Deal:
    """A deal with the given hands (seat 0 first); the stock starts with ``stock_top`` (top first)
    and is filled with the remaining cards in card-id order; the rest is set aside."""
    n = len(hands)
    hs = [tuple(parse_cards(h)) for h in hands]
    top = parse_cards(stock_top)
    used = set(c for h in hs for c in h) | set(top)
    assert len(used) == sum(len(h) for h in hs) + len(top), "a card is named twice"
    rest = [c for c in range(52) if c not in used]
    need = 4 * n - 1 - len(top)
    stock = tuple(top) + tuple(rest[:need])
    return Deal(hands=tuple(hs), first=first, stock=stock, set_aside=tuple(rest[need:]))


def new_state(hands: list[str], stock_top: str = "", first: int = 0, options=None):
    game = games.make("phom", len(hands), options or {})
    return game, game.state_from_deal(make_deal(hands, stock_top, first))


def play(state, *texts: str) -> None:
    """Apply moves given in notation (each must be legal)."""
    for t in texts:
        state.apply(state.game.parse_move(t))


def legal_texts(state) -> list[str]:
    return sorted(state.game.move_to_text(m) for m in state.legal_moves())


def default_move(state):
    """Scripted player: draw; lay the arrangement with the most cards (first of them); send
    nothing (the discard ends the send phase); discard the card just drawn when it is legal, else the highest legal card."""
    ph = state.phase
    legal = state.legal_moves()
    if ph == TAKE:
        return DRAW
    if ph == LAY:
        return max(
            legal, key=lambda a: sum(m.bit_count() for m in a) if isinstance(a, tuple) else -1
        )
    assert ph in (SEND, DISCARD)
    p = state.cur
    for seat, mv in reversed(state.history):
        if seat != p:
            break
        if mv == DRAW:
            x = state.stock[state.sp - 1]
            if x in legal:
                return x
            break
    return max((m for m in legal if isinstance(m, int) and m < 52), key=lambda x: (R.POINTS[x], x))


def run_until(state, stop, limit: int = 500) -> None:
    """Apply default moves until ``stop(state)`` is true (checked before each move)."""
    for _ in range(limit):
        if state.is_terminal() or stop(state):
            return
        state.apply(default_move(state))
    raise AssertionError("run_until: limit reached")


def take_turn_of(seat: int):
    """Stop condition: ``seat`` is about to take (draw or eat)."""
    return lambda st: st.cur == seat and st.phase == TAKE


# -- checks of the helpers ---------------------------------------------------------------------


def test_make_deal_fills_stock_and_set_aside():
    d = make_deal(["AS AC 3S 3C 5S 5C 7S 7C 9S 9C", "AD AH 3D 3H 5D 5H 7D 7H 9D"], "KH")
    assert len(d.stock) == 7 and d.stock[0] == parse_cards("KH")[0]
    assert len(d.set_aside) == 26
    assert len(set(d.stock) | set(d.set_aside) | set(d.hands[0]) | set(d.hands[1])) == 52


def test_default_player_finishes_a_game():
    _g, st = new_state(["AS AC 3S 3C 5S 5C 7S 7C 9S 9C", "AD AH 3D 3H 5D 5H 7D 7H 9D"])
    run_until(st, lambda s: False)
    assert st.is_terminal()


def test_heuristic_meld_counts_match_their_definition():
    """The heuristic's ``_potential`` and ``_danger`` (bit tricks over precomputed melds) count
    what their docstrings say, checked against a direct count over all 3-card phỏm."""
    import random

    from quansu.games.phom.heuristic import _danger, _potential

    melds = {m for x in range(52) for m in R.MIN_MELDS[x]}
    rng = random.Random(7)
    for _ in range(300):
        cards = rng.sample(range(52), 30)
        h = sum(1 << c for c in cards[:10])
        unseen = sum(1 << c for c in cards[10:])
        melded = sum(1 << c for c in rng.sample(cards[:10], rng.randint(0, 6)))
        dead = h & ~melded
        want = 0
        for m in melds:
            k = m & h
            # two hand cards, the lower one deadwood, the third card unseen
            if k.bit_count() == 2 and (k & -k) & dead and (m & ~h) & unseen:
                want += 1
        assert _potential(h, melded, unseen) == want
        x = rng.randrange(52)
        assert _danger(x, unseen) == sum(
            1 for m in R.MIN_MELDS[x] if (m & ~(1 << x)) & unseen == m & ~(1 << x)
        )
