"""``hupai.decompositions`` against the reference: the same set of distinct readings, no duplicates.

A reading is a multiset of groups ``(type, tiles with stand-ins, kinds the jokers stand for)``. The reference
enumerates them by a recursive split (standard, seven pairs) or from explicit targets (orphans, knitted).
Terminals-honors has no structure, so the core returns one reading, which is only checked for validity.
"""

from __future__ import annotations

import random

import handgen
import hupai
import pytest
import reference as ref
import reference_readings as ref_readings
from corecalls import core_readings, first_failures
from handgen import SPECIAL_FORMS, Case
from reference import SEVEN_PAIRS, SEVEN_PAIRS_QUADS, STANDARD, TERMINALS_HONORS, THIRTEEN_ORPHANS


def _decomposition_failures(cases: list[Case]) -> tuple[list[str], int]:
    """Compare readings case by case; returns (failures, how many cases were complete)."""
    failures = []
    complete = 0
    for case in cases:
        got = core_readings(case, case.forms)
        expected = ref_readings.ref_decompositions(
            case.counts, case.jokers, case.melds, case.forms, case.joker_mask
        )
        structured = [r for r in got if r[0] != TERMINALS_HONORS]
        terminals = [r for r in got if r[0] == TERMINALS_HONORS]
        complete += bool(got)
        if len(structured) != len(set(structured)):
            failures.append(f"{case}: duplicate readings in {structured}")
        if set(structured) != expected:
            failures.append(
                f"{case}: core-only {set(structured) - expected}, reference-only {expected - set(structured)}"
            )
        if case.forms & TERMINALS_HONORS and case.melds == 0:
            th_complete = ref.ref_is_win(case.counts, case.jokers, 0, TERMINALS_HONORS, case.joker_mask)
            if len(terminals) != int(th_complete):
                failures.append(f"{case}: {len(terminals)} terminals-honors readings, complete={th_complete}")
            for _, groups in terminals:
                if complaint := ref_readings.check_terminals_honors_reading(
                    case.counts, case.jokers, case.joker_mask, groups
                ):
                    failures.append(f"{case}: bad terminals-honors reading {groups}: {complaint}")
        elif terminals:
            failures.append(f"{case}: terminals-honors readings although the form does not apply")
    return failures, complete


def _complete_size(case: Case) -> Case:
    """Bring a case to the complete (3n+2) size by adding a tile, as decompositions needs."""
    while not ref.is_complete_size(case.counts, case.jokers, case.melds):
        handgen.add_random_tile(random.Random(sum(case.counts) * 7919 + case.jokers), case.counts)
    return case


@pytest.mark.parametrize("seed", range(4))
def test_standard_readings_match_reference(seed: int) -> None:
    """Standard form, melds 0..4, 0..4 jokers, masks: the same distinct readings as the reference."""
    rng = random.Random(5000 + seed)
    cases = []
    for _ in range(250):
        melds = rng.randint(0, 4)
        case = handgen.near_complete_case(rng, form=STANDARD, melds=melds, complete_size=True)
        if rng.random() < 0.5:  # an unperturbed complete hand in 1-2 suits (many readings), tiles -> jokers
            case.counts = handgen.random_standard_complete(rng, melds, rng.randint(1, 2))
            for _ in range(case.jokers):
                handgen.remove_random_tile(rng, case.counts)
        cases.append(case)
    failures, complete = _decomposition_failures(cases)
    assert not failures, first_failures(failures)
    assert complete > 100


@pytest.mark.parametrize("form", SPECIAL_FORMS)
def test_special_form_readings_match_reference(form: int) -> None:
    """Each special form (alone or with STANDARD), 0..4 jokers, masks: same readings as reference."""
    rng = random.Random(6000 + form)
    cases = []
    for i in range(150):
        case = handgen.near_complete_case(rng, form=form, complete_size=True)
        if i % 2:
            case.forms |= STANDARD | (SEVEN_PAIRS if form == SEVEN_PAIRS_QUADS else 0)
        cases.append(case)
    failures, complete = _decomposition_failures(cases)
    assert not failures, first_failures(failures)
    assert complete > 20


def test_mixed_form_combinations_readings_match_reference() -> None:
    """Random hands and form combinations: readings of every enabled form, tagged with the form."""
    rng = random.Random(7000)
    cases = [_complete_size(c) for c in handgen.mixed_cases(rng, 300) if c.melds == 0 or c.forms & STANDARD]
    failures, _ = _decomposition_failures(cases)
    assert not failures, first_failures(failures)


def test_incomplete_hand_has_no_readings() -> None:
    """A 3n+2 hand that is not complete decomposes into nothing (not an exception)."""
    assert hupai.decompositions(hupai.to_counts("1234m456p789s1357z"), forms=STANDARD) == []


def test_readings_of_known_hands() -> None:
    """Worked examples: pungs vs chows; a joker as any of 13 orphans; two jokers as any pair."""
    pure_straight = Case(hupai.to_counts("11122233344455m").tolist())
    assert len(core_readings(pure_straight, STANDARD)) == len(
        ref_readings.ref_decompositions(pure_straight.counts)
    )
    orphans = Case(hupai.to_counts("19m19p19s1234567z").tolist(), jokers=1, forms=THIRTEEN_ORPHANS)
    assert len(core_readings(orphans, THIRTEEN_ORPHANS)) == 13
    only_jokers = Case([0] * 34, jokers=2, melds=4)
    assert sorted(core_readings(only_jokers, STANDARD)) == sorted(
        (STANDARD, (("pair", (k, k), (k, k)),)) for k in range(34)
    )


def test_more_than_four_jokers_rejected() -> None:
    """decompositions accepts at most 4 jokers (the reading count explodes beyond)."""
    with pytest.raises(hupai.InvalidHand):
        hupai.decompositions(hupai.to_counts("123m456p789s"), jokers=5, forms=STANDARD)
