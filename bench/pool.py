"""Pool strength matches of ``python -m quansu.bench.models --json F`` run on different deals.

    python -m quansu.bench.pool a.json b.json c.json d.json [--part guided] [--card models/G.md]

Each file holds one match (``guided_vs_uniform`` or ``policy_vs_heuristic``) with its mean payoff
(bets per game of the tested seat) and 95 % interval over its deals.  The pooled mean weights each
run by its deals; its standard error combines the runs' (``se = half-width / 1.96``):
``mean = sum(n_i m_i) / N``, ``se = sqrt(sum((n_i / N)^2 se_i^2))``.  Runs must be the same match
(game, players, bots, time per move, guided settings, model) on different deals (seeds); anything
else is refused with the field that differs.  ``--card`` adds the pooled line, with the command
that gives it, to a model card's bench section.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from quansu.bench.models import MATCH_LABELS, append_card_text, verdict_text

PARTS = {"guided": "guided_vs_uniform", "policy": "policy_vs_heuristic"}

#: Fields that must agree between pooled runs (top level of the file, then of the match).
SAME_FILE = ("game", "players")
SAME_MATCH = (
    "test",
    "baseline",
    "ms_per_move",
    "guided_leaf_value",
    "guided_batch",
    "model",
    "prior_temperature",
    "prior_mix",
)
#: Values of fields that files written before the field existed lack.
DEFAULTS = {"prior_mix": 0.0}


class PoolError(ValueError):
    """Runs that cannot be pooled (missing part, different settings, repeated seed)."""


def pool(runs: list[dict], part: str = "guided") -> dict:
    """Pool ``runs`` (the JSON objects ``bench.models`` wrote) for ``part`` (``"guided"`` or
    ``"policy"``).  Returns ``{"runs", "deals", "payoff_mean", "ci95", "above_zero", "seeds"}``
    plus the shared settings."""
    if part not in PARTS:
        raise PoolError(f"part {part!r} is not one of {', '.join(PARTS)}")
    if not runs:
        raise PoolError("no runs to pool")
    key = PARTS[part]
    matches = []
    for i, r in enumerate(runs):
        if not isinstance(r, dict):
            raise PoolError(f"run {i + 1} is not a bench.models result (a JSON object)")
        m = r.get(key)
        if not isinstance(m, dict):
            raise PoolError(f"run {i + 1} has no {key!r} result")
        ci = m.get("ci95")
        if not (isinstance(m.get("deals"), int) and m["deals"] > 0):
            raise PoolError(
                f"run {i + 1}: deals must be a positive integer, got {m.get('deals')!r}"
            )
        if not (
            isinstance(m.get("payoff_mean"), (int, float))
            and isinstance(ci, list)
            and len(ci) == 2
            and all(isinstance(x, (int, float)) for x in ci)
        ):
            raise PoolError(f"run {i + 1}: payoff_mean and ci95 (two numbers) are required")
        matches.append(m)
    for name in SAME_FILE:
        vals = {json.dumps(r.get(name)) for r in runs}
        if len(vals) > 1:
            raise PoolError(f"runs differ in {name}: {', '.join(sorted(vals))}")
    for name in SAME_MATCH:
        vals = {json.dumps(m.get(name, DEFAULTS.get(name))) for m in matches}
        if len(vals) > 1:
            raise PoolError(f"runs differ in {name}: {', '.join(sorted(vals))}")
    seeds = [m.get("seed") for m in matches]
    if len(set(seeds)) < len(seeds):
        raise PoolError(f"a seed appears twice ({seeds}): the same deals cannot be pooled")
    total = sum(m["deals"] for m in matches)
    mean = sum(m["deals"] * m["payoff_mean"] for m in matches) / total
    var = sum(
        (m["deals"] / total) ** 2 * ((m["ci95"][1] - m["ci95"][0]) / 2 / 1.96) ** 2 for m in matches
    )
    half = 1.96 * math.sqrt(var)
    out = {name: runs[0].get(name) for name in SAME_FILE}
    out.update({name: matches[0].get(name, DEFAULTS.get(name)) for name in SAME_MATCH})
    out.update(
        {
            "runs": len(matches),
            "deals": total,
            "seeds": seeds,
            "payoff_mean": round(mean, 4),
            "ci95": [round(mean - half, 4), round(mean + half, 4)],
            "above_zero": mean - half > 0,
        }
    )
    return out


def card_line(res: dict, command: str, part: str = "guided") -> str:
    """Markdown for a model card: ``command`` and the pooled result of ``part``."""
    label = MATCH_LABELS[PARTS[part]]
    when = f", {res['ms_per_move']:g} ms per move" if res.get("ms_per_move") else ""
    verdict = verdict_text(res["above_zero"])
    seeds = ", ".join(str(s) for s in res["seeds"])
    return (
        f"`{command}`\n\n- {label}, pooled: {res['payoff_mean']:+.3f} bets per game, 95% CI "
        f"[{res['ci95'][0]:+.3f}, {res['ci95'][1]:+.3f}] over {res['deals']} deals "
        f"({res['runs']} runs, seeds {seeds}){when} ({verdict}).\n"
    )


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m quansu.bench.pool", description=__doc__.splitlines()[0]
    )
    p.add_argument(
        "files", nargs="+", help="JSON files written by python -m quansu.bench.models --json"
    )
    p.add_argument("--part", choices=tuple(PARTS), default="guided")
    p.add_argument("--card", default="", help="add the pooled result to this model card")
    a = p.parse_args(argv)
    runs = []
    for f in a.files:
        try:
            with open(f, encoding="utf-8") as fh:
                runs.append(json.load(fh))
        except (OSError, ValueError) as e:
            p.error(f"{f}: {e}")
    try:
        res = pool(runs, a.part)
    except PoolError as e:
        p.error(str(e))
    for f, r in zip(a.files, runs):
        m = r[PARTS[a.part]]
        print(
            f"{f}: {m['payoff_mean']:+.3f} [{m['ci95'][0]:+.3f}, {m['ci95'][1]:+.3f}] "
            f"({m['deals']} deals, seed {m.get('seed')})"
        )
    print(
        f"pooled {res['payoff_mean']:+.3f} [{res['ci95'][0]:+.3f}, {res['ci95'][1]:+.3f}] "
        f"over {res['deals']} deals"
    )
    print(json.dumps(res))
    if a.card:
        try:
            append_card_text(
                a.card, card_line(res, "python -m quansu.bench.pool " + " ".join(a.files), a.part)
            )
        except OSError as e:
            p.error(f"--card: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
