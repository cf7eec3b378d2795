"""Minimal reproducer of grpc-python's memory growth on request bodies that do not parse.

    python -m quansu.bench.grpc_leak --bodies 20000                  # stock health servicer
    python -m quansu.bench.grpc_leak --bodies 20000 --raw            # same servicer, raw bytes
    python -m quansu.bench.grpc_leak --bodies 20000 --server quansu  # the quansu server

A server process runs nothing but the standard health service (``grpc_health``'s
``HealthServicer``, registered the usual way: the generated handler deserializes the request
with ``HealthCheckRequest.FromString`` before the servicer runs).  A client sends ``--bodies``
request bodies that are not valid protobuf (``b"\\xff" * 8``: a field tag that does not parse)
to ``/grpc.health.v1.Health/Check`` on one channel and then reads the server's resident memory
(``VmRSS`` of ``/proc/PID/status``) before, after, and after a few seconds' rest.

grpc-python (seen with 1.85) answers every such call INTERNAL "Exception deserializing
request!", logs an ERROR with a traceback, and keeps about 16 KB of server memory per call for
good (no garbage collection gives it back).  With ``--raw`` the same health servicer is
registered with no request deserializer (``request_deserializer=None``: the handler gets the
bytes) and parses them itself, answering INVALID_ARGUMENT: the memory stays flat.  That is what
the quansu server does for every method (``server/servicer.py``: ``raw_handlers``);
``--server quansu`` measures it (every quansu RPC and health, round robin, no token).

Prints one JSON line: the server's RSS in MB before, after the bodies and after the rest, the
growth per body in KB, and the status codes the client saw.
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing as mp
import os
import sys
import time
from collections import Counter
from concurrent import futures

import grpc

GARBAGE = b"\xff" * 8

#: quansu's methods with the kind of call (unary or server streaming).
QUANSU_METHODS = (
    ("/grpc.health.v1.Health/Check", False),
    ("/quansu.v1.QuansuService/Suggest", False),
    ("/quansu.v1.QuansuService/SuggestStream", True),
    ("/quansu.v1.QuansuService/Analyze", True),
    ("/quansu.v1.QuansuService/LegalMoves", False),
    ("/quansu.v1.QuansuService/DescribeGames", False),
)


def rss_mb(pid: int) -> float:
    """Resident set size of process ``pid`` in MB (Linux ``/proc``)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    raise RuntimeError(f"no VmRSS for process {pid}")


def _raw_health_handler():
    """The stock health servicer behind a handler that receives the raw bytes."""
    from google.protobuf.message import DecodeError
    from grpc_health.v1 import health, health_pb2

    servicer = health.HealthServicer()
    servicer.set("", health_pb2.HealthCheckResponse.SERVING)

    def check(body: bytes, context):
        try:
            request = health_pb2.HealthCheckRequest.FromString(body)
        except DecodeError:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "request: not a HealthCheckRequest")
        return servicer.Check(request, context)

    handler = grpc.unary_unary_rpc_method_handler(
        check,
        request_deserializer=None,
        response_serializer=health_pb2.HealthCheckResponse.SerializeToString,
    )
    return grpc.method_handlers_generic_handler("grpc.health.v1.Health", {"Check": handler})


def _bare_server(raw: bool, conn) -> None:
    """Child process: a server with health only; sends its port, runs until killed."""
    from grpc_health.v1 import health, health_pb2, health_pb2_grpc

    logging.basicConfig(level=logging.ERROR, stream=open(os.devnull, "w"))
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    if raw:
        server.add_generic_rpc_handlers((_raw_health_handler(),))
    else:
        servicer = health.HealthServicer()
        servicer.set("", health_pb2.HealthCheckResponse.SERVING)
        health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    conn.send(port)
    server.wait_for_termination()


def _quansu_server(conn) -> None:
    from quansu.server.app import QuansuServer, ServerConfig

    logging.basicConfig(level=logging.ERROR, stream=open(os.devnull, "w"))
    server = QuansuServer(ServerConfig(host="127.0.0.1", port=0, workers=1, uniform=True))
    conn.send(server.start())
    server.wait()


def send_garbage(target: str, bodies: int, methods, timeout: float = 10.0) -> Counter:
    """Send ``bodies`` garbage bodies round robin over ``methods``; count the status codes."""
    codes: Counter = Counter()
    with grpc.insecure_channel(target) as ch:
        calls = [
            (ch.unary_stream(m) if streaming else ch.unary_unary(m), streaming)
            for m, streaming in methods
        ]
        for i in range(bodies):
            call, streaming = calls[i % len(calls)]
            try:
                if streaming:
                    for _ in call(GARBAGE, timeout=timeout):
                        pass
                else:
                    call(GARBAGE, timeout=timeout)
                codes["OK"] += 1
            except grpc.RpcError as e:
                codes[e.code().name] += 1
    return codes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bodies", type=int, default=20_000)
    ap.add_argument(
        "--raw",
        action="store_true",
        help="register the health servicer with request_deserializer=None",
    )
    ap.add_argument("--server", choices=("bare", "quansu"), default="bare")
    ap.add_argument("--rest", type=float, default=3.0, help="seconds to wait before the last RSS")
    args = ap.parse_args(argv)

    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe()
    if args.server == "bare":
        proc = ctx.Process(target=_bare_server, args=(args.raw, child), daemon=True)
        methods = QUANSU_METHODS[:1]
    else:
        proc = ctx.Process(target=_quansu_server, args=(child,))  # it starts workers
        methods = QUANSU_METHODS
    proc.start()
    if not parent.poll(300):
        proc.kill()
        raise SystemExit("the server did not start")
    target = f"127.0.0.1:{parent.recv()}"
    try:
        send_garbage(target, 200, methods)  # warm up: first calls allocate for good
        before = rss_mb(proc.pid)
        t0 = time.monotonic()
        codes = send_garbage(target, args.bodies, methods)
        seconds = time.monotonic() - t0
        after = rss_mb(proc.pid)
        time.sleep(args.rest)
        rested = rss_mb(proc.pid)
    finally:
        proc.kill()
        proc.join(10)
    out = {
        "server": args.server
        if args.server == "quansu"
        else ("bare-raw" if args.raw else "bare-stock"),
        "bodies": args.bodies,
        "seconds": round(seconds, 1),
        "rss_before_mb": round(before, 1),
        "rss_after_mb": round(after, 1),
        "rss_rested_mb": round(rested, 1),
        "growth_kb_per_body": round((rested - before) * 1024 / max(1, args.bodies), 2),
        "codes": dict(codes),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
