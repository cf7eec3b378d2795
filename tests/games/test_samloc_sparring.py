"""The Sâm lốc sparring bot (games/samloc/sparring.py): positions in card notation and what it
must play there (chops, bosses kept, guaranteed endgames, báo một under the penalty and forced
rules, báo sâm), legality under every option, and that it decides on its own seat's
information only (redrawing the hidden cards never changes its move)."""

import random

import pytest

from quansu.games.samloc import DECLARE, DECLINE, PASS
from quansu.games.samloc import rules as R
from quansu.games.samloc import sparring as SP
from tests.helpers.samloc import game, mask, play, position


def bot(g, st) -> int:
    m = g.sparring_move(st, random.Random(0))
    assert m in st.legal_moves()
    return m


def txt(g, m) -> str:
    return g.move_to_text(m)


# Two-player endgames: seat 0 leads a six-card straight, seat 1 answers with a higher one, and
# seat 1 then sheds down to its last card, 4C.  Seat 0 keeps the four cards ``rest``.
def endgame(rest: str, moves_after: tuple[str, ...], **opts):
    hands = ["3S 4S 5S 6S 7S 8S " + rest, "4H 5H 6H 7H 8H 9H JC JD 4C 3C"]
    g, st = position(hands, first=0, n=2, full=True, **opts)
    play(
        g, st, "3S 4S 5S 6S 7S 8S", "4H 5H 6H 7H 8H 9H", "pass", "JC JD", "pass", "3C", *moves_after
    )
    return g, st


# -- table: (what it shows, position builder, expected move(s)) --------------------------------
def _chop_two():
    # seat 1 leads a single 2; seat 0 holds four 7s
    g, st = position(
        ["7S 7C 7D 7H 3D 5S 9C JD KD QH", "2H 4C 6C 8C TC QC AS 3H 5H 9D"], first=1, n=2, full=True
    )
    play(g, st, "2H")
    return g, st


def _chop_pair_of_twos():
    g, st = position(
        ["7S 7C 7D 7H 9S 9C 9D 9H 3D 5S", "2H 2D 6C 8C TC QC AS 3H 5H JD"], first=1, n=2, full=True
    )
    play(g, st, "2H 2D")
    return g, st


def _low_single_early():
    # seat 1 leads 4C at the start: seat 0 answers low and keeps its 2 and its ace
    g, st = position(
        ["3D 6D 8S 9C JH QS KD AH 2H 5C", "4C 6C 8C TC QC AS 3H 5H 9D 7D"], first=1, n=2, full=True
    )
    play(g, st, "4C")
    return g, st


def _lead_fresh_hand():
    # seat 0 leads a fresh hand holding 2H and AH: it leads its low straight, keeping the bosses
    g, st = position(
        ["3D 4S 6D 8S TC JH KD AH 2H 5C", "4C 6C 8C TH QC AS 3H 5H 9D 7D"], first=0, n=2, full=True
    )
    return g, st


def _lead_boss_straight():
    # J Q K A is the highest four-card straight: led, it keeps the lead (and it is no answer to
    # anything later), so it goes first
    g, st = position(
        ["3D 6D 8S 9C JH QS KD AH 2H 5C", "4C 6C 8C TC QC AS 3H 5H 9D 7D"], first=0, n=2, full=True
    )
    return g, st


def _guaranteed_follow():
    # seat 1 leads 3C keeping 4C; seat 0 holds 2H KD KH 5C: 2H (no quad can answer it), then the
    # pair of kings (one card cannot beat a pair), then 5C goes out whatever seat 1 holds
    return endgame("2H KD KH 5C", ())


def _guaranteed_lead():
    # 5C took the trick and seat 0 leads 2H KD KH: 2H first (ending on it would lose), then KK
    return endgame("2H KD KH 5C", ("5C", "pass"))


def _bao_mot_lead_multi():
    # seat 1 is down to one card: seat 0 (just before it) leads a pair, never a low single
    return endgame("TD TC 3D 6C", ("6C", "pass"))


def _bao_mot_lead_highest():
    # no combination left: the highest single, so that seat 1 cannot go out on a lower one
    return endgame("TD 3D QC 6C", ("6C", "pass"))


def _bao_mot_follow():
    # seat 1 leads 3C with one card left after it; seat 0 answers only with its highest single
    return endgame("5D 7C TD KC", ())


CASES = [
    ("chops a single 2 with a four of a kind", _chop_two, {"7S 7C 7D 7H"}),
    ("chops a pair of 2s with a double quad", _chop_pair_of_twos, {"7S 7C 7D 7H 9S 9C 9D 9H"}),
    ("answers a low single early without its 2 or ace", _low_single_early, {"5C", "6D"}),
    ("leads a fresh hand low, keeping its bosses", _lead_fresh_hand, {"3D 4S 5C 6D"}),
    ("leads an unbeatable straight first", _lead_boss_straight, {"JH QS KD AH"}),
    ("plays the sure boss that leads to a guaranteed way out", _guaranteed_follow, {"2H"}),
    ("leads its bosses first and ends on a 2-free play", _guaranteed_lead, {"2H"}),
    ("báo một: leads a combination, not a single", _bao_mot_lead_multi, {"TC TD"}),
    ("báo một: without a combination leads its highest single", _bao_mot_lead_highest, {"QC"}),
    ("báo một: answers a single only with its highest single", _bao_mot_follow, {"KC", "pass"}),
]


@pytest.mark.parametrize("what,build,expected", CASES, ids=[c[0] for c in CASES])
def test_sparring_plays(what, build, expected):
    g, st = build()
    assert txt(g, bot(g, st)) in expected, what


def test_guaranteed_sequence_goes_out():
    g, st = endgame("2H KD KH 5C", ())
    seq = []
    while not st.is_terminal():
        m = bot(g, st)
        if st.current_player == 0:
            seq.append(txt(g, m))
        st.apply(m)
    assert seq == ["2H", "KD KH", "5C"] and st.winner == 0


def test_goes_out_when_it_can_and_never_on_a_2_by_choice():
    g, st = endgame("KD KH 5C 2H", ("2H", "pass"))
    # hand KD KH 5C: leading, KK is sure against one card and 5C goes out after it
    assert txt(g, bot(g, st)) == "KD KH"
    st.apply(mask("KD KH"))
    st.apply(PASS)
    assert txt(g, bot(g, st)) == "5C"


def test_forced_mode_is_obeyed_and_off_mode_has_no_obligation():
    # under "forced" the rule is in the legal moves: following 3C (seat 1 then holds one card)
    # only the highest single or a pass; leading without a combination, the highest single
    g, st = endgame("TD 3D QC 6C", (), bao_mot_mode="forced")
    assert set(st.legal_moves()) == {PASS, mask("QC")}
    m = bot(g, st)
    st.apply(m)
    if m == PASS:
        return
    st.apply(PASS)
    assert txt(g, bot(g, st)) == "TD"
    # "off": no obligation; the bot still plays legally
    g, st = endgame("TD 3D QC 6C", ("6C", "pass"), bao_mot_mode="off")
    assert bot(g, st) in st.legal_moves()


# -- báo sâm ---------------------------------------------------------------------------------
STRONG = "3S 4C 5D 6H 7S 8C 9D TH QS 2C"  # a straight 3..T, the 2, and QS to finish
WEAK = "3C 3D 5C 5H 8D 9H JS JC KC QD"


def test_declares_a_near_certain_sam_and_declines_a_weak_hand():
    g, st = position([STRONG, WEAK], first=0, n=2, full=True, declines=False)
    assert SP.sam_chance(g, st, 0) > 0.8
    assert bot(g, st) == DECLARE
    st.apply(DECLINE)
    assert SP.sam_chance(g, st, 1) < 0.05
    assert bot(g, st) == DECLINE


def test_declines_when_an_earlier_declaration_outranks_it():
    g, st = position([WEAK, STRONG], first=0, n=2, full=True, declines=False)
    st.apply(DECLARE)
    assert not st.declaration_matters(1)
    assert bot(g, st) == DECLINE


def test_as_declarer_it_never_ends_on_a_2():
    g, st = position([STRONG, WEAK], first=0, n=2, full=True, declarers=(0,))
    assert st.declarer == 0
    first = bot(g, st)
    assert txt(g, first) != "QS"  # the riskiest 2-free play is kept for last
    plays = []
    while not st.is_terminal():
        if st.current_player == 0:
            m = bot(g, st)
            plays.append(m)
        else:
            m = PASS
        st.apply(m)
    assert not plays[-1] & R.TWOS and st.end_kind == "sam_success"


def test_blocks_a_declarer_with_a_chop_when_it_can():
    g, st = position(
        ["2S 3C 4C 5C 6C 7D 8D 9D TD KS", "QS QC QD QH 3D 5H 7H KC AH 4D"],
        first=0,
        n=2,
        full=True,
        declarers=(0,),
    )
    play(g, st, "2S")
    assert txt(g, bot(g, st)) == "QS QC QD QH"
    g, st = position(
        ["3C 4C 5C 6C 7D 8D 9D TD JS KS", "9S 9C 9H 3D 5H 7H QC KC AH 4D"],
        first=0,
        n=2,
        full=True,
        declarers=(0,),
    )
    play(g, st, "3C 4C 5C 6C 7D 8D 9D TD JS")
    assert bot(g, st) == PASS  # nothing beats a nine-card straight
    g, st = position(
        ["3C 4C 5C 6C 7D 8D 9D TD JS KS", "9S 9C 9H 3D 5H 7H QC KC AH 4D"],
        first=0,
        n=2,
        full=True,
        declarers=(0,),
    )
    play(g, st, "KS")
    assert txt(g, bot(g, st)) == "AH"  # any play that beats blocks the Sâm


# -- information and legality ----------------------------------------------------------------
@pytest.mark.parametrize(
    "n,opts",
    [(4, {}), (4, {"bao_mot_mode": "forced"}), (3, {}), (2, {"straight_allows_two": False})],
)
def test_redrawing_the_hidden_cards_never_changes_its_move(n, opts):
    g = game(n, **opts)
    rng = random.Random(11)
    checked = 0
    for _ in range(6):
        st = g.new_initial_state(rng)
        while not st.is_terminal():
            s = st.current_player
            m = bot(g, st)
            if len(st.legal_moves()) > 1:
                for _ in range(2):
                    det = st.determinize(s, rng)
                    assert bot(g, det) == m
                checked += 1
            st.apply(m)
    assert checked > 50


@pytest.mark.parametrize(
    "n,opts",
    [
        (4, {}),
        (3, {}),
        (2, {}),
        (4, {"bao_mot_mode": "forced"}),
        (4, {"bao_mot_mode": "off"}),
        (4, {"straight_allows_two": False, "two_in_straight_counts": False}),
        (4, {"single_quad_chops_pair_of_twos": True, "double_quad_enabled": False}),
        (4, {"instant_win_enabled": False, "chop_chain_last_victim_pays_all": False}),
    ],
)
def test_full_games_are_legal_under_every_option(n, opts):
    g = game(n, **opts)
    rng = random.Random(5)
    for _ in range(15):
        st = g.new_initial_state(rng)
        steps = 0
        while not st.is_terminal():
            st.apply(bot(g, st))
            steps += 1
            assert steps <= g.max_moves
        assert sum(st.returns()) == pytest.approx(0.0)


def test_beat_chances_read_hand_sizes_and_hard_pass_facts():
    g, st = endgame("AD KD KH 5C", ())
    ctx = SP._Ctx(g, st, SP.PARAMS, 0)
    single_k = R.SINGLE << 8 | 1 << 4 | 10
    # seat 1 holds one card: it cannot beat a pair, it may beat a king single
    assert ctx.sure(R.PAIR << 8 | 2 << 4 | 10)
    assert not ctx.sure(single_k)
    before = ctx.beat_p(1, single_k)
    assert 0.0 < before < 1.0
    # seat 1 then passes 5C with its last card: it would have gone out with anything above 5C
    # but a 2, so only a 2 is left to fear
    play(g, st, "5C", "pass")
    ctx = SP._Ctx(g, st, SP.PARAMS, 0)
    p_low, p_two, _ = ctx.hold(1, single_k)
    assert p_low > 0.0 and ctx.pass_factor(1, single_k)[0] == 0.0
    assert ctx.beat_p(1, single_k) < before
