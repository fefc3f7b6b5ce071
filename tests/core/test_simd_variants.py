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


@pytest.mark.parametrize("melds", [0, 1, 2, 3, 4])
def test_partial_deficiencies_agree_with_the_whole_hand_in_every_variant(melds: int) -> None:
    """discard_analysis judges every draw from the other groups combined once (StandardPartials, portable or
    SIMD steps): each must be the standard deficiency of the whole hand after the draw."""
    rng = random.Random(100 + melds)
    for counts in _hands(rng, melds, 300):
        counts[counts.index(max(counts))] -= 1  # a waiting-size hand: every draw makes a complete-size one
        array = np.array(counts, dtype=np.uint8)
        expected = []
        for draw in range(34):
            if counts[draw] >= 4:
                expected.append(-1)
                continue
            array[draw] += 1
            expected.append(_core.standard_deficiency_variant(array, 4 - melds, 0))
            array[draw] -= 1
        for code in (0, 1):
            assert _core.partial_deficiencies(array, 4 - melds, code) == expected, (counts, code)
