"""Conversion between the API's protobuf messages and the rules layer.

Records and views go through their JSON form: the protobuf JSON mapping of ``quansu.v1.Record`` /
``quansu.v1.View`` *is* a ``quansu-record/1`` / ``quansu-view/1`` object, so
:func:`message_json` turns a message into the dict that :mod:`games.record` parses, and
:func:`parse_json_message` turns a file's dict into a message.  Moves become :class:`Move`
messages through the game's ``describe_move`` and ``move_to_text``.
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from google.protobuf import json_format, struct_pb2
from google.protobuf.message import Message

from quansu.games import record as rec
from quansu.games.base import Game, Move, OptionSpec, State
from quansu.games.cards import card_str
from quansu.server.errors import RequestError
from quansu.server.v1 import records_pb2, service_pb2 as pb


def message_json(msg: Message) -> dict:
    """The JSON object of a record or view message (field names as in docs/records.md)."""
    return json_format.MessageToDict(msg, preserving_proto_field_name=True)


def parse_json_message(obj: Any, message: Message, field: str = "") -> Message:
    """Fill ``message`` from a JSON object (a record or view file); a shape the message cannot
    hold raises :class:`RequestError` naming ``field``."""
    if not isinstance(obj, dict):
        raise RequestError(field, f"expected a JSON object, got {type(obj).__name__}")
    try:
        return json_format.ParseDict(obj, message)
    except json_format.ParseError as e:
        raise RequestError(field, f"not a valid {message.DESCRIPTOR.name}: {e}") from None


def record_message(obj: dict) -> records_pb2.Record | records_pb2.View:
    """A record or view JSON object as its message: by its ``format``, or, when that is not a
    known one, by its shape (a view has a ``seat``)."""
    is_view = isinstance(obj, dict) and (obj.get("format") == rec.VIEW_FORMAT or (
        obj.get("format") != rec.RECORD_FORMAT and "seat" in obj))
    if is_view:
        return parse_json_message(obj, records_pb2.View(), "view")
    return parse_json_message(obj, records_pb2.Record(), "record")


def parse_view(view: records_pb2.View) -> rec.View:
    """A validated :class:`games.record.View` (rules errors name ``view``'s fields)."""
    return rec.parse_view(message_json(view))


def parse_record(record: records_pb2.Record) -> rec.Record:
    return rec.parse_record(message_json(record))


def source_of(request: Message) -> tuple[str, Message]:
    """``("record" | "view", message)`` of a request's ``game`` oneof."""
    which = request.WhichOneof("game")
    if which is None:
        raise RequestError("game", "expected a record or a view")
    return which, getattr(request, which)


def parse_source(request: Message) -> tuple[str, rec.Record | rec.View]:
    """Parse the record or view of an Analyze/LegalMoves request; errors are reported under the
    oneof member's name (the caller adds it as the field prefix)."""
    which, msg = source_of(request)
    parsed = parse_record(msg) if which == "record" else parse_view(msg)
    return which, parsed


def replay(parsed: rec.Record | rec.View, rng: random.Random) -> State:
    """The state after a record's moves, or a state consistent with a view drawn with ``rng``."""
    if isinstance(parsed, rec.View):
        return rec.replay_view(parsed, rng)
    return rec.replay_record(parsed)


# -- moves -------------------------------------------------------------------------------------

def cards_text(cards: Iterable[int]) -> list[str]:
    return [card_str(c) for c in cards]


def move_message(game: Game, move: Move) -> pb.Move:
    """The structured and canonical-text form of an engine move."""
    info = game.describe_move(move)
    out = pb.Move(text=game.move_to_text(move), kind=info.kind, cards=cards_text(info.cards),
                  combo=info.combo or "")
    if info.target is not None:
        if info.kind == "send":
            out.target_meld = int(info.target)
        else:
            out.target_card = card_str(int(info.target))
    for meld in info.melds:
        out.melds.add(cards=cards_text(meld))
    return out


def event_message(game: Game, seat: int, move: Move) -> records_pb2.Event:
    return records_pb2.Event(seat=seat, move=game.move_to_text(move))


def result_message(state: State) -> records_pb2.Result:
    """The settlement of a finished state."""
    out = records_pb2.Result(net=[float(x) for x in state.returns()])
    for payer, payee, amount in state.settlement():
        out.transfers.add(payer=payer, payee=payee, amount=float(amount))
    return out


# -- options -----------------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def value_message(value: Any) -> struct_pb2.Value:
    """A JSON-like Python value as a ``google.protobuf.Value``."""
    out = struct_pb2.Value()
    value = _plain(value)
    if value is None:
        out.null_value = struct_pb2.NULL_VALUE
    elif isinstance(value, bool):
        out.bool_value = value
    elif isinstance(value, (int, float)):
        out.number_value = float(value)
    elif isinstance(value, str):
        out.string_value = value
    elif isinstance(value, list):
        out.list_value.values.extend(value_message(v) for v in value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.struct_value.fields[str(k)].CopyFrom(value_message(v))
    else:
        out.string_value = str(value)
    return out


def option_type_name(spec: OptionSpec) -> str:
    t = spec.type if spec.type is not object else type(spec.default)
    return {bool: "bool", int: "int", float: "float", str: "str", tuple: "tuple"}.get(t, t.__name__)


def option_message(spec: OptionSpec) -> pb.OptionInfo:
    out = pb.OptionInfo(name=spec.name, description=spec.description, type=option_type_name(spec))
    out.default_value.CopyFrom(value_message(spec.default))
    for c in spec.choices or ():
        out.choices.append(value_message(c))
    return out
