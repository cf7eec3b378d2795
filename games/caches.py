"""Sizes of the bounded caches that grow in a long-running process (a server's workers).

Each cache is named here with its default number of entries and the memory one entry costs
(``python -m quansu.bench.caches``: ``tracemalloc`` while a cache fills with the entries a
search makes, Python 3.11, 64-bit; the evaluator's on Tiến lên; docs/api.md, "Caches").
A size is set for a process by the environment variable ``QUANSU_CACHE_<NAME>`` (upper case),
read once when this module is imported, so a server sets it before its workers start (they
inherit the environment); 0 turns a cache off (where the cache allows it).  A full cache is
emptied (or evicts its oldest entry), so a worker's memory levels off at about the sum of the
costs below.

This module imports nothing of ours: every layer may use it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class CacheSpec:
    name: str
    default: int
    bytes_per_entry: int
    where: str
    what: str


#: Every sized cache: name -> spec.
CACHES: dict[str, CacheSpec] = {s.name: s for s in (
    CacheSpec("evaluator", 20_000, 2_200, "models/evaluator.py",
              "network answers (priors, values) per information state, one cache for every "
              "game and option set of the process (LRU)"),
    CacheSpec("encoder_moves", 200_000, 250, "models/encoders/base.py",
              "move descriptions of the encoders, all games and option sets together "
              "(emptied when full)"),
    CacheSpec("phom_deadwood", 1 << 16, 210, "games/phom/rules.py",
              "Phỏm best meld arrangements per (hand, eaten cards) (LRU)"),
    CacheSpec("samloc_plans", 200_000, 600, "games/samloc/heuristic.py",
              "Sâm lốc cheapest hand splits per rank counts (emptied when full)"),
)}


def _from_env(spec: CacheSpec) -> int:
    raw = os.environ.get(f"QUANSU_CACHE_{spec.name.upper()}")
    if raw is None or not raw.strip():
        return spec.default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"QUANSU_CACHE_{spec.name.upper()}={raw!r}: expected a whole number "
                         f"of entries") from None
    if value < 0:
        raise ValueError(f"QUANSU_CACHE_{spec.name.upper()}={value}: must not be negative")
    return value


_SIZES = {name: _from_env(spec) for name, spec in CACHES.items()}


def cache_size(name: str) -> int:
    """The number of entries cache ``name`` may hold in this process."""
    return _SIZES[name]


def memory_budget_mb() -> float:
    """The most memory the sized caches take together when full, in MB (each is one cache per
    process, whatever games and option sets it serves)."""
    return sum(_SIZES[n] * s.bytes_per_entry for n, s in CACHES.items()) / 1e6
