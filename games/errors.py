"""Error texts of the rules layer in English and Vietnamese: a stable code plus parameters.

Every error the rules raise about a game, option, card, deal, move, record or view
(:class:`games.base.GameError` and its subclasses, :class:`games.cards.CardError`) is a
:class:`CodedError`: a :class:`Text` (``code`` and ``params``) and a ``path``, the field the
error is about (``moves[17]``, ``deal.hands[1]``; never translated).  ``str(error)`` is the
English text, ``"path: text"``, as it always was; :meth:`CodedError.render` writes it in another
language.  Apps and the command line render an error in the language of the player through
:func:`render` (the one table: :data:`TABLE`).

The texts live in tables ``code -> (English, Vietnamese)`` (``str.format`` templates with the
same fields in both, in the players' own words: bài, lá, ghế, lượt, bỏ lượt, chặt, heo, phỏm,
ăn, gửi, ù, chủ, ôm, báo sâm): :data:`TEXTS` here for what every game shares (options, cards,
deals, records, views), ``games/<game>/errors.py`` for each game's own (codes ``<game>.*``),
all registered in :data:`TABLE` by :func:`register` when their module is imported.  A parameter
may itself be a :class:`Text` or an error (rendered in the same language); cards and moves stay
in the notation (docs/notation.md) in every language.

``tests/service/test_i18n.py`` checks that every code has both languages with the same fields, that
every code the sources use is in the table, and that no rules error is raised without a code.
"""

from __future__ import annotations

import string
from typing import Any, Iterable

#: The languages of every text: English (the default) and Vietnamese.
LANGUAGES = ("en", "vi")

#: Every registered code -> (English, Vietnamese).
TABLE: dict[str, tuple[str, str]] = {}


def register(texts: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """Add a module's texts to :data:`TABLE` (a code already there with other texts is a bug)."""
    for code, pair in texts.items():
        old = TABLE.get(code)
        if old is not None and old != pair:
            raise ValueError(f"error code {code!r} registered twice with different texts")
        TABLE[code] = pair
    return texts


def _local(value: Any, lang: str) -> Any:
    if isinstance(value, Text):
        return value.render(lang)
    if isinstance(value, CodedError):
        return value.render(lang)
    return value


class Text:
    """A message: ``code`` (a key of :data:`TABLE`) and the ``params`` of its templates.
    ``str()`` is the English text."""

    __slots__ = ("code", "params")

    def __init__(self, code: str, /, **params: Any):
        self.code = code
        self.params = params

    def render(self, lang: str = "en") -> str:
        """The text in ``lang`` ("en", "vi"; anything else: English)."""
        en, vi = TABLE[self.code]
        template = vi if lang == "vi" else en
        return template.format(**{k: _local(v, lang) for k, v in self.params.items()})

    def __str__(self) -> str:
        return self.render("en")

    def __repr__(self) -> str:
        return f"Text({self.code!r}, {self.params!r})"

    def __reduce__(self):
        return (_text, (self.code, self.params))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and (self.code, self.params) == (other.code, other.params)

    __hash__ = None  # type: ignore[assignment]


def _text(code: str, params: dict) -> Text:
    return Text(code, **params)


class CodedError(ValueError):
    """A rules-layer error: ``text`` (:class:`Text`, or ``None`` for a plain English message),
    ``path`` (the field prefixes, outermost first).  ``str()`` is ``"path: text"`` in English."""

    def __init__(self, message: "Text | str" = "", /, *, path: "str | Iterable[str]" = ()):
        self.text = message if isinstance(message, Text) else None
        self.plain = None if self.text is not None else str(message)
        self.path = (path,) if isinstance(path, str) else tuple(path)
        self.path = tuple(p for p in self.path if p)
        super().__init__(self.render("en"))

    @classmethod
    def of(cls, code: str, path: "str | Iterable[str]" = (), /, **params: Any) -> "CodedError":
        """The error ``code`` about field ``path`` with the template fields ``params``."""
        return cls(Text(code, **params), path=path)

    @classmethod
    def wrap(cls, error: BaseException, path: str = "") -> "CodedError":
        """``error`` (its code and params) as a ``cls`` about ``path`` + its own path: the English
        text is ``f"{path}: {error}"`` (``str(error)`` without a ``path``)."""
        outer = (path,) if path else ()
        if isinstance(error, CodedError):
            inner = error.text if error.text is not None else error.plain
            return cls(inner, path=outer + error.path)
        return cls(str(error), path=outer)

    @property
    def code(self) -> str:
        """The stable code of the text ("" for a plain message)."""
        return self.text.code if self.text is not None else ""

    @property
    def params(self) -> dict:
        return dict(self.text.params) if self.text is not None else {}

    def render(self, lang: str = "en") -> str:
        """The message in ``lang``: the path (never translated), then the text."""
        body = self.text.render(lang) if self.text is not None else self.plain
        return ": ".join(self.path + (body,)) if self.path else body

    def __reduce__(self):
        message = self.text if self.text is not None else self.plain
        return (_restore, (type(self), message, self.path))


def _restore(cls, message, path):
    return cls(message, path=path)


def render(error: BaseException, lang: str = "en") -> str:
    """The message of ``error`` in ``lang``: a :class:`CodedError` in that language, anything
    else as ``str()``."""
    if isinstance(error, CodedError):
        return error.render(lang)
    return str(error)


def fields_of(template: str) -> set[str]:
    """The ``str.format`` field names of a template."""
    return {
        name.split(".")[0].split("[")[0].split("!")[0]
        for _, name, _, _ in string.Formatter().parse(template)
        if name
    }


#: The texts every game shares (options, cards, deals, records, views, games): code ->
#: (English, Vietnamese).
TEXTS: dict[str, tuple[str, str]] = register(
    {
        "bad_card_id": ("bad card id {c!r} (expected 0..51)", "mã lá bài sai {c!r} (cần 0..51)"),
        "bad_json": (
            "not valid JSON: {msg} at line {lineno}, column {colno}",
            "không phải JSON hợp lệ: {msg} ở dòng {lineno}, cột {colno}",
        ),
        "card_dealt_twice": ("card {card} dealt twice", "lá {card} bị chia hai lần"),
        "card_id_range": (
            "bad card id {card!r}: expected 0..51",
            "mã lá bài sai {card!r}: cần 0..51",
        ),
        "card_named_twice": (
            "card {card} named twice in {text!r}",
            "lá {card} được ghi hai lần trong {text!r}",
        ),
        "card_not_string": (
            "bad card {text!r}: expected a string like '3S'",
            "lá bài sai {text!r}: cần chuỗi như '3S'",
        ),
        "card_too_short": (
            "bad card {text!r}: expected rank + suit, like '3S' or '10H'",
            "lá bài sai {text!r}: cần số + chất, như '3S' hay '10H'",
        ),
        "card_unknown_rank": (
            "bad card {text!r}: unknown rank {rank_txt!r} (use 2-9, T or 10, J, Q, K, A)",
            "lá bài sai {text!r}: không có số {rank_txt!r} (dùng 2-9, T hoặc 10, J, Q, K, A)",
        ),
        "card_unknown_suit": (
            "bad card {text!r}: unknown suit {suit_txt!r} (use S C D H or ♠ ♣ ♦ ♥)",
            "lá bài sai {text!r}: không có chất {suit_txt!r} (dùng S C D H hoặc ♠ ♣ ♦ ♥)",
        ),
        "count_size": ("{c} cards, {title} deals {dealt}", "{c} lá, {title} chia {dealt} lá"),
        "deal_extra_no_field": (
            "game-specific deal data ({keys}) has no field in {RECORD_FORMAT}",
            "dữ liệu chia bài riêng của trò chơi ({keys}) không có trường trong {RECORD_FORMAT}",
        ),
        "dealt_twice": ("{card} dealt twice", "lá {card} bị chia hai lần"),
        "dealt_twice_also_in": (
            "{card} dealt twice (also in {where})",
            "lá {card} bị chia hai lần (cũng có ở {where})",
        ),
        "drawn_count": (
            "{n_drawn} cards given, but seat {seat} draws {n_got} in these moves",
            "có {n_drawn} lá nhưng ghế {seat} bốc {n_got} lá trong các nước này",
        ),
        "drawn_differs": (
            "{card} given, but the replay hands seat {seat} {card2} at that draw",
            "ghi {card}, nhưng khi đi lại ghế {seat} bốc {card2} ở lượt bốc đó",
        ),
        "entries_for_players": (
            "{n_counts} entries for {n} players",
            "{n_counts} mục cho {n} người chơi",
        ),
        "expected_game_name": (
            "expected a game name, got {got}",
            "cần tên một trò chơi, nhận {got}",
        ),
        "expected_integer": ("expected an integer, got {got}", "cần một số nguyên, nhận {got}"),
        "expected_list": ("expected a list, got {got}", "cần một danh sách, nhận {got}"),
        "expected_move_count": (
            "expected a move count 0..{n_moves}, got {got}",
            "cần số nước 0..{n_moves}, nhận {got}",
        ),
        "expected_move_text": ("expected move text, got {got}", "cần chữ của nước đi, nhận {got}"),
        "expected_number": ("expected a number, got {got}", "cần một số, nhận {got}"),
        "expected_object": ("expected an object, got {got}", "cần một đối tượng, nhận {got}"),
        "expected_seat": ("expected a seat 0..{n}, got {got}", "cần một ghế 0..{n}, nhận {got}"),
        "first_out_of_range": (
            "seat {first} is out of range 0..{n}",
            "ghế {first} ngoài khoảng 0..{n}",
        ),
        "format_expected": ("expected {expected}, got {got}", "cần {expected}, nhận {got}"),
        "format_expected_either": (
            "expected {record} or {view}, got {got}",
            "cần {record} hoặc {view}, nhận {got}",
        ),
        "game_unknown": (
            "unknown game {name!r}; known games: {known}",
            "không có trò chơi {name!r}; các trò chơi: {known}",
        ),
        "hand_size": (
            "{n_hand} cards, {title} deals {dealt}",
            "{n_hand} lá, {title} chia {dealt} lá",
        ),
        "hands_for_players": (
            "{n_hands_obj} hands for {n} players",
            "{n_hands_obj} tay bài cho {n} người chơi",
        ),
        "missing": ("missing", "thiếu"),
        "move_after_end": (
            "{move} by seat {seat} after the end of the game (it ended after {i} moves)",
            "{move} của ghế {seat} sau khi ván đã hết (hết sau {i} nước)",
        ),
        "move_not_legal": (
            "{move} by seat {seat} is not legal: {reason}",
            "{move} của ghế {seat} không hợp lệ: {reason}",
        ),
        "net_entries": ("{n_net} entries for {n} players", "{n_net} mục cho {n} người chơi"),
        "option_list_length": (
            "option {name!r}: expected a list of {n_default} numbers, got {value}",
            "tùy chọn {name!r}: cần danh sách {n_default} số, nhận {value}",
        ),
        "option_negative": (
            "option {name!r}: must not be negative, got {value} (allowed {allowed})",
            "tùy chọn {name!r}: không được âm, nhận {value} (cho phép {allowed})",
        ),
        "option_not_a_choice": (
            "option {name!r}: {value} is not one of {allowed}",
            "tùy chọn {name!r}: {value} không thuộc {allowed}",
        ),
        "option_not_bool": (
            "option {name!r}: expected true or false, got {value}",
            "tùy chọn {name!r}: cần true hoặc false, nhận {value}",
        ),
        "option_not_finite": (
            "option {name!r}: expected a finite number, got {x!r}",
            "tùy chọn {name!r}: cần một số hữu hạn, nhận {x!r}",
        ),
        "option_not_number": (
            "option {name!r}: expected a number, got {value}",
            "tùy chọn {name!r}: cần một số, nhận {value}",
        ),
        "option_not_numbers": (
            "option {name!r}: expected numbers, got {value}",
            "tùy chọn {name!r}: cần các số, nhận {value}",
        ),
        "option_not_string": (
            "option {name!r}: expected a string, got {value}",
            "tùy chọn {name!r}: cần một chuỗi, nhận {value}",
        ),
        "option_not_whole": (
            "option {name!r}: expected a whole number, got {value}",
            "tùy chọn {name!r}: cần một số nguyên, nhận {value}",
        ),
        "option_out_of_range": (
            "option {name!r}: {value} is out of range {allowed}",
            "tùy chọn {name!r}: {value} ngoài khoảng {allowed}",
        ),
        "option_unknown": (
            "unknown option {value}; known options: {known}",
            "không có tùy chọn {value}; các tùy chọn: {known}",
        ),
        "out_of_range": ("{value} is out of range {lo}..{hi}", "{value} ngoài khoảng {lo}..{hi}"),
        "out_of_turn": (
            "seat {seat} moved but seat {current_player} is to act",
            "ghế {seat} đi nhưng đang đến lượt ghế {current_player}",
        ),
        "players_not_integer": (
            "player count must be an integer, got {num_players!r}",
            "số người chơi phải là số nguyên, nhận {num_players!r}",
        ),
        "players_not_supported": (
            "{num_players} players is not supported (allowed {min_players}..{max_players})",
            "không chơi được với {num_players} người (cho phép {min_players}..{max_players})",
        ),
        "record_hand_missing": (
            "missing (a full record lists every seat's cards)",
            "thiếu (bản ghi cả ván liệt kê bài của mọi ghế)",
        ),
        "result_empty": ('expected "net" and/or "transfers"', 'cần "net" và/hoặc "transfers"'),
        "result_game_not_over": (
            "given, but the game is not over after {n_moves} moves (seat "
            "{current_player} is to act)",
            "có kết quả nhưng ván chưa hết sau {n_moves} nước (đến lượt ghế {current_player})",
        ),
        "result_net_disagrees": (
            "{net} disagrees with the settlement, which gives {settlement}",
            "{net} không khớp với thanh toán, thanh toán ra {settlement}",
        ),
        "result_transfers_disagree": (
            "disagree with the settlement, which gives (payer->payee: bets) {fmt}",
            "không khớp với thanh toán, thanh toán ra (người trả->người nhận: cược) {fmt}",
        ),
        "seat_not_a_seat": ("{seat!r} is not a seat 0..{n}", "{seat!r} không phải ghế 0..{n}"),
        "trump_dealt_twice": (
            "{card} dealt twice (also in deal.hands[{seat}])",
            "lá {card} bị chia hai lần (cũng có ở deal.hands[{seat}])",
        ),
        "unknown_field": (
            "unknown field (allowed: {allowed})",
            "trường không có (cho phép: {allowed})",
        ),
        "view_hand_missing": (
            "missing (the view's own seat lists its cards)",
            "thiếu (ghế của phần nhìn liệt kê bài của mình)",
        ),
        "view_hides_cards": (
            "a view does not show the {kind} cards",
            "phần nhìn của một ghế không cho thấy bài {kind}",
        ),
        "view_other_hand": (
            "a view shows only the count of seat {s}'s hand",
            "phần nhìn chỉ cho thấy số lá trên tay ghế {s}",
        ),
    }
)
