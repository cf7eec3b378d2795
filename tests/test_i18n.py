"""Vietnamese and English (issue 23): every reason code and every command-line message exists in
both languages; the one list of reason codes (server.reasons.reason_table) agrees with the code,
the proto comment and docs/api.md; the request's ``language`` and the CLI's ``--lang``."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest

from quansu.games import make
from quansu.games.base import MoveInfo
from quansu.games.reasons import language, say
from quansu.games.registry import game_classes
from quansu.server import convert, i18n
from quansu.server.cli import build_parser
from quansu.server.engine import build_engine
from quansu.server.errors import RequestError
from quansu.server.reasons import SEARCH_TEXTS, markdown_table, reason_table
from quansu.server.v1 import service_pb2 as pb
from tests.test_service_util import long_record, view_to_act

ROOT = Path(__file__).resolve().parent.parent
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
    assert list(table)[:len(SEARCH_TEXTS)] == list(SEARCH_TEXTS)
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
    assert {c: [x[:2] for x in v] for c, v in en.items()} == \
        {c: [x[:2] for x in v] for c, v in vi.items()}
    for code in en:
        for (_, _, te), (_, _, tv) in zip(en[code], vi[code]):
            assert te != tv and "{" not in te and "{" not in tv, (code, te, tv)


def test_search_reasons_in_vietnamese():
    from quansu.server.reasons import search_reasons

    with language("vi"):
        assert search_reasons(rank=0, legal_count=1) == [("only_move", (), "", "nước đi duy nhất")]
        got = search_reasons(rank=2, legal_count=5, group=0, top_text="3S", most_visited=True,
                             safest=True)
        assert [r[0] for r in got] == ["tied", "most_visited", "safest"]
        assert got[0][3] == "ngang 3S trong sai số thống kê"
        assert search_reasons(rank=1, legal_count=5, group=0)[0][3] == \
            "ngang nước tốt nhất trong sai số thống kê"
        assert search_reasons(rank=4, legal_count=5, measured=False, visits=3)[0][3] == \
            "quá ít lượt thử (3) để đánh giá"
    assert search_reasons(rank=1, legal_count=5, group=0)[0][3] == \
        "as good as the top move within the statistical margin"
    with pytest.raises(ValueError):
        with language("fr"):
            pass


def test_players_words_for_bombs_and_twos():
    from quansu.games.reasons import SHEDDING_TEXTS, shedding_reasons
    from quansu.games.cards import parse_card

    hand = [parse_card(c) for c in "4S 4C 5D 5H 6S 6H 7S 7C 7D 7H 2S 2H".split()]
    seq = tuple(parse_card(c) for c in "4S 4C 5D 5H 6S 6H".split())
    quad = tuple(parse_card(c) for c in "7S 7C 7D 7H".split())
    with language("vi"):
        got = shedding_reasons(MoveInfo("play", seq, combo="pair_sequence"), hand, [quad, seq])
        assert [(r[0], r[3]) for r in got] == [("plays_bomb", "đánh ba đôi thông 4S 4C 5D 5H 6S 6H")]
        got = shedding_reasons(MoveInfo("pass"), hand, [quad, seq])
        assert [(r[0], r[3]) for r in got] == [("holds_twos", "giữ heo 2S 2H lại"),
                                               ("keeps_bomb", "giữ tứ quý 7S 7C 7D 7H để chặt")]
        got = shedding_reasons(MoveInfo("play", (hand[0],), combo="single"), hand, [seq])
        assert ("breaks_bomb", "phá ba đôi thông 4S 4C 5D 5H 6S 6H") in [(r[0], r[3]) for r in got]
        # Sâm lốc names a four of a kind "quad": a bomb too
        got = shedding_reasons(MoveInfo("play", quad, combo="quad"), hand, [quad])
        assert [r[0] for r in got] == ["plays_bomb"] and got[0][3] == "đánh tứ quý 7S 7C 7D 7H"
    assert say(SHEDDING_TEXTS, "plays_two", (50,), "single", cards="2D")[3] == "spends a 2"


def test_the_proto_comment_lists_exactly_the_reason_codes():
    proto = (ROOT / "proto" / "quansu" / "v1" / "service.proto").read_text()
    start = proto.index("// The search's codes")
    comment = proto[start:proto.index("message Reason {", start)]
    assert set(re.findall(r'"([a-z_]+)"', comment)) == set(reason_table())


def test_docs_list_exactly_the_reason_codes_from_the_table():
    docs = (ROOT / "docs" / "api.md").read_text()
    start = docs.index("<!-- reason codes: generated by `python -m quansu.server.reasons` -->")
    end = docs.index("<!-- end of reason codes -->")
    assert docs[start:end].split("\n", 1)[1].strip() == markdown_table()


def test_the_web_page_translates_only_known_codes():
    js = (ROOT / "server" / "web" / "app.js").read_text()
    block = js[js.index("const REASONS_VI = {"):]
    block = block[:block.index("};")]
    assert set(re.findall(r"\b([a-z_]+):", block)) <= set(reason_table())


# -- the request's language -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def engine():
    return build_engine(uniform=True)


def test_suggest_reasons_follow_the_request_language(engine):
    view = convert.record_message(view_to_act("tienlen", 4, seed=4))
    table = reason_table()
    answers = {}
    for lang in ("", "en", "vi"):
        req = pb.SuggestRequest(view=view, budget=pb.Budget(iterations=60), seed=9, top_k=8,
                                language=lang)
        answers[lang] = engine.suggest(req)
    key = [[(r.code, list(r.cards), r.combo) for r in s.reasons] for s in answers["vi"].moves]
    assert key == [[(r.code, list(r.cards), r.combo) for r in s.reasons]
                   for s in answers["en"].moves]
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
    req = pb.AnalyzeRequest(record=record, seats=[0], budget=pb.Budget(iterations=20), seed=1,
                            max_worlds=8, language="vi")
    out = []
    engine.analyze(req, out.append)
    texts = [r.text for m in out if m.WhichOneof("item") == "decision"
             for s in m.decision.top for r in s.reasons]
    assert texts, "no reason in the analysis"
    vi = {r.vi for r in reason_table().values()}
    en = {r.en for r in reason_table().values()}
    assert not set(texts) & en
    assert all(not t.isascii() for t in texts), texts       # Vietnamese has its diacritics
    assert set(texts) & vi
    with pytest.raises(RequestError) as ei:
        engine.precheck_analyze(pb.AnalyzeRequest(record=record, language="de"))
    assert ei.value.field == "language"


# -- the command line's messages ------------------------------------------------------------------

SERVER = ROOT / "server"


def _keys_used() -> set[str]:
    """Every message key the commands name literally: t("key", ...)."""
    used = set()
    for path in [SERVER / "cli.py", SERVER / "cmd_common.py", *SERVER.glob("cmd_*.py"),
                 SERVER / "i18n.py"]:
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
    marks = [n[len("MARK_"):].lower() for n in pb.Mark.keys() if n != "MARK_UNSPECIFIED"]
    for mark in marks:
        assert f"mark_{mark}" in i18n.MESSAGES, mark
    for stopped in ("iterations", "time", "deadline", "cancelled", "forced"):
        assert f"stopped_{stopped}" in i18n.MESSAGES
    kinds = re.findall(r'``"([a-z]+)"``', MoveInfo.__doc__.split("``cards``")[0])
    assert len(kinds) >= 16
    for kind in kinds:
        assert f"kind_{kind}" in i18n.MESSAGES, kind
    from quansu.games.samloc.rules import COMBO_NAMES
    from quansu.games.tienlen.rules import combo_kind
    combos = set(COMBO_NAMES.values()) | {combo_kind(s) for s in range(1, 40)} - {""}
    for combo in combos:
        assert f"combo_{combo}" in i18n.MESSAGES, combo


def test_the_analysis_report_has_every_text_in_both_languages():
    from quansu.server import report

    for key, (en, vi) in report.TEXTS.items():
        assert en and vi, key
        assert i18n.fields_of(en) == i18n.fields_of(vi), key
    source = (SERVER / "report.py").read_text()
    used = set(re.findall(r'\btext\(\s*"([a-z_]+)"', source))
    assert used and used <= set(report.TEXTS), used - set(report.TEXTS)


def test_commands_print_no_untranslated_error():
    for path in [SERVER / "cli.py", SERVER / "cmd_common.py", SERVER / "cmd_play.py",
                 SERVER / "cmd_hint.py", SERVER / "cmd_serve.py", SERVER / "cmd_analyze.py"]:
        text = path.read_text()
        assert not re.search(r'print\(f?"(error|\\ninterrupted)', text), path.name
        assert not re.search(r'raise GameError\(f?"', text), path.name


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
    from quansu.server import cmd_play

    args = build_parser("play").parse_args(["play", "--game", "tan", "--players", "2", "--seed",
                                            "5", "--bot", "heuristic", "--lang", "vi"])
    answers = iter(["9999", "swap", "0", "0", "0", "quit"])
    out = io.StringIO()
    assert cmd_play.run(args, input_fn=lambda prompt: next(answers), out=out) == 0
    text = out.getvalue()
    assert "bạn ngồi ghế 0" in text and "bài trên tay:" in text and "chủ: " in text
    assert "không có nước số 9999" in text and "không phải nước đi" in text
    assert "đến lượt: bạn" in text and "nước của bạn:" in text
    assert "(đổi chủ " in text or "(xong)" in text
    assert "your move" not in text and "you are seat" not in text


def test_play_errors_in_vietnamese(capsys):
    from quansu.server import cmd_play

    args = build_parser("play").parse_args(["play", "--game", "tienlen", "--seat", "7",
                                            "--lang", "vi"])
    assert cmd_play.run(args) == 2
    assert capsys.readouterr().err.strip() == "lỗi: --seat 7 ngoài khoảng 0..3"


def test_hint_in_vietnamese(capsys):
    from quansu.server import cmd_hint

    path = str(ROOT / "docs" / "examples" / "tienlen.view.json")
    parse = build_parser("hint").parse_args
    out = io.StringIO()
    common = ["--iterations", "40", "--seed", "3", "--uniform", "--lang", "vi"]
    assert cmd_hint.run(parse(["hint", path, *common]), out=out) == 0
    text = out.getvalue()
    assert "lượt thử trong" in text and "nước hợp lệ" in text and "nên đi:" in text
    assert "lý do" in text and reason_table()["best_value"].vi in text
    out = io.StringIO()
    assert cmd_hint.run(parse(["hint", path, *common, "--json"]), out=out) == 0
    resp = json.loads(out.getvalue())
    assert resp["moves"][0]["reasons"][0]["text"] == reason_table()["best_value"].vi
    assert cmd_hint.run(parse(["hint", path, "--seat", "1", "--lang", "vi"])) == 2
    assert capsys.readouterr().err.startswith("lỗi: view: --seat/--at: chỉ dùng cho bản ghi cả ván")


def test_analyze_in_vietnamese():
    from quansu.server import cmd_analyze

    path = str(ROOT / "docs" / "examples" / "tan.record.json")
    args = build_parser("analyze").parse_args(["analyze", path, "--seat", "0", "--iterations",
                                               "10", "--uniform", "--lang", "vi"])
    out = io.StringIO()
    assert cmd_analyze.run(args, out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("mô hình uniform; đánh giá: tốt <= ")
    assert lines[1].split() == ["nước", "ghế", "đã", "đi", "tốt", "nhất", "mất", "khoảng", "95%",
                                "số", "ván", "đánh", "giá"]
    assert "tốt nhất (bắt buộc)" in out.getvalue()
    assert lines[-1].startswith("ghế 0: ") and "quyết định, tổng mất" in lines[-1]
    assert "độ chính xác" in lines[-1] and "; kết quả " in lines[-1]


def test_move_words_use_the_players_terms():
    tl = make("tienlen", 4)
    assert i18n.move_words(tl, tl.parse_move("3S 4D 5H"), "vi") == "đánh sảnh 3S 4D 5H"
    assert i18n.move_words(tl, tl.parse_move("2S"), "vi") == "đánh heo 2S"
    assert i18n.move_words(tl, tl.parse_move("3S 3C 3D 3H"), "vi") == "đánh tứ quý 3S 3C 3D 3H"
    assert i18n.move_words(tl, tl.parse_move("pass"), "vi") == "bỏ lượt"
    assert i18n.move_words(tl, tl.parse_move("3S 4D 5H"), "en") == "plays straight 3S 4D 5H"
    tan = make("tan", 2)
    assert i18n.move_words(tan, tan.parse_move("take"), "vi") == "ôm bài"
    assert i18n.mark_name(3, "vi") == "chưa chuẩn" and i18n.mark_name("blunder", "vi") == "sai nặng"
    assert i18n.zone_name("discard2", "vi") == "bài ghế 2 đánh ra"
    assert i18n.zone_name("stock", "vi") == "nọc"
