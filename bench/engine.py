"""Rules-engine benchmark: random full-game playouts for any registered game, and peers.

    python -m quansu.bench.engine                              # every registered game, 4 players
    python -m quansu.bench.engine --game tienlen --players 4 --seconds 10
    python -m quansu.bench.engine --game tienlen --no-peers --json out.json

For each game it measures, in one process on one core:

* **playouts**: full games from a random deal, every move drawn uniformly from the legal moves,
  with the same loop for every game (``legal_moves`` + ``rng.choice`` + ``apply_unchecked``;
  the deal is included) -> full games per second and moves per second;
* **search primitives** on positions sampled from such games: ``clone``, ``determinize`` for
  the seat to act, and ``legal_moves`` of a fresh determinization, in microseconds per call.

Peers (only when the ``rlcard`` package is importable; ``pip install rlcard`` for the benchmark
only, it is not a dependency of quansu): the same random-playout loop on RLCard's Dou Dizhu
(the peer of ``tienlen``) and gin rummy (the peer of ``phom``), through RLCard's environment
(``env.reset`` / ``env.step``, which also encodes observations: its public RL interface) and
through its game core (``game.init_game`` / ``game.step`` with raw actions, no encoding).  The
ratio printed is our moves/s over theirs.

Timing is wall-clock (``time.perf_counter``) by default, so it includes whatever else the
machine is doing: run it on an idle machine and quote the command with the figures.  On a busy
machine ``--clock cpu`` (this process's CPU time) is steadier.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time

PEERS = {"tienlen": "doudizhu", "phom": "gin-rummy"}


# -- our games ----------------------------------------------------------------------------------
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def _rates(n_games: int, n_moves: int, elapsed: float) -> dict:
    """Games and moves played in ``elapsed`` seconds, as the benchmark's result row."""
    return {
        "games": n_games,
        "moves": n_moves,
        "seconds": elapsed,
        "games_per_s": n_games / elapsed,
        "moves_per_s": n_moves / elapsed,
        "moves_per_game": n_moves / max(1, n_games),
    }


def playouts(game, seconds: float, seed: int, clock=time.perf_counter) -> dict:
    """Random full games for ``seconds`` of ``clock``; returns counts and rates."""
    rng = random.Random(seed)
    choice = rng.choice
    new = game.new_initial_state
    n_games = n_moves = 0
    start = clock()
    deadline = start + seconds
    while True:
        st = new(rng)
        legal = st.legal_moves
        apply = st.apply_unchecked
        while True:
            moves = legal()
            if not moves:
                break
            apply(choice(moves))
            n_moves += 1
        n_games += 1
        if clock() >= deadline:
            break
    return _rates(n_games, n_moves, clock() - start)


def sample_positions(game, count: int, seed: int) -> list:
    """``count`` non-terminal positions taken at uniformly random depths of random games."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        st = game.new_initial_state(rng)
        states = []
        while not st.is_terminal():
            states.append(st.clone())
            st.apply(rng.choice(st.legal_moves()))
        if states:
            out.append(rng.choice(states))
    return out


def primitives(game, seconds: float, seed: int, clock=time.perf_counter) -> dict:
    """Microseconds per call on sampled positions: ``clone``; ``determinize`` for the seat to
    act; ``legal_moves`` of a determinization made for the *next* seat (so the acting seat's
    hand was redrawn and its moves are generated from scratch)."""
    positions = sample_positions(game, 200, seed)
    rng = random.Random(seed)
    n = game.num_players

    def timed(make_batch, op) -> float:
        calls, total = 0, 0.0
        deadline = clock() + seconds
        while clock() < deadline:
            batch = make_batch()
            t0 = clock()
            for x in batch:
                op(x)
            total += clock() - t0
            calls += len(batch)
        return 1e6 * total / max(1, calls)

    return {
        "clone_us": timed(lambda: positions, lambda st: st.clone()),
        "determinize_us": timed(
            lambda: positions, lambda st: st.determinize(st.current_player, rng)
        ),
        "legal_moves_us": timed(
            lambda: [st.determinize((st.current_player + 1) % n, rng) for st in positions],
            lambda d: d.legal_moves(),
        ),
    }


# -- peers ------------------------------------------------------------------------------------
def rlcard_available() -> str | None:
    try:
        import rlcard  # noqa: F401
    except ImportError:
        return None
    return getattr(rlcard, "__version__", "?")


def rlcard_env_playouts(env_name: str, seconds: float, seed: int, clock=time.perf_counter) -> dict:
    """RLCard environment: reset / random legal action id / step until over."""
    import rlcard

    env = rlcard.make(env_name, config={"seed": seed})
    rng = random.Random(seed)
    n_games = n_moves = 0
    start = clock()
    deadline = start + seconds
    while True:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"].keys())))
            n_moves += 1
        n_games += 1
        if clock() >= deadline:
            break
    return _rates(n_games, n_moves, clock() - start)


def _core_game(env_name: str, seed: int):
    import numpy as np

    if env_name == "doudizhu":
        from rlcard.games.doudizhu.game import DoudizhuGame as G
    else:
        from rlcard.games.gin_rummy.game import GinRummyGame as G
    g = G()
    g.np_random = np.random.RandomState(seed)
    return g


def rlcard_core_playouts(env_name: str, seconds: float, seed: int, clock=time.perf_counter) -> dict:
    """RLCard game core: init_game / random legal raw action / step, no observation encoding."""
    game = _core_game(env_name, seed)
    rng = random.Random(seed)
    n_games = n_moves = 0
    start = clock()
    deadline = start + seconds
    ddz = env_name == "doudizhu"
    while True:
        state, _ = game.init_game()
        while not game.is_over():
            actions = state["actions"] if ddz else game.judge.get_legal_actions()
            state, _ = game.step(rng.choice(actions))
            n_moves += 1
        n_games += 1
        if clock() >= deadline:
            break
    return _rates(n_games, n_moves, clock() - start)


# -- command line -------------------------------------------------------------------------------
def _fmt(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def run(argv: list[str] | None = None, out=sys.stdout) -> dict:
    from quansu import games

    p = argparse.ArgumentParser(
        prog="python -m quansu.bench.engine", description=__doc__.split("\n")[0]
    )
    p.add_argument(
        "--game",
        action="append",
        default=None,
        help="a registered game (repeatable; default: every registered game)",
    )
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seconds", type=float, default=5.0, help="seconds per measurement")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option (JSON value) for every game measured",
    )
    p.add_argument("--no-peers", action="store_true", help="skip the RLCard peers")
    p.add_argument("--no-primitives", action="store_true", help="skip clone/determinize timing")
    p.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="wall: elapsed time; cpu: this process's CPU time (steadier on a busy machine)",
    )
    p.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = p.parse_args(argv)

    options = {}
    for pair in args.option:
        name, _, value = pair.partition("=")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    names = args.game or games.game_names()
    version = rlcard_available()
    clock = CLOCKS[args.clock]
    results = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "players": args.players,
        "seconds": args.seconds,
        "seed": args.seed,
        "clock": args.clock,
        "options": options,
        "games": {},
        "peers": {},
    }
    print(
        f"quansu engine benchmark: {args.players} players, {args.seconds:g} s ({args.clock} "
        f"clock) per measurement, seed {args.seed}, Python {results['python']}",
        file=out,
    )
    print(
        f"{'game':10} {'games/s':>10} {'moves/s':>11} {'moves/game':>11} "
        f"{'clone us':>9} {'determ. us':>11} {'legal us':>9}",
        file=out,
    )
    for name in names:
        try:
            game = games.make(name, args.players, options)
        except games.GameError as e:
            print(f"{name:10} skipped: {e}", file=out)
            continue
        r = playouts(game, args.seconds, args.seed, clock)
        if not args.no_primitives:
            r.update(primitives(game, max(0.2, args.seconds / 5), args.seed, clock))
        results["games"][name] = r
        prim = (
            ""
            if args.no_primitives
            else f" {r['clone_us']:>9.1f} {r['determinize_us']:>11.1f} {r['legal_moves_us']:>9.1f}"
        )
        print(
            f"{name:10} {_fmt(r['games_per_s']):>10} {_fmt(r['moves_per_s']):>11} "
            f"{r['moves_per_game']:>11.1f}{prim}",
            file=out,
        )

    peers = [(n, PEERS[n]) for n in names if n in PEERS and n in results["games"]]
    if peers and not args.no_peers:
        if version is None:
            print("peers: rlcard is not installed (pip install rlcard) - skipped", file=out)
        else:
            print(f"peers: RLCard {version}, same random-playout loop", file=out)
            for ours, theirs in peers:
                env = rlcard_env_playouts(theirs, args.seconds, args.seed, clock)
                core = rlcard_core_playouts(theirs, args.seconds, args.seed, clock)
                mine = results["games"][ours]["moves_per_s"]
                results["peers"][ours] = {
                    "peer": theirs,
                    "env": env,
                    "core": core,
                    "ratio_env": mine / env["moves_per_s"],
                    "ratio_core": mine / core["moves_per_s"],
                }
                for kind, r in (("env", env), ("core", core)):
                    print(
                        f"  {theirs + ' ' + kind:18} {_fmt(r['games_per_s']):>10} games/s "
                        f"{_fmt(r['moves_per_s']):>10} moves/s {r['moves_per_game']:>7.1f} moves/game",
                        file=out,
                    )
                print(
                    f"  {ours} moves/s vs RLCard {theirs}: "
                    f"{mine / env['moves_per_s']:.1f}x the environment, "
                    f"{mine / core['moves_per_s']:.1f}x the game core",
                    file=out,
                )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)
    return results


def main(argv: list[str] | None = None) -> int:
    run(argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
