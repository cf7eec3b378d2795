"""``quansu play``: a terminal game for one human seat against bot seats.

The other seats are quansu bots at a strength level (``--level 1..5``, the same bots as the
service's ``Suggest`` with ``strength``), or ``--bot heuristic`` / ``--bot random``.

Commands at the prompt: a move in canonical notation (``3S 4S 5H``, ``pass``, ``draw``, ...),
its number in the listed legal moves, ``moves`` to list them again, ``hint`` (quansu's ranked
moves for your seat, from your information only), ``help``, ``quit``.
Bad input is answered with a message and a new prompt, never a traceback.
"""

from __future__ import annotations

import argparse
import random
import sys

from quansu.games import GameError, make


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", default="tienlen", help="tienlen, phom, samloc or tan")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=None, help="seed of the deal and the bots")
    p.add_argument("--seat", type=int, default=0, help="your seat (0-based)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option (JSON value), repeatable")
    p.add_argument("--bot", choices=("level", "heuristic", "random"), default="level",
                   help="the other seats: quansu at --level (default), the heuristic bot, or random")
    p.add_argument("--level", type=int, default=3, choices=range(1, 6),
                   help="strength level 1 (weakest) .. 5 (full strength) of the quansu bots")
    p.add_argument("--hint-iterations", type=int, default=400, help="search budget of 'hint'")


def parse_options(pairs: list[str]) -> dict:
    import json

    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise GameError(f"bad --option {pair!r}: expected NAME=VALUE")
        name, value = pair.split("=", 1)
        try:
            out[name] = json.loads(value)
        except json.JSONDecodeError:
            out[name] = value
    return out


class _Bots:
    """The other seats' move choice; the search engine is loaded only when first needed."""

    def __init__(self, kind: str, level: int, seed: int | None, hint_iterations: int):
        self.kind, self.level, self.hint_iterations = kind, level, hint_iterations
        self.rng = random.Random(seed)
        self._engine = None

    @property
    def engine(self):
        if self._engine is None:
            from quansu.server.engine import build_engine

            self._engine = build_engine()
        return self._engine

    def move(self, game, state):
        if self.kind == "random":
            return self.rng.choice(state.legal_moves())
        if self.kind == "heuristic":
            return game.heuristic_move(state, self.rng)
        resp = self.engine.suggest_for_state(state, strength=self.level,
                                             seed=self.rng.randrange(1 << 31))
        return game.parse_move(resp.chosen.text)

    def hint(self, state) -> str:
        from quansu.server.cmd_hint import format_table

        resp = self.engine.suggest_for_state(state, iterations=self.hint_iterations, top_k=5,
                                             seed=self.rng.randrange(1 << 31))
        return format_table(resp)


def run(args, input_fn=input, out=sys.stdout) -> int:
    try:
        game = make(args.game, args.players, parse_options(args.option))
    except GameError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not 0 <= args.seat < game.num_players:
        print(f"error: --seat {args.seat} out of range 0..{game.num_players - 1}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    state = game.new_initial_state(rng)
    bots = _Bots(args.bot, args.level, args.seed, args.hint_iterations)
    me = args.seat
    print(f"quansu play: {game.title or game.name}, {game.num_players} players, you are seat {me}",
          file=out)
    while not state.is_terminal():
        seat = state.current_player
        if seat != me:
            move = bots.move(game, state)
            state.apply(move)
            print(f"seat {seat}: {game.move_to_text(move)}", file=out)
            continue
        legal = state.legal_moves()
        texts = sorted(game.move_to_text(m) for m in legal)
        print("", file=out)
        print(state.render(me), file=out)
        print("your moves: " + ", ".join(f"[{i}] {t}" for i, t in enumerate(texts)), file=out)
        while True:
            try:
                line = input_fn("your move> ").strip()
            except EOFError:
                print("\nbye", file=out)
                return 0
            if line in ("quit", "exit"):
                return 0
            if line in ("", "help"):
                print("type a move (e.g. '3S 4S 5H' or 'pass'), its number, 'moves', 'hint' or 'quit'",
                      file=out)
                continue
            if line == "hint":
                print(bots.hint(state), file=out)
                continue
            if line == "moves":
                print(", ".join(f"[{i}] {t}" for i, t in enumerate(texts)), file=out)
                continue
            if line.isdigit():
                if int(line) >= len(texts):
                    print(f"no move number {line}; choose 0..{len(texts) - 1}", file=out)
                    continue
                line = texts[int(line)]
            try:
                move = game.parse_move(line)
            except GameError as e:
                print(f"not a move: {e}", file=out)
                continue
            if move not in legal:
                print(f"{game.move_to_text(move)!r} is not legal now", file=out)
                continue
            state.apply(move)
            print(f"seat {me} (you): {game.move_to_text(move)}", file=out)
            break
    print("", file=out)
    print("game over. settlement (payer -> payee: bets):", file=out)
    for payer, payee, amount in state.settlement():
        print(f"  seat {payer} -> seat {payee}: {amount:g}", file=out)
    ret = state.returns()
    print("net: " + ", ".join(f"seat {s}: {r:+g}" for s, r in enumerate(ret)), file=out)
    return 0
