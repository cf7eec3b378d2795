"""Regenerate the example record and view of every registered game (run from the repository root):

    python docs/examples/make_examples.py [GAME ...]

Each game is played at 4 players (or its largest count) with default options from a fixed seed, every
seat using the game's rule-based ``heuristic_move`` (random legal moves where a game has none).  The
record is ``<game>.record.json``; ``<game>.view.json`` is seat 1's view at its first turn with a
choice from halfway through the game on, so that ``quansu hint docs/examples/<game>.view.json`` works.
tests/games/test_record_games.py checks that both load and replay.
"""

from __future__ import annotations

import os
import random
import sys

from quansu import games
from quansu.games import record as rec

SEED = 2024
HERE = os.path.dirname(os.path.abspath(__file__))


def play(name: str):
    cls = games.game_classes()[name]
    game = games.make(name, min(4, cls.max_players))
    rng = random.Random(SEED)
    state = game.new_initial_state(rng)
    while not state.is_terminal():
        try:
            move = game.heuristic_move(state, rng)
        except NotImplementedError:
            move = rng.choice(state.legal_moves())
        state.apply(move)
    return state


def main(argv: list[str]) -> int:
    names = argv or games.game_names()
    for name in names:
        state = play(name)
        record = rec.record_from_state(state)
        rec.replay_record(record)
        moves = record.get("moves", [])
        at = next(
            (
                k
                for k in range(len(moves) // 2, len(moves))
                if moves[k]["seat"] == 1
                and len(rec.replay_view(rec.view_at(record, 1, k), random.Random(0)).legal_moves())
                > 1
            ),
            len(moves) // 2,
        )
        view = rec.view_at(record, 1, at)
        for suffix, obj in (("record", record), ("view", view)):
            path = os.path.join(HERE, f"{name}.{suffix}.json")
            rec.write_json(obj, path)
            print(f"wrote {os.path.relpath(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
