"""A dependency-free PNG line plot (numpy + zlib) for training curves, and a text progress bar."""

from __future__ import annotations

import struct
import sys
import time
import zlib

import numpy as np

_COLORS = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189)]

# 3x5 pixel digits for axis labels
_DIGITS = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111",
    "3": "111001111001111", "4": "101101111001001", "5": "111100111001111",
    "6": "111100111101111", "7": "111001001001001", "8": "111101111101111",
    "9": "111101111001111", ".": "000000000000010", "-": "000000111000000",
}


def _text(img, x, y, s, color=(0, 0, 0), scale=2):
    for ch in s:
        pat = _DIGITS.get(ch)
        if pat is not None:
            for i, bit in enumerate(pat):
                if bit == "1":
                    r, c = divmod(i, 3)
                    img[y + r * scale:y + (r + 1) * scale, x + c * scale:x + (c + 1) * scale] = color
        x += 4 * scale


def _line(img, x0, y0, x1, y1, color):
    n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
    xs = np.linspace(x0, x1, n).round().astype(int)
    ys = np.linspace(y0, y1, n).round().astype(int)
    h, w, _ = img.shape
    ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    for dy in (0, 1):
        img[np.clip(ys[ok] + dy, 0, h - 1), xs[ok]] = color


def line_plot_png(series: dict[str, list[float]], path: str, width: int = 640,
                  height: int = 360) -> None:
    """Write ``series`` (name -> y values, x = index) as one panel per series, stacked, to a
    PNG file.  Each panel is scaled to its own min/max, which are printed at its left."""
    names = [k for k, v in series.items() if len(v) > 0]
    panels = max(1, len(names))
    ph = height // panels
    img = np.full((ph * panels, width, 3), 255, dtype=np.uint8)
    left, pad = 60, 8
    for p, name in enumerate(names):
        ys = np.asarray(series[name], dtype=np.float64)
        top = p * ph + pad
        bottom = (p + 1) * ph - pad
        img[bottom, left:width - pad] = (0, 0, 0)
        img[top:bottom, left] = (0, 0, 0)
        lo, hi = float(ys.min()), float(ys.max())
        if hi - lo < 1e-12:
            hi = lo + 1.0
        _text(img, 2, top, f"{hi:.3g}"[:7])
        _text(img, 2, bottom - 12, f"{lo:.3g}"[:7])
        color = _COLORS[p % len(_COLORS)]
        img[top:top + 6, width - 30:width - 10] = color  # legend swatch (name in the caption)
        n = len(ys)
        xs = left + (np.arange(n) / max(1, n - 1)) * (width - pad - left - 1)
        yy = bottom - (ys - lo) / (hi - lo) * (bottom - top - 1)
        for i in range(n - 1):
            _line(img, xs[i], yy[i], xs[i + 1], yy[i + 1], color)
        if n == 1:
            _line(img, xs[0], yy[0], xs[0] + 2, yy[0], color)
    raw = b"".join(b"\x00" + img[r].tobytes() for r in range(img.shape[0]))

    def chunk(tag, data):
        c = struct.pack(">I", len(data)) + tag + data
        return c + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    png = (b"\x89PNG\r\n\x1a\n"
           + chunk(b"IHDR", struct.pack(">IIBBBBB", img.shape[1], img.shape[0], 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(png)


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
        self.stream.write(f"\r{self.label} [{bar:<30}] {frac * 100:5.1f}% "
                          f"{now - self.start:6.0f}s {info}   ")
        self.stream.flush()

    def close(self, info: str = "") -> None:
        self.update(0, info, force=True)
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
