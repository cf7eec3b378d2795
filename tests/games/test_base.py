import pytest

from quansu.games import GameError, make
from quansu.games.base import OptionError, OptionSpec, resolve_options

SPECS = (
    OptionSpec("flag", True, "a switch"),
    OptionSpec("mode", "a", "a mode", choices=("a", "b")),
    OptionSpec("amount", 5, "an amount", type=int),
    OptionSpec("table", (1, 2, 3), "a payment table", type=tuple),
)


def test_defaults_and_overrides():
    assert resolve_options(SPECS, None) == {
        "flag": True,
        "mode": "a",
        "amount": 5,
        "table": (1, 2, 3),
    }
    assert resolve_options(SPECS, {"mode": "b", "table": [2, 3, 4]})["table"] == (2, 3, 4)


@pytest.mark.parametrize(
    "given,fragment",
    [
        ({"nope": 1}, "unknown option 'nope'"),
        ({"flag": "yes"}, "'flag'"),
        ({"mode": "c"}, "'c' is not one of"),
        ({"amount": 2.5}, "whole number"),
        ({"table": [1, 2]}, "list of 3 numbers"),
    ],
)
def test_bad_options_are_named(given, fragment):
    with pytest.raises(OptionError, match=fragment):
        resolve_options(SPECS, given)


def test_unknown_game():
    with pytest.raises(GameError, match="unknown game 'chess'"):
        make("chess")


def test_each_game_has_one_tuning_record_listed_by_describe_games():
    """Per-game search tuning is one frozen record per game (games.base.SearchTuning): the
    Game attributes the search reads come from it, a subclass cannot set them beside it, and
    DescribeGames lists every field."""
    import dataclasses

    from quansu.games.base import TUNING_ATTRIBUTES, Game, SearchTuning
    from quansu.games.registry import game_classes
    from quansu.server.engine import Engine

    info = {g.name: g for g in Engine().describe_games().games}
    for name, cls in game_classes().items():
        t = cls.tuning
        assert isinstance(t, SearchTuning)
        with pytest.raises(dataclasses.FrozenInstanceError):
            t.playout = "random"
        for attr, field in TUNING_ATTRIBUTES.items():
            assert getattr(cls, attr) == getattr(t, field), (name, attr)
        g = info[name]
        assert (
            g.search_playout,
            g.search_opponent_keys,
            g.search_endgame_cards,
            g.guided_leaf,
            g.guided_prior_temperature,
            g.search_anchor,
            g.improve_worlds,
            g.improve_candidates,
            g.hint_worlds,
        ) == (
            t.playout,
            t.opponent_keys,
            t.endgame_cards,
            t.guided_leaf,
            t.guided_prior_temperature,
            t.anchor,
            t.improve_worlds,
            t.improve_candidates,
            t.hint_worlds,
        ), name
        assert g.analysis_worlds == min(t.analysis_worlds, Engine().limits.max_worlds)
    with pytest.raises(TypeError, match="set it in the game's tuning"):
        type("Bad", (Game,), {"search_playout": "heuristic"})


def test_retune_changes_the_record_and_the_attributes():
    from quansu.games.base import Game, SearchTuning

    class Toy(Game):
        tuning = SearchTuning(playout="heuristic", hint_worlds=64)

    assert (Toy.search_playout, Toy.hint_worlds, Game.search_playout) == ("heuristic", 64, "random")
    Toy.retune(playout="random")
    assert Toy.tuning.playout == Toy.search_playout == "random" and Toy.hint_worlds == 64
