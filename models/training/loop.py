"""The training pipeline behind ``quansu train`` (torch on the CPU, both cores).

1. **Heuristic phase**: every seat plays the game's heuristic bot (a fraction ``epsilon`` of
   moves random for variety); policy targets are the bot's choices, value targets the final
   payoffs.  The network is trained on these samples.
2. **Expert iteration**: the current network guides ISMCTS (``search/``) at every decision of
   self-play games; the root visit distribution is the policy target and the final payoff the
   value target.  ``teacher`` says how that search runs: ``"network"`` (priors and leaf values
   from the network), ``"rollout"`` (network priors, leaf values from playouts with the game's
   ``search_playout``) or ``"uniform"`` (uniform priors and playouts: the network-free search,
   whose knowledge the network does not have yet; slower, stronger teachers while the
   network is still weak).
   After each round of games the network trains on a replay window, is exported,
   and plays the previous best network (policy alone, fixed deals, seats rotated); the better
   one is kept.
3. The best network is written as ONNX with its metadata (game, options, encoder version and
   fingerprint, training summary), together with a training-curve PNG and a model card.

With ``policy_targets="advantage"`` phase 1 is different and takes the whole budget (no expert
iteration): heuristic self-play games where, at each decision, every legal move (up to
``rollout_moves``) is played out by the heuristic bot from the true state with shared random
numbers (:func:`~models.training.data.advantage_game`); the policy logits learn each move's
advantage in units of ``advantage_scale`` (one step of policy improvement over the heuristic
bot), the value head the heuristic move's rollout payoffs.
The bonus of the heuristic's move is then calibrated (:func:`calibrate_bonus`).

``bot`` (``--bot``) chooses the rule-based bot behind the self-play games, the rollouts, the
bonus calibration's opponent and the imitation targets: ``"heuristic"`` (default, how the
first shipped networks were trained) or ``"sparring"`` (the game's strong rule-based bot, the
baseline the search levels are measured against; tens of times slower per move, so far fewer
decisions per minute).  The final evaluation plays the heuristic bot always, and the chosen bot
too when it is another.

Game generation runs in ``workers`` processes; training uses ``torch.set_num_threads(workers)``.
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from quansu.games import make
from quansu.games.base import Game
from quansu.models.canary import write_canary
from quansu.models.encoders import encoder_for
from quansu.models.evaluator import MODEL_FORMAT, ModelError, NetworkEvaluator, PolicyValueModel
from quansu.models.training.arena import mean_ci, policy_match
from quansu.models.training.data import (
    BOTS,
    Buffer,
    advantage_game,
    bot_move,
    heuristic_policy,
    play_game,
)
from quansu.models.training.net import PolicyValueNet, export_onnx
from quansu.models.training.plot import Progress, line_plot_png
from quansu.models.training.trainer import Trainer


@dataclass
class TrainConfig:
    """Settings of one training run (``quansu train`` flags).

    Time: ``minutes`` of wall time in all; ``heuristic_share`` of it goes to the heuristic phase,
    ``eval_share`` is kept for the final evaluation, the rest is expert iteration.  Replay
    window: ``replay`` decisions in the heuristic phase, ``exit_replay`` in expert iteration.
    ``previous``: the model the new one must beat (default: the one already at ``out``, if it
    was trained for the same game, players, options and encoder); they play ``compare_deals``
    deals, policy alone, and the better one ends up at ``out``.  ``bot``: the rule-based bot of
    the self-play games, rollouts and calibration (:data:`~models.training.data.BOTS`).
    """

    game: str
    players: int = 4
    options: dict = field(default_factory=dict)
    minutes: float = 30.0
    seed: int = 0
    workers: int = 2
    hidden: int = 256
    move_hidden: int = 128
    heuristic_share: float = 0.4
    eval_share: float = 0.1
    epsilon: float = 0.1
    search_iterations: int = 48
    teacher: str = "network"
    search_temperature: float = 1.0
    games_per_round: int = 16
    steps_per_round: int = 200
    batch_size: int = 256
    lr: float = 1e-3
    replay: int = 150_000
    exit_replay: int = 40_000
    eval_deals: int = 40
    calibration_deals: int = 400
    policy_targets: str = "heuristic"
    rollout_moves: int = 12
    bot: str = "heuristic"
    out: str = ""
    previous: str = ""
    compare_deals: int = 400
    progress: bool = True

    def command(self) -> str:
        """The ``quansu train`` command line that reproduces this run."""
        parts = [
            f"quansu train --game {self.game} --players {self.players}",
            f"--minutes {self.minutes:g} --seed {self.seed} --workers {self.workers}",
        ]
        for k, v in sorted(self.options.items()):
            parts.append(f"--option {k}={json.dumps(v)}")
        d = TrainConfig(self.game)
        for name in (
            "hidden",
            "search_iterations",
            "teacher",
            "games_per_round",
            "exit_replay",
            "steps_per_round",
            "heuristic_share",
            "eval_deals",
            "policy_targets",
            "rollout_moves",
            "bot",
            "replay",
            "calibration_deals",
            "compare_deals",
        ):
            if getattr(self, name) != getattr(d, name):
                parts.append(f"--{name.replace('_', '-')} {getattr(self, name)}")
        if self.previous:
            parts.append(f"--previous {self.previous}")
        if self.out:
            parts.append(f"--out {self.out}")
        return " ".join(parts)


# ---- worker processes ----------------------------------------------------------------------


def _worker_games(job: tuple) -> list:
    """Runs in a worker: ``(game, mode, model bytes, n, seed, params)``."""
    game, mode, model_bytes, n, seed, params = job
    torch.set_num_threads(1)
    rng = random.Random(seed)
    if mode == "advantage":
        return [
            advantage_game(
                game,
                rng,
                max_moves=params["rollout_moves"],
                epsilon=params["epsilon"],
                bot=params.get("bot", "heuristic"),
            )
            for _ in range(n)
        ]
    if mode == "heuristic":
        policy = heuristic_policy(game, params["epsilon"], params.get("bot", "heuristic"))
    else:
        policy = search_policy(game, PolicyValueModel(model_bytes), params)
    return [play_game(game, rng, policy) for _ in range(n)]


def search_policy(game: Game, model: PolicyValueModel, params: dict):
    """Self-play policy of expert iteration: ISMCTS guided by ``model`` for the seat to act;
    the target is the root visit distribution, the move is sampled from the visits with
    ``params["temperature"]``.  ``params["teacher"]``: ``"network"`` (leaf values from the
    value head, leaves batched by 8), ``"rollout"`` (leaf values from playouts with the
    game's ``search_playout``; the network gives the priors) or ``"uniform"`` (uniform priors
    and playouts; the network is not used)."""
    from quansu.search.config import SearchConfig
    from quansu.search.evaluator import UniformEvaluator
    from quansu.search.ismcts import search

    teacher = params.get("teacher", "network")
    evaluator = (
        UniformEvaluator()
        if teacher == "uniform"
        else NetworkEvaluator(game, model, cache_size=50_000)
    )
    if teacher in ("rollout", "uniform"):
        config = SearchConfig(iterations=params["iterations"], leaf_value="rollout", playout="game")
    else:
        config = SearchConfig(
            iterations=params["iterations"],
            leaf_value="evaluator",
            batch_size=params.get("batch_size", 8),
            value_scale=model.value_scale,
        )

    def policy(state, rng):
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0], None
        result = search(state, config, evaluator, rng=rng)
        visits = {m.move: m.visits for m in result.moves}
        target = np.array([visits.get(m, 0) for m in moves], dtype=np.float32)
        target /= max(1.0, target.sum())
        return result.choose(rng, params["temperature"]), target

    return policy


class _Pool:
    def __init__(self, workers: int):
        self.workers = workers
        self.pool = mp.get_context("fork").Pool(workers) if workers > 1 else None

    def map(self, jobs):
        if self.pool is None:
            return [_worker_games(j) for j in jobs]
        return self.pool.map(_worker_games, jobs)

    def close(self):
        if self.pool is not None:
            self.pool.close()
            self.pool.join()


# ---- the run -------------------------------------------------------------------------------


def _snapshot(net: PolicyValueNet) -> dict:
    """A copy of the network's weights and buffers (for ``load_state_dict`` later)."""
    return {k: v.clone() for k, v in net.state_dict().items()}


def _metadata(
    cfg: TrainConfig,
    game: Game,
    enc,
    net: PolicyValueNet,
    summary: dict,
    advantage_scale: float | None,
) -> dict:
    extra = {}
    if advantage_scale is not None:
        extra = {
            "quansu.policy_targets": "advantage",
            "quansu.advantage_scale": str(advantage_scale),
        }
    return {
        **extra,
        "quansu.format": MODEL_FORMAT,
        "quansu.game": game.name,
        "quansu.players": str(game.num_players),
        "quansu.options": json.dumps(game.options, sort_keys=True),
        "quansu.rules_version": str(game.rules_version),
        "quansu.encoder_version": str(enc.version),
        "quansu.encoder_fingerprint": enc.fingerprint(),
        "quansu.state_dim": str(enc.state_dim),
        "quansu.move_dim": str(enc.move_dim),
        "quansu.net": json.dumps(net.config, sort_keys=True),
        "quansu.value_scale": str(float(net.value_scale)),
        "quansu.training": json.dumps(summary, sort_keys=True),
    }


def train(cfg: TrainConfig, log=print, game: Game | None = None) -> dict:
    """Run the pipeline; write ``cfg.out`` (ONNX), its ``.md`` card and ``.png`` curve.
    Returns the training summary (also stored in the model's metadata).  ``game``: a game
    object to train on instead of ``make(cfg.game, cfg.players, cfg.options)`` (tests)."""
    if cfg.bot not in BOTS:
        raise ValueError(f"unknown self-play bot {cfg.bot!r}; known: {', '.join(BOTS)}")
    t0 = time.monotonic()
    deadline = t0 + cfg.minutes * 60.0
    torch.manual_seed(cfg.seed)
    # one intra-op thread: measured faster than two on this shared 2-core machine (26 vs 82 ms
    # per step of 256 states); the second core generates games in the worker processes
    torch.set_num_threads(1)
    game = game or make(cfg.game, cfg.players, cfg.options)
    enc = encoder_for(game)
    out = Path(cfg.out or f"models/{game.name}.onnx")
    prev_path, prev_bytes = _previous_model(cfg, out, game, enc, log)
    buffer = Buffer(enc.state_dim, enc.move_dim, cfg.replay)
    heldout = Buffer(enc.state_dim, enc.move_dim, HELDOUT_CAPACITY)
    curve: dict[str, list[float]] = {
        "policy_loss": [],
        "value_loss": [],
        "heldout_top1": [],
        "heldout_policy_loss": [],
    }
    history: list[dict] = []
    pool = _Pool(cfg.workers)
    seed_counter = [cfg.seed * 1_000_003]
    gen_count = [0]

    def jobs(mode, n_games, model_bytes, params):
        per = [
            n_games // cfg.workers + (1 if i < n_games % cfg.workers else 0)
            for i in range(cfg.workers)
        ]
        out_jobs = []
        for k in per:
            if k:
                seed_counter[0] += 1
                out_jobs.append((game, mode, model_bytes, k, seed_counter[0], params))
        return out_jobs

    def gen(mode, n_games, model_bytes=None, params=None, holdout_every=0):
        results = pool.map(jobs(mode, n_games, model_bytes, params or {}))
        games = [g for r in results for g in r]
        for g in games:
            # every ``holdout_every``-th game goes to the held-out set (never trained on)
            # until it is full; the rest to the replay window
            gen_count[0] += 1
            if (
                holdout_every
                and gen_count[0] % holdout_every == 0
                and heldout.size < heldout.capacity
            ):
                heldout.add_game(g, game.num_players)
            else:
                buffer.add_game(g, game.num_players)
        return games

    def train_steps(n, label):
        bar = Progress(n, label, enabled=cfg.progress)
        pl = vl = 0.0
        for i in range(n):
            p, v = trainer.step(buffer, cfg.batch_size)
            pl += p
            vl += v
            if (i + 1) % 50 == 0 or i + 1 == n:
                k = 50 if (i + 1) % 50 == 0 else (i + 1) % 50
                curve["policy_loss"].append(pl / k)
                curve["value_loss"].append(vl / k)
                bar.update(k, f"policy {pl / k:.3f} value {vl / k:.4f}")
                pl = vl = 0.0
            if i >= 20 and time.monotonic() > deadline:
                break
        bar.close()

    advantage = cfg.policy_targets == "advantage"
    mode = "advantage" if advantage else "heuristic"
    gen_params = {"epsilon": cfg.epsilon, "rollout_moves": cfg.rollout_moves, "bot": cfg.bot}
    adv_scale: list = [None]

    def export(summary) -> bytes:
        return export_onnx(net, _metadata(cfg, game, enc, net, summary, adv_scale[0]))

    # held-out games (never trained on) for the curve
    hg = pool.map(jobs(mode, max(cfg.workers, 8), None, gen_params))
    for r in hg:
        for g in r:
            heldout.add_game(g, game.num_players)

    # 1. heuristic phase (the whole budget but the final evaluation with advantage targets)
    if advantage:
        phase_end = deadline - cfg.minutes * 60.0 * cfg.eval_share
        gen_end = t0 + (phase_end - t0) * 0.75
    else:
        phase_end = t0 + cfg.minutes * 60.0 * cfg.heuristic_share
        gen_end = t0 + (phase_end - t0) * 0.3
    bar = Progress(gen_end - time.monotonic(), f"{mode} games", enabled=cfg.progress)
    chunk = (2 if advantage else 8) * cfg.workers
    while time.monotonic() < gen_end:
        t = time.monotonic()
        gen(mode, chunk, params=gen_params, holdout_every=HOLDOUT_EVERY if advantage else 0)
        bar.update(time.monotonic() - t, f"{buffer.games} games {buffer.size} decisions")
    bar.close()
    heuristic_games = buffer.games
    # value scale (bets per unit of raw net output, also the guided search's PUCT scale):
    # 3 standard deviations of the heuristic games' payoffs, at least 1 bet
    pay = buffer.arrays()[1][:, : game.num_players]
    value_scale = float(max(1.0, round(3.0 * float(pay.std()), 2)))
    if advantage:
        # bets per logit unit: the standard deviation of the rolled-out advantages
        tg = buffer.arrays()[3]
        adv_scale[0] = float(max(0.01, round(float(np.nanstd(tg)), 3)))
    net = PolicyValueNet(
        enc.state_dim, enc.move_dim, cfg.hidden, cfg.move_hidden, value_scale=value_scale
    )
    trainer = Trainer(net, game.num_players, lr=cfg.lr, seed=cfg.seed, advantage_scale=adv_scale[0])
    steps = 0
    # early stopping (advantage targets): the rolled-out advantages are noisy, and a network
    # trained on them for many passes fits the noise (a held-out loss above 1, the loss of
    # predicting no advantage); keep the weights with the lowest held-out policy loss
    stop = {"loss": math.inf, "step": 0, "state": None}
    while steps == 0 or time.monotonic() < phase_end:
        train_steps(cfg.steps_per_round, f"train ({mode} data)")
        steps += cfg.steps_per_round
        pol, _, top1 = trainer.evaluate(heldout)
        curve["heldout_top1"].append(top1)
        curve["heldout_policy_loss"].append(pol)
        if advantage and pol < stop["loss"]:
            stop.update(loss=pol, step=trainer.steps, state=_snapshot(net))
    stopped = stop["state"] is not None
    if stopped:
        net.load_state_dict(stop["state"])
        log(f"early stopping: kept the weights after step {stop['step']} of {trainer.steps}")
    pol, val, top1 = trainer.evaluate(heldout)
    log(
        f"{mode} phase: {heuristic_games} games, {buffer.size} decisions, {steps} steps; "
        f"held-out policy loss {pol:.3f}, value loss {val:.4f}, top-1 agreement {top1:.3f}"
    )
    calibration = []
    if advantage and enc.spec.heuristic_feature:
        calibration = calibrate_bonus(
            game,
            net,
            lambda: export({"phase": "calibration"}),
            cfg.calibration_deals,
            cfg.seed,
            cfg.bot,
        )
        best = max(calibration, key=lambda c: c["vs_heuristic"][0])
        net.heuristic_bonus.fill_(best["bonus"])
        log(
            "heuristic bonus: "
            + ", ".join(f"{c['bonus']:g} -> {c['vs_heuristic'][0]:+.3f}" for c in calibration)
            + f"; chose {best['bonus']:g}"
        )
    best_bytes = export({"phase": mode})
    best_state = _snapshot(net)

    # 2. expert iteration: a smaller replay window, so that search games replace the
    # heuristic games as they arrive
    buffer.capacity = cfg.exit_replay
    exit_end = deadline - cfg.minutes * 60.0 * cfg.eval_share
    rounds = 0
    exit_games = 0
    params = {
        "iterations": cfg.search_iterations,
        "temperature": cfg.search_temperature,
        "teacher": cfg.teacher,
    }
    eval_rng = random.Random(cfg.seed + 7)
    eval_deals = [game.random_deal(eval_rng) for _ in range(cfg.eval_deals)]
    while not advantage and time.monotonic() < exit_end:
        t = time.monotonic()
        games = gen("search", cfg.games_per_round, best_bytes, params)
        exit_games += len(games)
        gen_s = time.monotonic() - t
        if time.monotonic() >= exit_end:
            break
        train_steps(cfg.steps_per_round, f"train (round {rounds + 1})")
        curve["heldout_top1"].append(trainer.evaluate(heldout)[2])
        cand = export({"phase": "expert iteration", "round": rounds + 1})
        m, lo, hi = policy_vs_policy(game, cand, best_bytes, eval_deals, cfg.seed)
        kept = m >= 0.0
        rounds += 1
        history.append(
            {
                "round": rounds,
                "games": len(games),
                "gen_s": round(gen_s, 1),
                "vs_previous": [round(m, 4), round(lo, 4), round(hi, 4)],
                "kept": kept,
            }
        )
        log(
            f"round {rounds}: {len(games)} search games in {gen_s:.0f}s; new vs previous "
            f"{m:+.3f} [{lo:+.3f}, {hi:+.3f}] bets/game -> {'kept' if kept else 'rejected'}"
        )
        if kept:
            best_bytes = cand
            best_state = _snapshot(net)
        else:
            net.load_state_dict(best_state)

    # 3. final evaluation: policy alone vs the heuristic bot, and the card
    net.load_state_dict(best_state)
    pool.close()
    final = NetworkEvaluator(game, PolicyValueModel(best_bytes), cache_size=0)
    scores = policy_match(
        game,
        lambda s, r: final.policy_move(s),
        lambda s, r: game.heuristic_move(s, r),
        eval_deals,
        random.Random(cfg.seed + 1),
    )
    m, lo, hi = mean_ci(scores)
    vs_bot = None
    if cfg.bot != "heuristic":
        bot = bot_move(game, cfg.bot)
        bm, blo, bhi = mean_ci(
            policy_match(
                game,
                lambda s, r: final.policy_move(s),
                bot,
                eval_deals,
                random.Random(cfg.seed + 1),
            )
        )
        vs_bot = {
            "bot": cfg.bot,
            "deals": len(eval_deals),
            "mean": round(bm, 4),
            "ci95": [round(blo, 4), round(bhi, 4)],
        }
        log(
            f"policy alone vs {cfg.bot} bot: {bm:+.3f} bets/game, 95% CI [{blo:+.3f}, "
            f"{bhi:+.3f}] over {len(eval_deals)} deals x rotations"
        )
    pol, val, top1 = trainer.evaluate(heldout)
    vs_previous = None
    if prev_bytes is not None:
        vs_previous = compare_models(game, best_bytes, prev_bytes, cfg.compare_deals, cfg.seed)
        vs_previous["model"] = str(prev_path)
        c = vs_previous["ci95"]
        log(
            f"new vs previous ({prev_path}), policy alone: {vs_previous['mean']:+.3f} "
            f"[{c[0]:+.3f}, {c[1]:+.3f}] bets/game over {cfg.compare_deals} deals -> "
            f"{vs_previous['kept']} kept"
        )
    summary = {
        "command": cfg.command(),
        "minutes": round((time.monotonic() - t0) / 60.0, 2),
        "seed": cfg.seed,
        "workers": cfg.workers,
        "heuristic_games": heuristic_games,
        "search_games": exit_games,
        "decisions_in_buffer": buffer.size,
        "steps": trainer.steps,
        "exit_rounds": rounds,
        "rounds": history,
        "policy_targets": cfg.policy_targets,
        "rollout_moves": cfg.rollout_moves,
        "bot": cfg.bot,
        "policy_vs_bot": vs_bot,
        "advantage_scale": adv_scale[0],
        "bonus_calibration": calibration,
        "calibration_deals": cfg.calibration_deals if calibration else 0,
        "kept_step": stop["step"] if stopped else trainer.steps,
        "heldout_decisions": heldout.size,
        "kept_heldout_policy_loss": round(stop["loss"], 4) if stopped else None,
        "heuristic_bonus": float(net.heuristic_bonus),
        "search_iterations": cfg.search_iterations,
        "teacher": cfg.teacher,
        "heldout": {
            "policy_loss": round(pol, 4),
            "value_loss": round(val, 5),
            "top1_vs_heuristic": round(top1, 4),
        },
        "policy_vs_heuristic": {
            "deals": len(eval_deals),
            "mean": round(m, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
        },
        "vs_previous": vs_previous,
    }
    data = export(summary)
    # the better network ends up at ``out``; a rejected one is kept beside it for inspection
    keep_new = vs_previous is None or vs_previous["kept"] == "new"
    target = out if keep_new else out.with_name(out.stem + ".rejected.onnx")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    line_plot_png(curve, str(target.with_suffix(".png")), title=f"{game.name}: training")
    write_canary(target.with_suffix(".canary.json"), game, PolicyValueModel(data).run)
    write_card(target.with_suffix(".md"), game, enc, net, summary, len(data))
    log(
        f"policy alone vs heuristic bot: {m:+.3f} bets/game, 95% CI [{lo:+.3f}, {hi:+.3f}] "
        f"over {len(eval_deals)} deals x rotations"
    )
    log(
        f"wrote {target} ({len(data) / 1e6:.2f} MB), {target.with_suffix('.md')}, "
        f"{target.with_suffix('.png')} in {summary['minutes']} min"
    )
    if not keep_new:
        if prev_path.resolve() != out.resolve():
            out.write_bytes(prev_bytes)
            for suffix in (".md", ".png", ".canary.json"):
                side = prev_path.with_suffix(suffix)
                if side.is_file():
                    out.with_suffix(suffix).write_bytes(side.read_bytes())
        log(f"the previous network stays the better one: {out} holds it")
    return summary


def _previous_model(cfg: TrainConfig, out: Path, game: Game, enc, log) -> tuple:
    """``(path, bytes)`` of the network the new one must beat, or ``(None, None)``.

    ``cfg.previous`` must be a model of the same game, players, options and encoder layout
    (else :class:`~models.evaluator.ModelError`, before any time is spent); without it, the
    model already at ``out`` is the previous one when it fits (else it is replaced, with a
    log line saying why)."""
    path = Path(cfg.previous) if cfg.previous else out
    if not cfg.previous and not path.is_file():
        return None, None
    try:
        model = PolicyValueModel(path)
        model.check_encoder(enc)
        want = {
            "quansu.players": str(game.num_players),
            "quansu.options": json.dumps(game.options, sort_keys=True),
        }
        for key, value in want.items():
            if model.metadata.get(key) != value:
                raise ModelError(
                    f"model {path} was trained with {key.split('.')[1]} "
                    f"{model.metadata.get(key)}, this run has {value}"
                )
    except ModelError as e:
        if cfg.previous:
            raise ModelError(f"--previous: {e}") from None
        log(f"the model at {out} is not compared and will be replaced: {e}")
        return None, None
    return path, path.read_bytes()


def policy_vs_policy(
    game: Game, a_bytes: bytes, b_bytes: bytes, deals: list, seed: int
) -> tuple[float, float, float]:
    """Network A against network B, policy alone (top move, no search), on ``deals``, every
    seat rotation: A's mean payoff in bets per game and its 95 % interval."""
    a = NetworkEvaluator(game, PolicyValueModel(a_bytes), cache_size=0)
    b = NetworkEvaluator(game, PolicyValueModel(b_bytes), cache_size=0)
    scores = policy_match(
        game,
        lambda s, r: a.policy_move(s),
        lambda s, r: b.policy_move(s),
        deals,
        random.Random(seed),
    )
    return mean_ci(scores)


def compare_models(game: Game, new: bytes, previous: bytes, deals: int, seed: int) -> dict:
    """The new network against the previous one (:func:`policy_vs_policy`) on ``deals`` deals
    of their own seed: ``{"deals", "mean", "ci95", "kept"}`` with the new network's mean payoff in bets per game; ``kept`` is ``"new"``
    unless the mean is below zero."""
    rng = random.Random(seed + 13)
    m, lo, hi = policy_vs_policy(
        game, new, previous, [game.random_deal(rng) for _ in range(deals)], seed
    )
    return {
        "deals": deals,
        "mean": round(m, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "kept": "new" if m >= 0.0 else "previous",
    }


#: with advantage targets, one generated game in this many goes to the held-out set (for the
#: early stopping and the curve) instead of the replay window
HOLDOUT_EVERY = 10
#: decisions in the held-out set at most
HELDOUT_CAPACITY = 20_000

#: heuristic bonuses tried by :func:`calibrate_bonus`, in logit units
BONUS_GRID = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0)


def calibrate_bonus(
    game: Game, net: PolicyValueNet, export_fn, deals: int, seed: int, bot: str = "heuristic"
) -> list:
    """Choose the network's ``heuristic_bonus`` (logit added to the heuristic bot's move).

    The advantage logits are noisy estimates; a network that leaves the bot's move whenever
    another move's estimate is a little higher deviates on noise.  Each bonus of
    :data:`BONUS_GRID` is tried: the policy alone plays ``deals`` calibration deals (their own
    seed, not the final evaluation's) against the rule-based ``bot`` (the heuristic by default,
    the bot of the training games), every rotation.  Returns one
    ``{"bonus", "vs_heuristic": [mean, low, high]}`` per bonus (the key keeps its name whatever
    the bot); the caller keeps the best."""
    opponent = bot_move(game, bot)
    rng = random.Random(seed + 11)
    cal = [game.random_deal(rng) for _ in range(deals)]
    out = []
    for bonus in BONUS_GRID:
        net.heuristic_bonus.fill_(bonus)
        ev = NetworkEvaluator(game, PolicyValueModel(export_fn()), cache_size=0)
        scores = policy_match(
            game, lambda s, r: ev.policy_move(s), opponent, cal, random.Random(seed)
        )
        m, lo, hi = mean_ci(scores)
        out.append({"bonus": bonus, "vs_heuristic": [round(m, 4), round(lo, 4), round(hi, 4)]})
    return out


_TEACHER_TEXT = {
    "network": "priors and leaf values from the network",
    "rollout": "priors from the network, leaf values from playouts with the game's playout policy",
    "uniform": "uniform priors, leaf values from playouts with the game's playout "
    "policy (no network)",
}


def write_card(path: Path, game: Game, enc, net: PolicyValueNet, summary: dict, size: int) -> None:
    """The model card: what was trained, how, on what, and how strong it measured."""
    params = sum(p.numel() for p in net.parameters())
    advantage = summary.get("policy_targets") == "advantage"
    bot = summary.get("bot", "heuristic")
    if advantage:
        data_line = (
            f"- Data: {summary['heuristic_games']} {bot} self-play games with rollout "
            f"advantages (at every decision up to {summary['rollout_moves']} legal moves "
            f"each played out by the {bot} bot from the true state with shared "
            f"random numbers; logits learn advantage / {summary['advantage_scale']} "
            f"bets); {summary['decisions_in_buffer']} decisions in the replay window; "
            f"{summary['steps']} gradient steps; no expert iteration."
        )
        if "kept_step" in summary:
            data_line += (
                f"\n- Early stopping: kept the weights after step {summary['kept_step']}, "
                f"the lowest policy loss ({summary['kept_heldout_policy_loss']}, without "
                f"the heuristic bonus) on {summary['heldout_decisions']} held-out "
                f"decisions (one generated game in {HOLDOUT_EVERY} until "
                f"{HELDOUT_CAPACITY:,} decisions; a network that predicts no advantage "
                f"scores 1)."
            )
        if summary.get("bonus_calibration"):
            data_line += (
                "\n- Heuristic bonus (logit added to the heuristic bot's move, chosen by the "
                f"policy's payoff against the {bot} bot on "
                f"{summary.get('calibration_deals') or ''} "
                "calibration deals, every rotation, 95% CI): "
                + "; ".join(
                    f"{c['bonus']:g}: {c['vs_heuristic'][0]:+.3f} "
                    f"[{c['vs_heuristic'][1]:+.3f}, {c['vs_heuristic'][2]:+.3f}]"
                    for c in summary["bonus_calibration"]
                )
                + f"; shipped with {summary['heuristic_bonus']:g}."
            )
    else:
        data_line = (
            f"- Data: {summary['heuristic_games']} {bot}-bot games, then "
            f"{summary['exit_rounds']} expert-iteration rounds ({summary['search_games']} "
            f"games of ISMCTS with {summary['search_iterations']} iterations per move, "
            f"{_TEACHER_TEXT[summary.get('teacher', 'network')]}); "
            f"{summary['decisions_in_buffer']} decisions in the final replay window; "
            f"{summary['steps']} gradient steps."
        )
    target_text = "the best rolled-out move" if advantage else f"the {bot} bot"
    commit = summary.get("commit") or ""
    if not commit:
        import subprocess

        try:
            commit = subprocess.run(
                ["git", "-C", str(Path(__file__).resolve().parent), "rev-parse", "--short", "HEAD"],
                capture_output=True,
                text=True,
                timeout=10,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            commit = ""
    commit = commit or "unknown"
    date = time.strftime("%Y-%m-%d")
    measured = f"{date}, {commit}"
    if summary["rounds"]:
        rounds = [
            "- Expert-iteration rounds (games, generation s, the new network's policy "
            "against the previous best's in bets/game with its 95% CI on the run's "
            "evaluation deals, every rotation, kept): "
            + "; ".join(
                f"{r['round']}: {r['games']}, {r['gen_s']} s, "
                f"{r['vs_previous'][0]:+.3f} [{r['vs_previous'][1]:+.3f}, "
                f"{r['vs_previous'][2]:+.3f}], {'kept' if r['kept'] else 'not kept'}"
                for r in summary["rounds"]
            )
            + "."
        ]
    else:
        rounds = ["- Expert-iteration rounds: none completed in the time budget."]

    def row(match: str, r: dict, deals: str = "evaluation") -> str:
        lo, hi = r["ci95"]
        return (
            f"| {match} | – | {r['deals']} (the run's {deals} deals) | {r['mean']:+.3f} "
            f"[{lo:+.3f}, {hi:+.3f}] | {'yes' if lo > 0 else 'no'} | {measured} |"
        )

    lines = [
        f"# {game.title or game.name} policy-value network (`{path.with_suffix('.onnx').name}`)",
        "",
        "Trained by quansu's own pipeline (`models/training/`); nothing here was downloaded.",
        "",
        "## What it is",
        "",
        f"- Game: {game.name}, {game.num_players} players, rules version {game.rules_version}, "
        f"options {json.dumps(game.options_diff()) if game.options_diff() else 'defaults'}.",
        f"- Inputs: encoder {game.name} version {enc.version}, fingerprint `{enc.fingerprint()}`, "
        f"state {enc.state_dim} floats, move {enc.move_dim} floats.",
        f"- Network: {json.dumps(net.config)}; {params} parameters; ONNX {size / 1e6:.2f} MB.",
        f"- Self-play and rollout bot: {bot} (`--bot {bot}`).",
        data_line,
        f"- Training curve: `{path.with_suffix('.png').name}`, panels top to bottom: policy loss, "
        f"value loss (per 50 steps), held-out top-1 agreement with {target_text}, held-out "
        f"policy loss (per 200 steps of the first phase).  Held-out games: policy loss "
        f"{summary['heldout']['policy_loss']}, value loss {summary['heldout']['value_loss']} "
        f"(in units of the value scale squared), top-1 agreement with {target_text} "
        f"{summary['heldout']['top1_vs_heuristic']}.",
        *rounds,
        "",
        "## How to train it",
        "",
        "```bash",
        summary["command"],
        "```",
        "",
        f"{summary['minutes']} min on {summary['workers']} worker process(es) "
        f"(torch {torch.__version__}, CPU).  To ship it, copy the `.onnx`, `.md`, `.png` and "
        f"`.canary.json` files into `models/` as `{game.name}.*`.",
        "",
        "## Strength",
        "",
        "Bets per game per seat of the tested player, fixed deals, the seats rotated, 95 % "
        "intervals over deals.",
        "",
        f"<!-- table: model-{game.name} -->",
        "| match | time per move | deals, every seat rotation (seeds) | bets per game per seat, "
        "mean [95 % interval] | above zero | measured |",
        "|---|---|---|---|---|---|",
        row(
            "Policy alone (top move, no search) vs the heuristic bot, at the end of training",
            summary["policy_vs_heuristic"],
        ),
    ]
    vb = summary.get("policy_vs_bot")
    if vb:
        lines.append(row(f"Policy alone vs the {vb['bot']} bot, at the end of training", vb))
    vp = summary.get("vs_previous")
    if vp:
        lines.append(
            row(
                f"Policy alone vs the previous network (`{vp['model']}`), at the end of training",
                vp,
                "comparison",
            )
        )
    lines += [
        "",
        f"Measured {date} at {commit}: `{summary['command']}`",
        "<!-- /table -->",
        "",
    ]
    if vp:
        lines += [
            f"Against the previous network (`{vp['model']}`): "
            + (
                "this network replaced it."
                if vp["kept"] == "new"
                else "the previous network was kept; this one was not shipped."
            ),
            "",
        ]
    lines += [
        "Search figures (guided vs uniform ISMCTS at equal time per move) come from "
        f"`python -m quansu.bench.models --game {game.name} --only guided --json F`, pooled over "
        f"seeds with `python -m quansu.bench.pool F... --card models/{game.name}.md`; once "
        f"shipped, the table is rendered from `bench/results/model-{game.name}.json`.",
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")
