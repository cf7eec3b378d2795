"""The exact endgame solver (search/endgame.py, issue 19 item 4): its values against a plain
max^n without a table, positions in card notation, and its use as a search's leaf value."""

import random

import pytest

from quansu import games
from quansu.games.tienlen.testing import position
from quansu.search import SearchConfig, search
from quansu.search.endgame import EndgameSolver


def tl(**options):
    return games.make("tienlen", 4, options)


def maxn(st):
    """max^n by plain recursion, no table: the seat to act keeps the first best move."""
    moves = st.legal_moves()
    if not moves:
        return tuple(st.returns())
    me = st.current_player
    best = None
    for m in moves:
        c = st.clone()
        c.apply(m)
        v = maxn(c)
        if best is None or v[me] > best[me]:
            best = v
    return best


def endgames(game, cards: int, count: int):
    """``count`` positions of heuristic games, each at the first point with at most ``cards``
    cards still to play, and one determinization of it from the seat to act."""
    out = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        seed += 1
        st = game.new_initial_state(rng)
        while not st.is_terminal() and (st.endgame_size() is None or st.endgame_size() > cards):
            st.apply(game.heuristic_move(st, rng))
        if not st.is_terminal():
            out.append(st.determinize(st.current_player, rng))
    return out


@pytest.mark.parametrize(
    "name,players",
    [
        ("tienlen", 2),
        ("tienlen", 3),
        ("tienlen", 4),
        ("samloc", 2),
        ("samloc", 4),
        ("tan", 3),
        ("tan", 4),
    ],
)
def test_values_match_plain_maxn(name, players):
    game = games.make(name, players, {})
    # Tấn's hands grow when a defender takes: play may cycle, so its test endgames are smaller
    cards = 4 if name == "tan" else 6
    solver = EndgameSolver(limit=cards, nodes=100_000)
    for det in endgames(game, cards, 12):
        assert solver.applies(det)
        before = det.endgame_key()
        v = solver.value(det)
        assert det.endgame_key() == before  # the state is not modified
        assert v is not None and tuple(v) == maxn(det)
        assert sum(v) == pytest.approx(0.0)
    assert solver.solved == 12 and solver.gave_up == 0


def test_leads_the_boss_first():
    """Seat 0 holds 2♥ and 3♣, seat 1 the A♠ (seats 2 and 3 are out): leading 3♣ lets the A♠ go
    out first; leading the 2♥ keeps the lead and 3♣ goes out after it."""
    game = tl()
    st = position(game, ["2H 3C", "AS", "", ""], to_act=0, finished=(2, 3))
    solver = EndgameSolver(limit=3)
    values = {}
    for text in ("2H", "3C"):
        c = st.clone()
        c.apply(game.parse_move(text))
        values[text] = solver.value(c)[0]
    assert values["2H"] > values["3C"]  # third place pays less than fourth
    res = search(st, SearchConfig(iterations=50, endgame_cards=3), seed=1)
    best = max(res.moves, key=lambda s: s.visits)
    assert game.move_to_text(best.move) == "2H"
    assert best.mean == pytest.approx(values["2H"])  # every leaf below it is exact


def test_key_ignores_the_history():
    """The same hands and trick reached through different plays have one key (a transposition);
    a different trick does not."""
    game = tl()
    a = position(game, ["3C 4C 2H", "5D 6D", "7S 8S", "9H TH"], to_act=0)
    b = a.clone()
    for x in ("2H", "0", "0", "0"):  # 2H, every other seat passes: seat 0 leads again
        b.apply(game.parse_move(x) if x != "0" else 0)
    a.hands[0] = b.hands[0]
    a.played[0] = b.played[0]
    assert b.current_player == 0 and len(b.history) == 4 and not a.history
    assert a.endgame_key() == b.endgame_key()
    c = a.clone()
    c.apply(game.parse_move("3C"))
    assert c.endgame_key() != a.endgame_key()


def test_budget_gives_up_and_the_search_plays_out():
    game = tl()
    det = endgames(game, 10, 1)[0]
    solver = EndgameSolver(limit=10, nodes=1)
    assert solver.value(det) is None and solver.gave_up == 1
    cfg = SearchConfig(iterations=40, endgame_cards=10, endgame_nodes=1)
    a = search(det, cfg, seed=3)
    b = search(det, cfg.replace(endgame_cards=0), seed=3)
    # every solve gives up at once, so the leaves are the same playouts as without the solver
    assert [(s.move, s.visits, s.mean) for s in a.moves] == [
        (s.move, s.visits, s.mean) for s in b.moves
    ]


def test_search_with_endgames_is_deterministic_and_bounded():
    game = tl()
    st = endgames(game, 8, 1)[0]
    cfg = SearchConfig(iterations=60, endgame_cards=8)
    r1, r2 = search(st, cfg, seed=5), search(st, cfg, seed=5)
    assert [(s.move, s.visits, s.mean) for s in r1.moves] == [
        (s.move, s.visits, s.mean) for s in r2.moves
    ]
    bound = game.payoff_bound()
    assert all(-bound <= s.mean <= bound for s in r1.moves)


def test_games_without_endgames_ignore_the_setting():
    game = games.make("phom", 4, {})
    st = game.new_initial_state(random.Random(0))
    assert st.endgame_size() is None
    assert not EndgameSolver(limit=52).applies(st)
    search(st, SearchConfig(iterations=5, endgame_cards=52), seed=0)


def test_config_checks_the_settings():
    from quansu.search.config import SearchOptionError

    with pytest.raises(SearchOptionError, match="endgame_cards"):
        SearchConfig(endgame_cards=-1)
    with pytest.raises(SearchOptionError, match="endgame_nodes"):
        SearchConfig(endgame_nodes=0)
