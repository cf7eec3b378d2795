"""Bad input never crashes: mutated records and views of every registered game are either replayed
or rejected with a GameError (never IndexError, KeyError, AssertionError, ...)."""

from __future__ import annotations

import copy
import os
import random

import pytest

from quansu import games
from quansu.games import record as rec

NAMES = games.game_names()


def _finished(game, seed):
    rng = random.Random(seed)
    state = game.new_initial_state(rng)
    texts = set()
    while not state.is_terminal():
        legal = state.legal_moves()
        texts.update(game.move_to_text(m) for m in legal)
        state.apply(rng.choice(legal))
    return rec.record_from_state(state), sorted(texts)


def mutate_moves(moves: list, players: int, texts: list, rng: random.Random) -> list:
    """One random change to a move list: another move text, a move dropped, two moves swapped, a
    wrong seat, or moves inserted."""
    moves = copy.deepcopy(moves)
    kind = rng.randrange(5)
    if kind == 0 and moves:
        moves[rng.randrange(len(moves))]["move"] = rng.choice(texts)
    elif kind == 1 and moves:
        del moves[rng.randrange(len(moves))]
    elif kind == 2 and len(moves) > 1:
        i = rng.randrange(len(moves) - 1)
        moves[i], moves[i + 1] = moves[i + 1], moves[i]
    elif kind == 3 and moves:
        moves[rng.randrange(len(moves))]["seat"] = rng.randrange(players)
    else:
        k = rng.randrange(len(moves) + 1)
        moves[k:k] = [{"seat": rng.randrange(players), "move": t} for t in rng.sample(texts, 2)]
    return moves


def mutate_deal(deal: dict, players: int, rng: random.Random) -> dict:
    """One random change to a deal: cards exchanged or moved between hands, another first seat, a
    shuffled stock, a card of the stock or set-aside cards given to a hand."""
    deal = copy.deepcopy(deal)
    hands = [h["cards"] for h in deal["hands"]]
    kind = rng.randrange(5)
    if kind == 0:
        a, b = rng.sample(range(players), 2)
        i, j = rng.randrange(len(hands[a])), rng.randrange(len(hands[b]))
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    elif kind == 1:
        a, b = rng.randrange(players), rng.randrange(players)
        hands[b].append(hands[a].pop())
    elif kind == 2:
        deal["first"] = rng.randrange(players)
    elif kind == 3 and deal.get("stock"):
        rng.shuffle(deal["stock"])
    else:
        pool = deal.get("stock") or deal.get("set_aside")
        if pool:
            hands[rng.randrange(players)][0] = pool[rng.randrange(len(pool))]
    return deal


@pytest.mark.parametrize("name", NAMES)
def test_mutated_records_never_crash(name):
    cls = games.game_classes()[name]
    rng = random.Random(11)
    for players in range(cls.min_players, cls.max_players + 1):
        game = games.make(name, players)
        for seed in range(2):
            r, texts = _finished(game, seed)
            for _ in range(30):
                bad = copy.deepcopy(r)
                if rng.random() < 0.5:
                    bad["moves"] = mutate_moves(r.get("moves", []), players, texts, rng)
                else:
                    bad["deal"] = mutate_deal(r["deal"], players, rng)
                if rng.random() < 0.5:
                    bad.pop("result", None)
                try:
                    rec.replay_record(bad)
                except games.GameError:
                    pass


@pytest.mark.parametrize("name", NAMES)
def test_mutated_views_never_crash(name):
    cls = games.game_classes()[name]
    rng = random.Random(12)
    for players in range(cls.min_players, cls.max_players + 1):
        game = games.make(name, players)
        for seed in range(2):
            r, texts = _finished(game, seed)
            n = len(r.get("moves", []))
            for _ in range(30):
                seat = rng.randrange(players)
                k = rng.randrange(n)
                v = rec.view_at(r, seat, k)
                change = rng.randrange(3)
                if change == 0:
                    v["moves"] = mutate_moves(v.get("moves", []), players, texts, rng)
                elif change == 1:
                    v["deal"]["hands"][seat] = mutate_deal(r["deal"], players, rng)["hands"][seat]
                elif v.get("drawn"):
                    v["drawn"][rng.randrange(len(v["drawn"]))] = rng.choice(
                        r["deal"]["hands"][0]["cards"]
                    )
                else:
                    v.setdefault("moves", []).append(
                        {"seat": rng.randrange(players), "move": rng.choice(texts)}
                    )
                try:
                    rec.replay_view(v, random.Random(0))
                except games.GameError:
                    pass


@pytest.mark.parametrize("name", NAMES)
def test_views_with_one_more_move_never_crash(name):
    """Every seat's view after one move and seat 0's view halfway, followed by every move text seen
    in the game, made by the viewing seat or by the seat to act: replayed or rejected cleanly."""
    cls = games.game_classes()[name]
    game = games.make(name, cls.max_players)
    r, texts = _finished(game, 3)
    example = os.path.join(
        os.path.dirname(__file__), os.pardir, os.pardir, "docs", "examples", f"{name}.record.json"
    )
    if os.path.exists(example):  # a fixed game as well as a seeded one
        r = rec.read_json(example)
        game = rec.parse_record(r).game
        texts = sorted(set(texts) | {m["move"] for m in r.get("moves", [])})
    n = len(r.get("moves", []))
    for k, viewer in [(1, s) for s in range(cls.max_players)] + [(n // 2, 0)]:
        v = rec.view_at(r, viewer, k)
        to_act = r["moves"][k]["seat"]
        for text in texts:
            for mover in sorted({viewer, to_act}):
                w = copy.deepcopy(v)
                w.setdefault("moves", []).append({"seat": mover, "move": text})
                try:
                    rec.replay_view(w, random.Random(0))
                except games.GameError:
                    pass
