"""bench.strength: paired strength runs (A and B on the same deals against the same opponents)."""

from __future__ import annotations

import pytest

from quansu.bench import strength


def test_paired_run_pairs_by_deal_and_reports_intervals():
    res = strength.paired("tienlen", "random", "level1", "heuristic", deals=3, seed=4, players=2)
    assert res["a_minus_b"] == pytest.approx(res["a_payoff"] - res["b_payoff"])
    assert res["a_minus_b_ci"] >= 0.0 and 0.0 <= res["a_win"] <= 1.0
    again = strength.paired("tienlen", "random", "level1", "heuristic", deals=3, seed=4, players=2)
    assert again["a_minus_b"] == res["a_minus_b"]  # reproducible by seed
    assert "A - B" in strength.text(res)


def test_the_same_bot_against_itself_pairs_to_zero():
    res = strength.paired(
        "tan", "level1", "level1:c_puct=1.5", "heuristic", deals=2, seed=1, players=2
    )
    assert res["a_minus_b"] == pytest.approx(0.0)


def test_bots_must_differ_from_the_opponent():
    with pytest.raises(SystemExit):
        strength.paired("tan", "heuristic", "level1", "heuristic", deals=1)


def test_net_path_spec_loads_that_file(tmp_path):
    """``net=PATH:level1`` guides the search with the network in PATH (checked against the
    game), ``net:level1`` with the shipped one; the two differ as specs, so they can be A and
    B of one paired run."""
    import shutil
    from pathlib import Path

    from quansu.games import make
    from quansu.models import ModelError

    shipped = Path(strength.__file__).resolve().parents[1] / "models"
    copy = tmp_path / "candidate.onnx"
    shutil.copyfile(shipped / "tienlen.onnx", copy)
    game = make("tienlen", 2)
    bot = strength.build_bot(f"net={copy}:level1", game, seed=3)
    assert bot.evaluator.model.name == str(copy.resolve())
    assert bot.config.iterations == 10 and bot.name == f"net={copy}:level1"
    assert strength.build_bot("net:level1", game, 3).evaluator.model.name != str(copy.resolve())
    assert strength.split_net_spec(f"net={copy}:level3") == (str(copy), "level3")
    assert strength.split_net_spec("net:level3") == (None, "level3")
    assert strength.split_net_spec("level3") is None
    # the same network on both sides, same seeds: the pairing gives exactly zero
    res = strength.paired(
        "tienlen", f"net={copy}:level1", "net:level1", "heuristic", deals=2, seed=5, players=2
    )
    assert res["a_minus_b"] == pytest.approx(0.0) and res["a"] != res["b"]
    with pytest.raises(SystemExit, match="no model file"):
        strength.build_bot(f"net={tmp_path / 'missing.onnx'}:level1", game, 0)
    with pytest.raises(SystemExit, match="net=PATH"):
        strength.build_bot("net=:level1", game, 0)
    # another game's network is refused (the encoder check of the shipped models)
    with pytest.raises(ModelError):
        strength.build_bot(f"net={shipped / 'tan.onnx'}:level1", game, 0)
    with pytest.raises(SystemExit, match="search bot"):
        strength.build_bot(f"net={copy}:heuristic", game, 0)


def test_net_policy_is_the_network_alone():
    """``net:policy`` plays the network's top move with no search: the evaluator's
    ``policy_move`` on every state of a game against the heuristic bot."""
    import random

    from quansu.games import make
    from quansu.models.bots import PolicyBot

    game = make("tan", 2)
    bot = strength.build_bot("net:policy", game, seed=1)
    assert isinstance(bot, PolicyBot) and bot.name == "net:policy"
    heur = strength.build_bot("heuristic", game, seed=1)
    state = game.new_initial_state(random.Random(4))
    checked = 0
    while not state.is_terminal():
        seat = state.current_player
        if seat == 0:
            move = bot.choose(state, seat)
            if len(state.legal_moves()) > 1:
                assert move == bot.evaluator.policy_move(state)
                checked += 1
        else:
            move = heur.choose(state, seat)
        state.apply(move)
    assert checked > 0


def test_net_spec_settings_win_over_the_guided_ones():
    """``net:level3`` plays the service's guided level 3 (the game's prior temperature and leaf
    values); a search setting the inner spec names replaces that one setting alone."""
    from quansu.games import make

    game = make("tienlen", 4)
    plain = strength.build_bot("net:level3", game, 1).config
    assert plain.prior_temperature == game.tuning.guided_prior_temperature
    sharp = strength.build_bot("net:level3:prior_temperature=0.3", game, 1).config
    assert sharp.prior_temperature == 0.3
    assert sharp.replace(prior_temperature=plain.prior_temperature) == plain
    leaf = strength.build_bot("net:level3:leaf_value=evaluator", game, 1).config
    assert leaf.leaf_value == "evaluator" and plain.leaf_value == game.tuning.guided_leaf


def test_head_to_head_reports_each_bot():
    from quansu.bench import strength

    res = strength.head_to_head("tienlen", ["heuristic", "random"], deals=2, seed=4)
    h, r = res["bots"]["heuristic"], res["bots"]["random"]
    assert res["players"] == 2
    assert h["payoff"] == pytest.approx(-r["payoff"])  # two seats, zero-sum, both seats rotated
    assert h["payoff_ci"] >= 0 and h["ms_per_move"] >= 0
    with pytest.raises(SystemExit):
        strength.head_to_head("tienlen", ["random", "random"], deals=1)


def test_cli_needs_a_paired_run_or_seats(capsys):
    from quansu.bench import strength

    with pytest.raises(SystemExit):
        strength.main(["--game", "tienlen", "--a", "random"])
    assert strength.main(["--game", "tienlen", "--seats", "heuristic,random", "--deals", "1"]) == 0
    assert "head to head" in capsys.readouterr().out
