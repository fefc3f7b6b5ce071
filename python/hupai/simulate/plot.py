"""``hupai simulate --plot FILE.png``: the points distribution per seat, the pattern frequencies and, for a
tournament, each bot's points per hand with its interval (matplotlib, the optional ``hupai[plot]`` extra)."""

from __future__ import annotations

import os
from collections.abc import Mapping
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


def _distributions(result: SimulationResult) -> list[tuple[str, dict[int, int]]]:
    """The payment distributions to draw: one per bot in a tournament (a seat held every bot in turn, so a
    seat's is no bot's), else one per seat, labelled with its bot."""
    if result.rotate and result.bot_stats:
        return [(f"{name}: mean {result.bot_points(name).value:.2f}", result.bot_points_histogram(name))
                for name in result.bot_names]
    return [(f"seat {seat} ({result.bots[seat]}): mean {result.points(seat).value:.2f}",
             result.points_histogram(seat)) for seat in range(result.num_players)]


def _payments(axes: Any, result: SimulationResult, bins: int = 24) -> None:
    """Each distribution of payments per hand as an outline over shared bins (outlines stay readable where
    three or four series overlap; side-by-side bars over hundreds of distinct payments did not), log scale:
    most hands pay little, the tails are what differs."""
    import numpy as np

    series = _distributions(result)
    values = sorted({value for _, histogram in series for value in histogram})
    if values:
        low, high = values[0], values[-1]
        width = max(1, -(-(high - low + 1) // bins))  # whole payments per bin: no bin splits one value
        edges = np.arange(low, high + width + 1, width) - 0.5
        for label, histogram in series:
            if histogram:
                axes.hist(list(histogram), bins=edges, weights=list(histogram.values()), histtype="step",
                          linewidth=1.6, label=label)
        axes.set_yscale("log")
        axes.legend(fontsize="small")
    axes.axvline(0, color="grey", linewidth=0.6)
    axes.set_xlabel("payment per hand" + (" (every seating)" if result.rotate else ""))
    axes.set_ylabel("hands" if not result.rotate else "seat-hands")
    axes.set_title(f"{result.rules}: {result.hands:,} hands, seed {result.seed}")


def _bots(axes: Any, result: SimulationResult) -> None:
    """A tournament: each bot's mean points per seat-hand, a bar with its 95% interval."""
    names = list(result.bot_names)
    points = [result.bot_points(name) for name in names]
    errors = [[p.value - p.low for p in points], [p.high - p.value for p in points]]
    axes.bar(names, [p.value for p in points], yerr=errors, capsize=4, color="tab:green", alpha=0.85)
    axes.axhline(0, color="black", linewidth=0.8)
    axes.set_ylabel("points per hand (95% interval)")
    axes.set_title(f"every seating: {result.hands // max(result.seatings, 1):,} deals x {result.seatings}")


def _pattern_label(name: str, names: Mapping[str, tuple[str, str]]) -> str:
    """A pattern as a reader knows it: ``清一色 All One Suit``; an id the rules do not name, as it is."""
    zh, en = names.get(name, ("", ""))
    return f"{zh} {en}".strip() or name


def _patterns(axes: Any, result: SimulationResult, patterns: int) -> None:
    """The ``patterns`` most frequent patterns as a share of wins with 95% intervals, on a log axis: a pattern
    nearly every win scores (Kawuxing's 亮倒) would flatten the rest on a linear one. Each bar says its share."""
    from .. import rules as rules_module

    try:
        names = rules_module.get(result.rules, result.options).pattern_names()
    except HupaiError:  # a rule system outside the registry: its ids as they are
        names = {}
    ranked = list(result.pattern_frequencies().items())[:patterns][::-1]
    if ranked:
        labels = [_pattern_label(name, names) for name, _ in ranked]
        shares = [rate.value for _, rate in ranked]
        errors = [[rate.value - rate.low for _, rate in ranked], [rate.high - rate.value for _, rate in ranked]]
        axes.barh(labels, shares, xerr=errors, capsize=2, color="tab:blue", alpha=0.85)
        axes.set_xscale("log")
        floor = min(rate.low for _, rate in ranked if rate.low > 0) if any(r.low > 0 for _, r in ranked) else 1e-3
        axes.set_xlim(max(floor / 2, 1e-4), 3)
        for row, (_, rate) in enumerate(ranked):  # beside the interval's end, clear of the whisker
            axes.text(min(rate.high * 1.12, 1.05), row, f"{100 * rate.value:.1f}%" if rate.value >= 0.001 else
                      f"{100 * rate.value:.2f}%", va="center", fontsize="small")
        axes.xaxis.set_major_formatter(_percent_formatter())
    more = len(result.pattern_frequencies()) - len(ranked)
    axes.set_xlabel(f"share of {result.stats.wins:,} wins (log scale)")
    axes.set_title(f"top {len(ranked)} patterns" + (f" ({more} more)" if more > 0 else ""))


def _percent_formatter() -> Any:
    from matplotlib.ticker import FuncFormatter  # type: ignore[import-not-found, unused-ignore]

    return FuncFormatter(lambda share, _: f"{100 * share:g}%")


def _font(pyplot: Any) -> None:
    """A font that has the Chinese pattern names, where one is installed (else matplotlib's default, which
    shows them as boxes but still writes the English names)."""
    from matplotlib import font_manager  # type: ignore[import-not-found, unused-ignore]

    wanted = ("Noto Sans CJK SC", "Noto Sans CJK JP", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "Source Han Sans SC",
              "SimHei", "Microsoft YaHei", "PingFang SC", "Droid Sans Fallback", "AR PL UMing CN")
    installed = {font.name for font in font_manager.fontManager.ttflist}
    chosen = [name for name in wanted if name in installed]
    pyplot.rcParams["font.sans-serif"] = [*chosen, "DejaVu Sans"]
    pyplot.rcParams["font.family"] = "sans-serif"


def plot(result: SimulationResult, path: str, patterns: int = 12) -> None:
    """Two panels: the payments per hand (per seat, or per bot in a tournament) and the ``patterns`` most
    frequent patterns by their Chinese and English names as a share of wins with 95% intervals; a tournament
    (``rotate``) adds a third, each bot's points per hand."""
    pyplot = require_matplotlib()
    _font(pyplot)
    panels = 3 if result.bot_stats else 2
    figure, axes = pyplot.subplots(1, panels, figsize=(6.5 * panels, 5.5))
    _payments(axes[0], result)
    _patterns(axes[1], result, patterns)
    if result.bot_stats:
        _bots(axes[2], result)
    figure.tight_layout()
    try:
        figure.savefig(path, dpi=110)
    except OSError as error:
        raise HupaiError(f"--plot: cannot write {path}: {error.strerror}") from None
    except ValueError as error:  # a format matplotlib does not write
        raise HupaiError(f"--plot: cannot write {path}: {error}") from None
    finally:
        pyplot.close(figure)
