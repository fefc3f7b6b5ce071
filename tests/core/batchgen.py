"""Large random batches of valid hands for the batch entry points, generated with numpy."""

from __future__ import annotations

import numpy as np

NUM_KINDS = 34


def random_batch(
    seed: int, rows: int, *, max_jokers: int = 4, with_melds: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``rows`` valid hands: (counts uint8[rows, 34], jokers int32[rows], melds int32[rows]).

    Each row draws its natural tiles without replacement from a 136-tile wall, sized for its melds and jokers,
    3n+1 or 3n+2 at random.
    """
    rng = np.random.default_rng(seed)
    melds = rng.integers(0, 5, rows) if with_melds else np.zeros(rows, dtype=np.int64)
    sizes = 3 * (4 - melds) + rng.integers(1, 3, rows)
    jokers = np.minimum(rng.integers(0, max_jokers + 1, rows), sizes)
    naturals = sizes - jokers
    # A random permutation of the wall per row; the first ``naturals`` tiles of it are the hand.
    order = np.argsort(rng.random((rows, 4 * NUM_KINDS)), axis=1) // 4
    taken = np.arange(4 * NUM_KINDS)[None, :] < naturals[:, None]
    counts = np.zeros((rows, NUM_KINDS), dtype=np.uint8)
    row_index = np.broadcast_to(np.arange(rows)[:, None], order.shape)
    np.add.at(counts, (row_index[taken], order[taken]), 1)
    return counts, jokers.astype(np.int32), melds.astype(np.int32)
