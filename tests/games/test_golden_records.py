"""Conformance records: hand-written ``quansu-record/1`` games replayed by the referee.

Each game has a folder ``tests/data/records/<game>/``.  Every ``NAME.json`` there is a record written
by hand from the rules (docs/rules/<game>.md) and the record protocol (docs/records.md); beside it,
``NAME.expect.json`` says what the referee must find:

- ``{"legal": {"K": [...]}, "net": [...]}``: before move ``K`` (an index into ``moves``, as a
  string) the seat to act has exactly these legal moves (canonical text, any order), and the
  settlement's net payoffs per seat are ``net``; ``"to_act": {"K": S}`` optionally names the seat.
- ``{"error": "TEXT"}``: the record is refused, and the error message contains ``TEXT`` (for
  example a record in a former dialect, refused with the move named).

The referee is :func:`quansu.games.record.replay_record` (the code behind ``quansu replay``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quansu.games import GameError
from quansu.games import record as rec
from quansu.games.registry import game_names

DATA = Path(__file__).parents[1] / "data" / "records"


def _cases():
    return sorted(DATA.glob("*/*.expect.json"))


def test_every_game_has_golden_records():
    for name in game_names():
        assert list((DATA / name).glob("*.expect.json")), f"no golden record for {name}"


def test_every_record_has_expectations():
    for path in DATA.glob("*/*.json"):
        if path.name.endswith(".expect.json"):
            continue
        assert path.with_name(path.stem + ".expect.json").exists(), f"{path}: no .expect.json"


@pytest.mark.parametrize("expect_path", _cases(), ids=lambda p: f"{p.parent.name}/{p.name[:-12]}")
def test_golden_record(expect_path: Path):
    record = json.loads(expect_path.with_name(expect_path.name[:-12] + ".json").read_text())
    expect = json.loads(expect_path.read_text())
    assert record["game"] == expect_path.parent.name
    if "error" in expect:
        with pytest.raises(GameError) as err:
            rec.replay_record(record)
        assert expect["error"] in str(err.value)
        return
    seen: dict[str, list[str]] = {}
    to_act: dict[str, int] = {}

    def on_step(i, state, seat, move):
        to_act[str(i)] = state.current_player
        if str(i) in expect.get("legal", {}):
            seen[str(i)] = rec.legal_move_texts(state)

    state = rec.replay_record(record, on_step=on_step)
    assert state.is_terminal(), "a golden record is a finished game"
    for k, moves in expect.get("legal", {}).items():
        assert k in seen, f"moves[{k}] was never reached"
        assert sorted(seen[k]) == sorted(moves), f"legal moves before moves[{k}]"
    for k, seat in expect.get("to_act", {}).items():
        assert k in to_act, f"moves[{k}] was never reached"
        assert to_act[k] == seat, f"seat to act before moves[{k}]"
    assert [float(x) for x in state.returns()] == [float(x) for x in expect["net"]]
