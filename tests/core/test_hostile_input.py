"""Hostile input at the C++ boundary (issue 9, item 1): every case here once crashed, corrupted or answered wrong.

Each test names what it guards: batch rows read once while another thread writes, arrays recognised by numpy's
C API and not by a type's name, exact per-row integer arrays, empty batches checked, one meaning for 34-byte
buffers, numpy integer scalars accepted and bools/floats refused, out-of-range melds refused before arithmetic,
and the engine scans reading plain data only.
"""

from __future__ import annotations

import threading
import time

import hupai
import numpy as np
import pytest
from hupai import Forms, InvalidHand, _core
from hupai.tiles import kind_name, to_counts, to_kinds

HAND = to_counts("123m456p789s1122z")  # 13 tiles, waits on 1z 2z
WIN = to_counts("123m456p789s11222z")  # 14 tiles, complete


# ------------------------------------------------------------------------- a writer thread during a batch


@pytest.mark.parametrize("batch", [hupai.shanten_batch, hupai.is_win_batch])
def test_a_writer_thread_during_a_batch_never_crashes(batch):
    """Another thread scribbles random bytes (counts up to 255) into the rows the batch reads, GIL released,
    for a few seconds: every call returns valid answers or raises InvalidHand naming a row, never crashes."""
    rng = np.random.default_rng(9)
    rows = np.repeat(WIN[None, :] if batch is hupai.is_win_batch else HAND[None, :], 20_000, axis=0)
    stop = threading.Event()

    def scribble() -> None:
        local = np.random.default_rng(1)
        flat = rows.reshape(-1)
        while not stop.is_set():
            at = local.integers(0, flat.size, 4096)
            flat[at] = local.integers(0, 256, 4096, dtype=np.uint8)
            flat[at] = rows.reshape(-1)[at[::-1]]  # and back to sane-looking values, so some rows stay valid
            time.sleep(0)

    writer = threading.Thread(target=scribble)
    writer.start()
    calls = errors = 0
    try:
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline:
            try:
                out = batch(rows, forms=Forms.STANDARD | Forms.SEVEN_PAIRS, threads=int(rng.integers(1, 3)))
            except InvalidHand as error:
                assert str(error).startswith("row ")
                errors += 1
            else:
                assert out.shape == (rows.shape[0],)
                if out.dtype == np.int8:
                    assert out.min() >= -1 and out.max() <= 8
            calls += 1
    finally:
        stop.set()
        writer.join()
    assert calls > 5 and errors > 0  # the writer really did corrupt rows while the batch ran


# ------------------------------------------------------------------------------- types, never type names


def test_a_class_named_like_an_ndarray_is_not_read_as_one():
    fake = type("numpy.ndarray", (int,), {})(5)
    for call in (hupai.shanten, hupai.is_win, hupai.waits, hupai.decompositions, to_counts):
        with pytest.raises(InvalidHand):
            call(fake)
    with pytest.raises(InvalidHand):
        hupai.shanten_batch(fake)


def test_ndarray_subclasses_and_odd_layouts_are_read_through_numpy():
    class Sub(np.ndarray):
        pass

    assert hupai.shanten(HAND.view(Sub)) == 0
    strided = np.zeros(68, dtype=np.uint8)
    strided[::2] = HAND
    assert hupai.shanten(strided[::2]) == 0  # a view with stride 2
    assert hupai.shanten(HAND[::-1][::-1]) == 0
    assert hupai.shanten(np.asfortranarray(HAND)) == 0
    readonly = HAND.copy()
    readonly.flags.writeable = False
    assert hupai.shanten(readonly) == 0
    for dtype in (np.int8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64):
        assert hupai.shanten(HAND.astype(dtype)) == 0, dtype
        assert hupai.waits(HAND.astype(dtype)) == [27, 28], dtype
    with pytest.raises(InvalidHand):
        hupai.shanten(HAND.astype(">i4"))  # a non-native byte order is refused, never misread
    for bad in (HAND.astype(np.float32), HAND.astype(bool), HAND.astype(object), HAND.reshape(2, 17),
                np.array(5, dtype=np.uint8), HAND.astype("datetime64[s]")):
        with pytest.raises(InvalidHand):
            hupai.shanten(bad)


# --------------------------------------------------------------------------- per-row arrays, empty batches


@pytest.mark.parametrize("name", ["jokers", "melds"])
def test_per_row_arrays_of_any_integer_dtype_are_read_exactly(name):
    rows = np.stack([HAND, HAND])
    for huge in (2**32 + 1, 2**31, -(2**31), 2**63 - 1):
        with pytest.raises(InvalidHand, match=f"row 1: {name}={huge}"):
            hupai.shanten_batch(rows, **{name: np.array([0, huge], dtype=np.int64)})
    with pytest.raises(InvalidHand, match=f"{name}=18446744073709551615"):
        hupai.shanten_batch(rows, **{name: np.array([0, 2**64 - 1], dtype=np.uint64)})
    for dtype in (np.int8, np.uint8, np.int16, np.uint32, np.int64, np.uint64):
        assert hupai.shanten_batch(rows, **{name: np.zeros(2, dtype=dtype)}).tolist() == [0, 0], dtype
    # A numpy integer scalar or a 0-d array is one value for every row.
    assert hupai.shanten_batch(rows, **{name: np.int64(0)}).tolist() == [0, 0]
    assert hupai.shanten_batch(rows, **{name: np.array(0)}).tolist() == [0, 0]
    for bad in (np.zeros(2, dtype=np.float64), np.zeros(2, dtype=bool), np.zeros(3, dtype=np.int64), True, 1.0):
        with pytest.raises(InvalidHand):
            hupai.shanten_batch(rows, **{name: bad})


def test_a_per_row_joker_array_counts_per_row():
    rows = np.stack([HAND, HAND[:], to_counts("123m456p789s112z")])
    assert hupai.shanten_batch(rows, jokers=np.array([0, 1, 2], dtype=np.uint8)).tolist() == [0, -1, -1]


@pytest.mark.parametrize("batch", [hupai.shanten_batch, hupai.is_win_batch])
@pytest.mark.parametrize("kwargs", [{"jokers": 9}, {"jokers": -1}, {"melds": 5}, {"melds": -(2**31)},
                                    {"forms": 0}, {"forms": 64}, {"threads": 0}, {"threads": 10**6},
                                    {"joker_kinds": 1 << 34}, {"joker_kinds": [34]}, {"jokers": 1.5},
                                    {"melds": True}, {"jokers": np.zeros(1, dtype=np.int64)}])
def test_an_empty_batch_checks_its_arguments(batch, kwargs):
    with pytest.raises(InvalidHand):
        batch(np.zeros((0, 34), dtype=np.uint8), **kwargs)


@pytest.mark.parametrize("batch", [hupai.shanten_batch, hupai.is_win_batch])
def test_an_empty_batch_checks_its_array(batch):
    for bad in (np.zeros((0, 34), dtype=np.int64), np.zeros((0, 33), dtype=np.uint8), np.zeros(0, dtype=np.uint8)):
        with pytest.raises(InvalidHand):
            batch(bad)
    assert batch(np.zeros((0, 34), dtype=np.uint8)).shape == (0,)


# ----------------------------------------------------------------------- one meaning for 34-byte buffers


@pytest.mark.parametrize("wrap", [bytes, bytearray, lambda b: memoryview(bytes(b)), lambda b: memoryview(bytearray(b))])
def test_34_byte_buffers_are_counts_everywhere(wrap):
    counts, complete = wrap(HAND.tobytes()), wrap(WIN.tobytes())
    assert hupai.shanten(counts) == 0
    assert hupai.is_win(complete) is True
    assert hupai.waits(counts) == [27, 28]
    assert len(hupai.decompositions(complete)) == 1
    assert hupai.discard_options(complete)[0].kind == 0
    assert to_counts(counts).tolist() == HAND.tolist()
    assert to_kinds(counts) == to_kinds("123m456p789s1122z")
    assert hupai.format_tiles(counts) == "123m456p789s1122z"


def test_buffers_of_another_size_are_refused_not_read_as_kinds():
    for bad in (b"\x00\x01\x02", bytearray(13), memoryview(bytes(35)), memoryview(HAND.tobytes()).cast("B", (2, 17))):
        for call in (hupai.shanten, hupai.waits, to_counts, to_kinds):
            with pytest.raises(InvalidHand):
                call(bad)


# ------------------------------------------------------------------ ints: numpy scalars yes, bools/floats no


def test_numpy_integer_scalars_are_accepted_wherever_an_int_is():
    i = np.int64
    assert hupai.shanten(HAND, jokers=i(0), melds=np.uint8(0), forms=np.int32(1), joker_kinds=i(3)) == 0
    assert hupai.shanten("123m456p789s1122z", jokers=i(1), joker_kinds=[i(27)]) == -1
    assert hupai.waits(HAND, jokers=np.int16(0), melds=i(0), forms=i(1)) == [27, 28]
    assert hupai.shanten_batch(HAND[None, :], jokers=i(0), melds=i(0), forms=i(1), threads=i(1)).tolist() == [0]
    assert hupai.shanten([i(k) for k in to_kinds(HAND)]) == 0
    assert kind_name(np.uint8(31)) == "5z"


@pytest.mark.parametrize("value", [True, False, np.True_, 1.0, 0.5, "1", None, 1j])
def test_bools_and_floats_are_refused_as_ints(value):
    for kwargs in ({"jokers": value}, {"melds": value}, {"forms": value}):
        if value is None:
            continue
        with pytest.raises(InvalidHand):
            hupai.shanten(HAND, **kwargs)
        with pytest.raises(InvalidHand):
            hupai.waits(HAND, **kwargs)
    with pytest.raises(InvalidHand):
        kind_name(value)
    with pytest.raises(InvalidHand):
        hupai.shanten([value] + to_kinds(HAND)[1:])
    with pytest.raises(InvalidHand):
        to_counts([value])


@pytest.mark.parametrize("melds", [-(2**31), 2**31 - 1, -(2**63), 2**63 - 1, 2**100, -1001, 1001])
def test_melds_far_out_of_range_are_refused_before_any_arithmetic(melds):
    for call in (hupai.shanten, hupai.is_win, hupai.waits, hupai.decompositions, hupai.discard_options):
        with pytest.raises(InvalidHand, match="melds"):
            call(HAND, melds=melds)
    with pytest.raises(InvalidHand, match="melds"):
        hupai.shanten_batch(HAND[None, :], melds=np.array([melds]) if abs(melds) < 2**63 else melds)


def test_the_plain_core_functions_refuse_what_is_not_plain():
    """_core.shanten itself takes buffers only; hupai.shanten routes strings and kind lists to Python."""
    for bad in ("123m456p789s1122z", list(range(13)), None, 5):
        with pytest.raises(InvalidHand):
            _core.shanten(bad)
        with pytest.raises(InvalidHand):
            _core.waits(bad, 0, 0, 1, None)
    with pytest.raises(InvalidHand):
        _core.shanten(HAND, joker_kinds=[0, 1])  # kinds are the wrapper's job
    assert _core.buffer_counts("123m") is None and _core.buffer_counts([1, 2]) is None
    assert _core.buffer_counts(HAND) == HAND.tobytes()


def test_a_fallback_only_gets_what_is_not_plain():
    seen = []

    def fallback(hand, **kwargs):
        seen.append(hand)
        return "fallback"

    shanten = _core.hand_function("shanten", fallback)
    assert shanten(HAND) == 0 and seen == []
    assert shanten("123m") == "fallback" and seen == ["123m"]
    assert shanten(HAND, joker_kinds=[1]) == "fallback"
    with pytest.raises(InvalidHand):
        shanten(HAND, jokers=True)  # a bad int is refused before anything is routed
    with pytest.raises(ValueError):
        _core.hand_function("waits", fallback)
    with pytest.raises(TypeError):
        _core.hand_function("shanten", 5)


# ----------------------------------------------------------------------------------- the engine's scans


class Shrinking(list):
    """A sequence that empties itself when read: the scan must hold its own references."""

    def __getitem__(self, index):
        item = super().__getitem__(index)
        self.clear()
        return item

    def __len__(self):
        return 4


def test_claim_scan_holds_its_own_references_to_what_it_reads():
    hands = Shrinking(bytearray(HAND) for _ in range(4))
    with pytest.raises(ValueError):
        _core.claim_scan(hands, [0] * 4, [None] * 4, 27, 0, 1, 0, 7)
    hands = [bytearray(HAND) for _ in range(4)]
    with pytest.raises(ValueError):
        _core.claim_scan(hands, Shrinking([[], [], [], []]), [None] * 4, 27, 0, 1, 0, 7)

    class Seats(tuple):
        pass

    shapes, ready = _core.claim_scan(Seats(hands), Seats([[], [], [], []]), [None] * 4, 27, 0, 1, 0, 7)
    assert shapes == 0x03030300 and ready == (None, True, True, True)  # read through the sequence protocol


def test_claim_scan_reads_its_hands_once():
    """The hands are copied before they are checked and used: the result is that of the hands as read."""
    hands = [memoryview(bytearray(HAND)) for _ in range(4)]
    assert _core.claim_scan(hands, [0] * 4, [None] * 4, 27, 0, 1, 0, 7)[0] == 0x03030300
