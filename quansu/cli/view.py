"""``quansu view RECORD.json --seat S [--at K]``: cut the view of one seat from a record.

Prints (or writes with ``--out``) the ``quansu-view/1`` JSON of seat S after the first K moves of the
record (default: all of them), ready for ``quansu hint``: its own hand as dealt, the other seats'
card counts, the face-up trump, the cards S drew from the stock, and the public moves.  The record is
replayed up to move K, so an invalid record is rejected with its error.

Exit status: 0 done, 1 invalid record, 2 unreadable file or bad ``--seat`` / ``--at``.
``-`` reads the record from standard input.
"""

from __future__ import annotations

import argparse
import sys

from quansu.cli.i18n import error_text, lang_of, t
from quansu.cli.replay import read_input
from quansu.games import GameError
from quansu.games import record as records


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "record", metavar="RECORD.json", help="a quansu-record/1 file ('-': standard input)"
    )
    p.add_argument("--seat", type=int, required=True, help="the seat whose view to cut (0-based)")
    p.add_argument(
        "--at",
        type=int,
        default=None,
        metavar="K",
        help="cut after the first K moves (default: all moves)",
    )
    p.add_argument(
        "--out",
        "-o",
        default=None,
        metavar="FILE",
        help="write the view here (default or '-': standard output)",
    )


def run(args, out=None, err=None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    lang = lang_of(args)
    try:
        obj = read_input(args.record)
    except OSError as e:
        print(t("view_cannot_read", lang, path=args.record, reason=e.strerror or e), file=err)
        return 2
    except GameError as e:
        print(t("view_invalid", lang, message=error_text(e, lang)), file=err)
        return 1
    try:
        rec = records.parse_record(obj)
    except GameError as e:
        print(t("view_invalid", lang, message=error_text(e, lang)), file=err)
        return 1
    n = rec.game.num_players
    if not 0 <= args.seat < n:
        print(t("view_seat_range", lang, seat=args.seat, last=n - 1), file=err)
        return 2
    at = getattr(args, "at", None)
    if at is not None and not 0 <= at <= len(rec.moves):
        print(t("view_at_range", lang, at=at, moves=len(rec.moves)), file=err)
        return 2
    try:
        view = records.view_at(rec, args.seat, at)
    except GameError as e:
        print(t("view_invalid", lang, message=error_text(e, lang)), file=err)
        return 1
    text = records.dumps(view)
    target = getattr(args, "out", None)
    if target and target != "-":
        try:
            with open(target, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            print(t("view_cannot_write", lang, path=target, reason=e.strerror or e), file=err)
            return 2
    else:
        out.write(text)
    return 0
