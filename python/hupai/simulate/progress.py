"""A progress bar for simulations on a terminal: hands done, hands/s and the time left.

tqdm draws it when installed (``hupai[progress]``); otherwise a one-line fallback does the same with carriage
returns. Either way it is drawn only on a terminal: a piped or redirected run prints nothing but its results.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

__all__ = ["Progress", "make_progress"]


class Progress:
    """Counts hands; draws nothing (the quiet bar, and the base of the drawn ones)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0

    def update(self, hands: int) -> None:
        self.done += hands

    def close(self) -> None:
        pass


class _LineProgress(Progress):
    """``1,200/5,000 hands  830 hands/s  ETA 5s`` rewritten in place, at most ten times a second."""

    def __init__(self, total: int, stream: TextIO, label: str) -> None:
        super().__init__(total)
        self._stream = stream
        self._label = label
        self._began = time.perf_counter()
        self._drawn = 0.0

    def update(self, hands: int) -> None:
        super().update(hands)
        now = time.perf_counter()
        if now - self._drawn >= 0.1 or self.done >= self.total:
            self._drawn = now
            rate = self.done / max(now - self._began, 1e-9)
            eta = (self.total - self.done) / rate if rate > 0 else 0.0
            self._stream.write(f"\r{self._label}{self.done:,}/{self.total:,} hands  {rate:,.0f} hands/s  "
                               f"ETA {eta:.0f}s ")
            self._stream.flush()

    def close(self) -> None:
        self._stream.write("\n")
        self._stream.flush()


class _TqdmProgress(Progress):
    def __init__(self, total: int, stream: TextIO, label: str, tqdm: Any) -> None:
        super().__init__(total)
        self._bar = tqdm(total=total, unit=" hands", file=stream, desc=label.rstrip(": ") or None,
                         dynamic_ncols=True, smoothing=0.1)

    def update(self, hands: int) -> None:
        super().update(hands)
        self._bar.update(hands)

    def close(self) -> None:
        self._bar.close()


def make_progress(total: int, stream: TextIO | None = None, label: str = "", force: bool | None = None) -> Progress:
    """A bar on ``stream`` (stderr) if it is a terminal (or ``force``), else a quiet counter."""
    stream = stream if stream is not None else sys.stderr
    show = force if force is not None else bool(getattr(stream, "isatty", lambda: False)())
    if not show:
        return Progress(total)
    try:
        from tqdm import tqdm  # type: ignore[import-untyped]
    except ImportError:
        return _LineProgress(total, stream, label)
    return _TqdmProgress(total, stream, label, tqdm)
