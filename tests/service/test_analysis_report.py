"""Analyze's marks with intervals, the HTML report (parsed), the labelled PNG chart, and the
``quansu play --save`` -> ``quansu analyze`` round trip with several files."""

from __future__ import annotations

import io
import itertools
import os
import random
import struct
from html.parser import HTMLParser

import pytest

from quansu import cli, report
from quansu.cli import analyze as cmd_analyze
from quansu.cli import play as cmd_play
from quansu.games import record as rec
from quansu.report import GameAnalysis, render_html, write_plot
from quansu.server.engine import build_engine, mark_of
from quansu.server.v1 import service_pb2 as pb

TH = pb.Thresholds(good=0.05, inaccuracy=0.15, mistake=0.4)


@pytest.mark.parametrize(
    "loss,low,high,mark",
    [
        (0.0, 0.0, 0.04, pb.MARK_BEST),  # nothing measurably better, inside [0, good]
        (0.03, 0.01, 0.05, pb.MARK_GOOD),  # a better move, by at most good
        (0.02, 0.01, 0.04, pb.MARK_BEST),  # better by a negligible amount (half of good)
        (0.025, 0.001, 0.05, pb.MARK_BEST),
        (0.026, 0.001, 0.05, pb.MARK_GOOD),  # measurably worse, by more than that
        (0.04, 0.0, 0.05, pb.MARK_BEST),  # not measurably worse
        (0.1, 0.06, 0.15, pb.MARK_INACCURACY),
        (0.3, 0.16, 0.39, pb.MARK_MISTAKE),
        (0.9, 0.41, 2.0, pb.MARK_BLUNDER),
        # the interval crosses one threshold: the estimate's band, the interval shown with it
        (0.0, 0.0, 0.06, pb.MARK_BEST),
        (0.12, 0.03, 0.14, pb.MARK_INACCURACY),
        (0.04, 0.03, 0.14, pb.MARK_GOOD),
        (0.42, 0.35, 0.45, pb.MARK_BLUNDER),
        (0.38, 0.35, 0.45, pb.MARK_MISTAKE),
        # it reaches two bands away from the estimate's: unclear
        (0.03, 0.0, 0.20, pb.MARK_UNCLEAR),
        (0.10, 0.03, 0.41, pb.MARK_UNCLEAR),
        (0.5, 0.1, 0.6, pb.MARK_UNCLEAR),
        (0.0, 0.0, 8.0, pb.MARK_UNCLEAR),  # no data: anything up to the cap
    ],
)
def test_a_mark_only_where_the_interval_supports_it(loss, low, high, mark):
    assert mark_of(loss, low, high, TH) == mark


def test_decision_accuracy_is_continuous_in_the_loss():
    from quansu.server.engine import decision_accuracy

    assert decision_accuracy(0.0, TH) == 1.0
    assert decision_accuracy(0.4, TH) == pytest.approx(0.5)  # half at the mistake threshold
    assert decision_accuracy(0.8, TH) == pytest.approx(0.25)
    xs = [decision_accuracy(x / 100, TH) for x in range(0, 200)]
    assert all(a > b for a, b in zip(xs, xs[1:]))  # strictly decreasing
    assert max(a - b for a, b in zip(xs, xs[1:])) < 0.02  # no jump at a threshold


def test_seat_accuracy_is_the_mean_decision_accuracy():
    from quansu.server.engine import Engine, decision_accuracy

    ds = [
        pb.Decision(index=0, seat=1, loss=0.0, mark=pb.MARK_BEST),
        pb.Decision(index=1, seat=1, loss=0.2, mark=pb.MARK_INACCURACY),
        pb.Decision(index=2, seat=1, loss=0.5, loss_low=0.1, loss_high=0.9, mark=pb.MARK_UNCLEAR),
        pb.Decision(index=3, seat=1, forced=True, mark=pb.MARK_BEST),
    ]
    s = Engine._summary(1, ds, None, False, TH)
    want = (1.0 + decision_accuracy(0.2, TH) + decision_accuracy(0.5, TH)) / 3
    assert s.accuracy == pytest.approx(want)  # unclear counted by its loss, forced left out
    assert s.marks["unclear"] == 1 and s.decisions == 4
    assert Engine._summary(1, ds[3:], None, False, TH).accuracy == 1.0


# -- a synthetic analysis (no search: the report's parts are checked exactly) ---------------------


def _record():
    from tests.helpers.service import long_record

    return long_record("tienlen", 4, min_moves=12, seed=3)


def _decision(index, seat, played, best, loss, low, high, mark, forced=False, tied=()):
    d = pb.Decision(
        index=index,
        seat=seat,
        loss=loss,
        loss_low=low,
        loss_high=high,
        mark=mark,
        forced=forced,
        worlds=0 if forced else 64,
        legal_moves=1 if forced else 5,
    )
    d.played.text, d.best.text = played, best
    d.top.add(move=pb.Move(text=best), group=0)
    for t in tied:
        d.top.add(move=pb.Move(text=t), group=0)
    d.top.add(move=pb.Move(text=played), group=0 if mark in (1, 2) else 1)
    return d


def _analysis():
    obj = _record()
    moves = obj["moves"]
    a = GameAnalysis(obj=obj, thresholds=TH, model="uniform", source="game.json")
    marks = [
        pb.MARK_BEST,
        pb.MARK_MISTAKE,
        pb.MARK_UNCLEAR,
        pb.MARK_BLUNDER,
        pb.MARK_GOOD,
        pb.MARK_INACCURACY,
    ]
    for i, mv in enumerate(moves[:12]):
        mark = marks[i % len(marks)]
        loss = {1: 0.0, 2: 0.03, 3: 0.1, 4: 0.3, 5: 0.9, 6: 0.3}[mark]
        low, high = {6: (0.08, 0.5)}.get(mark, (max(0.0, loss - 0.02), loss + 0.02))
        a.decisions.append(
            _decision(
                i,
                mv["seat"],
                mv["move"],
                "pass" if mv["move"] != "pass" else "3S",
                loss,
                low,
                high,
                mark,
                tied=("4S",) if i == 1 else (),
            )
        )
    for seat in sorted({d.seat for d in a.decisions}):
        s = pb.SeatSummary(
            seat=seat,
            decisions=sum(1 for d in a.decisions if d.seat == seat),
            accuracy=0.5,
            total_loss=sum(d.loss for d in a.decisions if d.seat == seat),
        )
        for name in ("best", "good", "inaccuracy", "mistake", "blunder", "unclear"):
            s.marks[name] = 0
        a.summaries.append(s)
    return a


class _Page(HTMLParser):
    """Collects tags, their attributes and the text inside elements with an id or class."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.stack: list[tuple[str, dict]] = []
        self.text: dict[str, str] = {}
        self.all_text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag not in ("meta", "br", "line", "rect", "circle", "polyline"):
            self.stack.append((tag, a))

    def handle_endtag(self, tag):
        while self.stack:
            t, _ = self.stack.pop()
            if t == tag:
                break

    def handle_data(self, data):
        self.all_text.append(data)
        for _, a in self.stack:
            key = a.get("id") or a.get("class")
            if key:
                self.text[key] = self.text.get(key, "") + data

    def find(self, tag, **attrs):
        return [
            a for t, a in self.tags if t == tag and all(a.get(k) == v for k, v in attrs.items())
        ]


def test_report_parts():
    a = _analysis()
    page = _Page()
    page.feed(render_html(a, "en"))
    assert page.find("html", lang="en") and page.find("meta", charset="utf-8")
    # self-contained: no script, no external reference
    assert not page.find("script") and not page.find("img") and not page.find("link")
    assert not any(
        v.startswith(("http:", "https:", "//"))
        for _, at in page.tags
        for k, v in at.items()
        if k in ("src", "href") and v
    )
    seats = sorted({d.seat for d in a.decisions})
    # the summary table: one row per seat with its accuracy
    assert len(page.find("a")) >= len(seats)
    assert page.find("svg", **{"class": "chart overview"})
    assert len(page.find("polyline", **{"class": "seat-line"})) == len(seats)
    for seat in seats:
        assert page.find("section", id=f"seat-{seat}")
        assert "accuracy 50%" in page.text.get("accuracy", "")
    # one bar group per decision at its move number, carrying its mark
    groups = page.find("g", **{"class": "decision"})
    assert sorted(int(g["data-index"]) for g in groups) == [d.index for d in a.decisions]
    # the mistakes: inaccuracies, mistakes, blunders, and unclear ones above `good`
    rows = page.find("tr", **{"class": "mistake"})
    want = [
        d.index
        for d in a.decisions
        if d.mark in (3, 4, 5) or (d.mark == 6 and d.loss_low > TH.good)
    ]
    assert sorted(int(r["data-index"]) for r in rows) == sorted(want)
    text = "".join(page.all_text)
    assert "Better move" in text and "Hand at that point" in text
    assert "unclear (inaccuracy or blunder)" in text
    assert "0.30 (0.28–0.32)" in text
    assert "as good: 4♠" in text or all(
        d.index != 1 or d.mark not in (3, 4, 5) for d in a.decisions
    )
    # the hand at move 1 is the seat's hand before its move (13 cards at the start of Tiến lên)
    hands = [t for k, t in page.text.items() if k == "hand"]
    assert hands and len(hands[0].split()) >= 10


def test_report_in_vietnamese():
    page = _Page()
    page.feed(render_html(_analysis(), "vi"))
    text = "".join(page.all_text)
    assert page.find("html", lang="vi")
    assert "Phân tích ván" in text and "Bài trên tay lúc đó" in text and "Nước tốt hơn" in text
    assert "sai nặng" in text


def _mark_colors_apart(colors):
    """The least distance between two of ``colors`` ("#rrggbb") in RGB units (0..441)."""
    rgb = [tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for c in colors]
    return min(
        sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5
        for i, a in enumerate(rgb)
        for b in rgb[i + 1 :]
    )


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_plot_is_a_labelled_png_drawn_with_matplotlib(tmp_path, lang):
    """The PNG chart is a matplotlib figure: its title, axes and legend are text objects in the
    language asked for, Vietnamese with its diacritics, at readable sizes; every mark has its
    own colour and shape; the file is a PNG of that figure."""
    pytest.importorskip("matplotlib")
    from matplotlib.font_manager import findfont

    from quansu import plot
    from quansu.report import MARK_COLORS, MARK_MARKERS
    from quansu.report import text as report_text

    a = _analysis()
    path = tmp_path / "a.png"
    fig = write_plot(a, str(path), lang)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", data[16:24])
    assert (w, h) == (1000, 560)
    ax = fig.axes[0]
    title = ax.title.get_text()
    assert title == f"{report_text('overview', lang)}: Tiến lên miền Nam"
    if lang == "vi":
        assert title == "Tổng mức mất qua ván: Tiến lên miền Nam"
        assert ax.get_ylabel() == "tổng mất (cược)" and ax.get_xlabel() == "nước thứ"
    # the font has the letters: DejaVu Sans, found (not a fallback), at readable sizes
    assert "DejaVuSans" in findfont(ax.title.get_fontproperties()).replace(" ", "")
    assert ax.title.get_fontsize() >= 14 and ax.xaxis.label.get_fontsize() >= 12
    assert all(t.get_fontsize() >= 11 for t in ax.get_xticklabels() + ax.get_yticklabels())
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    seats = sorted({d.seat for d in a.decisions})
    marks = ("inaccuracy", "mistake", "blunder", "unclear")
    assert legend == [report_text("seat", lang, seat=s) for s in seats] + [
        report.mark_text(m, lang) for m in marks
    ]
    if lang == "vi":
        assert "sai nặng" in legend and "chưa chuẩn" in legend
    assert all(t.get_fontsize() >= 11 for t in ax.get_legend().get_texts())
    # one line per seat, then one marker set per mark: distinct colours and shapes
    lines = ax.get_lines()
    assert len(lines) == len(seats) + len(marks)
    mark_lines = lines[len(seats) :]
    assert [ln.get_marker() for ln in mark_lines] == [MARK_MARKERS[m] for m in marks]
    assert len({MARK_MARKERS[m] for m in marks}) == len(marks)
    assert _mark_colors_apart([MARK_COLORS[m] for m in marks]) > 100
    assert (
        _mark_colors_apart([MARK_COLORS[m] for m in marks] + list(plot.SERIES_COLORS[: len(seats)]))
        > 60
    )
    # each decision with one of those marks is on its seat's line
    for m, ln in zip(marks, mark_lines):
        want = sorted(d.index for d in a.decisions if report.MARKS[d.mark] == m)
        assert sorted(int(x) for x in ln.get_xdata()) == want


def test_plot_without_matplotlib_is_a_clear_error(tmp_path, monkeypatch, capsys):
    """``analyze --plot`` without matplotlib stops before any analysis, saying how to install
    it; the chart functions raise PlotUnavailable."""
    import sys

    from quansu import plot

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    assert not plot.available()
    with pytest.raises(plot.PlotUnavailable, match=r"quansu\[plot\]"):
        write_plot(_analysis(), str(tmp_path / "a.png"))
    path = tmp_path / "g.json"
    rec.write_json(_record(), str(path))
    for lang, words in (("en", "needs matplotlib"), ("vi", "cần matplotlib")):
        rc, out = _analyze(
            [
                str(path),
                "--uniform",
                "--iterations",
                "4",
                "--plot",
                str(tmp_path / "a.png"),
                "--lang",
                lang,
            ]
        )
        err = capsys.readouterr().err
        assert rc == 2 and out == "", out
        assert words in err and 'pip install "quansu[plot]"' in err, err
    assert not (tmp_path / "a.png").exists()


def test_training_curves_are_drawn_with_matplotlib(tmp_path):
    pytest.importorskip("matplotlib")
    from quansu.models.training.plot import line_plot_png

    path = tmp_path / "curve.png"
    line_plot_png(
        {"policy_loss": [2.0, 1.5, 1.2], "value_loss": [0.5, 0.4, 0.41], "heldout_top1": []},
        str(path),
        title="phom: training",
    )
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    from quansu.plot import panels

    fig = panels({"policy_loss": [2.0, 1.5], "value_loss": [0.5, 0.4], "empty": []}, title="t")
    assert [ax.get_title(loc="left") for ax in fig.axes] == ["policy_loss", "value_loss"]


def test_a_learning_curve_is_drawn_against_decisions_and_hours(tmp_path):
    """:func:`quansu.plot.band_panels` (``bench.dmc curve --png``): one panel per x axis, each
    band a line over the same y values, the reference a horizontal line, a shared legend."""
    pytest.importorskip("matplotlib")
    from quansu.plot import Band, band_panels, save_png

    bands = [
        Band("policy vs 3 heuristic", [(0.1, 0.0, 0.2), (0.3, 0.2, 0.4)]),
        Band("level3 guided vs 3 sparring", [(-0.1, -0.3, 0.1), (0.2, 0.0, 0.4)]),
    ]
    fig = band_panels(
        [
            ("training decisions", "symlog", [0, 5000]),
            ("training hours", "linear", [0.0, 0.2]),
        ],
        bands,
        title="t",
        y_label="bets",
        references=[("level3 uniform", -0.05)],
    )
    left, right = fig.axes
    assert left.get_xscale() == "symlog" and right.get_xscale() == "linear"
    assert [ln.get_ydata().tolist() for ln in right.lines[:2]] == [[0.1, 0.3], [-0.1, 0.2]]
    assert list(right.lines[0].get_xdata()) == [0.0, 0.2]
    labels = [t.get_text() for t in right.get_legend().get_texts()]
    assert labels == ["policy vs 3 heuristic", "level3 guided vs 3 sparring", "level3 uniform"]
    path = tmp_path / "c.png"
    save_png(fig, str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# -- the round trip: play --save, then analyze one file, several and a folder -------------------------


def _save_game(path, game="tienlen", seed=3):
    args = cli.build_parser("play").parse_args(
        ["play", "--game", game, "--seed", str(seed), "--bot", "random", "--save", str(path)]
    )
    script = itertools.repeat("0")
    out = io.StringIO()
    assert cmd_play.run(args, input_fn=lambda p: next(script), out=out) == 0
    assert f"{path}" in out.getvalue()
    return rec.read_json(str(path))


def _analyze(argv, capsys=None):
    args = cli.build_parser("analyze").parse_args(["analyze", *argv])
    out = io.StringIO()
    return cmd_analyze.run(args, out=out), out.getvalue()


def test_play_save_then_analyze(tmp_path, capsys):
    obj = _save_game(tmp_path / "g1.json")
    assert obj["format"] == rec.RECORD_FORMAT and obj["result"]
    state = rec.replay_record(obj)
    assert state.is_terminal()
    rc, text = _analyze(
        [
            str(tmp_path / "g1.json"),
            "--uniform",
            "--seat",
            "0",
            "--iterations",
            "8",
            "--worlds",
            "16",
            "--seed",
            "1",
            "--report",
            str(tmp_path / "r.html"),
            "--plot",
            str(tmp_path / "r.png"),
        ]
    )
    assert rc == 0, capsys.readouterr().err
    assert "seat 0:" in text and "report written to" in text
    page = _Page()
    page.feed((tmp_path / "r.html").read_text(encoding="utf-8"))
    assert page.find("section", id="seat-0")
    assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"


def test_analyze_several_files_and_a_folder(tmp_path, capsys):
    folder = tmp_path / "games"
    folder.mkdir()
    _save_game(folder / "a.json", seed=4)
    _save_game(folder / "b.json", game="tan", seed=5)
    (folder / "index.json").write_text('{"games": []}')
    other = tmp_path / "c.json"
    _save_game(other, seed=6)
    rc, text = _analyze(
        [
            str(folder),
            str(other),
            "--uniform",
            "--iterations",
            "6",
            "--worlds",
            "8",
            "--seat",
            "0",
            "--seed",
            "2",
        ]
    )
    err = capsys.readouterr().err
    assert rc == 0, err
    assert "skipped" in err and "index.json" in err
    assert "[1/3] a.json" in err and "[3/3] c.json" in err  # progress per file
    lines = text.splitlines()
    assert lines[0].split()[:2] == ["file", "seat"]
    assert [ln.split()[0] for ln in lines[1:4]] == ["a.json", "b.json", "c.json"]
    assert lines[-1].startswith("all files")
    # --report takes one game
    rc, _ = _analyze([str(folder), "--uniform", "--report", str(tmp_path / "x.html")])
    assert rc == 2 and "--report: takes one game file" in capsys.readouterr().err


def test_analyze_missing_file_is_a_clear_error(tmp_path, capsys):
    rc, _ = _analyze([str(tmp_path / "nope.json"), "--uniform"])
    assert rc == 2 and "nope.json" in capsys.readouterr().err


def test_decisions_carry_interval_worlds_and_candidates():
    obj = _record()
    eng = build_engine(uniform=True)
    seat = obj["moves"][0]["seat"]
    from quansu.client import Client

    req = Client.analyze_request(obj, seats=[seat], iterations=10, seed=1)
    req.max_worlds = 24
    msgs = []
    eng.analyze(req, msgs.append)
    decisions = [m.decision for m in msgs if m.WhichOneof("item") == "decision"]
    assert decisions
    for d in decisions:
        if d.forced:
            assert d.stopped_by == "forced" and d.worlds == 0 and d.mark == pb.MARK_BEST
            continue
        assert 2 <= d.worlds <= 24 and d.stopped_by in ("settled", "precise", "cap")
        assert d.loss_low <= d.loss <= d.loss_high
        assert d.loss == pytest.approx(max(0.0, d.best_value - d.played_value))
        texts = [s.move.text for s in d.top]
        assert d.played.text in texts and texts[0] == d.best.text
        assert d.mark == mark_of(d.loss, d.loss_low, d.loss_high, msgs[0].thresholds)
    # max_worlds is checked
    from quansu.server.errors import RequestError

    req.max_worlds = 10**6
    with pytest.raises(RequestError) as ei:
        eng.analyze(req, lambda m: None)
    assert ei.value.field == "max_worlds"


def test_the_sparring_bots_move_is_always_a_candidate(monkeypatch):
    """With more legal moves than the search's candidates, the sparring bot's move (from the
    judged seat's information) is measured even when the search ranked it low."""
    from quansu.client import Client
    from quansu.server import analysis as analysis_mod

    obj = _record()
    eng = build_engine(uniform=True)
    seen = []
    real = analysis_mod.paired_evaluate

    def spy(state, candidates, reference, **kw):
        seen.append((state.clone(), list(candidates), kw["seed"]))
        return real(state, candidates, reference, **kw)

    # Analyze's decisions live in server/analysis.py: patched where they read them
    monkeypatch.setattr(analysis_mod, "paired_evaluate", spy)
    monkeypatch.setattr(analysis_mod, "ANALYZE_CANDIDATES", 1)  # the search proposes one move
    req = Client.analyze_request(obj, seats=[obj["moves"][0]["seat"]], iterations=4, seed=2)
    req.max_worlds = 4
    eng.analyze(req, lambda m: None)
    wide = [(st, c, sd) for st, c, sd in seen if len(st.legal_moves()) > 2]
    assert wide
    for state, candidates, seed in wide:
        move = state.game.sparring_move(state.clone(), random.Random(seed))
        assert move in candidates and len(candidates) <= 2


def test_every_legal_move_is_a_candidate_up_to_the_limit(monkeypatch):
    """Up to ``ANALYZE_CANDIDATES + 1`` legal moves every one is screened, whatever the short
    search ranked (its seed no longer decides which moves are measured); beyond, the search's
    first ``ANALYZE_CANDIDATES`` and the sparring bot's move."""
    from quansu.client import Client
    from quansu.server import analysis as analysis_mod
    from quansu.server import engine as engine_mod

    obj = _record()
    eng = build_engine(uniform=True)
    seen = []
    real = analysis_mod.paired_evaluate

    def spy(state, candidates, reference, **kw):
        seen.append((len(state.legal_moves()), set(candidates), set(state.legal_moves())))
        return real(state, candidates, reference, **kw)

    monkeypatch.setattr(analysis_mod, "paired_evaluate", spy)
    req = Client.analyze_request(obj, seats=[obj["moves"][0]["seat"]], iterations=4, seed=2)
    req.max_worlds = 4
    eng.analyze(req, lambda m: None)
    limit = analysis_mod.ANALYZE_CANDIDATES
    assert engine_mod.ANALYZE_CANDIDATES == limit  # still readable where it was
    assert any(17 < n <= limit + 1 for n, _, _ in seen)  # more than the first limit (16)
    for n, candidates, legal in seen:
        if n <= limit + 1:
            assert candidates == legal
        else:
            assert candidates <= legal and limit <= len(candidates) <= limit + 1


def test_default_worlds_come_from_the_game_unless_the_server_sets_them():
    from quansu.cli.analyze import analysis_jobs
    from quansu.games.registry import game_classes
    from quansu.server.engine import Limits

    eng = build_engine(uniform=True)
    info = {g.name: g for g in eng.describe_games().games}
    sizes = set()
    for name, cls in game_classes().items():
        game = cls(cls.min_players)
        sizes.add(cls.analysis_worlds)
        assert 2 <= cls.analysis_worlds <= eng.limits.max_worlds
        assert eng._worlds(0, game) == cls.analysis_worlds == info[name].analysis_worlds
        assert eng._worlds(40, game) == 40  # the request's own cap
        small = build_engine(Limits(default_worlds=32), uniform=True)
        assert small._worlds(0, game) == 32  # the server's default
        assert {g.name: g.analysis_worlds for g in small.describe_games().games}[name] == 32
        capped = build_engine(Limits(max_worlds=100), uniform=True)
        assert capped._worlds(0, game) == min(100, cls.analysis_worlds)
    assert len(sizes) > 1  # the games differ: each game's noise and time set its own
    assert analysis_jobs(0) == max(1, min(cmd_analyze.MAX_DEFAULT_JOBS, os.cpu_count() or 1))
    assert analysis_jobs(3) == 3 and analysis_jobs(None) >= 1


def test_save_an_unfinished_game_and_a_bad_path(tmp_path, capsys):
    path = tmp_path / "part.json"
    args = cli.build_parser("play").parse_args(
        ["play", "--seed", "3", "--bot", "random", "--save", str(path)]
    )
    answers = iter(["0", "quit"])
    assert cmd_play.run(args, input_fn=lambda p: next(answers), out=io.StringIO()) == 0
    obj = rec.read_json(str(path))
    assert obj["format"] == rec.RECORD_FORMAT and "result" not in obj and obj["moves"]
    assert not rec.replay_record(obj).is_terminal()
    args = cli.build_parser("play").parse_args(["play", "--save", str(tmp_path / "no" / "x.json")])
    assert cmd_play.run(args, input_fn=lambda p: "quit", out=io.StringIO()) == 2
    assert "does not exist" in capsys.readouterr().err


def test_worker_processes_give_the_same_decisions():
    from quansu.client import Client

    obj = _record()
    obj["moves"] = obj["moves"][:10]
    obj.pop("result", None)
    eng = build_engine(uniform=True)
    req = Client.analyze_request(obj, iterations=8, seed=5)
    req.max_worlds = 16
    one, two = [], []
    eng.analyze(req, one.append)
    eng.analyze(req, two.append, jobs=2)
    assert [m.SerializeToString() for m in one] == [m.SerializeToString() for m in two]
    assert [m.done for m in two if m.WhichOneof("item") == "decision"] == list(
        range(1, 1 + sum(1 for m in two if m.WhichOneof("item") == "decision"))
    )


def test_bench_stability_counts(tmp_path):
    from quansu.bench.analysis import accuracy_spread, record_files, stability

    def run(*marks):
        return [pb.Decision(index=i, mark=m) for i, m in enumerate(marks)] + [
            pb.Decision(index=9, forced=True, mark=pb.MARK_BEST)
        ]

    st = stability([run(1, 4, 6), run(1, 4, 3), run(2, 4, 6)])
    assert st["decisions"] == 3 and st["same_mark"] == 1  # only the mistake agrees
    assert st["same_mark_best_good_merged"] == 2
    assert st["pairwise_agreement"] == pytest.approx(5 / 9)
    sums = [[pb.SeatSummary(seat=0, accuracy=a)] for a in (0.5, 0.75, 0.6)]
    assert accuracy_spread(sums) == [pytest.approx(25.0)]
    rec.write_json(_record(), str(tmp_path / "a.json"))
    (tmp_path / "index.json").write_text("{}")
    assert [p.name for p in record_files([str(tmp_path)])] == ["a.json"]


def test_report_in_vietnamese_names_the_moves_as_players_say_them(tmp_path, capsys):
    """``--lang vi --report``: every decision's tooltip names the move played and the best move
    by their Vietnamese labels (đánh, bỏ lượt), never in the notation."""
    import re

    from quansu.games import make

    obj = _save_game(tmp_path / "g.json", seed=6)
    rc, _ = _analyze(
        [
            str(tmp_path / "g.json"),
            "--uniform",
            "--seat",
            "0",
            "--iterations",
            "8",
            "--worlds",
            "16",
            "--seed",
            "1",
            "--lang",
            "vi",
            "--report",
            str(tmp_path / "r.html"),
        ]
    )
    assert rc == 0, capsys.readouterr().err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    tips = re.findall(r"<title>nước (\d+): đã đi (.*?); tốt nhất (.*?); mất", page)
    game = make("tienlen", obj["players"])
    mine = {i: m["move"] for i, m in enumerate(obj["moves"]) if m["seat"] == 0}
    assert {int(i) for i, _, _ in tips} == set(mine)
    labels = {game.move_label(m, "vi") for m in _all_tienlen_moves(game, obj)}
    for i, played, best in tips:
        assert played == game.move_label(game.parse_move(mine[int(i)]), "vi")
        assert best in labels, best
        assert not re.search(r"\b[2-9TJQKA][SCDH]\b", played + best)


def _all_tienlen_moves(game, obj):
    """Every move legal at some point of the record ``obj``."""
    out = set()
    state = rec.replay_record({k: v for k, v in obj.items() if k != "result"} | {"moves": []})
    for m in obj["moves"]:
        out.update(state.legal_moves())
        state.apply(game.parse_move(m["move"]))
    return out
