"""Moves and cards as a player reads them (issue 45, points 3 and 4): every game's moves named in
English and Vietnamese with its own terms and the cards written 3♠ 10♥ (Game.move_label), cards
in each game's rank order (Phỏm's ace low, Tấn's trumps last) and moves in a player's order,
grouped by kind (Game.sort_moves, Game.move_group); the API's Move.label, group and
group_label, and LegalMoves in that order."""

from __future__ import annotations

import random
import re

import pytest

from quansu.games import labels as L
from quansu.games import make
from quansu.games import record as rec
from quansu.games.base import MoveInfo
from quansu.games.cards import parse_card
from quansu.games.registry import game_classes
from quansu.server import convert
from quansu.server.engine import build_engine
from quansu.server.errors import RequestError
from quansu.server.v1 import service_pb2 as pb

GAMES = sorted(game_classes())
PLAYERS = {"tienlen": 4, "phom": 4, "samloc": 4, "tan": 2}


#: the Vietnamese words without a diacritic (every other one has: a check of the texts)
ASCII_WORDS = {"xong", "ba heo"}


def _labels(name, texts, lang="vi", **opts):
    game = make(name, PLAYERS[name], opts or None)
    return [game.move_label(game.parse_move(t), lang) for t in texts]


# -- names ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,text,vi,en",
    [
        ("tienlen", "3S", "đánh 3♠", "3♠"),
        ("tienlen", "TH", "đánh 10♥", "10♥"),
        ("tienlen", "9D 9H", "đánh đôi 9♦ 9♥", "pair 9♦ 9♥"),
        ("tienlen", "4S 4C 4H", "đánh sám cô 4♠ 4♣ 4♥", "triple 4♠ 4♣ 4♥"),
        ("tienlen", "4S 5H 6D", "đánh sảnh 4♠ 5♥ 6♦", "straight 4♠ 5♥ 6♦"),
        ("tienlen", "7S 7C 7D 7H", "đánh tứ quý 7♠ 7♣ 7♦ 7♥", "four of a kind 7♠ 7♣ 7♦ 7♥"),
        (
            "tienlen",
            "5S 5H 6C 6D 7S 7C",
            "đánh ba đôi thông 5♠ 5♥ 6♣ 6♦ 7♠ 7♣",
            "three consecutive pairs 5♠ 5♥ 6♣ 6♦ 7♠ 7♣",
        ),
        ("tienlen", "2S", "đánh heo 2♠", "2♠"),
        ("tienlen", "2D 2H", "đánh đôi heo 2♦ 2♥", "pair of 2s 2♦ 2♥"),
        ("tienlen", "pass", "bỏ lượt", "pass"),
        ("samloc", "declare", "báo Sâm", "declare Sâm"),
        ("samloc", "decline", "không báo Sâm", "do not declare Sâm"),
        ("samloc", "AH 2D 3S", "đánh sảnh A♥ 2♦ 3♠", "straight A♥ 2♦ 3♠"),
        ("samloc", "5S 5C 5D 5H", "đánh tứ quý 5♠ 5♣ 5♦ 5♥", "four of a kind 5♠ 5♣ 5♦ 5♥"),
        (
            "samloc",
            "7S 7C 7D 7H 9S 9C 9D 9H",
            "đánh hai tứ quý 7♠ 7♣ 7♦ 7♥ 9♠ 9♣ 9♦ 9♥",
            "two fours of a kind 7♠ 7♣ 7♦ 7♥ 9♠ 9♣ 9♦ 9♥",
        ),
        ("samloc", "pass", "bỏ lượt", "pass"),
        ("phom", "draw", "bốc", "draw"),
        ("phom", "eat TH", "ăn 10♥", "eat 10♥"),
        (
            "phom",
            "lay 4D 5D 6D / 7S 7C 7H",
            "hạ phỏm 4♦ 5♦ 6♦ / 7♠ 7♣ 7♥",
            "lay 4♦ 5♦ 6♦ / 7♠ 7♣ 7♥",
        ),
        ("phom", "lay AS 2S 3S", "hạ phỏm A♠ 2♠ 3♠", "lay A♠ 2♠ 3♠"),
        ("phom", "lay", "không hạ phỏm", "lay no meld"),
        ("phom", "send 8H to 3", "gửi 8♥ vào phỏm 3", "send 8♥ to meld 3"),
        ("phom", "discard KC", "đánh K♣", "discard K♣"),
        ("phom", "u", "ù", "declare Ù"),
        ("tan", "attack 7S", "đánh 7♠", "attack with 7♠"),
        ("tan", "defend 7S with 9S", "đỡ 7♠ bằng 9♠", "beat 7♠ with 9♠"),
        ("tan", "throw TH", "đánh thêm 10♥", "throw in 10♥"),
        ("tan", "take", "bốc bài", "take the cards"),
        ("tan", "swap 2H", "đổi chủ 2♥", "swap 2♥ for the trump card"),
        ("tan", "done", "xong", "done"),
    ],
)
def test_each_game_names_its_moves_in_the_players_words(name, text, vi, en):
    assert _labels(name, [text], "vi") == [vi]
    assert _labels(name, [text], "en") == [en]
    assert _labels(name, [text], "") == [en]  # no language: English


def test_every_move_kind_combination_and_group_is_named_in_both_languages():
    kinds = re.findall(r'``"([a-z]+)"``', MoveInfo.__doc__.split("``cards``")[0])
    assert len(kinds) >= 16
    assert set(kinds) <= set(L.KIND_TERMS)
    from quansu.games.samloc.rules import COMBO_NAMES
    from quansu.games.tienlen.rules import combo_kind

    combos = set(COMBO_NAMES.values()) | {combo_kind(s) for s in range(1, 40)} - {""}
    assert combos <= set(L.COMBO_TERMS)
    tables = [L.KIND_TERMS, L.GROUP_TERMS, L.COMBO_TERMS, L.TWO_TERMS]
    for name in GAMES:
        game = make(name, PLAYERS[name])
        tables.append(game._labels().GROUP_TERMS)
        for group in game.move_groups():
            en, vi = game.group_label(group, "en"), game.group_label(group, "vi")
            assert en and vi, (name, group)
            assert en != vi and (not vi.isascii() or vi in ASCII_WORDS), (name, group, vi)
    for table in tables:
        for key, (en, vi) in table.items():
            assert (
                L.fill((en, vi), "en", cards="", combo="", target="", meld="", melds="", n="")
                is not None
            )
            if re.search(r"[a-z]", re.sub(r"\{[^}]*\}", "", en)):
                assert en != vi and (not vi.isascii() or vi in ASCII_WORDS), (key, vi)


def test_cards_are_written_as_players_write_them():
    assert L.card_label(parse_card("TH")) == "10♥"
    assert L.card_label(parse_card("2S")) == "2♠"
    assert L.cards_label([parse_card(c) for c in ("AD", "JC")]) == "A♦ J♣"


# -- order ----------------------------------------------------------------------------------------


def _cards(text):
    return [parse_card(c) for c in text.split()]


def _sorted(name, cards, trump=None):
    game = make(name, PLAYERS[name])
    return L.cards_label(
        game.sort_cards(_cards(cards), None if trump is None else parse_card(trump))
    )


def test_each_game_sorts_cards_in_its_own_rank_order():
    # Tiến lên and Sâm: 3 lowest, then up to A, 2 highest; equal ranks S C D H
    assert _sorted("tienlen", "2S KH 3D AS 3S 10C") == "3♠ 3♦ 10♣ K♥ A♠ 2♠"
    assert _sorted("samloc", "2S AS 3S") == "3♠ A♠ 2♠"
    # Phỏm: the ace is the lowest card, K the highest
    assert _sorted("phom", "KS 2C AS 3D AH QS") == "A♠ A♥ 2♣ 3♦ Q♠ K♠"
    # Tấn: 2 lowest, A highest; the trumps (the face-up card's suit) last
    assert _sorted("tan", "AS 2S 3H AH KD", trump="7H") == "2♠ K♦ A♠ 3♥ A♥"
    assert _sorted("tan", "AS 2S 3H AH KD") == "2♠ 3♥ K♦ A♠ A♥"  # no trump known


def _order(name, texts, trump=None, **opts):
    game = make(name, PLAYERS[name], opts or None)
    moves = [game.parse_move(t) for t in texts]
    random.Random(7).shuffle(moves)
    got = game.sort_moves(moves, None if trump is None else parse_card(trump))
    return [game.move_to_text(m) for m in got], [game.move_group(m) for m in got]


def test_tienlen_moves_go_singles_pairs_triples_straights_bombs_then_pass():
    want = [
        "3S",
        "KS",
        "AH",
        "2S",
        "9D 9H",
        "2D 2H",
        "4S 4C 4H",
        "4S 5H 6D",
        "9S TS JS",
        "3S 4S 5H 6D",
        "7S 7C 7D 7H",
        "5S 5H 6C 6D 7S 7C",
        "pass",
    ]
    texts, groups = _order("tienlen", want)
    assert texts == want
    assert groups == ["single"] * 4 + ["pair"] * 2 + ["triple"] + ["straight"] * 3 + [
        "bomb"
    ] * 2 + ["pass"]


def test_samloc_straights_holding_a_2_are_the_lowest_and_the_question_comes_first():
    want = [
        "declare",
        "decline",
        "3S",
        "2D",
        "AH 2D 3S",
        "2D 3S 4H",
        "3S 4D 5H",
        "5S 5C 5D 5H",
        "pass",
    ]
    texts, groups = _order("samloc", want)
    assert texts == want
    assert groups == [
        "declare",
        "declare",
        "single",
        "single",
        "straight",
        "straight",
        "straight",
        "bomb",
        "pass",
    ]


def test_phom_moves_go_draw_eat_lay_send_discard_with_the_ace_low():
    want = [
        "u",
        "draw",
        "eat 7H",
        "lay AS 2S 3S",
        "lay 4D 5D 6D / 7S 7C 7H",
        "lay",
        "send 8H to 1",
        "discard AS",
        "discard 2C",
        "discard TC",
        "discard KS",
    ]
    texts, groups = _order("phom", want)
    assert texts == want
    assert groups == [
        "u",
        "draw",
        "draw",
        "lay",
        "lay",
        "lay",
        "lay",
        "discard",
        "discard",
        "discard",
        "discard",
    ]


def test_tan_moves_go_swap_attack_defend_take_done_with_the_trumps_last():
    want = [
        "swap 2H",
        "attack 2S",
        "attack AS",
        "attack 3H",
        "attack AH",
        "defend 7S with 9S",
        "defend 7S with 3H",
        "take",
        "done",
    ]
    texts, groups = _order("tan", want, trump="7H")
    assert texts == want
    assert groups == [
        "swap",
        "attack",
        "attack",
        "attack",
        "attack",
        "defend",
        "defend",
        "take",
        "done",
    ]


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_move_of_real_games_has_a_known_group_and_a_name(name):
    """On seeded games of the heuristic bots: every legal move falls in one of the game's groups,
    the listing's groups come in the game's order, and every move has a Vietnamese name."""
    game = make(name, PLAYERS[name])
    groups = game.move_groups()
    seen = set()
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state(rng)
        while not state.is_terminal():
            ordered = game.sort_moves(state.legal_moves(), state.trump_card())
            assert sorted(ordered, key=game.move_to_text) == sorted(
                state.legal_moves(), key=game.move_to_text
            )
            places = [groups.index(game.move_group(m)) for m in ordered]
            assert places == sorted(places)
            for m in ordered:
                label = game.move_label(m, "vi")
                assert label and label != game.move_label(m, "en"), label
                seen.add(game.move_group(m))
            assert rec.legal_move_texts(state) == [game.move_to_text(m) for m in ordered]
            state.apply(game.heuristic_move(state, rng))
    assert len(seen) >= 3, seen


# -- the API --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def engine():
    return build_engine(uniform=True)


@pytest.mark.parametrize("name", GAMES)
def test_legal_moves_come_labelled_grouped_and_in_a_players_order(engine, name):
    from tests.helpers.service import record_json

    for moves in (0, 5):
        obj = record_json(name, PLAYERS[name], seed=moves + 1, moves=moves)
        state = rec.replay_record(obj)
        if state.is_terminal():
            continue
        game = state.game
        want = game.sort_moves(state.legal_moves(), state.trump_card())
        record = convert.record_message(obj)
        vi = engine.legal_moves(pb.LegalMovesRequest(record=record, language="vi"))
        en = engine.legal_moves(pb.LegalMovesRequest(record=record))
        assert [m.text for m in vi.moves] == [game.move_to_text(m) for m in want]
        assert [m.text for m in en.moves] == [m.text for m in vi.moves]
        for m, mv, me in zip(want, vi.moves, en.moves):
            assert mv.label == game.move_label(m, "vi") and me.label == game.move_label(m, "en")
            assert mv.group == me.group == game.move_group(m)
            assert mv.group_label == game.group_label(mv.group, "vi")
            assert me.group_label == game.group_label(me.group, "en")
    with pytest.raises(RequestError) as ei:
        engine.legal_moves(pb.LegalMovesRequest(record=record, language="xx"))
    assert ei.value.field == "language"


def test_suggest_names_its_moves_and_the_top_move_in_the_request_language(engine):
    from tests.helpers.service import view_to_act

    view = convert.record_message(view_to_act("tienlen", 4, seed=4))
    vi = engine.suggest(
        pb.SuggestRequest(
            view=view, budget=pb.Budget(iterations=60), seed=9, top_k=8, language="vi", strength=3
        )
    )
    game = make("tienlen", 4)
    assert vi.chosen.label == game.move_label(game.parse_move(vi.chosen.text), "vi")
    for s in vi.moves:
        assert s.move.label == game.move_label(game.parse_move(s.move.text), "vi")
        assert s.move.group and s.move.group_label
        for r in s.reasons:
            if r.code == "tied":  # names the top move as a player says it
                assert r.text == f"ngang {vi.moves[0].move.label} trong sai số thống kê"


def test_the_tan_table_holds_the_hand_with_the_trumps_last():
    """Tấn's own rendering (the English table of ``quansu play``) shows the seat's hand as a
    player holds it: 2 low … A high, the trumps last."""
    from quansu.games.cards import suit_of

    game = make("tan", 2)
    for seed in range(20):
        state = game.new_initial_state(random.Random(seed))
        trump = state.trump_card()
        line = next(x for x in state.render(0).splitlines() if x.startswith("seat 0 (you)"))
        cards = [parse_card(c) for c in line.split(": ", 1)[1].split()]
        assert cards == game.sort_cards(cards, trump)
        trumps = [suit_of(c) == suit_of(trump) for c in cards]
        assert trumps == sorted(trumps)  # every trump after every other card
