"""Every bot plays complete games of every registered game (and the toy game) without an illegal
move; bot specs and strength levels."""

from __future__ import annotations

import random

import pytest

from quansu import games
from quansu.games.base import GameError
from quansu.search import SearchConfig, SearchOptionError
from quansu.search.arena import play_game
from quansu.search.bots import HeuristicBot, ISMCTSBot, PIMCBot, RandomBot, make_bot, parse_bot_spec
from quansu.search.levels import LEVELS, level_bot, level_config
from tests.search.test_search_toygame import BeatGame, beat_state

SPECS = [
    "random",
    "heuristic",
    "ismcts:iterations=15",
    "pimc:worlds=2:iterations=16",
    "ismcts:iterations=10:opponent_keys=observer:playout=heuristic",
    "level1",
]

CASES = [
    (name, players)
    for name in games.game_names()
    for players in sorted({games.game_classes()[name].min_players, 4})
]


def play_all_bots(game, seed):
    n = game.num_players
    deal = game.random_deal(random.Random(seed))
    for r in range(0, len(SPECS), n):  # every spec gets a seat in some game
        specs = [SPECS[(r + s) % len(SPECS)] for s in range(n)]
        bots = [make_bot(spec, seed=seed * 10 + s) for s, spec in enumerate(specs)]
        state, moves, _ = play_game(game, deal, bots)
        assert state.is_terminal()
        ret = state.returns()
        assert len(ret) == n and abs(sum(ret)) < 1e-9
        assert sum(moves) == len(state.history)


@pytest.mark.parametrize("name,players", CASES)
def test_every_bot_plays_complete_games(name, players):
    play_all_bots(games.make(name, players), seed=players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_plays_complete_toy_games(players):
    play_all_bots(BeatGame(players, {"deck_size": 40, "hand_size": 6}), seed=players)


def test_a_bot_only_moves_for_the_seat_to_act():
    st = beat_state(2, ["5S 3S", "4C"], deck_size=12)
    for bot in (RandomBot(0), HeuristicBot(0), ISMCTSBot(SearchConfig(iterations=5)), PIMCBot(2)):
        with pytest.raises(GameError, match="not to act"):
            bot.choose(st, 1)
        assert bot.choose(st, 0) in st.legal_moves()


def test_heuristic_bot_uses_the_games_policy():
    st = beat_state(2, ["5S 3S", "4C"], deck_size=12)
    assert HeuristicBot(0).choose(st, 0) == st.game.heuristic_move(st, random.Random(0))


def test_bots_are_reproducible_by_seed():
    game = BeatGame(4, {"deck_size": 52, "hand_size": 8})
    deal = game.random_deal(random.Random(3))

    def run():
        bots = [
            make_bot(s, seed=i)
            for i, s in enumerate(
                ["ismcts:iterations=30", "pimc:worlds=3:iterations=30", "random", "level2"]
            )
        ]
        return play_game(game, deal, bots)[0].history

    assert run() == run()


def test_pimc_finds_the_known_best_move():
    st = beat_state(2, ["2H 3S", "9C"], deck_size=52)
    bot = PIMCBot(5, SearchConfig(iterations=200), seed=1)
    assert bot.choose(st, 0) == st.game.parse_move("2H")
    visits, mean = bot.last_values[st.game.parse_move("2H")]
    assert visits > 0 and mean == pytest.approx(1.0)


def test_ismcts_bot_keeps_its_last_result():
    st = beat_state(2, ["2H 3S", "9C"], deck_size=52)
    bot = ISMCTSBot(SearchConfig(iterations=300), seed=1)
    assert bot.choose(st, 0) == st.game.parse_move("2H")
    assert bot.last_result.iterations == 300


@pytest.mark.parametrize(
    "spec,word",
    [
        ("", "bot spec"),
        ("alphazero", "unknown bot"),
        ("ismcts:iterations", "key=value"),
        ("ismcts:iterations=0", "iterations"),
        ("ismcts:depth=3", "depth"),
        ("random:x=1", "no settings"),
        ("pimc:worlds=0", "worlds"),
        ("pimc:foo=1", "foo"),
        ("level3:iterations=5", "set by the level"),
        ("level2:playout=smart", "playout"),
        ("level9", "unknown bot"),
    ],
)
def test_bad_bot_specs_name_the_problem(spec, word):
    with pytest.raises(SearchOptionError, match=word):
        make_bot(spec)


def test_spec_values_are_parsed():
    assert parse_bot_spec("ISMCTS:iterations=20:time_s=0.5:value_scale=none:playout=heuristic") == (
        "ismcts",
        {"iterations": 20, "time_s": 0.5, "value_scale": None, "playout": "heuristic"},
    )
    bot = make_bot("ismcts:iterations=20:c_puct=2")
    assert (
        bot.config.iterations == 20
        and bot.config.c_puct == 2.0
        and bot.name == "ismcts:iterations=20:c_puct=2"
    )


def test_levels_grow_in_budget_and_shrink_in_temperature():
    lv = [LEVELS[k] for k in range(1, 6)]
    assert [x.iterations for x in lv] == sorted(x.iterations for x in lv)
    assert [x.temperature for x in lv] == sorted((x.temperature for x in lv), reverse=True)
    assert lv[-1].temperature == 0.0
    cfg = level_config(5)
    assert cfg.iterations == LEVELS[5].iterations and cfg.temperature == 0.0
    assert level_bot(2).name == "level2"
    bot = make_bot("level4:playout=heuristic:c_puct=2")
    assert (bot.config.iterations, bot.config.playout, bot.config.c_puct) == (
        LEVELS[4].iterations,
        "heuristic",
        2.0,
    )
    assert (
        bot.config.temperature == LEVELS[4].temperature
        and bot.name == "level4:playout=heuristic:c_puct=2"
    )
    for bad in (0, 6, True, "3"):
        with pytest.raises(SearchOptionError):
            level_config(bad)
