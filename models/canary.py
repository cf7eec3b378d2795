"""ONNX canaries: fixed positions, their encoded rows and the model's stored outputs.

``models/<game>.canary.json`` is written with each shipped model.  Positions are rebuilt from
``random_deal(random.Random(seed))`` by applying each state's first legal move ``ply`` times,
so the file checks both the encoder (same rows from the same positions, for the same rules
version) and the ONNX runtime (same outputs from the same rows).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np

from quansu.games.base import Game, State
from quansu.models.encoders import encoder_for

PLIES = (0, 3, 7, 15, 30)


def canary_positions(game: Game, seed: int = 0, plies=PLIES) -> list[tuple[int, State]]:
    """``(ply, state)`` for each ply reached before the end of the canary game."""
    state = game.state_from_deal(game.random_deal(random.Random(seed)))
    out = []
    ply = 0
    for target in plies:
        while ply < target and not state.is_terminal():
            state.apply(state.legal_moves()[0])
            ply += 1
        if state.is_terminal():
            break
        out.append((ply, state.clone()))
    return out


def canary_inputs(game: Game, seed: int = 0):
    """``(plies, states[B,S], moves[M,F], move_state[M])`` of the canary positions."""
    enc = encoder_for(game)
    pos = canary_positions(game, seed)
    states = np.stack([enc.encode_state(s, s.current_player) for _, s in pos])
    mv = [enc.encode_moves(s, s.legal_moves()) for _, s in pos]
    idx = np.concatenate([np.full(len(m), i, dtype=np.int64) for i, m in enumerate(mv)])
    return [p for p, _ in pos], states, np.concatenate(mv), idx


def write_canary(path: Path, game: Game, run_fn, seed: int = 0) -> dict:
    """Write the canary file; ``run_fn(states, moves, move_state) -> (logits, values)``."""
    plies, st, mv, idx = canary_inputs(game, seed)
    logits, values = run_fn(st, mv, idx)
    data = {
        "game": game.name,
        "players": game.num_players,
        "options": game.options,
        "rules_version": game.rules_version,
        "seed": seed,
        "plies": plies,
        "states": st.tolist(),
        "moves": mv.tolist(),
        "move_state": idx.tolist(),
        "logits": np.asarray(logits).tolist(),
        "values": np.asarray(values).tolist(),
    }
    Path(path).write_text(json.dumps(data), encoding="utf-8")
    return data


def read_canary(path: Path) -> dict:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    for k in ("states", "moves", "logits", "values"):
        data[k] = np.asarray(data[k], dtype=np.float32)
    data["move_state"] = np.asarray(data["move_state"], dtype=np.int64)
    return data


def main(argv=None) -> int:
    """``python -m quansu.models.canary GAME [--model PATH]``: (re)write the canary file next to
    a model (default the shipped ``models/GAME.onnx``) from the game's default rules at 4
    players, the model's own outputs; what ``quansu train`` does for the networks it writes
    into a run folder, here for a network copied into ``models/`` by hand (a DMC run)."""
    import argparse

    from quansu import games
    from quansu.models.evaluator import default_model_path, load_model

    p = argparse.ArgumentParser(prog="python -m quansu.models.canary", description=main.__doc__)
    p.add_argument("game", choices=games.game_names())
    p.add_argument("--model", help="the .onnx file (default models/GAME.onnx)")
    args = p.parse_args(argv)
    path = Path(args.model or default_model_path(args.game))
    game = games.make(args.game, 4)
    model = load_model(game, path)  # refuses another game's or encoder's model
    out = path.with_suffix(".canary.json")
    write_canary(out, game, model.run)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
