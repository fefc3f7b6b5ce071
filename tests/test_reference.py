"""The reference implementation checked on its own, before it is trusted to judge the core.

It must agree with the ``mahjong`` package (joker-free standard, seven pairs, thirteen orphans), with a
brute-force joker substitution (win detection with jokers and joker masks), with hand-worked examples, and its
two table computations (lattice DP and explicit target list) must agree with each other. None of this needs
``hupai._core``.
"""

from __future__ import annotations

import random
from collections import Counter

import handgen
import pytest
import reference as ref
import reference_readings as ref_readings
from mahjong.shanten import Shanten
from reference import (
    ALL_KINDS_MASK,
    KNITTED,
    SEVEN_PAIRS,
    SEVEN_PAIRS_QUADS,
    STANDARD,
    TERMINALS_HONORS,
    THIRTEEN_ORPHANS,
    kinds_to_mask,
)


def counts_of(text: str) -> list[int]:
    """Tiny ASCII parser for the examples (independent of hupai.tiles)."""
    counts = [0] * 34
    digits: list[int] = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            for d in digits:
                counts["mpsz".index(ch) * 9 + d - 1] += 1
            digits = []
    return counts


@pytest.mark.parametrize("seed", range(2))
def test_reference_matches_mahjong_package_joker_free(seed: int) -> None:
    """Joker-free 13/14-tile hands: reference shanten == mahjong's regular / chiitoitsu / kokushi shanten."""
    rng = random.Random(seed)
    calculator = Shanten()
    mismatches = []
    for i in range(500):
        if i % 2:
            counts = handgen.random_counts(rng, rng.choice((13, 14)))
        else:
            form = rng.choice((STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS))
            counts = handgen.near_complete_case(rng, form=form, max_jokers=0).counts
        for form, theirs in (
            (STANDARD, calculator.calculate_shanten_for_regular_hand),
            (SEVEN_PAIRS, calculator.calculate_shanten_for_chiitoitsu_hand),
            (THIRTEEN_ORPHANS, calculator.calculate_shanten_for_kokushi_hand),
        ):
            if ref.ref_shanten(counts, forms=form) != theirs(counts):
                mismatches.append((form, counts))
    assert not mismatches


@pytest.mark.parametrize("seed", range(3))
def test_reference_win_matches_brute_force_joker_substitution(seed: int) -> None:
    """Win detection from targets == trying every stand-in multiset (0..2 jokers, masks, all forms, melds)."""
    rng = random.Random(100 + seed)
    checked = wins = 0
    for case in handgen.mixed_cases(rng, 600, max_jokers=2):
        if not ref.is_complete_size(case.counts, case.jokers, case.melds):
            continue
        expected = ref.brute_is_win(case.counts, case.jokers, case.melds, case.forms, case.joker_mask)
        assert (
            ref.ref_is_win(case.counts, case.jokers, case.melds, case.forms, case.joker_mask) == expected
        ), case
        checked += 1
        wins += expected
    assert checked > 200 and wins > 20  # the sample really holds complete hands


@pytest.mark.parametrize("seed", range(2))
def test_reference_ready_iff_some_draw_wins_by_brute_force(seed: int) -> None:
    """A 3n+1 hand has shanten 0 exactly when some drawn kind makes it a brute-force win (0..1 jokers)."""
    rng = random.Random(200 + seed)
    ready = 0
    for case in handgen.mixed_cases(rng, 300, max_jokers=1):
        if ref.is_complete_size(case.counts, case.jokers, case.melds):
            continue
        args = (case.jokers, case.melds, case.forms, case.joker_mask)
        draws_win = []
        for kind in range(34):
            if case.counts[kind] < 4:
                case.counts[kind] += 1
                draws_win.append(ref.brute_is_win(case.counts, *args))
                case.counts[kind] -= 1
        shanten = ref.ref_shanten(case.counts, *args)
        assert shanten >= 0 and (shanten == 0) == any(draws_win), case
        ready += shanten == 0
    assert ready > 10


def test_lattice_tables_match_explicit_target_minimum() -> None:
    """Lattice-DP table entries == min over the explicit target list (random suit/honor patterns)."""
    rng = random.Random(3)
    for _ in range(150):
        suit = [rng.randint(0, 4) for _ in range(9)]
        honors = [rng.randint(0, 4) for _ in range(7)]
        assert ref.ref_suit_entry(suit) == ref.slow_part_entry(suit), suit
        assert ref.ref_honor_entry(honors) == ref.slow_part_entry(honors), honors


def test_table_entries_hand_worked() -> None:
    """A few suit/honor entries worked out by hand (index m + 5p)."""
    assert ref.ref_suit_entry([0] * 9) == [0, 3, 6, 9, 12, 2, 5, 8, 11, 14]
    assert ref.ref_suit_entry([1, 1, 1, 0, 0, 0, 0, 0, 0])[1] == 0  # 123 is a chow
    assert ref.ref_suit_entry([4, 0, 0, 0, 0, 0, 0, 0, 0])[1 + 5] == 2  # 1111 -> 111 + a pair of another kind
    assert ref.ref_honor_entry([3, 0, 0, 0, 0, 0, 0])[1] == 0
    assert ref.ref_honor_entry([1, 1, 1, 0, 0, 0, 0])[1] == 2  # honors make no chows
    assert (
        ref.ref_honor_entry([4, 0, 0, 0, 0, 0, 0])[1 + 5] == 2
    )  # pung and pair of one honor would be 5 tiles


def test_knitted_suit_subsets_are_the_41_spaced_sets() -> None:
    """0 + 9 + 21 + 10 subsets of 1..9 with numbers pairwise >= 3 apart (147, 258, 369, 148, 159, ...)."""
    sizes = Counter(len(s) for s in ref.knitted_suit_subsets())
    assert sizes == {0: 1, 1: 9, 2: 21, 3: 10}
    assert (0, 3, 6) in ref.knitted_suit_subsets() and (0, 3, 7) in ref.knitted_suit_subsets()
    assert (0, 2, 5) not in ref.knitted_suit_subsets()


HAND_WORKED = [
    # (hand, jokers, melds, forms, joker kinds or None, shanten, waits or None)
    ("1112345678999m", 0, 0, STANDARD, None, 0, list(range(9))),  # nine gates waits on every 万
    ("19m19p19s1234567z", 0, 0, THIRTEEN_ORPHANS, None, 0, list(ref.TERMINAL_HONOR_KINDS)),
    ("1111m234p567s789s", 0, 0, STANDARD, None, 1, []),  # only a fifth 1m would complete it
    ("1111m2233p4455s66z", 0, 0, SEVEN_PAIRS, None, 1, None),  # a quad is one pair
    ("1111m2233p4455s66z", 0, 0, SEVEN_PAIRS_QUADS, None, -1, None),
    ("147m258p369s12345z", 0, 0, KNITTED, None, -1, None),
    ("147m258p36s12345z", 0, 0, KNITTED, None, 0, [26, 32, 33]),
    ("19m19p99s11122233z", 0, 0, TERMINALS_HONORS, None, -1, None),
    ("1m", 1, 4, STANDARD, None, -1, None),
    ("1m", 1, 4, STANDARD, range(27, 34), 0, None),  # the joker may only be an honor: no pair with 1m
]


@pytest.mark.parametrize("hand, jokers, melds, forms, joker_kinds, shanten, waits", HAND_WORKED)
def test_reference_hand_worked_examples(
    hand: str, jokers: int, melds: int, forms: int, joker_kinds, shanten: int, waits: list[int] | None
) -> None:
    """Classic hands: nine gates, 13-sided orphans, fifth-tile rule, quads in seven pairs, knitted."""
    mask = ALL_KINDS_MASK if joker_kinds is None else kinds_to_mask(joker_kinds)
    counts = counts_of(hand)
    assert ref.ref_shanten(counts, jokers, melds, forms, mask) == shanten
    if waits is not None:
        assert ref.ref_waits(counts, jokers, melds, forms, mask) == waits


def test_reference_decompositions_rebuild_the_hand_and_exist_iff_complete() -> None:
    """Readings use exactly the hand's tiles and jokers, and exist iff the hand is complete."""
    rng = random.Random(11)
    complete = 0
    for case in handgen.mixed_cases(rng, 900, max_jokers=4):
        if not ref.is_complete_size(case.counts, case.jokers, case.melds):
            continue
        structured = case.forms & ~TERMINALS_HONORS
        if not structured or (case.melds and not structured & STANDARD):
            continue
        readings = ref_readings.ref_decompositions(
            case.counts, case.jokers, case.melds, structured, case.joker_mask
        )
        assert bool(readings) == ref.ref_is_win(
            case.counts, case.jokers, case.melds, structured, case.joker_mask
        ), case
        complete += bool(readings)
        for _form, groups in readings:
            tiles = Counter(k for g in groups for k in g[1])
            stand_ins = Counter(k for g in groups for k in g[2])
            assert [(tiles - stand_ins)[k] for k in range(34)] == case.counts, case
            assert sum(stand_ins.values()) == case.jokers and all(case.joker_mask >> k & 1 for k in stand_ins)
            assert max(tiles.values()) <= 4
    assert complete > 50


def test_reference_decompositions_known_counts() -> None:
    """111222333m: three pungs or three chows; one joker completing 11m+... has the expected readings."""
    readings = {
        groups for _, groups in ref_readings.ref_decompositions(counts_of("11122233344455m"), 0, 0, STANDARD)
    }

    def reading(*groups: tuple[str, tuple[int, ...]]) -> tuple:
        return tuple(sorted((kind, tiles, ()) for kind, tiles in groups))

    pungs = reading(
        ("pung", (0, 0, 0)), ("pung", (1, 1, 1)), ("pung", (2, 2, 2)), ("pung", (3, 3, 3)), ("pair", (4, 4))
    )
    chows = reading(*[("chow", (0, 1, 2))] * 3, ("pung", (3, 3, 3)), ("pair", (4, 4)))
    high_chows = reading(("pung", (0, 0, 0)), *[("chow", (1, 2, 3))] * 3, ("pair", (4, 4)))
    assert {pungs, chows, high_chows} <= readings
    single = ref_readings.ref_decompositions(counts_of("1m"), 1, 4, STANDARD)
    assert single == {(STANDARD, (("pair", (0, 0), (0,)),))}
    two_jokers = ref_readings.ref_decompositions([0] * 34, 2, 4, STANDARD)
    assert len(two_jokers) == 34  # a pair of any kind
    orphans = ref_readings.ref_decompositions(counts_of("19m19p19s1234567z"), 1, 0, THIRTEEN_ORPHANS)
    assert len(orphans) == 13  # the joker pairs with any one of the 13 orphans
