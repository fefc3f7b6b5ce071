"""The batch calls release the GIL and may split work over threads: answers must not depend on either.

Several Python threads call ``shanten_batch`` / ``is_win_batch`` at once, with different forms and joker masks
(so shared state in the core would show up as wrong answers), and ``threads=`` splits rows inside one call.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import hupai
import numpy as np
import pytest
import reference as ref
from batchgen import random_batch

ROWS = 6_000
SETTINGS = [  # (forms, joker mask) per concurrent caller
    (hupai.Forms.STANDARD, ref.ALL_KINDS_MASK),
    (
        hupai.Forms.STANDARD | hupai.Forms.SEVEN_PAIRS | hupai.Forms.THIRTEEN_ORPHANS,
        ref.kinds_to_mask(range(27, 34)),
    ),
    (hupai.Forms(63), ref.kinds_to_mask(range(9))),
    (hupai.Forms.STANDARD | hupai.Forms.KNITTED, ref.kinds_to_mask(ref.TERMINAL_HONOR_KINDS)),
]


@pytest.fixture(scope="module")
def batch() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Concealed hands only (melds 0) so every form applies to every row."""
    return random_batch(77, ROWS, with_melds=False)


def _run(batch: tuple, forms: int, mask: int, threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(shanten of every row, is_win of the complete-size rows: is_win_batch takes only those)."""
    counts, jokers, melds = batch
    full = counts.sum(axis=1) + jokers == 3 * (4 - melds) + 2
    return (
        hupai.shanten_batch(
            counts, jokers=jokers, melds=melds, forms=forms, joker_kinds=mask, threads=threads
        ),
        hupai.is_win_batch(
            counts[full],
            jokers=jokers[full],
            melds=melds[full],
            forms=forms,
            joker_kinds=mask,
            threads=threads,
        ),
    )


def test_four_python_threads_at_once_match_serial(batch: tuple) -> None:
    """4 threads x 2 rounds of batch calls with different settings give exactly the serial answers."""
    serial = [_run(batch, forms, mask) for forms, mask in SETTINGS]
    with ThreadPoolExecutor(max_workers=4) as pool:
        concurrent = list(pool.map(lambda i: _run(batch, *SETTINGS[i % 4]), range(8)))
    for i, (shanten, win) in enumerate(concurrent):
        np.testing.assert_array_equal(shanten, serial[i % 4][0])
        np.testing.assert_array_equal(win, serial[i % 4][1])
        counts, jokers, melds = batch
        full = counts.sum(axis=1) + jokers == 3 * (4 - melds) + 2
        np.testing.assert_array_equal(win, serial[i % 4][0][full] == -1)


@pytest.mark.parametrize("threads", [2, 3, 8])
def test_internal_threads_match_serial(batch: tuple, threads: int) -> None:
    """threads=k splits rows over k threads (k not dividing the rows too) and changes no answer."""
    for forms, mask in SETTINGS[:2]:
        serial = _run(batch, forms, mask)
        split = _run(batch, forms, mask, threads=threads)
        np.testing.assert_array_equal(split[0], serial[0])
        np.testing.assert_array_equal(split[1], serial[1])


def test_internal_and_python_threads_together(batch: tuple) -> None:
    """Python threads each asking for threads=2 inside the core: still the serial answers."""
    forms, mask = SETTINGS[2]
    serial = _run(batch, forms, mask)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: _run(batch, forms, mask, threads=2), range(4)))
    for shanten, win in results:
        np.testing.assert_array_equal(shanten, serial[0])
        np.testing.assert_array_equal(win, serial[1])


def test_batch_spot_check_against_reference(batch: tuple) -> None:
    """A slice of the big batch against the reference, so the thread tests compare correct answers."""
    counts, jokers, melds = batch
    forms, mask = SETTINGS[1]
    got = _run((counts[:150], jokers[:150], melds[:150]), forms, mask)[0].tolist()
    expected = [
        ref.ref_shanten(row, int(j), int(m), int(forms), mask)
        for row, j, m in zip(counts[:150].tolist(), jokers[:150], melds[:150], strict=True)
    ]
    assert got == expected
