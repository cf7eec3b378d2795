"""``quansu analyze GAME.json``: judge every decision of a game.

GAME is a ``quansu-record/1`` file (every seat can be judged) or a ``quansu-view/1`` file (the
view's seat only).  Each decision is searched from the deciding seat's information at that time;
the table shows the move played, the best move, the expected loss in bets and the mark, then a
summary per seat.  ``--plot out.png`` draws the judged seat's expected payoff and losses over the
game.  In process, or on a server with ``--server HOST[:PORT]`` (port default 50051).  ``-`` reads
the file from standard input.  Texts (and the reasons of the candidates) in ``--lang vi|en``
(default: the locale; :mod:`server.i18n`).
"""

from __future__ import annotations

import argparse
import sys

from google.protobuf import json_format

from quansu.server.cmd_common import (add_budget_arguments, add_connection_arguments, make_client,
                               read_game_file, report_error)
from quansu.server.i18n import lang_of, mark_name, t


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="GAME.json",
                   help="a quansu-record/1 or quansu-view/1 file ('-': standard input)")
    p.add_argument("--seat", type=int, action="append", default=[],
                   help="judge this seat (repeatable; default: every seat of a record)")
    p.add_argument("--good", type=float, default=0.0, help="loss threshold of 'good', in bets")
    p.add_argument("--inaccuracy", type=float, default=0.0, help="loss threshold of 'inaccuracy'")
    p.add_argument("--mistake", type=float, default=0.0,
                   help="loss threshold of 'mistake' (above it: blunder)")
    p.add_argument("--plot", metavar="OUT.png", help="draw expected payoff and losses per decision")
    add_budget_arguments(p)
    add_connection_arguments(p)
    p.add_argument("--json", action="store_true", help="print each AnalyzeResponse as JSON lines")


def decision_line(d, lang: str = "en") -> str:
    mark = mark_name(d.mark, lang)
    if d.forced:
        mark = t("mark_forced", lang, mark=mark)
    value = f"{'':>8}" if d.forced else f"{d.best_value:>+8.3f}"
    return (f"{d.index:>4} {d.seat:>4}  {d.played.text:<24} {d.best.text:<24} "
            f"{d.loss:>7.3f} {value}  {mark}")


def summary_lines(s, lang: str = "en") -> list[str]:
    marks = ", ".join(f"{mark_name(k, lang)} {s.marks[k]}"
                      for k in ("best", "good", "inaccuracy", "mistake", "blunder"))
    out = [t("analyze_summary", lang, seat=s.seat, decisions=s.decisions,
             total=f"{s.total_loss:.3f}", average=f"{s.average_loss:.3f}",
             accuracy=f"{s.accuracy:.0%}", marks=marks)
           + (t("analyze_result", lang, payoff=f"{s.payoff:+g}") if s.HasField("payoff") else "")]
    for d in s.worst:
        out.append(t("analyze_worst", lang, index=d.index, played=d.played.text,
                     best=d.best.text, loss=f"{d.loss:.3f}"))
    return out


def plot(decisions: list, path: str) -> None:
    from quansu.models.training.plot import line_plot_png

    seat = decisions[0].seat
    mine = [d for d in decisions if d.seat == seat]
    values = []
    for d in mine:  # a forced decision is not searched: keep the last value
        values.append(values[-1] if d.forced and values else d.best_value)
    line_plot_png({"expected payoff": values,
                   "loss": [d.loss for d in mine],
                   "total loss": [sum(x.loss for x in mine[:i + 1]) for i in range(len(mine))]}, path)


def run(args, out=sys.stdout) -> int:
    from quansu.server.client import Client

    decisions = []
    header_done = [False]
    lang = lang_of(args)

    def show(msg) -> None:
        if args.json:
            print(json_format.MessageToJson(msg, preserving_proto_field_name=True, indent=None), file=out)
        which = msg.WhichOneof("item")
        if which == "decision":
            decisions.append(msg.decision)
            if not args.json:
                if not header_done[0]:
                    header_done[0] = True
                    th = msg.thresholds
                    print(t("analyze_header", lang, model=msg.model, good=f"{th.good:g}",
                            inaccuracy=f"{th.inaccuracy:g}", mistake=f"{th.mistake:g}"), file=out)
                    print(f"{t('col_index', lang):>4} {t('col_seat', lang):>4}  "
                          f"{t('col_played', lang):<24} {t('col_best', lang):<24} "
                          f"{t('col_loss', lang):>7} {t('col_value', lang):>8}  "
                          f"{t('col_mark', lang)}", file=out)
                print(decision_line(msg.decision, lang), file=out, flush=True)
        elif which == "summary" and not args.json:
            for line in summary_lines(msg.summary, lang):
                print(line, file=out)

    try:
        obj = read_game_file(args.file)
        thresholds = {"good": args.good, "inaccuracy": args.inaccuracy, "mistake": args.mistake}
        req = Client.analyze_request(obj, seats=args.seat, iterations=args.iterations,
                                     milliseconds=args.ms, thresholds=thresholds, seed=args.seed)
        req.language = lang
        if args.server:
            with make_client(args) as client:
                for msg in client.stub.Analyze(req, **client._kw(None)):
                    show(msg)
        else:
            from quansu.server.engine import build_engine

            build_engine(uniform=args.uniform).analyze(req, show, seconds_left=args.timeout)
    except Exception as e:  # noqa: BLE001 - report_error re-raises what it does not know
        return report_error(e, req.WhichOneof("game") if "req" in locals() else "record", args)
    if args.plot:
        if not decisions:
            print(t("error", lang, message=t("analyze_no_plot", lang)), file=sys.stderr)
            return 2
        plot(decisions, args.plot)
        print(t("analyze_plot_written", lang, path=args.plot), file=out)
    return 0
