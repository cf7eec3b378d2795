"""Game records (``quansu-record/1``) and seat views (``quansu-view/1``): the JSON interchange format.

The format is defined in ``docs/records.md``; this module reads, validates, writes and replays it
for every registered game through the common interface of :mod:`games.base` only (no concrete game is
imported).  JSON values are plain ``dict``/``list``/``str``/``int``/``float`` as produced by
:func:`json.loads`.

Layers:

* parsing: :func:`parse_record` / :func:`parse_view` turn a JSON object into a :class:`Record` /
  :class:`View` (the game built with its options, the deal or the seat's knowledge, the moves parsed),
  checking the shape, the cards, the options and duplicates; no move is played yet.
* writing: :func:`record_to_json` / :func:`view_to_json`; :func:`record_from_state` turns a
  (finished or running) :class:`State` into a record; :func:`view_at` cuts the view of one seat after
  the first ``K`` moves of a record.
* replay: :func:`replay_record` plays a record through the engine (the referee) and checks its
  ``result``; :func:`replay_view` rebuilds one seat's information state with ``Game.deal_for_view``
  (the other seats' hidden cards, and their draws, are drawn with the given ``random.Random``).

Errors are :class:`games.base.GameError` subclasses whose message starts with the field at fault:

* ``moves[17]: ...`` (:class:`~games.base.IllegalMoveError` or :class:`~games.base.MoveParseError`):
  the first impossible move and the engine's reason;
* ``deal.hands[1]: ...`` / ``deal.stock: ...`` (:class:`~games.base.DealError`): a bad deal, a card
  dealt twice, a bad card;
* ``options: unknown option 'x'; ...`` (:class:`~games.base.OptionError`);
* ``result: ...`` (:class:`ResultError`): a result that disagrees with the engine's settlement;
* any other malformed field (:class:`RecordError`).

Written files use a canonical form, the one the protobuf JSON mapping of ``proto/quansu/v1/records.proto``
prints (so a file and its message's JSON are equal): ``options`` always present (only the options that
differ from the defaults, maybe ``{}``); empty lists left out (``moves``, ``deal.stock``,
``deal.set_aside``, a view's ``drawn``, ``result.transfers``); ``deal.trump`` only when the game has
one; ``result`` only when the game is over.  Readers accept an absent list as empty and an absent
``deal.first`` as 0.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from quansu.games.base import (
    TERMINAL,
    Deal,
    DealError,
    Game,
    GameError,
    IllegalMoveError,
    Move,
    MoveParseError,
    OptionError,
    State,
)
from quansu.games.cards import CardError, card_str, parse_card
from quansu.games.registry import make

RECORD_FORMAT = "quansu-record/1"
VIEW_FORMAT = "quansu-view/1"

#: Absolute tolerance when comparing a record's ``result`` amounts with the settlement (bets).
RESULT_TOLERANCE = 1e-9

_RECORD_KEYS = ("format", "game", "players", "options", "deal", "moves", "result")
_VIEW_KEYS = ("format", "game", "players", "seat", "options", "deal", "drawn", "moves", "result")
_DEAL_KEYS = ("hands", "stock", "set_aside", "trump", "first")
_VIEW_DEAL_KEYS = ("hands", "trump", "first")


class RecordError(GameError):
    """A record or view whose shape is wrong (missing field, wrong type, bad format string).
    The message starts with the field at fault, e.g. ``players: expected an integer, got "4"``."""


class ResultError(RecordError):
    """A record's ``result`` disagrees with the settlement the engine computes for its moves."""


@dataclass(frozen=True)
class Record:
    """A parsed full record.

    ``game``: the game at the record's player count and options.  ``deal``: all chance of the game.
    ``moves``: ``(seat, move)`` decisions in order (engine move values).  ``result``: ``None`` or
    ``{"net": [bets per seat] or None, "transfers": [(payer, payee, amount)] or None}``.
    """

    game: Game
    deal: Deal
    moves: tuple[tuple[int, Move], ...]
    result: dict | None = None


@dataclass(frozen=True)
class View:
    """A parsed seat view: what ``seat`` knows.

    ``hand``: ``seat``'s cards as dealt (card ids).  ``counts[s]``: how many cards seat s was dealt
    (``counts[seat] == len(hand)``).  ``first``: the seat that acted first.  ``trump``: Tấn's face-up
    card as dealt, else ``None``.  ``drawn``: the cards ``seat`` drew from the stock, in order.
    ``moves``: the public history ``(seat, move)``.  ``result``: as in :class:`Record`.
    """

    game: Game
    seat: int
    hand: tuple[int, ...]
    counts: tuple[int, ...]
    first: int
    trump: int | None
    drawn: tuple[int, ...]
    moves: tuple[tuple[int, Move], ...]
    result: dict | None = None


# ---------------------------------------------------------------------------------------------
# small helpers


def _type_name(value: Any) -> str:
    return (
        json.dumps(value, ensure_ascii=False)
        if isinstance(value, (str, int, float, bool)) or value is None
        else type(value).__name__
    )


def _require_int(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError.of("expected_integer", field, got=_type_name(value))
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise RecordError.of("out_of_range", field, value=value, lo=lo, hi=hi)
    return value


def _require_list(value: Any, field: str) -> list:
    if not isinstance(value, list):
        raise RecordError.of("expected_list", field, got=_type_name(value))
    return value


def _require_dict(value: Any, field: str) -> dict:
    if not isinstance(value, dict):
        raise RecordError.of("expected_object", field, got=_type_name(value))
    return value


def _check_keys(obj: Mapping, allowed: Sequence[str], where: str) -> None:
    for k in obj:
        if k not in allowed:
            prefix = f"{where}." if where else ""
            raise RecordError.of("unknown_field", f"{prefix}{k}", allowed=", ".join(allowed))


def _card(value: Any, field: str) -> int:
    try:
        return parse_card(value)
    except CardError as e:
        raise DealError.wrap(e, field) from None


def _cards(value: Any, field: str) -> list[int]:
    return [_card(c, f"{field}[{i}]") for i, c in enumerate(_require_list(value, field))]


def _num(x: float) -> int | float:
    """A number for JSON: integral floats become ints (``1.0`` -> ``1``)."""
    if isinstance(x, float) and x.is_integer() and abs(x) < 2**53:
        return int(x)
    return x


def _json_value(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_json_value(x) for x in v]
    if isinstance(v, float):
        return _num(v)
    return v


def _build_game(obj: Mapping) -> Game:
    name = obj.get("game")
    if not isinstance(name, str):
        raise RecordError.of("expected_game_name", "game", got=_type_name(name))
    players = _require_int(obj.get("players"), "players")
    options = obj.get("options", {})
    if options is None:
        options = {}
    _require_dict(options, "options")
    try:
        return make(name, players, options)
    except OptionError as e:
        raise OptionError.wrap(e, "options") from None
    except GameError as e:
        field = "game" if "unknown game" in str(e) else "players"
        raise RecordError.wrap(e, field) from None


def _parse_moves(game: Game, value: Any) -> tuple[tuple[int, Move], ...]:
    if value is None:
        value = []
    _require_list(value, "moves")
    out = []
    n = game.num_players
    for i, m in enumerate(value):
        field = f"moves[{i}]"
        _require_dict(m, field)
        _check_keys(m, ("seat", "move"), field)
        if "seat" not in m:
            raise RecordError.of("missing", f"{field}.seat")
        seat = m["seat"]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise RecordError.of("expected_seat", f"{field}.seat", n=n - 1, got=_type_name(seat))
        text = m.get("move")
        if not isinstance(text, str):
            raise RecordError.of("expected_move_text", f"{field}.move", got=_type_name(text))
        try:
            move = game.parse_move(text)
        except GameError as e:
            raise MoveParseError.wrap(e, field) from None
        out.append((seat, move))
    return tuple(out)


def _parse_result(game: Game, value: Any) -> dict | None:
    if value is None:
        return None
    _require_dict(value, "result")
    _check_keys(value, ("net", "transfers"), "result")
    n = game.num_players
    net = value.get("net")
    if net is not None:
        _require_list(net, "result.net")
        if len(net) != n:
            raise RecordError.of("net_entries", "result.net", n_net=len(net), n=n)
        for s, x in enumerate(net):
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
                raise RecordError.of("expected_number", f"result.net[{s}]", got=_type_name(x))
        net = [float(x) for x in net]
    transfers = value.get("transfers")
    if transfers is not None:
        _require_list(transfers, "result.transfers")
        parsed = []
        for i, t in enumerate(transfers):
            field = f"result.transfers[{i}]"
            _require_dict(t, field)
            _check_keys(t, ("payer", "payee", "amount"), field)
            payer = _require_int(t.get("payer"), f"{field}.payer", 0, n - 1)
            payee = _require_int(t.get("payee"), f"{field}.payee", 0, n - 1)
            amount = t.get("amount")
            if (
                isinstance(amount, bool)
                or not isinstance(amount, (int, float))
                or not math.isfinite(amount)
            ):
                raise RecordError.of("expected_number", f"{field}.amount", got=_type_name(amount))
            parsed.append((payer, payee, float(amount)))
        transfers = parsed
    if net is None and transfers is None:
        raise RecordError.of("result_empty", "result")
    return {"net": net, "transfers": transfers}


def _check_format(obj: Any, expected: str) -> None:
    _require_dict(obj, "view" if expected == VIEW_FORMAT else "record")
    fmt = obj.get("format")
    if fmt != expected:
        raise RecordError.of(
            "format_expected", "format", expected=json.dumps(expected), got=_type_name(fmt)
        )


# ---------------------------------------------------------------------------------------------
# parsing


def parse_record(obj: Any) -> Record:
    """Validate the shape of a ``quansu-record/1`` JSON object and parse it (nothing is played yet).

    Checks: the format string, known fields, the game, player count and options, every card, that no
    card is dealt twice (hands, stock, set-aside cards and trump together), ``deal.first`` in range,
    every move's seat and text, and the ``result`` shape.  Raises the errors listed in the module doc.
    """
    _check_format(obj, RECORD_FORMAT)
    _check_keys(obj, _RECORD_KEYS, "")
    game = _build_game(obj)
    n = game.num_players
    deal_obj = _require_dict(obj.get("deal"), "deal")
    _check_keys(deal_obj, _DEAL_KEYS, "deal")
    hands_obj = _require_list(deal_obj.get("hands"), "deal.hands")
    if len(hands_obj) != n:
        raise DealError.of("hands_for_players", "deal.hands", n_hands_obj=len(hands_obj), n=n)
    where: dict[int, str] = {}

    def place(card: int, field: str) -> None:
        if card in where:
            raise DealError.of("dealt_twice_also_in", field, card=card_str(card), where=where[card])
        where[card] = field

    hands = []
    for s, h in enumerate(hands_obj):
        field = f"deal.hands[{s}]"
        _require_dict(h, field)
        _check_keys(h, ("cards",), field)
        if "cards" not in h:
            raise RecordError.of("record_hand_missing", f"{field}.cards")
        cards = _cards(h["cards"], f"{field}.cards")
        for c in cards:
            place(c, field)
        hands.append(tuple(cards))
    stock = _cards(deal_obj.get("stock") or [], "deal.stock")
    for c in stock:
        place(c, "deal.stock")
    set_aside = _cards(deal_obj.get("set_aside") or [], "deal.set_aside")
    for c in set_aside:
        place(c, "deal.set_aside")
    trump = deal_obj.get("trump")
    if trump is not None:
        trump = _card(trump, "deal.trump")
        if trump in where and where[trump] != "deal.stock":
            # the face-up card lies under the stock: an engine may list it in the stock as well
            raise DealError.of(
                "dealt_twice_also_in", "deal.trump", card=card_str(trump), where=where[trump]
            )
    first = deal_obj.get("first", 0)
    first = _require_int(first, "deal.first")
    if not 0 <= first < n:
        raise DealError.of("first_out_of_range", "deal.first", first=first, n=n - 1)
    deal = Deal(
        hands=tuple(hands), first=first, stock=tuple(stock), set_aside=tuple(set_aside), trump=trump
    )
    moves = _parse_moves(game, obj.get("moves"))
    result = _parse_result(game, obj.get("result"))
    return Record(game=game, deal=deal, moves=moves, result=result)


def parse_view(obj: Any) -> View:
    """Validate the shape of a ``quansu-view/1`` JSON object and parse it (nothing is played yet).

    The seat's own entry of ``deal.hands`` must list its cards; every other entry gives only a
    ``count``.  A view never holds ``deal.stock`` or ``deal.set_aside``.
    """
    _check_format(obj, VIEW_FORMAT)
    _check_keys(obj, _VIEW_KEYS, "")
    game = _build_game(obj)
    n = game.num_players
    seat = obj.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise RecordError.of("expected_seat", "seat", n=n - 1, got=_type_name(seat))
    deal_obj = _require_dict(obj.get("deal"), "deal")
    for k in ("stock", "set_aside"):
        if k in deal_obj:
            raise RecordError.of("view_hides_cards", f"deal.{k}", kind=k.replace("_", "-"))
    _check_keys(deal_obj, _VIEW_DEAL_KEYS, "deal")
    hands_obj = _require_list(deal_obj.get("hands"), "deal.hands")
    if len(hands_obj) != n:
        raise DealError.of("hands_for_players", "deal.hands", n_hands_obj=len(hands_obj), n=n)
    hand: list[int] = []
    counts = []
    for s, h in enumerate(hands_obj):
        field = f"deal.hands[{s}]"
        _require_dict(h, field)
        if s == seat:
            _check_keys(h, ("cards",), field)
            if "cards" not in h:
                raise RecordError.of("view_hand_missing", f"{field}.cards")
            hand = _cards(h["cards"], f"{field}.cards")
            seen: dict[int, int] = {}
            for i, c in enumerate(hand):
                if c in seen:
                    raise DealError.of("dealt_twice", field, card=card_str(c))
                seen[c] = i
            counts.append(len(hand))
        else:
            if "cards" in h:
                raise RecordError.of("view_other_hand", f"{field}.cards", s=s)
            _check_keys(h, ("count",), field)
            counts.append(_require_int(h.get("count"), f"{field}.count", 0, 52))
    trump = deal_obj.get("trump")
    if trump is not None:
        trump = _card(trump, "deal.trump")
        if trump in hand:
            raise DealError.of("trump_dealt_twice", "deal.trump", card=card_str(trump), seat=seat)
    first = _require_int(deal_obj.get("first", 0), "deal.first")
    if not 0 <= first < n:
        raise DealError.of("first_out_of_range", "deal.first", first=first, n=n - 1)
    drawn = _cards(obj.get("drawn") or [], "drawn")
    moves = _parse_moves(game, obj.get("moves"))
    result = _parse_result(game, obj.get("result"))
    return View(
        game=game,
        seat=seat,
        hand=tuple(hand),
        counts=tuple(counts),
        first=first,
        trump=trump,
        drawn=tuple(drawn),
        moves=moves,
        result=result,
    )


def parse_any(obj: Any) -> Record | View:
    """Parse a record or a view, by its ``format``."""
    _require_dict(obj, "record")
    if obj.get("format") == VIEW_FORMAT:
        return parse_view(obj)
    if obj.get("format") == RECORD_FORMAT:
        return parse_record(obj)
    raise RecordError.of(
        "format_expected_either",
        "format",
        record=json.dumps(RECORD_FORMAT),
        view=json.dumps(VIEW_FORMAT),
        got=_type_name(obj.get("format")),
    )


# ---------------------------------------------------------------------------------------------
# writing


def _moves_json(game: Game, moves: Sequence[tuple[int, Move]]) -> list[dict]:
    return [{"seat": s, "move": game.move_to_text(m)} for s, m in moves]


def result_json(state: State) -> dict:
    """``{"net": [bets per seat], "transfers": [{"payer", "payee", "amount"}]}`` of a finished state."""
    return {
        "net": [_num(float(x)) for x in state.returns()],
        "transfers": [
            {"payer": p, "payee": q, "amount": _num(float(a))} for p, q, a in state.settlement()
        ],
    }


def _result_obj(result: dict | None) -> dict | None:
    if result is None:
        return None
    out: dict[str, Any] = {}
    if result.get("net") is not None:
        out["net"] = [_num(x) for x in result["net"]]
    if result.get("transfers"):
        out["transfers"] = [
            {"payer": p, "payee": q, "amount": _num(a)} for p, q, a in result["transfers"]
        ]
    return out


def _options_json(game: Game) -> dict:
    return {k: _json_value(v) for k, v in game.options_diff().items()}


def deal_json(deal: Deal) -> dict:
    """The ``deal`` object of a record (every seat's cards, stock, set-aside cards, trump, first)."""
    out: dict[str, Any] = {"hands": [{"cards": [card_str(c) for c in h]} for h in deal.hands]}
    if deal.stock:
        out["stock"] = [card_str(c) for c in deal.stock]
    if deal.set_aside:
        out["set_aside"] = [card_str(c) for c in deal.set_aside]
    if deal.trump is not None:
        out["trump"] = card_str(deal.trump)
    out["first"] = deal.first
    return out


def _check_deal_writable(deal: Deal) -> None:
    if deal.extra:
        keys = ", ".join(k for k, _ in deal.extra)
        raise RecordError.of("deal_extra_no_field", "deal", keys=keys, RECORD_FORMAT=RECORD_FORMAT)


def record_to_json(record: Record) -> dict:
    """The ``quansu-record/1`` JSON object of a :class:`Record` (canonical move text)."""
    _check_deal_writable(record.deal)
    game = record.game
    out: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "game": game.name,
        "players": game.num_players,
        "options": _options_json(game),
        "deal": deal_json(record.deal),
    }
    if record.moves:
        out["moves"] = _moves_json(game, record.moves)
    if record.result is not None:
        out["result"] = _result_obj(record.result)
    return out


def view_to_json(view: View) -> dict:
    """The ``quansu-view/1`` JSON object of a :class:`View`."""
    game = view.game
    hands = [
        {"cards": [card_str(c) for c in view.hand]} if s == view.seat else {"count": k}
        for s, k in enumerate(view.counts)
    ]
    deal: dict[str, Any] = {"hands": hands}
    if view.trump is not None:
        deal["trump"] = card_str(view.trump)
    deal["first"] = view.first
    out: dict[str, Any] = {
        "format": VIEW_FORMAT,
        "game": game.name,
        "players": game.num_players,
        "seat": view.seat,
        "options": _options_json(game),
        "deal": deal,
    }
    if view.drawn:
        out["drawn"] = [card_str(c) for c in view.drawn]
    if view.moves:
        out["moves"] = _moves_json(game, view.moves)
    if view.result is not None:
        out["result"] = _result_obj(view.result)
    return out


def record_from_state(state: State) -> dict:
    """The ``quansu-record/1`` JSON object of a game (finished or not): options, deal, every move so
    far, and the result when the game is over.  This is what ``quansu arena --records`` saves."""
    game = state.game
    result = None
    if state.is_terminal():
        res = result_json(state)
        result = {
            "net": [float(x) for x in res["net"]],
            "transfers": [(t["payer"], t["payee"], float(t["amount"])) for t in res["transfers"]],
        }
    return record_to_json(
        Record(game=game, deal=state.deal, moves=tuple(state.history), result=result)
    )


# ---------------------------------------------------------------------------------------------
# replay


class _DrawTracker:
    """Follows which stock cards enter each seat's hand, in order (the seat's ``drawn`` list).

    A card counts as drawn by seat s when it was in the ``"stock"`` zone before a step and is in
    ``hand{s}`` after it, unless in that step seat s also put cards into the stock (an exchange,
    such as swapping a trump for Tấn's face-up card); cards drawn in the same step are ordered by
    their place in ``deal.stock``.
    Cards in a hand at the start that were not dealt to it but lie in ``deal.stock`` count as drawn
    before the first move.
    """

    def __init__(self, state: State):
        self.n = state.game.num_players
        self.order = {c: i for i, c in enumerate(state.deal.stock)}
        self.drawn: list[list[int]] = [[] for _ in range(self.n)]
        stock_all = 0
        for c in self.order:
            stock_all |= 1 << c
        zones = state.zones()
        for s in range(self.n):
            dealt = 0
            for c in state.deal.hands[s]:
                dealt |= 1 << c
            self._add(s, zones.get(f"hand{s}", 0) & ~dealt & stock_all)
        self._stock = 0
        self._hands: list[int] = []

    def _add(self, seat: int, mask: int) -> None:
        cards = [c for c in range(52) if mask >> c & 1]
        cards.sort(key=lambda c: self.order.get(c, 52 + c))
        self.drawn[seat].extend(cards)

    def before(self, state: State) -> None:
        zones = state.zones()
        self._stock = zones.get("stock", 0)
        self._hands = [zones.get(f"hand{s}", 0) for s in range(self.n)]

    def after(self, state: State) -> None:
        if not self._stock:
            return
        zones = state.zones()
        stock_after = zones.get("stock", 0)
        for s in range(self.n):
            hand = zones.get(f"hand{s}", 0)
            if self._hands[s] & ~hand & stock_after:
                continue  # the seat put cards into the stock: an exchange (Tấn swap), not a draw
            self._add(s, hand & ~self._hands[s] & self._stock)


def _apply_moves(
    game: Game,
    state: State,
    moves: Sequence[tuple[int, Move]],
    on_step: Callable[[int, State, int, Move], None] | None = None,
    tracker: _DrawTracker | None = None,
    on_applied: Callable[[int, State, int, Move], None] | None = None,
) -> State:
    """Apply ``moves`` to ``state`` one by one, naming the first impossible one.

    ``on_step(i, state, seat, move)`` is called before move ``i`` is applied (``state`` is the
    position it is played in; do not mutate it), ``on_applied`` after it was applied."""
    for i, (seat, move) in enumerate(moves):
        field = f"moves[{i}]"
        to_act = state.current_player
        if to_act == TERMINAL:
            raise IllegalMoveError.of(
                "move_after_end",
                field,
                move=json.dumps(game.move_to_text(move), ensure_ascii=False),
                seat=seat,
                i=i,
            )
        if to_act != seat:
            raise IllegalMoveError(state.out_of_turn_reason(seat, move), path=field)
        if on_step is not None:
            on_step(i, state, seat, move)
        if tracker is not None:
            tracker.before(state)
        try:
            state.apply(move)
        except IllegalMoveError as e:
            text = game.move_to_text(move)
            if _mentions(game, move, text, str(e)):
                raise IllegalMoveError.wrap(e, field) from None
            raise IllegalMoveError.of(
                "move_not_legal",
                field,
                move=json.dumps(text, ensure_ascii=False),
                seat=seat,
                reason=e,
            ) from None
        if tracker is not None:
            tracker.after(state)
        if on_applied is not None:
            on_applied(i, state, seat, move)
    return state


def _mentions(game: Game, move: Move, text: str, reason: str) -> bool:
    """Whether an engine's rejection message names the move (its text or one of its cards)."""
    low = reason.lower()
    if text.lower() in low:
        return True
    try:
        cards = game.describe_move(move).cards
    except (GameError, NotImplementedError):
        cards = ()
    return any(card_str(c).lower() in low for c in cards)


def _initial_state(game: Game, deal: Deal) -> State:
    try:
        return game.state_from_deal(deal)
    except DealError as e:
        raise DealError.wrap(e, "" if str(e).startswith("deal") else "deal") from None


def check_result(state: State, result: dict | None, n_moves: int) -> None:
    """Raise :class:`ResultError` when ``result`` (as parsed) disagrees with ``state``'s settlement.

    ``n_moves``: the number of moves replayed (for the message)."""
    if result is None:
        return
    if not state.is_terminal():
        raise ResultError.of(
            "result_game_not_over", "result", n_moves=n_moves, current_player=state.current_player
        )
    ret = [float(x) for x in state.returns()]
    net = result.get("net")
    if net is not None and any(abs(a - b) > RESULT_TOLERANCE for a, b in zip(net, ret)):
        raise ResultError.of(
            "result_net_disagrees",
            "result.net",
            net=[_num(x) for x in net],
            settlement=[_num(x) for x in ret],
        )
    transfers = result.get("transfers")
    if transfers is not None:

        def key(ts):
            return sorted((p, q, round(a, 9)) for p, q, a in ts)

        mine = [(p, q, float(a)) for p, q, a in state.settlement()]
        if key(transfers) != key(mine):
            fmt = ", ".join(f"{p}->{q}: {_num(a)}" for p, q, a in mine) or "none"
            raise ResultError.of("result_transfers_disagree", "result.transfers", fmt=fmt)


def replay_record(
    record: Record | Mapping,
    on_step: Callable[[int, State, int, Move], None] | None = None,
    check: bool = True,
    on_applied: Callable[[int, State, int, Move], None] | None = None,
) -> State:
    """Play a record through the engine and return the final state (the referee).

    ``record``: a :class:`Record` or a JSON object.  ``on_step(i, state, seat, move)`` is called
    before each move is applied (e.g. to list the legal moves), ``on_applied`` after it was
    accepted.  ``check``: compare the record's ``result`` with the engine's settlement.  Raises
    the errors listed in the module doc."""
    rec = record if isinstance(record, Record) else parse_record(record)
    state = _initial_state(rec.game, rec.deal)
    _apply_moves(rec.game, state, rec.moves, on_step, on_applied=on_applied)
    if check:
        check_result(state, rec.result, len(rec.moves))
    return state


def drawn_cards(record: Record | Mapping, seat: int, at: int | None = None) -> list[int]:
    """The cards ``seat`` drew from the stock during the first ``at`` moves of a record (all when
    ``None``), in order, including automatic draws (Tấn refills) that follow those moves."""
    rec = record if isinstance(record, Record) else parse_record(record)
    moves = rec.moves if at is None else rec.moves[:at]
    state = _initial_state(rec.game, rec.deal)
    tracker = _DrawTracker(state)
    _apply_moves(rec.game, state, moves, tracker=tracker)
    return list(tracker.drawn[seat])


def view_at(record: Record | Mapping, seat: int, at: int | None = None) -> dict:
    """The ``quansu-view/1`` JSON object of ``seat`` after the first ``at`` moves of a record
    (``None``: all moves).  The record is replayed (and so validated) up to that point; the view
    carries the result when the game is over at that point.  Raises :class:`RecordError` for a bad
    ``seat`` or ``at``."""
    rec = record if isinstance(record, Record) else parse_record(record)
    n = rec.game.num_players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise RecordError.of("expected_seat", "seat", n=n - 1, got=_type_name(seat))
    if at is None:
        at = len(rec.moves)
    if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(rec.moves):
        raise RecordError.of(
            "expected_move_count", "at", n_moves=len(rec.moves), got=_type_name(at)
        )
    moves = rec.moves[:at]
    state = _initial_state(rec.game, rec.deal)
    tracker = _DrawTracker(state)
    _apply_moves(rec.game, state, moves, tracker=tracker)
    result = None
    if state.is_terminal():
        res = result_json(state)
        result = {
            "net": [float(x) for x in res["net"]],
            "transfers": [(t["payer"], t["payee"], float(t["amount"])) for t in res["transfers"]],
        }
    view = View(
        game=rec.game,
        seat=seat,
        hand=tuple(rec.deal.hands[seat]),
        counts=tuple(len(h) for h in rec.deal.hands),
        first=rec.deal.first,
        trump=rec.deal.trump,
        drawn=tuple(tracker.drawn[seat]),
        moves=tuple(moves),
        result=result,
    )
    return view_to_json(view)


def view_from_state(state: State, seat: int) -> dict:
    """The ``quansu-view/1`` JSON object of ``seat`` in a running or finished game."""
    return view_at(record_from_state(state), seat)


def replay_view(view: View | Mapping, rng: random.Random) -> State:
    """Rebuild ``seat``'s information state from a view: a full state that ``seat`` cannot tell from
    the real one (same ``observation(seat)``).

    The hidden cards (other hands, the stock apart from ``seat``'s own draws) are drawn with ``rng``
    by ``Game.deal_for_view``; the moves are then replayed and ``seat``'s draws during the replay are
    checked against ``drawn``.  A view's ``result`` is not compared with the rebuilt state: whether
    and how the game ended can depend on hidden cards (an instant win at the deal, cards left in
    hands), so only views of games in progress rebuild the seat's observation exactly.  Raises the
    errors listed in the module doc."""
    v = view if isinstance(view, View) else parse_view(view)
    game = v.game
    try:
        deal = game.deal_for_view(
            v.seat, v.hand, v.counts, v.moves, rng, first=v.first, drawn=v.drawn, trump=v.trump
        )
    except DealError as e:
        if str(e).startswith(("deal", "drawn", "moves")):
            raise DealError.wrap(e) from None
        raise DealError.wrap(e, "deal") from None
    state = _initial_state(game, deal)
    tracker = _DrawTracker(state)
    _apply_moves(game, state, v.moves, tracker=tracker)
    got = tracker.drawn[v.seat]
    if list(got) != list(v.drawn):
        for i, (a, b) in enumerate(zip(got, v.drawn)):
            if a != b:
                raise DealError.of(
                    "drawn_differs", f"drawn[{i}]", card=card_str(b), seat=v.seat, card2=card_str(a)
                )
        raise DealError.of(
            "drawn_count", "drawn", n_drawn=len(v.drawn), seat=v.seat, n_got=len(got)
        )
    # A view's result is not compared: the end of the game and its settlement can depend on cards
    # the seat never saw (an opponent's instant win at the deal, cards left in other hands), which
    # the rebuilt state holds at random.
    return state


def replay_any(obj: Mapping, rng: random.Random) -> State:
    """Replay a record (exactly) or a view (a state consistent with it, drawn with ``rng``)."""
    parsed = parse_any(obj)
    if isinstance(parsed, View):
        return replay_view(parsed, rng)
    return replay_record(parsed)


def legal_move_texts(state: State) -> list[str]:
    """The legal moves of the seat to act, in canonical notation, in a player's order (grouped
    by kind, low to high within a group in the game's rank order: ``Game.sort_moves``)."""
    game = state.game
    return [game.move_to_text(m) for m in game.sort_moves(state.legal_moves(), state.trump_card())]


# ---------------------------------------------------------------------------------------------
# files


def dumps(obj: Any, width: int = 100) -> str:
    """JSON text laid out for people: short values on one line, lists of cards on one line, one move
    (or hand) per line.  ``json.loads(dumps(x)) == x``."""

    def dump(v: Any, indent: int) -> str:
        compact = json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
        if not isinstance(v, (dict, list)) or len(compact) + indent <= width or not v:
            return compact
        if isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v):
            return compact
        pad = " " * (indent + 2)
        if isinstance(v, dict):
            items = [
                f"{pad}{json.dumps(k, ensure_ascii=False)}: {dump(x, indent + 2)}"
                for k, x in v.items()
            ]
            return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
        items = [pad + dump(x, indent + 2) for x in v]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"

    return dump(obj, 0) + "\n"


def loads(text: str) -> Any:
    """Parse JSON text; a syntax error becomes a :class:`RecordError` naming line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError.of("bad_json", msg=e.msg, lineno=e.lineno, colno=e.colno) from None


def read_json(path: str) -> Any:
    """Read a record or view file (UTF-8 JSON).  ``OSError`` for a missing file; :class:`RecordError`
    for bad JSON."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return loads(text)


def write_json(obj: Any, path: str) -> None:
    """Write a record or view as UTF-8 JSON laid out by :func:`dumps`."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps(obj))
