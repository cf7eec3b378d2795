"""How far Analyze's marks and Suggest's hints can be trusted: stability, validity, time.

    python -m quansu.bench.analysis DIR_OR_FILES... [--seeds 5] [--limit 8] [--hints]
        [--validity N] [--json out.json]

The records are ``quansu-record/1`` files, e.g. from ``quansu arena --records DIR`` (files that
are not records, such as the arena's ``index.json``, are skipped).  Everything runs in this
process with the engine's defaults (the shipped models, ``--uniform`` for none) and the
default Analyze budget, so the figures are those of ``quansu analyze RECORD``.

* **Time per game**: wall and CPU seconds of one full analysis (every seat), mean and maximum
  over the records and seeds.  Targets: 4-seat Tiến lên <= 60 s, Sâm lốc <= 120 s.
* **Stability of marks**: the record analysed with ``--seeds`` seeds.  A non-forced decision is
  *stable* when every seed gives it the same mark; reported as the share of stable decisions
  (target >= 90 %), also with best and good counted as one mark, and the pairwise agreement
  (share of seed pairs with equal marks).  Seat accuracy: its spread (max - min over the seeds,
  in points) per seat, worst and mean (target <= 3 points).
* **Stability of hints** (``--hints``): at every non-forced decision (the first
  ``--hint-positions``), Suggest from the deciding seat's view with the default budget and each
  of ``--hint-seeds`` seeds; the position is stable when one move is
  in the top equal-choice group (``group`` 0) of every seed (target >= 90 %); the strict share
  (the same top move every time) is shown too.
* With ``--json``, every non-forced decision of every seed is written too (``decisions``: per
  seed, rows of :func:`decision_row`), so that other marking rules can be replayed offline.
* **Validity** (``--validity N``: at most N non-forced decisions per record): a search 20 times
  the default budget, run with two seeds; where both rank the same move B first (the ranking
  rule), B is the reference best move.  Where the played move is B, the default analysis
  (first seed) should mark it best or good and never inaccuracy, mistake or blunder; the
  counts of each mark are reported.  Where the played move is not B, the share of decisions
  the analysis marks best is reported as well (the analysis thought the played move as good as
  anything).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

from quansu.games import record as rec
from quansu.server.engine import MARK_NAMES, build_engine
from quansu.server.v1 import service_pb2 as pb

TIME_TARGET_S = {"tienlen": 60.0, "samloc": 120.0}


def record_files(paths: list[str]) -> list[Path]:
    """The record files named or inside the folders named (sorted; non-records skipped)."""
    out: list[Path] = []
    for p in map(Path, paths):
        files = sorted(p.glob("*.json")) if p.is_dir() else [p]
        for f in files:
            try:
                obj = rec.read_json(str(f))
            except (rec.RecordError, OSError):
                continue
            if isinstance(obj, dict) and obj.get("format") == rec.RECORD_FORMAT:
                out.append(f)
    return out


def analyze_once(engine, obj: dict, seed: int, max_worlds: int = 0, thresholds=None):
    """(decisions, summaries, wall s, cpu s) of one analysis of ``obj`` with ``seed``."""
    from quansu.client import Client

    req = Client.analyze_request(obj, seed=seed, thresholds=thresholds)
    req.max_worlds = max_worlds
    decisions, summaries = [], []

    def take(msg):
        which = msg.WhichOneof("item")
        (decisions if which == "decision" else summaries).append(getattr(msg, which))

    w, c = time.monotonic(), time.process_time()
    engine.analyze(req, take)
    return decisions, summaries, time.monotonic() - w, time.process_time() - c


def _thresholds(engine, obj: dict):
    from quansu.games.registry import game_classes
    from quansu.server.engine import default_thresholds

    return default_thresholds(game_classes()[obj["game"]])


def _band(mark: int) -> int:
    return pb.MARK_GOOD if mark == pb.MARK_BEST else mark


def stability(runs: list[list]) -> dict:
    """Agreement of the marks of the same decisions over several runs (lists of Decisions)."""
    per = [[d for d in run if not d.forced] for run in runs]
    n = len(per[0])
    same = same_band = 0
    pairs = agree = 0
    unclear = 0
    for i in range(n):
        marks = [run[i].mark for run in per]
        same += len(set(marks)) == 1
        same_band += len({_band(m) for m in marks}) == 1
        unclear += sum(m == pb.MARK_UNCLEAR for m in marks)
        for a, b in itertools.combinations(marks, 2):
            pairs += 1
            agree += a == b
    return {
        "decisions": n,
        "same_mark": same,
        "same_mark_best_good_merged": same_band,
        "pairwise_agreement": agree / pairs if pairs else 1.0,
        "unclear_share": unclear / (n * len(per)) if n else 0.0,
    }


def accuracy_spread(summaries_per_run: list[list]) -> list[float]:
    """Per seat: (max - min) of the accuracy over the runs, in points."""
    by_seat: dict[int, list[float]] = {}
    for run in summaries_per_run:
        for s in run:
            by_seat.setdefault(s.seat, []).append(100.0 * s.accuracy)
    return [max(v) - min(v) for _, v in sorted(by_seat.items())]


def mark_accuracy_spread(runs: list[list]) -> list[float]:
    """Per seat: (max - min) over the runs, in points, of the share of best and good marks
    among the decisions with a choice and a mark (the seat accuracy before issue 20's
    follow-up, which counted a handful of marks per seat and moved by 7 to 20 points when one
    of them flipped; shown for comparison)."""
    by_seat: dict[int, list[float]] = {}
    for run in runs:
        per: dict[int, list[int]] = {}
        for d in run:
            if not d.forced and d.mark != pb.MARK_UNCLEAR:
                per.setdefault(d.seat, []).append(d.mark in (pb.MARK_BEST, pb.MARK_GOOD))
        for seat, xs in per.items():
            by_seat.setdefault(seat, []).append(100.0 * sum(xs) / len(xs))
    return [max(v) - min(v) for _, v in sorted(by_seat.items())]


def decision_row(d) -> list:
    """One judged decision as a JSON row: index, seat, mark name, loss, loss_low, loss_high,
    loss_stderr (bets), worlds, stopped_by, best move, played move."""
    return [
        d.index,
        d.seat,
        MARK_NAMES.get(d.mark, "?"),
        round(d.loss, 5),
        round(d.loss_low, 5),
        round(d.loss_high, 5),
        round(d.loss_stderr, 5),
        d.worlds,
        d.stopped_by,
        d.best.text,
        d.played.text,
    ]


def crossing_share(runs: list[list], thresholds) -> float:
    """Share of the marked non-forced decisions (over all runs) whose interval crosses a
    threshold: marked at the band of the estimate rather than settled inside one band."""
    from quansu.search.paired import band_of

    bands = (thresholds.good, thresholds.inaccuracy, thresholds.mistake)
    marked = [d for run in runs for d in run if not d.forced and d.mark != pb.MARK_UNCLEAR]
    crossing = sum(1 for d in marked if band_of(d.loss_low, bands) != band_of(d.loss_high, bands))
    return crossing / len(marked) if marked else 0.0


def hint_stability(engine, obj: dict, seeds: list[int], limit: int | None = None) -> dict:
    """Top equal-choice group of Suggest over ``seeds`` at each non-forced decision."""
    from quansu.server import convert

    record = rec.parse_record(obj)
    stable = strict = n = group_sum = worlds_sum = hints = 0
    for i, (seat, _move) in enumerate(record.moves):
        view = rec.view_at(record, seat, i)
        state = rec.replay_view(view, random.Random(0))
        if len(state.legal_moves()) < 2:
            continue
        if limit is not None and n >= limit:
            break
        n += 1
        groups, tops = [], []
        for s in seeds:
            resp = engine.suggest(
                pb.SuggestRequest(view=convert.record_message(view), top_k=64, seed=s)
            )
            tops.append(resp.moves[0].move.text)
            groups.append({m.move.text for m in resp.moves if m.group == 0} or {tops[-1]})
            group_sum += len(groups[-1])
            worlds_sum += resp.stats.hint_worlds
            hints += 1
        stable += bool(set.intersection(*groups))
        strict += len(set(tops)) == 1
    # the size of the top group and the worlds measured, summed over the hints (every seed):
    # a shared top group says less when it holds more moves
    return {
        "positions": n,
        "top_group_shared": stable,
        "same_top_move": strict,
        "hints": hints,
        "top_group_sum": group_sum,
        "hint_worlds_sum": worlds_sum,
    }


def validity(engine, obj: dict, decisions: list, limit: int, seed: int = 0) -> Counter:
    """Marks of the first run against the best move of a 20x search (two seeds agreeing)."""
    from quansu.search.ranking import rank

    record = rec.parse_record(obj)
    budget = 20 * engine.limits.default_iterations
    out: Counter = Counter()
    done = 0
    by_index = {d.index: d for d in decisions if not d.forced}
    for i, (seat, played) in enumerate(record.moves):
        d = by_index.get(i)
        if d is None:
            continue
        if done >= limit:
            break
        done += 1
        view = rec.view_at(record, seat, i)
        state = rec.replay_view(view, random.Random(seed * 1_000_003 + i))
        bests = []
        for s in (seed + 101, seed + 202):
            res = engine._search(state, budget, None, s, None, None)
            bests.append(rank(res)[0].move)
        out["checked"] += 1
        if bests[0] != bests[1]:
            out["reference_disagrees"] += 1
            continue
        name = MARK_NAMES.get(d.mark, "?")
        if bests[0] == played:
            out[f"played_best:{name}"] += 1
        else:
            out[f"played_other:{name}"] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m quansu.bench.analysis", description=__doc__.split("\n")[0]
    )
    ap.add_argument("paths", nargs="+", help="record files or folders of them")
    ap.add_argument("--seeds", type=int, default=5, help="analyses per record (seeds 1..N)")
    ap.add_argument("--limit", type=int, default=8, help="records per run (first N)")
    ap.add_argument("--hints", action="store_true", help="also the stability of hints")
    ap.add_argument("--hint-seeds", type=int, default=5, help="seeds of --hints (1..N)")
    ap.add_argument(
        "--hints-only",
        action="store_true",
        help="only the stability of hints (no analysis; implies --hints)",
    )
    ap.add_argument(
        "--hint-positions",
        type=int,
        default=None,
        help="at most this many positions per record for --hints",
    )
    ap.add_argument(
        "--validity",
        type=int,
        default=0,
        metavar="N",
        help="validity on at most N decisions per record (0: skip)",
    )
    ap.add_argument("--max-worlds", type=int, default=0, help="Analyze cap (0: server default)")
    ap.add_argument("--uniform", action="store_true", help="no networks")
    for name in ("good", "inaccuracy", "mistake"):
        ap.add_argument(
            f"--{name}",
            type=float,
            default=0.0,
            help=f"Analyze's {name} threshold in bets (0: the game's default)",
        )
    ap.add_argument("--json", metavar="PATH", help="write the figures as JSON")
    args = ap.parse_args(argv)
    if args.seeds < 2:
        ap.error("--seeds: at least 2")
    if args.hints_only:
        args.hints = True
    files = record_files(args.paths)[: args.limit]
    if not files:
        print("error: no quansu-record/1 file found", file=sys.stderr)
        return 2
    engine = build_engine(uniform=args.uniform)
    seeds = list(range(1, args.seeds + 1))
    th_given = {"good": args.good, "inaccuracy": args.inaccuracy, "mistake": args.mistake}
    rows = []
    for k, f in enumerate(files, 1):
        obj = rec.read_json(str(f))
        row = {
            "file": str(f),
            "game": obj["game"],
            "players": obj["players"],
            "moves": len(obj["moves"]),
        }
        if not args.hints_only:
            runs, sums, walls, cpus = [], [], [], []
            for s in seeds:
                d, sm, w, c = analyze_once(engine, obj, s, args.max_worlds, th_given)
                runs.append(d)
                sums.append(sm)
                walls.append(w)
                cpus.append(c)
            th = _thresholds(engine, obj)
            for name, v in th_given.items():
                if v:
                    setattr(th, name, v)
            chosen = [d for run in runs for d in run if not d.forced]
            row.update(
                {
                    "wall_s": walls,
                    "cpu_s": cpus,
                    "worlds_mean": sum(d.worlds for d in chosen) / max(1, len(chosen)),
                    "stopped_by": dict(Counter(d.stopped_by for d in chosen)),
                    "stability": stability(runs),
                    "accuracy_spread": accuracy_spread(sums),
                    "mark_accuracy_spread": mark_accuracy_spread(runs),
                    "crossing_share": crossing_share(runs, th),
                    # every non-forced decision under every seed, for replaying marking rules
                    "decisions": [[decision_row(d) for d in run if not d.forced] for run in runs],
                }
            )
        if args.hints:
            row["hints"] = hint_stability(
                engine, obj, list(range(1, args.hint_seeds + 1)), args.hint_positions
            )
        if args.validity and not args.hints_only:
            row["validity"] = dict(validity(engine, obj, runs[0], args.validity))
        rows.append(row)
        line = f"[{k}/{len(files)}] {f.name} {obj['game']}:"
        if not args.hints_only:
            st = row["stability"]
            line += (
                f" {st['same_mark']}/{st['decisions']} decisions same mark, spread "
                f"{max(row['accuracy_spread'], default=0.0):.1f} pts, wall "
                f"{max(row['wall_s']):.1f} s, cpu {max(row['cpu_s']):.1f} s"
            )
        if args.hints:
            line += f", hints {row['hints']['top_group_shared']}/{row['hints']['positions']}"
        if "validity" in row:
            line += f", validity {row['validity']}"
        print(line, flush=True)
        if args.json:  # after every record, so that a long run interrupted keeps what it did
            Path(args.json).write_text(
                json.dumps(
                    {"args": vars(args), "rows": rows, "summary": summarize(rows)["summary"]},
                    indent=1,
                )
            )
    report = summarize(rows)
    for line in report["lines"]:
        print(line)
    if args.json:
        Path(args.json).write_text(
            json.dumps({"args": vars(args), "rows": rows, "summary": report["summary"]}, indent=1)
        )
    return 0


def summarize(rows: list[dict]) -> dict:
    lines, summary = [], {}
    for game in sorted({r["game"] for r in rows}):
        rs = [r for r in rows if r["game"] == game]
        s = {"records": len(rs)}
        ms = [r for r in rs if "stability" in r]
        if ms:
            dec = sum(r["stability"]["decisions"] for r in ms)
            same = sum(r["stability"]["same_mark"] for r in ms)
            merged = sum(r["stability"]["same_mark_best_good_merged"] for r in ms)
            pair = sum(
                r["stability"]["pairwise_agreement"] * r["stability"]["decisions"] for r in ms
            )
            unclear = sum(r["stability"]["unclear_share"] * r["stability"]["decisions"] for r in ms)
            crossing = sum(r["crossing_share"] * r["stability"]["decisions"] for r in ms)
            spreads = [x for r in ms for x in r["accuracy_spread"]]
            old = [x for r in ms for x in r["mark_accuracy_spread"]]
            walls = [x for r in ms for x in r["wall_s"]]
            cpus = [x for r in ms for x in r["cpu_s"]]
            worlds = sum(r["worlds_mean"] * r["stability"]["decisions"] for r in ms)
            s.update(
                {
                    "decisions": dec,
                    "same_mark": same / dec if dec else 1.0,
                    "same_mark_best_good_merged": merged / dec if dec else 1.0,
                    "pairwise_agreement": pair / dec if dec else 1.0,
                    "unclear_share": unclear / dec if dec else 0.0,
                    "crossing_share": crossing / dec if dec else 0.0,
                    "worlds_mean": worlds / dec if dec else 0.0,
                    "accuracy_spread_max": max(spreads, default=0.0),
                    "accuracy_spread_mean": sum(spreads) / len(spreads) if spreads else 0.0,
                    "mark_accuracy_spread_max": max(old, default=0.0),
                    "mark_accuracy_spread_mean": sum(old) / len(old) if old else 0.0,
                    "wall_s_mean": sum(walls) / len(walls),
                    "wall_s_max": max(walls),
                    "cpu_s_mean": sum(cpus) / len(cpus),
                    "cpu_s_max": max(cpus),
                }
            )
            lines.append(
                f"{game} ({len(ms)} records, {dec} non-forced decisions): same mark "
                f"{s['same_mark']:.1%} (best/good merged {s['same_mark_best_good_merged']:.1%}, "
                f"pairwise {s['pairwise_agreement']:.1%}; unclear {s['unclear_share']:.1%}, "
                f"marked with the interval across a threshold {s['crossing_share']:.1%}, worlds "
                f"{s['worlds_mean']:.0f}); accuracy spread max {s['accuracy_spread_max']:.1f} / "
                f"mean {s['accuracy_spread_mean']:.1f} pts (share of best/good marks: max "
                f"{s['mark_accuracy_spread_max']:.1f} / mean {s['mark_accuracy_spread_mean']:.1f}); "
                f"time per game wall mean {s['wall_s_mean']:.1f} s max {s['wall_s_max']:.1f} s, "
                f"cpu mean {s['cpu_s_mean']:.1f} s max {s['cpu_s_max']:.1f} s"
                + (f" (target {TIME_TARGET_S[game]:.0f} s)" if game in TIME_TARGET_S else "")
            )
        if any("hints" in r for r in rs):
            pos = sum(r["hints"]["positions"] for r in rs if "hints" in r)
            shared = sum(r["hints"]["top_group_shared"] for r in rs if "hints" in r)
            strict = sum(r["hints"]["same_top_move"] for r in rs if "hints" in r)
            s["hint_positions"] = pos
            s["hint_top_group_shared"] = shared / pos if pos else 1.0
            s["hint_same_top_move"] = strict / pos if pos else 1.0
            nh = sum(r["hints"].get("hints", 0) for r in rs if "hints" in r)
            s["hint_top_group_mean"] = (
                (sum(r["hints"].get("top_group_sum", 0) for r in rs if "hints" in r) / nh)
                if nh
                else 0.0
            )
            s["hint_worlds_mean"] = (
                (sum(r["hints"].get("hint_worlds_sum", 0) for r in rs if "hints" in r) / nh)
                if nh
                else 0.0
            )
            lines.append(
                f"{game} hints ({sum(1 for r in rs if 'hints' in r)} records): {pos} "
                f"positions, a move in every seed's top group "
                f"{s['hint_top_group_shared']:.1%}, same top move {s['hint_same_top_move']:.1%}, "
                f"top group {s['hint_top_group_mean']:.2f} moves, "
                f"{s['hint_worlds_mean']:.0f} worlds (means over the hints)"
            )
        if any("validity" in r for r in rs):
            c: Counter = Counter()
            for r in rs:
                c.update(r.get("validity", {}))
            s["validity"] = dict(c)
            lines.append(f"  validity: {dict(sorted(c.items()))}")
        summary[game] = s
    return {"lines": lines, "summary": summary}


if __name__ == "__main__":
    sys.exit(main())
