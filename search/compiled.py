"""Which build of the hot paths is in use: the compiled core or pure Python.

The modules of :data:`CORE` (card-mask move generation, apply, determinize, the playout
policies, the search loop, the network's features and evaluator) are plain Python files.  ``pip install .`` compiles them with Cython
when Cython (>= 3) and a C compiler are available (``setup.py``; the same files, unchanged, in
Cython's pure-Python mode) and installs the pure-Python package otherwise; an editable install is
always pure Python.  Both builds give identical results (tests/search/test_compiled_core.py).

``python -m quansu.search.compiled`` prints :func:`describe`.  This module imports nothing of
ours at import time (``setup.py`` reads :data:`CORE` from it before anything is installed).
"""

from __future__ import annotations

import importlib
import importlib.machinery

#: The compiled core: module name -> source file (relative to the checkout).
CORE: dict[str, str] = {
    "quansu.games.cards": "games/cards.py",
    "quansu.games.caches": "games/caches.py",
    "quansu.games.tienlen.rules": "games/tienlen/rules.py",
    "quansu.games.tienlen.state": "games/tienlen/state.py",
    "quansu.games.tienlen.game": "games/tienlen/game.py",
    "quansu.games.tienlen.heuristic": "games/tienlen/heuristic.py",
    "quansu.games.samloc.rules": "games/samloc/rules.py",
    "quansu.games.samloc.state": "games/samloc/state.py",
    "quansu.games.samloc.game": "games/samloc/game.py",
    "quansu.games.samloc.heuristic": "games/samloc/heuristic.py",
    "quansu.games.phom.rules": "games/phom/rules.py",
    "quansu.games.phom.state": "games/phom/state.py",
    "quansu.games.phom.game": "games/phom/game.py",
    "quansu.games.phom.view": "games/phom/view.py",
    "quansu.games.phom.settle": "games/phom/settle.py",
    "quansu.games.phom.heuristic": "games/phom/heuristic.py",
    "quansu.games.tan.rules": "games/tan/rules.py",
    "quansu.games.tan.state": "games/tan/state.py",
    "quansu.games.tan.game": "games/tan/game.py",
    "quansu.games.tan.heuristic": "games/tan/heuristic.py",
    "quansu.search.evaluator": "search/evaluator.py",
    "quansu.search.ismcts": "search/ismcts.py",
    "quansu.models.encoders.base": "models/encoders/base.py",
    "quansu.models.evaluator": "models/evaluator.py",
    "quansu.games.tienlen.sparring": "games/tienlen/sparring.py",
    "quansu.games.samloc.sparring": "games/samloc/sparring.py",
    "quansu.games.phom.sparring": "games/phom/sparring.py",
    "quansu.games.tan.sparring": "games/tan/sparring.py",
}

_EXTENSION = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def compiled_modules() -> list[str]:
    """The modules of :data:`CORE` that load as compiled extensions (importing them)."""
    out = []
    for name in CORE:
        origin = getattr(importlib.import_module(name), "__file__", "") or ""
        if origin.endswith(_EXTENSION):
            out.append(name)
    return out


def build() -> str:
    """``"compiled"`` (every module of the core is an extension), ``"pure Python"`` (none is)
    or ``"mixed"``."""
    n = len(compiled_modules())
    return "compiled" if n == len(CORE) else ("pure Python" if n == 0 else "mixed")


def _root() -> str:
    """The folder whose subfolders are ``games/``, ``search/``, ...: ``quansu/`` installed, the
    checkout in an editable install (both lay the core out as :data:`CORE`'s paths)."""
    import os

    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def compiled_files() -> int:
    """How many modules of :data:`CORE` have an extension file beside their source, loadable by
    this interpreter (its suffixes), which Python imports in preference to the ``.py`` file.
    Imports nothing: cheap enough for ``quansu --version``."""
    import os

    root = _root()
    n = 0
    for src in CORE.values():
        stem = os.path.join(root, src[:-3] if src.endswith(".py") else src)
        if any(os.path.isfile(stem + suffix) for suffix in _EXTENSION):
            n += 1
    return n


def version_label() -> str:
    """The build in words for ``quansu --version``: ``compiled core``, ``pure Python`` or
    ``mixed core: N of M modules compiled``."""
    n = compiled_files()
    if n == len(CORE):
        return "compiled core"
    return "pure Python" if n == 0 else f"mixed core: {n} of {len(CORE)} modules compiled"


def describe() -> str:
    """One line: which build is in use, e.g. ``core: compiled (21 of 21 modules, Cython)``."""
    n = len(compiled_modules())
    if not n:
        return "core: pure Python"
    return f"core: {'compiled' if n == len(CORE) else 'mixed'} ({n} of {len(CORE)} modules, Cython)"


if __name__ == "__main__":  # pragma: no cover - a command
    print(describe())
