import pytest

from quansu.games.base import OptionError, OptionSpec, resolve_options
from quansu.games import GameError, make

SPECS = (
    OptionSpec("flag", True, "a switch"),
    OptionSpec("mode", "a", "a mode", choices=("a", "b")),
    OptionSpec("amount", 5, "an amount", type=int),
    OptionSpec("table", (1, 2, 3), "a payment table", type=tuple),
)


def test_defaults_and_overrides():
    assert resolve_options(SPECS, None) == {"flag": True, "mode": "a", "amount": 5, "table": (1, 2, 3)}
    assert resolve_options(SPECS, {"mode": "b", "table": [2, 3, 4]})["table"] == (2, 3, 4)


@pytest.mark.parametrize("given,fragment", [
    ({"nope": 1}, "unknown option 'nope'"),
    ({"flag": "yes"}, "'flag'"),
    ({"mode": "c"}, "'c' is not one of"),
    ({"amount": 2.5}, "whole number"),
    ({"table": [1, 2]}, "list of 3 numbers"),
])
def test_bad_options_are_named(given, fragment):
    with pytest.raises(OptionError, match=fragment):
        resolve_options(SPECS, given)


def test_unknown_game():
    with pytest.raises(GameError, match="unknown game 'chess'"):
        make("chess")
