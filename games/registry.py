"""Games by name.  Each subpackage of :mod:`games` that defines ``GAME`` (a :class:`Game`
subclass) is a registered game; ``make("tienlen", 4, {...})`` builds one."""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from typing import Any, Mapping

from quansu.games.base import Game, GameError


@lru_cache(maxsize=1)
def game_classes() -> dict[str, type[Game]]:
    """Registered games: name -> class, in name order."""
    from quansu import games

    out: dict[str, type[Game]] = {}
    for info in pkgutil.iter_modules(games.__path__):
        if not info.ispkg:
            continue
        mod = importlib.import_module(f"quansu.games.{info.name}")
        cls = getattr(mod, "GAME", None)
        if cls is not None:
            out[cls.name] = cls
    return dict(sorted(out.items()))


def game_names() -> list[str]:
    return list(game_classes())


def make(name: str, num_players: int = 4, options: Mapping[str, Any] | None = None) -> Game:
    """Build a game; unknown names, player counts or options raise :class:`GameError`."""
    classes = game_classes()
    cls = classes.get(name.lower() if isinstance(name, str) else name)
    if cls is None:
        raise GameError(f"unknown game {name!r}; known games: {', '.join(classes)}")
    return cls(num_players, options)
