"""Per-game feature encoders (versioned).  ``encoder_for(game)`` gives the encoder of a game.

Each game's module (``models/encoders/<game>.py``) defines ``SPEC`` (an
:class:`~models.encoders.base.EncoderSpec`); bump its ``version`` whenever the features change.
"""

from __future__ import annotations

import importlib
from collections import OrderedDict

from quansu.games.base import Game
from quansu.models.encoders.base import (
    KINDS,
    MAX_SEATS,
    Encoder,
    EncoderError,
    EncoderSpec,
    masks_to_bits,
)

#: game name -> module holding its SPEC
ENCODER_MODULES = {
    "tienlen": "quansu.models.encoders.tienlen",
    "samloc": "quansu.models.encoders.samloc",
    "phom": "quansu.models.encoders.phom",
    "tan": "quansu.models.encoders.tan",
}

#: (game, players, options) -> its encoder, least recently used first; at most
#: :data:`MAX_ENCODERS` (a server that sees many option sets keeps the latest ones).
_cache: OrderedDict = OrderedDict()
MAX_ENCODERS = 32
_registered: dict[str, EncoderSpec] = {}


def register_spec(spec: EncoderSpec) -> None:
    """Register the encoder spec of a game outside the four shipped ones (tests, new games)."""
    _registered[spec.game] = spec


def spec_for(game_name: str) -> EncoderSpec:
    if game_name in _registered:
        return _registered[game_name]
    mod = ENCODER_MODULES.get(game_name)
    if mod is None:
        raise EncoderError(
            f"no encoder for game {game_name!r}; known: {', '.join(ENCODER_MODULES)}"
        )
    return importlib.import_module(mod).SPEC


def encoder_for(game: Game) -> Encoder:
    """The encoder of ``game`` (one per game, player count and options; cached)."""
    key = (game.name, game.num_players, tuple(sorted(game.options.items(), key=lambda kv: kv[0])))
    try:
        enc = _cache.get(key)
    except TypeError:  # unhashable option value
        return Encoder(spec_for(game.name), game)
    if enc is None:
        enc = _cache[key] = Encoder(spec_for(game.name), game)
        if len(_cache) > MAX_ENCODERS:
            _cache.popitem(last=False)
    else:
        _cache.move_to_end(key)
    return enc


__all__ = [
    "KINDS",
    "MAX_SEATS",
    "Encoder",
    "EncoderError",
    "EncoderSpec",
    "encoder_for",
    "masks_to_bits",
    "register_spec",
    "spec_for",
]
