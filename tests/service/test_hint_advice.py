"""A hint in a player's words (issue 45, point 1): one line of advice, then the rows in the order
of the value they show with the same play in other suits folded into one row, reasons that never
read as a warning on the move recommended, ``chosen`` and the CLI's ``play:`` = row #1, and a
forced move said to be forced with the position's value.  Work bounded by iterations and
``Limits(hint_worlds=...)`` with the uniform evaluator, never by wall time."""

from __future__ import annotations

import pytest

from quansu.cli.hint import format_table
from quansu.games.cards import parse_cards
from quansu.games.reasons import SHEDDING_TEXTS, language, say
from quansu.games.registry import make
from quansu.server.advice import Row, advice
from quansu.server.engine import FORCED_HINT_WORLDS, Limits, build_engine
from quansu.server.v1 import service_pb2 as pb
from tests.helpers.service import played_state, view_message, view_to_act
from tests.service.test_service_reasons import _Seen

GAMES = ("tienlen", "samloc", "phom", "tan")
UNRANKED = ("few_visits", "not_measured")

#: Seat 0 must beat the straight 3-4-5-6-7: its straights 4-5-6-7-8 (8 choices of suits) and
#: 5-6-7-8-9 (4 choices), or pass.
STRAIGHTS = {
    "format": "quansu-view/1",
    "game": "tienlen",
    "players": 4,
    "seat": 0,
    "options": {},
    "deal": {
        "hands": [
            {"cards": "4S 4C 5D 6H 6D 7C 8S 8H 9S JH QD KS 2H".split()},
            {"count": 13},
            {"count": 13},
            {"count": 13},
        ],
        "first": 3,
    },
    "moves": [{"seat": 3, "move": "3C 4D 5S 6C 7S"}],
}


@pytest.fixture(scope="module")
def engines():
    return {w: build_engine(Limits(hint_worlds=w), uniform=True) for w in (32, 0)}


def _hint(engine, view, lang="en", top_k=8, **kw) -> pb.SuggestResponse:
    req = pb.SuggestRequest(
        view=view_message(view), seed=kw.pop("seed", 3), language=lang, top_k=top_k, **kw
    )
    req.budget.iterations = 60
    return engine.suggest(req)


def _ranked(s: pb.Suggestion) -> bool:
    return not (s.reasons and s.reasons[0].code in UNRANKED)


# -- the same play up to suits ------------------------------------------------------------------


def test_games_say_which_moves_are_the_same_play_up_to_suits():
    tl = make("tienlen", 4)
    a, b = tl.parse_move("3S 4H 5D 6C 7S"), tl.parse_move("3C 4S 5D 6C 7H")
    assert tl.suit_variant_key(a) == tl.suit_variant_key(b)
    assert tl.suit_variant_key(a) != tl.suit_variant_key(tl.parse_move("4S 5D 6C 7H 8S"))
    assert tl.suit_variant_key(tl.parse_move("9S 9H")) == tl.suit_variant_key(
        tl.parse_move("9C 9D")
    )
    assert tl.suit_variant_key(tl.parse_move("9S 9H")) != tl.suit_variant_key(tl.parse_move("9S"))
    assert tl.variants_label(a, 16, True, "en") == "straight 3-4-5-6-7, any suits"
    assert tl.variants_label(a, 16, True, "vi") == "đánh sảnh 3-4-5-6-7 bất kỳ chất"
    assert tl.variants_label(a, 3, False, "en") == "straight 3♠ 4♥ 5♦ 6♣ 7♠ (+2 in other suits)"
    assert (
        tl.variants_label(a, 3, False, "vi") == "đánh sảnh 3♠ 4♥ 5♦ 6♣ 7♠ (+2 cách chọn chất khác)"
    )
    assert tl.variants_label(tl.parse_move("TS"), 2, True, "en") == "10, any suit"
    assert tl.variants_label(tl.parse_move("2S 2H"), 2, True, "vi") == "đánh đôi heo 2 bất kỳ chất"
    sl = make("samloc", 4)
    assert sl.suit_variant_key(sl.parse_move("9S 9H")) == sl.suit_variant_key(
        sl.parse_move("9C 9D")
    )
    # a Phỏm discard and Tấn's cards are not suit-free: each move is its own play
    ph = make("phom", 4)
    assert ph.suit_variant_key(ph.parse_move("discard 9S")) != ph.suit_variant_key(
        ph.parse_move("discard 9H")
    )
    tan = make("tan", 2)
    assert tan.suit_variant_key(tan.parse_move("attack 9S")) != tan.suit_variant_key(
        tan.parse_move("attack 9H")
    )


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_suit_variants_of_one_straight_measured_alike_are_one_row(engines, lang):
    game = make("tienlen", 4)
    r = _hint(engines[32], STRAIGHTS, lang, top_k=64)
    key = game.suit_variant_key
    moves = [game.parse_move(s.move.text) for s in r.moves]
    folded = [s for s in r.moves if s.variants]
    assert any(s.move.combo == "straight" for s in folded)
    # every legal move is in one row, as the row's move or one of its variants
    assert sum(1 + len(s.variants) for s in r.moves) == r.stats.legal_moves == 13
    legal_keys = {}
    for s in r.moves:
        for m in [s.move, *s.variants]:
            k = key(game.parse_move(m.text))
            legal_keys[k] = legal_keys.get(k, 0) + 1
    for s, m in zip(r.moves, moves):
        assert all(key(game.parse_move(v.text)) == key(m) for v in s.variants)
        if not s.variants:
            assert s.label == s.move.label
        elif legal_keys[key(m)] == 1 + len(s.variants):
            assert s.label == game.variants_label(m, 1 + len(s.variants), True, lang)
            assert s.label.endswith(", any suits" if lang == "en" else " bất kỳ chất")
        else:
            other = "in other suits" if lang == "en" else "cách chọn chất khác"
            assert s.label == f"{s.move.label} (+{len(s.variants)} {other})"
    # rows left apart measured differently: no two rows of one play share a value and a group
    for i, a in enumerate(r.moves):
        for b in r.moves[i + 1 :]:
            if key(game.parse_move(a.move.text)) == key(game.parse_move(b.move.text)):
                assert (a.group, a.expected_payoff) != (b.group, b.expected_payoff) or _ranked(
                    a
                ) != _ranked(b)
    # the suits chosen for the player: the row's move, which a hint plays
    assert r.chosen.text == r.moves[0].move.text
    again = _hint(engines[32], STRAIGHTS, lang, top_k=64)
    again.stats.elapsed_ms = r.stats.elapsed_ms = 0
    assert again == r  # same seed, same answer


# -- the advice line -------------------------------------------------------------------------------


def _lead(d: float, lang: str) -> str:
    text = f"{d:.2f}"
    return text.replace(".", ",") if lang == "vi" else text


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_advice_names_row_one_what_it_does_and_its_lead(engines, game, lang):
    view = view_to_act(game, 4 if game != "tan" else 2, seed=21)
    for w in (32, 0):
        r = _hint(engines[w], view, lang)
        top, nxt = r.moves[0], r.moves[1]
        assert r.advice.endswith(".")
        head = ("Best move: " if lang == "en" else "Nên ") + top.move.label
        assert r.advice.startswith(head), r.advice
        own = [x for x in top.reasons if x.code not in ("best_value", "tied", "only_move")]
        if own:  # what the move does, in the game's words
            assert own[0].text in r.advice
        if _ranked(nxt):
            if nxt.group == top.group:
                tied = "about as good as " if lang == "en" else "ngang với "
                assert tied + nxt.label in r.advice
            else:
                d = _lead(top.expected_payoff - nxt.expected_payoff, lang)
                lead = (
                    f"{d} bets better than {nxt.label}"
                    if lang == "en"
                    else f"hơn {nxt.label} khoảng {d} cược"
                )
                assert lead in r.advice
        # a hint's reasons are not the search's statistics about other moves
        assert all(x.code not in ("most_visited", "safest") for s in r.moves for x in s.reasons)
        # the CLI: the advice first, play: row #1
        lines = format_table(r, lang).splitlines()
        assert lines[0] == r.advice
        assert lines[-1] == (
            "play: " + top.move.text if lang == "en" else "nên đi: " + top.move.label
        )
    # bot play has no advice (its chosen move may not be row #1)
    req = pb.SuggestRequest(view=view_message(view), seed=3, strength=2, language=lang)
    assert engines[0].suggest(req).advice == ""


# -- rows in the order of their values, play = row #1 -------------------------------------------


@pytest.mark.parametrize(
    "game,seed", [("tan", 2), ("tan", 3), ("tienlen", 4), ("phom", 5), ("samloc", 6)]
)
def test_rows_follow_the_values_they_show_and_play_row_one(engines, game, seed):
    view = view_to_act(game, 2 if game == "tan" else 4, seed=seed, moves=6)
    for w in (32, 0):
        r = _hint(engines[w], view, top_k=64)
        ranked = [s.expected_payoff for s in r.moves if _ranked(s)]
        rest = [s.expected_payoff for s in r.moves if not _ranked(s)]
        assert ranked and ranked == sorted(ranked, reverse=True)
        assert rest == sorted(rest, reverse=True)
        assert all(_ranked(s) for s in r.moves[: len(ranked)])  # ranked rows first
        assert r.chosen.text == r.moves[0].move.text  # a hint plays row #1
        table = format_table(r, "en", details=True).splitlines()
        assert table[-1] == "play: " + r.moves[0].move.text
        if rest:
            assert "not ranked (too few visits, or not measured)" in "\n".join(table)


def test_a_tan_hint_plays_its_best_row_not_the_most_visited(engines):
    """The position of the issue's Tấn finding: the search's most visited move is not the one
    of highest payoff; a hint plays (and the CLI names) row #1, a bot its own choice."""
    view = view_to_act("tan", 2, seed=2, moves=6)
    r = _hint(engines[0], view)
    req = pb.SuggestRequest(view=view_message(view), seed=3, strength=4)
    req.budget.iterations = 60
    bot = engines[0].suggest(req)  # temperature 0: the most visited move
    assert bot.chosen.text != r.moves[0].move.text  # the two differ here
    assert r.chosen.text == r.moves[0].move.text


# -- reasons never contradict the recommendation --------------------------------------------------


def _reasons(game_name, hand, move, lang="en"):
    game = make(game_name, 4)
    with language(lang):
        return {
            code: text
            for code, _cards, _combo, text in game.move_reasons(
                _Seen(game, 0, hand), 0, game.parse_move(move)
            )
        }


def test_a_play_breaks_a_bomb_only_when_the_hand_left_holds_it_no_more():
    # three 3s, 4s and 5s: the straight takes one of each and the three pairs stay
    got = _reasons("tienlen", "3S 3C 3D 4S 4C 4D 5S 5C 5D 6H 7D 9S", "3S 4S 5S 6H 7D")
    assert "breaks_bomb" not in got
    assert got["keeps_bomb"] == "keeps the bomb 3♣ 3♦ 4♣ 4♦ 5♣ 5♦"
    # two 5s: the run is gone; said as the cost it is, in both languages
    hand = "3S 3C 3D 4S 4C 4D 5S 5C 6H 7D 9S"
    assert (
        _reasons("tienlen", hand, "3S 4S 5S 6H 7D")["breaks_bomb"]
        == "at the cost of breaking up the three consecutive pairs 3♠ 3♣ 4♠ 4♣ 5♠ 5♣"
    )
    assert (
        _reasons("tienlen", hand, "3S 4S 5S 6H 7D", "vi")["breaks_bomb"]
        == "chấp nhận phá ba đôi thông 3♠ 3♣ 4♠ 4♣ 5♠ 5♣"
    )
    # Sâm lốc: a single from a four of a kind breaks it, a card beside it keeps it
    assert "breaks_bomb" in _reasons("samloc", "7S 7C 7D 7H 9S", "7S")
    assert "breaks_bomb" not in _reasons("samloc", "7S 7C 7D 7H 9S", "9S")


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_advice_says_what_a_move_does_before_the_cost_it_accepts(lang):
    game = make("tienlen", 4)
    run = parse_cards("3S 3C 4S 4C 5S 5C")
    with language(lang):
        top = pb.Suggestion(
            move=pb.Move(text="3S", label=game.move_label(game.parse_move("3S"), lang)),
            expected_payoff=0.5,
            visits=32,
            group=0,
        )
        for code, cards, combo, text in [
            ("best_value", (), "", "x"),
            say(
                SHEDDING_TEXTS,
                "breaks_bomb",
                run,
                cards="3♠ 3♣ 4♠ 4♣ 5♠ 5♣",
                bomb=("three consecutive pairs", "ba đôi thông"),
            ),
            say(SHEDDING_TEXTS, "sheds_lowest", run[:1], "single"),
        ]:
            top.reasons.add(code=code, text=text)
        nxt = pb.Suggestion(
            move=pb.Move(text="pass", label=game.move_label(game.parse_move("pass"), lang)),
            expected_payoff=0.25,
            visits=32,
            group=1,
        )
        top.label, nxt.label = top.move.label, nxt.move.label
        line = advice([Row(None, top, True), Row(None, nxt, True)])
    if lang == "en":
        assert line == (
            "Best move: 3♠ — gets rid of the lowest card, at the cost of breaking up "
            "the three consecutive pairs 3♠ 3♣ 4♠ 4♣ 5♠ 5♣; 0.25 bets better than "
            "pass."
        )
    else:
        assert line == (
            "Nên đánh 3♠ — xả lá nhỏ nhất, chấp nhận phá ba đôi thông 3♠ 3♣ 4♠ 4♣ "
            "5♠ 5♣; hơn bỏ lượt khoảng 0,25 cược."
        )


# -- a forced move ---------------------------------------------------------------------------------


def _forced_view(game_name: str, players: int) -> dict:
    from quansu.games import record as rec

    for s in range(200):
        for n in range(2, 40, 3):
            state = played_state(game_name, players, s, n)
            if not state.is_terminal() and len(state.legal_moves()) == 1:
                return rec.view_from_state(state, state.current_player)
    raise AssertionError(f"no forced {game_name} position")


@pytest.mark.parametrize("game,players", [("tienlen", 4), ("tan", 2), ("phom", 4)])
def test_a_forced_move_says_so_and_shows_the_positions_value(engines, game, players):
    view = _forced_view(game, players)
    for w in (32, 0):  # Limits(hint_worlds=0) too: the value is measured
        en, vi = _hint(engines[w], view, "en"), _hint(engines[w], view, "vi")
        for r, lang in ((en, "en"), (vi, "vi")):
            assert r.stats.stopped_by == "forced" and r.stats.iterations == 0
            assert len(r.moves) == 1 and r.chosen.text == r.moves[0].move.text
            s = r.moves[0]
            # the position's value: the move played on FORCED_HINT_WORLDS deals, with a bound
            assert s.visits == r.stats.hint_worlds == FORCED_HINT_WORLDS
            assert s.HasField("lower_bound") and s.lower_bound <= s.expected_payoff
            assert s.reasons[0].code == "only_move"
            v = f"{s.expected_payoff:+.2f}"
            if lang == "en":
                assert r.advice == (
                    f"Forced move: {s.move.label} is your only legal move; your "
                    f"position is worth about {v} bets."
                )
            else:
                assert r.advice == (
                    f"Nước bắt buộc: {s.move.label} là nước đi duy nhất; thế "
                    f"bài của bạn đáng khoảng {v.replace('.', ',')} cược."
                )
            assert format_table(r, lang).splitlines()[0] == r.advice
        assert en.moves[0].expected_payoff == vi.moves[0].expected_payoff
    capped = build_engine(Limits(hint_worlds=8), uniform=True)
    assert _hint(capped, view).moves[0].visits == 8  # a smaller cap caps it too


def test_a_forced_move_without_time_to_measure_still_says_it_is_forced(engines):
    view = _forced_view("tienlen", 4)
    req = pb.SuggestRequest(view=view_message(view), seed=3)
    r = engines[32].suggest(req, stop=lambda: True)  # cancelled before any deal
    assert r.stats.stopped_by == "forced" and r.moves[0].visits == 0
    assert r.advice == f"Forced move: {r.moves[0].move.label} is your only legal move."


@pytest.mark.parametrize(
    "changed,lang,tail",
    [
        (False, "en", "(the card-counting bot's move: no move ranked above it measured better"),
        (True, "en", "(measured better than the card-counting bot's move on 160 worlds)"),
        (False, "vi", "(nước của bot đếm bài: không nước nào xếp trên nó đo được tốt hơn"),
    ],
)
def test_bot_play_with_the_improvement_step_says_why_its_move_is_played(changed, lang, tail):
    """At a level with the improvement step the played move may be below row #1 (the step
    kept the rule bot's move): the ``play:`` line says which of the two happened."""
    r = pb.SuggestResponse()
    for text, payoff in (("discard 3H", 2.5), ("discard 9H", 1.9)):
        row = r.moves.add()
        row.move.text = row.move.label = text
        row.expected_payoff = payoff
    r.chosen.text = r.chosen.label = "discard 9H"
    r.stats.improve_worlds = 160
    r.stats.improve_changed = changed
    last = format_table(r, lang).splitlines()[-1]
    assert last.startswith("play: discard 9H (" if lang == "en" else "nên đi: discard 9H (")
    assert tail in last
    r.stats.improve_worlds = 0  # a hint, or a level without the step: the bare line
    assert format_table(r, lang).splitlines()[-1] in ("play: discard 9H", "nên đi: discard 9H")
