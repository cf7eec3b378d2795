"""Sizes of the bounded caches that grow in a long-running process (a server's workers).

Each cache is named here with its default number of entries and the memory one entry costs
(``python -m quansu.bench.caches``: ``tracemalloc`` while a cache fills with the entries a
search makes, Python 3.11, 64-bit; the evaluator's on Tiến lên; docs/api.md, "Caches").
A size is set for a process by the environment variable ``QUANSU_CACHE_<NAME>`` (upper case),
read once when this module is imported, so a server sets it before its workers start (they
inherit the environment); 0 turns a cache off (where the cache allows it).  A full cache drops
its oldest quarter (:func:`make_room`; the encoders' descriptions are emptied) or, for the LRU
caches, its least recently used entry, so a worker's memory levels off at about the sum of the
costs below.  The Tiến lên caches are emptied when full (one search refills them; trimming
them cost a search about 6 %).

This module imports nothing of ours (but ``games/_cy.py`` where Cython is not installed): every
layer may use it.  It is part of the compiled core (``make_room`` runs in the heuristics' loops).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

try:
    import cython
except ImportError:  # no Cython installed: the same code runs untyped (games/_cy.py)
    from quansu.games import _cy as cython


@dataclass(frozen=True)
class CacheSpec:
    name: str
    default: int
    bytes_per_entry: int
    where: str
    what: str
    #: the smallest size allowed (1 where the cache is also the working memory of one
    #: computation, as a recursive split's memo, and cannot be turned off)
    minimum: int = 0


#: Every sized cache: name -> spec.
CACHES: dict[str, CacheSpec] = {
    s.name: s
    for s in (
        CacheSpec(
            "evaluator",
            20_000,
            2_200,
            "models/evaluator.py",
            "network answers (priors, values) per information state, one cache for every "
            "game and option set of the process (LRU)",
        ),
        CacheSpec(
            "encoder_moves",
            200_000,
            250,
            "models/encoders/base.py",
            "move descriptions of the encoders, all games and option sets together "
            "(emptied when full)",
        ),
        CacheSpec(
            "phom_deadwood",
            1 << 16,
            210,
            "games/phom/rules.py",
            "Phỏm best meld arrangements per (hand, eaten cards) (LRU)",
        ),
        CacheSpec(
            "samloc_plans",
            200_000,
            600,
            "games/samloc/heuristic.py",
            "Sâm lốc cheapest hand splits per rank counts (trimmed when full)",
        ),
        CacheSpec(
            "samloc_windows",
            1 << 16,
            250,
            "games/samloc/heuristic.py",
            "Sâm lốc straight windows per held ranks (trimmed when full)",
        ),
        CacheSpec(
            "samloc_chance",
            1 << 14,
            220,
            "games/samloc/heuristic.py",
            "Sâm lốc estimated chances that a Sâm declaration succeeds, per hand and unseen "
            "cards (trimmed when full)",
        ),
        CacheSpec(
            "samloc_combos",
            1 << 16,
            130,
            "games/samloc/state.py",
            "Sâm lốc combinations of the masks played, per rule set (trimmed when full)",
        ),
        CacheSpec(
            "samloc_sparring",
            1 << 16,
            440,
            "games/samloc/sparring.py",
            "the Sâm lốc sparring bot's two caches, each of this many entries: combination "
            "options per rank counts (trimmed when full) and fewest combinations per rank "
            "counts (LRU); the cost is of one entry of each",
        ),
        CacheSpec(
            "tienlen_splits",
            1 << 17,
            121,
            "games/tienlen/heuristic.py",
            "Tiến lên fewest-pieces splits per rank counts (the split's own memo: emptied "
            "between two hands when full)",
            minimum=1,
        ),
        CacheSpec(
            "tienlen_recipes",
            1 << 15,
            274,
            "games/tienlen/heuristic.py",
            "Tiến lên hand plans per rank counts (emptied when full)",
        ),
        CacheSpec(
            "tienlen_plans",
            1 << 14,
            273,
            "games/tienlen/heuristic.py",
            "Tiến lên hand plans per hand (emptied when full)",
        ),
        CacheSpec(
            "phom_witnesses",
            1 << 12,
            330,
            "games/phom/view.py",
            "Phỏm minimal card sets that explain an opponent's eaten cards (trimmed when full)",
        ),
    )
}


def _from_env(spec: CacheSpec) -> int:
    raw = os.environ.get(f"QUANSU_CACHE_{spec.name.upper()}")
    if raw is None or not raw.strip():
        return spec.default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(
            f"QUANSU_CACHE_{spec.name.upper()}={raw!r}: expected a whole number of entries"
        ) from None
    if value < spec.minimum:
        raise ValueError(
            f"QUANSU_CACHE_{spec.name.upper()}={value}: must be at least {spec.minimum}"
        )
    return value


_SIZES = {name: _from_env(spec) for name, spec in CACHES.items()}


def cache_size(name: str) -> int:
    """The number of entries cache ``name`` may hold in this process."""
    return _SIZES[name]


@cython.locals(cache=dict, keys=list, drop=cython.Py_ssize_t)
def make_room(cache: dict) -> None:
    """Drop the oldest quarter of the entries of a full ``cache`` (at least one; a dict keeps
    its insertion order), before an insertion.  A cache so kept stays between three quarters
    full and full once it has filled: its hits do not collapse, and its memory does not swing
    from nothing to its bound, as they would if it were emptied.  Amortised O(1) an insertion
    (compiled, the loops run in C: part of the compiled core)."""
    drop = len(cache) >> 2
    if drop < 1:
        drop = 1
    keys = []
    for key in cache:
        if len(keys) >= drop:
            break
        keys.append(key)
    for key in keys:
        del cache[key]


def memory_budget_mb() -> float:
    """The most memory the sized caches take together when full, in MB (each is one cache per
    process, whatever games and option sets it serves)."""
    return sum(_SIZES[n] * s.bytes_per_entry for n, s in CACHES.items()) / 1e6
