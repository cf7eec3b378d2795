"""Ray against the local process pool, Ray's cost per task, and the figures of the capacity
model (docs/scaling.md).

    python -m quansu.bench.cluster --json bench/results/cluster.json
    python -m quansu.bench.cluster --parts overhead,throughput --rounds 2
    python -m quansu.bench.cluster --parts capacity --positions 3

Parts:

* ``overhead``: on a local two-node Ray cluster (``ray start --head`` and ``ray start
  --address``, one CPU each: :class:`quansu.server.ray_cluster.LocalCluster`), tasks that do
  nothing (:func:`quansu.server.ray_cluster.echo`): the wall time per task when many are in
  flight (``--tasks`` of them, :func:`map_unordered`), and the round trip of one task at a time.
* ``throughput``: the same games analysed by ``quansu analyze --out`` on the local process
  pool (2 processes) and on that cluster (2 nodes of 1 CPU; by default the nodes in this
  process's session and Ray's workers at this process's priority, so that both get the same
  share of a machine shared with other work), each run from cold (its worker
  processes started and their engines built inside the timed run, as a batch run does); games
  per second and the ratio Ray / pool, per round (rounds alternate the order).  The marks must
  be equal (checked).
* ``capacity``: CPU seconds of one Suggest at each strength level (1..5) per game, on
  ``--positions`` decisions with a choice cut from the records in tests/data/analysis/<game>
  (the seat's view, the shipped networks), in this process; and CPU seconds per game of the
  throughput part's analyses.

Every figure is this process's or the workers' CPU time (``time.process_time``) or wall time, as
named; the machine summary (cores, load, the build of the core) goes with them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("overhead", "throughput", "capacity")


def _games_for_throughput(n_extra: int) -> list[str]:
    """The eight short games of docs/examples, then ``n_extra`` two-player Tấn games of
    tests/data/analysis."""
    files = sorted(str(p) for p in (ROOT / "docs" / "examples").glob("*.json"))
    files += sorted(str(p) for p in (ROOT / "tests" / "data" / "analysis" / "tan").glob("*.json"))[
        :n_extra
    ]
    return files


def part_overhead(cluster, tasks: int, serial: int) -> dict:
    from quansu.server import ray_cluster as rc

    ray = rc.require_ray()
    list(rc.map_unordered(rc.echo, list(range(50))))  # workers started
    t0 = time.perf_counter()
    got = sorted(r for _, r in rc.map_unordered(rc.echo, list(range(tasks))))
    pipelined = time.perf_counter() - t0
    assert got == list(range(tasks))
    remote = ray.remote(num_cpus=1)(rc.echo)
    ray.get(remote.remote(0))
    t0 = time.perf_counter()
    for i in range(serial):
        assert ray.get(remote.remote(i)) == i
    one = time.perf_counter() - t0
    return {
        "tasks": tasks,
        "ms_per_task_in_flight": round(1000 * pipelined / tasks, 3),
        "tasks_per_s": round(tasks / pipelined, 1),
        "serial_tasks": serial,
        "ms_round_trip_one_task": round(1000 * one / serial, 3),
    }


def _settings(worlds: int, iterations: int):
    from quansu.batch import Settings

    return Settings(worlds=worlds, iterations=iterations, seed=11)


def part_throughput(cluster, files: list[str], worlds: int, iterations: int, rounds: int) -> dict:
    from quansu.batch import local_pool, read_items, run_batch
    from quansu.server import ray_cluster as rc

    items = list(read_items(files))
    settings = _settings(worlds, iterations)
    rows = []
    marks: dict[str, dict] = {}

    def timed(how: str, pool=None) -> dict:
        with tempfile.TemporaryDirectory() as d:
            out = str(Path(d) / "r.jsonl")
            t0 = time.perf_counter()
            if how == "ray":
                if not rc.require_ray().is_initialized():
                    rc.connect(cluster.address)  # a cold run: the driver's start counts
                res = run_batch(items, settings, out_path=out, executor="ray")
            else:
                res = run_batch(items, settings, out_path=out, jobs=2, pool=pool)
            wall = time.perf_counter() - t0
        assert res.failed == 0, [x.get("error") for x in res.lines if x["status"] != "ok"]
        for x in res.lines:
            got = {"decisions": x["decisions"], "summaries": x["summaries"]}
            assert marks.setdefault(x["key"], got) == got, "different marks"
        timed.lines = res.lines
        return {
            "wall_s": round(wall, 2),
            "games_per_s": round(len(items) / wall, 4),
            "loadavg_1min_after": round(os.getloadavg()[0], 2),
            "cpu_s_tasks": round(sum(x["cpu_seconds"] for x in res.lines), 2),
            "processes": len({x["pid"] for x in res.lines}),
            "nodes": len({x["node"] for x in res.lines}) if how == "ray" else None,
        }

    for r in range(rounds):
        order = ("pool", "ray") if r % 2 == 0 else ("ray", "pool")
        row: dict = {"round": r + 1, "order": list(order)}
        for how in order:
            # cold: new worker processes (and a new Ray driver), started inside the timed run,
            # as one batch run does; warm: the same run again on those workers
            if how == "ray":
                rc.disconnect()
                row["ray"] = timed("ray")
                row["ray_warm"] = timed("ray")
            else:
                row["pool"] = timed("pool")
                with local_pool(2) as pool:
                    timed("pool", pool)  # the workers started and their engines built
                    row["pool_warm"] = timed("pool", pool)
        row["ray_over_pool"] = round(row["ray"]["games_per_s"] / row["pool"]["games_per_s"], 3)
        row["ray_over_pool_warm"] = round(
            row["ray_warm"]["games_per_s"] / row["pool_warm"]["games_per_s"], 3
        )
        rows.append(row)
        print(
            f"throughput round {r + 1}: cold pool {row['pool']['wall_s']} s, ray "
            f"{row['ray']['wall_s']} s, ratio {row['ray_over_pool']}; warm pool "
            f"{row['pool_warm']['wall_s']} s, ray {row['ray_warm']['wall_s']} s, ratio "
            f"{row['ray_over_pool_warm']}",
            file=sys.stderr,
        )
    res_lines = timed.lines
    ratios = [x["ray_over_pool"] for x in rows]
    warm = [x["ray_over_pool_warm"] for x in rows]
    # CPU per game of these analyses (the last run's lines)
    per_game: dict[str, list[float]] = {}
    for x in res_lines:
        per_game.setdefault(x["game"], []).append(x["cpu_seconds"])
    return {
        "games": len(items),
        "files": [str(Path(f).relative_to(ROOT)) for f in files],
        "worlds": worlds,
        "iterations": iterations,
        "cores": 2,
        "pool": "2 local processes",
        "ray": "2 nodes x 1 CPU on this machine",
        "rounds": rows,
        "ray_over_pool_mean": round(statistics.mean(ratios), 3),
        "ray_over_pool_min": round(min(ratios), 3),
        "ray_over_pool_warm_mean": round(statistics.mean(warm), 3),
        "ray_over_pool_warm_min": round(min(warm), 3),
        "target": 0.9,
        "cpu_s_per_game_by_game": {
            g: round(statistics.mean(v), 2) for g, v in sorted(per_game.items())
        },
    }


def _positions(game_name: str, k: int, seed: int) -> list[dict]:
    """``k`` views of the seat to act at decisions with a choice, from the records of
    tests/data/analysis/<game> (one per record, a seeded pick among its decisions)."""
    from quansu.games import record as rec

    rng = random.Random(seed)
    out = []
    for f in sorted((ROOT / "tests" / "data" / "analysis" / game_name).glob("*.json")):
        if len(out) >= k:
            break
        r = rec.parse_record(rec.read_json(str(f)))
        state = r.game.state_from_deal(r.deal)
        choices = []
        for i, (seat, move) in enumerate(r.moves):
            if len(state.legal_moves()) > 1:
                choices.append(i)
            state.apply(move)
        i = rng.choice(choices)
        out.append(rec.view_at(r, r.moves[i][0], i))
    return out


def part_capacity(positions: int, levels: list[int], seed: int) -> dict:
    from quansu.games.registry import game_names
    from quansu.server import convert
    from quansu.server.engine import build_engine
    from quansu.server.v1 import service_pb2 as pb

    engine = build_engine()
    out: dict = {"positions_per_game": positions, "suggest_cpu_s": {}}
    for g in game_names():
        views = _positions(g, positions, seed)
        row = {}
        for level in levels:
            secs = []
            for v in views:
                req = pb.SuggestRequest(view=convert.record_message(v), strength=level, seed=1)
                t0 = time.process_time()
                engine.suggest(req)
                secs.append(time.process_time() - t0)
            row[str(level)] = {"mean": round(statistics.mean(secs), 4), "max": round(max(secs), 4)}
            print(f"capacity {g} level {level}: {row[str(level)]}", file=sys.stderr)
        out["suggest_cpu_s"][g] = row
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m quansu.bench.cluster", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--parts", default=",".join(PARTS), help="comma-separated: " + ", ".join(PARTS))
    ap.add_argument("--tasks", type=int, default=2000, help="overhead: tasks in flight")
    ap.add_argument("--serial", type=int, default=200, help="overhead: one-at-a-time round trips")
    ap.add_argument(
        "--extra-games",
        type=int,
        default=4,
        help="throughput: Tấn games of tests/data/analysis after the 8 examples",
    )
    ap.add_argument("--worlds", type=int, default=32, help="throughput: worlds per decision")
    ap.add_argument("--iterations", type=int, default=50, help="throughput: search iterations")
    ap.add_argument("--rounds", type=int, default=2, help="throughput: rounds (order alternates)")
    ap.add_argument("--positions", type=int, default=3, help="capacity: decisions per game")
    ap.add_argument("--levels", default="1,2,3,4,5", help="capacity: strength levels")
    ap.add_argument("--seed", type=int, default=3, help="capacity: the pick of decisions")
    ap.add_argument(
        "--own-sessions",
        action="store_true",
        help="start each Ray node in a session of its own (as the tests do): under "
        "autogroup scheduling each gets its own share of the CPUs",
    )
    ap.add_argument(
        "--ray-niceness",
        action="store_true",
        help="leave Ray's workers at its own lower priority (niceness +15)",
    )
    ap.add_argument(
        "--commit",
        default="",
        help="the commit to record (default: git of the current folder or of this file)",
    )
    ap.add_argument("--json", metavar="PATH", help="write the figures as JSON")
    args = ap.parse_args(argv)
    parts = [p for p in args.parts.split(",") if p]
    bad = [p for p in parts if p not in PARTS]
    if bad:
        ap.error(f"unknown part {bad[0]!r} (one of {', '.join(PARTS)})")
    from quansu.bench.hint import commit, machine

    res: dict = {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "nodes_in_own_sessions": args.own_sessions,
        "ray_worker_niceness": "Ray's default (+15)" if args.ray_niceness else "0",
        "commit": args.commit or commit(),
        "machine": machine(),
        "command": "python -m quansu.bench.cluster "
        + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    if "overhead" in parts or "throughput" in parts:
        from quansu.server import ray_cluster as rc

        t0 = time.perf_counter()
        # in this process's session: the same share of the CPUs as the local pool's processes
        # (Linux's autogroup gives every session its own share; docs/scaling.md)
        # and Ray's workers at the pool's priority (Ray's default lowers theirs by 15: its
        # setting worker_niceness)
        env = {} if args.ray_niceness else {"RAY_worker_niceness": "0"}
        with rc.LocalCluster((1, 1), new_session=args.own_sessions, env=env) as cluster:
            res["cluster_start_s"] = round(time.perf_counter() - t0, 1)
            res["ray_version"] = rc.require_ray().__version__
            if "overhead" in parts:
                res["overhead"] = part_overhead(cluster, args.tasks, args.serial)
                print(f"overhead: {res['overhead']}", file=sys.stderr)
            if "throughput" in parts:
                res["throughput"] = part_throughput(
                    cluster,
                    _games_for_throughput(args.extra_games),
                    args.worlds,
                    args.iterations,
                    args.rounds,
                )
    if "capacity" in parts:
        res["capacity"] = part_capacity(
            args.positions, [int(x) for x in args.levels.split(",") if x], args.seed
        )
    text = json.dumps(res, indent=1)
    print(text)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
