"""Phỏm explains its own moves (the game side of a hint's reasons, :mod:`games.reasons`).

Codes: ``forms_meld`` (an eat that completes a meld: ``cards``), ``lays_melds``, ``sends``,
``discards_loose`` (a card in no meld and no two-card start), ``discards_high`` (the loose card
with the most points), ``draws``, ``declares_u``.  Read from the moving seat's own hand only.
"""

from __future__ import annotations

from quansu.games.base import Move, State
from quansu.games.cards import PHOM_RANK, card_str, rank_of, suit_of
from quansu.games.reasons import Reason, cards_text, hand_of


def meld_with(card: int, hand: list[int]) -> tuple[int, ...] | None:
    """A meld of ``hand`` + ``card`` containing ``card`` (a set first, then the longest run)."""
    pool = set(hand) | {card}
    same = sorted(c for c in pool if rank_of(c) == rank_of(card))
    if len(same) >= 3:
        return tuple(same)
    by_rank = {PHOM_RANK[rank_of(c)]: c for c in pool if suit_of(c) == suit_of(card)}
    r = PHOM_RANK[rank_of(card)]
    lo = r
    while lo - 1 in by_rank:
        lo -= 1
    hi = r
    while hi + 1 in by_rank:
        hi += 1
    if hi - lo >= 2:
        return tuple(by_rank[k] for k in range(lo, hi + 1))
    return None


def loose_cards(hand: list[int]) -> list[int]:
    """Cards of ``hand`` in no meld and no two-card start (same rank, or same suit within 2)."""
    out = []
    for c in hand:
        partner = False
        for d in hand:
            if d == c:
                continue
            if rank_of(d) == rank_of(c) or (suit_of(d) == suit_of(c)
                                             and abs(PHOM_RANK[rank_of(d)] - PHOM_RANK[rank_of(c)]) <= 2):
                partner = True
                break
        if not partner:
            out.append(c)
    return out


def move_reasons(state: State, seat: int, move: Move) -> list[Reason]:
    """Why ``seat`` might play ``move`` in ``state`` (a state consistent with its view)."""
    info = state.game.describe_move(move)
    hand = hand_of(state, seat)
    k = info.kind
    if k == "eat" and info.cards:
        meld = meld_with(info.cards[0], hand)
        if meld:
            return [("forms_meld", meld, "",
                     f"eats {card_str(info.cards[0])} to complete {cards_text(meld)}")]
        return []
    if k == "discard" and info.cards:
        c = info.cards[0]
        loose = loose_cards(hand)
        if c in loose:
            top = max(loose, key=lambda x: PHOM_RANK[rank_of(x)])
            if PHOM_RANK[rank_of(c)] == PHOM_RANK[rank_of(top)]:
                return [("discards_high", (c,), "", f"throws away the high loose card {card_str(c)}")]
            return [("discards_loose", (c,), "", f"throws away the loose card {card_str(c)}")]
        return []
    if k == "lay" and info.melds:
        cards = tuple(c for m in info.melds for c in m)
        return [("lays_melds", cards, "", f"lays {len(info.melds)} meld(s)")]
    if k == "send":
        return [("sends", tuple(info.cards), "", f"sends {cards_text(info.cards)} to a laid meld")]
    if k == "draw":
        return [("draws", (), "", "draws from the stock")]
    if k == "u":
        return [("declares_u", (), "", "declares Ù")]
    return []
