"""``hupai simulate --plot FILE.png``: the points distribution per seat, the pattern frequencies and, for a
tournament, each bot's points per hand with its interval (matplotlib, the optional ``hupai[plot]`` extra)."""

from __future__ import annotations

import os
from typing import Any

from ..errors import HupaiError, missing_extra
from .result import SimulationResult

__all__ = ["check_format", "plot", "require_matplotlib"]


def require_matplotlib() -> Any:
    """The pyplot module with a file-only backend, or a one-line error naming the extra."""
    try:
        import matplotlib  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise missing_extra("--plot (matplotlib)", "plot") from None
    matplotlib.use("Agg")  # files only: no display needed, none opened
    import matplotlib.pyplot as pyplot  # type: ignore[import-not-found, unused-ignore]

    return pyplot


def check_format(path: str) -> None:
    """Refuse, before a run, a file name whose format matplotlib cannot write (``.xyz``); no extension: PNG."""
    require_matplotlib()
    from matplotlib.backend_bases import FigureCanvasBase  # type: ignore[import-not-found, unused-ignore]

    extension = os.path.splitext(path)[1].lstrip(".").lower()
    supported = FigureCanvasBase.get_supported_filetypes()
    if extension and extension not in supported:
        raise HupaiError(f"--plot: matplotlib cannot write .{extension} files (it writes "
                         f"{', '.join('.' + name for name in sorted(supported))})")


def _payments(axes: Any, result: SimulationResult) -> None:
    """Hands per payment value, a bar per seat side by side at each value (payments are discrete: a line
    joining them would draw values no hand paid), log scale: most hands pay little."""
    histograms = [result.points_histogram(seat) for seat in range(result.num_players)]
    values = sorted({value for histogram in histograms for value in histogram})
    gap = min((b - a for a, b in zip(values, values[1:], strict=False)), default=1)
    width = 0.8 * gap / result.num_players
    for seat, histogram in enumerate(histograms):
        if histogram:
            shown = sorted(histogram)
            offset = (seat - (result.num_players - 1) / 2) * width
            axes.bar([v + offset for v in shown], [histogram[v] for v in shown], width=width, alpha=0.85,
                     label=f"seat {seat} ({result.bots[seat]}): mean {result.points(seat).value:.2f}")
    axes.set_yscale("log")
    axes.set_xlabel("payment per hand")
    axes.set_ylabel("hands")
    axes.set_title(f"{result.rules}: {result.hands:,} hands, seed {result.seed}")
    if values:
        axes.legend(fontsize="small")


def _bots(axes: Any, result: SimulationResult) -> None:
    """A tournament: each bot's mean points per seat-hand, a bar with its 95% interval."""
    names = list(result.bot_names)
    points = [result.bot_points(name) for name in names]
    errors = [[p.value - p.low for p in points], [p.high - p.value for p in points]]
    axes.bar(names, [p.value for p in points], yerr=errors, capsize=4, color="tab:green", alpha=0.85)
    axes.axhline(0, color="black", linewidth=0.8)
    axes.set_ylabel("points per hand (95% interval)")
    axes.set_title(f"every seating: {result.hands // max(result.seatings, 1):,} deals x {result.seatings}")


def plot(result: SimulationResult, path: str, patterns: int = 15) -> None:
    """Two panels: each seat's payments per hand and the ``patterns`` most frequent patterns as a share of
    wins with 95% intervals; a tournament (``rotate``) adds a third, each bot's points per hand."""
    pyplot = require_matplotlib()
    panels = 3 if result.bot_stats else 2
    figure, axes = pyplot.subplots(1, panels, figsize=(6.5 * panels, 5))
    points_axes, pattern_axes = axes[0], axes[1]
    _payments(points_axes, result)
    if result.bot_stats:
        _bots(axes[2], result)
    ranked = list(result.pattern_frequencies().items())[:patterns][::-1]
    if ranked:
        names = [name for name, _ in ranked]
        shares = [rate.value for _, rate in ranked]
        errors = [[rate.value - rate.low for _, rate in ranked], [rate.high - rate.value for _, rate in ranked]]
        pattern_axes.barh(names, shares, xerr=errors, capsize=2)
    pattern_axes.set_xlabel(f"share of {result.stats.wins:,} wins")
    pattern_axes.set_title("patterns")
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as error:
        raise HupaiError(f"--plot: cannot write {path}: {error.strerror}") from None
    except ValueError as error:  # a format matplotlib does not write
        raise HupaiError(f"--plot: cannot write {path}: {error}") from None
    finally:
        pyplot.close(figure)
