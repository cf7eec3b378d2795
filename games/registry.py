"""Games by name.  Each subpackage of :mod:`games` that defines ``GAME`` (a :class:`Game`
subclass) is a registered game; ``make("tienlen", 4, {...})`` builds one."""

from __future__ import annotations

import importlib
import pkgutil
import sys
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


def load_all() -> dict[str, type[Game]]:
    """Import every module of :mod:`games` now: each game's package and all its submodules
    (rules, heuristic, view, ...), which the games otherwise import on first use.

    A long-running process (``quansu serve``) calls this at start, so that a broken or missing
    module stops the start instead of failing requests later, and nothing is imported on the
    request path.  Returns :func:`game_classes`.  Raises :class:`ImportError` naming the module
    that cannot be imported."""
    from quansu import games

    try:
        classes = game_classes()
    except ImportError as e:  # a game's own module, imported by its class
        raise ImportError(f"cannot import {e.name or 'a game module'}: {e}", name=e.name) from e
    for info in pkgutil.walk_packages(games.__path__, prefix="quansu.games.", onerror=_walk_error):
        try:
            importlib.import_module(info.name)
        except ImportError as e:
            raise ImportError(f"cannot import {info.name}: {e}", name=info.name) from e
    return classes


def _walk_error(name: str) -> None:
    """``walk_packages`` calls this inside its ``except ImportError``: name the package."""
    cause = sys.exc_info()[1]
    raise ImportError(f"cannot import {name}: {cause}", name=name) from cause


def game_names() -> list[str]:
    return list(game_classes())


def make(name: str, num_players: int = 4, options: Mapping[str, Any] | None = None) -> Game:
    """Build a game; unknown names, player counts or options raise :class:`GameError`."""
    classes = game_classes()
    cls = classes.get(name.lower() if isinstance(name, str) else name)
    if cls is None:
        raise GameError.of("game_unknown", name=name, known=", ".join(classes))
    return cls(num_players, options)
