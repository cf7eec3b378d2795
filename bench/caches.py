"""Memory cost of one entry of each sized cache (games/caches.py), measured.

    python -m quansu.bench.caches [--entries 20000]

For each cache, fills it with ``--entries`` entries of the kind a search makes (positions of
random games: Tiến lên network answers, Tiến lên and Phỏm encoder move descriptions, Phỏm meld
arrangements of random hands, Sâm lốc hand splits of random hands) and reports the bytes
``tracemalloc`` sees per entry, next to the cost ``games/caches.py`` documents.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tracemalloc

from quansu.games.caches import CACHES, cache_size


def _measure(fill) -> tuple[int, float]:
    """(entries added, bytes per entry) of ``fill()``, which returns the entries it added."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    n = fill()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return n, (after - before) / max(1, n)


def evaluator(entries: int) -> tuple[int, float]:
    from quansu.games.registry import make
    from quansu.models.evaluator import NetworkEvaluator

    game = make("tienlen", 4)
    ev = NetworkEvaluator(game, cache_size=entries + 10)
    rng = random.Random(0)
    states = []
    while len(states) < entries:
        st = game.new_initial_state(rng)
        while not st.is_terminal() and len(states) < entries:
            states.append(st.clone())
            st.apply(rng.choice(st.legal_moves()))
    ev.evaluate(states[:1], [states[0].legal_moves()], rng)  # the session, before measuring

    def fill():
        start = len(ev._cache)
        for i in range(0, len(states), 64):
            chunk = states[i:i + 64]
            ev.evaluate(chunk, [s.legal_moves() for s in chunk], rng)
        return len(ev._cache) - start

    return _measure(fill)


def encoder_moves(entries: int) -> tuple[int, float]:
    from quansu.games.registry import make
    from quansu.models.encoders import encoder_for

    game = make("phom", 4)
    enc = encoder_for(game)
    rng = random.Random(1)
    moves = set()
    while len(moves) < entries:
        st = game.new_initial_state(rng)
        while not st.is_terminal() and len(moves) < entries:
            moves.update(st.legal_moves())
            st.apply(rng.choice(st.legal_moves()))
    moves = list(moves)[:entries]

    def fill():
        start = len(enc._desc)
        for m in moves:
            enc._describe(m)
        return len(enc._desc) - start

    return _measure(fill)


def phom_deadwood(entries: int) -> tuple[int, float]:
    from quansu.games.phom import rules

    rng = random.Random(2)
    hands = {(sum(1 << c for c in rng.sample(range(52), 10)), 0) for _ in range(entries)}

    def fill():
        start = rules.min_deadwood.cache_info().currsize
        for h, e in hands:
            rules.min_deadwood(h, e)
        return rules.min_deadwood.cache_info().currsize - start

    return _measure(fill)


def samloc_plans(entries: int) -> tuple[int, float]:
    from quansu.games.samloc import heuristic

    rng = random.Random(3)
    hands = [sum(1 << c for c in rng.sample(range(52), 10)) for _ in range(entries)]

    def fill():
        start = len(heuristic._plan_cache)
        for h in hands:
            heuristic.plan(h)
            if len(heuristic._plan_cache) >= entries:
                break
        return len(heuristic._plan_cache) - start

    return _measure(fill)


MEASURES = {"evaluator": evaluator, "encoder_moves": encoder_moves,
            "phom_deadwood": phom_deadwood, "samloc_plans": samloc_plans}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--entries", type=int, default=20_000)
    ap.add_argument("--only", choices=sorted(MEASURES))
    args = ap.parse_args(argv)
    out = {}
    for name, fn in MEASURES.items():
        if args.only and name != args.only:
            continue
        n, per = fn(args.entries)
        spec = CACHES[name]
        out[name] = {"entries": n, "bytes_per_entry": round(per),
                     "documented_bytes_per_entry": spec.bytes_per_entry,
                     "size": cache_size(name),
                     "full_mb": round(cache_size(name) * per / 1e6, 1)}
        print(name, out[name], file=sys.stderr)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
