"""Tấn rules: the worked examples of docs/rules/tan.md and table-driven rule tests."""

import random

import pytest

from quansu.games import DealError, IllegalMoveError, MoveParseError, OptionError, make
from quansu.games import record as rec
from quansu.games.base import Deal, MoveInfo
from quansu.games.cards import FULL_DECK, SUITS, card_str, parse_card, parse_cards, parse_mask
from quansu.games.tan import rules as R
from quansu.games.tan.game import ATTACK, SETUP, THROW

# -- helpers ----------------------------------------------------------------------------------


def position(hands, trump, stock="", faceup=None, attacker=0, n=None, known=None, options=None):
    """A state at the start of a bout: ``hands`` (card text per seat), the face-down ``stock``
    (top first) and the ``faceup`` card under it (None: the stock is empty), trump suit letter
    ``trump``; every other card is in the discard pile."""
    n = n or len(hands)
    g = make("tan", n, options)
    st = g.new_initial_state(random.Random(0))
    st.hands = [parse_mask(h) for h in hands]
    st.known = [parse_mask(k) for k in known] if known else [0] * n
    st.stock = tuple(parse_cards(stock))
    st.sp = 0
    st.faceup = parse_card(faceup) if faceup else -1
    st.trump = SUITS.index(trump)
    placed = 0
    for m in st.hands:
        placed |= m
    for c in st.stock:
        placed |= 1 << c
    if st.faceup >= 0:
        placed |= 1 << st.faceup
    st.discard = FULL_DECK & ~placed
    st.table = st.tranks = 0
    st.uncovered = -1
    st.opened = True
    st.hist = []
    st.winner = st.loser = -1
    st._start_bout(attacker)
    return st


def play(state, *texts):
    """Apply moves given as text (checked), in order."""
    for t in texts:
        state.apply(state.game.parse_move(t))
    return state


def legal_texts(state):
    return sorted(state.game.move_to_text(m) for m in state.legal_moves())


def mask(text):
    return parse_mask(text)


def full_deal(n, hands, trump, first=0):
    """A Deal with the given hands (text), the trump card, and the other cards in the stock."""
    hs = [parse_cards(h) for h in hands]
    used = {c for h in hs for c in h} | {parse_card(trump)}
    tsuit = parse_card(trump) & 3
    rest = sorted((c for c in range(52) if c not in used), key=lambda c: (c & 3 == tsuit, c))
    k = 52 - 8 * n - 1
    pad = rest[: 8 * n - sum(len(h) for h in hs)]
    out = []
    for h in hs:
        need = 8 - len(h)
        out.append(tuple(h + pad[:need]))
        pad = pad[need:]
    stock = [c for c in rest if all(c not in h for h in out)]
    assert len(stock) == k
    return Deal(hands=tuple(out), first=first, stock=tuple(stock), trump=parse_card(trump))


# -- §9 worked examples -----------------------------------------------------------------------


def test_example_1_trump_beats_any_non_trump():
    st = position(["AS 5C", "2D 3C", "4H", "5H"], "D", stock="6C", faceup="9D")
    play(st, "attack AS")
    assert "defend AS with 2D" in legal_texts(st)
    play(st, "defend AS with 2D")
    assert st.phase == THROW


def test_example_2_trump_attack_needs_a_higher_trump():
    st = position(["5D 5C", "4D KS 9D", "4H", "5H"], "D", stock="6C", faceup="7D")
    play(st, "attack 5D")
    assert legal_texts(st) == ["defend 5D with 9D", "take"]
    for bad in ("defend 5D with 4D", "defend 5D with KS"):
        with pytest.raises(IllegalMoveError):
            play(st, bad)


def test_example_3_plain_suit():
    st = position(["9C 5C", "TC 8C TS 3D", "4H", "5H"], "D", stock="6C", faceup="7D")
    play(st, "attack 9C")
    assert legal_texts(st) == ["defend 9C with 3D", "defend 9C with TC", "take"]
    for bad in ("defend 9C with 8C", "defend 9C with TS"):
        with pytest.raises(IllegalMoveError, match="does not beat"):
            play(st, bad)


def test_example_4_two_of_trumps_beats_a_plain_ace():
    st = position(["AH 5D", "2C 3D", "4H", "5H"], "C", stock="6D", faceup="7C")
    play(st, "attack AH")
    assert "defend AH with 2C" in legal_texts(st)


def test_example_5_throw_in_only_with_ranks_on_the_table():
    st = position(
        ["9C 9H JS 9D QS 4S", "JC TD KD 3H 5S", "QH 9S", "2H"], "D", stock="6C", faceup="7D"
    )
    play(st, "attack 9C", "defend 9C with JC")
    assert st.current_player == 0
    assert legal_texts(st) == ["done", "throw 9D", "throw 9H", "throw JS"]
    with pytest.raises(IllegalMoveError, match="rank of QS is not on the table"):
        play(st, "throw QS")
    play(st, "throw 9D")
    # a thrown 9D is a trump attack: only a trump above 9 beats it
    assert legal_texts(st) == ["defend 9D with KD", "defend 9D with TD", "take"]


def test_example_6_no_throw_in_after_take():
    st = position(["9C 9H 4S 5S", "JC 3H 4H", "9S 6S", "2H 3S"], "D", stock="6C", faceup="7D")
    play(st, "attack 9C", "defend 9C with JC", "throw 9H", "take")
    assert st.hands[1] == mask("3H 4H 9C JC 9H")
    assert st.known[1] == mask("9C JC 9H")
    assert st.table == 0 and st.phase == ATTACK and st.current_player == 2
    with pytest.raises(IllegalMoveError):
        play(st, "throw 9S")
    assert all(m < 52 for m in st.legal_moves())  # a new bout: only attacks


def test_example_7_who_attacks_next():
    hands = ["5C 6C", "7C 8C", "9H TH", "JH QH"]
    st = position(hands, "D", stock="2S 3S 4S 5S", faceup="6D")
    play(st, "attack 5C", "defend 5C with 7C", "done", "done", "done")
    assert (st.attacker, st.defender, st.current_player) == (1, 2, 1)
    st = position(hands, "D", stock="2S 3S 4S 5S", faceup="6D")
    play(st, "attack 5C", "take")
    assert (st.attacker, st.defender, st.current_player) == (2, 3, 2)


def test_example_8_refill_order():
    st = position(
        [
            "8C 2H 3H 4H 5H 6H",
            "9C 9H TS JS QS KS AS 2C",
            "8H JC QC KC AC TC 7H 7S",
            "2D 3D 4D 5D 6D 8D 9D TD",
        ],
        "D",
        stock="JH QH KH AH",
        faceup="7D",
    )
    play(
        st,
        "attack 8C",
        "defend 8C with 9C",
        "done",
        "throw 8H",
        "defend 8H with 9H",
        "done",
        "done",
        "done",
    )
    # order 0, 3, 2, 1: seat 0 draws 3, seat 3 none, seat 2 one, seat 1 the face-up trump
    assert st.hands[0] == mask("2H 3H 4H 5H 6H JH QH KH")
    assert st.hands[3] == mask("2D 3D 4D 5D 6D 8D 9D TD")
    assert st.hands[2] == mask("JC QC KC AC TC 7H 7S AH")
    assert st.hands[1] == mask("TS JS QS KS AS 2C 7D")
    assert st.known[1] == mask("7D")
    assert st.stock_count() == 0 and st.faceup == -1
    assert [c.bit_count() for c in st.hands] == [8, 7, 8, 8]
    assert (st.attacker, st.current_player) == (1, 1)


@pytest.mark.parametrize("n,stock", [(4, 20), (3, 28), (2, 36)])
def test_example_9_stock_sizes(n, stock):
    g = make("tan", n)
    st = g.new_initial_state(random.Random(n))
    assert st.stock_count() == stock
    assert len(st.deal.stock) == stock - 1
    assert st.zones()["stock"].bit_count() == stock


def test_example_10_swap_any_lower():
    g = make("tan", 4)
    deal = full_deal(
        4,
        [
            "2S 3S 4S 5S 6S 7S 8S 9S",
            "2C 3C 4C 5C 6C 7C 8C 9C",
            "4H 2D 3D 4D 5D 6D 7D 8D",
            "2H 5H TS JS QS KS AS 9D",
        ],
        "KH",
    )
    st = g.state_from_deal(deal)
    assert st.phase == SETUP and st.current_player == 0
    play(st, "done", "done")
    assert legal_texts(st) == ["done", "swap 4H"]
    play(st, "swap 4H")
    assert st.hands[2] >> parse_card("KH") & 1 and st.known[2] == mask("KH")
    assert st.faceup == parse_card("4H")
    assert st.known_cards(0)["stock"] == mask("4H")
    assert legal_texts(st) == ["done", "swap 2H"]  # 5H is not lower than 4H
    play(st, "swap 2H")
    assert st.faceup == parse_card("2H") and st.known[3] == mask("4H")
    assert st.phase == ATTACK and st.current_player == 0


def test_example_11_doi_2_chu():
    g = make("tan", 4, {"trump_swap": "two_only"})
    deal = full_deal(4, ["3S 4S", "5S 6S", "7S 8S", "2S TS"], "9S", first=1)
    st = g.state_from_deal(deal)
    assert st.current_player == 1
    assert legal_texts(st) == ["done"]  # 5S is lower than 9S, but only the 2 may be swapped
    with pytest.raises(IllegalMoveError, match="may not swap"):
        play(st, "swap 5S")
    play(st, "done", "done")
    assert legal_texts(st) == ["done", "swap 2S"]
    play(st, "swap 2S")
    assert st.faceup == parse_card("2S")
    # the round goes on: seat 0 still answers (only 'done'), then seat 0 attacks first
    assert (st.phase, st.current_player, st.attacker) == (SETUP, 0, 0)
    assert legal_texts(st) == ["done"]
    play(st, "done")
    assert (st.phase, st.attacker, st.defender, st.current_player) == (ATTACK, 0, 1, 0)


def test_doi_2_chu_round_goes_on_after_the_swap():
    # round 1, 2, 0: seat 2 swaps, seat 0 still answers and then attacks first
    g = make("tan", 3, {"trump_swap": "two_only"})
    st = g.state_from_deal(full_deal(3, ["4H", "5H", "2H 3H"], "KH", first=1))
    asked = []
    play(st, "done")  # seat 1
    asked.append(st.current_player)
    play(st, "swap 2H")  # seat 2: seat 0 attacks first
    asked.append(st.current_player)
    assert legal_texts(st) == ["done"]  # seat 0: the face-up card is the 2 now
    play(st, "done")
    assert asked == [2, 0]
    assert (st.phase, st.attacker, st.defender, st.current_player) == (ATTACK, 0, 1, 0)
    assert st.hands[2] >> parse_card("KH") & 1 and st.known[2] == mask("KH")


def test_example_12_defender_empties_mid_bout():
    hands = ["5C 9H", "7C", "9S 2H", "3H 4H"]
    st = position(hands, "D", stock="JH QH KH AH TC", faceup="7D")
    play(st, "attack 5C", "defend 5C with 7C")
    assert st.hands[1] == mask("JH QH KH AH TC 7D")
    assert st.known[1] == mask("7D") and st.stock_count() == 0
    assert st.phase == THROW and st.current_player == 0
    st = position(hands, "D")
    play(st, "attack 5C", "defend 5C with 7C")
    assert st.is_terminal() and st.winner == 1
    assert st.returns() == [-1.0, 3.0, -1.0, -1.0]
    assert st.settlement() == [(0, 1, 1.0), (2, 1, 1.0), (3, 1, 1.0)]


def test_example_13_game_end():
    hands = ["5C 6C", "8H 9H", "7C", "8C 2H"]
    st = position(hands, "D", attacker=2)
    play(st, "attack 7C")
    assert st.is_terminal() and st.returns() == [-1.0, -1.0, 3.0, -1.0]
    assert st.table == mask("7C")  # the uncovered card stays: the game ended at once
    st = position(hands, "D", attacker=2, options={"end_condition": "until_one_left"})
    play(st, "attack 7C")
    assert not st.is_terminal() and st.current_player == 3
    play(st, "defend 7C with 8C")
    assert st.current_player == 0  # seat 2 is out: the throw-ins go on without him
    assert st.nthrow == 2


def test_example_14_end_bout_option():
    st = position(
        ["5C 5H 2C 3C 4C 6C 8C", "7C", "5S 2H 3D 4D 5D 6D 8D 9D", "3H 4H 6H 7H 8H 9H TH JH"],
        "D",
        stock="QH KH AH TS JS QS KS AS 2S",
        faceup="7D",
        options={"defender_empty": "end_bout"},
    )
    play(st, "attack 5C", "defend 5C with 7C")
    # the bout is over at once (no throw-in at an empty hand), seat 1 refills and attacks next
    assert st.phase == ATTACK and st.current_player == 1 and st.table == 0
    assert st.discard & mask("5C 7C") == mask("5C 7C")
    assert st.hands[0] == mask("5H 2C 3C 4C 6C 8C QH KH")
    assert st.hands[1] == mask("AH TS JS QS KS AS 2S 7D") and st.known[1] == mask("7D")


# -- tables -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "trump,attack,defence,ok",
    [
        ("D", "AS", "2D", True),
        ("D", "5D", "4D", False),
        ("D", "5D", "KS", False),
        ("D", "5D", "9D", True),
        ("D", "9C", "TC", True),
        ("D", "9C", "8C", False),
        ("D", "9C", "TS", False),
        ("D", "9C", "3D", True),
        ("C", "AH", "2C", True),
        ("H", "3H", "4H", True),
        ("H", "3H", "AH", True),
        ("H", "AH", "2H", False),
        ("S", "KC", "AC", True),
        ("S", "AC", "2C", False),
        ("S", "2C", "3C", True),
        ("S", "TS", "9S", False),
        ("S", "TS", "JS", True),
        ("S", "7H", "7S", True),
        ("S", "7H", "7D", False),
        ("S", "2H", "2S", True),
        ("C", "AD", "KC", True),
    ],
)
def test_beating_table(trump, attack, defence, ok):
    t = SUITS.index(trump)
    a, d = parse_card(attack), parse_card(defence)
    assert R.beats(a, d, t) is ok
    free = [c for c in parse_cards("3S 3C 3D 3H 4S 4C 4D 4H 6S 6C 6D 6H") if c not in (a, d)]
    faceup = next(c for c in range(52) if c & 3 == t and c not in (a, d) + tuple(free[:4]))
    texts = [card_str(c) for c in free[:4]]
    st = position(
        [f"{attack} {texts[0]}", f"{defence} {texts[1]}", texts[2], texts[3]],
        trump,
        stock="",
        faceup=card_str(faceup),
    )
    play(st, "attack " + attack)
    assert (f"defend {attack} with {defence}" in legal_texts(st)) is ok


@pytest.mark.parametrize(
    "table,hand,throws",
    [
        ("9C JC", "9H JS 9D QS 4S", "9D 9H JS"),
        ("2C 3C", "2H 3S 4S", "2H 3S"),
        ("AS 2D", "AH 2C KC", "2C AH"),
        ("7H 8H", "6H 9H", ""),
        ("TD QD", "10S QC JS", "QC TS"),
    ],
)
def test_throw_in_ranks(table, hand, throws):
    a, d = table.split()
    st = position([a + " " + hand, d + " 3D", "5C", "6C"], "D", stock="4C", faceup="4D")
    play(st, "attack " + a, f"defend {a} with {d}")
    expected = sorted(["done"] + ["throw " + c for c in throws.split()])
    assert legal_texts(st) == expected


def test_throw_in_ranks_include_every_bout_card():
    st = position(["5C 5H 7H 3S", "6C 7C 6H", "6S 7S 4D", "2H"], "S", stock="4C", faceup="4S")
    play(st, "attack 5C", "defend 5C with 6C", "throw 5H", "defend 5H with 6H", "done")
    # seat 2 may add any 5 or 6 (attack or defence ranks)
    assert legal_texts(st) == ["done", "throw 6S"]


def test_throw_in_limits_one_uncovered_card_and_a_defender_card():
    st = position(["5C 5H 5S", "6C 7H", "5D", "2H"], "S", stock="4C", faceup="4S")
    play(st, "attack 5C")
    with pytest.raises(IllegalMoveError):
        play(st, "throw 5H")  # the defender must answer first
    play(st, "defend 5C with 6C", "throw 5H", "defend 5H with 7H")
    # the defender beat with his last card: he draws (draw_and_continue) the last stock cards
    assert st.hands[1] == mask("4C 4S")
    st = position(
        ["5C 5H 5S", "6C"],
        "S",
        stock="7C 8C 9C TC JC QC KC AC 2C 7D 8D 9D TD",
        faceup="4S",
        options={"defender_empty": "end_bout"},
    )
    play(st, "attack 5C", "defend 5C with 6C")
    assert st.phase == ATTACK and st.current_player == 1  # no throw-in at an empty hand
    assert st.hands[1] == mask("KC AC 2C 7D 8D 9D TD 4S")


def test_throw_in_pointer_order_and_end_of_bout():
    st = position(["5C 9D", "6C 7C 8C 9C", "5H 2S", "5S 3S"], "H", stock="4C", faceup="4H")
    play(st, "attack 5C", "defend 5C with 6C")
    assert st.current_player == 0
    play(st, "done")
    assert st.current_player == 2
    play(st, "throw 5H")
    assert st.current_player == 1
    play(st, "take")
    assert st.hands[1] & mask("5C 6C 5H") == mask("5C 6C 5H")
    st = position(["5C 9D", "6C 7C 6H 9C", "5H 2S", "5S 3S"], "D", stock="4C", faceup="4D")
    play(st, "attack 5C", "defend 5C with 6C", "done", "throw 5H", "defend 5H with 6H")
    assert st.current_player == 2  # the thrower keeps the pointer
    play(st, "done", "throw 5S")  # seat 3 throws; seat 1 must answer
    assert st.current_player == 1
    play(st, "take")
    assert st.phase == ATTACK and st.current_player == 2


def test_bout_ends_after_every_thrower_passes():
    st = position(["5C 9D", "6C 7C 6H 9C", "5H 2S", "8S 3S"], "D", stock="4C", faceup="4D")
    play(st, "attack 5C", "defend 5C with 6C", "done", "done", "done")
    assert st.phase == ATTACK and st.attacker == 1
    assert st.discard & mask("5C 6C") == mask("5C 6C")


@pytest.mark.parametrize(
    "mode,faceup,hand,swaps",
    [
        ("any_lower", "KH", "4H 2H AH 5S", "2H 4H"),
        ("any_lower", "3H", "2H 4H", "2H"),
        ("any_lower", "5S", "5H 6S AS", ""),
        ("two_only", "KH", "4H 2H", "2H"),
        ("two_only", "KH", "4H 3H", ""),
        ("none", "KH", "2H 4H", ""),
    ],
)
def test_swap_table(mode, faceup, hand, swaps):
    g = make("tan", 2, {"trump_swap": mode})
    deal = full_deal(2, [hand, ""], faceup)
    st = g.state_from_deal(deal)
    if mode == "none":
        assert st.phase == ATTACK
        assert not [m for m in st.legal_moves() if m >= R.SWAP_BASE]
        return
    assert st.phase == SETUP and st.current_player == 0
    expected = sorted(["done"] + ["swap " + c for c in swaps.split()])
    assert legal_texts(st) == expected


@pytest.mark.parametrize("mode", ["any_lower", "two_only"])
def test_example_15_two_of_trumps_face_up(mode):
    # nobody can swap, but every seat answers 'done', in play order from the first attacker
    g = make("tan", 3, {"trump_swap": mode})
    st = g.state_from_deal(full_deal(3, ["3C", "4C", "5C"], "2C", first=1))
    seen = []
    while st.phase == SETUP:
        assert legal_texts(st) == ["done"]
        seen.append(st.current_player)
        play(st, "done")
    assert seen == [1, 2, 0] and (st.phase, st.current_player) == (ATTACK, 1)


def test_swap_round_goes_on_when_a_swap_turns_up_the_two():
    g = make("tan", 3)
    st = g.state_from_deal(full_deal(3, ["2C", "3C", "4C"], "KC"))
    play(st, "swap 2C")
    assert st.faceup == parse_card("2C")
    for seat in (1, 2):
        assert (st.phase, st.current_player, legal_texts(st)) == (SETUP, seat, ["done"])
        play(st, "done")
    assert (st.phase, st.current_player) == (ATTACK, 0)


def test_swap_round_refuses_a_former_dialect():
    # an attack where the protocol expects a swap-round answer names the move and the rule
    g = make("tan", 2, {"trump_swap": "two_only"})
    deal = full_deal(2, ["2S 4C", "5S 6S"], "9S", first=0)
    with pytest.raises(
        IllegalMoveError,
        match=r"moves\[1\]: 'attack 5S': seat 1 must answer "
        r"the swap round \(swap C or done\) before the first attack; its only "
        r"answer is 'done'",
    ):
        g.replay(deal, [(0, g.parse_move("swap 2S")), (1, g.parse_move("attack 5S"))])
    g = make("tan", 3)
    deal = full_deal(3, ["2S 4C", "5S 6S", "7D"], "9S", first=0)
    with pytest.raises(
        IllegalMoveError,
        match=r"moves\[1\]: 'attack 4C' by seat 0, but seat 1 "
        r"must answer the swap round",
    ):
        g.replay(deal, [(0, g.parse_move("swap 2S")), (0, g.parse_move("attack 4C"))])


def test_each_seat_is_asked_once_in_the_swap_round():
    g = make("tan", 3)
    st = g.state_from_deal(full_deal(3, ["3C", "4D", "5H"], "KC", first=2))
    seen = []
    while st.phase == SETUP:
        seen.append(st.current_player)
        play(st, "done")
    assert seen == [2, 0, 1] and st.current_player == 2


def test_swap_while_in_stock():
    g = make("tan", 2, {"swap_timing": "while_in_stock"})
    st = g.state_from_deal(full_deal(2, ["3C 9D", "4C 5C"], "KC"))
    assert st.phase == ATTACK
    assert "swap 3C" in legal_texts(st) and "swap 4C" not in legal_texts(st)
    play(st, "attack 9D")
    assert "swap 4C" in legal_texts(st) and "swap 5C" in legal_texts(st)
    play(st, "swap 5C")
    assert st.current_player == 1 and st.faceup == parse_card("5C")  # still his turn
    assert "swap 4C" not in legal_texts(st)  # once per player
    play(st, "defend 9D with KC")
    assert st.current_player == 0
    assert "swap 3C" in legal_texts(st)  # 3C < 5C
    play(st, "swap 3C")
    assert st.known[0] == mask("5C") and st.faceup == parse_card("3C")


def test_doi_2_chu_while_in_stock_before_the_first_attack():
    g = make("tan", 3, {"swap_timing": "while_in_stock", "trump_swap": "two_only"})
    st = g.state_from_deal(full_deal(3, ["2S 9D", "4C 5C", "6H"], "KS", first=0))
    play(st, "swap 2S")
    assert (st.attacker, st.defender, st.current_player) == (1, 2, 1)


@pytest.mark.parametrize(
    "order,direction,attacker,expected",
    [
        ("attacker_then_reverse", "counterclockwise", 0, (0, 3, 2, 1)),
        ("attacker_then_reverse", "counterclockwise", 2, (2, 1, 0, 3)),
        ("attacker_then_play_order_defender_last", "counterclockwise", 0, (0, 2, 3, 1)),
        ("attacker_then_play_order_defender_last", "counterclockwise", 3, (3, 1, 2, 0)),
        # seats follow the order of play whatever ``direction`` says (issue 44): the same orders
        ("attacker_then_reverse", "clockwise", 0, (0, 3, 2, 1)),
        ("attacker_then_reverse", "clockwise", 2, (2, 1, 0, 3)),
        ("attacker_then_play_order_defender_last", "clockwise", 0, (0, 2, 3, 1)),
        ("attacker_then_play_order_defender_last", "clockwise", 3, (3, 1, 2, 0)),
    ],
)
def test_refill_order_table(order, direction, attacker, expected):
    g = make("tan", 4, {"refill_order": order, "direction": direction})
    assert g._refill[attacker] == expected


def test_refill_order_option_in_play():
    hands = [
        "8C 2H 3H 4H 5H 6H",
        "9C TS JS QS KS AS 2C 3C",
        "8H JC QC KC AC TC 7H",
        "2D 3D 4D 5D 6D 8D 9D",
    ]
    kw = dict(stock="JH QH KH AH", faceup="7D")
    st = position(
        hands, "D", **kw, options={"refill_order": "attacker_then_play_order_defender_last"}
    )
    play(st, "attack 8C", "defend 8C with 9C", "done", "done", "done")
    # order 0, 2, 3, 1: seat 0 draws 3, seat 2 one, seat 3 the face-up card, seat 1 nothing
    assert st.hands[2] & mask("AH") and st.hands[3] & mask("7D") and st.hands[1].bit_count() == 7
    st = position(hands, "D", **kw)
    play(st, "attack 8C", "defend 8C with 9C", "done", "done", "done")
    # order 0, 3, 2, 1: seat 3 draws AH, seat 2 the face-up card
    assert st.hands[3] & mask("AH") and st.hands[2] & mask("7D")


def test_clockwise_play_goes_up_the_seat_numbers():
    # seats are numbered in the order of play: "clockwise" is where the table turns, not a
    # different seat order (issue 44: the engine used to play 0 -> 3 -> 2 -> 1)
    st = position(
        ["5C", "6C", "7C", "8C"],
        "D",
        stock="2S 3S 4S 5S 6S 7S 8S",
        faceup="2D",
        options={"direction": "clockwise"},
    )
    assert (st.attacker, st.defender) == (0, 1)
    play(st, "attack 5C", "take")
    assert (st.attacker, st.defender) == (2, 3)  # the seat after the defender attacks next


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize(
    "order", ["attacker_then_reverse", "attacker_then_play_order_defender_last"]
)
def test_direction_changes_no_seat_order(n, order):
    ccw = make("tan", n, {"refill_order": order})
    cw = make("tan", n, {"refill_order": order, "direction": "clockwise"})
    assert cw._nxt == ccw._nxt == tuple((s + 1) % n for s in range(n))
    assert cw._prv == ccw._prv == tuple((s - 1) % n for s in range(n))
    assert cw._refill == ccw._refill


def test_issue_44_clockwise_swap_round_in_seat_order():
    """The record of issue 44, written from the specification: 3 players, clockwise, đổi 2 chủ,
    deal.first = 2; seat 2 swaps, then seat 0 (the next seat in play order) answers."""
    hands = ["3H 4S 5D 6H 7S 8D 9H TS", "4H 5S 6D 7H 8S 9D TH JS", "2C QH KS AD AH 3D 3S 6C"]
    used = set(" ".join(hands).split()) | {"AC"}
    stock = [card_str(c) for c in range(52) if card_str(c) not in used]
    record = {
        "format": "quansu-record/1",
        "game": "tan",
        "players": 3,
        "options": {"direction": "clockwise", "first_attacker": "random", "trump_swap": "two_only"},
        "deal": {
            "hands": [{"cards": h.split()} for h in hands],
            "stock": stock,
            "trump": "AC",
            "first": 2,
        },
        "moves": [{"seat": 2, "move": "swap 2C"}, {"seat": 0, "move": "done"}],
    }
    st = rec.replay_record(record)
    assert st.phase == SETUP and st.current_player == 1 and st.attacker == 0
    play(st, "done")
    # the seat after the swapper (seat 2) attacks first: seat 0, defended by seat 1
    assert (st.phase, st.current_player, st.attacker, st.defender) == (ATTACK, 0, 0, 1)
    # the former dialect (descending seats) is refused, naming the seat that must answer
    record["moves"][1] = {"seat": 1, "move": "done"}
    with pytest.raises(IllegalMoveError, match="by seat 1, but seat 0 must answer the swap round"):
        rec.replay_record(record)


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"trump_swap": "two_only", "first_attacker": "random"},
        {
            "trump_swap": "two_only",
            "swap_timing": "while_in_stock",
            "first_attacker": "random",
            "refill_order": "attacker_then_play_order_defender_last",
        },
        {"end_condition": "until_one_left", "defender_empty": "end_bout"},
    ],
)
def test_clockwise_game_equals_counterclockwise_move_for_move(n, options):
    """On the same deal the two directions are the same game: the same seat to act, the same
    legal moves at every step of random games, the same history and the same result."""
    ccw = make("tan", n, options)
    cw = make("tan", n, dict(options, direction="clockwise"))
    rng = random.Random(4400 + n)
    steps = 0
    for _ in range(12):
        a = ccw.new_initial_state(rng)
        b = cw.state_from_deal(a.deal)
        while not a.is_terminal():
            assert b.current_player == a.current_player
            moves = a.legal_moves()
            assert b.legal_moves() == moves
            move = rng.choice(moves)
            a.apply(move)
            b.apply(move)
            steps += 1
        assert b.is_terminal() and b.history == a.history and b.returns() == a.returns()
        assert b.hands == a.hands and b.discard == a.discard
    assert steps > 12 * 40  # whole games were compared, not just their openings


def test_first_out_when_the_stock_runs_out_in_the_refill():
    # seats 0 and 2 empty their hands while the face-up card is still there; in the refill
    # (order 0, 3, 2, 1) seat 0 draws it, so seat 2 holds nothing with an empty stock: he wins
    st = position(["5C", "6C 7C 9C", "5H", "8S 3S"], "S", faceup="4S")
    play(st, "attack 5C", "defend 5C with 6C", "throw 5H", "take")
    assert st.is_terminal() and st.winner == 2


def test_first_out_tie_goes_to_the_first_to_empty():
    # seats 2 and 3 both empty their hands; seat 0 draws the last card, both are out at once:
    # seat 2 emptied his hand first and wins
    st = position(["5C 9D", "6C 6H 7D 8D", "5H", "6D"], "S", faceup="4S")
    play(
        st,
        "attack 5C",
        "defend 5C with 6C",
        "done",
        "throw 5H",
        "defend 5H with 6H",
        "throw 6D",
        "defend 6D with 7D",
        "done",
    )
    assert st.is_terminal() and st.winner == 2
    assert st.hands[0] == mask("9D 4S") and st.returns() == [-1.0, -1.0, 3.0, -1.0]


def test_until_one_left_loser_and_draw():
    opts = {"end_condition": "until_one_left"}
    st = position(["5C", "6C 7C", "9H 2S"], "S", options=opts)
    play(st, "attack 5C", "take")
    assert not st.is_terminal() and (st.attacker, st.defender) == (2, 1)
    play(st, "attack 9H", "take")
    # seat 0 is out; seat 1 took 5C, 9H; seat 2 holds 2S
    assert (st.attacker, st.defender) == (2, 1)
    play(st, "attack 2S")
    assert st.current_player == 1
    play(st, "take")
    assert st.is_terminal() and st.loser == 1
    assert st.returns() == [1.0, -2.0, 1.0]
    assert st.settlement() == [(1, 0, 1.0), (1, 2, 1.0)]
    st = position(["5C", "6C"], "S", options=opts)
    play(st, "attack 5C", "defend 5C with 6C")
    assert st.is_terminal() and st.returns() == [0.0, 0.0] and st.settlement() == []


def test_instant_win_eight_trumps():
    g = make("tan", 3, {"instant_win_eight_trumps": True})
    deal = full_deal(3, ["2H 3H 4H 5H 6H 7H 8H 9H", "", ""], "TH", first=1)
    st = g.state_from_deal(deal)
    assert st.is_terminal() and st.returns() == [2.0, -1.0, -1.0] and st.legal_moves() == []
    st = make("tan", 3).state_from_deal(deal)
    assert not st.is_terminal()


def test_loss_amount_scales_payments():
    st = position(["5C", "6C 7C", "8D"], "S", options={"loss_amount": 2.5})
    play(st, "attack 5C")
    assert st.returns() == [5.0, -2.5, -2.5]
    assert st.game.payoff_bound() == 5.0


# -- notation, options, deals -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text,canonical",
    [
        ("attack 7S", "attack 7S"),
        ("ATTACK 10h", "attack TH"),
        ("defend 7♠ with 9♠", "defend 7S with 9S"),
        ("throw qd", "throw QD"),
        ("swap 2H", "swap 2H"),
        ("  Take ", "take"),
        ("DONE", "done"),
    ],
)
def test_move_text(text, canonical):
    g = make("tan", 4)
    assert g.move_to_text(g.parse_move(text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "",
        "attack",
        "attack 1S",
        "defend 7S 9S",
        "defend 7S by 9S",
        "jump 7S",
        "take 7S",
        "swap",
        "throw 7S 8S",
    ],
)
def test_bad_move_text_is_named(text):
    with pytest.raises(MoveParseError) as e:
        make("tan", 4).parse_move(text)
    assert repr(text) in str(e.value)


def test_every_move_code_round_trips_and_describes():
    g = make("tan", 4)
    codes = list(range(52)) + [R.THROW_BASE + c for c in range(52)]
    codes += [R.SWAP_BASE + c for c in range(52)]
    codes += [R.DEFEND_BASE + 64 * a + d for a in range(52) for d in range(52)] + [R.TAKE, R.DONE]
    for m in codes:
        assert g.parse_move(g.move_to_text(m)) == m
    assert g.describe_move(parse_card("7S")) == MoveInfo("attack", (parse_card("7S"),))
    assert g.describe_move(g.parse_move("defend 7S with 9S")) == MoveInfo(
        "defend", (parse_card("9S"),), target=parse_card("7S")
    )
    assert g.describe_move(g.parse_move("swap 2H")).kind == "swap"
    assert g.describe_move(R.TAKE) == MoveInfo("take")
    with pytest.raises(MoveParseError):
        g.move_to_text(60)


@pytest.mark.parametrize(
    "options,fragment",
    [
        ({"trump_swap": "all"}, "'all' is not one of"),
        ({"loss_amount": 0}, "positive"),
        ({"cung_chu": True}, "not supported"),
        ({"xa_chu": True}, "not supported"),
        ({"repeat_trump_loss": True}, "not supported"),
        ({"direction": 1}, "expected a string"),
        ({"speed": 1}, "unknown option 'speed'"),
    ],
)
def test_bad_options(options, fragment):
    with pytest.raises(OptionError, match=fragment):
        make("tan", 4, options)


def test_every_rules_option_exists_with_its_default():
    g = make("tan", 4)
    assert g.name == "tan" and g.title == "Tấn"
    assert {o["name"]: o["default"] for o in g.describe_options()} == {
        "direction": "counterclockwise",
        "trump_swap": "any_lower",
        "swap_timing": "setup",
        "first_attacker": "dealer",
        "defender_empty": "draw_and_continue",
        "refill_order": "attacker_then_reverse",
        "end_condition": "first_out_wins",
        "loss_amount": 1.0,
        "instant_win_eight_trumps": False,
        "repeat_trump_loss": False,
        "cung_chu": False,
        "xa_chu": False,
    }
    assert all(o["description"] for o in g.describe_options())


def _good_deal(n=4):
    return make("tan", n).random_deal(random.Random(1))


@pytest.mark.parametrize(
    "change,fragment",
    [
        (lambda d: Deal(d.hands[:3], d.first, d.stock, (), d.trump), r"deal.hands: 3 hands for 4"),
        (
            lambda d: Deal(
                (d.hands[0][:7],) + d.hands[1:], d.first, d.stock + (d.hands[0][7],), (), d.trump
            ),
            r"deal.hands\[0\]: 7 cards, Tấn deals 8",
        ),
        (lambda d: Deal(d.hands, d.first, d.stock, (), None), r"deal.trump: missing"),
        (
            lambda d: Deal(d.hands, d.first, d.stock[:-1] + (d.hands[1][0],), (), d.trump),
            r"dealt twice \(deal.hands\[1\] and deal.stock\)",
        ),
        (lambda d: Deal(d.hands, d.first, d.stock[:-1], (), d.trump), r"deal.stock: 18 cards"),
        (lambda d: Deal(d.hands, 5, d.stock, (), d.trump), r"deal.first: 5 is not a seat"),
        (
            lambda d: Deal(d.hands, d.first, d.stock, (d.stock[0],), d.trump),
            r"deal.set_aside: 1 cards",
        ),
        (lambda d: Deal(d.hands, d.first, d.stock[:-1] + (99,), (), d.trump), r"bad card id 99"),
    ],
)
def test_bad_deals_are_named(change, fragment):
    g = make("tan", 4)
    with pytest.raises(DealError, match=fragment):
        g.state_from_deal(change(_good_deal()))


def test_random_deal_first_attacker_option():
    g = make("tan", 4)
    assert {g.random_deal(random.Random(s)).first for s in range(20)} == {0}
    g = make("tan", 4, {"first_attacker": "random"})
    assert {g.random_deal(random.Random(s)).first for s in range(40)} == {0, 1, 2, 3}


def test_illegal_moves_are_explained_and_change_nothing():
    st = position(["5C 9D", "6C 7C", "5H 2S", "8S 3S"], "D", stock="4C", faceup="4D")
    before = (st.hands[:], st.table, len(st.history))
    for text, fragment in [
        ("attack QH", "not in seat 0's hand"),
        ("take", "must open the bout"),
        ("done", "must open the bout"),
    ]:
        with pytest.raises(IllegalMoveError, match=fragment):
            play(st, text)
    with pytest.raises(IllegalMoveError, match="not a Tấn move"):
        st.apply("attack 5C")
    with pytest.raises(IllegalMoveError):
        st.apply(True)
    assert (st.hands[:], st.table, len(st.history)) == before
    play(st, "attack 5C")
    with pytest.raises(IllegalMoveError, match="the card to beat is 5C"):
        play(st, "defend 9D with 7C")


def test_render_shows_the_seat_view():
    st = position(
        ["5C 9D", "6C 7C", "5H 2S", "8S 3S"], "D", stock="4C", faceup="4D", known=["", "7C", "", ""]
    )
    play(st, "attack 5C")
    text = st.render(0)
    assert "seat 0 (you) attacker: 9D" in text
    assert "known: 7C" in text and "table: 5C/-" in text and "to act: seat 1 defends" in text
    assert "2S" not in st.render(1)


@pytest.mark.parametrize("method", ["observation", "known_cards", "render", "determinize"])
def test_bad_seats_are_named(method):
    from quansu.games import GameError

    st = make("tan", 3).new_initial_state(random.Random(0))
    args = (random.Random(0),) if method == "determinize" else ()
    for bad in (3, -1, "0", True):
        with pytest.raises(GameError, match="is not a seat of 3 players"):
            getattr(st, method)(bad, *args)


def test_heuristic_on_a_finished_game_is_an_error():
    st = position(["5C", "6C"], "S")
    play(st, "attack 5C")
    with pytest.raises(IllegalMoveError, match="game is over"):
        st.game.heuristic_move(st, random.Random(0))


def test_zones_and_known_cards():
    st = position(
        [
            "5C 9D 2C 3H 4H 6H 7H 9H",
            "6C 7C 8H 2H 3D 5D 6D 7D",
            "5H 2S TS JS QS KS AS 9S",
            "8S 3S 4S 5S 6S 7S TH JH",
        ],
        "D",
        stock="4C 3C 8C",
        faceup="4D",
    )
    play(st, "attack 5C", "defend 5C with 6C", "done", "throw 5H", "take")
    # refill 0, 3, 2, 1: seat 0 draws 4C, seat 2 draws 3C; 8C and the face-up 4D are left
    z = st.zones()
    assert set(z) == {"hand0", "hand1", "hand2", "hand3", "stock", "table", "discard"}
    assert z["stock"] == mask("8C 4D") and z["table"] == 0 and z["discard"].bit_count() == 16
    assert z["hand0"] & mask("4C") and z["hand2"] & mask("3C")
    assert z["hand1"] == mask("7C 8H 2H 3D 5D 6D 7D 5C 6C 5H")
    for seat in (0, 2, 3):
        k = st.known_cards(seat)
        assert k["hand1"] == mask("5C 6C 5H")  # picked up: public
        assert k["stock"] == mask("4D")  # the face-up card, not the face-down ones
        assert k["discard"] == z["discard"]
        assert k[f"hand{seat}"] == z[f"hand{seat}"]
    assert st.known_cards(1)["hand1"] == z["hand1"]
    assert st.known_cards(0)["hand2"] == 0
    det = st.determinize(0, random.Random(1))
    assert det.zones()["hand1"] & mask("5C 6C 5H") == mask("5C 6C 5H")
