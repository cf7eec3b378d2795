"""The Deep Monte Carlo learner's figures (issue 42): a finished run's learning curve with the
date, commit, command and machine, and a short run with its actors on a local Ray cluster of
two nodes.

* ``python -m quansu.bench.dmc record RUN_DIR --json bench/results/dmc_tienlen.json
  [--commit C] [--started ISO]``: the ``curve.json`` of a ``quansu train --algo dmc`` run
  (``RUN_DIR`` = its ``--out``) with the run's figures (decisions a second over the training
  time and per actor) and the machine summary.
* ``python -m quansu.bench.dmc ray --minutes 3 [--json PATH]``: ``quansu train --algo dmc`` for
  ``--minutes`` with 2 actors on a local cluster of two nodes of one CPU each
  (:class:`quansu.server.ray_cluster.LocalCluster`), then the same run with 2 local pool
  workers, on the same cores: decisions a second of each and on how many nodes the actors ran.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def record(run_dir: str, commit: str = "", started: str = "") -> dict:
    from quansu.bench.hint import commit as git_commit
    from quansu.bench.hint import machine

    doc = json.loads((Path(run_dir) / "curve.json").read_text(encoding="utf-8"))
    s = doc.get("summary", {})
    pts = doc["points"]
    return {"date": _now(), "started": started, "commit": commit or git_commit(),
            "command": doc["command"], "machine": machine(), "game": doc["game"],
            "players": doc["players"], "opponent": doc["opponent"],
            "eval_deals": doc["eval_deals"],
            "decisions": s.get("decisions"), "train_seconds": s.get("train_seconds"),
            "decisions_per_train_s": s.get("decisions_per_train_s"),
            "actor_decisions_per_s": s.get("actor_decisions_per_s"),
            "steps": s.get("steps"), "games": s.get("games"),
            "points": pts, "summary": s, "run_machine": doc.get("machine")}


def ray_run(minutes: float, seed: int = 1) -> dict:
    from quansu.models.training.dmc import DMCConfig, train_dmc
    from quansu.server import ray_cluster as rc

    out: dict = {}
    cfg = dict(game="tienlen", players=4, minutes=minutes, seed=seed, workers=2,
               eval_deals=50, progress=False)
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        with rc.LocalCluster((1, 1), new_session=False, env={"RAY_worker_niceness": "0"}) as c:
            out["cluster_start_s"] = round(time.perf_counter() - t0, 1)
            s = train_dmc(DMCConfig(**cfg, ray=c.address, out_dir=f"{d}/ray"), log=lambda *_: None)
        out["ray"] = {k: s[k] for k in ("decisions", "train_seconds", "decisions_per_train_s",
                                        "actor_decisions_per_s", "actor_nodes", "steps",
                                        "replaced_actors")}
        s = train_dmc(DMCConfig(**cfg, out_dir=f"{d}/pool"), log=lambda *_: None)
        out["pool"] = {k: s[k] for k in ("decisions", "train_seconds", "decisions_per_train_s",
                                         "actor_decisions_per_s", "steps")}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m quansu.bench.dmc",
                                 description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("record", help="a finished run's curve with date, commit, machine")
    r.add_argument("run_dir")
    r.add_argument("--commit", default="", help="the commit the run ran (default: git's)")
    r.add_argument("--started", default="", help="when the run started (ISO)")
    r.add_argument("--json", metavar="PATH")
    y = sub.add_parser("ray", help="2 actors on a local two-node Ray cluster, then 2 local")
    y.add_argument("--minutes", type=float, default=3.0)
    y.add_argument("--json", metavar="PATH")
    args = ap.parse_args(argv)
    if args.what == "record":
        res = record(args.run_dir, args.commit, args.started)
    else:
        from quansu.bench.hint import commit, machine

        res = {"date": _now(), "commit": commit(), "machine": machine(),
               "command": "python -m quansu.bench.dmc " + " ".join(
                   argv if argv is not None else sys.argv[1:]),
               **ray_run(args.minutes)}
    text = json.dumps(res, indent=1, ensure_ascii=False)
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
