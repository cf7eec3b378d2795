"""Shared pieces of the ``quansu hint`` / ``quansu analyze`` commands: reading a record or view
file, connecting to a server, printing errors."""

from __future__ import annotations

import argparse
import sys

import grpc

from quansu.games import record as rec
from quansu.games.base import GameError
from quansu.games.errors import CodedError
from quansu.server import convert
from quansu.server.errors import RequestError, field_violations


def add_connection_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--server",
        metavar="HOST[:PORT]",
        help="ask a running quansu server instead of searching in this process "
        "(port default 50051)",
    )
    p.add_argument("--token", help="the server's token (default: $QUANSU_TOKEN)")
    p.add_argument("--tls-ca", metavar="PEM", help="connect with TLS, trusting this certificate")
    p.add_argument("--server-name", help="name to check in the server's TLS certificate")
    p.add_argument("--timeout", type=float, default=None, help="deadline of the call in seconds")
    p.add_argument(
        "--uniform",
        action="store_true",
        help="in process: use the uniform evaluator instead of the shipped models",
    )


def add_budget_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--iterations", type=int, default=0, help="search iterations (0: default)")
    p.add_argument("--ms", type=int, default=0, help="search milliseconds (0: no time limit)")
    p.add_argument("--seed", type=int, default=None, help="seed for a reproducible answer")


def read_game_file(path: str) -> dict:
    """The JSON object of a record or view file, ``-``: standard input (RecordError for bad
    JSON, OSError if missing)."""
    if path == "-":
        return rec.loads(sys.stdin.read())
    return rec.read_json(path)


def make_client(args):
    import os

    from quansu.client import Client

    token = args.token or os.environ.get("QUANSU_TOKEN") or None
    return Client(
        args.server,
        token=token,
        tls_ca=args.tls_ca,
        server_name=args.server_name,
        timeout=args.timeout,
    )


def report_error(e: BaseException, prefix: str = "", args=None) -> int:
    """Print an error for a person in the command's ``--lang`` (a rules or request error from
    its code: :func:`quansu.cli.i18n.error_text`; a server's field violations come in the language
    the command asked for); return the exit code (2: bad input, 1: other).  With the
    command's ``args``, an UNAVAILABLE server says why when it can tell (nothing listening, or
    TLS on one side only: :func:`quansu.client.diagnose`).  A closed standard output
    (:class:`BrokenPipeError`) is re-raised for :func:`quansu.cli.main`."""
    from quansu.cli.i18n import lang_of, t

    lang = lang_of(args)  # in --lang: the CLI's words, the rules' and the checks' errors (codes)
    if isinstance(e, BrokenPipeError):
        raise e
    if isinstance(e, grpc.RpcError):
        fields = field_violations(e)
        if fields:
            for field, msg in fields:
                print(t("error_field", lang, field=field, message=msg), file=sys.stderr)
        else:
            print(
                t("error_status", lang, status=e.code().name, message=e.details()), file=sys.stderr
            )
            if args is not None and getattr(args, "server", None):
                from quansu.client import diagnose, normalize_target

                why = diagnose(e, normalize_target(args.server), bool(args.tls_ca))
                if why:
                    print(t("error", lang, message=why), file=sys.stderr)
        return 2 if e.code() == grpc.StatusCode.INVALID_ARGUMENT else 1
    if isinstance(e, RequestError):
        message = e.render(lang)
        print(
            t("error_field", lang, field=e.field, message=message)
            if e.field
            else t("error", lang, message=message),
            file=sys.stderr,
        )
        return 2
    if isinstance(e, (GameError, CodedError)):
        from quansu.server.errors import as_request_error

        return report_error(as_request_error(e, prefix), args=args)
    if isinstance(e, OSError):
        print(t("error", lang, message=e), file=sys.stderr)
        return 2
    from quansu.client import TargetError

    if isinstance(e, TargetError):
        print(t("error_field", lang, field="--server", message=e), file=sys.stderr)
        return 2
    raise e


def message_of(obj: dict):
    return convert.record_message(obj)
