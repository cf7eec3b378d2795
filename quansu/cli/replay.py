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

Each hand prints in the game's order (``Game.sort_cards``: Phỏm's ace low, Tấn's trumps last).
``--legal`` adds, before every move, the seat to act and all its legal moves in a player's order
(grouped by kind, low to high: ``Game.sort_moves``).  With ``--lang vi`` the table names the moves
as players say them and writes the cards 3♠ 10♥ (``Game.move_label``); in English, and in the
JSON lines of every language, moves and cards are in the canonical notation.  ``--json`` prints
JSON lines instead: one ``{"type": "game", ...}`` line, one
``{"type": "move", "index", "seat", "move"[, "to_act", "legal"]}`` line per move, then
``{"type": "end", "over", "moves", ...}``; an invalid record ends with ``{"type": "error", "error",
"code"}`` (``code``: the error's stable code, games/errors.py; ``error`` in ``--lang``).  Every
text is in ``--lang`` (quansu/cli/i18n.py), the rules' errors included (their codes' tables).

Exit status: 0 valid record, 1 invalid record (the error, e.g. ``moves[17]: "9H" is not in seat 2's
hand``, goes to stderr), 2 unreadable file.  ``-`` reads the record from standard input.
"""

from __future__ import annotations

import argparse
import json
import sys

from quansu.cli.i18n import error_text, lang_of, t
from quansu.cli.play import move_name
from quansu.games import GameError
from quansu.games import record as records
from quansu.games.cards import card_str
from quansu.games.labels import cards_label


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "record", metavar="RECORD.json", help="a quansu-record/1 file ('-': standard input)"
    )
    p.add_argument("--json", action="store_true", help="JSON lines instead of a table")
    p.add_argument(
        "--legal",
        action="store_true",
        help="list the seat to act and its legal moves (in a player's order) at every step",
    )


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
    lang = lang_of(args)

    def emit(obj) -> None:
        print(json.dumps(obj, ensure_ascii=False), file=out)

    def fail(e: GameError) -> int:
        msg = error_text(e, lang)
        if as_json:
            emit({"type": "error", "error": msg, "code": getattr(e, "code", "")})
        print(t("replay_invalid", lang, message=msg), file=err)
        return 1

    try:
        obj = read_input(args.record)
    except OSError as e:
        print(t("replay_cannot_read", lang, path=args.record, reason=e.strerror or e), file=err)
        return 2
    except GameError as e:
        return fail(e)
    try:
        rec = records.parse_record(obj)
    except GameError as e:
        return fail(e)
    game = rec.game

    def cards_text(cards) -> str:  # in Vietnamese as players write them (10♥), else notation
        return cards_label(cards) if lang == "vi" else " ".join(card_str(c) for c in cards)

    def legal_names(state) -> list[str]:
        return [
            move_name(game, m, lang)
            for m in game.sort_moves(state.legal_moves(), state.trump_card())
        ]

    options = {k: v for k, v in records.record_to_json(rec)["options"].items()}
    deal = records.deal_json(rec.deal)
    if as_json:
        emit(
            {
                "type": "game",
                "game": game.name,
                "players": game.num_players,
                "options": options,
                "deal": deal,
            }
        )
    else:
        opts = json.dumps(options, ensure_ascii=False) if options else t("replay_defaults", lang)
        print(
            t("replay_game", lang, game=game.name, players=game.num_players, options=opts), file=out
        )
        print(t("replay_deal", lang, seat=deal["first"]), file=out)
        trump = rec.deal.trump
        for s, h in enumerate(rec.deal.hands):  # each hand as a player holds it
            print(
                t("replay_hand", lang, seat=s, cards=cards_text(game.sort_cards(h, trump))),
                file=out,
            )
        if "stock" in deal:
            print(t("replay_stock", lang, cards=cards_text(rec.deal.stock)), file=out)
        if "trump" in deal:
            print(t("replay_trump", lang, card=cards_text([trump])), file=out)
        if "set_aside" in deal:
            print(t("replay_set_aside", lang, cards=cards_text(rec.deal.set_aside)), file=out)
        print(t("replay_columns", lang, index="#", seat=t("col_seat", lang)), file=out)

    pending: dict = {}

    def before(i, state, seat, move) -> None:
        if legal:
            pending["legal"] = records.legal_move_texts(state)
            pending["names"] = legal_names(state)
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
                moves = pending["names"]
                print(
                    t(
                        "replay_legal",
                        lang,
                        pad="",
                        seat=pending["to_act"],
                        count=len(moves),
                        moves=", ".join(moves),
                    ),
                    file=out,
                )
            print(f"{i:<5}{seat:<6}{move_name(game, move, lang)}", file=out)

    try:
        state = records.replay_record(rec, on_step=before, on_applied=after, check=False)
        records.check_result(state, rec.result, len(rec.moves))
    except GameError as e:
        return fail(e)

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
        print(t("replay_not_over", lang, moves=n, seat=state.current_player), file=out)
        if legal:
            moves = legal_names(state)
            print(
                t(
                    "replay_legal",
                    lang,
                    pad="",
                    seat=state.current_player,
                    count=len(moves),
                    moves=", ".join(moves),
                ),
                file=out,
            )
        return 0
    print(t("replay_over", lang, moves=n), file=out)
    print(t("replay_settlement", lang), file=out)
    transfers = state.settlement()
    for payer, payee, amount in transfers:
        print(t("play_transfer", lang, payer=payer, payee=payee, amount=f"{amount:g}"), file=out)
    if not transfers:
        print(t("replay_no_payments", lang), file=out)
    items = ", ".join(
        t("view_count", lang, seat=s, count=_signed(r)) for s, r in enumerate(state.returns())
    )
    print(t("replay_net", lang, items=items), file=out)
    print(
        t("replay_result_absent" if rec.result is None else "replay_result_agrees", lang), file=out
    )
    return 0
