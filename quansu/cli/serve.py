"""``quansu serve``: run the gRPC service (quansu.v1.QuansuService, health, reflection).

Searches run in a pool of worker processes (one per core by default).  SIGTERM or Ctrl-C
drains: health turns NOT_SERVING (the ports keep serving ``--drain-notice`` seconds), in-flight
calls get ``--drain`` seconds to finish, then the process exits 0.  Logs are JSON lines on
standard error, one per call at ``--log-level info`` (server/logs.py); ``--metrics-port``
serves Prometheus metrics (server/metrics.py).
"""

from __future__ import annotations

import argparse
import os
import sys

from quansu import __version__
from quansu.cli.i18n import add_lang_argument, error_text, lang_of, t
from quansu.client import DEFAULT_PORT
from quansu.games.base import GameError


def add_arguments(p: argparse.ArgumentParser) -> None:
    from quansu.server.engine import Limits

    d = Limits()
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    p.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port (0: any free port; default {DEFAULT_PORT})",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help=f"search worker processes (default: one per core, {os.cpu_count()} here)",
    )
    p.add_argument(
        "--queue",
        type=int,
        default=None,
        help="calls that may wait for a busy worker before RESOURCE_EXHAUSTED "
        "(default: 4 per worker)",
    )
    p.add_argument("--tls-cert", help="PEM certificate chain: serve TLS only")
    p.add_argument("--tls-key", help="PEM private key of --tls-cert")
    p.add_argument(
        "--token",
        default=None,
        help="require 'authorization: Bearer TOKEN' on every call but health "
        "(default: $QUANSU_TOKEN if set)",
    )
    p.add_argument(
        "--drain", type=float, default=10.0, help="seconds in-flight calls get at shutdown"
    )
    p.add_argument(
        "--drain-notice",
        type=float,
        default=1.0,
        metavar="S",
        help="at shutdown, seconds health says NOT_SERVING while calls are still "
        "served, before new calls are refused (default 1)",
    )
    p.add_argument(
        "--model",
        action="append",
        default=[],
        metavar="GAME=PATH",
        help="serve this .onnx model for GAME instead of the shipped one (repeatable)",
    )
    p.add_argument(
        "--uniform",
        action="store_true",
        help="use the network-free uniform evaluator for every game",
    )
    p.add_argument("--default-iterations", type=int, default=d.default_iterations)
    p.add_argument("--default-ms", type=int, default=d.default_ms, help="0: no time limit")
    p.add_argument("--max-iterations", type=int, default=d.max_iterations)
    p.add_argument("--max-ms", type=int, default=d.max_ms)
    p.add_argument("--max-top-k", type=int, default=d.max_top_k)
    p.add_argument(
        "--http-port",
        type=int,
        default=None,
        metavar="P",
        help="also serve the HTTP/JSON gateway and the web page on port P (same host, "
        "TLS, token, workers and limits; 0: any free port; default: no HTTP)",
    )
    p.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        metavar="P",
        help="also serve Prometheus metrics at http://HOST:P/metrics (same host and "
        "TLS, no token; 0: any free port; default: none)",
    )
    p.add_argument("--no-reflection", action="store_true", help="do not serve gRPC reflection")
    p.add_argument(
        "--log-level",
        default="info",
        metavar="LEVEL",
        help="debug, info (one JSON line per call), warning, error or critical "
        "(default info; only debug logs cards)",
    )
    p.add_argument(
        "--replicas",
        type=int,
        default=None,
        metavar="N",
        help="run N whole servers (replicas) kept alive: replica i on --port + i "
        "(and --http-port + i, --metrics-port + i; --port 0: each a free port), "
        "a dead one replaced on its ports (server/replicas.py, docs/scaling.md); "
        "clients spread calls over them (Client([...]) or dns:///NAME:PORT)",
    )


def config_from_args(args):
    from quansu.server.app import ServerConfig
    from quansu.server.engine import Limits
    from quansu.server.logs import parse_level

    lang = lang_of(args)
    models = {}
    for item in args.model:
        if "=" not in item:
            raise GameError(t("serve_bad_model", lang, item=item))
        name, path = item.split("=", 1)
        models[name] = path
    for name in ("default_iterations", "max_iterations", "max_ms", "max_top_k"):
        if getattr(args, name) < 1:
            raise GameError(t("serve_at_least", lang, name=name.replace("_", "-"), least=1))
    if args.default_ms < 0:
        raise GameError(t("serve_at_least", lang, name="default-ms", least=0))
    if args.default_iterations > args.max_iterations or args.default_ms > args.max_ms:
        raise GameError(t("serve_default_above_max", lang))
    for name in ("http_port", "metrics_port"):
        port = getattr(args, name)
        if port is not None and not 0 <= port <= 65535:
            raise GameError(t("serve_port_range", lang, name=name.replace("_", "-")))
    if not args.drain_notice >= 0:
        raise GameError(t("serve_at_least", lang, name="drain-notice", least=0))
    try:
        log_level = parse_level(args.log_level)
    except ValueError as e:
        raise GameError(t("serve_log_level", lang, message=e)) from None
    if (args.tls_cert is None) != (args.tls_key is None):
        raise GameError(t("serve_tls_pair", lang))
    limits = Limits(
        default_iterations=args.default_iterations,
        default_ms=args.default_ms,
        max_iterations=args.max_iterations,
        max_ms=args.max_ms,
        max_top_k=args.max_top_k,
    )
    return ServerConfig(
        host=args.host,
        port=args.port,
        workers=args.workers,
        queue_size=args.queue,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        token=args.token or os.environ.get("QUANSU_TOKEN") or None,
        drain_s=args.drain,
        limits=limits,
        uniform=args.uniform,
        models=models,
        reflection=not args.no_reflection,
        http_port=args.http_port,
        metrics_port=args.metrics_port,
        drain_notice_s=args.drain_notice,
        log_level=log_level,
    )


def run(args) -> int:
    from quansu.server.app import serve
    from quansu.server.logs import configure

    try:
        config = config_from_args(args)
    except GameError as e:
        print(t("error", lang_of(args), message=error_text(e, lang_of(args))), file=sys.stderr)
        return 2
    if getattr(args, "replicas", None) is not None:
        from quansu.server.replicas import serve_replicas

        return serve_replicas(args)
    configure(config.log_level)

    def ready(port: int) -> None:
        scheme = "TLS" if config.tls_cert else "plaintext"
        print(
            f"quansu {__version__} serving on {config.host}:{port} ({scheme}, "
            f"{config.workers or os.cpu_count()} workers"
            f"{', token required' if config.token else ''})",
            flush=True,
        )

    try:
        return serve(config, ready=ready)
    except (OSError, GameError, RuntimeError, ValueError) as e:
        print(t("error", lang_of(args), message=error_text(e, lang_of(args))), file=sys.stderr)
        return 1


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="quansu serve", description=__doc__.splitlines()[0])
    add_arguments(p)
    add_lang_argument(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
