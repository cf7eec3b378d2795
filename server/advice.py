"""A hint as a player reads it: one line of advice over rows in the order of their values, the
same play in other suits folded into one row (issue 45; docs/api.md, "A hint in a player's
words").

The engine builds a hint's ranked :class:`Row` list (``server/engine.py``); this module

* orders the rows that were not ranked by their payoff (moves with too few visits, moves a
  measured hint did not measure) by the payoff they show, after the ranked ones
  (:func:`order_rest`);
* folds the suit variants of one play (:meth:`games.base.Game.suit_variant_key`) that measured
  exactly the same value in the same tied group into the first of them, the one the ranking put
  first, whose suits are the ones chosen for the player: the others go to the row's
  ``variants`` and the row's ``label`` names the play without its suits ("straight 3-4-5-6-7,
  any suits", :meth:`games.base.Game.variants_label`) (:func:`fold_variants`);
* writes the advice: the top row's move in the game's terms, what it does (its first game
  reason that is not a cost, then the cost it accepts, :data:`games.reasons.COST_CODES`), and
  its lead over the next row in bets, or "about as good as" that row when the two are tied; a
  forced move says so and gives the position's value (:func:`advice`).

Texts in the language in force (:func:`games.reasons.current_language`, the request's).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from quansu.games.base import Move, State
from quansu.games.labels import fill
from quansu.games.reasons import COST_CODES, current_language
from quansu.server.reasons import SEARCH_TEXTS
from quansu.server.v1 import service_pb2 as pb

#: The advice's words: key -> (English, Vietnamese) templates.
ADVICE_TEXTS: dict[str, tuple[str, str]] = {
    "best": ("Best move: {move}", "Nên {move}"),
    "suits": ("{move} (other suits do as well)", "{move} (chất khác cũng được)"),
    "why": ("{head} — {why}", "{head} — {why}"),
    "cost": ("{why}, {cost}", "{why}, {cost}"),
    "lead": ("{head}; {d} bets better than {next}", "{head}; hơn {next} khoảng {d} cược"),
    "tied": ("{head}; about as good as {next}", "{head}; ngang với {next}"),
    "forced": (
        "Forced move: {move} is your only legal move",
        "Nước bắt buộc: {move} là nước đi duy nhất",
    ),
    "worth": (
        "{head}; your position is worth about {v} bets",
        "{head}; thế bài của bạn đáng khoảng {v} cược",
    ),
}


@dataclass
class Row:
    """One row of a hint: ``move`` (the engine's move, the suits chosen for the player),
    ``msg`` (its :class:`Suggestion`), ``ranked``: its payoff ranks it (measured well enough;
    False for moves with too few visits and moves a measured hint did not measure),
    ``variants``: the same play in other suits folded into it.  ``line``: its principal line
    (``(seat, move)`` pairs) and ``explain(top)``: its reasons, ``top`` naming the first row
    (filled into ``msg`` for the rows sent only, :meth:`server.engine.Engine`)."""

    move: Move
    msg: pb.Suggestion
    ranked: bool
    variants: list = field(default_factory=list)
    line: tuple = ()
    explain: Callable[[str], list] | None = None


def order_rest(rows: list[Row]) -> list[Row]:
    """``rows`` with the unranked ones (after the ranked, as the ranking rule puts them) in the
    order of the payoff they show, highest first (ties keep their order)."""
    ranked = [r for r in rows if r.ranked]
    rest = sorted((r for r in rows if not r.ranked), key=lambda r: -r.msg.expected_payoff)
    return ranked + rest


def _same_value(a: Row, b: Row) -> bool:
    return (
        a.ranked == b.ranked
        and a.msg.group == b.msg.group
        and math.isclose(a.msg.expected_payoff, b.msg.expected_payoff, rel_tol=1e-9, abs_tol=1e-9)
    )


def fold_variants(
    state: State, rows: list[Row], lang: str | None = None, fold: bool = True
) -> list[Row]:
    """``rows`` with each play's suit variants of the same value (same ``ranked``, ``group`` and
    ``expected_payoff``) folded into the first of them: its ``msg.variants`` lists the others
    (their moves, in the order ranked) and ``msg.label`` names the row, the play without its
    suits when it holds variants (every legal choice of suits: "any suits"), else the move's
    label.  Every row gets its ``label``; ``fold`` False: only that (bot play)."""
    game = state.game
    lang = current_language() if lang is None else lang
    legal = None
    out: list[Row] = []
    first: dict = {}
    for row in rows:
        key = game.suit_variant_key(row.move) if fold else None
        for i in first.get(key, ()):
            if _same_value(out[i], row):
                out[i].variants.append(row)
                break
        else:
            if fold:
                first.setdefault(key, []).append(len(out))
            out.append(row)
    for row in out:
        if row.variants:
            if legal is None:
                legal = Counter(game.suit_variant_key(m) for m in state.legal_moves())
            count = 1 + len(row.variants)
            every = legal[game.suit_variant_key(row.move)] == count
            for v in row.variants:
                row.msg.variants.append(v.msg.move)
            row.msg.label = game.variants_label(row.move, count, every, lang)
        else:
            row.msg.label = row.msg.move.label
    return out


def _number(x: float, lang: str, sign: bool = False) -> str:
    text = f"{x:+.2f}" if sign else f"{x:.2f}"
    return text.replace(".", ",") if lang == "vi" else text


def _why(msg: pb.Suggestion, lang: str) -> str:
    """What the move does: its first game reason that is not a cost, then the cost it
    accepts (the search's reasons are statistics, not reasons a player plays a move for)."""
    own = [r for r in msg.reasons if r.code not in SEARCH_TEXTS]
    does = next((r.text for r in own if r.code not in COST_CODES), "")
    cost = next((r.text for r in own if r.code in COST_CODES), "")
    if does and cost:
        return fill(ADVICE_TEXTS["cost"], lang, why=does, cost=cost)
    return does or cost


def advice(rows: list[Row], *, forced: bool = False, lang: str | None = None) -> str:
    """The hint's one line of advice over its rows (already ordered and folded): the top row's
    move with the suits chosen (other suits doing as well when the row holds variants) and what
    it does, and its lead in bets over the next ranked row ("about as good as"
    that row when they are tied, nothing when no other row is ranked); ``forced``: the lone
    move said to be forced, with the position's value when it was measured (``visits``)."""
    if not rows:
        return ""
    lang = current_language() if lang is None else lang
    top = rows[0].msg
    name = top.move.label or top.move.text  # the suits chosen for the player
    if top.variants:
        name = fill(ADVICE_TEXTS["suits"], lang, move=name)
    if forced:
        head = fill(ADVICE_TEXTS["forced"], lang, move=name)
        if top.visits:
            head = fill(
                ADVICE_TEXTS["worth"],
                lang,
                head=head,
                v=_number(top.expected_payoff, lang, sign=True),
            )
        return head + "."
    head = fill(ADVICE_TEXTS["best"], lang, move=name)
    why = _why(top, lang)
    if why:
        head = fill(ADVICE_TEXTS["why"], lang, head=head, why=why)
    nxt = rows[1] if len(rows) > 1 else None
    if nxt is not None and rows[0].ranked and nxt.ranked:
        other = nxt.msg.label or nxt.msg.move.label or nxt.msg.move.text
        if nxt.msg.group == top.group:
            head = fill(ADVICE_TEXTS["tied"], lang, head=head, next=other)
        else:
            head = fill(
                ADVICE_TEXTS["lead"],
                lang,
                head=head,
                next=other,
                d=_number(top.expected_payoff - nxt.msg.expected_payoff, lang),
            )
    return head + "."
