"""quansu (quân sư, "the strategist"): AI opponent and hint service for Vietnamese card games.

The one import package of the project.  Its subpackages live in the repository's top-level
folders (``games/``, ``search/``, ``models/``, ``server/``, ``bench/``; ``proto/`` ships the API's
``.proto`` files as data) and are installed as ``quansu.games``, ``quansu.search``,
``quansu.models``, ``quansu.server`` and ``quansu.bench`` (see ``pyproject.toml``).
"""

from __future__ import annotations

from importlib import metadata as _metadata

try:
    __version__ = _metadata.version("quansu")
except _metadata.PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
    __version__ = "0+unknown"

#: The API package (protobuf ``quansu.v1``).
API_VERSION = "v1"
