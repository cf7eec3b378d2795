"""The worked examples of the Tiến lên rules (docs/rules/tienlen.md), one test each, with their exact answers."""

import random

import pytest

from quansu import games
from quansu.games.base import Deal, IllegalMoveError
from quansu.games.cards import mask_of, parse_cards, parse_mask
from quansu.games.tienlen import rules as R
from quansu.games.tienlen.testing import position

M = parse_mask
BET = R.PENALTY_TABLES["bet"]


def tl(**options):
    return games.make("tienlen", 4, options)


def legal_texts(game, st):
    return {game.move_to_text(m) for m in st.legal_moves()}


def play(st, *texts):
    for t in texts:
        st.apply(st.game.parse_move(t))


def deal_with(game, fixed: dict, seed=0, first=0):
    """A deal where seat s holds ``fixed[s]`` (13 cards); other seats get the rest at random,
    redrawn until none of them holds an instant-win hand."""
    rng = random.Random(seed)
    o = game.options
    taken = set()
    for cards in fixed.values():
        taken |= set(parse_cards(cards))
    rest = [c for c in range(52) if c not in taken]
    while True:
        rng.shuffle(rest)
        hands, k = [], 0
        for s in range(game.num_players):
            if s in fixed:
                hands.append(tuple(sorted(parse_cards(fixed[s]))))
            else:
                hands.append(tuple(sorted(rest[k : k + 13])))
                k += 13
        if all(
            s in fixed
            or not R.instant_win(
                mask_of(h),
                o["first_game"],
                o["instant_win_first_game_extra"],
                o["instant_win_flush_rule"],
            )
            for s, h in enumerate(hands)
        ):
            return Deal(hands=tuple(hands), first=first)


def test_01_straight_cannot_contain_a_two():
    assert R.classify(M("QD KC AH 2S")) == 0
    js = M("JS QD KC AH")
    assert R.classify(js) == R.STRAIGHT + 4
    assert js.bit_length() - 1 == parse_cards("AH")[0]  # top A♥
    assert R.classify(M("AH 2S 3C")) == 0
    with pytest.raises(games.MoveParseError, match="not a Tiến lên combination"):
        tl().parse_move("QD KC AH 2S")


def test_02_same_length_required():
    g = tl()
    st = position(
        g, ["", "3S 4C 5D 6S 5C 6C 7S 4D 5H 6D", "", ""], to_act=1, top="4S 5S 6H", owner=0
    )
    legal = legal_texts(g, st)
    assert "3S 4C 5D 6S" not in legal
    assert "5C 6C 7S" in legal
    assert "4D 5D 6D" not in legal
    with pytest.raises(IllegalMoveError, match="does not beat"):
        st.apply(M("4D 5D 6D"))


def test_03_pair_suit_tie_break():
    g = tl()
    st = position(g, ["", "9H 9S 3C", "", ""], to_act=1, top="9D 9C", owner=0)
    assert "9S 9H" in legal_texts(g, st)
    st = position(g, ["", "9D 9C 3C", "", ""], to_act=1, top="9H 9S", owner=0)
    assert "9C 9D" not in legal_texts(g, st)


def test_04_three_pairs_chop_a_single_two():
    g = tl()
    st = position(g, ["2H 3C", "5S 5H 6C 6D 7S 7C 9D", "8S 8C", "TS TC"], to_act=0)
    play(st, "2H", "5S 5H 6C 6D 7S 7C")
    assert st.chain == (1.0, 0, 1)
    play(st, "pass", "pass", "pass")
    assert st.transfers == ((0, 1, 1.0),)
    assert st.top == 0 and st.current_player == 1


def test_05_three_pairs_cannot_chop_a_pair_of_twos():
    g = tl()
    hand = "6S 6H 7C 7D 8S 8C 9S 9C 9D 9H"  # 6-7-8 pairs and four 9s
    st = position(g, ["3C", hand, "4S", "4C"], to_act=1, top="2S 2C", owner=0)
    legal = legal_texts(g, st)
    assert "6S 6H 7C 7D 8S 8C" not in legal
    assert "9S 9C 9D 9H" in legal
    play(st, "9S 9C 9D 9H")
    assert st.chain == (1.0, 0, 1)
    g2 = tl(four_of_a_kind_chops_pair_of_twos=False)
    hand2 = "6S 6H 7C 7D 8S 8C TS TC TD TH"
    st2 = position(g2, ["3C", hand2, "4S", "4C"], to_act=1, top="2S 2C", owner=0)
    assert legal_texts(g2, st2) == {"pass"}


def test_06_four_pairs_chop_a_pair_of_twos_even_after_passing():
    g = tl()
    hands = ["KS KD 3S", "4S 4C 5D 5H 6S 6C 7D 7H", "AS AH 8S 8C 9S 9C TS TC JD", "2D 2H 3D"]
    st = position(g, hands, to_act=0)
    play(st, "KS KD", "pass", "AS AH", "2D 2H", "pass")
    assert st.current_player == 1  # offered a turn though he passed
    assert legal_texts(g, st) == {"pass", "4S 4C 5D 5H 6S 6C 7D 7H"}
    play(st, "4S 4C 5D 5H 6S 6C 7D 7H")
    assert st.chain == (2.0, 3, 1)
    assert st.current_player == 2
    assert legal_texts(g, st) == {"pass"}  # seat 2 holds no 4 pair sequence
    # a single 2 on top: the seat that passed is skipped
    st = position(g, ["KS 3S", "4S 4C 5D 5H 6S 6C 7D 7H", "AS 8C", "2D 3D"], to_act=0)
    play(st, "KS", "pass", "AS", "2D", "pass")
    assert st.current_player == 2


def test_06b_a_higher_four_pairs_may_answer():
    g = tl()
    hands = ["KS KD 3S", "4S 4C 5D 5H 6S 6C 7D 7H", "AS AH 8S 8C 9S 9C TS TC JS JC", "2D 2H 3D"]
    st = position(g, hands, to_act=0)
    play(st, "KS KD", "pass", "AS AH", "2D 2H", "pass", "4S 4C 5D 5H 6S 6C 7D 7H")
    assert "8S 8C 9S 9C TS TC JS JC" in legal_texts(g, st)


def test_07_bomb_against_same_type_bomb():
    g = tl()
    st = position(
        g, ["", "3D 3H 4D 4H 5C 5D 6S 6C", "7S", "7C"], to_act=1, top="3S 3C 4S 4C 5S 5H", owner=0
    )
    legal = legal_texts(g, st)
    assert "3D 3H 4D 4H 5C 5D" not in legal
    assert "4D 4H 5C 5D 6S 6C" in legal
    play(st, "4D 4H 5C 5D 6S 6C")
    assert st.chain == (1.5, 0, 1)


def test_08_pass_lock_out():
    g = tl()
    st = position(g, ["7C JS 3S", "KH 4S", "9D 4C", "5S 5C"], to_act=0)
    play(st, "7C", "pass", "9D", "pass", "JS")
    assert st.current_player == 2  # seat 1 skipped although it holds KH
    play(st, "pass")
    assert st.current_player == 0 and st.top == 0  # seat 3 skipped, the round ends
    assert "3S" in legal_texts(g, st)


def test_09_huong_sai():
    g = tl()
    st = position(g, ["3S 4S", "KH", "5C 6C", "7D 8D"], to_act=1)
    play(st, "KH")
    assert st.finish == (1,)
    play(st, "pass", "pass", "pass")
    assert st.current_player == 2 and st.top == 0


def test_10_chop_chain_last_victim_pays_all():
    g = tl()
    hands = ["2H 3C", "5S 5H 6C 6D 7S 7C 3D", "9S 9C 9D 9H 3H", "JS JC QS QC KS KC AS AC 4S"]
    st = position(g, hands, to_act=0)
    play(st, "2H", "5S 5H 6C 6D 7S 7C", "9S 9C 9D 9H", "JS JC QS QC KS KC AS AC")
    assert st.chain == (4.5, 2, 3)
    play(st, "pass", "pass", "pass")
    assert st.transfers == ((2, 3, 4.5),)


def test_10b_each_victim_pays_when_the_option_is_off():
    g = tl(chop_chain_last_victim_pays_all=False)
    hands = ["2H 3C", "5S 5H 6C 6D 7S 7C 3D", "9S 9C 9D 9H 3H", "JS JC QS QC KS KC AS AC 4S"]
    st = position(g, hands, to_act=0)
    play(st, "2H", "5S 5H 6C 6D 7S 7C", "9S 9C 9D 9H", "JS JC QS QC KS KC AS AC")
    assert st.transfers == ((0, 1, 1.0), (1, 2, 1.5), (2, 3, 2.0))


def test_11_chop_void_when_the_victim_went_out():
    g = tl()
    st = position(g, ["2H", "6S 6C 6D 6H 3C", "4S 4C", "5S 5C"], to_act=0)
    play(st, "2H")
    assert st.finish == (0,)
    play(st, "6S 6C 6D 6H", "pass", "pass")
    assert st.transfers == ()
    assert st.current_player == 1 and st.top == 0
    g2 = tl(chop_void_if_victim_finished=False)
    st = position(g2, ["2H", "6S 6C 6D 6H 3C", "4S 4C", "5S 5C"], to_act=0)
    play(st, "2H", "6S 6C 6D 6H", "pass", "pass")
    assert st.transfers == ((0, 1, 1.0),)


def test_12_a_two_may_be_the_last_card():
    g = tl()
    st = position(g, ["3S 4S", "5S 6S", "7S 8S", "2S"], to_act=3, top="AH", owner=2)
    assert "2S" in legal_texts(g, st)
    play(st, "2S")
    assert st.finish == (3,)


def test_13_triple_of_twos_is_unbeatable():
    g = tl()
    st = position(
        g, ["", "3S 3C 3D 3H 4S 4C 5S 5C 6S 6C 7S 7C", "", ""], to_act=1, top="2S 2D 2H", owner=0
    )
    assert legal_texts(g, st) == {"pass"}


def test_14_thoi_and_rank_money():
    for payee, net in (
        ("previous_finisher", [0.5, -4.5, 1.0, 3.0]),
        ("winner", [0.5, -4.5, 4.5, -0.5]),
    ):
        g = tl(thoi_payee=payee)
        st = position(g, ["", "2S 2D 8C 8D 8H 8S JC", "", "5S"], to_act=3, finished=(2, 0))
        play(st, "5S")
        assert st.is_terminal()
        assert st.returns() == net
        assert st.ranking() == [2, 0, 3, 1]
    g = tl()
    st = position(g, ["", "2S 2D 8C 8D 8H 8S JC", "", "5S"], to_act=3, finished=(2, 0))
    play(st, "5S")
    assert sorted(st.settlement()) == sorted([(1, 2, 1.0), (3, 0, 0.5), (1, 3, 3.5)])


def test_15_thoi_of_a_pair_sequence():
    hand = M("9S 9C TS TD JC JH QD QH 2H")
    assert R.thoi_value(hand, BET) == 3.5
    g = tl()
    st = position(g, ["", "9S 9C TS TD JC JH QD QH 2H", "", "5S"], to_act=3, finished=(2, 0))
    play(st, "5S")
    assert (1, 3, 3.5) in st.settlement()


def test_16_cong():
    g = tl()
    seat2 = "2H KS KC KD KH 3S 4C 5D 7H 8S 9C JD QH"
    st = position(g, ["4S", "5C 6C", seat2, "9D"], to_act=0, fresh=(2,))
    play(st, "4S")
    assert st.cong == (2,)
    play(st, "pass", "pass")  # seat 1, seat 3 (seat 2 is out)
    assert st.current_player == 1  # hưởng sái: the next seat with cards after seat 0
    play(st, "5C", "9D")
    assert st.is_terminal()
    assert st.returns() == [5.0, -0.5, -5.0, 0.5]
    assert st.ranking() == [0, 3, 1, 2]


def test_17_instant_win_any_game():
    g = tl()
    deal = deal_with(g, {3: "3S 3D 5C 5H 7S 7D 9C 9H JS JD KC KH AS"})
    st = g.state_from_deal(deal)
    assert st.is_terminal() and st.legal_moves() == []
    assert st.returns() == [-2.0, -2.0, -2.0, 6.0]
    assert st.next_first() == 3


def test_18_first_game_only_instant_win():
    hand = "3S 3H 4C 4D 5S 5H 7C 9D JS QC KH AD 2S"
    assert R.instant_win(M(hand), first_game=False) is None
    g1 = tl(first_game=True)
    st = g1.state_from_deal(deal_with(g1, {1: hand}))
    assert st.is_terminal() and st.returns()[1] == 6.0
    g2 = tl(first_game=False)
    st = g2.state_from_deal(deal_with(g2, {1: hand}, first=1))
    assert not st.is_terminal()
    assert "3S 3H 4C 4D 5S 5H" in legal_texts(g2, st)


def test_19_dut_mu():
    g = tl()
    hands = ["4S 4C 2H", "3S", "5S 5C 5D 5H 6S", "7S 8S"]
    st = position(g, hands, to_act=1)
    play(st, "3S")
    assert st.is_terminal() and st.end == "dut_mu"
    # each pays 1 U + thối of his own hand: seat 0 holds 2H (1.0), seat 2 a four (2.0)
    assert sorted(st.settlement()) == sorted([(0, 1, 2.0), (2, 1, 3.0), (3, 1, 1.0)])
    assert st.returns() == [-2.0, 6.0, -3.0, -1.0]
    g2 = tl(dut_mu_enabled=False)
    st = position(g2, hands, to_act=1)
    play(st, "3S")
    assert not st.is_terminal()


def test_20_bombs_cannot_be_played_on_non_twos():
    g = tl()
    st = position(g, ["", "5S 5C 5D 5H 3C", "", ""], to_act=1, top="AH", owner=0)
    assert legal_texts(g, st) == {"pass"}
    with pytest.raises(IllegalMoveError, match="cannot be played on"):
        st.apply(M("5S 5C 5D 5H"))
