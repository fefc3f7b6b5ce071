"""Malformed input never crashes: it raises ``hupai.InvalidHand`` (a ``ValueError``) with a message.

Covers the tile parser (random strings), hand arguments of every wrong type, dtype and shape, out-of-range
counts, jokers, melds and sizes, and the batch entry points (dtype, shape, contiguity, per-row errors naming
the row).
"""

from __future__ import annotations

import re

import hupai
import numpy as np
import pytest
from hupai import InvalidHand
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

VALID = hupai.to_counts("123m456p789s1122z")  # 13 tiles, 3n+1
FUZZ_SETTINGS = settings(max_examples=300, deadline=None)

TILE_ALPHABET = st.sampled_from(
    list("0123456789mpsz ,")
    + list("一二三四五六七八九万萬筒饼餅条條索东東南西北白发發中红板财財风風")
    + [chr(c) for c in range(0x1F000, 0x1F030)]
    + ["x", "\n", "\x00", "\ufeff", "１", "٣"]
)


def _expect_invalid(call, *args, **kwargs) -> str:
    with pytest.raises(InvalidHand) as info:
        call(*args, **kwargs)
    assert isinstance(info.value, ValueError) and str(info.value), (
        "InvalidHand must be a ValueError with a message"
    )
    return str(info.value)


def _valid_or_invalid(call, *args, **kwargs):
    """Either a result or InvalidHand; any other exception fails the test."""
    try:
        return call(*args, **kwargs)
    except InvalidHand as error:
        assert str(error)
        return None


@FUZZ_SETTINGS
@given(st.one_of(st.text(), st.text(alphabet=TILE_ALPHABET, max_size=40)))
def test_parser_raises_only_invalid_hand(text: str) -> None:
    """parse / to_counts / shanten on any string: kinds in 0..33, or InvalidHand, nothing else."""
    kinds = _valid_or_invalid(hupai.parse, text)
    if kinds is not None:
        assert all(isinstance(k, int) and 0 <= k < 34 for k in kinds)
    counts = _valid_or_invalid(hupai.to_counts, text)
    if counts is not None:
        assert counts.shape == (34,) and counts.dtype == np.uint8 and counts.max(initial=0) <= 4
    _valid_or_invalid(hupai.shanten, text, forms=63)


@pytest.mark.parametrize(
    "text, position",
    [("12mx", 3), ("12m3", 3), ("0m", 0), ("8z", 0), ("m", 0), ("一", 0), ("1m 2", 3), ("🀫", 0)],
)
def test_parser_errors_name_the_position(text: str, position: int) -> None:
    """A malformed tile string names the offending position."""
    message = _expect_invalid(hupai.parse, text)
    assert f"position {position}" in message


@pytest.mark.parametrize(
    "hand",
    [
        123,
        None,
        b"123m",
        1.5,
        [0, 1, 34],
        [-1],
        [0.0],
        ["1m"],
        [True] * 13,
        {"a": 1},
        VALID.astype(np.float64),
        VALID.astype(bool),
        VALID[:33].copy(),
        np.zeros(35, dtype=np.uint8),
        np.zeros((2, 34), dtype=np.uint8),
        np.zeros((1, 34), dtype=np.uint8),
        np.zeros((2, 2, 34), dtype=np.uint8),
        np.full(34, 5, dtype=np.uint8),
        np.full(34, 255, dtype=np.uint8),
        np.array([-1] + [1] * 13 + [0] * 20, dtype=np.int64),
        "1111m1m",
        "123m",
    ],
)
def test_malformed_hands_raise_invalid_hand(hand) -> None:
    """Wrong types, dtypes, shapes, counts 5/255/-1, impossible sizes: InvalidHand from every entry point."""
    for call in (hupai.shanten, hupai.is_win, hupai.waits):
        _expect_invalid(call, hand)
    _expect_invalid(hupai.decompositions, hand)


ELEVEN = hupai.to_counts("1122m3344p55s6z")  # 11 tiles: one exposed meld


@pytest.mark.parametrize(
    "hand, kwargs",
    [
        (VALID, {"jokers": -1}),
        (VALID, {"jokers": 9}),
        (VALID, {"jokers": 2**40}),
        (VALID, {"jokers": 2}),
        (VALID, {"melds": 5}),
        (VALID, {"melds": -1}),
        (VALID, {"melds": 2**33}),
        (VALID, {"melds": 1}),
        (VALID, {"forms": 0}),
        (VALID, {"joker_kinds": 1 << 34}),
        (VALID, {"joker_kinds": -1}),
        (VALID, {"joker_kinds": [34]}),
        (VALID, {"joker_kinds": [0.5]}),
        (ELEVEN, {"melds": 1, "forms": hupai.Forms.SEVEN_PAIRS}),
        (ELEVEN, {"melds": 4}),
    ],
)
def test_bad_arguments_raise_invalid_hand(hand: np.ndarray, kwargs: dict) -> None:
    """Jokers outside 0..8, melds outside 0..4, wrong sizes, no usable form, bad joker masks: InvalidHand."""
    for call in (hupai.shanten, hupai.is_win):
        _expect_invalid(call, hand, **kwargs)


@pytest.mark.parametrize("tiles", [0, 1, 3, 6, 9, 12, 15, 16, 30])
def test_sizes_outside_3n_plus_1_or_2_raise(tiles: int) -> None:
    """Concealed sizes that are not 13 or 14 (melds=0): InvalidHand, also from the batch calls. A single hand
    without ``melds`` of 3n+1 or 3n+2 tiles under 13 has its melds read from the size (issue 23): 1 tile is a
    waiting hand with 4 melds set aside, never a complete one."""
    counts = np.zeros(34, dtype=np.uint8)
    for i in range(tiles):
        counts[i % 34] += 1
    if tiles == 1:
        assert hupai.shanten(counts) == 0
        _expect_invalid(hupai.shanten, counts, melds=0)
    else:
        _expect_invalid(hupai.shanten, counts)
    _expect_invalid(hupai.is_win, counts)
    _expect_invalid(hupai.shanten_batch, counts[None, :])
    _expect_invalid(hupai.is_win_batch, counts[None, :])


def test_contiguity_and_byte_order_do_not_change_answers() -> None:
    """Strided, Fortran-ordered and sliced arrays give the same answers as contiguous ones."""
    wide = np.zeros(68, dtype=np.uint8)
    wide[::2] = VALID
    assert hupai.shanten(wide[::2]) == hupai.shanten(VALID)
    rows = np.stack([VALID, hupai.to_counts("19m19p19s1234567z"), hupai.to_counts("1122m3344p5566s7z")])
    expected = hupai.shanten_batch(rows, forms=63)
    wide_rows = np.zeros((3, 68), dtype=np.uint8)
    wide_rows[:, ::2] = rows
    np.testing.assert_array_equal(hupai.shanten_batch(wide_rows[:, ::2], forms=63), expected)
    np.testing.assert_array_equal(hupai.shanten_batch(np.asfortranarray(rows), forms=63), expected)
    doubled = np.repeat(rows, 2, axis=0)
    np.testing.assert_array_equal(hupai.shanten_batch(doubled[::2], forms=63), expected)
    np.testing.assert_array_equal(hupai.shanten_batch(rows[::-1], forms=63), expected[::-1])


@pytest.mark.parametrize(
    "counts",
    [
        np.zeros(34, dtype=np.uint8),
        np.zeros((3, 33), dtype=np.uint8),
        np.zeros((3, 35), dtype=np.uint8),
        np.zeros((2, 3, 34), dtype=np.uint8),
        np.zeros((3, 34), dtype=np.float64),
        np.zeros((3, 34), dtype=np.int64),
        np.zeros((3, 34), dtype=bool),
        np.zeros((3, 34), dtype=object),
        [[0] * 34] * 3,
        None,
    ],
)
def test_batch_wrong_dtype_or_shape_raises(counts) -> None:
    """shanten_batch / is_win_batch accept only uint8[N, 34]: anything else is InvalidHand, not a crash."""
    _expect_invalid(hupai.shanten_batch, counts)
    _expect_invalid(hupai.is_win_batch, counts)


def test_batch_invalid_row_is_named() -> None:
    """A bad row (count 5/255, wrong size, bad jokers/melds) raises InvalidHand naming the row."""
    rows = np.repeat(VALID[None, :], 10, axis=0)
    complete_rows = np.repeat(hupai.to_counts("123m456p789s11222z")[None, :], 10, axis=0)
    for bad_value in (5, 255):
        bad = rows.copy()
        bad[7, 20] = bad_value
        assert re.search(r"\b7\b", _expect_invalid(hupai.shanten_batch, bad))
        bad = complete_rows.copy()
        bad[7, 20] = bad_value
        assert re.search(r"\b7\b", _expect_invalid(hupai.is_win_batch, bad))
    bad = rows.copy()
    bad[6, 33] += 1  # 14 tiles: fine; 15 is not
    bad[6, 32] += 1
    assert re.search(r"\b6\b", _expect_invalid(hupai.shanten_batch, bad))
    jokers = np.zeros(10, dtype=np.int32)
    jokers[4] = 9
    assert re.search(r"\b4\b", _expect_invalid(hupai.shanten_batch, rows, jokers=jokers))
    melds = np.zeros(10, dtype=np.int64)
    melds[3] = 5
    assert re.search(r"\b3\b", _expect_invalid(hupai.shanten_batch, rows, melds=melds))


ENTRY_POINTS = {
    "shanten": lambda **kw: hupai.shanten(VALID, **kw),
    "is_win": lambda **kw: hupai.is_win(hupai.to_counts("123m456p789s11222z"), **kw),
    "waits": lambda **kw: hupai.waits(VALID, **kw),
    "decompositions": lambda **kw: hupai.decompositions(hupai.to_counts("123m456p789s11222z"), **kw),
    "shanten_batch": lambda **kw: hupai.shanten_batch(VALID[None, :], **kw),
    "is_win_batch": lambda **kw: hupai.is_win_batch(hupai.to_counts("123m456p789s11222z")[None, :], **kw),
}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize(
    "kwargs",
    [{"forms": -1}, {"forms": 2**40}, {"jokers": 2**40}, {"melds": 2**40}, {"jokers": -1}, {"melds": 9}],
)
def test_out_of_range_integer_arguments_raise_invalid_hand(entry: str, kwargs: dict) -> None:
    """Negative or huge forms / jokers / melds: InvalidHand from every entry point, not TypeError."""
    _expect_invalid(ENTRY_POINTS[entry], **kwargs)


@pytest.mark.parametrize(
    "jokers",
    [np.zeros(9, dtype=np.int32), np.zeros((10, 1), dtype=np.int32), np.zeros(10, dtype=np.float64), -1, 9],
)
def test_batch_bad_jokers_argument_raises(jokers) -> None:
    """Per-row jokers of the wrong length, shape or dtype (or out of range scalars): InvalidHand."""
    rows = np.repeat(VALID[None, :], 10, axis=0)
    _expect_invalid(hupai.shanten_batch, rows, jokers=jokers)
    _expect_invalid(hupai.shanten_batch, rows, melds=jokers if not isinstance(jokers, int) else 5)


def test_empty_batch_returns_empty_result() -> None:
    """Zero rows is a valid batch: an empty int8 / bool result."""
    empty = np.zeros((0, 34), dtype=np.uint8)
    assert hupai.shanten_batch(empty).dtype == np.int8 and hupai.shanten_batch(empty).shape == (0,)
    assert hupai.is_win_batch(empty).dtype == np.bool_ and hupai.is_win_batch(empty).shape == (0,)


@FUZZ_SETTINGS
@given(
    hnp.arrays(
        dtype=st.sampled_from([np.uint8, np.int8, np.int32, np.int64, np.float32, np.bool_]),
        shape=hnp.array_shapes(min_dims=1, max_dims=3, max_side=40),
    ),
    st.integers(-2, 10),
    st.integers(-1, 6),
    st.integers(-1, 70),
)
def test_batch_fuzz_raises_only_invalid_hand(counts: np.ndarray, jokers: int, melds: int, forms: int) -> None:
    """Random arrays, jokers, melds and forms: a result of the right shape, or InvalidHand."""
    result = _valid_or_invalid(hupai.shanten_batch, counts, jokers=jokers, melds=melds, forms=forms)
    if result is not None:
        assert result.shape == (counts.shape[0],) and counts.dtype == np.uint8 and counts.ndim == 2
        assert ((result >= -1) & (result <= 13)).all()


@FUZZ_SETTINGS
@given(
    st.lists(st.integers(-3, 40), max_size=20), st.integers(-2, 10), st.integers(-1, 6), st.integers(-1, 70)
)
def test_single_hand_fuzz_raises_only_invalid_hand(
    kinds: list[int], jokers: int, melds: int, forms: int
) -> None:
    """Random kind lists, jokers, melds and forms through every single-hand call: result or InvalidHand."""
    for call in (hupai.shanten, hupai.is_win, hupai.waits, hupai.decompositions):
        _valid_or_invalid(call, kinds, jokers=jokers, melds=melds, forms=forms)
