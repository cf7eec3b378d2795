"""Table-driven tests of the pure Phỏm rules (games/phom/rules.py, games/phom/settle.py) in card
notation: melds, cạ, points, the cover condition, tied cards, rotating melds, eats, discards,
sends, Ù forms, ranking ties and payments."""

import pytest

from quansu.games.phom import rules as R
from quansu.games.phom import settle as S
from tests.games.test_phom_helpers import icard, imask

DEFAULT = {
    "eat_payments": (1, 2, 3, 4),
    "chot_payment_mode": "replace",
    "ca_k_enabled": False,
    "mom_payment": 4,
    "last_place_pays": "by_position",
    "all_mom_first_layer_wins": True,
}


# -- melds (example 1) --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards,ok",
    [
        ("AS 2S 3S", True),
        ("JD QD KD", True),
        ("QS KS AS", False),
        ("KS AS 2S", False),
        ("5C 6C 7D", False),
        ("7C 7D 7H 7S", True),
        ("3H 4H 5H 6H 7H", True),
        ("7C 7D 7H", True),
        ("7C 7D", False),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", True),
        ("5H 6H 8H", False),
        ("9C TC JC QC", True),
        ("8C 8D 9C", False),
    ],
)
def test_meld(cards, ok):
    assert R.is_meld(imask(cards)) is ok


@pytest.mark.parametrize(
    "hand,melds",
    [
        ("4D 5D 6D 7D", ["4D 5D 6D", "4D 5D 6D 7D", "5D 6D 7D"]),
        ("7S 7C 7H 7D 9S", ["7S 7C 7D", "7S 7C 7H", "7S 7D 7H", "7C 7D 7H", "7S 7C 7D 7H"]),
        ("QS KS AS 2S 3S", ["AS 2S 3S"]),
        ("KH 2C 9D", []),
    ],
)
def test_melds_in(hand, melds):
    assert sorted(R.melds_in(imask(hand))) == sorted(imask(m) for m in melds)


# -- cạ (example 2) -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "a,b,ok",
    [
        ("5H", "7H", True),
        ("5H", "6H", True),
        ("9C", "9D", True),
        ("5H", "8H", False),
        ("KS", "AS", False),
        ("AS", "2S", True),
        ("AS", "3S", True),
        ("QS", "KS", True),
        ("5H", "6D", False),
        ("JC", "KC", True),
    ],
)
def test_ca(a, b, ok):
    assert R.is_ca(icard(a), icard(b)) is ok
    assert R.is_ca(icard(b), icard(a)) is ok


# -- points (example 3) -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards,pts",
    [
        ("KC QD JS AH TC 2S", 49),
        ("AS", 1),
        ("9H", 9),
        ("", 0),
        ("KS KC KD KH", 52),
    ],
)
def test_points(cards, pts):
    assert R.points(imask(cards)) == pts


# -- eating (examples 4, 6, 7, 8) ---------------------------------------------------------------
@pytest.mark.parametrize(
    "hand,eaten,card,ok",
    [
        # example 4
        ("9C TC 2S 5D KH 3H 4C JD QS", "", "8C", True),
        ("8S 8D 2S 5D KH 3H 4C JD QS", "", "8C", True),
        ("7C TC 2S 5D KH 3H 4C JD QS", "", "8C", False),
        # example 5
        ("QH TH 9H 2S 5D 7C KS 4C 3H", "", "JH", True),
        # example 6: 9D is needed by the eaten 8D
        ("7D 8D 9D 9S KC 2H 4S 5C JS", "8D", "9H", False),
        ("7D 8D 9D 9S KC 2H 4S 5C 6D", "8D", "9H", True),
        # example 7: two eaten cards may not share a meld
        ("5C 6C 7C 9D QS QH 3S 3D KH", "7C", "8C", False),
        # example 8: two cạ for 5H
        ("5S 5C 6H 7H KD QC 9S 2D JH", "", "5H", True),
        # a cạ using an eaten card is no cạ
        ("6H 7H 2C 2D KS 9C JD 4S 5D", "7H", "8H", False),
        ("6H 7H 9H 2C 2D KS 9C JD 4S", "7H", "8H", False),
        ("5H 6H 7H 9H TH 2D KS 9C JD", "7H", "8H", True),
        # K-A never adjacent
        ("QS KS 2C 5D 7H 9C JD 4S 8H", "", "AS", False),
        ("2S 3S 5C 5D 7H 9C JD 4H 8H", "", "AS", True),
    ],
)
def test_can_eat(hand, eaten, card, ok):
    assert R.can_eat(imask(hand), imask(eaten), icard(card), True) is ok
    # the same answer from the definition: cover(H + c, E + c)
    c = imask(card)
    assert R.cover(imask(hand) | c, imask(eaten) | c, True) is ok


def test_example7_two_eaten_cards_share_a_meld_when_allowed():
    assert R.can_eat(imask("5C 6C 7C 9D QS QH 3S 3D KH"), imask("7C"), icard("8C"), False)


# -- cover, tied cards, discards (examples 5, 8) ------------------------------------------------
@pytest.mark.parametrize(
    "hand,eaten,legal",
    [
        # example 5: after eating JH
        ("QH TH 9H 2S 5D 7C KS 4C 3H JH", "JH", "9H QH 2S 5D 7C KS 4C 3H"),
        # example 8: 5H eaten with two cạ; every non-eaten card still free
        ("5S 5C 6H 7H KD QC 9S 2D JH 5H", "5H", "5S 5C 6H 7H KD QC 9S 2D JH"),
        # a single cạ ties both cards
        ("9C TC 2S 5D KH 3H 4C JD QS 8C", "8C", "2S 5D KH 3H 4C JD QS"),
        # two eaten cards, disjoint melds
        ("3S 3C 3D 7H 8H 9H JC QC KC 5D", "3D 8H", "JC QC KC 5D"),
        ("3S 3C 3D 7H 8H 9H 4C 6C KD 5D", "3D 8H", "4C 6C KD 5D"),
        # a 4-card set around one eaten card: any one of the three others may go
        ("7S 7C 7D 7H 2C 4D 9S JH KC AD", "7H", "7S 7C 7D 2C 4D 9S JH KC AD"),
    ],
)
def test_legal_discards(hand, eaten, legal):
    assert R.legal_discards(imask(hand), imask(eaten), True) == imask(legal)


def test_example8_tied_cards_change_after_a_discard():
    h = imask("5S 5C 6H 7H KD QC 9S 2D JH 5H")
    e = imask("5H")
    # discard 5S: now only 5H 6H 7H covers 5H, so 6H and 7H are tied
    h1 = h & ~imask("5S")
    assert R.tied(h1, e) == imask("6H 7H")
    # discard 7H instead: 5S 5C 5H covers it, 5S and 5C are tied
    h2 = h & ~imask("7H")
    assert R.tied(h2, e) == imask("5S 5C")


@pytest.mark.parametrize(
    "hand,eaten,ok",
    [
        ("TH JH QH 9H", "JH", True),
        ("TH JH", "JH", False),
        ("7S 7C 7D 7H", "7S 7C", False),
        ("7S 7C 7D 8C 9C", "7S 8C", False),
        ("7S 7C 7D 7H 8C 9C", "7S 8C", True),
        ("AS 2S 3S 4S 5S 6S", "2S 5S", True),
        ("AS 2S 3S 4S 5S", "2S 4S", False),
        ("", "", True),
    ],
)
def test_cover(hand, eaten, ok):
    assert R.cover(imask(hand), imask(eaten), True) is ok


@pytest.mark.parametrize(
    "hand,eaten,one,ok",
    [
        ("5C 6C 7C 8C", "7C 8C", False, True),
        ("5C 6C 7C 8C", "7C 8C", True, False),
        ("5C 6C 7C 8C", "5C 8C", False, True),
        ("5C 6C 7C 9C", "5C 7C", False, True),
    ],
)
def test_cover_several_eaten_per_meld(hand, eaten, one, ok):
    assert R.cover(imask(hand), imask(eaten), one) is ok


# -- sends --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "meld,accepts",
    [
        ("8H 9H TH", "7H JH"),
        ("3C 3S 3H", "3D"),
        ("3C 3S 3H 3D", ""),
        ("AS 2S 3S", "4S"),
        ("JD QD KD", "TD"),
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", ""),
        ("6S 7S 8S", "5S 9S"),
    ],
)
def test_meld_accepts(meld, accepts):
    assert R.meld_accepts(imask(meld)) == imask(accepts)


# -- Ù forms ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "hand,eaten,ok",
    [
        # example 14: three melds with the eaten 9H alone in its meld, 5D left
        ("3S 3D 3C 7H 8H 9H JC QC KC 5D", "9H", True),
        ("3S 3D 3C 7H 8H 9H JC QC KC 5D", "", True),
        ("3S 3D 3C 7H 8H 9H JC QC 5H 5D", "", False),
        ("3S 3D 3C 3H 4H 5H 6H 9C 9D 9S", "", True),  # 3H goes either way: 10 in melds
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S KD", "", True),
        ("2S 3S 4S", "", True),  # a tái hand of 3 cards
        ("2S 3S 4S 9D", "", True),
        ("9D", "", False),
        ("9D 9C", "", False),
        # two eaten cards that would have to share the only meld
        ("4C 5C 6C 7C 8C 9C 2D 2H 2S KD", "5C 8C", True),
        ("4C 5C 6C 7C 2D 2H 2S KD JH QH", "5C 6C", False),
    ],
)
def test_can_u(hand, eaten, ok):
    assert R.can_u(imask(hand), imask(eaten), True) is ok


@pytest.mark.parametrize(
    "hand,ok",
    [
        ("3S 3D 3C 7H 8H 9H JC QC KC 5D", False),
        ("3S 3D 3C 7H 8H 9H JC QC KC TC", True),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH", True),
    ],
)
def test_u_tron_fill(hand, ok):
    assert R.can_fill(imask(hand), 0, True) is ok


@pytest.mark.parametrize(
    "hand,ok",
    [
        # example 17
        ("AS 4S 8S QS 2H 6H TH 3D 7C", True),
        ("AS 4S 8S QS 2H 6H TH 3D 3C", False),
        ("AS 4S 8S JS 2H 6H TH 3D 7C", True),  # 8S JS are 3 apart: no cạ
        ("AS 4S 8S TS 2H 6H KH 3D 7C", False),  # 8S TS: lọt khe
        ("KS AS 5C 9C 2D 6D TD 3H 7H", True),  # K-A is not a cạ
        ("AS 3S 7C JC 2D 6D TD 4H 8H", False),  # AS 3S is a cạ (lọt khe)
    ],
)
def test_u_khan(hand, ok):
    assert R.is_u_khan(imask(hand)) is ok


# -- payments -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "k,chot,king,rnd,opts,amount",
    [
        (1, False, False, 1, {}, 1),
        (2, False, False, 2, {}, 2),
        (3, False, False, 3, {}, 3),
        (1, True, False, 4, {}, 4),
        (2, True, False, 4, {}, 4),
        (2, True, False, 4, {"chot_payment_mode": "add"}, 6),
        (1, True, False, 4, {"chot_payment_mode": "add"}, 5),
        (1, False, True, 1, {"ca_k_enabled": True}, 2),
        (1, False, True, 2, {"ca_k_enabled": True}, 4),
        (2, False, True, 3, {"ca_k_enabled": True}, 6),
        (1, True, True, 4, {"ca_k_enabled": True}, 10),
        (1, False, True, 2, {}, 1),
        (2, False, False, 2, {"eat_payments": (2, 4, 6, 8)}, 4),
    ],
)
def test_eat_payment(k, chot, king, rnd, opts, amount):
    assert S.eat_payment(k, chot, king, rnd, {**DEFAULT, **opts}) == amount


@pytest.mark.parametrize(
    "points,mom,tai,order,tiebreak,ranking",
    [
        # example 13
        (
            [18, 25, 25, 40],
            [False, False, False, True],
            [False] * 4,
            [0, 1, 2, 3],
            True,
            [0, 1, 2, 3],
        ),
        # example 18: equal points, seat 0 laid first but had a tái turn
        (
            [20, 30, 20, 35],
            [False] * 4,
            [True, False, False, False],
            [0, 1, 2, 3],
            True,
            [2, 0, 1, 3],
        ),
        ([20, 30, 20, 35], [False] * 4, [False] * 4, [0, 1, 2, 3], True, [0, 2, 1, 3]),
        (
            [20, 30, 20, 35],
            [False] * 4,
            [True, False, False, False],
            [0, 1, 2, 3],
            False,
            [0, 2, 1, 3],
        ),
        # later lay-down loses ties; móm seats last by lay-down order
        ([10, 10, 5], [False, False, True], [False] * 3, [1, 2, 0], True, [1, 0, 2]),
        ([7, 50, 9, 3], [False, True, False, True], [False] * 4, [3, 0, 1, 2], True, [0, 2, 3, 1]),
        # example 19: all móm, the first to lay down is nhất
        ([30, 40, 50, 60], [True] * 4, [False] * 4, [1, 2, 3, 0], True, [1, 2, 3, 0]),
    ],
)
def test_rank_seats(points, mom, tai, order, tiebreak, ranking):
    assert S.rank_seats(points, mom, tai, order, tiebreak) == ranking


@pytest.mark.parametrize(
    "ranking,mom,opts,transfers",
    [
        # example 13: seat 0 +7
        ([0, 1, 2, 3], [False, False, False, True], {}, [(1, 0, 1), (2, 0, 2), (3, 0, 4)]),
        ([2, 0, 1, 3], [False] * 4, {}, [(0, 2, 1), (1, 2, 2), (3, 2, 3)]),
        # example 19
        ([1, 2, 3, 0], [True] * 4, {}, [(2, 1, 4), (3, 1, 4), (0, 1, 4)]),
        ([1, 2, 3, 0], [True] * 4, {"all_mom_first_layer_wins": False}, []),
        # fewer players
        ([1, 0, 2], [False] * 3, {}, [(0, 1, 1), (2, 1, 2)]),
        ([1, 0, 2], [False] * 3, {"last_place_pays": "always_3"}, [(0, 1, 1), (2, 1, 3)]),
        ([1, 0], [False] * 2, {}, [(0, 1, 1)]),
        ([1, 0], [False, False], {"last_place_pays": "always_3"}, [(0, 1, 3)]),
        ([1, 0], [True, False], {"mom_payment": 6}, [(0, 1, 6)]),
    ],
)
def test_rank_payments(ranking, mom, opts, transfers):
    assert S.rank_payments(ranking, mom, {**DEFAULT, **opts}) == transfers


def test_u_payments_and_den():
    assert S.u_payments(1, 4, 5, -1) == [(0, 1, 5), (2, 1, 5), (3, 1, 5)]  # example 14
    assert S.u_payments(2, 4, 5, 1) == [(1, 2, 15)]  # example 15
    assert S.u_payments(0, 3, 10, -1) == [(1, 0, 10), (2, 0, 10)]


def test_bonus_payments():
    assert S.u_k_amount(3) == 5 and S.u_k_amount(4) == 10 and S.u_k_amount(2) == 0
    assert S.bonus_payments([0, 0, 0, 5]) == [(0, 3, 5), (1, 3, 5), (2, 3, 5)]
    assert S.bonus_payments([0, 0, 0, 5], exclude=3) == []
    assert S.dong_hoa_payments([True, False, True]) == [(1, 0, 2), (1, 2, 2)]


@pytest.mark.parametrize(
    "cards,ok",
    [
        ("2H 3H 4H 5H 6H", True),
        ("9S TS JS QS KS", True),
        ("JS QS KS AS 2S", False),
        ("2H 3H 4H 5H 7H", False),
        ("2H 3H 4H 5D 6H", False),
    ],
)
def test_five_in_row(cards, ok):
    assert R.five_in_row(imask(cards)) is ok


def test_arrangements_are_distinct_and_disjoint():
    h = imask("4D 5D 6D 7D 7S 7C 7H 2C 9S KH")
    arrs = R.arrangements(h, 0, True, 1)
    assert () in arrs
    assert len(set(arrs)) == len(arrs)
    for a in arrs:
        used = 0
        for m in a:
            assert R.is_meld(m) and not m & used
            used |= m
        assert list(a) == sorted(a, key=R.meld_key)
    # 7D in the run or in the set, but never both
    assert (imask("4D 5D 6D"), imask("7S 7C 7D 7H")) in arrs
    assert (imask("4D 5D 6D 7D"), imask("7S 7C 7H")) in arrs
    # eaten 7H must be laid
    arrs_e = R.arrangements(h, imask("7H"), True, 1)
    assert () not in arrs_e and all(any(m & imask("7H") for m in a) for a in arrs_e)


def test_mask_conversion_roundtrip():
    for c in range(52):
        assert R.mask_to_ext(R.mask_to_int(1 << c)) == 1 << c
    assert R.card_text(icard("TH")) == "TH"
    assert R.mask_text(imask("KC AH 2S 2C")) == "AH 2S 2C KC"
