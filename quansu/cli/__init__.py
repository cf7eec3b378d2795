"""The ``quansu`` command line.  Each subcommand lives in its own module and is imported only
when used, so ``quansu play`` never loads grpc or onnxruntime.  Every subcommand takes ``--lang
vi|en`` (default: the locale), the language of its texts (:mod:`quansu.cli.i18n`)."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

from quansu import __version__
from quansu.cli.i18n import add_lang_argument, lang_of, t

#: Exit status after a closed standard output (``quansu replay X | head -1``): 128 + SIGPIPE,
#: what a shell reports for a program stopped by a closed pipe.
EXIT_BROKEN_PIPE = 141

#: subcommand -> (module, one-line help).  The module defines ``add_arguments(parser)`` and
#: ``run(args) -> int``.
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("quansu.cli.play", "play a terminal game against bots"),
    "serve": ("quansu.cli.serve", "start the gRPC service on the shipped models"),
    "hint": ("quansu.cli.hint", "ranked suggested moves for a seat's view (quansu-view/1 file)"),
    "analyze": ("quansu.cli.analyze", "judge every decision of a game record"),
    "replay": ("quansu.cli.replay", "referee: validate and print a game record"),
    "view": ("quansu.cli.view", "cut one seat's view out of a game record"),
    "arena": ("quansu.cli.arena", "play bots against each other on fixed deals"),
    "train": ("quansu.cli.train", "train a policy-value network (needs the [train] extra)"),
}


def checkout_root() -> Path | None:
    """The source checkout this quansu runs from (an editable install, or the tree itself on
    ``sys.path``), or None for an installed copy."""
    import quansu

    root = Path(quansu.__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file() and (root / "games" / "registry.py").is_file():
        return root
    return None


def install_hint(extra: str) -> str:
    """How to install an optional extra, for this installation first and the other way too."""
    root = checkout_root()
    if root is not None:
        return (
            f"pip install -e '.[{extra}]' in the checkout {root} (for a quansu installed "
            f"from a package: pip install 'quansu[{extra}]')"
        )
    return (
        f"pip install 'quansu[{extra}]' (in a checkout of the source: pip install -e '.[{extra}]')"
    )


def version_line() -> str:
    """``quansu 0.1.0 (compiled core)`` or ``quansu 0.1.0 (pure Python)``: the version and which
    build of the hot paths is installed (:mod:`search.compiled`)."""
    from quansu.search.compiled import version_label

    return f"quansu {__version__} ({version_label()})"


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full parser; with ``only``, just that subcommand's module is imported (so that
    ``quansu play`` never imports grpc or onnxruntime)."""
    parser = argparse.ArgumentParser(
        prog="quansu", description="quân sư: AI for Vietnamese card games"
    )
    parser.add_argument("--version", action="version", version=version_line())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=module)
        if only is None or only == name:
            importlib.import_module(module).add_arguments(p)
        add_lang_argument(p)
    return parser


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so that the flush at exit does not fail again."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    first = next((a for a in argv if not a.startswith("-")), None)
    # only the chosen subcommand's module is imported ("": none, for --version, --help or an
    # unknown command, whose messages need only COMMANDS)
    parser = build_parser(first if first in COMMANDS else "")
    args = parser.parse_args(argv)
    mod = importlib.import_module(args._module)
    try:
        code = int(mod.run(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here rather than at interpreter exit
        return code
    except BrokenPipeError:  # the reader went away (`quansu replay X | head -1`): stop quietly
        _quiet_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        print("\n" + t("interrupted", lang_of(args)), file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
