"""The core's per-suit and honor tables, checked entry by entry against the reference for every pattern.

Suit: every 9-kind pattern with counts 0..4 and at most 14 tiles (405,350 patterns). Honors: all 5**7
patterns. Each entry has 10 values, index ``m + 5 * p``: the fewest tiles missing to form m melds (0..4) and p
pairs (0..1) from that suit alone, never more than four of a kind. The reference computes them by a DP over
the pattern lattice (``reference._lattice_table``), itself checked against the explicit target list in
``test_reference.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
import reference as ref
from hupai import _core

MAX_SUIT_TILES = 14


def _all_patterns(kinds: int, max_tiles: int) -> np.ndarray:
    """Every pattern (counts 0..4 per kind, at most ``max_tiles`` tiles), in lattice-row order."""
    grid = np.indices((5,) * kinds, dtype=np.int8).reshape(kinds, -1).T
    return grid[grid.sum(axis=1) <= max_tiles]


def _mismatches(patterns: np.ndarray, expected: np.ndarray, entry) -> list[str]:
    failures = []
    for pattern, want in zip(patterns.tolist(), expected.tolist(), strict=True):
        got = list(entry(pattern))
        if got != want:
            failures.append(f"{pattern}: core {got}, reference {want}")
            if len(failures) >= 10:
                break
    return failures


@pytest.mark.parametrize("chunk", range(4))
def test_every_suit_pattern_entry_matches_reference(chunk: int) -> None:
    """suit_table_entry == reference for every suit pattern of at most 14 tiles (split in 4 chunks for
    xdist)."""
    patterns = _all_patterns(9, MAX_SUIT_TILES)
    assert len(patterns) == 405_350
    patterns = patterns[chunk::4]
    rows = patterns @ (5 ** np.arange(8, -1, -1))
    failures = _mismatches(patterns, ref.suit_lattice_table()[rows], _core.suit_table_entry)
    assert not failures, "\n".join(failures)


def test_every_honor_pattern_entry_matches_reference() -> None:
    """honor_table_entry == reference for all 5**7 honor patterns (pungs and pairs only, no kind used
    twice)."""
    patterns = _all_patterns(7, 28)
    assert len(patterns) == 5**7
    failures = _mismatches(patterns, ref.honor_lattice_table(), _core.honor_table_entry)
    assert not failures, "\n".join(failures)


def test_table_entries_spot_values() -> None:
    """Hand-worked entries, so a reference and core sharing one mistake would still be caught."""
    empty = list(_core.suit_table_entry([0] * 9))
    assert empty == [0, 3, 6, 9, 12, 2, 5, 8, 11, 14]
    assert list(_core.suit_table_entry([1, 1, 1, 1, 1, 1, 1, 1, 1]))[3] == 0  # 123 456 789
    assert list(_core.suit_table_entry([4, 0, 0, 0, 0, 0, 0, 0, 0]))[1 + 5] == 2  # 111 + a pair elsewhere
    assert list(_core.honor_table_entry([4, 0, 0, 0, 0, 0, 0]))[1 + 5] == 2  # no pung + pair of one honor
    assert list(_core.honor_table_entry([1, 1, 1, 0, 0, 0, 0]))[1] == 2  # honors make no chows
