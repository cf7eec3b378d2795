"""A toy hidden-card game ("beat") for testing the search, the bots and the arena, and its own tests.

It lives in tests/ (not under games/) so it is never registered as a product game.

Rules: 2..4 players; the cards in play are the ids ``0 .. deck_size-1`` (Tiến lên strength order,
``3S`` lowest).  Each seat is dealt ``hand_size`` cards (a test position may deal fewer); the rest of the small deck is set aside
face down (hidden from everybody); cards ``>= deck_size`` are out of the game and public.  The
leader plays any one card; each next seat either plays a higher single card or passes.  After
``players - 1`` passes in a row the round ends and the seat that played last leads a new round.
The first seat to empty its hand wins ``players - 1`` bets, one from every other seat.

Every play is public, so a seat knows its own hand, the played cards and the out cards; the other
hands and the set-aside cards are hidden.  Because the history fixes which seat holds how many
cards, a determinization redeals the unseen cards with the same counts.
"""

from __future__ import annotations

import random

import pytest

from quansu.games.base import (
    TERMINAL,
    Deal,
    DealError,
    Game,
    IllegalMoveError,
    MoveInfo,
    MoveParseError,
    OptionError,
    OptionSpec,
    State,
)
from quansu.games.cards import (
    CardError,
    card_str,
    cards_of,
    format_cards,
    mask_of,
    parse_card,
    parse_cards,
)
from quansu.games.conformance import check_game

PASS = -1


class BeatGame(Game):
    """The toy game.  Moves are ints: a card id, or ``PASS`` (-1)."""

    name = "beat"
    title = "Beat (toy)"
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec("deck_size", 16, "cards in play are the ids 0 .. deck_size-1", type=int),
        OptionSpec("hand_size", 3, "cards dealt to each seat", type=int),
    )

    def check_options(self) -> None:
        d, h = self.options["deck_size"], self.options["hand_size"]
        if not 1 <= h <= 13:
            raise OptionError(f"option 'hand_size': {h} is not in 1..13")
        if not h * self.num_players <= d <= 52:
            raise OptionError(f"option 'deck_size': {d} is not in {h * self.num_players}..52")
        # every card play is followed by at most players - 1 passes
        self.max_moves = self.num_players * h * self.num_players

    def payoff_bound(self) -> float:
        return float(self.num_players - 1)

    def random_deal(self, rng: random.Random) -> Deal:
        cards = list(range(self.options["deck_size"]))
        rng.shuffle(cards)
        h, n = self.options["hand_size"], self.num_players
        hands = tuple(tuple(sorted(cards[i * h : (i + 1) * h])) for i in range(n))
        return Deal(hands=hands, first=rng.randrange(n), set_aside=tuple(sorted(cards[n * h :])))

    def state_from_deal(self, deal: Deal) -> "BeatState":
        n, h, d = self.num_players, self.options["hand_size"], self.options["deck_size"]
        if len(deal.hands) != n:
            raise DealError(f"deal.hands: {len(deal.hands)} hands for {n} players")
        seen = 0
        for s, hand in enumerate(deal.hands):
            if not 1 <= len(hand) <= h:
                raise DealError(f"deal.hands[{s}]: {len(hand)} cards, expected 1..{h}")
        for c in [c for hand in deal.hands for c in hand] + list(deal.set_aside):
            if not 0 <= c < d:
                raise DealError(f"deal: card id {c!r} is not in play (0..{d - 1})")
            if seen >> c & 1:
                raise DealError(f"deal: card {card_str(c)} dealt twice")
            seen |= 1 << c
        dealt = sum(len(hand) for hand in deal.hands)
        if len(deal.set_aside) != d - dealt:
            raise DealError(f"deal.set_aside: {len(deal.set_aside)} cards, expected {d - dealt}")
        if not 0 <= deal.first < n:
            raise DealError(f"deal.first: seat {deal.first} out of range")
        st = BeatState.__new__(BeatState)
        st.game = self
        st._deal = deal
        st.hands = [mask_of(hand) for hand in deal.hands]
        st.set_aside = mask_of(deal.set_aside)
        st.out = ((1 << 52) - 1) & ~((1 << d) - 1)
        st.played = 0
        st.top = None
        st.last = deal.first
        st.passes = 0
        st.cur = deal.first
        st.winner = None
        st._history = []
        return st

    def move_to_text(self, move) -> str:
        return "pass" if move == PASS else card_str(move)

    def parse_move(self, text: str):
        if not isinstance(text, str):
            raise MoveParseError(f"bad move {text!r}: expected text")
        if text.strip().lower() == "pass":
            return PASS
        try:
            return parse_card(text)
        except CardError as e:
            raise MoveParseError(f"bad move {text!r}: {e}") from None

    def describe_move(self, move) -> MoveInfo:
        if move == PASS:
            return MoveInfo("pass")
        return MoveInfo("play", (move,), combo="single")

    def heuristic_move(self, state: "BeatState", rng: random.Random):
        """Play the lowest card that is allowed; pass only when nothing beats."""
        plays = [m for m in state.legal_moves() if m != PASS]
        return min(plays) if plays else PASS


class BeatState(State):
    def clone(self) -> "BeatState":
        st = BeatState.__new__(BeatState)
        st.__dict__.update(self.__dict__)
        st.hands = list(self.hands)
        st._history = list(self._history)
        return st

    @property
    def current_player(self) -> int:
        return TERMINAL if self.winner is not None else self.cur

    @property
    def deal(self) -> Deal:
        return self._deal

    @property
    def history(self):
        return list(self._history)

    def legal_moves(self):
        if self.winner is not None:
            return []
        hand = cards_of(self.hands[self.cur])
        if self.top is None:
            return hand
        return [PASS] + [c for c in hand if c > self.top]

    def apply(self, move) -> None:
        if move not in self.legal_moves():
            text = (
                move
                if not isinstance(move, int)
                else self.game.move_to_text(move)
                if -1 <= move < 52
                else move
            )
            raise IllegalMoveError(f"move {text!r} is not legal for seat {self.cur}")
        self.apply_unchecked(move)

    def apply_unchecked(self, move) -> None:
        n = self.game.num_players
        p = self.cur
        self._history.append((p, move))
        if move == PASS:
            self.passes += 1
            if self.passes == n - 1:
                self.top, self.passes, self.cur = None, 0, self.last
            else:
                self.cur = (p + 1) % n
            return
        self.hands[p] &= ~(1 << move)
        self.played |= 1 << move
        self.top, self.last, self.passes = move, p, 0
        if not self.hands[p]:
            self.winner = p
        else:
            self.cur = (p + 1) % n

    def returns(self):
        n = self.game.num_players
        if self.winner is None:
            return [0.0] * n
        return [float(n - 1) if s == self.winner else -1.0 for s in range(n)]

    def settlement(self):
        if self.winner is None:
            return []
        return [(s, self.winner, 1.0) for s in range(self.game.num_players) if s != self.winner]

    def observation(self, seat: int):
        return (seat, self.hands[seat], tuple(self._history), self.current_player)

    def determinize(self, seat: int, rng: random.Random) -> "BeatState":
        st = self.clone()
        n = self.game.num_players
        others = [s for s in range(n) if s != seat]
        pool_mask = self.set_aside
        for s in others:
            pool_mask |= self.hands[s]
        pool = cards_of(pool_mask)  # ascending: does not depend on where the cards are
        rng.shuffle(pool)
        i = 0
        for s in others:
            k = self.hands[s].bit_count()
            st.hands[s] = mask_of(pool[i : i + k])
            i += k
        st.set_aside = mask_of(pool[i:])
        return st

    def zones(self):
        z = {f"hand{s}": m for s, m in enumerate(self.hands)}
        z.update(played=self.played, set_aside=self.set_aside, out=self.out)
        return z

    def known_cards(self, seat: int):
        return {f"hand{seat}": self.hands[seat], "played": self.played, "out": self.out}

    def render(self, seat: int) -> str:
        lines = [
            f"seat {seat} hand: {format_cards(self.hands[seat])}",
            "top: " + ("-" if self.top is None else card_str(self.top)),
            "hand sizes: " + " ".join(str(h.bit_count()) for h in self.hands),
            f"to act: {self.current_player}",
        ]
        return "\n".join(lines)


def beat_state(
    players: int, hands: list[str], first: int = 0, deck_size: int | None = None
) -> BeatState:
    """A toy state from hands in card notation; the cards in play are ids ``0 .. deck_size-1``
    (default: up to the highest card named) and those not in a hand are set aside."""
    parsed = [parse_cards(h) for h in hands]
    held = [c for h in parsed for c in h]
    d = deck_size if deck_size is not None else max(held) + 1
    aside = [c for c in range(d) if c not in held]
    game = BeatGame(players, {"deck_size": d, "hand_size": max(map(len, parsed))})
    return game.state_from_deal(
        Deal(hands=tuple(tuple(h) for h in parsed), first=first, set_aside=tuple(aside))
    )


# -- the toy game's own tests -----------------------------------------------------------------


@pytest.mark.parametrize(
    "players,options",
    [
        (2, {}),
        (3, {}),
        (4, {"deck_size": 20, "hand_size": 4}),
        (2, {"deck_size": 8, "hand_size": 2}),
    ],
)
def test_toy_game_passes_conformance(players, options):
    check_game(BeatGame(players, options), games=15, seed=players)


@pytest.mark.parametrize(
    "key,word", [(lambda self, seat: 0, "merges"), (lambda self, seat: id(self), "splits")]
)
def test_conformance_catches_a_wrong_sibling_key(monkeypatch, key, word):
    """A ``sibling_key`` that merges siblings a seat can tell apart (the search would share
    their tree node) or splits ones it cannot fails the conformance check."""
    from quansu.games.conformance import ConformanceError

    monkeypatch.setattr(BeatState, "sibling_key", key)
    with pytest.raises(ConformanceError, match=f"sibling_key.*{word}"):
        check_game(BeatGame(3, {}), games=5, seed=1)


def test_toy_rules_table():
    st = beat_state(2, ["5S 3S", "4C 3H"], first=0)
    assert st.legal_moves() == parse_cards("3S 5S")
    st.apply(parse_card("3S"))
    assert st.legal_moves() == [PASS] + parse_cards("3H 4C")
    st.apply(PASS)  # round ends; seat 0 leads again
    assert st.current_player == 0 and st.top is None
    st.apply(parse_card("5S"))
    assert st.is_terminal() and st.returns() == [1.0, -1.0]
    assert st.settlement() == [(1, 0, 1.0)]


def test_toy_bad_input():
    game = BeatGame(2)
    with pytest.raises(MoveParseError):
        game.parse_move("11X")
    with pytest.raises(OptionError):
        BeatGame(4, {"deck_size": 5})
    st = beat_state(2, ["5S 3S", "4C 3H"])
    with pytest.raises(IllegalMoveError):
        st.apply(parse_card("4C"))
    with pytest.raises(DealError):
        game.state_from_deal(Deal(hands=((0, 1, 2), (2, 3, 4))))
