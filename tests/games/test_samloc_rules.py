"""Rule tables in card notation: combinations, straights, beating and chops, instant wins, move
text, options and deal validation."""

import pytest

from quansu.games.base import Deal, DealError, GameError, MoveParseError, OptionError
from quansu.games.samloc import DECLARE, DECLINE, PASS
from quansu.games.samloc import rules as R
from tests.helpers.samloc import game, mask

S, P, T, Q, ST, DQ = R.SINGLE, R.PAIR, R.TRIPLE, R.QUAD, R.STRAIGHT, R.DQUAD
RK = {ch: i for i, ch in enumerate("3456789TJQKA2")}


@pytest.mark.parametrize(
    "cards,expected",
    [
        ("7S", (S, 1, RK["7"])),
        ("2H", (S, 1, RK["2"])),
        ("9S 9C", (P, 2, RK["9"])),
        ("2D 2H", (P, 2, RK["2"])),
        ("KS KD KH", (T, 3, RK["K"])),
        ("5S 5C 5D 5H", (Q, 4, RK["5"])),
        ("5S 5C 5D 5H 9S 9C 9D 9H", (DQ, 8, RK["9"])),
        ("3S 4C 5D", (ST, 3, 5)),
        ("3S 4C 5D 6H 7S 8C 9D TH JS QC", (ST, 10, 12)),
        ("TS JC QD KH AS", (ST, 5, 14)),
        ("AS 2H 3D", (ST, 3, 3)),
        ("AS 2H 3D 4C 5S", (ST, 5, 5)),
        ("2S 3S 4S", (ST, 3, 4)),
        ("2S 3S 4S 5S 6S 7S", (ST, 6, 7)),
        ("QH KH AS", (ST, 3, 14)),
        ("AH 2C 3D 4S 5H 6C 7D 8S 9H TC JD QS KH", (ST, 13, 13)),
        # not combinations
        ("KD AC 2S", None),  # K-A-2 never
        ("QS KD AC 2S", None),
        ("KS AS 2S 3S", None),  # a wrap
        ("JS QD KC AH 2H", None),
        ("AS 3S 4S", None),  # A high is not next to 3
        ("AS 2H 4D", None),
        ("3S 4S", None),  # two cards are never a straight
        ("3S 4S 6S", None),
        ("3S 3C 4S", None),
        ("3S 3C 3D 3H 4S", None),
        ("5S 5C 5D 5H 9S 9C 9D", None),
        ("5S 5C 5D 9S 9C 9D", None),  # no pair sequences / triple pairs in Sâm
        ("5S 5C 6S 6C 7S 7C", None),
    ],
)
def test_classify(cards, expected):
    assert R.classify(mask(cards)) == expected


@pytest.mark.parametrize("cards", ["AS 2H 3D", "2S 3S 4S", "AS 2H 3D 4C"])
def test_no_two_in_straights_option(cards):
    assert R.classify(mask(cards), allow_two=False) is None
    assert R.classify(mask("QH KH AS"), allow_two=False) == (ST, 3, 14)


def test_double_quad_option_off():
    assert R.classify(mask("5S 5C 5D 5H 9S 9C 9D 9H"), double_quad=False) is None


def _beats(move, top, **kw):
    return R.beats(R.classify(mask(move)), R.classify(mask(top)), **kw)


@pytest.mark.parametrize(
    "top,move,ok",
    [
        ("7S", "8C", True),
        ("7S", "7H", False),
        ("7S", "6H", False),
        ("AS", "2S", True),
        ("2S", "2H", False),
        ("9S 9C", "9D 9H", False),
        ("9S 9C", "TD TH", True),
        ("2S 2C", "2D 2H", False),
        ("KS KC KD", "AS AC AD", True),
        ("AS AC AD", "2S 2C 2D", True),
        ("3S 4S 5S", "4C 5C 6C", True),
        ("3S 4S 5S", "3C 4C 5C", False),
        ("2C 3C 4D", "AS 2H 3D", False),
        ("AS 2H 3D", "2C 3C 4D", True),
        ("2C 3C 4D", "3H 4H 5C", True),
        ("QS KS AS", "AH 2H 3H", False),
        ("JS QS KS", "QH KH AD", True),
        ("3S 4S 5S", "3H 4H 5C 6D", False),
        ("3S 4S 5S 6S", "4H 5C 6D", False),
        # chops
        ("2D", "5S 5C 5D 5H", True),
        ("AD", "5S 5C 5D 5H", False),  # bombs beat nothing else
        ("2S 2H", "9S 9C 9D 9H", False),
        ("2S 2H", "5S 5C 5D 5H 9S 9C 9D 9H", True),
        ("2S 2C 2H", "9S 9C 9D 9H", False),  # nothing beats three 2s
        ("2S 2C 2H", "5S 5C 5D 5H 9S 9C 9D 9H", False),
        ("5S 5C 5D 5H", "9S 9C 9D 9H", True),
        ("9S 9C 9D 9H", "5S 5C 5D 5H", False),
        ("5S 5C 5D 5H", "3S 3C 3D 3H 4S 4C 4D 4H", False),  # a double quad does not beat a quad
        ("3S 3C 3D 3H 4S 4C 4D 4H", "5S 5C 5D 5H 6S 6C 6D 6H", True),
        ("5S 5C 5D 5H 6S 6C 6D 6H", "3S 3C 3D 3H 7S 7C 7D 7H", True),
        ("5S 5C 5D 5H 8S 8C 8D 8H", "3S 3C 3D 3H 7S 7C 7D 7H", False),
        ("3S 3C 3D 3H 4S 4C 4D 4H", "9S 9C 9D 9H", False),
        ("AS AC", "9S 9C 9D 9H", False),
    ],
)
def test_beats_table(top, move, ok):
    assert _beats(move, top) is ok


def test_option_single_quad_chops_pair_of_twos():
    assert _beats("9S 9C 9D 9H", "2S 2H", quad_chops_pair_of_twos=True)
    assert not _beats("9S 9C 9D 9H", "2S 2H")
    assert not _beats("5S 5C 5D 5H 9S 9C 9D 9H", "2S 2H", double_quad=False)


@pytest.mark.parametrize(
    "cards,iw",
    [
        ("AS 2C 3D 4H 5S 6C 7D 8H 9S TC", R.IW_DRAGON),
        ("3S 4C 5D 6H 7S 8C 9D TH JS QC", R.IW_DRAGON),
        ("5S 6C 7D 8H 9S TC JD QH KS AC", R.IW_DRAGON),
        ("2S 2C 2D 2H 5S 6C 7D 9H JS KC", R.IW_FOUR_TWOS),
        ("3D 5H 6D 7H 9D JH QD KH AD 2H", R.IW_SAME_COLOUR),
        ("3S 5C 6S 7C 9S JC QS KC AS 2C", R.IW_SAME_COLOUR),
        ("5S 5C 5D 8S 8C 8D JS JC JD 4H", R.IW_THREE_TRIPLES),
        ("5S 5C 5D 5H 8S 8C 8D JS JC JD", R.IW_THREE_TRIPLES),  # a quad counts as a triple
        ("3S 3C 6S 6D 9S 9D KS KH AC AD", R.IW_FIVE_PAIRS),
        ("3S 3C 6S 6C 6D 6H 9S 9D KS KH", R.IW_FIVE_PAIRS),  # a quad counts as two pairs
        ("3S 3C 6S 6D 9S 9D KS KH AC 2D", R.IW_NONE),
        ("3S 4C 5D 6H 7S 8C 9D TH JS KC", R.IW_NONE),  # 9 in a row is not a dragon
        ("KS AC 2D 3H 4S 5C 6D 7H 8S 9C", R.IW_NONE),  # K-A-2 wraps
    ],
)
def test_instant_wins(cards, iw):
    assert R.instant_win(mask(cards)) == iw


def test_dragon_with_two_needs_the_option():
    assert R.instant_win(mask("AS 2C 3D 4H 5S 6C 7D 8H 9S TC"), allow_two=False) == R.IW_NONE


@pytest.mark.parametrize(
    "cards,text",
    [
        ("3D 2H AS", "AS 2H 3D"),
        ("4H 3S 2D", "2D 3S 4H"),
        ("AS 2D 3S 4H 5C", "AS 2D 3S 4H 5C"),
        ("QH KH AS", "QH KH AS"),
        ("9C 9S", "9S 9C"),
        ("2H 2S", "2S 2H"),
        ("5H 5S 5D 5C 9S 9C 9D 9H", "5S 5C 5D 5H 9S 9C 9D 9H"),
        ("7S", "7S"),
    ],
)
def test_move_text(cards, text):
    g = game()
    m = mask(cards)
    assert g.move_to_text(m) == text
    assert g.parse_move(text) == m
    assert g.parse_move(text.lower()) == m


def test_move_text_words_and_symbols():
    g = game()
    assert g.parse_move("pass") == PASS and g.move_to_text(PASS) == "pass"
    assert g.parse_move("DECLARE") == DECLARE and g.move_to_text(DECLARE) == "declare"
    assert g.parse_move(" Decline ") == DECLINE and g.move_to_text(DECLINE) == "decline"
    assert g.parse_move("A♠ 2♥ 3♦") == mask("AS 2H 3D")
    assert g.parse_move("10h jh qh") == mask("TH JH QH")


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "empty move"),
        ("3S 5H", "not a Sâm combination"),
        ("KD AC 2S", "not a Sâm combination"),
        ("ZZ", "bad move"),
        ("3S 3S", "bad move"),
        ("draw", "bad move"),
    ],
)
def test_bad_move_text(text, fragment):
    with pytest.raises(MoveParseError, match=fragment):
        game().parse_move(text)


def test_parse_respects_options():
    with pytest.raises(MoveParseError):
        game(straight_allows_two=False).parse_move("AS 2H 3D")


def test_describe_move():
    g = game()
    info = g.describe_move(mask("3S 2D AH"))
    assert info.kind == "play" and info.combo == "straight"
    assert [g.move_to_text(1 << c) for c in info.cards] == ["AH", "2D", "3S"]
    assert g.describe_move(mask("5S 5C 5D 5H 9S 9C 9D 9H")).combo == "double_quad"
    assert g.describe_move(PASS).kind == "pass"
    assert g.describe_move(DECLARE).kind == "declare"
    assert g.describe_move(DECLINE).kind == "decline"
    with pytest.raises(GameError):
        g.describe_move("7S")
    with pytest.raises(GameError):
        g.move_to_text(-3)


def test_every_option_of_the_rules_table():
    names = {s.name for s in game().option_specs}
    assert names == {
        "straight_allows_two",
        "single_quad_chops_pair_of_twos",
        "double_quad_enabled",
        "two_in_straight_counts",
        "bao_mot_mode",
        "bao_mot_pass_liable",
        "sam_fail_multiplier",
        "sam_fail_no_blocker",
        "sam_block_also_pays_chop",
        "sam_amount",
        "instant_win_enabled",
        "instant_win_amount",
        "cong_amount",
        "thoi_two",
        "thoi_quad",
        "chop_two",
        "chop_quad",
        "chop_chain_last_victim_pays_all",
        "first_game_leader",
        "previous_winner",
    }
    d = {s.name: s.default for s in game().option_specs}
    assert d["bao_mot_mode"] == "penalty" and d["sam_amount"] == 20 and d["cong_amount"] == 15
    assert (d["thoi_two"], d["thoi_quad"], d["chop_two"], d["chop_quad"]) == (10, 20, 20, 30)
    assert all(s.description for s in game().option_specs)


@pytest.mark.parametrize(
    "opts,fragment",
    [
        ({"bao_mot_mode": "strict"}, "not one of"),
        ({"sam_amount": -1}, "must be >= 0"),
        ({"sam_amount": 2.5}, "whole number"),
        ({"nope": True}, "unknown option"),
        ({"straight_allows_two": "yes"}, "true or false"),
    ],
)
def test_bad_options(opts, fragment):
    with pytest.raises(OptionError, match=fragment):
        game(**opts)


@pytest.mark.parametrize("n", [1, 5])
def test_player_counts(n):
    with pytest.raises(GameError, match="not supported"):
        game(n)


def _deal(**kw):
    g = game()
    import random

    d = g.random_deal(random.Random(0))
    fields = dict(hands=d.hands, first=d.first, set_aside=d.set_aside, extra=d.extra)
    fields.update(kw)
    return g, Deal(**fields)


def test_deal_validation():
    g, d = _deal()
    g.state_from_deal(d)
    hands = list(d.hands)
    bad = [
        (dict(hands=hands[:3]), r"deal.hands: 3 hands for 4 players"),
        (
            dict(
                hands=[hands[0] + (hands[1][0],)] + [hands[1][1:] + (d.set_aside[0],)] + hands[2:]
            ),
            r"deal.hands\[0\]: 11 cards, Sâm deals 10",
        ),
        (dict(hands=[hands[0][:9] + (hands[1][0],)] + hands[1:]), r"card .* dealt twice"),
        (dict(hands=[hands[0][:9] + (60,)] + hands[1:]), r"deal.hands\[0\]\[9\]: bad card id 60"),
        (dict(first=4), r"deal.first"),
        (dict(stock=(1, 2)), r"deal.stock"),
        (dict(set_aside=d.set_aside[:5]), r"deal.set_aside"),
        (dict(extra=(("colour", 1),)), r"deal.extra"),
        (dict(first=(d.first + 1) % 4), r"lowest card .* is held by seat"),
    ]
    for kw, pattern in bad:
        g, dd = _deal(**kw)
        with pytest.raises(DealError, match=pattern):
            g.state_from_deal(dd)


def test_previous_winner_option_sets_the_leader():
    import random

    g = game(4, previous_winner=2)
    d = g.random_deal(random.Random(0))
    assert d.first == 2
    g.state_from_deal(d)
    with pytest.raises(DealError, match=r"deal.first: seat 1, but the previous winner \(seat 2"):
        g.state_from_deal(Deal(hands=d.hands, first=1))
    with pytest.raises(OptionError, match="previous_winner"):
        game(3, previous_winner=3)
