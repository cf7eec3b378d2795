"""Memory cost of one entry of each sized cache (games/caches.py), measured.

    python -m quansu.bench.caches [--entries 20000]

For each cache, fills it with ``--entries`` entries of the kind a search makes (positions of
random games: Tiến lên network answers, Tiến lên and Phỏm encoder move descriptions, Phỏm meld
arrangements of random hands, Sâm lốc hand splits of random hands) and reports the bytes
``tracemalloc`` sees per entry, next to the cost ``games/caches.py`` documents.  The heuristics'
own caches (whose entries only a search makes) are filled by searching random positions of
their game from empty (as many entries as those searches make, at most ``--entries``) and
measured by the deep size of the cache's dictionary per entry (every object it holds counted
once); the Sâm lốc sparring bot's by both ways.
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
            chunk = states[i : i + 64]
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


def _deep_size(obj, seen: set) -> int:
    """Bytes of ``obj`` and everything it holds (dicts, tuples, lists, sets, frozensets), each
    object counted once across calls sharing ``seen``."""
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        for k, v in obj.items():
            size += _deep_size(k, seen) + _deep_size(v, seen)
    elif isinstance(obj, (tuple, list, set, frozenset)):
        for x in obj:
            size += _deep_size(x, seen)
    return size


def _searched(game_name: str, cache, entries: int, keep: dict | None = None) -> tuple[int, float]:
    """Empty ``cache`` (a dict, or a function of the game giving one), search random positions
    of ``game_name`` (4 players, default rules, 0-24 random moves into a deal; 200 iterations,
    the game's playout, uniform priors) until it holds ``entries`` entries or 60 searches have
    run; its entries and deep size per entry.  ``keep``: entries put back after emptying it (a
    memo's base case)."""
    from quansu.games.registry import make
    from quansu.search.evaluator import UniformEvaluator
    from quansu.search.ismcts import SearchConfig, search

    game = make(game_name, 4)
    if callable(cache):
        cache = cache(game)
    cfg = SearchConfig(iterations=200, leaf_value="rollout", playout="game")
    rng = random.Random(4)
    cache.clear()
    cache.update(keep or {})
    for _ in range(60):
        if len(cache) >= entries:
            break
        st = game.new_initial_state(rng)
        for _ in range(rng.randint(0, 24)):
            if st.is_terminal():
                break
            st.apply(rng.choice(st.legal_moves()))
        if not st.is_terminal():
            search(st, cfg, UniformEvaluator(), seed=rng.randrange(1 << 30))
    n = len(cache)
    return n, _deep_size(cache, set()) / max(1, n)


def tienlen_splits(entries: int) -> tuple[int, float]:
    from quansu.games.tienlen import heuristic as h

    return _searched("tienlen", h._SPLITS, entries, {0: 0})


def tienlen_recipes(entries: int) -> tuple[int, float]:
    from quansu.games.tienlen import heuristic as h

    return _searched("tienlen", h._RECIPES, entries)


def tienlen_plans(entries: int) -> tuple[int, float]:
    from quansu.games.tienlen import heuristic as h

    return _searched("tienlen", h._PLANS, entries)


def samloc_windows(entries: int) -> tuple[int, float]:
    from quansu.games.samloc import heuristic as h

    return _searched("samloc", h._windows_cache, entries)


def samloc_chance(entries: int) -> tuple[int, float]:
    from quansu.games.samloc import heuristic as h

    return _searched("samloc", h._sam_memo, entries)


def samloc_combos(entries: int) -> tuple[int, float]:
    return _searched("samloc", lambda game: game._cls, entries)


def samloc_sparring(entries: int) -> tuple[int, float]:
    """The bot's two caches, each bounded by the setting: the cost of an entry of each added
    (its options: deep size after games of the bot; its fewest-combinations memo: tracemalloc
    over random count vectors)."""
    from quansu.games.registry import make
    from quansu.games.samloc import rules, sparring

    game = make("samloc", 4)
    rng = random.Random(5)
    sparring._OPTS.clear()
    for _ in range(200):
        if len(sparring._OPTS) >= entries:
            break
        st = game.new_initial_state(rng)
        while not st.is_terminal():
            st.apply(sparring.choose(game, st, rng))
    n_opts = len(sparring._OPTS)
    per_opts = _deep_size(sparring._OPTS, set()) / max(1, n_opts)
    counts = list(
        {rules.rank_counts(sum(1 << c for c in rng.sample(range(52), 10))) for _ in range(entries)}
    )
    sparring._min_combos.cache_clear()

    def fill():
        for c in counts:
            sparring._min_combos(c, False)
        return sparring._min_combos.cache_info().currsize

    n_min, per_min = _measure(fill)
    print(
        f"samloc_sparring: options {n_opts} entries, {per_opts:.0f} B each; fewest "
        f"combinations {n_min} entries, {per_min:.0f} B each",
        file=sys.stderr,
    )
    return min(n_opts, n_min), per_opts + per_min


def phom_witnesses(entries: int) -> tuple[int, float]:
    from quansu.games.phom import view

    return _searched("phom", view._witness_cache, entries)


MEASURES = {
    "evaluator": evaluator,
    "encoder_moves": encoder_moves,
    "phom_deadwood": phom_deadwood,
    "samloc_plans": samloc_plans,
    "samloc_windows": samloc_windows,
    "samloc_chance": samloc_chance,
    "samloc_combos": samloc_combos,
    "samloc_sparring": samloc_sparring,
    "tienlen_splits": tienlen_splits,
    "tienlen_recipes": tienlen_recipes,
    "tienlen_plans": tienlen_plans,
    "phom_witnesses": phom_witnesses,
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--entries", type=int, default=20_000)
    ap.add_argument("--only", choices=sorted(MEASURES), nargs="+", help="measure only these caches")
    args = ap.parse_args(argv)
    out = {}
    for name, fn in MEASURES.items():
        if args.only and name not in args.only:
            continue
        n, per = fn(args.entries)
        spec = CACHES[name]
        out[name] = {
            "entries": n,
            "bytes_per_entry": round(per),
            "documented_bytes_per_entry": spec.bytes_per_entry,
            "size": cache_size(name),
            "full_mb": round(cache_size(name) * per / 1e6, 1),
        }
        print(name, out[name], file=sys.stderr)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
