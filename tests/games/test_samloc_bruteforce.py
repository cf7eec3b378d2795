"""The fast move generator against a slow brute force written from the rules text, on random
positions of random games (several option sets, 2-4 players)."""

import itertools
import random

import pytest

from quansu.games.base import IllegalMoveError
from quansu.games.samloc import DECLARE, DECLINE, PASS
from tests.helpers.samloc import game

# rank index 0..12 = 3 4 5 6 7 8 9 T J Q K A 2
ACE, TWO = 11, 12


def slow_classify(cards, allow_two, double_quad):
    """(type, key) straight by the rule of docs/rules/samloc.md §2, or None."""
    ranks = sorted(c // 4 for c in cards)
    n = len(cards)
    if n == 1:
        return ("single", 1, ranks[0])
    if len(set(ranks)) == 1:
        return ({2: "pair", 3: "triple", 4: "quad"}[n], n, ranks[0])
    if n == 8 and double_quad:
        distinct = sorted(set(ranks))
        if len(distinct) == 2 and ranks.count(distinct[0]) == 4:
            return ("dquad", 8, distinct[1])
    if n >= 3 and len(set(ranks)) == n:
        if TWO in ranks:
            if not allow_two:
                return None
            vals = sorted(1 if r == ACE else 2 if r == TWO else r + 3 for r in ranks)
        else:
            vals = sorted(r + 3 for r in ranks)  # A -> 14
        if all(vals[i + 1] == vals[i] + 1 for i in range(n - 1)):
            return ("straight", n, vals[-1])
    return None


def slow_beats(move, top, opts):
    mt, ml, mk = move
    tt, tl, tk = top
    if mt == "dquad" and tt != "dquad":
        return opts["double_quad_enabled"] and tt == "pair" and tk == TWO
    if mt == tt and ml == tl:
        return mk > tk
    if mt == "quad":
        if tt == "single" and tk == TWO:
            return True
        if tt == "pair" and tk == TWO and opts["single_quad_chops_pair_of_twos"]:
            return True
    return False


def slow_legal(st, g):
    """Every legal move by enumerating all subsets of the hand."""
    if st.is_terminal():
        return set()
    if st._phase == 0:
        return {DECLARE, DECLINE}
    o = g.options
    s = st.current_player
    hand = [c for c in range(52) if st.hands[s] >> c & 1]
    top = st.top
    tcls = None
    if top is not None:
        tcards = [c for c in range(52) if top[1] >> c & 1]
        tcls = slow_classify(tcards, o["straight_allows_two"], o["double_quad_enabled"])
    # báo một forced rule: the next seat still holding cards has exactly one card
    forced = False
    if o["bao_mot_mode"] == "forced":
        for i in range(1, g.num_players):
            t = (s + i) % g.num_players
            if st.hands[t]:
                forced = st.hands[t].bit_count() == 1
                break
    high = max(c // 4 for c in hand)
    out = set() if top is None else {PASS}
    for k in range(1, len(hand) + 1):
        for combo in itertools.combinations(hand, k):
            cls = slow_classify(combo, o["straight_allows_two"], o["double_quad_enabled"])
            if cls is None:
                continue
            if forced and cls[0] == "single" and cls[2] != high:
                continue
            if top is None:
                if cls[0] == "dquad":
                    continue
            elif not slow_beats(cls, tcls, o):
                continue
            out.add(sum(1 << c for c in combo))
    return out


OPTION_SETS = [
    {},
    {"straight_allows_two": False, "single_quad_chops_pair_of_twos": True},
    {"bao_mot_mode": "forced", "double_quad_enabled": False},
]


def _positions(g, count, seed):
    """Positions from random playouts (Sâm mostly declined, to reach long games)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        st = g.new_initial_state(rng)
        while not st.is_terminal():
            out.append(st.clone())
            lm = st.legal_moves()
            if lm[-1] == DECLINE:
                m = DECLARE if rng.random() < 0.05 else DECLINE
            elif rng.random() < 0.3 and len(lm) > 1:
                m = rng.choice(lm[1:]) if lm[0] == PASS else rng.choice(lm)
            else:
                m = rng.choice(lm)
            st.apply(m)
    return out[:count]


@pytest.mark.parametrize(
    "n,opts,seed",
    [
        (4, OPTION_SETS[0], 1),
        (3, OPTION_SETS[1], 2),
        (2, OPTION_SETS[2], 3),
        (4, OPTION_SETS[2], 4),
        (4, OPTION_SETS[1], 5),
    ],
)
def test_fast_generator_matches_brute_force(n, opts, seed):
    g = game(n, **opts)
    positions = _positions(g, 450, seed)
    rng = random.Random(seed)
    for st in positions:
        fast = st.legal_moves()
        assert len(fast) == len(set(fast))
        assert set(fast) == slow_legal(st, g), g.move_to_text(st.top[1]) if st.top else "lead"
        # apply agrees: legal moves apply; random non-moves are refused and change nothing
        for m in rng.sample(fast, min(3, len(fast))):
            st.clone().apply(m)
        s = st.current_player
        hand = st.hands[s]
        cards = [c for c in range(52) if hand >> c & 1]
        for _ in range(4):
            if not cards:
                break
            sub = sum(1 << c for c in rng.sample(cards, rng.randint(1, len(cards))))
            if sub in fast:
                continue
            before = (st.observation(s), st.zones())
            with pytest.raises(IllegalMoveError):
                st.apply(sub)
            assert (st.observation(s), st.zones()) == before


def _biased_hand(rng, size, exclude=0):
    """A hand rich in quads, 2s and runs (rare in random deals)."""
    hand = 0
    while hand.bit_count() < size:
        kind = rng.random()
        if kind < 0.25:  # a whole rank
            r = rng.randrange(13)
            add = 0xF << (4 * r)
        elif kind < 0.5:  # a run of ranks, one card each
            start = rng.randrange(13)
            add = 0
            for i in range(rng.randint(3, 6)):
                add |= 1 << (4 * ((start + i) % 13) + rng.randrange(4))
        else:
            add = 1 << rng.randrange(52)
        add &= ~exclude & ~hand
        while (hand | add).bit_count() > size:
            add &= add - 1
        hand |= add
    return hand


def _random_top(rng, g, hand):
    """A random combination made of cards not in ``hand``, or None (a lead)."""
    from quansu.games.samloc import rules as R

    if rng.random() < 0.15:
        return None
    rest = ((1 << 52) - 1) & ~hand
    for _ in range(100):
        kind = rng.random()
        r = rng.choice([R.TWO, R.TWO, R.ACE] + list(range(13)))
        cards = [c for c in range(4 * r, 4 * r + 4) if rest >> c & 1]
        if kind < 0.35:
            k = rng.randint(1, 4)
            if len(cards) >= k:
                return sum(1 << c for c in rng.sample(cards, k))
        elif kind < 0.5 and g._dq:
            r2 = rng.randrange(13)
            m = (0xF << (4 * r)) | (0xF << (4 * r2))
            if r != r2 and m & rest == m:
                return m
        else:
            length = rng.randint(3, 6)
            a = rng.randint(1 if g._allow_two else 3, 14 - length + 1)
            if a + length - 1 == 14 and a <= 2:
                continue
            m = 0
            for v in range(a, a + length):
                rk = R.VALUE_RANK[v]
                avail = [c for c in range(4 * rk, 4 * rk + 4) if rest >> c & 1]
                if not avail:
                    m = 0
                    break
                m |= 1 << rng.choice(avail)
            if m and R.classify(m, g._allow_two, g._dq):
                return m
    return None


@pytest.mark.parametrize(
    "opts,seed",
    [(OPTION_SETS[0], 11), (OPTION_SETS[1], 12), ({"single_quad_chops_pair_of_twos": True}, 13)],
)
def test_rules_generators_match_brute_force_on_bomb_rich_hands(opts, seed):
    from quansu.games.samloc import rules as R

    g = game(4, **opts)
    o = g.options
    rng = random.Random(seed)
    for _ in range(250):
        hand = _biased_hand(rng, rng.randint(1, 10))
        top = _random_top(rng, g, hand)
        cards = [c for c in range(52) if hand >> c & 1]
        slow = set()
        tcls = (
            None
            if top is None
            else slow_classify(
                [c for c in range(52) if top >> c & 1],
                o["straight_allows_two"],
                o["double_quad_enabled"],
            )
        )
        for k in range(1, len(cards) + 1):
            for combo in itertools.combinations(cards, k):
                cls = slow_classify(combo, o["straight_allows_two"], o["double_quad_enabled"])
                if cls is None or (top is None and cls[0] == "dquad"):
                    continue
                if top is not None and not slow_beats(cls, tcls, o):
                    continue
                slow.add(sum(1 << c for c in combo))
        if top is None:
            fast = R.lead_combos(hand, g._allow_two)
        else:
            c = R.classify(top, g._allow_two, g._dq)
            fast = R.beating_combos(hand, c[0], c[1], c[2], g._allow_two, g._dq, g._quad_pair)
        assert len(fast) == len(set(fast))
        assert set(fast) == slow
