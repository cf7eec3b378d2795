"""Benchmarks of the networks layer: encoder speed, inference latency, guided vs uniform ISMCTS
iterations/s, and the two strength matches of the shipped model.

    python -m quansu.bench.models --game tienlen --deals 20 --ms 200 --workers 2 [--json out.json]

Strength matches (fixed deals from ``--seed``, bots rotated through every seat as in
``search/arena.py``; one seat of the bot under test, the others the baseline):

* ``guided``: ISMCTS guided by the network as the service runs it (``models.bots.guided_config``:
  network priors; leaf values from the value head or from playouts, per game, or ``--leaf``)
  vs ``uniform``: the network-free search as ``quansu serve --uniform`` runs it (uniform priors,
  playouts with the game's ``search_playout``, automatic value scale); both get ``--ms``
  milliseconds of wall time per move.
* ``policy``: the policy network alone (top move) vs ``heuristic``: the game's rule-based bot.

The payoff of the tested bot (bets per game, its seat) is reported with its 95 % interval over
deals (rotations of one deal averaged first).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import statistics
import sys
import time

import numpy as np

from quansu import games
from quansu.models import ModelError, NetworkEvaluator, load_model
from quansu.models.bots import PolicyBot, guided_config
from quansu.models.encoders import encoder_for
from quansu.search.arena import _mean_ci, play_game
from quansu.search.bots import HeuristicBot, ISMCTSBot
from quansu.search.config import SearchConfig
from quansu.search.ismcts import search


def _positions(game, n, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        state = game.new_initial_state(rng)
        while not state.is_terminal() and len(out) < n:
            if len(state.legal_moves()) > 1:
                out.append(state.clone())
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
    return out


def _evaluator(game, model: str | None = None, **kwargs) -> NetworkEvaluator:
    """An evaluator on ``model`` (an .onnx path; None = the shipped model of ``game``)."""
    return NetworkEvaluator(game, load_model(game, model), **kwargs)


def speed(
    game,
    n_positions: int = 300,
    ms: float = 200.0,
    search_positions: int = 5,
    model: str | None = None,
) -> dict:
    """Encoder µs per state, inference latency at batch 1 (one state's legal moves), and
    iterations/s of guided and uniform ISMCTS with ``ms`` per search."""
    enc = encoder_for(game)
    pos = _positions(game, n_positions, 11)
    # first pass: cold move-description caches; then the best of 3 warm passes (a search
    # meets the same moves again and again, so warm is the figure that matters there)
    t = time.perf_counter()
    for s in pos:
        enc.encode_state(s, s.current_player)
    enc_cold_us = (time.perf_counter() - t) / len(pos) * 1e6
    warm = []
    for _ in range(3):
        t = time.perf_counter()
        for s in pos:
            enc.encode_state(s, s.current_player)
        warm.append((time.perf_counter() - t) / len(pos) * 1e6)
    enc_us = min(warm)
    moves = [s.legal_moves() for s in pos]
    t = time.perf_counter()
    for s, m in zip(pos, moves):
        enc.encode_moves(s, m)
    mv_us = (time.perf_counter() - t) / len(pos) * 1e6
    ev = _evaluator(game, model, cache_size=0)
    rows = [
        (
            enc.encode_state(s, s.current_player)[None],
            enc.encode_moves(s, m),
            np.zeros(len(m), dtype=np.int64),
        )
        for s, m in zip(pos, moves)
    ]
    for r in rows[:20]:
        ev.model.run(*r)
    lat = []
    for r in rows:
        t = time.perf_counter()
        ev.model.run(*r)
        lat.append((time.perf_counter() - t) * 1e6)
    full = []
    for s, m in zip(pos, moves):
        t = time.perf_counter()
        ev.evaluate([s], [m])
        full.append((time.perf_counter() - t) * 1e6)
    base = SearchConfig(iterations=None, time_s=ms / 1000.0)
    gcfg = guided_config(ev, base)
    its = {"guided": [], "uniform": []}
    spos = _positions(game, search_positions, 12)
    cached = _evaluator(game, model)
    for s in spos:
        its["guided"].append(search(s, gcfg, cached, seed=1).iterations / (ms / 1000.0))
        its["uniform"].append(search(s, base, None, seed=1).iterations / (ms / 1000.0))
    return {
        "encode_state_us": round(enc_us, 1),
        "encode_state_cold_us": round(enc_cold_us, 1),
        "encode_moves_us": round(mv_us, 1),
        "mean_legal_moves": round(sum(map(len, moves)) / len(moves), 1),
        "onnx_batch1_us_median": round(statistics.median(lat), 1),
        "evaluate_batch1_us_median": round(statistics.median(full), 1),
        "guided_iterations_per_s": round(statistics.mean(its["guided"])),
        "uniform_iterations_per_s": round(statistics.mean(its["uniform"])),
        "search_ms": ms,
    }


def _bot(
    kind: str,
    game,
    ms: float,
    seed: int,
    leaf: str | None = None,
    batch: int | None = None,
    model: str | None = None,
    prior_temperature: float | None = None,
    prior_mix: float | None = None,
):
    if kind == "heuristic":
        return HeuristicBot(seed)
    base = SearchConfig(iterations=None, time_s=ms / 1000.0)
    if kind == "uniform":  # no network: do not load one
        return ISMCTSBot(base, None, seed, name="uniform")
    ev = _evaluator(game, model)
    if kind == "policy":
        return PolicyBot(ev, name="policy")
    if kind == "guided":
        cfg = guided_config(ev, base, leaf)
        if batch is not None:
            cfg = cfg.replace(batch_size=batch)
        if prior_temperature is not None:
            cfg = cfg.replace(prior_temperature=prior_temperature)
        if prior_mix is not None:
            cfg = cfg.replace(prior_mix=prior_mix)
        return ISMCTSBot(cfg, ev, seed, name="guided")
    raise ValueError(kind)


def _deal_task(task):
    name, players, options, test, baseline, ms, seed, d, leaf, batch, model, temp, mix = task
    game = games.make(name, players, options)
    deal = game.random_deal(random.Random(f"{seed}:deal:{d}"))
    pays = []
    secs = []
    for r in range(players):
        bots = [
            _bot(
                test if s == r else baseline,
                game,
                ms,
                hash((seed, d, r, s)) & 0xFFFF,
                leaf,
                batch,
                model,
                temp,
                mix,
            )
            for s in range(players)
        ]
        state, moves, sec = play_game(game, deal, bots)
        pays.append(state.returns()[r])
        secs.append(sec[r] / max(1, moves[r]))
    return d, sum(pays) / players, sum(secs) / players


def match(
    name: str,
    test: str,
    baseline: str,
    deals: int,
    ms: float,
    workers: int,
    seed: int = 0,
    players: int = 4,
    options=None,
    progress=True,
    leaf: str | None = None,
    batch: int | None = None,
    model: str | None = None,
    prior_temperature: float | None = None,
    prior_mix: float | None = None,
) -> dict:
    """One bot of kind ``test`` vs ``players - 1`` of ``baseline`` on ``deals`` deals x
    rotations.  Returns the tested bot's mean payoff with its 95 % interval."""
    tasks = [
        (
            name,
            players,
            options or {},
            test,
            baseline,
            ms,
            seed,
            d,
            leaf,
            batch,
            model,
            prior_temperature,
            prior_mix,
        )
        for d in range(deals)
    ]
    t0 = time.monotonic()
    res = []
    ctx = mp.get_context("fork")
    with ctx.Pool(workers) as pool:
        for r in pool.imap_unordered(_deal_task, tasks):
            res.append(r)
            if progress:
                sys.stderr.write(
                    f"\r{test} vs {baseline}: {len(res)}/{deals} deals "
                    f"{time.monotonic() - t0:6.0f}s"
                )
                sys.stderr.flush()
    if progress:
        sys.stderr.write("\n")
    res.sort()
    if "guided" in (test, baseline):  # what the guided bot ran with
        cfg = guided_config(
            _evaluator(games.make(name, players, options or {}), model), SearchConfig(), leaf
        )
        leaf, batch = cfg.leaf_value, batch or cfg.batch_size
        if prior_temperature is None:
            prior_temperature = cfg.prior_temperature
        if prior_mix is None:
            prior_mix = cfg.prior_mix
    m, h = _mean_ci([r[1] for r in res])
    h = h or 0.0
    return {
        "test": test,
        "baseline": baseline,
        "deals": deals,
        "games": deals * players,
        "ms_per_move": ms if "guided" in (test, baseline) else None,
        "guided_leaf_value": leaf if "guided" in (test, baseline) else None,
        "guided_batch": batch if "guided" in (test, baseline) else None,
        "payoff_mean": round(m, 4),
        "ci95": [round(m - h, 4), round(m + h, 4)],
        "above_zero": m - h > 0,
        "test_s_per_move": round(statistics.mean(r[2] for r in res), 4),
        "wall_s": round(time.monotonic() - t0, 1),
        "seed": seed,
        "model": model or "shipped",
        "prior_temperature": prior_temperature,
        "prior_mix": prior_mix,
    }


CARD_HEADER = "## Measured by bench/models.py"
#: The strength matches in a results file and how a card names them, in card order.
MATCH_LABELS = {
    "policy_vs_heuristic": "policy alone vs heuristic bot",
    "guided_vs_uniform": "guided ISMCTS vs uniform ISMCTS",
}


def verdict_text(above_zero: bool) -> str:
    """How a card states a match's verdict (its 95 % interval above zero or not)."""
    return "above zero: target met" if above_zero else "NOT above zero"


def card_section(results: list[tuple[str, dict]]) -> str:
    """Markdown of bench results: ``(command, results json)`` pairs."""
    lines = [CARD_HEADER, ""]
    for cmd, r in results:
        lines.append(f"`{cmd}`")
        lines.append("")
        sp = r.get("speed")
        if sp:
            lines.append(
                f"- encoder {sp['encode_state_us']} µs per state + "
                f"{sp['encode_moves_us']} µs for its legal moves "
                f"(mean {sp['mean_legal_moves']} moves); onnxruntime batch 1 "
                f"{sp['onnx_batch1_us_median']} µs median, full evaluate "
                f"{sp['evaluate_batch1_us_median']} µs; ISMCTS iterations/s at "
                f"{sp['search_ms']:g} ms: guided {sp['guided_iterations_per_s']}, "
                f"uniform {sp['uniform_iterations_per_s']}."
            )
        for key, label in MATCH_LABELS.items():
            m = r.get(key)
            if m:
                extra = (
                    f", {m['ms_per_move']:g} ms per move, guided leaf values: "
                    f"{m.get('guided_leaf_value') or 'evaluator'}, "
                    f"{m.get('guided_batch') or 8} leaves per call"
                    + (
                        f", prior temperature {m['prior_temperature']:g}"
                        if m.get("prior_temperature") not in (None, 1.0)
                        else ""
                    )
                    + (f", prior mix {m['prior_mix']:g}" if m.get("prior_mix") else "")
                    if m.get("ms_per_move")
                    else ""
                )
                verdict = verdict_text(m["above_zero"])
                lines.append(
                    f"- {label}: {m['payoff_mean']:+.3f} bets per game, 95% CI "
                    f"[{m['ci95'][0]:+.3f}, {m['ci95'][1]:+.3f}] over {m['deals']} "
                    f"deals x {r['players']} rotations{extra} ({verdict})."
                )
        lines.append("")
    return "\n".join(lines)


def update_card(path: str, section: str) -> None:
    """Replace (or add) the bench section at the end of a model card."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    i = text.find(CARD_HEADER)
    if i >= 0:
        text = text[:i]
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.rstrip("\n") + "\n\n" + section)


def append_to_card(path: str, results: list[tuple[str, dict]]) -> None:
    """Add bench results (``(command, results json)`` pairs) at the end of a model card's bench
    section, after the ones already there (the section is created when missing)."""
    append_card_text(path, card_section(results)[len(CARD_HEADER) :])


def append_card_text(path: str, body: str) -> None:
    """Add markdown ``body`` at the end of a model card's bench section (created when
    missing)."""
    with open(path, encoding="utf-8") as f:
        text = f.read().rstrip("\n")
    if CARD_HEADER not in text:
        text += "\n\n" + CARD_HEADER
    with open(path, "w", encoding="utf-8") as f:
        f.write(text + "\n\n" + body.strip("\n") + "\n")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m quansu.bench.models", description=__doc__.splitlines()[0]
    )
    p.add_argument("--game", required=True)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--policy-deals", type=int, default=100)
    p.add_argument("--ms", type=float, default=200.0, help="search time per move, ms")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--only",
        choices=("speed", "guided", "policy"),
        action="append",
        help="run only these parts (repeatable)",
    )
    p.add_argument(
        "--leaf",
        choices=("evaluator", "mix", "rollout"),
        default=None,
        help="leaf values of the guided search: the network's, its mean with a "
        "rollout, or a rollout alone (network priors only); rollouts use the "
        "game's playout (search_playout); default: the game's tuning.guided_leaf",
    )
    p.add_argument(
        "--batch",
        type=int,
        default=None,
        help="leaves per evaluator call (guided; default: guided_config's)",
    )
    p.add_argument(
        "--model",
        default=None,
        help="an .onnx model to measure instead of the shipped one (a candidate)",
    )
    p.add_argument(
        "--prior-temperature",
        type=float,
        default=None,
        help="guided: the search's prior temperature (SearchConfig.prior_temperature: "
        "the softmax of the logits divided by it; default: guided_config's)",
    )
    p.add_argument(
        "--prior-mix",
        type=float,
        default=None,
        help="guided: the share of a uniform prior mixed into the network's "
        "(SearchConfig.prior_mix, 0..1; default: guided_config's)",
    )
    p.add_argument("--json", default="", help="write the results here")
    a = p.parse_args(argv)
    parts = a.only or ["speed", "guided", "policy"]
    game = games.make(a.game, a.players)
    if a.prior_temperature is not None and not a.prior_temperature > 0:
        p.error("--prior-temperature must be > 0")
    if a.prior_mix is not None and not 0.0 <= a.prior_mix <= 1.0:
        p.error("--prior-mix must be in [0, 1]")
    if a.model:
        try:
            load_model(game, a.model)
        except ModelError as e:
            p.error(f"--model: {e}")
    out = {"game": a.game, "players": a.players}
    if "speed" in parts:
        out["speed"] = speed(game, ms=a.ms, model=a.model)
        print(json.dumps(out["speed"]))
    if "policy" in parts:
        out["policy_vs_heuristic"] = match(
            a.game,
            "policy",
            "heuristic",
            a.policy_deals,
            a.ms,
            a.workers,
            a.seed,
            a.players,
            model=a.model,
        )
        print(json.dumps(out["policy_vs_heuristic"]))
    if "guided" in parts:
        out["guided_vs_uniform"] = match(
            a.game,
            "guided",
            "uniform",
            a.deals,
            a.ms,
            a.workers,
            a.seed,
            a.players,
            leaf=a.leaf,
            batch=a.batch,
            model=a.model,
            prior_temperature=a.prior_temperature,
            prior_mix=a.prior_mix,
        )
        print(json.dumps(out["guided_vs_uniform"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
