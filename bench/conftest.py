"""Shared fixtures for the benchmarks: seeded hand sets, built once per session."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))

import hands  # noqa: E402

ROWS = 1_000_000


@pytest.fixture(scope="session")
def random14() -> np.ndarray:
    return hands.random_hands(ROWS)


@pytest.fixture(scope="session")
def near14() -> np.ndarray:
    return hands.near_complete_hands(ROWS, swaps=2)


@pytest.fixture(scope="session")
def mixed14(random14: np.ndarray, near14: np.ndarray) -> np.ndarray:
    """Half random, half near-complete 14-tile hands."""
    return np.ascontiguousarray(np.concatenate([random14[: ROWS // 2], near14[: ROWS // 2]]))


@pytest.fixture(scope="session")
def complete14() -> np.ndarray:
    return hands.complete_hands(ROWS)


def rate(benchmark, items: int, label: str = "hands/s") -> None:
    """Record items per second next to pytest-benchmark's timings: from the median round, and from the
    fastest (the machine's capability when other work shares the cores)."""
    if benchmark.stats is not None:  # None under --benchmark-disable
        benchmark.extra_info[label] = round(items / benchmark.stats.stats.median)
        benchmark.extra_info[f"best {label}"] = round(items / benchmark.stats.stats.min)
