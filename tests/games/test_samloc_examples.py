"""The worked examples of the Sâm lốc rules (docs/rules/samloc.md §10 gives them in the project's
words; the test numbers follow the original fifteen-item list), seats 0-3, N = 4, bet = 1."""

import pytest

from quansu.games.base import IllegalMoveError
from quansu.games.samloc import rules as R
from tests.helpers.samloc import mask, play, position


def key_of(text):
    return R.classify(mask(text))


# 1. Straights with A and 2.
@pytest.mark.parametrize(
    "cards,expected",
    [
        ("AS 2H 3D", (R.STRAIGHT, 3, 3)),  # the lowest 3-card straight
        ("2C 3C 4D", (R.STRAIGHT, 3, 4)),
        ("KD AC 2S", None),
        ("QH KH AS", (R.STRAIGHT, 3, 14)),  # the highest 3-card straight
        ("JS QD KC AH 2H", None),
    ],
)
def test_example_01_straights_with_ace_and_two(cards, expected):
    assert key_of(cards) == expected


# 2. Straight comparison.
def test_example_02_straight_comparison():
    g, st = position(["2C 3C 4D", "AS 2H 3D 3H 4H 5C 6D"], first=0)
    play(g, st, "2C 3C 4D")
    for bad in ("AS 2H 3D", "3H 4H 5C 6D"):
        with pytest.raises(IllegalMoveError, match="does not beat"):
            st.apply(g.parse_move(bad))
    play(g, st, "3H 4H 5C")
    assert st.top == (1, mask("3H 4H 5C"))


# 3. No suit ranking.
def test_example_03_no_suit_ranking():
    g, st = position(["7S 9S 9C", "7H 8C 9D 9H"], first=0)
    play(g, st, "7S")
    with pytest.raises(IllegalMoveError, match="does not beat"):
        st.apply(g.parse_move("7H"))
    play(g, st, "8C", "pass", "pass", "pass")  # round over, seat 1 leads
    assert st.current_player == 1 and st.top is None
    g, st = position(["9S 9C", "9D 9H"], first=0)
    play(g, st, "9S 9C")
    with pytest.raises(IllegalMoveError, match="does not beat"):
        st.apply(g.parse_move("9D 9H"))


# 4. A four of a kind chops a single 2.
def test_example_04_quad_chops_single_two():
    g, st = position(["2D", "5S 5C 5D 5H"], first=0)
    play(g, st, "2D", "5S 5C 5D 5H")
    assert st.open_chop_chain() == (0, 1, 20)
    play(g, st, "pass", "pass", "pass")
    assert st.transfers_so_far() == [(0, 1, 20.0)]
    assert st.current_player == 1 and st.top is None


# 5. One four of a kind does not chop a pair of 2s; a double quad does.
def test_example_05_double_quad_chops_pair_of_twos():
    g, st = position(["2S 2H", "5S 5C 5D 5H 9S 9C 9D 9H"], first=0)
    play(g, st, "2S 2H")
    with pytest.raises(IllegalMoveError, match="does not beat"):
        st.apply(g.parse_move("9S 9C 9D 9H"))
    assert mask("9S 9C 9D 9H") not in st.legal_moves()
    play(g, st, "5S 5C 5D 5H 9S 9C 9D 9H", "pass", "pass", "pass")
    assert st.transfers_so_far() == [(0, 1, 40.0)]


def test_example_05_option_single_quad_chops_pair_of_twos():
    g, st = position(["2S 2H", "9S 9C 9D 9H"], first=0, single_quad_chops_pair_of_twos=True)
    play(g, st, "2S 2H", "9S 9C 9D 9H", "pass", "pass", "pass")
    assert st.transfers_so_far() == [(0, 1, 40.0)]


# 6. Chặt chồng.
def test_example_06_chop_chain():
    g, st = position(["2H", "6S 6C 6D 6H", "JS JC JD JH"], first=0)
    play(g, st, "2H", "6S 6C 6D 6H")
    assert st.open_chop_chain() == (0, 1, 20)
    play(g, st, "JS JC JD JH")
    assert st.open_chop_chain() == (1, 2, 50)
    play(g, st, "pass", "pass", "pass")
    assert st.transfers_so_far() == [(1, 2, 50.0)]  # seat 0 pays nothing


def test_example_06_chain_option_each_chop_paid():
    g, st = position(
        ["2H", "6S 6C 6D 6H", "JS JC JD JH"], first=0, chop_chain_last_victim_pays_all=False
    )
    play(g, st, "2H", "6S 6C 6D 6H", "JS JC JD JH", "pass", "pass", "pass")
    assert st.transfers_so_far() == [(0, 1, 20.0), (1, 2, 30.0)]


# 7. Pass lock-out.
def test_example_07_pass_lockout():
    g, st = position(["8S KC", "", "TD"], first=0)
    play(g, st, "8S")
    play(g, st, "pass")
    assert st.current_player == 2
    play(g, st, "TD")
    play(g, st, "pass")
    assert st.current_player == 0
    play(g, st, "KC")
    assert st.current_player == 2  # seats 1 and 3 are skipped
    play(g, st, "pass")
    assert st.current_player == 0 and st.top is None


# 8. Going out on a 2.
def test_example_08_going_out_on_a_two():
    g, st = position(["KS KC KD KH", "", "", "4H 5S 6D 7S 8C 9S TD JS QD 2S"], first=3)
    play(g, st, "4H 5S 6D 7S 8C 9S TD JS QD", "pass", "pass", "pass")
    assert st.current_player == 3 and st.top is None
    play(g, st, "2S")
    assert st.hands[3] == 0 and not st.is_terminal()  # out, as a loser
    assert st.current_player == 0 and st.top == (3, mask("2S"))
    assert mask("KS KC KD KH") in st.legal_moves()  # seats 0-2 may still answer it
    play(g, st, "pass", "pass", "pass")
    assert st.current_player == 0 and st.top is None  # next seat after 3 with cards leads
    rng = __import__("random").Random(3)
    while not st.is_terminal():
        st.apply(g.heuristic_move(st, rng))
    w = st.winner
    assert w != 3
    assert (3, w, 10.0) in st.settlement()
    assert st.returns()[3] == -10.0


# 9. Báo một đền.
EX9 = [
    "5H 6H 7H 8H 2S 3D 9D TD JC KC",  # seat 0
    "KS 2C 5C AD 3H 4H TH JH QH KH",  # seat 1
    "3S 4S 5S 6S 7C 8C 9C TC JD 9H",  # seat 2
    "4C 5D 6D 7D QD AS 3C 8S JS QS",
]  # seat 3
EX9_MOVES = [
    "3S 4S 5S 6S",
    "4C 5D 6D 7D",
    "5H 6H 7H 8H",
    "pass",
    "7C 8C 9C TC",
    "pass",
    "pass",
    "JD",
    "QD",
    "pass",
    "KS",
    "pass",
    "AS",
    "2C",
    "pass",
]


def test_example_09_bao_mot_den():
    g, st = position(EX9, first=2, full=True)
    play(g, st, *EX9_MOVES)
    assert st.current_player == 1 and st.top is None
    assert [h.bit_count() for h in st.hands] == [6, 8, 1, 4]
    play(g, st, "5C", "9H")
    assert st.is_terminal() and st.winner == 2
    assert st.settlement() == [(1, 2, 27.0)]
    assert st.returns() == [0.0, -27.0, 27.0, 0.0]


def test_example_09_same_play_without_penalty_mode():
    g, st = position(EX9, first=2, full=True, bao_mot_mode="off")
    play(g, st, *EX9_MOVES, "5C", "9H")
    assert sorted(st.settlement()) == [(0, 2, 16.0), (1, 2, 7.0), (3, 2, 4.0)]


def test_example_09_not_liable_without_a_high_single_or_combination():
    # 2 players: seat 1 leads 5C holding only 5C 8D (no single >= 9, no combination)
    hands = ["8S 9D TD JD QD 3D 4D 5S 6D 9H", "4C 5H 6C 7C TC JC QC KC 5C 8D"]
    g, st = position(hands, first=0, n=2, full=True)
    play(
        g, st, "8S 9D TD JD QD", "pass", "3D 4D 5S 6D", "4C 5H 6C 7C", "pass", "TC JC QC KC", "pass"
    )
    assert st.current_player == 1 and st.hands[1] == mask("5C 8D")
    play(g, st, "5C", "9H")
    assert st.settlement() == [(1, 0, 1.0)]


def test_example_09_liable_when_leading_with_a_combination():
    # 3 players; seat 1 (just before seat 2) leads the single 5C holding no card >= 9 but the
    # pair 3C 3H: a multi-card lead would have stopped seat 2, so seat 1 is liable
    hands = [
        "AD 6C TC JC KC 2D QH 7H 8H QS",
        "4S 5H 6S 7D AC 5C 3C 3H 4C 8D",
        "3S 4H 5S 6D 8C 9S TD JS KD 9H",
    ]
    moves = [
        "3S 4H 5S 6D",
        "pass",
        "4S 5H 6S 7D",
        "8C 9S TD JS",
        "pass",
        "KD",
        "pass",
        "AC",
        "pass",
        "5C",
        "9H",
    ]
    g, st = position(hands, first=2, n=3, full=True)
    play(g, st, *moves)
    assert st.winner == 2
    assert st.settlement() == [(1, 2, 29.0)]  # seat 0 cóng 15 + 2D 10, seat 1 4 cards
    g, st = position(hands, first=2, n=3, full=True, bao_mot_mode="off")
    play(g, st, *moves)
    assert sorted(st.settlement()) == [(0, 2, 25.0), (1, 2, 4.0)]


def test_example_09_pass_liable_option():
    hands = [
        "4S 5H 6S 7D AC 5C 3D 7C 8D QC",
        "AD 3C 4C 6C 8H TC JC KC 2D 3H",
        "3S 4H 5S 6D 8C 9S TD JS KD 9H",
    ]
    moves = [
        "3S 4H 5S 6D",
        "4S 5H 6S 7D",
        "pass",
        "8C 9S TD JS",
        "pass",
        "KD",
        "AC",
        "pass",
        "pass",
        "5C",
        "pass",
        "9H",
    ]
    g, st = position(hands, first=2, n=3, full=True)
    play(g, st, *moves)
    assert st.winner == 2
    assert sorted(st.settlement()) == [(0, 2, 4.0), (1, 2, 25.0)]  # seat 1 is cóng: 15 + 2D
    g, st = position(hands, first=2, n=3, full=True, bao_mot_pass_liable=True)
    play(g, st, *moves)
    assert st.settlement() == [(1, 2, 29.0)]


def test_example_09_forced_mode():
    hands = ["8S 9D TD JD QD 3D 4D 5S 6D 9H", "4C 5H 6C 7C TC JC QC KC 5C 8D"]
    g, st = position(hands, first=0, n=2, full=True, bao_mot_mode="forced")
    play(
        g, st, "8S 9D TD JD QD", "pass", "3D 4D 5S 6D", "4C 5H 6C 7C", "pass", "TC JC QC KC", "pass"
    )
    assert st.legal_moves() == [mask("8D")]
    with pytest.raises(IllegalMoveError, match="highest rank"):
        st.apply(mask("5C"))
    play(g, st, "8D", "9H")
    assert st.settlement() == [(1, 0, 1.0)]


# 10. Sâm success.
def test_example_10_sam_success():
    g, st = position(["3S 4C 5D 6H 7S 8C 9D KS KC KD"], first=0, declarers=(0,), full=False)
    assert st.declarer == 0 and st.current_player == 0
    play(g, st, "3S 4C 5D 6H 7S 8C 9D", "pass", "pass", "pass", "KS KC KD")
    assert st.end_kind == "sam_success"
    assert st.returns() == [60.0, -20.0, -20.0, -20.0]


# 11. Sâm blocked.
def test_example_11_sam_blocked():
    g, st = position(["7S 8D 9C", "", "8H 9H TS"], first=0, declarers=(0,))
    play(g, st, "7S 8D 9C", "pass", "8H 9H TS")
    assert st.end_kind == "sam_blocked" and st.is_terminal()
    assert st.settlement() == [(0, 2, 60.0)]
    assert st.next_leader == 2


def test_example_11_all_players_multiplier():
    g, st = position(
        ["7S 8D 9C", "", "8H 9H TS"], first=0, declarers=(0,), sam_fail_multiplier="all_players"
    )
    play(g, st, "7S 8D 9C", "pass", "8H 9H TS")
    assert st.settlement() == [(0, 2, 80.0)]


# 12. The declarer goes out on a 2.
def test_example_12_declarer_out_on_a_two():
    g, st = position(["4H 5S 6D 7S 8C 9S TD JS QD 2C"], first=0, declarers=(0,))
    play(g, st, "4H 5S 6D 7S 8C 9S TD JS QD", "pass", "pass", "pass", "2C")
    assert st.end_kind == "sam_failed"
    assert st.returns() == [-60.0, 20.0, 20.0, 20.0]


# 13. Instant-win priority.
def test_example_13_instant_win_priority():
    g, st = position(
        ["", "5S 5C 5D 8S 8C 8D JS JC JD 4H", "", "3D 3H 6D 6H 7D 9H TD QH KD AH"],
        first=0,
        declines=False,
    )
    assert R.instant_win(st.hands[1]) == R.IW_THREE_TRIPLES
    assert R.instant_win(st.hands[3]) == R.IW_SAME_COLOUR
    assert st.is_terminal() and st.end_kind == "instant_win" and st.winner == 3
    assert st.returns() == [-20.0, -20.0, -20.0, 60.0]


# 14. Normal settlement.
def test_example_14_normal_settlement():
    hands = [
        "TS JS QS 4S 5S 6S 5C 5H QC QH",
        "4C 4D 8D 9D TD 6H 6D 2H KS AS",
        "7S 7C 7D 7H 3S 9S 9H KC KH AC",
        "3C 3D 9C TC JC 8C 8H JD KD AD",
    ]
    g, st = position(hands, first=3, full=True)
    play(
        g,
        st,
        "3C 3D",
        "pass",
        "4C 4D",
        "pass",
        "pass",
        "8D 9D TD",
        "pass",
        "9C TC JC",
        "TS JS QS",
        "pass",
        "pass",
        "4S 5S 6S",
        "pass",
        "pass",
        "pass",
        "5C 5H",
        "6H 6D",
        "pass",
        "pass",
        "QC QH",
    )
    assert st.winner == 0 and st.end_kind == "normal"
    assert sorted(st.settlement()) == [(1, 0, 13.0), (2, 0, 35.0), (3, 0, 5.0)]
    assert st.returns()[0] == 53.0


# 15. Five pairs with a quad.
def test_example_15_five_pairs_with_a_quad():
    assert R.instant_win(mask("3S 3C 6S 6C 6D 6H 9S 9D KS KH")) == R.IW_FIVE_PAIRS
