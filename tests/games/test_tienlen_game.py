"""Tiến lên as a game on the common interface (conformance: tests/games/test_conformance.py): seeded
determinism, deals and views, determinization, the heuristic bot."""

import random

import pytest

from quansu import games
from quansu.games.base import Deal, DealError, IllegalMoveError
from quansu.games.cards import card_str, parse_cards, parse_mask
from quansu.games.conformance import check_determinization
from quansu.games.tienlen import rules as R
from quansu.games.tienlen.heuristic import plan
from tests.helpers.option_sets import TIENLEN_OPTION_SETS as OPTION_SETS


def test_registered():
    assert "tienlen" in games.game_names()
    g = games.make("tienlen", 3)
    assert g.title == "Tiến lên miền Nam" and g.max_moves == 13 * 3 * 3


def _play_random(g, seed):
    rng = random.Random(seed)
    st = g.new_initial_state(rng)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_moves()))
    return st


def test_seeded_determinism():
    g = games.make("tienlen", 4)
    a, b = _play_random(g, 42), _play_random(g, 42)
    assert a.history == b.history and a.deal == b.deal and a.returns() == b.returns()
    c = _play_random(g, 43)
    assert c.deal != a.deal
    assert g.random_deal(random.Random(9)) == g.random_deal(random.Random(9))
    # new_initial_state and state_from_deal(random_deal) give the same game
    s1 = g.new_initial_state(random.Random(5))
    s2 = g.state_from_deal(g.random_deal(random.Random(5)))
    assert s1.deal == s2.deal and s1.legal_moves() == s2.legal_moves()


def test_replay_reproduces_payoffs_many_games():
    for n in (2, 3, 4):
        g = games.make("tienlen", n)
        for seed in range(15):
            st = _play_random(g, seed)
            again = g.replay(st.deal, st.history)
            assert again.returns() == st.returns() and again.settlement() == st.settlement()
            assert abs(sum(st.returns())) < 1e-9
            assert max(abs(x) for x in st.returns()) <= g.payoff_bound()


def test_returns_zero_before_the_end():
    g = games.make("tienlen", 4)
    st = g.new_initial_state(random.Random(1))
    while st.is_terminal():
        st = g.new_initial_state(random.Random(2))
    assert st.returns() == [0.0] * 4 and st.settlement() == []


@pytest.mark.parametrize(
    "deal_kwargs,fragment",
    [
        ({"hands": "short"}, r"deal.hands\[1\]: 12 cards, Tiến lên deals 13"),
        ({"hands": "dup"}, "card 3S dealt twice"),
        ({"hands": "badid"}, r"deal.hands\[0\]\[0\]: bad card id 60"),
        ({"first": 4}, "deal.first: seat 4 out of range"),
        ({"stock": (1,)}, "deal.stock: Tiến lên has no stock"),
        ({"hands": "three"}, "deal.hands: 3 hands for 4 players"),
    ],
)
def test_bad_deals_are_named(deal_kwargs, fragment):
    g = games.make("tienlen", 4)
    hands = [tuple(range(13 * s, 13 * s + 13)) for s in range(4)]
    kw = dict(deal_kwargs)
    kind = kw.pop("hands", None)
    if kind == "short":
        hands[1] = hands[1][:12]
    elif kind == "dup":
        hands[1] = (0,) + hands[1][1:]
    elif kind == "badid":
        hands[0] = (60,) + hands[0][1:]
    elif kind == "three":
        hands = hands[:3]
    with pytest.raises(DealError, match=fragment):
        g.state_from_deal(Deal(hands=tuple(hands), **kw))


def test_set_aside_checked_for_fewer_players():
    g = games.make("tienlen", 2)
    hands = (tuple(range(0, 52, 4)), tuple(range(1, 52, 4)))
    st = g.state_from_deal(Deal(hands=hands))
    assert st.zones()["set_aside"].bit_count() == 26
    with pytest.raises(DealError, match="deal.set_aside: 3 cards, expected 26"):
        g.state_from_deal(Deal(hands=hands, set_aside=(2, 3, 6)))


def test_illegal_move_leaves_state_unchanged():
    g = games.make("tienlen", 4)
    st = g.new_initial_state(random.Random(3))
    before = (st.observation(st.current_player), st.history)
    for bad in (0, parse_mask("2S 3S") | (1 << 60), "3S", True):
        with pytest.raises(IllegalMoveError):
            st.apply(bad)
    assert (st.observation(st.current_player), st.history) == before


def test_clone_independent_and_legal_cache():
    g = games.make("tienlen", 4)
    st = g.new_initial_state(random.Random(4))
    moves = st.legal_moves()
    moves.clear()  # callers may mutate the returned list
    assert st.legal_moves()
    c = st.clone()
    c.apply(c.legal_moves()[0])
    assert len(st.history) == 0 and len(c.history) == 1
    assert st.hands != c.hands


def test_observation_hides_other_hands():
    g = games.make("tienlen", 4)
    rng = random.Random(6)
    st = g.new_initial_state(rng)
    for _ in range(10):
        st.apply(rng.choice(st.legal_moves()))
    obs = st.observation(0)
    other = st.determinize(0, random.Random(1))
    assert other.hands[1:] != st.hands[1:]
    assert other.observation(0) == obs
    text = st.render(0)
    assert "your hand: " + " ".join(card_str(c) for c in range(52) if st.hands[0] >> c & 1) in text
    for s in (1, 2, 3):  # no other hand appears in seat 0's view
        if st.hands[s].bit_count() > 1:
            assert " ".join(card_str(c) for c in range(52) if st.hands[s] >> c & 1) not in text


def test_determinize_spreads_hidden_cards_uniformly():
    g = games.make("tienlen", 4)
    rng = random.Random(8)
    st = g.new_initial_state(rng)
    while st.is_terminal():
        st = g.new_initial_state(rng)
    hidden = st.hands[1] | st.hands[2] | st.hands[3]
    card = (hidden & -hidden).bit_length() - 1
    counts = [0, 0, 0, 0]
    for i in range(600):
        d = st.determinize(0, random.Random(i))
        check = [s for s in (1, 2, 3) if d.hands[s] >> card & 1]
        counts[check[0]] += 1
        assert d.hands[0] == st.hands[0]
    assert min(counts[1:]) > 120  # about 200 each


def test_determinize_keeps_first_lead_card_and_set_aside_knowledge():
    g = games.make("tienlen", 3, {"first_lead_requires_3_spades": True})
    rng = random.Random(12)
    for _ in range(20):
        st = g.new_initial_state(rng)
        if st.is_terminal():
            continue
        leader = st.current_player
        observer = (leader + 1) % 3
        for i in range(5):
            d = check_determinization(g, st, observer, random.Random(i))
            dealt = ((1 << 52) - 1) & ~d.aside
            assert d.hands[leader] & dealt & -dealt  # the leader holds the lowest dealt card
        st.apply(st.legal_moves()[0])
        low = st.played[leader] & -st.played[leader]
        for i in range(5):
            d = st.determinize(observer, random.Random(i))
            assert d.aside & (low - 1) == low - 1  # everything below the first play was not dealt


def test_determinize_rejects_instant_win_deals():
    g = games.make("tienlen", 4)
    rng = random.Random(2)
    st = g.new_initial_state(rng)
    while st.is_terminal():
        st = g.new_initial_state(rng)
    for i in range(200):
        d = st.determinize(0, random.Random(i))
        for s in (1, 2, 3):
            assert R.instant_win(d.hands[s] | d.played[s], True) is None


def test_deal_for_view_replays_the_public_history():
    for n in (2, 3, 4):
        for opts in ({}, {"first_lead_requires_3_spades": True}):
            g = games.make("tienlen", n, opts)
            rng = random.Random(n)
            for seed in range(6):
                st = g.new_initial_state(rng)
                if st.is_terminal():
                    continue
                for _ in range(rng.randrange(0, 25)):
                    if st.is_terminal():
                        break
                    st.apply(rng.choice(st.legal_moves()))
                seat = rng.randrange(n)
                deal = g.deal_for_view(
                    seat,
                    st.deal.hands[seat],
                    [13] * n,
                    st.history,
                    random.Random(seed),
                    first=st.deal.first,
                )
                again = g.replay(deal, st.history)
                assert again.observation(seat) == st.observation(seat)


def test_deal_for_view_errors():
    g = games.make("tienlen", 4)
    hand = parse_cards("3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S")
    with pytest.raises(DealError, match=r"counts\[2\]: 12 cards"):
        g.deal_for_view(0, hand, [13, 13, 12, 13], [], random.Random(0))
    with pytest.raises(IllegalMoveError, match=r"moves\[0\]: 3S is in seat 0's hand, not seat 1's"):
        g.deal_for_view(0, hand, [13] * 4, [(1, parse_mask("3S"))], random.Random(0), first=1)
    with pytest.raises(IllegalMoveError, match=r"moves\[1\]: 3C was already played"):
        g.deal_for_view(
            0,
            hand,
            [13] * 4,
            [(1, parse_mask("3C")), (2, parse_mask("3C"))],
            random.Random(0),
            first=1,
        )
    with pytest.raises(IllegalMoveError, match=r"moves\[0\]: 3C is not in seat 0's hand"):
        g.deal_for_view(0, hand, [13] * 4, [(0, parse_mask("3C"))], random.Random(0))
    with pytest.raises(DealError, match="drawn: Tiến lên has no stock"):
        g.deal_for_view(0, hand, [13] * 4, [], random.Random(0), drawn=(3,))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_heuristic_plays_complete_games(n):
    for options in OPTION_SETS[:3]:
        g = games.make("tienlen", n, options)
        rng = random.Random(n)
        for _ in range(12):
            st = g.new_initial_state(rng)
            while not st.is_terminal():
                st.apply(g.heuristic_move(st, rng))  # apply() rejects any illegal move
            assert abs(sum(st.returns())) < 1e-9


def test_heuristic_uses_only_the_seat_information():
    """The heuristic's move is the same in every determinization from the acting seat."""
    g = games.make("tienlen", 4)
    rng = random.Random(21)
    for _ in range(8):
        st = g.new_initial_state(rng)
        while not st.is_terminal():
            seat = st.current_player
            mv = g.heuristic_move(st, random.Random(0))
            for i in range(3):
                d = st.determinize(seat, random.Random(i))
                assert g.heuristic_move(d, random.Random(0)) == mv
            st.apply(rng.choice(st.legal_moves()))


def test_heuristic_beats_random_players():
    g = games.make("tienlen", 4)
    rng = random.Random(4)
    total = 0.0
    for _ in range(60):
        st = g.new_initial_state(rng)
        while not st.is_terminal():
            if st.current_player == 0:
                st.apply(g.heuristic_move(st, rng))
            else:
                st.apply(rng.choice(st.legal_moves()))
        total += st.returns()[0]
    assert total > 0


@pytest.mark.parametrize(
    "hand,expected",
    [
        ("3S 4C 5D 9S 9H 2H", {"3S 4C 5D", "9S 9H", "2H"}),
        ("5S 5C 6S 6C 7S 7C 8D JH", {"5S 5C 6S 6C 7S 7C", "8D", "JH"}),
        ("7S 7C 7D 7H 8S QD", {"7S 7C 7D 7H", "8S", "QD"}),
        ("3S 4S 5S 5C 6S 7S", {"3S 4S 5S 6S 7S", "5C"}),
    ],
)
def test_heuristic_plan(hand, expected):
    from quansu.games.cards import format_cards

    assert {format_cards(m) for m, _ in plan(parse_mask(hand))} == expected


def test_heuristic_keeps_twos_and_chops():
    from quansu.games.tienlen.testing import position

    g = games.make("tienlen", 4)
    # a low single on the table: the lowest loose single, the pair of 5s kept whole
    st = position(
        g,
        ["3C 4C 6H 8H 9H TD", "2S 2H 5S 5C 9C JS QD KH", "6S 7S 8S 9S JC", "TS JD QS KS AC"],
        to_act=1,
        top="4S",
        owner=0,
    )
    assert g.move_to_text(g.heuristic_move(st, random.Random(0))) == "9C"
    # a king on the table, no loose single beats it: pass rather than spend a 2
    st = position(
        g,
        ["3C 4C 6H 8H 9H TD", "2S 2H 5S 5C 9C JS", "6S 7S 8S 9S JC", "TS JD QS KS AC"],
        to_act=1,
        top="KD",
        owner=0,
    )
    assert g.heuristic_move(st, random.Random(0)) == 0
    st = position(
        g,
        ["3C 4C 6H 8H 9H TD", "2S 2H 9C JS QD KH", "6S 7S 8S 9S JC", "TS JD QS KS AC"],
        to_act=1,
        top="7D",
        owner=0,
    )
    assert g.heuristic_move(st, random.Random(0)) in (
        parse_mask("9C"),
        parse_mask("JS"),
        parse_mask("QD"),
        parse_mask("KH"),
    )
    # a 2 on the table and a four in hand: chop
    st = position(
        g, ["3C 4C 6H", "5S 5C 5D 5H 9C JS", "6S 7S 8S", "TS JD QS"], to_act=1, top="2H", owner=0
    )
    assert g.move_to_text(g.heuristic_move(st, random.Random(0))) == "5S 5C 5D 5H"
    # the whole hand is one play: finish
    st = position(
        g, ["3C 4C 6H", "9S TC JD", "6S 7S 8S", "TS JS QS"], to_act=1, top="6C 7C 8C", owner=0
    )
    assert g.move_to_text(g.heuristic_move(st, random.Random(0))) == "9S TC JD"


def test_deal_for_view_first_lead_and_instant_cases():
    g = games.make("tienlen", 4, {"first_lead_requires_3_spades": True})
    hand = parse_cards("3C 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S")
    with pytest.raises(DealError, match="must hold 3S"):
        g.deal_for_view(0, hand, [13] * 4, [], random.Random(0), first=0)
    deal = g.deal_for_view(0, hand, [13] * 4, [], random.Random(0), first=2)
    assert 0 in deal.hands[2]  # the leader holds 3S
    # the observer's own hand wins instantly: any deal will do, the game is over
    six_pairs = parse_cards("3S 3C 5S 5C 7S 7C 9S 9C JS JC KS KC 2H")
    g = games.make("tienlen", 4)
    deal = g.deal_for_view(1, six_pairs, [13] * 4, [], random.Random(0), first=0)
    assert g.state_from_deal(deal).next_first() == 1


@pytest.mark.parametrize(
    "hands,expected",
    [
        # lead the piece that starts lowest, the longer one on ties
        (["3S 4C 5D 9S 9H KD 2H", "6S 6C", "7S 7C", "8S 8C"], "3S 4C 5D"),
        (["4S 9S 9H KD 2H", "6S 6C", "7S 7C", "8S 8C"], "4S"),
        # an opponent on one card: no single while a bigger piece exists
        (["4S 9S 9H KD 2H", "6S", "7S 7C", "8S 8C"], "9S 9H"),
        # only singles left and an opponent on one card: the highest
        (["4S 9S KD", "6S", "7S 7C", "8S 8C"], "KD"),
        # two pieces left, one a 2: the 2 first
        (["5S 2H", "6S 6C", "7S 7C", "8S 8C"], "2H"),
        # only 2s and bombs: the bomb first
        (["6S 6C 6D 6H 2H", "7S", "8S 8C", "9S 9C"], "6S 6C 6D 6H"),
    ],
)
def test_heuristic_leads(hands, expected):
    from quansu.games.tienlen.testing import position

    g = games.make("tienlen", 4)
    st = position(g, hands, to_act=0)
    assert g.move_to_text(g.heuristic_move(st, random.Random(0))) == expected
