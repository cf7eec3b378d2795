"""ISMCTS speed per registered game, with OpenSpiel's ISMCTS on gin_rummy as the nearest peer.

Usage::

    python -m quansu.bench.search                 # every registered game, 4 players, 3 s per position
    python -m quansu.bench.search --games tienlen --seconds 5 --json bench_search.json

For every game: iterations per second of :func:`search.search` from opening positions (uniform
evaluator, random rollouts, default settings), averaged over ``--positions`` deals; plus the
stop latency (time from a cancel event, or from the deadline, to the search's return; worst of
``--latency-trials``).  Then, when the ``open_spiel`` package is installed (``pip install
open_spiel``; it is never a dependency of quansu), OpenSpiel's C++ ISMCTS bot
(``pyspiel.ISMCTSBot``) and Python ISMCTS bot (``open_spiel.python.algorithms.ismcts``) on
gin_rummy from a dealt opening position, both with one random rollout per leaf.

Targets (issue 6): at least 1,500 iterations/s in Tiến lên, and at least OpenSpiel's C++ rate on
gin_rummy in every game.  Speeds depend on the machine and its load: run it on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time

from quansu import games
from quansu.search import SearchConfig, search

TIENLEN_TARGET = 1500.0


def opening(game, rng: random.Random):
    """A new game's first position, skipping deals that end at once (instant wins)."""
    while True:
        state = game.new_initial_state(rng)
        if not state.is_terminal():
            return state


def bench_game(name: str, players: int, seconds: float, positions: int, seed: int,
               playout: str = "random") -> dict:
    game = games.make(name, min(players, games.game_classes()[name].max_players))
    rates, trees = [], []
    rng = random.Random(seed)
    for _ in range(positions):
        state = opening(game, rng)
        cfg = SearchConfig(iterations=None, time_s=seconds, playout=playout)
        res = search(state, cfg, seed=rng.getrandbits(32))
        rates.append(res.iterations / res.elapsed_s)
        trees.append(res.tree_size)
    return {"game": name, "players": game.num_players, "playout": playout,
            "iterations_per_s": sum(rates) / len(rates), "min_iterations_per_s": min(rates),
            "tree_size": sum(trees) / len(trees)}


def stop_latency(name: str, players: int, trials: int, seed: int) -> dict:
    """Worst time (ms) from cancel / deadline to the search's return."""
    game = games.make(name, min(players, games.game_classes()[name].max_players))
    rng = random.Random(seed)
    cancel_ms, deadline_ms = [], []
    for _ in range(trials):
        state = opening(game, rng)
        cancel = threading.Event()
        done = {}

        def work():
            search(state, SearchConfig(iterations=None), seed=1, cancel=cancel)
            done["t"] = time.monotonic()

        th = threading.Thread(target=work)
        th.start()
        time.sleep(0.2)
        t0 = time.monotonic()
        cancel.set()
        th.join()
        cancel_ms.append(1000 * (done["t"] - t0))
        deadline = time.monotonic() + 0.2
        search(state, SearchConfig(iterations=None), seed=2, deadline=deadline)
        deadline_ms.append(1000 * max(0.0, time.monotonic() - deadline))
    return {"cancel_latency_ms_max": max(cancel_ms), "deadline_overshoot_ms_max": max(deadline_ms)}


def bench_openspiel(seconds: float, seed: int) -> dict | None:
    """OpenSpiel ISMCTS (C++ and Python) on gin_rummy, or None when open_spiel is missing."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts as py_ismcts
        from open_spiel.python.algorithms import mcts as py_mcts
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    state = game.new_initial_state()
    nprng = np.random.RandomState(seed)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(nprng.choice(actions, p=probs)))

    def rate(make_bot, first: int) -> float:
        n, spent = first, 0.0
        total_it, total_s = 0, 0.0
        while spent < seconds:
            bot = make_bot(n)
            t0 = time.perf_counter()
            bot.step(state)
            dt = time.perf_counter() - t0
            total_it += n
            total_s += dt
            spent += dt
            n = max(first, int(n * 2))
        return total_it / total_s

    cpp_eval = pyspiel.RandomRolloutEvaluator(1, seed)
    cpp = rate(lambda n: pyspiel.ISMCTSBot(seed, cpp_eval, 2.0, n, -1,
                                           pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False),
               100)
    py_eval = py_mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    py = rate(lambda n: py_ismcts.ISMCTSBot(game, py_eval, 2.0, n,
                                            random_state=np.random.RandomState(seed)), 20)
    return {"game": "gin_rummy (OpenSpiel)", "players": 2, "cpp_iterations_per_s": cpp,
            "python_iterations_per_s": py, "open_spiel_version": getattr(pyspiel, "__version__", "?")}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m quansu.bench.search", description=__doc__.split("\n")[0])
    p.add_argument("--games", default=",".join(games.game_names()), help="comma separated game names")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seconds", type=float, default=3.0, help="search time per position")
    p.add_argument("--positions", type=int, default=3, help="opening positions per game")
    p.add_argument("--latency-trials", type=int, default=3)
    p.add_argument("--playout", default="random", choices=("random", "heuristic"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-openspiel", action="store_true")
    p.add_argument("--json", default=None, metavar="PATH", help="also write the results as JSON")
    args = p.parse_args(argv)

    names = [g for g in args.games.split(",") if g]
    rows = []
    print(f"{'game':22s} {'players':>7s} {'it/s':>9s} {'min it/s':>9s} {'tree':>9s} "
          f"{'cancel ms':>9s} {'deadline+ms':>11s}")
    for name in names:
        row = bench_game(name, args.players, args.seconds, args.positions, args.seed, args.playout)
        if args.latency_trials > 0:
            row.update(stop_latency(name, args.players, args.latency_trials, args.seed))
        rows.append(row)
        print(f"{name:22s} {row['players']:7d} {row['iterations_per_s']:9.0f} "
              f"{row['min_iterations_per_s']:9.0f} {row['tree_size']:9.0f} "
              f"{row.get('cancel_latency_ms_max', float('nan')):9.1f} "
              f"{row.get('deadline_overshoot_ms_max', float('nan')):11.1f}", flush=True)
    peer = None
    if args.no_openspiel:
        print("OpenSpiel peer skipped (--no-openspiel)")
    else:
        peer = bench_openspiel(args.seconds, args.seed)
        if peer is None:
            print("OpenSpiel peer skipped: open_spiel is not installed (pip install open_spiel)")
        else:
            print(f"{'gin_rummy OpenSpiel C++':22s} {2:7d} {peer['cpp_iterations_per_s']:9.0f}")
            print(f"{'gin_rummy OpenSpiel Py':22s} {2:7d} {peer['python_iterations_per_s']:9.0f}")
    checks = []
    for row in rows:
        if row["game"] == "tienlen":
            checks.append(("tienlen >= 1500 it/s", row["iterations_per_s"] >= TIENLEN_TARGET))
        if peer is not None:
            checks.append((f"{row['game']} >= OpenSpiel C++ gin_rummy",
                           row["iterations_per_s"] >= peer["cpp_iterations_per_s"]))
    for what, ok in checks:
        print(f"{'PASS' if ok else 'MISS'}  {what}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"games": rows, "openspiel": peer, "checks": dict(checks),
                       "seconds": args.seconds, "positions": args.positions}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
