"""The ``quansu`` command line.  Each subcommand lives in its own module and is imported only
when used, so ``quansu play`` never loads grpc or onnxruntime."""

from __future__ import annotations

import argparse
import importlib
import sys

#: subcommand -> (module, one-line help).  The module defines ``add_arguments(parser)`` and
#: ``run(args) -> int``.
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("server.cmd_play", "play a terminal game against bots"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="quansu", description="quân sư: AI for Vietnamese card games")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=module)
        importlib.import_module(module).add_arguments(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    mod = importlib.import_module(args._module)
    try:
        return int(mod.run(args) or 0)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
