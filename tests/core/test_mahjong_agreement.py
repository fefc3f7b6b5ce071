"""Agreement with the ``mahjong`` package (the riichi ecosystem's reference) on joker-free hands.

100,000 hands in four chunks: half random 13/14-tile deals (a third of those from one suit or a few kinds,
where four-of-a-kind edge cases live), half near-complete hands of the standard, seven-pairs and orphans
forms. Every hand is compared on all three forms: standard (``calculate_shanten_for_regular_hand``), seven
pairs with a quad counting as one pair (``..._for_chiitoitsu_hand``) and thirteen orphans
(``..._for_kokushi_hand``). The core side runs through ``shanten_batch``.
"""

from __future__ import annotations

import random

import handgen
import hupai
import numpy as np
import pytest
from mahjong.shanten import Shanten
from reference import STANDARD, THIRTEEN_ORPHANS

HANDS_PER_CHUNK = 25_000
CHUNKS = 4


def _hands(rng: random.Random, count: int) -> np.ndarray:
    rows = []
    while len(rows) < count:
        size = rng.choice((13, 14))
        pick = rng.random()
        if pick < 0.35:
            counts = handgen.random_counts(rng, size)
        elif pick < 0.45:
            base = rng.choice((0, 9, 18))
            counts = handgen.random_counts(rng, size, range(base, base + 9))
        elif pick < 0.5:
            counts = handgen.random_counts(rng, size, rng.sample(range(34), 5))
        else:
            form = rng.choice((STANDARD, STANDARD, STANDARD, hupai.Forms.SEVEN_PAIRS, THIRTEEN_ORPHANS))
            counts = handgen.near_complete_case(
                rng, form=int(form), max_jokers=0, complete_size=size == 14
            ).counts
        rows.append(counts)
    return np.array(rows, dtype=np.uint8)


CALCULATOR = Shanten()
FORMS_AND_PEERS = [
    (hupai.Forms.STANDARD, CALCULATOR.calculate_shanten_for_regular_hand),
    (hupai.Forms.SEVEN_PAIRS, CALCULATOR.calculate_shanten_for_chiitoitsu_hand),
    (hupai.Forms.THIRTEEN_ORPHANS, CALCULATOR.calculate_shanten_for_kokushi_hand),
]


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_shanten_agrees_with_mahjong_package(chunk: int) -> None:
    """Zero mismatches with the mahjong package on standard, seven pairs and thirteen orphans shanten."""
    hands = _hands(random.Random(9000 + chunk), HANDS_PER_CHUNK)
    failures = []
    for form, peer in FORMS_AND_PEERS:
        ours = hupai.shanten_batch(hands, forms=form)
        assert ours.dtype == np.int8 and ours.shape == (len(hands),)
        for row, mine in zip(hands.tolist(), ours.tolist(), strict=True):
            theirs = peer(row)
            if mine != theirs:
                failures.append(
                    f"{form.name} {hupai.format_tiles(np.array(row, dtype=np.uint8))}: "
                    f"core {mine}, mahjong {theirs}"
                )
    assert not failures, f"{len(failures)} mismatches:\n" + "\n".join(failures[:20])


def test_combined_forms_is_min_of_mahjong_forms() -> None:
    """STANDARD | SEVEN_PAIRS | THIRTEEN_ORPHANS == mahjong's calculate_shanten (min over the three)."""
    hands = _hands(random.Random(9100), 5000)
    forms = hupai.Forms.STANDARD | hupai.Forms.SEVEN_PAIRS | hupai.Forms.THIRTEEN_ORPHANS
    ours = hupai.shanten_batch(hands, forms=forms).tolist()
    theirs = [Shanten.calculate_shanten(row) for row in hands.tolist()]
    assert ours == theirs
