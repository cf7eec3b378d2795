"""Every worked example of the Phỏm rules (docs/rules/phom.md) as its own test, with its exact expected answer.

Examples that are about whole hands or payments are played through the engine from deals written
in card notation (tests/games/test_phom_helpers.py); examples about card sets also check the pure rules.
"""

import pytest

from quansu.games.base import IllegalMoveError
from quansu.games.phom import rules as R
from quansu.games.phom import settle as S
from quansu.games.phom.game import DRAW, TAKE
from tests.games.test_phom_helpers import (
    default_move,
    icard,
    imask,
    legal_texts,
    new_state,
    play,
    run_until,
    take_turn_of,
)

# Hands with pairs but no phỏm that never form one with any stock card: every seat is móm.
BASE4 = [
    "AS AC 3S 3C 5S 5C 7S 7C 9S 9C",
    "AD AH 3D 3H 5D 5H 7D 7H 9D",
    "2S 2C 4S 4C 6S 6C 8S 8C TS",
    "2D 2H 4D 4H 6D 6H 8D 8H TD",
]


def _trace(state):
    """Play default moves to the end; return (draws as (seat, stock left), discards as
    (seat, chốt))."""
    draws, discards = [], []
    while not state.is_terminal():
        mv = default_move(state)
        seat = state.cur
        state.apply(mv)
        if mv == DRAW:
            draws.append((seat, state.stock_left))
        elif isinstance(mv, int) and mv < 52:
            discards.append((seat, state.last[2]))
    return draws, discards


def test_example01_runs_a_low_no_k_a():
    assert R.is_meld(imask("AS 2S 3S"))
    assert R.is_meld(imask("JD QD KD"))
    assert not R.is_meld(imask("QS KS AS"))
    assert not R.is_meld(imask("5C 6C 7D"))
    assert R.is_meld(imask("7C 7D 7H 7S"))
    assert R.is_meld(imask("3H 4H 5H 6H 7H"))


def test_example02_ca():
    assert R.is_ca(icard("5H"), icard("7H"))
    assert R.is_ca(icard("5H"), icard("6H"))
    assert R.is_ca(icard("9C"), icard("9D"))
    assert not R.is_ca(icard("5H"), icard("8H"))
    assert not R.is_ca(icard("KS"), icard("AS"))


def test_example03_points():
    assert R.points(imask("KC QD JS AH TC 2S")) == 49


def test_example04_basic_eat():
    # previous seat (seat 0) opens with 8C; seat 1 holds 9C TC
    game, st = new_state(
        [
            "8C AS AD 3S 3C 5S 5C 7S 7H KD",
            "9C TC 2S 5D KH 3H 4C JD QS",
            "8S 8D 2C 4S 6S 6C 9S 9D JC",
            "2D 2H 4D 4H 6D 6H TD TH KS",
        ]
    )
    play(st, "discard 8C")
    assert legal_texts(st) == ["draw", "eat 8C"]
    # seat 2 holds 8S 8D: legal by the set, but only for its own previous seat's discard
    st2 = st.clone()
    play(st2, "draw")
    run_until(st2, take_turn_of(2))
    assert "eat 8C" not in legal_texts(st2)  # 8C came from two seats back
    with pytest.raises(IllegalMoveError, match="only the previous seat's last discard"):
        play(st2, "eat 8C")
    # a seat 1 hand with only 7C TC (no 9C, 6C or other 8) cannot eat 8C
    assert not R.can_eat(imask("7C TC 2S 5D KH 3H 4C JD QS"), 0, icard("8C"))
    assert R.can_eat(imask("8S 8D 2S 5D KH 3H 4C JD QS"), 0, icard("8C"))


def test_example05_seed_tied_card():
    game, st = new_state(
        [
            "JH AS AD 3S 3C 5S 5C 7S 7D KD",
            "QH TH 9H 2S 5D 7C KS 4C 3H",
            "8S 8D 2C 4S 6S 6C 9S 9D JC",
            "2D 2H 4D 4H 6D 6H TD 8H KH",
        ]
    )
    play(st, "discard JH", "eat JH")
    assert legal_texts(st) == sorted("discard " + c for c in "9H QH 2S 5D 7C KS 4C 3H".split())
    with pytest.raises(IllegalMoveError, match="TH is tied"):
        play(st, "discard TH")
    with pytest.raises(IllegalMoveError, match="JH is an eaten card"):
        play(st, "discard JH")
    assert st.settlement() == []
    assert st.pay == [(0, 1, 1)]


def test_example06_eat_illegal_because_it_ties_another_eaten_meld():
    # seat 1 eats 8D (with 7D 9D) from seat 0's opening, later seat 0 discards 9H
    hands = [
        "8D 9H AS AC 3S 3C 5S 5C 7S QH",
        "7D 9D 9S KC 2H 4S 5D JS JD",
        "2S 2C 4C 4D 6S 6C 8S 8C TS",
        "2D 3D 4H 5H 6D 6H TD TH KD",
    ]
    game, st = new_state(hands, stock_top="QS QD KS KH")
    play(st, "discard 8D", "eat 8D", "discard JD")
    run_until(st, take_turn_of(0))
    play(st, "draw", "discard 9H")
    assert st.cur == 1 and st.phase == TAKE
    assert legal_texts(st) == ["draw"]
    assert not R.can_eat(imask("7D 8D 9D 9S KC 2H 4S 5C JS"), imask("8D"), icard("9H"))
    # same hand with 6D instead of JS: 8D -> 6D 7D 8D, 9H -> 9H 9D 9S (xoay phỏm)
    assert R.can_eat(imask("7D 8D 9D 9S KC 2H 4S 5C 6D"), imask("8D"), icard("9H"))


def test_example07_two_eaten_cards_may_not_share_a_meld():
    h, e = imask("5C 6C 7C 9D QS QH 3S 3D KH"), imask("7C")
    assert not R.can_eat(h, e, icard("8C"), True)
    assert R.can_eat(h, e, icard("8C"), False)


def test_example08_xoay_phom_and_changing_tied_cards():
    game, st = new_state(
        [
            "5H AS AD 3S 3C 7S 7C 9C 9D KS",
            "5S 5C 6H 7H KD QC 9S 2D JH",
            "8S 8D 2C 4S 6S 6C 4D TS JC",
            "2H 3D 4H 4C 6D 8H TD TH KH",
        ]
    )
    play(st, "discard 5H", "eat 5H")
    assert set(legal_texts(st)) == {"discard " + c for c in "5S 5C 6H 7H KD QC 9S 2D JH".split()}
    a = st.clone()
    play(a, "discard 5S")
    assert R.tied(a.hands[1], a.eaten[1]) == imask("6H 7H")
    b = st.clone()
    play(b, "discard 7H")
    assert R.tied(b.hands[1], b.eaten[1]) == imask("5S 5C")


@pytest.mark.parametrize(
    "n,stock,aside,draws,first_chot,layers",
    [
        (4, 15, 0, [1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3], 10, [0, 1, 2, 3]),
        (3, 11, 13, [1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2], 7, [0, 1, 2]),
        (2, 7, 26, [1, 0, 1, 0, 1, 0, 1], 4, [0, 1]),
    ],
)
def test_example09_stock_arithmetic(n, stock, aside, draws, first_chot, layers):
    game, st = new_state(BASE4[:n])
    assert st.stock_left == stock and R.bits(st.aside).__len__() == aside
    got_draws, discards = _trace(st)
    assert [s for s, _ in got_draws] == draws
    assert [left for _, left in got_draws] == list(range(stock - 1, -1, -1))
    # the first chốt card is discarded right after the draw that leaves N cards
    assert got_draws[first_chot] == (draws[first_chot], n)
    chot = [c for _, c in discards]
    first = chot.index(True)
    assert discards[first][0] == draws[first_chot] and all(chot[first:])
    # lay-down starts when N-1 cards are left: the first player first, then in order
    assert list(st.lay_order) == layers
    # without eats everyone discards exactly 4 times; the game ended after the last draw
    assert [len(r) for r in st.rows] == [4] * n
    assert st.stock_left == 0 and st.is_terminal()


def test_example10_one_eat_shifts_everything():
    hands = list(BASE4)
    hands[1] = "AD AH 3D 3H 5D 5H 7D 9H 9D"
    game, st = new_state(hands)
    play(st, "discard 9C", "eat 9C", "discard AD")
    assert st.pay == [(0, 1, 1)] and st.stock_left == 15
    assert st.starter == 1 and [len(r) for r in st.rows] == [0, 1, 0, 0]  # nothing moved
    draws, discards = _trace(st)
    assert [s for s, _ in draws] == [2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0]
    assert draws[10] == (0, 4)
    first_chot = [c for _, c in discards].index(True)
    assert discards[first_chot][0] == 0 and draws[10][0] == 0
    assert draws[11] == (1, 3) and st.lay_order[0] == 1
    assert draws[-1] == (0, 0) and st.lay_order[-1] == 0
    turns = [
        sum(1 for s, m in st.history if s == seat and isinstance(m, int) and m < 52)
        for seat in range(4)
    ]
    assert turns == [5, 4, 4, 4]


def test_example11_shifting_with_a_gap():
    hands = [
        "AS AC 3S 3C 5S 5C 7S 7C 9S 9C",
        "AD AH 3D 3H 5D 5H 7D 7H 9D",
        "2S 2C 4S 4C 6S 6C JC JD TS",
        "2D 2H KS 4H 6D 6H 8D 8H TD",
    ]
    game, st = new_state(hands, stock_top="8S 8C QS 4D JS")
    run_until(st, take_turn_of(2))
    run_until(st, lambda s: s.cur == 2 and s.phase == TAKE and len(s.rows[0]) == 2)
    assert st.rows[0][-1] == icard("4D") and st.rows[1][-1] == icard("JS")
    assert st.starter == 0
    play(st, "eat JS")
    assert st.starter == 1
    assert [len(r) for r in st.rows] == [1, 2, 1, 1]
    assert st.rows[1][-1] == icard("4D")  # seat 0's most recent discard moved
    play(st, "discard TS")
    assert [len(r) for r in st.rows] == [1, 2, 2, 1]


EX12 = (
    [
        "AS AC 3S 3C 5S 5C 7S 7C 9S 9C",
        "AD AH 3D 3H 5D 5H 7D 7H 9D",
        "2S 2C 4S 4C 6S 6C 8S 8C TS",
        "QC QD QH KC KD KH 9H TH 4D",
    ],
    "2H 4H 6D 6H 2D 8D TC TD JS QS KS 8H JH JC JD",
)


def test_example12_eat_payments():
    hands, stock = EX12
    hands = hands[:3] + ["QC QD QH KC KD KH 9H TH 4D"]
    game, st = new_state(hands, stock_top=stock)
    run_until(
        st,
        lambda s: (
            s.cur == 2 and s.phase == TAKE and s.last is not None and s.last[0] == icard("2D")
        ),
    )
    assert st.last[3] == 2  # seat 1's round-2 discard
    play(st, "eat 2D")
    assert st.pay == [(1, 2, 1)]
    run_until(st, lambda s: s.cur == 2 and s.phase == TAKE and s.stock_left == 3)
    assert st.last[0] == icard("8H") and st.last[2]  # seat 1's chốt discard
    assert st.stock_left == 3
    play(st, "eat 8H")
    assert st.kind == 1  # ăn chốt in his lay-down turn
    assert legal_texts(st) == ["lay 2S 2C 2D / 8S 8C 8H"]
    assert st.pay == [(1, 2, 1), (1, 2, 4)]
    assert sum(a for p, q, a in st.pay if (p, q) == (1, 2)) == 5


def test_example12b_den_an_chot_option():
    # seat 2 ate seat 1's chốt card; seat 3 then Ù's with JH: under den_an_chot seat 2 pays all
    hands, stock = EX12
    for den, expected in ((False, [(0, 3, 5), (1, 3, 5), (2, 3, 5)]), (True, [(2, 3, 15)])):
        game, st = new_state(hands, stock_top=stock, options={"den_an_chot": den})
        run_until(st, lambda s: s.cur == 2 and s.phase == TAKE and s.last is not None)
        run_until(st, lambda s: s.cur == 2 and s.phase == TAKE and s.last[0] == icard("2D"))
        play(st, "eat 2D")
        run_until(st, lambda s: s.cur == 2 and s.phase == TAKE and s.stock_left == 3)
        play(st, "eat 8H")
        run_until(st, lambda s: s.cur == 3 and s.phase == TAKE)
        play(st, "draw")
        assert st.is_terminal() and st.u_info[0] == 3
        assert st.settlement() == [(1, 2, 1.0), (1, 2, 4.0)] + [
            (a, b, float(c)) for a, b, c in expected
        ]


def test_example13_normal_settlement():
    ranking = S.rank_seats([18, 25, 25, 31], [False, False, False, True], [False] * 4, [0, 1, 2, 3])
    assert ranking == [0, 1, 2, 3]
    opts = {"mom_payment": 4, "last_place_pays": "by_position", "all_mom_first_layer_wins": True}
    pays = S.rank_payments(ranking, [False, False, False, True], opts)
    assert pays == [(1, 0, 1), (2, 0, 2), (3, 0, 4)]
    assert sum(a for _, q, a in pays if q == 0) == 7


def test_example14_u_with_an_eaten_card():
    game, st = new_state(
        [
            "9H AS AD 4S 4D 6S 6D 8S 8D TS",
            "3S 3D 3C 7H 8H JC QC KC 5D",
            "2S 2C 4C 4H 6C 6H 8C TD TH",
            "2D 2H 5S 5C 7S 7C 9S 9C JS",
        ]
    )
    play(st, "discard 9H", "eat 9H")
    assert st.is_terminal()
    assert st.u_info[:2] == (1, "take")
    assert st.settlement() == [(0, 1, 1.0), (0, 1, 5.0), (2, 1, 5.0), (3, 1, 5.0)]
    assert st.returns() == [-6.0, 16.0, -5.0, -5.0]


def test_example15_u_den():
    game, st = new_state(
        [
            "AS AC 3S 3C 5S 5C 7S 7C 9S 9C",
            "AD AH 3H 4D 5H 6D 7H 8D 9D",
            "2S 2C 4S 4C 6S 6C 8S 8C TS",
            "2D 2H 3D 4H 5D 6H 8H TD JS",
        ]
    )
    play(st, "discard AS", "draw", "discard 4D", "eat 4D", "discard 2S")
    run_until(st, take_turn_of(1))
    play(st, "draw", "discard 6D", "eat 6D", "discard 2C")
    run_until(st, take_turn_of(1))
    play(st, "draw", "discard 8D", "eat 8D")
    assert st.is_terminal() and st.u_info[0] == 2 and st.u_info[3] == 1
    assert st.settlement() == [(1, 2, 1.0), (1, 2, 2.0), (1, 2, 3.0), (1, 2, 15.0)]
    assert st.returns() == [0.0, -21.0, 21.0, 0.0]


EX16 = [
    "8H 9H TH AS AC 2D 4C 5H 6D 7C",
    "3C 3S 3H TC JC QC AD 5C 7D",
    "4S 5S 6S 9C 9D 9S JH 3D KC",
    "2C 2H 4D 4H 6C 6H 8C 8D TD",
]
EX16_STOCK = "5D 7S 7H 8S TS JS JD QD QH KD KH QS KS 2S AH"


@pytest.mark.parametrize("send_all", [True, False])
def test_example16_send_everything_is_u(send_all):
    game, st = new_state(EX16, stock_top=EX16_STOCK, options={"send_all_counts_as_u": send_all})
    play(st, "discard 7C")
    run_until(st, lambda s: s.cur == 2 and s.phase == 1)  # seat 2's lay-down
    assert st.stock_left == 1
    texts = [(o, R.mask_text(m)) for o, m, _own, _e in st.table]
    assert texts == [(0, "8H 9H TH"), (1, "3S 3C 3H"), (1, "TC JC QC")]
    play(st, "lay 4S 5S 6S / 9S 9C 9D")
    assert R.mask_text(st.hands[2]) == "2S 3D JH KC"
    play(st, "send JH to 0", "send 3D to 1", "send KC to 2")
    if send_all:
        assert st.is_terminal() and st.u_info[:2] == (2, "send")
        assert st.settlement() == [(0, 2, 5.0), (1, 2, 5.0), (3, 2, 5.0)]
    else:
        assert not st.is_terminal() and legal_texts(st) == ["discard 2S"]
        play(st, "discard 2S")
        assert st.hands[2] == 0 and st.points(2) == 0
        run_until(st, lambda s: False)
        assert st.ranking()[0] == 2


def test_example17_u_khan():
    hands = [
        "AD 2D 4D 5D 6D 8D 9D TD JD QD",
        "AS 4S 8S QS 2H 6H TH 3D 7C",
        "2S 2C 4C 4H 6C 6S 8C 8H TS",
        "3S 3C 5S 5C 7S 7D 9S 9C JS",
    ]
    assert R.is_u_khan(imask(hands[1]))
    game, st = new_state(hands)
    play(st, "discard QD")
    assert st.is_terminal() and st.u_info[:2] == (1, "khan")
    assert st.settlement() == [(0, 1, 5.0), (2, 1, 5.0), (3, 1, 5.0)]
    # replace 7C by 3C: 3D 3C is a cạ
    assert not R.is_u_khan(imask("AS 4S 8S QS 2H 6H TH 3D 3C"))
    game, st = new_state(hands, options={"u_khan_enabled": False})
    play(st, "discard QD")
    assert not st.is_terminal() and st.cur == 1


def test_example18_tie_break_with_tai():
    assert S.rank_seats(
        [20, 30, 20, 35], [False] * 4, [True, False, False, False], [0, 1, 2, 3], True
    )[:2] == [2, 0]
    assert S.rank_seats([20, 30, 20, 35], [False] * 4, [False] * 4, [0, 1, 2, 3], True)[:2] == [
        0,
        2,
    ]


def test_example19_all_mom():
    game, st = new_state(BASE4)
    run_until(st, lambda s: False)
    assert st.is_terminal() and st.u_info is None
    assert not st.table
    assert st.settlement() == [(1, 0, 4.0), (2, 0, 4.0), (3, 0, 4.0)]
    # with the lay-down order starting at seat 1 (after an early eat) seat 1 wins
    r = S.rank_seats([30, 40, 50, 60], [True] * 4, [False] * 4, [1, 2, 3, 0])
    assert r[0] == 1
    assert S.rank_payments(
        r,
        [True] * 4,
        {"mom_payment": 4, "last_place_pays": "by_position", "all_mom_first_layer_wins": True},
    ) == [(2, 1, 4), (3, 1, 4), (0, 1, 4)]


def test_example20_ca_k():
    hands = [
        "AS AC 3S 3C 5S 5C 7S 7C 9S 9C",
        "AD AH 3D 3H 5D 5H KC KD 9D",
        "2S 2C 4S 4C 6S 6C 8S 8C TS",
        "2D 2H 4D 4H 6D 6H 8D 8H TD",
    ]
    for ca_k, amount in ((True, 4), (False, 1)):
        game, st = new_state(hands, stock_top="9H TC TH KS", options={"ca_k_enabled": ca_k})
        run_until(st, lambda s: s.cur == 1 and s.phase == TAKE and len(s.rows[0]) == 2)
        assert st.last[0] == icard("KS") and st.last[3] == 2
        play(st, "eat KS")
        assert st.pay == [(0, 1, amount)]


def test_example20_u_k():
    hands = [
        "AS AC 3S 3C 5S 5C 7S 7C 9S 9C",
        "AD AH 3D 3H 5D 5H 7D 7H 9D",
        "2S 2C 4S 4C 6S 6C 8S 8C TS",
        "2D 2H 4D 4H 6D 6H KS KD KC",
    ]
    game, st = new_state(hands, stock_top="KH", options={"u_k_enabled": True})
    run_until(st, lambda s: False)
    assert [R.mask_text(t[1]) for t in st.table] == ["KS KC KD"]
    assert st.settlement() == [
        (0, 3, 4.0),
        (1, 3, 4.0),
        (2, 3, 4.0),
        (0, 3, 5.0),
        (1, 3, 5.0),
        (2, 3, 5.0),
    ]
    # one of the three kings eaten: no Ù K bonus
    hands[3] = "2D 2H 4D 4H 6D 6H KD KC TD"
    game, st = new_state(hands, stock_top="KH KS", options={"u_k_enabled": True})
    run_until(st, lambda s: s.cur == 3 and s.phase == TAKE)
    assert st.last[0] == icard("KS")
    play(st, "eat KS")
    run_until(st, lambda s: False)
    assert [R.mask_text(t[1]) for t in st.table] == ["KS KC KD"]
    assert sorted(st.settlement()) == [(0, 3, 4.0), (1, 3, 4.0), (2, 3, 1.0), (2, 3, 4.0)]
