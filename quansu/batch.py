"""Batch analysis: many games judged as independent tasks, on the local process pool or on a
Ray cluster (``quansu analyze PATHS... --out RESULTS.jsonl [--ray [ADDRESS]]``).

* Sources: record and view files, folders of them, glob patterns (``'games/**/*.json'``),
  JSONL streams (a ``.jsonl`` file, or ``-``: standard input, one record or view per line).
* One task per game: :func:`analyze_record` (picklable inputs, a plain dict out), the same
  function on both executors, which run it one game per process and CPU (the game's decisions
  judged in order, as ``Engine.analyze`` does in one process: the same seeds give the same
  marks on either executor and any number of processes or nodes).
* Each result is appended to ``--out`` as one JSON line as soon as it arrives (flushed), so that
  nothing finished is lost; a rerun with the same settings skips every game whose line is there
  (keyed by the digest of the game's JSON and the digest of the settings: :class:`Settings`).
  A game that fails its validation gets a line with ``status: "invalid"`` and its error (also
  skipped on a rerun: the same input fails the same way); a task that failed otherwise
  (``status: "error"``) is run again by a rerun.  On Ray a task whose worker or node is lost
  is run again (:func:`quansu.server.ray_cluster.map_unordered`), and its line is written once,
  when its result reaches the driver.
* A progress bar on standard error (games done, failed, skipped, elapsed, ETA); at the end the
  summary table of ``quansu analyze`` over every game of the run (skipped ones included, read
  back from ``--out``) and, with ``--reports DIR``, one HTML report per game.

The line of one game: ``key`` (``<record digest>.<settings digest>``), ``record``, ``settings``,
``source`` (the file, ``FILE:LINE`` in a JSONL stream), ``status`` (``ok``, ``invalid``,
``error``), ``error`` (when not ok), ``game``, ``model``, ``thresholds``, ``decisions`` and
``summaries`` (the Analyze messages as protobuf JSON), ``seconds`` (the task's wall time),
``cpu_seconds`` (its process's CPU time), ``node`` (the Ray node id, "" locally) and ``pid``.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

RESULT_FORMAT = "quansu-analysis/1"
#: Statuses a rerun with the same settings does not run again.
DONE_STATUSES = ("ok", "invalid")


@dataclass(frozen=True)
class Settings:
    """What an analysis depends on besides the game: the judged seats, the mark thresholds,
    the cap of worlds, the search budget, the seed, the evaluator and the language of the
    reasons' texts.  Two runs with equal settings give equal results (and a rerun skips a game
    whose result under the same settings exists)."""

    seats: tuple[int, ...] = ()
    good: float = 0.0
    inaccuracy: float = 0.0
    mistake: float = 0.0
    worlds: int = 0
    iterations: int = 0
    ms: int = 0
    seed: int = 0
    uniform: bool = False
    language: str = ""

    def digest(self) -> str:
        from quansu import __version__

        body = dict(asdict(self), seats=list(self.seats), version=__version__)
        return _digest(body)[:16]


def _digest(obj: Any) -> str:
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def record_digest(obj: Any) -> str:
    """The digest of a game's JSON (key order and layout do not matter)."""
    return _digest(obj)[:24]


@dataclass
class Item:
    """One game of the input: its ``source``, its JSON ``obj`` (None when it could not be read,
    then ``error`` says why) and its digest."""

    source: str
    obj: Any = None
    error: str = ""
    digest: str = ""


def _is_glob(p: str) -> bool:
    return any(c in p for c in "*?[")


def _game_kind(obj: Any) -> bool:
    from quansu.games import record as rec

    return isinstance(obj, dict) and obj.get("format") in (rec.RECORD_FORMAT, rec.VIEW_FORMAT)


def _jsonl(lines, name: str) -> Iterator[Item]:
    from quansu.games import record as rec

    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        src = f"{name}:{n}"
        try:
            obj = rec.loads(line)
        except rec.RecordError as e:
            yield Item(src, None, str(e), _digest(line)[:24])
            continue
        yield Item(src, obj, "", record_digest(obj))


def _file(path: str, in_folder: bool, skipped: Callable[[str], None]) -> Iterator[Item]:
    from quansu.games import record as rec

    if path.endswith(".jsonl"):
        with open(path, encoding="utf-8") as f:
            yield from _jsonl(f, path)
        return
    try:
        obj = rec.read_json(path)
    except (rec.RecordError, UnicodeDecodeError) as e:
        if in_folder:
            skipped(path)
            return
        yield Item(path, None, str(e), _digest(path)[:24])
        return
    if in_folder and not _game_kind(obj):
        skipped(path)  # an arena's index.json and the like
        return
    yield Item(path, obj, "", record_digest(obj))


def read_items(
    paths: Sequence[str], *, stdin=None, skipped: Callable[[str], None] = lambda p: None
) -> Iterator[Item]:
    """The games named by ``paths``: files, folders (their ``*.json`` and ``*.jsonl``, sorted;
    files in a folder that are not records or views are passed to ``skipped``), glob patterns
    (``**`` for any depth) and ``-`` (a JSONL stream on ``stdin``).  A file that cannot be read
    as JSON gives an item with its ``error``; a path that names nothing raises
    ``FileNotFoundError``."""
    for p in paths:
        if p == "-":
            yield from _jsonl(stdin if stdin is not None else sys.stdin, "-")
            continue
        path = Path(p)
        if path.is_dir():
            for f in sorted(list(path.glob("*.json")) + list(path.glob("*.jsonl"))):
                yield from _file(str(f), True, skipped)
        elif path.exists():
            yield from _file(p, False, skipped)
        elif _is_glob(p):
            found = sorted(f for f in glob.glob(p, recursive=True) if os.path.isfile(f))
            if not found:
                raise FileNotFoundError(2, "No file matches the pattern", p)
            for f in found:
                yield from _file(f, True, skipped)
        else:
            raise FileNotFoundError(2, "No such file or directory", p)


# -- one game: the task both executors run ----------------------------------------------------

_ENGINES: dict = {}


def _engine(uniform: bool):
    eng = _ENGINES.get(uniform)
    if eng is None:
        from quansu.server.engine import build_engine

        eng = _ENGINES[uniform] = build_engine(uniform=uniform)
    return eng


def _error_text(e: BaseException, which: str, lang: str) -> str:
    from quansu.games.base import GameError
    from quansu.games.errors import CodedError
    from quansu.server.errors import RequestError, as_request_error

    if isinstance(e, (GameError, CodedError)) and not isinstance(e, RequestError):
        e = as_request_error(e, which)
    if isinstance(e, RequestError):
        text = e.render(lang or "en")
        return f"{e.field}: {text}" if e.field else text
    return f"{type(e).__name__}: {e}"


def analyze_record(task: tuple) -> dict:
    """Judge one game: ``task`` is ``(obj, source, key, settings as a dict)``; returns its
    result line (module doc) with ``status`` ``ok``, or ``invalid`` with the validation error
    (never raised: the run goes on), or ``error`` for any other exception."""
    from google.protobuf import json_format

    from quansu.client import Client

    obj, source, key, s = task
    settings = Settings(**dict(s, seats=tuple(s["seats"])))
    started, cpu0 = time.monotonic(), time.process_time()
    out: dict[str, Any] = {
        "format": RESULT_FORMAT,
        "key": key,
        "record": key.split(".")[0],
        "settings": key.split(".")[1],
        "source": source,
        "game": obj.get("game", "") if isinstance(obj, dict) else "",
    }
    decisions: list = []
    summaries: list = []
    head: dict = {}

    def emit(msg) -> None:
        if not head:
            head["thresholds"] = json_format.MessageToDict(
                msg.thresholds, preserving_proto_field_name=True
            )
            head["model"] = msg.model
        item = msg.WhichOneof("item")
        d = json_format.MessageToDict(getattr(msg, item), preserving_proto_field_name=True)
        (decisions if item == "decision" else summaries).append(d)

    which = "record"
    try:
        from quansu.games.base import GameError
        from quansu.games.errors import CodedError
        from quansu.server.errors import RequestError

        rules_errors = (RequestError, GameError, CodedError)
        try:
            req = Client.analyze_request(
                obj,
                seats=settings.seats,
                iterations=settings.iterations,
                milliseconds=settings.ms,
                thresholds={
                    "good": settings.good,
                    "inaccuracy": settings.inaccuracy,
                    "mistake": settings.mistake,
                },
                seed=settings.seed,
                language=settings.language,
                max_worlds=settings.worlds,
            )
            which = req.WhichOneof("game") or "record"
        except (*rules_errors, TypeError, ValueError, KeyError, AttributeError) as e:
            # a game object the converters cannot read (wrong JSON types, unknown fields)
            req = None
            out.update(status="invalid", error=_error_text(e, which, settings.language))
        if req is not None:
            try:
                _engine(settings.uniform).analyze(req, emit, jobs=1)
                out.update(status="ok", **head, decisions=decisions, summaries=summaries)
            except rules_errors as e:
                out.update(status="invalid", error=_error_text(e, which, settings.language))
    except Exception as e:  # noqa: BLE001 - reported on the line; a rerun tries it again
        out.update(status="error", error=f"{type(e).__name__}: {e}")
    from quansu.server import ray_cluster

    out.update(
        seconds=round(time.monotonic() - started, 4),
        cpu_seconds=round(time.process_time() - cpu0, 4),
        node=ray_cluster.node_id() if "ray" in sys.modules else "",
        pid=os.getpid(),
    )
    return out


def _pool_init() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the pool


def local_pool(jobs: int) -> ProcessPoolExecutor:
    """The local pool of :func:`map_local`: ``jobs`` spawned worker processes."""
    import multiprocessing as mp

    return ProcessPoolExecutor(
        max_workers=jobs, mp_context=mp.get_context("spawn"), initializer=_pool_init
    )


def map_local(
    fn: Callable[[Any], Any],
    tasks: Sequence[Any],
    jobs: int,
    window: int | None = None,
    pool: ProcessPoolExecutor | None = None,
) -> Iterator[tuple[int, Any]]:
    """``(i, fn(tasks[i]))`` in the order they finish, on ``jobs`` local worker processes
    (spawned; each keeps its engine for the next task), or on ``pool`` (:func:`local_pool`,
    kept open by the caller); in this process when ``jobs`` is 1 and no pool is given."""
    if pool is None and (jobs <= 1 or len(tasks) <= 1):
        for i, t in enumerate(tasks):
            yield i, fn(t)
        return
    window = window or 4 * max(1, jobs)
    own = pool is None
    if own:
        pool = local_pool(min(jobs, len(tasks)))
    with contextlib.ExitStack() as stack:
        if own:
            stack.enter_context(pool)
        pending: dict = {}
        nxt = 0
        try:
            while nxt < len(tasks) or pending:
                while nxt < len(tasks) and len(pending) < window:
                    pending[pool.submit(fn, tasks[nxt])] = nxt
                    nxt += 1
                done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                for fut in done:
                    yield pending.pop(fut), fut.result()
        finally:
            for fut in pending:
                fut.cancel()


# -- the run ----------------------------------------------------------------------------------


def read_results(path: str) -> dict[str, dict]:
    """The result lines of ``path`` by key (the last line of a key wins; a torn last line, as a
    killed run may leave, is ignored)."""
    out: dict[str, dict] = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    obj = json.loads(line)
                except ValueError:
                    continue
                if isinstance(obj, dict) and isinstance(obj.get("key"), str):
                    out[obj["key"]] = obj
    except FileNotFoundError:
        pass
    return out


@dataclass
class BatchResult:
    """The games of a run in input order (their result lines), and the counts."""

    lines: list[dict] = field(default_factory=list)
    ran: int = 0
    skipped: int = 0
    failed: int = 0
    elapsed_s: float = 0.0


class Progress:
    """``[#####-----] done/total games, F failed, S skipped  elapsed  eta`` on ``stream``: redrawn
    in place on a terminal (at most twice a second), else one line per finished game."""

    def __init__(self, stream, total: int, skipped: int) -> None:
        self.stream, self.total, self.skipped = stream, total, skipped
        self.tty = hasattr(stream, "isatty") and stream.isatty()
        self.t0 = time.monotonic()
        self.last = -1.0
        self.done = skipped
        self.failed = 0

    def update(self, line: dict | None = None) -> None:
        if line is not None:
            self.done += 1
            if line.get("status") != "ok":
                self.failed += 1
        elapsed = time.monotonic() - self.t0
        ran = self.done - self.skipped
        left = self.total - self.done
        eta = elapsed / ran * left if ran else 0.0
        width = 30
        k = int(width * self.done / self.total) if self.total else width
        text = (
            f"[{'#' * k}{'-' * (width - k)}] {self.done}/{self.total} games, "
            f"{self.failed} failed, {self.skipped} skipped  {elapsed:6.1f} s  eta {eta:6.1f} s"
        )
        if self.tty:
            if line is not None and left and elapsed - self.last < 0.5:
                return
            self.last = elapsed
            self.stream.write("\r" + text + ("\n" if not left else ""))
        else:
            tail = ""
            if line is not None:
                tail = f"  {line.get('source')}: {line.get('status')}"
                if line.get("error"):
                    tail += f" ({line['error']})"
            self.stream.write(text + tail + "\n")
        self.stream.flush()


def run_batch(
    items: Sequence[Item],
    settings: Settings,
    *,
    out_path: str | None = None,
    executor: str = "local",
    jobs: int = 1,
    address: str | None = None,
    progress=None,
    on_result: Callable[[dict], None] | None = None,
    pool: ProcessPoolExecutor | None = None,
) -> BatchResult:
    """Analyse ``items`` with ``settings`` (module doc): on ``jobs`` local processes
    (``executor="local"``) or as Ray tasks (``"ray"``: on the cluster at ``address``, already
    connected when it is None and Ray is initialised).  Results already in ``out_path`` under
    the same settings are skipped; new ones are appended there as they arrive.  ``progress``:
    a stream for :class:`Progress`.  ``on_result(line)`` is called in this process after each
    new line is written.  The same game twice in ``items`` is judged once.  ``pool``: a
    :func:`local_pool` to run on instead of a new one (its workers already warm)."""
    t0 = time.monotonic()
    sdig = settings.digest()
    have = read_results(out_path) if out_path else {}
    lines: dict[str, dict] = {}
    order: list[str] = []
    todo: list[tuple] = []
    res = BatchResult()
    for it in items:
        key = f"{it.digest}.{sdig}"
        if key in order:
            continue
        order.append(key)
        old = have.get(key)
        if old is not None and old.get("status") in DONE_STATUSES:
            lines[key] = old
            res.skipped += 1
        elif it.obj is None:
            todo.append(("invalid", key, it))
        else:
            todo.append(("task", key, it))
    bar = Progress(progress, len(order), res.skipped) if progress is not None else None
    sink = open(out_path, "a", encoding="utf-8") if out_path else None
    if sink is not None and sink.tell() > 0:
        with open(out_path, "rb") as f:
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                sink.write("\n")  # a killed run's torn last line stays a line of its own
    s = dict(asdict(settings), seats=list(settings.seats))

    def accept(line: dict) -> None:
        lines[line["key"]] = line
        res.ran += 1
        if line.get("status") != "ok":
            res.failed += 1
        if sink is not None:
            sink.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
            sink.flush()
            os.fsync(sink.fileno())
        if bar is not None:
            bar.update(line)
        if on_result is not None:
            on_result(line)

    try:
        if bar is not None:
            bar.update()
        tasks = []
        for kind, key, it in todo:
            if kind == "invalid":
                d = key.split(".")
                accept(
                    {
                        "format": RESULT_FORMAT,
                        "key": key,
                        "record": d[0],
                        "settings": d[1],
                        "source": it.source,
                        "game": "",
                        "status": "invalid",
                        "error": it.error,
                        "seconds": 0.0,
                        "cpu_seconds": 0.0,
                        "node": "",
                        "pid": os.getpid(),
                    }
                )
            else:
                tasks.append((it.obj, it.source, key, s))
        if executor == "ray":
            from quansu.server import ray_cluster

            if address is not None:
                ray_cluster.connect(address or None)
            results = ray_cluster.map_unordered(analyze_record, tasks)
        else:
            results = map_local(analyze_record, tasks, jobs, pool=pool)
        for _, line in results:
            accept(line)
    finally:
        if sink is not None:
            sink.close()
    res.lines = [lines[k] for k in order if k in lines]
    res.elapsed_s = time.monotonic() - t0
    return res


def game_analysis(line: dict):
    """A :class:`quansu.report.GameAnalysis` from an ``ok`` result line (for the summary
    table and the HTML report)."""
    from google.protobuf import json_format

    from quansu.report import GameAnalysis
    from quansu.server.v1 import service_pb2 as pb

    a = GameAnalysis(obj={}, source=line.get("source", ""), model=line.get("model", ""))
    a.thresholds = json_format.ParseDict(line.get("thresholds", {}), pb.Thresholds())
    a.decisions = [json_format.ParseDict(d, pb.Decision()) for d in line.get("decisions", ())]
    a.summaries = [json_format.ParseDict(d, pb.SeatSummary()) for d in line.get("summaries", ())]
    return a


def report_name(line: dict) -> str:
    """The HTML report's file name of a game: its source's stem, its line in a stream, and
    the start of its digest (``deal00001_rot1-3f2a9c1e.html``)."""
    src = line.get("source", "game")
    base, _, ln = src.rpartition(":") if src.rpartition(":")[2].isdigit() else (src, "", "")
    stem = Path(base).stem or "stdin"
    if ln:
        stem += f"-{ln}"
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in stem)
    return f"{safe}-{line.get('record', '')[:8]}.html"


# -- the command ------------------------------------------------------------------------------


def add_batch_arguments(p) -> None:
    """The batch options of ``quansu analyze`` (module doc)."""
    p.add_argument(
        "--out",
        metavar="RESULTS.jsonl",
        help="analyse the games as independent tasks, appending each game's result "
        "to this JSONL file as it finishes; a rerun skips the games whose "
        "result (same settings) is there",
    )
    from quansu.server.ray_cluster import add_ray_argument

    add_ray_argument(p, "run the games")
    p.add_argument(
        "--reports", metavar="DIR", help="with --out or --ray: one HTML report per game in DIR"
    )
    p.add_argument(
        "--quiet", action="store_true", help="with --out or --ray: no progress on standard error"
    )


def ray_address(value: str, files: list[str]) -> str:
    """The ``--ray`` option's address ("" = a local Ray).  A value that is none of the address
    forms but an existing path was a game file after a bare ``--ray``: it goes back to
    ``files``.  ValueError for anything else."""
    from quansu.server.ray_cluster import parse_address

    try:
        return parse_address(value)
    except ValueError:
        if os.path.exists(value) or value == "-" or _is_glob(value):
            files.insert(0, value)
            return ""
        raise


def settings_of(args) -> Settings:
    from quansu.cli.i18n import lang_of

    lang = lang_of(args)
    return Settings(
        seats=tuple(args.seat),
        good=args.good,
        inaccuracy=args.inaccuracy,
        mistake=args.mistake,
        worlds=args.worlds or 0,
        iterations=args.iterations,
        ms=args.ms,
        seed=args.seed or 0,
        uniform=bool(args.uniform),
        language="" if lang == "en" else lang,
    )


def run_cli(args, out=None, err=None) -> int:
    """``quansu analyze PATHS... --out RESULTS.jsonl | --ray [ADDRESS]`` (module doc)."""
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    from quansu.cli.analyze import analysis_jobs, files_table
    from quansu.cli.i18n import lang_of, t

    lang = lang_of(args)
    files = list(args.files)
    for option in ("report", "plot", "server"):
        if getattr(args, option, None):
            print(
                t(
                    "error",
                    lang,
                    message=f"--{option} does not go with --out or --ray "
                    f"(one report per game: --reports DIR)",
                ),
                file=err,
            )
            return 2
    address = None
    if args.ray is not None:
        try:
            address = ray_address(args.ray, files)
        except ValueError as e:
            print(t("error", lang, message=e), file=err)
            return 2
    try:
        items = list(
            read_items(files, skipped=lambda f: print(t("analyze_skipped", lang, file=f), file=err))
        )
    except OSError as e:
        print(t("error", lang, message=e), file=err)
        return 2
    if not items:
        print(
            t("error", lang, message=t("analyze_no_files", lang, paths=" ".join(files))), file=err
        )
        return 2
    if address is not None:
        from quansu.server import ray_cluster

        try:
            ray_cluster.require_ray()
        except ray_cluster.RayMissing as e:
            print(t("error", lang, message=e), file=err)
            return 2
    try:
        res = run_batch(
            items,
            settings_of(args),
            out_path=args.out,
            executor="ray" if address is not None else "local",
            jobs=analysis_jobs(args.jobs),
            address=address,
            progress=None if args.quiet else err,
        )
    except OSError as e:
        print(t("error", lang, message=e), file=err)
        return 2
    ok = [line for line in res.lines if line.get("status") == "ok"]
    for line in res.lines:
        if line.get("status") != "ok":
            print(f"{line.get('source')}: {line.get('status')}: {line.get('error', '')}", file=err)
    analyses = [game_analysis(line) for line in ok]
    if ok:
        for row in files_table(analyses, lang):
            print(row, file=out)
    if args.reports and ok:
        from quansu.report import write_report

        os.makedirs(args.reports, exist_ok=True)
        objs = {it.digest: it.obj for it in items}
        for line, a in zip(ok, analyses):
            a.obj = objs.get(line["record"]) or {}
            if a.decisions:
                write_report(a, os.path.join(args.reports, report_name(line)), lang)
        print(f"{len(ok)} reports written to {args.reports}", file=out)
    failed = sum(1 for line in res.lines if line.get("status") != "ok")
    print(
        f"{len(res.lines)} games: {len(ok)} analysed, {failed} failed, {res.skipped} skipped "
        f"(results of earlier runs), {res.elapsed_s:.1f} s"
        + (f"; results in {args.out}" if args.out else ""),
        file=err,
    )
    return 2 if failed else 0
