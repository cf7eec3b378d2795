"""Table-driven Tiến lên rules in card notation: combinations, beating, the chop table with
and without its options, the pass exception, instant wins, thối, settlement variants."""

import pytest

from quansu import games
from quansu.games.base import Deal, DealError, OptionError
from quansu.games.cards import parse_cards, parse_mask
from quansu.games.tienlen import rules as R
from quansu.games.tienlen.testing import position

M = parse_mask
S = R.STRAIGHT
P = R.PAIRSEQ


def tl(n=4, **options):
    return games.make("tienlen", n, options)


def legal_texts(st):
    return {st.game.move_to_text(m) for m in st.legal_moves()}


# --- combinations -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards,shape",
    [
        ("3S", R.SINGLE),
        ("2H", R.SINGLE),
        ("9D 9H", R.PAIR),
        ("2S 2C", R.PAIR),
        ("9D 9H 9S", R.TRIPLE),
        ("2S 2C 2H", R.TRIPLE),
        ("7S 7C 7D 7H", R.QUAD),
        ("4S 5H 6D", S + 3),
        ("TS JC QD KH AS", S + 5),
        ("3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", S + 12),
        ("5S 5H 6C 6D 7S 7C", P + 3),
        ("QS QC KS KC AS AC", P + 3),
        ("4S 4C 5D 5H 6S 6C 7D 7H", P + 4),
        ("3S 3C 4S 4C 5S 5C 6S 6C 7S 7C", P + 5),
        ("3S 4S", 0),
        ("3S 5S", 0),
        ("3S 3C 4S", 0),
        ("3S 5S 6S", 0),
        ("KS AS 2S", 0),
        ("AH 2S 3C", 0),
        ("QD KC AH 2S", 0),
        ("3S 3C 4S 4C", 0),
        ("3S 3C 4S 4C 5S", 0),
        ("3S 3C 3D 4S 4C 4D", 0),
        ("KS KC AS AC 2S 2C", 0),
        ("3S 3C 3D 3H 4S", 0),
        ("5S 5C 6S 6C 8S 8C", 0),
    ],
)
def test_classify(cards, shape):
    m = M(cards)
    assert R.classify(m) == shape
    if shape:
        assert R.shape_of(m) == shape


def test_move_notation_round_trip_and_errors():
    g = tl()
    assert g.parse_move("pass") == 0 and g.parse_move(" PASS ") == 0
    m = g.parse_move("10h j♥ q♥")
    assert g.move_to_text(m) == "TH JH QH"
    assert g.move_to_text(g.parse_move("9h 9d")) == "9D 9H"
    info = g.describe_move(m)
    assert (
        info.kind == "play"
        and info.combo == "straight"
        and info.cards == tuple(parse_cards("TH JH QH"))
    )
    assert g.describe_move(0).kind == "pass"
    for bad, frag in (
        ("", "empty move"),
        ("3S 3S", "named twice"),
        ("1S", "bad move"),
        ("3S 4S", "not a Tiến lên combination"),
        (7, "expected text"),
    ):
        with pytest.raises(games.MoveParseError, match=frag):
            g.parse_move(bad)
    with pytest.raises(games.MoveParseError):
        g.move_to_text(-1)


# --- same-shape beating -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "x,top,ok",
    [
        ("2H", "2D", True),
        ("2D", "2H", False),
        ("4S", "3H", True),
        ("3H", "4S", False),
        ("9H 9S", "9D 9C", True),
        ("9D 9C", "9H 9S", False),
        ("TS TC", "9D 9H", True),
        ("5C 6C 7S", "4S 5S 6H", True),
        ("4D 5D 6D", "4S 5S 6H", False),
        ("3S 4C 5D 6S", "4S 5S 6H", False),
        ("KS KC KD", "QS QC QD", True),
        ("JS QS KS AS", "TH JH QH KH", True),
        ("4S 5S 6S 7H", "4D 5D 6D 7D", True),
        ("AS", "5S 6S 7S", False),
        ("9S 9C", "9D", False),
    ],
)
def test_beats_ordinary(x, top, ok):
    assert R.beats(M(x), M(top)) is ok


# --- the chop table (§3.2), every cell, with the options ----------------------------------------
B3 = "5S 5H 6C 6D 7S 7H"  # 3 đôi thông
B3_LOW = "3S 3C 4S 4C 5D 5C"  # lower 3 đôi thông
B3_HIGH = "QS QC KS KC AS AC"
Q = "JS JC JD JH"  # tứ quý
Q_LOW = "4S 4C 4D 4H"
Q_HIGH = "KS KC KD KH"
B4 = "6S 6H 7C 7D 8S 8C 9D 9H"  # 4 đôi thông
B4_LOW = "3S 3H 4C 4D 5S 5C 6D 6C"
B4_HIGH = "TS TC JS JC QS QC KS KC"
B5 = "3S 3C 4S 4C 5S 5C 6S 6C 7S 7C"
TOPS = {
    "single 2": "2S",
    "pair of 2s": "2S 2C",
    "triple of 2s": "2S 2C 2D",
    "3 pairs": B3,
    "four": Q,
    "4 pairs": B4,
    "single A": "AH",
    "pair A": "AS AH",
    "straight": "QH KH AD",
    "triple": "QS QC QD",
}
DEFAULT = {
    # X = 3 đôi thông
    ("3 pairs", "single 2"): True,
    ("3 pairs", "pair of 2s"): False,
    ("3 pairs", "triple of 2s"): False,
    ("3 pairs", "3 pairs low"): False,
    ("3 pairs", "3 pairs high"): True,
    ("3 pairs", "four"): False,
    ("3 pairs", "4 pairs"): False,
    # X = tứ quý
    ("four", "single 2"): True,
    ("four", "pair of 2s"): True,
    ("four", "triple of 2s"): False,
    ("four", "3 pairs"): True,
    ("four", "four low"): False,
    ("four", "four high"): True,
    ("four", "4 pairs"): False,
    # X = 4 đôi thông
    ("4 pairs", "single 2"): True,
    ("4 pairs", "pair of 2s"): True,
    ("4 pairs", "triple of 2s"): False,
    ("4 pairs", "3 pairs"): True,
    ("4 pairs", "four"): True,
    ("4 pairs", "4 pairs low"): False,
    ("4 pairs", "4 pairs high"): True,
}
X_OF = {
    "3 pairs": {"low": B3_LOW, "high": B3_HIGH, None: B3},
    "four": {"low": Q_LOW, "high": Q_HIGH, None: Q},
    "4 pairs": {"low": B4_LOW, "high": B4_HIGH, None: B4},
}


def _cell(row, col):
    """(x, top) masks of a table cell; "... low"/"... high" columns compare against the same type."""
    if col.endswith(" low") or col.endswith(" high"):
        base, which = col.rsplit(" ", 1)
        # the play X is the middle one; the top is the lower / higher one of that type
        top = X_OF[base]["high" if which == "low" else "low"]
        x = X_OF[row][None]
        return M(x), M(top), which == "high"
    return M(X_OF[row][None]), M(TOPS[col]), None


@pytest.mark.parametrize("row,col", sorted(DEFAULT))
def test_chop_table_default(row, col):
    x, top, _ = _cell(row, col)
    expected = DEFAULT[(row, col)]
    assert R.beats(x, top) is expected
    # and through the engine: the seat to act holds X and faces the top
    g = tl()
    st = position(g, ["", x, "", ""], to_act=1, top=top, owner=0)
    assert (x in st.legal_moves()) is expected


@pytest.mark.parametrize("col", ["single A", "pair A", "straight", "triple"])
@pytest.mark.parametrize("row", ["3 pairs", "four", "4 pairs"])
def test_bombs_only_on_twos_and_bombs(row, col):
    x, top, _ = _cell(row, col)
    assert not x & top
    assert R.beats(x, top) is False
    st = position(tl(), ["", x, "", ""], to_act=1, top=top, owner=0)
    assert x not in st.legal_moves()


def test_four_of_a_kind_vs_pair_of_twos_option():
    assert R.beats(M(Q), M("2S 2C"), quad_chops_pair_of_twos=True)
    assert not R.beats(M(Q), M("2S 2C"), quad_chops_pair_of_twos=False)
    # the option changes nothing else
    assert R.beats(M(Q), M("2H"), quad_chops_pair_of_twos=False)
    assert R.beats(M(B4), M("2S 2C"), quad_chops_pair_of_twos=False)


@pytest.mark.parametrize(
    "top,lpsb,ok",
    [
        ("2H", True, True),
        ("2S 2C", True, True),
        (B3_HIGH, True, True),
        (Q, True, True),
        (B4_HIGH, True, True),
        ("2S 2C 2D", True, False),
        ("2H", False, False),
        ("2S 2C", False, False),
        (Q, False, False),
        (B4_HIGH, False, False),
        ("4D 4H 5D 5H 6D 6H 7D 7H 8D 8H", True, True),  # same length, higher
        ("4D 4H 5D 5H 6D 6H 7D 7H 8D 8H", False, True),
    ],
)
def test_long_pair_sequence_option(top, lpsb, ok):
    x = M("9S 9C TS TC JS JC QS QC KS KC")  # 5 pairs
    t = M(top)
    assert R.beats(x, t, long_pair_sequence_is_bomb=lpsb) is ok


def test_long_pair_sequence_chop_is_priced_as_four_pairs():
    g = tl(instant_win_enabled=False)
    x = "9S 9C TS TC JS JC QS QC KS KC"
    st = position(
        g, ["3S", x + " 3C", "3D", "3H"], to_act=1, top="4S 4C 5S 5C 6S 6C 7S 7C", owner=0
    )
    st.apply(M(x))
    assert st.chain == (2.5, 0, 1)
    g = tl(instant_win_enabled=False, long_pair_sequence_is_bomb=False)
    st = position(
        g, ["3S", x + " 3C", "3D", "3H"], to_act=1, top="4S 4C 5S 5C 6S 6C 7S 7C", owner=0
    )
    assert M(x) not in st.legal_moves()


def test_chop_values_in_points():
    pts = R.PENALTY_TABLES["points"]
    assert [R.combo_value(M(c), R.SINGLE, pts) for c in ("2S", "2C", "2D", "2H")] == [1, 2, 3, 4]
    assert R.combo_value(M("2S 2H"), R.PAIR, pts) == 5
    assert R.combo_value(M(B3), P + 3, pts) == 4 and R.combo_value(M(Q), R.QUAD, pts) == 4
    g = tl(penalty_unit="points")
    st = position(g, ["2H 3C", B3 + " 9D", "8S 8C", "TS TC"], to_act=0)
    for t in ("2H", B3, "pass", "pass", "pass"):
        st.apply(g.parse_move(t))
    assert st.transfers == ((0, 1, 4.0),)


# --- passing and the 4 đôi thông exception -----------------------------------------------------
def _exception_position(g, top_owner_play):
    hands = ["KS KD 9C", B4_LOW + " 9S", "AS AH JD 2C", "2D 2H 3D QD"]
    st = position(g, hands, to_act=0)
    for t in top_owner_play:
        st.apply(g.parse_move(t))
    return st


@pytest.mark.parametrize(
    "mode,top_plays,offered",
    [
        ("pair_of_twos", ["KS KD", "pass", "AS AH", "2D 2H", "pass"], True),
        ("none", ["KS KD", "pass", "AS AH", "2D 2H", "pass"], False),
        ("twos_and_bombs", ["KS KD", "pass", "AS AH", "2D 2H", "pass"], True),
        ("pair_of_twos", ["KS", "pass", "AS", "2D", "pass"], False),
        ("twos_and_bombs", ["KS", "pass", "AS", "2D", "pass"], True),
        ("twos_and_bombs", ["KS", "pass", "AS", "pass", "pass"], False),
    ],
)
def test_four_pairs_ignore_pass(mode, top_plays, offered):
    g = tl(four_pairs_ignore_pass=mode)
    st = _exception_position(g, top_plays)
    assert (st.current_player == 1) is offered
    if offered:
        # only pass or a 4 pair sequence, never an ordinary play
        assert legal_texts(st) == {"pass", g.move_to_text(M(B4_LOW))}
        # the heuristic's query agrees: the lowest bomb is the 4 pair sequence, no other play
        assert st.lowest_play(True) == M(B4_LOW) and st.lowest_play(False) == 0


def test_passed_seat_offered_on_triple_of_twos_can_only_pass():
    g = tl(four_pairs_ignore_pass="twos_and_bombs")
    hands = ["KS KD KC 9C", B4_LOW + " 9S", "AS AH AD JD", "2D 2H 2S QD"]
    st = position(g, hands, to_act=0)
    for t in ("KS KC KD", "pass", "AS AD AH", "2S 2D 2H", "pass"):
        st.apply(g.parse_move(t))
    assert st.current_player == 1 and legal_texts(st) == {"pass"}


def test_leader_cannot_pass():
    g = tl()
    st = position(g, ["3S 4S", "5S", "6S", "7S"], to_act=0)
    assert 0 not in st.legal_moves()
    with pytest.raises(games.IllegalMoveError, match="leads and cannot pass"):
        st.apply(0)
    with pytest.raises(games.IllegalMoveError, match="not in seat 0's hand"):
        st.apply(M("9H"))


# --- instant wins (§5) ----------------------------------------------------------------------
FILL = "3S 5C 7D 9H JS KC 4D"


@pytest.mark.parametrize(
    "hand,first_game,rule,name",
    [
        ("2S 2C 2D 2H 3S 5C 7D 9H JS KC 4D 6S 8C", False, "12_same_suit", "four 2s"),
        ("3S 4S 5S 6C 7C 8C 9D TD JD QH KH AH AS", False, "12_same_suit", "dragon straight"),
        ("3S 3C 4S 4C 5S 5C 6S 6C 7S 7C 9D JH 2S", False, "12_same_suit", "5 pair sequence"),
        ("3S 3C 5S 5C 7S 7C 9S 9C JS JC KS KC 2H", False, "12_same_suit", "six pairs"),
        ("3S 3C 3D 3H 5S 5C 7S 7C 9S 9C JS JC 2H", False, "12_same_suit", "six pairs"),
        ("3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2H 3S", False, "12_same_suit", "12 of one suit"),
        ("3H 4H 5H 6H 7H 8H 9H TH JH QH KH 3S 4S", False, "12_same_suit", None),
        ("3S 4S 5S 6S 7S 8S 9S TS JS QS AS 2S 3H", False, "12_same_suit", "12 of one suit"),
        ("4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C 4D", False, "12_same_suit", "12 of one suit"),
        ("3D 4D 5D 6D 7D 8D 9D TD JD QD KD 2D 3C", False, "12_same_suit", "12 of one suit"),
        ("3D 4D 5D 6D 7D 8D 9D TD JD QD 2D 3C 4C", False, "12_same_suit", None),
        ("3S 3C 3D 3H 5S 5C 5D 5H 7S 7C JS QC 2H", False, "12_same_suit", None),
        ("3S 3C 3D 3H 5S 5C 5D 5H 7S 7C 9S 9C 2H", False, "12_same_suit", "six pairs"),
        ("3H 3D 4H 5D 6H 7D 8H 9D TH JD QH KD 2H", False, "13_same_color", "13 of one color"),
        ("3H 3D 4H 5D 6H 7D 8H 9D TH JD QH KD 2H", False, "12_same_suit", None),
        ("3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2H 3S", False, "off", None),
        ("3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 3S", False, "off", "dragon straight"),
        ("3S 3C 3D 5S 5C 5D 7S 7C 7D 9S 9C 9D JH", False, "12_same_suit", "four triples"),
        ("3S 3C 3D 3H 6S 8C TD QH AS 2C 5D 7H 9S", True, "12_same_suit", "four 3s"),
        ("3S 3C 3D 3H 6S 8C TD QH AS 2C 5D 7H 9S", False, "12_same_suit", None),
        ("3S 3H 4C 4D 5S 5H 7C 9D JS QC KH AD 2S", True, "12_same_suit", "3 pair sequence with 3S"),
        ("3C 3H 4C 4D 5S 5H 7C 9D JS QC KH AD 2S", True, "12_same_suit", None),
        ("3S 4C 6D 7H 8S 9C JD QH KS AC 2D 5H 2H", True, "12_same_suit", None),
    ],
)
def test_instant_win_hands(hand, first_game, rule, name):
    assert R.instant_win(M(hand), first_game, True, rule) == name


def test_instant_win_first_game_extra_option():
    hand = M("3S 3C 3D 3H 6S 8C TD QH AS 2C 5D 7H 9S")
    assert R.instant_win(hand, True, False) is None


def test_instant_win_priority_closest_to_leader():
    six_pairs_a = "3S 3C 5S 5C 7S 7C 9S 9C JS JC KS KC 2H"
    six_pairs_b = "3D 3H 5D 5H 7D 7H 9D 9H JD JH KD KH 2S"
    plain_0 = "4S 4C 4D 6S 6C 6D 8S 8C 8D TS QS AS 2C"
    plain_2 = "4H 6H 8H TC TD TH QC QD QH AC AD AH 2D"
    g = tl()
    for first, winner in ((0, 1), (1, 1), (2, 3), (3, 3)):
        hands = tuple(tuple(parse_cards(h)) for h in (plain_0, six_pairs_a, plain_2, six_pairs_b))
        st = g.state_from_deal(Deal(hands=hands, first=first))
        assert st.is_terminal() and st.next_first() == winner, (first, winner)


def test_instant_win_disabled_and_payment_option():
    hand = "3S 3C 5S 5C 7S 7C 9S 9C JS JC KS KC 2H"
    rest = [c for c in range(52) if c not in parse_cards(hand)]
    hands = (tuple(parse_cards(hand)), tuple(rest[:13]), tuple(rest[13:26]), tuple(rest[26:]))
    st = tl(instant_win_enabled=False).state_from_deal(Deal(hands=hands))
    assert not st.is_terminal()
    st = tl(instant_win_payment=3).state_from_deal(Deal(hands=hands))
    assert st.returns() == [9.0, -3.0, -3.0, -3.0]


# --- thối values (§7.4) -----------------------------------------------------------------------
BET = R.PENALTY_TABLES["bet"]


@pytest.mark.parametrize(
    "hand,value",
    [
        ("3S 5C 7D", 0.0),
        ("2S", 0.5),
        ("2C 2H", 1.5),
        ("2S 2C 2D", 2.0),
        ("8S 8C 8D 8H JC", 2.0),
        ("5S 5C 6S 6C 7S 7C", 1.5),
        ("5S 5C 6S 6C 7S 7C 8S 8C", 2.5),
        ("5S 5C 6S 6C 7S 7C 8S 8C 9S 9C", 2.5),
        ("5S 5C 6S 6C 7S 7C 8S 8C 9S 9C TS TC", 3.0),
        ("3S 3C 4S 4C 5S 5C 6S 6C 7S 7C 8S 8C 9S", 3.0),  # 6 pair-ranks: 3 + 3 pairs
        ("5S 5C 5D 5H 6S 6C 7S 7C 8S 8C", 3.5),  # the four first: 2.0, then 6-7-8: 1.5
        ("5S 5C 6S 6C 7S 7C 7D 7H", 2.0),  # the four 7s first leaves 5-6: no sequence
        ("5S 5C 6S 6C 7S 7C 2H", 2.5),
    ],
)
def test_thoi_value(hand, value):
    assert R.thoi_value(M(hand), BET) == value


def test_thoi_value_seven_pairs_split():
    hand = M("3S 3C 4S 4C 5S 5C 6S 6C 7S 7C 8S 8C 9S 9C")  # 7 pair ranks: 3 + 4 pairs
    assert R.thoi_value(hand, BET) == 4.0
    assert R.thoi_value(hand, R.PENALTY_TABLES["points"]) == 8.0


# --- settlement variants --------------------------------------------------------------------
def test_count_mode_settlement():
    g = tl(settlement_mode="count")
    st = position(g, ["3S", "4S 4C 2H", "5S 5C 5D 5H 6S", "7S 8S 9D"], to_act=0)
    st.apply(M("3S"))  # the first finisher ends a count-mode game
    assert st.is_terminal() and st.end == "count"
    # cards left x 1 + thối: seat 1 3 + 1.0, seat 2 5 + 2.0, seat 3 3
    assert sorted(st.settlement()) == sorted([(1, 0, 4.0), (2, 0, 7.0), (3, 0, 3.0)])
    g = tl(settlement_mode="count", count_unit=0.5, thoi_enabled=False)
    st = position(g, ["3S", "4S 4C 2H", "5S 5C 5D 5H 6S", "7S 8S 9D"], to_act=0)
    st.apply(M("3S"))
    assert st.returns() == [5.5, -1.5, -2.5, -1.5]


def test_count_mode_cong():
    g = tl(settlement_mode="count")
    cong_hand = "3C 4C 5C 6D 7D 8D 9H TH JH QS KS AC 2S"
    st = position(g, ["3S", cong_hand, "5S 6S", "7S 8S 9D"], to_act=0, fresh=(1,))
    st.apply(M("3S"))
    assert st.cong == (1,)
    # cóng: 13 x 2 x 1 + thối 0.5
    assert (1, 0, 26.5) in st.settlement()


def test_three_player_ranking():
    g = tl(3)
    st = position(g, ["3S", "4S", "5S 6S"], to_act=0)
    st.apply(M("3S"))  # 3S as the first finisher's last play: đút mù
    assert st.end == "dut_mu"
    g = tl(3, dut_mu_enabled=False)
    st = position(g, ["3S", "4S", "5S 6S"], to_act=0)
    for t in ("3S", "4S"):
        st.apply(g.parse_move(t))
    assert st.is_terminal() and st.ranking() == [0, 1, 2]
    assert st.returns() == [1.0, 0.0, -1.0]  # last pays first; second neither pays nor gets


def test_two_player_ranking_and_rank_payments_option():
    g = tl(2, rank_payments=[3, 0])
    st = position(g, ["4S", "5S 6S 2H"], to_act=0)
    st.apply(M("4S"))
    assert st.is_terminal()
    # last pays first 3 bets + thối (2H = 1) to the previous finisher (seat 0)
    assert st.returns() == [4.0, -4.0]
    g = tl(4, rank_payments=[2, 1])
    st = position(g, ["", "5S", "", "4S"], to_act=3, finished=(2, 0))
    st.apply(M("4S"))
    assert st.returns() == [1.0, -2.0, 2.0, -1.0]


def test_three_players_one_cong_ends_the_game():
    g = tl(3)
    cong_hand = "3C 4C 5C 6D 7D 8D 9H TH JH QS KS AC 2S"
    st = position(g, ["4S", cong_hand, "7S 8S 2D"], to_act=0, fresh=(1,))
    st.apply(M("4S"))
    assert st.is_terminal() and st.ranking() == [0, 2, 1]
    # cóng pays 2 + 0.5; the remaining seat is the last non-cóng holder: thối 1.0 to seat 0
    assert sorted(st.settlement()) == sorted([(1, 0, 2.5), (2, 0, 1.0)])


def test_cong_disabled():
    g = tl(cong_enabled=False)
    hand = "3C 4C 5C 6D 7D 8D 9H TH JH QS KS AC 2S"
    st = position(g, ["4S", "5S", hand, "9D"], to_act=0, fresh=(2,))
    st.apply(M("4S"))
    assert st.cong == () and not st.is_terminal()


def test_thoi_disabled():
    g = tl(thoi_enabled=False)
    st = position(g, ["", "2S 2D 8C 8D 8H 8S JC", "", "5S"], to_act=3, finished=(2, 0))
    st.apply(M("5S"))
    assert st.returns() == [0.5, -1.0, 1.0, -0.5]


def test_dut_mu_single_only():
    g = tl(dut_mu_single_only=True)
    st = position(g, ["4S", "3S 4C 5D", "6S", "7S 8S"], to_act=1)
    st.apply(M("3S 4C 5D"))
    assert st.finish == (1,) and not st.is_terminal()
    g = tl(dut_mu_single_only=False)
    st = position(g, ["4S", "3S 4C 5D", "6S", "7S 8S"], to_act=1)
    st.apply(M("3S 4C 5D"))
    assert st.end == "dut_mu"


# --- first lead ------------------------------------------------------------------------------
def test_first_lead_requires_three_of_spades():
    import random

    g = tl(first_lead_requires_3_spades=True)
    rng = random.Random(3)
    st = g.new_initial_state(rng)
    while st.is_terminal():
        st = g.new_initial_state(rng)
    assert st.hands[st.current_player] & 1  # the holder of 3S leads
    assert st.legal_moves() and all(m & 1 for m in st.legal_moves())
    other = next(1 << c for c in range(1, 52) if st.hands[st.current_player] >> c & 1)
    with pytest.raises(games.IllegalMoveError, match="must contain 3S"):
        st.apply(other)
    # later games and the default: free lead
    g2 = tl(first_lead_requires_3_spades=True, first_game=False)
    st2 = g2.state_from_deal(Deal(hands=st.deal.hands, first=(st.current_player + 1) % 4))
    assert any(not m & 1 for m in st2.legal_moves())


def test_first_lead_three_players_lowest_card():
    g = tl(3, first_lead_requires_3_spades=True)
    hands = (
        tuple(parse_cards("3C 4C 5C 6D 7D 8D 9H TH JH QS KS AC 2S")),
        tuple(parse_cards("3D 4D 5D 6S 7S 8S 9C TC JC QH KH AD 2C")),
        tuple(parse_cards("3H 4H 5H 6H 7H 8H 9D TD JD QD KD AH 2D")),
    )
    st = g.state_from_deal(Deal(hands=hands, first=0))  # 3S set aside: 3C is the lowest
    assert all(m & parse_mask("3C") for m in st.legal_moves())
    with pytest.raises(DealError, match="lowest dealt card 3C is held by seat 0"):
        g.state_from_deal(Deal(hands=hands, first=1))


def test_option_errors():
    with pytest.raises(OptionError, match="not one of"):
        tl(settlement_mode="fast")
    with pytest.raises(OptionError, match="unknown option"):
        tl(four_quads=True)
    with pytest.raises(OptionError, match=">= 0"):
        tl(cong_multiplier=-1)
    with pytest.raises(OptionError, match="list of 2 numbers"):
        tl(rank_payments=[1, 2, 3])
    names = {o["name"] for o in games.make("tienlen").describe_options()}
    assert {
        "first_lead_requires_3_spades",
        "four_of_a_kind_chops_pair_of_twos",
        "four_pairs_ignore_pass",
        "long_pair_sequence_is_bomb",
        "instant_win_enabled",
        "instant_win_first_game_extra",
        "instant_win_flush_rule",
        "settlement_mode",
        "rank_payments",
        "penalty_unit",
        "chop_chain_last_victim_pays_all",
        "chop_void_if_victim_finished",
        "thoi_enabled",
        "thoi_payee",
        "cong_enabled",
        "cong_multiplier",
        "instant_win_payment",
        "dut_mu_enabled",
        "dut_mu_single_only",
        "count_unit",
        "first_game",
    } == names
