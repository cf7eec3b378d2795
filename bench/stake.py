"""How much a game is played for: the mean absolute payoff of a seat in games of the rule-based
bots, per game and player count, beside the game's ``stake`` (bets).

    python -m quansu.bench.stake                      # every game, 2 and 4 players, 300 games each
    python -m quansu.bench.stake --games phom --players 4 --deals 1000 --seed 5

Every seat plays the game's ``heuristic_move`` from seeded deals (default options).  Analyze's
default mark thresholds are fractions of ``Game.stake`` (docs/api.md, "Analyze"), so a game's
stake should be about what this prints: a stake far below it makes that game's thresholds
stricter, relative to what its games are played for, than the other games' (Phỏm's stake was 1
against 4.4 bets measured here).  ``ratio`` is the stake over the measured mean.
"""

from __future__ import annotations

import argparse
import random
import statistics

from quansu import games


def payoff_scale(name: str, players: int, deals: int, seed: int) -> dict:
    """Over ``deals`` games of the rule-based bots (``heuristic_move`` for every seat) from
    deals drawn with ``random.Random(seed)``: the mean and the root mean square of the
    absolute payoff of a seat (bets; every seat of every game counted)."""
    game = games.make(name, players)
    rng = random.Random(seed)
    absolute = []
    for _ in range(deals):
        state = game.new_initial_state(rng)
        while not state.is_terminal():
            state.apply_unchecked(game.heuristic_move(state, rng))
        absolute.extend(abs(x) for x in state.returns())
    return {
        "game": name,
        "players": players,
        "deals": deals,
        "mean_abs": statistics.fmean(absolute),
        "rms": statistics.fmean(x * x for x in absolute) ** 0.5,
        "stake": type(game).stake,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m quansu.bench.stake", description=__doc__.split("\n")[0]
    )
    ap.add_argument(
        "--games", default=",".join(sorted(games.game_classes())), help="comma-separated game names"
    )
    ap.add_argument("--players", default="2,4", help="comma-separated player counts")
    ap.add_argument("--deals", type=int, default=300, help="games per game and player count")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    classes = games.game_classes()
    names = [g for g in args.games.split(",") if g]
    for name in names:
        if name not in classes:
            ap.error(f"--games: unknown game {name!r} (known: {', '.join(sorted(classes))})")
    print(f"{'game':8} {'players':>7} {'mean |payoff|':>13} {'rms':>6} {'stake':>6} {'ratio':>6}")
    for name in names:
        cls = classes[name]
        for n in (int(x) for x in args.players.split(",")):
            if not cls.min_players <= n <= cls.max_players:
                continue
            r = payoff_scale(name, n, args.deals, args.seed)
            print(
                f"{name:8} {n:7d} {r['mean_abs']:13.2f} {r['rms']:6.2f} {r['stake']:6.1f} "
                f"{r['stake'] / r['mean_abs']:6.2f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
