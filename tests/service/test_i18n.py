"""Vietnamese and English (issue 23): every reason code, every command-line message and every
error code (rules and request checks) exists in both languages; the one list of reason codes
(server.reasons.reason_table) agrees with the code, the proto comment and docs/api.md; the
request's ``language`` (reasons and INVALID_ARGUMENT descriptions) and the CLI's ``--lang``."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest

from quansu.cli import build_parser, i18n
from quansu.games import make
from quansu.games.base import MoveInfo
from quansu.games.cards import parse_card as convert_card
from quansu.games.reasons import language, say
from quansu.games.registry import game_classes
from quansu.server import convert
from quansu.server.engine import build_engine
from quansu.server.errors import RequestError
from quansu.server.reasons import SEARCH_TEXTS, markdown_table, reason_table
from quansu.server.v1 import service_pb2 as pb
from tests.helpers.service import long_record, view_to_act

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(game_classes())
PLAYERS = {"tienlen": 4, "phom": 4, "samloc": 4, "tan": 2}


def _reasons_module(name: str):
    import importlib

    return importlib.import_module(game_classes()[name].__module__.rpartition(".")[0] + ".reasons")


# -- the reason codes ---------------------------------------------------------------------------


def test_every_reason_code_has_both_languages_with_the_same_fields():
    table = reason_table()
    assert len(table) >= 26
    for r in table.values():
        assert r.en.strip() and r.vi.strip(), r
        assert r.en != r.vi and not r.vi.isascii(), r
        assert i18n.fields_of(r.en) <= i18n.fields_of(r.vi) | {"cards"}, r
        assert i18n.fields_of(r.vi) <= {"cards", "card", "bomb", "top", "n"}, r
    # the search's codes first, then every game's
    assert list(table)[: len(SEARCH_TEXTS)] == list(SEARCH_TEXTS)
    for name in GAMES:
        for code in _reasons_module(name).TEXTS:
            assert name in table[code].games


def _walk_reasons(name: str, lang: str, games: int = 6) -> dict[str, list]:
    """Every reason a game's move_reasons gives on random games: code -> [(cards, text)]."""
    game = make(name, PLAYERS[name])
    out: dict[str, list] = {}
    with language(lang):
        for seed in range(games):
            rng = random.Random(seed)
            state = game.new_initial_state(rng)
            while not state.is_terminal():
                seat = state.current_player
                legal = state.legal_moves()
                for move in legal[:12]:
                    for code, cards, combo, text in game.move_reasons(state, seat, move):
                        out.setdefault(code, []).append((cards, combo, text))
                state.apply(game.heuristic_move(state, rng))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_each_game_says_its_reasons_in_both_languages(name):
    texts = _reasons_module(name).TEXTS
    en = _walk_reasons(name, "en")
    vi = _walk_reasons(name, "vi")
    assert en, f"{name}: no reason given on six games"
    assert set(en) <= set(texts), set(en) - set(texts)
    # the same reasons, cards and combos in both languages; only the text differs
    assert {c: [x[:2] for x in v] for c, v in en.items()} == {
        c: [x[:2] for x in v] for c, v in vi.items()
    }
    for code in en:
        for (_, _, te), (_, _, tv) in zip(en[code], vi[code]):
            assert te != tv and "{" not in te and "{" not in tv, (code, te, tv)


def test_search_reasons_in_vietnamese():
    from quansu.server.reasons import search_reasons

    with language("vi"):
        assert search_reasons(rank=0, legal_count=1) == [("only_move", (), "", "nước đi duy nhất")]
        got = search_reasons(
            rank=2, legal_count=5, group=0, top_text="3S", most_visited=True, safest=True
        )
        assert [r[0] for r in got] == ["tied", "most_visited", "safest"]
        assert got[0][3] == "ngang 3S trong sai số thống kê"
        assert (
            search_reasons(rank=1, legal_count=5, group=0)[0][3]
            == "ngang nước tốt nhất trong sai số thống kê"
        )
        assert (
            search_reasons(rank=4, legal_count=5, measured=False, visits=3)[0][3]
            == "quá ít lượt thử (3) để đánh giá"
        )
    assert (
        search_reasons(rank=1, legal_count=5, group=0)[0][3]
        == "as good as the top move within the statistical margin"
    )
    with pytest.raises(ValueError):
        with language("fr"):
            pass


def test_players_words_for_bombs_and_twos():
    from quansu.games.cards import parse_card
    from quansu.games.reasons import SHEDDING_TEXTS, shedding_reasons

    hand = [parse_card(c) for c in "4S 4C 5D 5H 6S 6H 7S 7C 7D 7H 2S 2H".split()]
    seq = tuple(parse_card(c) for c in "4S 4C 5D 5H 6S 6H".split())
    quad = tuple(parse_card(c) for c in "7S 7C 7D 7H".split())

    def bombs(*known):
        # the bombs of a set of cards among ``known`` (the game's own finder in play)
        return lambda cards: [b for b in known if set(b) <= set(cards)]

    with language("vi"):
        got = shedding_reasons(MoveInfo("play", seq, combo="pair_sequence"), hand, bombs(quad, seq))
        # the cards written as players write them (3♠ 10♥), the reason's cards stay ids
        assert [(r[0], r[3]) for r in got] == [
            ("plays_bomb", "đánh ba đôi thông 4♠ 4♣ 5♦ 5♥ 6♠ 6♥")
        ]
        assert got[0][1] == seq
        got = shedding_reasons(MoveInfo("pass"), hand, bombs(quad, seq))
        assert [(r[0], r[3]) for r in got] == [
            ("holds_twos", "giữ heo 2♠ 2♥ lại"),
            ("keeps_bomb", "giữ tứ quý 7♠ 7♣ 7♦ 7♥ để chặt"),
        ]
        got = shedding_reasons(MoveInfo("play", (hand[0],), combo="single"), hand, bombs(seq))
        # a bomb broken is a cost accepted, not a warning on the move (issue 45)
        assert ("breaks_bomb", "chấp nhận phá ba đôi thông 4♠ 4♣ 5♦ 5♥ 6♠ 6♥") in [
            (r[0], r[3]) for r in got
        ]
        # Sâm lốc names a four of a kind "quad": a bomb too
        got = shedding_reasons(MoveInfo("play", quad, combo="quad"), hand, bombs(quad))
        assert [r[0] for r in got] == ["plays_bomb"] and got[0][3] == "đánh tứ quý 7♠ 7♣ 7♦ 7♥"
    assert say(SHEDDING_TEXTS, "plays_two", (50,), "single", cards="2D")[3] == "spends a 2"


def test_the_proto_comment_lists_exactly_the_reason_codes():
    proto = (ROOT / "proto" / "quansu" / "v1" / "service.proto").read_text()
    start = proto.index("// The search's codes")
    comment = proto[start : proto.index("message Reason {", start)]
    assert set(re.findall(r'"([a-z_]+)"', comment)) == set(reason_table())


def test_docs_list_exactly_the_reason_codes_from_the_table():
    docs = (ROOT / "docs" / "api.md").read_text()
    start = docs.index("<!-- reason codes: generated by `python -m quansu.server.reasons` -->")
    end = docs.index("<!-- end of reason codes -->")
    assert docs[start:end].split("\n", 1)[1].strip() == markdown_table()


def test_the_web_page_shows_the_servers_reason_texts_in_its_language():
    """The page keeps no reason table of its own: it sends its language with every request and
    shows the ``text`` the server wrote."""
    js = (ROOT / "server" / "web" / "app.js").read_text()
    assert "REASONS_VI" not in js
    for code in ("best_value", "plays_bomb", "forms_meld", "low_trump_kept", "declares_u"):
        assert code not in js, code
    for route in ("/v1/suggest", "/v1/suggest-stream", "/v1/analyze", "/v1/legal-moves"):
        assert route in js, route
    assert js.count("language: S.lang") >= 5


# -- the request's language -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def engine():
    return build_engine(uniform=True)


def test_suggest_reasons_follow_the_request_language(engine):
    view = convert.record_message(view_to_act("tienlen", 4, seed=4))
    table = reason_table()
    answers = {}
    for lang in ("", "en", "vi"):
        req = pb.SuggestRequest(
            view=view, budget=pb.Budget(iterations=60), seed=9, top_k=8, language=lang
        )
        answers[lang] = engine.suggest(req)
    key = [[(r.code, list(r.cards), r.combo) for r in s.reasons] for s in answers["vi"].moves]
    assert key == [
        [(r.code, list(r.cards), r.combo) for r in s.reasons] for s in answers["en"].moves
    ]
    assert answers[""].moves == answers["en"].moves
    for s_en, s_vi in zip(answers["en"].moves, answers["vi"].moves):
        for r_en, r_vi in zip(s_en.reasons, s_vi.reasons):
            assert r_en.text != r_vi.text
            if r_en.code in ("best_value", "only_move", "most_visited", "safest"):
                assert (r_en.text, r_vi.text) == (table[r_en.code].en, table[r_en.code].vi)
    for bad in ("fr", "VI", "vi-VN"):
        with pytest.raises(RequestError) as ei:
            engine.suggest(pb.SuggestRequest(view=view, language=bad))
        assert ei.value.field == "language"
    stream = pb.SuggestStreamRequest(request=pb.SuggestRequest(view=view, language="xx"))
    with pytest.raises(RequestError) as ei:
        engine.precheck_suggest_stream(stream)
    assert ei.value.field == "request.language"


def test_analyze_reasons_follow_the_request_language(engine):
    record = convert.record_message(long_record("tan", 2, min_moves=4, seed=1))
    req = pb.AnalyzeRequest(
        record=record,
        seats=[0],
        budget=pb.Budget(iterations=20),
        seed=1,
        max_worlds=8,
        language="vi",
    )
    out = []
    engine.analyze(req, out.append)
    texts = [
        r.text
        for m in out
        if m.WhichOneof("item") == "decision"
        for s in m.decision.top
        for r in s.reasons
    ]
    assert texts, "no reason in the analysis"
    vi = {r.vi for r in reason_table().values()}
    en = {r.en for r in reason_table().values()}
    assert not set(texts) & en
    assert all(not t.isascii() for t in texts), texts  # Vietnamese has its diacritics
    assert set(texts) & vi
    with pytest.raises(RequestError) as ei:
        engine.precheck_analyze(pb.AnalyzeRequest(record=record, language="de"))
    assert ei.value.field == "language"


# -- the command line's messages ------------------------------------------------------------------

SERVER = ROOT / "server"
#: The command line: ``quansu/cli/`` (``__init__.py``: the parser, one module per subcommand,
#: ``common.py``, ``i18n.py``: the texts).
CLI = ROOT / "quansu" / "cli"


def _keys_used() -> set[str]:
    """Every message key the commands name literally: t("key", ...)."""
    used = set()
    for path in sorted(CLI.glob("*.py")):
        used |= set(re.findall(r'\bt\(\s*"([a-z_]+)"', path.read_text()))
        used |= set(re.findall(r"\bt\(\s*'([a-z_]+)'", path.read_text()))
    return used


def test_every_cli_message_exists_in_both_languages():
    for key, pair in i18n.MESSAGES.items():
        assert isinstance(pair, tuple) and len(pair) == 2, key
        en, vi = pair
        assert en and vi, key
        assert i18n.fields_of(en) == i18n.fields_of(vi), key
    used = _keys_used()
    assert len(used) > 40
    assert used <= set(i18n.MESSAGES), used - set(i18n.MESSAGES)
    # the keys built from values: every mark, every way a search stops, every move kind and combo
    marks = [n[len("MARK_") :].lower() for n in pb.Mark.keys() if n != "MARK_UNSPECIFIED"]
    for mark in marks:
        assert f"mark_{mark}" in i18n.MESSAGES, mark
    for stopped in ("iterations", "time", "deadline", "cancelled", "forced"):
        assert f"stopped_{stopped}" in i18n.MESSAGES
    # the move kinds and combinations: named by the games (games/labels.py, tests/games/test_labels.py)


def test_the_analysis_report_has_every_text_in_both_languages():
    from quansu import report

    for key, (en, vi) in report.TEXTS.items():
        assert en and vi, key
        assert i18n.fields_of(en) == i18n.fields_of(vi), key
    source = (ROOT / "quansu" / "report.py").read_text()
    used = set(re.findall(r'\btext\(\s*"([a-z_]+)"', source))
    assert used and used <= set(report.TEXTS), used - set(report.TEXTS)


def test_commands_print_no_untranslated_error():
    for path in [
        CLI / "__init__.py",
        CLI / "common.py",
        CLI / "play.py",
        CLI / "hint.py",
        CLI / "serve.py",
        CLI / "analyze.py",
        CLI / "replay.py",
        CLI / "view.py",
        CLI / "arena.py",
        CLI / "train.py",
    ]:
        text = path.read_text()
        if path.name not in ("arena.py", "train.py"):  # developer tools: English
            assert not re.search(r'print\(f?"(error|\\ninterrupted|quansu (replay|view):)', text), (
                path.name
            )
        assert not re.search(r'raise GameError\(f?"', text), path.name
        # a rules error is printed through its code (quansu.cli.i18n.error_text), never as str()
        for m in re.finditer(
            r"except \(?[A-Za-z, ]*GameError[A-Za-z, ]*\)? as e:\n((?:\s+.*\n){1,4})", text
        ):
            block = m.group(1)
            assert not re.search(r"message=e\b|\{e\}|str\(e\)", block), (path.name, block)


def test_default_language_comes_from_the_locale():
    d = i18n.default_language
    assert d({"LANG": "vi_VN.UTF-8"}) == "vi"
    assert d({"LC_ALL": "vi_VN", "LANG": "en_US.UTF-8"}) == "vi"
    assert d({"LC_ALL": "en_US.UTF-8", "LANG": "vi_VN.UTF-8"}) == "en"
    assert d({"LC_MESSAGES": "vi", "LANG": "C"}) == "vi"
    assert d({"LANG": "C.UTF-8"}) == "en" and d({}) == "en"


def test_lang_option_on_every_command(monkeypatch):
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, p in sub.choices.items():
        assert "--lang" in p._option_string_actions, name
    with pytest.raises(SystemExit):
        parser.parse_args(["hint", "x.json", "--lang", "fr"])
    monkeypatch.setenv("LC_ALL", "vi_VN.UTF-8")
    assert i18n.lang_of(parser.parse_args(["hint", "x.json"])) == "vi"
    assert i18n.lang_of(parser.parse_args(["hint", "x.json", "--lang", "en"])) == "en"


def test_play_in_vietnamese():
    from quansu.cli import play as cmd_play

    args = build_parser("play").parse_args(
        [
            "play",
            "--game",
            "tan",
            "--players",
            "2",
            "--seed",
            "5",
            "--bot",
            "heuristic",
            "--lang",
            "vi",
        ]
    )
    answers = iter(["9999", "swap", "0", "0", "0", "quit"])
    out = io.StringIO()
    assert cmd_play.run(args, input_fn=lambda prompt: next(answers), out=out) == 0
    text = out.getvalue()
    assert "bạn ngồi ghế 0" in text and "bài trên tay:" in text and "chủ: " in text
    assert "không có nước số 9999" in text and "không phải nước đi" in text
    assert "đến lượt: bạn" in text and "nước của bạn (gõ số thứ tự hoặc nước đi):" in text
    assert "] đổi chủ " in text or "] xong" in text
    # moves in Vietnamese words: the listed moves, the seats' moves
    listed = [line for line in text.splitlines() if line.startswith("  ") and ": [" in line]
    played = [line for line in text.splitlines() if line.startswith("ghế ")]
    assert listed and played
    for line in listed + played:
        assert not re.search(r"\b(swap|done|attack|defend|throw|take)\b", line), line
    assert "your move" not in text and "you are seat" not in text


def test_play_errors_in_vietnamese(capsys):
    from quansu.cli import play as cmd_play

    args = build_parser("play").parse_args(
        ["play", "--game", "tienlen", "--seat", "7", "--lang", "vi"]
    )
    assert cmd_play.run(args) == 2
    assert capsys.readouterr().err.strip() == "lỗi: --seat 7 ngoài khoảng 0..3"


def test_hint_in_vietnamese(capsys):
    from quansu.cli import hint as cmd_hint

    path = str(ROOT / "docs" / "examples" / "tienlen.view.json")
    parse = build_parser("hint").parse_args
    out = io.StringIO()
    common = ["--iterations", "40", "--seed", "3", "--uniform", "--lang", "vi"]
    assert cmd_hint.run(parse(["hint", path, *common]), out=out) == 0
    text = out.getvalue()
    lines = text.splitlines()
    # the advice first, in a player's words; the statistics only with --details (issue 45)
    assert lines[0].startswith("Nên đánh ") and "nên đi:" in lines[-1]
    assert "lý do" in text and reason_table()["best_value"].vi in text
    assert "lượt thử trong" not in text and "cận dưới" not in text and "nhóm" not in text
    out = io.StringIO()
    assert cmd_hint.run(parse(["hint", path, *common, "--details"]), out=out) == 0
    details = out.getvalue()
    assert details.splitlines()[0] == lines[0]
    assert "lượt thử trong" in details and "nước hợp lệ" in details and "cận dưới" in details
    out = io.StringIO()
    assert cmd_hint.run(parse(["hint", path, *common, "--json"]), out=out) == 0
    resp = json.loads(out.getvalue())
    assert resp["moves"][0]["reasons"][0]["text"] == reason_table()["best_value"].vi
    assert resp["advice"] == lines[0]
    # play: the first row's move, named as the advice names it
    assert lines[-1] == "nên đi: " + resp["moves"][0]["move"]["label"]
    assert resp["moves"][0]["move"]["label"] in resp["advice"]
    assert cmd_hint.run(parse(["hint", path, "--seat", "1", "--lang", "vi"])) == 2
    assert capsys.readouterr().err.startswith("lỗi: view: --seat/--at: chỉ dùng cho bản ghi cả ván")


def test_analyze_in_vietnamese():
    from quansu.cli import analyze as cmd_analyze

    path = str(ROOT / "docs" / "examples" / "tan.record.json")
    args = build_parser("analyze").parse_args(
        ["analyze", path, "--seat", "0", "--iterations", "10", "--uniform", "--lang", "vi"]
    )
    out = io.StringIO()
    assert cmd_analyze.run(args, out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("mô hình uniform; đánh giá: tốt <= ")
    assert lines[1].split() == [
        "nước",
        "ghế",
        "đã",
        "đi",
        "tốt",
        "nhất",
        "mất",
        "khoảng",
        "95%",
        "số",
        "ván",
        "đánh",
        "giá",
    ]
    assert "tốt nhất (bắt buộc)" in out.getvalue()
    summary = [line for line in lines if line.startswith("ghế 0: ")]
    assert len(summary) == 1 and "quyết định, tổng mất" in summary[0], lines
    assert "độ chính xác" in summary[0] and "; kết quả " in summary[0]
    assert all(line.startswith("  tệ nhất: nước ") for line in lines[lines.index(summary[0]) + 1 :])
    # each decision's move played named as a Tấn player says it (đổi chủ, đánh, đỡ, bốc bài)
    record = json.loads(Path(path).read_text())
    game = make("tan", record["players"])
    rows = {int(line.split()[0]): line for line in lines[2:] if re.match(r"\s*\d+ +0  ", line)}
    played = {i: m["move"] for i, m in enumerate(record["moves"]) if m["seat"] == 0}
    assert set(rows) == set(played)
    for i, move in played.items():
        assert rows[i][11:].startswith(game.move_label(game.parse_move(move), "vi")), rows[i]
    assert not re.search(r"\b(attack|defend|throw|take|swap|done)\b", "\n".join(rows.values()))


def test_marks_and_zones_use_the_players_terms():
    assert i18n.mark_name(3, "vi") == "chưa chuẩn" and i18n.mark_name("blunder", "vi") == "sai nặng"
    assert i18n.zone_name("discard2", "vi") == "bài ghế 2 đánh ra"
    assert i18n.zone_name("stock", "vi") == "nọc"


# -- the error codes (rules and request checks) ----------------------------------------------------

#: The exception classes whose messages are texts for a person (the rules' and the service's).
_ERROR_CLASSES = {
    "GameError",
    "OptionError",
    "IllegalMoveError",
    "MoveParseError",
    "DealError",
    "RecordError",
    "ResultError",
    "CardError",
    "RequestError",
    "BadBody",
}


def _error_table() -> dict:
    import quansu.server.errors  # noqa: F401  (the request checks' texts)
    from quansu.games.errors import TABLE

    for name in GAMES:
        make(name, PLAYERS[name])  # every game registers its texts when imported
    for name in ("phom", "tan"):
        __import__(f"quansu.games.{name}.view")
    return TABLE


def _error_sources() -> list[Path]:
    return sorted((ROOT / "games").rglob("*.py")) + [
        SERVER / "errors.py",
        SERVER / "engine.py",
        SERVER / "checks.py",
        SERVER / "suggest.py",
        SERVER / "analysis.py",
        SERVER / "convert.py",
        SERVER / "servicer.py",
        SERVER / "gateway.py",
    ]


def test_every_error_code_has_both_languages_with_the_same_fields():
    from quansu.games.errors import fields_of

    table = _error_table()
    assert len(table) > 250
    for code, pair in table.items():
        assert re.fullmatch(r"([a-z]+\.)?[a-z0-9_]+", code), code
        assert isinstance(pair, tuple) and len(pair) == 2, code
        en, vi = pair
        assert en.strip() and vi.strip(), code
        if re.search(r"[a-z]", re.sub(r"\{[^}]*\}", "", en)):  # words, not only fields
            assert en != vi and not vi.isascii(), (code, vi)  # Vietnamese has its diacritics
        assert fields_of(en) == fields_of(vi), code
        game = code.split(".")[0] if "." in code else None
        if game in GAMES:  # a game's own texts live with it
            from quansu.games.registry import game_classes as classes

            module = __import__(f"quansu.games.{game}.errors", fromlist=["TEXTS"])
            assert code in module.TEXTS and classes()[game], code


def _codes_in_sources() -> dict[str, Path]:
    """Every error code the sources name literally (``X.of("code"``, ``Text("code"``,
    ``RequestError.of(field, "code"``), and the codes they build from values."""
    import ast

    out: dict[str, Path] = {}
    for path in _error_sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr == "of":
                owner = (
                    f.value.id
                    if isinstance(f.value, ast.Name)
                    else f.value.attr
                    if isinstance(f.value, ast.Attribute)
                    else ""
                )
                arg = node.args[1] if owner == "RequestError" else node.args[0]
            elif (
                isinstance(f, ast.Name | ast.Attribute)
                and (f.id if isinstance(f, ast.Name) else f.attr) == "Text"
            ):
                arg = node.args[0]
            else:
                continue
            for a in [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]:
                if isinstance(a, ast.Constant) and isinstance(a.value, str):
                    out.setdefault(a.value, path)
    # built from values: Phỏm's phases, the request checks' counted things
    from quansu.games.phom.game import PHASE_NAMES

    for phase in PHASE_NAMES:
        out.setdefault(f"phom.phase_{phase}", ROOT / "games" / "phom" / "game.py")
    convert_src = (SERVER / "convert.py").read_text()
    for what in re.findall(r'_count\([^)]*,\s*"([a-z]+)"\)', convert_src):
        out.setdefault(f"request.too_many_{what}", SERVER / "convert.py")
    return out


def test_every_error_code_the_sources_raise_is_in_the_table():
    table = _error_table()
    used = _codes_in_sources()
    assert len(used) > 250
    assert set(used) <= set(table), {c: str(p) for c, p in used.items() if c not in table}
    assert set(table) <= set(used), set(table) - set(used)  # no text left unused


def test_no_error_for_a_person_is_raised_without_a_code():
    """Every rules error (games/) and every request check (server/) is raised with a code: no
    message built from a plain string."""
    import ast

    plain = []
    for path in _error_sources():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = (
                f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            )
            if name not in _ERROR_CLASSES:
                continue
            for arg in node.args:
                if isinstance(arg, ast.JoinedStr) or (
                    isinstance(arg, ast.Constant)
                    and isinstance(arg.value, str)
                    and name not in ("RequestError",)
                ):
                    plain.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if (
                name == "RequestError"
                and len(node.args) == 2
                and isinstance(node.args[1], (ast.JoinedStr, ast.Constant))
            ):
                plain.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not plain, plain


def _mutated_records(name: str, players: int, records: int = 4, per_record: int = 10):
    """Records of random games with one thing broken each (a move, a seat, a card, the first
    seat, an option, the game)."""
    import copy

    from quansu.games import record as rec

    rng = random.Random(7)
    cards = [r + s for r in "3456789TJQKA2" for s in "SCDH"]
    game = make(name, players)
    for k in range(records):
        state = game.new_initial_state(random.Random(k))
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
        r = rec.record_from_state(state)
        for j in range(per_record):
            r2 = copy.deepcopy(r)
            moves = r2.setdefault("moves", [])
            kind = j % 7
            if kind == 0 and moves:
                moves[rng.randrange(len(moves))]["move"] = rng.choice(moves)["move"]
            elif kind == 1 and moves:
                moves[rng.randrange(len(moves))]["seat"] = rng.randrange(players + 1)
            elif kind == 2:
                hand = r2["deal"]["hands"][rng.randrange(players)]["cards"]
                hand[rng.randrange(len(hand))] = rng.choice(cards)
            elif kind == 3:
                r2["deal"]["first"] = rng.choice([-1, players, "x"])
            elif kind == 4:
                r2["options"] = {
                    rng.choice(
                        ["nope", "cong_multiplier", "trump_swap", "previous_winner"]
                    ): rng.choice([-1, "none", [1]])
                }
            elif kind == 5 and moves:
                moves[rng.randrange(len(moves))]["move"] = " ".join(rng.sample(cards, 2))
            elif kind == 6:
                r2["players"] = rng.choice([1, 9])
            yield r2


@pytest.mark.parametrize("name", GAMES)
def test_rules_errors_of_broken_records_have_codes_and_vietnamese_texts(name):
    """The errors a broken record raises, across every game: each has a code of the table, its
    English ``str()`` is the text of its code, and it reads in Vietnamese."""
    from quansu.games import record as rec
    from quansu.games.base import GameError
    from quansu.games.errors import CodedError, render

    table = _error_table()
    seen = set()
    for r in _mutated_records(name, PLAYERS[name]):
        try:
            rec.replay_record(rec.parse_record(r))
        except GameError as e:
            assert isinstance(e, CodedError) and e.code in table, (e.code, str(e))
            assert render(e, "en") == str(e)
            vi = render(e, "vi")
            assert vi != str(e) and not vi.isascii(), (str(e), vi)
            # the field path is never translated
            assert vi.split(": ")[0] == str(e).split(": ")[0] or not e.path
            seen.add(e.code)
    assert len(seen) >= 4, seen


def test_a_rules_error_carries_code_params_and_path():
    import pickle

    from quansu.games import record as rec
    from quansu.games.base import IllegalMoveError
    from quansu.games.errors import render

    obj = json.loads((ROOT / "docs" / "examples" / "tienlen.record.json").read_text())
    obj["moves"][3]["move"] = "9H 9D"
    with pytest.raises(IllegalMoveError) as ei:
        rec.replay_record(rec.parse_record(obj))
    e = ei.value
    assert str(e) == "moves[3]: 9D 9H is not in seat 0's hand"
    assert (e.code, e.params, e.path) == (
        "tienlen.not_in_hand",
        {"cards": "9D 9H", "seat": 0},
        ("moves[3]",),
    )
    assert render(e, "vi") == "moves[3]: 9D 9H không có trên tay ghế 0"
    back = pickle.loads(pickle.dumps(e))
    assert (type(back), str(back), back.code, back.path) == (
        IllegalMoveError,
        str(e),
        e.code,
        e.path,
    )
    # an option error, a card error: the players' words
    with pytest.raises(Exception) as ei:
        make("tienlen", 4, {"cong_multiplier": -1})
    assert render(ei.value, "vi").startswith("tùy chọn 'cong_multiplier': ")
    from quansu.games.cards import parse_card

    with pytest.raises(Exception) as ei:
        parse_card("1X")
    assert (
        render(ei.value, "vi") == "lá bài sai '1X': không có số '1' (dùng 2-9, T hoặc 10, J, "
        "Q, K, A)"
    )
    assert str(ei.value) == "bad card '1X': unknown rank '1' (use 2-9, T or 10, J, Q, K, A)"


def test_the_engine_writes_invalid_argument_in_the_request_language(engine):
    from quansu.server.errors import to_rpc_status

    view = view_to_act("tienlen", 4, seed=4)
    view["moves"][0]["move"] = "pass" if view["moves"][0]["move"] != "pass" else "3S"
    msgs = {}
    for lang in ("", "en", "vi"):
        req = pb.SuggestRequest(view=convert.record_message(view), language=lang)
        with pytest.raises(RequestError) as ei:
            engine.suggest(req)
        msgs[lang] = (ei.value.field, ei.value.render(lang or "en"))
        status = to_rpc_status(ei.value, lang=lang)
        assert status.message.endswith(msgs[lang][1])
    assert msgs[""] == msgs["en"]
    assert msgs["vi"][0] == msgs["en"][0] == "view.moves[0]"
    assert msgs["vi"][1] != msgs["en"][1] and "ghế" in msgs["vi"][1]
    # the service's own checks too
    with pytest.raises(RequestError) as ei:
        engine.suggest(
            pb.SuggestRequest(view=convert.record_message(view), top_k=-1, language="vi")
        )
    assert ei.value.field == "top_k" and ei.value.render("vi") == "-1 ngoài khoảng 0..64"
    assert ei.value.message == "-1 is out of range 0..64"


@pytest.fixture(scope="module")
def live():
    from tests.helpers.service import client, running_server

    with running_server(workers=1) as (_server, target):
        c = client(target)
        yield c
        c.close()


def _violations(err) -> list[tuple[str, str]]:
    from quansu.server.errors import field_violations

    return field_violations(err)


def _reasons(err) -> list[str]:
    """The ``reason`` of each BadRequest field violation (the error's code)."""
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    out = []
    for d in rpc_status.from_call(err).details:
        br = error_details_pb2.BadRequest()
        if d.Unpack(br):
            out += [v.reason for v in br.field_violations]
    return out


def test_api_invalid_argument_follows_the_language_field(live):
    """Over gRPC: Suggest, SuggestStream, Analyze and LegalMoves describe a bad request in the
    request's ``language``; the field path and the status code are the same in every language."""
    import grpc

    view = view_to_act("tienlen", 4, seed=4)
    view["deal"]["hands"][view["seat"]]["cards"][0] = view["deal"]["hands"][view["seat"]]["cards"][
        1
    ]
    record = long_record("tienlen", 4, min_moves=6, seed=2)
    record["moves"][2]["move"] = "2H 2S 2D"
    calls = {
        "suggest": lambda lang: live.suggest(view, iterations=5, language=lang),
        "suggest_stream": lambda lang: list(live.suggest_stream(view, iterations=5, language=lang)),
        "analyze": lambda lang: list(live.analyze(record, iterations=5, language=lang)),
        "legal_moves": lambda lang: live.legal_moves(record, language=lang),
    }
    from quansu.games.errors import TABLE
    from quansu.server.errors import violation_reason

    reasons = {violation_reason(code) for code in TABLE}
    for name, call in calls.items():
        got = {}
        why = {}
        for lang in ("en", "vi"):
            with pytest.raises(grpc.RpcError) as ei:
                call(lang)
            assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT, name
            got[lang] = _violations(ei.value)
            why[lang] = _reasons(ei.value)
            assert len(got[lang]) == 1, (name, got[lang])
        assert why["en"] == why["vi"] and why["en"][0] in reasons, (name, why)  # the code
        (f_en, d_en), (f_vi, d_vi) = got["en"][0], got["vi"][0]
        assert f_en == f_vi, name
        assert d_en.isascii() and not d_vi.isascii() and d_en != d_vi, (name, d_en, d_vi)
    # a language the server does not know is refused, in English, naming the field
    with pytest.raises(grpc.RpcError) as ei:
        live.legal_moves(record, language="fr")
    assert _violations(ei.value)[0][0] == "language"


def test_client_language_on_live_server(live):
    """``Client.suggest``, ``suggest_stream`` and ``analyze`` send ``language``: the reasons'
    texts come back in Vietnamese, the codes unchanged."""
    view = view_to_act("tienlen", 4, seed=4)
    en = live.suggest(view, iterations=40, seed=3, top_k=4)
    vi = live.suggest(view, iterations=40, seed=3, top_k=4, language="vi")
    assert [[r.code for r in s.reasons] for s in en.moves] == [
        [r.code for r in s.reasons] for s in vi.moves
    ]
    table = reason_table()
    first_en, first_vi = en.moves[0].reasons[0], vi.moves[0].reasons[0]
    assert first_vi.code == "best_value" and first_vi.text == table["best_value"].vi
    assert first_en.text == table["best_value"].en
    last = list(live.suggest_stream(view, iterations=40, seed=3, interval_ms=0, language="vi"))[-1]
    assert last.final and last.moves[0].reasons[0].text == table["best_value"].vi
    record = long_record("tan", 2, min_moves=4, seed=1)
    texts = [
        r.text
        for m in live.analyze(record, seats=[0], iterations=10, seed=1, language="vi")
        if m.WhichOneof("item") == "decision"
        for s in m.decision.top
        for r in s.reasons
    ]
    assert texts and all(not t.isascii() for t in texts), texts


def test_cli_errors_of_the_rules_in_vietnamese(tmp_path, capsys):
    """replay, view, hint and play print the rules' errors in --lang."""
    from quansu.cli import hint as cmd_hint
    from quansu.cli import play as cmd_play
    from quansu.cli import replay as cmd_replay
    from quansu.cli import view as cmd_view

    obj = json.loads((ROOT / "docs" / "examples" / "tienlen.record.json").read_text())
    obj["moves"][3]["move"] = "9H 9D"
    path = tmp_path / "bad.record.json"
    path.write_text(json.dumps(obj))
    run = {"replay": cmd_replay.run, "view": cmd_view.run}
    for name, extra in (("replay", []), ("view", ["--seat", "1"])):
        for lang, want in (
            ("vi", "moves[3]: 9D 9H không có trên tay ghế 0"),
            ("en", "moves[3]: 9D 9H is not in seat 0's hand"),
        ):
            args = build_parser(name).parse_args([name, str(path), *extra, "--lang", lang])
            assert run[name](args) == 1
            err = capsys.readouterr().err
            assert err.strip().endswith(want), err
    out = io.StringIO()
    args = build_parser("replay").parse_args(["replay", str(path), "--json", "--lang", "vi"])
    assert cmd_replay.run(args, out=out) == 1
    last = json.loads(out.getvalue().splitlines()[-1])
    assert last == {
        "type": "error",
        "error": "moves[3]: 9D 9H không có trên tay ghế 0",
        "code": "tienlen.not_in_hand",
    }
    capsys.readouterr()
    args = build_parser("hint").parse_args(
        ["hint", str(path), "--seat", "1", "--at", "5", "--uniform", "--lang", "vi"]
    )
    assert cmd_hint.run(args) == 2
    assert capsys.readouterr().err.strip() == "lỗi: view.moves[3]: 9D 9H không có trên tay ghế 0"
    args = build_parser("play").parse_args(
        ["play", "--game", "tienlen", "--option", "cong_multiplier=-1", "--lang", "vi"]
    )
    assert cmd_play.run(args) == 2
    assert capsys.readouterr().err.strip().startswith("lỗi: tùy chọn 'cong_multiplier': ")


def test_replay_in_vietnamese(capsys):
    from quansu.cli import replay as cmd_replay

    path = str(ROOT / "docs" / "examples" / "phom.record.json")
    out = io.StringIO()
    args = build_parser("replay").parse_args(["replay", path, "--lang", "vi"])
    assert cmd_replay.run(args, out=out) == 0
    text = out.getvalue()
    assert text.startswith("trò chơi: phom, ") and "chia bài (ghế " in text
    assert "hết ván sau " in text and "thanh toán (người trả -> người nhận: cược):" in text
    assert "kết quả: khớp với thanh toán" in text and "seat" not in text
    # the moves as a Phỏm player says them, the cards written 3♠ 10♥, the hands ace low
    record = json.loads(Path(path).read_text())
    game = make("phom", record["players"])
    rows = [line[11:] for line in text.splitlines() if re.match(r"\d+ +\d+ +\S", line)]
    assert rows == [game.move_label(game.parse_move(m["move"]), "vi") for m in record["moves"]]
    assert "bốc" in rows and any(r.startswith("đánh ") for r in rows)
    assert not re.search(r"\b(draw|discard|eat|lay|send)\b|\b[2-9TJQKA][SCDH]\b", text)
    hands = [line.split(": ", 1)[1] for line in text.splitlines() if re.match(r"  ghế \d: ", line)]
    assert len(hands) == record["players"]
    from quansu.games.labels import cards_label

    for hand, dealt in zip(hands, record["deal"]["hands"]):
        cards = [convert_card(c) for c in dealt["cards"]]
        assert hand == cards_label(game.sort_cards(cards))
