"""Structured reasons of suggested moves, table-driven in card notation."""

from __future__ import annotations

import pytest

from quansu.games.base import Deal
from quansu.games.cards import card_str, mask_of, parse_cards
from quansu.games.registry import game_names, make
from quansu.server.reasons import move_reasons


class _Seen:
    """What move_reasons reads of a state: the game, the seat's hand zone and the deal's trump."""

    def __init__(self, game, seat, hand, trump=None):
        self.game = game
        self._hand = mask_of(parse_cards(hand))
        self._seat = seat
        self.deal = Deal(hands=(), trump=None if trump is None else parse_cards(trump)[0])

    def zones(self):
        return {f"hand{self._seat}": self._hand}


CASES = [
    # game, hand, move, expected code, expected cards
    ("tienlen", "6S 6C 6D 6H 9S 2D", "9S", "keeps_bomb", "6S 6C 6D 6H"),
    ("tienlen", "6S 6C 6D 6H 9S 2D", "6S", "breaks_bomb", "6S 6C 6D 6H"),
    ("tienlen", "6S 6C 6D 6H 9S 2D", "6S 6C 6D 6H", "plays_bomb", "6S 6C 6D 6H"),
    ("tienlen", "3S 3C 4D 4H 5S 5C 9H", "pass", "keeps_bomb", "3S 3C 4D 4H 5S 5C"),
    ("tienlen", "9S 2D 2H", "pass", "holds_twos", "2D 2H"),
    ("tienlen", "9S 2D", "2D", "plays_two", "2D"),
    ("tienlen", "4S 9S 2D", "4S", "sheds_lowest", "4S"),
    ("tienlen", "9S 9H", "9S 9H", "finishes", "9S 9H"),
    ("samloc", "7S 7C 7D 7H 9S", "9S", "keeps_bomb", "7S 7C 7D 7H"),
    ("phom", "7H 8H KS QD", "eat 9H", "forms_meld", "7H 8H 9H"),
    ("phom", "7S 7C KS QD", "eat 7H", "forms_meld", "7S 7C 7H"),
    ("phom", "7H 8H KS 2D", "discard KS", "discards_high", "KS"),
    ("phom", "7H 8H KS 2D", "discard 2D", "discards_loose", "2D"),
    ("phom", "7H 8H 3S", "discard 3S", "discards_loose", "3S"),  # a lone loose card: not "highest"
    ("tan", "7H JC 5S", "defend 7D with JC", "trump_used", "JC"),
    ("tan", "7H JC 5S", "attack 5S", "attacks_low", "5S"),
]


@pytest.mark.parametrize(
    "game_name,hand,move,code,cards", CASES, ids=[f"{c[0]}:{c[2]}:{c[3]}" for c in CASES]
)
def test_reason_table(game_name, hand, move, code, cards):
    if game_name not in game_names():
        pytest.skip(f"{game_name} is not registered")
    game = make(game_name, 4)
    trump = "3C" if game_name == "tan" else None
    state = _Seen(game, 0, hand, trump)
    reasons = move_reasons(state, 0, game.parse_move(move), rank=1, legal_count=5, safest=False)
    got = {r[0]: " ".join(card_str(c) for c in r[1]) for r in reasons}
    assert code in got, reasons
    assert sorted(got[code].split()) == sorted(cards.split())


def test_search_reasons():
    game = make("tienlen", 4)
    state = _Seen(game, 0, "9S 9H 4C")
    move = game.parse_move("4C")
    assert move_reasons(state, 0, move, rank=0, legal_count=1, safest=False)[0][0] == "only_move"
    codes = [r[0] for r in move_reasons(state, 0, move, rank=0, legal_count=3, safest=False)]
    assert codes[0] == "best_value"
    codes = [r[0] for r in move_reasons(state, 0, move, rank=2, legal_count=3, safest=True)]
    assert "safest" in codes and "best_value" not in codes
