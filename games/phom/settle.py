"""Pure Phỏm payment rules (``docs/rules/phom.md`` §5, §9, §10).  Amounts are in bets;
transfers are ``(payer, payee, amount)`` and always zero-sum.  Options are the game's option
dict (names of the §11 table)."""

from __future__ import annotations

from typing import Mapping, Sequence


def eat_payment(k: int, chot: bool, is_king: bool, round_: int, options: Mapping) -> float:
    """What the victim pays for the eater's ``k``-th eat (1..3) of a card discarded in round
    ``round_`` (its 1-based place in the discarder's row), a chốt card if ``chot``.

    Default: 1 / 2 / 3, a chốt card 4 (``chot_payment_mode="replace"``; ``"add"``: k-th amount
    plus 4).  ``ca_k_enabled``: an eaten king pays 2 / 4 / 6 by round (6 from round 3 on), 10 if
    it was a chốt card."""
    ep = options["eat_payments"]
    if options["ca_k_enabled"] and is_king:
        return 10 if chot else (2, 4, 6)[min(max(round_, 1), 3) - 1]
    base = ep[min(max(k, 1), 3) - 1]
    if chot:
        return ep[3] + (base if options["chot_payment_mode"] == "add" else 0)
    return base


def rank_seats(
    points: Sequence[int],
    mom: Sequence[bool],
    tai: Sequence[bool],
    lay_order: Sequence[int],
    tai_tiebreak: bool = True,
) -> list[int]:
    """Seats from nhất to bét (§9): non-móm seats by points ascending, then (``tai_tiebreak``) a
    seat without a tái turn before one with, then earlier lay-down; móm seats last, by lay-down
    order.  ``lay_order``: seats in the order they laid down."""
    n = len(points)
    order = {s: i for i, s in enumerate(lay_order)}
    late = len(order)
    good = [s for s in range(n) if not mom[s]]
    bad = [s for s in range(n) if mom[s]]
    good.sort(
        key=lambda s: (
            points[s],
            (1 if tai[s] else 0) if tai_tiebreak else 0,
            order.get(s, late + s),
        )
    )
    bad.sort(key=lambda s: order.get(s, late + s))
    return good + bad


def rank_payments(ranking: Sequence[int], mom: Sequence[bool], options: Mapping) -> list[tuple]:
    """The 1-2-3-4 payments of a normal end (§10): the k-th placed seat (k = 1 .. N-1 after
    the nhất) pays k bets to the nhất, a móm seat pays ``mom_payment`` instead;
    ``last_place_pays="always_3"`` makes the last seat pay 3.  When every seat is móm the first
    to lay down (the first of ``ranking``) wins if ``all_mom_first_layer_wins``; otherwise no
    ranking money changes hands."""
    n = len(ranking)
    if all(mom) and not options["all_mom_first_layer_wins"]:
        return []
    top = ranking[0]
    out = []
    for pos in range(1, n):
        s = ranking[pos]
        if mom[s]:
            amt = options["mom_payment"]
        elif options["last_place_pays"] == "always_3" and pos == n - 1:
            amt = 3
        else:
            amt = pos
        if amt:
            out.append((s, top, amt))
    return out


def u_payments(winner: int, n: int, per_loser: float, liable: int) -> list[tuple]:
    """Ù money: each other seat pays ``per_loser`` to the winner, or the ``liable`` seat (đền;
    -1 for none) pays it for all N-1 of them."""
    if liable >= 0:
        return [(liable, winner, per_loser * (n - 1))]
    return [(s, winner, per_loser) for s in range(n) if s != winner]


def bonus_payments(amounts: Sequence[float], exclude: int = -1) -> list[tuple]:
    """Per-seat bonuses paid by every other seat (Ù K): seat s with ``amounts[s] > 0`` receives
    it from each other seat; the seat ``exclude`` (the đền payer) receives nothing."""
    n = len(amounts)
    out = []
    for s in range(n):
        if amounts[s] and s != exclude:
            out.extend((t, s, amounts[s]) for t in range(n) if t != s)
    return out


def dong_hoa_payments(holders: Sequence[bool]) -> list[tuple]:
    """Đồng hoa (§10): every holder receives 2 bets from every seat without đồng hoa."""
    n = len(holders)
    return [(t, s, 2) for s in range(n) if holders[s] for t in range(n) if not holders[t]]


def u_k_amount(natural_kings: int) -> int:
    """Ù K bonus for a laid set of kings with this many natural (not eaten, not sent) kings."""
    return 10 if natural_kings >= 4 else 5 if natural_kings == 3 else 0
