"""``quansu replay RECORD.json``: the referee.

Validates a ``quansu-record/1`` file by playing it through the rules engine, prints each move with
its seat and the final settlement, and checks the record's ``result`` against it.

Output (default, a table)::

    game: tienlen, 4 players, options: defaults
    deal (seat 2 acts first):
      seat 0: 3S 5C ...
    #    seat  move
    0    2     3S 3H
    ...
    game over after 57 moves
    settlement (payer -> payee: bets):
      seat 1 -> seat 2: 1
    net: seat 0: +0, seat 1: -1, ...
    result: agrees with the settlement

``--legal`` adds, before every move, the seat to act and all its legal moves in canonical notation,
sorted as strings.  ``--json`` prints JSON lines instead: one ``{"type": "game", ...}`` line, one
``{"type": "move", "index", "seat", "move"[, "to_act", "legal"]}`` line per move, then
``{"type": "end", "over", "moves", ...}``; an invalid record ends with ``{"type": "error", "error"}``.

Exit status: 0 valid record, 1 invalid record (the error, e.g. ``moves[17]: "9H" is not in seat 2's
hand``, goes to stderr), 2 unreadable file.  ``-`` reads the record from standard input.
"""

from __future__ import annotations

import argparse
import json
import sys

from quansu.games import GameError
from quansu.games import record as records


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", metavar="RECORD.json", help="a quansu-record/1 file ('-': standard input)")
    p.add_argument("--json", action="store_true", help="JSON lines instead of a table")
    p.add_argument("--legal", action="store_true",
                   help="list the seat to act and its legal moves (sorted) at every step")


def read_input(path: str):
    """The JSON object of a file (``-``: standard input).  Raises ``OSError`` or ``RecordError``."""
    if path == "-":
        return records.loads(sys.stdin.read())
    return records.read_json(path)


def _signed(x: float) -> str:
    return f"{x:+g}"


def run(args, out=None, err=None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    as_json = bool(getattr(args, "json", False))
    legal = bool(getattr(args, "legal", False))

    def emit(obj) -> None:
        print(json.dumps(obj, ensure_ascii=False), file=out)

    def fail(msg: str) -> int:
        if as_json:
            emit({"type": "error", "error": msg})
        print(f"quansu replay: invalid record: {msg}", file=err)
        return 1

    try:
        obj = read_input(args.record)
    except OSError as e:
        print(f"quansu replay: cannot read {args.record}: {e.strerror or e}", file=err)
        return 2
    except GameError as e:
        return fail(str(e))
    try:
        rec = records.parse_record(obj)
    except GameError as e:
        return fail(str(e))
    game = rec.game
    options = {k: v for k, v in records.record_to_json(rec)["options"].items()}
    deal = records.deal_json(rec.deal)
    if as_json:
        emit({"type": "game", "game": game.name, "players": game.num_players, "options": options,
              "deal": deal})
    else:
        opts = json.dumps(options, ensure_ascii=False) if options else "defaults"
        print(f"game: {game.name}, {game.num_players} players, options: {opts}", file=out)
        print(f"deal (seat {deal['first']} acts first):", file=out)
        for s, h in enumerate(deal["hands"]):
            print(f"  seat {s}: {' '.join(h['cards'])}", file=out)
        if "stock" in deal:
            print(f"  stock (top first): {' '.join(deal['stock'])}", file=out)
        if "trump" in deal:
            print(f"  trump: {deal['trump']}", file=out)
        if "set_aside" in deal:
            print(f"  set aside: {' '.join(deal['set_aside'])}", file=out)
        print(f"{'#':<5}{'seat':<6}move", file=out)

    pending: dict = {}

    def before(i, state, seat, move) -> None:
        if legal:
            pending["legal"] = records.legal_move_texts(state)
            pending["to_act"] = state.current_player

    def after(i, state, seat, move) -> None:
        text = game.move_to_text(move)
        if as_json:
            line = {"type": "move", "index": i, "seat": seat, "move": text}
            if legal:
                line["to_act"] = pending["to_act"]
                line["legal"] = pending["legal"]
            emit(line)
        else:
            if legal:
                moves = pending["legal"]
                print(f"{'':<5}seat {pending['to_act']} to act, {len(moves)} legal: {', '.join(moves)}",
                      file=out)
            print(f"{i:<5}{seat:<6}{text}", file=out)

    try:
        state = records.replay_record(rec, on_step=before, on_applied=after, check=False)
        records.check_result(state, rec.result, len(rec.moves))
    except GameError as e:
        return fail(str(e))

    n = len(rec.moves)
    over = state.is_terminal()
    result_status = "absent" if rec.result is None else "agrees"
    if as_json:
        end = {"type": "end", "over": over, "moves": n}
        if over:
            end.update(records.result_json(state))
            end["result"] = result_status
        else:
            end["to_act"] = state.current_player
            if legal:
                end["legal"] = records.legal_move_texts(state)
        emit(end)
        return 0
    if not over:
        print(f"game not over after {n} moves; seat {state.current_player} is to act", file=out)
        if legal:
            moves = records.legal_move_texts(state)
            print(f"{'':<5}seat {state.current_player} to act, {len(moves)} legal: {', '.join(moves)}",
                  file=out)
        return 0
    print(f"game over after {n} moves", file=out)
    print("settlement (payer -> payee: bets):", file=out)
    transfers = state.settlement()
    for payer, payee, amount in transfers:
        print(f"  seat {payer} -> seat {payee}: {amount:g}", file=out)
    if not transfers:
        print("  (no payments)", file=out)
    print("net: " + ", ".join(f"seat {s}: {_signed(r)}" for s, r in enumerate(state.returns())),
          file=out)
    print("result: " + ("not given in the record" if rec.result is None else "agrees with the settlement"),
          file=out)
    return 0
