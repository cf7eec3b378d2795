"""The tables of current figures in the docs, rendered from ``bench/results/*.json``.

A doc's table of figures lies between two HTML comment lines::

    <!-- table: NAME -->
    | ... rendered from bench/results/NAME.json ... |
    <!-- /table -->

and ``bench/results/NAME.json`` holds ``date`` (YYYY-MM-DD), ``commit`` (the code measured),
``machine``, ``command`` (what gives the figures), ``source`` (a benchmark's output, or where the
figures were transcribed from) and ``table``: ``columns`` (strings) and ``rows`` (lists of
cells, strings or numbers, as many as the columns).  The table is the columns, the rows, and a
line naming the date, commit and command.  Change the JSON, then::

    python -m quansu.bench.tables            # rewrite every table in the docs
    python -m quansu.bench.tables --check    # exit 1, naming each table that differs

tests/project/test_docs_tables.py runs the check.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
#: The documents whose tables are rendered: every Markdown file of the repository outside
#: tests' data, the virtual environments and node packages.
SKIP_PARTS = {".git", "node_modules", "data", "venv", ".venv", "build", "shared"}
REGION = re.compile(
    r"^<!-- table: (?P<name>[A-Za-z0-9_.-]+) -->\n(?P<body>.*?)^<!-- /table -->$", re.M | re.S
)


class TableError(ValueError):
    """A results file that cannot be rendered (missing, not JSON, a key or cell missing)."""


def documents(root: Path = ROOT) -> list[Path]:
    """The Markdown files that may hold tables, in a fixed order."""
    return sorted(
        p for p in root.rglob("*.md") if not SKIP_PARTS.intersection(p.relative_to(root).parts)
    )


def _cell(value) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text.replace("|", "\\|").replace("\n", " ")


def render(name: str, results: Path = RESULTS) -> str:
    """The Markdown of table ``name`` (ending with a newline), from ``results/NAME.json``."""
    path = results / f"{name}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TableError(f"{path}: no such results file") from None
    except json.JSONDecodeError as e:
        raise TableError(f"{path}: not JSON ({e})") from None
    for key in ("date", "commit", "command", "table"):
        if key not in data:
            raise TableError(f"{path}: no '{key}'")
    columns, rows = data["table"].get("columns"), data["table"].get("rows")
    if not columns or not isinstance(rows, list):
        raise TableError(f"{path}: table.columns and table.rows are required")
    lines = ["| " + " | ".join(_cell(c) for c in columns) + " |", "|" + "---|" * len(columns)]
    for i, row in enumerate(rows):
        if len(row) != len(columns):
            raise TableError(
                f"{path}: table.rows[{i}] has {len(row)} cells, {len(columns)} columns"
            )
        lines.append("| " + " | ".join(_cell(c) for c in row) + " |")
    lines += ["", f"Measured {data['date']} at {data['commit']}: `{data['command']}`"]
    return "\n".join(lines) + "\n"


def regenerate(text: str, results: Path = RESULTS) -> tuple[str, list[str]]:
    """``text`` with every table region rendered afresh, and the names of those that changed."""
    changed = []

    def one(m: re.Match) -> str:
        body = render(m["name"], results)
        if body != m["body"]:
            changed.append(m["name"])
        return f"<!-- table: {m['name']} -->\n{body}<!-- /table -->"

    return REGION.sub(one, text), changed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m quansu.bench.tables", description=__doc__.split("\n\n")[0]
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="change nothing; exit 1 when a table differs from its results file",
    )
    args = p.parse_args(argv)
    stale = []
    for doc in documents():
        text = doc.read_text(encoding="utf-8")
        try:
            new, changed = regenerate(text)
        except TableError as e:
            print(f"{doc.relative_to(ROOT)}: {e}", file=sys.stderr)
            return 2
        for name in changed:
            stale.append(f"{doc.relative_to(ROOT)}: table {name}")
        if changed and not args.check:
            doc.write_text(new, encoding="utf-8")
    for line in stale:
        print(("differs from its results file: " if args.check else "rewritten: ") + line)
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
