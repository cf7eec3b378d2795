"""Benchmark of the gRPC service (issue 8's figures) and of its HTTP/JSON gateway (issue 24's).

    python bench/service.py [--calls 48] [--iterations 200] [--clients 8] [--workers 1 2]
    python bench/service.py --gateway [--gateway-calls 300] [--gateway-iterations 10]

For each worker count it starts ``quansu serve`` (uniform evaluator) in a separate process on a
loopback port and measures, with Tiến lên 4-player views where the viewing seat is to act:

* Suggest at a fixed iteration budget, sequential (one client) and with ``--clients`` concurrent
  clients: latency p50 / p99 (ms) and calls per second;
* the service's overhead per call: sequential Suggest latency minus the same requests (same
  seeds, hence the same search) run in this process with :class:`server.engine.Engine`, and the
  same at 1 iteration (best of 3 each way), where the search is negligible;
* LegalMoves: sequential latency p50 / p99 and calls per second.

Then the speedup of calls/s with the most workers over one worker.  The concurrent phase runs
``--repeat`` rounds and reports the fastest, since other load on a shared machine only slows a
round down.  Figures depend on the machine: run it on an otherwise idle machine (2 cores here).

``--gateway`` measures instead the HTTP/JSON gateway's overhead over gRPC (docs/api.md,
"HTTP/JSON"): one ``quansu serve --http-port`` (one worker, uniform evaluator), one client of
each kind on a kept-alive connection (a gRPC channel; ``http.client`` with the JSON body made
beforehand, as the gRPC request message is), and the **same** Suggest requests (same views,
seeds and iteration budget, hence the same search) sent through both, interleaved call by call
with the order alternating, so that both see the same machine load.  It reports the latency
p50 of each, the difference of the p50s and the p50 of the per-pair differences (target: at
most 3 ms).  Every HTTP answer is checked to rank the same moves as its gRPC twin.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from google.protobuf import json_format  # noqa: E402

from quansu.client import Client  # noqa: E402
from quansu.games import record as rec  # noqa: E402
from quansu.server.engine import build_engine  # noqa: E402
from tests.helpers.service import view_to_act  # noqa: E402


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q / 100 * (len(xs) - 1))))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(workers: int, http_port: int | None = None) -> tuple[subprocess.Popen, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    http = ["--http-port", str(http_port)] if http_port is not None else []
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
            "64",
            "--uniform",
            "--log-level",
            "WARNING",
            *http,
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
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1000.0


def concurrent(target: str, requests: list, clients: int) -> tuple[list[float], float]:
    """Run ``requests`` from ``clients`` threads (one channel each); (latencies ms, wall s)."""
    lat: list[float] = []
    lock = threading.Lock()
    chunks = [requests[i::clients] for i in range(clients)]
    barrier = threading.Barrier(clients + 1)

    def work(chunk):
        with Client(target, timeout=120) as c:
            c.describe_games()  # connect before the clock starts
            barrier.wait()
            for req in chunk:
                ms = timed(lambda: c.stub.Suggest(req, timeout=120))
                with lock:
                    lat.append(ms)

    threads = [threading.Thread(target=work, args=(ch,)) for ch in chunks]
    for t in threads:
        t.start()
    barrier.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    return lat, time.perf_counter() - t0


def gateway_overhead(calls: int, iterations: int, views: int = 24) -> dict:
    """The same Suggest through gRPC and through the HTTP gateway, interleaved: latencies (ms)
    of each way, their p50s and the overhead (HTTP minus gRPC)."""
    vs = [view_to_act("tienlen", 4, seed=s, moves=4) for s in range(views)]
    requests = [
        Client.suggest_request(vs[i % views], iterations=iterations, seed=i) for i in range(calls)
    ]
    # the JSON body of each request, made beforehand as the gRPC message is
    bodies = [
        json.dumps(json_format.MessageToDict(r, preserving_proto_field_name=True)).encode()
        for r in requests
    ]
    headers = {"Content-Type": "application/json"}
    http_port = free_port()
    proc, target = start_server(1, http_port=http_port)
    conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=120)

    def via_http(body: bytes) -> dict:
        conn.request("POST", "/v1/suggest", body=body, headers=headers)
        resp = conn.getresponse()
        data = resp.read()
        if resp.status != 200:
            raise RuntimeError(f"HTTP {resp.status}: {data[:300]!r}")
        return json.loads(data)

    try:
        with Client(target, timeout=120) as c:
            for _ in range(2):  # warm up both ways (connections, the worker's caches)
                for r, b in zip(requests[:views], bodies[:views]):
                    c.stub.Suggest(r)
                    via_http(b)
            grpc_ms, http_ms = [], []
            for i, (r, b) in enumerate(zip(requests, bodies)):
                box: dict = {}
                ways = [
                    ("grpc", lambda r=r: box.__setitem__("grpc", c.stub.Suggest(r))),
                    ("http", lambda b=b: box.__setitem__("http", via_http(b))),
                ]
                for name, fn in ways if i % 2 == 0 else ways[::-1]:
                    (grpc_ms if name == "grpc" else http_ms).append(timed(fn))
                same = [m.move.text for m in box["grpc"].moves]
                if [m["move"]["text"] for m in box["http"].get("moves", [])] != same:
                    raise RuntimeError(f"call {i}: the gateway ranked other moves than gRPC")
    finally:
        conn.close()
        stop_server(proc)
    diffs = [h - g for h, g in zip(http_ms, grpc_ms)]
    return {
        "calls": calls,
        "iterations": iterations,
        "grpc_p50_ms": pct(grpc_ms, 50),
        "http_p50_ms": pct(http_ms, 50),
        "grpc_p90_ms": pct(grpc_ms, 90),
        "http_p90_ms": pct(http_ms, 90),
        "overhead_p50_ms": pct(http_ms, 50) - pct(grpc_ms, 50),
        "paired_overhead_p50_ms": pct(diffs, 50),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=48, help="Suggest calls per measurement")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--legal-calls", type=int, default=300)
    ap.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="concurrent rounds per worker count; the fastest is reported (a shared "
        "machine's other load only ever slows a round down)",
    )
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument(
        "--gateway",
        action="store_true",
        help="measure only the HTTP/JSON gateway's overhead over gRPC",
    )
    ap.add_argument(
        "--gateway-calls", type=int, default=300, help="Suggest calls each way for --gateway"
    )
    ap.add_argument(
        "--gateway-iterations",
        type=int,
        default=10,
        help="search iterations per call for --gateway (the same search both ways)",
    )
    args = ap.parse_args(argv)

    if args.gateway:
        g = gateway_overhead(args.gateway_calls, args.gateway_iterations)
        print(
            f"Suggest ({g['iterations']} iterations) x {g['calls']} each way, interleaved: "
            f"gRPC p50 {g['grpc_p50_ms']:.2f} ms (p90 {g['grpc_p90_ms']:.2f}), HTTP gateway "
            f"p50 {g['http_p50_ms']:.2f} ms (p90 {g['http_p90_ms']:.2f}); overhead: p50 "
            f"difference {g['overhead_p50_ms']:+.2f} ms, per-pair p50 "
            f"{g['paired_overhead_p50_ms']:+.2f} ms (target <= 3 ms)"
        )
        if args.json:
            Path(args.json).write_text(json.dumps({"gateway": g}, indent=2))
        return 0

    views = [view_to_act("tienlen", 4, seed=s, moves=4) for s in range(args.calls)]
    requests = [
        Client.suggest_request(v, iterations=args.iterations, seed=i) for i, v in enumerate(views)
    ]
    legal_reqs = [
        Client.legal_moves_request(rec.view_at(long, s % 4, 8))
        for s, long in enumerate(
            [
                rec.record_from_state(
                    __import__("tests.helpers.service", fromlist=["played_state"]).played_state(
                        "tienlen", 4, 100 + k
                    )
                )
                for k in range(10)
            ]
        )
        if len(long.get("moves", [])) >= 8
    ]

    tiny = [Client.suggest_request(v, iterations=1, seed=i) for i, v in enumerate(views)]
    engine = build_engine(uniform=True)
    engine.suggest(requests[0])  # warm up
    inproc = [timed(lambda r=r: engine.suggest(r)) for r in requests]
    inproc_tiny = [min(timed(lambda r=r: engine.suggest(r)) for _ in range(3)) for r in tiny]
    figures: dict = {
        "iterations": args.iterations,
        "calls": args.calls,
        "clients": args.clients,
        "in_process_ms_mean": statistics.mean(inproc),
        "workers": {},
    }
    print(
        f"in process: Suggest {args.iterations} iterations: mean {statistics.mean(inproc):.1f} ms, "
        f"p50 {pct(inproc, 50):.1f} ms"
    )

    for w in args.workers:
        proc, target = start_server(w)
        try:
            with Client(target, timeout=120) as c:
                c.stub.Suggest(requests[0])
                seq = [timed(lambda r=r: c.stub.Suggest(r)) for r in requests]
                overhead = [a - b for a, b in zip(seq, inproc)]
                # the overhead alone: 1-iteration searches, best of 3 each way
                tiny_seq = [
                    min(timed(lambda r=r: c.stub.Suggest(r)) for _ in range(3)) for r in tiny
                ]
                overhead_tiny = [a - b for a, b in zip(tiny_seq, inproc_tiny)]
                legal = [
                    timed(lambda r=r: c.stub.LegalMoves(r))
                    for r in legal_reqs
                    for _ in range(max(1, args.legal_calls // max(1, len(legal_reqs))))
                ]
            rounds = [concurrent(target, requests, args.clients) for _ in range(args.repeat)]
            lat, wall = min(rounds, key=lambda r: r[1])  # the least disturbed round
        finally:
            stop_server(proc)
        f = {
            "sequential_p50_ms": pct(seq, 50),
            "sequential_p99_ms": pct(seq, 99),
            "sequential_calls_s": len(seq) / (sum(seq) / 1000.0),
            "overhead_ms_mean": statistics.mean(overhead),
            "overhead_ms_p50": pct(overhead, 50),
            "overhead_1_iteration_ms_p50": pct(overhead_tiny, 50),
            "concurrent_p50_ms": pct(lat, 50),
            "concurrent_p99_ms": pct(lat, 99),
            "concurrent_calls_s": len(lat) / wall,
            "legal_p50_ms": pct(legal, 50),
            "legal_p99_ms": pct(legal, 99),
            "legal_calls_s": len(legal) / (sum(legal) / 1000.0),
        }
        figures["workers"][w] = f
        print(
            f"{w} worker(s): sequential p50 {f['sequential_p50_ms']:.1f} ms, p99 "
            f"{f['sequential_p99_ms']:.1f} ms, {f['sequential_calls_s']:.1f} calls/s; overhead "
            f"mean {f['overhead_ms_mean']:.2f} ms (p50 {f['overhead_ms_p50']:.2f}; at 1 iteration "
            f"p50 {f['overhead_1_iteration_ms_p50']:.2f}); "
            f"{args.clients} clients: p50 {f['concurrent_p50_ms']:.1f} ms, p99 "
            f"{f['concurrent_p99_ms']:.1f} ms, {f['concurrent_calls_s']:.1f} calls/s; "
            f"LegalMoves p50 {f['legal_p50_ms']:.2f} ms, p99 {f['legal_p99_ms']:.2f} ms, "
            f"{f['legal_calls_s']:.0f} calls/s"
        )
    ws = sorted(figures["workers"])
    if len(ws) > 1:
        speedup = (
            figures["workers"][ws[-1]]["concurrent_calls_s"]
            / figures["workers"][ws[0]]["concurrent_calls_s"]
        )
        figures["speedup"] = speedup
        print(f"speedup of {ws[-1]} workers over {ws[0]} ({args.clients} clients): {speedup:.2f}x")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
