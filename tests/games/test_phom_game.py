"""Phỏm on the common interface (conformance: tests/games/test_conformance.py): notation,
deal and option errors, seeded determinism, the heuristic, hidden information (observation,
determinization, deal_for_view) and the option scenarios."""

import random

import pytest

from quansu import games
from quansu.games.base import Deal, DealError, IllegalMoveError, MoveParseError, OptionError
from quansu.games.cards import parse_cards
from quansu.games.phom import rules as R
from quansu.games.phom.game import DISCARD, DRAW, LAY, SEND, TAKE
from tests.games.test_phom_helpers import (
    icard,
    legal_texts,
    new_state,
    play,
    run_until,
    take_turn_of,
)
from tests.helpers.option_sets import PHOM_OPTION_SETS as OPTION_SETS
from tests.helpers.option_sets import SEED001


def test_registered_with_every_option():
    game = games.make("phom")
    assert game.name == "phom" and game.title == "Phỏm (Tá lả)"
    names = {s.name for s in game.option_specs}
    assert names == {
        "send_all_counts_as_u",
        "u_khan_enabled",
        "u_khan_payment",
        "u_tron_enabled",
        "dong_hoa_trang_enabled",
        "u_thong_enabled",
        "dong_hoa_enabled",
        "u_k_enabled",
        "ca_k_enabled",
        "den_an_chot",
        "one_eaten_card_per_meld",
        "chot_payment_mode",
        "eat_payments",
        "last_place_pays",
        "mom_payment",
        "u_payment",
        "tai_turn_can_send",
        "tai_tiebreak",
        "all_mom_first_layer_wins",
        "auto_declare_u",
        "first_game_first_player",
        "previous_u_winner",
    }
    assert all(s.description for s in game.option_specs)
    assert game.options_diff() == {}


@pytest.mark.parametrize(
    "opts,fragment",
    [
        ({"nope": 1}, "unknown option 'nope'"),
        ({"chot_payment_mode": "double"}, "'double' is not one of"),
        ({"eat_payments": [1, 2]}, "list of 4 numbers"),
        ({"u_payment": -1}, "must not be negative"),
        ({"auto_declare_u": "yes"}, "'auto_declare_u'"),
        ({"previous_u_winner": 4}, r"'previous_u_winner': 4 is not a seat 0..3"),
        ({"previous_u_winner": -2}, r"'previous_u_winner': -2 is not a seat"),
        ({"previous_u_winner": 1.5}, "whole number"),
        ({"previous_u_winner": True}, "expected a number"),
    ],
)
def test_bad_options(opts, fragment):
    with pytest.raises(OptionError, match=fragment):
        games.make("phom", 4, opts)


@pytest.mark.parametrize(
    "players,seat,ok", [(2, 1, True), (2, 2, False), (3, 2, True), (3, 3, False), (4, -1, True)]
)
def test_previous_u_winner_checked_against_player_count(players, seat, ok):
    if ok:
        assert (
            games.make("phom", players, {"previous_u_winner": seat}).options["previous_u_winner"]
            == seat
        )
    else:
        with pytest.raises(OptionError, match="previous_u_winner"):
            games.make("phom", players, {"previous_u_winner": seat})


# -- notation -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text,canonical",
    [
        ("draw", "draw"),
        ("DRAW", "draw"),
        ("u", "u"),
        ("U", "u"),
        ("eat 7h", "eat 7H"),
        ("eat 10♥", "eat TH"),
        ("discard kc", "discard KC"),
        ("send 8h to 3", "send 8H to 3"),
        ("Send 10C to 12", "send TC to 12"),
        ("lay", "lay"),
        ("lay 7H 7S 7C / 6D 4D 5D", "lay 4D 5D 6D / 7S 7C 7H"),
        ("lay QD KD JD", "lay JD QD KD"),
        ("lay 2s 3s as / 9c 9d 9h 9s", "lay AS 2S 3S / 9S 9C 9D 9H"),
    ],
)
def test_move_text_roundtrip(text, canonical):
    game = games.make("phom")
    mv = game.parse_move(text)
    assert game.move_to_text(mv) == canonical
    assert game.parse_move(canonical) == mv


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "empty"),
        ("take", "expected draw"),
        ("eat", "expected draw"),
        ("eat 1H", "unknown rank"),
        ("lay 4D 5D 7D", "is not a phỏm"),
        ("lay QS KS AS", "is not a phỏm"),
        ("lay 4D 5D 6D / 6D 6S 6C", "named twice|share a card"),
        ("send 8H 3", "expected draw"),
        ("send 8H to x", "not a number"),
        ("lay 4D 5D 6D /", "empty meld"),
        ("done", '"done" is not a Phỏm move: after sending, the discard ends the turn'),
        ("DONE", '"DONE" is not a Phỏm move'),
    ],
)
def test_move_parse_errors(text, fragment):
    with pytest.raises(MoveParseError, match=fragment):
        games.make("phom").parse_move(text)


def test_describe_move():
    game = games.make("phom")
    info = game.describe_move(game.parse_move("lay 7S 7C 7H / 4D 5D 6D"))
    assert info.kind == "lay"
    assert info.melds == (tuple(parse_cards("4D 5D 6D")), tuple(parse_cards("7S 7C 7H")))
    assert game.describe_move(game.parse_move("send 8H to 3")).target == 3
    assert game.describe_move(game.parse_move("send 8H to 3")).cards == tuple(parse_cards("8H"))
    assert game.describe_move(game.parse_move("eat 9C")).kind == "eat"
    assert game.describe_move(game.parse_move("discard AS")).cards == tuple(parse_cards("AS"))
    assert game.describe_move(DRAW).kind == "draw"
    with pytest.raises(MoveParseError):
        game.describe_move("draw")


# -- deals --------------------------------------------------------------------------------------
def _good_deal(n=4):
    return games.make("phom", n).random_deal(random.Random(1))


@pytest.mark.parametrize(
    "change,fragment",
    [
        (lambda d: Deal(d.hands[:3], d.first, d.stock, d.set_aside), "3 hands for 4 players"),
        (
            lambda d: Deal(
                (d.hands[0][:9],) + d.hands[1:], d.first, d.stock + (d.hands[0][9],), d.set_aside
            ),
            r"deal.hands\[0\]: 9 cards, Phỏm deals 10",
        ),
        (
            lambda d: Deal(d.hands, 1, d.stock, d.set_aside),
            r"deal.hands\[0\]: 10 cards, Phỏm deals 9",
        ),
        (
            lambda d: Deal(d.hands, d.first, d.stock[:14], d.set_aside + d.stock[14:]),
            "deal.stock: 14 cards",
        ),
        (
            lambda d: Deal(d.hands, d.first, d.stock[:14] + (d.hands[1][0],), d.set_aside),
            "dealt twice",
        ),
        (lambda d: Deal(d.hands, 7, d.stock, d.set_aside), "deal.first"),
        (lambda d: Deal(d.hands, d.first, d.stock, d.set_aside, trump=3), "trump"),
        (
            lambda d: Deal(
                d.hands, d.first, d.stock, d.set_aside, extra=(("previous_u_winner", 1),)
            ),
            r"deal.extra: Phỏm deals carry no extra data .*option 'previous_u_winner'",
        ),
        (
            lambda d: Deal(d.hands, d.first, d.stock, d.set_aside, extra=(("colour", 1),)),
            r"deal.extra",
        ),
    ],
)
def test_bad_deals(change, fragment):
    with pytest.raises(DealError, match=fragment):
        games.make("phom", 4).state_from_deal(change(_good_deal()))


@pytest.mark.parametrize("players,stock,aside", [(2, 7, 26), (3, 11, 13), (4, 15, 0)])
def test_random_deal_shape(players, stock, aside):
    d = _good_deal(players)
    assert [len(h) for h in d.hands] == [10 if s == d.first else 9 for s in range(players)]
    assert len(d.stock) == stock and len(d.set_aside) == aside
    assert len(set(sum(d.hands, ()) + d.stock + d.set_aside)) == 52


def test_random_first_player_option():
    game = games.make("phom", 4, {"first_game_first_player": "random"})
    firsts = {game.random_deal(random.Random(s)).first for s in range(30)}
    assert len(firsts) > 1
    assert {games.make("phom", 4).random_deal(random.Random(s)).first for s in range(10)} == {0}


# -- determinism and the heuristic ---------------------------------------------------------------
def _play(game, seed, policy):
    rng = random.Random(seed)
    st = game.new_initial_state(rng)
    while not st.is_terminal():
        st.apply(policy(game, st, rng))
    return st


def test_seeded_determinism():
    game = games.make("phom", 4)
    for policy in (
        lambda g, s, r: r.choice(s.legal_moves()),
        lambda g, s, r: g.heuristic_move(s, r),
    ):
        a, b = _play(game, 5, policy), _play(game, 5, policy)
        assert a.history == b.history and a.returns() == b.returns()
        c = _play(game, 6, policy)
        assert c.history != a.history


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("opts", list(OPTION_SETS))
def test_heuristic_plays_complete_games(players, opts):
    game = games.make("phom", players, OPTION_SETS[opts])
    for seed in range(4):
        st = _play(game, seed, lambda g, s, r: g.heuristic_move(s, r))  # apply() checks legality
        assert st.is_terminal() and abs(sum(st.returns())) < 1e-9


def test_heuristic_beats_random_players():
    game = games.make("phom", 4)
    rng = random.Random(3)
    total = 0.0
    for _ in range(40):
        st = game.new_initial_state(rng)
        while not st.is_terminal():
            mv = game.heuristic_move(st, rng) if st.cur == 0 else rng.choice(st.legal_moves())
            st.apply(mv)
        total += st.returns()[0]
    assert total > 0


def test_heuristic_choices():
    # eats when it can; lays the best arrangement; sends; discards high lone cards
    game, st = new_state(
        [
            "JH AS AD 3S 3C 5S 5C 7S 7D KD",
            "QH TH 9H 2S 5D 7C KS 4C 3H",
            "8S 8D 2C 4S 6S 6C 9S 9D JC",
            "2D 2H 4D 4H 6D 6H TD 8H KH",
        ]
    )
    play(st, "discard JH")
    rng = random.Random(0)
    assert game.move_to_text(game.heuristic_move(st, rng)) == "eat JH"
    play(st, "eat JH")
    assert game.move_to_text(game.heuristic_move(st, rng)) in ("discard KS", "discard QH")
    assert game.heuristic_move(st, rng) in st.legal_moves()


# -- illegal moves ------------------------------------------------------------------------------
def test_illegal_moves_leave_state_unchanged():
    game, st = new_state(
        [
            "JH AS AD 3S 3C 5S 5C 7S 7D KD",
            "QH TH 9H 2S 5D 7C KS 4C 3H",
            "8S 8D 2C 4S 6S 6C 9S 9D JC",
            "2D 2H 4D 4H 6D 6H TD 8H KH",
        ]
    )
    for text, fragment in (
        ("draw", "must discard"),
        ("discard QH", "not in seat 0's hand"),
        ("lay", "must discard"),
        ("u", "no Ù"),
    ):
        before = (st.observation(0), st.zones(), len(st.history))
        with pytest.raises(IllegalMoveError, match=fragment):
            play(st, text)
        assert (st.observation(0), st.zones(), len(st.history)) == before
    with pytest.raises(IllegalMoveError, match="not a Phỏm move"):
        st.apply("discard JH")
    with pytest.raises(IllegalMoveError):
        st.apply(None)
    play(st, "discard JH", "eat JH", "discard 2S")
    run_until(st, lambda s: s.is_terminal())
    with pytest.raises(IllegalMoveError, match="over"):
        st.apply(DRAW)


# -- hidden information -------------------------------------------------------------------------
def _midgame_states(game, n_games, seed, every=3):
    rng = random.Random(seed)
    out = []
    for _ in range(n_games):
        st = game.new_initial_state(rng)
        k = 0
        while not st.is_terminal():
            if k % every == 0:
                out.append(st.clone())
            moves = st.legal_moves()
            eats = [m for m in moves if isinstance(m, int) and 64 <= m < 116]
            st.apply(eats[0] if eats else rng.choice(moves))
            k += 1
    return out


def test_observation_hides_other_hands():
    game = games.make("phom", 4)
    rng = random.Random(2)
    for st in _midgame_states(game, 6, 4):
        for seat in range(4):
            d = st.determinize(seat, rng)
            assert d.observation(seat) == st.observation(seat)
            text = st.render(seat)
            assert R.mask_text(st.hands[seat]) in text
            for o in range(4):
                hidden = st.hands[o] & ~st.eaten[o]
                if o != seat and hidden:
                    assert R.mask_text(hidden) not in text


def test_determinization_keeps_eaten_cards_and_cover():
    game = games.make("phom", 4)
    rng = random.Random(9)
    states = [s for s in _midgame_states(game, 30, 5, every=1) if any(s.eaten)]
    assert len(states) > 50
    moved = 0
    for st in states:
        for seat in range(4):
            d = st.determinize(seat, rng)
            assert d.hands[seat] == st.hands[seat]
            for o in range(4):
                assert d.eaten[o] == st.eaten[o]
                assert d.hands[o] & st.eaten[o] == st.eaten[o]
                assert d.hands[o].bit_count() == st.hands[o].bit_count()
                assert R.cover(d.hands[o], d.eaten[o], True)
                if o != seat and d.hands[o] != st.hands[o]:
                    moved += 1
            assert d.rows == st.rows and d.table == st.table
            # the public past is the same; the deal is a valid deal of the same game
            assert d.history == st.history
            game.check_deal(d.deal)
            assert d.deal.hands[seat] == st.deal.hands[seat]
    assert moved > len(states)


def test_determinization_depends_only_on_the_view():
    """Two states a seat cannot tell apart give the same sample for the same random seed (so no
    hidden card leaks into a determinization)."""
    game = games.make("phom", 4)
    rng = random.Random(21)
    n = 0
    for st in _midgame_states(game, 12, 8):
        for seat in range(4):
            twin = st.determinize(seat, rng)
            assert twin.observation(seat) == st.observation(seat)
            a = st.determinize(seat, random.Random(n))
            b = twin.determinize(seat, random.Random(n))
            assert a.zones() == b.zones()
            n += 1
    assert n > 100


def test_determinized_state_plays_on():
    game = games.make("phom", 3, SEED001)
    rng = random.Random(4)
    for st in _midgame_states(game, 5, 6):
        d = st.determinize(st.current_player if st.current_player >= 0 else 0, rng)
        while not d.is_terminal():
            d.apply(rng.choice(d.legal_moves()))
        assert abs(sum(d.returns())) < 1e-9


def _view_args(st, seat):
    """(hand, counts, moves, drawn) of ``seat`` from a real state."""
    deal = st.deal
    drawn = []
    k = 0
    for s, mv in st.history:
        if mv == DRAW:
            if s == seat:
                drawn.append(deal.stock[k])
            k += 1
    counts = [len(h) for h in deal.hands]
    return list(deal.hands[seat]), counts, list(st.history), drawn


@pytest.mark.parametrize("opts", ["default", "seed001"])
def test_deal_for_view_rebuilds_the_view(opts):
    game = games.make("phom", 4, OPTION_SETS[opts])
    rng = random.Random(31)
    states = [s for s in _midgame_states(game, 10, 12, every=4) if not s.is_terminal()]
    assert len(states) > 40
    for st in states:
        seat = rng.randrange(4)
        hand, counts, moves, drawn = _view_args(st, seat)
        deal = game.deal_for_view(seat, hand, counts, moves, rng, first=st.deal.first, drawn=drawn)
        again = game.replay(deal, moves)
        assert again.observation(seat) == st.observation(seat)
        assert list(deal.hands[seat]) == hand


def test_deal_for_view_errors():
    game = games.make("phom", 4)
    st = game.new_initial_state(random.Random(3))
    hand, counts, moves, drawn = _view_args(st, 1)
    with pytest.raises(DealError, match="counts"):
        game.deal_for_view(1, hand, counts[:3], moves, random.Random(0))
    with pytest.raises(DealError, match=r"deal.hands\[1\]: 8 cards"):
        game.deal_for_view(1, hand[:8], counts, moves, random.Random(0))
    with pytest.raises(DealError, match="drawn: card .* already in seat 1's hand"):
        game.deal_for_view(1, hand, counts, [], random.Random(0), drawn=[hand[0]])
    # seat 0 discards a card that seat 1 holds
    with pytest.raises(IllegalMoveError, match=r"moves\[0\]"):
        game.deal_for_view(1, hand, counts, [(0, R.TO_INT[hand[0]])], random.Random(0))
    # seat 1 draws but no drawn card is given
    with pytest.raises(DealError, match="drawn: 0 cards"):
        game.deal_for_view(
            1, hand, counts, [(0, R.TO_INT[st.deal.hands[0][0]]), (1, DRAW)], random.Random(0)
        )


def test_zones_and_known_cards():
    game, st = new_state(
        [
            "JH AS AD 3S 3C 5S 5C 7S 7D KD",
            "QH TH 9H 2S 5D 7C KS 4C 3H",
            "8S 8D 2C 4S 6S 6C 9S 9D JC",
            "2D 2H 4D 4H 6D 6H TD 8H KH",
        ]
    )
    play(st, "discard JH", "eat JH")
    z = st.zones()
    assert set(z) == {
        "hand0",
        "hand1",
        "hand2",
        "hand3",
        "stock",
        "set_aside",
        "discard0",
        "discard1",
        "discard2",
        "discard3",
        "table",
    }
    jh = 1 << parse_cards("JH")[0]
    assert z["hand1"] & jh and z["discard0"] == 0
    k = st.known_cards(2)
    assert k["hand1"] == jh and k["stock"] == 0 and k["hand2"] == z["hand2"]


# -- option scenarios ---------------------------------------------------------------------------
UTRON = [
    "AS AC 2S 4S 4C 6S 6C 8S 8C TS",
    "3S 3D 3C 7H 8H 9H JC QC KC",
    "2D 2H 4D 4H 6D 6H 8D TD JS",
    "5S 5C 7S 7C 9S 9C JD QD KD",
]


@pytest.mark.parametrize(
    "opts,per",
    [
        ({}, 5),
        ({"u_tron_enabled": True}, 10),
        ({"u_thong_enabled": True}, 5),
        ({"u_thong_enabled": True, "previous_u_winner": 1}, 7),
        ({"u_thong_enabled": True, "previous_u_winner": 2}, 5),
        ({"previous_u_winner": 1}, 5),
        ({"u_tron_enabled": True, "u_thong_enabled": True, "previous_u_winner": 1}, 12),
        ({"u_payment": 8}, 8),
    ],
)
def test_u_tron_and_u_thong(opts, per):
    game, st = new_state(UTRON, stock_top="TH", options=opts)
    play(st, "discard TS", "draw")
    assert st.is_terminal() and st.u_info[:2] == (1, "take")
    assert st.settlement() == [(0, 1, per), (2, 1, per), (3, 1, per)]


def test_u_thong_survives_a_game_record():
    """The previous Ù winner is an option, so a game record carries it (records have no field for
    Deal.extra) and the referee's replay pays the same Ù thông."""
    from quansu.games import record as rec

    opts = {"u_thong_enabled": True, "previous_u_winner": 1}
    game, st = new_state(UTRON, stock_top="TH", options=opts)
    play(st, "discard TS", "draw")
    r = rec.loads(rec.dumps(rec.record_from_state(st)))
    assert r["options"] == opts and set(r["deal"]) <= {"hands", "stock", "set_aside", "first"}
    again = rec.replay_record(r)
    assert again.settlement() == st.settlement() == [(0, 1, 7), (2, 1, 7), (3, 1, 7)]


DHT = [
    "AS AC 2S 4S 4C 6S 6C 8S 8C TS",
    "AH 2H 3H 4H 5H 6H 7H 8H 9H",
    "2D 2C 4D 3D 6D 5D 8D TD JS",
    "5S 5C 7S 7C 9S 9C JD QD KD",
]


@pytest.mark.parametrize(
    "drawn,opts,per",
    [
        # 9 hearts in phỏm + the drawn TH: all ten cards one suit and in phỏm (đồng hoa trắng)
        ("TH", {}, 5),
        ("TH", {"dong_hoa_trang_enabled": True}, 10),
        ("TH", {"dong_hoa_enabled": True}, 7),
        ("TH", {"dong_hoa_trang_enabled": True, "dong_hoa_enabled": True}, 12),
        (
            "TH",
            {"dong_hoa_trang_enabled": True, "u_tron_enabled": True},
            10,
        ),  # the largest, not both
        # the melds are all hearts but a trash card is left outside (and discarded): a plain Ù,
        # whatever the trash card's suit
        ("KS", {"dong_hoa_trang_enabled": True}, 5),
        ("KH", {"dong_hoa_trang_enabled": True}, 5),
        ("KS", {"dong_hoa_trang_enabled": True, "dong_hoa_enabled": True}, 7),
    ],
)
def test_dong_hoa_trang_and_dong_hoa_on_u(drawn, opts, per):
    game, st = new_state(DHT, stock_top=drawn, options=opts)
    play(st, "discard TS", "draw")
    assert st.is_terminal() and st.u_info[0] == 1
    assert st.settlement() == [(0, 1, per), (2, 1, per), (3, 1, per)]


def test_dong_hoa_at_a_normal_end():
    hands = [
        "AS AC 3S 3C 5S 5C 7S 7C 9S 9C",
        "AD 3D 5D 7D 9D AH 7H 9H JD",
        "2S 2C 4S 4C 6S 6C 8S 8C TS",
        "2H 3H 4H 5H 6H 2D 4D 8D TD",
    ]
    for on in (False, True):
        game, st = new_state(hands, stock_top="KH", options={"dong_hoa_enabled": on})
        run_until(st, lambda s: False)
        assert R.mask_text(st.table[0][1]) == "2H 3H 4H 5H 6H"
        bonus = [(0, 3, 2.0), (1, 3, 2.0), (2, 3, 2.0)] if on else []
        assert st.settlement() == [(0, 3, 4.0), (1, 3, 4.0), (2, 3, 4.0)] + bonus


def test_auto_declare_off_offers_u():
    game, st = new_state(UTRON, stock_top="TH", options={"auto_declare_u": False})
    play(st, "discard TS", "draw")
    assert not st.is_terminal() and "u" in legal_texts(st)
    declined = st.clone()
    play(declined, "discard TH")
    assert not declined.is_terminal()
    play(st, "u")
    assert st.is_terminal() and st.settlement() == [(0, 1, 5.0), (2, 1, 5.0), (3, 1, 5.0)]
    # Ù khan is offered at the start of the first turn
    hands = [
        "AD 2D 4D 5D 6D 8D 9D TD JD QD",
        "AS 4S 8S QS 2H 6H TH 3D 7C",
        "2S 2C 4C 4H 6C 6S 8C 8H TS",
        "3S 3C 5S 5C 7S 7D 9S 9C JS",
    ]
    game, st = new_state(hands, options={"auto_declare_u": False, "u_khan_payment": 7})
    play(st, "discard QD")
    assert legal_texts(st) == ["draw", "u"]
    play(st, "u")
    assert st.u_info[:2] == (1, "khan") and st.settlement() == [
        (0, 1, 7.0),
        (2, 1, 7.0),
        (3, 1, 7.0),
    ]


def test_first_player_u_at_the_deal_ends_the_game_at_once():
    hands = [
        "AS 4S 8S QS 2H 6H TH 3D 7C JD",
        "AD 2D 4D 5D 6D 8D 9D TD QD KS",
        "2S 2C 4C 4H 6C 6S 8C 8H TS",
        "3S 3C 5S 5C 7S 7D 9S 9C JS",
    ]
    hands[1] = "AD 2D 4D 5D 6D 8D 9D TD QD"
    game, st = new_state(hands)
    assert st.is_terminal() and st.u_info[:2] == (0, "khan") and st.legal_moves() == []
    assert st.returns() == [15.0, -5.0, -5.0, -5.0]


def test_one_eaten_card_per_meld_option_in_play():
    hands = [
        "7C 8D AS AD 3H 5S 9S JS KS TD",
        "5C 6C 9D QS QH 3S 3D KH 2H",
        "2S 2C 4S 4C 6S 6D 8S JC TS",
        "2D 4D 4H 6H 7D 7H 9H JD KD",
    ]
    for one, eats in ((True, False), (False, True)):
        game, st = new_state(hands, stock_top="AC TC 8C", options={"one_eaten_card_per_meld": one})
        play(st, "discard 7C", "eat 7C", "discard 2H")
        run_until(st, take_turn_of(1))
        assert st.last[0] == icard("8C")
        assert ("eat 8C" in legal_texts(st)) is eats


def test_chot_payment_add_mode():
    from tests.games.test_phom_examples import EX12

    hands, stock = EX12
    game, st = new_state(hands, stock_top=stock, options={"chot_payment_mode": "add"})
    run_until(
        st,
        lambda s: (
            s.cur == 2 and s.phase == TAKE and s.last is not None and s.last[0] == icard("2D")
        ),
    )
    play(st, "eat 2D")
    run_until(st, lambda s: s.cur == 2 and s.phase == TAKE and s.stock_left == 3)
    play(st, "eat 8H")
    assert st.pay == [(1, 2, 1), (1, 2, 6)]


def test_all_mom_no_winner_option_and_mom_payment():
    from tests.games.test_phom_examples import BASE4

    game, st = new_state(BASE4, options={"all_mom_first_layer_wins": False})
    run_until(st, lambda s: False)
    assert st.settlement() == [] and st.returns() == [0.0] * 4
    game, st = new_state(BASE4, options={"mom_payment": 6})
    run_until(st, lambda s: False)
    assert st.settlement() == [(1, 0, 6.0), (2, 0, 6.0), (3, 0, 6.0)]


TAI = [
    "AS AC 3S 3C 5S 5C 7S 7C 9S 9C",
    "AD AH 3H 5D 6D 7D 5H 7H 9D",
    "2S 2C 4S 4C 6S 6C 8S 8C TS",
    "JS 2H 4H 6H 8D QS TD KC KH",
]
TAI_STOCK = "3D TC TH JC 2D JD JH QC QD KS 9H 8H QH KD 4D"


@pytest.mark.parametrize("can_send", [True, False])
def test_tai_turn(can_send):
    game, st = new_state(TAI, stock_top=TAI_STOCK, options={"tai_turn_can_send": can_send})
    run_until(
        st,
        lambda s: (
            s.cur == 2 and s.phase == TAKE and s.last is not None and s.last[0] == icard("2D")
        ),
    )
    play(st, "eat 2D")
    run_until(st, lambda s: s.cur == 2 and s.phase == TAKE and s.stock_left == 3)
    assert st.laid == 0b0010 and st.last[0] == icard("8H")
    play(st, "eat 8H")
    assert legal_texts(st) == ["lay 2S 2C 2D / 8S 8C 8H"]
    play(st, "lay 2S 2C 2D / 8S 8C 8H")
    # in his lay-down turn a player sends only to other players' melds; with nothing to send
    # the send phase offers only the discards (there is no 'done')
    assert st.phase == SEND and "send 4S to 0" not in legal_texts(st)
    assert legal_texts(st) == ["discard 4C", "discard 4S", "discard 6C", "discard 6S"]
    run_until(st, lambda s: s.cur == 1 and s.phase == TAKE)
    assert st.stock_left == 1
    play(st, "draw")
    assert st.kind == 2 and st.tai >> 1 & 1 and st.phase == LAY
    assert legal_texts(st) == ["lay"]
    play(st, "lay")
    if can_send:
        assert st.phase == SEND
        # his own meld is allowed; each discard would end the sending and the turn
        assert legal_texts(st) == [
            "discard 3H",
            "discard 4D",
            "discard 5H",
            "discard 7H",
            "discard 9D",
            "discard AD",
            "discard AH",
            "send 4D to 0",
        ]
        play(st, "send 4D to 0")
        assert st.phase == SEND and "send 4D to 0" not in legal_texts(st)
        assert R.mask_text(st.table[0][1]) == "4D 5D 6D 7D"
    else:
        assert st.phase == DISCARD
    play(st, "discard AD")
    assert st.is_terminal()


def test_send_must_keep_a_card_and_melds_count_in_order():
    from tests.games.test_phom_examples import EX16, EX16_STOCK

    game, st = new_state(EX16, stock_top=EX16_STOCK, options={"send_all_counts_as_u": False})
    play(st, "discard 7C")
    run_until(st, lambda s: s.cur == 2 and s.phase == LAY)
    play(st, "lay 4S 5S 6S / 9S 9C 9D")
    assert set(legal_texts(st)) == {
        "send JH to 0",
        "send 3D to 1",
        "send KC to 2",
        "discard JH",
        "discard 3D",
        "discard KC",
        "discard 2S",
    }
    with pytest.raises(IllegalMoveError, match="does not extend meld 1"):
        play(st, "send JH to 1")
    with pytest.raises(IllegalMoveError, match="no meld 7"):
        play(st, "send JH to 7")
    play(st, "send JH to 0", "send 3D to 1", "send KC to 2")
    assert st.phase == DISCARD


@pytest.mark.parametrize("send_all,offered", [(True, True), (False, False)])
def test_u_after_sending_everything_without_auto_declaration(send_all, offered):
    from tests.games.test_phom_examples import EX16, EX16_STOCK

    game, st = new_state(
        EX16,
        stock_top=EX16_STOCK,
        options={"send_all_counts_as_u": send_all, "auto_declare_u": False},
    )
    play(st, "discard 7C")
    run_until(st, lambda s: s.cur == 2 and s.phase == LAY)
    assert "u" not in legal_texts(st)
    play(st, "lay 4S 5S 6S / 9S 9C 9D", "send JH to 0", "send 3D to 1")
    assert "u" not in legal_texts(st)
    play(st, "send KC to 2")
    assert ("u" in legal_texts(st)) is offered
    if offered:
        play(st, "u")
        assert st.u_info[:2] == (2, "send")
        assert st.settlement() == [(0, 2, 5.0), (1, 2, 5.0), (3, 2, 5.0)]


def test_a_discard_in_the_send_phase_ends_the_turn():
    """After a lay the sends are followed by the discard, which ends the sending and the turn;
    a discard can also come before any send (no 'done' move exists)."""
    from tests.games.test_phom_examples import EX16, EX16_STOCK

    game, st = new_state(EX16, stock_top=EX16_STOCK)
    play(st, "discard 7C")
    run_until(st, lambda s: s.cur == 2 and s.phase == LAY)
    play(st, "lay 4S 5S 6S / 9S 9C 9D", "send JH to 0")
    assert st.phase == SEND
    before = len(st.history)
    play(st, "discard KC")
    assert st.cur == 3 and st.phase == TAKE and len(st.history) == before + 1
    assert st.rows[2][-1] == icard("KC") and st.last[:2] == (icard("KC"), 2)
    assert st.hands[2].bit_count() == 2  # 3D and 2S stay in hand: the sending is over


def _old_dialect(obj: dict) -> tuple[dict, int]:
    """``obj`` with a former-dialect 'done' inserted after the first lay; its index."""
    k = next(i for i, m in enumerate(obj["moves"]) if m["move"].startswith("lay "))
    obj["moves"].insert(k + 1, {"seat": obj["moves"][k]["seat"], "move": "done"})
    return obj, k + 1


def test_old_dialect_done_is_refused_in_records_and_views():
    """A record or a view written with the project's former 'done' is refused, naming the move
    and what the protocol expects, never silently reinterpreted."""
    import copy
    import os

    from quansu.games import GameError
    from quansu.games import record as rec

    path = os.path.join(
        os.path.dirname(__file__), os.pardir, os.pardir, "docs", "examples", "phom.record.json"
    )
    record = rec.read_json(path)
    bad, k = _old_dialect(copy.deepcopy(record))
    with pytest.raises(
        GameError,
        match=rf'^moves\[{k}\]: "done" is not a Phỏm move: after '
        r"sending, the discard ends the turn",
    ):
        rec.replay_record(bad)
    view = rec.view_at(record, 1, len(record["moves"]) - 1)
    bad_view, k = _old_dialect(view)
    with pytest.raises(GameError, match=rf'^moves\[{k}\]: "done" is not a Phỏm move'):
        rec.replay_view(bad_view, random.Random(0))


def test_a_record_may_leave_out_the_set_aside_cards():
    """deal.set_aside is optional in a record: Phỏm takes the cards in no hand and not in the
    stock; a stock of the wrong size is still named."""
    from quansu.games import record as rec

    game = games.make("phom", 2)
    rng = random.Random(4)
    st = game.new_initial_state(rng)
    while not st.is_terminal():
        st.apply(game.heuristic_move(st, rng))
    r = rec.record_from_state(st)
    aside = r["deal"].pop("set_aside")
    again = rec.replay_record(r)
    assert again.returns() == st.returns()
    assert sorted(again.deal.set_aside) == sorted(parse_cards(" ".join(aside)))
    r["deal"]["stock"] = r["deal"]["stock"][:-1]
    with pytest.raises(DealError, match=r"deal.stock: 6 cards"):
        rec.replay_record(r)


def test_rules_doc_lists_every_option_with_its_default():
    """docs/rules/phom.md's option table names every option of the engine with its default."""
    import json
    import os
    import re

    path = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "docs", "rules", "phom.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert "shared/" not in text
    section = text.split("## 11. Options", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"^\| `([a-z0-9_]+)` \| `([^`]*)` \|", line)
        if m:
            rows[m.group(1)] = json.loads(m.group(2))
    specs = {o.name: o.default for o in games.make("phom", 4).option_specs}
    assert set(rows) == set(specs)
    for name, default in specs.items():
        doc = tuple(rows[name]) if isinstance(default, tuple) else rows[name]
        assert doc == default, f"docs/rules/phom.md: default of {name}"
