"""What a game's own explanation of a move looks like (the game side of a hint's reasons).

Each game explains its moves in ``games/<game>/reasons.py``, exposed as
:meth:`games.base.Game.move_reasons`: a list of :data:`Reason` tuples ``(code, cards, combo,
English text)`` computed from what the moving seat can see (its own hand in a state consistent
with its view, the move's :class:`games.base.MoveInfo`, public facts such as Tấn's face-up
trump), never from another seat's hidden cards.  The service adds the search's own reasons
(``best_value``, ``tied``, ...: ``server/reasons.py``) in front of them.  Codes are stable
identifiers an app can translate; the text is an English rendering.
"""

from __future__ import annotations

from typing import Iterable

from quansu.games.cards import card_str, rank_of

#: rank index of the 2 in the card ids (the top rank of the shedding games, Tiến lên and Sâm)
TWO = 12

#: ``(code, cards, combo, text)``: ``cards`` are card ids (the cards the reason is about).
Reason = tuple[str, tuple[int, ...], str, str]


def cards_text(cards: Iterable[int]) -> str:
    """Cards in the notation, space separated."""
    return " ".join(card_str(c) for c in cards)


def hand_of(state, seat: int) -> list[int]:
    """``seat``'s cards in ``state`` (ascending ids)."""
    from quansu.games.cards import cards_of

    return cards_of(state.zones().get(f"hand{seat}", 0))


def by_rank(hand: Iterable[int]) -> dict[int, list[int]]:
    """rank index -> the hand's cards of that rank (ascending ids)."""
    out: dict[int, list[int]] = {}
    for c in sorted(hand):
        out.setdefault(rank_of(c), []).append(c)
    return out


def shedding_reasons(info, hand: list[int], found: list[tuple[int, ...]]) -> list[Reason]:
    """The reasons of a play or a pass in a shedding game (Tiến lên, Sâm): ``info`` is the
    move's :class:`games.base.MoveInfo`, ``found`` the bombs in the moving seat's ``hand``."""
    out: list[Reason] = []
    cards = set(info.cards)
    if info.kind == "play":
        if len(cards) == len(hand):
            out.append(("finishes", tuple(info.cards), info.combo or "", "plays the last cards"))
        if info.combo == "four_of_a_kind" or (info.combo == "pair_sequence" and len(cards) >= 6):
            out.append(("plays_bomb", tuple(info.cards), info.combo,
                        f"plays the bomb {cards_text(info.cards)}"))
        else:
            for b in found:
                if cards & set(b):
                    out.append(("breaks_bomb", b, "", f"breaks up {cards_text(b)}"))
                    break
        if any(rank_of(c) == TWO for c in cards) and info.combo != "four_of_a_kind":
            out.append(("plays_two", tuple(c for c in info.cards if rank_of(c) == TWO),
                        info.combo or "", "spends a 2"))
        if info.combo == "single" and len(hand) > 1 and min(hand, key=rank_of) in cards:
            out.append(("sheds_lowest", tuple(info.cards), "single", "gets rid of the lowest card"))
    elif info.kind == "pass":
        twos = tuple(c for c in hand if rank_of(c) == TWO)
        if twos:
            out.append(("holds_twos", twos, "", f"keeps {cards_text(twos)} for later"))
    if info.kind in ("play", "pass"):
        kept = [b for b in found if not (cards & set(b))]
        if kept and not any(r[0] == "plays_bomb" for r in out):
            out.append(("keeps_bomb", kept[0], "", f"keeps the bomb {cards_text(kept[0])}"))
    return out
