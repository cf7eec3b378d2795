"""Tấn sparring bot (games/tan/sparring.py): its decisions in card notation, that it uses only its
own seat's information, the mechanisms it rests on (history replay and beliefs, the exact
playout simulator, the sampled deals) and complete games under every option set."""

import dataclasses
import random

import pytest

from quansu.games import make
from quansu.games.cards import FULL_DECK, parse_mask
from quansu.games.tan import sparring as S
from quansu.games.tan.game import ATTACK, DEFEND, THROW
from tests.games.test_tan_engine import OPTION_SETS
from tests.games.test_tan_rules import full_deal, play, position

RULES_ONLY = dataclasses.replace(S.PARAMS, search=False)


def _pos(hands, trump, stock="", faceup=None, known=None):
    """``position`` after checking that no card is placed twice."""
    seen = 0
    for text in list(hands) + [stock, faceup or ""]:
        m = parse_mask(text)
        assert not seen & m, f"card placed twice: {text}"
        seen |= m
    return position(hands, trump, stock=stock, faceup=faceup, known=known)


def _moves(st, seeds=range(3)):
    """The bot's move (text) for a few seeds, and the move of its rules alone (no search)."""
    g = st.game
    full = {g.move_to_text(S.choose(g, st, random.Random(s))) for s in seeds}
    rules = g.move_to_text(S.choose(g, st, random.Random(0), RULES_ONLY))
    return full, rules


# -- decisions ---------------------------------------------------------------------------------


# The stock is empty and the defender (seat 1) holds cards that everybody knows (he picked them
# up).  A card he can beat lets him shed; with one or two cards left he would be out and win.  The
# bot attacks with a card he cannot beat, even a trump.
@pytest.mark.parametrize(
    "hand,defender,expected",
    [
        ("QS 9C 9H", "KS", "attack 9C"),  # KS beats only QS; 9C is the cheaper pair-free card
        ("3S 4S AC", "AS", "attack AC"),  # AS beats both spades: the ace of clubs it is
        ("7D 8C 9C", "6D", "attack 7D"),  # the 6 of trumps beats every plain card, not 7D
        ("QS 9C 3S", "KS AS", "attack 9C"),  # two cards: no spade
    ],
)
def test_attacks_with_a_card_the_defender_is_known_not_to_beat(hand, defender, expected):
    st = _pos([hand, defender, "5H 6H 7H", "JH 2S 2H"], "D", known=["", defender, "", ""])
    full, rules = _moves(st)
    assert full == {expected} and rules == expected


_LONG_STOCK = "2S 3S 4C 5S 6S 8S 9C TC JC QC KC AC 2H 3H"  # 14 cards + the face-up 4D


# Trump economy: early (a long stock, where the bot plays by its rules alone) it picks up a low
# plain card rather than spend a high trump on it; it beats with a cheap trump or a same-suit
# card.  With the stock nearly empty (two cards) every card picked up must be shed again, and the
# rules beat even with the ace of trumps (the full bot decides there by its search).
@pytest.mark.parametrize(
    "hand,stock,faceup,full,rules",
    [
        ("AD 4S 6H 7H 8H 9S TS JH", _LONG_STOCK, "4D", "take", "take"),
        ("KD 4S 6H 7H 8H 9S TS JH", _LONG_STOCK, "4D", "take", "take"),
        ("3D AD 4S 6H 7H 8H 9S TS", _LONG_STOCK, "4D", "defend 5C with 3D", "defend 5C with 3D"),
        ("7C AD 4S 6H 7H 8H 9S TS", _LONG_STOCK, "4D", "defend 5C with 7C", "defend 5C with 7C"),
        ("AD 4S 6H 7H 8H 9S TS JH", "2S", "4D", None, "defend 5C with AD"),
    ],
)
def test_takes_rather_than_spend_a_high_trump_early(hand, stock, faceup, full, rules):
    st = _pos(
        ["5C 2C 3C 4H 5H 6C 7S 9H", hand, "QH JS QS KS AS 8C 9D TD", "6D 7D 8D JD QD KH AH TH"],
        "D",
        stock=stock,
        faceup=faceup,
    )
    play(st, "attack 5C")
    got_full, got_rules = _moves(st)
    assert got_rules == rules
    if full is not None:
        assert st.stock_count() > S.PARAMS.search_stock and got_full == {full}


def test_never_feeds_a_defender_about_to_go_out():
    # the stock is empty; seat 1 beat 9C with JC and holds only AS (known): a thrown 9S would be
    # beaten by his last card and he would win
    st = _pos(["9C 9S 4H 5D", "JC AS", "5H 6H 7C", "8C 2S 3S"], "D", known=["", "JC AS", "", ""])
    play(st, "attack 9C", "defend 9C with JC")
    assert _moves(st) == ({"done"}, "done")


@pytest.mark.parametrize(
    "hands,moves,expected",
    [
        # the attacker throws his last card: out, he wins
        (
            ["9C 9S", "JC AS 3H", "5H 6H 7C", "8C 2S 3S"],
            ["attack 9C", "defend 9C with JC"],
            "throw 9S",
        ),
        # the defender beats with his last card: out, he wins
        (["9C 9S 3C", "JC", "5H 6H 7C", "8C 2S 3S"], ["attack 9C"], "defend 9C with JC"),
    ],
)
def test_plays_its_last_card_when_that_wins(hands, moves, expected):
    st = _pos(hands, "D")
    play(st, *moves)
    assert _moves(st) == ({expected}, expected)


def test_swap_decision():
    g = make("tan", 4)
    st = g.state_from_deal(full_deal(4, ["3H 5H", "", "", ""], "KH"))
    assert _moves(st) == ({"swap 3H"}, "swap 3H")  # the lowest trump for the face-up king
    g = make("tan", 4, {"trump_swap": "two_only"})
    st = g.state_from_deal(full_deal(4, ["2H", "", "", ""], "5H"))
    assert _moves(st) == ({"done"}, "done")  # a low card is not worth attacking last
    st = g.state_from_deal(full_deal(4, ["2H", "", "", ""], "QH"))
    assert _moves(st) == ({"swap 2H"}, "swap 2H")


# -- own information only ----------------------------------------------------------------------


def _positions(count, seed, players=4, options=None):
    """Positions with a choice from games of mixed bots (the sparring rules, heuristic, random)."""
    g = make("tan", players, options)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        st = g.new_initial_state(rng)
        kinds = [rng.choice("shr") for _ in range(players)]
        stop = rng.randrange(4, 120)
        while not st.is_terminal() and len(st.hist) < stop:
            k = kinds[st.current_player]
            if k == "s":
                mv = S.choose(g, st, rng, RULES_ONLY)
            elif k == "h":
                mv = g.heuristic_move(st, rng)
            else:
                mv = rng.choice(st.legal_moves())
            st.apply(mv)
        if not st.is_terminal() and len(st.legal_moves()) > 1:
            out.append(st)
    return out


def test_permuting_the_hidden_cards_does_not_change_the_move():
    rng = random.Random(1)
    for st in _positions(40, seed=2):
        seat = st.current_player
        move = S.choose(st.game, st, random.Random(7))
        for _ in range(3):
            other = st.determinize(seat, rng)  # the opponents' hidden cards and the stock redealt
            assert other.hands[seat] == st.hands[seat]
            assert S.choose(other.game, other, random.Random(7)) == move


# -- mechanisms -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_history_replay_reproduces_sizes_and_beliefs_hold_for_careful_players(players):
    """The replay of the public history gives every hand size and the stock; every belief (a
    card an opponent is believed not to hold) is true of the heuristic club player."""
    g = make("tan", players)
    rng = random.Random(players)
    checked = beliefs = 0
    for _ in range(25):
        st = g.new_initial_state(rng)
        while not st.is_terminal():
            if st.phase in (ATTACK, DEFEND, THROW) and st.hist:
                ctx = S._Ctx(st, S.PARAMS)
                counts, stock, _ = S._replay(st, ctx)
                assert counts == [h.bit_count() for h in st.hands]
                assert stock == st.stock_count()
                for o in range(players):
                    if o != ctx.seat:
                        assert not ctx.nobeat[o] & st.hands[o] & ~st.known[o]
                        beliefs += ctx.nobeat[o].bit_count()
                checked += 1
            st.apply(g.heuristic_move(st, rng))
    assert checked > 500 and beliefs > 3 * checked  # beliefs are no rarity


@pytest.mark.parametrize(
    "players,options",
    [
        (4, {}),
        (3, {"defender_empty": "end_bout"}),
        (2, {}),
        (4, {"direction": "clockwise", "refill_order": "attacker_then_play_order_defender_last"}),
        (4, {"trump_swap": "none", "defender_empty": "end_bout"}),
    ],
)
def test_playout_simulator_plays_exactly_the_heuristic_game(players, options):
    """``_playout`` (the search's fast simulator) ends every position with the same winner as
    the engine with the heuristic bot in every seat, from the stock phase to the end."""
    g = make("tan", players, options)
    rng = random.Random(11)
    compared = 0
    for _ in range(30):
        st = g.new_initial_state(rng)
        while not st.is_terminal():
            if st.phase in (ATTACK, DEFEND, THROW) and rng.random() < 0.15:
                ref = st.clone()
                while not ref.is_terminal():
                    ref.apply(g.heuristic_move(ref, rng))
                pay = ref.returns()
                winner = pay.index(max(pay)) if max(pay) > 0 else -1
                got = S._playout(
                    list(st.hands),
                    st.trump,
                    g,
                    st.attacker,
                    st.defender,
                    st.phase,
                    st.cur,
                    st.table,
                    st.tranks,
                    st.uncovered,
                    st.pointer,
                    st.passes,
                    st.stock[st.sp :],
                    st.faceup,
                    -2,
                    limit=2000,
                )
                assert got == winner
                compared += 1
            st.apply(g.heuristic_move(st, rng))
    assert compared > 100


def test_sampled_deals_fit_the_seat_information():
    for st in _positions(30, seed=5):
        ctx = S._Ctx(st, S.PARAMS)
        hands, stock = S._sample_world(ctx, random.Random(3))
        seat = ctx.seat
        assert hands[seat] == st.hands[seat]
        placed = st.table | st.discard | (1 << st.faceup if st.faceup >= 0 else 0)
        for o in range(st.n):
            assert hands[o].bit_count() == st.hands[o].bit_count()
            assert hands[o] & st.known[o] == st.known[o]  # publicly located cards stay
            assert not placed & hands[o]
            placed |= hands[o]
        assert len(stock) == len(st.stock) - st.sp
        for c in stock:
            assert not placed >> c & 1
            placed |= 1 << c
        assert placed == FULL_DECK


# -- complete games ----------------------------------------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_sparring_plays_complete_games(players, options):
    g = make("tan", players, options)
    rng = random.Random(players)
    for _ in range(2):
        st = g.new_initial_state(rng)
        while not st.is_terminal():
            st.apply(g.sparring_move(st, rng))  # checked apply: an illegal move would raise
        assert abs(sum(st.returns())) < 1e-9


def test_sparring_beats_the_heuristic():
    """A small fixed-seed arena (the full measurement: 200 deals, docs in the report)."""
    from quansu.search.arena import run_arena

    res = run_arena(
        make("tan", 4), ["sparring", "heuristic", "heuristic", "heuristic"], 12, seed=3, workers=1
    )
    sparring = next(s for s in res.stats if s.bot == "sparring")
    assert sparring.payoff > 0.3
