"""Suggest throughput with 1 and 2 replicas of the service on this machine (issue 41, point 4;
docs/scaling.md, "The service as replicas").

    python -m quansu.bench.replicas --json bench/results/replicas.json
    python -m quansu.bench.replicas --calls 48 --iterations 100 --clients 8 --rounds 4
    python -m quansu.bench.replicas --parts kill --json bench/results/replicas-kill.json

Three set-ups, each started once with ``quansu serve --replicas N``'s supervisor
(:class:`quansu.server.replicas.Replicas`, the uniform evaluator unless ``--models``, one
worker per replica unless said): **1 replica x 1 worker**, **2 replicas x 1 worker** (the
replicas' gain: one more process and one more core), and **1 replica x 2 workers** (the same
two cores in one server, its own pool: what replicas cost against the pool).  Each measurement
sends the same ``--calls`` Suggest requests (Tiến lên 4-player views where the seat is to act,
a fixed iteration budget and seed per call, hence the same searches everywhere) from
``--clients`` concurrent clients, each a :class:`quansu.client.Client` given every
replica (gRPC's ``round_robin``), connected before the clock starts: calls per second (wall
time) and latency p50 / p99.  Rounds alternate the order of the set-ups; the figures are per
round and their mean, and the ratios 2 replicas / 1 replica and 2 replicas / 1 replica x 2
workers.  Every answer is checked to rank the same moves in every set-up.  With them, the CPU
the set-up's processes used (servers, workers, spares; from /proc): per call, and the cores
it kept busy (CPU seconds / wall seconds).

``--parts kill``: replica 0 of the two is killed (SIGKILL) while ``--clients`` clients with
retries send Suggest calls: the calls failed (the retries should leave none), and the seconds
until the replacement the supervisor starts answers a Suggest.  ``--parts drain``: the same
with SIGTERM (the replica drains, as in a rolling restart) and clients without retries.

Every replica runs in this process's session by default, as the one server's workers do: under
Linux's autogroup scheduling each session gets its own share of the CPUs, and on a machine
busy with other work replicas in sessions of their own (``--own-sessions``) would measure a
larger share of the machine rather than the replicas' gain.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: (name, replicas, workers per replica)
PARTS = ("throughput", "kill", "drain")
SETUPS = (
    ("1 replica x 1 worker", 1, 1),
    ("2 replicas x 1 worker", 2, 1),
    ("1 replica x 2 workers", 1, 2),
)


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q / 100 * (len(xs) - 1))))]


def _autogroup() -> str:
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip()
    except OSError:
        return "unknown"


def _group_cpu_s(groups: list[int]) -> float:
    """CPU seconds (user + system) used so far by the live processes of these process groups
    (each replica's server, workers and spares), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) in groups:  # pgrp; utime and stime follow at 11, 12
            total += int(fields[11]) + int(fields[12])
    return total / tick


def _requests(calls: int, iterations: int) -> list:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from quansu.client import Client
    from tests.helpers.service import view_to_act

    views = [view_to_act("tienlen", 4, seed=s, moves=4) for s in range(calls)]
    return [Client.suggest_request(v, iterations=iterations, seed=i) for i, v in enumerate(views)]


def measure(targets: list[str], requests: list, clients: int) -> tuple[dict, list]:
    """The ``requests`` from ``clients`` threads, each a client of every target; the figures and
    the answers' ranked moves in request order."""
    from quansu.client import Client

    lat: list[float] = []
    answers: list = [None] * len(requests)
    lock = threading.Lock()
    chunks = [list(range(i, len(requests), clients)) for i in range(clients)]
    barrier = threading.Barrier(clients + 1)
    errors: list[BaseException] = []

    def work(chunk):
        try:
            with Client(targets, timeout=300) as c:
                c.describe_games()  # connected before the clock starts
                for _ in targets:
                    c.describe_games()
                barrier.wait()
                for k in chunk:
                    t = time.perf_counter()
                    resp = c.stub.Suggest(requests[k], timeout=300)
                    ms = (time.perf_counter() - t) * 1000.0
                    answers[k] = [s.move.text for s in resp.moves]
                    with lock:
                        lat.append(ms)
        except BaseException as e:  # noqa: BLE001 - reported by the caller
            errors.append(e)
            barrier.abort()

    threads = [threading.Thread(target=work, args=(ch,)) for ch in chunks]
    for t in threads:
        t.start()
    barrier.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    if errors:
        raise errors[0]
    return (
        {
            "wall_s": round(wall, 2),
            "calls_per_s": round(len(requests) / wall, 3),
            "p50_ms": round(_pct(lat, 50), 1),
            "p99_ms": round(_pct(lat, 99), 1),
            "loadavg_1min_after": round(os.getloadavg()[0], 2),
        },
        answers,
    )


def part_throughput(sups: dict, requests: list, clients: int, rounds_n: int) -> dict:
    """The three set-ups, ``rounds_n`` rounds in alternating order (module docstring)."""
    rounds = []
    reference = None
    for k in range(rounds_n):
        order = [s[0] for s in (SETUPS if k % 2 == 0 else SETUPS[::-1])]
        row: dict = {"round": k + 1, "order": order}
        for name in order:
            groups = [r.pid for r in sups[name].replicas]
            cpu0 = _group_cpu_s(groups)
            figures, answers = measure(sups[name].targets(), requests, clients)
            cpu = _group_cpu_s(groups) - cpu0
            figures["cpu_ms_per_call"] = round(cpu / len(requests) * 1000.0, 1)
            figures["cores_used"] = round(cpu / figures["wall_s"], 2)
            if reference is None:
                reference = answers
            if answers != reference:
                raise AssertionError(f"{name}: answers differ from the first set-up's")
            row[name] = figures
            print(f"round {k + 1} {name}: {figures}", file=sys.stderr)
        rounds.append(row)
    mean = {
        name: round(statistics.mean(r[name]["calls_per_s"] for r in rounds), 3)
        for name, _, _ in SETUPS
    }
    one, two, pool = (s[0] for s in SETUPS)
    return {
        "rounds": rounds,
        "calls_per_s_mean": mean,
        "ratio_2_replicas_over_1": round(mean[two] / mean[one], 3),
        "ratio_2_replicas_over_1_per_round": [
            round(r[two]["calls_per_s"] / r[one]["calls_per_s"], 3) for r in rounds
        ],
        "ratio_2_replicas_over_1_replica_2_workers": round(mean[two] / mean[pool], 3),
        "answers_equal": True,
    }


def part_kill(
    sup, requests: list, clients: int, sig: int = signal.SIGKILL, retries: int = 4, index: int = 0
) -> dict:
    """Replica ``index`` of two killed (``sig``: SIGKILL; SIGTERM drains it) while ``clients``
    clients (``Client(retries=retries)``) send the requests over and over: the calls answered
    and failed, those answered from the kill until its replacement answers, and the seconds
    from the kill until then."""
    from quansu.client import Client

    stop = threading.Event()
    lock = threading.Lock()
    counts = {"ok": 0, "failed": 0, "ok_after_kill": 0}
    killed = threading.Event()
    errors: list[str] = []

    def work(i):
        with Client(sup.targets(), timeout=300, retries=retries) as c:
            k = i
            while not stop.is_set():
                try:
                    c.stub.Suggest(requests[k % len(requests)], timeout=300)
                    with lock:
                        counts["ok"] += 1
                        counts["ok_after_kill"] += killed.is_set()
                except Exception as e:  # noqa: BLE001 - counted
                    with lock:
                        counts["failed"] += 1
                        errors.append(f"{type(e).__name__}: {getattr(e, 'code', lambda: '')()}")
                k += clients

    threads = [threading.Thread(target=work, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    time.sleep(2.0)  # both replicas busy
    old = sup.kill(index, sig)
    killed.set()
    t0 = time.perf_counter()
    replaced = None
    for _ in range(6000):  # polls of 0.05 s
        sup.check()
        r = sup.replicas[index]
        if r.pid != old and r.ready.is_set():
            try:
                with Client(sup.targets()[index], timeout=60) as c:
                    c.stub.Suggest(requests[0], timeout=60)
                replaced = time.perf_counter() - t0
                break
            except Exception:  # noqa: BLE001 - not yet
                pass
        time.sleep(0.05)
    stop.set()
    for t in threads:
        t.join()
    return {
        "replacement_answers_after_s": None if replaced is None else round(replaced, 1),
        "restart_delay_s": sup.restart_delay,
        "replica": index,
        "calls_ok": counts["ok"],
        "calls_ok_from_kill_to_replacement": counts["ok_after_kill"],
        "calls_failed": counts["failed"],
        "errors": errors[:5],
        "clients": clients,
        "client_retries": retries,
        "signal": signal.Signals(sig).name,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m quansu.bench.replicas", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--calls", type=int, default=48, help="Suggest calls per measurement")
    ap.add_argument("--iterations", type=int, default=200, help="search iterations per call")
    ap.add_argument("--clients", type=int, default=8, help="concurrent clients")
    ap.add_argument("--rounds", type=int, default=2, help="rounds (the order alternates)")
    ap.add_argument(
        "--models",
        action="store_true",
        help="the shipped networks instead of the uniform evaluator",
    )
    ap.add_argument(
        "--own-sessions",
        action="store_true",
        help="each replica in a session of its own: under autogroup scheduling each "
        "gets its own share of a busy machine's CPUs (default: all in this "
        "process's session, as the one server's workers are)",
    )
    ap.add_argument(
        "--parts",
        default="throughput",
        help="comma-separated: throughput (the three set-ups; the default), kill (a "
        "replica of two killed under load, the time until its replacement "
        "answers), drain (the same with SIGTERM and clients without retries)",
    )
    ap.add_argument("--commit", default="", help="the commit to record (default: git's)")
    ap.add_argument("--json", metavar="PATH", help="write the figures as JSON")
    args = ap.parse_args(argv)
    for name in ("calls", "iterations", "clients", "rounds"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1")

    from quansu.bench.hint import commit, machine
    from quansu.server.replicas import Replicas

    res: dict = {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "commit": args.commit or commit(),
        "machine": machine(),
        "command": "python -m quansu.bench.replicas "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "calls": args.calls,
        "iterations": args.iterations,
        "clients": args.clients,
        "evaluator": "shipped networks" if args.models else "uniform",
        "game": "tienlen, 4 players",
        "replicas_in_own_sessions": args.own_sessions,
        "sched_autogroup": _autogroup(),
    }
    requests = _requests(args.calls, args.iterations)
    # quansu serve's own drain notice (1 s): a drained replica serves while clients move off
    base = ["--queue", str(args.calls + 8), "--log-level", "warning", "--drain", "2"] + (
        [] if args.models else ["--uniform"]
    )
    parts = [x for x in args.parts.split(",") if x]
    if not parts or any(x not in PARTS for x in parts):
        ap.error(f"--parts: a comma-separated list of {', '.join(PARTS)}")
    setups = SETUPS if "throughput" in parts else SETUPS[1:2]
    sups = {}
    t0 = time.perf_counter()
    try:
        for name, n, workers in setups:
            sups[name] = Replicas(
                n,
                base + ["--workers", str(workers)],
                host="127.0.0.1",
                port=0,
                out=sys.stderr,
                new_session=args.own_sessions,
            )
            sups[name].start(wait=True)  # one set-up at a time: starts do not compete
        res["start_s"] = round(time.perf_counter() - t0, 1)
        if "throughput" in parts:
            res.update(part_throughput(sups, requests, args.clients, args.rounds))
        if "kill" in parts:
            res["kill"] = part_kill(sups[SETUPS[1][0]], requests, args.clients)
            print(f"kill: {res['kill']}", file=sys.stderr)
        if "drain" in parts:
            res["drain"] = part_kill(
                sups[SETUPS[1][0]], requests, args.clients, signal.SIGTERM, retries=0, index=1
            )
            print(f"drain: {res['drain']}", file=sys.stderr)
    finally:
        for sup in sups.values():
            sup.stop(grace=30)
    text = json.dumps(res, indent=1)
    print(text)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
