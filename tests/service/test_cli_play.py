"""`quansu play`: a whole terminal game with scripted input; bad input never raises."""

import io
import itertools
import random
import re

import pytest

from quansu import cli, games
from quansu.cli import play as cmd_play
from quansu.games import labels as L
from quansu.games.cards import parse_card


def _args(game, *extra):
    parser = cli.build_parser("play")
    return parser.parse_args(["play", "--game", game, "--seed", "3", "--bot", "random", *extra])


@pytest.mark.parametrize("game", games.game_names())
def test_full_game_with_bad_input(game):
    script = itertools.chain(
        ["", "help", "not a move", "9999", "moves", "zz 3x"], itertools.repeat("0")
    )
    out = io.StringIO()
    rc = cmd_play.run(_args(game), input_fn=lambda prompt: next(script), out=out)
    text = out.getvalue()
    assert rc == 0
    assert "not a move" in text and "no move number 9999" in text
    assert "game over" in text and "net: seat 0:" in text
    # the settlement printed sums to zero
    net = [float(x.split(":")[1]) for x in text.rsplit("net: ", 1)[1].strip().split(", ")]
    assert abs(sum(net)) < 1e-6


def test_illegal_move_is_refused():
    import random

    state = games.make("tienlen", 4).new_initial_state(random.Random(3))
    leader = state.current_player  # the same deal cmd_play draws from --seed 3
    answers = iter(["pass", "quit"])
    out = io.StringIO()
    # the leader of a new round cannot pass
    rc = cmd_play.run(
        _args("tienlen", "--seat", str(leader)), input_fn=lambda p: next(answers), out=out
    )
    assert rc == 0
    assert "'pass' is not legal now" in out.getvalue()


def test_bad_game_and_option_are_clear_errors(capsys):
    assert cmd_play.run(_args("chess")) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert cmd_play.run(_args("tienlen", "--option", "no_such=1")) == 2
    assert "unknown option 'no_such'" in capsys.readouterr().err


def test_eof_ends_quietly():
    def eof(prompt):
        raise EOFError

    assert cmd_play.run(_args("tienlen"), input_fn=eof, out=io.StringIO()) == 0


# -- moves as a player reads them (issue 45, points 3 and 4) ----------------------------------------


def _listings(text):
    """Each listing of the legal moves: [(group label, [(number, name)])] per prompt."""
    out, current = [], None
    for line in text.splitlines():
        m = re.match(r"  (.+?): (\[0\] .*|\[\d+\] .*)$", line)
        if m:
            if current is None:
                current = []
                out.append(current)
            items = [
                (int(n), name)
                for n, name in re.findall(r"\[(\d+)\] (.+?)(?=, \[\d+\] |$)", m.group(2))
            ]
            current.append((m.group(1), items))
        else:
            current = None
    return out


def _run_play(game, lang, seat=0):
    script = itertools.repeat("0")
    out = io.StringIO()
    rc = cmd_play.run(
        _args(game, "--lang", lang, "--seat", str(seat)),
        input_fn=lambda prompt: next(script),
        out=out,
    )
    assert rc == 0
    return out.getvalue()


@pytest.mark.parametrize("game", games.game_names())
def test_play_in_vietnamese_names_every_move_and_holds_the_hand_in_the_games_order(game):
    """``quansu play --lang vi``: the legal moves listed by group in Vietnamese (the group's
    name, then each move as a player says it, numbered from 0 in the game's order of groups),
    every seat's move named in Vietnamese, the hand in the game's own rank order with the cards
    written 3♠ 10♥ (Phỏm's ace lowest, Tấn's trumps last)."""
    text = _run_play(game, "vi")
    g = games.make(game, 4)
    state = g.new_initial_state(random.Random(3))  # the deal cmd_play draws from --seed 3
    trump = state.trump_card()
    verbs = tuple(t[1].split("{")[0].strip() for t in L.KIND_TERMS.values())
    english = re.compile(
        r"\b(pass|play|draw|eat|lay|send|discard|swap|done|attack|defend|throw"
        r"|take|declare|decline)\b"
    )
    listings = _listings(text)
    assert listings
    order = g.move_groups()
    for listing in listings:
        groups = [label for label, _ in listing]
        want = [g.group_label(x, "vi") for x in order if g.group_label(x, "vi") in groups]
        assert groups == want, groups  # the game's order of groups
        numbers = [n for _, items in listing for n, _ in items]
        assert numbers == list(range(len(numbers)))
        for _, items in listing:
            for _, name in items:
                assert name.startswith(verbs), name
                assert not english.search(name) and not re.search(
                    r"\b\d?[TJQKA2-9][SCDH]\b", name
                ), name
    seats = [
        line.split(": ", 1)[1]
        for line in text.splitlines()
        if line.startswith("ghế ") and ": " in line and "ghế 0: " not in line[:8]
    ]
    assert seats and all(name.startswith(verbs) for name in seats), seats
    assert not any(english.search(name) for name in seats), seats
    # the number 0 plays the first move listed
    mine = [
        line.split(": ", 1)[1] for line in text.splitlines() if line.startswith("ghế 0 (bạn): ")
    ]
    assert mine and mine == [listing[0][1][0][1] for listing in listings][: len(mine)]
    hands = [
        line.split(": ", 1)[1]
        for line in text.splitlines()
        if line.startswith("bài trên tay: ") and "(" not in line
    ]
    assert hands
    for hand in hands:
        cards = [parse_card(c) for c in hand.split()]
        assert "T" not in hand and all(s not in hand for s in "SCDH")
        assert cards == sorted(cards, key=lambda c: g.card_sort_key(c, trump)), hand


def test_the_phom_hand_puts_the_ace_lowest_and_tien_len_the_2_highest():
    from quansu.games.labels import cards_label

    for name, first, last in (("phom", "A", "K"), ("tienlen", "3", "2")):
        g = games.make(name, 4)
        for seed in range(200):  # the first deal whose seat 0 holds both
            state = g.new_initial_state(random.Random(seed))
            ranks = {c >> 2 for c in g.sort_cards(_hand(state))}
            if {parse_card(first + "S") >> 2, parse_card(last + "S") >> 2} <= ranks:
                break
        hand = cards_label(g.sort_cards(_hand(state)))
        line = next(
            x
            for x in cmd_play.table_text(state, 0, "vi").splitlines()
            if x.startswith("bài trên tay: ")
        )
        assert line == "bài trên tay: " + hand
        assert hand.startswith(first) and hand.split()[-1].startswith(last), hand


def _hand(state):
    from quansu.games.cards import cards_of

    return cards_of(state.known_cards(0)["hand0"])


@pytest.mark.parametrize("game", games.game_names())
def test_play_lists_the_legal_moves_grouped_in_a_players_order(game):
    """In English too the moves are listed by group (singles, pairs, straights, bombs; draw or
    eat; attack, defend, take ...) and low to high in the game's rank order, in the notation a
    player types; the number chosen plays the move listed under it."""
    text = _run_play(game, "en")
    g = games.make(game, 4)
    trump = g.new_initial_state(random.Random(3)).trump_card()
    listings = _listings(text)
    assert listings
    for listing in listings:
        moves = [g.parse_move(name) for _, items in listing for _, name in items]
        assert moves == g.sort_moves(moves, trump)
        for label, items in listing:
            assert {g.group_label(g.move_group(g.parse_move(name)), "en") for _, name in items} == {
                label
            }
    # the number 0 plays the first move listed: the line after each listing says so
    lines = text.splitlines()
    mine = [
        lines[i + 1].split(": ", 1)[1]
        for i, line in enumerate(lines[:-1])
        if re.match(r"  .+?: \[\d+\] ", line)
        and not re.match(r"  .+?: \[\d+\] ", lines[i + 1])
        and lines[i + 1].startswith("seat 0 (you): ")
    ]
    assert mine and mine == [listing[0][1][0][1] for listing in listings][: len(mine)]


def test_tienlen_lists_3_lowest_2_highest_then_pairs_and_pass_last():
    g = games.make("tienlen", 4)
    moves = [g.parse_move(t) for t in ("pass", "2S", "9D 9H", "3S", "AH", "4S 5H 6D", "KS")]
    out = cmd_play.moves_listing(g, g.sort_moves(moves), "vi")
    assert out.splitlines() == [
        "  lá lẻ: [0] đánh 3♠, [1] đánh K♠, [2] đánh A♥, [3] đánh heo 2♠",
        "  đôi: [4] đánh đôi 9♦ 9♥",
        "  sảnh: [5] đánh sảnh 4♠ 5♥ 6♦",
        "  bỏ lượt: [6] bỏ lượt",
    ]
    out = cmd_play.moves_listing(g, g.sort_moves(moves), "en")
    assert out.splitlines() == [
        "  singles: [0] 3S, [1] KS, [2] AH, [3] 2S",
        "  pairs: [4] 9D 9H",
        "  straights: [5] 4S 5H 6D",
        "  pass: [6] pass",
    ]


def test_hint_and_replay_in_vietnamese_name_the_moves(capsys):
    """``quansu hint --lang vi`` names the ranked moves and the move to play in Vietnamese;
    ``quansu replay --legal`` lists the legal moves in a player's order (Phỏm's ace low)."""
    from pathlib import Path

    from quansu.cli import hint as cmd_hint
    from quansu.cli import replay as cmd_replay
    from quansu.games import record as rec

    root = Path(__file__).resolve().parents[2] / "docs" / "examples"
    args = cli.build_parser("hint").parse_args(
        [
            "hint",
            str(root / "phom.view.json"),
            "--iterations",
            "20",
            "--seed",
            "3",
            "--uniform",
            "--lang",
            "vi",
        ]
    )
    out = io.StringIO()
    assert cmd_hint.run(args, out=out) == 0
    lines = out.getvalue().splitlines()
    rows = [line for line in lines if re.match(r"\s*\d+  ", line)]
    assert rows and all(
        re.match(r"\s*\d+  (đánh|bốc|ăn|hạ phỏm|gửi|không hạ phỏm|ù) ", r) for r in rows
    ), rows
    play = lines[-1]
    assert re.match(r"nên đi: (đánh|bốc|ăn|hạ phỏm|gửi|không hạ phỏm|ù)\b", play), play
    assert not re.search(r"\b[2-9TJQKA][SCDH]\b", "\n".join(rows + [play]))
    # the referee's --legal: the legal moves at each step in a player's order
    obj = rec.read_json(str(root / "phom.record.json"))
    args = cli.build_parser("replay").parse_args(
        ["replay", str(root / "phom.record.json"), "--legal", "--json"]
    )
    out = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out):
        assert cmd_replay.run(args) == 0
    import json

    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    g = rec.parse_record(obj).game
    checked = 0
    for line in lines:
        if "legal" in line:
            moves = [g.parse_move(x) for x in line["legal"]]
            assert moves == g.sort_moves(moves)
            discards = [x.split()[1] for x in line["legal"] if x.startswith("discard ")]
            if any(c[0] == "A" for c in discards) and any(c[0] == "2" for c in discards):
                assert discards[0][0] == "A"
            checked += 1
    assert checked == len(obj["moves"])


def test_a_move_can_be_typed_as_listed_in_vietnamese():
    """At the prompt a move may be typed as it is listed ("bỏ lượt", "đánh đôi 9♦ 9♥"), in any
    case and spacing, as well as by its number or its notation."""
    out = io.StringIO()
    typed = []

    def answer(prompt):
        if len(typed) >= 4:
            return "quit"
        last = _listings(out.getvalue())[-1]
        name = last[-1][1][-1][1]  # the last move listed
        typed.append(name)
        return "  " + name.upper().replace(" ", "  ") + " "

    assert cmd_play.run(_args("tienlen", "--lang", "vi"), input_fn=answer, out=out) == 0
    text = out.getvalue()
    assert len(typed) == 4 and "không phải nước đi" not in text
    mine = [
        line.split(": ", 1)[1] for line in text.splitlines() if line.startswith("ghế 0 (bạn): ")
    ]
    assert mine == typed
