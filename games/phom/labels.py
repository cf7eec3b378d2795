"""Phỏm as players name and order it (:mod:`games.labels`): "bốc", "ăn 7♥", "hạ phỏm 4♦ 5♦ 6♦ /
7♠ 7♣ 7♥", "gửi 8♥ vào phỏm 3", "đánh K♣", "ù"; cards A low … K high (the ace is the lowest
card in Phỏm); moves as Ù, then draw or eat, lay and send, discard."""

from __future__ import annotations

from quansu.games.base import MoveInfo
from quansu.games.cards import phom_key
from quansu.games.labels import KIND_TERMS, default_label

GROUPS = ("u", "draw", "lay", "discard")
GROUP_TERMS: dict[str, tuple[str, str]] = {}
_GROUP = {
    "draw": "draw",
    "eat": "draw",
    "lay": "lay",
    "send": "lay",
    "discard": "discard",
    "u": "u",
}


def card_key(card: int, trump: int | None = None) -> tuple:
    """A low … K high, then S C D H."""
    return phom_key(card)


def label(info: MoveInfo, lang: str) -> str:
    return default_label(info, KIND_TERMS, lang)


def move_group(info: MoveInfo) -> str:
    return _GROUP.get(info.kind, info.kind)


def move_key(info: MoveInfo, trump: int | None) -> tuple:
    """``draw`` before ``eat``; melds laid by their cards (laying nothing after); a card sent by
    its card, then the meld; a discard by its card."""
    if info.kind == "draw":
        return (0,)
    if info.kind == "lay":
        if not info.melds:
            return (1,)
        return (0, tuple(tuple(phom_key(c) for c in m) for m in info.melds))
    if info.kind == "send":
        return (2, phom_key(info.cards[0]), info.target)
    if info.cards:
        return (1, phom_key(info.cards[0]))
    return (0,)
