"""`quansu play`: a whole terminal game with scripted input; bad input never raises."""

import io
import itertools

import pytest

from quansu import games
from quansu.server import cli, cmd_play


def _args(game, *extra):
    parser = cli.build_parser("play")
    return parser.parse_args(["play", "--game", game, "--seed", "3", "--bot", "random", *extra])


@pytest.mark.parametrize("game", games.game_names())
def test_full_game_with_bad_input(game):
    script = itertools.chain(["", "help", "not a move", "9999", "moves", "zz 3x"], itertools.repeat("0"))
    out = io.StringIO()
    rc = cmd_play.run(_args(game), input_fn=lambda prompt: next(script), out=out)
    text = out.getvalue()
    assert rc == 0
    assert "not a move" in text and "no move number 9999" in text
    assert "game over" in text and "net: seat 0:" in text
    # the settlement printed sums to zero
    net = [float(x.split(":")[1]) for x in text.rsplit("net: ", 1)[1].strip().split(", ")]
    assert abs(sum(net)) < 1e-6


def test_illegal_move_is_refused():
    import random
    state = games.make("tienlen", 4).new_initial_state(random.Random(3))
    leader = state.current_player          # the same deal cmd_play draws from --seed 3
    answers = iter(["pass", "quit"])
    out = io.StringIO()
    # the leader of a new round cannot pass
    rc = cmd_play.run(_args("tienlen", "--seat", str(leader)), input_fn=lambda p: next(answers), out=out)
    assert rc == 0
    assert "'pass' is not legal now" in out.getvalue()


def test_bad_game_and_option_are_clear_errors(capsys):
    assert cmd_play.run(_args("chess")) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert cmd_play.run(_args("tienlen", "--option", "no_such=1")) == 2
    assert "unknown option 'no_such'" in capsys.readouterr().err


def test_eof_ends_quietly():
    def eof(prompt):
        raise EOFError
    assert cmd_play.run(_args("tienlen"), input_fn=eof, out=io.StringIO()) == 0
