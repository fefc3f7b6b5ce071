"""discard_analysis (what GreedyBot's ``discard_scores`` ranks by) has two ways to judge every draw after every
discard: StandardPartials per discard (variant 0, the portable way) and one pass over every (discard, draw)
pair of the hand (variant 1, ``standard_discard_draws``, SIMD where the CPU has it). They must agree on every
hand: random deals, near-complete hands, every form, exposed melds and jokers, and every 14-tile hand of one
suit and the honors."""

from __future__ import annotations

import gc
import itertools
import random

import numpy as np
import pytest
from handgen import SPECIAL_FORMS, near_complete_case, random_counts
from hupai import _core
from reference import STANDARD

FORM_SETS = [STANDARD, STANDARD | 8, STANDARD | 2, STANDARD | 4, STANDARD | 2 | 8, 63, 2, 8 | 16]


def _both(counts: np.ndarray, jokers: int, melds: int, forms: int, mask: int | None = None) -> None:
    portable = _core.discard_analysis_variant(counts, jokers, melds, forms, mask, 0)
    one_pass = _core.discard_analysis_variant(counts, jokers, melds, forms, mask, 1)
    assert one_pass == portable, (counts.tolist(), jokers, melds, forms, mask)
    assert _core.discard_analysis(counts, jokers, melds, forms, mask) == one_pass


@pytest.mark.parametrize("forms", FORM_SETS)
@pytest.mark.parametrize("melds", [0, 1, 2, 3, 4])
def test_one_pass_agrees_with_partials_on_random_hands(forms: int, melds: int) -> None:
    if melds and not forms & STANDARD:
        pytest.skip("the concealed-only forms need melds == 0")
    rng = random.Random(1000 * melds + forms)
    for _ in range(150):
        jokers = rng.choice([0, 0, 0, 1, 2, 4])
        size = 14 - 3 * melds - jokers
        if size < 1:
            continue
        kinds: range | list[int] = range(34)
        if rng.random() < 0.3:  # one or two suits: long chains, four of a kind, many equal group entries
            kinds = [k for base in rng.sample([0, 9, 18], rng.randint(1, 2)) for k in range(base, base + 9)]
        counts = np.array(random_counts(rng, size, kinds), dtype=np.uint8)
        _both(counts, jokers, melds, forms)


@pytest.mark.parametrize("form", [STANDARD, *SPECIAL_FORMS])
def test_one_pass_agrees_with_partials_near_complete(form: int) -> None:
    """Hands a tile or two from complete in each form (where the other forms are the least: their draws are
    asked one by one), with the standard form always allowed."""
    rng = random.Random(form)
    for _ in range(120):
        melds = rng.randint(0, 4) if form == STANDARD else 0
        case = near_complete_case(rng, form=form, melds=melds, max_jokers=3, joker_mask=None, complete_size=True)
        mask = None if rng.random() < 0.7 else case.joker_mask  # a restricted mask takes the slow path
        _both(case.array(), case.jokers, melds, form | STANDARD, mask)


def test_one_pass_agrees_with_partials_on_every_one_suit_hand() -> None:
    """Every 14-tile hand of 万 alone, and every one of 万 with two honors: four of a kind, draws refused,
    discards that leave equal group entries (whose rows the one pass copies)."""
    for suit in itertools.product(range(5), repeat=9):
        total = sum(suit)
        if total not in (12, 14):
            continue
        counts = np.zeros(34, np.uint8)
        counts[:9] = suit
        if total == 12:
            counts[27] = counts[33] = 1
        portable = _core.discard_analysis_variant(counts, 0, 0, STANDARD, None, 0)
        assert _core.discard_analysis_variant(counts, 0, 0, STANDARD, None, 1) == portable, suit


def test_one_pass_is_what_discard_scores_packs() -> None:
    """``discard_scores`` (GreedyBot's call) packs the one-pass analysis: copies - 256 * shanten per kind."""
    rng = random.Random(7)
    for _ in range(200):
        counts = np.array(random_counts(rng, 14), dtype=np.uint8)
        expected = [-(1 << 20)] * 34
        for kind, after, _, copies in _core.discard_analysis_variant(counts, 0, 0, 9, None, 0):
            expected[kind] = copies - 256 * after
        assert list(_core.discard_scores(bytes(counts), 0, 0, 9, None)) == expected


def test_discard_scores_makes_each_distinct_score_once() -> None:
    """Equal scores are one int object in the tuple (every kind not held, kinds whose discards score alike): most
    scores lie outside CPython's small-int cache, and an int made per kind was a third of GreedyBot's cost of the
    call (issue 30, item 5). The values are the packed analysis still (test above) after many calls."""
    rng = random.Random(11)
    kept = []
    for _ in range(200):
        scores = _core.discard_scores(bytes(np.array(random_counts(rng, 14), dtype=np.uint8)), 0, 0, 9, None)
        firsts: dict[int, int] = {}
        for value in scores:
            assert firsts.setdefault(value, id(value)) == id(value)
        assert len(firsts) < 34 and -(1 << 20) in firsts
        kept.append(scores)
    gc.collect()
    assert all(value == -(1 << 20) or -2304 < value < 512 for scores in kept for value in scores)
    assert sum(value == -(1 << 20) for scores in kept for value in scores) > 200 * 10


def test_discard_scores_refuses_bad_input_with_hupai_errors() -> None:
    """The raw fast call checks what it is given as the other core calls do: InvalidHand, never a crash."""
    import hupai
    hand = bytes(np.array(random_counts(random.Random(3), 14), dtype=np.uint8))
    with pytest.raises(TypeError, match="five positional arguments"):
        _core.discard_scores(hand, 0, 0, 9)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="five positional arguments"):
        _core.discard_scores(hand, 0, 0, 9, joker_kinds=None)  # type: ignore[call-arg]
    with pytest.raises(hupai.InvalidHand, match="14 concealed tiles"):
        _core.discard_scores(hand[:-1] + b"\0", 0, 0, 9, None)
    with pytest.raises(hupai.InvalidHand, match="34 bytes"):
        _core.discard_scores(hand[:33], 0, 0, 9, None)
    with pytest.raises(hupai.InvalidHand, match="melds must be between 0 and 4"):
        _core.discard_scores(hand, 0, 9, 9, None)
    with pytest.raises(hupai.InvalidHand, match="forms"):
        _core.discard_scores(hand, 0, 0, 0, None)
    with pytest.raises(hupai.InvalidHand, match="buffer"):
        _core.discard_scores("123m", 0, 0, 9, None)
    with pytest.raises(hupai.InvalidHand, match="joker_kinds"):
        _core.discard_scores(hand, 1, 0, 9, "all")
