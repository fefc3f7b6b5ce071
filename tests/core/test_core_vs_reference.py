"""The C++ core against the slow reference: shanten, is_win and waits on thousands of hands.

Hands are random deals (some flush-like or terminal-heavy) and near-complete hands (a complete hand of some
form, then tile swaps, tiles turned into jokers, a tile dropped), with 0..8 jokers, random / suit-only / honor
/ terminal-honor joker masks, every form and random form combinations, melds 0..4, and both 3n+1 and 3n+2
sizes.
"""

from __future__ import annotations

import random

import handgen
import hupai
import pytest
import reference as ref
from corecalls import core_is_win, core_shanten, core_waits, first_failures
from handgen import SPECIAL_FORMS, Case
from reference import STANDARD


def _shanten_and_win_failures(cases: list[Case]) -> list[str]:
    failures = []
    for case in cases:
        expected = ref.ref_shanten(case.counts, case.jokers, case.melds, case.forms, case.joker_mask)
        got = core_shanten(case)
        # is_win takes complete-size (3n+2) hands only; a 3n+1 hand is rejected (see test below).
        won = core_is_win(case) if ref.is_complete_size(case.counts, case.jokers, case.melds) else False
        if got != expected or won != (expected == -1):
            failures.append(f"{case}: core shanten {got} is_win {won}, reference shanten {expected}")
    return failures


@pytest.mark.parametrize("seed", range(6))
def test_shanten_and_is_win_match_reference_on_mixed_hands(seed: int) -> None:
    """Mixed random/near-complete hands, all forms, 0..4 jokers, masks: same shanten and win."""
    cases = handgen.mixed_cases(random.Random(seed), 400)
    assert not (failures := _shanten_and_win_failures(cases)), first_failures(failures)


@pytest.mark.parametrize("melds", range(5))
def test_standard_with_exposed_melds_matches_reference(melds: int) -> None:
    """melds 0..4 set aside: the concealed part needs 4 - melds melds and a pair."""
    rng = random.Random(1000 + melds)
    cases = [handgen.random_case(rng, forms=STANDARD, melds=melds) for _ in range(150)]
    cases += [handgen.near_complete_case(rng, form=STANDARD, melds=melds) for _ in range(150)]
    assert not (failures := _shanten_and_win_failures(cases)), first_failures(failures)


@pytest.mark.parametrize("form", SPECIAL_FORMS)
def test_each_special_form_alone_matches_reference(form: int) -> None:
    """Seven pairs (quad = one pair), with quads, orphans, knitted, terminals-honors, each alone."""
    rng = random.Random(2000 + form)
    cases = [handgen.near_complete_case(rng, form=form) for _ in range(250)]
    cases += [handgen.random_case(rng, forms=form) for _ in range(100)]
    assert not (failures := _shanten_and_win_failures(cases)), first_failures(failures)


def test_many_jokers_match_reference() -> None:
    """5..8 jokers (shanten accepts up to 8), with every joker-mask shape and form combination."""
    rng = random.Random(3000)
    cases = []
    for _ in range(300):
        case = handgen.random_case(rng, forms=rng.randint(1, 63), melds=0, max_jokers=8)
        extra = min(rng.randint(5, 8) - case.jokers, sum(case.counts))
        for _ in range(max(0, extra)):
            handgen.remove_random_tile(rng, case.counts)
            case.jokers += 1
        cases.append(case)
    assert not (failures := _shanten_and_win_failures(cases)), first_failures(failures)


@pytest.mark.parametrize("seed", range(3))
def test_waits_match_reference(seed: int) -> None:
    """waits(3n+1 hand) == kinds k held < 4 times with hand + k complete (reference), with jokers."""
    rng = random.Random(4000 + seed)
    failures = []
    checked = with_waits = 0
    while checked < 40:
        case = (
            handgen.mixed_cases(rng, 1)[0]
            if rng.random() < 0.5
            else handgen.near_complete_case(
                rng, form=rng.choice((STANDARD, *SPECIAL_FORMS)), complete_size=False
            )
        )
        if ref.is_complete_size(case.counts, case.jokers, case.melds):
            continue
        checked += 1
        expected = ref.ref_waits(case.counts, case.jokers, case.melds, case.forms, case.joker_mask)
        with_waits += bool(expected)
        if (got := core_waits(case)) != expected:
            failures.append(f"{case}: core waits {got}, reference {expected}")
    assert not failures, first_failures(failures)
    assert with_waits > 8  # the sample must contain ready hands for this to prove anything


FIFTH_TILE_HANDS = [
    # (hand, exposed melds, forms, waits): each would "wait" on a fifth copy of a kind it holds four of.
    ("1111m234p567s789s", 0, STANDARD, []),
    ("1111m", 3, STANDARD, []),
    ("1111m2233p4455s6z", 0, hupai.Forms.SEVEN_PAIRS, []),  # a quad is one pair: 5 pairs + 6z
    ("1111m2233p4455s6z", 0, hupai.Forms.SEVEN_PAIRS_QUADS, [32]),  # the quad is two pairs: waits on 6z only
    ("1112223334444m", 0, STANDARD, [0, 1, 2, 4]),  # 4444m is no wait on 4m, but 1m 2m 3m 5m complete it
]


@pytest.mark.parametrize("hand, melds, forms, waits", FIFTH_TILE_HANDS)
def test_no_wait_on_a_kind_held_four_times(hand: str, melds: int, forms: int, waits: list[int]) -> None:
    """A kind the hand already holds four of is never a wait, whatever the form."""
    counts = hupai.to_counts(hand)
    assert ref.ref_waits(counts.tolist(), 0, melds, int(forms)) == waits  # the expectation itself is right
    assert hupai.waits(counts, melds=melds, forms=forms) == waits


def test_special_form_without_concealed_hand_raises() -> None:
    """Special forms need melds == 0: if no enabled form applies to the hand, the core raises InvalidHand."""
    counts = hupai.to_counts("1122m3344p55s6z")  # 11 tiles = one exposed meld
    with pytest.raises(hupai.InvalidHand):
        hupai.shanten(counts, melds=1, forms=hupai.Forms.SEVEN_PAIRS)
    with pytest.raises(hupai.InvalidHand):
        hupai.is_win(counts, melds=1, forms=hupai.Forms.THIRTEEN_ORPHANS | hupai.Forms.KNITTED)
    # With STANDARD enabled too, the standard form applies and the special ones are simply not considered.
    expected = ref.ref_shanten(counts.tolist(), 0, 1, STANDARD)
    assert hupai.shanten(counts, melds=1, forms=hupai.Forms.STANDARD | hupai.Forms.SEVEN_PAIRS) == expected


def test_is_win_rejects_a_waiting_size_hand() -> None:
    """is_win wants the complete size (3n+2, jokers included); a 3n+1 hand raises InvalidHand."""
    with pytest.raises(hupai.InvalidHand):
        hupai.is_win(hupai.to_counts("1112345678999m"))
    with pytest.raises(hupai.InvalidHand):
        hupai.is_win(hupai.to_counts("111234567899m"), jokers=1)
