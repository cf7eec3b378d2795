"""Soak and abuse benchmark of the running service (issue 21's figures).

    python -m quansu.bench.soak --clients 16 --seconds 120               # soak
    python -m quansu.bench.soak --clients 64 --seconds 120               # same, 64 clients
    python -m quansu.bench.soak --clients 64 --seconds 120 --backoff-ms 50   # fixed 50 ms backoff
    python -m quansu.bench.soak --phase flood --flood 30 --seconds 30    # big invalid requests
    python -m quansu.bench.soak --phase deadline --deadline-ms 50 --calls 200
    python -m quansu.bench.soak --phase heal                             # worker kill -> replaced

``soak`` starts ``quansu serve`` (uniform evaluator, ``--workers``, ``--queue``) in its own
process and runs ``--clients`` client threads for ``--seconds``, each calling a mix of the RPCs
in a loop: Suggest (100 iterations), SuggestStream, Analyze (one seat of a short record),
LegalMoves, DescribeGames and health, with ``--malformed`` (10 %) of the calls replaced by a
malformed body (bench/fuzz.py: random bytes or a mutated request).  A refused client (every
worker busy and the queue full: RESOURCE_EXHAUSTED) waits before its next call: by default
(``--backoff-ms server``) the server's retry pushback (its ``grpc-retry-pushback-ms`` trailer)
times a random factor in 0.5..1.5, as a well-behaved app does; ``--backoff-ms N``: N ms times the
same factor, whatever the server says (the old behaviour, N = 50).  The RSS of the server process
and of every worker is sampled every ``--sample`` seconds.  Reported: calls, OK/s (valid calls
that need a worker answered OK: Suggest, SuggestStream, Analyze, LegalMoves), refusals and their
latency p50/p99, the mean pushback the refused clients received, the latency of every RPC,
unexpected outcomes (bench/fuzz.py's ``problems``: anything but OK with finite numbers,
INVALID_ARGUMENT with a field, RESOURCE_EXHAUSTED, NOT_FOUND for health), the RSS (server
process at the first sample after warm-up, ``--warmup`` seconds, and at the end, each worker
likewise; ``--fill N`` first sends N deep Suggest calls per game of ``FILL_GAMES`` on different
positions, outside the soak's clock, so that the workers' bounded caches reach their bounds
before the soak rather than during it) and where the CPU went: the CPU seconds (user + system, ``/proc/<pid>/stat``) of the
server process, of each worker and spare, and of this benchmark's own process (the clients)
over the run, with the machine's total (``cpu_s``).

``flood``: ``--flood`` clients (in two processes of their own) send maximum-size invalid
requests as fast as they can (a view with more moves than the game allows, just under the body
limit, and a record whose last move is illegal after the most moves a Tấn game can have) while
one client (in this process) checks health every 50 ms and another sends valid Suggest calls:
health latency (max, p99) and the valid calls' outcomes.

``deadline``: ``--calls`` sequential Suggest calls with an unbounded budget and a deadline of
``--deadline-ms``: the share answered with the best move so far (OK) rather than
DEADLINE_EXCEEDED.

``heal``: a pool of ``--workers`` real workers (in this process); an idle worker is killed with
SIGKILL ``--kills`` times, with and without a spare: seconds until the pool is whole again.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

import grpc

from quansu.bench import fuzz
from quansu.bench.grpc_leak import rss_mb

ROOT = Path(__file__).resolve().parent.parent


def pct(xs, q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, int(round(q / 100 * (len(xs) - 1))))]


def start_server(workers: int, queue: int) -> tuple[subprocess.Popen, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "quansu.cli.serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--workers",
            str(workers),
            "--queue",
            str(queue),
            "--uniform",
            "--log-level",
            "ERROR",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    line = proc.stdout.readline()
    if "serving on" not in line:
        proc.kill()
        raise RuntimeError(f"server did not start: {line!r}")
    port = int(line.split(":")[1].split()[0])
    return proc, f"127.0.0.1:{port}"


def stop_server(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


def children(pid: int) -> list[int]:
    """The worker (and spare) processes of the server ``pid``."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid != pid:
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if b"spawn_main" not in f.read():
                    continue  # multiprocessing's resource tracker, not a worker
        except OSError:
            continue
        out.append(int(entry))
    return sorted(out)


_CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system, not counting children) process ``pid`` has used so far, from
    ``/proc/<pid>/stat``; None when it cannot be read (gone, or no ``/proc``)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # after the name: state(0) ppid(1) ... utime(11) stime(12), i.e. fields 14 and 15 of stat
    return (int(fields[11]) + int(fields[12])) / _CLK_TCK


def sample_cpu(pid: int) -> dict:
    """CPU seconds so far of the server ``pid``, each of its workers, and this process."""
    return {
        "server": cpu_seconds(pid),
        "workers": {c: cpu_seconds(c) for c in children(pid)},
        "client": cpu_seconds(os.getpid()),
    }


def cpu_split(first: dict, last: dict, elapsed: float) -> dict:
    """CPU seconds spent between two :func:`sample_cpu`: the server process, each worker (a
    worker that started meanwhile counts from 0; one that ended meanwhile is left out), the
    benchmark's client process, their total, and the machine's (elapsed x cores)."""

    def diff(a, b):
        return None if b is None else round(b - (a or 0.0), 1)

    workers = {
        str(pid): diff(first["workers"].get(pid), sec)
        for pid, sec in last["workers"].items()
        if sec is not None
    }
    out = {
        "server": diff(first["server"], last["server"]),
        "workers": workers,
        "client": diff(first["client"], last["client"]),
    }
    known = [v for v in (out["server"], out["client"], *workers.values()) if v is not None]
    out["total"] = round(sum(known), 1)
    out["machine"] = round(elapsed * (os.cpu_count() or 1), 1)
    return out


def sample_rss(pid: int) -> dict:
    out = {"server": rss_mb(pid), "workers": {}}
    for c in children(pid):
        try:
            out["workers"][c] = rss_mb(c)
        except (OSError, RuntimeError):
            pass
    return out


# -- requests --------------------------------------------------------------------------------------


def valid_requests(seed: int = 0) -> dict[str, list[bytes]]:
    """Valid request bodies per method, over every game."""
    from quansu.server.v1 import service_pb2 as pb

    sources = fuzz.base_sources(seed)
    views = [m for k, m in sources if k == "view"]
    records = [m for k, m in sources if k == "record" and len(m.moves) <= 40]
    out: dict[str, list[bytes]] = defaultdict(list)
    for i, v in enumerate(views):
        req = pb.SuggestRequest(view=v, budget=pb.Budget(iterations=100), seed=i)
        out["Suggest"].append(req.SerializeToString())
        out["SuggestStream"].append(
            pb.SuggestStreamRequest(
                request=pb.SuggestRequest(view=v, budget=pb.Budget(iterations=150)), interval_ms=50
            ).SerializeToString()
        )
        out["LegalMoves"].append(pb.LegalMovesRequest(view=v).SerializeToString())
    for r in records:
        out["Analyze"].append(
            pb.AnalyzeRequest(
                record=r,
                seats=[r.moves[0].seat],
                budget=pb.Budget(iterations=20),
                max_worlds=ANALYZE_WORLDS,
            ).SerializeToString()
        )
        out["LegalMoves"].append(pb.LegalMovesRequest(record=r).SerializeToString())
    out["DescribeGames"].append(pb.DescribeGamesRequest().SerializeToString())
    return dict(out)


def fill_requests(per_game: int, seed: int = 0) -> list[bytes]:
    """Suggest bodies (1,000 iterations) for ``per_game`` positions of each of :data:`FILL_GAMES`
    (4 players, a random number of random moves into a deal): deep searches of many different
    hands, which fill the workers' bounded caches (games/caches.py) far sooner than the soak's
    few positions do.  Interleaved by game."""
    from quansu.games import record as rec
    from quansu.games.registry import make
    from quansu.server import convert
    from quansu.server.v1 import service_pb2 as pb

    rng = random.Random(seed)
    out = []
    for i in range(per_game):
        for name in FILL_GAMES:
            game = make(name, 4)
            while True:
                state = game.new_initial_state(rng)
                for _ in range(rng.randint(0, 16)):
                    if state.is_terminal():
                        break
                    state.apply(rng.choice(state.legal_moves()))
                if not state.is_terminal() and len(state.legal_moves()) > 1:
                    break
            view = convert.record_message(rec.view_from_state(state, state.current_player))
            out.append(
                pb.SuggestRequest(
                    view=view, budget=pb.Budget(iterations=FILL_ITERATIONS), seed=i
                ).SerializeToString()
            )
    return out


#: The games whose caches grow with the hands searched (Sâm lốc's hand splits, Phỏm's meld
#: arrangements, Tiến lên's plans and splits, the heuristics' smaller ones; the soak's uniform
#: evaluator makes no network answers or move descriptions), and the budget of each ``--fill``
#: search.
FILL_GAMES = ("samloc", "phom", "tienlen", "tan")
FILL_ITERATIONS = 1000


def fill(target: str, bodies: list[bytes], threads: int) -> dict:
    """Send ``bodies`` (Suggest) with ``threads`` calls in flight; seconds taken and outcomes."""
    todo = list(bodies)
    lock = threading.Lock()
    codes: Counter = Counter()

    def run():
        with grpc.insecure_channel(target) as channel:
            while True:
                with lock:
                    if not todo:
                        return
                    body = todo.pop()
                code, _, _, _ = fuzz.call(channel, method_path("Suggest"), body, fuzz.HANG_S)
                with lock:
                    codes[code.name] += 1

    t0 = time.monotonic()
    ts = [threading.Thread(target=run, daemon=True) for _ in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return {"calls": len(bodies), "seconds": round(time.monotonic() - t0, 1), "codes": dict(codes)}


#: The soak's Analyze calls judge each decision on at most this many worlds.  With the server's
#: default (512 and more) the 5 % of calls that are Analyze took about 85 % of the workers' time,
#: so OK/s counted mostly how many cheap calls fitted beside them, and moved with the mix of a
#: closed loop of clients rather than with the server (16 against 64 clients: the same worker
#: CPU, 16.7 against 13.9 OK/s).  At 32 worlds an Analyze call costs about what a Suggest does.
ANALYZE_WORLDS = 32

#: A refused client's wait (before the jitter) under ``--backoff-ms server`` when the refusal
#: carried no pushback (the HTTP gateway's or an older server's).
FALLBACK_BACKOFF_S = 0.05

#: The calls that need a worker (counted in ``work_ok_per_s``).
WORK = ("Suggest", "SuggestStream", "Analyze", "LegalMoves")

#: The soak's mix of valid calls (weights).
MIX = {
    "Suggest": 30,
    "SuggestStream": 10,
    "Analyze": 5,
    "LegalMoves": 30,
    "DescribeGames": 5,
    "Health": 20,
}


def method_path(name: str) -> str:
    return fuzz.HEALTH if name == "Health" else fuzz.SERVICE + name


# -- soak ------------------------------------------------------------------------------------------


def soak(args) -> dict:
    proc, target = start_server(args.workers, args.queue)
    requests = valid_requests(args.seed)
    sources = fuzz.base_sources(args.seed + 1)
    names = list(MIX)
    weights = [MIX[n] for n in names]
    lock = threading.Lock()
    lat: dict[str, list[float]] = defaultdict(list)
    codes: Counter = Counter()
    refusal_ms: list[float] = []
    problems: Counter = Counter()
    ok_valid = 0
    pushback_ms: list[float] = []
    no_pushback = 0
    stop = threading.Event()
    samples: list[tuple[float, dict]] = []
    from quansu.server.errors import retry_after_s

    def client(k: int):
        nonlocal ok_valid, no_pushback
        rng = random.Random(args.seed * 1000 + k)
        ch = fuzz.RandomChooser(rng)
        with grpc.insecure_channel(target) as channel:
            while not stop.is_set():
                if rng.random() < args.malformed:
                    method, body = fuzz.malformed_case(ch, sources)
                    name, valid = "malformed", False
                else:
                    name = rng.choices(names, weights)[0]
                    method = method_path(name)
                    body = b"" if name == "Health" else rng.choice(requests[name])
                    valid = True
                t0 = time.perf_counter()
                code, details, responses, error = fuzz.call(channel, method, body, fuzz.HANG_S)
                ms = (time.perf_counter() - t0) * 1000
                found = fuzz.problems(method, code, details, responses, error, False)
                with lock:
                    codes[(name, code.name)] += 1
                    for p in found:
                        problems[f"{name}: {p[:100]}"] += 1
                    if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
                        refusal_ms.append(ms)
                    elif code == grpc.StatusCode.OK:
                        lat[name].append(ms)
                        if valid and name in WORK:
                            ok_valid += 1
                if code != grpc.StatusCode.RESOURCE_EXHAUSTED:
                    continue
                pushback = retry_after_s(error) if error is not None else None
                with lock:
                    if pushback is None:
                        no_pushback += 1
                    else:
                        pushback_ms.append(pushback * 1000)
                if args.backoff_ms == "server":
                    wait = pushback if pushback is not None else FALLBACK_BACKOFF_S
                else:
                    wait = args.backoff_ms / 1000
                if wait:
                    stop.wait(wait * rng.uniform(0.5, 1.5))

    threads = [threading.Thread(target=client, args=(k,), daemon=True) for k in range(args.clients)]
    filled = None
    if args.fill:
        rss_before = sample_rss(proc.pid)
        filled = fill(target, fill_requests(args.fill, args.seed), args.workers)
        rss_after = sample_rss(proc.pid)
        filled["worker_rss_mb"] = {
            str(p): [round(rss_before["workers"].get(p, 0), 1), round(mb, 1)]
            for p, mb in rss_after["workers"].items()
        }
    t_start = time.monotonic()
    cpu_start = sample_cpu(proc.pid)
    for t in threads:
        t.start()
    try:
        while time.monotonic() - t_start < args.seconds:
            samples.append((time.monotonic() - t_start, sample_rss(proc.pid)))
            time.sleep(args.sample)
        stop.set()
        for t in threads:
            t.join(fuzz.HANG_S + 10)
        elapsed = time.monotonic() - t_start
        cpu_end = sample_cpu(proc.pid)
        samples.append((elapsed, sample_rss(proc.pid)))
    finally:
        stop.set()
        stop_server(proc)
    warm = next((s for t, s in samples if t >= args.warmup), samples[0][1])
    end = samples[-1][1]
    workers = {pid: (warm["workers"].get(pid), mb) for pid, mb in end["workers"].items()}
    return {
        "phase": "soak",
        "clients": args.clients,
        "seconds": round(elapsed, 1),
        "fill": filled,
        "workers": args.workers,
        "queue": args.queue,
        "malformed": args.malformed,
        "calls": sum(codes.values()),
        "work_ok_per_s": round(ok_valid / elapsed, 1),
        "refused": len(refusal_ms),
        "refusal_ms_p50": round(pct(refusal_ms, 50), 1),
        "refusal_ms_p99": round(pct(refusal_ms, 99), 1),
        "backoff": (
            "server pushback x U(0.5, 1.5)"
            if args.backoff_ms == "server"
            else f"{args.backoff_ms:g} ms x U(0.5, 1.5)"
        ),
        "pushback_ms_mean": round(statistics.fmean(pushback_ms), 1) if pushback_ms else None,
        "pushback_ms_p50": round(pct(pushback_ms, 50), 1) if pushback_ms else None,
        "pushback_ms_max": round(max(pushback_ms), 1) if pushback_ms else None,
        "refusals_without_pushback": no_pushback,
        "cpu_s": cpu_split(cpu_start, cpu_end, elapsed),
        "latency_ms": {
            n: {"p50": round(pct(v, 50), 1), "p99": round(pct(v, 99), 1), "n": len(v)}
            for n, v in sorted(lat.items())
        },
        "codes": {f"{n} {c}": k for (n, c), k in sorted(codes.items())},
        "problems": dict(problems),
        "server_rss_mb": {
            "start": round(samples[0][1]["server"], 1),
            "after_warmup": round(warm["server"], 1),
            "end": round(end["server"], 1),
            "growth_after_warmup_pct": round(100 * (end["server"] / warm["server"] - 1), 1),
        },
        "worker_rss_mb": {
            str(pid): [None if a is None else round(a, 1), round(b, 1)]
            for pid, (a, b) in workers.items()
        },
        # the RSS over time (about 20 points: seconds, server MB, workers' MB by pid), to see
        # whether growth after the warm-up is caches filling up to their bounds or a leak
        "rss_series": [
            [
                round(t, 1),
                round(s["server"], 1),
                {str(p): round(mb, 1) for p, mb in s["workers"].items()},
            ]
            for t, s in samples[:: max(1, len(samples) // 20)]
        ],
    }


# -- flood -----------------------------------------------------------------------------------------


def big_invalid_requests(limit_bytes: int) -> list[tuple[str, bytes]]:
    from quansu.games.registry import make
    from quansu.server.v1 import service_pb2 as pb

    sources = fuzz.base_sources(0)
    view = next(m for k, m in sources if k == "view" and m.game == "tienlen")
    out = []
    # more moves than any game can have, and as many bytes as the limit allows
    big = pb.LegalMovesRequest(view=view)
    ev = big.view.moves[0]
    while big.ByteSize() < limit_bytes - 64:
        big.view.moves.add().CopyFrom(ev)
    out.append((fuzz.SERVICE + "LegalMoves", big.SerializeToString()))
    sug = pb.SuggestRequest(view=big.view, budget=pb.Budget(iterations=100))
    out.append((fuzz.SERVICE + "Suggest", sug.SerializeToString()))
    # a Tấn record of the most moves a game can have, the last one impossible: replayed in a
    # worker before it is refused
    record = next(m for k, m in sources if k == "record" and m.game == "tan" and m.players == 4)
    cap = make("tan", 4).max_moves
    rec = pb.LegalMovesRequest(record=record)
    moves = list(record.moves)
    while len(rec.record.moves) < cap - 1:
        rec.record.moves.add().CopyFrom(moves[len(rec.record.moves) % len(moves)])
    rec.record.moves.add(seat=0, move="attack 3S 3S")
    if rec.ByteSize() < limit_bytes:
        out.append((fuzz.SERVICE + "LegalMoves", rec.SerializeToString()))
    return out


def _flood_process(target: str, bad: list, threads: int, seconds: float, out) -> None:
    """A process of ``threads`` flooding clients (kept apart from the measuring client, whose
    latency would otherwise include this process's GIL)."""
    stop = threading.Event()
    lock = threading.Lock()
    codes: Counter = Counter()

    def flooder(k: int):
        rng = random.Random(k)
        with grpc.insecure_channel(target) as channel:
            while not stop.is_set():
                method, body = rng.choice(bad)
                code, *_ = fuzz.call(channel, method, body, fuzz.HANG_S)
                with lock:
                    codes[code.name] += 1

    ts = [threading.Thread(target=flooder, args=(k,), daemon=True) for k in range(threads)]
    for t in ts:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in ts:
        t.join(fuzz.HANG_S)
    out.put(dict(codes))


def flood(args) -> dict:
    import multiprocessing as mp

    proc, target = start_server(args.workers, args.queue)
    from quansu.server.engine import Limits

    bad = big_invalid_requests(Limits().max_request_bytes)
    requests = valid_requests(args.seed)
    stop = threading.Event()
    lock = threading.Lock()
    bad_codes: Counter = Counter()
    health_ms: list[float] = []
    health_codes: Counter = Counter()
    valid_codes: Counter = Counter()

    def prober():
        with grpc.insecure_channel(target) as channel:
            while not stop.is_set():
                t0 = time.perf_counter()
                code, *_ = fuzz.call(channel, fuzz.HEALTH, b"", 5.0)
                with lock:
                    health_ms.append((time.perf_counter() - t0) * 1000)
                    health_codes[code.name] += 1
                time.sleep(0.05)

    def valid():
        with grpc.insecure_channel(target) as channel:
            while not stop.is_set():
                body = random.choice(requests["Suggest"])
                code, *_ = fuzz.call(channel, fuzz.SERVICE + "Suggest", body, 30.0)
                with lock:
                    valid_codes[code.name] += 1

    ctx = mp.get_context("spawn")
    results = ctx.Queue()
    per = [args.flood // 2 + (args.flood % 2), args.flood // 2]
    floods = [
        ctx.Process(target=_flood_process, args=(target, bad, n, args.seconds, results))
        for n in per
        if n
    ]
    threads = [
        threading.Thread(target=prober, daemon=True),
        threading.Thread(target=valid, daemon=True),
    ]
    try:
        for f in floods:
            f.start()
        time.sleep(3.0)  # the flooding processes start (imports) before measuring
        for t in threads:
            t.start()
        time.sleep(args.seconds - 3.0)
        stop.set()
        for t in threads:
            t.join(60)
        for _ in floods:
            bad_codes.update(results.get(timeout=fuzz.HANG_S + 30))
        for f in floods:
            f.join(30)
    finally:
        stop_server(proc)
    return {
        "phase": "flood",
        "flood_clients": args.flood,
        "seconds": args.seconds,
        "workers": args.workers,
        "invalid_bodies_bytes": [len(b) for _, b in bad],
        "invalid_codes": dict(bad_codes),
        "health_ms_max": round(max(health_ms), 1),
        "health_ms_p99": round(pct(health_ms, 99), 1),
        "health_checks": len(health_ms),
        "health_codes": dict(health_codes),
        "valid_suggest_codes": dict(valid_codes),
    }


# -- deadline --------------------------------------------------------------------------------------


def deadline(args) -> dict:
    from quansu.server.v1 import service_pb2 as pb

    proc, target = start_server(args.workers, args.queue)
    views = [m for k, m in fuzz.base_sources(args.seed) if k == "view"]
    codes: Counter = Counter()
    stopped: Counter = Counter()
    lat: list[float] = []
    try:
        with grpc.insecure_channel(target) as channel:
            stub = channel.unary_unary(
                fuzz.SERVICE + "Suggest",
                request_serializer=pb.SuggestRequest.SerializeToString,
                response_deserializer=pb.SuggestResponse.FromString,
            )
            stub(pb.SuggestRequest(view=views[0], budget=pb.Budget(iterations=5)), timeout=30)
            for i in range(args.calls):
                req = pb.SuggestRequest(
                    view=views[i % len(views)],
                    budget=pb.Budget(iterations=50_000, milliseconds=60_000),
                )
                t0 = time.perf_counter()
                try:
                    resp = stub(req, timeout=args.deadline_ms / 1000)
                    codes["OK"] += 1
                    stopped[resp.stats.stopped_by] += 1
                except grpc.RpcError as e:
                    codes[e.code().name] += 1
                lat.append((time.perf_counter() - t0) * 1000)
    finally:
        stop_server(proc)
    return {
        "phase": "deadline",
        "deadline_ms": args.deadline_ms,
        "calls": args.calls,
        "codes": dict(codes),
        "ok_share": round(codes["OK"] / args.calls, 3),
        "stopped_by": dict(stopped),
        "latency_ms_p50": round(pct(lat, 50), 1),
        "latency_ms_max": round(max(lat), 1),
    }


# -- heal ------------------------------------------------------------------------------------------


def heal(args) -> dict:
    from functools import partial

    from quansu.server.app import start_worker_engine
    from quansu.server.engine import Limits
    from quansu.server.pool import WorkerPool

    out = {"phase": "heal", "workers": args.workers}
    for spares in (1, 0):
        pool = WorkerPool(
            partial(start_worker_engine, Limits(), True, ()), workers=args.workers, spares=spares
        )
        times = []
        try:
            for k in range(args.kills):
                while pool.stats().spares < spares:
                    time.sleep(0.05)
                before = pool.stats().restarts
                victim = pool._free[0]
                t0 = time.monotonic()
                os.kill(victim.proc.pid, signal.SIGKILL)
                while pool.stats().restarts == before or pool.stats().alive < args.workers:
                    time.sleep(0.002)
                times.append(time.monotonic() - t0)
        finally:
            pool.close()
        out[f"spares_{spares}_replaced_s"] = {
            "max": round(max(times), 3),
            "mean": round(statistics.mean(times), 3),
        }
    return out


def backoff_arg(text: str) -> str | float:
    """``--backoff-ms``: ``"server"`` or a number of milliseconds >= 0."""
    if text.strip().lower() == "server":
        return "server"
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected 'server' or milliseconds, got {text!r}")
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected milliseconds >= 0, got {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phase", choices=("soak", "flood", "deadline", "heal"), default="soak")
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--queue", type=int, default=None, help="default: 4 per worker")
    ap.add_argument("--malformed", type=float, default=0.1)
    ap.add_argument(
        "--backoff-ms",
        type=backoff_arg,
        default="server",
        help="how long a refused client waits before its next call, times a random "
        "factor in 0.5..1.5: 'server' (default): the server's retry pushback; "
        "a number: that many milliseconds (0: no wait)",
    )
    ap.add_argument("--sample", type=float, default=5.0, help="seconds between RSS samples")
    ap.add_argument("--warmup", type=float, default=30.0)
    ap.add_argument(
        "--fill",
        type=int,
        default=0,
        help="before the soak (not counted in it): this many Suggest calls at 1,000 "
        "iterations per game of FILL_GAMES, on as many different positions, "
        "--workers at a time, to fill the workers' caches",
    )
    ap.add_argument("--flood", type=int, default=30)
    ap.add_argument("--deadline-ms", type=float, default=50.0)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)
    if args.queue is None:
        args.queue = 4 * args.workers
    out = {"soak": soak, "flood": flood, "deadline": deadline, "heal": heal}[args.phase](args)
    text = json.dumps(out, indent=1)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
