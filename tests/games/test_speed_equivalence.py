"""The speed work of issue 22 changes no result: the optimised hot paths against the code they
replaced (tests/reference_*.py, copied from commit 1a04877) on many random inputs and games.

* Tiến lên: ``rules.classify``, ``heuristic.plan`` and the heuristic's move in every state of
  random games under random options; ``TienLenState.follow_rule`` against ``legal_moves``.
* Sâm lốc: ``heuristic.plan``, ``rules.can_beat`` against ``beating_combos``, the heuristic's
  move, ``sam_success_chance`` against the original Monte Carlo loop on the same sampled deals
  (the estimate is now a fixed function of the hand: it reads no caller randomness).
* Phỏm: ``determinize`` (witness sets instead of the cover search) draws the same worlds and
  leaves the generator in the same state; ``rules.min_deadwood`` (the search on the meldable
  cards) against the search over the whole hand; the heuristic's ``_potential`` (masks)
  and ``rules.points`` (a table per suit) against their loops.
* Phỏm's sparring bot: its valuation's typed card loops (tests/helpers/reference_phom_sparring.py,
  from commit 3fb60d9) give the same values and moves.
* Tấn: the heuristic's move (key-free choices) against its code before (tests/helpers/reference_tan.py)
  in every state of random games under random options.
* Searches with the reference policies / determinization patched in give the same result for
  a fixed seed and iteration budget.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from quansu import games
from quansu.games.base import TERMINAL
from quansu.games.phom import view as phom_view
from quansu.games.samloc import heuristic as SH
from quansu.games.samloc import rules as SR
from quansu.games.tienlen import heuristic as TH
from quansu.games.tienlen import rules as TR
from quansu.search import SearchConfig, search
from tests.helpers import reference_phom as PREF
from tests.helpers import reference_samloc as SREF
from tests.helpers import reference_tan as TANREF
from tests.helpers import reference_tienlen as TREF

ROOT = Path(__file__).resolve().parents[2]


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _random_options(cls, rng: random.Random) -> dict:
    """Random values for every option with choices or a boolean default."""
    out = {}
    for spec in cls.option_specs:
        if spec.choices:
            out[spec.name] = rng.choice(list(spec.choices))
        elif isinstance(spec.default, bool):
            out[spec.name] = rng.random() < 0.5
    return out


def _random_games(name: str, count: int, seed: int, heuristic_share: float = 0.6):
    """States of ``count`` games under random options and player counts, moves drawn from the
    heuristic (share ``heuristic_share``) or uniformly; yields every state before its move."""
    cls = games.game_classes()[name]
    rng = random.Random(seed)
    for _ in range(count):
        game = None
        while game is None:
            try:
                game = games.make(
                    name,
                    rng.randint(cls.min_players, cls.max_players),
                    _random_options(cls, rng) if rng.random() < 0.7 else {},
                )
            except games.GameError:
                game = None
        state = game.new_initial_state(random.Random(rng.getrandbits(32)))
        while not state.is_terminal():
            yield state
            legal = state.legal_moves()
            if rng.random() < heuristic_share:
                move = game.heuristic_move(state, random.Random(rng.getrandbits(32)))
            else:
                move = legal[rng.randrange(len(legal))]
            state.apply(move)


def _hands(rng: random.Random, count: int, lo: int = 0, hi: int = 13):
    for i in range(count):
        k = rng.randint(lo, hi)
        cards = rng.sample(range(52), k)
        if i % 7 == 0:
            cards = list(set(cards) | {48, 49, 50, 51})  # four 2s (Tiến lên)
        if i % 5 == 0:  # rich in pairs and quads
            ranks = rng.sample(range(12), 6)
            cards = [4 * r + s for r in ranks for s in rng.sample(range(4), rng.randint(2, 4))]
        yield _mask(cards)


# -- Tiến lên -----------------------------------------------------------------------------------


def test_tienlen_classify_matches_reference():
    rng = random.Random(3)
    for i in range(60_000):
        kind = i % 4
        if kind == 0:
            m = rng.getrandbits(54) - (1 << 52)
        elif kind == 1:
            m = _mask(rng.sample(range(52), rng.randint(1, 14)))
        else:  # runs of ranks with 1, 2, 3 cards each (straights, pair sequences, near misses)
            lo = rng.randint(0, 12)
            per = rng.choice([1, 2, 2, 3, None])
            m = 0
            for r in range(lo, lo + rng.randint(1, 13 - lo)):
                n = per if per else rng.randint(0, 4)
                if kind == 3 and rng.random() < 0.1:
                    n = rng.randint(0, 4)
                for s in rng.sample(range(4), n):
                    m |= 1 << (4 * r + s)
        assert TR.classify(m) == TREF.classify(m), hex(m)


def test_tienlen_plan_matches_reference():
    for hand in _hands(random.Random(7), 30_000, 0, 20):
        assert TH.plan(hand) == TREF.plan(hand), hex(hand)
    TH._PLANS.clear()
    TH._RECIPES.clear()
    for hand in _hands(random.Random(8), 3_000):
        assert TH.plan(hand) == TREF.plan(hand), hex(hand)


def test_tienlen_heuristic_and_follow_rule_match_reference():
    n = 0
    for state in _random_games("tienlen", 150, 11):
        game = state.game
        seed = n
        n += 1
        assert game.heuristic_move(state, random.Random(seed)) == TREF.choose(
            game, state, random.Random(seed)
        )
        if state.top:
            legal = set(state.legal_moves())
            same, bits, shapes = state.follow_rule()
            for m in TR.lead_list(TR.generate(state.hands[state.current_player])):
                sh = TR.shape_of(m)
                assert ((sh == same and m.bit_length() > bits) or sh in shapes) == (m in legal)
    assert n > 5_000


def test_tienlen_lowest_play_is_the_lowest_legal_play_of_its_kind():
    """``lowest_play(bomb)``, which the heuristic asks instead of listing the moves, is the
    smallest legal play whose shape is (or is not) a bomb of the rules, under random options
    (the four_pairs_ignore_pass turns included)."""
    n = 0
    for state in _random_games("tienlen", 150, 12):
        if not state.top:
            continue
        bombs = state.game._bombs
        plays = state.legal_moves()[1:]
        for bomb in (True, False):
            want = min((m for m in plays if (TR.shape_of(m) in bombs) == bomb), default=0)
            assert state.lowest_play(bomb) == want, (hex(state.top), bomb)
        n += 1
    assert n > 2_000


@pytest.mark.parametrize(
    "hand,shape,floor,want",
    [
        ("3S 3C 4D 4H 5S 5C", TR.PAIRSEQ + 3, 0, "3S 3C 4D 4H 5S 5C"),
        ("3S 3C 3D 4D 4H 5S 5C 5H", TR.PAIRSEQ + 3, 10, "3S 3C 4D 4H 5S 5H"),  # top above 5C
        ("3S 3C 3D 4D 4H 5S 5C 5H", TR.PAIRSEQ + 3, 12, ""),  # above 5H
        ("3S 4S 4H 5C 6D 7S", TR.STRAIGHT + 3, 0, "3S 4S 5C"),
        ("3S 4S 4H 5C 6D 7S", TR.STRAIGHT + 3, 10, "4S 5C 6D"),  # top above 5C
        ("QS KS AS 2S", TR.STRAIGHT + 3, 0, "QS KS AS"),  # no 2 in a straight
        ("KS AS 2S 2C", TR.STRAIGHT + 3, 46, ""),
        ("7S 7C 7D 9S 9H", TR.PAIR, 0, "7S 7C"),
        ("7S 7C 7D 9S 9H", TR.PAIR, 18, "7S 7D"),  # top above 7C
        ("7S 7C 7D 9S 9H", TR.TRIPLE, 0, "7S 7C 7D"),
        ("2S 2C 2D 2H", TR.QUAD, 0, "2S 2C 2D 2H"),
    ],
)
def test_tienlen_lowest_combination_table(hand, shape, floor, want):
    """The smallest combination of a shape with its top card at or above a card id, on hands
    written in card notation ("" when there is none)."""
    from quansu.games.cards import parse_cards

    mask = lambda text: sum(1 << c for c in parse_cards(text))  # noqa: E731
    assert TR.lowest_combination(mask(hand), shape, floor) == (mask(want) if want else 0)


def test_tienlen_lowest_combination_is_the_least_generated():
    """``rules.lowest_combination`` (what ``lowest_play`` asks, listing nothing) against the
    generated combinations of random hands, every shape, random floors."""
    rng = random.Random(41)
    shapes = TR.ALL_SHAPES + tuple(TR.PAIRSEQ + k for k in range(7, 9))
    n = 0
    for _ in range(1_500):
        hand = sum(1 << c for c in rng.sample(range(52), rng.choice((3, 6, 9, 13, 13, 20, 28))))
        groups = TR.generate(hand)
        for shape in shapes:
            for floor in (0, rng.randrange(53)):
                want = min((m for m in groups.get(shape, ()) if m.bit_length() > floor), default=0)
                assert TR.lowest_combination(hand, shape, floor) == want, (hex(hand), shape, floor)
                n += 1
    assert n == 1_500 * len(shapes) * 2


# -- Sâm lốc ------------------------------------------------------------------------------------


def test_samloc_plan_matches_reference():
    for hand in _hands(random.Random(5), 15_000):
        for allow_two in (True, False):
            assert SH.plan(hand, allow_two) == SREF.plan(hand, allow_two), hex(hand)
            assert SH.plan_cost(hand, allow_two) == SREF.plan_cost(hand, allow_two)


def test_samloc_can_beat_matches_beating_combos():
    rng = random.Random(5)
    tops = [(SR.SINGLE, 1), (SR.PAIR, 2), (SR.TRIPLE, 3), (SR.QUAD, 4), (SR.DQUAD, 8)]
    for i in range(25_000):
        hand = _mask(rng.sample(range(52), rng.randint(0, 16)))
        if i % 4 == 0:
            for r in rng.sample(range(13), rng.randint(0, 3)):
                hand |= 0xF << (4 * r)
        if i % 4 == 1:  # nearly every rank: long straights, A-high windows
            hand = _mask(4 * r + rng.randrange(4) for r in range(13) if rng.random() < 0.93)
        if rng.random() < 0.5:
            ctype, length = SR.STRAIGHT, rng.randint(3, 14)
            key = rng.randint(-1, 14)
        else:
            ctype, length = tops[rng.randrange(len(tops))]
            key = rng.randint(0, 12)
        for flags in (
            (True, True, True),
            (True, False, False),
            (False, True, False),
            (False, False, True),
        ):
            assert SR.can_beat(hand, ctype, length, key, *flags) == bool(
                SR.beating_combos(hand, ctype, length, key, *flags)
            )


def test_samloc_heuristic_matches_reference():
    n = 0
    for state in _random_games("samloc", 150, 13, heuristic_share=0.5):
        game = state.game
        assert game.heuristic_move(state, random.Random(n)) == SREF.heuristic_move(
            game, state, random.Random(n)
        )
        n += 1
    assert n > 2_000


def test_tan_heuristic_matches_reference():
    n = 0
    for state in _random_games("tan", 150, 17, heuristic_share=0.5):
        game = state.game
        assert game.heuristic_move(state, random.Random(n)) == TANREF.heuristic_move(
            state, random.Random(n)
        )
        n += 1
    assert n > 2_000


def test_sam_success_chance_is_the_reference_loop_and_reads_no_randomness():
    rng = random.Random(17)
    cls = games.game_classes()["samloc"]
    for i in range(150):
        game = games.make("samloc", rng.randint(2, 4), _random_options(cls, rng))
        if i % 2:
            hand = _mask(rng.sample(range(52), 10))
        else:  # strong hands: few ranks, long straights, 2s
            hand = 0
            for r in rng.sample(range(13), 4):
                for s in rng.sample(range(4), rng.randint(1, 3)):
                    if hand.bit_count() < 10:
                        hand |= 1 << (4 * r + s)
            while hand.bit_count() < 10:
                hand |= 1 << rng.randrange(52)
        unseen = SR.FULL & ~hand
        caller = random.Random(i)
        before = caller.getstate()
        got = SH.sam_success_chance(game, hand, unseen, caller)
        assert caller.getstate() == before
        assert got == SREF.sam_success_chance(game, hand, unseen)
        assert SH.sam_success_chance(game, hand, unseen, random.Random(99)) == got  # memoised
    assert len(SH._sam_memo) <= SH._SAM_MEMO_MAX


def test_sam_success_chance_memo_is_bounded(monkeypatch):
    monkeypatch.setattr(SH, "_SAM_MEMO_MAX", 4)
    SH._sam_memo.clear()
    game = games.make("samloc", 4)
    rng = random.Random(2)
    for _ in range(10):
        hand = _mask(rng.sample(range(52), 10))
        SH.sam_success_chance(game, hand, SR.FULL & ~hand)
        assert len(SH._sam_memo) <= 4


# -- Phỏm ---------------------------------------------------------------------------------------


def test_phom_determinize_matches_reference():
    rng = random.Random(21)
    constrained = 0
    n = 0
    for state in _random_games("phom", 80, 23, heuristic_share=0.8):
        if rng.random() < 0.5:
            continue
        for seat in range(state.game.num_players):
            seed = rng.getrandbits(32)
            r1, r2 = random.Random(seed), random.Random(seed)
            a = phom_view.determinize(state, seat, r1)
            b = PREF.determinize(state, seat, r2)
            assert (a.hands, a.stock, a.aside) == (b.hands, b.stock, b.aside)
            assert r1.getstate() == r2.getstate()
            constrained += any(state.eaten[o] for o in range(state.game.num_players) if o != seat)
            n += 1
    assert constrained > 200 and n > 1_000


def test_phom_min_deadwood_is_the_search_over_the_whole_hand():
    """``min_deadwood`` searches the meldable cards only (its cache shared by hands that differ
    in the others): the same value and melded mask as the search over the whole hand, also
    with eaten cards (one per meld or not) and with no cover."""
    from quansu.games.phom import rules as PR

    rng = random.Random(31)
    kinds = {"free": 0, "no cover": 0, "eaten": 0}
    for i in range(6_000):
        h = _mask(rng.sample(range(52), rng.randint(1, 13)))
        if i % 4 == 0:  # rich in melds: runs and sets
            s, r = rng.randrange(4), rng.randrange(9)
            h |= sum(1 << (13 * s + r + k) for k in range(rng.randint(3, 5)))
            h |= sum(1 << (13 * t + r) for t in rng.sample(range(4), 3))
        e = 0
        if i % 3:
            picks = PR.bits(PR.meldable(h) if i % 5 else h)
            for x in rng.sample(picks, min(len(picks), rng.randint(0, 3))):
                e |= 1 << x
        for one in (True, False):
            want = PR._best(h, e, one, {})
            assert PR.min_deadwood(h, e, one) == want, (h, e, one)
            kinds["free"] += bool(h & ~PR.meldable(h))
            kinds["no cover"] += want[0] >= 10**6
            kinds["eaten"] += bool(e) and want[0] < 10**6
    assert min(kinds.values()) > 300, kinds
    info = PR.min_deadwood.cache_info()  # the LRU cache's figures, as before
    assert info.maxsize and info.currsize


def _reference_potential(h: int, melded: int, unseen: int) -> int:
    """``games/phom/heuristic._potential`` as it was (a loop over the deadwood's 3-card melds)."""
    from quansu.games.phom import heuristic as PH
    from quansu.games.phom import rules as PR

    count = 0
    for x in PR.bits(h & ~melded):
        bx = 1 << x
        for rest in PH._REST[x]:
            inside = rest & h
            if inside > bx and not inside & (inside - 1) and rest & unseen:
                count += 1
    return count


def test_phom_potential_and_points_match_the_loops():
    from quansu.games.phom import heuristic as PH
    from quansu.games.phom import rules as PR

    rng = random.Random(37)
    nonzero = 0
    for i in range(20_000):
        cards = rng.sample(range(52), rng.randint(0, 30))
        k = rng.randint(0, min(11, len(cards)))
        h = _mask(cards[:k])
        unseen = _mask(cards[k:])
        # (as in a game: the seat's own cards are never unseen)
        melded = PR.min_deadwood(h, 0)[1] if i % 2 else h & _mask(rng.sample(range(52), 26))
        want = _reference_potential(h, melded, unseen)
        assert PH._potential(h, melded, unseen) == want, (h, melded, unseen)
        nonzero += want > 0
        assert PR.points(h) == sum(PR.POINTS[x] for x in PR.bits(h))
    assert nonzero > 3_000
    assert PR.points(PR.FULL) == 4 * 91 and PR.points(0) == 0


def test_phom_discard_terms_match_the_plain_computation():
    """The heuristic's discard terms (free cards' deadwood from the whole hand's) against the
    plain computation: the search over each remaining hand, the loop ``_potential``."""
    from quansu.games.phom import heuristic as PH
    from quansu.games.phom import rules as PR
    from quansu.games.phom.game import DISCARD, U

    seen = 0
    for state in _random_games("phom", 120, 41, heuristic_share=0.8):
        if state.phase != DISCARD:
            continue
        legal = state.legal_moves()
        p = state.cur
        h, e, one = state.hands[p], state.eaten[p], state.game._one
        unseen = PH._unseen(state, p)
        got = {row[0]: row for row in PH.discard_terms(state, legal)}
        for mv in legal:
            if mv == U or not 0 <= mv < 52:
                continue
            h2 = h & ~(1 << mv)
            dw, melded = PR._best(h2, e, one, {})
            assert got[mv][2:4] == (dw, _reference_potential(h2, melded, unseen)), (h, e, mv)
            seen += 1
    assert seen > 5_000


def test_phom_sparring_matches_the_reference_valuation(monkeypatch):
    """The sparring bot's typed card loops (hand value, the eat chance, the eat cost once per
    decision, the Ù chance's shortcut) give the same values, bit for bit, and the same moves as
    the code they replaced (tests/helpers/reference_phom_sparring.py), in every state of random
    games under random options."""
    from quansu.games.phom import sparring as SP
    from quansu.games.phom.game import DISCARD
    from tests.helpers.reference_phom_sparring import ReferenceCtx

    values = moves = 0
    for state in _random_games("phom", 120, 43, heuristic_share=0.8):
        legal = state.legal_moves()
        if len(legal) < 2:
            continue
        game = state.game
        if state.phase == DISCARD:
            new, ref = SP._Ctx(game, state, SP.PARAMS), ReferenceCtx(game, state, SP.PARAMS)
            for mv in legal:
                if type(mv) is int and 0 <= mv < 52:
                    h = new.hand & ~(1 << mv)
                    assert new.hand_value(h, new.eaten) == ref.hand_value(h, ref.eaten)
                    assert new.danger(mv) == ref.danger(mv)
                    values += 1
        got = SP.choose(game, state)
        with monkeypatch.context() as m:
            m.setattr(SP, "_Ctx", ReferenceCtx)
            assert got == SP.choose(game, state)
        moves += 1
    assert values > 10_000 and moves > 1_500


@pytest.mark.parametrize("name", ["tan", "phom"])
def test_is_terminal_is_the_terminal_seat(name):
    for i, state in enumerate(_random_games(name, 40, 29, heuristic_share=0.5)):
        assert state.is_terminal() is False and state.current_player != TERMINAL
    for state_end in _finished(name, 20):
        assert state_end.is_terminal() and state_end.current_player == TERMINAL


def _finished(name: str, count: int):
    game = games.make(name, 4)
    rng = random.Random(31)
    for _ in range(count):
        st = game.new_initial_state(rng)
        while not st.is_terminal():
            legal = st.legal_moves()
            st.apply(legal[rng.randrange(len(legal))])
        yield st


# -- whole searches -------------------------------------------------------------------------------


def _position(name: str, seed: int, after_declarations: bool = False):
    game = games.make(name, 4)
    rng = random.Random(seed)
    while True:
        st = game.new_initial_state(rng)
        for _ in range(rng.randint(2, 12)):
            if st.is_terminal():
                break
            st.apply(game.heuristic_move(st, rng))
        if st.is_terminal() or len(st.legal_moves()) < 2:
            continue
        if after_declarations and st.in_declarations:
            continue
        return st


def _same(a, b) -> None:
    assert [(m.move, m.visits, m.mean, m.line) for m in a.moves] == [
        (m.move, m.visits, m.mean, m.line) for m in b.moves
    ]
    assert (a.iterations, a.tree_size) == (b.iterations, b.tree_size)


@pytest.mark.parametrize(
    "name,seed", [("tienlen", 1), ("tienlen", 2), ("samloc", 3), ("samloc", 4)]
)
def test_search_with_the_reference_heuristic_gives_the_same_result(name, seed):
    state = _position(name, seed)
    game = state.game
    cfg = SearchConfig(iterations=150, playout="heuristic")
    fast = search(state, cfg, seed=seed)
    ref = TREF.choose if name == "tienlen" else SREF.heuristic_move
    game.heuristic_move = lambda st, rng: ref(game, st, rng)  # this game object only
    try:
        slow = search(state, cfg, seed=seed)
    finally:
        del game.heuristic_move
    _same(fast, slow)


@pytest.mark.parametrize("seed", [5, 6])
def test_phom_search_with_the_reference_determinization_gives_the_same_result(seed, monkeypatch):
    state = _position("phom", seed)
    cfg = SearchConfig(iterations=150)
    fast = search(state, cfg, seed=seed)
    from quansu.games.phom.game import PhomState

    monkeypatch.setattr(
        PhomState, "determinize", lambda self, seat, rng: PREF.determinize(self, seat, rng)
    )
    _same(fast, search(state, cfg, seed=seed))


# -- the benchmark ------------------------------------------------------------------------------


def test_bench_shipped_against_a_baseline_checkout(tmp_path, capsys):
    """``bench.search --shipped`` with this checkout as its own baseline (a smoke run)."""
    from quansu.bench import search as bench_search

    out = tmp_path / "shipped.json"
    assert (
        bench_search.main(
            [
                "--shipped",
                "--uniform",
                "--games",
                "tienlen",
                "--hint-positions",
                "2",
                "--iterations",
                "20",
                "--levels",
                "1",
                "--baseline",
                str(ROOT),
                "--json",
                str(out),
            ]
        )
        == 0
    )
    data = json.loads(out.read_text())
    row = data["shipped"][0]
    assert row["game"] == "tienlen" and row["evaluator"] == "uniform"
    for who in ("current", "baseline"):
        assert row[who]["iterations_per_s_cpu"] > 0 and row[who]["levels"]["1"]["p50_ms"] > 0
    assert row["ratio"]["hint_p50"] > 0
    assert "ratio" in capsys.readouterr().out
