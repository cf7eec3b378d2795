"""Tấn explains its own moves (the game side of a hint's reasons, :mod:`games.reasons`).

Codes: ``takes`` (takes the cards on the table), ``trump_used`` (defends a plain card with a
trump: ``cards``), ``low_trump_kept`` (defends without a trump while holding one: ``cards``, the
trumps kept), ``attacks_low`` (attacks with the lowest plain card).  Read from the moving seat's
own hand and the face-up trump only.
"""

from __future__ import annotations

from quansu.games.base import Move, State
from quansu.games.cards import TAN_RANK, rank_of, suit_of
from quansu.games.reasons import Reason, cards_text, hand_of, say

#: Tấn's reasons: code -> (English, Vietnamese) (:func:`games.reasons.say`); the trump is
#: "chủ", taking the table "ôm".
TEXTS: dict[str, tuple[str, str]] = {
    "takes": ("takes the cards on the table", "ôm bài trên bàn"),
    "trump_used": ("uses the trump {card}", "chặn bằng chủ {card}"),
    "low_trump_kept": ("defends without spending a trump", "chặn mà không tốn chủ (giữ {cards})"),
    "attacks_low": ("attacks with the low card {card}", "đánh lá nhỏ {card}"),
}


def move_reasons(state: State, seat: int, move: Move) -> list[Reason]:
    """Why ``seat`` might play ``move`` in ``state`` (a state consistent with its view)."""
    info = state.game.describe_move(move)
    hand = hand_of(state, seat)
    trump = state.deal.trump
    tsuit = suit_of(trump) if trump is not None else None
    k = info.kind
    if k == "take":
        return [say(TEXTS, "takes")]
    if k == "defend" and info.cards and tsuit is not None:
        c = info.cards[0]
        if suit_of(c) == tsuit and (info.target is None or suit_of(info.target) != tsuit):
            return [say(TEXTS, "trump_used", (c,), card=cards_text((c,)))]
        trumps = tuple(x for x in hand if suit_of(x) == tsuit)
        if trumps and suit_of(c) != tsuit:
            return [say(TEXTS, "low_trump_kept", trumps, cards=cards_text(trumps))]
    if k == "attack" and info.cards:
        c = info.cards[0]
        plain = [x for x in hand if tsuit is None or suit_of(x) != tsuit]
        if (
            plain
            and c in plain
            and TAN_RANK[rank_of(c)] == min(TAN_RANK[rank_of(x)] for x in plain)
        ):
            return [say(TEXTS, "attacks_low", (c,), card=cards_text((c,)))]
    return []
