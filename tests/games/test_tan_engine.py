"""Tấn engine: brute-force move generation, conformance, hidden information, views, bots."""

import random

import pytest

from quansu.games import DealError, IllegalMoveError, make
from quansu.games.cards import card_str
from quansu.games.tan import rules as R
from quansu.games.tan.game import ATTACK, DEFEND, SETUP, THROW
from tests.helpers.option_sets import TAN_OPTION_SETS as OPTION_SETS

ORDER = "23456789TJQKA"


def _value(card):
    return ORDER.index(card_str(card)[0])


def _brute_legal(st):
    """Legal move texts from first principles (card text, no engine tables)."""
    g = st.game
    seat = st.current_player
    hand = [c for c in range(52) if st.hands[seat] >> c & 1]
    trump = st.trump
    swaps_done = {s for s, m in st.history if g.move_to_text(m).startswith("swap")}
    faceup_cards = [c for c in range(52) if st.known_cards(seat)["stock"] >> c & 1]
    mode = g.options["trump_swap"]

    def swaps():
        if mode == "none" or not faceup_cards or seat in swaps_done:
            return set()
        f = faceup_cards[0]
        if mode == "any_lower":
            ok = [c for c in hand if c & 3 == trump and _value(c) < _value(f)]
        else:
            ok = [c for c in hand if c & 3 == trump and card_str(c)[0] == "2"]
        return {"swap " + card_str(c) for c in ok}

    def beats(a, d):
        if d & 3 == a & 3:
            return _value(d) > _value(a)
        return d & 3 == trump

    out = set()
    if st.phase == SETUP:
        return swaps() | {"done"}
    if st.phase == ATTACK:
        out = {"attack " + card_str(c) for c in hand}
    elif st.phase == DEFEND:
        a = st.uncovered
        out = {f"defend {card_str(a)} with {card_str(d)}" for d in hand if beats(a, d)} | {"take"}
    elif st.phase == THROW:
        assert st.hands[st.defender], "a throw-in at a defender without cards"
        ranks = {card_str(c)[0] for c in range(52) if st.table >> c & 1}
        out = {"throw " + card_str(c) for c in hand if card_str(c)[0] in ranks} | {"done"}
    if g.options["swap_timing"] == "while_in_stock":
        out |= swaps()
    return out


def _universe(st):
    """Every move code that could conceivably be tried now."""
    ms = list(range(52)) + [R.THROW_BASE + c for c in range(52)]
    ms += [R.SWAP_BASE + c for c in range(52)] + [R.TAKE, R.DONE]
    a = st.uncovered if st.uncovered >= 0 else 0
    ms += [R.DEFEND_BASE + 64 * a + d for d in range(52)]
    return ms


def _positions(count, seed):
    rng = random.Random(seed)
    out = []
    i = 0
    while len(out) < count:
        opts = OPTION_SETS[i % len(OPTION_SETS)]
        n = 2 + i % 3
        i += 1
        st = make("tan", n, opts).new_initial_state(rng)
        while not st.is_terminal():
            if rng.random() < 0.3:
                out.append(st.clone())
            st.apply(rng.choice(st.legal_moves()))
    return out[:count]


def test_brute_force_move_generation_on_random_positions():
    positions = _positions(2400, seed=11)
    phases = set()
    for k, st in enumerate(positions):
        g = st.game
        fast = [g.move_to_text(m) for m in st.legal_moves()]
        assert len(fast) == len(set(fast))
        assert set(fast) == _brute_legal(st), st.render(st.current_player)
        phases.add(st.phase)
        if k % 8 == 0:
            # apply accepts exactly the legal moves, and a refused move changes nothing
            legal = set(st.legal_moves())
            for m in _universe(st):
                probe = st.clone()
                try:
                    probe.apply(m)
                    accepted = True
                except IllegalMoveError:
                    accepted = False
                    assert probe.observation(0) == st.observation(0)
                assert accepted == (m in legal)
    assert phases == {SETUP, ATTACK, DEFEND, THROW}


def test_seeded_determinism():
    def run(seed):
        g = make("tan", 4)
        rng = random.Random(seed)
        st = g.new_initial_state(rng)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_moves()))
        return st.deal, st.history, st.returns()

    assert run(5) == run(5)
    assert run(5)[0] != run(6)[0]


def _until_a_take(seed, players=4, options=None):
    rng = random.Random(seed)
    g = make("tan", players, options)
    while True:
        st = g.new_initial_state(rng)
        while not st.is_terminal():
            moves = st.legal_moves()
            big = st.table.bit_count() >= 3
            m = R.TAKE if R.TAKE in moves and big else rng.choice(moves)
            st.apply(m)
            if m == R.TAKE and big and not st.is_terminal() and st.faceup >= 0:
                return st, rng


@pytest.mark.parametrize("seed", range(6))
def test_determinization_keeps_picked_up_cards_and_the_face_up_card(seed):
    st, rng = _until_a_take(seed, options=OPTION_SETS[seed % 2])
    taker = st.history[-1][0]
    picked = st.known[taker]
    assert picked.bit_count() >= 3
    faceup = st.faceup
    moved = 0
    for seat in range(st.n):
        for _ in range(25):
            det = st.determinize(seat, rng)
            assert det.hands[taker] & picked == picked
            assert det.known == st.known
            assert det.faceup == faceup and det.zones()["stock"] >> faceup & 1
            assert det.hands[seat] == st.hands[seat]
            assert [h.bit_count() for h in det.hands] == [h.bit_count() for h in st.hands]
            assert det.observation(seat) == st.observation(seat)
            moved += det.hands != st.hands
            # the determinization's deal replays to it
            again = st.game.replay(det.deal, det.history)
            assert again.zones() == det.zones() and again.known == det.known
    assert moved > 0


def test_determinization_depends_only_on_the_seat_information():
    # two states the seat cannot tell apart give the same determinization for the same seed
    st, rng = _until_a_take(5)
    for seat in range(st.n):
        other = st.determinize(seat, rng)
        assert other.zones() != st.zones()
        for k in range(5):
            a = st.determinize(seat, random.Random(k))
            b = other.determinize(seat, random.Random(k))
            assert a.zones() == b.zones() and a.stock[a.sp :] == b.stock[b.sp :]


def test_determinization_of_a_determinization_keeps_a_replayable_deal():
    st, rng = _until_a_take(3)
    det = st.determinize(0, rng).determinize(1, rng)
    assert st.game.replay(det.deal, det.history).zones() == det.zones()
    det.apply(rng.choice(det.legal_moves()))  # a determinization is a playable state
    assert len(st.history) + 1 == len(det.history)


def test_trump_card_is_the_deals_trump_in_every_sampled_world():
    """The encoder reads ``trump_card()`` instead of rebuilding a sampled world's deal."""
    st, rng = _until_a_take(5)
    det = st.determinize(0, rng).determinize(1, rng)
    assert det._perm is not None  # the deal of det is rebuilt from its permutations
    for s in (st, det, st.determinize(2, rng)):
        assert s.trump_card() == s.deal.trump == st.deal.trump
        assert s.trump_card() & 3 == s.trump


def test_a_repeated_determinization_draws_as_the_first():
    """determinize keeps what its draw starts from for the next call on the same state and seat
    (a search's root); a move, or another seat, starts afresh."""
    st, rng = _until_a_take(6)
    fresh = [st.clone().determinize(s, random.Random(s)).zones() for s in range(st.n)]
    for s in (0, 1, 0, 2, 1):
        assert st.determinize(s, random.Random(s)).zones() == fresh[s]
    before = st.clone()
    st.apply(st.legal_moves()[0])
    moved = st.clone()
    for s in range(st.n):
        assert (
            st.determinize(s, random.Random(9)).zones()
            == moved.determinize(s, random.Random(9)).zones()
        )
    assert before.zones() != st.zones() or before.history != st.history


@pytest.mark.parametrize("options", OPTION_SETS)
def test_heuristic_playout_plays_the_generic_loops_moves(options):
    """TanGame.heuristic_playout (one loop in the heuristic's module) plays what
    Game.heuristic_playout plays: the same moves, payoffs and draws; ``stop`` ends it."""
    from quansu.games.base import Game

    g = make("tan", 3, options)
    rng = random.Random(4)
    for _ in range(6):
        st = g.new_initial_state(rng)
        for _ in range(rng.randrange(12)):
            if not st.is_terminal():
                st.apply(rng.choice(st.legal_moves()))
        a, b = st.clone(), st.clone()
        ra, rb = random.Random(1), random.Random(1)
        assert g.heuristic_playout(a, ra) == Game.heuristic_playout(g, b, rb)
        assert a.history == b.history and a.is_terminal() and ra.random() == rb.random()
        if not st.is_terminal():
            c = st.clone()
            assert g.heuristic_playout(c, random.Random(1), lambda: True) is None
            assert len(c.history) == len(st.history) + 1


def test_observation_hides_exactly_the_hidden_cards():
    st, rng = _until_a_take(8)
    obs = [st.observation(s) for s in range(st.n)]
    assert len(set(obs)) == st.n
    seen_other = False
    for _ in range(30):
        det = st.determinize(0, rng)
        assert det.observation(0) == obs[0]
        seen_other |= any(det.observation(s) != obs[s] for s in range(1, st.n))
    assert seen_other  # the other seats' hidden cards really were redrawn


def _play_with_draw_log(g, rng, steps):
    st = g.new_initial_state(rng)
    st._draw_log = []
    for _ in range(steps):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_moves()))
    return st


@pytest.mark.parametrize(
    "players,options", [(2, {}), (3, OPTION_SETS[2]), (4, OPTION_SETS[3]), (4, OPTION_SETS[1])]
)
def test_deal_for_view_rebuilds_the_seat_view(players, options):
    g = make("tan", players, options)
    rng = random.Random(players)
    for _ in range(40):
        st = _play_with_draw_log(g, rng, rng.randrange(0, 250))
        seat = rng.randrange(players)
        drawn = [c for s, c in st._draw_log if s == seat]
        d = st.deal
        deal = g.deal_for_view(
            seat,
            d.hands[seat],
            [8] * players,
            st.history,
            rng,
            first=d.first,
            drawn=drawn,
            trump=d.trump,
        )
        again = g.replay(deal, st.history)
        assert again.observation(seat) == st.observation(seat)
        assert [again.known_cards(seat)[z] for z in sorted(again.zones())] == [
            st.known_cards(seat)[z] for z in sorted(st.zones())
        ]
        text_moves = [(s, g.move_to_text(m)) for s, m in st.history]
        deal2 = g.deal_for_view(
            seat,
            d.hands[seat],
            [8] * players,
            text_moves,
            rng,
            first=d.first,
            drawn=drawn,
            trump=d.trump,
        )
        assert g.replay(deal2, st.history).observation(seat) == st.observation(seat)


def test_deal_for_view_errors_name_the_field():
    g = make("tan", 2)
    rng = random.Random(0)
    st = _play_with_draw_log(g, rng, 40)
    d = st.deal
    drawn = [c for s, c in st._draw_log if s == 0]
    kw = dict(first=d.first, trump=d.trump)
    with pytest.raises(DealError, match=r"counts\[1\]: 7 cards"):
        g.deal_for_view(0, d.hands[0], [8, 7], st.history, rng, drawn=drawn, **kw)
    with pytest.raises(DealError, match="hand: 7 cards"):
        g.deal_for_view(0, d.hands[0][:7], [8, 8], st.history, rng, drawn=drawn, **kw)
    with pytest.raises(DealError, match="trump: missing"):
        g.deal_for_view(0, d.hands[0], [8, 8], st.history, rng, drawn=drawn, first=d.first)
    with pytest.raises(DealError, match="drawn:"):
        g.deal_for_view(0, d.hands[0], [8, 8], st.history, rng, drawn=drawn + [d.trump], **kw)
    if drawn:
        with pytest.raises(DealError, match="drawn:"):
            g.deal_for_view(0, d.hands[0], [8, 8], st.history, rng, drawn=drawn[:-1], **kw)
    with pytest.raises(DealError, match=r"drawn\[0\]"):
        g.deal_for_view(
            0, d.hands[0], [8, 8], st.history, rng, drawn=[d.hands[0][0]] + drawn[1:], **kw
        )
    # an opponent's move with a card the observer holds
    g2 = make("tan", 2, {"trump_swap": "none"})
    own = d.hands[0][0]
    with pytest.raises(IllegalMoveError, match=r"moves\[0\]: .* is not in seat 1's hand"):
        g2.deal_for_view(0, d.hands[0], [8, 8], [(1, own)], rng, first=1, trump=d.trump)
    with pytest.raises(IllegalMoveError, match=r"moves\[0\]: seat 1 moved but seat 0"):
        g2.deal_for_view(0, d.hands[0], [8, 8], [(1, own)], rng, first=0, trump=d.trump)


def test_move_cap_ends_a_cycle_as_a_draw():
    g = make("tan", 3)
    st = g.new_initial_state(random.Random(1))
    while not st.is_terminal():
        moves = st.legal_moves()
        st.apply(R.TAKE if R.TAKE in moves else (R.DONE if R.DONE in moves else moves[0]))
    assert len(st.history) == g.max_moves
    assert st.returns() == [0.0, 0.0, 0.0] and st.settlement() == []


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_plays_complete_games(players, options):
    g = make("tan", players, options)
    rng = random.Random(players)
    for _ in range(8):
        st = g.new_initial_state(rng)
        while not st.is_terminal():
            st.apply(g.heuristic_move(st, rng))  # checked apply: an illegal move would raise
        assert abs(sum(st.returns())) < 1e-9


def test_heuristic_beats_random_play():
    g = make("tan", 4)
    rng = random.Random(2)
    score = 0.0
    for _ in range(120):
        st = g.new_initial_state(rng)
        while not st.is_terminal():
            st.apply(
                g.heuristic_move(st, rng)
                if st.current_player == 0
                else rng.choice(st.legal_moves())
            )
        score += st.returns()[0]
    assert score > 120  # random play would average -0 per game; the heuristic wins most


def test_heuristic_uses_only_its_own_information():
    rng = random.Random(4)
    g = make("tan", 4)
    for _ in range(10):
        st = g.new_initial_state(rng)
        for _ in range(rng.randrange(5, 80)):
            if st.is_terminal():
                break
            st.apply(rng.choice(st.legal_moves()))
        if st.is_terminal():
            continue
        seat = st.current_player
        move = g.heuristic_move(st, random.Random(0))
        for _ in range(5):
            assert g.heuristic_move(st.determinize(seat, rng), random.Random(0)) == move


def _pos(hands, trump, **kw):
    from tests.games.test_tan_rules import position

    return position(hands, trump, **kw)


@pytest.mark.parametrize(
    "hands,attack,expected",
    [
        (["5C 9S", "7C 8C 3D AD", "4H", "6H"], "5C", "defend 5C with 7C"),  # lowest same suit
        (["5C 9S", "3D AD 8S", "4H", "6H"], "5C", "defend 5C with 3D"),  # cheap trump
        (["5C 9S", "KD AD 8S", "4H", "6H"], "5C", "take"),  # only high trumps
        (["5C 9S", "8S 2H", "4H", "6H"], "5C", "take"),  # nothing beats
    ],
)
def test_heuristic_defence(hands, attack, expected):
    st = _pos(hands, "D", stock="2S 3S", faceup="4D")
    st.apply(st.game.parse_move("attack " + attack))
    assert st.game.move_to_text(st.game.heuristic_move(st, random.Random(0))) == expected


@pytest.mark.parametrize(
    "hand,expected",
    [
        ("9C 5H 3D 8S 8H", "attack 5H"),  # the lowest non-trump
        ("9C 6H 3D 7S 7H", "attack 7S"),  # a pair is worth leading: the rest can be thrown in
        ("AD 3D", "attack 3D"),  # only trumps: the lowest
    ],
)
def test_heuristic_attack(hand, expected):
    st = _pos([hand, "TC JC QC", "KH", "AH"], "D", stock="2S 3S", faceup="4D")
    assert st.game.move_to_text(st.game.heuristic_move(st, random.Random(0))) == expected


@pytest.mark.parametrize(
    "hand,expected",
    [
        ("9C 9H 9D QH", "throw 9H"),  # a low non-trump of a rank on the table
        ("9C 9D QH", "done"),  # only a trump would do: keep it while the stock lasts
    ],
)
def test_heuristic_throw_in(hand, expected):
    st = _pos([hand, "TC JC QC 8C", "KH", "AH"], "D", stock="2S 3S", faceup="4D")
    g = st.game
    st.apply(g.parse_move("attack 9C"))
    st.apply(g.parse_move("defend 9C with TC"))
    assert g.move_to_text(g.heuristic_move(st, random.Random(0))) == expected


def test_heuristic_swaps_for_the_face_up_trump():
    from tests.games.test_tan_rules import full_deal

    g = make("tan", 2)
    st = g.state_from_deal(full_deal(2, ["3H 5H", ""], "KH"))
    assert g.move_to_text(g.heuristic_move(st, random.Random(0))) == "swap 3H"
    g = make("tan", 2, {"trump_swap": "two_only"})
    st = g.state_from_deal(full_deal(2, ["2H", ""], "5H"))
    assert g.heuristic_move(st, random.Random(0)) == R.DONE  # a low face-up card: keep the lead
    st = g.state_from_deal(full_deal(2, ["2H", ""], "QH"))
    assert g.move_to_text(g.heuristic_move(st, random.Random(0))) == "swap 2H"


def _golden(name):
    import json
    from pathlib import Path

    path = Path(__file__).parents[1] / "data" / "records" / "tan" / f"{name}.json"
    return json.loads(path.read_text())


@pytest.mark.parametrize(
    "name,at,seat,to_act",
    [
        ("two_only_swap_moves_first_attacker_2p", 1, 1, 1),  # after a two_only swap
        ("two_of_trumps_face_up_2p", 0, 1, 1),  # the 2 of trumps face up at the deal
        ("two_of_trumps_face_up_2p", 1, 0, 0),
        ("swap_turns_up_the_two_2p", 1, 1, 1),  # a swap gave the 2 of trumps
        ("swap_then_forced_done_2p", 1, 1, 1),  # no trump lower than the new face-up card
    ],
)
def test_views_follow_the_swap_round(name, at, seat, to_act):
    """A seat's view in the swap round: the forced 'done' is its only move (views of either
    seat), and the heuristic answers it."""
    from quansu.games import record as rec

    record = _golden(name)
    for observer in (0, 1):
        state = rec.replay_view(rec.view_at(record, observer, at), random.Random(observer))
        assert state.phase == SETUP and state.current_player == to_act == seat
        assert rec.legal_move_texts(state) == ["done"]
        assert state.game.heuristic_move(state, random.Random(0)) == R.DONE


def test_views_in_a_former_dialect_are_refused():
    from quansu.games import GameError
    from quansu.games import record as rec

    record = _golden("swap_then_forced_done_2p")
    view = rec.view_at(record, 0, 1)
    view["moves"].append({"seat": 0, "move": "attack 3C"})  # the forced 'done' left out
    with pytest.raises(
        GameError,
        match=r"moves\[1\]: 'attack 3C' by seat 0, but seat 1 must "
        r"answer the swap round \(swap C or done\)",
    ):
        rec.replay_view(view, random.Random(0))
    view = rec.view_at(_golden("two_only_swap_moves_first_attacker_2p"), 0, 1)
    view["moves"].append({"seat": 1, "move": "attack 3D"})
    with pytest.raises(
        GameError,
        match=r"moves\[1\]: 'attack 3D': seat 1 must answer the swap "
        r"round \(swap C or done\) before the first attack",
    ):
        rec.replay_view(view, random.Random(0))
