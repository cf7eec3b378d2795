"""The Deep Monte Carlo learner (models/training/dmc.py, issue 42; ``quansu train --algo dmc``):
bounded by work (2-player Tiến lên, a network of 16 units, rounds of 2 games, curve points of
2 deals): a short run writes a checkpoint, a curve and a model the served evaluator loads;
``--resume`` continues the counters; an actor's samples depend on its seed only; on a local Ray,
actors play the rounds and a killed actor is replaced.
"""

from __future__ import annotations

import json
import os
import random
import signal

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from quansu.games import make  # noqa: E402
from quansu.models.encoders import encoder_for  # noqa: E402
from quansu.models.evaluator import NetworkEvaluator, load_model  # noqa: E402
from quansu.models.training.dmc import (  # noqa: E402
    DMCActor,
    DMCConfig,
    actor_games,
    add_sparring_column,
    export_model,
    fit_q_units,
    net_from,
    net_from_onnx,
    parse_league,
    seat_kinds,
    train_dmc,
    weights_of,
)
from quansu.models.training.net import PolicyValueNet  # noqa: E402

pytestmark = pytest.mark.train

TINY = dict(
    game="tienlen",
    players=2,
    hidden=16,
    move_hidden=8,
    games_per_round=2,
    batch_size=32,
    eval_deals=2,
    eval_first=50,
    minutes=5.0,
    progress=False,
)
PARAMS = {"epsilon": 0.2, "bot_share": 0.5, "bot": "heuristic", "record_bot": True}


def tiny_net(game, version=None):
    enc = encoder_for(game, version)
    torch.manual_seed(3)
    return PolicyValueNet(enc.state_dim, enc.move_dim, 16, 8, value_scale=3.0)


def test_a_short_run_checkpoints_and_resume_continues_the_counters(tmp_path):
    out = tmp_path / "run"
    logs = []
    s1 = train_dmc(DMCConfig(**TINY, out_dir=str(out), workers=0, rounds=2), log=logs.append)
    assert (out / "checkpoint.pt").is_file() and (out / "tienlen.onnx").is_file()
    assert s1["rounds"] == 2 and s1["decisions"] > 0 and s1["steps"] >= 1
    curve = json.loads((out / "curve.json").read_text())
    assert curve["points"][0]["decisions"] == 0 and curve["points"][-1]["final"]
    for p in curve["points"]:
        assert p["ci95"][0] <= p["mean"] <= p["ci95"][1]
        # each point's network is kept, and it is the network that point measured
        snap = load_model(make("tienlen", 2), out / p["snapshot"])
        assert snap.training()["decisions"] == p["decisions"]
    assert curve["points"][-1]["decisions"] == s1["decisions"]
    ck = torch.load(out / "checkpoint.pt", weights_only=False)
    assert ck["counters"]["decisions"] == s1["decisions"]
    s2 = train_dmc(
        DMCConfig(**TINY, out_dir=str(out), workers=0, rounds=4, resume=True), log=logs.append
    )
    assert any(line.startswith("resumed from") for line in logs)
    assert s2["rounds"] == 4 and s2["decisions"] > s1["decisions"]
    assert s2["games"] == s1["games"] + 2 * TINY["games_per_round"]
    assert s2["steps"] > s1["steps"] and s2["train_seconds"] >= s1["train_seconds"]
    # the curve goes on: the first run's points, then the new ones
    points = json.loads((out / "curve.json").read_text())["points"]
    assert points[: len(s1["points"])] == s1["points"] and len(points) > len(s1["points"])
    # a resume without a checkpoint is refused
    with pytest.raises(ValueError, match="no checkpoint"):
        train_dmc(DMCConfig(**TINY, out_dir=str(tmp_path / "none"), workers=0, resume=True))


def test_the_curve_bench_plays_each_kept_network_and_pairs_the_search_with_uniform(tmp_path):
    """``python -m quansu.bench.dmc curve``: every chosen curve point's kept network in each
    probe; a search probe's uniform reference and paired difference are the strength bench's
    figures for the same network, deals and seeds; the table has a row per point and one per
    uniform reference."""
    from quansu.bench import dmc as bd
    from quansu.bench import strength

    out = tmp_path / "run"
    s = train_dmc(DMCConfig(**TINY, out_dir=str(out), workers=0, rounds=2))
    res = bd.curve(
        str(out),
        ["policy@heuristic", "level1@heuristic"],
        deals=2,
        search_deals=2,
        seed=5,
        points=2,
    )
    pts = res["points"]
    assert [p["decisions"] for p in pts] == [0, s["decisions"]]
    pol, lv = res["probes"]
    assert len(pol["values"]) == len(lv["values"]) == 2 and pol["uniform"] is None
    snap = out / pts[-1]["snapshot"]
    ref = strength.paired(
        "tienlen",
        f"net={snap.resolve()}:level1",
        "level1",
        "heuristic",
        deals=2,
        seed=5,
        players=2,
    )
    assert lv["values"][-1][0] == pytest.approx(ref["a_payoff"], abs=1e-3)
    assert lv["uniform"][0] == pytest.approx(ref["b_payoff"], abs=1e-3)
    assert lv["minus_uniform"][-1][0] == pytest.approx(ref["a_minus_b"], abs=1e-3)
    assert [(e["played"], e["reused"]) for e in res["probes"]] == [(2, 0), (3, 0)]
    table = bd.curve_table(res)
    assert len(table["rows"]) == 3 and table["rows"][-1][0] == "level1, uniform priors"
    assert all(len(r) == len(table["columns"]) for r in table["rows"])
    # bad probes and runs are named
    for probe, msg in (
        ("policy", "PLAYER@OPPONENT"),
        ("heuristic@sparring", "search bot"),
        ("level3@nobot", "opponent 'nobot'"),
        ("level3@level3", "differ"),
    ):
        with pytest.raises(ValueError, match=msg):
            bd.parse_probe(probe)
    with pytest.raises(ValueError, match="no curve.json"):
        bd.curve(str(tmp_path))
    # --cache: a second measurement plays only the line-ups not played before, and reads the
    # others' per-deal payoffs back unchanged
    cache = tmp_path / "cache.json"
    args = (str(out), ["policy@heuristic", "level1@heuristic"], 2, 2, 5)
    first = bd.curve(*args, points=1, cache=bd.LineupCache(str(cache), code="c1"))
    assert [(e["played"], e["reused"]) for e in first["probes"]] == [(1, 0), (2, 0)]
    again = bd.curve(*args, points=2, cache=bd.LineupCache(str(cache), code="c1"))
    assert [(e["played"], e["reused"]) for e in again["probes"]] == [(1, 1), (1, 2)]
    for e, ref in zip(again["probes"], res["probes"]):
        assert e["values"] == ref["values"] and e["minus_uniform"] == ref["minus_uniform"]
    # another commit of the code plays everything again
    other = bd.curve(*args, points=1, cache=bd.LineupCache(str(cache), code="c2"))
    assert [(e["played"], e["reused"]) for e in other["probes"]] == [(1, 0), (2, 0)]
    cache.write_text('{"lineups": {}}')
    with pytest.raises(ValueError, match="not a curve cache"):
        bd.LineupCache(str(cache))
    assert bd.pick_points(11, 4) == [0, 3, 7, 10] and bd.pick_points(3, 0) == [0, 1, 2]
    assert bd.pick_points(3, 9) == [0, 1, 2] and bd.pick_points(5, 1) == [4]


def test_the_throughput_bench_counts_actor_decisions_and_learner_samples():
    """``python -m quansu.bench.dmc throughput``: at least one round of the actor (16 games of
    the shipped Tấn network), then the learner's steps; the rates are the counts over the
    seconds."""
    from quansu.bench import dmc as bd

    r = bd.throughput("tan", seconds=0.01, steps=2)
    a, learner = r["actor"], r["learner"]
    assert a["games"] == 16 and a["decisions"] > 16
    assert a["decisions_per_s"] == pytest.approx(a["decisions"] / a["seconds"], rel=0.01)
    assert learner["steps"] == 2 and learner["batch"] == 256
    assert learner["samples_per_s"] == pytest.approx(
        2 * 256 / (learner["ms_per_step"] * 2 / 1000), rel=0.01
    )
    assert r["actor_cores_per_learner_core"] > 0


def test_the_learned_onnx_loads_through_the_evaluator(tmp_path):
    out = tmp_path / "run"
    train_dmc(DMCConfig(**TINY, out_dir=str(out), workers=0, rounds=1))
    game = make("tienlen", 2)
    model = load_model(game, out / "tienlen.onnx")
    assert model.metadata["quansu.policy_targets"] == "dmc_q"
    assert float(model.metadata["quansu.q_scale"]) == model.value_scale > 0
    assert model.training()["algo"] == "dmc"
    ev = NetworkEvaluator(game, model, cache_size=0)
    import random

    state = game.new_initial_state(random.Random(1))
    (e,) = ev.evaluate([state])
    assert len(e.priors) == len(state.legal_moves()) and abs(sum(e.priors) - 1) < 1e-5
    assert len(e.values) == 2
    assert ev.policy_move(state) in state.legal_moves()


def test_the_shipped_models_folder_is_refused(tmp_path):
    from quansu.models.evaluator import MODELS_DIR

    with pytest.raises(ValueError, match="models/"):
        train_dmc(DMCConfig(**TINY, out_dir=str(MODELS_DIR), workers=0, rounds=1))


@pytest.mark.skipif(torch.cuda.is_available(), reason="a CUDA device is present")
def test_device_cuda_without_a_device_is_refused(tmp_path):
    with pytest.raises(ValueError, match="cuda"):
        train_dmc(
            DMCConfig(**TINY, out_dir=str(tmp_path / "c"), workers=0, rounds=1, device="cuda")
        )


def test_an_actor_gives_the_same_samples_for_the_same_seed():
    game = make("tienlen", 2)
    net = tiny_net(game)
    a = actor_games(game, net, 2, 11, PARAMS)
    # through the weights snapshot a round sends, as a pool worker or a Ray actor rebuilds it
    b = actor_games(game, net_from(dict(net.config), weights_of(net)), 2, 11, PARAMS)
    c = actor_games(game, net, 2, 12, PARAMS)
    assert a["decisions"] > 0 and a["net_calls"] > 0
    for k in ("states", "moves", "q", "values"):
        assert np.array_equal(a[k], b[k])
    assert not (len(a["q"]) == len(c["q"]) and np.array_equal(a["states"], c["states"]))
    # the targets: the acting seat's payoff, and the payoffs per relative seat (zero-sum)
    assert np.allclose(a["q"], a["values"][:, 0])
    assert np.allclose(a["values"][:, :2].sum(axis=1), 0.0, atol=1e-5)


def test_the_cli_trains_with_dmc(tmp_path, capsys):
    from quansu.cli.train import main

    out = tmp_path / "cli"
    rc = main(
        [
            "--game",
            "tienlen",
            "--players",
            "2",
            "--algo",
            "dmc",
            "--workers",
            "1",
            "--hidden",
            "16",
            "--games-per-round",
            "2",
            "--rounds",
            "2",
            "--curve-deals",
            "2",
            "--curve-first",
            "50",
            "--out",
            str(out),
            "--no-progress",
            "--no-record-bots",
        ]
    )
    assert rc == 0, capsys.readouterr().err
    assert (out / "tienlen.onnx").is_file() and (out / "checkpoint.pt").is_file()
    doc = json.loads((out / "curve.json").read_text())
    assert doc["summary"]["rounds"] == 2 and "--algo dmc" in doc["command"]
    assert doc["command"].endswith("--no-record-bots --out " + str(out))
    assert main(["--game", "tienlen", "--algo", "dmc", "--bot-share", "2"]) == 2
    assert main(["--game", "tienlen", "--algo", "dmc", "--dmc-lr", "0"]) == 2
    assert main(["--game", "tienlen", "--algo", "dmc", "--league", "robot=0.5"]) == 2
    assert "KIND=SHARE" in capsys.readouterr().err
    assert "--dmc-lr 0.0001" in DMCConfig("tienlen", lr=1e-4).command()
    assert "--no-record-bots" in DMCConfig("tienlen", record_bot=False).command()
    assert "--no-record-bots" not in DMCConfig("tienlen").command()
    bad = ["--game", "tienlen", "--algo", "dmc", "--out", str(out), "--init-from"]
    assert main([*bad, str(out / "none.onnx")]) == 2
    assert main([*bad, str(out / "tienlen.onnx"), "--resume"]) == 2
    assert "--resume continues one" in capsys.readouterr().err
    v4 = ["--game", "tan", "--algo", "dmc", "--out", str(tmp_path / "t"), "--encoder-version"]
    assert main([*v4, "4"]) == 2
    assert "tan has no encoder version 4; known: 2" in capsys.readouterr().err


def test_a_run_starts_from_a_network_and_keeps_its_moves(tmp_path):
    """``--init-from``: the weights of an ONNX network (read back exactly), its move scores
    fitted to Q units without changing any state's best move, then trained on."""
    game = make("tienlen", 2)
    net = tiny_net(game)
    net.heuristic_bonus.fill_(0.5)
    path = tmp_path / "start.onnx"
    path.write_bytes(export_model(game, net, {"algo": "test"}))
    back = net_from_onnx(game, str(path))
    for k, v in net.state_dict().items():
        assert torch.equal(back.state_dict()[k], v), k
    with pytest.raises(Exception, match="encoder|fingerprint|game"):
        net_from_onnx(make("tan", 2), str(path))
    # the fit: best moves kept, the squared error to the payoffs not above the raw scores'
    samples = actor_games(game, net, 4, 5, PARAMS)
    enc = encoder_for(game)
    state = game.new_initial_state(random.Random(9))
    legal = state.legal_moves()
    srow = torch.from_numpy(enc.encode_state(state, state.current_player)[None, :])
    mrows = torch.from_numpy(enc.encode_moves(state, legal))
    zeros = torch.zeros(len(legal), dtype=torch.int64)
    with torch.no_grad():
        before, _ = back(srow, mrows, zeros)
    st = samples["states"].astype(np.float32)
    mv = samples["moves"].astype(np.float32)
    y = samples["q"] / float(back.value_scale)

    def sq_error():
        with torch.no_grad():
            x, _ = back(torch.from_numpy(st), torch.from_numpy(mv), torch.arange(len(st)))
        return float(np.mean((x.numpy() - y) ** 2))

    raw = sq_error()
    a, b = fit_q_units(back, st, mv, samples["q"])
    assert a > 0 and sq_error() <= raw + 1e-9
    with torch.no_grad():
        after, _ = back(srow, mrows, zeros)
    assert int(torch.argmax(after)) == int(torch.argmax(before))
    assert torch.allclose(after, a * before + b, atol=1e-5)
    # a run from it: the fit before the first step, named in the summary and the command
    cfg = DMCConfig(**{**TINY, "hidden": 256}, out_dir=str(tmp_path / "run"), workers=0, rounds=2)
    cfg.init_from = str(path)
    logs: list[str] = []
    s = train_dmc(cfg, log=logs.append)
    assert s["init_from"] == str(path) and s["q_units"][0] > 0
    # the curve's first point keeps the network the run started from, as it was
    first = json.loads((tmp_path / "run" / "curve.json").read_text())["points"][0]
    assert (tmp_path / "run" / first["snapshot"]).read_bytes() == path.read_bytes()
    assert "--init-from" in s["command"] and any("Q units" in line for line in logs)
    ck = torch.load(tmp_path / "run" / "checkpoint.pt", weights_only=False)
    assert ck["net_config"]["hidden"] == 16  # the imported network's, not --hidden
    # resumed: still the run that started from that network, fitted once
    again = DMCConfig(**TINY, out_dir=str(tmp_path / "run"), workers=0, rounds=3, resume=True)
    logs.clear()
    s2 = train_dmc(again, log=logs.append)
    assert s2["init_from"] == str(path) and s2["q_units"] == s["q_units"]
    assert "--resume" in s2["command"] and "--init-from" not in s2["command"]
    assert not any("Q units" in line for line in logs)


def test_a_run_on_encoder_version_4_widens_the_network_it_starts_from(tmp_path):
    """``--encoder-version 4 --init-from`` a network of version 2 (the layout before the
    shipped one): the move layer gets the sparring-choice column (the heuristic column's
    weights), so the widened network scores a row whose new feature is 0 as the original scored
    it; the run trains and exports on version 4, its first snapshot is the widened network, and
    a resumption keeps the layout."""
    game = make("tienlen", 2)
    net = tiny_net(game, 2)
    path = tmp_path / "v2.onnx"
    base, v4 = encoder_for(game, 2), encoder_for(game, 4)
    path.write_bytes(export_model(game, net, {"algo": "test"}, encoder=base))
    wide = net_from_onnx(game, str(path), v4)
    assert wide.config["move_dim"] == v4.move_dim == net.config["move_dim"] + 1
    w = wide.state_dict()["move.0.weight"]
    assert torch.equal(w[:, -2], w[:, -1])  # the new column starts as the heuristic column
    state = game.new_initial_state(random.Random(4))
    legal = state.legal_moves()
    srow = torch.from_numpy(base.encode_state(state, state.current_player)[None, :])
    rows4 = v4.encode_moves(state, legal)
    rows4[:, -2] = 0.0
    rows2 = torch.from_numpy(np.delete(rows4, -2, axis=1))
    idx = torch.zeros(len(legal), dtype=torch.int64)
    with torch.no_grad():
        assert torch.allclose(wide(srow, torch.from_numpy(rows4), idx)[0], net(srow, rows2, idx)[0])
    with pytest.raises(ValueError, match="less the sparring-choice feature"):
        add_sparring_column(net, v4, base)
    cfg = DMCConfig(**TINY, out_dir=str(tmp_path / "run"), workers=0, rounds=2, encoder_version=4)
    cfg.init_from = str(path)
    s = train_dmc(cfg, log=lambda *_: None)
    assert "--encoder-version 4" in s["command"]
    model = load_model(game, str(tmp_path / "run" / "tienlen.onnx"))
    assert model.encoder_version == 4 and model.move_dim == v4.move_dim
    first = json.loads((tmp_path / "run" / "curve.json").read_text())["points"][0]
    assert load_model(game, str(tmp_path / "run" / first["snapshot"])).encoder_version == 4
    assert NetworkEvaluator(game, model).encoder is v4
    again = DMCConfig(**TINY, out_dir=str(tmp_path / "run"), rounds=3, resume=True)
    assert "--encoder-version 4" in train_dmc(again, log=lambda *_: None)["command"]
    wrong = DMCConfig(**TINY, out_dir=str(tmp_path / "run"), resume=True, encoder_version=2)
    with pytest.raises(ValueError, match="trains on version 4"):
        train_dmc(wrong, log=lambda *_: None)


@pytest.mark.parametrize(
    "text, league",
    [
        ("heuristic=0.1,sparring=0.4,past=0.2", {"heuristic": 0.1, "sparring": 0.4, "past": 0.2}),
        ("past=1", {"past": 1.0}),
        (" sparring = 0.5 , ", {"sparring": 0.5}),
    ],
)
def test_a_league_is_read_from_kind_share_pairs(text, league):
    assert parse_league(text) == league


@pytest.mark.parametrize(
    "text, error",
    [
        ("robot=0.5", "KIND=SHARE"),
        ("sparring", "KIND=SHARE"),
        ("sparring=x", "not a number"),
        ("past=1.5", "within"),
        ("heuristic=0.7,past=0.5", "sum past 1"),
        ("past=0.1,past=0.2", "twice"),
        (",", "no KIND"),
    ],
)
def test_a_wrong_league_is_named(text, error):
    with pytest.raises(ValueError, match=error):
        parse_league(text)


def test_league_seats_are_drawn_by_share():
    rng = random.Random(1)
    assert seat_kinds(rng, 4, {"league": {"sparring": 1.0}}) == ["sparring"] * 4
    # past seats pick one of the frozen networks sent; none sent: the current network
    kinds = seat_kinds(rng, 4, {"league": {"past": 1.0}, "past": [{}, {}]})
    assert set(kinds) <= {0, 1}
    assert seat_kinds(rng, 4, {"league": {"past": 1.0}}) == [None] * 4
    draws = [k for _ in range(500) for k in seat_kinds(rng, 4, {"league": {"heuristic": 0.25}})]
    assert 0.2 < draws.count("heuristic") / len(draws) < 0.3
    assert set(draws) == {"heuristic", None}
    # without a league: bot_share of the seats are --bot
    assert seat_kinds(rng, 3, {"bot_share": 1.0, "bot": "sparring"}) == ["sparring"] * 3


def test_league_seats_play_the_frozen_network_and_the_bots():
    game = make("tienlen", 2)
    a, b = tiny_net(game), tiny_net(game)
    with torch.no_grad():
        for p in b.parameters():
            p.add_(0.5 * torch.randn_like(p))
    frozen = {**PARAMS, "league": {"past": 1.0}, "past": [weights_of(b)]}
    # every seat is the frozen network: the current one plays no move
    x = actor_games(game, a, 2, 4, frozen)
    y = actor_games(game, b, 2, 4, frozen)
    z = actor_games(game, a, 2, 4, {**frozen, "past": [weights_of(a)]})
    assert x["decisions"] > 0 and x["net_calls"] == x["decisions"]
    assert np.array_equal(x["moves"], y["moves"]) and np.array_equal(x["q"], y["q"])
    assert not (len(x["q"]) == len(z["q"]) and np.array_equal(x["moves"], z["moves"]))
    # the bots' seats call no network; with record_bot off they give no samples
    bots = actor_games(game, a, 2, 4, {**PARAMS, "league": {"sparring": 0.5, "heuristic": 0.5}})
    assert bots["net_calls"] == 0 and bots["decisions"] > 0
    off = {**PARAMS, "record_bot": False, "league": {"sparring": 1.0}}
    assert actor_games(game, a, 2, 4, off)["decisions"] == 0


def test_a_league_run_plays_its_snapshots_and_resumes_with_them(tmp_path):
    out = tmp_path / "league"
    league = {"heuristic": 0.2, "sparring": 0.2, "past": 0.4}
    cfg = DMCConfig(**TINY, out_dir=str(out), workers=0, rounds=3, league=league, league_past=1)
    s = train_dmc(cfg)
    snaps = len(list((out / "snapshots").glob("*.onnx")))
    # every point but the final one joined the league as it was measured
    assert s["league"] == league and s["league_networks"] == snaps - 1 >= 1
    assert "--league heuristic=0.2,sparring=0.2,past=0.4" in s["command"]
    assert "--league-past 1" in s["command"]
    again = DMCConfig(
        **TINY, out_dir=str(out), workers=0, rounds=4, resume=True, league=league, league_past=1
    )
    s2 = train_dmc(again)
    # resumed: the league read back from the run's snapshots (the final point's included)
    assert s2["rounds"] == 4 and s2["league_networks"] >= snaps
    with pytest.raises(ValueError, match="league-past"):
        train_dmc(DMCConfig(**TINY, out_dir=str(tmp_path / "x"), workers=0, league_past=0))


# -- on a local Ray ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def local_ray():
    """A one-node cluster of 2 CPUs started with ``ray start`` (LocalCluster), not a local
    ``ray.init()``: Ray 2.60's local ``ray.init()`` writes ``~/.ray/auth_token``, after which
    the drivers of later ``ray start`` clusters on the machine are refused
    (tests/service/test_ray_cluster.py)."""
    ray_cluster = pytest.importorskip("quansu.server.ray_cluster")
    ray_cluster.require_ray()  # the dev extra installs it: a missing Ray fails here
    with ray_cluster.LocalCluster((2,), object_store_mb=80) as c:
        yield c


def test_ray_actors_play_and_a_killed_actor_is_replaced(local_ray, tmp_path):
    game = make("tienlen", 2)
    net = tiny_net(game)
    args = (dict(net.config), weights_of(net), 2, 11, PARAMS)
    from quansu.server.ray_cluster import ActorSet

    actors = ActorSet(DMCActor, 1, "tienlen", 2, {})
    try:
        (pid,) = actors.gather(actors.submit("pid", [()]))
        assert pid != os.getpid()
        os.kill(pid, signal.SIGKILL)  # the actor's process, started by this test
        (res,) = actors.gather(actors.submit("play", [args]))
        assert actors.replaced == 1
        (pid2,) = actors.gather(actors.submit("pid", [()]))
        assert pid2 != pid
    finally:
        actors.close()
    # the replacement plays the same samples as a local actor with the same seed
    local = actor_games(game, net, 2, 11, PARAMS)
    for k in ("states", "moves", "q", "values"):
        assert np.array_equal(res[k], local[k])
    # a short run with its actors on Ray (--ray ADDRESS: the cluster this test started)
    s = train_dmc(
        DMCConfig(**TINY, out_dir=str(tmp_path / "ray"), workers=1, ray=local_ray.address, rounds=2)
    )
    assert s["rounds"] == 2 and s["decisions"] > 0 and s["actor_nodes"] == 1
    # its curve against another opponent, played on the cluster: the figures of a local run
    from quansu.bench import dmc as bd
    from quansu.server import ray_cluster

    probes = ["policy@heuristic", "level1@heuristic"]
    on_ray = bd.curve(
        str(tmp_path / "ray"), probes, 2, 2, 5, 2, ray_cluster.mapper(local_ray.address)
    )
    here = bd.curve(str(tmp_path / "ray"), probes, 2, 2, 5, 2)
    for a, b in zip(on_ray["probes"], here["probes"]):
        assert (a["values"], a["minus_uniform"]) == (b["values"], b["minus_uniform"])


def test_the_runs_table_names_a_league_and_the_curves_bot(tmp_path):
    """``python -m quansu.bench.dmc table``: a run's row says where it started, its learning
    rate and league, and which bot its own curve played when that is not the heuristic."""
    from pathlib import Path

    from quansu.bench import dmc as bd

    src = Path(__file__).resolve().parents[2] / "bench" / "results" / "dmc_tan_s55.json"
    doc = json.loads(src.read_text())
    league = tmp_path / "league.json"
    doc["command"] += " --bot sparring --league heuristic=0.1,sparring=0.4,past=0.2"
    league.write_text(json.dumps(doc))
    rows = bd.table([str(src), str(league)], "cmd")["table"]["rows"]
    assert "league" not in rows[0][0] and not rows[0][2].startswith("sparring")
    assert rows[1][0].startswith("Tấn, from models/tan.onnx, learning rate 3e-05, league ")
    assert "league heuristic=0.1,sparring=0.4,past=0.2" in rows[1][0]
    assert rows[1][2].startswith("sparring: ") and "own decisions" not in rows[1][0]
    doc["command"] += " --no-record-bots"
    league.write_text(json.dumps(doc))
    assert bd.table([str(league)], "cmd")["table"]["rows"][0][0].endswith(
        "past=0.2, own decisions only, 129 min"
    )
    doc["command"] += " --encoder-version 4"
    league.write_text(json.dumps(doc))
    assert bd.table([str(league)], "cmd")["table"]["rows"][0][0].endswith(
        "own decisions only, encoder version 4, 129 min"
    )
