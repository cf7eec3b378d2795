"""``quansu train``: train a game's policy-value network (needs the ``[train]`` extra).

Example: ``quansu train --game tienlen --players 4 --minutes 30 --seed 1`` writes
``models/tienlen.onnx``, ``models/tienlen.md`` (model card) and ``models/tienlen.png``
(training curve).  See ``docs/models.md``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", required=True, help="tienlen, phom, samloc or tan")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--minutes", type=float, default=30.0, help="wall-time budget of the whole run")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=2, help="game-generation processes")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option (JSON value), repeatable",
    )
    p.add_argument("--out", default="", help="output .onnx path (default models/<game>.onnx)")
    p.add_argument("--hidden", type=int, default=256, help="width of the state trunk")
    p.add_argument(
        "--search-iterations",
        type=int,
        default=48,
        help="ISMCTS iterations per move in expert iteration",
    )
    p.add_argument(
        "--teacher",
        choices=("network", "rollout", "uniform"),
        default="network",
        help="the expert-iteration search: network priors and values; network "
        "priors and playouts; or uniform priors and playouts (no network)",
    )
    p.add_argument("--games-per-round", type=int, default=16)
    p.add_argument(
        "--exit-replay",
        type=int,
        default=40_000,
        help="replay window (decisions) during expert iteration",
    )
    p.add_argument("--steps-per-round", type=int, default=200)
    p.add_argument(
        "--heuristic-share",
        type=float,
        default=0.4,
        help="share of the time spent on the heuristic-bot phase",
    )
    p.add_argument(
        "--eval-deals",
        type=int,
        default=40,
        help="deals of the arena matches (new vs previous, and the final evaluation)",
    )
    p.add_argument(
        "--calibration-deals",
        type=int,
        default=400,
        help="advantage targets: deals on which each heuristic bonus is played",
    )
    p.add_argument(
        "--policy-targets",
        choices=("heuristic", "advantage"),
        default="heuristic",
        help="heuristic: imitate the heuristic bot, then expert iteration; advantage: "
        "learn each move's advantage from heuristic rollouts (the whole budget)",
    )
    p.add_argument(
        "--bot",
        choices=("heuristic", "sparring"),
        default="heuristic",
        help="the rule-based bot of the self-play games, rollouts and bonus "
        "calibration: the heuristic (default) or the game's stronger sparring "
        "bot (much slower per move)",
    )
    p.add_argument(
        "--rollout-moves",
        type=int,
        default=12,
        help="advantage targets: most moves rolled out per decision",
    )
    p.add_argument(
        "--replay", type=int, default=150_000, help="replay window (decisions) of the first phase"
    )
    p.add_argument(
        "--previous",
        default="",
        help="the model the new one must beat, policy against policy (default: the "
        "model already at --out, when it fits the game and encoder); the "
        "better one ends up at --out, a rejected one beside it as "
        "<name>.rejected.onnx",
    )
    p.add_argument(
        "--compare-deals",
        type=int,
        default=400,
        help="deals of the new-vs-previous match (every seat rotation)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    # --algo dmc: Deep Monte Carlo self-play (models/training/dmc.py, issue 42)
    from quansu.server.ray_cluster import add_ray_argument

    p.add_argument(
        "--algo",
        choices=("expert", "dmc"),
        default="expert",
        help="expert: the heuristic phase then expert iteration (default); dmc: "
        "Deep Monte Carlo self-play, one network call a decision, writing into "
        "the folder --out (default dmc-<game>) with checkpoints and a curve",
    )
    add_ray_argument(p, "dmc: the self-play actors (--workers of them)")
    p.add_argument(
        "--resume", action="store_true", help="dmc: continue from the checkpoint in --out"
    )
    p.add_argument(
        "--device", choices=("cpu", "cuda"), default="cpu", help="dmc: where the learner runs"
    )
    p.add_argument(
        "--init-from",
        metavar="MODEL.onnx",
        default="",
        help="dmc: start from this network of the game (e.g. models/<game>.onnx, the shipped "
        "one), its move scores fitted to Q units on the first round",
    )
    p.add_argument(
        "--epsilon",
        type=float,
        default=0.05,
        help="dmc: share of the network's moves played at random",
    )
    p.add_argument(
        "--bot-share",
        type=float,
        default=0.25,
        help="dmc: chance that a seat of a self-play game is played by --bot",
    )
    p.add_argument(
        "--league",
        metavar="KIND=SHARE,...",
        default="",
        help="dmc: who plays the seats of a self-play game, share per kind: heuristic, "
        "sparring (the rule-based bots) and past (a frozen earlier network of the run: its "
        "start network and curve snapshots), e.g. heuristic=0.1,sparring=0.4,past=0.2; the "
        "rest the current network.  Replaces --bot-share; --bot is then the curve's opponent",
    )
    p.add_argument(
        "--league-past",
        type=int,
        default=2,
        help="dmc: frozen networks sent to the actors each round for the past seats",
    )
    p.add_argument(
        "--encoder-version",
        type=int,
        default=0,
        help="dmc: the game's encoder layout to train on (0: its default, the shipped "
        "network's); e.g. 4 in tienlen and phom adds the sparring bot's choice as a move "
        "feature (docs/models.md, Encoders)",
    )
    p.add_argument(
        "--no-record-bots",
        dest="record_bots",
        action="store_false",
        help="dmc: train only on the current network's own decisions (default: every seat's, "
        "the bots' and frozen networks' included)",
    )
    p.add_argument(
        "--reuse",
        type=float,
        default=2.0,
        help="dmc: gradient steps per round = reuse * new decisions / batch",
    )
    p.add_argument(
        "--dmc-lr", type=float, default=3e-4, help="dmc: the learner's learning rate (AdamW)"
    )
    p.add_argument("--dmc-replay", type=int, default=50_000, help="dmc: replay window (decisions)")
    p.add_argument(
        "--checkpoint-minutes", type=float, default=5.0, help="dmc: minutes between checkpoints"
    )
    p.add_argument(
        "--curve-deals",
        type=int,
        default=100,
        help="dmc: fixed deals of each learning-curve point (every seat rotation)",
    )
    p.add_argument(
        "--curve-first",
        type=int,
        default=5_000,
        help="dmc: decisions at the first curve point after 0 (then doubling)",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=0,
        help="dmc: stop after this many self-play rounds in all (0: --minutes only)",
    )


def run(args) -> int:
    from quansu.cli import install_hint
    from quansu.cli.play import parse_options
    from quansu.games import GameError

    try:
        import onnx  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        print(
            f"error: quansu train needs the [train] extra (torch, onnx): {e}. "
            f"Install it with: {install_hint('train')}",
            file=sys.stderr,
        )
        return 2
    from quansu.models.training.loop import TrainConfig, train

    if getattr(args, "algo", "expert") == "dmc":
        return run_dmc(args)
    for name in ("minutes", "heuristic_share"):
        if getattr(args, name) <= 0:
            print(f"error: --{name.replace('_', '-')} must be > 0", file=sys.stderr)
            return 2
    for name in (
        "workers",
        "hidden",
        "search_iterations",
        "games_per_round",
        "steps_per_round",
        "eval_deals",
        "exit_replay",
        "rollout_moves",
        "replay",
        "calibration_deals",
        "compare_deals",
    ):
        if getattr(args, name) < 1:
            print(f"error: --{name.replace('_', '-')} must be >= 1", file=sys.stderr)
            return 2
    if args.heuristic_share >= 0.9:
        print("error: --heuristic-share must be < 0.9", file=sys.stderr)
        return 2
    try:
        cfg = TrainConfig(
            game=args.game,
            players=args.players,
            options=parse_options(args.option),
            minutes=args.minutes,
            seed=args.seed,
            workers=args.workers,
            hidden=args.hidden,
            search_iterations=args.search_iterations,
            teacher=args.teacher,
            games_per_round=args.games_per_round,
            exit_replay=args.exit_replay,
            steps_per_round=args.steps_per_round,
            heuristic_share=args.heuristic_share,
            eval_deals=args.eval_deals,
            policy_targets=args.policy_targets,
            rollout_moves=args.rollout_moves,
            bot=args.bot,
            replay=args.replay,
            calibration_deals=args.calibration_deals,
            out=args.out,
            previous=args.previous,
            compare_deals=args.compare_deals,
            progress=not args.no_progress,
        )
        train(cfg)
    except GameError as e:
        from quansu.cli.i18n import error_text, lang_of, t

        print(t("error", lang_of(args), message=error_text(e, lang_of(args))), file=sys.stderr)
        return 2
    return 0


def run_dmc(args) -> int:
    """``quansu train --algo dmc``: :func:`quansu.models.training.dmc.train_dmc`."""
    from quansu.cli.play import parse_options
    from quansu.games import GameError
    from quansu.models.training.dmc import DMCConfig, parse_league, train_dmc
    from quansu.server.ray_cluster import RayMissing, parse_address, require_ray

    ray = None
    if args.ray is not None:
        try:
            ray = parse_address(args.ray)
            require_ray()
        except (ValueError, RayMissing) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    if args.minutes <= 0 or args.checkpoint_minutes <= 0:
        print("error: --minutes and --checkpoint-minutes must be > 0", file=sys.stderr)
        return 2
    if not (0.0 <= args.epsilon <= 1.0 and 0.0 <= args.bot_share <= 1.0):
        print("error: --epsilon and --bot-share must be within [0, 1]", file=sys.stderr)
        return 2
    if (
        args.workers < (1 if ray is not None else 0)
        or args.dmc_replay < 1
        or args.curve_deals < 1
        or args.games_per_round < 1
        or args.reuse <= 0
        or args.dmc_lr <= 0
    ):
        print(
            "error: --workers, --dmc-replay, --curve-deals, --games-per-round, --reuse and "
            "--dmc-lr must be positive",
            file=sys.stderr,
        )
        return 2
    try:
        league = parse_league(args.league) if args.league else {}
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        cfg = DMCConfig(
            game=args.game,
            players=args.players,
            options=parse_options(args.option),
            minutes=args.minutes,
            seed=args.seed,
            workers=args.workers,
            ray=ray,
            out_dir=args.out or f"dmc-{args.game}",
            resume=args.resume,
            device=args.device,
            hidden=args.hidden,
            epsilon=args.epsilon,
            bot_share=args.bot_share,
            bot=args.bot,
            league=league,
            league_past=args.league_past,
            record_bot=args.record_bots,
            games_per_round=args.games_per_round,
            reuse=args.reuse,
            lr=args.dmc_lr,
            replay=args.dmc_replay,
            checkpoint_minutes=args.checkpoint_minutes,
            eval_deals=args.curve_deals,
            eval_first=args.curve_first,
            rounds=args.rounds,
            progress=not args.no_progress,
            init_from=args.init_from,
            encoder_version=args.encoder_version,
        )
        if cfg.init_from and not Path(cfg.init_from).is_file():
            raise ValueError(f"--init-from {cfg.init_from}: no such file")
        train_dmc(cfg)
    except GameError as e:
        from quansu.cli.i18n import error_text, lang_of, t

        print(t("error", lang_of(args), message=error_text(e, lang_of(args))), file=sys.stderr)
        return 2
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m quansu.cli.train ...`` = ``quansu train ...``."""
    p = argparse.ArgumentParser(prog="quansu train", description=__doc__.splitlines()[0])
    add_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
