"""The analysis of one game as a page a player reads (``quansu analyze GAME --report out.html``)
and as a labelled PNG chart (``--plot out.png``).

The HTML file is self-contained: inline CSS and inline SVG, no script, no font or image
fetched at view time.  It holds, for every judged seat: the loss graph over the game (one bar
per decision at its move number, its 95 % interval as a whisker, coloured by its mark, the
thresholds as dashed lines), the accuracy and the count of each mark, and each mistake with
the move played, the better move (and the moves as good as it), the loss with its interval and
the seat's hand at that point.  An overview chart shows every judged seat's cumulative loss,
the same chart ``--plot`` draws as PNG (title, axes, legend, one line per seat).  Texts in
English and Vietnamese (``lang`` "en" or "vi"); in Vietnamese the moves are named as players
say them (``Move.label``: "đánh đôi 9♦ 9♥", "bốc", "đỡ 7♠ bằng 9♠"), in English in the notation of
docs/notation.md; cards with suit symbols, hands in the game's order.  The PNG chart is drawn
with matplotlib (:mod:`quansu.plot`, the ``plot`` extra).
"""

from __future__ import annotations

import html
import random
import re
from dataclasses import dataclass, field

from quansu.games import record as rec
from quansu.games.cards import cards_of

#: mark number (server.v1 Mark) -> short name
MARKS = {1: "best", 2: "good", 3: "inaccuracy", 4: "mistake", 5: "blunder", 6: "unclear"}
#: mark name -> colour (the charts, the table): yellow, orange and red for inaccuracy, mistake
#: and blunder, apart in hue and in lightness (tests/service/test_analysis_report.py measures it)
MARK_COLORS = {
    "best": "#2e7d32",
    "good": "#7cb342",
    "inaccuracy": "#fdd835",
    "mistake": "#f57c00",
    "blunder": "#b71c1c",
    "unclear": "#9e9e9e",
}
#: mark name -> marker shape of the PNG chart (matplotlib's): each mark its own shape too
MARK_MARKERS = {"inaccuracy": "^", "mistake": "s", "blunder": "X", "unclear": "o"}
#: marks listed as mistakes in a seat's section
MISTAKE_MARKS = ("inaccuracy", "mistake", "blunder")
#: the seats' lines: cool hues, apart from the marks' (quansu.plot.SERIES_COLORS)
SEAT_COLORS = ["#1f77b4", "#2ca02c", "#17becf", "#8c564b", "#7f7f7f", "#bcbd22"]

#: key -> (English, Vietnamese)
TEXTS: dict[str, tuple[str, str]] = {
    "title": ("Game analysis: {game}", "Phân tích ván: {game}"),
    "subtitle": (
        "{players} players · {file} · model {model}",
        "{players} người chơi · {file} · mô hình {model}",
    ),
    "how": (
        "How to read it: each decision with a choice was judged from the deciding seat's "
        "information only.  The loss is what the move played cost, in bets, against the "
        "best move found, measured on the same sampled deals with the same random play "
        "after it (a paired evaluation); the interval holds the true loss with 95 % "
        "confidence.  The mark is the band of the thresholds that holds the loss: best or "
        "good up to {good}, inaccuracy up to {inaccuracy}, mistake up to {mistake}, blunder "
        "above (bets); it is given when the interval stays within that band and its "
        "neighbours (next to a threshold the interval shows on which side the doubt lies), "
        "otherwise the decision is unclear.  Accuracy is the mean over the decisions of "
        "2^(-loss / {mistake}): 100 % for no loss, 50 % at the mistake threshold.",
        "Cách đọc: mỗi quyết định có lựa chọn được đánh giá chỉ từ thông tin của người "
        "chơi lúc đó.  Mức mất là số cược nước đã đi mất so với nước tốt nhất tìm được, đo "
        "trên cùng các ván bài giả định với cùng cách đánh tiếp theo (so sánh từng cặp); "
        "khoảng tin cậy chứa mức mất thật với độ tin cậy 95 %.  Đánh giá là mức chứa mức "
        "mất: tốt nhất hoặc tốt đến {good}, chưa chuẩn đến {inaccuracy}, sai đến {mistake}, "
        "sai nặng trên mức đó (cược); chỉ đánh giá khi khoảng tin cậy không vượt quá mức đó "
        "và các mức liền kề (gần ngưỡng, khoảng tin cậy cho biết nghiêng về phía nào), nếu "
        "không thì là chưa rõ.  Độ chính xác là trung bình 2^(-mức mất / {mistake}) qua các "
        "quyết định: 100 % khi không mất, 50 % ở ngưỡng sai.",
    ),
    "overview": ("Cumulative loss over the game", "Tổng mức mất qua ván"),
    "overview_note": (
        "One line per judged seat; dots mark inaccuracies, mistakes and blunders.",
        "Mỗi đường là một người chơi; các chấm là nước chưa chuẩn, sai và sai nặng.",
    ),
    "summary": ("Summary", "Tóm tắt"),
    "col_seat": ("Seat", "Ghế"),
    "col_decisions": ("Decisions", "Quyết định"),
    "col_accuracy": ("Accuracy", "Độ chính xác"),
    "col_total_loss": ("Total loss", "Tổng mất"),
    "col_result": ("Result", "Kết quả"),
    "seat": ("Seat {seat}", "Ghế {seat}"),
    "seat_line": (
        "{decisions} decisions ({forced} forced), accuracy {accuracy}, total loss {loss} bets",
        "{decisions} quyết định ({forced} bắt buộc), độ chính xác {accuracy}, tổng mất {loss} cược",
    ),
    "result": ("result {payoff} bets", "kết quả {payoff} cược"),
    "chart_title": ("Loss per decision, seat {seat}", "Mức mất mỗi quyết định, ghế {seat}"),
    "axis_move": ("move number", "nước thứ"),
    "axis_loss": ("loss (bets)", "mất (cược)"),
    "axis_total": ("cumulative loss (bets)", "tổng mất (cược)"),
    "mistakes": ("Mistakes", "Các nước sai"),
    "no_mistakes": (
        "No inaccuracy, mistake or blunder.",
        "Không có nước chưa chuẩn, sai hay sai nặng.",
    ),
    "col_move": ("Move", "Nước"),
    "col_played": ("Played", "Đã đi"),
    "col_better": ("Better move", "Nước tốt hơn"),
    "col_loss": ("Loss (95 % interval)", "Mất (khoảng 95 %)"),
    "col_mark": ("Mark", "Đánh giá"),
    "col_hand": ("Hand at that point", "Bài trên tay lúc đó"),
    "also_good": ("as good: {moves}", "ngang bằng: {moves}"),
    "unclear_list": (
        "Unclear decisions (the interval crosses a threshold)",
        "Quyết định chưa rõ (khoảng tin cậy vượt qua một ngưỡng)",
    ),
    "unclear_between": ("{low} or {high}", "{low} hoặc {high}"),
    "worlds": ("{worlds} sampled deals", "{worlds} ván giả định"),
    "thresholds": (
        "Thresholds (bets): good {good}, inaccuracy {inaccuracy}, mistake {mistake}.",
        "Ngưỡng (cược): tốt {good}, chưa chuẩn {inaccuracy}, sai {mistake}.",
    ),
    "mark_best": ("best", "tốt nhất"),
    "mark_good": ("good", "tốt"),
    "mark_inaccuracy": ("inaccuracy", "chưa chuẩn"),
    "mark_mistake": ("mistake", "sai"),
    "mark_blunder": ("blunder", "sai nặng"),
    "mark_unclear": ("unclear", "chưa rõ"),
    "bar_title": (
        "move {index}: played {played}; best {best}; loss {loss} ({low} to {high}); {mark}",
        "nước {index}: đã đi {played}; tốt nhất {best}; mất {loss} ({low} đến {high}); {mark}",
    ),
    "footer": (
        "Made by quansu analyze.  Values are in bets from the judged seat's point of view.",
        "Tạo bởi quansu analyze.  Giá trị tính bằng cược, theo góc nhìn người chơi được đánh giá.",
    ),
}


def text(key: str, lang: str = "en", **params) -> str:
    en, vi = TEXTS[key]
    return (vi if lang == "vi" else en).format(**params)


def mark_text(mark: int | str, lang: str = "en") -> str:
    name = MARKS.get(mark, "?") if isinstance(mark, int) else mark
    return text(f"mark_{name}", lang) if f"mark_{name}" in TEXTS else str(name)


def band_name(loss: float, th) -> str:
    """The mark of the band ``loss`` falls in (best/good counted as good)."""
    if loss <= th.good:
        return "good"
    if loss <= th.inaccuracy:
        return "inaccuracy"
    if loss <= th.mistake:
        return "mistake"
    return "blunder"


def unclear_text(d, th, lang: str = "en") -> str:
    """``unclear (inaccuracy or mistake)``: the marks the two ends of the interval fall in."""
    low, high = band_name(d.loss_low, th), band_name(d.loss_high, th)
    return (
        f"{mark_text('unclear', lang)} ("
        + text("unclear_between", lang, low=mark_text(low, lang), high=mark_text(high, lang))
        + ")"
    )


@dataclass
class GameAnalysis:
    """What one analysis produced: the game file's JSON (``obj``, a record or a view), the
    Decisions and SeatSummaries in the order Analyze sent them, the thresholds and model in
    force, and the file's name (``source``)."""

    obj: dict
    decisions: list = field(default_factory=list)
    summaries: list = field(default_factory=list)
    thresholds: object = None
    model: str = ""
    source: str = ""

    @property
    def game_name(self) -> str:
        return str(self.obj.get("game", ""))

    def title(self) -> str:
        from quansu.games.registry import game_classes

        cls = game_classes().get(self.game_name)
        return (cls.title if cls is not None and cls.title else self.game_name) or "?"

    def seats(self) -> list[int]:
        seats = [s.seat for s in self.summaries]
        for d in self.decisions:
            if d.seat not in seats:
                seats.append(d.seat)
        return sorted(seats)

    def moves_count(self) -> int:
        return len(self.obj.get("moves", ()))


def cumulative(analysis: GameAnalysis, seat: int) -> list[tuple[int, float, object]]:
    """``(move index, cumulative loss after it, decision)`` for every decision of ``seat``."""
    out, total = [], 0.0
    for d in analysis.decisions:
        if d.seat == seat:
            total += d.loss
            out.append((d.index, total, d))
    return out


# -- the PNG -----------------------------------------------------------------------------------


def plot_figure(analysis: GameAnalysis, lang: str = "en"):
    """The cumulative loss of every judged seat over the game as a matplotlib Figure
    (:mod:`quansu.plot`): the title, the axes (move number, cumulative loss in bets), one line
    per seat, each inaccuracy, mistake, blunder and unclear decision marked on its seat's line
    in the mark's own colour and shape, and a legend naming the seats and the marks, in
    ``lang``.  :class:`quansu.plot.PlotUnavailable` without matplotlib."""
    from quansu.plot import Marks, Series, line_chart

    series = []
    marks = {
        m: Marks(mark_text(m, lang), MARK_COLORS[m], MARK_MARKERS[m], m == "unclear")
        for m in (*MISTAKE_MARKS, "unclear")
    }
    for seat in analysis.seats():
        pts = cumulative(analysis, seat)
        series.append(
            Series(
                text("seat", lang, seat=seat),
                [(0.0, 0.0)] + [(float(i), total) for i, total, _ in pts],
            )
        )
        for i, total, d in pts:
            name = MARKS.get(d.mark, "?")
            if name in marks:
                marks[name].points.append((float(i), total))
    return line_chart(
        series,
        title=f"{text('overview', lang)}: {analysis.title()}",
        x_label=text("axis_move", lang),
        y_label=text("axis_total", lang),
        marks=list(marks.values()),
    )


def write_plot(analysis: GameAnalysis, path: str, lang: str = "en"):
    """:func:`plot_figure` written to ``path`` as PNG; the Figure."""
    from quansu.plot import save_png

    fig = plot_figure(analysis, lang)
    save_png(fig, path)
    return fig


# -- the HTML page ---------------------------------------------------------------------------

_CARD = re.compile(r"(?<![\w♠♣♦♥])(10|[2-9TJQKA])([SCDH♠♣♦♥])(?![\w♠♣♦♥])")
_SUIT = {"S": "♠", "C": "♣", "D": "♦", "H": "♥", "♠": "♠", "♣": "♣", "♦": "♦", "♥": "♥"}


def cards_html(move_text: str) -> str:
    """Move or card text (the notation, ``9D 9H``, or a label, ``đánh đôi 9♦ 9♥``) with suit
    symbols (hearts and diamonds red), escaped."""
    out, last = [], 0
    for m in _CARD.finditer(move_text):
        out.append(html.escape(move_text[last : m.start()]))
        rank = "10" if m.group(1) in ("T", "10") else m.group(1)
        suit = _SUIT[m.group(2)]
        red = " red" if suit in "♦♥" else ""
        out.append(f'<span class="card{red}">{rank}{suit}</span>')
        last = m.end()
    out.append(html.escape(move_text[last:]))
    return "".join(out)


def hands_at(obj: dict, points: list[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """``(seat, move index) -> the seat's hand just before that move``, as card text in the
    game's order (Phỏm's ace low, Tấn's trumps last: :meth:`games.base.Game.sort_cards`; the
    seat's own cards: in a view, the view's seat knows them)."""
    if not points:
        return {}
    from quansu.games.labels import cards_label

    if obj.get("format") == rec.VIEW_FORMAT:
        view = rec.parse_view(obj)
        state = rec.replay_view(view, random.Random(0))
        record = rec.Record(game=view.game, deal=state.deal, moves=view.moves)
    else:
        record = rec.parse_record(obj)
    out = {}
    for seat, index in points:
        st = rec.replay_view(rec.view_at(record, seat, index), random.Random(0))
        hand = cards_of(st.zones().get(f"hand{seat}", 0))
        out[(seat, index)] = cards_label(st.game.sort_cards(hand, st.trump_card()))
    return out


def move_name(move, lang: str = "en") -> str:
    """A Move message as the report names it: in Vietnamese its ``label`` (as a player says it,
    "đánh đôi 9♦ 9♥"), in English its notation (shown with suit symbols)."""
    return move.label if lang == "vi" and move.label else move.text


def _f(x: float) -> str:
    return f"{x:.2f}"


def _svg_seat(analysis: GameAnalysis, seat: int, lang: str) -> str:
    """One seat's loss per decision: bars at the move numbers, interval whiskers, thresholds."""
    th = analysis.thresholds
    mine = [d for d in analysis.decisions if d.seat == seat]
    n = max(1, analysis.moves_count())
    judged = [d for d in mine if not d.forced]
    top = max(
        [th.mistake * 1.25]
        + [d.loss * 1.1 for d in judged]
        + [min(d.loss_high, 2.0 * max(th.mistake, d.loss)) for d in judged]
    )
    w, h, left, right, up, down = 760, 240, 56, 12, 14, 36
    pw, ph = w - left - right, h - up - down

    def x(i: float) -> float:
        return left + (i + 0.5) / n * pw

    def y(v: float) -> float:
        return up + ph - min(v, top) / top * ph

    parts = [
        f'<svg class="chart" viewBox="0 0 {w} {h}" '
        f'width="{w}" height="{h}" role="img" aria-label="'
        f'{html.escape(text("chart_title", lang, seat=seat))}">',
        f"<title>{html.escape(text('chart_title', lang, seat=seat))}</title>",
        f'<line x1="{left}" y1="{up + ph}" x2="{left + pw}" y2="{up + ph}" class="axis"/>',
        f'<line x1="{left}" y1="{up}" x2="{left}" y2="{up + ph}" class="axis"/>',
    ]
    for name, v in (("good", th.good), ("inaccuracy", th.inaccuracy), ("mistake", th.mistake)):
        if v < top:
            parts.append(
                f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + pw}" y2="{y(v):.1f}" '
                f'class="threshold" stroke="{MARK_COLORS[name]}"/>'
            )
            parts.append(
                f'<text x="{left - 4}" y="{y(v) + 3:.1f}" class="tick" text-anchor="end">'
                f"{v:g}</text>"
            )
    parts.append(f'<text x="{left - 4}" y="{up + ph + 3}" class="tick" text-anchor="end">0</text>')
    step = max(1, round(n / 12))
    for i in range(0, n, step):
        parts.append(
            f'<text x="{x(i):.1f}" y="{up + ph + 14}" class="tick" text-anchor="middle">{i}</text>'
        )
    parts.append(
        f'<text x="{left + pw / 2:.1f}" y="{h - 4}" class="label" text-anchor="middle">'
        f"{html.escape(text('axis_move', lang))}</text>"
    )
    parts.append(
        f'<text x="12" y="{up + ph / 2:.1f}" class="label" text-anchor="middle" '
        f'transform="rotate(-90 12 {up + ph / 2:.1f})">'
        f"{html.escape(text('axis_loss', lang))}</text>"
    )
    bw = max(2.0, min(14.0, pw / n * 0.7))
    for d in mine:
        name = "best" if d.forced else MARKS.get(d.mark, "unclear")
        color = MARK_COLORS.get(name, "#9e9e9e")
        cx = x(d.index)
        tip = text(
            "bar_title",
            lang,
            index=d.index,
            played=move_name(d.played, lang),
            best=move_name(d.best, lang),
            loss=_f(d.loss),
            low=_f(d.loss_low),
            high=_f(d.loss_high),
            mark=mark_text(name, lang),
        )
        parts.append(
            f'<g class="decision" data-index="{d.index}" data-mark="{name}">'
            f"<title>{html.escape(tip)}</title>"
        )
        if d.forced:
            parts.append(
                f'<rect x="{cx - 1:.1f}" y="{up + ph - 2}" width="2" height="2" fill="#bbb"/>'
            )
        else:
            height = max(1.0, up + ph - y(d.loss))
            parts.append(
                f'<rect x="{cx - bw / 2:.1f}" y="{y(d.loss):.1f}" width="{bw:.1f}" '
                f'height="{height:.1f}" fill="{color}"/>'
            )
            if d.loss_high > d.loss_low:
                parts.append(
                    f'<line x1="{cx:.1f}" y1="{y(d.loss_low):.1f}" x2="{cx:.1f}" '
                    f'y2="{y(d.loss_high):.1f}" class="whisker"/>'
                )
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def _svg_overview(analysis: GameAnalysis, lang: str) -> str:
    """Every judged seat's cumulative loss (the chart of ``--plot``)."""
    seats = analysis.seats()
    n = max(1, analysis.moves_count())
    lines = {s: cumulative(analysis, s) for s in seats}
    top = max([0.5] + [pts[-1][1] for pts in lines.values() if pts]) * 1.1
    w, h, left, right, up, down = 760, 260, 56, 130, 14, 36
    pw, ph = w - left - right, h - up - down

    def x(i: float) -> float:
        return left + i / max(1, n - 1) * pw

    def y(v: float) -> float:
        return up + ph - v / top * ph

    title = text("overview", lang)
    parts = [
        f'<svg class="chart overview" '
        f'viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
        f'aria-label="{html.escape(title)}"><title>{html.escape(title)}</title>',
        f'<line x1="{left}" y1="{up + ph}" x2="{left + pw}" y2="{up + ph}" class="axis"/>',
        f'<line x1="{left}" y1="{up}" x2="{left}" y2="{up + ph}" class="axis"/>',
    ]
    for k in range(5):
        v = top * k / 4
        parts.append(
            f'<text x="{left - 4}" y="{y(v) + 3:.1f}" class="tick" text-anchor="end">{v:.2g}</text>'
        )
    step = max(1, round(n / 12))
    for i in range(0, n, step):
        parts.append(
            f'<text x="{x(i):.1f}" y="{up + ph + 14}" class="tick" text-anchor="middle">{i}</text>'
        )
    parts.append(
        f'<text x="{left + pw / 2:.1f}" y="{h - 4}" class="label" text-anchor="middle">'
        f"{html.escape(text('axis_move', lang))}</text>"
    )
    parts.append(
        f'<text x="12" y="{up + ph / 2:.1f}" class="label" text-anchor="middle" '
        f'transform="rotate(-90 12 {up + ph / 2:.1f})">'
        f"{html.escape(text('axis_total', lang))}</text>"
    )
    for k, s in enumerate(seats):
        color = SEAT_COLORS[k % len(SEAT_COLORS)]
        pts = [(0, 0.0)] + [(i, total) for i, total, _ in lines[s]]
        path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in pts)
        parts.append(
            f'<polyline class="seat-line" data-seat="{s}" points="{path}" fill="none" '
            f'stroke="{color}" stroke-width="2"/>'
        )
        for i, total, d in lines[s]:
            name = MARKS.get(d.mark, "?")
            if name in MISTAKE_MARKS:
                parts.append(
                    f'<circle cx="{x(i):.1f}" cy="{y(total):.1f}" r="4" '
                    f'fill="{MARK_COLORS[name]}"><title>'
                    f"{html.escape(text('seat', lang, seat=s))}: {d.index} "
                    f"{html.escape(mark_text(name, lang))}</title></circle>"
                )
        ly = up + 6 + 16 * k
        parts.append(
            f'<line x1="{left + pw + 12}" y1="{ly}" x2="{left + pw + 32}" y2="{ly}" '
            f'stroke="{color}" stroke-width="3"/><text x="{left + pw + 36}" '
            f'y="{ly + 4}" class="legend">{html.escape(text("seat", lang, seat=s))}</text>'
        )
    ly = up + 6 + 16 * len(seats) + 8
    for m in MISTAKE_MARKS:
        parts.append(
            f'<circle cx="{left + pw + 22}" cy="{ly}" r="4" fill="{MARK_COLORS[m]}"/>'
            f'<text x="{left + pw + 36}" y="{ly + 4}" class="legend">'
            f"{html.escape(mark_text(m, lang))}</text>"
        )
        ly += 16
    parts.append("</svg>")
    return "".join(parts)


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2em auto;
max-width:60em;color:#222;line-height:1.45;padding:0 1em}
h1{margin-bottom:.2em}.sub{color:#666;margin-top:0}
table{border-collapse:collapse;margin:.6em 0}th,td{border-bottom:1px solid #ddd;padding:.3em .6em;
text-align:left;vertical-align:top}th{background:#f4f4f4}
.num{text-align:right;font-variant-numeric:tabular-nums}
.card{white-space:nowrap}.red{color:#c62828}
.mark{display:inline-block;padding:0 .45em;border-radius:.3em;color:#fff;font-size:.9em}
.chart{max-width:100%;height:auto;background:#fff}
.axis{stroke:#333;stroke-width:1}.threshold{stroke-dasharray:4 3;stroke-width:1}
.whisker{stroke:#333;stroke-width:1}.tick{font-size:10px;fill:#444}
.label{font-size:11px;fill:#222}.legend{font-size:11px;fill:#222}
.note{color:#555;font-size:.92em}section.seat{margin-top:2em}
"""


def _light(color: str) -> bool:
    """Whether dark text reads better than white on ``color`` ("#rrggbb")."""
    r, g, b = (int(color[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.55


def _mark_span(name: str, label: str) -> str:
    color = MARK_COLORS.get(name, "#999999")
    ink = ";color:#222" if _light(color) else ""
    return (
        f'<span class="mark mark-{name}" style="background:{color}{ink}">'
        f"{html.escape(label)}</span>"
    )


def render_html(analysis: GameAnalysis, lang: str = "en") -> str:
    """The report page (one self-contained HTML document)."""
    th = analysis.thresholds
    seats = analysis.seats()
    by_seat = {s.seat: s for s in analysis.summaries}
    listed = [
        d
        for d in analysis.decisions
        if MARKS.get(d.mark) in MISTAKE_MARKS
        or (MARKS.get(d.mark) == "unclear" and d.loss_low > th.good)
    ]
    hands = hands_at(analysis.obj, [(d.seat, d.index) for d in listed])
    title = text("title", lang, game=analysis.title())
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{"vi" if lang == "vi" else "en"}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>{html.escape(title)}</h1>",
        f'<p class="sub">{html.escape(text("subtitle", lang, players=analysis.obj.get("players", "?"), file=analysis.source or "-", model=analysis.model or "-"))}</p>',
        f'<p class="note">{html.escape(text("how", lang, good=f"{th.good:g}", inaccuracy=f"{th.inaccuracy:g}", mistake=f"{th.mistake:g}"))}</p>',
    ]
    # summary table
    out.append(f'<h2 id="summary">{html.escape(text("summary", lang))}</h2>')
    heads = [
        "col_seat",
        "col_decisions",
        "col_accuracy",
        *[f"mark_{m}" for m in MARKS.values()],
        "col_total_loss",
        "col_result",
    ]
    out.append(
        '<table class="summary"><thead><tr>'
        + "".join(f"<th>{html.escape(text(k, lang))}</th>" for k in heads)
        + "</tr></thead><tbody>"
    )
    for seat in seats:
        s = by_seat.get(seat)
        if s is None:
            continue
        cells = [
            f'<a href="#seat-{seat}">{seat}</a>',
            str(s.decisions),
            f"{s.accuracy:.0%}",
            *[str(s.marks[m]) if m in s.marks else "0" for m in MARKS.values()],
            f"{s.total_loss:.2f}",
            f"{s.payoff:+g}" if s.HasField("payoff") else "-",
        ]
        out.append("<tr>" + "".join(f'<td class="num">{c}</td>' for c in cells) + "</tr>")
    out.append("</tbody></table>")
    out.append(f'<h2 id="overview">{html.escape(text("overview", lang))}</h2>')
    out.append(_svg_overview(analysis, lang))
    out.append(f'<p class="note">{html.escape(text("overview_note", lang))}</p>')
    # one section per seat
    for seat in seats:
        s = by_seat.get(seat)
        mine = [d for d in analysis.decisions if d.seat == seat]
        out.append(f'<section class="seat" id="seat-{seat}">')
        out.append(f"<h2>{html.escape(text('seat', lang, seat=seat))}</h2>")
        if s is not None:
            line = text(
                "seat_line",
                lang,
                decisions=s.decisions,
                forced=sum(1 for d in mine if d.forced),
                accuracy=f"{s.accuracy:.0%}",
                loss=f"{s.total_loss:.2f}",
            )
            if s.HasField("payoff"):
                line += "; " + text("result", lang, payoff=f"{s.payoff:+g}")
            counts = ", ".join(
                f"{mark_text(m, lang)} {s.marks[m] if m in s.marks else 0}" for m in MARKS.values()
            )
            out.append(f'<p class="accuracy">{html.escape(line)} ({html.escape(counts)})</p>')
        out.append(_svg_seat(analysis, seat, lang))
        out.append(f"<h3>{html.escape(text('mistakes', lang))}</h3>")
        rows = [d for d in listed if d.seat == seat]
        if not rows:
            out.append(f'<p class="none">{html.escape(text("no_mistakes", lang))}</p>')
        else:
            heads = ["col_move", "col_played", "col_better", "col_loss", "col_mark", "col_hand"]
            out.append(
                '<table class="mistakes"><thead><tr>'
                + "".join(f"<th>{html.escape(text(k, lang))}</th>" for k in heads)
                + "</tr></thead><tbody>"
            )
            for d in rows:
                name = MARKS.get(d.mark, "unclear")
                label = unclear_text(d, th, lang) if name == "unclear" else mark_text(name, lang)
                tied = [
                    move_name(t.move, lang)
                    for t in d.top
                    if t.group == 0 and t.move.text != d.best.text and t.move.text != d.played.text
                ]
                better = cards_html(move_name(d.best, lang))
                if tied:
                    better += (
                        '<br><span class="note">'
                        + text("also_good", lang, moves=", ".join(cards_html(m) for m in tied))
                        + "</span>"
                    )
                loss = (
                    f"{d.loss:.2f} ({d.loss_low:.2f}–{d.loss_high:.2f})"
                    f'<br><span class="note">{html.escape(text("worlds", lang, worlds=d.worlds))}</span>'
                )
                out.append(
                    f'<tr class="mistake" data-index="{d.index}" data-mark="{name}">'
                    f'<td class="num">{d.index}</td><td>{cards_html(move_name(d.played, lang))}</td>'
                    f'<td>{better}</td><td class="num">{loss}</td>'
                    f"<td>{_mark_span(name, label)}</td>"
                    f'<td class="hand">{cards_html(hands.get((d.seat, d.index), ""))}</td></tr>'
                )
            out.append("</tbody></table>")
        out.append("</section>")
    out.append(
        f'<p class="note">{html.escape(text("thresholds", lang, good=f"{th.good:g}", inaccuracy=f"{th.inaccuracy:g}", mistake=f"{th.mistake:g}"))} '
        f"{html.escape(text('footer', lang))}</p>"
    )
    out.append("</body></html>")
    return "\n".join(out)


def write_report(analysis: GameAnalysis, path: str, lang: str = "en") -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(render_html(analysis, lang))
