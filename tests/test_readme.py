"""The README's Python examples run as written (so they cannot rot)."""

from __future__ import annotations

import pytest
from readme_blocks import python_blocks, run_block

BLOCKS = python_blocks()


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_python_block_runs(index: int) -> None:
    run_block(BLOCKS[index], index)


def test_readme_has_examples() -> None:
    assert len(BLOCKS) >= 2
