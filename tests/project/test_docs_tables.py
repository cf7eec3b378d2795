"""The docs' tables of figures are rendered from bench/results/*.json (bench/tables.py): a table
edited by hand, or a results file changed without regenerating the docs, fails here."""

from __future__ import annotations

import json

import pytest

from quansu.bench import tables


def test_every_table_in_the_docs_is_its_results_file():
    found = 0
    for doc in tables.documents():
        text = doc.read_text(encoding="utf-8")
        found += len(tables.REGION.findall(text))
        new, changed = tables.regenerate(text)
        assert changed == [], (
            f"{doc}: tables {changed} differ from bench/results (run python -m quansu.bench.tables)"
        )
    assert found >= 4


def test_every_results_file_of_a_table_names_its_run():
    for doc in tables.documents():
        for m in tables.REGION.finditer(doc.read_text(encoding="utf-8")):
            data = json.loads((tables.RESULTS / f"{m['name']}.json").read_text(encoding="utf-8"))
            assert data["date"][:2] == "20" and data["commit"] and data["command"]
            assert data.get("machine"), m["name"]


def test_a_region_is_rewritten_and_a_bad_file_is_named(tmp_path):
    (tmp_path / "t.json").write_text(
        json.dumps(
            {
                "date": "2026-12-05",
                "commit": "abc1234",
                "command": "python -m x",
                "machine": "m",
                "table": {"columns": ["game", "ms"], "rows": [["Tấn", 27], ["a|b", "1"]]},
            }
        )
    )
    doc = "intro\n<!-- table: t -->\nold\n<!-- /table -->\nend\n"
    new, changed = tables.regenerate(doc, tmp_path)
    assert changed == ["t"]
    assert new == (
        "intro\n<!-- table: t -->\n| game | ms |\n|---|---|\n| Tấn | 27 |\n"
        "| a\\|b | 1 |\n\nMeasured 2026-12-05 at abc1234: `python -m x`\n"
        "<!-- /table -->\nend\n"
    )
    assert tables.regenerate(new, tmp_path) == (new, [])
    (tmp_path / "t.json").write_text(
        json.dumps(
            {
                "date": "d",
                "commit": "c",
                "command": "x",
                "table": {"columns": ["a", "b"], "rows": [["1"]]},
            }
        )
    )
    with pytest.raises(tables.TableError, match=r"rows\[0\] has 1 cells, 2 columns"):
        tables.regenerate(doc, tmp_path)
    with pytest.raises(tables.TableError, match="no such results file"):
        tables.regenerate(doc.replace("table: t", "table: missing"), tmp_path)
