"""The gRPC service end to end: a real server on a loopback port with 2 worker processes.

Every RPC for every registered game, the bad-input table (INVALID_ARGUMENT with a BadRequest
field path), deadlines, concurrent clients, health and reflection.
"""

from __future__ import annotations

import copy
import random
import threading

import grpc
import pytest
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from quansu.games import record as rec
from quansu.games.registry import game_classes, game_names, make
from quansu.server.errors import field_violations
from quansu.server.v1 import service_pb2 as pb
from tests.helpers.service import client, long_record, record_json, running_server, view_to_act

GAMES = game_names()


@pytest.fixture(scope="module")
def target():
    with running_server(workers=2) as (_server, tgt):
        yield tgt


@pytest.fixture(scope="module")
def c(target):
    cl = client(target)
    yield cl
    cl.close()


# -- DescribeGames ------------------------------------------------------------------------------


def test_describe_games_lists_every_game_option_and_model(c):
    resp = c.describe_games()
    assert [g.name for g in resp.games] == GAMES
    assert resp.api_version == "quansu.v1"
    for g in resp.games:
        cls = game_classes()[g.name]
        assert (g.min_players, g.max_players) == (cls.min_players, cls.max_players)
        assert [o.name for o in g.options] == [s.name for s in cls.option_specs]
        for o, spec in zip(g.options, cls.option_specs):
            assert o.description == spec.description
            assert o.HasField("default_value")
        assert g.model == "uniform"
        assert 0 < g.thresholds.good <= g.thresholds.inaccuracy <= g.thresholds.mistake
    assert resp.limits.workers == 2
    assert resp.limits.max_budget.iterations >= resp.limits.default_budget.iterations > 0


# -- LegalMoves ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_legal_moves_of_records_match_the_engine(c, game):
    for players in (2, 4):
        for moves in (0, 3, 9):
            obj = record_json(game, players, seed=moves, moves=moves)
            state = rec.replay_record(obj)
            resp = c.legal_moves(obj)
            assert resp.game == game
            assert resp.history_length == len(obj["moves"])
            if state.is_terminal():
                assert resp.terminal and resp.to_act == -1 and not resp.moves
                assert list(resp.result.net) == pytest.approx(state.returns())
                continue
            assert resp.to_act == state.current_player
            assert [m.text for m in resp.moves] == rec.legal_move_texts(state)
            for m in resp.moves:
                assert m.kind


@pytest.mark.parametrize("game", GAMES)
def test_legal_moves_of_a_finished_record_give_the_settlement(c, game):
    obj = long_record(game, 3 if game != "tienlen" else 4)
    state = rec.replay_record(obj)
    resp = c.legal_moves(obj)
    assert resp.terminal and resp.to_act == -1
    assert list(resp.result.net) == pytest.approx(state.returns())
    assert sorted((t.payer, t.payee, t.amount) for t in resp.result.transfers) == sorted(
        (p, q, pytest.approx(a)) for p, q, a in state.settlement()
    )


@pytest.mark.parametrize("game", GAMES)
def test_legal_moves_of_a_view(c, game):
    view = view_to_act(game, 4, seed=1)
    state = rec.replay_view(view, random.Random(0))
    resp = c.legal_moves(view)
    assert resp.to_act == view["seat"] and not resp.hidden
    assert [m.text for m in resp.moves] == rec.legal_move_texts(state)
    # the same game seen by a seat that is not to act: the moves are hidden
    other = (view["seat"] + 1) % 4
    full = record_json(game, 4)  # any record: cut the other seat's view of the first one
    del full
    # rebuild: the other seat's view of the same position
    for s in range(200):
        from tests.helpers.service import played_state

        st = played_state(game, 4, s, 5)
        if not st.is_terminal():
            seat = (st.current_player + 1) % 4
            v2 = rec.view_from_state(st, seat)
            r2 = c.legal_moves(v2)
            assert r2.hidden and not r2.moves and r2.to_act == st.current_player
            break
    assert other >= 0


# -- Suggest ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_suggest_ranks_legal_moves(c, game):
    view = view_to_act(game, 4, seed=2)
    state = rec.replay_view(view, random.Random(0))
    legal = set(rec.legal_move_texts(state))
    resp = c.suggest(view, iterations=60, top_k=4, seed=5)
    assert resp.final and resp.game == game and resp.seat == view["seat"]
    assert resp.model == "uniform"
    assert resp.stats.iterations == 60 and resp.stats.stopped_by == "iterations"
    assert resp.stats.legal_moves == len(legal)
    assert 1 <= len(resp.moves) <= 4
    # the ranking rule (docs/api.md): measured moves by mean payoff, tied ones grouped, then
    # the moves with too few visits (no lower bound); a hint plays its first row (issue 45)
    few = [any(r.code == "few_visits" for r in s.reasons) for s in resp.moves]
    assert few == sorted(few)
    pays = [s.expected_payoff for s, f in zip(resp.moves, few) if not f]
    assert pays == sorted(pays, reverse=True)
    assert [s.group for s in resp.moves] == sorted(s.group for s in resp.moves)
    if not few[0]:
        assert resp.moves[0].group == 0 and resp.moves[0].reasons[0].code == "best_value"
    assert resp.chosen.text == resp.moves[0].move.text and resp.advice
    bound = make(game, 4).payoff_bound()
    for s in resp.moves:
        assert s.move.text in legal
        assert 0 <= s.visit_share <= 1 and 0 <= s.prior <= 1
        assert -bound <= s.expected_payoff <= bound
        assert s.HasField("lower_bound") == (s.visits >= 2)
        if s.HasField("lower_bound"):
            assert s.lower_bound <= s.expected_payoff + 1e-9
        assert s.principal_line[0].move == s.move.text and s.principal_line[0].seat == resp.seat
    assert resp.moves[0].reasons, "the top move has at least one reason"
    assert all(r.code and r.text for s in resp.moves for r in s.reasons)


@pytest.mark.parametrize("game", GAMES)
def test_suggest_is_reproducible_with_a_seed(c, game):
    view = view_to_act(game, 3, seed=3)
    a = c.suggest(view, iterations=40, seed=11)
    b = c.suggest(view, iterations=40, seed=11)

    def key(r):
        return [(s.move.text, s.visits, round(s.expected_payoff, 9)) for s in r.moves]

    assert key(a) == key(b)


def test_suggest_strength_levels_are_the_search_levels(c):
    from quansu.search.levels import LEVELS

    view = view_to_act("tienlen", 4, seed=4)
    legal = set(rec.legal_move_texts(rec.replay_view(view, random.Random(0))))
    weak = c.suggest(view, strength=1, seed=1)
    assert weak.stats.iterations == LEVELS[1].iterations
    assert weak.chosen.text in legal
    # level 1 samples its move: over several seeds it does not always play the top move
    picks = {c.suggest(view, strength=1, seed=s).chosen.text for s in range(8)}
    assert len(picks) > 1
    # an explicit budget overrides the level's; level 5 always plays the most visited move
    full = c.suggest(view, iterations=60, strength=5, seed=1)
    most = max(full.moves, key=lambda s: s.visits)
    assert full.stats.iterations == 60 and full.chosen.text == most.move.text


def test_suggest_stream_sends_partials_then_final(c):
    view = view_to_act("tienlen", 4, seed=5)
    msgs = list(c.suggest_stream(view, milliseconds=400, interval_ms=60, seed=1))
    assert msgs[-1].final and all(not m.final for m in msgs[:-1])
    assert len(msgs) >= 3
    its = [m.stats.iterations for m in msgs]
    assert its == sorted(its)
    assert msgs[-1].stats.stopped_by == "time"


def test_suggest_honours_the_deadline(c):
    view = view_to_act("tienlen", 4, seed=6)
    # 50,000 iterations take far longer than the call's 2 s (a call past its deadline fails
    # with DEADLINE_EXCEEDED: the answer came in time, cut by the deadline)
    resp = c.suggest(view, iterations=50_000, timeout=2.0)
    assert resp.stats.stopped_by == "deadline"
    assert 0 < resp.stats.iterations < 50_000
    assert resp.moves


def test_concurrent_clients(target):
    views = [view_to_act("tienlen", 4, seed=s) for s in range(6)]
    out: dict[int, object] = {}
    errors: list = []

    def work(i):
        try:
            with client(target) as cl:
                out[i] = cl.suggest(views[i], iterations=50, seed=i)
        except Exception as e:  # collected for the assertion below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert sorted(out) == list(range(6))
    assert all(r.stats.iterations == 50 for r in out.values())


# -- Analyze ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_analyze_a_record(c, game):
    obj = long_record(game, 3, min_moves=6, seed=2)
    seat = obj["moves"][0]["seat"]
    msgs = list(c.analyze(obj, seats=[seat], iterations=12, seed=3))
    decisions = [m.decision for m in msgs if m.WhichOneof("item") == "decision"]
    summaries = [m.summary for m in msgs if m.WhichOneof("item") == "summary"]
    expected = [i for i, mv in enumerate(obj["moves"]) if mv["seat"] == seat]
    assert [d.index for d in decisions] == expected
    assert [m.done for m in msgs[: len(decisions)]] == list(range(1, len(decisions) + 1))
    assert all(m.total == len(expected) for m in msgs)
    th = msgs[0].thresholds
    for d in decisions:
        assert d.seat == seat and d.played.text == obj["moves"][d.index]["move"]
        assert d.loss >= 0
        if d.forced:
            assert d.legal_moves == 1 and d.loss == 0
        elif d.mark == pb.MARK_GOOD:
            assert d.loss <= th.good
        elif d.mark == pb.MARK_BLUNDER:
            assert d.loss > th.mistake
    (s,) = summaries
    assert s.seat == seat and s.decisions == len(expected)
    assert s.total_loss == pytest.approx(sum(d.loss for d in decisions))
    assert sum(s.marks.values()) == len(expected)
    assert 0 <= s.accuracy <= 1
    state = rec.replay_record(obj)
    assert s.payoff == pytest.approx(state.returns()[seat])
    losses = [w.loss for w in s.worst]
    assert losses == sorted(losses, reverse=True)


def test_analyze_a_view_judges_its_seat_only(c):
    obj = long_record("tienlen", 4, min_moves=12, seed=4)
    seat = obj["moves"][1]["seat"]
    view = rec.view_at(obj, seat, 10)
    msgs = list(c.analyze(view, iterations=10, seed=1))
    decisions = [m.decision for m in msgs if m.WhichOneof("item") == "decision"]
    assert [d.index for d in decisions] == [
        i for i, mv in enumerate(obj["moves"][:10]) if mv["seat"] == seat
    ]
    summary = msgs[-1].summary
    assert summary.seat == seat and not summary.HasField("payoff")


def test_analyze_thresholds_are_configurable(c):
    obj = long_record("tienlen", 4, min_moves=8, seed=5)
    seat = obj["moves"][0]["seat"]
    tiny = {"good": 1e-9, "inaccuracy": 2e-9, "mistake": 3e-9}
    msgs = list(c.analyze(obj, seats=[seat], iterations=10, seed=2, thresholds=tiny))
    assert msgs[0].thresholds.good == pytest.approx(1e-9)
    for m in msgs:
        d = m.decision
        if m.WhichOneof("item") != "decision" or d.forced:
            continue
        # a mark only where the loss interval lies in one band, else "unclear"
        if d.loss_low > 3e-9:
            assert d.mark == pb.MARK_BLUNDER
        elif d.loss_high > 3e-9:
            assert d.mark == pb.MARK_UNCLEAR
        else:
            assert d.mark in (pb.MARK_BEST, pb.MARK_GOOD)
        assert d.loss_low <= d.loss <= d.loss_high and d.worlds >= 2


# -- bad input ----------------------------------------------------------------------------------


def _tienlen_view():
    return view_to_act("tienlen", 4, seed=7, moves=4)


def _set(obj, path, value):
    cur = obj
    for k in path[:-1]:
        cur = cur[k]
    cur[path[-1]] = value
    return obj


def _mut_view(fn):
    def make_request():
        v = copy.deepcopy(_tienlen_view())
        fn(v)
        return v

    return make_request


def _seat(v):
    return v["seat"]


def _two_same(v):
    cards = v["deal"]["hands"][_seat(v)]["cards"]
    cards[1] = cards[0]


def _bad_card(v):
    v["deal"]["hands"][_seat(v)]["cards"][0] = "1X"


def _illegal_move(v):
    # the view's seat plays a card it does not hold at the last move of its own
    mine = set(v["deal"]["hands"][_seat(v)]["cards"])
    other = next(f"{r}{s}" for r in "3456789TJQKA2" for s in "SCDH" if f"{r}{s}" not in mine)
    v["moves"].append({"seat": _seat(v), "move": other})


VIEW_CASES = [
    ("unknown game", lambda v: _set(v, ["game"], "chess"), "view.game", "unknown game"),
    (
        "unknown option",
        lambda v: _set(v, ["options"], {"no_such_rule": True}),
        "view.options",
        "no_such_rule",
    ),
    (
        "bad option value",
        lambda v: _set(v, ["options"], {"first_lead_requires_3_spades": "yes"}),
        "view.options",
        "first_lead_requires_3_spades",
    ),
    ("wrong player count", lambda v: _set(v, ["players"], 7), "view.players", "7"),
    ("seat out of range", lambda v: _set(v, ["seat"], 9), "view.seat", "9"),
    ("malformed card", _bad_card, "view.deal.hands", "1X"),
    ("duplicate card", _two_same, "view.deal.hands", "twice"),
    ("bad format", lambda v: _set(v, ["format"], "quansu-view/9"), "view.format", "quansu-view/1"),
]


@pytest.mark.parametrize("name,mutate,field,needle", VIEW_CASES, ids=[c[0] for c in VIEW_CASES])
def test_bad_views_are_invalid_argument_with_a_field(c, name, mutate, field, needle):
    v = copy.deepcopy(_tienlen_view())
    mutate(v)
    for call in (lambda: c.suggest(v, iterations=5), lambda: c.legal_moves(v)):
        with pytest.raises(grpc.RpcError) as ei:
            call()
        err = ei.value
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, err.details()
        ((f, msg),) = field_violations(err)
        assert f.startswith(field), (f, msg)
        assert needle in msg or needle in f, (f, msg)


def test_illegal_move_names_the_event_index(c):
    v = copy.deepcopy(_tienlen_view())
    n = len(v["moves"])
    _illegal_move(v)
    with pytest.raises(grpc.RpcError) as ei:
        c.legal_moves(v)
    ((f, msg),) = field_violations(ei.value)
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert f == f"view.moves[{n}]", (f, msg)


def test_impossible_history_and_record_errors(c):
    obj = long_record("tienlen", 4, min_moves=8)
    bad = copy.deepcopy(obj)
    bad["moves"][3]["seat"] = (bad["moves"][3]["seat"] + 1) % 4
    with pytest.raises(grpc.RpcError) as ei:
        c.legal_moves(bad)
    assert field_violations(ei.value)[0][0] == "record.moves[3]"
    # a card in two places: the same card in two hands
    bad = copy.deepcopy(obj)
    bad["deal"]["hands"][1]["cards"][0] = bad["deal"]["hands"][0]["cards"][0]
    with pytest.raises(grpc.RpcError) as ei:
        c.legal_moves(bad)
    f, msg = field_violations(ei.value)[0]
    assert f == "record.deal.hands[1]" and "twice" in msg
    # a result that disagrees with the settlement
    bad = copy.deepcopy(obj)
    bad["result"]["net"] = [0] * 4
    with pytest.raises(grpc.RpcError) as ei:
        c.legal_moves(bad)
    assert field_violations(ei.value)[0][0].startswith("record.result")


def test_request_field_errors(c, target):
    v = _tienlen_view()
    cases = [
        (lambda: c.suggest(v, iterations=10**6), "budget.iterations"),
        (lambda: c.suggest(v, milliseconds=10**7), "budget.milliseconds"),
        (lambda: c.suggest(v, iterations=-1), "budget.iterations"),
        (lambda: c.suggest(v, top_k=-2), "top_k"),
        (lambda: c.suggest(v, strength=9), "strength"),
        (lambda: c.stub.Suggest(pb.SuggestRequest()), "view"),
        (lambda: c.stub.LegalMoves(pb.LegalMovesRequest()), "game"),
        (lambda: list(c.analyze(v, seats=[7])), "seats[0]"),
        (lambda: list(c.analyze(v, seats=[(v["seat"] + 1) % 4])), "seats[0]"),
        (lambda: list(c.analyze(v, thresholds={"good": -1})), "thresholds.good"),
        (lambda: list(c.analyze(v, thresholds={"good": 2, "mistake": 1})), "thresholds"),
        (lambda: list(c.suggest_stream(v, interval_ms=-5)), "interval_ms"),
    ]
    for call, field in cases:
        with pytest.raises(grpc.RpcError) as ei:
            call()
        assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT, field
        assert field_violations(ei.value)[0][0] == field, (field, ei.value.details())


def test_suggest_needs_the_seat_to_act_and_a_running_game(c):
    for s in range(50):
        from tests.helpers.service import played_state

        st = played_state("tienlen", 4, s, 4)
        if not st.is_terminal():
            break
    v = rec.view_from_state(st, (st.current_player + 1) % 4)
    with pytest.raises(grpc.RpcError) as ei:
        c.suggest(v, iterations=5)
    assert field_violations(ei.value)[0][0] == "view.seat"
    done = long_record("tienlen", 4)
    v = rec.view_at(done, 0)
    with pytest.raises(grpc.RpcError) as ei:
        c.suggest(v, iterations=5)
    assert field_violations(ei.value)[0][0] == "view.moves"


def test_a_record_is_not_a_view_for_suggest(c):
    from quansu.server.v1 import records_pb2

    req = pb.SuggestRequest()
    req.view.CopyFrom(records_pb2.View(format="quansu-record/1", game="tienlen", players=4))
    with pytest.raises(grpc.RpcError) as ei:
        c.stub.Suggest(req)
    assert field_violations(ei.value)[0][0] == "view.format"


# -- health and reflection -------------------------------------------------------------------------


def test_health_and_reflection(target, c):
    assert c.health() == "SERVING"
    assert c.health("quansu.v1.QuansuService") == "SERVING"
    with grpc.insecure_channel(target) as ch:
        stub = reflection_pb2_grpc.ServerReflectionStub(ch)
        resp = list(
            stub.ServerReflectionInfo(
                iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=10
            )
        )
        names = {s.name for s in resp[0].list_services_response.service}
        assert {"quansu.v1.QuansuService", "grpc.health.v1.Health"} <= names
        resp = list(
            stub.ServerReflectionInfo(
                iter(
                    [
                        reflection_pb2.ServerReflectionRequest(
                            file_containing_symbol="quansu.v1.QuansuService"
                        )
                    ]
                ),
                timeout=10,
            )
        )
        assert resp[0].file_descriptor_response.file_descriptor_proto


# -- robustness: mutated requests never crash ---------------------------------------------------


def _mutations(obj: dict, rng: random.Random):
    """Random single-field corruptions of a view (JSON object); call on the unmutated view."""
    seat = obj["seat"]
    cards = obj["deal"]["hands"][seat]["cards"]
    n = obj["players"]
    choices = [
        lambda o: o["deal"]["hands"][seat]["cards"].__setitem__(
            rng.randrange(len(cards)), rng.choice(["ZZ", "", "10H", "3s", "♠A"])
        ),
        lambda o: o.__setitem__("seat", rng.choice([-1, 4, 99, seat])),
        lambda o: o.__setitem__("players", rng.choice([0, 1, 5, 2, 3])),
        lambda o: o["deal"].__setitem__("first", rng.choice([-3, 7, 1, 2])),
        lambda o: o["deal"]["hands"][(seat + 1) % n].__setitem__(
            "count", rng.choice([0, 1, 60, 12])
        ),
        lambda o: o["moves"].append(
            {
                "seat": rng.randrange(4),
                "move": rng.choice(
                    [
                        "pass",
                        "3S",
                        "draw",
                        "take",
                        "done",
                        "eat 9H",
                        "lay",
                        "2H 2D",
                        "attack 5C",
                        "xyzzy",
                    ]
                ),
            }
        ),
        lambda o: o["moves"].insert(0, {"seat": rng.randrange(4), "move": "pass"}),
        lambda o: o.__setitem__("drawn", [rng.choice(["3S", "AH", "QQ"])]),
        lambda o: o.__setitem__(
            "options",
            {
                rng.choice(["a", "direction", "trump_swap", "first_game"]): rng.choice(
                    [1, "x", True, None, [1, 2]]
                )
            },
        ),
    ]
    return rng.choice(choices)


@pytest.mark.parametrize("game", GAMES)
def test_mutated_views_are_answered_or_rejected_never_crash(game):
    from quansu.server.engine import Engine
    from quansu.server.errors import RequestError
    from tests.helpers.service import view_message

    engine = Engine()
    rng = random.Random(game)
    base = view_to_act(game, 4, seed=9, moves=6)
    outcomes = {"ok": 0, "invalid": 0}
    for _ in range(60):
        v = copy.deepcopy(base)
        for fn in [_mutations(base, rng) for _ in range(rng.randint(1, 2))]:
            fn(v)
        try:
            msg = view_message(v)
            engine.legal_moves(pb.LegalMovesRequest(view=msg))
            engine.check_suggest(pb.SuggestRequest(view=msg))
            outcomes["ok"] += 1
        except RequestError as e:
            assert e.field.startswith(("view", "record")) or e.field == "", e.field
            outcomes["invalid"] += 1
    assert outcomes["invalid"] > 0


def test_suggest_for_a_state_in_process():
    from quansu.server.engine import build_engine
    from tests.helpers.service import played_state

    engine = build_engine(uniform=True)
    for s in range(50):
        st = played_state("tienlen", 4, s, 3)
        if not st.is_terminal():
            break
    resp = engine.suggest_for_state(st, strength=3, iterations=40, seed=1)
    assert resp.seat == st.current_player
    assert resp.chosen.text in rec.legal_move_texts(st)
    assert resp.stats.iterations == 40


def test_a_card_both_in_hand_and_drawn_is_rejected(c):
    from tests.helpers.service import played_state

    if "phom" not in GAMES:
        pytest.skip("Phỏm is not registered")
    for s in range(100):
        st = played_state("phom", 4, s, 12)
        v = rec.view_from_state(st, 0)
        if v.get("drawn"):
            break
    v["drawn"][0] = v["deal"]["hands"][0]["cards"][0]
    with pytest.raises(grpc.RpcError) as ei:
        c.legal_moves(v)
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field_violations(ei.value)[0][0].startswith("view.drawn")


def test_analyze_judges_from_the_seats_information_only(target):
    """Two records that differ only in cards that the judged seat never sees (two opponents'
    unplayed cards swapped) give the same judgement of that seat's decisions.  The calls have no
    deadline: under one, the time each decision gets (and so its worlds) depends on the machine's
    load, and the two judgements could differ for that reason alone."""
    obj = long_record("tienlen", 4, min_moves=14, seed=8)
    obj["moves"] = obj["moves"][:12]  # a game in progress: every seat still holds cards
    obj.pop("result", None)
    seat = obj["moves"][0]["seat"]
    state = rec.replay_record(obj)
    zones = state.zones()
    from quansu.games.cards import card_str, cards_of

    others = [s for s in range(4) if s != seat and zones[f"hand{s}"]]
    a, b = others[:2]
    ca, cb = card_str(cards_of(zones[f"hand{a}"])[0]), card_str(cards_of(zones[f"hand{b}"])[0])
    twin = copy.deepcopy(obj)
    ha, hb = twin["deal"]["hands"][a]["cards"], twin["deal"]["hands"][b]["cards"]
    ha[ha.index(ca)], hb[hb.index(cb)] = cb, ca
    twin.pop("result", None)
    rec.replay_record(twin)  # still a legal game
    with client(target, timeout=None) as untimed:

        def judge(o):
            ds = [
                m.decision
                for m in untimed.analyze(o, seats=[seat], iterations=12, seed=4)
                if m.WhichOneof("item") == "decision"
            ]
            assert ds and all(d.stopped_by != "deadline" for d in ds)
            return [(d.index, d.best.text, round(d.loss, 12), d.worlds) for d in ds]

        assert judge(obj) == judge(twin)
