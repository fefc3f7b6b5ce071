"""Issue 23 (API): a hand of 3n+1 or 3n+2 tiles under 13 without ``melds`` has 4-n melds set aside, as the
``mahjong`` package reads it (``hupai.shanten("56m111345677s")``), in shanten, is_win, waits, discard_options
and decompositions; and every analysis function takes the same ``joker_kinds`` forms."""

from __future__ import annotations

import random

import hupai
import numpy as np
import pytest
from hupai.analysis import Forms
from mahjong.shanten import Shanten


def test_the_issue_hand_is_read_with_one_meld_set_aside() -> None:
    assert hupai.shanten("56m111345677s") == hupai.shanten("56m111345677s", melds=1) == 0
    counts = hupai.to_counts("56m111345677s")
    assert hupai.shanten(counts) == 0  # the core's own path (34 counts) infers too
    assert hupai.shanten(bytes(counts)) == 0 and hupai.shanten(list(hupai.parse("56m111345677s"))) == 0
    assert hupai.is_win("456m11134577s") and hupai.is_win(hupai.to_counts("456m11134577s"))
    assert hupai.waits("56m11134577s") == hupai.waits("56m11134577s", melds=1) == [3, 6]
    assert hupai.discard_options("456m11134577s") == hupai.discard_options("456m11134577s", melds=1)
    readings = hupai.decompositions("456m11134577s")
    assert readings and readings == hupai.decompositions("456m11134577s", melds=1)


@pytest.mark.parametrize("size", [1, 2, 4, 5, 7, 8, 10, 11, 13, 14])
def test_every_size_infers_what_melds_would_say(size: int) -> None:
    melds = (14 - size) // 3
    rng = random.Random(size)
    for _ in range(200):
        hand = rng.sample([k for k in range(34) for _ in range(4)], size)
        counts = np.bincount(hand, minlength=34).astype(np.uint8)
        assert hupai.shanten(counts) == hupai.shanten(counts, melds=melds)
        assert hupai.shanten(counts, jokers=0) == hupai.shanten(counts, melds=melds, jokers=0)
        if size % 3 == 2:
            assert hupai.is_win(counts) == hupai.is_win(counts, melds=melds)
            assert hupai.discard_options(counts) == hupai.discard_options(counts, melds=melds)
        else:
            assert hupai.waits(counts) == hupai.waits(counts, melds=melds)


def test_jokers_count_toward_the_size() -> None:
    assert hupai.shanten("56m11134567s", jokers=1) == hupai.shanten("56m11134567s", jokers=1, melds=1)
    assert hupai.is_win("456m1113457s", jokers=1)


def test_agrees_with_the_mahjong_package_on_short_hands() -> None:
    """The mahjong package reads an 11-tile (or 8, 5, 2) hand with its melds set aside: the same shanten."""
    calculator = Shanten()
    rng = random.Random(23)
    for size in (2, 4, 5, 7, 8, 10, 11):
        for _ in range(300):
            hand = rng.sample([k for k in range(34) for _ in range(4)], size)
            counts = np.bincount(hand, minlength=34).astype(np.uint8)
            theirs = calculator.calculate_shanten_for_regular_hand([int(c) for c in counts])
            assert hupai.shanten(counts) == theirs, hand


def test_melds_given_is_used_as_given() -> None:
    with pytest.raises(hupai.InvalidHand, match="0 exposed meld"):
        hupai.shanten("56m111345677s", melds=0)
    with pytest.raises(hupai.InvalidHand, match="0 exposed meld"):
        hupai.waits("56m11134577s", melds=0)
    with pytest.raises(hupai.InvalidHand, match="0 exposed meld"):
        hupai.shanten(hupai.to_counts("56m111345677s"), melds=0)
    assert hupai.shanten("56m111345677s", melds=None) == 0


def test_sizes_no_meld_count_explains_are_still_refused() -> None:
    for hand in ("123m456p789s", "", "111m", "123456789m11122z3z"):  # 3n tiles, or more than 14
        with pytest.raises(hupai.InvalidHand, match="13 or 14 concealed tiles"):
            hupai.shanten(hand)
    with pytest.raises(hupai.InvalidHand, match="complete hand needs 11"):
        hupai.is_win("56m11134577s")  # 10 tiles: one meld set aside, a waiting hand
    with pytest.raises(hupai.InvalidHand, match="waiting hand of 10"):
        hupai.waits("456m11134577s")


def test_special_forms_still_need_a_concealed_hand() -> None:
    """An inferred meld is exposed: seven pairs never applies to an 11-tile hand."""
    assert hupai.shanten("1122m3344p556677s", forms=Forms.SEVEN_PAIRS) == -1
    with pytest.raises(hupai.InvalidHand, match="fully concealed hand"):
        hupai.shanten("1122m3344p556s", forms=Forms.SEVEN_PAIRS)
    assert hupai.shanten("1122m3344p556s", forms=Forms.SEVEN_PAIRS | Forms.STANDARD) == 2  # standard only


# -- joker_kinds: the same forms everywhere ----------------------------------------------------------------

HAND = "123m456p789s1122z"  # 13 tiles; one joker makes 14
FORMS_OF_KINDS = {
    "mask": 0b11, "numpy int mask": np.int64(0b11), "list": [0, 1], "tuple": (0, 1), "set": {0, 1},
    "range": range(2), "numpy array": np.array([0, 1]), "numpy array of one": np.array([1]),
    "notation": "1m2m", "generator": None,
}


@pytest.mark.parametrize("form", sorted(FORMS_OF_KINDS))
def test_shanten_and_shanten_batch_take_the_same_joker_kinds(form: str) -> None:
    def kinds() -> object:
        value = FORMS_OF_KINDS[form]
        return (k for k in (0, 1)) if form == "generator" else value

    counts = hupai.to_counts(HAND)
    expected = hupai.shanten(counts, jokers=1, joker_kinds=(1,) if form == "numpy array of one" else (0, 1))
    assert hupai.shanten(counts, jokers=1, joker_kinds=kinds()) == expected
    assert hupai.shanten(HAND, jokers=1, joker_kinds=kinds()) == expected
    assert hupai.shanten_batch(counts.reshape(1, 34), jokers=1, joker_kinds=kinds())[0] == expected
    assert hupai.is_win(counts, jokers=1, joker_kinds=kinds()) == (expected == -1)
    assert hupai.is_win_batch(counts.reshape(1, 34), jokers=1, joker_kinds=kinds())[0] == (expected == -1)
    waiting = hupai.to_counts("123m456p789s112z")
    assert hupai.waits(waiting, jokers=1, joker_kinds=kinds()) == hupai.waits(waiting, jokers=1, joker_kinds=[0, 1]) \
        or form == "numpy array of one"


@pytest.mark.parametrize("bad", [True, 1.5, b"\x01", "9x", [34], [-1], 1 << 34])
def test_bad_joker_kinds_are_refused_alike(bad: object) -> None:
    counts = hupai.to_counts(HAND)
    for call in (lambda: hupai.shanten(counts, jokers=1, joker_kinds=bad),
                 lambda: hupai.shanten(HAND, jokers=1, joker_kinds=bad),
                 lambda: hupai.shanten_batch(counts.reshape(1, 34), jokers=1, joker_kinds=bad)):
        with pytest.raises(hupai.InvalidHand):
            call()
