"""Conversion between the API's protobuf messages and the rules layer.

Records and views go through their JSON form: the protobuf JSON mapping of ``quansu.v1.Record`` /
``quansu.v1.View`` *is* a ``quansu-record/1`` / ``quansu-view/1`` object, so
:func:`message_json` turns a message into the dict that :mod:`games.record` parses, and
:func:`parse_json_message` turns a file's dict into a message.  Moves become :class:`Move`
messages through the game's ``describe_move`` and ``move_to_text``.
"""

from __future__ import annotations

import math
import random
from typing import Any, Iterable

from google.protobuf import json_format, struct_pb2
from google.protobuf.message import Message

from quansu.games import record as rec
from quansu.games.base import Game, Move, OptionSpec, State
from quansu.games.cards import card_str
from quansu.games.reasons import current_language
from quansu.games.registry import game_classes, make
from quansu.server.errors import RequestError, clip
from quansu.server.v1 import records_pb2
from quansu.server.v1 import service_pb2 as pb


def message_json(msg: Message) -> dict:
    """The JSON object of a record or view message (field names as in docs/records.md).  A
    message that JSON cannot hold (a NaN or an infinity in ``options``, the only place where
    protobuf JSON has no text for them) raises :class:`games.record.RecordError` naming
    ``options``."""
    try:
        return json_format.MessageToDict(msg, preserving_proto_field_name=True)
    except json_format.SerializeToJsonError as e:
        raise rec.RecordError.of(
            "request.option_not_finite", "options", error=clip(str(e))
        ) from None


# -- size limits (checked before a call is admitted) -------------------------------------------

#: Most entries of a list of cards (a hand, the stock, the set-aside cards, a view's draws).
MAX_CARDS = 52
#: Longest card text ("10H" and the suit symbols fit easily).
MAX_CARD_TEXT = 16
#: Most seats of a deal or a result (every game has at most 4 players).
MAX_SEATS = 8
#: Most transfers of a result.
MAX_TRANSFERS = 64
#: Most options in a record or view, longest option name, most items in one option value.
MAX_OPTIONS = 64
MAX_OPTION_NAME = 64
MAX_OPTION_ITEMS = 32

_MAX_MOVES: dict[tuple[str, int], int] = {}


def max_moves(game_name: str, players: int) -> int:
    """The most moves a game of ``game_name`` with ``players`` players can have (the game's
    ``max_moves``); for an unknown game or player count, the largest of every game's (the
    precise error comes later, from the rules layer)."""
    if not _MAX_MOVES:
        table = {}
        for name, cls in game_classes().items():
            for n in range(cls.min_players, cls.max_players + 1):
                table[(name, n)] = make(name, n).max_moves
        table[("", 0)] = max(table.values())
        _MAX_MOVES.update(table)
    return _MAX_MOVES.get((game_name, players), _MAX_MOVES[("", 0)])


def _text(value: str, field: str, limit: int) -> None:
    if len(value) > limit:
        raise RequestError.of(field, "request.text_too_long", n=len(value), limit=limit)


def _count(values, field: str, limit: int, what: str) -> None:
    if len(values) > limit:
        raise RequestError.of(field, f"request.too_many_{what}", n=len(values), limit=limit)


def _cards_limits(cards, field: str) -> None:
    _count(cards, field, MAX_CARDS, "cards")
    for i, c in enumerate(cards):
        _text(c, f"{field}[{i}]", MAX_CARD_TEXT)


def _finite(x: float, field: str) -> None:
    if not math.isfinite(x):
        raise RequestError.of(field, "request.not_finite", value=x)


def _value_limits(v: struct_pb2.Value, field: str, max_text: int, depth: int = 0) -> None:
    kind = v.WhichOneof("kind")
    if kind == "number_value":
        _finite(v.number_value, field)
    elif kind == "string_value":
        _text(v.string_value, field, max_text)
    elif kind in ("list_value", "struct_value"):
        if depth >= 2:
            raise RequestError.of(field, "request.option_too_deep")
        items = (
            v.list_value.values if kind == "list_value" else list(v.struct_value.fields.values())
        )
        _count(items, field, MAX_OPTION_ITEMS, "items")
        for item in items:
            _value_limits(item, field, max_text, depth + 1)


def check_limits(msg: records_pb2.Record | records_pb2.View, field: str, max_text: int) -> None:
    """Cheap bounds on a record or view message, before anything is converted or replayed:
    every string at most ``max_text`` characters (cards :data:`MAX_CARD_TEXT`), at most the
    game's ``max_moves`` moves (:func:`max_moves`), at most 52 cards in any list, bounded
    options with finite numbers only, a bounded result.  Raises :class:`RequestError` naming the
    field under ``field`` (``view``, ``record``, ``request.view``)."""
    _text(msg.format, f"{field}.format", max_text)
    _text(msg.game, f"{field}.game", max_text)
    limit = max_moves(msg.game, msg.players)
    if len(msg.moves) > limit:
        raise RequestError.of(
            f"{field}.moves",
            "request.too_many_moves",
            n=len(msg.moves),
            limit=limit,
            game=clip(msg.game, 16),
            players=msg.players,
        )
    for i, ev in enumerate(msg.moves):
        if len(ev.move) > max_text:
            _text(ev.move, f"{field}.moves[{i}].move", max_text)
    opts = msg.options.fields
    _count(opts, f"{field}.options", MAX_OPTIONS, "options")
    for name, value in opts.items():
        if len(name) > MAX_OPTION_NAME:
            raise RequestError.of(
                f"{field}.options",
                "request.option_name_too_long",
                n=len(name),
                limit=MAX_OPTION_NAME,
            )
        _value_limits(value, f"{field}.options.{name}", max_text)
    deal = msg.deal
    _count(deal.hands, f"{field}.deal.hands", MAX_SEATS, "hands")
    for s, hand in enumerate(deal.hands):
        _cards_limits(hand.cards, f"{field}.deal.hands[{s}].cards")
    _cards_limits(deal.stock, f"{field}.deal.stock")
    _cards_limits(deal.set_aside, f"{field}.deal.set_aside")
    _text(deal.trump, f"{field}.deal.trump", MAX_CARD_TEXT)
    if isinstance(msg, records_pb2.View):
        _cards_limits(msg.drawn, f"{field}.drawn")
    result = msg.result
    _count(result.net, f"{field}.result.net", MAX_SEATS, "entries")
    for i, x in enumerate(result.net):
        _finite(x, f"{field}.result.net[{i}]")
    _count(result.transfers, f"{field}.result.transfers", MAX_TRANSFERS, "transfers")
    for i, t in enumerate(result.transfers):
        _finite(t.amount, f"{field}.result.transfers[{i}].amount")


def parse_json_message(obj: Any, message: Message, field: str = "") -> Message:
    """Fill ``message`` from a JSON object (a record or view file); a shape the message cannot
    hold raises :class:`RequestError` naming ``field``."""
    if not isinstance(obj, dict):
        raise RequestError.of(field, "request.not_object", type=type(obj).__name__)
    try:
        return json_format.ParseDict(obj, message)
    except json_format.ParseError as e:
        raise RequestError.of(
            field, "request.not_message", message=message.DESCRIPTOR.name, error=str(e)
        ) from None


def record_message(obj: dict) -> records_pb2.Record | records_pb2.View:
    """A record or view JSON object as its message: by its ``format``, or, when that is not a
    known one, by its shape (a view has a ``seat``)."""
    is_view = isinstance(obj, dict) and (
        obj.get("format") == rec.VIEW_FORMAT
        or (obj.get("format") != rec.RECORD_FORMAT and "seat" in obj)
    )
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
        raise RequestError.of("game", "request.record_or_view")
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


def move_label(game: Game, move: Move, lang: str | None = None) -> str:
    """``move`` as a player says it (:meth:`games.base.Game.move_label`) in ``lang`` (None: the
    language in force, :func:`games.reasons.current_language`: the request's)."""
    return game.move_label(move, current_language() if lang is None else lang)


def move_message(game: Game, move: Move, lang: str | None = None) -> pb.Move:
    """The structured and canonical-text form of an engine move, with its ``label``, ``group``
    and ``group_label`` in ``lang`` (None: the language in force, the request's)."""
    lang = current_language() if lang is None else lang
    info = game.describe_move(move)
    group = game.move_group(move)
    out = pb.Move(
        text=game.move_to_text(move),
        kind=info.kind,
        cards=cards_text(info.cards),
        combo=info.combo or "",
        label=game.move_label(move, lang),
        group=group,
        group_label=game.group_label(group, lang),
    )
    if info.target is not None:
        if info.kind == "send":
            out.target_meld = int(info.target)
        else:
            out.target_card = card_str(int(info.target))
    for meld in info.melds:
        out.melds.add(cards=cards_text(meld))
    return out


def legal_move_messages(state: State, lang: str | None = None) -> list[pb.Move]:
    """The legal moves of ``state``'s seat to act in a player's order
    (:meth:`games.base.Game.sort_moves`: grouped by kind in the game's order of groups, low to
    high within a group, Tấn's trumps last) as messages."""
    game = state.game
    moves = game.sort_moves(state.legal_moves(), state.trump_card())
    return [move_message(game, m, lang) for m in moves]


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
    if spec.numeric:
        out.minimum, out.maximum = (float(x) for x in spec.bounds())
    return out
