"""The API contract: generated code is up to date, and the protobuf JSON form of the Record and
View messages is exactly a quansu-record/1 / quansu-view/1 file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from google.protobuf import json_format

from quansu.games import record as rec
from quansu.games.registry import game_names
from quansu.server.v1 import records_pb2
from quansu.server.v1 import service_pb2 as pb
from tests.helpers.service import long_record, played_state

ROOT = Path(__file__).resolve().parents[2]


def test_generated_code_is_not_stale():
    pytest.importorskip("grpc_tools", reason="grpcio-tools (dev extra) generates the code")
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_proto", ROOT / "scripts" / "gen_proto.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    stale = gen.stale_files()
    assert not stale, f"regenerate with `python scripts/gen_proto.py`: {stale}"


def test_stale_check_detects_an_edit(tmp_path):
    pytest.importorskip("grpc_tools")
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen_proto", ROOT / "scripts" / "gen_proto.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    out = tmp_path / "v1"
    gen.generate(out)
    assert gen.stale_files(out) == []
    f = out / "service_pb2.py"
    f.write_text(f.read_text() + "\n# edited\n")
    assert gen.stale_files(out) == ["service_pb2.py"]


def _roundtrip(obj: dict, message) -> dict:
    msg = json_format.ParseDict(obj, message)
    return json_format.MessageToDict(msg, preserving_proto_field_name=True)


@pytest.mark.parametrize("game", game_names())
def test_records_and_views_are_their_message_json(game):
    for players in (2, 4):
        for moves in (0, 7, None):
            state = played_state(game, players, seed=players * 10 + (moves or 99), moves=moves)
            record = rec.record_from_state(state)
            assert _roundtrip(record, records_pb2.Record()) == record
            for seat in range(players):
                view = rec.view_at(record, seat)
                assert _roundtrip(view, records_pb2.View()) == view


def test_documented_examples_are_messages():
    files = sorted((ROOT / "docs" / "examples").glob("*.json"))
    if not files:
        pytest.skip("no example files yet (docs/examples/make_examples.py writes them)")
    for path in files:
        obj = json.loads(path.read_text())
        message = records_pb2.View() if obj["format"] == rec.VIEW_FORMAT else records_pb2.Record()
        assert _roundtrip(obj, message) == obj, path.name
        rec.parse_any(obj)


def test_json_field_names_match_the_record_format():
    record = long_record("tienlen", 4)
    msg = json_format.ParseDict(record, records_pb2.Record())
    # the default printer (camelCase elsewhere) keeps the record format's names
    printed = json.loads(json_format.MessageToJson(msg))
    assert set(printed) <= {"format", "game", "players", "options", "deal", "moves", "result"}
    assert set(printed["deal"]) <= {"hands", "stock", "set_aside", "trump", "first"}


def test_service_names_are_the_contract():
    service = pb.DESCRIPTOR.services_by_name["QuansuService"]
    assert service.full_name == "quansu.v1.QuansuService"
    assert {m.name for m in service.methods} >= {
        "Suggest",
        "SuggestStream",
        "Analyze",
        "LegalMoves",
        "DescribeGames",
    }
