"""Training side (needs the [train] extra; skipped without torch): ONNX export matches torch,
the sample buffer, the segment softmax, and a tiny end-to-end training run on the toy game."""

from __future__ import annotations

import dataclasses
import json
import random

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from quansu.models.encoders import EncoderSpec, encoder_for, register_spec  # noqa: E402
from quansu.models.evaluator import ModelError, NetworkEvaluator, PolicyValueModel  # noqa: E402
from quansu.models.training.data import Buffer, heuristic_policy, play_game  # noqa: E402
from quansu.models.training.net import PolicyValueNet, export_onnx, segment_log_softmax  # noqa: E402
from tests.models.test_models_toy import ToyGame  # noqa: E402

pytestmark = pytest.mark.train

register_spec(EncoderSpec("toy", 1, zones=("table", "set_aside"), combos=("single",)))


def _meta(game, enc, net):
    return {
        "quansu.format": "quansu-pv/1",
        "quansu.game": game.name,
        "quansu.encoder_version": str(enc.version),
        "quansu.encoder_fingerprint": enc.fingerprint(),
        "quansu.state_dim": str(enc.state_dim),
        "quansu.move_dim": str(enc.move_dim),
        "quansu.value_scale": str(float(net.value_scale)),
        "quansu.training": json.dumps({"command": "test"}),
    }


def test_segment_log_softmax():
    logits = torch.tensor([1.0, 2.0, 3.0, -1.0, 5.0])
    seg = torch.tensor([0, 0, 0, 1, 1])
    out = segment_log_softmax(logits, seg, 2)
    exp = torch.cat([torch.log_softmax(logits[:3], 0), torch.log_softmax(logits[3:], 0)])
    assert torch.allclose(out, exp, atol=1e-6)


def test_onnx_matches_torch_on_random_inputs():
    game = ToyGame(4)
    enc = encoder_for(game)
    torch.manual_seed(0)
    net = PolicyValueNet(enc.state_dim, enc.move_dim, hidden=64, move_hidden=32, value_scale=3.0)
    model = PolicyValueModel(export_onnx(net, _meta(game, enc, net)))
    g = torch.Generator().manual_seed(1)
    for b, m in ((1, 1), (1, 7), (5, 23)):
        st = torch.rand(b, enc.state_dim, generator=g)
        mv = torch.rand(m, enc.move_dim, generator=g)
        idx = torch.sort(torch.randint(0, b, (m,), generator=g))[0]
        with torch.no_grad():
            lt, vt = net.eval()(st, mv, idx)
        lo, vo = model.run(st.numpy(), mv.numpy(), idx.numpy())
        np.testing.assert_allclose(lo, lt.numpy(), atol=1e-4, rtol=1e-4)
        np.testing.assert_allclose(vo, vt.numpy(), atol=1e-4, rtol=1e-4)


def test_heuristic_bonus_is_in_the_exported_graph():
    """The calibrated bonus adds to the logit of rows whose last feature (the heuristic-choice
    flag) is 1, in torch and in the exported ONNX graph alike."""
    game = ToyGame(4)
    enc = encoder_for(game)
    torch.manual_seed(0)
    net = PolicyValueNet(enc.state_dim, enc.move_dim, hidden=16, move_hidden=8)
    st = torch.rand(1, enc.state_dim)
    mv = torch.rand(3, enc.move_dim)
    mv[:, -1] = torch.tensor([0.0, 1.0, 0.0])
    idx = torch.zeros(3, dtype=torch.int64)
    before = PolicyValueModel(export_onnx(net, _meta(game, enc, net))).run(
        st.numpy(), mv.numpy(), idx.numpy()
    )[0]
    net.heuristic_bonus.fill_(2.5)
    after = PolicyValueModel(export_onnx(net, _meta(game, enc, net))).run(
        st.numpy(), mv.numpy(), idx.numpy()
    )[0]
    np.testing.assert_allclose(after - before, [0.0, 2.5, 0.0], atol=1e-5)


def test_buffer_gathers_the_right_rows():
    game = ToyGame(3)
    enc = encoder_for(game)
    buf = Buffer(enc.state_dim, enc.move_dim)
    rng = random.Random(0)
    games_ = [play_game(game, rng, heuristic_policy(game)) for _ in range(3)]
    for g in games_:
        buf.add_game(g, 3)
    assert buf.size == sum(len(g.states) for g in games_)
    st, va, mv, tg, ms = buf.batch(np.array([1, 0]))
    g0 = games_[0]
    np.testing.assert_allclose(st[1], g0.states[0], atol=1e-3)
    assert (ms == 0).sum() == len(g0.targets[1]) and (ms == 1).sum() == len(g0.targets[0])
    np.testing.assert_allclose(tg[ms == 1], g0.targets[0])
    seat = g0.seats[0]
    assert va[1, 0] == g0.returns[seat] and va[1, 1] == g0.returns[(seat + 1) % 3]
    assert va[1, 3] == 0.0
    assert abs(tg[ms == 0].sum() - 1.0) < 1e-6


def test_tiny_training_run_end_to_end(tmp_path):
    """A few seconds of the whole pipeline: heuristic data, expert iteration with ISMCTS,
    arena, export with metadata, canary, card and plot."""
    from quansu.models.training.loop import TrainConfig, train

    game = ToyGame(4)
    out = tmp_path / "toy.onnx"
    cfg = TrainConfig(
        "toy",
        minutes=0.12,
        workers=1,
        hidden=32,
        move_hidden=16,
        search_iterations=8,
        games_per_round=2,
        steps_per_round=20,
        eval_deals=3,
        out=str(out),
        progress=False,
    )
    lines = []
    summary = train(cfg, log=lines.append, game=game)
    assert out.is_file() and out.with_suffix(".md").is_file()
    assert out.with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.with_suffix(".canary.json").is_file()
    model = PolicyValueModel(out)
    assert model.game == "toy" and model.training()["command"] == summary["command"]
    assert summary["heuristic_games"] > 0 and summary["steps"] > 0
    card = out.with_suffix(".md").read_text()
    assert summary["command"] in card and "Policy alone" in card
    ev = NetworkEvaluator(game, model)
    state = game.new_initial_state(random.Random(1))
    a = ev.evaluate([state], [state.legal_moves()])[0]
    assert len(a.priors) == len(state.legal_moves())


def test_advantage_loss_centres_logits_and_skips_missing_targets():
    """The advantage loss is zero when the logits equal advantage / scale up to a shift per
    state, whatever the logits of moves without a target; it grows when they are wrong."""
    from quansu.models.training.trainer import Trainer

    class Fixed(torch.nn.Module):
        def __init__(self, logits):
            super().__init__()
            self.logits = logits
            self.unused = torch.nn.Parameter(torch.zeros(1))  # for the optimizer
            self.value_scale = torch.tensor(1.0)

        def forward(self, st, mv, ms):
            return self.logits, torch.zeros(st.shape[0], 4)

    nan = float("nan")
    tg = np.array([1.0, -1.0, nan, 0.5, -0.5], dtype=np.float32)
    ms = np.array([0, 0, 0, 1, 1], dtype=np.int64)
    batch = (
        np.zeros((2, 3), np.float32),
        np.zeros((2, 4), np.float32),
        np.zeros((5, 2), np.float32),
        tg,
        ms,
    )
    good = torch.tensor([7.5, 6.5, -40.0, 0.25, -0.25])  # state 0 shifted by 7, scale 2
    assert float(Trainer(Fixed(good), 2, advantage_scale=2.0).losses(batch)[1]) < 1e-10
    bad = torch.tensor([6.5, 7.5, 0.0, 0.25, -0.25])
    assert float(Trainer(Fixed(bad), 2, advantage_scale=2.0).losses(batch)[1]) > 0.1


def test_tiny_advantage_training_run(tmp_path):
    """The advantage pipeline end to end: rollout-advantage games, no expert iteration, the
    advantage scale in the model's metadata and the card."""
    from quansu.models.training.loop import TrainConfig, train

    game = ToyGame(3)
    out = tmp_path / "toy_adv.onnx"
    cfg = TrainConfig(
        "toy",
        players=3,
        minutes=0.08,
        workers=1,
        hidden=32,
        move_hidden=16,
        steps_per_round=20,
        eval_deals=2,
        out=str(out),
        progress=False,
        policy_targets="advantage",
        rollout_moves=3,
        calibration_deals=2,
    )
    summary = train(cfg, log=lambda *_: None, game=game)
    assert summary["exit_rounds"] == 0 and summary["heuristic_games"] > 0
    model = PolicyValueModel(out)
    assert model.metadata["quansu.policy_targets"] == "advantage"
    assert float(model.metadata["quansu.advantage_scale"]) == summary["advantage_scale"] > 0
    assert "--policy-targets advantage" in summary["command"]
    assert "rollout advantages" in out.with_suffix(".md").read_text()
    # early stopping on held-out games split from the generated ones
    assert summary["heldout_decisions"] > 0
    assert 0 < summary["kept_step"] <= summary["steps"]
    assert "Early stopping: kept the weights after step" in out.with_suffix(".md").read_text()
    assert summary["vs_previous"] is None  # nothing at --out before this run

    # a second run must beat the network now at --out; the better one ends up there
    before = out.read_bytes()
    cfg2 = dataclasses.replace(cfg, seed=1, compare_deals=3)
    lines = []
    second = train(cfg2, log=lines.append, game=game)
    vp = second["vs_previous"]
    assert vp["model"] == str(out) and vp["deals"] == 3 and vp["ci95"][0] <= vp["mean"]
    assert vp["kept"] == ("new" if vp["mean"] >= 0 else "previous")
    rejected = out.with_name("toy_adv.rejected.onnx")
    if vp["kept"] == "new":
        assert out.read_bytes() != before and not rejected.exists()
        assert "this network replaced it" in out.with_suffix(".md").read_text()
    else:
        assert out.read_bytes() == before and rejected.is_file()
        assert "the previous network was kept" in rejected.with_suffix(".md").read_text()
    assert any("new vs previous" in line for line in lines)
    # an explicit --previous that does not fit is refused before any time is spent
    other = ToyGame(4)
    with pytest.raises(ModelError, match="--previous: .*players 3, this run has 4"):
        train(
            dataclasses.replace(cfg, players=4, previous=str(out)), log=lambda *_: None, game=other
        )


@pytest.mark.parametrize("teacher", ["network", "rollout", "uniform"])
def test_every_teacher_gives_visit_targets(teacher):
    """Expert iteration's search policy: targets are visit distributions over the legal moves,
    whichever search is the teacher; the uniform teacher does not touch the network."""
    from quansu.models.training.loop import search_policy

    game = ToyGame(3)
    enc = encoder_for(game)
    torch.manual_seed(0)
    net = PolicyValueNet(enc.state_dim, enc.move_dim, hidden=16, move_hidden=8, value_scale=2.0)
    model = (
        None if teacher == "uniform" else PolicyValueModel(export_onnx(net, _meta(game, enc, net)))
    )
    policy = search_policy(game, model, {"iterations": 12, "temperature": 1.0, "teacher": teacher})
    samples = play_game(game, random.Random(3), policy)
    assert samples.targets and len(samples.targets) == len(samples.moves)
    for target, rows in zip(samples.targets, samples.moves):
        assert len(target) == len(rows) and abs(float(target.sum()) - 1.0) < 1e-5


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--game", "tienlen", "--minutes", "0"], "--minutes must be > 0"),
        (["--game", "tienlen", "--workers", "0"], "--workers must be >= 1"),
        (["--game", "tienlen", "--heuristic-share", "0.95"], "--heuristic-share must be < 0.9"),
        (["--game", "tienlen", "--exit-replay", "0"], "--exit-replay must be >= 1"),
        (["--game", "tienlen", "--rollout-moves", "0"], "--rollout-moves must be >= 1"),
        (["--game", "tienlen", "--calibration-deals", "0"], "--calibration-deals must be >= 1"),
        (["--game", "tienlen", "--compare-deals", "0"], "--compare-deals must be >= 1"),
        (
            [
                "--game",
                "tienlen",
                "--previous",
                "/nonexistent/x.onnx",
                "--minutes",
                "0.01",
                "--workers",
                "1",
            ],
            "--previous: model file '/nonexistent/x.onnx' not found",
        ),
        (["--game", "chess"], "unknown game"),
        (["--game", "tienlen", "--players", "7"], "players"),
    ],
)
def test_train_command_rejects_bad_arguments(argv, message, capsys):
    from quansu.cli.train import main

    assert main(argv) == 2
    assert message in capsys.readouterr().err


class SparringToy(ToyGame):
    """The toy game with a sparring bot that differs from its heuristic (it always plays its
    highest card) and counts its calls."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.sparring_calls = 0

    def sparring_move(self, state, rng):
        self.sparring_calls += 1
        return max(state.legal_moves())


@pytest.mark.parametrize("bot", ["heuristic", "sparring"])
def test_advantage_game_plays_and_rolls_out_with_the_chosen_bot(bot):
    """With ``bot``, the chosen bot plays the game and every rollout: with no random moves and
    deterministic bots, the rollout of the bot's own move from each decision replays the rest
    of the game, so each value target equals the game's final payoffs; the other bot is never
    asked for a move (the encoder still asks the heuristic for its feature)."""
    from quansu.models.training.data import advantage_game

    game = SparringToy(3)
    samples = advantage_game(game, random.Random(2), max_moves=4, epsilon=0.0, bot=bot)
    assert samples.values and len(samples.values) == len(samples.states)
    for v in samples.values:
        assert list(v) == pytest.approx(list(samples.returns))
    assert (game.sparring_calls > 0) == (bot == "sparring")
    # the two bots play different games from the same deal
    other = advantage_game(
        SparringToy(3),
        random.Random(2),
        max_moves=4,
        epsilon=0.0,
        bot="sparring" if bot == "heuristic" else "heuristic",
    )
    assert [list(v) for v in other.values] != [list(v) for v in samples.values]


def test_imitation_targets_follow_the_chosen_bot():
    game = SparringToy(3)
    state = game.new_initial_state(random.Random(4))
    moves = state.legal_moves()
    _, target = heuristic_policy(game, 0.0, "sparring")(state, random.Random(0))
    assert moves[int(np.argmax(target))] == max(moves) and game.sparring_calls == 1
    _, target = heuristic_policy(game, 0.0)(state, random.Random(0))
    assert moves[int(np.argmax(target))] == game.heuristic_move(state, random.Random(0))
    from quansu.models.training.data import bot_move

    with pytest.raises(ValueError, match="unknown self-play bot"):
        bot_move(game, "level3")


def test_tiny_sparring_training_run_records_the_bot(tmp_path):
    """``--bot sparring`` end to end: the command, the summary, the model's metadata and the
    card name the bot, and the policy is also measured against it."""
    from quansu.models.training.loop import TrainConfig, train

    game = SparringToy(3)
    out = tmp_path / "toy_sp.onnx"
    cfg = TrainConfig(
        "toy",
        players=3,
        minutes=0.08,
        workers=1,
        hidden=32,
        move_hidden=16,
        steps_per_round=20,
        eval_deals=2,
        out=str(out),
        progress=False,
        policy_targets="advantage",
        rollout_moves=3,
        calibration_deals=2,
        bot="sparring",
    )
    lines = []
    summary = train(cfg, log=lines.append, game=game)
    assert "--bot sparring" in summary["command"]
    assert "--bot" not in TrainConfig("toy").command()
    assert summary["bot"] == "sparring" and game.sparring_calls > 0
    assert summary["policy_vs_bot"]["bot"] == "sparring"
    assert summary["policy_vs_bot"]["deals"] == 2
    assert PolicyValueModel(out).training()["bot"] == "sparring"
    card = out.with_suffix(".md").read_text()
    assert "Self-play and rollout bot: sparring (`--bot sparring`)" in card
    assert "sparring self-play games with rollout advantages" in card
    assert "Policy alone vs the sparring bot" in card
    assert any("vs sparring bot" in line for line in lines)
    with pytest.raises(ValueError, match="unknown self-play bot"):
        train(dataclasses.replace(cfg, bot="random"), log=lambda *_: None, game=game)


def test_train_command_takes_the_bot(monkeypatch):
    """``quansu train --bot sparring`` reaches the run's config; an unknown bot is refused."""
    from quansu.cli import train as cmd_train
    from quansu.models.training import loop

    seen = {}
    monkeypatch.setattr(loop, "train", lambda cfg: seen.setdefault("cfg", cfg))
    assert cmd_train.main(["--game", "tienlen", "--bot", "sparring", "--minutes", "1"]) == 0
    assert seen["cfg"].bot == "sparring"
    with pytest.raises(SystemExit):
        cmd_train.main(["--game", "tienlen", "--bot", "level3"])
