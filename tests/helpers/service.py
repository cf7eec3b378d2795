"""Helpers for the service tests (no tests here): games played at random into records and
views, and a server started on an ephemeral loopback port."""

from __future__ import annotations

import contextlib
import logging
import random

from quansu.client import Client
from quansu.games import record as rec
from quansu.games.registry import make
from quansu.server import convert
from quansu.server.app import QuansuServer, ServerConfig

TLS_DIR = __import__("pathlib").Path(__file__).parents[1] / "data" / "tls"


def played_state(game_name: str, players: int, seed: int, moves: int | None = None):
    """A game played with random moves from a seeded deal: all the way (``moves`` None) or
    ``moves`` moves, stopping early at the end.  Returns the state."""
    game = make(game_name, players)
    state = game.new_initial_state(random.Random(seed))
    rng = random.Random(seed + 1)
    k = 0
    while not state.is_terminal() and (moves is None or k < moves):
        state.apply(rng.choice(state.legal_moves()))
        k += 1
    return state


def _with_lists(obj: dict) -> dict:
    """The record/view with its (optional) ``moves`` list present, for the tests' indexing."""
    obj.setdefault("moves", [])
    return obj


def record_json(game_name: str, players: int = 4, seed: int = 0, moves: int | None = None) -> dict:
    return _with_lists(rec.record_from_state(played_state(game_name, players, seed, moves)))


def long_record(game_name: str, players: int = 4, min_moves: int = 6, seed: int = 0) -> dict:
    """A finished record with at least ``min_moves`` moves (tries seeds from ``seed``)."""
    for s in range(seed, seed + 200):
        state = played_state(game_name, players, s)
        if len(state.history) >= min_moves:
            return _with_lists(rec.record_from_state(state))
    raise AssertionError(f"no {game_name} game of {min_moves}+ moves")


def view_to_act(
    game_name: str, players: int = 4, seed: int = 0, moves: int = 5, choice: bool = True
) -> dict:
    """The view of the seat to act after about ``moves`` random moves of a running game
    (``choice``: one where that seat has at least two legal moves, so that a search runs;
    a position with one legal move is answered without search)."""
    for s in range(seed, seed + 200):
        state = played_state(game_name, players, s, moves)
        if not state.is_terminal() and (not choice or len(state.legal_moves()) > 1):
            return _with_lists(rec.view_from_state(state, state.current_player))
    raise AssertionError(f"no running {game_name} game after {moves} moves")


def view_message(obj: dict):
    return convert.record_message(obj)


@contextlib.contextmanager
def running_server(**kw):
    """A started QuansuServer on 127.0.0.1 (ephemeral port) with the uniform evaluator; yields
    ``(server, target)``."""
    kw.setdefault("workers", 2)
    kw.setdefault("uniform", True)
    server = QuansuServer(ServerConfig(host="127.0.0.1", port=0, drain_s=2.0, **kw))
    port = server.start()
    try:
        yield server, f"127.0.0.1:{port}"
    finally:
        server.stop(grace=1.0)


def client(target: str, **kw) -> Client:
    kw.setdefault("timeout", 60.0)
    return Client(target, **kw)


class CallLog(logging.Handler):
    """The per-call lines (``quansu.calls``, server/logs.py) of the servers running in this
    process, as dicts of their fields (``rpc``, ``status``, ``decisions``, ...)."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.calls: list[dict] = []

    def emit(self, record: logging.LogRecord) -> None:
        fields = getattr(record, "fields", None)
        if record.msg == "call" and isinstance(fields, dict):
            self.calls.append(dict(fields))

    def of(self, rpc: str) -> list[dict]:
        return [c for c in self.calls if c["rpc"] == rpc]


@contextlib.contextmanager
def call_log():
    """A :class:`CallLog` of the calls ended while the block runs (``quansu.calls`` set to INFO
    meanwhile)."""
    logger = logging.getLogger("quansu.calls")
    handler = CallLog()
    level = logger.level
    logger.addHandler(handler)
    if not logger.isEnabledFor(logging.INFO):
        logger.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
