"""Tấn as players name and order it (:mod:`games.labels`): "đánh 7♠", "đỡ 7♠ bằng 9♠", "đánh
thêm 7♥", "bốc bài", "đổi chủ 2♥", "xong"; cards 2 low … A high, the trumps last; moves as the
trump swap, attack (or throw in), defend, take, then done."""

from __future__ import annotations

from quansu.games.base import MoveInfo
from quansu.games.labels import KIND_TERMS, default_label, tan_card_key

GROUPS = ("swap", "attack", "defend", "take", "done")
GROUP_TERMS: dict[str, tuple[str, str]] = {}
_GROUP = {
    "attack": "attack",
    "throw": "attack",
    "defend": "defend",
    "take": "take",
    "swap": "swap",
    "done": "done",
}
card_key = tan_card_key


def label(info: MoveInfo, lang: str) -> str:
    return default_label(info, KIND_TERMS, lang)


def move_group(info: MoveInfo) -> str:
    return _GROUP.get(info.kind, info.kind)


def move_key(info: MoveInfo, trump: int | None) -> tuple:
    """An attack, throw-in or swap by its card (the trumps last); a defence by the attack card
    beaten, then the card that beats it."""
    if info.kind == "defend":
        return (tan_card_key(info.target, trump), tan_card_key(info.cards[0], trump))
    if info.cards:
        return (tan_card_key(info.cards[0], trump),)
    return ()
