"""Slow, obviously-correct reference for the wild-tile search (``hupai.analysis.fits_with_jokers``).

Literally the definition: try every multiset of kinds the jokers could stand for (kind ``k`` at most
``room[k]`` times), add it to the natural counts, and ask whether the joker-free hand splits into exactly
``sets`` melds (pungs, one-suit chows) and ``pairs`` pairs, every tile used. The split takes the lowest kind
held and tries each group that can contain it. No hupai import.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

NUM_KINDS = 34


@functools.cache
def splits(counts: tuple[int, ...], sets: int, pairs: int) -> bool:
    """Do ``counts`` split into exactly ``sets`` melds and ``pairs`` pairs, every tile used?"""
    first = next((kind for kind, count in enumerate(counts) if count), None)
    if first is None:
        return sets == 0 and pairs == 0

    def without(*kinds: int) -> tuple[int, ...]:
        rest = list(counts)
        for kind in kinds:
            rest[kind] -= 1
        return tuple(rest)

    # The lowest kind's tile is in a pair, a pung or a chow that starts at it (nothing lower is left).
    if pairs and counts[first] >= 2 and splits(without(first, first), sets, pairs - 1):
        return True
    if sets and counts[first] >= 3 and splits(without(first, first, first), sets - 1, pairs):
        return True
    in_suit = first < 27 and first % 9 <= 6
    return bool(sets and in_suit and counts[first + 1] and counts[first + 2]
                and splits(without(first, first + 1, first + 2), sets - 1, pairs))


def ref_fits_with_jokers(counts: Sequence[int], jokers: int, sets: int, pairs: int, room: Sequence[int]) -> bool:
    """Some assignment of the jokers to kinds with room completes the hand into the groups asked for."""
    kinds = [kind for kind in range(NUM_KINDS) if room[kind] > 0]
    for stand_ins in itertools.combinations_with_replacement(kinds, jokers):
        if any(stand_ins.count(kind) > room[kind] for kind in set(stand_ins)):
            continue
        grown = list(counts)
        for kind in stand_ins:
            grown[kind] += 1
        if splits(tuple(grown), sets, pairs):
            return True
    return False
