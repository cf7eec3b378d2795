"""Phỏm explains its own moves (the game side of a hint's reasons, :mod:`games.reasons`).

Codes: ``forms_meld`` (an eat that completes a meld: ``cards``), ``lays_melds``, ``sends``,
``discards_loose`` (a card in no meld and no two-card start), ``discards_high`` (the loose card
with the most points, when the hand has two or more), ``draws``, ``declares_u``.  Read from the
moving seat's own hand only.
"""

from __future__ import annotations

from quansu.games.base import Move, State
from quansu.games.cards import PHOM_RANK, rank_of, suit_of
from quansu.games.reasons import Reason, cards_text, hand_of, say

#: Phỏm's reasons: code -> (English, Vietnamese) (:func:`games.reasons.say`).
TEXTS: dict[str, tuple[str, str]] = {
    "forms_meld": ("eats {card} to complete {cards}", "ăn {card} thành phỏm {cards}"),
    "lays_melds": ("lays {n} meld(s)", "hạ {n} phỏm"),
    "sends": ("sends {cards} to a laid meld", "gửi {cards} vào phỏm đã hạ"),
    "discards_loose": ("throws away the loose card {card}", "đánh lá rác {card}"),
    "discards_high": (
        "throws away its highest loose card {card}",
        "đánh lá rác điểm cao nhất {card}",
    ),
    "draws": ("draws from the stock", "bốc bài ở nọc"),
    "declares_u": ("declares Ù", "ù"),
}


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
            if rank_of(d) == rank_of(c) or (
                suit_of(d) == suit_of(c) and abs(PHOM_RANK[rank_of(d)] - PHOM_RANK[rank_of(c)]) <= 2
            ):
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
            return [
                say(
                    TEXTS,
                    "forms_meld",
                    meld,
                    card=cards_text((info.cards[0],)),
                    cards=cards_text(meld),
                )
            ]
        return []
    if k == "discard" and info.cards:
        c = info.cards[0]
        loose = loose_cards(hand)
        if c in loose:
            top = max(loose, key=lambda x: PHOM_RANK[rank_of(x)])
            # "highest" only among two or more: a lone loose card is just loose (a 3 is no
            # high card)
            if len(loose) > 1 and PHOM_RANK[rank_of(c)] == PHOM_RANK[rank_of(top)]:
                return [say(TEXTS, "discards_high", (c,), card=cards_text((c,)))]
            return [say(TEXTS, "discards_loose", (c,), card=cards_text((c,)))]
        return []
    if k == "lay" and info.melds:
        cards = tuple(c for m in info.melds for c in m)
        return [say(TEXTS, "lays_melds", cards, n=len(info.melds))]
    if k == "send":
        return [say(TEXTS, "sends", info.cards, cards=cards_text(info.cards))]
    if k == "draw":
        return [say(TEXTS, "draws")]
    if k == "u":
        return [say(TEXTS, "declares_u")]
    return []
