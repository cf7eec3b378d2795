"""Game flow: báo sâm decisions and priority, Sâm outcomes, going out on a 2, báo một forced
plays, hidden information (determinization, deal_for_view), determinism, the heuristic bot."""

import random

import pytest

from quansu.games.base import DealError, IllegalMoveError
from quansu.games.samloc import DECLARE, DECLINE, PASS
from quansu.games.samloc import rules as R
from quansu.games.samloc.heuristic import sam_success_chance
from tests.helpers.samloc import game, mask, play, position


# -- báo sâm decisions -----------------------------------------------------------------------
def test_first_game_asks_every_seat_in_order_then_the_lowest_card_leads():
    g = game(4)
    rng = random.Random(1)
    st = g.new_initial_state(rng)
    while st.is_terminal():
        st = g.new_initial_state(rng)
    asked = []
    while st.legal_moves() == [DECLARE, DECLINE]:
        asked.append(st.current_player)
        st.apply(DECLINE)
    assert asked == [0, 1, 2, 3]
    assert st.current_player == st.deal.first == g._lowest_holder(st.hands)
    assert st.declarer == -1 and st.top is None


def test_asking_goes_on_after_a_declaration_and_the_lowest_declarer_leads():
    g, st = position([], first=0, declines=False)
    play(g, st, "decline", "declare")
    assert st.declarer == -1 and st.current_player == 2 and st.in_declarations
    assert st.legal_moves() == [DECLARE, DECLINE]  # a moot answer still has both choices
    assert not st.declaration_matters(2) and st.declared_mask() == 0b10
    play(g, st, "declare", "decline")  # seat 2 declares too: outranked
    assert st.declarer == 1 and st.current_player == 1 and not st.in_declarations
    assert DECLARE not in st.legal_moves()
    with pytest.raises(IllegalMoveError, match="báo sâm is over"):
        st.apply(DECLARE)


@pytest.mark.parametrize(
    "answers,prev,declarer",
    [
        # first game (no previous winner): the declarer nearest seat 0 in seat order
        ("dddd", -1, 0),
        ("-dd-", -1, 1),
        ("---d", -1, 3),
        ("----", -1, -1),
        # a later game: the previous winner first among the declarers, wherever he sits
        ("d-d-", 2, 2),
        ("d---", 2, 0),
        ("-d-d", 3, 3),
        ("dd--", 0, 0),
        ("-dd-", 0, 1),
        ("----", 1, -1),
    ],
)
def test_priority_picks_the_declarer_after_all_answers(answers, prev, declarer):
    g = game(4, previous_winner=prev)
    first = prev if prev >= 0 else None
    if first is None:
        rng = random.Random(3)
        st = g.new_initial_state(rng)
        while st.is_terminal():
            st = g.new_initial_state(rng)
    else:
        g, st = position([], first=prev, declines=False)
    lead = st.deal.first
    for s, a in enumerate(answers):
        assert st.current_player == s and st.legal_moves() == [DECLARE, DECLINE]
        st.apply(DECLARE if a == "d" else DECLINE)
    assert st.declarer == declarer
    assert st.current_player == (declarer if declarer >= 0 else lead)
    assert [m for _, m in st.history] == [DECLARE if a == "d" else DECLINE for a in answers]


def test_declaration_matters_only_for_the_first_declarer_or_the_previous_winner():
    g, st = position([], first=3, declines=False)
    assert all(st.declaration_matters(s) for s in range(4))
    play(g, st, "decline", "declare")
    assert not st.declaration_matters(2) and st.declaration_matters(3)


def test_old_dialect_is_refused_with_the_seat_that_must_answer():
    from quansu.games import record as rec

    g, st = position(["7S 8D 9C"], first=0, n=3, declines=False)
    deal = st.deal
    old = [(0, DECLARE), (0, mask("7S 8D 9C"))]  # the former dialect: play after one declare
    with pytest.raises(
        IllegalMoveError,
        match=r"moves\[1\]: seat 1 must answer báo sâm "
        r"\(declare or decline\) before play starts",
    ):
        g.replay(deal, old)
    r = {
        "format": "quansu-record/1",
        "game": "samloc",
        "players": 3,
        "options": {"previous_winner": 0},
        "deal": rec.deal_json(deal),
        "moves": [{"seat": s, "move": g.move_to_text(m)} for s, m in old],
    }
    with pytest.raises(IllegalMoveError, match=r"moves\[1\]: seat 1 must answer báo sâm"):
        rec.replay_record(r)
    # a later game whose previous winner (seat 2) was asked right after seat 0's declaration
    g, st = position([], first=2, n=3, declines=False)
    with pytest.raises(
        IllegalMoveError,
        match=r"moves\[1\]: seat 2 answers báo sâm out of turn.*"
        r"seat 1 answers next",
    ):
        g.replay(st.deal, [(0, DECLARE), (2, DECLINE)])
    view = rec.view_at({**r, "moves": r["moves"][:1]}, 1)
    view["moves"].append({"seat": 0, "move": "7S 8D 9C"})
    with pytest.raises(IllegalMoveError, match=r"moves\[1\]: seat 1 must answer báo sâm"):
        rec.replay_view(view, random.Random(0))


def test_declaration_phase_refuses_plays():
    g, st = position(["3S"], first=0, declines=False)
    with pytest.raises(IllegalMoveError, match="declare or decline"):
        st.apply(mask("3S"))
    with pytest.raises(IllegalMoveError, match="declare or decline"):
        st.apply(PASS)


# -- Sâm outcomes ----------------------------------------------------------------------------
def test_sam_blocked_by_a_chop_also_pays_the_chop():
    hands = ["2S 3C 4D 5H", "9S 9C 9D 9H"]
    g, st = position(hands, first=0, declarers=(0,))
    play(g, st, "2S", "9S 9C 9D 9H")
    assert st.end_kind == "sam_blocked" and st.next_leader == 1
    assert st.settlement() == [(0, 1, 20.0), (0, 1, 60.0)]
    g, st = position(hands, first=0, declarers=(0,), sam_block_also_pays_chop=False)
    play(g, st, "2S", "9S 9C 9D 9H")
    assert st.settlement() == [(0, 1, 60.0)]


def test_sam_rounds_restart_with_the_declarer():
    g, st = position(["3S 4C 5D 9H"], first=0, declarers=(0,))
    play(g, st, "3S 4C 5D", "pass", "pass", "pass")
    assert st.current_player == 0 and st.top is None and not st.is_terminal()


def test_sam_amount_option():
    g, st = position(["7S 8D 9C", "", "8H 9H TS"], first=0, declarers=(0,), sam_amount=10)
    play(g, st, "7S 8D 9C", "pass", "8H 9H TS")
    assert st.settlement() == [(0, 2, 30.0)]


# -- going out on a 2 ------------------------------------------------------------------------
OUT_ON_TWO = ["5S 6D 7S 8C 9S TD JH AS 2H 3D"]
OUT_MOVES = ["5S 6D 7S 8C 9S TD JH", "pass", "pass", "pass", "AS 2H 3D"]


def test_straight_with_a_two_counts_as_going_out_on_a_two():
    g, st = position(OUT_ON_TWO, first=0)
    play(g, st, *OUT_MOVES)
    assert not st.is_terminal() and st.hands[0] == 0 and st.current_player == 1


def test_option_two_in_straight_does_not_count():
    g, st = position(OUT_ON_TWO, first=0, two_in_straight_counts=False)
    play(g, st, *OUT_MOVES)
    assert st.is_terminal() and st.winner == 0 and st.end_kind == "normal"


def test_two_players_going_out_on_a_two_makes_the_other_the_winner():
    g, st = position(["4H 5S 6D 7S 8C 9S TD JS QD 2S"], first=0, n=2)
    play(g, st, "4H 5S 6D 7S 8C 9S TD JS QD", "pass", "2S")
    assert st.is_terminal() and st.winner == 1
    assert st.settlement() == [(0, 1, 10.0)]


# -- báo một, forced mode --------------------------------------------------------------------
FORCED_HANDS = ["8S 9D TD JD QD 3D 4D 5S 6D 9H", "4C 5H 6C 7C TC JC QC 3H 5C 8D"]
FORCED_MOVES = ["8S 9D TD JD QD", "pass", "3D 4D 5S 6D", "4C 5H 6C 7C", "pass", "TC JC QC", "pass"]


def test_forced_mode_allows_only_the_highest_single():
    g, st = position(FORCED_HANDS, first=0, n=2, full=True, bao_mot_mode="forced")
    play(g, st, *FORCED_MOVES)
    assert st.legal_moves() == [mask("8D")]
    for bad in ("5C", "3H"):
        with pytest.raises(IllegalMoveError, match="highest rank"):
            st.apply(mask(bad))
    # the same position without the rule: any single
    g2, st2 = position(FORCED_HANDS, first=0, n=2, full=True)
    play(g2, st2, *FORCED_MOVES)
    assert sorted(st2.legal_moves()) == sorted([mask("5C"), mask("8D"), mask("3H")])


def test_forced_single_limits_determinization():
    g, st = position(FORCED_HANDS, first=0, n=2, full=True, bao_mot_mode="forced")
    play(g, st, *FORCED_MOVES, "8D", "pass")
    assert st.current_player == 1 and st.forced_cap(1) == R.classify(mask("8D"))[2]
    rng = random.Random(0)
    for _ in range(200):
        det = st.determinize(0, rng)
        assert (det.hands[1].bit_length() - 1) >> 2 <= st.forced_cap(1)
        assert det.observation(0) == st.observation(0)


# -- hidden information ----------------------------------------------------------------------
def test_first_game_leader_holds_the_lowest_card_in_determinizations():
    g = game(4)
    rng = random.Random(2)
    st = g.new_initial_state(rng)
    while st.is_terminal():
        st = g.new_initial_state(rng)
    for _ in range(4):
        st.apply(DECLINE)
    leader = st.current_player
    seat = (leader + 1) % 4
    for _ in range(100):
        det = st.determinize(seat, rng)
        orig = [det.hands[s] | det.played[s] for s in range(4)]
        assert g._lowest_holder(orig) == leader
        assert det.hands[seat] == st.hands[seat]
        assert det.observation(seat) == st.observation(seat)


def test_sampler_rejects_instant_win_hands():
    g = game(2)
    red9 = mask("3D 4H 6D 7H 9D TH QD KH AD")
    fixed = [mask("3S 4S 5S 6S 7S 8S 9S TS JS QC"), red9]
    pool = ((1 << 52) - 1) & ~fixed[0] & ~fixed[1]
    rng = random.Random(0)
    for _ in range(100):
        drawn, rest = g._sample(rng, fixed, [0, 1], pool, [12, 12], -1, True)
        assert drawn[1] & R.RED == 0  # a red card would make đồng hoa
        assert drawn[1] | rest == pool and not drawn[1] & rest


def test_observation_hides_opponents_cards():
    g = game(3)
    rng = random.Random(4)
    st = g.new_initial_state(rng)
    while st.is_terminal():
        st = g.new_initial_state(rng)
    det = st.determinize(0, rng)
    assert det.hands[0] == st.hands[0]
    assert det.observation(0) == st.observation(0)
    assert det.hands[1] != st.hands[1] or det.hands[2] != st.hands[2]
    assert st.known_cards(0) == {"hand0": st.hands[0], "table": st.table}
    assert set(st.zones()) == {"hand0", "hand1", "hand2", "table", "set_aside"}
    assert st.zones()["set_aside"].bit_count() == 22


def _heuristic_game(g, seed, stop_after=None):
    rng = random.Random(seed)
    st = g.new_initial_state(rng)
    k = 0
    while not st.is_terminal() and (stop_after is None or k < stop_after):
        st.apply(g.heuristic_move(st, rng))
        k += 1
    return st


@pytest.mark.parametrize(
    "n,opts",
    [(4, {}), (3, {"bao_mot_mode": "forced"}), (2, {}), (4, {"first_game_leader": "random"})],
)
def test_deal_for_view_replays_the_seats_view(n, opts):
    g = game(n, **opts)
    for seed in range(6):
        st = _heuristic_game(g, seed, stop_after=5 + 3 * seed)
        for seat in range(n):
            d = g.deal_for_view(
                seat,
                st.deal.hands[seat],
                [10] * n,
                st.history,
                random.Random(seed),
                first=st.deal.first,
            )
            rep = g.replay(d, st.history)
            assert rep.observation(seat) == st.observation(seat)
            assert rep.current_player == st.current_player
            assert rep.hands[seat] == st.hands[seat]


def test_deal_for_view_errors():
    g = game(4)
    st = _heuristic_game(g, 1, stop_after=12)
    hist = st.history
    hand = st.deal.hands[0]
    with pytest.raises(DealError, match=r"counts\[2\]: 9 cards"):
        g.deal_for_view(0, hand, [10, 10, 9, 10], hist, random.Random(0), first=st.deal.first)
    with pytest.raises(DealError, match="hand: 9 cards"):
        g.deal_for_view(0, hand[:9], [10] * 4, hist, random.Random(0), first=st.deal.first)
    # an opponent "plays" a card of the observer's hand
    k = next(i for i, (s, m) in enumerate(hist) if s != 0 and 0 < m < (1 << 52))
    bad = list(hist)
    bad[k] = (bad[k][0], 1 << hand[0])
    with pytest.raises(IllegalMoveError, match=rf"moves\[{k}\]"):
        g.deal_for_view(0, hand, [10] * 4, bad, random.Random(0), first=st.deal.first)
    # a move by the wrong seat
    bad = list(hist)
    bad[0] = ((bad[0][0] + 1) % 4, bad[0][1])
    with pytest.raises(IllegalMoveError, match=r"moves\[0\]"):
        g.deal_for_view(0, hand, [10] * 4, bad, random.Random(0), first=st.deal.first)


# -- determinism, heuristic ------------------------------------------------------------------
def test_seeded_games_are_deterministic():
    g = game(4)
    for seed in range(3):
        a = _heuristic_game(g, seed)
        b = _heuristic_game(g, seed)
        assert a.history == b.history and a.returns() == b.returns() and a.deal == b.deal
    rng1, rng2 = random.Random(9), random.Random(9)
    assert g.random_deal(rng1) == g.random_deal(rng2)


@pytest.mark.parametrize(
    "n,opts",
    [
        (2, {}),
        (3, {}),
        (4, {}),
        (4, {"bao_mot_mode": "forced"}),
        (3, {"straight_allows_two": False, "double_quad_enabled": False}),
        (4, {"single_quad_chops_pair_of_twos": True, "instant_win_enabled": False}),
    ],
)
def test_heuristic_plays_complete_games(n, opts):
    g = game(n, **opts)
    for seed in range(8):
        st = _heuristic_game(g, 100 + seed)  # apply() raises on any illegal move
        assert st.is_terminal() and abs(sum(st.returns())) < 1e-9


def test_heuristic_declares_only_very_strong_hands():
    g = game(4)
    strong = mask("2S 2C 2D 6C 7D 8H 9S TC JD QH")  # unbeatable 2s, then a 7-card straight
    assert sam_success_chance(g, strong, ((1 << 52) - 1) & ~strong, random.Random(0)) == 1.0
    g, st = position(["2S 2C 2D 6C 7D 8H 9S TC JD QH"], first=0, declines=False, full=False)
    assert g.heuristic_move(st, random.Random(0)) == DECLARE
    weak = mask("3S 3C 5D 7H 9S 9C JD KH 4S 8D")
    assert sam_success_chance(g, weak, ((1 << 52) - 1) & ~weak, random.Random(0)) < 0.1
    g, st = position(["3S 3C 5D 7H 9S 9C JD KH 4S 8D"], first=0, declines=False, full=False)
    assert g.heuristic_move(st, random.Random(0)) == DECLINE


def test_heuristic_blocks_a_declarer():
    g, st = position(["7S 8D 9C", "8H 9H TS"], first=0, declarers=(0,))
    play(g, st, "7S 8D 9C")
    assert st.current_player == 1
    assert g.heuristic_move(st, random.Random(0)) != PASS


def test_heuristic_chops_a_two_and_keeps_quads_when_leading():
    g, st = position(["2D", "5S 5C 5D 5H 3S 4C 9D"], first=0)
    play(g, st, "2D")
    assert g.heuristic_move(st, random.Random(0)) == mask("5S 5C 5D 5H")
    g, st = position(["5S 5C 5D 5H 3S 4C 9D 9H JS QC"], first=0)
    m = g.heuristic_move(st, random.Random(0))
    assert m & mask("5S 5C 5D 5H") == 0


def test_heuristic_respects_bao_mot():
    # EX9 of the examples: seat 1 leads while seat 2 (next) has one card
    from tests.games.test_samloc_examples import EX9, EX9_MOVES

    g, st = position(EX9, first=2, full=True)
    play(g, st, *EX9_MOVES)
    m = g.heuristic_move(st, random.Random(0))
    hand = st.hands[1]
    assert m.bit_count() > 1 or (m.bit_length() - 1) >> 2 == (hand.bit_length() - 1) >> 2


def test_next_game_deal_and_render():
    g = game(3)
    st = _heuristic_game(g, 5)
    nl = st.next_leader
    g2 = game(3, previous_winner=nl if nl is not None else -1)
    st2 = g2.new_initial_state(random.Random(1))
    if nl is not None:
        assert st2.deal.first == nl
    text = st2.render(1)
    assert "your hand" in text and "seat 0" in text
    assert "game over" in st.render(0)


@pytest.mark.parametrize("answers,declarer", [("d-d-", 2), ("dd--", 0)])
def test_deal_for_view_of_a_later_game_with_several_declarers(answers, declarer):
    # previous winner seat 2: the priority picks among the declarers once all four answered
    g = game(4, previous_winner=2)
    rng = random.Random(8)
    st = g.new_initial_state(rng)
    while st.is_terminal():
        st = g.new_initial_state(rng)
    for a in answers:
        st.apply(DECLARE if a == "d" else DECLINE)
    assert st.declarer == declarer and st.current_player == declarer
    st.apply(st.legal_moves()[0])
    for seat in range(4):
        d = g.deal_for_view(
            seat, st.deal.hands[seat], [10] * 4, st.history, random.Random(seat), first=2
        )
        assert g.replay(d, st.history).observation(seat) == st.observation(seat)
    with pytest.raises(DealError, match="previous winner"):
        g.deal_for_view(0, st.deal.hands[0], [10] * 4, st.history, random.Random(0), first=1)


def test_records_and_views_round_trip():
    from quansu.games.record import (
        parse_record,
        record_from_state,
        replay_record,
        replay_view,
        view_from_state,
    )

    g = game(4, bao_mot_mode="forced")
    for seed in range(3):
        done = _heuristic_game(g, 40 + seed)
        rec = record_from_state(done)
        assert replay_record(rec).returns() == done.returns()
        assert parse_record(rec).deal == done.deal
        mid = _heuristic_game(g, 40 + seed, stop_after=10)
        if mid.is_terminal():
            continue
        for seat in range(4):
            rebuilt = replay_view(view_from_state(mid, seat), random.Random(seed))
            assert rebuilt.observation(seat) == mid.observation(seat)


def test_views_during_bao_sam_after_a_declaration():
    """A view cut while báo sâm goes on after a declaration rebuilds that seat's information
    state; the seat to act still answers declare or decline (also under determinization)."""
    from quansu.games import record as rec

    g, st = position([], first=3, n=4, declines=False)
    play(g, st, "declare", "decline")
    record = rec.record_from_state(st)
    for seat in range(4):
        rebuilt = rec.replay_view(rec.view_at(record, seat), random.Random(seat))
        assert rebuilt.observation(seat) == st.observation(seat)
        assert rebuilt.current_player == 2 and rebuilt.legal_moves() == [DECLARE, DECLINE]
        det = st.determinize(seat, random.Random(seat))
        assert det.legal_moves() == [DECLARE, DECLINE] and det.declared_mask() == 0b1
    play(g, st, "declare", "declare")  # seat 3, the previous winner, outranks seat 0
    assert st.declarer == 3 and st.current_player == 3
    record = rec.record_from_state(st)
    assert rec.replay_record(record).declarer == 3
    view = rec.view_at(record, 1)
    assert rec.replay_view(view, random.Random(0)).observation(1) == st.observation(1)


def test_heuristic_declines_a_moot_declaration_but_not_as_the_previous_winner():
    strong = "2S 2C 2D 6C 7D 8H 9S TC JD QH"
    g, st = position(["", strong], first=0, declines=False)
    play(g, st, "declare")  # seat 0 (the previous winner) outranks seat 1
    assert not st.declaration_matters(1)
    assert g.heuristic_move(st, random.Random(0)) == DECLINE
    g, st = position(["", strong], first=1, declines=False)
    play(g, st, "declare")  # seat 1 is the previous winner: his Sâm wins
    assert st.declaration_matters(1)
    assert g.heuristic_move(st, random.Random(0)) == DECLARE
