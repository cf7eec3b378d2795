"""The fast move generator against a slow brute force (every subset of the hand, classified and
compared by a direct transcription of rules §2-§4) on thousands of random positions."""

import random

import pytest

from quansu import games
from quansu.games.tienlen import rules as R
from quansu.games.tienlen.testing import position

TWO = 12


def slow_kind(cards):
    """("set", n) | ("straight", n) | ("pairs", k) | None, written from §2 without masks."""
    ranks = sorted(c // 4 for c in cards)
    if not ranks:
        return None
    distinct = sorted(set(ranks))
    if len(distinct) == 1:
        return ("set", len(ranks))
    if TWO in distinct or len(distinct) < 3:
        return None
    if distinct != list(range(distinct[0], distinct[0] + len(distinct))):
        return None
    if all(ranks.count(r) == 1 for r in distinct):
        return ("straight", len(ranks))
    if all(ranks.count(r) == 2 for r in distinct):
        return ("pairs", len(distinct))
    return None


def slow_is_bomb(kind, lpsb):
    return kind == ("set", 4) or (kind[0] == "pairs" and (kind[1] <= 4 or lpsb))


def slow_beats(x, t, opts):
    """§3: same type and size with a stronger top card, or the chop table."""
    kx, kt = slow_kind(x), slow_kind(t)
    if kx == kt:
        return max(x) > max(t)
    two_single = kt == ("set", 1) and max(t) // 4 == TWO
    two_pair = kt == ("set", 2) and max(t) // 4 == TWO
    lpsb = opts["long_pair_sequence_is_bomb"]
    if kx == ("pairs", 3):
        return two_single
    if kx == ("set", 4):
        return (
            two_single
            or (two_pair and opts["four_of_a_kind_chops_pair_of_twos"])
            or kt == ("pairs", 3)
        )
    if kx == ("pairs", 4):
        return two_single or two_pair or kt in (("pairs", 3), ("set", 4))
    if kx[0] == "pairs" and kx[1] >= 5 and lpsb:
        return two_single or two_pair or kt in (("pairs", 3), ("set", 4), ("pairs", 4))
    return False


def slow_legal(st):
    """Every legal move of the seat to act, by enumerating the subsets of its hand."""
    opts = st.game.options
    seat = st.current_player
    hand = [c for c in range(52) if st.hands[seat] >> c & 1]
    top = [c for c in range(52) if st.top >> c & 1]
    out = set()
    n = len(hand)
    locked = bool(st.passed >> seat & 1)
    tk = slow_kind(top) if top else None
    if locked:
        mode = opts["four_pairs_ignore_pass"]
        is_two = tk is not None and tk[0] == "set" and tk[1] <= 3 and max(top) // 4 == TWO
        if mode == "pair_of_twos":
            open_ = tk == ("set", 2) and is_two
        elif mode == "twos_and_bombs":
            open_ = is_two or slow_is_bomb(tk, opts["long_pair_sequence_is_bomb"])
        else:
            open_ = False
        assert open_, "a seat that passed was given a turn without the exception"
    for bits in range(1, 1 << n):
        cards = [hand[i] for i in range(n) if bits >> i & 1]
        kind = slow_kind(cards)
        if kind is None:
            continue
        mask = sum(1 << c for c in cards)
        if not top:
            if st.req and not mask & st.req:
                continue
            out.add(mask)
            continue
        if not slow_beats(cards, top, opts):
            continue
        if locked and not (kind[0] == "pairs" and kind[1] >= 4):
            continue
        out.add(mask)
    if top:
        out.add(0)
    return out


def check(st):
    fast = st.legal_moves()
    assert len(fast) == len(set(fast))
    assert set(fast) == slow_legal(st), st.render(st.current_player)
    if st.top:  # the heuristic's query: the lowest play that is (not) a bomb of the rules
        bombs = st.game._bombs
        for bomb in (True, False):
            want = min((m for m in fast[1:] if (R.shape_of(m) in bombs) == bomb), default=0)
            assert st.lowest_play(bomb) == want, (st.render(st.current_player), bomb)


OPTION_SETS = [
    {},
    {"four_of_a_kind_chops_pair_of_twos": False, "four_pairs_ignore_pass": "twos_and_bombs"},
    {
        "instant_win_enabled": False,
        "long_pair_sequence_is_bomb": False,
        "four_pairs_ignore_pass": "none",
    },
    {"instant_win_enabled": False, "first_lead_requires_3_spades": True},
]


def test_game_positions_against_brute_force():
    """>= 1,200 positions from random games (leads, follows, after passes, every option set)."""
    rng = random.Random(11)
    checked = {"lead": 0, "follow": 0, "locked": 0}
    while sum(checked.values()) < 1200:
        opts = rng.choice(OPTION_SETS)
        g = games.make("tienlen", rng.choice((2, 3, 4)), opts)
        st = g.new_initial_state(rng)
        while not st.is_terminal():
            seat = st.current_player
            kind = "lead" if not st.top else ("locked" if st.passed >> seat & 1 else "follow")
            # full 13-card leads are the slowest to brute-force: sample them less
            if rng.random() < (0.15 if st.hands[seat].bit_count() >= 12 else 0.5):
                check(st)
                checked[kind] += 1
            st.apply(rng.choice(st.legal_moves()))
    assert checked["lead"] > 100 and checked["follow"] > 300


def _random_combo(rng, cards, want):
    groups = R.generate(sum(1 << c for c in cards))
    shapes = [s for s in groups if s in want] or list(groups)
    return rng.choice(groups[rng.choice(shapes)])


def test_crafted_positions_against_brute_force():
    """>= 1,000 crafted positions rich in 2s and bombs, against tops of every kind, with the
    seat to act locked out or not."""
    rng = random.Random(5)
    n_checked = 0
    want_tops = [R.SINGLE, R.PAIR, R.TRIPLE, R.QUAD, R.PS3, R.PS4, R.PS5, R.STRAIGHT + 3]
    while n_checked < 1000:
        opts = rng.choice(OPTION_SETS[:3])
        g = games.make("tienlen", 4, opts)
        # a hand from few ranks, so pairs, fours and pair sequences are common
        ranks = rng.sample(range(13), rng.randint(3, 8))
        pool = [4 * r + s for r in ranks for s in range(4)]
        size = rng.randint(1, min(11, len(pool) - 1))
        hand = rng.sample(pool, size)
        others = [c for c in range(52) if c not in hand]
        top = _random_combo(rng, rng.sample(others, 26), [rng.choice(want_tops)])
        if rng.random() < 0.3:
            top = _random_combo(
                rng, [c for c in others if c >= 48 or rng.random() < 0.4], [R.SINGLE, R.PAIR]
            )
        shape = R.shape_of(top)
        is_two = shape <= R.TRIPLE and top >> 48
        mode = g.options["four_pairs_ignore_pass"]
        exc = (mode == "pair_of_twos" and shape == R.PAIR and is_two) or (
            mode == "twos_and_bombs" and (is_two or shape in g._bombs)
        )
        locked = exc and rng.random() < 0.5
        rest = [c for c in others if not top >> c & 1]
        rng.shuffle(rest)
        hands = [0, sum(1 << c for c in hand), 0, 0]
        hands[2] = sum(1 << c for c in rest[:3])
        hands[3] = sum(1 << c for c in rest[3:6])
        st = position(g, hands, to_act=1, top=top, owner=0, passed=(1,) if locked else ())
        check(st)
        if rng.random() < 0.3:  # the same hand leading
            check(position(g, hands, to_act=1))
        n_checked += 1


@pytest.mark.parametrize(
    "hand",
    [
        "3S 3C 3D 4S 4C 4D 5S 5C 5D 6S 6C 6D 7S",
        "3S 3C 4S 4C 5S 5C 6S 6C 7S 7C 8S 8C 9S",
        "3S 4C 5D 6H 7S 8C 9D TH JS QC KD AH 2S",
    ],
)
def test_dense_thirteen_card_leads(hand):
    g = games.make("tienlen", 4, {"instant_win_enabled": False})
    from quansu.games.cards import parse_mask

    m = parse_mask(hand)
    st = position(g, [m, 0, 0, 0], to_act=0)
    check(st)
