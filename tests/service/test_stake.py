"""Every game's stake (``Game.stake``, the unit of Analyze's default thresholds) is about what
its games are played for: the mean absolute payoff of a seat in games of the rule-based bots."""

import pytest

from quansu.bench.stake import payoff_scale
from quansu.games.registry import game_classes
from quansu.server.engine import THRESHOLD_FRACTIONS, default_thresholds


@pytest.mark.parametrize("name", sorted(game_classes()))
def test_stake_is_what_a_game_is_played_for(name):
    cls = game_classes()[name]
    r = payoff_scale(name, min(4, cls.max_players), deals=40, seed=5)
    # within a factor of two either way (Phỏm's stake of 1 against its 4.4 bets failed this)
    assert 0.5 <= cls.stake / r["mean_abs"] <= 2.0, r


@pytest.mark.parametrize("name", sorted(game_classes()))
def test_default_thresholds_are_fractions_of_the_stake(name):
    cls = game_classes()[name]
    th = default_thresholds(cls)
    assert (th.good, th.inaccuracy, th.mistake) == pytest.approx(
        tuple(f * cls.stake for f in THRESHOLD_FRACTIONS)
    )
    assert default_thresholds(cls()).mistake == pytest.approx(th.mistake)


def test_tan_stake_follows_its_loss_amount():
    from quansu.games.registry import make

    assert default_thresholds(make("tan", 2, {"loss_amount": 2.5})).mistake == pytest.approx(1.5)
    assert default_thresholds(make("tan", 2)).mistake == pytest.approx(0.6)
