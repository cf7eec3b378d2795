"""Regenerate the README's pictures in docs/screenshots/.

The web page's screenshots come from the browser tests (tests/service/test_web_browser.py, which save
them where ``$QUANSU_SCREENSHOTS`` points): a whole game of each of the four games, one at a
390 px phone width, and an analysis of the four seats.  The analysis plot comes from the CLI
(``quansu analyze RECORD --plot``, the ``plot`` extra).  Needs the dev extra, Debian's
``chromium`` and matplotlib.  Usage, at the repository's root::

    python scripts/readme_images.py

The pictures differ from run to run only where the page's timing differs (the time left, how
far an analysis had come): the games, moves and marks are seeded.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
#: The example game whose analysis the plot shows, and its cap of sampled deals per decision.
PLOT_RECORD = ROOT / "docs" / "examples" / "tienlen.record.json"
PLOT_WORLDS = 64


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, QUANSU_SCREENSHOTS=str(OUT))
    tests = [
        "tests/service/test_web_browser.py::test_a_whole_game_of_each_game",
        "tests/service/test_web_browser.py::test_an_analysis_shows_its_progress_and_cancel_stops_it",
    ]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", *tests], cwd=ROOT, env=env
    )
    if done.returncode:
        return done.returncode
    plot = OUT / "analysis-plot.png"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "quansu",
            "analyze",
            str(PLOT_RECORD),
            "--worlds",
            str(PLOT_WORLDS),
            "--plot",
            str(plot),
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    if done.returncode:
        return done.returncode
    for p in sorted(OUT.glob("*.png")):
        print(f"{p.relative_to(ROOT)}  {p.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
