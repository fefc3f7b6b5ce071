"""The progress bar (a terminal only) and the plot (the optional matplotlib extra)."""

from __future__ import annotations

import io
from pathlib import Path

import hupai
import pytest
from hupai.simulate import make_progress
from hupai.simulate.progress import _LineProgress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_quiet_when_piped() -> None:
    stream = io.StringIO()
    bar = make_progress(100, stream)
    bar.update(40)
    bar.close()
    assert stream.getvalue() == "" and bar.done == 40


def test_progress_draws_on_a_terminal() -> None:
    stream = _Terminal()
    bar = make_progress(100, stream, "guangdong: ")
    bar.update(50)
    bar.update(50)
    bar.close()
    assert "100/100" in stream.getvalue() and "hands" in stream.getvalue()


def test_the_fallback_line_shows_rate_and_eta() -> None:
    stream = io.StringIO()
    bar = _LineProgress(1000, stream, "yunxiao: ")
    bar.update(1000)
    bar.close()
    text = stream.getvalue()
    assert text.startswith("\ryunxiao: 1,000/1,000 hands") and "hands/s" in text and "ETA 0s" in text


def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the plot extra is not installed (make install)")
    from hupai.simulate.plot import plot

    result = hupai.simulate("guangdong", hands=30, bots="greedy", seed=1)
    path = tmp_path / "out.png"
    plot(result, str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
