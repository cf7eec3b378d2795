"""The ``quansu`` command line.  Each subcommand lives in its own module and is imported only
when used, so ``quansu play`` never loads grpc or onnxruntime."""

from __future__ import annotations

import argparse
import importlib
import sys

#: subcommand -> (module, one-line help).  The module defines ``add_arguments(parser)`` and
#: ``run(args) -> int``.
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("quansu.server.cmd_play", "play a terminal game against bots"),
    "serve": ("quansu.server.cmd_serve", "start the gRPC service on the shipped models"),
    "hint": ("quansu.server.cmd_hint", "ranked suggested moves for a seat's view (quansu-view/1 file)"),
    "analyze": ("quansu.server.cmd_analyze", "judge every decision of a game record"),
    "replay": ("quansu.server.cmd_replay", "referee: validate and print a game record"),
    "view": ("quansu.server.cmd_view", "cut one seat's view out of a game record"),
    "arena": ("quansu.server.cmd_arena", "play bots against each other on fixed deals"),
    "train": ("quansu.server.cmd_train", "train a policy-value network (needs the [train] extra)"),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full parser; with ``only``, just that subcommand's module is imported (so that
    ``quansu play`` never imports grpc or onnxruntime)."""
    parser = argparse.ArgumentParser(prog="quansu", description="quân sư: AI for Vietnamese card games")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=module)
        if only is None or only == name:
            importlib.import_module(module).add_arguments(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    first = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(first if first in COMMANDS else None)
    args = parser.parse_args(argv)
    mod = importlib.import_module(args._module)
    try:
        return int(mod.run(args) or 0)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
