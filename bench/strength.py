"""Paired strength runs: two bots, each alone against the same opponents, on the same deals.

    python -m quansu.bench.strength --game tienlen --a level3 --b heuristic --opponent heuristic \
        --deals 100 --seed 1 [--json out.json]
    python -m quansu.bench.strength --game tienlen --seats net:level4,net:level5 --deals 60 --seed 1

A spec is any ``quansu arena`` bot (:func:`quansu.search.bots.make_bot`: ``heuristic``,
``sparring``, ``level3``, ``ismcts:iterations=200`` ...), or ``net:`` followed by a search bot
(``net:level3``, ``net:ismcts:iterations=200``): the same bot guided by the game's shipped
network with the game's guided settings (:func:`quansu.models.bots.guided_config`), as the
service plays it.  ``net=PATH:`` followed by a search bot (``net=/tmp/exp/tienlen_new.onnx:level3``)
is the same with the network in the ONNX file ``PATH`` instead of the shipped one (checked against
the game's encoder like the shipped one; PATH may not contain ``:``), so that a candidate network
can be measured against the shipped one as the service would play it:

    python -m quansu.bench.strength --game tienlen --a net=/tmp/exp/new.onnx:level3 \
        --b net:level3 --opponent sparring --deals 60 --seed 1

``net:policy`` (``net=PATH:policy``) is the network alone: its top move, no search.

Search settings the inner spec names win over the guided ones (``net:level3:prior_temperature=0.3``:
the service's level 3 with its priors sharpened otherwise).

For every deal and every rotation, bot A plays one seat against ``players - 1`` copies of the
opponent, and bot B plays the same seat of the same deal against the same opponents (same seeds):
the difference of their payoffs measures A against B with the luck of the deal cancelled twice
(by the rotations and by the pairing).  Reported, in bets per game with 95 % intervals over
deals (each deal's rotations averaged first): A's payoff, B's payoff, and A - B.  Plan a run
(game, bots, deals, seed) before starting it and report it whatever it shows.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time

from quansu import games
from quansu.search.arena import _seed_of, play_game
from quansu.search.bots import ISMCTSBot, make_bot, parse_bot_spec
from quansu.search.config import FIELDS

_NETWORKS: dict = {}


def split_net_spec(spec: str) -> tuple[str | None, str] | None:
    """``(model path or None for the shipped network, search-bot spec)`` of a ``net:`` or
    ``net=PATH:`` spec, or None for any other spec."""
    if spec.startswith("net:"):
        return None, spec[4:]
    if spec.startswith("net="):
        path, sep, inner = spec[4:].partition(":")
        if not path or not sep or not inner:
            raise SystemExit(
                f"{spec!r}: expected net=PATH:<search bot>, e.g. net=/tmp/new.onnx:level3"
            )
        return path, inner
    return None


def build_bot(spec: str, game, seed: int):
    """A bot from ``spec`` (see the module doc); ``net:`` bots share one network per game,
    ``net=PATH:`` bots one per game and file."""
    net = split_net_spec(spec)
    if net is None:
        return make_bot(spec, seed=seed)
    from quansu.models import NetworkEvaluator, default_evaluator, load_model
    from quansu.models.bots import guided_config

    path, inner_spec = net
    key = (game.name, game.num_players, repr(sorted(game.options.items())), path)
    ev = _NETWORKS.get(key)
    if ev is None:
        if path is None:
            ev = default_evaluator(game)
        else:
            if not os.path.isfile(path):
                raise SystemExit(f"{spec!r}: no model file {path!r}")
            ev = NetworkEvaluator(game, load_model(game, path))
        _NETWORKS[key] = ev
    if inner_spec == "policy":  # the network alone: its top move, no search
        from quansu.models.bots import PolicyBot

        return PolicyBot(ev, name=spec)
    inner = make_bot(inner_spec, seed=seed)
    if not isinstance(inner, ISMCTSBot):
        raise SystemExit(
            f"{spec!r}: 'net:' takes a search bot (level1..5, ismcts..., improve) or policy"
        )
    named = {k for k in parse_bot_spec(inner_spec)[1] if k in FIELDS}
    guided = guided_config(ev, inner.config)  # the same bot (a level's too), guided
    # what the spec names wins over the guided settings
    inner.config = guided.replace(**{k: getattr(inner.config, k) for k in named})
    inner.evaluator = ev
    inner.name = spec
    return inner


def _run_deal(task) -> list[dict]:
    """One deal of :func:`_run`, every rotation (a task of its own: ``--ray``)."""
    game, specs, d, seed = task
    n = game.num_players
    out = []
    deal = game.random_deal(random.Random(_seed_of(seed, "deal", d)))
    for r in range(n):
        seats = [specs[(s - r) % n] for s in range(n)]
        bots = [
            build_bot(spec, game, _seed_of(seed, "bot", d, r, s)) for s, spec in enumerate(seats)
        ]
        state, moves, secs = play_game(game, deal, bots)
        out.append(
            {
                "deal": d,
                "rotation": r,
                "seats": seats,
                "payoffs": [float(x) for x in state.returns()],
                "moves": moves,
                "seconds": secs,
            }
        )
    return out


def _run_tagged(task) -> tuple[int, list[dict]]:
    k, inner = task
    return k, _run_deal(inner)


def _run(game, specs: list[str], deals: int, seed: int, map_fn=None) -> list[dict]:
    """Every deal x rotation with ``specs[i]`` in seat ``(i + r) % n``; per game the seats'
    specs and payoffs (deals and bot seeds as :func:`quansu.search.arena.run_arena` makes them).
    ``map_fn(fn, tasks)`` plays the deals elsewhere (``--ray``: Ray tasks, in any order); the
    games come back in deal order either way."""
    return _run_all(game, [specs], deals, seed, map_fn)[0]


def _run_all(
    game, spec_lists: list[list[str]], deals: int, seed: int, map_fn=None
) -> list[list[dict]]:
    """:func:`_run` of each line-up of ``spec_lists``, their deals all handed to ``map_fn`` at
    once (so that both halves of a paired run share the cluster)."""
    tasks = [
        (k, (game, list(specs), d, seed))
        for k, specs in enumerate(spec_lists)
        for d in range(deals)
    ]
    per_deal = map(_run_tagged, tasks) if map_fn is None else map_fn(_run_tagged, tasks)
    out: list[list[dict]] = [[] for _ in spec_lists]
    for k, games_ in per_deal:
        out[k].extend(games_)
    for gl in out:
        gl.sort(key=lambda g: (g["deal"], g["rotation"]))
    return out


def _mean_ci(xs: list[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, math.nan
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, 1.96 * math.sqrt(var / len(xs))


def _per_deal(per_game: list[dict], spec: str) -> dict[int, float]:
    """Mean payoff of the seat holding ``spec`` per deal (over the rotations)."""
    acc: dict[int, list[float]] = {}
    for g in per_game:
        for s, who in enumerate(g["seats"]):
            if who == spec:
                acc.setdefault(g["deal"], []).append(g["payoffs"][s])
    return {d: sum(v) / len(v) for d, v in acc.items()}


def _ms_per_move(per_game: list[dict], spec: str) -> float:
    """Milliseconds per move of the seats holding ``spec`` over all games (0 without moves)."""
    secs = sum(g["seconds"][s] for g in per_game for s, w in enumerate(g["seats"]) if w == spec)
    moves = sum(g["moves"][s] for g in per_game for s, w in enumerate(g["seats"]) if w == spec)
    return 1000.0 * secs / moves if moves else 0.0


def paired(
    game_name: str,
    a: str,
    b: str,
    opponent: str,
    deals: int,
    seed: int = 0,
    players: int = 4,
    options: dict | None = None,
    map_fn=None,
) -> dict:
    """Run both halves and pair them by deal.  ``a``/``b``/``opponent``: bot specs
    (:func:`quansu.search.bots.make_bot`); A and B must differ from the opponent's spec.
    ``map_fn``: see :func:`_run`."""
    if a == opponent or b == opponent:
        raise SystemExit("--a and --b must differ from --opponent (seats are told apart by spec)")
    game = games.make(game_name, players, options or {})
    t0 = time.monotonic()
    ga, gb = _run_all(
        game,
        [[a] + [opponent] * (players - 1), [b] + [opponent] * (players - 1)],
        deals,
        seed,
        map_fn,
    )
    pa, pb = _per_deal(ga, a), _per_deal(gb, b)
    ds = sorted(pa)
    diff = [pa[d] - pb[d] for d in ds]
    out = {
        "game": game_name,
        "players": players,
        "options": options or {},
        "a": a,
        "b": b,
        "opponent": opponent,
        "deals": deals,
        "seed": seed,
        "elapsed_s": time.monotonic() - t0,
    }
    for key, xs in (
        ("a_payoff", [pa[d] for d in ds]),
        ("b_payoff", [pb[d] for d in ds]),
        ("a_minus_b", diff),
    ):
        m, ci = _mean_ci(xs)
        out[key] = m
        out[key + "_ci"] = ci
    for tag, gl, spec in (("a", ga, a), ("b", gb, b)):
        wins = []
        for g in gl:
            best = max(g["payoffs"])
            top = [s for s, p in enumerate(g["payoffs"]) if p >= best - 1e-9]
            s = g["seats"].index(spec)
            wins.append(1.0 / len(top) if s in top else 0.0)
        out[f"{tag}_ms_per_move"] = _ms_per_move(gl, spec)
        out[f"{tag}_win"] = sum(wins) / len(wins)
    return out


def head_to_head(
    game_name: str,
    specs: list[str],
    deals: int,
    seed: int = 0,
    options: dict | None = None,
    map_fn=None,
) -> dict:
    """``specs[i]`` in seat ``(i + r) % n`` for every deal and rotation r (n = len(specs), the
    player count; the specs must differ); per spec its payoff in bets per game with the 95 %
    interval over deals (each deal's rotations averaged first) and its ms per move."""
    if len(set(specs)) != len(specs):
        raise SystemExit("--seats: the specs must differ (seats are told apart by spec)")
    game = games.make(game_name, len(specs), options or {})
    t0 = time.monotonic()
    gl = _run(game, specs, deals, seed, map_fn)
    out = {
        "game": game_name,
        "players": len(specs),
        "options": options or {},
        "seats": specs,
        "deals": deals,
        "seed": seed,
        "elapsed_s": time.monotonic() - t0,
        "bots": {},
    }
    for spec in specs:
        per = _per_deal(gl, spec)
        m, ci = _mean_ci([per[d] for d in sorted(per)])
        out["bots"][spec] = {"payoff": m, "payoff_ci": ci, "ms_per_move": _ms_per_move(gl, spec)}
    return out


def h2h_text(res: dict) -> str:
    lines = [
        f"{res['game']}, {res['players']} players, {res['deals']} deals x {res['players']} "
        f"rotations, seed {res['seed']}, head to head ({res['elapsed_s']:.0f} s)"
    ]
    for spec, b in res["bots"].items():
        lines.append(
            f"  {spec}: {b['payoff']:+.3f} [{b['payoff'] - b['payoff_ci']:+.3f}, "
            f"{b['payoff'] + b['payoff_ci']:+.3f}] bets/game, {b['ms_per_move']:.1f} ms/move"
        )
    return "\n".join(lines)


def text(res: dict) -> str:
    def f(key):
        return f"{res[key]:+.3f} [{res[key] - res[key + '_ci']:+.3f}, {res[key] + res[key + '_ci']:+.3f}]"

    return (
        f"{res['game']}, {res['players']} players, {res['deals']} deals x {res['players']} "
        f"rotations, seed {res['seed']}, each against {res['players'] - 1} x {res['opponent']} "
        f"({res['elapsed_s']:.0f} s)\n"
        f"  A {res['a']}: {f('a_payoff')} bets/game, win {100 * res['a_win']:.1f} %, "
        f"{res['a_ms_per_move']:.1f} ms/move\n"
        f"  B {res['b']}: {f('b_payoff')} bets/game, win {100 * res['b_win']:.1f} %, "
        f"{res['b_ms_per_move']:.1f} ms/move\n"
        f"  A - B: {f('a_minus_b')}"
    )


def ray_map_fn(parser: argparse.ArgumentParser, address: str):
    """The ``map_fn`` of ``--ray ADDRESS`` (Ray tasks on that cluster), or the parser's error
    naming why not (a bad address, Ray not installed)."""
    from quansu.server import ray_cluster

    try:
        return ray_cluster.mapper(ray_cluster.parse_address(address))
    except (ValueError, ray_cluster.RayMissing) as e:
        parser.error(str(e))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m quansu.bench.strength", description=__doc__.splitlines()[0]
    )
    p.add_argument("--game", required=True)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--a", help="bot spec A (e.g. level3, net:level3, net=PATH.onnx:level3)")
    p.add_argument("--b", help="bot spec B (e.g. heuristic)")
    p.add_argument("--opponent", help="bot spec of the other seats")
    p.add_argument(
        "--seats",
        metavar="SPEC,SPEC[,...]",
        help="head to head instead: these bots at one table (one per seat, the player "
        "count), every rotation; replaces --a/--b/--opponent/--players",
    )
    p.add_argument("--deals", type=int, default=50)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--json", metavar="PATH")
    from quansu.server.ray_cluster import add_ray_argument

    add_ray_argument(p, "play the deals")
    a = p.parse_args(argv)
    map_fn = None if a.ray is None else ray_map_fn(p, a.ray)
    options = {}
    for o in a.option:
        k, _, v = o.partition("=")
        options[k] = json.loads(v)
    if a.seats:
        res = head_to_head(a.game, a.seats.split(","), a.deals, a.seed, options, map_fn)
        shown = h2h_text(res)
    else:
        if not (a.a and a.b and a.opponent):
            p.error("give --a, --b and --opponent (a paired run) or --seats (head to head)")
        res = paired(a.game, a.a, a.b, a.opponent, a.deals, a.seed, a.players, options, map_fn)
        shown = text(res)
    res["command"] = "python -m quansu.bench.strength " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    print(shown)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(res, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
