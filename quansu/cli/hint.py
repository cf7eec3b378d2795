"""``quansu hint FILE.json``: ranked suggested moves for a seat's view.

FILE is a ``quansu-view/1`` file (``quansu view RECORD.json --seat S`` cuts one), or a full
``quansu-record/1`` file with ``--seat`` (and ``--at K``: after the first K moves).  The search
runs in this process, or on a server with ``--server HOST[:PORT]`` (port default 50051).
``-`` reads the file from standard input.  Prints the hint's advice line, then its rows (the
move, its payoff, its reasons; ``--details`` adds the statistics: the search, the group, the
deals or share of visits, the lower bound, the prior and each row's suit variants) and
``play:`` with the first row's move; or the SuggestResponse as protobuf JSON with ``--json``;
the table and the reasons in ``--lang vi|en`` (default: the locale).
"""

from __future__ import annotations

import argparse
import sys

from google.protobuf import json_format

from quansu.cli.common import (
    add_budget_arguments,
    add_connection_arguments,
    make_client,
    read_game_file,
    report_error,
)
from quansu.cli.i18n import lang_of, stopped_name, t


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "file",
        metavar="FILE.json",
        help="a quansu-view/1 file (or a record with --seat); '-': standard input",
    )
    p.add_argument("--seat", type=int, default=None, help="cut this seat's view from a record")
    p.add_argument("--at", type=int, default=None, help="with --seat: after the first K moves")
    p.add_argument("--top", type=int, default=0, help="how many moves to show (0: server default)")
    p.add_argument(
        "--strength", type=int, default=0, help="bot strength 1..5 (search/levels.py); 0: a hint"
    )
    add_budget_arguments(p)
    add_connection_arguments(p)
    p.add_argument(
        "--details",
        action="store_true",
        help="also show the statistics: the search, the group, deals or share of "
        "visits, lower bound, prior, and each row's suit variants",
    )
    p.add_argument("--json", action="store_true", help="print the response as protobuf JSON")


def view_object(args) -> dict:
    from quansu.games import record as rec

    obj = read_game_file(args.file)
    lang = lang_of(args)
    if isinstance(obj, dict) and obj.get("format") == rec.RECORD_FORMAT:
        if args.seat is None:
            raise rec.RecordError(t("hint_record_needs_seat", lang))
        return rec.view_at(obj, args.seat, args.at)
    if args.seat is not None or args.at is not None:
        raise rec.RecordError(t("hint_view_no_seat", lang))
    return obj


def move_name(move, lang: str = "en") -> str:
    """A Move message as the commands show it: in Vietnamese its ``label`` (the move as a
    player says it, filled in the request's language), in English its notation."""
    return move.label if lang == "vi" and move.label else move.text


def row_name(s, lang: str = "en") -> str:
    """A row of the hint as the commands show it: a row of suit variants by its ``label`` (the
    play without its suits, "straight 3-4-5-6-7, any suits"), else its move (:func:`move_name`)."""
    if s.variants and s.label:
        return s.label
    return move_name(s.move, lang)


_UNRANKED = ("few_visits", "not_measured")


def format_table(resp, lang: str = "en", details: bool = False) -> str:
    """The answer in ``lang``: the advice line (a hint's, in the request's language), the rows
    in their order with the payoff and the reasons, and ``play:`` with the move to play (a
    hint's first row; for bot play the level's choice, with, at a level with the improvement
    step, whether that step kept the sparring bot's move or measured the played move better on
    its worlds).  Rows not ranked by their payoff (too few visits, not measured) come under a
    line saying so.  ``details``: also the search's line, the group, the deals (a measured
    hint) or share of visits, the lower bound, the prior, and under a row of suit variants the
    other suits.  In Vietnamese the moves are named as players say them (:func:`move_name`)."""
    st = resp.stats
    measured = st.hint_worlds > 0
    lines = []
    if resp.advice:
        lines.append(resp.advice)
    if details:
        lines.append(
            t(
                "hint_header",
                lang,
                game=resp.game,
                seat=resp.seat,
                model=resp.model,
                iterations=st.iterations,
                ms=f"{st.elapsed_ms:.0f}",
                stopped=stopped_name(st.stopped_by, lang),
                legal=st.legal_moves,
            )
        )
        if measured:  # a measured hint: the deals each move was played on, not a share of visits
            lines.append(t("hint_measured", lang, worlds=st.hint_worlds))
    names = [row_name(s, lang) for s in resp.moves]
    w = min(48, max([28] + [len(n) for n in names]))
    head = f"{'#':>2}  {t('col_move', lang):<{w}} {t('col_payoff', lang):>8}"
    if details:
        head += (
            f" {t('col_group', lang):>5} {t('col_deals' if measured else 'col_share', lang):>6}"
            f" {t('col_lcb', lang):>8} {t('col_prior', lang):>6}"
        )
    lines.append(f"{head}  {t('col_reasons', lang)}")
    ranked = True
    for i, (s, name) in enumerate(zip(resp.moves, names), 1):
        if ranked and s.reasons and s.reasons[0].code in _UNRANKED and i > 1:
            lines.append(t("hint_unranked", lang))
        ranked = ranked and not (s.reasons and s.reasons[0].code in _UNRANKED)
        reasons = "; ".join(r.text for r in s.reasons)
        line = f"{i:>2}  {name:<{w}} {s.expected_payoff:>+8.3f}"
        if details:
            lcb = f"{s.lower_bound:>+8.3f}" if s.HasField("lower_bound") else f"{'-':>8}"
            share = f"{s.visits:>6d}" if measured else f"{s.visit_share:>6.1%}"
            line += f" {s.group:>5} {share} {lcb} {s.prior:>6.3f}"
        lines.append(f"{line}  {reasons}".rstrip())
        if details and s.variants:
            lines.append(
                "    "
                + t("hint_variants", lang, moves=", ".join(move_name(v, lang) for v in s.variants))
            )
    play = t("hint_play", lang, move=move_name(resp.chosen, lang))
    if st.improve_worlds > 0:  # bot play with the improvement step: why this move is played
        key = "hint_play_improved" if st.improve_changed else "hint_play_kept"
        play += " " + t(key, lang, worlds=st.improve_worlds)
    lines.append(play)
    return "\n".join(lines)


def run(args, out=sys.stdout) -> int:
    from quansu.client import Client

    try:
        obj = view_object(args)
        req = Client.suggest_request(
            obj,
            iterations=args.iterations,
            milliseconds=args.ms,
            top_k=args.top,
            strength=args.strength,
            seed=args.seed,
        )
        req.language = lang_of(args)
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
        print(format_table(resp, lang_of(args), details=args.details), file=out)
    return 0
