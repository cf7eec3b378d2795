"""The Phỏm sparring bot (games/phom/sparring.py, issue 19 item 1): positions in card notation
played through the engine from deals (tests/games/test_phom_helpers.py), and the bot's choice.

Every position is reached by legal moves, so the public record (discards, eats, passes) is the
one the bot reads.  Seat 0 is the first player (10 cards); seat 1 is seat 0's next seat.
"""

from __future__ import annotations

import random

import pytest

from quansu import games
from quansu.games.phom import rules as R
from quansu.games.phom import sparring as SP
from quansu.games.phom.game import DISCARD, LAY, SEND, TAKE, U
from quansu.games.phom.heuristic import heuristic_move
from tests.games.test_phom_helpers import icard, imask, new_state, play, run_until


def _bot(state) -> str:
    mv = state.game.sparring_move(state, random.Random(0))
    assert mv in state.legal_moves()
    return state.game.move_to_text(mv)


def _position(hands, stock_top, moves, options=None):
    game, st = new_state(hands, stock_top, options=options)
    play(st, *moves)
    return st


# -- discards --------------------------------------------------------------------------------------
# (name, hands, stock top, moves to reach seat 0's discard, options, bad discards, good discards)
DISCARDS = [
    # JD: every phỏm through it is dead (TD QD JS JC seen); KH: four live pairs.  Points alone
    # would throw KH (13 > 11).
    (
        "discards the card the next seat cannot eat, not the higher one it may eat",
        [
            "AS 2S 3S 5C 6C 7C JD KH 8H QD",
            "TD 2C 2H 4D 4H 6H 6S TS 9C",
            "JS 3C 3D 5D 5H 8S 8C 9S TC",
            "JC 4S 5S 7S 7D AD AH KS QS",
        ],
        "2D 3H 9H 8D",
        ["discard QD", "draw", "discard TD", "draw", "discard JS", "draw", "discard JC", "draw"],
        None,
        {"discard KH"},
        {"discard JD"},
    ),
    # one eaten card per phỏm off: seat 1 ate 7H, and with 6H, 7S, 7C in seat 0's hand its only
    # possible partners are 8H 9H: TH (and 6H) would be eaten into 7H 8H 9H.
    (
        "does not discard a card the next seat can eat into the phỏm of its eaten card",
        [
            "6H 7S 7C 7H TH KS KC KD 2D 3D",
            "8H 9H 2S 2C 5D 5C JS JD QC",
            "AS AC 3S 3C 9S 9C JC QS QD",
            "AD AH 4D 4C 8S 8C TS TC QH",
        ],
        "4H 5H 4S",
        ["discard 7H", "eat 7H", "discard QC", "draw", "discard QD", "draw", "discard QH", "draw"],
        {"one_eaten_card_per_meld": False},
        {"discard TH", "discard 6H"},
        None,
    ),
    # seat 1 has eaten twice (5H, 9D): a third eat is its Ù, paid by seat 0 alone (đền).  2D has
    # no live phỏm (3D 2C seen, 2S in hand); KD, 7S, 6H have some.  The old heuristic throws KD.
    (
        "gives no third eat: discards the one card the next seat cannot eat",
        [
            "5H 9D AS 2S 3S JC QC KC 2D KD",
            "5S 5C 9S 9C 2C 6D 8C TS TH",
            "3D 4S 4C 6S 6C 8S 8D TC QS",
            "AH 3C 3H 4D 7C 7D JS JH QH",
        ],
        "4H 9H 7S 2H 8H 6H",
        [
            "discard 5H",
            "eat 5H",
            "discard 2C",
            "draw",
            "discard 3D",
            "draw",
            "discard JS",
            "draw",
            "discard 9D",
            "eat 9D",
            "discard 8C",
            "draw",
            "discard QS",
            "draw",
            "discard QH",
            "draw",
        ],
        None,
        {"discard KD", "discard 7S", "discard 6H"},
        {"discard 2D"},
    ),
    # 4C 4D: both 4S and 4H were discarded (dead cạ); JH QH: TH and KH unseen (live cạ).
    # Points alone would throw QH.
    (
        "keeps the cạ with live cards and breaks the one whose cards are all dead",
        [
            "AS 2S 3S 9C 9D 9H 4C 4D JH 7S",
            "4S 2C 2H 5D 5H 6S 6D TS TC",
            "4H 3C 3D 7D 7H 8S 8C JS JC",
            "KS KC 5C 6C 8D 8H TD QS QC",
        ],
        "AC AD 2D QH",
        ["discard 7S", "draw", "discard 4S", "draw", "discard 4H", "draw", "discard KS", "draw"],
        None,
        {"discard QH", "discard JH"},
        {"discard 4C", "discard 4D"},
    ),
]


@pytest.mark.parametrize(
    "name,hands,stock_top,moves,options,bad,good", DISCARDS, ids=[d[0] for d in DISCARDS]
)
def test_discard_choice(name, hands, stock_top, moves, options, bad, good):
    st = _position(hands, stock_top, moves, options)
    assert st.cur == 0 and st.phase == DISCARD
    got = _bot(st)
    assert got not in bad, name
    if good is not None:
        assert got in good, (name, got)


def test_the_dangerous_card_is_seen_as_dangerous():
    """The danger behind the first two rows: the eat chance the bot gives each card."""
    st = _position(*DISCARDS[0][1:5])
    ctx = SP._Ctx(st.game, st, SP.PARAMS)
    assert ctx.eat_chance(icard("JD")) == 0.0
    assert ctx.eat_chance(icard("KH")) > 0.1
    st = _position(*DISCARDS[1][1:5])
    ctx = SP._Ctx(st.game, st, SP.PARAMS)
    assert ctx.eat_chance(icard("TH")) > 0.99
    assert ctx.eat_chance(icard("TH")) > 5 * ctx.eat_chance(icard("2D"))


def test_a_pass_rules_out_the_pairs_of_the_passed_card():
    """Seat 1 drew instead of eating 7S: it held no 7C 7D then, so 7H is safer than before the
    pass (its other pairs are unchanged)."""
    hands = [
        "7S 7H AS 2S 3S 9C 9D 9H KD QC",
        "2C 2H 5D 5H 6S 6D TS TC JD",
        "3C 3D 4S 4H 8S 8C JS JC QS",
        "4C 4D 5C 6C 8D 8H TD KS KC",
    ]
    before = _position(hands, "AD AH 2D", ["discard QC"])
    after = _position(hands, "AD AH 2D", ["discard 7S"])
    play(before, "draw", "discard 2C", "draw", "discard 3C", "draw", "discard 4C", "draw")
    play(after, "draw", "discard 2C", "draw", "discard 3C", "draw", "discard 4C", "draw")
    cb = SP._Ctx(before.game, before, SP.PARAMS)
    ca = SP._Ctx(after.game, after, SP.PARAMS)
    pair = imask("7C 7D")
    assert pair in ca.excl and ca.excl[pair] < 0.5 and pair not in cb.excl
    # 7H's other phỏm: 5H 6H, 6H 8H (6H unseen, 8H with seat 3) and sets with 7C 7D
    assert ca.eat_chance(icard("7H")) < cb.eat_chance(icard("7H"))


def test_third_eat_costs_the_whole_u():
    """A next seat with two eats would go out on a third (đền: the victim pays it all)."""
    st = _position(*DISCARDS[0][1:5])
    ctx = SP._Ctx(st.game, st, SP.PARAMS)
    base = ctx.eat_cost()
    st.eats[1] = 2
    ctx = SP._Ctx(st.game, st, SP.PARAMS)
    assert ctx.eat_cost() >= base + 3 * st.game.options["u_payment"]


# -- takes -----------------------------------------------------------------------------------------
# (hands, seat 0's opening discard, the eat seat 1 must choose)
EATS = [
    (
        [
            "AS 2S 3S 5C 6C 7C JD KH 8H 5H",
            "5S 5D 2C 2H 6S 6D TS TC JC",
            "JS 3C 3D 4D 4H 8S 8C 9S QC",
            "AD AH 4S 7S 7D 9C 9D QS QD",
        ],
        "discard 5H",
        "eat 5H",
    ),
    (
        [
            "AS 2S 3S 5C 6C 7C JD KH 8H TD",
            "9D JH 2C 2H 6S 6D TS TC JC",
            "JS 3C 3D 4D 4H 8S 8C 9S QC",
            "AD AH 4S 7S QH 9C QD QS 7D",
        ],
        "discard TD",
        "eat TD",
    ),
    (
        [
            "AS 2S 3S 5C 6C 7C JD KH 8H 4D",
            "2D 3D 2C 2H 6S 6D TS TC JC",
            "JS 3C 9D 5D 4H 8S 8C 9S QC",
            "AD AH 4S 7S QH 9C QD QS 7D",
        ],
        "discard 4D",
        "eat 4D",
    ),
]


@pytest.mark.parametrize("hands,discard,eat", EATS)
def test_eats_a_card_that_completes_a_phom(hands, discard, eat):
    st = _position(hands, "", [discard])
    assert st.cur == 1 and st.phase == TAKE
    assert _bot(st) == eat


def test_draws_when_no_eat_is_legal():
    st = _position(EATS[0][0], "", ["discard KH"])
    assert _bot(st) == "draw"


# -- lay and send ----------------------------------------------------------------------------------
EX16 = [
    "8H 9H TH AS AC 2D 4C 5H 6D 7C",
    "3C 3S 3H TC JC QC AD 5C 7D",
    "4S 5S 6S 9C 9D 9S JH 3D KC",
    "2C 2H 4D 4H 6C 6H 8C 8D TD",
]
EX16_STOCK = "5D 7S 7H 8S TS JS JD QD QH KD KH QS KS 2S AH"


def test_lays_and_sends_everything_for_u():
    """Seat 2's lay-down (docs/rules/phom.md example): laying both phỏm and sending JH, 3D, KC
    leaves one card: Ù (gửi hết)."""
    game, st = new_state(EX16, stock_top=EX16_STOCK)
    play(st, "discard 7C")
    run_until(st, lambda s: s.cur == 2 and s.phase == LAY)
    assert _bot(st) == "lay 4S 5S 6S / 9S 9C 9D"
    play(st, "lay 4S 5S 6S / 9S 9C 9D")
    for _ in range(3):
        assert st.phase == SEND and _bot(st).startswith("send ")
        st.apply(game.sparring_move(st, random.Random(0)))
    assert st.is_terminal() and st.u_info[:2] == (2, "send")


def test_never_lays_nothing_when_a_phom_is_possible():
    game = games.make("phom", 4)
    rng = random.Random(5)
    seen = 0
    for _ in range(40):
        st = game.new_initial_state(rng)
        while not st.is_terminal():
            if (
                st.phase == LAY
                and st.kind != 2
                and any(type(m) is tuple and m for m in st.legal_moves())
            ):
                mv = game.sparring_move(st, rng)
                assert mv != (), R.mask_text(st.hands[st.cur])
                seen += 1
                st.apply(mv)
                continue
            st.apply(heuristic_move(st, rng))
    assert seen > 20


# -- information -----------------------------------------------------------------------------------


def _hidden_permutations(game, st, rng, k):
    """States with the same public record and the acting seat's hand, the other hidden cards
    redrawn (determinizations from the acting seat)."""
    me = st.cur
    for _ in range(k):
        d = st.determinize(me, rng)
        assert d.hands[me] == st.hands[me] and d.rows == st.rows and d.hist == st.hist
        yield d


@pytest.mark.parametrize("players", [2, 3, 4])
def test_permuting_the_opponents_hidden_cards_does_not_change_the_move(players):
    game = games.make("phom", players)
    rng = random.Random(11 + players)
    checked = differ = 0
    for _ in range(12):
        st = game.new_initial_state(rng)
        while not st.is_terminal():
            if len(st.legal_moves()) > 1:
                mv = game.sparring_move(st, rng)
                for d in _hidden_permutations(game, st, rng, 2):
                    differ += d.hands != st.hands
                    assert game.sparring_move(d, rng) == mv
                checked += 1
            st.apply(game.sparring_move(st, rng) if st.cur % 2 else heuristic_move(st, rng))
    assert checked > 100 and differ > checked


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"one_eaten_card_per_meld": False},
        {"auto_declare_u": False},
        {"tai_turn_can_send": False, "send_all_counts_as_u": False},
        {"ca_k_enabled": True},
    ],
)
@pytest.mark.parametrize("players", [2, 4])
def test_plays_legal_moves_to_the_end(players, options):
    game = games.make("phom", players, options)
    rng = random.Random(3)
    for _ in range(15):
        st = game.new_initial_state(rng)
        while not st.is_terminal():
            mv = game.sparring_move(st, rng)
            legal = st.legal_moves()
            assert mv in legal
            if U in legal:
                assert mv == U
            st.apply(mv)


def test_is_deterministic_and_ignores_the_rng():
    game = games.make("phom", 4)
    st = game.new_initial_state(random.Random(9))
    while not st.is_terminal():
        a = game.sparring_move(st, random.Random(1))
        assert game.sparring_move(st, random.Random(2)) == a
        st.apply(a)


# -- the valuation's shortcuts ----------------------------------------------------------------------


def test_the_u_chance_shortcut_skips_only_cards_that_make_no_u():
    """``u_chance`` skips a card u when two cards of the hand lie in no phỏm and not in cạ with
    u: R.can_u says no Ù for every such card (hands of 2 to 9 cards, with and without eaten
    cards, both eaten-card rules)."""
    rng = random.Random(7)
    skipped = 0
    for _ in range(3000):
        h = 0
        for x in rng.sample(range(52), rng.randint(2, 9)):
            h |= 1 << x
        melded = R.meldable(h)
        e = 0
        if melded and rng.random() < 0.5:
            e = 1 << rng.choice(R.bits(melded))
        free = h & ~melded
        for u in R.bits(R.FULL & ~h):
            if (free & ~SP._CA[u]).bit_count() > 1:
                skipped += 1
                for one in (True, False):
                    assert not R.can_u(h | (1 << u), e, one), (R.bits(h), u, e, one)
    assert skipped > 10_000


@pytest.mark.skipif(
    not hasattr(SP, "_PTS"), reason="compiled: the helpers are C functions and C arrays"
)
def test_the_card_loops_helpers():
    """``_low`` (the lowest card of a mask) and ``_pop`` (its card count), and the C tables'
    lists: the same answers as the int methods and the tables they are built from."""
    rng = random.Random(3)
    for _ in range(500):
        m = rng.getrandbits(52) | 1 << rng.randrange(52)
        assert SP._low(m) == (m & -m).bit_length() - 1
        assert SP._pop(m) == m.bit_count()
    assert SP._PTS == list(R.POINTS) and SP._CA64 == list(SP._CA)
    for x in range(52):
        for y in range(52):
            pair = (1 << x) | (1 << y)
            want = SP._OUTS.get(pair, 0) if x != y else 0
            assert SP._OUTS2[52 * x + y] == want
