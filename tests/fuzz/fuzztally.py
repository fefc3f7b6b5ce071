"""The tally of fuzz calls by entry point and outcome (a result, or the exception's type), printed at the end of
a run by ``tests/fuzz/conftest.py`` (run without xdist to see one tally: ``-p no:xdist``)."""

from __future__ import annotations

from collections import Counter

#: (entry point, outcome) -> calls
TALLY: Counter[tuple[str, str]] = Counter()
