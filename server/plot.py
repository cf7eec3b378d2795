"""A labelled PNG line chart drawn with numpy alone (the serving dependencies): title, axis
names and tick numbers, a legend, one line per series and marked points.

Text uses a built-in 5x7 pixel font (ASCII); other letters are written without their accents
(Vietnamese ``"Thiệt hại"`` becomes ``"Thiet hai"``), since the font has no diacritics.
"""

from __future__ import annotations

import math
import struct
import unicodedata
import zlib
from dataclasses import dataclass, field

import numpy as np

# 5x7 glyphs: seven rows of five bits, most significant bit on the left
_FONT: dict[str, tuple[int, ...]] = {
    " ": (0, 0, 0, 0, 0, 0, 0),
    "A": (0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11), "B": (0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E),
    "C": (0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E), "D": (0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C),
    "E": (0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F), "F": (0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10),
    "G": (0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F), "H": (0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11),
    "I": (0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E), "J": (0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C),
    "K": (0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11), "L": (0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F),
    "M": (0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11), "N": (0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11),
    "O": (0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E), "P": (0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10),
    "Q": (0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D), "R": (0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11),
    "S": (0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E), "T": (0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04),
    "U": (0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E), "V": (0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04),
    "W": (0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A), "X": (0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11),
    "Y": (0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04), "Z": (0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F),
    "a": (0, 0, 0x0E, 0x01, 0x0F, 0x11, 0x0F), "b": (0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x1E),
    "c": (0, 0, 0x0E, 0x10, 0x10, 0x11, 0x0E), "d": (0x01, 0x01, 0x0D, 0x13, 0x11, 0x11, 0x0F),
    "e": (0, 0, 0x0E, 0x11, 0x1F, 0x10, 0x0E), "f": (0x06, 0x09, 0x08, 0x1C, 0x08, 0x08, 0x08),
    "g": (0, 0x0F, 0x11, 0x11, 0x0F, 0x01, 0x0E), "h": (0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x11),
    "i": (0x04, 0, 0x0C, 0x04, 0x04, 0x04, 0x0E), "j": (0x02, 0, 0x06, 0x02, 0x02, 0x12, 0x0C),
    "k": (0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12), "l": (0x0C, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E),
    "m": (0, 0, 0x1A, 0x15, 0x15, 0x11, 0x11), "n": (0, 0, 0x16, 0x19, 0x11, 0x11, 0x11),
    "o": (0, 0, 0x0E, 0x11, 0x11, 0x11, 0x0E), "p": (0, 0, 0x1E, 0x11, 0x1E, 0x10, 0x10),
    "q": (0, 0, 0x0D, 0x13, 0x0F, 0x01, 0x01), "r": (0, 0, 0x16, 0x19, 0x10, 0x10, 0x10),
    "s": (0, 0, 0x0E, 0x10, 0x0E, 0x01, 0x1E), "t": (0x08, 0x08, 0x1C, 0x08, 0x08, 0x09, 0x06),
    "u": (0, 0, 0x11, 0x11, 0x11, 0x13, 0x0D), "v": (0, 0, 0x11, 0x11, 0x11, 0x0A, 0x04),
    "w": (0, 0, 0x11, 0x11, 0x15, 0x15, 0x0A), "x": (0, 0, 0x11, 0x0A, 0x04, 0x0A, 0x11),
    "y": (0, 0, 0x11, 0x11, 0x0F, 0x01, 0x0E), "z": (0, 0, 0x1F, 0x02, 0x04, 0x08, 0x1F),
    "0": (0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E), "1": (0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E),
    "2": (0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F), "3": (0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E),
    "4": (0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02), "5": (0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E),
    "6": (0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E), "7": (0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08),
    "8": (0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E), "9": (0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C),
    ".": (0, 0, 0, 0, 0, 0x0C, 0x0C), ",": (0, 0, 0, 0, 0x0C, 0x04, 0x08),
    ":": (0, 0x0C, 0x0C, 0, 0x0C, 0x0C, 0), "-": (0, 0, 0, 0x1F, 0, 0, 0),
    "+": (0, 0x04, 0x04, 0x1F, 0x04, 0x04, 0), "(": (0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02),
    ")": (0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08), "/": (0, 0x01, 0x02, 0x04, 0x08, 0x10, 0),
    "%": (0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03), "=": (0, 0, 0x1F, 0, 0x1F, 0, 0),
    "_": (0, 0, 0, 0, 0, 0, 0x1F), "'": (0x0C, 0x04, 0x08, 0, 0, 0, 0),
    "[": (0x0E, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0E), "]": (0x0E, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0E),
    "#": (0x0A, 0x0A, 0x1F, 0x0A, 0x1F, 0x0A, 0x0A), "?": (0x0E, 0x11, 0x01, 0x02, 0x04, 0, 0x04),
    "<": (0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02), ">": (0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08),
}

#: Line colours of the series (seat 0, 1, 2, 3, ...).
COLORS = [(31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189), (255, 127, 14),
          (23, 190, 207)]


def ascii_text(text: str) -> str:
    """``text`` in the font's letters: accents dropped (``đ`` -> ``d``), others -> ``?``."""
    text = text.replace("đ", "d").replace("Đ", "D")
    plain = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return "".join(c if c in _FONT else "?" for c in plain)


def text_width(text: str, scale: int = 1) -> int:
    return len(ascii_text(text)) * 6 * scale


def _bitmap(text: str, scale: int) -> np.ndarray:
    """``text`` as a boolean array (7 * scale rows, 6 * scale per letter)."""
    chars = ascii_text(text)
    out = np.zeros((7, 6 * max(1, len(chars))), dtype=bool)
    for i, ch in enumerate(chars):
        for r, bits in enumerate(_FONT[ch]):
            for c in range(5):
                out[r, 6 * i + c] = bool(bits >> (4 - c) & 1)
    return np.kron(out, np.ones((scale, scale), dtype=bool)) if scale > 1 else out


def draw_text(img: np.ndarray, x: int, y: int, text: str, color=(0, 0, 0), scale: int = 1,
              vertical: bool = False) -> None:
    """Write ``text`` with its top-left corner at ``(x, y)``; ``vertical``: turned a quarter to
    the left (read from bottom to top), ``(x, y)`` its top-left corner after turning."""
    bm = _bitmap(text, scale)
    if vertical:
        bm = np.rot90(bm)
    h, w, _ = img.shape
    bh, bw = bm.shape
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(w, x + bw), min(h, y + bh)
    if x1 <= x0 or y1 <= y0:
        return
    region = bm[y0 - y:y1 - y, x0 - x:x1 - x]
    img[y0:y1, x0:x1][region] = color


def _line(img, x0, y0, x1, y1, color, width: int = 2) -> None:
    n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
    xs = np.linspace(x0, x1, n).round().astype(int)
    ys = np.linspace(y0, y1, n).round().astype(int)
    h, w, _ = img.shape
    for dy in range(width):
        ok = (xs >= 0) & (xs < w) & (ys + dy >= 0) & (ys + dy < h)
        img[ys[ok] + dy, xs[ok]] = color


def _dot(img, x, y, color, radius: int = 4, hollow: bool = False) -> None:
    h, w, _ = img.shape
    for dy in range(-radius, radius + 1):
        for dx in range(-radius, radius + 1):
            d = dx * dx + dy * dy
            if d <= radius * radius and (not hollow or d >= (radius - 1.5) ** 2):
                px, py = int(round(x)) + dx, int(round(y)) + dy
                if 0 <= px < w and 0 <= py < h:
                    img[py, px] = color


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values covering ``[lo, hi]``."""
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / max(1, count)
    mag = 10 ** math.floor(math.log10(raw))
    step = min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw), default=10 * mag)
    first = math.floor(lo / step + 1e-9)
    last = math.ceil(hi / step - 1e-9)
    return [round(k * step, 10) for k in range(first, max(last, first + 1) + 1)]


@dataclass
class Series:
    """One line: ``points`` ``(x, y)``; ``marks`` ``(x, y, color, hollow)`` drawn as dots."""

    name: str
    points: list[tuple[float, float]]
    marks: list[tuple[float, float, tuple[int, int, int], bool]] = field(default_factory=list)


def line_chart_png(series: list[Series], path: str, *, title: str, x_label: str, y_label: str,
                   legend_extra: list[tuple[str, tuple[int, int, int], bool]] = (),
                   width: int = 900, height: int = 480) -> None:
    """Write a line chart to ``path`` as PNG: ``title`` on top, axes with tick numbers and the
    names ``x_label`` / ``y_label``, one coloured line per series with its name in the legend,
    and the series' marks as dots (``legend_extra``: more legend entries for the dots)."""
    img = np.full((height, width, 3), 255, dtype=np.uint8)
    left, right, top, bottom = 70, width - 170, 40, height - 50
    draw_text(img, max(4, (width - text_width(title, 2)) // 2), 10, title, scale=2)
    xs = [p[0] for s in series for p in s.points] or [0.0, 1.0]
    ys = [p[1] for s in series for p in s.points] or [0.0, 1.0]
    x0, x1 = min(xs), max(xs)
    if x1 <= x0:
        x1 = x0 + 1
    yt = nice_ticks(min(0.0, min(ys)), max(ys) if max(ys) > min(0.0, min(ys)) else 1.0)
    y0, y1 = yt[0], yt[-1]
    if y1 <= y0:
        y1 = y0 + 1

    def px(x):
        return left + (x - x0) / (x1 - x0) * (right - left)

    def py(y):
        return bottom - (y - y0) / (y1 - y0) * (bottom - top)

    grey = (200, 200, 200)
    for v in yt:
        yy = int(round(py(v)))
        img[yy, left:right] = grey
        label = f"{v:g}"
        draw_text(img, left - 6 - text_width(label), yy - 3, label)
    for v in nice_ticks(x0, x1, 10):
        if x0 <= v <= x1:
            xx = int(round(px(v)))
            img[bottom:bottom + 5, xx] = (0, 0, 0)
            label = f"{v:g}"
            draw_text(img, xx - text_width(label) // 2, bottom + 8, label)
    img[top:bottom + 1, left] = (0, 0, 0)
    img[bottom, left:right + 1] = (0, 0, 0)
    draw_text(img, (left + right - text_width(x_label)) // 2, bottom + 24, x_label)
    draw_text(img, 8, (top + bottom - text_width(y_label)) // 2, y_label, vertical=True)
    ly = top
    for i, s in enumerate(series):
        color = COLORS[i % len(COLORS)]
        pts = [(px(x), py(y)) for x, y in s.points]
        for (a, b), (c, d) in zip(pts, pts[1:]):
            _line(img, a, b, c, d, color)
        for x, y, mcolor, hollow in s.marks:
            _dot(img, px(x), py(y), mcolor, hollow=hollow)
        img[ly + 2:ly + 5, right + 15:right + 35] = color
        draw_text(img, right + 40, ly, s.name)
        ly += 14
    ly += 6
    for name, color, hollow in legend_extra:
        _dot(img, right + 25, ly + 3, color, hollow=hollow)
        draw_text(img, right + 40, ly, name)
        ly += 14
    write_png(img, path)


def write_png(img: np.ndarray, path: str) -> None:
    """An RGB uint8 image as a PNG file."""
    raw = b"".join(b"\x00" + img[r].tobytes() for r in range(img.shape[0]))

    def chunk(tag, data):
        c = struct.pack(">I", len(data)) + tag + data
        return c + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    png = (b"\x89PNG\r\n\x1a\n"
           + chunk(b"IHDR", struct.pack(">IIBBBBB", img.shape[1], img.shape[0], 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(png)
