"""``quansu serve --replicas N``: N ``quansu serve`` processes on one machine, kept alive.

Each replica is a whole ``quansu serve`` (its own worker pool, health, HTTP gateway and metrics
when asked) in a process group of its own (in the supervisor's session), on its own ports:
replica ``i`` listens on ``--port + i`` (``--http-port + i``, ``--metrics-port + i``); with
``--port 0`` each takes a free port at its first start and keeps it.  Clients spread their calls over the replicas with
gRPC's ``round_robin`` (:class:`quansu.client.Client` given the list, or ``dns:///NAME:PORT``)
and send a call again after UNAVAILABLE (``Client(retries=N)``, gRPC's retry policy).

The supervisor (:class:`Replicas`):

* starts the replicas and prints ``replica I serving on HOST:PORT (pid P)`` for each once it
  is ready (the replica's own ready line: its workers answered their ready check);
* replaces a replica that dies (any exit the supervisor did not ask for): its process group is
  killed (the workers a killed server leaves behind), and a new replica starts on the same
  ports after ``restart_delay`` seconds, doubling up to 30 s while it keeps dying within a
  minute of its start; a replica that fails its first start stops the whole service (exit 1:
  a bad setting, a port in use);
* checks each ready replica's gRPC health every ``health_interval`` seconds and replaces one
  that fails ``health_failures`` checks in a row (hung, or NOT_SERVING for that long); not
  with ``--tls-cert`` (the supervisor has no CA for the certificate): processes only;
* on SIGTERM or SIGINT sends SIGTERM to every replica (each drains as ``quansu serve`` does)
  and waits for them; a second signal is passed on too (it ends the drain notice).

The replicas' logs go to the supervisor's standard error as they are (JSON lines).  A token
reaches the replicas in their environment (``QUANSU_TOKEN``), never on a command line.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

#: The command line of ``quansu serve`` (the interpreter running this one).
SERVE = [sys.executable, "-m", "quansu", "serve"]
#: The flags the supervisor sets itself for each replica (or keeps for itself).
OWN_FLAGS = ("replicas", "host", "port", "http_port", "metrics_port", "token", "help")
#: Restart waits: the first, the most, and how long a replica must live for the next death to
#: start again from the first.
RESTART_DELAY_S = 1.0
RESTART_DELAY_MAX_S = 30.0
STABLE_S = 60.0


class ReplicaError(ValueError):
    """Settings that cannot make replicas (the message says which flag)."""


def check_ports(n: int, port: int, http_port: int | None, metrics_port: int | None) -> None:
    """Raise :class:`ReplicaError` when ``n`` replicas cannot get their ports from these."""
    if not isinstance(n, int) or n < 1:
        raise ReplicaError(f"--replicas must be at least 1 (got {n})")
    for name, base in (("port", port), ("http-port", http_port), ("metrics-port", metrics_port)):
        if base is None:
            continue
        if base == 0 and name != "port" and n > 1:
            raise ReplicaError(
                f"--{name} 0 with --replicas {n}: give a first port P; replica i serves on P+i"
            )
        if base and base + n - 1 > 65535:
            raise ReplicaError(
                f"--{name} {base} with --replicas {n}: the last replica's port "
                f"{base + n - 1} is above 65535"
            )


def child_argv(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[str]:
    """The ``quansu serve`` flags of ``args`` that differ from ``parser``'s defaults, but the
    ones the supervisor sets itself (:data:`OWN_FLAGS`): what every replica is started with."""
    out: list[str] = []
    for action in parser._actions:  # argparse has no public list of its actions
        if action.dest in OWN_FLAGS or not action.option_strings:
            continue
        value = getattr(args, action.dest, action.default)
        if value is None or value == action.default:
            continue
        flag = max(action.option_strings, key=len)
        if isinstance(action, argparse._StoreTrueAction):
            out.append(flag)
        elif isinstance(action, argparse._AppendAction):
            for item in value:
                out += [flag, str(item)]
        else:
            out += [flag, str(value)]
    return out


@dataclass
class Replica:
    """One replica: its number, ports and current process."""

    index: int
    port: int
    http_port: int | None = None
    metrics_port: int | None = None
    proc: subprocess.Popen | None = None
    started: float = 0.0
    ready: threading.Event = field(default_factory=threading.Event)
    starts: int = 0
    deaths: int = 0
    health_failures: int = 0
    delay: float = RESTART_DELAY_S
    next_start: float | None = None  # when a dead replica starts again (monotonic)

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    def argv(self, base: list[str], host: str) -> list[str]:
        out = list(base) + ["--host", host, "--port", str(self.port)]
        if self.http_port is not None:
            out += ["--http-port", str(self.http_port)]
        if self.metrics_port is not None:
            out += ["--metrics-port", str(self.metrics_port)]
        return out


class Replicas:
    """N ``quansu serve`` processes kept alive (module docstring).

    ``serve_args``: the flags every replica gets (:func:`child_argv`); ``host``, ``port``,
    ``http_port``, ``metrics_port``: replica ``i`` gets each port plus ``i`` (port 0: any free
    port, kept across restarts).  ``token``: given to the replicas as ``QUANSU_TOKEN``.
    ``out``: where the supervisor's lines go (default standard output).  ``new_session``: each
    replica in a session of its own (else in the supervisor's session, in a process group of
    its own); under Linux's autogroup scheduling each session gets its own share of the CPUs,
    so replicas in sessions of their own take a larger share of a machine busy with other
    work (docs/scaling.md)."""

    def __init__(
        self,
        n: int,
        serve_args: list[str] | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        http_port: int | None = None,
        metrics_port: int | None = None,
        token: str | None = None,
        restart_delay: float = RESTART_DELAY_S,
        health_interval: float = 5.0,
        health_failures: int = 3,
        start_timeout: float = 300.0,
        command: list[str] | None = None,
        out=None,
        new_session: bool = False,
    ):
        check_ports(n, port, http_port, metrics_port)
        self.host = host
        self.new_session = new_session
        self.serve_args = list(serve_args or [])
        self.command = list(command or SERVE)
        self.restart_delay = restart_delay
        # over TLS the supervisor cannot check health (it has no CA for the replicas'
        # certificate): it watches their processes only
        self.health_interval = 0.0 if "--tls-cert" in self.serve_args else health_interval
        self.health_failures = health_failures
        self.start_timeout = start_timeout
        self.out = out
        self.env = dict(os.environ)
        if token:
            self.env["QUANSU_TOKEN"] = token
        self.token = token
        self.replicas = [
            Replica(
                i,
                port + i if port else 0,
                None if http_port is None else http_port + i,
                None if metrics_port is None else metrics_port + i,
                delay=restart_delay,
            )
            for i in range(n)
        ]
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._failed: str | None = None  # why the service stops (a replica's first start)
        self.restarts = 0

    # -- addresses ---------------------------------------------------------------------------
    @property
    def ports(self) -> list[int]:
        return [r.port for r in self.replicas]

    def targets(self, host: str | None = None) -> list[str]:
        """``host:port`` of each replica (``host``: default the listening host, 127.0.0.1 for
        every interface)."""
        h = host or (
            self.host if self.host not in ("", "0.0.0.0", "::", "[::]", "*") else "127.0.0.1"
        )
        if ":" in h and not h.startswith("["):
            h = f"[{h}]"
        return [f"{h}:{p}" for p in self.ports]

    def _say(self, text: str) -> None:
        print(text, file=self.out or sys.stdout, flush=True)

    # -- one replica ---------------------------------------------------------------------------
    def _spawn(self, r: Replica) -> None:
        r.ready.clear()
        r.health_failures = 0
        r.next_start = None
        r.started = time.monotonic()
        r.starts += 1
        r.proc = subprocess.Popen(
            r.argv(self.command + self.serve_args, self.host),
            stdout=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            env=self.env,
            start_new_session=self.new_session,
            process_group=None if self.new_session else 0,
        )
        threading.Thread(
            target=self._read_ready, args=(r, r.proc), daemon=True, name=f"quansu-replica-{r.index}"
        ).start()

    def _read_ready(self, r: Replica, proc: subprocess.Popen) -> None:
        """Wait for the replica's ready line (``... serving on HOST:PORT ...``), learn its port,
        then drain its standard output until it ends."""
        for line in proc.stdout:
            if r.proc is not proc or r.ready.is_set():
                continue
            words = line.split()
            if "serving" in words and "on" in words:
                where = words[words.index("on") + 1]
                with self._lock:
                    if not r.port:
                        r.port = int(where.rsplit(":", 1)[1])
                    r.ready.set()
                self._say(
                    f"replica {r.index} serving on {self.host}:{r.port} (pid {proc.pid}"
                    f"{', restart ' + str(r.starts - 1) if r.starts > 1 else ''})"
                )

    @staticmethod
    def _kill_group(proc: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def _died(self, r: Replica, why: str) -> None:
        """Replica ``r``'s process ended (or was found unhealthy and killed): clear its group
        and plan its restart, or stop the service when it never got ready at its first start."""
        proc = r.proc
        self._kill_group(proc)  # its workers, orphaned by a killed server
        proc.wait()
        r.deaths += 1
        if not r.ready.is_set() and r.starts == 1:
            self._failed = f"replica {r.index} did not start ({why}); see its error above"
            self._stopping.set()
            return
        if time.monotonic() - r.started >= STABLE_S:
            r.delay = self.restart_delay
        r.next_start = time.monotonic() + r.delay
        self._say(f"replica {r.index} (pid {proc.pid}) {why}; starting a new one in {r.delay:g} s")
        r.delay = min(RESTART_DELAY_MAX_S, r.delay * 2)
        r.ready.clear()

    def _health(self, r: Replica) -> bool:
        """One health check of a ready replica (gRPC health, the whole server)."""
        from quansu.client import Client

        try:
            with Client(self.targets()[r.index]) as c:
                return c.health(timeout=max(1.0, self.health_interval)) == "SERVING"
        except Exception:  # noqa: BLE001 - any failure is a failed check
            return False

    # -- the service -------------------------------------------------------------------------
    def start(self, wait: bool = True, stop: threading.Event | None = None) -> None:
        """Start every replica; with ``wait``, until each is ready (raises RuntimeError when
        one fails its first start, is not ready in ``start_timeout`` seconds, or ``stop`` is
        set meanwhile)."""
        for r in self.replicas:
            self._spawn(r)
        if not wait:
            return
        end = time.monotonic() + self.start_timeout
        while not all(r.ready.is_set() for r in self.replicas):
            self.check()
            why = (
                self._failed
                or ("stopped while starting" if stop is not None and stop.is_set() else None)
                or (
                    f"replicas not ready in {self.start_timeout:g} s"
                    if time.monotonic() > end
                    else None
                )
            )
            if why:
                self.stop(grace=0)
                raise RuntimeError(why)
            time.sleep(0.05)

    def check(self, health: bool = False) -> None:
        """One round of supervision: a dead replica is cleared and planned for a restart, a
        planned restart whose time has come is made, and with ``health`` each ready replica's
        health is checked."""
        if self._stopping.is_set():
            return
        now = time.monotonic()
        for r in self.replicas:
            if r.proc is not None and r.next_start is None and r.proc.poll() is not None:
                self._died(r, f"exited with status {r.proc.returncode}")
            elif r.next_start is not None and now >= r.next_start and not self._stopping.is_set():
                self.restarts += 1
                self._spawn(r)
            elif health and r.ready.is_set() and r.next_start is None:
                if self._health(r):
                    r.health_failures = 0
                else:
                    r.health_failures += 1
                    if r.health_failures >= self.health_failures and r.proc.poll() is None:
                        self._kill_group(r.proc)
                        self._died(r, f"failed {r.health_failures} health checks")

    def run(self, stop: threading.Event) -> int:
        """Supervise until ``stop`` is set (or a replica fails its first start); then stop
        every replica.  Returns 0, or 1 when a replica failed its first start."""
        last_health = time.monotonic()
        while not stop.wait(0.2) and not self._failed:
            due = time.monotonic() - last_health >= self.health_interval
            if due:
                last_health = time.monotonic()
            self.check(health=due and self.health_interval > 0)
        self.stop()
        if self._failed:
            print(f"error: {self._failed}", file=sys.stderr, flush=True)
            return 1
        return 0

    def signal_all(self, sig: int = signal.SIGTERM) -> None:
        """Send ``sig`` to every running replica's server process."""
        for r in self.replicas:
            if r.proc is not None and r.proc.poll() is None:
                try:
                    r.proc.send_signal(sig)
                except ProcessLookupError:
                    pass

    def stop(self, grace: float | None = None) -> None:
        """SIGTERM to every replica (each drains), then wait; after ``grace`` seconds (default:
        as long as they take) the rest of each process group is killed."""
        self._stopping.set()
        self.signal_all(signal.SIGTERM)
        end = None if grace is None else time.monotonic() + grace
        for r in self.replicas:
            if r.proc is None:
                continue
            try:
                r.proc.wait(None if end is None else max(0.0, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            self._kill_group(r.proc)
            r.proc.wait()

    def kill(self, index: int, sig: int = signal.SIGKILL) -> int:
        """Kill replica ``index``'s server process (not its workers: as a crash would); returns
        its pid.  For tests and drills."""
        r = self.replicas[index]
        pid = r.proc.pid
        os.kill(pid, sig)
        return pid


def serve_parser() -> argparse.ArgumentParser:
    """A parser of ``quansu serve``'s flags, for their defaults."""
    from quansu.cli.i18n import add_lang_argument
    from quansu.cli.serve import add_arguments

    p = argparse.ArgumentParser(add_help=False)
    add_arguments(p)
    add_lang_argument(p)
    return p


def serve_replicas(args: argparse.Namespace) -> int:
    """``quansu serve --replicas N`` (quansu/cli/serve.py): supervise N replicas until SIGTERM
    or SIGINT.  Exit 0 after a drain, 1 when a replica cannot start, 2 for bad settings."""
    try:
        sup = Replicas(
            args.replicas,
            child_argv(args, serve_parser()),
            host=args.host,
            port=args.port,
            http_port=args.http_port,
            metrics_port=args.metrics_port,
            token=args.token or os.environ.get("QUANSU_TOKEN") or None,
        )
    except ReplicaError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    stop = threading.Event()
    signals = {"n": 0}

    def on_signal(signum, frame):
        signals["n"] += 1
        if signals["n"] > 1:  # a second signal: passed on (ends the drain notice)
            sup.signal_all(signal.SIGTERM)
        stop.set()

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        try:
            sup.start(wait=True, stop=stop)
        except RuntimeError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        print(f"quansu serving {len(sup.replicas)} replicas: {','.join(sup.targets())}", flush=True)
        return sup.run(stop)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
