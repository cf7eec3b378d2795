"""Policy-value networks in ONNX, run with onnxruntime (no torch here).

:class:`PolicyValueModel` wraps one ``.onnx`` file: it checks the metadata (game, encoder
version and layout fingerprint) against the code's encoder and refuses a mismatch with
:class:`ModelError`, and runs the graph on encoded rows.  :class:`NetworkEvaluator` turns a game
state into move priors and per-seat values for the search.

ONNX graph contract (see ``models/training/net.py``): inputs ``states`` float32 ``[B, S]``,
``moves`` float32 ``[M, F]``, ``move_state`` int64 ``[M]``; outputs ``logits`` float32 ``[M]``
and ``values`` float32 ``[B, 4]`` = expected payoff in bets per relative seat (slot 0 = the seat
whose view was encoded).
"""

from __future__ import annotations

import itertools
import json
import os
from collections import OrderedDict
from pathlib import Path
from typing import Sequence

import numpy as np

from quansu.games import caches
from quansu.games.base import Game, GameError, State
from quansu.models.encoders import encoder_for, versions_for
from quansu.models.encoders.base import Encoder, EncoderError
from quansu.search.evaluator import Evaluation, Evaluator

MODEL_FORMAT = "quansu-pv/1"
MODELS_DIR = Path(__file__).resolve().parent


class ModelError(GameError):
    """A model file that is missing, unreadable, or built for another game or encoder."""


def default_model_path(game_name: str) -> Path:
    """Where the shipped model of a game lives: ``models/<game>.onnx``."""
    return MODELS_DIR / f"{game_name}.onnx"


def _session_options(threads: int):
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.log_severity_level = 3
    return so


def prior_scale(metadata: dict[str, str]) -> float:
    """The factor a model's logits are multiplied by before the priors' softmax: ``q_scale``
    for a ``dmc_q`` model (its logits are Q values in units of ``q_scale`` bets), so that its
    priors are the softmax of Q in bets (a move worth one bet more gets e times the prior);
    1 for every other model (a rollout-advantage model's logits are advantages in units of the
    spread of its training advantages, ``quansu.advantage_scale``).  Without it a Tấn Q logit
    is 5.2 bets and its priors nearly uniform."""
    if metadata.get("quansu.policy_targets") != "dmc_q":
        return 1.0
    try:
        scale = float(metadata.get("quansu.q_scale", "1.0"))
    except ValueError:
        scale = float("nan")
    if not scale > 0:
        raise ModelError(
            f"quansu.q_scale must be a positive number, got {metadata.get('quansu.q_scale')!r}"
        )
    return scale


class PolicyValueModel:
    """One ONNX policy-value network and its metadata.

    ``source``: a path or the model's bytes.  ``threads``: onnxruntime intra-op threads (1 is
    fastest for the small batches of a search on this machine; see ``bench/models.py``).
    """

    def __init__(self, source: str | os.PathLike | bytes, *, threads: int = 1):
        import onnxruntime as ort

        if isinstance(source, (str, os.PathLike)):
            path = Path(source)
            if not path.is_file():
                raise ModelError(f"model file {str(path)!r} not found")
            data = path.read_bytes()
            self.name = str(path)
        else:
            data = bytes(source)
            self.name = "<bytes>"
        try:
            self.session = ort.InferenceSession(
                data, _session_options(threads), providers=["CPUExecutionProvider"]
            )
        except Exception as e:  # onnxruntime raises its own exception types
            raise ModelError(f"model {self.name}: cannot be loaded by onnxruntime: {e}") from None
        self.metadata: dict[str, str] = dict(self.session.get_modelmeta().custom_metadata_map)
        if self.metadata.get("quansu.format") != MODEL_FORMAT:
            raise ModelError(
                f"model {self.name}: not a quansu policy-value model "
                f"(format {self.metadata.get('quansu.format')!r}, "
                f"expected {MODEL_FORMAT!r})"
            )
        self.game = self.metadata["quansu.game"]
        self.encoder_version = int(self.metadata["quansu.encoder_version"])
        self.encoder_fingerprint = self.metadata["quansu.encoder_fingerprint"]
        self.state_dim = int(self.metadata["quansu.state_dim"])
        self.move_dim = int(self.metadata["quansu.move_dim"])
        #: bets per unit of the raw value output: the payoff scale the model was trained with
        self.value_scale = float(self.metadata.get("quansu.value_scale", "1.0"))
        #: the factor the evaluator multiplies logits by before its softmax (:func:`prior_scale`,
        #: from ``quansu.policy_targets``: ``advantage``, ``dmc_q``, or older pipelines' values)
        self.prior_scale = prior_scale(self.metadata)

    def options(self) -> dict:
        """The rule options the model was trained with."""
        return json.loads(self.metadata.get("quansu.options", "{}"))

    def training(self) -> dict:
        """The training run's summary stored in the model."""
        return json.loads(self.metadata.get("quansu.training", "{}"))

    def check_encoder(self, encoder: Encoder) -> None:
        """Raise :class:`ModelError` unless this model was trained on ``encoder``'s layout."""
        if self.game != encoder.spec.game:
            raise ModelError(
                f"model {self.name} is for game {self.game!r}, not {encoder.spec.game!r}"
            )
        if self.encoder_version != encoder.version:
            raise ModelError(
                f"model {self.name} was trained with {self.game} encoder version "
                f"{self.encoder_version}, but the code's encoder is version {encoder.version} "
                f"(the code knows versions {_known_versions(self.game)}); "
                f"retrain it with `quansu train --game {self.game}`"
            )
        if self.encoder_fingerprint != encoder.fingerprint():
            raise ModelError(
                f"model {self.name}: encoder layout fingerprint {self.encoder_fingerprint} differs "
                f"from the code's {encoder.fingerprint()} (same version {encoder.version}: the "
                f"encoder changed without a version bump)"
            )

    def run(
        self, states: np.ndarray, moves: np.ndarray, move_state: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(logits[M], values[B, 4])`` for encoded rows (shapes in the module docstring)."""
        logits, values = self.session.run(
            None,
            {
                "states": np.ascontiguousarray(states, dtype=np.float32),
                "moves": np.ascontiguousarray(moves, dtype=np.float32),
                "move_state": np.ascontiguousarray(move_state, dtype=np.int64),
            },
        )
        return logits, values


_SESSIONS: dict = {}


def load_model(
    game: Game, path: str | os.PathLike | None = None, *, threads: int = 1
) -> PolicyValueModel:
    """Load and check the model for ``game`` (default: the shipped ``models/<game>.onnx``).

    Sessions are created once per process: the same file (path, size, mtime) and thread count
    give the same :class:`PolicyValueModel` (onnxruntime sessions are thread-safe for
    ``run``)."""
    p = Path(path or default_model_path(game.name)).resolve()
    try:
        st = p.stat()
        key = (str(p), st.st_size, st.st_mtime_ns, threads)
    except OSError:
        key = None
    model = _SESSIONS.get(key) if key else None
    if model is None:
        model = PolicyValueModel(p, threads=threads)
        if key:
            _SESSIONS[key] = model
    model.check_encoder(model_encoder(game, model))
    return model


def _known_versions(game_name: str) -> str:
    try:
        return ", ".join(str(v) for v in sorted(versions_for(game_name)))
    except EncoderError:
        return "none"


def model_encoder(game: Game, model: PolicyValueModel) -> Encoder:
    """The encoder of ``game`` at the model's encoder version when the code has that layout
    (``models.encoders.versions_for``), else the game's default one (which
    :meth:`PolicyValueModel.check_encoder` then refuses, naming both versions)."""
    if model.game == game.name:
        try:
            return encoder_for(game, model.encoder_version)
        except EncoderError:
            pass
    return encoder_for(game)


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


#: The process's cache of network answers: (evaluator tag, seat, information-state key) ->
#: (legal moves, Evaluation), least recently used first (:class:`NetworkEvaluator`).
_SHARED_CACHE: OrderedDict = OrderedDict()
_TAGS = itertools.count()


class NetworkEvaluator(Evaluator):
    """The search's :class:`~search.evaluator.Evaluator` backed by a policy-value network.

    ``evaluate(states, moves, rng)`` encodes every state from the view of its seat to act,
    runs all states' legal moves through the network in one onnxruntime call, and answers
    ``Evaluation(priors, values)``: ``priors[i]`` the softmax probability of ``moves[i]``
    (of the logits times the model's ``prior_scale``; sums to 1), ``values[s]`` the expected
    payoff in bets of absolute seat ``s`` (length ``num_players``, projected to sum to zero) as
    the seat to act estimates it from its own information.  Answers are cached by the acting
    seat's information-state key: with the default ``cache_size=None`` in the process's one
    cache, shared by every evaluator of the process (LRU of ``QUANSU_CACHE_EVALUATOR`` entries,
    20,000 by default: a server that sees many option sets holds one bounded cache, not one per
    option set); with a number, in a cache of its own of that many entries (0 disables).  (A
    search that should trust the priors more sharpens them itself:
    ``SearchConfig.prior_temperature``.)  A learned policy (``learned_policy``): its top move
    can play a seat in the improvement step's rollouts.
    """

    learned_policy = True

    def __init__(
        self, game: Game, model: PolicyValueModel | None = None, *, cache_size: int | None = None
    ):
        self.game = game
        self.model = model if model is not None else load_model(game)
        self.encoder = model_encoder(game, self.model)
        self.model.check_encoder(self.encoder)
        self.name = f"network:{game.name}"
        # None: the process's shared cache (games/caches.py: QUANSU_CACHE_EVALUATOR, 20,000)
        if cache_size is None:
            self.cache_size = caches.cache_size("evaluator")
            self._cache = _SHARED_CACHE
        else:
            self.cache_size = cache_size
            self._cache = OrderedDict()
        self._tag = next(_TAGS)  # this evaluator's part of the cache keys
        self.calls = 0
        self.hits = 0

    def evaluate(
        self,
        states: Sequence[State],
        moves: Sequence[Sequence] | None = None,
        rng=None,
        *,
        values: bool = True,
        stop=None,
    ) -> list[Evaluation]:
        """One :class:`~search.evaluator.Evaluation` per state (``moves[i]`` = the state's
        ``legal_moves()``, computed when ``moves`` is None).  ``rng`` and ``stop`` are unused:
        the network is deterministic and one call is short.  A priors-only call
        (``values=False``) for a state with one legal move answers ``[1.0]`` (its softmax)
        without running the network."""
        if moves is None:
            moves = [st.legal_moves() for st in states]
        out: list = [None] * len(states)
        todo = []
        for i, st in enumerate(states):
            seat = st.current_player
            if seat < 0:
                raise GameError("cannot evaluate a terminal state")
            legal = moves[i]
            if not values and len(legal) == 1:  # the softmax of one logit: no network needed
                out[i] = Evaluation([1.0])
                continue
            key = None
            if self.cache_size:
                key = (self._tag, seat, st.information_state_key(seat))
                hit = self._cache.get(key)
                if hit is not None and hit[0] == legal:
                    self._cache.move_to_end(key)
                    self.hits += 1
                    out[i] = hit[1]
                    continue
            todo.append((i, st, seat, legal, key))
        if todo:
            enc = self.encoder
            if len(todo) == 1:  # a search's priors: one state, no stacking (the same rows)
                _, st, seat, mv, _ = todo[0]
                srows = enc.encode_state(st, seat)[None, :]
                mrows = enc.encode_moves(st, mv)
                idx = np.zeros(len(mv), dtype=np.int64)
            else:
                srows = np.stack([enc.encode_state(st, seat) for _, st, seat, _, _ in todo])
                mrows = np.concatenate([enc.encode_moves(st, mv) for _, st, _, mv, _ in todo])
                idx = np.concatenate(
                    [np.full(len(mv), j, dtype=np.int64) for j, (_, _, _, mv, _) in enumerate(todo)]
                )
            logits, vals_rel = self.model.run(srows, mrows, idx)
            self.calls += 1
            pos = 0
            n = self.game.num_players
            for j, (i, st, seat, legal, key) in enumerate(todo):
                lg = logits[pos : pos + len(legal)].astype(np.float64) * self.model.prior_scale
                pos += len(legal)
                pri = softmax(lg).tolist()
                rel = vals_rel[j]
                vals = [0.0] * n
                for r in range(n):
                    vals[(seat + r) % n] = float(rel[r])
                mean = sum(vals) / n  # payoffs are zero-sum: project onto that plane
                ev = Evaluation(pri, [v - mean for v in vals])
                out[i] = ev
                if key is not None:
                    self._cache[key] = (list(legal), ev)
                    if len(self._cache) > self.cache_size:
                        self._cache.popitem(last=False)
        return out

    def policy_move(self, state: State):
        """The policy's top move (no search)."""
        legal = state.legal_moves()
        ev = self.evaluate([state], [legal])[0]
        return legal[int(np.argmax(ev.priors))]
