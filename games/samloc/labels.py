"""Sâm lốc as players name and order it (:mod:`games.labels`): "báo Sâm", "không báo Sâm",
"đánh sảnh A♥ 2♦ 3♠", "đánh tứ quý 5♠ 5♣ 5♦ 5♥", "bỏ lượt"; cards 3 low … A, 2 high; moves as
the báo Sâm question, singles, pairs, triples, straights (those holding a 2 lowest), bombs,
then pass."""

from __future__ import annotations

from quansu.games.labels import (
    SHEDDING_GROUPS,
    shedding_group,
    shedding_module_key,
    shedding_module_label,
    shedding_module_variants_label,
    shedding_variant_key,
    tienlen_card_key,
)

GROUPS = SHEDDING_GROUPS
GROUP_TERMS = {"bomb": ("bombs (four of a kind)", "tứ quý")}
card_key = tienlen_card_key
move_group = shedding_group
#: The same play up to suits: the combination and its ranks (Game.suit_variant_key).
variant_key = shedding_variant_key
label = shedding_module_label
move_key = shedding_module_key
variants_label = shedding_module_variants_label
