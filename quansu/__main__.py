"""``python -m quansu ...`` = ``quansu ...``."""

from quansu.server.cli import main

raise SystemExit(main())
