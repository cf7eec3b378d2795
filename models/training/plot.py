"""The training curves as a PNG chart (drawn by :mod:`quansu.plot` with matplotlib, in the
``train`` extra) and a text progress bar."""

from __future__ import annotations

import sys
import time


def line_plot_png(series: dict[str, list[float]], path: str, title: str = "") -> None:
    """Write ``series`` (name -> y values, x = the point's index) as one panel per series,
    stacked, each named and scaled to its own values, to a PNG file (:func:`quansu.plot.panels`;
    :class:`quansu.plot.PlotUnavailable` without matplotlib)."""
    from quansu.plot import panels_png

    panels_png(series, path, title=title)


class Progress:
    """A one-line text progress bar on stderr: ``Progress(total, label)``; ``update(n, info)``."""

    def __init__(self, total: float, label: str, stream=None, enabled: bool = True):
        self.total, self.label, self.done = total, label, 0.0
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.start = time.monotonic()
        self._last = 0.0

    def update(self, n: float = 1, info: str = "", force: bool = False) -> None:
        self.done += n
        now = time.monotonic()
        if not self.enabled or (not force and now - self._last < 0.5):
            return
        self._last = now
        frac = min(1.0, self.done / self.total) if self.total else 1.0
        bar = "#" * int(frac * 30)
        self.stream.write(
            f"\r{self.label} [{bar:<30}] {frac * 100:5.1f}% {now - self.start:6.0f}s {info}   "
        )
        self.stream.flush()

    def close(self, info: str = "") -> None:
        self.update(0, info, force=True)
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
