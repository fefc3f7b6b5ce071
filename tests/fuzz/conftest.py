"""Fuzz-suite setup: prints the tally of the core fuzz calls (``fuzztally``) at the end of a run. The hypothesis
profiles live in ``tests/conftest.py`` (``HYPOTHESIS_PROFILE=fuzz`` for ``make fuzz``)."""

from __future__ import annotations

from collections import Counter

import pytest
from fuzztally import TALLY


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not TALLY:
        return
    terminalreporter.section("fuzz tally: calls by entry point and outcome")
    by_outcome: Counter[str] = Counter()
    for (name, outcome), calls in sorted(TALLY.items()):
        terminalreporter.write_line(f"{name:28s} {outcome:24s} {calls:8d}")
        by_outcome[outcome] += calls
    total = sum(TALLY.values())
    terminalreporter.write_line(f"total {total} calls: " + ", ".join(f"{o} {c}" for o, c in by_outcome.most_common()))
