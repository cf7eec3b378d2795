"""The command line's texts in English and Vietnamese: one catalogue, :data:`MESSAGES`.

Every message the ``quansu`` commands print for a person (``play``, ``hint``, ``analyze``
tables and summaries, errors) is a key of :data:`MESSAGES` with its English and Vietnamese
templates (``str.format`` fields, the same in both), written with the players' own words: heo
(a 2), tứ quý, đôi thông, sảnh, chặt, phỏm, ăn, gửi, ù, móm, chủ, đổi chủ, ôm, báo sâm.
:func:`t` renders one.  ``--lang vi|en`` chooses the language (every subcommand has it,
:func:`add_lang_argument`); without it, the locale does (:func:`default_language`: ``LC_ALL``,
``LC_MESSAGES`` or ``LANG`` starting with ``vi`` -> Vietnamese).  Moves are not here either:
in Vietnamese the commands name a move as a player says it, with the game's own terms and the
cards written 3♠ 10♥ (:meth:`games.base.Game.move_label`, ``games/labels.py`` and
``games/<game>/labels.py``: "đánh đôi 9♦ 9♥", "bỏ lượt", "bốc", "ăn 7♥", "hạ phỏm", "gửi",
"báo Sâm", "đỡ 7♠ bằng 9♠"); in English in the canonical notation (docs/notation.md), which is
what a player types.

The reasons of a hint are not here: they live with each game (``games/<game>/reasons.py``,
``TEXTS``) and come from the engine in the request's ``language``.  Nor are the error texts of
the rules and of the service's checks: each has a code and parameters and its English and
Vietnamese texts in one table (:data:`games.errors.TABLE`: ``games/errors.py``,
``games/<game>/errors.py``, ``server/errors.py``), and :func:`error_text` renders one in the
command's language (a server's field violations come in the ``language`` the command sent).
``tests/service/test_i18n.py`` checks that every key has both languages with the same fields and that
every key the commands use exists, and the same of every error code.
"""

from __future__ import annotations

import argparse
import os
import string
from typing import Mapping

#: The languages: English and Vietnamese.
LANGUAGES = ("en", "vi")

#: key -> (English, Vietnamese).
MESSAGES: dict[str, tuple[str, str]] = {
    # -- shared -----------------------------------------------------------------------------
    "error": ("error: {message}", "lỗi: {message}"),
    "error_field": ("error: {field}: {message}", "lỗi: {field}: {message}"),
    "error_status": ("error: {status}: {message}", "lỗi: {status}: {message}"),
    "interrupted": ("interrupted", "đã dừng"),
    "seat": ("seat {seat}", "ghế {seat}"),
    "you": ("you", "bạn"),
    "lang_help": (
        "language of the texts: vi (Vietnamese) or en (English); default: the locale "
        "(LANG starting with vi: vi)",
        "ngôn ngữ: vi (tiếng Việt) hoặc en (tiếng Anh); mặc định theo locale (LANG "
        "bắt đầu bằng vi: vi)",
    ),
    # -- quansu hint ------------------------------------------------------------------------
    "hint_header": (
        "{game}: seat {seat} to act; model {model}; {iterations} iterations in {ms} ms "
        "(stopped by {stopped}); {legal} legal moves",
        "{game}: ghế {seat} đi; mô hình {model}; {iterations} lượt thử trong {ms} ms "
        "(dừng vì {stopped}); {legal} nước hợp lệ",
    ),
    "hint_measured": (
        "the moves ranked by their payoffs on the same {worlds} sampled deals; "
        "group 0 = as good as the first",
        "xếp theo lợi trên cùng {worlds} ván giả định; nhóm 0 = ngang nước đầu",
    ),
    "col_move": ("move", "nước đi"),
    "col_group": ("group", "nhóm"),
    "col_deals": ("deals", "số ván"),
    "col_share": ("share", "tỉ lệ"),
    "col_payoff": ("payoff", "lợi"),
    "col_lcb": ("lcb", "cận dưới"),
    "col_prior": ("prior", "ưu tiên"),
    "col_reasons": ("reasons", "lý do"),
    "hint_play": ("play: {move}", "nên đi: {move}"),
    "hint_play_kept": (
        "(the card-counting bot's move: no move ranked above it measured better on {worlds} "
        "worlds)",
        "(nước của bot đếm bài: không nước nào xếp trên nó đo được tốt hơn trên {worlds} "
        "ván giả định)",
    ),
    "hint_play_improved": (
        "(measured better than the card-counting bot's move on {worlds} worlds)",
        "(đo được tốt hơn nước của bot đếm bài trên {worlds} ván giả định)",
    ),
    "hint_unranked": (
        "not ranked (too few visits, or not measured): their payoff is only a hint",
        "chưa xếp hạng (quá ít lượt thử hoặc không được đo): lợi chỉ để tham khảo",
    ),
    "hint_variants": ("the same in other suits: {moves}", "cùng nước với chất khác: {moves}"),
    "hint_details_help": (
        "also show the statistics: the search, the group, deals or share of "
        "visits, lower bound, prior, and each row's suit variants",
        "hiện cả thống kê: lượt tìm kiếm, nhóm, số ván hay tỉ lệ lượt thử, "
        "cận dưới, ưu tiên, và các biến thể chất của mỗi dòng",
    ),
    "stopped_iterations": ("iterations", "đủ lượt thử"),
    "stopped_time": ("time", "hết thời gian"),
    "stopped_deadline": ("deadline", "hết hạn"),
    "stopped_cancelled": ("cancelled", "bị hủy"),
    "stopped_forced": ("forced", "chỉ có một nước"),
    "hint_record_needs_seat": (
        "format: a full record needs --seat S to cut that seat's view "
        "(or give a quansu-view/1 file)",
        "format: một bản ghi cả ván cần --seat S để cắt phần nhìn của ghế "
        "đó (hoặc đưa tệp quansu-view/1)",
    ),
    "hint_view_no_seat": (
        "--seat/--at: only for a full record; this file is already a view",
        "--seat/--at: chỉ dùng cho bản ghi cả ván; tệp này đã là phần nhìn của một ghế",
    ),
    # -- quansu play ------------------------------------------------------------------------
    "play_start": (
        "quansu play: {title}, {players} players, you are seat {seat}",
        "quansu play: {title}, {players} người chơi, bạn ngồi ghế {seat}",
    ),
    "play_bot_move": ("seat {seat}: {move}", "ghế {seat}: {move}"),
    "play_my_move": ("seat {seat} (you): {move}", "ghế {seat} (bạn): {move}"),
    "play_moves": (
        "your moves (type a number or a move):\n{moves}",
        "nước của bạn (gõ số thứ tự hoặc nước đi):\n{moves}",
    ),
    "play_prompt": ("your move> ", "nước đi> "),
    "play_bye": ("bye", "tạm biệt"),
    "play_help": (
        "type a move (e.g. '3S 4S 5H' or 'pass'), its number, 'moves', 'hint' "
        "('hint details': with its statistics) or 'quit'",
        "gõ một nước (vd. '3S 4S 5H' hay 'pass'), số thứ tự của nó, 'moves' (xem "
        "lại các nước), 'hint' (gợi ý; 'hint details': kèm thống kê) hoặc 'quit' "
        "(thoát)",
    ),
    "play_no_number": (
        "no move number {number}; choose 0..{last}",
        "không có nước số {number}; chọn 0..{last}",
    ),
    "play_not_a_move": ("not a move: {message}", "không phải nước đi: {message}"),
    "play_not_legal": ("'{move}' is not legal now", "'{move}' không hợp lệ lúc này"),
    "play_game_over": (
        "game over. settlement (payer -> payee: bets):",
        "hết ván. thanh toán (người trả -> người nhận: cược):",
    ),
    "play_transfer": (
        "  seat {payer} -> seat {payee}: {amount}",
        "  ghế {payer} -> ghế {payee}: {amount}",
    ),
    "play_net": ("net: {items}", "thắng thua: {items}"),
    "play_seat_range": (
        "--seat {seat} out of range 0..{last}",
        "--seat {seat} ngoài khoảng 0..{last}",
    ),
    "play_saved": ("game saved to {path}", "đã lưu ván vào {path}"),
    "play_save_failed": (
        "--save: cannot write {path}: {reason}",
        "--save: không ghi được {path}: {reason}",
    ),
    "play_save_is_folder": (
        "--save: {path} is a folder; give a file name",
        "--save: {path} là thư mục; hãy đưa tên tệp",
    ),
    "play_save_no_folder": (
        "--save: the folder {folder} does not exist",
        "--save: thư mục {folder} không tồn tại",
    ),
    "play_bad_option": (
        "bad --option {option!r}: expected NAME=VALUE",
        "--option {option!r} sai: cần TÊN=GIÁ_TRỊ",
    ),
    # the table a seat sees (Vietnamese rendering of play; English uses the game's own)
    "view_title": (
        "{title}, {players} players; you are seat {seat}",
        "{title}, {players} người chơi; bạn ngồi ghế {seat}",
    ),
    "view_hand": ("your hand: {cards}", "bài trên tay: {cards}"),
    "view_empty": ("(empty)", "(hết bài)"),
    "view_counts": ("cards left: {items}", "số lá còn lại: {items}"),
    "view_count": ("seat {seat}: {count}", "ghế {seat}: {count}"),
    "view_zone": ("{zone}: {count} cards", "{zone}: {count} lá"),
    "view_zone_known": ("{zone}: {count} cards ({cards})", "{zone}: {count} lá ({cards})"),
    "view_last": ("last moves: {items}", "nước vừa đi: {items}"),
    "view_trump": ("trump: {suit} ({card})", "chủ: {suit} ({card})"),
    "view_to_act": ("to act: {who}", "đến lượt: {who}"),
    "view_over": ("game over", "hết ván"),
    "zone_played": ("played", "bài đã đánh"),
    "zone_table": ("table", "trên bàn"),
    "zone_stock": ("stock", "nọc"),
    "zone_discard": ("discards", "bài bỏ"),
    "zone_discard_seat": ("discards of seat {seat}", "bài ghế {seat} đánh ra"),
    "zone_set_aside": ("set aside", "bài để riêng"),
    "zone_other": ("{name}", "{name}"),
    # -- quansu analyze ---------------------------------------------------------------------
    "analyze_header": (
        "model {model}; marks: good <= {good}, inaccuracy <= {inaccuracy}, "
        "mistake <= {mistake} bets, else blunder",
        "mô hình {model}; đánh giá: tốt <= {good}, chưa chuẩn <= {inaccuracy}, "
        "sai <= {mistake} cược, hơn nữa là sai nặng",
    ),
    "col_index": ("move", "nước"),
    "col_seat": ("seat", "ghế"),
    "col_played": ("played", "đã đi"),
    "col_best": ("best", "tốt nhất"),
    "col_loss": ("loss", "mất"),
    "col_value": ("value", "giá trị"),
    "col_mark": ("mark", "đánh giá"),
    "mark_best": ("best", "tốt nhất"),
    "mark_good": ("good", "tốt"),
    "mark_inaccuracy": ("inaccuracy", "chưa chuẩn"),
    "mark_mistake": ("mistake", "sai"),
    "mark_blunder": ("blunder", "sai nặng"),
    "mark_unclear": ("unclear", "chưa rõ"),
    "mark_forced": ("{mark} (forced)", "{mark} (bắt buộc)"),
    "analyze_summary": (
        "seat {seat}: {decisions} decisions, total loss {total} bets, average "
        "{average}, accuracy {accuracy} ({marks})",
        "ghế {seat}: {decisions} quyết định, tổng mất {total} cược, trung bình "
        "{average}, độ chính xác {accuracy} ({marks})",
    ),
    "analyze_result": ("; result {payoff}", "; kết quả {payoff}"),
    "analyze_worst": (
        "  worst: move {index}: played {played}, best {best}, loss {loss}",
        "  tệ nhất: nước {index}: đã đi {played}, tốt nhất {best}, mất {loss}",
    ),
    "analyze_no_plot": ("--plot: no decision to draw", "--plot: không có quyết định nào để vẽ"),
    "analyze_plot_written": ("plot written to {path}", "đã ghi biểu đồ vào {path}"),
    "analyze_plot_needs_matplotlib": (
        "--plot: drawing the chart needs matplotlib: {install}",
        "--plot: cần matplotlib để vẽ biểu đồ: {install}",
    ),
    "col_interval": ("interval", "khoảng 95%"),
    "col_worlds": ("deals", "số ván"),
    "col_file": ("file", "tệp"),
    "col_decisions": ("decisions", "quyết định"),
    "col_accuracy": ("accuracy", "chính xác"),
    "analyze_total": ("all files", "tất cả các tệp"),
    "analyze_skipped": (
        "skipped {file}: not a quansu-record/1 or quansu-view/1 file",
        "bỏ qua {file}: không phải tệp quansu-record/1 hay quansu-view/1",
    ),
    "analyze_no_files": ("no game file in {paths}", "không có tệp ván nào trong {paths}"),
    "analyze_one_file": (
        "{option}: takes one game file ({count} given)",
        "{option}: chỉ nhận một tệp ván (đã đưa {count})",
    ),
    "analyze_progress": (
        "[{k}/{n}] {file}: {done}/{total} decisions",
        "[{k}/{n}] {file}: {done}/{total} quyết định",
    ),
    "analyze_file_done": (
        "[{k}/{n}] {file}: {decisions} decisions in {seconds} s",
        "[{k}/{n}] {file}: {decisions} quyết định trong {seconds} giây",
    ),
    "analyze_no_report": ("--report: no decision to report", "--report: không có quyết định nào"),
    "analyze_report_written": ("report written to {path}", "đã ghi báo cáo vào {path}"),
    # -- quansu replay and quansu view -------------------------------------------------------
    "replay_invalid": (
        "quansu replay: invalid record: {message}",
        "quansu replay: bản ghi không hợp lệ: {message}",
    ),
    "replay_cannot_read": (
        "quansu replay: cannot read {path}: {reason}",
        "quansu replay: không đọc được {path}: {reason}",
    ),
    "replay_game": (
        "game: {game}, {players} players, options: {options}",
        "trò chơi: {game}, {players} người chơi, tùy chọn: {options}",
    ),
    "replay_defaults": ("defaults", "mặc định"),
    "replay_deal": ("deal (seat {seat} acts first):", "chia bài (ghế {seat} đi trước):"),
    "replay_hand": ("  seat {seat}: {cards}", "  ghế {seat}: {cards}"),
    "replay_stock": ("  stock (top first): {cards}", "  nọc (lá trên cùng trước): {cards}"),
    "replay_trump": ("  trump: {card}", "  chủ: {card}"),
    "replay_set_aside": ("  set aside: {cards}", "  bài để riêng: {cards}"),
    "replay_columns": ("{index:<5}{seat:<6}move", "{index:<5}{seat:<6}nước đi"),
    "replay_legal": (
        "{pad:<5}seat {seat} to act, {count} legal: {moves}",
        "{pad:<5}ghế {seat} đi, {count} nước hợp lệ: {moves}",
    ),
    "replay_not_over": (
        "game not over after {moves} moves; seat {seat} is to act",
        "ván chưa hết sau {moves} nước; đến lượt ghế {seat}",
    ),
    "replay_over": ("game over after {moves} moves", "hết ván sau {moves} nước"),
    "replay_settlement": (
        "settlement (payer -> payee: bets):",
        "thanh toán (người trả -> người nhận: cược):",
    ),
    "replay_no_payments": ("  (no payments)", "  (không ai trả)"),
    "replay_net": ("net: {items}", "thắng thua: {items}"),
    "replay_result_absent": (
        "result: not given in the record",
        "kết quả: bản ghi không ghi kết quả",
    ),
    "replay_result_agrees": ("result: agrees with the settlement", "kết quả: khớp với thanh toán"),
    "view_invalid": (
        "quansu view: invalid record: {message}",
        "quansu view: bản ghi không hợp lệ: {message}",
    ),
    "view_cannot_read": (
        "quansu view: cannot read {path}: {reason}",
        "quansu view: không đọc được {path}: {reason}",
    ),
    "view_cannot_write": (
        "quansu view: cannot write {path}: {reason}",
        "quansu view: không ghi được {path}: {reason}",
    ),
    "view_seat_range": (
        "quansu view: --seat {seat} is out of range 0..{last}",
        "quansu view: --seat {seat} ngoài khoảng 0..{last}",
    ),
    "view_at_range": (
        "quansu view: --at {at} is out of range 0..{moves} (the record has {moves} moves)",
        "quansu view: --at {at} ngoài khoảng 0..{moves} (bản ghi có {moves} nước)",
    ),
    # -- quansu serve -----------------------------------------------------------------------
    "serve_bad_model": (
        "bad --model {item!r}: expected GAME=PATH",
        "--model {item!r} sai: cần GAME=ĐƯỜNG_DẪN",
    ),
    "serve_at_least": ("--{name} must be at least {least}", "--{name} phải từ {least} trở lên"),
    "serve_default_above_max": (
        "the default budget is above the maximum",
        "ngân sách mặc định vượt mức tối đa",
    ),
    "serve_port_range": ("--{name} must be 0..65535", "--{name} phải trong khoảng 0..65535"),
    "serve_tls_pair": (
        "--tls-cert and --tls-key go together",
        "--tls-cert và --tls-key phải đi cùng nhau",
    ),
    "serve_log_level": ("--log-level: {message}", "--log-level: {message}"),
}


def error_text(error: BaseException, lang: str = "en") -> str:
    """An error's message in ``lang``: a rules error (:class:`games.errors.CodedError`) or a
    request error (:class:`server.errors.RequestError`) from its code, anything else as
    ``str()``."""
    from quansu.server.errors import error_text as _error_text

    return _error_text(error, lang)


def default_language(environ: Mapping[str, str] | None = None) -> str:
    """The locale's language: "vi" when the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that
    is set starts with ``vi`` (``vi_VN.UTF-8``), else "en"."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return "vi" if value.lower().startswith("vi") else "en"
    return "en"


def lang_of(args=None) -> str:
    """The language of a command: its ``--lang``, else the locale's."""
    lang = getattr(args, "lang", None) if args is not None else None
    return lang if lang in LANGUAGES else default_language()


def add_lang_argument(p: argparse.ArgumentParser) -> None:
    """``--lang vi|en`` (once per parser: a command that already has it keeps its own)."""
    if "--lang" in p._option_string_actions:
        return
    p.add_argument("--lang", choices=LANGUAGES, default=None, help=t("lang_help", "en"))


def t(key: str, lang: str = "en", **params) -> str:
    """Message ``key`` in ``lang`` with its fields filled."""
    en, vi = MESSAGES[key]
    return (vi if lang == "vi" else en).format(**params)


def fields_of(template: str) -> set[str]:
    """The ``str.format`` field names of a template."""
    return {
        name.split(".")[0].split("[")[0].split("!")[0]
        for _, name, _, _ in string.Formatter().parse(template)
        if name
    }


def mark_name(mark: int | str, lang: str = "en") -> str:
    """A Decision mark (the enum value or its short name: ``best``, ``good``, ...) in ``lang``."""
    names = {1: "best", 2: "good", 3: "inaccuracy", 4: "mistake", 5: "blunder", 6: "unclear"}
    name = names.get(mark, "?") if isinstance(mark, int) else mark
    key = f"mark_{name}"
    return t(key, lang) if key in MESSAGES else str(name)


def stopped_name(stopped_by: str, lang: str = "en") -> str:
    """``SearchStats.stopped_by`` in ``lang``."""
    key = f"stopped_{stopped_by}"
    return t(key, lang) if key in MESSAGES else stopped_by


def zone_name(zone: str, lang: str = "en") -> str:
    """A zone of :meth:`games.base.State.zones` (not a hand) in ``lang``."""
    base = zone.rstrip("0123456789")
    if base == "discard" and base != zone:
        return t("zone_discard_seat", lang, seat=zone[len(base) :])
    key = f"zone_{base}"
    return t(key, lang) if key in MESSAGES else t("zone_other", lang, name=zone)
