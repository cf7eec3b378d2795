"""The arena: bots play the same deals with their seats rotated, and we measure strength.

Protocol (as DouZero / PerfectDou): for every deal, ``players`` games are played, the bots rotated
one seat further each time (rotation ``r`` puts bot ``i`` in seat ``(i + r) % players``), so each
bot plays every seat of every deal and luck of the deal cancels out.  Deals and bot seeds derive
from the arena seed, so a run is reproducible (and independent of the number of workers) when the
bots have iteration budgets.

Per bot kind (bots with the same spec are pooled, e.g. three ``heuristic``) the arena reports:

* ``win``: the share of games in first place (the best payoff at the end; a tie of k seats gives
  each 1/k), per seat of that kind;
* ``payoff``: the mean payoff per game in bets, per seat of that kind;

each with a 95 % confidence interval from the per-deal means (the rotations of one deal are
averaged first, since they are not independent): ``mean +- 1.96 * sd / sqrt(deals)``.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from quansu.games.base import Game, GameError
from quansu.search.bots import make_bot

#: ``hook(game_state, info)`` called in the worker after every game; ``info`` has ``deal``,
#: ``rotation`` and ``seats`` (the bot spec in each seat).  Must be picklable (a module-level
#: function) when workers > 1.  What it returns, when not None, comes back with the game as
#: its ``"hook"`` entry in ``per_game`` (a record to save where the run was started, when the
#: games are played on other machines).
GameHook = Callable[[Any, dict], Any]

#: ``map_fn(fn, tasks)``: ``fn(task)`` of every task, in any order (another executor of the
#: deals than the local process pool, e.g. Ray tasks: ``server/ray_cluster.py``).
MapFn = Callable[[Callable[[Any], Any], list], Any]


@dataclass(frozen=True)
class BotStats:
    """Results of one bot kind.  ``win`` / ``payoff``: means per seat and game (share of first
    places; bets); ``*_ci``: half-width of the 95 % interval (None with fewer than 2 deals).
    ``seats``: how many seats the kind held per game; ``ms_per_move``: mean decision time."""

    bot: str
    seats: int
    games: int
    win: float
    win_ci: float | None
    payoff: float
    payoff_ci: float | None
    ms_per_move: float

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class ArenaResult:
    game: str
    players: int
    options: dict
    bots: tuple[str, ...]
    deals: int
    seed: int
    games: int
    elapsed_s: float
    stats: tuple[BotStats, ...]
    per_game: list = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "bots": list(self.bots),
            "deals": self.deals,
            "seed": self.seed,
            "games": self.games,
            "elapsed_s": self.elapsed_s,
            "stats": [s.to_dict() for s in self.stats],
            "per_game": self.per_game,
        }

    def table(self) -> str:
        """A plain-text table of the stats."""

        def ci(x):
            return "   n/a" if x is None else f"{x:6.3f}"

        w = max([12] + [len(s.bot) for s in self.stats])
        lines = [
            f"{self.game}, {self.players} players, {self.deals} deals x {self.players} rotations "
            f"= {self.games} games, seed {self.seed}, {self.elapsed_s:.1f} s",
            f"{'bot':{w}s} {'seats':>5s} {'win %':>7s} {'+-':>6s} {'payoff':>8s} {'+-':>6s} "
            f"{'ms/move':>8s}",
        ]
        for s in self.stats:
            win_ci = "   n/a" if s.win_ci is None else f"{100 * s.win_ci:6.1f}"
            lines.append(
                f"{s.bot:{w}s} {s.seats:5d} {100 * s.win:7.1f} {win_ci} {s.payoff:+8.3f} "
                f"{ci(s.payoff_ci)} {s.ms_per_move:8.1f}"
            )
        return "\n".join(lines)


def _seed_of(*parts: Any) -> int:
    return random.Random(":".join(map(str, parts))).getrandbits(63)


def play_game(game: Game, deal, bots: Sequence, *, max_moves: int | None = None):
    """Play one game from ``deal`` with ``bots[s]`` in seat s; return ``(state, moves_per_seat,
    seconds_per_seat)``.  A bot's illegal move raises :class:`GameError` naming the bot."""
    state = game.state_from_deal(deal)
    n = game.num_players
    moves = [0] * n
    secs = [0.0] * n
    limit = max_moves or game.max_moves
    steps = 0
    while not state.is_terminal():
        seat = state.current_player
        t0 = time.perf_counter()
        move = bots[seat].choose(state, seat)
        secs[seat] += time.perf_counter() - t0
        if move not in state.legal_moves():
            raise GameError(
                f"bot {bots[seat].name!r} in seat {seat} chose an illegal move {move!r}"
            )
        state.apply(move)
        moves[seat] += 1
        steps += 1
        if steps > limit:
            raise GameError(f"game exceeded {limit} moves")
    return state, moves, secs


def _play_deal(task) -> dict:
    game, bot_specs, deal_index, seed, hook = task
    n = game.num_players
    deal = game.random_deal(random.Random(_seed_of(seed, "deal", deal_index)))
    games = []
    for r in range(n):
        seats = [bot_specs[(s - r) % n] for s in range(n)]  # bot i sits in seat (i + r) % n
        bots = [
            make_bot(spec, seed=_seed_of(seed, "bot", deal_index, r, s))
            for s, spec in enumerate(seats)
        ]
        state, moves, secs = play_game(game, deal, bots)
        kept = None
        if hook is not None:
            kept = hook(state, {"deal": deal_index, "rotation": r, "seats": seats})
        games.append(
            {
                "deal": deal_index,
                "rotation": r,
                "seats": seats,
                "payoffs": [float(x) for x in state.returns()],
                "moves": moves,
                "seconds": secs,
            }
        )
        if kept is not None:
            games[-1]["hook"] = kept
    return {"deal": deal_index, "games": games}


def _mean_ci(xs: list[float]) -> tuple[float, float | None]:
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, None
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, 1.96 * math.sqrt(var / len(xs))


def summarize(bot_specs: Sequence[str], deals: list[dict]) -> tuple[BotStats, ...]:
    """Per bot kind statistics from the per-deal game lists (see module docstring)."""
    kinds = list(dict.fromkeys(bot_specs))
    out = []
    for kind in kinds:
        per_deal_win, per_deal_pay = [], []
        moves = 0
        secs = 0.0
        ngames = 0
        for d in deals:
            wins, pays = [], []
            for g in d["games"]:
                pay = g["payoffs"]
                best = max(pay)
                winners = [s for s, p in enumerate(pay) if p >= best - 1e-9]
                for s, spec in enumerate(g["seats"]):
                    if spec != kind:
                        continue
                    pays.append(pay[s])
                    wins.append(1.0 / len(winners) if s in winners else 0.0)
                    moves += g["moves"][s]
                    secs += g["seconds"][s]
                ngames += 1
            per_deal_win.append(sum(wins) / len(wins))
            per_deal_pay.append(sum(pays) / len(pays))
        w, wci = _mean_ci(per_deal_win)
        p, pci = _mean_ci(per_deal_pay)
        out.append(
            BotStats(
                kind,
                list(bot_specs).count(kind),
                ngames,
                w,
                wci,
                p,
                pci,
                1000.0 * secs / moves if moves else 0.0,
            )
        )
    return tuple(out)


def run_arena(
    game: Game,
    bots: Sequence[str],
    deals: int,
    *,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int, int, float], None] | None = None,
    hook: GameHook | None = None,
    keep_games: bool = True,
    map_fn: MapFn | None = None,
) -> ArenaResult:
    """Play ``deals`` deals x ``players`` rotations of ``game`` and summarise.

    ``bots``: one spec per seat (see :func:`search.bots.make_bot`).  ``workers``: processes
    (default: the CPU count; 1 = play in this process).  ``progress(done, total, elapsed_s)``
    is called after each deal.  ``hook``: see :data:`GameHook`.  ``keep_games``: include every
    game in ``per_game``.  ``map_fn``: plays the deals instead of the local processes (see
    :data:`MapFn`; ``workers`` is then unused); the deals' seeds do not depend on where they
    are played, so the result is the same.  Raises :class:`GameError` on a bad bot spec or
    count.
    """
    if not isinstance(game, Game):
        raise GameError(f"run_arena: expected a Game, got {type(game).__name__}")
    n = game.num_players
    bots = tuple(bots)
    if len(bots) != n:
        raise GameError(f"--bots: {len(bots)} bots for {n} players; give one bot per seat")
    for spec in bots:
        make_bot(spec)  # validate every spec before starting
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise GameError(f"--deals: expected a whole number >= 1, got {deals!r}")
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise GameError(f"--workers: expected a whole number >= 1, got {workers!r}")
    workers = min(workers, deals)
    tasks = [(game, bots, d, seed, hook) for d in range(deals)]
    t0 = time.monotonic()
    results = []
    if map_fn is not None:
        for res in map_fn(_play_deal, tasks):
            results.append(res)
            if progress:
                progress(len(results), deals, time.monotonic() - t0)
    elif workers == 1:
        for task in tasks:
            results.append(_play_deal(task))
            if progress:
                progress(len(results), deals, time.monotonic() - t0)
    else:
        ctx = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        with ctx.Pool(workers) as pool:
            for res in pool.imap_unordered(_play_deal, tasks):
                results.append(res)
                if progress:
                    progress(len(results), deals, time.monotonic() - t0)
    results.sort(key=lambda r: r["deal"])
    stats = summarize(bots, results)
    per_game = [gm for r in results for gm in r["games"]] if keep_games else []
    return ArenaResult(
        game.name,
        n,
        dict(game.options_diff()),
        bots,
        deals,
        seed,
        deals * n,
        time.monotonic() - t0,
        stats,
        per_game,
    )


def progress_bar(stream) -> Callable[[int, int, float], None]:
    """A progress callback drawing ``[#####-----] done/total  elapsed  eta`` on ``stream``
    (redrawn at most twice a second, and at the end)."""
    last = [-1.0]

    def show(done: int, total: int, elapsed: float) -> None:
        if done < total and elapsed - last[0] < 0.5:
            return
        last[0] = elapsed
        width = 30
        k = int(width * done / total)
        eta = elapsed / done * (total - done) if done else 0.0
        stream.write(
            f"\r[{'#' * k}{'-' * (width - k)}] {done}/{total} deals  "
            f"{elapsed:6.1f} s  eta {eta:6.1f} s"
        )
        if done == total:
            stream.write("\n")
        stream.flush()

    return show
