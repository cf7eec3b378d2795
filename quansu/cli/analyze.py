"""``quansu analyze GAME.json [MORE.json | FOLDER ...]``: judge every decision of games.

GAME is a ``quansu-record/1`` file (every seat can be judged) or a ``quansu-view/1`` file (the
view's seat only); a folder stands for the record and view files in it (other files, such as
the arena's ``index.json``, are skipped).  Each decision is judged from the deciding seat's
information at that time: a short search proposes candidates, and a paired evaluation measures
them against the move played on the same sampled deals (docs/api.md, "Analyze").

One game: a table (move played, best move, loss in bets with its 95 % interval, sampled deals,
mark), then a summary per seat; ``--report out.html`` writes the analysis as a self-contained
page (loss graph per seat, accuracy, each mistake with the better move and the hand) and
``--plot out.png`` the cumulative loss of every judged seat as a labelled chart (drawn with
matplotlib, the ``plot`` extra: without it ``--plot`` is refused at once, saying how to install
it).  Several games: a progress line per game on standard error and one summary table
(accuracy, inaccuracies, mistakes, blunders, unclear decisions and total loss per seat and
file).  Texts in ``--lang vi|en``; in Vietnamese the moves are named as players say them.  In
process, or on a server with ``--server HOST[:PORT]`` (port default 50051).  ``-`` reads one
file from standard input.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from google.protobuf import json_format

from quansu.cli.common import (
    add_budget_arguments,
    add_connection_arguments,
    make_client,
    read_game_file,
    report_error,
)
from quansu.cli.hint import move_name
from quansu.cli.i18n import lang_of, mark_name, t

MARK_ORDER = ("best", "good", "inaccuracy", "mistake", "blunder", "unclear")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "files",
        metavar="GAME.json",
        nargs="+",
        help="quansu-record/1 or quansu-view/1 files or folders of them ('-': standard input)",
    )
    p.add_argument(
        "--seat",
        type=int,
        action="append",
        default=[],
        help="judge this seat (repeatable; default: every seat of a record)",
    )
    p.add_argument("--good", type=float, default=0.0, help="loss threshold of 'good', in bets")
    p.add_argument("--inaccuracy", type=float, default=0.0, help="loss threshold of 'inaccuracy'")
    p.add_argument(
        "--mistake", type=float, default=0.0, help="loss threshold of 'mistake' (above it: blunder)"
    )
    p.add_argument(
        "--worlds",
        type=int,
        default=0,
        help="most sampled deals per decision (0: the server default)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=0,
        help="in process: judge the decisions of a game with this many worker "
        "processes (same results; default 0: one per core, at most 8)",
    )
    p.add_argument(
        "--report",
        metavar="OUT.html",
        help="write the analysis of one game as a self-contained HTML page",
    )
    p.add_argument(
        "--plot",
        metavar="OUT.png",
        help="draw the cumulative loss of every judged seat of one game as a PNG chart",
    )
    add_budget_arguments(p)
    add_connection_arguments(p)
    p.add_argument("--json", action="store_true", help="print each AnalyzeResponse as JSON lines")
    from quansu.batch import add_batch_arguments

    add_batch_arguments(p)  # --out, --ray, --reports: many games as tasks (quansu/batch.py)


#: The most worker processes ``--jobs 0`` starts (each loads the networks: about 150 MB).
MAX_DEFAULT_JOBS = 8


def analysis_jobs(jobs: int | None) -> int:
    """Worker processes of an in-process analysis: ``jobs``, or for 0/None one per core, at
    most :data:`MAX_DEFAULT_JOBS`."""
    if jobs:
        return max(1, jobs)
    return max(1, min(MAX_DEFAULT_JOBS, os.cpu_count() or 1))


def _band(loss: float, th) -> str:
    if loss <= th.good:
        return "good"
    if loss <= th.inaccuracy:
        return "inaccuracy"
    if loss <= th.mistake:
        return "mistake"
    return "blunder"


def mark_label(d, th, lang: str = "en") -> str:
    """The mark in words; an unclear one with the marks its interval spans."""
    if d.forced:
        return t("mark_forced", lang, mark=mark_name(d.mark, lang))
    if d.mark == 6:  # MARK_UNCLEAR
        return (
            f"{mark_name(6, lang)} ({mark_name(_band(d.loss_low, th), lang)}.."
            f"{mark_name(_band(d.loss_high, th), lang)})"
        )
    return mark_name(d.mark, lang)


def header_lines(th, model: str, lang: str = "en") -> list[str]:
    return [
        t(
            "analyze_header",
            lang,
            model=model,
            good=f"{th.good:g}",
            inaccuracy=f"{th.inaccuracy:g}",
            mistake=f"{th.mistake:g}",
        ),
        f"{t('col_index', lang):>4} {t('col_seat', lang):>4}  {t('col_played', lang):<24} "
        f"{t('col_best', lang):<24} {t('col_loss', lang):>6} {t('col_interval', lang):<13} "
        f"{t('col_worlds', lang):>6}  {t('col_mark', lang)}",
    ]


def decision_line(d, th=None, lang: str = "en") -> str:
    if th is None:
        from quansu.server.v1 import service_pb2 as pb

        th = pb.Thresholds(good=0.05, inaccuracy=0.15, mistake=0.4)
    interval = "" if d.forced else f"{d.loss_low:.3f}..{d.loss_high:.3f}"
    worlds = "" if d.forced else str(d.worlds)
    return (
        f"{d.index:>4} {d.seat:>4}  {move_name(d.played, lang):<24} "
        f"{move_name(d.best, lang):<24} "
        f"{d.loss:>6.3f} {interval:<13} {worlds:>6}  {mark_label(d, th, lang)}"
    )


def summary_lines(s, lang: str = "en") -> list[str]:
    marks = ", ".join(
        f"{mark_name(k, lang)} {s.marks[k] if k in s.marks else 0}" for k in MARK_ORDER
    )
    out = [
        t(
            "analyze_summary",
            lang,
            seat=s.seat,
            decisions=s.decisions,
            total=f"{s.total_loss:.3f}",
            average=f"{s.average_loss:.3f}",
            accuracy=f"{s.accuracy:.0%}",
            marks=marks,
        )
        + (t("analyze_result", lang, payoff=f"{s.payoff:+g}") if s.HasField("payoff") else "")
    ]
    for d in s.worst:
        out.append(
            t(
                "analyze_worst",
                lang,
                index=d.index,
                played=move_name(d.played, lang),
                best=move_name(d.best, lang),
                loss=f"{d.loss:.3f}",
            )
        )
    return out


def game_files(paths: list[str], lang: str = "en") -> list[str]:
    """The game files named, a folder standing for its record and view files (sorted); files
    in a folder that are not records or views are skipped with a note on standard error.
    ``OSError`` for a path that does not exist."""
    from quansu.games import record as rec

    out: list[str] = []
    for p in paths:
        if p == "-":
            out.append(p)
            continue
        path = Path(p)
        if path.is_dir():
            for f in sorted(path.glob("*.json")):
                try:
                    obj = rec.read_json(str(f))
                except (rec.RecordError, OSError, UnicodeDecodeError):
                    obj = None
                if isinstance(obj, dict) and obj.get("format") in (
                    rec.RECORD_FORMAT,
                    rec.VIEW_FORMAT,
                ):
                    out.append(str(f))
                else:
                    print(t("analyze_skipped", lang, file=f), file=sys.stderr)
        elif path.exists():
            out.append(p)
        else:
            raise FileNotFoundError(2, "No such file or directory", p)
    return out


def files_table(results: list, lang: str = "en") -> list[str]:
    """One row per (file, judged seat), then the totals per seat position."""
    cols = (
        f"{t('col_file', lang):<28} {t('col_seat', lang):>4} {t('col_decisions', lang):>9} "
        f"{t('col_accuracy', lang):>8} {mark_name('inaccuracy', lang)[:10]:>10} "
        f"{mark_name('mistake', lang)[:8]:>8} {mark_name('blunder', lang)[:8]:>8} "
        f"{mark_name('unclear', lang)[:8]:>8} {t('col_loss', lang):>8}"
    )
    lines = [cols]
    total = {
        "decisions": 0,
        "inaccuracy": 0,
        "mistake": 0,
        "blunder": 0,
        "unclear": 0,
        "loss": 0.0,
        "good": 0,
        "settled": 0,
    }
    for a in results:
        name = Path(a.source).name if a.source != "-" else "-"
        for s in a.summaries:
            m = {k: (s.marks[k] if k in s.marks else 0) for k in MARK_ORDER}
            lines.append(
                f"{name[:28]:<28} {s.seat:>4} {s.decisions:>9} {s.accuracy:>8.0%} "
                f"{m['inaccuracy']:>10} {m['mistake']:>8} {m['blunder']:>8} "
                f"{m['unclear']:>8} {s.total_loss:>8.3f}"
            )
            total["decisions"] += s.decisions
            for k in ("inaccuracy", "mistake", "blunder", "unclear"):
                total[k] += m[k]
            total["good"] += m["best"] + m["good"]
            total["settled"] += (
                m["best"] + m["good"] + m["inaccuracy"] + m["mistake"] + m["blunder"]
            )
            total["loss"] += s.total_loss
    forced = sum(1 for a in results for d in a.decisions if d.forced)
    settled = total["settled"] - forced
    acc = (total["good"] - forced) / settled if settled > 0 else 1.0
    lines.append(
        f"{t('analyze_total', lang)[:28]:<28} {'':>4} {total['decisions']:>9} {acc:>8.0%} "
        f"{total['inaccuracy']:>10} {total['mistake']:>8} {total['blunder']:>8} "
        f"{total['unclear']:>8} {total['loss']:>8.3f}"
    )
    return lines


def run(args, out=sys.stdout) -> int:
    if getattr(args, "out", None) or getattr(args, "ray", None) is not None:
        from quansu.batch import run_cli

        return run_cli(args, out)
    from quansu.client import Client
    from quansu.report import GameAnalysis, write_plot, write_report

    lang = lang_of(args)
    paths = getattr(args, "files", None) or [getattr(args, "file")]
    try:
        files = game_files(paths, lang)
    except OSError as e:
        return report_error(e, "record", args)
    if not files:
        print(
            t("error", lang, message=t("analyze_no_files", lang, paths=" ".join(paths))),
            file=sys.stderr,
        )
        return 2
    if files.count("-") > 1 or ("-" in files and len(files) > 1):
        print(
            t("error", lang, message=t("analyze_one_file", lang, option="-", count=len(files))),
            file=sys.stderr,
        )
        return 2
    many = len(files) > 1
    for option in ("report", "plot"):
        if getattr(args, option, None) and many:
            print(
                t(
                    "error",
                    lang,
                    message=t("analyze_one_file", lang, option=f"--{option}", count=len(files)),
                ),
                file=sys.stderr,
            )
            return 2
    if getattr(args, "plot", None):
        from quansu import plot

        if not plot.available():  # said before the analysis, not after its minutes
            print(
                t(
                    "error",
                    lang,
                    message=t("analyze_plot_needs_matplotlib", lang, install=plot.INSTALL),
                ),
                file=sys.stderr,
            )
            return 2
    tty = hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
    results: list = []
    failed = 0
    engine = client = None
    try:
        for k, path in enumerate(files, 1):
            name = Path(path).name if path != "-" else "-"
            analysis = GameAnalysis(obj={}, source=path)
            req = None
            started = time.monotonic()

            def show(msg, analysis=analysis, k=k, name=name) -> None:
                if args.json:
                    print(
                        json_format.MessageToJson(
                            msg, preserving_proto_field_name=True, indent=None
                        ),
                        file=out,
                    )
                which = msg.WhichOneof("item")
                if analysis.thresholds is None:
                    analysis.thresholds = msg.thresholds
                    analysis.model = msg.model
                    if not args.json and not many:
                        for line in header_lines(msg.thresholds, msg.model, lang):
                            print(line, file=out)
                if which == "decision":
                    analysis.decisions.append(msg.decision)
                    if not args.json and not many:
                        print(
                            decision_line(msg.decision, analysis.thresholds, lang),
                            file=out,
                            flush=True,
                        )
                    elif tty:
                        sys.stderr.write(
                            "\r"
                            + t(
                                "analyze_progress",
                                lang,
                                k=k,
                                n=len(files),
                                file=name,
                                done=msg.done,
                                total=msg.total,
                            )
                        )
                        sys.stderr.flush()
                elif which == "summary":
                    analysis.summaries.append(msg.summary)
                    if not args.json and not many:
                        for line in summary_lines(msg.summary, lang):
                            print(line, file=out)

            try:
                obj = read_game_file(path)
                analysis.obj = obj if isinstance(obj, dict) else {}
                thresholds = {
                    "good": args.good,
                    "inaccuracy": args.inaccuracy,
                    "mistake": args.mistake,
                }
                req = Client.analyze_request(
                    obj,
                    seats=args.seat,
                    iterations=args.iterations,
                    milliseconds=args.ms,
                    thresholds=thresholds,
                    seed=args.seed,
                )
                req.max_worlds = getattr(args, "worlds", 0) or 0
                if lang != "en":
                    req.language = lang
                if args.server:
                    if client is None:
                        client = make_client(args)
                    for msg in client.stub.Analyze(req, **client._kw(None)):
                        show(msg)
                else:
                    if engine is None:
                        from quansu.server.engine import build_engine

                        engine = build_engine(uniform=args.uniform)
                    engine.analyze(
                        req,
                        show,
                        seconds_left=args.timeout,
                        jobs=analysis_jobs(getattr(args, "jobs", 0)),
                    )
            except Exception as e:  # noqa: BLE001 - report_error re-raises what it does not know
                if many and tty:
                    sys.stderr.write("\n")
                if many:
                    print(f"{name}:", file=sys.stderr)
                code = report_error(
                    e, req.WhichOneof("game") if req is not None else "record", args
                )
                if not many:
                    return code
                failed += 1
                continue
            results.append(analysis)
            if many:
                done = sum(1 for _ in analysis.decisions)
                print(
                    ("\r" if tty else "")
                    + t(
                        "analyze_file_done",
                        lang,
                        k=k,
                        n=len(files),
                        file=name,
                        decisions=done,
                        seconds=f"{time.monotonic() - started:.1f}",
                    ),
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        if client is not None:
            client.close()
    if many and not args.json:
        for line in files_table(results, lang):
            print(line, file=out)
    if not many and results:
        analysis = results[0]
        if args.plot:
            if not analysis.decisions:
                print(t("error", lang, message=t("analyze_no_plot", lang)), file=sys.stderr)
                return 2
            try:
                write_plot(analysis, args.plot, lang)
            except OSError as e:
                return report_error(e, "record", args)
            print(t("analyze_plot_written", lang, path=args.plot), file=out)
        if args.report:
            if not analysis.decisions:
                print(t("error", lang, message=t("analyze_no_report", lang)), file=sys.stderr)
                return 2
            try:
                write_report(analysis, args.report, lang)
            except OSError as e:
                return report_error(e, "record", args)
            print(t("analyze_report_written", lang, path=args.report), file=out)
    return 2 if failed else 0
