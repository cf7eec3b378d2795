"""Sâm lốc as players name and order it (:mod:`games.labels`): "báo Sâm", "không báo Sâm",
"đánh sảnh A♥ 2♦ 3♠", "đánh tứ quý 5♠ 5♣ 5♦ 5♥", "bỏ lượt"; cards 3 low … A, 2 high; moves as
the báo Sâm question, singles, pairs, triples, straights (those holding a 2 lowest), bombs,
then pass."""

from __future__ import annotations

from quansu.games.base import MoveInfo
from quansu.games.labels import (KIND_TERMS, SHEDDING_GROUPS, shedding_group, shedding_key,
                                 shedding_label, shedding_variant_key, shedding_variants_label,
                                 tienlen_card_key)

GROUPS = SHEDDING_GROUPS
GROUP_TERMS = {"bomb": ("bombs (four of a kind)", "tứ quý")}
card_key = tienlen_card_key
move_group = shedding_group
#: The same play up to suits: the combination and its ranks (Game.suit_variant_key).
variant_key = shedding_variant_key


def label(info: MoveInfo, lang: str) -> str:
    return shedding_label(info, KIND_TERMS, lang)


def move_key(info: MoveInfo, trump: int | None) -> tuple:
    return shedding_key(info)


def variants_label(info: MoveInfo, lang: str, count: int, every: bool) -> str:
    return shedding_variants_label(info, KIND_TERMS, lang, count, every)
