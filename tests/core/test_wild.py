"""``hupai.analysis.fits_with_jokers`` (the C++ wild-tile search) against the slow reference.

The room vector is what makes this search different from ``is_win``: a joker may stand for kind ``k`` only
``room[k]`` times (Yunxiao's fifth-copy rule YX-8 / YX-21 counts the declared melds, and 清一色 zeroes the other
suits, YX-36). Cases: every one-suit hand of five tiles (jokers included) with several rooms, seven-pairs
questions, melds-only questions (the 游 shape), and random hands of 14 tiles from complete hands with tiles
turned into jokers and random room.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hupai import InvalidHand
from hupai.analysis import fits_with_jokers
from hupai.tiles import to_counts
from reference_wild import NUM_KINDS, ref_fits_with_jokers

FULL = [4] * NUM_KINDS


def _check(counts: list[int], jokers: int, sets: int, pairs: int, room: list[int]) -> str | None:
    expected = ref_fits_with_jokers(counts, jokers, sets, pairs, room)
    got = fits_with_jokers(counts, jokers, sets, pairs, room)
    if got != expected:
        return f"counts={counts} jokers={jokers} sets={sets} pairs={pairs} room={room}: core {got}, ref {expected}"
    return None


def _room_like_a_rule(rng: random.Random, counts: list[int], jokers: int) -> list[int]:
    """Four less the natural tiles, less some declared tiles, some kinds or a whole suit closed (YX-8, YX-36).

    With three or more jokers the room is kept to a suit or a dozen kinds: the reference tries every multiset
    of stand-ins, and that keeps it to a few hundred per question.
    """
    room = [4 - count for count in counts]
    choice = rng.randrange(4) if jokers < 3 else rng.choice((2, 4))
    if choice == 1:
        for kind in rng.sample(range(NUM_KINDS), 8):
            room[kind] = max(0, room[kind] - rng.randrange(1, 4))
    elif choice == 2:
        suit = rng.randrange(4)
        room = [r if kind // 9 == suit else 0 for kind, r in enumerate(room)]
    elif choice == 3:
        room = [rng.randrange(3) for _ in range(NUM_KINDS)]
    elif choice == 4:
        open_kinds = set(rng.sample(range(NUM_KINDS), 12))
        room = [r if kind in open_kinds else 0 for kind, r in enumerate(room)]
    return room


def test_yx_8_every_one_suit_hand_of_five_tiles() -> None:
    """Exhaustive: every 2..5 natural tiles of 1..9m plus jokers to five, as one meld and a pair, three rooms."""
    failures = []
    rooms = ([4] * NUM_KINDS, [1] * NUM_KINDS, [k % 3 for k in range(NUM_KINDS)])
    for natural in range(2, 6):
        for kinds in itertools.combinations_with_replacement(range(9), natural):
            counts = [0] * NUM_KINDS
            for kind in kinds:
                counts[kind] += 1
            if max(counts) > 4:
                continue
            for room in rooms:
                failures.append(_check(counts, 5 - natural, 1, 1, room))
    failures = [f for f in failures if f]
    assert not failures, failures[:5]


@pytest.mark.parametrize("seed", range(3))
def test_yx_8_random_hands_match_reference(seed: int) -> None:
    """Random 14-tile questions: complete hands with tiles turned into jokers, others perturbed; 0..4 declared."""
    rng = random.Random(seed)
    failures = []
    for _ in range(200):
        melds = rng.randrange(5)
        sets = 4 - melds
        counts = [0] * NUM_KINDS
        groups = [("pair", rng.randrange(NUM_KINDS))]
        for _ in range(sets):
            start = rng.randrange(27)
            groups.append(("chow", start - start % 9 + min(start % 9, 6)) if rng.random() < 0.5
                          else ("pung", rng.randrange(NUM_KINDS)))
        tiles = []
        for shape, kind in groups:
            tiles += [kind, kind] if shape == "pair" else [kind] * 3 if shape == "pung" else [kind, kind + 1, kind + 2]
        if rng.random() < 0.3:  # not complete any more, most of the time
            tiles[rng.randrange(len(tiles))] = rng.randrange(NUM_KINDS)
        jokers = min(rng.randrange(5), len(tiles))
        rng.shuffle(tiles)
        for kind in tiles[jokers:]:
            counts[kind] += 1
        if max(counts) > 4:
            continue
        room = _room_like_a_rule(rng, counts, jokers)
        failures.append(_check(counts, jokers, sets, 1, room))
        if jokers:  # the 游 shape: one gold set aside, the rest as melds only (YX-25)
            failures.append(_check(counts, jokers - 1, sets, 0, room))
    failures = [f for f in failures if f]
    assert not failures, failures[:5]


@pytest.mark.parametrize("seed", range(2))
def test_yx_33_seven_pairs_four_alike_are_two_pairs(seed: int) -> None:
    """Seven pairs (and the six pairs of a concealed 游 shape): any 14 - jokers tiles, 0..4 jokers."""
    rng = random.Random(100 + seed)
    failures = []
    for _ in range(200):
        jokers = rng.randrange(5)
        pool = [kind for kind in range(NUM_KINDS) for _ in range(4)]
        counts = [0] * NUM_KINDS
        chosen = rng.sample(range(NUM_KINDS), 5)
        for kind in rng.sample(pool, 14 - jokers) if rng.random() < 0.3 else \
                [rng.choice(chosen) for _ in range(14 - jokers)]:
            counts[kind] += 1
        if max(counts) > 4:
            continue
        room = _room_like_a_rule(rng, counts, jokers)
        failures.append(_check(counts, jokers, 0, 7, room))
    failures = [f for f in failures if f]
    assert not failures, failures[:5]
    assert fits_with_jokers(to_counts("11112233445566m"), 0, 0, 7, FULL)


def test_yx_8_room_limits_what_a_joker_stands_for() -> None:
    """YX-8: 99s and a joker make 999s only while 9s has room (a declared 9s would take it)."""
    counts = to_counts("99s123m")
    room = list(FULL)
    assert fits_with_jokers(counts, 1, 2, 0, room)
    room[26] = 0
    assert not fits_with_jokers(counts, 1, 2, 0, room)
    # Jokers alone: a pair needs a kind with room 2, a pung room 3, a chow three neighbours with room.
    nothing = [0] * NUM_KINDS
    assert not fits_with_jokers(nothing, 2, 0, 1, [1] * NUM_KINDS)
    assert fits_with_jokers(nothing, 3, 1, 0, [1] * NUM_KINDS)  # a chow of three kinds
    assert not fits_with_jokers(nothing, 3, 1, 0, [1 if kind >= 27 else 0 for kind in range(NUM_KINDS)])


def test_inputs_are_plain_data_and_checked() -> None:
    counts = to_counts("123m456p789s11122z")
    assert fits_with_jokers(bytes(counts), 0, 4, 1, bytes(FULL))
    assert fits_with_jokers(counts, 0, 4, 1, np.full(NUM_KINDS, 4, dtype=np.uint8))
    assert fits_with_jokers(list(counts), 0, 4, 1, tuple(FULL))
    assert not fits_with_jokers(counts, 1, 4, 1, FULL)  # 15 tiles for 14 places
    with pytest.raises(InvalidHand, match="room must be 34"):
        fits_with_jokers(counts, 0, 4, 1, [4] * 33)
    with pytest.raises(InvalidHand, match="0..255"):
        fits_with_jokers(counts, 0, 4, 1, [-1] * NUM_KINDS)
    with pytest.raises(InvalidHand, match="only four"):
        fits_with_jokers([5] + [0] * 33, 0, 1, 1, FULL)
    with pytest.raises(InvalidHand, match="sets must be"):
        fits_with_jokers(counts, 0, 5, 0, FULL)
    with pytest.raises(InvalidHand, match="more than 14"):
        fits_with_jokers(counts, 0, 4, 2, FULL)
    with pytest.raises(InvalidHand, match="jokers must be"):
        fits_with_jokers(counts, -1, 4, 1, FULL)
    with pytest.raises(InvalidHand, match="jokers must be an int"):
        fits_with_jokers(counts, True, 4, 1, FULL)  # type: ignore[arg-type]
