"""Feature encoders: a seat's information state -> one float vector, a legal move -> one float
vector (DouZero style: the network scores one ``(state, move)`` row per legal move, so
combinatorial move spaces need no fixed action index).

The encoders use only the public game interface (:mod:`games.base`): ``known_cards(seat)``,
``zone_sizes()`` (zone sizes are public in all four games), ``history`` with
``game.describe_move``, ``trump_card()`` (``deal.trump``: Tấn's face-up card, public),
``game.options`` and ``game.num_players``.  Two states that a seat cannot tell apart get the
same features.

Seats are *relative*: slot 0 is the encoded seat (normally the seat to act), slot r is the seat
``(seat + r) % num_players``; slots ``>= num_players`` are zeros.  :data:`MAX_SEATS` is 4.

State features, in order (``E.state_dim`` floats, float32):

==========================  ======  =========================================================
block                       size    content
==========================  ======  =========================================================
own hand                    52      cards of ``hand{seat}``
known opponent cards        3*52    cards ``seat`` knows are in ``hand{seat+r}``, r = 1..3
cards moved, per seat       4*52    cards of every move made by relative seat r (history)
public zones                Z*52    known cards of each of the game's other zones (per-seat
                                    zones such as Phỏm's ``discard{s}`` as 4 relative planes)
recent moves                K*(52+k+c+4)  the last K moves, newest first: cards, kind one-hot,
                                    combo one-hot, relative seat one-hot
last carded move            52+c+4+1  newest move that moved cards: cards, combo, seat,
                                    moves since it (scaled /4)
trump                       52+4    Tấn's trump card and suit (zeros in other games)
hand sizes                  4       per relative seat, /13
zone sizes                  Z       per public zone, /52
player count                3       one-hot of 2, 3, 4
move number                 1       len(history) / 100
legal moves                 3       seat is to act; a ``pass`` is legal; legal moves / 50
                                    (zeros unless ``seat`` is the seat to act: the legal
                                    moves are the acting seat's information)
options                     O       the game's options as numbers (bool 0/1, choice one-hot,
                                    numbers as given, tuples element-wise)
hand features (optional)    8       per relative seat: hand size is 1, hand size is 2
==========================  ======  =========================================================

Move features (``E.move_dim`` floats): cards (52), kind one-hot (:data:`KINDS` + other),
combo one-hot (the game's combos + other), target (52 card one-hot when the game's target is a
card, else a meld-id one-hot of 16), number of cards / 13, number of melds / 4; with
``hand_features``: holds a card of the acting seat's highest rank, empties its hand, cards
left in its hand / 13; the game's ``move_terms`` when it has them (Phỏm: its discard bot's
terms); with ``sparring_feature``: the game's sparring bot picks this move (``game.sparring_move``
with a fixed seed, from the acting seat's information); with ``heuristic_feature`` (always
last): the game's heuristic bot picks this move (``game.heuristic_move`` with a fixed seed,
which reads only the acting seat's information).

Encoders are versioned: :attr:`Encoder.version` names the layout; :meth:`Encoder.fingerprint`
is a digest of every layout fact, stored with the version in each ONNX model's metadata.
"""

from __future__ import annotations

import hashlib
import json
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from quansu.games.base import Game, GameError, SeededOnUse, State
from quansu.games.caches import cache_size

MAX_SEATS = 4
NUM_CARDS = 52

#: Move kinds of :class:`games.base.MoveInfo` (all games); unknown kinds map to the last slot.
KINDS = (
    "play",
    "pass",
    "draw",
    "eat",
    "lay",
    "send",
    "discard",
    "u",
    "swap",
    "done",
    "attack",
    "defend",
    "throw",
    "take",
    "declare",
    "decline",
)


class EncoderError(GameError):
    """A game the encoder cannot encode (wrong game, too many seats, unknown zone layout)."""


@dataclass(frozen=True)
class EncoderSpec:
    """Static facts of one game's encoder.

    ``zones``: the game's non-hand zone names encoded as card planes, in order.  ``combos``:
    combination names of ``MoveInfo.combo`` (unknown ones map to an "other" slot).
    ``target_is_card``: ``MoveInfo.target`` is a card id (Tấn defend) rather than a meld id.
    ``recent``: how many recent moves are encoded.  ``has_trump``: encode ``deal.trump``.
    ``seat_zones``: per-seat zone prefixes (``"discard"`` for ``discard0..3``), encoded as
    4 relative-seat planes each, after ``zones``.  ``hand_features``: add the hand-relative
    features (state: per relative seat, hand size is 1 / is 2; move: holds a card of the
    acting seat's highest rank, empties its hand, cards left / 13), with ranks compared by
    ``rank_strength[rank_index]``.  ``heuristic_feature``: one more move feature, 1 on the move
    the game's heuristic bot would play (so that a network can learn where to differ from it).
    ``sparring_feature``: one more move feature, before the heuristic-choice one, 1 on the move
    the game's sparring bot would play (its strongest rule-based bot: a network can learn
    where to differ from it too; it costs a ``sparring_move`` per encoded decision).
    ``skip_options``: options left out of the features
    (facts about the session rather than rules, such as a seat number).
    ``move_terms(state, moves) -> (choice, float32[m, k])``: game-specific move features
    (``k = len(move_terms_names)``, placed before the heuristic-choice column), typically the
    terms the heuristic bot weighs, read from the acting seat's information; ``choice`` is the
    heuristic bot's move when the function found it on the way (else None: the encoder asks
    ``game.heuristic_move``).
    """

    game: str
    version: int
    zones: tuple[str, ...]
    combos: tuple[str, ...] = ()
    target_is_card: bool = False
    recent: int = 4
    has_trump: bool = False
    seat_zones: tuple[str, ...] = ()
    hand_features: bool = False
    rank_strength: tuple[int, ...] = tuple(range(13))
    skip_options: tuple[str, ...] = ()
    heuristic_feature: bool = False
    sparring_feature: bool = False
    move_terms: Callable | None = None
    move_terms_names: tuple[str, ...] = ()
    extra: dict = field(default_factory=dict)


def _option_layout(game: Game, skip: tuple[str, ...] = ()) -> list[tuple[str, str, Any]]:
    """(name, kind, info) per option: kind in bool/choice/num/tuple."""
    out = []
    for s in game.option_specs:
        if s.name in skip:
            continue
        t = s.type if s.type is not object else type(s.default)
        if s.choices is not None:
            out.append((s.name, "choice", tuple(s.choices)))
        elif t is bool:
            out.append((s.name, "bool", None))
        elif t is tuple:
            out.append((s.name, "tuple", len(s.default)))
        elif t in (int, float):
            out.append((s.name, "num", None))
        else:  # free strings cannot be encoded as numbers: leave them out
            continue
    return out


def _option_vector(layout, options: dict) -> list[float]:
    vec: list[float] = []
    for name, kind, info in layout:
        v = options[name]
        if kind == "bool":
            vec.append(1.0 if v else 0.0)
        elif kind == "choice":
            vec.extend(1.0 if v == c else 0.0 for c in info)
        elif kind == "tuple":
            vec.extend(float(x) for x in v)
        else:
            vec.append(float(v))
    return vec


def masks_to_bits(masks: Sequence[int]) -> np.ndarray:
    """Card masks -> ``(len(masks), 52)`` float32 array of 0/1 (bit c = card c)."""
    arr = np.asarray(masks, dtype=np.uint64)
    bits = np.unpackbits(arr.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    return bits[:, :NUM_CARDS].astype(np.float32)


#: Every live encoder, and how many move descriptions they have cached together since the last
#: emptying: the ``encoder_moves`` bound (games/caches.py) is on the process's total, however
#: many games, player counts and option sets it has encoded.
_ENCODERS: "weakref.WeakSet[Encoder]" = weakref.WeakSet()
_described = 0


class Encoder:
    """State and move features for one game at one player count with fixed options.

    ``encode_state(state, seat) -> float32[state_dim]``;
    ``encode_moves(state, moves) -> float32[len(moves), move_dim]``.
    """

    def __init__(self, spec: EncoderSpec, game: Game):
        if game.name != spec.game:
            raise EncoderError(f"encoder for {spec.game!r} cannot encode game {game.name!r}")
        if game.num_players > MAX_SEATS:
            raise EncoderError(
                f"encoders support at most {MAX_SEATS} seats, got {game.num_players}"
            )
        self.spec = spec
        self.game = game
        self.n = game.num_players
        self.version = spec.version
        self._opt_layout = _option_layout(game, spec.skip_options)
        self._opt_vec = _option_vector(self._opt_layout, game.options)
        self._kind_index = {k: i for i, k in enumerate(KINDS)}
        self._combo_index = {c: i for i, c in enumerate(spec.combos)}
        self._nk = len(KINDS) + 1
        self._nc = len(spec.combos) + 1
        self._ntarget = NUM_CARDS if spec.target_is_card else 16
        # move -> (mask, kind index, combo index, target, n cards, n melds)
        self._desc: dict = {}
        self._mask: dict = {}  # move -> card mask (hot path of encode_state)
        #: (a history, the cards each seat moved in it): see :meth:`_moved`
        self._moved_prefix: tuple | None = None
        _ENCODERS.add(self)
        z = len(spec.zones) + MAX_SEATS * len(spec.seat_zones)
        self._zone_names = list(spec.zones)
        self._n_masks = 1 + 3 + 4 + z
        rec = 52 + self._nk + self._nc + 4
        self.state_dim = (
            52 * self._n_masks
            + spec.recent * rec
            + (52 + self._nc + 4 + 1)
            + (52 + 4)
            + 4
            + z
            + 3
            + 1
            + 3
            + len(self._opt_vec)
            + (8 if spec.hand_features else 0)
        )
        self.move_dim = (
            52
            + self._nk
            + self._nc
            + self._ntarget
            + 2
            + (3 if spec.hand_features else 0)
            + len(spec.move_terms_names)
            + (1 if spec.sparring_feature else 0)
            + (1 if spec.heuristic_feature else 0)
        )
        # rank strength -> mask of the cards of that rank, strongest first (hand features)
        order = sorted(range(13), key=lambda r: -spec.rank_strength[r])
        self._ranks_desc = [0xF << (4 * r) for r in order]
        # per encoded seat: zone names of the relative seats, built once (hot path)
        n = self.n
        self._seat_keys = [
            (
                [f"hand{(seat + r) % n}" if r < n else None for r in range(MAX_SEATS)],
                [
                    f"{prefix}{(seat + r) % n}" if r < n else None
                    for prefix in spec.seat_zones
                    for r in range(MAX_SEATS)
                ],
            )
            for seat in range(n)
        ]

    # -- layout --------------------------------------------------------------------------
    def layout(self) -> dict:
        """Every layout fact (JSON-able); :meth:`fingerprint` digests it."""
        extra = {}
        if self.spec.hand_features:  # keys added only when used: older layouts keep their digest
            extra = {"hand_features": True, "rank_strength": list(self.spec.rank_strength)}
        if self.spec.skip_options:
            extra["skip_options"] = list(self.spec.skip_options)
        if self.spec.heuristic_feature:
            extra["heuristic_feature"] = True
        if self.spec.move_terms_names:
            extra["move_terms"] = list(self.spec.move_terms_names)
        if self.spec.sparring_feature:
            extra["sparring_feature"] = True
        return {
            **extra,
            "game": self.spec.game,
            "version": self.spec.version,
            "zones": list(self.spec.zones),
            "seat_zones": list(self.spec.seat_zones),
            "has_trump": self.spec.has_trump,
            "combos": list(self.spec.combos),
            "kinds": list(KINDS),
            "target_is_card": self.spec.target_is_card,
            "recent": self.spec.recent,
            "options": [
                [n, k, list(i) if isinstance(i, tuple) else i] for n, k, i in self._opt_layout
            ],
            "state_dim": self.state_dim,
            "move_dim": self.move_dim,
        }

    def fingerprint(self) -> str:
        """Short digest of :meth:`layout` (16 hex digits)."""
        text = json.dumps(self.layout(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    # -- moves ---------------------------------------------------------------------------
    def _describe(self, move):
        d = self._desc.get(move)
        if d is None:
            info = self.game.describe_move(move)
            mask = 0
            for c in info.cards:
                mask |= 1 << c
            for meld in info.melds:
                for c in meld:
                    mask |= 1 << c
            d = (
                mask,
                self._kind_index.get(info.kind, len(KINDS)),
                self._combo_index.get(info.combo, len(self.spec.combos))
                if info.combo is not None
                else -1,
                info.target,
                mask.bit_count(),
                len(info.melds),
            )
            global _described
            if _described >= cache_size("encoder_moves"):
                # the bound is on the process's total: every encoder's descriptions go
                for enc in list(_ENCODERS):
                    enc._desc.clear()
                    enc._mask.clear()
                _described = 0
            _described += 1
            self._desc[move] = d
            self._mask[move] = mask
        return d

    def encode_moves(self, state: State, moves: Sequence) -> np.ndarray:
        """``float32[len(moves), move_dim]`` features of ``moves`` (legal in ``state``)."""
        m = len(moves)
        out = np.zeros((m, self.move_dim), dtype=np.float32)
        if m == 0:
            return out
        descs = [self._describe(mv) for mv in moves]
        out[:, :52] = masks_to_bits([d[0] for d in descs])
        rows = np.arange(m)
        off = 52
        out[rows, off + np.fromiter((d[1] for d in descs), np.int64, m)] = 1.0
        off += self._nk
        for i, d in enumerate(descs):
            if d[2] >= 0:
                out[i, off + d[2]] = 1.0
            t = d[3]
            if t is not None and 0 <= t < self._ntarget:
                out[i, off + self._nc + t] = 1.0
        off += self._nc + self._ntarget
        out[:, off] = np.fromiter((d[4] for d in descs), np.float32, m) / 13.0
        out[:, off + 1] = np.fromiter((d[5] for d in descs), np.float32, m) / 4.0
        if self.spec.hand_features:
            seat = state.current_player
            hand = state.known_cards(seat).get(f"hand{seat}", 0) if seat >= 0 else 0
            top = 0
            for rm in self._ranks_desc:
                if hand & rm:
                    top = hand & rm
                    break
            for i, d in enumerate(descs):
                mask = d[0]
                left = (hand & ~mask).bit_count()
                out[i, off + 2] = 1.0 if mask & top else 0.0
                out[i, off + 3] = 1.0 if (hand and mask and left == 0) else 0.0
                out[i, off + 4] = left / 13.0
        choice = None
        heur = 1 if self.spec.heuristic_feature else 0
        spar = 1 if self.spec.sparring_feature else 0
        if self.spec.move_terms_names:
            k = len(self.spec.move_terms_names)
            col = self.move_dim - k - spar - heur
            choice, terms = self.spec.move_terms(state, moves)
            out[:, col : col + k] = terms
        if spar:
            self._flag(out, state, moves, self.move_dim - 1 - heur, None, self.game.sparring_move)
        if heur:
            self._flag(out, state, moves, self.move_dim - 1, choice, self.game.heuristic_move)
        return out

    @staticmethod
    def _flag(out: np.ndarray, state: State, moves: Sequence, col: int, choice, bot) -> None:
        """Set ``out[i, col]`` to 1 on the move ``choice`` (``bot(state, SeededOnUse(0))``
        when None) among ``moves``; a single legal move is every bot's choice."""
        if len(moves) == 1:
            out[0, col] = 1.0
            return
        if state.current_player < 0:
            return
        if choice is None:
            choice = bot(state, SeededOnUse(0))
        for i, mv in enumerate(moves):
            if mv == choice:
                out[i, col] = 1.0
                break

    # -- states --------------------------------------------------------------------------
    def _moved(self, hist) -> list:
        """The card mask of every move made by each (absolute) seat in the history ``hist``.

        The masks of the last history counted from its start are kept with a copy of it: a
        history that begins with that one (every state of a search begins with its root's
        history) is counted from there.  The comparison finds the same move tuples as the same
        objects (the states' histories are copies of one list), so it costs little."""
        pre = self._moved_prefix
        start = 0
        if pre is not None:
            seen = pre[0]
            k = len(seen)
            if k <= len(hist) and hist[:k] == seen:
                moved = list(pre[1])
                start = k
        if not start:
            moved = [0] * self.n
        mask_of = self._mask
        for i in range(start, len(hist)):
            s, mv = hist[i]
            m = mask_of.get(mv)
            if m is None:
                m = self._describe(mv)[0]
            moved[s] |= m
        if not start:
            self._moved_prefix = (hist[:], list(moved))
        return moved

    def encode_state(self, state: State, seat: int) -> np.ndarray:
        """``float32[state_dim]`` features of ``state`` as ``seat`` knows it."""
        n = self.n
        spec = self.spec
        known = state.known_cards(seat)
        zones = state.zone_sizes()
        hand_keys, seat_zone_keys = self._seat_keys[seat]
        get = known.get
        masks = [get(k, 0) if k else 0 for k in hand_keys]
        hist = state.history
        moved = self._moved(hist)
        for r in range(MAX_SEATS):
            masks.append(moved[(seat + r) % n] if r < n else 0)
        for z in spec.zones:
            masks.append(get(z, 0))
        for k in seat_zone_keys:
            masks.append(get(k, 0) if k else 0)
        recent_cards = []
        nk, nc = self._nk, self._nc
        rec_block = nk + nc + 4
        rec = [0.0] * (spec.recent * rec_block)
        h = len(hist)
        for i in range(spec.recent):
            if i < h:
                s, mv = hist[h - 1 - i]
                d = self._describe(mv)
                recent_cards.append(d[0])
                base = i * rec_block
                rec[base + d[1]] = 1.0
                if d[2] >= 0:
                    rec[base + nk + d[2]] = 1.0
                rec[base + nk + nc + (s - seat) % n] = 1.0
            else:
                recent_cards.append(0)
        masks.extend(recent_cards)
        last = [0.0] * (nc + 4 + 1)
        last_mask = 0
        for i in range(h - 1, -1, -1):
            s, mv = hist[i]
            d = self._describe(mv)
            if d[0]:
                last_mask = d[0]
                if d[2] >= 0:
                    last[d[2]] = 1.0
                last[nc + (s - seat) % n] = 1.0
                last[nc + 4] = (h - 1 - i) / 4.0
                break
        masks.append(last_mask)
        trump = state.trump_card() if spec.has_trump else None
        masks.append(1 << trump if trump is not None else 0)
        bits = masks_to_bits(masks)
        tsuit = [0.0] * 4
        if trump is not None:
            tsuit[trump & 3] = 1.0
        zget = zones.get
        sizes = [zget(k, 0) / 13.0 if k else 0.0 for k in hand_keys]
        zsizes = [zget(z, 0) / 52.0 for z in spec.zones]
        for k in seat_zone_keys:
            zsizes.append(zget(k, 0) / 52.0 if k else 0.0)
        pc = [0.0, 0.0, 0.0]
        pc[n - 2] = 1.0
        nb = self._n_masks
        k = spec.recent
        parts = [bits[:nb].ravel()]
        rec_arr = np.asarray(rec, dtype=np.float32).reshape(k, rec_block)
        parts.append(np.concatenate([bits[nb : nb + k], rec_arr], axis=1).ravel())
        parts.append(bits[nb + k])
        parts.append(np.asarray(last, dtype=np.float32))
        parts.append(bits[nb + k + 1])
        lg = [0.0, 0.0, 0.0]
        if state.current_player == seat:
            legal = state.legal_moves()
            lg[0] = 1.0
            lg[2] = min(len(legal), 100) / 50.0
            for mv in legal:
                if self._describe(mv)[1] == 1:  # KINDS[1] == "pass"
                    lg[1] = 1.0
                    break
        hf = []
        if spec.hand_features:
            for r in range(MAX_SEATS):
                k = round(sizes[r] * 13) if r < n else -1
                hf += [1.0 if k == 1 else 0.0, 1.0 if k == 2 else 0.0]
        parts.append(
            np.asarray(
                tsuit + sizes + zsizes + pc + [h / 100.0] + lg + self._opt_vec + hf,
                dtype=np.float32,
            )
        )
        out = np.concatenate(parts)
        return out
