"""A tiny trick game behind the common game interface, used to test the networks layer without
depending on a real engine, plus its conformance check.

"Toy tricks": N seats (2-4) get 4 cards each (the rest set aside, unseen).  Seats play one card
each in turn; after N plays the highest card (Tiến lên strength) wins the trick, and its owner
leads the next.  Each trick is worth 1 point; payoff = points - mean points (zero-sum, bets).
"""

from __future__ import annotations

import pytest

from quansu.games.base import (
    TERMINAL,
    Deal,
    DealError,
    Game,
    IllegalMoveError,
    MoveInfo,
    MoveParseError,
    OptionSpec,
    State,
)
from quansu.games.cards import CardError, card_str, format_cards, parse_card
from quansu.games.conformance import check_game

HAND = 4


class ToyGame(Game):
    name = "toy"
    title = "Toy tricks"
    min_players = 2
    max_players = 4
    max_moves = 16
    option_specs = (
        OptionSpec("trick_value", 1.0, "points per trick", type=float),
        OptionSpec("lead_rule", "winner", "who leads", choices=("winner", "next")),
    )

    def payoff_bound(self) -> float:
        return HAND * self.options["trick_value"]

    def random_deal(self, rng):
        deck = list(range(52))
        rng.shuffle(deck)
        n = self.num_players
        hands = tuple(tuple(sorted(deck[i * HAND : (i + 1) * HAND])) for i in range(n))
        return Deal(hands=hands, first=rng.randrange(n), set_aside=tuple(sorted(deck[n * HAND :])))

    def state_from_deal(self, deal):
        if len(deal.hands) != self.num_players or any(len(h) != HAND for h in deal.hands):
            raise DealError("hands: expected 4 cards per seat")
        return ToyState(self, deal)

    def move_to_text(self, move):
        return card_str(move)

    def parse_move(self, text):
        try:
            return parse_card(text)
        except CardError as e:
            raise MoveParseError(str(e)) from None

    def describe_move(self, move):
        return MoveInfo("play", (move,), combo="single")

    def heuristic_move(self, state, rng):
        moves = state.legal_moves()
        top = max(state._trick, default=-1)
        winners = [m for m in moves if m > top]
        return min(winners) if winners else min(moves)


class ToyState(State):
    def __init__(self, game, deal):
        self.game = game
        self._deal = deal
        self._hands = [sum(1 << c for c in h) for h in deal.hands]
        self._set_aside = sum(1 << c for c in deal.set_aside)
        self._table = 0
        self._trick: list[int] = []
        self._trick_seats: list[int] = []
        self._points = [0.0] * game.num_players
        self._player = deal.first
        self._history: list = []

    @property
    def current_player(self):
        return self._player

    def legal_moves(self):
        if self._player == TERMINAL:
            return []
        m = self._hands[self._player]
        return [c for c in range(52) if m >> c & 1]

    def apply(self, move):
        if (
            self._player == TERMINAL
            or not isinstance(move, int)
            or not (0 <= move < 52 and self._hands[self._player] >> move & 1)
        ):
            raise IllegalMoveError(f"{move!r} is not legal")
        seat = self._player
        n = self.game.num_players
        self._hands[seat] &= ~(1 << move)
        self._table |= 1 << move
        self._trick.append(move)
        self._trick_seats.append(seat)
        self._history.append((seat, move))
        if len(self._trick) == n:
            w = self._trick_seats[self._trick.index(max(self._trick))]
            self._points[w] += self.game.options["trick_value"]
            self._trick, self._trick_seats = [], []
            if self._hands[w] == 0:
                self._player = TERMINAL
            else:
                self._player = w if self.game.options["lead_rule"] == "winner" else (seat + 1) % n
        else:
            self._player = (seat + 1) % n

    def clone(self):
        c = ToyState.__new__(ToyState)
        c.__dict__.update(self.__dict__)
        c._hands = list(self._hands)
        c._trick = list(self._trick)
        c._trick_seats = list(self._trick_seats)
        c._points = list(self._points)
        c._history = list(self._history)
        return c

    def returns(self):
        if self._player != TERMINAL:
            return [0.0] * self.game.num_players
        mean = sum(self._points) / len(self._points)
        return [p - mean for p in self._points]

    def settlement(self):
        ret = self.returns()
        debt = [[-r, s] for s, r in enumerate(ret) if r < 0]
        credit = [[r, s] for s, r in enumerate(ret) if r > 0]
        out = []
        for d in debt:
            for c in credit:
                amount = min(d[0], c[0])
                if amount > 1e-12:
                    out.append((d[1], c[1], amount))
                    d[0] -= amount
                    c[0] -= amount
        return out

    @property
    def deal(self):
        return self._deal

    @property
    def history(self):
        return list(self._history)

    def observation(self, seat):
        return (seat, self._hands[seat], tuple(self._history), self._player)

    def determinize(self, seat, rng):
        c = self.clone()
        n = self.game.num_players
        others = [s for s in range(n) if s != seat]
        pool = [x for s in others for x in range(52) if self._hands[s] >> x & 1]
        pool += [x for x in range(52) if self._set_aside >> x & 1]
        rng.shuffle(pool)
        for s in others:
            k = self._hands[s].bit_count()
            c._hands[s] = sum(1 << x for x in pool[:k])
            pool = pool[k:]
        c._set_aside = sum(1 << x for x in pool)
        return c

    def zones(self):
        z = {f"hand{s}": h for s, h in enumerate(self._hands)}
        z["table"] = self._table
        z["set_aside"] = self._set_aside
        return z

    def known_cards(self, seat):
        return {f"hand{seat}": self._hands[seat], "table": self._table}

    def render(self, seat):
        return f"hand: {format_cards(self._hands[seat])}"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_toy_game_conforms(players):
    check_game(ToyGame(players), games=5, seed=players)
