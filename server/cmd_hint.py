"""``quansu hint FILE.json``: ranked suggested moves for a seat's view.

FILE is a ``quansu-view/1`` file (``quansu view RECORD.json --seat S`` cuts one), or a full
``quansu-record/1`` file with ``--seat`` (and ``--at K``: after the first K moves).  The search
runs in this process, or on a server with ``--server HOST[:PORT]`` (port default 50051).
``-`` reads the file from standard input.  Prints a table, or the
SuggestResponse as protobuf JSON with ``--json``.
"""

from __future__ import annotations

import argparse
import sys

from google.protobuf import json_format

from quansu.server.cmd_common import (add_budget_arguments, add_connection_arguments, make_client,
                               read_game_file, report_error)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE.json",
                   help="a quansu-view/1 file (or a record with --seat); '-': standard input")
    p.add_argument("--seat", type=int, default=None, help="cut this seat's view from a record")
    p.add_argument("--at", type=int, default=None, help="with --seat: after the first K moves")
    p.add_argument("--top", type=int, default=0, help="how many moves to show (0: server default)")
    p.add_argument("--strength", type=int, default=0, help="bot strength 1..5 (search/levels.py); 0: a hint")
    add_budget_arguments(p)
    add_connection_arguments(p)
    p.add_argument("--json", action="store_true", help="print the response as protobuf JSON")


def view_object(args) -> dict:
    from quansu.games import record as rec

    obj = read_game_file(args.file)
    if isinstance(obj, dict) and obj.get("format") == rec.RECORD_FORMAT:
        if args.seat is None:
            raise rec.RecordError("format: a full record needs --seat S to cut that seat's view "
                                  "(or give a quansu-view/1 file)")
        return rec.view_at(obj, args.seat, args.at)
    if args.seat is not None or args.at is not None:
        raise rec.RecordError("--seat/--at: only for a full record; this file is already a view")
    return obj


def format_table(resp) -> str:
    lines = [f"{resp.game}: seat {resp.seat} to act; model {resp.model}; "
             f"{resp.stats.iterations} iterations in {resp.stats.elapsed_ms:.0f} ms "
             f"(stopped by {resp.stats.stopped_by}); {resp.stats.legal_moves} legal moves",
             f"{'#':>2}  {'move':<28} {'share':>6} {'payoff':>8} {'lcb':>8} {'prior':>6}  reasons"]
    for i, s in enumerate(resp.moves, 1):
        reasons = "; ".join(r.text for r in s.reasons)
        lines.append(f"{i:>2}  {s.move.text:<28} {s.visit_share:>6.1%} {s.expected_payoff:>+8.3f} "
                     f"{s.lower_bound:>+8.3f} {s.prior:>6.3f}  {reasons}")
    lines.append(f"play: {resp.chosen.text}")
    return "\n".join(lines)


def run(args, out=sys.stdout) -> int:
    from quansu.server.client import Client

    try:
        obj = view_object(args)
        req = Client.suggest_request(obj, iterations=args.iterations, milliseconds=args.ms,
                                     top_k=args.top, strength=args.strength, seed=args.seed)
        if args.server:
            with make_client(args) as client:
                resp = client.stub.Suggest(req, **client._kw(None))
        else:
            from quansu.server.engine import build_engine

            resp = build_engine(uniform=args.uniform).suggest(req, seconds_left=args.timeout)
    except Exception as e:  # noqa: BLE001 - report_error re-raises what it does not know
        return report_error(e, "view", args)
    if args.json:
        print(json_format.MessageToJson(resp, preserving_proto_field_name=True), file=out)
    else:
        print(format_table(resp), file=out)
    return 0
