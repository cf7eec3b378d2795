"""A pool of search worker processes, watched and healed.

Python search holds the GIL, so concurrent searches need processes.  Each worker is a ``spawn``ed
process that builds one :class:`server.engine.Engine` (its evaluators loaded once) and then runs
jobs one at a time: a job is ``(kind, request bytes, deadline)`` (the deadline on the
system-wide ``time.monotonic`` clock, or None); the worker validates the request, streams back
the serialized response messages and then ``done`` (or a serialized ``google.rpc.Status`` on
error).

Every worker has a shared cancel flag that its search polls between iterations: a call that is
cancelled, that passes its deadline, or whose handler stops reading sets it, and the worker
answers with its best so far and becomes free.

**Admission**: at most ``workers`` jobs run and at most ``queue_size`` calls wait for a worker;
one more raises :class:`server.errors.Busy` (RESOURCE_EXHAUSTED).  Waiting calls are served
first come, first served, except that short jobs (:data:`SHORT_JOBS`: LegalMoves, a replay)
go before the searches.

**Retry pushback**: the pool keeps a running estimate of a worker call's service time (an
exponentially weighted mean, weight :data:`SERVICE_TIME_WEIGHT`, of the durations of the calls
whose worker answered in full, from the job's hand-over to its last message; starting at
:data:`SERVICE_TIME_INITIAL_S`).  A refusal carries the time the current queue needs to drain,
``service time x (calls waiting + 1) / workers``, times the **refusal pressure** (refusals per
admitted call over the last few seconds, at least 1: exponentially decayed counts, time
constant :data:`PRESSURE_TAU_S`), clamped to [:data:`RETRY_MIN_S`, :data:`RETRY_MAX_S`]
(:meth:`WorkerPool.retry_delay`), as ``Busy.retry_after_s``: the server's advice to the client,
with no randomness (clients add their own jitter).  The pressure spreads the retries of many
refused clients over the time in which the queue can take them: with N clients backing off
and admissions at rate a, the delays settle near ``sqrt(drain time x N / a)`` instead of every
client coming back after one drain time, when most would be refused again.

**Healing**: a watcher thread waits on every idle worker's process sentinel (so it sees a death
at once), takes back the workers of calls that ended early (it drains the cancelled job's last
messages, or kills a worker that does not stop within ``stop_grace_s``) and replaces every dead
worker: by a ready spare when there is one (``spares``, default 0: instantly), else by a fresh
process started in the background.  A call whose worker dies gets UNAVAILABLE at once; it never
waits for the replacement.  Listeners (:meth:`WorkerPool.add_listener`) hear the number of live
workers whenever it changes (the server's health turns NOT_SERVING at 0).  :meth:`stats`
counts deaths and restarts.
"""

from __future__ import annotations

import logging
import math
import multiprocessing as mp
import multiprocessing.connection as mpc
import os
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from google.rpc import status_pb2

from quansu.server.errors import Busy, DeadlineExceeded, RemoteError, Unavailable

log = logging.getLogger("quansu.server")

#: How often a waiting handler checks whether its call is still alive (seconds).
POLL_S = 0.02
#: The watcher's longest sleep between checks (seconds); deaths wake it at once.
WATCH_S = 0.25
#: Seconds between two tries to start a worker after a failed start (doubling up to 30 s).
RETRY_S = 1.0
#: Job kinds that wait in the short queue, served before the searches.
SHORT_JOBS = frozenset({"legal_moves", "analyze_plan"})
#: The service time estimate before any call has finished (seconds; a default Suggest of 200
#: iterations takes about this long on one core).
SERVICE_TIME_INITIAL_S = 0.2
#: The weight of the latest finished call in the service time estimate.
SERVICE_TIME_WEIGHT = 0.05
#: Time constant (seconds) of the decayed refusal and admission counts of the refusal pressure.
PRESSURE_TAU_S = 10.0
#: The shortest and the longest retry delay a refusal advises (seconds).
RETRY_MIN_S = 0.05
RETRY_MAX_S = 10.0


def drain_delay(service_time_s: float, waiting: int, workers: int, pressure: float = 1.0) -> float:
    """The retry delay for a refused call: the time ``waiting`` queued calls, plus the one
    running on each worker, need to drain (``service_time_s x (waiting + 1) / workers``), times
    the refusal ``pressure`` (refusals per admitted call lately; below 1 counts as 1), clamped to
    [:data:`RETRY_MIN_S`, :data:`RETRY_MAX_S`]."""
    delay = service_time_s * (max(0, waiting) + 1) / max(1, workers) * max(1.0, pressure)
    return min(RETRY_MAX_S, max(RETRY_MIN_S, delay))


def _worker_main(conn, cancel, engine_factory: Callable[[], Any]) -> None:
    """Worker process: build the engine, report ready, then run jobs until told to stop."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when workers stop
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    from quansu.server.errors import to_rpc_status

    try:
        engine = engine_factory()
    except BaseException as e:  # report why the worker cannot start
        conn.send(("failed", f"{type(e).__name__}: {e}"))
        return
    conn.send(("ready", engine.model_names()))

    def should_stop() -> bool:
        return cancel.value != 0

    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        kind, payload, deadline = job
        seconds_left = None if deadline is None else deadline - time.monotonic()

        def emit(msg: bytes) -> None:
            conn.send(("item", msg))

        try:
            engine.run_job(kind, payload, emit, should_stop, seconds_left)
            conn.send(("done", None))
        except BaseException as e:  # every error goes back as a status
            status = to_rpc_status(e, getattr(e, "field_prefix", ""))
            try:
                conn.send(("error", status.SerializeToString()))
            except (BrokenPipeError, OSError):
                return


_START_LOCK = threading.Lock()


def _start_without_main(proc) -> None:
    """Start a spawn process without re-running the parent's ``__main__`` in it.

    ``spawn`` normally imports the parent's main script in the child, which runs a script's
    top-level code again when it has no ``if __name__ == "__main__"`` guard (and imports pytest
    under pytest).  The workers need nothing from ``__main__``, so its name and path are hidden
    while the child is prepared."""
    main = sys.modules.get("__main__")
    with _START_LOCK:
        saved_spec = getattr(main, "__spec__", None)
        has_file = hasattr(main, "__file__")
        saved_file = getattr(main, "__file__", None)
        try:
            if main is not None:
                main.__spec__ = None
                if has_file:
                    del main.__file__
            proc.start()
        finally:
            if main is not None:
                main.__spec__ = saved_spec
                if has_file:
                    main.__file__ = saved_file


def _rss_mb(pid: int) -> float | None:
    """Resident memory of process ``pid`` in MB (Linux ``/proc``), None when unknown."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except (OSError, ValueError):
        return None
    return None


class _Worker:
    def __init__(self, ctx, engine_factory, index: int):
        self.index = index
        self.cancel = ctx.Value("i", 0, lock=False)
        self.conn, child = ctx.Pipe(duplex=True)
        self.proc = ctx.Process(
            target=_worker_main,
            args=(child, self.cancel, engine_factory),
            name=f"quansu-worker-{index}",
            daemon=True,
        )
        _start_without_main(self.proc)
        child.close()
        self.models: dict[str, str] = {}
        self.dead = False
        self._kill_lock = threading.Lock()  # kill() may run in the watcher and in close() at once

    def wait_ready(self, timeout: float) -> None:
        if not self.conn.poll(timeout):
            raise RuntimeError(f"worker {self.index} did not start within {timeout:g} s")
        try:
            tag, info = self.conn.recv()
        except (EOFError, OSError):
            self.proc.join(timeout=5)
            raise RuntimeError(
                f"worker {self.index} exited while starting "
                f"(exit code {self.proc.exitcode}); see its error above"
            ) from None
        if tag != "ready":
            raise RuntimeError(f"worker {self.index} failed to start: {info}")
        self.models = info

    def alive(self) -> bool:
        return not self.dead and self.proc.is_alive()

    def kill(self) -> None:
        """Kill the process and close the pipe; safe to call from several threads at once and
        more than once (the pipe's descriptor is closed exactly once)."""
        with self._kill_lock:
            self.dead = True
            if self.proc.is_alive():
                self.proc.kill()
            self.proc.join(timeout=5)
            if not self.conn.closed:
                self.conn.close()


class _Waiter:
    """A call waiting for a worker: ``event`` is set once ``worker`` is handed to it."""

    __slots__ = ("event", "worker")

    def __init__(self):
        self.event = threading.Event()
        self.worker: _Worker | None = None


@dataclass
class PoolStats:
    """``workers``: the pool's size; ``alive``: workers alive now (busy or idle); ``busy``;
    ``waiting``: calls in the queue; ``spares``: ready spares; ``deaths``: workers found dead or
    killed because they did not stop; ``restarts``: workers put back in a dead one's place;
    ``worker_rss_mb``: resident memory of each slot's worker (MB; empty where ``/proc`` is
    missing), for the metrics; ``service_time_s``: the running estimate of a call's time in a
    worker (the retry pushback's base)."""

    workers: int
    busy: int
    waiting: int
    restarts: int
    deaths: int = 0
    alive: int = 0
    spares: int = 0
    worker_rss_mb: tuple[float, ...] = ()
    service_time_s: float = 0.0


class WorkerPool:
    """``workers`` search processes; see the module docstring.

    ``engine_factory``: a picklable callable that builds the engine in each worker.  ``spares``:
    extra ready processes that take a dead worker's place at once (each costs one worker's
    memory).
    """

    def __init__(
        self,
        engine_factory: Callable[[], Any],
        workers: int | None = None,
        queue_size: int | None = None,
        start_timeout_s: float = 60.0,
        stop_grace_s: float = 2.0,
        spares: int = 0,
    ):
        self.size = max(1, workers or os.cpu_count() or 1)
        self.queue_size = self.size * 4 if queue_size is None else max(0, queue_size)
        self.stop_grace_s = stop_grace_s
        self.spare_target = max(0, spares)
        self._factory = engine_factory
        self._ctx = mp.get_context("spawn")
        self._lock = threading.Lock()
        self._waiters: deque[_Waiter] = deque()
        self._short_waiters: deque[_Waiter] = deque()
        self._restarts = 0
        self._deaths = 0
        self._service_time = SERVICE_TIME_INITIAL_S
        self._refused_w = 0.0  # decayed counts of refusals and admissions (pressure)
        self._admitted_w = 0.0
        self._counted_at = time.monotonic()
        self._closed = False
        self._start_timeout = start_timeout_s
        self._listeners: list[Callable[[int], None]] = []
        self._stopping: dict[_Worker, float] = {}  # workers of ended calls -> kill time
        self._starting = 0  # processes being started in the background
        self._next_index = self.size
        workers_ = [_Worker(self._ctx, engine_factory, i) for i in range(self.size)]
        spares_ = [
            _Worker(self._ctx, engine_factory, self.size + i) for i in range(self.spare_target)
        ]
        try:
            for w in workers_ + spares_:
                w.wait_ready(start_timeout_s)
        except BaseException:
            for w in workers_ + spares_:
                w.kill()
            raise
        self._next_index += self.spare_target
        self._workers: list[_Worker | None] = list(workers_)  # slot -> its worker
        self._spares: list[_Worker] = spares_
        self._free = list(workers_)
        self.models = dict(workers_[0].models)
        self._alive = self.size
        self._wake_r, self._wake_w = self._ctx.Pipe(duplex=False)
        self._watcher = threading.Thread(
            target=self._watch, name="quansu-pool-watcher", daemon=True
        )
        self._watcher.start()

    # -- observation ---------------------------------------------------------------------------
    def stats(self, rss: bool = False) -> PoolStats:
        """The pool's counters (``rss``: also read every worker's resident memory)."""
        with self._lock:
            out = PoolStats(
                self.size,
                sum(1 for w in self._workers if w is not None) - len(self._free),
                self._waiting(),
                self._restarts,
                self._deaths,
                self._alive,
                len(self._spares),
                service_time_s=self._service_time,
            )
            pids = [w.proc.pid for w in self._workers if w is not None and not w.dead]
        if rss:
            out.worker_rss_mb = tuple(x for x in (_rss_mb(p) for p in pids) if x is not None)
        return out

    def add_listener(self, fn: Callable[[int], None]) -> None:
        """``fn(alive)`` is called (from the watcher thread) whenever the number of live
        workers changes."""
        self._listeners.append(fn)

    def _notify(self) -> None:
        with self._lock:
            alive = sum(1 for w in self._workers if w is not None and not w.dead)
            changed = alive != self._alive
            self._alive = alive
        if changed:
            for fn in list(self._listeners):
                try:
                    fn(alive)
                except Exception:  # a listener's bug must not stop the watcher
                    log.exception("pool listener failed")

    # -- admission ---------------------------------------------------------------------------
    def _waiting(self) -> int:
        return len(self._waiters) + len(self._short_waiters)

    def retry_delay(self) -> float:
        """The retry delay a refusal advises now (seconds): :func:`drain_delay` of the service
        time estimate, the calls waiting and the refusal pressure."""
        with self._lock:
            return drain_delay(self._service_time, self._waiting(), self.size, self._pressure())

    def _count(self, refused: bool) -> None:
        """Count an admission or a refusal in the decayed counts (under the lock)."""
        now = time.monotonic()
        k = math.exp(-max(0.0, now - self._counted_at) / PRESSURE_TAU_S)
        self._refused_w *= k
        self._admitted_w *= k
        self._counted_at = now
        if refused:
            self._refused_w += 1.0
        else:
            self._admitted_w += 1.0

    def _pressure(self) -> float:
        """Refusals per admitted call lately (at least 1; under the lock)."""
        return max(1.0, self._refused_w / max(1.0, self._admitted_w))

    def _observe(self, seconds: float) -> None:
        """A call's worker answered in full after ``seconds``: update the service time."""
        with self._lock:
            self._service_time += SERVICE_TIME_WEIGHT * (max(0.0, seconds) - self._service_time)

    def acquire(
        self, seconds_left: float | None, is_active: Callable[[], bool], short: bool = False
    ) -> _Worker:
        """A free worker.  Calls wait first come, first served (``short`` ones before the
        others) while they are active and before their deadline; with ``queue_size`` calls
        already waiting, :class:`Busy`."""
        end = None if seconds_left is None else time.monotonic() + seconds_left
        with self._lock:
            if self._closed:
                raise Unavailable("the server is shutting down")
            waiting = self._waiting()
            if self._free and not waiting:
                self._count(False)
                return self._free.pop()
            if waiting >= self.queue_size:
                self._count(True)
                delay = drain_delay(self._service_time, waiting, self.size, self._pressure())
                raise Busy(
                    f"all {self.size} search workers are busy and {waiting} "
                    f"calls are waiting (queue size {self.queue_size}); retry in "
                    f"{delay:.2f} s",
                    retry_after_s=delay,
                )
            self._count(False)
            waiter = _Waiter()
            queue = self._short_waiters if short else self._waiters
            queue.append(waiter)
        while True:
            wait = POLL_S * 5
            if end is not None:
                wait = max(0.0, min(wait, end - time.monotonic()))
            if waiter.event.wait(wait):
                return waiter.worker
            problem = None
            if self._closed:
                problem = Unavailable("the server is shutting down")
            elif not is_active():
                problem = Unavailable("the call ended while waiting for a worker")
            elif end is not None and time.monotonic() >= end:
                problem = DeadlineExceeded("the deadline passed while waiting for a worker")
            if problem is None:
                continue
            with self._lock:
                if waiter.worker is None:
                    queue.remove(waiter)
                    raise problem
            # a worker was handed over just now: pass it on
            self._release(waiter.worker)
            raise problem

    def _release(self, worker: _Worker) -> None:
        """Hand a free worker to the longest-waiting call, or keep it free."""
        with self._lock:
            if self._closed:
                handed = False
            elif self._short_waiters or self._waiters:
                waiter = (self._short_waiters or self._waiters).popleft()
                waiter.worker = worker
                waiter.event.set()
                handed = True
            else:
                self._free.append(worker)
                handed = True
        if not handed:
            worker.kill()
        else:
            self._wake()

    def _wake(self) -> None:
        try:
            self._wake_w.send_bytes(b"w")
        except (OSError, ValueError):
            pass

    # -- running -------------------------------------------------------------------------------
    def run(
        self, kind: str, payload: bytes, seconds_left: float | None, is_active: Callable[[], bool]
    ) -> Iterator[bytes]:
        """Run one job and yield its serialized messages.

        ``seconds_left``: the call's time left (None: no deadline).  ``is_active``: whether the
        call is still wanted.  Raises :class:`RemoteError` for an error status from the worker,
        :class:`Busy`, :class:`DeadlineExceeded` or :class:`Unavailable` (at once when the
        worker dies).  Closing the iterator early cancels the job.
        """
        end = None if seconds_left is None else time.monotonic() + seconds_left
        worker = self.acquire(seconds_left, is_active, kind in SHORT_JOBS)
        finished = False
        started = time.monotonic()
        try:
            worker.cancel.value = 0
            try:
                worker.conn.send((kind, payload, end))
            except (BrokenPipeError, OSError):
                raise Unavailable("a search worker died; retry") from None
            cancelled_at = None
            while True:
                try:
                    ready = worker.conn.poll(POLL_S)
                except (EOFError, OSError):  # the pipe closed under the call (pool closing)
                    raise Unavailable("a search worker died during the call; retry") from None
                if ready:
                    try:
                        tag, data = worker.conn.recv()
                    except (EOFError, OSError):
                        raise Unavailable("a search worker died during the call; retry") from None
                    if tag == "item":
                        yield data
                    elif tag == "done":
                        finished = True
                        self._observe(time.monotonic() - started)
                        return
                    elif tag == "error":
                        finished = True
                        self._observe(time.monotonic() - started)
                        raise RemoteError(status_pb2.Status.FromString(data))
                    continue
                if not worker.proc.is_alive():
                    raise Unavailable("a search worker died during the call; retry")
                now = time.monotonic()
                if cancelled_at is None and (not is_active() or (end is not None and now > end)):
                    worker.cancel.value = 1
                    cancelled_at = now
                if cancelled_at is not None and now - cancelled_at > self.stop_grace_s:
                    raise Unavailable("the search did not stop after cancellation")
        finally:
            if finished:
                self._release(worker)
            else:
                self._reclaim(worker)

    def _reclaim(self, worker: _Worker) -> None:
        """Give the worker of a call that ended early to the watcher: it stops the job (cancel
        flag), drains its messages and frees the worker, or kills and replaces it."""
        worker.cancel.value = 1
        with self._lock:
            self._stopping[worker] = time.monotonic() + self.stop_grace_s
        self._wake()

    # -- the watcher ---------------------------------------------------------------------------
    def _watch(self) -> None:
        while True:
            with self._lock:
                if self._closed:
                    return
                idle = list(self._free) + list(self._spares)
                stopping = dict(self._stopping)
            objs: list = [self._wake_r]
            objs += [w.proc.sentinel for w in idle]
            for w in stopping:
                objs += [w.conn, w.proc.sentinel]
            timeout = WATCH_S
            if stopping:
                timeout = max(0.0, min(timeout, min(stopping.values()) - time.monotonic()))
            try:
                ready = set(mpc.wait(objs, timeout=timeout))
            except (OSError, ValueError):
                ready = set()  # a connection closed under us: look again
            if self._wake_r in ready:
                try:
                    while self._wake_r.poll():
                        self._wake_r.recv_bytes()
                except (EOFError, OSError):
                    return
            try:
                self._check_stopping(stopping, ready)
                self._check_idle(idle)
            except Exception:  # the watcher must keep watching
                log.exception("pool watcher error")
                time.sleep(WATCH_S)

    def _check_stopping(self, stopping: dict[_Worker, float], ready: set) -> None:
        now = time.monotonic()
        for w, kill_at in stopping.items():
            outcome = None  # "free" | "dead"
            if w.conn in ready or w.proc.sentinel in ready:
                try:
                    while w.conn.poll():
                        tag, _ = w.conn.recv()
                        if tag in ("done", "error"):
                            outcome = "free"
                            break
                except (EOFError, OSError):
                    outcome = "dead"
                if outcome is None and not w.proc.is_alive():
                    outcome = "dead"
            if outcome is None and now >= kill_at:
                log.warning(
                    "search worker %d did not stop within %g s of a cancel: killing it",
                    w.index,
                    self.stop_grace_s,
                )
                outcome = "dead"
            if outcome is None:
                continue
            with self._lock:
                self._stopping.pop(w, None)
            if outcome == "free":
                self._release(w)
            else:
                self._dead(w)

    def _check_idle(self, idle: list[_Worker]) -> None:
        for w in idle:
            if w.proc.is_alive():
                continue
            with self._lock:
                if w in self._spares:
                    self._spares.remove(w)
                    spare = True
                elif w in self._free:
                    self._free.remove(w)
                    spare = False
                else:
                    continue  # taken by a call meanwhile: the call will see it
            if spare:
                log.warning("spare search worker %d died (exit code %s)", w.index, w.proc.exitcode)
                w.kill()
                self._deaths_add()
                self._refill()
            else:
                self._dead(w)

    def _deaths_add(self) -> None:
        with self._lock:
            self._deaths += 1

    def _dead(self, w: _Worker) -> None:
        """A slot's worker died (or was killed): put a spare in its place or start a new one."""
        code = w.proc.exitcode
        w.kill()
        with self._lock:
            self._deaths += 1
            closed = self._closed
            if not closed and self._workers[w.index] is w:
                self._workers[w.index] = None
        if closed:
            return
        log.warning("search worker %d died (exit code %s): replacing it", w.index, code)
        self._notify()
        self._fill_slots()
        self._refill()

    def _fill_slots(self) -> None:
        """Put ready spares into empty slots."""
        while True:
            with self._lock:
                if self._closed or not self._spares or None not in self._workers:
                    return
                slot = self._workers.index(None)
                fresh = self._spares.pop()
                fresh.index = slot
                self._workers[slot] = fresh
                self._restarts += 1
            self._notify()
            self._release(fresh)

    def _refill(self) -> None:
        """Start in the background the processes missing from the slots and the spares."""
        with self._lock:
            if self._closed:
                return
            empty = sum(1 for w in self._workers if w is None)
            missing = empty + self.spare_target - len(self._spares) - self._starting
            self._starting += max(0, missing)
        for _ in range(max(0, missing)):
            threading.Thread(target=self._start_one, name="quansu-pool-start", daemon=True).start()

    def _start_one(self) -> None:
        delay = RETRY_S
        while True:
            with self._lock:
                if self._closed:
                    self._starting -= 1
                    return
                index = self._next_index
                self._next_index += 1
            try:
                w = _Worker(self._ctx, self._factory, index)
                try:
                    w.wait_ready(self._start_timeout)
                except BaseException:
                    w.kill()
                    raise
                break
            except Exception as e:
                if self._closed:
                    continue  # the pool closed meanwhile: the loop ends above
                log.error("could not start a search worker (%s); trying again in %g s", e, delay)
                time.sleep(delay)
                delay = min(30.0, delay * 2)
        with self._lock:
            self._starting -= 1
            if self._closed:
                closed = True
            else:
                closed = False
                self._spares.append(w)
        if closed:
            w.kill()
            return
        self._fill_slots()
        self._wake()

    def close(self, timeout: float = 5.0) -> None:
        """Stop every worker (running jobs are cancelled)."""
        with self._lock:
            self._closed = True
            workers = [w for w in self._workers if w is not None] + list(self._spares)
            workers += [w for w in self._stopping if w not in workers]
            self._spares = []
        self._wake()
        for w in workers:
            w.cancel.value = 1
            try:
                w.conn.send(None)
            except (BrokenPipeError, OSError):
                pass
        end = time.monotonic() + timeout
        for w in workers:
            w.proc.join(timeout=max(0.0, end - time.monotonic()))
            w.kill()
        self._watcher.join(timeout=2)
