"""The standard-form combine has three implementations (portable loops, SSSE3, AVX2, picked at run time by
the CPU): they must agree on every hand, or a machine without AVX2 would compute different shanten."""

from __future__ import annotations

import random

import numpy as np
import pytest
from handgen import add_random_tile, random_counts, random_standard_complete, remove_random_tile
from hupai import _core

VARIANTS = {"portable": 0, "ssse3": 1, "avx2": 2}  # an unsupported variant falls back to portable


def _hands(rng: random.Random, melds: int, count: int) -> list[list[int]]:
    size = 3 * (4 - melds) + 2
    hands = [random_counts(rng, size) for _ in range(count)]
    for _ in range(count):  # near-complete: a complete hand with 0..2 tiles swapped
        counts = random_standard_complete(rng, melds, rng.randint(1, 4))
        for _ in range(rng.choice((0, 1, 2))):
            add_random_tile(rng, counts, near=remove_random_tile(rng, counts))
        hands.append(counts)
    return hands


@pytest.mark.parametrize("melds", [0, 1, 2, 3, 4])
def test_every_combine_variant_gives_the_same_deficiency(melds: int) -> None:
    rng = random.Random(melds)
    for counts in _hands(rng, melds, 1500):
        array = np.array(counts, dtype=np.uint8)
        results = {name: _core.standard_deficiency_variant(array, 4 - melds, code) for name, code in VARIANTS.items()}
        assert len(set(results.values())) == 1, (counts, results)
