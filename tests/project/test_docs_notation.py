"""docs/notation.md says what the move readers accept and how moves print; these tests hold it to that.

The examples are read from the document itself, so a change to the code or to the page that makes
them disagree fails here:

- every entry of the "example" column of the per-game tables ("## Moves of each game") is canonical:
  ``move_to_text(parse_move(x)) == x``;
- every row of "## Examples" reads its second column and prints its third;
- every row of "## Parsing errors" is refused with a ``MoveParseError`` whose message holds the
  last column.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from quansu.games import MoveParseError
from quansu.games.registry import game_names, make

DOC = Path(__file__).resolve().parents[2] / "docs" / "notation.md"
_CODE = re.compile(r"`([^`]*)`")


def _section(text: str, heading: str) -> str:
    """The body of the ``## heading`` section (up to the next ``## `` heading)."""
    m = re.search(rf"^## {re.escape(heading)}\s*$", text, re.M)
    assert m, f"docs/notation.md has no '## {heading}' section"
    rest = text[m.end() :]
    end = re.search(r"^## ", rest, re.M)
    return rest[: end.start()] if end else rest


def _rows(block: str) -> list[list[str]]:
    """The body rows of the markdown tables in ``block``, as raw cells (header and rule rows left out)."""
    rows = []
    lines = block.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("|"):
            continue
        if i + 1 < len(lines) and re.match(r"^\|[-| ]+\|$", lines[i + 1]):
            continue  # a header row
        if re.match(r"^\|[-| ]+\|$", line):
            continue
        rows.append([c for c in line.strip()[1:-1].split("|")])
    return rows


def _code(cell: str) -> str:
    m = _CODE.search(cell)
    assert m, f"expected a `code` entry in table cell {cell!r}"
    return m.group(1)


TEXT = DOC.read_text(encoding="utf-8")


def _per_game_examples() -> list[tuple[str, str]]:
    body = _section(TEXT, "Moves of each game")
    out = []
    parts = re.split(r"^### ", body, flags=re.M)[1:]
    for part in parts:
        title = part.splitlines()[0]
        game = _code(title)
        for cells in _rows(part):
            out.append((game, _code(cells[1])))
    return out


def _examples() -> list[tuple[str, str, str]]:
    return [(_code(c[0]), _code(c[1]), _code(c[2])) for c in _rows(_section(TEXT, "Examples"))]


def _errors() -> list[tuple[str, dict, str, str]]:
    return [
        (_code(c[0]), json.loads(_code(c[1])), _code(c[2]), _code(c[3]))
        for c in _rows(_section(TEXT, "Parsing errors"))
    ]


def test_doc_has_examples_for_every_game():
    per_game = {g for g, _ in _per_game_examples()}
    examples = {g for g, _, _ in _examples()}
    errors = {g for g, _, _, _ in _errors()}
    for name in game_names():
        assert name in per_game, f"docs/notation.md: no move table for {name}"
        assert name in examples, f"docs/notation.md: no '## Examples' row for {name}"
        assert name in errors, f"docs/notation.md: no '## Parsing errors' row for {name}"


@pytest.mark.parametrize("game,text", _per_game_examples(), ids=lambda x: str(x))
def test_table_examples_are_canonical(game, text):
    g = make(game, 4, {})
    assert g.move_to_text(g.parse_move(text)) == text


@pytest.mark.parametrize("game,written,printed", _examples(), ids=lambda x: str(x))
def test_examples_read_and_print(game, written, printed):
    g = make(game, 4, {})
    move = g.parse_move(written)
    assert g.move_to_text(move) == printed
    assert g.parse_move(printed) == move


@pytest.mark.parametrize("game,options,text,fragment", _errors(), ids=lambda x: str(x))
def test_parsing_errors(game, options, text, fragment):
    g = make(game, 4, options)
    with pytest.raises(MoveParseError) as err:
        g.parse_move(text)
    assert fragment in str(err.value)


def test_doc_card_order_claims():
    """The suit order and the three rank orders the page lists are the code's printing orders."""
    from quansu.games import cards as C

    assert C.SUITS == "SCDH"
    assert C.RANKS == "3456789TJQKA2"
    phom = "".join(sorted(C.RANKS, key=lambda r: C.PHOM_RANK[C.RANKS.index(r)]))
    tan = "".join(sorted(C.RANKS, key=lambda r: C.TAN_RANK[C.RANKS.index(r)]))
    section = _section(TEXT, "Cards")
    for game, order in (("Tiến lên", C.RANKS), ("Phỏm", phom), ("Tấn", tan)):
        line = next(ln for ln in section.splitlines() if ln.startswith("|") and game in ln)
        assert " ".join(order) in " ".join(_CODE.findall(line)), (
            f"{game} rank order in docs/notation.md"
        )


def test_doc_sends_readers_nowhere_outside_the_project():
    assert "shared/" not in TEXT
