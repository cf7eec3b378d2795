"""Every PNG chart quansu draws, with matplotlib: Analyze's cumulative loss per seat
(``quansu analyze --plot``, :func:`quansu.report.write_plot`) and the training curves
(``quansu train``, :mod:`models.training.plot`).

matplotlib is optional, outside the serving path: the ``plot`` extra (``pip install
"quansu[plot]"``; the ``dev`` and ``train`` extras include it).  Without it, :func:`require`
raises :class:`PlotUnavailable`, whose message says how to install it.  Charts are drawn on
the Agg canvas (no display, no pyplot state) with DejaVu Sans, the font matplotlib ships, which
has every Vietnamese letter with its diacritics ("Tổng mức mất qua ván", "sai nặng"), at
readable sizes (:data:`SIZES`).

This module sits beside the four layers and imports none of them, so that the service
(``server/``) and the training (``models/training/``) draw with the same code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

#: How to get matplotlib, as the error says it.
INSTALL = 'pip install "quansu[plot]"  (or: pip install matplotlib)'
#: The font of every chart: shipped with matplotlib, with the Vietnamese diacritics.
FONT = "DejaVu Sans"
#: Font sizes in points (at 100 dpi a point is about 1.4 px: a 12 pt label is about 17 px tall).
SIZES = {"title": 16, "label": 13, "tick": 12, "legend": 12}
#: Series colours (seat 0, 1, 2, ...): cool and neutral hues, so that the marks' warm colours
#: (yellow, orange, red) stand out on every line.
SERIES_COLORS = ("#1f77b4", "#2ca02c", "#17becf", "#8c564b", "#7f7f7f", "#bcbd22")


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed; the message says how to install it."""

    def __init__(self) -> None:
        super().__init__(f"drawing a PNG chart needs matplotlib: {INSTALL}")


def available() -> bool:
    """Whether matplotlib can be imported."""
    try:
        require()
    except PlotUnavailable:
        return False
    return True


def require():
    """The ``matplotlib`` module; :class:`PlotUnavailable` when it is not installed."""
    try:
        import matplotlib
        from matplotlib.figure import Figure  # noqa: F401  (the Agg canvas draws Figures)
    except ImportError:
        raise PlotUnavailable() from None
    return matplotlib


def _style() -> dict:
    return {
        "font.family": "sans-serif",
        "font.sans-serif": [FONT],
        "axes.titlesize": SIZES["title"],
        "axes.labelsize": SIZES["label"],
        "xtick.labelsize": SIZES["tick"],
        "ytick.labelsize": SIZES["tick"],
        "legend.fontsize": SIZES["legend"],
        "figure.titlesize": SIZES["title"],
        "axes.spines.top": False,
        "axes.spines.right": False,
    }


def _figure(width: float, height: float, dpi: int = 100):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=dpi, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def save_png(fig, path: str) -> None:
    """Write ``fig`` as a PNG file (``OSError`` when it cannot be written)."""
    matplotlib = require()
    with matplotlib.rc_context(_style()):
        fig.savefig(path, format="png")


@dataclass
class Series:
    """One line: ``points`` ``(x, y)``, named ``name`` in the legend."""

    name: str
    points: list[tuple[float, float]]


@dataclass
class Marks:
    """Points marked on the lines, one legend entry: ``label``, a ``color``, a ``marker``
    (matplotlib's: ``"^"``, ``"s"``, ``"X"``, ``"o"``) drawn ``hollow`` or filled."""

    label: str
    color: str
    marker: str
    hollow: bool = False
    points: list[tuple[float, float]] = field(default_factory=list)


def line_chart(
    series: Sequence[Series],
    *,
    title: str,
    x_label: str,
    y_label: str,
    marks: Sequence[Marks] = (),
    width: float = 10.0,
    height: float = 5.6,
    integer_x: bool = True,
):
    """A line chart (a matplotlib Figure on the Agg canvas): ``title``, the axes named
    ``x_label`` and ``y_label``, one line per series in :data:`SERIES_COLORS`, each group of
    ``marks`` as markers with its own colour and shape, and a legend of both beside the plot;
    ``integer_x``: ticks on whole numbers only (move numbers)."""
    matplotlib = require()
    with matplotlib.rc_context(_style()):
        fig = _figure(width, height)
        ax = fig.subplots()
        for i, s in enumerate(series):
            xs = [p[0] for p in s.points]
            ys = [p[1] for p in s.points]
            ax.plot(
                xs,
                ys,
                color=SERIES_COLORS[i % len(SERIES_COLORS)],
                linewidth=2.2,
                label=s.name,
                zorder=2,
            )
        for m in marks:
            xs = [p[0] for p in m.points]
            ys = [p[1] for p in m.points]
            ax.plot(
                xs,
                ys,
                linestyle="none",
                marker=m.marker,
                markersize=10,
                markerfacecolor="none" if m.hollow else m.color,
                markeredgecolor=m.color if m.hollow else "#222222",
                markeredgewidth=2.0 if m.hollow else 0.8,
                label=m.label,
                zorder=3,
            )
        ax.set_title(title, fontweight="bold")
        ax.set_xlabel(x_label)
        ax.set_ylabel(y_label)
        ax.grid(True, color="#dddddd", linewidth=0.8)
        ax.set_axisbelow(True)
        ax.set_ylim(bottom=min(0.0, ax.get_ylim()[0]))
        if integer_x:
            from matplotlib.ticker import MaxNLocator

            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return fig


def line_chart_png(series: Sequence[Series], path: str, **kw):
    """:func:`line_chart` written to ``path`` as PNG; the Figure."""
    fig = line_chart(series, **kw)
    save_png(fig, path)
    return fig


def panels(
    series: dict[str, Sequence[float]],
    *,
    title: str = "",
    x_label: str = "",
    width: float = 8.0,
    panel_height: float = 2.2,
):
    """One panel per non-empty series (``name -> y values``, x = the index), stacked, each
    named by its series and scaled to its own values (the training curves, whose series are
    measured at different steps)."""
    matplotlib = require()
    from matplotlib.ticker import MaxNLocator

    names = [k for k, v in series.items() if len(v) > 0]
    with matplotlib.rc_context(_style()):
        fig = _figure(width, max(1, len(names)) * panel_height + (0.6 if title else 0.0))
        axes = fig.subplots(max(1, len(names)), 1, squeeze=False)[:, 0]
        for i, (ax, name) in enumerate(zip(axes, names)):
            ys = list(series[name])
            ax.plot(
                range(len(ys)),
                ys,
                color=SERIES_COLORS[i % len(SERIES_COLORS)],
                linewidth=2.0,
                marker="o" if len(ys) == 1 else None,
            )
            ax.set_title(name, loc="left", fontsize=SIZES["label"])
            ax.grid(True, color="#dddddd", linewidth=0.8)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if x_label:
            axes[-1].set_xlabel(x_label)
        if title:
            fig.suptitle(title, fontweight="bold")
    return fig


def panels_png(series: dict[str, Sequence[float]], path: str, **kw):
    """:func:`panels` written to ``path`` as PNG; the Figure."""
    fig = panels(series, **kw)
    save_png(fig, path)
    return fig


@dataclass
class Band:
    """One measured line with its interval: ``(mean, low, high)`` per point, named ``name``
    (each panel of :func:`band_panels` gives the points' x)."""

    name: str
    points: list[tuple[float, float, float]]


def band_panels(
    panels_x: Sequence[tuple[str, str, Sequence[float]]],
    bands: Sequence[Band],
    *,
    title: str,
    y_label: str,
    references: Sequence[tuple[str, float]] = (),
    width: float = 13.0,
    height: float = 5.2,
):
    """Side-by-side panels of the same measured lines against different x axes (a learning
    curve against training decisions and against training hours): ``panels_x`` holds, per
    panel, ``(x_label, scale, xs)`` where ``scale`` is ``"linear"`` or ``"symlog"`` and
    ``xs[j]`` is the x of every band's point j.  Each band is a line with markers and its
    interval shaded; ``references``: ``(name, y)`` dashed horizontal lines; y = 0 is drawn."""
    matplotlib = require()
    with matplotlib.rc_context(_style()):
        fig = _figure(width, height)
        axes = fig.subplots(1, len(panels_x), squeeze=False, sharey=True)[0]
        for k, (ax, (x_label, scale, xs)) in enumerate(zip(axes, panels_x)):
            x = list(xs)
            for i, b in enumerate(bands):
                color = SERIES_COLORS[i % len(SERIES_COLORS)]
                ax.plot(
                    x,
                    [p[0] for p in b.points],
                    color=color,
                    linewidth=2.2,
                    marker="o",
                    label=b.name,
                    zorder=3,
                )
                ax.fill_between(
                    x, [p[1] for p in b.points], [p[2] for p in b.points], color=color, alpha=0.15
                )
            for j, (name, y) in enumerate(references):
                ax.axhline(
                    y,
                    color="#555555",
                    linewidth=1.6,
                    linestyle=("--", ":", "-.")[j % 3],
                    label=name,
                )
            ax.axhline(0.0, color="#222222", linewidth=0.9)
            if scale == "symlog":
                nonzero = [v for v in xs if v > 0]
                ax.set_xscale("symlog", linthresh=min(nonzero) if nonzero else 1.0)
                ax.set_xlim(left=0)
            ax.set_xlabel(x_label)
            ax.grid(True, color="#dddddd", linewidth=0.8)
            ax.set_axisbelow(True)
            if k == 0:
                ax.set_ylabel(y_label)
        axes[-1].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        fig.suptitle(title, fontweight="bold")
    return fig
