"""Ray, the one distributed engine (the optional extra ``quansu[ray]``): the only module of
quansu that imports ``ray``, and only inside its functions, so that importing it costs nothing.
The commands import it only when ``--ray`` is given; the service never imports it.

* :func:`connect` joins a cluster (``auto``: the running one; an address ``HOST:PORT`` or
  ``ray://HOST:10001``; None: a local Ray started for this process).
* :func:`map_unordered` runs a module-level function on every task as Ray tasks (one CPU
  each) and yields ``(index, result)`` as each finishes.  A task whose worker process or node
  dies is run again (``max_retries``); an exception raised by the function itself is not
  retried (it is the caller's to report).
* :class:`LocalCluster` starts a real cluster of several nodes on this machine with
  ``ray start`` (each node with its own temporary folder, on the loopback address, without
  the dashboard), can kill one node, and stops them all: the tests and ``bench/cluster.py``.

Without Ray installed, :func:`require_ray` raises :class:`RayMissing`, whose text says what to
install.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, Iterator, Sequence

#: The version ``quansu[ray]`` pins (pyproject.toml); every node must run the same.
RAY_VERSION = "2.60.0"

INSTALL_HINT = "pip install 'quansu[ray]'"


class RayMissing(RuntimeError):
    """``--ray`` without the ``ray`` package."""

    def __init__(self) -> None:
        super().__init__(
            f"--ray needs Ray, which is not installed: {INSTALL_HINT} (in a "
            f"checkout of the source: pip install -e '.[ray]')"
        )


def require_ray():
    """The ``ray`` module, or :class:`RayMissing`."""
    try:
        import ray
    except ImportError:
        raise RayMissing() from None
    return ray


def ray_executable() -> str:
    """The ``ray`` command beside this Python (a virtual environment's), else the PATH's."""
    here = os.path.join(os.path.dirname(sys.executable), "ray")
    if os.path.exists(here):
        return here
    found = shutil.which("ray")
    if not found:
        raise RayMissing()
    return found


def connect(address: str | None = None, *, num_cpus: int | None = None) -> None:
    """Join the cluster at ``address`` (``auto``: the one ``ray start`` runs on this machine;
    None: start a local Ray for this process with ``num_cpus`` CPUs, default all); a second call
    in the same process reuses the connection.  The driver's log lines stay quiet."""
    ray = require_ray()
    if ray.is_initialized():
        return
    kw: dict[str, Any] = {
        "log_to_driver": False,
        "logging_level": "WARNING",
        "configure_logging": True,
    }
    if address:
        token_auth_if_token_available()
        ray.init(address=address, **kw)
    else:
        ray.init(num_cpus=num_cpus, include_dashboard=False, **kw)


def token_auth_if_token_available() -> bool:
    """Turn on Ray's token authentication in this driver when ``RAY_AUTH_MODE`` is unset and a
    token is at hand (``RAY_AUTH_TOKEN``, ``RAY_AUTH_TOKEN_PATH`` or ``~/.ray/auth_token``), as
    ``ray start`` does for its nodes; True when the driver will send a token.

    In Ray 2.60 a plain local ``ray.init()`` writes ``~/.ray/auth_token``, and from then on a
    ``ray start`` cluster on the machine asks for that token while a driver joining it with
    ``ray.init(address=...)`` stays without one and is refused ("InvalidAuthToken").  This
    calls Ray's own rule (the one ``ray start`` uses) before joining; an explicit
    ``RAY_AUTH_MODE`` is left as it is."""
    from ray._private.authentication import authentication_token_setup as auth

    return auth.maybe_enable_token_auth_if_token_available(warn_if_disabled=False)


ADDRESS_HELP = (
    "auto (the running cluster), HOST:PORT or ray://HOST:PORT; without an address: a local Ray"
)


def parse_address(value: str) -> str:
    """The address of a ``--ray [ADDRESS]`` option: "" (or ``local``) for a local Ray,
    ``auto``, ``HOST:PORT`` or ``ray://HOST:PORT``; ValueError for anything else."""
    if value in ("", "local"):
        return ""
    if value == "auto" or ":" in value:
        return value
    raise ValueError(f"--ray: {value!r} is not an address ({ADDRESS_HELP})")


def add_ray_argument(p, what: str) -> None:
    """``--ray [ADDRESS]`` of a command (``args.ray``: None without it)."""
    p.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help=f"{what} as tasks on a Ray cluster: {ADDRESS_HELP} (needs {INSTALL_HINT})",
    )


def mapper(address: str | None):
    """A ``map_fn(fn, tasks)`` (:data:`quansu.search.arena.MapFn`) that runs the tasks on the
    cluster at ``address`` (:func:`parse_address`; connected on first use) and yields their
    results as they finish."""
    require_ray()

    def map_fn(fn, tasks):
        connect(address or None)
        for _, res in map_unordered(fn, list(tasks)):
            yield res

    return map_fn


def disconnect() -> None:
    ray = require_ray()
    if ray.is_initialized():
        ray.shutdown()


def cluster_cpus() -> int:
    """CPUs of the alive nodes of the connected cluster."""
    ray = require_ray()
    return int(ray.cluster_resources().get("CPU", 0))


def node_id() -> str:
    """The Ray node this process runs on ("" outside Ray)."""
    try:
        import ray
    except ImportError:
        return ""
    if not ray.is_initialized():
        return ""
    return ray.get_runtime_context().get_node_id()


def echo(x: Any) -> Any:
    """A task that does nothing but return its input (Ray's overhead per task:
    ``bench/cluster.py``)."""
    return x


def where(seconds: float = 0.0) -> tuple[str, int]:
    """A task that sleeps ``seconds`` and returns its node id and process id."""
    time.sleep(seconds)
    return node_id(), os.getpid()


def map_unordered(
    fn: Callable[[Any], Any],
    tasks: Sequence[Any],
    *,
    max_retries: int = 3,
    num_cpus: float = 1,
    window: int | None = None,
) -> Iterator[tuple[int, Any]]:
    """``(i, fn(tasks[i]))`` for every task, in the order they finish, each run as a Ray task
    of ``num_cpus`` CPUs on the connected cluster (:func:`connect` first).  ``fn`` must be a
    module-level function of an installed module (every node imports it), its tasks and
    results picklable.  A task lost with its worker or node is run again, up to
    ``max_retries`` times; an exception raised by ``fn`` ends the iteration (its remote error
    raised here).  At most ``window`` tasks are submitted at once (default: 4 per CPU of the
    cluster, at least 8), so that a long stream does not sit in the object store.  The tasks
    are spread over the nodes (Ray's ``SPREAD``: each is seconds of CPU, so the driver's node
    is not filled first while another waits).  When the iteration ends early, the tasks still
    pending are not cancelled: they run out (their results dropped) or end with the driver,
    because Ray 2.60's ``ray.cancel`` of a running task races with its reply and can abort the
    driver ("Tried to complete task that was not pending", ray-project/ray#54846): a test
    process died of it."""
    ray = require_ray()
    remote = ray.remote(
        num_cpus=num_cpus,
        max_retries=max_retries,
        retry_exceptions=False,
        scheduling_strategy="SPREAD",
    )(fn)
    if window is None:
        window = max(8, 4 * cluster_cpus())
    pending: dict[Any, int] = {}
    nxt = 0
    while nxt < len(tasks) or pending:
        while nxt < len(tasks) and len(pending) < window:
            pending[remote.remote(tasks[nxt])] = nxt
            nxt += 1
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            i = pending.pop(ref)
            yield i, ray.get(ref)


class ActorSet:
    """``n`` Ray actors of ``cls`` (a module-level class of an installed module, each built
    with ``cls(*args)``, ``num_cpus`` CPUs each) on the connected cluster (:func:`connect`
    first): the self-play actors of ``quansu train --algo dmc --ray``.  :meth:`submit` calls a
    method on actors 0, 1, ... with one argument tuple each; :meth:`gather` waits for the
    answers in that order.  An actor whose process or node dies is replaced by a new one
    (:attr:`replaced` counts them) and the call it had is made again on the new one, up to
    ``retries`` times a call; an exception raised by the method itself is raised here."""

    def __init__(self, cls, n: int, *args, num_cpus: float = 1, retries: int = 3) -> None:
        ray = require_ray()
        self._cls = ray.remote(num_cpus=num_cpus, max_restarts=0)(cls)
        self._args = args
        self.retries = retries
        self.replaced = 0
        self.actors = [self._cls.remote(*args) for _ in range(n)]

    def call(self, k: int, method: str, *args):
        """The object ref of ``actor[k].method(*args)``."""
        return getattr(self.actors[k], method).remote(*args)

    def submit(self, method: str, calls: Sequence[tuple]) -> list:
        """Call ``method`` on actor k with ``calls[k]``; the pending calls for :meth:`gather`."""
        return [(k, method, args, self.call(k, method, *args)) for k, args in enumerate(calls)]

    def gather(self, pending: list) -> list:
        """The answers of :meth:`submit`'s calls, in order, replacing dead actors."""
        ray = require_ray()
        out = []
        for k, method, args, ref in pending:
            tries = 0
            while True:
                try:
                    out.append(ray.get(ref))
                    break
                except ray.exceptions.RayActorError:
                    if tries >= self.retries:
                        raise
                    tries += 1
                    self.replace(k)
                    ref = self.call(k, method, *args)
        return out

    def replace(self, k: int) -> None:
        """Start a new actor in place of actor ``k`` (killed first, should it still live)."""
        ray = require_ray()
        try:
            ray.kill(self.actors[k], no_restart=True)
        except Exception:  # already dead: nothing to kill
            pass
        self.actors[k] = self._cls.remote(*self._args)
        self.replaced += 1

    def close(self) -> None:
        ray = require_ray()
        for a in self.actors:
            try:
                ray.kill(a, no_restart=True)
            except Exception:
                pass
        self.actors = []


# -- a real cluster of several nodes on this machine ----------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1.0)
        return s.connect_ex((host, port)) == 0


def _children(pid: int) -> list[int]:
    """Every descendant of ``pid`` (from /proc; Linux)."""
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        kids.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for c in kids.get(p, ()):
            out.append(c)
            todo.append(c)
    return out


class LocalCluster:
    """A Ray cluster of ``len(cpus)`` nodes on this machine, node k with ``cpus[k]`` CPUs:
    node 0 is the head (``ray start --head``), the others join it (``ray start --address``).
    Each node runs ``ray start --block`` with its own temporary folder, on 127.0.0.1, without
    the dashboard and usage stats, with a small object store, in a session of its own (so that
    a Ctrl-C of the driver does not reach it) unless ``new_session`` is false: with Linux's
    autogroup scheduling each session gets its own share of the CPUs, so a benchmark that
    compares the cluster with local processes starts the nodes in its own session;
    :meth:`kill` ends one node's processes (by their ids), :meth:`stop` all of them.  Use as a
    context manager; ``address`` is the head's ``HOST:PORT``.  ``env``: extra environment
    variables of every node (``RAY_*`` settings)."""

    def __init__(
        self,
        cpus: Sequence[int] = (1, 1),
        *,
        object_store_mb: int = 80,
        env: dict[str, str] | None = None,
        start_timeout_s: float = 120.0,
        new_session: bool = True,
    ) -> None:
        self.cpus = list(cpus)
        self.new_session = new_session
        self.object_store_mb = object_store_mb
        self.start_timeout_s = start_timeout_s
        self.env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", **(env or {}))
        self.procs: list[subprocess.Popen | None] = []
        self.dirs: list[str] = []
        self.logs: list[str] = []
        self.address = ""

    def __enter__(self) -> "LocalCluster":
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def _start_node(self, k: int) -> None:
        d = tempfile.mkdtemp(prefix=f"quansu-ray{k}-")
        self.dirs.append(d)
        cmd = [
            ray_executable(),
            "start",
            "--block",
            "--num-cpus",
            str(self.cpus[k]),
            "--node-ip-address",
            "127.0.0.1",
            "--temp-dir",
            d,
            "--object-store-memory",
            str(self.object_store_mb * 1024 * 1024),
            "--disable-usage-stats",
            "--node-manager-port",
            str(free_port()),
            "--object-manager-port",
            str(free_port()),
            "--dashboard-agent-listen-port",
            str(free_port()),
            "--dashboard-agent-grpc-port",
            str(free_port()),
            "--runtime-env-agent-port",
            str(free_port()),
            "--metrics-export-port",
            str(free_port()),
        ]
        if k == 0:
            port = free_port()
            self.address = f"127.0.0.1:{port}"
            cmd += [
                "--head",
                "--port",
                str(port),
                "--include-dashboard=false",
                "--ray-client-server-port",
                str(free_port()),
            ]
        else:
            cmd += ["--address", self.address]
        log = os.path.join(d, "ray-start.log")
        self.logs.append(log)
        with open(log, "wb") as f:
            self.procs.append(
                subprocess.Popen(
                    cmd,
                    stdout=f,
                    stderr=subprocess.STDOUT,
                    env=self.env,
                    start_new_session=self.new_session,
                    cwd=d,
                )
            )

    def start(self) -> None:
        """Start the head, connect this process to it as the driver (:func:`connect`), then
        start the other nodes, waiting until each is alive."""
        self._start_node(0)
        host, port = self.address.split(":")
        self._wait(lambda: _listening(host, int(port)), "the head's GCS port")
        self._wait(self._connected, "the driver's connection to the head")
        self._wait(lambda: self.alive_nodes() >= 1, "the head node")
        for k in range(1, len(self.cpus)):
            self._start_node(k)
            self._wait(lambda k=k: self.alive_nodes() >= k + 1, f"node {k}")

    def _connected(self) -> bool:
        """Connect this process to the head (:func:`connect`); False, to be tried again, while
        ``ray.init`` cannot resolve the head's node: on a loaded machine the head's GCS port can
        listen before its raylet is registered, and ``ray.init`` then gives up ("Failed to
        connect to Ray cluster at ...")."""
        try:
            connect(self.address)
        except ConnectionError:
            require_ray().shutdown()
            return False
        return True

    def _wait(self, ready: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + self.start_timeout_s
        while not ready():
            for k, p in enumerate(self.procs):
                if p is not None and p.poll() is not None:
                    raise RuntimeError(
                        f"ray start of node {k} exited ({p.returncode}): " + self.log_tail(k)
                    )
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"{what} not up after {self.start_timeout_s:g} s: "
                    + self.log_tail(len(self.procs) - 1)
                )
            time.sleep(0.2)

    def alive_nodes(self) -> int:
        """Alive nodes of the cluster, as the connected driver sees them."""
        return sum(1 for n in require_ray().nodes() if n.get("Alive"))

    def node_ids(self) -> list[str]:
        """The Ray node id of each node started (in order; "" for a killed one)."""
        ray = require_ray()
        sockets = {
            n.get("ObjectStoreSocketName", ""): n["NodeID"] for n in ray.nodes() if n.get("Alive")
        }
        out = []
        for k, d in enumerate(self.dirs):
            real = os.path.realpath(d)
            found = [
                nid
                for sock, nid in sockets.items()
                if sock and os.path.realpath(sock).startswith(real + os.sep)
            ]
            out.append(found[0] if found and self.procs[k] is not None else "")
        return out

    def log_tail(self, k: int, chars: int = 2000) -> str:
        try:
            with open(self.logs[k], encoding="utf-8", errors="replace") as f:
                return f.read()[-chars:]
        except (OSError, IndexError):
            return ""

    def kill(self, k: int) -> None:
        """End node ``k``'s processes at once (SIGKILL, by id: ``ray start``, its raylet, the
        agents and the node's workers), as a machine that is lost."""
        p = self.procs[k]
        if p is None:
            return
        pids = [p.pid] + _children(p.pid)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        p.wait()
        self.procs[k] = None

    def stop(self) -> None:
        """Disconnect the driver, stop every node (the others before the head) and remove
        their folders."""
        try:
            disconnect()
        except RayMissing:
            pass
        for k in reversed(range(len(self.procs))):
            p = self.procs[k]
            if p is None:
                continue
            pids = _children(p.pid)
            p.send_signal(signal.SIGTERM)  # ray start --block stops what it started
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                pass
            for pid in [p.pid] + pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            self.procs[k] = None
        for d in self.dirs:
            shutil.rmtree(d, ignore_errors=True)
        self.dirs = []
