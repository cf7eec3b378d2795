"""The Tiến lên sparring bot (games/tienlen/sparring.py): positions in card notation, and the
rule that it reads only its own seat's information."""

import dataclasses
import random

import pytest

from quansu import games
from quansu.games.cards import format_cards, parse_mask
from quansu.games.tienlen import rules as R
from quansu.games.tienlen import sparring as S
from quansu.games.tienlen.testing import position
from quansu.search.bots import SparringBot, make_bot

M = parse_mask


def tl(**options):
    return games.make("tienlen", 4, options)


def pos(hands, to_act, top="", owner=None, passed=(), finished=(), game=None, history=None):
    """A position with every seat's hand written out (the other cards count as played)."""
    game = game or tl()
    st = position(
        game, hands, to_act=to_act, top=top, owner=owner, passed=passed, finished=finished
    )
    if history is not None:
        st._hist = list(history)
    return st


def move_text(game, st):
    m = game.sparring_move(st, random.Random(0))
    assert m in st.legal_moves()
    return game.move_to_text(m)


# (what it shows, hands of seats 0..3, seat to act, top, owner, finished, the moves expected or
# "not X": any move but X)
CASES = [
    (
        "chops a 2 with a four of a kind",
        [
            "3S 4D 6H 8C TC JC QC KS",
            "9S 9C 9D 9H 7C",
            "3D 5S 8D JD QD KD AC",
            "4C 5C 6C 7D TD JH QH AH",
        ],
        1,
        "2H",
        0,
        (),
        {"9S 9C 9D 9H"},
    ),
    (
        "does not lead its boss 2 first",
        [
            "4C 7D 9S 2H",
            "3S 5D 6H 8C TC JC QC KS",
            "3D 5S 8D JD QD KD AC",
            "4D 5C 6C 7S TD JH QH AH",
        ],
        0,
        "",
        None,
        (),
        {"4C"},
    ),
    (
        "does not spend its 2 on a low single early",
        [
            "5C 5D 7S 7H 8S 8C TD TH JC QS QD KH 2H",
            "3S 3C 4D 6H 9C TC JS QC KS 2S 2C",
            "3D 4C 5S 6C 8D 9D JD QH KD AC AD",
            "3H 4H 5H 6D 7C 8H 9H TS JH AH 2D",
        ],
        0,
        "4S",
        3,
        (),
        "not 2H",
    ),
    (
        "leads its bosses, then its last card: out whatever the others hold",
        ["KH 2H 4C", "5D 6D", "9S TS", "JC QC"],
        0,
        "",
        None,
        (),
        {"KH", "2H"},
    ),
    (
        "blocks the next seat on its last card: no single under its card",
        ["4C 4D 7S", "KD", "3D 5S 8D JD QD AC", "6C 9H TH JH QH"],
        0,
        "",
        None,
        (),
        {"4C 4D"},
    ),
    (
        "beats with a sure boss when the rest goes out after it",
        ["5D 6D 9S", "2H 8C 8D", "TS QS", "JC KC"],
        1,
        "AH",
        0,
        (),
        {"2H"},
    ),
]


@pytest.mark.parametrize(
    "what,hands,to_act,top,owner,finished,expected", CASES, ids=[c[0] for c in CASES]
)
def test_positions(what, hands, to_act, top, owner, finished, expected):
    game = tl()
    st = pos(hands, to_act, top, owner, finished=finished, game=game)
    got = move_text(game, st)
    if isinstance(expected, str):
        assert got != expected[4:], what
    else:
        assert got in expected, what


def test_guaranteed_finish_ends_dut_mu():
    """Holding two bosses and 3♠ before anyone finished: the bosses go first and 3♠ last, which
    ends the game đút mù (every other seat loses)."""
    game = tl()
    st = pos(["KH 2H 3S", "5D 6D", "9S TS", "JC QC"], 0, game=game)
    plays = []
    while not st.is_terminal():
        seat = st.current_player
        if seat == 0:
            m = game.sparring_move(st, random.Random(0))
            plays.append(game.move_to_text(m))
        else:
            assert st.legal_moves() == [0] or st.top == 0
            m = 0 if st.top else st.legal_moves()[0]
        st.apply(m)
        if plays and plays[-1] == "3S":
            break
    assert plays[:2] in (["KH", "2H"], ["2H", "KH"]) and plays[2] == "3S"
    assert st.end == "dut_mu"
    assert st.returns()[0] == pytest.approx(3.0)  # each opponent pays 1, no thối


def test_keeps_3s_for_the_end():
    """With nobody out yet it does not lead 3♠ while it can lead something else."""
    game = tl()
    st = pos(
        ["3S 6D 9C JH QD", "4S 5D 6H 8C TC JC QC KS", "3D 5S 8D JD KD AC", "4D 5C 6C 7S TD QH AH"],
        0,
        game=game,
    )
    assert "3S" not in move_text(game, st).split()


def _minimax(st, me):
    if st.is_terminal():
        return st.returns()[me]
    vals = []
    for m in st.legal_moves():
        c = st.clone()
        c.apply(m)
        vals.append(_minimax(c, me))
    return max(vals) if st.current_player == me else min(vals)


@pytest.mark.parametrize(
    "mine,his", [("5D 7S QS", "5S 6D KC"), ("7C JS KC", "3D 8S KD"), ("9S QS 2C", "5S 9H 2D")]
)
def test_exact_two_seat_endgame(mine, his):
    """Two seats left and the last opponent holds every unseen card: the move is the best by
    minimax (leading the lowest single, the plan's choice, loses these)."""
    game = tl()
    st = pos([mine, his, "", ""], 0, finished=(2, 3), game=game)
    world = st.determinize(0, random.Random(0))  # the only world

    def value(m):
        c = world.clone()
        c.apply(m)
        return _minimax(c, 0)

    best = max(value(m) for m in st.legal_moves())
    assert value(game.sparring_move(st, random.Random(0))) == best
    plain = S.choose(game, st, params=dataclasses.replace(S.PARAMS, solve_nodes=0))
    assert value(plain) < best


def test_two_seat_solver_is_exact_on_random_endgames():
    """On small two-seat endgames of random games (at most 8 cards in the two hands), the
    solver's move (whatever move it is told to prefer) is worth the minimax value, and the
    solver leaves no reference cycle behind (it is an object, not a recursive closure)."""
    import gc

    game = games.make("tienlen", 2)
    rng = random.Random(11)
    checked = 0
    while checked < 25:
        st = game.new_initial_state(rng)
        while not st.is_terminal() and sum(h.bit_count() for h in st.hands) > 8:
            st.apply(rng.choice(st.legal_moves()))
        if st.is_terminal() or len(st.legal_moves()) < 2:
            continue
        me = st.current_player
        legal = st.legal_moves()
        world = st.determinize(me, random.Random(0))

        def value(m):
            c = world.clone()
            c.apply(m)
            return _minimax(c, me)

        best = max(value(m) for m in legal)
        gc.collect()
        gc.disable()
        try:
            got = S._solve_two(st, me, legal, legal[-1], 100_000)
            assert gc.collect() == 0
        finally:
            gc.enable()
        assert got is not None and value(got) == best
        checked += 1


def test_pass_records_replay_the_table():
    """The public history is replayed into voluntary passes (shape, top, cards then held)."""
    game = tl()
    st = game.new_initial_state(random.Random(3))
    bots = [make_bot("heuristic", seed=s) for s in range(4)]
    while not st.is_terminal() and len(st.history) < 40:
        st.apply(bots[st.current_player].choose(st, st.current_player))
    recs = S._pass_records(game, st.history, [h.bit_count() for h in st.hands])
    # every recorded pass was made facing a top, and the counts only go down
    counts = [13] * 4
    n_pass = 0
    for seat, move in st.history:
        counts[seat] -= move.bit_count()
        n_pass += move == 0
    assert sum(len(r) for r in recs) <= n_pass
    for seat, rec in enumerate(recs):
        assert all(top and R.shape_of(top) == sh for sh, top, _ in rec)
        held = [c for _, _, c in rec]
        assert held == sorted(held, reverse=True)
        assert all(c >= counts[seat] for c in held)


def test_pass_on_last_card_is_a_hard_fact():
    """A seat that passed on a single while holding one card cannot beat that single (it would
    have gone out): a single at or above it is a sure boss against that seat."""
    game = tl()
    st = pos(
        ["4C 9D", "5S", "3D 6S 8D JD", "6C TH JH QH"],
        0,
        game=game,
        history=[(2, M("3C")), (3, M("7C")), (1, 0), (0, M("8C"))],
    )
    ctx = S._Ctx(game, st, S.PARAMS)
    assert ctx.passes[1] == [(R.SINGLE, M("7C"), 1)]
    assert ctx.beat_p(1, M("9D"), R.SINGLE) == 0.0
    assert ctx.beat_p(1, M("4C"), R.SINGLE) > 0.0


def test_plan_splits_into_few_combinations():
    """A straight, a triple, a pair and a 2: no card left over."""
    game = tl()
    st = pos(
        [
            "3S 4D 5C 6H 7S 9C 9D 9H JS JH 2D",
            "3D 5S 8D AD 2S QD",
            "4S 5D 6D 8S TS AH 2H",
            "3H 4H 5H 6S AS KD",
        ],
        0,
        game=game,
    )
    ctx = S._Ctx(game, st, S.PARAMS)
    _, combos = ctx.plan(st.hands[0])
    got = sorted(format_cards(m) for m, _ in combos)
    assert got == sorted(["3S 4D 5C 6H 7S", "9C 9D 9H", "JS JH", "2D"])
    # the combos cover the hand exactly once
    total = 0
    for m, shape in combos:
        assert R.classify(m) == shape and not total & m
        total |= m
    assert total == st.hands[0]


def _mid_game(seed: int, plies: int):
    """A game between heuristic bots cut after ``plies`` moves (the first deal from ``seed``
    on that lasts that long)."""
    game = tl()
    for k in range(20):
        st = game.new_initial_state(random.Random(seed * 100 + k))
        bots = [make_bot("heuristic", seed=seed * 4 + s) for s in range(4)]
        while not st.is_terminal() and len(st.history) < plies:
            st.apply(bots[st.current_player].choose(st, st.current_player))
        if not st.is_terminal():
            return game, st
    raise AssertionError("no deal lasts that long")


@pytest.mark.parametrize("seed", range(12))
def test_reads_only_its_own_seat(seed):
    """Redealing the cards the seat to act cannot see (same counts, same public history)
    never changes its move."""
    game, st = _mid_game(seed, 4 + 3 * seed)
    me = st.current_player
    want = game.sparring_move(st, random.Random(0))
    rng = random.Random(seed)
    for _ in range(6):
        world = st.determinize(me, rng)
        assert world.hands[me] == st.hands[me]
        assert game.sparring_move(world, random.Random(1)) == want


def test_plays_legal_full_games_with_every_player_count():
    for n in (2, 3, 4):
        game = games.make("tienlen", n)
        for seed in range(3):
            st = game.new_initial_state(random.Random(seed))
            bots = [
                SparringBot(seed=s) if s % 2 == 0 else make_bot("heuristic", seed=s)
                for s in range(n)
            ]
            steps = 0
            while not st.is_terminal():
                seat = st.current_player
                m = bots[seat].choose(st, seat)
                assert m in st.legal_moves()
                st.apply(m)
                steps += 1
                assert steps <= game.max_moves
            assert abs(sum(st.returns())) < 1e-9


def test_other_options_and_first_lead_rule():
    game = games.make(
        "tienlen",
        4,
        {
            "first_lead_requires_3_spades": True,
            "settlement_mode": "count",
            "four_of_a_kind_chops_pair_of_twos": False,
            "chop_chain_last_victim_pays_all": False,
        },
    )
    for seed in range(3):
        st = game.new_initial_state(random.Random(seed))
        while not st.is_terminal():
            m = game.sparring_move(st, random.Random(0))
            assert m in st.legal_moves()
            st.apply(m)


def test_make_bot_and_base_fallback():
    assert make_bot("sparring").name == "sparring"
    with pytest.raises(Exception):
        make_bot("sparring:x=1")

    from quansu.games.base import Game

    calls = []

    class Fake(Game):
        name = "fake"
        min_players = max_players = 2
        option_specs = ()

        def heuristic_move(self, state, rng):
            calls.append(state)
            return 7

    assert Fake(2).sparring_move("st", random.Random(0)) == 7 and calls == ["st"]
