"""``hupai simulate --plot FILE.png``: the points distribution per seat and the pattern frequencies
(matplotlib, the optional ``hupai[plot]`` extra)."""

from __future__ import annotations

from typing import Any

from ..errors import HupaiError
from .result import SimulationResult

__all__ = ["plot", "require_matplotlib"]


def require_matplotlib() -> Any:
    """The pyplot module with a file-only backend, or a one-line error naming the extra."""
    try:
        import matplotlib  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise HupaiError("--plot needs matplotlib: pip install 'hupai[plot]'") from None
    matplotlib.use("Agg")  # files only: no display needed, none opened
    import matplotlib.pyplot as pyplot  # type: ignore[import-not-found, unused-ignore]

    return pyplot


def plot(result: SimulationResult, path: str, patterns: int = 15) -> None:
    """Two panels: each seat's payments per hand (hands per payment value, log scale: most hands
    pay little) and the ``patterns`` most frequent patterns as a share of wins with 95% intervals."""
    pyplot = require_matplotlib()
    figure, (points_axes, pattern_axes) = pyplot.subplots(1, 2, figsize=(13, 5))
    for seat in range(result.num_players):
        histogram = result.points_histogram(seat)
        if histogram:
            values = sorted(histogram)
            points_axes.plot(values, [histogram[v] for v in values], marker="o", markersize=3, alpha=0.8,
                             label=f"seat {seat} ({result.bots[seat]}): mean {result.points(seat).value:.2f}")
    points_axes.set_yscale("log")
    points_axes.set_xlabel("payment per hand")
    points_axes.set_ylabel("hands")
    points_axes.set_title(f"{result.rules}: {result.hands:,} hands, seed {result.seed}")
    points_axes.legend(fontsize="small")
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
    finally:
        pyplot.close(figure)
