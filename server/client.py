"""Deprecated location of the Python client, kept for one release: the client is now
:mod:`quansu.client` (``quansu/client.py``).

    from quansu.client import Client, build_view      # the new path
    from quansu.server.client import Client, build_view  # still works, for one release

This module only re-exports :mod:`quansu.client`; it will be removed in the next release.
"""

from __future__ import annotations

from quansu.client import *  # noqa: F401,F403
from quansu.client import (  # noqa: F401
    DEFAULT_PORT,
    MAX_ATTEMPTS,
    RETRY_FALLBACK_MAX_S,
    RETRY_FALLBACK_S,
    RETRY_JITTER,
    Client,
    RecordOrView,
    ServerBusy,
    TargetError,
    as_message,
    balanced_target,
    build_view,
    diagnose,
    load,
    normalize_target,
    service_config,
    speaks_tls,
    split_targets,
)
