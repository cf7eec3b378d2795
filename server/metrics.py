"""Prometheus metrics of a running server (``quansu serve --metrics-port P``).

:class:`ServiceMetrics` holds the server's own registry (never prometheus-client's global one,
so several servers in one process keep apart).  Every call of ``quansu.v1.QuansuService``, over
gRPC or the HTTP gateway, is counted when it ends (:meth:`ServiceMetrics.observe`, from
:class:`server.logs.Calls` in the servicer's shared call path); the pool's figures are read at
each scrape (:class:`PoolCollector`).  The game label is a game the server knows, ``unknown``
(a request naming another) or ``none`` (DescribeGames, a body that does not parse).

| metric | type | labels | what |
|---|---|---|---|
| ``quansu_requests_total`` | counter | rpc, game, code | calls ended, by status code name (``OK``, ``INVALID_ARGUMENT``, ...) |
| ``quansu_errors_total`` | counter | rpc, game, code | calls ended with a status other than OK |
| ``quansu_request_duration_seconds`` | histogram | rpc, game | time from the call's start in the servicer to its end |
| ``quansu_search_iterations_total`` | counter | rpc, game | search iterations of Suggest and SuggestStream answers |
| ``quansu_search_iterations_per_second`` | histogram | game | iterations per second of each answered search |
| ``quansu_analyze_decisions_total`` | counter | game | decisions Analyze judged |
| ``quansu_model_info`` | info | game, model | the evaluator loaded per game (``uniform`` without a network) |
| ``quansu_queue_depth`` | gauge | | calls waiting for a worker |
| ``quansu_queue_capacity`` | gauge | | the most calls that may wait (``--queue``) |
| ``quansu_workers`` | gauge | | worker slots (``--workers``) |
| ``quansu_workers_live`` | gauge | | workers alive (busy or idle) |
| ``quansu_workers_busy`` | gauge | | workers running a call |
| ``quansu_workers_spare`` | gauge | | ready spare workers |
| ``quansu_worker_deaths_total`` | counter | | workers found dead, or killed because they did not stop |
| ``quansu_worker_restarts_total`` | counter | | workers put in a dead one's place |
| ``quansu_worker_rss_bytes`` | gauge | worker | resident memory of each live worker (Linux) |
| ``quansu_worker_cache_budget_bytes`` | gauge | | the most memory a worker's bounded caches take together when full, from their sizes (``QUANSU_CACHE_*``; docs/api.md, "Caches") |
| ``process_*`` | | | the serve process itself (prometheus-client's process collector: memory, CPU, open files) |
"""

from __future__ import annotations

import threading

from prometheus_client import CollectorRegistry, Counter, Histogram, Info, ProcessCollector
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import generate_latest, start_http_server

from quansu.games.caches import memory_budget_mb

#: Latency buckets (seconds): from a LegalMoves to a long Analyze.
LATENCY_BUCKETS = (
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
    30.0,
    60.0,
    120.0,
    300.0,
)
#: Iterations-per-second buckets.
RATE_BUCKETS = (50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000)


class PoolCollector:
    """The worker pool's figures, read at each scrape (:meth:`server.pool.WorkerPool.stats`,
    with each worker's memory)."""

    def __init__(self, pool):
        self.pool = pool

    def describe(self):
        return []  # collected at scrape time only

    def collect(self):
        st = self.pool.stats(rss=True)
        gauges = (
            ("quansu_queue_depth", "Calls waiting for a worker", st.waiting),
            (
                "quansu_queue_capacity",
                "The most calls that may wait for a worker",
                self.pool.queue_size,
            ),
            ("quansu_workers", "Worker slots", st.workers),
            ("quansu_workers_live", "Workers alive (busy or idle)", st.alive),
            ("quansu_workers_busy", "Workers running a call", st.busy),
            ("quansu_workers_spare", "Ready spare workers", st.spares),
        )
        for name, doc, value in gauges:
            yield GaugeMetricFamily(name, doc, value=value)
        yield CounterMetricFamily(
            "quansu_worker_deaths", "Workers found dead or killed", value=st.deaths
        )
        yield CounterMetricFamily(
            "quansu_worker_restarts", "Workers put in a dead one's place", value=st.restarts
        )
        rss = GaugeMetricFamily(
            "quansu_worker_rss_bytes", "Resident memory of each live worker", labels=["worker"]
        )
        for i, mb in enumerate(st.worker_rss_mb):
            rss.add_metric([str(i)], mb * 1024.0 * 1024.0)
        yield rss
        yield GaugeMetricFamily(
            "quansu_worker_cache_budget_bytes",
            "The most memory a worker's bounded caches take together when full (their sizes)",
            value=memory_budget_mb() * 1e6,
        )


class ServiceMetrics:
    """The server's metrics (module docstring).  ``pool``: the worker pool whose figures are
    read at each scrape (None: none); ``models``: game name -> the model it serves."""

    def __init__(
        self,
        pool=None,
        models: dict[str, str] | None = None,
        registry: CollectorRegistry | None = None,
        process: bool = True,
    ):
        r = self.registry = registry or CollectorRegistry()
        labels = ["rpc", "game", "code"]
        self.requests = Counter(
            "quansu_requests", "Calls ended, by RPC, game and status code", labels, registry=r
        )
        self.errors = Counter(
            "quansu_errors", "Calls ended with a status other than OK", labels, registry=r
        )
        self.latency = Histogram(
            "quansu_request_duration_seconds",
            "Call duration in the servicer",
            ["rpc", "game"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.iterations = Counter(
            "quansu_search_iterations",
            "Search iterations of the answers",
            ["rpc", "game"],
            registry=r,
        )
        self.rate = Histogram(
            "quansu_search_iterations_per_second",
            "Iterations per second of each answered search",
            ["game"],
            buckets=RATE_BUCKETS,
            registry=r,
        )
        self.decisions = Counter(
            "quansu_analyze_decisions", "Decisions Analyze judged", ["game"], registry=r
        )
        self.model = Info("quansu_model", "The evaluator loaded per game", ["game"], registry=r)
        for game, model in sorted((models or {}).items()):
            self.model.labels(game=game).info({"model": model})
        if pool is not None:
            r.register(PoolCollector(pool))
        if process:
            ProcessCollector(registry=r)
        self._http = None
        self._thread: threading.Thread | None = None
        self.port: int | None = None

    def observe(self, call) -> None:
        """Count one ended call (:class:`server.logs.Call`)."""
        code = call.status
        self.requests.labels(call.rpc, call.game, code).inc()
        if code != "OK":
            self.errors.labels(call.rpc, call.game, code).inc()
        self.latency.labels(call.rpc, call.game).observe(call.ms / 1000.0)
        if call.iterations:
            self.iterations.labels(call.rpc, call.game).inc(call.iterations)
            if call.search_ms > 0:
                self.rate.labels(call.game).observe(call.iterations / (call.search_ms / 1000.0))
        if call.decisions:
            self.decisions.labels(call.game).inc(call.decisions)

    def text(self) -> str:
        """The metrics in Prometheus' text format (what a scrape reads)."""
        return generate_latest(self.registry).decode()

    # -- the HTTP endpoint --------------------------------------------------------------------
    def serve(
        self, host: str, port: int, tls_cert: str | None = None, tls_key: str | None = None
    ) -> int:
        """Serve the metrics at ``http(s)://host:port/metrics`` (any path answers them) in a
        thread; returns the bound port (``port`` 0: any free one)."""
        host = host.strip("[]") or "0.0.0.0"
        try:
            self._http, self._thread = start_http_server(
                port, addr=host, registry=self.registry, certfile=tls_cert, keyfile=tls_key
            )
        except OSError as e:
            raise OSError(f"cannot listen on {host}:{port} (metrics): {e.strerror or e}") from None
        self.port = self._http.server_port
        return self.port

    def close(self) -> None:
        if self._http is not None:
            self._http.shutdown()
            self._http.server_close()
            self._http = None
