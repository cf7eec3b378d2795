"""Where a worker's memory goes under the soak's traffic (issue 21): one worker's loop, traced.

    python -m quansu.bench.memtrace --fill 40 --warmup 60 --seconds 420

Runs what a server worker runs (:meth:`server.engine.Engine.run_job`, uniform evaluator, as
``bench/soak.py``'s server) in this process: first ``--fill`` deep Suggest calls per game
(``bench/soak.py``'s ``fill_requests``, which bring the bounded caches to their bounds), then
the soak's mix of valid calls for ``--warmup`` seconds, with ``--malformed`` of them replaced by
a mutated request (``bench/fuzz.py``; only those that reach a worker's method are run).  Then
``tracemalloc`` snapshots the Python allocations, the loop goes on for ``--seconds``, and a
second snapshot is compared with the first: the RSS and the traced memory at both ends and the
``--top`` largest differences by allocation site.  Growth that is all in the bounded caches
(games/caches.py and the heuristics' own) is the caches filling; anything else would be a leak.
The RSS may rise more than the traced memory: it keeps the high-water mark of the largest
request served (memory freed to Python's allocator is not always returned to the system).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import time
import tracemalloc
from pathlib import Path

from quansu.bench import fuzz, soak
from quansu.bench.grpc_leak import rss_mb

#: The worker's job kind of each method that reaches a worker, and the soak's weights.
KINDS = {
    "Suggest": "suggest",
    "SuggestStream": "suggest_stream",
    "Analyze": "analyze",
    "LegalMoves": "legal_moves",
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fill", type=int, default=40, help="fill calls per game (0: none)")
    ap.add_argument("--warmup", type=float, default=60.0, help="seconds before the first snapshot")
    ap.add_argument("--seconds", type=float, default=420.0, help="seconds between the snapshots")
    ap.add_argument("--malformed", type=float, default=0.3)
    ap.add_argument("--top", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)

    from quansu.server.engine import Engine
    from quansu.server.evaluators import EvaluatorSet

    engine = Engine(evaluators=EvaluatorSet(uniform=True))

    def run(kind: str, body: bytes) -> None:
        try:
            engine.run_job(kind, body, lambda m: None, lambda: False, 5.0)
        except Exception:  # a mutated request's refusal, as a worker sends it back
            pass

    t0 = time.monotonic()
    for body in soak.fill_requests(args.fill, args.seed):
        run("suggest", body)
    out: dict = {
        "fill_s": round(time.monotonic() - t0, 1),
        "rss_after_fill_mb": round(rss_mb(os.getpid()), 1),
    }
    requests = soak.valid_requests(args.seed)
    sources = fuzz.base_sources(args.seed + 1)
    names = list(KINDS)
    weights = [soak.MIX[n] for n in names]
    rng = random.Random(args.seed)
    chooser = fuzz.RandomChooser(rng)
    calls = 0

    def one() -> None:
        nonlocal calls
        if rng.random() < args.malformed:
            method, body = fuzz.malformed_case(chooser, sources)
            name = method.rsplit("/", 1)[1]
        else:
            name = rng.choices(names, weights)[0]
            body = rng.choice(requests[name])
        if name in KINDS:
            run(KINDS[name], body)
            calls += 1

    tracemalloc.start(5)
    try:  # tracing slows every allocation: never leave it on in the caller's process

        def run_then_snapshot(seconds: float):
            """Run the loop for ``seconds``; the snapshot then, and the figures at that point."""
            t0 = time.monotonic()
            while time.monotonic() - t0 < seconds:
                one()
            gc.collect()
            return tracemalloc.take_snapshot(), {
                "calls": calls,
                "rss_mb": round(rss_mb(os.getpid()), 1),
                "traced_mb": round(tracemalloc.get_traced_memory()[0] / 1e6, 1),
            }

        first, out["after_warmup"] = run_then_snapshot(args.warmup)
        second, out["end"] = run_then_snapshot(args.seconds)
        out["end"]["traced_peak_mb"] = round(tracemalloc.get_traced_memory()[1] / 1e6, 1)
    finally:
        tracemalloc.stop()
    out["largest_differences"] = [
        {
            "mb": round(d.size_diff / 1e6, 2),
            "objects": d.count_diff,
            "where": [f"{fr.filename}:{fr.lineno}" for fr in d.traceback][-3:],
        }
        for d in second.compare_to(first, "traceback")[: args.top]
    ]
    text = json.dumps(out, indent=1)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
