from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Hand(_message.Message):
    __slots__ = ("cards", "count")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    count: int
    def __init__(self, cards: _Optional[_Iterable[str]] = ..., count: _Optional[int] = ...) -> None: ...

class Deal(_message.Message):
    __slots__ = ("hands", "stock", "set_aside", "trump", "first")
    HANDS_FIELD_NUMBER: _ClassVar[int]
    STOCK_FIELD_NUMBER: _ClassVar[int]
    SET_ASIDE_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedCompositeFieldContainer[Hand]
    stock: _containers.RepeatedScalarFieldContainer[str]
    set_aside: _containers.RepeatedScalarFieldContainer[str]
    trump: str
    first: int
    def __init__(self, hands: _Optional[_Iterable[_Union[Hand, _Mapping]]] = ..., stock: _Optional[_Iterable[str]] = ..., set_aside: _Optional[_Iterable[str]] = ..., trump: _Optional[str] = ..., first: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("seat", "move")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    move: str
    def __init__(self, seat: _Optional[int] = ..., move: _Optional[str] = ...) -> None: ...

class Transfer(_message.Message):
    __slots__ = ("payer", "payee", "amount")
    PAYER_FIELD_NUMBER: _ClassVar[int]
    PAYEE_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    payer: int
    payee: int
    amount: float
    def __init__(self, payer: _Optional[int] = ..., payee: _Optional[int] = ..., amount: _Optional[float] = ...) -> None: ...

class Result(_message.Message):
    __slots__ = ("net", "transfers")
    NET_FIELD_NUMBER: _ClassVar[int]
    TRANSFERS_FIELD_NUMBER: _ClassVar[int]
    net: _containers.RepeatedScalarFieldContainer[float]
    transfers: _containers.RepeatedCompositeFieldContainer[Transfer]
    def __init__(self, net: _Optional[_Iterable[float]] = ..., transfers: _Optional[_Iterable[_Union[Transfer, _Mapping]]] = ...) -> None: ...

class Record(_message.Message):
    __slots__ = ("format", "game", "players", "options", "deal", "moves", "result")
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    format: str
    game: str
    players: int
    options: _struct_pb2.Struct
    deal: Deal
    moves: _containers.RepeatedCompositeFieldContainer[Event]
    result: Result
    def __init__(self, format: _Optional[str] = ..., game: _Optional[str] = ..., players: _Optional[int] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., deal: _Optional[_Union[Deal, _Mapping]] = ..., moves: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., result: _Optional[_Union[Result, _Mapping]] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("format", "game", "players", "options", "seat", "deal", "drawn", "moves", "result")
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    DRAWN_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    format: str
    game: str
    players: int
    options: _struct_pb2.Struct
    seat: int
    deal: Deal
    drawn: _containers.RepeatedScalarFieldContainer[str]
    moves: _containers.RepeatedCompositeFieldContainer[Event]
    result: Result
    def __init__(self, format: _Optional[str] = ..., game: _Optional[str] = ..., players: _Optional[int] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., seat: _Optional[int] = ..., deal: _Optional[_Union[Deal, _Mapping]] = ..., drawn: _Optional[_Iterable[str]] = ..., moves: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., result: _Optional[_Union[Result, _Mapping]] = ...) -> None: ...
