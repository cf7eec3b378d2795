"""The Deep Monte Carlo learner's figures (issue 42): a finished run's learning curve with the
date, commit, command and machine, and a short run with its actors on a local Ray cluster of
two nodes.

* ``python -m quansu.bench.dmc record RUN_DIR --json bench/results/dmc_tienlen.json
  [--commit C] [--started ISO]``: the ``curve.json`` of a ``quansu train --algo dmc`` run
  (``RUN_DIR`` = its ``--out``) with the run's figures (decisions a second over the training
  time and per actor) and the machine summary.
* ``python -m quansu.bench.dmc compare RUN_DIR/GAME.onnx [--deals 400] [--sparring-deals 100]
  [--json PATH]``: the trained network's greedy policy and the shipped network's (no search
  for either) on the same fixed deals (``random.Random(12345)``; every seat rotation): each
  against three heuristic bots, each against three sparring bots (the first
  ``--sparring-deals`` deals), and the trained one against three shipped ones.  Mean bets a
  game of the tested seat with 95 % intervals over deals.  With ``--json`` an existing
  results file (``record``'s) gets the figures under ``same_deals``.
* ``python -m quansu.bench.dmc table RUN.json... --json bench/results/dmc-games.json``: the
  table of docs/models.md (rendered by ``python -m quansu.bench.tables``), one row per run
  file that ``compare`` has filled: the curve's start and end, and the same-deals figures.
* ``python -m quansu.bench.dmc curve RUN_DIR [--probe PLAYER@OPPONENT ...] [--deals 50]
  [--search-deals 25] [--points K] [--workers N | --ray [ADDRESS]] [--cache PATH] --json PATH
  [--png PATH]``:
  the learning curve against other opponents, from the networks a run kept at its curve points
  (``RUN_DIR/snapshots/``).  Each probe puts the point's network in one seat against
  ``players - 1`` OPPONENT bots (any ``quansu arena`` bot) on the same fixed deals, every seat
  rotation: PLAYER ``policy`` is the network alone (top move, no search), a search bot
  (``level3``, ``level5``, ``ismcts:iterations=200``) is that bot guided by the network as the
  service guides it; for a search probe the same bot with uniform priors plays the same deals
  once (the reference) and each point gets the paired guided-minus-uniform difference.  Bets a
  game of the tested seat, 95 % intervals over deals, per point with its training decisions and
  hours; ``--points K`` measures K points spread over the curve (first and last included).  The
  JSON is a table of ``python -m quansu.bench.tables`` (a model card's), the PNG the curves
  against decisions and against hours.  ``--cache PATH`` keeps every line-up's per-deal payoffs
  (:class:`LineupCache`): measuring the run again after it went on plays only the new points.
* ``python -m quansu.bench.dmc throughput [--games G,...] [--seconds 30] [--steps 200]
  [--json PATH]``: per game, one actor in this process (the shipped network's weights, the
  learner's default exploration and bot share) playing rounds of 16 games for ``--seconds``:
  decisions a second on one core; then the learner (torch, one thread, ``--device``) taking
  ``--steps`` gradient steps of 256 samples on those decisions: samples a second, and how
  many actor cores one learner core keeps fed.
* ``python -m quansu.bench.dmc ray --minutes 3 [--json PATH]``: ``quansu train --algo dmc`` for
  ``--minutes`` with 2 actors on a local cluster of two nodes of one CPU each
  (:class:`quansu.server.ray_cluster.LocalCluster`), then the same run with 2 local pool
  workers, on the same cores: decisions a second of each and on how many nodes the actors ran.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def record(run_dir: str, commit: str = "", started: str = "") -> dict:
    from quansu.bench.hint import commit as git_commit
    from quansu.bench.hint import machine

    doc = json.loads((Path(run_dir) / "curve.json").read_text(encoding="utf-8"))
    s = doc.get("summary", {})
    pts = doc["points"]
    return {
        "date": _now(),
        "started": started,
        "commit": commit or git_commit(),
        "command": doc["command"],
        "machine": machine(),
        "game": doc["game"],
        "players": doc["players"],
        "opponent": doc["opponent"],
        "eval_deals": doc["eval_deals"],
        "decisions": s.get("decisions"),
        "train_seconds": s.get("train_seconds"),
        "decisions_per_train_s": s.get("decisions_per_train_s"),
        "actor_decisions_per_s": s.get("actor_decisions_per_s"),
        "steps": s.get("steps"),
        "games": s.get("games"),
        "init_from": s.get("init_from"),
        "points": pts,
        "summary": s,
        "run_machine": doc.get("machine"),
    }


def ray_run(minutes: float, seed: int = 1) -> dict:
    from quansu.models.training.dmc import DMCConfig, train_dmc
    from quansu.server import ray_cluster as rc

    out: dict = {}
    cfg = dict(
        game="tienlen",
        players=4,
        minutes=minutes,
        seed=seed,
        workers=2,
        eval_deals=50,
        progress=False,
    )
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        with rc.LocalCluster((1, 1), new_session=False, env={"RAY_worker_niceness": "0"}) as c:
            out["cluster_start_s"] = round(time.perf_counter() - t0, 1)
            s = train_dmc(DMCConfig(**cfg, ray=c.address, out_dir=f"{d}/ray"), log=lambda *_: None)
        out["ray"] = {
            k: s[k]
            for k in (
                "decisions",
                "train_seconds",
                "decisions_per_train_s",
                "actor_decisions_per_s",
                "actor_nodes",
                "steps",
                "replaced_actors",
            )
        }
        s = train_dmc(DMCConfig(**cfg, out_dir=f"{d}/pool"), log=lambda *_: None)
        out["pool"] = {
            k: s[k]
            for k in (
                "decisions",
                "train_seconds",
                "decisions_per_train_s",
                "actor_decisions_per_s",
                "steps",
            )
        }
    return out


COMPARE_SEED = 12345


def compare(
    model_path: str, deals: int = 400, sparring_deals: int = 100, seed: int = COMPARE_SEED
) -> dict:
    """See the module docstring (``compare``); ``[mean, low, high]`` per match."""
    import random

    from quansu.games import make
    from quansu.models.evaluator import NetworkEvaluator, PolicyValueModel, load_model
    from quansu.models.training.arena import mean_ci, policy_match
    from quansu.models.training.data import bot_move

    trained = PolicyValueModel(Path(model_path).read_bytes())
    meta = trained.metadata
    game = make(meta["quansu.game"], int(meta.get("quansu.players", 4)))
    shipped = load_model(game)

    def policy(model):
        ev = NetworkEvaluator(game, model, cache_size=0)
        return lambda s, r: ev.policy_move(s)

    rng = random.Random(seed)
    fixed = [game.random_deal(rng) for _ in range(deals)]
    a, b = policy(trained), policy(shipped)

    def match(x, y, ds):
        m, lo, hi = mean_ci(policy_match(game, x, y, ds, random.Random(seed)))
        return [round(m, 3), round(lo, 3), round(hi, 3)]

    heur, spar = bot_move(game, "heuristic"), bot_move(game, "sparring")
    few = fixed[:sparring_deals]
    return {
        "game": game.name,
        "players": game.num_players,
        "model": model_path,
        "deals": f"{deals} deals of random.Random({seed}), every seat rotation; sparring: "
        f"the first {len(few)} of them",
        "format": "[mean, 95% low, 95% high] bets per game of the tested network's seat",
        "trained_vs_heuristic": match(a, heur, fixed),
        "shipped_vs_heuristic": match(b, heur, fixed),
        "trained_vs_sparring": match(a, spar, few),
        "shipped_vs_sparring": match(b, spar, few),
        "trained_vs_shipped": match(a, b, fixed),
    }


def throughput(
    game_name: str,
    players: int = 4,
    seconds: float = 30.0,
    steps: int = 200,
    seed: int = 1,
    device: str = "cpu",
) -> dict:
    """See the module docstring (``throughput``): one game's actor and learner rates."""
    import torch

    from quansu.games import make
    from quansu.models.encoders import encoder_for
    from quansu.models.evaluator import MODELS_DIR
    from quansu.models.training.dmc import (
        DMCConfig,
        Learner,
        Replay,
        actor_games,
        net_from_onnx,
    )

    torch.set_num_threads(1)
    game = make(game_name, players)
    enc = encoder_for(game)
    cfg = DMCConfig(game_name, players=players, seed=seed)
    net = net_from_onnx(game, str(MODELS_DIR / f"{game_name}.onnx"))
    params = {"epsilon": cfg.epsilon, "bot_share": cfg.bot_share, "bot": cfg.bot}
    replay = Replay(enc.state_dim, enc.move_dim, cfg.replay)
    decisions, games_, actor_s, rounds = 0, 0, 0.0, 0
    while actor_s < seconds:
        res = actor_games(game, net, cfg.games_per_round, seed * 1_000 + rounds, params)
        replay.add(res)
        decisions += res["decisions"]
        games_ += res["games"]
        actor_s += res["seconds"]
        rounds += 1
    learner = Learner(net, game.num_players, cfg, device)
    learner.step(replay)  # the first step allocates the optimizer's state
    t0 = time.perf_counter()
    for _ in range(steps):
        learner.step(replay)
    learn_s = time.perf_counter() - t0
    actor_rate = decisions / actor_s
    sample_rate = steps * cfg.batch_size / learn_s
    return {
        "game": game_name,
        "players": players,
        "actor": {
            "games": games_,
            "decisions": decisions,
            "seconds": round(actor_s, 2),
            "decisions_per_s": round(actor_rate, 1),
            "decisions_per_game": round(decisions / games_, 1),
        },
        "learner": {
            "device": device,
            "steps": steps,
            "batch": cfg.batch_size,
            "ms_per_step": round(1000.0 * learn_s / steps, 2),
            "samples_per_s": round(sample_rate, 1),
        },
        # each sample is used ``reuse`` times: one learner core keeps this many actor cores fed
        "actor_cores_per_learner_core": round(sample_rate / (cfg.reuse * actor_rate), 2),
    }


def throughput_table(games_: list) -> dict:
    """The docs' table of ``throughput`` results, one row per game."""
    from quansu.games import make

    rows = [
        [
            make(g["game"], g["players"]).title,
            f"{g['actor']['decisions_per_s']:,.0f}",
            f"{g['actor']['decisions_per_game']:g}",
            f"{g['learner']['ms_per_step']:.1f}",
            f"{g['learner']['samples_per_s']:,.0f}",
            f"{g['actor_cores_per_learner_core']:g}",
        ]
        for g in games_
    ]
    return {
        "columns": [
            "game (4 players)",
            "actor: decisions a second, one core",
            "decisions a game",
            "learner: ms a step of 256 samples, one thread",
            "learner: samples a second",
            "actor cores one learner core keeps fed (each sample used twice)",
        ],
        "rows": rows,
    }


#: The probes of ``curve`` when none is named: the network alone against the heuristic and
#: the sparring bots, and level 3 guided by it against the sparring bots.
DEFAULT_PROBES = ("policy@heuristic", "policy@sparring", "level3@sparring")


def parse_probe(text: str) -> tuple[str, str]:
    """``(player, opponent)`` of a ``PLAYER@OPPONENT`` probe; ``ValueError`` naming what is
    wrong (PLAYER: ``policy`` or a search bot; OPPONENT: a bot spec other than PLAYER)."""
    from quansu.search.bots import ISMCTSBot, make_bot

    who, sep, opp = text.partition("@")
    if not sep or not who or not opp:
        raise ValueError(
            f"probe {text!r}: expected PLAYER@OPPONENT, e.g. policy@sparring or level3@sparring"
        )
    if who != "policy":
        try:
            bot = make_bot(who, seed=0)
        except (ValueError, KeyError) as e:
            raise ValueError(f"probe {text!r}: player {who!r}: {e}") from None
        if not isinstance(bot, ISMCTSBot):
            raise ValueError(
                f"probe {text!r}: the player is 'policy' or a search bot (level1..5, ismcts...)"
            )
    try:
        make_bot(opp, seed=0)
    except (ValueError, KeyError) as e:
        raise ValueError(f"probe {text!r}: opponent {opp!r}: {e}") from None
    if opp == who:
        raise ValueError(f"probe {text!r}: the opponent must differ from the player")
    return who, opp


def pick_points(n: int, k: int) -> list[int]:
    """Indices of ``k`` of ``n`` curve points spread evenly, the first and the last included
    (all of them when ``k`` is 0 or at least ``n``)."""
    if k <= 0 or k >= n:
        return list(range(n))
    if k == 1:
        return [n - 1]
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)})


class LineupCache:
    """Per-deal payoffs of the curve's line-ups already played (``curve --cache PATH``), so that
    measuring a run again after it went on, or with more points, plays only what is new.

    A line-up's key is the game, its player count and options, the tested seat as the sha-256 of
    its network's file (its first 16 hex digits) and the PLAYER (the uniform reference as PLAYER
    alone), the opponent, the deals, the seed and the code's commit
    (:func:`quansu.bench.hint.commit`), so a cache never serves another network, other deals or
    another commit (a checkout with uncommitted changes is ``COMMIT+changes`` whatever the
    changes: commit them, or start another cache, before measuring again).  The value: the tested
    seat's mean payoff per deal in bets (deal index to payoff, over the seat rotations).  With a
    ``path``, the file (JSON) is read at start and written by :meth:`save`; without, it lives
    in memory."""

    VERSION = 1

    def __init__(self, path: str | None = None, code: str | None = None):
        self.path = Path(path) if path else None
        if code is None:
            from quansu.bench.hint import commit

            code = commit()
        self.code = code
        self.entries: dict[str, dict[str, float]] = {}
        if self.path and self.path.is_file():
            try:
                doc = json.loads(self.path.read_text(encoding="utf-8"))
            except json.JSONDecodeError as e:
                raise ValueError(f"--cache {self.path}: not JSON ({e})") from None
            if not isinstance(doc, dict) or doc.get("version") != self.VERSION:
                raise ValueError(
                    f"--cache {self.path}: not a curve cache of version {self.VERSION}"
                )
            self.entries = doc.get("lineups", {})

    def key(
        self,
        game: str,
        players: int,
        options: dict,
        tested: str,
        opponent: str,
        deals: int,
        seed: int,
    ) -> str:
        return json.dumps(
            [game, players, options, tested, opponent, deals, seed, self.code], sort_keys=True
        )

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def __getitem__(self, key: str) -> dict[int, float]:
        return {int(k): v for k, v in self.entries[key].items()}

    def put(self, key: str, per_deal: dict[int, float]) -> None:
        self.entries[key] = {str(k): v for k, v in sorted(per_deal.items())}

    def save(self) -> None:
        if self.path:
            text = json.dumps({"version": self.VERSION, "lineups": self.entries}, indent=0)
            self.path.write_text(text + "\n", encoding="utf-8")


def _mci(xs: list) -> list:
    from quansu.models.training.arena import mean_ci

    return [round(v, 4) for v in mean_ci(xs)]


def curve(
    run_dir: str,
    probes=DEFAULT_PROBES,
    deals: int = 50,
    search_deals: int = 25,
    seed: int = 7,
    points: int = 0,
    map_fn=None,
    cache: LineupCache | None = None,
) -> dict:
    """See the module docstring (``curve``).  ``map_fn(fn, tasks)`` plays the deals elsewhere
    (a local pool or Ray); ``None`` plays them in this process.  ``cache``: line-ups played
    before (:class:`LineupCache`) are read from it, not played again, and the new ones added;
    each probe's ``played`` / ``reused`` count its line-ups."""
    from quansu.bench import strength
    from quansu.games import make

    run = Path(run_dir)
    try:
        doc = json.loads((run / "curve.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{run_dir}: no curve.json (not the --out of a DMC run)") from None
    kept = [p for p in doc["points"] if p.get("snapshot") and (run / p["snapshot"]).is_file()]
    if not kept:
        raise ValueError(f"{run_dir}: no snapshots/ networks (runs keep them since 2026-12-07)")
    chosen = [kept[i] for i in pick_points(len(kept), points)]
    parsed = [parse_probe(p) for p in probes]
    from quansu.models.evaluator import PolicyValueModel

    meta = PolicyValueModel((run / chosen[0]["snapshot"]).read_bytes()).metadata
    opts = json.loads(meta.get("quansu.options", "{}"))
    game = make(doc["game"], int(doc["players"]), opts)
    n = game.num_players
    paths = [str((run / p["snapshot"]).resolve()) for p in chosen]
    for path in paths:
        if ":" in path:
            raise ValueError(f"{path}: a snapshot path with ':' cannot name a bot spec")
    digests = [hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16] for path in paths]
    cache = cache if cache is not None else LineupCache()
    out_probes = []
    for (who, opp), name in zip(parsed, probes):
        d = deals if who == "policy" else search_deals
        specs = [f"net={path}:{who}" for path in paths]
        lineups = [[s] + [opp] * (n - 1) for s in specs]
        ids = [f"net=sha256:{h}:{who}" for h in digests]
        if who != "policy":
            lineups.append([who] + [opp] * (n - 1))  # the same bot with uniform priors
            ids.append(who)
        keys = [cache.key(game.name, n, opts, i, opp, d, seed) for i in ids]
        todo = [k for k, key in enumerate(keys) if key not in cache]
        t0 = time.monotonic()
        results = (
            strength._run_all(game, [lineups[k] for k in todo], d, seed, map_fn) if todo else []
        )
        for k, r in zip(todo, results):
            cache.put(keys[k], strength._per_deal(r, lineups[k][0]))
        per = [cache[key] for key in keys[: len(specs)]]  # the networks' line-ups
        entry = {
            "probe": name,
            "player": who,
            "opponent": opp,
            "deals": d,
            "values": [_mci([pd[k] for k in sorted(pd)]) for pd in per],
            "uniform": None,
            "minus_uniform": None,
            "played": len(todo),
            "reused": len(keys) - len(todo),
        }
        if who != "policy":
            uni = cache[keys[-1]]
            ks = sorted(uni)
            entry["uniform"] = _mci([uni[k] for k in ks])
            entry["minus_uniform"] = [_mci([pd[k] - uni[k] for k in ks]) for pd in per]
        entry["seconds"] = round(time.monotonic() - t0, 1)
        out_probes.append(entry)
        cache.save()  # after each probe: a stopped measurement keeps what it played
    return {
        "game": game.name,
        "players": n,
        "options": opts,
        "run": {
            "dir": str(run),
            "command": doc["command"],
            "init_from": doc.get("summary", {}).get("init_from"),
        },
        "seed": seed,
        "deals_note": "game.random_deal of seed (quansu.bench.strength's deals), every seat "
        "rotation; the opponents' seeds are the same for every point",
        "format": "[mean, 95% low, 95% high] bets per game of the tested seat",
        "points": [
            {
                "decisions": p["decisions"],
                "train_seconds": p["train_seconds"],
                "hours": round(p["train_seconds"] / 3600.0, 4),
                "snapshot": p["snapshot"],
            }
            for p in chosen
        ],
        "probes": out_probes,
    }


def _probe_label(e: dict, n: int) -> str:
    who = "policy alone" if e["player"] == "policy" else f"{e['player']} guided"
    deals = f"{e['deals']} deal" + ("s" if e["deals"] != 1 else "")
    return f"{who} vs {n - 1} {e['opponent']} ({deals})"


def curve_table(res: dict) -> dict:
    """The model card's table of a ``curve`` result: one row per point (decisions, training
    minutes, each probe), then the uniform references."""
    n = res["players"]
    cols = ["training decisions", "training minutes"]
    for e in res["probes"]:
        cols.append(_probe_label(e, n))
        if e["uniform"] is not None:
            cols.append(f"{e['player']} guided minus uniform (paired)")
    rows = []
    for i, p in enumerate(res["points"]):
        row = [f"{p['decisions']:,}", f"{p['train_seconds'] / 60:.1f}"]
        for e in res["probes"]:
            row.append(_ci(e["values"][i]))
            if e["uniform"] is not None:
                row.append(_ci(e["minus_uniform"][i]))
        rows.append(row)
    for e in res["probes"]:
        if e["uniform"] is None:
            continue
        row = [f"{e['player']}, uniform priors", "–"]
        for f in res["probes"]:
            if f is e:
                row += [_ci(e["uniform"]), "–"]
            else:
                row += ["–"] * (1 if f["uniform"] is None else 2)
        rows.append(row)
    return {"columns": cols, "rows": rows}


def curve_png(res: dict, path: str) -> None:
    """The probes' curves against training decisions and against training hours."""
    from quansu.games import make
    from quansu.plot import Band, band_panels, save_png

    n = res["players"]
    pts = res["points"]
    bands, refs = [], []
    for e in res["probes"]:
        bands.append(Band(_probe_label(e, n), [tuple(v) for v in e["values"]]))
        if e["uniform"] is not None:
            refs.append((f"{e['player']} uniform vs {n - 1} {e['opponent']}", e["uniform"][0]))
    dec = [p["decisions"] for p in pts]
    hrs = [p["hours"] for p in pts]
    fig = band_panels(
        [
            ("training decisions (log scale)", "symlog", dec),
            ("training hours", "linear", hrs),
        ],
        bands,
        title=f"{make(res['game'], n, res.get('options') or {}).title}, {n} players: "
        "what more training buys",
        y_label="bets per game of the tested seat",
        references=refs,
    )
    save_png(fig, path)


def _f(x: float) -> str:
    """A figure in bets: two decimals, three when it would read as a signed zero."""
    return f"{x:+.3f}" if 0 < abs(x) < 0.005 else f"{x:+.2f}"


def _ci(v: list) -> str:
    return f"{_f(v[0])} [{_f(v[1])}, {_f(v[2])}]"


def _flag(command: str, flag: str) -> str:
    """The value after ``flag`` in a command line, "" when the flag is absent."""
    return command.split(f"{flag} ", 1)[1].split()[0] if f"{flag} " in command else ""


def table(paths: list[str], command: str) -> dict:
    """The results file of the runs' table (``bench/tables.py``'s format): one row per run
    with ``same_deals`` figures (``compare``), in the order given."""
    from quansu.bench.hint import commit
    from quansu.games import make

    rows = []
    for path in paths:
        d = json.loads(Path(path).read_text(encoding="utf-8"))
        if "same_deals" not in d:
            raise ValueError(f"{path}: no same_deals figures (run compare first)")
        sd, pts = d["same_deals"], d["points"]
        deals = sd["deals"].split()[0]
        few = sd["deals"].rsplit("first", 1)[1].split()[0] if "first" in sd["deals"] else "?"
        cmd = d["command"]
        init = d.get("init_from") or _flag(cmd, "--init-from")
        if init and Path(init).parent.name == "models":
            init = f"models/{Path(init).name}"  # the shipped network of the run's day
        start = f"from {init}" if init else "from random weights"
        if lr := _flag(cmd, "--dmc-lr"):
            start += ", learning rate " + lr
        if league := _flag(cmd, "--league"):
            start += ", league " + league
        if "--no-record-bots" in cmd:
            start += ", own decisions only"
        if version := _flag(cmd, "--encoder-version"):
            start += f", encoder version {version}"
        # the run's own curve is against its --bot (the heuristic unless named)
        versus = _flag(cmd, "--bot")
        rows.append(
            [
                f"{make(d['game'], d['players']).title}, {start}, "
                f"{d['train_seconds'] / 60:.0f} min",
                f"{d['decisions'] / 1e6:.2f} M ({d['decisions_per_train_s']:,.0f})",
                (f"{versus}: " if versus else "")
                + f"{_f(pts[0]['mean'])}, {_ci([pts[-1]['mean'], *pts[-1]['ci95']])}",
                f"{_ci(sd['trained_vs_heuristic'])} / {_ci(sd['shipped_vs_heuristic'])} ({deals})",
                f"{_ci(sd['trained_vs_sparring'])} / {_ci(sd['shipped_vs_sparring'])} ({few})",
                _ci(sd["trained_vs_shipped"]),
                f"{d['date'][:10]}, {d['commit']}",
            ]
        )
    return {
        "date": _now()[:10],
        "commit": commit(),
        "machine": "2-core AMD EPYC shared with other jobs; each run's actor processes: the "
        "--workers of its command",
        "command": command,
        "source": "the runs' files: " + ", ".join(Path(p).name for p in paths),
        "table": {
            "columns": [
                "run",
                "decisions (a second)",
                "curve vs heuristic (or the bot named): start, end",
                "vs heuristic: trained / shipped (deals)",
                "vs sparring: trained / shipped (deals)",
                "trained vs 3 shipped",
                "run date, commit",
            ],
            "rows": rows,
        },
    }


def _curve_cli(ap, args, argv) -> dict:
    from quansu.bench.hint import commit, machine

    if args.deals < 1 or args.search_deals < 1:
        ap.error("--deals and --search-deals: at least 1")
    if args.workers < 1 or args.points < 0:
        ap.error("--workers: at least 1; --points: 0 (all) or more")
    from quansu.bench.strength import ray_map_fn

    map_fn = None
    if args.ray is not None:
        map_fn = ray_map_fn(ap, args.ray)
    elif args.workers > 1:
        from quansu.batch import map_local

        def map_fn(fn, tasks):
            return (r for _, r in map_local(fn, list(tasks), args.workers))

    try:
        res = curve(
            args.run_dir,
            args.probe or DEFAULT_PROBES,
            args.deals,
            args.search_deals,
            args.seed,
            args.points,
            map_fn,
            LineupCache(args.cache),
        )
    except ValueError as e:
        ap.error(str(e))
    m = machine()
    res.update(
        date=_now()[:10],
        commit=commit(),
        machine=f"{m['cpu']}, {m['cores']} cores, load {m['loadavg']}, core {m['core']}",
        machine_detail=m,
        command="python -m quansu.bench.dmc "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        source=f"the networks of the run {res['run']['command']!r} at its curve points",
        table=curve_table(res),
    )
    if args.png:
        curve_png(res, args.png)
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m quansu.bench.dmc", description=__doc__.split("\n")[0]
    )
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("record", help="a finished run's curve with date, commit, machine")
    r.add_argument("run_dir")
    r.add_argument("--commit", default="", help="the commit the run ran (default: git's)")
    r.add_argument("--started", default="", help="when the run started (ISO)")
    r.add_argument("--json", metavar="PATH")
    y = sub.add_parser("ray", help="2 actors on a local two-node Ray cluster, then 2 local")
    y.add_argument("--minutes", type=float, default=3.0)
    y.add_argument("--json", metavar="PATH")
    c = sub.add_parser("compare", help="the trained and the shipped network on the same deals")
    c.add_argument("model", help="the trained network (RUN_DIR/GAME.onnx)")
    c.add_argument("--deals", type=int, default=400)
    c.add_argument("--sparring-deals", type=int, default=100)
    c.add_argument("--json", metavar="PATH", help="a results file to add the figures to")
    v = sub.add_parser("curve", help="a run's curve against other opponents, from its snapshots")
    v.add_argument("run_dir", help="the --out of a DMC run")
    v.add_argument(
        "--probe",
        action="append",
        metavar="PLAYER@OPPONENT",
        help="policy@heuristic, level3@sparring, ... (repeatable; default: "
        + ", ".join(DEFAULT_PROBES)
        + ")",
    )
    v.add_argument("--deals", type=int, default=50, help="deals of each policy probe")
    v.add_argument("--search-deals", type=int, default=25, help="deals of each search probe")
    v.add_argument("--seed", type=int, default=7)
    v.add_argument("--points", type=int, default=0, help="measure K points (0: all)")
    v.add_argument("--workers", type=int, default=1, help="local worker processes")
    v.add_argument("--png", metavar="PATH", help="the curves as a PNG chart")
    v.add_argument(
        "--cache",
        metavar="PATH",
        help="a JSON file of the line-ups played before (same networks, deals, seed and "
        "commit): read, not played again; the new ones added",
    )
    v.add_argument("--json", metavar="PATH")
    from quansu.server.ray_cluster import add_ray_argument

    add_ray_argument(v, "play the deals")
    h = sub.add_parser("throughput", help="actor and learner rates per game, one core each")
    h.add_argument("--games", default="tienlen,samloc,phom,tan")
    h.add_argument("--players", type=int, default=4)
    h.add_argument("--seconds", type=float, default=30.0, help="actor seconds per game")
    h.add_argument("--steps", type=int, default=200, help="learner steps per game")
    h.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    h.add_argument("--json", metavar="PATH")
    t = sub.add_parser("table", help="the table of docs/models.md from the runs' files")
    t.add_argument("runs", nargs="+", help="results files of runs with compare's figures")
    t.add_argument("--json", metavar="PATH")
    args = ap.parse_args(argv)
    if args.what == "table":
        res = table(
            args.runs,
            "python -m quansu.bench.dmc " + " ".join(argv if argv is not None else sys.argv[1:]),
        )
    elif args.what == "throughput":
        from quansu.bench.hint import commit, machine
        from quansu.games import game_names

        known = game_names()
        names = [g for g in args.games.split(",") if g]
        bad = [g for g in names if g not in known]
        if bad or not names:
            ap.error(f"--games: unknown {', '.join(bad) or '(none)'}; known: {', '.join(known)}")
        if args.seconds <= 0 or args.steps < 1:
            ap.error("--seconds above 0 and --steps at least 1")
        rates = [
            throughput(g, args.players, args.seconds, args.steps, device=args.device) for g in names
        ]
        res = {
            "date": _now()[:10],
            "commit": commit(),
            "machine": machine(),
            "command": "python -m quansu.bench.dmc "
            + " ".join(argv if argv is not None else sys.argv[1:]),
            "source": "this benchmark's output",
            "games": rates,
            "table": throughput_table(rates),
        }
    elif args.what == "curve":
        res = _curve_cli(ap, args, argv)
    elif args.what == "record":
        res = record(args.run_dir, args.commit, args.started)
    elif args.what == "compare":
        from quansu.bench.hint import commit

        cmp = compare(args.model, args.deals, args.sparring_deals)
        cmp.update(
            date=_now(),
            commit=commit(),
            command="python -m quansu.bench.dmc "
            + " ".join(argv if argv is not None else sys.argv[1:]),
        )
        res = {}
        if args.json and Path(args.json).is_file():
            res = json.loads(Path(args.json).read_text(encoding="utf-8"))
        res["same_deals"] = cmp
    else:
        from quansu.bench.hint import commit, machine

        res = {
            "date": _now(),
            "commit": commit(),
            "machine": machine(),
            "command": "python -m quansu.bench.dmc "
            + " ".join(argv if argv is not None else sys.argv[1:]),
            **ray_run(args.minutes),
        }
    text = json.dumps(res, indent=1, ensure_ascii=False)
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
