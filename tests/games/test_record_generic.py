"""games.record on a toy game with a stock, automatic draws and hidden cards (independent of the
four real engines, so the generic machinery is tested even before they land)."""

from __future__ import annotations

import copy
import random

import pytest

from quansu.games import record as rec
from quansu.games.base import (
    TERMINAL,
    Deal,
    DealError,
    Game,
    IllegalMoveError,
    MoveInfo,
    MoveParseError,
    OptionError,
    OptionSpec,
    State,
)
from quansu.games.cards import card_str, cards_of, mask_of, parse_card

DRAW = -1


class ToyGame(Game):
    """Toy: 3 cards each, a stock of 5, the rest set aside.  A move is ``draw`` (stock not empty,
    hand under 5 cards) or ``discard C``.  A seat whose hand becomes empty refills 2 cards from the
    stock automatically (``refill`` option).  The game ends when a hand is empty (that seat wins
    ``stake`` from every other seat) or after 12 moves (no payment)."""

    name = "toy"
    min_players = 2
    max_players = 3
    option_specs = (
        OptionSpec("refill", True, "refill an empty hand"),
        OptionSpec("stake", 1, "bets paid to the winner", type=int),
    )
    max_moves = 12

    def payoff_bound(self):
        return self.options["stake"] * (self.num_players - 1)

    def random_deal(self, rng):
        deck = list(range(52))
        rng.shuffle(deck)
        n = self.num_players
        hands = tuple(tuple(deck[3 * s : 3 * s + 3]) for s in range(n))
        return Deal(
            hands=hands,
            first=rng.randrange(n),
            stock=tuple(deck[3 * n : 3 * n + 5]),
            set_aside=tuple(deck[3 * n + 5 :]),
        )

    def state_from_deal(self, deal):
        for s, h in enumerate(deal.hands):
            if len(h) != 3:
                raise DealError(f"deal.hands[{s}]: {len(h)} cards, toy deals 3")
        if len(deal.stock) != 5:
            raise DealError(f"deal.stock: {len(deal.stock)} cards, toy stocks 5")
        allc = [c for h in deal.hands for c in h] + list(deal.stock) + list(deal.set_aside)
        if sorted(allc) != list(range(52)):
            raise DealError("deal: the cards do not make one deck")
        return ToyState(self, deal)

    def deal_for_view(self, seat, hand, counts, moves, rng, *, first=0, drawn=(), trump=None):
        n = self.num_players
        hands = [[None] * counts[s] for s in range(n)]
        hands[seat] = list(hand)
        stock: list = [None] * 5
        top = 0
        my_draws = list(drawn)
        held = [list(h) for h in hands]
        pool_used = set(hand) | set(drawn)

        def draw(s):
            nonlocal top
            if top >= 5:
                return
            if s == seat:
                if not my_draws:
                    raise DealError("drawn: fewer cards than the seat's draws")
                stock[top] = my_draws.pop(0)
                held[s].append(stock[top])
            else:
                held[s].append(("stock", top))
            top += 1

        for i, (s, m) in enumerate(moves):
            if m == DRAW:
                draw(s)
            else:
                if s != seat and m not in held[s]:
                    if m in pool_used:
                        raise IllegalMoveError(
                            f"moves[{i}]: {card_str(m)} cannot be in seat {s}'s hand"
                        )
                    slot = next((x for x in held[s] if x is None or isinstance(x, tuple)), "none")
                    if slot == "none":
                        raise IllegalMoveError(f"moves[{i}]: seat {s} has no card to discard")
                    j = held[s].index(slot)
                    if slot is None:
                        hands[s][hands[s].index(None)] = m
                    else:
                        stock[slot[1]] = m
                    held[s][j] = m
                    pool_used.add(m)
                if m in held[s]:
                    held[s].remove(m)
                if self.options["refill"] and not held[s]:
                    draw(s)
                    draw(s)
        pool = [c for c in range(52) if c not in pool_used and c != trump]
        rng.shuffle(pool)
        for h in hands:
            for k, c in enumerate(h):
                if c is None:
                    h[k] = pool.pop()
        for k, c in enumerate(stock):
            if c is None:
                stock[k] = pool.pop()
        return Deal(
            hands=tuple(tuple(h) for h in hands),
            first=first,
            stock=tuple(stock),
            set_aside=tuple(pool),
        )

    def move_to_text(self, move):
        return "draw" if move == DRAW else f"discard {card_str(move)}"

    def parse_move(self, text):
        t = text.strip().lower().split()
        if t == ["draw"]:
            return DRAW
        if len(t) == 2 and t[0] == "discard":
            try:
                return parse_card(t[1])
            except ValueError as e:
                raise MoveParseError(f"bad move {text!r}: {e}") from None
        raise MoveParseError(f"bad move {text!r}: expected 'draw' or 'discard CARD'")

    def describe_move(self, move):
        return MoveInfo("draw") if move == DRAW else MoveInfo("discard", (move,))


class ToyState(State):
    def __init__(self, game, deal):
        self.game = game
        self._deal = deal
        self.hands = [mask_of(h) for h in deal.hands]
        self.stock = list(deal.stock)
        self.discard: list[int] = []
        self._history: list = []
        self.to_act = deal.first
        self.winner = None

    @property
    def current_player(self):
        if self.winner is not None or len(self._history) >= 12:
            return TERMINAL
        return self.to_act

    def legal_moves(self):
        if self.is_terminal():
            return []
        h = self.hands[self.to_act]
        out = [DRAW] if self.stock and h.bit_count() < 5 else []
        return out + cards_of(h)

    def apply(self, move):
        if move not in self.legal_moves():
            if isinstance(move, int) and move >= 0:
                raise IllegalMoveError(f'"{card_str(move)}" is not in seat {self.to_act}\'s hand')
            raise IllegalMoveError("cannot draw now")
        s = self.to_act
        if move == DRAW:
            self.hands[s] |= 1 << self.stock.pop(0)
        else:
            self.hands[s] &= ~(1 << move)
            self.discard.append(move)
            if self.game.options["refill"] and not self.hands[s]:
                for _ in range(2):
                    if self.stock:
                        self.hands[s] |= 1 << self.stock.pop(0)
            if not self.hands[s]:
                self.winner = s
        self._history.append((s, move))
        self.to_act = (s + 1) % self.game.num_players

    def clone(self):
        return copy.deepcopy(self)

    def returns(self):
        n = self.game.num_players
        if self.winner is None:
            return [0.0] * n
        k = self.game.options["stake"]
        return [float(k * (n - 1)) if s == self.winner else float(-k) for s in range(n)]

    def settlement(self):
        if self.winner is None:
            return []
        k = self.game.options["stake"]
        return [
            (s, self.winner, float(k)) for s in range(self.game.num_players) if s != self.winner
        ]

    @property
    def deal(self):
        return self._deal

    @property
    def history(self):
        return list(self._history)

    def observation(self, seat):
        return (
            seat,
            self.hands[seat],
            tuple(self.discard),
            tuple(h.bit_count() for h in self.hands),
            len(self.stock),
            tuple(self._history),
            self.current_player,
        )

    def zones(self):
        z = {f"hand{s}": h for s, h in enumerate(self.hands)}
        z["stock"] = mask_of(self.stock)
        z["discard"] = mask_of(self.discard)
        z["set_aside"] = mask_of(self._deal.set_aside)
        return z


@pytest.fixture(autouse=True)
def toy_registry(monkeypatch):
    real = rec.make

    def make(name, players=4, options=None):
        if name == "toy":
            return ToyGame(players, options)
        return real(name, players, options)

    monkeypatch.setattr(rec, "make", make)


def play(game, seed):
    rng = random.Random(seed)
    state = game.new_initial_state(rng)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    return state


def finished_record(seed=1, players=3, options=None):
    return rec.record_from_state(play(ToyGame(players, options), seed))


# -- round trips ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("options", [None, {"refill": False}, {"stake": 3}])
def test_round_trip(players, options):
    for seed in range(15):
        state = play(ToyGame(players, options), seed)
        r = rec.record_from_state(state)
        assert r["format"] == "quansu-record/1"
        assert r["options"] == (options or {})
        again = rec.replay_record(rec.loads(rec.dumps(r)))
        assert again.returns() == state.returns()
        assert rec.record_from_state(again) == r
        assert rec.record_to_json(rec.parse_record(r)) == r


def test_record_of_running_game_has_no_result():
    rng = random.Random(3)
    state = ToyGame(2).new_initial_state(rng)
    state.apply(state.legal_moves()[0])
    r = rec.record_from_state(state)
    assert "result" not in r and len(r["moves"]) == 1
    assert rec.replay_record(r).observation(0) == state.observation(0)


def test_moves_case_insensitive_and_written_canonical():
    r = finished_record()
    r["moves"][0]["move"] = r["moves"][0]["move"].upper()
    assert rec.record_to_json(rec.parse_record(r)) == finished_record()


# -- views ------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [None, {"refill": False}])
def test_view_matches_engine_observation(options):
    for seed in range(10):
        game = ToyGame(3, options)
        rng = random.Random(seed)
        state = game.new_initial_state(rng)
        r_states = [state.clone()]
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
            r_states.append(state.clone())
        r = rec.record_from_state(state)
        for k, expected in enumerate(r_states):
            for seat in range(3):
                v = rec.view_at(r, seat, k)
                assert "stock" not in v["deal"] and "set_aside" not in v["deal"]
                assert all(("cards" in h) == (s == seat) for s, h in enumerate(v["deal"]["hands"]))
                got = rec.replay_view(rec.loads(rec.dumps(v)), random.Random(k))
                assert got.observation(seat) == expected.observation(seat)
                assert rec.view_to_json(rec.parse_view(v)) == v


def test_view_drawn_lists_own_draws_in_order():
    # seat 0 draws, seat 1 draws, seat 0 discards all three dealt cards -> automatic refill of 2
    game = ToyGame(2)
    deal = Deal(
        hands=((0, 1, 2), (3, 4, 5)),
        first=0,
        stock=(10, 11, 12, 13, 14),
        set_aside=tuple(range(6, 10)) + tuple(range(15, 52)),
    )
    state = game.state_from_deal(deal)
    for m in (DRAW, DRAW, 0, 3, 1, 4, 2, 5, 10):
        state.apply(m)
    r = rec.record_from_state(state)
    # seat 0: its draw (card 10 = 5D), then the refill after its last discard, in stock order
    assert rec.view_at(r, 0)["drawn"] == ["5D", "6S", "6C"]
    assert rec.view_at(r, 1)["drawn"] == ["5H"]
    assert rec.view_at(r, 0, 8)["drawn"] == ["5D"]
    assert "drawn" not in rec.view_at(r, 0, 0) and "moves" not in rec.view_at(r, 0, 0)


def test_view_with_wrong_drawn_is_rejected():
    r = finished_record(seed=2, players=2)
    for seat in range(2):
        v = rec.view_at(r, seat)
        if v.get("drawn"):
            v["drawn"][0] = "2H" if v["drawn"][0] != "2H" else "2D"
            with pytest.raises((DealError, IllegalMoveError)):
                rec.replay_view(v, random.Random(0))
            return
    pytest.skip("no draw in this game")


def test_view_at_bad_arguments():
    r = finished_record()
    with pytest.raises(rec.RecordError, match=r"seat: expected a seat 0\.\.2, got 3"):
        rec.view_at(r, 3)
    with pytest.raises(rec.RecordError, match="at: expected a move count"):
        rec.view_at(r, 0, len(r["moves"]) + 1)


def test_view_shape_errors():
    v = rec.view_at(finished_record(), 0, 2)
    bad = copy.deepcopy(v)
    bad["deal"]["hands"][1] = {"cards": ["3S"]}
    with pytest.raises(
        rec.RecordError, match=r"deal.hands\[1\].cards: a view shows only the count"
    ):
        rec.parse_view(bad)
    bad = copy.deepcopy(v)
    bad["deal"]["stock"] = []
    with pytest.raises(rec.RecordError, match="deal.stock: a view does not show"):
        rec.parse_view(bad)
    bad = copy.deepcopy(v)
    del bad["deal"]["hands"][0]["cards"]
    with pytest.raises(rec.RecordError, match=r"deal.hands\[0\].cards: missing"):
        rec.parse_view(bad)
    with pytest.raises(rec.RecordError, match="format: expected"):
        rec.parse_record(v)


# -- errors -----------------------------------------------------------------------------------


def test_first_impossible_move_is_named():
    r = finished_record(seed=4)
    state = rec.replay_record(r)
    k = 3
    seat = r["moves"][k]["seat"]
    hand_before = rec.replay_record({**r, "moves": r["moves"][:k], "result": None}).zones()[
        f"hand{seat}"
    ]
    bad = next(c for c in range(52) if not hand_before >> c & 1)
    r2 = copy.deepcopy(r)
    r2["moves"][k]["move"] = f"discard {card_str(bad)}"
    with pytest.raises(IllegalMoveError) as e:
        rec.replay_record(r2)
    assert str(e.value) == f'moves[3]: "{card_str(bad)}" is not in seat {seat}\'s hand'
    assert state.is_terminal()


def test_wrong_seat_and_moves_after_end():
    r = finished_record(seed=5)
    r2 = copy.deepcopy(r)
    r2["moves"][1]["seat"] = r["moves"][0]["seat"]
    with pytest.raises(
        IllegalMoveError, match=r"^moves\[1\]: seat \d moved but seat \d is to act$"
    ):
        rec.replay_record(r2)
    r3 = copy.deepcopy(r)
    r3["moves"].append({"seat": 0, "move": "draw"})
    with pytest.raises(IllegalMoveError, match=rf"^moves\[{len(r['moves'])}\]: .* after the end"):
        rec.replay_record(r3)


def test_unparsable_move():
    r = finished_record()
    r["moves"][2]["move"] = "fly away"
    with pytest.raises(MoveParseError, match=r"^moves\[2\]: bad move 'fly away'"):
        rec.parse_record(r)
    r["moves"][2] = {"seat": 0}
    with pytest.raises(rec.RecordError, match=r"^moves\[2\].move: expected move text"):
        rec.parse_record(r)


def test_bad_deal_count_names_field():
    r = finished_record()
    r["deal"]["set_aside"].append(r["deal"]["hands"][1]["cards"].pop())
    with pytest.raises(DealError, match=r"^deal.hands\[1\]: 2 cards, toy deals 3$"):
        rec.replay_record(r)


def test_card_dealt_twice():
    r = finished_record()
    r["deal"]["hands"][2]["cards"][0] = r["deal"]["hands"][0]["cards"][1]
    c = r["deal"]["hands"][0]["cards"][1]
    with pytest.raises(
        DealError, match=rf"^deal.hands\[2\]: {c} dealt twice \(also in deal.hands\[0\]\)$"
    ):
        rec.parse_record(r)
    r = finished_record()
    r["deal"]["stock"][1] = r["deal"]["hands"][1]["cards"][0]
    with pytest.raises(
        DealError, match=r"^deal.stock: .. dealt twice \(also in deal.hands\[1\]\)$"
    ):
        rec.parse_record(r)


def test_bad_card_text():
    r = finished_record()
    r["deal"]["hands"][0]["cards"][1] = "1X"
    with pytest.raises(DealError, match=r"^deal.hands\[0\].cards\[1\]: bad card '1X'"):
        rec.parse_record(r)


def test_unknown_option_and_bad_value():
    r = finished_record()
    r["options"] = {"turbo": True}
    with pytest.raises(
        OptionError, match="^options: unknown option 'turbo'; known options: refill, stake$"
    ):
        rec.parse_record(r)
    r["options"] = {"stake": "high"}
    with pytest.raises(OptionError, match="^options: option 'stake'"):
        rec.parse_record(r)


def test_result_disagrees_with_settlement():
    for seed in range(40):
        r = finished_record(seed=seed)
        if any(r["result"]["net"]):
            break
    bad = copy.deepcopy(r)
    bad["result"]["net"] = [-x for x in r["result"]["net"]]
    with pytest.raises(
        rec.ResultError, match=r"^result.net: \[.*\] disagrees with the settlement, which gives"
    ):
        rec.replay_record(bad)
    bad = copy.deepcopy(r)
    bad["result"]["transfers"][0]["amount"] = 7
    with pytest.raises(rec.ResultError, match=r"^result.transfers: disagree with the settlement"):
        rec.replay_record(bad)
    bad = copy.deepcopy(r)
    bad["moves"].pop()
    with pytest.raises(rec.ResultError, match="^result: given, but the game is not over"):
        rec.replay_record(bad)
    rec.replay_record(r)  # the true result passes


@pytest.mark.parametrize(
    "mutate,cls,pattern",
    [
        (lambda r: r.update(format="quansu-record/2"), rec.RecordError, "^format: expected"),
        (
            lambda r: r.update(players="3"),
            rec.RecordError,
            '^players: expected an integer, got "3"',
        ),
        (
            lambda r: r.update(players=5),
            rec.RecordError,
            "^players: toy: 5 players is not supported",
        ),
        (lambda r: r.update(game="chess"), rec.RecordError, "^game: unknown game 'chess'"),
        (lambda r: r.update(colour="red"), rec.RecordError, "^colour: unknown field"),
        (
            lambda r: r["deal"].update(first=3),
            DealError,
            r"^deal.first: seat 3 is out of range 0\.\.2",
        ),
        (lambda r: r["deal"]["hands"].pop(), DealError, "^deal.hands: 2 hands for 3 players"),
        (
            lambda r: r["deal"]["hands"][0].pop("cards"),
            rec.RecordError,
            r"^deal.hands\[0\].cards: missing",
        ),
        (
            lambda r: r["moves"][0].update(seat=9),
            rec.RecordError,
            r"^moves\[0\].seat: expected a seat",
        ),
        (
            lambda r: r["result"].update(net=[1]),
            rec.RecordError,
            "^result.net: 1 entries for 3 players",
        ),
        (lambda r: r.update(moves={}), rec.RecordError, "^moves: expected a list"),
    ],
)
def test_shape_errors_name_the_field(mutate, cls, pattern):
    r = finished_record()
    mutate(r)
    with pytest.raises(cls, match=pattern):
        rec.replay_record(r)


def test_errors_are_game_errors():
    for cls in (rec.RecordError, rec.ResultError):
        assert issubclass(cls, rec.GameError)


def test_bad_json_text():
    with pytest.raises(rec.RecordError, match="^not valid JSON: .* line 1, column"):
        rec.loads('{"format": ')


def test_dumps_layout():
    r = finished_record()
    text = rec.dumps(r)
    assert rec.loads(text) == r
    lines = text.splitlines()
    assert sum('"move":' in line for line in lines) == len(r["moves"])  # one move per line


# -- command line -----------------------------------------------------------------------------


def _cli(module, argv, tmp_path=None):
    import argparse
    import io

    p = argparse.ArgumentParser()
    module.add_arguments(p)
    args = p.parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    code = module.run(args, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_replay_command_table_and_json(tmp_path):
    import json

    from quansu.cli import replay as cmd_replay

    r = finished_record(seed=6)
    path = tmp_path / "g.json"
    rec.write_json(r, str(path))
    code, out, err = _cli(cmd_replay, [str(path)])
    assert code == 0 and err == ""
    assert "game over after" in out and "result: agrees with the settlement" in out
    assert sum(1 for line in out.splitlines() if line[:1].isdigit()) == len(r["moves"])
    code, out, _ = _cli(cmd_replay, [str(path), "--json", "--legal"])
    lines = [json.loads(x) for x in out.splitlines()]
    assert lines[0]["type"] == "game" and lines[-1]["type"] == "end" and lines[-1]["over"]
    state = ToyGame(3).state_from_deal(rec.parse_record(r).deal)
    for line, m in zip(lines[1:-1], r["moves"]):
        assert line["move"] == m["move"] and line["to_act"] == state.current_player == m["seat"]
        # in a player's order: a game without its own (games/<game>/labels.py) groups by kind
        want = sorted(
            state.legal_moves(),
            key=lambda x: (state.game.describe_move(x).kind, state.game.move_to_text(x)),
        )
        assert line["legal"] == [state.game.move_to_text(x) for x in want]
        state.apply(state.game.parse_move(m["move"]))
    assert lines[-1]["net"] == r["result"]["net"]


def test_replay_command_rejects_bad_record(tmp_path):
    import json

    from quansu.cli import replay as cmd_replay

    r = finished_record(seed=6)
    r["moves"][4]["seat"] = (r["moves"][4]["seat"] + 1) % 3
    path = tmp_path / "bad.json"
    rec.write_json(r, str(path))
    code, out, err = _cli(cmd_replay, [str(path)])
    assert code == 1 and "invalid record: moves[4]: seat" in err
    assert (
        sum(1 for line in out.splitlines() if line[:1].isdigit()) == 4
    )  # moves 0..3 were accepted
    code, out, err = _cli(cmd_replay, [str(path), "--json"])
    assert code == 1 and json.loads(out.splitlines()[-1])["error"].startswith("moves[4]: seat")
    code, _, err = _cli(cmd_replay, [str(tmp_path / "missing.json")])
    assert code == 2 and "cannot read" in err
    (tmp_path / "junk.json").write_text("{", encoding="utf-8")
    code, _, err = _cli(cmd_replay, [str(tmp_path / "junk.json")])
    assert code == 1 and "not valid JSON" in err


def test_replay_command_unfinished_game(tmp_path):
    from quansu.cli import replay as cmd_replay

    r = finished_record(seed=7)
    r["moves"] = r["moves"][:3]
    del r["result"]
    path = tmp_path / "part.json"
    rec.write_json(r, str(path))
    code, out, _ = _cli(cmd_replay, [str(path), "--legal"])
    assert code == 0 and "game not over after 3 moves" in out


def test_view_command(tmp_path):
    from quansu.cli import view as cmd_view

    r = finished_record(seed=8)
    path = tmp_path / "g.json"
    rec.write_json(r, str(path))
    code, out, _ = _cli(cmd_view, [str(path), "--seat", "1", "--at", "4"])
    assert code == 0 and rec.loads(out) == rec.view_at(r, 1, 4)
    target = tmp_path / "v.json"
    assert _cli(cmd_view, [str(path), "--seat", "2", "-o", str(target)])[0] == 0
    assert rec.read_json(str(target)) == rec.view_at(r, 2)
    code, _, err = _cli(cmd_view, [str(path), "--seat", "5"])
    assert code == 2 and "--seat 5 is out of range 0..2" in err
    code, _, err = _cli(cmd_view, [str(path), "--seat", "0", "--at", "999"])
    assert code == 2 and "--at 999 is out of range" in err
    r["options"] = {"nope": 1}
    rec.write_json(r, str(path))
    code, _, err = _cli(cmd_view, [str(path), "--seat", "0"])
    assert code == 1 and "options: unknown option 'nope'" in err


def test_files_equal_their_protobuf_json():
    """The service's Record/View messages hold a file exactly (ParseDict then MessageToDict)."""
    pytest.importorskip("google.protobuf")
    from google.protobuf import json_format

    from quansu.server.v1 import records_pb2

    for seed in range(6):
        r = finished_record(seed=seed, options={"stake": 2} if seed % 2 else None)
        cuts = [rec.view_at(r, s, k) for s in range(3) for k in (0, 3, len(r["moves"]))]
        for obj, msg in [(r, records_pb2.Record)] + [(v, records_pb2.View) for v in cuts]:
            back = json_format.MessageToDict(
                json_format.ParseDict(obj, msg()), preserving_proto_field_name=True
            )
            assert back == obj
            parse = rec.parse_view if msg is records_pb2.View else rec.parse_record
            assert (rec.view_to_json if msg is records_pb2.View else rec.record_to_json)(
                parse(back)
            ) == obj
