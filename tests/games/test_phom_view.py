"""Phỏm deal_for_view: the public history is checked turn by turn (a move out of turn, in the wrong
phase or after the end is an IllegalMoveError naming moves[i], never another exception), real
views of every seat rebuild at 2-4 players and three option sets, and views that failed before
(one phỏm holding several eaten cards, cards played late, a rebuilt hand that was a Ù) rebuild."""

import copy
import random

import pytest

from quansu import games
from quansu.games.base import GameError, IllegalMoveError
from quansu.games.cards import parse_cards
from quansu.games.phom.game import DRAW, LAYDOWN, SEND, SEND_BASE
from quansu.games.phom.view import _PublicTurns
from tests.helpers.option_sets import OTHER
from tests.helpers.option_sets import PHOM_OPTION_SETS as OPTION_SETS

HANDS = [
    "JH AS AD 3S 3C 5S 5C 7S 7D KD",
    "QH TH 9H 2S 5D 7C KS 4C 3H",
    "8S 8D 2C 4S 6S 6C 9S 9D JC",
    "2D 2H 4D 4H 6D 6H TD 8H KH",
]


def _moves(game, text: str) -> list:
    """'0:discard JH, 1:draw' -> [(0, move), (1, move)]."""
    out = []
    for item in text.split(","):
        if item.strip():
            s, mv = item.split(":")
            out.append((int(s), game.parse_move(mv)))
    return out


@pytest.mark.parametrize(
    "history,fragment",
    [
        ("0:discard JH, 0:draw", r"moves\[1\]: seat 0 moved but seat 1 is to act"),
        ("0:discard JH, 2:draw", r"moves\[1\]: seat 2 moved but seat 1 is to act"),
        ("1:draw", r"moves\[0\]: seat 1 moved but seat 0 is to act"),
        ("0:draw", r"moves\[0\]: 'draw': seat 0 must discard now \(discard phase\)"),
        ("0:lay 3S 3C 3D", r"moves\[0\]: 'lay 3S 3C 3D': seat 0 must discard now"),
        (
            "0:discard JH, 1:discard QH",
            r"moves\[1\]: 'discard QH': seat 1 must draw / eat now "
            r"\(take phase\)",
        ),
        ("0:discard JH, 1:send 9H to 0", r"moves\[1\]: 'send 9H to 0': seat 1 must draw / eat"),
        (
            "0:discard JH, 1:eat AS",
            r"moves\[1\]: 'eat AS': only the previous seat's last discard "
            r"can be eaten \(JH now\)",
        ),
        ("0:discard JH, 1:draw, 1:discard QH, 2:eat JH", r"moves\[3\]: 'eat JH': .*\(QH now\)"),
        ("0:discard JH, 1:draw, 1:eat JH", r"moves\[2\]: 'eat JH': seat 1 must discard now"),
        (
            "0:discard JH, 1:draw, 1:send 9H to 0",
            r"moves\[2\]: 'send 9H to 0': seat 1 must discard "
            r"now",
        ),
        ("0:u", r"moves\[0\]: 'u': Ù is declared automatically"),
    ],
)
def test_history_follows_the_turn(history, fragment):
    game = games.make("phom", 4)
    hand = parse_cards(HANDS[1])
    with pytest.raises(IllegalMoveError, match=fragment):
        game.deal_for_view(
            1, hand, [10, 9, 9, 9], _moves(game, history), random.Random(0), drawn=parse_cards("2D")
        )


def _finished(game, seed):
    rng = random.Random(seed)
    st = game.new_initial_state(rng)
    while not st.is_terminal():
        st.apply(
            game.heuristic_move(st, rng) if rng.random() < 0.7 else rng.choice(st.legal_moves())
        )
    return st


def _view(st, seat, k):
    """(hand, counts, moves, drawn) of ``seat`` after the first k moves of ``st``'s game."""
    deal = st.deal
    moves = list(st.history[:k])
    drawn = []
    pos = 0
    for s, mv in moves:
        if mv == DRAW:
            if s == seat:
                drawn.append(deal.stock[pos])
            pos += 1
    return list(deal.hands[seat]), [len(h) for h in deal.hands], moves, drawn


def test_moves_after_the_end_and_bad_sends():
    game = games.make("phom", 3)
    seen = set()
    for seed in range(40):
        st = _finished(game, seed)
        hist = st.history
        first = st.deal.first
        if st.u_info is None and "over" not in seen:  # ended with the stock empty
            seen.add("over")
            n = len(hist)
            hand, counts, moves, drawn = _view(st, 0, n)
            with pytest.raises(
                IllegalMoveError,
                match=rf"moves\[{n}\]: 'draw' by seat "
                r"\d, but the game is over",
            ):
                game.deal_for_view(
                    0,
                    hand,
                    counts,
                    moves + [((hist[-1][0] + 1) % 3, DRAW)],
                    random.Random(0),
                    first=first,
                    drawn=drawn,
                )
        # the first send-phase decision of a lay-down turn, replaced by bad sends
        for i, (s, _mv) in enumerate(hist):
            if "send" in seen:
                break
            before = game.replay(st.deal, hist[:i])
            if before.phase != SEND or before.kind != LAYDOWN:
                continue
            seen.add("send")
            hand, counts, moves, drawn = _view(st, 0, i)
            own = [j for j, t in enumerate(before.table) if t[0] == s][0]
            melds = len(before.table)
            for mv, fragment in [
                (SEND_BASE + 64 * melds, rf"there is no meld {melds}"),
                (SEND_BASE + 64 * own, rf"meld {own} is seat {s}'s own"),
            ]:
                with pytest.raises(IllegalMoveError, match=rf"moves\[{i}\]: .*{fragment}"):
                    game.deal_for_view(
                        0,
                        hand,
                        counts,
                        moves + [(s, mv)],
                        random.Random(0),
                        first=first,
                        drawn=drawn,
                    )
    assert seen == {"over", "send"}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("opts", list(OPTION_SETS))
def test_every_seat_view_rebuilds(players, opts):
    """Each seat's view after every other move of real games rebuilds into a deal whose replay
    gives that seat the same observation (the last move of a game is left out: an opponent's Ù
    cannot be rebuilt, see docs/rules/phom.md)."""
    game = games.make("phom", players, OPTION_SETS[opts])
    rng = random.Random(players)
    count = 0
    for seed in range(3):
        st = _finished(game, 100 * players + seed)
        for k in range(0, len(st.history) - 1, 2):
            truth = game.replay(st.deal, st.history[:k])
            for seat in range(players):
                hand, counts, moves, drawn = _view(st, seat, k)
                deal = game.deal_for_view(
                    seat, hand, counts, moves, rng, first=st.deal.first, drawn=drawn
                )
                assert game.replay(deal, moves).observation(seat) == truth.observation(seat)
                count += 1
    assert count > 50


# Views that the previous deal_for_view could not rebuild (options OTHER: several eaten cards
# may share a phỏm): (players, seat, first, hand, drawn, moves, options)
FIXED_VIEWS = [
    # eaten 9S and JS share 9S TS JS: no 3-card phỏm around 9S alone is left
    (
        4,
        1,
        0,
        "7H 2D AD 2C AC 3C 3H 9H KC",
        "8S KD TC JH",
        "0:discard KS, 1:draw, 1:discard KC, 2:draw, 2:discard JC, 3:draw, 3:discard 8D, 0:draw, "
        "0:discard QC, 1:draw, 1:discard AD, 2:eat AD, 2:discard JS, 3:eat JS, 3:discard 7C, "
        "0:draw, 0:discard JD, 1:draw, 1:discard KD, 2:draw, 2:discard 9S, 3:eat 9S, 3:discard 9C, "
        "0:draw, 0:discard 9D, 1:draw, 1:discard AC",
        OTHER,
    ),
    # partner deadlines: the cards around an eaten card cannot all be in the dealt hand
    (
        2,
        0,
        1,
        "AS AH JH 3D 4H 4D JD 4S TC",
        "QC 8S JC",
        "1:discard KC, 0:draw, 0:discard QC, 1:draw, 1:discard QS, 0:draw, 0:discard 4S, "
        "1:eat 4S, 1:discard TD, 0:draw, 0:discard TC, 1:eat TC, 1:discard TH",
        OTHER,
    ),
    # the cards seat 0 plays later, all dealt to him, make a Ù right after 'eat TD'
    (
        4,
        1,
        0,
        "6D 3H 6C 5D 2S JC 5H 7S QD",
        "7H AS AC 3C",
        "0:discard TH, 1:draw, 1:discard QD, 2:draw, 2:discard QS, 3:eat QS, 3:discard TD, "
        "0:eat TD, 0:discard 9S, 1:draw, 1:discard JC, 2:draw, 2:discard KD, 3:draw, 3:discard TC, "
        "0:draw, 0:discard TS, 1:draw, 1:discard 7S, 2:draw, 2:discard KH, 3:draw, 3:discard 2D, "
        "0:draw, 0:discard JS, 1:draw, 1:discard 7H, 2:draw, 2:lay, 2:discard JH, 3:draw, "
        "3:lay 8C 8D 8H / QS QC QH, 3:discard KS, 0:draw, 0:lay 4S 4C 4D 4H / 9D TD JD, "
        "0:send 8S to 0",
        {},
    ),
]


@pytest.mark.parametrize("players,seat,first,hand,drawn,history,opts", FIXED_VIEWS)
def test_fixed_views_rebuild(players, seat, first, hand, drawn, history, opts):
    game = games.make("phom", players, opts)
    counts = [10 if s == first else 9 for s in range(players)]
    moves = _moves(game, history)
    for k in range(8):
        deal = game.deal_for_view(
            seat,
            parse_cards(hand),
            counts,
            moves,
            random.Random(k),
            first=first,
            drawn=parse_cards(drawn),
        )
        st = game.replay(deal, moves)
        assert st.history == moves and not st.is_terminal()
        assert list(deal.hands[seat]) == parse_cards(hand)


def test_mutated_histories_fail_cleanly():
    """Random changes to real histories (another seat, a move dropped, swapped or inserted, any
    move text): rebuilt or rejected with a GameError; a changed history that the true deal still
    replays passes the turn check."""
    rng = random.Random(5)
    rejected = 0
    for players in (2, 3, 4):
        for opts in OPTION_SETS.values():
            game = games.make("phom", players, opts)
            st = _finished(game, players)
            hist = list(st.history)
            texts = sorted({game.move_to_text(m) for _s, m in hist} | {"u", "draw"})
            for _ in range(25):
                seat = rng.randrange(players)
                k = rng.randrange(1, len(hist) + 1)
                hand, counts, moves, drawn = _view(st, seat, k)
                moves = copy.copy(moves)
                kind = rng.randrange(4)
                j = rng.randrange(len(moves))
                if kind == 0:
                    moves[j] = (rng.randrange(players), moves[j][1])
                elif kind == 1:
                    del moves[j]
                elif kind == 2 and j + 1 < len(moves):
                    moves[j], moves[j + 1] = moves[j + 1], moves[j]
                else:
                    moves.insert(j, (rng.randrange(players), game.parse_move(rng.choice(texts))))
                try:
                    game.deal_for_view(
                        seat,
                        hand,
                        counts,
                        moves,
                        random.Random(0),
                        first=st.deal.first,
                        drawn=drawn,
                    )
                except GameError:
                    rejected += 1
                try:
                    game.replay(st.deal, moves)
                except IllegalMoveError:
                    continue
                turns = _PublicTurns(game, counts, st.deal.first, 4 * players - 1)
                for i, (s, mv) in enumerate(moves):
                    turns.step(i, s, mv, game.move_to_text(mv))
    assert rejected > 50
