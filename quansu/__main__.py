"""``python -m quansu ...`` = ``quansu ...``."""

from quansu.cli import main

raise SystemExit(main())
