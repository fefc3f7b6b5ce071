"""Random hand generators for the core tests: deals, complete hands of every form, perturbations, masks.

A generated case is a :class:`Case` (natural counts, jokers, melds, forms, joker mask). Everything is driven
by a ``random.Random`` so failures print a reproducible case.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
from reference import (
    ALL_KINDS_MASK,
    KNITTED,
    NUM_KINDS,
    SEVEN_PAIRS,
    SEVEN_PAIRS_QUADS,
    STANDARD,
    TERMINAL_HONOR_KINDS,
    TERMINALS_HONORS,
    THIRTEEN_ORPHANS,
    kinds_to_mask,
    knitted_targets,
)

SPECIAL_FORMS = (SEVEN_PAIRS, SEVEN_PAIRS_QUADS, THIRTEEN_ORPHANS, KNITTED, TERMINALS_HONORS)


@dataclass
class Case:
    """One hand: natural ``counts`` plus ``jokers`` wild tiles, ``melds`` exposed melds set aside."""

    counts: list[int]
    jokers: int = 0
    melds: int = 0
    forms: int = STANDARD
    joker_mask: int = ALL_KINDS_MASK
    note: str = field(default="", compare=False)

    def array(self) -> np.ndarray:
        """The natural counts as the core's ``uint8[34]``."""
        return np.array(self.counts, dtype=np.uint8)

    def __str__(self) -> str:
        return (
            f"Case(counts={self.counts}, jokers={self.jokers}, melds={self.melds}, forms={self.forms}, "
            f"joker_mask={self.joker_mask:#x}) {self.note}"
        )


# ------------------------------------------------------------------------------------------------ masks


def random_joker_mask(rng: random.Random) -> int:
    """All kinds, a random subset, one suit, the honors or the terminals/honors (rule-system shapes)."""
    choice = rng.randrange(6)
    if choice == 0:
        return ALL_KINDS_MASK
    if choice == 1:
        return kinds_to_mask(k for k in range(NUM_KINDS) if rng.random() < 0.5)
    if choice == 2:
        suit = rng.randrange(3)
        return kinds_to_mask(range(9 * suit, 9 * suit + 9))
    if choice == 3:
        return kinds_to_mask(range(27, 34))
    if choice == 4:
        return kinds_to_mask(TERMINAL_HONOR_KINDS)
    return kinds_to_mask(rng.sample(range(NUM_KINDS), rng.randint(1, 4)))  # a few kinds, e.g. a 金 tile


# ----------------------------------------------------------------------------------------- random deals


def random_counts(rng: random.Random, tiles: int, kinds: range | list[int] = range(NUM_KINDS)) -> list[int]:
    """``tiles`` tiles drawn without replacement from four copies of each of ``kinds``."""
    wall = [k for k in kinds for _ in range(4)]
    counts = [0] * NUM_KINDS
    for kind in rng.sample(wall, tiles):
        counts[kind] += 1
    return counts


def concealed_size(melds: int, complete: bool) -> int:
    """Concealed tiles (jokers included) of a hand with ``melds`` exposed melds: 3n+2 or 3n+1."""
    return 3 * (4 - melds) + (2 if complete else 1)


# --------------------------------------------------------------------------------------- complete hands


def _add_if_room(counts: list[int], kinds: list[int]) -> bool:
    trial = list(counts)
    for kind in kinds:
        trial[kind] += 1
    if max(trial) > 4:
        return False
    counts[:] = trial
    return True


def random_standard_complete(rng: random.Random, melds: int, suits: int = 4) -> list[int]:
    """A complete standard hand (``4 - melds`` melds + a pair) over ``suits`` of the four suits."""
    while True:
        bases = rng.sample([0, 9, 18, 27], suits)
        counts = [0] * NUM_KINDS
        pair_base = rng.choice(bases)
        if not _add_if_room(counts, [pair_base + rng.randrange(7 if pair_base == 27 else 9)] * 2):
            continue
        placed = 0
        for _attempt in range(50):
            if placed == 4 - melds:
                return counts
            base = rng.choice(bases)
            if base == 27 or rng.random() < 0.35:
                kind = base + rng.randrange(7 if base == 27 else 9)
                placed += _add_if_room(counts, [kind] * 3)
            else:
                start = base + rng.randrange(7)
                placed += _add_if_room(counts, [start, start + 1, start + 2])


def random_special_complete(rng: random.Random, form: int) -> list[int]:
    """A complete 14-tile hand of one special form."""
    counts = [0] * NUM_KINDS
    if form == SEVEN_PAIRS:
        for kind in rng.sample(range(NUM_KINDS), 7):
            counts[kind] = 2
    elif form == SEVEN_PAIRS_QUADS:
        kinds = rng.sample(range(NUM_KINDS), 7)
        for i, kind in enumerate(kinds):
            # Merge some pairs into quads so the "four of a kind = two pairs" rule is exercised.
            counts[kinds[i - 1] if i and rng.random() < 0.3 and counts[kinds[i - 1]] == 2 else kind] += 2
    elif form == THIRTEEN_ORPHANS:
        for kind in TERMINAL_HONOR_KINDS:
            counts[kind] = 1
        counts[rng.choice(TERMINAL_HONOR_KINDS)] += 1
    elif form == KNITTED:
        targets = knitted_targets()
        counts = targets[rng.randrange(len(targets))].astype(int).tolist()
    elif form == TERMINALS_HONORS:
        while sum(counts) < 14:
            kind = rng.choice(TERMINAL_HONOR_KINDS)
            if counts[kind] < 4:
                counts[kind] += 1
    else:
        raise ValueError(form)
    return counts


# ---------------------------------------------------------------------------------------- perturbations


def remove_random_tile(rng: random.Random, counts: list[int]) -> int:
    """Remove one random natural tile; returns its kind."""
    kind = rng.choice([k for k in range(NUM_KINDS) for _ in range(counts[k])])
    counts[kind] -= 1
    return kind


def add_random_tile(rng: random.Random, counts: list[int], near: int | None = None) -> None:
    """Add a tile (with room for it), often next to ``near`` so the change stays "structured"."""
    while True:
        if near is not None and rng.random() < 0.5:
            kind = min(NUM_KINDS - 1, max(0, near + rng.choice((-2, -1, 1, 2))))
        else:
            kind = rng.randrange(NUM_KINDS)
        if counts[kind] < 4:
            counts[kind] += 1
            return


def near_complete_case(
    rng: random.Random,
    *,
    form: int,
    melds: int = 0,
    max_jokers: int = 4,
    joker_mask: int | None = None,
    complete_size: bool | None = None,
) -> Case:
    """A complete ``form`` hand, 0..2 tiles swapped, some made jokers, maybe one tile dropped."""
    counts = (
        random_standard_complete(rng, melds, rng.randint(1, 4))
        if form == STANDARD
        else random_special_complete(rng, form)
    )
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        add_random_tile(rng, counts, near=remove_random_tile(rng, counts))
    jokers = rng.randint(0, min(max_jokers, sum(counts) - 1))
    for _ in range(jokers):
        remove_random_tile(rng, counts)
    if complete_size is None:
        complete_size = rng.random() < 0.6
    if not complete_size:
        if jokers and rng.random() < 0.3:
            jokers -= 1
        else:
            remove_random_tile(rng, counts)
    mask = random_joker_mask(rng) if joker_mask is None else joker_mask
    return Case(counts, jokers, melds, form, mask, note="near-complete")


def random_case(
    rng: random.Random,
    *,
    forms: int,
    melds: int = 0,
    max_jokers: int = 4,
    joker_mask: int | None = None,
    complete_size: bool | None = None,
) -> Case:
    """A random deal of the right size, with 0..max_jokers jokers; tiles sometimes from one or two suits."""
    if complete_size is None:
        complete_size = rng.random() < 0.5
    size = concealed_size(melds, complete_size)
    jokers = rng.randint(0, min(max_jokers, size))
    kinds: list[int] | range = range(NUM_KINDS)
    if rng.random() < 0.3:  # flush-like deals reach the long chow chains and many readings
        kinds = [k for base in rng.sample([0, 9, 18], rng.randint(1, 2)) for k in range(base, base + 9)]
    elif rng.random() < 0.2:
        kinds = list(TERMINAL_HONOR_KINDS)
    counts = random_counts(rng, size - jokers, kinds)
    mask = random_joker_mask(rng) if joker_mask is None else joker_mask
    return Case(counts, jokers, melds, forms, mask, note="random")


def mixed_cases(rng: random.Random, count: int, *, max_jokers: int = 4) -> list[Case]:
    """Random and near-complete cases over every form, form combinations, melds 0..4 and both sizes."""
    cases = []
    for i in range(count):
        if i % 3 == 0:
            melds = rng.randint(0, 4)
            cases.append(random_case(rng, forms=STANDARD, melds=melds, max_jokers=max_jokers))
        elif i % 3 == 1:
            form = rng.choice((STANDARD, STANDARD, *SPECIAL_FORMS))
            melds = rng.randint(0, 4) if form == STANDARD else 0
            case = near_complete_case(rng, form=form, melds=melds, max_jokers=max_jokers)
            if melds == 0 and rng.random() < 0.4:
                case.forms |= rng.choice((STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS, 63))
            cases.append(case)
        else:
            forms = rng.randint(1, 63)
            cases.append(random_case(rng, forms=forms, melds=0, max_jokers=max_jokers))
    return cases
