"""Deep Monte Carlo (DouZero-style) learning on the per-(state, move) network (issue 42).

``quansu train --game GAME --algo dmc [--ray [ADDRESS]] [--resume] [--device cpu|cuda]``.

* **Actors** (:func:`actor_games`, :class:`DMCActor` on Ray) play self-play games where every
  decision costs one network call: the current network (a weight snapshot sent each round)
  scores every legal move of the seat to act and the seat plays the best one, a random legal
  move with probability ``epsilon``; each seat of a game is played by the game's rule-based
  bot with probability ``bot_share`` (``bot``: the heuristic by default), or with a
  ``league`` each seat by a kind drawn by share: the heuristic bot, the sparring bot, or a
  frozen earlier network of the run (``past``: its start network and curve snapshots,
  ``league_past`` of them sent each round), the rest the current network.  Every decision with
  more than one legal move is one sample: the acting seat's encoded state, the chosen move's
  row, the acting seat's final payoff and the final payoffs per relative seat.
* The **learner** (torch, CPU or ``--device cuda``) regresses the network's per-move output
  (``logits`` of :class:`~models.training.net.PolicyValueNet`, read here as Q in units of the
  net's ``value_scale``) of the chosen move on the acting seat's final payoff (MSE), and the
  value head on the final payoffs (MSE), on a replay window.  Actors play round ``r + 1``
  with the weights after round ``r - 1`` while the learner trains on round ``r``.
* **Checkpoints** (network, optimizer, counters, random states, the curve) every
  ``checkpoint_minutes`` to ``out_dir/checkpoint.pt``; ``resume`` continues from it (the
  replay window is not saved: it refills from the next rounds).
* The **learning curve**: at 0 decisions and then every time the decisions pass a milestone
  (``eval_first``, then times ``eval_factor``) and at the end, the network's greedy policy
  (exported to ONNX and run by the served :class:`~models.evaluator.NetworkEvaluator`) plays
  fixed deals against the rule-based bot in every seat rotation
  (:func:`~models.training.arena.policy_match`); each point (decisions, games, training
  seconds, mean payoff in bets and its 95 % interval) goes to ``out_dir/curve.json`` at once
  (the chart ``out_dir/curve.png`` at the end), and the point's network to
  ``out_dir/snapshots/<decisions>.onnx`` (about 2 MB each; at 0 decisions of an ``init_from``
  run, that network's file), so that
  ``python -m quansu.bench.dmc curve out_dir`` can later play every point against other
  opponents and as the search's guide.
* The network is written to ``out_dir/<game>.onnx`` with the metadata of the other pipeline
  (:func:`~models.training.loop._metadata`), so ``quansu serve --model`` and the evaluator
  load it; it never writes the shipped ``models/*.onnx``.

Actors run in a local process pool (``workers`` processes; 0 = in this process, the tests) or,
with ``ray``, as Ray actors (:class:`quansu.server.ray_cluster.ActorSet`): an actor that dies
is replaced and its round is played again.
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
import os
import platform
import random
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np
import torch

from quansu.games import make
from quansu.games.base import Game
from quansu.models.encoders import MAX_SEATS, encoder_for
from quansu.models.encoders.base import Encoder
from quansu.models.evaluator import MODELS_DIR, NetworkEvaluator, PolicyValueModel, load_model
from quansu.models.training.arena import mean_ci, policy_match
from quansu.models.training.data import BOTS, bot_move
from quansu.models.training.loop import _metadata
from quansu.models.training.net import PolicyValueNet, export_onnx

CHECKPOINT = "checkpoint.pt"
#: Folder of ``out_dir`` with the network of every curve point (``<decisions>.onnx``).
SNAPSHOTS = "snapshots"


@dataclass
class DMCConfig:
    """Settings of one Deep Monte Carlo run (``quansu train --algo dmc`` flags).

    ``minutes``: wall time of this invocation (a resumed run gets ``minutes`` more).
    ``games_per_round``: games each actor plays per round.  ``reuse``: gradient steps per round
    = ``reuse * new decisions / batch_size`` (each sample is seen about ``reuse`` times).
    ``value_scale``: bets per unit of the network's outputs (0: 3 standard deviations of the
    payoffs of 64 bot games, at least 1).  ``ray``: None = local processes, "" = a local Ray,
    else a cluster address.  ``eval_deals``: deals of each curve point (every seat rotation).
    ``rounds``: stop once this many rounds in all (resumed runs included) are played (0: only
    the time budget stops the run).  ``init_from``: an ONNX network of this game and encoder
    (e.g. the shipped one) whose weights start the run, its move logits fitted to Q units on
    the first round's samples (:func:`fit_q_units`); "" starts from random weights.
    ``league``: share of the seats of each self-play game per opponent kind of
    :data:`LEAGUE_KINDS` (e.g. ``{"heuristic": 0.1, "sparring": 0.4, "past": 0.2}``; the rest
    the current network); when given it replaces ``bot_share`` (``bot`` is then only the
    curve's opponent).  ``league_past``: frozen networks sent to the actors each round for the
    ``past`` seats, drawn from the run's start network and curve snapshots.  ``record_bot``:
    every seat's decisions are samples (the bots' and frozen networks' included); False
    (``--no-record-bots``) keeps only the current network's own.  ``encoder_version``: the
    game's encoder layout (``models.encoders.versions_for``; 0: its default, the shipped
    network's); an ``init_from`` network of a layout without the sparring-choice feature starts
    a layout with it (:func:`add_sparring_column`)."""

    game: str
    players: int = 4
    options: dict = field(default_factory=dict)
    minutes: float = 30.0
    seed: int = 0
    workers: int = 1
    ray: str | None = None
    out_dir: str = "dmc-out"
    resume: bool = False
    device: str = "cpu"
    hidden: int = 256
    move_hidden: int = 128
    epsilon: float = 0.05
    bot_share: float = 0.25
    bot: str = "heuristic"
    record_bot: bool = True
    league: dict = field(default_factory=dict)
    league_past: int = 2
    games_per_round: int = 16
    batch_size: int = 256
    lr: float = 3e-4
    reuse: float = 2.0
    replay: int = 50_000
    value_scale: float = 0.0
    value_weight: float = 1.0
    checkpoint_minutes: float = 5.0
    eval_deals: int = 100
    eval_first: int = 5_000
    eval_factor: float = 2.0
    rounds: int = 0
    progress: bool = True
    init_from: str = ""
    encoder_version: int = 0

    def command(self) -> str:
        """The ``quansu train`` command line of this run."""
        parts = [
            f"quansu train --game {self.game} --algo dmc --players {self.players}",
            f"--minutes {self.minutes:g} --seed {self.seed} --workers {self.workers}",
        ]
        for k, v in sorted(self.options.items()):
            parts.append(f"--option {k}={json.dumps(v)}")
        if self.ray is not None:
            parts.append(f"--ray {self.ray}".rstrip())
        d = DMCConfig(self.game)
        flags = {
            "hidden": "hidden",
            "epsilon": "epsilon",
            "bot_share": "bot-share",
            "bot": "bot",
            "games_per_round": "games-per-round",
            "reuse": "reuse",
            "lr": "dmc-lr",
            "replay": "dmc-replay",
            "checkpoint_minutes": "checkpoint-minutes",
            "eval_deals": "curve-deals",
            "eval_first": "curve-first",
            "device": "device",
            "rounds": "rounds",
            "init_from": "init-from",
            "league_past": "league-past",
            "encoder_version": "encoder-version",
        }
        for name, flag in flags.items():
            if name == "init_from" and self.resume:
                continue  # where the run started, not a flag of its resumption
            if getattr(self, name) != getattr(d, name):
                parts.append(f"--{flag} {getattr(self, name)}")
        if self.league:
            parts.append(f"--league {format_league(self.league)}")
        if not self.record_bot:
            parts.append("--no-record-bots")
        if self.resume:
            parts.append("--resume")
        parts.append(f"--out {self.out_dir}")
        return " ".join(parts)


#: Opponent kinds of a league seat: a rule-based bot of :data:`BOTS`, or ``past`` (a frozen
#: earlier network of the run).
LEAGUE_KINDS = (*BOTS, "past")


def parse_league(text: str) -> dict:
    """``"heuristic=0.1,sparring=0.4,past=0.2"`` -> ``{kind: share}``; ``ValueError`` naming
    the part that is wrong (an unknown kind, a share outside [0, 1], shares summing past 1)."""
    league: dict = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        kind, sep, share = part.partition("=")
        kind = kind.strip()
        if not sep or kind not in LEAGUE_KINDS:
            raise ValueError(
                f"--league {part!r}: expected KIND=SHARE with KIND one of {', '.join(LEAGUE_KINDS)}"
            )
        if kind in league:
            raise ValueError(f"--league: {kind} given twice")
        try:
            v = float(share)
        except ValueError:
            raise ValueError(f"--league {part!r}: the share is not a number") from None
        if not 0.0 <= v <= 1.0:
            raise ValueError(f"--league {part!r}: the share must be within [0, 1]")
        league[kind] = v
    if not league:
        raise ValueError("--league: no KIND=SHARE given")
    if sum(league.values()) > 1.0 + 1e-9:
        raise ValueError(f"--league {text!r}: the shares sum past 1")
    return league


def format_league(league: dict) -> str:
    """The ``--league`` text of ``league`` (inverse of :func:`parse_league`)."""
    return ",".join(f"{k}={v:g}" for k, v in league.items())


def seat_kinds(rng: random.Random, n: int, params: dict) -> list:
    """Who plays each of the ``n`` seats of one self-play game: None (the current network), a
    bot name of :data:`BOTS`, or an index into ``params["past"]`` (a frozen network).  With a
    league (``params["league"]``, kind -> share) one uniform draw per seat picks the kind; a
    ``past`` seat without past networks is the current network.  Without a league a seat is
    ``params["bot"]`` with probability ``params["bot_share"]``."""
    league = params.get("league") or {}
    if not league:
        share = float(params.get("bot_share", 0.25))
        bot = params.get("bot", "heuristic")
        return [bot if rng.random() < share else None for _ in range(n)]
    past = params.get("past") or []
    kinds = []
    for _ in range(n):
        u, kind = rng.random(), None
        for k, v in league.items():
            if u < v:
                kind = k
                break
            u -= v
        if kind == "past":
            kind = rng.randrange(len(past)) if past else None
        kinds.append(kind)
    return kinds


# ---- actors -------------------------------------------------------------------------------------


def weights_of(net: PolicyValueNet) -> dict:
    """The network's weights and buffers as numpy arrays (what a round sends to the actors)."""
    return {k: v.detach().cpu().numpy().copy() for k, v in net.state_dict().items()}


def net_from(config: dict, weights: dict) -> PolicyValueNet:
    net = PolicyValueNet(**config)
    net.load_state_dict({k: torch.from_numpy(np.asarray(v)) for k, v in weights.items()})
    return net.eval()


def net_from_onnx(game: Game, path: str, encoder: Encoder | None = None) -> PolicyValueNet:
    """The torch network of an ONNX file written by either pipeline (its initializers are the
    state dict: value scale and heuristic bonus included), after the evaluator's checks of
    game, encoder version and fingerprint (``ModelError`` when they differ).  With
    ``encoder`` (the layout the run trains on): a network of the same layout less the
    sparring-choice feature gets that column (:func:`add_sparring_column`); another layout is
    a ``ValueError``."""
    import onnx
    from onnx import numpy_helper

    from quansu.models.evaluator import load_model, model_encoder

    model_enc = model_encoder(game, load_model(game, path))
    model = onnx.load(str(path))
    meta = {p.key: p.value for p in model.metadata_props}
    net = PolicyValueNet(**json.loads(meta["quansu.net"]))
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    missing = set(net.state_dict()) - set(weights)
    if missing:
        raise ValueError(f"--init-from {path}: no weights for {', '.join(sorted(missing))}")
    net.load_state_dict({k: torch.from_numpy(np.array(weights[k])) for k in net.state_dict()})
    if encoder is not None and encoder.fingerprint() != model_enc.fingerprint():
        net = add_sparring_column(net, model_enc, encoder, path)
    return net


def add_sparring_column(
    net: PolicyValueNet, old: Encoder, new: Encoder, name: str = "the network"
) -> PolicyValueNet:
    """``net`` (trained on layout ``old``) widened to layout ``new``, which must be ``old``
    plus the sparring-choice move feature: the move layer gets its input column, initialized
    to the heuristic-choice column's weights (zeros without that feature), so that the
    network first reads "the sparring bot's move" as it reads "the heuristic bot's move";
    every other weight is kept.  ``ValueError`` for any other change of layout."""
    if new.spec.sparring_feature and not old.spec.sparring_feature:
        same = replace(new.spec, version=old.spec.version, sparring_feature=False) == old.spec
    else:
        same = False
    if not same or new.state_dim != old.state_dim or new.move_dim != old.move_dim + 1:
        raise ValueError(
            f"--init-from {name}: its {old.spec.game} encoder layout (version {old.version}) "
            f"is not the run's (version {new.version}) less the sparring-choice feature"
        )
    heur = 1 if new.spec.heuristic_feature else 0
    col = new.move_dim - 1 - heur  # the new column's index in the new layout
    cfg = dict(net.config, move_dim=new.move_dim)
    wide = PolicyValueNet(**cfg)
    sd = {k: v.clone() for k, v in net.state_dict().items()}
    w = sd["move.0.weight"]  # [move_hidden, old move_dim]
    extra = w[:, old.move_dim - 1 : old.move_dim].clone() if heur else torch.zeros_like(w[:, :1])
    sd["move.0.weight"] = torch.cat([w[:, :col], extra, w[:, col:]], dim=1)
    wide.load_state_dict(sd)
    return wide


def fit_q_units(net: PolicyValueNet, states, moves, q) -> tuple[float, float]:
    """Rescale the move scores of an imported network to Q units in place: the least-squares
    line ``q / value_scale ~ a * logit + b`` over the samples (``states`` ``[T, S]``,
    ``moves`` ``[T, F]``, ``q`` ``[T]`` bets from the acting seat), with ``a`` kept above 0 so
    that every state's best move stays the same (the last layer and the heuristic bonus are
    multiplied by ``a``, ``b`` added to the bias).  A policy network's logits are in units of
    its own (advantage logits); the regression of the learner would otherwise first spend its
    steps on the scale.  Returns ``(a, b)``."""
    with torch.no_grad():
        st = torch.from_numpy(np.asarray(states, dtype=np.float32))
        mv = torch.from_numpy(np.asarray(moves, dtype=np.float32))
        x, _ = net(st, mv, torch.arange(len(st), dtype=torch.int64))
        x = x.double().numpy()
        y = np.asarray(q, dtype=np.float64) / float(net.value_scale)
        vx = float(np.var(x))
        a = float(np.mean((x - x.mean()) * (y - y.mean())) / vx) if vx > 0 else 1.0
        a = max(a, 1e-3)
        b = float(y.mean() - a * x.mean())
        last = net.policy[-1]
        last.weight.mul_(a)
        last.bias.mul_(a).add_(b)
        net.heuristic_bonus.mul_(a)
    return a, b


def actor_games(game: Game, net: PolicyValueNet, n_games: int, seed: int, params: dict) -> dict:
    """Play ``n_games`` self-play games (see the module docstring) with ``net``; returns the
    samples as arrays: ``states`` float16 ``[T, S]``, ``moves`` float16 ``[T, F]`` (the chosen
    move's row), ``q`` float32 ``[T]`` (the acting seat's final payoff, bets), ``values``
    float32 ``[T, 4]`` (final payoffs per relative seat), and ``games``, ``decisions``,
    ``net_calls``, ``seconds``.  Who plays each seat: :func:`seat_kinds` (``params["past"]``:
    weight dicts of frozen networks with ``net``'s config).  The same ``seed`` and weights
    give the same samples."""
    t0 = time.perf_counter()
    torch.set_num_threads(1)
    enc = encoder_for(game, params.get("encoder_version") or None)
    rng = random.Random(seed)
    bots_of = {b: bot_move(game, b) for b in BOTS}
    past = [net_from(net.config, w) for w in params.get("past") or []]
    eps = float(params.get("epsilon", 0.05))
    record_bot = bool(params.get("record_bot", True))
    n = game.num_players
    states, moves, q, values = [], [], [], []
    calls = 0
    for _ in range(n_games):
        kinds = seat_kinds(rng, n, params)
        state = game.new_initial_state(rng)
        seats, first = [], len(states)
        while not state.is_terminal():
            seat = state.current_player
            legal = state.legal_moves()
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            kind = kinds[seat]
            if isinstance(kind, str) and not record_bot:
                # a bot's decision that is no sample: nothing to encode
                state.apply(bots_of[kind](state, rng))
                continue
            srow = enc.encode_state(state, seat)
            mrows = enc.encode_moves(state, legal)
            if isinstance(kind, str):
                i = legal.index(bots_of[kind](state, rng))
            elif kind is None and eps and rng.random() < eps:
                i = rng.randrange(len(legal))
            else:
                with torch.inference_mode():
                    logits, _ = (net if kind is None else past[kind])(
                        torch.from_numpy(srow[None, :]),
                        torch.from_numpy(mrows),
                        torch.zeros(len(legal), dtype=torch.int64),
                    )
                calls += 1
                i = int(torch.argmax(logits))
            if record_bot or kind is None:
                states.append(srow.astype(np.float16))
                moves.append(mrows[i].astype(np.float16))
                seats.append(seat)
            state.apply(legal[i])
        ret = state.returns()
        for j, seat in enumerate(seats):
            q.append(ret[seat])
            v = np.zeros(MAX_SEATS, dtype=np.float32)
            for r in range(n):
                v[r] = ret[(seat + r) % n]
            values.append(v)
        assert len(q) == len(states), first
    S, F = enc.state_dim, enc.move_dim
    return {
        "states": np.stack(states) if states else np.zeros((0, S), np.float16),
        "moves": np.stack(moves) if moves else np.zeros((0, F), np.float16),
        "q": np.asarray(q, dtype=np.float32),
        "values": np.stack(values) if values else np.zeros((0, MAX_SEATS), np.float32),
        "games": n_games,
        "decisions": len(states),
        "net_calls": calls,
        "seconds": time.perf_counter() - t0,
    }


def _pool_job(job: tuple) -> dict:
    """Runs in a pool worker: ``(game, net config, weights, n_games, seed, params)``."""
    game, config, weights, n_games, seed, params = job
    return actor_games(game, net_from(config, weights), n_games, seed, params)


class DMCActor:
    """A self-play actor on Ray (:class:`quansu.server.ray_cluster.ActorSet`): holds its game;
    :meth:`play` runs :func:`actor_games` with the weights it is given."""

    def __init__(self, game: str, players: int, options: dict):
        self.game = make(game, players, options)

    def play(self, config: dict, weights: dict, n_games: int, seed: int, params: dict) -> dict:
        from quansu.server.ray_cluster import node_id

        res = actor_games(self.game, net_from(config, weights), n_games, seed, params)
        res["node"] = node_id()
        return res

    def pid(self) -> int:
        return os.getpid()


class _LocalActors:
    """Actors in a process pool (``workers`` processes, fork) or in this process (0)."""

    def __init__(self, workers: int):
        self.workers = max(1, workers)
        self.pool = mp.get_context("fork").Pool(workers) if workers > 0 else None
        self.replaced = 0

    def submit(self, jobs: list) -> object:
        if self.pool is None:
            return [_pool_job(j) for j in jobs]
        return self.pool.map_async(_pool_job, jobs)

    def gather(self, pending) -> list:
        return pending if self.pool is None else pending.get()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()


class _RayActors:
    """Actors on Ray (``workers`` of them, one CPU each)."""

    def __init__(self, cfg: DMCConfig):
        from quansu.server.ray_cluster import ActorSet, connect

        connect(cfg.ray or None)
        self.set = ActorSet(DMCActor, max(1, cfg.workers), cfg.game, cfg.players, dict(cfg.options))
        self.workers = max(1, cfg.workers)

    @property
    def replaced(self) -> int:
        return self.set.replaced

    def submit(self, jobs: list) -> object:
        return self.set.submit("play", [j[1:] for j in jobs])

    def gather(self, pending) -> list:
        return self.set.gather(pending)

    def close(self) -> None:
        self.set.close()


# ---- learner ------------------------------------------------------------------------------------


class Replay:
    """A circular window of ``capacity`` samples (states and chosen-move rows as float16)."""

    def __init__(self, state_dim: int, move_dim: int, capacity: int):
        self.capacity = capacity
        self.states = np.zeros((capacity, state_dim), np.float16)
        self.moves = np.zeros((capacity, move_dim), np.float16)
        self.q = np.zeros(capacity, np.float32)
        self.values = np.zeros((capacity, MAX_SEATS), np.float32)
        self.size = 0
        self.pos = 0

    def add(self, res: dict) -> None:
        t = len(res["q"])
        for j in range(0, t, self.capacity):
            k = min(t - j, self.capacity)
            idx = (self.pos + np.arange(k)) % self.capacity
            self.states[idx] = res["states"][j : j + k]
            self.moves[idx] = res["moves"][j : j + k]
            self.q[idx] = res["q"][j : j + k]
            self.values[idx] = res["values"][j : j + k]
            self.pos = (self.pos + k) % self.capacity
            self.size = min(self.capacity, self.size + k)


class Learner:
    """AdamW on ``MSE(Q(state, chosen move), payoff) + value_weight * MSE(values, payoffs)``,
    both in units of the net's ``value_scale``; only the first ``num_players`` value slots
    count."""

    def __init__(self, net: PolicyValueNet, num_players: int, cfg: DMCConfig, device: str):
        self.net = net.to(device)
        self.device = device
        self.n = num_players
        self.opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=1e-5)
        self.value_weight = cfg.value_weight
        self.batch_size = cfg.batch_size
        self.rng = np.random.default_rng(cfg.seed + 101)
        self.steps = 0

    def step(self, replay: Replay) -> tuple[float, float]:
        self.net.train()
        idx = self.rng.integers(0, replay.size, size=min(self.batch_size, replay.size))
        dev = self.device
        st = torch.from_numpy(replay.states[idx].astype(np.float32)).to(dev)
        mv = torch.from_numpy(replay.moves[idx].astype(np.float32)).to(dev)
        q = torch.from_numpy(replay.q[idx]).to(dev)
        va = torch.from_numpy(replay.values[idx]).to(dev)
        ms = torch.arange(len(idx), dtype=torch.int64, device=dev)
        logits, values = self.net(st, mv, ms)
        scale = self.net.value_scale
        qloss = ((logits - q / scale) ** 2).mean()
        vloss = (((values[:, : self.n] - va[:, : self.n]) / scale) ** 2).mean()
        loss = qloss + self.value_weight * vloss
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.steps += 1
        return float(qloss.detach()), float(vloss.detach())


def export_model(
    game: Game, net: PolicyValueNet, summary: dict, encoder: Encoder | None = None
) -> bytes:
    """The network as ONNX bytes with the metadata of the other pipeline, marked as Q logits
    (``quansu.policy_targets`` = ``dmc_q``, ``quansu.q_scale`` = bets per logit unit);
    ``encoder``: its layout (default: the game's default one)."""
    cpu = PolicyValueNet(**net.config)
    cpu.load_state_dict({k: v.detach().cpu() for k, v in net.state_dict().items()})
    meta = _metadata(None, game, encoder or encoder_for(game), cpu, summary, None)
    meta["quansu.policy_targets"] = "dmc_q"
    meta["quansu.q_scale"] = str(float(cpu.value_scale))
    return export_onnx(cpu, meta)


def greedy_vs_bot(
    game: Game, model_bytes: bytes, deals: list, seed: int, bot: str = "heuristic"
) -> tuple[float, float, float]:
    """The network's greedy policy (top move, no search, through the served evaluator) in one
    seat against ``bot`` in the others, every rotation of every deal: mean payoff in bets per
    game and its 95 % interval."""
    ev = NetworkEvaluator(game, PolicyValueModel(model_bytes), cache_size=0)
    scores = policy_match(
        game, lambda s, r: ev.policy_move(s), bot_move(game, bot), deals, random.Random(seed)
    )
    return mean_ci(scores)


def _machine() -> dict:
    return {
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "cpu_model": _cpu_model(),
    }


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def _save(path: Path, obj) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save(obj, tmp)
    os.replace(tmp, path)


def write_curve(
    out_dir: Path, game: Game, cfg: DMCConfig, points: list, extra: dict, png: bool = True
) -> dict:
    """``curve.json`` (and with ``png``, ``curve.png`` when matplotlib is present) in
    ``out_dir``."""
    doc = {
        "game": game.name,
        "players": game.num_players,
        "algo": "dmc",
        "command": cfg.command(),
        "opponent": cfg.bot,
        "eval_deals": cfg.eval_deals,
        "points": points,
        **extra,
    }
    (out_dir / "curve.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    if not png:
        return doc
    try:
        from quansu.plot import Series, line_chart, save_png

        xs = [p["decisions"] for p in points]
        fig = line_chart(
            [
                Series("mean", list(zip(xs, [p["mean"] for p in points]))),
                Series("95% low", list(zip(xs, [p["ci95"][0] for p in points]))),
                Series("95% high", list(zip(xs, [p["ci95"][1] for p in points]))),
            ],
            title=f"{game.name}: DMC greedy policy vs {cfg.bot} bot",
            x_label="training decisions (log scale past the first point)",
            y_label="bets per game",
            integer_x=False,
        )
        # the points double in decisions: a log axis (linear up to the first one)
        fig.axes[0].set_xscale("symlog", linthresh=max(1, cfg.eval_first))
        fig.axes[0].set_xlim(left=0)
        fig.axes[0].axhline(0.0, color="#444444", linewidth=1.0)
        save_png(fig, str(out_dir / "curve.png"))
    except Exception:  # no matplotlib (PlotUnavailable) or a drawing error: the JSON is the curve
        pass
    return doc


def train_dmc(cfg: DMCConfig, log=print, game: Game | None = None) -> dict:
    """Run (or with ``cfg.resume`` continue) a Deep Monte Carlo run; returns its summary."""
    if cfg.bot not in BOTS:
        raise ValueError(f"unknown bot {cfg.bot!r}; known: {', '.join(BOTS)}")
    if cfg.league:
        parse_league(format_league(cfg.league))  # the same checks as the flag's
    if cfg.league_past < 1:
        raise ValueError("--league-past must be >= 1")
    out_dir = Path(cfg.out_dir)
    if out_dir.resolve() == MODELS_DIR.resolve():
        raise ValueError(
            "--out: the DMC learner does not write into models/ (the shipped "
            "networks); give another folder"
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    device = cfg.device
    if device == "cuda" and not torch.cuda.is_available():
        raise ValueError("--device cuda: no CUDA device is available to torch")
    t_start = time.monotonic()
    deadline = t_start + cfg.minutes * 60.0
    torch.set_num_threads(1)
    game = game or make(cfg.game, cfg.players, cfg.options)
    ck_path = out_dir / CHECKPOINT
    ck = None
    if cfg.resume:
        if cfg.init_from:
            raise ValueError("--init-from starts a run; --resume continues one: give one")
        if not ck_path.is_file():
            raise ValueError(f"--resume: no checkpoint at {ck_path}")
        ck = torch.load(ck_path, map_location="cpu", weights_only=False)
        if (ck["game"], ck["players"], ck["options"]) != (
            game.name,
            game.num_players,
            game.options,
        ):
            raise ValueError(
                f"--resume: {ck_path} is a run of {ck['game']} with "
                f"{ck['players']} players and options {ck['options']}"
            )
        # the network the run started from, for its summary
        cfg.init_from = ck.get("config", {}).get("init_from", "")
        # the layout the run trains on (a resumption keeps it)
        ck_version = ck.get("config", {}).get("encoder_version", 0)
        if cfg.encoder_version and cfg.encoder_version != ck_version:
            raise ValueError(
                f"--encoder-version {cfg.encoder_version}: {ck_path} trains on "
                f"version {ck_version or 'the default'}"
            )
        cfg.encoder_version = ck_version
    enc = encoder_for(game, cfg.encoder_version or None)
    # the actors first (a forked pool before any torch work in this process)
    actors = _RayActors(cfg) if cfg.ray is not None else _LocalActors(cfg.workers)
    try:
        return _run(cfg, game, enc, ck, ck_path, out_dir, actors, device, t_start, deadline, log)
    finally:
        actors.close()


def _run(cfg, game, enc, ck, ck_path, out_dir, actors, device, t_start, deadline, log):
    n = game.num_players
    eval_rng = random.Random(cfg.seed + 7_777)
    deals = [game.random_deal(eval_rng) for _ in range(cfg.eval_deals)]
    if ck is not None:
        net = PolicyValueNet(**ck["net_config"])
        net.load_state_dict(ck["net"])
        counters = ck["counters"]
        points = ck["points"]
        random.setstate(ck["rng"]["python"])
        torch.set_rng_state(ck["rng"]["torch"])
        log(
            f"resumed from {ck_path}: {counters['decisions']} decisions, {counters['rounds']} "
            f"rounds, {counters['steps']} steps"
        )
    else:
        torch.manual_seed(cfg.seed)
        if cfg.init_from:
            # the imported network brings its own value scale (a buffer in its weights)
            net = net_from_onnx(game, cfg.init_from, enc)
            log(f"weights from {cfg.init_from} (value scale {float(net.value_scale):g})")
        else:
            scale = cfg.value_scale
            if scale <= 0:
                # 3 standard deviations of the payoffs of bot games, at least 1 bet
                r = random.Random(cfg.seed + 5)
                bot = bot_move(game, cfg.bot)
                pays = []
                for _ in range(64):
                    s = game.new_initial_state(r)
                    while not s.is_terminal():
                        s.apply(bot(s, r))
                    pays.extend(s.returns())
                scale = float(max(1.0, round(3.0 * float(np.std(pays)), 2)))
            net = PolicyValueNet(
                enc.state_dim, enc.move_dim, cfg.hidden, cfg.move_hidden, value_scale=scale
            )
        counters = {
            "decisions": 0,
            "games": 0,
            "rounds": 0,
            "steps": 0,
            "net_calls": 0,
            "train_seconds": 0.0,
            "actor_seconds": 0.0,
            "eval_seconds": 0.0,
            "next_eval": 0,
            "replaced_actors": 0,
        }
        points = []
    learner = Learner(net, n, cfg, device)
    if ck is not None:
        learner.opt.load_state_dict(ck["opt"])
        learner.steps = counters["steps"]
        learner.rng.bit_generator.state = ck["rng"]["numpy"]
    replay = Replay(enc.state_dim, enc.move_dim, cfg.replay)
    params = {
        "epsilon": cfg.epsilon,
        "bot_share": cfg.bot_share,
        "bot": cfg.bot,
        "record_bot": cfg.record_bot,
        "league": dict(cfg.league),
        "encoder_version": cfg.encoder_version,
    }
    config = dict(net.config)
    # the league's frozen networks: the weights of every curve point so far (a resumed run
    # reads them back from its snapshots)
    past_pool: list = []
    if cfg.league.get("past"):
        for f in sorted((out_dir / SNAPSHOTS).glob("*.onnx")):
            past_pool.append(weights_of(net_from_onnx(game, str(f), enc)))
    # time of this invocation spent outside evaluation, added to the saved training seconds
    base_train = counters["train_seconds"]
    eval_spent = [0.0]
    losses = {"q": [], "value": []}

    def train_seconds() -> float:
        return base_train + (time.monotonic() - t_start) - eval_spent[0]

    def evaluate(final: bool = False) -> None:
        t = time.monotonic()
        data = export_model(
            game, learner.net, {"algo": "dmc", "decisions": counters["decisions"]}, enc
        )
        # the network of this point, for a later curve against other opponents (bench.dmc
        # curve); before any decision of a run from a network, that network's own file, so
        # that the search reads its scores as it always has (not yet as Q)
        snap = Path(SNAPSHOTS) / f"{counters['decisions']:011d}.onnx"
        (out_dir / SNAPSHOTS).mkdir(exist_ok=True)
        # (a network widened to a new layout is not that file: its own export then)
        start = (
            cfg.init_from
            and counters["decisions"] == 0
            and config["move_dim"] == load_model(game, cfg.init_from).move_dim
        )
        (out_dir / snap).write_bytes(Path(cfg.init_from).read_bytes() if start else data)
        m, lo, hi = greedy_vs_bot(game, data, deals, cfg.seed, cfg.bot)
        dt = time.monotonic() - t
        eval_spent[0] += dt
        counters["eval_seconds"] += dt
        ql = float(np.mean(losses["q"][-50:])) if losses["q"] else None
        point = {
            "decisions": counters["decisions"],
            "games": counters["games"],
            "steps": counters["steps"],
            "train_seconds": round(train_seconds(), 1),
            "mean": round(m, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "q_loss": None if ql is None else round(ql, 5),
            "final": final,
            "snapshot": snap.as_posix(),
        }
        points.append(point)
        if cfg.league.get("past") and not final:
            past_pool.append(weights_of(learner.net))
        if not final:  # the curve so far, readable while the run goes on (bench.dmc curve)
            extra = {"machine": _machine(), "running": True}
            write_curve(out_dir, game, cfg, points, extra, png=False)
        log(
            f"curve: {point['decisions']} decisions, {point['train_seconds']:.0f} s: greedy vs "
            f"{cfg.bot} {m:+.3f} [{lo:+.3f}, {hi:+.3f}] over {len(deals)} deals x {n}"
        )

    def checkpoint() -> None:
        counters["steps"] = learner.steps
        counters["train_seconds"] = round(train_seconds(), 2)
        _save(
            ck_path,
            {
                "game": game.name,
                "players": n,
                "options": dict(game.options),
                "config": asdict(cfg),
                "net_config": dict(learner.net.config),
                "net": {k: v.detach().cpu() for k, v in learner.net.state_dict().items()},
                "opt": learner.opt.state_dict(),
                "counters": dict(counters),
                "points": list(points),
                "rng": {
                    "python": random.getstate(),
                    "torch": torch.get_rng_state(),
                    "numpy": learner.rng.bit_generator.state,
                },
            },
        )

    def next_milestone(d: int) -> int:
        m = cfg.eval_first
        while m <= d:
            m = int(math.ceil(m * cfg.eval_factor))
        return m

    if counters["decisions"] >= counters["next_eval"] and not points:
        evaluate()
        counters["next_eval"] = next_milestone(counters["decisions"])

    def jobs() -> list:
        w = weights_of(learner.net)
        r = counters["rounds"]
        p = params
        if past_pool:
            # this round's frozen networks, the same for every actor
            pick = random.Random(cfg.seed * 7_919 + r)
            p = {**params, "past": pick.sample(past_pool, min(cfg.league_past, len(past_pool)))}
        return [
            (game, config, w, cfg.games_per_round, cfg.seed * 1_000_003 + r * 1_009 + k, p)
            for k in range(actors.workers)
        ]

    last_ck = time.monotonic()
    pending = actors.submit(jobs())
    counters["rounds"] += 1
    rate_dec, rate_s = 0, 0.0
    nodes: set = set()
    last_log = time.monotonic()
    while True:
        results = actors.gather(pending)
        new = 0
        for res in results:
            replay.add(res)
            new += res["decisions"]
            counters["games"] += res["games"]
            counters["net_calls"] += res["net_calls"]
            counters["actor_seconds"] += res["seconds"]
            rate_dec += res["decisions"]
            rate_s += res["seconds"]
            if res.get("node"):
                nodes.add(res["node"])
        counters["decisions"] += new
        counters["replaced_actors"] = getattr(actors, "replaced", 0) + ck_replaced(ck)
        if cfg.init_from and "q_units" not in counters and replay.size:
            # before the first step: the imported scores to Q units, the same moves chosen
            k = replay.size
            a, b = fit_q_units(learner.net, replay.states[:k], replay.moves[:k], replay.q[:k])
            counters["q_units"] = [round(a, 6), round(b, 6)]
            log(f"move scores to Q units: a={a:.4g}, b={b:+.4g} ({k} samples)")
        if time.monotonic() >= deadline or (cfg.rounds and counters["rounds"] >= cfg.rounds):
            break
        # the actors play the next round with the current weights while the learner trains
        pending = actors.submit(jobs())
        counters["rounds"] += 1
        steps = max(1, int(round(cfg.reuse * new / cfg.batch_size)))
        for _ in range(steps):
            ql, vl = learner.step(replay)
            losses["q"].append(ql)
            losses["value"].append(vl)
            if time.monotonic() >= deadline:
                break
        counters["steps"] = learner.steps
        if counters["decisions"] >= counters["next_eval"]:
            evaluate()
            counters["next_eval"] = next_milestone(counters["decisions"])
        if time.monotonic() - last_ck >= cfg.checkpoint_minutes * 60.0:
            checkpoint()
            last_ck = time.monotonic()
        if cfg.progress and time.monotonic() - last_log >= 30.0:
            last_log = time.monotonic()
            log(
                f"round {counters['rounds']}: {counters['decisions']} decisions, "
                f"{learner.steps} steps, Q loss {np.mean(losses['q'][-steps:]):.4f}, value "
                f"loss {np.mean(losses['value'][-steps:]):.4f}, actors "
                f"{rate_dec / max(rate_s, 1e-9):.0f} decisions/s each"
            )
    counters["steps"] = learner.steps
    evaluate(final=True)
    checkpoint()
    summary = {
        "command": cfg.command(),
        "algo": "dmc",
        "seed": cfg.seed,
        "workers": cfg.workers,
        "ray": cfg.ray,
        "device": device,
        "decisions": counters["decisions"],
        "games": counters["games"],
        "steps": counters["steps"],
        "rounds": counters["rounds"],
        "train_seconds": counters["train_seconds"],
        "actor_decisions_per_s": round(
            counters["decisions"] / max(counters["actor_seconds"], 1e-9), 1
        ),
        "decisions_per_train_s": round(
            counters["decisions"] / max(counters["train_seconds"], 1e-9), 1
        ),
        "replaced_actors": counters["replaced_actors"],
        "actor_nodes": len(nodes),
        "epsilon": cfg.epsilon,
        "bot_share": cfg.bot_share,
        "bot": cfg.bot,
        "league": dict(cfg.league) or None,
        "league_networks": len(past_pool),
        "value_scale": float(learner.net.value_scale),
        "init_from": cfg.init_from or None,
        "q_units": counters.get("q_units"),
        "policy_vs_bot": points[-1],
    }
    data = export_model(game, learner.net, summary, enc)
    model_path = out_dir / f"{game.name}.onnx"
    model_path.write_bytes(data)
    write_curve(out_dir, game, cfg, points, {"summary": summary, "machine": _machine()})
    log(
        f"wrote {model_path}, {out_dir / 'curve.json'}: {counters['decisions']} decisions in "
        f"{counters['train_seconds']:.0f} s of training ({summary['decisions_per_train_s']} "
        f"decisions/s), actors {summary['actor_decisions_per_s']} decisions/s each"
    )
    summary["model"] = str(model_path)
    summary["points"] = points
    return summary


def ck_replaced(ck) -> int:
    """Actors replaced before this invocation (from the checkpoint)."""
    return 0 if ck is None else int(ck["counters"].get("replaced_actors", 0))
