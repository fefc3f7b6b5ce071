"""``hupai.discard_options``: one core call per turn for shanten-driven play, checked against shanten/waits."""

from __future__ import annotations

import random

import hupai
import numpy as np
import pytest
from hupai import Forms

FORMS = [Forms.STANDARD, Forms.STANDARD | Forms.SEVEN_PAIRS | Forms.THIRTEEN_ORPHANS]


def _random_hand(rng: random.Random, size: int) -> np.ndarray:
    wall = [k for k in range(34) for _ in range(4)]
    counts = np.zeros(34, np.uint8)
    for kind in rng.sample(wall, size):
        counts[kind] += 1
    return counts


@pytest.mark.parametrize("forms", FORMS)
def test_discard_options_match_shanten_of_every_discard_and_draw(forms: Forms) -> None:
    """For each held kind: the shanten after discarding it, and exactly the draws that then lower it."""
    rng = random.Random(11)
    for _ in range(60):
        jokers = rng.choice([0, 0, 1, 2])
        hand = _random_hand(rng, 14 - jokers)
        options = hupai.discard_options(hand, jokers=jokers, forms=forms)
        assert [o.kind for o in options] == [int(k) for k in np.flatnonzero(hand)]
        for option in options:
            after = hand.copy()
            after[option.kind] -= 1
            expected = hupai.shanten(after, jokers=jokers, forms=forms)
            assert option.shanten == expected
            improving = []
            for draw in range(34):
                if after[draw] >= 4:
                    continue
                after[draw] += 1
                if hupai.shanten(after, jokers=jokers, forms=forms) < expected:
                    improving.append(draw)
                after[draw] -= 1
            assert list(option.improving) == improving
            assert option.copies == sum(4 - int(hand[draw]) for draw in improving)


@pytest.mark.parametrize("forms", [Forms.STANDARD | Forms.THIRTEEN_ORPHANS, Forms.STANDARD | Forms.SEVEN_PAIRS_QUADS,
                                   Forms.SEVEN_PAIRS | Forms.KNITTED, Forms(63)])
@pytest.mark.parametrize("melds", [0, 1, 3])
def test_every_draw_after_every_discard_is_judged_as_shanten_judges_it(forms: Forms, melds: int) -> None:
    """The core judges the draws after a discard from the other groups combined once (StandardPartials): the
    improving draws must be exactly those that lower ``hupai.shanten``, with exposed melds and jokers too
    (any kind, or only some: the slow path)."""
    if melds and not forms & Forms.STANDARD:
        pytest.skip("the concealed-only forms need melds == 0")
    rng = random.Random(melds * 97 + int(forms))
    for _ in range(40):
        jokers = rng.choice([0, 0, 0, 1, 2])
        joker_kinds = rng.choice([None, None, [0, 9, 18, 27, 31]]) if jokers else None
        size = 14 - 3 * melds - jokers
        hand = _random_hand(rng, size)
        options = hupai.discard_options(hand, jokers=jokers, melds=melds, forms=forms, joker_kinds=joker_kinds)
        for option in options:
            after = hand.copy()
            after[option.kind] -= 1
            base = hupai.shanten(after, jokers=jokers, melds=melds, forms=forms, joker_kinds=joker_kinds)
            assert option.shanten == base
            improving = []
            for draw in np.flatnonzero(after < 4):
                after[draw] += 1
                if hupai.shanten(after, jokers=jokers, melds=melds, forms=forms, joker_kinds=joker_kinds) < base:
                    improving.append(int(draw))
                after[draw] -= 1
            assert list(option.improving) == improving, (hand.tolist(), option.kind)


def test_discard_options_of_a_ready_shape_are_its_waits() -> None:
    """Discarding to a ready hand: the improving draws are exactly the waits."""
    options = {o.kind: o for o in hupai.discard_options("123m456p789s1122z3z")}
    assert options[29].shanten == 0
    assert list(options[29].improving) == hupai.waits("123m456p789s1122z")
    assert options[29].copies == 4  # two of each wait are in the hand


def test_discard_options_reject_a_waiting_hand() -> None:
    with pytest.raises(hupai.InvalidHand, match="14 concealed tiles"):
        hupai.discard_options("123m456p789s1122z")


@pytest.mark.parametrize("forms", FORMS)
def test_discard_scores_pack_discard_analysis(forms: Forms) -> None:
    """``_core.discard_scores`` (what GreedyBot ranks by) is discard_analysis packed as copies - 256 * shanten,
    one int per kind, -2**20 for a kind not held."""
    from hupai import _core
    rng = random.Random(12)
    for _ in range(60):
        hand = _random_hand(rng, 14)
        scores = _core.discard_scores(bytes(hand), 0, 0, int(forms), None)
        expected = [-(1 << 20)] * 34
        for kind, after, _, copies in _core.discard_analysis(hand, 0, 0, int(forms), None):
            expected[kind] = copies - 256 * after
        assert list(scores) == expected
