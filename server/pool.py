"""A pool of search worker processes.

Python search holds the GIL, so concurrent searches need processes.  Each worker is a ``spawn``ed
process that builds one :class:`server.engine.Engine` (its evaluators loaded once) and then runs
jobs one at a time: a job is ``(kind, request bytes, seconds left)``; the worker streams back the
serialized response messages and then ``done`` (or a serialized ``google.rpc.Status`` on error).

Every worker has a shared cancel flag that its search polls between iterations: a call that is
cancelled, that passes its deadline, or whose handler stops reading sets it, and the worker
answers with its best so far and becomes free.  A worker that does not stop within
``stop_grace_s`` of a cancel, or that dies, is replaced by a fresh process.

Admission: at most ``workers`` jobs run and at most ``queue_size`` calls wait for a worker; one
more raises :class:`server.errors.Busy` (RESOURCE_EXHAUSTED).
"""

from __future__ import annotations

import logging
import multiprocessing as mp
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


def _worker_main(conn, cancel, engine_factory: Callable[[], Any]) -> None:
    """Worker process: build the engine, report ready, then run jobs until told to stop."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent decides when workers stop
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
        kind, payload, seconds_left = job

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


class _Worker:
    def __init__(self, ctx, engine_factory, index: int):
        self.index = index
        self.cancel = ctx.Value("i", 0, lock=False)
        self.conn, child = ctx.Pipe(duplex=True)
        self.proc = ctx.Process(target=_worker_main, args=(child, self.cancel, engine_factory),
                                name=f"quansu-worker-{index}", daemon=True)
        _start_without_main(self.proc)
        child.close()
        self.models: dict[str, str] = {}

    def wait_ready(self, timeout: float) -> None:
        if not self.conn.poll(timeout):
            raise RuntimeError(f"worker {self.index} did not start within {timeout:g} s")
        try:
            tag, info = self.conn.recv()
        except (EOFError, OSError):
            self.proc.join(timeout=5)
            raise RuntimeError(f"worker {self.index} exited while starting "
                               f"(exit code {self.proc.exitcode}); see its error above") from None
        if tag != "ready":
            raise RuntimeError(f"worker {self.index} failed to start: {info}")
        self.models = info

    def alive(self) -> bool:
        return self.proc.is_alive()

    def kill(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(timeout=5)
        self.conn.close()


class _Waiter:
    """A call waiting for a worker: ``event`` is set once ``worker`` is handed to it."""

    __slots__ = ("event", "worker")

    def __init__(self):
        self.event = threading.Event()
        self.worker: _Worker | None = None


@dataclass
class PoolStats:
    workers: int
    busy: int
    waiting: int
    restarts: int


class WorkerPool:
    """``workers`` search processes; see the module docstring.

    ``engine_factory``: a picklable callable that builds the engine in each worker.
    """

    def __init__(self, engine_factory: Callable[[], Any], workers: int | None = None,
                 queue_size: int | None = None, start_timeout_s: float = 60.0,
                 stop_grace_s: float = 2.0):
        self.size = max(1, workers or os.cpu_count() or 1)
        self.queue_size = self.size * 4 if queue_size is None else max(0, queue_size)
        self.stop_grace_s = stop_grace_s
        self._factory = engine_factory
        self._ctx = mp.get_context("spawn")
        self._lock = threading.Lock()
        self._waiters: deque[_Waiter] = deque()
        self._restarts = 0
        self._closed = False
        self._start_timeout = start_timeout_s
        self._workers = [_Worker(self._ctx, engine_factory, i) for i in range(self.size)]
        try:
            for w in self._workers:
                w.wait_ready(start_timeout_s)
        except BaseException:
            for w in self._workers:
                w.kill()
            raise
        self._free = list(self._workers)
        self.models = dict(self._workers[0].models)

    # -- admission ---------------------------------------------------------------------------
    def stats(self) -> PoolStats:
        with self._lock:
            return PoolStats(self.size, self.size - len(self._free), len(self._waiters),
                             self._restarts)

    def acquire(self, seconds_left: float | None, is_active: Callable[[], bool]) -> _Worker:
        """A free worker.  Calls wait first come, first served while they are active and before
        their deadline; with ``queue_size`` calls already waiting, :class:`Busy`."""
        end = None if seconds_left is None else time.monotonic() + seconds_left
        with self._lock:
            if self._closed:
                raise Unavailable("the server is shutting down")
            if self._free and not self._waiters:
                return self._free.pop()
            if len(self._waiters) >= self.queue_size:
                raise Busy(f"all {self.size} search workers are busy and {len(self._waiters)} "
                           f"calls are waiting (queue size {self.queue_size}); retry later")
            waiter = _Waiter()
            self._waiters.append(waiter)
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
                    self._waiters.remove(waiter)
                    raise problem
            # a worker was handed over just now: pass it on
            self._release(waiter.worker)
            raise problem

    def _release(self, worker: _Worker) -> None:
        """Hand a free worker to the longest-waiting call, or keep it free."""
        with self._lock:
            if self._waiters:
                waiter = self._waiters.popleft()
                waiter.worker = worker
                waiter.event.set()
            else:
                self._free.append(worker)

    def _replace(self, worker: _Worker) -> _Worker:
        log.warning("replacing search worker %d", worker.index)
        worker.kill()
        fresh = _Worker(self._ctx, self._factory, worker.index)
        fresh.wait_ready(self._start_timeout)
        with self._lock:
            self._restarts += 1
            self._workers[worker.index] = fresh
        return fresh

    # -- running -------------------------------------------------------------------------------
    def run(self, kind: str, payload: bytes, seconds_left: float | None,
            is_active: Callable[[], bool]) -> Iterator[bytes]:
        """Run one job and yield its serialized messages.

        ``seconds_left``: the call's time left (None: no deadline).  ``is_active``: whether the
        call is still wanted.  Raises :class:`RemoteError` for an error status from the worker,
        :class:`Busy`, :class:`DeadlineExceeded` or :class:`Unavailable`.  Closing the iterator
        early cancels the job.
        """
        worker = self.acquire(seconds_left, is_active)
        end = None if seconds_left is None else time.monotonic() + seconds_left
        finished = False
        try:
            worker.cancel.value = 0
            try:
                worker.conn.send((kind, payload, None if end is None else end - time.monotonic()))
            except (BrokenPipeError, OSError):
                raise Unavailable("a search worker died; retry") from None
            cancelled_at = None
            while True:
                if worker.conn.poll(POLL_S):
                    try:
                        tag, data = worker.conn.recv()
                    except (EOFError, OSError):
                        raise Unavailable("a search worker died during the call; retry") from None
                    if tag == "item":
                        yield data
                    elif tag == "done":
                        finished = True
                        return
                    elif tag == "error":
                        finished = True
                        raise RemoteError(status_pb2.Status.FromString(data))
                    continue
                if not worker.alive():
                    raise Unavailable("a search worker died during the call; retry")
                now = time.monotonic()
                if cancelled_at is None and (not is_active() or (end is not None and now > end)):
                    worker.cancel.value = 1
                    cancelled_at = now
                if cancelled_at is not None and now - cancelled_at > self.stop_grace_s:
                    raise Unavailable("the search did not stop after cancellation")
        finally:
            if not finished:
                worker = self._finish(worker)
            if worker is not None:
                self._release(worker)

    def _finish(self, worker: _Worker) -> _Worker | None:
        """Stop an unfinished job and drain its messages; replace the worker if it hangs."""
        worker.cancel.value = 1
        end = time.monotonic() + self.stop_grace_s
        try:
            while worker.alive() and time.monotonic() < end:
                if worker.conn.poll(POLL_S):
                    tag, _ = worker.conn.recv()
                    if tag in ("done", "error"):
                        return worker
        except (EOFError, OSError):
            pass
        if self._closed:
            worker.kill()
            return None
        try:
            return self._replace(worker)
        except Exception:
            log.exception("could not restart a search worker")
            return None

    def close(self, timeout: float = 5.0) -> None:
        """Stop every worker (running jobs are cancelled)."""
        with self._lock:
            self._closed = True
            workers = list(self._workers)
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
