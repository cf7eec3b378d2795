"""Tiến lên as players name and order it (:mod:`games.labels`): "đánh đôi 9♦ 9♥", "đánh heo
2♥", "đánh ba đôi thông 5♠ 5♥ 6♣ 6♦ 7♠ 7♣", "bỏ lượt"; cards 3 low … A, 2 high; moves as
singles, pairs, triples, straights, bombs (tứ quý, đôi thông), then pass."""

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

GROUPS = tuple(g for g in SHEDDING_GROUPS if g != "declare")
GROUP_TERMS = {
    "bomb": ("bombs (four of a kind, consecutive pairs)", "hàng chặt (tứ quý, đôi thông)")
}
card_key = tienlen_card_key
move_group = shedding_group
#: The same play up to suits: the combination and its ranks (Game.suit_variant_key).
variant_key = shedding_variant_key
label = shedding_module_label
move_key = shedding_module_key
variants_label = shedding_module_variants_label
