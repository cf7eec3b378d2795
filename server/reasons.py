"""Short structured reasons for a suggested move, for apps to render in any language.

A reason is ``(code, cards, combo, English text)``.  They are computed from the search's
statistics and from what the moving seat can see: its own hand (``state.zones()["hand<seat>"]``
of a state consistent with its view), the move's :class:`games.base.MoveInfo` and, for Tấn, the
face-up trump.  No reason reads another seat's hidden cards.

Codes (see also ``proto/quansu/v1/service.proto``):

* search: ``only_move``, ``best_value`` (the highest-ranked move), ``safest`` (the highest lower
  confidence bound when that is not the top move);
* shedding games (Tiến lên, Sâm): ``finishes`` (plays the last cards), ``plays_bomb``,
  ``breaks_bomb`` / ``keeps_bomb`` (a four of a kind or, in Tiến lên, three or more consecutive
  pairs: ``cards``), ``plays_two``, ``holds_twos`` (passes while holding 2s), ``sheds_lowest``;
* Phỏm: ``forms_meld`` (an eat that completes a meld: ``cards``), ``lays_melds``, ``sends``,
  ``discards_loose`` (a card in no meld and no two-card start), ``discards_high`` (the loose
  card with the most points), ``draws``, ``declares_u``;
* Tấn: ``trump_used``, ``low_trump_kept`` (defends without a trump while holding one),
  ``takes``, ``attacks_low``;
* Sâm declarations: ``declares``, ``declines``.
"""

from __future__ import annotations

from quansu.games.base import Game, Move, MoveInfo, State
from quansu.games.cards import PHOM_RANK, TAN_RANK, card_str, cards_of, rank_of, suit_of

#: rank index of the 2 in the card ids (the top rank of Tiến lên and Sâm)
TWO = 12

Reason = tuple[str, tuple[int, ...], str, str]


def _txt(cards) -> str:
    return " ".join(card_str(c) for c in cards)


def _bombs(hand: list[int], pair_sequences: bool) -> list[tuple[int, ...]]:
    """Fours of a kind and (optionally) runs of 3+ consecutive pairs below the 2, as card
    tuples (a pair run uses the two lowest cards of each rank)."""
    by_rank: dict[int, list[int]] = {}
    for c in sorted(hand):
        by_rank.setdefault(rank_of(c), []).append(c)
    out = [tuple(cs) for r, cs in sorted(by_rank.items()) if len(cs) == 4]
    if pair_sequences:
        run: list[int] = []
        for r in range(TWO + 1):
            if r < TWO and len(by_rank.get(r, ())) >= 2:
                run.append(r)
                continue
            if len(run) >= 3:
                out.append(tuple(c for rr in run for c in by_rank[rr][:2]))
            run = []
    return out


def _shedding(game: Game, info: MoveInfo, hand: list[int]) -> list[Reason]:
    out: list[Reason] = []
    cards = set(info.cards)
    pair_seq = game.name == "tienlen"
    bombs = _bombs(hand, pair_seq)
    if info.kind == "play":
        if len(cards) == len(hand):
            out.append(("finishes", tuple(info.cards), info.combo or "", "plays the last cards"))
        if info.combo == "four_of_a_kind" or (info.combo == "pair_sequence" and len(cards) >= 6):
            out.append(("plays_bomb", tuple(info.cards), info.combo, f"plays the bomb {_txt(info.cards)}"))
        else:
            for b in bombs:
                if cards & set(b):
                    out.append(("breaks_bomb", b, "", f"breaks up {_txt(b)}"))
                    break
        if any(rank_of(c) == TWO for c in cards) and info.combo != "four_of_a_kind":
            out.append(("plays_two", tuple(c for c in info.cards if rank_of(c) == TWO), info.combo or "",
                        "spends a 2"))
        if info.combo == "single" and hand and min(hand, key=rank_of) in cards and len(hand) > 1:
            out.append(("sheds_lowest", tuple(info.cards), "single", "gets rid of the lowest card"))
    elif info.kind == "pass":
        twos = tuple(c for c in hand if rank_of(c) == TWO)
        if twos:
            out.append(("holds_twos", twos, "", f"keeps {_txt(twos)} for later"))
    elif info.kind in ("declare", "decline"):
        out.append(("declares" if info.kind == "declare" else "declines", (), "",
                    "declares Sâm" if info.kind == "declare" else "does not declare Sâm"))
    if info.kind in ("play", "pass"):
        kept = [b for b in bombs if not (cards & set(b))]
        if kept and not any(r[0] == "plays_bomb" for r in out):
            out.append(("keeps_bomb", kept[0], "", f"keeps the bomb {_txt(kept[0])}"))
    return out


def _phom_melds_with(card: int, hand: list[int]) -> tuple[int, ...] | None:
    """A meld of ``hand`` + ``card`` containing ``card`` (set first, then the longest run)."""
    pool = set(hand) | {card}
    same = sorted(c for c in pool if rank_of(c) == rank_of(card))
    if len(same) >= 3:
        return tuple(same)
    by_rank = {PHOM_RANK[rank_of(c)]: c for c in pool if suit_of(c) == suit_of(card)}
    r = PHOM_RANK[rank_of(card)]
    lo = r
    while lo - 1 in by_rank:
        lo -= 1
    hi = r
    while hi + 1 in by_rank:
        hi += 1
    if hi - lo >= 2:
        return tuple(by_rank[k] for k in range(lo, hi + 1))
    return None


def _phom_loose(hand: list[int]) -> list[int]:
    """Cards of ``hand`` in no meld and no two-card start (same rank, or same suit within 2)."""
    out = []
    for c in hand:
        partner = False
        for d in hand:
            if d == c:
                continue
            if rank_of(d) == rank_of(c) or (suit_of(d) == suit_of(c)
                                             and abs(PHOM_RANK[rank_of(d)] - PHOM_RANK[rank_of(c)]) <= 2):
                partner = True
                break
        if not partner:
            out.append(c)
    return out


def _phom(info: MoveInfo, hand: list[int]) -> list[Reason]:
    k = info.kind
    if k == "eat" and info.cards:
        meld = _phom_melds_with(info.cards[0], hand)
        if meld:
            return [("forms_meld", meld, "", f"eats {card_str(info.cards[0])} to complete {_txt(meld)}")]
        return []
    if k == "discard" and info.cards:
        c = info.cards[0]
        loose = _phom_loose(hand)
        if c in loose:
            top = max(loose, key=lambda x: PHOM_RANK[rank_of(x)])
            if PHOM_RANK[rank_of(c)] == PHOM_RANK[rank_of(top)]:
                return [("discards_high", (c,), "", f"throws away the high loose card {card_str(c)}")]
            return [("discards_loose", (c,), "", f"throws away the loose card {card_str(c)}")]
        return []
    if k == "lay" and info.melds:
        cards = tuple(c for m in info.melds for c in m)
        return [("lays_melds", cards, "", f"lays {len(info.melds)} meld(s)")]
    if k == "send":
        return [("sends", tuple(info.cards), "", f"sends {_txt(info.cards)} to a laid meld")]
    if k == "draw":
        return [("draws", (), "", "draws from the stock")]
    if k == "u":
        return [("declares_u", (), "", "declares Ù")]
    return []


def _tan(state: State, info: MoveInfo, hand: list[int]) -> list[Reason]:
    trump = state.deal.trump
    tsuit = suit_of(trump) if trump is not None else None
    k = info.kind
    if k == "take":
        return [("takes", (), "", "takes the cards on the table")]
    if k == "defend" and info.cards and tsuit is not None:
        c = info.cards[0]
        if suit_of(c) == tsuit and (info.target is None or suit_of(info.target) != tsuit):
            return [("trump_used", (c,), "", f"uses the trump {card_str(c)}")]
        trumps = tuple(x for x in hand if suit_of(x) == tsuit)
        if trumps and suit_of(c) != tsuit:
            return [("low_trump_kept", trumps, "", "defends without spending a trump")]
    if k == "attack" and info.cards:
        c = info.cards[0]
        plain = [x for x in hand if tsuit is None or suit_of(x) != tsuit]
        if plain and c in plain and TAN_RANK[rank_of(c)] == min(TAN_RANK[rank_of(x)] for x in plain):
            return [("attacks_low", (c,), "", f"attacks with the low card {card_str(c)}")]
    return []


def move_reasons(state: State, seat: int, move: Move, *, rank: int, legal_count: int,
                 safest: bool) -> list[Reason]:
    """Reasons for ``move`` of ``seat`` in ``state`` (a state consistent with the seat's view).

    ``rank``: the move's place in the ranking (0 = best); ``safest``: whether it has the highest
    lower confidence bound."""
    game = state.game
    out: list[Reason] = []
    if legal_count == 1:
        out.append(("only_move", (), "", "the only legal move"))
    elif rank == 0:
        out.append(("best_value", (), "", "highest expected payoff"))
    if safest and rank != 0:
        out.append(("safest", (), "", "the safest move (highest lower bound)"))
    info = game.describe_move(move)
    hand = cards_of(state.zones().get(f"hand{seat}", 0))
    if game.name in ("tienlen", "samloc"):
        out += _shedding(game, info, hand)
    elif game.name == "phom":
        out += _phom(info, hand)
    elif game.name == "tan":
        out += _tan(state, info, hand)
    return out
