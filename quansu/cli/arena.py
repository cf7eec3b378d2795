"""``quansu arena``: bots play the same deals with their seats rotated; strength with 95 % CIs.

Example::

    quansu arena --game tienlen --players 4 \\
        --bots ismcts:iterations=200,heuristic,heuristic,heuristic --deals 40 --seed 1 --json result.json

(about 3 s of one core per deal: two minutes on one core, less with more; the default search,
1000 iterations a move, takes about five times as long.)

Bot specs (one per seat, comma separated): ``random``, ``heuristic``, ``ismcts`` with optional
``:field=value`` search settings (``ismcts:iterations=300:opponent_keys=observer``), ``pimc``
(``pimc:worlds=10:time_s=0.2``) and ``level1`` .. ``level5``.  The table goes to stdout, the
progress bar to stderr; ``--json [PATH]`` writes the full result (stdout when no path);
``--records DIR`` saves every game as a ``quansu-record/1`` file
(``DIR/deal00012_rot3.json``) plus ``DIR/index.json`` naming the bot in each seat of each file.
``--ray [ADDRESS]`` plays the deals as tasks on a Ray cluster (docs/scaling.md) instead of the
local processes: the same table for the same seed (the records come back to this machine).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys

from quansu.cli.play import parse_options
from quansu.games import GameError, make


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", default="tienlen", help="tienlen, phom, samloc or tan")
    p.add_argument("--players", type=int, default=4)
    p.add_argument(
        "--bots",
        required=True,
        help="one bot spec per seat, comma separated, e.g. ismcts,heuristic,heuristic,heuristic",
    )
    p.add_argument("--deals", type=int, default=100, help="deals; each is played once per rotation")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals and the bots")
    p.add_argument(
        "--workers", type=int, default=None, help="processes (default: the number of CPU cores)"
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option (JSON value), repeatable",
    )
    p.add_argument(
        "--json",
        nargs="?",
        const="-",
        default=None,
        metavar="PATH",
        help="write the full result as JSON to PATH (stdout when no PATH)",
    )
    p.add_argument(
        "--records",
        default=None,
        metavar="DIR",
        help="save every game as a quansu-record/1 JSON file in DIR",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    from quansu.server.ray_cluster import add_ray_argument

    add_ray_argument(p, "play the deals")


def record_name(deal: int, rotation: int) -> str:
    return f"deal{deal:05d}_rot{rotation}.json"


def save_record(directory: str, state, info: dict) -> None:
    """Arena hook (runs in the worker): write the finished game as a record file."""
    from quansu.games.record import record_from_state, write_json

    write_json(
        record_from_state(state),
        os.path.join(directory, record_name(info["deal"], info["rotation"])),
    )


def record_of(state, info: dict) -> dict:
    """Arena hook (runs in the worker): the finished game as a record, brought back to the
    machine that started the run (``--ray``)."""
    from quansu.games.record import record_from_state

    return record_from_state(state)


def run(args, out=sys.stdout, err=sys.stderr) -> int:
    from quansu.search.arena import progress_bar, run_arena

    hook = map_fn = None
    try:
        game = make(args.game, args.players, parse_options(args.option))
        bots = [b.strip() for b in args.bots.split(",")]
        if getattr(args, "ray", None) is not None:
            from quansu.server import ray_cluster

            try:
                map_fn = ray_cluster.mapper(ray_cluster.parse_address(args.ray))
            except (ValueError, ray_cluster.RayMissing) as e:
                print(f"error: {e}", file=err)
                return 2
        if args.records:
            os.makedirs(args.records, exist_ok=True)
            # with --ray the games are played on other machines: their records come back here
            hook = record_of if map_fn is not None else functools.partial(save_record, args.records)
        result = run_arena(
            game,
            bots,
            args.deals,
            seed=args.seed,
            workers=args.workers or os.cpu_count() or 1,
            progress=None if args.quiet else progress_bar(err),
            hook=hook,
            map_fn=map_fn,
        )
        if args.records and map_fn is not None:
            from quansu.games.record import write_json

            for g in result.per_game:
                write_json(
                    g.pop("hook"), os.path.join(args.records, record_name(g["deal"], g["rotation"]))
                )
        if args.records:
            index = [
                {
                    "file": record_name(g["deal"], g["rotation"]),
                    "seats": g["seats"],
                    "payoffs": g["payoffs"],
                }
                for g in result.per_game
            ]
            with open(os.path.join(args.records, "index.json"), "w", encoding="utf-8") as f:
                json.dump(
                    {
                        "game": result.game,
                        "players": result.players,
                        "seed": result.seed,
                        "games": index,
                    },
                    f,
                    indent=1,
                )
    except GameError as e:
        from quansu.cli.i18n import error_text, lang_of, t

        print(t("error", lang_of(args), message=error_text(e, lang_of(args))), file=err)
        return 2
    except BrokenPipeError:
        raise
    except OSError as e:
        print(f"error: --records {args.records}: {e.strerror or e}", file=err)
        return 2
    if args.json != "-":
        print(result.table(), file=out)
    if args.json is not None:
        text = json.dumps(result.to_dict(), indent=1, default=str)
        if args.json == "-":
            print(text, file=out)
        else:
            with open(args.json, "w", encoding="utf-8") as f:
                f.write(text + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the subcommand on its own (``python -m quansu.cli.arena ...``)."""
    parser = argparse.ArgumentParser(prog="quansu arena", description=__doc__.split("\n")[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
