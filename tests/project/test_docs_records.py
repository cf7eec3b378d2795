"""The specification pages inside the project agree with the code.

- docs/records.md: its JSON examples are a valid record (the referee agrees with its result) and a
  valid view;
- docs/rules/tienlen.md: its options table lists exactly the engine's options with their defaults;
- the project's own docs and code comments never send readers outside the repository.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from quansu.games import record as rec
from quansu.games.registry import make

ROOT = Path(__file__).resolve().parents[2]


def _json_blocks(path: Path) -> list[dict]:
    text = path.read_text(encoding="utf-8")
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S)]


def test_records_doc_examples_replay():
    blocks = _json_blocks(ROOT / "docs" / "records.md")
    kinds = [b["format"] for b in blocks]
    assert rec.RECORD_FORMAT in kinds and rec.VIEW_FORMAT in kinds
    for obj in blocks:
        if obj["format"] == rec.RECORD_FORMAT:
            state = rec.replay_record(obj)  # checks the example's result against the settlement
            assert state.is_terminal()
            assert rec.record_from_state(state) == obj, (
                "docs/records.md record is not in canonical form"
            )
        else:
            state = rec.replay_view(obj, random.Random(0))
            assert not state.is_terminal()
            assert rec.view_to_json(rec.parse_view(obj)) == obj, (
                "docs/records.md view is not canonical"
            )


def test_tienlen_doc_lists_every_option_with_its_default():
    text = (ROOT / "docs" / "rules" / "tienlen.md").read_text(encoding="utf-8")
    section = text.split("## Options", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"^\| `([a-z0-9_]+)` \| `([^`]*)` \|", line)
        if m:
            rows[m.group(1)] = json.loads(m.group(2))
    game = make("tienlen", 4)
    specs = {o.name: o.default for o in game.option_specs}
    assert set(rows) == set(specs)
    for name, default in specs.items():
        doc = rows[name]
        if isinstance(default, tuple):
            doc = tuple(doc)
        assert doc == default, f"docs/rules/tienlen.md: default of {name}"


_OWN = [
    "README.md",
    "ARCHITECTURE.md",
    "docs",
    "games",
    "server",
    "proto",
    "models",
    "search",
    "bench",
    "scripts",
    "quansu",
]


@pytest.mark.parametrize("rel", _OWN)
def test_no_pointer_outside_the_project(rel):
    path = ROOT / rel
    files = (
        [path]
        if path.is_file()
        else [p for p in path.rglob("*") if p.suffix in (".py", ".md", ".proto") and p.is_file()]
    )
    for f in files:
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            assert "shared/" not in line, (
                f"{f.relative_to(ROOT)}:{i} points outside the project: {line.strip()}"
            )
