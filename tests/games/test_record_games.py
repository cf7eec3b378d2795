"""games.record on every registered game: round trips, views against the engine's observation,
``quansu replay --legal`` against the engine's legal moves, the error classes, and the example files
in docs/examples/."""

from __future__ import annotations

import copy
import io
import json
import os
import random

import pytest

from quansu import games
from quansu.games import record as rec
from quansu.games.base import DealError, IllegalMoveError, OptionError

NAMES = games.game_names()
EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "docs", "examples")


def option_sets(cls) -> list[dict]:
    """Defaults, every single-option change (each other choice of an enumerated option, each
    flipped switch) and one combined change, each kept only if the game accepts it at every player
    count (chosen from the option specs only, so it works for any game)."""
    singles = []
    for spec in cls.option_specs:
        if spec.choices:
            singles += [{spec.name: c} for c in spec.choices if c != spec.default]
        elif isinstance(spec.default, bool):
            singles.append({spec.name: not spec.default})
    combined: dict = {}
    for a in singles[::2]:
        if next(iter(a)) not in combined:
            combined.update(a)
    out = []
    for opts in [{}] + singles + [combined]:
        try:
            for players in range(cls.min_players, cls.max_players + 1):
                cls(players, opts)
        except OptionError:
            continue
        if opts not in out:
            out.append(opts)
    return out


def cases():
    """Defaults at every player count, then every other option set at one player count each
    (cycling through the counts)."""
    for name in NAMES:
        cls = games.game_classes()[name]
        counts = list(range(cls.min_players, cls.max_players + 1))
        for players in counts:
            yield pytest.param(name, players, {}, id=f"{name}-{players}p-defaults")
        for i, opts in enumerate(option_sets(cls)[1:]):
            players = counts[i % len(counts)]
            yield pytest.param(name, players, opts, id=f"{name}-{players}p-opts{i + 1}")


def random_game(game, seed):
    """A finished random game and the states before every move (``states[k]``: after k moves)."""
    rng = random.Random(seed)
    state = game.new_initial_state(rng)
    states = [state.clone()]
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
        states.append(state.clone())
    return state, states


@pytest.mark.parametrize("name,players,opts", list(cases()))
def test_round_trip(name, players, opts):
    game = games.make(name, players, opts)
    for seed in range(3):
        state, _ = random_game(game, seed)
        r = rec.record_from_state(state)
        assert r["game"] == name and r["players"] == players
        assert rec.parse_record(r).game.options == game.options
        assert "result" in r
        text = rec.dumps(r)
        again = rec.replay_record(rec.loads(text))
        assert again.returns() == state.returns()
        assert [again.observation(s) for s in range(players)] == [
            state.observation(s) for s in range(players)
        ]
        assert rec.record_from_state(again) == r


def view_cases():
    """(players, options, seed, every_step) per game: every player count with defaults, every
    option set at the largest count, and one game cut at every step."""
    for name in NAMES:
        cls = games.game_classes()[name]
        runs = [
            (p, {}, sd, False)
            for p in range(cls.min_players, cls.max_players + 1)
            for sd in range(2)
        ]
        counts = list(range(cls.min_players, cls.max_players + 1))
        runs += [
            (counts[i % len(counts)], o, 5 + i, False) for i, o in enumerate(option_sets(cls)[1:])
        ]
        runs += [(cls.min_players, {}, 9, True)]
        yield pytest.param(name, runs, id=name)


@pytest.mark.parametrize("name,runs", list(view_cases()))
def test_view_gives_engine_observation(name, runs):
    for players, opts, seed, every_step in runs:
        game = games.make(name, players, opts)
        state, states = random_game(game, 100 * seed + players)
        r = rec.record_from_state(state)
        n = len(r.get("moves", []))
        cuts = (
            set(range(n + 1))
            if every_step
            else {0, 1, 2, 3, n // 3, n // 2, (2 * n) // 3, n - 1, n}
        )
        cuts = sorted(cuts & set(range(n + 1)))
        for k in cuts:
            for seat in range(players):
                v = rec.view_at(r, seat, k)
                assert "stock" not in v["deal"] and "set_aside" not in v["deal"]
                assert rec.view_to_json(rec.parse_view(v)) == v
                if states[k].is_terminal():
                    # the end (an instant win, the settlement) can depend on hidden cards
                    assert v["result"] == r["result"]
                    continue
                assert "result" not in v
                got = rec.replay_view(rec.loads(rec.dumps(v)), random.Random(k * 7 + seat))
                assert got.observation(seat) == states[k].observation(seat), (
                    players,
                    opts,
                    k,
                    seat,
                )
                assert got.current_player == states[k].current_player


@pytest.mark.parametrize("name", NAMES)
def test_replay_legal_lists_engine_moves(name, tmp_path):
    from quansu.cli import replay as cmd_replay

    cls = games.game_classes()[name]
    for players in (cls.min_players, cls.max_players):
        game = games.make(name, players)
        state, states = random_game(game, 7 + players)
        r = rec.record_from_state(state)
        path = tmp_path / f"{name}{players}.json"
        rec.write_json(r, str(path))
        out, err = io.StringIO(), io.StringIO()
        args = type("Args", (), {"record": str(path), "json": True, "legal": True})()
        assert cmd_replay.run(args, out=out, err=err) == 0, err.getvalue()
        lines = [json.loads(x) for x in out.getvalue().splitlines()]
        steps = [x for x in lines if x["type"] == "move"]
        assert len(steps) == len(r["moves"]) == len(states) - 1
        for k, line in enumerate(steps):
            # every legal move, in a player's order (grouped by kind, low to high)
            ordered = game.sort_moves(states[k].legal_moves(), states[k].trump_card())
            assert line["legal"] == [game.move_to_text(m) for m in ordered]
            assert sorted(line["legal"]) == sorted(
                game.move_to_text(m) for m in states[k].legal_moves()
            )
            assert line["to_act"] == states[k].current_player == line["seat"]
        end = lines[-1]
        assert end["type"] == "end" and end["over"] and end["result"] == "agrees"
        assert end["net"] == r["result"]["net"]
        out = io.StringIO()
        args.json = False
        assert cmd_replay.run(args, out=out, err=io.StringIO()) == 0
        assert "result: agrees with the settlement" in out.getvalue()


def _illegal_text(game, state, rng):
    """Text of a move of this game that parses but is not legal in ``state``."""
    legal = {game.move_to_text(m) for m in state.legal_moves()}
    for seed in range(20):
        probe = game.new_initial_state(random.Random(seed))
        for _ in range(40):
            if probe.is_terminal():
                break
            for m in probe.legal_moves():
                t = game.move_to_text(m)
                if t not in legal:
                    return t
            probe.apply(rng.choice(probe.legal_moves()))
    return None


@pytest.mark.parametrize("name", NAMES)
def test_errors(name):
    cls = games.game_classes()[name]
    game = games.make(name, cls.max_players)
    state, states = random_game(game, 3)
    r = rec.record_from_state(state)
    rng = random.Random(0)

    # the first impossible move is named by its index
    k = len(r["moves"]) // 2
    bad_text = _illegal_text(game, states[k], rng)
    assert bad_text is not None
    bad = copy.deepcopy(r)
    bad["moves"][k]["move"] = bad_text
    with pytest.raises(IllegalMoveError, match=rf"^moves\[{k}\]: "):
        rec.replay_record(bad)
    # a move after the end
    bad = copy.deepcopy(r)
    bad["moves"].append(dict(r["moves"][-1]))
    with pytest.raises(IllegalMoveError, match=rf"^moves\[{len(r['moves'])}\]: .*after the end"):
        rec.replay_record(bad)
    # a move text that does not parse
    bad = copy.deepcopy(r)
    bad["moves"][1]["move"] = "fly to the moon"
    with pytest.raises(games.MoveParseError, match=r"^moves\[1\]: "):
        rec.parse_record(bad)

    # a card dealt twice
    bad = copy.deepcopy(r)
    dup = bad["deal"]["hands"][0]["cards"][0]
    bad["deal"]["hands"][1]["cards"][0] = dup
    with pytest.raises(
        DealError, match=rf"^deal.hands\[1\]: {dup} dealt twice \(also in deal.hands\[0\]\)"
    ):
        rec.replay_record(bad)
    # a hand with a card too few: the field of the bad deal is named
    bad = copy.deepcopy(r)
    card = bad["deal"]["hands"][1]["cards"].pop()
    bad["deal"].setdefault("set_aside", []).append(card)
    with pytest.raises(DealError, match=r"^deal.hands\[1\]"):
        rec.replay_record(bad)

    # an unknown option
    bad = copy.deepcopy(r)
    bad["options"] = {"no_such_rule": True}
    with pytest.raises(OptionError, match="^options: unknown option 'no_such_rule'"):
        rec.parse_record(bad)

    # a result that disagrees with the settlement
    bad = copy.deepcopy(r)
    net = bad["result"]["net"]
    if any(net):
        bad["result"]["net"] = [-x for x in net]
        with pytest.raises(rec.ResultError, match=r"^result.net: .* disagrees with the settlement"):
            rec.replay_record(bad)
    bad["result"] = {
        "net": [x + (1 if s == 0 else 0) - (1 if s == 1 else 0) for s, x in enumerate(net)]
    }
    with pytest.raises(rec.ResultError, match=r"^result.net: .* disagrees with the settlement"):
        rec.replay_record(bad)
    bad["result"] = {"transfers": [{"payer": 0, "payee": 1, "amount": 123.5}]}
    with pytest.raises(rec.ResultError, match=r"^result.transfers: disagree with the settlement"):
        rec.replay_record(bad)


# -- examples ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_example_files_load_and_replay(name):
    rpath = os.path.join(EXAMPLES, f"{name}.record.json")
    vpath = os.path.join(EXAMPLES, f"{name}.view.json")
    assert os.path.exists(rpath) and os.path.exists(vpath), (
        f"no example for {name}: run python docs/examples/make_examples.py"
    )
    r = rec.read_json(rpath)
    assert r["game"] == name and "result" in r
    final = rec.replay_record(r)
    assert final.is_terminal()
    assert rec.record_to_json(rec.parse_record(r)) == r
    v = rec.read_json(vpath)
    assert v["format"] == rec.VIEW_FORMAT and v["game"] == name
    k = len(v.get("moves", []))
    assert v == rec.view_at(r, v["seat"], k)
    seat_state = rec.replay_view(v, random.Random(0))
    real = rec.replay_record({**r, "moves": r["moves"][:k], "result": None})
    assert seat_state.observation(v["seat"]) == real.observation(v["seat"])


@pytest.mark.parametrize("name", NAMES)
def test_view_with_wrong_number_of_draws_is_rejected(name):
    cls = games.game_classes()[name]
    game = games.make(name, cls.min_players)
    state, _ = random_game(game, 21)
    r = rec.record_from_state(state)
    n = len(r.get("moves", []))
    views = [
        rec.view_at(r, s, k) for s in range(cls.min_players) for k in (n // 2, n - 1) if k >= 0
    ]
    views = [v for v in views if "result" not in v]
    with_draws = [v for v in views if v.get("drawn")]
    if not with_draws:
        for v in views:  # a game without a stock: no draws anywhere, and one given is impossible
            bad = copy.deepcopy(v)
            bad["drawn"] = [r["deal"]["hands"][(v["seat"] + 1) % cls.min_players]["cards"][0]]
            with pytest.raises(DealError, match=r"^drawn"):
                rec.replay_view(bad, random.Random(0))
        return
    v = with_draws[0]
    fewer = copy.deepcopy(v)
    fewer["drawn"].pop()
    with pytest.raises(DealError, match=r"^drawn"):
        rec.replay_view(fewer, random.Random(0))
    more = copy.deepcopy(v)
    known = set(v["deal"]["hands"][v["seat"]]["cards"]) | set(v["drawn"])
    more["drawn"].append(next(c for c in r["deal"].get("stock", []) if c not in known))
    with pytest.raises(DealError, match=r"^drawn"):
        rec.replay_view(more, random.Random(0))


@pytest.mark.parametrize("name", NAMES)
def test_cli_on_example(name, tmp_path, capsys):
    from quansu import cli

    path = os.path.join(EXAMPLES, f"{name}.record.json")
    assert cli.main(["replay", path, "--legal"]) == 0
    out = capsys.readouterr().out
    assert "result: agrees with the settlement" in out
    target = tmp_path / "v.json"
    assert cli.main(["view", path, "--seat", "0", "--at", "5", "-o", str(target)]) == 0
    assert rec.read_json(str(target)) == rec.view_at(rec.read_json(path), 0, 5)
