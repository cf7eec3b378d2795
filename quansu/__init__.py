"""quansu (quân sư, "the strategist"): AI opponent and hint service for Vietnamese card games.

The one import package of the project.  Its subpackages live in the repository's top-level
folders (``games/``, ``search/``, ``models/``, ``server/``, ``bench/``; ``proto/`` ships the API's
``.proto`` files as data) and are installed as ``quansu.games``, ``quansu.search``,
``quansu.models``, ``quansu.server`` and ``quansu.bench`` (see ``pyproject.toml``).  This folder
itself holds the command line (``quansu.cli``), the Python client (``quansu.client``), the
analysis report (``quansu.report``) and the charts (``quansu.plot``).
"""

from __future__ import annotations

import os as _os
from importlib import metadata as _metadata

try:
    __version__ = _metadata.version("quansu")
except _metadata.PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
    __version__ = "0+unknown"

#: The API package (protobuf ``quansu.v1``).
API_VERSION = "v1"


def _subpackages_of_a_checkout() -> list[str] | None:
    """Where this package's subpackages are when this file was imported from a checkout's
    ``quansu/`` folder (Python puts the current folder first on ``sys.path``, so ``python -m
    quansu`` or ``import quansu`` at the repository root finds that folder before the installed
    package, and the folder holds none of the top-level folders' subpackages): the installed
    package's folder when a regular install exists (``pip install .``: its compiled core,
    exactly what runs from any other folder), else this folder and the repository root (an
    editable install, or none), where ``pyproject.toml`` maps the top-level folders to them.
    None when imported as installed."""
    here = _os.path.dirname(_os.path.abspath(__file__))
    root = _os.path.dirname(here)
    if _os.path.isdir(_os.path.join(here, "server")) or not (
        _os.path.isfile(_os.path.join(root, "pyproject.toml"))
        and _os.path.isfile(_os.path.join(root, "server", "__init__.py"))
    ):
        return None
    for dist in _metadata.distributions(name="quansu"):  # the checkout's own egg-info too
        installed = _os.path.abspath(str(dist.locate_file("quansu")))
        if installed != here and _os.path.isfile(_os.path.join(installed, "server", "__init__.py")):
            return [installed]
    return [here, root]


_checkout = _subpackages_of_a_checkout()
if _checkout is not None:
    __path__[:] = _checkout  # type: ignore[name-defined]  # noqa: F821 (a package's __path__)
del _checkout
