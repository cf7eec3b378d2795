"""The conformance suite (:func:`games.conformance.check_game`), one suite over every game, every
player count (2, 3, 4) and each game's named option sets plus every option off its default:
legal moves until the end and none twice, zones, replay, determinization for every seat, move
text round trips, an illegal move refused without a change, payoffs summing to zero within the
game's bound, and games no longer than ``max_moves``."""

from __future__ import annotations

import pytest

from quansu import games
from quansu.games.conformance import check_game
from tests.helpers.option_sets import OPTION_SETS, flipped

#: Random games per case: the same for every game.
GAMES = 20
PLAYERS = (2, 3, 4)


def _cases():
    for name in games.game_names():
        sets = dict(OPTION_SETS.get(name, {"default": {}}))
        for players in PLAYERS:
            for set_name, options in list(sets.items()) + [("flipped", None)]:
                yield pytest.param(name, players, options, id=f"{name}-{players}p-{set_name}")


@pytest.mark.parametrize("name,players,options", list(_cases()))
def test_conformance(name, players, options):
    if options is None:
        options = flipped(name, players)
    game = games.make(name, players, options)
    stats = check_game(game, games=GAMES, seed=players * 1_000 + len(options))
    assert stats["max_length"] <= game.max_moves


def test_every_game_has_named_option_sets_and_flips_options():
    assert set(OPTION_SETS) == set(games.game_names())
    for name in games.game_names():
        assert flipped(name, 4), name
