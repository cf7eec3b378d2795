"""Named option sets of each game, shared by the conformance suite (tests/games/test_conformance.py)
and the games' own tests: the default rules and house-rule combinations from each game's
reference (docs/rules/).  Each game's list also gets, in the suite, every option moved off its
default at once (:func:`flipped`)."""

from __future__ import annotations

from quansu.games.base import OptionError
from quansu.games.registry import game_classes

TIENLEN_OPTION_SETS = [
    {},
    {
        "first_lead_requires_3_spades": True,
        "four_of_a_kind_chops_pair_of_twos": False,
        "four_pairs_ignore_pass": "twos_and_bombs",
        "penalty_unit": "points",
        "chop_chain_last_victim_pays_all": False,
        "thoi_payee": "winner",
    },
    {
        "settlement_mode": "count",
        "instant_win_enabled": False,
        "long_pair_sequence_is_bomb": False,
        "four_pairs_ignore_pass": "none",
        "count_unit": 0.5,
        "dut_mu_single_only": True,
    },
    {
        "first_game": False,
        "instant_win_flush_rule": "13_same_color",
        "cong_enabled": False,
        "thoi_enabled": False,
        "chop_void_if_victim_finished": False,
        "rank_payments": [2, 1],
        "dut_mu_enabled": False,
        "instant_win_payment": 3,
    },
]

SEED001 = {
    "send_all_counts_as_u": False,
    "u_tron_enabled": True,
    "dong_hoa_trang_enabled": True,
    "u_thong_enabled": True,
    "dong_hoa_enabled": True,
    "u_k_enabled": True,
    "ca_k_enabled": True,
    "den_an_chot": True,
}
OTHER = {
    "auto_declare_u": False,
    "one_eaten_card_per_meld": False,
    "chot_payment_mode": "add",
    "last_place_pays": "always_3",
    "tai_turn_can_send": False,
    "tai_tiebreak": False,
    "all_mom_first_layer_wins": False,
    "first_game_first_player": "random",
    "u_khan_enabled": False,
    "eat_payments": [2, 3, 4, 5],
    "mom_payment": 3,
    "u_payment": 6,
}
PHOM_OPTION_SETS = {"default": {}, "seed001": SEED001, "other": OTHER}

SAMLOC_OPTION_SETS = [
    {},
    {"bao_mot_mode": "forced", "straight_allows_two": False, "first_game_leader": "random"},
    {
        "single_quad_chops_pair_of_twos": True,
        "double_quad_enabled": False,
        "chop_chain_last_victim_pays_all": False,
        "bao_mot_pass_liable": True,
        "two_in_straight_counts": False,
        "sam_fail_multiplier": "all_players",
    },
    {
        "instant_win_enabled": False,
        "bao_mot_mode": "off",
        "sam_block_also_pays_chop": False,
        "sam_amount": 10,
        "cong_amount": 13,
        "thoi_two": 5,
        "thoi_quad": 10,
        "chop_two": 10,
        "chop_quad": 15,
    },
]

TAN_OPTION_SETS = [
    {},
    {"end_condition": "until_one_left", "defender_empty": "end_bout"},
    {"trump_swap": "two_only", "swap_timing": "while_in_stock", "first_attacker": "random"},
    {
        "direction": "clockwise",
        "refill_order": "attacker_then_play_order_defender_last",
        "swap_timing": "while_in_stock",
    },
    {
        "trump_swap": "none",
        "loss_amount": 2,
        "instant_win_eight_trumps": True,
        "end_condition": "until_one_left",
    },
]

#: game -> {name: options}: the sets the conformance suite runs at every player count.
OPTION_SETS = {
    "tienlen": dict(zip(["default", "strict", "count", "later-game"], TIENLEN_OPTION_SETS)),
    "phom": PHOM_OPTION_SETS,
    "samloc": dict(zip(["default", "forced", "options2", "amounts"], SAMLOC_OPTION_SETS)),
    "tan": {f"set{i}" if opts else "default": opts for i, opts in enumerate(TAN_OPTION_SETS)},
}


def flipped(game: str, players: int) -> dict:
    """Every option of ``game`` off its default: a boolean negated, a choice the first other
    value; an option whose other value the game refuses (a house rule named but not defined)
    keeps its default."""
    cls = game_classes()[game]
    options = {}
    for spec in cls.option_specs:
        if spec.kind is bool:
            value = not spec.default
        elif spec.choices:
            value = next((c for c in spec.choices if c != spec.default), spec.default)
        else:
            continue
        try:
            cls(players, dict(options, **{spec.name: value}))
        except OptionError:
            continue
        options[spec.name] = value
    return options
