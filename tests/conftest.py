"""Test-suite setup: the reference implementation and hand generators live in ``tests/`` as plain modules."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import settings

# pytest's default import mode only puts each test file's own directory on sys.path; the helpers sit one level
# up.
TESTS_DIR = Path(__file__).resolve().parent
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

# `make fuzz` runs the fuzz suites at length (HYPOTHESIS_PROFILE=fuzz); `make test` keeps each brief.
settings.register_profile("fuzz", max_examples=5_000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
