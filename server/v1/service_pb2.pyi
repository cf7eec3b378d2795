from google.protobuf import struct_pb2 as _struct_pb2
from . import records_pb2 as _records_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Mark(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MARK_UNSPECIFIED: _ClassVar[Mark]
    MARK_BEST: _ClassVar[Mark]
    MARK_GOOD: _ClassVar[Mark]
    MARK_INACCURACY: _ClassVar[Mark]
    MARK_MISTAKE: _ClassVar[Mark]
    MARK_BLUNDER: _ClassVar[Mark]
    MARK_UNCLEAR: _ClassVar[Mark]
MARK_UNSPECIFIED: Mark
MARK_BEST: Mark
MARK_GOOD: Mark
MARK_INACCURACY: Mark
MARK_MISTAKE: Mark
MARK_BLUNDER: Mark
MARK_UNCLEAR: Mark

class Move(_message.Message):
    __slots__ = ("text", "kind", "cards", "target_card", "target_meld", "melds", "combo", "label", "group", "group_label")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    TARGET_CARD_FIELD_NUMBER: _ClassVar[int]
    TARGET_MELD_FIELD_NUMBER: _ClassVar[int]
    MELDS_FIELD_NUMBER: _ClassVar[int]
    COMBO_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    GROUP_LABEL_FIELD_NUMBER: _ClassVar[int]
    text: str
    kind: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    target_card: str
    target_meld: int
    melds: _containers.RepeatedCompositeFieldContainer[Meld]
    combo: str
    label: str
    group: str
    group_label: str
    def __init__(self, text: _Optional[str] = ..., kind: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ..., target_card: _Optional[str] = ..., target_meld: _Optional[int] = ..., melds: _Optional[_Iterable[_Union[Meld, _Mapping]]] = ..., combo: _Optional[str] = ..., label: _Optional[str] = ..., group: _Optional[str] = ..., group_label: _Optional[str] = ...) -> None: ...

class Meld(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class Budget(_message.Message):
    __slots__ = ("iterations", "milliseconds")
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    MILLISECONDS_FIELD_NUMBER: _ClassVar[int]
    iterations: int
    milliseconds: int
    def __init__(self, iterations: _Optional[int] = ..., milliseconds: _Optional[int] = ...) -> None: ...

class Reason(_message.Message):
    __slots__ = ("code", "cards", "combo", "text")
    CODE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    COMBO_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    code: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    combo: str
    text: str
    def __init__(self, code: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ..., combo: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class Suggestion(_message.Message):
    __slots__ = ("move", "visit_share", "visits", "expected_payoff", "prior", "lower_bound", "principal_line", "reasons", "group", "variants", "label")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    VISIT_SHARE_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_PAYOFF_FIELD_NUMBER: _ClassVar[int]
    PRIOR_FIELD_NUMBER: _ClassVar[int]
    LOWER_BOUND_FIELD_NUMBER: _ClassVar[int]
    PRINCIPAL_LINE_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    GROUP_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    move: Move
    visit_share: float
    visits: int
    expected_payoff: float
    prior: float
    lower_bound: float
    principal_line: _containers.RepeatedCompositeFieldContainer[_records_pb2.Event]
    reasons: _containers.RepeatedCompositeFieldContainer[Reason]
    group: int
    variants: _containers.RepeatedCompositeFieldContainer[Move]
    label: str
    def __init__(self, move: _Optional[_Union[Move, _Mapping]] = ..., visit_share: _Optional[float] = ..., visits: _Optional[int] = ..., expected_payoff: _Optional[float] = ..., prior: _Optional[float] = ..., lower_bound: _Optional[float] = ..., principal_line: _Optional[_Iterable[_Union[_records_pb2.Event, _Mapping]]] = ..., reasons: _Optional[_Iterable[_Union[Reason, _Mapping]]] = ..., group: _Optional[int] = ..., variants: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., label: _Optional[str] = ...) -> None: ...

class SuggestRequest(_message.Message):
    __slots__ = ("view", "budget", "top_k", "strength", "seed", "language")
    VIEW_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    TOP_K_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    view: _records_pb2.View
    budget: Budget
    top_k: int
    strength: int
    seed: int
    language: str
    def __init__(self, view: _Optional[_Union[_records_pb2.View, _Mapping]] = ..., budget: _Optional[_Union[Budget, _Mapping]] = ..., top_k: _Optional[int] = ..., strength: _Optional[int] = ..., seed: _Optional[int] = ..., language: _Optional[str] = ...) -> None: ...

class SuggestStreamRequest(_message.Message):
    __slots__ = ("request", "interval_ms")
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    INTERVAL_MS_FIELD_NUMBER: _ClassVar[int]
    request: SuggestRequest
    interval_ms: int
    def __init__(self, request: _Optional[_Union[SuggestRequest, _Mapping]] = ..., interval_ms: _Optional[int] = ...) -> None: ...

class SearchStats(_message.Message):
    __slots__ = ("iterations", "elapsed_ms", "nodes", "max_depth", "stopped_by", "legal_moves", "deep_share", "tree_depth", "improve_worlds", "improve_changed", "hint_worlds")
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_MS_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    MAX_DEPTH_FIELD_NUMBER: _ClassVar[int]
    STOPPED_BY_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    DEEP_SHARE_FIELD_NUMBER: _ClassVar[int]
    TREE_DEPTH_FIELD_NUMBER: _ClassVar[int]
    IMPROVE_WORLDS_FIELD_NUMBER: _ClassVar[int]
    IMPROVE_CHANGED_FIELD_NUMBER: _ClassVar[int]
    HINT_WORLDS_FIELD_NUMBER: _ClassVar[int]
    iterations: int
    elapsed_ms: float
    nodes: int
    max_depth: int
    stopped_by: str
    legal_moves: int
    deep_share: float
    tree_depth: int
    improve_worlds: int
    improve_changed: bool
    hint_worlds: int
    def __init__(self, iterations: _Optional[int] = ..., elapsed_ms: _Optional[float] = ..., nodes: _Optional[int] = ..., max_depth: _Optional[int] = ..., stopped_by: _Optional[str] = ..., legal_moves: _Optional[int] = ..., deep_share: _Optional[float] = ..., tree_depth: _Optional[int] = ..., improve_worlds: _Optional[int] = ..., improve_changed: _Optional[bool] = ..., hint_worlds: _Optional[int] = ...) -> None: ...

class SuggestResponse(_message.Message):
    __slots__ = ("game", "seat", "moves", "chosen", "stats", "model", "final", "advice")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    CHOSEN_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    ADVICE_FIELD_NUMBER: _ClassVar[int]
    game: str
    seat: int
    moves: _containers.RepeatedCompositeFieldContainer[Suggestion]
    chosen: Move
    stats: SearchStats
    model: str
    final: bool
    advice: str
    def __init__(self, game: _Optional[str] = ..., seat: _Optional[int] = ..., moves: _Optional[_Iterable[_Union[Suggestion, _Mapping]]] = ..., chosen: _Optional[_Union[Move, _Mapping]] = ..., stats: _Optional[_Union[SearchStats, _Mapping]] = ..., model: _Optional[str] = ..., final: _Optional[bool] = ..., advice: _Optional[str] = ...) -> None: ...

class Thresholds(_message.Message):
    __slots__ = ("good", "inaccuracy", "mistake")
    GOOD_FIELD_NUMBER: _ClassVar[int]
    INACCURACY_FIELD_NUMBER: _ClassVar[int]
    MISTAKE_FIELD_NUMBER: _ClassVar[int]
    good: float
    inaccuracy: float
    mistake: float
    def __init__(self, good: _Optional[float] = ..., inaccuracy: _Optional[float] = ..., mistake: _Optional[float] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("record", "view", "seats", "budget", "thresholds", "seed", "max_worlds", "language")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    THRESHOLDS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    MAX_WORLDS_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    record: _records_pb2.Record
    view: _records_pb2.View
    seats: _containers.RepeatedScalarFieldContainer[int]
    budget: Budget
    thresholds: Thresholds
    seed: int
    max_worlds: int
    language: str
    def __init__(self, record: _Optional[_Union[_records_pb2.Record, _Mapping]] = ..., view: _Optional[_Union[_records_pb2.View, _Mapping]] = ..., seats: _Optional[_Iterable[int]] = ..., budget: _Optional[_Union[Budget, _Mapping]] = ..., thresholds: _Optional[_Union[Thresholds, _Mapping]] = ..., seed: _Optional[int] = ..., max_worlds: _Optional[int] = ..., language: _Optional[str] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("index", "seat", "played", "best", "loss", "mark", "played_value", "best_value", "legal_moves", "forced", "top", "loss_low", "loss_high", "loss_stderr", "worlds", "stopped_by")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    MARK_FIELD_NUMBER: _ClassVar[int]
    PLAYED_VALUE_FIELD_NUMBER: _ClassVar[int]
    BEST_VALUE_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    LOSS_LOW_FIELD_NUMBER: _ClassVar[int]
    LOSS_HIGH_FIELD_NUMBER: _ClassVar[int]
    LOSS_STDERR_FIELD_NUMBER: _ClassVar[int]
    WORLDS_FIELD_NUMBER: _ClassVar[int]
    STOPPED_BY_FIELD_NUMBER: _ClassVar[int]
    index: int
    seat: int
    played: Move
    best: Move
    loss: float
    mark: Mark
    played_value: float
    best_value: float
    legal_moves: int
    forced: bool
    top: _containers.RepeatedCompositeFieldContainer[Suggestion]
    loss_low: float
    loss_high: float
    loss_stderr: float
    worlds: int
    stopped_by: str
    def __init__(self, index: _Optional[int] = ..., seat: _Optional[int] = ..., played: _Optional[_Union[Move, _Mapping]] = ..., best: _Optional[_Union[Move, _Mapping]] = ..., loss: _Optional[float] = ..., mark: _Optional[_Union[Mark, str]] = ..., played_value: _Optional[float] = ..., best_value: _Optional[float] = ..., legal_moves: _Optional[int] = ..., forced: _Optional[bool] = ..., top: _Optional[_Iterable[_Union[Suggestion, _Mapping]]] = ..., loss_low: _Optional[float] = ..., loss_high: _Optional[float] = ..., loss_stderr: _Optional[float] = ..., worlds: _Optional[int] = ..., stopped_by: _Optional[str] = ...) -> None: ...

class SeatSummary(_message.Message):
    __slots__ = ("seat", "decisions", "total_loss", "average_loss", "accuracy", "worst", "marks", "payoff")
    class MarksEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_LOSS_FIELD_NUMBER: _ClassVar[int]
    AVERAGE_LOSS_FIELD_NUMBER: _ClassVar[int]
    ACCURACY_FIELD_NUMBER: _ClassVar[int]
    WORST_FIELD_NUMBER: _ClassVar[int]
    MARKS_FIELD_NUMBER: _ClassVar[int]
    PAYOFF_FIELD_NUMBER: _ClassVar[int]
    seat: int
    decisions: int
    total_loss: float
    average_loss: float
    accuracy: float
    worst: _containers.RepeatedCompositeFieldContainer[Decision]
    marks: _containers.ScalarMap[str, int]
    payoff: float
    def __init__(self, seat: _Optional[int] = ..., decisions: _Optional[int] = ..., total_loss: _Optional[float] = ..., average_loss: _Optional[float] = ..., accuracy: _Optional[float] = ..., worst: _Optional[_Iterable[_Union[Decision, _Mapping]]] = ..., marks: _Optional[_Mapping[str, int]] = ..., payoff: _Optional[float] = ...) -> None: ...

class AnalyzeResponse(_message.Message):
    __slots__ = ("decision", "summary", "done", "total", "thresholds", "model")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    THRESHOLDS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    decision: Decision
    summary: SeatSummary
    done: int
    total: int
    thresholds: Thresholds
    model: str
    def __init__(self, decision: _Optional[_Union[Decision, _Mapping]] = ..., summary: _Optional[_Union[SeatSummary, _Mapping]] = ..., done: _Optional[int] = ..., total: _Optional[int] = ..., thresholds: _Optional[_Union[Thresholds, _Mapping]] = ..., model: _Optional[str] = ...) -> None: ...

class LegalMovesRequest(_message.Message):
    __slots__ = ("record", "view", "language")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    record: _records_pb2.Record
    view: _records_pb2.View
    language: str
    def __init__(self, record: _Optional[_Union[_records_pb2.Record, _Mapping]] = ..., view: _Optional[_Union[_records_pb2.View, _Mapping]] = ..., language: _Optional[str] = ...) -> None: ...

class LegalMovesResponse(_message.Message):
    __slots__ = ("game", "to_act", "moves", "terminal", "history_length", "result", "hidden")
    GAME_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    TERMINAL_FIELD_NUMBER: _ClassVar[int]
    HISTORY_LENGTH_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    game: str
    to_act: int
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    terminal: bool
    history_length: int
    result: _records_pb2.Result
    hidden: bool
    def __init__(self, game: _Optional[str] = ..., to_act: _Optional[int] = ..., moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., terminal: _Optional[bool] = ..., history_length: _Optional[int] = ..., result: _Optional[_Union[_records_pb2.Result, _Mapping]] = ..., hidden: _Optional[bool] = ...) -> None: ...

class DescribeGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class OptionInfo(_message.Message):
    __slots__ = ("name", "default_value", "description", "choices", "type", "minimum", "maximum")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_VALUE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    MINIMUM_FIELD_NUMBER: _ClassVar[int]
    MAXIMUM_FIELD_NUMBER: _ClassVar[int]
    name: str
    default_value: _struct_pb2.Value
    description: str
    choices: _containers.RepeatedCompositeFieldContainer[_struct_pb2.Value]
    type: str
    minimum: float
    maximum: float
    def __init__(self, name: _Optional[str] = ..., default_value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., description: _Optional[str] = ..., choices: _Optional[_Iterable[_Union[_struct_pb2.Value, _Mapping]]] = ..., type: _Optional[str] = ..., minimum: _Optional[float] = ..., maximum: _Optional[float] = ...) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("name", "title", "min_players", "max_players", "options", "model", "rules_version", "thresholds", "improve_worlds", "improve_candidates", "analysis_worlds", "hint_worlds", "search_anchor", "search_playout", "search_opponent_keys", "search_endgame_cards", "guided_leaf", "guided_prior_temperature", "improve_playout")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    THRESHOLDS_FIELD_NUMBER: _ClassVar[int]
    IMPROVE_WORLDS_FIELD_NUMBER: _ClassVar[int]
    IMPROVE_CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    ANALYSIS_WORLDS_FIELD_NUMBER: _ClassVar[int]
    HINT_WORLDS_FIELD_NUMBER: _ClassVar[int]
    SEARCH_ANCHOR_FIELD_NUMBER: _ClassVar[int]
    SEARCH_PLAYOUT_FIELD_NUMBER: _ClassVar[int]
    SEARCH_OPPONENT_KEYS_FIELD_NUMBER: _ClassVar[int]
    SEARCH_ENDGAME_CARDS_FIELD_NUMBER: _ClassVar[int]
    GUIDED_LEAF_FIELD_NUMBER: _ClassVar[int]
    GUIDED_PRIOR_TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    IMPROVE_PLAYOUT_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    min_players: int
    max_players: int
    options: _containers.RepeatedCompositeFieldContainer[OptionInfo]
    model: str
    rules_version: int
    thresholds: Thresholds
    improve_worlds: int
    improve_candidates: int
    analysis_worlds: int
    hint_worlds: int
    search_anchor: float
    search_playout: str
    search_opponent_keys: str
    search_endgame_cards: int
    guided_leaf: str
    guided_prior_temperature: float
    improve_playout: str
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., options: _Optional[_Iterable[_Union[OptionInfo, _Mapping]]] = ..., model: _Optional[str] = ..., rules_version: _Optional[int] = ..., thresholds: _Optional[_Union[Thresholds, _Mapping]] = ..., improve_worlds: _Optional[int] = ..., improve_candidates: _Optional[int] = ..., analysis_worlds: _Optional[int] = ..., hint_worlds: _Optional[int] = ..., search_anchor: _Optional[float] = ..., search_playout: _Optional[str] = ..., search_opponent_keys: _Optional[str] = ..., search_endgame_cards: _Optional[int] = ..., guided_leaf: _Optional[str] = ..., guided_prior_temperature: _Optional[float] = ..., improve_playout: _Optional[str] = ...) -> None: ...

class Limits(_message.Message):
    __slots__ = ("default_budget", "max_budget", "default_top_k", "max_top_k", "workers", "max_request_bytes")
    DEFAULT_BUDGET_FIELD_NUMBER: _ClassVar[int]
    MAX_BUDGET_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_TOP_K_FIELD_NUMBER: _ClassVar[int]
    MAX_TOP_K_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    MAX_REQUEST_BYTES_FIELD_NUMBER: _ClassVar[int]
    default_budget: Budget
    max_budget: Budget
    default_top_k: int
    max_top_k: int
    workers: int
    max_request_bytes: int
    def __init__(self, default_budget: _Optional[_Union[Budget, _Mapping]] = ..., max_budget: _Optional[_Union[Budget, _Mapping]] = ..., default_top_k: _Optional[int] = ..., max_top_k: _Optional[int] = ..., workers: _Optional[int] = ..., max_request_bytes: _Optional[int] = ...) -> None: ...

class LevelInfo(_message.Message):
    __slots__ = ("level", "iterations", "temperature", "improve_share", "improve_iterations", "anchored")
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    IMPROVE_SHARE_FIELD_NUMBER: _ClassVar[int]
    IMPROVE_ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    ANCHORED_FIELD_NUMBER: _ClassVar[int]
    level: int
    iterations: int
    temperature: float
    improve_share: float
    improve_iterations: int
    anchored: bool
    def __init__(self, level: _Optional[int] = ..., iterations: _Optional[int] = ..., temperature: _Optional[float] = ..., improve_share: _Optional[float] = ..., improve_iterations: _Optional[int] = ..., anchored: _Optional[bool] = ...) -> None: ...

class DescribeGamesResponse(_message.Message):
    __slots__ = ("games", "limits", "api_version", "levels")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    API_VERSION_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameInfo]
    limits: Limits
    api_version: str
    levels: _containers.RepeatedCompositeFieldContainer[LevelInfo]
    def __init__(self, games: _Optional[_Iterable[_Union[GameInfo, _Mapping]]] = ..., limits: _Optional[_Union[Limits, _Mapping]] = ..., api_version: _Optional[str] = ..., levels: _Optional[_Iterable[_Union[LevelInfo, _Mapping]]] = ...) -> None: ...
