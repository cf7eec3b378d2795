"""Per-game feature encoders (versioned).  ``encoder_for(game)`` gives the encoder of a game.

Each game's module (``models/encoders/<game>.py``) defines ``SPEC`` (an
:class:`~models.encoders.base.EncoderSpec`, the layout of the shipped network); bump its
``version`` whenever the features change.  A module may also define ``SPECS`` (version -> spec):
other layouts that training can use (``quansu train --encoder-version N``) and the evaluator
loads a model of, by the version in its metadata.
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


def _module(game_name: str):
    mod = ENCODER_MODULES.get(game_name)
    if mod is None:
        raise EncoderError(
            f"no encoder for game {game_name!r}; known: {', '.join(ENCODER_MODULES)}"
        )
    return importlib.import_module(mod)


def versions_for(game_name: str) -> dict[int, EncoderSpec]:
    """Every encoder layout of a game: version -> spec (the default ``SPEC`` and ``SPECS``)."""
    if game_name in _registered:
        spec = _registered[game_name]
        return {spec.version: spec}
    m = _module(game_name)
    return {**getattr(m, "SPECS", {}), m.SPEC.version: m.SPEC}


def spec_for(game_name: str, version: int | None = None) -> EncoderSpec:
    """The encoder spec of a game: its default (``version`` None) or the one of ``version``
    (:class:`EncoderError` naming the known versions when the game has no such layout)."""
    if version is None:
        if game_name in _registered:
            return _registered[game_name]
        return _module(game_name).SPEC
    specs = versions_for(game_name)
    if version not in specs:
        known = ", ".join(str(v) for v in sorted(specs))
        raise EncoderError(f"{game_name} has no encoder version {version}; known: {known}")
    return specs[version]


def encoder_for(game: Game, version: int | None = None) -> Encoder:
    """The encoder of ``game`` (one per game, player count, options and version; cached);
    ``version`` None: the game's default layout."""
    spec = spec_for(game.name, version)
    key = (
        game.name,
        spec.version,
        game.num_players,
        tuple(sorted(game.options.items(), key=lambda kv: kv[0])),
    )
    try:
        enc = _cache.get(key)
    except TypeError:  # unhashable option value
        return Encoder(spec, game)
    if enc is None:
        enc = _cache[key] = Encoder(spec, game)
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
    "versions_for",
]
